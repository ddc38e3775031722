//! `gpu-doctor fleet ...`: read the hosts, run them, show the fleet (table UI on a
//! terminal, else `--plain` / `--json`), write `--prometheus`.

use std::io::{IsTerminal, Write};
use std::time::Instant;

use super::Settings;
use crate::fleet::{self, render, FleetArgs, FleetOptions};
use crate::host::Host;
use crate::report::exit;

pub fn run(settings: &Settings, args: &FleetArgs, host: &Host) -> i32 {
    let fail = |e: &dyn std::fmt::Display| {
        let _ = writeln!(std::io::stderr(), "gpu-doctor fleet: {e}");
        exit::NO_VERDICT
    };
    if let Err(e) = fleet::check_args(args) {
        return fail(&e);
    }
    let targets = match fleet::targets(args) {
        Ok(t) => t,
        Err(e) => return fail(&e),
    };
    let mut opts = FleetOptions::from_args(args, host.var(fleet::SSH_ENV));
    if !settings.scriptable() && crate::tui::fleet::wanted(host) && settings.prometheus.is_none() {
        let color = super::output::ui_color(settings.color, host);
        return crate::tui::fleet::run(&targets, &opts, color);
    }
    opts.keep_reports = settings.json || settings.prometheus.is_some();
    // Ctrl-C, SIGTERM, SIGHUP: end the ssh children too (each runs in its own process
    // group, so the terminal's signal does not reach them), then stop.
    let running = opts.ssh.running.clone();
    if let Ok(mut signals) = signal_hook::iterator::Signals::new([
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
    ]) {
        let _ = std::thread::Builder::new().spawn(move || {
            if let Some(sig) = signals.forever().next() {
                running.kill_all();
                let _ = writeln!(std::io::stderr(), "\ngpu-doctor fleet: interrupted");
                std::process::exit(128 + sig);
            }
        });
    }
    let start = Instant::now();
    let total = targets.len();
    let progress = std::io::stderr().is_terminal() && !settings.json;
    let mut done = 0usize;
    let results = fleet::run(&targets, &opts, &mut |_, r| {
        done += 1;
        if progress {
            let _ = write!(
                std::io::stderr(),
                "\r\x1b[K{done}/{total} hosts · last: {} {}",
                r.host,
                render::result_word(r)
            );
        }
    });
    if progress {
        let _ = write!(std::io::stderr(), "\r\x1b[K");
    }
    let elapsed_ms = u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX);
    let code = fleet::exit_code(&results);
    if let Some(path) = &settings.prometheus {
        let text = fleet::prometheus::fleet(&results);
        if let Err(e) = crate::report::prometheus::write_atomic(path, &text) {
            return fail(&format!(
                "could not write metrics to {}: {e}",
                path.display()
            ));
        }
    }
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    // The JSON document is written as it is encoded: the reports are not copied into one
    // big string first.
    let written = if settings.json {
        render::write_json(&mut stdout, &results, elapsed_ms)
    } else {
        stdout.write_all(render::plain(&results, elapsed_ms).as_bytes())
    };
    match written.and_then(|()| stdout.flush()) {
        Ok(()) => code,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => code,
        Err(e) => fail(&format!("could not write output: {e}")),
    }
}
