//! The order of evidence. What the machine answered when asked (NVML and cuInit results,
//! the devices they enumerated, probe results, `--deep` torch output) is *observed*; what
//! files, `/proc`, `/sys`, the PCI scan or the matrix suggest is *inferred*. Checks ask
//! their questions through [`Weighed`]: the highest-ranked claims decide, and a claim of a
//! lower rank that disagrees is reported as overruled ("NVML works although
//! /proc/driver/nvidia is absent"), never acted on. A check never fails on inference that
//! an observation contradicts.
//!
//! The second half of this module is where a fix has to happen: inside a container the
//! driver belongs to the host, under WSL2 to Windows. [`place_fix`] rewrites any fix that
//! would load modules, reboot or install a driver where the user stands into what to do
//! where it can be done.

use super::driver::nvml_code;
use super::view;
use crate::facts::Facts;
use crate::finding::{Finding, Fix};

/// How a claim was learnt. `Observed` outranks `Inferred`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rank {
    /// Files, /proc, /sys, the PCI scan, the matrix.
    Inferred,
    /// An answer of the driver itself (NVML, cuInit, device enumeration, probes, torch).
    Observed,
}

/// One source's answer to a yes/no question about the machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    pub holds: bool,
    pub rank: Rank,
    /// Dotted fact path the claim comes from ("driver_api.nvml.init").
    pub source: &'static str,
    /// What the source said, in words.
    pub said: String,
}

/// Every source's answer to one question, weighed by rank.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Weighed {
    pub claims: Vec<Claim>,
}

impl Weighed {
    fn claim(&mut self, holds: bool, rank: Rank, source: &'static str, said: impl Into<String>) {
        self.claims.push(Claim {
            holds,
            rank,
            source,
            said: said.into(),
        });
    }

    /// The claim that decides: the highest rank wins; within a rank a positive answer wins,
    /// because a call that succeeded proves the thing while a failure may have other causes.
    pub fn deciding(&self) -> Option<&Claim> {
        self.claims.iter().max_by_key(|c| (c.rank, c.holds))
    }

    pub fn verdict(&self) -> Option<bool> {
        self.deciding().map(|c| c.holds)
    }

    /// True when an observation decides the question.
    pub fn observed(&self) -> bool {
        self.deciding().is_some_and(|c| c.rank == Rank::Observed)
    }

    /// True when an observation answers `holds` (whatever else is claimed).
    pub fn observed_as(&self, holds: bool) -> bool {
        self.deciding()
            .is_some_and(|c| c.rank == Rank::Observed && c.holds == holds)
    }

    /// Claims of a lower rank that disagree with the verdict.
    pub fn overruled(&self) -> Vec<&Claim> {
        let Some(top) = self.deciding() else {
            return Vec::new();
        };
        self.claims
            .iter()
            .filter(|c| c.rank < top.rank && c.holds != top.holds)
            .collect()
    }
}

/// "Does an NVIDIA kernel driver answer on this machine?" NVML or cuInit succeeding
/// observes it (whether or not a Linux module is visible: WSL2 and sandboxes reach the
/// driver without one); NVML saying "driver not loaded" observes the opposite;
/// /proc/driver/nvidia and /proc/modules only suggest either.
pub fn driver_answers(f: &Facts) -> Weighed {
    let mut w = Weighed::default();
    // Among equals the last claim decides: NVML, the driver's own management API, is named.
    if let Some(c) = view::cuda(f) {
        if c.init_ok() {
            w.claim(
                true,
                Rank::Observed,
                "driver_api.cuda.init",
                format!("cuInit succeeded ({})", c.library),
            );
        }
    }
    if let Some(n) = view::nvml(f) {
        if n.init_ok() {
            w.claim(
                true,
                Rank::Observed,
                "driver_api.nvml.init",
                format!("NVML initialised ({})", n.library),
            );
        } else if n.init.code == nvml_code::DRIVER_NOT_LOADED {
            w.claim(
                false,
                Rank::Observed,
                "driver_api.nvml.init",
                format!("NVML: {} ({})", n.init.name, n.init.code),
            );
        }
    }
    if f.kernel_module.version.is_known() {
        w.claim(
            true,
            Rank::Inferred,
            "kernel_module.version",
            "/proc/driver/nvidia/version exists",
        );
    } else {
        w.claim(
            false,
            Rank::Inferred,
            "kernel_module.version",
            f.kernel_module
                .version
                .reason()
                .unwrap_or("/proc/driver/nvidia/version not read")
                .to_string(),
        );
    }
    if f.kernel_module.is_loaded("nvidia") {
        w.claim(
            true,
            Rank::Inferred,
            "kernel_module.loaded",
            "/proc/modules lists nvidia",
        );
    }
    w
}

/// Jetson / DRIVE (L4T): the integrated GPU is driven by the `nvgpu` module, has no PCI
/// function, no /proc/driver/nvidia and no /dev/nvidiaN nodes (/dev/nvhost-*, /dev/nvmap,
/// /dev/nvgpu/igpu0 instead).
pub fn tegra(f: &Facts) -> bool {
    f.kernel_module.is_loaded("nvgpu")
}

/// "How many GPUs are there?" asked of every source: NVML's and CUDA's enumerations are
/// observed, the PCI scan and the /dev/nvidiaN nodes inferred. `None` where a source
/// could not answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GpuCounts {
    pub nvml: Option<usize>,
    pub cuda: Option<usize>,
    pub pci: Option<usize>,
    pub nodes: Option<usize>,
}

pub fn gpu_counts(f: &Facts) -> GpuCounts {
    let nvml = view::nvml(f)
        .filter(|n| n.init_ok())
        .and_then(|n| n.devices.value())
        .map(Vec::len);
    let cuda = view::cuda(f)
        .filter(|c| c.init_ok())
        .and_then(|c| c.device_count.value())
        .map(|n| usize::try_from(*n).unwrap_or(usize::MAX));
    let nodes = f
        .kernel_module
        .device_nodes
        .value()
        .map(|_| view::gpu_device_nodes(f));
    GpuCounts {
        nvml,
        cuda,
        pci: view::pci_gpu_count(f),
        nodes,
    }
}

/// Where the driver lives, and so where a driver fix has to be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Site {
    /// This machine: fixes run here.
    Here,
    /// Inside a container (runtime name): the driver and its module belong to the host.
    Container(String),
    /// WSL2: the driver is the Windows one; Linux has no NVIDIA kernel module.
    Wsl,
}

pub fn site(f: &Facts) -> Site {
    if f.system.wsl {
        Site::Wsl
    } else if let Some(rt) = view::in_container(f) {
        Site::Container(rt.to_string())
    } else {
        Site::Here
    }
}

/// A command that changes the kernel driver or the machine's boot state: meaningless
/// inside a container and harmful under WSL2 (a Linux driver there shadows the Windows one).
pub fn is_host_only_command(cmd: &str) -> bool {
    let c = cmd.to_ascii_lowercase();
    let words = [
        "modprobe",
        "rmmod",
        "reboot",
        "dkms",
        "mokutil",
        "update-initramfs",
        "dracut",
        "mkinitcpio",
        "ubuntu-drivers",
        "nvidia-smi -pm",
        "nvidia-persistenced",
        "nvidia-fabricmanager",
        "/etc/modprobe.d",
        "/etc/modules-load.d",
        "usermod",
    ];
    if words.iter().any(|w| c.contains(w)) {
        return true;
    }
    // Installing or upgrading the driver itself (apt/dnf/zypper/pacman/run file).
    let installs = ["install", "upgrade", "-s ", "-syu"]
        .iter()
        .any(|w| c.contains(w));
    let driver_pkg = [
        "nvidia-driver",
        "nvidia-open",
        "akmod-nvidia",
        "cuda-drivers",
        "nvidia-dkms",
        "nvidia-kmod",
        "nvidia-linux",
        ".run",
        "nvidia-open-driver",
        "nvidia-headless",
        "nvidia-utils",
    ]
    .iter()
    .any(|w| c.contains(w));
    installs && driver_pkg
}

/// Rewrites a finding's fix for where the user stands: inside a container or under WSL2,
/// host-only commands leave the command list (nothing printed there is to be run where
/// it cannot work) and the text says to do it on the host or in Windows.
pub fn place_fix(f: &Facts, mut finding: Finding) -> Finding {
    let site = site(f);
    if site == Site::Here {
        return finding;
    }
    let Some(fix) = finding.fix.take() else {
        return finding;
    };
    let (host_only, here): (Vec<String>, Vec<String>) = fix
        .commands
        .into_iter()
        .partition(|c| is_host_only_command(c));
    // An alternative's host-only commands are notes here: not runnable in this place.
    let alternatives: Vec<crate::finding::FixOption> = fix
        .alternatives
        .into_iter()
        .map(|mut o| {
            let (host, local): (Vec<String>, Vec<String>) = o
                .commands
                .into_iter()
                .partition(|c| is_host_only_command(c));
            o.commands = local;
            o.notes.extend(
                host.into_iter()
                    .map(|c| format!("on the host, not here: {c}")),
            );
            o
        })
        .collect();
    if host_only.is_empty() {
        finding.fix = Some(Fix {
            text: fix.text,
            commands: here,
            notes: fix.notes,
            alternatives,
        });
        return finding;
    }
    let text = match &site {
        Site::Wsl => "This is WSL2: the GPU driver is the Windows one, and nothing about it can be changed from \
             Linux (never install a Linux NVIDIA driver inside WSL: it would shadow the Windows driver's libraries). \
             In Windows: update the NVIDIA driver from nvidia.com or the NVIDIA App, then restart WSL with \
             `wsl.exe --shutdown`."
            .to_string(),
        Site::Container(rt) => format!(
            "This runs inside a {rt} container: the kernel driver, its modules and the machine's boot belong to \
             the host. On the host (not in this container): {} Commands for the host: {}. Then restart the container.",
            fix.text,
            host_only
                .iter()
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join("; ")
        ),
        Site::Here => fix.text.clone(),
    };
    let mut commands = here;
    if site == Site::Wsl {
        commands.push("wsl.exe --shutdown".to_string());
        commands.push("nvidia-smi.exe".to_string());
    }
    let mut notes = fix.notes;
    // In WSL the Linux driver commands are never run (the driver is Windows'); in a
    // container they are run on the host.
    if site != Site::Wsl {
        notes.extend(
            host_only
                .iter()
                .map(|c| format!("on the host, not in this container: {c}")),
        );
    }
    finding.fix = Some(Fix {
        text,
        commands,
        notes,
        alternatives,
    });
    finding
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::testutil::*;
    use crate::checks::DRIVER_MODULE_NOT_LOADED;
    use crate::fact::Fact;

    #[test]
    fn observation_outranks_inference() {
        let mut f = healthy();
        f.kernel_module.version = Fact::missing("/proc/driver/nvidia/version does not exist");
        f.kernel_module.loaded = Fact::known(Vec::new());
        let w = driver_answers(&f);
        assert_eq!(w.verdict(), Some(true));
        assert!(w.observed());
        let over = w.overruled();
        assert_eq!(over.len(), 1);
        assert_eq!(over[0].source, "kernel_module.version");
    }

    #[test]
    fn inference_alone_decides_without_observation() {
        let mut f = healthy();
        f.driver_api.nvml = Fact::missing("fixture");
        f.driver_api.cuda = Fact::missing("fixture");
        let w = driver_answers(&f);
        assert_eq!(w.verdict(), Some(true));
        assert!(!w.observed());
        f.kernel_module.version = Fact::missing("absent");
        f.kernel_module.loaded = Fact::known(Vec::new());
        assert_eq!(driver_answers(&f).verdict(), Some(false));
    }

    #[test]
    fn a_success_outranks_a_failure_of_the_same_rank() {
        let mut f = healthy();
        if let Fact::Known { value } = &mut f.driver_api.nvml {
            value.init = code("NVML_ERROR_DRIVER_NOT_LOADED", 9);
        }
        // cuInit still works: the driver answers.
        assert!(driver_answers(&f).observed_as(true));
        f.driver_api.cuda = Fact::missing("not reached");
        assert!(driver_answers(&f).observed_as(false));
    }

    #[test]
    fn host_only_commands() {
        for c in [
            "sudo modprobe nvidia",
            "sudo reboot",
            "sudo ubuntu-drivers install",
            "sudo dnf install nvidia-open",
            "sudo apt install nvidia-driver-570",
            "dkms status",
            "sudo usermod -aG video $USER",
        ] {
            assert!(is_host_only_command(c), "{c}");
        }
        for c in [
            "ls -l /dev/nvidia*",
            "pip install torch --index-url https://download.pytorch.org/whl/cu126",
            "echo $LD_LIBRARY_PATH",
            "docker run --gpus all ...",
        ] {
            assert!(!is_host_only_command(c), "{c}");
        }
    }

    #[test]
    fn fixes_move_to_the_host_or_windows() {
        let finding = DRIVER_MODULE_NOT_LOADED
            .finding(crate::finding::Severity::Fail, "x")
            .fix("Load it.", &["sudo modprobe nvidia", "ls -l /dev/nvidia*"]);
        assert_eq!(place_fix(&healthy(), finding.clone()), finding);
        let mut f = healthy();
        f.system.container = Fact::known(Some("docker".into()));
        let placed = place_fix(&f, finding.clone());
        let fix = placed.fix.unwrap();
        assert_eq!(fix.commands, vec!["ls -l /dev/nvidia*".to_string()]);
        assert!(fix.text.contains("On the host"), "{}", fix.text);
        let mut w = healthy();
        w.system.wsl = true;
        let fix = place_fix(&w, finding).fix.unwrap();
        assert!(fix.commands.iter().all(|c| !is_host_only_command(c)));
        assert!(fix.text.contains("Windows"));
        assert!(fix.commands.contains(&"wsl.exe --shutdown".to_string()));
    }
}
