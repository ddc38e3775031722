//! Writing what a command prints: stdout that survives a closed pipe, colour as asked,
//! files replaced atomically.

use std::io::{IsTerminal, Write};

use crate::cli::ColorChoice;
use crate::error::AppError;
use crate::host::Host;
use crate::report::exit;

/// Colour for the text outputs: `--color`, else a terminal without NO_COLOR.
pub fn use_color(choice: ColorChoice, host: &Host) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            host.var("NO_COLOR").is_none_or(str::is_empty) && std::io::stdout().is_terminal()
        }
    }
}

/// Colour for the terminal UIs (their output is a terminal by definition).
pub fn ui_color(choice: ColorChoice, host: &Host) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => host.var("NO_COLOR").is_none_or(str::is_empty),
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

/// Writes `text` to `path` (atomically for a file; see `report::out_file`).
pub fn write_atomic(path: &std::path::Path, text: &str) -> Result<(), AppError> {
    crate::report::out_file::write(path, text).map_err(|source| AppError::Save {
        path: path.display().to_string(),
        source,
    })
}
