//! The host-list grammar: `user@host:port`, ranges (`node[01-32]`, `gpu-[a,b,c]`,
//! `rack[1-2]-n[01-04]`), one host per line in files with `#` comments.
//!
//! Every name is validated before it gets near `ssh`: a name that could be read as an
//! option (leading `-`), or that holds whitespace, control characters or shell/ssh
//! metacharacters, is refused.

use std::collections::HashSet;

/// One host to check: what ssh is given (`-l user`, `-p port`, then `name`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Target {
    pub user: Option<String>,
    /// A host name, ssh_config alias or IP address (IPv6 without brackets).
    pub host: String,
    pub port: Option<u16>,
}

impl Target {
    /// The host as the operator wrote it (after range expansion): `user@host:port`.
    pub fn label(&self) -> String {
        let mut s = String::new();
        if let Some(u) = &self.user {
            s.push_str(u);
            s.push('@');
        }
        if self.host.contains(':') {
            s.push('[');
            s.push_str(&self.host);
            s.push(']');
        } else {
            s.push_str(&self.host);
        }
        if let Some(p) = self.port {
            s.push(':');
            s.push_str(&p.to_string());
        }
        s
    }
}

/// Why a host list could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InventoryError {
    #[error("{at}: host {text:?} {why}")]
    Invalid {
        at: String,
        text: String,
        why: String,
    },
    #[error("{at}: the range {text:?} expands to more than {MAX_HOSTS} hosts")]
    TooMany { at: String, text: String },
}

/// No host list may expand past this (a typo such as `n[1-99999999]` is refused, not run).
pub const MAX_HOSTS: usize = 100_000;
const MAX_NAME_BYTES: usize = 253;

/// Parses a host list file's text: one pattern per line, `#` starts a comment, blank
/// lines are skipped. `source` names the file in messages.
pub fn parse_list(text: &str, source: &str) -> Result<Vec<Target>, InventoryError> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let at = format!("{source}:{}", n + 1);
        // Several patterns on one line, separated by whitespace, are allowed too.
        for word in line.split_whitespace() {
            out.extend(expand(word, &at)?);
            if out.len() > MAX_HOSTS {
                return Err(InventoryError::TooMany {
                    at,
                    text: word.into(),
                });
            }
        }
    }
    Ok(out)
}

/// Removes repeated hosts, keeping the first of each.
pub fn dedup(targets: Vec<Target>) -> Vec<Target> {
    let mut seen = HashSet::new();
    targets
        .into_iter()
        .filter(|t| seen.insert(t.clone()))
        .collect()
}

/// Expands one pattern (a command-line argument or a word of a host file).
pub fn expand(pattern: &str, at: &str) -> Result<Vec<Target>, InventoryError> {
    let invalid = |why: &str| InventoryError::Invalid {
        at: at.to_string(),
        text: pattern.to_string(),
        why: why.to_string(),
    };
    if pattern.starts_with('-') {
        return Err(invalid(
            "starts with '-' (it would be read as an ssh option)",
        ));
    }
    if pattern.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(invalid("contains whitespace or control characters"));
    }
    let names = expand_brackets(pattern).map_err(|why| invalid(&why))?;
    names
        .iter()
        .map(|n| parse_target(n).map_err(|why| invalid(&why)))
        .collect()
}

/// Expands `[...]` groups left to right (their cartesian product). IPv6 addresses in
/// brackets (`[::1]:22`, `user@[fe80::1]`) are kept as they are.
fn expand_brackets(pattern: &str) -> Result<Vec<String>, String> {
    let mut results = vec![String::new()];
    let mut rest = pattern;
    while let Some(open) = rest.find('[') {
        let close = rest[open..]
            .find(']')
            .map(|i| open + i)
            .ok_or("has a '[' without ']'")?;
        let inner = &rest[open + 1..close];
        let literal = &rest[..open];
        let alternatives: Vec<String> = if inner.contains(':') {
            // An IPv6 address: keep the brackets for parse_target.
            vec![format!("[{inner}]")]
        } else {
            range_items(inner)?
        };
        if results.len().saturating_mul(alternatives.len()) > MAX_HOSTS {
            return Err(format!("expands to more than {MAX_HOSTS} hosts"));
        }
        let mut next = Vec::with_capacity(results.len() * alternatives.len());
        for r in &results {
            for a in &alternatives {
                next.push(format!("{r}{literal}{a}"));
            }
        }
        results = next;
        rest = &rest[close + 1..];
    }
    if rest.contains(']') {
        return Err("has a ']' without '['".into());
    }
    for r in &mut results {
        r.push_str(rest);
    }
    Ok(results)
}

/// `01-32,40,a` → the items; numeric ranges keep the width of their first bound.
fn range_items(inner: &str) -> Result<Vec<String>, String> {
    if inner.is_empty() {
        return Err("has an empty '[]'".into());
    }
    let mut out = Vec::new();
    for item in inner.split(',') {
        if item.is_empty() {
            return Err("has an empty item in '[...]'".into());
        }
        match item.split_once('-') {
            Some((a, b))
                if !a.is_empty()
                    && !b.is_empty()
                    && a.chars().all(|c| c.is_ascii_digit())
                    && b.chars().all(|c| c.is_ascii_digit()) =>
            {
                let lo: u64 = a.parse().map_err(|_| format!("has a bad range {item:?}"))?;
                let hi: u64 = b.parse().map_err(|_| format!("has a bad range {item:?}"))?;
                if lo > hi {
                    return Err(format!("has a backwards range {item:?}"));
                }
                if hi - lo >= MAX_HOSTS as u64 {
                    return Err(format!("expands to more than {MAX_HOSTS} hosts"));
                }
                let width = if a.len() > 1 && a.starts_with('0') {
                    a.len()
                } else {
                    0
                };
                out.extend((lo..=hi).map(|n| format!("{n:0width$}")));
            }
            _ => out.push(item.to_string()),
        }
        if out.len() > MAX_HOSTS {
            return Err(format!("expands to more than {MAX_HOSTS} hosts"));
        }
    }
    Ok(out)
}

/// `user@host:port` (port and user optional; IPv6 as `[addr]` or `[addr]:port`).
pub fn parse_target(s: &str) -> Result<Target, String> {
    let (user, rest) = match s.rsplit_once('@') {
        Some((u, r)) => (Some(u), r),
        None => (None, s),
    };
    if let Some(u) = user {
        if u.is_empty() {
            return Err("has an empty user before '@'".into());
        }
        if u.starts_with('-')
            || !u
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
        {
            return Err(format!("has an invalid user name {u:?}"));
        }
    }
    let (host, port) = if let Some(v6) = rest.strip_prefix('[') {
        let (addr, after) = v6.split_once(']').ok_or("has a '[' without ']'")?;
        if addr.is_empty()
            || !addr
                .chars()
                .all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.')
        {
            return Err(format!("has an invalid IPv6 address {addr:?}"));
        }
        let port = match after {
            "" => None,
            p => Some(parse_port(
                p.strip_prefix(':').ok_or("has text after ']'")?,
            )?),
        };
        (addr.to_string(), port)
    } else {
        match rest.split_once(':') {
            Some((h, p)) => (h.to_string(), Some(parse_port(p)?)),
            None => (rest.to_string(), None),
        }
    };
    validate_host(&host)?;
    Ok(Target {
        user: user.map(str::to_string),
        host,
        port,
    })
}

fn parse_port(p: &str) -> Result<u16, String> {
    match p.parse::<u16>() {
        Ok(n) if n > 0 && p.chars().all(|c| c.is_ascii_digit()) => Ok(n),
        _ => Err(format!("has an invalid port {p:?}")),
    }
}

/// Host names and ssh_config aliases: letters, digits, `.`, `-`, `_`; never a leading
/// `-` (an ssh option) or `.`; IPv6 addresses (hex digits, `:` and `.`).
fn validate_host(h: &str) -> Result<(), String> {
    if h.is_empty() {
        return Err("has an empty host name".into());
    }
    if h.len() > MAX_NAME_BYTES {
        return Err(format!("is longer than {MAX_NAME_BYTES} bytes"));
    }
    if h.starts_with('-') || h.starts_with('.') {
        return Err("starts with '-' or '.'".into());
    }
    let v6 = h.contains(':');
    let ok = h
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '_' || (v6 && c == ':'));
    if !ok {
        return Err("may hold only letters, digits, '.', '-' and '_'".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(p: &str) -> Vec<String> {
        expand(p, "arg")
            .unwrap()
            .iter()
            .map(Target::label)
            .collect()
    }

    #[test]
    fn plain_names_users_and_ports() {
        assert_eq!(names("node01"), ["node01"]);
        assert_eq!(
            expand("root@gpu-7.example.com:2222", "arg").unwrap(),
            vec![Target {
                user: Some("root".into()),
                host: "gpu-7.example.com".into(),
                port: Some(2222)
            }]
        );
        assert_eq!(names("10.0.0.1:22"), ["10.0.0.1:22"]);
        assert_eq!(names("[::1]:2200"), ["[::1]:2200"]);
        assert_eq!(names("me@[fe80::1]"), ["me@[fe80::1]"]);
    }

    #[test]
    fn ranges_and_lists() {
        assert_eq!(names("node[01-03]"), ["node01", "node02", "node03"]);
        assert_eq!(names("gpu-[a,b,c]"), ["gpu-a", "gpu-b", "gpu-c"]);
        assert_eq!(names("n[8-11]"), ["n8", "n9", "n10", "n11"]);
        assert_eq!(names("n[1,3-4,x]"), ["n1", "n3", "n4", "nx"]);
        assert_eq!(
            names("r[1-2]-n[01-02].dc:22"),
            [
                "r1-n01.dc:22",
                "r1-n02.dc:22",
                "r2-n01.dc:22",
                "r2-n02.dc:22"
            ]
        );
        assert_eq!(names("u@n[1-2]:2022"), ["u@n1:2022", "u@n2:2022"]);
        assert_eq!(expand("node[001-100]", "a").unwrap().len(), 100);
    }

    #[test]
    fn hostile_or_broken_names_are_refused() {
        for bad in [
            "-oProxyCommand=touch /tmp/x",
            "-p",
            "node[01-03",
            "node]",
            "node[]",
            "node[1,,2]",
            "node[5-1]",
            "a b",
            "host;rm -rf /",
            "host$(id)",
            "host`id`",
            "ho\u{1b}[31mst",
            "host\n",
            "@host",
            "us er@host",
            "-u@host",
            "host:0",
            "host:99999",
            "host:22x",
            ".hidden",
            "[zz::1]",
            "",
            "x[1-999999999]",
            "a[1-1000]b[1-1000]",
        ] {
            assert!(expand(bad, "arg").is_err(), "{bad:?} was accepted");
        }
        // A range that produces a leading '-' is caught per name, too.
        assert!(expand("[-a,b]", "arg").is_err());
    }

    #[test]
    fn host_files_with_comments_and_blank_lines() {
        let text =
            "# the A100 rack\nnode[01-02]   # two nodes\n\n  root@gpu-x:2222\n#node99\nn1 n2\n";
        let t = parse_list(text, "hosts.txt").unwrap();
        let labels: Vec<String> = t.iter().map(Target::label).collect();
        assert_eq!(labels, ["node01", "node02", "root@gpu-x:2222", "n1", "n2"]);
        let err = parse_list("ok\n-oProxyCommand=x\n", "h").unwrap_err();
        assert!(err.to_string().starts_with("h:2: host"), "{err}");
    }

    #[test]
    fn duplicates_are_dropped_keeping_order() {
        let t = dedup(parse_list("b\na\nb\nn[1-2]\nn1\n", "h").unwrap());
        let labels: Vec<String> = t.iter().map(Target::label).collect();
        assert_eq!(labels, ["b", "a", "n1", "n2"]);
    }
}
