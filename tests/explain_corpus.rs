#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Accuracy of `explain` on real error texts from public issue trackers and forums
//! (tests/corpus/errors/*.toml): a case is right when the top cause of the main match
//! is the cause the thread established. Every file in the folder counts, so new cases
//! are measured without touching this test.

use std::path::Path;

use gpu_doctor::explain::{explain, top_cause, KNOWN_IDS};

/// The accuracy below which the test fails.
const MIN_ACCURACY: f64 = 0.90;

#[derive(Debug, serde::Deserialize)]
struct File {
    #[serde(default)]
    case: Vec<Case>,
}

#[derive(Debug, serde::Deserialize)]
#[allow(dead_code)]
struct Case {
    id: String,
    source: String,
    text: String,
    cause: String,
    #[serde(default)]
    note: String,
}

fn cases() -> Vec<(String, Case)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/errors");
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let file: File =
            toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        out.extend(file.case.into_iter().map(|c| (name.clone(), c)));
    }
    out
}

#[test]
fn every_case_is_well_formed_with_a_known_cause_and_a_unique_id() {
    let cases = cases();
    assert!(!cases.is_empty());
    let mut ids: Vec<&str> = cases.iter().map(|(_, c)| c.id.as_str()).collect();
    ids.sort_unstable();
    let n = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), n, "duplicate case ids");
    for (file, c) in &cases {
        assert!(
            KNOWN_IDS.contains(&c.cause.as_str()),
            "{file} {}: unknown cause {:?}",
            c.id,
            c.cause
        );
        assert!(c.source.starts_with("http"), "{file} {}: source", c.id);
        assert!(!c.text.trim().is_empty(), "{file} {}: empty text", c.id);
    }
}

#[test]
fn explain_ranks_the_established_cause_first() {
    let cases = cases();
    let mut right = 0usize;
    let mut wrong = Vec::new();
    for (file, c) in &cases {
        let ex = explain(&c.text);
        let got = top_cause(&ex).map_or("(no match)".to_string(), |k| k.id.clone());
        if got == c.cause {
            right += 1;
        } else {
            let m = ex.primary.and_then(|i| ex.matches.get(i));
            wrong.push(format!(
                "{file} {}: want {} got {got} (match {})",
                c.id,
                c.cause,
                m.map_or("-", |m| m.id.as_str())
            ));
        }
    }
    let accuracy = right as f64 / cases.len() as f64;
    println!(
        "explain accuracy: {right}/{} = {:.1}%",
        cases.len(),
        accuracy * 100.0
    );
    for w in &wrong {
        println!("  {w}");
    }
    assert!(
        accuracy >= MIN_ACCURACY,
        "explain accuracy {:.1}% < {:.0}% ({right}/{}):\n{}",
        accuracy * 100.0,
        MIN_ACCURACY * 100.0,
        cases.len(),
        wrong.join("\n")
    );
}
