//! Step 2: turn facts into findings. Every check is a pure function of the facts (no
//! I/O), registered once in [`ALL`] with its stable id; help, JSON and tests all read
//! that one list.

use crate::facts::Facts;
use crate::report::finding::Finding;

/// Options that change what the checks demand.
#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    /// `--expect-gpus N`: fewer usable GPUs is a failure.
    pub expect_gpus: Option<u32>,
}

/// Inputs of every check.
pub struct Ctx<'a> {
    pub facts: &'a Facts,
    pub opts: &'a CheckOptions,
}

/// One registered check: the ids it may emit, what it is about, and the function.
pub struct Check {
    /// The finding id this check emits.
    pub id: &'static str,
    pub title: &'static str,
    pub run: fn(&Ctx) -> Vec<Finding>,
}

/// Every check, in report order.
pub const ALL: &[Check] = &[];

/// A check that panicked: the rest of the report still stands, but the verdict is incomplete.
#[derive(
    Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct CheckError {
    pub id: String,
    pub message: String,
}

/// Runs the selected checks over the facts.
pub fn evaluate(
    facts: &Facts,
    opts: &CheckOptions,
    select: &Selection,
) -> (Vec<Finding>, Vec<CheckError>) {
    let ctx = Ctx { facts, opts };
    let mut findings = Vec::new();
    let mut errors = Vec::new();
    for check in ALL.iter().filter(|c| select.wants(c.id)) {
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (check.run)(&ctx))) {
            Ok(f) => findings.extend(f),
            Err(payload) => errors.push(CheckError {
                id: check.id.to_string(),
                message: panic_message(payload.as_ref()),
            }),
        }
    }
    (findings, errors)
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "check panicked".to_string())
}

/// `--only` / `--skip`: ids ("driver.nouveau_loaded") or areas ("driver").
#[derive(Debug, Clone, Default)]
pub struct Selection {
    pub only: Vec<String>,
    pub skip: Vec<String>,
}

impl Selection {
    pub fn wants(&self, id: &str) -> bool {
        let matches = |pat: &String| pat == id || id.split('.').next() == Some(pat.as_str());
        (self.only.is_empty() || self.only.iter().any(matches)) && !self.skip.iter().any(matches)
    }
}
