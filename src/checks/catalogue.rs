//! The check catalogue: what each check is, declared once beside its function (a
//! `pub const AREA_NAME: Check` in the check's module) and listed in [`super::ALL`].
//! `gpu-doctor checks`, the README's table, explain's known ids, diagnose's "not in the
//! paste" findings and the report's area headings all read it; findings are made from the
//! definitions ([`Check::finding`]), so an id cannot be mistyped.

use std::fmt::Write as _;

use schemars::JsonSchema;
use serde::Serialize;

use super::Ctx;
use crate::finding::{Finding, Severity};

/// The part of the machine a check is about: the first half of its id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Area {
    Host,
    Driver,
    Toolkit,
    Torch,
    Ext,
    Gpu,
    Env,
    Probe,
}

impl Area {
    /// Every area, in report order.
    pub const ALL: [Area; 8] = [
        Area::Host,
        Area::Driver,
        Area::Toolkit,
        Area::Torch,
        Area::Ext,
        Area::Gpu,
        Area::Env,
        Area::Probe,
    ];

    /// The id prefix ("driver").
    pub const fn as_str(self) -> &'static str {
        match self {
            Area::Host => "host",
            Area::Driver => "driver",
            Area::Toolkit => "toolkit",
            Area::Torch => "torch",
            Area::Ext => "ext",
            Area::Gpu => "gpu",
            Area::Env => "env",
            Area::Probe => "probe",
        }
    }

    /// The report's heading for the area.
    pub const fn heading(self) -> &'static str {
        match self {
            Area::Host => "Host",
            Area::Driver => "Driver",
            Area::Toolkit => "CUDA toolkit",
            Area::Torch => "PyTorch",
            Area::Ext => "Extensions",
            Area::Gpu => "GPUs",
            Area::Env => "Environment",
            Area::Probe => "Probes",
        }
    }

    pub fn parse(s: &str) -> Option<Area> {
        Area::ALL.into_iter().find(|a| a.as_str() == s)
    }
}

pub use crate::finding::Action; // moved: src/finding.rs

/// What a collect_env paste lacks for a check: the fact, and how to get it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct PasteGap {
    pub what: &'static str,
    pub how: &'static str,
}

/// One check: its identity, what it means, and the function that judges it.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Check {
    /// The stable finding id it emits ("driver.module_not_loaded").
    pub id: &'static str,
    /// A neutral name: what is checked, not what fails ("driver.kernel_module").
    pub name: &'static str,
    pub area: Area,
    /// What passing means, one line.
    pub title: &'static str,
    /// What makes it fail (the README's "what fails it").
    pub failing: &'static str,
    /// Why that matters.
    pub why: &'static str,
    /// The generic next step; the finding's fix is the exact one for the machine.
    pub next_step: &'static str,
    pub action: Action,
    /// The facts it reads (top-level keys of the report's `facts`, plus "matrix" and
    /// "options").
    pub reads: &'static [&'static str],
    /// What a collect_env paste lacks for it (`diagnose` reports it as not judged).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_in_paste: Option<PasteGap>,
    #[serde(skip)]
    pub run: fn(&Ctx) -> Vec<Finding>,
}

impl Check {
    /// A finding of this check.
    pub fn finding(&self, severity: Severity, summary: impl Into<String>) -> Finding {
        let mut f = Finding::new(self.id, severity, summary);
        f.check = self.name.to_string();
        f
    }
}

/// The check with this id.
pub fn by_id(id: &str) -> Option<&'static Check> {
    super::ALL.iter().copied().find(|c| c.id == id)
}

/// The check with this neutral name.
pub fn by_name(name: &str) -> Option<&'static Check> {
    super::ALL.iter().copied().find(|c| c.name == name)
}

/// `gpu-doctor checks --json`: every check, in report order.
pub fn json() -> String {
    #[derive(Serialize)]
    struct Out {
        checks: &'static [&'static Check],
    }
    serde_json::to_string_pretty(&Out { checks: super::ALL }).unwrap_or_default()
}

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// `gpu-doctor checks --markdown`: the README's table of checks.
pub fn markdown() -> String {
    let mut out = String::from("| id | what fails it | action |\n|---|---|---|\n");
    for c in super::ALL {
        let _ = writeln!(
            out,
            "| `{}` | {} | `{}` |",
            c.id,
            cell(c.failing),
            c.action.as_str()
        );
    }
    out
}

/// `gpu-doctor checks`: one line per check, id and title.
pub fn text() -> String {
    let width = super::ALL.iter().map(|c| c.id.len()).max().unwrap_or(0);
    super::ALL
        .iter()
        .map(|c| format!("{:<width$}  {}\n", c.id, c.title))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn area_is_the_id_prefix_and_names_are_neutral_and_unique() {
        let mut names = Vec::new();
        for c in super::super::ALL {
            assert_eq!(c.id.split('.').next(), Some(c.area.as_str()), "{}", c.id);
            assert_eq!(
                c.name.split('.').next(),
                Some(c.area.as_str()),
                "{}",
                c.name
            );
            assert!(
                c.name
                    .split_once('.')
                    .is_some_and(|(_, n)| n.chars().all(|ch| ch.is_ascii_lowercase() || ch == '_')),
                "{}",
                c.name
            );
            for text in [c.title, c.failing, c.why, c.next_step] {
                assert!(!text.trim().is_empty(), "{}", c.id);
            }
            assert!(!c.reads.is_empty(), "{}", c.id);
            names.push(c.name);
        }
        let n = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), n, "neutral names must be unique");
    }

    #[test]
    fn by_id_finds_every_check_and_nothing_else() {
        for c in super::super::ALL {
            assert_eq!(by_id(c.id).map(|d| d.name), Some(c.name));
        }
        assert!(by_id("area.snake_case").is_none());
    }

    #[test]
    fn json_lists_every_check_with_area_name_title_and_action() {
        let v: serde_json::Value = serde_json::from_str(&json()).unwrap();
        let checks = v["checks"].as_array().unwrap();
        assert_eq!(checks.len(), super::super::ALL.len());
        let probe = checks
            .iter()
            .find(|c| c["id"] == "driver.module_not_loaded")
            .unwrap();
        assert_eq!(probe["area"], "driver");
        assert_eq!(probe["name"], "driver.kernel_module");
        assert_eq!(probe["action"], "fix_software");
        assert_eq!(probe["title"], "the NVIDIA kernel module is loaded");
        assert!(probe.get("run").is_none());
    }

    #[test]
    fn markdown_has_one_row_per_check_and_escapes_pipes() {
        let md = markdown();
        assert_eq!(md.lines().count(), super::super::ALL.len() + 2);
        assert_eq!(cell("a|b"), "a\\|b");
    }
}
