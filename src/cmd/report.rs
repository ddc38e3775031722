//! `gpu-doctor` with no subcommand: the report of this machine (or of a saved one), in
//! the terminal UI, as text, JSON, Slurm's one line or Prometheus metrics.

use std::io::Write as _;

use super::output::{print, use_color, write_atomic};
use super::Settings;
use crate::checks::{self, Selection};
use crate::error::AppError;
use crate::host::Host;
use crate::pipeline;
use crate::report::{self, text, Report};

/// `--expect PROFILE`: a saved golden report (JSON, its facts give the profile) or a
/// TOML profile. Anything else is an error naming what is wrong (exit code 3).
pub fn load_profile(path: &std::path::Path) -> Result<checks::expect::Profile, AppError> {
    let name = path.display().to_string();
    let err = |error: String| AppError::Profile {
        path: name.clone(),
        error,
    };
    let text = crate::error::read_text(path)?;
    if text.len() as u64 > report::MAX_REPORT_BYTES {
        return Err(err("larger than any profile or report".to_string()));
    }
    if text.trim_start().starts_with('{') {
        let facts = report::facts_from_json(&text, &name).map_err(|e| err(e.to_string()))?;
        checks::expect::Profile::from_facts(&facts, &format!("golden report {name}")).map_err(err)
    } else {
        checks::expect::Profile::from_toml(&text, &name).map_err(err)
    }
}

pub fn run(settings: &Settings, host: &Host) -> Result<i32, AppError> {
    if settings.request.from.is_none() && !crate::cuda_ffi::CAN_LOAD_DRIVER {
        return Err(AppError::StaticBuild);
    }
    check_selection(&settings.request.selection)?;
    super::check_pythons(&settings.request.gather.pythons, host)?;
    let mut request = settings.request.clone();
    if let Some(path) = &settings.expect {
        let profile = load_profile(path)?;
        // The profile's GPU count is what --expect-gpus says; the flag itself wins.
        request.checks.expect_gpus = request.checks.expect_gpus.or(profile.gpus);
        request.checks.expect = Some(profile);
    }
    let mut budgeted;
    let host = match settings.budget {
        Some(b) => {
            budgeted = host.clone();
            budgeted.deadline = Some(std::time::Instant::now() + b);
            request.gather.deadline = budgeted.deadline;
            &budgeted
        }
        None => host,
    };
    if !settings.scriptable()
        && crate::tui::wanted(host)
        && !settings.slurm
        && !settings.npd
        && settings.prometheus.is_none()
        && settings.labels.is_none()
    {
        pipeline::check_gpu_selection_before_ui(&request, host)?;
        return Ok(crate::tui::run(crate::tui::runtime::Options {
            request: request.clone(),
            host: host.clone(),
            color: super::output::ui_color(settings.color, host),
            clipboard: crate::tui::osc52::reachable(host.var("TERM")),
            save_path: crate::tui::runtime::default_save_path(settings.save.as_deref()),
            autosave: settings.save.is_some(),
            test_panic: host
                .var(crate::tui::runtime::TEST_PANIC_ENV)
                .is_some_and(|v| v == "1"),
        }));
    }
    let started = std::time::Instant::now();
    let report = pipeline::run(&request, host)?;
    // A file that cannot be written does not lose the report: it is still printed, the
    // reason goes to stderr, and the exit code is 3 (documented in --help).
    let mut unwritten: Vec<AppError> = Vec::new();
    if let Some(path) = &settings.save {
        if let Err(e) = save(&report, path) {
            unwritten.push(e);
        }
    }
    if let Some(path) = &settings.prometheus {
        let text = report::prometheus::single(&report, started.elapsed().as_secs_f64());
        if let Err(e) = write_atomic(path, &text) {
            unwritten.push(e);
        }
    }
    let mut labels_printed = false;
    if let Some(path) = &settings.labels {
        let text = report::labels::feature_file(
            &report::labels::labels(&report),
            std::time::SystemTime::now(),
            report::labels::DEFAULT_TTL,
        );
        if path.as_os_str() == "-" {
            print(&text);
            labels_printed = true;
        } else if let Err(e) = write_atomic(path, &text) {
            unwritten.push(e);
        }
    }
    let code = if labels_printed {
        report.exit_code
    } else if settings.npd {
        let (line, code) = report::npd::outcome(&report);
        print(&format!("{line}\n"));
        code
    } else if settings.slurm {
        let (line, code) = report::slurm::outcome(&report);
        if let Some(line) = line {
            print(&format!("{line}\n"));
        }
        code
    } else {
        let out = if settings.json {
            format!("{}\n", report::safe_json::to_string_pretty(&report)?)
        } else {
            text::render(
                &report.for_terminal(),
                text::TextOptions {
                    color: use_color(settings.color, host),
                    verbose: settings.verbose,
                    from_paste: false,
                },
            )
        };
        print(&out);
        report.exit_code
    };
    if unwritten.is_empty() {
        return Ok(code);
    }
    for e in &unwritten {
        let _ = writeln!(
            std::io::stderr(),
            "gpu-doctor: {}; the report was printed all the same",
            crate::report::defang_text(&e.to_string())
        );
    }
    // node-problem-detector's protocol has no code for it: its own code stays.
    Ok(if settings.npd {
        code
    } else {
        crate::report::exit::NO_VERDICT
    })
}

/// `--only` / `--skip` name catalogue ids or areas.
fn check_selection(selection: &Selection) -> Result<(), AppError> {
    for pat in selection.only.iter().chain(&selection.skip) {
        let known = checks::ALL
            .iter()
            .any(|c| c.id == pat || c.area.as_str() == pat.as_str());
        if !known {
            return Err(AppError::UnknownCheck(pat.clone()));
        }
    }
    Ok(())
}

/// Writes the JSON report atomically.
fn save(report: &Report, path: &std::path::Path) -> Result<(), AppError> {
    let json = report::safe_json::to_string_pretty(report)?;
    write_atomic(path, &(json + "\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_ids_and_areas_are_refused_known_ones_pass() {
        let ok = Selection {
            only: vec!["driver".into(), "torch.cpu_only".into()],
            skip: vec![],
        };
        assert!(check_selection(&ok).is_ok());
        let bad = Selection {
            only: vec![],
            skip: vec!["driver.nope".into()],
        };
        assert!(matches!(
            check_selection(&bad),
            Err(AppError::UnknownCheck(p)) if p == "driver.nope"
        ));
    }
}
