//! The doctor-style text report: an overview of the stack, then findings grouped by
//! area, failures first, with ✓ ! ✗ markers, colour on a terminal and the fix commands.

use std::fmt::Write as _;

use super::{Report, Verdict};
use crate::checks::{view, Area};
use crate::facts::Facts;
use crate::finding::{Finding, Severity};

#[derive(Debug, Clone, Copy, Default)]
pub struct TextOptions {
    pub color: bool,
    /// `-v`: details, evidence and fixes for every finding, not only problems.
    pub verbose: bool,
    /// The facts were read from a paste (`diagnose`), not gathered on this machine: a fact
    /// the paste does not hold is "not in the paste", never "not installed", and a paste
    /// that shows no problem is no proof the machine can run CUDA work.
    pub from_paste: bool,
}

struct Paint {
    on: bool,
}

impl Paint {
    fn wrap(&self, code: &str, s: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    }
    fn bold(&self, s: &str) -> String {
        self.wrap("1", s)
    }
    fn dim(&self, s: &str) -> String {
        self.wrap("2", s)
    }
    fn severity(&self, sev: Severity, s: &str) -> String {
        let code = match sev {
            Severity::Pass => "32",
            Severity::Info => "36",
            Severity::Warn => "33",
            Severity::Fail => "31;1",
        };
        self.wrap(code, s)
    }
}

pub fn render(report: &Report, opts: TextOptions) -> String {
    let p = Paint { on: opts.color };
    let mut out = String::new();
    header(&mut out, report, opts.from_paste, &p);
    summary(&mut out, report, opts.from_paste, &p);
    overview(&mut out, &report.facts, opts, &p);
    problems(&mut out, report, opts.verbose, &p);
    for e in &report.check_errors {
        let _ = writeln!(
            out,
            "\n{} check {} could not run: {}",
            p.severity(Severity::Fail, "✗"),
            e.id,
            e.message
        );
    }
    gpu_table(&mut out, report, &p);
    if opts.verbose {
        all_passes(&mut out, report, &p);
    } else {
        folded_passes(&mut out, report, &p);
    }
    out
}

/// A cause and the symptoms it explains (none for a problem on its own).
pub(crate) struct Group<'a> {
    pub(crate) cause: &'a Finding,
    pub(crate) symptoms: Vec<&'a Finding>,
}

impl Group<'_> {
    fn severity(&self) -> Severity {
        self.symptoms
            .iter()
            .map(|f| f.severity)
            .fold(self.cause.severity, Severity::max)
    }
}

/// Position of a check in the catalogue (report order), unknown ids last.
fn catalogue_rank(f: &Finding) -> usize {
    crate::checks::ALL
        .iter()
        .position(|c| c.id == f.id)
        .unwrap_or(usize::MAX)
}

/// Warnings and failures as causes with their symptoms, most severe first, then the cause
/// that explains most, then the catalogue's order.
pub(crate) fn problem_groups(r: &Report) -> Vec<Group<'_>> {
    let problems: Vec<&Finding> = r
        .findings
        .iter()
        .filter(|f| f.severity >= Severity::Warn)
        .collect();
    let mut groups: Vec<Group> = Vec::new();
    for f in &problems {
        let has_cause = problems.iter().any(|c| c.explains(f));
        if !has_cause {
            groups.push(Group {
                cause: f,
                symptoms: problems.iter().filter(|s| f.explains(s)).copied().collect(),
            });
        }
    }
    groups.sort_by(|a, b| {
        b.severity()
            .cmp(&a.severity())
            .then_with(|| b.symptoms.len().cmp(&a.symptoms.len()))
            .then_with(|| catalogue_rank(a.cause).cmp(&catalogue_rank(b.cause)))
            .then_with(|| a.cause.scope.cmp(&b.cause.scope))
    });
    groups
}

/// Symptoms listed under a cause before the rest are counted (`-v` lists all).
const SYMPTOMS_SHOWN: usize = 6;

fn problems(out: &mut String, r: &Report, verbose: bool, p: &Paint) {
    let groups = problem_groups(r);
    if !groups.is_empty() {
        let _ = writeln!(out, "\n{}", p.bold("Problems"));
    }
    for g in &groups {
        finding(out, g.cause, true, verbose, p);
        let shown = if verbose {
            g.symptoms.len()
        } else {
            SYMPTOMS_SHOWN.min(g.symptoms.len())
        };
        if !g.symptoms.is_empty() {
            let _ = writeln!(
                out,
                "      {}",
                p.dim(&format!(
                    "explains {} more problem{}:",
                    g.symptoms.len(),
                    if g.symptoms.len() == 1 { "" } else { "s" }
                ))
            );
        }
        for s in &g.symptoms[..shown] {
            let _ = writeln!(
                out,
                "      ↳ {} {}{}  {}",
                p.severity(s.severity, s.severity.marker()),
                s.summary,
                scope_suffix(s),
                p.dim(s.label())
            );
        }
        if g.symptoms.len() > shown {
            let _ = writeln!(
                out,
                "      {}",
                p.dim(&format!(
                    "↳ … {} more ({}; -v lists them)",
                    g.symptoms.len() - shown,
                    symptom_ids(&g.symptoms[shown..])
                ))
            );
        }
    }
    let notes: Vec<&Finding> = r
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Info)
        .collect();
    if !notes.is_empty() {
        let _ = writeln!(out, "\n{}", p.bold("Notes"));
        for f in notes {
            finding(out, f, false, verbose, p);
        }
    }
}

/// "probe.launch ×3, probe.graph ×3".
fn symptom_ids(fs: &[&Finding]) -> String {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for f in fs {
        match counts.iter_mut().find(|(id, _)| *id == f.label()) {
            Some((_, n)) => *n += 1,
            None => counts.push((f.label(), 1)),
        }
    }
    counts
        .iter()
        .map(|(id, n)| {
            if *n == 1 {
                (*id).to_string()
            } else {
                format!("{id} ×{n}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn scope_suffix(f: &Finding) -> String {
    match f.scope {
        crate::finding::Scope::Host => String::new(),
        ref s => format!(" [{s}]"),
    }
}

/// `-v`: every pass, by area, with its details and evidence.
fn all_passes(out: &mut String, r: &Report, p: &Paint) {
    let passes: Vec<&Finding> = r
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Pass)
        .collect();
    if passes.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n{}", p.bold("Passed"));
    for area in Area::ALL {
        let in_area: Vec<&&Finding> = passes
            .iter()
            .filter(|f| f.area() == area.as_str())
            .collect();
        if in_area.is_empty() {
            continue;
        }
        let _ = writeln!(out, "  {}", p.bold(area.heading()));
        for f in in_area {
            finding(out, f, false, true, p);
        }
    }
    let other: Vec<&&Finding> = passes
        .iter()
        .filter(|f| Area::parse(f.area()).is_none())
        .collect();
    if !other.is_empty() {
        let _ = writeln!(out, "  {}", p.bold("Other"));
        for f in other {
            finding(out, f, false, true, p);
        }
    }
}

/// Passes as one line per area: how many, and which checks.
fn folded_passes(out: &mut String, r: &Report, p: &Paint) {
    let passes: Vec<&Finding> = r
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Pass)
        .collect();
    if passes.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n{} {}", p.bold("Passed"), p.dim("(-v lists each)"));
    let width = Area::ALL
        .iter()
        .map(|a| a.heading().chars().count())
        .max()
        .unwrap_or(0);
    let mut line = |heading: &str, fs: Vec<&Finding>| {
        if fs.is_empty() {
            return;
        }
        let mut names: Vec<&str> = Vec::new();
        for f in &fs {
            let short = f.label().split_once('.').map_or(f.label(), |(_, n)| n);
            if !names.contains(&short) {
                names.push(short);
            }
        }
        let list = names.join(", ").replace('_', " ");
        let _ = writeln!(
            out,
            "  {} {:<width$} {:>3}  {}",
            p.severity(Severity::Pass, "✓"),
            heading,
            fs.len(),
            p.dim(&truncate(&list, 70))
        );
    };
    for area in Area::ALL {
        line(
            area.heading(),
            passes
                .iter()
                .filter(|f| f.area() == area.as_str())
                .copied()
                .collect(),
        );
    }
    line(
        "Other",
        passes
            .iter()
            .filter(|f| Area::parse(f.area()).is_none())
            .copied()
            .collect(),
    );
}

/// At most `max` characters, an ellipsis where cut.
fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut t: String = s.chars().take(max.saturating_sub(1)).collect();
    t.push('…');
    t
}

/// One row per GPU NVML sees: index, name, bus id, memory, temperature, health (the worst
/// finding about that GPU, probes included) and its probes.
fn gpu_table(out: &mut String, r: &Report, p: &Paint) {
    use crate::finding::Scope;
    const GIB: f64 = 1024.0 * 1024.0 * 1024.0;
    let about = |f: &Finding, index: Option<u32>, bus: Option<&str>| match &f.scope {
        Scope::Gpu {
            index: Some(i),
            pci_bus_id,
        } => {
            index == Some(*i)
                || (index.is_none()
                    && bus
                        .zip(pci_bus_id.as_deref())
                        .is_some_and(|(x, b)| bus_key(x) == bus_key(b)))
        }
        Scope::Gpu {
            index: None,
            pci_bus_id: Some(b),
        } => bus.is_some_and(|x| bus_key(x) == bus_key(b)),
        _ => false,
    };
    // One GPU's row: what NVML says of it (when it answers), and the findings about it.
    let row = |index: Option<u32>,
               name: &str,
               bus: Option<&str>,
               memory: String,
               temp: String,
               lost: bool|
     -> [String; 7] {
        let mine: Vec<&Finding> = r.findings.iter().filter(|f| about(f, index, bus)).collect();
        let worst = mine.iter().map(|f| f.severity).max();
        let health = if lost {
            "LOST".to_string()
        } else {
            match worst {
                Some(Severity::Fail) => "fail".into(),
                Some(Severity::Warn) => "warn".into(),
                _ => "ok".into(),
            }
        };
        let probes: Vec<&&Finding> = mine.iter().filter(|f| f.area() == "probe").collect();
        let failed = probes
            .iter()
            .filter(|f| f.severity >= Severity::Warn)
            .count();
        let ran = probes
            .iter()
            .filter(|f| f.severity != Severity::Info)
            .count();
        let probes = if probes.is_empty() {
            "not run".to_string()
        } else if failed == 0 {
            format!("{ran}/{ran} ok")
        } else {
            format!("{failed} of {ran} failed")
        };
        [
            index.map_or("-".to_string(), |i| i.to_string()),
            truncate(name, 40),
            bus.unwrap_or("?").to_string(),
            memory,
            temp,
            health,
            probes,
        ]
    };
    let devices = view::nvml_devices(&r.facts);
    #[allow(clippy::cast_precision_loss)]
    let rows: Vec<[String; 7]> = if devices.is_empty() {
        // NVML cannot enumerate them: the GPUs on the PCI bus, by address.
        match r.facts.pci_gpus.value() {
            Some(pci) if !pci.is_empty() => pci
                .iter()
                .map(|g| {
                    row(
                        None,
                        &crate::matrix::pci_gpu_label(&g.vendor_id, &g.device_id),
                        Some(&g.bus_id),
                        "?".into(),
                        "?".into(),
                        false,
                    )
                })
                .collect(),
            _ => return,
        }
    } else {
        devices
            .iter()
            .map(|d| {
                row(
                    Some(d.index),
                    d.name.value().map_or("?", String::as_str),
                    d.pci_bus_id.value().map(String::as_str),
                    d.memory_total_bytes
                        .value()
                        .map_or("?".to_string(), |t| format!("{:.0} GiB", *t as f64 / GIB)),
                    d.temperature_c
                        .value()
                        .map_or("?".to_string(), |t| format!("{t} °C")),
                    d.lost,
                )
            })
            .collect()
    };
    let head = [
        "GPU", "Name", "Bus id", "Memory", "Temp", "Health", "Probes",
    ];
    let mut widths = head.map(|h| h.chars().count());
    for row in &rows {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |cells: &[String]| {
        let mut l = String::from(" ");
        for (c, w) in cells.iter().zip(widths) {
            let pad = w.saturating_sub(c.chars().count());
            let _ = write!(l, " {c}{}", " ".repeat(pad));
        }
        l.trim_end().to_string()
    };
    let _ = writeln!(out);
    let _ = writeln!(out, "{}", p.bold(&line(&head.map(String::from))));
    for row in rows {
        let sev = match row[5].as_str() {
            "ok" => Severity::Pass,
            "warn" => Severity::Warn,
            _ => Severity::Fail,
        };
        let text = line(&row);
        if sev == Severity::Pass {
            let _ = writeln!(out, "{text}");
        } else {
            let _ = writeln!(out, "{}", p.severity(sev, &text));
        }
    }
}

/// "00000000:3B:00.0" and "0000:3b:00.0" alike → "3b:00".
fn bus_key(bus: &str) -> String {
    let lower = bus.trim().to_ascii_lowercase();
    let no_fn = lower.split('.').next().unwrap_or(&lower).to_string();
    let parts: Vec<&str> = no_fn.split(':').collect();
    match parts.as_slice() {
        [.., b, d] => format!("{b}:{d}"),
        _ => no_fn.clone(),
    }
}

fn header(out: &mut String, r: &Report, from_paste: bool, p: &Paint) {
    let s = &r.facts.system;
    let mut place = if from_paste {
        // A paste may come from Windows or macOS, and names no host: say only what it shows.
        let mut place = String::from("from a paste");
        if let Some(os) = s.os.value() {
            let _ = write!(place, " · {os}");
        }
        if let Some(kernel) = s.kernel.value() {
            let _ = write!(place, " · kernel {kernel}");
        }
        place
    } else {
        let host = s.hostname.value().map_or("unknown host", String::as_str);
        let os = s.os.value().map_or("unknown OS", String::as_str);
        let kernel = s.kernel.value().map_or("unknown kernel", String::as_str);
        format!("{host} · {os} · Linux {kernel} {}", s.arch)
    };
    if let Some(c) = view::in_container(&r.facts) {
        let _ = write!(place, " · {c} container");
    }
    if s.wsl {
        place.push_str(" · WSL");
    }
    let _ = writeln!(
        out,
        "{} {}  {}",
        p.bold("gpu-doctor"),
        r.tool.version,
        p.dim(&format!(
            "matrix {} ({})",
            r.matrix.version, r.matrix.source
        ))
    );
    let _ = writeln!(out, "{}", p.dim(&place));
}

fn overview(out: &mut String, f: &Facts, opts: TextOptions, p: &Paint) {
    let rows = [
        ("GPUs", gpus_line(f)),
        ("Driver", driver_line(f)),
        ("Toolkit", toolkit_line(f)),
        ("PyTorch", torch_line(f)),
    ];
    let _ = writeln!(out);
    for (i, (k, v)) in rows.into_iter().enumerate() {
        // What a paste lacks was not looked for: it is not "not installed".
        let v = match v {
            Line::Seen(v) => v,
            Line::Absent(v) if !opts.from_paste => v,
            Line::Absent(_) => "not shown in the paste".to_string(),
        };
        let _ = writeln!(out, "  {}  {v}", p.bold(&format!("{k:<8}")));
        // One line of health facts per GPU under -v: with eight GPUs they would crowd
        // the default report, whose findings already name any GPU with a problem.
        if i == 0 && opts.verbose {
            for line in gpu_health_lines(f) {
                let _ = writeln!(out, "            {}", p.dim(&line));
            }
        }
    }
}

/// "0 00000000:18:00.0 · 0.5/79.6 GiB · 34 °C · 71/700 W · PCIe Gen5 x16 (max Gen5 x16)
/// · ECC on · persistence on · MIG off · compute default · 0 processes"; facts a GPU does
/// not report are left out.
fn gpu_health_lines(f: &Facts) -> Vec<String> {
    const GIB: f64 = 1024.0 * 1024.0 * 1024.0;
    #[allow(clippy::cast_precision_loss)]
    let gib = |b: u64| b as f64 / GIB;
    let on_off = |b: bool| if b { "on" } else { "off" };
    view::nvml_devices(f)
        .iter()
        .map(|d| {
            let mut parts = vec![format!(
                "{} {}",
                d.index,
                d.pci_bus_id.value().map_or("?", String::as_str)
            )];
            if d.lost {
                parts.push("LOST (NVML_ERROR_GPU_IS_LOST)".into());
            }
            if let (Some(used), Some(total)) =
                (d.memory_used_bytes.value(), d.memory_total_bytes.value())
            {
                parts.push(format!("{:.1}/{:.1} GiB", gib(*used), gib(*total)));
            }
            if let Some(t) = d.temperature_c.value() {
                parts.push(format!("{t} °C"));
            }
            if let (Some(draw), Some(limit)) = (d.power_draw_mw.value(), d.power_limit_mw.value()) {
                parts.push(format!("{}/{} W", draw / 1000, limit / 1000));
            }
            if let Some(l) = d.pcie_link.value() {
                parts.push(format!(
                    "PCIe Gen{} x{} (max Gen{} x{})",
                    l.current_gen, l.current_width, l.max_gen, l.max_width
                ));
            }
            if let Some(e) = d.ecc.value() {
                let unc = e.volatile_uncorrected.value().copied().unwrap_or(0)
                    + e.aggregate_uncorrected.value().copied().unwrap_or(0);
                if unc > 0 {
                    parts.push(format!("ECC on, {unc} uncorrected"));
                } else {
                    parts.push(format!("ECC {}", on_off(e.enabled)));
                }
            }
            if let Some(on) = d.persistence_mode.value() {
                parts.push(format!("persistence {}", on_off(*on)));
            }
            if let Some(m) = d.mig.value() {
                if m.current_enabled {
                    parts.push(format!("MIG on ({} instances)", m.instances.len()));
                } else {
                    parts.push("MIG off".into());
                }
            }
            if let Some(mode) = d.compute_mode.value() {
                parts.push(format!("compute {mode}"));
            }
            if let Some(r) = d.throttle_reasons.value() {
                let active: Vec<&str> = r
                    .iter()
                    .map(String::as_str)
                    .filter(|r| *r != "gpu_idle")
                    .collect();
                if !active.is_empty() {
                    parts.push(format!("throttled: {}", active.join(", ")));
                }
            }
            if let Some(procs) = d.processes.value() {
                parts.push(format!(
                    "{} process{}",
                    procs.len(),
                    if procs.len() == 1 { "" } else { "es" }
                ));
            }
            if let Some(v) = d.vbios.value() {
                parts.push(format!("VBIOS {v}"));
            }
            parts.join(" · ")
        })
        .collect()
}

/// An overview row: a value that was seen, or what stands when nothing was (which a
/// paste's report words differently).
enum Line {
    Seen(String),
    Absent(String),
}

fn gpus_line(f: &Facts) -> Line {
    let devices = view::nvml_devices(f);
    if !devices.is_empty() {
        let mut names: Vec<(String, usize)> = Vec::new();
        for d in devices {
            let cc = d
                .compute_capability
                .value()
                .map(|c| format!(" (sm_{})", c.replace('.', "")))
                .unwrap_or_default();
            let name = format!(
                "{}{cc}",
                d.name.value().map_or("unknown GPU", String::as_str)
            );
            match names.iter_mut().find(|(n, _)| *n == name) {
                Some((_, c)) => *c += 1,
                None => names.push((name, 1)),
            }
        }
        return Line::Seen(
            names
                .iter()
                .map(|(n, c)| format!("{c} × {n}"))
                .collect::<Vec<_>>()
                .join(", "),
        );
    }
    match &f.pci_gpus {
        crate::fact::Fact::Known { value } if !value.is_empty() => {
            let ids: Vec<String> = value
                .iter()
                .map(|g| {
                    format!(
                        "{} at {}",
                        crate::matrix::pci_gpu_label(&g.vendor_id, &g.device_id),
                        g.bus_id
                    )
                })
                .collect();
            Line::Seen(format!(
                "{} on the PCI bus (driver cannot enumerate them): {}",
                value.len(),
                ids.join(", ")
            ))
        }
        crate::fact::Fact::Known { .. } => Line::Absent("none on the PCI bus".into()),
        other => Line::Absent(format!("unknown ({})", other.reason().unwrap_or("?"))),
    }
}

fn driver_line(f: &Facts) -> Line {
    let mut parts = Vec::new();
    match f.kernel_module.version.value() {
        Some(v) => {
            let flavor = match f.kernel_module.flavor.value() {
                Some(crate::facts::kernel_module::ModuleFlavor::Open) => " open",
                Some(crate::facts::kernel_module::ModuleFlavor::Proprietary) => " proprietary",
                None => "",
            };
            parts.push(format!("kernel module {v}{flavor}"));
        }
        None => parts.push("no kernel module".into()),
    }
    if let Some(n) = view::nvml(f) {
        parts.push(if n.init_ok() {
            format!(
                "NVML {}",
                n.driver_version.value().map_or("?", String::as_str)
            )
        } else {
            format!("NVML {}", n.init.name)
        });
    } else if let Some(v) = view::soname_version(f, f.driver_libs.nvml_soname.as_ref()) {
        parts.push(format!("libnvidia-ml {v}"));
    }
    if let Some(c) = view::cuda(f) {
        parts.push(if c.init_ok() {
            format!(
                "CUDA {}",
                c.driver_version.value().map_or("?", String::as_str)
            )
        } else {
            format!("cuInit {} ({})", c.init.name, c.init.code)
        });
    }
    if !view::module_loaded(f) && !view::user_space_present(f) {
        return Line::Absent("not installed".into());
    }
    Line::Seen(parts.join(" · "))
}

fn toolkit_line(f: &Facts) -> Line {
    if f.toolkits.toolkits.is_empty() {
        return Line::Absent("none".into());
    }
    let line = f
        .toolkits
        .toolkits
        .iter()
        .map(|t| {
            format!(
                "{} ({})",
                t.version.value().map_or("unknown version", String::as_str),
                t.root
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    Line::Seen(line)
}

fn torch_line(f: &Facts) -> Line {
    let builds: Vec<String> = f
        .python
        .iter()
        .filter_map(|e| {
            let t = e.torch.first()?;
            let v = t.version.value().map_or("unknown version", String::as_str);
            let cuda = match t.cuda.value() {
                Some(Some(c)) => format!("CUDA {c}"),
                Some(None) => "CPU-only".into(),
                None => "CUDA unknown".into(),
            };
            Some(format!(
                "{v} {cuda} ({})",
                e.interpreter.as_deref().unwrap_or("?")
            ))
        })
        .collect();
    if builds.is_empty() {
        Line::Absent("none found".into())
    } else {
        Line::Seen(builds.join(", "))
    }
}

fn finding(out: &mut String, f: &Finding, expand: bool, verbose: bool, p: &Paint) {
    let _ = writeln!(
        out,
        "  {} {}{}  {}",
        p.severity(f.severity, f.severity.marker()),
        f.summary,
        scope_suffix(f),
        p.dim(f.label())
    );
    if !(expand || verbose) {
        return;
    }
    if !f.details.is_empty() {
        for line in wrap(&f.details, 90) {
            let _ = writeln!(out, "      {line}");
        }
    }
    if verbose {
        for e in &f.evidence {
            let _ = writeln!(out, "      {} {} = {}", p.dim("·"), p.dim(&e.fact), e.value);
        }
    }
    if let Some(fix) = &f.fix {
        let mut lines = wrap(&fix.text, 85).into_iter();
        if let Some(first) = lines.next() {
            let _ = writeln!(out, "      {} {first}", p.bold("fix:"));
        }
        for line in lines {
            let _ = writeln!(out, "           {line}");
        }
        for c in &fix.commands {
            let _ = writeln!(out, "        {} {c}", p.dim("$"));
        }
        for n in &fix.notes {
            let _ = writeln!(out, "        {} {n}", p.dim("·"));
        }
        for o in &fix.alternatives {
            let _ = writeln!(out, "      {} {}", p.bold("or:"), o.title);
            for c in &o.commands {
                let _ = writeln!(out, "        {} {c}", p.dim("$"));
            }
            for n in &o.notes {
                let _ = writeln!(out, "        {} {n}", p.dim("·"));
            }
        }
    }
}

/// The first screen's answer: the verdict with its counts, the cause, and the one next
/// step with its command.
fn summary(out: &mut String, r: &Report, from_paste: bool, p: &Paint) {
    let s = &r.summary;
    let verdict = match s.verdict {
        // A paste that shows no problem has not shown a healthy machine.
        Verdict::Healthy if from_paste => p.severity(Severity::Pass, "✓ no problem shown"),
        Verdict::Healthy => p.severity(Severity::Pass, "✓ healthy"),
        Verdict::Warnings => p.severity(Severity::Warn, "! warnings"),
        Verdict::Failures => p.severity(Severity::Fail, "✗ failures"),
    };
    let count = |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let _ = writeln!(
        out,
        "\n{} {verdict}: {}, {}, {}, {} · exit code {}",
        p.bold("Verdict"),
        count(s.fail, "failure", "failures"),
        count(s.warn, "warning", "warnings"),
        count(s.info, "note", "notes"),
        count(s.pass, "passed", "passed"),
        r.exit_code
    );
    if !r.check_errors.is_empty() {
        let _ = writeln!(
            out,
            "{}   {} could not run: the verdict is incomplete",
            p.bold("Note"),
            count(
                u32::try_from(r.check_errors.len()).unwrap_or(u32::MAX),
                "check",
                "checks"
            )
        );
    }
    let groups = problem_groups(r);
    let Some(top) = groups.first() else {
        let next = if from_paste {
            "nothing to fix in what the paste shows; what it lacks was not judged"
        } else {
            "nothing to fix: CUDA and PyTorch work can run here"
        };
        let _ = writeln!(out, "{}   {next}", p.bold("Next"));
        return;
    };
    let f = top.cause;
    let explains = if top.symptoms.is_empty() {
        String::new()
    } else {
        format!(
            " (explains {} more problem{})",
            top.symptoms.len(),
            if top.symptoms.len() == 1 { "" } else { "s" }
        )
    };
    let _ = writeln!(
        out,
        "{}  {} {}{}{explains}",
        p.bold("Cause"),
        p.severity(f.severity, f.severity.marker()),
        f.summary,
        scope_suffix(f)
    );
    if let Some(fix) = &f.fix {
        let first = fix
            .text
            .split_inclusive(". ")
            .next()
            .unwrap_or(&fix.text)
            .trim();
        for (i, line) in wrap(first, 100).iter().enumerate() {
            let head = if i == 0 {
                p.bold("Next")
            } else {
                "    ".into()
            };
            let _ = writeln!(out, "{head}   {line}");
        }
        if let Some(c) = fix.commands.first() {
            let more = if fix.commands.len() > 1 {
                p.dim(&format!("   (+{} more below)", fix.commands.len() - 1))
            } else {
                String::new()
            };
            let _ = writeln!(out, "       {} {c}{more}", p.dim("$"));
        }
    } else if let Some(c) = crate::checks::catalogue::by_id(&f.id) {
        let _ = writeln!(out, "{}   {}", p.bold("Next"), truncate(c.next_step, 110));
    }
    if groups.len() > 1 {
        let _ = writeln!(
            out,
            "       {}",
            p.dim(&format!(
                "{} other problem{} below",
                groups.len() - 1,
                if groups.len() == 2 { "" } else { "s" }
            ))
        );
    }
}

/// Greedy word wrap; words longer than the width stay whole.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::testutil::{healthy, no_gpu};
    use crate::checks::{evaluate, CheckOptions, Selection};

    fn report(facts: Facts) -> Report {
        let m = crate::checks::testutil::matrix();
        let (f, e) = evaluate(&facts, m, &CheckOptions::default(), &Selection::default());
        Report::new(crate::matrix::bundled(), facts, f, e)
    }

    #[test]
    fn no_gpu_report_reads_well_without_colour() {
        let text = render(&report(no_gpu()), TextOptions::default());
        assert!(text.contains("✗ No NVIDIA GPU on this machine"), "{text}");
        assert!(text.contains("none on the PCI bus"));
        assert!(text.contains("Driver    not installed"), "{text}");
        assert!(text.contains("exit code 2"));
        assert!(!text.contains('\x1b'));
        // The verdict, the cause and the next step come first, before the stack.
        let verdict = text.find("Verdict ✗ failures").unwrap();
        let cause = text.find("Cause  ✗ No NVIDIA GPU on this machine").unwrap();
        let next = text.find("\nNext ").unwrap();
        let stack = text.find("  GPUs ").unwrap();
        assert!(verdict < cause && cause < next && next < stack, "{text}");
        // A pass never shows a failure id: the no-GPU machine passes nothing named
        // driver.not_installed.
        for line in text.lines().filter(|l| l.contains('✓')) {
            assert!(!line.contains("not_installed"), "{line}");
        }
    }

    #[test]
    fn problems_by_cause_with_symptoms_folded_under_it() {
        use crate::checks::testutil::{code, lib};
        // A driver upgraded without a reboot: the libraries are 535, cuInit says 803.
        let mut facts = healthy();
        let dir = "/usr/lib/x86_64-linux-gnu";
        facts.driver_libs.files = vec![
            lib("libnvidia-ml", "535.183.01", dir, false),
            lib("libcuda", "535.183.01", dir, false),
        ];
        facts.driver_libs.nvml_soname = Some(format!("{dir}/libnvidia-ml.so.535.183.01"));
        facts.driver_libs.cuda_soname = Some(format!("{dir}/libcuda.so.535.183.01"));
        facts.driver_api.nvml = crate::fact::Fact::missing("worker not reached");
        facts.driver_api.cuda = crate::fact::Fact::known(crate::facts::driver_api::CudaFacts {
            init: code("CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", 803),
            ..crate::checks::view::cuda(&healthy()).unwrap().clone()
        });
        let r = report(facts);
        let text = render(&r, TextOptions::default());
        let mismatch = r
            .findings
            .iter()
            .find(|f| f.id == "driver.library_mismatch")
            .unwrap();
        assert_eq!(mismatch.severity, Severity::Fail, "{text}");
        assert!(
            text.contains("Cause  ✗ Kernel module and user-space driver versions differ"),
            "{text}"
        );
        let cause_at = text.find("  ✗ Kernel module and user-space").unwrap();
        let symptom_at = text
            .find("      ↳ ✗ CUDA reports a driver mismatch (803)")
            .unwrap();
        assert!(cause_at < symptom_at, "{text}");
        assert_eq!(r.exit_code, super::super::exit::FAILURES);
    }

    #[test]
    fn passes_fold_into_one_line_per_area_unless_verbose() {
        let r = report(healthy());
        let plain = render(&r, TextOptions::default());
        assert_eq!(
            plain.matches('✓').count(),
            plain.matches("\n  ✓ ").count() + 1,
            "{plain}"
        );
        let areas: std::collections::BTreeSet<&str> = r
            .findings
            .iter()
            .filter(|f| f.severity == Severity::Pass)
            .map(Finding::area)
            .collect();
        assert_eq!(plain.matches("\n  ✓ ").count(), areas.len(), "{plain}");
        assert!(plain.contains("Next   nothing to fix"), "{plain}");
        assert!(plain.contains("  GPU Name"), "the GPU table: {plain}");
        let verbose = render(
            &r,
            TextOptions {
                color: false,
                verbose: true,
                from_paste: false,
            },
        );
        let passes = r
            .findings
            .iter()
            .filter(|f| f.severity == Severity::Pass)
            .count();
        assert_eq!(verbose.matches("\n  ✓ ").count(), passes, "{verbose}");
    }

    #[test]
    fn healthy_report_lists_the_stack() {
        let text = render(
            &report(healthy()),
            TextOptions {
                color: true,
                verbose: true,
                from_paste: false,
            },
        );
        assert!(text.contains("1 × NVIDIA H100 80GB HBM3 (sm_90)"), "{text}");
        assert!(
            text.contains("kernel module 580.95.05 open · NVML 580.95.05 · CUDA 13.0"),
            "{text}"
        );
        assert!(text.contains("2.4.1+cu124 CUDA 12.4 (/opt/venv/bin/python)"));
        assert!(
            text.contains("0 00000000:18:00.0 · 0.5/79.6 GiB · 34 °C · 71/700 W · PCIe Gen5 x16 (max Gen5 x16) · ECC on · persistence on · MIG off · compute default · 0 processes"),
            "{text}"
        );
        assert!(text.contains('\x1b'));
        assert!(text.contains("exit code 0"));
        let plain = render(&report(healthy()), TextOptions::default());
        assert!(
            !plain.contains("PCIe Gen"),
            "health lines only under -v: {plain}"
        );
    }

    #[test]
    fn wraps_words() {
        assert_eq!(wrap("aaa bbb ccc", 7), vec!["aaa bbb", "ccc"]);
        assert_eq!(wrap("", 7), Vec::<String>::new());
    }
}
