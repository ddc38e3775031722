//! Builds fake machine roots (`/proc`, `/sys`, `/dev`, library folders) for end-to-end
//! tests; the binary reads them through the hidden `GPU_DOCTOR_ROOT` variable.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

pub struct FixtureRoot {
    pub dir: tempfile::TempDir,
}

pub const LIBDIR: &str = "usr/lib/x86_64-linux-gnu";

impl FixtureRoot {
    /// An Ubuntu 22.04 machine with nothing NVIDIA on it.
    pub fn ubuntu() -> Self {
        let root = FixtureRoot {
            dir: tempfile::tempdir().expect("tempdir"),
        };
        root.file(
            "etc/os-release",
            "PRETTY_NAME=\"Ubuntu 22.04.4 LTS\"\nNAME=\"Ubuntu\"\nVERSION_ID=\"22.04\"\nID=ubuntu\nID_LIKE=debian\n",
        );
        root.file("proc/sys/kernel/osrelease", "5.15.0-105-generic\n");
        root.file("proc/sys/kernel/hostname", "fixture-node\n");
        root.file("proc/modules", "ext4 1060864 1 - Live 0x0000000000000000\n");
        root.file(
            "proc/self/mounts",
            "tmpfs /dev/shm tmpfs rw,nosuid,nodev,size=16777216k,inode64 0 0\n",
        );
        root.file(
            "proc/mounts",
            "tmpfs /dev/shm tmpfs rw,nosuid,nodev,size=16777216k,inode64 0 0\n",
        );
        std::fs::create_dir_all(root.path("dev")).expect("mkdir");
        // A readable kernel log with nothing from the NVIDIA driver in it.
        root.file(
            "dev/kmsg",
            "6,1,0,-;Linux version 5.15.0-105-generic (buildd@lcy02-amd64-007)\n",
        );
        root.file("proc/uptime", "3600.00 7000.00\n");
        // A non-NVIDIA device (Intel host bridge) on the bus.
        root.pci("0000:00:00.0", "0x8086", "0x1237", "0x060000", None);
        root
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    pub fn file(&self, rel: &str, contents: &str) -> &Self {
        let p = self.path(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(&p, contents).expect("write");
        self
    }

    pub fn symlink(&self, rel: &str, target: &str) -> &Self {
        let p = self.path(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::os::unix::fs::symlink(target, &p).expect("symlink");
        self
    }

    pub fn pci(
        &self,
        bus: &str,
        vendor: &str,
        device: &str,
        class: &str,
        driver: Option<&str>,
    ) -> &Self {
        let d = format!("sys/bus/pci/devices/{bus}");
        self.file(&format!("{d}/vendor"), &format!("{vendor}\n"));
        self.file(&format!("{d}/device"), &format!("{device}\n"));
        self.file(&format!("{d}/class"), &format!("{class}\n"));
        self.file(&format!("{d}/subsystem_vendor"), "0x10de\n");
        self.file(&format!("{d}/subsystem_device"), "0x1626\n");
        if let Some(drv) = driver {
            std::fs::create_dir_all(self.path(&format!("sys/bus/pci/drivers/{drv}")))
                .expect("mkdir");
            self.symlink(
                &format!("{d}/driver"),
                &format!("../../../../bus/pci/drivers/{drv}"),
            );
        }
        self
    }

    /// An RTX 4090 (10de:2684) at 0000:01:00.0.
    pub fn gpu(&self, driver: Option<&str>) -> &Self {
        self.pci("0000:01:00.0", "0x10de", "0x2684", "0x030000", driver)
    }

    pub fn kernel_module(&self, version: &str) -> &Self {
        self.file(
            "proc/driver/nvidia/version",
            &format!(
                "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  {version}  Release Build  (dvs-builder@U16-I3-B03-4-3)  Tue Mar  5 19:33:48 UTC 2024\nGCC version:  gcc version 12.3.0 (Ubuntu 12.3.0-1ubuntu1~22.04)\n"
            ),
        );
        self.modules(&["nvidia_uvm", "nvidia_drm", "nvidia_modeset", "nvidia"])
    }

    pub fn modules(&self, names: &[&str]) -> &Self {
        let mut text = String::from("ext4 1060864 1 - Live 0x0000000000000000\n");
        for n in names {
            text.push_str(&format!("{n} 1527808 0 - Live 0x0000000000000000 (POE)\n"));
        }
        self.file("proc/modules", &text)
    }

    /// libnvidia-ml and libcuda of `version`, with their .so.1 links, in the multiarch folder.
    pub fn user_space(&self, version: &str) -> &Self {
        for lib in ["libnvidia-ml", "libcuda"] {
            self.file(&format!("{LIBDIR}/{lib}.so.{version}"), "");
            self.symlink(
                &format!("{LIBDIR}/{lib}.so.1"),
                &format!("{lib}.so.{version}"),
            );
        }
        self
    }

    pub fn device_nodes(&self, gpus: usize) -> &Self {
        let mut nodes = vec!["dev/nvidiactl".to_string(), "dev/nvidia-uvm".to_string()];
        nodes.extend((0..gpus).map(|i| format!("dev/nvidia{i}")));
        for n in nodes {
            self.file(&n, "");
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(self.path(&n), std::fs::Permissions::from_mode(0o666))
                .expect("chmod");
        }
        self
    }

    pub fn docker(&self) -> &Self {
        self.file(".dockerenv", "")
    }

    /// An empty root with only the parts every Linux has; the shape builders in
    /// `shapes.rs` add the rest.
    pub fn bare() -> Self {
        let root = FixtureRoot {
            dir: tempfile::tempdir().expect("tempdir"),
        };
        std::fs::create_dir_all(root.path("dev")).expect("mkdir");
        root.file(
            "proc/self/mounts",
            "tmpfs /dev/shm tmpfs rw,nosuid,nodev,size=16777216k,inode64 0 0\n",
        );
        root.file(
            "proc/mounts",
            "tmpfs /dev/shm tmpfs rw,nosuid,nodev,size=16777216k,inode64 0 0\n",
        );
        root
    }

    pub fn os_release(&self, text: &str) -> &Self {
        self.file("etc/os-release", text)
    }

    pub fn kernel(&self, release: &str) -> &Self {
        self.file("proc/sys/kernel/osrelease", &format!("{release}\n"))
    }

    /// /proc/driver/nvidia/version as the given module writes it ("Open Kernel Module for
    /// x86_64", "Kernel Module for aarch64", ...), and the modules in /proc/modules.
    pub fn module_line(&self, flavor_and_arch: &str, version: &str) -> &Self {
        self.file(
            "proc/driver/nvidia/version",
            &format!(
                "NVRM version: NVIDIA UNIX {flavor_and_arch}  {version}  Release Build  (dvs-builder@U16-I3-B03-4-3)  Tue Mar  5 19:33:48 UTC 2024\nGCC version:  gcc version 12.3.0 (GCC)\n"
            ),
        );
        self.modules(&["nvidia_uvm", "nvidia_drm", "nvidia_modeset", "nvidia"])
    }

    /// Versioned driver libraries with their soname links in `dir` (relative to the root).
    pub fn libs_in(&self, dir: &str, version: &str) -> &Self {
        for lib in ["libnvidia-ml", "libcuda"] {
            self.file(&format!("{dir}/{lib}.so.{version}"), "");
            self.symlink(&format!("{dir}/{lib}.so.1"), &format!("{lib}.so.{version}"));
        }
        self
    }

    /// Device nodes by name ("nvidiactl", "nvidia3", "dxg", "nvhost-ctrl-gpu").
    pub fn nodes(&self, names: &[&str]) -> &Self {
        use std::os::unix::fs::PermissionsExt;
        for n in names {
            let rel = format!("dev/{n}");
            self.file(&rel, "");
            std::fs::set_permissions(self.path(&rel), std::fs::Permissions::from_mode(0o666))
                .expect("chmod");
        }
        self
    }

    /// The real binary pointed at this root, with a clean, known environment.
    pub fn command(&self) -> Command {
        let mut cmd = Command::cargo_bin("gpu-doctor").expect("binary");
        cmd.env_clear()
            .env("GPU_DOCTOR_ROOT", self.root())
            .env(
                "PATH",
                "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            )
            .env("HOME", "/root");
        cmd
    }
}

/// Runs the command and returns (exit code, parsed JSON report).
pub fn json_report(cmd: &mut Command) -> (i32, serde_json::Value) {
    let out = cmd.arg("--json").output().expect("run");
    let code = out.status.code().expect("exit code");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (code, json)
}

/// (id, severity) of every finding that is not a pass.
pub fn problems(report: &serde_json::Value) -> Vec<(String, String)> {
    report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["severity"] != "pass")
        .map(|f| {
            (
                f["id"].as_str().unwrap_or("").to_string(),
                f["severity"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

/// A JSON finding's failure id: its `id` (problems, and every finding of a schema 1
/// report), else its check's id from the catalogue (a schema 2 pass names only its check).
pub fn failure_id(f: &serde_json::Value) -> String {
    match f["id"].as_str() {
        Some(id) => id.to_string(),
        None => {
            let name = f["check"].as_str().unwrap_or("");
            gpu_doctor::checks::catalogue::by_name(name)
                .map_or(name.to_string(), |c| c.id.to_string())
        }
    }
}

/// The finding of a failure id: a problem carries the id, a pass (schema 2) only its
/// check's neutral name.
pub fn finding<'a>(report: &'a serde_json::Value, id: &str) -> &'a serde_json::Value {
    let name = gpu_doctor::checks::catalogue::by_id(id).map(|c| c.name);
    report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .find(|f| f["id"] == id || (f["id"].is_null() && name.is_some_and(|n| f["check"] == n)))
        .unwrap_or_else(|| panic!("no finding {id} in {:#}", report["findings"]))
}
