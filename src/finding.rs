//! A finding: one judgement about the machine, with a stable id, a severity, the facts
//! it rests on and the fix.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Pass,
    Info,
    Warn,
    Fail,
}

impl Severity {
    pub fn marker(self) -> &'static str {
        match self {
            Severity::Pass => "✓",
            Severity::Info => "·",
            Severity::Warn => "!",
            Severity::Fail => "✗",
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Pass => "pass",
            Severity::Info => "info",
            Severity::Warn => "warn",
            Severity::Fail => "fail",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a finding is about.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Scope {
    Host,
    /// A GPU by NVML index (or PCI bus id when the driver cannot enumerate it).
    Gpu {
        index: Option<u32>,
        pci_bus_id: Option<String>,
    },
    /// A Python environment, by interpreter (or prefix) path.
    Python {
        interpreter: String,
    },
    /// A CUDA toolkit, by root.
    Toolkit {
        root: String,
    },
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scope::Host => f.write_str("host"),
            Scope::Gpu { index: Some(i), .. } => write!(f, "GPU {i}"),
            Scope::Gpu {
                pci_bus_id: Some(b),
                ..
            } => write!(f, "GPU {b}"),
            Scope::Gpu { .. } => f.write_str("GPU"),
            Scope::Python { interpreter } => write!(f, "python {interpreter}"),
            Scope::Toolkit { root } => write!(f, "toolkit {root}"),
        }
    }
}

/// What a scheduler should do about a failing check (shared/reference/finding-ids.md,
/// "Actions"); the finding's fix says how. An action never changes meaning.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    None,
    /// Install, upgrade or configure software; no reboot.
    FixSoftware,
    RestartApp,
    ResetGpu,
    Reboot,
    /// Take the node out of scheduling.
    Drain,
    /// Replace or RMA.
    InspectHardware,
}

impl Action {
    pub const fn as_str(self) -> &'static str {
        match self {
            Action::None => "none",
            Action::FixSoftware => "fix_software",
            Action::RestartApp => "restart_app",
            Action::ResetGpu => "reset_gpu",
            Action::Reboot => "reboot",
            Action::Drain => "drain",
            Action::InspectHardware => "inspect_hardware",
        }
    }

    /// The action named by its string (`compat-matrix/xid.toml` writes them so).
    pub fn parse(s: &str) -> Option<Action> {
        [
            Action::None,
            Action::FixSoftware,
            Action::RestartApp,
            Action::ResetGpu,
            Action::Reboot,
            Action::Drain,
            Action::InspectHardware,
        ]
        .into_iter()
        .find(|a| a.as_str() == s)
    }
}

/// One fact a finding rests on: where it is in the facts, and its value as shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Evidence {
    /// Dotted path into the report's `facts`, e.g. "kernel_module.version".
    pub fact: String,
    pub value: String,
}

/// The remedy: what to do, and the exact command where one exists.
///
/// In the JSON report (schema 2) a fix is `{text, commands, options[]}`: `options[0]` is
/// this fix's own way (`commands`, runnable as they are), the others its alternatives,
/// each with runnable `commands` and prose `notes` kept apart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(from = "FixWire", into = "FixWire")]
pub struct Fix {
    pub text: String,
    pub commands: Vec<String>,
    /// What is not a command here (a command for the host when this is a container).
    pub notes: Vec<String>,
    /// Other ways to the same end (keep the driver and install another PyTorch build).
    pub alternatives: Vec<FixOption>,
}

/// One way to fix a finding: commands to run as they are, and notes that are not
/// commands (where to run them, what to check after).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FixOption {
    /// What this way does, one line.
    pub title: String,
    #[serde(default)]
    pub commands: Vec<String>,
    #[serde(default)]
    pub notes: Vec<String>,
}

impl Fix {
    /// Every way to fix it, the fix's own first.
    pub fn options(&self) -> Vec<FixOption> {
        let mut out = vec![FixOption {
            title: self.text.clone(),
            commands: self.commands.clone(),
            notes: self.notes.clone(),
        }];
        out.extend(self.alternatives.iter().cloned());
        out
    }
}

#[derive(Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "Fix")]
struct FixWire {
    text: String,
    /// The first option's commands (as schema 1 wrote them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    commands: Vec<String>,
    /// Every way to fix it, the preferred first (absent in schema 1 reports).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    options: Vec<FixOption>,
}

impl From<Fix> for FixWire {
    fn from(f: Fix) -> FixWire {
        let options = f.options();
        FixWire {
            text: f.text,
            commands: f.commands,
            options,
        }
    }
}

impl From<FixWire> for Fix {
    fn from(w: FixWire) -> Fix {
        let mut options = w.options.into_iter();
        let notes = options.next().map(|o| o.notes).unwrap_or_default();
        Fix {
            text: w.text,
            commands: w.commands,
            notes,
            alternatives: options.collect(),
        }
    }
}

/// Which finding explains another: the cause's failure id and scope (several findings
/// may share an id, one per GPU).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CauseRef {
    pub id: String,
    pub scope: Scope,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(from = "FindingWire", into = "FindingWire")]
pub struct Finding {
    /// Stable id from the finding-id taxonomy, e.g. "driver.library_mismatch": the
    /// check's failure id. The JSON report writes it only on findings that are not
    /// passes (a pass is named by `check`).
    pub id: String,
    /// The check's neutral name ("driver.kernel_module"), what is checked rather than
    /// what fails; empty on findings not made by a catalogue check.
    pub check: String,
    pub severity: Severity,
    pub scope: Scope,
    /// One line.
    pub summary: String,
    /// Why it matters and what exactly was seen.
    pub details: String,
    pub evidence: Vec<Evidence>,
    pub fix: Option<Fix>,
    /// What a scheduler should do (warn and fail findings): the check's action from the
    /// catalogue, or the finding's own where one check covers several (an Xid's code).
    pub action: Option<Action>,
    /// The finding that explains this one (a symptom names its cause: CUDA error 803
    /// under `driver.library_mismatch`); set by `checks::causes` after all checks ran.
    pub caused_by: Option<CauseRef>,
}

/// A finding as the JSON report writes it: `check` always, the failure `id` only on a
/// finding that is not a pass (schema 1 reports carry `id` on every finding and no
/// `check`; both read).
#[derive(Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "Finding")]
struct FindingWire {
    /// The check's neutral name ("driver.kernel_module"): what is checked.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    check: String,
    /// The failure id ("driver.module_not_loaded"), stable across versions; absent on
    /// passes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    id: Option<String>,
    severity: Severity,
    scope: Scope,
    /// One line.
    summary: String,
    /// Why it matters and what exactly was seen.
    #[serde(default)]
    details: String,
    #[serde(default)]
    evidence: Vec<Evidence>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    fix: Option<Fix>,
    /// What a scheduler should do (warn and fail findings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    action: Option<Action>,
    /// The finding that explains this one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    caused_by: Option<CauseRef>,
}

impl From<Finding> for FindingWire {
    fn from(f: Finding) -> FindingWire {
        let id = (f.severity != Severity::Pass || f.check.is_empty()).then_some(f.id);
        FindingWire {
            check: f.check,
            id,
            severity: f.severity,
            scope: f.scope,
            summary: f.summary,
            details: f.details,
            evidence: f.evidence,
            fix: f.fix,
            action: f.action,
            caused_by: f.caused_by,
        }
    }
}

impl From<FindingWire> for Finding {
    /// A saved pass has no failure id: it keeps its check's name there, so `id` always
    /// names the check's area and [`Finding::label`] shows the name.
    fn from(w: FindingWire) -> Finding {
        Finding {
            id: w.id.unwrap_or_else(|| w.check.clone()),
            check: w.check,
            severity: w.severity,
            scope: w.scope,
            summary: w.summary,
            details: w.details,
            evidence: w.evidence,
            fix: w.fix,
            action: w.action,
            caused_by: w.caused_by,
        }
    }
}

impl Finding {
    pub fn new(id: &str, severity: Severity, summary: impl Into<String>) -> Self {
        Finding {
            id: id.to_string(),
            severity,
            scope: Scope::Host,
            summary: summary.into(),
            details: String::new(),
            evidence: Vec::new(),
            fix: None,
            action: None,
            check: String::new(),
            caused_by: None,
        }
    }

    /// The name to show for this finding: the failure id when it is not a pass, else the
    /// check's neutral name (so a healthy machine never prints a failure id).
    pub fn label(&self) -> &str {
        if self.severity == Severity::Pass && !self.check.is_empty() {
            &self.check
        } else {
            &self.id
        }
    }

    /// Whether `self` is the cause that `other` names.
    pub fn explains(&self, other: &Finding) -> bool {
        other
            .caused_by
            .as_ref()
            .is_some_and(|c| c.id == self.id && c.scope == self.scope)
    }

    /// This finding's own action, over the check's default.
    pub fn action(mut self, action: Action) -> Self {
        self.action = Some(action);
        self
    }

    pub fn scope(mut self, scope: Scope) -> Self {
        self.scope = scope;
        self
    }

    pub fn details(mut self, details: impl Into<String>) -> Self {
        self.details = details.into();
        self
    }

    pub fn evidence(mut self, fact: &str, value: impl fmt::Display) -> Self {
        self.evidence.push(Evidence {
            fact: fact.to_string(),
            value: value.to_string(),
        });
        self
    }

    pub fn fix(mut self, text: impl Into<String>, commands: &[&str]) -> Self {
        self.fix = Some(Fix {
            text: text.into(),
            commands: commands.iter().map(|c| (*c).to_string()).collect(),
            notes: Vec::new(),
            alternatives: Vec::new(),
        });
        self
    }

    pub fn fix_owned(mut self, text: impl Into<String>, commands: Vec<String>) -> Self {
        self.fix = Some(Fix {
            text: text.into(),
            commands,
            notes: Vec::new(),
            alternatives: Vec::new(),
        });
        self
    }

    /// Other ways to fix it, beside the fix's own (no effect without a fix).
    pub fn alternatives(mut self, options: Vec<FixOption>) -> Self {
        if let Some(fix) = &mut self.fix {
            fix.alternatives.extend(options);
        }
        self
    }

    /// The area of the id ("driver" for "driver.library_mismatch").
    pub fn area(&self) -> &str {
        self.id.split('.').next().unwrap_or(&self.id)
    }
}
