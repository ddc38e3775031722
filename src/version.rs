//! Version numbers as types, so that "550.54.15" < "550.120" compares as the driver does.

use std::cmp::Ordering;

/// What `gpu-doctor --version` prints: the crate's version, the git commit it was built
/// from ("unknown" from a source tarball) and the bundled compatibility matrix's version.
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("GPU_DOCTOR_GIT_COMMIT"),
    ", matrix ",
    env!("GPU_DOCTOR_MATRIX_VERSION"),
    ")"
);

/// `--version`: [`VERSION`] with each part on its own line.
pub const LONG_VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    "\ncommit: ",
    env!("GPU_DOCTOR_GIT_COMMIT"),
    "\nmatrix: ",
    env!("GPU_DOCTOR_MATRIX_VERSION"),
    " (bundled; `gpu-doctor matrix update` may keep a newer one)"
);

/// The git commit this binary was built from (`git rev-parse --short HEAD`), or "unknown".
pub const GIT_COMMIT: &str = env!("GPU_DOCTOR_GIT_COMMIT");

/// The version of the compatibility matrix built into this binary.
pub const BUNDLED_MATRIX_VERSION: &str = env!("GPU_DOCTOR_MATRIX_VERSION");
use std::fmt;

/// A dotted numeric version (driver "535.183.01", CUDA "12.4.131", cuDNN "9.1.0.70").
/// Leading zeros are kept for display ("01") and ignored for ordering.
#[derive(Debug, Clone, Eq)]
pub struct DottedVersion {
    parts: Vec<u64>,
    text: String,
}

impl DottedVersion {
    /// Parses the leading dotted-number part of `s` ("12.1.105+cu121" -> 12.1.105).
    /// `None` when `s` does not start with a number.
    pub fn parse(s: &str) -> Option<Self> {
        let s = s.trim();
        let end = s
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(s.len());
        let head = s[..end].trim_end_matches('.');
        if head.is_empty() {
            return None;
        }
        let parts = head
            .split('.')
            .map(|p| p.parse::<u64>().ok())
            .collect::<Option<Vec<u64>>>()?;
        Some(DottedVersion {
            parts,
            text: head.to_string(),
        })
    }

    pub fn parts(&self) -> &[u64] {
        &self.parts
    }

    pub fn major(&self) -> u64 {
        self.parts.first().copied().unwrap_or(0)
    }

    pub fn minor(&self) -> u64 {
        self.parts.get(1).copied().unwrap_or(0)
    }

    /// Same first `n` components.
    pub fn same_prefix(&self, other: &Self, n: usize) -> bool {
        (0..n).all(|i| {
            self.parts.get(i).copied().unwrap_or(0) == other.parts.get(i).copied().unwrap_or(0)
        })
    }
}

impl PartialEq for DottedVersion {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Ord for DottedVersion {
    fn cmp(&self, other: &Self) -> Ordering {
        let n = self.parts.len().max(other.parts.len());
        for i in 0..n {
            let a = self.parts.get(i).copied().unwrap_or(0);
            let b = other.parts.get(i).copied().unwrap_or(0);
            match a.cmp(&b) {
                Ordering::Equal => {}
                o => return o,
            }
        }
        Ordering::Equal
    }
}

impl PartialOrd for DottedVersion {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for DottedVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// CUDA encodes versions as `1000 * major + 10 * minor` (12040 -> "12.4").
pub fn cuda_version_from_int(v: i64) -> String {
    format!("{}.{}", v / 1000, (v % 1000) / 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> DottedVersion {
        DottedVersion::parse(s).unwrap()
    }

    #[test]
    fn orders_numerically() {
        assert!(v("550.120") > v("550.54.15"));
        assert!(v("535.183.01") < v("550.54.15"));
        assert_eq!(v("12.4"), v("12.4.0"));
        assert_eq!(v("535.183.01").to_string(), "535.183.01");
        assert_eq!(v("2.4.1+cu121").to_string(), "2.4.1");
        assert!(DottedVersion::parse("abc").is_none());
        assert!(DottedVersion::parse("").is_none());
        assert!(DottedVersion::parse("99999999999999999999999").is_none());
    }

    #[test]
    fn cuda_ints() {
        assert_eq!(cuda_version_from_int(12040), "12.4");
        assert_eq!(cuda_version_from_int(11080), "11.8");
        assert_eq!(cuda_version_from_int(13000), "13.0");
    }

    #[test]
    fn prefixes() {
        assert!(v("550.54.15").same_prefix(&v("550.54.14"), 2));
        assert!(!v("550.54.15").same_prefix(&v("550.54.14"), 3));
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        fn render(parts: &[u32]) -> String {
            parts
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(".")
        }

        fn trimmed(parts: &[u32]) -> Vec<u32> {
            let mut v = parts.to_vec();
            while v.len() > 1 && v.last() == Some(&0) {
                v.pop();
            }
            v
        }

        proptest! {
            /// Ordering is numeric per component, with missing components as zero.
            #[test]
            fn orders_like_the_numbers(a in prop::collection::vec(0u32..100_000, 1..5), b in prop::collection::vec(0u32..100_000, 1..5)) {
                let (va, vb) = (v(&render(&a)), v(&render(&b)));
                prop_assert_eq!(va == vb, trimmed(&a) == trimmed(&b));
                prop_assert_eq!(va.cmp(&vb), cmp_padded(&a, &b));
                prop_assert_eq!(vb.cmp(&va), cmp_padded(&a, &b).reverse());
            }

            /// Display keeps the text (leading zeros included) and parsing it again gives an equal version.
            #[test]
            fn round_trips(a in prop::collection::vec(0u32..1000, 1..5), local in "[a-z0-9]{0,6}") {
                let text = if local.is_empty() { render(&a) } else { format!("{}+{local}", render(&a)) };
                let parsed = v(&text);
                prop_assert_eq!(parsed.to_string(), render(&a));
                prop_assert_eq!(v(&parsed.to_string()), parsed);
            }

            /// Garbage never panics.
            #[test]
            fn garbage_is_none_or_a_version(s in ".{0,20}") {
                let _ = DottedVersion::parse(&s);
            }
        }

        fn cmp_padded(a: &[u32], b: &[u32]) -> std::cmp::Ordering {
            let n = a.len().max(b.len());
            let get = |x: &[u32], i: usize| x.get(i).copied().unwrap_or(0);
            (0..n)
                .map(|i| get(a, i).cmp(&get(b, i)))
                .find(|o| *o != std::cmp::Ordering::Equal)
                .unwrap_or(std::cmp::Ordering::Equal)
        }

        #[test]
        fn driver_and_torch_versions_compare_as_numbers_not_strings() {
            assert!(v("525.60.13") < v("525.105.17"));
            assert!(v("525.105.17") > v("525.60.13"));
            assert!(v("2.10.0") > v("2.9.1"));
            assert!(v("2.7.0.dev20250310+cu124") > v("2.6.0"));
            assert!("2.10.0" < "2.9.1", "strings would get this wrong");
        }
    }
}
