//! Builds the fixture reports of tests/fixtures/reports from the library's own types and
//! checks, so they are real `Report`s: the facts of a few machines, judged by this
//! build's checks, plus the findings later releases add (probes, torch.arch_unsupported).
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::path::PathBuf;

use gpu_doctor::checks::{self, CheckOptions, Selection};
use gpu_doctor::fact::Fact;
use gpu_doctor::facts::driver_api::{CudaFacts, DriverApiFacts, NvmlDevice, NvmlFacts, ReturnCode};
use gpu_doctor::facts::driver_libs::{DriverLibFacts, DriverLibFile};
use gpu_doctor::facts::kernel_module::{DeviceNode, KernelModuleFacts, ModuleFlavor};
use gpu_doctor::facts::nvml_device::{EccState, MigState, PcieLink, RowRemap};
use gpu_doctor::facts::pci::PciGpu;
use gpu_doctor::facts::python::{ArchList, PythonEnv, Requirement, TorchBuild, Wheel};
use gpu_doctor::facts::system::SystemFacts;
use gpu_doctor::facts::toolkit::{Toolkit, ToolkitFacts};
use gpu_doctor::facts::Facts;
use gpu_doctor::probes::outcome::{ProbeKind, ProbeOutcome, ProbeResult};
use gpu_doctor::report::finding::{Finding, Scope};
use gpu_doctor::report::Report;

pub const NAMES: &[&str] = &[
    "healthy_8gpu",
    "no_driver",
    "mismatched_driver",
    "rtx5090_old_wheel",
    "probe_timeout",
    "container_no_gpu",
    "no_gpu",
    "twelve_gpu_probe_failures",
];

pub fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/reports")
}

pub fn path(name: &str) -> PathBuf {
    dir().join(format!("{name}.json"))
}

/// The committed fixture, read back as a `Report`.
pub fn load(name: &str) -> Report {
    let text = std::fs::read_to_string(path(name)).unwrap();
    Report::from_json(text.as_bytes()).unwrap()
}

/// The fixtures' `generated_at`.
pub const GENERATED_AT: &str = "2000-01-01T00:00:00Z";

/// What the fixtures say for the bundled matrix's version (a date that changes with every
/// matrix release): the fixtures and the snapshots drawn from them stay the same across
/// matrix releases unless a judgement changes.
pub const MATRIX_VERSION: &str = "2000-01-01";

/// The report with the bundled matrix's version replaced by [`MATRIX_VERSION`] (in the
/// matrix info and in the texts that quote it, e.g. "as of the matrix date").
fn pin_matrix_version(report: Report) -> Report {
    let version = gpu_doctor::matrix::bundled().version;
    let json = serde_json::to_string(&report)
        .unwrap()
        .replace(&version, MATRIX_VERSION);
    Report::from_json(json.as_bytes()).unwrap()
}

pub fn generate(name: &str) -> Report {
    pin_matrix_version(generate_live(name))
}

fn generate_live(name: &str) -> Report {
    match name {
        "healthy_8gpu" => healthy_8gpu(),
        "no_driver" => no_driver(),
        "mismatched_driver" => mismatched_driver(),
        "rtx5090_old_wheel" => rtx5090_old_wheel(),
        "probe_timeout" => probe_timeout(),
        "container_no_gpu" => container_no_gpu(),
        "no_gpu" => no_gpu(),
        "twelve_gpu_probe_failures" => twelve_gpu_probe_failures(),
        other => panic!("no fixture {other}"),
    }
}

fn ok(name: &str) -> ReturnCode {
    ReturnCode {
        name: name.into(),
        code: 0,
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

fn lib(library: &str, version: &str) -> DriverLibFile {
    DriverLibFile {
        path: format!("/usr/lib/x86_64-linux-gnu/{library}.so.{version}"),
        library: library.into(),
        version: version.into(),
        compat: false,
        on_loader_path: true,
    }
}

fn bus(i: usize) -> String {
    format!("0000:{:02x}:00.0", 0x18 + i * 0x11)
}

fn device(i: usize, name: &str, cc: &str, mem: u64) -> NvmlDevice {
    NvmlDevice {
        index: i as u32,
        name: Fact::known(name.into()),
        uuid: Fact::known(format!("GPU-0a1b2c3d-0000-1111-2222-{i:012}")),
        pci_bus_id: Fact::known(format!("0000{}", bus(i))),
        compute_capability: Fact::known(cc.into()),
        memory_total_bytes: Fact::known(mem),
        memory_used_bytes: Fact::known(553_648_128),
        memory_free_bytes: Fact::known(mem - 553_648_128),
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
        nvlinks: gpu_doctor::facts::nvml_device::not_in_report(),
        fabric: gpu_doctor::facts::nvml_device::not_in_report(),
        lost: false,
    }
}

fn arch(sass: &[&str]) -> Fact<ArchList> {
    Fact::known(ArchList {
        sass: sass.iter().map(|s| (*s).to_string()).collect(),
        ptx: Vec::new(),
        arch_flags: sass.iter().map(|s| (*s).to_string()).collect(),
        libraries: vec!["libtorch_cuda.so".into()],
    })
}

fn torch_env(prefix: &str, version: &str, cuda: &str, sass: &[&str]) -> PythonEnv {
    let site = format!("{prefix}/lib/python3.11/site-packages");
    let wheel = |name: &str, v: &str, lib: &str| Wheel {
        name: name.into(),
        version: v.into(),
        site_packages: site.clone(),
        lib_dirs: vec![format!("{site}/nvidia/{}/lib", &name[7..name.len() - 5])],
        libraries: vec![lib.into()],
    };
    PythonEnv {
        interpreter: Some(format!("{prefix}/bin/python")),
        origins: vec!["VIRTUAL_ENV".into()],
        python_version: Fact::known("3.11.9".into()),
        site_packages: vec![site.clone()],
        torch: vec![TorchBuild {
            path: format!("{site}/torch"),
            site_packages: site.clone(),
            version: Fact::known(version.into()),
            cuda: Fact::known(Some(cuda.into())),
            hip: None,
            git_version: None,
            cudnn: Fact::known("9.1.0.70".into()),
            nccl: Fact::known("2.20.5".into()),
            installer: Fact::known("pip".into()),
            requires: vec![
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
            ],
            arch: arch(sass),
            bundled_libs: Vec::new(),
        }],
        nvidia_wheels: vec![
            wheel("nvidia-cublas-cu12", "12.1.3.1", "libcublas.so.12"),
            wheel("nvidia-cudnn-cu12", "9.1.0.70", "libcudnn.so.9"),
        ],
        extensions: Vec::new(),
        is_venv: true,
        prefix: prefix.into(),
        deep: None,
    }
}

const OLD_SASS: &[&str] = &[
    "sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90",
];

/// A node with `gpus` GPUs of one kind and a working driver.
fn node_facts(
    host: &str,
    gpus: usize,
    name: &str,
    cc: &str,
    mem: u64,
    driver: &str,
    cuda: &str,
) -> Facts {
    let mut nodes = vec![node("/dev/nvidiactl"), node("/dev/nvidia-uvm")];
    nodes.extend((0..gpus).map(|i| node(&format!("/dev/nvidia{i}"))));
    Facts {
        system: SystemFacts {
            os: Fact::known("Ubuntu 22.04.4 LTS".into()),
            os_id: Fact::known("ubuntu".into()),
            os_version: Fact::known("22.04".into()),
            kernel: Fact::known("5.15.0-105-generic".into()),
            arch: "x86_64".into(),
            hostname: Fact::known(host.into()),
            container: Fact::known(None),
            wsl: false,
            shm_bytes: Fact::known(64 << 30),
            machine_id_hash: Fact::missing("not gathered"),
            boot_id: Fact::missing("not gathered"),
        },
        pci_gpus: Fact::known(
            (0..gpus)
                .map(|i| PciGpu {
                    bus_id: bus(i),
                    vendor_id: "10de".into(),
                    device_id: "2330".into(),
                    subsystem_vendor_id: None,
                    subsystem_device_id: None,
                    class: "030200".into(),
                    driver: Some("nvidia".into()),
                })
                .collect(),
        ),
        kernel_module: KernelModuleFacts {
            version: Fact::known(driver.into()),
            flavor: Fact::known(ModuleFlavor::Open),
            version_line: Fact::known(format!(
                "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  {driver}  Release Build"
            )),
            loaded: Fact::known(vec!["nvidia".into(), "nvidia_uvm".into()]),
            device_nodes: Fact::known(nodes),
        },
        driver_libs: DriverLibFacts {
            searched: vec!["/usr/lib/x86_64-linux-gnu".into()],
            files: vec![lib("libnvidia-ml", driver), lib("libcuda", driver)],
            nvml_soname: Some(format!(
                "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.{driver}"
            )),
            cuda_soname: Some(format!("/usr/lib/x86_64-linux-gnu/libcuda.so.{driver}")),
            cuda_stub: None,
        },
        driver_api: DriverApiFacts {
            nvml: Fact::known(NvmlFacts {
                library: "libnvidia-ml.so.1".into(),
                init: ok("NVML_SUCCESS"),
                driver_version: Fact::known(driver.into()),
                cuda_driver_version: Fact::known(cuda.into()),
                devices: Fact::known((0..gpus).map(|i| device(i, name, cc, mem)).collect()),
                pairs: Fact::missing("not in this fixture"),
            }),
            cuda: Fact::known(CudaFacts {
                library: "libcuda.so.1".into(),
                init: ok("CUDA_SUCCESS"),
                driver_version: Fact::known(cuda.into()),
                device_count: Fact::known(gpus as u32),
                devices: Fact::missing("not in this fixture"),
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
        python: vec![torch_env("/opt/venv", "2.4.1+cu121", "12.1", OLD_SASS)],
        env: BTreeMap::new(),
        ld_library_path_libs: Vec::new(),
        probes: Vec::new(),
        kernel_log: gpu_doctor::facts::kernel_log::not_gathered(),
        fabric_manager: gpu_doctor::facts::nvlink::fm_not_gathered(),
        skipped: Vec::new(),
    }
}

fn judge(facts: Facts, extra: Vec<Finding>) -> Report {
    let (mut findings, errors) = checks::evaluate(
        &facts,
        &bundled_matrix(),
        &CheckOptions::default(),
        &Selection::default(),
    );
    findings.extend(extra);
    let mut report = Report::new(gpu_doctor::matrix::bundled(), facts, findings, errors);
    // A fixed time, so the committed fixtures stay the same from run to run.
    report.generated_at = GENERATED_AT.to_string();
    report
}

fn gpu(i: u32) -> Scope {
    Scope::Gpu {
        index: Some(i),
        pci_bus_id: None,
    }
}

/// A probe result as a worker reports it; the real probe checks turn it into findings.
fn probe(kind: ProbeKind, i: u32, ms: u64, outcome: ProbeOutcome) -> ProbeResult {
    ProbeResult {
        probe: kind,
        cuda_ordinal: i,
        nvml_index: Some(i),
        gpu_name: Some(H100.into()),
        pci_bus_id: Some(bus(i as usize)),
        elapsed_ms: ms,
        outcome,
        pairs: Vec::new(),
    }
}

fn passed(summary: &str) -> ProbeOutcome {
    ProbeOutcome::Passed {
        summary: summary.into(),
        measurements: Vec::new(),
        notes: Vec::new(),
    }
}

const H100: &str = "NVIDIA H100 80GB HBM3";
const H100_MEM: u64 = 85_520_809_984;

/// 8 × H100, everything working, probes passed: exactly 100 findings.
fn healthy_8gpu() -> Report {
    let mut facts = node_facts("dgx-07", 8, H100, "9.0", H100_MEM, "580.95.05", "13.0");
    facts.python[0] = torch_env("/opt/venv", "2.4.1+cu124", "12.4", OLD_SASS);
    for (prefix, torch, cuda) in [
        ("/opt/conda/envs/train", "2.5.1+cu124", "12.4"),
        ("/home/ana/venvs/eval", "2.4.1+cu124", "12.4"),
        ("/home/ana/venvs/serve", "2.5.1+cu124", "12.4"),
    ] {
        facts.python.push(torch_env(prefix, torch, cuda, OLD_SASS));
    }
    for i in 0..8u32 {
        for (n, kind) in ProbeKind::ALL.into_iter().enumerate() {
            let ms = 40 + u64::from(i) * 3 + n as u64 * 17;
            facts.probes.push(probe(
                kind,
                i,
                ms,
                passed(&format!("the {} probe passed", kind.as_str())),
            ));
        }
    }
    let r = judge(facts, Vec::new());
    assert!(r.findings.len() >= 100, "{}", r.findings.len());
    r
}

/// Two GPUs on the PCI bus and no driver at all.
fn no_driver() -> Report {
    let mut facts = node_facts("fresh-node", 2, H100, "9.0", H100_MEM, "x", "x");
    if let Fact::Known { value } = &mut facts.pci_gpus {
        for g in value {
            g.driver = None;
        }
    }
    facts.kernel_module = KernelModuleFacts {
        version: Fact::missing("/proc/driver/nvidia/version does not exist"),
        flavor: Fact::missing("kernel module not loaded"),
        version_line: Fact::missing("/proc/driver/nvidia/version does not exist"),
        loaded: Fact::known(Vec::new()),
        device_nodes: Fact::known(Vec::new()),
    };
    facts.driver_libs = DriverLibFacts::default();
    facts.driver_api = DriverApiFacts {
        nvml: Fact::missing("libnvidia-ml.so.1 not found"),
        cuda: Fact::missing("libcuda.so.1 not found"),
    };
    judge(facts, Vec::new())
}

/// Kernel module 550.54.15, user space upgraded to 550.90.07 without a reboot.
fn mismatched_driver() -> Report {
    let mut facts = node_facts("gpu-12", 4, H100, "9.0", H100_MEM, "550.54.15", "12.4");
    facts.driver_libs.files = vec![
        lib("libnvidia-ml", "550.90.07"),
        lib("libcuda", "550.90.07"),
    ];
    facts.driver_libs.nvml_soname =
        Some("/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.550.90.07".into());
    facts.driver_libs.cuda_soname = Some("/usr/lib/x86_64-linux-gnu/libcuda.so.550.90.07".into());
    facts.driver_api = DriverApiFacts {
        nvml: Fact::known(NvmlFacts {
            library: "libnvidia-ml.so.1".into(),
            init: ReturnCode {
                name: "NVML_ERROR_LIB_RM_VERSION_MISMATCH".into(),
                code: 18,
                message: Some("RM has detected an NVML/RM version mismatch.".into()),
            },
            driver_version: Fact::failed("nvmlInit failed"),
            cuda_driver_version: Fact::failed("nvmlInit failed"),
            devices: Fact::failed("nvmlInit failed"),
            pairs: Fact::failed("nvmlInit failed"),
        }),
        cuda: Fact::known(CudaFacts {
            library: "libcuda.so.1".into(),
            init: ReturnCode {
                name: "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH".into(),
                code: 803,
                message: None,
            },
            driver_version: Fact::known("12.4".into()),
            device_count: Fact::failed("cuInit failed"),
            devices: Fact::missing("cuInit failed"),
        }),
    };
    judge(facts, Vec::new())
}

/// One RTX 5090 (sm_120) with a torch wheel built up to sm_90.
fn rtx5090_old_wheel() -> Report {
    let mut facts = node_facts(
        "workstation",
        1,
        "NVIDIA GeForce RTX 5090",
        "12.0",
        34_190_917_632,
        "570.86.16",
        "12.8",
    );
    if let Fact::Known { value } = &mut facts.pci_gpus {
        value[0].device_id = "2b85".into();
        value[0].class = "030000".into();
    }
    // torch.arch_unsupported comes from the real check and the bundled matrix.
    judge(facts, Vec::new())
}

/// Two GPUs; the launch probe passes on GPU 0 and times out on GPU 1.
fn probe_timeout() -> Report {
    let mut facts = node_facts("gpu-03", 2, H100, "9.0", H100_MEM, "550.54.15", "12.4");
    facts.probes = vec![
        probe(
            ProbeKind::Launch,
            0,
            42,
            passed("kernel JIT-compiled in 12.0 ms, ran in 0.41 ms; all 1048576 results correct"),
        ),
        probe(
            ProbeKind::Launch,
            1,
            10_000,
            ProbeOutcome::TimedOut {
                after_ms: 10_000,
                stderr_tail: String::new(),
                limit_ms: None,
            },
        ),
    ];
    judge(facts, Vec::new())
}

/// 12 × H100 (GPU indexes 0–11, so "GPU 1" is a prefix of "GPU 10" and "GPU 11"): every
/// probe passes but the launch probe on GPU 1 (timed out), cuBLASLt on GPU 10 (failed)
/// and the OOM probe on GPU 11 (crashed). NVML finds every GPU healthy.
fn twelve_gpu_probe_failures() -> Report {
    let mut facts = node_facts("hgx-12", 12, H100, "9.0", H100_MEM, "550.54.15", "12.4");
    for i in 0..12u32 {
        for (n, kind) in ProbeKind::ALL.into_iter().enumerate() {
            let ms = 40 + u64::from(i) * 3 + n as u64 * 17;
            let outcome = match (i, kind) {
                (1, ProbeKind::Launch) => ProbeOutcome::TimedOut {
                    after_ms: 10_000,
                    stderr_tail: String::new(),
                    limit_ms: None,
                },
                (10, ProbeKind::Cublaslt) => ProbeOutcome::Failed {
                    reason: "cublasLtMatmul returned CUBLAS_STATUS_EXECUTION_FAILED (13)".into(),
                    code: None,
                    measurements: Vec::new(),
                    notes: Vec::new(),
                },
                (11, ProbeKind::Oom) => ProbeOutcome::Crashed {
                    signal: Some(11),
                    exit_status: None,
                    stderr_tail: "Segmentation fault".into(),
                },
                _ => passed(&format!("the {} probe passed", kind.as_str())),
            };
            let ms = if matches!(outcome, ProbeOutcome::TimedOut { .. }) {
                10_000
            } else {
                ms
            };
            facts.probes.push(probe(kind, i, ms, outcome));
        }
    }
    judge(facts, Vec::new())
}

/// Inside docker without `--gpus`: the host's GPUs and kernel module show through /sys
/// and /proc, but there are no device nodes and no driver libraries.
fn container_no_gpu() -> Report {
    let mut facts = node_facts(
        "3f9c2a1b7d0e",
        2,
        H100,
        "9.0",
        H100_MEM,
        "550.54.15",
        "12.4",
    );
    facts.system.container = Fact::known(Some("docker".into()));
    facts.kernel_module.device_nodes = Fact::known(Vec::new());
    facts.driver_libs = DriverLibFacts::default();
    facts.driver_api = DriverApiFacts {
        nvml: Fact::missing("libnvidia-ml.so.1 not found"),
        cuda: Fact::missing("libcuda.so.1 not found"),
    };
    facts.python = Vec::new();
    judge(facts, Vec::new())
}

/// A machine with no NVIDIA hardware at all (a CI runner, a laptop).
fn no_gpu() -> Report {
    let mut facts = no_driver().facts;
    facts.system.hostname = Fact::known("ci-runner".into());
    facts.pci_gpus = Fact::known(Vec::new());
    facts.toolkits = ToolkitFacts {
        toolkits: Vec::new(),
        path_nvcc: None,
        cuda_home: None,
        usr_local_cuda: None,
    };
    facts.python = Vec::new();
    judge(facts, Vec::new())
}

fn bundled_matrix() -> gpu_doctor::matrix::Matrix {
    gpu_doctor::matrix::Matrix::bundled().expect("the bundled matrix loads")
}
