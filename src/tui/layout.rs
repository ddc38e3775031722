//! Where each pane sits for a given terminal size. Pure, and shared by the view (to draw)
//! and by `update` (to keep the cursor visible and to map mouse clicks), so both agree.

use ratatui::layout::Rect;

use super::app::{App, Pane};
use super::widgets::gpu_table;

pub const HEADER_HEIGHT: u16 = 3;
/// Side-by-side findings and detail from this width; stacked (one at a time) below it.
pub const WIDE: u16 = 110;
/// Below this the screen only says it is too small.
pub const MIN_SIZE: (u16, u16) = (40, 12);

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Regions {
    pub header: Rect,
    pub tabs: Rect,
    pub gpus: Option<Rect>,
    pub findings: Option<Rect>,
    pub detail: Option<Rect>,
    /// The environment view or the probe log, when focused.
    pub body: Option<Rect>,
    pub footer: Rect,
}

pub fn too_small(area: Rect) -> bool {
    area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1
}

pub fn regions(area: Rect, app: &App) -> Regions {
    let header = Rect {
        height: HEADER_HEIGHT.min(area.height),
        ..area
    };
    let tabs = Rect {
        y: area.y + HEADER_HEIGHT,
        height: 1,
        ..area
    };
    let footer = Rect {
        y: area.bottom().saturating_sub(1),
        height: 1,
        ..area
    };
    let top = tabs.bottom();
    let rest = Rect {
        y: top,
        height: footer.y.saturating_sub(top),
        ..area
    };
    let mut r = Regions {
        header,
        tabs,
        footer,
        ..Regions::default()
    };
    if !app.focus.on_overview() {
        r.body = Some(rest);
        return r;
    }
    let gpu_rows = app
        .report
        .as_ref()
        .map_or(0, |rep| gpu_table::rows(rep).len()) as u16;
    let cap = if rest.height >= 30 { 8 } else { 3 };
    // A title line, the column header, then the rows (or one line saying why none).
    let gpu_height = (2 + gpu_rows.clamp(1, cap)).min(rest.height / 2);
    let gpus = Rect {
        height: gpu_height,
        ..rest
    };
    let below = Rect {
        y: rest.y + gpu_height,
        height: rest.height - gpu_height,
        ..rest
    };
    r.gpus = Some(gpus);
    if area.width >= WIDE {
        let list_w = (area.width * 9 / 20).max(40);
        r.findings = Some(Rect {
            width: list_w,
            ..below
        });
        r.detail = Some(Rect {
            x: below.x + list_w,
            width: below.width - list_w,
            ..below
        });
    } else if app.focus == Pane::Detail {
        r.detail = Some(below);
    } else {
        r.findings = Some(below);
    }
    r
}

/// Rows of content a pane can show (its height less the title line).
pub fn inner_height(rect: Option<Rect>) -> usize {
    rect.map_or(0, |r| usize::from(r.height.saturating_sub(1)))
}

pub fn contains(rect: Option<Rect>, col: u16, row: u16) -> bool {
    rect.is_some_and(|r| col >= r.x && col < r.right() && row >= r.y && row < r.bottom())
}
