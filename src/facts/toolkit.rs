//! CUDA toolkits: every one reachable, its version, and which one PATH, CUDA_HOME and
//! /usr/local/cuda point to.
//! OWNER: helper "system" (stub until filled in).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::fact::Fact;
use crate::host::Host;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Toolkit {
    /// The toolkit root after resolving links, e.g. "/usr/local/cuda-12.4".
    pub root: String,
    /// e.g. "12.4.131" (version.json) or "12.4" (nvcc).
    pub version: Fact<String>,
    /// Where the version came from: "version.json", "version.txt" or "nvcc --version".
    pub version_source: Option<String>,
    /// "<root>/bin/nvcc" if present.
    pub nvcc: Option<String>,
    /// How it was found: "PATH", "CUDA_HOME", "CUDA_PATH", "/usr/local/cuda", "/usr/local/cuda-*", "/opt/cuda".
    pub found_via: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ToolkitFacts {
    pub toolkits: Vec<Toolkit>,
    /// Toolkit root that `nvcc` on PATH belongs to.
    pub path_nvcc: Option<String>,
    /// Toolkit root CUDA_HOME (or CUDA_PATH) names, resolved.
    pub cuda_home: Option<String>,
    /// Toolkit root /usr/local/cuda links to.
    pub usr_local_cuda: Option<String>,
}

pub fn gather(_host: &Host) -> ToolkitFacts {
    ToolkitFacts {
        toolkits: Vec::new(),
        path_nvcc: None,
        cuda_home: None,
        usr_local_cuda: None,
    }
}
