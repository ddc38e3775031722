//! Runs one invocation: the pipeline of lib.rs wired to the command line, with every
//! outcome mapped to an exit code. Kept out of main.rs so tests can reach it.

use std::io::{IsTerminal, Write};

use crate::checks::{self, CheckOptions, Selection};
use crate::cli::{Cli, ColorChoice, Command, MatrixCommand, Tier};
use crate::facts::{self, GatherOptions};
use crate::host::Host;
use crate::matrix::Matrix;
use crate::report::{self, exit, text, Report};

/// Something gpu-doctor itself could not do (exit code 3).
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("{0}")]
    Load(#[from] report::LoadError),
    #[error("unknown check id or area {0:?}; `gpu-doctor checks` lists them")]
    UnknownCheck(String),
    #[error("could not write the report to {path:?}: {source}")]
    Save {
        path: String,
        source: std::io::Error,
    },
    #[error("the matrix {0} is invalid:\n{1}")]
    Matrix(String, String),
    #[error("{0}")]
    Update(#[from] crate::matrix::update::UpdateError),
    #[error("{0}")]
    NotInMatrix(String),
    #[error("could not encode the report: {0}")]
    Encode(#[from] serde_json::Error),
    #[error("could not read {path:?}: {error}")]
    Input { path: String, error: String },
    #[error("{0}")]
    Usage(String),
}

pub fn run(cli: &Cli, host: &Host) -> i32 {
    match run_inner(cli, host) {
        Ok(code) => code,
        Err(e) if cli.npd && cli.command.is_none() => {
            let (line, code) = report::npd::unknown(&e.to_string());
            let _ = writeln!(std::io::stderr(), "gpu-doctor: {e}");
            print(&format!("{line}\n"));
            code
        }
        Err(e) => {
            // Errors echo outside text (serde's "unknown variant `…`" from a saved report,
            // a path): no control character reaches the terminal.
            let _ = writeln!(
                std::io::stderr(),
                "gpu-doctor: {}",
                crate::report::defang_text(&e.to_string())
            );
            exit::NO_VERDICT
        }
    }
}

fn run_inner(cli: &Cli, host: &Host) -> Result<i32, AppError> {
    match cli.command {
        Some(Command::Checks) => return Ok(print(&list_checks())),
        Some(Command::Schema) => {
            return Ok(print(&format!(
                "{}\n",
                serde_json::to_string_pretty(&report::json_schema())?
            )))
        }
        Some(Command::Matrix { ref action }) => return run_matrix(action, cli, host),
        Some(Command::Fleet(ref args)) => return Ok(crate::fleet::cmd::run(args, cli, host)),
        Some(Command::Explain(ref args)) => return crate::explain::cmd::run(cli, args, host),
        Some(Command::Diagnose(ref args)) => return crate::diagnose::run(cli, args, host),
        Some(Command::Grid(ref args)) => return crate::grid::run(cli, args, host),
        Some(Command::Diff(ref args)) => return crate::diff::run(cli, args),
        None => {}
    }
    let selection = selection(cli)?;
    let mut budgeted;
    let host = match cli.budget {
        Some(b) => {
            budgeted = host.clone();
            budgeted.deadline = Some(std::time::Instant::now() + b);
            &budgeted
        }
        None => host,
    };
    if crate::tui::wanted(cli, host)
        && !cli.slurm
        && !cli.npd
        && cli.prometheus.is_none()
        && cli.labels.is_none()
    {
        return Ok(crate::tui::run(cli, host, selection));
    }
    let started = std::time::Instant::now();
    let report = build_report(cli, host, &selection)?;
    if let Some(path) = &cli.save {
        save(&report, path)?;
    }
    if let Some(path) = &cli.prometheus {
        let text = report::prometheus::single(&report, started.elapsed().as_secs_f64());
        report::prometheus::write_atomic(path, &text).map_err(|source| AppError::Save {
            path: path.display().to_string(),
            source,
        })?;
    }
    if let Some(path) = &cli.labels {
        let text = report::labels::feature_file(
            &report::labels::labels(&report),
            std::time::SystemTime::now(),
            report::labels::DEFAULT_TTL,
        );
        if path.as_os_str() == "-" {
            print(&text);
            return Ok(report.exit_code);
        }
        report::prometheus::write_atomic(path, &text).map_err(|source| AppError::Save {
            path: path.display().to_string(),
            source,
        })?;
    }
    if cli.npd {
        let (line, code) = report::npd::outcome(&report);
        print(&format!("{line}\n"));
        return Ok(code);
    }
    if cli.slurm {
        let (line, code) = report::slurm::outcome(&report);
        if let Some(line) = line {
            print(&format!("{line}\n"));
        }
        return Ok(code);
    }
    let out = if cli.json {
        format!("{}\n", crate::report::safe_json::to_string_pretty(&report)?)
    } else {
        text::render(
            &report.for_terminal(),
            text::TextOptions {
                color: use_color(cli.color, host),
                verbose: cli.verbose,
            },
        )
    };
    print(&out);
    Ok(report.exit_code)
}

pub fn build_report(cli: &Cli, host: &Host, selection: &Selection) -> Result<Report, AppError> {
    let mut facts = match &cli.from {
        Some(path) => report::load_facts(path)?,
        None => facts::gather(host, &gather_options(cli, host)),
    };
    if cli.from.is_none() {
        let (opts, skipped) = budget_probes(probe_options(cli), host, &facts);
        facts.skipped.extend(skipped);
        facts.probes = run_probes(&facts, host, &opts);
    }
    if cli.redact {
        facts.system.hostname = facts.system.hostname.map(|_| facts::REDACTED.to_string());
    }
    let opts = CheckOptions {
        expect_gpus: cli.expect_gpus,
    };
    let matrix = choose_matrix(cli.matrix.as_deref(), host)?;
    let (findings, errors) = checks::evaluate(&facts, &matrix, &opts, selection);
    Ok(Report::new(matrix.info(), facts, findings, errors))
}

/// What gathering does for this command line (`--tier`, `--since`, the host's `--budget`).
pub fn gather_options(cli: &Cli, host: &Host) -> GatherOptions {
    GatherOptions {
        pythons: cli.python.clone(),
        deep: match cli.tier {
            Some(Tier::Quick) => false,
            Some(Tier::Deep) => true,
            None => cli.deep,
        },
        redact: cli.redact,
        kernel_log_since: cli.since,
        deadline: host.deadline,
    }
}

/// The least time one probe is given under `--budget` (less would fail it for want of
/// time, not for the GPU): probes that do not fit are left out instead, last first.
pub const MIN_PROBE_TIME: std::time::Duration = std::time::Duration::from_secs(2);

/// Fits the probes into what is left of `--budget`: as many of one GPU's probes (they run
/// one after another, GPUs in parallel) as fit with [`MIN_PROBE_TIME`] each, the rest left
/// out, and each time limit cut so they end by the deadline. Returns what was cut.
pub fn budget_probes(
    mut opts: crate::probes::plan::ProbeOptions,
    host: &Host,
    facts: &facts::Facts,
) -> (crate::probes::plan::ProbeOptions, Vec<String>) {
    let Some(deadline) = host.deadline else {
        return (opts, Vec::new());
    };
    if !opts.enabled {
        return (opts, Vec::new());
    }
    let left = deadline.saturating_duration_since(std::time::Instant::now());
    let plan = crate::probes::plan::plan(facts, host, &opts);
    // The longest probe list of one GPU, in the order the probes run.
    let Some(order) = plan
        .gpus
        .iter()
        .map(|g| g.probes.clone())
        .max_by_key(Vec::len)
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

pub fn probe_options(cli: &Cli) -> crate::probes::plan::ProbeOptions {
    crate::probes::plan::ProbeOptions {
        enabled: !cli.no_probes && cli.tier != Some(Tier::Quick),
        probes: cli.probes.clone(),
        gpus: cli.gpus.clone(),
        force: cli.force,
        timeout: cli.probe_timeout,
    }
}

/// Plans and runs the probes; nothing is spawned when no GPU is usable.
pub fn run_probes(
    facts: &facts::Facts,
    host: &Host,
    opts: &crate::probes::plan::ProbeOptions,
) -> Vec<crate::facts::probe::ProbeResult> {
    let plan = crate::probes::plan::plan(facts, host, opts);
    crate::probes::runner::run(host, &plan, &|_| {})
}

/// `--matrix DIR` (or `GPU_DOCTOR_MATRIX`) when given, which must be valid; otherwise the
/// newer of the bundled matrix and the one `matrix update` cached. A cached matrix that
/// no longer validates is set aside with a message, never trusted.
pub fn choose_matrix(dir: Option<&std::path::Path>, host: &Host) -> Result<Matrix, AppError> {
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

fn selection(cli: &Cli) -> Result<Selection, AppError> {
    for pat in cli.only.iter().chain(&cli.skip) {
        let known = checks::ALL
            .iter()
            .any(|c| c.id == pat || c.id.split('.').next() == Some(pat.as_str()));
        if !known {
            return Err(AppError::UnknownCheck(pat.clone()));
        }
    }
    Ok(Selection {
        only: cli.only.clone(),
        skip: cli.skip.clone(),
    })
}

fn list_checks() -> String {
    let width = checks::ALL.iter().map(|c| c.id.len()).max().unwrap_or(0);
    checks::ALL
        .iter()
        .map(|c| format!("{:<width$}  {}\n", c.id, c.title))
        .collect()
}

/// Writes the JSON report next to its destination and renames it into place, so a
/// reader never sees half a report.
fn save(report: &Report, path: &std::path::Path) -> Result<(), AppError> {
    let err = |source| AppError::Save {
        path: path.display().to_string(),
        source,
    };
    let json = crate::report::safe_json::to_string_pretty(report)?;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let name = path
        .file_name()
        .map_or("report".into(), |n| n.to_string_lossy().into_owned());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    std::fs::write(&tmp, json + "\n").map_err(err)?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        err(e)
    })
}

pub fn use_color(choice: ColorChoice, host: &Host) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            host.var("NO_COLOR").is_none_or(str::is_empty) && std::io::stdout().is_terminal()
        }
    }
}

/// Prints to stdout; a closed pipe (`gpu-doctor | head`) ends quietly, not with a panic.
pub fn print(s: &str) -> i32 {
    let mut out = std::io::stdout().lock();
    match out.write_all(s.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => exit::OK,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => exit::OK,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "gpu-doctor: could not write output: {e}");
            exit::NO_VERDICT
        }
    }
}

/// `gpu-doctor matrix ...`.
fn run_matrix(action: &MatrixCommand, cli: &Cli, host: &Host) -> Result<i32, AppError> {
    use crate::matrix::{show, update};
    match action {
        MatrixCommand::Validate { dir } => {
            let (what, result) = match dir {
                Some(d) => (d.display().to_string(), Matrix::from_dir(d)),
                None => match &cli.matrix {
                    Some(d) => (d.display().to_string(), Matrix::from_dir(d)),
                    None => ("bundled".to_string(), Matrix::bundled_validated()),
                },
            };
            match result {
                Ok(m) => Ok(print(&format!(
                    "matrix {what} is valid: version {}, {} toolkits, {} driver branches, {} compute capabilities, {} GPUs, {} PyTorch releases, {} cuDNN releases\n",
                    m.manifest.version,
                    m.toolkits.toolkit.len(),
                    m.drivers.branch.len(),
                    m.archs.arch.len(),
                    m.gpus.gpu.len(),
                    m.torch.release.len(),
                    m.cudnn.cudnn.len()
                ))),
                Err(problems) => {
                    let _ = writeln!(std::io::stderr(), "gpu-doctor: matrix {what} is invalid ({} problem(s)):", problems.len());
                    let _ = writeln!(std::io::stderr(), "{}", problems_text(&problems));
                    Ok(exit::NO_VERDICT)
                }
            }
        }
        MatrixCommand::Show { gpu, torch, driver } => {
            let m = choose_matrix(cli.matrix.as_deref(), host)?;
            let mut json = serde_json::Map::new();
            let mut text = String::new();
            if gpu.is_none() && torch.is_none() && driver.is_none() {
                return Err(AppError::NotInMatrix(
                    "matrix show needs --gpu, --torch or --driver".into(),
                ));
            }
            if let Some(q) = gpu {
                let answers = show::gpu(&m, q);
                if answers.is_empty() {
                    return Err(AppError::NotInMatrix(format!(
                        "no GPU matching {q:?} in matrix {}",
                        m.manifest.version
                    )));
                }
                text.push_str(&show::gpu_text(&answers));
                json.insert("gpus".into(), serde_json::to_value(&answers)?);
            }
            if let Some(v) = torch {
                let a = show::torch(&m, v).ok_or_else(|| {
                    AppError::NotInMatrix(format!(
                        "no PyTorch {v:?} in matrix {}",
                        m.manifest.version
                    ))
                })?;
                text.push_str(&show::torch_text(&a));
                json.insert("torch".into(), serde_json::to_value(&a)?);
            }
            if let Some(v) = driver {
                let a = show::driver(&m, v).ok_or_else(|| {
                    AppError::NotInMatrix(format!("{v:?} is not a driver version"))
                })?;
                text.push_str(&show::driver_text(&a));
                json.insert("driver".into(), serde_json::to_value(&a)?);
            }
            json.insert("matrix".into(), serde_json::to_value(m.info())?);
            Ok(if cli.json {
                print(&format!(
                    "{}\n",
                    crate::report::safe_json::to_string_pretty(&json)?
                ))
            } else {
                // A local matrix (--matrix DIR) is outside text: no escape sequences.
                print(&crate::report::defang_text(&text))
            })
        }
        MatrixCommand::Bundle { dir, output } => {
            let dir = dir
                .clone()
                .unwrap_or_else(|| std::path::PathBuf::from("compat-matrix"));
            let bundle = update::bundle_dir(&dir)?;
            match output {
                Some(path) => {
                    std::fs::write(path, bundle + "\n").map_err(|source| AppError::Save {
                        path: path.display().to_string(),
                        source,
                    })?;
                    Ok(exit::OK)
                }
                None => Ok(print(&(bundle + "\n"))),
            }
        }
        MatrixCommand::Update { url } => {
            let url = url
                .as_deref()
                .or(update::DEFAULT_URL)
                .ok_or(update::UpdateError::NoUrl)?;
            let cache =
                crate::matrix::load::cache_dir(host.var("XDG_CACHE_HOME"), host.var("HOME"))
                    .ok_or_else(|| update::UpdateError::Store {
                        dir: "~/.cache".into(),
                        error: "neither XDG_CACHE_HOME nor HOME is set".into(),
                    })?;
            let current = choose_matrix(cli.matrix.as_deref(), host)?;
            match update::update(url, update::PUBLIC_KEY, &cache, &current.manifest.version) {
                Ok(update::Outcome::Stored { version, dir }) => Ok(print(&format!("matrix {version} verified and stored in {}; reports now use it\n", dir.display()))),
                Ok(update::Outcome::NotNewer { fetched, current }) => Ok(print(&format!("matrix {fetched} at {url} is not newer than the one in use ({current}); nothing changed\n"))),
                Err(e) => {
                    let _ = writeln!(std::io::stderr(), "gpu-doctor: {e}\ngpu-doctor: the matrix in use stays {} ({})", current.manifest.version, current.source);
                    Ok(exit::NO_VERDICT)
                }
            }
        }
    }
}
