//! The NVIDIA kernel module, nouveau, nvidia_uvm, and the /dev/nvidia* nodes.
//! OWNER: helper "system" (stub until filled in).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::fact::Fact;
use crate::host::Host;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ModuleFlavor {
    /// "Open Kernel Module" in /proc/driver/nvidia/version.
    Open,
    Proprietary,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct KernelModuleFacts {
    /// Version from /proc/driver/nvidia/version, e.g. "550.54.15"; Missing when not loaded.
    pub version: Fact<String>,
    pub flavor: Fact<ModuleFlavor>,
    /// The whole first line of /proc/driver/nvidia/version.
    pub version_line: Fact<String>,
    /// Which of nvidia, nvidia_uvm, nvidia_drm, nvidia_modeset, nouveau are in /proc/modules.
    pub loaded: Fact<Vec<String>>,
    pub device_nodes: Fact<Vec<DeviceNode>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DeviceNode {
    /// e.g. "/dev/nvidiactl", "/dev/nvidia0", "/dev/nvidia-uvm".
    pub path: String,
    /// Whether the current user may open it for reading and writing (mode bits, owner, groups).
    pub accessible: bool,
    /// e.g. "crw-rw-rw- root:root", for evidence.
    pub mode: String,
}

impl KernelModuleFacts {
    pub fn is_loaded(&self, module: &str) -> bool {
        self.loaded
            .value()
            .is_some_and(|l| l.iter().any(|m| m == module))
    }
}

pub fn gather(_host: &Host) -> KernelModuleFacts {
    KernelModuleFacts {
        version: Fact::missing("not gathered"),
        flavor: Fact::missing("not gathered"),
        version_line: Fact::missing("not gathered"),
        loaded: Fact::missing("not gathered"),
        device_nodes: Fact::missing("not gathered"),
    }
}
