//! The diagnosis' cause, decided in steps. The first reading comes from the error (the log,
//! else the paste's own warnings) or the failing findings; then each step of [`STEPS`], in
//! order, may replace it with what the paste observed or said beside the error. A step sees
//! the verdict the steps before it left, so their order is the precedence: what the paste
//! shows of the hardware first, the words of the reporter or a maintainer where nothing
//! specific was observed, torch's own "not available" last.

use super::collect_env::CollectEnv;
use super::{combine, primary_lists, stated_when_nothing_answers, top_cause_observed};
use crate::explain::Explanation;
use crate::finding::{Finding, Severity};
use crate::matrix::Matrix;

/// The cause so far, where it came from ("log", "paste warnings", "findings", "paste",
/// "paste error (generic)", "none") and why.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Verdict {
    pub cause: String,
    pub from: String,
    pub summary: String,
}

impl Verdict {
    pub(super) fn new(cause: &str, from: &str, summary: impl Into<String>) -> Self {
        Verdict {
            cause: cause.to_string(),
            from: from.to_string(),
            summary: summary.into(),
        }
    }

    fn is(&self, ids: &[&str]) -> bool {
        ids.contains(&self.cause.as_str())
    }

    /// The same cause from the same source, with a new cause id and a note on the summary.
    fn as_cause(&self, cause: &str, note: &str) -> Self {
        Verdict {
            cause: cause.to_string(),
            from: self.from.clone(),
            summary: format!("{} ({note})", self.summary),
        }
    }
}

/// Causes that say only that CUDA did not work (or nothing at all): a step with evidence of
/// why outranks them.
const UNANSWERED: &[&str] = &[
    "none",
    "workload.library_bug",
    "torch.cuda_unavailable",
    "driver.cuda_init_failed",
];

/// What every step reads.
pub(super) struct Evidence<'a> {
    pub paste: &'a str,
    pub ce: &'a CollectEnv,
    pub matrix: &'a Matrix,
    pub findings: &'a [Finding],
    /// The error read by the rules, from the log or the paste's warnings.
    pub from_log: Option<&'a Explanation>,
    /// An error in the paste only the generic answer ranks, refined with the findings.
    pub generic_paste: Option<&'a Explanation>,
    /// Whether the paste rules a cause out (a passing check, CUDA working, nvidia-smi's table).
    pub ruled_out: &'a dyn Fn(&str) -> bool,
}

impl Evidence<'_> {
    fn not_pytorch(&self) -> bool {
        combine::program_is_not_pytorch(self.paste, self.ce)
    }

    fn cuda_works(&self) -> bool {
        self.ce.cuda_available == Some(true)
    }
}

type Step = fn(&Evidence<'_>, &Verdict) -> Option<Verdict>;

/// The steps, in order of precedence: (what it decides, the step).
pub(super) const STEPS: &[(&str, Step)] = &[
    ("no NVIDIA GPU shown or said", no_nvidia_gpu),
    ("the program's own exception", program_exception),
    ("a cause stated where nothing answered", stated_when_nothing),
    ("two torch installs", multiple_installs),
    ("a program other than PyTorch", not_pytorch),
    (
        "an extension built for another torch",
        extension_for_other_torch,
    ),
    (
        "a prebuilt extension on a source-built torch",
        prebuilt_extension,
    ),
    ("a CPU build of torch", cpu_build),
    ("a driver said too old", driver_said_too_old),
    (
        "insufficient driver in a container given none",
        container_given_no_driver,
    ),
    (
        "TensorFlow beside libraries of another release",
        tensorflow_libs,
    ),
    ("a fix that adds a library path", library_path_fix),
    (
        "a module, arch, toolkit, host or start cause said",
        stated_cause,
    ),
    (
        "no kernel image, another program's build named",
        kernels_of_another_program,
    ),
    (
        "the paste's error only the generic answer ranks",
        generic_paste_error,
    ),
    (
        "an invalid kernel image from a program's own CUDA",
        invalid_kernel_image,
    ),
    (
        "a driver below the requirement quoted",
        driver_below_requirement,
    ),
    (
        "a torch release without kernels for the GPU",
        torch_release_lacks_gpu,
    ),
    (
        "a launcher that keeps the processes off the GPU",
        launcher_config,
    ),
    (
        "no NVIDIA GPU, behind the generic reading",
        no_nvidia_gpu_behind_generic,
    ),
    (
        "torch itself says CUDA is not available",
        torch_says_unavailable,
    ),
];

/// Applies every step of [`STEPS`] to the first reading, in order.
pub(super) fn decide(ev: &Evidence<'_>, first: Verdict) -> Verdict {
    STEPS
        .iter()
        .fold(first, |v, (_, step)| step(ev, &v).unwrap_or(v))
}

/// What the paste says of the hardware beats a "no usable driver" reading of the error: with
/// no NVIDIA GPU, CUDA's "insufficient driver" / "no driver" is that missing GPU, and so is an
/// extension's CUDA build that cannot load.
fn no_nvidia_gpu(ev: &Evidence<'_>, v: &Verdict) -> Option<Verdict> {
    ((combine::NO_DRIVER_CAUSES.contains(&v.cause.as_str()) || v.cause == "ext.abi_mismatch")
        && combine::says_no_nvidia_gpu(ev.paste, ev.ce))
    .then(|| Verdict::new("host.no_nvidia_gpu", "paste", format!("the paste says this machine has no NVIDIA GPU and shows none (no GPU named, no driver, no nvidia-smi table), so CUDA has no device: the error's {} is that missing GPU", v.cause)))
}

/// An environment with nothing failing plus the program's own exception (a traceback's last
/// line, an issue's title) defers to the program.
fn program_exception(ev: &Evidence<'_>, v: &Verdict) -> Option<Verdict> {
    if v.cause != "none"
        || ev.ce.cuda_available == Some(false)
        || ev.ce.smi_failed
        || ev.ce.torch_cpu_only
    {
        return None;
    }
    let exc = combine::program_exception(ev.paste)?;
    Some(Verdict::new("workload.library_bug", "paste", format!("nothing in the paste's environment fails, and the error is the program's own, not the GPU's: {exc}")))
}

/// A cause the paste states in words, where nothing else answered.
fn stated_when_nothing(ev: &Evidence<'_>, v: &Verdict) -> Option<Verdict> {
    if v.cause != "none" {
        return None;
    }
    let (id, why) = stated_when_nothing_answers(ev.ce, ev.paste)?;
    Some(Verdict::new(id, "paste", why))
}

/// Two torch installs explain the symbol and library errors they cause: the observed error
/// confirms the environment's finding, which is the root.
fn multiple_installs(ev: &Evidence<'_>, v: &Verdict) -> Option<Verdict> {
    if v.cause != "none" && !combine::MIXED_INSTALL_SYMPTOMS.contains(&v.cause.as_str()) {
        return None;
    }
    let f = ev
        .findings
        .iter()
        .find(|f| f.id == "torch.multiple_installs" && f.severity >= Severity::Warn)?;
    Some(Verdict::new(
        &f.id,
        "findings",
        format!(
            "{} (the error, {}, is what a mixed install gives)",
            f.summary, v.cause
        ),
    ))
}

/// A program other than PyTorch (Caffe, Lua torch, TensorFlow, DALI...) with no PyTorch in
/// the paste: torch's build causes read as that program's toolkit and kernels.
fn not_pytorch(ev: &Evidence<'_>, v: &Verdict) -> Option<Verdict> {
    if !ev.not_pytorch() {
        return None;
    }
    match v.cause.as_str() {
        "torch.arch_unsupported" => Some(v.as_cause(
            "ext.arch_unsupported",
            "the failing program is not PyTorch: its own build lacks kernels for this GPU",
        )),
        "driver.too_old_for_torch" => Some(v.as_cause(
            "driver.too_old_for_toolkit",
            "the failing program is not PyTorch: the CUDA it was built with needs a newer driver",
        )),
        _ => None,
    }
}

/// An extension's own line saying it was built for another torch than the one installed is
/// an observed ABI mismatch where nothing more specific answered.
fn extension_for_other_torch(ev: &Evidence<'_>, v: &Verdict) -> Option<Verdict> {
    if !v.is(&["none", "workload.library_bug"]) {
        return None;
    }
    let (built, have) = combine::extension_built_for_other_torch(ev.paste)?;
    Some(Verdict::new("ext.abi_mismatch", "paste", format!("an extension in the paste says it was built for PyTorch {built}, but {have} is installed: its compiled ops do not load against it")))
}

/// A prebuilt extension wheel on a PyTorch compiled from source: built against the official
/// build, its compiled ops need not load against this one.
fn prebuilt_extension(ev: &Evidence<'_>, v: &Verdict) -> Option<Verdict> {
    (v.is(&["none", "workload.library_bug"])
        && combine::prebuilt_extension_on_source_torch(ev.paste))
    .then(|| Verdict::new("ext.abi_mismatch", "paste", "the paste installs a prebuilt extension wheel on a PyTorch compiled from source: the wheel was built against the official PyTorch build, so its compiled ops need not load against this one (build the extension from source against the local torch)"))
}

/// A CPU build of torch on a machine the paste shows (or says) has an NVIDIA GPU is the cause
/// wherever nothing more specific was observed: an empty verdict, the program's exception,
/// the error's "no usable CUDA" symptoms. An extension built for a CUDA torch that cannot
/// load against the CPU build the paste shows is that CPU build too; and a CPU build needs no
/// driver at all, so a "driver too old for torch" reading of the paste's words is that build.
fn cpu_build(ev: &Evidence<'_>, v: &Verdict) -> Option<Verdict> {
    let (paste, ce) = (ev.paste, ev.ce);
    let cpu_root = combine::cpu_build_on_gpu_machine(paste, ce)
        || combine::app_on_cpu_fixed_by_torch_reinstall(paste, ce)
        || (v.cause == "ext.abi_mismatch"
            && combine::extension_built_for_cuda_on_cpu_torch(paste, ce));
    let weak = v.is(UNANSWERED) || v.cause == "ext.abi_mismatch";
    let driver_reading = v.cause == "driver.too_old_for_torch"
        && v.from != "log"
        && ce.torch_cpu_only
        && combine::cpu_build_on_gpu_machine(paste, ce);
    ((weak && cpu_root) || driver_reading).then(|| Verdict::new("torch.cpu_only", "paste", "the paste shows a CPU-only build of torch (a '+cpu' version or no CUDA in the build) where the paste shows, says or asks torch for an NVIDIA GPU: that build never uses CUDA"))
}

/// Whether a sentence of the paste may answer instead of the verdict: nothing observed says
/// otherwise (CUDA did not work, the cause came neither from the log nor from the findings,
/// nor from what the paste itself showed, and the error did not observe its own cause).
fn words_may_answer(ev: &Evidence<'_>, v: &Verdict) -> bool {
    !ev.cuda_works()
        && v.from != "log"
        && v.from != "findings"
        && (v.from != "paste" || v.cause == "workload.library_bug")
        && !top_cause_observed(ev.from_log)
}

/// A sentence that states the driver is too old (the reporter's or a maintainer's diagnosis)
/// is evidence: it answers where nothing specific was observed, and rises where the error's
/// own causes list it (both agree).
fn driver_said_too_old(ev: &Evidence<'_>, v: &Verdict) -> Option<Verdict> {
    let stated = combine::stated_driver_cause(ev.paste, ev.ce)?;
    let weak = v.is(UNANSWERED) || v.cause == "torch.cpu_only";
    (stated != v.cause
        && words_may_answer(ev, v)
        && (weak || primary_lists(ev.from_log, stated)))
    .then(|| Verdict::new(stated, "paste", format!("a sentence of the paste states that the driver is too old for what runs on it, and nothing observed says otherwise (the error read alone: {})", v.cause)))
}

/// CUDA's "driver version is insufficient" in a container or pod whose host driver is as new
/// as every CUDA the paste names: the container got no driver (libcudart says "insufficient"
/// when no libcuda is there at all), not an old one.
fn container_given_no_driver(ev: &Evidence<'_>, v: &Verdict) -> Option<Verdict> {
    (v.is(&["driver.too_old_for_toolkit", "driver.too_old_for_torch"])
        && (v.from == "log" || v.from == "paste warnings")
        && combine::insufficient_driver_in_container_without_gpus(ev.paste, ev.ce))
    .then(|| Verdict::new("host.container_no_gpu", "paste", format!("in a container or pod, CUDA says the driver is insufficient while the host's driver the paste shows (CUDA {}) is as new as every CUDA it names: libcudart says that when the container was given no driver at all (not started through NVIDIA's runtime, no GPU requested); the error read alone: {}", ev.ce.driver_cuda.as_deref().unwrap_or("?"), v.cause)))
}

/// TensorFlow named beside a cuDNN or CUDA its tested build was not made with: the libraries
/// it opens by name are missing, where nothing more specific was observed.
fn tensorflow_libs(ev: &Evidence<'_>, v: &Verdict) -> Option<Verdict> {
    if !v.is(UNANSWERED) || v.from == "log" || top_cause_observed(ev.from_log) {
        return None;
    }
    let why = combine::tensorflow_libs_mismatch(ev.ce)?;
    Some(Verdict::new("torch.wheel_deps_mismatch", "paste", why))
}

/// The fix the paste reports puts a CUDA library's directory on the loader's path ("export
/// LD_LIBRARY_PATH=...:$CUDNN_PATH/lib"): the library was installed but not found, where
/// nothing more specific was observed.
fn library_path_fix(ev: &Evidence<'_>, v: &Verdict) -> Option<Verdict> {
    (v.is(UNANSWERED) && v.from != "log" && combine::library_path_fix_said(ev.paste))
        .then(|| Verdict::new("torch.wheel_deps_mismatch", "paste", "the paste's fix adds a CUDA library's directory (cuDNN, cuBLAS, the environment's lib) to LD_LIBRARY_PATH: the program could not find a CUDA library it loads where it ran (another shell, a notebook kernel or a service does not get that path)"))
}

/// A sentence that states the nvidia module (or nvidia_uvm) is missing or refused, that the
/// build lacks the GPU's architecture, the toolkit's major, the container's runtime, a slow
/// start's cause, is evidence the same way: it answers where nothing specific was observed,
/// and rises where the error's own causes list it. "nvidia_uvm is missing" also outranks the
/// generic "device nodes" reading of a bare "nvidia-uvm" mention.
fn stated_cause(ev: &Evidence<'_>, v: &Verdict) -> Option<Verdict> {
    let paste = ev.paste;
    let stated = combine::stated_module_cause(paste)
        .or_else(|| combine::stated_arch_cause(paste))
        .or_else(|| combine::stated_toolkit_cause(paste))
        .or_else(|| combine::stated_host_cause(paste))
        .or_else(|| combine::stated_start_cause(paste))?;
    // lspci showing the nvidia module bound answers every stated module cause but
    // nvidia_uvm's and the device nodes'
    let module_answered = stated.starts_with("driver.")
        && !matches!(stated, "driver.uvm_unavailable" | "driver.device_nodes")
        && ev.ce.module_in_use;
    let outranks = v.is(UNANSWERED)
        || (stated == "driver.uvm_unavailable" && v.cause == "driver.device_nodes")
        // a build said to lack the GPU's architecture outranks the paste's own unobserved
        // reading of a generic failure ("DNN library initialization failed" read as
        // missing libraries)
        || (stated.ends_with(".arch_unsupported") && v.from == "paste warnings")
        || primary_lists(ev.from_log, stated);
    (stated != v.cause && !module_answered && words_may_answer(ev, v) && outranks).then(|| {
        Verdict::new(
            stated,
            "paste",
            format!(
                "a sentence of the paste states {}, and nothing observed says otherwise (the error read alone: {})",
                stated_cause_words(stated),
                v.cause
            ),
        )
    })
}

/// What a sentence of the paste states, for each cause [`stated_cause`] reads.
fn stated_cause_words(stated: &str) -> &'static str {
    match stated {
        "driver.uvm_unavailable" => "that the nvidia_uvm kernel module is missing",
        "driver.not_installed" => "that the machine ran on the open-source driver until NVIDIA's driver was installed",
        "driver.nouveau_loaded" => "that the machine runs on the open-source (nouveau) driver, or that taking nouveau out of the way fixed it",
        "driver.device_nodes" => "that the driver's device files (/dev/nvidia*) are missing, created too late, or hidden from the process (a device cgroup)",
        "torch.arch_unsupported" => "that PyTorch's builds dropped or lack the GPU's architecture",
        "ext.arch_unsupported" => "that the failing program's builds dropped or lack the GPU's architecture",
        "toolkit.torch_mismatch" => "that the system's CUDA toolkit and the CUDA torch was built with are of different majors (extensions cannot be built against it)",
        "host.container_no_gpu" => "that the container was not started through NVIDIA's runtime (its runtime class or the engine's default runtime is not `nvidia`, or no `nvidia.com/gpu` was requested)",
        "gpu.missing" => "that the machine shows fewer GPUs than it has (one dropped from NVML / nvidia-smi)",
        "probe.p2p" => "that GPU peer-to-peer over PCIe is broken or unsupported between the GPUs (the IOMMU or PCIe ACS in the way, a VM or chipset without P2P)",
        "torch.ptx_jit_only" => "that the first CUDA call takes minutes (the driver compiling PTX for a GPU the build has no code for)",
        "driver.persistence_off" => "that the GPU's first use is slow while the driver's persistence is named as the remedy (the driver tears the GPU down between clients)",
        "gpu.mig_enabled" => "that MIG is enabled on the GPUs, while the program sees no device or asks for more than the one MIG device a CUDA process enumerates",
        "driver.fabric_manager" => "that the NVSwitch fabric is not set up for these GPUs (NVSwitches not passed to the VM, the fabric manager not running)",
        _ => "that the nvidia kernel module is missing or was refused",
    }
}

/// "no kernel image" observed, and the paste says whose build lacks the architecture (an
/// extension's kernels, "`sgl-kernel` is compiled only for sm80+", "Darknet doesn't support
/// CC 2.1"): the observation stands, the build named is the one to replace.
fn kernels_of_another_program(ev: &Evidence<'_>, v: &Verdict) -> Option<Verdict> {
    (v.cause == "torch.arch_unsupported"
        && combine::stated_arch_cause(ev.paste) == Some("ext.arch_unsupported"))
    .then(|| Verdict::new("ext.arch_unsupported", &v.from, "the GPU's architecture has no kernels in the build that failed, and the paste says that build is another program's, not PyTorch's: replace that program's build with one for this GPU (or one that still supports it)"))
}

/// Never "none" when the paste names a GPU error: the generic ranking of that error, refined
/// with the paste's findings, outranks a healthy-looking environment.
fn generic_paste_error(ev: &Evidence<'_>, v: &Verdict) -> Option<Verdict> {
    if v.cause != "none" {
        return None;
    }
    let ex = ev.generic_paste?;
    let k = ex
        .primary
        .and_then(|i| ex.matches.get(i))?
        .causes
        .iter()
        .find(|k| k.observed || !(ev.ruled_out)(&k.id))?;
    Some(Verdict::new(&k.id, "paste error (generic)", k.why.clone()))
}

/// CUDA's "device kernel image is invalid" (status 200) from a program that brings its own
/// CUDA build (llama.cpp, Ollama, ...), with nothing else answering: the build's kernels were
/// made by a newer CUDA than the driver can load.
fn invalid_kernel_image(ev: &Evidence<'_>, v: &Verdict) -> Option<Verdict> {
    (v.cause == "none"
        && !ev.cuda_works()
        && combine::invalid_kernel_image_seen(ev.paste)
        && ev.not_pytorch())
    .then(|| Verdict::new("driver.too_old_for_toolkit", "paste", "the paste shows CUDA's 'device kernel image is invalid' from a program with its own CUDA build: its kernels were made by a newer CUDA than this driver can load (update the driver, or use a build for an older CUDA)"))
}

/// A driver requirement the paste quotes for the software in use ("requires NVIDIA Driver
/// release 470 or later") above the driver the paste shows decides a "no usable device"
/// reading of the error: the driver is too old for that software's CUDA.
fn driver_below_requirement(ev: &Evidence<'_>, v: &Verdict) -> Option<Verdict> {
    let no_device =
        v.is(UNANSWERED) || v.is(&["env.visible_devices_invalid", "env.visible_devices_empty"]);
    if v.from == "log" || ev.cuda_works() || !no_device {
        return None;
    }
    let (need, have) = combine::driver_below_stated_requirement(ev.paste, ev.ce)?;
    let id =
        if ev.not_pytorch() || combine::container_image_named(ev.paste) || ev.ce.torch.is_none() {
            "driver.too_old_for_toolkit"
        } else {
            "driver.too_old_for_torch"
        };
    Some(Verdict::new(id, "paste", format!("the paste quotes a requirement of driver {need} or later for the software in use, and shows driver {have}: the driver is too old for its CUDA (the error read alone: {})", v.cause)))
}

/// A torch release none of whose CUDA builds has kernels for a GPU the paste names ("Pytorch
/// 2.4" on an "RTX 5070") is the cause where CUDA was only seen unusable.
fn torch_release_lacks_gpu(ev: &Evidence<'_>, v: &Verdict) -> Option<Verdict> {
    if !v.is(UNANSWERED) || ev.cuda_works() || ev.not_pytorch() {
        return None;
    }
    let (gpu, cc, builds) = super::torch_release_lacks_gpu(ev.ce, ev.matrix)?;
    Some(Verdict::new(
        "torch.arch_unsupported",
        "paste",
        format!(
            "PyTorch {}'s CUDA builds the paste leaves possible ({builds}) have no kernels for the {gpu} (compute capability {cc}): CUDA cannot run on it with this torch (install a release whose CUDA build covers it)",
            ev.ce.torch.as_deref().unwrap_or("?")
        ),
    ))
}

/// A launcher's configuration that keeps the processes it starts off the GPU (Accelerate's
/// "use_cpu: True", GPU ids CUDA cannot read) answers where nothing was observed to fail:
/// torch seeing the GPU outside the launcher does not contradict it.
fn launcher_config(ev: &Evidence<'_>, v: &Verdict) -> Option<Verdict> {
    let weak = v.is(UNANSWERED)
        || v.is(&[
            "torch.cpu_only",
            "env.visible_devices_empty",
            "env.visible_devices_invalid",
        ]);
    if v.from == "log" || ev.ce.torch_cpu_only || !weak {
        return None;
    }
    let (id, why) = combine::launcher_config_cause(ev.paste)?;
    Some(Verdict::new(id, "paste", why))
}

/// What the paste says of the hardware beats the generic reading of its error too: with no
/// NVIDIA GPU, a missing /dev/nvidia0 or a container "without GPUs" is that missing GPU.
fn no_nvidia_gpu_behind_generic(ev: &Evidence<'_>, v: &Verdict) -> Option<Verdict> {
    (v.from == "paste error (generic)"
        && combine::NO_DRIVER_CAUSES.contains(&v.cause.as_str())
        && combine::says_no_nvidia_gpu(ev.paste, ev.ce))
    .then(|| Verdict::new("host.no_nvidia_gpu", "paste", format!("the paste says this machine has no NVIDIA GPU and shows none (no GPU named, no driver, no nvidia-smi table): the error's {} is that missing GPU", v.cause)))
}

/// The paster asked torch itself (`torch.cuda.is_available()` → False) and nothing above
/// named why: that answer is the diagnosis, never "nothing shows a problem" (what would tell
/// why is in `lacking`). collect_env's "Is CUDA available: False" alone is not: it is printed
/// on login nodes and laptops for issues that have nothing to do with the GPU.
fn torch_says_unavailable(ev: &Evidence<'_>, v: &Verdict) -> Option<Verdict> {
    let formats = &ev.ce.formats;
    let asked_torch = formats.iter().any(|f| f == "python output")
        && !formats.iter().any(|f| f == "torch collect_env");
    (v.cause == "none" && ev.ce.cuda_available == Some(false) && asked_torch)
        .then(|| Verdict::new("torch.cuda_unavailable", "paste", "torch itself says CUDA is not available, and the paste holds nothing that says why: run `nvidia-smi` (the driver and the GPUs) and `python -c \"import torch; print(torch.__version__, torch.version.cuda)\"` (the build) on that machine, or `gpu-doctor` there"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_step_is_named_once() {
        let mut names: Vec<&str> = STEPS.iter().map(|(n, _)| *n).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), STEPS.len());
    }

    #[test]
    fn a_later_step_sees_what_an_earlier_one_decided() {
        // a CPU build on a GPU machine answers an empty verdict; the program's exception
        // (an earlier step) answers first when the environment shows nothing failing
        let ce = CollectEnv::default();
        let m = Matrix::bundled().unwrap();
        let no = |_: &str| false;
        let ev = Evidence {
            paste: "Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\nValueError: bad shape",
            ce: &ce,
            matrix: &m,
            findings: &[],
            from_log: None,
            generic_paste: None,
            ruled_out: &no,
        };
        let v = decide(&ev, Verdict::new("none", "none", "nothing"));
        assert_eq!(v.cause, "workload.library_bug");
        assert!(v.summary.contains("ValueError: bad shape"), "{}", v.summary);
        // a verdict no step has evidence against stays as it was
        let first = Verdict::new("gpu.ecc_errors", "log", "ECC");
        assert_eq!(decide(&ev, first.clone()), first);
    }
}
