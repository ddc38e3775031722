//! The operating system, kernel, CPU, host name, container/WSL, and /dev/shm.
//! OWNER: helper "system" (stub until filled in).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::fact::Fact;
use crate::host::Host;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SystemFacts {
    /// `PRETTY_NAME` of /etc/os-release, e.g. "Ubuntu 22.04.4 LTS".
    pub os: Fact<String>,
    /// os-release `ID`, e.g. "ubuntu", used to pick install commands.
    pub os_id: Fact<String>,
    /// os-release `VERSION_ID`, e.g. "22.04".
    pub os_version: Fact<String>,
    /// Kernel release (`uname -r`), from /proc/sys/kernel/osrelease.
    pub kernel: Fact<String>,
    /// CPU architecture, e.g. "x86_64".
    pub arch: String,
    /// Host name; "redacted" under `--redact`.
    pub hostname: Fact<String>,
    /// Container runtime if inside one: "docker", "podman", "kubernetes", "containerd", "lxc", ...
    pub container: Fact<Option<String>>,
    /// True under WSL (1 or 2).
    pub wsl: bool,
    /// Size of the tmpfs at /dev/shm.
    pub shm_bytes: Fact<u64>,
}

pub fn gather(_host: &Host) -> SystemFacts {
    SystemFacts {
        os: Fact::missing("not gathered"),
        os_id: Fact::missing("not gathered"),
        os_version: Fact::missing("not gathered"),
        kernel: Fact::missing("not gathered"),
        arch: std::env::consts::ARCH.to_string(),
        hostname: Fact::missing("not gathered"),
        container: Fact::missing("not gathered"),
        wsl: false,
        shm_bytes: Fact::missing("not gathered"),
    }
}
