//! The probe worker's protocol: one JSON event per line, versioned, so the parent can
//! stream progress and tell a stale or foreign binary from a broken driver.
//!
//! Workers answer on their own file descriptor (`answer_channel`): the stdout pipe
//! the parent gave them, duplicated before any library is loaded, while the process's
//! stdout is pointed at stderr. Whatever a driver prints (a megabyte of chatter
//! included) lands in the bounded stderr tail and cannot hide or corrupt the answer.

use serde::{Deserialize, Serialize};

use crate::facts::probe::{PeerPair, ProbeKind, ProbeOutcome};

/// Bumped whenever `Event` changes shape.
pub const PROBE_PROTOCOL: u32 = 1;
/// The hidden subcommand that runs a probe worker.
pub const WORKER_SUBCOMMAND: &str = "__probe-worker";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// The worker opened the GPU (context current) and is about to run probes.
    Ready {
        protocol: u32,
    },
    Started {
        protocol: u32,
        probe: ProbeKind,
    },
    Finished {
        protocol: u32,
        probe: ProbeKind,
        elapsed_ms: u64,
        outcome: ProbeOutcome,
    },
    /// The P2P probe: a pair as it starts (`running`) and as it ends, so a copy that
    /// hangs is named by the last pair heard of.
    Pair {
        protocol: u32,
        pair: PeerPair,
    },
}

impl Event {
    pub fn protocol(&self) -> u32 {
        match self {
            Event::Ready { protocol }
            | Event::Started { protocol, .. }
            | Event::Finished { protocol, .. }
            | Event::Pair { protocol, .. } => *protocol,
        }
    }
}

/// Exit status of a probe worker that stopped after a sticky driver error (the context
/// is unusable until the process ends): the runner starts a fresh worker for the rest.
pub const STICKY_EXIT: i32 = 75;

pub use crate::host::{answer_channel, write_answer}; // moved: src/host.rs

/// A line of worker output: an event of our protocol, or `None` (library chatter).
pub fn parse_line(line: &str) -> Option<Result<Event, u32>> {
    let line = line.trim();
    if !line.starts_with('{') {
        return None;
    }
    let event: Event = serde_json::from_str(line).ok()?;
    if event.protocol() == PROBE_PROTOCOL {
        Some(Ok(event))
    } else {
        Some(Err(event.protocol()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip_and_chatter_is_ignored() {
        let e = Event::Started {
            protocol: PROBE_PROTOCOL,
            probe: ProbeKind::Graph,
        };
        let line = serde_json::to_string(&e).unwrap();
        assert_eq!(parse_line(&line), Some(Ok(e)));
        assert_eq!(parse_line("libcuda: hello"), None);
        assert_eq!(parse_line("{not json"), None);
        assert_eq!(
            parse_line(r#"{"event":"ready","protocol":7}"#),
            Some(Err(7))
        );
    }
}
