#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! End-to-end tests of the real binary: this machine (no NVIDIA driver), fixture roots
//! for the driver states CI cannot have, saved reports, and the command-line contract.

mod fixture_root;

use assert_cmd::Command;
use fixture_root::{finding, json_report, problems, FixtureRoot};

fn ids(report: &serde_json::Value) -> Vec<(String, String)> {
    problems(report)
}

fn has(report: &serde_json::Value, id: &str, severity: &str) -> bool {
    ids(report).iter().any(|(i, s)| i == id && s == severity)
}

#[test]
fn this_machine_has_no_driver_and_says_so() {
    // CI and development machines have no NVIDIA GPU and no driver.
    let mut cmd = Command::cargo_bin("gpu-doctor").unwrap();
    cmd.env_remove("GPU_DOCTOR_ROOT")
        .env_remove("GPU_DOCTOR_DRIVER_LIB_DIR");
    let (code, r) = json_report(&mut cmd);
    assert_eq!(code, 2, "{:#}", r["findings"]);
    assert_eq!(r["exit_code"], 2);
    assert_eq!(finding(&r, "host.no_nvidia_gpu")["severity"], "fail");
    assert_eq!(finding(&r, "driver.not_installed")["severity"], "info");
    assert_eq!(r["summary"]["verdict"], "failures");
    assert_eq!(r["schema_version"], 2);
    assert_eq!(r["tool"]["name"], "gpu-doctor");
    assert_eq!(r["matrix"]["source"], "bundled");
    assert!(
        r["facts"]["system"]["kernel"]["state"] == "known",
        "{:#}",
        r["facts"]["system"]
    );
}

#[test]
fn this_machine_text_report() {
    let out = Command::cargo_bin("gpu-doctor")
        .unwrap()
        .env_remove("GPU_DOCTOR_ROOT")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("✗ No NVIDIA GPU on this machine"), "{text}");
    assert!(text.contains("Verdict ✗ failures"), "{text}");
    assert!(!text.contains('\x1b'), "no colour on a pipe");
}

#[test]
fn gpu_on_the_bus_without_any_driver() {
    let root = FixtureRoot::ubuntu();
    root.gpu(None);
    let (code, r) = json_report(&mut root.command());
    assert_eq!(code, 2);
    let f = finding(&r, "driver.not_installed");
    assert_eq!(f["severity"], "fail");
    assert_eq!(f["fix"]["commands"][0], "sudo ubuntu-drivers install");
    assert_eq!(finding(&r, "host.no_nvidia_gpu")["severity"], "pass");
}

#[test]
fn module_not_loaded_with_a_gpu_on_the_bus() {
    let root = FixtureRoot::ubuntu();
    root.gpu(None).user_space("550.54.15");
    let (code, r) = json_report(&mut root.command());
    assert_eq!(code, 2);
    assert!(has(&r, "driver.module_not_loaded", "fail"), "{:?}", ids(&r));
    assert!(!has(&r, "driver.not_installed", "fail"));
    let fix = &finding(&r, "driver.module_not_loaded")["fix"]["commands"];
    assert!(fix
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c == "sudo modprobe nvidia"));
}

#[test]
fn nouveau_holds_the_gpu() {
    let root = FixtureRoot::ubuntu();
    root.gpu(Some("nouveau"))
        .modules(&["nouveau", "drm_kms_helper"]);
    let (code, r) = json_report(&mut root.command());
    assert_eq!(code, 2);
    assert!(has(&r, "driver.nouveau_loaded", "fail"), "{:?}", ids(&r));
    assert_eq!(r["facts"]["pci_gpus"]["value"][0]["driver"], "nouveau");
}

#[test]
fn kernel_550_with_user_space_535() {
    let root = FixtureRoot::ubuntu();
    root.gpu(Some("nvidia"))
        .kernel_module("550.54.15")
        .user_space("535.183.01")
        .device_nodes(1);
    let (code, r) = json_report(&mut root.command());
    assert_eq!(code, 2);
    let f = finding(&r, "driver.library_mismatch");
    assert_eq!(f["severity"], "fail", "{:?}", ids(&r));
    let details = f["details"].as_str().unwrap();
    assert!(
        details.contains("550.54.15") && details.contains("535.183.01"),
        "{details}"
    );
    assert_eq!(f["fix"]["commands"][0], "sudo reboot");
    assert_eq!(r["facts"]["kernel_module"]["version"]["value"], "550.54.15");
    assert_eq!(r["facts"]["kernel_module"]["flavor"]["value"], "open");
}

#[test]
fn cuda_visible_devices_empty_hides_the_gpus() {
    let root = FixtureRoot::ubuntu();
    root.gpu(Some("nvidia"))
        .kernel_module("550.54.15")
        .user_space("550.54.15")
        .device_nodes(1);
    let (code, r) = json_report(root.command().env("CUDA_VISIBLE_DEVICES", ""));
    assert!(
        has(&r, "env.visible_devices_empty", "warn"),
        "{:?}",
        ids(&r)
    );
    assert_eq!(r["facts"]["env"]["CUDA_VISIBLE_DEVICES"], "");
    assert_eq!(finding(&r, "driver.library_mismatch")["severity"], "pass");
    assert_eq!(code, 1, "{:?}", ids(&r));
}

#[test]
fn container_started_without_gpus() {
    let root = FixtureRoot::ubuntu();
    root.gpu(Some("nvidia")).kernel_module("550.54.15").docker();
    let (code, r) = json_report(&mut root.command());
    assert_eq!(code, 2);
    assert_eq!(r["facts"]["system"]["container"]["value"], "docker");
    let failed: Vec<String> = ids(&r)
        .into_iter()
        .filter(|(_, s)| s == "fail")
        .map(|(i, _)| i)
        .collect();
    assert_eq!(
        failed,
        vec!["host.container_no_gpu".to_string()],
        "the container is the one cause"
    );
    assert!(finding(&r, "host.container_no_gpu")["fix"]["commands"][0]
        .as_str()
        .unwrap()
        .contains("--gpus all"));
}

#[test]
fn no_nvidia_device_on_the_bus() {
    let root = FixtureRoot::ubuntu();
    let (code, r) = json_report(&mut root.command());
    assert_eq!(code, 2);
    assert_eq!(finding(&r, "host.no_nvidia_gpu")["severity"], "fail");
    assert_eq!(r["facts"]["pci_gpus"]["value"].as_array().unwrap().len(), 0);
}

#[test]
fn expect_gpus_fails_when_fewer_are_usable() {
    let root = FixtureRoot::ubuntu();
    let (code, r) = json_report(root.command().args(["--expect-gpus", "8"]));
    assert_eq!(code, 2);
    assert_eq!(finding(&r, "host.expected_gpus")["severity"], "fail");
}

#[test]
fn saved_report_round_trips_through_from() {
    let root = FixtureRoot::ubuntu();
    root.gpu(Some("nvidia"))
        .kernel_module("550.54.15")
        .user_space("535.183.01")
        .device_nodes(1);
    let saved = root.path("saved.json");
    let (code, first) = json_report(root.command().arg("--save").arg(&saved));
    let on_disk: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&saved).unwrap()).unwrap();
    assert_eq!(on_disk, first);
    // Judged again elsewhere: no fixture root, other environment.
    let (code2, again) = json_report(
        Command::cargo_bin("gpu-doctor")
            .unwrap()
            .env_remove("GPU_DOCTOR_ROOT")
            .arg("--from")
            .arg(&saved),
    );
    assert_eq!(code, code2);
    assert_eq!(first["findings"], again["findings"]);
    assert_eq!(first["facts"], again["facts"]);
}

#[test]
fn unusable_saved_reports_exit_3_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("garbage.json", "this is not json"),
        ("newer.json", r#"{"schema_version": 99, "facts": {}}"#),
        ("other.json", r#"{"hello": 1}"#),
    ];
    for (name, text) in cases {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        let out = Command::cargo_bin("gpu-doctor")
            .unwrap()
            .arg("--from")
            .arg(&p)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(3), "{name}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("gpu-doctor: ") && err.contains(name),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    let out = Command::cargo_bin("gpu-doctor")
        .unwrap()
        .args(["--from", "/nonexistent/report.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("could not read"));
}

#[test]
fn only_and_skip_select_checks() {
    let root = FixtureRoot::ubuntu();
    let (_, r) = json_report(root.command().args([
        "--only",
        "driver,toolkit.not_found",
        "--skip",
        "driver.nouveau_loaded",
    ]));
    for f in r["findings"].as_array().unwrap() {
        let id = f["id"].as_str().unwrap();
        assert!(
            (id.starts_with("driver.") && id != "driver.nouveau_loaded")
                || id == "toolkit.not_found",
            "{id}"
        );
    }
    let out = root
        .command()
        .args(["--only", "nonsense"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown check id or area \"nonsense\""));
}

#[test]
fn bad_arguments_exit_3_and_help_exits_0() {
    let out = Command::cargo_bin("gpu-doctor")
        .unwrap()
        .arg("--no-such-flag")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let out = Command::cargo_bin("gpu-doctor")
        .unwrap()
        .args(["--expect-gpus", "-3"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let out = Command::cargo_bin("gpu-doctor")
        .unwrap()
        .arg("--help")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        help.contains("Exit codes:") && help.contains("3  gpu-doctor could not reach a verdict"),
        "{help}"
    );
}

#[test]
fn redact_hides_the_host_name() {
    let root = FixtureRoot::ubuntu();
    let out = root
        .command()
        .args(["--json", "--redact"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("fixture-node"));
    let r: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(r["facts"]["system"]["hostname"]["value"], "redacted");
}

#[test]
fn only_cuda_variables_are_recorded() {
    let root = FixtureRoot::ubuntu();
    let (_, r) = json_report(
        root.command()
            .env("AWS_SECRET_ACCESS_KEY", "hunter2")
            .env("CUDA_LAUNCH_BLOCKING", "1"),
    );
    let text = r.to_string();
    assert!(!text.contains("hunter2"));
    assert_eq!(r["facts"]["env"]["CUDA_LAUNCH_BLOCKING"], "1");
    assert!(has(&r, "env.launch_blocking", "warn"));
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let root = FixtureRoot::ubuntu();
    let plain = root.command().output().unwrap();
    assert!(!String::from_utf8_lossy(&plain.stdout).contains('\x1b'));
    let coloured = root.command().args(["--color", "always"]).output().unwrap();
    assert!(String::from_utf8_lossy(&coloured.stdout).contains("\x1b[31;1m✗"));
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let bin = assert_cmd::cargo::cargo_bin("gpu-doctor");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "'{}' --json -v | head -c 1 >/dev/null",
            bin.display()
        ))
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("panicked"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn checks_subcommand_lists_every_id() {
    let out = Command::cargo_bin("gpu-doctor")
        .unwrap()
        .arg("checks")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    for id in [
        "host.no_nvidia_gpu",
        "driver.library_mismatch",
        "torch.cpu_only",
        "env.alloc_conf_invalid",
    ] {
        assert!(text.contains(id), "{id}");
    }
}
