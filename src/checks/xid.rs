//! `gpu.xid`: Xid and SXid events from the kernel log, judged with NVIDIA's Xid catalogue
//! (`compat-matrix/xid.toml`): one finding per GPU, the worst code deciding its severity
//! and action. An Xid that records an application's own fault (31, 13, 43) is info: the
//! GPU is not failed for it.
//!
//! `explain` decodes pasted Xids from the same catalogue (`src/explain/rules.rs`,
//! `xid_causes`), so a code means the same thing in a report and in an explained paste.

use std::collections::BTreeMap;

use super::catalogue::{Action, Area, Check};
use super::{view, Ctx};
use crate::fact::Fact;
use crate::facts::kernel_log::{pci_key, KernelLogFacts, SxidEvent, XidEvent};
use crate::finding::{Finding, Scope, Severity};
use crate::matrix::schema::XidEntry;

pub const GPU_XID: Check = Check {
    id: "gpu.xid",
    name: "gpu.kernel_log_xid",
    area: Area::Gpu,
    title: "no Xid or SXid error in the kernel log of this boot",
    failing: "an Xid in the kernel log this boot (or `--since`), per GPU, judged with NVIDIA's Xid catalogue: fail for fallen off the bus (79), row-remap failure (64), NVLink (74), GSP (119/120), uncontained ECC (95), DBE (48); warn for a pending row remap (63) or a contained ECC error (94); info for an application's own fault (MMU fault 31, 13, 43); a fatal NVSwitch SXid fails; info when the kernel log is not readable",
    why: "The driver logs GPU faults as Xid lines: the GPU may need a reset, a reboot or replacing even while NVML still answers.",
    next_step: "Act on the code's catalogue entry (the finding names it): reset the GPU, reboot, or drain the node and inspect the hardware.",
    action: Action::Drain,
    reads: &["kernel_log", "nvml", "pci_gpus"],
    not_in_paste: None,
    run: xid,
};

const ID: &str = GPU_XID.id;
const CATALOGUE_URL: &str = "https://docs.nvidia.com/deploy/xid-errors/analyzing-xid-catalog.html";

/// How one Xid code is judged.
struct Verdict<'a> {
    severity: Severity,
    action: &'a str,
    application: bool,
    meaning: &'a str,
    todo: &'a str,
}

fn verdict<'a>(entry: Option<&'a XidEntry>) -> Verdict<'a> {
    match entry {
        Some(e) => Verdict {
            severity: match e.severity.as_str() {
                "fail" => Severity::Fail,
                "info" => Severity::Info,
                _ => Severity::Warn,
            },
            action: &e.action,
            application: e.fault == "application",
            meaning: &e.meaning,
            todo: &e.todo,
        },
        None => Verdict {
            severity: Severity::Warn,
            action: "inspect_hardware",
            application: false,
            meaning: "not in gpu-doctor's Xid catalogue",
            todo: "Look the code up in NVIDIA's Xid catalogue (docs.nvidia.com/deploy/xid-errors) and act on its resolution bucket.",
        },
    }
}

/// How bad an action is, to pick the one a GPU's finding names.
fn action_rank(action: &str) -> u8 {
    match action {
        "reboot" => 6,
        "drain" => 5,
        "inspect_hardware" => 4,
        "reset_gpu" => 3,
        "restart_app" => 2,
        "fix_software" => 1,
        _ => 0,
    }
}

/// Xid 154 names its own recovery action in the line.
fn action_of_154(line: &str) -> Option<&'static str> {
    let l = line.to_ascii_lowercase();
    if l.contains("reboot") {
        Some("reboot")
    } else if l.contains("drain") {
        Some("drain")
    } else if l.contains("reset") {
        Some("reset_gpu")
    } else {
        None
    }
}

pub fn xid(ctx: &Ctx) -> Vec<Finding> {
    let log = match &ctx.facts.kernel_log {
        Fact::Known { value } => value,
        // Facts from elsewhere (an older report, a pasted collect_env): nothing to say.
        Fact::Unsupported { .. } => return Vec::new(),
        other => return vec![unreadable(other.reason().unwrap_or("unknown"))],
    };
    let mut findings = Vec::new();
    // GPU address -> (index, NVML bus id) for the scope.
    let mut gpus: BTreeMap<String, (Option<u32>, String)> = BTreeMap::new();
    if let Some(pci) = ctx.facts.pci_gpus.value() {
        for g in pci {
            if let Some(k) = pci_key(&g.bus_id) {
                gpus.insert(k, (None, g.bus_id.clone()));
            }
        }
    }
    for d in view::nvml_devices(ctx.facts) {
        if let Some(bus) = d.pci_bus_id.value() {
            if let Some(k) = pci_key(bus) {
                gpus.insert(k, (Some(d.index), bus.clone()));
            }
        }
    }
    // Events grouped per GPU address (None: a line without one).
    let mut per_gpu: BTreeMap<Option<String>, Vec<&XidEvent>> = BTreeMap::new();
    for e in &log.xids {
        per_gpu.entry(e.pci.clone()).or_default().push(e);
    }
    for (addr, events) in &per_gpu {
        findings.push(gpu_finding(ctx, log, addr.as_deref(), events, &gpus));
    }
    let mut per_switch: BTreeMap<Option<String>, Vec<&SxidEvent>> = BTreeMap::new();
    for e in &log.sxids {
        per_switch.entry(e.pci.clone()).or_default().push(e);
    }
    for (addr, events) in &per_switch {
        findings.push(switch_finding(log, addr.as_deref(), events));
    }
    if findings.is_empty() {
        findings.push(
            Finding::new(
                ID,
                Severity::Pass,
                format!(
                    "no Xid or SXid in the kernel log ({}, {})",
                    log.source, log.window
                ),
            )
            .details(truncation_note(log))
            .evidence("kernel_log.source", &log.source)
            .evidence("kernel_log.lines", log.lines),
        );
    }
    if log.events_dropped > 0 {
        findings.push(
            Finding::new(
                ID,
                Severity::Warn,
                format!(
                    "{} more kinds of Xid/SXid in the kernel log than gpu-doctor keeps ({})",
                    log.events_dropped,
                    crate::facts::kernel_log::MAX_EVENTS
                ),
            )
            .details("The kernel log holds a flood of distinct GPU errors; only the first were judged. Read the rest with `journalctl -k -b | grep -E 'S?Xid'`.")
            .fix("Read the kernel log in full.", &["journalctl -k -b | grep -E 'S?Xid'"]),
        );
    }
    findings
}

/// Says when the read stopped at its limit, so a pass is not read as "the whole log".
fn truncation_note(log: &KernelLogFacts) -> String {
    let mut note = format!(
        "{} lines read from {} ({}).",
        log.lines, log.source, log.window
    );
    if log.truncated {
        note.push_str(
            " The read stopped at its size or time limit: lines past it were not looked at.",
        );
    }
    if !log.unreadable.is_empty() {
        note.push_str(&format!(
            " Not readable first: {}.",
            log.unreadable.join("; ")
        ));
    }
    note
}

fn unreadable(why: &str) -> Finding {
    Finding::new(
        ID,
        Severity::Info,
        "the kernel log could not be read: Xid errors were not checked",
    )
    .details(format!(
        "gpu-doctor reads Xid and SXid lines from /dev/kmsg, else `journalctl -k -b`, else \
         `dmesg`; none was readable by this user ({why}). GPU faults logged this boot (fallen \
         off the bus, ECC, NVLink, GSP) are therefore not part of this verdict."
    ))
    .evidence("kernel_log", why)
    .fix(
        "Run gpu-doctor as root, or let this user read the kernel log: add it to the \
         systemd-journal (or adm) group, or allow dmesg for everyone.",
        &[
            "sudo usermod -aG systemd-journal \"$USER\"",
            "sudo sysctl kernel.dmesg_restrict=0",
        ],
    )
}

fn gpu_finding(
    ctx: &Ctx,
    log: &KernelLogFacts,
    addr: Option<&str>,
    events: &[&XidEvent],
    gpus: &BTreeMap<String, (Option<u32>, String)>,
) -> Finding {
    let known = addr.and_then(|a| gpus.get(a));
    let scope = Scope::Gpu {
        index: known.and_then(|(i, _)| *i),
        pci_bus_id: known
            .map(|(_, b)| b.clone())
            .or_else(|| addr.map(ToString::to_string)),
    };
    let mut worst = Severity::Info;
    let mut action = "none";
    let mut lines = Vec::new();
    let mut codes = Vec::new();
    let mut all_application = true;
    for e in events {
        let entry = ctx.matrix.xid.xid.iter().find(|x| x.code == e.code);
        let v = verdict(entry);
        let this_action = if e.code == 154 {
            action_of_154(&e.last_line).unwrap_or(v.action)
        } else {
            v.action
        };
        worst = worst.max(v.severity);
        if action_rank(this_action) > action_rank(action) {
            action = this_action;
        }
        all_application &= v.application;
        let whose = if v.application {
            " (the application's fault, not the GPU's)"
        } else {
            ""
        };
        codes.push(format!(
            "Xid {}{}",
            e.code,
            if e.count > 1 {
                format!(" ×{}", e.count)
            } else {
                String::new()
            }
        ));
        lines.push(format!(
            "Xid {} ×{}{whose}: {} {} Last line: {}",
            e.code, e.count, v.meaning, v.todo, e.last_line
        ));
    }
    let who = match (&scope, addr) {
        (Scope::Gpu { index: Some(i), .. }, Some(a)) => format!("GPU {i} ({a})"),
        (_, Some(a)) => format!("GPU at {a}"),
        _ => "a GPU (no address in the line)".to_string(),
    };
    let summary = if all_application {
        format!(
            "{who}: {} in the kernel log: the application's fault, not the GPU's",
            codes.join(", ")
        )
    } else {
        format!(
            "{who}: {} in the kernel log; action: {action}",
            codes.join(", ")
        )
    };
    let mut f = Finding::new(ID, worst, summary)
        .scope(scope)
        .details(format!(
            "{}\n{}\nCatalogue: {CATALOGUE_URL}",
            truncation_note(log),
            lines.join("\n")
        ))
        .evidence("action", action)
        .evidence("kernel_log.source", &log.source);
    if let Some(a) = crate::finding::Action::parse(action) {
        f = f.action(a);
    }
    for e in events {
        f = f.evidence(&format!("kernel_log.xids[{}]", e.code), &e.last_line);
    }
    let todo: Vec<&str> = events
        .iter()
        .map(|e| verdict(ctx.matrix.xid.xid.iter().find(|x| x.code == e.code)).todo)
        .collect();
    let mut todo_text = String::new();
    for t in todo {
        if !todo_text.contains(t) {
            if !todo_text.is_empty() {
                todo_text.push(' ');
            }
            todo_text.push_str(t);
        }
    }
    if worst >= Severity::Warn || !all_application {
        f = f.fix(todo_text, &[]);
    }
    f
}

fn switch_finding(log: &KernelLogFacts, addr: Option<&str>, events: &[&SxidEvent]) -> Finding {
    let fatal = events.iter().any(|e| e.fatal);
    let codes: Vec<String> = events
        .iter()
        .map(|e| {
            format!(
                "SXid {} ({}{})",
                e.code,
                if e.fatal { "fatal" } else { "non-fatal" },
                if e.count > 1 {
                    format!(" ×{}", e.count)
                } else {
                    String::new()
                }
            )
        })
        .collect();
    let who = addr.map_or_else(|| "an NVSwitch".to_string(), |a| format!("NVSwitch {a}"));
    let (severity, action) = if fatal {
        (Severity::Fail, "reboot")
    } else {
        (Severity::Info, "none")
    };
    let mut f = Finding::new(
        ID,
        severity,
        format!(
            "{who}: {} in the kernel log; action: {action}",
            codes.join(", ")
        ),
    )
    .action(if fatal {
        crate::finding::Action::Reboot
    } else {
        crate::finding::Action::None
    })
    .details(format!(
        "From {} ({}). SXids are NVSwitch errors. A fatal SXid leaves the NVLink fabric unusable \
         until the GPUs and NVSwitches are reset (in practice: drain and reboot the node); \
         non-fatal ones are corrected and only worth watching. Lines: {}",
        log.source,
        log.window,
        events
            .iter()
            .map(|e| e.first_line.as_str())
            .collect::<Vec<_>>()
            .join(" | ")
    ))
    .evidence("action", action);
    if fatal {
        f = f.fix(
            "Drain the node and reboot it so the NVSwitches and GPUs are reset; if the same link repeats, have the baseboard inspected.",
            &[],
        );
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::testutil::*;
    use crate::checks::CheckOptions;

    fn event(code: u32, pci: &str) -> XidEvent {
        XidEvent {
            code,
            pci: pci_key(pci),
            count: 1,
            first_line: format!("NVRM: Xid (PCI:{pci}): {code}, pid=1"),
            last_line: format!("NVRM: Xid (PCI:{pci}): {code}, pid=1"),
        }
    }

    fn run(log: Fact<KernelLogFacts>) -> Vec<Finding> {
        let mut facts = healthy();
        facts.kernel_log = log;
        let opts = CheckOptions::default();
        xid(&Ctx {
            facts: &facts,
            opts: &opts,
            matrix: matrix(),
        })
    }

    fn log(xids: Vec<XidEvent>, sxids: Vec<SxidEvent>) -> Fact<KernelLogFacts> {
        Fact::known(KernelLogFacts {
            source: "/dev/kmsg".into(),
            window: "since boot".into(),
            lines: 10,
            truncated: false,
            xids,
            sxids,
            events_dropped: 0,
            unreadable: Vec::new(),
        })
    }

    fn first_gpu_bus() -> String {
        let facts = healthy();
        view::nvml_devices(&facts)[0]
            .pci_bus_id
            .value()
            .cloned()
            .expect("healthy has a bus id")
    }

    #[test]
    fn each_xid_of_the_issue_with_its_severity_and_action() {
        let bus = first_gpu_bus();
        for (code, severity, action) in [
            (79, Severity::Fail, "reboot"),
            (63, Severity::Warn, "reset_gpu"),
            (64, Severity::Fail, "reset_gpu"),
            (74, Severity::Fail, "reset_gpu"),
            (119, Severity::Fail, "reset_gpu"),
            (120, Severity::Fail, "reset_gpu"),
            (94, Severity::Warn, "restart_app"),
            (95, Severity::Fail, "reset_gpu"),
            (31, Severity::Info, "restart_app"),
            (9999, Severity::Warn, "inspect_hardware"),
        ] {
            let f = run(log(vec![event(code, &bus)], vec![]));
            assert_eq!(f.len(), 1, "{code}: {f:#?}");
            assert_eq!(f[0].severity, severity, "Xid {code}");
            assert_eq!(
                f[0].evidence
                    .iter()
                    .find(|e| e.fact == "action")
                    .map(|e| e.value.as_str()),
                Some(action),
                "Xid {code}"
            );
            assert!(
                matches!(f[0].scope, Scope::Gpu { index: Some(0), .. }),
                "{code}"
            );
        }
        let mmu = run(log(vec![event(31, &bus)], vec![]));
        assert!(
            mmu[0].summary.contains("application's fault"),
            "{}",
            mmu[0].summary
        );
    }

    #[test]
    fn worst_code_decides_and_unknown_addresses_keep_theirs() {
        let bus = first_gpu_bus();
        let f = run(log(
            vec![event(31, &bus), event(79, &bus), event(48, "0000:ee:00")],
            vec![],
        ));
        assert_eq!(f.len(), 2);
        assert_eq!(f[0].severity, Severity::Fail);
        assert!(f[0].summary.contains("Xid 31, Xid 79"), "{}", f[0].summary);
        assert!(f[0].summary.contains("action: reboot"));
        assert!(
            matches!(&f[1].scope, Scope::Gpu { index: None, pci_bus_id: Some(b) } if b == "0000:ee:00")
        );
    }

    #[test]
    fn sxid_unreadable_clean_and_older_reports() {
        let fatal = SxidEvent {
            code: 24007,
            pci: Some("0000:05:00".into()),
            fatal: true,
            count: 2,
            first_line: "nvidia-nvswitch0: SXid (PCI:0000:05:00.0): 24007, Fatal, Link 04".into(),
        };
        let f = run(log(vec![], vec![fatal]));
        assert_eq!(f[0].severity, Severity::Fail);
        assert!(f[0]
            .summary
            .starts_with("NVSwitch 0000:05:00: SXid 24007 (fatal ×2)"));
        let f = run(Fact::missing("/dev/kmsg: Operation not permitted"));
        assert_eq!(f[0].severity, Severity::Info);
        assert!(f[0].summary.contains("could not be read"));
        let f = run(log(vec![], vec![]));
        assert_eq!(f[0].severity, Severity::Pass);
        assert!(run(crate::facts::kernel_log::not_gathered()).is_empty());
    }

    #[test]
    fn xid_154_names_its_own_action() {
        let bus = first_gpu_bus();
        let mut e = event(154, &bus);
        e.last_line = "NVRM: Xid (PCI:0000:18:00): 154, GPU recovery action changed from 0x0 (None) to 0x2 (Node Reboot Required)".into();
        let f = run(log(vec![e], vec![]));
        assert!(f[0].summary.ends_with("action: reboot"), "{}", f[0].summary);
    }
}
