//! Steps 3 and 4: the report (the single source of truth for every renderer) and its
//! renderings.

pub mod finding;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::checks::CheckError;
use crate::facts::Facts;
use crate::matrix::MatrixInfo;
use finding::{Finding, Severity};

/// Version of the JSON report format. Additive changes keep it; a change that breaks
/// readers bumps it.
pub const SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Tool {
    pub name: String,
    pub version: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Report {
    pub schema_version: u32,
    pub tool: Tool,
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
        // Failures first, then by area and id, so every renderer shows the same order.
        findings.sort_by(|a, b| {
            b.severity
                .cmp(&a.severity)
                .then_with(|| a.id.cmp(&b.id))
                .then_with(|| a.scope.cmp(&b.scope))
        });
        let summary = Summary::of(&findings);
        let exit_code = if !check_errors.is_empty() {
            exit::NO_VERDICT
        } else {
            match summary.verdict {
                Verdict::Healthy => exit::OK,
                Verdict::Warnings => exit::WARNINGS,
                Verdict::Failures => exit::FAILURES,
            }
        };
        Report {
            schema_version: SCHEMA_VERSION,
            tool: Tool {
                name: env!("CARGO_PKG_NAME").to_string(),
                version: env!("CARGO_PKG_VERSION").to_string(),
            },
            matrix,
            facts,
            findings,
            check_errors,
            summary,
            exit_code,
        }
    }
}
