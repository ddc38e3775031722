#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The JSON contract: assets/report.schema.json is what the types generate, and real
//! reports validate against it.

mod fixture_root;

use assert_cmd::Command;
use fixture_root::{json_report, FixtureRoot};

const SCHEMA_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/report.schema.json");

fn generated() -> serde_json::Value {
    let out = Command::cargo_bin("gpu-doctor")
        .unwrap()
        .arg("schema")
        .output()
        .unwrap();
    assert!(out.status.success());
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn committed_schema_matches_the_types() {
    let schema = generated();
    if std::env::var_os("GPU_DOCTOR_UPDATE_SCHEMA").is_some() {
        std::fs::write(
            SCHEMA_PATH,
            serde_json::to_string_pretty(&schema).unwrap() + "\n",
        )
        .unwrap();
    }
    let committed: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(SCHEMA_PATH).unwrap()).unwrap();
    assert!(
        committed == schema,
        "assets/report.schema.json is stale: rerun with GPU_DOCTOR_UPDATE_SCHEMA=1 cargo test --test schema"
    );
}

#[test]
fn real_reports_validate() {
    let committed: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(SCHEMA_PATH).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&committed).expect("a valid JSON Schema");
    let root = FixtureRoot::ubuntu();
    root.gpu(Some("nvidia"))
        .kernel_module("550.54.15")
        .user_space("535.183.01")
        .device_nodes(1);
    let mut this_machine = Command::cargo_bin("gpu-doctor").unwrap();
    this_machine.env_remove("GPU_DOCTOR_ROOT");
    for (name, (_, report)) in [
        ("this machine", json_report(&mut this_machine)),
        ("fixture", json_report(&mut root.command())),
    ] {
        let errors: Vec<String> = validator
            .iter_errors(&report)
            .map(|e| format!("{} at {}", e, e.instance_path))
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:#?}");
    }
    // And the schema is not vacuous: a report missing its findings fails it.
    let mut broken = json_report(&mut root.command()).1;
    broken.as_object_mut().unwrap().remove("findings");
    assert!(!validator.is_valid(&broken));
}

/// Schema 2: the committed fixture reports validate; every finding names its check, and a
/// pass carries no failure id. A schema 1 report is not schema 2 (its passes carry ids and
/// no check) but still reads as a report (tests/report_v2.rs reads it end to end).
#[test]
fn fixture_reports_are_schema_2_and_passes_carry_no_failure_id() {
    let committed: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(SCHEMA_PATH).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&committed).expect("a valid JSON Schema");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/reports");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(report["schema_version"], 2, "{}", path.display());
        let errors: Vec<String> = validator
            .iter_errors(&report)
            .map(|e| format!("{} at {}", e, e.instance_path))
            .collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", path.display());
        for f in report["findings"].as_array().unwrap() {
            assert!(f["check"].as_str().is_some_and(|c| !c.is_empty()), "{f}");
            assert_eq!(f["id"].is_string(), f["severity"] != "pass", "{f}");
        }
        seen += 1;
    }
    assert!(seen >= 5);
    let v1_path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/reports_v1/healthy_8gpu.json");
    let v1: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(v1_path).unwrap()).unwrap();
    assert_eq!(v1["schema_version"], 1);
    let report = gpu_doctor::report::Report::from_json(&serde_json::to_vec(&v1).unwrap()).unwrap();
    assert!(report
        .findings
        .iter()
        .all(|f| !f.check.is_empty() && gpu_doctor::checks::catalogue::by_id(&f.id).is_some()));
}
