#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Accuracy of `diagnose` on real environment pastes of every format (tests/corpus/pastes:
//! cases.toml + the files as people pasted them: detectron2/vLLM/sglang/jax/ComfyUI info,
//! nvidia-smi, ds_report, pip lists, dmesg, free-form lines, mixed with prose). Each case
//! has `split = "dev"` or a held-out split chosen at random when it was gathered (SPLIT.md);
//! both parts' figures are printed and each must reach 90% first-ranked. Controls (cause
//! "none") must not blame the machine. The parsed facts must match each case's
//! `[case.facts]` on 85% of the facts checked. GPU_DOCTOR_PASTE_CORPUS points at another
//! folder; GPU_DOCTOR_CORPUS_DEV_ONLY=1 leaves the held-out part unread (for rule writing).

use std::path::{Path, PathBuf};

use gpu_doctor::diagnose::{diagnose, paste};
use gpu_doctor::explain::KNOWN_IDS;
use gpu_doctor::matrix::Matrix;
use gpu_doctor::report::finding::Severity;

/// The goal of issue #14: the established cause first for 90% of each part.
const TARGET: f64 = 0.90;
/// What the test enforces per part (first-ranked, facts parsed right): floors at the last
/// measured figures (dev 79.5%, held-out 65.3% first-ranked; facts 97.9% and 75.3%,
/// 2026-11-24), so a change that makes either part worse fails. They are below the target:
/// raise them as the figures rise, never by reading held-out cases.
fn floors(part: &str) -> (f64, f64) {
    match part {
        "dev" => (0.75, 0.85),
        // measured 2026-11-24 after round 3's changes: 27/29 first-ranked, facts 172/172
        // (53 cases; 26/29 before round 3)
        ADDED => (0.90, 0.95),
        // measured 2026-11-24 after round 3's changes: 21/28 first-ranked, facts 36/37 (31
        // cases; 18/28 after round 2)
        ADDED_C => (0.70, 0.95),
        // round 3 (dev-2026-11d), after its batches' changes: 39/41 first-ranked, facts 14/15
        // (41 cases; each batch's first measure is in SPLIT.md)
        ADDED_D => (0.90, 0.90),
        // measured 2026-11-24 (round 3, dev-2026-11e): 3/4 first-ranked, facts 7/7 (4 cases)
        ADDED_E => (0.70, 0.95),
        // round 5 (dev-2026-11f, forum and blog pastes), after its batches' changes: 20/20
        // first-ranked, facts 2/2 (20 cases; each batch's first measure is in SPLIT.md)
        ADDED_F => (0.90, 0.95),
        // round 6 (dev-2026-11g, environment pastes of every kind), after its batches' changes:
        // 33/36 first-ranked, facts 18/18 (36 cases; each batch's first measure is in SPLIT.md)
        ADDED_G => (0.85, 0.95),
        // round 7 (dev-2026-11h, environment pastes of every kind), after its batches' changes:
        // 22/22 first-ranked, facts 14/14 (22 cases; each batch's first measure is in SPLIT.md)
        ADDED_H => (0.90, 0.95),
        // round 8 (dev-2026-11i, cluster, container and cloud pastes), after its batches'
        // changes: 38/38 first-ranked, facts 21/22 (38 cases; each batch's first measure is
        // in SPLIT.md)
        ADDED_I => (0.90, 0.95),
        // round 9 (dev-2026-11j, the start-up logs and issue templates of the apps people run),
        // after its batches' changes: 33/34 first-ranked, facts 21/21 (34 cases; each batch's
        // first measure is in SPLIT.md)
        ADDED_J => (0.90, 0.95),
        // round 10 (dev-2026-11k, the environment reports of issue templates that are not
        // torch's collect_env), after its batches' changes: 29/29 first-ranked, facts 61/62
        // (33 cases; each batch's first measure is in SPLIT.md)
        ADDED_K => (0.90, 0.95),
        // the first blind sample of pastes (dev-2026-11l): 8/24 first-ranked when first
        // measured (facts 19/24); 15/24, facts 20/24 after the general changes it led to
        ADDED_L => (0.60, 0.80),
        // the second blind sample of pastes (dev-2026-11m), measured once on the tree after
        // the first one's changes (895f155): 12/24 first-ranked, facts 26/34
        ADDED_M => (0.45, 0.70),
        // the third blind sample of pastes (dev-2026-11n, forums asked for), measured once on
        // f6ad375 before any change for it: 10/19 first-ranked, facts 25/36; 15/19,
        // facts 32/36 after the general changes it led to
        ADDED_N => (0.70, 0.80),
        // the fifth blind sample of pastes (dev-2026-11p), measured once on a520191 before
        // any change for it: 14/24 first-ranked, facts 25/44; 17/24, facts 27/44 after the
        // general changes it led to
        ADDED_P => (0.65, 0.55),
        // the sixth blind sample of pastes (dev-2026-11q), measured once on 442d2a9 before
        // any change for it: 8/21 first-ranked, facts 18/29; 16/21, facts 24/29 after the
        // general changes it led to
        ADDED_Q => (0.70, 0.75),
        // the eighth blind sample of pastes (dev-2026-11s), measured once on 6dee46a before
        // any change for it: 8/24 first-ranked, facts 23/44; 12/24, facts 28/44 after the
        // general changes it led to
        ADDED_S => (0.45, 0.60),
        // the frozen held-out part: the last measured figures less one case (after round 9,
        // 2026-11-24: 53/75 first-ranked, facts 113/150; 54/75 and 112/150 after round 13)
        _ => (0.69, 0.74),
    }
}

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
    split: Option<String>,
    #[serde(default)]
    note: String,
    #[serde(default)]
    facts: Option<toml::Table>,
}

fn dir() -> PathBuf {
    std::env::var_os("GPU_DOCTOR_PASTE_CORPUS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/pastes"),
        PathBuf::from,
    )
}

/// Real pastes added after the corpus was frozen (SPLIT.md): all dev, measured apart.
const ADDED: &str = "dev-2026-11b";
/// The second folder of post-freeze pastes (round 2 of #14's `diagnose` part): all dev.
const ADDED_C: &str = "dev-2026-11c";
/// The third folder of post-freeze pastes (round 3 of #14's `diagnose` part): all dev.
const ADDED_D: &str = "dev-2026-11d";
/// Round 3 (#14's `diagnose` part, reading every paste format): all dev.
const ADDED_E: &str = "dev-2026-11e";
/// Round 5 (#14's `diagnose` part, pastes from forums): all dev.
const ADDED_F: &str = "dev-2026-11f";
/// Round 6 (#14's `diagnose` part, environment pastes of every kind): all dev.
const ADDED_G: &str = "dev-2026-11g";
/// Round 7 (#14's `diagnose` part, environment pastes of every kind): all dev.
const ADDED_H: &str = "dev-2026-11h";
/// Round 8 (#14's `diagnose` part, cluster, container and cloud pastes): all dev.
const ADDED_I: &str = "dev-2026-11i";
/// Round 9 (#14's `diagnose` part, the start-up logs of the apps people run): all dev.
const ADDED_J: &str = "dev-2026-11j";
/// Round 10 (#14's `diagnose` part, the environment reports of issue templates): all dev.
const ADDED_K: &str = "dev-2026-11k";
/// The first blind sample of environment pastes (a data-only helper, 2026-11-24): all dev.
const ADDED_L: &str = "dev-2026-11l";
/// The second blind sample of environment pastes (a data-only helper, 2026-11-24): all dev.
const ADDED_M: &str = "dev-2026-11m";
/// The third blind sample of environment pastes (a data-only helper, 2026-11-24): all dev.
const ADDED_N: &str = "dev-2026-11n";
/// The fifth blind sample of environment pastes (a data-only helper, 2026-11-24): all dev.
/// (The fourth, dev-2026-11o, waits in tests/corpus/pending/: one control still blamed.)
const ADDED_P: &str = "dev-2026-11p";
/// The sixth blind sample of environment pastes (a data-only helper, 2026-11-24): all dev.
const ADDED_Q: &str = "dev-2026-11q";
/// The eighth blind sample of environment pastes (a data-only helper, 2026-11-25): all dev.
/// (The seventh, dev-2026-11r, waits in tests/corpus/pending/: two controls still blamed.)
const ADDED_S: &str = "dev-2026-11s";

/// Every folder of cases added after the freeze, in the order they were added.
const ADDED_FOLDERS: &[&str] = &[
    ADDED, ADDED_C, ADDED_D, ADDED_E, ADDED_F, ADDED_G, ADDED_H, ADDED_I, ADDED_J, ADDED_K,
    ADDED_L, ADDED_M, ADDED_N, ADDED_P, ADDED_Q, ADDED_S,
];

fn dev_only() -> bool {
    std::env::var_os("GPU_DOCTOR_CORPUS_DEV_ONLY").is_some_and(|v| v == "1")
}

/// "dev" is the development part; any other split ("heldout", "held-out") is held out.
fn is_dev(c: &Case) -> bool {
    c.split.as_deref().is_none_or(|s| s == "dev")
}

fn cases() -> Option<Vec<Case>> {
    cases_in(&dir())
}

fn added_cases_in(folder: &str) -> Vec<Case> {
    let mut cases = cases_in(&dir().join(folder)).unwrap_or_default();
    for c in &mut cases {
        c.file = format!("{folder}/{}", c.file);
    }
    cases
}

/// Whether a case lives in one of the post-freeze folders (`unknown` causes allowed there).
fn is_added(c: &Case) -> bool {
    ADDED_FOLDERS
        .iter()
        .any(|f| c.file.starts_with(&format!("{f}/")))
}

fn cases_in(dir: &Path) -> Option<Vec<Case>> {
    let text = std::fs::read_to_string(dir.join("cases.toml")).ok()?;
    let file: File = toml::from_str(&text).unwrap();
    Some(
        file.case
            .into_iter()
            .filter(|c| is_dev(c) || !dev_only())
            .collect(),
    )
}

fn read(c: &Case) -> String {
    let bytes =
        std::fs::read(dir().join(&c.file)).unwrap_or_else(|e| panic!("{}: {}: {e}", c.id, c.file));
    gpu_doctor::explain::cmd::decode(&bytes)
}

#[test]
fn every_paste_case_is_well_formed() {
    let Some(cases) = cases() else {
        println!("no paste corpus at {} yet", dir().display());
        return;
    };
    let added: Vec<Case> = ADDED_FOLDERS
        .iter()
        .flat_map(|f| added_cases_in(f))
        .collect();
    for c in &added {
        assert!(is_dev(c), "{}: cases added after the freeze are dev", c.id);
    }
    let cases: Vec<Case> = cases.into_iter().chain(added).collect();
    let mut ids: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
    ids.sort_unstable();
    let n = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), n, "duplicate case ids");
    for c in &cases {
        assert!(
            c.cause == "none"
                || (c.cause == "unknown" && is_added(c))
                || KNOWN_IDS.contains(&c.cause.as_str()),
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

fn fact(ce: &gpu_doctor::diagnose::collect_env::CollectEnv, key: &str, want: &toml::Value) -> bool {
    let s = |v: &Option<String>| v.clone().unwrap_or_default();
    let want_s = want.as_str().unwrap_or("");
    let prefix =
        |got: &str| !got.is_empty() && (got == want_s || got.starts_with(&format!("{want_s}.")));
    match key {
        "torch" => s(&ce.torch) == want_s,
        "torch_cuda" => s(&ce.torch_cuda) == want_s,
        "driver" => prefix(&s(&ce.driver)),
        "cuda" => s(&ce.driver_cuda) == want_s || s(&ce.cuda_mentioned) == want_s,
        "toolkit" => prefix(&s(&ce.cuda_runtime)) || s(&ce.cuda_runtime) == want_s,
        "cuda_runtime" => s(&ce.cuda_runtime) == want_s,
        // "ubuntu14.04" as a paste writes it is "Ubuntu 14.04" as the parser spells it
        "os" => {
            let squeeze = |v: &str| -> String {
                v.chars()
                    .filter(|c| !c.is_whitespace())
                    .flat_map(char::to_lowercase)
                    .collect()
            };
            ce.os
                .as_deref()
                .is_some_and(|os| squeeze(os) == squeeze(want_s))
        }
        "cuda_available" => ce.cuda_available == want.as_bool(),
        "gpus" => {
            let want: Vec<&str> = want
                .as_array()
                .map(|a| a.iter().filter_map(|v| v.as_str()).collect())
                .unwrap_or_default();
            ce.gpus.len() == want.len()
                && ce
                    .gpus
                    .iter()
                    .zip(&want)
                    .all(|(g, w)| g.contains(w) || w.contains(g.as_str()))
        }
        _ => false,
    }
}

#[test]
fn diagnose_names_the_established_cause_on_each_part() {
    let Some(cases) = cases() else {
        println!("no paste corpus at {} yet", dir().display());
        return;
    };
    let matrix = Matrix::bundled().unwrap();
    let mut failures = Vec::new();
    let added: Vec<(&str, Vec<Case>)> = ADDED_FOLDERS
        .iter()
        .map(|f| (*f, added_cases_in(f)))
        .collect();
    let parts: Vec<(&str, Vec<&Case>)> = [
        ("dev", cases.iter().filter(|c| is_dev(c)).collect()),
        ("held-out", cases.iter().filter(|c| !is_dev(c)).collect()),
    ]
    .into_iter()
    .chain(added.iter().map(|(f, cs)| (*f, cs.iter().collect())))
    .collect();
    for (part, part_cases) in parts {
        if part_cases.is_empty() {
            continue;
        }
        let (mut first, mut listed, mut facts_ok, mut facts_n) = (0usize, 0usize, 0usize, 0usize);
        let mut misses = Vec::new();
        let mut judged = 0usize;
        for c in &part_cases {
            let text = read(c);
            let d = diagnose(&text, c.log.as_deref(), &matrix);
            // Every development paste names something: none may read as an empty paste
            // (held-out cases are only measured, never asserted on one by one).
            if part != "held-out" && paste::parse(&text).found_nothing() && d.log.is_none() {
                failures.push(format!("{part} {}: nothing recognised", c.id));
            }
            let ce = paste::parse(&text);
            for (key, want) in c.facts.iter().flatten() {
                facts_n += 1;
                if fact(&ce, key, want) {
                    facts_ok += 1;
                } else {
                    misses.push(format!("{} fact {key}: want {want}, parsed {:?}", c.id, ce));
                }
            }
            // "unknown": the established cause is not in the stored text (facts only).
            if c.cause == "unknown" {
                continue;
            }
            judged += 1;
            let in_list = d.cause == c.cause
                || d.log.as_ref().is_some_and(|ex| {
                    ex.matches
                        .iter()
                        .any(|m| m.causes.iter().any(|k| k.id == c.cause))
                })
                || d.report
                    .findings
                    .iter()
                    .any(|f| f.id == c.cause && f.severity >= Severity::Warn);
            if d.cause == c.cause {
                first += 1;
            } else {
                misses.push(format!(
                    "{}: want {} got {} ({}: {})",
                    c.id, c.cause, d.cause, d.from, d.summary
                ));
                if c.cause == "none" {
                    failures.push(format!(
                        "{part} control {} blames the machine: {}",
                        c.id, d.cause
                    ));
                }
            }
            listed += usize::from(in_list);
        }
        let n = judged.max(1);
        let rate = first as f64 / n as f64;
        let facts_rate = if facts_n == 0 {
            1.0
        } else {
            facts_ok as f64 / facts_n as f64
        };
        println!(
            "diagnose paste corpus, {part}: first-ranked {first}/{judged} = {:.1}%, in the list {listed}/{judged} = {:.1}%, facts {facts_ok}/{facts_n} ({} cases)",
            rate * 100.0,
            listed as f64 / n as f64 * 100.0,
            part_cases.len()
        );
        for m in &misses {
            println!("  {m}");
        }
        let (min_first, min_facts) = floors(part);
        if rate < TARGET {
            println!(
                "diagnose paste corpus, {part}: below the {:.0}% target (enforced floor {:.0}%)",
                TARGET * 100.0,
                min_first * 100.0
            );
        }
        if rate < min_first {
            failures.push(format!(
                "{part}: first-ranked {:.1}% < {:.0}%",
                rate * 100.0,
                min_first * 100.0
            ));
        }
        if facts_rate < min_facts {
            failures.push(format!(
                "{part}: facts {:.1}% < {:.0}%",
                facts_rate * 100.0,
                min_facts * 100.0
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
