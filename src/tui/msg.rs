//! Everything that can happen to the UI, and the effects `update` asks the runtime for.

use std::collections::BTreeSet;
use std::path::PathBuf;

use crossterm::event::{KeyEvent, MouseEvent};

use crate::finding::Severity;
use crate::report::Report;

/// Which GPUs and probes the next run should use. Empty sets mean "all".
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProbePlan {
    /// GPUs left out, by table position key (NVML index or PCI bus id).
    pub skip_gpus: BTreeSet<String>,
    pub skip_probes: BTreeSet<String>,
}

#[derive(Debug, Clone)]
pub enum Msg {
    Key(KeyEvent),
    Mouse(MouseEvent),
    Resize(u16, u16),
    /// Time passed (spinners).
    Tick,
    /// A gathering stage of run `generation` began or finished.
    Stage {
        generation: u64,
        stage: usize,
        done: bool,
    },
    /// Run `generation` produced its report.
    Loaded {
        generation: u64,
        report: Box<Report>,
        elapsed_ms: u128,
    },
    /// Run `generation` could not produce a report (unreadable `--from`, a crash).
    LoadFailed {
        generation: u64,
        error: String,
    },
    /// A probe on one GPU changed state (sent by a probe runner).
    Probe {
        gpu: u32,
        probe: String,
        state: ProbeState,
    },
    /// The outcome of a save effect: the path written, or why not.
    Saved(Result<PathBuf, String>),
    /// SIGTERM, SIGHUP, SIGINT or SIGQUIT arrived.
    Signal(i32),
}

/// One probe cell of the GPU table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProbeState {
    /// Selected for the run, not started.
    Pending,
    /// Started at the given tick (the spinner animates from it).
    Running,
    /// Finished with this severity, in this many milliseconds if measured.
    Done(Severity, Option<u64>),
}

/// Effects `update` asks for; the runtime performs them (update itself does no I/O).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cmd {
    /// Gather and judge again, as run `generation`, with this probe plan.
    Gather { generation: u64, plan: ProbePlan },
    /// Write the JSON report to this path.
    Save(PathBuf),
    /// Put this text on the terminal's clipboard (OSC 52).
    Copy(String),
    /// Repaint everything (after something may have written over the screen).
    Redraw,
}
