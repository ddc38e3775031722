//! What one ssh run ended as: its exit status, stderr and stdout → exactly one
//! [`Status`], and the remote report when there is one.
//!
//! ssh reports every failure of its own as exit status 255 and says which in English on
//! stderr; it has no other channel. So, as the one exception to "never classify errors
//! by their text", ssh's stderr is matched here, in one table, and the text is kept
//! (cleaned of control characters) in the result either way.

use serde::Deserialize;

use super::Status;
use crate::report::{Report, SCHEMA_VERSION};

/// What came back from one ssh child.
#[derive(Debug, Clone, Default)]
pub struct RawOutcome {
    /// ssh's exit status (the remote command's, or 255 for ssh's own errors).
    pub code: Option<i32>,
    /// The signal that ended ssh, if one did.
    pub signal: Option<i32>,
    pub timed_out: bool,
    /// stdout went past the size cap and the run was stopped.
    pub oversize: bool,
    pub stdout: Vec<u8>,
    /// The last bytes of stderr, lossily decoded.
    pub stderr_tail: String,
}

/// The verdict on one run: a status, the text that explains it, the report.
#[derive(Debug)]
pub struct Classified {
    pub status: Status,
    pub detail: Option<String>,
    pub report: Option<Report>,
}

impl Classified {
    fn bad(status: Status, detail: impl Into<String>) -> Classified {
        Classified {
            status,
            detail: Some(detail.into()),
            report: None,
        }
    }
}

/// ssh's exit status for its own errors.
pub const SSH_ERROR: i32 = 255;
/// A POSIX shell's "command not found" and "found but not executable".
const NOT_FOUND: i32 = 127;
const NOT_EXECUTABLE: i32 = 126;

/// ssh's stderr phrases (OpenSSH 7 to 9) and the status each means; the first match wins.
const SSH_ERRORS: &[(&str, Status)] = &[
    (
        "REMOTE HOST IDENTIFICATION HAS CHANGED",
        Status::HostKeyMismatch,
    ),
    ("Host key verification failed", Status::HostKeyMismatch),
    ("host key for", Status::HostKeyMismatch),
    ("Permission denied", Status::AuthFailed),
    ("Too many authentication failures", Status::AuthFailed),
    ("No supported authentication methods", Status::AuthFailed),
    ("Connection refused", Status::Unreachable),
    ("Connection timed out", Status::Unreachable),
    ("Operation timed out", Status::Unreachable),
    ("No route to host", Status::Unreachable),
    ("Network is unreachable", Status::Unreachable),
    ("Could not resolve hostname", Status::Unreachable),
    ("Name or service not known", Status::Unreachable),
    ("Temporary failure in name resolution", Status::Unreachable),
    ("Connection reset", Status::Unreachable),
    ("Connection closed by", Status::Unreachable),
    ("kex_exchange_identification", Status::Unreachable),
    ("banner exchange", Status::Unreachable),
];

pub fn classify(raw: &RawOutcome, size_cap_bytes: u64) -> Classified {
    let stderr = clean_text(raw.stderr_tail.trim(), 600);
    if raw.timed_out {
        let mut d = "the host did not answer within the time limit".to_string();
        if !stderr.is_empty() {
            d.push_str(&format!(" (stderr: {stderr})"));
        }
        return Classified::bad(Status::Timeout, d);
    }
    if raw.oversize {
        return Classified::bad(
            Status::BadOutput,
            format!("the output went past {size_cap_bytes} bytes; stopped reading"),
        );
    }
    let empty = raw.stdout.iter().all(u8::is_ascii_whitespace);
    match raw.code {
        Some(SSH_ERROR) if empty => {
            let status = SSH_ERRORS
                .iter()
                .find(|(phrase, _)| raw.stderr_tail.contains(phrase))
                .map_or(Status::Error, |(_, s)| *s);
            let detail = if stderr.is_empty() {
                "ssh failed (exit 255) and said nothing".to_string()
            } else {
                stderr
            };
            return Classified::bad(status, detail);
        }
        Some(NOT_FOUND | NOT_EXECUTABLE) if empty => {
            let mut d =
                "gpu-doctor is not installed there (the remote command was not found)".to_string();
            if !stderr.is_empty() {
                d.push_str(&format!(": {stderr}"));
            }
            return Classified::bad(Status::NotInstalled, d);
        }
        _ => {}
    }
    if empty {
        let how = match (raw.code, raw.signal) {
            (Some(c), _) => format!("exit status {c}"),
            (None, Some(s)) => format!("signal {s}"),
            (None, None) => "no exit status".to_string(),
        };
        let status = if raw.code == Some(0) {
            Status::BadOutput
        } else {
            Status::Error
        };
        let mut d = format!("the remote command printed nothing ({how})");
        if !stderr.is_empty() {
            d.push_str(&format!(": {stderr}"));
        }
        return Classified::bad(status, d);
    }
    parse_report(&raw.stdout)
}

/// The remote stdout as a report of this schema version, or why not.
pub fn parse_report(stdout: &[u8]) -> Classified {
    #[derive(Deserialize)]
    struct Head {
        schema_version: Option<serde_json::Value>,
    }
    let head: Head = match serde_json::from_slice(stdout) {
        Ok(h) => h,
        Err(e) => {
            let why = if e.is_eof() {
                format!("truncated JSON ({e})")
            } else {
                format!("not a JSON report ({e}); it starts {:?}", preview(stdout))
            };
            return Classified::bad(Status::BadOutput, why);
        }
    };
    match head.schema_version {
        None => {
            return Classified::bad(
                Status::BadOutput,
                "JSON without schema_version: not a gpu-doctor report",
            )
        }
        // Schema 1 reports still read (README, "Report schema 1 → 2").
        Some(v)
            if !v
                .as_u64()
                .is_some_and(|n| (1..=u64::from(SCHEMA_VERSION)).contains(&n)) =>
        {
            return Classified::bad(
                Status::Incompatible,
                format!(
                    "report schema_version {} (this gpu-doctor reads {SCHEMA_VERSION})",
                    clean_text(&v.to_string(), 40)
                ),
            )
        }
        Some(_) => {}
    }
    match Report::from_json(stdout) {
        Ok(report) => Classified {
            status: Status::Ok,
            detail: None,
            report: Some(report),
        },
        Err(e) => Classified::bad(
            Status::Incompatible,
            format!("schema_version {SCHEMA_VERSION} but unreadable as a report: {e}"),
        ),
    }
}

fn preview(bytes: &[u8]) -> String {
    clean_text(&String::from_utf8_lossy(&bytes[..bytes.len().min(60)]), 60)
}

/// Text from a remote host made safe to print: control characters (escape sequences,
/// carriage returns) become spaces, runs of whitespace collapse, and it is cut to
/// `max_chars`.
pub fn clean_text(s: &str, max_chars: usize) -> String {
    let mut out = String::with_capacity(s.len().min(max_chars));
    let mut last_space = false;
    for c in s.chars() {
        let c = if c.is_control() || c.is_whitespace() {
            ' '
        } else {
            c
        };
        if c == ' ' && (last_space || out.is_empty()) {
            continue;
        }
        last_space = c == ' ';
        out.push(c);
        if out.chars().count() >= max_chars {
            out.push('…');
            break;
        }
    }
    out.trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(code: i32, stdout: &str, stderr: &str) -> RawOutcome {
        RawOutcome {
            code: Some(code),
            stdout: stdout.as_bytes().to_vec(),
            stderr_tail: stderr.into(),
            ..RawOutcome::default()
        }
    }

    fn status(r: &RawOutcome) -> Status {
        classify(r, 1000).status
    }

    #[test]
    fn ssh_errors_by_their_text() {
        let cases = [
            ("ssh: connect to host 127.0.0.1 port 9: Connection refused", Status::Unreachable),
            ("ssh: Could not resolve hostname nope: Name or service not known", Status::Unreachable),
            ("root@127.0.0.1: Permission denied (publickey).", Status::AuthFailed),
            ("@@@@@@\n@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\n...\nHost key verification failed.", Status::HostKeyMismatch),
            ("No ED25519 host key is known for x and you have requested strict checking.\nHost key verification failed.", Status::HostKeyMismatch),
            ("ssh: connect to host 10.1.1.1 port 22: Connection timed out", Status::Unreachable),
            ("kex_exchange_identification: read: Connection reset by peer", Status::Unreachable),
            ("something nobody has seen", Status::Error),
            ("", Status::Error),
        ];
        for (stderr, want) in cases {
            assert_eq!(status(&raw(255, "", stderr)), want, "{stderr}");
        }
        let c = classify(&raw(255, "", "weird \x1b[31mred\x1b[0m\r\nerror"), 1000);
        assert_eq!(c.detail.as_deref(), Some("weird [31mred [0m error"));
    }

    #[test]
    fn remote_command_states() {
        assert_eq!(
            status(&raw(127, "", "sh: 1: gpu-doctor: not found")),
            Status::NotInstalled
        );
        assert_eq!(status(&raw(126, "", "")), Status::NotInstalled);
        assert_eq!(status(&raw(0, "", "")), Status::BadOutput);
        assert_eq!(status(&raw(3, "", "gpu-doctor: bad flag")), Status::Error);
        let mut t = raw(0, "", "");
        t.timed_out = true;
        assert_eq!(status(&t), Status::Timeout);
        let mut o = raw(0, "{", "");
        o.oversize = true;
        assert_eq!(status(&o), Status::BadOutput);
    }

    #[test]
    fn remote_output_states() {
        assert_eq!(
            status(&raw(0, "garbage \x1b]52;c;AAAA\x07", "")),
            Status::BadOutput
        );
        assert_eq!(
            status(&raw(2, "{\"schema_version\": 1, \"facts\": {", "")),
            Status::BadOutput
        );
        assert_eq!(status(&raw(0, "{\"a\": 1}", "")), Status::BadOutput);
        assert_eq!(status(&raw(0, "[1,2]", "")), Status::BadOutput);
        assert_eq!(
            status(&raw(0, "{\"schema_version\": 0}", "")),
            Status::Incompatible
        );
        assert_eq!(
            status(&raw(0, "{\"schema_version\": 3}", "")),
            Status::Incompatible
        );
        assert_eq!(
            status(&raw(0, "{\"schema_version\": \"1\"}", "")),
            Status::Incompatible
        );
        assert_eq!(
            status(&raw(0, "{\"schema_version\": 1}", "")),
            Status::Incompatible,
            "schema 1 is read, but a head alone is not a report"
        );
        assert_eq!(
            status(&raw(0, "{\"schema_version\": 2}", "")),
            Status::Incompatible
        );
        // A remote exit 255 with a report on stdout is the remote's, not ssh's.
        let report = crate::report::Report::new(
            crate::matrix::bundled(),
            crate::checks::testutil::healthy(),
            Vec::new(),
            Vec::new(),
        );
        let json = serde_json::to_string(&report).unwrap();
        let c = classify(&raw(0, &json, ""), 1 << 20);
        assert_eq!(c.status, Status::Ok);
        assert_eq!(c.report.unwrap(), report);
    }

    #[test]
    fn clean_text_strips_controls_and_cuts() {
        assert_eq!(clean_text("a\x1b[2Jb\n\n c", 100), "a [2Jb c");
        assert_eq!(clean_text("abcdef", 3), "abc…");
        assert_eq!(clean_text("  \t", 3), "");
    }
}
