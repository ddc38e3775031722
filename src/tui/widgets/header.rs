//! The three header lines (verdict and counts, driver, stack) and the pane tabs.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::ellipsis::{fit_line, fit_lines};
use super::theme::{spinner, Theme};
use crate::checks::view;
use crate::facts::kernel_module::ModuleFlavor;
use crate::facts::Facts;
use crate::finding::Severity;
use crate::report::{Report, Verdict};
use crate::tui::app::{App, Pane};

pub struct Header<'a> {
    pub app: &'a App,
    pub theme: Theme,
}

impl Widget for &Header<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let t = self.theme;
        let lines = match &self.app.report {
            Some(r) => lines(r, self.app, t),
            None if self.app.gathering() => vec![Line::from(vec![
                Span::styled("gpu-doctor ", t.bold()),
                Span::raw(format!("{} gathering facts…", spinner(self.app.tick))),
            ])],
            None => vec![Line::from(vec![
                Span::styled("gpu-doctor ", t.bold()),
                Span::raw("no report"),
            ])],
        };
        Paragraph::new(fit_lines(lines, usize::from(area.width))).render(area, buf);
    }
}

fn lines(r: &Report, app: &App, t: Theme) -> Vec<Line<'static>> {
    let s = &r.summary;
    let (marker, word) = match s.verdict {
        Verdict::Healthy => (Severity::Pass.marker(), "HEALTHY"),
        Verdict::Warnings => (Severity::Warn.marker(), "WARNINGS"),
        Verdict::Failures => (Severity::Fail.marker(), "FAILURES"),
    };
    let mut first = vec![
        Span::styled(format!("{marker} {word}"), t.verdict(s.verdict)),
        Span::raw("  "),
        Span::styled(format!("{} ✗", s.fail), t.severity(Severity::Fail)),
        Span::raw(" "),
        Span::styled(format!("{} !", s.warn), t.severity(Severity::Warn)),
        Span::raw(" "),
        Span::styled(format!("{} ·", s.info), t.severity(Severity::Info)),
        Span::raw(" "),
        Span::styled(format!("{} ✓", s.pass), t.severity(Severity::Pass)),
        Span::raw("  "),
        Span::styled(place(&r.facts), t.bold()),
    ];
    if app.gathering() {
        first.push(Span::raw(format!("  {} re-gathering", spinner(app.tick))));
    }
    vec![
        Line::from(first),
        Line::from(vec![
            Span::styled("Driver ", t.bold()),
            Span::raw(driver(&r.facts)),
        ]),
        Line::from(vec![
            Span::styled("Stack  ", t.bold()),
            Span::raw(format!(
                "{} · {} · matrix {} · gpu-doctor {}",
                toolkits(&r.facts),
                torch(&r.facts),
                r.matrix.version,
                r.tool.version
            )),
        ]),
    ]
}

/// Host, OS and where it runs (container, WSL).
pub fn place(f: &Facts) -> String {
    let s = &f.system;
    let mut out = format!(
        "{} · {}",
        s.hostname.value().map_or("unknown host", String::as_str),
        s.os.value().map_or("unknown OS", String::as_str)
    );
    if let Some(c) = view::in_container(f) {
        out.push_str(&format!(" · {c} container"));
    }
    if s.wsl {
        out.push_str(" · WSL");
    }
    out
}

/// Kernel module and user-space versions, and the CUDA version the driver supports.
pub fn driver(f: &Facts) -> String {
    if !view::module_loaded(f) && !view::user_space_present(f) {
        return "not installed: no kernel module, no driver libraries".into();
    }
    let module = match f.kernel_module.version.value() {
        Some(v) => {
            let flavor = match f.kernel_module.flavor.value() {
                Some(ModuleFlavor::Open) => " open",
                Some(ModuleFlavor::Proprietary) => " proprietary",
                None => "",
            };
            format!("module {v}{flavor}")
        }
        None => "module not loaded".into(),
    };
    let user = view::nvml(f)
        .and_then(|n| n.driver_version.value().cloned())
        .or_else(|| view::soname_version(f, f.driver_libs.cuda_soname.as_ref()))
        .or_else(|| view::soname_version(f, f.driver_libs.nvml_soname.as_ref()))
        .map_or("user space unknown".into(), |v| format!("user space {v}"));
    let cuda = view::nvml(f)
        .and_then(|n| n.cuda_driver_version.value().cloned())
        .or_else(|| view::cuda(f).and_then(|c| c.driver_version.value().cloned()))
        .map_or("CUDA unknown".into(), |v| format!("CUDA ≤ {v}"));
    let init = match view::cuda(f) {
        Some(c) if !c.init_ok() => format!(" · cuInit {} ({})", c.init.name, c.init.code),
        _ => String::new(),
    };
    format!("{module} · {user} · {cuda}{init}")
}

fn toolkits(f: &Facts) -> String {
    let v: Vec<String> = f
        .toolkits
        .toolkits
        .iter()
        .map(|t| t.version.value().cloned().unwrap_or_else(|| t.root.clone()))
        .collect();
    if v.is_empty() {
        "no toolkit".into()
    } else {
        format!("toolkit {}", v.join(", "))
    }
}

fn torch(f: &Facts) -> String {
    // The same build in several environments is listed once, with a count.
    let mut builds: Vec<(String, usize)> = Vec::new();
    for t in f.python.iter().filter_map(|e| e.torch.first()) {
        let version = t.version.value().map_or("torch ?", String::as_str);
        let b = match t.cuda.value() {
            Some(Some(c)) => format!("{version} (CUDA {c})"),
            Some(None) => format!("{version} (CPU-only)"),
            None => version.to_string(),
        };
        match builds.iter_mut().find(|(x, _)| *x == b) {
            Some((_, n)) => *n += 1,
            None => builds.push((b, 1)),
        }
    }
    if builds.is_empty() {
        return "no PyTorch".into();
    }
    let v: Vec<String> = builds
        .into_iter()
        .map(|(b, n)| if n > 1 { format!("{b} ×{n}") } else { b })
        .collect();
    format!("torch {}", v.join(", "))
}

/// The tab titles with their x ranges, left to right.
fn tab_spans() -> Vec<(Pane, u16, u16)> {
    let mut x = 0u16;
    Pane::ALL
        .iter()
        .map(|p| {
            let w = p.title().chars().count() as u16 + 2;
            let span = (*p, x, x + w);
            x += w + 1;
            span
        })
        .collect()
}

/// The pane whose tab is at column `col`.
pub fn tab_at(col: u16) -> Option<Pane> {
    tab_spans()
        .into_iter()
        .find(|(_, a, b)| col >= *a && col < *b)
        .map(|(p, _, _)| p)
}

pub struct Tabs<'a> {
    pub app: &'a App,
    pub theme: Theme,
}

impl Widget for &Tabs<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let mut spans = Vec::new();
        for (p, _, _) in tab_spans() {
            let style = if p == self.app.focus {
                self.theme.title(true)
            } else {
                self.theme.dim()
            };
            spans.push(Span::styled(format!(" {} ", p.title()), style));
            spans.push(Span::raw("│"));
        }
        Paragraph::new(fit_line(Line::from(spans), usize::from(area.width))).render(area, buf);
    }
}
