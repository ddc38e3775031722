//! End to end: per-GPU health (gpu.* and driver.persistence_off) as the real binary
//! reports it, with the fake libnvidia-ml (tests/fake_driver/fake_nvml.c) playing GPUs
//! with ECC errors, pending page retirements, failed row remaps, degraded links, MIG,
//! other processes, restrictive compute modes and a GPU that falls off the bus.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "common/fake_driver.rs"]
mod fake_driver;
mod fixture_root;

use std::path::Path;
use std::time::{Duration, Instant};

use fixture_root::{finding, json_report, problems, FixtureRoot};
use serde_json::Value;

const GPU0: &str = "NVIDIA H100 80GB HBM3,9.0,85520809984,00000000:18:00.0,GPU-0a1b2c3d-0000-1111-2222-000000000000";
const GPU1: &str = "NVIDIA H100 80GB HBM3,9.0,85520809984,00000000:2A:00.0,GPU-0a1b2c3d-0000-1111-2222-000000000001";
/// A debug build forking its driver workers answers in well under a second; this bound
/// catches a hang (the worker time-out is set far above it) without flaking on a busy CI.
const TIME_BOUND: Duration = Duration::from_secs(20);

/// A machine with two H100s on the bus, the module loaded and the user-space driver.
fn two_gpu_node() -> FixtureRoot {
    let root = FixtureRoot::ubuntu();
    root.pci(
        "0000:18:00.0",
        "0x10de",
        "0x2330",
        "0x030200",
        Some("nvidia"),
    )
    .pci(
        "0000:2a:00.0",
        "0x10de",
        "0x2330",
        "0x030200",
        Some("nvidia"),
    )
    .kernel_module("550.54.15")
    .user_space("550.54.15")
    .device_nodes(2);
    root
}

struct Run {
    code: i32,
    report: Value,
}

impl Run {
    fn problems(&self) -> Vec<(String, String)> {
        problems(&self.report)
    }

    /// Every finding with `id` that is not a pass, as (severity, GPU index).
    fn of(&self, id: &str) -> Vec<(String, Option<u64>)> {
        self.report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["id"] == id && f["severity"] != "pass")
            .map(|f| {
                (
                    f["severity"].as_str().unwrap().to_string(),
                    f["scope"]["index"].as_u64(),
                )
            })
            .collect()
    }

    fn device(&self, i: usize) -> &Value {
        &self.report["facts"]["driver_api"]["nvml"]["value"]["devices"]["value"][i]
    }
}

fn run_with(lib_dir: &Path, vars: &[(&str, &str)]) -> Run {
    let root = two_gpu_node();
    let mut cmd = root.command();
    cmd.env("GPU_DOCTOR_DRIVER_LIB_DIR", lib_dir)
        .env("GPU_DOCTOR_DRIVER_TIMEOUT_MS", "60000")
        .env("FAKE_NVML_GPUS", format!("{GPU0};{GPU1}"))
        .env("FAKE_NVML_DRIVER_VERSION", "550.54.15")
        .env("FAKE_CUDA_DEVICES", "2")
        // H100 SXM boards have their 18 NVLinks (tests/nvlink.rs covers them).
        .env("FAKE_NVML_GPU0_NVLINKS", "18")
        .env("FAKE_NVML_GPU1_NVLINKS", "18")
        // Health facts and checks only; tests/probes.rs runs the probes.
        .arg("--no-probes")
        .timeout(Duration::from_secs(120));
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let start = Instant::now();
    let (code, report) = json_report(&mut cmd);
    let took = start.elapsed();
    assert!(took < TIME_BOUND, "gpu-doctor took {took:?}");
    Run { code, report }
}

fn run(vars: &[(&str, &str)]) -> Run {
    run_with(&fake_driver::fake_driver().current, vars)
}

/// Problems outside gpu.* / driver.persistence_off on this fixture, which every case
/// shares; the exit code follows from them plus the case's own finding.
fn baseline_worst() -> u8 {
    static WORST: std::sync::OnceLock<u8> = std::sync::OnceLock::new();
    *WORST.get_or_init(|| {
        let r = run(&[]);
        worst(&r.problems())
    })
}

fn worst(problems: &[(String, String)]) -> u8 {
    problems
        .iter()
        .map(|(_, s)| match s.as_str() {
            "fail" => 2,
            "warn" => 1,
            _ => 0,
        })
        .max()
        .unwrap_or(0)
}

fn expect_exit(r: &Run, case: u8) {
    assert_eq!(
        r.code,
        i32::from(baseline_worst().max(case)),
        "{:?}",
        r.problems()
    );
}

fn is_gpu_finding(id: &str) -> bool {
    id.starts_with("gpu.") || id == "driver.persistence_off"
}

#[test]
fn healthy_two_gpu_machine_has_no_gpu_warnings() {
    let r = run(&[]);
    let gpu_problems: Vec<_> = r
        .problems()
        .into_iter()
        .filter(|(id, s)| is_gpu_finding(id) && s != "info")
        .collect();
    assert!(gpu_problems.is_empty(), "{gpu_problems:?}");
    for id in [
        "gpu.lost",
        "gpu.ecc_errors",
        "gpu.retired_pages",
        "gpu.row_remap",
        "gpu.pcie_degraded",
        "gpu.throttled",
        "gpu.mig_enabled",
        "gpu.busy",
        "gpu.compute_mode_restricted",
        "driver.persistence_off",
    ] {
        let f = finding(&r.report, id);
        assert_eq!(f["severity"], "pass", "{f:#}");
        assert!(f["summary"].as_str().unwrap().contains("2 GPUs"), "{f:#}");
    }
    // Nothing outside gpu.* fails on this fixture, so the verdict is at most a warning.
    assert!(r.code <= 1, "{:?}", r.problems());
    let d1 = r.device(1);
    assert_eq!(d1["pcie_link"]["value"]["max_width"], 16);
    assert_eq!(d1["lost"], false);
}

#[test]
fn uncorrectable_ecc_errors_fail_that_gpu() {
    let r = run(&[("FAKE_NVML_GPU1_ECC", "1,1,0,2,5,2")]);
    assert_eq!(r.of("gpu.ecc_errors"), vec![("fail".to_string(), Some(1))]);
    expect_exit(&r, 2);
    assert_eq!(
        r.device(1)["ecc"]["value"]["volatile_uncorrected"]["value"],
        2
    );
}

#[test]
fn pending_page_retirement_asks_for_a_reset() {
    let r = run(&[("FAKE_NVML_GPU0_RETIRED", "2,0,1")]);
    assert_eq!(
        r.of("gpu.retired_pages"),
        vec![("warn".to_string(), Some(0))]
    );
    let f = finding(&r.report, "gpu.retired_pages");
    assert!(
        f["summary"]
            .as_str()
            .unwrap()
            .contains("reset the GPU or reboot"),
        "{f:#}"
    );
    expect_exit(&r, 1);
}

#[test]
fn a_failed_row_remap_fails() {
    let r = run(&[("FAKE_NVML_GPU0_REMAP", "3,1,0,1")]);
    assert_eq!(r.of("gpu.row_remap"), vec![("fail".to_string(), Some(0))]);
    expect_exit(&r, 2);
    let r = run(&[("FAKE_NVML_GPU1_REMAP", "0,1,1,0")]);
    assert_eq!(r.of("gpu.row_remap"), vec![("warn".to_string(), Some(1))]);
}

#[test]
fn a_narrow_pcie_link_warns_and_a_slow_idle_one_is_info() {
    let r = run(&[
        ("FAKE_NVML_GPU0_PCIE", "4,8,4,16"),
        ("FAKE_NVML_GPU1_PCIE", "1,16,4,16"),
    ]);
    assert_eq!(
        r.of("gpu.pcie_degraded"),
        vec![("warn".to_string(), Some(0)), ("info".to_string(), Some(1))]
    );
    expect_exit(&r, 1);
    // The same low generation while busy (not idle) is a warning.
    let r = run(&[
        ("FAKE_NVML_GPU1_PCIE", "1,16,4,16"),
        ("FAKE_NVML_GPU1_THROTTLE", "0"),
    ]);
    assert_eq!(
        r.of("gpu.pcie_degraded"),
        vec![("warn".to_string(), Some(1))]
    );
}

#[test]
fn mig_lists_the_uuids_cuda_visible_devices_must_name() {
    let r = run(&[
        ("FAKE_NVML_GPU0_MIG", "1,1"),
        ("FAKE_NVML_GPU0_MIG_INSTANCES", "2"),
    ]);
    assert_eq!(r.of("gpu.mig_enabled"), vec![("info".to_string(), Some(0))]);
    let f = finding(&r.report, "gpu.mig_enabled");
    let details = f["details"].as_str().unwrap();
    assert!(
        details.contains("MIG-00000000-0000-4000-8000-000000000001"),
        "{details}"
    );
    assert_eq!(
        f["fix"]["commands"][0],
        "export CUDA_VISIBLE_DEVICES=MIG-00000000-0000-4000-8000-000000000000"
    );
    expect_exit(&r, 0);
    // A mode change that waits for a reset warns.
    let r = run(&[("FAKE_NVML_GPU1_MIG", "0,1")]);
    assert_eq!(r.of("gpu.mig_enabled"), vec![("warn".to_string(), Some(1))]);
    expect_exit(&r, 1);
}

#[test]
fn another_process_on_the_gpu_is_reported() {
    let r = run(&[
        ("FAKE_NVML_GPU1_PROCS", "4242:64424509440:python3;77:-"),
        ("FAKE_NVML_GPU1_USED", "64424509440"),
    ]);
    assert_eq!(r.of("gpu.busy"), vec![("warn".to_string(), Some(1))]);
    let f = finding(&r.report, "gpu.busy");
    let details = f["details"].as_str().unwrap();
    assert!(details.contains("4242 python3 (60.0 GiB)"), "{details}");
    assert!(details.contains("77 "), "{details}");
    expect_exit(&r, 1);
    let procs = &r.device(1)["processes"]["value"];
    assert_eq!(procs[0]["pid"], 4242);
    assert_eq!(procs[1].get("used_memory_bytes"), None);
}

#[test]
fn prohibited_compute_mode_fails() {
    let r = run(&[("FAKE_NVML_GPU0_COMPUTE_MODE", "2")]);
    assert_eq!(
        r.of("gpu.compute_mode_restricted"),
        vec![("fail".to_string(), Some(0))]
    );
    expect_exit(&r, 2);
}

#[test]
fn a_gpu_lost_mid_gathering_is_reported_and_the_others_still_are() {
    let r = run(&[("FAKE_NVML_GPU0_LOST_AFTER", "nvmlDeviceGetEccMode")]);
    assert_eq!(r.of("gpu.lost"), vec![("fail".to_string(), Some(0))]);
    expect_exit(&r, 2);
    let d0 = r.device(0);
    assert_eq!(d0["lost"], true);
    assert_eq!(d0["name"]["value"], "NVIDIA H100 80GB HBM3");
    assert_eq!(d0["ecc"]["state"], "failed");
    assert_eq!(d0["processes"]["state"], "failed");
    // GPU 1 is read whole, and no other check judges the lost GPU.
    let d1 = r.device(1);
    assert_eq!(d1["lost"], false);
    assert_eq!(d1["ecc"]["state"], "known");
    assert!(r
        .problems()
        .iter()
        .all(|(id, _)| !is_gpu_finding(id) || id == "gpu.lost"));
    // Lost after a number of calls (here: within the identity queries).
    let r = run(&[("FAKE_NVML_GPU1_LOST_AFTER", "3")]);
    assert_eq!(r.of("gpu.lost"), vec![("fail".to_string(), Some(1))]);
    assert_eq!(r.device(0)["lost"], false);
}

#[test]
fn a_symbol_missing_from_an_old_driver_is_unsupported_not_a_failure() {
    let r = run_with(&fake_driver::fake_driver().old, &[]);
    let d0 = r.device(0);
    assert_eq!(d0["row_remap"]["state"], "unsupported", "{d0:#}");
    assert!(d0["row_remap"]["why"]
        .as_str()
        .unwrap()
        .contains("nvmlDeviceGetFieldValues"));
    // The other health facts are still read.
    assert_eq!(d0["ecc"]["state"], "known");
    assert_eq!(d0["pcie_link"]["state"], "known");
    assert!(r.of("gpu.row_remap").is_empty());
    let gpu_failures: Vec<_> = r
        .problems()
        .into_iter()
        .filter(|(id, s)| is_gpu_finding(id) && s == "fail")
        .collect();
    assert!(gpu_failures.is_empty(), "{gpu_failures:?}");
}

#[test]
fn persistence_off_on_a_datacenter_gpu_warns() {
    let r = run(&[("FAKE_NVML_GPU1_PERSISTENCE", "0")]);
    assert_eq!(
        r.of("driver.persistence_off"),
        vec![("warn".to_string(), Some(1))]
    );
    let f = finding(&r.report, "driver.persistence_off");
    assert!(f["fix"]["commands"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c == "sudo nvidia-smi -pm 1"));
    expect_exit(&r, 1);
}

#[test]
fn hardware_slowdown_warns() {
    // HW_SLOWDOWN | HW_THERMAL_SLOWDOWN.
    let r = run(&[
        ("FAKE_NVML_GPU0_THROTTLE", "0x48"),
        ("FAKE_NVML_GPU0_TEMP", "91"),
    ]);
    assert_eq!(r.of("gpu.throttled"), vec![("warn".to_string(), Some(0))]);
    expect_exit(&r, 1);
}

/// A report saved before the health facts existed still loads with `--from`: the new
/// facts read as missing "not in this report", and no gpu.* check judges them.
#[test]
fn old_saved_reports_without_health_facts_still_load() {
    let mut saved = run(&[("FAKE_NVML_GPU0_ECC", "1,1,0,9,0,9")]).report;
    let devices = saved["facts"]["driver_api"]["nvml"]["value"]["devices"]["value"]
        .as_array_mut()
        .unwrap();
    for d in devices {
        let d = d.as_object_mut().unwrap();
        d.retain(|k, _| {
            [
                "index",
                "name",
                "uuid",
                "pci_bus_id",
                "compute_capability",
                "memory_total_bytes",
            ]
            .contains(&k.as_str())
        });
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("old.json");
    std::fs::write(&file, serde_json::to_string(&saved).unwrap()).unwrap();
    let mut cmd = assert_cmd::Command::cargo_bin("gpu-doctor").unwrap();
    cmd.env_clear().arg("--from").arg(&file);
    let (code, r) = json_report(&mut cmd);
    assert_ne!(code, 3, "{r:#}");
    let d0 = &r["facts"]["driver_api"]["nvml"]["value"]["devices"]["value"][0];
    assert_eq!(d0["ecc"]["state"], "missing");
    assert!(d0["ecc"]["why"]
        .as_str()
        .unwrap()
        .contains("not in this report"));
    assert_eq!(d0["lost"], false);
    // The uncorrectable errors the live run saw are not in the old report: no verdict.
    assert!(finding_ids(&r).iter().all(|id| id != "gpu.ecc_errors"));
    assert_eq!(finding(&r, "gpu.lost")["severity"], "pass");
}

fn finding_ids(r: &Value) -> Vec<String> {
    r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(fixture_root::failure_id)
        .collect()
}

#[test]
fn the_checks_subcommand_lists_the_gpu_checks() {
    let out = assert_cmd::Command::cargo_bin("gpu-doctor")
        .unwrap()
        .env_clear()
        .arg("checks")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for id in [
        "gpu.lost",
        "gpu.ecc_errors",
        "gpu.retired_pages",
        "gpu.row_remap",
        "gpu.pcie_degraded",
        "gpu.throttled",
        "gpu.mig_enabled",
        "gpu.busy",
        "gpu.compute_mode_restricted",
        "driver.persistence_off",
    ] {
        assert!(text.contains(id), "{id} missing from:\n{text}");
    }
}
