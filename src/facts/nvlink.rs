//! NVLink and NVSwitch-fabric facts: each GPU's NVLink links and its fabric state as NVML
//! reports them (gathered with the other per-GPU facts in `nvml_device`, inside the NVML
//! worker), and whether the NVIDIA Fabric Manager service runs on this machine.
//!
//! Only queries, no root: `systemctl is-active` (any user may ask) and the Fabric
//! Manager's pid file.

use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::fact::Fact;
use crate::host::Host;

/// `NVML_NVLINK_MAX_LINKS` of nvml.h (R535 and later): the link indices probed.
pub const NVLINK_MAX_LINKS: u32 = 18;

/// One NVLink link NVML knows on a GPU.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct NvLink {
    /// The link index (0..NVML_NVLINK_MAX_LINKS).
    pub link: u32,
    /// nvmlDeviceGetNvLinkState: NVML_FEATURE_ENABLED.
    pub active: bool,
    /// nvmlDeviceGetNvLinkVersion (asked only of active links).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<u32>,
    /// nvmlDeviceGetNvLinkRemotePciInfo_v2: the bus id of the device at the link's far end
    /// (another GPU, or an NVSwitch), asked only of active links.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remote_pci_bus_id: Option<String>,
}

/// nvmlDeviceGetGpuFabricInfo(V): the GPU's registration with the NVSwitch fabric.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct GpuFabric {
    /// "not_supported" (no NVSwitch fabric), "not_started", "in_progress", "completed",
    /// or "unknown_N" for a state this build does not know.
    pub state: String,
    /// The registration's result (an nvmlReturn_t name such as "NVML_SUCCESS"), meaningful
    /// once the state is "completed".
    pub status: String,
    /// The nvmlReturn_t number of `status`.
    pub status_code: u32,
    pub clique_id: u32,
    /// The fabric's cluster UUID, hex (all zeros when not registered).
    pub cluster_uuid: String,
    /// `healthMask` of nvmlGpuFabricInfo_v2_t (R550+), as NVML returned it: two bits each
    /// for degraded bandwidth (bits 0-1), route recovery (2-3), an unhealthy route (4-5)
    /// and access-timeout recovery (6-7), each 0 not supported, 1 true, 2 false; bits
    /// 8-11 the incorrect configuration (0 not supported, 1 none, 2 sysguid, 3 chassis
    /// serial number, 4 no partition, 5 insufficient NVLinks). Absent from the v1 call
    /// and from reports made before it was read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub health_mask: Option<u32>,
}

/// What a fabric health mask says is wrong, each as a sentence, and whether any of it
/// keeps jobs from running right (an unhealthy route, an incorrect configuration) rather
/// than slowing them (degraded bandwidth, a recovery under way). Fields a driver does not
/// support (0) or reports false (2) say nothing.
pub fn fabric_health_problems(mask: u32) -> (Vec<String>, bool) {
    let field = |shift: u32, width: u32| (mask >> shift) & width;
    const TRUE: u32 = 1;
    let mut out = Vec::new();
    let mut severe = false;
    if field(0, 0x3) == TRUE {
        out.push("its NVSwitch fabric bandwidth is degraded".to_string());
    }
    if field(2, 0x3) == TRUE {
        out.push("a fabric route recovery is in progress".to_string());
    }
    if field(4, 0x3) == TRUE {
        out.push("a fabric route is unhealthy".to_string());
        severe = true;
    }
    if field(6, 0x3) == TRUE {
        out.push("a fabric access-timeout recovery is in progress".to_string());
    }
    let config = match field(8, 0xf) {
        0 | 1 => None,
        2 => Some("an incorrect system GUID"),
        3 => Some("an incorrect chassis serial number"),
        4 => Some("no fabric partition"),
        5 => Some("too few NVLinks"),
        _ => Some("an incorrect configuration this build does not know"),
    };
    if let Some(c) = config {
        out.push(format!("the fabric reports {c}"));
        severe = true;
    }
    (out, severe)
}

/// `nvmlGpuFabricState_t` of nvml.h.
pub fn fabric_state_name(state: u8) -> String {
    match state {
        0 => "not_supported".to_string(),
        1 => "not_started".to_string(),
        2 => "in_progress".to_string(),
        3 => "completed".to_string(),
        n => format!("unknown_{n}"),
    }
}

/// Whether the NVIDIA Fabric Manager service runs here, and how that was learnt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FabricManager {
    pub running: bool,
    /// "systemctl is-active nvidia-fabricmanager: active", "pid file ... (pid 1234 alive)".
    pub how: String,
}

/// The systemd unit NVIDIA's packages install.
pub const FM_UNIT: &str = "nvidia-fabricmanager";
/// The pid file the unit's fabricmanager.cfg / service writes.
pub const FM_PID_FILE: &str = "/var/run/nvidia-fabricmanager/nv-fabricmanager.pid";
/// How long `systemctl is-active` may take.
pub const SYSTEMCTL_TIMEOUT: Duration = Duration::from_secs(3);

/// Whether Fabric Manager runs: `systemctl is-active` when systemd answers, else the
/// pid file and /proc. `Missing` when neither can tell (no systemd, no pid file: a
/// container, where the service lives on the host).
pub fn gather_fabric_manager(host: &Host) -> Fact<FabricManager> {
    let systemctl = host.which("systemctl");
    let mut tried = Vec::new();
    if let Some(program) = &systemctl {
        match host.run(program, &["is-active", FM_UNIT], SYSTEMCTL_TIMEOUT) {
            Ok(out) => {
                let state = out.stdout.trim().to_string();
                // is-active prints the unit's state; "active"/"activating"/"reloading" are
                // running, "inactive"/"failed" are not. Anything else ("unknown" without a
                // unit file, an error because systemd is not PID 1) says nothing.
                match state.as_str() {
                    "active" | "reloading" | "activating" => {
                        return Fact::known(FabricManager {
                            running: true,
                            how: format!("systemctl is-active {FM_UNIT}: {state}"),
                        })
                    }
                    "inactive" | "failed" | "deactivating" => {
                        return Fact::known(FabricManager {
                            running: false,
                            how: format!("systemctl is-active {FM_UNIT}: {state}"),
                        })
                    }
                    other => tried.push(format!(
                        "systemctl is-active {FM_UNIT} answered {:?}",
                        crate::host::tail_lines(
                            if other.is_empty() { &out.stderr } else { other },
                            1
                        )
                    )),
                }
            }
            Err(e) => tried.push(format!("systemctl is-active {FM_UNIT}: {e}")),
        }
    } else {
        tried.push("no systemctl on PATH".to_string());
    }
    match host.read_string(FM_PID_FILE) {
        Ok(text) => {
            let pid = text.trim();
            if pid.parse::<u32>().is_ok_and(|p| p > 0) {
                let alive = host.exists(format!("/proc/{pid}"));
                return Fact::known(FabricManager {
                    running: alive,
                    how: format!(
                        "{FM_PID_FILE} names pid {pid}, {}",
                        if alive {
                            "alive"
                        } else {
                            "which is not running"
                        }
                    ),
                });
            }
            tried.push(format!("{FM_PID_FILE} holds no pid"));
        }
        Err(e) => tried.push(format!("{FM_PID_FILE}: {e}")),
    }
    Fact::missing(format!(
        "cannot tell whether {FM_UNIT} runs: {}",
        tried.join("; ")
    ))
}

/// The default for reports written before these facts existed.
pub fn fm_not_gathered() -> Fact<FabricManager> {
    Fact::missing("not gathered (no GPU reported an NVSwitch fabric)")
}

pub fn fm_is_not_gathered(f: &Fact<FabricManager>) -> bool {
    *f == fm_not_gathered()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fabric_health_masks_as_nvml_h_lays_them_out() {
        // Nothing supported, or everything false with the configuration "none": healthy.
        assert_eq!(fabric_health_problems(0), (Vec::new(), false));
        let healthy = 2 | 2 << 2 | 2 << 4 | 2 << 6 | 1 << 8;
        assert_eq!(fabric_health_problems(healthy), (Vec::new(), false));
        // Degraded bandwidth alone slows jobs: not severe.
        let (p, severe) = fabric_health_problems(healthy & !0x3 | 1);
        assert_eq!(p, ["its NVSwitch fabric bandwidth is degraded"]);
        assert!(!severe);
        // An unhealthy route, or a configuration fault, is.
        let (p, severe) = fabric_health_problems(healthy & !(0x3 << 4) | 1 << 4);
        assert_eq!(p, ["a fabric route is unhealthy"]);
        assert!(severe);
        let (p, severe) = fabric_health_problems(healthy & !(0xf << 8) | 4 << 8);
        assert_eq!(p, ["the fabric reports no fabric partition"]);
        assert!(severe);
        // Recoveries under way, each named.
        let (p, _) = fabric_health_problems(1 << 2 | 1 << 6);
        assert_eq!(p.len(), 2, "{p:?}");
    }

    #[test]
    fn fabric_states_have_nvml_names() {
        assert_eq!(fabric_state_name(0), "not_supported");
        assert_eq!(fabric_state_name(1), "not_started");
        assert_eq!(fabric_state_name(2), "in_progress");
        assert_eq!(fabric_state_name(3), "completed");
        assert_eq!(fabric_state_name(9), "unknown_9");
    }

    #[test]
    fn a_machine_without_systemd_or_pid_file_cannot_tell() {
        let dir = tempfile::tempdir().unwrap();
        let host = Host::fixture(dir.path(), &[("PATH", "/usr/bin")]);
        let fm = gather_fabric_manager(&host);
        assert!(matches!(fm, Fact::Missing { .. }), "{fm:?}");
        assert!(fm.reason().unwrap().contains("no systemctl"), "{fm:?}");
    }

    #[test]
    fn the_pid_file_decides_without_systemd() {
        let dir = tempfile::tempdir().unwrap();
        let run = dir.path().join("var/run/nvidia-fabricmanager");
        std::fs::create_dir_all(&run).unwrap();
        std::fs::write(run.join("nv-fabricmanager.pid"), "4242\n").unwrap();
        let host = Host::fixture(dir.path(), &[("PATH", "/usr/bin")]);
        let fm = gather_fabric_manager(&host);
        assert_eq!(fm.value().map(|f| f.running), Some(false), "{fm:?}");
        std::fs::create_dir_all(dir.path().join("proc/4242")).unwrap();
        let fm = gather_fabric_manager(&host);
        assert_eq!(fm.value().map(|f| f.running), Some(true), "{fm:?}");
    }

    #[test]
    fn systemctl_answers_first() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("usr/bin");
        std::fs::create_dir_all(&bin).unwrap();
        let script = bin.join("systemctl");
        std::fs::write(&script, "#!/bin/sh\necho inactive\nexit 3\n").unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let host = Host::fixture(dir.path(), &[("PATH", "/usr/bin")]);
        let fm = gather_fabric_manager(&host);
        let fm = fm.value().unwrap();
        assert!(!fm.running);
        assert!(fm.how.contains("inactive"), "{fm:?}");
    }
}
