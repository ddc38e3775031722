//! The one pipeline: gather → probe → judge → report. The command line (`cmd::report`),
//! the terminal UI's worker thread and `explain` all run it from here, so a report means
//! the same wherever it is made.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use crate::checks::{self, CheckOptions, Selection};
use crate::error::AppError;
use crate::facts::probe::ProbeResult;
use crate::facts::{self, Facts, GatherOptions};
use crate::host::Host;
use crate::matrix::Matrix;
use crate::probes::plan::ProbeOptions;
use crate::probes::runner::ProbeEvent;
use crate::report::{self, Report};

/// Everything one run needs, owned, so it can move to a worker thread.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// `--from FILE`: the facts of a saved report instead of this machine's.
    pub from: Option<PathBuf>,
    pub gather: GatherOptions,
    pub checks: CheckOptions,
    pub selection: Selection,
    /// `--matrix DIR` / `GPU_DOCTOR_MATRIX`.
    pub matrix_dir: Option<PathBuf>,
    pub probes: ProbeOptions,
    /// A report made elsewhere (`diagnose`): shown as it is, nothing gathered.
    pub ready: Option<Box<Report>>,
}

/// Step 1: the facts, from this machine or a saved report; `stage(i, done)` follows
/// `facts::STEPS`.
pub fn gather(
    req: &Request,
    host: &Host,
    stage: &mut dyn FnMut(usize, bool),
) -> Result<Facts, AppError> {
    let facts = match &req.from {
        Some(path) => {
            stage(0, false);
            let f = report::load_facts(path)?;
            for i in 0..facts::STEPS.len() {
                stage(i, true);
            }
            f
        }
        None => {
            let mut f = facts::gather_with_progress(host, &req.gather, stage);
            decode_deep_errors(&mut f);
            f
        }
    };
    Ok(facts)
}

/// `--deep`'s captured torch errors through explain's decoder, the one a pasted error goes
/// through (e.g. CUDA error 36 → the driver is too old for that call). Gathering keeps the
/// error as torch raised it; the meaning is added here, once.
pub fn decode_deep_errors(facts: &mut Facts) {
    for env in &mut facts.python {
        if let Some(crate::fact::Fact::Known { value }) = &mut env.deep {
            if let Some(e) = value
                .error
                .as_deref()
                .filter(|e| !e.contains("[gpu-doctor:"))
            {
                value.error = Some(crate::explain::decode_error(e));
            }
        }
    }
}

/// Step 2: plans and runs the probes; nothing is spawned when no GPU is usable.
pub fn probe(
    facts: &Facts,
    host: &Host,
    opts: &ProbeOptions,
    on_event: &(dyn Fn(ProbeEvent) + Sync),
) -> Vec<ProbeResult> {
    let plan = crate::probes::plan::plan(facts, host, opts);
    crate::probes::runner::run(host, &plan, on_event)
}

/// Steps 3 and 4: the checks over the facts, with the matrix of the request, as a report.
pub fn judge(req: &Request, host: &Host, facts: Facts) -> Result<Report, AppError> {
    let matrix = choose_matrix(req.matrix_dir.as_deref(), host)?;
    let (findings, errors) = checks::evaluate(&facts, &matrix, &req.checks, &req.selection);
    let report = Report::new(matrix.info(), facts, findings, errors);
    if req.gather.redact {
        return redact(report, host);
    }
    Ok(report)
}

/// `--redact`: the whole report, every string of it, through `facts::redact` (host name,
/// /home users, GPU UUIDs to stable tokens), so each output made from it is redacted.
pub fn redact(report: Report, host: &Host) -> Result<Report, AppError> {
    let mut value = serde_json::to_value(&report)?;
    let red = facts::redact::Redactor::for_value(
        host.var(facts::redact::KEY_ENV),
        report.facts.system.hostname.value().map(String::as_str),
        &value,
    );
    red.value(&mut value);
    // Back through `from_value`, which restores the failure ids of passes; then the
    // machine id hash and boot id, which name the machine without being its host name.
    let mut report = Report::from_value(value)?;
    report.redact_identity();
    Ok(report)
}

/// The whole pipeline without a screen: gather, probe (not for a saved report), judge.
pub fn run(req: &Request, host: &Host) -> Result<Report, AppError> {
    if let Some(report) = &req.ready {
        return Ok((**report).clone());
    }
    let mut facts = gather(req, host, &mut |_, _| {})?;
    if req.from.is_none() && req.probes.enabled {
        check_gpu_selection(&facts.driver_api, &req.probes.gpus)?;
    }
    if req.from.is_none() {
        let (opts, skipped) = budget_probes(req.probes.clone(), host, &facts);
        facts.skipped.extend(skipped);
        facts.probes = probe(&facts, host, &opts, &|_| {});
    }
    judge(req, host, facts)
}

/// `--gpus` entries that match no GPU CUDA sees are a usage error (exit 3) naming them and
/// the GPUs there are, rather than a run that probes nothing and says nothing.
pub fn check_gpu_selection(
    driver_api: &facts::driver_api::DriverApiFacts,
    wanted: &[String],
) -> Result<(), AppError> {
    let (unmatched, present) = crate::probes::plan::unmatched_gpus(driver_api, wanted);
    // No GPU at all: the report's findings say why, which matters more than the selection.
    if unmatched.is_empty() || present.is_empty() {
        return Ok(());
    }
    Err(AppError::Usage(format!(
        "--gpus {} matches no GPU on this machine: CUDA sees GPU {} (give nvidia-smi indices or GPU-/MIG- UUID prefixes)",
        unmatched.join(","),
        present.join(", ")
    )))
}

/// [`check_gpu_selection`] before the terminal UI takes the screen: the UI gathers on its
/// own thread once it runs, so an unmatched `--gpus` is found here first, by asking the
/// driver worker which GPUs CUDA sees, and is the same usage error (exit 3) with the same
/// message as for the text and JSON report. The answer is left in the request for the UI's
/// first gathering, which does not ask the driver again.
pub fn check_gpu_selection_before_ui(req: &Request, host: &Host) -> Result<(), AppError> {
    if req.from.is_some()
        || req.ready.is_some()
        || !req.probes.enabled
        || req.probes.gpus.is_empty()
    {
        return Ok(());
    }
    let libs = facts::driver_libs::gather(host);
    let asked = facts::driver_api::gather(host, &libs);
    check_gpu_selection(&asked, &req.probes.gpus)?;
    if let Ok(mut slot) = req.gather.driver_api_asked.lock() {
        *slot = Some(asked);
    }
    Ok(())
}

/// The least time one probe is given under `--budget` (less would fail it for want of
/// time, not for the GPU): probes that do not fit are left out instead, last first.
pub const MIN_PROBE_TIME: std::time::Duration = std::time::Duration::from_secs(2);

/// Fits the probes into what is left of `--budget`: as many of one GPU's probes (they run
/// one after another, GPUs in parallel) as fit with [`MIN_PROBE_TIME`] each, the rest left
/// out, and each time limit cut so they end by the deadline. Returns what was cut.
pub fn budget_probes(
    mut opts: ProbeOptions,
    host: &Host,
    facts: &Facts,
) -> (ProbeOptions, Vec<String>) {
    let Some(deadline) = host.deadline else {
        return (opts, Vec::new());
    };
    if !opts.enabled {
        return (opts, Vec::new());
    }
    let left = deadline.saturating_duration_since(std::time::Instant::now());
    let plan = crate::probes::plan::plan(facts, host, &opts);
    // The longest probe list of one GPU, in the order the probes run, then the probes
    // between GPUs (they run after them).
    let Some(order) = plan
        .gpus
        .iter()
        .map(|g| g.probes.clone())
        .max_by_key(Vec::len)
        .map(|mut p| {
            if let Some(b) = &plan.between {
                p.extend(b.probes.iter().copied());
            }
            p
        })
        .filter(|p| !p.is_empty())
    else {
        return (opts, Vec::new());
    };
    // The probe worker's start-up counts too: leave a second for it.
    let usable = left.saturating_sub(std::time::Duration::from_secs(1));
    let fit = usize::try_from(usable.as_millis() / MIN_PROBE_TIME.as_millis().max(1))
        .unwrap_or(usize::MAX);
    if fit == 0 {
        opts.enabled = false;
        return (
            opts,
            vec![format!(
                "GPU probes not run ({} GPU(s) planned; {} ms of the budget left)",
                plan.gpus.len(),
                left.as_millis()
            )],
        );
    }
    let mut cut = Vec::new();
    let kept: Vec<_> = order.iter().copied().take(fit).collect();
    if kept.len() < order.len() {
        let dropped: Vec<&str> = order[kept.len()..].iter().map(|k| k.as_str()).collect();
        cut.push(format!("GPU probes {} not run", dropped.join(", ")));
        opts.probes = kept.clone();
    }
    // A probe cut below MIN_PROBE_TIME would fail for want of time, not for the GPU.
    let share = usable / u32::try_from(kept.len()).unwrap_or(u32::MAX);
    if share < opts.timeout {
        cut.push(format!(
            "GPU probes limited to {} ms each (not {} s)",
            share.as_millis(),
            opts.timeout.as_secs()
        ));
        opts.timeout = share.max(MIN_PROBE_TIME);
    }
    (opts, cut)
}

/// The findings `explain` refines its causes with: a saved report's facts, else this
/// machine's, with only the `probes` asked for (the probes between GPUs for an NCCL
/// error), judged by every check with default options.
pub fn findings_for_explain(
    from: Option<&Path>,
    pythons: &[PathBuf],
    matrix_dir: Option<&Path>,
    host: &Host,
    probes: &[crate::facts::probe::ProbeKind],
) -> Result<Vec<crate::finding::Finding>, AppError> {
    let facts = match from {
        Some(path) => report::load_facts(path)?,
        // A build that cannot load the driver would see a broken driver on every machine:
        // the text alone is ranked.
        None if !crate::cuda_ffi::CAN_LOAD_DRIVER => return Ok(Vec::new()),
        None => {
            let opts = GatherOptions {
                pythons: pythons.to_vec(),
                ..GatherOptions::default()
            };
            let mut facts = facts::gather(host, &opts);
            // `explain --python`: the error came from that interpreter; the others on
            // PATH say nothing about it.
            if !pythons.is_empty() {
                facts
                    .python
                    .retain(|env| env.origins.iter().any(|o| o == "--python"));
            }
            if !probes.is_empty() {
                let opts = ProbeOptions {
                    probes: probes.to_vec(),
                    ..ProbeOptions::default()
                };
                facts.probes = probe(&facts, host, &opts, &|_| {});
            }
            facts
        }
    };
    let matrix = choose_matrix(matrix_dir, host)?;
    let (findings, _) = checks::evaluate(
        &facts,
        &matrix,
        &CheckOptions::default(),
        &Selection::default(),
    );
    Ok(findings)
}

/// `--matrix DIR` (or `GPU_DOCTOR_MATRIX`) when given, which must be valid; otherwise the
/// newer of the bundled matrix and the one `matrix update` cached. A cached matrix that
/// no longer validates is set aside with a message, never trusted.
pub fn choose_matrix(dir: Option<&Path>, host: &Host) -> Result<Matrix, AppError> {
    if let Some(dir) = dir {
        return Matrix::from_dir(dir)
            .map_err(|p| AppError::Matrix(dir.display().to_string(), problems_text(&p)));
    }
    let bundled =
        Matrix::bundled().map_err(|p| AppError::Matrix("bundled".into(), problems_text(&p)))?;
    let Some(cache) = crate::matrix::load::cache_dir(host.var("XDG_CACHE_HOME"), host.var("HOME"))
    else {
        return Ok(bundled);
    };
    if !cache.join("matrix.toml").is_file() {
        return Ok(bundled);
    }
    match Matrix::from_dir(&cache) {
        Ok(cached) if cached.manifest.version > bundled.manifest.version => Ok(cached),
        Ok(_) => Ok(bundled),
        Err(p) => {
            let _ = writeln!(
                std::io::stderr(),
                "gpu-doctor: ignoring the cached matrix in {} ({} problem(s), first: {}); using the bundled one",
                cache.display(),
                p.len(),
                p.first().map(ToString::to_string).unwrap_or_default()
            );
            Ok(bundled)
        }
    }
}

pub fn problems_text(problems: &[crate::matrix::Problem]) -> String {
    problems
        .iter()
        .map(|p| format!("  {p}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_torch_errors_are_decoded_once() {
        let mut facts = crate::checks::testutil::healthy();
        let raw = "RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 36: API call is not supported in the installed CUDA driver";
        facts.python[0].deep = Some(crate::fact::Fact::known(crate::facts::python::DeepTorch {
            torch_version: Some("2.6.0+cu126".into()),
            cuda_available: false,
            device_count: 0,
            error: Some(raw.into()),
            torch_path: None,
            cuda: Some("12.6".into()),
            arch_list: Vec::new(),
            warnings: Vec::new(),
        }));
        decode_deep_errors(&mut facts);
        decode_deep_errors(&mut facts);
        let Some(crate::fact::Fact::Known { value }) = &facts.python[0].deep else {
            panic!("deep fact lost");
        };
        let e = value.error.as_deref().unwrap_or_default();
        assert!(e.starts_with(raw), "{e}");
        assert_eq!(
            e.matches("[gpu-doctor: driver.too_old_for_torch:").count(),
            1,
            "{e}"
        );
    }

    #[test]
    fn a_ready_report_runs_nothing() {
        let report = Report::new(
            crate::matrix::bundled(),
            crate::checks::testutil::no_gpu(),
            Vec::new(),
            Vec::new(),
        );
        let req = Request {
            ready: Some(Box::new(report.clone())),
            ..Request::default()
        };
        let host = Host::fixture("/nonexistent", &[]);
        assert_eq!(run(&req, &host).unwrap(), report);
    }

    #[test]
    fn a_saved_report_walks_every_stage_and_its_errors_name_the_file() {
        let host = Host::fixture("/nonexistent", &[]);
        let req = Request {
            from: Some("/nonexistent/report.json".into()),
            ..Request::default()
        };
        let mut stages = Vec::new();
        let err = gather(&req, &host, &mut |i, done| stages.push((i, done))).unwrap_err();
        assert!(
            err.to_string().contains("/nonexistent/report.json"),
            "{err}"
        );
        assert_eq!(stages, vec![(0, false)]);
    }
}
