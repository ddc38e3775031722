//! The detail pane: what is wrong, why it matters, the facts it rests on, and the fix.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use super::theme::Theme;
use crate::finding::Finding;
use crate::tui::app::{App, Pane};
use crate::tui::keymap::{self, Action};

/// How many symptoms a cause's detail lists before "and N more".
const SYMPTOMS_LISTED: usize = 5;

/// The pane's lines before wrapping. `all` is the report's findings, for the cause this
/// finding names and the symptoms it explains.
pub fn lines(f: &Finding, all: &[Finding], t: Theme) -> Vec<Line<'static>> {
    let mut out = vec![
        Line::from(vec![
            Span::styled(format!("{} ", f.severity.marker()), t.severity(f.severity)),
            Span::styled(f.summary.clone(), t.severity(f.severity).patch(t.bold())),
        ]),
        Line::from(Span::styled(
            format!("{} · {} · {}", f.label(), f.severity, f.scope),
            t.dim(),
        )),
    ];
    // Causes over symptoms: a symptom points at what explains it, a cause lists what it
    // explains.
    if let Some(cause) = all.iter().find(|c| c.explains(f)) {
        out.push(Line::default());
        out.push(Line::from(vec![
            Span::styled("Caused by ", t.bold()),
            Span::styled(
                format!("{} ", cause.severity.marker()),
                t.severity(cause.severity),
            ),
            Span::raw(format!("{} ({}): fix that first", cause.summary, cause.id)),
        ]));
    }
    let symptoms: Vec<&Finding> = all.iter().filter(|s| f.explains(s)).collect();
    if !symptoms.is_empty() {
        out.push(Line::default());
        out.push(Line::from(Span::styled(
            format!(
                "Explains {} other finding{}",
                symptoms.len(),
                if symptoms.len() == 1 { "" } else { "s" }
            ),
            t.bold(),
        )));
        for s in symptoms.iter().take(SYMPTOMS_LISTED) {
            let scope = match &s.scope {
                crate::finding::Scope::Host => String::new(),
                sc => format!(" [{sc}]"),
            };
            out.push(Line::from(vec![
                Span::raw("  ↳ "),
                Span::styled(s.severity.marker(), t.severity(s.severity)),
                Span::raw(format!(" {}{scope}", s.summary)),
            ]));
        }
        if symptoms.len() > SYMPTOMS_LISTED {
            out.push(Line::from(Span::styled(
                format!("  and {} more", symptoms.len() - SYMPTOMS_LISTED),
                t.dim(),
            )));
        }
    }
    // The fix first, so it is on screen without scrolling at 80×24.
    out.push(Line::default());
    match &f.fix {
        Some(fix) => {
            out.push(Line::from(Span::styled("Fix", t.bold())));
            out.push(Line::from(fix.text.clone()));
            for c in &fix.commands {
                out.push(Line::from(vec![
                    Span::styled("  $ ", t.dim()),
                    Span::styled(c.clone(), t.bold()),
                ]));
            }
            if !fix.commands.is_empty() {
                out.push(Line::from(Span::styled(
                    format!(
                        "{} copies the command · {} prints it on exit",
                        keymap::label(Action::Copy),
                        keymap::label(Action::PrintFix)
                    ),
                    t.dim(),
                )));
            }
        }
        None if f.severity >= crate::finding::Severity::Warn => out.push(Line::from(Span::styled(
            "No fix command is known; what was seen is below.",
            t.dim(),
        ))),
        None => out.push(Line::from(Span::styled("No fix needed.", t.dim()))),
    }
    if !f.details.is_empty() {
        out.push(Line::default());
        out.push(Line::from(Span::styled("Why it matters", t.bold())));
        out.push(Line::from(f.details.clone()));
    }
    if !f.evidence.is_empty() {
        out.push(Line::default());
        out.push(Line::from(Span::styled("Evidence", t.bold())));
        for e in &f.evidence {
            out.push(Line::from(vec![
                Span::styled(format!("  {} = ", e.fact), t.dim()),
                Span::raw(e.value.clone()),
            ]));
        }
    }
    out
}

pub struct Detail<'a> {
    pub app: &'a App,
    pub theme: Theme,
}

impl Widget for &Detail<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let (app, t) = (self.app, self.theme);
        // Beside the list, a rule keeps the two panes' text apart.
        let area = if app.size.0 >= crate::tui::layout::WIDE {
            let rule = ratatui::widgets::Block::new().borders(ratatui::widgets::Borders::LEFT);
            let inner = rule.inner(area);
            rule.render(area, buf);
            Rect {
                x: inner.x + 1,
                width: inner.width.saturating_sub(1),
                ..inner
            }
        } else {
            area
        };
        let title = Line::from(Span::styled(" Detail ", t.title(app.focus == Pane::Detail)));
        title.render(Rect { height: 1, ..area }, buf);
        let body = Rect {
            y: area.y + 1,
            height: area.height.saturating_sub(1),
            ..area
        };
        let all = app.report.as_ref().map_or(&[][..], |r| &r.findings[..]);
        let content = match app.selected_finding() {
            Some(f) => lines(f, all, t),
            None => vec![Line::from(
                "Select a finding to see what is wrong and how to fix it.",
            )],
        };
        Paragraph::new(content)
            .wrap(Wrap { trim: false })
            .scroll((app.detail_scroll, 0))
            .render(body, buf);
    }
}
