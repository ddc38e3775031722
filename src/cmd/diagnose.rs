//! `gpu-doctor diagnose`: judges a machine from its collect_env paste (and the error
//! seen), in the terminal UI or as text or JSON.

use super::output::{print, use_color};
use super::Settings;
use crate::cli::DiagnoseArgs;
use crate::diagnose;
use std::io::Write as _;
use std::path::Path;

use crate::error::{read_log, AppError};
use crate::host::Host;
use crate::pipeline;

pub fn run(settings: &Settings, args: &DiagnoseArgs, host: &Host) -> Result<i32, AppError> {
    let path = args
        .paste
        .as_deref()
        .or(args.collect_env.as_deref())
        .unwrap_or(Path::new("-"));
    let paste = read_log(path)?;
    let log = match &args.log {
        Some(p) => Some(read_log(p)?),
        None => None,
    };
    if diagnose::paste::parse(&paste).found_nothing()
        && log.is_none()
        && crate::explain::explain_by_rules(&paste, "")
            .matches
            .is_empty()
    {
        return Err(AppError::Input {
            path: path.display().to_string(),
            error: "it names no GPU, driver, CUDA or framework version and no error gpu-doctor knows (paste `python -m torch.utils.collect_env`, `nvidia-smi`, or the versions)".into(),
        });
    }
    let matrix = pipeline::choose_matrix(settings.matrix_dir.as_deref(), host)?;
    let d = diagnose::diagnose(&paste, log.as_deref(), &matrix);
    // A --save that fails does not lose the diagnosis: printed all the same, exit 3.
    let mut unwritten = None;
    if let Some(path) = &settings.save {
        if let Err(e) = super::output::write_atomic(path, &diagnose::render_json(&d)?) {
            unwritten = Some(e);
        }
    }
    if !settings.scriptable() && crate::tui::wanted(host) {
        let request = pipeline::Request {
            ready: Some(Box::new(d.report.clone())),
            ..pipeline::Request::default()
        };
        let code = crate::tui::run(crate::tui::runtime::Options {
            request,
            host: host.clone(),
            color: super::output::ui_color(settings.color, host),
            clipboard: crate::tui::osc52::reachable(host.var("TERM")),
            save_path: crate::tui::runtime::default_save_path(settings.save.as_deref()),
            autosave: false,
            test_panic: false,
        });
        return Ok(after_save(unwritten, code));
    }
    let out = if settings.json {
        diagnose::render_json(&d)?
    } else {
        diagnose::render_text(&d, use_color(settings.color, host), settings.verbose)
    };
    let code = print(&out);
    let code = if code == crate::report::exit::OK {
        d.report.exit_code
    } else {
        code
    };
    Ok(after_save(unwritten, code))
}

/// A --save that failed: said on stderr once the diagnosis is shown; exit code 3.
fn after_save(unwritten: Option<AppError>, code: i32) -> i32 {
    match unwritten {
        None => code,
        Some(e) => {
            let _ = writeln!(
                std::io::stderr(),
                "gpu-doctor: {}; the diagnosis was shown all the same",
                crate::report::defang_text(&e.to_string())
            );
            crate::report::exit::NO_VERDICT
        }
    }
}
