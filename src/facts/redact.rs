//! `--redact`: what identifies a person or a machine in a report is replaced by a stable
//! token, so that a report can be shared and a fleet can still tell its GPUs and hosts
//! apart:
//!
//! - the host name: `host-<8 hex>`,
//! - `/home/<user>` (and `/var/home/<user>`) path segments: `/home/user-<6 hex>`, and the
//!   same user names where they stand as words elsewhere,
//! - GPU and MIG UUIDs: `GPU-<12 hex>` / `MIG-<12 hex>`.
//!
//! A token is the start of SHA-256 over the kind and the value (and, when set, the
//! `GPU_DOCTOR_REDACT_KEY` environment variable, which a fleet sets alike on every host
//! so that a token cannot be reversed by guessing names): the same input gives the same
//! token in every run and on every host. It works on the report's JSON value, so every
//! output made from the report (text, JSON, Prometheus, labels, the UI) is redacted alike.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;

/// The environment variable whose value is mixed into every token.
pub const KEY_ENV: &str = "GPU_DOCTOR_REDACT_KEY";

/// Account names that identify nobody (distribution and cloud defaults): kept where they
/// stand as words outside a /home path, so "ubuntu" in a distribution name stays.
const COMMON_ACCOUNTS: &[&str] = &[
    "root",
    "ubuntu",
    "debian",
    "centos",
    "rocky",
    "fedora",
    "admin",
    "user",
    "nvidia",
    "cuda",
    "ec2-user",
    "azureuser",
    "opc",
    "core",
    "jovyan",
];

static HOME: LazyLock<Regex> = LazyLock::new(|| {
    #[allow(clippy::unwrap_used)] // a constant pattern
    Regex::new(r"(^|[^A-Za-z0-9_.-])((?:/var)?/home/)([A-Za-z0-9_][A-Za-z0-9_.@-]*)").unwrap()
});

static UUID: LazyLock<Regex> = LazyLock::new(|| {
    #[allow(clippy::unwrap_used)] // a constant pattern
    Regex::new(
        r"\b(GPU|MIG)-([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\b",
    )
    .unwrap()
});

/// The first `hex` hex digits of SHA-256 over the key, the kind and the value.
pub fn token(key: &str, kind: &str, value: &str, hex: usize) -> String {
    let mut input = Vec::with_capacity(key.len() + kind.len() + value.len() + 2);
    input.extend_from_slice(key.as_bytes());
    input.push(0);
    input.extend_from_slice(kind.as_bytes());
    input.push(0);
    input.extend_from_slice(value.as_bytes());
    let digest = ring::digest::digest(&ring::digest::SHA256, &input);
    let mut out = String::with_capacity(hex);
    for b in digest.as_ref() {
        out.push_str(&format!("{b:02x}"));
        if out.len() >= hex {
            break;
        }
    }
    out.truncate(hex);
    out
}

/// What one report is redacted with: its host name and the user names found in it.
#[derive(Debug, Clone, Default)]
pub struct Redactor {
    key: String,
    hostname: Option<String>,
    users: BTreeSet<String>,
}

impl Redactor {
    /// A redactor for a report of `hostname`, whose strings are in `value` (user names are
    /// collected from its /home paths), with the key from `GPU_DOCTOR_REDACT_KEY`.
    pub fn for_value(key: Option<&str>, hostname: Option<&str>, value: &serde_json::Value) -> Self {
        let mut users = BTreeSet::new();
        walk_strings(value, &mut |s| {
            for c in HOME.captures_iter(s) {
                if let Some(u) = c.get(3).filter(|u| !is_token(u.as_str())) {
                    users.insert(u.as_str().to_string());
                }
            }
        });
        Redactor {
            key: key.unwrap_or_default().to_string(),
            hostname: hostname
                .map(str::trim)
                .filter(|h| !h.is_empty() && !is_token(h))
                .map(str::to_string),
            users,
        }
    }

    pub fn host_token(&self, hostname: &str) -> String {
        format!("host-{}", token(&self.key, "host", hostname, 8))
    }

    pub fn user_token(&self, user: &str) -> String {
        format!("user-{}", token(&self.key, "user", user, 6))
    }

    pub fn uuid_token(&self, prefix: &str, uuid: &str) -> String {
        format!(
            "{prefix}-{}",
            token(&self.key, "uuid", &uuid.to_ascii_lowercase(), 12)
        )
    }

    /// One string redacted.
    pub fn text(&self, s: &str) -> String {
        let s = UUID.replace_all(s, |c: &regex::Captures| self.uuid_token(&c[1], &c[2]));
        let s = HOME.replace_all(&s, |c: &regex::Captures| {
            let user = if is_token(&c[3]) {
                c[3].to_string()
            } else {
                self.user_token(&c[3])
            };
            format!("{}{}{}", &c[1], &c[2], user)
        });
        let mut s = s.into_owned();
        if let Some(h) = &self.hostname {
            s = replace_word(&s, h, &self.host_token(h));
        }
        for u in &self.users {
            if u.len() >= 2 && !COMMON_ACCOUNTS.contains(&u.as_str()) {
                s = replace_word(&s, u, &self.user_token(u));
            }
        }
        s
    }

    /// Every string of a JSON value (object keys included) redacted.
    pub fn value(&self, v: &mut serde_json::Value) {
        match v {
            serde_json::Value::String(s) => {
                let r = self.text(s);
                if r != *s {
                    *s = r;
                }
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(|x| self.value(x)),
            serde_json::Value::Object(o) => {
                let old = std::mem::take(o);
                for (k, mut x) in old {
                    self.value(&mut x);
                    o.insert(self.text(&k), x);
                }
            }
            _ => {}
        }
    }
}

/// A token this module makes (`host-1a2b3c4d`, `user-3fa2c1`), so redacting twice changes
/// nothing.
fn is_token(s: &str) -> bool {
    let hex = |h: &str, n: usize| h.len() == n && h.chars().all(|c| c.is_ascii_hexdigit());
    s.strip_prefix("host-").is_some_and(|h| hex(h, 8))
        || s.strip_prefix("user-").is_some_and(|h| hex(h, 6))
}

fn walk_strings(v: &serde_json::Value, f: &mut dyn FnMut(&str)) {
    match v {
        serde_json::Value::String(s) => f(s),
        serde_json::Value::Array(a) => a.iter().for_each(|x| walk_strings(x, f)),
        serde_json::Value::Object(o) => {
            for (k, x) in o {
                f(k);
                walk_strings(x, f);
            }
        }
        _ => {}
    }
}

/// `word` replaced where it stands as a word: not inside a longer name of letters, digits,
/// `_`, `-` or `.` (so "node1" is not touched inside "node10" or "node1.example").
fn replace_word(s: &str, word: &str, with: &str) -> String {
    if word.is_empty() || !s.contains(word) {
        return s.to_string();
    }
    let is_name = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find(word) {
        let (before, after) = (&rest[..i], &rest[i + word.len()..]);
        let prev = before.chars().next_back();
        let next = after.chars().next();
        // A dot after the word ends it unless a name goes on after the dot (a domain).
        let next_continues = match next {
            Some('.') => after[1..].chars().next().is_some_and(is_name),
            Some(c) => is_name(c),
            None => false,
        };
        let prev_continues = prev.is_some_and(|c| is_name(c) || c == '.');
        out.push_str(before);
        if prev_continues || next_continues {
            out.push_str(word);
        } else {
            out.push_str(with);
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn r(host: Option<&str>, v: &serde_json::Value) -> Redactor {
        Redactor::for_value(None, host, v)
    }

    #[test]
    fn tokens_are_stable_short_and_keyed() {
        let a = token("", "user", "alice", 6);
        assert_eq!(a, token("", "user", "alice", 6));
        assert_eq!(a.len(), 6);
        assert_ne!(a, token("", "user", "bob", 6));
        assert_ne!(a, token("fleet-key", "user", "alice", 6));
        // Kinds do not collide: a host and a user of the same name get different tokens.
        assert_ne!(token("", "host", "alice", 6), a);
        // SHA-256("\0user\0alice") starts so; a change of hash would change every token.
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
    }

    #[test]
    fn home_paths_users_uuids_and_the_host_name_are_replaced() {
        let v = json!({
            "interpreter": "/home/alice/venvs/t/bin/python",
            "note": "owned by alice, not by alicea or root",
            "podman": "/var/home/bob/.local/share/containers",
            "uuid": "GPU-0a1b2c3d-1111-2222-3333-444455556666",
            "mig": "MIG-4f3e2d1c-aaaa-bbbb-cccc-ddddeeeeffff",
            "hostname": "gpu-node-07",
            "line": "gpu-node-07 kernel: NVRM: Xid; gpu-node-070 is another; gpu-node-07.example.com too",
            "os": "Ubuntu 22.04 ubuntu",
            "/home/alice/key": 1
        });
        let red = r(Some("gpu-node-07"), &v);
        let mut out = v.clone();
        red.value(&mut out);
        let alice = red.user_token("alice");
        assert_eq!(
            out["interpreter"],
            format!("/home/{alice}/venvs/t/bin/python")
        );
        assert_eq!(
            out["note"],
            format!("owned by {alice}, not by alicea or root")
        );
        assert_eq!(
            out["podman"],
            format!(
                "/var/home/{}/.local/share/containers",
                red.user_token("bob")
            )
        );
        let gpu = out["uuid"].as_str().unwrap();
        assert!(gpu.starts_with("GPU-") && gpu.len() == 16, "{gpu}");
        assert!(out["mig"].as_str().unwrap().starts_with("MIG-"));
        let host = red.host_token("gpu-node-07");
        assert_eq!(out["hostname"], host);
        assert_eq!(
            out["line"],
            format!(
                "{host} kernel: NVRM: Xid; gpu-node-070 is another; gpu-node-07.example.com too"
            )
        );
        assert_eq!(out["os"], "Ubuntu 22.04 ubuntu");
        assert!(out.get(format!("/home/{alice}/key")).is_some(), "{out:#}");
        let text = out.to_string();
        assert!(
            !text.contains("alice/") && !text.contains("0a1b2c3d"),
            "{text}"
        );
    }

    #[test]
    fn the_same_gpu_gets_the_same_token_and_two_gpus_two() {
        let a = "GPU-0a1b2c3d-1111-2222-3333-444455556666";
        let b = "GPU-99887766-1111-2222-3333-444455556666";
        let red = r(None, &json!(null));
        assert_eq!(red.text(a), red.text(&a.to_uppercase()));
        assert_ne!(red.text(a), red.text(b));
        // Another report, another run: the same token.
        let other = r(Some("elsewhere"), &json!({"x": "/home/zed"}));
        assert_eq!(red.text(a), other.text(a));
    }

    #[test]
    fn redacting_twice_changes_nothing_more() {
        let v = json!({"h": "node01", "p": "/home/carol/x", "u": "GPU-0a1b2c3d-1111-2222-3333-444455556666"});
        let red = r(Some("node01"), &v);
        let mut once = v.clone();
        red.value(&mut once);
        let again = r(once["h"].as_str(), &once);
        let mut twice = once.clone();
        again.value(&mut twice);
        assert_eq!(once, twice);
    }

    #[test]
    fn words_are_replaced_only_whole() {
        assert_eq!(replace_word("a node1 b", "node1", "X"), "a X b");
        assert_eq!(
            replace_word("node10 node1.x node1. node1", "node1", "X"),
            "node10 node1.x X. X"
        );
        assert_eq!(replace_word("", "n", "X"), "");
    }
}
