//! `gpu-doctor checks`: the check catalogue as a list, JSON or the README's table.

use super::output::print;
use super::Settings;
use crate::checks::catalogue;
use crate::cli::ChecksArgs;
use crate::error::AppError;

pub fn run(settings: &Settings, args: &ChecksArgs) -> Result<i32, AppError> {
    let out = if args.markdown {
        catalogue::markdown()
    } else if settings.json {
        format!("{}\n", catalogue::json())
    } else {
        catalogue::text()
    };
    Ok(print(&out))
}
