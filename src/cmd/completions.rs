//! `gpu-doctor completions SHELL` and `gpu-doctor man`: the command line described for
//! shells and for man(1), generated from the same clap definition that parses it.

use clap::CommandFactory;

use super::output::print;
use crate::cli::{Cli, CompletionsArgs, ManArgs};
use crate::error::AppError;
use crate::report::exit;

/// The shell's completion script on stdout.
pub fn completions(args: &CompletionsArgs) -> Result<i32, AppError> {
    let mut cmd = Cli::command();
    let mut buf = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "gpu-doctor", &mut buf);
    Ok(print(&String::from_utf8_lossy(&buf)))
}

/// The main manual page (roff) on stdout, or with `--dir` one page per command in DIR.
pub fn man(args: &ManArgs) -> Result<i32, AppError> {
    let cmd = Cli::command();
    if let Some(dir) = &args.dir {
        let err = |source| AppError::Save {
            path: dir.display().to_string(),
            source,
        };
        std::fs::create_dir_all(dir).map_err(err)?;
        clap_mangen::generate_to(cmd, dir).map_err(err)?;
        return Ok(exit::OK);
    }
    let mut buf = Vec::new();
    clap_mangen::Man::new(cmd)
        .render(&mut buf)
        .map_err(|source| AppError::Save {
            path: "standard output".into(),
            source,
        })?;
    Ok(print(&String::from_utf8_lossy(&buf)))
}
