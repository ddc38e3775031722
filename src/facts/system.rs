//! The operating system, kernel, CPU, host name, container/WSL, and /dev/shm.
//!
//! Everything here comes from small files under /proc, /etc and /run: no command is
//! run, because this is gathered on every report and must take well under a millisecond.

use std::collections::BTreeMap;

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
    /// The machine's identity, never the id itself: SHA-256 of /etc/machine-id (with a
    /// gpu-doctor prefix), 32 hex digits; "redacted" under `--redact`. Absent in schema 1.
    #[serde(default)]
    pub machine_id_hash: Fact<String>,
    /// This boot's id (/proc/sys/kernel/random/boot_id): tells a reboot apart from a
    /// restart of the report; "redacted" under `--redact`. Absent in schema 1.
    #[serde(default)]
    pub boot_id: Fact<String>,
}

impl SystemFacts {
    /// `--redact`: the host's identity (name, machine id hash, boot id) is replaced.
    pub fn redact(&mut self) {
        for f in [
            &mut self.hostname,
            &mut self.machine_id_hash,
            &mut self.boot_id,
        ] {
            if f.is_known() {
                *f = Fact::known(super::REDACTED.to_string());
            }
        }
    }
}

pub fn gather(host: &Host) -> SystemFacts {
    let (os, os_id, os_version) = os_release_facts(host);
    let kernel = kernel_release(host);
    let wsl = detect_wsl(host, kernel.value().map(String::as_str));
    SystemFacts {
        os,
        os_id,
        os_version,
        kernel,
        arch: std::env::consts::ARCH.to_string(),
        hostname: hostname(host),
        container: detect_container(host),
        wsl,
        shm_bytes: shm_bytes(host),
        machine_id_hash: machine_id_hash(host),
        boot_id: boot_id(host),
    }
}

/// SHA-256 of the machine id, so reports can be told apart by machine without the id
/// (which systemd asks not to expose) leaving it.
fn machine_id_hash(host: &Host) -> Fact<String> {
    let mut errors = Vec::new();
    for path in ["/etc/machine-id", "/var/lib/dbus/machine-id"] {
        match host.read_string(path) {
            Ok(text) => {
                let id = text.trim();
                if id.len() == 32 && id.chars().all(|c| c.is_ascii_hexdigit()) {
                    let digest = crate::host::sha256_hex(format!("gpu-doctor:{id}").as_bytes());
                    return Fact::known(digest[..32].to_string());
                }
                errors.push(format!("{path} is not a machine id"));
            }
            Err(e) => errors.push(format!("{path}: {e}")),
        }
    }
    Fact::missing(format!("no machine id ({})", errors.join("; ")))
}

fn boot_id(host: &Host) -> Fact<String> {
    let path = "/proc/sys/kernel/random/boot_id";
    match host.read_string(path) {
        Ok(text) => {
            let id = text.trim();
            if !id.is_empty()
                && id.len() <= 64
                && id.chars().all(|c| c.is_ascii_hexdigit() || c == '-')
            {
                Fact::known(id.to_ascii_lowercase())
            } else {
                Fact::missing(format!("{path} is not a boot id"))
            }
        }
        Err(e) => Fact::missing(format!("{path}: {e}")),
    }
}

// ---------------------------------------------------------------------------------------
// os-release

/// systemd's os-release(5): /etc/os-release wins, /usr/lib/os-release is the vendor copy
/// that /etc/os-release is often only a link to.
const OS_RELEASE_PATHS: &[&str] = &["/etc/os-release", "/usr/lib/os-release"];

fn os_release_facts(host: &Host) -> (Fact<String>, Fact<String>, Fact<String>) {
    let mut errors = Vec::new();
    for path in OS_RELEASE_PATHS {
        match host.read_string(path) {
            Ok(text) => {
                let fields = parse_os_release(&text);
                let pretty = fields.get("PRETTY_NAME").cloned().or_else(|| {
                    // PRETTY_NAME is optional; NAME + VERSION is what it would have said.
                    let name = fields.get("NAME")?;
                    Some(match fields.get("VERSION") {
                        Some(v) => format!("{name} {v}"),
                        None => name.clone(),
                    })
                });
                let field = |value: Option<String>, key: &str| match value {
                    Some(v) if !v.is_empty() => Fact::known(v),
                    _ => Fact::missing(format!("{path} has no {key}")),
                };
                return (
                    field(pretty, "PRETTY_NAME or NAME"),
                    field(fields.get("ID").cloned(), "ID"),
                    field(fields.get("VERSION_ID").cloned(), "VERSION_ID"),
                );
            }
            Err(e) => errors.push(format!("{path}: {e}")),
        }
    }
    let why = format!("no os-release file ({})", errors.join("; "));
    (
        Fact::missing(why.clone()),
        Fact::missing(why.clone()),
        Fact::missing(why),
    )
}

/// Parses os-release(5): `KEY=value` lines, values optionally in shell quotes with
/// backslash escapes. Lines that are not assignments are ignored, as systemd does.
pub fn parse_os_release(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .filter_map(|line| {
            let line = line.trim();
            if line.starts_with('#') {
                return None;
            }
            let (key, value) = line.split_once('=')?;
            let valid_key =
                !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            valid_key.then(|| (key.to_string(), unquote_shell(value.trim())))
        })
        .collect()
}

/// Undoes the quoting os-release allows: `"..."` with `\"`, `\\`, `\$`, `` \` `` escapes,
/// `'...'` literally, or a bare word.
fn unquote_shell(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut quote: Option<char> = None;
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (Some('\''), c) => out.push(c),
            (_, '\\') => {
                if let Some(next) = chars.next() {
                    out.push(next);
                }
            }
            (_, c) => out.push(c),
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// kernel, host name

fn kernel_release(host: &Host) -> Fact<String> {
    match host.read_string("/proc/sys/kernel/osrelease") {
        Ok(text) => match text.trim() {
            "" => Fact::failed("/proc/sys/kernel/osrelease is empty"),
            release => Fact::known(release.to_string()),
        },
        Err(e) => Fact::missing(format!("cannot read /proc/sys/kernel/osrelease: {e}")),
    }
}

/// The kernel's UTS name first: /etc/hostname is only what the next boot will set, and
/// containers often leave it stale.
fn hostname(host: &Host) -> Fact<String> {
    let mut errors = Vec::new();
    for path in ["/proc/sys/kernel/hostname", "/etc/hostname"] {
        match host.read_string(path) {
            Ok(text) => {
                let name = text
                    .lines()
                    .map(str::trim)
                    // "(none)" is the kernel's default before anything set a name.
                    .find(|l| !l.is_empty() && !l.starts_with('#') && *l != "(none)");
                match name {
                    Some(name) => return Fact::known(name.to_string()),
                    None => errors.push(format!("{path} is empty")),
                }
            }
            Err(e) => errors.push(format!("{path}: {e}")),
        }
    }
    Fact::missing(format!("no host name ({})", errors.join("; ")))
}

// ---------------------------------------------------------------------------------------
// WSL

/// WSL1 kernels say "4.4.0-19041-Microsoft", WSL2 "5.15.167.4-microsoft-standard-WSL2";
/// /dev/dxg and /usr/lib/wsl/lib are how WSL2 passes the GPU in, so they count too.
fn detect_wsl(host: &Host, kernel: Option<&str>) -> bool {
    kernel.is_some_and(kernel_is_wsl)
        || host.exists("/dev/dxg")
        || host.exists("/usr/lib/wsl/lib")
        || host.var("WSL_DISTRO_NAME").is_some_and(|v| !v.is_empty())
}

pub fn kernel_is_wsl(release: &str) -> bool {
    let lower = release.to_ascii_lowercase();
    lower.contains("microsoft") || lower.contains("wsl")
}

// ---------------------------------------------------------------------------------------
// containers

/// Files whose text names the container runtime; /proc/1/environ would be the direct
/// source but is readable only by root.
const CGROUP_PATHS: &[&str] = &["/proc/1/cgroup", "/proc/self/cgroup"];

/// Order matters: Kubernetes runs pods on docker or containerd, and the orchestrator is
/// what the user needs to hear about; podman also writes no /.dockerenv, docker no
/// /run/.containerenv.
fn detect_container(host: &Host) -> Fact<Option<String>> {
    let known = |name: &str| Fact::known(Some(name.to_string()));
    let cgroups: Vec<String> = CGROUP_PATHS
        .iter()
        .filter_map(|p| host.read_string(p).ok())
        .collect();
    let mountinfo = host.read_string("/proc/self/mountinfo").ok();
    let env_container = host
        .var("container")
        .map(str::trim)
        .filter(|v| !v.is_empty());

    if host
        .var("KUBERNETES_SERVICE_HOST")
        .is_some_and(|v| !v.is_empty())
        || cgroups.iter().any(|c| c.contains("kubepods"))
        || mountinfo.as_deref().and_then(runtime_in_mountinfo) == Some("kubernetes")
    {
        return known("kubernetes");
    }
    // Marker files and $container say how the image was built; on a booted kernel's own
    // root they are leftovers (a container image run as a microVM), so only the cgroup
    // and mount evidence of a runtime counts there.
    let booted = mountinfo.as_deref().is_some_and(booted_root);
    if !booted {
        if host.exists("/run/.containerenv") || env_container == Some("podman") {
            return known("podman");
        }
        if host.exists("/.dockerenv") {
            return known("docker");
        }
    }
    if let Some(name) = cgroups.iter().find_map(|c| runtime_in_cgroup(c)) {
        return known(name);
    }
    if let Some(name) = mountinfo.as_deref().and_then(runtime_in_mountinfo) {
        return known(name);
    }
    if booted {
        return Fact::known(None);
    }
    if let Some(name) = env_container {
        return known(name);
    }
    if let Some(name) = host
        .read_string("/run/systemd/container")
        .ok()
        .and_then(|t| t.lines().next().map(|l| l.trim().to_string()))
        .filter(|t| !t.is_empty())
    {
        return known(&name);
    }
    if cgroups.is_empty() && mountinfo.is_none() {
        return Fact::missing(
            "no container marker found, and neither /proc/1/cgroup, /proc/self/cgroup \
             nor /proc/self/mountinfo is readable",
        );
    }
    Fact::known(None)
}

/// True when this mount namespace is a booted kernel's own: `/` is the whole of a disk
/// file system on a block device, and `/dev` is the kernel's devtmpfs. A container gets an
/// overlay (or a bind of a host folder) as `/` and a tmpfs as `/dev`; a Firecracker microVM
/// booted from a Docker image has ext4 on /dev/vda and devtmpfs while /.dockerenv and
/// /run/systemd/container ("docker") are still in the image (seen on a real H100 VM).
pub fn booted_root(mountinfo: &str) -> bool {
    let mut root_on_disk = false;
    let mut dev_is_devtmpfs = false;
    for line in mountinfo.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (Some(root), Some(target), Some(dash)) = (
            fields.get(3),
            fields.get(4),
            fields.iter().position(|f| *f == "-"),
        ) else {
            continue;
        };
        let (Some(fstype), Some(source)) = (fields.get(dash + 1), fields.get(dash + 2)) else {
            continue;
        };
        match *target {
            // The last mount on a path is the one in effect.
            "/" => {
                root_on_disk = *root == "/"
                    && source.starts_with("/dev/")
                    && !source.starts_with("/dev/mapper/docker")
                    && matches!(*fstype, "ext4" | "ext3" | "ext2" | "xfs" | "btrfs" | "f2fs")
            }
            "/dev" => dev_is_devtmpfs = *fstype == "devtmpfs" && *root == "/",
            _ => {}
        }
    }
    root_on_disk && dev_is_devtmpfs
}

/// Runtime named by a cgroup (v1) path such as `12:memory:/docker/<id>` or
/// `0::/system.slice/docker-<id>.scope`. Under cgroup v2 with a private namespace the
/// file only says `0::/`, hence the mountinfo fallback.
pub fn runtime_in_cgroup(text: &str) -> Option<&'static str> {
    text.lines()
        .filter_map(|line| line.splitn(3, ':').nth(2))
        .find_map(|path| {
            if path.contains("kubepods") {
                Some("kubernetes")
            } else if path.contains("/docker/") || path.contains("/docker-") {
                Some("docker")
            } else if path.contains("libpod") {
                Some("podman")
            } else if path.contains("/lxc/") || path.contains("lxc.payload") {
                Some("lxc")
            } else if path.contains("nspawn") {
                Some("systemd-nspawn")
            } else if path.contains("cri-containerd") || path.contains("nerdctl-") {
                // Not plain "containerd": a host shell may sit in containerd.service.
                Some("containerd")
            } else {
                None
            }
        })
}

/// Runtime named by the host paths behind a container's bind mounts of /etc/hostname,
/// /etc/hosts and /etc/resolv.conf, or by the layers of its root filesystem.
///
/// Only those mounts are looked at: a host running Docker, containerd or kubelet has
/// their per-container mounts (`/var/lib/docker/containers/<id>/mounts/shm`, pod volumes,
/// task root filesystems) in its own mount table too.
pub fn runtime_in_mountinfo(text: &str) -> Option<&'static str> {
    let mut seen: Vec<&'static str> = Vec::new();
    for line in text.lines() {
        // `36 35 98:0 <root> <mount point> <options> [optional...] - <fstype> <source> <super options>`
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (Some(root), Some(target)) = (fields.get(3), fields.get(4)) else {
            continue;
        };
        let evidence = match unescape_mount_path(target).as_str() {
            "/etc/hostname" | "/etc/hosts" | "/etc/resolv.conf" => (*root).to_string(),
            "/" => match fields.iter().position(|f| *f == "-") {
                Some(dash) => fields[dash + 1..].join(" "),
                None => continue,
            },
            _ => continue,
        };
        if let Some(runtime) = runtime_in_host_path(&evidence) {
            seen.push(runtime);
        }
    }
    // A pod's root is a containerd or docker overlay; its /etc/hosts says Kubernetes.
    ["kubernetes", "podman", "docker", "containerd"]
        .into_iter()
        .find(|r| seen.contains(r))
}

fn runtime_in_host_path(path: &str) -> Option<&'static str> {
    if path.contains("/kubelet/pods/") {
        Some("kubernetes")
    } else if path.contains("overlay-containers/") || path.contains("containers/storage/") {
        Some("podman")
    } else if path.contains("/docker/") || path.starts_with("/containers/") {
        // `/containers/<id>/hostname` when /var/lib/docker is a file system of its own.
        Some("docker")
    } else if path.contains("io.containerd") || path.contains("nerdctl") {
        Some("containerd")
    } else {
        None
    }
}

// ---------------------------------------------------------------------------------------
// /dev/shm

/// The mount table answers without touching the filesystem; Docker's default
/// `size=65536k` is the value that breaks PyTorch DataLoader workers.
fn shm_bytes(host: &Host) -> Fact<u64> {
    let mut mount_seen = false;
    for path in ["/proc/self/mounts", "/proc/mounts"] {
        let Ok(text) = host.read_string(path) else {
            continue;
        };
        match shm_mount_size(&text) {
            ShmMount::Size(bytes) => return Fact::known(bytes),
            ShmMount::BadSize(opt) => {
                return Fact::failed(format!("{path}: cannot read /dev/shm option {opt:?}"))
            }
            ShmMount::NoSize => mount_seen = true,
            ShmMount::NotMounted => {}
        }
        break;
    }
    statvfs_size(host, mount_seen)
}

fn statvfs_size(host: &Host, mount_seen: bool) -> Fact<u64> {
    let real = host.path("/dev/shm");
    match nix::sys::statvfs::statvfs(&real) {
        Ok(st) => {
            // The field types are u32 on 32-bit targets.
            #[allow(clippy::useless_conversion)]
            let bytes = u64::from(st.blocks()).saturating_mul(u64::from(st.fragment_size()));
            Fact::known(bytes)
        }
        Err(nix::errno::Errno::ENOENT) => Fact::missing(if mount_seen {
            "/dev/shm is in the mount table but cannot be found".to_string()
        } else {
            "no /dev/shm".to_string()
        }),
        Err(e) => Fact::failed(format!("statvfs /dev/shm: {e}")),
    }
}

#[derive(Debug, PartialEq, Eq)]
pub enum ShmMount {
    /// The last mount on /dev/shm has `size=`.
    Size(u64),
    /// A `size=` option that is not a size.
    BadSize(String),
    /// Mounted without `size=`: the kernel default (half of RAM) applies.
    NoSize,
    NotMounted,
}

/// Reads /proc/mounts lines (`shm /dev/shm tmpfs rw,nosuid,size=65536k 0 0`). The last
/// entry wins because a later mount hides the earlier one.
pub fn shm_mount_size(mounts: &str) -> ShmMount {
    let options = mounts
        .lines()
        .filter_map(|line| {
            let mut fields = line.split_whitespace();
            let _source = fields.next()?;
            let target = fields.next()?;
            let _fstype = fields.next()?;
            let options = fields.next()?;
            (unescape_mount_path(target) == "/dev/shm").then_some(options)
        })
        .next_back();
    let Some(options) = options else {
        return ShmMount::NotMounted;
    };
    match options.split(',').find_map(|o| o.strip_prefix("size=")) {
        Some(size) => match parse_tmpfs_size(size) {
            Some(bytes) => ShmMount::Size(bytes),
            None => ShmMount::BadSize(format!("size={size}")),
        },
        None => ShmMount::NoSize,
    }
}

/// /proc/mounts writes space, tab, newline and backslash in paths as octal escapes.
fn unescape_mount_path(field: &str) -> String {
    field
        .replace("\\040", " ")
        .replace("\\011", "\t")
        .replace("\\012", "\n")
        .replace("\\134", "\\")
}

/// tmpfs sizes: the kernel prints `size=<n>k`, fstab may say `64m`, `2g` or plain bytes.
pub fn parse_tmpfs_size(text: &str) -> Option<u64> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (digits, suffix) = text.split_at(split);
    let n: u64 = digits.parse().ok()?;
    let shift = match suffix {
        "" => 0,
        "k" | "K" => 10,
        "m" | "M" => 20,
        "g" | "G" => 30,
        "t" | "T" => 40,
        "p" | "P" => 50,
        "e" | "E" => 60,
        _ => return None,
    };
    n.checked_mul(1u64 << shift)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn write(root: &Path, path: &str, text: &str) {
        let p = root.join(path.trim_start_matches('/'));
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    // Real files: Ubuntu 22.04, Debian 12, RHEL 9, Alpine 3.19 (no PRETTY_NAME quoting),
    // Arch (no VERSION_ID).
    const UBUNTU: &str = r#"PRETTY_NAME="Ubuntu 22.04.4 LTS"
NAME="Ubuntu"
VERSION_ID="22.04"
VERSION="22.04.4 LTS (Jammy Jellyfish)"
VERSION_CODENAME=jammy
ID=ubuntu
ID_LIKE=debian
HOME_URL="https://www.ubuntu.com/"
"#;
    const DEBIAN: &str = r#"PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"
NAME="Debian GNU/Linux"
VERSION_ID="12"
VERSION="12 (bookworm)"
VERSION_CODENAME=bookworm
ID=debian
"#;
    const RHEL: &str = r#"NAME="Red Hat Enterprise Linux"
VERSION="9.3 (Plow)"
ID="rhel"
ID_LIKE="fedora"
VERSION_ID="9.3"
PLATFORM_ID="platform:el9"
PRETTY_NAME="Red Hat Enterprise Linux 9.3 (Plow)"
"#;
    const ALPINE: &str =
        "NAME=\"Alpine Linux\"\nID=alpine\nVERSION_ID=3.19.1\nPRETTY_NAME=\"Alpine Linux v3.19\"\n";
    const ARCH: &str =
        "NAME=\"Arch Linux\"\nPRETTY_NAME=\"Arch Linux\"\nID=arch\nBUILD_ID=rolling\n";

    #[test]
    fn os_release_samples() {
        let cases: &[(&str, &str, &str, Option<&str>)] = &[
            (UBUNTU, "Ubuntu 22.04.4 LTS", "ubuntu", Some("22.04")),
            (
                DEBIAN,
                "Debian GNU/Linux 12 (bookworm)",
                "debian",
                Some("12"),
            ),
            (
                RHEL,
                "Red Hat Enterprise Linux 9.3 (Plow)",
                "rhel",
                Some("9.3"),
            ),
            (ALPINE, "Alpine Linux v3.19", "alpine", Some("3.19.1")),
            (ARCH, "Arch Linux", "arch", None),
        ];
        for (text, pretty, id, version) in cases {
            let f = parse_os_release(text);
            assert_eq!(f.get("PRETTY_NAME").map(String::as_str), Some(*pretty));
            assert_eq!(f.get("ID").map(String::as_str), Some(*id));
            assert_eq!(f.get("VERSION_ID").map(String::as_str), *version);
        }
    }

    #[test]
    fn os_release_quoting_and_garbage() {
        let f = parse_os_release(
            "# comment\nA='single $quoted'\nB=\"with \\\"escape\\\" and \\\\\"\n\
             garbage line\n=novalue\nBAD KEY=x\nC=bare\n\u{0}\u{fffd}=x\nD=\"unterminated\n",
        );
        assert_eq!(f["A"], "single $quoted");
        assert_eq!(f["B"], "with \"escape\" and \\");
        assert_eq!(f["C"], "bare");
        assert_eq!(f["D"], "unterminated");
        assert_eq!(f.len(), 4);
    }

    #[test]
    fn os_release_falls_back_to_usr_lib_and_name() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "/usr/lib/os-release",
            "NAME=Fedora\nVERSION=\"40 (Server)\"\nID=fedora\n",
        );
        let host = Host::fixture(dir.path(), &[]);
        let (os, id, version) = os_release_facts(&host);
        assert_eq!(os.value().map(String::as_str), Some("Fedora 40 (Server)"));
        assert_eq!(id.value().map(String::as_str), Some("fedora"));
        assert!(version.reason().unwrap().contains("VERSION_ID"));

        let empty = tempfile::tempdir().unwrap();
        let (os, _, _) = os_release_facts(&Host::fixture(empty.path(), &[]));
        assert!(os.reason().unwrap().contains("no os-release file"));
    }

    #[test]
    fn wsl_kernels() {
        for (release, wsl) in [
            ("5.15.167.4-microsoft-standard-WSL2", true),
            ("4.4.0-19041-Microsoft", true),
            ("6.6.36.3-microsoft-standard-WSL2+", true),
            ("5.15.0-113-generic", false),
            ("6.8.0-1015-aws", false),
            ("", false),
        ] {
            assert_eq!(kernel_is_wsl(release), wsl, "{release}");
        }
    }

    #[test]
    fn wsl_from_dxg_or_kernel() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "/proc/sys/kernel/osrelease",
            "5.15.167.4-microsoft-standard-WSL2\n",
        );
        let f = gather(&Host::fixture(dir.path(), &[]));
        assert!(f.wsl);
        assert_eq!(
            f.kernel.value().map(String::as_str),
            Some("5.15.167.4-microsoft-standard-WSL2")
        );

        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "/dev/dxg", "");
        assert!(gather(&Host::fixture(dir.path(), &[])).wsl);

        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "/proc/sys/kernel/osrelease",
            "6.8.0-45-generic\n",
        );
        assert!(!gather(&Host::fixture(dir.path(), &[])).wsl);
    }

    #[test]
    fn kernel_and_hostname() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "/proc/sys/kernel/osrelease", "   \n");
        write(
            dir.path(),
            "/etc/hostname",
            "# set by installer\ngpu-node-07\n",
        );
        let f = gather(&Host::fixture(dir.path(), &[]));
        assert!(matches!(f.kernel, Fact::Failed { .. }));
        assert_eq!(f.hostname.value().map(String::as_str), Some("gpu-node-07"));

        write(dir.path(), "/proc/sys/kernel/hostname", "(none)\n");
        let f = gather(&Host::fixture(dir.path(), &[]));
        assert_eq!(f.hostname.value().map(String::as_str), Some("gpu-node-07"));

        write(dir.path(), "/proc/sys/kernel/hostname", "a100-box\n");
        let f = gather(&Host::fixture(dir.path(), &[]));
        assert_eq!(f.hostname.value().map(String::as_str), Some("a100-box"));

        let empty = tempfile::tempdir().unwrap();
        let f = gather(&Host::fixture(empty.path(), &[]));
        assert!(f.kernel.reason().unwrap().contains("osrelease"));
        assert!(f.hostname.reason().unwrap().contains("no host name"));
    }

    #[test]
    fn cgroup_lines() {
        let cases: &[(&str, Option<&str>)] = &[
            // cgroup v1 under Docker
            ("12:memory:/docker/3f4e0c5b8a1d\n11:cpu,cpuacct:/docker/3f4e0c5b8a1d\n", Some("docker")),
            // systemd cgroup driver
            ("0::/system.slice/docker-3f4e0c5b8a1d.scope\n", Some("docker")),
            // Kubernetes with the systemd driver
            (
                "0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1a2b.slice/cri-containerd-9f8e.scope\n",
                Some("kubernetes"),
            ),
            ("11:devices:/kubepods/besteffort/pod1a2b/9f8e\n", Some("kubernetes")),
            ("0::/machine.slice/libpod-5c7e.scope/container\n", Some("podman")),
            ("10:memory:/lxc/web01\n", Some("lxc")),
            ("0::/lxc.payload.web01/init.scope\n", Some("lxc")),
            ("0::/machine.slice/systemd-nspawn@debian.service/payload\n", Some("systemd-nspawn")),
            ("0::/system.slice/nerdctl-7a1b.scope\n", Some("containerd")),
            ("0::/system.slice/containerd.service\n", None),
            // Host or private cgroup namespace: nothing to learn
            ("0::/\n", None),
            ("0::/user.slice/user-1000.slice/session-2.scope\n", None),
            ("garbage\n\u{fffd}\u{0}", None),
            ("", None),
        ];
        for (text, want) in cases {
            assert_eq!(runtime_in_cgroup(text), *want, "{text}");
        }
    }

    #[test]
    fn mountinfo_lines() {
        let docker_root = "790 700 0:52 / / rw,relatime master:400 - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/ABC:/var/lib/docker/overlay2/l/DEF,upperdir=/var/lib/docker/overlay2/9f/diff,workdir=/var/lib/docker/overlay2/9f/work\n";
        let docker = "812 790 259:2 /var/lib/docker/containers/3f4e/hostname /etc/hostname rw,relatime - ext4 /dev/nvme0n1p2 rw\n";
        let docker_own_fs = "812 790 259:3 /containers/3f4e/resolv.conf /etc/resolv.conf rw,relatime - xfs /dev/sdb1 rw\n";
        let podman = "601 590 0:45 /home/u/.local/share/containers/storage/overlay-containers/5c7e/userdata/hostname /etc/hostname rw - tmpfs tmpfs rw\n";
        let pod_root = "1380 1200 0:310 / / rw,relatime - overlay overlay rw,lowerdir=/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots/41/fs\n";
        let k8s = "1402 1380 259:1 /var/lib/kubelet/pods/1a2b-3c4d/etc-hosts /etc/hosts rw,relatime - ext4 /dev/root rw\n";
        let host = "22 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw\n";
        // What a Docker/kubelet host has in its own table: not a container.
        let busy_host = format!(
            "{host}512 22 0:60 / /var/lib/docker/containers/3f4e/mounts/shm rw - tmpfs shm rw,size=65536k\n\
             613 22 0:61 / /var/lib/kubelet/pods/1a2b-3c4d/volumes/kubernetes.io~projected/kube-api-access-x rw - tmpfs tmpfs rw\n\
             700 29 0:62 / /run/containerd/io.containerd.runtime.v2.task/k8s.io/9f8e/rootfs rw - overlay overlay rw,lowerdir=/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots/1/fs\n"
        );
        let cases: &[(String, Option<&str>)] = &[
            (format!("{docker_root}{docker}"), Some("docker")),
            (docker_root.to_string(), Some("docker")),
            (docker_own_fs.to_string(), Some("docker")),
            (podman.to_string(), Some("podman")),
            (pod_root.to_string(), Some("containerd")),
            (format!("{pod_root}{k8s}"), Some("kubernetes")),
            (host.to_string(), None),
            (busy_host, None),
            ("garbage\n1 2 3\n\u{fffd} / / -\n".to_string(), None),
        ];
        for (text, want) in cases {
            assert_eq!(runtime_in_mountinfo(text), *want, "{text}");
        }
    }

    fn container_of(files: &[(&str, &str)], env: &[(&str, &str)]) -> Fact<Option<String>> {
        let dir = tempfile::tempdir().unwrap();
        for (p, t) in files {
            write(dir.path(), p, t);
        }
        detect_container(&Host::fixture(dir.path(), env))
    }

    #[test]
    fn container_detection() {
        let bare_host = [
            ("/proc/1/cgroup", "0::/init.scope\n"),
            (
                "/proc/self/mountinfo",
                "22 1 259:2 / / rw - ext4 /dev/sda1 rw\n",
            ),
        ];
        let name = |f: Fact<Option<String>>| f.value().cloned().flatten();
        assert_eq!(name(container_of(&bare_host, &[])), None);
        assert!(container_of(&bare_host, &[]).is_known());

        let mut docker = bare_host.to_vec();
        docker.push(("/.dockerenv", ""));
        assert_eq!(name(container_of(&docker, &[])).as_deref(), Some("docker"));

        let mut podman = bare_host.to_vec();
        podman.push(("/run/.containerenv", "engine=\"podman-4.9.3\"\n"));
        assert_eq!(name(container_of(&podman, &[])).as_deref(), Some("podman"));
        assert_eq!(
            name(container_of(&bare_host, &[("container", "podman")])).as_deref(),
            Some("podman")
        );

        // A pod on docker is reported as Kubernetes.
        assert_eq!(
            name(container_of(
                &docker,
                &[("KUBERNETES_SERVICE_HOST", "10.96.0.1")]
            ))
            .as_deref(),
            Some("kubernetes")
        );

        let lxc = [
            ("/proc/1/cgroup", "0::/\n"),
            ("/run/systemd/container", "lxc\n"),
        ];
        assert_eq!(name(container_of(&lxc, &[])).as_deref(), Some("lxc"));
        assert_eq!(
            name(container_of(&bare_host, &[("container", "systemd-nspawn")])).as_deref(),
            Some("systemd-nspawn")
        );
        let ctrd = [("/proc/1/cgroup", "0::/system.slice/nerdctl-7a1b.scope\n")];
        assert_eq!(
            name(container_of(&ctrd, &[])).as_deref(),
            Some("containerd")
        );

        // A host running kubelet and docker is not itself in a container.
        let busy_host = [
            ("/proc/1/cgroup", "0::/init.scope\n"),
            (
                "/proc/self/mountinfo",
                "22 1 259:2 / / rw - ext4 /dev/sda1 rw\n\
                 613 22 0:61 / /var/lib/kubelet/pods/1a2b/volumes/kubernetes.io~projected/x rw - tmpfs tmpfs rw\n\
                 512 22 0:60 / /var/lib/docker/containers/3f4e/mounts/shm rw - tmpfs shm rw\n",
            ),
        ];
        assert_eq!(container_of(&busy_host, &[]), Fact::known(None));

        // A microVM booted from a Docker image (mount table as read on a real H100 VM):
        // the image's /.dockerenv and /run/systemd/container stay, the kernel is its own.
        let microvm_mounts = "22 27 0:21 / /proc rw,relatime - proc proc rw\n\
             24 27 0:6 / /dev rw,relatime - devtmpfs devtmpfs rw,size=65984560k,mode=755\n\
             25 24 0:23 / /dev/shm rw,relatime - tmpfs tmpfs rw,size=131981020k\n\
             27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard\n\
             29 27 254:16 / /usr/local/nvidia ro,nosuid,nodev,relatime - squashfs /dev/vdb ro\n\
             32 23 0:28 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime - cgroup2 cgroup2 rw\n";
        let microvm = [
            ("/proc/1/cgroup", "0::/process_api/core\n"),
            ("/proc/self/mountinfo", microvm_mounts),
            ("/.dockerenv", ""),
            ("/run/systemd/container", "docker\n"),
        ];
        assert_eq!(container_of(&microvm, &[]), Fact::known(None));
        // The same markers under a container's overlay root and tmpfs /dev are a container.
        let docker_mounts = "600 500 0:120 / / rw,relatime - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/A:/var/lib/docker/overlay2/l/B,upperdir=/var/lib/docker/overlay2/x/diff\n\
             601 600 0:123 / /dev rw,nosuid - tmpfs tmpfs rw,size=65536k,mode=755\n";
        let in_docker = [
            ("/proc/1/cgroup", "0::/\n"),
            ("/proc/self/mountinfo", docker_mounts),
            ("/.dockerenv", ""),
        ];
        assert_eq!(
            name(container_of(&in_docker, &[])).as_deref(),
            Some("docker")
        );
        // A privileged container given the host's /dev keeps its overlay root.
        let privileged = docker_mounts.replace("tmpfs tmpfs rw,size=65536k", "devtmpfs udev rw");
        let in_privileged = [
            ("/proc/self/mountinfo", privileged.as_str()),
            ("/.dockerenv", ""),
        ];
        assert_eq!(
            name(container_of(&in_privileged, &[])).as_deref(),
            Some("docker")
        );

        // Nothing readable at all: say so instead of claiming "no container".
        assert!(matches!(container_of(&[], &[]), Fact::Missing { .. }));
    }

    #[test]
    fn shm_from_mount_table() {
        let docker = "overlay / overlay rw,relatime,lowerdir=/var/lib/docker/overlay2/l/X 0 0\n\
                      proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0\n\
                      shm /dev/shm tmpfs rw,nosuid,nodev,noexec,relatime,size=65536k 0 0\n";
        assert_eq!(shm_mount_size(docker), ShmMount::Size(64 * 1024 * 1024));
        let host = "tmpfs /dev/shm tmpfs rw,nosuid,nodev,inode64 0 0\n";
        assert_eq!(shm_mount_size(host), ShmMount::NoSize);
        // `--shm-size=16g` remounted on top: the later mount wins.
        let stacked = format!("{docker}shm /dev/shm tmpfs rw,size=16777216k 0 0\n");
        assert_eq!(shm_mount_size(&stacked), ShmMount::Size(16 << 30));
        assert_eq!(
            shm_mount_size("proc /proc proc rw 0 0\n"),
            ShmMount::NotMounted
        );
        assert_eq!(
            shm_mount_size("shm /dev/shm tmpfs rw,size=lots 0 0\n"),
            ShmMount::BadSize("size=lots".into())
        );
        assert_eq!(
            shm_mount_size("\u{0}garbage\n/dev/shm\n"),
            ShmMount::NotMounted
        );
    }

    #[test]
    fn tmpfs_sizes() {
        for (text, want) in [
            ("65536k", Some(64 << 20)),
            ("64m", Some(64 << 20)),
            ("2G", Some(2 << 30)),
            ("1048576", Some(1 << 20)),
            ("50%", None),
            ("", None),
            ("k", None),
            ("99999999999999999999k", None),
            ("18014398509481984k", None), // overflows u64
        ] {
            assert_eq!(parse_tmpfs_size(text), want, "{text}");
        }
    }

    #[test]
    fn shm_fact_from_fixture() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "/proc/self/mounts",
            "shm /dev/shm tmpfs rw,nosuid,nodev,noexec,relatime,size=65536k 0 0\n",
        );
        assert_eq!(
            shm_bytes(&Host::fixture(dir.path(), &[])),
            Fact::known(64 << 20)
        );

        // No size= and no /dev/shm in the fixture: Missing with the reason.
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "/proc/mounts", "tmpfs /dev/shm tmpfs rw 0 0\n");
        let f = shm_bytes(&Host::fixture(dir.path(), &[]));
        assert!(f.reason().unwrap().contains("cannot be found"), "{f:?}");

        // No size=: statvfs of the directory answers.
        std::fs::create_dir_all(dir.path().join("dev/shm")).unwrap();
        let f = shm_bytes(&Host::fixture(dir.path(), &[]));
        assert!(f.value().is_some_and(|b| *b > 0), "{f:?}");
    }
}

/// Run with `cargo test --release --lib real_machine_timings -- --ignored --nocapture`
/// to see what the four file-based gatherers cost on the machine at hand.
#[cfg(test)]
mod timing {
    use crate::facts::{kernel_module, pci, system, toolkit};
    use crate::host::Host;
    use std::time::Instant;

    #[test]
    #[ignore = "reads the real machine; prints timings"]
    fn real_machine_timings() {
        let host = Host::from_env();
        for _ in 0..2 {
            let t = Instant::now();
            let s = system::gather(&host);
            let t_system = t.elapsed();
            let t = Instant::now();
            let p = pci::gather(&host);
            let t_pci = t.elapsed();
            let t = Instant::now();
            let k = kernel_module::gather(&host);
            let t_km = t.elapsed();
            let t = Instant::now();
            let tk = toolkit::gather(&host);
            let t_tk = t.elapsed();
            println!(
                "system {t_system:?}  pci {t_pci:?}  kernel_module {t_km:?}  toolkit {t_tk:?}"
            );
            println!("{s:?}\n{p:?}\n{k:?}\n{tk:?}");
        }
    }
}
