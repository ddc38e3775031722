//! Step 1 of the pipeline: gather the machine's facts. Gathering never judges and never
//! fails as a whole: each fact is a value or the reason it is absent.

pub mod driver_api;
pub mod driver_codes;
pub mod driver_libs;
pub mod env;
pub mod fatbin;
pub mod kernel_log;
pub mod kernel_module;
pub mod nvlink;
pub mod nvml_device;
pub mod nvml_topology;
pub mod pci;
pub mod probe;
pub mod python;
pub mod redact;
pub mod system;
pub mod toolkit;

use std::collections::BTreeMap;
use std::path::PathBuf;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::fact::Fact;
use crate::host::Host;

/// Everything gathered about one machine. Saved reports carry this whole, and
/// `--from` re-evaluates it, so every field must round-trip through JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Facts {
    pub system: system::SystemFacts,
    /// NVIDIA display/3D devices on the PCI bus (no driver needed).
    pub pci_gpus: Fact<Vec<pci::PciGpu>>,
    pub kernel_module: kernel_module::KernelModuleFacts,
    pub driver_libs: driver_libs::DriverLibFacts,
    pub driver_api: driver_api::DriverApiFacts,
    pub toolkits: toolkit::ToolkitFacts,
    pub python: Vec<python::PythonEnv>,
    /// CUDA-relevant environment variables that are set (see `facts::env::CUDA_VARIABLES`).
    pub env: BTreeMap<String, String>,
    /// CUDA libraries in LD_LIBRARY_PATH folders (they shadow the wheels' copies).
    pub ld_library_path_libs: Vec<env::LdPathLib>,
    /// Smoke-probe results, one per GPU and probe (empty with --no-probes or no GPU).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub probes: Vec<crate::facts::probe::ProbeResult>,
    /// Xid and SXid events from the kernel log (this boot, or `--since`).
    #[serde(
        default = "kernel_log::not_gathered",
        skip_serializing_if = "kernel_log::is_not_gathered"
    )]
    pub kernel_log: Fact<kernel_log::KernelLogFacts>,
    /// Whether the NVIDIA Fabric Manager runs; gathered only where a GPU reported an
    /// NVSwitch fabric.
    #[serde(
        default = "nvlink::fm_not_gathered",
        skip_serializing_if = "nvlink::fm_is_not_gathered"
    )]
    pub fabric_manager: Fact<nvlink::FabricManager>,
    /// Steps left out because `--budget` ran out, each with what it would have told.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<String>,
}

/// What the user asked gathering to do beyond the defaults.
#[derive(Debug, Clone, Default)]
pub struct GatherOptions {
    /// `--python PATH`, repeatable.
    pub pythons: Vec<PathBuf>,
    /// `--deep`: run each interpreter to ask torch itself.
    pub deep: bool,
    /// `--redact`: replace the host name, user names and GPU UUIDs with stable tokens
    /// (applied to the whole report once judged: `pipeline::judge`, `facts::redact`).
    pub redact: bool,
    /// `--since`: read the kernel log of only this last while (default: since boot).
    pub kernel_log_since: Option<std::time::Duration>,
    /// `--budget`: the whole run ends by then; steps that no longer fit are skipped.
    pub deadline: Option<std::time::Instant>,
    /// The driver worker's answer already asked for this run (the terminal UI's `--gpus`
    /// check before it takes the screen): the first gathering takes it instead of asking the
    /// driver again; later ones (the UI's refresh) ask anew. Shared by the clones of one
    /// request.
    pub driver_api_asked: std::sync::Arc<std::sync::Mutex<Option<driver_api::DriverApiFacts>>>,
}

impl GatherOptions {
    /// Time left before the deadline (`None`: no budget).
    pub fn remaining(&self) -> Option<std::time::Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(std::time::Instant::now()))
    }

    /// True when at least `needed` is left (always without a budget).
    fn fits(&self, needed: std::time::Duration) -> bool {
        self.remaining().is_none_or(|r| r >= needed)
    }
}

/// The least time a step needs to be worth starting under `--budget`.
pub const MIN_KERNEL_LOG_TIME: std::time::Duration = std::time::Duration::from_millis(500);
pub const MIN_DRIVER_WORKER_TIME: std::time::Duration = std::time::Duration::from_secs(1);
pub const MIN_DEEP_PYTHON_TIME: std::time::Duration = std::time::Duration::from_secs(5);

pub const REDACTED: &str = "redacted";

/// The steps of gathering, in order, for progress displays.
pub const STEPS: &[&str] = &[
    "OS, kernel and container",
    "GPUs on the PCI bus",
    "NVIDIA kernel module and device nodes",
    "driver libraries on disk",
    "NVML and cuInit (driver worker)",
    "CUDA toolkits",
    "Python environments and PyTorch builds",
    "CUDA environment variables",
];

pub fn gather(host: &Host, opts: &GatherOptions) -> Facts {
    gather_with_progress(host, opts, &mut |_, _| {})
}

/// `gather`, calling `progress(step, done)` before and after each of [`STEPS`] so a
/// display can show which one is under way (the driver worker and `--deep` can take
/// seconds).
pub fn gather_with_progress(
    host: &Host,
    opts: &GatherOptions,
    progress: &mut dyn FnMut(usize, bool),
) -> Facts {
    let system = step(host, progress, 0, || system::gather(host));
    let pci_gpus = step(host, progress, 1, || pci::gather(host));
    let mut skipped = Vec::new();
    let (kernel_module, kernel_log) = step(host, progress, 2, || {
        let km = kernel_module::gather(host);
        let log = if opts.fits(MIN_KERNEL_LOG_TIME) {
            let limit = opts.remaining().unwrap_or(kernel_log::READ_TIMEOUT);
            let start = std::time::Instant::now();
            let log = kernel_log::gather(host, opts.kernel_log_since, limit);
            host.trace_timing("  kernel log", start);
            log
        } else {
            skipped.push("kernel log (Xid/SXid) not read".to_string());
            Fact::missing("skipped: the --budget was spent")
        };
        (km, log)
    });
    let driver_libs = step(host, progress, 3, || driver_libs::gather(host));
    // The driver worker (NVML and cuInit: 0.2–0.3 s on a real H100, the slowest step by
    // far) runs while the toolkits, Python environments and variables are read.
    let (driver_api, toolkits, python, (env, ld_library_path_libs)) = std::thread::scope(|s| {
        progress(4, false);
        let start = std::time::Instant::now();
        let asked = opts
            .driver_api_asked
            .lock()
            .ok()
            .and_then(|mut slot| slot.take());
        let worker = if let Some(asked) = asked {
            Some(s.spawn(move || asked))
        } else if opts.fits(MIN_DRIVER_WORKER_TIME) {
            Some(s.spawn(|| driver_api::gather(host, &driver_libs)))
        } else {
            skipped.push("NVML and cuInit (driver worker) not run".to_string());
            None
        };
        let toolkits = step(host, progress, 5, || toolkit::gather(host));
        let python = step(host, progress, 6, || {
            let deep = opts.deep && opts.fits(MIN_DEEP_PYTHON_TIME);
            let envs = python::gather(host, &opts.pythons, deep);
            if opts.deep && !deep && envs.iter().any(|e| !e.torch.is_empty()) {
                skipped.push("--deep: PyTorch not asked whether CUDA works".to_string());
            }
            envs
        });
        let env = step(host, progress, 7, || {
            (env::gather(host), env::cuda_libs_on_ld_path(host))
        });
        let driver_api = match worker {
            Some(handle) => handle
                .join()
                .unwrap_or_else(|_| driver_api::DriverApiFacts {
                    nvml: Fact::failed("the driver worker thread panicked"),
                    cuda: Fact::failed("the driver worker thread panicked"),
                }),
            None => driver_api::DriverApiFacts {
                nvml: Fact::missing("skipped: the --budget was spent"),
                cuda: Fact::missing("skipped: the --budget was spent"),
            },
        };
        host.trace_timing(STEPS[4], start);
        progress(4, true);
        (driver_api, toolkits, python, env)
    });
    let fabric_manager = if nvswitch_fabric(&driver_api) {
        nvlink::gather_fabric_manager(host)
    } else {
        nvlink::fm_not_gathered()
    };
    Facts {
        system,
        pci_gpus,
        kernel_module,
        driver_libs,
        driver_api,
        toolkits,
        python,
        env,
        ld_library_path_libs,
        probes: Vec::new(),
        kernel_log,
        fabric_manager,
        skipped,
    }
}

/// True when some GPU reported an NVSwitch fabric (a fabric state other than
/// "not supported").
pub fn nvswitch_fabric(api: &driver_api::DriverApiFacts) -> bool {
    api.nvml
        .value()
        .and_then(|n| n.devices.value())
        .is_some_and(|devices| {
            devices
                .iter()
                .any(|d| d.fabric.value().is_some_and(|f| f.state != "not_supported"))
        })
}

/// Runs one step between its two progress calls.
fn step<T>(
    host: &Host,
    progress: &mut dyn FnMut(usize, bool),
    step: usize,
    f: impl FnOnce() -> T,
) -> T {
    progress(step, false);
    let start = std::time::Instant::now();
    let value = f();
    host.trace_timing(STEPS[step], start);
    progress(step, true);
    value
}
