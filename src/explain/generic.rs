//! The generic answer: when no rule knows a message that names a CUDA, driver or GPU-library
//! error, the causes are still ranked, from what the text shows, at a lower confidence than
//! a rule's:
//!
//! - a CUDA status, by the runtime's `cudaError_t` name, the driver API's `CUresult` name,
//!   the text `cudaGetErrorString` prints, or its number (NVIDIA's CUDA Runtime and Driver
//!   API references, "Data types used by CUDA Runtime / Driver": the enum values below);
//! - an NVML return code (`nvmlReturn_t`, NVML API reference, "Error reporting");
//! - the library named (libcuda, libnvidia-ml, libcudart, libcublas, libcudnn, libnccl,
//!   libnvrtc, libnvJitLink, their Windows DLLs);
//! - the framework (PyTorch, JAX, TensorFlow, llama.cpp/Ollama, bitsandbytes, flash-attn,
//!   xformers, vLLM, ComfyUI);
//! - the phase it failed in (import, build, init, launch) and the circumstances the text
//!   tells (a container, a suspend/resume, a kernel update, LD_LIBRARY_PATH).
//!
//! The answer never depends on one wording: each signal adds weight to the causes it points
//! at, and the sum is ranked.

use std::collections::BTreeMap;

use super::{excerpt, rank, small, Match, RankedCause, GENERIC_CONFIDENCE, GENERIC_MATCH};

/// A CUDA status: the number, the runtime's and the driver API's names for it (empty where
/// one API has none), the text `cudaGetErrorString` prints (empty where it is too generic to
/// recognise alone), and the cause it most often has.
pub(super) struct Status {
    pub code: u32,
    pub runtime: &'static str,
    pub driver: &'static str,
    pub phrase: &'static str,
    pub cause: &'static str,
    pub why: &'static str,
}

const fn st(
    code: u32,
    runtime: &'static str,
    driver: &'static str,
    phrase: &'static str,
    cause: &'static str,
    why: &'static str,
) -> Status {
    Status {
        code,
        runtime,
        driver,
        phrase,
        cause,
        why,
    }
}

/// Causes that depend on who built the code: the PyTorch build or another toolchain.
const TOO_OLD: &str = "driver.too_old_for_toolkit";

/// CUDA statuses (cudaError_t and CUresult share these numbers since CUDA 10.1).
pub(super) const STATUSES: &[Status] = &[
    st(2, "cudaErrorMemoryAllocation", "CUDA_ERROR_OUT_OF_MEMORY", "out of memory", "workload.out_of_memory", "CUDA status 2 (out of memory): the GPU's memory ran out."),
    st(3, "cudaErrorInitializationError", "CUDA_ERROR_NOT_INITIALIZED", "initialization error", "driver.cuda_init_failed", "CUDA status 3 (initialization error): the driver could not be initialised."),
    st(4, "cudaErrorCudartUnloading", "CUDA_ERROR_DEINITIALIZED", "driver shutting down", "workload.library_bug", "CUDA status 4: CUDA was used while the process was shutting down (a program bug)."),
    st(34, "cudaErrorStubLibrary", "CUDA_ERROR_STUB_LIBRARY", "CUDA driver is a stub library", "driver.stub_library", "CUDA status 34: the toolkit's stub libcuda was loaded instead of the driver's."),
    st(35, "cudaErrorInsufficientDriver", "", "CUDA driver version is insufficient for CUDA runtime version", TOO_OLD, "CUDA status 35 (insufficient driver): the driver is older than the CUDA runtime the code was built with (or there is none)."),
    st(36, "cudaErrorCallRequiresNewerDriver", "", "API call is not supported in the installed CUDA driver", TOO_OLD, "CUDA status 36: the code calls an API the installed driver is too old for."),
    st(46, "cudaErrorDevicesUnavailable", "CUDA_ERROR_DEVICE_UNAVAILABLE", "busy or unavailable", "gpu.compute_mode_restricted", "CUDA status 46: the devices are busy or unavailable (exclusive compute mode, or another process holds them)."),
    st(100, "cudaErrorNoDevice", "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected", "driver.not_installed", "CUDA status 100 (no device): no usable GPU (no working driver, or none visible)."),
    st(101, "cudaErrorInvalidDevice", "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal", "env.visible_devices_invalid", "CUDA status 101: the device index names no visible GPU."),
    st(200, "cudaErrorInvalidKernelImage", "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid", TOO_OLD, "CUDA status 200: the kernel image cannot be loaded: made by a newer CUDA toolchain than the driver supports (or for another GPU)."),
    st(209, "cudaErrorNoKernelImageForDevice", "CUDA_ERROR_NO_BINARY_FOR_GPU", "no kernel image is available for execution on the device", "torch.arch_unsupported", "CUDA status 209: no kernel image for this GPU's architecture in the build."),
    st(214, "cudaErrorECCUncorrectable", "CUDA_ERROR_ECC_UNCORRECTABLE", "uncorrectable ECC error encountered", "gpu.ecc_errors", "CUDA status 214: an uncorrectable ECC error in GPU memory."),
    st(218, "cudaErrorInvalidPtx", "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed", TOO_OLD, "CUDA status 218: the driver could not JIT-compile the PTX (made by a newer toolkit than the driver)."),
    st(221, "cudaErrorJitCompilerNotFound", "CUDA_ERROR_JIT_COMPILER_NOT_FOUND", "PTX JIT compiler library not found", "driver.not_installed", "CUDA status 221: the driver's PTX JIT library (libnvidia-ptxjitcompiler) is missing: an incomplete driver install."),
    st(222, "cudaErrorUnsupportedPtxVersion", "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "the provided PTX was compiled with an unsupported toolchain", TOO_OLD, "CUDA status 222: the PTX is newer than the driver can compile."),
    st(700, "cudaErrorIllegalAddress", "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered", "workload.illegal_address", "CUDA status 700: a kernel accessed memory it should not."),
    st(701, "cudaErrorLaunchOutOfResources", "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "too many resources requested for launch", "workload.library_bug", "CUDA status 701: a kernel was launched with more registers/threads than the GPU allows (a library or program bug)."),
    st(702, "cudaErrorLaunchTimeout", "CUDA_ERROR_LAUNCH_TIMEOUT", "the launch timed out and was terminated", "gpu.display_watchdog", "CUDA status 702: a kernel ran past the display watchdog's limit."),
    st(710, "cudaErrorAssert", "CUDA_ERROR_ASSERT", "device-side assert triggered", "workload.device_assert", "CUDA status 710: a device-side assert failed (often an index out of range)."),
    st(716, "cudaErrorMisalignedAddress", "CUDA_ERROR_MISALIGNED_ADDRESS", "misaligned address", "workload.illegal_address", "CUDA status 716: a kernel used a misaligned address."),
    st(719, "cudaErrorLaunchFailure", "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure", "workload.illegal_address", "CUDA status 719: a kernel failed (most often an illegal access)."),
    st(802, "cudaErrorSystemNotReady", "CUDA_ERROR_SYSTEM_NOT_READY", "system not yet initialized", "driver.fabric_manager", "CUDA status 802 (system not ready): on NVSwitch systems the fabric manager is not running."),
    st(803, "cudaErrorSystemDriverMismatch", "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", "system has unsupported display driver / cuda driver combination", "driver.compat_package_mismatch", "CUDA status 803: the driver's libraries and kernel module differ (a cuda-compat libcuda)."),
    st(804, "cudaErrorCompatNotSupportedOnDevice", "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE", "forward compatibility was attempted on non supported HW", "driver.forward_compat_unsupported", "CUDA status 804: forward compatibility is not supported on this GPU."),
    st(900, "cudaErrorStreamCaptureUnsupported", "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED", "operation not permitted when stream is capturing", "workload.stream_capture", "CUDA status 900: an operation not allowed while a CUDA graph is captured."),
    st(901, "cudaErrorStreamCaptureInvalidated", "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED", "operation failed due to a previous error during capture", "workload.stream_capture", "CUDA status 901: the CUDA graph capture was invalidated."),
    st(999, "cudaErrorUnknown", "CUDA_ERROR_UNKNOWN", "unknown error", "driver.uvm_unavailable", "CUDA status 999 (unknown error): most often nvidia_uvm is missing or broken (after a suspend/resume, or before any root process created /dev/nvidia-uvm)."),
    // CUDA before 10.1 numbered cudaErrorUnknown 30 (THCudaCheck's "error=30 : unknown error").
    st(30, "", "", "", "driver.uvm_unavailable", "CUDA status 30 (unknown error, CUDA < 10.1): most often nvidia_uvm is missing or broken."),
];

/// NVML return codes (nvmlReturn_t) by name and the text `nvmlErrorString` prints.
const NVML: &[(&str, &str, &str, &str)] = &[
    ("NVML_ERROR_DRIVER_NOT_LOADED", "driver not loaded", "driver.module_not_loaded", "NVML_ERROR_DRIVER_NOT_LOADED: the NVIDIA kernel module is not loaded."),
    ("NVML_ERROR_LIBRARY_NOT_FOUND", "could not load NVML library", "driver.not_installed", "NVML_ERROR_LIBRARY_NOT_FOUND: libnvidia-ml is not installed (or not in the container)."),
    ("NVML_ERROR_NO_PERMISSION", "insufficient permissions", "driver.device_nodes", "NVML_ERROR_NO_PERMISSION: the process may not open /dev/nvidia*."),
    ("NVML_ERROR_GPU_IS_LOST", "gpu is lost", "gpu.lost", "NVML_ERROR_GPU_IS_LOST: the GPU stopped answering."),
    ("NVML_ERROR_LIB_RM_VERSION_MISMATCH", "driver/library version mismatch", "driver.library_mismatch", "NVML_ERROR_LIB_RM_VERSION_MISMATCH: the kernel module and the driver libraries differ."),
    ("NVML_ERROR_RESET_REQUIRED", "gpu requires reset", "gpu.xid", "NVML_ERROR_RESET_REQUIRED: the GPU must be reset after a fault."),
    ("NVML_ERROR_OPERATING_SYSTEM", "gpu access blocked by the operating system", "driver.nvml_failed", "NVML_ERROR_OPERATING_SYSTEM: the operating system (or hypervisor, WSL) blocked GPU access."),
    ("NVML_ERROR_UNKNOWN", "", "driver.device_nodes", "NVML_ERROR_UNKNOWN: in a container most often the device access was lost."),
];

/// The runtime's enum name of a status number (or the driver API's where the runtime has none).
pub fn status_name(code: u32) -> Option<&'static str> {
    STATUSES
        .iter()
        .find(|s| s.code == code)
        .map(|s| {
            if s.runtime.is_empty() {
                s.driver
            } else {
                s.runtime
            }
        })
        .filter(|n| !n.is_empty())
}

/// Words that name a CUDA, driver or GPU-library thing.
const GPU_WORDS: &str = r"(?:[a-z]*cuda\w*|\bcudnn\w*|\bcublas\w*|\bcufft\w*|\bcurand\w*|\bcusparse\w*|\bcusolver\w*|\bnccl\w*|\bnvml\w*|\bnvrtc\w*|\bnvcc\b|\bptxas\b|\bnvidia\w*|\blib(?:cu|nccl|nvidia|nvrtc|nvJitLink|nvcuvid)\w*|\bnvcuvid\b|\bcuvid\b|\bnvenc\b|\bnvdec\b|\bgpus?\b|\bvram\b|\bdriver\b|\bcu(?:Init|Ctx\w+|Module\w+|Launch\w*|Device\w+|Mem\w+)\b|\bxid\b|\bnvrm\b|\btensorrt\b|\bjaxlib\b|\bbitsandbytes\b|\bxformers\b|\bflash[_-]?attn\w*|\bvllm\b|llama\.cpp|\bggml\w*|\bollama\b|\bgeforce\b|\bquadro\b|\btesla\b|\brtx\b|\bgtx\b|\bopencl\b|(?-i:\bcl(?:Create|Enqueue|Build|Get|Set|Release|Finish|Flush|WaitFor)[A-Z]\w*))";
/// Words that say something failed.
/// The link step of a build failing ("a linker error", "undefined reference to", "ld
/// returned 1 exit status", MSVC's LNK2019): the code compiled for its architectures.
pub(super) const LINK_STEP: &str = r"(?i)\blinker error|\bundefined reference to\b|\bld returned \d+ exit status|\bLNK\d{4}\b|\blink(?:ing)? (?:step |stage )?failed\b";

const ERROR_WORDS: &str = r"(?:returned (?:non-zero|-?[1-9])|exit(?:ed)? (?:status|code) [1-9]|\bcode\s*[=:]\s*[1-9]|error|\berr\b|fail|unable|cannot|can't|could not|couldn.t|invalid|not found|no such|exception|abort|fatal|insufficient|mismatch|not available|unavailable|not supported|unsupported|no longer support|crash|segmentation|illegal|(?:available|is_available\(\))[^\n]{0,24}\bfalse\b|not detect|no device|not compiled|undefined|not work|doesn't work|don't work|stopped working|only (?:uses? )?(?:the )?cpu|fall(?:s|ing)? back to (?:the )?cpu|\bno (?:[\w/-]+ ){0,2}(?:gpus?|devices?)\b(?:[^\n]{0,20}(?:found|discovered|detected|available))?|found no|too old|refus|denied|broken|\bbroke\b|\bbreaks?\b|\bcant\b|out of memory|\bOOM\b|\bcpu[- ]only mode\b|\blost\b|\bCL_(?:OUT_OF|INVALID|DEVICE_NOT|BUILD_PROGRAM_FAILURE|MEM_OBJECT_ALLOCATION_FAILURE)\w*)";
/// Tokens that are a GPU library's error on their own.
const STRONG: &str = r"(?:CUDA_ERROR_\w+|cudaError\w+|NVML_ERROR_\w+|CUBLAS_STATUS_\w+|CUDNN_STATUS_\w+|CURAND_STATUS_\w+|CUFFT_\w+|CUSOLVER_STATUS_\w+|CUSPARSE_STATUS_\w+|nccl\w*Error|NCCL error)";

/// Ranks causes for a text no rule knows; `None` when it names no CUDA, driver or
/// GPU-library error.
pub(super) fn fallback(text: &str, original: &str) -> Option<Match> {
    let (start, end) = anchor(text)?;
    let line = text.get(start..end).unwrap_or("");
    let has = |p: &'static str| small(p).is_some_and(|re| re.is_match(text));
    let on_line = |p: &'static str| small(p).is_some_and(|re| re.is_match(line));
    let torch = has(r"\btorch\b|pytorch|site-packages/torch|\+cu\d{3}\b");
    let mut w = Weights::default();
    let mut extracted = BTreeMap::new();

    // 1. A CUDA status or NVML return code says most (not nvidia-smi's word for a field it
    // could not read).
    let status = status_in(&unreadable_blanked(text), &unreadable_blanked(line));
    if let Some(s) = status {
        extracted.insert(
            "cuda_error".to_string(),
            match status_name(s.code) {
                Some(n) => format!("{} ({n})", s.code),
                None => s.code.to_string(),
            },
        );
        let cause = match s.cause {
            TOO_OLD if torch => "driver.too_old_for_torch",
            "torch.arch_unsupported" if has(super::rules::EXTENSIONS) => "ext.arch_unsupported",
            c => c,
        };
        w.add(cause, 0.6, s.why);
    }
    if let Some((name, cause, why)) = nvml_in(text) {
        extracted.insert("nvml_error".to_string(), name.to_string());
        w.add(cause, 0.55, why);
    }

    // 2. The library it names.
    let lib = library_in(line).or_else(|| library_in(text));
    if let Some(l) = lib {
        extracted.insert("library".to_string(), l.to_string());
        let missing = has(
            r"cannot open shared object|not found|no such file|could not load|unable to load|cannot load|(?:unable|cannot|could not|failed) to open|\.dll",
        );
        match l {
            "libcuda" | "libnvidia-ml" => {
                w.add("driver.not_installed", 0.3, "The driver's own library (libcuda / libnvidia-ml) is missing or cannot be loaded: no driver where the program runs.");
                w.add("host.container_no_gpu", 0.2, "Inside a container the driver libraries exist only when it was started with the GPUs.");
            }
            "libnvJitLink" => {
                w.add("torch.libs_shadowed", 0.35, "libnvJitLink of another CUDA minor (a system or HPC SDK copy on the loader path) is found before the one the CUDA libraries need.");
                w.add(
                    "torch.wheel_deps_mismatch",
                    0.2,
                    "The nvidia-nvjitlink wheel is older than the other CUDA wheels need.",
                );
            }
            _ if missing => {
                w.add("torch.wheel_deps_mismatch", 0.35, "A CUDA library the program loads (the runtime, cuBLAS, cuDNN, NCCL, NVRTC of the CUDA major it was built for) is not installed or not on the loader path.");
                w.add(
                    "toolkit.not_found",
                    0.15,
                    "The CUDA toolkit of that major is not installed.",
                );
            }
            _ => {
                w.add("torch.libs_shadowed", 0.3, "Another copy of a CUDA library (system, LD_LIBRARY_PATH, conda) is loaded instead of the one the program was built against.");
                w.add("torch.wheel_deps_mismatch", 0.25, "The installed CUDA library is another version than the program was built against.");
            }
        }
    }

    // 3. The phase it failed in: the failing line's own words where they name one ("illegal
    // memory access" in a report whose build command mentions CMake), else the whole text's.
    let line_names_phase = PHASES.iter().any(|p| on_line(p));
    let seen = |p: &'static str| if line_names_phase { on_line(p) } else { has(p) };
    let [import, install, build, memory, launch, init] = PHASES.map(seen);
    // "illegal memory access", a "memory bug" or "memory corruption" is a kernel's fault, not
    // memory running out (also misspelt: "illigal memory")
    let memory = memory && !seen(r"ill[ie]gal (?:memory|address)|memory (?:access|bug|corruption)");
    let scale = if status.is_some() { 0.4 } else { 1.0 };
    let phase = if import && lib.is_none() {
        if has(super::rules::EXTENSIONS) || has(r"_C\.|\.so:|\.pyd") {
            w.add("ext.abi_mismatch", 0.35 * scale, "A compiled module was built against another version of the framework or CUDA than the one installed.");
        }
        w.add(
            "torch.wheel_deps_mismatch",
            0.25 * scale,
            "The installed packages' CUDA libraries do not match what the build needs.",
        );
        "import"
    } else if import {
        "import"
    } else if install {
        w.add("driver.module_not_loaded", 0.3 * scale, "The NVIDIA kernel module could not be built or loaded for the running kernel (an old module still loaded, missing headers, Secure Boot).");
        w.add(
            "driver.not_installed",
            0.2 * scale,
            "The driver installation did not complete.",
        );
        "install"
    } else if build {
        w.add(
            "toolkit.torch_mismatch",
            0.3 * scale,
            "Building against a CUDA toolkit other than the one the framework was built with.",
        );
        w.add(
            "toolkit.not_found",
            0.2 * scale,
            "No (or the wrong) CUDA toolkit is found for the build.",
        );
        // a link step that failed names no architecture: nvcc and ptxas refuse those
        if !has(LINK_STEP) {
            w.add(
                "toolkit.arch_unsupported",
                0.15 * scale,
                "The toolkit cannot target this GPU's architecture.",
            );
        }
        "build"
    } else if memory {
        w.add(
            "workload.out_of_memory",
            0.4 * scale,
            "The message speaks of memory: the GPU ran out of it.",
        );
        w.add(
            "gpu.busy",
            0.15 * scale,
            "Other processes hold the GPU's memory.",
        );
        "launch"
    } else if launch {
        w.add(
            "workload.library_bug",
            0.3 * scale,
            "A kernel failed at run time: most often a library or program bug, not the machine.",
        );
        w.add(
            "workload.illegal_address",
            0.2 * scale,
            "A kernel read or wrote memory it should not.",
        );
        w.add(
            "ext.arch_unsupported",
            0.1 * scale,
            "An extension's kernel does not support this GPU.",
        );
        "launch"
    } else if init {
        w.add(
            "driver.cuda_init_failed",
            0.3 * scale,
            "The driver could not be initialised for CUDA.",
        );
        w.add(
            "driver.not_installed",
            0.2 * scale,
            "No working NVIDIA driver is installed.",
        );
        w.add(
            "driver.module_not_loaded",
            0.15 * scale,
            "The NVIDIA kernel module is not loaded.",
        );
        w.add(
            "torch.cpu_only",
            0.1 * scale,
            "The framework build has no CUDA.",
        );
        "init"
    } else {
        w.add(
            "torch.cuda_unavailable",
            0.2 * scale,
            "CUDA is not usable for the program.",
        );
        w.add(
            "driver.cuda_init_failed",
            0.15 * scale,
            "The driver could not be initialised for CUDA.",
        );
        w.add("workload.library_bug", 0.15 * scale, "A library bug.");
        "unknown"
    };

    // 4. The framework: what usually goes wrong between it and the machine.
    let mut framework = None;
    for (pat, name, cause, weight, why) in FRAMEWORKS {
        if small(pat).is_some_and(|re| re.is_match(text)) {
            framework.get_or_insert(*name);
            if !cause.is_empty() {
                w.add(cause, *weight, why);
            }
        }
    }
    if let Some(f) = framework {
        extracted.insert("framework".to_string(), f.to_string());
    }

    // 5. What the text says happened around it.
    if has(
        r"\b(?:suspend|resum(?:e|ed|ing)|hibernat\w*|sleep mode|after sleep|wak(?:e|ing) (?:up|from))\b",
    ) {
        w.add(
            "driver.uvm_unavailable",
            0.45,
            "It followed a suspend/resume, which leaves nvidia_uvm broken until it is reloaded.",
        );
    }
    if has(r"nvidia-smi[^\n]{0,12}(?:command not found|not found|is not recognized)") {
        w.add(
            "driver.not_installed",
            0.5,
            "nvidia-smi itself is missing: no NVIDIA driver is installed where this ran.",
        );
    }
    if has(r"\bNVML\b") && nvml_in(text).is_none() {
        w.add("driver.nvml_failed", 0.35, "NVML (libnvidia-ml) could not be initialised: in a container, WSL or a VM it is often absent or blocked.");
    }
    for (pattern, cause, weight, why) in NAMED_IN_TEXT {
        if has(pattern) {
            w.add(cause, *weight, why);
            // what the reporter found out is no resemblance to out-vote
            if *cause == "toolkit.path_inconsistent" {
                extracted.insert("stated".to_string(), (*cause).to_string());
            }
        }
    }
    // The driver's video libraries (NVDEC's libnvcuvid, NVENC's libnvidia-encode) missing in a
    // container: the runtime mounts them only with the `video` driver capability.
    if has(r"(?i)libnvcuvid|libnvidia-encode")
        && has(r"(?i)docker|container|nvidia-docker|kubernetes|\bpod\b")
    {
        w.add("host.container_no_gpu", 0.6, "In a container the NVIDIA runtime mounts the driver's video libraries (libnvcuvid, libnvidia-encode) only with the `video` capability (NVIDIA_DRIVER_CAPABILITIES=compute,video,utility).");
    }
    if has(r"kernel (?:update|upgrade)|\bdkms\b|secure boot|mokutil") {
        w.add("driver.module_not_loaded", 0.35, "A kernel update (without a module rebuilt for it) or Secure Boot keeps the nvidia module from loading.");
    }
    if has(
        r"docker|container|podman|kubernetes|kubectl|\bpod\b|singularity|apptainer|nvidia-container|\bOCI\b",
    ) {
        w.add("host.container_no_gpu", 0.25, "It runs in a container, which may have been started without the GPUs (or the toolkit did not inject the driver).");
    }
    if has(
        r"LD_LIBRARY_PATH\s*=|echo \$LD_LIBRARY_PATH|search path=|/usr/local/cuda[\w.-]*/(?:lib|targets)",
    ) && (import || lib.is_some())
    {
        w.add("torch.libs_shadowed", 0.3, "LD_LIBRARY_PATH or a system CUDA folder puts other copies of the CUDA libraries first.");
    }
    // A compute capability the text calls too old or below a minimum: the GPU is under the
    // floor of whatever build failed (ollama/ollama#1992 "CUDA GPU is too old ... Compute
    // Capability detected: 5.2"); torch's own build where torch's frames and no extension show.
    // On the failing line only, and not in a list of alternatives (xformers' operators, each
    // "not supported because ..."): one of them may be too old for the GPU while another fails
    // for the program's own reason.
    let alternatives =
        small(r"not supported because").map_or(0, |re| re.find_iter(text).take(2).count());
    if alternatives < 2
        && on_line(
            r"(?:compute capability|\bcc\b|capability)[^\n]{0,40}(?:too old|too low|not supported|unsupported|below|minimum|at least|or (?:newer|higher|above))|(?:too old|not supported|unsupported|minimum|at least|requires?)[^\n]{0,40}(?:compute capability|\bsm_?\d{2}\b)|GPU is too old",
        )
    {
        let who = if torch && !has(super::rules::EXTENSIONS) && !has(r"ggml|llama|ollama") {
            "torch.arch_unsupported"
        } else {
            "ext.arch_unsupported"
        };
        w.add(who, 0.5, "The text says the GPU's compute capability is below what the build supports: the software dropped (or never had) kernels for this GPU generation.");
    }
    // The host compiler refused by nvcc's host_config.h: no GPU fault at all.
    if has(
        r"unsupported (?:GNU|clang|Microsoft Visual Studio|host compiler) version|(?:gcc|clang) versions? (?:later|newer) than|host_config\.h",
    ) {
        w.add("toolkit.host_compiler_unsupported", 0.6, "nvcc refuses the host C++ compiler: it is newer (or older) than the CUDA toolkit supports.");
    }
    // Fails on one GPU model and not another ("on A100 but not V100": triton-lang/triton#1323):
    // a compiled artifact (kernel cache, extension, engine) made for the other architecture.
    if has(
        r"\b(?:on|with) (?:an? |the )?(?:[AHLTVPBK]\d{2,3}\w*|RTX ?\w*\d{3,4}\w*|GTX ?\d{3,4}\w*|sm_?\d{2,3}|Tesla \w+)\b[^\n]{0,20}\bbut not (?:on |with )?(?:an? |the )?(?:[AHLTVPBK]\d{2,3}\w*|RTX|GTX|sm_?\d|Tesla)",
    ) {
        w.add("ext.arch_unsupported", 0.7, "It fails on one GPU model and works on another: code compiled for the other GPU's architecture (a kernel cache, an extension or an engine built there).");
    }
    // A version check that refuses a version meeting its own minimum ("Triton only support CUDA
    // 10.0 or higher, but got CUDA version: 12.8": triton-lang/triton#5737): the library's
    // version table does not know a newer release: its bug, not the machine's.
    if let Some(c) = small(
        r"(?i)supports? (?:\w+ ){0,2}(\d+)\.(\d+) or (?:higher|newer|later|above)[^\n]{0,60}?(?:got|found|have|detected|is)[^\n\d]{0,30}(\d+)\.(\d+)",
    )
    .and_then(|re| re.captures(text))
    {
        let num = |i: usize| c.get(i).and_then(|m| m.as_str().parse::<u32>().ok());
        if let (Some(a), Some(b), Some(x), Some(y)) = (num(1), num(2), num(3), num(4)) {
            // What the check compared is read, whichever way it went: resemblance to other
            // version checks (the casebook) does not overrule it.
            extracted.insert(
                "version_check".to_string(),
                format!("{x}.{y} against a minimum of {a}.{b}"),
            );
            if (x, y) >= (a, b) {
                w.add("workload.library_bug", 0.8, "The library's version check refuses a version that meets its own minimum: its table of versions does not know this newer release (a bug fixed in a later release of the library).");
            } else {
                w.add("toolkit.not_found", 0.6, "The CUDA the library found is older than the minimum it states: it needs a newer CUDA toolkit (or finds an old one first on PATH / CUDA_HOME).");
            }
        }
    }
    // Fails with one library version and not another: that library's bug (not where the text's
    // own version check found the version below its minimum).
    let below_minimum = extracted
        .get("version_check")
        .is_some_and(|_| w.0.iter().any(|k| k.0 == "toolkit.not_found" && k.1 >= 0.6));
    if has(super::rules::VERSION_CONTRAST) && !below_minimum {
        w.add(
            "workload.library_bug",
            0.35,
            "It comes and goes with a library's version: a bug of that release, not the machine.",
        );
    }
    if on_line(r"after (?:a |the )?driver (?:update|upgrade)|without (?:a )?reboot") {
        w.add(
            "driver.library_mismatch",
            0.3,
            "The driver was upgraded without a reboot: the loaded module and the libraries differ.",
        );
    }

    let title =
        format!("a GPU error no rule knows (phase: {phase}); causes ranked from what it names");
    extracted.insert("phase".to_string(), phase.to_string());
    let mut m = Match {
        id: GENERIC_MATCH.to_string(),
        title,
        text: excerpt(original.get(start..end).unwrap_or(line)),
        span: [start, end],
        line: text.get(..start).map_or(0, |t| t.matches('\n').count()) + 1,
        occurrences: 1,
        priority: 1,
        extracted,
        causes: w
            .0
            .into_iter()
            .filter(|(_, wt, _)| *wt > 0.0)
            .map(|(id, wt, why)| RankedCause {
                id: id.to_string(),
                confidence: 0.0,
                why,
                fix: format!("Check the `{id}` finding: run `gpu-doctor` on the machine (or `gpu-doctor diagnose` on its environment) to confirm or rule it out."),
                commands: vec!["gpu-doctor".to_string()],
                evidence: vec![format!("no rule matched; ranked from the {phase} phase and the names in the text")],
                weight: wt * GENERIC_CONFIDENCE,
                observed: false,
            })
            .collect(),
        tells_apart: "No known message: run `gpu-doctor` on the machine; its findings confirm or rule out each cause.".to_string(),
    };
    if m.causes.is_empty() {
        return None;
    }
    rank(&mut m);
    Some(m)
}

/// The words of each phase a failure can happen in, in the order the phase is decided:
/// import (loading a library), install (the driver itself: the OS kernel, not a CUDA kernel),
/// build, memory, launch, init.
const PHASES: [&str; 6] = [
    r"ImportError|cannot open shared object|undefined symbol|DLL load failed|cannot load|Could not load (?:dynamic )?library|Unable to load|dlopen",
    r"kernel module|nvidia-installer|NVIDIA-Linux-\w+|\.run\b|\bmodprobe\b|\binsmod\b|\bdkms\b|linux-headers|in your kernel",
    r"\bnvcc\b|ptxas|setup\.py|building wheel|Failed building|CMake|compil(?:e|ing|ation) (?:error|failed|terminated)|error: command|\bninja\b",
    r"out of memory|\bOOM\b|alloc(?:at)?(?:e|ion)? (?:failed|failure)|(?:unable|failed|cannot|could not) to allocate|allocate[^\n]{0,30}buffer|(?:^|[^.\w])memory(?:$|[^.\w])",
    r"(?:cuda |gpu |device )?kernel (?:launch|failed|error|execution|timed out)|\blaunch|illegal|segmentation|core dumped|misaligned|assert",
    r"initiali[sz]|\binit\b|cuInit|NVML|nvidia-smi|no (?:CUDA-capable )?device|not detect|not available|is_available|GetDeviceCount|DeviceCount|found no|no (?:\w+ )?gpus?|driver|discover|were (?:not )?found",
];

/// What the text names that points at one cause wherever it stands: (pattern, cause,
/// weight, why).
const NAMED_IN_TEXT: &[(&str, &str, f64, &str)] = &[
    // The GPU's compute mode: exclusive-process GPUs refuse a second process.
    (
        r"(?i)exclusive[ _-]?process|process[ _-]exclusive|compute[ _-]exclusive|exclusive compute mode|compute mode[^\n]{0,20}exclusive",
        "gpu.compute_mode_restricted",
        0.7,
        "The GPU is in an exclusive compute mode: while one process holds a context on it, another gets no device.",
    ),
    // The reporter's own finding that a folder was missing from PATH (Windows: the toolkit's
    // bin, where its DLLs are; Theano/libgpuarray#562: "It was missing from PATH. CUDAPATH was
    // set").
    (
        r"\b(?:was|is|were|are|wasn't|isn't|weren't)\s+(?:missing|not)\s+(?:from|in|on)\s+(?:the\s+|my\s+)?(?:(?-i:%PATH%|PATH\b)|system path\b)|\bnot\s+(?:in|on)\s+(?:the\s+|my\s+)?(?-i:%PATH%|PATH\b)",
        "toolkit.path_inconsistent",
        0.8,
        "The text says the folder with the CUDA binaries was missing from PATH: the libraries are installed, the loader does not look there.",
    ),
    // The fabric manager or the NVSwitches (NCCL's NVLS multicast, error 802/401 on HGX
    // systems): the fabric is not up.
    (
        r"(?i)fabric ?manager|nv-fabricmanager|\bNVSwitch(?:es)?\b",
        "driver.fabric_manager",
        0.7,
        "The text names the fabric manager or the NVSwitches: on an NVSwitch system (HGX/DGX) CUDA and NCCL's NVLink features need nvidia-fabricmanager running, of the driver's exact version.",
    ),
    // The open kernel modules said to be required (Blackwell, Grace Hopper), in NVRM's words or
    // those of the person who found it ("the new Nvidia cards require the use of the open
    // kernel modules", getsolus/packages#5575).
    (
        r"(?i)requir\w* (?:the )?use of (?:the )?(?:nvidia )?open(?:[- ]source)? (?:gpu )?kernel modules?|open (?:gpu )?kernel modules? (?:are|is) (?:required|needed)|needs? (?:the )?open(?:[- ]source)? (?:nvidia )?(?:gpu )?kernel modules?",
        "driver.open_module_required",
        0.8,
        "The text says the GPU needs NVIDIA's open kernel modules: Blackwell and Grace Hopper GPUs do not initialise with the proprietary ones.",
    ),
    // A program saying the CUDA toolkit is not there (hashcat's "CUDA SDK Toolkit installation
    // NOT detected", "CUDA Toolkit is not installed"): it compiles or loads from the toolkit.
    (
        r"(?i)\bcuda (?:sdk )?toolkit(?: installation)?[^\n]{0,20}\b(?:not (?:detected|installed|found)|missing|is required|required for)",
        "toolkit.not_found",
        0.8,
        "The program says it needs the CUDA toolkit and did not find it: it compiles (NVRTC, nvcc) or loads libraries from the toolkit, which the driver alone does not bring.",
    ),
    // A framework's installer or loader refusing the local CUDA's version ("Unsupported CUDA
    // version \"10.0\"", "CUDA 12.3 is not supported"): it has no build for that toolkit.
    (
        r#"(?i)unsupported cuda version|cuda (?:version )?"?\d+\.\d+"? (?:is )?not (?:yet )?supported"#,
        "toolkit.torch_mismatch",
        0.45,
        "The framework has no build for the CUDA toolkit it found: it supports only the versions it lists.",
    ),
];

/// Frameworks and what most often goes wrong between them and the machine when they fail with
/// a message no rule knows: (pattern, name, cause, weight, why).
const FRAMEWORKS: &[(&str, &str, &str, f64, &str)] = &[
    (r"\bjax(?:lib)?\b|\bxla\b|xla_bridge", "jax", "torch.wheel_deps_mismatch", 0.15, "JAX's CUDA plugin needs CUDA libraries (cuDNN, cuBLAS, cuSPARSE) at least as new as it was built against."),
    (r"tensorflow|\btf\.", "tensorflow", "torch.wheel_deps_mismatch", 0.15, "TensorFlow loads the CUDA and cuDNN of the exact major it was built for."),
    (r"llama\.cpp|\bggml|\bollama\b|llama_cpp|koboldcpp", "llama.cpp", "driver.cuda_init_failed", 0.1, "llama.cpp/Ollama initialise CUDA themselves; a driver that is missing, too old or in a broken state stops them."),
    (r"bitsandbytes", "bitsandbytes", "ext.abi_mismatch", 0.2, "bitsandbytes ships binaries per CUDA version; one for this CUDA or platform is missing."),
    (r"flash[_-]?attn", "flash-attn", "ext.abi_mismatch", 0.1, "flash-attn is compiled for one torch and CUDA; another installed torch breaks it."),
    (r"xformers", "xformers", "ext.abi_mismatch", 0.1, "xformers is compiled for one torch release."),
    (r"\bvllm\b", "vllm", "ext.abi_mismatch", 0.1, "vLLM's compiled ops are built for one torch release."),
    (r"comfyui|stable-diffusion-webui|\bwebui\b|python_embeded", "comfyui", "torch.cpu_only", 0.1, "Web UIs' installers and updaters often put a CPU-only torch in place."),
    // Other CUDA programs on the same machine: each brings its own CUDA runtime or libraries,
    // and fails on the machine in its own typical way (round 10b).
    (r"onnxruntime|CUDAExecutionProvider", "onnxruntime", "torch.wheel_deps_mismatch", 0.15, "onnxruntime-gpu is built for one CUDA and cuDNN major (1.19+: CUDA 12 and cuDNN 9); it loads those libraries from the system or the nvidia-* wheels."),
    (r"\bcupy\b", "cupy", "torch.wheel_deps_mismatch", 0.15, "Each cupy-cudaXXx wheel is built for one CUDA major and loads that major's libraries."),
    (r"\bnumba\b|\bcudf\b|\bcuml\b|\brapids\b", "numba", "toolkit.not_found", 0.15, "Numba (and RAPIDS through it) compiles with the NVVM and libdevice of a CUDA toolkit it must find (conda's cuda-nvcc, the nvidia-cuda-nvcc wheel or CUDA_HOME)."),
    (r"\bpaddle\w*", "paddle", "toolkit.not_found", 0.15, "PaddlePaddle (before 2.5, and C++ inference builds) dlopens the system's CUDA and cuDNN, which must be installed and on the loader path."),
    (r"\bmxnet\b", "mxnet", "torch.wheel_deps_mismatch", 0.1, "Each mxnet-cuXXX wheel is built for one CUDA version."),
    (r"tensorrt|trtexec|\bnvinfer\b", "tensorrt", "ext.abi_mismatch", 0.1, "TensorRT engines and plugins are tied to the TensorRT version (and GPU) that built them."),
    (r"\b(?:h264|hevc|av1)_(?:nvenc|cuvid)\b|\bnvenc\b|\bnvdec\b|\bcuvid\b|ffmpeg|handbrake", "ffmpeg", "driver.too_old_for_toolkit", 0.15, "FFmpeg's NVENC/NVDEC are built against a Video Codec SDK version that needs a minimum driver."),
    (r"\bblender\b|\boptix\b|\bhashcat\b|\bgromacs\b|\blammps\b|\bamber\b|\bopenmm\b|CUDA\.jl", "cuda-program", "driver.too_old_for_toolkit", 0.15, "The program brings its own CUDA (or OptiX) build, which needs a driver at least as new as the CUDA it was built with."),
    (r"\btorch\b|pytorch", "pytorch", "", 0.0, ""),
];

/// Accumulated weights per cause, first mention's why kept.
#[derive(Default)]
struct Weights(Vec<(&'static str, f64, String)>);

impl Weights {
    fn add(&mut self, id: &'static str, weight: f64, why: &str) {
        if let Some(k) = self.0.iter_mut().find(|k| k.0 == id) {
            k.1 += weight;
            if k.2.is_empty() {
                k.2 = why.to_string();
            }
        } else {
            self.0.push((id, weight, why.to_string()));
        }
    }
}

/// The line the answer points at: the first that names both a GPU thing and a failure, else
/// the first GPU line whose next line tells the failure ("cudaGetDeviceCount returned 2" /
/// "-> out of memory"), else the first with a GPU library's error token. Python-only import
/// failures are no GPU error.
fn anchor(text: &str) -> Option<(usize, usize)> {
    let gpu = small(GPU_WORDS)?;
    let err = small(ERROR_WORDS)?;
    let strong = small(STRONG)?;
    let negated = small(r"\b(?:no|without|zero|0) (?:errors?|failures?|issues?|problems?)\b")?;
    // Lines TensorFlow logs at start-up on healthy machines (its plugin-registration and TF-TRT
    // warnings): they name a GPU library and a failure but break nothing.
    let noise = small(
        r"Unable to register (?:cuDNN|cuFFT|cuBLAS) factory|Attempting to register factory for plugin|(?:TF-TRT Warning: )?Could not find TensorRT\b|computation placer already registered",
    )?;
    // A CPU run the user asked for ("falling back to CPU because no GPU was requested",
    // "running on CPU as requested"): the words of a failure, but the choice of the user.
    let chosen = small(
        r"(?i)\bno (?:gpus?|devices?|accelerators?) (?:was |were |is |are |has been |have been )?requested|\b(?:cpu|gpus?|devices?) (?:was |were )?(?:not )?requested\b[^\n]{0,20}\b(?:by the user|--cpu|flag|option)|(?:cpu|fall(?:s|ing)? back)[^\n]{0,30}\bas (?:you )?requested\b",
    )?;
    let mut pos = 0usize;
    let mut first_strong = None;
    let mut first_pair = None;
    // The previous line, if it named a GPU thing: (start, end); whether it told a failure.
    let mut prev_gpu: Option<(usize, usize)> = None;
    let mut prev_err = false;
    for line in text.split('\n') {
        let end = pos + line.len();
        // a blank line between the failure and the GPU it names ("RuntimeError: can't query
        // kernel attributes", "", "GPU details: ...") keeps the pair
        if line.trim().is_empty() {
            pos = end + 1;
            continue;
        }
        let python_only = line.contains("No module named") || line.contains("ModuleNotFoundError");
        if line.len() <= 8192 && !python_only && !noise.is_match(line) && !chosen.is_match(line) {
            // "no errors", "without errors": a failure word said in the negative; and a field
            // nvidia-smi could not read
            let blanked = unreadable_blanked(line);
            let said = negated.replace_all(&blanked, ",");
            let (g, e) = (gpu.is_match(line), err.is_match(&said));
            if g && e {
                return Some((pos, end));
            }
            if first_pair.is_none() && e {
                first_pair = prev_gpu;
            }
            // "Error loading" / "…\\torch\\lib\\cudnn_cnn_infer64_8.dll" or": the failure
            // first, the library on the next line.
            if first_pair.is_none() && g && prev_err {
                first_pair = Some((pos, end));
            }
            prev_err = e;
            if first_strong.is_none() && strong.is_match(line) {
                first_strong = Some((pos, end));
            }
            prev_gpu = g.then_some((pos, end));
        } else {
            prev_gpu = None;
            prev_err = false;
        }
        pos = end + 1;
    }
    first_pair
        .or(first_strong)
        .or_else(|| failure_above_gpu_frames(text, gpu, err))
}

/// A failure line whose GPU shows only in the stack frames a few lines below it (Julia's
/// "ERROR: LoadError: UndefVarError ..." / "Stacktrace:" / "[1] pool_mark(dev::CUDA.CuDevice)":
/// JuliaGPU/CUDA.jl#1375): the failure line is the anchor. Only where no line pairs a failure
/// with a GPU word more closely.
fn failure_above_gpu_frames(
    text: &str,
    gpu: &regex::Regex,
    err: &regex::Regex,
) -> Option<(usize, usize)> {
    let lines: Vec<(usize, &str)> = text
        .split('\n')
        .scan(0usize, |pos, l| {
            let at = *pos;
            *pos += l.len() + 1;
            Some((at, l))
        })
        .collect();
    lines.iter().enumerate().find_map(|(i, (at, line))| {
        let fails = line.len() <= 8192 && err.is_match(line) && !gpu.is_match(line);
        let frames_name_gpu = lines
            .iter()
            .skip(i + 1)
            .take(4)
            .any(|(_, l)| l.len() <= 8192 && gpu.is_match(l));
        (fails && frames_name_gpu).then_some((*at, at + line.len()))
    })
}

/// The CUDA status the text names: a CUresult or cudaError_t name anywhere, else a number
/// next to "error", "code", "returned" or "failure" on the anchor line, else the text
/// `cudaGetErrorString` prints on it, else such a number anywhere.
/// A build tool's or a process's exit status: make's "make: *** [all] Error 2" (and
/// "make[1]: *** ... Error 1"), "exit code 2", "exit status 2", "exited with code 2", Python's
/// "returned non-zero exit status 2", ninja's "ninja: build stopped: subcommand failed".
const BUILD_EXIT_STATUS: &str = r"(?i)\bmake(?:\[\d+\])?: \*\*\*[^\n]*|\bgmake(?:\[\d+\])?: \*\*\*[^\n]*|\bninja: build stopped[^\n]*|\b(?:non-zero |nonzero )?exit(?:ed)?(?: with)? (?:code|status|value)\s*[:=]?\s*-?\d+|\bError \d+ \(ignored\)";

/// nvidia-smi's "[Unknown Error]" / "[Not Supported]" as one field of a `--query-gpu` row
/// whose other fields it read (a fan speed or power limit NVML cannot read on this board):
/// the GPU answered, and the words are no CUDA status (Quake4/MindMiner#627,
/// tutulino/Megaminer#376).
const UNREADABLE_FIELD: &str = r"(?:^|,)\s*\[(?:Unknown Error|Not Supported)\]";

fn unreadable_blanked(text: &str) -> std::borrow::Cow<'_, str> {
    match small(UNREADABLE_FIELD) {
        Some(re) => re.replace_all(text, ","),
        None => std::borrow::Cow::Borrowed(text),
    }
}

fn status_in(text: &str, line: &str) -> Option<&'static Status> {
    if let Some(name) = small(r"\b(CUDA_ERROR_[A-Z_]+|cudaError[A-Za-z]+)\b")
        .and_then(|re| re.captures(text))
        .and_then(|c| c.get(1))
    {
        let n = name.as_str();
        if let Some(s) = STATUSES.iter().find(|s| {
            (!s.runtime.is_empty() && s.runtime.eq_ignore_ascii_case(n))
                || (!s.driver.is_empty() && s.driver.eq_ignore_ascii_case(n))
        }) {
            return Some(s);
        }
    }
    let re = small(
        r"(?:cuda\w* error|error(?: code)?|returned|failed with error|failure|\bcode|\berr)\s*[#:=(]?\s*(\d{1,3})\b",
    )?;
    // A build tool's or a process's exit status is no CUDA status: make's "*** [all] Error 2",
    // ninja's "FAILED ... exit code 2", pip's "exit code: 1", Python's "returned non-zero
    // exit status 2" are blanked before the numbers are read.
    let exits = small(BUILD_EXIT_STATUS)?;
    let number = |t: &str| {
        let t = exits.replace_all(t, "");
        re.captures(&t)
            .and_then(|c| c.get(1)?.as_str().parse::<u32>().ok())
            .and_then(|n| STATUSES.iter().find(|s| s.code == n))
    };
    if let Some(s) = number(line) {
        return Some(s);
    }
    let lower = line.to_ascii_lowercase();
    if let Some(s) = STATUSES
        .iter()
        .find(|s| !s.phrase.is_empty() && lower.contains(&s.phrase.to_ascii_lowercase()))
    {
        return Some(s);
    }
    number(text)
}

/// The NVML return code the text names, by name or by `nvmlErrorString`'s text.
fn nvml_in(text: &str) -> Option<(&'static str, &'static str, &'static str)> {
    let lower = text.to_ascii_lowercase();
    NVML.iter()
        .find(|(name, phrase, _, _)| {
            text.contains(name)
                || (!phrase.is_empty() && lower.contains(phrase) && lower.contains("nvml"))
        })
        .map(|(name, _, cause, why)| (*name, *cause, *why))
}

/// The GPU library a text names, as its base name ("libcudnn"), Windows DLLs included.
fn library_in(text: &str) -> Option<&'static str> {
    const LIBS: &[(&str, &str)] = &[
        (r"\blibcuda\.so|\bnvcuda\.dll", "libcuda"),
        (r"\blibnvidia-ml\b|\bnvml\.dll", "libnvidia-ml"),
        (
            r"\blibnvJitLink|\bnvJitLink\w*\.dll|__nvJitLink",
            "libnvJitLink",
        ),
        (r"\blibcudnn\w*|\bcudnn\w*64_\d+\.dll", "libcudnn"),
        (r"\blibcublas\w*|\bcublas\w*64_\d+\.dll", "libcublas"),
        (r"\blibcudart\w*|\bcudart64_\d+\.dll", "libcudart"),
        (r"\blibnccl\w*", "libnccl"),
        (r"\blibnvrtc\w*|\bnvrtc64_\w+\.dll", "libnvrtc"),
        (
            r"\blib(?:cufft|curand|cusparse|cusolver|cupti)\w*|\b(?:cufft|curand|cusparse|cusolver)64_\d+\.dll",
            "libcuda-math",
        ),
    ];
    LIBS.iter()
        .find(|(p, _)| small(p).is_some_and(|re| re.is_match(text)))
        .map(|(_, name)| *name)
}
