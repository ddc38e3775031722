//! torch.*: the PyTorch builds in each Python environment, read from their files.

use super::catalogue::{Action, Area, Check, PasteGap};
use super::view;
use super::Ctx;
use crate::facts::python::{PythonEnv, TorchBuild};
use crate::finding::{Finding, Scope, Severity};
use crate::version::DottedVersion;

fn scope(env: &PythonEnv) -> Scope {
    Scope::Python {
        interpreter: env
            .interpreter
            .clone()
            .or_else(|| env.site_packages.first().cloned())
            .unwrap_or_else(|| "unknown".into()),
    }
}

/// The command that runs pip for this environment.
fn pip(env: &PythonEnv) -> String {
    format!("{} -m pip", env.interpreter.as_deref().unwrap_or("python3"))
}

/// The torch that `import torch` finds (the first on sys.path).
fn active(env: &PythonEnv) -> Option<&TorchBuild> {
    env.torch.first()
}

fn version(t: &TorchBuild) -> String {
    t.version
        .value()
        .cloned()
        .unwrap_or_else(|| "unknown version".into())
}

pub const TORCH_NOT_FOUND: Check = Check {
    id: "torch.not_found",
    name: "torch.installed",
    area: Area::Torch,
    title: "PyTorch is installed",
    failing: "no PyTorch in the environments looked at",
    why: "Nothing to run CUDA work with in the environments looked at.",
    next_step: "Install PyTorch (or point gpu-doctor at the right interpreter with --python).",
    action: Action::FixSoftware,
    reads: &["python"],
    not_in_paste: None,
    run: not_found,
};

pub fn not_found(ctx: &Ctx) -> Vec<Finding> {
    let envs = &ctx.facts.python;
    let id = &TORCH_NOT_FOUND;
    let with_torch: Vec<&PythonEnv> = envs.iter().filter(|e| !e.torch.is_empty()).collect();
    if !with_torch.is_empty() {
        let builds: Vec<String> = with_torch
            .iter()
            .filter_map(|e| {
                active(e).map(|t| {
                    format!(
                        "{} ({})",
                        version(t),
                        e.interpreter.as_deref().unwrap_or("?")
                    )
                })
            })
            .collect();
        return vec![id.finding(Severity::Pass, format!("PyTorch {}", builds.join(", ")))];
    }
    let looked: Vec<String> = envs
        .iter()
        .map(|e| {
            e.interpreter
                .clone()
                .unwrap_or_else(|| e.site_packages.join(":"))
        })
        .collect();
    let py = envs
        .iter()
        .find_map(|e| e.interpreter.as_deref())
        .unwrap_or("python3");
    vec![id.finding(Severity::Info, "No PyTorch found in the Python environments looked at")
        .details(if looked.is_empty() {
            "No Python interpreter was found (PATH, VIRTUAL_ENV, CONDA_PREFIX, --python). Point gpu-doctor at one with --python PATH.".to_string()
        } else {
            format!("Looked in: {}. Use --python PATH for an environment that is not active.", looked.join(", "))
        })
        .fix_owned("Install PyTorch into the environment you use (on Linux x86_64 the default PyPI wheel is a CUDA build).", vec![format!("{py} -m pip install torch")])]
}

pub const TORCH_CPU_ONLY: Check = Check {
    id: "torch.cpu_only",
    name: "torch.cuda_build",
    area: Area::Torch,
    title: "PyTorch is a CUDA build",
    failing: "a CPU-only build on a machine with NVIDIA GPUs",
    why: "A CPU-only build never uses the GPU.",
    next_step: "Install the CUDA build of PyTorch that fits the driver.",
    action: Action::FixSoftware,
    reads: &[
        "system",
        "pci_gpus",
        "kernel_module",
        "driver_api",
        "python",
    ],
    not_in_paste: None,
    run: cpu_only,
};

pub fn cpu_only(ctx: &Ctx) -> Vec<Finding> {
    let f = ctx.facts;
    let mut out = Vec::new();
    for env in &f.python {
        let Some(t) = active(env) else { continue };
        let Some(cuda) = t.cuda.value() else { continue };
        if cuda.is_some() || t.hip.is_some() {
            let mut pass = TORCH_CPU_ONLY
                .finding(
                    Severity::Pass,
                    format!(
                        "PyTorch {} is a CUDA {} build",
                        version(t),
                        cuda.as_deref().unwrap_or("?")
                    ),
                )
                .scope(scope(env));
            match &t.arch {
                crate::fact::Fact::Known { value } => {
                    pass =
                        pass.evidence("python.torch.arch.arch_flags", value.arch_flags.join(" "));
                }
                other => {
                    pass = pass.evidence("python.torch.arch", other.reason().unwrap_or("unknown"));
                }
            }
            out.push(pass);
            continue;
        }
        let severity = if view::has_gpu(f) {
            Severity::Fail
        } else {
            Severity::Info
        };
        let sc = scope(env);
        let advice = if severity == Severity::Fail {
            super::compat::torch_advice(ctx, env, t, TORCH_CPU_ONLY.id, &sc)
        } else {
            None
        };
        let (fix_text, commands) = match advice {
            Some(cmd) => (
                "Install a CUDA build with kernels for every GPU here that this driver runs (same release series where one fits; the index URL picks the CUDA variant: the default PyPI wheel is one fixed CUDA version, which may lack kernels for the GPU).".to_string(),
                vec![cmd],
            ),
            None if severity == Severity::Fail => (
                format!("No published PyTorch build in matrix {} runs on these GPUs with this driver; fix the driver first (see the driver findings), then install a CUDA build.", ctx.matrix.manifest.version),
                Vec::new(),
            ),
            None => (
                "Nothing to do on a machine without NVIDIA GPUs.".to_string(),
                Vec::new(),
            ),
        };
        out.push(TORCH_CPU_ONLY.finding(severity, format!("PyTorch {} is a CPU-only build", version(t)))
            .scope(sc)
            .details(if severity == Severity::Fail {
                "torch.version.cuda is None: this build has no CUDA support, so torch.cuda.is_available() is False and nothing runs on the GPUs present."
            } else {
                "torch.version.cuda is None: a CPU-only build (fine on a machine without NVIDIA GPUs)."
            })
            .evidence("python.torch.version", version(t))
            .evidence("python.torch.path", &t.path)
            .fix_owned(fix_text, commands));
    }
    out
}

pub const TORCH_MULTIPLE_INSTALLS: Check = Check {
    id: "torch.multiple_installs",
    name: "torch.installs",
    area: Area::Torch,
    title: "one PyTorch per environment",
    failing: "more than one torch reachable from one interpreter",
    why: "Which torch `import torch` loads depends on the path order, not on what was installed last.",
    next_step: "Uninstall the copies that should not be there.",
    action: Action::FixSoftware,
    reads: &["python"],
    not_in_paste: Some(PasteGap { what: "every torch on the interpreter's path", how: "`python -m pip list | grep -i torch` and `python -c 'import torch; print(torch.__file__)'`" }),
    run: multiple_installs,
};

pub fn multiple_installs(ctx: &Ctx) -> Vec<Finding> {
    let mut out = Vec::new();
    for env in &ctx.facts.python {
        if env.torch.len() < 2 {
            continue;
        }
        let winner = &env.torch[0];
        let mut finding = TORCH_MULTIPLE_INSTALLS.finding(Severity::Warn, format!("{} PyTorch installs reachable; `import torch` loads {}", env.torch.len(), version(winner)))
            .scope(scope(env))
            .details(format!(
                "The first on sys.path wins ({}); the others are shadowed, and pip may upgrade or uninstall a different one \
                 than the one that runs. Typical: a --user install next to a venv's or conda's own.",
                winner.path
            ));
        for t in &env.torch {
            finding = finding.evidence(
                "python.torch",
                format!(
                    "{} at {} (installed by {})",
                    version(t),
                    t.path,
                    t.installer.value().map_or("unknown", String::as_str)
                ),
            );
        }
        let user_shadow = env
            .torch
            .iter()
            .skip(1)
            .chain(std::iter::once(winner))
            .find(|t| t.path.contains("/.local/lib/"));
        let cmd = match user_shadow {
            Some(_) => format!("{} uninstall --user torch", pip(env)),
            None => format!("{} uninstall torch   # run until one copy is left, then reinstall the one you want", pip(env)),
        };
        out.push(finding.fix_owned(
            "Keep one PyTorch per environment: uninstall the extra copy.",
            vec![cmd],
        ));
    }
    out
}

pub const TORCH_LIBS_SHADOWED: Check = Check {
    id: "torch.libs_shadowed",
    name: "torch.libraries",
    area: Area::Torch,
    title: "LD_LIBRARY_PATH does not shadow PyTorch's CUDA libraries",
    failing: "`LD_LIBRARY_PATH` holds CUDA libraries that shadow the ones torch's wheels ship",
    why: "Libraries from LD_LIBRARY_PATH replace the ones PyTorch was built and tested with.",
    next_step: "Remove the CUDA library folders from LD_LIBRARY_PATH and restart the program.",
    action: Action::RestartApp,
    reads: &["python", "ld_library_path_libs"],
    not_in_paste: Some(PasteGap {
        what: "LD_LIBRARY_PATH and the CUDA libraries in it",
        how: "`echo $LD_LIBRARY_PATH`",
    }),
    run: libs_shadowed,
};

pub fn libs_shadowed(ctx: &Ctx) -> Vec<Finding> {
    let f = ctx.facts;
    let mut out = Vec::new();
    for env in &f.python {
        let Some(t) = active(env) else { continue };
        if !t.cuda.value().is_some_and(Option::is_some) {
            continue;
        }
        let mut shadowed = Vec::new();
        for wheel in &env.nvidia_wheels {
            for lib in &wheel.libraries {
                if let Some(hit) = f.ld_library_path_libs.iter().find(|l| &l.file == lib) {
                    shadowed.push(format!(
                        "{}/{} shadows {} from {} {}",
                        hit.dir, hit.file, lib, wheel.name, wheel.version
                    ));
                }
            }
        }
        let id = &TORCH_LIBS_SHADOWED;
        if shadowed.is_empty() {
            if !env.nvidia_wheels.is_empty() {
                out.push(
                    id.finding(
                        Severity::Pass,
                        "The CUDA libraries of PyTorch's wheels are not shadowed",
                    )
                    .scope(scope(env)),
                );
            }
            continue;
        }
        let dirs: Vec<&str> = {
            let mut d: Vec<&str> = f
                .ld_library_path_libs
                .iter()
                .map(|l| l.dir.as_str())
                .collect();
            d.dedup();
            d
        };
        let mut finding = id.finding(Severity::Warn, format!("LD_LIBRARY_PATH shadows {} CUDA librar{} PyTorch ships", shadowed.len(), if shadowed.len() == 1 { "y" } else { "ies" }))
            .scope(scope(env))
            .details(
                "The dynamic loader searches LD_LIBRARY_PATH before the RUNPATH PyTorch uses to find its nvidia-* wheels, so \
                 these copies load instead. Another version of cuBLAS/cuDNN/NCCL than the build was tested with gives \
                 'undefined symbol' errors at import, CUBLAS_STATUS_* failures or wrong results.",
            );
        for s in &shadowed {
            finding = finding.evidence("ld_library_path_libs", s);
        }
        out.push(finding.fix_owned(
            format!(
                "Remove {} from LD_LIBRARY_PATH for PyTorch jobs (or unset it).",
                dirs.join(", ")
            ),
            vec!["unset LD_LIBRARY_PATH".into()],
        ));
    }
    out
}

/// One clause of a PEP 440 specifier ("==12.1.3.1", ">=9.1,<10"); `None` when this
/// simple reading cannot judge it (wildcards, arbitrary equality).
fn satisfies(version: &str, specifier: &str) -> Option<bool> {
    let v = DottedVersion::parse(version)?;
    let mut all = true;
    for clause in specifier
        .split(',')
        .map(str::trim)
        .filter(|c| !c.is_empty())
    {
        let (op, rest) = ["===", "~=", "==", "!=", ">=", "<=", ">", "<"]
            .iter()
            .find_map(|op| clause.strip_prefix(op).map(|r| (*op, r.trim())))?;
        if rest.contains('*') || op == "===" {
            return None;
        }
        let want = DottedVersion::parse(rest)?;
        let ok = match op {
            "==" => v == want,
            "!=" => v != want,
            ">=" => v >= want,
            "<=" => v <= want,
            ">" => v > want,
            "<" => v < want,
            "~=" => v >= want && v.same_prefix(&want, want.parts().len().saturating_sub(1).max(1)),
            _ => return None,
        };
        all &= ok;
    }
    Some(all)
}

pub const TORCH_WHEEL_DEPS_MISMATCH: Check = Check {
    id: "torch.wheel_deps_mismatch",
    name: "torch.wheel_deps",
    area: Area::Torch,
    title: "the nvidia-* wheels match the torch build",
    failing: "nvidia-* wheels missing or at other versions than the torch wheel pins",
    why:
        "The torch wheel loads the nvidia-* wheels it pins; other versions break at import or run.",
    next_step: "Reinstall torch so pip installs the nvidia-* wheels it pins.",
    action: Action::FixSoftware,
    reads: &["python"],
    not_in_paste: None,
    run: wheel_deps_mismatch,
};

pub fn wheel_deps_mismatch(ctx: &Ctx) -> Vec<Finding> {
    let mut out = Vec::new();
    for env in &ctx.facts.python {
        let Some(t) = active(env) else { continue };
        if t.requires.is_empty() {
            continue;
        }
        let mut missing = Vec::new();
        let mut wrong = Vec::new();
        for req in &t.requires {
            match env.nvidia_wheels.iter().find(|w| w.name == req.name) {
                None => missing.push(format!("{}{}", req.name, req.specifier)),
                Some(w) => {
                    if satisfies(&w.version, &req.specifier) == Some(false) {
                        wrong.push(format!(
                            "{} {} installed, torch needs {}",
                            w.name,
                            w.version,
                            if req.specifier.is_empty() {
                                "any"
                            } else {
                                &req.specifier
                            }
                        ));
                    }
                }
            }
        }
        let id = &TORCH_WHEEL_DEPS_MISMATCH;
        if missing.is_empty() && wrong.is_empty() {
            out.push(
                id.finding(
                    Severity::Pass,
                    format!(
                        "All {} nvidia-* wheels PyTorch {} requires are installed",
                        t.requires.len(),
                        version(t)
                    ),
                )
                .scope(scope(env)),
            );
            continue;
        }
        let severity = if missing.is_empty() {
            Severity::Warn
        } else {
            Severity::Fail
        };
        let mut finding = id.finding(severity, format!(
            "PyTorch {}'s nvidia-* wheels: {} missing, {} at another version",
            version(t),
            missing.len(),
            wrong.len()
        ))
        .scope(scope(env))
        .details(
            "The torch wheel pins the CUDA library wheels it was built and tested with. A missing one makes `import torch` \
             fail ('libcudnn.so.9: cannot open shared object file'); another version can fail with undefined symbols or \
             misbehave. Usually caused by installing torch with --no-deps, or by another package upgrading a shared wheel.",
        );
        for m in &missing {
            finding = finding.evidence("python.torch.requires (missing)", m);
        }
        for w in &wrong {
            finding = finding.evidence("python.nvidia_wheels", w);
        }
        let base = t.version.value().map_or("torch".to_string(), |v| {
            format!("torch=={}", v.split('+').next().unwrap_or(v))
        });
        out.push(finding.fix_owned(
            "Reinstall torch with its dependencies so pip restores the pinned wheels.",
            vec![format!("{} install --force-reinstall \"{base}\"", pip(env))],
        ));
    }
    out
}

pub const TORCH_CUDA_UNAVAILABLE: Check = Check {
    id: "torch.cuda_unavailable",
    name: "torch.cuda_available",
    area: Area::Torch,
    title: "(--deep) torch.cuda.is_available() is True",
    failing: "(`--deep`) `torch.cuda.is_available()` is False on a machine with GPUs, or asking torch hung or crashed",
    why: "PyTorch itself says CUDA cannot be used: every CUDA tensor fails.",
    next_step: "Act on the cause the other findings name, or on torch's own error.",
    action: Action::FixSoftware,
    reads: &["pci_gpus", "kernel_module", "driver_api", "python"],
    not_in_paste: None,
    run: cuda_unavailable,
};

/// `--deep`: what torch itself says, set against what the machine offers.
pub fn cuda_unavailable(ctx: &Ctx) -> Vec<Finding> {
    let f = ctx.facts;
    let id = &TORCH_CUDA_UNAVAILABLE;
    let mut out = Vec::new();
    for env in &f.python {
        let Some(deep) = &env.deep else { continue };
        match deep {
            crate::fact::Fact::Known { value: d } => {
                if d.torch_version.is_none() {
                    continue; // no torch to ask: torch.not_found
                }
                if d.cuda_available {
                    out.push(
                        id.finding(
                            Severity::Pass,
                            format!(
                                "torch.cuda.is_available() is True ({} device{})",
                                d.device_count,
                                super::host::plural(d.device_count as usize)
                            ),
                        )
                        .scope(scope(env)),
                    );
                    continue;
                }
                let gpus = view::usable_gpus(f);
                let severity = if gpus > 0 || view::has_gpu(f) {
                    Severity::Fail
                } else {
                    Severity::Info
                };
                let mut finding = id.finding(severity, "torch.cuda.is_available() is False")
                    .scope(scope(env))
                    .details(format!(
                        "Asked directly, this interpreter's torch cannot use CUDA{}. The other findings name the cause \
                         (CPU-only build, driver too old for the build, hidden devices).",
                        d.error.as_ref().map_or(String::new(), |e| format!(": \"{e}\""))
                    ))
                    .evidence("python.deep.cuda_available", "false");
                if let Some(v) = &d.torch_version {
                    finding = finding.evidence("python.deep.torch_version", v);
                }
                out.push(finding);
            }
            crate::fact::Fact::Failed {
                error, stderr_tail, ..
            } => {
                let mut finding = id.finding(Severity::Fail, "Asking torch about CUDA failed")
                    .scope(scope(env))
                    .details(format!("Running the interpreter to import torch and query CUDA did not come back cleanly: {error}. Jobs will fail the same way."))
                    .evidence("python.deep", error);
                if let Some(t) = stderr_tail.as_ref().filter(|t| !t.is_empty()) {
                    finding = finding.evidence("python.deep.stderr_tail", t);
                }
                out.push(finding);
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::testutil::*;
    use crate::facts::env::LdPathLib;

    #[test]
    fn found_or_not() {
        assert_eq!(only(&run(not_found, &healthy())), Severity::Pass);
        let out = run(not_found, &no_gpu());
        assert_eq!(only(&out), Severity::Info);
        assert!(out[0].details.contains("--python"));
    }

    #[test]
    fn cpu_build_on_a_gpu_machine_fails() {
        let mut f = healthy();
        f.python = vec![python_env(
            "/opt/venv/bin/python",
            vec![torch(
                "/opt/venv/lib/python3.11/site-packages/torch",
                "2.5.1+cpu",
                None,
            )],
        )];
        let out = run(cpu_only, &f);
        assert_eq!(only(&out), Severity::Fail);
        // A CUDA build of the same series through its CUDA index, forced over the +cpu one.
        let cmd = &out[0].fix.as_ref().unwrap().commands[0];
        assert!(
            cmd.starts_with("/opt/venv/bin/python -m pip install --force-reinstall torch==2.5.")
                && cmd.contains("--index-url https://download.pytorch.org/whl/cu"),
            "{cmd}"
        );
        let mut g = no_gpu();
        g.python = f.python.clone();
        assert_eq!(only(&run(cpu_only, &g)), Severity::Info);
        assert_eq!(only(&run(cpu_only, &healthy())), Severity::Pass);
    }

    #[test]
    fn two_torches_in_one_env() {
        let mut f = healthy();
        f.python[0].torch.insert(
            0,
            torch(
                "/home/u/.local/lib/python3.11/site-packages/torch",
                "2.1.0+cu118",
                Some("11.8"),
            ),
        );
        let out = run(multiple_installs, &f);
        assert_eq!(only(&out), Severity::Warn);
        assert!(out[0].summary.contains("2.1.0+cu118"));
        assert!(out[0].fix.as_ref().unwrap().commands[0].contains("uninstall --user torch"));
        assert!(run(multiple_installs, &healthy()).is_empty());
    }

    #[test]
    fn shadowed_by_ld_library_path() {
        let mut f = healthy();
        assert_eq!(only(&run(libs_shadowed, &f)), Severity::Pass);
        f.ld_library_path_libs = vec![LdPathLib {
            dir: "/usr/local/cuda-12.4/lib64".into(),
            file: "libcublas.so.12".into(),
        }];
        let out = run(libs_shadowed, &f);
        assert_eq!(only(&out), Severity::Warn);
        assert!(out[0].evidence[0].value.contains("nvidia-cublas-cu12"));
        // Another major version is another soname: no shadowing.
        f.ld_library_path_libs[0].file = "libcublas.so.11".into();
        assert_eq!(only(&run(libs_shadowed, &f)), Severity::Pass);
    }

    #[test]
    fn wheel_requirements() {
        assert_eq!(only(&run(wheel_deps_mismatch, &healthy())), Severity::Pass);
        let mut f = healthy();
        f.python[0]
            .nvidia_wheels
            .retain(|w| w.name != "nvidia-cudnn-cu12");
        let out = run(wheel_deps_mismatch, &f);
        assert_eq!(only(&out), Severity::Fail);
        assert!(out[0].fix.as_ref().unwrap().commands[0]
            .ends_with("install --force-reinstall \"torch==2.4.1\""));
        let mut g = healthy();
        g.python[0].nvidia_wheels[0].version = "12.4.5.8".into();
        assert_eq!(only(&run(wheel_deps_mismatch, &g)), Severity::Warn);
    }

    #[test]
    fn deep_answers() {
        use crate::facts::python::DeepTorch;
        let mut f = healthy();
        assert!(
            run(cuda_unavailable, &f).is_empty(),
            "no --deep, no finding"
        );
        let deep = |ok: bool| {
            Some(crate::fact::Fact::known(DeepTorch {
                torch_version: Some("2.4.1+cu121".into()),
                cuda_available: ok,
                device_count: u32::from(ok),
                error: (!ok).then(|| "Found no NVIDIA driver on your system".into()),
                torch_path: None,
                cuda: Some("12.1".into()),
                arch_list: Vec::new(),
                warnings: Vec::new(),
            }))
        };
        f.python[0].deep = deep(true);
        assert_eq!(only(&run(cuda_unavailable, &f)), Severity::Pass);
        f.python[0].deep = deep(false);
        let out = run(cuda_unavailable, &f);
        assert_eq!(only(&out), Severity::Fail);
        assert!(out[0].details.contains("Found no NVIDIA driver"));
        f.python[0].deep = Some(crate::fact::Fact::failed("timed out after 20s"));
        assert_eq!(only(&run(cuda_unavailable, &f)), Severity::Fail);
        let mut g = no_gpu();
        g.python = vec![python_env("/usr/bin/python3", vec![])];
        g.python[0].deep = deep(false);
        assert_eq!(only(&run(cuda_unavailable, &g)), Severity::Info);
    }

    #[test]
    fn specifiers() {
        assert_eq!(satisfies("12.1.3.1", "==12.1.3.1"), Some(true));
        assert_eq!(satisfies("12.4.5.8", "==12.1.3.1"), Some(false));
        assert_eq!(satisfies("9.1.0.70", ">=9.1,<10"), Some(true));
        assert_eq!(satisfies("10.0", ">=9.1,<10"), Some(false));
        assert_eq!(satisfies("2.21.5", "~=2.21.0"), Some(true));
        assert_eq!(satisfies("2.22.0", "~=2.21.0"), Some(false));
        assert_eq!(satisfies("12.1", "==12.*"), None);
        assert_eq!(satisfies("garbage", "==1"), None);
        assert_eq!(satisfies("1.0", ""), Some(true));
    }
}
