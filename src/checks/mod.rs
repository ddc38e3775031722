//! Step 2: turn facts into findings. Every check is a pure function of the facts (no
//! I/O), registered once in [`ALL`] with its stable id; help, JSON and tests all read
//! that one list.

pub mod arch;
pub mod budget;
pub mod catalogue;
pub mod causes;
pub mod closure;
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
use crate::finding::Finding;
use crate::matrix::Matrix;

pub use catalogue::{Action, Area, Check, PasteGap};

// Every check's definition, for code outside `checks/` that names one (diagnose, explain).
pub use arch::{
    EXT_ARCH_UNSUPPORTED, TOOLKIT_ARCH_UNSUPPORTED, TORCH_ARCH_UNSUPPORTED, TORCH_PTX_JIT_ONLY,
};
pub use budget::HOST_BUDGET_SKIPPED;
pub use compat::{
    DRIVER_BRANCH_EOL, DRIVER_GPU_UNSUPPORTED, DRIVER_MINOR_VERSION_COMPAT,
    DRIVER_OPEN_MODULE_REQUIRED, DRIVER_TOO_OLD_FOR_TOOLKIT, DRIVER_TOO_OLD_FOR_TORCH,
};
pub use driver::{
    DRIVER_COMPAT_PACKAGE_MISMATCH, DRIVER_CUDA_INIT_FAILED, DRIVER_DEVICE_NODES,
    DRIVER_FABRIC_MANAGER, DRIVER_FORWARD_COMPAT_UNSUPPORTED, DRIVER_LIBRARY_MISMATCH,
    DRIVER_MODULE_NOT_LOADED, DRIVER_NOT_INSTALLED, DRIVER_NOUVEAU_LOADED, DRIVER_NVML_FAILED,
    DRIVER_STUB_LIBRARY, DRIVER_UVM_UNAVAILABLE,
};
pub use env::{
    ENV_ALLOC_CONF_INVALID, ENV_ARCH_LIST_MISMATCH, ENV_DEVICE_ORDER, ENV_LAUNCH_BLOCKING,
    ENV_VISIBLE_DEVICES_EMPTY, ENV_VISIBLE_DEVICES_INVALID,
};
pub use gpu::{
    DRIVER_PERSISTENCE_OFF, GPU_BUSY, GPU_COMPUTE_MODE_RESTRICTED, GPU_ECC_ERRORS, GPU_LOST,
    GPU_MIG_ENABLED, GPU_PCIE_DEGRADED, GPU_RETIRED_PAGES, GPU_ROW_REMAP, GPU_THROTTLED,
};
pub use host::{
    GPU_MISSING, HOST_CONTAINER_NO_GPU, HOST_EXPECTED_GPUS, HOST_NO_NVIDIA_GPU, HOST_SHM_SMALL,
};
pub use probe::{
    DRIVER_ENTRY_POINT_MISSING, PROBE_BANDWIDTH, PROBE_CUBLASLT, PROBE_GRAPH, PROBE_GRID_LIMIT,
    PROBE_LAUNCH, PROBE_OOM, PROBE_ORDINAL,
};
pub use toolkit::{
    TOOLKIT_MULTIPLE, TOOLKIT_NOT_FOUND, TOOLKIT_PATH_INCONSISTENT, TOOLKIT_TORCH_MISMATCH,
};
pub use torch::{
    TORCH_CPU_ONLY, TORCH_CUDA_UNAVAILABLE, TORCH_LIBS_SHADOWED, TORCH_MULTIPLE_INSTALLS,
    TORCH_NOT_FOUND, TORCH_WHEEL_DEPS_MISMATCH,
};
pub use xid::GPU_XID;

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

/// Every check, in report order.
pub const ALL: &[&Check] = &[
    &host::HOST_NO_NVIDIA_GPU,
    &host::HOST_CONTAINER_NO_GPU,
    &host::HOST_SHM_SMALL,
    &host::HOST_EXPECTED_GPUS,
    &budget::HOST_BUDGET_SKIPPED,
    &driver::DRIVER_NOT_INSTALLED,
    &driver::DRIVER_MODULE_NOT_LOADED,
    &driver::DRIVER_NOUVEAU_LOADED,
    &driver::DRIVER_LIBRARY_MISMATCH,
    &driver::DRIVER_NVML_FAILED,
    &driver::DRIVER_CUDA_INIT_FAILED,
    &driver::DRIVER_UVM_UNAVAILABLE,
    &driver::DRIVER_FABRIC_MANAGER,
    &driver::DRIVER_COMPAT_PACKAGE_MISMATCH,
    &driver::DRIVER_FORWARD_COMPAT_UNSUPPORTED,
    &driver::DRIVER_DEVICE_NODES,
    &driver::DRIVER_STUB_LIBRARY,
    &probe::DRIVER_ENTRY_POINT_MISSING,
    &compat::DRIVER_TOO_OLD_FOR_TOOLKIT,
    &compat::DRIVER_TOO_OLD_FOR_TORCH,
    &compat::DRIVER_MINOR_VERSION_COMPAT,
    &compat::DRIVER_GPU_UNSUPPORTED,
    &compat::DRIVER_OPEN_MODULE_REQUIRED,
    &compat::DRIVER_BRANCH_EOL,
    &gpu::DRIVER_PERSISTENCE_OFF,
    &gpu::GPU_LOST,
    &host::GPU_MISSING,
    &gpu::GPU_ECC_ERRORS,
    &gpu::GPU_RETIRED_PAGES,
    &gpu::GPU_ROW_REMAP,
    &xid::GPU_XID,
    &gpu::GPU_PCIE_DEGRADED,
    &gpu::GPU_THROTTLED,
    &gpu::GPU_MIG_ENABLED,
    &gpu::GPU_BUSY,
    &gpu::GPU_COMPUTE_MODE_RESTRICTED,
    &toolkit::TOOLKIT_NOT_FOUND,
    &toolkit::TOOLKIT_MULTIPLE,
    &toolkit::TOOLKIT_PATH_INCONSISTENT,
    &arch::TOOLKIT_ARCH_UNSUPPORTED,
    &toolkit::TOOLKIT_TORCH_MISMATCH,
    &torch::TORCH_NOT_FOUND,
    &torch::TORCH_CPU_ONLY,
    &torch::TORCH_MULTIPLE_INSTALLS,
    &torch::TORCH_LIBS_SHADOWED,
    &torch::TORCH_CUDA_UNAVAILABLE,
    &torch::TORCH_WHEEL_DEPS_MISMATCH,
    &arch::TORCH_ARCH_UNSUPPORTED,
    &arch::TORCH_PTX_JIT_ONLY,
    &arch::EXT_ARCH_UNSUPPORTED,
    &env::ENV_VISIBLE_DEVICES_EMPTY,
    &env::ENV_VISIBLE_DEVICES_INVALID,
    &env::ENV_DEVICE_ORDER,
    &env::ENV_LAUNCH_BLOCKING,
    &env::ENV_ALLOC_CONF_INVALID,
    &env::ENV_ARCH_LIST_MISMATCH,
    &probe::PROBE_LAUNCH,
    &probe::PROBE_GRID_LIMIT,
    &probe::PROBE_ORDINAL,
    &probe::PROBE_CUBLASLT,
    &probe::PROBE_GRAPH,
    &probe::PROBE_BANDWIDTH,
    &probe::PROBE_OOM,
];

/// A check that panicked: the rest of the report still stands, but the verdict is incomplete.
#[derive(
    Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct CheckError {
    pub id: String,
    pub message: String,
}

/// A warn or fail finding carries an action a scheduler can act on: its own where the
/// check set one (an Xid's code), else the check's from the catalogue. Passes and info
/// findings carry none.
fn with_action(mut f: Finding, check: &Check) -> Finding {
    check.name.clone_into(&mut f.check);
    if f.severity >= crate::finding::Severity::Warn {
        f.action.get_or_insert(check.action);
    } else {
        f.action = None;
    }
    f
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
            Ok(f) => findings.extend(
                f.into_iter()
                    .map(|x| with_action(evidence::place_fix(facts, x), check)),
            ),
            Err(payload) => errors.push(CheckError {
                id: check.id.to_string(),
                message: panic_message(payload.as_ref()),
            }),
        }
    }
    // Symptoms name their cause (803 under the library mismatch); severities stay.
    causes::link(&mut findings);
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

    /// The README's table of checks is generated: it must be `gpu-doctor checks --markdown`
    /// byte for byte (regenerate it with that command when a check changes).
    #[test]
    fn readme_table_is_the_generated_catalogue() {
        let readme = include_str!("../../README.md");
        let table = catalogue::markdown();
        let header = table.lines().next().unwrap_or("");
        let start = readme.find(header).expect("README has the table of checks");
        let end = readme[start..]
            .find("\n\n")
            .map_or(readme.len(), |e| start + e + 1);
        assert_eq!(
            &readme[start..end],
            table,
            "README.md's table of checks is stale: replace it with `gpu-doctor checks --markdown`"
        );
    }

    /// Every warn or fail finding names an action (the check's, or its own); passes and
    /// info findings name none.
    #[test]
    fn warn_and_fail_findings_carry_an_action() {
        for facts in [healthy(), no_gpu()] {
            let (findings, _) = evaluate(
                &facts,
                matrix(),
                &CheckOptions {
                    expect_gpus: Some(8),
                },
                &Selection::default(),
            );
            assert!(findings.iter().any(|f| f.severity >= Severity::Warn));
            for f in findings {
                let check = catalogue::by_id(&f.id).unwrap();
                if f.severity >= Severity::Warn {
                    assert_eq!(f.action, Some(check.action), "{}", f.id);
                } else {
                    assert_eq!(f.action, None, "{}", f.id);
                }
            }
        }
    }

    /// Every id a check emits, on any of the fixture machines, is a catalogue id.
    #[test]
    fn every_emitted_id_is_in_the_catalogue() {
        for facts in [healthy(), no_gpu()] {
            let (findings, _) = evaluate(
                &facts,
                matrix(),
                &CheckOptions {
                    expect_gpus: Some(8),
                },
                &Selection::default(),
            );
            for f in findings {
                assert!(catalogue::by_id(&f.id).is_some(), "{}", f.id);
            }
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
