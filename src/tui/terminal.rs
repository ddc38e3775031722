//! Taking over the terminal and giving it back on every exit path: a normal quit and
//! errors (the [`Guard`] drops), a panic on the UI thread (the hook restores before the
//! message is printed), and SIGTERM/SIGHUP/SIGINT/SIGQUIT (forwarded to the event loop as
//! messages, so the loop ends and the guard drops). Ctrl-C in raw mode is a key, bound to
//! quit.

use std::io::{self, Stdout, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::thread::ThreadId;

use crossterm::cursor::Show;
use crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use crossterm::execute;
use crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;

use super::msg::Msg;

pub type Term = Terminal<CrosstermBackend<Stdout>>;

/// Gives the terminal back exactly once, whoever asks first (the panic hook or the
/// guard): leaving the alternate screen a second time would move the cursor back to where
/// the UI started and overwrite what was printed since (a panic message).
#[derive(Clone, Default)]
pub struct Restorer {
    done: Arc<AtomicBool>,
}

impl Restorer {
    pub fn restore(&self) {
        if !self.done.swap(true, Ordering::SeqCst) {
            let _ = restore();
        }
    }
}

/// Restores the terminal when dropped.
pub struct Guard(Restorer);

impl Drop for Guard {
    fn drop(&mut self) {
        self.0.restore();
    }
}

/// Raw mode, the alternate screen and mouse reporting; undone by the returned guard, or
/// right away when a step fails.
pub fn setup(restorer: Restorer) -> io::Result<(Term, Guard)> {
    enable_raw_mode()?;
    let guard = Guard(restorer);
    execute!(io::stdout(), EnterAlternateScreen, EnableMouseCapture)?;
    let mut term = Terminal::new(CrosstermBackend::new(io::stdout()))?;
    term.hide_cursor()?;
    term.clear()?;
    Ok((term, guard))
}

/// Leaves the alternate screen, shows the cursor, stops mouse reporting and raw mode.
fn restore() -> io::Result<()> {
    let mut out = io::stdout();
    let screen = execute!(out, DisableMouseCapture, LeaveAlternateScreen, Show);
    let raw = disable_raw_mode();
    out.flush()?;
    screen.and(raw)
}

type Hook = Arc<dyn Fn(&std::panic::PanicHookInfo<'_>) + Send + Sync + 'static>;

/// The panic hook in force while the UI runs; [`PanicHook::uninstall`] puts the previous
/// one back.
pub struct PanicHook {
    previous: Hook,
}

/// Restores the terminal before a panic on the UI thread prints its message (a panic on
/// the gathering thread becomes a message to the UI instead, so the screen stays).
pub fn install_panic_hook(ui: ThreadId, restorer: Restorer) -> PanicHook {
    let previous: Hook = Arc::from(std::panic::take_hook());
    let chained = Arc::clone(&previous);
    std::panic::set_hook(Box::new(move |info| {
        if std::thread::current().id() == ui {
            restorer.restore();
        }
        chained(info);
    }));
    PanicHook { previous }
}

impl PanicHook {
    pub fn uninstall(self) {
        let previous = self.previous;
        std::panic::set_hook(Box::new(move |info| previous(info)));
    }
}

/// Forwards termination signals to the event loop; close the handle when done.
pub fn forward_signals(tx: Sender<Msg>) -> io::Result<signal_hook::iterator::Handle> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGTERM, SIGINT, SIGHUP, SIGQUIT])?;
    // Commands under way (nvcc, a --deep interpreter) are still killed on the signal; the
    // process ends here, after the terminal is restored.
    crate::host::children::signals_handled_elsewhere();
    let handle = signals.handle();
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            // One signal is enough: forward it, then give the loop its grace period.
            if let Some(s) = signals.forever().next() {
                if tx.send(Msg::Signal(s)).is_err() {
                    return;
                }
                // The event loop normally quits at once. When the terminal is gone,
                // crossterm's reader spins on end-of-file inside `poll` and the loop never
                // sees the message: a doctor must not outlive its terminal, so leave here.
                std::thread::sleep(SIGNAL_GRACE);
                let _ = restore();
                std::process::exit(crate::report::exit::NO_VERDICT);
            }
        })?;
    Ok(handle)
}

/// How long the event loop has to act on a termination signal before the process ends
/// without it.
pub const SIGNAL_GRACE: std::time::Duration = std::time::Duration::from_millis(1500);
