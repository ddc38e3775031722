//! `gpu-doctor schema`: the JSON Schema of the `--json` report.

use super::output::print;
use crate::error::AppError;
use crate::report;

pub fn run() -> Result<i32, AppError> {
    Ok(print(&format!(
        "{}\n",
        serde_json::to_string_pretty(&report::json_schema())?
    )))
}
