#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! End-to-end tests of the real binary: this machine (no NVIDIA driver), fixture roots
//! for the driver states CI cannot have, saved reports, and the command-line contract.

#[path = "common/fake_driver.rs"]
mod fake_driver;
mod fixture_root;

use std::os::unix::fs::PermissionsExt;

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
    let host = r["facts"]["system"]["hostname"]["value"].as_str().unwrap();
    assert!(
        host.starts_with("host-") && host.len() == "host-".len() + 8,
        "{host}"
    );
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

// ---------------------------------------------------------------------------------------
// The command-line contract (issue 15): options per subcommand, --python, --save, --gpus,
// --redact, completions, man, --version, explain --python, checks --json.

fn bin() -> Command {
    let mut c = Command::cargo_bin("gpu-doctor").unwrap();
    c.env_remove("GPU_DOCTOR_ROOT")
        .env_remove("GPU_DOCTOR_MATRIX");
    c
}

fn out_of(cmd: &mut Command) -> (i32, String, String) {
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The long options a help text lists.
fn options_in(help: &str) -> Vec<String> {
    let re = regex::Regex::new(r"(?m)^\s+(?:-\w, )?(--[a-z][a-z-]*)").unwrap();
    re.captures_iter(help).map(|c| c[1].to_string()).collect()
}

#[test]
fn each_subcommand_help_lists_only_its_own_options() {
    let report_only = [
        "--deep",
        "--redact",
        "--no-probes",
        "--gpus",
        "--slurm",
        "--npd",
        "--labels",
        "--tier",
        "--budget",
        "--expect-gpus",
    ];
    let expected: &[(&[&str], &[&str])] = &[
        (&["checks"], &["--json", "--markdown", "--help"]),
        (&["schema"], &["--help"]),
        (
            &["grid"],
            &[
                "--batch",
                "--heads",
                "--spatial",
                "--axis",
                "--gpu",
                "--json",
                "--help",
            ],
        ),
        (&["diff"], &["--json", "--help"]),
        (&["completions"], &["--help"]),
        (&["man"], &["--dir", "--help"]),
        (&["matrix", "bundle"], &["--output", "--help"]),
        (
            &["matrix", "show"],
            &[
                "--gpu", "--torch", "--driver", "--json", "--matrix", "--help",
            ],
        ),
        (
            &["explain"],
            &[
                "--file",
                "--offline",
                "--from",
                "--python",
                "--verbose",
                "--json",
                "--matrix",
                "--help",
            ],
        ),
    ];
    for (sub, want) in expected {
        let (code, help, _) = out_of(bin().args(*sub).arg("--help"));
        assert_eq!(code, 0, "{sub:?}");
        let have = options_in(&help);
        assert_eq!(have, *want, "{sub:?} --help:\n{help}");
    }
    for sub in ["diagnose", "fleet", "matrix validate", "matrix update"] {
        let (_, help, _) = out_of(bin().args(sub.split(' ')).arg("--help"));
        for o in options_in(&help) {
            assert!(
                !report_only.contains(&o.as_str()),
                "{sub} lists {o}:\n{help}"
            );
        }
    }
    // Fleet keeps the outputs it writes; grid and explain never had one.
    let (_, fleet, _) = out_of(bin().args(["fleet", "--help"]));
    assert!(options_in(&fleet).contains(&"--prometheus".to_string()));
    // The report itself still lists its options.
    let (_, top, _) = out_of(bin().arg("--help"));
    for o in report_only
        .iter()
        .chain(&["--prometheus", "--save", "--python"])
    {
        assert!(options_in(&top).contains(&o.to_string()), "{o}:\n{top}");
    }
}

#[test]
fn an_option_a_subcommand_does_not_use_is_a_usage_error() {
    for args in [
        &["explain", "--prometheus", "m.prom", "CUDA out of memory"][..],
        &[
            "grid",
            "--prometheus",
            "m.prom",
            "--batch",
            "1",
            "--heads",
            "1",
        ],
        &["--prometheus", "m.prom", "explain", "CUDA out of memory"],
        &[
            "--prometheus",
            "m.prom",
            "grid",
            "--batch",
            "1",
            "--heads",
            "1",
        ],
        &["--deep", "checks"],
        &["--redact", "diff", "a.json", "b.json"],
        &["--json", "matrix", "validate"],
        &["checks", "--plain"],
        &["schema", "--json"],
    ] {
        let (code, out, err) = out_of(bin().args(args));
        assert_eq!(code, 3, "{args:?}: {out}{err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.contains("error:"), "{args:?}: {err}");
        assert!(!std::path::Path::new("m.prom").exists());
    }
    let (_, _, err) = out_of(bin().args(["--prometheus", "m.prom", "explain", "x"]));
    assert!(
        err.contains("--prometheus") && err.contains("gpu-doctor explain"),
        "{err}"
    );
    // GPU_DOCTOR_MATRIX is the environment, not an option given: every subcommand runs.
    let matrix = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("compat-matrix");
    for args in [
        &["checks"][..],
        &["grid", "--batch", "1", "--heads", "1"],
        &["schema"],
    ] {
        let (code, _, err) = out_of(bin().env("GPU_DOCTOR_MATRIX", &matrix).args(args));
        assert_eq!(code, 0, "{args:?}: {err}");
    }
    // Written before the subcommand, an option the subcommand has is still its own
    // (the older spelling of documented invocations).
    let (code, out, err) = out_of(bin().args(["--json", "checks"]));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["checks"].as_array().is_some_and(|c| !c.is_empty()));
    let (code, out, err) = out_of(bin().args(["--json", "grid", "--batch", "8", "--heads", "8"]));
    assert_eq!(code, 0, "{err}");
    assert!(
        serde_json::from_str::<serde_json::Value>(&out).is_ok(),
        "{out}"
    );
}

#[test]
fn checks_json_is_json_and_text_is_not() {
    let (code, out, _) = out_of(bin().args(["checks", "--json"]));
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let ids: Vec<&str> = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["id"].as_str())
        .collect();
    assert!(ids.contains(&"torch.cpu_only"), "{ids:?}");
    let (_, text, _) = out_of(bin().arg("checks"));
    assert!(serde_json::from_str::<serde_json::Value>(&text).is_err());
    assert!(text.contains("torch.cpu_only"));
}

/// A venv at /home/alice/cpu with a CPU-only torch 2.4.1, on a machine with an NVIDIA GPU.
fn machine_with_cpu_torch_at_home() -> FixtureRoot {
    let root = FixtureRoot::ubuntu();
    root.gpu(Some("nvidia"))
        .kernel_module("550.54.15")
        .user_space("550.54.15")
        .device_nodes(1);
    let venv = "home/alice/cpu";
    let site = format!("{venv}/lib/python3.11/site-packages");
    root.file(
        &format!("{venv}/pyvenv.cfg"),
        "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.7\n",
    );
    root.file(&format!("{venv}/bin/python"), "#!/bin/sh\n");
    std::fs::set_permissions(
        root.path(&format!("{venv}/bin/python")),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    root.file(&format!("{site}/torch/__init__.py"), "");
    root.file(
        &format!("{site}/torch/version.py"),
        "__version__ = '2.4.1+cpu'\ncuda = None\nhip = None\n",
    );
    root.file(
        &format!("{site}/torch-2.4.1+cpu.dist-info/METADATA"),
        "Metadata-Version: 2.1\nName: torch\nVersion: 2.4.1+cpu\n",
    );
    root.file(
        &format!("{site}/torch-2.4.1+cpu.dist-info/INSTALLER"),
        "pip\n",
    );
    root
}

#[test]
fn a_bad_python_is_an_error_naming_the_path() {
    let root = machine_with_cpu_torch_at_home();
    root.file("opt/tools/not-python", "#!/bin/sh\n");
    std::fs::set_permissions(
        root.path("opt/tools/not-python"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    root.file("opt/plain/bin/python3", "#!/bin/sh\n"); // mode 644: not executable
    std::fs::create_dir_all(root.path("opt/empty")).unwrap();
    for (path, why) in [
        ("/no/such/python", "no such file"),
        ("/opt/plain/bin/python3", "not executable"),
        ("/opt/plain", "not executable"),
        ("/opt/tools/not-python", "not a Python"),
        ("/opt/empty", "no bin/python3 or bin/python"),
    ] {
        for args in [
            vec!["--plain", "--no-probes", "--python", path],
            vec!["explain", "--python", path, "CUDA out of memory"],
        ] {
            let (code, out, err) = out_of(root.command().args(&args));
            assert_eq!(code, 3, "{args:?}: {out}{err}");
            assert!(out.is_empty(), "{args:?}: {out}");
            assert!(err.contains(path) && err.contains(why), "{args:?}: {err}");
        }
    }
    // An interpreter and an environment folder are both fine.
    for good in ["/home/alice/cpu/bin/python", "/home/alice/cpu"] {
        let (code, r) = json_report(root.command().args(["--no-probes", "--python", good]));
        assert_eq!(code, 2, "{r:#}");
        assert!(
            has(&r, "torch.cpu_only", "fail"),
            "{good}: {:#}",
            r["findings"]
        );
    }
}

#[test]
fn a_failed_save_still_prints_the_report_and_says_why() {
    let root = FixtureRoot::ubuntu();
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("no-such-folder/report.json");
    let out = root
        .command()
        .args(["--json", "--no-probes", "--save"])
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["summary"]["verdict"], "failures");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&bad.display().to_string()) && err.contains("No such file"),
        "{err}"
    );
    // Text too, and --prometheus likewise.
    let out = root
        .command()
        .args(["--plain", "--no-probes", "--prometheus"])
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stdout).contains("No NVIDIA GPU"));
    // diagnose --save likewise.
    let out = bin()
        .args(["diagnose", "--json", "--save"])
        .arg(&bad)
        .arg("-")
        .write_stdin("PyTorch version: 2.4.1+cu121\nNvidia driver version: 550.54.15\nGPU 0: NVIDIA GeForce RTX 4090\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(serde_json::from_slice::<serde_json::Value>(&out.stdout).is_ok());
    assert!(String::from_utf8_lossy(&out.stderr).contains("the diagnosis was shown all the same"));
    // A save that works changes nothing in the exit code.
    let good = dir.path().join("r.json");
    let out = root
        .command()
        .args(["--json", "--no-probes", "--save"])
        .arg(&good)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(good.is_file());
}

/// `--save` to a FIFO: with a reader, the report goes through the pipe (which stays a
/// pipe); with none, the doctor says so at once (exit 3) instead of blocking on open.
#[test]
fn save_to_a_fifo_writes_through_it_or_says_nothing_reads_it() {
    use std::os::unix::fs::FileTypeExt as _;
    let root = FixtureRoot::ubuntu();
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("report.fifo");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let save_to_fifo = || {
        root.command()
            .args(["--json", "--no-probes", "--save"])
            .arg(&fifo)
            .timeout(std::time::Duration::from_secs(60))
            .output()
            .unwrap()
    };
    let started = std::time::Instant::now();
    let out = save_to_fifo();
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("nothing reads"),
        "{out:?}"
    );
    let path = fifo.clone();
    let reader = std::thread::spawn(move || std::fs::read_to_string(path).unwrap());
    // The reader waits in open(); a blocked reader counts as one for the doctor's open.
    std::thread::sleep(std::time::Duration::from_millis(200));
    let out = save_to_fifo();
    let saved: serde_json::Value = serde_json::from_str(&reader.join().unwrap()).unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert_eq!(saved["summary"]["verdict"], "failures");
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
}

const H100: &str = "NVIDIA H100 80GB HBM3,9.0,85520809984,00000000:01:00.0,GPU-0a1b2c3d-1111-2222-3333-444455556666";

/// One H100 behind the fake NVML and libcuda, and the CPU-only venv of alice.
fn one_gpu_node() -> FixtureRoot {
    machine_with_cpu_torch_at_home()
}

fn with_fake_driver(cmd: &mut Command) -> &mut Command {
    cmd.env(
        "GPU_DOCTOR_DRIVER_LIB_DIR",
        &fake_driver::fake_driver().current,
    )
    .env("FAKE_NVML_GPUS", H100)
    .env("FAKE_NVML_DRIVER_VERSION", "550.54.15")
    .env("FAKE_NVML_GPU0_PCIE", "1,1,1,1")
}

#[test]
fn gpus_that_match_no_gpu_are_an_error() {
    let root = one_gpu_node();
    let (code, out, err) = out_of(
        with_fake_driver(&mut root.command()).args(["--json", "--probes", "launch", "--gpus", "9"]),
    );
    assert_eq!(code, 3, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("--gpus 9 matches no GPU") && err.contains("0 (GPU-0a1b2c3d"),
        "{err}"
    );
    // A UUID prefix of another GPU likewise; the right index runs its probe.
    let (code, _, err) = out_of(with_fake_driver(&mut root.command()).args([
        "--json",
        "--probes",
        "launch",
        "--gpus",
        "0,GPU-ffff",
    ]));
    assert_eq!(code, 3);
    assert!(err.contains("--gpus GPU-ffff matches"), "{err}");
    let (_, r) = json_report(
        with_fake_driver(&mut root.command()).args(["--probes", "launch", "--gpus", "0"]),
    );
    assert_eq!(
        r["facts"]["probes"].as_array().map(Vec::len),
        Some(1),
        "{r:#}"
    );
    // Without probes the selection is not looked at.
    let (code, _) =
        json_report(with_fake_driver(&mut root.command()).args(["--no-probes", "--gpus", "9"]));
    assert_ne!(code, 3);
}

#[test]
fn redact_replaces_home_users_uuids_and_the_host_with_stable_tokens() {
    let root = one_gpu_node();
    let dir = tempfile::tempdir().unwrap();
    let run = |format: &str, prom: &std::path::Path| {
        let (code, out, err) = out_of(with_fake_driver(&mut root.command()).args([
            format,
            "--redact",
            "--probes",
            "launch",
            "--python",
            "/home/alice/cpu/bin/python",
            "--prometheus",
            prom.to_str().unwrap(),
        ]));
        assert_eq!(code, 2, "{err}");
        (out, std::fs::read_to_string(prom).unwrap())
    };
    let (json, prom) = run("--json", &dir.path().join("a.prom"));
    let (text, _) = run("--plain", &dir.path().join("b.prom"));
    let (again, _) = run("--json", &dir.path().join("c.prom"));
    for (what, out) in [("json", &json), ("text", &text), ("prometheus", &prom)] {
        for secret in ["alice", "fixture-node", "0a1b2c3d", "GPU-0a1b"] {
            assert!(!out.contains(secret), "{what} shows {secret}:\n{out}");
        }
    }
    let r: serde_json::Value = serde_json::from_str(&json).unwrap();
    let uuid = r["facts"]["driver_api"]["nvml"]["value"]["devices"]["value"][0]["uuid"]["value"]
        .as_str()
        .unwrap_or_else(|| panic!("{:#}", r["facts"]["driver_api"]))
        .to_string();
    assert!(uuid.starts_with("GPU-") && uuid.len() == 16, "{uuid}");
    // The text report names the same token.
    assert!(text.contains(&uuid) || !text.contains("GPU-"), "{text}");
    let env = &r["facts"]["python"][0]["interpreter"];
    let path = env.as_str().unwrap();
    assert!(
        path.starts_with("/home/user-") && path.ends_with("/cpu/bin/python"),
        "{path}"
    );
    // Stable: the same tokens in another run.
    let a: serde_json::Value = serde_json::from_str(&again).unwrap();
    for pointer in [
        "/facts/system/hostname/value",
        "/facts/driver_api/nvml/value/devices/value/0/uuid/value",
        "/facts/driver_api/cuda/value/devices/value/0/uuid/value",
        "/facts/python/0/interpreter",
    ] {
        assert_eq!(r.pointer(pointer), a.pointer(pointer), "{pointer}");
        assert!(r.pointer(pointer).is_some(), "{pointer}");
    }
    assert_eq!(
        r.pointer("/facts/driver_api/cuda/value/devices/value/0/uuid/value"),
        Some(&serde_json::Value::String(uuid.clone()))
    );
}

#[test]
fn completions_name_the_subcommands_and_the_man_page_is_roff() {
    let (code, bash, _) = out_of(bin().args(["completions", "bash"]));
    assert_eq!(code, 0);
    for sub in ["explain", "fleet", "diagnose", "completions", "--python"] {
        assert!(bash.contains(sub), "{sub}");
    }
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let (code, out, _) = out_of(bin().args(["completions", shell]));
        assert_eq!(code, 0, "{shell}");
        assert!(out.contains("gpu-doctor"), "{shell}");
    }
    let (code, _, err) = out_of(bin().args(["completions", "tcsh"]));
    assert_eq!(code, 3, "{err}");
    let (code, man, _) = out_of(bin().arg("man"));
    assert_eq!(code, 0);
    assert!(
        man.starts_with(".ie") || man.contains("\n.TH gpu-doctor 1"),
        "{man}"
    );
    assert!(
        man.lines().any(|l| l.starts_with(".TH gpu-doctor")),
        "{man}"
    );
    assert!(man.contains("\\-\\-redact"), "{man}");
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = out_of(bin().args(["man", "--dir"]).arg(dir.path()));
    assert_eq!(code, 0, "{err}");
    for page in [
        "gpu-doctor.1",
        "gpu-doctor-fleet.1",
        "gpu-doctor-matrix-show.1",
    ] {
        let text = std::fs::read_to_string(dir.path().join(page)).unwrap();
        assert!(text.lines().any(|l| l.starts_with(".TH")), "{page}");
    }
}

#[test]
fn version_names_the_commit_and_the_bundled_matrix() {
    let manifest = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("compat-matrix/matrix.toml"),
    )
    .unwrap();
    let matrix: toml::Value = toml::from_str(&manifest).unwrap();
    let matrix = matrix["version"].as_str().unwrap();
    let (code, out, _) = out_of(bin().arg("--version"));
    assert_eq!(code, 0);
    assert!(
        out.starts_with(&format!("gpu-doctor {}\n", env!("CARGO_PKG_VERSION"))),
        "{out}"
    );
    let commit = out
        .lines()
        .find_map(|l| l.strip_prefix("commit: "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        commit == "unknown" || (commit.len() >= 7 && commit.chars().all(|c| c.is_ascii_hexdigit())),
        "{commit}"
    );
    assert!(out.contains(&format!("matrix: {matrix}")), "{out}");
    let (_, short, _) = out_of(bin().arg("-V"));
    assert_eq!(
        short.trim(),
        format!(
            "gpu-doctor {} (commit {commit}, matrix {matrix})",
            env!("CARGO_PKG_VERSION")
        )
    );
}

#[test]
fn explain_python_ranks_with_that_interpreters_torch() {
    let root = machine_with_cpu_torch_at_home();
    let error = "AssertionError: Torch not compiled with CUDA enabled";
    let top = |args: &[&str]| {
        let (code, out, err) = out_of(
            root.command()
                .args(["explain", "--json"])
                .args(args)
                .arg(error),
        );
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        (v["facts"].clone(), v["matches"][0]["causes"][0].clone())
    };
    // Without it, nothing on PATH has a torch: the cause stays the message's.
    let (facts, cause) = top(&[]);
    assert_eq!(facts, "this machine");
    assert_eq!(cause["id"], "torch.cpu_only");
    assert!(
        !cause["evidence"].to_string().contains("2.4.1+cpu"),
        "{cause:#}"
    );
    // With it, the CPU-only build of that interpreter confirms it, with its fix.
    let (facts, cause) = top(&["--python", "/home/alice/cpu/bin/python"]);
    assert_eq!(
        facts,
        "this machine with --python /home/alice/cpu/bin/python"
    );
    assert_eq!(cause["id"], "torch.cpu_only");
    assert!(
        cause["evidence"]
            .to_string()
            .contains("PyTorch 2.4.1+cpu is a CPU-only build (fail)"),
        "{cause:#}"
    );
    // The older spelling, before the subcommand, is the same option.
    let (code, out, err) = out_of(root.command().args([
        "--python",
        "/home/alice/cpu/bin/python",
        "explain",
        "--json",
        error,
    ]));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("2.4.1+cpu"), "{out}");
    // It cannot go with --offline or --from.
    let (code, _, _) = out_of(root.command().args([
        "explain",
        "--offline",
        "--python",
        "/home/alice/cpu/bin/python",
        error,
    ]));
    assert_eq!(code, 3);
}
