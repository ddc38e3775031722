//! The event loop: reads terminal events, timer ticks, worker and signal messages; feeds
//! them to `update`; performs the effects it returns; draws.

use std::collections::VecDeque;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

use crossterm::event::{self, Event};

use super::app::App;
use super::msg::{Cmd, Msg};
use super::terminal::{self, Term};
use super::{osc52, update, view, worker};
use crate::host::Host;
use crate::report::{exit, Report};

const TICK: Duration = Duration::from_millis(100);

pub struct Options {
    pub request: worker::Request,
    pub host: Host,
    pub color: bool,
    pub clipboard: bool,
    /// Where `s` saves; `--save FILE` also saves there as soon as the report is ready.
    pub save_path: PathBuf,
    pub autosave: bool,
    /// Hidden, for the end-to-end test of the panic exit path: panic on the UI thread
    /// after the first frame (`GPU_DOCTOR_TUI_TEST_PANIC=1`).
    pub test_panic: bool,
}

/// The variable that makes the UI panic after its first frame (tests only).
pub const TEST_PANIC_ENV: &str = "GPU_DOCTOR_TUI_TEST_PANIC";

/// Only the end-to-end test of the panic path calls this.
#[allow(clippy::panic)]
fn test_panic() {
    panic!("{TEST_PANIC_ENV} is set: panicking on the UI thread to test terminal restore");
}

/// `--save FILE`, else a new file in the current folder named by the time.
pub fn default_save_path(save: Option<&Path>) -> PathBuf {
    save.map(Path::to_path_buf).unwrap_or_else(|| {
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        PathBuf::from(format!("gpu-doctor-report-{secs}.json"))
    })
}

pub fn run(opts: Options) -> i32 {
    let (tx, rx) = mpsc::channel();
    let mut app = App::new(opts.save_path.clone(), opts.color, opts.clipboard);
    let restorer = terminal::Restorer::default();
    let hook = terminal::install_panic_hook(std::thread::current().id(), restorer.clone());
    let (mut term, guard) = match terminal::setup(restorer) {
        Ok(t) => t,
        Err(e) => {
            hook.uninstall();
            let _ = writeln!(
                std::io::stderr(),
                "gpu-doctor: could not start the terminal UI: {e}; --plain prints the text report"
            );
            return exit::NO_VERDICT;
        }
    };
    let signals = terminal::forward_signals(tx.clone()).ok();
    if let Ok(size) = term.size() {
        app.size = (size.width, size.height);
    }
    worker::spawn(
        opts.request.clone(),
        opts.host.clone(),
        0,
        app.plan.clone(),
        tx.clone(),
    );
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        event_loop(&mut term, &mut app, &rx, &tx, &opts)
    }));
    drop(term);
    drop(guard);
    if let Some(s) = signals {
        s.close();
    }
    hook.uninstall();
    match outcome {
        Ok(Ok(())) => {}
        Ok(Err(e)) => {
            let _ = writeln!(std::io::stderr(), "gpu-doctor: terminal UI failed: {e}");
            return exit::NO_VERDICT;
        }
        Err(_) => return exit::NO_VERDICT,
    }
    if !app.print_on_exit.is_empty() {
        let mut out = std::io::stdout().lock();
        for c in &app.print_on_exit {
            let _ = writeln!(out, "{c}");
        }
    }
    app.exit_code()
}

fn event_loop(
    term: &mut Term,
    app: &mut App,
    rx: &Receiver<Msg>,
    tx: &Sender<Msg>,
    opts: &Options,
) -> std::io::Result<()> {
    let mut last_tick = Instant::now();
    let mut queue: VecDeque<Msg> = VecDeque::new();
    while !app.quit {
        term.draw(|f| view::draw(f, app))?;
        if opts.test_panic {
            test_panic();
        }
        if event::poll(TICK.saturating_sub(last_tick.elapsed()))? {
            match event::read()? {
                Event::Key(k) => queue.push_back(Msg::Key(k)),
                Event::Mouse(m) => queue.push_back(Msg::Mouse(m)),
                Event::Resize(w, h) => queue.push_back(Msg::Resize(w, h)),
                _ => {}
            }
        }
        queue.extend(rx.try_iter());
        if last_tick.elapsed() >= TICK {
            queue.push_back(Msg::Tick);
            last_tick = Instant::now();
        }
        while let Some(msg) = queue.pop_front() {
            let loaded = matches!(msg, Msg::Loaded { .. });
            let mut cmds = update::update(app, msg);
            if loaded && opts.autosave && app.report.is_some() && !app.gathering() {
                cmds.push(Cmd::Save(app.save_path.clone()));
            }
            for cmd in cmds {
                if let Some(reply) = perform(term, app, cmd, tx, opts)? {
                    queue.push_back(reply);
                }
            }
        }
    }
    Ok(())
}

fn perform(
    term: &mut Term,
    app: &App,
    cmd: Cmd,
    tx: &Sender<Msg>,
    opts: &Options,
) -> std::io::Result<Option<Msg>> {
    match cmd {
        Cmd::Gather { generation, plan } => {
            worker::spawn(
                opts.request.clone(),
                opts.host.clone(),
                generation,
                plan,
                tx.clone(),
            );
        }
        Cmd::Save(path) => {
            if let Some(report) = &app.report {
                return Ok(Some(Msg::Saved(
                    save(report, &path)
                        .map(|()| path)
                        .map_err(|e| e.to_string()),
                )));
            }
        }
        Cmd::Copy(text) => {
            let out = term.backend_mut();
            out.write_all(osc52::sequence(&text).as_bytes())?;
            out.flush()?;
        }
        Cmd::Redraw => term.clear()?,
    }
    Ok(None)
}

/// Saves the JSON report (atomically for a file; see `report::out_file`).
pub fn save(report: &Report, path: &Path) -> std::io::Result<()> {
    let json = crate::report::safe_json::to_string_pretty(report).map_err(std::io::Error::other)?;
    crate::report::out_file::write(
        path,
        &(json
            + "
"),
    )
}
