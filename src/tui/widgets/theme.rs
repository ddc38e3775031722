//! Styles. Only the terminal's own palette colours (red, yellow, green, cyan) are used, so
//! the screen reads on light and dark backgrounds; without colour (NO_COLOR, `--color
//! never`) the markers ✓ ! ✗ and bold/reverse carry the meaning alone.

use ratatui::style::{Color, Modifier, Style};

use crate::finding::Severity;
use crate::report::Verdict;

#[derive(Debug, Clone, Copy)]
pub struct Theme {
    pub color: bool,
}

impl Theme {
    pub fn severity(self, s: Severity) -> Style {
        let base = match s {
            Severity::Fail => Style::new().add_modifier(Modifier::BOLD),
            _ => Style::new(),
        };
        if !self.color {
            return base;
        }
        base.fg(match s {
            Severity::Pass => Color::Green,
            Severity::Info => Color::Cyan,
            Severity::Warn => Color::Yellow,
            Severity::Fail => Color::Red,
        })
    }

    pub fn verdict(self, v: Verdict) -> Style {
        self.severity(match v {
            Verdict::Healthy => Severity::Pass,
            Verdict::Warnings => Severity::Warn,
            Verdict::Failures => Severity::Fail,
        })
        .add_modifier(Modifier::BOLD)
    }

    pub fn bold(self) -> Style {
        Style::new().add_modifier(Modifier::BOLD)
    }

    pub fn dim(self) -> Style {
        if self.color {
            Style::new().add_modifier(Modifier::DIM)
        } else {
            Style::new()
        }
    }

    pub fn selected(self) -> Style {
        Style::new().add_modifier(Modifier::REVERSED)
    }

    /// A pane title: reversed when the pane has the focus.
    pub fn title(self, focused: bool) -> Style {
        if focused {
            Style::new().add_modifier(Modifier::BOLD | Modifier::REVERSED)
        } else {
            Style::new().add_modifier(Modifier::BOLD)
        }
    }
}

/// The spinner frame for a tick.
pub fn spinner(tick: u64) -> &'static str {
    const FRAMES: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
    FRAMES[(tick % FRAMES.len() as u64) as usize]
}
