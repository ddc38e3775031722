//! End to end: `--expect PROFILE` (a TOML profile or a saved golden report) and the
//! `host.drift` findings, on the fake driver's two-GPU HGX H100 node.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "common/fake_driver.rs"]
mod fake_driver;
mod fixture_root;

use std::time::Duration;

use fixture_root::{finding, json_report, FixtureRoot};
use serde_json::Value;

const GPUS: &str = "NVIDIA H100 80GB HBM3,9.0,85520809984,00000000:18:00.0,GPU-0a1b2c3d-0000-1111-2222-000000000000;NVIDIA H100 80GB HBM3,9.0,85520809984,00000000:2A:00.0,GPU-0a1b2c3d-0000-1111-2222-000000000001";

fn node() -> FixtureRoot {
    let root = FixtureRoot::ubuntu();
    root.pci(
        "0000:18:00.0",
        "0x10de",
        "0x2330",
        "0x030200",
        Some("nvidia"),
    )
    .pci(
        "0000:2a:00.0",
        "0x10de",
        "0x2330",
        "0x030200",
        Some("nvidia"),
    )
    .kernel_module("550.54.15")
    .user_space("550.54.15")
    .device_nodes(2);
    root
}

fn command(root: &FixtureRoot, vars: &[(&str, &str)]) -> assert_cmd::Command {
    let mut cmd = root.command();
    cmd.env(
        "GPU_DOCTOR_DRIVER_LIB_DIR",
        &fake_driver::fake_driver().current,
    )
    .env("GPU_DOCTOR_DRIVER_TIMEOUT_MS", "60000")
    .env("FAKE_NVML_GPUS", GPUS)
    .env("FAKE_NVML_DRIVER_VERSION", "550.54.15")
    .env("FAKE_NVML_CUDA_VERSION", "12040")
    .env("FAKE_CUDA_DEVICES", "2")
    .env("FAKE_NVML_GPU0_NVLINKS", "18")
    .env("FAKE_NVML_GPU1_NVLINKS", "18")
    .arg("--no-probes")
    .timeout(Duration::from_secs(120));
    for (k, v) in vars {
        cmd.env(k, v);
    }
    cmd
}

/// (severity, summary, action) of each host.drift finding.
fn drift(report: &Value) -> Vec<(String, String, Option<String>)> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        // Passes carry the check name only (schema 2).
        .filter(|f| f["id"] == "host.drift" || f["check"] == "host.profile")
        .map(|f| {
            (
                f["severity"].as_str().unwrap().to_string(),
                f["summary"].as_str().unwrap().to_string(),
                f["action"].as_str().map(str::to_string),
            )
        })
        .collect()
}

fn write(root: &FixtureRoot, name: &str, text: &str) -> std::path::PathBuf {
    let p = root.dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    p
}

const MATCHING: &str = r#"# the HGX H100 nodes of this pool
gpus = 2
gpu_model = "NVIDIA H100 80GB HBM3"
nvlinks_per_gpu = 18
driver_branch = "550"
cuda = "12.4"
"#;

#[test]
fn a_node_that_matches_its_profile_passes() {
    let root = node();
    let profile = write(&root, "hgx.toml", MATCHING);
    let mut cmd = command(&root, &[]);
    cmd.arg("--expect").arg(&profile);
    let (_, report) = json_report(&mut cmd);
    let d = drift(&report);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].0, "pass");
    assert!(
        d[0].1
            .contains("GPU model, NVLinks per GPU, driver branch, CUDA"),
        "{d:?}"
    );
    // The profile's GPU count is judged as --expect-gpus would be.
    let f = finding(&report, "host.expected_gpus");
    assert_eq!(f["severity"], "pass", "{f:#}");
    assert!(
        f["summary"].as_str().unwrap().contains("expected 2"),
        "{f:#}"
    );
}

#[test]
fn drift_from_a_toml_profile_names_expected_and_found() {
    let root = node();
    let profile = write(
        &root,
        "a100.toml",
        "gpus = 4\ngpu_model = \"NVIDIA A100-SXM4-80GB\"\ndriver_branch = \"535\"\ncuda = \"12.2\"\n",
    );
    let mut cmd = command(&root, &[]);
    cmd.arg("--expect").arg(&profile);
    let (code, report) = json_report(&mut cmd);
    assert_eq!(code, 2);
    let d = drift(&report);
    assert_eq!(d.len(), 4, "{d:?}");
    assert_eq!(
        d[0],
        (
            "fail".to_string(),
            "GPU 0 is \"NVIDIA H100 80GB HBM3\", expected \"NVIDIA A100-SXM4-80GB\"".to_string(),
            Some("drain".to_string())
        )
    );
    assert_eq!(d[1].0, "fail");
    assert_eq!(
        d[2],
        (
            "warn".to_string(),
            "driver branch: found 550.54.15, expected 535".to_string(),
            Some("fix_software".to_string())
        )
    );
    assert_eq!(
        d[3].1,
        "CUDA version the driver supports: found 12.4, expected 12.2"
    );
    assert_eq!(finding(&report, "host.expected_gpus")["severity"], "fail");
}

#[test]
fn a_golden_report_is_a_profile_and_a_down_link_drifts_from_it() {
    let root = node();
    let golden = root.dir.path().join("golden.json");
    let mut cmd = command(&root, &[]);
    cmd.arg("--save").arg(&golden);
    let _ = cmd.output().unwrap();
    assert!(golden.exists());
    // The same node matches its own golden report.
    let mut cmd = command(&root, &[]);
    cmd.arg("--expect").arg(&golden);
    let (_, report) = json_report(&mut cmd);
    let d = drift(&report);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].0, "pass", "{d:?}");
    // A link goes down: gpu.nvlink_down fails, and host.drift names 17 of 18.
    let mut cmd = command(&root, &[("FAKE_NVML_GPU1_NVLINK_DOWN", "7")]);
    cmd.arg("--expect").arg(&golden);
    let (code, report) = json_report(&mut cmd);
    assert_eq!(code, 2);
    let d = drift(&report);
    assert_eq!(
        d,
        vec![(
            "fail".to_string(),
            "GPU 1 has 17 active NVLink links, expected 18".to_string(),
            Some("drain".to_string())
        )]
    );
    assert_eq!(finding(&report, "gpu.nvlink_down")["severity"], "fail");
}

#[test]
fn a_malformed_profile_is_a_clear_error_with_exit_code_3() {
    let root = node();
    for (name, text, says) in [
        ("typo.toml", "gpu = 8\n", "unknown field `gpu`"),
        ("broken.toml", "gpus = [\n", "--expect profile"),
        ("empty.toml", "# nothing\n", "names nothing to expect"),
        (
            "branch.toml",
            "driver_branch = \"r550\"\n",
            "not a driver branch",
        ),
        ("notreport.json", "{\"hello\": 1}", "no schema_version"),
    ] {
        let profile = write(&root, name, text);
        let out = command(&root, &[])
            .arg("--expect")
            .arg(&profile)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(3), "{name}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("--expect profile"), "{name}: {stderr}");
        assert!(stderr.contains(says), "{name}: {stderr}");
        assert!(out.stdout.is_empty(), "{name}");
    }
    let out = command(&root, &[])
        .arg("--expect")
        .arg(root.dir.path().join("absent.toml"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("absent.toml"));
}

#[test]
fn expect_gpus_still_wins_over_the_profile_count() {
    let root = node();
    let profile = write(&root, "hgx.toml", MATCHING);
    let mut cmd = command(&root, &[]);
    cmd.arg("--expect")
        .arg(&profile)
        .args(["--expect-gpus", "3"]);
    let (_, report) = json_report(&mut cmd);
    let f = finding(&report, "host.expected_gpus");
    assert_eq!(f["severity"], "fail", "{f:#}");
    assert!(
        f["summary"].as_str().unwrap().contains("expected 3"),
        "{f:#}"
    );
}
