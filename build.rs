//! Converts the bundled matrix (TOML, written by people) into one JSON document that the
//! binary deserializes at start-up: JSON parses several times faster than TOML, and every
//! report loads the matrix. Validation of the TOML itself is a unit test and
//! `gpu-doctor matrix validate`.
//!
//! It also records what `--version` prints beside the crate's version: the git commit
//! (`git rev-parse --short HEAD`, or `GPU_DOCTOR_GIT_COMMIT` when set, or "unknown" where
//! there is no git or no repository, as in a source tarball) and the bundled matrix's
//! version.

use std::error::Error;
use std::path::Path;

include!("src/matrix/files.rs");

fn main() -> Result<(), Box<dyn Error>> {
    println!("cargo:rerun-if-changed=compat-matrix");
    let mut all = serde_json::Map::new();
    for name in FILES {
        let path = Path::new("compat-matrix").join(name);
        println!("cargo:rerun-if-changed={}", path.display());
        let text = std::fs::read_to_string(&path)?;
        let value: toml::Value =
            toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        all.insert(name.to_string(), serde_json::to_value(value)?);
    }
    let matrix_version = all
        .get("matrix.toml")
        .and_then(|m| m.get("version"))
        .and_then(|v| v.as_str())
        .unwrap_or("unknown")
        .to_string();
    println!("cargo:rustc-env=GPU_DOCTOR_MATRIX_VERSION={matrix_version}");
    println!("cargo:rustc-env=GPU_DOCTOR_GIT_COMMIT={}", git_commit());
    let out = Path::new(&std::env::var("OUT_DIR")?).join("matrix.json");
    std::fs::write(out, serde_json::to_string(&all)?)?;
    Ok(())
}

/// The commit being built, short; "unknown" without git or outside a repository.
fn git_commit() -> String {
    println!("cargo:rerun-if-env-changed=GPU_DOCTOR_GIT_COMMIT");
    if let Some(c) = std::env::var("GPU_DOCTOR_GIT_COMMIT")
        .ok()
        .filter(|c| is_commit(c))
    {
        return c;
    }
    let git = |args: &[&str]| -> Option<String> {
        let out = std::process::Command::new("git")
            .args(args)
            .stderr(std::process::Stdio::null())
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    // Rebuilt when HEAD moves (a worktree's .git is a file: ask git where HEAD is).
    for what in ["HEAD", "index"] {
        if let Some(p) = git(&["rev-parse", "--git-path", what]) {
            if Path::new(&p).exists() {
                println!("cargo:rerun-if-changed={p}");
            }
        }
    }
    // Only this crate's own repository: not a parent folder's that happens to hold it.
    let same = match (
        git(&["rev-parse", "--show-toplevel"]),
        std::env::var("CARGO_MANIFEST_DIR"),
    ) {
        (Some(top), Ok(here)) => std::fs::canonicalize(top)
            .ok()
            .is_some_and(|t| std::fs::canonicalize(here).ok() == Some(t)),
        _ => false,
    };
    if !same {
        return "unknown".to_string();
    }
    git(&["rev-parse", "--short", "HEAD"])
        .filter(|c| is_commit(c))
        .unwrap_or_else(|| "unknown".to_string())
}

fn is_commit(c: &str) -> bool {
    (7..=40).contains(&c.len()) && c.chars().all(|ch| ch.is_ascii_hexdigit())
}
