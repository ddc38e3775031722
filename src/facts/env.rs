//! The environment variables that change how CUDA and PyTorch behave, and no others:
//! a report must never carry secrets from the environment.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::host::Host;

/// The only variables gpu-doctor ever records.
pub const CUDA_VARIABLES: &[&str] = &[
    "CUDA_VISIBLE_DEVICES",
    "CUDA_DEVICE_ORDER",
    "CUDA_LAUNCH_BLOCKING",
    "PYTORCH_CUDA_ALLOC_CONF",
    "PYTORCH_ALLOC_CONF",
    "CUBLAS_WORKSPACE_CONFIG",
    "TORCH_CUDA_ARCH_LIST",
    "LD_LIBRARY_PATH",
    "NVIDIA_VISIBLE_DEVICES",
    "CUDA_MODULE_LOADING",
    "CUDA_HOME",
    "CUDA_PATH",
];

/// The set variables among [`CUDA_VARIABLES`]; unset ones are absent, empty ones kept
/// (`CUDA_VISIBLE_DEVICES=""` hides every GPU, which is not the same as unset).
pub fn gather(host: &Host) -> BTreeMap<String, String> {
    CUDA_VARIABLES
        .iter()
        .filter_map(|name| Some(((*name).to_string(), host.var(name)?.to_string())))
        .collect()
}

/// A CUDA library file in an LD_LIBRARY_PATH folder. The loader prefers these to the
/// RUNPATH of PyTorch's own libraries, so they shadow the ones its wheels ship.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct LdPathLib {
    pub dir: String,
    /// File name, e.g. "libcublas.so.12".
    pub file: String,
}

/// Library name stems that PyTorch's nvidia-* wheels also ship.
const CUDA_LIB_STEMS: &[&str] = &[
    "libcudart",
    "libcublas",
    "libcublasLt",
    "libcudnn",
    "libnccl",
    "libcufft",
    "libcurand",
    "libcusolver",
    "libcusparse",
    "libcusparseLt",
    "libnvJitLink",
    "libnvrtc",
    "libcupti",
    "libnvToolsExt",
    "libcufile",
];
/// LD_LIBRARY_PATH entries looked at, and files per folder, at most.
const MAX_LD_DIRS: usize = 64;
const MAX_FILES_PER_DIR: usize = 20_000;

/// CUDA libraries found in the LD_LIBRARY_PATH folders, in search order.
pub fn cuda_libs_on_ld_path(host: &Host) -> Vec<LdPathLib> {
    let Some(value) = host.var("LD_LIBRARY_PATH") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for dir in value
        .split(':')
        .filter(|d| d.starts_with('/'))
        .take(MAX_LD_DIRS)
    {
        for entry in host.read_dir(dir).into_iter().take(MAX_FILES_PER_DIR) {
            let Some(name) = entry.file_name().and_then(|n| n.to_str()) else {
                continue;
            };
            let Some((stem, _)) = name.split_once(".so") else {
                continue;
            };
            if CUDA_LIB_STEMS
                .iter()
                .any(|s| stem == *s || stem.starts_with(&format!("{s}_")))
            {
                out.push(LdPathLib {
                    dir: dir.to_string(),
                    file: name.to_string(),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_only_cuda_variables_and_empty_values() {
        let host = Host::fixture(
            "/",
            &[
                ("CUDA_VISIBLE_DEVICES", ""),
                ("AWS_SECRET_ACCESS_KEY", "hunter2"),
                ("TORCH_CUDA_ARCH_LIST", "8.0;9.0"),
            ],
        );
        let env = gather(&host);
        assert_eq!(
            env.get("CUDA_VISIBLE_DEVICES").map(String::as_str),
            Some("")
        );
        assert_eq!(
            env.get("TORCH_CUDA_ARCH_LIST").map(String::as_str),
            Some("8.0;9.0")
        );
        assert!(!env.contains_key("AWS_SECRET_ACCESS_KEY"));
        assert_eq!(env.len(), 2);
    }

    #[test]
    fn finds_cuda_libs_on_ld_library_path() {
        let dir = tempfile::tempdir().unwrap();
        let lib = dir.path().join("opt/cuda/lib64");
        std::fs::create_dir_all(&lib).unwrap();
        for f in [
            "libcublas.so.12",
            "libcudnn_ops.so.9",
            "libfoo.so.1",
            "libcudart.so",
        ] {
            std::fs::write(lib.join(f), b"").unwrap();
        }
        let host = Host::fixture(
            dir.path(),
            &[("LD_LIBRARY_PATH", "relative:/opt/cuda/lib64:/missing")],
        );
        let mut files: Vec<String> = cuda_libs_on_ld_path(&host)
            .into_iter()
            .map(|l| l.file)
            .collect();
        files.sort();
        assert_eq!(
            files,
            vec!["libcublas.so.12", "libcudart.so", "libcudnn_ops.so.9"]
        );
    }
}
