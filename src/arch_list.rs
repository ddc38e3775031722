//! TORCH_CUDA_ARCH_LIST (and the matrix's arch lists) in one parser: entries such as
//! "8.6", "9.0a", "8.0+PTX", and whether a list covers a compute capability.

/// One TORCH_CUDA_ARCH_LIST entry, e.g. "8.6", "9.0a", "8.0+PTX".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchEntry {
    pub major: u32,
    pub minor: u32,
    /// "a" (arch-specific, runs only on exactly this CC) or "f" (family).
    pub suffix: Option<char>,
    pub ptx: bool,
}

/// Parses "7.0;7.5 8.0+PTX 9.0a"; `Err` carries an entry it cannot read (named
/// architectures such as "Ampere" are left to PyTorch and not judged here).
pub fn parse_arch_list(value: &str) -> Result<Vec<ArchEntry>, String> {
    value
        .split(|c: char| c == ';' || c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .map(|tok| {
            let (cc, ptx) = match tok.strip_suffix("+PTX") {
                Some(cc) => (cc, true),
                None => (tok, false),
            };
            let (num, suffix) = match cc.chars().last() {
                Some(c @ ('a' | 'f')) => (&cc[..cc.len() - 1], Some(c)),
                _ => (cc, None),
            };
            let (maj, min) = num.split_once('.').ok_or_else(|| tok.to_string())?;
            Ok(ArchEntry {
                major: maj.parse().map_err(|_| tok.to_string())?,
                minor: min.parse().map_err(|_| tok.to_string())?,
                suffix,
                ptx,
            })
        })
        .collect()
}

/// Whether code built for `entries` runs on a GPU of compute capability major.minor:
/// SASS runs on the same major with an equal or higher minor ("a" only on exactly its
/// CC); PTX JIT-compiles for any equal or newer CC.
pub fn arch_list_covers(entries: &[ArchEntry], major: u32, minor: u32) -> bool {
    entries.iter().any(|e| {
        let sass = match e.suffix {
            Some('a') => e.major == major && e.minor == minor,
            _ => e.major == major && e.minor <= minor,
        };
        sass || (e.ptx && (e.major, e.minor) <= (major, minor))
    })
}

/// A compute capability "9.0" as (9, 0).
pub fn parse_cc(cc: &str) -> Option<(u32, u32)> {
    let (a, b) = cc.trim().split_once('.')?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

/// How a set of compiled targets serves one compute capability.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Coverage {
    /// Native code (SASS) for it: runs at full speed.
    Sass(String),
    /// Only PTX, which the driver JIT-compiles at first use.
    PtxOnly(String),
    None,
}

/// Parses "sm_90", "sm_90a", "compute_86", "sm_100f" into (is_ptx, major, minor, suffix).
fn parse_target(t: &str) -> Option<(bool, u32, u32, Option<char>)> {
    let (ptx, rest) = if let Some(r) = t.strip_prefix("sm_") {
        (false, r)
    } else {
        (true, t.strip_prefix("compute_")?)
    };
    let (digits, suffix) = match rest.chars().last() {
        Some(c @ ('a' | 'f')) => (&rest[..rest.len() - 1], Some(c)),
        _ => (rest, None),
    };
    if digits.len() < 2 || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let (maj, min) = digits.split_at(digits.len() - 1);
    Some((ptx, maj.parse().ok()?, min.parse().ok()?, suffix))
}

/// SASS runs on the same major with an equal or higher minor ("a" only on exactly its
/// CC); PTX JIT-compiles for any equal or newer CC (an "a"/"f" PTX only within its kind).
pub fn coverage(targets: &[String], major: u32, minor: u32) -> Coverage {
    let mut ptx = None;
    for t in targets {
        let Some((is_ptx, a, b, suffix)) = parse_target(t) else {
            continue;
        };
        if !is_ptx {
            let ok = match suffix {
                Some('a') => a == major && b == minor,
                _ => a == major && b <= minor,
            };
            if ok {
                return Coverage::Sass(t.clone());
            }
        } else {
            let ok = match suffix {
                None => (a, b) <= (major, minor),
                Some('a') => a == major && b == minor,
                Some(_) => a == major && b <= minor,
            };
            if ok && ptx.is_none() {
                ptx = Some(t.clone());
            }
        }
    }
    ptx.map_or(Coverage::None, Coverage::PtxOnly)
}
