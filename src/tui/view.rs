//! Draws the whole screen from the state. Pure: it reads `&App` and writes the frame.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};
use ratatui::Frame;

use super::app::{stage_names, App, Load, Overlay, Pane, StageState};
use super::keymap::{label, Action};
use super::layout;
use super::widgets::detail::Detail;
use super::widgets::ellipsis::fit_line;
use super::widgets::environment::EnvironmentView;
use super::widgets::findings::FindingsList;
use super::widgets::gpu_table::GpuTable;
use super::widgets::header::{Header, Tabs};
use super::widgets::help::Help;
use super::widgets::picker::Picker;
use super::widgets::probe_log::ProbeLog;
use super::widgets::theme::{spinner, Theme};

pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    let theme = Theme { color: app.color };
    if layout::too_small(area) {
        frame.render_widget(
            Paragraph::new(format!(
                "gpu-doctor needs at least {}×{}; this terminal is {}×{}. q quits.",
                layout::MIN_SIZE.0,
                layout::MIN_SIZE.1,
                area.width,
                area.height
            ))
            .wrap(Wrap { trim: true }),
            area,
        );
        return;
    }
    let r = layout::regions(area, app);
    frame.render_widget(&Header { app, theme }, r.header);
    frame.render_widget(&Tabs { app, theme }, r.tabs);
    if app.report.is_none() {
        let body = Rect {
            y: r.tabs.bottom(),
            height: r.footer.y.saturating_sub(r.tabs.bottom()),
            ..area
        };
        frame.render_widget(&Loading { app, theme }, body);
    } else {
        if let Some(g) = r.gpus {
            frame.render_widget(&GpuTable { app, theme }, g);
        }
        if let Some(f) = r.findings {
            frame.render_widget(&FindingsList { app, theme }, f);
        }
        if let Some(d) = r.detail {
            frame.render_widget(&Detail { app, theme }, d);
        }
        if let Some(b) = r.body {
            match app.focus {
                Pane::ProbeLog => frame.render_widget(&ProbeLog { app, theme }, b),
                _ => frame.render_widget(&EnvironmentView { app, theme }, b),
            }
        }
    }
    frame.render_widget(&Footer { app, theme }, r.footer);
    match app.overlay {
        Some(Overlay::Help) => frame.render_widget(&Help { theme }, area),
        Some(Overlay::Picker) => frame.render_widget(&Picker { app, theme }, area),
        None => {}
    }
}

struct Loading<'a> {
    app: &'a App,
    theme: Theme,
}

impl Widget for &Loading<'_> {
    fn render(self, area: Rect, buf: &mut ratatui::buffer::Buffer) {
        let t = self.theme;
        let mut lines = Vec::new();
        match &self.app.load {
            Load::Gathering {
                started, stages, ..
            } => {
                let secs = self.app.tick.saturating_sub(*started) as f64 / 10.0;
                lines.push(Line::from(Span::styled(
                    format!("Gathering facts about this machine… {secs:.1} s"),
                    t.bold(),
                )));
                for (name, state) in stage_names().zip(stages) {
                    let mark = match state {
                        StageState::Waiting => "·".to_string(),
                        StageState::Running => spinner(self.app.tick).to_string(),
                        StageState::Done => "✓".to_string(),
                    };
                    lines.push(Line::from(format!("  {mark} {name}")));
                }
                lines.push(Line::from(Span::styled(
                    "The driver worker has a time limit; --deep runs each Python interpreter.",
                    t.dim(),
                )));
            }
            Load::Failed(e) => {
                lines.push(Line::from(Span::styled(
                    "gpu-doctor could not produce a report",
                    t.bold(),
                )));
                lines.push(Line::from(e.clone()));
                lines.push(Line::from("r tries again · q quits (exit code 3)"));
            }
            Load::Ready => {}
        }
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .render(area, buf);
    }
}

struct Footer<'a> {
    app: &'a App,
    theme: Theme,
}

impl Widget for &Footer<'_> {
    fn render(self, area: Rect, buf: &mut ratatui::buffer::Buffer) {
        let app = self.app;
        let line = if app.filter_editing {
            Line::from(format!("/{}▏  Enter keeps · Esc clears", app.filter))
        } else if let Some(s) = &app.status {
            Line::from(s.clone())
        } else if let (Some(g), Pane::Findings) = (&app.gpu_scope, app.focus) {
            let b = |k: &'static str| Span::styled(k, self.theme.bold());
            Line::from(vec![
                Span::raw(format!("{}'s findings  ", g.label())),
                b("Esc"),
                Span::raw(if app.filter.is_empty() {
                    " back to the GPUs  "
                } else {
                    " clears the filter  "
                }),
                b("Enter"),
                Span::raw(" details  "),
                b("/"),
                Span::raw(" filter  "),
                b("q"),
                Span::raw(" quit"),
            ])
        } else {
            // The save target comes early so its name is on screen even at 80 columns.
            let b = |k: &'static str| Span::styled(k, self.theme.bold());
            Line::from(vec![
                b(label(Action::Help)),
                Span::raw(" help  "),
                b("s"),
                Span::raw(format!(" save → {}  ", app.save_path.display())),
                b("Enter"),
                Span::raw(" details  "),
                b("c"),
                Span::raw(" copy fix  "),
                b("/"),
                Span::raw(" filter  "),
                b("Tab"),
                Span::raw(" pane  "),
                b("q"),
                Span::raw(" quit"),
            ])
        };
        Paragraph::new(fit_line(
            line.style(self.theme.dim()),
            usize::from(area.width),
        ))
        .render(area, buf);
    }
}
