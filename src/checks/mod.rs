//! Step 2: turn facts into findings. Every check is a pure function of the facts (no
//! I/O), registered once in [`ALL`] with its stable id; help, JSON and tests all read
//! that one list.

pub mod arch;
pub mod closure;

pub mod budget;
pub mod compat;
pub mod driver;
pub mod env;
pub mod evidence;
pub mod gpu;
pub mod host;
pub mod probe;
#[cfg(test)]
pub(crate) mod testutil;
pub mod toolkit;
pub mod torch;
pub mod view;
pub mod xid;

use crate::facts::Facts;
use crate::matrix::Matrix;
use crate::finding::Finding;

/// Options that change what the checks demand.
#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    /// `--expect-gpus N`: fewer usable GPUs is a failure.
    pub expect_gpus: Option<u32>,
}

/// Inputs of every check.
pub struct Ctx<'a> {
    pub facts: &'a Facts,
    pub opts: &'a CheckOptions,
    pub matrix: &'a Matrix,
}

/// One registered check: the ids it may emit, what it is about, and the function.
pub struct Check {
    /// The finding id this check emits.
    pub id: &'static str,
    pub title: &'static str,
    pub run: fn(&Ctx) -> Vec<Finding>,
}

macro_rules! check {
    ($id:literal, $title:literal, $f:path) => {
        Check {
            id: $id,
            title: $title,
            run: $f,
        }
    };
}

/// Every check, in report order.
pub const ALL: &[Check] = &[
    check!(
        "host.no_nvidia_gpu",
        "an NVIDIA GPU is present",
        host::no_nvidia_gpu
    ),
    check!(
        "host.container_no_gpu",
        "a container was started with the GPUs",
        host::container_no_gpu
    ),
    check!(
        "host.shm_small",
        "/dev/shm is large enough for NCCL and DataLoader workers",
        host::shm_small
    ),
    check!(
        "host.expected_gpus",
        "at least --expect-gpus GPUs are usable",
        host::expected_gpus
    ),
    check!(
        "host.budget_skipped",
        "(--budget) every step fitted in the time budget",
        budget::budget_skipped
    ),
    check!(
        "driver.not_installed",
        "an NVIDIA driver is installed",
        driver::not_installed
    ),
    check!(
        "driver.module_not_loaded",
        "the NVIDIA kernel module is loaded",
        driver::module_not_loaded
    ),
    check!(
        "driver.nouveau_loaded",
        "nouveau does not hold the GPU",
        driver::nouveau_loaded
    ),
    check!(
        "driver.library_mismatch",
        "kernel module and user-space libraries are one release",
        driver::library_mismatch
    ),
    check!(
        "driver.nvml_failed",
        "NVML initialises",
        driver::nvml_failed
    ),
    check!(
        "driver.cuda_init_failed",
        "cuInit succeeds",
        driver::cuda_init_failed
    ),
    check!(
        "driver.uvm_unavailable",
        "nvidia_uvm works",
        driver::uvm_unavailable
    ),
    check!(
        "driver.fabric_manager",
        "the NVSwitch fabric is ready (no CUDA error 802)",
        driver::fabric_manager
    ),
    check!(
        "driver.compat_package_mismatch",
        "the libcuda in use matches the kernel module (no CUDA error 803)",
        driver::compat_package_mismatch
    ),
    check!(
        "driver.forward_compat_unsupported",
        "forward compatibility is used only where supported (no CUDA error 804)",
        driver::forward_compat_unsupported
    ),
    check!(
        "driver.device_nodes",
        "/dev/nvidia* exist and are accessible",
        driver::device_nodes
    ),
    check!(
        "driver.stub_library",
        "no stub libcuda.so comes before the driver's",
        driver::stub_library
    ),
    check!(
        "driver.entry_point_missing",
        "libcuda has every entry point the probes call",
        probe::entry_point_missing
    ),
    check!(
        "driver.too_old_for_toolkit",
        "the driver is new enough for each CUDA toolkit",
        compat::too_old_for_toolkit
    ),
    check!(
        "driver.too_old_for_torch",
        "the driver is new enough for each PyTorch build's CUDA",
        compat::too_old_for_torch
    ),
    check!(
        "driver.minor_version_compat",
        "nothing depends on CUDA minor version compatibility",
        compat::minor_version_compat
    ),
    check!(
        "driver.gpu_unsupported",
        "the driver branch drives every GPU present",
        compat::gpu_unsupported
    ),
    check!(
        "driver.open_module_required",
        "GPUs that need the open kernel modules have them",
        compat::open_module_required
    ),
    check!(
        "driver.branch_eol",
        "the driver branch is still supported",
        compat::branch_eol
    ),
    check!(
        "driver.persistence_off",
        "datacenter GPUs run with persistence mode",
        gpu::persistence_off
    ),
    check!("gpu.lost", "NVML reaches every GPU", gpu::lost),
    check!(
        "gpu.missing",
        "PCI, NVML and CUDA see the same GPUs",
        host::gpu_missing
    ),
    check!(
        "gpu.ecc_errors",
        "no uncorrectable (or many corrected) ECC errors",
        gpu::ecc_errors
    ),
    check!(
        "gpu.retired_pages",
        "no memory pages waiting for retirement, and room to retire more",
        gpu::retired_pages
    ),
    check!(
        "gpu.row_remap",
        "no failed or pending memory row remaps",
        gpu::row_remap
    ),
    check!(
        "gpu.xid",
        "no GPU (Xid) or NVSwitch (SXid) errors in the kernel log this boot",
        xid::xid
    ),
    check!(
        "gpu.pcie_degraded",
        "each GPU's PCIe link runs at its full width and generation",
        gpu::pcie_degraded
    ),
    check!(
        "gpu.throttled",
        "no hardware, thermal or power-brake slowdown",
        gpu::throttled
    ),
    check!(
        "gpu.mig_enabled",
        "MIG state, its instances and what CUDA_VISIBLE_DEVICES must name",
        gpu::mig_enabled
    ),
    check!(
        "gpu.busy",
        "no other processes hold the GPUs' memory or compute",
        gpu::busy
    ),
    check!(
        "gpu.compute_mode_restricted",
        "compute mode lets CUDA processes in",
        gpu::compute_mode_restricted
    ),
    check!(
        "toolkit.not_found",
        "a CUDA toolkit is installed",
        toolkit::not_found
    ),
    check!(
        "toolkit.multiple",
        "which toolkits are installed",
        toolkit::multiple
    ),
    check!(
        "toolkit.path_inconsistent",
        "nvcc on PATH, CUDA_HOME and /usr/local/cuda agree",
        toolkit::path_inconsistent
    ),
    check!(
        "toolkit.arch_unsupported",
        "each toolkit can compile for the GPUs present",
        arch::toolkit_arch_unsupported
    ),
    check!(
        "toolkit.torch_mismatch",
        "the toolkit extensions build with matches PyTorch's CUDA",
        toolkit::torch_mismatch
    ),
    check!("torch.not_found", "PyTorch is installed", torch::not_found),
    check!("torch.cpu_only", "PyTorch is a CUDA build", torch::cpu_only),
    check!(
        "torch.multiple_installs",
        "one PyTorch per environment",
        torch::multiple_installs
    ),
    check!(
        "torch.libs_shadowed",
        "LD_LIBRARY_PATH does not shadow PyTorch's CUDA libraries",
        torch::libs_shadowed
    ),
    check!(
        "torch.cuda_unavailable",
        "(--deep) torch.cuda.is_available() is True",
        torch::cuda_unavailable
    ),
    check!(
        "torch.wheel_deps_mismatch",
        "the nvidia-* wheels match the torch build",
        torch::wheel_deps_mismatch
    ),
    check!(
        "torch.arch_unsupported",
        "each PyTorch build has kernels for every GPU",
        arch::torch_arch_unsupported
    ),
    check!(
        "torch.ptx_jit_only",
        "no GPU depends on PTX JIT",
        arch::torch_ptx_jit_only
    ),
    check!(
        "ext.arch_unsupported",
        "each CUDA extension has kernels for every GPU",
        arch::ext_arch_unsupported
    ),
    check!(
        "env.visible_devices_empty",
        "CUDA_VISIBLE_DEVICES does not hide every GPU",
        env::visible_devices_empty
    ),
    check!(
        "env.visible_devices_invalid",
        "CUDA_VISIBLE_DEVICES names existing GPUs",
        env::visible_devices_invalid
    ),
    check!(
        "env.device_order",
        "CUDA numbers the GPUs as nvidia-smi does",
        env::device_order
    ),
    check!(
        "env.launch_blocking",
        "CUDA_LAUNCH_BLOCKING is off",
        env::launch_blocking
    ),
    check!(
        "env.alloc_conf_invalid",
        "PYTORCH_CUDA_ALLOC_CONF / PYTORCH_ALLOC_CONF are valid",
        env::alloc_conf_invalid
    ),
    check!(
        "env.arch_list_mismatch",
        "TORCH_CUDA_ARCH_LIST covers the GPUs present",
        env::arch_list_mismatch
    ),
    check!(
        "probe.launch",
        "(probe) a kernel JIT-compiles, runs and computes correctly",
        probe::launch
    ),
    check!(
        "probe.grid_limit",
        "(probe) grids at the limit run completely; one past is refused cleanly",
        probe::grid_limit
    ),
    check!(
        "probe.ordinal",
        "(probe) every ordinal opens; one past the count fails cleanly",
        probe::ordinal
    ),
    check!(
        "probe.cublaslt",
        "(probe) cuBLASLt matmuls are correct in every precision the GPU has",
        probe::cublaslt
    ),
    check!(
        "probe.graph",
        "(probe) CUDA graph capture and replay work",
        probe::graph
    ),
    check!(
        "probe.bandwidth",
        "(probe) host↔device copies reach the PCIe link's speed",
        probe::bandwidth
    ),
    check!(
        "probe.oom",
        "(probe) out-of-memory is clean and memory comes back",
        probe::oom
    ),
];

/// A check that panicked: the rest of the report still stands, but the verdict is incomplete.
#[derive(
    Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct CheckError {
    pub id: String,
    pub message: String,
}

/// Runs the selected checks over the facts.
pub fn evaluate(
    facts: &Facts,
    matrix: &Matrix,
    opts: &CheckOptions,
    select: &Selection,
) -> (Vec<Finding>, Vec<CheckError>) {
    let ctx = Ctx {
        facts,
        opts,
        matrix,
    };
    let mut findings = Vec::new();
    let mut errors = Vec::new();
    for check in ALL.iter().filter(|c| select.wants(c.id)) {
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (check.run)(&ctx))) {
            // Inside a container or WSL2, driver fixes are made on the host or in Windows.
            Ok(f) => findings.extend(f.into_iter().map(|x| evidence::place_fix(facts, x))),
            Err(payload) => errors.push(CheckError {
                id: check.id.to_string(),
                message: panic_message(payload.as_ref()),
            }),
        }
    }
    (findings, errors)
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "check panicked".to_string())
}

/// `--only` / `--skip`: ids ("driver.nouveau_loaded") or areas ("driver").
#[derive(Debug, Clone, Default)]
pub struct Selection {
    pub only: Vec<String>,
    pub skip: Vec<String>,
}

impl Selection {
    pub fn wants(&self, id: &str) -> bool {
        let matches = |pat: &String| pat == id || id.split('.').next() == Some(pat.as_str());
        (self.only.is_empty() || self.only.iter().any(matches)) && !self.skip.iter().any(matches)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::testutil::*;
    use crate::finding::Severity;

    #[test]
    fn every_check_emits_only_its_own_id() {
        for facts in [healthy(), no_gpu()] {
            let opts = CheckOptions {
                expect_gpus: Some(1),
            };
            let ctx = Ctx {
                facts: &facts,
                opts: &opts,
                matrix: matrix(),
            };
            for c in ALL {
                for f in (c.run)(&ctx) {
                    assert_eq!(f.id, c.id);
                }
            }
        }
    }

    #[test]
    fn ids_are_unique_and_well_formed() {
        let mut ids: Vec<&str> = ALL.iter().map(|c| c.id).collect();
        ids.sort_unstable();
        let n = ids.len();
        ids.dedup();
        assert_eq!(ids.len(), n);
        for id in ids {
            let (area, name) = id.split_once('.').unwrap();
            assert!(
                ["host", "driver", "toolkit", "torch", "ext", "env", "gpu", "probe"]
                    .contains(&area),
                "{id}"
            );
            assert!(
                name.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{id}"
            );
        }
    }

    #[test]
    fn healthy_node_has_no_warnings_and_no_gpu_machine_fails() {
        let (healthy_findings, errors) = evaluate(
            &healthy(),
            matrix(),
            &CheckOptions::default(),
            &Selection::default(),
        );
        assert!(errors.is_empty());
        let bad: Vec<_> = healthy_findings
            .iter()
            .filter(|f| f.severity >= Severity::Warn)
            .collect();
        assert!(bad.is_empty(), "{bad:#?}");
        let (no_gpu_findings, _) = evaluate(
            &no_gpu(),
            matrix(),
            &CheckOptions::default(),
            &Selection::default(),
        );
        let failed: Vec<&str> = no_gpu_findings
            .iter()
            .filter(|f| f.severity == Severity::Fail)
            .map(|f| f.id.as_str())
            .collect();
        assert_eq!(failed, vec!["host.no_nvidia_gpu"]);
    }

    /// The README's table of checks is the user's list: it must name every registered id
    /// and nothing else.
    #[test]
    fn readme_lists_exactly_the_registered_checks() {
        let readme = include_str!("../../README.md");
        let section = readme
            .split("\n## Findings")
            .nth(1)
            .unwrap_or("")
            .split("\n## ")
            .next()
            .unwrap_or("");
        let table: Vec<&str> = section
            .lines()
            .filter_map(|l| l.strip_prefix("| `")?.split('`').next())
            .filter(|id| {
                id.split_once('.').is_some_and(|(area, name)| {
                    [
                        "host", "driver", "toolkit", "torch", "ext", "gpu", "env", "probe",
                    ]
                    .contains(&area)
                        && name.chars().all(|c| c.is_ascii_lowercase() || c == '_')
                })
            })
            .collect();
        let registered: Vec<&str> = ALL.iter().map(|c| c.id).collect();
        for id in &registered {
            assert!(table.contains(id), "README does not list {id}");
        }
        for id in &table {
            assert!(registered.contains(id), "README lists unregistered {id}");
        }
    }

    #[test]
    fn selection_by_id_and_area() {
        let s = Selection {
            only: vec!["driver".into()],
            skip: vec!["driver.nouveau_loaded".into()],
        };
        assert!(s.wants("driver.library_mismatch"));
        assert!(!s.wants("driver.nouveau_loaded"));
        assert!(!s.wants("torch.cpu_only"));
        assert!(Selection::default().wants("torch.cpu_only"));
        let (findings, _) = evaluate(&healthy(), matrix(), &CheckOptions::default(), &s);
        assert!(findings
            .iter()
            .all(|f| f.area() == "driver" && f.id != "driver.nouveau_loaded"));
        assert!(!findings.is_empty());
    }
}
