//! Fix closure: before a fix that changes the machine (a driver branch, a torch build, a
//! toolkit, an environment variable) is printed, it is applied to a copy of the facts and
//! every check runs again. The fix is printed only when its finding goes away (nothing
//! at warn or fail is left for the same id and scope) and no failure appears that was
//! not there before. That rules out a driver that drops the GPU, a wheel without kernels
//! for every GPU or whose CUDA the driver cannot run, a toolkit the driver is too old for,
//! and paths that do not exist.
//!
//! Checks are pure functions of the facts, so the re-evaluation is cheap; inside it, fix
//! builders take their first candidate unverified (one level, no recursion).

use std::cell::Cell;
use std::collections::BTreeSet;

use super::{evaluate, Ctx, Selection};
use crate::fact::Fact;
use crate::facts::python::ArchList;
use crate::facts::Facts;
use crate::matrix::query::{platform_of, variant_arch_list};
use crate::matrix::schema::TorchVariant;
use crate::matrix::Matrix;
use crate::report::finding::{Scope, Severity};

/// One change a fix makes to the machine.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// Install driver `version` (kernel module and user space together) of a branch that
    /// supports CUDA up to `max_cuda`; `open`: the open kernel module flavour.
    Driver {
        version: String,
        max_cuda: String,
        open: bool,
    },
    /// Replace the torch that `import torch` loads in Python environment `env` (index in
    /// `facts.python`) by the matrix build `version` (a patch, "2.12.1") of `variant`.
    Torch {
        env: usize,
        version: String,
        variant: TorchVariant,
    },
    /// Point CUDA_HOME (and PATH) at a toolkit root.
    CudaHome { root: String },
    /// Install the CUDA toolkit `version` ("12.8.1") at /usr/local/cuda-X.Y and use it.
    Toolkit { version: String },
}

thread_local! {
    static DEPTH: Cell<u32> = const { Cell::new(0) };
    static ENABLED: Cell<bool> = const { Cell::new(true) };
}

/// True while the checks run on a copy of the facts with a fix applied.
pub fn verifying() -> bool {
    DEPTH.with(Cell::get) > 0
}

/// Turns verification off on this thread (the property test measures what it catches).
#[doc(hidden)]
pub fn set_enabled(on: bool) {
    ENABLED.with(|e| e.set(on));
}

struct Nested;

impl Nested {
    fn enter() -> Self {
        DEPTH.with(|d| d.set(d.get() + 1));
        Nested
    }
}

impl Drop for Nested {
    fn drop(&mut self) {
        DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
    }
}

/// A "/usr/local/cuda-12.8"-style root for a toolkit version.
pub fn toolkit_root(version: &str) -> String {
    let mut it = version.split('.');
    let major = it.next().unwrap_or("");
    let minor = it.next().unwrap_or("0");
    format!("/usr/local/cuda-{major}.{minor}")
}

/// `sm_XY`/`compute_XY` targets of a matrix build on a platform.
pub fn variant_targets(var: &TorchVariant, platform: &str) -> Option<ArchList> {
    let list = variant_arch_list(var, platform)?;
    let mut out = ArchList::default();
    for e in list {
        let suffix = e.suffix.map(String::from).unwrap_or_default();
        let sm = format!("sm_{}{}{suffix}", e.major, e.minor);
        out.sass.push(sm.clone());
        out.arch_flags.push(sm);
        if e.ptx {
            let c = format!("compute_{}{}{suffix}", e.major, e.minor);
            out.ptx.push(c.clone());
            out.arch_flags.push(c);
        }
    }
    out.libraries.push("libtorch_cuda.so".into());
    Some(out)
}

fn set_known(f: &mut Fact<String>, v: &str) {
    if f.value().is_some() {
        *f = Fact::known(v.to_string());
    }
}

/// The facts as they would be after `change`.
pub fn apply(facts: &Facts, change: &Change) -> Facts {
    let mut f = facts.clone();
    match change {
        Change::Driver {
            version,
            max_cuda,
            open,
        } => {
            let old = super::view::driver_version(facts).map(|v| v.to_string());
            f.kernel_module.version = Fact::known(version.clone());
            f.kernel_module.flavor = Fact::known(if *open {
                crate::facts::kernel_module::ModuleFlavor::Open
            } else {
                crate::facts::kernel_module::ModuleFlavor::Proprietary
            });
            if let Some(old) = &old {
                if let Fact::Known { value } = &mut f.kernel_module.version_line {
                    *value = value.replace(old.as_str(), version);
                }
                for file in f.driver_libs.files.iter_mut().filter(|x| !x.compat) {
                    file.path = file.path.replace(old.as_str(), version);
                    file.version.clone_from(version);
                }
                for p in [
                    &mut f.driver_libs.nvml_soname,
                    &mut f.driver_libs.cuda_soname,
                ]
                .into_iter()
                .flatten()
                {
                    *p = p.replace(old.as_str(), version);
                }
            }
            if let Fact::Known { value: n } = &mut f.driver_api.nvml {
                set_known(&mut n.driver_version, version);
                set_known(&mut n.cuda_driver_version, max_cuda);
            }
            if let Fact::Known { value: c } = &mut f.driver_api.cuda {
                set_known(&mut c.driver_version, max_cuda);
            }
        }
        Change::Torch {
            env,
            version,
            variant,
        } => {
            let platform = platform_of(&facts.system.arch);
            if let Some(e) = f.python.get_mut(*env) {
                e.nvidia_wheels.clear();
                e.deep = None;
                if let Some(t) = e.torch.first_mut() {
                    t.version = Fact::known(format!("{version}+{}", variant.name));
                    t.cuda = Fact::known(Some(variant.cuda.clone()));
                    t.hip = None;
                    t.cudnn = variant
                        .cudnn
                        .clone()
                        .map_or_else(|| Fact::missing("not in the matrix"), Fact::known);
                    t.nccl = variant
                        .nccl
                        .clone()
                        .map_or_else(|| Fact::missing("not in the matrix"), Fact::known);
                    t.requires.clear();
                    t.bundled_libs.clear();
                    t.arch = variant_targets(variant, platform)
                        .map_or_else(|| Fact::missing("no arch list in the matrix"), Fact::known);
                }
            }
        }
        Change::CudaHome { root } => {
            f.toolkits.cuda_home = Some(root.clone());
            f.toolkits.path_nvcc = Some(root.clone());
            f.env.insert("CUDA_HOME".into(), root.clone());
        }
        Change::Toolkit { version } => {
            let root = toolkit_root(version);
            f.toolkits.toolkits.retain(|t| t.root != root);
            f.toolkits.toolkits.push(crate::facts::toolkit::Toolkit {
                root: root.clone(),
                version: Fact::known(version.clone()),
                version_source: Some("version.json".into()),
                nvcc: Some(format!("{root}/bin/nvcc")),
                found_via: vec!["CUDA_HOME".into()],
            });
            f.toolkits.cuda_home = Some(root.clone());
            f.toolkits.path_nvcc = Some(root.clone());
            f.env.insert("CUDA_HOME".into(), root);
        }
    }
    f
}

fn failures(facts: &Facts, ctx: &Ctx) -> BTreeSet<(String, String)> {
    let (findings, _) = evaluate(facts, ctx.matrix, ctx.opts, &Selection::default());
    findings
        .into_iter()
        .filter(|f| f.severity == Severity::Fail)
        .map(|f| (f.id, scope_key(&f.scope)))
        .collect()
}

fn scope_key(s: &Scope) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// Why a change does not close a finding, or `Ok` when it does.
pub fn check(ctx: &Ctx, id: &str, scope: &Scope, change: &Change) -> Result<(), String> {
    if verifying() || !ENABLED.with(Cell::get) {
        return Ok(());
    }
    let _nested = Nested::enter();
    let before = failures(ctx.facts, ctx);
    let after_facts = apply(ctx.facts, change);
    let (after, _) = evaluate(&after_facts, ctx.matrix, ctx.opts, &Selection::default());
    let key = scope_key(scope);
    if let Some(left) = after
        .iter()
        .find(|f| f.id == id && scope_key(&f.scope) == key && f.severity >= Severity::Warn)
    {
        return Err(format!("{id} remains: {}", left.summary));
    }
    if let Some(new) = after.iter().find(|f| {
        f.severity == Severity::Fail && !before.contains(&(f.id.clone(), scope_key(&f.scope)))
    }) {
        return Err(format!("new failure {}: {}", new.id, new.summary));
    }
    Ok(())
}

/// True when `change` closes the finding `id` at `scope`.
pub fn closes(ctx: &Ctx, id: &str, scope: &Scope, change: &Change) -> bool {
    check(ctx, id, scope, change).is_ok()
}

/// The matrix is needed by callers that build changes; re-exported for them.
pub fn release_variant<'a>(
    matrix: &'a Matrix,
    version: &str,
    variant: &str,
) -> Option<(&'a crate::matrix::schema::TorchRelease, &'a TorchVariant)> {
    let rel = matrix.torch_release(version)?;
    let var = rel.variant.iter().find(|v| v.name == variant)?;
    Some((rel, var))
}
