//! toolkit.*: which CUDA toolkits are installed and whether PATH, CUDA_HOME and
//! /usr/local/cuda agree on one. (Version judgements need the matrix.)

use super::catalogue::{Action, Area, Check, PasteGap};
use super::Ctx;
use crate::finding::{Finding, Scope, Severity};

pub const TOOLKIT_NOT_FOUND: Check = Check {
    id: "toolkit.not_found",
    name: "toolkit.installed",
    area: Area::Toolkit,
    title: "a CUDA toolkit is installed",
    failing: "no CUDA toolkit (info: wheels bundle their runtime)",
    why: "Only building CUDA code needs a toolkit; PyTorch's wheels bring their own runtime.",
    next_step: "Install a toolkit only if something must be compiled here.",
    action: Action::None,
    reads: &["toolkits"],
    not_in_paste: None,
    run: not_found,
};

pub fn not_found(ctx: &Ctx) -> Vec<Finding> {
    let tk = &ctx.facts.toolkits;
    let id = &TOOLKIT_NOT_FOUND;
    if let Some(first) = tk.toolkits.first() {
        let versions: Vec<String> = tk
            .toolkits
            .iter()
            .map(|t| format!("{} ({})", version_of(t), t.root))
            .collect();
        let mut out = vec![id
            .finding(
                Severity::Pass,
                format!("CUDA toolkit {}", versions.join(", ")),
            )
            .scope(Scope::Toolkit {
                root: first.root.clone(),
            })];
        // A toolkit that could not be read (nvcc hung, crashed or printed garbage) is not
        // a healthy one.
        for t in &tk.toolkits {
            if let crate::fact::Fact::Failed { error, command, .. } = &t.version {
                let mut f = id.finding(Severity::Warn,
                    format!("The CUDA toolkit at {} could not be read: {error}", t.root),
                )
                .scope(Scope::Toolkit {
                    root: t.root.clone(),
                })
                .details(
                    "Its version.json/version.txt gave no version and its nvcc did not answer.                      Builds that use this toolkit (nvcc, CUDA_HOME) will fail or hang the same way.",
                )
                .fix(
                    "Reinstall the toolkit, or remove it from PATH/CUDA_HOME if it is not meant to be used.",
                    &[],
                );
                if let Some(c) = command {
                    f = f.evidence("command", c.clone());
                }
                out.push(f);
            }
        }
        return out;
    }
    let cuda = super::compat::torch_builds(ctx)
        .into_iter()
        .find_map(|u| crate::version::DottedVersion::parse(&u.cuda));
    let (text, commands) = match cuda {
        Some(v) => {
            let (t, c) = toolkit_install(ctx, v.major(), v.minor());
            (format!("Only if you compile CUDA code: install the CUDA {}.{} toolkit, the CUDA of your PyTorch build. {t}", v.major(), v.minor()), c)
        }
        None => (
            "Only if you compile CUDA code: install a toolkit whose CUDA matches your PyTorch build's (NVIDIA's cuda-toolkit-X-Y packages, or the nvidia-cuda-nvcc wheels).".to_string(),
            Vec::new(),
        ),
    };
    vec![id.finding(Severity::Info, "No CUDA toolkit installed (often fine)")
        .details(
            "No nvcc on PATH, no CUDA_HOME/CUDA_PATH and nothing in /usr/local/cuda*, /opt/cuda. PyTorch wheels bundle \
             the CUDA runtime libraries they need, so running models does not need a toolkit; compiling CUDA code \
             (custom extensions, flash-attn from source) does.",
        )
        .fix_owned(text, commands)]
}

/// The pip distribution of nvcc for a CUDA major: "nvidia-cuda-nvcc-cu11", "-cu12"; from
/// CUDA 13 the wheels drop the suffix ("nvidia-cuda-nvcc"; the -cu13 names are deprecated
/// placeholders on PyPI).
pub fn nvcc_wheel(major: u64) -> String {
    if major >= 13 {
        "nvidia-cuda-nvcc".to_string()
    } else {
        format!("nvidia-cuda-nvcc-cu{major}")
    }
}

/// What installs CUDA toolkit `major.minor` here: NVIDIA's cuda-toolkit-X-Y package (it
/// installs to /usr/local/cuda-X.Y) for the distribution, else the nvcc wheel.
pub fn toolkit_install(ctx: &Ctx, major: u64, minor: u64) -> (String, Vec<String>) {
    use super::view::OsFamily;
    let pkg = format!("cuda-toolkit-{major}-{minor}");
    let root = format!("/usr/local/cuda-{major}.{minor}");
    let tool = match super::view::os_family(ctx.facts) {
        OsFamily::Ubuntu | OsFamily::Debian => Some("apt"),
        OsFamily::Rhel | OsFamily::Fedora => Some("dnf"),
        OsFamily::Suse => Some("zypper"),
        _ => None,
    };
    match tool {
        Some(tool) => (
            format!("From NVIDIA's CUDA repository the {pkg} package installs it to {root}; point CUDA_HOME at it."),
            vec![
                format!("sudo {tool} install {pkg}"),
                format!("export CUDA_HOME={root}"),
                format!("export PATH={root}/bin:$PATH"),
            ],
        ),
        None => (
            format!("NVIDIA's {} wheel provides nvcc {major}.{minor} inside this Python environment.", nvcc_wheel(major)),
            vec![format!("python3 -m pip install \"{}=={major}.{minor}.*\"", nvcc_wheel(major))],
        ),
    }
}

fn version_of(t: &crate::facts::toolkit::Toolkit) -> String {
    t.version
        .value()
        .cloned()
        .unwrap_or_else(|| "unknown version".into())
}

pub const TOOLKIT_MULTIPLE: Check = Check {
    id: "toolkit.multiple",
    name: "toolkit.installs",
    area: Area::Toolkit,
    title: "which toolkits are installed",
    failing: "several toolkits (info: which one each pointer uses)",
    why: "Several toolkits are fine as long as builds use the one meant.",
    next_step: "Check which toolkit PATH, CUDA_HOME and /usr/local/cuda name.",
    action: Action::None,
    reads: &["toolkits"],
    not_in_paste: Some(PasteGap {
        what: "every installed toolkit",
        how: "`ls -d /usr/local/cuda-*`",
    }),
    run: multiple,
};

pub fn multiple(ctx: &Ctx) -> Vec<Finding> {
    let tk = &ctx.facts.toolkits;
    if tk.toolkits.len() < 2 {
        return Vec::new();
    }
    let mut finding = TOOLKIT_MULTIPLE.finding(Severity::Info, format!("{} CUDA toolkits installed", tk.toolkits.len()))
        .details("Several toolkits are fine as long as builds use the intended one: nvcc on PATH compiles, CUDA_HOME is what PyTorch's extension builder uses, and /usr/local/cuda is the default for most build systems.");
    for t in &tk.toolkits {
        finding = finding.evidence(
            "toolkits",
            format!(
                "{} {} (found via {})",
                t.root,
                version_of(t),
                t.found_via.join(", ")
            ),
        );
    }
    for (what, root) in pointers(tk) {
        finding = finding.evidence(what, root);
    }
    vec![finding]
}

fn pointers(tk: &crate::facts::toolkit::ToolkitFacts) -> Vec<(&'static str, &str)> {
    [
        ("nvcc on PATH", &tk.path_nvcc),
        ("CUDA_HOME", &tk.cuda_home),
        ("/usr/local/cuda", &tk.usr_local_cuda),
    ]
    .into_iter()
    .filter_map(|(what, root)| root.as_deref().map(|r| (what, r)))
    .collect()
}

pub const TOOLKIT_PATH_INCONSISTENT: Check = Check {
    id: "toolkit.path_inconsistent",
    name: "toolkit.paths",
    area: Area::Toolkit,
    title: "nvcc on PATH, CUDA_HOME and /usr/local/cuda agree",
    failing: "`nvcc` on PATH, `CUDA_HOME` and `/usr/local/cuda` disagree",
    why: "Builds pick up different toolkits depending on which pointer they read.",
    next_step: "Point PATH, CUDA_HOME and /usr/local/cuda at one toolkit.",
    action: Action::FixSoftware,
    reads: &["toolkits"],
    not_in_paste: Some(PasteGap {
        what: "CUDA_HOME and /usr/local/cuda",
        how: "`echo $CUDA_HOME; ls -l /usr/local/cuda`",
    }),
    run: path_inconsistent,
};

pub fn path_inconsistent(ctx: &Ctx) -> Vec<Finding> {
    let tk = &ctx.facts.toolkits;
    let id = &TOOLKIT_PATH_INCONSISTENT;
    let ptrs = pointers(tk);
    if ptrs.is_empty() {
        return Vec::new();
    }
    let first = ptrs[0].1;
    if ptrs.iter().all(|(_, r)| *r == first) {
        return vec![id.finding(
            Severity::Pass,
            format!(
                "{} point to {first}",
                ptrs.iter().map(|(w, _)| *w).collect::<Vec<_>>().join(", ")
            ),
        )];
    }
    let described: Vec<String> = ptrs.iter().map(|(w, r)| format!("{w} -> {r}")).collect();
    let (fix, commands) = match (&tk.path_nvcc, &tk.cuda_home) {
        (Some(nvcc_root), Some(_)) | (Some(nvcc_root), None) => (
            "Make them agree; to build with the toolkit nvcc comes from, point CUDA_HOME at it (or put the other toolkit's bin first on PATH).".to_string(),
            vec![format!("export CUDA_HOME={nvcc_root}")],
        ),
        (None, Some(home)) => (
            "Put CUDA_HOME's nvcc first on PATH.".to_string(),
            vec![format!("export PATH={home}/bin:$PATH")],
        ),
        (None, None) => ("Make the toolkit pointers agree.".to_string(), Vec::new()),
    };
    let mut finding = id.finding(Severity::Warn, "nvcc on PATH, CUDA_HOME and /usr/local/cuda name different toolkits")
        .details(format!(
            "{}. Extension builds (torch.utils.cpp_extension uses CUDA_HOME, else nvcc's location) then mix headers and \
             libraries of one toolkit with the compiler of another, which fails at build or import time.",
            described.join("; ")
        ));
    for (w, r) in &ptrs {
        finding = finding.evidence(w, r);
    }
    vec![finding.fix_owned(fix, commands)]
}

/// The toolkit extension builds use: torch.utils.cpp_extension takes CUDA_HOME, else the
/// toolkit of nvcc on PATH.
fn build_toolkit(
    tk: &crate::facts::toolkit::ToolkitFacts,
) -> Option<&crate::facts::toolkit::Toolkit> {
    let root = tk
        .cuda_home
        .as_ref()
        .or(tk.path_nvcc.as_ref())
        .or(tk.usr_local_cuda.as_ref())?;
    tk.toolkits.iter().find(|t| &t.root == root)
}

pub const TOOLKIT_TORCH_MISMATCH: Check = Check {
    id: "toolkit.torch_mismatch",
    name: "toolkit.torch_cuda",
    area: Area::Toolkit,
    title: "the toolkit extensions build with matches PyTorch's CUDA",
    failing: "the toolkit extensions build with is another CUDA major (fail) or minor (warn) than PyTorch's",
    why: "Extensions built with another CUDA than PyTorch's fail to build or load.",
    next_step: "Use the toolkit of PyTorch's CUDA release for extension builds.",
    action: Action::FixSoftware,
    reads: &["toolkits", "python"],
    not_in_paste: None,
    run: torch_mismatch,
};

/// PyTorch's extension builder refuses a toolkit of another CUDA major than the build's
/// and warns on another minor (torch.utils.cpp_extension._check_cuda_version).
pub fn torch_mismatch(ctx: &Ctx) -> Vec<Finding> {
    use crate::version::DottedVersion;
    let Some(tk) = build_toolkit(&ctx.facts.toolkits) else {
        return Vec::new();
    };
    let Some(nvcc) = tk.version.value().and_then(|v| DottedVersion::parse(v)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for u in super::compat::torch_builds(ctx) {
        let Some(cuda) = DottedVersion::parse(&u.cuda) else {
            continue;
        };
        let id = &TOOLKIT_TORCH_MISMATCH;
        let (severity, summary) = if nvcc.major() != cuda.major() {
            (
                Severity::Fail,
                format!(
                    "nvcc {nvcc} ({}) and {} (CUDA {}) are different CUDA majors",
                    tk.root, u.what, u.cuda
                ),
            )
        } else if nvcc.minor() != cuda.minor() {
            (
                Severity::Warn,
                format!(
                    "nvcc {nvcc} ({}) and {} (CUDA {}) differ in the CUDA minor version",
                    tk.root, u.what, u.cuda
                ),
            )
        } else {
            out.push(
                id.finding(
                    Severity::Pass,
                    format!("nvcc {nvcc} matches {}'s CUDA {}", u.what, u.cuda),
                )
                .scope(u.scope),
            );
            continue;
        };
        let (fix_text, fix_commands) = mismatch_fix(ctx, id.id, &u, &cuda, &nvcc);
        out.push(
            id.finding(severity, summary)
                .scope(u.scope)
                .details(if severity == Severity::Fail {
                    "Building a CUDA extension (pip install of flash-attn, apex, a custom op) stops with 'The detected CUDA version mismatches the version that was used to compile PyTorch'."
                } else {
                    "Extension builds warn about the mismatch and usually work; an extension can still fail at import if it uses newer CUDA APIs."
                })
                .evidence("toolkit", format!("{} {nvcc}", tk.root))
                .evidence("torch.cuda", &u.cuda)
                .fix_owned(fix_text, fix_commands),
        );
    }
    out
}

/// Build with a toolkit of the torch build's CUDA: one already installed (CUDA_HOME at its
/// real root), else NVIDIA's package for it, else the PyTorch variant of nvcc's CUDA; each
/// proven by the fix closure.
fn mismatch_fix(
    ctx: &Ctx,
    id: &str,
    u: &super::compat::CudaUser,
    cuda: &crate::version::DottedVersion,
    nvcc: &crate::version::DottedVersion,
) -> (String, Vec<String>) {
    use super::closure::{closes, Change};
    let installed = ctx.facts.toolkits.toolkits.iter().find(|t| {
        t.version
            .value()
            .and_then(|v| crate::version::DottedVersion::parse(v))
            .is_some_and(|v| v.same_prefix(cuda, 2))
    });
    if let Some(t) = installed {
        let change = Change::CudaHome {
            root: t.root.clone(),
        };
        if closes(ctx, id, &u.scope, &change) {
            return (
                format!(
                    "Build extensions with the CUDA {} toolkit already installed at {}.",
                    u.cuda, t.root
                ),
                vec![
                    format!("export CUDA_HOME={}", t.root),
                    format!("export PATH={}/bin:$PATH", t.root),
                ],
            );
        }
    }
    let newest_update = ctx
        .matrix
        .toolkits
        .toolkit
        .iter()
        .filter_map(|t| crate::version::DottedVersion::parse(&t.version))
        .filter(|v| v.same_prefix(cuda, 2))
        .max();
    if let Some(v) = newest_update {
        let change = Change::Toolkit {
            version: v.to_string(),
        };
        if closes(ctx, id, &u.scope, &change) {
            let (text, commands) = toolkit_install(ctx, cuda.major(), cuda.minor());
            return (
                format!("Build extensions with a CUDA {} toolkit. {text}", u.cuda),
                commands,
            );
        }
    }
    if let Some((env, t)) = u.torch {
        if let Some(cmd) = super::compat::torch_advice_for_cuda(ctx, env, t, id, &u.scope, nvcc) {
            return (
                format!(
                    "Install the PyTorch build for nvcc's CUDA {}.{}.",
                    nvcc.major(),
                    nvcc.minor()
                ),
                vec![cmd],
            );
        }
    }
    (
        format!(
            "Build extensions with a CUDA {} toolkit, or use a PyTorch build for CUDA {}.{}; none the matrix knows fits this machine without breaking something else.",
            u.cuda,
            nvcc.major(),
            nvcc.minor()
        ),
        Vec::new(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::testutil::*;
    use crate::fact::Fact;
    use crate::facts::toolkit::Toolkit;

    fn tk(root: &str, v: &str) -> Toolkit {
        Toolkit {
            root: root.into(),
            version: Fact::known(v.into()),
            version_source: Some("version.json".into()),
            nvcc: Some(format!("{root}/bin/nvcc")),
            found_via: vec!["/usr/local/cuda-*".into()],
        }
    }

    #[test]
    fn none_is_info_one_is_pass() {
        assert_eq!(only(&run(not_found, &no_gpu())), Severity::Info);
        assert_eq!(only(&run(not_found, &healthy())), Severity::Pass);
        assert!(run(multiple, &healthy()).is_empty());
    }

    #[test]
    fn several_disagreeing_toolkits() {
        let mut f = healthy();
        f.toolkits
            .toolkits
            .push(tk("/usr/local/cuda-11.8", "11.8.89"));
        f.toolkits.path_nvcc = Some("/usr/local/cuda-11.8".into());
        f.toolkits.cuda_home = Some("/usr/local/cuda-12.4".into());
        let m = run(multiple, &f);
        assert_eq!(only(&m), Severity::Info);
        assert_eq!(
            m[0].evidence
                .iter()
                .filter(|e| e.fact == "toolkits")
                .count(),
            2
        );
        let out = run(path_inconsistent, &f);
        assert_eq!(only(&out), Severity::Warn);
        assert_eq!(
            out[0].fix.as_ref().unwrap().commands,
            vec!["export CUDA_HOME=/usr/local/cuda-11.8".to_string()]
        );
        assert_eq!(only(&run(path_inconsistent, &healthy())), Severity::Pass);
        assert!(run(path_inconsistent, &no_gpu()).is_empty());
    }
}
