//! gpu.nvlink_down and gpu.fabric: each GPU's NVLink links against the links its product
//! has (the matrix's `nvlinks`), and on NVSwitch systems the GPU's fabric registration
//! and whether the NVIDIA Fabric Manager runs.
//!
//! Observation first: an inactive link fails only where the matrix says the product
//! always has that link wired (SXM parts); PCIe cards, whose NVLink bridge is optional,
//! and products whose link count is not recorded get at most an info. A GPU for which
//! NVML cannot tell the link state gets an info that says so, never a failure.
//!
//! `driver.fabric_manager` stays the finding for CUDA's error 802 (cuInit refused to
//! start); `gpu.fabric` is what NVML says per GPU, and Fabric Manager not running where
//! a GPU reports an NVSwitch fabric. When cuInit returned 802, the Fabric Manager part
//! is left to `driver.fabric_manager`, so the same cause is not reported twice.

use super::catalogue::{Action, Area, Check, PasteGap};
// The per-GPU scope, label and fact path every GPU check words its findings with.
use super::gpu::{label, path, scope};
use super::view;
use super::Ctx;
use crate::fact::Fact;
use crate::facts::nvlink::FM_UNIT;
use crate::finding::{Finding, Severity};

fn list(links: &[u32]) -> String {
    links
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

/// NVIDIA's own health checks (Health Validation, `nvlink_active`) tolerate no inactive
/// NVLink per GPU on H100/A100/GB200/GB300 and recommend draining the node, then a GPU
/// reset, an OS restart, and service if it persists: the action and fix follow that.
pub const GPU_NVLINK_DOWN: Check = Check {
    id: "gpu.nvlink_down",
    name: "gpu.nvlink",
    area: Area::Gpu,
    title: "every NVLink link the GPU has is active",
    failing: "an NVLink link inactive that the product always has wired (SXM: 18 on H100/H200/B200, 12 on A100, 6 on V100)",
    why: "A down NVLink cuts GPU-to-GPU bandwidth or partitions the NVSwitch fabric: NCCL jobs slow down, hang or fail.",
    next_step: "Drain the node, reset the GPU (or reboot), and have the link inspected if it stays down.",
    action: Action::Drain,
    reads: &["driver_api"],
    not_in_paste: Some(PasteGap {
        what: "the NVLink link states",
        how: "`nvidia-smi nvlink --status`",
    }),
    run: nvlink_down,
};

pub fn nvlink_down(ctx: &Ctx) -> Vec<Finding> {
    let id = &GPU_NVLINK_DOWN;
    let mut findings = Vec::new();
    let mut checked = 0usize;
    let mut with_links = 0usize;
    // No link active on any GPU and no NVSwitch fabric: SXM GPUs given to a virtual machine
    // without their NVLinks, or a baseboard whose NVLink side is down as a whole. Either
    // way not one GPU's fault: a warning, not a failure per GPU.
    let devices = view::nvml_devices(ctx.facts);
    let nothing_active = !devices.iter().any(|d| {
        d.nvlinks
            .value()
            .is_some_and(|l| l.iter().any(|x| x.active))
            || d.fabric.value().is_some_and(|f| f.state != "not_supported")
    });
    for d in devices.iter().filter(|d| !d.lost) {
        let name = d.name.value().map_or("", String::as_str);
        let expected = ctx.matrix.gpu_by_name(name).and_then(|g| g.nvlinks);
        let idx = d.index;
        let commands = vec![
            format!("nvidia-smi nvlink --status -i {idx}"),
            format!("nvidia-smi nvlink --errorcounters -i {idx}"),
            "nvidia-smi topo -m".to_string(),
        ];
        let links = match &d.nvlinks {
            Fact::Known { value } => value,
            // A saved report or paste without the fact: nothing to judge.
            Fact::Missing { .. } => continue,
            other => {
                if expected.is_some_and(|n| n > 0) {
                    findings.push(
                        id.finding(
                            Severity::Info,
                            format!("NVML cannot tell the NVLink state of {}", label(d)),
                        )
                        .scope(scope(d))
                        .details(format!(
                            "The product has {} NVLink links, but NVML did not report their \
                             state ({}); this check could not judge them.",
                            expected.unwrap_or(0),
                            other.reason().unwrap_or("unknown")
                        ))
                        .evidence(&path(d, "nvlinks"), other.reason().unwrap_or("unknown"))
                        .fix_owned("Ask the driver directly.", commands),
                    );
                }
                continue;
            }
        };
        checked += 1;
        if !links.is_empty() {
            with_links += 1;
        }
        let inactive: Vec<u32> = links.iter().filter(|l| !l.active).map(|l| l.link).collect();
        let active = links.len() - inactive.len();
        let states = format!(
            "{} of {} reported links active{}",
            active,
            links.len(),
            if inactive.is_empty() {
                String::new()
            } else {
                format!("; inactive: {}", list(&inactive))
            }
        );
        match expected {
            Some(n) if n > 0 => {
                let down: Vec<u32> = inactive.iter().copied().filter(|l| *l < n).collect();
                if !down.is_empty() && nothing_active {
                    findings.push(
                        id.finding(
                            Severity::Warn,
                            format!(
                                "{}: none of its {n} NVLink links is active, nor any other GPU's",
                                label(d)
                            ),
                        )
                        .scope(scope(d))
                        .details(
                            "No GPU here has an active NVLink and none reports an NVSwitch fabric.                              That is what a virtual machine given SXM GPUs without their NVLinks                              looks like; on bare metal it means the NVLink side of the baseboard is                              down as a whole (NVSwitches, Fabric Manager, or the board). Multi-GPU                              jobs fall back to PCIe or fail.",
                        )
                        .evidence(&path(d, "nvlinks"), &states)
                        .evidence("matrix.gpus.nvlinks", n)
                        .fix_owned(
                            "On bare metal: drain the node and reboot it; if the links stay down,                              have the baseboard inspected. In a VM: ask the provider for an instance                              with NVLink, or ignore this for single-GPU work.",
                            commands.clone(),
                        ),
                    );
                } else if !down.is_empty() {
                    findings.push(
                        id.finding(
                            Severity::Fail,
                            format!(
                                "{} has {} down: {}",
                                label(d),
                                plural(down.len(), "NVLink link", "NVLink links"),
                                list(&down)
                            ),
                        )
                        .scope(scope(d))
                        .details(format!(
                            "This product has {n} NVLink links wired on its board, and NVML reports \
                             {} of them inactive. GPU-to-GPU traffic over the missing links is lost: \
                             on NVSwitch (HGX/DGX) systems the GPU's bandwidth to every peer drops, \
                             and NCCL can hang or fail. A link that is down after a reboot is a \
                             hardware fault (the GPU, its baseboard or an NVSwitch).",
                            plural(down.len(), "link", "links"),
                        ))
                        .evidence(&path(d, "nvlinks"), &states)
                        .evidence("matrix.gpus.nvlinks", n)
                        .fix_owned(
                            "Drain the node, then reset the GPU (nvidia-smi -r, with no process on it) \
                             or reboot. If the link stays down, check the NVLink error counters and \
                             the kernel log for Xid 74, and have the board inspected.",
                            commands,
                        ),
                    );
                } else if links.len() < n as usize {
                    findings.push(
                        id.finding(
                            Severity::Info,
                            format!(
                                "NVML reports {} of the {n} NVLink links of {}",
                                links.len(),
                                label(d)
                            ),
                        )
                        .scope(scope(d))
                        .details(
                            "The links NVML does report are active; the others it does not report \
                             at all (a virtual machine given the GPU without its NVLinks, or a \
                             driver that hides them). This check could not judge the rest.",
                        )
                        .evidence(&path(d, "nvlinks"), &states)
                        .evidence("matrix.gpus.nvlinks", n)
                        .fix_owned("Ask the driver directly.", commands),
                    );
                }
            }
            _ if !inactive.is_empty() => {
                let why = if expected == Some(0) {
                    "This product reaches NVLink only through an optional bridge, so inactive links \
                     are normal without one; a link down behind an installed bridge means the bridge \
                     is loose or faulty."
                        .to_string()
                } else {
                    format!(
                        "gpu-doctor does not know how many NVLink links {name:?} has wired, so an \
                         inactive one is not judged a fault."
                    )
                };
                findings.push(
                    id.finding(
                        Severity::Info,
                        format!(
                            "{} has {} inactive: {}",
                            label(d),
                            plural(inactive.len(), "NVLink link", "NVLink links"),
                            list(&inactive)
                        ),
                    )
                    .scope(scope(d))
                    .details(why)
                    .evidence(&path(d, "nvlinks"), &states)
                    .fix_owned("If a bridge is installed, check its seating.", commands),
                );
            }
            _ => {}
        }
    }
    if findings.is_empty() && checked > 0 {
        let gpus = plural(checked, "GPU", "GPUs");
        let summary = if with_links == 0 {
            format!("No NVLink on these GPUs ({gpus})")
        } else {
            format!("NVLink links active ({gpus})")
        };
        return vec![id.finding(Severity::Pass, summary)];
    }
    findings
}

pub const GPU_FABRIC: Check = Check {
    id: "gpu.fabric",
    name: "gpu.fabric",
    area: Area::Gpu,
    title: "the NVSwitch fabric is ready and Fabric Manager runs",
    failing: "NVML reports a GPU's NVSwitch fabric registration not completed (or failed), or its fabric health degraded (bandwidth, routes; warn) or unhealthy (a route, the configuration), or `nvidia-fabricmanager` is not running where GPUs report a fabric",
    why: "On NVSwitch systems a GPU runs no CUDA work until Fabric Manager has registered it in the fabric.",
    next_step: "Start nvidia-fabricmanager (on the host), at the driver's exact version, and wait for the fabric to complete.",
    action: Action::Drain,
    reads: &["driver_api", "fabric_manager", "system"],
    not_in_paste: Some(PasteGap {
        what: "the GPU fabric state",
        how: "`nvidia-smi -q | grep -iA3 fabric`",
    }),
    run: fabric,
};

pub fn fabric(ctx: &Ctx) -> Vec<Finding> {
    let f = ctx.facts;
    let id = &GPU_FABRIC;
    let mut findings = Vec::new();
    let mut on_fabric = 0usize;
    let container = view::in_container(f);
    let version = f
        .kernel_module
        .version
        .value()
        .cloned()
        .unwrap_or_else(|| "the driver's".into());
    let fm_fix = |what: &str| -> (String, Vec<String>) {
        match container {
            Some(runtime) => (
                format!(
                    "{what} Fabric Manager runs on the host, not in this {runtime} container: on the \
                     host, install nvidia-fabricmanager of version {version} and start it."
                ),
                vec![
                    format!("(on the host) sudo systemctl enable --now {FM_UNIT}"),
                    format!("(on the host) systemctl status {FM_UNIT}"),
                ],
            ),
            None => (
                format!(
                    "{what} Install nvidia-fabricmanager of version {version} (the driver's exact \
                     version), start it, and check its log."
                ),
                vec![
                    format!("sudo systemctl enable --now {FM_UNIT}"),
                    format!("systemctl status {FM_UNIT}"),
                    "nvidia-smi -q | grep -iA3 fabric".to_string(),
                ],
            ),
        }
    };
    for d in view::nvml_devices(f).iter().filter(|d| !d.lost) {
        let Some(fab) = d.fabric.value() else {
            continue;
        };
        if fab.state == "not_supported" {
            continue;
        }
        on_fabric += 1;
        let evidence = format!(
            "state {}, status {} ({})",
            fab.state, fab.status, fab.status_code
        );
        let problem = match fab.state.as_str() {
            "completed" if fab.status_code == 0 => None,
            "completed" => Some(format!(
                "{}: its NVSwitch fabric registration failed ({})",
                label(d),
                fab.status
            )),
            "in_progress" => Some(format!(
                "{}: its NVSwitch fabric registration is still in progress",
                label(d)
            )),
            "not_started" => Some(format!(
                "{}: its NVSwitch fabric registration has not started",
                label(d)
            )),
            other => Some(format!(
                "{}: its NVSwitch fabric is in an unknown state ({other})",
                label(d)
            )),
        };
        let Some(summary) = problem else {
            // Registered: what NVML says of the fabric's health (R550+).
            if let Some(finding) = fabric_health(d, fab) {
                findings.push(finding);
            }
            continue;
        };
        let (text, commands) = fm_fix(
            "Until Fabric Manager has registered the GPU in the fabric, CUDA on it fails \
             (error 802, 'system not yet initialized'); right after boot this can take a minute.",
        );
        findings.push(
            id.finding(Severity::Fail, summary)
                .scope(scope(d))
                .details(format!(
                    "NVML reports the GPU's fabric state as {} (status {}). On NVSwitch systems \
                     (HGX/DGX boards) Fabric Manager sets up the NVSwitches and registers every GPU; \
                     a GPU whose registration is not completed cannot run CUDA work or reach its peers.",
                    fab.state, fab.status
                ))
                .evidence(&path(d, "fabric"), evidence)
                .evidence("fabric_manager", fm_state(f))
                .fix_owned(text, commands),
        );
    }
    if on_fabric > 0 {
        let refused_802 =
            super::driver::cuinit_code(f) == Some(super::driver::cu_code::SYSTEM_NOT_READY);
        if let Some(fm) = f.fabric_manager.value() {
            if !fm.running && !refused_802 {
                let (text, commands) = fm_fix("GPUs here report an NVSwitch fabric.");
                findings.push(
                    id.finding(
                        Severity::Fail,
                        format!("{FM_UNIT} is not running on this NVSwitch system"),
                    )
                    .action(Action::FixSoftware)
                    .details(
                        "GPUs here report an NVSwitch fabric, which only NVIDIA Fabric Manager sets \
                         up. Without it, new CUDA contexts fail (error 802) once the fabric is torn \
                         down, and GPUs do not rejoin the fabric after a reset.",
                    )
                    .evidence("fabric_manager", &fm.how)
                    .fix_owned(text, commands),
                );
            }
        } else if container.is_none() && !fm_gathered_missing_is_old_report(f) {
            findings.push(
                id.finding(
                    Severity::Info,
                    format!("Cannot tell whether {FM_UNIT} runs on this NVSwitch system"),
                )
                .details(format!(
                    "GPUs here report an NVSwitch fabric, but {}",
                    f.fabric_manager
                        .reason()
                        .unwrap_or("the service state is unknown")
                ))
                .evidence("fabric_manager", fm_state(f))
                .fix(
                    "Check the service yourself.",
                    &["systemctl status nvidia-fabricmanager"],
                ),
            );
        }
    }
    if findings.is_empty() && on_fabric > 0 {
        return vec![id.finding(
            Severity::Pass,
            format!(
                "NVSwitch fabric completed ({})",
                plural(on_fabric, "GPU", "GPUs")
            ),
        )];
    }
    findings
}

/// A registered GPU whose fabric health mask reports a problem: degraded bandwidth or a
/// recovery under way warns (jobs run, slower); an unhealthy route or an incorrect
/// configuration fails.
fn fabric_health(
    d: &crate::facts::driver_api::NvmlDevice,
    fab: &crate::facts::nvlink::GpuFabric,
) -> Option<Finding> {
    let mask = fab.health_mask?;
    let (problems, severe) = crate::facts::nvlink::fabric_health_problems(mask);
    if problems.is_empty() {
        return None;
    }
    let severity = if severe {
        Severity::Fail
    } else {
        Severity::Warn
    };
    Some(
        GPU_FABRIC
            .finding(
                severity,
                format!("{}: {}", label(d), problems.join("; ")),
            )
            .scope(scope(d))
            .action(if severe {
                Action::Drain
            } else {
                Action::InspectHardware
            })
            .details(format!(
                "The GPU is registered in the NVSwitch fabric, but NVML's fabric health mask \
                 (0x{mask:x}) reports: {}. Collectives over NVLink run slower or stall while the \
                 fabric is degraded; an unhealthy route or a wrong configuration can fail them.",
                problems.join("; ")
            ))
            .evidence(&path(d, "fabric.health_mask"), format!("0x{mask:x}"))
            .fix(
                "Read the fabric state and Fabric Manager's log; if it persists, drain the node and \
                 have the NVSwitch trays and NVLink cabling inspected.",
                &[
                    "nvidia-smi -q | grep -iA8 fabric",
                    "journalctl -u nvidia-fabricmanager --since -1h",
                ],
            ),
    )
}

fn fm_state(f: &crate::facts::Facts) -> String {
    match &f.fabric_manager {
        Fact::Known { value } => value.how.clone(),
        other => other.reason().unwrap_or("unknown").to_string(),
    }
}

/// A report that predates the Fabric Manager fact (or a run that did not gather it).
fn fm_gathered_missing_is_old_report(f: &crate::facts::Facts) -> bool {
    crate::facts::nvlink::fm_is_not_gathered(&f.fabric_manager)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::testutil::*;
    use crate::facts::driver_api::NvmlDevice;
    use crate::facts::nvlink::{FabricManager, GpuFabric, NvLink};
    use crate::facts::Facts;
    use crate::finding::Scope;

    fn with_gpu(name: &str, f: impl FnOnce(&mut NvmlDevice)) -> Facts {
        let mut facts = healthy();
        if let Fact::Known { value: nvml } = &mut facts.driver_api.nvml {
            if let Fact::Known { value: devices } = &mut nvml.devices {
                devices[0].name = Fact::known(name.into());
                f(&mut devices[0]);
            }
        }
        facts
    }

    fn links(n: u32, down: &[u32]) -> Fact<Vec<NvLink>> {
        Fact::known(
            (0..n)
                .map(|link| NvLink {
                    link,
                    active: !down.contains(&link),
                    version: Some(4),
                    remote_pci_bus_id: None,
                })
                .collect(),
        )
    }

    fn fab(state: &str, status: u32) -> Fact<GpuFabric> {
        Fact::known(GpuFabric {
            state: state.into(),
            status: if status == 0 {
                "NVML_SUCCESS"
            } else {
                "NVML_ERROR_UNKNOWN"
            }
            .into(),
            status_code: status,
            clique_id: 0,
            cluster_uuid: "00".repeat(16),
            health_mask: None,
        })
    }

    fn sev(findings: &[Finding]) -> Vec<(Severity, String)> {
        findings
            .iter()
            .map(|f| (f.severity, f.summary.clone()))
            .collect()
    }

    #[test]
    fn nvlink_table() {
        let h100 = "NVIDIA H100 80GB HBM3";
        let pcie = "NVIDIA H100 PCIe";
        let rtx = "NVIDIA GeForce RTX 3090";
        type Case<'a> = (&'a str, Fact<Vec<NvLink>>, Option<Severity>, &'a str);
        let cases: Vec<Case> = vec![
            (h100, links(18, &[]), Some(Severity::Pass), "active"),
            (h100, links(18, &[7]), Some(Severity::Fail), "down: 7"),
            (
                h100,
                links(18, &[7, 11]),
                Some(Severity::Fail),
                "down: 7, 11",
            ),
            (h100, links(12, &[]), Some(Severity::Info), "12 of the 18"),
            (
                h100,
                Fact::unsupported("old driver"),
                Some(Severity::Info),
                "cannot tell",
            ),
            (h100, Fact::missing("not in this report"), None, ""),
            (pcie, links(0, &[]), Some(Severity::Pass), "No NVLink"),
            (
                pcie,
                links(12, &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]),
                Some(Severity::Info),
                "inactive",
            ),
            (pcie, Fact::unsupported("no"), None, ""),
            (rtx, links(4, &[3]), Some(Severity::Info), "does not know"),
        ];
        for (name, nv, want, text) in cases {
            let facts = with_gpu(name, |d| d.nvlinks = nv.clone());
            let got = run(nvlink_down, &facts);
            match want {
                None => assert!(got.is_empty(), "{name} {nv:?}: {:?}", sev(&got)),
                Some(s) => {
                    assert_eq!(got.len(), 1, "{name} {nv:?}: {:?}", sev(&got));
                    assert_eq!(got[0].severity, s, "{name} {nv:?}: {:?}", sev(&got));
                    let all = format!("{} {}", got[0].summary, got[0].details);
                    assert!(all.contains(text), "{name} {nv:?}: {all}");
                }
            }
        }
    }

    #[test]
    fn a_down_link_names_its_gpu_and_action() {
        let facts = with_gpu("NVIDIA H100 80GB HBM3", |d| d.nvlinks = links(18, &[7]));
        let got = run(nvlink_down, &facts);
        let f = &got[0];
        assert_eq!(f.id, "gpu.nvlink_down");
        assert!(matches!(f.scope, Scope::Gpu { index: Some(0), .. }));
        assert_eq!(GPU_NVLINK_DOWN.action, Action::Drain);
        assert!(f
            .fix
            .as_ref()
            .unwrap()
            .commands
            .iter()
            .any(|c| c.contains("nvlink --status -i 0")));
    }

    #[test]
    fn fabric_table() {
        let fm = |running: bool| {
            Fact::known(FabricManager {
                running,
                how: format!(
                    "systemctl is-active nvidia-fabricmanager: {}",
                    if running { "active" } else { "inactive" }
                ),
            })
        };
        let cases: Vec<(Fact<GpuFabric>, Fact<FabricManager>, Vec<Severity>)> = vec![
            (fab("completed", 0), fm(true), vec![Severity::Pass]),
            (fab("in_progress", 0), fm(true), vec![Severity::Fail]),
            (
                fab("not_started", 0),
                fm(false),
                vec![Severity::Fail, Severity::Fail],
            ),
            (fab("completed", 999), fm(true), vec![Severity::Fail]),
            (fab("completed", 0), fm(false), vec![Severity::Fail]),
            (
                fab("completed", 0),
                Fact::missing("no systemctl on PATH"),
                vec![Severity::Info],
            ),
            (fab("not_supported", 0), fm(false), vec![]),
            (Fact::unsupported("no NVSwitch"), fm(false), vec![]),
        ];
        for (fb, fmf, want) in cases {
            let mut facts = with_gpu("NVIDIA H100 80GB HBM3", |d| d.fabric = fb.clone());
            facts.fabric_manager = fmf.clone();
            let got = run(fabric, &facts);
            let sevs: Vec<Severity> = got.iter().map(|f| f.severity).collect();
            assert_eq!(sevs, want, "{fb:?} {fmf:?}: {:?}", sev(&got));
        }
    }

    #[test]
    fn fabric_manager_down_is_fix_software_and_host_side_in_a_container() {
        let mut facts = with_gpu("NVIDIA H100 80GB HBM3", |d| d.fabric = fab("completed", 0));
        facts.fabric_manager = Fact::known(FabricManager {
            running: false,
            how: "pid file gone".into(),
        });
        facts.system.container = Fact::known(Some("docker".into()));
        let got = run(fabric, &facts);
        assert_eq!(got.len(), 1, "{:?}", sev(&got));
        assert_eq!(got[0].action, Some(Action::FixSoftware));
        let fix = got[0].fix.as_ref().unwrap();
        assert!(fix.text.contains("on the host"), "{}", fix.text);
        assert!(fix.commands.iter().all(|c| c.starts_with("(on the host)")));
    }

    #[test]
    fn cuinit_802_leaves_the_fabric_manager_to_driver_fabric_manager() {
        let mut facts = with_gpu("NVIDIA H100 80GB HBM3", |d| {
            d.fabric = fab("not_started", 0)
        });
        facts.fabric_manager = Fact::known(FabricManager {
            running: false,
            how: "inactive".into(),
        });
        if let Fact::Known { value: cuda } = &mut facts.driver_api.cuda {
            cuda.init = code("CUDA_ERROR_SYSTEM_NOT_READY", 802);
        }
        let got = run(fabric, &facts);
        // Only the per-GPU fabric finding; the service is driver.fabric_manager's.
        assert_eq!(got.len(), 1, "{:?}", sev(&got));
        assert!(got[0].summary.contains("not started"));
    }
}
