//! Imports point down the data flow (developers' guide, rule 5): facts → matrix → checks →
//! probes → report → the commands beside the pipeline → fleet → tui → cli/cmd. This test
//! reads every `crate::` and `super::` path in `src/` and fails on one that points up (or
//! sideways between two modules of one layer), so a new upward import is caught where it
//! is written.
//!
//! Not counted: test code (`tests.rs`, `testutil.rs`, and everything after a
//! `#[cfg(test)]` module), comments, and re-exports left at an old path after a move
//! (lines marked `// moved: <new path>`), which only keep older callers compiling.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Top-level modules of `src/`, lowest layer first. A module may import from any module of
/// a lower layer, never from its own layer or a higher one.
const LAYERS: &[&[&str]] = &[
    &["fact", "version"],
    &["host", "finding", "arch_list", "cuda_ffi"],
    &["facts"],
    &["matrix"],
    &["checks"],
    &["probes"],
    &["report"],
    &["error"],
    &["explain", "diff", "grid"],
    // The pipeline decodes `--deep`'s torch errors with explain's decoder.
    &["pipeline"],
    &["diagnose"],
    &["fleet"],
    &["tui"],
    &["cli"],
    &["cmd", "app", "lib", "main"],
];

/// Upward imports that are known and accepted (at most two): (from, to, why).
const ACCEPTED_UPWARD: &[(&str, &str, &str)] = &[];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a file: src/facts/python/deep.rs → ["facts", "python", "deep"].
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap_or(file).with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The source without test code, comments and `// moved:` re-export lines.
fn production_lines(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        if t == "#[cfg(test)]"
            && lines
                .peek()
                .is_some_and(|n| n.trim_start().starts_with("mod ") && n.contains('{'))
        {
            break;
        }
        if t.starts_with("//") || line.contains("// moved:") {
            continue;
        }
        out.push(line);
    }
    out
}

/// The top-level modules a file imports from, with the line that does.
fn imports(module: &[String], text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for line in production_lines(text) {
        for (prefix, up) in [("crate::", None), ("super::", Some(1usize))] {
            let mut rest = line;
            while let Some(i) = rest.find(prefix) {
                let before = rest[..i].chars().last();
                rest = &rest[i + prefix.len()..];
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                let mut path: Vec<String> = match up {
                    None => Vec::new(),
                    Some(_) => module[..module.len().saturating_sub(1)].to_vec(),
                };
                let mut tail = rest;
                // `super::super::x`
                while let Some(r) = tail.strip_prefix("super::") {
                    path.pop();
                    tail = r;
                }
                let first: String = tail
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !first.is_empty() {
                    path.push(first);
                }
                if let Some(top) = path.first() {
                    out.push((top.clone(), line.trim().to_string()));
                }
            }
        }
    }
    out
}

#[test]
fn imports_point_down_the_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    assert!(files.len() > 50, "src/ not found at {}", src.display());
    let mut unknown = BTreeSet::new();
    let mut upward = Vec::new();
    let mut accepted_seen = BTreeSet::new();
    for file in &files {
        let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name == "tests.rs" || name == "testutil.rs" {
            continue;
        }
        let module = module_of(&src, file);
        let from = module.first().cloned().unwrap_or_default();
        let Some(from_layer) = layer_of(&from) else {
            unknown.insert(from);
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap_or_default();
        for (to, line) in imports(&module, &text) {
            if to == from {
                continue;
            }
            let Some(to_layer) = layer_of(&to) else {
                unknown.insert(to);
                continue;
            };
            if to_layer >= from_layer {
                if let Some(a) = ACCEPTED_UPWARD
                    .iter()
                    .find(|(f, t, _)| *f == from && *t == to)
                {
                    accepted_seen.insert((a.0, a.1));
                    continue;
                }
                upward.push(format!(
                    "{} imports {to} (layer {to_layer} ≥ {from_layer}): {line}",
                    file.strip_prefix(&src).unwrap_or(file).display()
                ));
            }
        }
    }
    assert!(
        unknown.is_empty(),
        "modules missing from LAYERS in tests/layering.rs: {unknown:?}"
    );
    assert!(
        upward.is_empty(),
        "imports that point up the layers (move the type down, or pass the value in):\n{}",
        upward.join("\n")
    );
    assert!(ACCEPTED_UPWARD.len() <= 2);
    assert_eq!(
        accepted_seen.len(),
        ACCEPTED_UPWARD.len(),
        "an accepted upward import is gone: drop it from ACCEPTED_UPWARD"
    );
}

#[test]
fn the_scanner_sees_crate_and_super_paths_and_skips_moved_lines_and_tests() {
    let module = vec!["checks".to_string(), "gpu".to_string()];
    let text = "use crate::report::Report;\n\
                use super::view;\n\
                pub use crate::tui::x; // moved: src/x.rs\n\
                // crate::fleet in a comment\n\
                fn f() { let _ = crate::probes::plan::plan; }\n\
                #[cfg(test)]\n\
                mod tests {\n    use crate::tui::app::App;\n}\n";
    let got: Vec<String> = imports(&module, text).into_iter().map(|(m, _)| m).collect();
    assert_eq!(got, vec!["report", "checks", "probes"]);
    assert_eq!(layer_of("facts"), Some(2));
    assert!(layer_of("checks") < layer_of("probes"));
    assert!(layer_of("fleet") < layer_of("tui"));
}
