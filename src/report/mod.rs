//! Steps 3 and 4: the report (the single source of truth for every renderer) and its
//! renderings.

pub use crate::finding; // moved: src/finding.rs
pub mod labels;
pub mod npd;
pub mod out_file;
pub mod overview;
pub mod prometheus;
pub mod safe_json;
pub mod slurm;
pub mod text;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::checks::CheckError;
use crate::facts::Facts;
use crate::matrix::MatrixInfo;
use finding::{Finding, Severity};

/// Version of the JSON report format. Additive changes keep it; a change that breaks
/// readers bumps it. 2: passes carry `check` and no failure `id`; `generated_at`, `host`,
/// `overview`, `fix.options[]` and `caused_by` (README, "Report schema 1 → 2"). Schema 1
/// reports are still read.
pub const SCHEMA_VERSION: u32 = 2;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Tool {
    pub name: String,
    pub version: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Report {
    pub schema_version: u32,
    /// When the report was made: RFC 3339, UTC, to the second ("2026-11-23T21:40:00Z").
    /// Empty in a schema 1 report.
    #[serde(default)]
    pub generated_at: String,
    pub tool: Tool,
    /// Which machine (redacted under `--redact`).
    #[serde(default)]
    pub host: overview::HostIdentity,
    /// The stack in plain values: GPUs, driver, CUDA, toolkits, torch builds.
    #[serde(default)]
    pub overview: overview::Overview,
    pub matrix: MatrixInfo,
    pub facts: Facts,
    pub findings: Vec<Finding>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub check_errors: Vec<CheckError>,
    pub summary: Summary,
    pub exit_code: i32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
pub struct Summary {
    pub pass: u32,
    pub info: u32,
    pub warn: u32,
    pub fail: u32,
    /// "healthy", "warnings" or "failures".
    pub verdict: Verdict,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    #[default]
    Healthy,
    Warnings,
    Failures,
}

/// Exit codes, as documented in --help and the README.
pub mod exit {
    pub const OK: i32 = 0;
    pub const WARNINGS: i32 = 1;
    pub const FAILURES: i32 = 2;
    pub const NO_VERDICT: i32 = 3;
}

impl Summary {
    pub fn of(findings: &[Finding]) -> Summary {
        let mut s = Summary::default();
        for f in findings {
            match f.severity {
                Severity::Pass => s.pass += 1,
                Severity::Info => s.info += 1,
                Severity::Warn => s.warn += 1,
                Severity::Fail => s.fail += 1,
            }
        }
        s.verdict = if s.fail > 0 {
            Verdict::Failures
        } else if s.warn > 0 {
            Verdict::Warnings
        } else {
            Verdict::Healthy
        };
        s
    }
}

impl Report {
    pub fn new(
        matrix: MatrixInfo,
        facts: Facts,
        mut findings: Vec<Finding>,
        check_errors: Vec<CheckError>,
    ) -> Report {
        sort_findings(&mut findings);
        let summary = Summary::of(&findings);
        let exit_code = exit_code_of(&summary, &check_errors);
        Report {
            schema_version: SCHEMA_VERSION,
            generated_at: labels::rfc3339(std::time::SystemTime::now()),
            tool: Tool {
                name: env!("CARGO_PKG_NAME").to_string(),
                version: env!("CARGO_PKG_VERSION").to_string(),
            },
            host: overview::HostIdentity::of(&facts),
            overview: overview::Overview::of(&facts),
            matrix,
            facts,
            findings,
            check_errors,
            summary,
            exit_code,
        }
    }
}

/// Failures first, then by area and id, so every renderer shows the same order.
fn sort_findings(findings: &mut [Finding]) {
    findings.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then_with(|| a.id.cmp(&b.id))
            .then_with(|| a.scope.cmp(&b.scope))
    });
}

fn exit_code_of(summary: &Summary, check_errors: &[CheckError]) -> i32 {
    if !check_errors.is_empty() {
        return exit::NO_VERDICT;
    }
    match summary.verdict {
        Verdict::Healthy => exit::OK,
        Verdict::Warnings => exit::WARNINGS,
        Verdict::Failures => exit::FAILURES,
    }
}

impl Report {
    /// The findings of the checks `ids` replaced by `judged` (those checks run again over
    /// this report's facts, e.g. `fleet --expect` on a host's report), then the causes
    /// linked, the order, summary and exit code made again as [`Report::new`] makes them.
    /// Everything else (the time, the tool, the facts) stays the host's.
    pub fn rejudge(&mut self, ids: &[&str], judged: Vec<Finding>) {
        self.findings.retain(|f| !ids.contains(&f.id.as_str()));
        self.findings.extend(judged);
        crate::checks::causes::link(&mut self.findings);
        sort_findings(&mut self.findings);
        self.summary = Summary::of(&self.findings);
        self.exit_code = exit_code_of(&self.summary, &self.check_errors);
    }

    /// A report read from JSON made whole: a pass (schema 2) carries no failure id, so its
    /// `id` is the check's again, and a schema 1 finding gets its check's name. Findings of
    /// checks this build does not know keep what they had.
    pub fn restore_ids(&mut self) {
        for f in &mut self.findings {
            if let Some(c) = crate::checks::catalogue::by_name(&f.id) {
                if f.check == f.id {
                    f.id = c.id.to_string();
                }
            }
            if f.check.is_empty() {
                if let Some(c) = crate::checks::catalogue::by_id(&f.id) {
                    f.check = c.name.to_string();
                }
            }
        }
    }

    /// A report read from JSON (schema 1 or 2), ids restored.
    pub fn from_json(bytes: &[u8]) -> Result<Report, serde_json::Error> {
        let mut r: Report = serde_json::from_slice(bytes)?;
        r.restore_ids();
        Ok(r)
    }

    /// The same from a JSON value (a report rewritten as a value, e.g. redacted): every
    /// round trip through JSON must come back through here or [`Report::from_json`], or
    /// passes lose their failure ids.
    pub fn from_value(v: serde_json::Value) -> Result<Report, serde_json::Error> {
        let mut r: Report = serde_json::from_value(v)?;
        r.restore_ids();
        Ok(r)
    }

    /// `--redact`: the machine's identity (machine id hash, boot id) is replaced in the
    /// facts and in `host`; the host name is left to the caller's redaction.
    pub fn redact_identity(&mut self) {
        for f in [
            &mut self.facts.system.machine_id_hash,
            &mut self.facts.system.boot_id,
        ] {
            if f.is_known() {
                *f = crate::fact::Fact::known(crate::facts::REDACTED.to_string());
            }
        }
        self.host = overview::HostIdentity::of(&self.facts);
    }
}

/// Why a saved report could not be used.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("could not read {path:?}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("{path:?} is not a gpu-doctor JSON report: {source}")]
    Parse {
        path: String,
        source: serde_json::Error,
    },
    #[error("{path:?} has report schema {found}, newer than the {SCHEMA_VERSION} this gpu-doctor reads; use a newer gpu-doctor")]
    TooNew { path: String, found: u64 },
    #[error("{path:?} has no schema_version: not a gpu-doctor JSON report")]
    NoSchema { path: String },
}

/// Saved reports larger than this are refused rather than read into memory. A real
/// report is tens of KiB (a busy 8-GPU machine with many environments stays under 1 MiB);
/// judging one costs about ten times its size in memory, so this bound keeps `--from` and
/// `diff` under a few hundred MB whatever they are given.
pub const MAX_REPORT_BYTES: u64 = 16 * 1024 * 1024;

/// The facts of a saved report, to be judged again by this binary's checks.
pub fn load_facts(path: &std::path::Path) -> Result<Facts, LoadError> {
    let name = path.display().to_string();
    let text = read_bounded(path).map_err(|source| LoadError::Read {
        path: name.clone(),
        source,
    })?;
    facts_from_json(&text, &name)
}

fn read_bounded(path: &std::path::Path) -> std::io::Result<String> {
    let buf = crate::host::read_all_bounded(crate::host::open_input(path)?, MAX_REPORT_BYTES)?;
    String::from_utf8(buf).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}

pub fn facts_from_json(text: &str, name: &str) -> Result<Facts, LoadError> {
    #[derive(Deserialize)]
    struct Head {
        schema_version: Option<u64>,
    }
    let parse = |source| LoadError::Parse {
        path: name.to_string(),
        source,
    };
    let head: Head = serde_json::from_str(text).map_err(parse)?;
    match head.schema_version {
        None => {
            return Err(LoadError::NoSchema {
                path: name.to_string(),
            })
        }
        Some(v) if v > u64::from(SCHEMA_VERSION) => {
            return Err(LoadError::TooNew {
                path: name.to_string(),
                found: v,
            })
        }
        Some(_) => {}
    }
    #[derive(Deserialize)]
    struct Saved {
        facts: Facts,
    }
    let saved: Saved = serde_json::from_str(text).map_err(parse)?;
    Ok(saved.facts)
}

/// The problem every one-line rendering leads with (`--slurm`, `--npd`, the fleet's top
/// finding), the same as the text report's "Cause": the most severe root cause, then the one
/// that explains most. A real H100 whose libcuda.so.1 was the stub had the Slurm line name the
/// failed cuInit, the first failure, instead of the stub that explains it.
pub fn lead_cause(r: &Report) -> Option<&crate::finding::Finding> {
    text::problem_groups(r).first().map(|g| g.cause)
}

/// The JSON Schema of the report, generated from the types (assets/report.schema.json
/// is this, checked by a test).
pub fn json_schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(Report)).unwrap_or(serde_json::Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::testutil::healthy;

    #[test]
    fn saved_facts_round_trip() {
        let r = Report::new(crate::matrix::bundled(), healthy(), Vec::new(), Vec::new());
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(facts_from_json(&json, "x").unwrap(), healthy());
    }

    #[test]
    fn bad_saved_reports_are_errors_not_panics() {
        assert!(matches!(
            facts_from_json("not json", "x"),
            Err(LoadError::Parse { .. })
        ));
        assert!(matches!(
            facts_from_json("{}", "x"),
            Err(LoadError::NoSchema { .. })
        ));
        assert!(matches!(
            facts_from_json(r#"{"schema_version": 99}"#, "x"),
            Err(LoadError::TooNew { found: 99, .. })
        ));
        assert!(matches!(
            facts_from_json(r#"{"schema_version": 1, "facts": {"system": 3}}"#, "x"),
            Err(LoadError::Parse { .. })
        ));
        assert!(matches!(
            facts_from_json(r#"{"schema_version": "1"}"#, "x"),
            Err(LoadError::Parse { .. })
        ));
    }

    #[test]
    fn json_round_trips_keep_failure_ids_and_redaction_covers_identity() {
        let facts = {
            let mut f = healthy();
            f.system.machine_id_hash = crate::fact::Fact::known("ab".repeat(16));
            f.system.boot_id = crate::fact::Fact::known("0f-1e".into());
            f
        };
        let (findings, errors) = crate::checks::evaluate(
            &facts,
            crate::checks::testutil::matrix(),
            &crate::checks::CheckOptions::default(),
            &crate::checks::Selection::default(),
        );
        let r = Report::new(crate::matrix::bundled(), facts, findings, errors);
        let v = serde_json::to_value(&r).unwrap();
        let pass = v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["check"] == "driver.installed")
            .unwrap();
        assert!(pass.get("id").is_none(), "{pass}");
        let mut back = Report::from_value(v).unwrap();
        assert_eq!(back, r);
        back.redact_identity();
        assert_eq!(back.host.machine_id_hash.as_deref(), Some("redacted"));
        assert_eq!(back.host.boot_id.as_deref(), Some("redacted"));
        assert_eq!(
            back.facts.system.boot_id.value().map(String::as_str),
            Some("redacted")
        );
    }

    #[test]
    fn exit_codes_follow_the_worst_severity() {
        use finding::{Finding, Severity};
        let mk = |s| {
            Report::new(
                crate::matrix::bundled(),
                healthy(),
                vec![Finding::new("host.x", s, "x")],
                Vec::new(),
            )
        };
        assert_eq!(mk(Severity::Pass).exit_code, exit::OK);
        assert_eq!(mk(Severity::Info).exit_code, exit::OK);
        assert_eq!(mk(Severity::Warn).exit_code, exit::WARNINGS);
        assert_eq!(mk(Severity::Fail).exit_code, exit::FAILURES);
        let errs = vec![crate::checks::CheckError {
            id: "host.x".into(),
            message: "boom".into(),
        }];
        assert_eq!(
            Report::new(crate::matrix::bundled(), healthy(), Vec::new(), errs).exit_code,
            exit::NO_VERDICT
        );
    }
}

/// Replaces control characters (escape sequences, bells, carriage returns) in every
/// string of a JSON value with spaces; newlines stay. Reports carry text from outside
/// (file contents, library names, a remote host's output) that must not drive a terminal.
pub fn defang(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::String(s) => {
            if let std::borrow::Cow::Owned(clean) = defang_text(s) {
                *s = clean;
            }
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(defang),
        serde_json::Value::Object(o) => o.values_mut().for_each(defang),
        _ => {}
    }
}

/// The same for one text: control characters (C0, DEL, C1) other than newlines become
/// spaces. For text outputs that print outside text (explain's excerpts, diff's values).
pub fn defang_text(s: &str) -> std::borrow::Cow<'_, str> {
    if s.chars().any(|c| c.is_control() && c != '\n') {
        std::borrow::Cow::Owned(
            s.chars()
                .map(|c| if c.is_control() && c != '\n' { ' ' } else { c })
                .collect(),
        )
    } else {
        std::borrow::Cow::Borrowed(s)
    }
}

impl Report {
    /// The report as a terminal may show it: every string defanged. (JSON output keeps
    /// the strings as they are; JSON escapes control characters itself.)
    pub fn for_terminal(&self) -> Report {
        let Ok(mut v) = serde_json::to_value(self) else {
            return self.clone();
        };
        defang(&mut v);
        Report::from_value(v).unwrap_or_else(|_| self.clone())
    }
}

#[cfg(test)]
mod defang_tests {
    use super::*;

    #[test]
    fn escape_sequences_never_reach_a_terminal() {
        let mut facts = crate::checks::testutil::healthy();
        facts.system.hostname = crate::fact::Fact::known("evil\u{1b}[2J\u{7}host\nname".into());
        let matrix = crate::checks::testutil::matrix();
        let (findings, errors) = crate::checks::evaluate(
            &facts,
            matrix,
            &crate::checks::CheckOptions::default(),
            &crate::checks::Selection::default(),
        );
        let report = Report::new(matrix.info(), facts, findings, errors);
        let shown = report.for_terminal();
        assert_eq!(
            shown.facts.system.hostname.value().map(String::as_str),
            Some("evil [2J host\nname")
        );
        assert_eq!(shown.findings.len(), report.findings.len());
    }
}
