//! End to end: the real binary, its driver worker, and fake libnvidia-ml / libcuda that
//! speak the real C ABI (tests/fake_driver).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "common/fake_driver.rs"]
mod fake_driver;

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::Value;

const H100: &str = "NVIDIA H100 80GB HBM3,9.0,85520809984,00000000:18:00.0";
const H100_B: &str = "NVIDIA H100 80GB HBM3,9.0,85520809984,00000000:2A:00.0,GPU-b";

/// Runs `gpu-doctor --json` on an empty fixture root with the given driver folder and
/// FAKE_* variables; returns `facts.driver_api` and how long the run took.
fn driver_api(lib_dir: Option<&Path>, vars: &[(&str, &str)]) -> (Value, Duration) {
    let root = tempfile::tempdir().unwrap();
    let mut cmd = assert_cmd::Command::cargo_bin("gpu-doctor").unwrap();
    cmd.env_clear()
        .env("GPU_DOCTOR_ROOT", root.path())
        .arg("--json")
        .timeout(Duration::from_secs(60));
    if let Some(dir) = lib_dir {
        cmd.env("GPU_DOCTOR_DRIVER_LIB_DIR", dir);
    }
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let start = Instant::now();
    let out = cmd.output().unwrap();
    let elapsed = start.elapsed();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {stdout}\nstderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (report["facts"]["driver_api"].clone(), elapsed)
}

fn fake(vars: &[(&str, &str)]) -> Value {
    driver_api(Some(&fake_driver::fake_driver().current), vars).0
}

fn known<'a>(fact: &'a Value, what: &str) -> &'a Value {
    assert_eq!(fact["state"], "known", "{what}: {fact:#}");
    &fact["value"]
}

#[test]
fn healthy_machine_with_two_gpus() {
    let api = fake(&[
        ("FAKE_NVML_GPUS", &format!("{H100};{H100_B}")),
        ("FAKE_NVML_DRIVER_VERSION", "550.54.15"),
        ("FAKE_NVML_CUDA_VERSION", "12040"),
        ("FAKE_CUDA_DEVICES", "2"),
        ("FAKE_CUDA_DRIVER_VERSION", "12040"),
    ]);
    let nvml = known(&api["nvml"], "nvml");
    assert!(nvml["library"]
        .as_str()
        .unwrap()
        .ends_with("/libnvidia-ml.so.1"));
    assert_eq!(nvml["init"]["name"], "NVML_SUCCESS");
    assert_eq!(nvml["init"]["code"], 0);
    assert_eq!(*known(&nvml["driver_version"], "driver"), "550.54.15");
    assert_eq!(*known(&nvml["cuda_driver_version"], "cuda version"), "12.4");
    let devices = known(&nvml["devices"], "devices").as_array().unwrap();
    assert_eq!(devices.len(), 2);
    let d0 = &devices[0];
    assert_eq!(d0["index"], 0);
    assert_eq!(*known(&d0["name"], "name"), "NVIDIA H100 80GB HBM3");
    assert_eq!(*known(&d0["compute_capability"], "cc"), "9.0");
    assert_eq!(*known(&d0["memory_total_bytes"], "memory"), 85520809984u64);
    assert_eq!(*known(&d0["pci_bus_id"], "bus id"), "00000000:18:00.0");
    assert!(known(&d0["uuid"], "uuid")
        .as_str()
        .unwrap()
        .starts_with("GPU-"));
    assert_eq!(*known(&devices[1]["uuid"], "uuid"), "GPU-b");
    assert_eq!(
        *known(&devices[1]["pci_bus_id"], "bus id"),
        "00000000:2A:00.0"
    );

    let cuda = known(&api["cuda"], "cuda");
    // The driver's soname first (a stub libcuda.so earlier on the path answers 34).
    assert_eq!(cuda["library"], "libcuda.so.1");
    assert_eq!(cuda["init"]["name"], "CUDA_SUCCESS");
    assert_eq!(cuda["init"]["code"], 0);
    assert_eq!(*known(&cuda["driver_version"], "cuda driver"), "12.4");
    assert_eq!(*known(&cuda["device_count"], "count"), 2);
}

#[test]
fn nvml_init_failures_are_named() {
    for (code, name) in [
        ("18", "NVML_ERROR_LIB_RM_VERSION_MISMATCH"),
        ("9", "NVML_ERROR_DRIVER_NOT_LOADED"),
        ("4", "NVML_ERROR_NO_PERMISSION"),
        ("4242", "NVML_UNRECOGNIZED_RETURN"),
    ] {
        let api = fake(&[("FAKE_NVML_INIT", code), ("FAKE_NVML_GPUS", H100)]);
        let nvml = known(&api["nvml"], name);
        assert_eq!(nvml["init"]["name"], name);
        assert_eq!(nvml["init"]["code"].to_string(), code);
        for field in ["driver_version", "cuda_driver_version", "devices"] {
            assert_eq!(nvml[field]["state"], "missing", "{field}: {nvml:#}");
            assert!(nvml[field]["why"].as_str().unwrap().contains(name));
        }
        // CUDA is asked on its own and still answers.
        assert_eq!(known(&api["cuda"], "cuda")["init"]["code"], 0);
    }
}

#[test]
fn cuinit_failures_are_named() {
    for (code, name) in [
        ("802", "CUDA_ERROR_SYSTEM_NOT_READY"),
        ("803", "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"),
        ("804", "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"),
        ("999", "CUDA_ERROR_UNKNOWN"),
        ("100", "CUDA_ERROR_NO_DEVICE"),
    ] {
        let api = fake(&[
            ("FAKE_CUDA_INIT", code),
            ("FAKE_CUDA_DRIVER_VERSION", "12020"),
        ]);
        let cuda = known(&api["cuda"], name);
        assert_eq!(cuda["init"]["name"], name);
        assert_eq!(cuda["init"]["code"].to_string(), code);
        assert!(cuda["init"]["message"].is_string(), "{cuda:#}");
        // cuDriverGetVersion answers without a working cuInit.
        assert_eq!(*known(&cuda["driver_version"], "version"), "12.2");
        assert_eq!(cuda["device_count"]["state"], "missing");
        assert!(cuda["device_count"]["why"].as_str().unwrap().contains(name));
        assert_eq!(known(&api["nvml"], "nvml")["init"]["code"], 0);
    }
}

/// Codes outside cudarc's `CUresult` enum must not be undefined behaviour: they are
/// named by the driver when it can, and kept by number when nobody can.
#[test]
fn cuinit_codes_beyond_the_bindings() {
    let api = fake(&[("FAKE_CUDA_INIT", "4242")]);
    let init = &known(&api["cuda"], "cuda")["init"];
    assert_eq!(init["name"], "CUDA_ERROR_FROM_THE_FUTURE");
    assert_eq!(init["code"], 4242);
    let api = fake(&[("FAKE_CUDA_INIT", "5555")]);
    let init = &known(&api["cuda"], "cuda")["init"];
    assert_eq!(init["name"], "CUDA_UNRECOGNIZED_RESULT");
    assert_eq!(init["code"], 5555);
    assert!(init.get("message").is_none());
}

#[test]
fn a_hang_in_cuinit_times_out_and_nvml_still_answers() {
    let (api, elapsed) = driver_api(
        Some(&fake_driver::fake_driver().current),
        &[
            ("FAKE_CUDA_HANG", "1"),
            ("FAKE_NVML_GPUS", H100),
            ("GPU_DOCTOR_DRIVER_TIMEOUT_MS", "500"),
        ],
    );
    assert!(elapsed < Duration::from_secs(10), "took {elapsed:?}");
    assert_eq!(api["cuda"]["state"], "failed", "{api:#}");
    let error = api["cuda"]["error"].as_str().unwrap();
    assert!(error.contains("timed out after 500 ms"), "{error}");
    assert!(api["cuda"]["command"]
        .as_str()
        .unwrap()
        .contains("__driver-worker cuda"));
    assert_eq!(known(&api["nvml"], "nvml")["init"]["code"], 0);
}

#[test]
fn a_hang_in_nvml_init_times_out_and_cuda_still_answers() {
    let api = fake(&[
        ("FAKE_NVML_HANG", "1"),
        ("GPU_DOCTOR_DRIVER_TIMEOUT_MS", "500"),
    ]);
    assert_eq!(api["nvml"]["state"], "failed", "{api:#}");
    assert!(api["nvml"]["error"].as_str().unwrap().contains("timed out"));
    assert_eq!(known(&api["cuda"], "cuda")["init"]["code"], 0);
}

#[test]
fn a_crash_in_cuinit_is_reported_with_its_signal() {
    let api = fake(&[("FAKE_CUDA_CRASH", "1"), ("FAKE_NVML_GPUS", H100)]);
    assert_eq!(api["cuda"]["state"], "failed", "{api:#}");
    let error = api["cuda"]["error"].as_str().unwrap();
    assert!(error.contains("signal 11 (SIGSEGV)"), "{error}");
    assert_eq!(known(&api["nvml"], "nvml")["init"]["code"], 0);
}

#[test]
fn a_crash_in_nvml_init_is_reported_with_its_signal() {
    let api = fake(&[("FAKE_NVML_CRASH", "1")]);
    assert_eq!(api["nvml"]["state"], "failed", "{api:#}");
    assert!(api["nvml"]["error"].as_str().unwrap().contains("SIGSEGV"));
    assert_eq!(known(&api["cuda"], "cuda")["init"]["code"], 0);
}

#[test]
fn calls_a_gpu_does_not_support_are_unsupported() {
    let api = fake(&[("FAKE_NVML_GPUS", "Old GPU,-,-,00000000:01:00.0")]);
    let nvml = known(&api["nvml"], "nvml");
    let d = &known(&nvml["devices"], "devices")[0];
    assert_eq!(*known(&d["name"], "name"), "Old GPU");
    for field in ["compute_capability", "memory_total_bytes"] {
        assert_eq!(d[field]["state"], "unsupported", "{field}: {d:#}");
        assert!(d[field]["why"]
            .as_str()
            .unwrap()
            .contains("NVML_ERROR_NOT_SUPPORTED (3)"));
    }
}

#[test]
fn entry_points_missing_from_an_older_driver_are_unsupported() {
    let (api, _) = driver_api(
        Some(&fake_driver::fake_driver().old),
        &[("FAKE_NVML_GPUS", H100)],
    );
    let nvml = known(&api["nvml"], "nvml");
    assert_eq!(
        nvml["cuda_driver_version"]["state"], "unsupported",
        "{nvml:#}"
    );
    let d = &known(&nvml["devices"], "devices")[0];
    // Before R510: no nvmlDeviceGetMemoryInfo_v2 and no _v3 process list; the older
    // calls answer instead.
    assert_eq!(
        *known(&d["memory_total_bytes"], "memory"),
        85520809984u64,
        "{d:#}"
    );
    assert_eq!(*known(&d["memory_used_bytes"], "used"), 0);
    assert_eq!(*known(&d["compute_capability"], "cc"), "9.0");
}

#[test]
fn a_pre_r510_driver_still_lists_processes_through_the_older_calls() {
    let (api, _) = driver_api(
        Some(&fake_driver::fake_driver().old),
        &[
            ("FAKE_NVML_GPUS", H100),
            ("FAKE_NVML_DRIVER_VERSION", "470.239.06"),
            ("FAKE_NVML_GPU0_PROCS", "4242:1073741824:python;77:-:"),
        ],
    );
    let nvml = known(&api["nvml"], "nvml");
    let d = &known(&nvml["devices"], "devices")[0];
    let procs = known(&d["processes"], "processes");
    assert_eq!(procs[0]["pid"], 4242, "{procs:#}");
    assert_eq!(procs[0]["used_memory_bytes"], 1073741824u64);
    assert_eq!(procs[1]["pid"], 77);
    assert!(
        procs[1].get("used_memory_bytes").is_none_or(Value::is_null),
        "{procs:#}"
    );
}

#[test]
fn the_535_43_to_535_86_process_struct_is_read_with_its_own_size() {
    // Those drivers write 32-byte entries from the _v3 call; read as 24-byte ones the
    // second process's pid is garbage.
    for version in ["535.54.03", "535.104.05"] {
        let api = fake(&[
            ("FAKE_NVML_GPUS", H100),
            ("FAKE_NVML_DRIVER_VERSION", version),
            (
                "FAKE_NVML_GPU0_PROCS",
                "4242:1073741824:python;4343:2147483648:torchrun;4444:-:",
            ),
        ]);
        let nvml = known(&api["nvml"], "nvml");
        let d = &known(&nvml["devices"], "devices")[0];
        let procs = known(&d["processes"], "processes");
        let pids: Vec<u64> = procs
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["pid"].as_u64().unwrap())
            .collect();
        assert_eq!(pids, [4242, 4343, 4444], "{version}: {procs:#}");
        assert_eq!(procs[1]["used_memory_bytes"], 2147483648u64, "{version}");
    }
}

#[test]
fn absurd_counts_from_the_driver_are_refused_not_allocated() {
    let (api, took) = driver_api(
        Some(&fake_driver::fake_driver().current),
        &[
            ("FAKE_NVML_GPUS", H100),
            ("FAKE_NVML_COUNT", "4294967295"),
            ("FAKE_CUDA_COUNT", "2147483647"),
        ],
    );
    assert!(took < Duration::from_secs(20), "{took:?}");
    let nvml = known(&api["nvml"], "nvml");
    assert_eq!(nvml["devices"]["state"], "failed", "{nvml:#}");
    assert!(nvml["devices"]["error"]
        .as_str()
        .unwrap()
        .contains("4294967295"));
    let cuda = known(&api["cuda"], "cuda");
    assert_eq!(cuda["devices"]["state"], "failed", "{cuda:#}");

    let api = fake(&[
        ("FAKE_NVML_GPUS", H100),
        ("FAKE_NVML_MAX_MIG", "4294967295"),
        ("FAKE_NVML_GPU0_MIG", "1,1"),
        ("FAKE_NVML_GPU0_PROC_COUNT", "100000000"),
    ]);
    let nvml = known(&api["nvml"], "nvml");
    let d = &known(&nvml["devices"], "devices")[0];
    assert_eq!(d["mig"]["state"], "failed", "{d:#}");
    assert_eq!(d["processes"]["state"], "failed", "{d:#}");
    assert!(d["processes"]["error"]
        .as_str()
        .unwrap()
        .contains("100000000"));
}

#[test]
fn a_fixture_root_without_a_driver_folder_loads_nothing() {
    let (api, _) = driver_api(None, &[]);
    for part in ["nvml", "cuda"] {
        assert_eq!(api[part]["state"], "missing", "{api:#}");
        assert_eq!(
            api[part]["why"],
            "fixture root: driver libraries are not loaded"
        );
    }
}

#[test]
fn a_driver_folder_without_libraries_is_missing() {
    let empty = tempfile::tempdir().unwrap();
    let (api, _) = driver_api(Some(empty.path()), &[]);
    assert_eq!(api["nvml"]["state"], "missing", "{api:#}");
    assert!(api["nvml"]["why"]
        .as_str()
        .unwrap()
        .contains("could not be loaded"));
    // On a machine with a real driver, cudarc's search still finds the system libcuda;
    // either way nothing may fail.
    match api["cuda"]["state"].as_str().unwrap() {
        "missing" => assert!(api["cuda"]["why"]
            .as_str()
            .unwrap()
            .contains("libcuda.so.1")),
        "known" => {}
        other => panic!("cuda is {other}: {api:#}"),
    }
}

#[test]
fn library_chatter_on_stdout_does_not_hide_the_report() {
    let api = fake(&[
        ("FAKE_CUDA_STDOUT", "{\"protocol\": 1, half a line"),
        ("FAKE_CUDA_INIT", "802"),
    ]);
    assert_eq!(known(&api["cuda"], "cuda")["init"]["code"], 802);
}

#[test]
fn a_worker_that_exits_early_is_a_failure() {
    let api = fake(&[("FAKE_CUDA_EXIT", "3")]);
    assert_eq!(api["cuda"]["state"], "failed", "{api:#}");
    assert!(api["cuda"]["error"]
        .as_str()
        .unwrap()
        .contains("exited with status 3"));
    assert_eq!(known(&api["nvml"], "nvml")["init"]["code"], 0);
}

#[test]
fn the_worker_round_trip_is_quick() {
    let dir = &fake_driver::fake_driver().current;
    let _ = driver_api(Some(dir), &[]);
    let (_, elapsed) = driver_api(Some(dir), &[("FAKE_NVML_GPUS", H100)]);
    eprintln!("gpu-doctor --json with fake driver: {elapsed:?}");
    assert!(elapsed < Duration::from_secs(10), "took {elapsed:?}");
}

/// Pinned memory comes from the driver uninitialised (the fake fills it with 0xCD): no
/// slice of it may exist before it is written. Runs the library's wrappers directly, in a
/// child of this test binary whose loader path holds the fake libcuda.
#[test]
fn pinned_memory_is_zeroed_before_any_slice_of_it_exists() {
    const CHILD: &str = "GPU_DOCTOR_TEST_PINNED_CHILD";
    if std::env::var_os(CHILD).is_some() {
        use gpu_doctor::probes::kernels;
        let driver = kernels::load_cuda().unwrap();
        assert_eq!(driver.loaded_name, "libcuda.so.1");
        assert_eq!(driver.init().unwrap(), 0);
        let ctx = driver.primary_context(driver.device(0).unwrap()).unwrap();
        let mem = ctx.alloc_pinned(4096).unwrap();
        assert!(
            mem.as_slice().iter().all(|b| *b == 0),
            "pinned memory not zeroed"
        );
        return;
    }
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "pinned_memory_is_zeroed_before_any_slice_of_it_exists",
            "--test-threads",
            "1",
        ])
        .env(CHILD, "1")
        .env("LD_LIBRARY_PATH", &fake_driver::fake_driver().current)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("1 passed"),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
