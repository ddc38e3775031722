//! Runs one invocation: the pipeline of lib.rs wired to the command line, with every
//! outcome mapped to an exit code. Kept out of main.rs so tests can reach it.

use std::io::{IsTerminal, Write};

use crate::checks::{self, CheckOptions, Selection};
use crate::cli::{Cli, ColorChoice, Command};
use crate::facts::{self, GatherOptions};
use crate::host::Host;
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
    #[error("could not encode the report: {0}")]
    Encode(#[from] serde_json::Error),
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
        Some(Command::Checks) => return Ok(print(&list_checks())),
        Some(Command::Schema) => {
            return Ok(print(&format!(
                "{}\n",
                serde_json::to_string_pretty(&report::json_schema())?
            )))
        }
        None => {}
    }
    let selection = selection(cli)?;
    if crate::tui::wanted(cli, host) {
        return Ok(crate::tui::run(cli, host, selection));
    }
    let report = build_report(cli, host, &selection)?;
    if let Some(path) = &cli.save {
        save(&report, path)?;
    }
    let out = if cli.json {
        format!("{}\n", serde_json::to_string_pretty(&report)?)
    } else {
        text::render(
            &report,
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
    if cli.redact {
        facts.system.hostname = facts.system.hostname.map(|_| facts::REDACTED.to_string());
    }
    let opts = CheckOptions {
        expect_gpus: cli.expect_gpus,
    };
    let (findings, errors) = checks::evaluate(&facts, &opts, selection);
    Ok(Report::new(
        crate::matrix::bundled(),
        facts,
        findings,
        errors,
    ))
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

fn use_color(choice: ColorChoice, host: &Host) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            host.var("NO_COLOR").is_none_or(str::is_empty) && std::io::stdout().is_terminal()
        }
    }
}

/// Prints to stdout; a closed pipe (`gpu-doctor | head`) ends quietly, not with a panic.
fn print(s: &str) -> i32 {
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
