#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! `gpu-doctor checks --json | --markdown`, run as the real binary: the catalogue a
//! script or a fleet dashboard reads.

use assert_cmd::Command;

fn run(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::cargo_bin("gpu-doctor")
        .unwrap()
        .env_clear()
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn checks_json_lists_every_check_with_area_name_title_and_action() {
    let (code, out) = run(&["checks", "--json"]);
    assert_eq!(code, Some(0));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let checks = v["checks"].as_array().unwrap();
    assert_eq!(checks.len(), gpu_doctor::checks::ALL.len());
    let actions = [
        "none",
        "fix_software",
        "restart_app",
        "reset_gpu",
        "reboot",
        "drain",
        "inspect_hardware",
    ];
    for c in checks {
        let id = c["id"].as_str().unwrap();
        let area = c["area"].as_str().unwrap();
        assert_eq!(id.split('.').next(), Some(area), "{id}");
        assert!(
            c["name"].as_str().unwrap().starts_with(&format!("{area}.")),
            "{id}"
        );
        assert!(!c["title"].as_str().unwrap().is_empty(), "{id}");
        assert!(actions.contains(&c["action"].as_str().unwrap()), "{id}");
        assert!(!c["reads"].as_array().unwrap().is_empty(), "{id}");
    }
    let lost = checks.iter().find(|c| c["id"] == "gpu.lost").unwrap();
    assert_eq!(lost["action"], "drain");
}

#[test]
fn checks_markdown_is_the_readme_table() {
    let (code, out) = run(&["checks", "--markdown"]);
    assert_eq!(code, Some(0));
    assert!(out.starts_with("| id | what fails it | action |\n|---|---|---|\n"));
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    assert!(
        readme.contains(&out),
        "README.md's table is not `checks --markdown`"
    );
}

#[test]
fn markdown_and_json_together_are_a_usage_error() {
    let (code, out) = run(&["checks", "--json", "--markdown"]);
    assert_eq!(code, Some(3));
    assert!(out.is_empty());
}
