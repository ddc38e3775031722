//! The keymap as data: every binding is a row of [`BINDINGS`]; key handling and the help
//! overlay both read that table, so the help can never disagree with the keys.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Up,
    Down,
    PageUp,
    PageDown,
    Top,
    Bottom,
    NextPane,
    PrevPane,
    Open,
    /// Unfold a cause's symptoms; elsewhere the same as `Open`.
    Expand,
    Back,
    /// Back one level (overlay, detail, a GPU's findings, the filter, another pane); at
    /// the top level, quit.
    Escape,
    Rerun,
    Pick,
    Toggle,
    Filter,
    Save,
    Copy,
    PrintFix,
    Help,
    Quit,
}

/// Where a binding appears in the help overlay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    Move,
    Panes,
    Act,
}

impl Group {
    pub const ALL: [Group; 3] = [Group::Move, Group::Panes, Group::Act];

    pub fn title(self) -> &'static str {
        match self {
            Group::Move => "Move",
            Group::Panes => "Panes",
            Group::Act => "Actions",
        }
    }
}

pub struct Binding {
    pub keys: &'static [(KeyCode, KeyModifiers)],
    /// How the keys are written in the help.
    pub label: &'static str,
    pub action: Action,
    pub help: &'static str,
    pub group: Group,
}

const NONE: KeyModifiers = KeyModifiers::NONE;
const SHIFT: KeyModifiers = KeyModifiers::SHIFT;
const CTRL: KeyModifiers = KeyModifiers::CONTROL;

pub const BINDINGS: &[Binding] = &[
    Binding {
        keys: &[(KeyCode::Up, NONE), (KeyCode::Char('k'), NONE)],
        label: "↑ k",
        action: Action::Up,
        help: "previous / scroll up",
        group: Group::Move,
    },
    Binding {
        keys: &[(KeyCode::Down, NONE), (KeyCode::Char('j'), NONE)],
        label: "↓ j",
        action: Action::Down,
        help: "next / scroll down",
        group: Group::Move,
    },
    Binding {
        keys: &[(KeyCode::PageUp, NONE)],
        label: "PgUp",
        action: Action::PageUp,
        help: "page up",
        group: Group::Move,
    },
    Binding {
        keys: &[(KeyCode::PageDown, NONE)],
        label: "PgDn",
        action: Action::PageDown,
        help: "page down",
        group: Group::Move,
    },
    Binding {
        keys: &[(KeyCode::Home, NONE), (KeyCode::Char('g'), NONE)],
        label: "Home g",
        action: Action::Top,
        help: "first",
        group: Group::Move,
    },
    Binding {
        keys: &[
            (KeyCode::End, NONE),
            (KeyCode::Char('G'), SHIFT),
            (KeyCode::Char('G'), NONE),
        ],
        label: "End G",
        action: Action::Bottom,
        help: "last",
        group: Group::Move,
    },
    Binding {
        keys: &[(KeyCode::Tab, NONE)],
        label: "Tab",
        action: Action::NextPane,
        help: "next pane",
        group: Group::Panes,
    },
    Binding {
        keys: &[(KeyCode::BackTab, SHIFT), (KeyCode::BackTab, NONE)],
        label: "Shift-Tab",
        action: Action::PrevPane,
        help: "previous pane",
        group: Group::Panes,
    },
    Binding {
        keys: &[(KeyCode::Enter, NONE)],
        label: "Enter",
        action: Action::Open,
        help: "details / GPU's findings",
        group: Group::Panes,
    },
    Binding {
        keys: &[(KeyCode::Right, NONE), (KeyCode::Char('l'), NONE)],
        label: "→ l",
        action: Action::Expand,
        help: "unfold a cause / details",
        group: Group::Panes,
    },
    Binding {
        keys: &[
            (KeyCode::Left, NONE),
            (KeyCode::Char('h'), NONE),
            (KeyCode::Backspace, NONE),
        ],
        label: "← h",
        action: Action::Back,
        help: "fold / to the findings",
        group: Group::Panes,
    },
    Binding {
        keys: &[(KeyCode::Esc, NONE)],
        label: "Esc",
        action: Action::Escape,
        help: "back one level",
        group: Group::Panes,
    },
    Binding {
        keys: &[(KeyCode::Char('/'), NONE)],
        label: "/",
        action: Action::Filter,
        help: "filter the findings",
        group: Group::Act,
    },
    Binding {
        keys: &[(KeyCode::Char('c'), NONE)],
        label: "c",
        action: Action::Copy,
        help: "copy the fix (OSC 52)",
        group: Group::Act,
    },
    Binding {
        keys: &[(KeyCode::Char('y'), NONE)],
        label: "y",
        action: Action::PrintFix,
        help: "print the fix on exit",
        group: Group::Act,
    },
    Binding {
        keys: &[(KeyCode::Char('r'), NONE), (KeyCode::F(5), NONE)],
        label: "r",
        action: Action::Rerun,
        help: "run again (picked probes)",
        group: Group::Act,
    },
    Binding {
        keys: &[(KeyCode::Char('p'), NONE)],
        label: "p",
        action: Action::Pick,
        help: "pick GPUs and probes",
        group: Group::Act,
    },
    Binding {
        keys: &[(KeyCode::Char(' '), NONE)],
        label: "Space",
        action: Action::Toggle,
        help: "toggle in the picker",
        group: Group::Act,
    },
    Binding {
        keys: &[(KeyCode::Char('s'), NONE)],
        label: "s",
        action: Action::Save,
        help: "save the JSON report",
        group: Group::Act,
    },
    Binding {
        keys: &[
            (KeyCode::Char('?'), NONE),
            (KeyCode::Char('?'), SHIFT),
            (KeyCode::F(1), NONE),
        ],
        label: "?",
        action: Action::Help,
        help: "this help",
        group: Group::Act,
    },
    Binding {
        keys: &[(KeyCode::Char('q'), NONE), (KeyCode::Char('c'), CTRL)],
        label: "q Ctrl-C",
        action: Action::Quit,
        help: "quit (Esc at the top too)",
        group: Group::Act,
    },
];

/// The action bound to a key press, if any.
pub fn action_for(key: &KeyEvent) -> Option<Action> {
    BINDINGS
        .iter()
        .find(|b| {
            b.keys
                .iter()
                .any(|(code, mods)| *code == key.code && *mods == key.modifiers)
        })
        .map(|b| b.action)
}

/// The help label of an action's keys ("↑ k").
pub fn label(action: Action) -> &'static str {
    BINDINGS
        .iter()
        .find(|b| b.action == action)
        .map_or("", |b| b.label)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, mods)
    }

    #[test]
    fn issue_keys_are_bound() {
        let cases = [
            (KeyCode::Up, NONE, Action::Up),
            (KeyCode::Char('k'), NONE, Action::Up),
            (KeyCode::Char('j'), NONE, Action::Down),
            (KeyCode::Tab, NONE, Action::NextPane),
            (KeyCode::BackTab, SHIFT, Action::PrevPane),
            (KeyCode::Enter, NONE, Action::Open),
            (KeyCode::Char('r'), NONE, Action::Rerun),
            (KeyCode::Char('p'), NONE, Action::Pick),
            (KeyCode::Char('/'), NONE, Action::Filter),
            (KeyCode::Char('s'), NONE, Action::Save),
            (KeyCode::Char('c'), NONE, Action::Copy),
            (KeyCode::Char('c'), CTRL, Action::Quit),
            (KeyCode::Char('y'), NONE, Action::PrintFix),
            (KeyCode::Char('?'), NONE, Action::Help),
            (KeyCode::Char('q'), NONE, Action::Quit),
            (KeyCode::Esc, NONE, Action::Escape),
        ];
        for (code, mods, want) in cases {
            assert_eq!(action_for(&key(code, mods)), Some(want), "{code:?}");
        }
        assert_eq!(action_for(&key(KeyCode::Char('x'), NONE)), None);
    }

    #[test]
    fn help_texts_fit_two_columns_at_80() {
        for b in BINDINGS {
            assert!(b.help.chars().count() <= 25, "{}", b.help);
            assert!(b.label.chars().count() <= 12, "{}", b.label);
        }
    }

    #[test]
    fn the_readme_names_every_key() {
        let readme = include_str!("../../README.md");
        let section = readme
            .split("## Terminal UI")
            .nth(1)
            .and_then(|s| s.split("\n## ").next())
            .unwrap_or_default();
        for b in BINDINGS {
            for token in b.label.split_whitespace() {
                assert!(
                    section.contains(token),
                    "README lacks {token:?} ({})",
                    b.help
                );
            }
        }
    }

    #[test]
    fn no_key_is_bound_twice() {
        let mut seen = Vec::new();
        for b in BINDINGS {
            for k in b.keys {
                assert!(!seen.contains(k), "{k:?} bound twice");
                seen.push(*k);
            }
        }
    }
}
