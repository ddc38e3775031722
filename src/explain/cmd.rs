//! `gpu-doctor explain`: reads the text, explains it, refines the causes with this
//! machine's facts unless `--offline`, prints text or JSON.

use std::io::Write;
use std::path::Path;

use crate::app::{self, AppError};
use crate::checks::{self, CheckOptions, Selection};
use crate::cli::{Cli, ExplainArgs};
use crate::facts::{self, GatherOptions};
use crate::host::Host;
use crate::report::exit;

/// Pasted text larger than this is refused rather than read into memory.
pub const MAX_INPUT_BYTES: u64 = 64 * 1024 * 1024;

/// Reads a file ('-' = standard input) as text: invalid UTF-8 is replaced, never an error.
pub fn read_text(path: &Path) -> Result<String, AppError> {
    let err = |error: String| AppError::Input {
        path: path.display().to_string(),
        error,
    };
    let reader = crate::host::open_input(path).map_err(|e| err(e.to_string()))?;
    let buf =
        crate::host::read_all_bounded(reader, MAX_INPUT_BYTES).map_err(|e| err(e.to_string()))?;
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

pub fn run(cli: &Cli, args: &ExplainArgs, host: &Host) -> Result<i32, AppError> {
    let text = if args.text.is_empty() {
        if args.file.is_none() && std::io::IsTerminal::is_terminal(&std::io::stdin()) {
            let _ = writeln!(
                std::io::stderr(),
                "gpu-doctor: paste the error text, then Ctrl-D (or pass TEXT / --file LOG)"
            );
        }
        read_text(args.file.as_deref().unwrap_or(Path::new("-")))?
    } else {
        args.text.join(" ")
    };
    let mut ex = super::explain(&text);
    if !ex.matches.is_empty() {
        let matrix = app::choose_matrix(cli.matrix.as_deref(), host)?;
        super::enrich(&mut ex, &matrix);
    }
    if !args.offline && !ex.matches.is_empty() {
        let (facts, whose) = match &args.from {
            Some(path) => (crate::report::load_facts(path)?, "the saved report"),
            None => (
                facts::gather(host, &GatherOptions::default()),
                "this machine",
            ),
        };
        let matrix = app::choose_matrix(cli.matrix.as_deref(), host)?;
        let (findings, _) = checks::evaluate(
            &facts,
            &matrix,
            &CheckOptions::default(),
            &Selection::default(),
        );
        super::refine(&mut ex, &findings, whose);
    }
    let out = if cli.json {
        super::render::json(&ex)
    } else {
        super::render::text(&ex, args.verbose)
    };
    let code = app::print(&out);
    if code != exit::OK {
        return Ok(code);
    }
    Ok(if ex.matches.is_empty() {
        NOTHING_FOUND
    } else {
        exit::OK
    })
}

/// `explain`'s exit code when the text holds no error it knows.
pub const NOTHING_FOUND: i32 = 1;
