//! The help overlay, generated from the keymap table.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget};

use super::theme::Theme;
use crate::tui::keymap::{Group, BINDINGS};

pub fn lines(t: Theme) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    for g in Group::ALL {
        out.push(Line::from(Span::styled(g.title(), t.bold())));
        for b in BINDINGS.iter().filter(|b| b.group == g) {
            out.push(Line::from(vec![
                Span::styled(format!("  {:<10}", b.label), t.bold()),
                Span::raw(b.help),
            ]));
        }
    }
    out.push(Line::from(Span::styled(
        "mouse: wheel scrolls, click selects",
        t.dim(),
    )));
    out
}

/// A centred rectangle of at most `w`×`h` inside `area`.
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

pub struct Help {
    pub theme: Theme,
}

impl Widget for &Help {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let content = lines(self.theme);
        let rect = centered(area, 66, content.len() as u16 + 2);
        Clear.render(rect, buf);
        Paragraph::new(content)
            .block(Block::bordered().title(" Keys (any key closes) "))
            .render(rect, buf);
    }
}
