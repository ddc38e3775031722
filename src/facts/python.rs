//! Python environments and the PyTorch builds, nvidia-* wheels and CUDA extension
//! modules in them, read from files (never by importing anything).
//!
//! Each environment is found from files (`discover`), the way `site.py` would lay out
//! `sys.path`; its torch builds and nvidia-* wheels are read from dist-info folders and
//! generated files (`packages`); other CUDA extension modules are found by a bounded walk
//! (`extensions`); only `--deep` starts the interpreter (`deep`).

mod deep;
mod discover;
pub use discover::unusable_python;
mod extensions;
mod marker;
mod packages;
mod parse;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};

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
    /// Folders torch could be imported from, in import order: `$PYTHONPATH`, then the
    /// site-packages folders as `site.py` orders them.
    pub site_packages: Vec<String>,
    /// Every torch importable from this interpreter, in import order (the first one wins).
    pub torch: Vec<TorchBuild>,
    /// nvidia-* and cuda-* wheels.
    pub nvidia_wheels: Vec<Wheel>,
    /// Any other `.so` with a `.nv_fatbin` section (flash-attn, xformers, vllm, ...).
    pub extensions: Vec<CudaExtension>,
    /// True for a virtual environment (a `pyvenv.cfg` beside or above the interpreter).
    #[serde(default)]
    pub is_venv: bool,
    /// The environment's prefix (`sys.prefix`).
    #[serde(default)]
    pub prefix: String,
    /// `--deep`: what the interpreter itself says about torch.cuda.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deep: Option<Fact<DeepTorch>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TorchBuild {
    /// The `torch` package folder.
    pub path: String,
    /// The folder on the import path it was found in.
    #[serde(default)]
    pub site_packages: String,
    /// e.g. "2.4.1+cu121".
    pub version: Fact<String>,
    /// `torch.version.cuda`: Known(None) is a CPU-only (or ROCm) build.
    pub cuda: Fact<Option<String>>,
    /// `torch.version.hip` for ROCm builds.
    pub hip: Option<String>,
    /// `torch.version.git_version`: the commit it was built from.
    #[serde(default)]
    pub git_version: Option<String>,
    pub cudnn: Fact<String>,
    pub nccl: Fact<String>,
    /// "pip", "conda", "uv", ... from the dist-info INSTALLER file.
    pub installer: Fact<String>,
    /// The nvidia-* requirements from the wheel's METADATA that apply to this platform.
    pub requires: Vec<Requirement>,
    /// GPU architectures compiled into libtorch_cuda.so.
    pub arch: Fact<ArchList>,
    /// Shared library file names in `torch/lib` (old wheels bundle libcudnn, libnccl, ...).
    #[serde(default)]
    pub bundled_libs: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Requirement {
    /// Normalised distribution name, e.g. "nvidia-cublas-cu12".
    pub name: String,
    /// e.g. "==12.1.3.1"; empty when unpinned.
    pub specifier: String,
    /// Extras asked for, e.g. `cuda-toolkit[cublas,cudart]` (CUDA 13 torch wheels name the
    /// components they need this way).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extras: Vec<String>,
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

pub use crate::facts::fatbin::ArchList; // moved: src/facts/fatbin.rs

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
    /// `torch.__file__`: which torch the interpreter really imported.
    #[serde(default)]
    pub torch_path: Option<String>,
    /// `torch.version.cuda`.
    #[serde(default)]
    pub cuda: Option<String>,
    /// `torch._C._cuda_getArchFlags()` split: what `torch.cuda.get_arch_list()` gives when
    /// CUDA works (older releases give [] without a GPU).
    #[serde(default)]
    pub arch_list: Vec<String>,
    /// Warnings raised while importing torch and asking about CUDA.
    #[serde(default)]
    pub warnings: Vec<String>,
}

/// Finds every Python environment in reach and reads it.
pub fn gather(host: &Host, extra_pythons: &[PathBuf], deep: bool) -> Vec<PythonEnv> {
    discover::environments(host, extra_pythons)
        .into_iter()
        .map(|layout| read_env(host, layout, deep))
        .collect()
}

fn read_env(host: &Host, layout: discover::Layout, deep: bool) -> PythonEnv {
    let all: Vec<packages::Dist> = layout
        .site_packages
        .iter()
        .flat_map(|site| packages::dists(host, site))
        .collect();
    let conda = packages::CondaMeta::read(host, &layout.prefix);
    let nvidia_wheels = packages::cuda_wheels(host, &all);
    let torch = packages::torch_builds(host, &layout, &all, &nvidia_wheels, &conda);
    let extensions = layout
        .site_packages
        .iter()
        .flat_map(|site| extensions::find(host, site))
        .collect();
    let deep = deep.then(|| match &layout.interpreter {
        Some(i) => deep::probe(host, i, deep::TIMEOUT),
        None => Fact::missing("no interpreter to run (only a user site was found)"),
    });
    PythonEnv {
        interpreter: layout.interpreter.as_deref().map(display),
        origins: layout.origins,
        python_version: layout.version,
        site_packages: layout.site_packages.iter().map(|p| display(p)).collect(),
        torch,
        nvidia_wheels,
        extensions,
        is_venv: layout.is_venv,
        prefix: display(&layout.prefix),
        deep,
    }
}

fn display(p: &Path) -> String {
    p.display().to_string()
}
