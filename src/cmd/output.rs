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

/// Writes `text` next to `path` and renames it into place, so a reader never sees half a
/// file.
pub fn write_atomic(path: &std::path::Path, text: &str) -> Result<(), AppError> {
    let err = |source| AppError::Save {
        path: path.display().to_string(),
        source,
    };
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let name = path
        .file_name()
        .map_or("report".into(), |n| n.to_string_lossy().into_owned());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    std::fs::write(&tmp, text).map_err(err)?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        err(e)
    })
}
