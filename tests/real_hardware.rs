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

fn real(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/real")
        .join(name)
}

#[test]
fn every_real_hardware_report_replays_to_its_verdict() {
    let dir = real("");
    let n = replay_all(&dir);
    eprintln!(
        "{n} real-hardware report(s) replayed from {}",
        dir.display()
    );
    // The H100 reports of 2026-11-24 (tests/fixtures/real/README.md) at least.
    assert!(n >= 4, "only {n} real reports in {}", dir.display());
}

/// The report of a committed real run, judged again by today's checks.
fn replayed(name: &str) -> (i32, serde_json::Value) {
    let mut cmd = assert_cmd::Command::cargo_bin("gpu-doctor").unwrap();
    cmd.arg("--from").arg(real(name));
    json_report(&mut cmd)
}

/// A finding by its failure id, or a pass by its check's name.
fn finding<'a>(report: &'a serde_json::Value, id: &str) -> &'a serde_json::Value {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == id || f["check"] == id)
        .unwrap_or_else(|| panic!("no finding {id}"))
}

/// What the H100 answered (scripts/validate-hardware.sh on 2026-11-24) stays what the
/// report says: every probe passed, the microVM booted from a Docker image is not called
/// a container, and torch itself saw the GPU.
#[test]
fn the_real_h100_run_passed_every_probe() {
    let (code, r) = replayed("h100-80gb-hbm3-r580-every-probe.json");
    assert_eq!(
        (code, r["summary"]["verdict"].as_str()),
        (0, Some("healthy"))
    );
    let probes = r["facts"]["probes"].as_array().unwrap();
    let names: Vec<&str> = probes
        .iter()
        .map(|p| p["probe"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "launch",
            "grid_limit",
            "ordinal",
            "cublaslt",
            "graph",
            "bandwidth",
            "oom"
        ]
    );
    assert!(probes.iter().all(|p| p["outcome"]["status"] == "passed"));
    let total: u64 = probes
        .iter()
        .map(|p| p["elapsed_ms"].as_u64().unwrap())
        .sum();
    assert!(total < 5_000, "{total} ms");
    // /.dockerenv and /run/systemd/container are in that VM's image; its kernel is its own.
    assert_eq!(
        r["facts"]["system"]["container"]["value"],
        serde_json::Value::Null
    );
    assert_eq!(
        r["overview"]["gpu_models"],
        serde_json::json!(["NVIDIA H100 80GB HBM3"])
    );

    let (_, deep) = replayed("h100-80gb-hbm3-r580-deep.json");
    let asked = &deep["facts"]["python"][0]["deep"]["value"];
    assert_eq!(asked["cuda_available"], true, "{asked:#}");
    assert_eq!(asked["torch_version"], "2.11.0+cu130");
    assert_eq!(finding(&deep, "torch.cuda_available")["severity"], "pass");
}

/// Another process held 20 GiB: the out-of-memory probe stood aside (no --force), the
/// others ran, and the verdict stayed healthy.
#[test]
fn on_the_real_busy_h100_the_memory_hungry_probe_stood_aside() {
    let (code, r) = replayed("h100-80gb-hbm3-r580-busy-gpu.json");
    assert_eq!(code, 0);
    let oom = r["facts"]["probes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["probe"] == "oom")
        .unwrap();
    assert_eq!(oom["outcome"]["status"], "skipped", "{oom:#}");
    assert_eq!(finding(&r, "gpu.busy")["severity"], "info");
    assert_eq!(finding(&r, "probe.oom")["severity"], "info");

    // The same with another process multiplying bf16 matrices: the GPU's software power
    // cap under load is no slowdown to warn about, and every other probe passed.
    let (code, r) = replayed("h100-80gb-hbm3-r580-under-load.json");
    assert_eq!(code, 0);
    let statuses: Vec<(&str, &str)> = r["facts"]["probes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["probe"].as_str().unwrap(),
                p["outcome"]["status"].as_str().unwrap(),
            )
        })
        .collect();
    assert!(statuses
        .iter()
        .all(|(p, s)| *s == if *p == "oom" { "skipped" } else { "passed" }));
    assert_eq!(finding(&r, "gpu.clocks_throttle")["severity"], "pass");
}

/// `--probe-timeout 300ms` killed a healthy grid_limit probe (1.3 s on that H100): a
/// warning to rerun, not a hang with a drain and a GPU reset.
#[test]
fn a_real_probe_cut_short_by_the_users_limit_is_no_hang() {
    let (code, r) = replayed("h100-80gb-hbm3-r580-short-probe-limit.json");
    assert_eq!(code, 1);
    let f = finding(&r, "probe.grid_limit");
    assert_eq!(f["severity"], "warn", "{f:#}");
    assert_eq!(f["action"], "none");
    assert_eq!(f["fix"]["commands"][0], "gpu-doctor --probes grid_limit");
    assert_eq!(r["facts"]["probes"][0]["outcome"]["limit_ms"], 300);
}

/// That machine had two cuBLASLt libraries (torch's wheel's and the toolkit's), and the
/// probe timed each: the metrics file still has one series per label set, or
/// node_exporter's textfile collector would reject all of it.
#[test]
fn metrics_from_the_real_h100_report_repeat_no_series() {
    let dir = tempfile::tempdir().unwrap();
    let prom = dir.path().join("gpu.prom");
    let out = Command::new(assert_cmd::cargo::cargo_bin("gpu-doctor"))
        .arg("--from")
        .arg(real("h100-80gb-hbm3-r580-every-probe.json"))
        .arg("--prometheus")
        .arg(&prom)
        .arg("--json")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = std::fs::read_to_string(&prom).unwrap();
    let mut series: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.rsplit_once(' ').unwrap().0)
        .collect();
    let all = series.len();
    assert!(text.contains("name=\"fp32_ms\""), "{text}");
    series.sort_unstable();
    series.dedup();
    assert_eq!(series.len(), all, "{text}");
}

/// A `libcuda.so.1` link to the toolkit's stub first on LD_LIBRARY_PATH (made on purpose on
/// the H100): cuInit answered CUDA_ERROR_STUB_LIBRARY (34). That answer names the cause, so
/// the stub is the failure, and the failed cuInit and torch follow from it; no reboot.
#[test]
fn the_real_stub_libcuda_is_named_by_the_drivers_answer() {
    let (code, r) = replayed("h100-80gb-hbm3-r580-stub-libcuda.json");
    assert_eq!(code, 2);
    let stub = finding(&r, "driver.stub_library");
    assert_eq!(stub["severity"], "fail", "{stub:#}");
    assert!(stub["fix"]["commands"]
        .to_string()
        .contains("LD_LIBRARY_PATH"));
    let text = Command::new(assert_cmd::cargo::cargo_bin("gpu-doctor"))
        .args(["--plain", "--color", "never", "--from"])
        .arg(real("h100-80gb-hbm3-r580-stub-libcuda.json"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    let cause = text.lines().find(|l| l.starts_with("Cause")).unwrap();
    assert!(cause.contains("stub"), "{text}");
    assert!(!text.contains("reboot clears"), "{text}");
    // The one-line renderings lead with the same cause.
    let slurm = Command::new(assert_cmd::cargo::cargo_bin("gpu-doctor"))
        .arg("--slurm")
        .arg("--from")
        .arg(real("h100-80gb-hbm3-r580-stub-libcuda.json"))
        .output()
        .unwrap();
    let line = String::from_utf8_lossy(&slurm.stdout);
    assert!(
        line.starts_with("gpu-doctor: driver.stub_library: "),
        "{line}"
    );
}

fn explained(file: &Path) -> serde_json::Value {
    let out = Command::new(assert_cmd::cargo::cargo_bin("gpu-doctor"))
        .args(["explain", "--offline", "--json", "--file"])
        .arg(file)
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Errors raised on purpose on the real H100 (errors/README.md says how): the first cause
/// explain names. "none": a program's own mistake, with no cause on the machine.
#[test]
fn errors_raised_on_a_real_gpu_are_explained() {
    for (file, want) in [
        ("oom.txt", "cuda.out_of_memory"),
        ("device_assert.txt", "cuda.device_assert"),
        ("illegal_address.txt", "cuda.illegal_address"),
        ("sticky_after_illegal.txt", "cuda.illegal_address"),
        ("invalid_ordinal.txt", "cuda.invalid_device_ordinal"),
        ("nccl_single.txt", "cuda.invalid_device_ordinal"),
        ("no_visible.txt", "torch.no_cuda_gpus"),
        ("bf16_matmul_bad_shape.txt", "none"),
        ("no_kernel_image_nvcc.txt", "cuda.no_kernel_image"),
        ("torch_extension_wrong_arch.txt", "cuda.no_kernel_image"),
        ("nccl_duplicate_gpu.txt", "nccl.error"),
        ("misaligned_address.txt", "cuda.illegal_address"),
        ("block_too_large.txt", "cuda.invalid_argument"),
        ("stream_capture_sync.txt", "cuda.stream_capture"),
        ("jax_oom.txt", "cuda.out_of_memory"),
        ("fork_after_cuda.txt", "torch.cuda_in_forked_process"),
        ("stub_libcuda.txt", "generic.gpu_error"),
        ("tensors_on_two_devices.txt", "torch.tensors_on_two_devices"),
        ("triton_shared_memory.txt", "triton.out_of_resources"),
    ] {
        let e = explained(&real("errors").join(file));
        let got = match e["primary"].as_u64() {
            Some(i) => e["matches"][i as usize]["id"].as_str().unwrap().to_string(),
            None => "none".to_string(),
        };
        assert_eq!(got, want, "{file}: {e:#}");
    }
    // Where the cause is on the machine or in the job, it comes first.
    for (file, cause) in [
        ("stub_libcuda.txt", "driver.stub_library"),
        ("nccl_duplicate_gpu.txt", "workload.nccl"),
        ("fork_after_cuda.txt", "none"),
        ("stream_capture_sync.txt", "workload.stream_capture"),
        ("jax_oom.txt", "workload.out_of_memory"),
        ("triton_shared_memory.txt", "workload.shared_memory"),
    ] {
        let e = explained(&real("errors").join(file));
        let primary = e["primary"].as_u64().unwrap() as usize;
        assert_eq!(
            e["matches"][primary]["causes"][0]["id"], cause,
            "{file}: {e:#}"
        );
    }
}

/// What that machine's own tools printed, pasted: nvidia-smi -q's "GPU : 0 %"
/// utilisation line is no GPU name, and the kernel log's Xid 43/31 are the programs'
/// faults (a device-side assert, an illegal address), not the GPU's.
#[test]
fn pastes_from_the_real_h100_are_read_right() {
    let diagnosed = |name: &str| -> serde_json::Value {
        let out = Command::new(assert_cmd::cargo::cargo_bin("gpu-doctor"))
            .args(["diagnose", "--json"])
            .arg(real("pastes").join(name))
            .output()
            .unwrap();
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let smi = diagnosed("nvidia-smi-q-h100.txt");
    assert_eq!(
        smi["collect_env"]["gpus"],
        serde_json::json!(["NVIDIA H100 80GB HBM3"])
    );
    assert_eq!(smi["collect_env"]["driver"], "580.159.04");
    assert_eq!(smi["summary"]["fail"], 0);
    let env = diagnosed("collect_env-h100.txt");
    assert_eq!(env["collect_env"]["torch"], "2.11.0+cu130");
    assert_eq!(env["collect_env"]["torch_cuda"], "13.0");
    assert_eq!(env["summary"]["verdict"], "healthy");

    let xids = explained(&real("pastes").join("dmesg-xid-31-43-h100.txt"));
    let ids: Vec<&str> = xids["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["gpu.xid", "gpu.xid"], "{xids:#}");
    let first_cause = &xids["matches"][0]["causes"][0]["id"];
    assert_eq!(first_cause, "workload.illegal_address", "{xids:#}");
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
