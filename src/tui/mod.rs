//! The interactive terminal UI (ratatui + crossterm), Elm-style: [`app::App`] holds the
//! state, [`update::update`] changes it from a [`msg::Msg`] and returns the effects to run,
//! [`view::draw`] only draws. Gathering and judging run on a worker thread and arrive as
//! messages, so input never waits on the machine.

pub mod app;
pub mod keymap;
pub mod layout;
pub mod msg;
pub mod osc52;
pub mod runtime;
pub mod terminal;
pub mod update;
pub mod view;
pub mod widgets;
pub mod worker;

use std::io::IsTerminal;

use crate::checks::Selection;
use crate::cli::{Cli, ColorChoice};
use crate::host::Host;

/// The UI is for a person at a terminal: a pipe, `--json`, `--plain` and the subcommands
/// keep the scriptable outputs, and a `dumb` terminal cannot draw it.
pub fn wanted(cli: &Cli, host: &Host) -> bool {
    cli.command.is_none()
        && !cli.json
        && !cli.plain
        && std::io::stdout().is_terminal()
        && host.var("TERM") != Some("dumb")
}

/// Runs the UI to the end and returns the exit code: the report's, or 3 when the UI
/// could not start or no verdict was reached.
pub fn run(cli: &Cli, host: &Host, selection: Selection) -> i32 {
    let color = match cli.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => host.var("NO_COLOR").is_none_or(str::is_empty),
    };
    let request = worker::Request::from_cli(cli, selection);
    runtime::run(runtime::Options {
        request,
        host: host.clone(),
        color,
        clipboard: osc52::reachable(host.var("TERM")),
        save_path: runtime::default_save_path(cli),
        autosave: cli.save.is_some(),
        test_panic: host.var(runtime::TEST_PANIC_ENV).is_some_and(|v| v == "1"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[test]
    fn scriptable_outputs_never_open_the_ui() {
        let host = Host::fixture("/nonexistent", &[("TERM", "xterm")]);
        for args in [
            &["gpu-doctor", "--json"][..],
            &["gpu-doctor", "--plain"],
            &["gpu-doctor", "checks"],
            &["gpu-doctor", "schema"],
            // The test harness captures stdout: not a terminal.
            &["gpu-doctor"],
        ] {
            let cli = Cli::try_parse_from(args).unwrap();
            assert!(!wanted(&cli, &host), "{args:?}");
        }
    }
}
