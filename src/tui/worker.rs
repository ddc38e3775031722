//! Gathering and judging on a worker thread. It walks the same steps as
//! `facts::gather` one at a time so the screen can show which one is under way, then
//! judges with the same checks as every other output.

use std::path::PathBuf;
use std::sync::mpsc::Sender;
use std::time::Instant;

use super::app::ProbePlan;
use super::msg::Msg;
use crate::checks::{self, CheckOptions, Selection};
use crate::cli::Cli;
use crate::facts::{self, GatherOptions};
use crate::host::Host;
use crate::report::{self, Report};

/// Everything one run needs, owned, so it can move to the worker thread.
#[derive(Debug, Clone, Default)]
pub struct Request {
    pub from: Option<PathBuf>,
    pub gather: GatherOptions,
    pub checks: CheckOptions,
    pub selection: Selection,
    /// `--matrix DIR` / `GPU_DOCTOR_MATRIX`.
    pub matrix_dir: Option<PathBuf>,
    /// A report made elsewhere (`diagnose`): shown as it is, nothing gathered.
    pub ready: Option<Box<Report>>,
}

impl Request {
    pub fn from_cli(cli: &Cli, selection: Selection) -> Request {
        Request {
            from: cli.from.clone(),
            gather: GatherOptions {
                pythons: cli.python.clone(),
                deep: cli.deep,
                redact: cli.redact,
            },
            checks: CheckOptions {
                expect_gpus: cli.expect_gpus,
            },
            selection,
            matrix_dir: cli.matrix.clone(),
            ready: None,
        }
    }
}

/// Produces the report of one run (the same pipeline as `app::build_report`).
pub fn build(
    req: &Request,
    host: &Host,
    stage: &mut dyn FnMut(usize, bool),
) -> Result<Report, String> {
    if let Some(report) = &req.ready {
        for i in 0..=8 {
            stage(i, true);
        }
        return Ok((**report).clone());
    }
    let mut facts = match &req.from {
        Some(path) => {
            stage(0, false);
            let f = report::load_facts(path).map_err(|e| e.to_string())?;
            for i in 0..8 {
                stage(i, true);
            }
            f
        }
        None => facts::gather_with_progress(host, &req.gather, stage),
    };
    if req.gather.redact {
        facts.system.hostname = facts.system.hostname.map(|_| facts::REDACTED.to_string());
    }
    stage(8, false);
    let matrix =
        crate::app::choose_matrix(req.matrix_dir.as_deref(), host).map_err(|e| e.to_string())?;
    let (findings, errors) = checks::evaluate(&facts, &matrix, &req.checks, &req.selection);
    stage(8, true);
    Ok(Report::new(matrix.info(), facts, findings, errors))
}

/// Starts run `generation` on its own thread; its messages arrive on `tx`. The plan is
/// the picked GPUs and probes; this release has no probe runner, so only the facts and
/// checks are run again.
pub fn spawn(req: Request, host: Host, generation: u64, _plan: ProbePlan, tx: Sender<Msg>) {
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
                build(&req, &host, &mut stage)
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
            vec![crate::report::finding::Finding::new(
                "torch.cpu_only",
                crate::report::finding::Severity::Fail,
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
        assert_eq!(done, (0..8).collect::<Vec<_>>());
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
