//! `gpu-doctor --npd`: the Kubernetes node-problem-detector custom-plugin contract.
//!
//! node-problem-detector runs a custom plugin and reads its exit status, 0 (OK), 1
//! (NonOK: the problem is there) or 2 (Unknown), and its standard output as the
//! condition's message, cut to `max_output_length` (80 characters unless configured):
//! `pkg/custompluginmonitor/types/types.go` and `types/config.go` in
//! kubernetes/node-problem-detector. So: one line, at most [`MAX_CHARS`], the first
//! failure's id first so that the cut never loses what the problem is.

use super::Report;
use crate::finding::Severity;

/// node-problem-detector's default `max_output_length`.
pub const MAX_CHARS: usize = 80;

pub const OK: i32 = 0;
pub const NON_OK: i32 = 1;
pub const UNKNOWN: i32 = 2;

/// The line and the exit status for node-problem-detector.
pub fn outcome(r: &Report) -> (String, i32) {
    if let Some(e) = r.check_errors.first() {
        return (
            clip(&format!("unknown: check {} broke: {}", e.id, e.message)),
            UNKNOWN,
        );
    }
    let fails: Vec<_> = r
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Fail)
        .collect();
    match fails.first().and(super::lead_cause(r)) {
        None => {
            let warns = r
                .findings
                .iter()
                .filter(|f| f.severity == Severity::Warn)
                .count();
            let line = if warns == 0 {
                "ok: the node can run CUDA work".to_string()
            } else {
                format!("ok: the node can run CUDA work ({warns} warning(s))")
            };
            (clip(&line), OK)
        }
        Some(first) => {
            let more = if fails.len() > 1 {
                format!(" (+{} more)", fails.len() - 1)
            } else {
                String::new()
            };
            let scope = match &first.scope {
                crate::finding::Scope::Host => String::new(),
                s => format!(" {s}"),
            };
            // The id and the count first: they must survive the cut.
            let head = format!("{}{scope}{more}: ", first.id);
            (clip(&format!("{head}{}", first.summary)), NON_OK)
        }
    }
}

/// The line for a run that reached no verdict (bad input, internal error).
pub fn unknown(error: &str) -> (String, i32) {
    (clip(&format!("unknown: {error}")), UNKNOWN)
}

/// One line: control characters out, at most [`MAX_CHARS`] characters.
fn clip(s: &str) -> String {
    let one: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if one.chars().count() <= MAX_CHARS {
        return one;
    }
    let mut out: String = one.chars().take(MAX_CHARS - 1).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::{Finding, Scope};

    fn report(findings: Vec<Finding>) -> Report {
        Report::new(
            crate::matrix::bundled(),
            crate::checks::testutil::healthy(),
            findings,
            Vec::new(),
        )
    }

    #[test]
    fn the_contract() {
        let (line, code) = outcome(&report(vec![]));
        assert_eq!((line.as_str(), code), ("ok: the node can run CUDA work", 0));
        let warn = report(vec![Finding::new(
            "env.launch_blocking",
            Severity::Warn,
            "w",
        )]);
        assert_eq!(outcome(&warn).1, OK);
        assert!(outcome(&warn).0.contains("1 warning"));
        let fail = report(vec![
            Finding::new("gpu.xid", Severity::Fail, "Xid 79 ".repeat(40)).scope(Scope::Gpu {
                index: Some(3),
                pci_bus_id: None,
            }),
            // A failure later in the catalogue: the first one leads.
            Finding::new("probe.bandwidth", Severity::Fail, "x"),
        ]);
        let (line, code) = outcome(&fail);
        assert_eq!(code, NON_OK);
        assert!(
            line.starts_with("gpu.xid GPU 3 (+1 more): Xid 79"),
            "{line}"
        );
        assert_eq!(line.chars().count(), MAX_CHARS);
        assert!(!line.contains('\n'));
        let (line, code) = unknown("could not read \"x\":\nno such file");
        assert_eq!(code, UNKNOWN);
        assert!(!line.contains('\n') && line.chars().count() <= MAX_CHARS);
    }
}
