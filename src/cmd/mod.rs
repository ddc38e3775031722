//! The commands: each subcommand in its own file with one `run`, over [`Settings`] made
//! once from the command line. A command wires the pipeline (or its own module) to the
//! outputs; it holds no judgement of its own.

pub mod checks;
pub mod completions;
pub mod diagnose;
pub mod diff;
pub mod explain;
pub mod fleet;
pub mod fleet_argv;
pub mod grid;
pub mod matrix;
pub mod output;
pub mod report;
pub mod schema;
pub mod settings;

use std::io::Write;

pub use settings::Settings;

use crate::cli::{Cli, Command};
use crate::error::AppError;
use crate::host::Host;

/// Runs one invocation; every outcome is an exit code (3 with a message for an error).
pub fn run(cli: &Cli, host: &Host) -> i32 {
    let settings = Settings::from_cli(cli);
    match dispatch(&settings, cli.command.as_ref(), host) {
        Ok(code) => code,
        Err(e) if settings.npd && cli.command.is_none() => {
            let (line, code) = crate::report::npd::unknown(&e.to_string());
            let _ = writeln!(
                std::io::stderr(),
                "gpu-doctor: {}",
                crate::report::defang_text(&e.to_string())
            );
            output::print(&format!("{line}\n"));
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
            crate::report::exit::NO_VERDICT
        }
    }
}

/// `--python` paths that name no Python are usage errors (exit 3) naming the path, found
/// before any work is done.
pub fn check_pythons(paths: &[std::path::PathBuf], host: &Host) -> Result<(), AppError> {
    for p in paths {
        if let Some(why) = crate::facts::python::unusable_python(host, p) {
            return Err(AppError::Python {
                path: p.display().to_string(),
                why,
            });
        }
    }
    Ok(())
}

fn dispatch(settings: &Settings, command: Option<&Command>, host: &Host) -> Result<i32, AppError> {
    match command {
        None => report::run(settings, host),
        Some(Command::Checks(args)) => checks::run(settings, args),
        Some(Command::Schema) => schema::run(),
        Some(Command::Matrix { action }) => matrix::run(settings, action, host),
        Some(Command::Fleet(f)) => Ok(fleet::run(settings, &f.args, host)),
        Some(Command::Explain(args)) => explain::run(settings, args, host),
        Some(Command::Diagnose(args)) => diagnose::run(settings, args, host),
        Some(Command::Grid(args)) => grid::run(settings, args, host),
        Some(Command::Diff(args)) => diff::run(settings, args),
        Some(Command::Completions(args)) => completions::completions(args),
        Some(Command::Man(args)) => completions::man(args),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scriptable_outputs_are_the_flags_not_the_terminal() {
        for (args, scriptable) in [
            (&["gpu-doctor", "--json"][..], true),
            (&["gpu-doctor", "--plain"], true),
            (&["gpu-doctor", "checks", "--json"], true),
            (&["gpu-doctor"], false),
        ] {
            let cli = crate::cli::parse(args).unwrap();
            assert_eq!(
                Settings::from_cli(&cli).scriptable(),
                scriptable,
                "{args:?}"
            );
        }
    }

    #[test]
    fn settings_carry_the_pipeline_request() {
        let cli = crate::cli::parse([
            "gpu-doctor",
            "--expect-gpus",
            "4",
            "--only",
            "driver,gpu",
            "--no-probes",
            "--redact",
        ])
        .unwrap();
        let s = Settings::from_cli(&cli);
        assert_eq!(s.request.checks.expect_gpus, Some(4));
        assert_eq!(s.request.selection.only, vec!["driver", "gpu"]);
        assert!(!s.request.probes.enabled);
        assert!(s.request.gather.redact);
    }

    #[test]
    fn report_options_before_a_subcommand_reach_it_only_where_it_has_them() {
        let s = |args: &[&str]| crate::cli::parse(args).map(|c| Settings::from_cli(&c));
        let forwarded = s(&["gpu-doctor", "--json", "--python", "/p", "explain", "x"]).unwrap();
        assert!(forwarded.json);
        assert_eq!(
            forwarded.request.gather.pythons,
            vec![std::path::PathBuf::from("/p")]
        );
        let after = s(&["gpu-doctor", "explain", "--json", "--python", "/p", "x"]).unwrap();
        assert!(after.json);
        assert_eq!(after.request.gather.pythons.len(), 1);
        let m = s(&["gpu-doctor", "--matrix", "/m", "matrix", "validate"]).unwrap();
        assert_eq!(m.matrix_dir, Some(std::path::PathBuf::from("/m")));
        for bad in [
            &["gpu-doctor", "--deep", "explain", "x"][..],
            &[
                "gpu-doctor",
                "--prometheus",
                "f",
                "grid",
                "--batch",
                "1",
                "--heads",
                "1",
            ],
            &["gpu-doctor", "--save", "f", "checks"],
            &["gpu-doctor", "--json", "matrix", "bundle"],
            &["gpu-doctor", "--from", "r.json", "explain", "x"],
        ] {
            let e = s(bad).unwrap_err();
            assert_eq!(
                e.kind(),
                clap::error::ErrorKind::ArgumentConflict,
                "{bad:?}"
            );
        }
        // Not given on the command line (a default or the environment) is not "given".
        let d = s(&["gpu-doctor", "--probe-timeout", "60s", "checks"]);
        assert!(d.is_err());
        assert!(s(&["gpu-doctor", "checks"]).is_ok());
    }
}
