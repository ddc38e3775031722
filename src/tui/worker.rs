//! Gathering and judging on a worker thread. It walks the same steps as
//! `facts::gather` one at a time so the screen can show which one is under way, then
//! judges with the same checks as every other output.

use std::sync::mpsc::Sender;
use std::time::Instant;

use super::app::ProbePlan;
use super::msg::{Msg, ProbeState};
use crate::facts;
use crate::facts::probe::ProbeOutcome;
#[cfg(test)]
use crate::facts::GatherOptions;
use crate::finding::Severity;
use crate::host::Host;
use crate::pipeline;
use crate::probes::plan::Plan;
use crate::probes::runner::ProbeEvent;
use crate::report::Report;

pub use crate::pipeline::Request; // moved: src/pipeline.rs

/// Produces the report of one run (`pipeline::gather` then `pipeline::judge`), with the
/// stages for the screen.
pub fn build(
    req: &Request,
    host: &Host,
    stage: &mut dyn FnMut(usize, bool),
) -> Result<Report, String> {
    if let Some(report) = &req.ready {
        for i in 0..=facts::STEPS.len() {
            stage(i, true);
        }
        return Ok((**report).clone());
    }
    let facts = pipeline::gather(req, host, stage).map_err(|e| e.to_string())?;
    stage(facts::STEPS.len(), false);
    let report = judge(req, host, facts);
    stage(facts::STEPS.len(), true);
    report
}

/// Runs the checks over the facts (again, once the probes have results).
fn judge(req: &Request, host: &Host, facts: facts::Facts) -> Result<Report, String> {
    pipeline::judge(req, host, facts).map_err(|e| e.to_string())
}

/// The probes of the person's pick: the GPUs and probes not left out in the picker.
pub fn probe_plan(req: &Request, host: &Host, facts: &facts::Facts, picked: &ProbePlan) -> Plan {
    let mut plan = crate::probes::plan::plan(facts, host, &req.probes);
    let kept = |g: &crate::probes::plan::PlannedGpu| {
        let by_index = g.nvml_index.map(|i| i.to_string());
        ![by_index, g.pci_bus_id.clone()]
            .iter()
            .flatten()
            .any(|key| picked.skip_gpus.contains(key))
    };
    plan.gpus.retain(kept);
    // The probes between GPUs run on the GPUs left, two at least.
    if let Some(b) = &mut plan.between {
        b.gpus.retain(kept);
        b.probes
            .retain(|p| !picked.skip_probes.contains(p.as_str()));
        b.skipped
            .retain(|(p, _)| !picked.skip_probes.contains(p.as_str()));
    }
    if plan.between.as_ref().is_some_and(|b| b.gpus.len() < 2) {
        plan.between = None;
    }
    for gpu in &mut plan.gpus {
        gpu.probes
            .retain(|p| !picked.skip_probes.contains(p.as_str()));
        gpu.skipped
            .retain(|(p, _)| !picked.skip_probes.contains(p.as_str()));
    }
    plan
}

/// Live probe progress as the GPU table's cell states (rows are keyed by NVML index).
fn probe_msg(event: &ProbeEvent, plan: &Plan) -> Option<Msg> {
    let index_of = |ordinal: u32| {
        plan.gpus
            .iter()
            .find(|g| g.cuda_ordinal == ordinal)
            .map(|g| g.nvml_index.unwrap_or(ordinal))
    };
    match event {
        // The probes between GPUs are the node's, not one GPU's cell.
        ProbeEvent::Started { probe, .. } if probe.between_gpus() => None,
        ProbeEvent::Finished(r) if r.probe.between_gpus() => None,
        ProbeEvent::Started {
            cuda_ordinal,
            probe,
        } => Some(Msg::Probe {
            gpu: index_of(*cuda_ordinal)?,
            probe: probe.as_str().to_string(),
            state: ProbeState::Running,
        }),
        ProbeEvent::Finished(r) => Some(Msg::Probe {
            gpu: r.nvml_index.unwrap_or(r.cuda_ordinal),
            probe: r.probe.as_str().to_string(),
            state: ProbeState::Done(probe_severity(&r.outcome), Some(r.elapsed_ms)),
        }),
    }
}

/// The cell colour while the final findings are not judged yet.
fn probe_severity(outcome: &ProbeOutcome) -> Severity {
    match outcome {
        ProbeOutcome::Passed { .. } => Severity::Pass,
        ProbeOutcome::Skipped { .. } => Severity::Info,
        _ => Severity::Fail,
    }
}

/// Starts run `generation` on its own thread; its messages arrive on `tx`. The report
/// without probe results comes first, then the picked probes run with their progress
/// streamed into the GPU table, then the report with their findings.
pub fn spawn(req: Request, host: Host, generation: u64, picked: ProbePlan, tx: Sender<Msg>) {
    let failed = tx.clone();
    let started = std::thread::Builder::new()
        .name(format!("gather-{generation}"))
        .spawn(move || {
            let t0 = Instant::now();
            let mut stage = |stage, done| {
                let _ = tx.send(Msg::Stage {
                    generation,
                    stage,
                    done,
                });
            };
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let report = build(&req, &host, &mut stage)?;
                // A saved or pasted report describes another moment or machine.
                if req.from.is_some() || req.ready.is_some() {
                    return Ok(report);
                }
                let plan = probe_plan(&req, &host, &report.facts, &picked);
                if plan.gpus.is_empty() {
                    return Ok(report);
                }
                let mut facts = report.facts.clone();
                let _ = tx.send(Msg::Loaded {
                    generation,
                    report: Box::new(report),
                    elapsed_ms: t0.elapsed().as_millis(),
                });
                for gpu in &plan.gpus {
                    for p in &gpu.probes {
                        let _ = tx.send(Msg::Probe {
                            gpu: gpu.nvml_index.unwrap_or(gpu.cuda_ordinal),
                            probe: p.as_str().to_string(),
                            state: ProbeState::Pending,
                        });
                    }
                }
                let events = std::sync::Mutex::new(tx.clone());
                facts.probes = crate::probes::runner::run(&host, &plan, &|event| {
                    if let (Some(msg), Ok(tx)) = (probe_msg(&event, &plan), events.lock()) {
                        let _ = tx.send(msg);
                    }
                });
                judge(&req, &host, facts)
            }));
            let msg = match outcome {
                Ok(Ok(report)) => Msg::Loaded {
                    generation,
                    report: Box::new(report),
                    elapsed_ms: t0.elapsed().as_millis(),
                },
                Ok(Err(error)) => Msg::LoadFailed { generation, error },
                Err(_) => Msg::LoadFailed {
                    generation,
                    error: "gathering crashed (an internal error; please report it)".into(),
                },
            };
            let _ = tx.send(msg);
        });
    if let Err(e) = started {
        let _ = failed.send(Msg::LoadFailed {
            generation,
            error: format!("could not start the gathering thread: {e}"),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ready_report_is_shown_as_it_is() {
        let report = Report::new(
            crate::matrix::bundled(),
            crate::checks::testutil::no_gpu(),
            vec![crate::finding::Finding::new(
                "torch.cpu_only",
                crate::finding::Severity::Fail,
                "from a paste",
            )],
            Vec::new(),
        );
        let req = Request {
            ready: Some(Box::new(report.clone())),
            ..Request::default()
        };
        let host = Host::fixture("/nonexistent", &[]);
        let mut stages = 0;
        let got = build(&req, &host, &mut |_, _| stages += 1).unwrap();
        assert_eq!(got, report);
        assert!(stages > 0);
    }

    #[test]
    fn staged_gathering_equals_the_pipeline_and_reports_every_stage() {
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(root.path().join("proc/sys/kernel")).unwrap();
        std::fs::write(root.path().join("proc/sys/kernel/hostname"), "n1\n").unwrap();
        let host = Host::fixture(root.path(), &[("PATH", "/nonexistent")]);
        let opts = GatherOptions::default();
        let mut seen = Vec::new();
        let staged = facts::gather_with_progress(&host, &opts, &mut |i, done| seen.push((i, done)));
        assert_eq!(staged, facts::gather(&host, &opts));
        let done: Vec<usize> = seen.iter().filter(|(_, d)| *d).map(|(i, _)| *i).collect();
        // The driver worker (step 4) runs alongside steps 5 to 7: it starts before them and
        // ends after them; every step is done once.
        assert_eq!(done, vec![0, 1, 2, 3, 5, 6, 7, 4]);
        let at = |e: (usize, bool)| seen.iter().position(|x| *x == e).unwrap();
        assert!(at((4, false)) < at((5, false)));
    }

    /// Two GPUs: the probes between them are planned; the picker's choices leave them out
    /// one by one, and with one GPU left they are not run at all, as on the command line.
    #[test]
    fn the_picked_probes_between_gpus_are_the_ones_run() {
        use crate::checks::testutil::{cuda_device, gpu, healthy};
        use crate::facts::probe::ProbeKind;
        let mut facts = healthy();
        if let crate::fact::Fact::Known { value: n } = &mut facts.driver_api.nvml {
            n.devices = crate::fact::Fact::known(vec![
                gpu(0, "NVIDIA H100 80GB HBM3", "00000000:18:00.0"),
                gpu(1, "NVIDIA H100 80GB HBM3", "00000000:2A:00.0"),
            ]);
        }
        if let crate::fact::Fact::Known { value: c } = &mut facts.driver_api.cuda {
            c.devices = crate::fact::Fact::known(vec![
                cuda_device(0, Some(0), "NVIDIA H100 80GB HBM3", "0000:18:00.0", "GPU-a"),
                cuda_device(1, Some(1), "NVIDIA H100 80GB HBM3", "0000:2A:00.0", "GPU-b"),
            ]);
        }
        let host = Host::fixture("/nonexistent", &[]);
        let req = Request::default();
        let between = |picked: &ProbePlan| {
            probe_plan(&req, &host, &facts, picked)
                .between
                .map(|b| [b.probes, b.skipped.into_iter().map(|(k, _)| k).collect()].concat())
        };
        assert_eq!(
            between(&ProbePlan::default()),
            Some(vec![ProbeKind::P2p, ProbeKind::Nccl])
        );
        let mut picked = ProbePlan::default();
        picked.skip_probes.insert("nccl".into());
        assert_eq!(between(&picked), Some(vec![ProbeKind::P2p]));
        picked.skip_gpus.insert("1".into());
        assert_eq!(between(&picked), None);
    }

    #[test]
    fn an_unreadable_saved_report_is_an_error_message() {
        let req = Request {
            from: Some("/nonexistent/report.json".into()),
            ..Request::default()
        };
        let host = Host::fixture("/nonexistent", &[]);
        let err = build(&req, &host, &mut |_, _| {}).unwrap_err();
        assert!(err.contains("/nonexistent/report.json"), "{err}");
    }
}
