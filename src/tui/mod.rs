//! The interactive terminal UI (ratatui + crossterm), Elm-style: [`app::App`] holds the
//! state, [`update::update`] changes it from a [`msg::Msg`] and returns the effects to run,
//! [`view::draw`] only draws. Gathering and judging run on a worker thread and arrive as
//! messages, so input never waits on the machine.

pub mod app;
pub mod fleet;
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

use crate::host::Host;

/// The UI is for a person at a terminal: a pipe cannot show it, and a `dumb` terminal
/// cannot draw it. (`--json`, `--plain` and the subcommands decide before asking.)
pub fn wanted(host: &Host) -> bool {
    std::io::stdout().is_terminal() && host.var("TERM") != Some("dumb")
}

/// Runs the UI to the end and returns the exit code: the report's, or 3 when the UI
/// could not start or no verdict was reached.
pub fn run(opts: runtime::Options) -> i32 {
    runtime::run(opts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pipe_or_a_dumb_terminal_never_opens_the_ui() {
        // The test harness captures stdout: not a terminal.
        assert!(!wanted(&Host::fixture(
            "/nonexistent",
            &[("TERM", "xterm")]
        )));
        assert!(!wanted(&Host::fixture("/nonexistent", &[("TERM", "dumb")])));
    }
}
