//! `gpu-doctor fleet ...` wired to the command line: read the hosts (or the saved reports
//! of `--reports DIR`), run them, show the fleet (table UI on a terminal, else `--plain` /
//! `--json`), write `--prometheus`.
//!
//! `--json` is written host by host as results come (in input order), each report
//! dropped once written, so memory does not grow with the reports (`--prometheus` needs
//! every report at the end and keeps them).

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::time::Instant;

use super::Settings;
use crate::fleet::render::JsonStream;
use crate::fleet::{
    self, aggregate, render, reports, FleetArgs, FleetOptions, HostResult, HostSummary, SSH_ENV,
};
use crate::host::Host;
use crate::report::exit;

type Stdout = std::io::BufWriter<std::io::StdoutLock<'static>>;

/// Where host results go as they come: the JSON stream in input order (results that
/// finish early wait in `pending`), and the progress line.
struct Sink {
    /// Every host so far, for the groups, drift and counts (in whatever order they come).
    tally: aggregate::Tally,
    json: Option<JsonStream<Stdout>>,
    pending: BTreeMap<usize, HostResult>,
    next: usize,
    error: Option<std::io::Error>,
    progress: bool,
    done: usize,
    total: usize,
}

impl Sink {
    fn new(settings: &Settings, total: usize) -> Sink {
        let mut error = None;
        let json = settings.json.then(|| {
            JsonStream::start(std::io::BufWriter::new(std::io::stdout().lock()))
                .map_err(|e| error = Some(e))
                .ok()
        });
        Sink {
            tally: aggregate::Tally::default(),
            json: json.flatten(),
            pending: BTreeMap::new(),
            next: 0,
            error,
            progress: std::io::stderr().is_terminal() && !settings.json,
            done: 0,
            total,
        }
    }

    fn push(&mut self, i: usize, r: &HostResult) {
        self.tally.add(r);
        self.done += 1;
        if self.progress {
            let _ = write!(
                std::io::stderr(),
                "\r\x1b[K{}/{} hosts · last: {} {}",
                self.done,
                self.total,
                r.host,
                render::result_word(r)
            );
        }
        if self.json.is_none() {
            return;
        }
        if i != self.next {
            self.pending.insert(i, r.clone());
            return;
        }
        self.write(r);
        self.next += 1;
        while let Some(p) = self.pending.remove(&self.next) {
            self.write(&p);
            self.next += 1;
        }
    }

    /// Writes what never came through `push` (a host whose worker stopped).
    fn drain(&mut self, results: &[HostResult]) {
        if self.json.is_none() {
            return;
        }
        while let Some(r) = results.get(self.next) {
            let r = self.pending.remove(&self.next).unwrap_or_else(|| r.clone());
            self.write(&r);
            self.next += 1;
        }
    }

    fn write(&mut self, r: &HostResult) {
        if self.error.is_some() {
            return;
        }
        if let Some(s) = &mut self.json {
            if let Err(e) = s.host(r) {
                self.error = Some(e);
            }
        }
    }
}

pub fn run(settings: &Settings, args: &FleetArgs, host: &Host) -> i32 {
    if let Err(e) = fleet::check_args(args) {
        return fail(&e);
    }
    let golden = match &args.golden {
        Some(path) => match reports::golden(path, args.max_output) {
            Ok(s) => Some(s),
            Err(e) => return fail(&e),
        },
        None => None,
    };
    let expect = match &args.expect {
        Some(path) => match expectation(settings, path, host) {
            Ok(e) => Some(std::sync::Arc::new(e)),
            Err(e) => return fail(&e),
        },
        None => None,
    };
    if let Some(dir) = &args.reports {
        let files = match reports::list(dir) {
            Ok(f) => f,
            Err(e) => return fail(&e),
        };
        let start = Instant::now();
        let mut sink = Sink::new(settings, files.len());
        // `--json` alone keeps nothing per host but the tally; the table and the metrics
        // need every host's result (the metrics its report too).
        let keep = !settings.json || settings.prometheus.is_some();
        let mut results = Vec::new();
        reports::run(
            &files,
            args.max_output,
            args.names,
            settings.json || settings.prometheus.is_some(),
            expect.as_deref(),
            &mut |mut r| {
                let i = sink.done;
                sink.push(i, &r);
                if keep {
                    if settings.prometheus.is_none() {
                        r.report = None;
                    }
                    results.push(r);
                }
            },
        );
        return finish(settings, sink, &results, start, golden.as_ref());
    }
    let targets = match fleet::targets(args) {
        Ok(t) => t,
        Err(e) => return fail(&e),
    };
    let mut opts = FleetOptions::from_args(args, host.var(SSH_ENV));
    opts.expect = expect;
    if !settings.scriptable()
        && crate::tui::fleet::wanted(host)
        && settings.prometheus.is_none()
        && golden.is_none()
    {
        let color = super::output::ui_color(settings.color, host);
        return crate::tui::fleet::run(&targets, &opts, color);
    }
    opts.keep_reports = settings.json || settings.prometheus.is_some();
    opts.retain_reports = settings.prometheus.is_some();
    // Ctrl-C, SIGTERM, SIGHUP: end the ssh children too (each runs in its own process
    // group, so the terminal's signal does not reach them), then stop.
    let running = opts.ssh.running.clone();
    if let Ok(mut signals) = signal_hook::iterator::Signals::new([
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
    ]) {
        crate::host::children::signals_handled_elsewhere();
        let _ = std::thread::Builder::new().spawn(move || {
            if let Some(sig) = signals.forever().next() {
                running.kill_all();
                let _ = writeln!(std::io::stderr(), "\ngpu-doctor fleet: interrupted");
                std::process::exit(128 + sig);
            }
        });
    }
    let start = Instant::now();
    let mut sink = Sink::new(settings, targets.len());
    let results = fleet::run(&targets, &opts, &mut |i, r| sink.push(i, r));
    // Every host, those whose worker stopped before reporting included.
    sink.tally = aggregate::Tally::of(&results);
    finish(settings, sink, &results, start, golden.as_ref())
}

/// `--expect PROFILE`, read once as the report's `--expect` reads it (a bad profile is
/// exit code 3 before any host is asked).
fn expectation(
    settings: &Settings,
    path: &std::path::Path,
    host: &Host,
) -> Result<fleet::expect::Expectation, crate::error::AppError> {
    Ok(fleet::expect::Expectation {
        profile: super::report::load_profile(path)?,
        matrix: crate::pipeline::choose_matrix(settings.matrix_dir.as_deref(), host)?,
    })
}

fn fail(e: &dyn std::fmt::Display) -> i32 {
    let _ = writeln!(std::io::stderr(), "gpu-doctor fleet: {e}");
    exit::NO_VERDICT
}

/// Drift, exit code, `--prometheus`, and the end of the output.
fn finish(
    settings: &Settings,
    mut sink: Sink,
    results: &[HostResult],
    start: Instant,
    golden: Option<&HostSummary>,
) -> i32 {
    sink.drain(results);
    let tally = std::mem::take(&mut sink.tally);
    if sink.progress {
        let _ = write!(std::io::stderr(), "\r\x1b[K");
    }
    let elapsed_ms = u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX);
    let drift = match golden {
        Some(g) => tally.drift_from_golden(g),
        None => tally.drift(),
    };
    let mut code = tally.exit_code();
    if golden.is_some() && !drift.is_empty() {
        code = code.max(exit::WARNINGS);
    }
    if let Some(path) = &settings.prometheus {
        let text = crate::fleet::prometheus::fleet(results);
        if let Err(e) = crate::report::out_file::write(path, &text) {
            return fail(&format!(
                "could not write metrics to {}: {e}",
                path.display()
            ));
        }
    }
    let written = match (sink.error, sink.json) {
        (Some(e), _) => Err(e),
        (None, Some(stream)) => stream
            .finish(&tally, elapsed_ms, &drift, code)
            .and_then(|mut out| out.flush()),
        (None, None) => {
            let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
            stdout
                .write_all(render::plain_with(results, elapsed_ms, &drift, code).as_bytes())
                .and_then(|()| stdout.flush())
        }
    };
    match written {
        Ok(()) => code,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => code,
        Err(e) => fail(&format!("could not write output: {e}")),
    }
}
