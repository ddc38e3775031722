#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The casebook (`src/explain/casebook.tsv`, read by `explain`'s known-case ranking) is the
//! development part of the error corpus and nothing else: every dev case, in corpus order,
//! and no held-out case, ever. `GPU_DOCTOR_UPDATE_CASEBOOK=1` rewrites it from the corpus.

use std::path::Path;

use gpu_doctor::explain::similar::casebook_line;

#[path = "common/error_corpus.rs"]
mod error_corpus;

fn is_dev(c: &error_corpus::Case) -> bool {
    c.is_dev()
}

#[test]
fn the_casebook_is_the_dev_corpus_and_holds_no_held_out_case() {
    let cases: Vec<error_corpus::Case> = error_corpus::read(&error_corpus::default_dir())
        .into_iter()
        .map(|(_, c)| c)
        .collect();
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
