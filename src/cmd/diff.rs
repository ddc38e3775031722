//! `gpu-doctor diff`: what differs between two saved reports.

use super::output::print;
use super::Settings;
use crate::cli::DiffArgs;
use crate::diff;
use crate::error::AppError;
use crate::finding::Finding;
use crate::report::exit;

pub fn run(settings: &Settings, args: &DiffArgs) -> Result<i32, AppError> {
    let a = diff::load(&args.a)?;
    let b = diff::load(&args.b)?;
    let fa: Vec<Finding> = a.findings.iter().filter_map(diff::lenient).collect();
    let fb: Vec<Finding> = b.findings.iter().filter_map(diff::lenient).collect();
    let d = diff::diff_values(&a.facts, &fa, &b.facts, &fb);
    let out = if settings.json {
        format!("{}\n", crate::report::safe_json::to_string_pretty(&d)?)
    } else {
        // Every value and key of two outside files is printed: none may drive the
        // terminal (JSON escapes its own).
        crate::report::defang_text(&diff::text(
            &d,
            &args.a.display().to_string(),
            &args.b.display().to_string(),
        ))
        .into_owned()
    };
    let code = print(&out);
    Ok(if code != exit::OK {
        code
    } else if d.identical {
        exit::OK
    } else {
        diff::DIFFERENT
    })
}
