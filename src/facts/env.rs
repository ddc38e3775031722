//! The environment variables that change how CUDA and PyTorch behave, and no others:
//! a report must never carry secrets from the environment.

use std::collections::BTreeMap;

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
}
