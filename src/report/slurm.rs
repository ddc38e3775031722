//! `gpu-doctor --slurm`: the single-host mode for Slurm's HealthCheckProgram. Silent with
//! exit 0 when the node can run work (warnings included); otherwise one line with the
//! reason, fit for `scontrol update ... state=drain reason=...`, and a non-zero exit.

use super::{exit, Report};
use crate::finding::Severity;

/// The longest reason printed (Slurm keeps node reasons short).
pub const MAX_REASON_CHARS: usize = 200;

/// The line to print and the exit code: `None` and 0 when the node can run work.
pub fn outcome(r: &Report) -> (Option<String>, i32) {
    if let Some(e) = r.check_errors.first() {
        return (
            Some(clip(&format!(
                "gpu-doctor: no verdict: check {} broke: {}",
                e.id, e.message
            ))),
            exit::NO_VERDICT,
        );
    }
    let fails: Vec<_> = r
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Fail)
        .collect();
    // Failures lead with the text report's cause (warnings alone keep the node in service).
    let Some(first) = super::lead_cause(r).filter(|_| !fails.is_empty()) else {
        return (None, exit::OK);
    };
    let more = if fails.len() > 1 {
        format!(" (+{} more)", fails.len() - 1)
    } else {
        String::new()
    };
    // The action last and never cut: a scheduler's script can read it from the line's end.
    let action = first
        .action
        .map_or(String::new(), |a| format!(" [action: {}]", a.as_str()));
    let room = MAX_REASON_CHARS.saturating_sub(action.chars().count());
    (
        Some(format!(
            "{}{action}",
            clip_to(
                &format!("gpu-doctor: {}: {}{more}", first.id, first.summary),
                room
            )
        )),
        exit::FAILURES,
    )
}

/// One line: control characters out, at most [`MAX_REASON_CHARS`].
fn clip(s: &str) -> String {
    clip_to(s, MAX_REASON_CHARS)
}

/// One line: control characters out, at most `max` characters (then an ellipsis).
fn clip_to(s: &str, max: usize) -> String {
    let one: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let mut out: String = one.chars().take(max).collect();
    if one.chars().count() > max {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Finding;

    fn report(findings: Vec<Finding>) -> Report {
        Report::new(
            crate::matrix::bundled(),
            crate::checks::testutil::healthy(),
            findings,
            Vec::new(),
        )
    }

    #[test]
    fn silent_unless_the_node_fails() {
        assert_eq!(outcome(&report(vec![])), (None, 0));
        let warn = report(vec![Finding::new(
            "env.launch_blocking",
            Severity::Warn,
            "w",
        )]);
        assert_eq!(outcome(&warn), (None, 0));
        let fail = report(vec![
            Finding::new(
                "driver.library_mismatch",
                Severity::Fail,
                "module 550 ≠ library 535\nreboot",
            ),
            // A failure later in the catalogue: the first one leads.
            Finding::new("probe.bandwidth", Severity::Fail, "x"),
        ]);
        let (line, code) = outcome(&fail);
        assert_eq!(code, 2);
        assert_eq!(
            line.unwrap(),
            "gpu-doctor: driver.library_mismatch: module 550 ≠ library 535 reboot (+1 more)"
        );
        let long = report(vec![Finding::new(
            "host.x",
            Severity::Fail,
            "y".repeat(500),
        )]);
        assert!(outcome(&long).0.unwrap().chars().count() <= MAX_REASON_CHARS + 1);
    }

    /// The line names the root cause, as the text report's "Cause" does, not the first
    /// failure in report order (the real H100 with the stub libcuda: cuInit's failure comes
    /// first in the catalogue, the stub that explains it later).
    #[test]
    fn the_line_names_the_root_cause() {
        let mut init = Finding::new(
            "driver.cuda_init_failed",
            Severity::Fail,
            "cuInit failed: 34",
        );
        init.caused_by = Some(crate::finding::CauseRef {
            id: "driver.stub_library".into(),
            scope: crate::finding::Scope::Host,
        });
        let r = report(vec![
            init,
            Finding::new(
                "driver.stub_library",
                Severity::Fail,
                "libcuda.so.1 is the stub",
            ),
        ]);
        let line = outcome(&r).0.unwrap();
        assert!(
            line.starts_with("gpu-doctor: driver.stub_library: libcuda.so.1 is the stub (+1 more)"),
            "{line}"
        );
    }

    /// The action ends the line and survives the cut, so a script can act on it.
    #[test]
    fn the_action_ends_the_line_even_when_the_summary_is_cut() {
        let r = report(vec![Finding::new(
            "gpu.xid",
            Severity::Fail,
            "z".repeat(500),
        )
        .action(crate::finding::Action::Drain)]);
        let line = outcome(&r).0.unwrap();
        assert!(line.starts_with("gpu-doctor: gpu.xid: zzz"), "{line}");
        assert!(line.ends_with("… [action: drain]"), "{line}");
        assert!(line.chars().count() <= MAX_REASON_CHARS + 1, "{line}");
    }
}
