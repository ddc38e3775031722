#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! End-to-end tests of the report as a newcomer and a program read it, run by the real
//! binary over the saved fixture reports (`--from` judges their facts again):
//! - the text report's first screen (snapshots in tests/snapshots);
//! - check names and failure ids: no output of a healthy machine names a failure id;
//! - JSON schema 2, and schema 1 reports still read by `fleet --reports`, `--golden`
//!   and `diff`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_gpu-doctor");

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/reports")
        .join(format!("{name}.json"))
}

fn fixture_v1(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/reports_v1")
        .join(format!("{name}.json"))
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env_remove("GPU_DOCTOR_MATRIX")
        .env_remove("NO_COLOR")
        .env("TERM", "dumb")
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn text_of(path: &Path) -> String {
    let out = run(&["--from", path.to_str().unwrap()]);
    let text = stdout(&out);
    assert!(!text.contains('\x1b'), "no colour when not on a terminal");
    text
}

/// The tool's and the matrix's versions change with every release: not part of the
/// snapshot.
fn snapshot_settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.add_filter(
        r"gpu-doctor \S+  matrix \S+ \(\w+\)",
        "gpu-doctor [version]  matrix [matrix]",
    );
    s.set_prepend_module_to_snapshot(false);
    s
}

#[test]
fn rtx5090_with_an_old_wheel_names_the_wheel_first() {
    let text = text_of(&fixture("rtx5090_old_wheel"));
    let first_screen: Vec<&str> = text.lines().take(24).collect();
    let first = first_screen.join("\n");
    assert!(first.contains("Verdict ✗ failures"), "{first}");
    assert!(
        first.contains("Cause  ✗ PyTorch 2.4.1+cu121 has no kernels"),
        "{first}"
    );
    assert!(first.contains("python -m pip install torch=="), "{first}");
    snapshot_settings().bind(|| insta::assert_snapshot!("text_rtx5090_old_wheel", text));
}

#[test]
fn a_healthy_8_gpu_host_is_short() {
    let text = text_of(&fixture("healthy_8gpu"));
    let lines = text.lines().count();
    assert!(lines <= 32, "{lines} lines:\n{text}");
    assert!(text.contains("Verdict ✓ healthy"), "{text}");
    // One row per GPU with its probes.
    assert_eq!(
        text.matches("NVIDIA H100 80GB HBM3 0000").count(),
        8,
        "{text}"
    );
    assert_eq!(text.matches("7/7 ok").count(), 8, "{text}");
    snapshot_settings().bind(|| insta::assert_snapshot!("text_healthy_8gpu", text));
    // -v still lists every pass.
    let verbose = stdout(&run(&[
        "--from",
        fixture("healthy_8gpu").to_str().unwrap(),
        "-v",
    ]));
    assert!(verbose.lines().count() > 150, "{verbose}");
}

/// The driver upgraded without a reboot: the libraries are 550.90.07, the loaded module
/// 550.54.15, cuInit says 803, and every probe on every GPU failed with it. One cause
/// first, its symptoms folded under it.
#[test]
fn a_library_mismatch_folds_803_and_the_probe_failures_under_it() {
    let mut report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(fixture("mismatched_driver")).unwrap()).unwrap();
    let mut probes = Vec::new();
    for (ordinal, bus) in [
        "0000:18:00.0",
        "0000:29:00.0",
        "0000:3a:00.0",
        "0000:4b:00.0",
    ]
    .iter()
    .enumerate()
    {
        for probe in ["launch", "cublaslt", "graph"] {
            probes.push(serde_json::json!({
                "probe": probe,
                "cuda_ordinal": ordinal,
                "gpu_name": "NVIDIA H100 80GB HBM3",
                "pci_bus_id": bus,
                "elapsed_ms": 3,
                "outcome": {
                    "status": "failed",
                    "reason": "cuInit failed: CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
                    "code": {"call": "cuInit", "name": "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", "code": 803}
                }
            }));
        }
    }
    report["facts"]["probes"] = serde_json::Value::Array(probes);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mismatch_probes.json");
    std::fs::write(&path, serde_json::to_vec(&report).unwrap()).unwrap();
    let out = run(&["--from", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "the exit code is the same");
    let text = stdout(&out);
    let first: String = text.lines().take(10).collect::<Vec<_>>().join("\n");
    assert!(
        first.contains("Cause  ✗ Kernel module and user-space driver versions differ (explains 13 more problems)"),
        "{first}"
    );
    assert!(first.contains("$ sudo reboot"), "{first}");
    // 803 and the twelve probe failures sit under the mismatch, not beside it.
    let cause_at = text.find("  ✗ Kernel module and user-space").unwrap();
    let after: &str = &text[cause_at..];
    assert!(
        after.contains("↳ ✗ CUDA reports a driver mismatch (803)"),
        "{text}"
    );
    assert!(
        !text.contains("\n  ✗ CUDA reports a driver mismatch"),
        "{text}"
    );
    assert!(
        !text.contains("\n  ✗ GPU"),
        "no probe failure stands alone: {text}"
    );
    // NVML cannot enumerate the GPUs: the table lists them from the PCI bus.
    assert_eq!(text.matches("fail   3 of 3 failed").count(), 4, "{text}");
    snapshot_settings().bind(|| insta::assert_snapshot!("text_mismatch_803_probes", text));
    // JSON: each symptom names the cause.
    let json: serde_json::Value =
        serde_json::from_slice(&run(&["--from", path.to_str().unwrap(), "--json"]).stdout).unwrap();
    let findings = json["findings"].as_array().unwrap();
    let probes_failed: Vec<&serde_json::Value> = findings
        .iter()
        .filter(|f| {
            f["check"].as_str().unwrap_or("").starts_with("probe.") && f["severity"] == "fail"
        })
        .collect();
    assert_eq!(probes_failed.len(), 12);
    for f in probes_failed.iter().chain(
        findings
            .iter()
            .filter(|f| f["id"] == "driver.compat_package_mismatch")
            .collect::<Vec<_>>()
            .iter(),
    ) {
        assert_eq!(f["caused_by"]["id"], "driver.library_mismatch", "{f}");
    }
}

/// Failure ids whose check's neutral name differs (`driver.not_installed` vs
/// `driver.installed`): the words that must not appear for a healthy machine.
fn failure_ids() -> Vec<String> {
    let out = run(&["checks", "--json"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
        panic!("checks --json: {}", stdout(&out));
    });
    doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["id"] != c["name"])
        .map(|c| c["id"].as_str().unwrap().to_string())
        .collect()
}

/// Whether `text` has `id` as a whole word (`grep -w`): `gpu.row_remapping` is not
/// `gpu.row_remap`.
fn names(text: &str, id: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.';
    text.match_indices(id).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + id.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}

#[test]
fn no_output_of_a_healthy_machine_names_a_failure_id() {
    let dir = tempfile::tempdir().unwrap();
    let healthy = fixture("healthy_8gpu");
    let h = healthy.to_str().unwrap();
    let json_out = run(&["--from", h, "--json"]);
    assert_eq!(json_out.status.code(), Some(0));
    let saved = dir.path().join("node01.json");
    std::fs::write(&saved, &json_out.stdout).unwrap();
    std::fs::write(dir.path().join("node02.json"), &json_out.stdout).unwrap();
    let prom = dir.path().join("metrics.prom");
    let _ = run(&["--from", h, "--prometheus", prom.to_str().unwrap()]);
    let s = saved.to_str().unwrap();
    let d = dir.path().to_str().unwrap();
    let outputs: Vec<(&str, String)> = vec![
        ("text", stdout(&run(&["--from", h]))),
        ("text -v", stdout(&run(&["--from", h, "-v"]))),
        ("json", stdout(&json_out)),
        ("prometheus", std::fs::read_to_string(&prom).unwrap()),
        ("diff", stdout(&run(&["diff", s, s]))),
        ("diff --json", stdout(&run(&["diff", s, s, "--json"]))),
        ("fleet", stdout(&run(&["fleet", "--reports", d]))),
        (
            "fleet --json",
            stdout(&run(&["fleet", "--reports", d, "--json"])),
        ),
    ];
    let ids = failure_ids();
    assert!(ids.iter().any(|i| i == "driver.not_installed"));
    for (what, text) in &outputs {
        assert!(!text.trim().is_empty(), "{what} printed nothing");
        for id in &ids {
            assert!(!names(text, id), "{what} names {id}:\n{text}");
        }
    }
    // The metric names the check, and the failure id only when failing.
    assert!(
        outputs[3]
            .1
            .contains("gpu_doctor_finding{check=\"driver.installed\"} 0"),
        "{}",
        outputs[3].1
    );
    let broken = stdout(&run(&[
        "--from",
        fixture("mismatched_driver").to_str().unwrap(),
        "--json",
    ]));
    assert!(broken.contains("\"id\": \"driver.library_mismatch\""));
}

#[test]
fn json_schema_2_carries_time_host_overview_and_fix_options() {
    let out = run(&[
        "--from",
        fixture("rtx5090_old_wheel").to_str().unwrap(),
        "--json",
    ]);
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["schema_version"], 2);
    let at = r["generated_at"].as_str().unwrap();
    assert_eq!(at.len(), "2026-11-23T21:40:00Z".len(), "{at}");
    assert!(at.ends_with('Z') && at.as_bytes()[10] == b'T', "{at}");
    assert_eq!(r["host"]["hostname"], "workstation");
    assert_eq!(r["overview"]["gpu_count"], 1);
    assert_eq!(r["overview"]["gpu_models"][0], "NVIDIA GeForce RTX 5090");
    assert_eq!(r["overview"]["driver_version"], "570.86.16");
    assert_eq!(r["overview"]["cuda_driver_version"], "12.8");
    assert_eq!(r["overview"]["torch"][0]["cuda"], "12.1");
    for f in r["findings"].as_array().unwrap() {
        assert!(f["check"].is_string(), "{f}");
        assert_eq!(f["id"].is_string(), f["severity"] != "pass", "{f}");
        if let Some(options) = f["fix"]["options"].as_array() {
            for o in options {
                for c in o["commands"].as_array().unwrap() {
                    let c = c.as_str().unwrap();
                    assert!(
                        !c.trim_start().starts_with('#'),
                        "a comment among commands: {c}"
                    );
                }
                assert!(o["notes"].is_array());
            }
        }
    }
    // Redaction covers the host's identity.
    let red: serde_json::Value = serde_json::from_slice(
        &run(&[
            "--from",
            fixture("rtx5090_old_wheel").to_str().unwrap(),
            "--json",
            "--redact",
        ])
        .stdout,
    )
    .unwrap();
    // A stable token, so a fleet still tells hosts apart.
    let token = red["host"]["hostname"].as_str().unwrap();
    assert!(token.starts_with("host-") && token.len() > 5, "{token}");
    assert!(!serde_json::to_string(&red).unwrap().contains("workstation"));
}

/// Schema 1 reports (as gpu-doctor wrote them before) are still read: by a fleet of saved
/// reports, as the golden node, and by diff against a schema 2 report of the same machine.
#[test]
fn schema_1_reports_are_still_read() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["healthy_8gpu", "mismatched_driver"] {
        std::fs::copy(fixture_v1(name), dir.path().join(format!("{name}.json"))).unwrap();
    }
    let v1: serde_json::Value =
        serde_json::from_slice(&std::fs::read(fixture_v1("healthy_8gpu")).unwrap()).unwrap();
    assert_eq!(
        v1["schema_version"], 1,
        "the fixture is a real schema 1 report"
    );
    let out = run(&["fleet", "--reports", dir.path().to_str().unwrap(), "--json"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let hosts = doc["hosts"].as_array().unwrap();
    assert_eq!(hosts.len(), 2);
    for h in hosts {
        assert_eq!(h["status"], "ok", "{h}");
    }
    let golden = run(&[
        "fleet",
        "--reports",
        dir.path().to_str().unwrap(),
        "--golden",
        fixture_v1("healthy_8gpu").to_str().unwrap(),
    ]);
    let text = stdout(&golden);
    assert!(
        golden.status.code().is_some_and(|c| c <= 2),
        "{text}{}",
        String::from_utf8_lossy(&golden.stderr)
    );
    assert!(text.contains("healthy_8gpu"), "{text}");
    // diff v1 against v2 of the same machine: findings meet by check name, so no pass
    // appears or disappears.
    let v2 = dir.path().join("v2.json");
    std::fs::write(
        &v2,
        run(&[
            "--from",
            fixture("healthy_8gpu").to_str().unwrap(),
            "--json",
        ])
        .stdout,
    )
    .unwrap();
    let d = run(&[
        "diff",
        fixture_v1("healthy_8gpu").to_str().unwrap(),
        v2.to_str().unwrap(),
        "--json",
    ]);
    let doc: serde_json::Value = serde_json::from_slice(&d.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", stdout(&d), String::from_utf8_lossy(&d.stderr)));
    let finding_diffs: Vec<&serde_json::Value> = doc["differences"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["kind"] == "finding")
        .collect();
    assert!(finding_diffs.is_empty(), "{finding_diffs:#?}");
    // --from reads a schema 1 report's facts.
    let again = run(&["--from", fixture_v1("mismatched_driver").to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(2));
}
