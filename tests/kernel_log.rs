//! End to end: Xid and SXid lines in a fixture root's kernel log (`/dev/kmsg`, or the
//! `journalctl` / `dmesg` fallbacks as scripts in the root), judged by the real binary
//! with the fake libnvidia-ml playing two H100s; `--since`, `--tier`, `--budget`, `--npd`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "common/fake_driver.rs"]
mod fake_driver;
mod fixture_root;

use std::time::{Duration, Instant};

use fixture_root::{json_report, FixtureRoot};
use serde_json::Value;

const GPU0: &str = "NVIDIA H100 80GB HBM3,9.0,85520809984,00000000:18:00.0,GPU-0a1b2c3d-0000-1111-2222-000000000000";
const GPU1: &str = "NVIDIA H100 80GB HBM3,9.0,85520809984,00000000:2A:00.0,GPU-0a1b2c3d-0000-1111-2222-000000000001";

fn two_gpu_node() -> FixtureRoot {
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

fn command(root: &FixtureRoot) -> assert_cmd::Command {
    let mut cmd = root.command();
    cmd.env(
        "GPU_DOCTOR_DRIVER_LIB_DIR",
        &fake_driver::fake_driver().current,
    )
    .env("GPU_DOCTOR_DRIVER_TIMEOUT_MS", "60000")
    .env("FAKE_NVML_GPUS", format!("{GPU0};{GPU1}"))
    .env("FAKE_NVML_DRIVER_VERSION", "550.54.15")
    .env("FAKE_CUDA_DEVICES", "2")
    .timeout(Duration::from_secs(120));
    cmd
}

fn report(root: &FixtureRoot, args: &[&str]) -> (i32, Value) {
    let mut cmd = command(root);
    cmd.arg("--no-probes").args(args);
    json_report(&mut cmd)
}

/// The gpu.xid findings as (severity, GPU index, action, summary).
fn xids(report: &Value) -> Vec<(String, Option<u64>, String, String)> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| fixture_root::failure_id(f) == "gpu.xid")
        .map(|f| {
            let action = f["evidence"]
                .as_array()
                .unwrap()
                .iter()
                .find(|e| e["fact"] == "action")
                .map_or(String::new(), |e| e["value"].as_str().unwrap().to_string());
            (
                f["severity"].as_str().unwrap().to_string(),
                f["scope"]["index"].as_u64(),
                action,
                f["summary"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn kmsg_line(seq: u32, usec: u64, msg: &str) -> String {
    format!("4,{seq},{usec},-;{msg}\n")
}

/// The exit code of the same node with a clean kernel log (other checks' verdicts).
fn baseline_code() -> i32 {
    static CODE: std::sync::OnceLock<i32> = std::sync::OnceLock::new();
    *CODE.get_or_init(|| report(&two_gpu_node(), &[]).0)
}

#[test]
fn on_a_fixture_root_whose_kernel_log_holds_an_xid_79_gpu_doctor_fails_that_gpu() {
    let root = two_gpu_node();
    root.file(
        "dev/kmsg",
        &(kmsg_line(
            1,
            1_000_000,
            "NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  550.54.15",
        ) + &kmsg_line(
            2,
            900_000_000,
            "NVRM: Xid (PCI:0000:2a:00): 79, pid=2291, name=python3, GPU has fallen off the bus.",
        ) + &kmsg_line(
            3,
            900_000_100,
            "NVRM: GPU 0000:2a:00.0: GPU has fallen off the bus.",
        )),
    );
    let (code, r) = report(&root, &[]);
    assert_eq!(code, 2);
    let x = xids(&r);
    assert_eq!(x.len(), 1, "{x:?}");
    assert_eq!(
        (x[0].0.as_str(), x[0].1, x[0].2.as_str()),
        ("fail", Some(1), "reboot"),
        "{x:?}"
    );
    assert!(
        x[0].3.starts_with("GPU 1 (0000:2a:00): Xid 79 ×2"),
        "{}",
        x[0].3
    );
    assert_eq!(r["facts"]["kernel_log"]["value"]["source"], "/dev/kmsg");
    // The machine-readable action a scheduler reads: the Xid's own, over the check's
    // default (drain).
    let f = r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| fixture_root::failure_id(f) == "gpu.xid")
        .unwrap();
    assert_eq!(f["action"], "reboot", "{f}");
}

#[test]
fn every_xid_of_the_issue_end_to_end() {
    for (code, line, severity, action) in [
        (63, "Row Remapper: New row marked for remapping, reset gpu to activate.", "warn", "reset_gpu"),
        (64, "Row Remapper: Failed to remap row", "fail", "reset_gpu"),
        (74, "NVLink: fatal error detected on link 3", "fail", "reset_gpu"),
        (119, "Timeout waiting for RPC from GSP! Expected function 76 (GSP_RM_CONTROL)", "fail", "reset_gpu"),
        (120, "GSP task exception", "fail", "reset_gpu"),
        (94, "Contained: SM (0x1). RST: No, D-RST: No", "warn", "restart_app"),
        (95, "Uncontained: LTC TAG (0x2,0x0). RST: Yes, D-RST: No", "fail", "reset_gpu"),
        (31, "name=python, Ch 00000008, intr 10000000. MMU Fault: ENGINE GRAPHICS GPCCLIENT_T1_0 faulted @ 0x7f_7b200000. Fault is of type FAULT_PDE ACCESS_TYPE_READ", "info", "restart_app"),
    ] {
        let root = two_gpu_node();
        root.file(
            "dev/kmsg",
            &kmsg_line(7, 5_000_000, &format!("NVRM: Xid (PCI:0000:18:00): {code}, pid=1234, {line}")),
        );
        let (exit, r) = report(&root, &[]);
        let x = xids(&r);
        assert_eq!(x.len(), 1, "Xid {code}: {x:?}");
        assert_eq!(
            (x[0].0.as_str(), x[0].1, x[0].2.as_str()),
            (severity, Some(0), action),
            "Xid {code}: {x:?}"
        );
        let want = match severity {
            "fail" => 2,
            "warn" => baseline_code().max(1),
            _ => baseline_code(),
        };
        assert_eq!(exit, want.max(baseline_code()), "Xid {code}");
        if code == 31 {
            assert!(x[0].3.contains("the application's fault, not the GPU's"), "{}", x[0].3);
        }
    }
}

#[test]
fn a_fatal_sxid_fails_the_node_and_a_clean_log_passes() {
    let root = two_gpu_node();
    root.file(
        "dev/kmsg",
        &(kmsg_line(
            1,
            2_000_000,
            "nvidia-nvswitch2: SXid (PCI:0000:07:00.0): 24007, Fatal, Link 04 sourcetrack timeout error (First)",
        ) + &kmsg_line(
            2,
            2_000_001,
            "nvidia-nvswitch2: SXid (PCI:0000:07:00.0): 24007, Severity 1 Engine instance 04 Sub-engine instance 00",
        )),
    );
    let (code, r) = report(&root, &[]);
    assert_eq!(code, 2);
    let x = xids(&r);
    assert_eq!(x[0].0, "fail");
    assert!(
        x[0].3.starts_with("NVSwitch 0000:07:00: SXid 24007"),
        "{}",
        x[0].3
    );

    let (_, clean) = report(&two_gpu_node(), &[]);
    let x = xids(&clean);
    assert_eq!(x.len(), 1);
    assert_eq!(x[0].0, "pass", "{x:?}");
}

#[test]
fn an_unreadable_kernel_log_is_said_plainly() {
    let root = two_gpu_node();
    std::fs::remove_file(root.path("dev/kmsg")).unwrap();
    std::fs::create_dir_all(root.path("dev/kmsg")).unwrap();
    // journalctl without the systemd-journal group, dmesg under dmesg_restrict.
    root.file(
        "usr/bin/journalctl",
        "#!/bin/sh\necho '-- No entries --'\necho 'Hint: You are currently not seeing messages from other users and the system.' >&2\nexit 0\n",
    );
    root.file(
        "usr/bin/dmesg",
        "#!/bin/sh\necho 'dmesg: read kernel buffer failed: Operation not permitted' >&2\nexit 1\n",
    );
    for p in ["usr/bin/journalctl", "usr/bin/dmesg"] {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(root.path(p), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let (code, r) = report(&root, &[]);
    assert_eq!(
        code,
        baseline_code(),
        "an unreadable log is not a GPU failure"
    );
    let f = fixture_root::finding(&r, "gpu.xid");
    assert_eq!(f["severity"], "info");
    assert!(f["summary"].as_str().unwrap().contains("could not be read"));
    let why = f["details"].as_str().unwrap();
    for part in ["/dev/kmsg", "systemd-journal", "Operation not permitted"] {
        assert!(why.contains(part), "{part} not in {why}");
    }
}

#[test]
fn journalctl_is_the_fallback_and_dmesg_the_last() {
    let root = two_gpu_node();
    std::fs::remove_file(root.path("dev/kmsg")).unwrap();
    std::fs::create_dir_all(root.path("dev/kmsg")).unwrap();
    // journalctl -r prints newest first.
    root.file(
        "usr/bin/journalctl",
        "#!/bin/sh\necho '[  900.100000] node kernel: NVRM: Xid (PCI:0000:2a:00): 95, pid=1, Uncontained: FBHUB. RST: Yes'\necho '[    3.000000] node kernel: NVRM: loading NVIDIA UNIX Open Kernel Module'\n",
    );
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(
            root.path("usr/bin/journalctl"),
            std::fs::Permissions::from_mode(0o755),
        )
        .unwrap();
    }
    let (_, r) = report(&root, &[]);
    assert_eq!(
        r["facts"]["kernel_log"]["value"]["source"],
        "journalctl -k -b"
    );
    assert_eq!(xids(&r)[0].1, Some(1));
    assert_eq!(xids(&r)[0].0, "fail");

    std::fs::remove_file(root.path("usr/bin/journalctl")).unwrap();
    root.file(
        "usr/bin/dmesg",
        "#!/bin/sh\necho '[ 1200.5] NVRM: Xid (PCI:0000:18:00): 63, pid=0, Row Remapper: New row marked for remapping, reset gpu to activate.'\n",
    );
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(
            root.path("usr/bin/dmesg"),
            std::fs::Permissions::from_mode(0o755),
        )
        .unwrap();
    }
    let (_, r) = report(&root, &[]);
    assert_eq!(r["facts"]["kernel_log"]["value"]["source"], "dmesg");
    assert_eq!(xids(&r)[0].0, "warn");
    // --since 10m on a machine up 3600 s: the line at 1200 s is older.
    let (_, r) = report(&root, &["--since", "10m"]);
    assert_eq!(xids(&r)[0].0, "pass", "{:?}", xids(&r));
}

#[test]
fn since_limits_the_window_of_dev_kmsg() {
    let root = two_gpu_node();
    // Up 3600 s; the Xid 79 at 100 s, the Xid 94 at 3500 s.
    root.file(
        "dev/kmsg",
        &(kmsg_line(
            1,
            100_000_000,
            "NVRM: Xid (PCI:0000:18:00): 79, pid=1, GPU has fallen off the bus.",
        ) + &kmsg_line(
            2,
            3_500_000_000,
            "NVRM: Xid (PCI:0000:18:00): 94, pid=2, Contained: SM",
        )),
    );
    let (_, all) = report(&root, &[]);
    assert_eq!(xids(&all)[0].0, "fail");
    let (_, recent) = report(&root, &["--since", "30m"]);
    let x = xids(&recent);
    assert_eq!(x.len(), 1);
    assert_eq!(x[0].0, "warn", "{x:?}");
    assert!(x[0].3.contains("Xid 94") && !x[0].3.contains("Xid 79"));
    assert_eq!(
        recent["facts"]["kernel_log"]["value"]["window"],
        "the last 1800 s"
    );
}

#[test]
fn a_flood_of_messages_costs_bounded_time_and_memory() {
    let root = two_gpu_node();
    let mut text = String::with_capacity(40 << 20);
    let mut seq = 0u32;
    // 400,000 lines (~40 MB): ordinary noise, a few hundred kinds of Xid, and one Xid 79.
    for i in 0..400_000u32 {
        seq += 1;
        let msg = if i % 1000 == 0 {
            format!(
                "NVRM: Xid (PCI:0000:{:02x}:00): {}, pid={i}, flood",
                (i / 1000) % 200,
                100 + (i / 1000) % 7
            )
        } else {
            format!("usb 1-1: device descriptor read/64, error -71 (line {i} of a noisy kernel)")
        };
        text.push_str(&kmsg_line(seq, u64::from(i) * 1000, &msg));
    }
    text.push_str(&kmsg_line(
        seq + 1,
        500_000_000,
        "NVRM: Xid (PCI:0000:2a:00): 79, pid=9, GPU has fallen off the bus.",
    ));
    root.file("dev/kmsg", &text);
    drop(text);
    let start = Instant::now();
    let (code, r) = report(&root, &[]);
    let took = start.elapsed();
    assert!(took < Duration::from_secs(30), "took {took:?}");
    assert_eq!(code, 2);
    let log = &r["facts"]["kernel_log"]["value"];
    assert_eq!(log["lines"], 400_001);
    assert!(log["xids"].as_array().unwrap().len() <= 512);
    assert!(log["events_dropped"].as_u64().unwrap() > 0);
    // The report stays small: events are counted, not copied.
    assert!(serde_json::to_string(&r).unwrap().len() < 2 << 20);
}

#[test]
fn npd_follows_the_custom_plugin_contract() {
    // A problem: exit 1, one line of at most 80 characters.
    let root = two_gpu_node();
    root.file(
        "dev/kmsg",
        &kmsg_line(
            1,
            5_000_000,
            "NVRM: Xid (PCI:0000:2a:00): 79, pid=1, GPU has fallen off the bus.",
        ),
    );
    let out = command(&root)
        .args(["--npd", "--no-probes", "--only", "gpu.xid"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 1, "{stdout:?}");
    let line = stdout.trim_end();
    assert!(line.chars().count() <= 80, "{line}");
    assert!(line.starts_with("gpu.xid GPU 1"), "{line}");

    // Healthy: exit 0.
    let out = command(&two_gpu_node())
        .args(["--npd", "--no-probes", "--only", "gpu.xid"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8(out.stdout).unwrap().starts_with("ok:"));

    // No verdict (an unreadable saved report): exit 2, still one line.
    let out = command(&two_gpu_node())
        .args(["--npd", "--from", "/nonexistent/report.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.starts_with("unknown:") && stdout.lines().count() == 1,
        "{stdout:?}"
    );
    assert!(stdout.trim_end().chars().count() <= 80);
}

#[test]
fn the_slurm_line_names_the_xid_and_its_action() {
    let root = two_gpu_node();
    root.file(
        "dev/kmsg",
        &kmsg_line(
            1,
            5_000_000,
            "NVRM: Xid (PCI:0000:2a:00): 79, pid=1, GPU has fallen off the bus.",
        ),
    );
    let out = command(&root)
        .args([
            "--slurm", "--tier", "quick", "--budget", "45s", "--only", "gpu.xid",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let line = String::from_utf8(out.stdout).unwrap();
    assert!(
        line.starts_with(
            "gpu-doctor: gpu.xid: GPU 1 (0000:2a:00): Xid 79 in the kernel log; action: reboot"
        ),
        "{line}"
    );
    // The scheduler's action ends the line: the Xid's own (79: reboot), not the check's.
    assert!(line.trim_end().ends_with("[action: reboot]"), "{line}");
}

#[test]
fn quick_tier_runs_no_probes_and_no_python() {
    let root = two_gpu_node();
    let mut cmd = command(&root);
    cmd.args(["--tier", "quick"]);
    let (_, r) = json_report(&mut cmd);
    assert!(
        r["facts"]["probes"].as_array().is_none_or(Vec::is_empty),
        "{:#}",
        r["facts"]["probes"]
    );
    assert!(r["facts"]["kernel_log"]["value"]["source"].is_string());
}

#[test]
fn the_budget_bounds_a_hanging_nvml_and_names_what_it_skipped() {
    let root = two_gpu_node();
    let mut cmd = command(&root);
    cmd.env("FAKE_NVML_HANG", "1")
        .args(["--budget", "3s", "--tier", "deep"]);
    let start = Instant::now();
    let (_, r) = json_report(&mut cmd);
    let took = start.elapsed();
    assert!(
        took < Duration::from_secs(10),
        "took {took:?} under a 3 s budget"
    );
    let f = fixture_root::finding(&r, "host.budget_skipped");
    assert_eq!(f["severity"], "info");
    let s = f["summary"].as_str().unwrap();
    assert!(s.contains("probes"), "{s}");

    // A budget too small for every probe: the last ones are left out and named, and none
    // of those that run is failed for want of time.
    let mut cmd = command(&two_gpu_node());
    cmd.args(["--budget", "6s", "--tier", "deep"]);
    let start = Instant::now();
    let (_, r) = json_report(&mut cmd);
    assert!(
        start.elapsed() < Duration::from_secs(15),
        "took {:?}",
        start.elapsed()
    );
    let s = fixture_root::finding(&r, "host.budget_skipped")["summary"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(s.contains("not run"), "{s}");
    let ran = r["facts"]["probes"].as_array().cloned().unwrap_or_default();
    assert!(!ran.is_empty(), "the probes that fit ran");
    assert!(
        !serde_json::to_string(&ran)
            .unwrap()
            .contains("\"timed_out\""),
        "{ran:#?}"
    );

    // Nothing left at all: the kernel log and the driver worker are skipped and named.
    let mut cmd = command(&two_gpu_node());
    cmd.args(["--budget", "1ms", "--no-probes"]);
    let (_, r) = json_report(&mut cmd);
    let s = fixture_root::finding(&r, "host.budget_skipped")["summary"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(s.contains("kernel log") && s.contains("NVML"), "{s}");
}
