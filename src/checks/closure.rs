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
use crate::finding::{Scope, Severity};
use crate::matrix::query::{platform_of, variant_arch_list};
use crate::matrix::schema::TorchVariant;
use crate::matrix::Matrix;

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
        variant: Box<TorchVariant>,
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

fn failures(facts: &Facts, ctx: &Ctx) -> FailureSet {
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
    let after_facts = apply(ctx.facts, change);
    let (after, _) = evaluate(&after_facts, ctx.matrix, ctx.opts, &Selection::default());
    let key = scope_key(scope);
    if let Some(left) = after
        .iter()
        .find(|f| f.id == id && scope_key(&f.scope) == key && f.severity >= Severity::Warn)
    {
        return Err(format!("{id} remains: {}", left.summary));
    }
    if !after.iter().any(|f| f.severity == Severity::Fail) {
        return Ok(());
    }
    let before = before_failures(ctx);
    if let Some(new) = after.iter().find(|f| {
        f.severity == Severity::Fail && !before.contains(&(f.id.clone(), scope_key(&f.scope)))
    }) {
        return Err(format!("new failure {}: {}", new.id, new.summary));
    }
    Ok(())
}

/// Failures by (finding id, scope as JSON).
type FailureSet = BTreeSet<(String, String)>;

thread_local! {
    /// The failures of the last facts judged as "before" (one report asks for many fixes).
    static BEFORE: std::cell::RefCell<Option<(Facts, FailureSet)>> =
        const { std::cell::RefCell::new(None) };
}

fn before_failures(ctx: &Ctx) -> FailureSet {
    let hit = BEFORE.with(|b| {
        b.borrow()
            .as_ref()
            .filter(|(f, _)| f == ctx.facts)
            .map(|(_, set)| set.clone())
    });
    if let Some(set) = hit {
        return set;
    }
    let set = failures(ctx.facts, ctx);
    BEFORE.with(|b| *b.borrow_mut() = Some((ctx.facts.clone(), set.clone())));
    set
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

#[cfg(test)]
mod tests {
    //! The closure property over the matrix grid: every GPU family × driver branch × torch
    //! variant × CUDA toolkit. For each machine of the grid, every fix the checks print
    //! is read back from its text and commands (what a person would run), applied to the
    //! facts, and the checks run again: its finding must go away and no new failure may
    //! appear. Printed commands must be runnable (no comments) and name only supported
    //! branches; a CUDA 13 stack gets no CUDA 12 package names.

    use std::collections::BTreeMap;

    use proptest::prelude::*;

    use super::*;
    use crate::checks::testutil::{healthy, matrix, torch as torch_build};
    use crate::checks::CheckOptions;
    use crate::facts::kernel_module::ModuleFlavor;
    use crate::finding::Finding;
    use crate::version::DottedVersion;

    /// One representative product per compute capability the desktop/data-center drivers
    /// drive: (name, cc, PCI device id).
    fn families() -> Vec<(String, String, String)> {
        let m = matrix();
        let mut out = Vec::new();
        for a in &m.archs.arch {
            if a.min_driver_branch.is_none() && a.last_driver_branch.is_none() {
                continue; // Jetson/L4T: no desktop branch drives them
            }
            if let Some(g) = m.gpus.gpu.iter().find(|g| {
                DottedVersion::parse(&g.cc) == DottedVersion::parse(&a.cc)
                    && !g.pci_ids.is_empty()
                    && g.segment != crate::matrix::schema::Segment::Jetson
            }) {
                out.push((g.name.clone(), g.cc.clone(), g.pci_ids[0].clone()));
            }
        }
        out
    }

    fn drivers() -> Vec<(u32, String)> {
        let m = matrix();
        m.drivers
            .branch
            .iter()
            .map(|b| {
                (
                    b.branch,
                    m.branch_release(b.branch)
                        .unwrap_or_else(|| format!("{}.10.01", b.branch)),
                )
            })
            .collect()
    }

    /// (torch version, CUDA) per build: every matrix variant, a CPU-only build, no torch.
    fn torches() -> Vec<Option<(String, Option<String>)>> {
        let m = matrix();
        let mut out = vec![None, Some(("2.7.0+cpu".to_string(), None))];
        for r in &m.torch.release {
            let patch = r
                .patches
                .last()
                .cloned()
                .unwrap_or_else(|| r.version.clone());
            for v in &r.variant {
                out.push(Some((format!("{patch}+{}", v.name), Some(v.cuda.clone()))));
            }
        }
        out
    }

    fn toolkits() -> Vec<Option<String>> {
        let m = matrix();
        let mut seen = Vec::new();
        let mut out = vec![None];
        for t in &m.toolkits.toolkit {
            let Some(v) = DottedVersion::parse(&t.version) else {
                continue;
            };
            let key = (v.major(), v.minor());
            if v.major() >= 11 && !seen.contains(&key) {
                seen.push(key);
                out.push(Some(t.version.clone()));
            }
        }
        out
    }

    /// Whether a branch drives a GPU of `cc`, as the matrix says.
    fn drives(branch: u32, cc: &str) -> bool {
        let m = matrix();
        let arch = m.arch(cc);
        let b = m.drivers.branch.iter().find(|b| b.branch == branch);
        let ccv = DottedVersion::parse(cc);
        !(arch
            .and_then(|a| a.min_driver_branch)
            .is_some_and(|min| branch < min)
            || arch
                .and_then(|a| a.last_driver_branch)
                .is_some_and(|last| branch > last)
            || b.and_then(|b| DottedVersion::parse(&b.min_cc))
                .is_some_and(|min| ccv.as_ref().is_some_and(|c| *c < min)))
    }

    fn machine(
        gpu: &(String, String, String),
        driver: &(u32, String),
        torch: &Option<(String, Option<String>)>,
        toolkit: &Option<String>,
    ) -> Facts {
        let mut f = healthy();
        let (name, cc, pci) = gpu;
        let version = driver.1.clone();
        let max_cuda = matrix()
            .drivers
            .branch
            .iter()
            .find(|b| b.branch == driver.0)
            .map(|b| b.max_cuda.clone())
            .unwrap_or_default();
        let old = f.kernel_module.version.value().cloned().unwrap_or_default();
        f = apply(
            &f,
            &Change::Driver {
                version: version.clone(),
                max_cuda,
                open: DottedVersion::parse(cc)
                    .is_some_and(|c| c >= DottedVersion::parse("7.5").unwrap()),
            },
        );
        assert_ne!(old, "", "the healthy node has a driver");
        if let Fact::Known { value } = &mut f.pci_gpus {
            value[0].device_id.clone_from(pci);
        }
        if let Fact::Known { value: n } = &mut f.driver_api.nvml {
            if let Fact::Known { value: devs } = &mut n.devices {
                if drives(driver.0, cc) {
                    devs[0].name = Fact::known(name.clone());
                    devs[0].compute_capability = Fact::known(cc.clone());
                } else {
                    devs.clear();
                }
            }
        }
        if !drives(driver.0, cc) {
            if let Fact::Known { value: c } = &mut f.driver_api.cuda {
                c.device_count = Fact::known(0);
            }
        }
        if DottedVersion::parse(cc).is_some_and(|c| c < DottedVersion::parse("7.5").unwrap()) {
            f.kernel_module.flavor = Fact::known(ModuleFlavor::Proprietary);
        }
        f.python[0].nvidia_wheels.clear();
        f.python[0].torch = match torch {
            None => Vec::new(),
            Some((v, cuda)) => {
                let mut t = torch_build(
                    "/opt/venv/lib/python3.11/site-packages/torch",
                    v,
                    cuda.as_deref(),
                );
                t.arch = Fact::missing("the matrix's record of the build");
                t.requires.clear();
                vec![t]
            }
        };
        match toolkit {
            None => {
                f.toolkits.toolkits.clear();
                f.toolkits.path_nvcc = None;
                f.toolkits.cuda_home = None;
                f.toolkits.usr_local_cuda = None;
            }
            Some(v) => {
                let root = toolkit_root(v);
                f.toolkits.toolkits = vec![crate::facts::toolkit::Toolkit {
                    root: root.clone(),
                    version: Fact::known(v.clone()),
                    version_source: Some("version.json".into()),
                    nvcc: Some(format!("{root}/bin/nvcc")),
                    found_via: vec!["PATH".into()],
                }];
                f.toolkits.path_nvcc = Some(root.clone());
                f.toolkits.usr_local_cuda = Some(root);
                f.toolkits.cuda_home = None;
            }
        }
        f
    }

    /// The changes a printed fix makes, read back from its text and commands.
    fn changes_of(facts: &Facts, finding: &Finding) -> Result<Vec<Change>, String> {
        let m = matrix();
        let Some(fix) = &finding.fix else {
            return Ok(Vec::new());
        };
        let all = std::iter::once(fix.text.clone())
            .chain(fix.commands.iter().cloned())
            .collect::<Vec<_>>()
            .join("\n");
        let mut out = Vec::new();
        // pip install torch==X --index-url …/whl/cuNNN
        for (i, _) in all.match_indices("torch==") {
            let rest = &all[i + 7..];
            let version = rest.split_whitespace().next().unwrap_or("").to_string();
            let variant = rest
                .split("/whl/")
                .nth(1)
                .and_then(|r| r.split(|c: char| !c.is_ascii_alphanumeric()).next())
                .unwrap_or("")
                .to_string();
            let (_, var) = release_variant(m, &version, &variant)
                .ok_or(format!("{version} {variant} is not a build of the matrix"))?;
            out.push(Change::Torch {
                env: 0,
                version,
                variant: Box::new(var.clone()),
            });
        }
        // driver branch pins
        let mut branch = None;
        for pat in ["nvidia-driver-pinning-", "nvidia-driver:", "*nvidia*"] {
            for (i, _) in all.match_indices(pat) {
                let b: String = all[i + pat.len()..]
                    .chars()
                    .take_while(char::is_ascii_digit)
                    .collect();
                branch = b.parse::<u32>().ok().or(branch);
            }
        }
        if let Some(b) = branch {
            let entry = m
                .drivers
                .branch
                .iter()
                .find(|x| x.branch == b)
                .ok_or(format!("R{b} is not in the matrix"))?;
            if m.branch_past_eol(entry) {
                return Err(format!("R{b} is past its end of life"));
            }
            let version = all
                .split(" or newer")
                .next()
                .and_then(|s| s.rsplit(['(', ' ']).next())
                .filter(|v| v.starts_with(&b.to_string()))
                .map(str::to_string)
                .or_else(|| m.branch_release(b))
                .ok_or(format!("no release of R{b} named"))?;
            out.push(Change::Driver {
                version,
                max_cuda: entry.max_cuda.clone(),
                open: all.contains("install nvidia-open") || all.contains("-open"),
            });
        }
        // toolkits and CUDA_HOME
        if let Some(i) = all.find("cuda-toolkit-") {
            let tag: String = all[i + 13..]
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '-')
                .collect();
            let want = DottedVersion::parse(&tag.replace('-', ".")).ok_or("bad toolkit")?;
            let newest = m
                .toolkits
                .toolkit
                .iter()
                .filter_map(|t| DottedVersion::parse(&t.version))
                .filter(|v| v.same_prefix(&want, 2))
                .max()
                .ok_or(format!("no CUDA {tag} in the matrix"))?;
            out.push(Change::Toolkit {
                version: newest.to_string(),
            });
        } else if let Some(c) = fix
            .commands
            .iter()
            .find_map(|c| c.strip_prefix("export CUDA_HOME="))
        {
            if !facts.toolkits.toolkits.iter().any(|t| t.root == c) {
                return Err(format!("CUDA_HOME={c} does not exist on the machine"));
            }
            out.push(Change::CudaHome {
                root: c.to_string(),
            });
        }
        Ok(out)
    }

    /// Problems with the fixes printed for one machine (empty: all close).
    fn violations(facts: &Facts) -> Vec<String> {
        let opts = CheckOptions::default();
        let ctx = Ctx {
            facts,
            opts: &opts,
            matrix: matrix(),
        };
        let (findings, errors) = evaluate(facts, matrix(), &opts, &Selection::default());
        let mut out: Vec<String> = errors
            .iter()
            .map(|e| format!("{} panicked: {}", e.id, e.message))
            .collect();
        let cuda13 = facts.python.iter().any(|e| {
            e.torch.first().is_some_and(|t| {
                t.cuda
                    .value()
                    .and_then(|c| c.as_deref())
                    .is_some_and(|c| c.starts_with("13."))
            })
        });
        for f in findings.iter().filter(|f| f.severity >= Severity::Warn) {
            let Some(fix) = &f.fix else { continue };
            for c in &fix.commands {
                if c.trim_start().starts_with('#') {
                    out.push(format!("{}: a comment, not a command: {c}", f.id));
                }
            }
            let text = format!("{} {}", fix.text, fix.commands.join(" "));
            if cuda13 && (text.contains("-cu12") || text.contains("cuda-toolkit-12")) {
                out.push(format!(
                    "{}: CUDA 12 names on a CUDA 13 stack: {text}",
                    f.id
                ));
            }
            match changes_of(facts, f) {
                Err(e) => out.push(format!("{}: {e}", f.id)),
                Ok(changes) => {
                    for change in changes {
                        // Verify with the closure on, whatever the fix builders ran with.
                        let was = ENABLED.with(Cell::get);
                        set_enabled(true);
                        let r = check(&ctx, &f.id, &f.scope, &change);
                        set_enabled(was);
                        if let Err(e) = r {
                            out.push(format!("{}: {change:?} does not close: {e}", f.id));
                        }
                    }
                }
            }
        }
        out
    }

    type Grid = (
        Vec<(String, String, String)>,
        Vec<(u32, String)>,
        Vec<Option<(String, Option<String>)>>,
        Vec<Option<String>>,
    );

    fn grid() -> Grid {
        (families(), drivers(), torches(), toolkits())
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(160),
            failure_persistence: None,
            ..ProptestConfig::default()
        })]
        #[test]
        fn printed_fixes_close_over_the_matrix_grid(
            g in any::<prop::sample::Index>(),
            d in any::<prop::sample::Index>(),
            t in any::<prop::sample::Index>(),
            k in any::<prop::sample::Index>(),
        ) {
            let (gpus, drivers, torches, toolkits) = grid();
            let facts = machine(
                g.get(&gpus),
                d.get(&drivers),
                t.get(&torches),
                k.get(&toolkits),
            );
            let v = violations(&facts);
            prop_assert!(v.is_empty(), "{:#?}", v);
        }
    }

    /// The whole grid, with and without the closure: prints its size and what the
    /// closure caught (fixes the builders would have printed that do not close).
    /// `cargo test --release --lib closure::tests::whole_grid -- --ignored --nocapture`
    #[test]
    #[ignore = "minutes: the whole grid; the sampled property runs by default"]
    fn whole_grid() {
        let (gpus, drivers, torches, toolkits) = grid();
        let size = gpus.len() * drivers.len() * torches.len() * toolkits.len();
        println!(
            "grid: {} GPU families x {} driver branches x {} torch builds x {} toolkits = {size}",
            gpus.len(),
            drivers.len(),
            torches.len(),
            toolkits.len()
        );
        // GPU_DOCTOR_GRID_STRIDE=N judges every Nth machine only (a quicker look in debug builds).
        let stride: usize = std::env::var("GPU_DOCTOR_GRID_STRIDE")
            .ok()
            .and_then(|s| s.parse().ok())
            .filter(|n| *n > 0)
            .unwrap_or(1);
        let mut n = 0usize;
        let mut machines = 0usize;
        let mut failing = 0usize;
        let mut caught: BTreeMap<String, usize> = BTreeMap::new();
        for (i, g) in gpus.iter().enumerate() {
            for (j, d) in drivers.iter().enumerate() {
                for (l, t) in torches.iter().enumerate() {
                    // every toolkit in turn across the grid (the full product is the size above)
                    let k = &toolkits[(i + j + l) % toolkits.len()];
                    n += 1;
                    if n % stride != 0 {
                        continue;
                    }
                    let facts = machine(g, d, t, k);
                    machines += 1;
                    let v = violations(&facts);
                    if !v.is_empty() {
                        failing += 1;
                        eprintln!("{} {} {:?} {:?}: {v:#?}", g.0, d.1, t, k);
                    }
                    set_enabled(false);
                    for e in violations(&facts) {
                        let id = e.split(':').next().unwrap_or("").to_string();
                        *caught.entry(id).or_default() += 1;
                    }
                    set_enabled(true);
                }
            }
        }
        println!("machines judged: {machines}; with printed fixes that do not close: {failing}");
        println!("without the closure, fixes that would not close, by finding: {caught:?}");
        assert_eq!(failing, 0);
    }
}
