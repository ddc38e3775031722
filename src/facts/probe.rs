//! What a probe found: the wire and report types shared by the worker and the runner.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A probe may run this long before its worker is killed (`--probe-timeout`'s default).
/// The checks read it too: a shorter limit the user set may cut a healthy probe short.
pub const DEFAULT_PROBE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// The smoke probes, in the order a worker runs them (cheap and telling first).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum ProbeKind {
    Launch,
    GridLimit,
    Ordinal,
    Cublaslt,
    Graph,
    Bandwidth,
    Oom,
    /// Between GPUs: the peer-access matrix and verified peer copies (one worker, every GPU).
    P2p,
    /// Between GPUs: a single-node NCCL all-reduce (one worker, every GPU).
    Nccl,
}

impl ProbeKind {
    pub const ALL: [ProbeKind; 7] = [
        ProbeKind::Launch,
        ProbeKind::GridLimit,
        ProbeKind::Ordinal,
        ProbeKind::Cublaslt,
        ProbeKind::Graph,
        ProbeKind::Bandwidth,
        ProbeKind::Oom,
    ];

    /// The probes that run between GPUs, in one worker over every planned GPU, after the
    /// per-GPU probes (only with two GPUs or more).
    pub const NODE: [ProbeKind; 2] = [ProbeKind::P2p, ProbeKind::Nccl];

    /// Per-GPU probes, then the probes between GPUs.
    pub fn every() -> impl Iterator<Item = ProbeKind> {
        ProbeKind::ALL.into_iter().chain(ProbeKind::NODE)
    }

    /// Whether the probe runs between GPUs rather than on one.
    pub fn between_gpus(self) -> bool {
        ProbeKind::NODE.contains(&self)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ProbeKind::Launch => "launch",
            ProbeKind::GridLimit => "grid_limit",
            ProbeKind::Ordinal => "ordinal",
            ProbeKind::Cublaslt => "cublaslt",
            ProbeKind::Graph => "graph",
            ProbeKind::Bandwidth => "bandwidth",
            ProbeKind::Oom => "oom",
            ProbeKind::P2p => "p2p",
            ProbeKind::Nccl => "nccl",
        }
    }

    pub fn parse(s: &str) -> Option<ProbeKind> {
        let s = s.trim().strip_prefix("probe.").unwrap_or(s.trim());
        ProbeKind::every().find(|k| k.as_str() == s)
    }

    /// The finding id a probe's result is reported under.
    pub fn finding_id(self) -> &'static str {
        match self {
            ProbeKind::Launch => "probe.launch",
            ProbeKind::GridLimit => "probe.grid_limit",
            ProbeKind::Ordinal => "probe.ordinal",
            ProbeKind::Cublaslt => "probe.cublaslt",
            ProbeKind::Graph => "probe.graph",
            ProbeKind::Bandwidth => "probe.bandwidth",
            ProbeKind::Oom => "probe.oom",
            ProbeKind::P2p => "probe.p2p",
            ProbeKind::Nccl => "probe.nccl",
        }
    }
}

/// One named measurement, e.g. ("jit_ms", 12.5, "ms").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Measurement {
    pub name: String,
    pub value: f64,
    pub unit: String,
}

impl Measurement {
    pub fn new(name: &str, value: f64, unit: &str) -> Measurement {
        Measurement {
            name: name.to_string(),
            value,
            unit: unit.to_string(),
        }
    }
}

/// A driver or library return code met by a probe.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ProbeCode {
    /// The call that returned it, e.g. "cuLaunchKernel".
    pub call: String,
    /// e.g. "CUDA_ERROR_INVALID_VALUE", "CUBLAS_STATUS_ALLOC_FAILED".
    pub name: String,
    pub code: i64,
}

/// How a probe ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum ProbeOutcome {
    /// Worked and verified.
    Passed {
        summary: String,
        #[serde(default)]
        measurements: Vec<Measurement>,
        /// What was observed on the way (e.g. the error a past-the-limit launch gave).
        #[serde(default)]
        notes: Vec<String>,
    },
    /// Ran and found the GPU, driver or library at fault.
    Failed {
        reason: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        code: Option<ProbeCode>,
        #[serde(default)]
        measurements: Vec<Measurement>,
        #[serde(default)]
        notes: Vec<String>,
    },
    /// The worker died during the probe (a signal, or an exit without a result).
    Crashed {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        signal: Option<i32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        exit_status: Option<i32>,
        stderr_tail: String,
    },
    /// The probe ran past its time limit; the worker's process group was killed.
    TimedOut {
        after_ms: u64,
        stderr_tail: String,
        /// The limit it ran under (`--probe-timeout`); absent in reports from before it
        /// was recorded. A limit shorter than the default may cut a healthy probe short.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        limit_ms: Option<u64>,
    },
    /// Not run, and why (busy GPU, nothing to load, not selected ...).
    Skipped { why: String },
}

impl ProbeOutcome {
    pub fn status(&self) -> &'static str {
        match self {
            ProbeOutcome::Passed { .. } => "passed",
            ProbeOutcome::Failed { .. } => "failed",
            ProbeOutcome::Crashed { .. } => "crashed",
            ProbeOutcome::TimedOut { .. } => "timed_out",
            ProbeOutcome::Skipped { .. } => "skipped",
        }
    }

    pub fn measurements(&self) -> &[Measurement] {
        match self {
            ProbeOutcome::Passed { measurements, .. }
            | ProbeOutcome::Failed { measurements, .. } => measurements,
            _ => &[],
        }
    }

    pub fn notes(&self) -> &[String] {
        match self {
            ProbeOutcome::Passed { notes, .. } | ProbeOutcome::Failed { notes, .. } => notes,
            _ => &[],
        }
    }
}

/// One probe on one GPU, as the report keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ProbeResult {
    pub probe: ProbeKind,
    /// The CUDA ordinal the worker opened (in the worker's CUDA_VISIBLE_DEVICES view).
    pub cuda_ordinal: u32,
    /// nvidia-smi's index of the same GPU, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nvml_index: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pci_bus_id: Option<String>,
    /// Wall time of the probe in the worker (or until it was killed).
    pub elapsed_ms: u64,
    pub outcome: ProbeOutcome,
    /// The P2P probe: every ordered pair of GPUs, as far as the probe got.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pairs: Vec<PeerPair>,
}

/// One ordered pair of the P2P probe: `src` writes into `dst`'s memory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PeerPair {
    /// CUDA ordinals (the worker's view).
    pub src: u32,
    pub dst: u32,
    /// `cuDeviceCanAccessPeer(src, dst)`.
    pub access: bool,
    pub status: PeerStatus,
    /// Bytes of each timed copy.
    #[serde(default)]
    pub bytes: u64,
    /// Copy bandwidth measured with CUDA events on the source's stream.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gbps: Option<f64>,
    /// What went wrong (the first differing word, the driver's code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// How far one pair of the P2P probe got.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PeerStatus {
    /// The driver reports no peer access: nothing copied.
    NoAccess,
    /// Access reported, but not tried (an earlier pair poisoned the worker's contexts).
    NotRun,
    /// The copy started and had not finished when the worker was last heard from.
    Running,
    /// Copied, timed, and the data that arrived was checked word by word.
    Verified,
    /// Access reported and the copy completed, but the data that arrived differs.
    Corrupted,
    /// A driver call failed (enabling access, the copy, its synchronisation).
    Failed,
    /// The copy never finished: the worker was killed at the time limit.
    Hung,
}

impl PeerStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            PeerStatus::NoAccess => "no_access",
            PeerStatus::NotRun => "not_run",
            PeerStatus::Running => "running",
            PeerStatus::Verified => "verified",
            PeerStatus::Corrupted => "corrupted",
            PeerStatus::Failed => "failed",
            PeerStatus::Hung => "hung",
        }
    }
}

/// The probe code of a probe that could not run because libcuda lacks an entry point it
/// calls: one finding about the library (`driver.entry_point_missing`), not one per probe.
pub const MISSING_ENTRY_POINT: &str = "MISSING_ENTRY_POINT";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_accept_the_finding_id() {
        for k in ProbeKind::every() {
            assert_eq!(ProbeKind::parse(k.as_str()), Some(k));
            assert_eq!(ProbeKind::parse(k.finding_id()), Some(k));
            assert_eq!(k.finding_id(), format!("probe.{}", k.as_str()));
        }
        assert_eq!(ProbeKind::parse("warp"), None);
    }

    #[test]
    fn the_ui_offers_every_probe_in_run_order() {
        let names: Vec<&str> = ProbeKind::ALL.iter().map(|k| k.as_str()).collect();
        assert_eq!(names, crate::tui::app::PROBES);
    }

    #[test]
    fn outcomes_serialise_with_a_status_tag() {
        let o = ProbeOutcome::TimedOut {
            after_ms: 5,
            stderr_tail: String::new(),
            limit_ms: Some(5),
        };
        let v = serde_json::to_value(&o).unwrap();
        assert_eq!(v["status"], "timed_out");
        assert_eq!(v["limit_ms"], 5);
        // Reports from before the limit was recorded still load.
        let old: ProbeOutcome =
            serde_json::from_str(r#"{"status":"timed_out","after_ms":5,"stderr_tail":""}"#)
                .unwrap();
        assert!(matches!(old, ProbeOutcome::TimedOut { limit_ms: None, .. }));
        assert_eq!(o.status(), "timed_out");
    }
}
