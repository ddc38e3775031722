//! driver.* judgements that need the matrix: is the driver new enough for the CUDA that
//! the toolkits and PyTorch builds were built with, does it drive these GPUs, is its
//! kernel module the right flavour, is its branch still supported.

use super::catalogue::{Action, Area, Check, PasteGap};
use super::view::{self, GpuCc};
use super::Ctx;
use crate::facts::python::{PythonEnv, TorchBuild};
use crate::finding::{Finding, FixOption, Scope, Severity};
use crate::matrix::query::{install_command, platform_of, DriverFit};
use crate::version::DottedVersion;

/// Something that needs a CUDA version from the driver.
#[derive(Clone)]
pub struct CudaUser<'a> {
    pub what: String,
    pub cuda: String,
    pub scope: Scope,
    pub torch: Option<(&'a PythonEnv, &'a TorchBuild)>,
    /// True for the toolkit that nvcc on PATH or CUDA_HOME selects.
    pub active_toolkit: bool,
}

/// Every active torch build (first on each interpreter's path) with its CUDA version.
pub fn torch_builds<'a>(ctx: &Ctx<'a>) -> Vec<CudaUser<'a>> {
    ctx.facts
        .python
        .iter()
        .filter_map(|env| {
            let t = env.torch.first()?;
            let cuda = t.cuda.value()?.clone()?;
            Some(CudaUser {
                what: format!("PyTorch {}", t.version.value().map_or("?", String::as_str)),
                cuda,
                scope: Scope::Python {
                    interpreter: env.interpreter.clone().unwrap_or_else(|| t.path.clone()),
                },
                torch: Some((env, t)),
                active_toolkit: false,
            })
        })
        .collect()
}

pub fn toolkits<'a>(ctx: &Ctx<'a>) -> Vec<CudaUser<'a>> {
    let tk = &ctx.facts.toolkits;
    tk.toolkits
        .iter()
        .filter_map(|t| {
            let v = DottedVersion::parse(t.version.value()?)?;
            let active = tk.path_nvcc.as_deref() == Some(t.root.as_str())
                || tk.cuda_home.as_deref() == Some(t.root.as_str());
            Some(CudaUser {
                what: format!("CUDA toolkit {v} ({})", t.root),
                cuda: format!("{}.{}", v.major(), v.minor()),
                scope: Scope::Toolkit {
                    root: t.root.clone(),
                },
                torch: None,
                active_toolkit: active,
            })
        })
        .collect()
}

/// A fix that installs a driver: runnable commands for the detected distribution, or
/// (inside a container, in WSL, on a distribution without known packages) what to do and
/// where, without commands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DriverFix {
    pub branch: u32,
    /// The release named ("580.65.06"), a real one from the matrix.
    pub version: Option<String>,
    pub text: String,
    pub commands: Vec<String>,
}

/// Whether every GPU present can run the open kernel modules (Turing and newer).
fn open_flavour_possible(ctx: &Ctx) -> bool {
    view::gpu_ccs(ctx.facts, ctx.matrix)
        .iter()
        .all(|g| (g.major, g.minor) >= (7, 5))
}

fn rhel_major(ctx: &Ctx) -> Option<u32> {
    ctx.facts
        .system
        .os_version
        .value()
        .and_then(|v| v.split('.').next()?.parse().ok())
}

/// What installs driver branch `branch` here: (text, commands).
pub fn driver_install(
    ctx: &Ctx,
    branch: u32,
    version: Option<&str>,
    open: bool,
) -> (String, Vec<String>) {
    let b = ctx
        .matrix
        .drivers
        .branch
        .iter()
        .find(|x| x.branch == branch);
    let kind = b
        .and_then(|b| serde_json::to_value(b.kind).ok())
        .and_then(|v| {
            v.as_str()
                .map(|s| s.replace('_', " ").replace("lts", "LTS"))
        })
        .unwrap_or_default();
    let until = b
        .and_then(|b| b.eol.as_deref())
        .map_or(String::new(), |e| format!(", supported until {e}"));
    let what = format!(
        "NVIDIA driver branch R{branch} ({}{kind}{until})",
        version.map_or(String::new(), |v| format!("{v} or newer, "))
    );
    let flavour = if open {
        "open kernel modules"
    } else {
        "proprietary kernel modules (this GPU predates the open ones)"
    };
    if let Some(c) = view::in_container(ctx.facts) {
        return (
            format!(
                "On the host, not in this {c} container: install {what}, then restart the container. A container \
                 uses the host's kernel module; nothing installed inside it changes the driver."
            ),
            Vec::new(),
        );
    }
    if ctx.facts.system.wsl {
        return (
            format!(
                "In Windows, not inside WSL: install NVIDIA's Windows driver of {what}. WSL2 uses the Windows \
                 driver through /usr/lib/wsl/lib; do not install a Linux driver inside WSL."
            ),
            Vec::new(),
        );
    }
    let pkg_open = if open { "nvidia-open" } else { "cuda-drivers" };
    match view::os_family(ctx.facts) {
        view::OsFamily::Ubuntu | view::OsFamily::Debian => (
            format!(
                "Install {what} with the {flavour} from NVIDIA's CUDA repository (cuda-keyring): pin the branch, \
                 install, reboot."
            ),
            vec![
                format!("sudo apt install nvidia-driver-pinning-{branch}"),
                format!("sudo apt install {pkg_open}"),
                "sudo reboot".into(),
            ],
        ),
        view::OsFamily::Rhel if rhel_major(ctx).is_none_or(|m| m < 10) => (
            format!(
                "Install {what} with the {flavour} from NVIDIA's CUDA repository: select the branch's module \
                 stream, install, reboot."
            ),
            vec![
                format!(
                    "sudo dnf module enable nvidia-driver:{branch}-{}",
                    if open { "open" } else { "dkms" }
                ),
                format!("sudo dnf install {pkg_open}"),
                "sudo reboot".into(),
            ],
        ),
        view::OsFamily::Rhel | view::OsFamily::Fedora => (
            format!(
                "Install {what} with the {flavour} from NVIDIA's CUDA repository: lock the branch, install, reboot."
            ),
            vec![
                format!("sudo dnf versionlock add '*nvidia*{branch}*'"),
                format!("sudo dnf install {pkg_open}"),
                "sudo reboot".into(),
            ],
        ),
        _ => (
            format!(
                "Install {what} with the {flavour}: from your distribution's NVIDIA packages of that branch or \
                 NVIDIA's driver installation guide for this distribution, then reboot."
            ),
            Vec::new(),
        ),
    }
}

/// The driver to install for finding `id` at `scope`, proven by the fix closure: the
/// user's own branch when a newer release of it is what is needed, else the newest
/// supported (production or LTS, not past end of life) branch whose release closes the
/// finding without a new failure. `needed`: the lowest driver the finding asks for.
pub fn driver_fix(
    ctx: &Ctx,
    id: &str,
    scope: &Scope,
    needed: Option<&DottedVersion>,
) -> Option<DriverFix> {
    use crate::matrix::schema::BranchKind;
    let current = view::driver_version(ctx.facts);
    let open = open_flavour_possible(ctx);
    let mut candidates: Vec<(u32, Option<String>)> = Vec::new();
    if let (Some(cur), Some(need)) = (&current, needed) {
        if cur.major() == need.major() {
            if let Some(b) = ctx.matrix.branch(cur) {
                if !ctx.matrix.branch_past_eol(b) {
                    candidates.push((b.branch, Some(need.to_string())));
                }
            }
        }
    }
    let mut supported: Vec<_> = ctx
        .matrix
        .drivers
        .branch
        .iter()
        .filter(|b| matches!(b.kind, BranchKind::Production | BranchKind::Lts))
        .filter(|b| !ctx.matrix.branch_past_eol(b))
        .collect();
    supported.sort_by_key(|b| std::cmp::Reverse(b.branch));
    for b in supported {
        let version = match needed {
            Some(n) if n.major() == u64::from(b.branch) => Some(n.to_string()),
            _ => ctx.matrix.branch_release(b.branch),
        };
        let Some(version) = version else { continue };
        if needed.is_some_and(|n| DottedVersion::parse(&version).is_none_or(|v| v < *n)) {
            continue;
        }
        if !candidates.iter().any(|(br, _)| *br == b.branch) {
            candidates.push((b.branch, Some(version)));
        }
    }
    for (branch, version) in candidates {
        let Some(version) = version else { continue };
        let max_cuda = ctx
            .matrix
            .drivers
            .branch
            .iter()
            .find(|b| b.branch == branch)
            .map(|b| b.max_cuda.clone())
            .unwrap_or_default();
        let change = super::closure::Change::Driver {
            version: version.clone(),
            max_cuda,
            open,
        };
        if super::closure::closes(ctx, id, scope, &change) {
            let (text, commands) = driver_install(ctx, branch, Some(&version), open);
            return Some(DriverFix {
                branch,
                version: Some(version),
                text,
                commands,
            });
        }
    }
    None
}

/// Index of an environment in the facts (by identity).
fn env_index(ctx: &Ctx, env: &PythonEnv) -> Option<usize> {
    ctx.facts.python.iter().position(|e| std::ptr::eq(e, env))
}

/// The torch build to install instead, as a pip command, proven by the fix closure to
/// close finding `id` at `scope`: the user's own series first, then the newest that works.
pub fn torch_advice(
    ctx: &Ctx,
    env: &PythonEnv,
    t: &TorchBuild,
    id: &str,
    scope: &Scope,
) -> Option<String> {
    let cmd = first_closing_torch(ctx, env, t, id, scope, |_| true)?;
    // A CPU-only build of the same version would be kept by pip without it.
    let force = t.cuda.value().is_some_and(Option::is_none);
    Some(if force {
        cmd.replace(" -m pip install ", " -m pip install --force-reinstall ")
    } else {
        cmd
    })
}

/// A torch build of the same release series (else any) for CUDA `cuda` (major.minor), proven
/// by the fix closure.
pub fn torch_advice_for_cuda(
    ctx: &Ctx,
    env: &PythonEnv,
    t: &TorchBuild,
    id: &str,
    scope: &Scope,
    cuda: &DottedVersion,
) -> Option<String> {
    first_closing_torch(ctx, env, t, id, scope, |var| {
        DottedVersion::parse(&var.cuda).is_some_and(|c| c.same_prefix(cuda, 2))
    })
}

/// The pip command of the first matrix candidate (`Matrix::torch_candidates`' order) that
/// `keep` accepts and that the fix closure proves closes `id` at `scope`.
fn first_closing_torch(
    ctx: &Ctx,
    env: &PythonEnv,
    t: &TorchBuild,
    id: &str,
    scope: &Scope,
    keep: impl Fn(&crate::matrix::schema::TorchVariant) -> bool,
) -> Option<String> {
    let idx = env_index(ctx, env)?;
    let ccs: Vec<(u32, u32)> = view::gpu_ccs(ctx.facts, ctx.matrix)
        .iter()
        .map(|g| (g.major, g.minor))
        .collect();
    let driver = view::driver_version(ctx.facts);
    ctx.matrix
        .torch_candidates(
            &ccs,
            driver.as_ref(),
            t.version.value().map(String::as_str),
            platform_of(&ctx.facts.system.arch),
        )
        .into_iter()
        .filter(|(_, var)| keep(var))
        .find_map(|(rel, var)| {
            let cmd = install_command(env.interpreter.as_deref().unwrap_or("python3"), rel, var);
            let version = cmd
                .split("torch==")
                .nth(1)
                .and_then(|r| r.split_whitespace().next())
                .unwrap_or(&rel.version)
                .to_string();
            let change = super::closure::Change::Torch {
                env: idx,
                version,
                variant: Box::new(var.clone()),
            };
            super::closure::closes(ctx, id, scope, &change).then_some(cmd)
        })
}

/// A driver fix and a torch alternative as one fix: runnable commands for the first,
/// the other named in the text.
fn driver_or_torch(
    headline: String,
    driver: Option<DriverFix>,
    torch: Option<String>,
) -> (String, Vec<String>, Vec<FixOption>) {
    let (text, commands) = match (driver, torch) {
        (Some(d), Some(t)) if !d.commands.is_empty() => {
            return (
                format!("{headline} {} Or keep the driver and install a PyTorch build it runs: `{t}`.", d.text),
                d.commands,
                vec![FixOption {
                    title: "Keep the driver and install a PyTorch build it runs.".into(),
                    commands: vec![t],
                    notes: Vec::new(),
                }],
            )
        }
        (Some(d), Some(t)) => (
            format!("{headline} Install a PyTorch build this driver runs (below), or: {}", d.text),
            vec![t],
        ),
        (Some(d), None) => (format!("{headline} {}", d.text), d.commands),
        (None, Some(t)) => (
            format!("{headline} No supported driver branch fixes this without breaking something else; install a PyTorch build this driver runs."),
            vec![t],
        ),
        (None, None) => (
            format!("{headline} No supported driver branch or published PyTorch build in the matrix fixes this without breaking something else."),
            Vec::new(),
        ),
    };
    (text, commands, Vec::new())
}

pub const DRIVER_TOO_OLD_FOR_TORCH: Check = Check {
    id: "driver.too_old_for_torch",
    name: "driver.torch_support",
    area: Area::Driver,
    title: "the driver is new enough for each PyTorch build's CUDA",
    failing: "a PyTorch build's CUDA needs a newer driver; the fix names the driver and the build that would work",
    why: "A PyTorch build's CUDA runtime refuses a driver older than it needs.",
    next_step: "Upgrade the driver, or install the PyTorch build the finding names.",
    action: Action::FixSoftware,
    reads: &["system", "pci_gpus", "kernel_module", "driver_libs", "driver_api", "python", "matrix"],
    not_in_paste: None,
    run: too_old_for_torch,
};

pub fn too_old_for_torch(ctx: &Ctx) -> Vec<Finding> {
    let Some(driver) = view::driver_version(ctx.facts) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for u in torch_builds(ctx) {
        let id = &DRIVER_TOO_OLD_FOR_TORCH;
        match ctx.matrix.driver_fit(&driver, &u.cuda) {
            DriverFit::Full | DriverFit::MinorVersionCompat { .. } => {
                out.push(
                    id.finding(
                        Severity::Pass,
                        format!("Driver {driver} supports {}'s CUDA {}", u.what, u.cuda),
                    )
                    .scope(u.scope),
                );
            }
            DriverFit::TooOld { needed } => {
                let need = DottedVersion::parse(&needed);
                let dfix = driver_fix(ctx, id.id, &u.scope, need.as_ref());
                let tfix = u
                    .torch
                    .and_then(|(env, t)| torch_advice(ctx, env, t, id.id, &u.scope));
                let (text, commands, alternatives) = driver_or_torch(
                    format!("Driver {needed} or newer runs CUDA {}.", u.cuda),
                    dfix,
                    tfix,
                );
                out.push(
                    id.finding(Severity::Fail, format!("Driver {driver} is too old for {} (CUDA {} needs {needed} or newer)", u.what, u.cuda))
                        .scope(u.scope)
                        .details(format!(
                            "A CUDA {} build needs driver {needed} or newer (or, within CUDA {}.x, the minor-version-compatibility floor, \
                             which this driver is below too). torch.cuda.is_available() is False and PyTorch warns \
                             'The NVIDIA driver on your system is too old'.",
                            u.cuda,
                            u.cuda.split('.').next().unwrap_or("")
                        ))
                        .evidence("driver", driver.to_string())
                        .evidence("torch.cuda", &u.cuda)
                        .fix_owned(text, commands)
                        .alternatives(alternatives),
                );
            }
            DriverFit::Unknown => {}
        }
    }
    out
}

pub const DRIVER_TOO_OLD_FOR_TOOLKIT: Check = Check {
    id: "driver.too_old_for_toolkit",
    name: "driver.toolkit_support",
    area: Area::Driver,
    title: "the driver is new enough for each CUDA toolkit",
    failing: "an installed CUDA toolkit needs a newer driver (fail for the toolkit builds use)",
    why: "Programs built with a toolkit need a driver at least as new as its CUDA release.",
    next_step: "Upgrade the driver, or use a toolkit the driver supports.",
    action: Action::FixSoftware,
    reads: &[
        "system",
        "kernel_module",
        "driver_libs",
        "driver_api",
        "toolkits",
        "matrix",
    ],
    not_in_paste: None,
    run: too_old_for_toolkit,
};

pub fn too_old_for_toolkit(ctx: &Ctx) -> Vec<Finding> {
    let Some(driver) = view::driver_version(ctx.facts) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for u in toolkits(ctx) {
        let id = &DRIVER_TOO_OLD_FOR_TOOLKIT;
        match ctx.matrix.driver_fit(&driver, &u.cuda) {
            DriverFit::TooOld { needed } => {
                let dfix = driver_fix(ctx, id.id, &u.scope, DottedVersion::parse(&needed).as_ref());
                let (fix_text, fix_commands) = match dfix {
                    Some(d) => (format!("Driver {needed} or newer runs this toolkit. {} Or use a toolkit of an older CUDA.", d.text), d.commands),
                    None => (format!("Use a toolkit of an older CUDA: no supported driver branch runs CUDA {} on these GPUs without breaking something else.", u.cuda), Vec::new()),
                };
                let severity = if u.active_toolkit {
                    Severity::Fail
                } else {
                    Severity::Warn
                };
                out.push(
                    id.finding(severity, format!("Driver {driver} is too old for {} (needs {needed} or newer)", u.what))
                        .scope(u.scope)
                        .details("Programs built with this toolkit fail to start their CUDA work with 'CUDA driver version is insufficient for CUDA runtime version' (cudaErrorInsufficientDriver, 35).")
                        .evidence("driver", driver.to_string())
                        .fix_owned(fix_text, fix_commands),
                );
            }
            DriverFit::Full | DriverFit::MinorVersionCompat { .. } => {
                out.push(
                    id.finding(
                        Severity::Pass,
                        format!("Driver {driver} supports {}", u.what),
                    )
                    .scope(u.scope),
                );
            }
            DriverFit::Unknown => {}
        }
    }
    out
}

pub const DRIVER_MINOR_VERSION_COMPAT: Check = Check {
    id: "driver.minor_version_compat",
    name: "driver.minor_version_compat",
    area: Area::Driver,
    title: "nothing depends on CUDA minor version compatibility",
    failing:
        "works only through CUDA minor version compatibility (PTX JIT and newer APIs unavailable)",
    why: "Minor version compatibility runs the build but not PTX JIT and some newer APIs.",
    next_step: "Upgrade the driver to the CUDA release's own minimum.",
    action: Action::FixSoftware,
    reads: &[
        "system",
        "kernel_module",
        "driver_libs",
        "driver_api",
        "toolkits",
        "python",
        "matrix",
    ],
    not_in_paste: None,
    run: minor_version_compat,
};

pub fn minor_version_compat(ctx: &Ctx) -> Vec<Finding> {
    let Some(driver) = view::driver_version(ctx.facts) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for u in torch_builds(ctx).into_iter().chain(toolkits(ctx)) {
        if let DriverFit::MinorVersionCompat { needed, floor } =
            ctx.matrix.driver_fit(&driver, &u.cuda)
        {
            let major = u.cuda.split('.').next().unwrap_or("").to_string();
            let limits = DottedVersion::parse(&u.cuda)
                .and_then(|v| ctx.matrix.mvc(v.major()))
                .map(|m| m.limitations.join("; "))
                .unwrap_or_default();
            let id = &DRIVER_MINOR_VERSION_COMPAT;
            let dfix = driver_fix(ctx, id.id, &u.scope, DottedVersion::parse(&needed).as_ref());
            let tfix = u
                .torch
                .and_then(|(env, t)| torch_advice(ctx, env, t, id.id, &u.scope));
            let (fix_text, fix_commands) = match (dfix, tfix) {
                (Some(d), _) => (format!("Driver {needed} or newer lifts the limits. {}", d.text), d.commands),
                (None, Some(t)) => (format!("No supported driver branch that runs CUDA {} also drives every GPU here; install a PyTorch build this driver runs fully.", u.cuda), vec![t]),
                (None, None) => (format!("No supported driver branch that runs CUDA {} fully also drives every GPU here: keep the limits in mind, or use a build of an older CUDA.", u.cuda), Vec::new()),
            };
            out.push(
                id.finding(Severity::Warn, format!("{} (CUDA {}) runs on driver {driver} only through minor version compatibility", u.what, u.cuda))
                    .scope(u.scope)
                    .details(format!(
                        "Driver {driver} is below {needed}, the minimum for CUDA {}, but at or above {floor}, the floor for any CUDA {major}.x. \
                         Most work runs, with limits: {limits}.",
                        u.cuda
                    ))
                    .evidence("driver", driver.to_string())
                    .fix_owned(fix_text, fix_commands),
            );
        }
    }
    out
}

fn driver_branch_line(ctx: &Ctx, driver: &DottedVersion) -> String {
    match ctx.matrix.branch(driver) {
        Some(b) => format!("R{} (max CUDA {})", b.branch, b.max_cuda),
        None => format!(
            "R{} (not in matrix {})",
            driver.major(),
            ctx.matrix.manifest.version
        ),
    }
}

pub const DRIVER_GPU_UNSUPPORTED: Check = Check {
    id: "driver.gpu_unsupported",
    name: "driver.gpu_support",
    area: Area::Driver,
    title: "the driver branch drives every GPU present",
    failing: "the driver branch does not drive a GPU present (dropped it, or too old for it)",
    why: "A driver branch drives only the GPUs of its support list; others are invisible to CUDA.",
    next_step: "Install a driver branch that supports the GPU.",
    action: Action::FixSoftware,
    reads: &[
        "system",
        "pci_gpus",
        "kernel_module",
        "driver_libs",
        "driver_api",
        "matrix",
    ],
    not_in_paste: None,
    run: gpu_unsupported,
};

pub fn gpu_unsupported(ctx: &Ctx) -> Vec<Finding> {
    let Some(driver) = view::driver_version(ctx.facts) else {
        return Vec::new();
    };
    let major = u32::try_from(driver.major()).unwrap_or(u32::MAX);
    // A branch the matrix does not list (R430, R435) drops at least what the nearest listed
    // branch below it dropped: GPUs only ever leave the support lists.
    let branch = ctx.matrix.branch(&driver).or_else(|| {
        ctx.matrix
            .drivers
            .branch
            .iter()
            .filter(|b| b.branch < major)
            .max_by_key(|b| b.branch)
    });
    let mut out = Vec::new();
    for g in view::gpu_ccs(ctx.facts, ctx.matrix) {
        let id = &DRIVER_GPU_UNSUPPORTED;
        let arch = ctx.matrix.arch(&g.cc());
        let too_old_gpu = branch
            .and_then(|b| DottedVersion::parse(&b.min_cc))
            .is_some_and(|min| DottedVersion::parse(&g.cc()).is_some_and(|cc| cc < min))
            || arch
                .and_then(|a| a.last_driver_branch)
                .is_some_and(|last| major > last);
        let too_new_gpu = arch
            .and_then(|a| a.min_driver_branch)
            .is_some_and(|min| major < min);
        let name = arch.map_or("", |a| a.name.as_str());
        // Observation beats inference: a driver that does not drive a chip does not
        // enumerate it ('No devices were found'); when NVML lists this GPU, the driver
        // evidently drives it, whatever the matrix says.
        // (A copy of the facts with a fix applied carries the old enumeration, which is
        // no observation of the new driver: there the matrix decides.)
        if (too_old_gpu || too_new_gpu) && g.index.is_some() && !super::closure::verifying() {
            out.push(
                id.finding(Severity::Warn, format!("The matrix says driver {driver} does not drive {} ({name}, {}), yet NVML enumerates it", g.label, g.sm()))
                    .scope(g.scope())
                    .details(format!(
                        "Driver branch {} is outside the branches matrix {} lists for {name} GPUs (R{} to {}), but the driver \
                         reported this GPU, so it does drive it: a vendor build, or a matrix entry to correct. Work on it may \
                         still be unsupported by NVIDIA.",
                        driver_branch_line(ctx, &driver),
                        ctx.matrix.manifest.version,
                        arch.and_then(|a| a.min_driver_branch).map_or("?".into(), |b| b.to_string()),
                        arch.and_then(|a| a.last_driver_branch).map_or("the newest".into(), |b| format!("R{b}"))
                    ))
                    .evidence("driver", driver.to_string())
                    .evidence("gpu.compute_capability", format!("{} (from {})", g.cc(), g.via)),
            );
            continue;
        }
        if too_old_gpu {
            let last = arch.and_then(|a| a.last_driver_branch);
            let last_branch =
                last.and_then(|l| ctx.matrix.drivers.branch.iter().find(|b| b.branch == l));
            let (text, commands) = match driver_fix(ctx, id.id, &g.scope(), None) {
                Some(d) => (format!("Install the last branch that drives {name} GPUs. {}", d.text), d.commands),
                None => match last_branch {
                    Some(b) if ctx.matrix.branch_past_eol(b) => (
                        format!(
                            "R{} was the last branch for {name} GPUs and reached end of life in {}: no supported driver drives this GPU. \
                             Keep R{} ({}) on this machine only if you accept an unmaintained driver, or replace the GPU.",
                            b.branch,
                            b.eol.as_deref().unwrap_or("?"),
                            b.branch,
                            ctx.matrix.branch_release(b.branch).map_or_else(|| "its last release".to_string(), |v| format!("{v} or a later {} release", b.branch))
                        ),
                        Vec::new(),
                    ),
                    _ => (format!("Install the last branch that supports {name}: R{}.", last.map_or("?".into(), |l| l.to_string())), Vec::new()),
                },
            };
            out.push(
                id.finding(Severity::Fail, format!("Driver {driver} no longer supports {} ({name}, {})", g.label, g.sm()))
                    .scope(g.scope())
                    .details(format!(
                        "Driver branch {} dropped {name} GPUs; the kernel module ignores them ('supported through the NVIDIA {}.xx Legacy drivers').",
                        driver_branch_line(ctx, &driver),
                        last.map_or("older".to_string(), |l| l.to_string())
                    ))
                    .evidence("driver", driver.to_string())
                    .evidence("gpu.compute_capability", g.cc())
                    .fix_owned(text, commands),
            );
        } else if too_new_gpu {
            let min = arch.and_then(|a| a.min_driver_branch).unwrap_or(0);
            let (text, commands) = match driver_fix(ctx, id.id, &g.scope(), None) {
                Some(d) => (d.text, d.commands),
                None => (format!("Install a driver of branch R{min} or newer that is still supported; none in matrix {} drives this GPU without breaking something else.", ctx.matrix.manifest.version), Vec::new()),
            };
            out.push(
                id.finding(Severity::Fail, format!("Driver {driver} is too old for {} ({name}, {}; needs R{min} or newer)", g.label, g.sm()))
                    .scope(g.scope())
                    .details(format!("{name} GPUs are driven from driver branch R{min}; driver {driver} predates them and does not know the chip ('No devices were found')."))
                    .evidence("driver", driver.to_string())
                    .evidence("gpu.compute_capability", g.cc())
                    .fix_owned(text, commands),
            );
        } else if arch.is_some() {
            out.push(
                id.finding(
                    Severity::Pass,
                    format!("Driver {driver} supports {} ({})", g.label, g.sm()),
                )
                .scope(g.scope()),
            );
        }
    }
    out
}

fn needs_open_module(ctx: &Ctx, g: &GpuCc) -> bool {
    let by_product = g
        .index
        .and_then(|i| view::nvml_devices(ctx.facts).iter().find(|d| d.index == i))
        .and_then(|d| ctx.matrix.gpu_by_name(d.name.value()?))
        .and_then(|p| p.open_module_required);
    by_product.unwrap_or_else(|| {
        ctx.matrix
            .arch(&g.cc())
            .is_some_and(|a| a.open_module_required)
    })
}

pub const DRIVER_OPEN_MODULE_REQUIRED: Check = Check {
    id: "driver.open_module_required",
    name: "driver.module_flavour",
    area: Area::Driver,
    title: "GPUs that need the open kernel modules have them",
    failing: "a GPU that needs the open kernel modules runs the proprietary ones",
    why: "Blackwell and newer GPUs run only with the open kernel modules.",
    next_step: "Install the open kernel module flavour of the same driver.",
    action: Action::FixSoftware,
    reads: &[
        "system",
        "pci_gpus",
        "kernel_module",
        "driver_libs",
        "driver_api",
        "matrix",
    ],
    not_in_paste: Some(PasteGap {
        what: "the kernel module's flavour (open or proprietary)",
        how: "`modinfo nvidia | grep -i license`",
    }),
    run: open_module_required,
};

pub fn open_module_required(ctx: &Ctx) -> Vec<Finding> {
    use crate::facts::kernel_module::ModuleFlavor;
    let Some(flavor) = ctx.facts.kernel_module.flavor.value() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for g in view::gpu_ccs(ctx.facts, ctx.matrix) {
        if !needs_open_module(ctx, &g) {
            continue;
        }
        let id = &DRIVER_OPEN_MODULE_REQUIRED;
        if *flavor == ModuleFlavor::Open {
            out.push(
                id.finding(
                    Severity::Pass,
                    format!("{} runs on the open kernel modules it needs", g.label),
                )
                .scope(g.scope()),
            );
            continue;
        }
        let version = view::driver_version(ctx.facts);
        let branch = version
            .as_ref()
            .and_then(|v| u32::try_from(v.major()).ok())
            .unwrap_or(0);
        let (text, commands) =
            driver_install(ctx, branch, version.map(|v| v.to_string()).as_deref(), true);
        out.push(
            id.finding(Severity::Fail, format!("{} needs the open kernel modules, but the proprietary ones are loaded", g.label))
                .scope(g.scope())
                .details("Blackwell and newer GPUs (and Grace Hopper) are driven only by the open kernel modules; the proprietary module logs 'requires use of the NVIDIA open kernel modules' and 'RmInitAdapter failed', and nvidia-smi finds no devices.")
                .evidence("kernel_module.flavor", "proprietary")
                .evidence("gpu.compute_capability", g.cc())
                .fix_owned(format!("Switch to the open flavour of the same branch. {text}"), commands),
        );
    }
    out
}

pub const DRIVER_BRANCH_EOL: Check = Check {
    id: "driver.branch_eol",
    name: "driver.branch_support",
    area: Area::Driver,
    title: "the driver branch is still supported",
    failing: "the driver branch is past end of life (as of the matrix date)",
    why: "A branch past end of life gets no security or bug fixes.",
    next_step: "Plan an upgrade to a supported branch.",
    action: Action::FixSoftware,
    reads: &["kernel_module", "driver_libs", "driver_api", "matrix"],
    not_in_paste: None,
    run: branch_eol,
};

pub fn branch_eol(ctx: &Ctx) -> Vec<Finding> {
    let Some(driver) = view::driver_version(ctx.facts) else {
        return Vec::new();
    };
    let Some(b) = ctx.matrix.branch(&driver) else {
        return Vec::new();
    };
    let id = &DRIVER_BRANCH_EOL;
    let as_of = crate::matrix::validate::parse_date(&ctx.matrix.manifest.version);
    let eol = b
        .eol
        .as_deref()
        .and_then(crate::matrix::validate::parse_date);
    match (eol, as_of) {
        (Some(eol), Some(today)) if eol < today => {
            let eol_fix = match driver_fix(ctx, id.id, &Scope::Host, None) {
                Some(d) => (format!("Move to a supported production or LTS branch. {}", d.text), d.commands),
                None => ("No supported branch drives every GPU here without breaking something else: this is the last branch for them.".to_string(), Vec::new()),
            };
            vec![id.finding(Severity::Warn, format!("Driver branch R{} reached end of life ({})", b.branch, b.eol.as_deref().unwrap_or("")))
            .details(format!("As of the matrix date ({}), NVIDIA no longer ships fixes for R{}: security and stability fixes come only in supported branches.", ctx.matrix.manifest.version, b.branch))
            .evidence("driver", driver.to_string())
            .fix_owned(eol_fix.0, eol_fix.1)]
        }
        _ => {
            let kind = serde_json::to_value(b.kind)
                .ok()
                .and_then(|v| v.as_str().map(|s| s.replace('_', " ")))
                .unwrap_or_default();
            vec![id.finding(
                Severity::Pass,
                format!("Driver branch R{} ({kind}) is supported", b.branch),
            )]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::testutil::*;
    use crate::fact::Fact;
    use crate::facts::python::ArchList;
    use crate::facts::Facts;

    /// A node with one GPU of `name`/`cc`, driver `driver`, and torch `version` (CUDA `cuda`)
    /// whose libtorch_cuda.so carries `arch_flags`.
    fn node(
        name: &str,
        cc: &str,
        driver: &str,
        version: &str,
        cuda: &str,
        arch_flags: &[&str],
    ) -> Facts {
        let mut f = healthy();
        f.kernel_module.version = Fact::known(driver.into());
        if let Fact::Known { value } = &mut f.driver_api.nvml {
            value.driver_version = Fact::known(driver.into());
            if let Fact::Known { value: devs } = &mut value.devices {
                devs[0].name = Fact::known(name.into());
                devs[0].compute_capability = Fact::known(cc.into());
            }
        }
        f.driver_libs.nvml_soname = None;
        f.driver_libs.cuda_soname = None;
        let mut t = torch(
            "/opt/venv/lib/python3.11/site-packages/torch",
            version,
            Some(cuda),
        );
        t.arch = Fact::known(ArchList {
            arch_flags: arch_flags.iter().map(|s| (*s).to_string()).collect(),
            sass: Vec::new(),
            ptx: Vec::new(),
            ..ArchList::default()
        });
        f.python[0].torch = vec![t];
        f
    }

    const TORCH_25_CU121: &[&str] = &[
        "sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90",
    ];
    const TORCH_28_CU128: &[&str] = &[
        "sm_70", "sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120",
    ];

    fn index_cuda(cmd: &str) -> Option<(u32, u32)> {
        let tag = cmd.rsplit("/whl/cu").next()?;
        let (maj, min) = tag.split_at(tag.len().checked_sub(1)?);
        Some((maj.parse().ok()?, min.parse().ok()?))
    }

    #[test]
    fn rtx_5090_with_a_cu121_wheel_needs_cu128_or_newer() {
        let f = node(
            "NVIDIA GeForce RTX 5090",
            "12.0",
            "575.57.08",
            "2.5.1+cu121",
            "12.1",
            TORCH_25_CU121,
        );
        let out = run(crate::checks::arch::torch_arch_unsupported, &f);
        assert_eq!(only(&out), Severity::Fail);
        assert!(out[0].summary.contains("sm_120"), "{}", out[0].summary);
        let cmd = &out[0].fix.as_ref().unwrap().commands[0];
        let cuda = index_cuda(cmd).unwrap_or_else(|| panic!("no index url in {cmd}"));
        assert!(cuda >= (12, 8), "{cmd}");
        assert!(cmd.contains("-m pip install torch=="), "{cmd}");
    }

    #[test]
    fn gtx_1080_with_a_wheel_that_dropped_pascal() {
        let f = node(
            "NVIDIA GeForce GTX 1080",
            "6.1",
            "580.95.05",
            "2.8.0+cu128",
            "12.8",
            TORCH_28_CU128,
        );
        let out = run(crate::checks::arch::torch_arch_unsupported, &f);
        assert_eq!(only(&out), Severity::Fail);
        let cmd = &out[0].fix.as_ref().unwrap().commands[0];
        // Prefer the user's own series: 2.8 has a cu126 build with sm_60 kernels.
        assert!(
            cmd.contains("torch==2.8.") && cmd.ends_with("/whl/cu126"),
            "{cmd}"
        );
    }

    #[test]
    fn native_kernels_pass_and_ptx_only_warns() {
        let f = node(
            "NVIDIA H100 80GB HBM3",
            "9.0",
            "580.95.05",
            "2.4.1+cu124",
            "12.4",
            TORCH_25_CU121,
        );
        assert_eq!(
            only(&run(crate::checks::arch::torch_arch_unsupported, &f)),
            Severity::Pass
        );
        assert!(run(crate::checks::arch::torch_ptx_jit_only, &f).is_empty());
        let g = node(
            "NVIDIA GeForce RTX 5090",
            "12.0",
            "580.95.05",
            "2.9.0+cu130",
            "13.0",
            &["sm_90", "compute_90"],
        );
        assert_eq!(
            only(&run(crate::checks::arch::torch_ptx_jit_only, &g)),
            Severity::Warn
        );
        assert!(run(crate::checks::arch::torch_arch_unsupported, &g).is_empty());
    }

    #[test]
    fn driver_470_is_too_old_for_cu121() {
        let f = node(
            "Tesla V100-SXM2-32GB",
            "7.0",
            "470.256.02",
            "2.4.1+cu121",
            "12.1",
            TORCH_25_CU121,
        );
        let out = run(too_old_for_torch, &f);
        assert_eq!(only(&out), Severity::Fail);
        assert!(
            out[0].summary.contains("470.256.02") && out[0].summary.contains("CUDA 12.1"),
            "{}",
            out[0].summary
        );
        assert!(run(minor_version_compat, &f).is_empty());
        // The branch advised is a supported one at or above the floor, not R530 (long gone).
        let cmds = &out[0].fix.as_ref().unwrap().commands;
        let branch: u64 = cmds[0]
            .trim_start_matches("sudo apt install nvidia-driver-pinning-")
            .parse()
            .unwrap();
        // Volta's last branch is R580: the newer supported ones (R595, R620) drop it.
        assert_eq!(branch, 580, "{cmds:?}");
        assert_eq!(
            cmds[1], "sudo apt install cuda-drivers",
            "proprietary flavour for Volta"
        );
        let b = matrix()
            .drivers
            .branch
            .iter()
            .find(|b| u64::from(b.branch) == branch)
            .unwrap();
        assert!(
            b.eol
                .as_deref()
                .is_none_or(|e| e >= matrix().manifest.version.as_str()),
            "{b:?}"
        );
        // No torch alternative: the cu118 builds this driver runs would break extension
        // builds against the node's CUDA 12.4 toolkit (a new toolkit.torch_mismatch failure).
        let text = &out[0].fix.as_ref().unwrap().text;
        assert!(!text.contains("--index-url"), "{text}");
    }

    #[test]
    fn driver_525_runs_cu124_through_minor_version_compat() {
        let f = node(
            "NVIDIA A100-SXM4-80GB",
            "8.0",
            "525.60.13",
            "2.4.1+cu124",
            "12.4",
            TORCH_25_CU121,
        );
        let out: Vec<Finding> = run(minor_version_compat, &f)
            .into_iter()
            .filter(|x| matches!(x.scope, Scope::Python { .. }))
            .collect();
        assert_eq!(only(&out), Severity::Warn);
        assert!(out[0].details.contains("525.60.13"));
        // The node's CUDA 12.4 toolkit is in the same position.
        assert_eq!(run(minor_version_compat, &f).len(), 2);
        assert_eq!(only(&run(too_old_for_torch, &f)), Severity::Pass);
    }

    #[test]
    fn nvcc_118_with_a_cu121_torch_is_a_major_mismatch() {
        let mut f = node(
            "NVIDIA A100-SXM4-80GB",
            "8.0",
            "580.95.05",
            "2.4.1+cu121",
            "12.1",
            TORCH_25_CU121,
        );
        f.toolkits.toolkits[0].root = "/usr/local/cuda-11.8".into();
        f.toolkits.toolkits[0].version = Fact::known("11.8.89".into());
        f.toolkits.path_nvcc = Some("/usr/local/cuda-11.8".into());
        f.toolkits.usr_local_cuda = Some("/usr/local/cuda-11.8".into());
        let out = run(crate::checks::toolkit::torch_mismatch, &f);
        assert_eq!(only(&out), Severity::Fail);
        f.toolkits.toolkits[0].version = Fact::known("12.4.131".into());
        assert_eq!(
            only(&run(crate::checks::toolkit::torch_mismatch, &f)),
            Severity::Warn
        );
    }

    #[test]
    fn driver_checks_need_a_driver() {
        let f = no_gpu();
        for c in [
            too_old_for_torch,
            too_old_for_toolkit,
            minor_version_compat,
            gpu_unsupported,
            open_module_required,
            branch_eol,
        ] {
            assert!(run(c, &f).is_empty());
        }
    }

    /// The driver does not enumerate a GPU it does not drive: NVML lists nothing and the
    /// GPU is known by its PCI device id only.
    fn unenumerated(mut f: Facts, device_id: &str) -> Facts {
        if let Fact::Known { value } = &mut f.driver_api.nvml {
            value.devices = Fact::known(Vec::new());
        }
        if let Fact::Known { value } = &mut f.pci_gpus {
            value[0].device_id = device_id.into();
        }
        f
    }

    fn fix_of(out: &[Finding]) -> &crate::finding::Fix {
        out[0].fix.as_ref().expect("a fix")
    }

    #[test]
    fn driver_590_dropped_pascal_and_550_predates_blackwell() {
        let f = unenumerated(
            node(
                "NVIDIA GeForce GTX 1080",
                "6.1",
                "590.48.01",
                "2.4.1+cu124",
                "12.4",
                TORCH_25_CU121,
            ),
            "1b80",
        );
        let out = run(gpu_unsupported, &f);
        assert_eq!(only(&out), Severity::Fail, "{out:#?}");
        let fix = fix_of(&out);
        assert!(fix.text.contains("R580"), "{fix:?}");
        assert_eq!(
            fix.commands[0],
            "sudo apt install nvidia-driver-pinning-580"
        );
        assert_eq!(fix.commands[1], "sudo apt install cuda-drivers");
        let g = unenumerated(
            node(
                "NVIDIA GeForce RTX 5090",
                "12.0",
                "550.54.15",
                "2.4.1+cu124",
                "12.4",
                TORCH_25_CU121,
            ),
            "2b85",
        );
        let out = run(gpu_unsupported, &g);
        assert_eq!(only(&out), Severity::Fail);
        // A real release of a supported branch, not "570.0" of an end-of-life one.
        let fix = fix_of(&out);
        assert!(!fix.text.contains("570.0"), "{fix:?}");
        let branch: u32 = fix.commands[0]
            .trim_start_matches("sudo apt install nvidia-driver-pinning-")
            .parse()
            .unwrap();
        let b = matrix()
            .drivers
            .branch
            .iter()
            .find(|b| b.branch == branch)
            .unwrap();
        assert!(!matrix().branch_past_eol(b), "{b:?}");
        let release = matrix().branch_release(branch).unwrap();
        assert!(fix.text.contains(&release), "{fix:?}");
        let ok = node(
            "NVIDIA H100 80GB HBM3",
            "9.0",
            "580.95.05",
            "2.4.1+cu124",
            "12.4",
            TORCH_25_CU121,
        );
        assert_eq!(only(&run(gpu_unsupported, &ok)), Severity::Pass);
    }

    #[test]
    fn drivers_that_predate_the_gpu_fail() {
        for (name, cc, id, driver) in [
            ("NVIDIA H100 80GB HBM3", "9.0", "2330", "470.256.02"),
            ("NVIDIA GeForce RTX 4090", "8.9", "2684", "510.108.03"),
        ] {
            let f = unenumerated(
                node(name, cc, driver, "2.4.1+cu121", "12.1", TORCH_25_CU121),
                id,
            );
            let out = run(gpu_unsupported, &f);
            assert_eq!(only(&out), Severity::Fail, "{name} on {driver}: {out:#?}");
            assert!(out[0].summary.contains("too old for"), "{}", out[0].summary);
        }
    }

    #[test]
    fn an_enumerated_gpu_contradicts_the_matrix() {
        // NVML listing the GPU is an observation: the matrix's inference only warns.
        let f = node(
            "NVIDIA GeForce GTX 1080",
            "6.1",
            "590.48.01",
            "2.4.1+cu124",
            "12.4",
            TORCH_25_CU121,
        );
        let out = run(gpu_unsupported, &f);
        assert_eq!(only(&out), Severity::Warn, "{out:#?}");
        assert!(out[0].summary.contains("NVML enumerates it"));
    }

    #[test]
    fn gtx_1080_with_cu132_on_580_keeps_the_driver() {
        let f = node(
            "NVIDIA GeForce GTX 1080",
            "6.1",
            "580.95.05",
            "2.12.0+cu132",
            "13.2",
            &["sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"],
        );
        let out: Vec<Finding> = run(minor_version_compat, &f)
            .into_iter()
            .filter(|x| matches!(x.scope, Scope::Python { .. }))
            .collect();
        assert_eq!(only(&out), Severity::Warn);
        let fix = fix_of(&out);
        // R590 and later dropped Pascal: no driver upgrade, a build the R580 driver runs.
        assert!(
            !fix.text.contains("595") && !fix.text.contains("R620"),
            "{fix:?}"
        );
        assert_eq!(fix.commands.len(), 1, "{fix:?}");
        let cmd = &fix.commands[0];
        let cuda = index_cuda(cmd).unwrap();
        assert!(cuda < (13, 0), "{cmd}");
        assert!(
            cmd.contains("torch==2.12."),
            "the user's series first: {cmd}"
        );
    }

    #[test]
    fn inside_a_container_the_driver_is_the_hosts() {
        let mut f = node(
            "Tesla V100-SXM2-32GB",
            "7.0",
            "470.256.02",
            "2.4.1+cu121",
            "12.1",
            TORCH_25_CU121,
        );
        f.system.container = Fact::known(Some("docker".into()));
        let out = run(too_old_for_torch, &f);
        let fix = fix_of(&out);
        assert!(fix.text.contains("On the host"), "{fix:?}");
        assert!(
            fix.commands
                .iter()
                .all(|c| !c.contains("reboot") && !c.contains("apt") && !c.contains("dnf")),
            "{fix:?}"
        );
    }

    #[test]
    fn blackwell_on_the_proprietary_module() {
        use crate::facts::kernel_module::ModuleFlavor;
        let mut f = node(
            "NVIDIA GeForce RTX 5090",
            "12.0",
            "580.95.05",
            "2.8.0+cu128",
            "12.8",
            TORCH_28_CU128,
        );
        f.kernel_module.flavor = Fact::known(ModuleFlavor::Proprietary);
        let out = run(open_module_required, &f);
        assert_eq!(only(&out), Severity::Fail);
        assert_eq!(
            out[0].fix.as_ref().unwrap().commands,
            vec![
                "sudo apt install nvidia-driver-pinning-580".to_string(),
                "sudo apt install nvidia-open".to_string(),
                "sudo reboot".to_string()
            ]
        );
        let mut c = f.clone();
        c.system.container = Fact::known(Some("docker".into()));
        let out = run(open_module_required, &c);
        let fix = out[0].fix.as_ref().unwrap();
        assert!(fix.commands.is_empty(), "{fix:?}");
        assert!(fix.text.contains("On the host"), "{fix:?}");
        f.kernel_module.flavor = Fact::known(ModuleFlavor::Open);
        assert_eq!(only(&run(open_module_required, &f)), Severity::Pass);
        let h = node(
            "NVIDIA H100 80GB HBM3",
            "9.0",
            "580.95.05",
            "2.4.1+cu124",
            "12.4",
            TORCH_25_CU121,
        );
        assert!(
            run(open_module_required, &h).is_empty(),
            "Hopper PCIe/SXM runs either flavour"
        );
    }

    #[test]
    fn end_of_life_branches_warn() {
        let f = node(
            "NVIDIA H100 80GB HBM3",
            "9.0",
            "550.54.15",
            "2.4.1+cu124",
            "12.4",
            TORCH_25_CU121,
        );
        assert_eq!(only(&run(branch_eol, &f)), Severity::Warn);
        assert_eq!(only(&run(branch_eol, &healthy())), Severity::Pass);
    }
}
