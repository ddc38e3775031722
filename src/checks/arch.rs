//! Do the compiled GPU architectures of PyTorch, CUDA extensions and the toolkits cover
//! the GPUs present? Answered from the fatbin facts where they were read, else from the
//! matrix's record of the build.

use super::catalogue::{Action, Area, Check, PasteGap};
use super::compat::{torch_advice, torch_builds};
use super::view::{self, GpuCc};
use super::Ctx;
use crate::facts::python::ArchList;
use crate::finding::{Finding, Severity};
use crate::matrix::query::{platform_of, variant_arch_list};
use crate::version::DottedVersion;

pub use crate::arch_list::{coverage, Coverage}; // moved: src/arch_list.rs

/// The targets that serve most of a library's kernels: the arch flags when the reader
/// could tell them apart, else every target found.
fn main_targets(a: &ArchList) -> Vec<String> {
    if a.arch_flags.is_empty() {
        a.sass.iter().chain(&a.ptx).cloned().collect()
    } else {
        a.arch_flags.clone()
    }
}

/// TORCH_CUDA_ARCH_LIST entries ("8.6", "9.0+PTX") as targets.
fn targets_from_list(list: &[crate::arch_list::ArchEntry]) -> Vec<String> {
    let mut out = Vec::new();
    for e in list {
        let suffix = e.suffix.map(String::from).unwrap_or_default();
        out.push(format!("sm_{}{}{suffix}", e.major, e.minor));
        if e.ptx {
            out.push(format!("compute_{}{}{suffix}", e.major, e.minor));
        }
    }
    out
}

fn list(targets: &[String]) -> String {
    targets.join(" ")
}

/// One judgement per (torch build, GPU): `arch_unsupported` and `ptx_jit_only` share it.
fn torch_coverage<'a>(
    ctx: &Ctx<'a>,
) -> Vec<(
    super::compat::CudaUser<'a>,
    GpuCc,
    Vec<String>,
    &'static str,
    Coverage,
)> {
    let gpus = view::gpu_ccs(ctx.facts, ctx.matrix);
    let mut out = Vec::new();
    for u in torch_builds(ctx) {
        let Some((_, t)) = u.torch else { continue };
        let (targets, from) = match t.arch.value() {
            Some(a) => (main_targets(a), "its libtorch_cuda.so"),
            None => {
                let version = t.version.value().map_or("", String::as_str);
                let Some(rel) = ctx.matrix.torch_release(version) else {
                    continue;
                };
                let Some(var) = ctx.matrix.torch_variant(rel, version, Some(&u.cuda)) else {
                    continue;
                };
                let Some(entries) = variant_arch_list(var, platform_of(&ctx.facts.system.arch))
                else {
                    continue;
                };
                (
                    targets_from_list(&entries),
                    "the matrix's record of this build",
                )
            }
        };
        for g in &gpus {
            let c = coverage(&targets, g.major, g.minor);
            out.push((u.clone(), g.clone(), targets.clone(), from, c));
        }
    }
    out
}

pub const TORCH_ARCH_UNSUPPORTED: Check = Check {
    id: "torch.arch_unsupported",
    name: "torch.gpu_arch",
    area: Area::Torch,
    title: "each PyTorch build has kernels for every GPU",
    failing: "a GPU's compute capability has no kernels in the build (\"no kernel image is available\"); the fix is the `pip install torch==X --index-url …/cuNNN` that works here",
    why: "Without kernels for the GPU's compute capability every CUDA op fails ('no kernel image').",
    next_step: "Install the PyTorch build the finding names.",
    action: Action::FixSoftware,
    reads: &["system", "pci_gpus", "kernel_module", "driver_libs", "driver_api", "matrix"],
    not_in_paste: None,
    run: torch_arch_unsupported,
};

pub fn torch_arch_unsupported(ctx: &Ctx) -> Vec<Finding> {
    let mut out = Vec::new();
    for (u, g, targets, from, c) in torch_coverage(ctx) {
        let id = &TORCH_ARCH_UNSUPPORTED;
        // The matrix's record never overrides a failed fact about the installed file: a
        // library that could not be read (truncated, a FIFO, a link loop) is not healthy.
        let unread = u.torch.and_then(|(_, t)| match &t.arch {
            crate::fact::Fact::Failed { error, .. } => Some(error.clone()),
            _ => None,
        });
        if let (Some(error), Coverage::Sass(_) | Coverage::PtxOnly(_)) = (unread, &c) {
            out.push(
                id.finding(Severity::Warn,
                    format!(
                        "{}'s libtorch_cuda.so could not be read, so its kernels for {} are not confirmed",
                        u.what, g.label
                    ),
                )
                .scope(u.scope)
                .details(format!(
                    "The matrix's record of this build lists {}, but the installed file could not be read: {error}.                      A damaged or replaced library fails at import or at the first kernel launch.",
                    list(&targets)
                ))
                .evidence("torch.arch", error)
                .fix("Reinstall this PyTorch build (pip install --force-reinstall, or recreate the environment).", &[]),
            );
            continue;
        }
        match c {
            Coverage::Sass(t) => out.push(
                id.finding(
                    Severity::Pass,
                    format!("{} has native kernels ({t}) for {}", u.what, g.label),
                )
                .scope(u.scope),
            ),
            Coverage::PtxOnly(_) => {} // torch.ptx_jit_only
            Coverage::None => {
                let advice = u
                    .torch
                    .and_then(|(env, t)| torch_advice(ctx, env, t, id.id, &u.scope));
                let mut f = id.finding(Severity::Fail, format!("{} has no kernels for {} ({})", u.what, g.label, g.sm()))
                    .scope(u.scope)
                    .details(format!(
                        "The build carries {} (read from {from}); none runs on compute capability {}. CUDA work fails with \
                         'no kernel image is available for execution on the device', and PyTorch warns '{} is not compatible \
                         with the current PyTorch installation'.",
                        list(&targets),
                        g.cc(),
                        g.sm()
                    ))
                    .evidence("torch.arch", list(&targets))
                    .evidence("gpu.compute_capability", format!("{} (from {})", g.cc(), g.via));
                f = match advice {
                    Some(cmd) => f.fix_owned(format!("Install a PyTorch build with {} kernels that this driver supports.", g.sm()), vec![cmd]),
                    None => f.fix(format!("No PyTorch build in matrix {} supports {} with this driver: upgrade the driver, or build PyTorch from source with TORCH_CUDA_ARCH_LIST={}.", ctx.matrix.manifest.version, g.sm(), g.cc()), &[]),
                };
                out.push(f);
            }
        }
    }
    out
}

pub const TORCH_PTX_JIT_ONLY: Check = Check {
    id: "torch.ptx_jit_only",
    name: "torch.native_kernels",
    area: Area::Torch,
    title: "no GPU depends on PTX JIT",
    failing: "a GPU is served only by JIT-compiling PTX",
    why: "PTX JIT makes the first run slow and needs a driver new enough for the PTX.",
    next_step: "Install a PyTorch build with native kernels for the GPU.",
    action: Action::FixSoftware,
    reads: &["system", "pci_gpus", "driver_api", "matrix"],
    not_in_paste: Some(PasteGap {
        what: "the build's PTX targets",
        how: "`python -c 'import torch; print(torch.cuda.get_arch_list())'`",
    }),
    run: torch_ptx_jit_only,
};

pub fn torch_ptx_jit_only(ctx: &Ctx) -> Vec<Finding> {
    let mut out = Vec::new();
    for (u, g, _targets, _from, c) in torch_coverage(ctx) {
        if let Coverage::PtxOnly(ptx) = c {
            out.push(
                TORCH_PTX_JIT_ONLY.finding(Severity::Warn, format!("{} serves {} ({}) only through PTX ({ptx})", u.what, g.label, g.sm()))
                    .scope(u.scope)
                    .details("The driver JIT-compiles the PTX at first use: the first run of each kernel is slow (minutes for all of PyTorch, cached in ~/.nv/ComputeCache), kernels may run slower than native ones, and the driver must support the PTX's ISA version.")
                    .evidence("gpu.compute_capability", g.cc())
                    .fix("Install a build with native kernels for this GPU when one exists (see `gpu-doctor matrix show --gpu`).", &[]),
            );
        }
    }
    out
}

pub const EXT_ARCH_UNSUPPORTED: Check = Check {
    id: "ext.arch_unsupported",
    name: "ext.gpu_arch",
    area: Area::Ext,
    title: "each CUDA extension has kernels for every GPU",
    failing: "a CUDA extension module (flash-attn, xformers, ...) has no kernels for a GPU present",
    why: "An extension without kernels for the GPU fails the first time it is called.",
    next_step: "Install or build the extension for the GPU's compute capability.",
    action: Action::FixSoftware,
    reads: &["pci_gpus", "driver_api", "python", "matrix"],
    not_in_paste: Some(PasteGap {
        what: "the CUDA extensions' compiled architectures",
        how: "`gpu-doctor` on the machine (it reads each extension's fatbin)",
    }),
    run: ext_arch_unsupported,
};

/// One finding per package and GPU, not per library file: a package ships several
/// kernel libraries (cupy three, jax's plugin three on a real H100 machine) and a pass
/// repeated for each said nothing more. A failure names every library without kernels.
pub fn ext_arch_unsupported(ctx: &Ctx) -> Vec<Finding> {
    let gpus = view::gpu_ccs(ctx.facts, ctx.matrix);
    let mut out = Vec::new();
    for env in &ctx.facts.python {
        let mut packages: Vec<&str> = Vec::new();
        for ext in &env.extensions {
            if ext.arch.value().is_some() && !packages.contains(&ext.package.as_str()) {
                packages.push(&ext.package);
            }
        }
        let scope = crate::finding::Scope::Python {
            interpreter: env
                .interpreter
                .clone()
                .unwrap_or_else(|| env.prefix.clone()),
        };
        for package in packages {
            let libraries: Vec<(&str, Vec<String>)> = env
                .extensions
                .iter()
                .filter(|e| e.package == package)
                .filter_map(|e| {
                    let a = e.arch.value()?;
                    Some((
                        e.path.as_str(),
                        a.sass.iter().chain(&a.ptx).cloned().collect(),
                    ))
                })
                .collect();
            for g in &gpus {
                let without: Vec<&(&str, Vec<String>)> = libraries
                    .iter()
                    .filter(|(_, targets)| coverage(targets, g.major, g.minor) == Coverage::None)
                    .collect();
                let finding = if without.is_empty() {
                    ext_arch_pass(package, libraries.len(), &g.label)
                } else {
                    ext_arch_fail(env, package, &without, g)
                };
                out.push(finding.scope(scope.clone()));
            }
        }
    }
    out
}

fn ext_arch_pass(package: &str, libraries: usize, gpu: &str) -> Finding {
    let summary = match libraries {
        1 => format!("{package} has kernels for {gpu}"),
        n => format!("{package} has kernels for {gpu} ({n} libraries)"),
    };
    EXT_ARCH_UNSUPPORTED.finding(Severity::Pass, summary)
}

/// `without`: the package's libraries with no kernels for `g` (at least one); the first is
/// the one described, the others are named.
fn ext_arch_fail(
    env: &crate::facts::python::PythonEnv,
    package: &str,
    without: &[&(&str, Vec<String>)],
    g: &view::GpuCc,
) -> Finding {
    let (path, targets) = without[0];
    let mut details = format!("{path} was built for {}; on compute capability {} its kernels fail with 'no kernel image is available for execution on the device'.", list(targets), g.cc());
    if without.len() > 1 {
        let others: Vec<&str> = without[1..].iter().map(|(p, _)| *p).collect();
        details.push_str(&format!(
            " Also without kernels for it: {}.",
            others.join(", ")
        ));
    }
    EXT_ARCH_UNSUPPORTED
        .finding(Severity::Fail, format!("{package} has no kernels for {} ({})", g.label, g.sm()))
        .details(details)
        .evidence("extension.arch", list(targets))
        .fix_owned(
            format!("Reinstall {package} built for this GPU (a wheel that lists {}, or from source with TORCH_CUDA_ARCH_LIST={}).", g.sm(), g.cc()),
            vec![format!("TORCH_CUDA_ARCH_LIST={} {} -m pip install --no-binary :all: --force-reinstall {}", g.cc(), env.interpreter.as_deref().unwrap_or("python3"), package.replace('_', "-"))],
        )
}

pub const TOOLKIT_ARCH_UNSUPPORTED: Check = Check {
    id: "toolkit.arch_unsupported",
    name: "toolkit.gpu_arch",
    area: Area::Toolkit,
    title: "each toolkit can compile for the GPUs present",
    failing: "a toolkit's nvcc cannot compile for a GPU present (too old for it, or dropped it)",
    why: "nvcc cannot build kernels for a GPU it does not know or has dropped.",
    next_step: "Install a toolkit release that supports the GPU.",
    action: Action::FixSoftware,
    reads: &["pci_gpus", "driver_api", "toolkits", "matrix"],
    not_in_paste: None,
    run: toolkit_arch_unsupported,
};

pub fn toolkit_arch_unsupported(ctx: &Ctx) -> Vec<Finding> {
    let gpus = view::gpu_ccs(ctx.facts, ctx.matrix);
    let mut out = Vec::new();
    for t in &ctx.facts.toolkits.toolkits {
        let Some(v) = t.version.value().and_then(|v| DottedVersion::parse(v)) else {
            continue;
        };
        let scope = crate::finding::Scope::Toolkit {
            root: t.root.clone(),
        };
        for g in &gpus {
            let Some(arch) = ctx.matrix.arch(&g.cc()) else {
                continue;
            };
            let id = &TOOLKIT_ARCH_UNSUPPORTED;
            let first = DottedVersion::parse(&arch.first_toolkit);
            let last = arch.last_toolkit.as_deref().and_then(DottedVersion::parse);
            let mm = |x: &DottedVersion| (x.major(), x.minor());
            if first.as_ref().is_some_and(|f| mm(&v) < mm(f)) {
                out.push(id.finding(Severity::Warn, format!("nvcc {v} cannot compile for {} ({}): needs CUDA {} or newer", g.label, g.sm(), arch.first_toolkit))
                    .scope(scope.clone())
                    .details(format!("nvcc {v} rejects -arch={} ('Unsupported gpu architecture'); extensions built with it have no kernels for this GPU.", g.sm()))
                    .fix(format!("Install CUDA {} or newer to build for {}.", arch.first_toolkit, arch.name), &[]));
            } else if last.as_ref().is_some_and(|l| mm(&v) > mm(l)) {
                out.push(id.finding(Severity::Warn, format!("nvcc {v} no longer compiles for {} ({}): the last toolkit that does is CUDA {}", g.label, g.sm(), arch.last_toolkit.as_deref().unwrap_or("?")))
                    .scope(scope.clone())
                    .details(format!("Support for {} was removed from the toolkit; build with CUDA {} or older for this GPU.", arch.name, arch.last_toolkit.as_deref().unwrap_or("?")))
                    .fix(format!("Install CUDA {} alongside to build for this GPU.", arch.last_toolkit.as_deref().unwrap_or("?")), &[]));
            } else {
                out.push(
                    id.finding(
                        Severity::Pass,
                        format!("nvcc {v} can compile for {} ({})", g.label, g.sm()),
                    )
                    .scope(scope.clone()),
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| (*x).to_string()).collect()
    }

    #[test]
    fn coverage_rules() {
        assert_eq!(
            coverage(&t(&["sm_80"]), 8, 6),
            Coverage::Sass("sm_80".into())
        );
        assert_eq!(coverage(&t(&["sm_86"]), 8, 0), Coverage::None);
        assert_eq!(
            coverage(&t(&["sm_90"]), 10, 0),
            Coverage::None,
            "no SASS across majors"
        );
        assert_eq!(
            coverage(&t(&["sm_90", "compute_90"]), 12, 0),
            Coverage::PtxOnly("compute_90".into())
        );
        assert_eq!(
            coverage(&t(&["sm_90a"]), 9, 0),
            Coverage::Sass("sm_90a".into())
        );
        assert_eq!(coverage(&t(&["sm_100a"]), 10, 3), Coverage::None);
        assert_eq!(
            coverage(&t(&["sm_100f"]), 10, 3),
            Coverage::Sass("sm_100f".into())
        );
        assert_eq!(
            coverage(&t(&["compute_120"]), 9, 0),
            Coverage::None,
            "PTX only JITs forward"
        );
        assert_eq!(
            coverage(&t(&["garbage", "sm_", "compute_x"]), 9, 0),
            Coverage::None
        );
    }

    use crate::checks::testutil::*;
    use crate::fact::Fact;

    #[test]
    fn without_gpus_or_builds_there_is_nothing_to_judge() {
        let f = no_gpu();
        for c in [
            torch_arch_unsupported,
            torch_ptx_jit_only,
            ext_arch_unsupported,
            toolkit_arch_unsupported,
        ] {
            assert!(run(c, &f).is_empty());
        }
    }

    #[test]
    fn unread_arch_lists_fall_back_to_the_matrix_record() {
        let mut f = healthy();
        if let Fact::Known { value } = &mut f.driver_api.nvml {
            if let Fact::Known { value: devs } = &mut value.devices {
                devs[0].name = Fact::known("NVIDIA GeForce RTX 5090".into());
                devs[0].compute_capability = Fact::known("12.0".into());
            }
        }
        let mut t = torch(
            "/opt/venv/lib/python3.11/site-packages/torch",
            "2.5.1+cu121",
            Some("12.1"),
        );
        t.arch = Fact::failed("truncated ELF");
        f.python[0].torch = vec![t];
        let out = run(torch_arch_unsupported, &f);
        assert_eq!(only(&out), Severity::Fail);
        assert!(
            out[0].details.contains("the matrix's record of this build"),
            "{}",
            out[0].details
        );
    }

    #[test]
    fn an_unreadable_library_is_never_passed_on_the_matrix_record() {
        // The record of 2.4.1+cu121 covers the healthy fixture's GPU; the file is damaged.
        let mut f = healthy();
        let mut t = torch(
            "/opt/venv/lib/python3.11/site-packages/torch",
            "2.4.1+cu121",
            Some("12.1"),
        );
        t.arch = Fact::failed("libtorch_cuda.so: malformed ELF: section headers past the end");
        f.python[0].torch = vec![t];
        let out = run(torch_arch_unsupported, &f);
        assert!(!out.is_empty());
        assert!(out.iter().all(|x| x.severity == Severity::Warn), "{out:#?}");
        assert!(
            out[0].details.contains("malformed ELF"),
            "{}",
            out[0].details
        );
        // Missing (never read, e.g. a paste) still falls back to the record: a pass.
        let mut t = torch(
            "/opt/venv/lib/python3.11/site-packages/torch",
            "2.4.1+cu121",
            Some("12.1"),
        );
        t.arch = Fact::missing("not read");
        f.python[0].torch = vec![t];
        assert_eq!(only(&run(torch_arch_unsupported, &f)), Severity::Pass);
    }

    #[test]
    fn gpus_without_a_driver_are_known_by_pci_id() {
        let mut f = no_gpu();
        f.pci_gpus = Fact::known(vec![crate::facts::pci::PciGpu {
            bus_id: "0000:01:00.0".into(),
            vendor_id: "10de".into(),
            device_id: "2b85".into(),
            subsystem_vendor_id: None,
            subsystem_device_id: None,
            class: "030000".into(),
            driver: None,
        }]);
        let ccs = view::gpu_ccs(&f, matrix());
        assert_eq!(ccs.len(), 1);
        assert_eq!((ccs[0].major, ccs[0].minor, ccs[0].via), (12, 0, "matrix"));
        assert!(ccs[0].label.contains("RTX 5090"));
    }

    #[test]
    fn extensions_without_kernels_for_the_gpu_fail() {
        let mut f = healthy();
        f.python[0]
            .extensions
            .push(crate::facts::python::CudaExtension {
                package: "flash_attn".into(),
                path: "/opt/venv/lib/python3.11/site-packages/flash_attn_2_cuda.so".into(),
                arch: Fact::known(ArchList {
                    sass: t(&["sm_80"]),
                    ..ArchList::default()
                }),
            });
        let out = run(ext_arch_unsupported, &f);
        assert_eq!(
            only(&out),
            Severity::Fail,
            "H100 (sm_90) is not served by sm_80 SASS"
        );
        f.python[0].extensions[0].arch = Fact::known(ArchList {
            sass: t(&["sm_80", "sm_90"]),
            ..ArchList::default()
        });
        assert_eq!(only(&run(ext_arch_unsupported, &f)), Severity::Pass);
    }

    #[test]
    fn old_toolkits_cannot_target_new_gpus() {
        let mut f = healthy();
        f.toolkits.toolkits[0].version = Fact::known("11.7.99".into());
        let out = run(toolkit_arch_unsupported, &f);
        assert_eq!(only(&out), Severity::Warn, "CUDA 11.7 predates sm_90");
        assert_eq!(
            only(&run(toolkit_arch_unsupported, &healthy())),
            Severity::Pass
        );
    }
}
