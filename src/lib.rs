//! gpu-doctor: tells whether an NVIDIA GPU machine can really run CUDA and PyTorch work,
//! and if not, exactly why and what command fixes it.
//!
//! The data flow, one module per step:
//!
//! ```text
//! cli ──► cmd::Settings (once) ──► cmd::<command>::run ──► pipeline::{gather, probe, judge, run}
//! 1. gather    facts::gather(&Host, &GatherOptions) -> Facts          I/O; never fails as a whole
//! 2. probe     probes::plan(&Facts, ..) -> Plan; probes::runner::run(&Host, &Plan, on_event)
//!              -> Vec<ProbeResult> into Facts::probes                one worker process per GPU
//! 3. evaluate  checks::evaluate(&Facts, &CheckOptions) -> Vec<Finding> pure; no I/O; every
//!              check declared once in the catalogue (checks::ALL, checks::catalogue)
//! 4. report    Report::new(facts, findings)                         the single source of truth
//! 5. render    report::text | report::json | tui (on a terminal)
//! ```
//!
//! Imports point down: fact/version → host/finding/arch_list/cuda_ffi → facts → matrix →
//! checks → probes → report → error → pipeline/explain/diff/grid → diagnose → fleet → tui
//! → cli → cmd (tests/layering.rs). CONTRIBUTING.md says how to add a check.
//!
//! Probe results live in the facts, so a saved report (`--from`) replays its probe
//! findings through the same pure checks.
//!
//! `host` is the one seam to the world (environment, filesystem root, commands with time
//! limits, driver libraries); tests point it at fixture trees and fake driver libraries.
//! `--from FILE` replaces step 1 with the facts of a saved report.
//! `fleet` runs `gpu-doctor --json` on many hosts over ssh and aggregates the reports
//! (groups, drift).
//!
//! Beside the pipeline: `explain` finds the errors in pasted text and ranks their causes
//! (refined with a machine's findings), `diagnose` replaces step 1 with the facts of a
//! `collect_env` paste, `grid` is the attention launch-size calculator, `diff` compares
//! two saved reports.

pub mod app;
pub mod arch_list;
pub mod checks;
pub mod cli;
pub mod cmd;
pub mod cuda_ffi;
pub mod diagnose;
pub mod diff;
pub mod error;
pub mod explain;
pub mod fact;
pub mod facts;
pub mod finding;
pub mod fleet;
pub mod grid;
pub mod host;
pub mod matrix;
pub mod pipeline;
pub mod probes;
pub mod report;
pub mod tui;
pub mod version;
