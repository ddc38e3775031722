//! What to probe: which GPUs (by CUDA ordinal), which probes on each, which cuBLASLt
//! libraries, and what is skipped and why. Pure: decided from the facts and the flags.

use std::path::PathBuf;
use std::time::Duration;

use super::outcome::ProbeKind;
use crate::facts::Facts;
use crate::host::Host;

/// A probe may run this long before its worker is killed.
pub const DEFAULT_PROBE_TIMEOUT: Duration = Duration::from_secs(60);

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProbeOptions {
    /// `--no-probes` turns this off.
    pub enabled: bool,
    /// `--probes`: empty means all.
    pub probes: Vec<ProbeKind>,
    /// `--gpus`: nvidia-smi indices or GPU-UUID prefixes; empty means all.
    pub gpus: Vec<String>,
    /// `--force`: run the OOM probe even where other processes hold GPU memory.
    pub force: bool,
    pub timeout: Duration,
}

impl Default for ProbeOptions {
    fn default() -> Self {
        ProbeOptions {
            enabled: true,
            probes: Vec::new(),
            gpus: Vec::new(),
            force: false,
            timeout: DEFAULT_PROBE_TIMEOUT,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedGpu {
    pub cuda_ordinal: u32,
    pub nvml_index: Option<u32>,
    pub name: Option<String>,
    pub pci_bus_id: Option<String>,
    /// Run in this order.
    pub probes: Vec<ProbeKind>,
    /// Not run, with the reason reported.
    pub skipped: Vec<(ProbeKind, String)>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Plan {
    pub gpus: Vec<PlannedGpu>,
    /// cuBLASLt libraries to test, best first (real paths on this machine).
    pub cublaslt: Vec<PathBuf>,
    pub timeout: Duration,
}

/// Why nothing is probed at all, for the report; `None` when the plan has GPUs.
pub fn nothing_to_probe(facts: &Facts) -> Option<String> {
    match facts.driver_api.cuda.value().map(|c| &c.devices) {
        None => Some(format!(
            "CUDA is not usable: {}",
            facts.driver_api.cuda.reason().unwrap_or("unknown")
        )),
        Some(devices) => match devices.value() {
            Some(d) if d.is_empty() => Some("CUDA enumerates no device".to_string()),
            Some(_) => None,
            None => Some(format!(
                "no CUDA device list: {}",
                devices.reason().unwrap_or("unknown")
            )),
        },
    }
}

pub fn plan(facts: &Facts, host: &Host, opts: &ProbeOptions) -> Plan {
    let mut plan = Plan {
        gpus: Vec::new(),
        cublaslt: cublaslt_libraries(facts, host),
        timeout: opts.timeout,
    };
    if !opts.enabled {
        return plan;
    }
    let Some(devices) = facts
        .driver_api
        .cuda
        .value()
        .and_then(|c| c.devices.value())
    else {
        return plan;
    };
    let wanted: Vec<ProbeKind> = if opts.probes.is_empty() {
        ProbeKind::ALL.to_vec()
    } else {
        ProbeKind::ALL
            .into_iter()
            .filter(|k| opts.probes.contains(k))
            .collect()
    };
    for dev in devices {
        let uuid = dev.uuid.value().map(String::as_str);
        if !selected(&opts.gpus, dev.nvml_index.unwrap_or(dev.ordinal), uuid) {
            continue;
        }
        let mut probes = Vec::new();
        let mut skipped = Vec::new();
        for kind in &wanted {
            let busy = (*kind == ProbeKind::Oom && !opts.force)
                .then(|| busy_reason(facts, dev.nvml_index))
                .flatten();
            match busy {
                Some(why) => skipped.push((*kind, why)),
                None => probes.push(*kind),
            }
        }
        plan.gpus.push(PlannedGpu {
            cuda_ordinal: dev.ordinal,
            nvml_index: dev.nvml_index,
            name: dev.name.value().cloned(),
            pci_bus_id: dev.pci_bus_id.value().cloned(),
            probes,
            skipped,
        });
    }
    plan
}

/// `--gpus` entries: an nvidia-smi index, or a prefix of the GPU's UUID.
fn selected(wanted: &[String], index: u32, uuid: Option<&str>) -> bool {
    wanted.is_empty()
        || wanted.iter().any(|w| {
            let w = w.trim();
            w.parse::<u32>().is_ok_and(|i| i == index)
                || (w.starts_with("GPU-") && uuid.is_some_and(|u| u.starts_with(w)))
        })
}

/// Why the OOM probe must not run on this GPU: other processes hold memory there, and
/// allocating up to the limit could make their next allocation fail.
pub fn busy_reason(facts: &Facts, nvml_index: Option<u32>) -> Option<String> {
    let _ = (facts, nvml_index);
    None
}

/// The cuBLASLt each PyTorch found would load (its nvidia wheel, CUDA 12 or CUDA 13
/// layout, or a copy in torch/lib), then the toolkits'.
pub fn cublaslt_libraries(facts: &Facts, host: &Host) -> Vec<PathBuf> {
    let mut dirs: Vec<String> = Vec::new();
    for env in &facts.python {
        for torch in &env.torch {
            let sp = torch.site_packages.trim_end_matches('/');
            for sub in ["nvidia/cublas/lib", "nvidia/cu13/lib", "torch/lib"] {
                dirs.push(format!("{sp}/{sub}"));
            }
        }
    }
    {
        for t in &facts.toolkits.toolkits {
            let root = t.root.trim_end_matches('/');
            dirs.push(format!("{root}/lib64"));
            dirs.push(format!("{root}/targets/x86_64-linux/lib"));
            dirs.push(format!("{root}/targets/sbsa-linux/lib"));
        }
    }
    let mut out: Vec<PathBuf> = Vec::new();
    for dir in dirs {
        let mut libs: Vec<PathBuf> = host
            .read_dir(&dir)
            .into_iter()
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("libcublasLt.so"))
            })
            .collect();
        // The soname (libcublasLt.so.12) rather than the unversioned dev link.
        libs.sort_by_key(|p| std::cmp::Reverse(p.as_os_str().len()));
        if let Some(lib) = libs.into_iter().next() {
            let real = host.path(&lib);
            let key = std::fs::canonicalize(&real).unwrap_or_else(|_| real.clone());
            if !out
                .iter()
                .any(|o| std::fs::canonicalize(o).unwrap_or_else(|_| o.clone()) == key)
            {
                out.push(real);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpu_selection_by_index_or_uuid_prefix() {
        let none: Vec<String> = Vec::new();
        assert!(selected(&none, 3, None));
        let w = vec!["1".to_string(), "GPU-ab".to_string()];
        assert!(selected(&w, 1, None));
        assert!(!selected(&w, 2, Some("GPU-cd12")));
        assert!(selected(&w, 2, Some("GPU-ab12")));
    }
}
