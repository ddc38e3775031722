//! driver.*: kernel module, user-space libraries, NVML and cuInit, and the device
//! nodes. The most specific cause wins: a library mismatch is not also reported as a
//! generic NVML failure.

use super::catalogue::{Action, Area, Check, PasteGap};
use super::view::{self, OsFamily};
use super::{evidence, Ctx};
use crate::fact::Fact;
use crate::finding::{Finding, Severity};

/// NVML return codes (nvml.h) the checks tell apart.
pub mod nvml_code {
    pub const NO_PERMISSION: i64 = 4;
    pub const DRIVER_NOT_LOADED: i64 = 9;
    pub const LIB_RM_VERSION_MISMATCH: i64 = 18;
}

/// CUresult codes (cuda.h) the checks tell apart.
pub mod cu_code {
    pub const NO_DEVICE: i64 = 100;
    pub const SYSTEM_NOT_READY: i64 = 802;
    pub const SYSTEM_DRIVER_MISMATCH: i64 = 803;
    pub const COMPAT_NOT_SUPPORTED_ON_DEVICE: i64 = 804;
    pub const UNKNOWN: i64 = 999;
}

fn install_commands(facts: &crate::facts::Facts) -> (&'static str, Vec<&'static str>) {
    match view::os_family(facts) {
        OsFamily::Ubuntu => ("Install the recommended driver with Ubuntu's tool, then reboot.", vec!["sudo ubuntu-drivers install", "sudo reboot"]),
        OsFamily::Debian => ("Install Debian's driver packages (contrib/non-free enabled), then reboot.", vec!["sudo apt install nvidia-driver", "sudo reboot"]),
        OsFamily::Fedora => ("Install the driver from RPM Fusion, then reboot.", vec!["sudo dnf install akmod-nvidia", "sudo reboot"]),
        OsFamily::Rhel => ("Add NVIDIA's CUDA repository for this release, install the open driver, then reboot.", vec!["sudo dnf install nvidia-open", "sudo reboot"]),
        OsFamily::Suse => ("Install the driver from NVIDIA's openSUSE repository, then reboot.", vec!["sudo zypper install nvidia-open-driver-G06-signed-kmp-default", "sudo reboot"]),
        OsFamily::Arch => ("Install the open kernel module package, then reboot.", vec!["sudo pacman -S nvidia-open", "sudo reboot"]),
        OsFamily::Other => ("Install the NVIDIA driver for this distribution (NVIDIA's driver installation guide lists each), then reboot.", vec![]),
    }
}

pub const DRIVER_NOT_INSTALLED: Check = Check {
    id: "driver.not_installed",
    name: "driver.installed",
    area: Area::Driver,
    title: "an NVIDIA driver is installed",
    failing: "a GPU but no kernel module and no user-space driver",
    why: "Without the driver, no CUDA program or PyTorch build can use the GPU.",
    next_step: "Install the driver for this distribution, then reboot.",
    action: Action::FixSoftware,
    reads: &[
        "system",
        "pci_gpus",
        "kernel_module",
        "driver_libs",
        "driver_api",
    ],
    not_in_paste: None,
    run: not_installed,
};

pub fn not_installed(ctx: &Ctx) -> Vec<Finding> {
    let f = ctx.facts;
    let id = &DRIVER_NOT_INSTALLED;
    let answers = evidence::driver_answers(f);
    if f.system.wsl {
        return wsl_driver(f, &answers);
    }
    if view::in_container(f).is_some() && !view::user_space_present(f) && view::has_gpu(f) {
        // Inside a container the driver comes from the host: host.container_no_gpu covers it.
        return Vec::new();
    }
    if answers.observed_as(true) || view::module_loaded(f) || view::user_space_present(f) {
        return vec![id.finding(Severity::Pass, "NVIDIA driver installed")];
    }
    if !view::has_gpu(f) {
        return vec![id
            .finding(
                Severity::Info,
                "No NVIDIA driver installed (none is needed without an NVIDIA GPU)",
            )
            .evidence(
                "kernel_module.version",
                f.kernel_module.version.reason().unwrap_or("-"),
            )
            .evidence(
                "driver_libs.files",
                "no libnvidia-ml.so.* or libcuda.so.* found",
            )];
    }
    let (text, commands) = install_commands(f);
    vec![id.finding(Severity::Fail, "An NVIDIA GPU is present but no NVIDIA driver is installed")
        .details(
            "There is no NVIDIA kernel module loaded and no user-space driver library (libnvidia-ml, libcuda) on disk. \
             Without the driver, no CUDA program or PyTorch build can use the GPU.",
        )
        .evidence("kernel_module.version", f.kernel_module.version.reason().unwrap_or("-"))
        .evidence("driver_libs.searched", f.driver_libs.searched.join(":"))
        .fix(text, &commands)]
}

/// WSL2 has no NVIDIA kernel module: the Windows driver serves the GPU through /dev/dxg
/// and its libraries appear in /usr/lib/wsl/lib. Installing anything here is wrong.
fn wsl_driver(f: &crate::facts::Facts, answers: &evidence::Weighed) -> Vec<Finding> {
    let id = &DRIVER_NOT_INSTALLED;
    let wsl_libs = f
        .driver_libs
        .nvml_soname
        .iter()
        .chain(f.driver_libs.cuda_soname.iter())
        .any(|p| p.starts_with("/usr/lib/wsl/"));
    if answers.observed_as(true) {
        return vec![id.finding(
            Severity::Pass,
            "NVIDIA driver provided by Windows (WSL2): NVML/CUDA answer through /usr/lib/wsl/lib",
        )];
    }
    if wsl_libs || view::user_space_present(f) {
        return vec![id.finding(
            Severity::Pass,
            "WSL2: the Windows driver's libraries are in /usr/lib/wsl/lib",
        )];
    }
    vec![id.finding(Severity::Fail, "WSL2 without the Windows NVIDIA driver's libraries (/usr/lib/wsl/lib has no libcuda)")
        .details(
            "Under WSL2 the GPU driver is the Windows one: Windows places libcuda.so.1 and libnvidia-ml.so.1 in \
             /usr/lib/wsl/lib when an NVIDIA driver with WSL support is installed in Windows and the GPU is shared \
             with WSL (/dev/dxg). Do not install a Linux NVIDIA driver inside WSL.",
        )
        .evidence("system.wsl", "true")
        .evidence("driver_libs.searched", f.driver_libs.searched.join(":"))
        .fix(
            "In Windows: install or update the NVIDIA driver (nvidia.com or the NVIDIA App), update WSL, then restart it.",
            &["wsl.exe --update", "wsl.exe --shutdown", "nvidia-smi.exe"],
        )]
}

pub const DRIVER_MODULE_NOT_LOADED: Check = Check {
    id: "driver.module_not_loaded",
    name: "driver.kernel_module",
    area: Area::Driver,
    title: "the NVIDIA kernel module is loaded",
    failing: "user-space driver installed, kernel module not loaded (DKMS, Secure Boot)",
    why: "The user-space libraries cannot reach the GPU without the kernel module.",
    next_step: "Rebuild or sign the module (DKMS, Secure Boot) and load it.",
    action: Action::FixSoftware,
    reads: &[
        "system",
        "pci_gpus",
        "kernel_module",
        "driver_libs",
        "driver_api",
    ],
    not_in_paste: Some(PasteGap {
        what: "the kernel module's state",
        how: "`cat /proc/driver/nvidia/version` and `lsmod | grep nvidia`",
    }),
    run: module_not_loaded,
};

pub fn module_not_loaded(ctx: &Ctx) -> Vec<Finding> {
    let f = ctx.facts;
    let id = &DRIVER_MODULE_NOT_LOADED;
    if view::in_container(f).is_some() && !view::module_loaded(f) && !view::has_gpu(f) {
        return Vec::new();
    }
    let answers = evidence::driver_answers(f);
    if evidence::tegra(f) && !view::module_loaded(f) {
        return vec![id.finding(
            Severity::Pass,
            "Integrated GPU driver nvgpu loaded (Jetson/L4T: no /proc/driver/nvidia there)",
        )];
    }
    if !view::module_loaded(f) && answers.observed_as(true) {
        // Observation beats inference: the driver answers although no module is visible.
        return vec![driver_without_visible_module(f, &answers)];
    }
    if f.system.wsl {
        return Vec::new(); // no Linux module under WSL2: driver.not_installed judges the Windows driver
    }
    if view::module_loaded(f) {
        let version = f
            .kernel_module
            .version
            .value()
            .map_or("unknown version".to_string(), Clone::clone);
        let flavor = match f.kernel_module.flavor.value() {
            Some(crate::facts::kernel_module::ModuleFlavor::Open) => ", open",
            Some(crate::facts::kernel_module::ModuleFlavor::Proprietary) => ", proprietary",
            None => "",
        };
        return vec![id.finding(
            Severity::Pass,
            format!("Kernel module loaded ({version}{flavor})"),
        )];
    }
    if !view::user_space_present(f) {
        return Vec::new(); // driver.not_installed
    }
    if f.kernel_module.is_loaded("nouveau") {
        return Vec::new(); // driver.nouveau_loaded is the cause
    }
    let nvml_says = view::nvml(f)
        .filter(|n| n.init.code == nvml_code::DRIVER_NOT_LOADED)
        .map(|n| n.init.name.clone());
    let mut finding = id.finding(Severity::Fail, "The NVIDIA user-space driver is installed but its kernel module is not loaded")
        .details(
            "libnvidia-ml/libcuda are on disk, but /proc/driver/nvidia/version does not exist. Usual causes: DKMS did not \
             build the module for the running kernel after a kernel upgrade, Secure Boot refused the unsigned module, \
             or nouveau was loaded first.",
        )
        .evidence("kernel_module.version", f.kernel_module.version.reason().unwrap_or("-"))
        .evidence("system.kernel", f.system.kernel.value().map_or("unknown", String::as_str));
    if let Some(name) = nvml_says {
        finding = finding.evidence("driver_api.nvml.init", name);
    }
    vec![finding.fix(
        "Load the module and read why it fails if it does: check that DKMS built it for this kernel and whether \
         Secure Boot is on (then sign the module or enrol the MOK).",
        &["sudo modprobe nvidia", "dkms status", "sudo dmesg | grep -iE 'nvidia|nvrm'", "mokutil --sb-state"],
    )]
}

fn driver_without_visible_module(f: &crate::facts::Facts, answers: &evidence::Weighed) -> Finding {
    let id = &DRIVER_MODULE_NOT_LOADED;
    let decided = answers.deciding().map_or(String::new(), |c| c.said.clone());
    let who = match answers.deciding().map(|c| c.source) {
        Some("driver_api.cuda.init") => "cuInit",
        _ => "NVML",
    };
    let mut finding = if f.system.wsl {
        id.finding(
            Severity::Pass,
            "No Linux kernel module under WSL2: the Windows driver answers through /dev/dxg",
        )
    } else {
        id.finding(Severity::Info,
            format!("{who} works although /proc/driver/nvidia is absent: WSL2 or a sandbox (gVisor, some containers) hides it"),
        )
        .details(format!(
            "The driver answered ({decided}), so the kernel module is running somewhere this process cannot see: \
             the missing /proc entry is not a fault, and nothing needs loading."
        ))
    };
    finding = finding.evidence("observed", decided);
    for c in answers.overruled() {
        finding = finding.evidence(c.source, format!("overruled: {}", c.said));
    }
    finding
}

pub const DRIVER_NOUVEAU_LOADED: Check = Check {
    id: "driver.nouveau_loaded",
    name: "driver.nouveau",
    area: Area::Driver,
    title: "nouveau does not hold the GPU",
    failing: "nouveau holds the GPU",
    why: "While nouveau holds the GPU the NVIDIA module cannot bind to it.",
    next_step: "Blacklist nouveau, rebuild the initramfs and reboot.",
    action: Action::Reboot,
    reads: &["system", "pci_gpus", "kernel_module", "driver_api"],
    not_in_paste: Some(PasteGap {
        what: "the loaded kernel modules",
        how: "`lsmod | grep nouveau`",
    }),
    run: nouveau_loaded,
};

pub fn nouveau_loaded(ctx: &Ctx) -> Vec<Finding> {
    let f = ctx.facts;
    let id = &DRIVER_NOUVEAU_LOADED;
    let bound: Vec<String> = f
        .pci_gpus
        .value()
        .map(|p| {
            p.iter()
                .filter(|g| g.driver.as_deref() == Some("nouveau"))
                .map(|g| g.bus_id.clone())
                .collect()
        })
        .unwrap_or_default();
    let loaded = f.kernel_module.is_loaded("nouveau");
    if !loaded && bound.is_empty() {
        return if f.kernel_module.loaded.is_known() && view::has_gpu(f) {
            vec![id.finding(Severity::Pass, "nouveau is not loaded")]
        } else {
            Vec::new()
        };
    }
    if bound.is_empty() && evidence::driver_answers(f).observed_as(true) {
        // nouveau holds no GPU, and the NVIDIA driver answers: observation outranks the module list.
        return vec![id.finding(Severity::Info, "nouveau is loaded but drives no GPU; the NVIDIA driver answers")
            .details("The nouveau module is loaded (perhaps for another display adapter), but no NVIDIA GPU is bound to it and NVML/cuInit work.")
            .evidence("kernel_module.loaded", "nouveau")];
    }
    let severity = if view::has_gpu(f) {
        Severity::Fail
    } else {
        Severity::Warn
    };
    let rebuild = match view::os_family(f) {
        OsFamily::Fedora | OsFamily::Rhel | OsFamily::Suse => "sudo dracut --force",
        OsFamily::Arch => "sudo mkinitcpio -P",
        _ => "sudo update-initramfs -u",
    };
    let mut finding = id.finding(severity, "The open-source nouveau driver holds the GPU")
        .details(
            "nouveau is loaded, so the NVIDIA kernel module cannot bind the GPU and CUDA cannot run. It has to be \
             blacklisted and the initramfs rebuilt so it does not load at boot.",
        )
        .evidence("kernel_module.loaded", if loaded { "nouveau" } else { "-" });
    for b in &bound {
        finding = finding.evidence("pci_gpus.driver", format!("{b} bound to nouveau"));
    }
    vec![finding.fix_owned(
        "Blacklist nouveau, rebuild the initramfs and reboot (installing the NVIDIA driver packages usually does the first step).",
        vec![
            "printf 'blacklist nouveau\\noptions nouveau modeset=0\\n' | sudo tee /etc/modprobe.d/blacklist-nouveau.conf".into(),
            rebuild.into(),
            "sudo reboot".into(),
        ],
    )]
}

pub const DRIVER_LIBRARY_MISMATCH: Check = Check {
    id: "driver.library_mismatch",
    name: "driver.library_version",
    area: Area::Driver,
    title: "kernel module and user-space libraries are one release",
    failing: "kernel module version differs from `libnvidia-ml.so.1`/`libcuda.so.1`, or NVML says so",
    why: "NVML and CUDA refuse to work when the kernel module and the libraries are different releases.",
    next_step: "Reboot (or unload and reload the NVIDIA modules) so the module matches the libraries.",
    action: Action::Reboot,
    reads: &["kernel_module", "driver_libs", "driver_api"],
    not_in_paste: Some(PasteGap { what: "the kernel module's and the libraries' versions", how: "`cat /proc/driver/nvidia/version; ls /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.*`" }),
    run: library_mismatch,
};

pub fn library_mismatch(ctx: &Ctx) -> Vec<Finding> {
    let f = ctx.facts;
    let id = &DRIVER_LIBRARY_MISMATCH;
    let nvml_mismatch =
        view::nvml(f).is_some_and(|n| n.init.code == nvml_code::LIB_RM_VERSION_MISMATCH);
    let Some(kernel) = f.kernel_module.version.value() else {
        if nvml_mismatch {
            return vec![mismatch_finding(f, "unknown", &[]).details(
                "NVML reports 'Driver/library version mismatch': the loaded kernel module and the user-space \
                 libraries come from different driver releases.",
            )];
        }
        return Vec::new();
    };
    let mut user = Vec::new();
    for (name, soname) in [
        ("libnvidia-ml.so.1", &f.driver_libs.nvml_soname),
        ("libcuda.so.1", &f.driver_libs.cuda_soname),
    ] {
        if name == "libcuda.so.1" && view::cuda_soname_is_compat(f) {
            continue; // a cuda-compat libcuda is meant to differ: driver.compat_package_mismatch judges it
        }
        if let Some(v) = view::soname_version(f, soname.as_ref()) {
            user.push((name, v));
        }
    }
    let differing: Vec<(&str, String)> =
        user.iter().filter(|(_, v)| v != kernel).cloned().collect();
    if differing.is_empty() && !nvml_mismatch {
        if user.is_empty() {
            return Vec::new();
        }
        return vec![id.finding(
            Severity::Pass,
            format!("Kernel module and user-space libraries are both {kernel}"),
        )];
    }
    let listed: Vec<String> = differing
        .iter()
        .map(|(n, v)| format!("{n} is {v}"))
        .collect();
    // Observation beats inference: a library whose API initialised was checked by the
    // driver itself against the kernel module (NVML and libcuda refuse a mismatch), so a
    // differing file on disk is not the copy that was loaded.
    let answered = |name: &str| match name {
        "libnvidia-ml.so.1" => view::nvml(f).is_some_and(|n| n.init_ok()),
        _ => view::cuda(f).is_some_and(|c| c.init_ok()),
    };
    if !nvml_mismatch && differing.iter().all(|(n, _)| answered(n)) {
        let mut finding = id.finding(Severity::Warn,
            format!("Library files differ from the kernel module ({kernel}), but the driver answers: another copy is loaded"),
        )
        .details(format!(
            "The loader's {} on disk, yet NVML/cuInit initialised, which they refuse to do with a mismatched \
             library: the programs here load another copy (LD_LIBRARY_PATH, a container mount). Stale driver files \
             can be picked up by other programs.",
            listed.join(" and ")
        ))
        .evidence("kernel_module.version", kernel);
        for (name, v) in &differing {
            finding = finding.evidence("driver_libs", format!("overruled: {name} -> {v}"));
        }
        return vec![finding.fix(
            "Find which copy programs load and remove the stale one.",
            &[
                "ldconfig -p | grep -E 'libcuda|libnvidia-ml'",
                "echo $LD_LIBRARY_PATH",
            ],
        )];
    }
    let detail = if listed.is_empty() {
        format!("NVML reports 'Driver/library version mismatch' although the library files found match the kernel module ({kernel}); another libnvidia-ml on LD_LIBRARY_PATH may be loaded.")
    } else {
        format!(
            "The loaded kernel module is {kernel} but {}. This happens when the driver packages are upgraded while the \
             old module stays loaded: every NVML and CUDA call fails ('Failed to initialize NVML: Driver/library version mismatch').",
            listed.join(" and ")
        )
    };
    vec![mismatch_finding(f, kernel, &differing).details(detail)]
}

fn mismatch_finding(
    f: &crate::facts::Facts,
    kernel: &str,
    differing: &[(&str, String)],
) -> Finding {
    let mut finding = DRIVER_LIBRARY_MISMATCH
        .finding(
            Severity::Fail,
            "Kernel module and user-space driver versions differ",
        )
        .evidence("kernel_module.version", kernel);
    for (name, v) in differing {
        finding = finding.evidence("driver_libs", format!("{name} -> {v}"));
    }
    if let Some(n) = view::nvml(f) {
        finding = finding.evidence(
            "driver_api.nvml.init",
            format!("{} ({})", n.init.name, n.init.code),
        );
    }
    finding.fix(
        "Reboot, so that the kernel module of the installed driver is loaded. Without a reboot, stop everything using \
         the GPU and reload the modules.",
        &["sudo reboot", "sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && sudo modprobe nvidia && sudo modprobe nvidia_uvm"],
    )
}

pub const DRIVER_NVML_FAILED: Check = Check {
    id: "driver.nvml_failed",
    name: "driver.nvml_init",
    area: Area::Driver,
    title: "NVML initialises",
    failing: "`nvmlInit` failed for another reason (decoded), or hung/crashed",
    why: "Without NVML nothing can list the GPUs or read their health.",
    next_step: "Act on the decoded NVML error in the finding.",
    action: Action::FixSoftware,
    reads: &["kernel_module", "driver_api"],
    not_in_paste: None,
    run: nvml_failed,
};

pub fn nvml_failed(ctx: &Ctx) -> Vec<Finding> {
    let f = ctx.facts;
    let id = &DRIVER_NVML_FAILED;
    match &f.driver_api.nvml {
        Fact::Known { value: n } => {
            if n.init_ok() {
                // Only an enumeration the driver answered with an error is observed; a list
                // that was never read (a paste without `nvidia-smi -L`) says nothing.
                if let Some(why) = n
                    .devices
                    .reason()
                    .filter(|_| matches!(n.devices, Fact::Failed { .. }))
                {
                    return vec![id.finding(Severity::Fail, "NVML initialised but could not count the GPUs")
                        .details(format!(
                            "nvmlInit_v2 succeeded, but enumerating the GPUs failed ({why}). nvidia-smi fails the same \
                             way; what NVML cannot enumerate, no tool can watch."
                        ))
                        .evidence("driver_api.nvml.devices", why)
                        .evidence("driver_api.nvml.library", &n.library)
                        .fix(
                            "Read the kernel log for NVRM/Xid errors; a GPU in this state usually needs a reset or a reboot.",
                            &["sudo dmesg | grep -iE 'nvrm|xid'", "nvidia-smi"],
                        )];
                }
                let count = n.devices.value().map_or(0, Vec::len);
                let version = n.driver_version.value().cloned().unwrap_or_default();
                return vec![id.finding(
                    Severity::Pass,
                    format!(
                        "NVML {version} initialised; {count} GPU{}",
                        super::host::plural(count)
                    ),
                )];
            }
            let covered = n.init.code == nvml_code::LIB_RM_VERSION_MISMATCH
                || (n.init.code == nvml_code::DRIVER_NOT_LOADED && !view::module_loaded(f));
            if covered {
                return Vec::new();
            }
            let (why, fix, commands): (&str, &str, &[&str]) = match n.init.code {
                nvml_code::NO_PERMISSION => (
                    "The current user may not open the NVIDIA device nodes.",
                    "Give the user access to /dev/nvidia* (usually membership of the group that owns them), or fix the udev rule / NVreg_DeviceFileMode.",
                    &["ls -l /dev/nvidia*", "sudo usermod -aG video $USER"],
                ),
                nvml_code::DRIVER_NOT_LOADED => (
                    "NVML says the driver is not loaded although the kernel module is: the device nodes may be missing or the module failed to initialise the GPU.",
                    "Read the kernel log for NVRM errors (RmInitAdapter failed, GPU fallen off the bus).",
                    &["sudo dmesg | grep -iE 'nvrm|xid'"],
                ),
                _ => (
                    "NVML failed to initialise.",
                    "Read the kernel log for NVRM errors; reinstalling the driver packages or a reboot often clears it.",
                    &["sudo dmesg | grep -iE 'nvrm|xid'", "nvidia-smi"],
                ),
            };
            vec![id
                .finding(
                    Severity::Fail,
                    format!(
                        "NVML failed to initialise: {} ({})",
                        n.init.name, n.init.code
                    ),
                )
                .details(format!(
                    "{why}{}",
                    n.init
                        .message
                        .as_ref()
                        .map_or(String::new(), |m| format!(" NVML says: \"{m}\"."))
                ))
                .evidence(
                    "driver_api.nvml.init",
                    format!("{} ({})", n.init.name, n.init.code),
                )
                .evidence("driver_api.nvml.library", &n.library)
                .fix(fix, commands)]
        }
        Fact::Failed {
            error, stderr_tail, ..
        } => {
            let mut finding = id.finding(Severity::Fail, "Querying the driver through NVML failed")
                .details(format!(
                    "The worker that loads libnvidia-ml and libcuda did not come back cleanly: {error}. A driver that hangs \
                     or crashes here will hang or crash nvidia-smi and every CUDA program too."
                ))
                .evidence("driver_api.nvml", error);
            if let Some(tail) = stderr_tail.as_ref().filter(|t| !t.is_empty()) {
                finding = finding.evidence("driver_api.stderr_tail", tail);
            }
            vec![finding.fix(
                "Read the kernel log for NVRM/Xid errors; a GPU in this state usually needs a reset or a reboot.",
                &["sudo dmesg | grep -iE 'nvrm|xid'", "sudo reboot"],
            )]
        }
        Fact::Missing { .. } | Fact::Unsupported { .. } => unloadable_library(
            f,
            id,
            "libnvidia-ml.so.1",
            &f.driver_api.nvml,
            f.driver_libs.nvml_soname.as_ref(),
        )
        .into_iter()
        .collect(),
    }
}

/// A driver library that is on disk (the loader resolves its soname) but that the worker
/// could not load or that lacks its entry point (truncated, random bytes, 0 bytes, a
/// foreign library): unknown is never healthy.
fn unloadable_library<T>(
    f: &crate::facts::Facts,
    id: &Check,
    soname: &str,
    fact: &Fact<T>,
    on_disk: Option<&String>,
) -> Option<Finding> {
    let path = on_disk?;
    let why = fact.reason()?;
    if why == crate::facts::driver_api::FIXTURE_SKIP {
        return None;
    }
    let severity = if view::has_gpu(f) {
        Severity::Fail
    } else {
        Severity::Warn
    };
    Some(
        id.finding(severity, format!("{soname} is on disk but is not a usable driver library"))
            .details(format!(
                "The loader resolves {soname} to {path}, but loading it gave: {why}. Every program that loads it \
                 (nvidia-smi, PyTorch, any CUDA program) fails the same way. The file is damaged, truncated or \
                 not the NVIDIA driver's."
            ))
            .evidence("driver_libs.soname", path)
            .evidence("driver_api", why)
            .fix(
                "Reinstall the driver's user-space packages so that the library is whole again, and check what the soname links to.",
                &[format!("ls -lL {path}").as_str(), "ldconfig -p | grep -E 'libcuda|libnvidia-ml'"],
            ),
    )
}

pub const DRIVER_CUDA_INIT_FAILED: Check = Check {
    id: "driver.cuda_init_failed",
    name: "driver.cuda_init",
    area: Area::Driver,
    title: "cuInit succeeds",
    failing: "`cuInit` failed for a reason no more specific id covers (CUresult name and number)",
    why: "Every CUDA program calls cuInit first; when it fails no GPU work runs.",
    next_step: "Act on the CUresult named in the finding.",
    action: Action::FixSoftware,
    reads: &["pci_gpus", "kernel_module", "driver_api", "env"],
    not_in_paste: Some(PasteGap {
        what: "cuInit's result",
        how: "`gpu-doctor` on the machine",
    }),
    run: cuda_init_failed,
};

pub fn cuda_init_failed(ctx: &Ctx) -> Vec<Finding> {
    let f = ctx.facts;
    let id = &DRIVER_CUDA_INIT_FAILED;
    match &f.driver_api.cuda {
        Fact::Known { value: c } => {
            if c.init_ok() {
                let version = c.driver_version.value().cloned().unwrap_or_default();
                if let Some(why) = c
                    .device_count
                    .reason()
                    .filter(|_| !c.device_count.is_known())
                {
                    return vec![id.finding(Severity::Fail, "cuInit succeeded but CUDA could not count its devices")
                        .details(format!(
                            "cuDeviceGetCount failed after a successful cuInit ({why}): no CUDA program can pick a GPU."
                        ))
                        .evidence("driver_api.cuda.device_count", why)
                        .evidence("driver_api.cuda.library", &c.library)
                        .fix(
                            "Read the kernel log for NVRM/Xid errors; a GPU in this state usually needs a reset or a reboot.",
                            &["sudo dmesg | grep -iE 'nvrm|xid'", "nvidia-smi"],
                        )];
                }
                let n = c.device_count.value().copied().unwrap_or(0);
                return vec![id.finding(
                    Severity::Pass,
                    format!(
                        "cuInit succeeded: CUDA driver API {version}, {n} device{}",
                        super::host::plural(n as usize)
                    ),
                )];
            }
            let specific = [
                cu_code::SYSTEM_NOT_READY,
                cu_code::SYSTEM_DRIVER_MISMATCH,
                cu_code::COMPAT_NOT_SUPPORTED_ON_DEVICE,
                cu_code::UNKNOWN,
            ];
            if specific.contains(&c.init.code) {
                return Vec::new();
            }
            if c.init.code == cu_code::NO_DEVICE && super::env::visible_devices_hide_all(f) {
                return Vec::new(); // env.visible_devices_empty explains it
            }
            if c.init.code == cu_code::NO_DEVICE && !view::has_gpu(f) {
                return Vec::new(); // host.no_nvidia_gpu explains it
            }
            if c.init.code == cu_code::NO_DEVICE
                && !view::module_loaded(f)
                && !evidence::driver_answers(f).observed_as(true)
                && (view::user_space_present(f) || f.system.wsl)
            {
                return Vec::new(); // driver.module_not_loaded / driver.not_installed is the cause
            }
            if view::nvml(f).is_some_and(|n| n.init.code == nvml_code::LIB_RM_VERSION_MISMATCH) {
                return Vec::new(); // the mismatch makes every driver call fail
            }
            vec![id.finding(Severity::Fail, format!("cuInit failed: {} ({})", c.init.name, c.init.code))
                .details(format!(
                    "The CUDA driver API could not initialise, so no CUDA program (and no PyTorch) can use the GPU.{}",
                    c.init.message.as_ref().map_or(String::new(), |m| format!(" The driver says: \"{m}\"."))
                ))
                .evidence("driver_api.cuda.init", format!("{} ({})", c.init.name, c.init.code))
                .evidence("driver_api.cuda.library", &c.library)
                .fix("Read the kernel log for NVRM/Xid errors and check the device nodes; a reboot clears most transient states.", &["sudo dmesg | grep -iE 'nvrm|xid'", "ls -l /dev/nvidia*"])]
        }
        Fact::Failed {
            error, stderr_tail, ..
        } => {
            let mut finding = id.finding(Severity::Fail, "Initialising CUDA failed")
                .details(format!("cuInit did not come back cleanly: {error}. A CUDA program on this machine would hang or crash the same way."))
                .evidence("driver_api.cuda", error);
            if let Some(tail) = stderr_tail.as_ref().filter(|t| !t.is_empty()) {
                finding = finding.evidence("driver_api.stderr_tail", tail);
            }
            vec![finding.fix("Read the kernel log for NVRM/Xid errors; a GPU in this state usually needs a reset or a reboot.", &["sudo dmesg | grep -iE 'nvrm|xid'"])]
        }
        Fact::Missing { .. } | Fact::Unsupported { .. } => unloadable_library(
            f,
            id,
            "libcuda.so.1",
            &f.driver_api.cuda,
            f.driver_libs.cuda_soname.as_ref(),
        )
        .into_iter()
        .collect(),
    }
}

pub(crate) fn cuinit_code(f: &crate::facts::Facts) -> Option<i64> {
    view::cuda(f).map(|c| c.init.code)
}

pub const DRIVER_UVM_UNAVAILABLE: Check = Check {
    id: "driver.uvm_unavailable",
    name: "driver.uvm",
    area: Area::Driver,
    title: "nvidia_uvm works",
    failing: "`nvidia_uvm` missing, or `cuInit` returned 999",
    why: "CUDA needs nvidia_uvm for unified memory; without it cuInit fails with error 999.",
    next_step:
        "Reload nvidia_uvm (`sudo modprobe -r nvidia_uvm && sudo modprobe nvidia_uvm`) or reboot.",
    action: Action::Reboot,
    reads: &["kernel_module", "driver_api"],
    not_in_paste: Some(PasteGap {
        what: "the nvidia_uvm module",
        how: "`lsmod | grep nvidia_uvm; ls -l /dev/nvidia-uvm`",
    }),
    run: uvm_unavailable,
};

pub fn uvm_unavailable(ctx: &Ctx) -> Vec<Finding> {
    let f = ctx.facts;
    let id = &DRIVER_UVM_UNAVAILABLE;
    let fix_cmds = [
        "sudo modprobe nvidia_uvm",
        "sudo rmmod nvidia_uvm && sudo modprobe nvidia_uvm",
    ];
    if cuinit_code(f) == Some(cu_code::UNKNOWN) && f.system.wsl {
        return vec![id.finding(Severity::Fail, "cuInit failed with CUDA_ERROR_UNKNOWN (999) under WSL2")
            .details(
                "WSL2 has no nvidia_uvm: CUDA goes through /dev/dxg to the Windows driver. Error 999 there usually \
                 means the Windows driver is too old for CUDA on WSL, or WSL's GPU connection is stale after \
                 sleep or a driver update; updating the Windows driver and restarting WSL fixes it.",
            )
            .evidence("driver_api.cuda.init", "CUDA_ERROR_UNKNOWN (999)")
            .evidence("system.wsl", "true")
            .fix(
                "In Windows: update the NVIDIA driver (nvidia.com or the NVIDIA App), then restart WSL.",
                &["wsl.exe --shutdown", "nvidia-smi.exe"],
            )];
    }
    if cuinit_code(f) == Some(cu_code::UNKNOWN) {
        return vec![id.finding(Severity::Fail, "cuInit failed with CUDA_ERROR_UNKNOWN (999): nvidia_uvm is broken or missing")
            .details(
                "Error 999 at initialisation nearly always means the nvidia_uvm module is missing or wedged, typically after \
                 a suspend/resume cycle. Reloading nvidia_uvm (with no CUDA process running) or a reboot fixes it.",
            )
            .evidence("driver_api.cuda.init", "CUDA_ERROR_UNKNOWN (999)")
            .evidence("kernel_module.loaded", if f.kernel_module.is_loaded("nvidia_uvm") { "nvidia_uvm loaded" } else { "nvidia_uvm not loaded" })
            .fix("Reload nvidia_uvm (stop CUDA processes first), or reboot.", &fix_cmds)];
    }
    if !view::module_loaded(f) {
        return Vec::new();
    }
    if view::cuda(f).is_some_and(|c| c.init_ok()) {
        return vec![id.finding(Severity::Pass, "nvidia_uvm works (cuInit succeeded)")];
    }
    let uvm_node = f
        .kernel_module
        .device_nodes
        .value()
        .is_some_and(|n| n.iter().any(|d| d.path == "/dev/nvidia-uvm"));
    if f.kernel_module.is_loaded("nvidia_uvm") || uvm_node {
        return vec![id.finding(Severity::Pass, "nvidia_uvm is loaded")];
    }
    if !f.kernel_module.loaded.is_known() {
        return Vec::new();
    }
    vec![id.finding(Severity::Warn, "nvidia_uvm is not loaded and /dev/nvidia-uvm does not exist")
        .details(
            "CUDA needs nvidia_uvm. The setuid helper nvidia-modprobe normally loads it on first use; where that helper is \
             missing (minimal images) or not allowed, CUDA fails with 'unknown error' (999).",
        )
        .fix("Load it now and at boot.", &["sudo modprobe nvidia_uvm", "echo nvidia_uvm | sudo tee /etc/modules-load.d/nvidia-uvm.conf"])]
}

pub const DRIVER_FABRIC_MANAGER: Check = Check {
    id: "driver.fabric_manager",
    name: "driver.fabric_manager",
    area: Area::Driver,
    title: "the NVSwitch fabric is ready (no CUDA error 802)",
    failing: "`cuInit` returned 802 (NVSwitch fabric manager not running)",
    why: "On NVSwitch systems CUDA waits for the fabric manager; until it runs every cuInit fails.",
    next_step: "Install and start nvidia-fabricmanager at the driver's exact version.",
    action: Action::FixSoftware,
    reads: &["kernel_module", "driver_api"],
    not_in_paste: Some(PasteGap {
        what: "cuInit's result",
        how: "`gpu-doctor` on the machine",
    }),
    run: fabric_manager,
};

pub fn fabric_manager(ctx: &Ctx) -> Vec<Finding> {
    let f = ctx.facts;
    if cuinit_code(f) != Some(cu_code::SYSTEM_NOT_READY) {
        return Vec::new();
    }
    let version = f
        .kernel_module
        .version
        .value()
        .cloned()
        .unwrap_or_else(|| "the driver's".into());
    vec![DRIVER_FABRIC_MANAGER.finding(Severity::Fail, "CUDA reports 'system not yet initialized' (802): the NVSwitch fabric is not ready")
        .details(format!(
            "On NVSwitch systems (HGX/DGX 8-GPU boards) CUDA cannot start until the NVIDIA Fabric Manager has set up the \
             fabric. Fabric Manager must be installed, running, and exactly the driver's version ({version})."
        ))
        .evidence("driver_api.cuda.init", "CUDA_ERROR_SYSTEM_NOT_READY (802)")
        .fix(
            format!("Install nvidia-fabricmanager of version {version}, start it, and check its log."),
            &["sudo systemctl enable --now nvidia-fabricmanager", "systemctl status nvidia-fabricmanager", "nvidia-smi -q | grep -iA2 fabric"],
        )]
}

pub const DRIVER_COMPAT_PACKAGE_MISMATCH: Check = Check {
    id: "driver.compat_package_mismatch",
    name: "driver.compat_package",
    area: Area::Driver,
    title: "the libcuda in use matches the kernel module (no CUDA error 803)",
    failing: "`cuInit` returned 803 (a cuda-compat libcuda that does not match the module)",
    why: "A cuda-compat libcuda must match the kernel module it runs on, or cuInit fails with 803.",
    next_step: "Remove the cuda-compat library from the library path, or install the one that matches the module.",
    action: Action::FixSoftware,
    reads: &["kernel_module", "driver_libs", "driver_api"],
    not_in_paste: Some(PasteGap { what: "cuInit's result and the libcuda in use", how: "`gpu-doctor` on the machine" }),
    run: compat_package_mismatch,
};

pub fn compat_package_mismatch(ctx: &Ctx) -> Vec<Finding> {
    let f = ctx.facts;
    let id = &DRIVER_COMPAT_PACKAGE_MISMATCH;
    let compat_version = view::cuda_soname_is_compat(f)
        .then(|| view::soname_version(f, f.driver_libs.cuda_soname.as_ref()))
        .flatten();
    let code = cuinit_code(f);
    if code != Some(cu_code::SYSTEM_DRIVER_MISMATCH) {
        if let (Some(cv), Some(k)) = (&compat_version, f.kernel_module.version.value()) {
            if code.is_none() {
                return vec![id.finding(Severity::Warn, format!("libcuda.so.1 resolves to a cuda-compat library ({cv}) on a {k} kernel module"))
                    .details("A forward-compatibility libcuda is loaded instead of the driver's own. It only works on supported datacenter GPUs with a matching kernel module branch.")
                    .evidence("driver_libs.cuda_soname", f.driver_libs.cuda_soname.clone().unwrap_or_default())
                    .fix("Remove the cuda-compat folder from LD_LIBRARY_PATH unless forward compatibility is intended.", &["echo $LD_LIBRARY_PATH"])];
            }
        }
        return Vec::new();
    }
    let loaded = f
        .driver_libs
        .cuda_soname
        .clone()
        .unwrap_or_else(|| "libcuda.so.1".into());
    let kernel = f
        .kernel_module
        .version
        .value()
        .cloned()
        .unwrap_or_else(|| "unknown".into());
    vec![id.finding(Severity::Fail, "CUDA reports a driver mismatch (803): the libcuda in use does not match the kernel module")
        .details(format!(
            "cuInit returned CUDA_ERROR_SYSTEM_DRIVER_MISMATCH: the libcuda being loaded ({loaded}{}) and the kernel module \
             ({kernel}) are from incompatible releases. This is usually a stale cuda-compat package or a second driver's \
             libraries first on LD_LIBRARY_PATH.",
            compat_version.map_or(String::new(), |v| format!(", version {v}"))
        ))
        .evidence("driver_api.cuda.init", "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803)")
        .evidence("driver_libs.cuda_soname", &loaded)
        .evidence("kernel_module.version", &kernel)
        .fix(
            "Make the driver's own libcuda load: remove the cuda-compat folder from LD_LIBRARY_PATH (or uninstall the \
             cuda-compat package), or install the compat package built for this driver branch.",
            &["echo $LD_LIBRARY_PATH", "ldconfig -p | grep libcuda.so"],
        )]
}

pub const DRIVER_FORWARD_COMPAT_UNSUPPORTED: Check = Check {
    id: "driver.forward_compat_unsupported",
    name: "driver.forward_compat",
    area: Area::Driver,
    title: "forward compatibility is used only where supported (no CUDA error 804)",
    failing: "`cuInit` returned 804 (forward compatibility on an unsupported GPU)",
    why: "Forward compatibility works only on datacenter GPUs; elsewhere cuInit fails with 804.",
    next_step: "Remove the cuda-compat package and upgrade the driver instead.",
    action: Action::FixSoftware,
    reads: &["driver_libs", "driver_api"],
    not_in_paste: Some(PasteGap {
        what: "cuInit's result",
        how: "`gpu-doctor` on the machine",
    }),
    run: forward_compat_unsupported,
};

pub fn forward_compat_unsupported(ctx: &Ctx) -> Vec<Finding> {
    let f = ctx.facts;
    if cuinit_code(f) != Some(cu_code::COMPAT_NOT_SUPPORTED_ON_DEVICE) {
        return Vec::new();
    }
    vec![DRIVER_FORWARD_COMPAT_UNSUPPORTED.finding(Severity::Fail, "CUDA forward compatibility is not supported on this GPU (804)")
        .details(
            "cuInit returned CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE: a cuda-compat libcuda is loaded, but forward \
             compatibility works only on datacenter GPUs (and a few Jetson/workstation products), not GeForce.",
        )
        .evidence("driver_api.cuda.init", "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE (804)")
        .evidence("driver_libs.cuda_soname", f.driver_libs.cuda_soname.clone().unwrap_or_default())
        .fix(
            "Stop loading the cuda-compat libcuda (remove it from LD_LIBRARY_PATH or uninstall cuda-compat) and upgrade \
             the driver itself to one that supports the CUDA version you need.",
            &["echo $LD_LIBRARY_PATH"],
        )]
}

pub const DRIVER_DEVICE_NODES: Check = Check {
    id: "driver.device_nodes",
    name: "driver.device_nodes",
    area: Area::Driver,
    title: "/dev/nvidia* exist and are accessible",
    failing: "`/dev/nvidia*` missing or not accessible to the current user",
    why: "CUDA opens /dev/nvidia*; missing or unreadable nodes hide the GPUs from this user.",
    next_step: "Create the nodes (`nvidia-modprobe`) or add the user to the group that owns them.",
    action: Action::FixSoftware,
    reads: &["system", "pci_gpus", "kernel_module", "driver_api"],
    not_in_paste: Some(PasteGap {
        what: "/dev/nvidia* and their permissions",
        how: "`ls -l /dev/nvidia*`",
    }),
    run: device_nodes,
};

pub fn device_nodes(ctx: &Ctx) -> Vec<Finding> {
    let f = ctx.facts;
    let id = &DRIVER_DEVICE_NODES;
    let Some(nodes) = f.kernel_module.device_nodes.value() else {
        return Vec::new();
    };
    // A directory or FIFO where a character device belongs (Docker creates an empty
    // directory for a bind-mounted device that did not exist) is broken whatever else holds.
    let wrong: Vec<(&crate::facts::kernel_module::DeviceNode, &str)> = nodes
        .iter()
        .filter_map(|n| wrong_node_kind(&n.mode).map(|k| (n, k)))
        .collect();
    if !wrong.is_empty() {
        let mut finding = id.finding(Severity::Fail,
            format!(
                "{} is {}, not a character device",
                wrong[0].0.path, wrong[0].1
            ),
        )
        .details(
            "CUDA and NVML open /dev/nvidia* as character devices of the driver. A directory there is what Docker \
             leaves when it bind-mounts a device path that did not exist on the host; a FIFO or socket is a \
             leftover of something else. Neither reaches the GPU.",
        );
        for (n, kind) in &wrong {
            finding = finding.evidence(
                "kernel_module.device_nodes",
                format!("{} {} ({kind})", n.path, n.mode),
            );
        }
        return vec![finding.fix(
            "Remove the impostor and let the driver create the node (nvidia-modprobe or udev); in a container, start it \
             with the GPUs through the NVIDIA runtime or CDI instead of bind-mounting /dev paths.",
            &["ls -ld /dev/nvidia*", "sudo nvidia-modprobe -c=0 -u"],
        )];
    }
    let answers = evidence::driver_answers(f);
    if f.system.wsl || evidence::tegra(f) || !(view::module_loaded(f) || answers.observed_as(true))
    {
        // WSL2 uses /dev/dxg, Jetson /dev/nvhost-*; without a driver the nodes mean nothing.
        return Vec::new();
    }
    if view::in_container(f).is_some() && view::gpu_device_nodes(f) == 0 {
        return Vec::new(); // host.container_no_gpu
    }
    let denied: Vec<&crate::facts::kernel_module::DeviceNode> =
        nodes.iter().filter(|n| !n.accessible).collect();
    if !denied.is_empty() {
        let mut finding = id.finding(Severity::Fail, format!("{} NVIDIA device node{} not accessible to this user", denied.len(), super::host::plural(denied.len())))
            .details("CUDA and NVML open these nodes read-write; without access every CUDA call fails with 'no CUDA-capable device' or NVML 'Insufficient Permissions'.");
        for n in &denied {
            finding = finding.evidence(
                "kernel_module.device_nodes",
                format!("{} {}", n.path, n.mode),
            );
        }
        return vec![finding.fix(
            "Add the user to the group that owns the nodes (then log in again), or fix the driver's device file mode (NVreg_DeviceFileMode/udev).",
            &["ls -l /dev/nvidia*", "sudo usermod -aG video $USER"],
        )];
    }
    let has_ctl = nodes.iter().any(|n| n.path == "/dev/nvidiactl");
    let gpu_nodes = view::gpu_device_nodes(f);
    // Observed counts first: inside a container sysfs lists every GPU of the host while
    // only the ones given to the container have nodes.
    let counts = evidence::gpu_counts(f);
    let expected = match (counts.nvml, view::in_container(f)) {
        (Some(n), _) => n,
        (None, Some(_)) => 0,
        (None, None) => counts.pci.unwrap_or(0),
    };
    if !has_ctl || gpu_nodes < expected {
        return vec![id.finding(Severity::Warn, format!(
            "Device nodes incomplete: {}{gpu_nodes} of {expected} /dev/nvidiaN",
            if has_ctl { "" } else { "no /dev/nvidiactl, " }
        ))
        .details("The nodes are normally created by nvidia-modprobe or udev when CUDA first starts; missing nodes that stay missing make CUDA see fewer GPUs.")
        .fix("Create the nodes (as root) and check the udev rules of the driver package.", &["sudo nvidia-modprobe -c=0 -u", "ls -l /dev/nvidia*"])];
    }
    vec![id.finding(
        Severity::Pass,
        format!(
            "{gpu_nodes} GPU device node{} and /dev/nvidiactl accessible",
            super::host::plural(gpu_nodes)
        ),
    )]
}

/// The kind of file an `ls -l` mode string names when it is not a device: "a directory",
/// "a FIFO", "a socket", "a symbolic link". Regular files pass (fixture roots use them).
fn wrong_node_kind(mode: &str) -> Option<&'static str> {
    match mode.chars().next()? {
        'd' => Some("a directory"),
        'p' => Some("a FIFO"),
        's' => Some("a socket"),
        'l' => Some("a dangling symbolic link"),
        _ => None,
    }
}

pub const DRIVER_STUB_LIBRARY: Check = Check {
    id: "driver.stub_library",
    name: "driver.libcuda_stub",
    area: Area::Driver,
    title: "the first libcuda.so on the library path is the driver's, not the toolkit's stub",
    failing: "the CUDA toolkit's stub `libcuda.so` (`lib64/stubs`) is the first `libcuda.so` on the library path: programs loading that name get CUDA_ERROR_STUB_LIBRARY (34)",
    why: "Programs that load the unversioned libcuda.so get the stub, whose every call fails, and report that CUDA is unavailable.",
    next_step: "Take the toolkit's stubs folder out of LD_LIBRARY_PATH and the loader's configuration; link against it at build time only.",
    action: Action::FixSoftware,
    reads: &["driver_libs", "driver_api"],
    not_in_paste: Some(PasteGap {
        what: "the libcuda.so the loader finds first",
        how: "`echo $LD_LIBRARY_PATH` and `ldconfig -p | grep libcuda`",
    }),
    run: stub_library,
};

/// driver.stub_library: the toolkit's stub libcuda.so is the first libcuda.so on the
/// loader's path (a program loading the unversioned name gets error 34).
pub fn stub_library(ctx: &Ctx) -> Vec<Finding> {
    let f = ctx.facts;
    if let Some(finding) = stub_loaded(f) {
        return vec![finding];
    }
    let Some(stub) = f.driver_libs.cuda_stub.as_deref() else {
        return Vec::new();
    };
    let folder = std::path::Path::new(stub)
        .parent()
        .map_or_else(|| stub.to_string(), |p| p.display().to_string());
    let real = f.driver_libs.cuda_soname.as_deref();
    let mut finding = DRIVER_STUB_LIBRARY
        .finding(
            Severity::Warn,
            format!("the CUDA toolkit's stub libcuda.so is on the library path before the driver's ({stub})"),
        )
        .details(format!(
        "The stub exists only to link against; every call into it fails with CUDA_ERROR_STUB_LIBRARY (34). PyTorch and the CUDA runtime load libcuda.so.1{} and work, but tools that load the unversioned libcuda.so (cudarc-based programs, some JIT compilers and launchers) get the stub and report that CUDA is unavailable.",
        real.map_or(String::new(), |r| format!(" ({r})"))
    ))
    .evidence("driver_libs.cuda_stub", stub);
    if let Some(r) = real {
        finding = finding.evidence("driver_libs.cuda_soname", r);
    }
    vec![finding.fix_owned(
        format!("Take {folder} out of LD_LIBRARY_PATH (and out of /etc/ld.so.conf.d, then run ldconfig); link against the stub at build time only (-L{folder})."),
        vec!["echo $LD_LIBRARY_PATH".to_string(), "grep -rn stubs /etc/ld.so.conf /etc/ld.so.conf.d/".to_string()],
    )]
}

/// The stub is what `libcuda.so.1` itself loads: cuInit answered CUDA_ERROR_STUB_LIBRARY
/// (34), or the soname resolves into a `stubs` folder. Every program fails then, PyTorch
/// too. Seen on a real H100 with a `libcuda.so.1` link to the toolkit's stub first on
/// LD_LIBRARY_PATH: the driver's answer names the cause, so no reboot is suggested.
fn stub_loaded(f: &crate::facts::Facts) -> Option<Finding> {
    let cuinit_34 = view::cuda(f).is_some_and(|c| c.init.code == 34);
    let soname = f.driver_libs.cuda_soname.as_deref();
    let soname_stub = soname.filter(|p| crate::facts::driver_libs::is_stub(p));
    if !cuinit_34 && soname_stub.is_none() {
        return None;
    }
    let mut finding = DRIVER_STUB_LIBRARY
        .finding(
            Severity::Fail,
            match soname_stub {
                Some(p) => format!("libcuda.so.1 on the library path is the CUDA toolkit's stub ({p}), not the driver's"),
                None => "libcuda.so.1 as loaded is the CUDA toolkit's stub: cuInit answered CUDA_ERROR_STUB_LIBRARY (34)".to_string(),
            },
        )
        .details("The stub exists only to link against; every call into it fails with CUDA_ERROR_STUB_LIBRARY (34), so no CUDA program, PyTorch included, can use the GPU, although the driver and the GPU are fine. A folder on LD_LIBRARY_PATH (or in /etc/ld.so.conf.d) holds a libcuda.so.1 that is, or links to, the toolkit's lib64/stubs/libcuda.so.");
    if cuinit_34 {
        finding = finding.evidence("driver_api.cuda.init", "CUDA_ERROR_STUB_LIBRARY (34)");
    }
    if let Some(p) = soname {
        finding = finding.evidence("driver_libs.cuda_soname", p);
    }
    Some(finding.fix_owned(
        "Remove the folder whose libcuda.so.1 is the stub from LD_LIBRARY_PATH (or from /etc/ld.so.conf.d, then run ldconfig), or delete that link; the driver's libcuda.so.1 is then found.",
        vec![
            "echo $LD_LIBRARY_PATH".to_string(),
            r#"for d in ${LD_LIBRARY_PATH//:/ }; do ls -l "$d"/libcuda.so* 2>/dev/null; done"#.to_string(),
            "ldconfig -p | grep libcuda.so.1".to_string(),
        ],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::testutil::*;
    use crate::facts::driver_libs::DriverLibFacts;

    fn with_cuinit(code_num: i64, name: &str) -> crate::facts::Facts {
        let mut f = healthy();
        if let Fact::Known { value } = &mut f.driver_api.cuda {
            value.init = code(name, code_num);
        }
        f
    }

    /// No module loaded, and the driver says so: NVML "driver not loaded", cuInit "no device".
    fn no_module(mut f: crate::facts::Facts) -> crate::facts::Facts {
        f.kernel_module.version = Fact::missing("/proc/driver/nvidia/version does not exist");
        f.kernel_module.loaded = Fact::known(Vec::new());
        if let Fact::Known { value } = &mut f.driver_api.nvml {
            value.init = code("NVML_ERROR_DRIVER_NOT_LOADED", 9);
            value.devices = Fact::missing("nvmlInit failed");
        }
        if let Fact::Known { value } = &mut f.driver_api.cuda {
            value.init = code("CUDA_ERROR_NO_DEVICE", 100);
            value.device_count = Fact::missing("cuInit failed");
        }
        f
    }

    /// /proc/driver/nvidia hidden (gVisor, WSL2) while NVML and cuInit work.
    fn hidden_proc(mut f: crate::facts::Facts) -> crate::facts::Facts {
        f.kernel_module.version = Fact::missing("/proc/driver/nvidia/version does not exist");
        f.kernel_module.loaded = Fact::known(Vec::new());
        f
    }

    /// The stub loaded as libcuda.so.1 (real H100, 2026-11-24): cuInit's 34 alone, or the
    /// soname resolving into `stubs`, is a failure that names the stub.
    #[test]
    fn the_stub_loaded_as_the_soname_fails() {
        let by_answer = with_cuinit(34, "CUDA_ERROR_STUB_LIBRARY");
        let out = run(stub_library, &by_answer);
        assert_eq!(only(&out), Severity::Fail);
        assert!(
            out[0].summary.contains("CUDA_ERROR_STUB_LIBRARY (34)"),
            "{}",
            out[0].summary
        );

        let mut by_path = healthy();
        by_path.driver_libs.cuda_soname =
            Some("/usr/local/cuda-13.0/targets/x86_64-linux/lib/stubs/libcuda.so".into());
        let out = run(stub_library, &by_path);
        assert_eq!(only(&out), Severity::Fail);
        assert!(
            out[0].summary.contains("/stubs/libcuda.so"),
            "{}",
            out[0].summary
        );

        assert!(run(stub_library, &healthy()).is_empty());
        assert!(run(stub_library, &with_cuinit(999, "CUDA_ERROR_UNKNOWN")).is_empty());
    }

    #[test]
    fn observation_outranks_a_missing_proc_entry() {
        let f = hidden_proc(healthy());
        let out = run(module_not_loaded, &f);
        assert_eq!(only(&out), Severity::Info);
        assert!(out[0]
            .summary
            .contains("NVML works although /proc/driver/nvidia is absent"));
        assert!(out[0].fix.is_none());
        assert!(out[0]
            .evidence
            .iter()
            .any(|e| e.value.starts_with("overruled")));
        assert_eq!(only(&run(not_installed, &f)), Severity::Pass);
        // The nodes are still judged: the driver runs.
        assert_eq!(only(&run(device_nodes, &f)), Severity::Pass);
        let mut w = hidden_proc(healthy());
        w.system.wsl = true;
        assert_eq!(only(&run(module_not_loaded, &w)), Severity::Pass);
        assert!(run(device_nodes, &w).is_empty());
    }

    #[test]
    fn wsl_without_windows_driver_points_to_windows() {
        let mut f = no_module(no_gpu());
        f.system.wsl = true;
        f.pci_gpus = Fact::known(Vec::new());
        let out = run(not_installed, &f);
        assert_eq!(only(&out), Severity::Fail);
        let fix = out[0].fix.as_ref().unwrap();
        assert!(fix.text.contains("Windows"));
        assert!(fix
            .commands
            .iter()
            .all(|c| !crate::checks::evidence::is_host_only_command(c)));
        assert!(run(module_not_loaded, &f).is_empty());
    }

    #[test]
    fn unloadable_libraries_are_failures() {
        let mut f = healthy();
        f.driver_api.nvml =
            Fact::unsupported("libnvidia-ml.so.1 has no nvmlInit_v2: undefined symbol");
        f.driver_api.cuda = Fact::missing("libcuda could not be loaded: invalid ELF header");
        let out = run(nvml_failed, &f);
        assert_eq!(only(&out), Severity::Fail);
        assert!(out[0].details.contains("nvmlInit_v2"));
        assert_eq!(only(&run(cuda_init_failed, &f)), Severity::Fail);
        // A fixture root never asked the driver: nothing to judge.
        f.driver_api.nvml = Fact::missing(crate::facts::driver_api::FIXTURE_SKIP);
        assert!(run(nvml_failed, &f).is_empty());
    }

    #[test]
    fn count_failures_after_init_are_failures() {
        let mut f = healthy();
        if let Fact::Known { value } = &mut f.driver_api.cuda {
            value.device_count = Fact::failed("cuDeviceGetCount: CUDA_ERROR_UNKNOWN (999)");
        }
        if let Fact::Known { value } = &mut f.driver_api.nvml {
            value.devices = Fact::failed("nvmlDeviceGetCount_v2: Unknown Error");
        }
        assert_eq!(only(&run(cuda_init_failed, &f)), Severity::Fail);
        assert_eq!(only(&run(nvml_failed, &f)), Severity::Fail);
    }

    #[test]
    fn directories_and_fifos_are_not_device_nodes() {
        for (mode, kind) in [
            ("drwxr-xr-x root:root", "a directory"),
            ("prw-rw-rw- root:root", "a FIFO"),
        ] {
            let mut f = healthy();
            if let Fact::Known { value } = &mut f.kernel_module.device_nodes {
                value[1].mode = mode.into();
            }
            let out = run(device_nodes, &f);
            assert_eq!(only(&out), Severity::Fail, "{mode}");
            assert!(out[0].summary.contains(kind), "{}", out[0].summary);
        }
    }

    #[test]
    fn not_installed_cases() {
        assert_eq!(only(&run(not_installed, &healthy())), Severity::Pass);
        assert_eq!(only(&run(not_installed, &no_gpu())), Severity::Info);
        let mut f = no_gpu();
        f.pci_gpus = healthy().pci_gpus;
        let out = run(not_installed, &f);
        assert_eq!(only(&out), Severity::Fail);
        assert_eq!(
            out[0].fix.as_ref().unwrap().commands[0],
            "sudo ubuntu-drivers install"
        );
        f.system.os_id = Fact::known("fedora".into());
        assert_eq!(
            run(not_installed, &f)[0].fix.as_ref().unwrap().commands[0],
            "sudo dnf install akmod-nvidia"
        );
    }

    #[test]
    fn module_not_loaded_with_user_space_present() {
        let f = no_module(healthy());
        let out = run(module_not_loaded, &f);
        assert_eq!(only(&out), Severity::Fail);
        assert!(out[0]
            .fix
            .as_ref()
            .unwrap()
            .commands
            .contains(&"sudo modprobe nvidia".to_string()));
        assert_eq!(only(&run(module_not_loaded, &healthy())), Severity::Pass);
        // Nothing installed: that is driver.not_installed's finding.
        assert!(run(module_not_loaded, &no_module(no_gpu())).is_empty());
        // nouveau holding the GPU is the more specific cause.
        let mut g = no_module(healthy());
        g.kernel_module.loaded = Fact::known(vec!["nouveau".into()]);
        assert!(run(module_not_loaded, &g).is_empty());
        assert_eq!(only(&run(nouveau_loaded, &g)), Severity::Fail);
    }

    #[test]
    fn nouveau_by_module_or_pci_binding() {
        let mut f = healthy();
        assert_eq!(only(&run(nouveau_loaded, &f)), Severity::Pass);
        if let Fact::Known { value } = &mut f.pci_gpus {
            value[0].driver = Some("nouveau".into());
        }
        let out = run(nouveau_loaded, &f);
        assert_eq!(only(&out), Severity::Fail);
        assert!(out[0]
            .fix
            .as_ref()
            .unwrap()
            .commands
            .iter()
            .any(|c| c == "sudo update-initramfs -u"));
        assert!(run(nouveau_loaded, &no_gpu()).is_empty());
    }

    #[test]
    fn library_mismatch_from_files() {
        let mut f = healthy();
        assert_eq!(only(&run(library_mismatch, &f)), Severity::Pass);
        let dir = "/usr/lib/x86_64-linux-gnu";
        f.driver_libs = DriverLibFacts {
            searched: vec![dir.into()],
            files: vec![
                lib("libnvidia-ml", "535.183.01", dir, false),
                lib("libcuda", "535.183.01", dir, false),
            ],
            nvml_soname: Some(format!("{dir}/libnvidia-ml.so.535.183.01")),
            cuda_soname: Some(format!("{dir}/libcuda.so.535.183.01")),
            cuda_stub: None,
        };
        // What a real upgrade without a reboot looks like: the driver refuses too.
        f.driver_api.nvml = Fact::missing("worker not reached");
        f.driver_api.cuda = Fact::missing("worker not reached");
        let out = run(library_mismatch, &f);
        assert_eq!(only(&out), Severity::Fail);
        assert!(out[0].details.contains(DRIVER));
        assert!(out[0].details.contains("535.183.01"));
        assert!(out[0]
            .fix
            .as_ref()
            .unwrap()
            .commands
            .contains(&"sudo reboot".to_string()));
    }

    #[test]
    fn library_files_overruled_by_a_working_driver() {
        let mut f = healthy();
        let dir = "/usr/lib/x86_64-linux-gnu";
        f.driver_libs.files = vec![lib("libnvidia-ml", "535.183.01", dir, false)];
        f.driver_libs.nvml_soname = Some(format!("{dir}/libnvidia-ml.so.535.183.01"));
        // NVML initialised: it checked its own version against the module.
        let out = run(library_mismatch, &f);
        assert_eq!(only(&out), Severity::Warn);
        assert!(out[0]
            .evidence
            .iter()
            .any(|e| e.value.starts_with("overruled")));
        assert!(!out[0]
            .fix
            .as_ref()
            .unwrap()
            .commands
            .iter()
            .any(|c| c.contains("reboot")));
        // Without the observation the files decide.
        f.driver_api.nvml = Fact::missing("not reached");
        assert_eq!(only(&run(library_mismatch, &f)), Severity::Fail);
    }

    #[test]
    fn nouveau_without_a_gpu_while_nvidia_answers_is_info() {
        let mut f = healthy();
        f.kernel_module.loaded = Fact::known(vec!["nvidia".into(), "nouveau".into()]);
        assert_eq!(only(&run(nouveau_loaded, &f)), Severity::Info);
        f.driver_api.nvml = Fact::missing("not reached");
        f.driver_api.cuda = Fact::missing("not reached");
        assert_eq!(only(&run(nouveau_loaded, &f)), Severity::Fail);
    }

    #[test]
    fn library_mismatch_from_nvml_alone_and_not_twice() {
        let mut f = healthy();
        f.kernel_module.version = Fact::missing("unreadable");
        if let Fact::Known { value } = &mut f.driver_api.nvml {
            value.init = code("NVML_ERROR_LIB_RM_VERSION_MISMATCH", 18);
        }
        assert_eq!(only(&run(library_mismatch, &f)), Severity::Fail);
        // nvml_failed and cuda_init_failed leave it to library_mismatch.
        assert!(run(nvml_failed, &f).is_empty());
        if let Fact::Known { value } = &mut f.driver_api.cuda {
            value.init = code("CUDA_ERROR_OPERATING_SYSTEM", 304);
        }
        assert!(run(cuda_init_failed, &f).is_empty());
    }

    #[test]
    fn nvml_failures_are_decoded() {
        let mut f = healthy();
        assert_eq!(only(&run(nvml_failed, &f)), Severity::Pass);
        if let Fact::Known { value } = &mut f.driver_api.nvml {
            value.init = code("NVML_ERROR_NO_PERMISSION", 4);
        }
        let out = run(nvml_failed, &f);
        assert_eq!(only(&out), Severity::Fail);
        assert!(out[0].summary.contains("NVML_ERROR_NO_PERMISSION (4)"));
        f.driver_api.nvml = Fact::Failed {
            error: "timed out after 30s".into(),
            command: None,
            stderr_tail: Some("".into()),
        };
        let out = run(nvml_failed, &f);
        assert_eq!(only(&out), Severity::Fail);
        assert!(out[0].details.contains("timed out after 30s"));
        f.driver_api.nvml = Fact::missing("libnvidia-ml.so.1 not found");
        f.driver_libs.nvml_soname = None;
        assert!(run(nvml_failed, &f).is_empty());
    }

    #[test]
    fn cuinit_codes_map_to_specific_ids() {
        let cases = [
            (802, "CUDA_ERROR_SYSTEM_NOT_READY", "driver.fabric_manager"),
            (
                803,
                "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
                "driver.compat_package_mismatch",
            ),
            (
                804,
                "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
                "driver.forward_compat_unsupported",
            ),
            (999, "CUDA_ERROR_UNKNOWN", "driver.uvm_unavailable"),
            (
                304,
                "CUDA_ERROR_OPERATING_SYSTEM",
                "driver.cuda_init_failed",
            ),
        ];
        let checks: [fn(&Ctx) -> Vec<Finding>; 5] = [
            fabric_manager,
            compat_package_mismatch,
            forward_compat_unsupported,
            uvm_unavailable,
            cuda_init_failed,
        ];
        for (num, name, want) in cases {
            let f = with_cuinit(num, name);
            let failed: Vec<String> = checks
                .iter()
                .flat_map(|c| run(*c, &f))
                .filter(|x| x.severity == Severity::Fail)
                .map(|x| x.id)
                .collect();
            assert_eq!(failed, vec![want.to_string()], "cuInit {num}");
        }
        assert_eq!(only(&run(cuda_init_failed, &healthy())), Severity::Pass);
    }

    #[test]
    fn no_device_is_left_to_visible_devices() {
        let mut f = with_cuinit(100, "CUDA_ERROR_NO_DEVICE");
        assert_eq!(only(&run(cuda_init_failed, &f)), Severity::Fail);
        f.env.insert("CUDA_VISIBLE_DEVICES".into(), "".into());
        assert!(run(cuda_init_failed, &f).is_empty());
    }

    #[test]
    fn uvm_missing_without_cuda_is_a_warning() {
        let mut f = healthy();
        f.driver_api.cuda = Fact::missing("not reached");
        f.kernel_module.loaded = Fact::known(vec!["nvidia".into()]);
        if let Fact::Known { value } = &mut f.kernel_module.device_nodes {
            value.retain(|n| n.path != "/dev/nvidia-uvm");
        }
        assert_eq!(only(&run(uvm_unavailable, &f)), Severity::Warn);
        assert_eq!(only(&run(uvm_unavailable, &healthy())), Severity::Pass);
    }

    #[test]
    fn compat_libcuda_without_cuinit_is_a_warning() {
        let mut f = healthy();
        f.driver_api.cuda = Fact::missing("not reached");
        let compat = "/usr/local/cuda-12.8/compat";
        f.driver_libs
            .files
            .push(lib("libcuda", "570.124.06", compat, true));
        f.driver_libs.cuda_soname = Some(format!("{compat}/libcuda.so.570.124.06"));
        assert_eq!(only(&run(compat_package_mismatch, &f)), Severity::Warn);
        // The compat libcuda differing from the module is not a library mismatch.
        assert_eq!(only(&run(library_mismatch, &f)), Severity::Pass);
    }

    #[test]
    fn device_node_access() {
        let mut f = healthy();
        assert_eq!(only(&run(device_nodes, &f)), Severity::Pass);
        if let Fact::Known { value } = &mut f.kernel_module.device_nodes {
            value[1].accessible = false;
            value[1].mode = "crw-rw---- root:video".into();
        }
        let out = run(device_nodes, &f);
        assert_eq!(only(&out), Severity::Fail);
        assert!(out[0]
            .evidence
            .iter()
            .any(|e| e.value.contains("/dev/nvidia0")));
        let mut g = healthy();
        if let Fact::Known { value } = &mut g.kernel_module.device_nodes {
            value.retain(|n| n.path != "/dev/nvidia0");
        }
        assert_eq!(only(&run(device_nodes, &g)), Severity::Warn);
        assert!(run(device_nodes, &no_module(healthy())).is_empty());
    }
}
