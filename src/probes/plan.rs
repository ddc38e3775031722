//! What to probe: which GPUs (by CUDA ordinal), which probes on each, which cuBLASLt
//! libraries, and what is skipped and why. Pure: decided from the facts and the flags.

use std::path::PathBuf;
use std::time::Duration;

use crate::facts::probe::ProbeKind;
use crate::facts::Facts;
use crate::host::Host;

pub use crate::facts::probe::DEFAULT_PROBE_TIMEOUT;

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
    /// The probes between GPUs (P2P, NCCL): one worker over every planned, idle GPU,
    /// after the per-GPU probes. `None` with fewer than two GPUs planned.
    pub between: Option<PlannedBetween>,
}

/// The worker of the probes between GPUs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedBetween {
    /// The GPUs it opens, in rank order (CUDA ordinals of the planned GPUs).
    pub gpus: Vec<PlannedGpu>,
    pub probes: Vec<ProbeKind>,
    pub skipped: Vec<(ProbeKind, String)>,
    /// libnccl.so.2 candidates, best first (real paths).
    pub nccl: Vec<PathBuf>,
    /// Bytes of each P2P copy (smaller under a short time limit).
    pub p2p_bytes: u64,
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
        cublaslt: Vec::new(),
        timeout: opts.timeout,
        between: None,
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
        ProbeKind::every().collect()
    } else {
        ProbeKind::every()
            .filter(|k| opts.probes.contains(k))
            .collect()
    };
    let between_wanted: Vec<ProbeKind> = wanted
        .iter()
        .copied()
        .filter(|k| k.between_gpus())
        .collect();
    let wanted: Vec<ProbeKind> = wanted.into_iter().filter(|k| !k.between_gpus()).collect();
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
    if !between_wanted.is_empty() && plan.gpus.len() >= 2 {
        plan.between = Some(plan_between(facts, host, opts, &plan.gpus, between_wanted));
    }
    // Looked for only when some GPU will run the cuBLASLt probe.
    if plan
        .gpus
        .iter()
        .any(|g| g.probes.contains(&ProbeKind::Cublaslt))
    {
        plan.cublaslt = cublaslt_libraries(facts, host);
    }
    plan
}

/// The worker between GPUs: the idle GPUs among those planned (copies and collectives
/// take memory and bandwidth from whatever else runs there), unless `--force`.
fn plan_between(
    facts: &Facts,
    host: &Host,
    opts: &ProbeOptions,
    planned: &[PlannedGpu],
    probes: Vec<ProbeKind>,
) -> PlannedBetween {
    let mut gpus = Vec::new();
    let mut busy = Vec::new();
    for g in planned {
        match (!opts.force)
            .then(|| busy_reason(facts, g.nvml_index))
            .flatten()
        {
            Some(why) => busy.push(format!("CUDA device {} ({why})", g.cuda_ordinal)),
            None => gpus.push(g.clone()),
        }
    }
    let mut run = Vec::new();
    let mut skipped = Vec::new();
    let nccl = if probes.contains(&ProbeKind::Nccl) {
        nccl_libraries(facts, host)
    } else {
        Vec::new()
    };
    for kind in probes {
        if gpus.len() < 2 {
            skipped.push((
                kind,
                format!(
                    "fewer than two idle GPUs: {}; pass --force to run it anyway",
                    busy.join("; ")
                ),
            ));
        } else if kind == ProbeKind::Nccl && nccl.is_empty() {
            skipped.push((
                kind,
                format!(
                    "no libnccl.so.2 found; looked in {}",
                    nccl_search_dirs(facts).join(", ")
                ),
            ));
        } else {
            run.push(kind);
        }
    }
    let p2p_bytes = if opts.timeout < super::between::P2P_FULL_SIZE_LIMIT {
        super::between::P2P_SMALL_BYTES
    } else {
        super::between::P2P_BYTES
    };
    PlannedBetween {
        gpus,
        probes: run,
        skipped,
        nccl,
        p2p_bytes,
    }
}

/// Where libnccl.so.2 is looked for: each PyTorch's nvidia-nccl wheel
/// (`site-packages/nvidia/nccl/lib`, the layout of the CUDA 12 and CUDA 13 wheels alike),
/// an old wheel's copy in torch/lib, then the system's library folders.
pub fn nccl_search_dirs(facts: &Facts) -> Vec<String> {
    let mut dirs: Vec<String> = Vec::new();
    for env in &facts.python {
        for torch in &env.torch {
            dirs.extend(torch_nccl_dirs(&torch.site_packages));
        }
    }
    for d in [
        "/usr/lib/x86_64-linux-gnu",
        "/usr/lib/aarch64-linux-gnu",
        "/usr/lib64",
        "/usr/local/lib",
    ] {
        dirs.push(d.to_string());
    }
    for t in &facts.toolkits.toolkits {
        dirs.push(format!("{}/lib64", t.root.trim_end_matches('/')));
    }
    dirs.dedup();
    dirs
}

/// Where a PyTorch in `site_packages` keeps its NCCL: the nvidia-nccl-cu12 / -cu13
/// wheel's `nvidia/nccl/lib` (both wheels use it), else an old wheel's `torch/lib`.
pub fn torch_nccl_dirs(site_packages: &str) -> [String; 2] {
    let sp = site_packages.trim_end_matches('/');
    [format!("{sp}/nvidia/nccl/lib"), format!("{sp}/torch/lib")]
}

/// The libnccl.so.2 files found, best first (the first PyTorch's wheel).
pub fn nccl_libraries(facts: &Facts, host: &Host) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    let mut seen: Vec<PathBuf> = Vec::new();
    for dir in nccl_search_dirs(facts) {
        let lib = format!("{dir}/libnccl.so.2");
        if !host.exists(&lib) {
            continue;
        }
        let real = host.path(&lib);
        let key = std::fs::canonicalize(&real).unwrap_or_else(|_| real.clone());
        if !seen.contains(&key) {
            seen.push(key);
            out.push(real);
        }
    }
    out
}

/// The `--gpus` entries that match none of the GPUs CUDA sees, with those GPUs described
/// ("0 (GPU-0a1b…)"), for the error that says so. Empty when every entry matches, or
/// when CUDA's device list is unknown (the findings then say why no probe ran).
pub fn unmatched_gpus(
    driver_api: &crate::facts::driver_api::DriverApiFacts,
    wanted: &[String],
) -> (Vec<String>, Vec<String>) {
    let Some(devices) = driver_api.cuda.value().and_then(|c| c.devices.value()) else {
        return (Vec::new(), Vec::new());
    };
    let unmatched: Vec<String> = wanted
        .iter()
        .filter(|w| {
            !devices.iter().any(|d| {
                selected(
                    std::slice::from_ref(*w),
                    d.nvml_index.unwrap_or(d.ordinal),
                    d.uuid.value().map(String::as_str),
                )
            })
        })
        .cloned()
        .collect();
    let present = devices
        .iter()
        .map(|d| {
            let index = d.nvml_index.unwrap_or(d.ordinal);
            match d.uuid.value() {
                Some(u) => format!("{index} ({u})"),
                None => index.to_string(),
            }
        })
        .collect();
    (unmatched, present)
}

/// `--gpus` entries: an nvidia-smi index, or a prefix of the GPU's UUID ("GPU-…") or of
/// a MIG instance's ("MIG-…", as CUDA names the instance).
fn selected(wanted: &[String], index: u32, uuid: Option<&str>) -> bool {
    wanted.is_empty()
        || wanted.iter().any(|w| {
            let w = w.trim();
            w.parse::<u32>().is_ok_and(|i| i == index)
                || ((w.starts_with("GPU-") || w.starts_with("MIG-"))
                    && uuid.is_some_and(|u| u.starts_with(w)))
        })
}

/// Used memory above this, with no process list to explain it, counts as busy.
const UNEXPLAINED_USED_BYTES: u64 = 1 << 30;

/// Why the OOM probe must not run on this GPU: other processes hold memory there, and
/// pushing the GPU to out-of-memory could make their next allocation fail.
pub fn busy_reason(facts: &Facts, nvml_index: Option<u32>) -> Option<String> {
    let index = nvml_index?;
    let dev = facts
        .driver_api
        .nvml
        .value()
        .and_then(|n| n.devices.value())?
        .iter()
        .find(|d| d.index == index)?;
    match dev.processes.value() {
        Some(procs) if !procs.is_empty() => {
            let listed: Vec<String> = procs
                .iter()
                .take(5)
                .map(|p| {
                    let name = p.name.as_deref().unwrap_or("?");
                    match p.used_memory_bytes {
                        Some(b) => format!("pid {} ({name}, {} MiB)", p.pid, b >> 20),
                        None => format!("pid {} ({name})", p.pid),
                    }
                })
                .collect();
            Some(format!(
                "{} other process{} use this GPU: {}",
                procs.len(),
                if procs.len() == 1 { "" } else { "es" },
                listed.join(", ")
            ))
        }
        Some(_) => None,
        // Without a process list (drivers before R510 answer Unsupported), "cannot tell"
        // counts as busy: only memory known to be nearly free lets the probe run.
        None => match dev.memory_used_bytes.value() {
            Some(used) if *used <= UNEXPLAINED_USED_BYTES => None,
            Some(used) => Some(format!(
                "{} MiB of its memory are in use and NVML cannot list the processes ({})",
                used >> 20,
                dev.processes.reason().unwrap_or("unknown")
            )),
            None => Some(format!(
                "NVML can tell neither which processes use this GPU ({}) nor how much of its memory is in use ({}), so it may be busy",
                dev.processes.reason().unwrap_or("unknown"),
                dev.memory_used_bytes.reason().unwrap_or("unknown")
            )),
        },
    }
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
    let mut seen: Vec<PathBuf> = Vec::new();
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
            // The same library reached by two paths (a symlinked site-packages) runs once.
            let key = std::fs::canonicalize(&real).unwrap_or_else(|_| real.clone());
            if !seen.contains(&key) {
                seen.push(key);
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
    fn a_busy_gpu_skips_only_the_oom_probe_unless_forced() {
        use crate::fact::Fact;
        use crate::facts::nvml_device::GpuProcess;
        let mut f = crate::checks::testutil::healthy();
        let host = Host::fixture("/nonexistent", &[]);
        let busy = |f: &mut Facts, procs: Fact<Vec<GpuProcess>>, used: u64| {
            if let Fact::Known { value: nvml } = &mut f.driver_api.nvml {
                if let Fact::Known { value: devs } = &mut nvml.devices {
                    devs[0].processes = procs;
                    devs[0].memory_used_bytes = Fact::known(used);
                }
            }
        };
        let plan_of = |f: &Facts, force: bool| {
            plan(
                f,
                &host,
                &ProbeOptions {
                    force,
                    ..ProbeOptions::default()
                },
            )
        };
        assert_eq!(plan_of(&f, false).gpus[0].probes.len(), 7);
        busy(
            &mut f,
            Fact::known(vec![GpuProcess {
                pid: 4242,
                name: Some("python".into()),
                used_memory_bytes: Some(10 << 30),
            }]),
            10 << 30,
        );
        let p = plan_of(&f, false);
        assert_eq!(p.gpus[0].probes.len(), 6);
        assert!(!p.gpus[0].probes.contains(&ProbeKind::Oom));
        assert_eq!(p.gpus[0].skipped[0].0, ProbeKind::Oom);
        assert!(p.gpus[0].skipped[0]
            .1
            .contains("pid 4242 (python, 10240 MiB)"));
        assert_eq!(plan_of(&f, true).gpus[0].probes.len(), 7);
        // No process list: a lot of used memory is treated as busy, a little is not.
        busy(&mut f, Fact::unsupported("not on this GPU"), 8 << 30);
        assert_eq!(plan_of(&f, false).gpus[0].skipped.len(), 1);
        busy(&mut f, Fact::unsupported("not on this GPU"), 300 << 20);
        assert!(plan_of(&f, false).gpus[0].skipped.is_empty());
        // Before R510 neither the process list nor the used memory is known: cannot
        // tell counts as busy, unless forced.
        busy(&mut f, Fact::unsupported("not on this GPU"), 0);
        if let Fact::Known { value: nvml } = &mut f.driver_api.nvml {
            if let Fact::Known { value: devs } = &mut nvml.devices {
                devs[0].memory_used_bytes = Fact::unsupported("nvmlDeviceGetMemoryInfo_v2");
            }
        }
        let p = plan_of(&f, false);
        assert_eq!(p.gpus[0].skipped.len(), 1, "{p:?}");
        assert!(p.gpus[0].skipped[0].1.contains("can tell neither"));
        assert!(plan_of(&f, true).gpus[0].skipped.is_empty());
    }

    #[test]
    fn nccl_is_looked_for_in_the_torch_wheel_first_then_the_system() {
        let f = crate::checks::testutil::healthy();
        let dirs = nccl_search_dirs(&f);
        let sp = f.python[0].torch[0].site_packages.trim_end_matches('/');
        assert_eq!(dirs[0], format!("{sp}/nvidia/nccl/lib"));
        assert!(dirs.contains(&"/usr/lib/x86_64-linux-gnu".to_string()));
        // Nothing there in an empty root: nothing found, and no plan between one GPU.
        let host = Host::fixture("/nonexistent", &[]);
        assert!(nccl_libraries(&f, &host).is_empty());
        assert_eq!(plan(&f, &host, &ProbeOptions::default()).between, None);
    }

    #[test]
    fn gpu_selection_by_index_or_uuid_prefix() {
        let none: Vec<String> = Vec::new();
        assert!(selected(&none, 3, None));
        let w = vec!["1".to_string(), "GPU-ab".to_string()];
        assert!(selected(&w, 1, None));
        assert!(!selected(&w, 2, Some("GPU-cd12")));
        assert!(selected(&w, 2, Some("GPU-ab12")));
        // A MIG instance is chosen by its own UUID, as CUDA_VISIBLE_DEVICES names it.
        let mig = vec!["MIG-7f".to_string()];
        assert!(selected(
            &mig,
            0,
            Some("MIG-7f3e0000-1111-2222-3333-444455556666")
        ));
        assert!(!selected(
            &mig,
            0,
            Some("MIG-8f3e0000-1111-2222-3333-444455556666")
        ));
    }
}
