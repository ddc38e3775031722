//! End to end: findings the real binary reports when the fake driver libraries fail in
//! the ways real drivers do, on a fixture machine with a GPU and a loaded module.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "common/fake_driver.rs"]
mod fake_driver;
mod fixture_root;

use std::time::{Duration, Instant};

use fixture_root::{finding, json_report, problems, FixtureRoot};

const H100: &str = "NVIDIA H100 80GB HBM3,9.0,85520809984,00000000:01:00.0,GPU-0a1b2c3d";

fn gpu_node() -> FixtureRoot {
    let root = FixtureRoot::ubuntu();
    root.gpu(Some("nvidia"))
        .kernel_module("550.54.15")
        .user_space("550.54.15")
        .device_nodes(1);
    root
}

/// The binary on `root` with the fake driver (one H100, driver 550.54.15) and `vars`.
fn command(root: &FixtureRoot, vars: &[(&str, &str)]) -> assert_cmd::Command {
    let mut cmd = root.command();
    cmd.env(
        "GPU_DOCTOR_DRIVER_LIB_DIR",
        &fake_driver::fake_driver().current,
    )
    .env("FAKE_NVML_GPUS", H100)
    .env("FAKE_NVML_DRIVER_VERSION", "550.54.15");
    for (k, v) in vars {
        cmd.env(k, v);
    }
    cmd
}

fn report(root: &FixtureRoot, vars: &[(&str, &str)]) -> (i32, serde_json::Value) {
    json_report(&mut command(root, vars))
}

fn failures(r: &serde_json::Value) -> Vec<String> {
    problems(r)
        .into_iter()
        .filter(|(_, s)| s == "fail")
        .map(|(i, _)| i)
        .collect()
}

#[test]
fn healthy_node_passes_every_driver_check() {
    let (code, r) = report(&gpu_node(), &[]);
    assert!(failures(&r).is_empty(), "{:?}", problems(&r));
    assert_eq!(finding(&r, "driver.cuda_init_failed")["severity"], "pass");
    assert_eq!(finding(&r, "driver.nvml_failed")["severity"], "pass");
    assert_eq!(finding(&r, "driver.library_mismatch")["severity"], "pass");
    assert!(code <= 1, "{:?}", problems(&r));
}

#[test]
fn each_cuinit_failure_has_its_own_id() {
    let cases = [
        ("802", "driver.fabric_manager"),
        ("803", "driver.compat_package_mismatch"),
        ("804", "driver.forward_compat_unsupported"),
        ("999", "driver.uvm_unavailable"),
        ("304", "driver.cuda_init_failed"),
    ];
    for (code, id) in cases {
        let (exit, r) = report(&gpu_node(), &[("FAKE_CUDA_INIT", code)]);
        assert_eq!(exit, 2, "cuInit {code}");
        assert_eq!(
            failures(&r),
            vec![id.to_string()],
            "cuInit {code}: {:?}",
            problems(&r)
        );
    }
}

/// cuInit answering CUDA_ERROR_STUB_LIBRARY (34), as the real driver did on an H100 whose
/// LD_LIBRARY_PATH led libcuda.so.1 to the toolkit's stub: the stub is the root cause and the
/// failed cuInit is put down to it, so its generic fix (a reboot) is not the one shown.
#[test]
fn cuinit_answering_stub_library_is_the_stub() {
    let (exit, r) = report(&gpu_node(), &[("FAKE_CUDA_INIT", "34")]);
    assert_eq!(exit, 2);
    let stub = finding(&r, "driver.stub_library");
    assert_eq!(stub["severity"], "fail", "{stub:#}");
    let init = finding(&r, "driver.cuda_init_failed");
    assert_eq!(init["caused_by"]["id"], "driver.stub_library", "{init:#}");
}

/// `GPU_DOCTOR_TIMINGS=1` times each gathering step on stderr, the driver worker's cuInit
/// and NVML start-up by name (passed on from the worker); unset or "0", nothing is printed.
#[test]
fn the_timing_trace_names_each_step_and_the_drivers_calls() {
    let root = gpu_node();
    let run = |value: Option<&str>| {
        let vars: Vec<(&str, &str)> = value
            .map(|v| ("GPU_DOCTOR_TIMINGS", v))
            .into_iter()
            .collect();
        let out = command(&root, &vars)
            .args(["--json", "--no-probes"])
            .output()
            .unwrap();
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{:?}: {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stderr).to_string()
    };
    let trace = run(Some("1"));
    for step in [
        "ms  OS, kernel and container",
        "ms  NVML and cuInit (driver worker)",
        "ms  Python environments and PyTorch builds",
        "ms    gpu-doctor __driver-worker cuda",
        "ms      cuInit (with loading libcuda)",
        "ms      nvmlInit_v2 (with loading the library)",
    ] {
        assert!(trace.contains(step), "{step} missing from\n{trace}");
    }
    assert!(
        trace.lines().all(|l| l.starts_with("gpu-doctor timing:")),
        "{trace}"
    );
    assert!(!run(None).contains("gpu-doctor timing:"));
    assert!(!run(Some("0")).contains("gpu-doctor timing:"));
}

#[test]
fn nvml_version_mismatch_is_a_library_mismatch() {
    let (_, r) = report(
        &gpu_node(),
        &[("FAKE_NVML_INIT", "18"), ("FAKE_CUDA_INIT", "3")],
    );
    assert_eq!(
        failures(&r),
        vec!["driver.library_mismatch".to_string()],
        "{:?}",
        problems(&r)
    );
}

#[test]
fn hung_cuinit_is_a_finding_not_a_hung_doctor() {
    let start = Instant::now();
    let (exit, r) = report(
        &gpu_node(),
        &[
            ("FAKE_CUDA_HANG", "1"),
            ("GPU_DOCTOR_DRIVER_TIMEOUT_MS", "500"),
        ],
    );
    assert!(start.elapsed() < Duration::from_secs(20));
    assert_eq!(exit, 2);
    let f = finding(&r, "driver.cuda_init_failed");
    assert_eq!(f["severity"], "fail");
    assert!(
        f["details"].as_str().unwrap().contains("timed out"),
        "{f:#}"
    );
    assert_eq!(finding(&r, "driver.nvml_failed")["severity"], "pass");
}

#[test]
fn expect_gpus_counts_what_cuda_can_use() {
    let (exit, r) = report(&gpu_node(), &[("FAKE_CUDA_DEVICES", "1")]);
    assert!(exit <= 1);
    let mut cmd = gpu_node().command();
    cmd.env(
        "GPU_DOCTOR_DRIVER_LIB_DIR",
        &fake_driver::fake_driver().current,
    )
    .env("FAKE_NVML_GPUS", H100)
    .env("FAKE_CUDA_DEVICES", "1")
    .args(["--expect-gpus", "2"]);
    let (exit2, r2) = json_report(&mut cmd);
    assert_eq!(exit2, 2);
    assert_eq!(finding(&r2, "host.expected_gpus")["severity"], "fail");
    assert_eq!(
        r["facts"]["driver_api"]["cuda"]["value"]["device_count"]["value"],
        1
    );
}

/// A worker stuck in the driver must not outlive a doctor that was interrupted.
#[test]
fn workers_die_with_an_interrupted_doctor() {
    let root = gpu_node();
    let marker = format!("GPU_DOCTOR_TEST_MARKER={}", std::process::id());
    let bin = assert_cmd::cargo::cargo_bin("gpu-doctor");
    let mut child = std::process::Command::new(bin)
        .env_clear()
        .env("GPU_DOCTOR_ROOT", root.root())
        .env(
            "GPU_DOCTOR_DRIVER_LIB_DIR",
            &fake_driver::fake_driver().current,
        )
        .env("FAKE_CUDA_HANG", "1")
        .env("GPU_DOCTOR_DRIVER_TIMEOUT_MS", "60000")
        .env("GPU_DOCTOR_TEST_MARKER", std::process::id().to_string())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let workers = || -> Vec<i32> {
        std::fs::read_dir("/proc")
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
            .filter(|pid| {
                let env = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
                let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
                env.split(|b| *b == 0).any(|v| v == marker.as_bytes())
                    && cmdline.windows(15).any(|w| w == b"__driver-worker")
            })
            .collect()
    };
    let deadline = Instant::now() + Duration::from_secs(10);
    while workers().is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        !workers().is_empty(),
        "the cuda worker should be hanging in cuInit"
    );
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let _ = child.wait();
    let deadline = Instant::now() + Duration::from_secs(5);
    while !workers().is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(workers().is_empty(), "orphaned workers: {:?}", workers());
}
