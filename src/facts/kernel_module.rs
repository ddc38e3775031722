//! The NVIDIA kernel module, nouveau, nvidia_uvm, and the /dev/nvidia* nodes.
//!
//! Read from /proc, /sys and `stat` only: opening /dev/nvidia* or asking the driver can
//! block for seconds on a wedged GPU, and this runs on every report.

use std::collections::BTreeMap;
use std::os::unix::fs::MetadataExt;

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
    /// Which of nvidia, nvidia_uvm, nvidia_drm, nvidia_modeset, nvidia_peermem, nouveau
    /// are in /proc/modules.
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

/// The modules whose presence or absence explains a GPU problem.
pub const WATCHED_MODULES: &[&str] = &[
    "nvidia",
    "nvidia_uvm",
    "nvidia_drm",
    "nvidia_modeset",
    "nvidia_peermem",
    "nouveau",
    // Jetson / DRIVE (L4T): the integrated GPU's driver; no "nvidia" module there.
    "nvgpu",
];

const PROC_VERSION: &str = "/proc/driver/nvidia/version";

pub fn gather(host: &Host) -> KernelModuleFacts {
    gather_as(host, &Identity::current())
}

/// `gather` for a given user: tests judge device nodes for users other than the one
/// running them (often root in CI).
pub fn gather_as(host: &Host, who: &Identity) -> KernelModuleFacts {
    let modules = host
        .read_string("/proc/modules")
        .map(|t| parse_proc_modules(&t));
    let loaded = match &modules {
        Ok(mods) => Fact::known(
            WATCHED_MODULES
                .iter()
                .filter(|w| mods.iter().any(|m| m.name == **w))
                .map(|w| (*w).to_string())
                .collect(),
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Fact::missing(
            "no /proc/modules: /proc is not mounted or the kernel has no loadable modules",
        ),
        Err(e) => Fact::failed(format!("cannot read /proc/modules: {e}")),
    };
    let nvidia_taints = modules.as_ref().ok().and_then(|mods| {
        mods.iter()
            .find(|m| m.name == "nvidia")
            .and_then(|m| m.taints.clone())
    });
    let (version, flavor, version_line) = version_facts(host, nvidia_taints.as_deref());
    KernelModuleFacts {
        version,
        flavor,
        version_line,
        loaded,
        device_nodes: device_nodes(host, who),
    }
}

// ---------------------------------------------------------------------------------------
// /proc/driver/nvidia/version

/// What the first line of /proc/driver/nvidia/version says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcVersion {
    pub version: String,
    pub flavor: ModuleFlavor,
    /// "x86_64", "aarch64", "ppc64le"; absent on old lines without one.
    pub arch: Option<String>,
}

/// Parses the `NVRM version:` line. Formats (fields separated by two spaces):
/// - proprietary: `NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.183.01  Sun May 12 19:39:15 UTC 2024`
/// - open:        `NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.15  Release Build  (dvs-builder@U16-I3-B03-4-3)  Tue Mar  5 19:33:48 UTC 2024`
pub fn parse_proc_version(text: &str) -> Result<ProcVersion, String> {
    let line = first_version_line(text).ok_or_else(|| "the file is empty".to_string())?;
    let (before, after) = line
        .split_once("Kernel Module")
        .ok_or_else(|| format!("no \"Kernel Module\" in {line:?}"))?;
    let before_words: Vec<&str> = before.split_whitespace().collect();
    let mut after_words = after.split_whitespace().peekable();
    let (flavor, arch) = if before_words.last() == Some(&"Open") {
        let arch = match after_words.peek() {
            Some(&"for") => {
                after_words.next();
                after_words.next().map(str::to_string)
            }
            _ => None,
        };
        (ModuleFlavor::Open, arch)
    } else {
        let arch = before_words
            .last()
            .filter(|w| !matches!(**w, "UNIX" | "NVIDIA" | "version:" | "Linux"))
            .map(|w| (*w).to_string());
        (ModuleFlavor::Proprietary, arch)
    };
    let version = after_words
        .next()
        .filter(|v| looks_like_driver_version(v))
        .ok_or_else(|| format!("no driver version after \"Kernel Module\" in {line:?}"))?;
    Ok(ProcVersion {
        version: version.to_string(),
        flavor,
        arch,
    })
}

fn first_version_line(text: &str) -> Option<&str> {
    text.lines()
        .map(str::trim)
        .find(|l| l.starts_with("NVRM version:"))
        .or_else(|| text.lines().map(str::trim).find(|l| !l.is_empty()))
}

/// "535.183.01", "470.256.02", "515.76", "580.95.05".
fn looks_like_driver_version(v: &str) -> bool {
    v.starts_with(|c: char| c.is_ascii_digit())
        && v.contains('.')
        && v.chars().all(|c| c.is_ascii_digit() || c == '.')
}

fn version_facts(
    host: &Host,
    nvidia_taints: Option<&str>,
) -> (Fact<String>, Fact<ModuleFlavor>, Fact<String>) {
    match host.read_string(PROC_VERSION) {
        Ok(text) => {
            let line = match first_version_line(&text) {
                Some(l) => Fact::known(l.to_string()),
                None => Fact::failed(format!("{PROC_VERSION} is empty")),
            };
            match parse_proc_version(&text) {
                Ok(p) => (Fact::known(p.version), Fact::known(p.flavor), line),
                Err(e) => {
                    let why = format!("cannot read the version in {PROC_VERSION}: {e}");
                    (Fact::failed(why.clone()), Fact::failed(why), line)
                }
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let why = format!("no {PROC_VERSION}: the nvidia kernel module is not loaded");
            // A loaded module whose /proc entry is hidden (some container setups) still
            // shows in sysfs and in /proc/modules.
            let version = match host.read_string("/sys/module/nvidia/version") {
                Ok(v) if looks_like_driver_version(v.trim()) => Fact::known(v.trim().to_string()),
                _ => Fact::missing(why.clone()),
            };
            let flavor = match nvidia_taints {
                Some(t) => Fact::known(flavor_from_taints(t)),
                None => Fact::missing(why.clone()),
            };
            (version, flavor, Fact::missing(why))
        }
        Err(e) => {
            let why = format!("cannot read {PROC_VERSION}: {e}");
            (
                Fact::failed(why.clone()),
                Fact::failed(why.clone()),
                Fact::failed(why),
            )
        }
    }
}

/// The proprietary module carries the `P` (proprietary licence) taint; the open one,
/// licensed "Dual MIT/GPL", only `O` (out of tree) and `E` (unsigned).
pub fn flavor_from_taints(taints: &str) -> ModuleFlavor {
    if taints.contains('P') {
        ModuleFlavor::Proprietary
    } else {
        ModuleFlavor::Open
    }
}

// ---------------------------------------------------------------------------------------
// /proc/modules

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadedModule {
    pub name: String,
    /// The `(POE)` field without parentheses, when the module taints the kernel.
    pub taints: Option<String>,
}

/// Parses /proc/modules: `nvidia 56717312 1131 nvidia_uvm,nvidia_modeset, Live 0x0000000000000000 (POE)`.
/// Lines without the fixed fields are skipped rather than trusted.
pub fn parse_proc_modules(text: &str) -> Vec<LoadedModule> {
    text.lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let name = *fields.first()?;
            let size_ok = fields.get(1).is_some_and(|s| s.parse::<u64>().is_ok());
            if !size_ok
                || !name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            {
                return None;
            }
            let taints = fields
                .last()
                .and_then(|f| f.strip_prefix('(')?.strip_suffix(')'))
                .map(str::to_string);
            Some(LoadedModule {
                name: name.to_string(),
                taints,
            })
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// device nodes

/// Who the process is, as the kernel checks it when opening a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    pub uid: u32,
    pub gid: u32,
    /// Supplementary groups of this process (not of the user: a group added since the
    /// login does not count yet, and that is exactly what users trip over).
    pub groups: Vec<u32>,
}

impl Identity {
    pub fn current() -> Identity {
        Identity {
            uid: nix::unistd::geteuid().as_raw(),
            gid: nix::unistd::getegid().as_raw(),
            groups: nix::unistd::getgroups()
                .map(|g| g.into_iter().map(|g| g.as_raw()).collect())
                .unwrap_or_default(),
        }
    }
}

/// The id the kernel shows for an owner not mapped into this user namespace.
pub const OVERFLOW_ID: u32 = 65534;

/// Whether `who` may open a file with these mode, owner and group for reading and
/// writing, by the classic owner/group/other rule. Root passes by CAP_DAC_OVERRIDE,
/// except for files whose owner is unmapped in its user namespace (rootless
/// containers), where the capability does not reach. Device-cgroup and LSM rules are not
/// visible here.
pub fn may_read_write(mode: u32, owner: u32, group: u32, who: &Identity) -> bool {
    if who.uid == 0 && owner != OVERFLOW_ID && group != OVERFLOW_ID {
        return true;
    }
    let bits = if who.uid == owner {
        mode >> 6
    } else if who.gid == group || who.groups.contains(&group) {
        mode >> 3
    } else {
        mode
    };
    bits & 0o6 == 0o6
}

/// `ls -l` style mode, e.g. "crw-rw-rw-".
pub fn mode_string(mode: u32) -> String {
    let kind = match mode & 0o170000 {
        0o020000 => 'c',
        0o060000 => 'b',
        0o040000 => 'd',
        0o120000 => 'l',
        0o010000 => 'p',
        0o140000 => 's',
        _ => '-',
    };
    let mut s = String::with_capacity(10);
    s.push(kind);
    for (shift, special, set_char) in [(6, 0o4000, 's'), (3, 0o2000, 's'), (0, 0o1000, 't')] {
        let bits = (mode >> shift) & 7;
        s.push(if bits & 4 != 0 { 'r' } else { '-' });
        s.push(if bits & 2 != 0 { 'w' } else { '-' });
        let x = bits & 1 != 0;
        s.push(match (mode & special != 0, x) {
            (true, true) => set_char,
            (true, false) => set_char.to_ascii_uppercase(),
            (false, true) => 'x',
            (false, false) => '-',
        });
    }
    s
}

/// Order in which the nodes are reported: control device first, then the GPUs by
/// number, then UVM and modeset.
fn node_rank(name: &str) -> Option<(u8, u64)> {
    match name {
        "nvidiactl" => Some((0, 0)),
        "nvidia-uvm" => Some((2, 0)),
        "nvidia-uvm-tools" => Some((3, 0)),
        "nvidia-modeset" => Some((4, 0)),
        _ => {
            let n = name.strip_prefix("nvidia")?;
            (!n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
                .then(|| n.parse::<u64>().ok().map(|n| (1, n)))
                .flatten()
        }
    }
}

fn device_nodes(host: &Host, who: &Identity) -> Fact<Vec<DeviceNode>> {
    if !host.exists("/dev") {
        return Fact::missing("no /dev");
    }
    let mut found: Vec<((u8, u64), String)> = host
        .read_dir("/dev")
        .iter()
        .filter_map(|p| {
            let name = p.file_name()?.to_str()?;
            Some((node_rank(name)?, name.to_string()))
        })
        .collect();
    found.sort();
    if found.is_empty() {
        return Fact::known(Vec::new());
    }
    let names = IdNames::load(host);
    let nodes = found
        .into_iter()
        .map(|(_, name)| {
            let path = format!("/dev/{name}");
            describe_node(host, &path, who, &names)
        })
        .collect();
    Fact::known(nodes)
}

/// `stat`, never `open`: a wedged driver can block an open for minutes.
fn describe_node(host: &Host, path: &str, who: &Identity, names: &IdNames) -> DeviceNode {
    match std::fs::metadata(host.path(path)) {
        Ok(meta) => DeviceNode {
            path: path.to_string(),
            accessible: may_read_write(meta.mode(), meta.uid(), meta.gid(), who),
            mode: format!(
                "{} {}:{}",
                mode_string(meta.mode()),
                names.user(meta.uid()),
                names.group(meta.gid())
            ),
        },
        Err(e) => DeviceNode {
            path: path.to_string(),
            accessible: false,
            mode: format!("cannot stat: {e}"),
        },
    }
}

/// uid/gid to name from /etc/passwd and /etc/group, read directly: NSS lookups
/// (LDAP, sssd) can hang, and a number is good enough evidence.
struct IdNames {
    users: BTreeMap<u32, String>,
    groups: BTreeMap<u32, String>,
}

impl IdNames {
    fn load(host: &Host) -> IdNames {
        let read = |p: &str| {
            host.read_string(p)
                .map(|t| parse_id_file(&t))
                .unwrap_or_default()
        };
        IdNames {
            users: read("/etc/passwd"),
            groups: read("/etc/group"),
        }
    }

    fn user(&self, uid: u32) -> String {
        self.users
            .get(&uid)
            .cloned()
            .unwrap_or_else(|| uid.to_string())
    }

    fn group(&self, gid: u32) -> String {
        self.groups
            .get(&gid)
            .cloned()
            .unwrap_or_else(|| gid.to_string())
    }
}

/// `name:x:id:...` lines of /etc/passwd and /etc/group; the id is the third field in both.
fn parse_id_file(text: &str) -> BTreeMap<u32, String> {
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let mut fields = line.split(':');
        let (Some(name), Some(_), Some(id)) = (fields.next(), fields.next(), fields.next()) else {
            continue;
        };
        if let Ok(id) = id.parse::<u32>() {
            out.entry(id).or_insert_with(|| name.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;
    use std::path::Path;

    fn write(root: &Path, path: &str, text: &str) {
        let p = root.join(path.trim_start_matches('/'));
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    #[test]
    fn proc_version_lines() {
        use ModuleFlavor::*;
        // First lines of real /proc/driver/nvidia/version files (and, for aarch64
        // proprietary and open, the same text from the NVRM load message in dmesg).
        let cases: &[(&str, &str, ModuleFlavor, Option<&str>)] = &[
            ("NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.183.01  Sun May 12 19:39:15 UTC 2024\nGCC version:  gcc version 12.3.0 (Ubuntu 12.3.0-1ubuntu1~22.04)\n",
             "535.183.01", Proprietary, Some("x86_64")),
            ("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.15  Release Build  (dvs-builder@U16-I3-B03-4-3)  Tue Mar  5 19:33:48 UTC 2024\n",
             "550.54.15", Open, Some("x86_64")),
            ("NVRM version: NVIDIA UNIX x86_64 Kernel Module  470.239.06  Sat Feb  3 06:03:07 UTC 2024\nGCC version:  gcc version 12.3.0 (Ubuntu 12.3.0-1ubuntu1~22.04) \n",
             "470.239.06", Proprietary, Some("x86_64")),
            ("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.95.05  Release Build  (dvs-builder@U22-I3-B17-02-5)  Tue Sep 23 09:55:41 UTC 2025\n",
             "580.95.05", Open, Some("x86_64")),
            ("NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  580.95.05  Release Build  (dvs-builder@U22-I3-AF08-06-3)  Tue Sep 23 09:46:53 UTC 2025\n",
             "580.95.05", Open, Some("aarch64")),
            ("NVRM version: NVIDIA UNIX aarch64 Kernel Module  535.161.07  Sat Feb 17 23:29:15 UTC 2024\n",
             "535.161.07", Proprietary, Some("aarch64")),
            ("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  525.60.11  Release Build  (archlinux-builder@localhost)  \nGCC version:  gcc version 12.2.0 (GCC) \n",
             "525.60.11", Open, Some("x86_64")),
            ("NVRM version: NVIDIA UNIX x86_64 Kernel Module  515.76  Mon Sep 12 19:21:56 UTC 2022\n",
             "515.76", Proprietary, Some("x86_64")),
            ("NVRM version: NVIDIA UNIX x86_64 Kernel Module  177.80  Wed Oct  1 14:43:46 PDT 2008\n",
             "177.80", Proprietary, Some("x86_64")),
        ];
        for (text, version, flavor, arch) in cases {
            let p = parse_proc_version(text).unwrap();
            assert_eq!(p.version, *version, "{text}");
            assert_eq!(p.flavor, *flavor, "{text}");
            assert_eq!(p.arch.as_deref(), *arch, "{text}");
        }
    }

    #[test]
    fn proc_version_garbage() {
        for text in [
            "",
            "\n\n",
            "garbage",
            "NVRM version: NVIDIA UNIX x86_64 Kernel Module",
            "NVRM version: NVIDIA UNIX x86_64 Kernel Module  Sun May 12 2024",
            "NVRM version: NVIDIA UNIX Open Kernel Module for",
            "\u{0}\u{fffd}Kernel Module \u{fffd}",
        ] {
            assert!(parse_proc_version(text).is_err(), "{text:?}");
        }
    }

    #[test]
    fn jetson_nvgpu_is_watched() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "/proc/modules",
            "nvgpu 2527232 20 - Live 0x0000000000000000\nnvmap 229376 80 nvgpu, Live 0x0000000000000000\n",
        );
        let facts = gather(&Host::fixture(dir.path(), &[]));
        assert!(facts.is_loaded("nvgpu"));
        assert!(!facts.is_loaded("nvidia"));
    }

    #[test]
    fn proc_modules_samples() {
        let text = "nvidia_uvm 1605632 0 - Live 0x0000000000000000 (POE)\n\
                    nvidia_drm 69632 0 - Live 0x0000000000000000 (POE)\n\
                    nvidia_modeset 1286144 1 nvidia_drm, Live 0x0000000000000000 (POE)\n\
                    nvidia 56623104 2 nvidia_uvm,nvidia_modeset, Live 0x0000000000000000 (POE)\n\
                    drm_kms_helper 311296 1 nvidia_drm, Live 0x0000000000000000\n\
                    garbage\n\
                    bad notanumber 0 - Live 0x0\n";
        let mods = parse_proc_modules(text);
        let names: Vec<&str> = mods.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "nvidia_uvm",
                "nvidia_drm",
                "nvidia_modeset",
                "nvidia",
                "drm_kms_helper"
            ]
        );
        assert_eq!(mods[3].taints.as_deref(), Some("POE"));
        assert_eq!(mods[4].taints, None);
        assert_eq!(flavor_from_taints("POE"), ModuleFlavor::Proprietary);
        assert_eq!(flavor_from_taints("OE"), ModuleFlavor::Open);
    }

    const NOBODY: Identity = Identity {
        uid: 1000,
        gid: 1000,
        groups: Vec::new(),
    };

    #[test]
    fn access_rule() {
        let video = Identity {
            uid: 1000,
            gid: 1000,
            groups: vec![27, 44],
        };
        let root = Identity {
            uid: 0,
            gid: 0,
            groups: vec![],
        };
        let cases: &[(u32, u32, u32, &Identity, bool)] = &[
            (0o020666, 0, 0, &NOBODY, true),     // the usual crw-rw-rw- root:root
            (0o020660, 0, 44, &NOBODY, false),   // crw-rw---- root:video, not in video
            (0o020660, 0, 44, &video, true),     // ... in video as a supplementary group
            (0o020600, 1000, 0, &NOBODY, true),  // owned by the user
            (0o020400, 1000, 0, &NOBODY, false), // owner may only read
            (0o020606, 1000, 44, &video, true),
            (0o020066, 1000, 0, &NOBODY, false), // owner bits win even if others may
            (0o020000, 0, 0, &root, true),       // root: CAP_DAC_OVERRIDE
            (0o020660, OVERFLOW_ID, OVERFLOW_ID, &root, false), // rootless container
            (0o020666, OVERFLOW_ID, OVERFLOW_ID, &root, true),
        ];
        for (mode, owner, group, who, want) in cases {
            assert_eq!(
                may_read_write(*mode, *owner, *group, who),
                *want,
                "{mode:o} {owner}:{group} {who:?}"
            );
        }
    }

    #[test]
    fn mode_strings() {
        for (mode, want) in [
            (0o020666, "crw-rw-rw-"),
            (0o020660, "crw-rw----"),
            (0o100644, "-rw-r--r--"),
            (0o040755, "drwxr-xr-x"),
            (0o104755, "-rwsr-xr-x"),
            (0o041777, "drwxrwxrwt"),
            (0o102644, "-rw-r-Sr--"),
        ] {
            assert_eq!(mode_string(mode), want, "{mode:o}");
        }
    }

    fn node(root: &Path, name: &str, mode: u32) {
        let p = root.join("dev").join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, "").unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
    }

    #[test]
    fn loaded_driver_fixture() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(root, PROC_VERSION, "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.15  Release Build  (dvs-builder@U16-I3-B03-4-3)  Tue Mar  5 19:33:48 UTC 2024\nGCC version:  gcc version 12.3.0 (Ubuntu 12.3.0-1ubuntu1~22.04)\n");
        write(root, "/proc/modules", "nvidia_uvm 1605632 0 - Live 0x0000000000000000 (OE)\nnvidia 56623104 2 nvidia_uvm, Live 0x0000000000000000 (OE)\nsnd 1 0 - Live 0x0\n");
        for (name, mode) in [
            ("nvidia10", 0o666),
            ("nvidia2", 0o666),
            ("nvidiactl", 0o666),
            ("nvidia-uvm", 0o666),
            ("nvidia-uvm-tools", 0o600),
            ("nvidia-modeset", 0o660),
            ("nvidia-caps", 0o755),
            ("nvidiafoo", 0o666),
            ("null", 0o666),
        ] {
            node(root, name, mode);
        }
        // Files in the fixture belong to whoever runs the test: judge as a stranger.
        let stranger = Identity {
            uid: 4242,
            gid: 4242,
            groups: vec![],
        };
        let f = gather_as(&Host::fixture(root, &[]), &stranger);
        assert_eq!(f.version.value().map(String::as_str), Some("550.54.15"));
        assert_eq!(f.flavor, Fact::known(ModuleFlavor::Open));
        assert!(f
            .version_line
            .value()
            .unwrap()
            .starts_with("NVRM version: NVIDIA UNIX Open"));
        assert_eq!(
            f.loaded,
            Fact::known(vec!["nvidia".into(), "nvidia_uvm".into()])
        );
        assert!(f.is_loaded("nvidia_uvm") && !f.is_loaded("nouveau"));
        let nodes = f.device_nodes.value().unwrap();
        let summary: Vec<(&str, bool)> = nodes
            .iter()
            .map(|n| (n.path.as_str(), n.accessible))
            .collect();
        assert_eq!(
            summary,
            [
                ("/dev/nvidiactl", true),
                ("/dev/nvidia2", true),
                ("/dev/nvidia10", true),
                ("/dev/nvidia-uvm", true),
                ("/dev/nvidia-uvm-tools", false),
                ("/dev/nvidia-modeset", false),
            ]
        );
        assert!(
            nodes[0].mode.starts_with("-rw-rw-rw- "),
            "{}",
            nodes[0].mode
        );
    }

    #[test]
    fn nouveau_and_no_nvidia() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(root, "/proc/modules", "nouveau 2351104 3 - Live 0x0000000000000000\nmxm_wmi 16384 1 nouveau, Live 0x0000000000000000\n");
        std::fs::create_dir_all(root.join("dev")).unwrap();
        let f = gather_as(&Host::fixture(root, &[]), &NOBODY);
        assert_eq!(f.loaded, Fact::known(vec!["nouveau".to_string()]));
        assert!(matches!(f.version, Fact::Missing { .. }));
        assert!(f.version.reason().unwrap().contains("not loaded"));
        assert!(matches!(f.flavor, Fact::Missing { .. }));
        assert_eq!(f.device_nodes, Fact::known(vec![]));
    }

    #[test]
    fn nothing_readable() {
        let dir = tempfile::tempdir().unwrap();
        let f = gather_as(&Host::fixture(dir.path(), &[]), &NOBODY);
        assert!(f.loaded.reason().unwrap().contains("/proc/modules"));
        assert!(f.device_nodes.reason().unwrap().contains("/dev"));
        assert!(matches!(f.version_line, Fact::Missing { .. }));
    }

    #[test]
    fn garbage_version_file_is_failed_with_the_line() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), PROC_VERSION, "\u{fffd}\u{fffd} not a version\n");
        let f = gather_as(&Host::fixture(dir.path(), &[]), &NOBODY);
        assert!(matches!(f.version, Fact::Failed { .. }));
        assert!(f.version.reason().unwrap().contains("not a version"));
        assert!(f.version_line.is_known());
    }

    #[test]
    fn hidden_proc_entry_falls_back_to_sysfs_and_taints() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "/sys/module/nvidia/version", "470.256.02\n");
        write(
            dir.path(),
            "/proc/modules",
            "nvidia 35360768 0 - Live 0x0000000000000000 (POE)\n",
        );
        let f = gather_as(&Host::fixture(dir.path(), &[]), &NOBODY);
        assert_eq!(f.version, Fact::known("470.256.02".to_string()));
        assert_eq!(f.flavor, Fact::known(ModuleFlavor::Proprietary));
        assert!(matches!(f.version_line, Fact::Missing { .. }));
    }

    #[test]
    fn owner_and_group_names() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        node(root, "nvidia0", 0o660);
        let meta = std::fs::metadata(root.join("dev/nvidia0")).unwrap();
        write(
            root,
            "/etc/passwd",
            &format!("garbage\nme:x:{}:{}::/:/bin/sh\n", meta.uid(), meta.gid()),
        );
        write(
            root,
            "/etc/group",
            &format!("mine:x:{}:\nbad:x:nan:\n", meta.gid()),
        );
        let owner = Identity {
            uid: meta.uid(),
            gid: 4242,
            groups: vec![],
        };
        let f = gather_as(&Host::fixture(root, &[]), &owner);
        let n = &f.device_nodes.value().unwrap()[0];
        assert_eq!(n.mode, "-rw-rw---- me:mine");
        assert!(n.accessible);
    }
}
