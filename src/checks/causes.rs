//! Causes over symptoms: after every check ran, a finding that another one explains
//! names it (`caused_by`), so the report can show the cause with its symptoms folded
//! under it. One pure pass over the findings and one table of rules; severities, and so
//! the verdict and the exit code, are never changed.
//!
//! A symptom names its root cause: when the cause is itself a symptom of another finding,
//! the symptom points past it to the root (causes never nest more than one level).

use crate::finding::{Action, CauseRef, Finding, Scope, Severity};

/// Which symptoms a cause explains.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Every finding of the symptom id, whatever its scope (a host-wide driver fault).
    Everywhere,
    /// Only findings about the same GPU (an Xid or a lost GPU explains that GPU's probes).
    SameGpu,
}

/// One cause → symptom rule.
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    /// The cause's failure id.
    pub cause: &'static str,
    /// The symptom's failure id; a trailing `.*` takes a whole area ("probe.*").
    pub symptom: &'static str,
    pub reach: Reach,
    /// Why the cause explains the symptom (documentation, and the tests' reading).
    pub why: &'static str,
}

const fn rule(cause: &'static str, symptom: &'static str, reach: Reach, why: &'static str) -> Rule {
    Rule {
        cause,
        symptom,
        reach,
        why,
    }
}

use Reach::{Everywhere, SameGpu};

/// The rules, most fundamental cause first: a symptom is put under the first rule whose
/// cause is present (at warn or fail) in the report.
pub const RULES: &[Rule] = &[
    // No driver at all: nothing above it can work.
    rule(
        "driver.not_installed",
        "driver.*",
        Everywhere,
        "without a driver no driver library or module works",
    ),
    rule(
        "driver.not_installed",
        "probe.*",
        Everywhere,
        "without a driver no CUDA probe runs",
    ),
    rule(
        "driver.not_installed",
        "torch.cuda_unavailable",
        Everywhere,
        "without a driver torch sees no GPU",
    ),
    rule(
        "driver.not_installed",
        "host.expected_gpus",
        Everywhere,
        "without a driver no GPU is usable",
    ),
    rule(
        "driver.not_installed",
        "gpu.missing",
        Everywhere,
        "without a driver NVML and CUDA see no GPU",
    ),
    // The module is not loaded: NVML, cuInit and the device nodes fail because of it.
    rule(
        "driver.module_not_loaded",
        "driver.nvml_failed",
        Everywhere,
        "NVML needs the kernel module",
    ),
    rule(
        "driver.module_not_loaded",
        "driver.cuda_init_failed",
        Everywhere,
        "cuInit needs the kernel module",
    ),
    rule(
        "driver.module_not_loaded",
        "driver.device_nodes",
        Everywhere,
        "the module creates /dev/nvidia*",
    ),
    rule(
        "driver.module_not_loaded",
        "driver.uvm_unavailable",
        Everywhere,
        "nvidia_uvm loads after nvidia",
    ),
    rule(
        "driver.module_not_loaded",
        "probe.*",
        Everywhere,
        "no probe runs without the module",
    ),
    rule(
        "driver.module_not_loaded",
        "torch.cuda_unavailable",
        Everywhere,
        "torch sees no GPU without the module",
    ),
    rule(
        "driver.module_not_loaded",
        "host.expected_gpus",
        Everywhere,
        "no GPU is usable without the module",
    ),
    rule(
        "driver.module_not_loaded",
        "gpu.missing",
        Everywhere,
        "NVML and CUDA see no GPU without the module",
    ),
    // nouveau holds the GPU: the NVIDIA module cannot.
    rule(
        "driver.nouveau_loaded",
        "driver.module_not_loaded",
        Everywhere,
        "nouveau holds the GPU, so nvidia cannot load",
    ),
    // The driver was upgraded without a reboot: every NVML and CUDA call fails.
    rule(
        "driver.library_mismatch",
        "driver.compat_package_mismatch",
        Everywhere,
        "cuInit's 803 is the module/library mismatch itself",
    ),
    rule(
        "driver.library_mismatch",
        "driver.nvml_failed",
        Everywhere,
        "NVML refuses a mismatched module",
    ),
    rule(
        "driver.library_mismatch",
        "driver.cuda_init_failed",
        Everywhere,
        "cuInit refuses a mismatched module",
    ),
    rule(
        "driver.library_mismatch",
        "driver.entry_point_missing",
        Everywhere,
        "a libcuda of another release lacks entry points",
    ),
    rule(
        "driver.library_mismatch",
        "probe.*",
        Everywhere,
        "every probe calls the mismatched libcuda",
    ),
    rule(
        "driver.library_mismatch",
        "torch.cuda_unavailable",
        Everywhere,
        "torch's cuInit fails the same way",
    ),
    rule(
        "driver.library_mismatch",
        "host.expected_gpus",
        Everywhere,
        "no GPU is usable until the reboot",
    ),
    rule(
        "driver.library_mismatch",
        "gpu.missing",
        Everywhere,
        "NVML and CUDA see no GPU until the reboot",
    ),
    // The stub libcuda is loaded instead of the driver's: cuInit fails with 34.
    rule(
        "driver.stub_library",
        "driver.cuda_init_failed",
        Everywhere,
        "the toolkit's stub libcuda cannot initialise",
    ),
    rule(
        "driver.stub_library",
        "probe.*",
        Everywhere,
        "the probes load the stub libcuda",
    ),
    rule(
        "driver.stub_library",
        "torch.cuda_unavailable",
        Everywhere,
        "torch loads the stub libcuda",
    ),
    // cuda-compat package of another branch (803), forward compat on a consumer GPU (804).
    rule(
        "driver.compat_package_mismatch",
        "driver.cuda_init_failed",
        Everywhere,
        "cuInit's 803 is this mismatch",
    ),
    rule(
        "driver.compat_package_mismatch",
        "probe.*",
        Everywhere,
        "every probe calls the mismatched libcuda",
    ),
    rule(
        "driver.compat_package_mismatch",
        "torch.cuda_unavailable",
        Everywhere,
        "torch's cuInit fails with 803 too",
    ),
    rule(
        "driver.forward_compat_unsupported",
        "driver.cuda_init_failed",
        Everywhere,
        "cuInit's 804 is this",
    ),
    rule(
        "driver.forward_compat_unsupported",
        "probe.*",
        Everywhere,
        "every probe's cuInit fails with 804",
    ),
    rule(
        "driver.forward_compat_unsupported",
        "torch.cuda_unavailable",
        Everywhere,
        "torch's cuInit fails with 804 too",
    ),
    // NVSwitch fabric not ready: cuInit 802.
    rule(
        "driver.fabric_manager",
        "driver.cuda_init_failed",
        Everywhere,
        "cuInit's 802 is the fabric",
    ),
    rule(
        "driver.fabric_manager",
        "probe.*",
        Everywhere,
        "no CUDA context until the fabric is ready",
    ),
    rule(
        "driver.fabric_manager",
        "torch.cuda_unavailable",
        Everywhere,
        "torch's cuInit fails with 802 too",
    ),
    // Device nodes missing or not accessible.
    rule(
        "driver.device_nodes",
        "driver.cuda_init_failed",
        Everywhere,
        "cuInit opens /dev/nvidia*",
    ),
    rule(
        "driver.device_nodes",
        "probe.*",
        Everywhere,
        "the probes open /dev/nvidia*",
    ),
    rule(
        "driver.device_nodes",
        "torch.cuda_unavailable",
        Everywhere,
        "torch opens /dev/nvidia*",
    ),
    // cuInit failed for another reason: nothing CUDA runs.
    rule(
        "driver.cuda_init_failed",
        "probe.*",
        Everywhere,
        "every probe starts with cuInit",
    ),
    rule(
        "driver.cuda_init_failed",
        "torch.cuda_unavailable",
        Everywhere,
        "torch starts with cuInit",
    ),
    rule(
        "driver.uvm_unavailable",
        "probe.*",
        Everywhere,
        "CUDA contexts need nvidia_uvm",
    ),
    rule(
        "driver.uvm_unavailable",
        "torch.cuda_unavailable",
        Everywhere,
        "CUDA contexts need nvidia_uvm",
    ),
    // A driver too old for torch's CUDA: torch.cuda.is_available() is False because of it.
    rule(
        "driver.too_old_for_torch",
        "torch.cuda_unavailable",
        Everywhere,
        "torch's CUDA needs a newer driver",
    ),
    // CUDA_VISIBLE_DEVICES hides every GPU.
    rule(
        "env.visible_devices_empty",
        "torch.cuda_unavailable",
        Everywhere,
        "torch sees the GPUs the variable shows: none",
    ),
    rule(
        "env.visible_devices_invalid",
        "torch.cuda_unavailable",
        Everywhere,
        "an invalid list hides the GPUs from CUDA",
    ),
    // A GPU fault on one GPU: that GPU's symptoms.
    rule(
        "gpu.xid",
        "gpu.lost",
        SameGpu,
        "Xid 79 and its kind: the GPU fell off the bus",
    ),
    rule(
        "gpu.xid",
        "probe.*",
        SameGpu,
        "a faulted GPU fails every probe",
    ),
    rule(
        "gpu.lost",
        "probe.*",
        SameGpu,
        "a lost GPU fails every probe",
    ),
    rule(
        "gpu.lost",
        "gpu.missing",
        Everywhere,
        "a lost GPU is missing from NVML's count",
    ),
];

/// Whether `id` is taken by a rule's symptom pattern.
fn matches(pattern: &str, id: &str) -> bool {
    match pattern.strip_suffix(".*") {
        Some(area) => id.split('.').next() == Some(area),
        None => pattern == id,
    }
}

/// The GPU a scope is about, as comparable keys: its index and its PCI "bus:device".
fn gpu_keys(scope: &Scope) -> Option<(Option<u32>, Option<String>)> {
    match scope {
        Scope::Gpu { index, pci_bus_id } => Some((*index, pci_bus_id.as_deref().map(bus_key))),
        _ => None,
    }
}

/// "00000000:3B:00.0" and "0000:3b:00" alike → "3b:00".
fn bus_key(bus: &str) -> String {
    let lower = bus.trim().to_ascii_lowercase();
    let no_fn = lower.split('.').next().unwrap_or(&lower);
    let parts: Vec<&str> = no_fn.split(':').collect();
    match parts.as_slice() {
        [.., b, d] => format!("{b}:{d}"),
        _ => no_fn.to_string(),
    }
}

fn same_gpu(a: &Scope, b: &Scope) -> bool {
    match (gpu_keys(a), gpu_keys(b)) {
        (Some((ia, ba)), Some((ib, bb))) => match (ia, ib, ba, bb) {
            (Some(x), Some(y), _, _) => x == y,
            (_, _, Some(x), Some(y)) => x == y,
            _ => false,
        },
        _ => false,
    }
}

/// Whether a finding can be a cause: a problem, and for an Xid a fault of the GPU (not
/// the application's own error, which explains nothing about the GPU).
fn can_cause(f: &Finding) -> bool {
    if f.severity < Severity::Warn {
        return false;
    }
    if f.id == "gpu.xid" {
        return f.severity == Severity::Fail
            && !matches!(f.action, Some(Action::RestartApp | Action::None));
    }
    true
}

/// The index of the finding that explains `findings[i]`, by the first rule that applies.
fn direct_cause(findings: &[Finding], i: usize) -> Option<usize> {
    let s = &findings[i];
    if s.severity < Severity::Warn {
        return None;
    }
    for r in RULES.iter().filter(|r| matches(r.symptom, &s.id)) {
        let found = findings.iter().enumerate().position(|(j, c)| {
            j != i
                && c.id == r.cause
                && c.id != s.id
                && can_cause(c)
                && match r.reach {
                    Reach::Everywhere => true,
                    Reach::SameGpu => same_gpu(&c.scope, &s.scope),
                }
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

/// Sets `caused_by` on every finding another one explains, to its root cause. Findings
/// with a `caused_by` already set (a saved report) are left as they are.
pub fn link(findings: &mut [Finding]) {
    let direct: Vec<Option<usize>> = (0..findings.len())
        .map(|i| direct_cause(findings, i))
        .collect();
    for i in 0..findings.len() {
        if findings[i].caused_by.is_some() {
            continue;
        }
        let mut root = direct[i];
        // Follow to the root; the table has no cycles (tested), the bound is for safety.
        for _ in 0..findings.len() {
            match root.and_then(|r| direct[r]) {
                Some(next) if Some(next) != root && next != i => root = Some(next),
                _ => break,
            }
        }
        if let Some(r) = root {
            findings[i].caused_by = Some(CauseRef {
                id: findings[r].id.clone(),
                scope: findings[r].scope.clone(),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(id: &str, sev: Severity) -> Finding {
        Finding::new(id, sev, id)
    }

    fn on_gpu(mut x: Finding, index: Option<u32>, bus: Option<&str>) -> Finding {
        x.scope = Scope::Gpu {
            index,
            pci_bus_id: bus.map(str::to_string),
        };
        x
    }

    fn cause_of(fs: &[Finding], id: &str) -> Option<String> {
        fs.iter()
            .find(|x| x.id == id)
            .and_then(|x| x.caused_by.as_ref())
            .map(|c| format!("{} ({})", c.id, c.scope))
    }

    /// The table, case by case: (findings present, symptom, expected cause).
    #[test]
    fn rules_table() {
        use Severity::{Fail, Pass, Warn};
        type Case<'a> = (&'a [(&'a str, Severity)], &'a str, Option<&'a str>);
        let cases: &[Case] = &[
            // 803 and cuInit under "driver upgraded without a reboot".
            (
                &[
                    ("driver.library_mismatch", Fail),
                    ("driver.compat_package_mismatch", Fail),
                ],
                "driver.compat_package_mismatch",
                Some("driver.library_mismatch (host)"),
            ),
            (
                &[
                    ("driver.library_mismatch", Fail),
                    ("driver.cuda_init_failed", Fail),
                ],
                "driver.cuda_init_failed",
                Some("driver.library_mismatch (host)"),
            ),
            (
                &[
                    ("driver.library_mismatch", Fail),
                    ("driver.nvml_failed", Fail),
                ],
                "driver.nvml_failed",
                Some("driver.library_mismatch (host)"),
            ),
            (
                &[("driver.library_mismatch", Fail), ("probe.launch", Fail)],
                "probe.launch",
                Some("driver.library_mismatch (host)"),
            ),
            (
                &[
                    ("driver.library_mismatch", Fail),
                    ("torch.cuda_unavailable", Fail),
                ],
                "torch.cuda_unavailable",
                Some("driver.library_mismatch (host)"),
            ),
            // A passing library check explains nothing.
            (
                &[
                    ("driver.library_mismatch", Pass),
                    ("driver.cuda_init_failed", Fail),
                ],
                "driver.cuda_init_failed",
                None,
            ),
            // Probes under cuInit, under the library entry points, under the stub.
            (
                &[("driver.cuda_init_failed", Fail), ("probe.cublaslt", Fail)],
                "probe.cublaslt",
                Some("driver.cuda_init_failed (host)"),
            ),
            (
                &[
                    ("driver.stub_library", Fail),
                    ("driver.cuda_init_failed", Fail),
                ],
                "driver.cuda_init_failed",
                Some("driver.stub_library (host)"),
            ),
            // Root cause, not the intermediate one: probe → cuInit → module.
            (
                &[
                    ("driver.module_not_loaded", Fail),
                    ("driver.cuda_init_failed", Fail),
                    ("probe.graph", Fail),
                ],
                "probe.graph",
                Some("driver.module_not_loaded (host)"),
            ),
            (
                &[
                    ("driver.nouveau_loaded", Fail),
                    ("driver.module_not_loaded", Fail),
                    ("driver.nvml_failed", Fail),
                ],
                "driver.nvml_failed",
                Some("driver.nouveau_loaded (host)"),
            ),
            (
                &[
                    ("driver.too_old_for_torch", Fail),
                    ("torch.cuda_unavailable", Fail),
                ],
                "torch.cuda_unavailable",
                Some("driver.too_old_for_torch (host)"),
            ),
            (
                &[
                    ("env.visible_devices_empty", Warn),
                    ("torch.cuda_unavailable", Fail),
                ],
                "torch.cuda_unavailable",
                Some("env.visible_devices_empty (host)"),
            ),
            // Unrelated problems stay apart.
            (
                &[("host.shm_small", Warn), ("torch.cpu_only", Fail)],
                "torch.cpu_only",
                None,
            ),
            (
                &[("driver.library_mismatch", Fail), ("host.shm_small", Warn)],
                "host.shm_small",
                None,
            ),
        ];
        for (present, symptom, want) in cases {
            let mut fs: Vec<Finding> = present.iter().map(|(id, s)| f(id, *s)).collect();
            link(&mut fs);
            assert_eq!(
                cause_of(&fs, symptom).as_deref(),
                *want,
                "{present:?}: {symptom}"
            );
            // Causes never nest: a cause names no cause of its own.
            for x in &fs {
                if let Some(c) = &x.caused_by {
                    let cause = fs.iter().find(|y| y.id == c.id).unwrap();
                    assert!(cause.caused_by.is_none(), "{present:?}");
                }
            }
        }
    }

    #[test]
    fn an_xid_explains_only_its_own_gpus_probes() {
        let mut xid = on_gpu(f("gpu.xid", Severity::Fail), None, Some("0000:3b:00"));
        xid.action = Some(Action::Reboot);
        let mut fs = vec![
            xid,
            on_gpu(
                f("probe.launch", Severity::Fail),
                Some(1),
                Some("00000000:3B:00.0"),
            ),
            on_gpu(
                f("probe.cublaslt", Severity::Fail),
                Some(0),
                Some("00000000:18:00.0"),
            ),
            on_gpu(
                f("gpu.lost", Severity::Fail),
                Some(1),
                Some("00000000:3B:00.0"),
            ),
        ];
        link(&mut fs);
        assert!(fs[1].caused_by.as_ref().is_some_and(|c| c.id == "gpu.xid"));
        assert!(fs[0].explains(&fs[1]));
        assert!(fs[2].caused_by.is_none(), "GPU 0 is another GPU");
        assert!(fs[3].caused_by.as_ref().is_some_and(|c| c.id == "gpu.xid"));
        // An application's Xid (13, 31, 43) explains nothing about the GPU.
        let mut app = on_gpu(f("gpu.xid", Severity::Fail), Some(1), None);
        app.action = Some(Action::RestartApp);
        let mut fs = vec![
            app,
            on_gpu(f("probe.launch", Severity::Fail), Some(1), None),
        ];
        link(&mut fs);
        assert!(fs[1].caused_by.is_none());
    }

    #[test]
    fn every_probe_on_every_gpu_folds_under_one_driver_fault() {
        let mut fs = vec![f("driver.cuda_init_failed", Severity::Fail)];
        for gpu in 0..8 {
            for p in ["probe.launch", "probe.cublaslt", "probe.graph"] {
                fs.push(on_gpu(f(p, Severity::Fail), Some(gpu), None));
            }
        }
        link(&mut fs);
        assert!(fs[0].caused_by.is_none());
        assert!(fs[1..].iter().all(|x| fs[0].explains(x)));
    }

    #[test]
    fn passes_and_notes_are_never_symptoms() {
        let mut fs = vec![
            f("driver.library_mismatch", Severity::Fail),
            on_gpu(f("probe.launch", Severity::Pass), Some(0), None),
            on_gpu(f("probe.oom", Severity::Info), Some(0), None),
        ];
        link(&mut fs);
        assert!(fs.iter().all(|x| x.caused_by.is_none()));
    }

    #[test]
    fn every_rule_names_catalogue_ids_and_the_table_has_no_cycle() {
        for r in RULES {
            assert!(
                super::super::catalogue::by_id(r.cause).is_some(),
                "{}",
                r.cause
            );
            let area = r.symptom.strip_suffix(".*");
            assert!(
                area.map_or_else(
                    || super::super::catalogue::by_id(r.symptom).is_some(),
                    |a| super::super::Area::parse(a).is_some()
                ),
                "{}",
                r.symptom
            );
            assert!(!r.why.is_empty());
            assert!(
                !matches(r.symptom, r.cause) || r.symptom.ends_with(".*"),
                "{}",
                r.cause
            );
        }
        // No id reaches itself through the rules (a cause above its own cause).
        let ids: Vec<&str> = super::super::ALL.iter().map(|c| c.id).collect();
        for start in &ids {
            let mut seen = vec![*start];
            let mut frontier = vec![*start];
            while let Some(id) = frontier.pop() {
                for r in RULES.iter().filter(|r| r.cause == id) {
                    for next in ids.iter().filter(|n| matches(r.symptom, n) && **n != id) {
                        assert_ne!(next, start, "cycle through {start}");
                        if !seen.contains(next) {
                            seen.push(next);
                            frontier.push(next);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn bus_ids_compare_across_formats() {
        assert_eq!(bus_key("00000000:3B:00.0"), "3b:00");
        assert_eq!(bus_key("0000:3b:00"), "3b:00");
        assert_eq!(bus_key("garbage"), "garbage");
        assert_eq!(bus_key(""), "");
    }
}
