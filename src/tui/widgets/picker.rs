//! The picker overlay: which GPUs and probes the next run uses.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph, Widget};

use super::ellipsis::fit_lines;
use super::help::centered;
use super::theme::Theme;
use crate::tui::app::App;
use crate::tui::update::picker_items;

pub struct Picker<'a> {
    pub app: &'a App,
    pub theme: Theme,
}

impl Widget for &Picker<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let items = picker_items(self.app);
        let rect = centered(area, 60, items.len() as u16 + 3);
        let visible = usize::from(rect.height.saturating_sub(3));
        let skip = self
            .app
            .picker_cursor
            .saturating_sub(visible.saturating_sub(1));
        let mut lines: Vec<Line> = items
            .iter()
            .enumerate()
            .skip(skip)
            .take(visible)
            .map(|(i, (_, label, on))| {
                let line = Line::from(format!("[{}] {label}", if *on { "x" } else { " " }));
                if i == self.app.picker_cursor {
                    line.style(self.theme.selected())
                } else {
                    line
                }
            })
            .collect();
        lines.push(Line::styled(
            "Space toggles · Enter runs · Esc closes",
            self.theme.dim(),
        ));
        Clear.render(rect, buf);
        let lines = fit_lines(lines, usize::from(rect.width.saturating_sub(2)));
        Paragraph::new(lines)
            .block(Block::bordered().title(" Run which GPUs and probes? "))
            .render(rect, buf);
    }
}
