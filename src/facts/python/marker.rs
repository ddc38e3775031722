//! Just enough of PEP 508 environment markers to tell which `Requires-Dist` lines of a
//! torch wheel apply here (`platform_system == "Linux" and platform_machine == "x86_64"`).
//!
//! Evaluation is three-valued: a marker gpu-doctor cannot evaluate (an unknown variable, a
//! syntax it does not read) counts as applying, because dropping a real CUDA requirement
//! would hide a missing library, while keeping a foreign one only adds a line.

use crate::version::DottedVersion;

/// The values markers are compared with, for the machine gpu-doctor runs on.
#[derive(Debug, Clone)]
pub struct MarkerEnv {
    pub platform_machine: String,
    /// "3.11" when known.
    pub python_version: Option<String>,
    pub python_full_version: Option<String>,
}

impl MarkerEnv {
    pub fn linux(python_version: Option<&str>) -> MarkerEnv {
        let short = python_version.map(|v| v.split('.').take(2).collect::<Vec<_>>().join("."));
        MarkerEnv {
            platform_machine: std::env::consts::ARCH.to_string(),
            python_version: short,
            python_full_version: python_version.map(str::to_string),
        }
    }

    fn var(&self, name: &str) -> Option<String> {
        Some(match name {
            "platform_system" => "Linux".into(),
            "sys_platform" => "linux".into(),
            "os_name" => "posix".into(),
            "platform_machine" => self.platform_machine.clone(),
            "platform_python_implementation" => "CPython".into(),
            "implementation_name" => "cpython".into(),
            "python_version" => self.python_version.clone()?,
            "python_full_version" => self.python_full_version.clone()?,
            // Extras are opt-in: a plain install selects none.
            "extra" => String::new(),
            _ => return None,
        })
    }
}

/// Whether `marker` holds on `env`; `true` when it cannot be evaluated.
pub fn applies(marker: &str, env: &MarkerEnv) -> bool {
    let tokens = match tokenize(marker) {
        Some(t) => t,
        None => return true,
    };
    let mut p = Parser {
        tokens,
        pos: 0,
        env,
    };
    match p.or() {
        Some(v) if p.pos == p.tokens.len() => v.unwrap_or(true),
        _ => true,
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Str(String),
    Ident(String),
    Op(String),
    Open,
    Close,
}

fn tokenize(s: &str) -> Option<Vec<Tok>> {
    let chars: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '(' || c == ')' {
            out.push(if c == '(' { Tok::Open } else { Tok::Close });
            i += 1;
        } else if c == '"' || c == '\'' {
            let end = chars[i + 1..].iter().position(|x| *x == c)? + i + 1;
            out.push(Tok::Str(chars[i + 1..end].iter().collect()));
            i = end + 1;
        } else if "<>=!~".contains(c) {
            let start = i;
            while i < chars.len() && "<>=!~".contains(chars[i]) {
                i += 1;
            }
            out.push(Tok::Op(chars[start..i].iter().collect()));
        } else if c.is_alphanumeric() || c == '_' || c == '.' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || "_.".contains(chars[i])) {
                i += 1;
            }
            out.push(Tok::Ident(chars[start..i].iter().collect()));
        } else {
            return None;
        }
    }
    Some(out)
}

struct Parser<'a> {
    tokens: Vec<Tok>,
    pos: usize,
    env: &'a MarkerEnv,
}

/// `Some(None)`: parsed, value unknown; `None`: could not parse.
type Tri = Option<Option<bool>>;

impl Parser<'_> {
    fn peek_ident(&self, word: &str) -> bool {
        matches!(self.tokens.get(self.pos), Some(Tok::Ident(w)) if w == word)
    }

    fn or(&mut self) -> Tri {
        let mut acc = self.and()?;
        while self.peek_ident("or") {
            self.pos += 1;
            let rhs = self.and()?;
            acc = match (acc, rhs) {
                (Some(true), _) | (_, Some(true)) => Some(true),
                (Some(false), Some(false)) => Some(false),
                _ => None,
            };
        }
        Some(acc)
    }

    fn and(&mut self) -> Tri {
        let mut acc = self.atom()?;
        while self.peek_ident("and") {
            self.pos += 1;
            let rhs = self.atom()?;
            acc = match (acc, rhs) {
                (Some(false), _) | (_, Some(false)) => Some(false),
                (Some(true), Some(true)) => Some(true),
                _ => None,
            };
        }
        Some(acc)
    }

    fn atom(&mut self) -> Tri {
        if self.tokens.get(self.pos) == Some(&Tok::Open) {
            self.pos += 1;
            let v = self.or()?;
            if self.tokens.get(self.pos) != Some(&Tok::Close) {
                return None;
            }
            self.pos += 1;
            return Some(v);
        }
        let lhs = self.value()?;
        let op = self.op()?;
        let rhs = self.value()?;
        Some(compare(lhs.as_deref(), &op, rhs.as_deref()))
    }

    /// A quoted string, or a variable's value (`Some(None)` for an unknown variable).
    fn value(&mut self) -> Option<Option<String>> {
        let tok = self.tokens.get(self.pos)?.clone();
        self.pos += 1;
        match tok {
            Tok::Str(s) => Some(Some(s)),
            Tok::Ident(name) => Some(self.env.var(&name)),
            _ => None,
        }
    }

    fn op(&mut self) -> Option<String> {
        let tok = self.tokens.get(self.pos)?.clone();
        self.pos += 1;
        match tok {
            Tok::Op(op) => Some(op),
            Tok::Ident(w) if w == "in" => Some("in".into()),
            Tok::Ident(w) if w == "not" && self.peek_ident("in") => {
                self.pos += 1;
                Some("not in".into())
            }
            _ => None,
        }
    }
}

fn compare(lhs: Option<&str>, op: &str, rhs: Option<&str>) -> Option<bool> {
    let (l, r) = (lhs?, rhs?);
    match op {
        "in" => return Some(r.contains(l)),
        "not in" => return Some(!r.contains(l)),
        "===" => return Some(l == r),
        _ => {}
    }
    if let (Some(a), Some(b)) = (DottedVersion::parse(l), DottedVersion::parse(r)) {
        if l.chars().all(|c| c.is_ascii_digit() || c == '.')
            && r.chars().all(|c| c.is_ascii_digit() || c == '.')
        {
            return Some(match op {
                "==" => a == b,
                "!=" => a != b,
                "<" => a < b,
                "<=" => a <= b,
                ">" => a > b,
                ">=" => a >= b,
                "~=" => a >= b && a.same_prefix(&b, b.parts().len().saturating_sub(1).max(1)),
                _ => return None,
            });
        }
    }
    match op {
        "==" => Some(l == r),
        "!=" => Some(l != r),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    fn env() -> MarkerEnv {
        MarkerEnv {
            platform_machine: "x86_64".into(),
            python_version: Some("3.11".into()),
            python_full_version: Some("3.11.7".into()),
        }
    }

    #[test]
    fn markers_from_real_torch_wheels() {
        let cases = [
            ("platform_system == \"Linux\" and platform_machine == \"x86_64\"", true),
            ("platform_system == \"Linux\" and platform_machine == \"aarch64\"", false),
            ("platform_system == \"Windows\"", false),
            ("extra == \"opt-einsum\"", false),
            ("extra == \"optree\"", false),
            ("python_version >= \"3.12\"", false),
            ("python_version < \"3.13\"", true),
            ("platform_system == 'Linux' and platform_machine == 'x86_64' and python_version < '3.14'", true),
            ("(platform_system == \"Linux\" or sys_platform == \"darwin\") and extra != \"x\"", true),
            ("platform_machine in \"x86_64 AMD64\"", true),
            ("platform_machine not in \"x86_64 AMD64\"", false),
            ("python_full_version >= \"3.9.0\"", true),
        ];
        for (marker, want) in cases {
            assert_eq!(applies(marker, &env()), want, "{marker}");
        }
    }

    #[test]
    fn what_cannot_be_evaluated_applies() {
        for marker in [
            "some_future_variable == \"x\"",
            "platform_system ==",
            "((",
            "platform_system == \"Linux\" and",
            "platform_system @ \"Linux\"",
            "\"unterminated",
            "",
        ] {
            assert!(applies(marker, &env()), "{marker}");
        }
        // An unknown half of an `and` cannot rescue a false half.
        assert!(!applies(
            "future_var == \"x\" and platform_system == \"Windows\"",
            &env()
        ));
        let no_version = MarkerEnv {
            python_version: None,
            ..env()
        };
        assert!(applies("python_version >= \"3.12\"", &no_version));
    }
}
