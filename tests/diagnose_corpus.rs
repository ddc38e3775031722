#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Accuracy of `diagnose` on real collect_env pastes from public threads
//! (tests/corpus/collect_env/cases.toml + the .txt files): a case is right when the
//! diagnosis (the log's top cause refined with the paste's findings, else the top
//! failing/warning finding, "none" when there is none) is the cause the thread
//! established. The parsed facts must match each case's `[case.facts]`.

use std::path::{Path, PathBuf};

use gpu_doctor::diagnose::{collect_env, diagnose};
use gpu_doctor::explain::KNOWN_IDS;
use gpu_doctor::matrix::Matrix;

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
    file: String,
    source: String,
    #[serde(default)]
    log: Option<String>,
    cause: String,
    #[serde(default)]
    note: String,
    #[serde(default)]
    facts: Option<toml::Table>,
    /// "dev" (or absent: the cases gathered before the split) or held out.
    #[serde(default)]
    split: Option<String>,
}

fn is_dev(c: &Case) -> bool {
    c.split.as_deref().is_none_or(|s| s == "dev")
}

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/collect_env")
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(dir().join("cases.toml")).unwrap();
    let file: File = toml::from_str(&text).unwrap();
    file.case
}

fn paste(c: &Case) -> String {
    let bytes =
        std::fs::read(dir().join(&c.file)).unwrap_or_else(|e| panic!("{}: {}: {e}", c.id, c.file));
    String::from_utf8_lossy(&bytes).into_owned()
}

#[test]
fn every_case_is_well_formed_with_a_known_cause() {
    let cases = cases();
    assert!(!cases.is_empty());
    let mut ids: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
    ids.sort_unstable();
    let n = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), n, "duplicate case ids");
    for c in &cases {
        assert!(
            c.cause == "none" || KNOWN_IDS.contains(&c.cause.as_str()),
            "{}: unknown cause {:?}",
            c.id,
            c.cause
        );
        assert!(
            dir().join(&c.file).is_file(),
            "{}: no file {}",
            c.id,
            c.file
        );
        assert!(c.source.starts_with("http"), "{}: source", c.id);
    }
}

#[test]
fn parsed_facts_match_each_cases_facts() {
    let mut wrong = Vec::new();
    let mut checked = 0usize;
    for c in cases() {
        let Some(want) = &c.facts else { continue };
        let ce = collect_env::parse(&paste(&c));
        for (key, value) in want {
            checked += 1;
            let got: toml::Value = match key.as_str() {
                "torch" => opt(&ce.torch),
                "torch_cuda" => opt(&ce.torch_cuda),
                "driver" => opt(&ce.driver),
                "cuda_runtime" => opt(&ce.cuda_runtime),
                "os" => opt(&ce.os),
                "cudnn" => opt(&ce.cudnn),
                "cuda_available" => ce
                    .cuda_available
                    .map_or(toml::Value::String("(absent)".into()), toml::Value::Boolean),
                "gpus" => toml::Value::Array(
                    ce.gpus
                        .iter()
                        .map(|g| toml::Value::String(g.clone()))
                        .collect(),
                ),
                other => panic!("{}: unknown fact key {other}", c.id),
            };
            if &got != value {
                wrong.push(format!("{} {key}: want {value} got {got}", c.id));
            }
        }
    }
    assert!(checked > 0);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

fn opt(v: &Option<String>) -> toml::Value {
    toml::Value::String(v.clone().unwrap_or_else(|| "(absent)".into()))
}

/// Both parts' figures (first-ranked, in the list, the misses); each part must reach 90%
/// first-ranked, and no control (cause "none") may blame the machine.
#[test]
fn diagnose_names_the_established_cause() {
    let matrix = Matrix::bundled().unwrap();
    let cases = cases();
    let mut failures = Vec::new();
    for dev in [true, false] {
        let name = if dev { "dev" } else { "held-out" };
        let part: Vec<&Case> = cases.iter().filter(|c| is_dev(c) == dev).collect();
        if part.is_empty() {
            continue;
        }
        let (mut right, mut listed) = (0usize, 0usize);
        let mut wrong = Vec::new();
        for c in &part {
            let d = diagnose(&paste(c), c.log.as_deref(), &matrix);
            let in_list = d.cause == c.cause
                || d.log.as_ref().is_some_and(|ex| {
                    ex.matches
                        .iter()
                        .any(|m| m.causes.iter().any(|k| k.id == c.cause))
                })
                || d.report.findings.iter().any(|f| {
                    f.id == c.cause && f.severity >= gpu_doctor::report::finding::Severity::Warn
                });
            listed += usize::from(in_list);
            if d.cause == c.cause {
                right += 1;
            } else {
                wrong.push(format!(
                    "{}: want {} got {} ({}: {})",
                    c.id, c.cause, d.cause, d.from, d.summary
                ));
                if c.cause == "none" {
                    failures.push(format!(
                        "{name} control {} blames the machine: {}",
                        c.id, d.cause
                    ));
                }
            }
        }
        let n = part.len();
        let accuracy = right as f64 / n as f64;
        println!(
            "diagnose accuracy, {name}: first-ranked {right}/{n} = {:.1}%, in the list {listed}/{n} = {:.1}%",
            accuracy * 100.0,
            listed as f64 / n as f64 * 100.0
        );
        for w in &wrong {
            println!("  {w}");
        }
        if accuracy < MIN_ACCURACY {
            failures.push(format!(
                "{name}: diagnose accuracy {:.1}% < {:.0}% ({right}/{n}):\n{}",
                accuracy * 100.0,
                MIN_ACCURACY * 100.0,
                wrong.join("\n")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
