//! The UI state. Everything the screen shows is derived from this and the report; the
//! only thing that changes it is `update`.

use crate::checks::Area;
use std::collections::BTreeSet;
use std::path::PathBuf;

use super::msg::ProbeState;
use super::widgets::gpu_table::bus_key;
use crate::finding::{Finding, Scope, Severity};
use crate::report::Report;

/// The panes, in Tab order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    Findings,
    Detail,
    Gpus,
    Environment,
    ProbeLog,
}

impl Pane {
    pub const ALL: [Pane; 5] = [
        Pane::Findings,
        Pane::Detail,
        Pane::Gpus,
        Pane::Environment,
        Pane::ProbeLog,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Pane::Findings => "Findings",
            Pane::Detail => "Detail",
            Pane::Gpus => "GPUs",
            Pane::Environment => "Environment",
            Pane::ProbeLog => "Probe log",
        }
    }

    /// The three panes of the overview screen; the others fill the body alone.
    pub fn on_overview(self) -> bool {
        matches!(self, Pane::Findings | Pane::Detail | Pane::Gpus)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overlay {
    Help,
    Picker,
}

/// The stages of a run, shown while it is under way: the gathering steps, then judging.
pub const STAGE_COUNT: usize = crate::facts::STEPS.len() + 1;

pub fn stage_names() -> impl Iterator<Item = &'static str> {
    crate::facts::STEPS
        .iter()
        .copied()
        .chain(std::iter::once("checks"))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StageState {
    Waiting,
    Running,
    Done,
}

/// Where the current run is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Load {
    /// Run `generation` is under way; `started` is the tick it began at.
    Gathering {
        generation: u64,
        started: u64,
        stages: Vec<StageState>,
    },
    Ready,
    Failed(String),
}

/// The probes a person can pick, in the order a worker runs them.
pub const PROBES: [&str; 7] = [
    "launch",
    "grid_limit",
    "ordinal",
    "cublaslt",
    "graph",
    "bandwidth",
    "oom",
];

/// The probes between GPUs, picked like the others: they run after the per-GPU probes,
/// on the picked GPUs together, and only with two GPUs or more, as on the command line.
pub const BETWEEN_PROBES: [&str; 2] = ["p2p", "nccl"];

pub use super::msg::ProbePlan; // moved: src/tui/msg.rs

/// The GPU whose findings the list shows after a drill-down from the GPU table: by NVML
/// index (a GPU the driver does not enumerate, by PCI bus id), never by text, so GPU 1
/// is not GPU 10. Separate from the typed filter; both narrow the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GpuScope {
    pub index: Option<u32>,
    pub pci_bus_id: Option<String>,
}

impl GpuScope {
    /// Whether a finding is about this GPU.
    pub fn matches(&self, scope: &Scope) -> bool {
        let Scope::Gpu { index, pci_bus_id } = scope else {
            return false;
        };
        match (self.index, index) {
            (Some(a), Some(b)) => a == *b,
            _ => match (&self.pci_bus_id, pci_bus_id) {
                (Some(a), Some(b)) => bus_key(a) == bus_key(b),
                _ => false,
            },
        }
    }

    /// "GPU 1", or "GPU 0000:18:00.0" for one the driver does not enumerate.
    pub fn label(&self) -> String {
        Scope::Gpu {
            index: self.index,
            pci_bus_id: self.pci_bus_id.clone(),
        }
        .to_string()
    }
}

/// One line of the findings list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Row {
    /// An area heading: its title and the worst severity in it.
    Area {
        title: &'static str,
        worst: Severity,
    },
    /// A finding, by index into `report.findings`.
    Finding(usize),
    /// A finding that explains others (their `caused_by` names it): `symptoms` of them
    /// are shown, folded under it unless `expanded`.
    Cause {
        index: usize,
        symptoms: usize,
        expanded: bool,
    },
    /// A finding its cause explains, indented under the cause (the row `cause` points to
    /// is the cause's, by finding index).
    Symptom { index: usize, cause: usize },
}

impl Row {
    /// The finding on this row, if it is not a heading.
    pub fn finding(&self) -> Option<usize> {
        match self {
            Row::Area { .. } => None,
            Row::Finding(i) | Row::Cause { index: i, .. } | Row::Symptom { index: i, .. } => {
                Some(*i)
            }
        }
    }
}

/// How a cause is remembered as unfolded across re-runs and filters: its id and scope.
pub fn cause_key(f: &Finding) -> String {
    format!("{}@{}", f.id, f.scope)
}

#[derive(Debug, Clone)]
pub struct App {
    pub report: Option<Report>,
    pub load: Load,
    /// The last run's wall time (volatile: shown only in the probe log).
    pub elapsed_ms: Option<u128>,
    pub generation: u64,
    pub tick: u64,
    /// The terminal's size, for layout-aware scrolling and mouse hits.
    pub size: (u16, u16),
    pub focus: Pane,
    pub overlay: Option<Overlay>,
    pub filter: String,
    /// The GPU a drill-down from the GPU table narrowed the list to.
    pub gpu_scope: Option<GpuScope>,
    /// True while `/` is taking typed text.
    pub filter_editing: bool,
    pub rows: Vec<Row>,
    /// The causes unfolded to show their symptoms, by [`cause_key`].
    pub expanded: BTreeSet<String>,
    /// Index into `rows`; always a finding's row when there is one.
    pub selected: usize,
    pub list_offset: usize,
    pub gpu_selected: usize,
    pub gpu_offset: usize,
    pub detail_scroll: u16,
    pub env_scroll: u16,
    pub log_scroll: u16,
    pub plan: ProbePlan,
    /// The plan the latest re-run was started with (`None` for the first run, which uses
    /// the defaults).
    pub ran_plan: Option<ProbePlan>,
    pub picker_cursor: usize,
    /// Live probe states by (GPU index, probe name), from a probe runner.
    pub probes: Vec<(u32, String, ProbeState)>,
    pub status: Option<String>,
    /// Fix commands `y` asked to print after the terminal is restored.
    pub print_on_exit: Vec<String>,
    pub save_path: PathBuf,
    pub color: bool,
    pub clipboard: bool,
    pub quit: bool,
}

impl App {
    pub fn new(save_path: PathBuf, color: bool, clipboard: bool) -> App {
        App {
            report: None,
            load: Load::Gathering {
                generation: 0,
                started: 0,
                stages: vec![StageState::Waiting; STAGE_COUNT],
            },
            elapsed_ms: None,
            generation: 0,
            tick: 0,
            size: (80, 24),
            focus: Pane::Findings,
            overlay: None,
            filter: String::new(),
            gpu_scope: None,
            filter_editing: false,
            rows: Vec::new(),
            expanded: BTreeSet::new(),
            selected: 0,
            list_offset: 0,
            gpu_selected: 0,
            gpu_offset: 0,
            detail_scroll: 0,
            env_scroll: 0,
            log_scroll: 0,
            plan: ProbePlan::default(),
            ran_plan: None,
            picker_cursor: 0,
            probes: Vec::new(),
            status: None,
            print_on_exit: Vec::new(),
            save_path,
            color,
            clipboard,
            quit: false,
        }
    }

    /// An app showing a finished report (snapshot tests, `--from`).
    pub fn with_report(report: Report, size: (u16, u16), color: bool) -> App {
        let mut app = App::new(PathBuf::from("gpu-doctor-report.json"), color, true);
        app.size = size;
        app.set_report(report);
        app
    }

    pub fn set_report(&mut self, report: Report) {
        // Strings in a report come from files, libraries and (fleet) remote hosts.
        self.report = Some(report.for_terminal());
        self.load = Load::Ready;
        self.refilter();
    }

    /// The finding under the cursor.
    pub fn selected_finding(&self) -> Option<&Finding> {
        let report = self.report.as_ref()?;
        report
            .findings
            .get(self.rows.get(self.selected)?.finding()?)
    }

    pub fn gathering(&self) -> bool {
        matches!(self.load, Load::Gathering { .. })
    }

    /// The exit code: the report's, or 3 when no verdict was reached.
    pub fn exit_code(&self) -> i32 {
        self.report
            .as_ref()
            .map_or(crate::report::exit::NO_VERDICT, |r| r.exit_code)
    }

    /// Rebuilds the findings list from the report and the filter, keeping the selected
    /// finding when it is still shown.
    pub fn refilter(&mut self) {
        let keep = self.rows.get(self.selected).and_then(Row::finding);
        self.rows = self
            .report
            .as_ref()
            .map(|r| {
                rows(
                    &r.findings,
                    &self.filter,
                    self.gpu_scope.as_ref(),
                    &self.expanded,
                )
            })
            .unwrap_or_default();
        self.selected = keep
            .and_then(|k| self.rows.iter().position(|r| r.finding() == Some(k)))
            .or_else(|| self.first_finding_row())
            .unwrap_or(0);
        self.list_offset = 0;
        self.detail_scroll = 0;
    }

    /// Folds or unfolds the cause on the selected row (or the cause of the selected
    /// symptom, which then takes the cursor). Returns whether anything changed.
    pub fn set_folded(&mut self, unfold: bool) -> bool {
        let (cause, was) = match self.rows.get(self.selected) {
            Some(Row::Cause {
                index, expanded, ..
            }) => (*index, *expanded),
            Some(Row::Symptom { cause, .. }) if !unfold => (*cause, true),
            _ => return false,
        };
        if was == unfold {
            return false;
        }
        let Some(key) = self
            .report
            .as_ref()
            .and_then(|r| r.findings.get(cause))
            .map(cause_key)
        else {
            return false;
        };
        if unfold {
            self.expanded.insert(key);
        } else {
            self.expanded.remove(&key);
        }
        let offset = self.list_offset;
        self.refilter();
        if let Some(at) = self.rows.iter().position(|r| r.finding() == Some(cause)) {
            self.selected = at;
        }
        self.list_offset = offset;
        true
    }

    pub fn first_finding_row(&self) -> Option<usize> {
        self.rows.iter().position(|r| r.finding().is_some())
    }
}

/// The findings matching `filter` (and about the GPU of `gpu`, when given), grouped by
/// area; areas with failures come first, and within an area the report's order (failures
/// first) is kept. A finding whose cause (`caused_by`) is shown too goes under the cause
/// instead of in its own area: folded, unless the cause's key is in `expanded`.
pub fn rows(
    findings: &[Finding],
    filter: &str,
    gpu: Option<&GpuScope>,
    expanded: &BTreeSet<String>,
) -> Vec<Row> {
    let needle = filter.to_lowercase();
    let matches = |f: &Finding| {
        if gpu.is_some_and(|g| !g.matches(&f.scope)) {
            return false;
        }
        let scope = match f.scope {
            Scope::Host => String::new(),
            ref s => s.to_string(),
        };
        needle.is_empty()
            || format!("{} {} {} {scope} {}", f.id, f.check, f.summary, f.severity)
                .to_lowercase()
                .contains(&needle)
    };
    let area_of = |f: &Finding| {
        Area::ALL
            .iter()
            .position(|a| a.as_str() == f.area())
            .unwrap_or(Area::ALL.len())
    };
    let shown: Vec<bool> = findings.iter().map(matches).collect();
    // Each shown finding's shown cause, if it has one (never itself).
    let cause_of: Vec<Option<usize>> = findings
        .iter()
        .enumerate()
        .map(|(i, f)| {
            f.caused_by.as_ref()?;
            (shown[i])
                .then(|| {
                    findings
                        .iter()
                        .enumerate()
                        .position(|(j, c)| j != i && shown[j] && c.explains(f))
                })
                .flatten()
        })
        .collect();
    let mut symptoms: Vec<Vec<usize>> = vec![Vec::new(); findings.len()];
    for (i, c) in cause_of.iter().enumerate() {
        if let Some(c) = c {
            symptoms[*c].push(i);
        }
    }
    let mut groups: Vec<(usize, Severity, Vec<usize>)> = Vec::new();
    for (i, f) in findings.iter().enumerate() {
        if !shown[i] || cause_of[i].is_some() {
            continue;
        }
        // A folded symptom's severity still counts for its cause's area.
        let sev = symptoms[i]
            .iter()
            .map(|s| findings[*s].severity)
            .fold(f.severity, Severity::max);
        let area = area_of(f);
        match groups.iter_mut().find(|(a, _, _)| *a == area) {
            Some((_, worst, members)) => {
                *worst = (*worst).max(sev);
                members.push(i);
            }
            None => groups.push((area, sev, vec![i])),
        }
    }
    groups.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut out = Vec::new();
    for (area, worst, mut members) in groups {
        members.sort_by(|a, b| findings[*b].severity.cmp(&findings[*a].severity));
        let title = Area::ALL.get(area).map_or("Other", |a| a.heading());
        out.push(Row::Area { title, worst });
        for m in members {
            let mut under = std::mem::take(&mut symptoms[m]);
            if under.is_empty() {
                out.push(Row::Finding(m));
                continue;
            }
            under.sort_by(|a, b| findings[*b].severity.cmp(&findings[*a].severity));
            let open = expanded.contains(&cause_key(&findings[m]));
            out.push(Row::Cause {
                index: m,
                symptoms: under.len(),
                expanded: open,
            });
            if open {
                out.extend(
                    under
                        .into_iter()
                        .map(|s| Row::Symptom { index: s, cause: m }),
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {

    /// The picker offers every probe the command line has, per GPU and between GPUs.
    #[test]
    fn the_pickable_probes_are_the_command_lines() {
        use crate::facts::probe::ProbeKind;
        let per_gpu: Vec<&str> = ProbeKind::ALL.iter().map(|k| k.as_str()).collect();
        let between: Vec<&str> = ProbeKind::NODE.iter().map(|k| k.as_str()).collect();
        assert_eq!(super::PROBES.to_vec(), per_gpu);
        assert_eq!(super::BETWEEN_PROBES.to_vec(), between);
    }

    #[test]
    fn stages_are_the_gathering_steps_then_the_checks() {
        let names: Vec<&str> = super::stage_names().collect();
        assert_eq!(names.len(), super::STAGE_COUNT);
        assert_eq!(&names[..names.len() - 1], crate::facts::STEPS);
        assert_eq!(names.last(), Some(&"checks"));
    }
    use super::*;

    fn f(id: &str, s: Severity) -> Finding {
        Finding::new(id, s, id)
    }

    #[test]
    fn areas_with_failures_come_first() {
        let findings = vec![
            f("driver.a", Severity::Pass),
            f("host.b", Severity::Warn),
            f("torch.c", Severity::Fail),
            f("driver.d", Severity::Fail),
            f("weird.e", Severity::Info),
        ];
        let r = rows(&findings, "", None, &BTreeSet::new());
        assert_eq!(
            r,
            vec![
                Row::Area {
                    title: "Driver",
                    worst: Severity::Fail
                },
                Row::Finding(3),
                Row::Finding(0),
                Row::Area {
                    title: "PyTorch",
                    worst: Severity::Fail
                },
                Row::Finding(2),
                Row::Area {
                    title: "Host",
                    worst: Severity::Warn
                },
                Row::Finding(1),
                Row::Area {
                    title: "Other",
                    worst: Severity::Info
                },
                Row::Finding(4),
            ]
        );
    }

    fn caused_by(f: Finding, cause: &Finding) -> Finding {
        Finding {
            caused_by: Some(crate::finding::CauseRef {
                id: cause.id.clone(),
                scope: cause.scope.clone(),
            }),
            ..f
        }
    }

    #[test]
    fn symptoms_fold_under_their_cause() {
        let cause = f("driver.library_mismatch", Severity::Fail);
        let gpu = |i| Scope::Gpu {
            index: Some(i),
            pci_bus_id: None,
        };
        let findings = vec![
            f("driver.a", Severity::Pass),
            caused_by(f("driver.compat_package_mismatch", Severity::Fail), &cause),
            caused_by(f("probe.launch", Severity::Fail).scope(gpu(0)), &cause),
            caused_by(f("probe.launch", Severity::Fail).scope(gpu(1)), &cause),
            cause.clone(),
            f("torch.b", Severity::Warn),
        ];
        let none = BTreeSet::new();
        // Folded: the cause first in its area, its symptoms out of theirs (Probes is gone).
        assert_eq!(
            rows(&findings, "", None, &none),
            vec![
                Row::Area {
                    title: "Driver",
                    worst: Severity::Fail
                },
                Row::Cause {
                    index: 4,
                    symptoms: 3,
                    expanded: false
                },
                Row::Finding(0),
                Row::Area {
                    title: "PyTorch",
                    worst: Severity::Warn
                },
                Row::Finding(5),
            ]
        );
        // Unfolded: the symptoms right under the cause.
        let open: BTreeSet<String> = [cause_key(&cause)].into();
        let r = rows(&findings, "", None, &open);
        assert_eq!(
            r[1..5],
            [
                Row::Cause {
                    index: 4,
                    symptoms: 3,
                    expanded: true
                },
                Row::Symptom { index: 1, cause: 4 },
                Row::Symptom { index: 2, cause: 4 },
                Row::Symptom { index: 3, cause: 4 },
            ]
        );
        // A symptom whose cause is filtered out stands on its own, in its own area.
        let scoped = rows(
            &findings,
            "",
            Some(&GpuScope {
                index: Some(1),
                pci_bus_id: None,
            }),
            &none,
        );
        assert_eq!(scoped[1], Row::Finding(3));
        assert_eq!(
            scoped[0],
            Row::Area {
                title: "Probes",
                worst: Severity::Fail
            }
        );
        // A folded failure still makes its cause's area fail.
        let warn_cause = f("driver.w", Severity::Warn);
        let findings = vec![
            caused_by(f("probe.x", Severity::Fail), &warn_cause),
            warn_cause.clone(),
        ];
        assert_eq!(
            rows(&findings, "", None, &none)[0],
            Row::Area {
                title: "Driver",
                worst: Severity::Fail
            }
        );
    }

    #[test]
    fn a_gpu_scope_is_by_index_not_by_text() {
        let on = |i: u32| {
            f("probe.launch", Severity::Fail).scope(Scope::Gpu {
                index: Some(i),
                pci_bus_id: Some(format!("0000:{:02x}:00.0", i + 0x18)),
            })
        };
        let findings: Vec<Finding> = (0..12)
            .map(on)
            .chain([f("driver.a", Severity::Pass)])
            .collect();
        let one = GpuScope {
            index: Some(1),
            pci_bus_id: Some("0000:19:00.0".into()),
        };
        let r = rows(&findings, "", Some(&one), &BTreeSet::new());
        let shown: Vec<&Row> = r.iter().filter(|r| matches!(r, Row::Finding(_))).collect();
        assert_eq!(
            shown,
            vec![&Row::Finding(1)],
            "not GPU 10 or 11, not the host's"
        );
        // The text filter narrows within the scope.
        assert_eq!(
            rows(&findings, "launch", Some(&one), &BTreeSet::new()).len(),
            2
        );
        assert!(rows(&findings, "driver", Some(&one), &BTreeSet::new()).is_empty());
        // A GPU the driver does not enumerate is matched by bus id, across domain widths.
        let pci_only = f("driver.x", Severity::Fail).scope(Scope::Gpu {
            index: None,
            pci_bus_id: Some("00000000:19:00.0".into()),
        });
        let by_bus = GpuScope {
            index: None,
            pci_bus_id: Some("0000:19:00.0".into()),
        };
        assert!(by_bus.matches(&pci_only.scope));
        assert!(!by_bus.matches(&Scope::Host));
        assert_eq!(one.label(), "GPU 1");
    }

    #[test]
    fn filter_matches_id_summary_scope_and_severity() {
        let findings = vec![f("driver.a", Severity::Pass), f("host.b", Severity::Warn)];
        assert_eq!(
            rows(&findings, "HOST", None, &BTreeSet::new()).len(),
            2,
            "only host.b and its heading"
        );
        assert_eq!(
            rows(&findings, "warn", None, &BTreeSet::new())[1],
            Row::Finding(1)
        );
        assert!(rows(&findings, "nothing", None, &BTreeSet::new()).is_empty());
    }
}
