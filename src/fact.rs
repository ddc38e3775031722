//! `Fact<T>`: a gathered value, or the precise reason it is absent.
//!
//! Absence is never a silent `None`: a report has to tell "the file is not there"
//! from "the driver refused" from "the command hung", because each has another fix.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One gathered fact. Serialised as `{"state": "known", "value": ...}`,
/// `{"state": "missing", "why": ...}`, `{"state": "unsupported", "why": ...}` or
/// `{"state": "failed", "error": ..., "command": ..., "stderr_tail": ...}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum Fact<T> {
    /// The value was read.
    Known { value: T },
    /// The thing is not there (a file, a library, a tool); `why` says where we looked.
    Missing { why: String },
    /// The driver, GPU or platform does not offer this value.
    Unsupported { why: String },
    /// Gathering it went wrong: an error code, a crash, a time-out.
    Failed {
        error: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        command: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stderr_tail: Option<String>,
    },
}

impl<T> Fact<T> {
    pub fn known(value: T) -> Self {
        Fact::Known { value }
    }

    pub fn missing(why: impl Into<String>) -> Self {
        Fact::Missing { why: why.into() }
    }

    pub fn unsupported(why: impl Into<String>) -> Self {
        Fact::Unsupported { why: why.into() }
    }

    pub fn failed(error: impl Into<String>) -> Self {
        Fact::Failed {
            error: error.into(),
            command: None,
            stderr_tail: None,
        }
    }

    pub fn value(&self) -> Option<&T> {
        match self {
            Fact::Known { value } => Some(value),
            _ => None,
        }
    }

    pub fn is_known(&self) -> bool {
        matches!(self, Fact::Known { .. })
    }

    /// Why the value is absent, for messages; `None` when it is known.
    pub fn reason(&self) -> Option<&str> {
        match self {
            Fact::Known { .. } => None,
            Fact::Missing { why } | Fact::Unsupported { why } => Some(why),
            Fact::Failed { error, .. } => Some(error),
        }
    }

    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Fact<U> {
        match self {
            Fact::Known { value } => Fact::Known { value: f(value) },
            Fact::Missing { why } => Fact::Missing { why },
            Fact::Unsupported { why } => Fact::Unsupported { why },
            Fact::Failed {
                error,
                command,
                stderr_tail,
            } => Fact::Failed {
                error,
                command,
                stderr_tail,
            },
        }
    }

    pub fn as_ref(&self) -> Fact<&T> {
        match self {
            Fact::Known { value } => Fact::Known { value },
            Fact::Missing { why } => Fact::Missing { why: why.clone() },
            Fact::Unsupported { why } => Fact::Unsupported { why: why.clone() },
            Fact::Failed {
                error,
                command,
                stderr_tail,
            } => Fact::Failed {
                error: error.clone(),
                command: command.clone(),
                stderr_tail: stderr_tail.clone(),
            },
        }
    }
}

impl<T: Default> Default for Fact<T> {
    fn default() -> Self {
        Fact::missing("not gathered")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialises_with_a_state_tag() {
        let known = serde_json::to_value(Fact::known(5u32)).unwrap();
        assert_eq!(known, serde_json::json!({"state": "known", "value": 5}));
        let failed: Fact<u32> = Fact::Failed {
            error: "timed out after 5s".into(),
            command: Some("nvcc --version".into()),
            stderr_tail: None,
        };
        let v = serde_json::to_value(&failed).unwrap();
        assert_eq!(v["state"], "failed");
        assert_eq!(v["command"], "nvcc --version");
        assert!(v.get("stderr_tail").is_none());
        let back: Fact<u32> = serde_json::from_value(v).unwrap();
        assert_eq!(back, failed);
    }

    #[test]
    fn reason_and_value() {
        let m: Fact<u8> = Fact::missing("no such file");
        assert_eq!(m.reason(), Some("no such file"));
        assert_eq!(m.value(), None);
        assert_eq!(Fact::known(3u8).map(|v| v * 2).value(), Some(&6));
    }
}
