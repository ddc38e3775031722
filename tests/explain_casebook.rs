#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The casebook (`src/explain/casebook.tsv`, read by `explain`'s known-case ranking) is the
//! development part of the error corpus and nothing else: every dev case, in corpus order,
//! and no held-out case, ever. `GPU_DOCTOR_UPDATE_CASEBOOK=1` rewrites it from the corpus.

use std::path::Path;

use gpu_doctor::explain::similar::casebook_line;

#[derive(serde::Deserialize)]
struct File {
    #[serde(default)]
    case: Vec<Case>,
}

#[derive(serde::Deserialize)]
struct Case {
    id: String,
    source: String,
    text: String,
    cause: String,
    #[serde(default)]
    split: Option<String>,
}

fn corpus() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/errors");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
        .iter()
        .flat_map(|p| {
            let f: File = toml::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
            f.case
        })
        .collect()
}

fn is_dev(c: &Case) -> bool {
    c.split.as_deref().is_none_or(|s| s == "dev")
}

#[test]
fn the_casebook_is_the_dev_corpus_and_holds_no_held_out_case() {
    let cases = corpus();
    let want: String = cases
        .iter()
        .filter(|c| is_dev(c))
        .map(|c| casebook_line(&c.id, &c.cause, &c.source, &c.text) + "\n")
        .collect();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/explain/casebook.tsv");
    if std::env::var_os("GPU_DOCTOR_UPDATE_CASEBOOK").is_some_and(|v| v == "1") {
        std::fs::write(&path, &want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap();
    // Held out means never in the book, whatever else changes.
    let held_out: std::collections::HashSet<&str> = cases
        .iter()
        .filter(|c| !is_dev(c))
        .map(|c| c.id.as_str())
        .collect();
    assert!(!held_out.is_empty(), "the corpus has a held-out part");
    for line in have.lines() {
        let id = line.split('\t').next().unwrap();
        assert!(
            !held_out.contains(id),
            "held-out case {id} is in the casebook"
        );
        assert_eq!(
            line.split('\t').count(),
            4,
            "malformed casebook line {line:?}"
        );
    }
    assert!(
        have == want,
        "src/explain/casebook.tsv is not the dev corpus: run \
         GPU_DOCTOR_UPDATE_CASEBOOK=1 cargo test --test explain_casebook"
    );
    assert_eq!(
        gpu_doctor::explain::similar::len(),
        cases.iter().filter(|c| is_dev(c)).count(),
        "the binary was built with another casebook"
    );
}
