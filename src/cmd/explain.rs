//! `gpu-doctor explain`: reads the text, explains it, refines the causes with this
//! machine's findings (or a saved report's) unless `--offline`, prints text or JSON.

use std::io::Write;
use std::path::Path;

use super::output::print;
use super::Settings;
use crate::cli::ExplainArgs;
use crate::error::{read_log, AppError};
use crate::explain::{self, NOTHING_FOUND};
use crate::host::Host;
use crate::pipeline;
use crate::report::exit;

pub fn run(settings: &Settings, args: &ExplainArgs, host: &Host) -> Result<i32, AppError> {
    let pythons = &settings.request.gather.pythons;
    if !pythons.is_empty() && (args.offline || args.from.is_some()) {
        return Err(AppError::Usage(
            "explain: --python refines with this machine's facts; it cannot go with --offline or --from".into(),
        ));
    }
    super::check_pythons(pythons, host)?;
    // A lone `-` is standard input, as for `diagnose -` and `--file -`.
    let stdin_dash = args.text.len() == 1 && args.text[0] == "-";
    let text = if args.text.is_empty() || stdin_dash {
        if args.file.is_none() && std::io::IsTerminal::is_terminal(&std::io::stdin()) {
            let _ = writeln!(
                std::io::stderr(),
                "gpu-doctor: paste the error text, then Ctrl-D (or pass TEXT / --file LOG)"
            );
        }
        read_log(args.file.as_deref().unwrap_or(Path::new("-")))?
    } else {
        args.text.join(" ")
    };
    let mut ex = explain::explain(&text);
    if !ex.matches.is_empty() {
        let matrix = pipeline::choose_matrix(settings.matrix_dir.as_deref(), host)?;
        explain::enrich(&mut ex, &matrix);
    }
    if !args.offline && !ex.matches.is_empty() {
        let whose = if args.from.is_some() {
            "the saved report".to_string()
        } else if !pythons.is_empty() {
            let names: Vec<String> = pythons.iter().map(|p| p.display().to_string()).collect();
            format!("this machine with --python {}", names.join(", "))
        } else {
            "this machine".to_string()
        };
        // An NCCL error on this machine: run the probes between GPUs (P2P copies, an
        // all-reduce) so their result can rank the causes.
        let probes: &[crate::facts::probe::ProbeKind] = if explain::nccl::wants_probes(&ex) {
            &crate::facts::probe::ProbeKind::NODE
        } else {
            &[]
        };
        let findings = pipeline::findings_for_explain(
            args.from.as_deref(),
            pythons,
            settings.matrix_dir.as_deref(),
            host,
            probes,
        )?;
        explain::refine(&mut ex, &findings, &whose);
    }
    let out = if settings.json {
        explain::render::json(&ex)
    } else {
        explain::render::text(&ex, settings.verbose)
    };
    let code = print(&out);
    if code != exit::OK {
        return Ok(code);
    }
    Ok(if ex.matches.is_empty() {
        NOTHING_FOUND
    } else {
        exit::OK
    })
}
