//! The probe tests' harness (tests/probes.rs, tests/p2p_nccl.rs): the real binary, `--json`,
//! on a fixture machine behind the fake driver libraries, timed.
//!
//! A test crate using it declares `fake_driver` and `fixture_root` at its root, as both do.

#![allow(dead_code)]

use std::time::{Duration, Instant};

use crate::fake_driver;
use crate::fixture_root::{json_report, FixtureRoot};

/// One run: its exit code, the JSON report and how long it took.
pub struct Run {
    pub code: i32,
    pub report: serde_json::Value,
    pub took: Duration,
}

/// Runs gpu-doctor on `root` with the fake NVML listing `gpus` (driver 550.54.15), the
/// extra environment `vars` and the arguments `args`.
pub fn run(root: &FixtureRoot, gpus: &str, vars: &[(&str, &str)], args: &[&str]) -> Run {
    let mut cmd = root.command();
    cmd.env(
        "GPU_DOCTOR_DRIVER_LIB_DIR",
        &fake_driver::fake_driver().current,
    )
    .env("FAKE_NVML_GPUS", gpus)
    .env("FAKE_NVML_DRIVER_VERSION", "550.54.15")
    // The fake's copies and all-reduce run at memcpy speed on a shared test machine: give
    // it a link memcpy can beat (PCIe Gen1 x1), so only the tests that ask for a fast link
    // or slow copies judge speed.
    .env("FAKE_NVML_GPU0_PCIE", "1,1,1,1")
    .env("FAKE_NVML_GPU1_PCIE", "1,1,1,1")
    .args(args);
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let t = Instant::now();
    let (code, report) = json_report(&mut cmd);
    // Every run, whatever the fake driver does, ends well within its time limits.
    assert!(
        t.elapsed() < Duration::from_secs(60),
        "took {:?}",
        t.elapsed()
    );
    Run {
        code,
        report,
        took: t.elapsed(),
    }
}
