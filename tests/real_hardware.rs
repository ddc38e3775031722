//! Reports from real GPU machines (scripts/validate-hardware.sh, kept as
//! tests/fixtures/real/*.json) replay with `--from` to the verdict they recorded, so a
//! change in the checks that would judge a real machine differently shows. The script's
//! own code path is run here against the fake driver, and its report must replay too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "common/fake_driver.rs"]
mod fake_driver;
mod fixture_root;

use std::path::{Path, PathBuf};
use std::process::Command;

use fixture_root::{json_report, FixtureRoot};

/// Replays every `*.json` in `dir`; returns how many.
fn replay_all(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    for file in &files {
        let saved: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        let mut cmd = assert_cmd::Command::cargo_bin("gpu-doctor").unwrap();
        cmd.arg("--from").arg(file);
        let (code, replay) = json_report(&mut cmd);
        assert_eq!(
            replay["summary"]["verdict"],
            saved["summary"]["verdict"],
            "{}: the verdict changed",
            file.display()
        );
        assert_eq!(
            i64::from(code),
            saved["exit_code"].as_i64().unwrap(),
            "{}",
            file.display()
        );
        assert_eq!(
            replay["facts"]["probes"],
            saved["facts"]["probes"],
            "{}: probe results are facts and replay unchanged",
            file.display()
        );
    }
    files.len()
}

#[test]
fn every_real_hardware_report_replays_to_its_verdict() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/real");
    let n = replay_all(&dir);
    eprintln!(
        "{n} real-hardware report(s) replayed from {}",
        dir.display()
    );
}

#[test]
fn the_validation_script_writes_a_report_that_replays() {
    let root = FixtureRoot::ubuntu();
    root.gpu(Some("nvidia"))
        .kernel_module("550.54.15")
        .user_space("550.54.15")
        .device_nodes(2);
    let out = tempfile::tempdir().unwrap();
    let bin = assert_cmd::cargo::cargo_bin("gpu-doctor");
    let status = Command::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scripts/validate-hardware.sh"
    ))
    .args(["--out", out.path().to_str().unwrap(), "--runs", "2"])
    .env_clear()
    .env("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")
    .env("HOME", "/root")
    .env("GPU_DOCTOR_BIN", &bin)
    .env("GPU_DOCTOR_ROOT", root.root())
    .env(
        "GPU_DOCTOR_DRIVER_LIB_DIR",
        &fake_driver::fake_driver().current,
    )
    .env(
        "FAKE_NVML_GPUS",
        "NVIDIA H100 80GB HBM3,9.0,85520809984,00000000:01:00.0,GPU-0a1b2c3d-1111-2222-3333-444455556666;NVIDIA RTX A4000,8.6,17171480576,00000000:02:00.0,GPU-99887766-1111-2222-3333-444455556666",
    )
    .env("FAKE_NVML_GPU0_PCIE", "1,1,1,1")
    .env("FAKE_NVML_GPU1_PCIE", "1,1,1,1")
    .output()
    .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    for f in [
        "report.json",
        "report.txt",
        "timings.txt",
        "no-probes.json",
        "deep.json",
        "machine.txt",
    ] {
        assert!(out.path().join(f).is_file(), "{f} missing");
    }
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.path().join("report.json")).unwrap())
            .unwrap();
    // Every probe on every GPU (7 × 2), and the two between them (p2p, nccl).
    assert_eq!(report["facts"]["probes"].as_array().unwrap().len(), 16);
    let timings = std::fs::read_to_string(out.path().join("timings.txt")).unwrap();
    if which_python() {
        assert!(
            timings.contains("CUDA device 1 (NVIDIA RTX A4000)"),
            "{timings}"
        );
        assert!(timings.contains("report without probes"), "{timings}");
        assert!(out.path().join("nvml.json").is_file());
    }
    // Kept as a fixture, it replays like the committed real ones.
    let real = tempfile::tempdir().unwrap();
    std::fs::copy(
        out.path().join("report.json"),
        real.path().join("fake-h100-a4000.json"),
    )
    .unwrap();
    assert_eq!(replay_all(real.path()), 1);
}

fn which_python() -> bool {
    Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}
