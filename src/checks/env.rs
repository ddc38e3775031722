//! env.*: environment variables that silently change what CUDA and PyTorch do.

use super::catalogue::{Action, Area, Check};
use super::view;
use super::Ctx;
use crate::facts::Facts;
use crate::finding::{Finding, Severity};

/// What CUDA makes of one CUDA_VISIBLE_DEVICES entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VisibleEntry {
    Index(u32),
    Uuid(String),
    Mig(String),
    Invalid(String),
}

/// CUDA reads CUDA_VISIBLE_DEVICES as a comma-separated list and stops at the first
/// entry it cannot use: "0,-1,1" exposes only device 0, "" and "-1" expose none.
pub fn parse_visible_devices(value: &str) -> Vec<VisibleEntry> {
    if value.trim().is_empty() {
        return vec![VisibleEntry::Invalid(String::new())];
    }
    value
        .split(',')
        .map(str::trim)
        .map(|e| {
            if let Ok(i) = e.parse::<u32>() {
                VisibleEntry::Index(i)
            } else if e.starts_with("GPU-") && e.len() > 4 {
                VisibleEntry::Uuid(e.to_string())
            } else if e.starts_with("MIG-") && e.len() > 4 {
                VisibleEntry::Mig(e.to_string())
            } else {
                VisibleEntry::Invalid(e.to_string())
            }
        })
        .collect()
}

/// Index of the first entry CUDA will not accept, given what the driver enumerates.
/// `None`: every entry is usable (or nothing is known to judge by).
fn first_unusable(facts: &Facts, entries: &[VisibleEntry]) -> Option<usize> {
    let devices = view::nvml_devices(facts);
    let count = if devices.is_empty() {
        view::gpus_seen(facts)
    } else {
        devices.len()
    };
    let uuids: Vec<&str> = devices
        .iter()
        .filter_map(|d| d.uuid.value().map(String::as_str))
        .collect();
    let mig_known = !devices.is_empty() && devices.iter().all(|d| d.mig.is_known());
    let mig_uuids: Vec<&str> = devices
        .iter()
        .filter_map(|d| d.mig.value())
        .flat_map(|m| m.instances.iter())
        .filter_map(|i| i.uuid.value().map(String::as_str))
        .collect();
    entries.iter().position(|e| match e {
        VisibleEntry::Invalid(_) => true,
        VisibleEntry::Index(i) => count > 0 && *i as usize >= count,
        // CUDA accepts any unique prefix of a UUID.
        VisibleEntry::Uuid(u) => {
            !uuids.is_empty() && uuids.iter().filter(|d| d.starts_with(u.as_str())).count() != 1
        }
        // Judged only when NVML could read every GPU's MIG state.
        VisibleEntry::Mig(m) => {
            mig_known
                && mig_uuids
                    .iter()
                    .filter(|u| u.starts_with(m.as_str()))
                    .count()
                    != 1
        }
    })
}

/// True when CUDA_VISIBLE_DEVICES is set so that CUDA sees no device at all.
pub fn visible_devices_hide_all(facts: &Facts) -> bool {
    view::env(facts, "CUDA_VISIBLE_DEVICES")
        .is_some_and(|v| first_unusable(facts, &parse_visible_devices(v)) == Some(0))
}

pub const ENV_VISIBLE_DEVICES_EMPTY: Check = Check {
    id: "env.visible_devices_empty",
    name: "env.visible_devices_nonempty",
    area: Area::Env,
    title: "CUDA_VISIBLE_DEVICES does not hide every GPU",
    failing: "`CUDA_VISIBLE_DEVICES` hides every GPU (`\"\"`, `-1`, `NoDevFiles`, ...)",
    why: "With every GPU hidden CUDA reports no device.",
    next_step: "Unset CUDA_VISIBLE_DEVICES or name the GPUs, then restart the program.",
    action: Action::RestartApp,
    reads: &["pci_gpus", "kernel_module", "driver_api", "env"],
    not_in_paste: None,
    run: visible_devices_empty,
};

pub fn visible_devices_empty(ctx: &Ctx) -> Vec<Finding> {
    let f = ctx.facts;
    let Some(value) = view::env(f, "CUDA_VISIBLE_DEVICES") else {
        return Vec::new();
    };
    if !visible_devices_hide_all(f) {
        return Vec::new();
    }
    let slurm = if value == "NoDevFiles" {
        " (Slurm sets NoDevFiles when the job was allocated no GPU)"
    } else {
        ""
    };
    vec![ENV_VISIBLE_DEVICES_EMPTY.finding(Severity::Warn, format!("CUDA_VISIBLE_DEVICES={value:?} hides every GPU"))
        .details(format!(
            "With this value CUDA enumerates no device{slurm}: torch.cuda.is_available() is False and CUDA programs fail \
             with 'no CUDA-capable device is detected', although the GPUs are fine."
        ))
        .evidence("env.CUDA_VISIBLE_DEVICES", format!("{value:?}"))
        .fix("Unset it, or list the GPUs the job should use (indices or GPU-UUIDs).", &["unset CUDA_VISIBLE_DEVICES", "export CUDA_VISIBLE_DEVICES=0"])]
}

pub const ENV_VISIBLE_DEVICES_INVALID: Check = Check {
    id: "env.visible_devices_invalid",
    name: "env.visible_devices_valid",
    area: Area::Env,
    title: "CUDA_VISIBLE_DEVICES names existing GPUs",
    failing: "an entry matches no GPU (CUDA ignores it and all after it)",
    why: "CUDA stops at the first entry that matches no GPU and hides the rest.",
    next_step: "Name existing GPUs (indices, UUIDs or MIG UUIDs) and restart the program.",
    action: Action::RestartApp,
    reads: &["pci_gpus", "kernel_module", "driver_api", "env"],
    not_in_paste: None,
    run: visible_devices_invalid,
};

pub fn visible_devices_invalid(ctx: &Ctx) -> Vec<Finding> {
    let f = ctx.facts;
    let Some(value) = view::env(f, "CUDA_VISIBLE_DEVICES") else {
        return Vec::new();
    };
    let entries = parse_visible_devices(value);
    let id = &ENV_VISIBLE_DEVICES_INVALID;
    match first_unusable(f, &entries) {
        None => vec![id.finding(
            Severity::Pass,
            format!(
                "CUDA_VISIBLE_DEVICES={value:?} names {} usable device{}",
                entries.len(),
                super::host::plural(entries.len())
            ),
        )],
        Some(0) => Vec::new(), // env.visible_devices_empty
        Some(i) => {
            let raw: Vec<&str> = value.split(',').map(str::trim).collect();
            let bad = raw.get(i).copied().unwrap_or("");
            let kept = raw[..i].join(",");
            vec![id.finding(Severity::Warn, format!("CUDA_VISIBLE_DEVICES entry {bad:?} matches no GPU; CUDA ignores it and everything after it"))
                .details(format!(
                    "CUDA stops reading CUDA_VISIBLE_DEVICES at the first entry it cannot use, so only {kept:?} is visible. \
                     This machine has {} GPU(s).",
                    view::gpus_seen(f)
                ))
                .evidence("env.CUDA_VISIBLE_DEVICES", format!("{value:?}"))
                .fix_owned("List only devices that exist (nvidia-smi -L shows indices and UUIDs).", vec!["nvidia-smi -L".into(), format!("export CUDA_VISIBLE_DEVICES={kept}")])]
        }
    }
}

pub const ENV_DEVICE_ORDER: Check = Check {
    id: "env.device_order",
    name: "env.device_order",
    area: Area::Env,
    title: "CUDA numbers the GPUs as nvidia-smi does",
    failing: "CUDA numbers the GPUs differently from nvidia-smi and `CUDA_DEVICE_ORDER` is not `PCI_BUS_ID`",
    why: "CUDA's default order differs from nvidia-smi's: index N is another GPU in each.",
    next_step: "Set CUDA_DEVICE_ORDER=PCI_BUS_ID and restart the program.",
    action: Action::RestartApp,
    reads: &["driver_api", "env"],
    not_in_paste: None,
    run: device_order,
};

/// CUDA numbers GPUs fastest first unless CUDA_DEVICE_ORDER=PCI_BUS_ID; nvidia-smi, NVML
/// and most monitoring number them by PCI bus id. Where the two differ, "GPU 0" in a job
/// is not "GPU 0" in nvidia-smi, and CUDA_VISIBLE_DEVICES indices pick other GPUs than
/// the person meant.
pub fn device_order(ctx: &Ctx) -> Vec<Finding> {
    let f = ctx.facts;
    let devices = view::cuda_devices(f);
    if devices.len() < 2 {
        return Vec::new();
    }
    let id = &ENV_DEVICE_ORDER;
    if view::env(f, "CUDA_DEVICE_ORDER").map(str::trim) == Some("PCI_BUS_ID") {
        return vec![id.finding(
            Severity::Pass,
            "CUDA_DEVICE_ORDER=PCI_BUS_ID: CUDA numbers the GPUs as nvidia-smi does",
        )];
    }
    let indices: Vec<Option<u32>> = devices.iter().map(|d| d.nvml_index).collect();
    if indices.iter().any(Option::is_none) {
        return Vec::new();
    }
    if indices.windows(2).all(|w| w[0] < w[1]) {
        return vec![id.finding(
            Severity::Pass,
            "CUDA's device order matches nvidia-smi's on this machine",
        )];
    }
    let mapping: Vec<String> = devices
        .iter()
        .map(|d| {
            format!(
                "CUDA {} = nvidia-smi {}{}",
                d.ordinal,
                d.nvml_index.unwrap_or(0),
                d.name
                    .value()
                    .map(|n| format!(" ({n})"))
                    .unwrap_or_default()
            )
        })
        .collect();
    let cvd = view::env(f, "CUDA_VISIBLE_DEVICES")
        .filter(|v| {
            parse_visible_devices(v)
                .iter()
                .any(|e| matches!(e, VisibleEntry::Index(_)))
        })
        .map(|v| {
            format!(" CUDA_VISIBLE_DEVICES={v:?} uses indices, which CUDA reads in its own order.")
        })
        .unwrap_or_default();
    vec![id.finding(Severity::Warn, "CUDA numbers the GPUs differently from nvidia-smi (CUDA_DEVICE_ORDER is not PCI_BUS_ID)")
        .details(format!(
            "CUDA's default order is fastest first; nvidia-smi's is by PCI bus id. {}.{cvd} A job told to use GPU 0 runs on another GPU than nvidia-smi's GPU 0.",
            mapping.join(", ")
        ))
        .evidence("driver_api.cuda.devices", mapping.join("; "))
        .fix("Make CUDA number GPUs by PCI bus id, as nvidia-smi does, in the job's environment (or name GPUs by UUID).", &["export CUDA_DEVICE_ORDER=PCI_BUS_ID"])]
}

pub const ENV_LAUNCH_BLOCKING: Check = Check {
    id: "env.launch_blocking",
    name: "env.launch_blocking",
    area: Area::Env,
    title: "CUDA_LAUNCH_BLOCKING is off",
    failing: "`CUDA_LAUNCH_BLOCKING=1` left on",
    why: "Every kernel launch waits for the GPU: everything runs much slower.",
    next_step: "Unset CUDA_LAUNCH_BLOCKING and restart the program.",
    action: Action::RestartApp,
    reads: &["env"],
    not_in_paste: None,
    run: launch_blocking,
};

pub fn launch_blocking(ctx: &Ctx) -> Vec<Finding> {
    let Some(v) = view::env(ctx.facts, "CUDA_LAUNCH_BLOCKING") else {
        return Vec::new();
    };
    if v.trim() != "1" {
        return Vec::new();
    }
    vec![ENV_LAUNCH_BLOCKING.finding(Severity::Warn, "CUDA_LAUNCH_BLOCKING=1 is set: every kernel launch waits for the GPU")
        .details("Synchronous launches are a debugging aid (exact error locations); left on, they make training and inference several times slower.")
        .evidence("env.CUDA_LAUNCH_BLOCKING", v)
        .fix("Unset it outside debugging sessions.", &["unset CUDA_LAUNCH_BLOCKING"])]
}

/// What is wrong with an allocator config string, as PyTorch's parser
/// (c10/core/AllocatorConfig.cpp) would judge it. `unknown` keys are ones this
/// gpu-doctor does not know; `errors` are values PyTorch rejects.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct AllocConfProblems {
    pub errors: Vec<String>,
    pub unknown: Vec<String>,
}

/// Smallest max_split_size_mb / max_non_split_rounding_mb PyTorch accepts (kLargeBuffer, 20 MiB).
const MIN_SPLIT_MB: u64 = 20;
/// pinned_max_register_threads() in PyTorch.
const MAX_REGISTER_THREADS: u64 = 128;

pub fn check_alloc_conf(value: &str) -> AllocConfProblems {
    let mut p = AllocConfProblems::default();
    for item in split_top_level(value) {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let Some((key, val)) = item.split_once(':') else {
            p.errors.push(format!("{item:?} has no ':value'"));
            continue;
        };
        let (key, val) = (key.trim(), val.replace(' ', ""));
        let bool_ok = val == "True" || val == "False";
        let err = match key {
            "max_split_size_mb" | "max_non_split_rounding_mb" => match val.parse::<u64>() {
                Ok(n) if n >= MIN_SPLIT_MB => None,
                Ok(n) => Some(format!("{key}:{n} is below the minimum of {MIN_SPLIT_MB}")),
                Err(_) => Some(format!("{key} needs a whole number of MiB, not {val:?}")),
            },
            "garbage_collection_threshold" => match val.parse::<f64>() {
                Ok(x) if x > 0.0 && x < 1.0 => None,
                _ => Some(format!("garbage_collection_threshold must be between 0.0 and 1.0 (exclusive), not {val:?}")),
            },
            "roundup_power2_divisions" => check_roundup(&val),
            "backend" => (val != "native" && val != "cudaMallocAsync").then(|| format!("backend must be native or cudaMallocAsync, not {val:?}")),
            "expandable_segments" | "release_lock_on_cudamalloc" | "pinned_use_cuda_host_register" | "pinned_use_background_threads" => {
                (!bool_ok).then(|| format!("{key} takes True or False (capitalised), not {val:?}"))
            }
            "pinned_num_register_threads" => match val.parse::<u64>() {
                Ok(n) if n.is_power_of_two() && n <= MAX_REGISTER_THREADS => None,
                _ => Some(format!("pinned_num_register_threads must be a power of 2 up to {MAX_REGISTER_THREADS}, not {val:?}")),
            },
            _ => {
                p.unknown.push(key.to_string());
                None
            }
        };
        p.errors.extend(err);
    }
    p
}

/// Splits on commas outside `[...]` (roundup_power2_divisions takes a bracketed list).
fn split_top_level(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, c) in s.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

fn check_roundup(val: &str) -> Option<String> {
    let pow2_or_zero = |v: &str| {
        v.parse::<u64>()
            .is_ok_and(|n| n == 0 || n.is_power_of_two())
    };
    if let Some(inner) = val.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
        for pair in inner.split(',') {
            let Some((size, div)) = pair.split_once(':') else {
                return Some(format!(
                    "roundup_power2_divisions entry {pair:?} is not size:divisions"
                ));
            };
            let size_ok = size == ">" || size.parse::<u64>().is_ok_and(u64::is_power_of_two);
            if !size_ok || !pow2_or_zero(div) {
                return Some(format!(
                    "roundup_power2_divisions entry {pair:?} needs powers of 2"
                ));
            }
        }
        None
    } else {
        (!val.parse::<u64>().is_ok_and(u64::is_power_of_two))
            .then(|| format!("roundup_power2_divisions must be a power of 2, not {val:?}"))
    }
}

pub const ENV_ALLOC_CONF_INVALID: Check = Check {
    id: "env.alloc_conf_invalid",
    name: "env.alloc_conf",
    area: Area::Env,
    title: "PYTORCH_CUDA_ALLOC_CONF / PYTORCH_ALLOC_CONF are valid",
    failing: "`PYTORCH_CUDA_ALLOC_CONF`/`PYTORCH_ALLOC_CONF` that PyTorch rejects (e.g. `expandable_segments:true`)",
    why: "PyTorch refuses an allocator setting it cannot parse at the first CUDA allocation.",
    next_step: "Fix the setting and restart the program.",
    action: Action::RestartApp,
    reads: &["env"],
    not_in_paste: None,
    run: alloc_conf_invalid,
};

pub fn alloc_conf_invalid(ctx: &Ctx) -> Vec<Finding> {
    let mut out = Vec::new();
    for name in ["PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_ALLOC_CONF"] {
        let Some(value) = view::env(ctx.facts, name) else {
            continue;
        };
        let p = check_alloc_conf(value);
        let id = &ENV_ALLOC_CONF_INVALID;
        if !p.errors.is_empty() {
            out.push(id.finding(Severity::Fail, format!("{name} is invalid: {}", p.errors[0]))
                .details(format!(
                    "PyTorch parses {name} when CUDA memory is first allocated and raises a RuntimeError for a bad value, \
                     so every CUDA job fails at its first tensor. Problems: {}.",
                    p.errors.join("; ")
                ))
                .evidence(&format!("env.{name}"), value)
                .fix("Correct the value (keys and True/False are case-sensitive), e.g. expandable_segments:True.", &[]));
        } else if !p.unknown.is_empty() {
            out.push(id.finding(Severity::Warn, format!("{name} has option(s) gpu-doctor does not know: {}", p.unknown.join(", ")))
                .details("PyTorch raises 'Unrecognized CachingAllocator option' for keys its version does not know, failing the first CUDA allocation. Check the spelling against the PyTorch version in use.")
                .evidence(&format!("env.{name}"), value)
                .fix("Remove or correct the unknown keys.", &[]));
        } else {
            out.push(id.finding(Severity::Pass, format!("{name}={value} is valid")));
        }
    }
    out
}

pub use crate::arch_list::{arch_list_covers, parse_arch_list, ArchEntry}; // moved: src/arch_list.rs

pub const ENV_ARCH_LIST_MISMATCH: Check = Check {
    id: "env.arch_list_mismatch",
    name: "env.arch_list",
    area: Area::Env,
    title: "TORCH_CUDA_ARCH_LIST covers the GPUs present",
    failing: "`TORCH_CUDA_ARCH_LIST` leaves out a GPU present",
    why: "Extensions built with this list have no kernels for the GPUs it leaves out.",
    next_step: "Add the GPUs' compute capabilities to TORCH_CUDA_ARCH_LIST and rebuild.",
    action: Action::FixSoftware,
    reads: &["pci_gpus", "driver_api", "env", "matrix"],
    not_in_paste: None,
    run: arch_list_mismatch,
};

pub fn arch_list_mismatch(ctx: &Ctx) -> Vec<Finding> {
    let f = ctx.facts;
    let Some(value) = view::env(f, "TORCH_CUDA_ARCH_LIST") else {
        return Vec::new();
    };
    let id = &ENV_ARCH_LIST_MISMATCH;
    let entries = match parse_arch_list(value) {
        Ok(e) => e,
        Err(tok) => {
            return vec![id
                .finding(
                    Severity::Info,
                    format!(
                    "TORCH_CUDA_ARCH_LIST entry {tok:?} is not a compute capability; not checked"
                ),
                )
                .evidence("env.TORCH_CUDA_ARCH_LIST", value)]
        }
    };
    // Every GPU with a known compute capability: NVML's, or the matrix's by name or PCI id.
    let gpus = view::gpu_ccs(f, ctx.matrix);
    let checked = gpus.len();
    let missing: Vec<String> = gpus
        .iter()
        .filter(|g| !arch_list_covers(&entries, g.major, g.minor))
        .map(|g| format!("{} ({})", g.label, g.sm()))
        .collect();
    if checked == 0 {
        return Vec::new();
    }
    if missing.is_empty() {
        return vec![id.finding(
            Severity::Pass,
            format!("TORCH_CUDA_ARCH_LIST={value} covers every GPU"),
        )];
    }
    vec![id.finding(Severity::Warn, format!("TORCH_CUDA_ARCH_LIST={value} leaves out {}", missing.join(", ")))
        .details("Extensions built now (pip install of flash-attn, custom ops) get no kernels for these GPUs and fail with 'no kernel image is available for execution on the device'.")
        .evidence("env.TORCH_CUDA_ARCH_LIST", value)
        .fix("Add the missing compute capabilities (or unset the variable to build for the GPUs present).", &["unset TORCH_CUDA_ARCH_LIST"])]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::testutil::*;

    fn with_env(name: &str, value: &str) -> Facts {
        let mut f = healthy();
        f.env.insert(name.into(), value.into());
        f
    }

    #[test]
    fn visible_devices_values() {
        for v in ["", "-1", "NoDevFiles", "none", "1"] {
            let f = with_env("CUDA_VISIBLE_DEVICES", v);
            assert!(visible_devices_hide_all(&f), "{v:?}");
            assert_eq!(
                only(&run(visible_devices_empty, &f)),
                Severity::Warn,
                "{v:?}"
            );
            assert!(run(visible_devices_invalid, &f).is_empty(), "{v:?}");
        }
        let f = with_env("CUDA_VISIBLE_DEVICES", "0");
        assert!(run(visible_devices_empty, &f).is_empty());
        assert_eq!(only(&run(visible_devices_invalid, &f)), Severity::Pass);
        let f = with_env("CUDA_VISIBLE_DEVICES", "GPU-0a1b");
        assert_eq!(only(&run(visible_devices_invalid, &f)), Severity::Pass);
        let f = with_env("CUDA_VISIBLE_DEVICES", "0,3");
        let out = run(visible_devices_invalid, &f);
        assert_eq!(only(&out), Severity::Warn);
        assert!(out[0].summary.contains("\"3\""));
        assert!(out[0]
            .fix
            .as_ref()
            .unwrap()
            .commands
            .contains(&"export CUDA_VISIBLE_DEVICES=0".to_string()));
        assert!(run(visible_devices_empty, &healthy()).is_empty());
    }

    #[test]
    fn mig_entries_are_judged_against_the_instances() {
        use crate::fact::Fact;
        use crate::facts::nvml_device::{MigInstance, MigState};
        let mut f = with_env("CUDA_VISIBLE_DEVICES", "MIG-1234");
        // Without MIG state, a MIG entry cannot be judged.
        if let Fact::Known { value: nvml } = &mut f.driver_api.nvml {
            if let Fact::Known { value: devs } = &mut nvml.devices {
                devs[0].mig = Fact::unsupported("no MIG");
            }
        }
        assert_eq!(only(&run(visible_devices_invalid, &f)), Severity::Pass);
        if let Fact::Known { value: nvml } = &mut f.driver_api.nvml {
            if let Fact::Known { value: devs } = &mut nvml.devices {
                devs[0].mig = Fact::known(MigState {
                    current_enabled: true,
                    pending_enabled: true,
                    instances: vec![MigInstance {
                        index: 0,
                        uuid: Fact::known("MIG-1234abcd-0000-4000-8000-000000000000".into()),
                        name: Fact::known("NVIDIA H100 80GB HBM3 MIG 1g.10gb".into()),
                        memory_total_bytes: Fact::known(10 << 30),
                    }],
                });
            }
        }
        assert_eq!(only(&run(visible_devices_invalid, &f)), Severity::Pass);
        f.env
            .insert("CUDA_VISIBLE_DEVICES".into(), "MIG-9999".into());
        assert!(visible_devices_hide_all(&f));
        f.env
            .insert("CUDA_VISIBLE_DEVICES".into(), "MIG-1234,MIG-9999".into());
        let out = run(visible_devices_invalid, &f);
        assert_eq!(only(&out), Severity::Warn);
        assert!(out[0].summary.contains("MIG-9999"));
    }

    #[test]
    fn parse_entries() {
        assert_eq!(
            parse_visible_devices("0, GPU-ab ,MIG-x,foo"),
            vec![
                VisibleEntry::Index(0),
                VisibleEntry::Uuid("GPU-ab".into()),
                VisibleEntry::Mig("MIG-x".into()),
                VisibleEntry::Invalid("foo".into()),
            ]
        );
    }

    #[test]
    fn launch_blocking_only_when_one() {
        assert_eq!(
            only(&run(
                launch_blocking,
                &with_env("CUDA_LAUNCH_BLOCKING", "1")
            )),
            Severity::Warn
        );
        assert!(run(launch_blocking, &with_env("CUDA_LAUNCH_BLOCKING", "0")).is_empty());
        assert!(run(launch_blocking, &healthy()).is_empty());
    }

    #[test]
    fn alloc_conf_table() {
        let ok = [
            "expandable_segments:True",
            "max_split_size_mb:128,garbage_collection_threshold:0.6",
            "backend:cudaMallocAsync",
            "roundup_power2_divisions:[256:1,512:2,1024:4,>:8]",
            "roundup_power2_divisions:4",
            "pinned_num_register_threads:8",
        ];
        for v in ok {
            assert_eq!(check_alloc_conf(v), AllocConfProblems::default(), "{v}");
        }
        let bad = [
            "expandable_segments:true",
            "max_split_size_mb:10",
            "max_split_size_mb:lots",
            "garbage_collection_threshold:1.5",
            "backend:async",
            "roundup_power2_divisions:3",
            "roundup_power2_divisions:[256:3]",
            "pinned_num_register_threads:3",
            "expandable_segments",
        ];
        for v in bad {
            assert!(!check_alloc_conf(v).errors.is_empty(), "{v}");
        }
        assert_eq!(
            check_alloc_conf("max_splt_size_mb:128").unknown,
            vec!["max_splt_size_mb".to_string()]
        );
    }

    #[test]
    fn alloc_conf_findings() {
        let out = run(
            alloc_conf_invalid,
            &with_env("PYTORCH_CUDA_ALLOC_CONF", "expandable_segments:true"),
        );
        assert_eq!(only(&out), Severity::Fail);
        assert!(out[0].summary.contains("True or False"));
        assert_eq!(
            only(&run(
                alloc_conf_invalid,
                &with_env("PYTORCH_ALLOC_CONF", "foo:1")
            )),
            Severity::Warn
        );
        assert_eq!(
            only(&run(
                alloc_conf_invalid,
                &with_env("PYTORCH_ALLOC_CONF", "expandable_segments:True")
            )),
            Severity::Pass
        );
        assert!(run(alloc_conf_invalid, &healthy()).is_empty());
    }

    #[test]
    fn arch_list_coverage() {
        let e = parse_arch_list("7.0;7.5 8.0+PTX").unwrap();
        assert!(arch_list_covers(&e, 8, 6)); // sm_80 SASS runs on 8.6
        assert!(arch_list_covers(&e, 9, 0)); // via PTX
        assert!(!arch_list_covers(
            &parse_arch_list("8.0;8.6").unwrap(),
            9,
            0
        ));
        assert!(!arch_list_covers(&parse_arch_list("9.0a").unwrap(), 10, 0));
        assert!(arch_list_covers(&parse_arch_list("9.0a").unwrap(), 9, 0));
        assert!(parse_arch_list("Ampere").is_err());
        assert_eq!(
            only(&run(
                arch_list_mismatch,
                &with_env("TORCH_CUDA_ARCH_LIST", "8.0;8.6")
            )),
            Severity::Warn
        );
        assert_eq!(
            only(&run(
                arch_list_mismatch,
                &with_env("TORCH_CUDA_ARCH_LIST", "9.0")
            )),
            Severity::Pass
        );
        assert_eq!(
            only(&run(
                arch_list_mismatch,
                &with_env("TORCH_CUDA_ARCH_LIST", "Hopper")
            )),
            Severity::Info
        );
    }

    fn two_gpus(cuda_order: [u32; 2]) -> Facts {
        use crate::checks::testutil::cuda_device;
        let mut f = healthy();
        if let Some(crate::fact::Fact::Known { value: cuda }) = Some(&mut f.driver_api.cuda) {
            cuda.devices = crate::fact::Fact::known(
                cuda_order
                    .iter()
                    .enumerate()
                    .map(|(ordinal, nvml)| {
                        cuda_device(
                            ordinal as u32,
                            Some(*nvml),
                            if *nvml == 0 {
                                "NVIDIA RTX A4000"
                            } else {
                                "NVIDIA H100 PCIe"
                            },
                            &format!("0000:{:02x}:00.0", nvml + 1),
                            &format!("GPU-{nvml}"),
                        )
                    })
                    .collect(),
            );
        }
        f
    }

    #[test]
    fn device_order() {
        // The faster H100 (nvidia-smi 1) comes first in CUDA's default order.
        let f = two_gpus([1, 0]);
        let out = run(super::device_order, &f);
        assert_eq!(only(&out), Severity::Warn);
        assert!(out[0]
            .details
            .contains("CUDA 0 = nvidia-smi 1 (NVIDIA H100 PCIe)"));
        let mut f2 = f.clone();
        f2.env
            .insert("CUDA_DEVICE_ORDER".into(), "PCI_BUS_ID".into());
        assert_eq!(only(&run(super::device_order, &f2)), Severity::Pass);
        f2.env
            .insert("CUDA_DEVICE_ORDER".into(), "FASTEST_FIRST".into());
        assert_eq!(only(&run(super::device_order, &f2)), Severity::Warn);
        let mut f3 = f.clone();
        f3.env.insert("CUDA_VISIBLE_DEVICES".into(), "0".into());
        assert!(run(super::device_order, &f3)[0]
            .details
            .contains("uses indices"));
        assert_eq!(
            only(&run(super::device_order, &two_gpus([0, 1]))),
            Severity::Pass
        );
        // One GPU: nothing to order.
        assert!(run(super::device_order, &healthy()).is_empty());
    }
}
