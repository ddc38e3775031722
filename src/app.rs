//! Runs one invocation: the pipeline of lib.rs wired to the command line, with every
//! outcome mapped to an exit code. Kept out of main.rs so tests can reach it.

use std::io::{IsTerminal, Write};

use crate::checks::{self, CheckOptions, Selection};
use crate::cli::{Cli, ColorChoice, Command, MatrixCommand};
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
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "gpu-doctor: {e}");
            exit::NO_VERDICT
        }
    }
}

fn run_inner(cli: &Cli, host: &Host) -> Result<i32, AppError> {
    match cli.command {
        Some(Command::Checks(ref args)) => {
            let out = if args.markdown {
                checks::catalogue::markdown()
            } else if cli.json {
                format!("{}\n", checks::catalogue::json())
            } else {
                checks::catalogue::text()
            };
            return Ok(print(&out));
        }
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
    if crate::tui::wanted(cli, host) && !cli.slurm && cli.prometheus.is_none() {
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
    if cli.slurm {
        let (line, code) = report::slurm::outcome(&report);
        if let Some(line) = line {
            print(&format!("{line}\n"));
        }
        return Ok(code);
    }
    let out = if cli.json {
        format!("{}\n", serde_json::to_string_pretty(&report)?)
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
        None => facts::gather(
            host,
            &GatherOptions {
                pythons: cli.python.clone(),
                deep: cli.deep,
                redact: cli.redact,
            },
        ),
    };
    if cli.from.is_none() {
        facts.probes = run_probes(&facts, host, &probe_options(cli));
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

pub fn probe_options(cli: &Cli) -> crate::probes::plan::ProbeOptions {
    crate::probes::plan::ProbeOptions {
        enabled: !cli.no_probes,
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
) -> Vec<crate::probes::outcome::ProbeResult> {
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

/// Writes the JSON report next to its destination and renames it into place, so a
/// reader never sees half a report.
fn save(report: &Report, path: &std::path::Path) -> Result<(), AppError> {
    let err = |source| AppError::Save {
        path: path.display().to_string(),
        source,
    };
    let json = serde_json::to_string_pretty(report)?;
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
                print(&format!("{}\n", serde_json::to_string_pretty(&json)?))
            } else {
                print(&text)
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
