//! "NCCL error" messages explained with what the probes between GPUs showed: when a
//! machine's (or a saved report's) P2P or NCCL probe failed, that failure is the first
//! cause of the pasted NCCL error, with the probe's own fix; when both passed on every
//! GPU, the machine is ruled out for the collective and the job or network comes first.

use super::{rank, Explanation, RankedCause};
use crate::finding::{Finding, Severity};

/// The rules whose message is an NCCL failure.
const NCCL_RULES: [&str; 2] = ["nccl.error", "nccl.shm"];
/// The findings of the probes between GPUs, most telling first.
const PROBE_IDS: [&str; 3] = ["probe.nccl", "probe.p2p", "probe.p2p_bandwidth"];

/// Whether the text holds an NCCL failure (the probes between GPUs can tell about it).
pub fn wants_probes(ex: &Explanation) -> bool {
    ex.matches
        .iter()
        .any(|m| NCCL_RULES.contains(&m.id.as_str()))
}

/// Puts a failed probe between GPUs first among an NCCL message's causes, or rules the
/// machine out when the probes passed.
pub fn refine(ex: &mut Explanation, findings: &[Finding], facts: &str) {
    let probes: Vec<&Finding> = PROBE_IDS
        .iter()
        .flat_map(|id| findings.iter().filter(move |f| f.id == *id))
        .collect();
    if probes.is_empty() {
        return;
    }
    // The worst first (a failure before a warning), then in PROBE_IDS order.
    let mut bad: Vec<&&Finding> = probes
        .iter()
        .filter(|f| f.severity >= Severity::Warn)
        .collect();
    bad.sort_by_key(|f| std::cmp::Reverse(f.severity));
    for m in ex
        .matches
        .iter_mut()
        .filter(|m| NCCL_RULES.contains(&m.id.as_str()))
    {
        if let Some(first) = bad.first() {
            let weight = if first.severity == Severity::Fail {
                2.0
            } else {
                0.8
            };
            let evidence: Vec<String> = bad
                .iter()
                .map(|f| format!("{facts}: {} ({})", f.summary, f.severity))
                .collect();
            let (fix, commands) = first.fix.as_ref().map_or_else(
                || (first.summary.clone(), Vec::new()),
                |x| (x.text.clone(), x.commands.clone()),
            );
            match m.causes.iter_mut().find(|c| c.id == first.id) {
                Some(c) => {
                    c.weight += weight;
                    c.evidence.extend(evidence);
                    c.fix = fix;
                    c.commands = commands;
                }
                None => m.causes.push(RankedCause {
                    id: first.id.clone(),
                    confidence: 0.0,
                    why: format!(
                        "The same NCCL (or the peer copies it relies on) failed on this machine's GPUs, without the job: {}",
                        first.summary
                    ),
                    fix,
                    commands,
                    evidence,
                    weight,
                    observed: false,
                }),
            }
        } else {
            // Every probe between GPUs passed: NCCL itself and the paths between the
            // GPUs work here, so a machine-side cause is less likely than the job's.
            let passed: Vec<String> = probes
                .iter()
                .map(|f| format!("{facts}: {}", f.summary))
                .collect();
            for c in &mut m.causes {
                if c.id == "workload.nccl" {
                    c.weight += 0.3;
                    c.evidence.extend(passed.iter().map(|p| {
                        format!("{p} — the machine's GPUs and NCCL work together; look at the job, its other ranks and the network")
                    }));
                }
            }
        }
        rank(m);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::{PROBE_NCCL, PROBE_P2P};

    const NCCL_ERROR: &str = "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5";

    #[test]
    fn a_failed_p2p_probe_becomes_the_first_cause_of_an_nccl_error() {
        let mut ex = super::super::explain(NCCL_ERROR);
        assert!(wants_probes(&ex));
        let before = ex.matches[0].causes[0].id.clone();
        assert_ne!(before, "probe.p2p");
        let findings = vec![
            PROBE_P2P
                .finding(
                    Severity::Fail,
                    "peer access is reported but copies arrived changed: GPU 1 → GPU 0",
                )
                .fix("Disable ACS on the PCIe switches", &["nvidia-smi topo -m"]),
            PROBE_NCCL.finding(Severity::Pass, "GPUs: NCCL 2.20.5: all-reduce correct"),
        ];
        refine(&mut ex, &findings, "the saved report");
        let top = &ex.matches[0].causes[0];
        assert_eq!(top.id, "probe.p2p", "{:#?}", ex.matches[0].causes);
        assert!(top.fix.contains("ACS"));
        assert!(top.evidence[0].contains("GPU 1 → GPU 0"));
        assert!(top.confidence > 0.3, "{top:?}");
    }

    #[test]
    fn passing_probes_point_at_the_job_and_other_texts_are_left_alone() {
        let mut ex = super::super::explain(NCCL_ERROR);
        let findings =
            vec![PROBE_NCCL.finding(Severity::Pass, "GPUs: NCCL 2.20.5: all-reduce correct")];
        refine(&mut ex, &findings, "this machine");
        let w = ex.matches[0]
            .causes
            .iter()
            .find(|c| c.id == "workload.nccl")
            .unwrap();
        assert!(
            w.evidence.iter().any(|e| e.contains("look at the job")),
            "{w:?}"
        );
        let mut other = super::super::explain("RuntimeError: CUDA error: invalid device ordinal");
        assert!(!wants_probes(&other));
        let snapshot = format!("{:?}", other.matches);
        refine(&mut other, &findings, "this machine");
        assert_eq!(format!("{:?}", other.matches), snapshot);
    }
}
