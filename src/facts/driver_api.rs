//! NVML (nvml-wrapper) and the CUDA driver API (cudarc), both called in a worker
//! process with a time limit: a wedged driver can hang `nvmlInit` or `cuInit`, and that
//! must become a fact, never a hung doctor.
//! OWNER: helper "driver" (stub until filled in).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::fact::Fact;
use crate::facts::driver_libs::DriverLibFacts;
use crate::host::Host;

/// The hidden subcommand that runs the worker.
pub const WORKER_SUBCOMMAND: &str = "__driver-worker";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DriverApiFacts {
    pub nvml: Fact<NvmlFacts>,
    pub cuda: Fact<CudaFacts>,
}

/// A library's return code, by its enum name and number.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ReturnCode {
    /// e.g. "NVML_ERROR_LIB_RM_VERSION_MISMATCH", "CUDA_ERROR_SYSTEM_NOT_READY", "CUDA_SUCCESS".
    pub name: String,
    /// e.g. 18, 802, 0.
    pub code: i64,
    /// The library's own description, when it gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct NvmlFacts {
    /// What was loaded (path or soname).
    pub library: String,
    /// nvmlInit's result ("NVML_SUCCESS" when it worked).
    pub init: ReturnCode,
    /// e.g. "550.54.15".
    pub driver_version: Fact<String>,
    /// The CUDA version the driver supports, e.g. "12.4".
    pub cuda_driver_version: Fact<String>,
    pub devices: Fact<Vec<NvmlDevice>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct NvmlDevice {
    pub index: u32,
    pub name: Fact<String>,
    pub uuid: Fact<String>,
    /// e.g. "00000000:01:00.0".
    pub pci_bus_id: Fact<String>,
    /// e.g. "9.0".
    pub compute_capability: Fact<String>,
    pub memory_total_bytes: Fact<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CudaFacts {
    pub library: String,
    /// cuInit(0)'s result.
    pub init: ReturnCode,
    /// cuDriverGetVersion, e.g. "12.4" (raw 12040).
    pub driver_version: Fact<String>,
    /// cuDeviceGetCount (honours CUDA_VISIBLE_DEVICES).
    pub device_count: Fact<u32>,
}

impl NvmlFacts {
    pub fn init_ok(&self) -> bool {
        self.init.code == 0
    }
}

impl CudaFacts {
    pub fn init_ok(&self) -> bool {
        self.init.code == 0
    }
}

pub fn gather(_host: &Host, _libs: &DriverLibFacts) -> DriverApiFacts {
    DriverApiFacts {
        nvml: Fact::missing("not gathered"),
        cuda: Fact::missing("not gathered"),
    }
}

/// Body of the hidden worker subcommand; returns the process exit code.
pub fn worker_main() -> i32 {
    0
}
