//! driver.*: kernel module, user-space libraries, NVML and cuInit, and the device
//! nodes. The most specific cause wins: a library mismatch is not also reported as a
//! generic NVML failure.

use super::catalogue::{Action, Area, Check, PasteGap};
use super::view::{self, OsFamily};
use super::Ctx;
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
    if view::in_container(f).is_some() && !view::user_space_present(f) && view::has_gpu(f) {
        // Inside a container the driver comes from the host: host.container_no_gpu covers it.
        return Vec::new();
    }
    if view::module_loaded(f) || view::user_space_present(f) {
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
        Fact::Missing { .. } | Fact::Unsupported { .. } => Vec::new(),
    }
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
        Fact::Missing { .. } | Fact::Unsupported { .. } => Vec::new(),
    }
}

fn cuinit_code(f: &crate::facts::Facts) -> Option<i64> {
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
    if !view::module_loaded(f) {
        return Vec::new();
    }
    let Some(nodes) = f.kernel_module.device_nodes.value() else {
        return Vec::new();
    };
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
    let expected = view::pci_gpu_count(f)
        .unwrap_or(0)
        .max(view::nvml_devices(f).len());
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

    fn no_module(mut f: crate::facts::Facts) -> crate::facts::Facts {
        f.kernel_module.version = Fact::missing("/proc/driver/nvidia/version does not exist");
        f.kernel_module.loaded = Fact::known(Vec::new());
        f
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
        };
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
