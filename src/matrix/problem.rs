//! What validation reports (a `Problem` with file and line) and what it reads lines from
//! (`Texts`): shared by loading and validating a matrix.

use std::fmt;

/// The format version of the matrix files this gpu-doctor reads.
pub const SCHEMA: u32 = 1;

/// One thing wrong with a matrix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub file: String,
    /// 1-based; `None` when the problem is about the file as a whole.
    pub line: Option<usize>,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{l}: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

/// The texts of a matrix's files, keyed by file name, to locate problems by line.
pub struct Texts {
    pub(super) files: Vec<(String, String)>,
}

impl Texts {
    pub fn get(&self, file: &str) -> &str {
        self.files
            .iter()
            .find(|(f, _)| f == file)
            .map_or("", |(_, t)| t.as_str())
    }

    /// The 1-based line of the first `key = "value"` (or `key = value`) in `file`.
    pub fn line_of(&self, file: &str, key: &str, value: &str) -> Option<usize> {
        let quoted = format!("\"{value}\"");
        self.get(file)
            .lines()
            .position(|l| {
                let t = l.trim_start();
                t.starts_with(key)
                    && t[key.len()..].trim_start().starts_with('=')
                    && (t.contains(&quoted)
                        || t.split('=').nth(1).is_some_and(|v| v.trim() == value))
            })
            .map(|i| i + 1)
    }

    /// The first line mentioning `needle` at all.
    pub fn line_containing(&self, file: &str, needle: &str) -> Option<usize> {
        self.get(file)
            .lines()
            .position(|l| l.contains(needle))
            .map(|i| i + 1)
    }
}
