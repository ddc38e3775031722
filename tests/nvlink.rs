//! End to end: NVLink link states and the NVSwitch fabric (gpu.nvlink_down, gpu.fabric)
//! as the real binary reports them, with the fake libnvidia-ml (tests/fake_driver/
//! fake_nvml.c) playing HGX H100 boards (18 NVLinks per GPU, a fabric) and a PCIe card
//! without NVLink.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "common/fake_driver.rs"]
mod fake_driver;
mod fixture_root;

use std::time::Duration;

use fixture_root::{finding, json_report, FixtureRoot};
use serde_json::Value;

const SXM0: &str = "NVIDIA H100 80GB HBM3,9.0,85520809984,00000000:18:00.0,GPU-0a1b2c3d-0000-1111-2222-000000000000";
const SXM1: &str = "NVIDIA H100 80GB HBM3,9.0,85520809984,00000000:2A:00.0,GPU-0a1b2c3d-0000-1111-2222-000000000001";
const PCIE0: &str =
    "NVIDIA H100 PCIe,9.0,85520809984,00000000:18:00.0,GPU-0a1b2c3d-0000-1111-2222-000000000000";

/// Fabric Manager's pid and how the fixture says it runs.
const FM_PID: &str = "4242";

enum Fm {
    /// Its pid file names a live process.
    Running,
    /// `systemctl is-active` answers "inactive".
    Inactive,
    /// No systemctl, no pid file.
    Unknown,
}

fn node(pci_id: &str, fm: &Fm) -> FixtureRoot {
    let root = FixtureRoot::ubuntu();
    root.pci("0000:18:00.0", "0x10de", pci_id, "0x030200", Some("nvidia"))
        .pci("0000:2a:00.0", "0x10de", pci_id, "0x030200", Some("nvidia"))
        .kernel_module("550.54.15")
        .user_space("550.54.15")
        .device_nodes(2);
    match fm {
        Fm::Running => {
            root.file(
                "var/run/nvidia-fabricmanager/nv-fabricmanager.pid",
                &format!("{FM_PID}\n"),
            )
            .file(&format!("proc/{FM_PID}/comm"), "nv-fabricmanager\n");
        }
        Fm::Inactive => {
            root.file("usr/bin/systemctl", "#!/bin/sh\necho inactive\nexit 3\n");
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(
                root.path("usr/bin/systemctl"),
                std::fs::Permissions::from_mode(0o755),
            )
            .unwrap();
        }
        Fm::Unknown => {}
    }
    root
}

struct Run {
    code: i32,
    report: Value,
}

impl Run {
    /// (severity, GPU index, action) of every finding with `id`.
    fn of(&self, id: &str) -> Vec<(String, Option<u64>, Option<String>)> {
        self.report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| fixture_root::failure_id(f) == id)
            .map(|f| {
                (
                    f["severity"].as_str().unwrap().to_string(),
                    f["scope"]["index"].as_u64(),
                    f["action"].as_str().map(str::to_string),
                )
            })
            .collect()
    }

    fn device(&self, i: usize) -> &Value {
        &self.report["facts"]["driver_api"]["nvml"]["value"]["devices"]["value"][i]
    }
}

fn run(gpus: &str, pci_id: &str, fm: &Fm, vars: &[(&str, &str)]) -> Run {
    let root = node(pci_id, fm);
    let mut cmd = root.command();
    cmd.env(
        "GPU_DOCTOR_DRIVER_LIB_DIR",
        &fake_driver::fake_driver().current,
    )
    .env("GPU_DOCTOR_DRIVER_TIMEOUT_MS", "60000")
    .env("FAKE_NVML_GPUS", gpus)
    .env("FAKE_NVML_DRIVER_VERSION", "550.54.15")
    .env("FAKE_CUDA_DEVICES", "2")
    .arg("--no-probes")
    .timeout(Duration::from_secs(120));
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let (code, report) = json_report(&mut cmd);
    Run { code, report }
}

/// Two HGX H100 GPUs, 18 NVLinks each, registered in the fabric.
const HGX: &[(&str, &str)] = &[
    ("FAKE_NVML_GPU0_NVLINKS", "18"),
    ("FAKE_NVML_GPU1_NVLINKS", "18"),
    ("FAKE_NVML_GPU0_FABRIC", "3,0,1"),
    ("FAKE_NVML_GPU1_FABRIC", "3,0,1"),
];

fn hgx(extra: &[(&str, &str)]) -> Vec<(&'static str, String)> {
    let mut vars: Vec<(&'static str, String)> =
        HGX.iter().map(|(k, v)| (*k, (*v).to_string())).collect();
    for (k, v) in extra {
        let k: &'static str = Box::leak((*k).to_string().into_boxed_str());
        vars.retain(|(name, _)| *name != k);
        vars.push((k, (*v).to_string()));
    }
    vars
}

fn run_hgx(fm: &Fm, extra: &[(&str, &str)]) -> Run {
    let vars = hgx(extra);
    let refs: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
    run(&format!("{SXM0};{SXM1}"), "0x2330", fm, &refs)
}

#[test]
fn a_healthy_hgx_node_passes_nvlink_and_fabric() {
    let r = run_hgx(&Fm::Running, &[]);
    let nv = finding(&r.report, "gpu.nvlink_down");
    assert_eq!(nv["severity"], "pass", "{nv:#}");
    assert!(nv["summary"].as_str().unwrap().contains("2 GPUs"), "{nv:#}");
    let fab = finding(&r.report, "gpu.fabric");
    assert_eq!(fab["severity"], "pass", "{fab:#}");
    // The facts as NVML gave them: 18 active links, their version and far end, the
    // fabric registration, and how Fabric Manager was found running.
    let links = r.device(1)["nvlinks"]["value"].as_array().unwrap();
    assert_eq!(links.len(), 18);
    assert!(links.iter().all(|l| l["active"] == true));
    assert_eq!(links[17]["link"], 17);
    assert_eq!(links[0]["version"], 4);
    assert_eq!(links[0]["remote_pci_bus_id"], "00000000:05:00.0");
    let f = &r.device(0)["fabric"]["value"];
    assert_eq!(f["state"], "completed");
    assert_eq!(f["status"], "NVML_SUCCESS");
    assert_eq!(f["clique_id"], 1);
    let fm = &r.report["facts"]["fabric_manager"]["value"];
    assert_eq!(fm["running"], true, "{fm:#}");
    assert!(fm["how"].as_str().unwrap().contains(FM_PID));
}

#[test]
fn an_inactive_nvlink_fails_with_its_own_finding() {
    let r = run_hgx(&Fm::Running, &[("FAKE_NVML_GPU1_NVLINK_DOWN", "7")]);
    assert_eq!(
        r.of("gpu.nvlink_down"),
        vec![("fail".to_string(), Some(1), Some("drain".to_string()))]
    );
    let f = finding(&r.report, "gpu.nvlink_down");
    let summary = f["summary"].as_str().unwrap();
    assert!(
        summary.contains("GPU 1") && summary.ends_with("down: 7"),
        "{f:#}"
    );
    assert!(
        f["fix"]["commands"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c == "nvidia-smi nvlink --status -i 1"),
        "{f:#}"
    );
    assert_eq!(r.code, 2);
    let links = r.device(1)["nvlinks"]["value"].as_array().unwrap();
    assert_eq!(links[7]["active"], false);
    assert!(
        links[7].get("remote_pci_bus_id").is_none(),
        "{:#}",
        links[7]
    );
    // The other GPU and the fabric are fine.
    assert_eq!(finding(&r.report, "gpu.fabric")["severity"], "pass");
}

#[test]
fn a_fabric_still_in_progress_fails_every_gpu_on_it() {
    let r = run_hgx(
        &Fm::Running,
        &[
            ("FAKE_NVML_GPU0_FABRIC", "2,0"),
            ("FAKE_NVML_GPU1_FABRIC", "2,0"),
        ],
    );
    assert_eq!(
        r.of("gpu.fabric"),
        vec![
            ("fail".to_string(), Some(0), Some("drain".to_string())),
            ("fail".to_string(), Some(1), Some("drain".to_string())),
        ]
    );
    let f = finding(&r.report, "gpu.fabric");
    assert!(
        f["summary"].as_str().unwrap().contains("in progress"),
        "{f:#}"
    );
    assert_eq!(r.code, 2);
    assert_eq!(r.device(0)["fabric"]["value"]["state"], "in_progress");
}

/// nvml.h's healthMask: two bits each for degraded bandwidth (0), route recovery (2),
/// route unhealthy (4), access-timeout recovery (6), each 1 true / 2 false; then the
/// incorrect configuration (8, four bits: 1 none … 5 insufficient NVLinks).
fn health_mask(degraded_bw: u32, route_unhealthy: u32, config: u32) -> String {
    (degraded_bw | 2 << 2 | route_unhealthy << 4 | 2 << 6 | config << 8).to_string()
}

#[test]
fn a_registered_gpu_whose_fabric_health_is_degraded_warns_and_an_unhealthy_one_fails() {
    // Every field false and the configuration "none": healthy, as R550+ drivers report it.
    let healthy = health_mask(2, 2, 1);
    let r = run_hgx(
        &Fm::Running,
        &[
            ("FAKE_NVML_GPU0_FABRIC_HEALTH", &healthy),
            ("FAKE_NVML_GPU1_FABRIC_HEALTH", &healthy),
        ],
    );
    assert_eq!(finding(&r.report, "gpu.fabric")["severity"], "pass");
    assert_eq!(
        r.device(0)["fabric"]["value"]["health_mask"],
        healthy.parse::<u64>().unwrap()
    );

    // GPU 1's bandwidth degraded: a warning on GPU 1 alone, the hardware to inspect.
    let r = run_hgx(
        &Fm::Running,
        &[
            ("FAKE_NVML_GPU0_FABRIC_HEALTH", &healthy),
            ("FAKE_NVML_GPU1_FABRIC_HEALTH", &health_mask(1, 2, 1)),
        ],
    );
    assert_eq!(
        r.of("gpu.fabric"),
        vec![(
            "warn".to_string(),
            Some(1),
            Some("inspect_hardware".to_string())
        )]
    );
    let f = finding(&r.report, "gpu.fabric");
    assert!(
        f["summary"]
            .as_str()
            .unwrap()
            .contains("bandwidth is degraded"),
        "{f:#}"
    );
    assert!(
        f["evidence"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["value"] == format!("0x{:x}", 1 | 2 << 2 | 2 << 4 | 2 << 6 | 1 << 8)),
        "{f:#}"
    );

    // An unhealthy route and too few NVLinks on GPU 0: a failure naming both.
    let r = run_hgx(
        &Fm::Running,
        &[("FAKE_NVML_GPU0_FABRIC_HEALTH", &health_mask(2, 1, 5))],
    );
    assert_eq!(
        r.of("gpu.fabric"),
        vec![("fail".to_string(), Some(0), Some("drain".to_string()))]
    );
    let summary = finding(&r.report, "gpu.fabric")["summary"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        summary.contains("route is unhealthy") && summary.contains("too few NVLinks"),
        "{summary}"
    );
    assert_eq!(r.code, 2);
}

#[test]
fn fabric_manager_not_running_on_an_nvswitch_node_fails() {
    let r = run_hgx(&Fm::Inactive, &[]);
    let fm = r.of("gpu.fabric");
    assert_eq!(
        fm,
        vec![("fail".to_string(), None, Some("fix_software".to_string()))]
    );
    let f = finding(&r.report, "gpu.fabric");
    assert!(f["summary"]
        .as_str()
        .unwrap()
        .contains("nvidia-fabricmanager is not running"));
    assert!(
        f["fix"]["text"].as_str().unwrap().contains("550.54.15"),
        "{f:#}"
    );
    assert_eq!(r.code, 2);
    assert_eq!(
        r.report["facts"]["fabric_manager"]["value"]["running"],
        false
    );
}

#[test]
fn unknown_fabric_manager_state_is_said_not_failed() {
    let r = run_hgx(&Fm::Unknown, &[]);
    assert_eq!(r.of("gpu.fabric"), vec![("info".to_string(), None, None)]);
}

#[test]
fn a_pcie_card_without_nvlink_passes() {
    let gpus = format!(
        "{PCIE0};{}",
        PCIE0
            .replace("18:00.0", "2A:00.0")
            .replace("000000000000", "000000000001")
    );
    let r = run(&gpus, "0x2331", &Fm::Unknown, &[]);
    let nv = finding(&r.report, "gpu.nvlink_down");
    assert_eq!(nv["severity"], "pass", "{nv:#}");
    assert!(
        nv["summary"].as_str().unwrap().contains("No NVLink"),
        "{nv:#}"
    );
    // No fabric here: no gpu.fabric finding at all, and Fabric Manager was not looked for.
    assert!(r.of("gpu.fabric").is_empty(), "{:?}", r.of("gpu.fabric"));
    assert!(r.report["facts"].get("fabric_manager").is_none());
    assert_eq!(r.device(0)["nvlinks"]["value"], serde_json::json!([]));
    assert_eq!(r.device(0)["fabric"]["state"], "unsupported");
    assert!(r.code < 2, "{:?}", fixture_root::problems(&r.report));
}

#[test]
fn a_pcie_card_with_a_bridge_link_down_is_only_info() {
    let gpus = format!(
        "{PCIE0};{}",
        PCIE0
            .replace("18:00.0", "2A:00.0")
            .replace("000000000000", "000000000001")
    );
    let r = run(
        &gpus,
        "0x2331",
        &Fm::Unknown,
        &[
            ("FAKE_NVML_GPU0_NVLINKS", "12"),
            ("FAKE_NVML_GPU0_NVLINK_DOWN", "8,9,10,11"),
        ],
    );
    assert_eq!(
        r.of("gpu.nvlink_down"),
        vec![("info".to_string(), Some(0), None)]
    );
}

#[test]
fn an_old_driver_without_the_fabric_calls_is_not_judged() {
    let root = node("0x2330", &Fm::Unknown);
    let mut cmd = root.command();
    cmd.env("GPU_DOCTOR_DRIVER_LIB_DIR", &fake_driver::fake_driver().old)
        .env("GPU_DOCTOR_DRIVER_TIMEOUT_MS", "60000")
        .env("FAKE_NVML_GPUS", format!("{SXM0};{SXM1}"))
        .env("FAKE_NVML_DRIVER_VERSION", "470.223.02")
        .env("FAKE_CUDA_DEVICES", "2")
        .env("FAKE_NVML_GPU0_NVLINKS", "18")
        .env("FAKE_NVML_GPU1_NVLINKS", "18")
        .env("FAKE_NVML_GPU0_FABRIC", "1,0")
        .arg("--no-probes")
        .timeout(Duration::from_secs(120));
    let (_, report) = json_report(&mut cmd);
    let fabric = &report["facts"]["driver_api"]["nvml"]["value"]["devices"]["value"][0]["fabric"];
    assert_eq!(fabric["state"], "unsupported", "{fabric:#}");
    assert!(
        fabric["why"]
            .as_str()
            .unwrap()
            .contains("not in this libnvidia-ml"),
        "{fabric:#}"
    );
    let r = Run { code: 0, report };
    assert!(r.of("gpu.fabric").is_empty());
    assert_eq!(finding(&r.report, "gpu.nvlink_down")["severity"], "pass");
}

#[test]
fn a_gpu_lost_while_its_links_are_read_is_judged_by_gpu_lost_alone() {
    let r = run_hgx(
        &Fm::Running,
        &[("FAKE_NVML_GPU1_LOST_AFTER", "nvmlDeviceGetNvLinkState")],
    );
    assert_eq!(r.device(1)["lost"], true);
    assert_eq!(r.device(1)["nvlinks"]["state"], "failed");
    assert!(r.device(1)["nvlinks"]["error"]
        .as_str()
        .unwrap()
        .contains("GPU_IS_LOST"));
    assert_eq!(r.device(1)["fabric"]["state"], "failed");
    assert_eq!(
        r.of("gpu.lost"),
        vec![("fail".to_string(), Some(1), Some("drain".to_string()))]
    );
    // GPU 0 is read whole and passes; the lost GPU gets no NVLink or fabric verdict.
    assert_eq!(finding(&r.report, "gpu.nvlink_down")["severity"], "pass");
    assert!(finding(&r.report, "gpu.nvlink_down")["summary"]
        .as_str()
        .unwrap()
        .contains("1 GPU"));
    assert_eq!(finding(&r.report, "gpu.fabric")["severity"], "pass");
}

#[test]
fn sxm_gpus_with_no_nvlink_active_anywhere_and_no_fabric_warn_not_fail() {
    // What a VM given two SXM GPUs without their NVLinks shows: every link inactive, no
    // NVSwitch fabric.
    let all = (0..18).map(|l| l.to_string()).collect::<Vec<_>>().join(",");
    let r = run(
        &format!("{SXM0};{SXM1}"),
        "0x2330",
        &Fm::Unknown,
        &[
            ("FAKE_NVML_GPU0_NVLINKS", "18"),
            ("FAKE_NVML_GPU1_NVLINKS", "18"),
            ("FAKE_NVML_GPU0_NVLINK_DOWN", &all),
            ("FAKE_NVML_GPU1_NVLINK_DOWN", &all),
        ],
    );
    assert_eq!(
        r.of("gpu.nvlink_down"),
        vec![
            ("warn".to_string(), Some(0), Some("drain".to_string())),
            ("warn".to_string(), Some(1), Some("drain".to_string())),
        ]
    );
    // With the other GPU's links up, the same GPU fails.
    let r = run(
        &format!("{SXM0};{SXM1}"),
        "0x2330",
        &Fm::Unknown,
        &[
            ("FAKE_NVML_GPU0_NVLINKS", "18"),
            ("FAKE_NVML_GPU1_NVLINKS", "18"),
            ("FAKE_NVML_GPU0_NVLINK_DOWN", &all),
        ],
    );
    assert_eq!(
        r.of("gpu.nvlink_down"),
        vec![("fail".to_string(), Some(0), Some("drain".to_string()))]
    );
}
