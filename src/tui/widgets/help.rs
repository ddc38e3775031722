//! The help overlay, generated from the keymap table.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget};

use super::ellipsis::{fit_line, fit_lines};
use super::theme::Theme;
use crate::tui::keymap::{Group, BINDINGS};

fn group_lines(g: Group, t: Theme) -> Vec<Line<'static>> {
    let mut out = vec![Line::from(Span::styled(g.title(), t.bold()))];
    for b in BINDINGS.iter().filter(|b| b.group == g) {
        out.push(Line::from(vec![
            Span::styled(format!(" {:<12} ", b.label), t.bold()),
            Span::raw(b.help),
        ]));
    }
    out
}

/// Two columns: moving and panes on the left, actions on the right.
pub fn columns(t: Theme) -> (Vec<Line<'static>>, Vec<Line<'static>>) {
    let mut left = group_lines(Group::Move, t);
    left.extend(group_lines(Group::Panes, t));
    (left, group_lines(Group::Act, t))
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
        let (left, right) = columns(self.theme);
        let rows = left.len().max(right.len()) as u16 + 1;
        let rect = centered(area, 80, rows + 2);
        Clear.render(rect, buf);
        let block = Block::bordered().title(" Keys (any key closes) ");
        let inner = block.inner(rect);
        block.render(rect, buf);
        let half = inner.width / 2;
        Paragraph::new(fit_lines(left, usize::from(half))).render(
            Rect {
                width: half,
                ..inner
            },
            buf,
        );
        Paragraph::new(fit_lines(right, usize::from(inner.width - half))).render(
            Rect {
                x: inner.x + half,
                width: inner.width - half,
                ..inner
            },
            buf,
        );
        let foot = Rect {
            y: inner.bottom().saturating_sub(1),
            height: 1,
            ..inner
        };
        fit_line(
            Line::from(Span::styled(
                "mouse: the wheel scrolls, a click selects",
                self.theme.dim(),
            )),
            usize::from(foot.width),
        )
        .render(foot, buf);
    }
}
