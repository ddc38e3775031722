//! `gpu-doctor diagnose --collect-env FILE [--log FILE]`: judges a machine from its
//! `python -m torch.utils.collect_env` output. The paste replaces step 1 of the pipeline
//! (its facts, each absent one `Missing` with the way to get it), the same checks run on
//! them with the matrix, and the error the person saw (`--log`, else warnings inside the
//! paste) is explained and refined with the findings.

pub mod collect_env;
mod combine;
pub mod paste;
mod verdict;

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;

use crate::checks::{self, CheckOptions, Selection};
use crate::error::AppError;
use crate::explain::{self, Explanation};
use crate::fact::Fact;
use crate::facts::driver_api::{CudaFacts, DriverApiFacts, NvmlDevice, NvmlFacts, ReturnCode};
use crate::facts::driver_libs::DriverLibFacts;
use crate::facts::kernel_module::KernelModuleFacts;
use crate::facts::python::{DeepTorch, PythonEnv, TorchBuild, Wheel};
use crate::facts::system::SystemFacts;
use crate::facts::toolkit::{Toolkit, ToolkitFacts};
use crate::facts::Facts;
use crate::finding::{Finding, Severity};
use crate::matrix::Matrix;
use crate::report::{text, Report};
use collect_env::CollectEnv;

/// The interpreter name findings about the paste's Python environment carry.
pub const PASTE_PYTHON: &str = "python";
const FROM_PASTE: &str = "nvidia-smi / torch (collect_env paste)";

fn missing(what: &str, how: &str) -> String {
    format!("not in the collect_env paste: {what}; get it with {how}")
}

/// Checks whose facts a collect_env paste never holds: (check id, the fact, how to get
/// it), from the catalogue's `not_in_paste`, in report order.
pub static NOT_IN_PASTE: std::sync::LazyLock<Vec<(&'static str, &'static str, &'static str)>> =
    std::sync::LazyLock::new(|| {
        crate::checks::ALL
            .iter()
            .filter_map(|c| c.not_in_paste.map(|g| (c.id, g.what, g.how)))
            .collect()
    });

/// Findings that are symptoms of another finding's cause: named as the cause only when
/// nothing more specific fails.
const SYMPTOMS: &[&str] = &[
    "torch.cuda_unavailable",
    "driver.cuda_init_failed",
    "host.expected_gpus",
];

/// Findings that advise rather than explain a failure (the machine still runs the work):
/// never the diagnosis' cause.
const ADVISORY: &[&str] = &[
    "driver.branch_eol",
    "toolkit.not_found",
    "driver.persistence_off",
    // CUDA minor-version compatibility runs PyTorch's wheels; it only limits PTX JIT.
    "driver.minor_version_compat",
];

/// Causes that make CUDA unusable: a paste that says `Is CUDA available: True` rules
/// them out for the process it describes.
const UNAVAILABILITY: &[&str] = &[
    "driver.too_old_for_torch",
    "driver.gpu_unsupported",
    "driver.not_installed",
    "driver.module_not_loaded",
    "driver.library_mismatch",
    "driver.compat_package_mismatch",
    "driver.forward_compat_unsupported",
    "driver.fabric_manager",
    "driver.uvm_unavailable",
    "driver.device_nodes",
    "driver.nvml_failed",
    "driver.cuda_init_failed",
    "host.container_no_gpu",
    "host.no_nvidia_gpu",
    "torch.cpu_only",
    "torch.cuda_unavailable",
    "env.visible_devices_empty",
];

/// Causes a pasted nvidia-smi table of GPUs rules out: the driver is installed, its kernel
/// module loaded and bound to the GPUs, and NVML matched it (where nvidia-smi ran).
const SMI_ANSWERED_RULES_OUT: &[&str] = &[
    "driver.not_installed",
    "driver.module_not_loaded",
    "driver.nouveau_loaded",
    "driver.library_mismatch",
    "driver.nvml_failed",
    "host.no_nvidia_gpu",
];

/// Minimum compute capability of the released wheels of CUDA packages collect_env lists, and
/// of Ollama, whose version its issue form gives (their documented GPU requirements): (pip
/// name, major, minor, source).
const PACKAGE_MIN_CC: &[(&str, u32, u32, &str)] = &[
    (
        "vllm",
        7,
        0,
        "vLLM's GPU requirements: compute capability 7.0 or higher",
    ),
    (
        "flash-attn",
        8,
        0,
        "FlashAttention-2 supports Ampere, Ada and Hopper GPUs (compute capability 8.0+)",
    ),
    (
        "flash_attn",
        8,
        0,
        "FlashAttention-2 supports Ampere, Ada and Hopper GPUs (compute capability 8.0+)",
    ),
    (
        "ollama",
        5,
        0,
        "Ollama's hardware support page (docs.ollama.com/gpu): NVIDIA GPUs of compute capability 5.0 or newer",
    ),
];

#[derive(Debug, Clone, Serialize)]
pub struct Diagnosis {
    /// The cause, a finding id, or "none" when the paste shows nothing wrong.
    pub cause: String,
    /// Where it came from: "log", "paste warnings", "findings", "paste" (what the paste
    /// observed or said beside the error) or "none".
    pub from: String,
    pub summary: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub log: Option<Explanation>,
    pub collect_env: CollectEnv,
    #[serde(skip)]
    pub report: Report,
}

fn os_id(os: &str) -> Option<&'static str> {
    let l = os.to_ascii_lowercase();
    [
        ("ubuntu", "ubuntu"),
        ("debian", "debian"),
        ("centos", "centos"),
        ("red hat", "rhel"),
        ("rhel", "rhel"),
        ("rocky", "rocky"),
        ("alma", "almalinux"),
        ("fedora", "fedora"),
        ("amazon linux", "amzn"),
        ("opensuse", "opensuse-leap"),
        ("suse", "sles"),
        ("arch linux", "arch"),
        ("windows", "windows"),
        ("macos", "macos"),
    ]
    .iter()
    .find(|(k, _)| l.contains(k))
    .map(|(_, id)| *id)
}

/// The facts a collect_env paste gives; everything else `Missing` with how to get it.
pub fn facts_from(ce: &CollectEnv) -> Facts {
    let nvidia = ce.rocm.is_none();
    let os_value = ce.os.as_deref().map(|o| {
        o.trim_end_matches(" (x86_64)")
            .trim_end_matches(" (aarch64)")
            .trim_end_matches(" (ppc64le)")
            .to_string()
    });
    let linux_native = !ce.is_windows() && !ce.is_wsl();
    let system = SystemFacts {
        os: os_value.clone().map_or_else(
            || Fact::missing(missing("the OS line", "`cat /etc/os-release`")),
            Fact::known,
        ),
        os_id: os_value.as_deref().and_then(os_id).map_or_else(
            || Fact::missing(missing("the OS id", "`cat /etc/os-release`")),
            |s| Fact::known(s.to_string()),
        ),
        os_version: Fact::missing(missing("VERSION_ID", "`cat /etc/os-release`")),
        kernel: ce.kernel().map_or_else(
            || Fact::missing(missing("the kernel release", "`uname -r`")),
            Fact::known,
        ),
        arch: ce.arch().unwrap_or_else(|| "x86_64".to_string()),
        hostname: Fact::missing("not in the collect_env paste"),
        container: Fact::missing(missing(
            "whether it runs in a container",
            "`gpu-doctor` inside it",
        )),
        wsl: ce.is_wsl(),
        shm_bytes: Fact::missing(missing("the size of /dev/shm", "`df -h /dev/shm`")),
        machine_id_hash: Fact::missing("not in the collect_env paste"),
        boot_id: Fact::missing("not in the collect_env paste"),
    };
    let driver_fact = |what: &str| -> Fact<String> {
        ce.driver
            .clone()
            .map_or_else(|| Fact::missing(missing(what, "`nvidia-smi`")), Fact::known)
    };
    let kernel_module = KernelModuleFacts {
        version: if linux_native && nvidia {
            driver_fact("the driver version")
        } else {
            Fact::missing("a Windows/WSL paste: the driver is the Windows host's")
        },
        flavor: Fact::missing(missing("the kernel module's flavour", "`modinfo nvidia`")),
        version_line: Fact::missing(missing(
            "/proc/driver/nvidia/version",
            "`cat /proc/driver/nvidia/version`",
        )),
        loaded: Fact::missing(missing("the loaded modules", "`lsmod`")),
        device_nodes: Fact::missing(missing("/dev/nvidia*", "`ls -l /dev/nvidia*`")),
    };
    let devices: Vec<NvmlDevice> = ce
        .gpus
        .iter()
        .enumerate()
        .map(|(i, name)| {
            NvmlDevice::identity_only(
                u32::try_from(i).unwrap_or(u32::MAX),
                Fact::known(name.clone()),
                Fact::missing(missing("GPU UUIDs", "`nvidia-smi -L`")),
                Fact::missing(missing("PCI bus ids", "`nvidia-smi -L`")),
                Fact::missing(
                    "not in the collect_env paste: taken from the matrix by the GPU's name",
                ),
                Fact::missing(missing("GPU memory", "`nvidia-smi`")),
                &missing(
                    "the GPU's health (ECC, remapped rows, PCIe link, processes)",
                    "`nvidia-smi -q`",
                ),
            )
        })
        .collect();
    let nvml = if nvidia && (ce.driver.is_some() || !ce.gpus.is_empty()) {
        Fact::known(NvmlFacts {
            library: FROM_PASTE.to_string(),
            init: ReturnCode {
                name: "NVML_SUCCESS".into(),
                code: 0,
                message: Some("nvidia-smi / torch answered in the paste".into()),
            },
            driver_version: driver_fact("the driver version"),
            cuda_driver_version: ce.driver_cuda.clone().map_or_else(
                || {
                    Fact::missing(missing(
                        "the CUDA version the driver supports",
                        "`nvidia-smi`",
                    ))
                },
                Fact::known,
            ),
            devices: if ce.gpus.is_empty() {
                Fact::missing(missing("the GPU list", "`nvidia-smi -L`"))
            } else {
                Fact::known(devices)
            },
            pairs: Fact::missing(missing(
                "how the GPUs are connected",
                "`nvidia-smi topo -m`",
            )),
        })
    } else {
        Fact::missing(missing("the driver version and GPUs", "`nvidia-smi`"))
    };
    let cuda = match ce.cuda_available {
        Some(true) => Fact::known(CudaFacts {
            library: FROM_PASTE.to_string(),
            init: ReturnCode {
                name: "CUDA_SUCCESS".into(),
                code: 0,
                message: Some("torch.cuda.is_available() is True in the paste".into()),
            },
            driver_version: Fact::missing(missing("cuDriverGetVersion", "`nvidia-smi`")),
            device_count: Fact::known(u32::try_from(ce.gpus.len()).unwrap_or(0)),
            devices: Fact::missing(missing(
                "CUDA's device list (grid limits, ordinals)",
                "`gpu-doctor` on the machine",
            )),
        }),
        _ => Fact::missing(missing("cuInit's result", "`gpu-doctor` on the machine")),
    };
    let toolkits = match ce.cuda_runtime.as_ref().or(ce.image_cuda.as_ref()) {
        Some(v) => {
            let root = "nvcc on PATH (collect_env paste)".to_string();
            ToolkitFacts {
                toolkits: vec![Toolkit {
                    root: root.clone(),
                    version: Fact::known(v.clone()),
                    version_source: Some(
                        "collect_env 'CUDA runtime version' (nvcc --version)".into(),
                    ),
                    nvcc: Some("nvcc".into()),
                    found_via: vec!["PATH".into()],
                }],
                path_nvcc: Some(root),
                cuda_home: None,
                usr_local_cuda: None,
            }
        }
        None => ToolkitFacts {
            toolkits: Vec::new(),
            path_nvcc: None,
            cuda_home: None,
            usr_local_cuda: None,
        },
    };
    let installer = if ce.conda.contains_key("pytorch") && !ce.pip.contains_key("torch") {
        Fact::known("conda".to_string())
    } else if ce.pip.contains_key("torch") {
        Fact::known("pip".to_string())
    } else {
        Fact::missing(missing("how torch was installed", "`pip show torch`"))
    };
    let torch = ce.torch.as_ref().map(|version| TorchBuild {
        path: if ce.torch_cuda_inferred {
            "torch (paste; its CUDA inferred: PyPI's Linux wheel of the release, installed with a plain `pip install torch`)".into()
        } else {
            "torch (collect_env paste)".into()
        },
        site_packages: String::new(),
        version: Fact::known(version.clone()),
        cuda: if let Some(c) = &ce.torch_cuda {
            Fact::known(Some(c.clone()))
        } else if ce.torch_cpu_only || ce.rocm.is_some() {
            Fact::known(None)
        } else {
            Fact::missing(missing("the CUDA the build was made with", "`python -c 'import torch; print(torch.version.cuda)'`"))
        },
        hip: ce.rocm.clone(),
        git_version: None,
        cudnn: ce.cudnn.clone().map_or_else(
            || Fact::missing(missing("cuDNN", "`python -c 'import torch; print(torch.backends.cudnn.version())'`")),
            Fact::known,
        ),
        nccl: Fact::missing(missing("NCCL", "`python -c 'import torch; print(torch.cuda.nccl.version())'`")),
        installer,
        requires: Vec::new(),
        arch: Fact::missing(
            "collect_env does not print the build's arch list; the matrix's record of the build is used",
        ),
        bundled_libs: Vec::new(),
    });
    let nvidia_wheels: Vec<Wheel> = ce
        .pip
        .iter()
        .filter(|(name, _)| name.starts_with("nvidia-"))
        .map(|(name, version)| Wheel {
            name: name.clone(),
            version: version.clone(),
            site_packages: String::new(),
            lib_dirs: Vec::new(),
            libraries: Vec::new(),
        })
        .collect();
    let deep = match (ce.cuda_available, &ce.torch) {
        (Some(available), Some(v)) => Some(Fact::known(DeepTorch {
            torch_version: Some(v.clone()),
            cuda_available: available,
            device_count: if available {
                u32::try_from(ce.gpus.len()).unwrap_or(0)
            } else {
                0
            },
            error: None,
            torch_path: None,
            cuda: ce.torch_cuda.clone(),
            arch_list: Vec::new(),
            warnings: Vec::new(),
        })),
        _ => None,
    };
    let python = vec![PythonEnv {
        interpreter: Some(PASTE_PYTHON.to_string()),
        origins: vec!["collect_env".into()],
        python_version: ce.python_minor().map_or_else(
            || Fact::missing(missing("the Python version", "`python --version`")),
            Fact::known,
        ),
        site_packages: Vec::new(),
        torch: torch.into_iter().collect(),
        nvidia_wheels,
        extensions: Vec::new(),
        is_venv: false,
        prefix: String::new(),
        deep,
    }];
    Facts {
        system,
        pci_gpus: Fact::missing(missing("the PCI devices", "`lspci -nn | grep -i nvidia`")),
        kernel_module,
        driver_libs: DriverLibFacts::default(),
        driver_api: DriverApiFacts { nvml, cuda },
        toolkits,
        python,
        env: ce
            .env
            .iter()
            .filter(|(k, _)| crate::facts::env::CUDA_VARIABLES.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        ld_library_path_libs: Vec::new(),
        probes: Vec::new(),
        kernel_log: crate::facts::kernel_log::not_gathered(),
        fabric_manager: crate::facts::nvlink::fm_not_gathered(),
        skipped: Vec::new(),
    }
}

/// Info findings for what the paste lacks, naming the fact and how to get it.
fn missing_fact_findings(ce: &CollectEnv, matrix: &Matrix) -> Vec<Finding> {
    let mut out = Vec::new();
    let scope = crate::finding::Scope::Python {
        interpreter: PASTE_PYTHON.to_string(),
    };
    if ce.rocm.is_none() && ce.driver.is_none() {
        out.push(
            Finding::new("driver.too_old_for_torch", Severity::Info, "not judged: the paste has no Nvidia driver version")
                .details("collect_env printed 'Could not collect' / 'No CUDA' or the line is missing, so whether the driver is new enough for the build's CUDA cannot be told.")
                .fix("Add the output of `nvidia-smi` (its header names the driver and the CUDA version it supports).", &["nvidia-smi"]),
        );
    }
    if ce.rocm.is_none() && ce.gpus.is_empty() {
        out.push(
            Finding::new("torch.arch_unsupported", Severity::Info, "not judged: the paste lists no GPU")
                .details("Without GPU names their compute capabilities are unknown, so whether the build has kernels for them cannot be told.")
                .fix("Add the GPU list.", &["nvidia-smi -L", "nvidia-smi --query-gpu=name,compute_cap --format=csv"]),
        );
    }
    // (a name the matrix holds only by its family, "Nvidia K80", has the family's capability)
    for name in &ce.gpus {
        if ce.rocm.is_none() && gpu_cc(matrix, name).is_none() {
            out.push(
                Finding::new("torch.arch_unsupported", Severity::Info, format!("not judged for {name:?}: the matrix does not know this GPU's compute capability"))
                    .fix("Add the compute capability to the report.", &["nvidia-smi --query-gpu=name,compute_cap --format=csv"]),
            );
        }
    }
    if ce.torch.is_some() && ce.torch_cuda.is_none() && !ce.torch_cpu_only && ce.rocm.is_none() {
        out.push(
            Finding::new(
                "torch.cpu_only",
                Severity::Info,
                "not judged: the paste does not say which CUDA the build uses",
            )
            .scope(scope.clone())
            .fix(
                "Add the build's CUDA.",
                &["python -c 'import torch; print(torch.__version__, torch.version.cuda)'"],
            ),
        );
    }
    if ce.gpus.is_empty() {
        out.push(
            Finding::new("host.no_nvidia_gpu", Severity::Info, "not judged: the paste lists no GPU (collect_env prints none without a working driver or a CUDA build)")
                .fix("Add the GPU list.", &["nvidia-smi -L", "lspci -nn | grep -i nvidia"]),
        );
    }
    if ce.cuda_runtime.is_none() {
        out.push(
            Finding::new(
                "toolkit.not_found",
                Severity::Info,
                "not judged: the paste has no nvcc version ('CUDA runtime version')",
            )
            .fix(
                "Check for a toolkit (wheels bundle their runtime, so none is often fine).",
                &["nvcc --version", "ls -d /usr/local/cuda*"],
            ),
        );
    }
    match &ce.driver {
        Some(v) => out.push(Finding::new(
            "driver.not_installed",
            Severity::Pass,
            format!("NVIDIA driver {v} is installed (from the paste)"),
        )),
        None => out.push(
            Finding::new(
                "driver.not_installed",
                Severity::Info,
                "not judged: the paste has no Nvidia driver version",
            )
            .fix(
                "Add the driver version.",
                &["nvidia-smi", "cat /proc/driver/nvidia/version"],
            ),
        ),
    }
    for (id, what, how) in NOT_IN_PASTE.iter() {
        out.push(
            Finding::new(
                id,
                Severity::Info,
                format!("not judged: the paste does not show {what}"),
            )
            .fix(
                format!("Run `gpu-doctor` on the machine, or check with {how}."),
                &[],
            ),
        );
    }
    out
}

/// Findings only a paste can give: a CPU build where the paste lists no GPU, MIG, CUDA
/// packages whose wheels do not support the GPUs listed.
/// The compute capability of an NVIDIA chip code name ("GF108GLM", "GK110B", "TU106M"),
/// by the convention of compat-matrix/gpus.toml (GK107/GK104/GK106 = 3.0, GK110/GK208 =
/// 3.5, GK210 = 3.7, GM107/GM108 = 5.0, GM20x = 5.2, GP100 = 6.0, GP10x = 6.1, GV100 = 7.0,
/// TU1xx = 7.5, GA100 = 8.0, GA10x = 8.6, AD10x = 8.9, GH100 = 9.0, GB100/GB102 = 10.0,
/// GB20x = 12.0) and NVIDIA's legacy list for Fermi (GF100/GF110 = 2.0, other GF1xx = 2.1).
fn chip_cc(chip: &str) -> Option<(u32, u32)> {
    let c = chip.to_ascii_uppercase();
    let digits: String = c
        .trim_start_matches(|ch: char| ch.is_ascii_alphabetic())
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let family = &c[..c.len()
        - c.trim_start_matches(|ch: char| ch.is_ascii_alphabetic())
            .len()];
    let n: u32 = digits.parse().ok()?;
    Some(match family {
        "GF" if n == 100 || n == 110 => (2, 0),
        "GF" if (101..200).contains(&n) => (2, 1),
        "GK" if n == 210 => (3, 7),
        "GK" if n == 110 || n == 208 => (3, 5),
        "GK" if (100..200).contains(&n) => (3, 0),
        "GM" if n == 107 || n == 108 => (5, 0),
        "GM" if (200..300).contains(&n) => (5, 2),
        "GP" if n == 100 => (6, 0),
        "GP" if (101..200).contains(&n) => (6, 1),
        "GV" if n == 100 => (7, 0),
        "TU" if (100..200).contains(&n) => (7, 5),
        "GA" if n == 100 => (8, 0),
        "GA" if (101..200).contains(&n) => (8, 6),
        "AD" if (100..200).contains(&n) => (8, 9),
        "GH" if n == 100 => (9, 0),
        "GB" if n == 100 || n == 102 => (10, 0),
        "GB" if (200..300).contains(&n) => (12, 0),
        _ => return None,
    })
}

/// Fills the compute capability of the paste's GPUs the matrix does not know by name: from
/// the chip code name the paste gives beside it (lspci's and ubuntu-drivers' "GF108GLM [NVS
/// 5200M]"), else from the one capability its family shares ("V100").
fn infer_unknown_ccs(facts: &mut Facts, paste: &str, matrix: &Matrix) {
    let Fact::Known { value: nvml } = &mut facts.driver_api.nvml else {
        return;
    };
    let Fact::Known { value: devices } = &mut nvml.devices else {
        return;
    };
    for d in devices.iter_mut() {
        if d.compute_capability.is_known() {
            continue;
        }
        let Some(name) = d.name.value().map(ToString::to_string) else {
            continue;
        };
        if matrix.gpu_by_name(&name).is_some() {
            continue;
        }
        let bracketed = format!("[{name}]");
        let from_chip = paste.lines().find_map(|l| {
            let at = l.find(&bracketed)?;
            let chip = l[..at].split_whitespace().last()?;
            chip_cc(chip)
        });
        if let Some(cc) = from_chip.or_else(|| gpu_cc(matrix, &name)) {
            d.compute_capability = Fact::known(format!("{}.{}", cc.0, cc.1));
        }
    }
}

/// The CUDA of PyPI's Linux x86_64 torch wheel for releases the matrix does not hold (it
/// starts at 1.12), from pytorch.org's "previous versions" page, whose `pip install
/// torch==X` line without a local tag is listed under this CUDA: 1.2 → 10.0, 1.4 → 10.1,
/// 1.5 to 1.8 → 10.2. Releases the page gives no untagged line for are left out.
const OLD_PYPI_CUDA: &[(&str, &str)] = &[
    ("1.2", "10.0"),
    ("1.4", "10.1"),
    ("1.5", "10.2"),
    ("1.6", "10.2"),
    ("1.7", "10.2"),
    ("1.8", "10.2"),
];

/// A torch the paste installs with a plain `pip install torch` on Linux and whose CUDA it
/// does not show is the release's PyPI wheel: its CUDA is that wheel's (an inference, said
/// as one in the facts found). Nothing is inferred when anything observed speaks: a local
/// tag, a CUDA torch printed, a CPU or ROCm build, conda's pytorch, or Windows and macOS
/// (whose PyPI wheels are other builds).
fn infer_pypi_cuda(ce: &mut CollectEnv, matrix: &Matrix) {
    let Some(version) = ce.torch.as_deref() else {
        return;
    };
    let elsewhere = [ce.os.as_deref(), ce.platform.as_deref()]
        .into_iter()
        .flatten()
        .any(|s| {
            let l = s.to_ascii_lowercase();
            ["windows", "darwin", "macos", "mac os", "osx"]
                .iter()
                .any(|w| l.contains(w))
        });
    if !ce.pip_installs_torch
        || ce.torch_cuda.is_some()
        || ce.torch_cpu_only
        || ce.rocm.is_some()
        || version.contains('+')
        || ce.conda.contains_key("pytorch")
        || elsewhere
    {
        return;
    }
    let from_matrix = matrix.torch_release(version).and_then(|r| {
        let name = r.pypi_default.as_deref()?;
        r.variant
            .iter()
            .find(|v| v.name == name)
            .map(|v| v.cuda.clone())
    });
    let minor = |v: &str| v.split('.').take(2).collect::<Vec<_>>().join(".");
    let old = OLD_PYPI_CUDA
        .iter()
        .find(|(r, _)| *r == minor(version))
        .map(|(_, c)| (*c).to_string());
    if let Some(cuda) = from_matrix.or(old) {
        ce.torch_cuda = Some(cuda);
        ce.torch_cuda_inferred = true;
    }
}

/// A GPU the paste names that no CUDA build of the paste's torch release has kernels for
/// (no variant's architecture list covers it on any platform, natively or through PTX):
/// "Pytorch 2.4" beside an "RTX 5070" lacks sm_120 whichever of its CUDA builds is installed.
/// Only the builds the paste leaves possible are weighed: its local tag ("+cu124") or CUDA
/// names one. Variants whose architecture list the matrix does not hold answer nothing.
fn torch_release_lacks_gpu(ce: &CollectEnv, matrix: &Matrix) -> Option<(String, String, String)> {
    let version = ce.torch.as_deref()?;
    if ce.torch_cpu_only || version.contains("+cpu") {
        return None;
    }
    let release = matrix.torch_release(version)?;
    let named = matrix.torch_variant(release, version, ce.torch_cuda.as_deref());
    // a CUDA the paste names without saying whose ("CUDA 12.4 + Pytorch 2.4") picks the
    // release's build of that CUDA when it has one
    let mentioned = ce
        .cuda_mentioned
        .as_deref()
        .and_then(|c| matrix.torch_variant(release, "", Some(c)));
    let variants: Vec<_> = match named.or(mentioned) {
        Some(v) => vec![v],
        None if version.contains('+') || ce.torch_cuda.is_some() => return None,
        None => release.variant.iter().filter(|v| v.name != "cpu").collect(),
    };
    if variants.is_empty() {
        return None;
    }
    let platforms = ["linux_x86_64", "linux_aarch64", "windows"];
    for name in &ce.gpus {
        let Some((major, minor)) = gpu_cc(matrix, name) else {
            continue;
        };
        let mut known = false;
        let covered = variants.iter().any(|v| {
            platforms.iter().any(|p| {
                crate::matrix::query::variant_arch_list(v, p).is_some_and(|list| {
                    known = true;
                    crate::arch_list::arch_list_covers(&list, major, minor)
                })
            })
        });
        if known && !covered {
            let builds: Vec<&str> = variants.iter().map(|v| v.name.as_str()).collect();
            return Some((name.clone(), format!("{major}.{minor}"), builds.join(", ")));
        }
    }
    None
}

/// A GPU's compute capability from the name a paste gives it: the matrix's entry, else the
/// one capability every product of that family shares ("V100" -> the Tesla V100 variants,
/// all 7.0); none where the family's products differ.
fn gpu_cc(matrix: &Matrix, name: &str) -> Option<(u32, u32)> {
    if let Some(g) = matrix.gpu_by_name(name) {
        return crate::arch_list::parse_cc(&g.cc);
    }
    let norm = |s: &str| {
        let n = crate::matrix::query::normalize_gpu_name(s);
        n.strip_prefix("tesla ").map_or(n.clone(), str::to_string)
    };
    // the memory a reporter writes after the name ("tesla k80 24gb") is no part of it
    let want = norm(name);
    let want = match want.rsplit_once(' ') {
        Some((head, size))
            if size.ends_with("gb")
                && size.len() <= 5
                && size[..size.len() - 2].chars().all(|c| c.is_ascii_digit()) =>
        {
            head.to_string()
        }
        _ => want,
    };
    if want.len() < 3 || !want.chars().any(|c| c.is_ascii_digit()) {
        return None;
    }
    let mut found: Option<(u32, u32)> = None;
    for g in &matrix.gpus.gpu {
        let hit = std::iter::once(&g.name).chain(g.aliases.iter()).any(|n| {
            let n = norm(n);
            n.strip_prefix(want.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(['-', ' ']))
        });
        if !hit {
            continue;
        }
        let cc = crate::arch_list::parse_cc(&g.cc)?;
        match found {
            Some(f) if f != cc => return None,
            _ => found = Some(cc),
        }
    }
    found
}

/// An nvidia-* CUDA wheel's library and CUDA major: "nvidia-nccl-cu12" is ("nccl", "12").
fn cuda_wheel(name: &str) -> Option<(&str, &str)> {
    name.strip_prefix("nvidia-")
        .and_then(|rest| rest.rsplit_once("-cu"))
        .filter(|(_, major)| !major.is_empty() && major.chars().all(|c| c.is_ascii_digit()))
}

fn paste_findings(ce: &CollectEnv, paste: &str, matrix: &Matrix) -> Vec<Finding> {
    let mut out = Vec::new();
    let scope = crate::finding::Scope::Python {
        interpreter: PASTE_PYTHON.to_string(),
    };
    if ce.torch.is_none() && ce.keys_seen.iter().any(|k| k == "torch") {
        out.push(
            Finding::new("torch.not_found", Severity::Warn, "PyTorch is not installed in the environment collect_env ran in ('PyTorch version: N/A')")
                .scope(scope.clone())
                .fix("Install PyTorch into this environment (a wheel for its CUDA, or the vendor's build on Jetson), or run collect_env with the interpreter that has it.", &["python -m pip install torch"]),
        );
    }
    if ce.torch_cpu_only && ce.gpus.is_empty() {
        out.push(
            Finding::new("torch.cpu_only", Severity::Info, format!("PyTorch {} is a CPU-only build", ce.torch.as_deref().unwrap_or("?")))
                .scope(scope.clone())
                .details("The paste lists no GPU, so whether the machine has one is unknown; a CPU build never uses CUDA.")
                .fix("On a machine with an NVIDIA GPU install a CUDA build.", &["pip install --force-reinstall torch --index-url https://download.pytorch.org/whl/cu124"]),
        );
    }
    // What pasted kernel-log lines observed (a GPU fallen off the bus, nouveau owning it).
    let in_container =
        regex::Regex::new(r"(?i)\b(?:docker|podman|container|kubectl|kubernetes|k8s)\b")
            .is_ok_and(|r| r.is_match(paste));
    for (id, line) in &ce.kernel_observed {
        let (summary, fix): (&str, &str) = match id.as_str() {
            // in a container the driver's tools come from the host (the toolkit's injection)
            "driver.not_installed" if in_container => continue,
            "driver.not_installed" if line.contains(" : ") && line.contains("Depends: ") => (
                "apt could not install the NVIDIA driver's packages (unmet dependencies: a repository for another release, or packages of two driver versions), so no NVIDIA driver is installed",
                "Remove the foreign repository or the mixed packages (`sudo apt purge 'nvidia-*' 'libnvidia-*'`), then install the driver packaged for this release (`sudo ubuntu-drivers install` on Ubuntu, `sudo apt install nvidia-driver` from Debian's non-free) and reboot.",
            ),
            "driver.not_installed" => (
                "the shell finds none of the NVIDIA driver's own tools (nvidia-smi, prime-select ship with the driver package): the driver is not installed, or its install failed",
                "Install the driver package for the GPU (`sudo ubuntu-drivers install` or `sudo apt install nvidia-driver-<branch>` on Ubuntu) and reboot.",
            ),
            "driver.nouveau_loaded" => (
                "the kernel log shows nouveau holding the GPU, so the nvidia module cannot bind to it",
                "Blacklist nouveau (`echo 'blacklist nouveau' | sudo tee /etc/modprobe.d/blacklist-nouveau.conf`), rebuild the initramfs and reboot.",
            ),
            "driver.gpu_unsupported" => (
                "the kernel log shows the open nvidia module refusing the GPU: it has no GSP (Maxwell, Pascal, Volta), which the open module needs",
                "Install the proprietary kernel module of the driver branch (`nvidia-dkms-<branch>` rather than `-open`, or `--kernel-module-type=proprietary` with the .run installer) and reboot.",
            ),
            "driver.module_not_loaded"
                if line.contains("GPL-only")
                    || line.contains("build")
                    || line.contains("No kernel module was installed")
                    || line.contains("through DKMS") =>
            {
                (
                    "the nvidia kernel module failed to build for the running kernel (the driver release predates the kernel, or headers/compiler are missing), so no module drives the GPU",
                    "Install a driver release that supports this kernel (or boot the previous kernel), with the kernel headers for it, then rebuild the module (`sudo dkms autoinstall`) and reboot.",
                )
            }
            "driver.module_not_loaded" => (
                "the kernel refused the nvidia module (an unsigned module under Secure Boot) or the system says it is missing, so nothing drives the GPU",
                "Rebuild the module for the running kernel (`sudo dkms autoinstall`, or `sudo akmods --force` on Fedora) and, under Secure Boot, sign it with an enrolled MOK (`sudo mokutil --import`, then reboot and enrol) or disable Secure Boot.",
            ),
            "host.container_no_gpu" if line.contains("cgroup subsystem devices") => (
                "nvidia-container-cli cannot find the devices cgroup: the host runs cgroup v2 and the NVIDIA Container Toolkit is older than 1.8 (no cgroup v2 support), so no GPU container can start",
                "Upgrade nvidia-container-toolkit, libnvidia-container-tools and libnvidia-container1 to 1.9.0 or later from NVIDIA's repository (a distribution's older package may shadow it), then restart the engine.",
            ),
            "host.container_no_gpu" if line.contains("could not select device driver") => (
                "Docker has no NVIDIA device driver registered for `--gpus` / a compose `driver: nvidia` request: the NVIDIA Container Toolkit is not installed or not configured for this engine (Docker Desktop's own engine, a snap-installed Docker), so no GPU container can start",
                "Install the NVIDIA Container Toolkit on the host whose engine runs the containers, then `sudo nvidia-ctk runtime configure --runtime=docker` and `sudo systemctl restart docker` (use the system Docker Engine rather than Docker Desktop's or a snap's).",
            ),
            "host.container_no_gpu" => (
                "the container runtime has no NVIDIA runtime handler (containerd / CRI-O not configured by the toolkit, or the pod's runtime class names one that does not exist), so no GPU pod or container can start with the GPUs",
                "Configure the engine for NVIDIA's runtime (`sudo nvidia-ctk runtime configure --runtime=containerd` or `--runtime=crio`, then restart it); with the GPU operator check the toolkit daemonset's logs and its containerd config path for the distribution.",
            ),
            "gpu.nvlink_down" => (
                "the paste lists NVLink links down (`dcgmi nvlink --link-status` 'D', `nvidia-smi nvlink -s` '<inactive>'): GPU-to-GPU traffic falls back to PCIe or fails (NCCL hangs, P2P errors)",
                "Drain the node; reset the GPUs (`nvidia-smi -r`) or power-cycle it, and if the links stay down reseat the NVLink bridges / have the baseboard serviced.",
            ),
            "driver.stub_library" => (
                "the libcuda the program loaded is the CUDA toolkit's stub (a `stubs/` directory), not the driver's: every CUDA call answers CUDA_ERROR_STUB_LIBRARY (34)",
                "Take the toolkit's `stubs` directory out of LD_LIBRARY_PATH (and out of /etc/ld.so.conf.d, then `sudo ldconfig`) so the driver's libcuda.so.1 is found first; the stub is only for linking.",
            ),
            "env.device_order" => (
                "nvidia-smi and CUDA number the same GPUs in another order (nvidia-smi by PCI bus, CUDA fastest first): an index taken from nvidia-smi (a launcher's GPU choice, CUDA_VISIBLE_DEVICES) selects the other GPU in CUDA programs",
                "Set `CUDA_DEVICE_ORDER=PCI_BUS_ID` in the environment of the programs (with CUDA_VISIBLE_DEVICES), so CUDA's indices are nvidia-smi's.",
            ),
            "gpu.lost" => (
                "the kernel log shows a GPU fallen off the bus (no longer answering on PCIe)",
                "Reset or power-cycle the node; if it recurs, check power, cooling and seating of that GPU.",
            ),
            _ => continue,
        };
        // two numberings are a trap for indices, not a failure by themselves
        let severity = if id == "env.device_order" {
            Severity::Warn
        } else {
            Severity::Fail
        };
        out.push(
            Finding::new(id, severity, summary)
                .evidence("kernel_log", line.clone())
                .fix(fix, &[]),
        );
    }
    let installs = combine::torch_installs(ce, paste);
    if !installs.is_empty() {
        out.push(
            Finding::new("torch.multiple_installs", Severity::Fail, format!("the paste's package lists show {} torch installs: {}", installs.len(), installs.join(", ")))
                .scope(scope.clone())
                .details("Two torch distributions in one environment overwrite each other's files: `import torch` may load one version's Python code with the other's compiled libraries, and extensions built against one fail against the other (undefined symbols).")
                .evidence("python.packages", installs.join(", "))
                .fix("Uninstall every torch distribution, then install the one you need.", &["pip uninstall -y torch torch-nightly", "pip install torch"]),
        );
    }
    if !ce.mig.is_empty() {
        out.push(
            Finding::new("gpu.mig_enabled", Severity::Warn, format!("MIG is on ({} instance{} listed)", ce.mig.len(), if ce.mig.len() == 1 { "" } else { "s" }))
                .details(format!("{}. A CUDA process can use only one MIG instance: CUDA_VISIBLE_DEVICES must name it (MIG-<uuid>), and one process cannot use several (no DDP across instances).", ce.mig.join("; ")))
                .fix("Give each process one MIG device.", &["nvidia-smi -L", "CUDA_VISIBLE_DEVICES=MIG-<uuid> python train.py"]),
        );
    }
    // "detectron2 arch flags  sm_70" / "3.7, 5.0": the architectures the extension was
    // compiled for; a GPU outside them gets no kernels ("no kernel image").
    for (ext, flags) in &ce.ext_arch {
        let archs: Vec<(u32, u32)> = flags
            .split([',', ' ', ';'])
            .filter_map(|t| {
                let t = t
                    .trim()
                    .trim_start_matches("sm_")
                    .trim_start_matches("compute_");
                if let Some((a, b)) = t.split_once('.') {
                    Some((a.parse().ok()?, b.parse().ok()?))
                } else if t.len() >= 2 && t.chars().all(|c| c.is_ascii_digit()) {
                    let (a, b) = t.split_at(t.len() - 1);
                    Some((a.parse().ok()?, b.parse().ok()?))
                } else {
                    None
                }
            })
            .collect();
        if archs.is_empty() {
            continue;
        }
        for (i, name) in ce.gpus.iter().enumerate() {
            let Some(cc) = matrix
                .gpu_by_name(name)
                .and_then(|g| crate::arch_list::parse_cc(&g.cc))
            else {
                continue;
            };
            // SASS runs on the same major at an equal or higher minor.
            if !archs.iter().any(|a| a.0 == cc.0 && a.1 <= cc.1) {
                out.push(
                    Finding::new("ext.arch_unsupported", Severity::Fail, format!("{ext} was compiled for {flags}, not for GPU {i} {name} (sm_{}{})", cc.0, cc.1))
                        .scope(scope.clone())
                        .details("An extension's kernels run only on the architectures it was compiled for (or a later minor of the same major); this GPU gets 'no kernel image is available'.")
                        .evidence("paste", format!("{ext} arch flags {flags}"))
                        .fix(format!("Rebuild {ext} for this GPU: `TORCH_CUDA_ARCH_LIST=\"{}.{}\" pip install --no-build-isolation --force-reinstall <source>`.", cc.0, cc.1), &[]),
                );
                break;
            }
        }
    }
    // A program's CUDA 13 build (an image, wheel or backend "for cuda13") on a GPU below
    // compute capability 7.5: CUDA 13 compiles nothing for Maxwell, Pascal or Volta
    // (torch's own CUDA 13 builds are judged by the matrix).
    if ce
        .torch_cuda
        .as_deref()
        .is_none_or(|c| !c.starts_with("13."))
        && combine::names_cuda13_build(paste)
    {
        for (i, name) in ce.gpus.iter().enumerate() {
            let Some(cc) = gpu_cc(matrix, name) else {
                continue;
            };
            if cc < (7, 5) {
                out.push(
                    Finding::new("ext.arch_unsupported", Severity::Fail, format!("the paste runs a CUDA 13 build, which has no kernels for GPU {i} {name} (sm_{}{})", cc.0, cc.1))
                        .scope(scope.clone())
                        .details("CUDA 13 dropped offline compilation for compute capability below 7.5 (Maxwell, Pascal, Volta): a program built with it has no kernels for this GPU.")
                        .evidence("paste", "a CUDA 13 build (image, wheel or backend)")
                        .fix(format!("Use the program's CUDA 12 build (image, wheel or backend), which still compiles for sm_{}{}.", cc.0, cc.1), &[]),
                );
                break;
            }
        }
    }
    // One CUDA library from wheels of two CUDA majors (nvidia-nccl-cu12 beside nvidia-nccl-cu13):
    // both ship the same soname, and whichever the loader takes first may lack what torch
    // calls (pytorch/pytorch#186591: "undefined symbol ncclCommResume").
    for (name, version) in &ce.pip {
        let Some((lib, major)) = cuda_wheel(name) else {
            continue;
        };
        let other = ce
            .pip
            .iter()
            .find(|(n, _)| cuda_wheel(n).is_some_and(|(l, m)| l == lib && m != major));
        if let Some((other_name, other_version)) = other.filter(|(n, _)| name < *n) {
            // the one to remove is of the CUDA major torch was not built for, where the paste
            // says torch's CUDA
            let torch_major = ce
                .torch_cuda
                .as_deref()
                .and_then(|c| c.split('.').next())
                .map(str::to_string);
            let stray = torch_major.and_then(|m| {
                if name.ends_with(&format!("-cu{m}")) {
                    Some(other_name.as_str())
                } else if other_name.ends_with(&format!("-cu{m}")) {
                    Some(name.as_str())
                } else {
                    None
                }
            });
            let commands: Vec<String> = stray
                .map(|n| vec![format!("python -m pip uninstall -y {n}")])
                .unwrap_or_default();
            let commands: Vec<&str> = commands.iter().map(String::as_str).collect();
            out.push(
                Finding::new("torch.wheel_deps_mismatch", Severity::Fail, format!("{name} {version} and {other_name} {other_version} are both installed: one CUDA library of two CUDA majors"))
                    .scope(scope.clone())
                    .details("Both wheels ship the same library (the same soname); the loader takes one of them, which may not be the one the installed torch build needs, and imports fail with undefined symbols.")
                    .evidence("python.packages", format!("{name}=={version}, {other_name}=={other_version}"))
                    .fix("Uninstall the wheel of the CUDA major the torch build does not use (`python -c \"import torch; print(torch.version.cuda)\"` names the one it does).", &commands),
            );
        }
    }
    for (pkg, major, minor, source) in PACKAGE_MIN_CC {
        let Some(version) = ce.pip.get(*pkg) else {
            continue;
        };
        for (i, name) in ce.gpus.iter().enumerate() {
            let Some(cc) = gpu_cc(matrix, name) else {
                continue;
            };
            if cc < (*major, *minor) {
                out.push(
                    Finding::new("ext.arch_unsupported", Severity::Fail, format!("{pkg} {version} has no kernels for GPU {i} {name} (sm_{}{})", cc.0, cc.1))
                        .scope(scope.clone())
                        .details(format!("{source}; this GPU is compute capability {}.{}.", cc.0, cc.1))
                        .evidence("python.packages", format!("{pkg}=={version}"))
                        .fix(format!("Run {pkg} on a GPU of compute capability {major}.{minor} or newer, or build a version that still supports sm_{}{} from source.", cc.0, cc.1), &[]),
                );
                break;
            }
        }
    }
    out
}

/// Advisory findings and warn-level toolkit/torch minor mismatches (which matter only
/// when building extensions) are never the diagnosis' cause.
fn is_advisory(f: &Finding) -> bool {
    ADVISORY.contains(&f.id.as_str())
        || (f.id == "toolkit.torch_mismatch" && f.severity == Severity::Warn)
}

/// The ranking of findings for the diagnosis: failures before warnings, causes before
/// symptoms, then the registry's order.
fn finding_rank(f: &Finding) -> (u8, u8, u8, usize) {
    let sev = match f.severity {
        Severity::Fail => 0,
        Severity::Warn => 1,
        _ => 9,
    };
    let symptom = u8::from(SYMPTOMS.contains(&f.id.as_str()));
    // PyTorch work needs the driver for torch's CUDA; a local toolkit only for builds.
    let toolkit = u8::from(f.id.starts_with("toolkit.") || f.id == "driver.too_old_for_toolkit");
    let order = checks::ALL
        .iter()
        .position(|c| c.id == f.id)
        .unwrap_or(usize::MAX);
    (sev, symptom, toolkit, order)
}

/// Whether the primary match of an explanation observed its top cause (the message said
/// so itself): such a reading is not overruled by words around it.
fn top_cause_observed(ex: Option<&Explanation>) -> bool {
    ex.and_then(|ex| ex.primary.and_then(|i| ex.matches.get(i)))
        .and_then(|m| m.causes.first())
        .is_some_and(|k| k.observed)
}

/// Whether the primary match of an explanation lists `id` among its causes.
fn primary_lists(ex: Option<&Explanation>, id: &str) -> bool {
    ex.and_then(|ex| ex.primary.and_then(|i| ex.matches.get(i)))
        .is_some_and(|m| m.causes.iter().any(|k| k.id == id))
}

/// Judges a paste (and the error seen) with `matrix`.
pub fn diagnose(paste: &str, log: Option<&str>, matrix: &Matrix) -> Diagnosis {
    let mut ce = paste::parse(paste);
    // "CUDA available: True" from another interpreter than the one whose traceback the
    // paste shows (a host REPL beside a container's log), or beside torch's own failure to
    // initialise CUDA, observed another process than the one that failed
    if ce.cuda_available == Some(true)
        && (combine::answer_from_other_python(paste, &ce)
            || combine::torch_init_failure_seen(paste))
    {
        ce.cuda_available = None;
    }
    infer_pypi_cuda(&mut ce, matrix);
    let mut facts = facts_from(&ce);
    infer_unknown_ccs(&mut facts, paste, matrix);
    let skip: Vec<String> = NOT_IN_PASTE
        .iter()
        .map(|(id, _, _)| (*id).to_string())
        .chain([
            "host.no_nvidia_gpu".to_string(),
            "driver.not_installed".to_string(),
        ])
        .chain(
            ce.cuda_runtime
                .is_none()
                .then(|| "toolkit.not_found".to_string()),
        )
        .collect();
    let selection = Selection {
        only: Vec::new(),
        skip,
    };
    let (mut findings, errors) =
        checks::evaluate(&facts, matrix, &CheckOptions::default(), &selection);
    findings.extend(missing_fact_findings(&ce, matrix));
    findings.extend(paste_findings(&ce, paste, matrix));
    // With CUDA working for torch, a toolkit no newer than torch's CUDA runs too, and so
    // does one of the same major from CUDA 11 on (minor version compatibility).
    let toolkit_within_torch = match (&ce.cuda_runtime, &ce.torch_cuda) {
        (Some(tk), Some(tc)) => {
            let mm =
                |v: &str| crate::version::DottedVersion::parse(v).map(|d| (d.major(), d.minor()));
            matches!((mm(tk), mm(tc)), (Some(a), Some(b)) if a <= b || (a.0 == b.0 && a.0 >= 11))
        }
        _ => false,
    };
    // What the paste observed beats what the tables predict: with `Is CUDA available:
    // True`, a failure that would make CUDA unusable is contradicted.
    if ce.cuda_available == Some(true) {
        for f in &mut findings {
            let contradicted = UNAVAILABILITY.contains(&f.id.as_str())
                || (f.id == "driver.too_old_for_toolkit" && toolkit_within_torch);
            if contradicted && f.severity >= Severity::Warn {
                f.severity = Severity::Info;
                f.summary = format!(
                    "{} — but the paste shows torch.cuda.is_available() True, so it did not stop CUDA",
                    f.summary
                );
            }
        }
    }
    let report = Report::new(matrix.info(), facts, findings, errors);

    // The generic answer, and rules that read a symptom only in the reporter's words: weak
    // where the paste's facts can speak.
    let generic = |ex: &Explanation| {
        ex.primary.and_then(|i| ex.matches.get(i)).is_some_and(|m| {
            m.id == explain::GENERIC_MATCH || explain::SAID_ONLY_MATCHES.contains(&m.id.as_str())
        })
    };
    let mut from_log = log
        .map(|l| explain::explain_by_rules(l, paste))
        .filter(|ex| ex.primary.is_some());
    let mut from = "log";
    // An error in the paste only the generic fallback ranks: kept aside, it answers only
    // where nothing else does (never "none" when the paste names a GPU error).
    let mut generic_paste = None;
    if from_log.is_none() {
        // An environment paste's own words are not an error: only rules count there.
        let ex = explain::explain_by_rules(paste, "");
        if ex.primary.is_some() && generic(&ex) {
            // only a line that reports an error, not an environment key ("cuDNN
            // version: Could not collect", "Is CUDA available: False")
            let names_error = ex
                .primary
                .and_then(|i| ex.matches.get(i))
                .is_some_and(|m| combine::reports_an_error(&m.text));
            generic_paste = Some(ex).filter(|_| names_error);
        } else {
            from_log = Some(ex).filter(|ex| ex.primary.is_some());
        }
        from = "paste warnings";
    }
    let findings = &report.findings;
    let confirmed = |id: &str| {
        findings
            .iter()
            .any(|f| f.id == id && f.severity >= Severity::Warn)
    };
    let container_with_gpus = combine::container_started_with_gpus(paste);
    let no_engine = combine::no_container_engine(paste);
    let ruled_out = |id: &str| {
        let passes = findings
            .iter()
            .any(|f| f.id == id && f.severity == Severity::Pass);
        (passes && !confirmed(id))
            || (ce.cuda_available == Some(true)
                && (UNAVAILABILITY.contains(&id)
                    || (id == "driver.too_old_for_toolkit" && toolkit_within_torch)))
            || (ce.smi_answered && SMI_ANSWERED_RULES_OUT.contains(&id))
            || (id == "host.container_no_gpu" && (container_with_gpus || no_engine))
            || (ce.module_in_use
                && matches!(
                    id,
                    "driver.not_installed" | "driver.module_not_loaded" | "driver.nouveau_loaded"
                ))
    };

    // What the paste observed beats what the tables predict: a finding whose cause the
    // paste rules out (CUDA works) is not the diagnosis.
    let top_finding = findings
        .iter()
        .filter(|f| f.severity >= Severity::Warn && !is_advisory(f) && !ruled_out(&f.id))
        .min_by_key(|f| finding_rank(f));
    let mut cause = None;
    // A log no rule knows ranks its causes loosely: a failing finding says more.
    let loose = from_log.as_ref().is_some_and(generic) && top_finding.is_some();
    if let Some(ex) = from_log.as_mut().filter(|_| !loose) {
        explain::enrich(ex, matrix);
        explain::refine(ex, findings, "the collect_env paste");
        // What the log observed outranks what the paste lets one infer.
        let picked = ex
            .primary
            .and_then(|i| ex.matches.get(i))
            .and_then(|m| m.causes.iter().find(|k| k.observed || !ruled_out(&k.id)));
        cause = picked.map(|k| (k.id.clone(), k.why.clone()));
    }
    let first = match (cause, top_finding) {
        (Some((id, why)), _) => verdict::Verdict::new(&id, from, why),
        (None, Some(f)) => verdict::Verdict::new(&f.id, "findings", f.summary.clone()),
        (None, None) => verdict::Verdict::new(
            "none",
            "none",
            "nothing in the paste shows a problem with the environment",
        ),
    };
    // The paste's error only the generic answer ranks, refined with the paste's findings the
    // way the log's is.
    if let Some(ex) = generic_paste.as_mut() {
        explain::enrich(ex, matrix);
        explain::refine(ex, findings, "the collect_env paste");
    }
    let evidence = verdict::Evidence {
        paste,
        ce: &ce,
        matrix,
        findings,
        from_log: from_log.as_ref(),
        generic_paste: generic_paste.as_ref(),
        ruled_out: &ruled_out,
    };
    let verdict::Verdict {
        cause,
        from,
        summary,
    } = verdict::decide(&evidence, first);
    // The paste's error, even one only the generic fallback ranks, is shown with the
    // diagnosis.
    if from_log.is_none() {
        from_log = generic_paste;
    }
    Diagnosis {
        cause,
        from,
        summary,
        log: if log.is_some() || from_log.is_some() {
            from_log
        } else {
            None
        },
        collect_env: ce,
        report,
    }
}

/// Causes a paste states in words, tried in order, for a paste where nothing else answered
/// (its environment shows no failure): the cause and the summary that says why.
fn stated_when_nothing_answers(
    ce: &CollectEnv,
    paste: &str,
) -> Option<(&'static str, &'static str)> {
    if ce.cuda_available == Some(false) {
        return None;
    }
    let runs = !ce.smi_failed;
    let gpu_build = runs && !ce.torch_cpu_only;
    // The program lists the CUDA device itself and still says it found no usable GPU: its
    // own contradiction, not the machine's fault.
    if runs && combine::program_contradicts_its_devices(paste) {
        return Some(("workload.library_bug", "the program lists the CUDA device itself, yet says it found no usable GPU (or was built without GPU support): a bug of that build, not of the machine"));
    }
    // A CUDA library a program wants by a versioned name and cannot find ("Could not locate
    // cudnn_ops_infer64_8.dll"): the environment's cuDNN / cuBLAS is another major than the
    // build needs.
    if combine::versioned_cuda_library_missing(paste) {
        return Some(("torch.wheel_deps_mismatch", "a program cannot find a CUDA library it asks for by a versioned name (cuDNN / cuBLAS of one major): the environment provides another major than the build needs (install the matching libraries, or a build for the installed ones)"));
    }
    // A model said to need more GPU memory than the card has: the workload does not fit
    // (the app spills to system RAM and the CPU).
    if gpu_build && combine::model_too_big_said(paste) {
        return Some(("workload.out_of_memory", "the paste says the model needs more GPU memory than the card has: the part that does not fit runs from system RAM on the CPU (use a smaller or more quantised model, or more GPUs)"));
    }
    // A sentence saying an older version of the program works (a bisected commit, a
    // downgrade that fixes it): the program's bug.
    if gpu_build && combine::says_regression(paste) {
        return Some(("workload.library_bug", "nothing in the paste's environment fails, and the paste says an older version of the program works (a bisected commit, a downgrade that fixes it): a regression of the program"));
    }
    None
}

pub fn render_text(d: &Diagnosis, color: bool, verbose: bool) -> String {
    let mut out = String::new();
    out.push_str(&crate::report::defang_text(&format!(
        "Diagnosis from the paste: {} ({})\n  {}\n",
        d.cause, d.from, d.summary
    )));
    let (found, lacking) = d.collect_env.found_and_lacking();
    out.push_str(&crate::report::defang_text(&format!(
        "  Read: {}\n  Found: {}\n  Lacking: {}\n",
        if d.collect_env.formats.is_empty() {
            "no environment block (the error text only)".to_string()
        } else {
            d.collect_env.formats.join(", ")
        },
        if found.is_empty() {
            "nothing".to_string()
        } else {
            found.join("; ")
        },
        if lacking.is_empty() {
            "nothing".to_string()
        } else {
            lacking.join(", ")
        }
    )));
    if let Some(ex) = &d.log {
        if !ex.matches.is_empty() {
            out.push_str("\nThe error:\n");
            out.push_str(&explain::render::text(ex, verbose));
        }
    }
    out.push('\n');
    out.push_str(&text::render(
        &d.report.for_terminal(),
        text::TextOptions {
            color,
            verbose,
            from_paste: true,
        },
    ));
    out
}

/// The report JSON (report schema) with `diagnosis` and `collect_env` added.
pub fn render_json(d: &Diagnosis) -> Result<String, serde_json::Error> {
    let mut v = serde_json::to_value(&d.report)?;
    if let serde_json::Value::Object(map) = &mut v {
        let mut diag = BTreeMap::new();
        diag.insert("cause", serde_json::to_value(&d.cause)?);
        diag.insert("from", serde_json::to_value(&d.from)?);
        diag.insert("summary", serde_json::to_value(&d.summary)?);
        let (found, lacking) = d.collect_env.found_and_lacking();
        diag.insert("formats", serde_json::to_value(&d.collect_env.formats)?);
        diag.insert("found", serde_json::to_value(found)?);
        diag.insert("lacking", serde_json::to_value(lacking)?);
        if let Some(ex) = &d.log {
            diag.insert("log", serde_json::to_value(ex)?);
        }
        map.insert("diagnosis".into(), serde_json::to_value(diag)?);
        map.insert("collect_env".into(), serde_json::to_value(&d.collect_env)?);
    }
    Ok(format!(
        "{}\n",
        crate::report::safe_json::to_string_pretty(&v)?
    ))
}

/// Reads a paste from a path ('-' for stdin); for tests and callers outside the CLI.
pub fn read(path: &Path) -> Result<String, AppError> {
    crate::error::read_log(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fifth blind paste sample's findings: Ollama's documented floor for a GPU written
    /// with its memory ("tesla k80 24gb"), and one CUDA library from wheels of two CUDA majors.
    #[test]
    fn program_floors_and_two_cuda_majors() {
        let m = Matrix::bundled().unwrap();
        let ce = CollectEnv {
            gpus: vec!["tesla k80 24gb".into()],
            pip: [("ollama".to_string(), "0.5.11".to_string())].into(),
            ..CollectEnv::default()
        };
        let ids: Vec<String> = paste_findings(&ce, "", &m)
            .into_iter()
            .filter(|f| f.severity == Severity::Fail)
            .map(|f| f.id)
            .collect();
        assert_eq!(ids, ["ext.arch_unsupported"]);
        let ok = CollectEnv {
            gpus: vec!["NVIDIA GeForce RTX 3090".into()],
            ..ce.clone()
        };
        assert!(paste_findings(&ok, "", &m)
            .iter()
            .all(|f| f.severity != Severity::Fail));
        let two = CollectEnv {
            torch_cuda: Some("13.0".into()),
            pip: [
                ("nvidia-nccl-cu12".to_string(), "2.29.3".to_string()),
                ("nvidia-nccl-cu13".to_string(), "2.29.7".to_string()),
                ("nvidia-cublas-cu12".to_string(), "12.8.4.1".to_string()),
            ]
            .into(),
            ..CollectEnv::default()
        };
        let f: Vec<Finding> = paste_findings(&two, "", &m)
            .into_iter()
            .filter(|f| f.id == "torch.wheel_deps_mismatch")
            .collect();
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].summary.contains("nvidia-nccl-cu12"));
        assert_eq!(
            f[0].fix.as_ref().map(|x| x.commands.clone()),
            Some(vec![
                "python -m pip uninstall -y nvidia-nccl-cu12".to_string()
            ])
        );
        // the paste says no container engine is installed: it ran on the host
        assert!(combine::no_container_engine(
            "#### Docker detected (0 means not installed): 0"
        ));
        assert!(!combine::no_container_engine("docker run --gpus all img"));
    }

    /// A GPU the matrix holds under its family ("Nvidia K80" for the Tesla K80) is judged with
    /// the family's capability, not reported as unknown.
    #[test]
    fn a_gpu_named_by_its_family_is_judged() {
        let m = Matrix::bundled().unwrap();
        let ce = CollectEnv {
            gpus: vec!["Nvidia K80".into(), "Mystery GPU 9000".into()],
            ..CollectEnv::default()
        };
        let unknown: Vec<String> = missing_fact_findings(&ce, &m)
            .into_iter()
            .filter(|f| f.summary.contains("does not know this GPU"))
            .map(|f| f.summary)
            .collect();
        assert_eq!(unknown.len(), 1, "{unknown:?}");
        assert!(unknown[0].contains("Mystery"), "{unknown:?}");
    }
    use crate::checks::testutil::matrix;

    const PASTE: &str = "PyTorch version: 2.4.1+cu124
CUDA used to build PyTorch: 12.4
OS: Ubuntu 22.04.4 LTS (x86_64)
Is CUDA available: True
CUDA runtime version: 12.4.131
GPU models and configuration:
GPU 0: NVIDIA H100 80GB HBM3
GPU 1: NVIDIA H100 80GB HBM3
Nvidia driver version: 550.54.15
";

    /// pytorch/pytorch#6041 (dev-g-032): `pip3 install torch` gave 1.4.0, whose PyPI wheel is
    /// the CUDA 10.1 build, on driver 410.78 (CUDA 10.0). The inference is said as one, and
    /// made only where nothing observed speaks.
    #[test]
    fn a_plain_pip_install_of_torch_is_the_pypi_wheels_cuda() {
        let smi =
            "| NVIDIA-SMI 410.78       Driver Version: 410.78       CUDA Version: 10.0     |\n";
        let paste = format!("Ubuntu 16.04\n```pip3 install torch torchvision```\n```print(torch.__version__)```\n1.4.0\n{smi}");
        let d = diagnose(&paste, None, matrix());
        assert_eq!(d.cause, "driver.too_old_for_torch", "{}", d.summary);
        let mut ce = paste::parse(&paste);
        infer_pypi_cuda(&mut ce, matrix());
        assert_eq!(ce.torch_cuda.as_deref(), Some("10.1"));
        assert!(ce
            .found_and_lacking()
            .0
            .iter()
            .any(|f| f.contains("inferred")));
        // a release the matrix holds: its pypi_default variant (2.1 → cu121)
        let mut ce = paste::parse("pip install torch==2.1.2\n>>> torch.__version__\n'2.1.2'\n");
        infer_pypi_cuda(&mut ce, matrix());
        assert_eq!(ce.torch_cuda.as_deref(), Some("12.1"));
        // observed or elsewhere: nothing inferred
        for other in [
            "conda install pytorch torchvision cudatoolkit=10.1 -c pytorch\n",
            "OS: Microsoft Windows 10 Pro\n",
            ">>> torch.version.cuda\n'9.2.148'\n",
        ] {
            let mut ce = paste::parse(&format!(
                "{other}pip3 install torch\n>>> torch.__version__\n'1.4.0'\n"
            ));
            let before = ce.torch_cuda.clone();
            infer_pypi_cuda(&mut ce, matrix());
            assert_eq!(ce.torch_cuda, before, "{other}");
            assert!(!ce.torch_cuda_inferred, "{other}");
        }
    }

    /// "without a GPU" says the machine has none only when it is the machine's (a laptop, a
    /// server, "I'm running without"), not a container started "without GPU enabled".
    #[test]
    fn the_reporters_own_container_start_is_the_one_that_counts() {
        // anibali/docker-pytorch#27: plain `docker run`, then the maintainer's `--gpus=all`
        // suggestion further down
        let paste = "after connected to container with command `docker run -it anibali/pytorch:1.4.0-cuda10.1 sh`\nboth nvcc and nvidia-smi not found.\n\nOutput from my vm's nvidia-smi.\n| NVIDIA-SMI 435.21       Driver Version: 435.21       CUDA Version: 10.1     |\n|   0  Tesla V100-PCIE...  Off  | 00000000:37:00.0 Off |                    0 |\n\nmaintainer: you should be able to run the following\n$ docker run -it --gpus=all nvidia/cuda:10.1-base-ubuntu16.04 nvidia-smi";
        assert!(!combine::container_started_with_gpus(paste));
        let m = Matrix::bundled().unwrap();
        assert_eq!(diagnose(paste, None, &m).cause, "host.container_no_gpu");
        // the same with the reporter's own --gpus: started with them
        assert!(combine::container_started_with_gpus(
            "docker run --gpus all img\nlater: docker run img sh"
        ));
    }

    #[test]
    fn a_capability_said_unsupported_names_the_program_that_lacks_it() {
        let m = Matrix::bundled().unwrap();
        // ollama/ollama#1877: CUDA error 999 read alone, the maintainer's sentence decides
        let paste = "Title: CUDA error 999\nI have a gtx 950M, cuda 12.3, Nvidia driver 545.23.08, ubuntu 22.04.3\nmaintainer: The GTX 950 is a Compute Capability 5.2 card, which is not currently supported by our build configuration of the CUDA libs.";
        assert_eq!(diagnose(paste, None, &m).cause, "ext.arch_unsupported");
        // AlexeyAB/darknet#804: "no kernel image" with the program's own floor
        let paste = "CUDA Error: no kernel image is available for execution on the device\ni have cuda 9.1 ( GeForce GT 625M )\nYour GPU too old. Darknet doesn't support CC 2.1 such as GeForce GT 625M.";
        assert_eq!(diagnose(paste, None, &m).cause, "ext.arch_unsupported");
        // a minimum alone says nothing of the GPU at hand
        assert_eq!(
            combine::stated_arch_cause("vLLM requires compute capability 7.0 or higher"),
            None
        );
    }

    #[test]
    fn a_driver_named_by_its_branch_does_not_fail_a_minimum_inside_it() {
        // NVIDIA/gpu-rest-engine#35: "DGX OS 3.17 which contains 384 drivers and CUDA 9.0"
        let m = Matrix::bundled().unwrap();
        let d = diagnose("I am on DGX OS 3.17 which contains 384 drivers and CUDA 9.0 support.\nnvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation tools, release 9.0, V9.0.176", None, &m);
        assert_eq!(d.collect_env.driver.as_deref(), Some("384"));
        assert!(d
            .collect_env
            .cuda_runtime
            .as_deref()
            .is_some_and(|v| v.starts_with("9.0")));
        assert!(
            !d.report
                .findings
                .iter()
                .any(|f| f.id == "driver.too_old_for_toolkit" && f.severity >= Severity::Warn),
            "{:?}",
            d.report
                .findings
                .iter()
                .map(|f| (&f.id, f.severity))
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn a_machine_without_a_gpu_is_said_of_the_machine() {
        let no_gpu = |t: &str| combine::says_no_nvidia_gpu(t, &paste::parse(t));
        assert!(no_gpu("I run it on a laptop without a dedicated GPU"));
        assert!(no_gpu("I'm running without a GPU, CPU only"));
        assert!(!no_gpu(
            "and one container was established but without GPU enabled."
        ));
    }

    #[test]
    fn a_healthy_paste_is_none_and_absent_facts_say_how_to_get_them() {
        let d = diagnose(PASTE, None, matrix());
        assert_eq!(d.cause, "none", "{:#?}", d.report.findings);
        let f = &d.report.facts;
        assert!(f
            .system
            .shm_bytes
            .reason()
            .unwrap()
            .contains("df -h /dev/shm"));
        assert_eq!(crate::checks::view::nvml_devices(f).len(), 2);
        assert_eq!(
            f.python[0].torch[0].cuda.value(),
            Some(&Some("12.4".to_string()))
        );
        assert!(d
            .report
            .findings
            .iter()
            .any(|x| x.id == "driver.library_mismatch"
                && x.severity == Severity::Info
                && x.summary.starts_with("not judged")));
        // the pass of the arch check comes from the matrix's record of the build
        assert!(d
            .report
            .findings
            .iter()
            .any(|x| x.id == "torch.arch_unsupported" && x.severity == Severity::Pass));
    }

    #[test]
    fn an_old_driver_fails_and_a_log_confirmed_by_the_paste_wins() {
        let old = PASTE
            .replace("550.54.15", "470.82.01")
            .replace("Is CUDA available: True", "Is CUDA available: False");
        let d = diagnose(&old, None, matrix());
        assert_eq!(d.cause, "driver.too_old_for_torch");
        assert_eq!(d.from, "findings");
        let d = diagnose(
            &old,
            Some("RuntimeError: No CUDA GPUs are available"),
            matrix(),
        );
        assert_eq!(d.cause, "driver.too_old_for_torch");
        assert_eq!(d.from, "log");
        // the same log on a paste where CUDA works: the log observed the old driver
        // ("found version 11040"), which outranks what the paste lets one infer
        let d = diagnose(
            PASTE,
            Some("The NVIDIA driver on your system is too old (found version 11040)"),
            matrix(),
        );
        assert_eq!(d.cause, "driver.too_old_for_torch");
        assert_eq!(d.from, "log");
        // without an observed version the paste's working CUDA rules the driver out
        let d = diagnose(
            PASTE,
            Some("RuntimeError: No CUDA GPUs are available"),
            matrix(),
        );
        assert_ne!(d.cause, "driver.too_old_for_torch");
        // an old driver the paste shows working: the table's failure is contradicted
        let works = PASTE.replace("550.54.15", "470.82.01");
        let d = diagnose(&works, None, matrix());
        let f = d
            .report
            .findings
            .iter()
            .find(|f| f.id == "driver.too_old_for_torch" && f.summary.contains("is too old"))
            .unwrap();
        assert_eq!(f.severity, Severity::Info);
        assert!(f.summary.contains("did not stop CUDA"));
        assert_eq!(d.cause, "none");
    }

    #[test]
    fn mig_and_package_minimums_come_from_the_paste() {
        let mig = PASTE.replace(
            "GPU 1: NVIDIA H100 80GB HBM3\n",
            "MIG 3g.40gb     Device  0:\n",
        );
        let d = diagnose(
            &mig,
            Some("device >= 0 && device < num_gpus INTERNAL ASSERT FAILED"),
            matrix(),
        );
        assert_eq!(d.cause, "gpu.mig_enabled");
        let p100 = format!(
            "{}\n[pip3] vllm==0.5.0\n",
            PASTE.replace("NVIDIA H100 80GB HBM3", "Tesla P100-PCIE-16GB")
        );
        let d = diagnose(&p100, None, matrix());
        assert_eq!(d.cause, "ext.arch_unsupported", "{:#?}", d.report.findings);
    }

    /// detectron2's arch flags against the GPUs it lists (detectron2#251: sm_70 build on P40s).
    #[test]
    fn an_extension_built_for_other_archs_fails_from_its_flags() {
        let paste = "sys.platform            linux\nCUDA compiler           CUDA 10.0\ndetectron2 arch flags   sm_70\nPyTorch                 1.4.0+cu100 @/x/torch\nGPU available           True\nGPU 0,1                 Tesla P40\n";
        let d = diagnose(paste, None, matrix());
        assert_eq!(d.cause, "ext.arch_unsupported", "{:#?}", d.report.findings);
        let ok = paste.replace("sm_70", "6.1, 7.0");
        let d = diagnose(&ok, None, matrix());
        assert!(!d
            .report
            .findings
            .iter()
            .any(|f| f.id == "ext.arch_unsupported" && f.severity == Severity::Fail));
    }

    /// A pasted nvidia-smi table observed the driver answering with its GPUs: a log line
    /// that only lets one infer "no driver" (here seen inside a container) cannot make
    /// the diagnosis a missing or unloaded driver. Header and row from
    /// https://github.com/tloen/alpaca-lora/issues/174.
    #[test]
    fn a_pasted_nvidia_smi_table_outranks_an_inferred_missing_driver() {
        let smi = "| NVIDIA-SMI 530.30.02              Driver Version: 530.30.02    CUDA Version: 12.1     |
|   0  NVIDIA A100-SXM4-80GB           On | 00000000:05:00.0 Off |                    0 |
";
        let log = "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx";
        let d = diagnose(smi, Some(log), matrix());
        assert!(d.collect_env.smi_answered);
        assert_eq!(d.from, "log");
        for id in SMI_ANSWERED_RULES_OUT {
            assert_ne!(d.cause, *id, "{}", d.summary);
        }
        // without the table the same log alone names a machine without an NVIDIA GPU
        let d = diagnose("", Some(log), matrix());
        assert_eq!(d.cause, "host.no_nvidia_gpu", "{}", d.summary);
        // a table that failed ("NVIDIA-SMI has failed") observes nothing of the kind
        let d = diagnose(
            "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.",
            None,
            matrix(),
        );
        assert!(!d.collect_env.smi_answered);
        assert_eq!(d.cause, "driver.module_not_loaded", "{}", d.summary);
    }

    /// A container engine that cannot resolve the CDI device it was asked for did not start
    /// the container with the GPUs, and the host's `nvidia-smi -L` listing the GPU rules out
    /// a missing driver: the container's GPU setup is the cause. From
    /// https://github.com/podman-container-tools/podman/issues/17539.
    #[test]
    fn an_unresolvable_cdi_device_is_the_container_setup() {
        let paste =
            "$ sudo podman run -ti --rm --device=nvidia.com/gpu=0 ubuntu:18.04 nvidia-smi -L
GPU 0: Tesla P100-PCIE-16GB (UUID: GPU-e50303da-eb0a-d9d3-d573-36e049ff6dc9)
$ podman run -ti --rm --device=nvidia.com/gpu=0 ubuntu:18.04 nvidia-smi -L
Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=0
";
        let d = diagnose(paste, None, matrix());
        assert_eq!(d.cause, "host.container_no_gpu", "{}", d.summary);
    }

    /// containerd without an nvidia runtime handler is observed: no GPU pod can start with
    /// the GPUs. From https://github.com/NVIDIA/gpu-operator/issues/1679.
    #[test]
    fn a_runtime_without_the_nvidia_handler_is_the_container_setup() {
        let paste = "- nvidia-dcgm-exporter, nvidia-device-plugin-daemonset, nvidia-operator-validator, gpu-feature-discovery all getting \"no runtime for \"nvidia\" is configured\"\n";
        let d = diagnose(paste, None, matrix());
        assert_eq!(d.cause, "host.container_no_gpu", "{}", d.summary);
        assert!(d
            .collect_env
            .formats
            .iter()
            .any(|f| f == "container runtime"));
    }

    /// NVLink links a paste lists down are the diagnosis where nothing else fails. From
    /// https://github.com/NVIDIA/DCGM/issues/198.
    #[test]
    fn nvlink_links_listed_down_are_the_diagnosis() {
        let paste = "dcgmi nvlink --link-status
GPUs:
    gpuId 0:
        D D D D D D D D D D D D D D D D D D
| Driver Version Detected   | 560.35.03                                      |
";
        let d = diagnose(paste, None, matrix());
        assert_eq!(d.cause, "gpu.nvlink_down", "{}", d.summary);
        assert_eq!(d.collect_env.driver.as_deref(), Some("560.35.03"));
    }

    /// torch's own error shows CUDA ran (it allocated on the GPU): the matrix's inference
    /// that the driver is too old for the build is contradicted, and the traceback's error
    /// is the diagnosis. Environment from https://github.com/vllm-project/vllm/pull/7943
    /// (driver 470 with a cu121 build), the error from https://github.com/Comfy-Org/ComfyUI/issues/5278.
    #[test]
    fn a_traceback_that_ran_cuda_outranks_the_matrix() {
        let env = "PyTorch version: 2.4.0+cu121
CUDA used to build PyTorch: 12.1
OS: Ubuntu 22.04.3 LTS (x86_64)
GPU models and configuration:
GPU 0: NVIDIA A10
Nvidia driver version: 470.129.06
";
        let d = diagnose(env, None, matrix());
        assert_eq!(d.cause, "driver.too_old_for_torch", "{}", d.summary);
        let oom = format!(
            "{env}torch.OutOfMemoryError: Allocation on device \nCUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 22.06 GiB\n"
        );
        let d = diagnose(&oom, None, matrix());
        assert_eq!(d.collect_env.cuda_available, Some(true));
        assert_eq!(d.cause, "workload.out_of_memory", "{}", d.summary);
        let old = d
            .report
            .findings
            .iter()
            .find(|f| f.id == "driver.too_old_for_torch" && f.summary.contains("too old"))
            .unwrap();
        assert_eq!(old.severity, Severity::Info, "{}", old.summary);
        // collect_env itself observed CUDA working on that driver (the PR's own paste):
        // nothing is wrong, a newer toolkit of the same CUDA major included
        let works = format!("{env}Is CUDA available: True\nCUDA runtime version: 12.2.140\n");
        let d = diagnose(&works, None, matrix());
        assert_eq!(d.cause, "none", "{}", d.summary);
    }

    /// Kernel lines in the paste that observe a cause are findings of their own (dmesg from
    /// https://github.com/mattshma/bigdata/issues/133).
    #[test]
    fn kernel_lines_that_observe_a_cause_are_findings() {
        let d = diagnose(
            "[188549.976351] NVRM: The NVIDIA probe routine was not called for 3 device(s).\n[188549.977053] NVRM: This can occur when a driver such as: \nNVRM: nouveau, rivafb, nvidiafb or rivatv \nNVRM: was loaded and obtained ownership of the NVIDIA device(s).\n",
            None,
            matrix(),
        );
        assert_eq!(d.cause, "driver.nouveau_loaded", "{}", d.summary);
        assert!(d
            .report
            .findings
            .iter()
            .any(|f| f.id == "driver.nouveau_loaded" && f.severity == Severity::Fail));
    }

    /// A paste whose error only the generic fallback ranks never ends as "none"; an
    /// environment key line ("cuDNN version: Could not collect") is not such an error.
    /// The error line from https://github.com/facebookresearch/ParlAI/issues/831.
    #[test]
    fn an_error_only_the_generic_fallback_ranks_is_never_none() {
        let d = diagnose(PASTE, None, matrix());
        assert_eq!(d.cause, "none");
        let with_keys = format!("{PASTE}cuDNN version: Could not collect\n");
        assert_eq!(diagnose(&with_keys, None, matrix()).cause, "none");
        let err = "I get `AttributeError: module 'torch._C' has no attribute '_cuda_getDevice'` when running interactive.py on a non CUDA device\n";
        let d = diagnose(err, None, matrix());
        assert_ne!(d.cause, "none", "{}", d.summary);
        assert_eq!(d.from, "paste error (generic)");
        assert!(d.log.is_some());
    }

    /// A CPU build with words that blame it outranks an empty verdict (torch.cpu_only);
    /// the same build in a CPU-only machine's collect_env stays "none".
    #[test]
    fn a_cpu_build_blamed_in_the_paste_is_the_cause() {
        let said = "# Cuda not compiled\nIt seems that only torch2.2.0+cpu is installed, so the cuda version of torch is missing.\n";
        assert_eq!(diagnose(said, None, matrix()).cause, "torch.cpu_only");
        let cpu_machine = "PyTorch version: 2.0.0+cpu\nCUDA used to build PyTorch: None\nIs CUDA available: False\nGPU models and configuration: No CUDA\nNvidia driver version: No CUDA\n";
        assert_eq!(diagnose(cpu_machine, None, matrix()).cause, "none");
    }

    /// Round 6: a chip code name gives the compute capability of a GPU the matrix does not
    /// know by name, and a driver branch the matrix does not list drops at least what the
    /// branch below it dropped (github.com/canonical/nvidia-graphics-drivers/issues/36).
    #[test]
    fn chip_code_names_give_the_cc_of_unknown_gpus() {
        assert_eq!(chip_cc("GF108GLM"), Some((2, 1)));
        assert_eq!(chip_cc("GF110"), Some((2, 0)));
        assert_eq!(chip_cc("GK210GL"), Some((3, 7)));
        assert_eq!(chip_cc("TU106M"), Some((7, 5)));
        assert_eq!(chip_cc("GB202"), Some((12, 0)));
        assert_eq!(chip_cc("Device"), None);
        let m = Matrix::bundled().unwrap();
        let d = diagnose(
            "vendor   : NVIDIA Corporation\nmodel    : GF108GLM [NVS 5200M]\nI installed the nvidia-driver-435 package.\n",
            None,
            &m,
        );
        assert_eq!(d.cause, "driver.gpu_unsupported", "{}", d.summary);
        let d = diagnose(
            "vendor   : NVIDIA Corporation\nmodel    : GF108GLM [NVS 5200M]\nI installed the nvidia-driver-390 package.\n",
            None,
            &m,
        );
        assert_ne!(d.cause, "driver.gpu_unsupported", "{}", d.summary);
    }

    #[test]
    fn garbage_is_an_empty_paste_not_a_panic() {
        let d = diagnose("\u{0}\u{fffd}garbage: 1\nGPU 0:\n", Some("\u{0}"), matrix());
        assert!(d.collect_env.is_empty());
        assert!(render_json(&d).is_ok());
        let _ = render_text(&d, false, true);
    }

    /// A torch release none of whose possible CUDA builds covers the GPU named
    /// (https://github.com/lllyasviel/stable-diffusion-webui-forge/issues/2886), and its
    /// control: a release that covers it.
    #[test]
    fn a_torch_release_without_kernels_for_the_gpu_named() {
        let m = Matrix::bundled().unwrap();
        let text = "# RTX 5070 (Blackwell) Your device does not support the current version of Torch/CUDA!\nRuntimeError: Your device does not support the current version of Torch/CUDA! Consider download another version\nI got Forge with CUDA 12.4 + Pytorch 2.4\n";
        let d = diagnose(text, None, &m);
        assert_eq!(d.cause, "torch.arch_unsupported", "{}", d.summary);
        let text = "RuntimeError: Your device does not support the current version of Torch/CUDA!\nRTX 5070 with CUDA 12.8 + Pytorch 2.7\n";
        assert_ne!(diagnose(text, None, &m).cause, "torch.arch_unsupported");
    }
}
