//! The real error-text corpus (`tests/corpus/errors/*.toml`) as the tests read it: every case
//! with its file name, files in name order. Whether a case is held out is its `split`
//! (tests/corpus/SPLIT.md; no split means dev).
#![allow(dead_code)]

use std::path::{Path, PathBuf};

#[derive(Debug, serde::Deserialize)]
struct File {
    #[serde(default)]
    case: Vec<Case>,
}

#[derive(Debug, serde::Deserialize)]
pub struct Case {
    pub id: String,
    pub source: String,
    pub text: String,
    pub cause: String,
    #[serde(default)]
    pub note: String,
    #[serde(default)]
    pub split: Option<String>,
}

impl Case {
    pub fn is_dev(&self) -> bool {
        self.split.as_deref().is_none_or(|s| s == "dev")
    }
}

/// The corpus folder: `tests/corpus/errors`.
pub fn default_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/errors")
}

/// Every case of every toml in `dir`, with its file's name.
pub fn read(dir: &Path) -> Vec<(String, Case)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let file: File =
            toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        out.extend(file.case.into_iter().map(|c| (name.clone(), c)));
    }
    out
}
