//! End to end, issue #18 "unknown is never healthy": driver libraries and device nodes
//! broken in ways that used to read as a healthy machine (exit 0). Each case is a row:
//! how the driver is broken, the finding that must say so, its severity, and the exit code.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "common/broken_driver.rs"]
mod broken_driver;
#[path = "common/fake_driver.rs"]
mod fake_driver;
mod fixture_root;

use std::path::Path;
use std::time::{Duration, Instant};

use fixture_root::{finding, json_report, problems, FixtureRoot};

const H100: &str = "NVIDIA H100 80GB HBM3,9.0,85520809984,00000000:01:00.0,GPU-0a1b2c3d";
/// Every case runs the driver worker at most twice; far above what a healthy run takes.
const TIME_BOUND: Duration = Duration::from_secs(60);

fn gpu_node() -> FixtureRoot {
    let root = FixtureRoot::ubuntu();
    root.gpu(Some("nvidia"))
        .kernel_module("550.54.15")
        .user_space("550.54.15")
        .device_nodes(1);
    root
}

struct Case {
    name: &'static str,
    lib_dir: &'static Path,
    vars: &'static [(&'static str, &'static str)],
    id: &'static str,
    severity: &'static str,
    exit: i32,
}

fn check(case: &Case, root: &FixtureRoot) {
    let mut cmd = root.command();
    cmd.env("GPU_DOCTOR_DRIVER_LIB_DIR", case.lib_dir)
        .env("FAKE_NVML_GPUS", H100)
        .env("FAKE_NVML_DRIVER_VERSION", "550.54.15");
    for (k, v) in case.vars {
        cmd.env(k, v);
    }
    let started = Instant::now();
    let (code, r) = json_report(&mut cmd);
    assert!(
        started.elapsed() < TIME_BOUND,
        "{}: took {:?}",
        case.name,
        started.elapsed()
    );
    let f = finding(&r, case.id);
    assert_eq!(
        f["severity"],
        case.severity,
        "{}: {f:#}\nall: {:?}",
        case.name,
        problems(&r)
    );
    assert_eq!(code, case.exit, "{}: {:?}", case.name, problems(&r));
}

#[test]
fn broken_driver_libraries_are_never_healthy() {
    let current: &'static Path = &fake_driver::fake_driver().current;
    let broken = broken_driver::broken_drivers(current);
    let cases = [
        Case {
            name: "libcuda.so.1 and libnvidia-ml.so.1 without cuInit / nvmlInit_v2",
            lib_dir: &broken.no_init,
            vars: &[],
            id: "driver.cuda_init_failed",
            severity: "fail",
            exit: 2,
        },
        Case {
            name: "libnvidia-ml.so.1 without nvmlInit_v2",
            lib_dir: &broken.no_init,
            vars: &[],
            id: "driver.nvml_failed",
            severity: "fail",
            exit: 2,
        },
        Case {
            name: "both libraries random bytes (libcuda)",
            lib_dir: &broken.random_bytes,
            vars: &[],
            id: "driver.cuda_init_failed",
            severity: "fail",
            exit: 2,
        },
        Case {
            name: "both libraries random bytes (NVML)",
            lib_dir: &broken.random_bytes,
            vars: &[],
            id: "driver.nvml_failed",
            severity: "fail",
            exit: 2,
        },
        Case {
            name: "both libraries 0-byte files",
            lib_dir: &broken.empty,
            vars: &[],
            id: "driver.nvml_failed",
            severity: "fail",
            exit: 2,
        },
        Case {
            name: "nvmlDeviceGetCount_v2 -> NVML_ERROR_UNKNOWN",
            lib_dir: current,
            vars: &[("FAKE_NVML_COUNT_ERROR", "999")],
            id: "driver.nvml_failed",
            severity: "fail",
            exit: 2,
        },
        Case {
            name: "NVML lists 0 GPUs while PCI and CUDA show one",
            lib_dir: current,
            vars: &[("FAKE_NVML_GPUS", ""), ("FAKE_CUDA_GPUS", H100)],
            id: "gpu.missing",
            severity: "fail",
            exit: 2,
        },
        Case {
            name: "cuInit fine but 0 CUDA devices while NVML and PCI see one",
            lib_dir: current,
            vars: &[("FAKE_CUDA_COUNT", "0")],
            id: "gpu.missing",
            severity: "fail",
            exit: 2,
        },
        Case {
            name: "cuDeviceGetCount -> 999",
            lib_dir: current,
            vars: &[("FAKE_CUDA_COUNT_ERROR", "999")],
            id: "driver.cuda_init_failed",
            severity: "fail",
            exit: 2,
        },
        Case {
            name: "cuDeviceGetCount -> -5",
            lib_dir: current,
            vars: &[("FAKE_CUDA_COUNT", "-5")],
            id: "driver.cuda_init_failed",
            severity: "fail",
            exit: 2,
        },
    ];
    for case in &cases {
        check(case, &gpu_node());
    }
}

#[test]
fn impostor_device_nodes_fail() {
    let current: &'static Path = &fake_driver::fake_driver().current;
    // Docker creates an empty directory for a bind-mounted device that did not exist.
    let root = FixtureRoot::ubuntu();
    root.gpu(Some("nvidia"))
        .kernel_module("550.54.15")
        .user_space("550.54.15")
        .nodes(&["nvidiactl", "nvidia-uvm"]);
    std::fs::create_dir_all(root.path("dev/nvidia0")).unwrap();
    let case = Case {
        name: "/dev/nvidia0 is a directory",
        lib_dir: current,
        vars: &[],
        id: "driver.device_nodes",
        severity: "fail",
        exit: 2,
    };
    check(&case, &root);

    let root = FixtureRoot::ubuntu();
    root.gpu(Some("nvidia"))
        .kernel_module("550.54.15")
        .user_space("550.54.15")
        .nodes(&["nvidiactl", "nvidia-uvm"]);
    let fifo = root.path("dev/nvidia0");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(status.success());
    let case = Case {
        name: "/dev/nvidia0 is a FIFO",
        ..case
    };
    check(&case, &root);
}
