//! Python environments and the PyTorch builds, nvidia-* wheels and CUDA extension
//! modules in them, read from files (never by importing anything).
//! OWNER: helper "python" (stub until filled in).

use std::path::PathBuf;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::fact::Fact;
use crate::host::Host;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PythonEnv {
    /// Interpreter path as found (machine path), if any.
    pub interpreter: Option<String>,
    /// How it was found: "PATH python3", "PATH python", "VIRTUAL_ENV", "CONDA_PREFIX", "--python", "user site".
    pub origins: Vec<String>,
    /// e.g. "3.11.7" or "3.11".
    pub python_version: Fact<String>,
    /// site-packages folders in import order.
    pub site_packages: Vec<String>,
    /// Every torch importable from this interpreter, in import order (the first one wins).
    pub torch: Vec<TorchBuild>,
    /// nvidia-* and cuda-* wheels.
    pub nvidia_wheels: Vec<Wheel>,
    /// Any other `.so` with a `.nv_fatbin` section (flash-attn, xformers, vllm, ...).
    pub extensions: Vec<CudaExtension>,
    /// `--deep`: what the interpreter itself says about torch.cuda.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deep: Option<Fact<DeepTorch>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TorchBuild {
    /// The `torch` package folder.
    pub path: String,
    /// e.g. "2.4.1+cu121".
    pub version: Fact<String>,
    /// `torch.version.cuda`: Known(None) is a CPU-only (or ROCm) build.
    pub cuda: Fact<Option<String>>,
    /// `torch.version.hip` for ROCm builds.
    pub hip: Option<String>,
    pub cudnn: Fact<String>,
    pub nccl: Fact<String>,
    /// "pip", "conda", "uv", ... from the dist-info INSTALLER file.
    pub installer: Fact<String>,
    /// The nvidia-* requirements from the wheel's METADATA that apply to this platform.
    pub requires: Vec<Requirement>,
    /// GPU architectures compiled into libtorch_cuda.so.
    pub arch: Fact<ArchList>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Requirement {
    /// Normalised distribution name, e.g. "nvidia-cublas-cu12".
    pub name: String,
    /// e.g. "==12.1.3.1"; empty when unpinned.
    pub specifier: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Wheel {
    /// Normalised distribution name, e.g. "nvidia-cudnn-cu12".
    pub name: String,
    pub version: String,
    pub site_packages: String,
    /// Folders holding its shared libraries, e.g. ".../nvidia/cublas/lib".
    pub lib_dirs: Vec<String>,
    /// Shared library file names in those folders, e.g. "libcublas.so.12".
    pub libraries: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
pub struct ArchList {
    /// SASS (cubin) targets, e.g. "sm_80", "sm_90a".
    pub sass: Vec<String>,
    /// PTX targets, e.g. "compute_90".
    pub ptx: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CudaExtension {
    /// Distribution or top-level package, e.g. "flash_attn".
    pub package: String,
    pub path: String,
    pub arch: Fact<ArchList>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DeepTorch {
    pub torch_version: Option<String>,
    pub cuda_available: bool,
    pub device_count: u32,
    /// The error torch raised or warned, if any.
    pub error: Option<String>,
}

/// Finds every Python environment in reach and reads it.
pub fn gather(_host: &Host, _extra_pythons: &[PathBuf], _deep: bool) -> Vec<PythonEnv> {
    Vec::new()
}
