//! The GPU table: one row per GPU (NVML devices, then NVIDIA functions on the PCI bus
//! the driver does not enumerate), and columns as data with a priority, so a narrow
//! terminal drops the least important columns instead of wrapping, and later issues
//! (health, live memory, more probes) only add entries to [`columns`].

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use super::ellipsis::{self, fit_line};
use super::theme::{spinner, Theme};
use crate::checks::view;
use crate::finding::{Scope, Severity};
use crate::report::Report;
use crate::tui::app::{App, Pane};
use crate::tui::msg::ProbeState;

/// What the table knows about one GPU.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GpuRow {
    pub index: Option<u32>,
    pub name: String,
    pub compute_capability: Option<String>,
    pub memory_total_bytes: Option<u64>,
    pub pci_bus_id: Option<String>,
    pub uuid: Option<String>,
    pub memory_used_bytes: Option<u64>,
    pub temperature_c: Option<u32>,
    /// The worst `gpu.*` finding scoped to this GPU (ECC, remaps, link, throttling …).
    pub health: Option<Severity>,
    /// Probe results from `probe.*` findings scoped to this GPU: (probe, severity, ms).
    pub probes: Vec<(String, Severity, Option<u64>)>,
}

impl GpuRow {
    /// A stable key for the picker: the NVML index, else the PCI bus id.
    pub fn key(&self) -> String {
        match (self.index, &self.pci_bus_id) {
            (Some(i), _) => i.to_string(),
            (None, Some(b)) => b.clone(),
            (None, None) => self.name.clone(),
        }
    }

    pub fn label(&self) -> String {
        match self.index {
            Some(i) => format!("GPU {i} · {}", self.name),
            None => format!(
                "{} · {}",
                self.pci_bus_id.as_deref().unwrap_or("?"),
                self.name
            ),
        }
    }
}

/// "00000000:18:00.0" and "0000:18:00.0" name the same function.
pub fn bus_key(bus: &str) -> String {
    bus.rsplitn(3, ':')
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .skip_while(|p| p.chars().all(|c| c == '0') && p.len() >= 4)
        .collect::<Vec<_>>()
        .join(":")
        .to_lowercase()
}

pub fn rows(report: &Report) -> Vec<GpuRow> {
    let facts = &report.facts;
    // The gpu.* checks ran: a GPU they found nothing on is healthy, not unknown.
    let judged = report.findings.iter().any(|f| f.area() == "gpu");
    let mut out: Vec<GpuRow> = view::nvml_devices(facts)
        .iter()
        .map(|d| GpuRow {
            index: Some(d.index),
            name: d
                .name
                .value()
                .cloned()
                .unwrap_or_else(|| "unknown GPU".into()),
            compute_capability: d.compute_capability.value().cloned(),
            memory_total_bytes: d.memory_total_bytes.value().copied(),
            pci_bus_id: d.pci_bus_id.value().cloned(),
            uuid: d.uuid.value().cloned(),
            memory_used_bytes: d.memory_used_bytes.value().copied(),
            temperature_c: d.temperature_c.value().copied(),
            health: if d.lost {
                Some(Severity::Fail)
            } else {
                judged.then_some(Severity::Pass)
            },
            probes: Vec::new(),
        })
        .collect();
    let known: Vec<String> = out
        .iter()
        .filter_map(|r| r.pci_bus_id.as_deref().map(bus_key))
        .collect();
    for g in facts.pci_gpus.value().into_iter().flatten() {
        if known.contains(&bus_key(&g.bus_id)) {
            continue;
        }
        let why = match g.driver.as_deref() {
            None => "no driver bound".to_string(),
            Some(d) => format!("{d}, not enumerated"),
        };
        out.push(GpuRow {
            index: None,
            name: format!(
                "{} ({why})",
                crate::matrix::pci_gpu_label(&g.vendor_id, &g.device_id)
            ),
            compute_capability: None,
            memory_total_bytes: None,
            pci_bus_id: Some(g.bus_id.clone()),
            uuid: None,
            memory_used_bytes: None,
            temperature_c: None,
            health: None,
            probes: Vec::new(),
        });
    }
    for f in report.findings.iter().filter(|f| f.area() == "gpu") {
        let Scope::Gpu {
            index: Some(index), ..
        } = &f.scope
        else {
            continue;
        };
        if let Some(row) = out.iter_mut().find(|r| r.index == Some(*index)) {
            row.health = Some(row.health.map_or(f.severity, |h| h.max(f.severity)));
        }
    }
    for f in report.findings.iter().filter(|f| f.area() == "probe") {
        let Scope::Gpu { index, pci_bus_id } = &f.scope else {
            continue;
        };
        let probe = f.id.trim_start_matches("probe.").to_string();
        let row = out.iter_mut().find(|r| {
            (index.is_some() && r.index == *index)
                || (index.is_none()
                    && pci_bus_id.is_some()
                    && r.pci_bus_id.as_deref().map(bus_key) == pci_bus_id.as_deref().map(bus_key))
        });
        if let Some(row) = row {
            row.probes.push((probe, f.severity, elapsed_ms(f)));
        }
    }
    out
}

/// A probe's timing, from evidence named `…elapsed_ms` / `…duration_ms`.
pub fn elapsed_ms(f: &crate::finding::Finding) -> Option<u64> {
    f.evidence
        .iter()
        .find(|e| e.fact.ends_with("elapsed_ms") || e.fact.ends_with("duration_ms"))
        .and_then(|e| {
            e.value
                .trim()
                .trim_end_matches("ms")
                .trim()
                .parse::<f64>()
                .ok()
        })
        .map(|v| v.round() as u64)
}

/// Probe names that have a column: those with results, then those running live.
pub fn probe_names(rows: &[GpuRow], app: &App) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let live = app.probes.iter().map(|(_, p, _)| p.clone());
    for p in rows
        .iter()
        .flat_map(|r| r.probes.iter().map(|(p, _, _)| p.clone()))
        .chain(live)
    {
        if !names.contains(&p) {
            names.push(p);
        }
    }
    // The order a worker runs them; a name this build does not know goes last.
    names.sort_by_key(|n| {
        crate::tui::app::PROBES
            .iter()
            .position(|p| p == n)
            .unwrap_or(usize::MAX)
    });
    names
}

pub fn gib(bytes: u64) -> String {
    format!("{:.0} GiB", bytes as f64 / (1u64 << 30) as f64)
}

/// Draws one cell of a column.
pub type CellFn = Box<dyn Fn(&GpuRow, &App, Theme) -> Span<'static>>;

/// One column: a title, a width, and a priority (0 is kept longest).
pub struct Column {
    pub title: String,
    pub width: u16,
    pub priority: u8,
    pub cell: CellFn,
}

const NOT_YET: &str = "—";

fn text(s: impl Into<String>) -> Span<'static> {
    Span::raw(s.into())
}

pub fn columns(probes: &[String]) -> Vec<Column> {
    let mut cols = vec![
        Column {
            title: "#".into(),
            width: 3,
            priority: 0,
            cell: Box::new(|r, _, _| text(r.index.map_or("-".into(), |i| i.to_string()))),
        },
        Column {
            title: "Name".into(),
            width: NAME_WIDTH,
            priority: 0,
            cell: Box::new(|r, _, _| text(r.name.trim_start_matches("NVIDIA ").to_string())),
        },
        Column {
            title: "CC".into(),
            width: 5,
            priority: 1,
            cell: Box::new(|r, _, _| {
                text(
                    r.compute_capability
                        .clone()
                        .unwrap_or_else(|| NOT_YET.into()),
                )
            }),
        },
        Column {
            title: "Memory used/total".into(),
            width: 17,
            priority: 4,
            cell: Box::new(|r, _, _| {
                text(format!(
                    "{} / {}",
                    r.memory_used_bytes.map_or(NOT_YET.into(), gib),
                    r.memory_total_bytes.map_or(NOT_YET.into(), gib)
                ))
            }),
        },
        Column {
            title: "Temp".into(),
            width: 4,
            priority: 5,
            cell: Box::new(|r, _, _| {
                text(r.temperature_c.map_or(NOT_YET.into(), |t| format!("{t}°C")))
            }),
        },
        Column {
            title: "Health".into(),
            width: 10,
            priority: 3,
            cell: Box::new(|r, app, theme| match health(r, app) {
                Health::Unknown => text(NOT_YET),
                Health::Nvml(s) => {
                    Span::styled(format!("{} {}", s.marker(), s.as_str()), theme.severity(s))
                }
                Health::Probes(s, n) => Span::styled(
                    format!("{} {n} probe{}", s.marker(), if n == 1 { "" } else { "s" }),
                    theme.severity(s),
                ),
            }),
        },
        Column {
            title: "PCI bus".into(),
            width: 16,
            priority: 6,
            cell: Box::new(|r, _, _| text(r.pci_bus_id.clone().unwrap_or_else(|| NOT_YET.into()))),
        },
    ];
    for name in probes {
        let probe = name.clone();
        cols.push(Column {
            title: name.clone(),
            width: (name.chars().count() as u16).max(8),
            // What the probes found matters more than the static facts beside it.
            priority: 2,
            cell: Box::new(move |r, app, theme| probe_cell(r, &probe, app, theme)),
        });
    }
    cols
}

/// A probe's state on one GPU as the screen shows it: live from the run under way, else
/// the report's result. While a re-run gathers, the report on screen is the last run's:
/// its probe results are not shown as if they were this run's.
pub fn probe_state(row: &GpuRow, probe: &str, app: &App) -> Option<ProbeState> {
    let live = row.index.and_then(|i| {
        app.probes
            .iter()
            .find(|(g, p, _)| *g == i && p == probe)
            .map(|(_, _, s)| s.clone())
    });
    live.or_else(|| {
        if app.gathering() {
            return None;
        }
        row.probes
            .iter()
            .find(|(p, _, _)| p == probe)
            .map(|(_, s, ms)| ProbeState::Done(*s, *ms))
    })
}

/// What the Health column says about a GPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Health {
    /// Not judged (no `gpu.*` checks ran, no probe finished).
    Unknown,
    /// The worst of the NVML health checks (ECC, remaps, link, lost …), no probe worse.
    Nvml(Severity),
    /// Probes did worse than NVML says: the worst severity and how many probes had it.
    Probes(Severity, usize),
}

/// The GPU's health: NVML's view (`gpu.*` findings) and what the probes found on it
/// together, so "✓ pass" never sits next to failed probes.
pub fn health(row: &GpuRow, app: &App) -> Health {
    let mut names: Vec<&str> = row.probes.iter().map(|(p, _, _)| p.as_str()).collect();
    if let Some(i) = row.index {
        names.extend(
            app.probes
                .iter()
                .filter(|(g, _, _)| *g == i)
                .map(|(_, p, _)| p.as_str()),
        );
    }
    names.sort_unstable();
    names.dedup();
    let done: Vec<Severity> = names
        .iter()
        .filter_map(|p| match probe_state(row, p, app) {
            Some(ProbeState::Done(s, _)) => Some(s),
            _ => None,
        })
        .collect();
    // A skipped probe (info) says nothing about the GPU's health.
    let worst_probe = done.iter().copied().filter(|s| *s >= Severity::Warn).max();
    match (row.health, worst_probe) {
        (nvml, Some(p)) if nvml.is_none_or(|n| p > n) => {
            Health::Probes(p, done.iter().filter(|s| **s == p).count())
        }
        (Some(n), _) => Health::Nvml(n),
        (None, _) if !done.is_empty() => Health::Nvml(Severity::Pass),
        (None, _) => Health::Unknown,
    }
}

fn probe_cell(row: &GpuRow, probe: &str, app: &App, theme: Theme) -> Span<'static> {
    match probe_state(row, probe, app) {
        None => text(NOT_YET),
        Some(ProbeState::Pending) => Span::styled("pending", theme.dim()),
        Some(ProbeState::Running) => text(format!("{} run", spinner(app.tick))),
        Some(ProbeState::Done(s, ms)) => Span::styled(
            match ms {
                Some(ms) => format!("{} {}", s.marker(), duration(ms)),
                None => s.marker().to_string(),
            },
            theme.severity(s),
        ),
    }
}

/// "42ms", "1.5s", "10s": short enough for a probe cell.
pub fn duration(ms: u64) -> String {
    match ms {
        0..1000 => format!("{ms}ms"),
        1000..10_000 => format!("{:.1}s", ms as f64 / 1000.0),
        _ => format!("{}s", ms / 1000),
    }
}

/// The columns that fit in `width`, by priority, in their table order.
pub fn fit(cols: Vec<Column>, width: u16) -> Vec<Column> {
    let mut order: Vec<usize> = (0..cols.len()).collect();
    order.sort_by_key(|&i| cols[i].priority);
    let mut used = 0u16;
    let mut keep = vec![false; cols.len()];
    for i in order {
        let w = cols[i].width + 1;
        // Stop at the first column that does not fit, so a less important narrow one
        // never shows while a more important wide one is hidden.
        if used + w > width {
            break;
        }
        used += w;
        keep[i] = true;
    }
    cols.into_iter()
        .zip(keep)
        .filter_map(|(c, k)| k.then_some(c))
        .collect()
}

/// The name column's width before it is widened into the space left over.
const NAME_WIDTH: u16 = 18;

pub struct GpuTable<'a> {
    pub app: &'a App,
    pub theme: Theme,
}

fn pad(s: &str, w: u16) -> String {
    ellipsis::pad(s, usize::from(w))
}

impl Widget for &GpuTable<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let app = self.app;
        let theme = self.theme;
        let Some(report) = &app.report else {
            return;
        };
        let rows = rows(report);
        let focused = app.focus == Pane::Gpus;
        let visible = usize::from(area.height.saturating_sub(2));
        let mut title = format!(" GPUs ({}) ", rows.len());
        if rows.len() > visible && visible > 0 {
            let last = (app.gpu_offset + visible).min(rows.len());
            title.push_str(&format!(
                "{}–{} shown, Tab here and ↓ scrolls ",
                app.gpu_offset + 1,
                last
            ));
        }
        let mut head = vec![Span::styled(title, theme.title(focused))];
        if !rows.is_empty() && rows.iter().all(|r| r.index.is_none()) {
            head.push(Span::styled(
                " on the PCI bus only: the driver does not enumerate them (see Driver findings)",
                theme.severity(Severity::Warn),
            ));
        }
        let mut lines = vec![fit_line(Line::from(head), usize::from(area.width))];
        if rows.is_empty() {
            lines.push(Line::from(no_gpu_text(report)));
            ratatui::widgets::Paragraph::new(lines)
                .wrap(ratatui::widgets::Wrap { trim: false })
                .render(area, buf);
            return;
        }
        let names = probe_names(&rows, app);
        let cols = fit(columns(&names), area.width);
        // Widen the name column into what is left over: 16 more at most, or as much as
        // the longest name needs (a GPU known by PCI ids: its label and why).
        let used: u16 = cols.iter().map(|c| c.width + 1).sum();
        let longest = rows
            .iter()
            .map(|r| r.name.trim_start_matches("NVIDIA ").chars().count())
            .max()
            .unwrap_or(0);
        let want = u16::try_from(longest)
            .unwrap_or(u16::MAX)
            .saturating_sub(NAME_WIDTH)
            .max(16);
        let name_width = NAME_WIDTH + area.width.saturating_sub(used).min(want);
        let header: Vec<Span> = cols
            .iter()
            .map(|c| {
                let w = if c.title == "Name" {
                    name_width
                } else {
                    c.width
                };
                Span::styled(format!("{} ", pad(&c.title, w)), theme.bold())
            })
            .collect();
        lines.push(Line::from(header));
        for (i, r) in rows.iter().enumerate().skip(app.gpu_offset).take(visible) {
            let spans: Vec<Span> = cols
                .iter()
                .map(|c| {
                    let w = if c.title == "Name" {
                        name_width
                    } else {
                        c.width
                    };
                    let s = (c.cell)(r, app, theme);
                    Span::styled(format!("{} ", pad(&s.content, w)), s.style)
                })
                .collect();
            let mut line = Line::from(spans);
            if focused && i == app.gpu_selected {
                line = line.style(theme.selected());
            }
            lines.push(line);
        }
        ratatui::widgets::Paragraph::new(ellipsis::fit_lines(lines, usize::from(area.width)))
            .render(area, buf);
    }
}

/// What an empty table means for this machine.
pub fn no_gpu_text(report: &Report) -> String {
    let f = &report.facts;
    if let Some(c) = view::in_container(f) {
        if view::gpu_device_nodes(f) == 0 {
            return format!(
                "No GPU visible: inside a {c} container without /dev/nvidia* (started without --gpus?)."
            );
        }
    }
    match f.pci_gpus.value() {
        Some(v) if v.is_empty() => {
            "No NVIDIA GPU on the PCI bus: CUDA cannot run on this machine.".into()
        }
        Some(_) => "GPUs on the PCI bus, but the driver enumerates none.".into(),
        None => format!(
            "No GPU found; the PCI bus could not be read ({}).",
            f.pci_gpus.reason().unwrap_or("?")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bus_ids_compare_across_domain_widths() {
        assert_eq!(bus_key("00000000:18:00.0"), bus_key("0000:18:00.0"));
        assert_ne!(bus_key("0000:19:00.0"), bus_key("0000:18:00.0"));
    }

    /// GPUs the driver does not enumerate are named alike in the table and the text
    /// report: the matrix's product name and the PCI ids, never the bare ids.
    #[test]
    fn a_gpu_known_by_pci_ids_reads_the_same_here_and_in_the_text_report() {
        use crate::facts::pci::PciGpu;
        let mut facts = crate::checks::testutil::no_gpu();
        let pci = |bus: &str, device: &str, driver: Option<&str>| PciGpu {
            bus_id: bus.into(),
            vendor_id: "10de".into(),
            device_id: device.into(),
            subsystem_vendor_id: None,
            subsystem_device_id: None,
            class: "030000".into(),
            driver: driver.map(String::from),
        };
        facts.pci_gpus = crate::fact::Fact::known(vec![
            pci("0000:01:00.0", "2684", None),
            pci("0000:02:00.0", "ffff", Some("vfio-pci")),
        ]);
        let m = crate::checks::testutil::matrix();
        let (f, e) = crate::checks::evaluate(
            &facts,
            m,
            &crate::checks::CheckOptions::default(),
            &crate::checks::Selection::default(),
        );
        let report = Report::new(crate::matrix::bundled(), facts, f, e);
        let names: Vec<String> = rows(&report).into_iter().map(|r| r.name).collect();
        assert_eq!(
            names,
            [
                "NVIDIA GeForce RTX 4090 [10de:2684] (no driver bound)",
                "NVIDIA GPU [10de:ffff] (vfio-pci, not enumerated)",
            ]
        );
        let text = crate::report::text::render(&report, Default::default());
        for label in [
            "NVIDIA GeForce RTX 4090 [10de:2684]",
            "NVIDIA GPU [10de:ffff]",
        ] {
            // The GPU table's row, and the stack line above it.
            let row = text
                .lines()
                .any(|l| l.starts_with("  -") && l.contains(label));
            assert!(row, "{label}:\n{text}");
            assert!(text.contains(&format!("{label} at 0000:0")), "{text}");
        }
        assert!(!text.contains(" 10de:"), "{text}");
    }

    fn row(health: Option<Severity>, probes: &[(&str, Severity)]) -> GpuRow {
        GpuRow {
            index: Some(0),
            name: "NVIDIA H100 80GB HBM3".into(),
            compute_capability: Some("9.0".into()),
            memory_total_bytes: None,
            pci_bus_id: None,
            uuid: None,
            memory_used_bytes: None,
            temperature_c: None,
            health,
            probes: probes
                .iter()
                .map(|(p, s)| ((*p).to_string(), *s, Some(40)))
                .collect(),
        }
    }

    #[test]
    fn health_counts_the_probes() {
        let mut app = App::new("r.json".into(), false, true);
        app.load = crate::tui::app::Load::Ready;
        let (p, w, f, i) = (
            Severity::Pass,
            Severity::Warn,
            Severity::Fail,
            Severity::Info,
        );
        // NVML says pass, seven probes failed: the health is the probes'.
        let all_failed: Vec<(&str, Severity)> =
            crate::tui::app::PROBES.iter().map(|n| (*n, f)).collect();
        assert_eq!(
            health(&row(Some(p), &all_failed), &app),
            Health::Probes(f, 7)
        );
        assert_eq!(
            health(&row(Some(p), &[("launch", p), ("oom", w)]), &app),
            Health::Probes(w, 1)
        );
        // NVML's failure is not hidden by passing probes; a skipped probe is no failure.
        assert_eq!(
            health(&row(Some(f), &[("launch", p)]), &app),
            Health::Nvml(f)
        );
        assert_eq!(
            health(&row(Some(p), &[("launch", p), ("oom", i)]), &app),
            Health::Nvml(p)
        );
        assert_eq!(health(&row(None, &[]), &app), Health::Unknown);
        assert_eq!(health(&row(None, &[("launch", p)]), &app), Health::Nvml(p));
        // A live result counts before the report has it.
        app.probes
            .push((0, "graph".into(), ProbeState::Done(Severity::Fail, None)));
        assert_eq!(health(&row(Some(p), &[]), &app), Health::Probes(f, 1));
        // While a re-run gathers, the last report's probe results do not count.
        app.probes.clear();
        app.load = crate::tui::app::Load::Gathering {
            generation: 1,
            started: 0,
            stages: Vec::new(),
        };
        assert_eq!(health(&row(Some(p), &all_failed), &app), Health::Nvml(p));
        assert_eq!(
            probe_state(&row(Some(p), &all_failed), "launch", &app),
            None
        );
    }

    #[test]
    fn durations_fit_a_cell() {
        assert_eq!(duration(42), "42ms");
        assert_eq!(duration(1500), "1.5s");
        assert_eq!(duration(10_000), "10s");
    }

    #[test]
    fn columns_drop_by_priority() {
        let all = columns(&["launch".to_string()]);
        let titles = |cols: Vec<Column>| cols.into_iter().map(|c| c.title).collect::<Vec<_>>();
        let narrow = titles(fit(columns(&["launch".into()]), 30));
        assert_eq!(narrow, vec!["#", "Name", "CC"]);
        let probes_first = titles(fit(columns(&["launch".into()]), 40));
        assert_eq!(probes_first, vec!["#", "Name", "CC", "launch"]);
        let wide = titles(fit(all, 200));
        assert!(wide.contains(&"launch".to_string()) && wide.contains(&"PCI bus".to_string()));
        let mid = titles(fit(columns(&["launch".into()]), 60));
        assert!(mid.contains(&"launch".to_string()), "{mid:?}");
        assert!(!mid.contains(&"PCI bus".to_string()), "{mid:?}");
    }
}
