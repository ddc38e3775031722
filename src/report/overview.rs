//! The report's flat parts (schema 2): when it was made, which machine it is about, and
//! the stack in a few plain values (GPU models and count, driver, CUDA, toolkits, torch
//! builds), for readers that do not want to walk `facts`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::checks::view;
use crate::facts::Facts;

/// Which machine a report is about. Every value is redacted under `--redact`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
pub struct HostIdentity {
    pub hostname: Option<String>,
    /// SHA-256 of /etc/machine-id (prefixed), 32 hex digits: the machine without its id.
    pub machine_id_hash: Option<String>,
    /// /proc/sys/kernel/random/boot_id: changes at every boot.
    pub boot_id: Option<String>,
}

impl HostIdentity {
    pub fn of(f: &Facts) -> HostIdentity {
        HostIdentity {
            hostname: f.system.hostname.value().cloned(),
            machine_id_hash: f.system.machine_id_hash.value().cloned(),
            boot_id: f.system.boot_id.value().cloned(),
        }
    }
}

/// One PyTorch build: its version and the CUDA it was built for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TorchSummary {
    pub version: Option<String>,
    /// "12.4"; `None` for a CPU-only build or when unknown (see `cpu_only`).
    pub cuda: Option<String>,
    pub cpu_only: bool,
    /// The interpreter (or environment prefix) it was found in.
    pub python: Option<String>,
}

/// The stack in plain values, each absent when not known.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
pub struct Overview {
    /// GPUs any source sees (PCI, NVML, device nodes).
    pub gpu_count: u32,
    /// GPU models (NVML names), each once, sorted; PCI ids when NVML names none.
    pub gpu_models: Vec<String>,
    /// The driver version (kernel module, else NVML).
    pub driver_version: Option<String>,
    /// The highest CUDA version the driver supports ("13.0").
    pub cuda_driver_version: Option<String>,
    /// CUDA toolkit versions found, each once, sorted.
    pub toolkits: Vec<String>,
    /// The first PyTorch of each Python environment.
    pub torch: Vec<TorchSummary>,
}

impl Overview {
    pub fn of(f: &Facts) -> Overview {
        let mut gpu_models: Vec<String> = view::nvml_devices(f)
            .iter()
            .filter_map(|d| d.name.value().cloned())
            .collect();
        if gpu_models.is_empty() {
            if let Some(pci) = f.pci_gpus.value() {
                gpu_models = pci
                    .iter()
                    .map(|g| crate::matrix::pci_gpu_label(&g.vendor_id, &g.device_id))
                    .collect();
            }
        }
        gpu_models.sort();
        gpu_models.dedup();
        let mut toolkits: Vec<String> = f
            .toolkits
            .toolkits
            .iter()
            .filter_map(|t| t.version.value().cloned())
            .collect();
        toolkits.sort();
        toolkits.dedup();
        let torch = f
            .python
            .iter()
            .filter_map(|e| {
                let t = e.torch.first()?;
                Some(TorchSummary {
                    version: t.version.value().cloned(),
                    cuda: t.cuda.value().cloned().flatten(),
                    cpu_only: matches!(t.cuda.value(), Some(None)) && t.hip.is_none(),
                    python: e.interpreter.clone(),
                })
            })
            .collect();
        Overview {
            gpu_count: u32::try_from(view::gpus_seen(f)).unwrap_or(u32::MAX),
            gpu_models,
            driver_version: view::driver_version(f).map(|v| v.to_string()),
            cuda_driver_version: view::nvml(f)
                .and_then(|n| n.cuda_driver_version.value().cloned())
                .or_else(|| view::cuda(f).and_then(|c| c.driver_version.value().cloned())),
            toolkits,
            torch,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::testutil::{healthy, no_gpu};

    #[test]
    fn healthy_machine_in_plain_values() {
        let o = Overview::of(&healthy());
        assert_eq!(o.gpu_count, 1);
        assert_eq!(o.gpu_models, vec!["NVIDIA H100 80GB HBM3".to_string()]);
        assert_eq!(o.driver_version.as_deref(), Some("580.95.05"));
        assert_eq!(o.cuda_driver_version.as_deref(), Some("13.0"));
        assert_eq!(o.torch.len(), 1);
        assert_eq!(o.torch[0].version.as_deref(), Some("2.4.1+cu124"));
        assert_eq!(o.torch[0].cuda.as_deref(), Some("12.4"));
        assert!(!o.torch[0].cpu_only);
        // NVML down: the GPU known only on the PCI bus reads as its product, with its ids.
        let mut no_nvml = healthy();
        no_nvml.driver_api.nvml = crate::fact::Fact::missing("NVML not loaded");
        assert_eq!(
            Overview::of(&no_nvml).gpu_models,
            vec!["NVIDIA H100 80GB HBM3 [10de:2330]".to_string()]
        );
        let none = Overview::of(&no_gpu());
        assert_eq!(none.gpu_count, 0);
        assert!(none.gpu_models.is_empty());
        assert_eq!(none.driver_version, None);
    }

    #[test]
    fn identity_follows_redaction() {
        let mut f = healthy();
        f.system.machine_id_hash = crate::fact::Fact::known("ab".repeat(16));
        f.system.boot_id = crate::fact::Fact::known("1234-abcd".into());
        let id = HostIdentity::of(&f);
        assert_eq!(
            id.machine_id_hash.as_deref(),
            Some("ab".repeat(16).as_str())
        );
        f.system.redact();
        let id = HostIdentity::of(&f);
        assert_eq!(id.hostname.as_deref(), Some("redacted"));
        assert_eq!(id.machine_id_hash.as_deref(), Some("redacted"));
        assert_eq!(id.boot_id.as_deref(), Some("redacted"));
    }
}
