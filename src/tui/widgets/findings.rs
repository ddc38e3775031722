//! The findings list: area headings, then one line per finding with its marker.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::ellipsis::fit_lines;
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
        let shown = app
            .rows
            .iter()
            .filter(|r| matches!(r, Row::Finding(_)))
            .count();
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
                Row::Finding(k) => {
                    let Some(f) = report.findings.get(*k) else {
                        continue;
                    };
                    let scope = match &f.scope {
                        Scope::Host => String::new(),
                        s => format!(" [{s}]"),
                    };
                    let mut line = Line::from(vec![
                        Span::raw("  "),
                        Span::styled(f.severity.marker(), t.severity(f.severity)),
                        Span::raw(format!(" {}{scope}", f.summary)),
                    ]);
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
