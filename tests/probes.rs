//! End to end: the real binary plans and runs the smoke probes in worker processes
//! against the fake libcuda / libcublasLt, which enforce the profile's grid limits and
//! memory and can hang, crash or misreport on request.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "common/fake_driver.rs"]
mod fake_driver;
mod fixture_root;
#[path = "common/probe_run.rs"]
mod probe_run;

use std::time::Duration;

use fixture_root::{finding, json_report, problems, FixtureRoot};
use probe_run::run;

const H100: &str = "NVIDIA H100 80GB HBM3,9.0,85520809984,00000000:01:00.0,GPU-0a1b2c3d-1111-2222-3333-444455556666";
const A4000: &str =
    "NVIDIA RTX A4000,8.6,17171480576,00000000:02:00.0,GPU-99887766-1111-2222-3333-444455556666";
const PROBES: [&str; 7] = [
    "probe.launch",
    "probe.grid_limit",
    "probe.ordinal",
    "probe.cublaslt",
    "probe.graph",
    "probe.bandwidth",
    "probe.oom",
];

/// A node with a loaded driver and a CUDA 12.4 toolkit whose lib64 holds the fake cuBLASLt.
fn gpu_node() -> FixtureRoot {
    let root = FixtureRoot::ubuntu();
    root.gpu(Some("nvidia"))
        .kernel_module("550.54.15")
        .user_space("550.54.15")
        .device_nodes(2);
    root.file(
        "usr/local/cuda-12.4/version.json",
        r#"{"cuda": {"name": "CUDA SDK", "version": "12.4.1"}}"#,
    );
    let lib = root.path("usr/local/cuda-12.4/lib64/libcublasLt.so.12");
    std::fs::create_dir_all(lib.parent().unwrap()).unwrap();
    std::fs::copy(
        fake_driver::fake_driver()
            .current
            .join("cublas/libcublasLt.so.12"),
        &lib,
    )
    .unwrap();
    root
}

fn severity(r: &serde_json::Value, id: &str) -> String {
    finding(r, id)["severity"].as_str().unwrap().to_string()
}

fn probe_results(r: &serde_json::Value) -> Vec<serde_json::Value> {
    r["facts"]["probes"].as_array().cloned().unwrap_or_default()
}

fn result<'a>(r: &'a serde_json::Value, probe: &str, ordinal: u64) -> &'a serde_json::Value {
    r["facts"]["probes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["probe"] == probe && p["cuda_ordinal"] == ordinal)
        .unwrap_or_else(|| panic!("no {probe} result: {:#}", r["facts"]["probes"]))
}

#[test]
fn a_healthy_gpu_passes_every_probe() {
    let r = run(&gpu_node(), H100, &[], &[]);
    for id in PROBES {
        assert_eq!(
            severity(&r.report, id),
            "pass",
            "{id}: {:#}",
            finding(&r.report, id)
        );
    }
    assert!(r.code <= 1, "{:?}", problems(&r.report));
    assert!(r.took < Duration::from_secs(30), "{:?}", r.took);
    // The CUDA device facts and their NVML match.
    let dev = &r.report["facts"]["driver_api"]["cuda"]["value"]["devices"]["value"][0];
    assert_eq!(
        dev["max_grid"]["value"],
        serde_json::json!([2147483647, 65535, 65535])
    );
    assert_eq!(dev["pci_bus_id"]["value"], "0000:01:00.0");
    assert_eq!(
        dev["uuid"]["value"],
        "GPU-0a1b2c3d-1111-2222-3333-444455556666"
    );
    assert_eq!(dev["nvml_index"], 0);
    // cuBLASLt came from the toolkit, ran FP32, FP16, BF16 and FP8 (sm_90).
    let lt = result(&r.report, "cublaslt", 0);
    let notes = lt["outcome"]["notes"].to_string();
    assert!(
        notes.contains("cuda-12.4/lib64/libcublasLt.so.12: cuBLASLt 12.4.3"),
        "{notes}"
    );
    assert!(
        lt["outcome"]["summary"].as_str().unwrap().contains("FP8"),
        "{lt:#}"
    );
    // The grid probe records what the driver said one block past the limit.
    let grid = result(&r.report, "grid_limit", 0);
    assert!(
        grid["outcome"]["notes"]
            .to_string()
            .contains("65536 blocks on y was refused with CUDA_ERROR_INVALID_VALUE (1)"),
        "{grid:#}"
    );
}

#[test]
fn a_launch_past_the_limit_that_the_driver_accepts_fails_the_grid_probe() {
    let r = run(
        &gpu_node(),
        H100,
        &[("FAKE_CUDA_GRID_ERROR", "0")],
        &["--probes", "grid_limit"],
    );
    assert_eq!(severity(&r.report, "probe.grid_limit"), "fail");
    assert!(finding(&r.report, "probe.grid_limit")["summary"]
        .as_str()
        .unwrap()
        .contains("was accepted"));
    assert_eq!(r.code, 2);
}

#[test]
fn grid_limits_come_from_the_device() {
    let r = run(
        &gpu_node(),
        H100,
        &[("FAKE_CUDA_MAX_GRID", "70000,1024,512")],
        &["--probes", "grid_limit"],
    );
    assert_eq!(severity(&r.report, "probe.grid_limit"), "pass");
    let s = finding(&r.report, "probe.grid_limit")["summary"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(s.contains("70000 × 1024 × 512"), "{s}");
}

#[test]
fn out_of_memory_is_clean_unless_the_driver_misbehaves() {
    let root = gpu_node();
    let ok = run(&root, H100, &[], &["--probes", "oom"]);
    assert_eq!(severity(&ok.report, "probe.oom"), "pass");
    assert!(result(&ok.report, "oom", 0)["outcome"]["notes"]
        .to_string()
        .contains("CUDA_ERROR_OUT_OF_MEMORY"));

    let leak = run(
        &root,
        H100,
        &[("FAKE_CUDA_LEAK", "1")],
        &["--probes", "oom"],
    );
    assert_eq!(severity(&leak.report, "probe.oom"), "fail");
    assert!(finding(&leak.report, "probe.oom")["summary"]
        .as_str()
        .unwrap()
        .contains("free memory did not return"));

    let unknown = run(
        &root,
        H100,
        &[("FAKE_CUDA_OOM_ERROR", "999")],
        &["--probes", "oom"],
    );
    let f = finding(&unknown.report, "probe.oom");
    assert_eq!(f["severity"], "fail");
    assert!(
        f["summary"]
            .as_str()
            .unwrap()
            .contains("CUDA_ERROR_UNKNOWN"),
        "{f:#}"
    );
    assert_eq!(unknown.code, 2);
}

fn alive(pid: i32) -> bool {
    // A zombie has been killed; only a live process counts.
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| {
            !s.rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .starts_with('Z')
        })
        .unwrap_or(false)
}

/// A limit shorter than a healthy GPU may need proves no hang: a real H100's grid_limit
/// probe (1.3 s) was killed under `--probe-timeout 300ms` and every probe passed right
/// after. The finding says so, with no drain and no GPU reset.
#[test]
fn a_time_out_under_a_shortened_limit_is_not_called_a_hang() {
    let r = run(
        &gpu_node(),
        H100,
        &[("FAKE_CUDA_HANG_KERNEL", "add_one")],
        &["--probes", "graph", "--probe-timeout", "500ms"],
    );
    let graph = finding(&r.report, "probe.graph");
    assert_eq!(graph["severity"], "warn", "{graph:#}");
    let summary = graph["summary"].as_str().unwrap();
    assert!(
        summary.contains("did not finish within the 0.5 s limit"),
        "{summary}"
    );
    assert_eq!(graph["action"], "none", "{graph:#}");
    let fix = graph["fix"]["commands"].to_string();
    assert!(fix.contains("gpu-doctor --probes graph"), "{fix}");
    assert!(!fix.contains("--gpu-reset"), "{fix}");
    assert_eq!(
        result(&r.report, "graph", 0)["outcome"]["limit_ms"],
        500,
        "the limit is a fact of the report"
    );
    assert_eq!(r.code, 1);
}

#[test]
fn a_hanging_probe_is_killed_and_the_rest_still_run() {
    let root = gpu_node();
    let pidfile = root.path("pids");
    let r = run(
        &root,
        H100,
        &[
            ("FAKE_CUDA_HANG_KERNEL", "add_one"),
            ("FAKE_CUDA_PIDFILE", pidfile.to_str().unwrap()),
        ],
        &["--probe-timeout", "3s"],
    );
    assert!(r.took < Duration::from_secs(45), "{:?}", r.took);
    let graph = finding(&r.report, "probe.graph");
    assert_eq!(graph["severity"], "fail");
    assert!(
        graph["summary"]
            .as_str()
            .unwrap()
            .contains("hung and was killed"),
        "{graph:#}"
    );
    assert_eq!(
        result(&r.report, "graph", 0)["outcome"]["status"],
        "timed_out"
    );
    // The probes after it ran in a fresh worker.
    assert_eq!(
        severity(&r.report, "probe.bandwidth"),
        "pass",
        "{:#}",
        finding(&r.report, "probe.bandwidth")
    );
    assert_eq!(severity(&r.report, "probe.oom"), "pass");
    assert_eq!(r.code, 2);
    // Every worker started (the NVML/CUDA fact workers and the probe workers) is gone.
    let pids: Vec<i32> = std::fs::read_to_string(&pidfile)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    assert!(pids.len() >= 3, "{pids:?}");
    std::thread::sleep(Duration::from_millis(200));
    for pid in pids {
        assert!(!alive(pid), "worker {pid} still runs");
    }
}

#[test]
fn a_crashing_probe_is_reported_with_its_signal() {
    let r = run(
        &gpu_node(),
        H100,
        &[("FAKE_CUDA_CRASH_KERNEL", "count_blocks")],
        &[],
    );
    let f = finding(&r.report, "probe.grid_limit");
    assert_eq!(f["severity"], "fail");
    assert!(f["summary"].as_str().unwrap().contains("SIGSEGV"), "{f:#}");
    assert_eq!(result(&r.report, "grid_limit", 0)["outcome"]["signal"], 11);
    for id in ["probe.launch", "probe.ordinal", "probe.graph", "probe.oom"] {
        assert_eq!(severity(&r.report, id), "pass", "{id}");
    }
    assert_eq!(r.code, 2);
    assert!(r.took < Duration::from_secs(30));
}

#[test]
fn cublaslt_alloc_failed_is_decoded_with_memory_and_workspace() {
    let r = run(
        &gpu_node(),
        H100,
        &[("FAKE_CUBLASLT_HEURISTIC", "3")],
        &["--probes", "cublaslt"],
    );
    let f = finding(&r.report, "probe.cublaslt");
    assert_eq!(f["severity"], "fail");
    let text = f.to_string();
    assert!(
        text.contains("cublasLtMatmulAlgoGetHeuristic returned CUBLAS_STATUS_ALLOC_FAILED (3)"),
        "{f:#}"
    );
    assert!(
        text.contains("free GPU memory") && text.contains("workspace offered 32 MiB"),
        "{f:#}"
    );
    assert!(text.contains("CUBLAS_WORKSPACE_CONFIG"), "{f:#}");
    assert_eq!(r.code, 2);

    let wrong = run(
        &gpu_node(),
        H100,
        &[("FAKE_CUBLASLT_WRONG", "1")],
        &["--probes", "cublaslt"],
    );
    let f = finding(&wrong.report, "probe.cublaslt");
    assert!(
        f["summary"].as_str().unwrap().contains("CPU reference"),
        "{f:#}"
    );
}

#[test]
fn a_ptx_jit_failure_fails_the_launch_probe() {
    let r = run(
        &gpu_node(),
        H100,
        &[("FAKE_CUDA_JIT_ERROR", "218")],
        &["--probes", "launch"],
    );
    let f = finding(&r.report, "probe.launch");
    assert_eq!(f["severity"], "fail");
    assert!(f.to_string().contains("CUDA_ERROR_INVALID_PTX"), "{f:#}");
    assert!(f.to_string().contains("ptxjitcompiler"), "{f:#}");
}

#[test]
fn cuda_order_differing_from_nvml_is_reported() {
    let gpus = format!("{A4000};{H100}");
    // NVML lists by bus id (A4000 is 0000:02, H100 0000:01 — but the profile order is
    // NVML's); CUDA puts the profile's second GPU first.
    let r = run(
        &gpu_node(),
        &gpus,
        &[("FAKE_CUDA_ORDER", "1,0")],
        &["--no-probes"],
    );
    let f = finding(&r.report, "env.device_order");
    assert_eq!(f["severity"], "warn", "{f:#}");
    assert!(
        f["details"]
            .as_str()
            .unwrap()
            .contains("CUDA 0 = nvidia-smi 1 (NVIDIA H100 80GB HBM3)"),
        "{f:#}"
    );
    assert!(f.to_string().contains("CUDA_DEVICE_ORDER=PCI_BUS_ID"));
    let devs = &r.report["facts"]["driver_api"]["cuda"]["value"]["devices"]["value"];
    assert_eq!(devs[0]["nvml_index"], 1);
    assert_eq!(devs[1]["nvml_index"], 0);

    let fixed = run(
        &gpu_node(),
        &gpus,
        &[
            ("FAKE_CUDA_ORDER", "1,0"),
            ("CUDA_DEVICE_ORDER", "PCI_BUS_ID"),
        ],
        &["--no-probes"],
    );
    assert_eq!(severity(&fixed.report, "env.device_order"), "pass");
}

#[test]
fn visible_devices_naming_a_missing_gpu() {
    let r = run(
        &gpu_node(),
        H100,
        &[("CUDA_VISIBLE_DEVICES", "0,7")],
        &["--no-probes"],
    );
    let f = finding(&r.report, "env.visible_devices_invalid");
    assert_eq!(f["severity"], "warn");
    assert!(f["summary"].as_str().unwrap().contains("\"7\""), "{f:#}");
    assert_eq!(
        r.report["facts"]["driver_api"]["cuda"]["value"]["device_count"]["value"],
        1
    );
}

#[test]
fn probe_selection_flags() {
    let root = gpu_node();
    let gpus = format!("{H100};{A4000}");
    let none = run(&root, &gpus, &[], &["--no-probes"]);
    assert!(probe_results(&none.report).is_empty());
    assert!(none.report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .all(|f| !fixture_root::failure_id(f).starts_with("probe.")));

    let some = run(
        &root,
        &gpus,
        &[],
        &["--probes", "launch,ordinal", "--gpus", "1"],
    );
    let results = probe_results(&some.report);
    assert_eq!(results.len(), 2, "{results:#?}");
    assert!(results.iter().all(|p| p["nvml_index"] == 1));
    assert_eq!(severity(&some.report, "probe.ordinal"), "pass");
    let ordinal = result(&some.report, "ordinal", 1);
    assert!(
        ordinal["outcome"]["notes"]
            .to_string()
            .contains("cuDeviceGet(2) returned CUDA_ERROR_INVALID_DEVICE (101)"),
        "{ordinal:#}"
    );

    // Bad values are usage errors.
    let out = root.command().args(["--probes", "warp"]).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown probe"));
    let out = root
        .command()
        .args(["--probe-timeout", "soon"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
}

#[test]
fn a_saved_report_replays_its_probe_findings() {
    let root = gpu_node();
    let saved = root.path("saved.json");
    let r = run(
        &root,
        H100,
        &[("FAKE_CUDA_LEAK", "1")],
        &["--save", saved.to_str().unwrap()],
    );
    assert_eq!(severity(&r.report, "probe.oom"), "fail");
    let mut cmd = assert_cmd::Command::cargo_bin("gpu-doctor").unwrap();
    cmd.arg("--from").arg(&saved);
    let (code, replay) = json_report(&mut cmd);
    assert_eq!(code, r.code);
    assert_eq!(severity(&replay, "probe.oom"), "fail");
    assert_eq!(probe_results(&replay).len(), 7);
}

#[test]
fn a_busy_gpu_skips_the_oom_probe_unless_forced() {
    let root = gpu_node();
    let procs = ("FAKE_NVML_GPU0_PROCS", "4242:10737418240:python");
    let r = run(
        &root,
        H100,
        &[procs, ("FAKE_NVML_GPU0_USED", "10737418240")],
        &["--probes", "launch,oom"],
    );
    let f = finding(&r.report, "probe.oom");
    assert_eq!(f["severity"], "info", "{f:#}");
    assert!(
        f["summary"]
            .as_str()
            .unwrap()
            .contains("pid 4242 (python, 10240 MiB)"),
        "{f:#}"
    );
    assert!(f.to_string().contains("--force"));
    assert_eq!(result(&r.report, "oom", 0)["outcome"]["status"], "skipped");
    assert_eq!(severity(&r.report, "probe.launch"), "pass");
    assert_eq!(severity(&r.report, "gpu.busy"), "info");

    let forced = run(
        &root,
        H100,
        &[procs, ("FAKE_NVML_GPU0_USED", "10737418240")],
        &["--probes", "oom", "--force"],
    );
    assert_eq!(
        result(&forced.report, "oom", 0)["outcome"]["status"],
        "passed"
    );
}

#[test]
fn slow_copies_on_a_fast_link_warn() {
    let r = run(
        &gpu_node(),
        H100,
        &[
            ("FAKE_NVML_GPU0_PCIE", "4,16,4,16"),
            ("FAKE_CUDA_COPY_GBPS", "2"),
        ],
        &["--probes", "bandwidth"],
    );
    let f = finding(&r.report, "probe.bandwidth");
    assert_eq!(f["severity"], "warn", "{f:#}");
    assert!(
        f["summary"].as_str().unwrap().contains("PCIe Gen4 x16"),
        "{f:#}"
    );
    assert_eq!(r.code, 1, "{:?}", problems(&r.report));
}

#[test]
fn the_grid_calculator_reads_the_device_limits() {
    let root = gpu_node();
    let grid = |vars: &[(&str, &str)]| {
        let mut cmd = root.command();
        cmd.env(
            "GPU_DOCTOR_DRIVER_LIB_DIR",
            &fake_driver::fake_driver().current,
        )
        .env("FAKE_NVML_GPUS", H100)
        .args([
            "grid",
            "--batch",
            "6",
            "--heads",
            "5",
            "--spatial",
            "40x64",
            "--gpu",
            "0",
        ]);
        for (k, v) in vars {
            cmd.env(k, v);
        }
        json_report(&mut cmd)
    };
    // 6 · 40 · 64 · 5 = 76800 blocks: over the usual 65535 on y ...
    let (code, v) = grid(&[]);
    assert_eq!(
        (code, v["limit"].as_u64(), v["fits"].as_bool()),
        (1, Some(65535), Some(false))
    );
    assert_eq!(v["max_chunk"], 5);
    assert_eq!(v["limit_from"], "GPU 0");
    // ... and within a device that allows more.
    let (code, v) = grid(&[("FAKE_CUDA_MAX_GRID", "2147483647,131071,65535")]);
    assert_eq!(
        (code, v["limit"].as_u64(), v["fits"].as_bool()),
        (0, Some(131071), Some(true))
    );
    // A GPU that does not exist is a usage error that says so.
    let mut cmd = root.command();
    cmd.env(
        "GPU_DOCTOR_DRIVER_LIB_DIR",
        &fake_driver::fake_driver().current,
    )
    .env("FAKE_NVML_GPUS", H100)
    .args(["grid", "--batch", "1", "--heads", "1", "--gpu", "3"]);
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no GPU 3 among the 1 CUDA devices"));
}

#[test]
fn a_gpu_that_hangs_on_context_creation_costs_one_time_limit_not_seven() {
    let r = run(
        &gpu_node(),
        H100,
        &[("FAKE_CUDA_HANG_CONTEXT", "1")],
        &["--probe-timeout", "2s"],
    );
    assert!(r.took < Duration::from_secs(12), "{:?}", r.took);
    assert_eq!(
        result(&r.report, "launch", 0)["outcome"]["status"],
        "timed_out"
    );
    for probe in [
        "grid_limit",
        "ordinal",
        "cublaslt",
        "graph",
        "bandwidth",
        "oom",
    ] {
        let p = result(&r.report, probe, 0);
        assert_eq!(p["outcome"]["status"], "skipped", "{p:#}");
        assert!(
            p["outcome"]["why"]
                .as_str()
                .unwrap()
                .contains("context creation) hung"),
            "{p:#}"
        );
    }
    assert_eq!(severity(&r.report, "probe.launch"), "fail");
    assert_eq!(r.code, 2);
}

// ---- a fake as strict as a driver (issue 13) -------------------------------------------

fn notes(r: &serde_json::Value, probe: &str) -> String {
    result(r, probe, 0)["outcome"]["notes"].to_string()
}

#[test]
fn work_queued_on_the_legacy_stream_is_waited_for_before_a_non_blocking_stream_reads_it() {
    // The fake runs legacy-stream work (a memset, the tail of a pageable upload) only when
    // something waits for it; a non-blocking stream does not.
    let r = run(&gpu_node(), H100, &[], &["--probes", "graph,cublaslt"]);
    for id in ["probe.graph", "probe.cublaslt"] {
        assert_eq!(
            severity(&r.report, id),
            "pass",
            "{:#}",
            finding(&r.report, id)
        );
    }
}

#[test]
fn a_sticky_error_ends_the_worker_and_the_rest_run_in_a_fresh_one() {
    let r = run(
        &gpu_node(),
        H100,
        &[("FAKE_CUDA_STICKY_KERNEL", "add_one")],
        &[],
    );
    let graph = result(&r.report, "graph", 0);
    assert_eq!(graph["outcome"]["status"], "failed", "{graph:#}");
    assert_eq!(graph["outcome"]["code"]["code"], 700, "{graph:#}");
    for id in ["probe.bandwidth", "probe.oom", "probe.launch"] {
        assert_eq!(
            severity(&r.report, id),
            "pass",
            "{:#}",
            finding(&r.report, id)
        );
    }
}

#[test]
fn the_grid_probe_stays_within_its_time_budget_on_a_slow_gpu() {
    // 1 µs per block: the 2^31-1 block launch alone would take 36 minutes.
    let r = run(
        &gpu_node(),
        H100,
        &[("FAKE_CUDA_BLOCK_NS", "1000")],
        &["--probes", "grid_limit", "--probe-timeout", "20s"],
    );
    assert_eq!(
        severity(&r.report, "probe.grid_limit"),
        "pass",
        "{:#}",
        finding(&r.report, "probe.grid_limit")
    );
    assert!(notes(&r.report, "grid_limit").contains("was not run"));
    assert!(r.took < Duration::from_secs(15), "{:?}", r.took);
}

#[test]
fn the_grid_probe_reads_the_watchdog_and_stays_under_it() {
    // 10 ns per block: the full launch takes 21 s and the watchdog kills kernels at 2 s.
    let r = run(
        &gpu_node(),
        H100,
        &[("FAKE_CUDA_BLOCK_NS", "10"), ("FAKE_CUDA_WATCHDOG", "1")],
        &["--probes", "grid_limit", "--probe-timeout", "20s"],
    );
    let f = finding(&r.report, "probe.grid_limit");
    assert_eq!(f["severity"], "pass", "{f:#}");
    assert!(notes(&r.report, "grid_limit").contains("watchdog"));
}

#[test]
fn the_driver_soname_is_loaded_before_a_stub_libcuda_so() {
    let dir = fake_driver::fake_driver().with_stub.display().to_string();
    let r = run(
        &gpu_node(),
        H100,
        &[("GPU_DOCTOR_DRIVER_LIB_DIR", dir.as_str())],
        &["--probes", "launch"],
    );
    let cuda = &r.report["facts"]["driver_api"]["cuda"]["value"];
    assert_eq!(cuda["library"], "libcuda.so.1", "{cuda:#}");
    assert_eq!(cuda["init"]["code"], 0);
    assert_eq!(severity(&r.report, "probe.launch"), "pass");
}

#[test]
fn a_jit_failure_carries_the_compilers_message() {
    let r = run(
        &gpu_node(),
        H100,
        &[
            ("FAKE_CUDA_JIT_ERROR", "218"),
            (
                "FAKE_CUDA_JIT_LOG",
                "ptxas application ptx input, line 9; error   : Unknown modifier '.foo'",
            ),
        ],
        &["--probes", "launch"],
    );
    let f = finding(&r.report, "probe.launch");
    assert_eq!(f["severity"], "fail");
    assert!(f.to_string().contains("Unknown modifier '.foo'"), "{f:#}");
    assert!(f.to_string().contains("cuModuleLoadDataEx"), "{f:#}");
}

#[test]
fn graphs_fall_back_to_cu_graph_instantiate_v2_on_an_older_driver() {
    let old = fake_driver::fake_driver().old.display().to_string();
    let r = run(
        &gpu_node(),
        H100,
        &[("GPU_DOCTOR_DRIVER_LIB_DIR", old.as_str())],
        &["--probes", "graph"],
    );
    assert_eq!(
        severity(&r.report, "probe.graph"),
        "pass",
        "{:#}",
        finding(&r.report, "probe.graph")
    );
    assert!(notes(&r.report, "graph").contains("cuGraphInstantiate_v2"));
}

#[test]
fn fp8_is_not_asked_of_a_cublaslt_that_predates_it() {
    // cuBLASLt 11.10 (CUDA 11.7) does not know the FP8 types: it refuses the layout with
    // INVALID_VALUE, not NOT_SUPPORTED.
    let r = run(
        &gpu_node(),
        H100,
        &[("FAKE_CUBLASLT_VERSION", "111000")],
        &["--probes", "cublaslt"],
    );
    let f = finding(&r.report, "probe.cublaslt");
    assert_eq!(f["severity"], "pass", "{f:#}");
    assert!(notes(&r.report, "cublaslt").contains("predates FP8"));
}

#[test]
fn a_cuda_13_cublaslt_on_an_older_driver_is_named_and_the_next_library_runs() {
    let root = gpu_node();
    root.file(
        "usr/local/cuda-13.0/version.json",
        r#"{"cuda": {"name": "CUDA SDK", "version": "13.0.1"}}"#,
    );
    let lib = root.path("usr/local/cuda-13.0/lib64/libcublasLt.so.13");
    std::fs::create_dir_all(lib.parent().unwrap()).unwrap();
    std::fs::copy(
        fake_driver::fake_driver()
            .current
            .join("cublas/libcublasLt.so.12"),
        &lib,
    )
    .unwrap();
    let r = run(&root, H100, &[], &["--probes", "cublaslt"]);
    let f = finding(&r.report, "probe.cublaslt");
    assert_eq!(f["severity"], "pass", "{f:#}");
    let n = notes(&r.report, "cublaslt");
    assert!(n.contains("the driver is too old for this library"), "{n}");
    assert!(n.contains("cuBLASLt 12.4.3"), "{n}");
}

#[test]
fn device_copies_are_timed_on_the_gpu_and_judged_against_its_memory_bandwidth() {
    let healthy = run(&gpu_node(), H100, &[], &["--probes", "bandwidth"]);
    assert_eq!(severity(&healthy.report, "probe.bandwidth"), "pass");
    let d2d = result(&healthy.report, "bandwidth", 0)["outcome"]["measurements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "device_to_device_gbps")
        .unwrap()["value"]
        .as_f64()
        .unwrap();
    // The fake's GPU clock: 3000 GB/s.
    assert!((d2d - 3000.0).abs() < 30.0, "{d2d}");
    let slow = run(
        &gpu_node(),
        H100,
        &[("FAKE_CUDA_MEMORY_GBPS", "200")],
        &["--probes", "bandwidth"],
    );
    let f = finding(&slow.report, "probe.bandwidth");
    assert_eq!(f["severity"], "warn", "{f:#}");
    assert!(f["summary"].as_str().unwrap().contains("device-to-device"));
}

#[test]
fn the_oom_probe_holds_alone_and_on_a_shared_gpu() {
    // Alone: the first module of the context reserves memory for good.
    let alone = run(
        &gpu_node(),
        H100,
        &[("FAKE_CUDA_MODULE_BYTES", "209715200")],
        &["--probes", "oom"],
    );
    let f = finding(&alone.report, "probe.oom");
    assert_eq!(f["severity"], "pass", "{f:#}");
    // Shared (--force): another process allocates 100 MiB between every look.
    let shared = run(
        &gpu_node(),
        H100,
        &[("FAKE_CUDA_USED_STEP", "104857600")],
        &["--probes", "oom", "--force"],
    );
    let f = finding(&shared.report, "probe.oom");
    assert_eq!(f["severity"], "pass", "{f:#}");
    assert!(notes(&shared.report, "oom").contains("other processes use this GPU"));
}

#[test]
fn a_libcuda_missing_one_entry_point_is_one_finding_not_one_per_probe_and_gpu() {
    let dir = fake_driver::fake_driver()
        .missing_symbol
        .display()
        .to_string();
    let gpus = format!("{H100};{A4000}");
    let r = run(
        &gpu_node(),
        &gpus,
        &[("GPU_DOCTOR_DRIVER_LIB_DIR", dir.as_str())],
        &[],
    );
    let ids: Vec<&str> = r.report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] == "fail")
        .map(|f| f["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        ["driver.entry_point_missing"],
        "{:#}",
        r.report["findings"]
    );
    let f = finding(&r.report, "driver.entry_point_missing");
    let s = f["summary"].as_str().unwrap();
    assert!(
        // The seven per-GPU probes and p2p between the GPUs (nccl has no library here).
        s.contains("cuCtxSetCurrent") && s.contains("8 probes on 2 GPUs"),
        "{s}"
    );
    assert!(!f.to_string().contains("gpu-reset"), "{f:#}");
}

#[test]
fn megabytes_of_driver_chatter_on_stdout_hide_no_answer() {
    let r = run(
        &gpu_node(),
        H100,
        &[("FAKE_CUDA_STDOUT_BYTES", "2097152")],
        &["--probes", "launch"],
    );
    assert_eq!(
        r.report["facts"]["driver_api"]["cuda"]["value"]["init"]["code"],
        0
    );
    assert_eq!(severity(&r.report, "driver.cuda_init_failed"), "pass");
    assert_eq!(severity(&r.report, "probe.launch"), "pass");
}

#[test]
fn a_driver_helper_that_keeps_the_pipes_open_does_not_hold_the_doctor() {
    let root = gpu_node();
    let pidfile = root.path("pids");
    let r = run(
        &root,
        H100,
        &[
            ("FAKE_CUDA_FORK_CHILD", "1"),
            ("FAKE_CUDA_PIDFILE", pidfile.to_str().unwrap()),
        ],
        &["--probes", "launch", "--probe-timeout", "20s"],
    );
    assert_eq!(severity(&r.report, "probe.launch"), "pass");
    assert!(r.took < Duration::from_secs(15), "{:?}", r.took);
    std::thread::sleep(Duration::from_millis(300));
    let pids: Vec<i32> = std::fs::read_to_string(&pidfile)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    assert!(pids.len() >= 4, "{pids:?}");
    for pid in pids {
        assert!(!alive(pid), "process {pid} still runs");
    }
}

#[test]
fn mig_instances_are_named_mig_and_selected_by_their_uuid() {
    let mig = "NVIDIA A100-SXM4-40GB MIG 1g.5gb,8.0,5100273664,00000000:01:00.0,MIG-7f3e0000-1111-2222-3333-444455556666,GPU-0a1b2c3d-1111-2222-3333-444455556666";
    let root = gpu_node();
    let mut cmd = root.command();
    cmd.env(
        "GPU_DOCTOR_DRIVER_LIB_DIR",
        &fake_driver::fake_driver().current,
    )
    .env("FAKE_NVML_GPUS", H100)
    .env("FAKE_CUDA_GPUS", format!("{mig};{A4000}"))
    .env("FAKE_NVML_DRIVER_VERSION", "550.54.15")
    .args(["--probes", "launch", "--gpus", "MIG-7f3e"]);
    let (_, r) = json_report(&mut cmd);
    let dev = &r["facts"]["driver_api"]["cuda"]["value"]["devices"]["value"][0];
    assert_eq!(
        dev["uuid"]["value"], "MIG-7f3e0000-1111-2222-3333-444455556666",
        "{dev:#}"
    );
    let ran = probe_results(&r);
    assert_eq!(ran.len(), 1, "{ran:#?}");
    assert_eq!(ran[0]["cuda_ordinal"], 0);
    assert_eq!(ran[0]["outcome"]["status"], "passed");
}
