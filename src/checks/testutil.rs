//! Fact sets for check tests: a healthy one-GPU node and a machine without any GPU;
//! each test changes the few facts it is about.

use std::collections::BTreeMap;

use crate::fact::Fact;
use crate::facts::driver_api::{CudaFacts, DriverApiFacts, NvmlDevice, NvmlFacts, ReturnCode};
use crate::facts::driver_libs::{DriverLibFacts, DriverLibFile};
use crate::facts::kernel_module::{DeviceNode, KernelModuleFacts, ModuleFlavor};
use crate::facts::nvml_device::{EccState, MigState, PcieLink, RowRemap};
use crate::facts::pci::PciGpu;
use crate::facts::python::{ArchList, PythonEnv, Requirement, TorchBuild, Wheel};
use crate::facts::system::SystemFacts;
use crate::facts::toolkit::{Toolkit, ToolkitFacts};
use crate::facts::Facts;
use crate::finding::{Finding, Severity};

use super::{CheckOptions, Ctx};

pub const DRIVER: &str = "580.95.05";

pub fn ok_code(name: &str) -> ReturnCode {
    ReturnCode {
        name: name.into(),
        code: 0,
        message: None,
    }
}

pub fn code(name: &str, code: i64) -> ReturnCode {
    ReturnCode {
        name: name.into(),
        code,
        message: None,
    }
}

fn node(path: &str) -> DeviceNode {
    DeviceNode {
        path: path.into(),
        accessible: true,
        mode: "crw-rw-rw- root:root".into(),
    }
}

pub fn lib(library: &str, version: &str, dir: &str, compat: bool) -> DriverLibFile {
    DriverLibFile {
        path: format!("{dir}/{library}.so.{version}"),
        library: library.into(),
        version: version.into(),
        compat,
        on_loader_path: !compat,
    }
}

pub fn healthy() -> Facts {
    let libdir = "/usr/lib/x86_64-linux-gnu";
    Facts {
        system: SystemFacts {
            os: Fact::known("Ubuntu 22.04.4 LTS".into()),
            os_id: Fact::known("ubuntu".into()),
            os_version: Fact::known("22.04".into()),
            kernel: Fact::known("5.15.0-105-generic".into()),
            arch: "x86_64".into(),
            hostname: Fact::known("node01".into()),
            container: Fact::known(None),
            wsl: false,
            shm_bytes: Fact::known(64 * 1024 * 1024 * 1024),
            machine_id_hash: Fact::missing("not gathered"),
            boot_id: Fact::missing("not gathered"),
        },
        pci_gpus: Fact::known(vec![PciGpu {
            bus_id: "0000:18:00.0".into(),
            vendor_id: "10de".into(),
            device_id: "2330".into(),
            subsystem_vendor_id: None,
            subsystem_device_id: None,
            class: "030200".into(),
            driver: Some("nvidia".into()),
        }]),
        kernel_module: KernelModuleFacts {
            version: Fact::known(DRIVER.into()),
            flavor: Fact::known(ModuleFlavor::Open),
            version_line: Fact::known(format!(
                "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  {DRIVER}  Release Build"
            )),
            loaded: Fact::known(vec!["nvidia".into(), "nvidia_uvm".into()]),
            device_nodes: Fact::known(vec![
                node("/dev/nvidiactl"),
                node("/dev/nvidia0"),
                node("/dev/nvidia-uvm"),
            ]),
        },
        driver_libs: DriverLibFacts {
            searched: vec![libdir.into()],
            files: vec![
                lib("libnvidia-ml", DRIVER, libdir, false),
                lib("libcuda", DRIVER, libdir, false),
            ],
            nvml_soname: Some(format!("{libdir}/libnvidia-ml.so.{DRIVER}")),
            cuda_soname: Some(format!("{libdir}/libcuda.so.{DRIVER}")),
            cuda_stub: None,
        },
        driver_api: DriverApiFacts {
            nvml: Fact::known(NvmlFacts {
                library: "libnvidia-ml.so.1".into(),
                init: ok_code("NVML_SUCCESS"),
                driver_version: Fact::known(DRIVER.into()),
                cuda_driver_version: Fact::known("13.0".into()),
                devices: Fact::known(vec![gpu(0, "NVIDIA H100 80GB HBM3", "00000000:18:00.0")]),
            }),
            cuda: Fact::known(CudaFacts {
                library: "libcuda.so.1".into(),
                init: ok_code("CUDA_SUCCESS"),
                driver_version: Fact::known("13.0".into()),
                device_count: Fact::known(1),
                devices: Fact::known(vec![cuda_device(
                    0,
                    Some(0),
                    "NVIDIA H100 80GB HBM3",
                    "0000:18:00.0",
                    "GPU-0a1b2c3d-0000-1111-2222-333344445555",
                )]),
            }),
        },
        toolkits: ToolkitFacts {
            toolkits: vec![Toolkit {
                root: "/usr/local/cuda-12.4".into(),
                version: Fact::known("12.4.131".into()),
                version_source: Some("version.json".into()),
                nvcc: Some("/usr/local/cuda-12.4/bin/nvcc".into()),
                found_via: vec!["PATH".into(), "/usr/local/cuda".into()],
            }],
            path_nvcc: Some("/usr/local/cuda-12.4".into()),
            cuda_home: None,
            usr_local_cuda: Some("/usr/local/cuda-12.4".into()),
        },
        python: vec![python_env(
            "/opt/venv/bin/python",
            vec![torch(
                "/opt/venv/lib/python3.11/site-packages/torch",
                "2.4.1+cu124",
                Some("12.4"),
            )],
        )],
        env: BTreeMap::new(),
        ld_library_path_libs: Vec::new(),
        probes: Vec::new(),
        kernel_log: Fact::known(crate::facts::kernel_log::KernelLogFacts {
            source: "/dev/kmsg".into(),
            window: "since boot".into(),
            lines: 1200,
            truncated: false,
            xids: Vec::new(),
            sxids: Vec::new(),
            events_dropped: 0,
            unreadable: Vec::new(),
        }),
        skipped: Vec::new(),
    }
}

/// A healthy GPU as NVML reports it: ECC on and clean, full PCIe link, idle, persistence
/// mode on, MIG supported but off, no processes.
pub fn gpu(index: u32, name: &str, bus: &str) -> NvmlDevice {
    NvmlDevice {
        index,
        name: Fact::known(name.into()),
        uuid: Fact::known(format!("GPU-0a1b2c3d-0000-1111-2222-{index:012}")),
        pci_bus_id: Fact::known(bus.into()),
        compute_capability: Fact::known("9.0".into()),
        memory_total_bytes: Fact::known(85_520_809_984),
        memory_used_bytes: Fact::known(553_648_128),
        memory_free_bytes: Fact::known(84_967_161_856),
        persistence_mode: Fact::known(true),
        mig: Fact::known(MigState {
            current_enabled: false,
            pending_enabled: false,
            instances: Vec::new(),
        }),
        compute_mode: Fact::known("default".into()),
        ecc: Fact::known(EccState {
            enabled: true,
            pending_enabled: true,
            volatile_corrected: Fact::known(0),
            volatile_uncorrected: Fact::known(0),
            aggregate_corrected: Fact::known(0),
            aggregate_uncorrected: Fact::known(0),
        }),
        retired_pages: Fact::unsupported(
            "nvmlDeviceGetRetiredPages_v2: NVML_ERROR_NOT_SUPPORTED (3)",
        ),
        row_remap: Fact::known(RowRemap {
            correctable: 0,
            uncorrectable: 0,
            pending: false,
            failed: false,
        }),
        pcie_link: Fact::known(PcieLink {
            current_gen: 5,
            current_width: 16,
            max_gen: 5,
            max_width: 16,
        }),
        throttle_reasons: Fact::known(vec!["gpu_idle".into()]),
        temperature_c: Fact::known(34),
        power_draw_mw: Fact::known(71_000),
        power_limit_mw: Fact::known(700_000),
        vbios: Fact::known("96.00.74.00.01".into()),
        processes: Fact::known(Vec::new()),
        lost: false,
    }
}

pub fn torch(path: &str, version: &str, cuda: Option<&str>) -> TorchBuild {
    TorchBuild {
        path: path.into(),
        site_packages: path.trim_end_matches("/torch").into(),
        git_version: None,
        bundled_libs: Vec::new(),
        version: Fact::known(version.into()),
        cuda: Fact::known(cuda.map(str::to_string)),
        hip: None,
        cudnn: Fact::known("9.1.0.70".into()),
        nccl: Fact::known("2.20.5".into()),
        installer: Fact::known("pip".into()),
        requires: if cuda.is_some() {
            vec![
                Requirement {
                    name: "nvidia-cublas-cu12".into(),
                    specifier: "==12.1.3.1".into(),
                    extras: Vec::new(),
                },
                Requirement {
                    name: "nvidia-cudnn-cu12".into(),
                    specifier: "==9.1.0.70".into(),
                    extras: Vec::new(),
                },
            ]
        } else {
            Vec::new()
        },
        arch: Fact::known(ArchList {
            sass: [
                "sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90",
            ]
            .map(String::from)
            .to_vec(),
            ptx: Vec::new(),
            ..ArchList::default()
        }),
    }
}

pub fn wheel(name: &str, version: &str, site: &str, libs: &[&str]) -> Wheel {
    Wheel {
        name: name.into(),
        version: version.into(),
        site_packages: site.into(),
        lib_dirs: vec![format!(
            "{site}/nvidia/{}/lib",
            name.trim_start_matches("nvidia-").trim_end_matches("-cu12")
        )],
        libraries: libs.iter().map(|l| (*l).to_string()).collect(),
    }
}

pub fn python_env(interpreter: &str, torch: Vec<TorchBuild>) -> PythonEnv {
    let site = "/opt/venv/lib/python3.11/site-packages";
    PythonEnv {
        interpreter: Some(interpreter.into()),
        origins: vec!["VIRTUAL_ENV".into()],
        python_version: Fact::known("3.11".into()),
        site_packages: vec![site.into()],
        torch,
        nvidia_wheels: vec![
            wheel(
                "nvidia-cublas-cu12",
                "12.1.3.1",
                site,
                &["libcublas.so.12", "libcublasLt.so.12"],
            ),
            wheel("nvidia-cudnn-cu12", "9.1.0.70", site, &["libcudnn.so.9"]),
        ],
        extensions: Vec::new(),
        is_venv: true,
        prefix: "/opt/venv".into(),
        deep: None,
    }
}

/// A machine with no NVIDIA hardware and no driver (like CI).
pub fn no_gpu() -> Facts {
    let mut f = healthy();
    f.pci_gpus = Fact::known(Vec::new());
    f.kernel_module = KernelModuleFacts {
        version: Fact::missing("/proc/driver/nvidia/version does not exist"),
        flavor: Fact::missing("kernel module not loaded"),
        version_line: Fact::missing("/proc/driver/nvidia/version does not exist"),
        loaded: Fact::known(Vec::new()),
        device_nodes: Fact::known(Vec::new()),
    };
    f.driver_libs = DriverLibFacts::default();
    f.driver_api = DriverApiFacts {
        nvml: Fact::missing("libnvidia-ml.so.1 not found"),
        cuda: Fact::missing("libcuda.so.1 not found"),
    };
    f.toolkits = ToolkitFacts {
        toolkits: Vec::new(),
        path_nvcc: None,
        cuda_home: None,
        usr_local_cuda: None,
    };
    f.python = Vec::new();
    f
}

/// Runs one check function with default options.
pub fn run(check: fn(&Ctx) -> Vec<Finding>, facts: &Facts) -> Vec<Finding> {
    run_with(check, facts, &CheckOptions::default())
}

/// The bundled matrix, parsed once for all tests.
pub fn matrix() -> &'static crate::matrix::Matrix {
    static M: std::sync::OnceLock<crate::matrix::Matrix> = std::sync::OnceLock::new();
    M.get_or_init(|| {
        crate::matrix::Matrix::bundled().unwrap_or_else(|p| panic!("bundled matrix invalid: {p:?}"))
    })
}

pub fn run_with(
    check: fn(&Ctx) -> Vec<Finding>,
    facts: &Facts,
    opts: &CheckOptions,
) -> Vec<Finding> {
    check(&Ctx {
        facts,
        opts,
        matrix: matrix(),
    })
}

/// The single finding's severity; panics (test-only) when the check emitted another count.
pub fn only(findings: &[Finding]) -> Severity {
    assert_eq!(findings.len(), 1, "expected one finding, got {findings:#?}");
    findings[0].severity
}

/// A CUDA device as the driver API reports an H100-like GPU.
pub fn cuda_device(
    ordinal: u32,
    nvml_index: Option<u32>,
    name: &str,
    bus: &str,
    uuid: &str,
) -> crate::facts::driver_api::CudaDevice {
    crate::facts::driver_api::CudaDevice {
        ordinal,
        name: Fact::known(name.into()),
        compute_capability: Fact::known("9.0".into()),
        memory_total_bytes: Fact::known(85_520_809_984),
        pci_bus_id: Fact::known(bus.into()),
        uuid: Fact::known(uuid.into()),
        sm_count: Fact::known(132),
        max_threads_per_block: Fact::known(1024),
        max_grid: Fact::known([2_147_483_647, 65535, 65535]),
        max_block: Fact::known([1024, 1024, 64]),
        shared_memory_per_block_bytes: Fact::known(49152),
        shared_memory_per_block_optin_bytes: Fact::known(232_448),
        shared_memory_per_sm_bytes: Fact::known(233_472),
        nvml_index,
    }
}
