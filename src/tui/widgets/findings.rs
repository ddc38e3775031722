//! The findings list: area headings, then one line per finding with its marker.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::ellipsis::{ellipsize, fit_lines, width};
use super::theme::Theme;
use crate::finding::Scope;
use crate::tui::app::{App, Pane, Row};

pub struct FindingsList<'a> {
    pub app: &'a App,
    pub theme: Theme,
}

impl Widget for &FindingsList<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let (app, t) = (self.app, self.theme);
        let Some(report) = &app.report else {
            return;
        };
        // Folded symptoms are shown findings too, one key away.
        let shown: usize = app
            .rows
            .iter()
            .map(|r| match r {
                Row::Area { .. } => 0,
                Row::Cause {
                    symptoms,
                    expanded: false,
                    ..
                } => 1 + symptoms,
                _ => 1,
            })
            .sum();
        // The GPU of a drill-down and the typed filter are separate, and both are shown.
        let mut title = format!(" Findings ({shown}/{}) ", report.findings.len());
        if let Some(g) = &app.gpu_scope {
            title.push_str(&format!("· {} ", g.label()));
        }
        if app.filter_editing || !app.filter.is_empty() {
            title.push_str(&format!(
                "· /{}{} ",
                app.filter,
                if app.filter_editing { "▏" } else { "" }
            ));
        }
        let mut lines = vec![Line::from(Span::styled(
            title,
            t.title(app.focus == Pane::Findings),
        ))];
        if app.rows.is_empty() {
            lines.push(Line::from(match (&app.gpu_scope, app.filter.is_empty()) {
                (None, true) => "no findings".to_string(),
                (None, false) => "no finding matches the filter (Esc clears it)".to_string(),
                (Some(g), true) => {
                    format!("no findings about {} (Esc: back to the GPUs)", g.label())
                }
                (Some(g), false) => format!(
                    "no finding about {} matches the filter (Esc clears it)",
                    g.label()
                ),
            }));
        }
        let height = usize::from(area.height.saturating_sub(1));
        for (i, row) in app
            .rows
            .iter()
            .enumerate()
            .skip(app.list_offset)
            .take(height)
        {
            let line = match row {
                Row::Area { title, worst } => Line::from(vec![
                    Span::styled(format!("{} ", worst.marker()), t.severity(*worst)),
                    Span::styled(title.to_string(), t.bold()),
                ]),
                finding => {
                    let Some(f) = finding.finding().and_then(|k| report.findings.get(k)) else {
                        continue;
                    };
                    let scope = match &f.scope {
                        Scope::Host => String::new(),
                        s => format!(" [{s}]"),
                    };
                    // A cause carries its fold (▸ folded, ▾ open) where others are
                    // indented; its symptoms sit under it behind ↳.
                    let (lead, tail) = match finding {
                        Row::Cause {
                            symptoms,
                            expanded: false,
                            ..
                        } => ("▸ ".to_string(), format!(" (+{symptoms} caused by this)")),
                        Row::Cause { .. } => ("▾ ".to_string(), String::new()),
                        Row::Symptom { .. } => ("    ↳ ".to_string(), String::new()),
                        _ => ("  ".to_string(), String::new()),
                    };
                    // The fold count stays on screen: the summary is cut before it.
                    let room = usize::from(area.width)
                        .saturating_sub(width(&lead) + width(f.severity.marker()) + width(&tail));
                    let body = format!(" {}{scope}", f.summary);
                    let mut spans = vec![
                        Span::raw(lead),
                        Span::styled(f.severity.marker(), t.severity(f.severity)),
                        Span::raw(ellipsize(&body, room).into_owned()),
                    ];
                    if !tail.is_empty() {
                        spans.push(Span::styled(tail, t.dim()));
                    }
                    let mut line = Line::from(spans);
                    if i == app.selected {
                        line = line.style(t.selected());
                    }
                    line
                }
            };
            lines.push(line);
        }
        Paragraph::new(fit_lines(lines, usize::from(area.width))).render(area, buf);
    }
}
