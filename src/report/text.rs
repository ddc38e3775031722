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
    header(&mut out, report, &p);
    overview(&mut out, &report.facts, opts.verbose, &p);
    for area in Area::ALL {
        let (area, title) = (area.as_str(), area.heading());
        let in_area: Vec<&Finding> = report
            .findings
            .iter()
            .filter(|f| f.area() == area)
            .collect();
        if in_area.is_empty() {
            continue;
        }
        let _ = writeln!(out, "\n{}", p.bold(title));
        for f in in_area {
            finding(&mut out, f, opts.verbose, &p);
        }
    }
    let other: Vec<&Finding> = report
        .findings
        .iter()
        .filter(|f| Area::parse(f.area()).is_none())
        .collect();
    if !other.is_empty() {
        let _ = writeln!(out, "\n{}", p.bold("Other"));
        for f in other {
            finding(&mut out, f, opts.verbose, &p);
        }
    }
    for e in &report.check_errors {
        let _ = writeln!(
            out,
            "\n{} check {} could not run: {}",
            p.severity(Severity::Fail, "✗"),
            e.id,
            e.message
        );
    }
    summary(&mut out, report, &p);
    out
}

fn header(out: &mut String, r: &Report, p: &Paint) {
    let s = &r.facts.system;
    let host = s.hostname.value().map_or("unknown host", String::as_str);
    let os = s.os.value().map_or("unknown OS", String::as_str);
    let kernel = s.kernel.value().map_or("unknown kernel", String::as_str);
    let mut place = format!("{host} · {os} · Linux {kernel} {}", s.arch);
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

fn overview(out: &mut String, f: &Facts, verbose: bool, p: &Paint) {
    let rows = [
        ("GPUs", gpus_line(f)),
        ("Driver", driver_line(f)),
        ("Toolkit", toolkit_line(f)),
        ("PyTorch", torch_line(f)),
    ];
    let _ = writeln!(out);
    for (i, (k, v)) in rows.into_iter().enumerate() {
        let _ = writeln!(out, "  {}  {v}", p.bold(&format!("{k:<8}")));
        // One line of health facts per GPU under -v: with eight GPUs they would crowd
        // the default report, whose findings already name any GPU with a problem.
        if i == 0 && verbose {
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

fn gpus_line(f: &Facts) -> String {
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
        return names
            .iter()
            .map(|(n, c)| format!("{c} × {n}"))
            .collect::<Vec<_>>()
            .join(", ");
    }
    match &f.pci_gpus {
        crate::fact::Fact::Known { value } if !value.is_empty() => {
            let ids: Vec<String> = value
                .iter()
                .map(|g| format!("10de:{} at {}", g.device_id, g.bus_id))
                .collect();
            format!(
                "{} on the PCI bus (driver cannot enumerate them): {}",
                value.len(),
                ids.join(", ")
            )
        }
        crate::fact::Fact::Known { .. } => "none on the PCI bus".into(),
        other => format!("unknown ({})", other.reason().unwrap_or("?")),
    }
}

fn driver_line(f: &Facts) -> String {
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
        return "not installed".into();
    }
    parts.join(" · ")
}

fn toolkit_line(f: &Facts) -> String {
    if f.toolkits.toolkits.is_empty() {
        return "none".into();
    }
    f.toolkits
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
        .join(", ")
}

fn torch_line(f: &Facts) -> String {
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
        "none found".into()
    } else {
        builds.join(", ")
    }
}

fn finding(out: &mut String, f: &Finding, verbose: bool, p: &Paint) {
    let scope = match f.scope {
        crate::finding::Scope::Host => String::new(),
        ref s => format!(" [{s}]"),
    };
    let _ = writeln!(
        out,
        "  {} {}{}  {}",
        p.severity(f.severity, f.severity.marker()),
        f.summary,
        scope,
        p.dim(&f.id)
    );
    let expand = verbose || f.severity >= Severity::Warn;
    if !expand {
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
    }
}

fn summary(out: &mut String, r: &Report, p: &Paint) {
    let s = &r.summary;
    let verdict = match s.verdict {
        Verdict::Healthy => p.severity(Severity::Pass, "healthy"),
        Verdict::Warnings => p.severity(Severity::Warn, "warnings"),
        Verdict::Failures => p.severity(Severity::Fail, "failures"),
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
        let idx_host = text.find("\nHost\n").unwrap();
        let idx_driver = text.find("\nDriver\n").unwrap();
        assert!(idx_host < idx_driver);
    }

    #[test]
    fn healthy_report_lists_the_stack() {
        let text = render(
            &report(healthy()),
            TextOptions {
                color: true,
                verbose: true,
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
