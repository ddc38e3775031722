//! The user-space driver library files on disk (`libnvidia-ml.so.X.Y.Z`,
//! `libcuda.so.X.Y.Z`), found without loading them, so that a kernel/user-space
//! version mismatch is caught even when NVML cannot say why.
//! OWNER: helper "driver" (stub until filled in).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::host::Host;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DriverLibFile {
    /// Machine path of the versioned file, e.g. "/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15".
    pub path: String,
    /// "libnvidia-ml" or "libcuda".
    pub library: String,
    /// Version from the file name, e.g. "550.54.15".
    pub version: String,
    /// True when the file sits in a cuda-compat folder (forward compatibility package).
    pub compat: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
pub struct DriverLibFacts {
    /// Folders searched, in the dynamic loader's order.
    pub searched: Vec<String>,
    pub files: Vec<DriverLibFile>,
    /// Where `libnvidia-ml.so.1` resolves (the file the loader would open), if found.
    pub nvml_soname: Option<String>,
    /// Where `libcuda.so.1` resolves, if found.
    pub cuda_soname: Option<String>,
}

pub fn gather(_host: &Host) -> DriverLibFacts {
    DriverLibFacts::default()
}
