//! Step 1 of the pipeline: gather the machine's facts. Gathering never judges and never
//! fails as a whole: each fact is a value or the reason it is absent.

pub mod driver_api;
pub mod driver_libs;
pub mod env;
pub mod fatbin;
pub mod kernel_module;
pub mod pci;
pub mod python;
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
}

/// What the user asked gathering to do beyond the defaults.
#[derive(Debug, Clone, Default)]
pub struct GatherOptions {
    /// `--python PATH`, repeatable.
    pub pythons: Vec<PathBuf>,
    /// `--deep`: run each interpreter to ask torch itself.
    pub deep: bool,
    /// `--redact`: replace the host name.
    pub redact: bool,
}

pub const REDACTED: &str = "redacted";

pub fn gather(host: &Host, opts: &GatherOptions) -> Facts {
    let mut system = system::gather(host);
    if opts.redact {
        system.hostname = system.hostname.map(|_| REDACTED.to_string());
    }
    let kernel_module = kernel_module::gather(host);
    let driver_libs = driver_libs::gather(host);
    let driver_api = driver_api::gather(host, &driver_libs);
    Facts {
        system,
        pci_gpus: pci::gather(host),
        kernel_module,
        driver_libs,
        driver_api,
        toolkits: toolkit::gather(host),
        python: python::gather(host, &opts.pythons, opts.deep),
        env: env::gather(host),
        ld_library_path_libs: env::cuda_libs_on_ld_path(host),
    }
}
