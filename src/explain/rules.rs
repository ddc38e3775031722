//! The table `explain` works from: each rule is one error message (in every wording the
//! CUDA runtime, the driver API, PyTorch, cuBLAS, cuDNN, NCCL, NVML, nvcc and the kernel
//! log print it), the causes it can have with a base weight, why, the fix, and what tells
//! the causes apart. Hints raise or lower a cause when other text in the paste points at it.
//!
//! The wordings come from the libraries' own message tables: `cudaGetErrorString` /
//! `cuGetErrorString` (driver_types.h, cuda.h), PyTorch's c10/cuda and
//! torch/cuda/__init__.py warnings, cuBLAS/cuDNN status names, NCCL's `ncclResult_t`,
//! NVML's `nvmlErrorString`, and NVIDIA's Xid catalogue.

/// One possible cause of a message, with its base weight (0..1).
pub struct Cause {
    /// A finding id from finding-ids.md (`workload.*` where the machine is not at fault).
    pub id: &'static str,
    pub weight: f64,
    pub why: &'static str,
    pub fix: &'static str,
}

/// When `when` (a case-insensitive regex) matches anywhere in the text, `cause`'s weight
/// moves by `delta`.
pub struct Hint {
    pub when: &'static str,
    pub cause: &'static str,
    pub delta: f64,
}

pub struct Rule {
    /// The match id in `explain` output, e.g. "cuda.no_kernel_image".
    pub id: &'static str,
    pub title: &'static str,
    /// Case-insensitive regex over the text.
    pub pattern: &'static str,
    /// Which match explains a paste with several: the most specific message wins.
    pub priority: u8,
    pub causes: &'static [Cause],
    pub hints: &'static [Hint],
    /// What tells the causes apart.
    pub tells_apart: &'static str,
}

const fn c(id: &'static str, weight: f64, why: &'static str, fix: &'static str) -> Cause {
    Cause {
        id,
        weight,
        why,
        fix,
    }
}

const fn h(when: &'static str, cause: &'static str, delta: f64) -> Hint {
    Hint { when, cause, delta }
}

/// Words with which a paste says the machine has no NVIDIA GPU: only Intel/AMD graphics, no
/// dedicated GPU, "doesn't have an NVIDIA graphics card".
pub const NO_NVIDIA_GPU_WORDS: &str = r"(?:Graphics\s*[:=]?\s*(?:Mesa\s+)?(?:Intel|AMD)|Intel(?:\(R\)|\x7f+)?\s+(?:U?HD|Iris|Xe|Arc)\b[^\n]{0,20}Graphics|\bAMD Radeon\b|(?:no|without an?|doesn'?t have an?|does not have an?|don'?t have an?|lacks? an?)\s+(?:dedicated |discrete |nvidia |NVIDIA )?(?:GPU|graphics card|video card)|(?:no|without an?|doesn'?t have (?:an?|any)|does not have (?:an?|any)|don'?t have (?:an?|any)|do not have (?:an?|any))\s+NVIDIA\b)";

/// CUDA_VISIBLE_DEVICES set to hide every GPU, in a shell (`CUDA_VISIBLE_DEVICES=-1`, `=""`) or
/// from the program (`os.environ["CUDA_VISIBLE_DEVICES"]="-1"`: numba/numba#5793).
pub const VISIBLE_DEVICES_EMPTY: &str =
    r"CUDA_VISIBLE_DEVICES['\x22\]]{0,3}\s*[=:,]\s*['\x22]?(?:-1\b|['\x22]{1,2}(?:[\s)]|$)|$)";

/// Names of CUDA extension packages whose frames or library names in a traceback point at
/// the extension rather than at PyTorch itself.
pub const EXTENSIONS: &str = r"\bvllm\b|flash_attn|flash-attn|flash_attn_2_cuda|xformers|bitsandbytes|libbitsandbytes|vllm[/._]|vllm_flash_attn|apex|amp_C|fused_layer_norm|mmcv|_ext\.cpython|detectron2|deepspeed|llama_cpp|auto_gptq|exllama|causal_conv1d|mamba_ssm|selective_scan|sageattention|torch_scatter|torch_sparse|torch_cluster|pytorch3d|gsplat|diff_gaussian_rasterization|simple_knn|tinycudann|nvdiffrast|spconv|sgl_kernel|flashinfer|awq|marlin|_C\.abi3|custom_ops|cpp_extension|nunchaku|triton_|fused_adam|transformer_engine|MinkowskiEngine|kaolin|torchaudio|torchvision";

/// What the reporter saw across versions: "works with X 1.7, fails with 1.8", "does not occur
/// with torch 1.7.1", "a regression", "fixed in 2.3", "since upgrading to 0.4". A kernel failure
/// that comes and goes with a library's version is that library's bug, not the program's
/// indexing or the machine (pytorch/pytorch#54975).
/// A text that runs in a container: the engines and orchestrators by name, or a Dockerfile's
/// `FROM image:tag` line (jrottenberg/ffmpeg#233 pastes only its Dockerfile).
pub const IN_CONTAINER: &str = r"(?m)docker|container|podman|singularity|apptainer|kubernetes|\bpod\b|^FROM\s+[\w./-]+:[\w.-]+";

pub const VERSION_CONTRAST: &str = r"\b(?:with|on|using|under) [\w.+-]{2,30}\s?={0,2}\s?v?\d+\.\d+(?:\.\d+)?[^\n]{0,40}\b(?:is |was )?(?:working|works|worked|runs|ran) (?:fine|well|perfectly|correctly)|(?:(?:does not|doesn't|did not|didn't|does n't|never) (?:occur|happen|fail|reproduce|crash)|(?:works?|worked|working|runs?|ran|passe[sd]?) (?:fine |well |ok |okay |correctly |perfectly )?)[^\n]{0,30}\b(?:with|on|in|using|under) [\w.+-]{2,30}[ =v]{0,3}\d+\.\d+|\bregression\b|\b(?:worked|works|working|ran|runs) (?:fine |well )?(?:before|until|prior to) [\w.-]+[^\n]{0,40}\b(?:fail|broke|error)|(?:disabling|disable|without|turning off) [\w-]+[^\n]{0,60}\bworks\b|\b(?:a |known )?bug in (?:[\w.-]+ )?(?:version |v)?\d+\.\d+|(?:fixed|resolved|solved|goes away) (?:in|by|with|after) (?:upgrading|updating|the (?:latest|new)|v?\d+\.\d+|version \d|release \d)|(?:after|since) (?:upgrading|updating) (?:to )?[\w.+-]{2,30}[ =v]{0,3}\d+\.\d+|(?:broke|broken|fails?|failing|started failing) (?:since|after|from) (?:v|version )?\d+\.\d+|\bv?\d+\.\d+(?:\.\d+)? (?:still )?(?:works?|worked|runs?|ran) (?:fine|well|perfectly|correctly)|\brevert(?:ing|ed)? (?:back )?to (?:an? )?(?:older|previous|earlier|the old|versions?\b)|\b(?:have|had|need|needed) to downgrade (?:\w+ )?to (?:v|version )?\d+\.\d+|\bthe old(?:er)? version[^\n]{0,30}\b(?:had no (?:issues?|problems?)|works?|worked)|\b(?:works?|worked|working|fine) (?:with|on|using) [\w ]{0,30}?v?\d+\.\d+(?:\.\d+)?\s*(?:&|and|or)\s*(?:below|older|earlier|lower|before)\b|\bwhen (?:i |we )?use[ds]? [\w./:+-]*\d[\w./:+-]*\s*,?\s*(?:it )?(?:is|was|works?|worked) (?:ok|okay|fine|well)\b";

/// MIG named: the word (not `nvidia-smi`'s column header "MIG M.", which every table of a
/// driver from R450 on prints), a MIG device's UUID, a MIG profile ("1g.10gb"). The hints
/// that add a word of their own spell it out (`concat!` takes no const).
const MIG_NAMED: &str = r"\bMIG(?:$|[^ \w]| [^M]| M[^.])|MIG-|\dg\.\d+gb";

/// torch's own library missing one of torch's own C++ symbols (at::, c10::, torch::, caffe2::,
/// TH*): not a CUDA library of another version but two torch versions mixed.
const TORCH_OWN_SYMBOL_MISSING: &str = r"torch/lib/lib(?:torch|c10|shm|caffe2)\w*\.so[.\d]*:\s*undefined\s+symbol:\s*_Z\w*?(?:\d+at\d|\d+c10|\d+torch|\d+caffe2|TH)";

/// GPUs every CUDA 9-12 framework build carries kernels for (Pascal sm_60/61, Volta sm_70,
/// Turing sm_75): named in a paste, the build's arch list is an unlikely cause of a failure.
const GPU_EVERY_BUILD_RUNS: &str = r"\b(?:GTX ?10[5-8]0(?: ?Ti)?|GTX ?16[56]0(?: ?(?:Ti|SUPER))?|RTX ?20[6-8]0(?: ?(?:Ti|SUPER))?|Titan (?:Xp|V|RTX)|Tesla (?:P4|P40|P100|V100|T4)|Quadro (?:P\d{3,4}|GV100|RTX ?[4-8]000))\b";

/// The same operation works at one size and fails at another ("does work on batch size = 24
/// but not on batch size = 25", "works with 512 tokens, fails with 1024"): a kernel's bug for
/// some shapes, not the machine and not the program's indexing.
const SIZE_THRESHOLD: &str = r"\b(?:does |do )?works?\b[^\n]{0,60}\b(?:batch[ _-]?size|size|length|len|tokens|resolution)\b[^\n]{0,40}\bbut not\b|\b(?:batch[ _-]?size|size|length)\s*[=:]?\s*\d+[^\n]{0,60}\bbut not\b[^\n]{0,30}\b(?:batch[ _-]?size|size|length)\b";

/// A release range in prose ("with CUDA 13.1+", "CUDA Toolkit 13.1 through 13.4", "torch
/// 2.1 to 2.3"): behaviour bound to some releases of a toolkit or library.
const VERSION_RANGE: &str = r"\b(?:CUDA|toolkit|driver|torch|pytorch|triton|NCCL|cuDNN|cuBLAS)(?: Toolkit)? ?v?\d+\.\d+(?:\.\d+)?\+|\b(?:CUDA|toolkit|torch|pytorch|triton|NCCL|cuDNN|cuBLAS)(?: Toolkit)? v?\d+\.\d+(?:\.\d+)? (?:through|to|-) v?\d+\.\d+\b";

/// The paste rules out running out of memory ("I don't think bs=1 should lead to OOM", "it
/// is not an OOM", "plenty of free memory").
const OOM_RULED_OUT: &str = r"(?:\b(?:don'?t|do not|doesn'?t|does not|shouldn'?t|should not|isn'?t|is not|wasn'?t|was not|not)\b[^\n]{0,50}\b(?:OOM|out of memory)\b|\bplenty of (?:free )?(?:GPU |VRAM |video )?memory\b)";

/// Several GPUs of one machine listed one per line (a hand-written list of local cards,
/// nccl-tests' "Rank N ... device N ... <GPU>" lines) or nccl-tests' `nGpus N`: one node.
const LOCAL_GPU_LIST: &str = r"\bnGpus [2-9]\b|\b(?:GTX|RTX|Titan|Tesla|Quadro|A100|A6000|A40|L40S?|V100|H100|H200)\b[^\n]{0,40}\n[^\n]{0,80}\b(?:GTX|RTX|Titan|Tesla|Quadro|A100|A6000|A40|L40S?|V100|H100|H200)\b";

/// The text says the machine has no (NVIDIA) GPU at all: "I'm running without GPU", "I don't
/// have an NVIDIA GPU", "this laptop has no GPU".
const NO_GPU_SAID: &str = r"\b(?:running|run|runs|machine|computer|laptop|server|vm|pc)\b[^\n]{0,30}\bwithout\s+(?:an?\s+|any\s+)?(?:nvidia\s+|cuda\s+|dedicated\s+)?(?:gpu|graphics card)|\b(?:don't|do not|doesn't|does not|dont) have (?:an? |any )?(?:nvidia |cuda |dedicated )?(?:gpu|graphics card)|\b(?:i have|there is|there's|(?:machine|computer|laptop|server|pc) has) no (?:nvidia |cuda |dedicated )?(?:gpu|graphics card)";
/// A CUDA library of major N that cannot be opened, beside the text saying CUDA N.x is
/// installed (later in the text: "CUDA version: 11.2"): the CUDA is there but not on the loader path.
const SAME_MAJOR_LIB_MISSING: &str = r"lib(?:cudart|cublas|cublasLt|cufft|curand|cusparse|cusolver|nvrtc|nvJitLink|npp\w*|nvjpeg)\.so\.(?:10(?:\.\d)?: cannot open[\s\S]{0,1500}?\bCUDA(?:[ \t]+(?:version|toolkit))?[ \t]*[:=]?[ \t]*10\.\d|11(?:\.\d)?: cannot open[\s\S]{0,1500}?\bCUDA(?:[ \t]+(?:version|toolkit))?[ \t]*[:=]?[ \t]*11\.\d|12(?:\.\d)?: cannot open[\s\S]{0,1500}?\bCUDA(?:[ \t]+(?:version|toolkit))?[ \t]*[:=]?[ \t]*12\.\d|13(?:\.\d)?: cannot open[\s\S]{0,1500}?\bCUDA(?:[ \t]+(?:version|toolkit))?[ \t]*[:=]?[ \t]*13\.\d)";

/// A Blackwell GPU (RTX 50xx, RTX PRO Blackwell, B200/GB200, GB10; sm_100/sm_12x) named with a
/// torch or CUDA build older than the first that carries its kernels (torch 2.7 with CUDA 12.8),
/// in either order.
const BLACKWELL_WITH_OLD_TORCH: &str = r"(?:\b(?:RTX ?)?50[6-9]0(?: ?Ti)?\b|RTX PRO \d000 Blackwell|\bG?B[23]00\b|\bGB10\b|\bsm_?1(?:00|2[01])\b)[\s\S]{0,1500}?(?:\b(?:py)?torch(?:==|-| |: )v?2\.[0-6]\b|\+cu1(?:1\d|2[0-6])\b|\bcu1(?:1\d|2[0-6])\b)|(?:\b(?:py)?torch(?:==|-| |: )v?2\.[0-6]\b|\+cu1(?:1\d|2[0-6])\b|\bcu1(?:1\d|2[0-6])\b)[\s\S]{0,1500}?(?:\b(?:RTX ?)?50[6-9]0(?: ?Ti)?\b|RTX PRO \d000 Blackwell|\bG?B[23]00\b|\bGB10\b|\bsm_?1(?:00|2[01])\b)";

/// A Blackwell GPU named (by model, or its capability; an `sm_120` in a build's arch list is no
/// GPU) with a torch 2.7+ build for CUDA 12.8 or later (which carries sm_100 and sm_120), in
/// either order.
const BLACKWELL_WITH_NEW_TORCH: &str = r"(?:\b(?:RTX ?)?50[6-9]0(?: ?Ti)?\b|RTX PRO \d000 Blackwell|\bG?B[23]00\b|\bGB10\b|capability:? ?(?:sm_)?1(?:0\.0|2\.[01]|00|2[01])\b)[\s\S]{0,1500}?(?:\b(?:py)?torch[ =:-]{1,3}v?2\.(?:[7-9]|1\d)(?:\.\d+)?\+cu1(?:2[89]|3\d)\b|\bPyTorch 2\.(?:[7-9]|1\d)(?:\.\d+)? \+ CUDA 1(?:2\.[89]|3\.\d)\b)|(?:\b(?:py)?torch[ =:-]{1,3}v?2\.(?:[7-9]|1\d)(?:\.\d+)?\+cu1(?:2[89]|3\d)\b|\bPyTorch 2\.(?:[7-9]|1\d)(?:\.\d+)? \+ CUDA 1(?:2\.[89]|3\.\d)\b)[\s\S]{0,1500}?(?:\b(?:RTX ?)?50[6-9]0(?: ?Ti)?\b|RTX PRO \d000 Blackwell|\bG?B[23]00\b|\bGB10\b|capability:? ?(?:sm_)?1(?:0\.0|2\.[01]|00|2[01])\b)";

/// Jetson Thor (sm_110 under CUDA 13; sm_101 under 12.8/12.9) named with a CUDA 12 build: the
/// cu128/cu129 wheels (SBSA builds for Grace) carry no code for it (OpenRAL/openral#167).
const THOR_WITH_CU12: &str = r"(?:Jetson (?:AGX )?Thor|NVIDIA Thor|\bThor\b[^\n]{0,40}\bsm_?110|\bsm_?110\b)[\s\S]{0,1500}?(?:\+cu12\d\b|\bcu12[89]\b)|(?:\+cu12\d\b|\bcu12[89]\b)[\s\S]{0,1500}?(?:Jetson (?:AGX )?Thor|NVIDIA Thor|\bsm_?110\b)";

/// A GPU of the same major architecture but a newer minor than the build's newest (12.1 under a
/// build up to 12.0, 8.6/8.9 under 8.0, 10.3 under 10.0): code for the older minor runs on it
/// (binary compatibility within a major), so PyTorch's "not compatible" warning is a false
/// positive (pytorch/pytorch#172629: GB10 under torch 2.9, fixed in 2.11).
const SAME_MAJOR_NEWER_MINOR: &str = r"capability:? ?12\.[1-9]\b[\s\S]{0,300}?- \(12\.0\)|capability:? ?10\.[1-3]\b[\s\S]{0,300}?- \(10\.0\)|capability:? ?8\.[6-9]\b[\s\S]{0,300}?- \(8\.[0-6]\)|capability sm_121\b[^\n]*\n[^\n]*\bsm_120\b";

/// An NVIDIA GPU named by its product ("GeForce", "RTX 3090", "A100", "T4"): the machine
/// has one.
const NVIDIA_GPU_NAMED: &str = r"\b(?:GeForce|Quadro|Tesla|RTX ?\d{4}|GTX ?\d{3,4}|[AHLT]\d{1,3}(?:\s|-)?(?:PCIe|SXM|\d+GB)|A100|H100|V100|T4)\b";
/// A torch tagged with its CUDA ("+cu110"): it comes only from the CUDA index, chosen for a
/// GPU the person has (pip's default wheel carries no tag).
const TORCH_FROM_CUDA_INDEX: &str = r"torch[^\n]{0,30}\+cu\d{2,3}\b";
/// nvidia-smi said to work inside the container: the container has the GPU.
const SMI_ANSWERS_IN_CONTAINER: &str = r"(?:in|inside) (?:the |a |my )?(?:docker |podman )?container[^\n]{0,60}nvidia-smi[^\n]{0,60}\b(?:work(?:s|ed|ing)?|fine|ok)\b|nvidia-smi[^\n]{0,60}\b(?:work(?:s|ed|ing)?|fine)\b[^\n]{0,30}(?:in|inside) (?:the |a |my )?(?:docker |podman )?container";
const FIX_TORCH_ARCH: &str = "Install a PyTorch build whose arch list includes the GPU's compute capability (see `gpu-doctor matrix show --gpu \"<name>\"`): for Blackwell (sm_100/sm_120) a CUDA 12.8+ build (`pip install torch --index-url https://download.pytorch.org/whl/cu128`); for an old GPU a release that still ships its architecture.";
const FIX_EXT_ARCH: &str = "Rebuild the extension for this GPU (`TORCH_CUDA_ARCH_LIST=\"<cc>\" pip install --no-build-isolation --no-binary :all: --force-reinstall <package>`) or install a wheel of it built for this architecture.";
pub(super) const FIX_TOOLKIT_ARCH: &str = "Build with a CUDA toolkit that knows the GPU (CUDA 11.8+ for sm_89/sm_90, 12.8+ for sm_100/sm_120) and point CUDA_HOME at it.";
const FIX_DRIVER_UPGRADE: &str = "Install a newer NVIDIA driver (the branch the build's CUDA needs: CUDA 12.x needs 525+, 12.4 needs 550+, 12.8 needs 570+, 13.0 needs 580+), or install a PyTorch build for an older CUDA (`--index-url https://download.pytorch.org/whl/cu118`).";
const FIX_OOM: &str = "Lower the batch size or sequence length, use mixed precision, gradient checkpointing or accumulation, free cached tensors (`del x; torch.cuda.empty_cache()`), and with large 'reserved but unallocated' memory set `PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True`.";
pub(crate) const FIX_BUSY: &str = "See which processes hold the GPU (`nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv`) and stop them, or pick a free GPU with CUDA_VISIBLE_DEVICES.";
const FIX_LIBS_SHADOWED: &str = "Remove CUDA library folders (/usr/local/cuda*/lib64, conda's lib) from LD_LIBRARY_PATH so torch loads the libraries its wheels ship (`unset LD_LIBRARY_PATH`), then retry.";
const FIX_WHEEL_DEPS: &str = "Reinstall torch with the nvidia-* wheels it pins (`pip install --force-reinstall torch==<version> --index-url https://download.pytorch.org/whl/<cuXXX>`); do not upgrade nvidia-cublas/cudnn/nccl wheels on their own.";
pub(super) const FIX_LIBRARY_BUG: &str = "Upgrade the library named in the traceback (PyTorch, flash-attn, xformers, NCCL, ...) to a release with the fix, or work around the shape that triggers it; search its issue tracker for the exact message.";
pub(super) const FIX_ILLEGAL: &str = "Re-run with `CUDA_LAUNCH_BLOCKING=1` (and `compute-sanitizer python script.py`) to find the kernel that faults; check indices, tensor shapes and dtypes passed to custom kernels.";
const FIX_XID_HW: &str = "Check `nvidia-smi -q -d ECC,PAGE_RETIREMENT,ROW_REMAPPER` and `dmesg | grep -i xid`; drain the node and reset the GPU (`nvidia-smi -r -i <n>`) or reboot; repeated occurrences mean an RMA.";
const FIX_CONTAINER: &str = "Start the container with the GPUs: install nvidia-container-toolkit on the host, `sudo nvidia-ctk runtime configure --runtime=docker && sudo systemctl restart docker`, then `docker run --gpus all ...` (Kubernetes: request `nvidia.com/gpu` and run the device plugin).";
const FIX_MODULE: &str = "Load the kernel module: `sudo modprobe nvidia`; if that fails, rebuild it for the running kernel (`sudo dkms autoinstall` or reinstall the driver package) and, with Secure Boot on, enrol its key or sign the module; then reboot.";
const FIX_DRIVER_INSTALL: &str = "Install the NVIDIA driver for this GPU (Ubuntu: `sudo ubuntu-drivers install`; others: the distribution's nvidia-driver package or the .run installer) and reboot.";
const FIX_UVM: &str = "Reload nvidia_uvm (`sudo rmmod nvidia_uvm && sudo modprobe nvidia_uvm`), typically needed after suspend/resume; if it persists, reboot.";

/// A Mac (which has no NVIDIA GPU and no CUDA builds) named in a paste that asks for a CUDA
/// build (`+cuXXX`, pytorch-cuda, cudatoolkit, CUDA wheels), in either order: an install of a
/// plain package that fails on a Mac is no GPU matter.
const INSTALL_ON_A_MAC_FOR_CUDA: &str = r"(?:\bmacOS\b|macosx_\d|\bdarwin\b|\bMac ?(?:M[1-4]|book|OS)\b|Apple (?:M[1-4]|silicon)|osx-arm64|\bosx\b)[\s\S]{0,2000}?(?:\+cu\d{2,3}\b|pytorch-cuda|cudatoolkit|-cu1\d\b|\bCUDA\b)|(?:\+cu\d{2,3}\b|pytorch-cuda|cudatoolkit|-cu1\d\b|\bCUDA\b)[\s\S]{0,2000}?(?:\bmacOS\b|macosx_\d|\bdarwin\b|\bMac ?(?:M[1-4]|book|OS)\b|Apple (?:M[1-4]|silicon)|osx-arm64|\bosx\b)";

/// Every rule. Order does not matter; `priority` picks the main match.
pub const RULES: &[Rule] = &[
    // ---------------------------------------------------------------- raised on a real H100
    // Triton's launcher when a kernel's tiles and pipeline stages need more shared memory per
    // block than the GPU has ("out of resource: shared memory, Required: 524288, Hardware
    // limit: 232448. Reducing block sizes or `num_stages` may help.", raised on purpose on an
    // H100 on 2026-11-24: 232448 bytes is its 227 KiB opt-in maximum per block). Kernels tuned
    // on an H100 or A100 (163 KiB) hit it on GPUs with 99 KiB (sm_86/sm_89) or 64 KiB (sm_75).
    Rule {
        id: "triton.out_of_resources",
        title: "Triton: out of resource (shared memory or registers) for the kernel's configuration",
        pattern: r"OutOfResources:\s*out of resource:\s*(?:shared memory|registers|threads)|out of resource:\s*shared memory,\s*Required:\s*\d+",
        priority: 70,
        causes: &[
            c("workload.shared_memory", 0.4, "The kernel's block sizes and pipeline stages (`num_stages`) need more shared memory per block than this GPU offers (the error prints both). A configuration tuned for a GPU with more shared memory per block (227 KiB on an H100, 163 KiB on an A100) does not fit smaller ones (99 KiB on sm_86/sm_89, 64 KiB on sm_75); the GPU and the driver are fine.", "Use smaller block sizes or fewer `num_stages` (an autotune config list that includes small ones), or a version of the library whose kernels carry configurations for this GPU; on the same GPU, lower the tile size the program asks for."),
            // Few people write Triton kernels themselves: the failing one is most often a
            // library's (MonkeyOCR#25, triton-lang/triton#384's own tests), fixed by its patch.
            c("workload.library_bug", 0.6, "A library's Triton kernel (or a project's) ships no configuration that fits this GPU's shared memory per block: fixed by that library (a patch or a later release), not by the machine.", "Upgrade the library whose kernel failed (its frame is in the traceback) or apply its fix for this GPU, or report the GPU to it; meanwhile a smaller tile/block setting of the program, if it has one."),
        ],
        hints: &[
            h(VERSION_CONTRAST, "workload.library_bug", 0.5),
            h(r"@triton\.jit|triton\.Config\(|\bmy (?:own )?(?:triton )?kernel", "workload.shared_memory", 0.5),
            // the kernel launched (`kernel[grid](...)`) from a frame of one's own code, not
            // from an installed package's: one's own kernel and its configuration
            h(r#"File "[^"\n]*"[^\n]*\n\s+\w+\[[^\]\n]{0,60}\]\("#, "workload.shared_memory", 0.5),
            h(r#"File "[^"\n]*(?:site|dist)-packages[^"\n]*"[^\n]*\n\s+\w+\[[^\]\n]{0,60}\]\("#, "workload.shared_memory", -0.5),
            h(r"(?:unsloth|flash_attn|vllm|sglang|xformers|liger|fla/|flash-linear-attention|bitsandbytes|mamba_ssm|torch/_inductor)", "workload.library_bug", 0.2),
        ],
        tells_apart: "Required against Hardware limit in the message: a kernel asking for more than the GPU has is a configuration too big for it; one library's kernel failing only on this GPU model is that library's missing configuration.",
    },
    // ---------------------------------------------------------------- architecture
    Rule {
        id: "torch.sm_not_compatible",
        title: "PyTorch says the GPU's architecture is not in the build",
        pattern: r"(?:with CUDA capability (sm_\d+a?) is not compatible with the current PyTorch(?: installation)?|The current PyTorch install supports CUDA capabilities|which is of cuda capability (\d+\.\d+)\. PyTorch no longer supports this GPU|PyTorch no longer supports this GPU because it is too old|Found GPU\d+ [^\n]{0,80} which requires CUDA_VERSION|Minimum and Maximum cuda capability supported by this version of PyTorch)",
        priority: 92,
        causes: &[
            c("torch.arch_unsupported", 0.9, "PyTorch checks at start-up that its build carries kernels (SASS, or PTX it can JIT) for each GPU's compute capability; this build has none for this GPU, so every kernel launch fails with 'no kernel image is available'.", FIX_TORCH_ARCH),
            c("driver.gpu_unsupported", 0.05, "Rarely the GPU itself is too old for any current build and driver.", "Use an older PyTorch release that still supports this GPU, or newer hardware."),
        ],
        hints: &[],
        tells_apart: "The warning names the GPU and the build's arch list: when the GPU's sm is missing from that list, the build is the cause.",
    },
    // torch.utils.cpp_extension's `_get_cuda_arch_flags` raises this when building an extension
    // for a GPU whose arch the installed torch does not know (torch built for CUDA 10.2 on an
    // sm_86 RTX 3090: detectron2#2401-style threads), or for a TORCH_CUDA_ARCH_LIST entry it
    // does not know.
    Rule {
        id: "cpp_extension.unknown_arch",
        title: "Unknown CUDA arch (X) or GPU not supported",
        pattern: r"Unknown CUDA arch \(\d+\.\d+\+?(?:PTX)?\) or GPU not supported",
        priority: 85,
        causes: &[
            c("torch.arch_unsupported", 0.6, "Building a CUDA extension asks torch for the GPU's arch flags; the installed torch (and the CUDA it was built for) predates this GPU, so it has no flags for its compute capability.", FIX_TORCH_ARCH),
            c("toolkit.arch_unsupported", 0.25, "The CUDA toolkit the build uses is older than the GPU.", FIX_TOOLKIT_ARCH),
            c("ext.arch_unsupported", 0.15, "TORCH_CUDA_ARCH_LIST names an architecture this torch does not know.", FIX_EXT_ARCH),
        ],
        hints: &[h(r"TORCH_CUDA_ARCH_LIST\s*=", "ext.arch_unsupported", 0.6)],
        tells_apart: "When TORCH_CUDA_ARCH_LIST is unset the arch comes from the GPU itself: the torch build is too old for it; a set TORCH_CUDA_ARCH_LIST with an entry this torch does not list is the setting.",
    },
    Rule {
        id: "cuda.no_kernel_image",
        title: "no kernel image is available for execution on the device",
        pattern: r"(?:no kern[ae]l image (?:is )?available(?: for execution on (?:the )?device| for sm_\d+)?|kernel image (?:is )?(?:not |un)available|CUDA_ERROR_NO_BINARY_FOR_GPU|NoBinaryForGpu|cudaErrorNoKernelImageForDevice|no binary for GPU|Error 209\b|error code[ :=]*209\b)",
        priority: 80,
        causes: &[
            c("torch.arch_unsupported", 0.55, "The PyTorch wheel carries no kernels for this GPU's compute capability (a build older than the GPU, e.g. cu118/cu121/cu124 wheels on a Blackwell sm_120 card, or a new build on a GPU it dropped).", FIX_TORCH_ARCH),
            c("ext.arch_unsupported", 0.3, "A CUDA extension (flash-attn, xformers, bitsandbytes, a custom op) was compiled for other architectures than this GPU's.", FIX_EXT_ARCH),
            c("toolkit.arch_unsupported", 0.1, "Code built locally with a CUDA toolkit too old to target this GPU (nvcc silently built for older archs only).", FIX_TOOLKIT_ARCH),
            c("workload.library_bug", 0.05, "A library version shipped kernels without this architecture by mistake.", FIX_LIBRARY_BUG),
        ],
        hints: &[
            h(r"is not compatible with the current PyTorch installation|PyTorch no longer supports this GPU|sm_\d+a? (?:is )?not compatible", "torch.arch_unsupported", 0.4),
            h(EXTENSIONS, "ext.arch_unsupported", 0.35),
            h(r"ggml|llama\.cpp|llama_cpp|koboldcpp|ctranslate2|onnxruntime|tensorrt|\.cu:\d+", "ext.arch_unsupported", 0.35),
            // A program that is no Python at all (Rust's `cargo run` and its panics, Go, Julia)
            // carries its own compiled kernels: no torch wheel is involved
            // (filecoin-project/rust-gpu-tools: `Cuda(NoBinaryForGpu)` on a K80).
            h(r"cargo run|\.rs:\d+|panicked at|CUDA\.jl|\.go:\d+", "ext.arch_unsupported", 0.4),
            // A program the user built with make/cmake and runs from its build tree: its own
            // kernels (ETH3D/badslam#42: a GT 730 below the application's sm_53 floor).
            h(r"\bmake\s+-j|\bcmake\b|(?:^|[\s\x22'`])\./build\w*/|/build/bin/", "ext.arch_unsupported", 0.4),
            // An extension's own compiled module named ("xformers/_C.so", "the T4 _C.so"):
            // torch's is `_C.cpython-…so`, so a bare `_C.so` / `_C.pyd` is an extension's build
            // (TheLastBen/fast-stable-diffusion#36: a prebuilt _C.so for another GPU).
            h(r"(?:^|[\s/\\'\x22`])_C\.(?:so|pyd)\b", "ext.arch_unsupported", 0.5),
            h(r"nvcc|setup\.py (?:build|install)|building wheel|TORCH_CUDA_ARCH_LIST", "toolkit.arch_unsupported", 0.15),
            // The reporter's own CUDA C program, compiled with nvcc and run ("nvcc file.cu -o
            // a.out", cudaGetErrorString after a launch: googlecolab/colabtools#2377, nvcc 11's
            // default target without sm_37 on a K80): nvcc built it, for other architectures.
            h(r"\bnvcc\b[^\n]{0,60}\.cu\b|cudaGetErrorString|__global__|<<<[^\n]{0,40}>>>", "ext.arch_unsupported", 0.5),
            // A Blackwell GPU (sm_100/sm_120) beside a torch older than its first builds for it
            // (2.7 with cu128): the torch wheel has no kernels for it, whatever extension is
            // named (RodrigoSKohl/InteriorDesign-for-ComfyUI#5: a node's pin pulled torch 2.6).
            h(BLACKWELL_WITH_OLD_TORCH, "torch.arch_unsupported", 0.45),
            // A Blackwell GPU beside a torch 2.7+ CUDA 12.8+ build, which carries sm_100/sm_120:
            // the kernel that fails is another package's (huggingface/diffusers#13043).
            h(BLACKWELL_WITH_NEW_TORCH, "torch.arch_unsupported", -0.4),
            h(THOR_WITH_CU12, "torch.arch_unsupported", 0.45),
            // torch's own arch list printed beside the failure points at the torch build.
            h(r"\barch_list\b|get_arch_list\(\)", "torch.arch_unsupported", 0.3),
            h(r"in file [^\n]{0,80}\.cu\b|/csrc/", "ext.arch_unsupported", 0.3),
            // The reporter built the failing code themselves ("Built with pytorch 1.7, cuda
            // 10.2": thomasbrandon/mish-cuda#10): a local build for other architectures, not
            // the torch wheel (torch's own "Compile with `TORCH_USE_CUDA_DSA`" is no build).
            h(r"\b(?:built|compiled|rebuilt|recompiled)\b[^\n]{0,30}\b(?:with|from source|myself|against|locally)\b|\b(?:build|built|compiled?) (?:it )?from source", "ext.arch_unsupported", 0.3),
        ],
        tells_apart: "Which frame raised it: torch's own ops (torch/nn, aten) mean the torch build; an extension's module (flash_attn_2_cuda, xformers, bitsandbytes) means that extension. `python -c \"import torch; print(torch.cuda.get_arch_list(), torch.cuda.get_device_capability())\"` settles it: the device's sm must be in the list.",
    },
    // An `-arch` value the toolkit predates: `native` (ggml-org/whisper.cpp#876, nvcc 11.5 of
    // Ubuntu's apt package), `all`, `all-major` (later CUDA 11 releases added them): nvcc itself
    // says this toolkit does not know the option, whatever GPU the machine has.
    Rule {
        id: "nvcc.arch_value_unknown",
        title: "nvcc is older than the `-arch` value the build passes",
        pattern: r"Value '(?:native|all|all-major)' is not defined for option 'gpu-(?:architecture|name)'",
        priority: 86,
        causes: &[
            c("toolkit.arch_unsupported", 0.8, "The CUDA toolkit compiling the code is older than the `-arch` value the build asks for (`native`, `all`, `all-major` came with later CUDA 11 releases): often the distribution's own nvcc (Ubuntu 22.04's 11.5) found before a newer toolkit.", "Use a newer CUDA toolkit (NVIDIA's repository, or put `/usr/local/cuda/bin` first on PATH), or pass the GPU's architecture explicitly (`-arch=sm_61`; CMake `-DCMAKE_CUDA_ARCHITECTURES=61`)."),
            c("toolkit.multiple", 0.1, "Several toolkits are installed and the build found the older one first.", "Point PATH and CUDA_HOME at the intended toolkit (`which nvcc; nvcc --version`)."),
        ],
        hints: &[],
        tells_apart: "`nvcc --version`: the release that refused the value.",
    },
    Rule {
        id: "nvcc.unsupported_arch",
        title: "nvcc does not know the GPU architecture",
        pattern: r"(?:Unsupported gpu architecture '?(compute_\d+a?|sm_\d+a?)'?|Value '(sm_\d+a?)' is not defined for option 'gpu-name'|nvcc fatal\s*:\s*Unsupported gpu architecture|PTX \.version [\d.]+ does not support \.target (sm_\d+a?)|Value 'compute_\d+a?' is not defined for option 'gpu-(?:architecture|name)')",
        priority: 86,
        causes: &[
            c("toolkit.arch_unsupported", 0.8, "The CUDA toolkit compiling the code is too old for the architecture it was asked to target (or so new it dropped it): nvcc/ptxas refuse the flag.", FIX_TOOLKIT_ARCH),
            c("env.arch_list_mismatch", 0.15, "TORCH_CUDA_ARCH_LIST (or the detected GPU) asks for an architecture this toolkit cannot build.", "Set TORCH_CUDA_ARCH_LIST to architectures this nvcc supports (`nvcc --list-gpu-arch`), or use a newer toolkit."),
            c("torch.arch_unsupported", 0.05, "Triton's bundled ptxas (shipped with the torch wheel) is too old for the GPU.", FIX_TORCH_ARCH),
            c("workload.library_bug", 0.02, "The project's build hard-codes an architecture list that still names one this toolkit dropped (sm_35 under CUDA 12, Maxwell to Volta under CUDA 13) next to current ones: the project's build configuration, not the GPU or the toolkit.", "Drop the old architecture from the build (the project's fixed release, or edit its list / `TORCH_CUDA_ARCH_LIST` / `-DCMAKE_CUDA_ARCHITECTURES=<cc>` to the GPUs you have)."),
        ],
        hints: &[
            h(r"triton|ptxas", "torch.arch_unsupported", 0.3),
            h(r"TORCH_CUDA_ARCH_LIST", "env.arch_list_mismatch", 0.2),
            // An old architecture refused while the same build also targets current GPUs
            // (pytorch/pytorch#121099: libtorch's default list kept sm_35 for CUDA 12;
            // lisa-analysis-tools/GBGPU#7): the list is the project's, the toolkit dropped it.
            h(r"Unsupported gpu architecture '?compute_[1-3]\d\b(?s:.){0,4000}?(?:compute|sm)_(?:[5-9]\d|1[0-2]\d)\b|(?:compute|sm)_(?:[5-9]\d|1[0-2]\d)\b(?s:.){0,4000}?Unsupported gpu architecture '?compute_[1-3]\d\b|Unsupported gpu architecture '?compute_(?:5\d|6\d|7[0-2])\b(?s:.){0,4000}?(?:compute|sm)_(?:7[5-9]|[89]\d|1[0-2]\d)\b|(?:compute|sm)_(?:7[5-9]|[89]\d|1[0-2]\d)\b(?s:.){0,4000}?Unsupported gpu architecture '?compute_(?:5\d|6\d|7[0-2])\b", "workload.library_bug", 0.75),
            h(r"Unsupported gpu architecture '?compute_[1-3]\d\b(?s:.){0,4000}?(?:compute|sm)_(?:[5-9]\d|1[0-2]\d)\b|(?:compute|sm)_(?:[5-9]\d|1[0-2]\d)\b(?s:.){0,4000}?Unsupported gpu architecture '?compute_[1-3]\d\b|Unsupported gpu architecture '?compute_(?:5\d|6\d|7[0-2])\b(?s:.){0,4000}?(?:compute|sm)_(?:7[5-9]|[89]\d|1[0-2]\d)\b|(?:compute|sm)_(?:7[5-9]|[89]\d|1[0-2]\d)\b(?s:.){0,4000}?Unsupported gpu architecture '?compute_(?:5\d|6\d|7[0-2])\b", "toolkit.arch_unsupported", -0.3),
        ],
        tells_apart: "`nvcc --version` and `nvcc --list-gpu-arch`: if the arch is absent there the toolkit is too old; if it comes from TORCH_CUDA_ARCH_LIST, that variable asks for it.",
    },
    // NVRTC (the runtime compiler torch's JIT fusers, TorchScript and CuPy use) does not know the
    // GPU's architecture: the CUDA it comes from predates the GPU (Improbable-AI/walk-these-ways#72:
    // RTX 4090 with torch 1.10+cu113).
    Rule {
        id: "nvrtc.unsupported_arch",
        title: "NVRTC does not know the GPU's architecture",
        pattern: r"(?:nvrtc: error: invalid value for --gpu-architecture|NVRTC_ERROR_INVALID_OPTION)",
        priority: 85,
        causes: &[
            c("torch.arch_unsupported", 0.75, "The NVRTC that compiles kernels at run time (torch's JIT fusers, TorchScript) comes with the build's CUDA, which predates this GPU: it rejects the GPU's architecture (e.g. sm_89 with a cu113 build).", FIX_TORCH_ARCH),
            c("toolkit.arch_unsupported", 0.15, "Another library's NVRTC (CuPy, a system CUDA on the loader path) is older than the GPU.", FIX_TOOLKIT_ARCH),
            c("torch.libs_shadowed", 0.1, "An older libnvrtc from LD_LIBRARY_PATH is loaded instead of the build's.", FIX_LIBS_SHADOWED),
            c("workload.library_bug", 0.1, "A PyTorch release passes an architecture its own bundled NVRTC does not know (a nightly's jiterator asking CUDA 11.7's NVRTC for sm_89, pytorch/pytorch#87595); fixed in a later release.", FIX_LIBRARY_BUG),
        ],
        hints: &[
            h(r"cupy|numba|pycuda", "toolkit.arch_unsupported", 0.7),
            h(r"LD_LIBRARY_PATH", "torch.libs_shadowed", 0.3),
            h(r"\bnightly\b|\.dev20\d{6}|jiterator", "workload.library_bug", 0.7),
        ],
        tells_apart: "`python -c \"import torch; print(torch.version.cuda, torch.cuda.get_device_capability())\"`: a CUDA older than the GPU (11.8+ for sm_89/sm_90, 12.8+ for sm_100/sm_120) is the cause.",
    },
    // nvcc's host_config.h refuses a host compiler newer (or older) than the toolkit supports
    // (facebookarchive/caffe2#442, NVIDIA/AMGX#76: "unsupported GNU version! gcc versions later
    // than N are not supported"; MSVC: "unsupported Microsoft Visual Studio version").
    Rule {
        id: "nvcc.host_compiler",
        title: "nvcc refuses the host compiler's version",
        pattern: r"(?:unsupported (?:GNU|clang|Microsoft Visual Studio|Visual Studio|host compiler) version|(?:gcc|g\+\+|clang) versions? (?:later|newer|earlier|older) than [\d.]+ (?:are|is) not supported|-allow-unsupported-compiler|Cannot find compiler '[\w.+-]+'(?: in PATH)?|Could not set up the environment for Microsoft Visual Studio|host compiler[^\n]{0,60}(?:is not supported|unsupported|incompatible))",
        priority: 85,
        causes: &[
            c("toolkit.host_compiler_unsupported", 0.8, "nvcc checks the host C++ compiler it hands the CPU code to (crt/host_config.h): this GCC/Clang/MSVC is newer (or older) than the CUDA toolkit supports, so every .cu file fails before any GPU code is built.", "Build with a host compiler the toolkit supports (the message names the newest; the toolkit's installation guide lists them): install one (`sudo apt install gcc-11 g++-11`) and point the build at it (`export CC=gcc-11 CXX=g++-11 CUDAHOSTCXX=g++-11`; CMake `-DCMAKE_CUDA_HOST_COMPILER=g++-11`; nvcc `-ccbin g++-11`), or use a newer CUDA toolkit that supports this compiler."),
            c("toolkit.multiple", 0.15, "Several CUDA toolkits are installed and the build picked an older one than meant, whose host_config.h accepts only older compilers.", "Point PATH and CUDA_HOME at the intended toolkit (`which nvcc; nvcc --version`)."),
        ],
        hints: &[],
        tells_apart: "`nvcc --version` and `gcc --version` against the toolkit's supported host compilers; the path in the message (/usr/local/cuda-X.Y/include/crt/host_config.h) names the toolkit that refused.",
    },
    // nvcc 11.5's front end chokes on GCC 11's <functional> (std_function.h: "parameter packs
    // not expanded with '...'"), Ubuntu 22.04's apt toolkit with its default GCC
    // (brucefan1983/GPUMD#738, NVIDIA/VisRTX#71, NVIDIA/FasterTransformer#314): no version check
    // refuses the compiler, the headers just fail to parse. GCC 10 or a newer CUDA builds them.
    Rule {
        id: "nvcc.gcc11_std_function",
        title: "nvcc cannot parse the host compiler's C++ headers (CUDA 11.5 with GCC 11)",
        pattern: r"(?:std_function\.h|/c\+\+/\d+/tuple|/c\+\+/\d+/bits/[\w.]+):\d+:\d+: error: parameter packs not expanded with",
        priority: 80,
        causes: &[
            c("toolkit.host_compiler_unsupported", 0.8, "nvcc's front end cannot parse this GCC's standard headers (<functional>'s std_function.h, <tuple>): CUDA 11.5 (Ubuntu 22.04's apt `nvidia-cuda-toolkit`) with GCC 11 is the known case, an older nvcc with a newer GCC in general. The toolkit and the compiler do not work together; the GPU and the driver are not involved.", "Build with an older host compiler the toolkit handles (`sudo apt install gcc-10 g++-10`, then `export CC=gcc-10 CXX=g++-10 CUDAHOSTCXX=g++-10`; nvcc `-ccbin g++-10`; CMake `-DCMAKE_CUDA_HOST_COMPILER=g++-10`), or install a newer CUDA toolkit from NVIDIA's repository in place of the distribution's 11.5."),
            c("toolkit.multiple", 0.1, "Several CUDA toolkits are installed and the build picked the old one (/usr/bin/nvcc of the distribution's package before /usr/local/cuda/bin).", "Put the intended toolkit first (`export PATH=/usr/local/cuda/bin:$PATH`; `which nvcc; nvcc --version`)."),
        ],
        hints: &[],
        tells_apart: "`nvcc --version` (11.5 is the known case) and `g++ --version` (11.x); the path in the message (/usr/include/c++/11/...) names the GCC whose headers failed.",
    },
    // ---------------------------------------------------------------- driver
    Rule {
        id: "cuda.driver_too_old",
        title: "the NVIDIA driver is too old for the CUDA the code was built with",
        pattern: r"(?:nvidia-container-cli: requirement error: unsatisfied condition|possibly insufficient driver version: [\d.]+|API call is not supported in the installed CUDA driver|cudaErrorCallRequiresNewerDriver|CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER|The NVIDIA driver on your system is too old(?: \(found version (\d+)\))?|CUDA driver version is insufficient for CUDA runtime version|cudaErrorInsufficientDriver|CUDA_ERROR_INSUFFICIENT_DRIVER|found version (\d{4,5})\)?[^\n]{0,40}driver|please update your driver to a newer version|unsatisfied condition: cuda\s*>=?\s*[\d.]+)",
        priority: 85,
        causes: &[
            c("driver.too_old_for_torch", 0.45, "The PyTorch build's CUDA runtime needs a newer driver than the one installed: cuInit answers that the driver's CUDA version is lower than the runtime's.", FIX_DRIVER_UPGRADE),
            c("driver.too_old_for_toolkit", 0.3, "A program built with a local CUDA toolkit (or a container image's CUDA) needs a newer driver.", "Install a driver at least as new as the toolkit's minimum (`nvidia-smi` shows the CUDA version the driver supports), or build with an older toolkit."),
            c("host.container_no_gpu", 0.12, "Inside a container started without the GPUs, libcuda is absent and the CUDA runtime reports an 'insufficient driver'.", FIX_CONTAINER),
            c("driver.compat_package_mismatch", 0.05, "A cuda-compat libcuda shadows the real driver and does not match it.", "Remove the cuda-compat folder from LD_LIBRARY_PATH / ld.so.conf."),
        ],
        hints: &[
            h(r"docker|container|kubernetes|\bpod\b|podman|nvidia-container", "host.container_no_gpu", 0.2),
            // Singularity/Apptainer bind the host's libcuda only with `--nv`; without it the
            // container's CUDA runtime finds no driver and says "insufficient driver"
            // (rickstaa/panda-autograsp#150).
            h(r"\b(?:singularity|apptainer)\b", "host.container_no_gpu", 0.8),
            // In a Kubernetes pod, "insufficient driver" is mostly the node's runtime not
            // injecting the host's libcuda (the GPU operator's containerd config not applied:
            // k3s/k0s/rke2 keep their own config): NVIDIA/gpu-operator#415.
            h(r"gpu[- ]operator|\bk3s\b|\bk0s\b|\brke2\b|microk8s|CONTAINERD_CONFIG|default_runtime_name|runtimeClass", "host.container_no_gpu", 0.5),
            h(r"\s--nv\b", "host.container_no_gpu", -0.5),
            // Round 11a: a driver of the 530+ branches named beside "CUDA 12": it runs every
            // CUDA 12 runtime (minor-version compatibility), so the runtime that says
            // "insufficient" does not reach that driver (a container without the GPU/driver,
            // imagegenius/docker-immich#349); app platforms that run everything in containers.
            h(r"(?:^|[^\d.])v?(?:5[3-9]\d|[6-9]\d\d)\.\d+[\s\S]{0,300}?\bCUDA ?12\b|\bCUDA ?12\b[\s\S]{0,300}?(?:^|[^\d.])v?(?:5[3-9]\d|[6-9]\d\d)\.\d+", "host.container_no_gpu", 0.55),
            h(r"\bunraid\b|\btruenas\b|\bportainer\b", "host.container_no_gpu", 0.2),
            h(r"unsatisfied condition|--require=cuda|nvidia-container-cli|possibly insufficient driver version", "driver.too_old_for_toolkit", 0.6),
            h(r"nvidia/cuda:|--runtime=nvidia|docker run --gpus", "driver.too_old_for_toolkit", 0.3),
            h(r"\btorch|pytorch|site-packages|\.py\b|python|The NVIDIA driver on your system is too old|RuntimeError: CUDA error", "driver.too_old_for_torch", 0.35),
            h(r"deviceQuery|(?:^|\s)\./\w+|CUDA (?:Device Query|samples)|nvcc|tensorflow|cudart static", "driver.too_old_for_toolkit", 0.3),
            // A runtime other than PyTorch named (MXNet, Paddle, ONNX Runtime, CuPy, Numba, JAX,
            // TensorRT, Caffe, a program's own .cu file): its own CUDA runtime, not torch's
            // (apache/mxnet#2508: a Docker Hub image's CUDA newer than the 367 driver).
            h(r"\bmxnet\b|\bpaddle\w*|onnxruntime|\bcupy\b|\bnumba\b|\bjaxlib\b|tensorrt|trtexec|\bcaffe\b|\bgromacs\b|\blammps\b|\bopenmm\b|\.cu:\d+|\.cu\b", "driver.too_old_for_toolkit", 0.6),
        ],
        tells_apart: "`nvidia-smi` prints the CUDA version the driver supports; compare it with `python -c \"import torch; print(torch.version.cuda)\"` (or the image's CUDA). 'found version 11040' means the driver supports CUDA 11.4.",
    },
    Rule {
        id: "cuda.unsupported_ptx",
        title: "the PTX was compiled with a newer toolchain than the driver supports",
        pattern: r"(?:the provided PTX was compiled with an unsupported toolchain|CUDA_ERROR_UNSUPPORTED_PTX_VERSION|cudaErrorUnsupportedPtxVersion)",
        priority: 82,
        causes: &[
            // Who made the PTX: most often a program, extension, server image or framework
            // built with a newer CUDA toolkit than the driver (Triton server and Model Analyzer
            // images, a locally built extension, jaxlib on Colab:
            // triton-inference-server/server#2193, MadryLab/trak#68, googlecolab/colabtools#2452);
            // PyTorch's own wheels carry SASS for the GPUs they support.
            c("driver.too_old_for_toolkit", 0.45, "The PTX was produced by a newer CUDA toolkit (the program's, an extension's, a container image's or a framework's) than the installed driver can JIT-compile.", "Upgrade the driver to one that supports that CUDA (`nvidia-smi`'s 'CUDA Version' must be at least the toolkit's), or use a build/image made with a CUDA the driver supports."),
            c("driver.too_old_for_torch", 0.3, "The PTX (from PyTorch, Triton or an extension) was generated by a newer CUDA than the driver can JIT-compile.", FIX_DRIVER_UPGRADE),
            c("driver.minor_version_compat", 0.25, "The driver runs the build only through CUDA minor-version compatibility, which cannot JIT PTX from a newer minor release.", "Upgrade the driver to the build's CUDA minimum, or install a build for the CUDA the driver supports."),
        ],
        hints: &[
            // PyTorch's own "RuntimeError: CUDA error: …" wrapper does not say who made the PTX
            // (an extension, a server's kernels, a program's JIT), so it is not counted here:
            // every dev case of this message was a newer toolkit's PTX (rsh-err-758/759).
            h(r"site-packages/torch|torch/(?:nn|cuda|_inductor)|\btorch==|\+cu\d{3}\b|PyTorch", "driver.too_old_for_torch", 0.25),
            h(r"Cuda compilation tools|\bnvcc\b|tritonserver|model[_-]?analyzer|tensorrt|\bjax|\bxla\b|nvcr\.io|docker|container|\.cu\b", "driver.too_old_for_toolkit", 0.2),
        ],
        tells_apart: "Compare the CUDA version in `nvidia-smi` with the toolkit/torch CUDA that produced the PTX.",
    },
    Rule {
        id: "nvml.library_mismatch",
        title: "NVML: Driver/library version mismatch",
        pattern: r"(?:Driver/library version mismatch|\bNVML (?:library )?version mismatch|nvidia-(?:modeset|drm|uvm)\S*:? Version mismatch: nvidia\.ko\([\d.]+\)|NVML_ERROR_LIB_RM_VERSION_MISMATCH|API mismatch: the (?:client|NVIDIA kernel module) has the version [\d.]+|NVRM: API mismatch)",
        priority: 95,
        causes: &[
            c("driver.library_mismatch", 0.95, "The loaded kernel module is from another driver release than the user-space libraries: the driver was upgraded (often by unattended-upgrades) without a reboot.", "Reboot, or unload and reload the modules: `sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && sudo modprobe nvidia`. Stop unattended driver upgrades on GPU nodes."),
        ],
        hints: &[],
        tells_apart: "`cat /proc/driver/nvidia/version` (kernel module) against `ls /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.*` (libraries).",
    },
    Rule {
        id: "nvml.init_failed",
        title: "Failed to initialize NVML",
        pattern: r"(?:Failed to (?:initialize|start) NVML:? (?:with error:?\s*)?(?:Unknown Error|Insufficient Permissions|GPU access blocked by the operating system|[A-Za-z ]+)|NVML_ERROR_(?:UNKNOWN|NO_PERMISSION|DRIVER_NOT_LOADED|LIBRARY_NOT_FOUND)|could not load NVML library|(?:py)?nvml\b[^\n]{0,60}?(?:could not be initiali[sz]ed|init(?:iali[sz]ation)? failed)[^\n]{0,20}?Insufficient Permissions)",
        priority: 60,
        causes: &[
            c("driver.device_nodes", 0.4, "The process cannot open /dev/nvidia*: in a container NVML says 'Unknown Error' when the container lost its device access (systemd daemon-reload with no /dev/char links for the injected nodes), 'Insufficient Permissions' when SELinux or the nodes' mode deny it.", "Recreate the container; for good, create the /dev/char links (`sudo nvidia-ctk system create-dev-char-symlinks --create-all`) or use CDI; with SELinux `sudo setsebool -P container_use_devices 1`; outside containers fix the nodes' group/mode."),
            c("host.container_no_gpu", 0.25, "The container was started without the GPUs (no nvidia runtime / CDI device).", FIX_CONTAINER),
            c("driver.nvml_failed", 0.25, "NVML could not initialise for a reason it decodes (permissions, GPU access blocked, driver not loaded).", "Run `nvidia-smi` as the same user; check `/dev/nvidia*` permissions and `dmesg | grep -i nvrm`. On Windows: Device Manager shows whether the GPU is enabled and its driver started (no Code 43); reinstall the driver (NVIDIA's installer, clean installation) and restart."),
            c("driver.module_not_loaded", 0.1, "The kernel module is not loaded.", FIX_MODULE),
        ],
        hints: &[
            h(r"Insufficient Permissions|NO_PERMISSION", "driver.device_nodes", 0.5),
            h(r"DRIVER_NOT_LOADED|driver not loaded", "driver.module_not_loaded", 0.5),
            h(r"could not select device driver|--gpus|runtime=nvidia", "host.container_no_gpu", 0.3),
            // libnvidia-ml cannot be loaded at all: inside a container or a Kubernetes pod the
            // runtime did not inject the driver libraries (default runtime not nvidia):
            // NVIDIA/k8s-device-plugin#23.
            h(r"could not load NVML library|libnvidia-ml\.so[.\d]*: cannot open|default runtime|device-plugin|daemonset|kubectl|kubelet", "host.container_no_gpu", 0.45),
            // The toolkit's `no-cgroups = true` (rootless podman's setting) leaves the device
            // nodes out of the container's device cgroup: NVML inside cannot open them
            // (NVIDIA/nvidia-container-toolkit#580, #268).
            h(r"no-cgroups\s*=\s*true", "driver.device_nodes", 0.6),
            // nvidia-smi run from Windows' own shell (`nvidia-smi.exe`, a `C:\` prompt) has no
            // container and no /dev nodes: the Windows driver itself did not answer
            h(r"nvidia-smi\.exe|(?m:^(?:PS )?[A-Z]:\\[^\n>]{0,200}>)", "driver.nvml_failed", 0.5),
        ],
        tells_apart: "The text after 'Failed to initialize NVML:' and whether it runs inside a container (`ls /dev/nvidia*` there).",
    },
    Rule {
        id: "nvidia_smi.no_driver",
        title: "nvidia-smi cannot talk to the driver",
        pattern: r"(?:NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver|couldn't communicate with the NVIDIA driver|NVIDIA-SMI couldn't find libnvidia-ml\.so)",
        priority: 78,
        causes: &[
            c("driver.module_not_loaded", 0.55, "The user-space driver is installed but the kernel module is not loaded: after a kernel upgrade DKMS did not rebuild it, or Secure Boot refused the unsigned module.", FIX_MODULE),
            c("driver.not_installed", 0.2, "No driver is installed for this kernel.", FIX_DRIVER_INSTALL),
            c("driver.nouveau_loaded", 0.1, "nouveau holds the GPU, so nvidia cannot bind.", "Blacklist nouveau (`echo 'blacklist nouveau' | sudo tee /etc/modprobe.d/blacklist-nouveau.conf && sudo update-initramfs -u`) and reboot."),
            c("host.container_no_gpu", 0.15, "Inside a container without the GPUs passed in, nvidia-smi finds no driver.", FIX_CONTAINER),
            c("driver.gpu_unsupported", 0.02, "The installed driver branch no longer supports this GPU (Kepler after 470, Fermi after 390): the module loads for no device.", "Install the legacy branch that supports the GPU (470 for Kepler, 390 for Fermi), or use another GPU type."),
        ],
        hints: &[
            // Round 11a: Azure NV-series VM sizes (NVadsA10 v5, NVv3) need Microsoft's GRID
            // driver; an image with the data-center CUDA driver leaves nvidia-smi without a
            // GPU there while it works on NC/ND sizes (Azure/azhpc-images#398).
            h(r"Standard_NV\d+\w*|\bNV\d+ads_A10\w*|NVadsA10|\bNVv[34]\b|Azure NV-?series", "driver.gpu_unsupported", 0.6),
            h(r"couldn't find libnvidia-ml", "driver.not_installed", 0.3),
            h(OLD_GPU, "driver.gpu_unsupported", 0.7),
            h(r"docker|container|kubernetes|\bpod\b", "host.container_no_gpu", 0.3),
            // nvidia-smi run *inside* a container started with the GPUs: the host driver works
            // but the toolkit did not register its libraries there (NVIDIA/nvidia-docker#1163).
            h(r"docker run[^\n]*(?:--gpus|--runtime[= ]nvidia)[^\n]*nvidia-smi", "host.container_no_gpu", 0.4),
            // Singularity/Apptainer: the host's driver libraries are bound in (under
            // /.singularity.d/libs, on LD_LIBRARY_PATH) only with `--nv` and only while that
            // environment is kept (EESSI/software-layer#231, apptainer/singularity#5935).
            // enroot/pyxis inject the driver only through their NVIDIA hook, driven by the
            // image's NVIDIA_VISIBLE_DEVICES (NVIDIA/pyxis#96: lost in a `docker export`).
            h(r"\b(?:singularity|apptainer|enroot|pyxis)\b|\.singularity\.d|--container-image", "host.container_no_gpu", 0.5),
            h(r"nouveau", "driver.nouveau_loaded", 0.4),
            h(r"secure boot|dkms|kernel (?:update|upgrade)", "driver.module_not_loaded", 0.2),
        ],
        tells_apart: "`lsmod | grep nvidia` (module loaded?), `dkms status`, `mokutil --sb-state`, `lsmod | grep nouveau`.",
    },
    Rule {
        id: "cuda.no_driver",
        title: "Found no NVIDIA driver on your system",
        pattern: r"(?:Found no NVIDIA driver on your system|NVIDIA driver is not installed)",
        priority: 76,
        causes: &[
            // Where this message is met, the machine most often has no NVIDIA GPU at all (a
            // CPU-only instance or laptop running code that calls .cuda()) or the code runs in
            // a container without the GPUs: a machine with an NVIDIA GPU nearly always has
            // its driver (Windows installs one by itself). Seven threads of the error corpus's
            // dev part: four without an NVIDIA GPU, three in containers.
            c("host.no_nvidia_gpu", 0.35, "There is no NVIDIA GPU on this machine (a CPU-only instance, a laptop running on the integrated GPU), so no NVIDIA driver either: the code asks for CUDA where there is none.", "Run on a machine with an NVIDIA GPU, or run the program on the CPU (drop `.cuda()`, pass `map_location='cpu'` / `--device cpu`)."),
            c("host.container_no_gpu", 0.3, "The program runs in a container started without the GPUs (no `--gpus all`, no nvidia runtime, no CDI), so no driver is visible inside.", FIX_CONTAINER),
            c("driver.not_installed", 0.25, "No NVIDIA driver (kernel module and libcuda) is installed where the program runs.", FIX_DRIVER_INSTALL),
            c("driver.module_not_loaded", 0.05, "The driver is installed but its kernel module is not loaded.", FIX_MODULE),
            c("env.visible_devices_empty", 0.05, "CUDA_VISIBLE_DEVICES hides every GPU.", "Unset CUDA_VISIBLE_DEVICES or set it to existing GPU indices."),
        ],
        hints: &[
            // a GPU named, or a torch from the CUDA index: the machine has one, and lacks
            // its driver
            h(NVIDIA_GPU_NAMED, "host.no_nvidia_gpu", -0.3),
            h(NVIDIA_GPU_NAMED, "driver.not_installed", 0.15),
            h(TORCH_FROM_CUDA_INDEX, "host.no_nvidia_gpu", -0.15),
            h(TORCH_FROM_CUDA_INDEX, "driver.not_installed", 0.15),
            h(r"docker|container|kubernetes|\bpod\b|podman|could not select device driver|nvidia-container", "host.container_no_gpu", 0.4),
            h(VISIBLE_DEVICES_EMPTY, "env.visible_devices_empty", 0.4),
            // The paste says the machine has no NVIDIA GPU or that the run is on the CPU (a
            // laptop with Intel graphics only, "I'm running on the CPU": code calling .cuda() on
            // a machine without an NVIDIA GPU). Not NO_NVIDIA_GPU_WORDS: its "no NVIDIA" is
            // this message's own "Found no NVIDIA driver". (Rules read an ASCII shadow of the
            // text, so other scripts' wordings cannot be matched here.)
            h(r"(?:\bno|without an?|doesn'?t have (?:an?|any)|does not have (?:an?|any)|don'?t have (?:an?|any)|do not have (?:an?|any)|lacks? an?)\s+(?:dedicated |discrete )?(?:GPU|graphics card|video card|NVIDIA (?:GPU|graphics|card|adapter|video))|\bonly (?:an? )?(?:Intel|AMD)\b[^\n]{0,20}\b(?:graphics|GPU)|(?:I'?m|I am|we are|running|runs?) (?:using |on )?(?:the |a |only )?cpu\b|\bcpu[- ]only (?:machine|laptop|server|computer|system|instance|environment)", "host.no_nvidia_gpu", 1.0),
        ],
        tells_apart: "`nvidia-smi` on the host and inside the container; `lsmod | grep nvidia`; `echo $CUDA_VISIBLE_DEVICES`.",
    },
    Rule {
        id: "cuda.no_device",
        title: "no CUDA-capable device is detected",
        pattern: r"(?:no CUDA-capable device is detected|cudaErrorNoDevice|CUDA_ERROR_NO_DEVICE)",
        priority: 74,
        causes: &[
            c("env.visible_devices_invalid", 0.35, "libcuda loaded but enumerates no device: CUDA_VISIBLE_DEVICES names no existing GPU (a typo, a shell variable that expanded to something else, a UUID of another node), so CUDA hides them all.", "Set CUDA_VISIBLE_DEVICES to indices or UUIDs from `nvidia-smi -L`, or unset it."),
            c("host.container_no_gpu", 0.25, "The container got the driver libraries but no GPU device.", FIX_CONTAINER),
            c("env.visible_devices_empty", 0.15, "CUDA_VISIBLE_DEVICES is empty or -1.", "Unset CUDA_VISIBLE_DEVICES."),
            c("driver.module_not_loaded", 0.15, "The kernel module is not loaded, so no device exists.", FIX_MODULE),
            c("host.no_nvidia_gpu", 0.1, "The machine has no NVIDIA GPU.", "Run on a machine with an NVIDIA GPU."),
            c("driver.not_installed", 0.02, "In WSL the Windows driver's libcuda lives in /usr/lib/wsl/lib; a program that does not find it there (Numba/RAPIDS looking for libcuda.so, or a Linux driver's libcuda installed inside WSL shadowing it) sees no device.", "In WSL install no Linux driver; point the loader at the Windows driver's libraries: `export LD_LIBRARY_PATH=/usr/lib/wsl/lib:$LD_LIBRARY_PATH` (Numba: `NUMBA_CUDA_DRIVER=/usr/lib/wsl/lib/libcuda.so.1`)."),
            // Under WSL 2 a libcuda that loads and finds no device is a Linux driver's (installed
            // inside WSL, or put first by LD_LIBRARY_PATH) in front of /usr/lib/wsl/lib's, which
            // would reach the GPU through /dev/dxg (numba/numba#7104, Genesis-Embodied-AI#114).
            c("torch.libs_shadowed", 0.02, "Under WSL 2 the libcuda that answers is not the Windows driver's (/usr/lib/wsl/lib) but a Linux driver's, installed inside WSL or first on LD_LIBRARY_PATH: it looks for /dev/nvidia* that WSL does not have and finds no device.", "In WSL install no Linux driver (`sudo apt remove --purge '^nvidia-driver-.*' '^libnvidia-compute-.*'` or the `cuda-drivers` meta-package) and put the Windows driver's libraries first: `export LD_LIBRARY_PATH=/usr/lib/wsl/lib:$LD_LIBRARY_PATH` (Numba: `NUMBA_CUDA_DRIVER=/usr/lib/wsl/lib/libcuda.so.1`)."),
            c("workload.library_bug", 0.0, "Some Windows Insider builds broke CUDA under WSL 2 (21327, 21343): the GPU works in Windows, and cuInit in WSL finds no device until the next build.", "Update Windows to a build with the fix (or leave the Insider channel), then `wsl --shutdown` and retry."),
            c("gpu.mig_enabled", 0.02, "The GPU is in MIG mode: CUDA enumerates only MIG devices, so with no GPU/compute instance created on it (or none assigned to this job or container) it sees no device at all.", "`nvidia-smi -L` lists the MIG devices; create instances (`sudo nvidia-smi mig -cgi <profile> -C`) or request one from the scheduler, and name it in CUDA_VISIBLE_DEVICES (MIG-<uuid>); or disable MIG (`sudo nvidia-smi -mig 0`)."),
        ],
        hints: &[
            h(VISIBLE_DEVICES_EMPTY, "env.visible_devices_empty", 0.4),
            h(r"docker|container|kubernetes|\bpod\b|podman", "host.container_no_gpu", 0.2),
            h(r"\bMIG(?:$|[^ \w]| [^M]| M[^.])|MIG-|\dg\.\d+gb|\bpartitioned\b", "gpu.mig_enabled", 0.4),
            h(r"\bWSL2?\b|/usr/lib/wsl|microsoft-standard", "driver.not_installed", 0.5),
            // a libcuda that loads (cuInit answers NO_DEVICE) is not a missing one
            h(r"(?s)(?:\bWSL2?\b|/usr/lib/wsl|microsoft-standard).{0,4000}(?:cuInit|CUDA_ERROR_NO_DEVICE|driver init)|(?:cuInit|CUDA_ERROR_NO_DEVICE|driver init).{0,4000}(?:\bWSL2?\b|/usr/lib/wsl|microsoft-standard)", "torch.libs_shadowed", 0.55),
            h(r"\bInsider\b", "workload.library_bug", 0.75),
        ],
        tells_apart: "`echo $CUDA_VISIBLE_DEVICES` against `nvidia-smi -L`; inside a container `ls /dev/nvidia*`; under WSL `ldconfig -p | grep libcuda` must list /usr/lib/wsl/lib first.",
    },
    Rule {
        id: "container.toolkit",
        title: "nvidia-container-toolkit could not give the container the GPUs",
        pattern: r"(?:could not select device driver \x22?\x22? with capabilities: \[\[gpu\]\]|nvidia-container-cli: (?:initialization error|detection error|mount error|ldcache error)[^\n]{0,200}|unknown or invalid runtime name: nvidia|failed to inject CDI devices[^\n]{0,120}|(?:setting up CDI devices: )?unresolvable CDI devices?[^\n]{0,120}|WSL environment detected but no adapters were found|nvidia-container-cli: error while loading shared libraries: libnvidia-container[\w.-]*)",
        priority: 77,
        causes: &[
            c("driver.not_installed", 0.4, "nvidia-container-cli loads the host's driver (libnvidia-ml, the kernel module) to set up the container: 'initialization error' / 'driver error' means the host has no working driver.", "Install the NVIDIA driver on the host (the container does not bring one) and check `nvidia-smi` on the host."),
            c("host.container_no_gpu", 0.3, "The nvidia container runtime / toolkit is not installed or not configured for this engine, so docker cannot give the container GPUs.", FIX_CONTAINER),
            c("driver.module_not_loaded", 0.15, "The host's driver is installed but its kernel module is not loaded.", FIX_MODULE),
            c("driver.library_mismatch", 0.15, "The host's kernel module and driver libraries differ (upgrade without reboot).", "Reboot the host."),
            c("host.no_nvidia_gpu", 0.05, "The machine has no NVIDIA GPU at all (a laptop or desktop with Intel/AMD graphics only): there is nothing for the toolkit to give the container (under WSL: 'no adapters were found').", "Run the image on a machine with an NVIDIA GPU, or start it without `--gpus` / the compose `devices: - driver: nvidia` block, in its CPU mode."),
        ],
        hints: &[
            h(r"could not select device driver|unknown or invalid runtime|[Uu]nknown runtime specified:? nvidia|CDI", "host.container_no_gpu", 0.5),
            // The toolkit's own CLI without its library (NVIDIA/gpu-rest-engine#35: "This is
            // not supposed to happen given how our packaging is done"): the toolkit's install
            // is broken, whatever the driver.
            h(r"error while loading shared libraries: libnvidia-container", "host.container_no_gpu", 0.6),
            // The paste says the machine has no NVIDIA GPU (only Intel/AMD graphics, no
            // dedicated GPU): fboulnois/stable-diffusion-docker#82, xencon/aixcl#142.
            h(NO_NVIDIA_GPU_WORDS, "host.no_nvidia_gpu", 1.2),
            // WSL 1 has no GPU paravirtualisation at all (AbdBarho/stable-diffusion-webui-docker#117).
            h(r"\bWSL ?1\b|WSL version[: ]+1\b", "host.container_no_gpu", 0.4),
            h(r"version mismatch|API mismatch", "driver.library_mismatch", 0.5),
            h(r"load library failed|libnvidia-ml\.so\.1: cannot open|\bWSL|\bsnap\b|@DESKTOP-[A-Z0-9]{5,}", "host.container_no_gpu", 0.3),
            h(r"nvml error: driver not loaded", "driver.module_not_loaded", 0.6),
            // libnvidia-container loads the host's libcuda.so.1: missing, the host's driver
            // user space is incomplete (Ubuntu's nvidia-NNN without libcuda1-NNN:
            // NVIDIA/nvidia-docker#539, #636), not the container's set-up.
            h(r"load library failed: libcuda\.so", "driver.not_installed", 0.6),
            h(r"mount error: [^\n]{0,300}file exists", "host.container_no_gpu", 0.6),
            // The toolkit runs the host's ldconfig to register the injected driver libraries:
            // a wrong `ldconfig = "@/sbin/ldconfig[.real]"` in its config.toml, or a host
            // without ldconfig (NVIDIA/nvidia-docker#587, OE4T/meta-tegra#1427).
            h(r"ldcache error|ldconfig(?:\.real)?[^\n]{0,60}(?:failed|no such file|error code)", "host.container_no_gpu", 0.7),
        ],
        tells_apart: "`nvidia-smi` on the host: if it fails, the host driver; if it works, the container toolkit's configuration (`nvidia-ctk runtime configure`).",
    },
    Rule {
        id: "nvrm.init_failed",
        title: "the driver could not initialise the GPU",
        pattern: r"(?:RmInitAdapter failed|Open nvidia\.ko is only ready for use on Data Center GPUs|The NVIDIA probe routine failed|None of the NVIDIA devices were initialized|is not supported by open\s+(?:NVRM:\s*)?nvidia\.ko|requires use of the NVIDIA open kernel modules|installed in this system is not supported by the\s+(?:NVRM:\s*)?NVIDIA [\d.]+ driver release|fallen off the bus and is not responding)",
        priority: 91,
        causes: &[
            c("driver.open_module_required", 0.3, "Blackwell and Grace Hopper GPUs (and GB10) only initialise with the open kernel modules; the proprietary module fails in RmInitAdapter.", "Install the open kernel modules of the same driver (`nvidia-open` / `nvidia-driver-<branch>-open`, or `--kernel-module-type=open` with the .run installer) and reboot."),
            c("driver.gpu_unsupported", 0.3, "The driver does not support this GPU: a branch older than the GPU, a legacy GPU it dropped, or the open module on a GPU without GSP (Maxwell/Pascal/Volta).", "Install a driver branch that supports the GPU (`gpu-doctor matrix show --gpu <name>`); for pre-Turing GPUs use the proprietary module."),
            c("gpu.lost", 0.2, "The GPU does not respond (fell off the bus, power or PCIe fault).", FIX_XID_HW),
            c("gpu.xid", 0.1, "A GPU fault during initialisation.", FIX_XID_HW),
            c("driver.nouveau_loaded", 0.1, "nouveau holds the GPU.", "Blacklist nouveau and reboot."),
            c("gpu.missing", 0.02, "The firmware gave the GPU no usable PCI memory window (BAR0 0M / invalid), so the driver cannot reach it at all.", "Let the kernel reassign the PCI resources (`pci=realloc=on` on the kernel command line), update the BIOS, or enable Above 4G decoding / Resizable BAR."),
        ],
        hints: &[
            h(r"PCI I/O region assigned to your NVIDIA device is invalid|BAR\d is 0M", "gpu.missing", 0.8),
            h(r"not supported by open\s+(?:NVRM:\s*)?nvidia\.ko|not supported by the\s+(?:NVRM:\s*)?NVIDIA [\d.]+ driver|GPU System Processor|legacy", "driver.gpu_unsupported", 0.6),
            // Early open modules (515-530) refused non-datacenter GPUs unless forced
            // (NVIDIA/open-gpu-kernel-modules#230): the flavour does not support the GPU.
            h(r"Open nvidia\.ko is only ready for use on Data Center GPUs|OpenRmEnableUnsupportedGpus", "driver.gpu_unsupported", 0.6),
            h(r"requires use of the NVIDIA open kernel modules|GB10|GB20\d|Blackwell|RTX 50\d0|B200|GH200", "driver.open_module_required", 0.6),
            h(r"fallen off the bus", "gpu.lost", 0.7),
            h(r"nouveau", "driver.nouveau_loaded", 0.5),
        ],
        tells_apart: "The NVRM lines just before: 'requires use of the NVIDIA open kernel modules' / 'not supported by open nvidia.ko' / 'not supported by the NVIDIA NNN driver release' / 'fallen off the bus'; the GPU's PCI id (`lspci -nn | grep -i nvidia`) against the driver's supported list.",
    },
    Rule {
        id: "kernel.nouveau",
        title: "nouveau drives the GPU",
        pattern: r"(?:\bnouveau [0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.\d: |\bnouveau\s+\d+\s+\d+|NVIDIA is not the driver in use|nouveau is loaded|Nouveau kernel driver is currently in use)",
        priority: 70,
        causes: &[c("driver.nouveau_loaded", 0.95, "The open-source nouveau module bound the GPU at boot, so the NVIDIA module cannot load.", "Blacklist nouveau (`echo -e 'blacklist nouveau\\noptions nouveau modeset=0' | sudo tee /etc/modprobe.d/blacklist-nouveau.conf`, `sudo update-initramfs -u` or `dracut -f`, or `modprobe.blacklist=nouveau` on the kernel command line) and reboot.")],
        hints: &[],
        tells_apart: "`lsmod | grep nouveau`.",
    },
    Rule {
        id: "toolkit.torch_cuda_mismatch",
        title: "the toolkit's CUDA differs from PyTorch's when building an extension",
        pattern: r"(?:The detected CUDA version \(([\d.]+)\) mismatches the version that was used to compile\s+PyTorch \(([\d.]+)\)|CUDA version mismatch[^\n]{0,80}PyTorch|CUDAMismatchException|Installed CUDA version [\d.]+ does not match the version torch was compiled with)",
        priority: 86,
        causes: &[c("toolkit.torch_mismatch", 0.95, "The extension build uses the nvcc of a CUDA toolkit (CUDA_HOME or PATH) of another major version than the CUDA the installed torch was built with; torch.utils.cpp_extension refuses to mix them.", "Point CUDA_HOME at a toolkit of torch's CUDA version (`export CUDA_HOME=/usr/local/cuda-<torch.version.cuda>`), or install the torch variant for the local toolkit."), c("toolkit.path_inconsistent", 0.05, "The nvcc on PATH is the right one but the build takes another toolkit from CUDA_HOME (or /usr/local/cuda): cpp_extension reads CUDA_HOME first.", "Point CUDA_HOME at the toolkit whose nvcc is on PATH (`export CUDA_HOME=$CONDA_PREFIX` in a conda environment with cuda-nvcc, or `export CUDA_HOME=$(dirname $(dirname $(which nvcc)))`), then rebuild.")],
        hints: &[
            // A conda environment that brings torch's own nvcc while the build still takes the
            // system's toolkit from CUDA_HOME (pytorch/pytorch#136845: "Even if nvcc --version
            // shows correctly 11.8"; the fix was `export CUDA_HOME=$CONDA_PREFIX`).
            h(r"nvcc[^\n]{0,40}\b(?:shows|says|reports|prints|gives)\b[^\n]{0,15}\d+\.\d|CUDA_HOME=\$CONDA_PREFIX|nvidia/label/cuda-\d|conda install[^\n]{0,60}\bcuda-(?:nvcc|toolkit)\b", "toolkit.path_inconsistent", 1.0),
        ],
        tells_apart: "`nvcc --version` and `echo $CUDA_HOME` against `python -c \"import torch; print(torch.version.cuda)\"`.",
    },
    Rule {
        id: "device.index_assert",
        title: "PyTorch's device index check failed",
        pattern: r"(?:device >= 0 && device < num_gpus INTERNAL ASSERT FAILED|device_index >= 0 && device_index < num_gpus|CUDA device index out of range)",
        priority: 72,
        causes: &[
            c("env.visible_devices_invalid", 0.5, "The code uses a GPU index past the GPUs CUDA sees (after CUDA_VISIBLE_DEVICES renumbering).", "Use indices below `torch.cuda.device_count()`; check CUDA_VISIBLE_DEVICES and local_rank."),
            c("gpu.mig_enabled", 0.3, "With MIG, one CUDA process can use only one MIG instance, so a second 'GPU' does not exist for it.", "Give each process one MIG device (`CUDA_VISIBLE_DEVICES=MIG-<uuid>` from `nvidia-smi -L`); multi-instance DDP in one process is not possible."),
            c("workload.library_bug", 0.2, "A library computes the device index wrongly (global rank instead of local rank).", FIX_LIBRARY_BUG),
        ],
        hints: &[h(MIG_NAMED, "gpu.mig_enabled", 0.6)],
        tells_apart: "`nvidia-smi -L` (MIG devices are listed as MIG-<uuid>), `torch.cuda.device_count()` and the index the code asks for.",
    },
    Rule {
        id: "ptxas.target_too_low",
        title: "ptxas: an instruction needs a newer GPU target",
        pattern: r"(?:requires \.target sm_(\d+) or higher|Feature '[^'\n]{1,80}' requires \.target|not supported on \.target 'sm_\d+')",
        priority: 84,
        causes: &[
            c("ext.arch_unsupported", 0.6, "The extension's kernels use instructions (half-precision arithmetic, tensor cores, async copies) that this GPU's architecture does not have: the project does not support a GPU this old.", "Use a GPU the project supports (vLLM and flash-attn need compute capability 7.0/8.0 or newer), or a version/fork that still supports this architecture."),
            c("env.arch_list_mismatch", 0.25, "TORCH_CUDA_ARCH_LIST (or the detected GPU) makes the build target an architecture the code cannot be compiled for.", "Set TORCH_CUDA_ARCH_LIST to architectures the project supports."),
            c("toolkit.arch_unsupported", 0.15, "The toolkit's default target is older than the code needs.", FIX_TOOLKIT_ARCH),
        ],
        hints: &[
            h(r"TORCH_CUDA_ARCH_LIST", "env.arch_list_mismatch", 0.3),
            // Hopper's arch-specific instructions (wgmma, setmaxnreg; sm_90a) refused on a newer
            // target: the build compiled sm_90a kernels for another architecture, an arch list
            // naming more than the code allows (thu-ml/SageAttention#291: "9.0;12.0" for a 5090).
            h(r"(?:wgmma|setmaxnreg|tcgen05)[^\n]{0,80}not supported on \.target 'sm_1\d\d", "env.arch_list_mismatch", 0.5),
        ],
        tells_apart: "The GPU's compute capability against the project's stated minimum; TORCH_CUDA_ARCH_LIST during the build.",
    },
    Rule {
        id: "torch.internal_error",
        title: "PyTorch internal error",
        pattern: r"(?:INTERNAL ASSERT FAILED|please report a bug to PyTorch|torch\._dynamo\.exc\.\w+|Failed running call_function|torch\._inductor\.exc\.\w+|BackendCompilerFailed)",
        priority: 35,
        causes: &[
            c("workload.library_bug", 0.85, "PyTorch's own consistency check failed (an internal assert, a TorchDynamo/Inductor failure): a bug of this PyTorch version for this program, not the machine.", "Search pytorch/pytorch issues for the assert text; try a newer (or the previous) release; for torch.compile errors run eagerly (`torch._dynamo.config.suppress_errors = True` or no compile) to confirm."),
            c("workload.device_assert", 0.15, "An invalid input (index, device) reached an internal check.", "Check the indices and device ids passed to the failing op."),
        ],
        hints: &[],
        tells_apart: "Does a minimal repro fail on another PyTorch version? Then the version.",
    },
    Rule {
        id: "torch.no_cuda_gpus",
        title: "No CUDA GPUs are available",
        pattern: r"No CUDA GPUs are available",
        priority: 52,
        causes: &[
            c("env.visible_devices_empty", 0.27, "A CUDA build of torch found zero devices: CUDA_VISIBLE_DEVICES is empty, -1 or names nothing (a launcher or scheduler set it), so CUDA hides every GPU.", "Unset CUDA_VISIBLE_DEVICES or set it to existing GPU indices (`nvidia-smi -L`)."),
            c("host.container_no_gpu", 0.25, "The container was started without the GPUs.", FIX_CONTAINER),
            // Research code often sets CUDA_VISIBLE_DEVICES to the author's GPU ("1", "7"):
            // on a machine with fewer GPUs the list starts with a missing index and CUDA sees none.
            c("env.visible_devices_invalid", 0.3, "CUDA_VISIBLE_DEVICES names indices or UUIDs that do not exist here (a script set it to its author's GPU, e.g. '1' or '7', on a machine with fewer GPUs), so CUDA sees none.", "Set CUDA_VISIBLE_DEVICES to indices or UUIDs from `nvidia-smi -L`."),
            c("driver.module_not_loaded", 0.1, "The kernel module is not loaded.", FIX_MODULE),
            c("driver.too_old_for_torch", 0.1, "The driver is too old for the build's CUDA.", FIX_DRIVER_UPGRADE),
            c("driver.device_nodes", 0.05, "/dev/nvidia* are not accessible.", "Check `ls -l /dev/nvidia*` and the user's groups."),
        ],
        hints: &[
            h(VISIBLE_DEVICES_EMPTY, "env.visible_devices_empty", 0.3),
            h(r"CUDA_VISIBLE_DEVICES['\x22]?\]?\s*=\s*['\x22]\d", "env.visible_devices_invalid", 0.5),
            h(r"docker|container|kubernetes|\bpod\b|podman", "host.container_no_gpu", 0.25),
        ],
        tells_apart: "`echo $CUDA_VISIBLE_DEVICES`, `nvidia-smi -L`, and inside a container `ls /dev/nvidia*`.",
    },
    Rule {
        id: "torch.cuda_not_available",
        title: "torch.cuda.is_available() is False",
        pattern: r"(?:torch\.cuda\.is_available\(\)(?:[^\n]{0,24}?|\s*\n[>. ]*)\bFalse\b|CUDA is not available|cuda not available|CUDA unavailable)",
        priority: 45,
        causes: &[
            c("torch.cpu_only", 0.3, "The installed torch is a CPU-only build (pip's default wheel on Windows, a `+cpu` wheel, conda's cpuonly).", "Install a CUDA build: `pip install --force-reinstall torch --index-url https://download.pytorch.org/whl/cu124` (a CUDA your driver supports)."),
            c("driver.too_old_for_torch", 0.25, "The driver is too old for the build's CUDA, so torch reports no usable GPU (with a warning 'The NVIDIA driver on your system is too old').", FIX_DRIVER_UPGRADE),
            c("host.container_no_gpu", 0.15, "The container was started without the GPUs.", FIX_CONTAINER),
            c("env.visible_devices_empty", 0.1, "CUDA_VISIBLE_DEVICES hides every GPU.", "Unset CUDA_VISIBLE_DEVICES."),
            c("driver.module_not_loaded", 0.1, "The kernel module is not loaded.", FIX_MODULE),
            c("driver.device_nodes", 0.1, "/dev/nvidia* (often /dev/nvidia-uvm) are missing or not accessible, e.g. in a container whose device list lacks them.", "Check `ls -l /dev/nvidia*`; add the missing nodes to the container (CDI spec) or fix their permissions."),
        ],
        hints: &[
            h(r"\+cpu\b|cpuonly|CUDA used to build PyTorch: None", "torch.cpu_only", 0.4),
            h(r"docker|container|kubernetes|\bpod\b", "host.container_no_gpu", 0.2),
            h(r"podman|cdi|nvidia-uvm", "driver.device_nodes", 0.25),
            // nvidia-smi answered inside the container: the container has the GPU, so what
            // CUDA lacks is a device node NVML does not need (/dev/nvidia-uvm;
            // NVIDIA/nvidia-docker#1085)
            h(SMI_ANSWERS_IN_CONTAINER, "driver.device_nodes", 0.45),
            h(SMI_ANSWERS_IN_CONTAINER, "host.container_no_gpu", -0.2),
            h(r"CUDA_VISIBLE_DEVICES", "env.visible_devices_empty", 0.2),
            h(r"driver on your system is too old|found version", "driver.too_old_for_torch", 0.4),
        ],
        tells_apart: "`python -c \"import torch; print(torch.__version__, torch.version.cuda)\"` (None = CPU build), `nvidia-smi` (driver and the CUDA it supports), `echo $CUDA_VISIBLE_DEVICES`.",
    },
    Rule {
        id: "torch.not_compiled_with_cuda",
        title: "Torch not compiled with CUDA enabled",
        pattern: r"(?:Torch not (?:being |been )?compiled with CUDA enabled|PyTorch was compiled without CUDA support|not (?:being |been )?compiled with CUDA)",
        priority: 95,
        causes: &[
            c("torch.cpu_only", 0.95, "The torch installed is a CPU-only build (pip's default index on Windows/macOS, a `+cpu` wheel, conda's cpuonly, or a later install of a package that pulled the CPU wheel over the CUDA one).", "Install a CUDA build into the same environment: `pip install --force-reinstall torch --index-url https://download.pytorch.org/whl/cu124` (pick the CUDA your driver supports)."),
            c("torch.multiple_installs", 0.05, "Two torch installs are reachable and the CPU one wins (user site vs venv, conda vs pip).", "`python -m pip list | grep torch` in the interpreter that runs the code; remove the extra copy."),
        ],
        hints: &[h(r"site-packages[^\n]*site-packages|\.local/lib/python", "torch.multiple_installs", 0.2)],
        tells_apart: "`python -c \"import torch; print(torch.__version__, torch.version.cuda, torch.__file__)\"`: `+cpu` or cuda None is the CPU build.",
    },
    Rule {
        id: "cuda.system_not_ready",
        title: "CUDA error 802: system not yet initialized",
        pattern: r"(?:system not yet initialized|CUDA_ERROR_SYSTEM_NOT_READY|cudaErrorSystemNotReady|(?:error|Error|code)[ :=]*802\b)",
        priority: 88,
        causes: &[
            c("driver.fabric_manager", 0.9, "On NVSwitch systems (HGX/DGX A100/H100/B200) CUDA waits for the fabric manager to set up NVLink; it is not running or its version differs from the driver's.", "`sudo systemctl enable --now nvidia-fabricmanager` with the package version equal to the driver's (`nvidia-fabricmanager-<branch>`); check `systemctl status nvidia-fabricmanager`."),
            c("driver.library_mismatch", 0.1, "The fabric manager package's version differs from the driver's after an upgrade.", "Install the fabric manager matching the driver and reboot."),
        ],
        hints: &[],
        tells_apart: "`systemctl status nvidia-fabricmanager` and `nvidia-smi -q | grep -i fabric`.",
    },
    Rule {
        id: "cuda.system_driver_mismatch",
        title: "CUDA error 803: unsupported display driver / cuda driver combination",
        pattern: r"(?:system has unsupported display driver / cuda driver combination|CUDA_ERROR_SYSTEM_DRIVER_MISMATCH|cudaErrorSystemDriverMismatch|(?:error|Error|code)[ :=]*803\b)",
        priority: 88,
        causes: &[
            c("driver.compat_package_mismatch", 0.75, "A cuda-compat libcuda (from a container image or /usr/local/cuda/compat) is loaded that does not belong to the kernel module's driver.", "Remove /usr/local/cuda*/compat from LD_LIBRARY_PATH and ld.so.conf (or use an image without cuda-compat), so the host driver's libcuda is used."),
            c("driver.library_mismatch", 0.25, "The user-space driver libraries and the kernel module are from different releases.", "Reboot or reload the nvidia modules so they match the libraries."),
        ],
        hints: &[h(r"compat", "driver.compat_package_mismatch", 0.1)],
        tells_apart: "`ldconfig -p | grep libcuda` and `echo $LD_LIBRARY_PATH`: a libcuda under a compat folder is the cause; else compare `/proc/driver/nvidia/version` with the library versions.",
    },
    Rule {
        id: "cuda.compat_not_supported",
        title: "CUDA error 804: forward compatibility on unsupported hardware",
        pattern: r"(?:forward compatibility was attempted on non supported HW|CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE|cudaErrorCompatNotSupportedOnDevice|(?:error|Error|code)[ :=]*804\b|\b804 error\b)",
        priority: 88,
        causes: &[
            c("driver.forward_compat_unsupported", 0.9, "The CUDA forward-compatibility package (cuda-compat) works only on datacenter GPUs; on GeForce/RTX cards it is refused.", "Remove the cuda-compat libraries from the library path (or use an image without them) and install a driver new enough for the CUDA version instead."),
            c("driver.too_old_for_torch", 0.1, "The image relies on forward compatibility because the host driver is older than its CUDA.", FIX_DRIVER_UPGRADE),
            c("ext.arch_unsupported", 0.05, "The program's own CUDA build (a bundled ggml/llama.cpp backend) carries no code for this old GPU (Maxwell, compute 5.x), and the driver's attempt to run it fails with 804 (ollama/ollama#12666).", "Use a build of the program that includes the GPU's compute capability (or build it with `-DCMAKE_CUDA_ARCHITECTURES=<cc>`)."),
        ],
        // A Maxwell GPU (GTX 9xx/750, compute 5.x) under a program's bundled CUDA backend.
        hints: &[h(r"(?:GTX ?(?:9[5-8]0|750)|Maxwell|compute capability 5\.\d|\bCC 5\.\d)[\s\S]{0,2000}?(?:ggml_cuda_init|ggml|ollama|llama)|(?:ggml_cuda_init|ggml|ollama|llama)[\s\S]{0,2000}?(?:GTX ?(?:9[5-8]0|750)|Maxwell|compute capability 5\.\d|\bCC 5\.\d)", "ext.arch_unsupported", 0.95)],
        tells_apart: "The GPU model (`nvidia-smi -L`): forward compatibility needs a datacenter GPU; an old GeForce under a program's bundled CUDA backend needs a build with its compute capability.",
    },
    Rule {
        id: "cuda.unknown_error",
        title: "CUDA unknown error (999)",
        pattern: r"(?:CUDA unknown error|CUDA error: unknown error|CUDA_ERROR_UNKNOWN|cudaErrorUnknown|(?:error|Error|code)[ :=]*999\b)",
        priority: 40,
        causes: &[
            c("driver.uvm_unavailable", 0.5, "nvidia_uvm is missing or broken, most often after a suspend/resume: cuInit returns 999 until the module is reloaded.", FIX_UVM),
            c("driver.device_nodes", 0.15, "/dev/nvidia-uvm is missing or not accessible (a container without it, udev not run).", "Create the nodes (`sudo nvidia-modprobe -u -c=0`) or pass /dev/nvidia-uvm into the container."),
            c("env.visible_devices_invalid", 0.1, "CUDA_VISIBLE_DEVICES was changed after CUDA started in the process (PyTorch's message names this case).", "Set CUDA_VISIBLE_DEVICES before the program starts (before `import torch` initialises CUDA)."),
            c("host.container_no_gpu", 0.1, "A container lost or never got its GPU device access.", FIX_CONTAINER),
            c("driver.library_mismatch", 0.1, "The driver was upgraded without a reboot.", "Reboot."),
            c("gpu.xid", 0.05, "The GPU is in an error state (see the kernel log's Xid lines).", FIX_XID_HW),
            c("driver.cuda_init_failed", 0.05, "Under WSL 2 CUDA goes through Windows' GPU paravirtualisation: an outdated WSL kernel or Windows driver makes cuInit fail with 999.", "Update WSL (`wsl.exe --update`, then `wsl --shutdown`) and the Windows NVIDIA driver, and restart Windows."),
            c("driver.module_not_loaded", 0.05, "No NVIDIA kernel driver is running (/proc/driver/nvidia/version is missing): the module is not loaded, or a hybrid-graphics manager (Bumblebee) keeps the GPU off until `optirun`.", FIX_MODULE),
        ],
        hints: &[
            // "resume" as a word, not a program's `--resume_from` flag.
            h(r"suspend|(?:^|[^\w-])resum(?:e|ed|ing)\b|sleep|hibernat|wake", "driver.uvm_unavailable", 0.3),
            h(r"windows subsystem|\bWSL ?2?\b|wsl\.exe|microsoft-standard", "driver.cuda_init_failed", 0.6),
            h(r"/proc/driver/nvidia/version does not exist|kernel driver does not appear to be running|bumblebee|optirun|primusrun", "driver.module_not_loaded", 0.8),
            h(r"nvidia-uvm|nvidia_uvm", "driver.uvm_unavailable", 0.2),
            h(r"docker|container|kubernetes|\bpod\b|wsl", "host.container_no_gpu", 0.15),
            h(r"\bXid\b", "gpu.xid", 0.3),
        ],
        tells_apart: "Did the machine sleep (`journalctl -b | grep -i suspend`)? Is `nvidia_uvm` loaded (`lsmod | grep uvm`) and /dev/nvidia-uvm present? Any Xid in `dmesg`?",
    },
    // ---------------------------------------------------------------- devices
    Rule {
        id: "cuda.invalid_device_ordinal",
        title: "invalid device ordinal",
        pattern: r"(?:invalid device ordinal|CUDA_ERROR_INVALID_DEVICE\b|cudaErrorInvalidDevice\b|Invalid device id|Attempting to deserialize object on CUDA device \d+ but torch\.cuda\.device_count\(\) is \d+)",
        priority: 72,
        causes: &[
            c("workload.library_bug", 0.45, "The code or its configuration names a GPU index this machine does not have (`cuda:1`, `device_ids=[0,1]`, a checkpoint saved on another GPU) on a machine with fewer GPUs: the machine is fine.", "Use `cuda:0` / the indices below `torch.cuda.device_count()`, or load checkpoints with `map_location`."),
            c("env.visible_devices_invalid", 0.35, "The code asks for a GPU index that CUDA does not see: CUDA_VISIBLE_DEVICES (or the container's GPU list) leaves fewer GPUs than the index, since CUDA renumbers the visible ones from 0.", "Use indices below `torch.cuda.device_count()`; with CUDA_VISIBLE_DEVICES=2,3 the GPUs are cuda:0 and cuda:1. Check `--gpu_ids`, `device=`, `local_rank` and `--nproc_per_node` against the GPUs present."),
            c("host.container_no_gpu", 0.2, "The container got fewer GPUs than the job expects (`--gpus 1` but the code uses cuda:1).", "Start the container with the GPUs the job uses (`--gpus all` or `--gpus '\"device=0,1\"'`)."),
            c("gpu.lost", 0.1, "A GPU dropped off the bus, so fewer are enumerated than before.", FIX_XID_HW),
            c("env.visible_devices_empty", 0.1, "CUDA_VISIBLE_DEVICES hides every GPU.", "Unset CUDA_VISIBLE_DEVICES."),
            c("gpu.mig_enabled", 0.05, "With MIG one process sees only one MIG instance.", "Name one MIG device per process in CUDA_VISIBLE_DEVICES (`nvidia-smi -L`)."),
        ],
        hints: &[
            h(MIG_NAMED, "gpu.mig_enabled", 0.6),
            h(r"CUDA_VISIBLE_DEVICES", "env.visible_devices_invalid", 0.3),
            // CUDA_VISIBLE_DEVICES lists several GPUs, so the variable itself is usable: an
            // invalid ordinal then is an index past the renumbered range, the program using a
            // physical id (THUDM/slime#1326: gpu_id=6 under CUDA_VISIBLE_DEVICES=4,5,6,7).
            h(r"CUDA_VISIBLE_DEVICES['\x22\]\)]{0,3}\s*[=:]\s*['\x22]?\d+(?:\s*,\s*\d+){2,}", "workload.library_bug", 0.4),
            // The launch asks for more processes than GPUs, or a rank used as a device index:
            // `--nproc_per_node` above the GPUs, `set_device(rank)` on a second node, Slurm's
            // `--gpus-per-task` giving each task one GPU while the code uses local_rank.
            // torchrun's elastic agent in the traceback: the launcher started the ranks, more of them
            // than the GPUs made visible (pytorch/torchtitan#423: NGPU unset under
            // CUDA_VISIBLE_DEVICES=2,3).
            h(r"nproc[_-]per[_-]node|--gpus-per-task|set_device\(\s*(?:args\.|self\.)?(?:rank|local_rank|gpu)\s*\)|\blocal_rank\b|LOCAL_RANK|\bglobal rank\b|torch/distributed/elastic", "workload.library_bug", 0.35),
            h(r"fallen off the bus|Xid[^\n]{0,40}\b79\b", "gpu.lost", 0.6),
            h(r"docker|container|kubernetes|\bpod\b", "host.container_no_gpu", 0.2),
            // The paste says the code wants more GPUs than the machine has ("perhaps your code is
            // looking for multiple GPUs?", "ONLY 1 GPU"): the program's device count, whatever
            // CUDA_VISIBLE_DEVICES says (openai/lm-human-preferences#4).
            h(r"(?:looking for|expects?|expecting|uses?|using|needs?|requires?|asks? for|wants?|written for|default(?:s to)?)\s+(?:multiple|more|several|two|three|four|eight|[2-9]|\d{2,}|\d\s*-\s*\d|more than one)\s+GPUs|\bonly (?:have )?(?:one|1|a single) GPU\b|\bmulti-?GPU (?:setup|machine|training) (?:by default|only)", "workload.library_bug", 0.35),
        ],
        tells_apart: "`python -c \"import torch; print(torch.cuda.device_count())\"`, `echo $CUDA_VISIBLE_DEVICES`, `nvidia-smi -L`, and the index the code uses.",
    },
    Rule {
        id: "cuda.devices_unavailable",
        title: "CUDA-capable device(s) is/are busy or unavailable",
        pattern: r"(?:(?:all )?CUDA-capable devices? (?:is|are|is/are) busy or unavailable|CUDA_ERROR_DEVICE_UNAVAILABLE|cudaErrorDevicesUnavailable|busy or unavailable)",
        priority: 74,
        causes: &[
            c("gpu.compute_mode_restricted", 0.45, "The GPU is in Exclusive_Process or Prohibited compute mode and another process (or none allowed) already holds a context.", "`nvidia-smi -q -d COMPUTE`; set Default mode with `sudo nvidia-smi -c 0 -i <n>` (or use the GPU the scheduler assigned)."),
            c("gpu.busy", 0.3, "Another process holds the GPU (exclusive mode), or the GPU is being reset.", FIX_BUSY),
            c("host.container_no_gpu", 0.1, "In WSL or a VM/container the GPU is not properly passed through.", FIX_CONTAINER),
            c("gpu.xid", 0.1, "The GPU is in an error state after an Xid.", FIX_XID_HW),
            c("driver.library_mismatch", 0.05, "The driver stack was half-upgraded.", "Reboot."),
            c("driver.cuda_init_failed", 0.05, "On Windows (where compute modes are rarely changed) a broken or half-installed graphics driver makes cuInit answer this.", "Reinstall the NVIDIA graphics driver (clean install) and reboot."),
            // Round 9a: after a kernel the display's watchdog killed ("unspecified launch
            // failure" at random iterations, then busy or unavailable until a restart:
            // karpathy/neuraltalk2#127, a GPU driving the display too).
            c("gpu.display_watchdog", 0.05, "An earlier kernel was killed (the display's watchdog stops kernels that run too long on a GPU that also drives a screen) and the GPU stays unusable for new contexts until the driver recovers or the machine restarts.", "Run compute on a GPU that drives no display (or stop the display manager, `sudo systemctl stop display-manager`); on Windows raise TdrDelay or use a TCC-mode GPU; split long kernels."),
        ],
        hints: &[
            h(r"unspecified launch failure|launch timed out|LaunchTimeout|LAUNCH_TIMEOUT|cudaErrorLaunchFailure|CUDA_ERROR_LAUNCH_FAILED", "gpu.display_watchdog", 0.45),
            h(r"\b(?:display|monitor|X server|Xorg|desktop|GUI|TDR)\b", "gpu.display_watchdog", 0.3),
            h(r"[A-Z]:\\|\\Users\\|\bWindows\b|webui|stable-diffusion|\.bat\b", "driver.cuda_init_failed", 0.55),
            h(r"exclusive|Exclusive_Process|compute mode", "gpu.compute_mode_restricted", 0.3),
            // nvidia-smi shows the GPU idle (no process holds it) or a vGPU licence: nothing
            // is busy, CUDA's initialisation itself is refused (an unlicensed vGPU guest).
            h(r"\bvGPU\b|licen[cs]\w*|nvidia-smi[^\n]{0,40}(?:looked|looks|look|showed|shows|is|was) (?:totally |completely |perfectly )?(?:fine|normal|ok|healthy)|\b0 ?% utili[sz]ation", "driver.cuda_init_failed", 0.6),
            h(r"\bXid\b", "gpu.xid", 0.3),
            h(r"wsl|docker|container|\bpod\b|kubernetes|hyper-v|vm\b", "host.container_no_gpu", 0.15),
        ],
        tells_apart: "`nvidia-smi -q -d COMPUTE` (compute mode) and `nvidia-smi` (processes on the GPU).",
    },
    // The GPU works for root only: the user cannot open /dev/nvidia* (the nodes are
    // root:video 0660 on openSUSE and some HPC images, or udev/ACLs did not apply):
    // AUTOMATIC1111/stable-diffusion-webui#3207, openSUSE/nvidia-driver-G06#52.
    Rule {
        id: "device.root_only",
        title: "the GPU works only as root",
        pattern: r"(?:(?:GPU|CUDA|cuda|nvidia-smi|torch|NVML)[^\n]{0,80}\b(?:unless|only (?:as|with|when run as|when running as|under|for))\s+(?:the\s+)?(?:root|sudo|superuser|administrator)\b|\b(?:works|runs|fine|ok)\b[^\n]{0,30}\b(?:as|with) (?:root|sudo)\b[^\n]{0,80}\b(?:not|but)\b[^\n]{0,40}(?:non-root|regular user|normal user|my user|as a user)|(?:non-root|regular|normal|ordinary) users?[^\n]{0,60}\b(?:cannot|can't|can not|unable to|fail to|not able to)\b[^\n]{0,40}(?:GPU|CUDA|nvidia))",
        priority: 50,
        causes: &[
            c("driver.device_nodes", 0.85, "Root can open /dev/nvidia0, /dev/nvidiactl and /dev/nvidia-uvm but the user cannot: the device nodes belong to a group the user is not in (video on openSUSE, some HPC images) or their mode/ACLs are too strict.", "`ls -l /dev/nvidia*`: add the user to the nodes' group (`sudo usermod -aG video $USER`, then log in again), or set the driver's NVreg_DeviceFileMode/GID so users may open them."),
            c("host.container_no_gpu", 0.15, "A rootless container gets the GPU device nodes only through CDI or the toolkit's rootless set-up.", FIX_CONTAINER),
        ],
        hints: &[h(r"podman|rootless|docker|container", "host.container_no_gpu", 0.3)],
        tells_apart: "`ls -l /dev/nvidia*` and `id`: the nodes' group against the user's groups.",
    },
    // The program changes a setting CUDA fixes when the context is created (device flags, the
    // scheduling mode, the device of a thread with an active context): cudaErrorSetOnActiveProcess
    // (ComputationalRadiationPhysics/picongpu#201). The program's order of calls, not the machine.
    Rule {
        id: "cuda.set_on_active_process",
        title: "cannot set while device is active in this process",
        pattern: r"(?:cannot set while device is active in this process|cudaErrorSetOnActiveProcess|CUDA_ERROR_SET_ON_ACTIVE_PROCESS)",
        priority: 64,
        causes: &[
            c("workload.library_bug", 0.9, "The program (or a library it uses) sets device flags or the scheduling mode after CUDA already created the device's context in this process; CUDA accepts them only before.", "Call cudaSetDeviceFlags / the scheduler setting before any other CUDA call on that device (before the first allocation or kernel), or reset the device first."),
            c("gpu.compute_mode_restricted", 0.1, "In an exclusive compute mode the context cannot be re-created by another thread.", "`nvidia-smi -q -d COMPUTE`; use Default mode or one context per process."),
        ],
        hints: &[],
        tells_apart: "The call that failed and what ran before it on the same device.",
    },
    // CUDA_VISIBLE_DEVICES set from inside the program: CUDA reads it once, when it initialises,
    // so set after `import torch`/`tensorflow` has touched the GPU it is ignored and the job
    // still runs on the first GPU (open-mmlab/mmdetection3d#1020). Low priority: any real error
    // in the same paste explains more.
    Rule {
        id: "env.visible_devices_in_code",
        title: "CUDA_VISIBLE_DEVICES is set inside the program",
        pattern: r"(?:os\.environ(?:\[\s*['\x22]|\.setdefault\(\s*['\x22]|\.update\([^\n]{0,20}['\x22])CUDA_VISIBLE_DEVICES\b[^\n]*|\bos\.putenv\(\s*['\x22]CUDA_VISIBLE_DEVICES[^\n]*|\bSys\.setenv\(CUDA_VISIBLE_DEVICES[^\n]*)",
        priority: 30,
        causes: &[
            c("env.visible_devices_invalid", 0.8, "CUDA reads CUDA_VISIBLE_DEVICES once, when it initialises in the process: set from the program after `import torch` (or TensorFlow, or a library that touched the GPU) it is ignored, so the job runs on the first GPU; set to an index that does not exist it hides every GPU.", "Set it before the program starts (`CUDA_VISIBLE_DEVICES=1 python train.py`), or at the very top of the script before any import of torch/tensorflow; check the index against `nvidia-smi -L`."),
            c("env.device_order", 0.2, "The index means another GPU than nvidia-smi's: CUDA orders GPUs fastest first unless CUDA_DEVICE_ORDER=PCI_BUS_ID.", "Set `CUDA_DEVICE_ORDER=PCI_BUS_ID` with CUDA_VISIBLE_DEVICES so indices match nvidia-smi."),
        ],
        hints: &[h(r"nvidia-smi[^\n]{0,80}(?:different|another|wrong) (?:GPU|index|order)|PCI_BUS_ID|FASTEST_FIRST", "env.device_order", 0.6)],
        tells_apart: "Where the variable is set relative to the first `import torch`; `torch.cuda.device_count()` and `torch.cuda.get_device_name(0)` inside the program.",
    },
    // MIG: a CUDA process enumerates one MIG instance at most (MIG user guide; pytorch/pytorch
    // #102715), so a count of one is by design; a count of 0 while tensors still run on
    // cuda:0 is a framework miscounting MIG UUIDs (PyTorch 2.0, pytorch/pytorch#95784).
    Rule {
        id: "device.mig_count",
        title: "a MIG GPU shows fewer devices than expected",
        pattern: r"(?:\bMIG\b[\s\S]{0,400}?(?:device_count\(\)|deviceCount|only (?:one|1|a single) (?:GPU|device)|sees? (?:only )?(?:one|1) (?:GPU|device))|(?:device_count\(\)|deviceCount|only (?:one|1|a single) (?:GPU|device))[\s\S]{0,400}?\bMIG\b)",
        priority: 48,
        causes: &[
            c("gpu.mig_enabled", 0.7, "With MIG enabled a CUDA process can enumerate a single MIG instance, whatever CUDA_VISIBLE_DEVICES lists: one device is by design, not a fault.", "Run one process per MIG instance (`CUDA_VISIBLE_DEVICES=MIG-<uuid>` from `nvidia-smi -L`), or disable MIG (`sudo nvidia-smi -i <n> -mig 0`, then reset the GPU) to use the whole GPU from one process."),
            c("workload.library_bug", 0.3, "The framework's device count mis-parses MIG UUIDs in CUDA_VISIBLE_DEVICES (PyTorch 2.0 counted 0 while tensors still ran on cuda:0).", "Upgrade the framework (PyTorch 2.0.1+ counts MIG devices right), or ignore the count and use cuda:0."),
        ],
        hints: &[h(r"(?:returns?|is|==|gives?|shows?)\s*[`'\x22]?0\b|Out\[\d+\]:\s*0\b", "workload.library_bug", 0.35), h(r"still works|works as expected|tensor\(", "workload.library_bug", 0.3)],
        tells_apart: "`nvidia-smi -L` (MIG devices listed as MIG-<uuid>) and whether `torch.zeros(1).cuda()` works although the count is 0.",
    },
    // ---------------------------------------------------------------- memory
    Rule {
        id: "cuda.out_of_memory",
        title: "CUDA out of memory",
        pattern: r"(?:CUDA out of memory|torch\.cuda\.OutOfMemoryError|torch\.OutOfMemoryError|\bc10::OutOfMemoryError\b|CUDA error: out of memory|CUDA driver error: out of memory|cudaErrorMemoryAllocation|CUDA_ERROR_OUT_OF_MEMORY|out of memory on device|OutOfMemoryError: CUDA|Out of memory while trying to allocate|RESOURCE_EXHAUSTED: Out of memory|Tried to allocate [\d.]+ ?[KMGT]i?B \(GPU \d+;|\bOOM(?:s|ed)?\b)",
        priority: 70,
        causes: &[
            c("workload.out_of_memory", 0.75, "The job needs more GPU memory than is free: activations, weights, optimizer state or a cache outgrew the card at this batch size / sequence length.", FIX_OOM),
            c("gpu.busy", 0.2, "Other processes hold most of the GPU's memory, so little is left for this one.", FIX_BUSY),
            c("workload.library_bug", 0.05, "A known memory leak or over-allocation in a library version.", FIX_LIBRARY_BUG),
        ],
        hints: &[
            h(r"Process \d+ has [\d.]+ [GM]iB memory in use", "gpu.busy", 0.1),
            h(r"memory leak|leak", "workload.library_bug", 0.15),
            // out of memory with one release of a library and not with another on the same
            // card: that release's regression (huggingface/transformers#39337)
            h(VERSION_CONTRAST, "workload.library_bug", 0.8),
            h(r"CUDA error: out of memory|CUDA driver error: out of memory|CUDA_ERROR_OUT_OF_MEMORY|cudaErrorMemoryAllocation", "gpu.busy", 0.25),
            // Round 9a: the reporter rules memory out ("I don't think bs=1 should lead to OOM")
            // beside another failure: the bare word matched, the job is not out of memory
            // (fla-org/flash-linear-attention#186: an illegal access in a library kernel).
            h(OOM_RULED_OUT, "workload.out_of_memory", -0.7),
            h(OOM_RULED_OUT, "workload.library_bug", 0.5),
        ],
        tells_apart: "The message's own figures: 'this process has X in use' against 'total capacity of Y of which Z is free' (a gap means other processes hold memory; `nvidia-smi` names them). 'reserved but unallocated' large means fragmentation.",
    },
    Rule {
        id: "cublas.alloc_failed",
        title: "CUBLAS_STATUS_ALLOC_FAILED",
        pattern: r"CUBLAS_STATUS_ALLOC_FAILED",
        priority: 73,
        causes: &[
            c("workload.cublas_alloc", 0.75, "cuBLAS/cuBLASLt could not allocate its workspace (cublasCreate's handle, or the cublasLt heuristic's workspace): the GPU's memory is exhausted or fragmented by the job.", "Free memory before the matmul (smaller batch, `torch.cuda.empty_cache()`), set `PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True`, or shrink cuBLAS's workspace with `CUBLAS_WORKSPACE_CONFIG=:4096:8`."),
            c("workload.out_of_memory", 0.15, "The job as a whole does not fit: cuBLAS is only where the allocation failed.", FIX_OOM),
            c("gpu.busy", 0.1, "Other processes hold the memory cuBLAS needs.", FIX_BUSY),
        ],
        hints: &[h(r"CUDA out of memory", "workload.out_of_memory", 0.3)],
        tells_apart: "`nvidia-smi` memory use at the time and `torch.cuda.memory_summary()`: free memory near zero means the job (or another process) exhausted it.",
    },
    // GPU memory that stays in use after the job: processes are still alive (DataLoader workers,
    // children of a killed main process, zombies, a previous deployment) and hold it
    // (facebookresearch/XLM#40, NVIDIA/gpu-operator#2880); `fuser -v /dev/nvidia*` finds them
    // (PaddlePaddle/PaddleOCR#2074). Inside one running process PyTorch's caching allocator keeps
    // freed memory reserved, which nvidia-smi shows as used.
    Rule {
        id: "memory.not_released",
        title: "GPU memory is not released",
        pattern: r"(?:\b(?:GPU|device|video|CUDA|VRAM)\s+memory\b[^\n]{0,40}\b(?:is\s+|was\s+|were\s+|are\s+)?(?:not|never|isn'?t|wasn'?t|aren'?t|doesn'?t get|don'?t get)\s+(?:being\s+)?(?:released|freed|deallocated|returned|cleared)|\bnot\s+(?:returning|releasing|freeing)\s+(?:the\s+)?(?:GPU|device|CUDA)\s+memory|\bmemory of the GPU\S*\s+is released, but[^\n]{0,60}not released|(?:GPU|device|CUDA)\s+memory\s+(?:remains|stays|is still)\s+(?:occupied|allocated|in use|used)|\bfuser\s+(?:-\w+\s+)*/dev/nvidia|\blsof\s+(?:-\w+\s+)*/dev/nvidia|\b(?:not|never)\s+(?:reset|release|free|clear)\w*\s+(?:the\s+)?(?:GPU\s+|device\s+)?memory\b)",
        priority: 42,
        causes: &[
            c("gpu.busy", 0.7, "Processes are still alive and hold the memory: DataLoader workers or other children of a killed main process, a zombie, a previous run or deployment; nvidia-smi inside a container may not even list them.", "`fuser -v /dev/nvidia*` (or `nvidia-smi --query-compute-apps=pid,used_memory --format=csv`) names the processes; stop them (their parent first), or reset the GPU when none is left (`sudo nvidia-smi -r -i <n>`)."),
            c("workload.out_of_memory", 0.3, "Inside a running process PyTorch's caching allocator keeps freed memory reserved for reuse, so nvidia-smi shows it as used: expected, returned when the process exits or with `torch.cuda.empty_cache()`.", "Call `torch.cuda.empty_cache()` after deleting tensors if another program needs the memory; inside the same program it is reused."),
        ],
        hints: &[
            h(r"empty_cache|memory_allocated|memory_reserved|\bdel\s+\w+|in the same (?:process|script|session)|between (?:epochs|iterations|calls)", "workload.out_of_memory", 0.5),
            h(r"zombie|\bkill|fuser|lsof|ps aux|process(?:es)? (?:has|have) (?:ended|exited|finished|been killed)|after (?:the )?(?:process|program|training|job) (?:ends|ended|has ended|exits|exited|finishes|finished)|when the program ends|(?:failed|cancell?ed|interrupted|killed) runs?|not (?:visible|shown|listed) (?:on|in) nvidia-smi", "gpu.busy", 0.3),
        ],
        tells_apart: "Whether the process that allocated the memory still runs (`fuser -v /dev/nvidia*`): yes, its leftovers; it is your live process, the caching allocator.",
    },
    // A CUDA library's handle or generator could not be created: cuBLAS, cuDNN and cuRAND
    // allocate device memory when they initialise, so on a (nearly) full GPU they fail with
    // their own "initialization failed" instead of an out-of-memory (IBM/aihwkit#479,
    // JuliaGPU/CUDA.jl#255).
    Rule {
        id: "memory.library_init_failed",
        title: "a CUDA library failed to initialise (often memory in disguise)",
        pattern: r"(?:\b(?:cuBLAS|cuDNN|cuRAND|cuFFT|cuSOLVER|cuSPARSE)\s+(?:handle\s+)?(?:initiali[sz]ation|init)\s+failed\b|CURAND_STATUS_INITIALIZATION_FAILED|curand\w* error 203\b)",
        priority: 61,
        causes: &[
            c("workload.out_of_memory", 0.55, "The library allocates device memory for its handle, workspace or generator state when it initialises; with the GPU (nearly) full it reports an initialisation failure rather than out of memory.", FIX_OOM),
            c("gpu.busy", 0.2, "Other processes hold most of the GPU's memory, so the library's first allocation fails.", FIX_BUSY),
            c("torch.libs_shadowed", 0.15, "Another version of the library (system CUDA on LD_LIBRARY_PATH) is loaded than the one the framework was built with.", FIX_LIBS_SHADOWED),
            c("torch.arch_unsupported", 0.1, "The library build has no kernels for this GPU's architecture.", FIX_TORCH_ARCH),
        ],
        hints: &[h(r"LD_LIBRARY_PATH|/usr/local/cuda[^\s]*/lib", "torch.libs_shadowed", 0.3)],
        tells_apart: "`nvidia-smi` at the failure (memory in use, other processes); the same script with a batch of 1: if it runs, memory.",
    },
    // ---------------------------------------------------------------- cuBLAS
    Rule {
        id: "cublas.not_supported",
        title: "CUBLAS_STATUS_NOT_SUPPORTED",
        pattern: r"(?:CUBLAS_STATUS_NOT_SUPPORTED|cuBLAS (?:error|status)[ :=]*15\b|the requested functionality is not supported)",
        priority: 62,
        causes: &[
            c("torch.wheel_deps_mismatch", 0.3, "The nvidia-cublas wheel is another version than the one the torch build pins; its GEMM entry points reject the arguments torch passes.", FIX_WHEEL_DEPS),
            c("torch.libs_shadowed", 0.25, "A system libcublas (from LD_LIBRARY_PATH or a toolkit) is loaded instead of the wheel's copy.", FIX_LIBS_SHADOWED),
            c("torch.arch_unsupported", 0.2, "The cuBLAS in the build predates the GPU (or the dtype is not supported on it, e.g. bf16/fp8 GEMMs on older GPUs).", FIX_TORCH_ARCH),
            c("workload.library_bug", 0.25, "A known cuBLAS/PyTorch bug with this shape or dtype (e.g. a strided batched GEMM with unsupported alignment).", FIX_LIBRARY_BUG),
            c("ext.arch_unsupported", 0.05, "An extension's own GEMM (llama.cpp/ggml, bitsandbytes) asks cuBLAS for a feature this GPU lacks (int8 or fp16 tensor-op GEMMs on old GPUs).", "Run the extension's fallback for old GPUs (llama.cpp/Ollama: a build whose minimum compute capability includes this GPU, or CPU), or use a newer GPU."),
        ],
        hints: &[
            h(r"bf16|bfloat16|CUDA_R_16BF|fp8|float8|CUDA_R_8F", "torch.arch_unsupported", 0.3),
            // cuBLAS called by an extension's own code (ggml-cuda.cu, bitsandbytes' igemmlt), not
            // torch's: the extension's floor (ollama/ollama#1874: compute capability 5.2).
            h(r"ggml|llama\.cpp|ollama|bitsandbytes|igemmlt|\.cu:\d+", "ext.arch_unsupported", 0.45),
            h(r"LD_LIBRARY_PATH|/usr/local/cuda[^\s]*/lib", "torch.libs_shadowed", 0.3),
            h(r"nvidia-cublas", "torch.wheel_deps_mismatch", 0.2),
            // another release of the library or its container works (NVIDIA/FasterTransformer
            // #149: "when i use nvcr.io/nvidia/pytorch:20.12-py3, it is ok")
            h(VERSION_CONTRAST, "workload.library_bug", 0.4),
        ],
        tells_apart: "`pip list | grep nvidia-cublas` against the version torch pins (`pip show torch`), `echo $LD_LIBRARY_PATH`, and the dtype/GPU (bf16 needs sm_80+).",
    },
    Rule {
        id: "cublas.execution_failed",
        title: "CUBLAS_STATUS_EXECUTION_FAILED",
        pattern: r"(?:CUBLAS_STATUS_EXECUTION_FAILED|cuBLAS (?:error|status)[ :=]*13\b|the GPU program failed to execute)",
        priority: 62,
        causes: &[
            c("torch.arch_unsupported", 0.3, "The cuBLAS kernels in the build do not run on this GPU (a build older than the GPU's architecture, e.g. CUDA 10.x/11.0 builds on Ampere/Ada/Hopper).", FIX_TORCH_ARCH),
            c("workload.device_assert", 0.25, "An earlier kernel failed (often an index out of range in an embedding or loss) and cuBLAS is only where the error surfaced.", "Re-run with `CUDA_LAUNCH_BLOCKING=1` or on CPU to see the failing op; check label/index ranges against the embedding/class count."),
            c("workload.illegal_address", 0.2, "Mismatched shapes or an out-of-bounds access corrupted the call.", FIX_ILLEGAL),
            c("torch.libs_shadowed", 0.15, "A system libcublas shadows the one the build ships.", FIX_LIBS_SHADOWED),
            c("workload.library_bug", 0.1, "A cuBLAS bug for this shape/dtype in this version.", FIX_LIBRARY_BUG),
        ],
        hints: &[
            h(r"is not compatible with the current PyTorch installation|sm_\d+ is not", "torch.arch_unsupported", 0.5),
            h(r"Assertion|index out of|srcIndex|out of bounds", "workload.device_assert", 0.4),
            h(r"LD_LIBRARY_PATH", "torch.libs_shadowed", 0.2),
            h(r"RTX 30\d0|RTX 40\d0|A100|H100|A6000|sm_8\d|sm_9\d", "torch.arch_unsupported", 0.1),
            h(VERSION_CONTRAST, "workload.library_bug", 0.5),
        ],
        tells_apart: "Run the same op on CPU: an IndexError there means a bad index; `torch.cuda.get_arch_list()` without the GPU's sm means the build.",
    },
    Rule {
        id: "cublas.not_initialized",
        title: "CUBLAS_STATUS_NOT_INITIALIZED",
        pattern: r"(?:CUBLAS_STATUS_NOT_INITIALIZED|cuBLAS (?:error|status)[ :=]*1\b|the library was not initialized)",
        priority: 62,
        causes: &[
            c("workload.cublas_alloc", 0.4, "cublasCreate could not allocate its handle and workspace: the GPU is (almost) full when the first matmul runs.", "Free memory before the first matmul (smaller batch or model, fewer processes on the GPU), or load the model in lower precision."),
            c("workload.out_of_memory", 0.1, "The job as a whole does not fit in the GPU's memory.", FIX_OOM),
            c("torch.arch_unsupported", 0.2, "The build's cuBLAS cannot initialise on this GPU architecture (an old CUDA build on a newer GPU).", FIX_TORCH_ARCH),
            c("torch.libs_shadowed", 0.15, "An incompatible libcublas from the system is loaded.", FIX_LIBS_SHADOWED),
            c("workload.device_assert", 0.1, "An earlier failed kernel (e.g. an index out of range) left the context broken.", "Re-run with `CUDA_LAUNCH_BLOCKING=1` to find the first failing op."),
        ],
        hints: &[
            h(r"is not compatible with the current PyTorch installation", "torch.arch_unsupported", 0.5),
            h(r"Assertion|index out of|srcIndex", "workload.device_assert", 0.4),
            h(r"LD_LIBRARY_PATH", "torch.libs_shadowed", 0.2),
            h(r"out of memory", "workload.out_of_memory", 0.3),
        ],
        tells_apart: "Free memory at the failure (`nvidia-smi`); a fresh process running one small matmul: if it works, memory or an earlier error was the cause.",
    },
    Rule {
        id: "cublas.invalid_value",
        title: "CUBLAS_STATUS_INVALID_VALUE",
        pattern: r"(?:CUBLAS_STATUS_INVALID_VALUE|cuBLAS (?:error|status)[ :=]*7\b|an invalid numeric value was used as an argument)",
        priority: 62,
        causes: &[
            c("torch.wheel_deps_mismatch", 0.3, "The nvidia-cublas wheel differs from the one the torch build expects (a newer cuBLAS rejects arguments the build passes, e.g. cublasGemmEx / cublasLt calls).", FIX_WHEEL_DEPS),
            c("torch.libs_shadowed", 0.35, "Another libcublas/libcublasLt than the wheel's is loaded (LD_LIBRARY_PATH, a system copy found through RUNPATH): the pair disagree on the GEMM arguments.", FIX_LIBS_SHADOWED),
            c("workload.library_bug", 0.25, "A shape the library passes wrongly to cuBLAS (sizes over 2^31, zero-sized or badly strided tensors).", FIX_LIBRARY_BUG),
            c("torch.arch_unsupported", 0.1, "The GEMM dtype is not supported on this GPU.", FIX_TORCH_ARCH),
        ],
        hints: &[
            h(r"LD_LIBRARY_PATH|/usr/local/cuda[^\s]*/lib", "torch.libs_shadowed", 0.3),
            h(r"nvidia-cublas", "torch.wheel_deps_mismatch", 0.2),
        ],
        tells_apart: "`pip list | grep nvidia-cublas` against `pip show torch`'s requirements; `echo $LD_LIBRARY_PATH`; the tensor shapes.",
    },
    Rule {
        id: "cublas.internal_error",
        title: "CUBLAS_STATUS_INTERNAL_ERROR / ARCH_MISMATCH",
        pattern: r"(CUBLAS_STATUS_INTERNAL_ERROR|CUBLAS_STATUS_ARCH_MISMATCH|CUBLAS_STATUS_MAPPING_ERROR|cuBLAS (?:error|status)[ :=]*(?:8|11|14)\b|an internal operation failed|an absent device architectural feature is required)",
        priority: 58,
        causes: &[
            c("workload.library_bug", 0.3, "A cuBLAS or PyTorch bug in this release (cuBLAS reports INTERNAL_ERROR for failures it does not classify).", FIX_LIBRARY_BUG),
            c("workload.out_of_memory", 0.25, "cuBLAS failed an internal allocation.", FIX_OOM),
            c("torch.arch_unsupported", 0.25, "The cuBLAS in use has no kernels for this GPU.", FIX_TORCH_ARCH),
            c("torch.libs_shadowed", 0.2, "A mismatched libcublas is loaded.", FIX_LIBS_SHADOWED),
        ],
        hints: &[h(r"ARCH_MISMATCH|cuBLAS (?:error|status)[ :=]*8\b|absent device architectural feature", "torch.arch_unsupported", 0.5)],
        tells_apart: "Free memory at the failure and the build's arch list.",
    },
    // ---------------------------------------------------------------- cuDNN
    Rule {
        id: "cudnn.status",
        title: "cuDNN status error",
        // (also cuDNN's ARCH_MISMATCH in a binding's words: Mocha.jl's "ERROR: Arch mismatch"
        // under "Initializing CuDNN backend")
        pattern: r"((?s:cudnn.{0,300}?\bArch mismatch\b)|CUDNN_STATUS_(?:NOT_INITIALIZED|ALLOC_FAILED|BAD_PARAM|INTERNAL_ERROR|INVALID_VALUE|ARCH_MISMATCH|MAPPING_ERROR|EXECUTION_FAILED|NOT_SUPPORTED|LICENSE_ERROR|RUNTIME_PREREQUISITE_MISSING|VERSION_MISMATCH|SUBLIBRARY_VERSION_MISMATCH|BAD_PARAM_\w+|NOT_SUPPORTED_\w+|INTERNAL_ERROR_\w+|EXECUTION_FAILED_\w+)|cuDNN error: \w+|Unable to find a valid cuDNN algorithm|GET was unable to find an engine)",
        priority: 60,
        causes: &[
            c("workload.out_of_memory", 0.3, "cuDNN could not allocate its workspace or handle: the GPU's memory is exhausted (NOT_INITIALIZED, ALLOC_FAILED, INTERNAL_ERROR and 'unable to find a valid cuDNN algorithm' usually mean this).", FIX_OOM),
            c("torch.libs_shadowed", 0.2, "A system libcudnn (LD_LIBRARY_PATH, /usr/local/cuda) of another version is loaded instead of the wheel's.", FIX_LIBS_SHADOWED),
            c("torch.wheel_deps_mismatch", 0.15, "The nvidia-cudnn wheel is not the version the torch build pins.", FIX_WHEEL_DEPS),
            c("torch.arch_unsupported", 0.15, "The cuDNN in use has no kernels for this GPU (ARCH_MISMATCH, EXECUTION_FAILED with an old build on a new GPU).", FIX_TORCH_ARCH),
            c("toolkit.arch_unsupported", 0.05, "The program was built with a CUDA toolkit older than the GPU (CUDA 9 for a Turing RTX 20xx, CUDA 10 for an Ampere RTX 30xx), which cannot make code for it.", FIX_TOOLKIT_ARCH),
            c("workload.library_bug", 0.2, "A cuDNN/PyTorch bug for this layer's shape (NOT_SUPPORTED/BAD_PARAM for large batches, non-contiguous input, or sizes past 2^31).", FIX_LIBRARY_BUG),
        ],
        hints: &[
            h(r"CUDNN_STATUS_(?:NOT_INITIALIZED|ALLOC_FAILED)|Unable to find a valid cuDNN algorithm|out of memory", "workload.out_of_memory", 0.3),
            h(r"CUDNN_STATUS_INTERNAL_ERROR", "workload.out_of_memory", 0.1),
            h(r"CUDNN_STATUS_(?:NOT_SUPPORTED|BAD_PARAM)|GET was unable to find an engine", "workload.library_bug", 0.35),
            h(r"CUDNN_STATUS_(?:ARCH_MISMATCH|EXECUTION_FAILED)|\bArch mismatch\b|is not compatible with the current PyTorch", "torch.arch_unsupported", 0.35),
            // cuDNN 7 of a CUDA 10 build on an Ampere GPU fails its mappings
            // (CenterFusion#93-style reports: an RTX 3090 under a CUDA 10 environment).
            h(r"CUDNN_STATUS_MAPPING_ERROR", "torch.arch_unsupported", 0.35),
            h(GPU_NEWER_THAN_CUDA, "toolkit.arch_unsupported", 0.7),
            h(r"VERSION_MISMATCH|LD_LIBRARY_PATH|/usr/local/cuda[^\s]*/lib", "torch.libs_shadowed", 0.3),
            h(r"nvidia-cudnn", "torch.wheel_deps_mismatch", 0.2),
            // Round 9a: a GPU every CUDA 9-12 build still carries kernels for (Pascal, Volta,
            // Turing) makes the build's arch list an unlikely cause (pytorch/pytorch#6306: a GTX
            // 1080 with a CUDA 9.1 build, the program's CPU tensor into the cuDNN RNN).
            h(GPU_EVERY_BUILD_RUNS, "torch.arch_unsupported", -0.3),
            // The failure tied to a cuDNN algorithm choice (deterministic, benchmark, a named
            // algo) or to the RNN path is cuDNN's or the framework's bug for that path, not the
            // build's arch list (Theano/Theano#6067: cuDNN v6's deterministic bwd-filter algo).
            h(r"\balgo_\w+|\bdeterministic\b|cudnn\.benchmark|CUDNN_CONVOLUTION_\w+_ALGO|_ALGO_\d", "workload.library_bug", 0.4),
            h(r"nn/modules/rnn\.py|_functions/rnn\.py|cudnn/rnn\.py|\bcudnnRNN\w*", "workload.library_bug", 0.3),
        ],
        tells_apart: "The status name: NOT_INITIALIZED/ALLOC_FAILED/INTERNAL_ERROR → memory (check `nvidia-smi`); ARCH_MISMATCH/EXECUTION_FAILED on a new GPU → the build; VERSION_MISMATCH → another libcudnn is loaded; NOT_SUPPORTED/BAD_PARAM → the layer's shape. `torch.backends.cudnn.enabled=False` isolates cuDNN.",
    },
    Rule {
        id: "cudnn.version_incompatible",
        title: "cuDNN version incompatibility / libcudnn not loadable",
        pattern: r"(?:cuDNN version incompatibility|PyTorch was compiled against \(\d+, \d+, \d+\) but found runtime version|Could not load library libcudnn\w*\.so[\.\d]*|Unable to load any of \{libcudnn|libcudnn\w*\.so[\.\d]*: cannot open shared object file|Invalid handle\. Cannot load symbol cudnn)",
        priority: 87,
        causes: &[
            c("torch.libs_shadowed", 0.5, "Another cuDNN (LD_LIBRARY_PATH, a system or conda copy) is loaded instead of the one the build ships or pins.", FIX_LIBS_SHADOWED),
            c("torch.wheel_deps_mismatch", 0.45, "The nvidia-cudnn wheel is missing or another version than the torch build needs.", FIX_WHEEL_DEPS),
            c("workload.library_bug", 0.05, "Another library (TensorFlow, onnxruntime) loaded its own cuDNN into the process first.", "Import torch before the other framework, or use versions built against the same cuDNN."),
            c("driver.not_installed", 0.0, "cuDNN loaded, but the driver's libcuda it needs was not found: no driver, or under WSL 2 the driver's files in /usr/lib/wsl/lib are outside the loader's search.", "Under WSL 2: `export LD_LIBRARY_PATH=/usr/lib/wsl/lib:$LD_LIBRARY_PATH` (or `sudo ldconfig` after fixing the libcuda.so links there); elsewhere install the NVIDIA driver."),
        ],
        hints: &[
            // Round 7b: cuDNN's own load fails on the driver's libcuda (WSL 2's /usr/lib/wsl/lib
            // outside the search: facebookresearch/nougat#105).
            h(r"(?:Error: |\b)libcuda\.so(?:\.1)?: cannot open shared object file|(?:/usr/lib/wsl/lib|\bWSL ?2?\b)[\s\S]{0,400}\blibcuda\b|\blibcuda\b[\s\S]{0,400}(?:/usr/lib/wsl/lib|\bWSL ?2?\b)", "driver.not_installed", 1.0),
            h(r"LD_LIBRARY_PATH\s*=|echo \$LD_LIBRARY_PATH|/usr/local/cuda|/usr/lib/x86_64-linux-gnu/libcudnn|conda", "torch.libs_shadowed", 0.2),
            h(r"Could not load library|Could not load dynamic library", "torch.wheel_deps_mismatch", 0.2),
            // The library is absent, not another copy loaded (CADE#2's TensorFlow without its
            // libcudnn.so.7, sony/nnabla#806): nothing shadows what is not there.
            h(r"lib(?:cudnn|nvrtc|cublas|cublasLt|cufft|curand|cusparse|cusolver|nvJitLink)\w*\.so[\.\d]*: cannot open shared object file|Unable to load any of \{libcudnn", "torch.wheel_deps_mismatch", 0.35),
            h(r"onnxruntime|tensorflow|jax", "workload.library_bug", 0.3),
        ],
        tells_apart: "`python -c \"import torch; print(torch.backends.cudnn.version())\"`, `pip list | grep nvidia-cudnn`, and `echo $LD_LIBRARY_PATH`.",
    },
    // ---------------------------------------------------------------- kernels
    Rule {
        id: "cuda.invalid_configuration",
        title: "invalid configuration argument (kernel launch configuration)",
        pattern: r"(?:invalid configuration (?:argument|error)|cudaErrorInvalidConfiguration|CUDA_ERROR_INVALID_CONFIGURATION|too many resources requested for launch|cudaErrorLaunchOutOfResources)",
        priority: 70,
        causes: &[
            c("workload.grid_limit", 0.7, "A kernel was launched with more blocks than the grid allows on an axis (y and z stop at 65535): with attention (scaled_dot_product_attention, xformers, flash-attn), upsampling or pooling on a large batch, batch × heads (× h × w for temporal attention) lands on a limited axis. This is the input's size, not memory.", "Split the batch into chunks whose blocks stay within the limit and concatenate the results (`gpu-doctor grid --batch B --heads H --spatial HxW` gives the largest chunk); or reshape so the large product lands on the x axis."),
            c("workload.library_bug", 0.25, "A library kernel computes a launch configuration the hardware rejects for this shape (zero-sized input, too many threads or shared memory per block); newer versions clamp or split the grid.", FIX_LIBRARY_BUG),
            c("ext.arch_unsupported", 0.05, "An extension asks for more shared memory or threads than this GPU offers.", FIX_EXT_ARCH),
        ],
        hints: &[
            h(r"scaled_dot_product_attention|attention|xformers|memory_efficient|upsample|interpolate|nearest|avg_pool|max_pool|batch|unfold|grid_sample|embedding_bag|cumsum|sort|topk", "workload.grid_limit", 0.15),
            h(r"too many resources requested|LaunchOutOfResources", "workload.library_bug", 0.5),
            h(r"numel\(\)\s*==\s*0|empty tensor|size 0|zero-size", "workload.library_bug", 0.5),
        ],
        tells_apart: "Does it appear only above some batch size or resolution? Then it is a grid limit: compute blocks per axis (`gpu-doctor grid`). With tiny or empty inputs it is a library bug.",
    },
    Rule {
        id: "cuda.illegal_address",
        title: "an illegal memory access was encountered",
        pattern: r"(?:an illegal memory access was encountered|CUDA_ERROR_ILLEGAL_ADDRESS|cudaErrorIllegalAddress|misaligned address|cudaErrorMisalignedAddress|CUDA_ERROR_MISALIGNED_ADDRESS|an illegal instruction was encountered|cudaErrorIllegalInstruction)",
        priority: 66,
        causes: &[
            c("workload.illegal_address", 0.55, "A kernel read or wrote outside its memory: a bad index or shape in custom code, a tensor used after it was freed, or a kernel given a non-contiguous tensor it assumes contiguous.", FIX_ILLEGAL),
            c("workload.library_bug", 0.3, "A known out-of-bounds bug in a library kernel (flash-attn, xformers, vLLM, NCCL, cuBLASLt) for this shape or GPU.", FIX_LIBRARY_BUG),
            c("gpu.xid", 0.1, "A hardware or driver fault (the kernel log shows Xid 13/31/43 at the same time).", FIX_XID_HW),
            c("gpu.ecc_errors", 0.05, "Uncorrectable memory errors on the GPU.", FIX_XID_HW),
        ],
        hints: &[
            h(EXTENSIONS, "workload.library_bug", 0.2),
            h(r"nccl|cublasLt|vllm|flash_attn|xformers|triton", "workload.library_bug", 0.1),
            h(r"\bXid\b", "gpu.xid", 0.3),
            h(r"ECC|uncorrectable", "gpu.ecc_errors", 0.3),
            h(VERSION_CONTRAST, "workload.library_bug", 0.45),
            // The same code works on the CPU or another GPU and faults on this one, or faults
            // from some CUDA release on ("on cuda 6 or newer"): the library's kernel, not the
            // program's indexing (apache/mxnet-style threads).
            h(r"\b(?:works?|worked|runs?|ran|trains?|trained) (?:fine |well |ok )?on (?:the |an? )?(?:cpu|[^\n]{0,20}\b(?:GTX|RTX|Tesla|Quadro|Titan)\b)[^\n]{0,80}\bbut\b|\b(?:on|with|in|since|from) (?:cuda|the driver|driver|toolkit) ?v?\d+(?:\.\d+)? (?:or|and) (?:newer|later|above|higher)\b", "workload.library_bug", 0.3),
            // The fault reported with a kernel source under a library's include tree
            // (".../include/flashinfer/trtllm/fmha/fmhaKernels.cuh 257").
            h(r"include/[\w-]+/[\w/.-]*\.cuh?\b", "workload.library_bug", 0.3),
            // Round 9a: the same op works at one size and faults at the next one up: the
            // library's kernel (pytorch/pytorch#17930: cuDNN's Conv3d at batch 25, fixed in 7.6).
            h(SIZE_THRESHOLD, "workload.library_bug", 0.45),
            // A fault bound to a range of toolkit/library releases ("with CUDA 13.1+", "CUDA
            // Toolkit 13.1 through 13.4"): that release's bug (NVIDIA/warp#1944).
            h(VERSION_RANGE, "workload.library_bug", 0.4),
            // A misaligned address is a kernel's alignment assumption (vectorised loads on a
            // buffer whose size or offset breaks them), which a library's or a compiler's
            // generated kernel makes, not the program's Python-level indexing
            // (NVIDIA/Fuser#4970, openucx-style NVLS fixes); a fault bisected to one commit of
            // a library is that commit's (ggml-org/llama.cpp#4075); ggml's CUDA backend is a
            // library's kernel.
            h(r"misaligned address|MISALIGNED_ADDRESS|cudaErrorMisalignedAddress", "workload.library_bug", 0.3),
            h(r"is the first bad commit|\bgit bisect\b|\bbisect(?:ed|ing)\b", "workload.library_bug", 0.5),
            h(r"ggml-cuda|ggml_cuda|\bllama\.cpp\b", "workload.library_bug", 0.3),
            // The failing frame is inside an installed third-party package (not torch's own
            // Python, not numpy, not the program's files): that package's kernel. (The regex
            // crate has no look-ahead: the package names starting "torch" or "nump" are left out
            // letter by letter.)
            h(r"(?:site-packages|dist-packages)[/\\](?:[a-mo-su-z0-9_][\w-]*|t(?:[a-np-z0-9_-][\w-]*|o(?:[a-qs-z0-9_-][\w-]*|r(?:[a-bd-z0-9_-][\w-]*|c(?:[a-gi-z0-9_-][\w-]*)?)?)?)?|n(?:[a-tv-z0-9_-][\w-]*|u(?:[a-ln-z0-9_-][\w-]*|m(?:[a-oq-z0-9_-][\w-]*)?)?)?)[/\\][^\s:]*\.(?:py|cu|cuh)\b", "workload.library_bug", 0.3),
        ],
        tells_apart: "Run with `CUDA_LAUNCH_BLOCKING=1` and `compute-sanitizer`: the faulting kernel's name tells your code from a library's; Xid lines in `dmesg` at the same time point at the GPU.",
    },
    Rule {
        id: "cuda.launch_failure",
        title: "unspecified launch failure",
        pattern: r"(?:unspecified launch failure|cudaErrorLaunchFailure|CUDA_ERROR_LAUNCH_FAILED|the launch timed out and was terminated|cudaErrorLaunchTimeout|CUDA_ERROR_LAUNCH_TIMEOUT)",
        priority: 55,
        causes: &[
            c("workload.illegal_address", 0.35, "A kernel faulted (an out-of-bounds access the GPU reports as a launch failure).", FIX_ILLEGAL),
            c("gpu.xid", 0.3, "The GPU or driver faulted (Xid 13/31/43/62 in the kernel log), or the display watchdog killed a long kernel.", FIX_XID_HW),
            c("workload.library_bug", 0.25, "A library kernel bug.", FIX_LIBRARY_BUG),
            c("gpu.throttled", 0.1, "Power or thermal problems make the GPU fail under load.", "Check `nvidia-smi -q -d PERFORMANCE,POWER,TEMPERATURE` and the PSU."),
            c("gpu.lost", 0.05, "The GPU itself is failing: after the error it stays unusable until the machine reboots (a faulty card, risers or power).", FIX_XID_HW),
        ],
        hints: &[
            h(r"\bXid\b", "gpu.xid", 0.3),
            h(r"timed out|watchdog|display", "gpu.xid", 0.1),
            // The GPU stays unusable after the error until a reboot, or swapping the card fixed
            // it: the hardware, not a kernel (the device's state outlives the process).
            h(r"(?:until|till|unless|before) (?:I |we |you )?(?:reboot|restart|power[- ]cycle)|(?:must|have to|need to|had to) (?:reboot|restart)[^\n]{0,30}(?:server|machine|system|computer|node)|(?:swapp|replac|chang)\w* (?:the |another |a new )?(?:card|GPU)|\b(?:faulty|defective|broken|bad) (?:card|GPU)\b", "gpu.lost", 0.7),
            // Round 9a: the board carrying the GPU replaced, in either order ("I had the system
            // board (which also contains the RTX 2080 GPU) replaced": LeelaChessZero/lc0#1461).
            h(r"\b(?:system ?board|mother ?board|main ?board|graphics card|card|GPU)\b[^\n]{0,80}\breplaced\b|\bRMA\b", "gpu.lost", 0.7),
            h(EXTENSIONS, "workload.library_bug", 0.1),
        ],
        tells_apart: "`dmesg | grep -i xid` at the time of the failure; `CUDA_LAUNCH_BLOCKING=1` for the kernel.",
    },
    Rule {
        id: "cuda.device_assert",
        title: "device-side assert triggered",
        pattern: r"(?:device-side assert(?:ion)? triggered|cudaErrorAssert|CUDA_ERROR_ASSERT|Assertion `[^`\n]{0,200}` failed)",
        priority: 88,
        causes: &[
            c("workload.device_assert", 0.92, "A kernel's own assert failed: almost always an index out of range (a class label >= num_classes for cross_entropy/nll_loss, a token id >= vocabulary size for an embedding, gather/scatter indices), or values outside [0,1] for BCE.", "Re-run with `CUDA_LAUNCH_BLOCKING=1` (or on CPU, which names the op and the bad index); check `labels.max() < num_classes`, `input_ids.max() < embedding.num_embeddings` (tokenizer vs model vocabulary), and BCE inputs within [0,1]."),
            c("workload.library_bug", 0.08, "An assert inside a library kernel for a valid input.", FIX_LIBRARY_BUG),
        ],
        hints: &[],
        tells_apart: "The assert text above the error names the check ('t >= 0 && t < n_classes', 'srcIndex < srcSelectDimSize').",
    },
    // PyTorch's embedding on the CPU (or before the kernel runs) names the bad lookup itself:
    // "IndexError: index out of range in self" is the GPU's device-side assert in CPU words, a
    // token id at or past the vocabulary (fc2869/lo-fit#1: an added [PAD] token given id
    // 32001 in a 32001-entry table). The machine is fine.
    Rule {
        id: "torch.index_out_of_range",
        title: "an index past the end of a table (embedding lookup)",
        pattern: r"IndexError: index out of range in self",
        priority: 40,
        causes: &[
            c("workload.device_assert", 0.85, "An index is at or past the end of the table it looks into: a token id >= the embedding's vocabulary size (a token added to the tokenizer without resizing the embeddings), a position past max_position_embeddings, a label past the classes. On the GPU the same fault is a device-side assert.", "Print `input_ids.max()` against `model.get_input_embeddings().num_embeddings` (and the sequence length against the position table); after adding tokens call `model.resize_token_embeddings(len(tokenizer))`."),
            c("workload.library_bug", 0.15, "A library version that builds the ids and another that holds the table disagree (a tokenizer or transformers release whose special-token ids moved past the model's vocabulary).", FIX_LIBRARY_BUG),
        ],
        hints: &[h(r"transformers==|\btransformers\b[^\n]{0,40}\b(?:version|upgrade|downgrade)", "workload.library_bug", 0.3)],
        tells_apart: "The ids the model gets against the table's size: `input_ids.max() < embedding.num_embeddings`.",
    },
    // A package whose compiled CUDA ops are a module of their own finds none: the package
    // without its ops was installed (mmcv instead of mmcv-full), the wheel was built for another
    // torch / CUDA pair, or a source build skipped them (open-mmlab/mmcv#204; exllamav2's
    // prebuilt extension under ComfyUI: "name 'exllamav2_ext' is not defined").
    Rule {
        id: "ext.compiled_ops_missing",
        title: "a package's compiled CUDA ops module is missing",
        pattern: r"(?:No module named '[\w.]+\._ext'|No module named '(?:detectron2|maskrcnn_benchmark|groundingdino|pointnet2_ops|apex)\._C'|\bname '\w+_ext' is not defined)",
        priority: 55,
        causes: &[
            c("ext.abi_mismatch", 0.6, "The package's compiled ops are not there for this environment: the variant without ops was installed (mmcv instead of mmcv-full), or its wheel belongs to another torch / CUDA / Python than the one installed, so the module does not load.", "Install the build made for the installed torch and CUDA (mmcv: `pip install mmcv-full -f https://download.openmmlab.com/mmcv/dist/cu<CUDA>/torch<version>/index.html`, or `mim install mmcv`), or build it from source in this environment."),
            c("toolkit.not_found", 0.25, "A source build found no CUDA toolkit (nvcc, CUDA_HOME) and skipped the CUDA ops without failing.", "Install the CUDA toolkit of torch's CUDA version, set CUDA_HOME, and rebuild (`pip install --no-build-isolation --force-reinstall <package>`)."),
            c("torch.cpu_only", 0.15, "The torch installed is a CPU build, so the ops were built without CUDA or not at all.", "Install a CUDA build of torch, then reinstall the package."),
        ],
        hints: &[h(r"nvcc (?:was )?not found|CUDA_HOME|No CUDA runtime is found", "toolkit.not_found", 0.5)],
        tells_apart: "`python -c \"import torch; print(torch.__version__, torch.version.cuda)\"` against the package's wheel name (cu<CUDA>/torch<version>); `pip list | grep -i mmcv` shows which variant is installed.",
    },
    // An extension that ships one build per compute capability finds none for this GPU: it was
    // built on another machine (NVlabs/tiny-cuda-nn#285: built elsewhere, run on a cc 7.5 GPU).
    Rule {
        id: "ext.no_build_for_cc",
        title: "the extension has no build for this GPU's compute capability",
        pattern: r"Could not find compatible \w+ extension for compute capability \d+",
        priority: 80,
        causes: &[
            c("ext.arch_unsupported", 0.85, "The extension was compiled for other compute capabilities (on another machine or GPU, or with another TORCH_CUDA_ARCH_LIST) than the one of the GPU it now runs on.", FIX_EXT_ARCH),
            c("toolkit.arch_unsupported", 0.15, "The toolkit that built it could not target this GPU.", FIX_TOOLKIT_ARCH),
        ],
        hints: &[],
        tells_apart: "`nvidia-smi --query-gpu=name,compute_cap --format=csv` on the machine that runs it against the capability the extension was built for.",
    },
    // ptxas refuses a kernel whose static shared memory passes the 48 KiB a kernel may declare
    // statically: the kernel's (or the program's configuration's) size, on any GPU
    // (ggml-org/llama.cpp: a flash_attn_tile regression; PIConGPU's super cell size).
    Rule {
        id: "ptxas.too_much_shared_data",
        title: "a kernel declares more static shared memory than allowed",
        pattern: r"uses too much shared data \(0x[0-9a-fA-F]+ bytes, 0x[0-9a-fA-F]+ max\)",
        priority: 75,
        causes: &[
            c("workload.library_bug", 0.7, "The kernel's static shared memory is larger than the 48 KiB (0xc000) any kernel may declare statically: a bug of that code version (fixed upstream), or a template instantiated for sizes it was not meant for.", "Build a release of the program without the regression, or leave out the architectures/variants that instantiate the oversized kernel."),
            c("none", 0.3, "The program's own configuration (a block, tile or cell size, double instead of single precision) makes the kernel's shared arrays too large; the machine and the toolkit are fine.", "Reduce the configured block / tile / cell size (or precision) so the kernel's shared arrays fit in 48 KiB, or move them to dynamic shared memory."),
        ],
        hints: &[h(r"(?i)double precision|super ?cell|block size|tile size", "none", 0.3)],
        tells_apart: "Does the project's own release build? Then your configuration grew the kernel; if not, the code version is at fault.",
    },
    // cuFFT of CUDA 11.7 and older has no plans for Ada/Hopper GPUs: torch's stft and FFTs fail
    // with CUFFT_INTERNAL_ERROR on an RTX 40xx (pytorch/pytorch#88038); otherwise a plan that
    // cannot get its work area.
    Rule {
        id: "cufft.internal_error",
        title: "cuFFT internal error",
        pattern: r"(?:cuFFT error: CUFFT_INTERNAL_ERROR|CUFFT_INTERNAL_ERROR)",
        priority: 70,
        causes: &[
            c("torch.arch_unsupported", 0.5, "The build's cuFFT predates the GPU (CUDA 11.7 and older on an RTX 40xx / Ada or Hopper card): its plans fail on it.", FIX_TORCH_ARCH),
            c("workload.out_of_memory", 0.3, "The FFT plan could not allocate its work area: the GPU's memory is full.", "Free GPU memory (smaller batch or signal length), or check `nvidia-smi` for other processes."),
            c("workload.library_bug", 0.2, "A cuFFT bug for this size or layout.", FIX_LIBRARY_BUG),
        ],
        hints: &[
            h(r"(?i)\bRTX ?40[5-9]0|\bL40S?\b|\bH100\b|\bH200\b|\bcu11[0-7]\b|cuda ?11\.[0-7]\b", "torch.arch_unsupported", 0.3),
            h(r"(?i)out of memory", "workload.out_of_memory", 0.4),
        ],
        tells_apart: "`python -c \"import torch; print(torch.version.cuda, torch.cuda.get_device_name())\"`: CUDA 11.7 or older with an Ada/Hopper GPU is the cause; otherwise check free memory.",
    },
    // An extension's C++ written for an older PyTorch C++ API: AT_CHECK (removed in 1.5, now
    // TORCH_CHECK) and the THC headers (removed in 1.11) (TextRay, FCOS: "identifier AT_CHECK is
    // undefined" under torch 1.5).
    Rule {
        id: "ext.removed_torch_api",
        title: "the extension's source uses a PyTorch C++ API that was removed",
        pattern: r"(?:'AT_CHECK' (?:was not declared|is undefined)|identifier .AT_CHECK. is undefined|THC/THC(?:General)?\.h: No such file|'THC(?:State|udaCheck|CudaCheck)' (?:was not declared|does not name a type))",
        priority: 78,
        causes: &[
            c("ext.abi_mismatch", 0.85, "The extension's C++ was written for an older PyTorch: AT_CHECK left the API in 1.5 (TORCH_CHECK replaces it), the THC headers in 1.11; it cannot compile against the torch installed.", "Install the torch version the project pins (its README / requirements), or port the source (`AT_CHECK` → `TORCH_CHECK`, THC calls → ATen / c10::cuda)."),
            c("toolkit.torch_mismatch", 0.15, "The build uses headers of another torch than the one meant (a second torch on the include path).", "Build in the environment whose torch the project targets (`python -c \"import torch; print(torch.__version__, torch.__file__)\"`)."),
        ],
        hints: &[],
        tells_apart: "`python -c \"import torch; print(torch.__version__)\"` against the version the project was written for.",
    },
    // The model's numerics give NaN in this precision (fp16 overflow): a black image or video,
    // numpy's "invalid value encountered in cast" when the NaN frames become uint8
    // (zai-org/CogVideo, Tencent-Hunyuan/HunyuanVideo: fp16 on a V100). The GPU computes
    // what it is asked.
    Rule {
        id: "inference.nan_output",
        title: "the model's output is NaN (black images)",
        pattern: r"(?:RuntimeWarning: invalid value encountered in cast|\b(?:get|got|gets|getting|produces?|returns?|gives?)\s+(?:a\s+)?(?:nan|NaN)s?\s+(?:result|output|values?|images?|frames?)\b|\b(?:nan|NaN) (?:result|output)s?\b)",
        priority: 25,
        causes: &[
            c("none", 0.6, "The model overflows fp16 (max 65504) somewhere (attention, a VAE decoder): NaN values become a black image or video. The GPU and its driver are fine.", "Run the model in bf16 (on sm_80+) or fp32 as its README says, or use its fp16-safe parts (e.g. an fp16-fix VAE); keep fp16 only where the model supports it."),
            c("workload.library_bug", 0.4, "A kernel or library op of this version produces NaN for valid input in this precision.", FIX_LIBRARY_BUG),
        ],
        hints: &[h(r"(?i)\bfp16\b|float16|\bhalf\b", "none", 0.2)],
        tells_apart: "The same input in fp32 (or bf16): finite output → the model's fp16 numerics; NaN still → a library bug or bad input.",
    },
    // A data type the GPU has no fast path for, asked for by the program's setting: the
    // machine is as designed and another setting runs (SYSTRAN/faster-whisper#42: a GTX 1050 Ti
    // and compute_type="float16"; RVC-Boss/GPT-SoVITS: cuFFT's half-precision FFT below SM_53).
    Rule {
        id: "dtype.unsupported_on_gpu",
        title: "the GPU has no support for the data type the program asked for",
        pattern: r"(?:(?:Requested \w+ compute type|The compute type inferred from the saved model is \w+), but the target device or backend do not support efficient \w+ computation|cuFFT doesn't support signals of half type with compute capability less than SM_\d+)",
        // above a library's floor ("Your GPU does not support FP16 execution"): the
        // program's own setting asked for the precision
        priority: 88,
        causes: &[
            c("none", 0.8, "The GPU and its driver are fine; the program asked for a precision this GPU generation has no fast path for (FP16 on Pascal GeForce and older, half-precision FFTs below compute capability 5.3).", "Pick a data type the GPU supports: CTranslate2/faster-whisper `compute_type=\"int8\"` or `\"float32\"`; for half-precision FFTs, run them in float32 (or use a GPU of compute capability 5.3+)."),
            c("workload.library_bug", 0.2, "The program chose that precision by default for any GPU, without checking the device's capability.", FIX_LIBRARY_BUG),
        ],
        hints: &[],
        tells_apart: "`nvidia-smi --query-gpu=name,compute_cap --format=csv`: FP16 needs compute capability 5.3+ (fast FP16 7.0+ or 6.0/6.2); the program's dtype setting is the switch.",
    },
    // nvcc given a value for -arch that is no architecture name at all: a placeholder left in
    // a README's command ("-arch=arch", jytime/Mask_RCNN_Pytorch#15), brackets copied from it
    // ("-arch=[sm_61]", multimodallearning/pytorch-mask-rcnn#38). A well-formed name nvcc does
    // not know is the toolkit's age (nvcc.unsupported_arch).
    Rule {
        id: "nvcc.arch_value_malformed",
        title: "nvcc does not accept the value given for the GPU architecture",
        pattern: r"Value '[^'\n]{1,40}' is not defined for option 'gpu-(?:architecture|code|name)'",
        priority: 84,
        causes: &[
            c("none", 0.55, "The value passed to -arch / --gpu-architecture is not an architecture name (a placeholder left in, brackets or quotes copied from a README, a typo): the command line is wrong, not the toolkit or the GPU.", "Pass the GPU's architecture as nvcc spells it, e.g. `-arch=sm_86` (no brackets, no placeholder): `nvidia-smi --query-gpu=compute_cap --format=csv` gives 8.6 → sm_86; `nvcc --list-gpu-arch` lists what this nvcc knows."),
            c("toolkit.arch_unsupported", 0.45, "The CUDA toolkit is too old for the architecture named (or so new it dropped it).", FIX_TOOLKIT_ARCH),
        ],
        hints: &[h(r"Value '(?:sm|compute|lto)_\d{2,3}[af]?' is not defined", "toolkit.arch_unsupported", 0.8)],
        tells_apart: "The value between the quotes: `sm_XY` / `compute_XY` is a real name this nvcc does not know (`nvcc --list-gpu-arch`); anything else is a typo in the command.",
    },
    // A TensorRT engine with custom plugin layers, loaded by a process that did not register
    // them (enazoe/yolo-tensorrt#157: loaded from the Python API without the project's plugin
    // library; wang-xinyu/tensorrtx#147).
    Rule {
        id: "tensorrt.plugin_not_registered",
        title: "TensorRT cannot find a plugin the engine uses",
        pattern: r"(?:getPluginCreator could not find plugin[^\n]{0,80}|Cannot deserialize plugin since corresponding IPluginCreator not found in Plugin Registry|Plugin not found, are the plugin name, version, and namespace correct\?)",
        priority: 80,
        causes: &[
            c("none", 0.55, "The engine holds custom plugin layers (a project's YOLO/decode layers, TensorRT's own plugins) and the process that loads it did not load the library that registers them: the GPU, the driver and TensorRT are fine.", "Load the plugin library before deserializing: in Python `ctypes.CDLL(\"build/libmyplugins.so\")` and `trt.init_libnvinfer_plugins(logger, \"\")`; in C++ link it or call `initLibNvInferPlugins`; with trtexec `--plugins=libmyplugins.so` (`--staticPlugins` on TensorRT 10)."),
            c("workload.library_bug", 0.3, "The project's plugin registration does not match the engine (a plugin name or version changed between the build that serialized the engine and the code that loads it).", "Rebuild the engine and the plugin library from the same revision of the project, then load that library before deserializing."),
            c("ext.abi_mismatch", 0.15, "The plugin library was built against another TensorRT version than the one loading the engine, so it does not register.", "Rebuild the plugin library against the TensorRT in use (`python -c \"import tensorrt; print(tensorrt.__version__)\"`)."),
        ],
        hints: &[],
        tells_apart: "Does the project's own binary (built with its plugins) run the same engine? Then the loading program lacks the plugin library; if it fails too, the engine and the plugins are from different builds.",
    },
    // TensorFlow (and programs that bundle it, DeepFaceLab) ignore a GPU below the framework
    // build's capability floor and run on the CPU (tensorflow/tensorflow#4002, iperov/
    // DeepFaceLab#264: a GTX 780M of capability 3.0 under a build for 3.5+).
    Rule {
        id: "framework.below_capability_floor",
        title: "the framework ignores the GPU: its compute capability is below the build's minimum",
        pattern: r"(?:Ignoring (?:visible )?gpu device[^\n]{0,200}with Cuda compute capability \d+\.\d+\. The minimum required Cuda capability is \d+\.\d+|No CUDA device found with minimum required compute capability \d+\.\d+|The minimum required Cuda capability is \d+\.\d+)",
        priority: 70,
        causes: &[
            c("torch.arch_unsupported", 0.75, "The framework's build (TensorFlow's wheels, or the one a program bundles) carries no kernels below this compute capability, so it ignores the GPU and runs on the CPU.", "Use a release of the framework (or of the program) that still supports the GPU's compute capability, build the framework from source for it (TensorFlow: `TF_CUDA_COMPUTE_CAPABILITIES=<cc>` in ./configure), or use a newer GPU."),
            c("workload.library_bug", 0.15, "A source build asked for this capability, but the build scripts of that revision dropped it.", "Build a revision whose configure honours the requested capability (check the generated `.tf_configure.bazelrc`), or report it to the framework."),
            c("driver.gpu_unsupported", 0.1, "The GPU is too old for current software altogether.", "Use a newer GPU, or the old framework and driver releases that still support it."),
        ],
        hints: &[h(r"TF_CUDA_COMPUTE_CAPABILITIES\s*=|\bused to work\b", "workload.library_bug", 0.7)],
        tells_apart: "`nvidia-smi --query-gpu=name,compute_cap --format=csv` against the minimum the message names; a source build that asked for the GPU's capability and still ignores it is the build's fault.",
    },
    // modinfo given a path where the module is not: DKMS and distribution packages install
    // nvidia.ko under updates/dkms/ or extramodules/, often compressed
    // (Frogging-Family/nvidia-all#90: the driver ran while the hard-coded path was missing).
    Rule {
        id: "modinfo.path_not_found",
        title: "modinfo finds no module at the path given",
        pattern: r"modinfo: ERROR: Module /\S+\.ko(?:\.(?:xz|zst|gz))? not found",
        priority: 80,
        causes: &[
            c("none", 0.6, "modinfo was given a file path, and the module is elsewhere: DKMS installs it under /lib/modules/$(uname -r)/updates/dkms/, Arch under extramodules/, often compressed (.ko.zst, .ko.xz). A loaded driver is not affected.", "Ask by name: `modinfo nvidia | grep ^version`, or read the loaded module's version from `cat /proc/driver/nvidia/version`."),
            c("driver.not_installed", 0.25, "No NVIDIA module is built for the running kernel (a kernel installed after the driver, DKMS not run).", "Install the driver for this kernel (`sudo dkms autoinstall`, or reinstall the driver package) and reboot."),
            c("driver.module_not_loaded", 0.15, "The module exists for another kernel only, so nothing is loaded.", FIX_MODULE),
        ],
        hints: &[h(r"(?:driver|nvidia-smi)[^\n]{0,60}\b(?:works?|working|loaded|running|fine)\b|\brunning the driver\b", "none", 0.3)],
        tells_apart: "`modinfo nvidia` (by name) and `lsmod | grep nvidia`: found and loaded → only the path was wrong.",
    },
    // GPU libraries installed as their CPU build: faiss-cpu has no StandardGpuResources
    // (facebookresearch/faiss#888, facebookresearch/deepcluster#56), MXNet's CPU package says
    // "Compile with USE_CUDA=1".
    Rule {
        id: "library.cpu_build",
        title: "the library is its CPU build",
        pattern: r"(?:has no attribute '(?:StandardGpuResources|GpuIndex\w*|index_cpu_to_gpu\w*|GpuMultipleClonerOptions)'?|Compile with USE_CUDA=1 to enable GPU usage)",
        priority: 75,
        causes: &[
            c("torch.cpu_only", 0.8, "The library installed is its build without CUDA (faiss-cpu, MXNet's CPU package), so its GPU functions are not there.", "Install the GPU build: faiss `conda install -c pytorch -c nvidia faiss-gpu` (or `pip install faiss-gpu-cu12`), MXNet `pip install mxnet-cu<XY>` for your CUDA; remove the CPU package first (`pip uninstall faiss-cpu mxnet`)."),
            c("workload.library_bug", 0.2, "The program calls a GPU path this version of the library (or its own code) does not provide on this setup.", FIX_LIBRARY_BUG),
        ],
        hints: &[],
        tells_apart: "`pip list | grep -i -E 'faiss|mxnet'` (or `conda list`): a -cpu package, or no -cu/-gpu in its name, is the CPU build.",
    },
    // NVML answered (devices listed, temperatures read) but refuses one operation: setting fans,
    // clocks or power limits needs root, and profiling counters can be restricted to admins
    // (RmProfilingAdminOnly; pynvml#19, NVML-GPU-Control#12). "Failed to initialize NVML:
    // Insufficient Permissions" (nothing answers) is nvml.init_failed's.
    Rule {
        id: "nvml.operation_needs_privilege",
        title: "NVML refuses an operation for want of privileges",
        pattern: r"\bInsufficient Permissions\b",
        priority: 55,
        causes: &[
            c("none", 0.6, "NVML works, but this operation is reserved to root or to admins: setting fan speed, clocks, power limits or persistence mode, and reading performance counters when the driver restricts them to admins (RmProfilingAdminOnly: 1).", "Run the tool with sudo (or as an admin); to open the counters to all users load the module with `NVreg_RestrictProfilingToAdminUsers=0` (a modprobe.d option, then reload the driver)."),
            c("driver.device_nodes", 0.4, "The user cannot open /dev/nvidia* (not in the group that owns them, a restrictive udev rule), so every NVML call is refused.", "`ls -l /dev/nvidia*`: add the user to the owning group (often `video`) or fix the udev rule / NVreg_DeviceFileMode."),
        ],
        hints: &[h(r"Device name\s*:|fan speed|Temperature|^GPU \d+: [^\n]+\(UUID: GPU-|Driver Version\s*:", "none", 0.3)],
        tells_apart: "Does `nvidia-smi` list the GPUs as the same user? Yes → only the operation needs privileges; no → the device files are not accessible.",
    },
    // CUDA error 805: the process was told to use MPS (a pipe directory, or MPS expected by the
    // system) and cannot reach the MPS control daemon: not started, or its pipe directory not
    // shared into the container (NVIDIA/nvidia-container-toolkit#714).
    Rule {
        id: "cuda.mps_unreachable",
        title: "the CUDA MPS client cannot reach the MPS daemon",
        pattern: r"(?:MPS client failed to connect to the MPS control daemon or the MPS server|cudaErrorMpsConnectionFailed|CUDA_ERROR_MPS_CONNECTION_FAILED)",
        priority: 80,
        causes: &[
            c("none", 0.6, "The GPU and driver are fine: the program runs as an MPS client but cannot reach the MPS daemon: it is not running, runs as another user, or its pipe directory (CUDA_MPS_PIPE_DIRECTORY, /tmp/nvidia-mps by default) and IPC namespace are not shared with the container.", "Start the daemon (`nvidia-cuda-mps-control -d`) as the user that runs the jobs; for containers mount the pipe directory (`-v /tmp/nvidia-mps:/tmp/nvidia-mps`) and use `--ipc=host`; or unset CUDA_MPS_PIPE_DIRECTORY to run without MPS."),
            c("host.container_no_gpu", 0.2, "The container reaches the GPU only partly: the MPS pipe and the host's IPC are not inside it.", FIX_CONTAINER),
            c("gpu.compute_mode_restricted", 0.2, "The GPU is in EXCLUSIVE_PROCESS mode for MPS and the daemon is down, so no client can get a context.", "Start the MPS daemon, or set the compute mode back to default (`sudo nvidia-smi -c DEFAULT`)."),
        ],
        hints: &[],
        tells_apart: "`echo quit | nvidia-cuda-mps-control` and `ls $CUDA_MPS_PIPE_DIRECTORY` (default /tmp/nvidia-mps) where the job runs; `nvidia-smi -q | grep -i 'compute mode'`.",
    },
    // Two Python packages of versions that do not go together: the importing one expects a
    // name the other's installed version lacks (traveller59/spconv#367: spconv 2.1.2 with an
    // older cumm). Triton's own names are triton.import's.
    Rule {
        id: "python.import_name_mismatch",
        title: "a Python package cannot import a name from another package's installed version",
        pattern: r"cannot import name '\w+' from '[\w.]+'",
        priority: 30,
        causes: &[
            c("none", 0.5, "Two Python packages are at versions that do not go together (a library and its companion package, one upgraded without the other): a pip-level mismatch; CUDA, the driver and the GPU are not involved.", "Upgrade (or pin) the package the name comes from to the version the importing package asks for: `pip install -U <package>` as its README or requirements say; `pip check` lists the conflicts."),
            c("ext.abi_mismatch", 0.3, "The importing package was made for another torch (or CUDA) than the one installed, which lacks the name.", "Install the torch version the package supports, or the package's release for your torch."),
            c("workload.library_bug", 0.2, "A release of the library whose own modules do not match (a packaging bug).", FIX_LIBRARY_BUG),
        ],
        hints: &[h(r"cannot import name '\w+' from '(?:torch|torchvision|torchaudio)\b", "ext.abi_mismatch", 0.4)],
        tells_apart: "`pip show <both packages>` and `pip check`: a version the importing package does not support is the mismatch.",
    },
    // The unofficial "pynvml" package on PyPI (not NVIDIA's nvidia-ml-py, which provides the
    // same module name) lacks names gpustat and others use (gpuopenanalytics/pynvml#47).
    Rule {
        id: "pynvml.unofficial_package",
        title: "the pynvml module is not NVIDIA's bindings",
        pattern: r"module 'pynvml' has no attribute '_?nvml\w*'",
        priority: 75,
        causes: &[
            c("none", 0.75, "The `pynvml` module imported comes from a package that is not NVIDIA's bindings (the deprecated `pynvml` distribution, or an old copy), and lacks the function the program calls; the driver and NVML are fine.", "`pip uninstall -y pynvml && pip install -U nvidia-ml-py` (NVIDIA's official bindings; they provide the `pynvml` module)."),
            c("workload.library_bug", 0.25, "The program calls an NVML binding that no release provides.", FIX_LIBRARY_BUG),
        ],
        hints: &[],
        tells_apart: "`pip list | grep -i -E 'pynvml|nvidia-ml-py'`: the `pynvml` distribution beside or instead of nvidia-ml-py.",
    },
    // AliceVision / Meshroom's depth-map nodes say so when the CUDA runtime finds no usable
    // device; on a machine with an NVIDIA GPU the usual fix is a newer driver
    // (alicevision/Meshroom#203: a Quadro M2000M, "Solved with an update").
    Rule {
        id: "alicevision.needs_cuda_gpu",
        title: "AliceVision / Meshroom finds no usable CUDA GPU",
        pattern: r"This program needs a CUDA-Enabled GPU \(with at least compute capa\w+ \d+\.\d+\)",
        priority: 70,
        causes: &[
            c("driver.too_old_for_toolkit", 0.45, "The NVIDIA driver is older than the CUDA runtime the program ships, so the runtime finds no usable device and the program says it needs a CUDA GPU.", "Install the current NVIDIA driver for the GPU (nvidia.com's driver download, or the distribution's driver package), then run the program again: the CUDA runtime it ships needs a driver at least as new as itself."),
            c("host.no_nvidia_gpu", 0.35, "The machine has no NVIDIA GPU (Intel/AMD graphics, a VM without passthrough): the depth-map nodes need CUDA.", "Run the CUDA nodes on a machine with an NVIDIA GPU, or use the pipeline without them (Meshroom: the draft meshing pipeline)."),
            c("driver.not_installed", 0.2, "No NVIDIA driver is installed (the GPU is there).", "Install the NVIDIA driver for the GPU from nvidia.com or the distribution."),
        ],
        hints: &[
            h(r"\b(?:NVIDIA|GeForce|Quadro|RTX|GTX|Tesla)\b", "host.no_nvidia_gpu", -0.3),
            h(NO_NVIDIA_GPU_WORDS, "host.no_nvidia_gpu", 0.6),
        ],
        tells_apart: "`nvidia-smi`: no NVIDIA GPU listed → the machine lacks one; a driver version older than the one the program's CUDA needs → update it.",
    },
    // Folding@home's client finds neither CUDA nor OpenCL for a GPU slot: the driver is too old
    // for the core's CUDA (linuxserver/docker-foldingathome#7: an image update on driver
    // 455.45), or the container or machine lacks the driver's compute libraries.
    Rule {
        id: "fah.no_gpu_support",
        title: "Folding@home finds no CUDA or OpenCL support for the GPU",
        pattern: r"No CUDA or OpenCL 1\.2\+ support detected for GPU slot",
        priority: 70,
        causes: &[
            c("driver.too_old_for_toolkit", 0.4, "The Folding@home core (or the container image's) needs a newer CUDA than the driver provides, so its CUDA check fails and the slot is disabled.", "Update the NVIDIA driver to a current branch, or pin the previous client/image release that worked with this driver."),
            c("host.container_no_gpu", 0.35, "In a container the NVIDIA runtime did not pass the GPU and its compute libraries (libcuda, the OpenCL ICD), so the client sees the GPU on the PCI bus but no CUDA or OpenCL.", "Start the container with `--gpus all` (or `--runtime=nvidia` with NVIDIA_VISIBLE_DEVICES=all and NVIDIA_DRIVER_CAPABILITIES=compute,utility); on Unraid set these in the template."),
            c("driver.not_installed", 0.25, "The NVIDIA driver's compute libraries are missing on the machine (a display-only or nouveau setup).", FIX_DRIVER_INSTALL),
        ],
        hints: &[h(r"docker|container|unraid|linuxserver", "host.container_no_gpu", 0.1)],
        tells_apart: "`nvidia-smi` where the client runs (in the container too): no output → the container lacks the GPU; a driver older than the client's CUDA needs → update it.",
    },
    // Kokkos refusing to run kernels built for another compute capability
    // (kokkos/kokkos#1944: built with KOKKOS_ARCH=Volta70 for a Maxwell GPU).
    Rule {
        id: "kokkos.wrong_arch",
        title: "Kokkos was compiled for another GPU architecture",
        pattern: r"Kokkos::Cuda::initialize ERROR: running kernels compiled for compute capability \d+\.\d+[^\n]{0,20} on device with compute capability \d+\.\d+",
        priority: 80,
        causes: &[
            c("ext.arch_unsupported", 0.85, "The program was built for another GPU architecture than this one (KOKKOS_ARCH / Kokkos_ARCH_* names another GPU), so its kernels cannot run here.", "Rebuild with the GPU's architecture: `-DKokkos_ARCH_<NAME>=ON` (CMake) or `KOKKOS_ARCH=<Name><cc>` (Makefile), e.g. Maxwell50 for compute capability 5.0."),
            c("toolkit.arch_unsupported", 0.15, "The CUDA toolkit used cannot target this GPU, so the build fell back to another architecture.", FIX_TOOLKIT_ARCH),
        ],
        hints: &[],
        tells_apart: "The two capabilities the message names: the build's against the device's; the build's Kokkos_ARCH settings.",
    },
    // A Python call with a keyword its installed version does not take: code written for
    // another release of the library (numba/numba#5868: `compile_kernel(boundscheck=...)`).
    Rule {
        id: "python.unexpected_keyword",
        title: "a library function got a keyword argument its installed version does not take",
        pattern: r"TypeError: \w+\(\) got an unexpected keyword argument '\w+'",
        priority: 30,
        causes: &[
            c("workload.library_bug", 0.6, "The code calls a function with an argument this version of the library does not know: one part of the library (or a package built on it) is of another release, or the release has the bug.", "Install versions of the packages that go together (the project's requirements; `pip check`), or the release of the library that fixed it."),
            c("none", 0.4, "The program was written for another version of the library than the one installed: a pip-level mismatch; CUDA, the driver and the GPU are not involved.", "Pin the library version the program was written for (its README / requirements)."),
        ],
        hints: &[],
        tells_apart: "`pip show <library>` against the version the program (or the traceback's frames) expect.",
    },
    // After a driver update, a container's device spec still names the old driver's files
    // (HaveAGitGat/Tdarr#1423: libEGL_nvidia.so.580.159.04 missing after 580.178.04): a
    // stale CDI spec (regenerate it) or a container created before the update.
    Rule {
        id: "container.stale_driver_files",
        title: "the container setup names files of another driver version",
        pattern: r"lib[\w-]*nvidia[\w-]*\.so\.\d{3}\.\d{2,3}(?:\.\d{2})?[^\n]{0,40}(?:no such file or directory|not found|cannot open)",
        priority: 72,
        causes: &[
            c("host.container_no_gpu", 0.6, "The container's GPU setup names the driver files of the version installed before an update: the CDI spec (/etc/cdi/nvidia.yaml, /var/run/cdi) was generated for the old driver, or the container was created before the update, so the new driver is not mounted.", "Regenerate the CDI spec (`sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml`, or restart the nvidia-cdi-refresh service), then recreate the container; reboot first if the old kernel module is still loaded."),
            c("driver.library_mismatch", 0.4, "The driver update is half done: user-space libraries of one version, another still expected (reboot pending, leftover files).", "Reboot so the new driver loads, then check `nvidia-smi` and `ls /usr/lib/x86_64-linux-gnu/libnvidia-*` for one version only."),
        ],
        hints: &[h(r"\bcdi\b|nvidia-ctk|docker|podman|container", "host.container_no_gpu", 0.2)],
        tells_apart: "`nvidia-smi` on the host (the version now installed) against the version in the missing file's name; `grep -c <old version> /etc/cdi/nvidia.yaml`.",
    },
    // pip's resolver refusing a set of requirements (axolotl-ai-cloud/axolotl#1355: an extra
    // pinning another torch than the one pip chose first): a packaging matter, before any GPU.
    Rule {
        id: "pip.conflicting_dependencies",
        title: "pip cannot resolve the packages' version requirements",
        pattern: r"(?:because these package versions have conflicting dependencies|ResolutionImpossible)",
        priority: 30,
        causes: &[
            c("none", 0.6, "pip found no set of versions that meets every requirement (an extra that pins another torch, two packages wanting different versions of a third): nothing is installed yet, and the GPU, driver and CUDA are not involved.", "Install the pinned base first (e.g. the torch version the project names), then the package; or loosen the conflicting pin; `pip install ... --dry-run` shows the resolution."),
            c("torch.wheel_deps_mismatch", 0.4, "The requirements ask for CUDA wheels of two CUDA majors (or a CPU and a CUDA build) together, which no index can satisfy.", FIX_WHEEL_DEPS),
        ],
        hints: &[h(r"\+cu\d{2,3}[^\n]{0,80}\+cu\d{2,3}|nvidia-[\w-]+-cu1[1-3]", "torch.wheel_deps_mismatch", 0.3)],
        tells_apart: "pip's lines after 'The conflict is caused by:' name the two requirements that disagree.",
    },
    // Hugging Face's own refusal of a bf16 setting (transformers' TrainingArguments "Your
    // setup doesn't support bf16/gpu", accelerate's "bf16 mixed precision requires PyTorch >=
    // 1.10 and a supported device"; OptimalScale/LMFlow#88 on a 2080 Ti): the check is
    // torch.cuda.is_bf16_supported(), false below Ampere, so the switch is the program's flag.
    Rule {
        id: "dtype.bf16_setting_refused",
        title: "the program's bf16 setting is refused on this GPU",
        pattern: r"(?:Your setup doesn't support bf16|bf16 mixed precision requires PyTorch >= ?1\.10 and a supported device|--bf16 (?:is only supported|requires) (?:on )?(?:an )?Ampere)",
        priority: 88,
        causes: &[
            c("none", 0.75, "The GPU and its driver are fine: the program was told to train in bf16, which needs an Ampere (compute capability 8.0) or newer GPU; this one is older.", "Train in fp16 instead: `--fp16` in place of `--bf16` (transformers), `mixed_precision=\"fp16\"` (accelerate config), `\"bf16\": {\"enabled\": false}` with fp16 enabled in a DeepSpeed config."),
            c("torch.cuda_unavailable", 0.25, "torch sees no CUDA GPU at all (a CPU-only build, or no driver), so no bf16 check can pass.", "`python -c \"import torch; print(torch.cuda.is_available(), torch.version.cuda)\"`: False or None → install a CUDA build of torch from the selector at pytorch.org."),
        ],
        hints: &[h(r"(?i)is_available\(\)\W{0,20}False|\+cpu\b|CPU-only", "torch.cuda_unavailable", 1.0)],
        tells_apart: "`python -c \"import torch; print(torch.cuda.is_available(), torch.cuda.is_bf16_supported())\"`: True, False → the GPU is older than Ampere, use fp16.",
    },
    Rule {
        id: "cuda.stream_capture",
        title: "stream capture / CUDA graph error",
        pattern: r"(?:operation not permitted when stream is capturing|cudaErrorStreamCaptureUnsupported|CUDA_ERROR_STREAM_CAPTURE_\w+|cudaErrorStreamCapture\w+|operation failed due to a previous error during capture|operation would make the legacy stream depend on a capturing blocking stream|capture(?:d)? (?:was )?invalidated|cudaErrorGraphExecUpdateFailure|CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE|operation not permitted on an event last recorded in a capturing stream|Cannot call CUDAGeneratorImpl::current_seed during CUDA graph capture|CUDA graphs? (?:capture )?(?:failed|error)|cudaStreamIsCapturing|during CUDA graph capture)",
        priority: 75,
        causes: &[
            c("workload.stream_capture", 0.85, "Something ran during CUDA graph capture that capture forbids: a synchronising call (.item(), .cpu(), cudaMalloc, printing a tensor), work on the legacy/default stream, a CPU-dependent random seed, or an earlier error invalidated the capture (torch.compile mode='reduce-overhead', vLLM/SGLang cuda graphs).", "Keep synchronising calls out of the captured region; warm up before capture; in vLLM use `--enforce-eager` (or in torch.compile a mode without cudagraphs) to confirm, then fix the op that syncs."),
            c("workload.library_bug", 0.15, "A library op that is not capture-safe in this version.", FIX_LIBRARY_BUG),
        ],
        hints: &[h(r"vllm|sglang|flashinfer|torch\._inductor|cudagraph", "workload.library_bug", 0.1)],
        tells_apart: "Does it go away with graphs off (`--enforce-eager`, `torch.compile(mode=\"default\")`)? Then the captured region has a forbidden call; the first error before 'invalidated' names it.",
    },
    // ---------------------------------------------------------------- NCCL
    Rule {
        id: "nccl.shm",
        title: "NCCL / DataLoader: shared memory too small",
        pattern: r"(?:Error while creating shared memory segment[^\n]{0,120}|unable to allocate shared memory\(shm\)|insufficient shared memory \(shm\)|DataLoader worker \(pid[^\n]{0,40}\) is killed by signal: Bus error|No space left on device[^\n]{0,40}/dev/shm|/dev/shm[^\n]{0,80}No space left on device|posix_fallocate failed|shm_open failed)",
        priority: 93,
        causes: &[
            c("host.shm_small", 0.9, "/dev/shm is too small for NCCL's shared-memory transport or the DataLoader's worker buffers; docker gives containers 64 MiB by default.", "Start the container with `--shm-size=16g` (or `--ipc=host`); on Kubernetes mount an `emptyDir: {medium: Memory}` at /dev/shm. As a stopgap `NCCL_SHM_DISABLE=1` or fewer DataLoader workers."),
            c("workload.nccl", 0.1, "NCCL's own buffer sizing (NCCL_BUFFSIZE, many channels) asks for more than is reasonable.", "Lower NCCL_BUFFSIZE / NCCL_NCHANNELS or set NCCL_SHM_DISABLE=1."),
        ],
        hints: &[],
        tells_apart: "`df -h /dev/shm` inside the container.",
    },
    Rule {
        id: "nccl.error",
        title: "NCCL error",
        pattern: r"(?:NCCL ?error(?: in)?[^\n]{0,200}|NCCL_ERROR_[A-Z_]+|ncclUnhandledCudaError|ncclSystemError|ncclInternalError|ncclInvalidUsage|ncclRemoteError|ncclInvalidArgument|DistBackendError: NCCL|NCCL communicator was aborted|Watchdog caught collective operation timeout|ProcessGroupNCCL[^\n]{0,80}(?:timeout|timed out|error))",
        priority: 50,
        causes: &[
            c("workload.nccl", 0.55, "A collective failed or timed out for a reason in the job or the network: ranks doing different collectives (a hang until the watchdog), a rank that crashed, NCCL_SOCKET_IFNAME / IB configuration, or a firewall between nodes.", "Run with `NCCL_DEBUG=INFO` (and `TORCH_NCCL_ASYNC_ERROR_HANDLING=1`, `TORCH_DISTRIBUTED_DEBUG=DETAIL`); the first WARN line names the failing transport; check every rank's log for the first error."),
            c("host.shm_small", 0.15, "Inside a container /dev/shm is too small for NCCL's shared-memory transport ('unhandled system error').", "Run the container with `--shm-size=16g` or `--ipc=host`."),
            c("workload.library_bug", 0.15, "A bug in this NCCL version (or its pairing with the driver/CUDA).", "Upgrade the nvidia-nccl wheel to the version torch pins or newer; try `NCCL_P2P_DISABLE=1` / `NCCL_IB_DISABLE=1` to isolate the transport."),
            c("workload.illegal_address", 0.1, "A kernel fault in the job surfaced as an NCCL 'unhandled cuda error'.", FIX_ILLEGAL),
            c("gpu.xid", 0.05, "NVLink/PCIe errors on a GPU (Xid 74/79 in the kernel log).", FIX_XID_HW),
        ],
        hints: &[
            h(r"unhandled system error|ncclSystemError", "host.shm_small", 0.2),
            h(r"docker|container|kubernetes|\bpod\b|shm|shared memory|--ipc", "host.shm_small", 0.25),
            h(r"unhandled cuda error|illegal memory access", "workload.illegal_address", 0.2),
            h(r"\bXid\b|NVLink", "gpu.xid", 0.3),
            h(r"timeout|timed out|Watchdog|hang", "workload.nccl", 0.2),
            // Round 9a: several GPUs of one machine listed (nccl-tests' per-rank device lines,
            // a list of local cards): a single node, where NCCL's shared-memory transport is
            // what a system call fails in (HRNet/DEKR#18: fixed by docker's --ipc=host); the
            // network's own words (a failed connect, an interface to pick) point at the job's
            // network configuration instead.
            h(LOCAL_GPU_LIST, "host.shm_small", 0.3),
            h(r"socket\w*Connect|No route to host|Connection refused|NCCL_SOCKET_IFNAME|firewall|\bnode ?\d\b|other node|(?:two|multiple|several) (?:nodes|machines|hosts)", "workload.nccl", 0.3),
        ],
        tells_apart: "`NCCL_DEBUG=INFO` output: 'Error while creating shared memory segment' → /dev/shm; socket/IB errors → network config; a timeout with one rank missing → the job.",
    },
    // ---------------------------------------------------------------- imports
    Rule {
        id: "import.undefined_symbol",
        title: "undefined symbol when importing a compiled module",
        pattern: r"(?:([\w./+-]*\.so[\w.]*):\s*undefined\s+symbol(?::\s*([\w@.]+))?|undefined\s+symbol: [\x22'\x60]?([\w@.]+)|DLL load failed while importing (\w+)|ImportError: [^\n]{0,200}\.so[\w.]*: cannot open shared object file|(lib(?:cudart|cublas|cublasLt|cufft|curand|cusparse|cusolver|nvrtc|nvJitLink|nccl|cupti)\w*\.so[\d.]*): cannot open shared object file)",
        priority: 84,
        causes: &[
            c("ext.abi_mismatch", 0.65, "A compiled extension (flash-attn, xformers, vllm, torchvision/torchaudio, a custom op) was built against another torch or CUDA than the one installed: the C++ symbols it links to (c10::, at::, torch::) changed.", "Reinstall the extension built for the installed torch (`pip install --force-reinstall --no-build-isolation --no-cache-dir <package>`), or install the torch version its wheel was built for; torchvision/torchaudio must match torch's release."),
            c("torch.wheel_deps_mismatch", 0.2, "torch's own libraries miss a symbol of an nvidia-* wheel of another version (libtorch_cuda.so / libcusparse: undefined symbol __nvJitLink…, ncclCommRegister, cudnn…).", FIX_WHEEL_DEPS),
            c("torch.libs_shadowed", 0.15, "A system CUDA library on LD_LIBRARY_PATH, older than the wheel's, is loaded first.", FIX_LIBS_SHADOWED),
            c("toolkit.not_found", 0.01, "The CUDA libraries of the major the program needs are installed but not on the loader path (a system CUDA for a program that does not bring its own: ONNX Runtime from Maven/NuGet, a C++ build).", "Add the CUDA (and cuDNN) library directory to the loader path: `echo /usr/local/cuda/lib64 | sudo tee /etc/ld.so.conf.d/cuda.conf && sudo ldconfig` (or LD_LIBRARY_PATH), and check with `ldconfig -p | grep <library>`."),
            c("torch.multiple_installs", 0.02, "Two torch installs are mixed: torch's own libraries miss torch's own C++ symbols because one of them is left over from another version.", "Uninstall torch until none is left (`pip uninstall -y torch` repeated, `conda remove pytorch`), then install one build in a fresh environment."),
        ],
        hints: &[
            // torch's own library missing torch's own C++ symbol (at::, c10::, torch::,
            // caffe2::): pieces of two torch versions are mixed (pytorch/pytorch#10234: "an old
            // shared library hanging around").
            h(TORCH_OWN_SYMBOL_MISSING, "torch.multiple_installs", 1.0),
            h(TORCH_OWN_SYMBOL_MISSING, "torch.wheel_deps_mismatch", -0.6),
            // Another CUDA framework imported first loads its own (older) copy of a CUDA
            // library, which then serves torch (cupy/cupy#7506).
            h(r"import (?:cupy|tensorflow|jax|onnxruntime|paddle|mxnet)\b[^\n]*\n(?:[^\n]*\n){0,3}[^\n]*import torch", "torch.libs_shadowed", 0.8),
            h(r"torch/lib/lib(?:torch|c10)\w*\.so[^\n]*undefined\s+symbol|undefined\s+symbol: (?:ncclCommRegister|ncclCommInitRankScalable|_ZN\w*nccl)", "torch.wheel_deps_mismatch", 0.55),
            h(r"LD_LIBRARY_PATH|/usr/local/cuda[^\s]*/lib", "torch.libs_shadowed", 0.4),
            // A CUDA toolkit said to be installed on the system beside torch's wheels: its older
            // library is the one loaded (pytorch/pytorch#157381: "Torch is unusable when
            // cuda-12.4 is installed locally", libcupti.so.12 from the toolkit).
            h(r"\bcuda[- ]?(?:toolkit[- ])?1\d\.\d[^\n]{0,20}\binstalled (?:locally|system[- ]?wide|on the (?:system|host))|\binstalled (?:locally|system[- ]?wide)[^\n]{0,30}\bcuda", "torch.libs_shadowed", 0.7),
            // A CUDA library's own C symbol missing (ncclCommWindowRegister, cudnn…, cublas…) is a
            // CUDA library of another version loaded, not an extension built for another torch;
            // a system copy of that library shown beside it is the one loaded
            // (rsh-err-455: nccl-tests linked to /usr/lib's libnccl 2.23, not the 2.27 built).
            h(r"undefined\s+symbol:\s*[\x22'\x60]?_{0,2}(?:cudnn|cublas|cusparse|cusolver|cufft|curand|nccl|nvJitLink|nvrtc)[A-Z_]\w*", "ext.abi_mismatch", -0.4),
            h(r"(?:^|[\s'\x22])/usr/lib(?:64)?/(?:x86_64-linux-gnu/|aarch64-linux-gnu/)?lib(?:nccl|cudnn\w*|cublas\w*|cudart|nvrtc|nvJitLink)\.so", "torch.libs_shadowed", 0.4),
            // A CUDA library that is not there at all is no ABI mismatch: the build needs a
            // CUDA major that is not installed (microsoft/onnxruntime#21684).
            // TensorRT's and cuDNN's libraries the same (jkjung-avt/tensorrt_demos#517:
            // "libnvinfer.so.8: cannot open shared object file").
            h(r"lib(?:cudart|cublas|cublasLt|cufft|curand|cusparse|cusolver|nvrtc|nvJitLink|nccl|cupti|cudnn|nvinfer|nvonnxparser|nvparsers|myelin|cutensor|nvjpeg|npp)\w*\.so[\d.]*: cannot open shared object file", "torch.wheel_deps_mismatch", 0.6),
            h(r"undefined\s+symbol: _ZN(?:\d+c10|\d+at|\d+torch|K?\d*c10|\w*c10|\w*at\d)|undefined\s+symbol: _ZNK?\d+c10", "ext.abi_mismatch", 0.1),
            // The missing CUDA library is of the very major the text says is installed (CUDA 11.2
            // and libcublas.so.11): that CUDA is there but not on the loader path, no mismatch
            // (microsoft/onnxruntime#12540: Java in Kubernetes, fixed by adding it to ldconfig).
            h(SAME_MAJOR_LIB_MISSING, "toolkit.not_found", 0.9),
        ],
        tells_apart: "Which .so fails: an extension's module (…/flash_attn_2_cuda…so, xformers/_C.so) means the extension; torch/lib/libtorch_cuda.so or nvidia/*/lib means torch and its nvidia-* wheels; a path under /usr/local/cuda means LD_LIBRARY_PATH.",
    },
    Rule {
        id: "cuda.not_supported",
        title: "the driver does not support the operation (CUDA status 801)",
        pattern: r"(?:CUDA driver error: operation not supported|CUDA error: operation not supported|cudaErrorNotSupported|CUDA_ERROR_NOT_SUPPORTED)",
        priority: 60,
        causes: &[
            c("env.alloc_conf_invalid", 0.45, "PyTorch's driver calls fail with 'operation not supported' mostly where PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (set by the user or a library such as unsloth) asks for the driver's virtual-memory API, which vGPU guests, WSL and Jetson do not offer.", "Unset PYTORCH_CUDA_ALLOC_CONF (or drop expandable_segments from it) on this platform."),
            c("workload.library_bug", 0.3, "A library uses a driver feature (IPC, peer access, CUDA graphs, managed memory) the platform does not offer.", "Turn that feature off in the library (its eager / no-IPC option), or run on a platform that supports it."),
            c("driver.too_old_for_torch", 0.25, "The driver predates the feature the build calls.", FIX_DRIVER_UPGRADE),
            c("driver.minor_version_compat", 0.0, "The build's CUDA runs on this older driver only through minor-version compatibility, which leaves out features of the newer CUDA (large kernel parameters of 12.1+ need an R530 driver): the launch that uses one is refused.", FIX_DRIVER_UPGRADE),
        ],
        hints: &[
            h(r"expandable_segments|PYTORCH_(?:CUDA_)?ALLOC_CONF", "env.alloc_conf_invalid", 0.4),
            // An older CUDA build or toolkit makes it go away: the newer one needs more of the
            // driver than minor-version compatibility gives (pytorch/pytorch: 12.4 builds on R525).
            h(r"(?i)\b(?:fix(?:ed)?|solved|works?)\b[^\n]{0,30}\bdowngrad\w*[^\n]{0,20}\b(?:toolkit|cuda)\b|\bdowngrad\w*[^\n]{0,20}\b(?:toolkit|cuda)\b[^\n]{0,30}\b(?:fix(?:es|ed)?|solved|works?)\b", "driver.minor_version_compat", 0.6),
            h(r"cudaIpc|IpcGetMemHandle|peer access|cuda ?graph", "workload.library_bug", 0.4),
        ],
        tells_apart: "`echo $PYTORCH_CUDA_ALLOC_CONF`; the same run with it unset; `nvidia-smi -q | grep -i virtualization` (a vGPU guest).",
    },
    Rule {
        id: "k8s.insufficient_gpu",
        title: "Kubernetes finds no free GPU to schedule on",
        pattern: r"(?:Insufficient nvidia\.com/gpu|nvidia\.com/gpu[^\n]{0,40}\b(?:insufficient|unavailable)\b)",
        priority: 55,
        causes: &[
            c("host.container_no_gpu", 0.65, "No node advertises nvidia.com/gpu: the device plugin is not running there or cannot see the GPUs (the node's container runtime is not the NVIDIA one, e.g. docker/containerd without `default-runtime: nvidia`, or the driver is missing).", "On the GPU node: install nvidia-container-toolkit, `sudo nvidia-ctk runtime configure --runtime=containerd --set-as-default` (or docker), restart it and the device-plugin pod; `kubectl describe node` must list nvidia.com/gpu under Capacity."),
            c("gpu.busy", 0.35, "Every advertised GPU is already allocated to other pods (or the pod asks for more than one node has).", "`kubectl describe node` (Allocated resources): free GPUs held by other pods, or ask for fewer."),
            // Round 11a: the scheduler excluded the GPU node for a taint the pod does not
            // tolerate ("1 node(s) had taint {...}, that the pod didn't tolerate, 9 Insufficient
            // nvidia.com/gpu": NVIDIA/gpu-operator#156, the operator's validator without the
            // ClusterPolicy's tolerations).
            c("workload.library_bug", 0.02, "The GPU node is there but excluded: it carries a taint the pod does not tolerate (the pod spec, yours or a component's such as an operator's validator, lacks the toleration), so only nodes without GPUs remain.", "Add the GPU node's taint to the pod's tolerations (for the GPU operator's components: the ClusterPolicy's tolerations, on an operator version that passes them to every component); `kubectl describe node <gpu-node> | grep -i taint`."),
        ],
        hints: &[
            h(r"had (?:untolerated )?taint[\s\S]{0,80}?(?:didn'?t|did not) tolerate|untolerated taint", "workload.library_bug", 0.75),
            h(r"requesting [2-9]|nvidia\.com/gpu:\s*[\x22']?[2-9]", "gpu.busy", 0.2),
            // GPUs are per container: two containers of one pod each asking for a GPU ask the
            // node for two (NVIDIA/k8s-device-plugin#71).
            h(r"-\s+name:[^\n]*\n[\s\S]{0,400}?nvidia\.com/gpu:[\s\S]{0,300}?-\s+name:[^\n]*\n[\s\S]{0,400}?nvidia\.com/gpu:", "gpu.busy", 0.4),
        ],
        tells_apart: "`kubectl describe node <gpu-node>`: no nvidia.com/gpu under Capacity means the plugin/runtime; capacity fully allocated means busy.",
    },
    Rule {
        id: "onnxruntime.cuda_provider",
        title: "ONNX Runtime could not create its CUDA provider",
        pattern: r"(?:Failed to create CUDAExecutionProvider|CUDA_PATH is set but CUDA wasn't able to be loaded|Require cuDNN \d+\.\* and CUDA \d+\.\*|(?:LoadLibrary|dlopen) failed[^\n]{0,120}onnxruntime_providers_cuda|Failed to load library libonnxruntime_providers_cuda)",
        priority: 77,
        causes: &[
            c("torch.wheel_deps_mismatch", 0.65, "onnxruntime-gpu is built for one CUDA and cuDNN major (the message names them: 1.19+ needs CUDA 12 and cuDNN 9, older ones cuDNN 8); that major's libraries are not installed or not on the loader path (PATH on Windows, LD_LIBRARY_PATH on Linux), so its CUDA provider cannot load and it runs on the CPU.", "Install the CUDA and cuDNN majors the message names (e.g. `pip install nvidia-cudnn-cu12==9.* nvidia-cublas-cu12`, or `pip install onnxruntime-gpu[cuda,cudnn]`), or install the onnxruntime-gpu release built for the CUDA/cuDNN you have."),
            c("torch.libs_shadowed", 0.2, "Another cuDNN/CUDA copy (a system one, torch's) is found first and is the wrong major.", FIX_LIBS_SHADOWED),
            c("driver.too_old_for_toolkit", 0.15, "The driver is older than the CUDA the provider needs.", FIX_DRIVER_UPGRADE),
        ],
        hints: &[],
        tells_apart: "The majors the message names against `ldconfig -p | grep -E 'cudnn|cublas'` (Windows: the DLLs on PATH).",
    },
    Rule {
        id: "onnxruntime.cpu_package",
        title: "ONNX Runtime has no CUDA provider",
        pattern: r"(?:Specified provider '?CUDAExecutionProvider'? is not in available provider names|get_available_providers\(\)[^\n]{0,40}\[\s*'CPUExecutionProvider'\s*\]|CUDAExecutionProvider (?:is )?not available|(?:Providers|providers)\b[^\n]{0,20}\n?[^\n]{0,10}\[\s*(?:'(?:Azure|CPU)ExecutionProvider',?\s*)+\])",
        priority: 47,
        causes: &[
            c("torch.cpu_only", 0.7, "The installed ONNX Runtime is the CPU package (`onnxruntime`, or a source build without --use_cuda): it has no CUDA provider at all.", "`pip uninstall onnxruntime onnxruntime-gpu && pip install onnxruntime-gpu` (the release built for your CUDA major)."),
            c("torch.multiple_installs", 0.3, "Both onnxruntime and onnxruntime-gpu are installed; the CPU one's files win.", "Uninstall both and install only onnxruntime-gpu."),
        ],
        hints: &[],
        tells_apart: "`pip list | grep -i onnxruntime`: only onnxruntime-gpu must be there.",
    },
    Rule {
        id: "torch.alloc_conf",
        title: "PYTORCH_CUDA_ALLOC_CONF rejected",
        pattern: r"(?:Unrecognized CachingAllocator option: [\w:]+|expandable_segments not supported on this platform|Expected a single True/False argument for expandable_segments|PYTORCH_(?:CUDA_)?ALLOC_CONF[^\n]{0,80}(?:invalid|not supported|unrecognized))",
        priority: 86,
        causes: &[c("env.alloc_conf_invalid", 0.95, "PYTORCH_CUDA_ALLOC_CONF (or PYTORCH_ALLOC_CONF) holds an option this PyTorch does not know or a value it rejects (e.g. `expandable_segments:true` in lower case, or an option from a newer release).", "Fix the variable: `export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True` (capital T), or unset it.")],
        hints: &[],
        tells_apart: "`echo $PYTORCH_CUDA_ALLOC_CONF $PYTORCH_ALLOC_CONF` against the torch version's documented options.",
    },
    Rule {
        id: "cuda.invalid_argument",
        title: "CUDA invalid argument",
        pattern: r"(?:CUDA error: invalid argument|cudaErrorInvalidValue|CUDA_ERROR_INVALID_VALUE)",
        priority: 30,
        causes: &[
            c("workload.library_bug", 0.45, "A library passed an argument CUDA rejects (often a shared-memory request larger than this GPU allows, or an invalid pointer/size).", FIX_LIBRARY_BUG),
            c("ext.arch_unsupported", 0.25, "An extension's kernel asks for more shared memory than this GPU architecture offers (built/tuned for a newer GPU).", FIX_EXT_ARCH),
            c("workload.illegal_address", 0.2, "Invalid tensor pointers or sizes from the job.", FIX_ILLEGAL),
            c("driver.too_old_for_torch", 0.1, "An API the build uses is not supported by this older driver.", FIX_DRIVER_UPGRADE),
        ],
        hints: &[h(EXTENSIONS, "ext.arch_unsupported", 0.15)],
        tells_apart: "The frame that raised it and the GPU: shared-memory-heavy kernels (flash-attn, triton) tuned for sm_80+ fail this way on smaller GPUs.",
    },
    // ---------------------------------------------------------------- kernel log
    Rule {
        id: "gpu.xid",
        title: "Xid error in the kernel log",
        pattern: r"(?:NVRM: Xid \(PCI:([0-9A-Fa-f:.]+)\): (\d{1,3})\b[^\n]*|\bXid(?: error)?[ :]+(\d{1,3})\b[^\n]*|GPU has fallen off the bus[^\n]*)",
        priority: 90,
        causes: &[],
        hints: &[],
        tells_apart: "The Xid number: see NVIDIA's Xid catalogue (docs.nvidia.com/deploy/xid-errors).",
    },
    // The GPU's own exception report for a faulting thread, as cuda-gdb or the driver prints it
    // ("CUDA Exception: Warp Out-of-range Address", CUDA_EXCEPTION_5): the hardware caught the
    // program's kernel reading or writing outside its memory, the same fault Xid 13 logs
    // (kysucix/gipuma#18, ferdymercury/RayTraceDicom#2).
    Rule {
        id: "gpu.warp_exception",
        title: "a GPU thread faulted (warp/lane exception)",
        pattern: r"(?:CUDA Exception: (?:Warp|Lane|Device) [A-Za-z][\w -]{3,40}|\bCUDA_EXCEPTION_\d{1,2}\b[^\n]{0,60}|(?:Warp|Lane) (?:Out-of-range Address|Illegal Address|Misaligned Address|Illegal Instruction))",
        priority: 66,
        causes: &[
            c("workload.illegal_address", 0.75, "The GPU stopped a thread of the program's kernel that addressed memory outside what it owns (an index past an array, a shared-memory bound, a misaligned or stale pointer): a bug in the kernel or the sizes it was launched with, not the GPU.", FIX_ILLEGAL),
            c("workload.library_bug", 0.2, "The faulting kernel is a library's (the frame names it), at these shapes.", FIX_LIBRARY_BUG),
            c("gpu.xid", 0.05, "Only faults that repeat across unrelated programs point at the GPU.", FIX_XID_HW),
        ],
        hints: &[h(EXTENSIONS, "workload.library_bug", 0.2)],
        tells_apart: "`compute-sanitizer ./program` (or `cuda-gdb` with `-G`) names the kernel, the thread and the address; a fault in your own kernel is your indexing.",
    },
    // ---------------------------------------------------------------- containers
    // A Dockerfile step that needs the GPU: `docker build` runs RUN steps without GPU access
    // (no --gpus for builds; Docker Desktop and BuildKit alike), so torch sees no CUDA and
    // nvidia-smi finds no driver there (docker/for-win#12903).
    Rule {
        id: "container.build_step_gpu",
        title: "a docker build step uses the GPU",
        pattern: r"(?:^[ \t#>=0-9\[\]./a-z-]*\b(?-i:RUN)\b[^\n]*(?:torch\.cuda|cuda\.is_available|nvidia-smi|cupy|tf\.config\.list_physical_devices|--device[= ]cuda)|\bdocker(?:-compose| compose)? (?:build|buildx)\b[^\n]*\n(?:[^\n]*\n){0,6}?[^\n]*(?:torch\.cuda\.is_available|nvidia-smi))",
        priority: 50,
        causes: &[
            c("host.container_no_gpu", 0.85, "`docker build` gives its RUN steps no GPU (there is no `--gpus` for builds, with BuildKit or Docker Desktop alike): a step that checks or uses CUDA sees none, although containers run from the image can.", "Do not use the GPU while building: move the CUDA check or GPU work to the container's start (ENTRYPOINT/CMD) and run it with `docker run --gpus all`; to compile CUDA code in a build, set TORCH_CUDA_ARCH_LIST so nothing needs a GPU."),
            c("driver.too_old_for_toolkit", 0.15, "The image's CUDA is newer than the host driver supports.", "Use an image whose CUDA the host driver supports (`nvidia-smi` shows it), or upgrade the host driver."),
        ],
        hints: &[],
        tells_apart: "Does the same command succeed in `docker run --gpus all <image> ...`? Then only the build step lacks the GPU.",
    },
    // nvidia-smi (and the driver's libraries) are not in a container's image: the NVIDIA
    // runtime injects them when the container or pod gets a GPU through it (`--gpus`, the
    // `nvidia` runtime class, CDI). Missing inside a container or pod, the runtime was not
    // used (mudler/LocalAI#2117, NVIDIA/nvidia-container-runtime#147, canonical/microk8s#4408);
    // missing on a host, the driver's utilities are not installed.
    Rule {
        id: "container.nvidia_smi_missing",
        title: "nvidia-smi is missing or does not work where the job runs",
        pattern: r"(?:\bnvidia-smi\x22?:?\s*(?:command not found|not found|executable file not found[^\n]{0,40}|No such file or directory)|\bnvidia-smi\b[^\n]{0,30}\b(?:is not installed|not installed|is missing|mapped into a container as a blank file|is an? (?:empty|blank) file)|\b(?:can'?t|cannot|unable to|could not|couldn'?t)\s+(?:get|make)\s+nvidia-smi\s+(?:to\s+)?(?:work|run)\b[^\n]{0,40}|\bnvidia-smi\s+(?:doesn'?t|does not|won'?t|will not)\s+(?:work|run)\b[^\n]{0,40})",
        priority: 46,
        causes: &[
            c("driver.not_installed", 0.5, "nvidia-smi comes with the NVIDIA driver's utilities: on a host without them (driver not installed, or only the kernel module), the command does not exist.", FIX_DRIVER_INSTALL),
            c("host.container_no_gpu", 0.45, "Inside a container or pod, nvidia-smi and the driver's libraries are injected by the NVIDIA runtime only when the GPU is requested through it (`docker run --gpus all`, `runtimeClassName: nvidia` or containerd's default runtime `nvidia`, a CDI device); without it they are missing or empty placeholders.", "Docker: `docker run --gpus all ...`; Kubernetes: `runtimeClassName: nvidia` in the pod spec (or `nvidia-ctk runtime configure --runtime=containerd --set-as-default`) plus a `nvidia.com/gpu` limit; podman: `--device nvidia.com/gpu=all` with a current CDI spec."),
        ],
        hints: &[
            h(r"\bpod\b|kubernetes|\bk8s\b|\bk0s\b|\bk3s\b|kubectl|runtimeClass|containerd|docker|podman|container|entrypoint|/aio/|Dockerfile|--gpus|\bimage:", "host.container_no_gpu", 0.5),
        ],
        tells_apart: "Run `nvidia-smi` on the host: if it works there, the container or pod did not get the GPU through the NVIDIA runtime.",
    },
    // ---- windows, WSL, Jetson (round 5)
    // Windows' loader failing on one of torch's own DLLs (c10, fbgemm, shm, asmjit, torch_cpu,
    // torch_python): those link against the Microsoft C++ runtime (msvcp140, vcruntime140_1) and
    // its OpenMP runtime (libomp140.x86_64.dll for torch 2.4's fbgemm); without them Windows
    // says "The specified module could not be found" for the DLL that needs them (pytorch/
    // pytorch#39734, #129568, #131662; torch's own "Microsoft Visual C++ Redistributable is not
    // installed" warning). A CUDA DLL of the build (cudnn*, cublas*, caffe2_nvrtc, *_cuda) missing
    // is the install's CUDA libraries instead (`framework.cuda_libs_unloadable`).
    Rule {
        id: "windows.torch_dll_load_failed",
        title: "Windows could not load one of torch's DLLs or its dependencies",
        pattern: r#"(?:Error loading "?[^"\n]{0,300}?\\torch\\lib\\[\w.-]+\.dll"?[^\n]{0,10} or one of its dependencies|\berror loading "?(?:fbgemm|c10|c10_cuda|torch_cpu|torch_python|shm|asmjit|uv)\.dll\b|Could not find module '[^'\n]{0,300}?\.dll'? \(or one of its dependencies\)|Microsoft Visual C\+\+ Redistributable is not installed|\[WinError 1114\][^\n]{0,200}|\[WinError 126\][^\n:'\x22]{0,80}[ \t]*(?:\r?\n|\z)|(?:from torch\._C import|import torch)[^\n]*\n(?:[^\n]*\n){0,3}?[^\n]*DLL load failed)"#,
        priority: 70,
        causes: &[
            c("host.msvc_runtime_missing", 0.6, "torch's own DLLs (c10, torch_cpu, fbgemm, shm, asmjit) need the Microsoft Visual C++ runtime (msvcp140.dll, vcruntime140_1.dll) and its OpenMP runtime (libomp140.x86_64.dll); when one is missing or too old, Windows reports the torch DLL itself as 'not found'.", "Install the latest Microsoft Visual C++ Redistributable for x64 (https://aka.ms/vs/17/release/vc_redist.x64.exe) and restart the shell; for torch 2.4.0's fbgemm.dll (libomp140.x86_64.dll) also install the C++ build tools or upgrade torch."),
            c("torch.wheel_deps_mismatch", 0.25, "The torch install is incomplete or mixed (an interrupted pip install, a CUDA DLL of the build missing), so a DLL it loads is absent.", "Reinstall torch in a fresh environment (`pip install --force-reinstall torch --index-url https://download.pytorch.org/whl/<cuXXX>`)."),
            c("workload.library_bug", 0.15, "A torch release for Windows shipped a DLL depending on a runtime it did not bundle (torch 2.4.0's fbgemm.dll and libomp140).", "Upgrade torch to the next patch release, or install the missing runtime."),
        ],
        hints: &[
            h(r"Visual C\+\+|\bVC\+\+|C\+\+ (?:build tools|redistributable|runtime)|vc_?redist|msvcp1\d\d|vcruntime1\d\d|libomp140|\bMSVC runtime", "host.msvc_runtime_missing", 0.5),
            h(r#"\\(?:cudnn\w*|cublas\w*|cudart\w*|cufft\w*|curand\w*|cusparse\w*|nvrtc\w*|caffe2_nvrtc|\w+_cuda|nvToolsExt\w*)\.dll"#, "torch.wheel_deps_mismatch", 0.6),
        ],
        tells_apart: "`where msvcp140.dll vcruntime140_1.dll libomp140.x86_64.dll` (Windows) lists which runtimes are found; Dependencies (lucasg) on the failing DLL names the missing one.",
    },
    // cuDNN 8.3+ on Windows loads zlibwapi.dll, which NVIDIA's cuDNN install guide tells users to
    // put on PATH themselves (NickSwardh/YoloDotNet#18, PaddlePaddle/PaddleOCR#8400); "error
    // code 193" is a 32-bit copy.
    Rule {
        id: "cudnn.zlibwapi_missing",
        title: "cuDNN could not find zlibwapi.dll",
        // (also in the reporter's words, and in any language: "zlibwapi.dll not found", a
        // cuDNN DLL failing beside "zlibwapi.dll找不到", which the ASCII shadow cannot read)
        pattern: r"Could not (?:locate|load library) zlibwapi\.dll|zlibwapi\.dll[^\n]{0,40}(?:not found|missing|cannot be found|was not found|is not found)|(?:missing|cannot find|can't find|could not find|no)\s[^\n]{0,20}zlibwapi\.dll|cudnn\w*\.dll[\s\S]{0,300}?zlibwapi\.dll|zlibwapi\.dll[\s\S]{0,300}?cudnn\w*\.dll",
        priority: 79,
        causes: &[
            c("torch.wheel_deps_mismatch", 0.9, "cuDNN 8.3 and later on Windows needs zlib (zlibwapi.dll, 64-bit) beside it, which its installer does not ship: the cuDNN installation is incomplete.", "Put a 64-bit zlibwapi.dll (NVIDIA's cuDNN install guide, 'Installing Zlib') in the CUDA bin folder on PATH (e.g. C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8\\bin), or use a cuDNN 8.9.x/9 build that no longer needs it."),
            c("torch.libs_shadowed", 0.1, "Another program's 32-bit zlibwapi.dll is found first on PATH (error code 193).", "Remove the folder with the 32-bit zlibwapi.dll from PATH or put the 64-bit one before it."),
        ],
        hints: &[h(r"zlibwapi\.dll\. Error code 193|32-bit", "torch.libs_shadowed", 0.9)],
        tells_apart: "`where zlibwapi.dll`: none found means install it; a 32-bit copy first (error 193) means fix PATH.",
    },
    // Windows' display watchdog (WDDM TDR, 2 s by default) resets a GPU that also drives a
    // display when one kernel runs too long: CUDA reports 'the launch timed out and was
    // terminated' (702), or 'unknown error' (999) after the reset, and the screen flickers black
    // (rogerallen/raytracinginoneweekendincuda#7, numba/numba#9381, Purfview/whisper-standalone-win#411).
    // Linux's X server has the same watchdog on a display GPU.
    Rule {
        id: "cuda.launch_timeout",
        title: "the launch timed out and was terminated (the display watchdog)",
        pattern: r"(?:the launch timed out and was terminated|cudaErrorLaunchTimeout|CUDA_ERROR_LAUNCH_TIMEOUT|display driver[^\n]{0,40}(?:stopped responding|has recovered)|\bTDR\b|Tdr(?:Delay|Level)|Timeout Detection and Recovery)",
        priority: 60,
        causes: &[
            c("gpu.display_watchdog", 0.75, "The GPU also drives a display, so the OS's watchdog (Windows' TDR, 2 seconds by default; X's on Linux) kills any kernel that runs longer and resets the GPU.", "Run the compute on a GPU without a display (Windows: a TCC-mode GPU; Linux: stop X or use another GPU for it), make each kernel shorter (smaller batches or tiles), or raise the watchdog (Windows: HKLM\\SYSTEM\\CurrentControlSet\\Control\\GraphicsDrivers TdrDelay, then reboot)."),
            c("workload.library_bug", 0.15, "A kernel that never finishes (an endless loop, a deadlock) runs into the watchdog whatever its limit.", FIX_LIBRARY_BUG),
            c("gpu.xid", 0.1, "The GPU hung for a hardware or driver reason and the watchdog reset it (Xid lines on Linux).", FIX_XID_HW),
        ],
        hints: &[
            h(r"\bXid\b", "gpu.xid", 0.5),
            h(r"(?:worked|runs?|ran) (?:fine )?(?:before|until)|infinite loop|deadlock|hangs? forever", "workload.library_bug", 0.3),
        ],
        tells_apart: "Does the GPU drive a display (nvidia-smi 'Disp.A On', WDDM mode, numba's 'Watchdog: Enabled')? Does a smaller batch or resolution run? Then it is the watchdog.",
    },
    // A CUDA failure with the screen going black at the same moment: the display GPU was reset by
    // the watchdog (error 999 after a TDR: rogerallen/raytracinginoneweekendincuda#7).
    Rule {
        id: "cuda.display_reset",
        title: "a CUDA failure while the screen went black",
        pattern: r"(?:screen|display|monitor)s? (?:goes|went|turns?|turned|going|flickers?|flickered) (?:black|blank|off)[^\n]{0,60}",
        // Above the bare 'unknown error' (999) a reset leaves behind.
        priority: 45,
        causes: &[
            c("gpu.display_watchdog", 0.7, "The GPU also drives the display and the OS's watchdog reset it in the middle of a long kernel: the screen blanks and CUDA reports an error (often 999 'unknown error' or 702).", "Shorten each kernel (smaller image, fewer samples per launch), run on a GPU without a display, or raise Windows' TdrDelay."),
            c("gpu.xid", 0.2, "The GPU faulted or fell off the bus (Xid 79), taking the display with it.", FIX_XID_HW),
            c("gpu.throttled", 0.1, "Power delivery fails under load and the GPU resets.", "Check the PSU and `nvidia-smi -q -d POWER,TEMPERATURE`."),
        ],
        hints: &[h(r"\bXid\b|fallen off the bus", "gpu.xid", 0.6)],
        tells_apart: "Only long launches fail, and short ones run: the watchdog. Xid 79 or a GPU missing afterwards: the hardware.",
    },
    // TensorFlow's start-up line on a machine without the CUDA runtime: a warning after which it
    // runs on the CPU ('Ignore above cudart dlerror if you do not have a GPU set up on your
    // machine'); a failure only where the user expected the GPU (google/lightweight_mmm#23 runs;
    // tensorflow/tensorflow#57103 has a GPU it does not use).
    Rule {
        id: "tensorflow.cudart_dlerror",
        title: "TensorFlow did not find the CUDA runtime (a start-up warning)",
        pattern: r"(?:Could not load dynamic library '(?:cudart64_\d+\.dll|libcudart\.so\.[\d.]+)'; dlerror|Ignore above cudart dlerror if you do not have a GPU set up)",
        priority: 79,
        causes: &[
            c("none", 0.55, "TensorFlow looks for the CUDA runtime at import on every machine and prints this warning where it is not installed; it then runs on the CPU. On a machine without a GPU, or when the CPU is what you want, nothing is wrong.", "Nothing to fix for a CPU run. For the GPU: install the CUDA runtime and cuDNN of the major the TensorFlow release was built for (TF 2.4-2.10: CUDA 11.x, cuDNN 8), or on Linux `pip install tensorflow[and-cuda]`; TF after 2.10 has no GPU support on native Windows (use WSL2)."),
            c("torch.wheel_deps_mismatch", 0.45, "The user expects the GPU and the CUDA runtime and cuDNN of the major TensorFlow was built for are not installed or not on PATH, so TensorFlow runs on the CPU.", "Install the CUDA runtime and cuDNN of the major the TensorFlow release was built for (cudart64_110.dll: CUDA 11.x) and put their bin folders on PATH; on Linux `pip install tensorflow[and-cuda]`."),
        ],
        hints: &[
            h(r"(?:have|has|got|with) (?:a |an |my |the )?(?:NVIDIA |nvidia )?(?:GPU|graphics card|video card)|GeForce|\bRTX\b|\bGTX\b|Quadro|Tesla|Found device \d|Cannot dlopen some GPU libraries|Skipping registering GPU devices|not (?:using|use|detect\w*) (?:the |my )?GPU|(?:only|instead) (?:uses?|using|runs? on) (?:the )?CPU|GPU support|cuDNN|Could not load dynamic library '(?:cublas|cudnn|cufft|curand|cusolver|cusparse)", "torch.wheel_deps_mismatch", 0.5),
            h(r"Traceback \(most recent|(?-i:[A-Z]\w*Error): |\bfailed\b", "torch.wheel_deps_mismatch", 0.3),
        ],
        tells_apart: "Does the paste expect the GPU (a GPU named, 'Found device', 'Cannot dlopen some GPU libraries', a failure after it)? Then the CUDA libraries are missing; otherwise it is TensorFlow's CPU fallback.",
    },
    // A Mac has no NVIDIA GPU (Apple silicon, or Intel/AMD graphics; macOS has had no CUDA
    // since 10.13): a CUDA request there fails however torch was installed (vietai/mTet#7,
    // dwrensha/acronymy-assistant#2): the fix is the CPU or MPS, not another torch.
    Rule {
        id: "mac.cuda_requested",
        title: "CUDA asked for on a Mac",
        pattern: r"(?:\bmac ?book|\bmac ?os\b|\bOS ?X\b|apple silicon|\bApple M[1-5]\b|\bM[1-5] (?:Pro|Max|Ultra|Mac|chip|macbook)\b|\bon (?:an? |my )?(?:M[1-5]|mac)\b|\bdarwin\b|\biMac\b)[\s\S]{0,1500}?(?:Torch not (?:being |been )?compiled with CUDA enabled|Found no NVIDIA driver on your system|not (?:being |been )?compiled with CUDA)|(?:Torch not (?:being |been )?compiled with CUDA enabled|Found no NVIDIA driver on your system|not (?:being |been )?compiled with CUDA)[\s\S]{0,1500}?(?:\bmac ?book|\bmac ?os\b|\bOS ?X\b|apple silicon|\bApple M[1-5]\b|\bM[1-5] (?:Pro|Max|Ultra|Mac|chip|macbook)\b|\bon (?:an? |my )?(?:M[1-5]|mac)\b|\bdarwin\b|\biMac\b)",
        priority: 96,
        causes: &[
            c("host.no_nvidia_gpu", 0.85, "A Mac has no NVIDIA GPU (Apple silicon's GPU, or Intel/AMD graphics), and macOS has no CUDA at all: every torch for macOS is built without CUDA, so code that asks for 'cuda' cannot run there.", "Run on the CPU or on Apple's GPU through MPS (`device = \"mps\" if torch.backends.mps.is_available() else \"cpu\"`, or the program's `--device mps` / `--device cpu`), or run the CUDA code on a machine with an NVIDIA GPU (a cloud instance, Colab)."),
            c("torch.cpu_only", 0.15, "The torch installed is the CPU-only build.", "On a machine with an NVIDIA GPU, install a CUDA build of torch (`pip install torch --index-url https://download.pytorch.org/whl/cu126`)."),
        ],
        hints: &[],
        tells_apart: "`uname -sm` (Darwin arm64 is Apple silicon): on a Mac the answer is MPS or the CPU; `torch.backends.mps.is_available()`.",
    },
    // Texts from AMD's ROCm/HIP or Intel's XPU stacks pasted to a CUDA tool: the machine's GPU is
    // not NVIDIA's, so no NVIDIA driver, CUDA or check of this tool applies (ROCm/rocALUTION#197's
    // gfx1031; torch's "HIP error: invalid device function" with AMD_SERIALIZE_KERNEL; sdnext's
    // c10_xpu.dll with --use-ipex). torch's collect_env always prints "HIP runtime version: N/A",
    // so those lines are not evidence; nor are ROCm's variable names with no value, which
    // Ollama's "server config env=map[...]" lists on every machine (ollama/ollama#8963).
    Rule {
        id: "gpu_stack.not_nvidia",
        title: "an error from AMD's ROCm/HIP or Intel's XPU stack",
        pattern: r"(?:\bHIP error\b|\bhipError[A-Z]\w+|\b(?:HSA_OVERRIDE_GFX_VERSION|HIP_VISIBLE_DEVICES|ROCR_VISIBLE_DEVICES)(?:\s*[=:]\s*[\x22']?\d|[ \t]+[a-z(]|[`'\x22,.)])|AMD_SERIALIZE_KERNEL|TORCH_USE_HIP_DSA|ROCk module (?:version|is (?:NOT )?loaded)|amdgcn-amd-amdhsa|rocBLAS error|MIOpen (?:Error|error)|\bc10_xpu\.dll|intel_extension_for_pytorch|\btorch\.xpu\b|--use-ipex|UR_RESULT_ERROR|ZE_RESULT_ERROR|PI_ERROR_\w+)",
        priority: 93,
        causes: &[
            c("host.no_nvidia_gpu", 0.9, "The error comes from AMD's ROCm/HIP (or Intel's oneAPI/XPU) stack: the program runs on a non-NVIDIA GPU, where no NVIDIA driver, CUDA library or check of this tool applies (torch's ROCm builds keep the 'cuda' device name, so 'cuda' in such a text is no NVIDIA GPU).", "Take it to the GPU vendor's stack: for ROCm, a torch built for the installed ROCm and a GPU on its support list (`rocminfo`; unsupported RDNA GPUs often run with `HSA_OVERRIDE_GFX_VERSION=10.3.0` or `11.0.0`); for Intel, the XPU build of torch and the oneAPI runtime."),
            c("torch.cpu_only", 0.1, "The torch installed has no build for the GPU present at all.", "Install the torch build for the machine's GPU vendor (ROCm: `--index-url https://download.pytorch.org/whl/rocm6.x`; Intel: `/whl/xpu`)."),
        ],
        hints: &[],
        tells_apart: "`lspci | grep -iE 'vga|3d|display'` names the GPU's vendor; `torch.version.hip` set means a ROCm build.",
    },
    // pip's torch wheels for aarch64 are CPU-only or built for Arm servers (SBSA), never for
    // Jetson's integrated GPU: on a Jetson they install and import, and CUDA is unavailable
    // (Lmy0217/PyTorch-aarch64#3, dusty-nv/jetson-inference#1932). Jetson needs NVIDIA's
    // JetPack wheels (or jetson-containers).
    Rule {
        id: "jetson.torch_without_cuda",
        title: "torch without CUDA on a Jetson",
        pattern: r"(?:\bjetson\b|\bjetpack\b|\bL4T\b|\btegra\b|\bOrin\b|\bXavier\b)[\s\S]{0,600}?(?:cuda\.is_available\(\)[^\n]{0,20}?(?:returns?|returned|gives|is|=+|:|->|prints?)?\s*`?false|Is CUDA available: False|CUDA available:\s*False)|(?:cuda\.is_available\(\)[^\n]{0,20}?(?:returns?|returned|gives|is|=+|:|->|prints?)?\s*`?false|Is CUDA available: False|CUDA available:\s*False)[\s\S]{0,600}?(?:\bjetson\b|\bjetpack\b|\bL4T\b|\btegra\b|\bOrin\b|\bXavier\b)",
        priority: 50,
        causes: &[
            c("torch.cpu_only", 0.7, "The torch installed is not a Jetson build: pip's aarch64 wheels are CPU-only or built for Arm servers (SBSA) with a discrete GPU, and none of them drives Jetson's integrated GPU, so CUDA is unavailable although the import works.", "Install NVIDIA's torch wheel for this JetPack and Python (the 'PyTorch for Jetson' wheels, or `pip install torch --index-url https://pypi.jetson-ai-lab.io/jp6/cu126` on JetPack 6), or use a jetson-containers l4t-pytorch image for this L4T release."),
            c("torch.wheel_deps_mismatch", 0.2, "A Jetson wheel built for another JetPack (another CUDA) or Python than the device's.", "Use the wheel built for the device's JetPack (`cat /etc/nv_tegra_release`) and Python."),
            c("host.container_no_gpu", 0.1, "Inside a container started without the NVIDIA runtime, the Jetson's GPU and CUDA libraries are not mounted.", "Start the container with `--runtime nvidia`."),
        ],
        hints: &[
            h(r"docker|container|--runtime", "host.container_no_gpu", 0.3),
            h(r"JetPack[^\n]{0,40}(?:wheel|whl)|nvidia\.box\.com|developer\.download\.nvidia\.com/compute/redist/jp", "torch.wheel_deps_mismatch", 0.4),
        ],
        tells_apart: "`python -c 'import torch; print(torch.__version__, torch.version.cuda)'`: cuda None is a CPU build; a Jetson build's version names the JetPack (e.g. `2.1.0a0+41361538.nv23.06`).",
    },
    // On JetPack 4 (L4T R32) the l4t images carry no CUDA libraries: the NVIDIA container runtime
    // mounts the host's (the CSV lists under /etc/nvidia-container-runtime/host-files-for-
    // container.d). A container run or built without that runtime (`docker build` needs
    // "default-runtime": "nvidia"), a host without those files, or an image for another L4T
    // release finds libcurand/libcublas missing (dusty-nv/jetson-containers#93, #194).
    Rule {
        id: "jetson.container_cuda_libs_missing",
        title: "CUDA libraries missing inside a Jetson (l4t) container",
        pattern: r"(?:(?:nvcr\.io/nvidia/l4t|\bl4t-(?:pytorch|ml|base|tensorflow|r\d+)|-l4t-r\d+)[\s\S]{0,3000}?(?:lib(?:curand|cublas|cublasLt|cudart|cufft|cudnn|cusparse|cusolver|nvinfer|nvrtc)\.so[.\d]*(?::? cannot open shared object file| not found)|not found[^\n]{0,10}\blib(?:curand|cublas|cudart|cudnn|cufft)\w*\.so|set to NOTFOUND[\s\S]{0,400}?\bCUDA_\w+_LIBRARY\b|\bCUDA_\w+_LIBRARY\b[^\n]{0,40}NOTFOUND)|(?:lib(?:curand|cublas|cublasLt|cudart|cufft|cudnn|cusparse|cusolver|nvinfer|nvrtc)\.so[.\d]*(?::? cannot open shared object file| not found)|not found[^\n]{0,10}\blib(?:curand|cublas|cudart|cudnn|cufft)\w*\.so|set to NOTFOUND[\s\S]{0,400}?\bCUDA_\w+_LIBRARY\b|\bCUDA_\w+_LIBRARY\b[^\n]{0,40}NOTFOUND)[\s\S]{0,3000}?(?:nvcr\.io/nvidia/l4t|\bl4t-(?:pytorch|ml|base|tensorflow|r\d+)|-l4t-r\d+))",
        // Above the plain missing-library rules (84): the l4t image decides.
        priority: 86,
        causes: &[
            c("host.container_no_gpu", 0.75, "On JetPack 4 the l4t container images carry no CUDA libraries: the NVIDIA container runtime mounts them from the host. A container started or built without that runtime (docker build uses it only as the default runtime), or a host whose runtime lists lack them, gets none.", "Run with `--runtime nvidia`; for `docker build` set `\"default-runtime\": \"nvidia\"` in /etc/docker/daemon.json and restart docker; check the lists in /etc/nvidia-container-runtime/host-files-for-container.d/ (reinstall nvidia-container-csv-* / nvidia-container-toolkit from JetPack)."),
            c("torch.wheel_deps_mismatch", 0.25, "The image was built for another L4T release than the host's (`cat /etc/nv_tegra_release`), so the CUDA libraries the host mounts are of another version than the image's torch needs.", "Use the image tag of the host's L4T release (e.g. l4t-pytorch:r32.7.1-* on R32.7.1), or upgrade JetPack to the image's."),
        ],
        hints: &[
            h(r"R3[2-9] \(release\), REVISION|nv_tegra_release|JetPack ?[56]|\bR3[4-9]\.\d", "torch.wheel_deps_mismatch", 0.2),
        ],
        tells_apart: "`ls /usr/local/cuda/lib64` on the host and in the container: present on the host only means the runtime did not mount them; compare the image's L4T tag with `cat /etc/nv_tegra_release`.",
    },
    // nvidia-smi failing to reach the driver under WSL: WSL 1 (and Windows builds before GPU
    // paravirtualisation) give Linux no GPU at all (microsoft/WSL#3847); under WSL 2 the GPU comes
    // from the Windows driver through /dev/dxg and /usr/lib/wsl/lib, and a Linux NVIDIA driver
    // installed inside (nvidia-driver-*, nvidia-utils-*, the `cuda` or `cuda-drivers`
    // meta-packages) replaces nvidia-smi and libcuda with ones that look for a kernel module WSL
    // does not have (microsoft/WSL#5554, NVIDIA's WSL user guide).
    Rule {
        id: "wsl.gpu_unreachable",
        title: "nvidia-smi or CUDA cannot reach the GPU under WSL",
        pattern: r"(?:\bWSL ?[12]?\b|-microsoft-standard|-Microsoft\b|/usr/lib/wsl\b|\bUbuntu app\b)[\s\S]{0,1500}?(?:NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver|Found no NVIDIA driver on your system)|(?:NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver|Found no NVIDIA driver on your system)[\s\S]{0,1500}?(?:\bWSL ?[12]?\b|-microsoft-standard|/usr/lib/wsl\b)",
        priority: 80,
        causes: &[
            c("host.no_nvidia_gpu", 0.45, "WSL 1 (and Windows builds before GPU paravirtualisation, 10.0.19044 / 21H2 with a WSL-capable driver) give Linux no GPU at all: no driver inside can reach it.", "Use WSL 2 (`wsl --set-version <distro> 2`, `wsl -l -v` shows VERSION 2) on Windows 10 21H2+ or 11 with a current NVIDIA Windows driver; install no Linux driver inside."),
            c("driver.not_installed", 0.4, "Under WSL 2 the GPU comes from the Windows driver (/dev/dxg, /usr/lib/wsl/lib/libcuda.so.1); a Linux NVIDIA driver installed inside WSL (nvidia-driver-*, nvidia-utils-*, or the `cuda` / `cuda-drivers` meta-packages) puts an nvidia-smi and libcuda first that look for a kernel module WSL does not have.", "Inside WSL remove the Linux driver (`sudo apt purge 'nvidia-*' 'libnvidia-*'`), install only `cuda-toolkit-12-x` from NVIDIA's wsl-ubuntu repository, keep the Windows driver current, and run `/usr/lib/wsl/lib/nvidia-smi`."),
            c("driver.too_old_for_toolkit", 0.1, "The Windows driver is too old for WSL's GPU support or for the CUDA the program needs.", "Update the NVIDIA driver on Windows (not inside WSL)."),
            c("host.container_no_gpu", 0.05, "The program runs in a container inside WSL that did not get the GPU (podman or a docker engine inside WSL without the NVIDIA toolkit, where Docker Desktop's engine passes it).", FIX_CONTAINER),
        ],
        hints: &[
            h(r"\bWSL ?1\b|WSL version[: ]+1\b|4\.4\.0-\d+-Microsoft|Version 10\.0\.1(?:[0-8]\d{3}|90[0-3]\d|904[0-3])\b", "host.no_nvidia_gpu", 0.5),
            // The kernel's own name (4.4.0-NNNNN-Microsoft) is WSL 1, observed: it outweighs a
            // paste that calls the distro WSL 2 (microsoft/WSL#5554).
            h(r"\b4\.4\.0-\d+-Microsoft\b", "host.no_nvidia_gpu", 0.6),
            // WSL 2 named: not WSL 1's missing GPU.
            h(r"\bWSL ?2\b|WSL version[: ]+2\b", "host.no_nvidia_gpu", -0.3),
            h(r"docker|podman|container|\bpod\b|kubernetes", "host.container_no_gpu", 0.6),
            h(r"apt(?:-get)? install[^\n]{0,40}(?:nvidia-(?:driver|utils)|cuda-drivers|\bcuda\b(?:$|\s|-1\d))|NVIDIA-Linux-x86_64-[\d.]+\.run|dkms install -m nvidia", "driver.not_installed", 0.4),
        ],
        tells_apart: "`wsl -l -v` (Windows) shows the distro's WSL version; `ls /dev/dxg /usr/lib/wsl/lib` inside: both present under WSL 2; `dpkg -l | grep nvidia-` shows a Linux driver installed inside.",
    },
    // Windows programs that build a library path from the user's profile fail to load their DLLs
    // when the user name or a folder holds non-ASCII characters (ANSI code-page APIs mangle them):
    // ollama/ollama#3367 (Chinese user name), deepjavalibrary/djl#2315. The words of the paste, or
    // such a path beside a load failure, are the evidence (\x7f: a non-ASCII character in the
    // ASCII shadow the rules scan).
    Rule {
        id: "windows.non_ascii_path",
        title: "a library path with non-ASCII characters",
        pattern: r"(?:(?:user ?name|user folder|profile|path|folder|directory)[^\n]{0,60}\b(?:Chinese|Japanese|Korean|Cyrillic|Russian|Arabic|Greek|Hebrew|Thai|non-?ASCII|non-?English|unicode|accented|special) (?:characters?|letters?|symbols?)|(?:Chinese|Japanese|Korean|Cyrillic|Russian|non-?ASCII|non-?English|unicode|accented) (?:characters?|letters?)[^\n]{0,40}\b(?:user ?name|user folder|path|folder|directory)|[A-Za-z]:\\{1,2}Users\\{1,2}[^\\\n\x22']*\x7f[^\\\n\x22']*\\{1,2}[^\n]{0,200}(?:Error loading|could not be found|Failed to (?:load|open)|cannot (?:load|open|find)|WinError 126|error code 126)|(?:Error loading|could not be found|Failed to (?:load|open)|cannot (?:load|open|find)|WinError 126|error code 126)[^\n]{0,200}?[A-Za-z]:\\{1,2}Users\\{1,2}[^\\\n\x22']*\x7f)",
        priority: 80,
        causes: &[
            c("host.non_ascii_path", 0.5, "The library sits under a folder whose name has non-ASCII characters (often the Windows user name); programs and loaders that pass paths through ANSI code-page APIs mangle those characters, so the DLL is 'not found' although it is there.", "Install or run the program from a folder whose full path is ASCII only (e.g. C:\\ai\\), or point its model/library folder (OLLAMA_MODELS, HF_HOME, the venv) at one; a new Windows user with an ASCII name also works."),
            c("torch.wheel_deps_mismatch", 0.35, "A CUDA library the program needs is missing regardless of the path.", "Install the CUDA libraries the program's build names and make sure they are on PATH."),
            c("workload.library_bug", 0.15, "The program's own loader does not handle Unicode paths (a bug to report).", FIX_LIBRARY_BUG),
        ],
        hints: &[h(r"(?:Chinese|Japanese|Korean|Cyrillic|non-?ASCII|unicode|accented) (?:characters?|letters?)|(?:replac|renam|chang)\w* the user", "host.non_ascii_path", 0.5)],
        tells_apart: "Does the same program run from a folder whose path is ASCII only? Then it was the path.",
    },
    // A paste that names a non-NVIDIA GPU (AMD Radeon/RX, an AMD or Intel integrated GPU, Intel
    // Arc) or asks whether it needs an NVIDIA GPU, beside CUDA being unavailable: the machine has
    // no NVIDIA GPU for CUDA to use (ogkalu2/comic-translate#210, unit8co/darts#2252,
    // harakas/amd_igpu_yolo_v8#1). A laptop CPU "with Radeon Graphics" beside a GeForce is not it.
    Rule {
        id: "host.non_nvidia_gpu_named",
        title: "CUDA unavailable on a machine whose GPU is not NVIDIA's",
        pattern: r"(?:\bRadeon\b|\bAMD (?:GPU|graphics|card|Instinct)|\bRX ?\d{3,4}[A-Z]{0,2}\b|Intel(?:\(R\))? (?:Arc|Iris|U?HD)\b|\bArc A\d{3}M?\b|\biGPU\b|integrated (?:GPU|graphics)|need an? nvidia (?:GPU|graphics card|card)|(?:have|has|with|on|using) (?:an? )?(?:AMD|Intel) (?:GPU|graphics)|\bXPU\b)[\s\S]{0,1500}?(?:cuda\.is_available\(\)[^\n]{0,20}?(?:returns?|returned|gives|is|=+|:|->|prints?)?\s*[`*]*false|Invalid CUDA 'device=|No CUDA GPUs are available|no supported GPU backend|Found no NVIDIA driver|CUDA (?:is )?not available|not (?:being |been )?compiled with CUDA)|(?:cuda\.is_available\(\)[^\n]{0,20}?(?:returns?|returned|gives|is|=+|:|->|prints?)?\s*[`*]*false|Invalid CUDA 'device=|No CUDA GPUs are available|no supported GPU backend|Found no NVIDIA driver|CUDA (?:is )?not available|not (?:being |been )?compiled with CUDA)[\s\S]{0,1500}?(?:\bRadeon\b|\bAMD (?:GPU|graphics|card|Instinct)|\bRX ?\d{3,4}[A-Z]{0,2}\b|Intel(?:\(R\))? (?:Arc|Iris|U?HD)\b|\bArc A\d{3}M?\b|\biGPU\b|integrated (?:GPU|graphics)|need an? nvidia (?:GPU|graphics card|card)|(?:have|has|with|on|using) (?:an? )?(?:AMD|Intel) (?:GPU|graphics)|\bXPU\b)",
        // Above torch's own "not compiled with CUDA" (95): the GPU named decides.
        priority: 96,
        causes: &[
            c("host.no_nvidia_gpu", 0.7, "The GPU the paste names is not NVIDIA's (AMD Radeon, an integrated AMD or Intel GPU, Intel Arc): CUDA runs only on NVIDIA GPUs, so no torch or driver install makes CUDA available here.", "Run on the CPU (`device=cpu`), use the GPU vendor's stack (AMD: a ROCm build of torch on a supported GPU under Linux, or DirectML on Windows; Intel: torch's XPU build), or run on a machine with an NVIDIA GPU."),
            c("torch.cpu_only", 0.2, "The machine also has an NVIDIA GPU, and the installed torch is the CPU-only build.", "Install a CUDA build of torch (`pip install torch --index-url https://download.pytorch.org/whl/cu126`)."),
            c("driver.not_installed", 0.1, "The machine also has an NVIDIA GPU whose driver is missing.", FIX_DRIVER_INSTALL),
        ],
        hints: &[
            // An NVIDIA GPU named too (a laptop's AMD CPU "with Radeon Graphics" beside a GeForce).
            h(r"GeForce|\bRTX ?\d|\bGTX ?\d|Quadro|Tesla [A-Z]?\d|NVIDIA (?:[A-Z]\d|RTX|GeForce)|\+cpu\b", "host.no_nvidia_gpu", -0.6),
            h(r"\+cpu\b|CUDA used to build PyTorch: None", "torch.cpu_only", 0.3),
        ],
        tells_apart: "`nvidia-smi` (Linux) / Device Manager's display adapters (Windows): no NVIDIA adapter means no CUDA.",
    },
    // MPS (Apple's GPU backend) out of memory: the job does not fit in the unified memory share
    // MPS may use (Comfy-Org/ComfyUI#8984, lllyasviel/Fooocus#1139); nothing CUDA-related.
    Rule {
        id: "mps.out_of_memory",
        title: "MPS backend out of memory (Apple GPU)",
        pattern: r"MPS backend out of memory[^\n]{0,300}",
        priority: 60,
        causes: &[
            c("workload.out_of_memory", 0.9, "The job needs more than the share of the Mac's unified memory the MPS backend may use (its 'max allowed').", "Use a smaller model, quantisation, resolution or batch, close other applications; PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 lifts the limit at the risk of freezing the system."),
            c("gpu.busy", 0.1, "Other applications hold much of the unified memory ('other allocations').", "Close other memory-heavy applications and retry."),
        ],
        hints: &[],
        tells_apart: "'MPS allocated' near 'max allowed': the job itself; large 'other allocations': other programs.",
    },
    // A prebuilt program's CUDA code failing on a Jetson where it runs elsewhere: its binaries
    // were built for discrete GPUs (x86_64 or SBSA aarch64) and not for Tegra's integrated GPU
    // (ollama/ollama#6515: Orin support was still in progress; dusty-nv/jetson-containers builds
    // such programs for JetPack).
    Rule {
        id: "jetson.program_without_support",
        title: "a program's CUDA build failing on a Jetson",
        pattern: r"(?:\bjetson\b|\bOrin\b|\bXavier\b|\btegra\b|\bL4T\b|\bjetpack\b)[\s\S]{0,1500}?(?:ggml-cuda|llama runner|llama\.cpp|\bollama\b|vllm|onnxruntime|tensorrt_llm)[^\n]{0,200}|(?:ggml-cuda|llama runner|llama\.cpp|\bollama\b|vllm|onnxruntime|tensorrt_llm)[\s\S]{0,1500}?(?:\bjetson\b|\bOrin\b|\bXavier\b|\btegra\b|\bL4T\b|\bjetpack\b)[^\n]{0,100}",
        priority: 30,
        causes: &[
            c("workload.library_bug", 0.6, "The program's prebuilt CUDA code targets discrete GPUs (x86_64, or Arm servers with SBSA) and not Tegra's integrated GPU with its shared memory; its CUDA calls fail on a Jetson although the device is fine.", "Use a build of the program for JetPack (its Jetson release or a dusty-nv/jetson-containers image for this L4T), or a newer release that supports Jetson."),
            c("torch.wheel_deps_mismatch", 0.2, "A Jetson build for another JetPack (another CUDA) than the device's.", "Use the build for the device's JetPack (`cat /etc/nv_tegra_release`)."),
            c("workload.out_of_memory", 0.2, "The board's shared memory (CPU and GPU together) is exhausted.", "Use a smaller model or context, and free memory (stop the desktop: `sudo systemctl isolate multi-user.target`)."),
        ],
        hints: &[h(r"out of memory|cudaMalloc failed|NvMapMemAlloc", "workload.out_of_memory", 0.5)],
        tells_apart: "Does the same version run on an x86 GPU machine, and is there a Jetson build of it? `tegrastats` shows whether memory runs out.",
    },
    // NVML's "GPU access blocked by the operating system" is WSL's and GPU-PV's (Hyper-V guests
    // with dxgkrnl): the Windows side refuses the GPU or the Windows driver's files mapped into
    // Linux are incomplete (staralt/dxgkrnl-dkms#7: re-copying the driver store fixed it).
    Rule {
        id: "wsl.gpu_access_blocked",
        title: "GPU access blocked by the operating system (WSL / GPU-PV)",
        pattern: r"GPU access blocked by the operating system",
        priority: 64,
        causes: &[
            c("driver.not_installed", 0.6, "Under WSL 2 or a Hyper-V guest with GPU paravirtualisation the driver is the Windows one, its user-space files mapped into /usr/lib/wsl/lib; when they are incomplete or from another driver release than the host's, NVML is refused the GPU.", "Update the NVIDIA driver on Windows and run `wsl --update` and `wsl --shutdown`; in a GPU-PV VM copy the host's DriverStore nvidia folder and C:\\Windows\\System32\\lxss\\lib again (all files) into the guest's /usr/lib/wsl."),
            c("host.no_nvidia_gpu", 0.3, "The Windows host does not share this GPU with WSL/VMs (an edition or build without GPU paravirtualisation, a datacenter GPU in TCC mode, or policy).", "Check on Windows that the GPU is in WDDM mode (`nvidia-smi -q | findstr Driver Model`) and that the Windows build supports GPU in WSL (Windows 11 or Windows 10 21H2+)."),
            c("driver.too_old_for_toolkit", 0.1, "The Windows driver predates WSL's GPU support.", "Update the NVIDIA driver on Windows (not inside WSL)."),
        ],
        hints: &[h(r"TCC|Windows Server|10\.0\.(?:17763|20348)\b", "host.no_nvidia_gpu", 0.4)],
        tells_apart: "`nvidia-smi.exe` on Windows works? Then compare `ls /usr/lib/wsl/lib` with the Windows driver's files; TCC mode or Windows Server means the GPU is not shared.",
    },
    // ---- round 11a (clusters and clouds)
    // A vGPU guest whose licence the guest driver did not obtain: `nvidia-smi -q` says "License
    // Status : Unlicensed", nvidia-gridd failed to acquire one, or the text says the vGPU is
    // unlicensed. The guest driver then restricts the vGPU: performance capped after a short
    // grace period, and CUDA contexts refused ("busy or unavailable") on compute profiles
    // (NVIDIA/gpu-operator#220: allocations crawl after a few minutes, Unlicensed; Azure/AKS#4870
    // and #4880: a GRID driver without nvidia-gridd on A10 node images).
    Rule {
        id: "vgpu.unlicensed",
        title: "the vGPU runs without a licence",
        pattern: r"(?:License Status\s*:\s*Unlicensed|\bunlicensed\b[^\n]{0,60}\b(?:vGPU|GRID|GPU|state|mode)\b|\b(?:vGPU|GRID)\b[^\n]{0,80}\b(?:unlicensed|licen[cs]e[sd]? (?:was |is )?(?:not acquired|expired|missing|lost|issues?|problems?))|Failed to acquire (?:a )?licen[cs]e|nvidia-gridd[^\n]{0,80}\b(?:fail\w*|error|not running|missing|not (?:part|installed)))",
        priority: 78,
        causes: &[
            c("gpu.throttled", 0.45, "The vGPU guest driver got no licence (no license server reachable, no client token, nvidia-gridd not running): an unlicensed vGPU runs restricted, its performance capped after a short grace period, so work crawls minutes after it starts.", "Check `nvidia-smi -q | grep -A2 -i licen`; configure /etc/nvidia/gridd.conf and the client configuration token, `sudo systemctl enable --now nvidia-gridd` and read its log (`journalctl -u nvidia-gridd`); on a cloud node image use the provider's GRID driver build (its node-image update) rather than a plain CUDA driver."),
            c("driver.cuda_init_failed", 0.45, "The vGPU guest driver got no licence, and an unlicensed compute vGPU refuses CUDA contexts: CUDA answers 'busy or unavailable' (or NVML errors) while nvidia-smi lists the GPU idle.", "License the vGPU: `nvidia-smi -q | grep -A2 -i licen` must say Licensed; configure gridd.conf and the client token and restart nvidia-gridd, or move the node to an image whose GRID driver installs nvidia-gridd."),
        ],
        hints: &[
            h(r"\bslow\w*|throttl\w*|\bminutes\b|\bfps\b|frame ?rate|performance", "gpu.throttled", 0.3),
            h(r"busy or unavailable|Failed to initialize NVML|initialization error|no CUDA-capable device|cuInit|device errors", "driver.cuda_init_failed", 0.3),
        ],
        tells_apart: "`nvidia-smi -q | grep -A2 -i licen` in the guest: 'Unlicensed' with slow work is the cap; with CUDA refusing contexts it is the refusal. Licensing fixes both.",
    },
    // Work that becomes many times slower (or stuck) a few minutes after it starts: a GPU that
    // reaches a thermal or power limit, or a vGPU the guest driver restricts when unlicensed
    // (Azure/AKS#4868: "2000+ times slower after running CUDA for several minutes" on A10 vGPU
    // nodes, closed with the GRID licensing fix).
    Rule {
        id: "gpu.slows_after_minutes",
        title: "the GPU slows down a few minutes into the run",
        pattern: r"(?:\bslow\w*|throttl\w*|\bstuck\b|crawl\w*|freez\w*)\b[^\n]{0,80}\bafter (?:running [^\n]{0,30}?for )?(?:a few|a couple of|several|some|\d+) minutes\b|\bafter (?:a few|a couple of|several|some|\d+) minutes\b[^\n]{0,80}(?:\bslow\w*|throttl\w*|\bstuck\b|crawl\w*)",
        priority: 38,
        causes: &[
            c("gpu.throttled", 0.6, "The GPU is held below its speed some minutes into the run: a temperature or power limit reached, or on a virtual GPU (cloud NV/A10 vGPU nodes, VMware/Citrix guests) the guest driver capping an unlicensed vGPU after its grace period.", "Under load watch `nvidia-smi -q -d PERFORMANCE,TEMPERATURE,POWER` (active slowdown reasons name the limit); on a vGPU check `nvidia-smi -q | grep -A2 -i licen` and license it (gridd.conf, client token, nvidia-gridd)."),
            c("workload.library_bug", 0.2, "The program itself does more work per step as it runs (a growing graph, a leak).", "Profile a step early and late in the run."),
        ],
        hints: &[
            h(r"\bvGPU\b|\bGRID\b|VMware|vSphere|Citrix|\bA10\b|\bNV\d*ads\b|Standard_NV|\bAKS\b|Azure|licen[cs]", "gpu.throttled", 0.2),
            h(r"memory (?:grows|leak)|graph (?:grows|keeps growing)|inside the (?:training )?loop", "workload.library_bug", 0.5),
        ],
        tells_apart: "`nvidia-smi -q -d PERFORMANCE` when it is slow: an active slowdown reason is the limit; on a vGPU, the licence status.",
    },
    // kubelet refusing a pod because the GPUs it would get are gone: "Allocate failed due to
    // requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0"
    // (UnexpectedAdmissionError). Another pod was admitted to the node's GPUs first (the GPU
    // operator's validator racing a pending workload: NVIDIA/gpu-operator#233), or the device
    // plugin marked GPUs unhealthy (an Xid) after the scheduler counted them.
    Rule {
        id: "k8s.devices_taken",
        title: "kubelet found the node's GPUs already allocated",
        pattern: r"(?:requested number of devices unavailable for [\w./-]*gpu[^\n]{0,80}|UnexpectedAdmissionError[^\n]{0,120}\bnvidia\.com/gpu[^\n]{0,60})",
        priority: 60,
        causes: &[
            c("none", 0.55, "Every GPU of the node is already allocated: another pod (a pending workload, a second replica) was admitted to it between scheduling and admission. The node and its GPUs are fine.", "List what holds the node's GPUs (`kubectl describe node <node>`: Allocated resources, nvidia.com/gpu) and wait for or move that pod; for the GPU operator's validator set `validator.plugin.env WITH_WORKLOAD=false`."),
            c("gpu.xid", 0.25, "The device plugin marked GPUs unhealthy (an Xid such as 48/79 on the node) after the scheduler counted them, so fewer are allocatable than expected.", "Read the device plugin's log and `dmesg | grep -i xid` on the node; a GPU with a fatal Xid needs a reset or reboot."),
            c("host.container_no_gpu", 0.1, "The device plugin restarted and re-registered no GPUs.", "`kubectl -n <ns> logs <device-plugin pod>`; check the node's Capacity/Allocatable nvidia.com/gpu."),
        ],
        hints: &[h(r"\bXid\b|unhealthy", "gpu.xid", 0.45)],
        tells_apart: "`kubectl describe node`: nvidia.com/gpu Allocatable against Allocated; the device plugin's log for unhealthy devices.",
    },
    // A program that parses CUDA_VISIBLE_DEVICES as integers meets a GPU or MIG UUID, which CUDA
    // accepts there (Kubernetes and Slurm set UUIDs; MIG slices are addressed by them):
    // "ValueError: invalid literal for int() with base 10: 'MIG-377e…'" (vllm-project/vllm#41848,
    // #13815). The program's bug, not the machine.
    Rule {
        id: "env.visible_devices_uuid_parsed",
        title: "the program cannot read a GPU/MIG UUID in CUDA_VISIBLE_DEVICES",
        pattern: r"invalid literal for int\(\) with base 10: ['\x22](?:MIG|GPU)-[0-9a-fA-F]",
        priority: 70,
        causes: &[
            c("workload.library_bug", 0.75, "CUDA_VISIBLE_DEVICES may name GPUs and MIG slices by UUID (Kubernetes' device plugin and MIG set them so), but this program converts each entry with int() and crashes before using the GPU.", "Upgrade the program to a release that accepts UUIDs; meanwhile give it indices (`CUDA_VISIBLE_DEVICES=0`, with MIG: the slice's index under `nvidia-smi -L`) where the environment allows."),
            c("env.visible_devices_invalid", 0.2, "CUDA_VISIBLE_DEVICES was set to UUIDs where this program needs plain indices.", "Set CUDA_VISIBLE_DEVICES to indices for this program."),
        ],
        hints: &[],
        tells_apart: "`echo $CUDA_VISIBLE_DEVICES`: a GPU-/MIG- UUID there is valid for CUDA; the traceback's int() is the program's.",
    },
    // The NVIDIA runtime installed but not the container engine's default: Kubernetes (and
    // installers that check it, such as OpenPAI's) run pods with runc, so the device plugin and
    // the workloads get no driver libraries ("The default runtime is not set correctly":
    // NVIDIA/nvidia-container-runtime#154; containerd without default_runtime_name = "nvidia":
    // NVIDIA/k8s-device-plugin#314).
    Rule {
        id: "container.runtime_not_default",
        title: "the NVIDIA container runtime is not the default runtime",
        pattern: r"(?:default runtime is not set correctly|(?:nvidia|NVIDIA)(?: container)? runtime (?:is )?not (?:set |configured )?(?:as )?(?:the )?default|default_runtime_name\s*=\s*[\x22']?runc\b|\bnot the default runtime\b)",
        priority: 55,
        causes: &[
            c("host.container_no_gpu", 0.85, "The NVIDIA container runtime is registered but the engine's default is still runc: pods and containers that do not name the nvidia runtime (the device plugin, the workloads) start without the driver's libraries and devices.", "Make it the default: docker `\"default-runtime\": \"nvidia\"` in /etc/docker/daemon.json; containerd `sudo nvidia-ctk runtime configure --runtime=containerd --set-as-default` (default_runtime_name = \"nvidia\"); restart the engine — or create a RuntimeClass `nvidia` and set `runtimeClassName: nvidia` in the pods."),
            c("driver.not_installed", 0.1, "The runtime is the default but the node has no working driver for it to inject.", "Check `nvidia-smi` on the node itself."),
        ],
        hints: &[],
        tells_apart: "`docker info | grep -i runtime` (Default Runtime) or `grep default_runtime_name /etc/containerd/config.toml`; the runtime must be nvidia (or the pod must name a RuntimeClass).",
    },
    // A program that overwrites the CUDA_VISIBLE_DEVICES the scheduler set (Slurm, Kubernetes):
    // jobs then run on GPUs they were not given, or see none (IsoNet-cryoET/IsoNet2#28).
    Rule {
        id: "env.visible_devices_overwritten",
        title: "the program overwrites the scheduler's CUDA_VISIBLE_DEVICES",
        pattern: r"(?:overwrit\w*|overrid\w*|clobber\w*|replac\w*|resets?)\b[^\n]{0,40}`?\bCUDA_VISIBLE_DEVICES\b|\bCUDA_VISIBLE_DEVICES\b`?[^\n]{0,40}\b(?:gets? |is |was )?(?:overwritten|overridden|clobbered|replaced)",
        priority: 35,
        causes: &[
            c("workload.library_bug", 0.6, "The program sets CUDA_VISIBLE_DEVICES itself and replaces the list the scheduler gave the job: on a shared node it then uses GPUs assigned to other jobs (or indices that do not exist in the job's cgroup).", "Let the program keep an inherited CUDA_VISIBLE_DEVICES (patch or upgrade it; choose GPUs by index within the visible list instead); meanwhile run it where it cannot see other jobs' GPUs (Slurm `ConstrainDevices=yes`)."),
            c("env.visible_devices_invalid", 0.3, "CUDA_VISIBLE_DEVICES ends up naming GPUs this job does not have.", "`echo $CUDA_VISIBLE_DEVICES` inside the job and in the program; set it once, before the program starts."),
        ],
        hints: &[h(r"\bslurm\b|\bsbatch\b|\bsrun\b|scheduler|assign(?:ed|ment)|allocat\w+", "workload.library_bug", 0.2)],
        tells_apart: "Print CUDA_VISIBLE_DEVICES at the job's start and inside the program: a different list there is the program's doing.",
    },
    // The c10d rendezvous between the nodes never completes: the store on the master node cannot
    // be reached or not every node joins in time ("DistStoreError: Socket Timeout", "wait
    // timeout after 900000ms", RendezvousTimeoutError, "The client socket has timed out ...
    // while trying to connect to"). MASTER_ADDR/PORT, the node count and rank, the environment
    // a launcher expects, a firewall or DNS between the nodes — not the GPUs
    // (hiyouga/LlamaFactory#6154: the multi-node variables changed in a new release).
    Rule {
        id: "torch.rendezvous_timeout",
        title: "the nodes never meet at the rendezvous",
        pattern: r"(?:DistStoreError:[^\n]{0,80}(?:Socket Timeout|wait timeout|[Tt]imed out)[^\n]{0,80}|RendezvousTimeoutError[^\n]{0,80}|RendezvousConnectionError[^\n]{0,120}|The client socket has timed out after \d+m?s while trying to connect to[^\n]{0,60}|The client socket has failed to connect to (?:any network address of )?[^\n]{0,80}(?:errno: 11[01]|Connection (?:timed out|refused)|any network address)[^\n]{0,40}|DistNetworkError:[^\n]{0,80}(?:Connection reset by peer|Connection refused|timed out)[^\n]{0,40})",
        priority: 50,
        causes: &[
            c("workload.nccl", 0.7, "The processes of a multi-node (or multi-process) job cannot complete the c10d rendezvous: the master's address or port is wrong or unreachable from the other nodes (firewall, DNS, a hostname resolving to 127.0.x.x), the node count/rank or the launcher's environment variables do not match on every node, or one node never started. The GPUs are not involved yet.", "Check on every node the same MASTER_ADDR/MASTER_PORT (or --rdzv_endpoint), --nnodes and a distinct --node_rank; from a worker `nc -zv <master> <port>`; open the port in the firewall; use an address every node resolves (not a loopback hostname); read the launcher's docs for the variables it expects."),
            c("workload.library_bug", 0.15, "One rank died or hung before joining (an earlier error on that node), so the others time out waiting.", "Read the first error on every node's log; the timeout is only its echo."),
        ],
        hints: &[h(r"(?:first|earlier) error|Traceback[\s\S]{0,400}?(?:OutOfMemory|CUDA error)", "workload.library_bug", 0.3)],
        tells_apart: "From a worker node `nc -zv <MASTER_ADDR> <MASTER_PORT>` while the master waits, and the first error in every node's log.",
    },
    // Another CUDA context already holds the GPU in a mode that allows one: TensorFlow's
    // "creating context when one is currently active" on shared servers whose GPUs are in
    // EXCLUSIVE_THREAD (or PROHIBITED) compute mode (tensorflow/tensorflow#526, #3612), or two
    // CUDA libraries in one process (Caffe or dlib beside TensorFlow).
    Rule {
        id: "cuda.context_already_active",
        title: "another CUDA context already holds the GPU",
        pattern: r"(?:creating context when one is currently active[^\n]{0,40}|CUDA_ERROR_CONTEXT_ALREADY_IN_USE|cudaErrorDeviceAlreadyInUse|exclusive[- _]thread[^\n]{0,40}(?:compute )?mode)",
        priority: 58,
        causes: &[
            c("gpu.compute_mode_restricted", 0.55, "The GPU's compute mode allows one context (EXCLUSIVE_THREAD, deprecated, or EXCLUSIVE_PROCESS held by another process) or none (PROHIBITED); on a shared server another user's process already has it.", "`nvidia-smi -q -d COMPUTE`; set Default (`sudo nvidia-smi -c 0 -i <n>`) or EXCLUSIVE_PROCESS (`-c 3`), or pick a GPU nobody uses (CUDA_VISIBLE_DEVICES / the scheduler's allocation)."),
            c("workload.library_bug", 0.35, "Two CUDA libraries in one process each create or expect their own context (Caffe, dlib, Theano beside TensorFlow): the second finds the first one current.", "Run the other library in a separate process (or thread), or use one framework for the GPU work."),
        ],
        hints: &[
            h(r"other (?:processes|users|jobs)|shared (?:server|machine|cluster|GPU)|\bcluster\b|exclusive|compute[ -]mode|E\. (?:Thread|Process)", "gpu.compute_mode_restricted", 0.3),
            h(r"\bcaffe\b|\btheano\b|\bdlib\b|\bcupy\b|StreamExecutor context|another (?:library|framework)|both (?:libraries|frameworks)", "workload.library_bug", 0.45),
        ],
        tells_apart: "`nvidia-smi -q -d COMPUTE` (compute mode) and `nvidia-smi` (who holds the GPU); a second CUDA library imported in the same process.",
    },
    // NVML answers "Unknown Error" for a device that is there: the driver's GSP firmware not
    // answering (the 525/535 GSP path on cloud g4dn/g5 instances: awslabs/amazon-eks-ami#1523,
    // fixed by disabling GSP), a GPU in an error state after an Xid, or a container that lost
    // its device access (cgroups re-applied by a daemon-reload).
    Rule {
        id: "nvml.device_unknown_error",
        title: "NVML answers \"Unknown Error\" for the GPU",
        pattern: r"(?:error creating nvml\.Device \d+: nvml: Unknown Error[^\n]{0,60}|nvml: Unknown Error|(?:nvidia-smi(?: -q| -a)?)[^\n]{0,80}\b(?:values|fields|entries)\b[^\n]{0,30}\bUnknown Error|:\s*Unknown Error\s*\n[^\n]{0,60}:\s*Unknown Error)",
        priority: 56,
        causes: &[
            c("driver.nvml_failed", 0.5, "The driver cannot get answers from the GPU for NVML's queries: the GPU System Processor firmware (GSP) of this driver branch stops answering (known on some cloud instance types with the 525/535 drivers), so nvidia-smi fields read 'Unknown Error' and the device plugin cannot build its device.", "Read `dmesg | grep -iE 'NVRM|Xid|GSP'`; on the affected cloud instances disable GSP (`options nvidia NVreg_EnableGpuFirmware=0` in /etc/modprobe.d, proprietary module only, then reboot) or move to a driver/node image with the fix."),
            c("gpu.xid", 0.25, "The GPU fell into an error state (an Xid such as 79 or 119 in the kernel log) and no longer answers.", FIX_XID_HW),
            c("host.container_no_gpu", 0.15, "Inside a container: the container lost its device access (systemd re-applied the cgroups after a daemon-reload), so NVML inside it fails while the host is fine.", "Recreate the pod/container; with cgroup v2 and the nvidia runtime use the CDI or `--device` mounts recommended by the toolkit so daemon-reloads do not drop the devices."),
        ],
        hints: &[
            h(r"\bGSP\b|EnableGpuFirmware|Xid\D{0,5}119|Timeout waiting for RPC from GSP", "driver.nvml_failed", 0.4),
            h(r"\bXid\b|fallen off the bus", "gpu.xid", 0.4),
            h(r"daemon-reload|systemctl daemon|cgroup", "host.container_no_gpu", 0.45),
        ],
        tells_apart: "`dmesg | grep -iE 'NVRM|Xid|GSP'` on the host: GSP RPC timeouts → the firmware; an Xid → the GPU's state; the host's nvidia-smi fine while the container's fails → the container's devices.",
    },
    // The kernel cannot load the driver's GSP firmware file: the driver package (or image)
    // ships without /lib/firmware/nvidia/<version>/gsp_*.bin, or the files are of another
    // version than the module (NixOS/nixpkgs#454772).
    Rule {
        id: "driver.gsp_firmware_missing",
        title: "the driver's GSP firmware file is missing",
        pattern: r"(?:Direct firmware load for nvidia/[\d.]+/gsp_\w+\.bin failed with error -?\d+|gsp_\w+\.bin[^\n]{0,40}\b(?:not found|missing|No such file))",
        priority: 72,
        causes: &[
            c("driver.not_installed", 0.65, "The driver installation is incomplete: its GSP firmware files (/lib/firmware/nvidia/<version>/gsp_*.bin) are missing, so the kernel module cannot start the GPU (GSP-based GPUs, Turing and later, with the open module or a 510+ proprietary driver).", "Install the driver's firmware with the driver (the distribution's nvidia firmware package of the same version, or the .run installer) and reboot; `ls /lib/firmware/nvidia/$(modinfo -F version nvidia)/` must list gsp_*.bin."),
            c("driver.library_mismatch", 0.25, "The firmware present is of another driver version than the loaded module (an upgrade that replaced one without the other).", "Reinstall the driver so module and firmware are the same version, then reboot."),
        ],
        hints: &[h(r"\bupgrad\w+|\bupdat\w+|mismatch|another version", "driver.library_mismatch", 0.2)],
        tells_apart: "`modinfo -F version nvidia` against the directories under /lib/firmware/nvidia/.",
    },
    // The container hook's query to the driver times out: without persistence mode the driver
    // initialises every GPU when the hook opens them (slow on VMs and many-GPU nodes); a hung
    // GPU does the same (NVIDIA/nvidia-docker#723: Azure N-series VMs, persistence mode off).
    Rule {
        id: "container.driver_rpc_timeout",
        title: "the container hook timed out talking to the driver",
        pattern: r"nvidia-container-cli(?:\.real)?: (?:initialization|detection) error: driver (?:rpc )?error: timed out",
        priority: 79,
        causes: &[
            c("driver.persistence_off", 0.55, "Persistence mode is off, so the driver initialises the GPUs whenever a client opens them and tears them down when it exits; on VMs and nodes with several GPUs that takes long enough for nvidia-container-cli's driver query to time out.", "Enable persistence: `sudo systemctl enable --now nvidia-persistenced` (or `sudo nvidia-smi -pm 1`), then start the container again."),
            c("gpu.xid", 0.25, "A GPU is hung (an Xid in the kernel log) and the driver does not answer.", FIX_XID_HW),
            c("driver.module_not_loaded", 0.1, "The driver's kernel side is not healthy (module reloading, a failed upgrade).", FIX_MODULE),
        ],
        hints: &[
            h(r"persistence", "driver.persistence_off", 0.3),
            h(r"\bXid\b|fallen off the bus", "gpu.xid", 0.45),
        ],
        tells_apart: "`nvidia-smi -q | grep -i persistence` and `time nvidia-smi` on the host; `dmesg | grep -i xid`.",
    },
    // Start-up that takes seconds per GPU: without persistence mode every CUDA job (and
    // nvidia-smi) initialises all the GPUs again (arrayfire/arrayfire#2467: "time of the first
    // execution is proportional to the number of GPUs"); a first run that JIT-compiles PTX for a
    // GPU the build has no code for is the other slow start.
    Rule {
        id: "driver.slow_initialisation",
        title: "CUDA start-up (or nvidia-smi) is slow",
        pattern: r"(?:proportional to the number of (?:GPU|device)s|nvidia-smi (?:takes|took) (?:forever|ages|very long|\d+ ?(?:s|sec|seconds|minutes))|(?:first (?:execution|run|CUDA call|cuda call|kernel launch)|GPU initiali[sz]ation|CUDA initiali[sz]ation|cuInit)\b[^\n]{0,40}\b(?:takes?|took|is|was)\s+(?:very |extremely |really )?(?:slow|long|forever|\d+ ?(?:s|sec|seconds|minutes))\b)",
        priority: 22,
        causes: &[
            c("driver.persistence_off", 0.55, "Persistence mode is off: with no client holding the GPUs the driver tears their state down and initialises every GPU again for each CUDA job and each nvidia-smi, seconds per GPU.", "Run the persistence daemon: `sudo systemctl enable --now nvidia-persistenced` (or `sudo nvidia-smi -pm 1`); `nvidia-smi -q | grep -i persistence` must say Enabled."),
            c("torch.ptx_jit_only", 0.3, "The build has no machine code for this GPU, so the first run JIT-compiles its PTX (minutes for a large library), cached afterwards in ~/.nv/ComputeCache.", "Install a build with kernels for the GPU's architecture, or keep the JIT cache (CUDA_CACHE_MAXSIZE large enough, CUDA_CACHE_PATH on a persistent disk)."),
        ],
        hints: &[
            h(r"number of (?:GPU|device)s|\b[2-9] ?(?:x ?)?GPUs\b|each GPU|per GPU|nvidia-smi|persistence", "driver.persistence_off", 0.25),
            h(r"\bPTX\b|\bJIT\b|ComputeCache|CUDA_CACHE|no kernel image|not compatible with the current PyTorch", "torch.ptx_jit_only", 0.45),
        ],
        tells_apart: "`nvidia-smi -q | grep -i persistence` (Disabled: the re-initialisation) and whether the second run is fast with the JIT cache kept (PTX JIT).",
    },
    // A MIG mode change that has not taken effect: nvidia-smi's "MIG mode is in pending enable
    // state", the MIG manager's "Mode change pending: true", or a text saying MIG needs a reboot.
    // The change applies at the next GPU reset; the reset waits for every client to let go of
    // the GPU (nvidia-persistenced, DCGM, the kubelet: NVIDIA/gpu-operator#118, #1606).
    Rule {
        id: "gpu.mig_mode_pending",
        title: "a MIG mode change is pending",
        pattern: r"(?:MIG mode is in pending (?:enable|disable) state[^\n]{0,80}|Mode change pending:\s*true|\b(?:reboot|restart)\w*\b[^\n]{0,40}\bto (?:enable|disable|apply|toggle) MIG\b|\bMIG\b[^\n]{0,60}\b(?:requires?|needs?|need to)\b[^\n]{0,20}\b(?:a |system |node )?reboot)",
        priority: 62,
        causes: &[
            c("gpu.mig_enabled", 0.55, "The MIG mode change is stored but takes effect only at the next GPU reset; until then the GPU stays in its old mode (A100/A30 in passthrough and some hypervisors need a full reboot), so MIG profiles cannot be created or MIG is still on.", "Stop the GPU's clients and reset it (`sudo nvidia-smi -r -i <n>`), or reboot the machine; check `nvidia-smi -q | grep -A2 'MIG Mode'` (Current must equal Pending); the GPU operator's MIG manager can reboot by itself (`WITH_REBOOT=true`)."),
            c("gpu.busy", 0.35, "A client holds the GPU, so the reset that would apply the mode cannot happen ('In use by another client'): nvidia-persistenced, DCGM or dcgm-exporter, the device plugin, the kubelet's cAdvisor, a monitoring nvidia-smi.", "Find the holders (`sudo lsof /dev/nvidia*`, `nvidia-smi --query-compute-apps=pid --format=csv`), stop them (`systemctl stop nvidia-persistenced dcgm`), apply the mode, then start them again."),
        ],
        hints: &[h(r"In use by another client|currently (?:being used|in use) by (?:one or more )?(?:other|another)|persistenced|\bdcgm\b|--gpu-reset", "gpu.busy", 0.4)],
        tells_apart: "`nvidia-smi -q | grep -A2 'MIG Mode'`: Pending differs from Current → reset/reboot; `sudo lsof /dev/nvidia*` names what blocks the reset.",
    },
    // MIG devices gone after a reboot: MIG mode persists, the GPU and compute instances do not
    // (NVIDIA/k8s-device-plugin#225); they must be created again at every boot.
    Rule {
        id: "gpu.mig_instances_lost",
        title: "the MIG devices are gone after a reboot",
        pattern: r"\bmigs?\b[^\n]{0,60}\b(?:destroi?ed|gone|lost|disappear\w*|deleted|missing|vanish\w*)\b[^\n]{0,40}\b(?:reboot|restart)|\b(?:after|when|on) (?:a |the )?(?:reboot|restart)\w*[^\n]{0,60}\bmigs?\b[^\n]{0,40}\b(?:destroi?ed|gone|lost|disappear\w*|deleted|missing|vanish\w*)",
        priority: 60,
        causes: &[c("gpu.mig_enabled", 0.85, "MIG mode survives a reboot but the MIG devices (GPU and compute instances) do not: after every boot the GPU is in MIG mode with no instances, so nvidia-smi -L, the device plugin and CUDA see no usable device.", "Create the instances again at boot (`nvidia-smi mig -cgi <profiles> -C`), best with nvidia-mig-parted's systemd service or the GPU operator's MIG manager, which apply a declared config on every start.")],
        hints: &[],
        tells_apart: "`nvidia-smi -L` after boot: a GPU in MIG mode listing no MIG devices.",
    },
    // A multi-node launch that never gets going: the reporter's words, or the launch lines of
    // several nodes pasted with nothing else recognised (MASTER_ADDR not the master's on every
    // node, node ranks repeated, a port closed: hiyouga/LlamaFactory#7326).
    Rule {
        id: "torch.multinode_launch_stalls",
        title: "a multi-node launch never starts",
        pattern: r"\bmulti-?node (?:runs?|jobs?|training|launch\w*)\b[^\n]{0,40}\b(?:hung|hangs?|hanging|stuck|stall\w*|never start\w*)\b|\brendezvous\w*\b[^\n]{0,30}\bwith itself\b|(?:NNODES=\d|--nnodes[ =]\d|num nodes: ?\d)[\s\S]{0,1500}?(?:\bhang\w*|\bstuck\b|\bfreez\w*|no progress|nothing happens|does(?:n'?t| not) (?:continue|proceed|start))|(?:\bhang\w*|\bstuck\b|no progress|nothing happens|does(?:n'?t| not) (?:continue|proceed|start))[\s\S]{0,1500}?(?:NNODES=\d|--nnodes[ =]\d|num nodes: ?\d)|(?:NNODES|--nnodes)[ =]\d+[^\n]{0,120}(?:MASTER_ADDR|--master[_-]addr)[ =]\S+[\s\S]{0,2000}?(?:NNODES|--nnodes)[ =]\d+[^\n]{0,120}(?:MASTER_ADDR|--master[_-]addr)[ =]\S+",
        priority: 28,
        causes: &[
            c("workload.nccl", 0.65, "The nodes of a multi-node launch never meet: MASTER_ADDR/MASTER_PORT must name the master node on every node, each node needs its own node rank (NODE_RANK / --node_rank), the number of nodes must agree, and the port must be reachable from every node.", "Launch every node with the same MASTER_ADDR (the master's reachable IP) and MASTER_PORT, NNODES equal everywhere and a distinct NODE_RANK per node; test `nc -zv <master> <port>` from each worker."),
            c("probe.p2p", 0.15, "The rendezvous completed but the first collective stalls (P2P between the local GPUs).", "Try `NCCL_P2P_DISABLE=1`."),
        ],
        hints: &[h(r"MASTER_ADDR=\S+[\s\S]{0,1500}?MASTER_ADDR=", "workload.nccl", 0.1)],
        tells_apart: "Compare the launch lines of every node: one MASTER_ADDR, distinct node ranks; `NCCL_DEBUG=INFO` shows whether any collective started.",
    },
    // The fabric manager finds no NVSwitch: "request to query NVSwitch device information from
    // NVSwitch driver failed with error:WARNING Nothing to do [NV_WARN_NOTHING_TO_DO]". On PCIe
    // GPUs (NVLink bridges, A40/L40/RTX) there is no fabric to manage and the service is not
    // needed (NVIDIA/gpu-operator#610); on HGX B200 and later the NVSwitches are reached through
    // the InfiniBand stack and NVLSM, and without them the GPUs never register (802).
    Rule {
        id: "fabric_manager.nothing_to_do",
        title: "the fabric manager found no NVSwitch",
        pattern: r"(?:NV_WARN_NOTHING_TO_DO|query NVSwitch device information from NVSwitch driver failed[^\n]{0,80})",
        priority: 70,
        causes: &[
            c("none", 0.55, "This machine has no NVSwitch (PCIe GPUs, two GPUs joined by an NVLink bridge, consumer cards): the fabric manager only serves NVSwitch systems (DGX/HGX), finds nothing to do and exits. The GPUs work without it.", "Disable the service (`sudo systemctl disable --now nvidia-fabricmanager`) and remove the package; check the GPUs with `nvidia-smi` and `nvidia-smi topo -m` (NV# links over a bridge need no fabric manager)."),
            c("driver.fabric_manager", 0.35, "An NVSwitch system whose switches the fabric manager cannot see: on HGX/DGX B200 and later (NVLink 5) the switches are managed through InfiniBand and NVLSM, so without the mlx5_ib/ib_umad modules or the NVLSM package the GPUs never register and CUDA reports 802.", "On HGX B200-class systems install the fabric manager with its NVLSM dependency and load the InfiniBand modules (`modprobe mlx5_ib ib_umad`, linux-modules-extra on Ubuntu), then restart nvidia-fabricmanager; `nvidia-smi -q | grep -A2 -i fabric` must reach Completed."),
        ],
        hints: &[
            h(r"\bG?B[123]00\b|NVLink ?5|\bNVL5\b|NVLSM|\bHGX\b|\bDGX\b|\bSXM\d?\b|error 802|system not yet initialized", "driver.fabric_manager", 0.4),
            h(r"\bbridge\b|\bA40\b|\bA30\b|\bA10G?\b|\bL40S?\b|\bL4\b|\bRTX\b|\b[34]090\b|PCIe", "none", 0.2),
        ],
        tells_apart: "`nvidia-smi -q | grep -A2 -i fabric` and `ls /proc/driver/nvidia-nvswitch/devices/`: no NVSwitch and CUDA working → nothing to fix; an HGX whose fabric stays In Progress → the fabric manager's prerequisites.",
    },
    // The driver cannot be built for the running kernel because its headers are not available:
    // the GPU operator's driver container on a kernel whose headers package does not exist
    // (NVIDIA/gpu-operator#300: OKD's 5.14.14), "Could not resolve Linux kernel version",
    // "Unable to locate package linux-headers-<kernel>", a missing /lib/modules/<kernel>/build.
    Rule {
        id: "kernel.headers_unavailable",
        title: "no kernel headers for the running kernel",
        pattern: r"(?:kernel[- ]headers?\b[^\n]{0,80}\b(?:does not exist|doesn'?t exist|do not exist|not found|not available|no equivalent|unable to locate|missing)|(?:does not|doesn'?t) have an? (?:equivalent|matching) kernel[- ]headers?|Unable to locate package linux-headers-[\w.+-]+|Could not resolve Linux kernel version|/lib/modules/[^\s/]+/build: No such file or directory)",
        priority: 45,
        causes: &[
            c("driver.module_not_loaded", 0.75, "The NVIDIA kernel module must be compiled against the running kernel's headers; none exist for this kernel (a kernel newer than its headers packages, a custom or FIPS kernel, a repository that dropped it), so the module is never built and the driver never loads.", "Boot a kernel whose headers are installable (`apt-cache policy linux-headers-$(uname -r)` / `dnf list kernel-devel-$(uname -r)`) and pin it, or use a precompiled driver for the kernel (the GPU operator's precompiled driver images, the distribution's signed nvidia modules)."),
            c("driver.not_installed", 0.15, "The driver installation stopped at the build, so nothing of it is usable.", FIX_DRIVER_INSTALL),
        ],
        hints: &[],
        tells_apart: "`uname -r` against the headers the repositories offer (`apt-cache search linux-headers | grep $(uname -r)`).",
    },
    // A vGPU guest driver of another branch than the host's vGPU manager supports: "Xid 78:
    // Guest driver is incompatible with host driver" (skypilot-org/skypilot#10468: an R535 GRID
    // guest driver on Azure NVadsA10_v5 hosts that moved to vGPU 18 / R570).
    Rule {
        id: "vgpu.guest_driver_incompatible",
        title: "the vGPU guest driver does not match the host",
        pattern: r"(?:Guest driver is incompatible with host driver|(?:vGPU|guest) driver[^\n]{0,40}\b(?:incompatible|not compatible|unsupported)\b[^\n]{0,40}\bhost|unsupported vGPU\b[^\n]{0,60})",
        priority: 92,
        causes: &[
            c("driver.gpu_unsupported", 0.8, "A vGPU guest must run a guest driver of a branch the host's vGPU manager supports; after the host (or the cloud's VM size) moved to a newer vGPU release the old guest driver is refused, so the VM sees no usable GPU.", "Install the guest (GRID) driver of the branch the host or cloud lists for this VM size (Azure: the GRID driver table for NVadsA10_v5; VMware/Citrix: the vGPU release's guest driver), then reboot."),
            c("gpu.xid", 0.1, "The Xid records the refusal; nothing is wrong with the GPU itself.", FIX_XID_HW),
        ],
        hints: &[],
        tells_apart: "The guest driver's version (`cat /proc/driver/nvidia/version`) against the host's vGPU release (the provider's supported GRID driver table).",
    },
    // The driver said in words not to support a CUDA release ("This version of nvidia drivers
    // does not support CUDA 11.8": skypilot-org/skypilot#2751, an image's 495 driver).
    Rule {
        id: "driver.said_lacks_cuda",
        title: "the driver does not support the CUDA the program needs (in words)",
        pattern: r"\bdrivers?\b[^\n.]{0,40}\b(?:does not|doesn'?t|do not|don'?t|cannot|can'?t|won'?t) support (?:CUDA|cuda) ?\d+(?:\.\d+)?",
        priority: 19,
        causes: &[
            c("driver.too_old_for_torch", 0.45, "The framework build's CUDA is newer than the newest CUDA the driver supports (nvidia-smi's 'CUDA Version').", FIX_DRIVER_UPGRADE),
            c("driver.too_old_for_toolkit", 0.45, "The program's or image's CUDA is newer than the newest CUDA the driver supports.", "Install a driver at least as new as the program's CUDA needs (`nvidia-smi`'s 'CUDA Version' must be at least the program's), or use a build for an older CUDA."),
        ],
        hints: &[h(r"\btorch\b|pytorch|\bcu1\d\d\b", "driver.too_old_for_torch", 0.3)],
        tells_apart: "`nvidia-smi`'s 'CUDA Version' against the CUDA the framework or program was built with.",
    },
    // Slurm's CUDA_VISIBLE_DEVICES=NoDevFiles: the job requested no GPU (no --gres/--gpus), so
    // Slurm hides every device even on a GPU node (ray-project/ray#7014).
    Rule {
        id: "slurm.no_dev_files",
        title: "Slurm gave the job no GPU (NoDevFiles)",
        pattern: r"CUDA_VISIBLE_DEVICES\W{0,20}(?:(?:to|is|=|was) (?:the )?(?:value )?)?NoDevFiles|\bNoDevFiles\b",
        priority: 60,
        causes: &[
            c("workload.gpu_not_requested", 0.8, "Slurm sets CUDA_VISIBLE_DEVICES=NoDevFiles for a job that requested no GPU (selecting a GPU node with -C/--constraint or a partition is not a request), so CUDA sees no device although the node has GPUs.", "Request the GPUs: `#SBATCH --gres=gpu:1` (or `--gpus=1`, `--gpus-per-node=N`); inside the job `echo $CUDA_VISIBLE_DEVICES` must list indices."),
            c("host.scheduler_config", 0.15, "The cluster has no GPU gres configured for the node, so even a request yields no devices.", "On the cluster: GresTypes=gpu, the node's Gres= and gres.conf (or AutoDetect=nvml); check with `scontrol show node <node> | grep -i gres`."),
        ],
        hints: &[h(r"--gres=gpu|--gpus(?:-per-\w+)?=\d|gres\.conf|slurm\.conf", "host.scheduler_config", 0.3)],
        tells_apart: "`scontrol show job <id> | grep -i tres`: no gres/gpu in the allocation is the request; a GPU request with NoDevFiles is the cluster's gres configuration.",
    },
    // CUDA_VISIBLE_DEVICES set after CUDA initialised in the process, said in prose: the
    // setting is ignored and the process uses the GPUs it saw at start (areal-project/AReaL#910:
    // a scheduler set it over HTTP after the worker's Python had started).
    Rule {
        id: "env.visible_devices_set_too_late",
        title: "CUDA_VISIBLE_DEVICES set after CUDA initialised",
        pattern: r"(?:CUDA_VISIBLE_DEVICES|env(?:ironment)? var\w*)\b[^\n]{0,100}\b(?:too late|after (?:Python|the process|CUDA|torch) (?:has )?(?:started|initiali[sz]\w*|was imported))|\bignores? (?:env(?:ironment)? var\w* changes|(?:changes to )?CUDA_VISIBLE_DEVICES)\b[^\n]{0,30}\bafter\b[^\n]{0,20}\binitiali[sz]",
        priority: 34,
        causes: &[
            c("workload.library_bug", 0.5, "The program (or its launcher) sets CUDA_VISIBLE_DEVICES once CUDA has already initialised in the worker; CUDA reads it only at initialisation, so the assignment is ignored and every worker uses the GPUs it saw at start.", "Set CUDA_VISIBLE_DEVICES in each worker's environment before its process starts (the launch command, the sbatch script with SLURM_LOCALID), not from inside the running program; upgrade the program if its launcher does this."),
            c("env.visible_devices_invalid", 0.4, "CUDA_VISIBLE_DEVICES ends up not restricting the process as intended.", "Set it before the program starts (`CUDA_VISIBLE_DEVICES=1 python train.py`) or at the very top of the script before any import of torch."),
        ],
        hints: &[h(r"os\.environ|my script|I set|in my code", "env.visible_devices_invalid", 0.3)],
        tells_apart: "Print CUDA_VISIBLE_DEVICES and torch.cuda.device_count() at the worker's start: a count that ignores the variable means it came too late.",
    },
    // Workers that each see all GPUs instead of the subset assigned to them (a launcher whose
    // per-worker CUDA_VISIBLE_DEVICES never reaches the process), often ending in out-of-memory
    // when several servers load onto the same GPU (NVIDIA/TensorRT-LLM#12370: srun --export in
    // shared pyxis containers).
    Rule {
        id: "env.workers_see_all_gpus",
        title: "every worker sees all GPUs instead of its own",
        pattern: r"\b(?:see|sees|saw|seeing|use|uses|used|using)\s+all (?:the )?GPUs\b[^\n]{0,80}\binstead of\b|\binstead of (?:their|its|the) (?:assigned|allocated) (?:subset|GPUs?|devices?)",
        priority: 72,
        causes: &[
            c("workload.library_bug", 0.6, "The launcher's per-worker CUDA_VISIBLE_DEVICES never reaches the processes (an env export a container or a shared environment ignores), so every worker sees every GPU, several load onto the same one and run out of memory.", "Pass each worker's CUDA_VISIBLE_DEVICES where the process is created (an argument exported inside the worker's own start script), and check `echo $CUDA_VISIBLE_DEVICES` in each worker."),
            c("env.visible_devices_invalid", 0.3, "CUDA_VISIBLE_DEVICES is not set per worker as intended.", "Set it per worker before the process starts."),
        ],
        hints: &[],
        tells_apart: "`echo $CUDA_VISIBLE_DEVICES` and `nvidia-smi` inside each worker: the same full list everywhere means the assignment was lost.",
    },
    // ---- round 10a (the current era)
    // The proprietary flavour of the kernel module named with a Blackwell GPU, in prose (no NVRM
    // line): Blackwell (GB10, GB20x, RTX 50xx, RTX PRO 6000, B200/GB200) only initialises with the
    // open kernel modules (Start9Labs/start-technologies#3465: "-nvidia images ship the
    // proprietary flavor ... Blackwell GPUs cannot initialize").
    Rule {
        id: "driver.proprietary_module_on_blackwell",
        title: "the proprietary kernel module on a Blackwell GPU",
        pattern: r"(?:proprietary|closed)[^\n]{0,40}(?:kernel )?modules?\b[\s\S]{0,400}?(?:Blackwell|\bGB10\b|\bGB20\d|RTX 50\d0|RTX PRO \d000 Blackwell|\bG?B[23]00\b)|(?:Blackwell|\bGB10\b|\bGB20\d|RTX 50\d0|\bG?B[23]00\b)[\s\S]{0,400}?(?:only supported by the open|requires? (?:use of )?the (?:NVIDIA )?open (?:GPU )?kernel modules?|open kernel modules? (?:is|are) required|needs? the open kernel modules?)",
        priority: 80,
        causes: &[
            c("driver.open_module_required", 0.85, "Blackwell GPUs (GB10, RTX 50xx, RTX PRO 6000 Blackwell, B200/GB200) are only supported by the open kernel modules: with the proprietary flavour the driver never initialises the GPU, although the driver version is right.", "Install the open flavour of the same driver branch (`sudo apt install nvidia-driver-<branch>-open`, `nvidia-open` / `kmod-nvidia-open-dkms`, or the .run installer with `--kernel-module-type=open`) and reboot; `modinfo nvidia | grep license` then says 'Dual MIT/GPL'."),
            c("driver.gpu_unsupported", 0.1, "The driver branch is older than the GPU (Blackwell needs 570+).", "Install a driver branch that supports the GPU (570 or later for Blackwell)."),
        ],
        hints: &[h(r"\b5[0-6]\d\.\d+(?:\.\d+)?\b[^\n]{0,60}(?:driver|nvidia)|nvidia-driver-5[0-6]\d\b", "driver.gpu_unsupported", 0.3)],
        tells_apart: "`modinfo nvidia | grep license`: 'NVIDIA' is the proprietary module, 'Dual MIT/GPL' the open one; the driver branch (`cat /proc/driver/nvidia/version`) must be 570 or later.",
    },
    // The installer resolved a CPU build of torch, said in prose ("a DGX Spark installed the PyPI
    // `torch==2.10.0` CPU build": hanyeol/model-compose#24). On aarch64 (Grace, GB10) PyPI's torch
    // was CPU-only up to 2.8 and CUDA builds come from PyTorch's cuXXX index.
    Rule {
        id: "torch.cpu_build_resolved",
        title: "the installer took a CPU build of torch",
        pattern: r"(?:install(?:ed|s|ing)?|resolv(?:ed|es)|pulled|picked|got|resulted in)[^\n]{0,60}\b(?:py)?torch\b[^\n]{0,40}\bCPU(?:-only)? (?:build|wheel|version|variant)\b",
        priority: 45,
        causes: &[c("torch.cpu_only", 0.85, "The installer resolved a CPU-only torch (PyPI's wheel on Windows, and on aarch64 — Grace, GB10/DGX Spark — up to torch 2.8), so CUDA is never used although the GPU and driver are fine.", "Install the CUDA build from PyTorch's index for the CUDA the driver supports (`pip install --force-reinstall torch --index-url https://download.pytorch.org/whl/cu128`; cu130 on a 580+ driver), on aarch64 too.")],
        hints: &[],
        tells_apart: "`python -c \"import torch; print(torch.__version__, torch.version.cuda)\"`: '+cpu' or None is a CPU build.",
    },
    // An architecture CUDA 13 dropped (Maxwell, Pascal, Volta: sm_5x/6x/70/72) named with CUDA 13
    // in prose, without the runtime's error: "CUDA.jl caps 7.0 at CUDA 12.9, so V100 GPUs cannot
    // be used" (JuliaGPU/CUDA.jl#3132). CUDA 13.0 removed offline compilation and library
    // support for compute capability below 7.5 (CUDA 13.0 release notes); a CUDA 12.x toolkit,
    // or a cu12x framework build, still targets them.
    Rule {
        id: "toolkit.cuda13_pre_turing",
        title: "CUDA 13 no longer targets this GPU (Maxwell, Pascal, Volta)",
        pattern: r"(?:\bVolta\b|\bPascal\b|\bMaxwell\b|\bsm_?(?:5[0-3]|6[0-2]|7[02])\b|\bV100\b|\bP100\b|\bP40\b|GTX ?(?:9[5-8]0|10[5-8]0)|compute capability [56]\.\d|compute capability 7\.[02])[\s\S]{0,600}?\b(?:CUDA(?: Toolkit)? ?13(?:\.\d)?|cu13\d|CUDA 13)\b|\b(?:CUDA(?: Toolkit)? ?13(?:\.\d)?|cu13\d)\b[\s\S]{0,600}?(?:\bVolta\b|\bPascal\b|\bMaxwell\b|\bsm_?(?:5[0-3]|6[0-2]|7[02])\b|\bV100\b|\bP100\b|\bP40\b|GTX ?(?:9[5-8]0|10[5-8]0))",
        priority: 30,
        causes: &[
            c("toolkit.arch_unsupported", 0.5, "CUDA 13.0 removed offline compilation and library support for GPUs below compute capability 7.5 (Maxwell, Pascal, Volta): a CUDA 13 toolkit cannot build code for this GPU.", "Build with a CUDA 12.x toolkit (12.9 is the last to target sm_50–sm_72) and point CUDA_HOME / the build's toolkit setting at it; the 580+ driver still runs these GPUs."),
            c("torch.arch_unsupported", 0.35, "The framework build is a CUDA 13 one (cu130 wheels), which ships no kernels below sm_75; the first kernel launch fails with 'no kernel image'.", "Install a cu126/cu128 build of the framework for this GPU (`pip install torch --index-url https://download.pytorch.org/whl/cu126`); it runs on a CUDA 13 driver."),
            c("ext.arch_unsupported", 0.15, "A program's own CUDA 13 build (a container image, a bundled llama.cpp backend) carries no code for this GPU.", "Use the program's CUDA 12 build or image for this GPU."),
        ],
        hints: &[
            h(r"\bcu13\d\b|\bwheels?\b|\btorch\b|\bpytorch\b|\bjax\b|tensorflow", "torch.arch_unsupported", 0.3),
            h(r"\bimages?\b|\bcontainers?\b|docker|ollama|llama\.cpp|\bggml\b|LocalAI", "ext.arch_unsupported", 0.45),
            h(r"\bnvcc\b|\btoolkit\b|compil|CUDA\.jl|cmake|CMAKE_CUDA", "toolkit.arch_unsupported", 0.3),
        ],
        tells_apart: "`nvidia-smi --query-gpu=compute_cap --format=csv` below 7.5 with a CUDA 13 toolkit (`nvcc --version`) or a cu130 build (`torch.version.cuda`): use the CUDA 12 toolkit or build.",
    },
    // nvidia-smi's "CUDA Version" (the newest CUDA the driver supports) above the toolkit's
    // release: the driver is new enough for that toolkit. A program that reads nvidia-smi's
    // figure as the installed CUDA and refuses it ("CUDA 13.0 > max ... Falling back to CPU":
    // DrewThomasson/ebook2audiobook#1231) has a bug of its own.
    Rule {
        id: "versions.driver_newer_than_toolkit",
        title: "the driver supports a newer CUDA than the toolkit installed",
        pattern: r"CUDA Version:? ?13\.\d[\s\S]{0,2000}?(?:release|V) ?12\.\d|(?:release|V) ?12\.\d[\s\S]{0,2000}?CUDA Version:? ?13\.\d|CUDA Version:? ?12\.[89][\s\S]{0,2000}?(?:release|V) ?1[01]\.\d|(?:release|V) ?1[01]\.\d[\s\S]{0,2000}?CUDA Version:? ?12\.[89]",
        priority: 12,
        causes: &[
            c("none", 0.5, "nvidia-smi's 'CUDA Version' is the newest CUDA the driver supports, not the CUDA installed; a toolkit or framework built for an older CUDA runs on it.", "Nothing to fix on the machine: the driver is newer than the toolkit. Check the framework itself with `python -c \"import torch; print(torch.version.cuda, torch.cuda.is_available())\"`."),
            c("workload.library_bug", 0.35, "The program reads nvidia-smi's 'CUDA Version' as the installed CUDA and refuses it as unsupported, although the driver runs any older CUDA.", "Report it to the program; meanwhile set its device/CUDA option by hand (or patch its version check) — the driver needs no change."),
            c("driver.too_old_for_toolkit", 0.05, "Only if the toolkit is newer than nvidia-smi's 'CUDA Version' is the driver too old.", FIX_DRIVER_UPGRADE),
        ],
        hints: &[h(r"falling back to CPU|fall(?:s|ing)? back to (?:the )?CPU|> ?max\b|instead of using|(?:not|un)supported CUDA version|CUDA version[^\n]{0,30}not supported", "workload.library_bug", 0.45)],
        tells_apart: "Compare nvidia-smi's 'CUDA Version' (the driver's ceiling) with `nvcc --version` / `torch.version.cuda`: a lower toolkit is fine; a program that refuses the driver's figure has its own version-check bug.",
    },
    // ggml's own check (llama.cpp, llama-cpp-python, ollama): "CUDA kernel mul_mat_vec has no
    // device code compatible with CUDA arch 520. ggml-cuda.cu was compiled for: 520" — the build
    // carries code for other architectures than the GPU's (nextcloud/llm2#52: a wheel built for
    // compute 5.2 on an RTX A4500). Above the launch failure it is followed by.
    Rule {
        id: "ggml.no_device_code",
        title: "the ggml (llama.cpp) build has no code for this GPU",
        pattern: r"has no device code compatible with CUDA arch \d+|ggml-cuda\.cu was compiled for: ?\d+",
        priority: 88,
        causes: &[
            c("ext.arch_unsupported", 0.85, "The llama.cpp/ggml build (llama-cpp-python's wheel, a bundled backend) was compiled for other architectures than this GPU's: the message lists what it was compiled for.", "Rebuild it for this GPU: `CMAKE_ARGS=\"-DGGML_CUDA=on -DCMAKE_CUDA_ARCHITECTURES=<cc>\" pip install --force-reinstall --no-cache-dir llama-cpp-python` (or `-DCMAKE_CUDA_ARCHITECTURES=native` when building on the machine)."),
            c("workload.library_bug", 0.1, "A llama.cpp commit broke the arch selection for some kernels (fixed upstream).", "Update llama.cpp (or go back to the previous commit) and rebuild."),
            c("toolkit.arch_unsupported", 0.05, "The toolkit that built it could not target this GPU.", FIX_TOOLKIT_ARCH),
        ],
        hints: &[h(VERSION_CONTRAST, "workload.library_bug", 0.3), h(r"worked (?:yesterday|before)|git pull|reverted", "workload.library_bug", 0.4)],
        tells_apart: "The arch numbers in the message against the GPU's compute capability (`nvidia-smi --query-gpu=compute_cap --format=csv`): 520 is sm_52; the build must list the GPU's.",
    },
    // SageAttention's own check: "SM89 kernel is not available. Make sure you GPUs with compute
    // capability 8.9." — the installed build was compiled without the kernels for this GPU
    // (thu-ml/SageAttention#173: a stale build on an RTX 5080, fixed by reinstalling).
    Rule {
        id: "ext.sm_kernel_not_available",
        title: "the extension's build has no kernel for this GPU",
        pattern: r"\bSM\d{2,3} kernel is not available|kernel is not available\. Make sure you(?: have)? GPUs? with compute capability",
        priority: 60,
        causes: &[
            c("ext.arch_unsupported", 0.8, "The installed build of the extension was compiled without kernels for this GPU (built on or for another GPU, or a prebuilt wheel for other architectures).", "Reinstall the extension built for this GPU: `pip uninstall <package>` then build it on this machine (leave TORCH_CUDA_ARCH_LIST unset or set it to the GPU's capability), or install a wheel built for it."),
            c("env.arch_list_mismatch", 0.1, "TORCH_CUDA_ARCH_LIST during its build named other architectures.", "Rebuild with TORCH_CUDA_ARCH_LIST unset (auto-detect) or set to this GPU's capability."),
            c("torch.arch_unsupported", 0.1, "torch itself is older than the GPU.", FIX_TORCH_ARCH),
        ],
        hints: &[h(r"TORCH_CUDA_ARCH_LIST", "env.arch_list_mismatch", 0.3), h(BLACKWELL_WITH_OLD_TORCH, "torch.arch_unsupported", 0.5)],
        tells_apart: "The extension's build log or `pip show -f <package>`: which architectures it was built for against `torch.cuda.get_device_capability()`.",
    },
    // A build's own check that its CUDA is too old for the GPU ("CUDA 12.8 or higher is required
    // for compute capability 12.0": SageAttention's setup). With the runtime's "no kernel image"
    // in the same paste the whole stack (torch too) predates the GPU (kairos-agi/kairos#26).
    Rule {
        id: "build.cuda_too_old_for_cc",
        title: "the CUDA version is too old for the GPU's compute capability",
        pattern: r"CUDA \d+\.\d+ or (?:higher|newer|later) is required for (?:compute capability|sm_?)\s*\d+(?:\.\d)?",
        priority: 85,
        causes: &[
            c("toolkit.arch_unsupported", 0.5, "The CUDA toolkit the build uses is older than the GPU (Blackwell sm_120 needs CUDA 12.8+, sm_100 12.8+, GB10 sm_121 12.9+).", FIX_TOOLKIT_ARCH),
            c("torch.arch_unsupported", 0.4, "The torch (and its CUDA) in the environment predate the GPU: its wheel carries no kernels for it either.", FIX_TORCH_ARCH),
        ],
        hints: &[h(r"no kernel image|is not compatible with the current PyTorch", "torch.arch_unsupported", 0.35), h(r"\bnvcc\b|CUDA_HOME", "toolkit.arch_unsupported", 0.2)],
        tells_apart: "`nvcc --version` (the build's toolkit) and `python -c \"import torch; print(torch.__version__, torch.version.cuda)\"` against the GPU's compute capability.",
    },
    // A program's CMake CUDA architecture list in its own syntax ("110-real;110-virtual instead of
    // 90-real;90-virtual": microsoft/onnxruntime#26212 on a Jetson Thor): the program was built
    // for other architectures than the GPU's.
    Rule {
        id: "build.cmake_cuda_architectures",
        title: "a program's build names its CUDA architectures",
        pattern: r"\b\d{2,3}-(?:real|virtual)\b",
        priority: 20,
        causes: &[
            c("ext.arch_unsupported", 0.6, "The program (a library built from source, an inference runtime) was compiled for other GPU architectures than this one's: its CMake CUDA_ARCHITECTURES list lacks the GPU's compute capability, so its kernels are missing at run time.", "Rebuild it with the GPU's architecture (`-DCMAKE_CUDA_ARCHITECTURES=<cc>-real;<cc>-virtual`, or `native` when building on the machine)."),
            c("toolkit.arch_unsupported", 0.2, "The toolkit building it cannot target the GPU's architecture.", FIX_TOOLKIT_ARCH),
            c("env.arch_list_mismatch", 0.2, "An architecture list set in the environment overrides the build's detection.", "Unset the architecture override (CMAKE_CUDA_ARCHITECTURES / TORCH_CUDA_ARCH_LIST) or set it to the GPU's capability."),
        ],
        hints: &[h(r"nvcc fatal|Unsupported gpu architecture|is not defined for option", "toolkit.arch_unsupported", 0.5)],
        tells_apart: "The architectures the build was configured with against `nvidia-smi --query-gpu=compute_cap --format=csv`.",
    },
    // PyTorch's "not compatible" warning for a newer minor of an architecture the build carries
    // (GB10's 12.1 under a build up to 12.0): the older minor's code runs on it, so the warning is
    // a false positive (pytorch/pytorch#172629, fixed in 2.11). Above torch.sm_not_compatible,
    // whose span it covers.
    Rule {
        id: "torch.sm_newer_minor",
        title: "PyTorch warns about a newer minor of an architecture its build carries",
        pattern: SAME_MAJOR_NEWER_MINOR,
        priority: 93,
        causes: &[
            c("none", 0.8, "The GPU is a newer minor of an architecture the build carries (12.1 under a build up to 12.0, 8.9 under 8.6): code for the older minor runs on it within the same major, so the warning is a false positive (fixed in PyTorch 2.11) and nothing needs changing.", "Nothing to fix: run a CUDA op to confirm (`python -c \"import torch; print(torch.ones(1, device='cuda') + 1)\"`); a torch 2.11+ build stops warning."),
            c("torch.arch_unsupported", 0.15, "Only if CUDA ops then fail: the build's kernels use features of the older minor's arch-specific target.", FIX_TORCH_ARCH),
            c("ext.arch_unsupported", 0.05, "An extension built for the older minor only with arch-specific (sm_XXXa) code fails on it.", FIX_EXT_ARCH),
        ],
        hints: &[h(r"no kernel image|CUDA error: (?:invalid device function|the provided PTX)", "torch.arch_unsupported", 0.7)],
        tells_apart: "Does a CUDA op run (`torch.ones(1, device='cuda') + 1`)? If it does, the warning is only the start-up check's false positive.",
    },
    // Another package's install swapped torch's CUDA variant, in prose ("tensorrt-llm ... downgrades
    // pytorch to cuda 12.8", "has overwritten the underlying cuda to be 13.0":
    // NVIDIA/TensorRT-LLM#9318): torch and the nvidia-* wheels now belong to two CUDA majors.
    Rule {
        id: "torch.variant_swapped",
        title: "an install swapped torch's CUDA variant",
        pattern: r"(?:downgrad|upgrad|replac|overwr|reinstall|swapp)\w*[^\n]{0,40}\b(?:py)?torch\b[^\n]{0,60}(?:\bcuda ?1[123]\.\d|\bcu1[123]\d\b)|overwr\w* the (?:underlying )?cuda\b",
        priority: 40,
        causes: &[
            c("torch.wheel_deps_mismatch", 0.6, "Installing another package replaced torch's CUDA variant (cu130 by cu128, or the reverse) while its own nvidia-* CUDA wheels stayed or came in for the other CUDA major: torch and its CUDA libraries no longer match.", "Install torch last, from the index of the CUDA major the other package uses (`pip install --force-reinstall torch==<v> --index-url https://download.pytorch.org/whl/cu130`), or pin the package to the torch variant you need; `pip list | grep -i nvidia` must show one CUDA major."),
            c("torch.multiple_installs", 0.2, "Two torch installs are now mixed.", "Uninstall torch until none is left, then install one build."),
            c("torch.arch_unsupported", 0.2, "The variant it pulled has no kernels for this GPU (an older torch on a Blackwell GPU).", FIX_TORCH_ARCH),
        ],
        hints: &[h(BLACKWELL_WITH_OLD_TORCH, "torch.arch_unsupported", 0.5)],
        tells_apart: "`pip list | grep -iE 'torch|nvidia'`: torch's +cuXXX against the nvidia-* wheels' CUDA major (-cu12 vs -cu13 / 13.x versions).",
    },
    // ---- round 9a (runtime errors)
    // "illegal memory access" in the reporter's own words, without the runtime's full sentence
    // ("works on batch size = 24, but not on batch size = 25 (illegal memory access, not filled
    // tensor)": pytorch/pytorch#17930, a cuDNN Conv3d bug fixed in cuDNN 7.6). Below
    // cuda.illegal_address, which takes the runtime's own wording.
    Rule {
        id: "kernel.illegal_access_said",
        title: "an illegal memory access, as the reporter words it",
        pattern: r"\billegal (?:memory |address )?access(?:es)?\b|\bout[- ]of[- ]bounds (?:memory )?access\b[^\n]{0,40}\b(?:GPU|CUDA|kernel)",
        priority: 40,
        causes: &[
            c("workload.illegal_address", 0.5, "A kernel read or wrote outside its memory: a bad index or shape in the program's own code, or a tensor used after it was freed.", FIX_ILLEGAL),
            c("workload.library_bug", 0.35, "A library kernel (cuDNN, cuBLAS, an extension) faults for this shape or size: the same call works at another size.", FIX_LIBRARY_BUG),
            c("gpu.xid", 0.1, "A hardware or driver fault (Xid 13/31/43 in the kernel log at the same time).", FIX_XID_HW),
            c("gpu.ecc_errors", 0.05, "Uncorrectable memory errors on the GPU.", FIX_XID_HW),
        ],
        hints: &[
            h(SIZE_THRESHOLD, "workload.library_bug", 0.45),
            h(VERSION_CONTRAST, "workload.library_bug", 0.45),
            h(EXTENSIONS, "workload.library_bug", 0.2),
            h(r"\bXid\b", "gpu.xid", 0.4),
            h(r"\bECC\b|uncorrectable", "gpu.ecc_errors", 0.4),
        ],
        tells_apart: "`CUDA_LAUNCH_BLOCKING=1` and `compute-sanitizer` name the faulting kernel: yours, or a library's; a size at which it starts failing points at the library; Xid lines in `dmesg` point at the GPU.",
    },
    // Triton of another release than the one torch (or a library) was written for: a name
    // torch's inductor or a library imports from triton is missing ("cannot import name
    // 'triton_key' from 'triton.compiler.compiler'": coreweave/ml-containers#64, pip's triton
    // bumped to 2.3 under a torch pinned to 2.2).
    Rule {
        id: "triton.version_mismatch",
        title: "Triton lacks a name torch or a library imports from it",
        pattern: r"cannot import name '\w+' from '(?:triton|pytorch_triton)(?:\.[\w.]+)?'|module '(?:triton|pytorch_triton)(?:\.[\w.]+)?' has no attribute '\w+'|No module named '(?:triton|pytorch_triton)\.[\w.]+'",
        priority: 60,
        causes: &[
            c("torch.wheel_deps_mismatch", 0.75, "The Triton installed is another release than the one this torch pins (pip upgraded it on its own, or another package pulled a newer one), and torch's inductor imports a name that release no longer (or not yet) has.", "Install the Triton torch pins (`pip show torch` lists it, e.g. `pip install triton==<pinned>`), or reinstall torch so pip brings its own pin; do not upgrade triton on its own."),
            c("workload.library_bug", 0.25, "A library (a model kernel package written against one Triton API) imports a name another Triton release renamed or removed.", "Upgrade (or pin back) the library whose frame does the import to a release made for the installed Triton."),
        ],
        hints: &[
            h(r"torch/_inductor|torch\._inductor|torch/utils/_triton|backend='inductor'", "torch.wheel_deps_mismatch", 0.1),
            h(r"(?:site-packages|dist-packages)[/\\](?:fla|unsloth|liger_kernel|vllm|sglang|xformers|bitsandbytes|flash_attn|mamba_ssm|transformer_engine|deepspeed|lightning_attn|triton_kernels)[/\\]", "workload.library_bug", 0.6),
        ],
        tells_apart: "`pip show torch` (the triton it requires) against `python -c \"import triton; print(triton.__version__)\"`.",
    },
    // Losses that turn NaN (fp16 overflow or underflow in a model or library op, a too-high
    // learning rate, bad data): the program's numerics, almost never the machine
    // (facebookresearch/xformers#96: Favor's normalisation underflowed in fp16).
    Rule {
        id: "training.nan_loss",
        title: "the loss becomes NaN",
        pattern: r"\bloss(?:es)?\b[^\n]{0,30}\b(?:is|are|becomes?|became|goes|went|turns?|turned|gets?|got)\s+(?:to\s+)?(?:a\s+)?nan\b|\bloss(?:es)? nans?\b|\bnan (?:loss|losses|gradients?|grads?)\b|returned nan values in its \d+\w* output|\bloss\s*[:=]\s*nan\b",
        priority: 25,
        causes: &[
            c("workload.library_bug", 0.55, "The model's numerics fail in this precision: an op of the model or of a library (attention, normalisation, a loss) overflows fp16 (max 65504) or underflows, or a kernel has a numerical bug; the GPU computes what it is asked.", "Run the step in float32 (or bf16 on sm_80+) to confirm; find the first non-finite tensor (`torch.autograd.set_detect_anomaly(True)`), keep that op in float32, and upgrade the library whose op it is."),
            c("none", 0.4, "The training itself diverges: a learning rate too high for this batch, no gradient scaling or clipping under fp16, or bad samples in the data. Nothing is wrong with the machine.", "Lower the learning rate, use a GradScaler under fp16 and clip gradients, and check the data for NaN/inf values."),
            c("gpu.ecc_errors", 0.05, "Rarely, memory errors on a GPU without ECC (or with uncorrectable ECC errors) corrupt values silently.", FIX_XID_HW),
        ],
        hints: &[
            h(r"\bfp16\b|float16|\bhalf\b|precision (?:is |was )?(?:set )?(?:to )?16|\bamp\b|autocast|mixed precision|bf16|bfloat16", "workload.library_bug", 0.15),
            h(r"learning rate|\blr\b|exploding|clip_grad|gradient clipping|\bdiverg\w+", "none", 0.3),
            h(r"\bECC\b|\bXid\b|only on (?:this|one) (?:GPU|machine|node)", "gpu.ecc_errors", 0.4),
        ],
        tells_apart: "The same step in float32 and on another GPU: NaN in fp16 only → precision; NaN everywhere → the training's settings or data; NaN on one GPU only → check its ECC counters (`nvidia-smi -q -d ECC`).",
    },
    // A distributed job that hangs, in the reporter's words ("NCCL hang in DDP", "training is
    // stuck at the all_reduce"): ranks whose collectives do not match (parameters without
    // gradients, code that runs on rank 0 only) far more often than a transport fault
    // (pytorch/pytorch#20125: find_unused_parameters=True fixed it).
    Rule {
        id: "nccl.hang_said",
        title: "a distributed job hangs (the reporter's words)",
        pattern: r"\b(?:NCCL|DDP|DistributedDataParallel|all_?reduce|all_?gather|collective|torch\.distributed|torchrun)\b[^\n]{0,60}\b(?:hang|hangs|hanging|hung|stuck|freez\w*|froze|deadlock\w*)\b|\b(?:hang|hangs|hanging|hung|stuck|freez\w*|froze|deadlock\w*)\b[^\n]{0,60}\b(?:NCCL|DDP|DistributedDataParallel|all_?reduce|all_?gather|torch\.distributed)\b",
        priority: 30,
        causes: &[
            c("workload.nccl", 0.6, "The ranks do not issue the same collectives: DDP waiting for gradients of parameters that got none (`find_unused_parameters`), work that runs on rank 0 only while the others wait in a collective, uneven batches at the end of an epoch.", "Run with `TORCH_DISTRIBUTED_DEBUG=DETAIL NCCL_DEBUG=INFO` and compare each rank's last collective; pass `find_unused_parameters=True` where parts of the model are skipped; run evaluation on every rank (or barrier around rank-0 work)."),
            c("probe.p2p", 0.25, "Peer-to-peer copies between the GPUs stall (IOMMU or PCIe ACS), so NCCL's first collective never completes; NCCL_P2P_DISABLE=1 makes it work.", "Try `NCCL_P2P_DISABLE=1`; if that works, disable ACS / set the IOMMU to passthrough (`iommu=pt`)."),
            c("host.shm_small", 0.1, "Inside a container /dev/shm is too small for NCCL's shared-memory transport.", "Run the container with `--shm-size=16g` or `--ipc=host`."),
            c("gpu.xid", 0.05, "A GPU fault (Xid in the kernel log) stopped one rank's kernels.", FIX_XID_HW),
        ],
        hints: &[
            h(r"find_unused_parameters|unused param\w*|rank ?0 only|only (?:on|in) rank|if (?:args\.|self\.)?(?:local_)?rank ?== ?0|uneven|end of (?:the )?(?:first )?epoch|evaluat\w+|validation", "workload.nccl", 0.2),
            h(r"NCCL_P2P_DISABLE|\bP2P\b|\biommu\b|\bACS\b|RTX ?[3-5]0[6-9]0|4090|5090", "probe.p2p", 0.45),
            h(r"docker|container|\bpod\b|kubernetes|/dev/shm|--shm-size", "host.shm_small", 0.25),
            h(r"\bXid\b", "gpu.xid", 0.4),
        ],
        tells_apart: "`TORCH_DISTRIBUTED_DEBUG=DETAIL`: ranks stuck in different collectives → the job; every rank in the same first collective with P2P on, working with `NCCL_P2P_DISABLE=1` → ACS/IOMMU.",
    },
    // cudaErrorNotReady raised as an error ("CUDA driver error: device not ready") and then
    // stale allocator handles: the GPU was reset under a running kernel, on Windows and WSL 2 by
    // the display driver's timeout detection (TDR) when one kernel runs longer than ~2 s
    // (noonghunna/club-3090#50: a 157k-token prefill under WSL 2).
    Rule {
        id: "cuda.not_ready_as_error",
        title: "CUDA 'device not ready' raised as an error",
        pattern: r"CUDA (?:driver )?error: device not ready|cudaErrorNotReady|CUDA_ERROR_NOT_READY",
        priority: 45,
        causes: &[
            c("gpu.display_watchdog", 0.5, "The GPU was reset under a running kernel: on Windows and WSL 2 the display driver's timeout detection (TDR, 2 s by default) resets a GPU whose kernel runs too long, and every CUDA allocation and handle of the process becomes invalid.", "Keep single kernels short (smaller chunks: a lower `--max-num-batched-tokens`, a smaller batch), or raise the TDR delay on Windows (`HKLM\\SYSTEM\\CurrentControlSet\\Control\\GraphicsDrivers` TdrDelay, then reboot); use a GPU that drives no display."),
            c("workload.library_bug", 0.3, "A library treats cudaErrorNotReady (the normal answer of a query on unfinished work) as a failure.", FIX_LIBRARY_BUG),
            c("gpu.xid", 0.2, "A GPU fault reset the device (an Xid in the kernel log at the same time).", FIX_XID_HW),
        ],
        hints: &[
            h(r"\bWindows\b|\bWSL ?2?\b|\bTDR\b|[A-Z]:\\|\\Users\\|INTERNAL ASSERT FAILED[^\n]{0,40}CUDACachingAllocator", "gpu.display_watchdog", 0.3),
            h(r"\bXid\b", "gpu.xid", 0.5),
            h(r"cudaEventQuery|cudaStreamQuery|\.query\(\)", "workload.library_bug", 0.35),
        ],
        tells_apart: "Windows or WSL 2 with a long kernel (a long prompt, a large batch) and a display on the GPU → TDR; an Xid in `dmesg` → the GPU; a library frame calling a query → that library.",
    },
    // cudaErrorInvalidDeviceFunction ("invalid device function", error 8 in old CUDA, 98 now):
    // the binary has no kernel (SASS or PTX it can JIT) for this GPU; the same family as "no
    // kernel image" under the older wording (peterjc123/pytorch-scripts#18: a GTX 860M, cc 5.0,
    // dropped by the build; pytorch/pytorch#1557: a source build made on a node with other GPUs).
    Rule {
        id: "cuda.invalid_device_function",
        title: "invalid device function (no kernel for this GPU in the binary)",
        pattern: r"\binvalid device function\b|cudaErrorInvalidDeviceFunction|CUDA_ERROR_INVALID_DEVICE_FUNCTION",
        priority: 60,
        causes: &[
            c("torch.arch_unsupported", 0.5, "The PyTorch build carries no kernels for this GPU's compute capability: a build that dropped an old GPU (official wheels left compute capability below 6.0 behind early), a build older than the GPU, or a source build made for the GPUs of another machine.", FIX_TORCH_ARCH),
            c("ext.arch_unsupported", 0.3, "A CUDA extension (a custom op, mmcv, a renderer) was compiled for other architectures than this GPU's.", FIX_EXT_ARCH),
            c("toolkit.arch_unsupported", 0.1, "Code built locally with a toolkit or TORCH_CUDA_ARCH_LIST that leaves this GPU's architecture out.", FIX_TOOLKIT_ARCH),
            c("workload.library_bug", 0.1, "A library release shipped without this architecture by mistake.", FIX_LIBRARY_BUG),
        ],
        hints: &[
            h(r"PyTorch no longer supports this GPU|is not compatible with the current PyTorch installation|aten[/\\]src|[/\\]THC(?:UNN)?[/\\]|THCTensor|THCStorage|built PyTorch|PyTorch (?:built|compiled) from source", "torch.arch_unsupported", 0.3),
            h(EXTENSIONS, "ext.arch_unsupported", 0.35),
            h(r"\.cu:\d+|setup\.py (?:build|install|develop)|TORCH_CUDA_ARCH_LIST|neural_renderer|_ext\b", "ext.arch_unsupported", 0.25),
        ],
        tells_apart: "`python -c \"import torch; print(torch.cuda.get_arch_list(), torch.cuda.get_device_capability())\"`: the device's sm missing from torch's list means the build; an extension's kernel failing means rebuild that extension for this GPU.",
    },
    // torch.compile's Triton code generation failing in the reporter's paste without
    // BackendCompilerFailed's class name ("backend='inductor' raised: CompilationError: at
    // 10:11 ..."): the generated kernel does not compile, a bug of the library whose graph it is
    // or of this torch/Triton (kijai/ComfyUI-WanVideoWrapper#408: fixed by the previous release).
    Rule {
        id: "inductor.codegen_failed",
        title: "torch.compile's generated Triton kernel does not compile",
        pattern: r"backend='inductor' raised|triton\.compiler\.errors\.CompilationError|\bCompilationError: at \d+:\d+",
        priority: 34,
        causes: &[
            c("workload.library_bug", 0.8, "torch.compile generated a Triton kernel that does not compile (an unsupported dtype combination, an op lowering bug): a bug of the library that builds the graph or of this torch/Triton, not the machine.", "Run without compilation to confirm (`torch._dynamo.config.suppress_errors = True`, or drop torch.compile); go back to the library's previous release or upgrade torch/Triton; report the minimal graph upstream."),
            c("torch.wheel_deps_mismatch", 0.2, "The Triton installed is not the release this torch pins, so its compiler rejects code inductor generates.", "Install the Triton torch pins (`pip show torch` lists it)."),
        ],
        hints: &[
            h(VERSION_CONTRAST, "workload.library_bug", 0.2),
            h(r"triton(?:-windows)?[ =]=?\d+\.\d+[^\n]{0,40}(?:torch|pytorch)[ =]=?\d|pip install[^\n]{0,30}triton", "torch.wheel_deps_mismatch", 0.3),
        ],
        tells_apart: "The same model without torch.compile: it runs → the compiler path; then the library's previous release or another torch/Triton pair tells whose bug it is.",
    },
    // Triton's own floor: "Found NVIDIA GeForce GTX 1080 Ti which is too old to be supported by
    // the triton GPU compiler ... Triton only supports devices of CUDA Capability >= 7.0"
    // (MIC-DKFZ/nnUNet-style threads: torch.compile on a Pascal GPU). The program's choice of
    // torch.compile (or of a library's Triton kernels) on a GPU below Triton's floor.
    Rule {
        id: "triton.gpu_too_old",
        title: "the GPU is below Triton's compute-capability floor",
        pattern: r"too old to be supported by the triton GPU compiler|Triton only supports devices of CUDA Capability >= \d+\.\d+",
        priority: 70,
        causes: &[
            c("ext.arch_unsupported", 0.8, "Triton, the compiler behind torch.compile's GPU backend and many libraries' kernels, needs compute capability 7.0 or newer; this GPU is older, so the program's compiled path (or the library's Triton kernels) cannot run on it. PyTorch itself still runs on the GPU.", "Run without compilation (drop `torch.compile`, or the program's compile option, e.g. `nnUNet_compile=f`; `torch._dynamo.config.suppress_errors = True` falls back to eager), or use a library release with a non-Triton path, or a GPU of compute capability 7.0+."),
            c("torch.arch_unsupported", 0.2, "The torch build's GPU support and its Triton differ for this GPU.", FIX_TORCH_ARCH),
        ],
        hints: &[],
        tells_apart: "`python -c \"import torch; print(torch.cuda.get_device_capability())\"`: below (7, 0), Triton-compiled paths cannot run; eager PyTorch can.",
    },
    // ---- round 8a (clusters, containers, cloud)
    // modprobe's "could not insert 'nvidia': No such device" (and NVRM's "No NVIDIA GPU found"):
    // the module loads but finds no GPU it can drive. On a cloud instance that is an instance type
    // without a GPU (amazon-archives/amazon-dsstne#26: the AMI has the driver, the instance has no
    // GPU); elsewhere a GPU this driver branch does not support, or nouveau holding the device.
    Rule {
        id: "kernel.nvidia_no_device",
        title: "the NVIDIA kernel module finds no GPU to drive",
        pattern: r"(?:could not insert 'nvidia': No such device|NVRM: No NVIDIA (?:GPU|graphics adapter)s? found)",
        priority: 78,
        causes: &[
            c("host.no_nvidia_gpu", 0.5, "The module is installed but there is no NVIDIA GPU on the PCI bus: a cloud instance type without a GPU (the image or AMI ships the driver either way), a VM the GPU was not passed through to, or a machine with other graphics only.", "Check `lspci | grep -i nvidia`; on a cloud, start an instance type with a GPU (AWS g/p families, GCP with an attached accelerator, Azure NC/ND/NV); for a VM, pass the GPU through."),
            c("driver.gpu_unsupported", 0.3, "The GPU is there but this driver branch does not support it (a legacy GPU dropped by the branch, or a GPU newer than the driver), so the module claims no device.", "Install the driver branch that supports the GPU (`gpu-doctor matrix show --gpu \"<name>\"`); `dmesg | grep NVRM` names the reason."),
            c("driver.nouveau_loaded", 0.2, "nouveau is bound to the GPU, so the NVIDIA module finds no free device.", "Blacklist nouveau (`/etc/modprobe.d/blacklist-nouveau.conf`), rebuild the initramfs and reboot."),
        ],
        hints: &[
            h(r"\b(?:AWS|EC2|AMI|instance type|\binstance\b|GCP|Compute Engine|Azure|cloud)\b", "host.no_nvidia_gpu", 0.3),
            h(r"nouveau", "driver.nouveau_loaded", 0.5),
            h(r"\bNVRM: [^\n]{0,80}(?:not supported|legacy|unsupported)", "driver.gpu_unsupported", 0.5),
        ],
        tells_apart: "`lspci -nn | grep -i nvidia`: nothing listed means no NVIDIA GPU on this machine or instance; listed, `lsmod | grep nouveau` and `dmesg | grep NVRM` tell the driver's reason.",
    },
    // nvidia-docker 1.0's check of the image's CUDA against the host driver ("Error: unsupported
    // CUDA version: driver 8.0 < image 9.0.176"): the image needs a newer CUDA than the host
    // driver supports (NVIDIA/nvidia-docker#497, floydhub/dl-docker#34).
    Rule {
        id: "container.unsupported_cuda_version",
        title: "the image's CUDA is newer than the host driver supports (nvidia-docker)",
        pattern: r"unsupported CUDA version: driver [\d.]+ < image [\d.]+",
        priority: 86,
        causes: &[
            c("driver.too_old_for_toolkit", 0.9, "The image was built for a newer CUDA than the host driver supports (nvidia-docker compares the two before starting it); the container brings CUDA, not the driver.", "Upgrade the host driver to one that supports the image's CUDA (`nvidia-smi` shows the highest CUDA it supports), or use an image tag of the driver's CUDA (e.g. `nvidia/cuda:8.0-runtime` under a CUDA 8.0 driver)."),
            c("host.container_no_gpu", 0.1, "The legacy nvidia-docker 1.0 wrapper itself is outdated.", FIX_CONTAINER),
        ],
        hints: &[],
        tells_apart: "The message names both: the driver's CUDA and the image's; `nvidia-smi` on the host shows the same driver.",
    },
    // DCGM's profiling (DCP) metrics exist on datacenter GPUs only: dcgm-exporter's default
    // metric list asks for them and, on GeForce/Quadro GPUs (or where the profiling module cannot
    // load), older releases stopped, newer ones skip them (NVIDIA/gpu-monitoring-tools#119, #141,
    // dcgm-exporter#22). The GPU and driver are fine.
    Rule {
        id: "dcgm.profiling_unsupported",
        title: "DCGM's profiling metrics are not supported on this GPU",
        pattern: r"(?:Profiling is not supported for this group of GPUs or GPU|Not collecting DCP metrics|DCP metrics not enabled|This request is serviced by a module of DCGM that is not currently loaded)",
        priority: 70,
        causes: &[
            c("none", 0.8, "DCGM's profiling (DCP, DCGM_FI_PROF_*) metrics are available on datacenter GPUs only (and not on every MIG setup): the exporter's metric list asks for them on a GPU without them. Nothing is wrong with the GPU or the driver.", "Drop the DCGM_FI_PROF_* lines from the exporter's metrics CSV (Helm: the `arguments` that pass dcp-metrics-included.csv), or upgrade dcgm-exporter (2.1.2+ skips unsupported metrics)."),
            c("gpu.mig_enabled", 0.2, "With MIG enabled, some DCGM releases collect no profiling metrics for the MIG devices.", "Use a DCGM/dcgm-exporter release with MIG profiling support, or read the metrics per GPU instead."),
        ],
        hints: &[h(r"\bMIG(?:$|[^ \w]| [^M]| M[^.])|MIG-|\dg\.\d+gb|mig-?\d+g\.", "gpu.mig_enabled", 0.4)],
        tells_apart: "`dcgmi profile -l`: no profiling metric groups on this GPU means they are not supported; the GPU's other metrics still work.",
    },
    // GKE (and other installers that put the driver under /usr/local/nvidia) mount the driver
    // into a container only when it requests `nvidia.com/gpu`; a pod without the limit has no
    // /usr/local/nvidia and no libcuda.so.1 (GoogleCloudPlatform/container-engine-accelerators
    // #139, #80). Images that no longer put /usr/local/nvidia/{bin,lib64} on PATH /
    // LD_LIBRARY_PATH do not find the driver they were given (compute-gpu-installation#46).
    Rule {
        id: "k8s.driver_dir_missing",
        title: "the driver directory (/usr/local/nvidia) is missing or off the path in the pod",
        pattern: r"(?:/usr/local/nvidia(?:/lib64|/bin)?\b[^\n]{0,60}?(?:No such file or directory|is not present|not present|is missing|does not exist|doesn'?t exist)|(?:doesn'?t|does not|don'?t|do not) have (?:a |the )?/usr/local/nvidia\b|(?:include|contain|have|has|add|put|set)s?\s+`?/usr/local/nvidia(?:/lib64|/bin)?`?\s+(?:in|to|on|into)\s+`?(?:LD_LIBRARY_PATH|PATH)\b)",
        priority: 62,
        causes: &[
            c("workload.gpu_not_requested", 0.5, "GKE's device plugin mounts the driver (/usr/local/nvidia: nvidia-smi, libcuda.so.1) only into containers that request a GPU; a pod or container without a `nvidia.com/gpu` limit gets none, even on a GPU node.", "Add `resources: limits: nvidia.com/gpu: 1` to the container that uses the GPU (and the node pool's taint toleration)."),
            c("host.container_no_gpu", 0.3, "The driver is mounted but the image does not look for it: recent CUDA base images no longer put /usr/local/nvidia/bin on PATH and /usr/local/nvidia/lib64 on LD_LIBRARY_PATH.", "Set `PATH=/usr/local/nvidia/bin:$PATH` and `LD_LIBRARY_PATH=/usr/local/nvidia/lib64:$LD_LIBRARY_PATH` in the image or the pod spec."),
            c("driver.not_installed", 0.2, "The driver installer daemonset has not (or not successfully) installed the driver on this node, so there is nothing to mount.", "Check the node's `nvidia-driver-installer` pod logs (`kubectl -n kube-system logs ... -c nvidia-driver-installer`) and the node's allocatable `nvidia.com/gpu`."),
        ],
        hints: &[
            h(r"LD_LIBRARY_PATH|\bPATH\b|base images?|Dockerfile", "host.container_no_gpu", 0.5),
            // The installer pod's own state, not a title's guess: CrashLoopBackOff, stuck in Init.
            h(r"nvidia-driver-installer[^\n]{0,80}(?:CrashLoopBackOff|Init:\d|Error\b)", "driver.not_installed", 0.4),
            h(r"nvidia\.com/gpu:\s*[1-9]", "workload.gpu_not_requested", -0.3),
        ],
        tells_apart: "`kubectl get pod <pod> -o yaml | grep -A2 limits`: no `nvidia.com/gpu` means no driver mounted; with it, `ls /usr/local/nvidia/lib64` in the container and its `echo $LD_LIBRARY_PATH`.",
    },
    // ONNX Runtime's CUDA provider checks `device_id` against the GPUs CUDA enumerates ("Failed
    // to parse provider option \"device_id\": Invalid device ID: 0, must be between 0
    // (inclusive) and 0 (exclusive)"): with none visible, every id fails. In a pod that is a
    // container without a `nvidia.com/gpu` limit (microsoft/onnxruntime#13753 on GKE).
    Rule {
        id: "onnxruntime.device_id_invalid",
        title: "ONNX Runtime's CUDA provider rejects the device id",
        pattern: r"(?:Failed to parse provider option \x22?device_id\x22?[^\n]{0,120}|Invalid device ID: \d+, must be between 0 \(inclusive\) and \d+ \(exclusive\))",
        // Above `cuda.invalid_device_ordinal` ("Invalid device id"): the provider's own wording.
        priority: 76,
        causes: &[
            c("env.visible_devices_invalid", 0.35, "The device id names a GPU CUDA does not enumerate: CUDA_VISIBLE_DEVICES leaves fewer GPUs than the id (or none).", "Use a device id below the number of visible GPUs (`nvidia-smi -L`, and CUDA_VISIBLE_DEVICES's list counts from 0)."),
            c("host.container_no_gpu", 0.3, "The container has no GPU at all (started without `--gpus` / the NVIDIA runtime), so no id is valid.", FIX_CONTAINER),
            c("workload.gpu_not_requested", 0.2, "In a pod or batch job: the container did not request a GPU (`nvidia.com/gpu` limit, `--gres=gpu`), so it was given none.", "Request the GPU (`resources: limits: nvidia.com/gpu: 1`; Slurm `--gres=gpu:1`)."),
            c("host.no_nvidia_gpu", 0.15, "The machine has no NVIDIA GPU.", "Run on a machine with an NVIDIA GPU, or use the CPU execution provider."),
        ],
        hints: &[
            h(r"\b(?:GKE|EKS|AKS|kubernetes|k8s|kubectl|\bpod\b|node ?pool|slurm|sbatch|srun)\b", "workload.gpu_not_requested", 0.45),
            h(r"docker|container|podman", "host.container_no_gpu", 0.2),
            h(r"CUDA_VISIBLE_DEVICES", "env.visible_devices_invalid", 0.3),
            h(r"and 0 \(exclusive\)", "env.visible_devices_invalid", -0.2),
        ],
        tells_apart: "`nvidia-smi -L` where the program runs: no GPU listed means none was given (container, pod limit, job request); listed, compare the id with CUDA_VISIBLE_DEVICES.",
    },
    // Slurm refusing a job's GPU request at submission ("Invalid generic resource (gres)
    // specification", a site's submit plugin: "No gpu count given", "Cannot find GPU
    // specification", "CPU job setup is not valid"): the job asked for no GPU (or in a form the
    // site refuses) in a GPU partition, or the cluster has no GPU gres configured at all
    // (glotzerlab/signac-flow#59, awslabs/awsome-distributed-ai#196, NVIDIA/exemplar-performance#5).
    Rule {
        id: "slurm.gpu_request_rejected",
        title: "Slurm refused the job's GPU request at submission",
        pattern: r"(?:(?:sbatch|srun|salloc): error: [^\n]{0,80}?(?:Invalid generic resource \(gres\) specification|No gpu count given[^\n]{0,40}|Cannot find GPU specification[^\n]{0,80}|not requesting GPUs? in a GPU partition[^\n]{0,40}|Gres format wrong[^\n]{0,40}|CPU job setup is not valid|partition '[^'\n]{1,60}' is not valid for this job)|Invalid generic resource \(gres\) specification)",
        priority: 64,
        causes: &[
            c("host.scheduler_config", 0.5, "The cluster has no GPU generic resource configured (GresTypes=gpu in slurm.conf, the node's Gres= and gres.conf), so any `--gres=gpu` request is invalid there.", "On the cluster: `GresTypes=gpu` in slurm.conf, `Gres=gpu:<n>` on the GPU nodes and a gres.conf (or AutoDetect=nvml), then `scontrol reconfigure`; on a cluster without GPUs, drop the GPU request."),
            c("workload.gpu_not_requested", 0.45, "The job's script asks the scheduler for no GPU, or in a form the site refuses (a GPU partition that demands `--gres=gpu:<type>:<n>` or `--gpus-per-node`, where `--gpus` per job reads as a CPU job).", "Request the GPUs the way the site documents: `#SBATCH --gres=gpu:<n>` (or `gpu:<type>:<n>`) or `--gpus-per-node=<n>` in the job script."),
        ],
        hints: &[
            h(r"No gpu count given|Cannot find GPU specification|not requesting GPUs?|specify --gres|CPU job setup|Gres format wrong|--gpus\b", "workload.gpu_not_requested", 0.4),
            h(r"slurm\.conf|gres\.conf|GresTypes|AutoDetect", "host.scheduler_config", 0.3),
        ],
        tells_apart: "`scontrol show node <gpu-node> | grep -i gres`: no `Gres=gpu` is the cluster's configuration; with it, the job script's request (`#SBATCH --gres=gpu:N`) and the partition's rules.",
    },
    // DCGM's clients (dcgmi, dcgm-exporter in standalone mode, samplers) connect to the
    // nv-hostengine daemon: "Unable to connect to host engine. Host engine connection
    // invalid/disconnected" means it is not running or not listening there (ovis-hpc/ldms#1636,
    // NVIDIA/DCGM#133), or it could not start because there is no NVIDIA GPU / NVML
    // (NVIDIA/DCGM#43: an AMD g4ad instance).
    Rule {
        id: "dcgm.hostengine_unreachable",
        title: "DCGM's host engine (nv-hostengine) cannot be reached",
        pattern: r"(?:Unable to connect to host engine[^\n]{0,80}|Host engine connection invalid/disconnected|unable to establish a connection to the specified host: [\w.-]+|Host Engine is disconnected or invalid)",
        priority: 60,
        causes: &[
            c("none", 0.55, "The DCGM client could not reach the nv-hostengine daemon: it is not running (the nvidia-dcgm service is not enabled) or listens elsewhere (by default only on 127.0.0.1). The GPUs themselves are not at fault.", "`sudo systemctl --now enable nvidia-dcgm` (or run `nv-hostengine`); for a remote host start it with `-b <address>`; then `dcgmi discovery -l`."),
            c("driver.nvml_failed", 0.25, "nv-hostengine exits at start when NVML cannot initialise (driver not loaded, a mismatch), so nothing listens.", "Run `nvidia-smi` on the host: fix the driver first, then start nvidia-dcgm."),
            c("host.no_nvidia_gpu", 0.2, "There is no NVIDIA GPU on the machine (an instance type with other GPUs or none), so the host engine has nothing to manage and does not start.", "Check `lspci | grep -i nvidia`; use an instance type with an NVIDIA GPU."),
        ],
        hints: &[
            h(NO_NVIDIA_GPU_WORDS, "host.no_nvidia_gpu", 0.8),
            h(r"\bg4ad\b|Radeon|\bAMD\b", "host.no_nvidia_gpu", 0.6),
            h(r"Failed to initialize NVML|Failed to start DCGM Server|Driver/library version mismatch|driver not loaded", "driver.nvml_failed", 0.5),
        ],
        tells_apart: "`systemctl status nvidia-dcgm` (is nv-hostengine running?) and `nvidia-smi` (does NVML work at all?).",
    },
    // incus / LXD read a GPU's NVIDIA details (and give containers `nvidia.runtime`) through
    // the host's NVIDIA container toolkit (libnvidia-container): without it `incus info
    // --resources` prints the NVIDIA section with empty CUDA/NVRM versions and the container
    // gets no NVIDIA devices (lxc/incus#1322).
    Rule {
        id: "lxd.nvidia_info_empty",
        title: "incus/LXD shows the GPU with empty NVIDIA information",
        pattern: r"NVIDIA information:\s*\n(?:[^\n]*\n){0,4}?[ \t]*CUDA Version:[ \t]*\n[ \t]*NVRM Version:[ \t]*(?:\n|$)",
        priority: 52,
        causes: &[
            c("host.container_no_gpu", 0.7, "incus/LXD use the host's NVIDIA container toolkit (libnvidia-container) to read the NVIDIA details and to pass the driver into containers (`nvidia.runtime=true`); without it the details are empty and the container gets no NVIDIA devices.", "Install the NVIDIA container toolkit on the host (`nvidia-container-toolkit` / `libnvidia-container-tools`), then restart the container with `nvidia.runtime=true` and the `gpu` device."),
            c("driver.nvml_failed", 0.3, "The host's NVML cannot answer (driver not loaded, a version mismatch), so the NVIDIA details stay empty.", "Run `nvidia-smi` on the host; fix the driver (reboot after an upgrade) first."),
        ],
        hints: &[h(r"Failed to initialize NVML|Driver/library version mismatch|couldn't communicate with the NVIDIA driver", "driver.nvml_failed", 0.6)],
        tells_apart: "`nvidia-smi` and `nvidia-container-cli info` on the host: the first failing is the driver, only the second failing is the missing toolkit.",
    },
    // ---- round 7a (LLM stacks)
    // NVIDIA's NGC images (TensorRT-LLM, Triton server, PyTorch/NeMo containers) check the host
    // driver at start-up: "This container was built for NVIDIA Driver Release 535.86 or later,
    // but version 510.85.02 was detected and compatibility mode is UNAVAILABLE" (forward
    // compatibility needs a datacenter GPU and a supported branch). The image's CUDA is newer
    // than the host driver (NVIDIA/TensorRT-LLM#23, maintainer: upgrade the driver to >= 535.86).
    Rule {
        id: "container.built_for_newer_driver",
        title: "the container image was built for a newer NVIDIA driver than the host's",
        pattern: r"(?:container was built for NVIDIA Driver Release [\d.]+ or later|compatibility mode is UNAVAILABLE)",
        priority: 86,
        causes: &[
            c("driver.too_old_for_toolkit", 0.8, "The image's CUDA (an NGC container's) needs a newer host driver than the one detected, and forward compatibility cannot bridge the gap on this GPU or driver branch.", "Upgrade the host driver to the release the banner names (or newer), or use an image tag built for an older CUDA that the host driver supports."),
            c("driver.forward_compat_unsupported", 0.15, "Forward compatibility (the image's cuda-compat) would have covered the gap on a datacenter GPU; on this GPU or branch it is unavailable.", "Upgrade the host driver; forward compatibility works only on datacenter GPUs with a supported driver branch."),
        ],
        hints: &[],
        tells_apart: "The banner names both versions: the release the image needs and the driver detected; `nvidia-smi` on the host shows the same driver.",
    },
    // A paste that only says, in prose, that the driver is too low or too old for the program
    // ("it prompts that the driver version is too low": NVIDIA/TensorRT-LLM#331, a 470 driver
    // under TensorRT-LLM's CUDA 12). Low priority: any real error line in the paste explains more.
    Rule {
        id: "driver.said_too_old",
        title: "the paste says the driver is too old for the program",
        pattern: r"\b(?:nvidia |gpu |graphics |display )?driver(?: version)?\b[^\n.]{0,40}\b(?:too low|too old|outdated|out of date|not (?:new|recent) enough)\b",
        priority: 18,
        causes: &[
            c("driver.too_old_for_toolkit", 0.5, "The program (or its image, or the toolkit it was built with) needs a newer CUDA than the installed driver supports.", "Install a driver at least as new as the program's CUDA needs (`nvidia-smi`'s 'CUDA Version' must be at least the program's CUDA), or use a build made for an older CUDA."),
            c("driver.too_old_for_torch", 0.45, "The framework build's CUDA needs a newer driver than the one installed.", FIX_DRIVER_UPGRADE),
        ],
        hints: &[
            h(r"\btorch\b|pytorch|torch\.cuda|\+cu\d{3}", "driver.too_old_for_torch", 0.2),
            // Outweighs the general "the text says the driver is too old" evidence for torch's
            // build, which a paste naming no torch does not concern.
            h(r"tensorrt|\btrt|trtexec|\bnvcc\b|toolkit|container|docker|\bimage\b|llama\.cpp|ollama|ggml", "driver.too_old_for_toolkit", 0.7),
        ],
        tells_apart: "`nvidia-smi` shows the highest CUDA the driver supports; compare it with the CUDA the program or image was built with.",
    },
    // PyTorch refuses CUDA in a process forked after the parent initialised it ("Cannot
    // re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the
    // 'spawn' start method"): the program's multiprocessing start method, e.g. vLLM's workers
    // (VLLM_WORKER_MULTIPROC_METHOD=spawn fixed it: lm-sys/FastChat#3507, vllm-project/vllm#7151).
    // The machine is fine. Low priority: a device error in the same paste explains more.
    Rule {
        id: "torch.cuda_in_forked_process",
        title: "CUDA used in a process forked after CUDA was initialised",
        pattern: r"Cannot re-initialize CUDA in forked subprocess",
        priority: 30,
        causes: &[
            c("none", 0.7, "The program (or a library it starts, such as vLLM's workers or a DataLoader) forks processes after the parent has initialised CUDA; CUDA cannot be used again in a forked child. Nothing is wrong with the machine.", "Use the 'spawn' start method (`multiprocessing.set_start_method(\"spawn\")`; vLLM: `export VLLM_WORKER_MULTIPROC_METHOD=spawn`), or do not touch CUDA in the parent before the workers start."),
            c("workload.library_bug", 0.3, "A library initialises CUDA at import, before its own workers fork (fixed in later releases of several serving stacks).", "Upgrade the library, or set its multiprocessing method to spawn."),
        ],
        hints: &[],
        tells_apart: "Does anything call CUDA (`torch.cuda.*`, a model `.to(\"cuda\")`) before the workers start? With 'spawn' the error goes away.",
    },
    // The CUDA driver's own library lacks an entry point the program's CUDA runtime needs:
    // "symbol lookup for cuCtxCreate_v3 failed" in nvcuda.dll, "undefined symbol:
    // cuTensorMapEncodeTiled" from libcuda, or a program saying "your nvidia driver is too old or
    // missing" (Ollama: ollama/ollama#6604, maintainer: that driver was too old). The driver
    // predates the CUDA the program was built with. Driver API names are `cu` + a capital letter
    // (cuDNN's and cuBLAS's are lower case), so the match is case-sensitive there.
    Rule {
        id: "driver.entry_point_missing",
        title: "the CUDA driver library lacks an entry point the program needs",
        pattern: r"(?:symbol lookup for (?-i:cu[A-Z]\w+) failed|undefined symbol:\s*(?-i:cu[A-Z][a-z]\w*)\b|(?:your |the )?nvidia driver is too old or missing)",
        // Above import.undefined_symbol: a driver-API symbol names the driver's library.
        priority: 85,
        causes: &[
            c("driver.too_old_for_toolkit", 0.6, "The installed driver's libcuda / nvcuda.dll predates the CUDA the program (or its bundled runtime) was built with, so a driver API it calls does not exist yet.", "Update the NVIDIA driver to one that supports the program's CUDA (`nvidia-smi` shows the highest CUDA it supports); on Windows install it from nvidia.com, not only through Windows Update."),
            c("driver.too_old_for_torch", 0.3, "The framework build's CUDA needs a newer driver than the one installed.", FIX_DRIVER_UPGRADE),
            c("driver.not_installed", 0.1, "The driver's user-space library is missing or incomplete (a stub or a half-removed install found instead).", FIX_DRIVER_INSTALL),
        ],
        hints: &[
            h(r"\btorch\b|pytorch|\+cu\d{3}|site-packages[/\\]torch", "driver.too_old_for_torch", 0.35),
            h(r"\bstubs?\b|libcuda\.so: cannot open", "driver.not_installed", 0.3),
            // A program that ships its own CUDA runtime (Ollama's and llama.cpp's runners, a
            // bundled cudart DLL): the general "the text says the driver is too old" evidence is
            // for torch's build and does not concern it.
            h(r"ollama|\bggml|llama[-_.]?(?:cpp|server)|cudart64_\d+\.dll|\bvllm\b|tensorrt", "driver.too_old_for_toolkit", 0.7),
        ],
        tells_apart: "`nvidia-smi` prints the driver version and the highest CUDA it supports; compare with the CUDA the program ships (cudart64_12.dll → CUDA 12).",
    },
    // Ollama's runner (llama.cpp's server) died and Ollama reports only its exit status: "llama
    // runner process has terminated: exit status 0xc0000409", "llama-server process has
    // terminated: exit status 0xe06d7363". Most often the Ollama release (a model newer than the
    // release, a runner bug: ollama/ollama#7031, fixed by updating Ollama) or a driver older than
    // the runner's bundled CUDA (ollama/ollama#16645, #6604); Windows' 0xc0000139 is
    // STATUS_ENTRYPOINT_NOT_FOUND, a DLL (the driver's nvcuda.dll) lacking a function. Low
    // priority: the CUDA error line above it, where pasted, explains more.
    Rule {
        id: "llm.runner_terminated",
        title: "the model runner process terminated",
        pattern: r"(?:llama runner|llama-server|runner) process (?:has )?terminated(?::\s*exit status [\w-]+)?",
        priority: 22,
        causes: &[
            c("workload.library_bug", 0.45, "The runner crashed on this model with this release: a model newer than the release supports, or a bug in the runner fixed in a later release.", "Update Ollama (or the llama.cpp build) to the latest release and retry; with `OLLAMA_DEBUG=1` the server log shows the runner's last lines."),
            c("driver.too_old_for_toolkit", 0.35, "The runner's bundled CUDA runtime needs a newer NVIDIA driver than the one installed, and the runner dies at start.", "Update the NVIDIA driver (on Windows from nvidia.com); `nvidia-smi` must show at least the CUDA the runner ships (CUDA 12 runners need driver 525+; CUDA 13 runners 580+)."),
            c("workload.out_of_memory", 0.2, "The model did not fit in the GPU (or host) memory the runner could get.", "Lower `num_gpu` / `num_ctx`, or use a smaller quantisation."),
        ],
        hints: &[
            h(r"0xc0000139|entry ?point|driver (?:is )?(?:too old|outdated)|nvcuda\.dll", "driver.too_old_for_toolkit", 0.45),
            h(r"out of memory|cudaMalloc failed|not enough memory", "workload.out_of_memory", 0.5),
        ],
        tells_apart: "The server log above the exit status (`OLLAMA_DEBUG=1`): a CUDA error line, 'out of memory', or nothing (then the release); `nvidia-smi` for the driver's CUDA version.",
    },
    // Out of memory told in prose only ("it works well in vllm 0.2.6 but run out of memory using
    // 0.2.7": vllm-project/vllm#2413, where 0.2.7's CUDA graphs took the extra memory). Low
    // priority: an allocator's own message, where pasted, explains more.
    Rule {
        id: "memory.said_out_of_memory",
        title: "the paste says the job runs out of memory",
        pattern: r"\b(?:run|runs|ran|running|runing|goes|went|going) out of (?:GPU |video |VRAM |device |CUDA )?memory\b",
        priority: 20,
        causes: &[
            c("workload.out_of_memory", 0.75, "The job (model weights, KV cache or activations, CUDA graphs, batch size) needs more GPU memory than is free; a newer release of the same program can need more (CUDA graphs, larger default batches).", FIX_OOM),
            c("gpu.busy", 0.15, "Other processes hold part of the GPU's memory.", FIX_BUSY),
            c("workload.library_bug", 0.1, "A memory leak or a wrong memory estimate in the program's release.", FIX_LIBRARY_BUG),
        ],
        hints: &[h(r"other process|another process|already (?:in use|used)|nvidia-smi shows", "gpu.busy", 0.3)],
        tells_apart: "`nvidia-smi` before the run (memory already used by others?) and the program's memory settings (vLLM: `--gpu-memory-utilization`, `--max-model-len`, `--enforce-eager`).",
    },
    // ---- round 6a (field sample 11i)
    // A framework op with no half-precision CPU kernel ("addmm_impl_cpu_", "slow_conv2d_cpu",
    // "LayerNormKernelImpl" not implemented for 'Half'): fp16 ran on the CPU. Where the program
    // meant the GPU, the torch installed is the CPU build (huggingface/diffusers#3342: torch
    // 2.0.1+cpu beside an RTX 4090; pykeio/diffusers#27: torch installed without CUDA).
    Rule {
        id: "torch.half_on_cpu",
        title: "a half-precision op ran on the CPU",
        pattern: r"\x22?\w+\x22? not implemented for '(?:Half|BFloat16|ComplexHalf)'",
        priority: 35,
        causes: &[
            c("torch.cpu_only", 0.55, "PyTorch's CPU kernels lack many float16 ops, so the error means the fp16 model ran on the CPU; with the GPU meant, the installed torch is a CPU-only build (pip's default on Windows, a `+cpu` wheel) and the model never reached the GPU.", "Install a CUDA build of torch into the same environment (`pip install --force-reinstall torch --index-url https://download.pytorch.org/whl/cu124`), then check `torch.cuda.is_available()`."),
            c("workload.library_bug", 0.3, "The program keeps the model (or one tensor) on the CPU while casting to half: a device option left at cpu, or fp16 asked for on a run without a GPU.", "Move the model and inputs to the GPU (`.to(\"cuda\")`), or run in float32 on the CPU (drop --fp16 / `.half()`)."),
            c("host.no_nvidia_gpu", 0.15, "The machine has no NVIDIA GPU, so everything runs on the CPU, where fp16 is not supported for this op.", "Run in float32 on the CPU, or on a machine with an NVIDIA GPU."),
        ],
        hints: &[
            h(r"\+cpu\b|CUDA used to build PyTorch: None|\(GPU\?\)[^\n]{0,30}\(False\)", "torch.cpu_only", 0.4),
            h(r"(?:device|--device)\s*[=:]?\s*['\x22]?cpu\b|\.to\(['\x22]cpu['\x22]\)", "workload.library_bug", 0.3),
        ],
        tells_apart: "`python -c \"import torch; print(torch.__version__, torch.cuda.is_available())\"`: a `+cpu` version or False means the CPU build.",
    },
    // TensorFlow 2.11 and later have no GPU build for native Windows: on Windows they list only the
    // CPU although PyTorch sees the GPU (tensorflow/tensorflow#61014, #62944: WSL2 or the DirectML
    // plugin). The paste names TensorFlow 2.11+ and Windows.
    Rule {
        id: "tensorflow.windows_native",
        title: "TensorFlow 2.11+ on native Windows has no GPU build",
        pattern: r"(?:(?:tensorflow|\btf\b)(?:[-_ ]?gpu)?[^\n\d]{0,25}\b2\.(?:1[1-9]|[2-9]\d)\b[\s\S]{0,1500}?(?:\bWindows\b|\bwin ?1[01]\b)|(?:\bWindows\b|\bwin ?1[01]\b)[\s\S]{0,1500}?(?:tensorflow|\btf\b)(?:[-_ ]?gpu)?[^\n\d]{0,25}\b2\.(?:1[1-9]|[2-9]\d)\b)",
        priority: 28,
        causes: &[
            c("torch.cpu_only", 0.7, "TensorFlow's last release with GPU support on native Windows is 2.10; from 2.11 the Windows package is CPU-only, so TensorFlow lists no GPU although the driver and other frameworks see it.", "Run TensorFlow under WSL2 (`pip install tensorflow[and-cuda]` inside it), or on native Windows use TensorFlow 2.10 with CUDA 11.2 / cuDNN 8.1, or the DirectML plugin."),
            c("torch.wheel_deps_mismatch", 0.2, "The CUDA and cuDNN libraries of the major this TensorFlow was built for are not installed where it looks.", "Install the CUDA/cuDNN versions TensorFlow's tested-build table lists for this release."),
        ],
        hints: &[
            h(r"\bWSL ?2?\b|\bUbuntu\b|/home/|/usr/", "torch.cpu_only", -0.5),
            // TensorFlow shows a GPU device (DirectML, WSL): it has one.
            h(r"device:GPU:\d|physical_device:GPU|Created (?:TensorFlow )?device[^\n]{0,80}GPU|Num GPUs Available:\s*[1-9]|\bDirectML\b|\bDML\b", "torch.cpu_only", -0.6),
        ],
        tells_apart: "`tf.test.is_built_with_cuda()` on Windows: False for every TensorFlow after 2.10.",
    },
    // A notebook service's session without a GPU: Colab / Kaggle runtimes start on the CPU unless
    // the runtime type (accelerator) is set to a GPU (googlecolab/colabtools#865, #1008).
    Rule {
        id: "notebook.no_gpu_runtime",
        title: "a Colab/Kaggle runtime without a GPU",
        // Above the messages' own rules (like `cluster.job_without_gpu`): the service named
        // decides what "no GPU" means.
        pattern: r"(?:(?:\b(?:Google )?Colab(?:oratory)?\b|\bKaggle\b)[\s\S]{0,1500}?(?:\bGPU\b[^\n]{0,20}\b(?:unavailable|not available|not found|not detected)|is_(?:gpu_)?available\(\)[\s\S]{0,80}?\bFalse\b|No CUDA GPUs are available|no CUDA-capable device is detected|Found no NVIDIA driver|NVIDIA-SMI has failed|CUDA is not available|nvidia-smi: (?:command )?not found)|(?:No CUDA GPUs are available|no CUDA-capable device is detected|Found no NVIDIA driver|NVIDIA-SMI has failed|CUDA is not available)[\s\S]{0,1500}?(?:\b(?:Google )?Colab(?:oratory)?\b|\bKaggle\b))",
        priority: 80,
        causes: &[
            c("workload.gpu_not_requested", 0.7, "The notebook's runtime has no GPU: Colab and Kaggle start CPU sessions unless the runtime type / accelerator is set to a GPU (or the GPU quota is used up and the session fell back to CPU).", "Colab: Runtime -> Change runtime type -> a GPU, then reconnect; Kaggle: Settings -> Accelerator -> GPU. Check with `!nvidia-smi`."),
            c("torch.cpu_only", 0.2, "A package installed in the notebook replaced the runtime's CUDA build of the framework with a CPU build.", "Reinstall the CUDA build the runtime ships (`pip install torch --index-url https://download.pytorch.org/whl/cu1xx`), then restart the runtime."),
            c("torch.wheel_deps_mismatch", 0.1, "A framework installed in the notebook was built for another CUDA than the runtime has.", "Use the framework version the runtime preinstalls, or one built for its CUDA."),
            c("env.visible_devices_invalid", 0.05, "The notebook sets CUDA_VISIBLE_DEVICES to a GPU index the runtime does not have (a runtime has one GPU: index 0), so CUDA sees none.", "Remove the `os.environ[\"CUDA_VISIBLE_DEVICES\"] = ...` line (or set it to \"0\") and restart the runtime."),
        ],
        hints: &[
            h(r"\+cpu\b|CUDA used to build PyTorch: None", "torch.cpu_only", 0.5),
            h(r"(?:changed?|set|selected?|switched?|chose)[^\n]{0,30}\b(?:runtime|accelerator)[^\n]{0,30}\bGPU\b|\bGPU runtime\b[^\n]{0,30}(?:selected|enabled|on)", "workload.gpu_not_requested", -0.6),
            // The runtime has its GPU and CUDA still sees none: the program hid it, mostly a
            // CUDA_VISIBLE_DEVICES naming a GPU the one-GPU runtime lacks (lucidrains/DALLE-pytorch#111).
            h(r"(?:changed?|set|selected?|switched?|chose)[^\n]{0,30}\b(?:runtime|accelerator)[^\n]{0,30}\bGPU\b|\bGPU runtime\b[^\n]{0,30}(?:selected|enabled|on)", "env.visible_devices_invalid", 0.35),
            h(r"CUDA_VISIBLE_DEVICES", "env.visible_devices_invalid", 0.4),
        ],
        tells_apart: "`!nvidia-smi` in the notebook: 'command not found' or no GPU means the runtime has none.",
    },
    // The GPU not seen inside a container (docker compose without a device reservation, `docker
    // run` without `--gpus`): the engine never handed the container the GPUs (huntyh's compose
    // overlay; NVIDIA container toolkit docs).
    Rule {
        id: "container.gpu_not_seen",
        title: "the GPU is not seen inside a container",
        pattern: r"(?:\bGPU\b|graphics card|\bCUDA\b)\s*(?:is\s*n'?t|isnt|is not|not|wasn'?t|was not|can'?t be|cannot be|doesn'?t get|does not get|never gets?)\s*(?:being\s*)?(?:recogni[sz]ed|detected|found|seen|visible|used|available|passed)[\s\S]{0,600}?(?:\bdocker\b|docker-compose|compose\.ya?ml|\bcontainer\b|\bpodman\b)|(?:\bdocker\b|docker-compose|compose\.ya?ml|\bcontainer\b|\bpodman\b)[\s\S]{0,600}?(?:\bGPU\b|graphics card|\bCUDA\b)\s*(?:is\s*n'?t|isnt|is not|not|wasn'?t|was not|can'?t be|cannot be|doesn'?t get|does not get|never gets?)\s*(?:being\s*)?(?:recogni[sz]ed|detected|found|seen|visible|used|available|passed)",
        priority: 22,
        causes: &[
            c("host.container_no_gpu", 0.7, "The container was started without the GPUs: `docker run` without `--gpus all`, or a compose service without a device reservation (`deploy.resources.reservations.devices` with `driver: nvidia`, `capabilities: [gpu]`), so nothing of the GPU or driver is inside.", FIX_CONTAINER),
            c("driver.not_installed", 0.15, "The host has no working NVIDIA driver for the container toolkit to pass in.", "Check `nvidia-smi` on the host first; install the driver there."),
            c("torch.cpu_only", 0.15, "The image's framework is a CPU-only build.", "Use the image's CUDA variant (a `-cuda` / `-gpu` tag)."),
        ],
        hints: &[
            // Started with `--gpus`: the start options are less likely (a compose device
            // reservation in the paste may be the fix it quotes, so it does not count).
            h(r"--gpus[= ]", "host.container_no_gpu", -0.35),
            h(r"nvidia-smi[^\n]{0,40}(?:not found|failed|couldn'?t communicate)", "driver.not_installed", 0.2),
        ],
        tells_apart: "`docker run --rm --gpus all ubuntu nvidia-smi` on the host: working, the container's start options are missing the GPUs.",
    },
    // ---- common field errors (round 4)
    Rule {
        id: "llm.runner_out_of_memory",
        title: "an LLM runner (Ollama / llama.cpp) ran out of memory loading the model",
        // Ollama's own words when its llama.cpp runner dies loading a model that does not fit
        // (ollama/ollama#1566); a runner's cudaMalloc failure is `cuda.out_of_memory`'s.
        pattern: r"(?:you may not have enough available memory to run this model|llama runner (?:exited|process (?:has )?terminated)[^\n]{0,80}\b(?:not enough|insufficient) (?:available |GPU |video )?memory)",
        priority: 50,
        causes: &[
            c("workload.out_of_memory", 0.75, "The model (its weights, KV cache for the context length, and compute buffers) does not fit in the GPU memory the runner could get, so the runner process died while loading it.", "Offload fewer layers to the GPU (Ollama: `num_gpu` lower; llama.cpp: a smaller `-ngl`), use a smaller quantisation or context (`num_ctx` / `-c`), or a GPU with more memory."),
            c("gpu.busy", 0.25, "Other processes (another loaded model, a desktop session, a second runner) hold part of the GPU's memory.", FIX_BUSY),
        ],
        hints: &[],
        tells_apart: "`nvidia-smi` while loading: a GPU already near full before the model loads means other processes; otherwise the model, context and layers asked for do not fit.",
    },
    // ---- multi-GPU and clusters (round 5)
    // A collective that hangs (or a job that "freezes") until NCCL's peer-to-peer transport is
    // turned off: peer copies between GPUs on PCIe do not arrive because the IOMMU or PCIe ACS
    // redirects them to the root complex (NCCL troubleshooting guide, "PCI Access Control
    // Services"; NVIDIA/nccl#631, #667, #2079). NCCL_P2P_DISABLE=1 working is the tell.
    Rule {
        id: "nccl.p2p_hang",
        title: "a collective hangs until NCCL's P2P transport is disabled",
        pattern: r"(?:\b(?:hang|hangs|hanging|hung|freezes?|freezing|froze|frozen|stuck|deadlocks?|deadlocked|stall(?:s|ed)?)\b[\s\S]{0,600}?NCCL_P2P_(?:DISABLE|LEVEL)\b|NCCL_P2P_(?:DISABLE|LEVEL)\b[\s\S]{0,400}?\b(?:hang|hangs|hanging|hung|freez\w*|froze|stuck|deadlock\w*|stall\w*)\b|NCCL_P2P_DISABLE\s*=\s*1[^\n]{0,120}\b(?:works?|worked|resolves?|resolved|fix(?:es|ed)?|solves?|solved|helps?|helped|workaround)\b|ACSCtl:\s*SrcValid\+)",
        priority: 56,
        causes: &[
            c("probe.p2p", 0.7, "Peer-to-peer copies between GPUs over PCIe do not arrive: the IOMMU (VT-d / AMD-Vi) or PCIe Access Control Services on the bridges and switches send them up to the root complex, where they stall, so NCCL's P2P transport spins for ever; with NCCL_P2P_DISABLE=1 NCCL goes through host memory and works, slower.", "Disable ACS on the PCIe bridges/switches (BIOS, or `setpci -s <bdf> ECAP_ACS+6.w=0000` per bridge; `pci=noacs` on Linux 6.x), and put the IOMMU in passthrough (`iommu=pt`, or `intel_iommu=off` / `amd_iommu=off`, VT-d off in the BIOS); check with `sudo lspci -vvv | grep ACSCtl` (SrcValid+ is on) and CUDA's p2pBandwidthLatencyTest. Keep NCCL_P2P_DISABLE=1 only as a stopgap."),
            c("workload.nccl", 0.2, "Ranks that issue different collectives (or one rank that never reaches one) hang until the watchdog, whatever the transport.", "Run with `NCCL_DEBUG=INFO TORCH_DISTRIBUTED_DEBUG=DETAIL` and compare what each rank calls last."),
            c("workload.library_bug", 0.1, "A bug in this NCCL release's P2P path for the topology.", "Upgrade NCCL (the nvidia-nccl-cu12 wheel torch pins, or newer)."),
        ],
        hints: &[
            h(r"\biommu\b|\bACS\b|VT-d|AMD-Vi|\bPHB\b|\bPXB\b|\bPIX\b|\bNODE\b|PCIe|no NVLink", "probe.p2p", 0.2),
            h(r"mismatch|different (?:collective|shapes?|sizes?)|one rank|rank \d+ (?:never|did not)", "workload.nccl", 0.3),
        ],
        tells_apart: "`nvidia-smi topo -m`, `sudo lspci -vvv | grep ACSCtl` and CUDA's p2pBandwidthLatencyTest: P2P enabled with a hang or garbage points at ACS/IOMMU; a hang with P2P disabled too is the job.",
    },
    // cudaErrorPeerAccessUnsupported: the two GPUs cannot reach each other's memory directly
    // (GeForce cards without an NVLink bridge, GPUs under different CPU sockets, virtual machines),
    // and the program insists on peer access (efeslab/Nanoflow#22: 8x RTX 3090).
    Rule {
        id: "cuda.peer_access_unsupported",
        title: "peer access is not supported between these two devices",
        pattern: r"(?:peer access is not supported between (?:these )?two devices?|cudaErrorPeerAccessUnsupported|CUDA_ERROR_PEER_ACCESS_UNSUPPORTED|Peer access not supported between device ordinals)",
        priority: 62,
        causes: &[
            c("workload.library_bug", 0.6, "The program enables peer access (custom all-reduce, direct GPU-to-GPU copies) between GPUs that do not offer it: GeForce cards without an NVLink bridge, GPUs under different CPU sockets or PCIe root complexes. The GPUs are as designed; the program must not require P2P there.", "Turn the program's peer-to-peer path off (vLLM: `--disable-custom-all-reduce`; TensorRT-LLM: `--use_custom_all_reduce disable`; NCCL falls back by itself), or run on GPUs joined by NVLink / under one PCIe switch."),
            c("probe.p2p", 0.3, "GPUs that support peer access report none because the IOMMU, PCIe ACS or a virtual machine's passthrough hides it.", "Check `nvidia-smi topo -p2p r`; put the IOMMU in passthrough (`iommu=pt`) and disable ACS, or pass the GPUs to the VM with P2P enabled."),
            c("host.container_no_gpu", 0.1, "Inside a VM or container the GPUs are passed through one by one, without peer links.", "Run on the host or pass the GPUs through with their PCIe topology."),
        ],
        hints: &[
            h(r"GeForce|\bRTX ?[2-5]0[5-9]0\b|\b[2-5]0[5-9]0(?:\s*Ti)?\b|\bGTX\b|TITAN", "workload.library_bug", 0.2),
            h(r"\biommu\b|\bACS\b|VT-d|\bVM\b|virtual machine|passthrough|KVM|Proxmox|ESXi", "probe.p2p", 0.35),
        ],
        tells_apart: "`nvidia-smi topo -p2p r` (which pairs can read each other) and the GPU model: GeForce without a bridge never has P2P; data-centre GPUs without it point at the IOMMU/ACS or the VM.",
    },
    // NCCL's InfiniBand/RoCE transport failing: completion errors (12 = retry exceeded, a
    // timeout), queue-pair transitions refused. The network between the nodes (GID index,
    // HCA choice, routing, PFC/ECN, firewall), not the GPUs (NVIDIA/nccl#426, #769).
    Rule {
        id: "nccl.net_ib",
        title: "NCCL's InfiniBand / RoCE transport failed",
        pattern: r"(?:NCCL WARN NET/IB\b[^\n]{0,160}|NET/IB\s*:\s*Got completion (?:from peer [^\n]{0,60})?with (?:status=|error )\d+[^\n]{0,80}|\bibv_(?:modify_qp|create_qp|reg_mr|reg_dmabuf_mr|poll_cq|create_cq)\w* failed[^\n]{0,80}|NCCL WARN NET/Socket[^\n]{0,120}|NCCL WARN (?:socketProgress|Net : Connection closed|Connect to [^\n]{0,60} failed)[^\n]{0,120})",
        priority: 55,
        causes: &[
            c("workload.nccl", 0.75, "NCCL reached the other node but its InfiniBand/RoCE (or socket) traffic does not get through: the wrong RoCE GID index (a link-local address that is not routed), the wrong HCA or port, an interface NCCL should not use, PFC/ECN or switch filtering, or a firewall between the nodes.", "Run the fabric's own tests first (`ib_write_bw`, `show_gids`); then set NCCL to what works: `NCCL_IB_GID_INDEX=<the RoCE v2 GID of the routed address, often 3>`, `NCCL_IB_HCA=mlx5_0:1,...`, `NCCL_SOCKET_IFNAME=<the interface between the nodes>`; `NCCL_IB_DISABLE=1` isolates the IB path."),
            c("workload.library_bug", 0.15, "A bug in this NCCL release's IB transport or the NIC driver (OFED) pairing.", "Upgrade NCCL and the NIC driver (MLNX_OFED / DOCA) to matching releases."),
            c("probe.p2p", 0.1, "GPUDirect RDMA over a PCIe path with ACS enabled (or nvidia-peermem missing) corrupts or drops the transfers.", "Disable ACS on the PCIe switches between the GPUs and the NICs and load `nvidia_peermem`; `NCCL_NET_GDR_LEVEL=LOC` as a check."),
        ],
        hints: &[
            h(r"GID|RoCE|show_gids|ibv_devinfo|Network is unreachable|Connection timed out|error 12\b|status=12\b", "workload.nccl", 0.2),
            h(r"\bACS\b|ACSCtl|peermem|GDR|GPUDirect", "probe.p2p", 0.3),
        ],
        tells_apart: "`ib_write_bw` / `ib_send_bw` between the two nodes with the GID index NCCL uses (`show_gids`): failing there too is the fabric; passing there and failing only with GPUDirect (NCCL_NET_GDR_LEVEL) points at ACS or nvidia-peermem.",
    },
    // NCCL's "unhandled cuda error": a CUDA call inside NCCL failed. The CUDA error is in the
    // NCCL_DEBUG=INFO log; what the paste says around it decides: an NCCL too old for the
    // driver/GPU (NVIDIA/nccl-tests#5, NCCL 1.x), an NCCL built for another CUDA
    // (NVIDIA/caffe#492), an earlier kernel fault, or ranks sharing a GPU.
    Rule {
        id: "nccl.unhandled_cuda",
        title: "NCCL: unhandled cuda error",
        pattern: r"(?:NCCL (?:error|Error \d+|failure)\b[^\n]{0,200}\bunhandled cuda error|ncclComm\w+ failed: unhandled cuda error|ncclUnhandledCudaError|ncclSuccess \(1 vs\. 0\)[^\n]{0,40}|NCCL failure [^\n]{0,80}'unhandled cuda error')",
        priority: 51,
        causes: &[
            c("workload.illegal_address", 0.3, "A CUDA call inside NCCL failed because the job's CUDA context was already broken: an earlier kernel faulted (illegal address, device-side assert) or memory ran out, and NCCL is the first to report it.", FIX_ILLEGAL),
            c("workload.library_bug", 0.3, "This NCCL release does not work with the driver or GPU (too old for them, or a known bug); upgrading NCCL fixes it.", "Upgrade NCCL (the nvidia-nccl-cu12 wheel torch pins, or the libnccl2 package for the CUDA in use) and rerun with `NCCL_DEBUG=INFO` to see the failing CUDA call."),
            c("torch.wheel_deps_mismatch", 0.2, "The NCCL loaded was built for another CUDA version than the program (a libnccl2 package for CUDA 9 under a CUDA 8 build, an nvidia-nccl wheel that does not match torch's CUDA).", "Install the NCCL built for the program's CUDA version (`libnccl2=<ver>+cuda<X.Y>`, or the nvidia-nccl-cuXX wheel torch pins) and make sure only that one is on the library path."),
            c("workload.nccl", 0.15, "Two ranks use the same GPU, or CUDA_VISIBLE_DEVICES is set per rank so NCCL cannot use CUDA IPC between them.", "Give each rank its own GPU via `torch.cuda.set_device(local_rank)` instead of per-rank CUDA_VISIBLE_DEVICES; check `NCCL_DEBUG=INFO` for 'Duplicate GPU detected'."),
            c("probe.p2p", 0.05, "Peer access between the GPUs fails (IOMMU/ACS, a VM) when NCCL sets up its P2P transport.", "Try `NCCL_P2P_DISABLE=1`; if that works, disable ACS / set the IOMMU to passthrough."),
            c("torch.arch_unsupported", 0.02, "The GPU is newer than the torch build (PyTorch warned that its sm_NN is not compatible): the NCCL inside that build has no kernels for it either, and its first CUDA call fails (pytorch/pytorch#152077, an RTX 5090 under torch 2.0 / CUDA 11.8).", FIX_TORCH_ARCH),
        ],
        hints: &[
            h(r"is not compatible with the current PyTorch|sm_\d+a? is not compatible", "torch.arch_unsupported", 0.9),
            h(r"\bNCCL(?: version)?\s*:?\s*1\.\d+\b|\bNCCL ?1\b|\bnccl1\b", "workload.library_bug", 0.4),
            // the communicator's creation failed: no kernel of the job has run to break the
            // context, so NCCL's own CUDA calls failing point at NCCL against the CUDA in use
            // (horovod/horovod#108: an NCCL for CUDA 9.0 under CUDA 8.0)
            h(r"ncclCommInit\w*(?:\(\))? failed", "workload.illegal_address", -0.25),
            h(r"ncclCommInit\w*(?:\(\))? failed", "torch.wheel_deps_mismatch", 0.2),
            h(r"libnccl\S*\s*[=/ ][^\n]{0,30}\+?cuda\d|\+cuda\d+\.\d|NCCL[^\n]{0,40}(?:built|compiled) (?:for|with|against) CUDA", "torch.wheel_deps_mismatch", 0.35),
            h(r"illegal memory access|device-side assert|out of memory|misaligned address", "workload.illegal_address", 0.35),
            h(r"Duplicate GPU|same (?:GPU|device)|two ranks", "workload.nccl", 0.4),
            h(r"NCCL_P2P_DISABLE\s*=\s*1|\bACS\b|\biommu\b", "probe.p2p", 0.35),
            // vLLM's custom all-reduce (CUDA IPC buffers) failing with 'invalid argument' inside
            // NCCL: a known NCCL 2.18 bug fixed in 2.19 (vllm-project/vllm#3688).
            h(r"custom[ _-]?all[ _-]?reduce|CudaIPC", "workload.library_bug", 0.35),
        ],
        tells_apart: "`NCCL_DEBUG=INFO`: the line before 'unhandled cuda error' names the CUDA call and its error (an illegal address → the job; 'invalid device function' / 'no kernel image' → an NCCL build for another CUDA/GPU; 'peer access' → P2P).",
    },
    // A batch job that got no GPU: on Slurm (PBS, LSF) the job's cgroup shows only the GPUs it
    // requested (`--gres=gpu:N`, `--gpus`), so a job without the request sees none, although the
    // node has them (3dem/model-angelo#60). Inside a container in the job, the container must also
    // get them (`--nv`, enroot's NVIDIA_VISIBLE_DEVICES: NVIDIA/enroot#205).
    Rule {
        id: "cluster.job_without_gpu",
        title: "a batch job sees no GPU",
        pattern: r"(?:(?:\bslurm\b|\bsbatch\b|\bsrun\b|\bsalloc\b|#SBATCH|\bgres\b|\bqsub\b|#PBS|\bbsub\b)[\s\S]{0,1500}?(?:NVIDIA-SMI has failed|no CUDA-capable device is detected|No CUDA GPUs are available|Found no NVIDIA driver|CUDA_ERROR_NO_DEVICE|cuda\.is_available\(\)[^\n]{0,20}(?:\n[\s#>.]*)?\bFalse\b|didn'?t (?:actually )?get a gpu)|(?:NVIDIA-SMI has failed|no CUDA-capable device is detected|No CUDA GPUs are available|Found no NVIDIA driver|CUDA_ERROR_NO_DEVICE)[\s\S]{0,1500}?(?:\bslurm\b|\bsbatch\b|\bsrun\b|\bsalloc\b|#SBATCH|\bqsub\b|#PBS|\bbsub\b))",
        priority: 80,
        causes: &[
            c("workload.gpu_not_requested", 0.6, "The job asked the scheduler for no GPU (or fewer than it uses): Slurm's cgroup (ConstrainDevices) shows a job only the GPUs it requested, so on a GPU node a job without `--gres=gpu:N` / `--gpus=N` sees none and nvidia-smi / CUDA report no device. The node is fine.", "Request the GPUs in the job: `#SBATCH --gres=gpu:1` (or `--gpus=1`, `--gpus-per-node=N`) and the GPU partition; check inside the job with `echo $CUDA_VISIBLE_DEVICES; nvidia-smi -L`."),
            c("host.container_no_gpu", 0.2, "The job got its GPUs but runs the program in a container that was not given them: Singularity/Apptainer without `--nv`, enroot/pyxis with an image that does not set NVIDIA_VISIBLE_DEVICES.", "Singularity/Apptainer: `--nv`; enroot/pyxis: set `NVIDIA_VISIBLE_DEVICES=all` (and NVIDIA_DRIVER_CAPABILITIES=compute,utility) in the srun environment or the image."),
            c("driver.module_not_loaded", 0.1, "The node itself has no working driver: nvidia-smi fails there outside the job too (module not loaded after a kernel update, a node left out of the driver rollout).", FIX_MODULE),
            c("env.visible_devices_invalid", 0.2, "Slurm set CUDA_VISIBLE_DEVICES to the node-wide indices of the allocated GPUs while the job (or its container) sees only those GPUs renumbered from 0, so the indices name GPUs that are not there.", "Let cgroups constrain the devices (`ConstrainDevices=yes` in cgroup.conf) or use the GPUs as CUDA numbers them inside the job; do not copy CUDA_VISIBLE_DEVICES into the container by hand."),
            // Round 11a: the scheduler's own device configuration, shown in the paste (a
            // cgroup.conf without ConstrainDevices=yes: enroot/pyxis then get the wrong device
            // list, NVIDIA/pyxis#47).
            c("host.scheduler_config", 0.05, "Slurm's device configuration is incomplete: without `ConstrainDevices=yes` in cgroup.conf the job's device cgroup is not set, and container runtimes (enroot/pyxis, libnvidia-container) that build the device list from it mount the wrong GPUs or none.", "Add `ConstrainDevices=yes` to cgroup.conf (with `GresTypes=gpu` and the nodes' gres.conf), restart slurmd on the GPU nodes, and check a job with `srun --gres=gpu:1 nvidia-smi -L`."),
        ],
        hints: &[
            h(r"--nv\b|singularity|apptainer|enroot|pyxis|--container-image|NVIDIA_VISIBLE_DEVICES", "host.container_no_gpu", 0.6),
            h(r"(?:didn'?t|did not|not|without|forgot to)\s+(?:actually\s+)?(?:get|request|ask(?:ed)? for|allocate|have)[^\n]{0,30}\bgpus?\b|no gpu (?:was )?(?:allocated|requested)", "workload.gpu_not_requested", 0.3),
            h(r"ConstrainDevices|SINGULARITYENV_CUDA_VISIBLE_DEVICES|CUDA_VISIBLE_DEVICES=\S*[1-9]", "env.visible_devices_invalid", 0.3),
            h(r"cgroup\.conf|ConstrainCores\s*=", "host.scheduler_config", 0.85),
            h(r"(?:directly on|ssh(?:ed)?(?: in)?to|logged in(?:to)?) the (?:compute |gpu )?node|outside (?:of )?(?:slurm|the job)|on the node itself|\bNVRM\b|modprobe|dmesg", "driver.module_not_loaded", 0.55),
        ],
        tells_apart: "Inside the job: `echo $CUDA_VISIBLE_DEVICES; nvidia-smi -L` (empty / failing → no GPU requested), and `scontrol show job $SLURM_JOB_ID | grep -i tres` (no gres/gpu in the allocation).",
    },
    // PyTorch's device check in an op: two operands on different GPUs (or CPU and GPU). A
    // program's placement (a model split over every visible GPU by device_map="auto" or
    // DataParallel, a tensor left on cuda:0 in a rank), not the machine (magic-research/bubogpt#11).
    Rule {
        id: "torch.tensors_on_two_devices",
        title: "Expected all tensors to be on the same device",
        pattern: r"(?:Expected all tensors to be on the same device, but (?:found at least two devices|got)[^\n]{0,160}|Expected (?:object of device type cuda but got device type cpu|tensor for argument #\d+ '\w+' to have the same device)[^\n]{0,80}|Input, output and indices must be on the current device)",
        priority: 58,
        causes: &[
            c("workload.library_bug", 0.9, "The program puts the operands of one operation on different devices: a model spread over every visible GPU (`device_map=\"auto\"`, DataParallel) whose inputs stay on cuda:0, a tensor created on the default GPU inside a rank, or a module left on the CPU. The GPUs are fine.", "Expose only the GPUs the program is meant to use (`CUDA_VISIBLE_DEVICES=0` before it starts, or before torchrun), call `torch.cuda.set_device(local_rank)` in each rank, and move inputs to the model's device (`x.to(model.device)`)."),
            c("env.visible_devices_invalid", 0.1, "CUDA_VISIBLE_DEVICES or the launcher gives each process more GPUs than it is written for.", "Set CUDA_VISIBLE_DEVICES to the GPUs the program expects."),
        ],
        hints: &[],
        tells_apart: "`python -c \"import torch; print(torch.cuda.device_count())\"`: with several GPUs visible, the same run with `CUDA_VISIBLE_DEVICES=0` works if it is the program's placement.",
    },
    // MIG in Kubernetes: the device plugin's MIG strategy decides the resource names. With
    // `mixed`, a GPU in MIG mode is `nvidia.com/mig-<profile>` only and a `nvidia.com/gpu`
    // request does not get it (NVIDIA/gpu-operator#637); with `single`, the MIG devices are
    // `nvidia.com/gpu` and all must have one profile.
    Rule {
        id: "k8s.mig_resources",
        title: "Kubernetes and MIG: the requested resource is not the one the GPU is exposed as",
        pattern: r"(?:nvidia\.com/mig-\d+g\.\d+gb[\s\S]{0,800}?\b(?:fail\w*|not|cannot|can'?t|pending|insufficient|no (?:GPU|device)s?)\b|\b(?:fail\w*|not|cannot|can'?t|pending|insufficient|no (?:GPU|device)s?)\b[\s\S]{0,300}?nvidia\.com/mig-\d+g\.\d+gb|(?:mig\.strategy|migStrategy|mig-strategy)\b[\s\S]{0,400}?\b(?:fail\w*|error|not|cannot|pending|insufficient)\b)",
        priority: 56,
        causes: &[
            c("gpu.mig_enabled", 0.8, "The GPU is in MIG mode and the device plugin exposes it by MIG profile: with the `mixed` strategy a MIG GPU is only `nvidia.com/mig-<profile>` (a `nvidia.com/gpu` request does not get it), with `single` every MIG device is a `nvidia.com/gpu` and all must share one profile.", "Request the MIG resource the node lists (`nvidia.com/mig-1g.10gb: 1`) under the `mixed` strategy, or use the `single` strategy with one profile per node (gpu-operator `mig.strategy`); `kubectl describe node` shows what is advertised."),
            c("host.container_no_gpu", 0.2, "The device plugin or container runtime on the node does not hand the device to the container.", FIX_CONTAINER),
        ],
        hints: &[],
        tells_apart: "`kubectl describe node <node>` (Capacity: nvidia.com/gpu against nvidia.com/mig-*), the device plugin's `migStrategy`, and `nvidia-smi -L` on the node.",
    },
    // The GPU operator's validators (driver, toolkit, cuda, plugin validation) stuck in
    // Init/CrashLoopBackOff: on an NVSwitch system (HGX/DGX) CUDA does not come up without the
    // fabric manager (NVIDIA/gpu-operator#286, #375, #1043); elsewhere the container runtime
    // or the driver.
    Rule {
        id: "k8s.gpu_operator_validator",
        title: "the GPU operator's validator pods fail",
        pattern: r"(?:nvidia-(?:cuda|operator|device-plugin)-validator[^\n]{0,120}\b(?:CrashLoopBackOff|Init:Error|Init:CrashLoopBackOff|crash\w*|Error|fail\w*)|(?:cuda|toolkit|driver|plugin)-validation\b[^\n]{0,120}\b(?:CrashLoopBackOff|crash\w*|fail\w*|error)|\b(?:crash\w*|fail\w*)\b[^\n]{0,60}nvidia-(?:cuda|operator)-validator)",
        priority: 47,
        causes: &[
            c("driver.fabric_manager", 0.35, "On an NVSwitch system (HGX/DGX A100/H100/B200) CUDA cannot initialise until the fabric manager has set up the NVSwitch fabric: the cuda-validation pod's vector-add fails ('system not yet initialized') while nvidia-smi works.", "On the host: install nvidia-fabricmanager of exactly the driver's version and `sudo systemctl enable --now nvidia-fabricmanager` (or let the operator's driver container run it); `nvidia-smi -q | grep -i fabric` must say Completed."),
            c("host.container_no_gpu", 0.3, "The node's container runtime does not use the NVIDIA runtime (toolkit-validation fails, containerd not configured), so validator pods get no GPU.", "Let the operator's toolkit daemonset configure containerd (or `sudo nvidia-ctk runtime configure --runtime=containerd --set-as-default` and restart it), then delete the validator pods."),
            c("driver.too_old_for_toolkit", 0.2, "The validator's CUDA is newer than the node's driver ('CUDA driver version is insufficient for CUDA runtime version').", "Upgrade the node's driver (or the operator's driver version) to one that supports the operator's CUDA."),
            c("driver.module_not_loaded", 0.15, "The driver container did not load the kernel modules (driver-validation fails).", FIX_MODULE),
        ],
        hints: &[
            h(r"\bHGX\b|\bDGX\b|NVSwitch|fabric.?manager|SXM|system not yet initialized|\b8 ?x? ?(?:A100|H100|H200|B200)\b", "driver.fabric_manager", 0.45),
            h(r"toolkit-validation|containerd|nvidia-container|runtimeClass|could not load NVML", "host.container_no_gpu", 0.35),
            h(r"driver version is insufficient", "driver.too_old_for_toolkit", 0.6),
            h(r"driver-validation|modprobe|unable to load kernel module", "driver.module_not_loaded", 0.4),
        ],
        tells_apart: "`kubectl logs <validator> -c cuda-validation` (or toolkit-/driver-validation): 'system not yet initialized' → fabric manager; no GPU in the container → runtime; 'driver version is insufficient' → driver.",
    },
    // NCCL's bootstrap and socket transport: no usable interface (NCCL_SOCKET_IFNAME naming
    // none, different interface names per node, no IP interface at all), connections refused or
    // closed between ranks (NVIDIA/nccl#210, nccl-tests#219). ncclInternalError ("internal
    // error") is mostly this. The network between the ranks, not the GPUs.
    Rule {
        id: "nccl.socket_bootstrap",
        title: "NCCL cannot set up its sockets between the ranks",
        pattern: r"(?:Bootstrap\s*:\s*no (?:NCCL_SOCKET_IFNAME )?socket interface found|no socket interface found|WARN Socket creation failed[^\n]{0,80}|WARN Call to connect failed[^\n]{0,60}|ncclSocketInit: connecting to address[^\n]{0,80}|socketFinalizeAccept: wrong type[^\n]{0,20}|NCCL failure [^\n]{0,60}'internal error[^\n]{0,80}|ncclInternalError: Internal check failed\.?\s*(?:\n\s*)?Last error:\s*\n?[^\n]{0,40}(?:socket|Socket|interface|connect)[^\n]{0,80})",
        priority: 54,
        causes: &[
            c("workload.nccl", 0.7, "NCCL's bootstrap (and its socket transport) finds no usable network interface or cannot connect between the ranks: NCCL_SOCKET_IFNAME names an interface that does not exist on some node (names differ per node, a typo, an `=` exact-match prefix the build does not honour), the machine has no IP interface but loopback, or a firewall / docker bridge (veth) interface sits in the way.", "Run with `NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET` and read the 'Bootstrap : Using <if>' lines on every node; set `NCCL_SOCKET_IFNAME` to the interface(s) that connect the nodes (a comma list such as `eno1,eth0` where names differ, or `^lo,docker` to exclude), open the ports between the nodes, and set `GLOO_SOCKET_IFNAME` the same."),
            c("workload.library_bug", 0.2, "A bug in this NCCL release's bootstrap (its message asks to report it).", "Upgrade NCCL to the version torch pins or newer on every node (all nodes must run the same NCCL)."),
            c("probe.p2p", 0.1, "On one node an internal error can also come from the P2P/SHM transport failing between GPUs.", "Try `NCCL_P2P_DISABLE=1` to rule out the transport between the GPUs."),
        ],
        hints: &[
            h(r"NCCL_SOCKET_IFNAME|GLOO_SOCKET_IFNAME|ifconfig|interface|firewall|Connection (?:refused|closed|timed out)|two (?:nodes|machines|computers)|multi-?node", "workload.nccl", 0.2),
            h(r"NCCL_P2P_DISABLE\s*=\s*1[^\n]{0,60}\b(?:works?|fix)", "probe.p2p", 0.5),
        ],
        tells_apart: "`NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET`: the interface each node picks ('Bootstrap : Using ...') and `ip -4 addr` there; a socket error between nodes that ping each other is a port or interface choice.",
    },
    // The NVIDIA device plugin (or another pod) cannot load NVML: the node's container runtime
    // does not run its pods with the NVIDIA runtime, so the driver's libraries are not injected
    // (NVIDIA/k8s-device-plugin#23, #1805: docker works, containerd is not configured). The
    // plugin then advertises no nvidia.com/gpu.
    Rule {
        id: "k8s.device_plugin_no_nvml",
        title: "the device plugin cannot load NVML in its pod",
        pattern: r"(?:Incompatible strategy detected \w+|If this is a GPU node, did you (?:configure the NVIDIA Container Toolkit|set the docker default runtime to .?nvidia.?)|(?:Nvml init failed: ERROR_LIBRARY_NOT_FOUND|could not load NVML library|Failed to initialize NVML: could not load NVML)[\s\S]{0,1500}?(?:kubernetes|\bk8s\b|\bk3s\b|\bk0s\b|kubectl|DaemonSet|device[- ]plugin|\bpod\b|microk8s|rke2)|(?:kubernetes|\bk8s\b|\bk3s\b|\bk0s\b|kubectl|DaemonSet|device[- ]plugin|microk8s|rke2)[\s\S]{0,1500}?(?:Nvml init failed: ERROR_LIBRARY_NOT_FOUND|could not load NVML library|Failed to initialize NVML: could not load NVML))",
        priority: 66,
        causes: &[
            c("host.container_no_gpu", 0.75, "The node's container runtime (containerd, CRI-O, or docker under an old kubelet) does not start the device plugin's pod with the NVIDIA runtime, so libnvidia-ml.so.1 and the device nodes are not injected: the plugin finds no NVML and advertises no nvidia.com/gpu. Docker on the same host may work because only docker was configured.", "On each GPU node: `sudo nvidia-ctk runtime configure --runtime=containerd --set-as-default` (k3s/rke2: their config.toml.tmpl; k0s: its containerd drop-in) and restart the runtime, or deploy the plugin with `runtimeClassName: nvidia`; then restart the device-plugin pod and check `kubectl describe node` for nvidia.com/gpu."),
            c("driver.not_installed", 0.25, "The node has no NVIDIA driver user space (libnvidia-ml.so.1) at all, or the plugin runs on a node without GPUs.", "Install the driver on the GPU node (`nvidia-smi` must work there), and keep the plugin off CPU nodes with a nodeSelector."),
        ],
        hints: &[
            h(r"(?:can|could)\s+use\s+(?:my\s+)?gpu\s+in\s+docker|docker run[^\n]{0,60}--gpus[^\n]{0,80}nvidia-smi|nvidia-smi[^\n]{0,40}works?\b", "host.container_no_gpu", 0.2),
            h(r"nvidia-smi[^\n]{0,40}(?:command not found|not found|has failed)|no NVIDIA driver|not a GPU node", "driver.not_installed", 0.5),
        ],
        tells_apart: "`nvidia-smi` on the node (works → the runtime; fails → the driver), and `sudo crictl info | grep -i defaultRuntimeName` (must be nvidia, or the plugin needs runtimeClassName: nvidia).",
    },
    // Slurm's GPU configuration on a node: gres.conf and slurm.conf disagreeing with the GPUs
    // (duplicate records, AutoDetect=nvml in a slurmd built without NVML, a gres count above
    // what slurmd found), which drains the node although its GPUs work (SlinkyProject/containers#14,
    // NVIDIA/deepops#1214, ComputeCanada/puppet-magic_castle#27).
    Rule {
        id: "slurm.gres_config",
        title: "Slurm's GPU (gres) configuration does not match the node",
        pattern: r"(?:gres/gpu count reported lower than configured[^\n]{0,30}|gres/gpu count repor|gres\.conf duplicate records for \w+|configured to autodetect nvml functionality, but we weren'?t able to find that lib|Discarding the following config-only GPU|autodetected GPUs are being ignored|can'?t stat gres\.conf file [^\n]{0,60}|AutoDetect=nvml[\s\S]{0,400}?\b(?:reports? 0 GPUs|not working|drain\w*)\b)",
        priority: 66,
        causes: &[
            c("host.scheduler_config", 0.75, "Slurm's view of the node's GPUs is wrong, not the GPUs: gres.conf lists them twice or not at all, `AutoDetect=nvml` runs in a slurmd built without NVML (it then finds 0 GPUs), or slurm.conf's `Gres=gpu:N` promises more than slurmd detects, so the node is drained as invalid.", "Make gres.conf and slurm.conf agree with `nvidia-smi -L`: either `AutoDetect=nvml` alone (slurmd built with NVML: `slurmd -G` lists the GPUs) or explicit `Name=gpu File=/dev/nvidia[0-N]` lines; set `Gres=gpu:<N>` to the real count, restart slurmd and `scontrol update nodename=<node> state=resume`."),
            c("driver.module_not_loaded", 0.15, "slurmd starts before the NVIDIA driver has created /dev/nvidia* (module not loaded, or no persistence daemon at boot), so the files gres.conf names do not exist.", FIX_MODULE),
            c("gpu.lost", 0.1, "A GPU fell off the bus, so slurmd detects fewer than configured.", FIX_XID_HW),
        ],
        hints: &[
            h(r"can'?t stat gres\.conf file\s*/dev/nvidia|Waiting for gres\.conf file /dev/nvidia", "driver.module_not_loaded", 0.5),
            h(r"fallen off the bus|Xid[^\n]{0,40}\b79\b|\(\d+ < \d+\)", "gpu.lost", 0.2),
        ],
        tells_apart: "`slurmd -G` (what slurmd detects) against `nvidia-smi -L` (what the node has) and `scontrol show node <node>` (what slurm.conf promises).",
    },
    // torch.distributed's rendezvous (TCPStore) cannot bind its port: another run (or a
    // leftover process) on the machine already holds MASTER_PORT, 29500 by default
    // (meta-pytorch/torchtune#392, #1025). The job's launch, not the GPUs.
    Rule {
        id: "torch.rendezvous_port_in_use",
        title: "torch.distributed's rendezvous port is already in use",
        pattern: r"(?:The server socket has failed to (?:listen on any local network address|bind to [^\n]{0,60}(?:errno: 98|Address already in use|EADDRINUSE|10048))[^\n]{0,160}|DistNetworkError:[^\n]{0,160}(?:EADDRINUSE|address already in use)[^\n]{0,60})",
        priority: 60,
        causes: &[
            c("workload.nccl", 0.85, "The rendezvous port (MASTER_PORT, torchrun's default 29500) is held by another run on the same machine or by a leftover process of an earlier one, so the new job's TCPStore cannot listen.", "Give each concurrent run its own port (`torchrun --master_port=<free port>` or `--rdzv_endpoint=localhost:0` to let torchrun pick one); find the holder with `ss -ltnp | grep <port>` and stop leftover processes."),
            c("workload.library_bug", 0.15, "The program or its script hard-codes a port (or one in the privileged/SSH range, such as 22) that is not free.", "Change the port in the script or config to a free one above 1024."),
        ],
        hints: &[h(r"\[::\]:22\b|0\.0\.0\.0:22\b|hard-?coded", "workload.library_bug", 0.5)],
        tells_apart: "`ss -ltnp | grep <port>`: another python/torchrun holding it means a concurrent or leftover run.",
    },
    // DeepSpeed's launcher picks the GPUs itself (`--include/--exclude/--num_gpus`) and sets
    // CUDA_VISIBLE_DEVICES for its workers; a CUDA_VISIBLE_DEVICES set by the user is ignored
    // or mis-mapped ("No slot 'N' specified on host 'localhost'": deepspeedai/DeepSpeed#5818,
    // 01-ai/Yi#392, huggingface/accelerate#663).
    Rule {
        id: "deepspeed.launcher_devices",
        title: "DeepSpeed's launcher and CUDA_VISIBLE_DEVICES",
        pattern: r"(?:No slot '\d+' specified on host '[^'\n]{1,80}'|Detected CUDA_VISIBLE_DEVICES=[\d,]+ but ignoring it because[^\n]{0,120}|Detected CUDA_VISIBLE_DEVICES=[\d,]+: setting --include=\S+)",
        priority: 58,
        causes: &[
            c("workload.library_bug", 0.8, "DeepSpeed's launcher chooses the GPUs itself and sets CUDA_VISIBLE_DEVICES for its workers: a CUDA_VISIBLE_DEVICES set before it is ignored when --num_gpus/--include/--exclude are passed (accelerate used to pass --num_gpus), and older launchers mapped it onto contiguous slots, so non-contiguous or non-zero GPU ids fail with \"No slot 'N'\". The GPUs are fine.", "Select GPUs through the launcher: unset CUDA_VISIBLE_DEVICES and run `deepspeed --include localhost:<ids> ...` (e.g. `localhost:1,2`), or upgrade DeepSpeed (0.15.2+ honours CUDA_VISIBLE_DEVICES) and accelerate (0.13+)."),
            c("env.visible_devices_invalid", 0.2, "CUDA_VISIBLE_DEVICES names GPUs the launcher's resource pool does not have.", "Name GPUs that exist (`nvidia-smi -L`)."),
        ],
        hints: &[],
        tells_apart: "Run the same job with `deepspeed --include localhost:<ids>` and CUDA_VISIBLE_DEVICES unset: if it starts, the launcher's GPU selection was the cause.",
    },
    // ---- round 6b (field sample 11j)
    // The NVIDIA kernel module could not be built for the running kernel, in the words the
    // build itself prints: the kernel's compiler check (void-linux/void-packages#13128,
    // clearlinux/distribution#1835: "Compiler version check failed", IGNORE_CC_MISMATCH), a
    // kernel newer than the driver ("modpost: GPL-incompatible module nvidia.ko uses GPL-only
    // symbol": NVIDIA/gpu-operator), the headers for the node's kernel not installable (the
    // operator's driver container: "Unable to find a match: kernel-headers-..."), the .run
    // installer's "kernel module was not created / failed to build", and "error ... when
    // building the DKMS module" (Frogging-Family/nvidia-all#290).
    Rule {
        id: "kernel.module_not_built",
        title: "the NVIDIA kernel module could not be built for the running kernel",
        pattern: r"(?:Compiler version check failed|IGNORE_CC_MISMATCH|compiler (?:version )?(?:used|that was used) to (?:compile|build) the kernel|--no-cc-version-check|GPL-incompatible module nvidia[\w-]*\.ko uses GPL-only symbol|(?:Unable to find a match|No match for argument|Unable to locate package|No package)[:\s]+[^\n]{0,20}\b(?:kernel-(?:headers|devel)|linux-headers)-\d[^\s]*|(?:kernel headers|kernel sources?|linux-headers)[^\n]{0,40}(?:(?:are|is|were|was) not (?:installed|found|available)|could not be found|missing)|The nvidia(?:-[a-z]+)? kernel module (?:was not created|failed to build)|(?:error|fail\w*)[^\n]{0,60}\b(?:building|compiling|build|compile)\b[^\n]{0,20}\b(?:(?:the )?(?:nvidia )?(?:DKMS|kernel) module)|\b(?:DKMS|nvidia kernel) module[^\n]{0,40}\b(?:fails?|failed|failing|errors?) to (?:build|compile))",
        priority: 83,
        causes: &[
            c("driver.module_not_loaded", 0.85, "The NVIDIA kernel module is built on the machine for the running kernel (DKMS, the .run installer, the GPU operator's driver container); the build stopped (the compiler differs from the one the kernel was built with, the kernel is newer than the driver supports, its headers are not installed or not installable), so there is no module to load and every CUDA program fails.", "Fix the build for `uname -r`: install the headers of the running kernel (`sudo apt install linux-headers-$(uname -r)`, `sudo dnf install kernel-devel-$(uname -r)`), build with the compiler the kernel was built with (`cat /proc/version` names it), or install a driver branch that supports this kernel; then `sudo dkms autoinstall` (or reinstall the driver) and reboot. Read /var/lib/dkms/nvidia/*/build/make.log or /var/log/nvidia-installer.log for the first error."),
            c("driver.not_installed", 0.15, "The driver installation stopped before it completed.", FIX_DRIVER_INSTALL),
        ],
        hints: &[],
        tells_apart: "`dkms status`, the first error in /var/lib/dkms/nvidia/*/build/make.log (or /var/log/nvidia-installer.log), `cat /proc/version` against `gcc --version`, and whether headers for `uname -r` are installed.",
    },
    // The module is said to be missing or not loading, without the build's own words
    // (gridhead/nvidia-auto-installer-for-fedora-linux#64: "Nvidia kernel module missing"
    // after an install with Secure Boot on).
    Rule {
        id: "kernel.module_missing",
        title: "the NVIDIA kernel module is missing or not loaded",
        pattern: r"(?:nvidia (?:kernel )?(?:module|driver module|kmod)s? (?:is |are )?(?:missing|not (?:found|loaded|loading|present)|(?:could not|couldn't|cannot|can't|won't|failed to|fails to) (?:be )?load(?:ed)?)|(?:kernel )?module nvidia(?:\.ko)? (?:is )?(?:missing|not (?:found|loaded))|(?:could not|couldn't|failed to|unable to) load (?:the )?nvidia (?:kernel )?module|no (?:nvidia )?kernel modules? (?:was |were |is )?(?:found|built|present)|modprobe nvidia\b[^\n]{0,80}?(?:module (?:does not|doesn't) exist|not found))",
        priority: 68,
        causes: &[
            c("driver.module_not_loaded", 0.8, "The driver's user space is installed but the kernel module does not load: Secure Boot refuses an unsigned (or not enrolled) module, or it was not built for the running kernel.", FIX_MODULE),
            c("driver.nouveau_loaded", 0.1, "nouveau holds the GPU, so the nvidia module cannot bind.", "Blacklist nouveau and reboot."),
            c("driver.not_installed", 0.1, "The driver package was not installed for this kernel.", FIX_DRIVER_INSTALL),
        ],
        hints: &[h(r"nouveau", "driver.nouveau_loaded", 0.5)],
        tells_apart: "`mokutil --sb-state`, `dkms status`, `sudo modprobe nvidia` (its error names the cause) and `lsmod | grep -E 'nvidia|nouveau'`.",
    },
    // Secure Boot's key enrolment during an unattended driver install waits for a password no
    // one can type (Azure's NVIDIA GPU Driver Extension on Trusted Launch VMs).
    Rule {
        id: "kernel.mok_enrolment_pending",
        title: "a driver install waits for the Secure Boot (MOK) password",
        pattern: r"(?:(?:waiting for|prompt\w*(?: us| me)? (?:for|to enter)|asks? (?:us |me )?(?:for|to enter)|(?:us|me) to enter|no way[^\n]{0,20}to enter)[^\n]{0,20}(?:a |the |an? MOK )?password[\s\S]{0,400}?(?:driver|nvidia|dkms)|(?:driver|nvidia|dkms)[\s\S]{0,400}?(?:waiting for|prompt\w*(?: us| me)? (?:for|to enter)|asks? (?:us |me )?(?:for|to enter)|(?:us|me) to enter)[^\n]{0,20}(?:a |the |an? MOK )?password|Enroll MOK|MOK (?:password|enrol\w*)|sign(?:ing)? (?:the )?(?:kernel )?module[^\n]{0,40}Secure Boot)",
        priority: 60,
        causes: &[
            c("driver.module_not_loaded", 0.85, "With Secure Boot on, the driver installer builds a module signed with a new key and asks for a password to enrol that key (MOK) at the next boot; an unattended install waits for it or skips it, so the key is never enrolled and the kernel refuses the module.", "Turn Secure Boot off before an unattended install (on Azure: a Standard instead of Trusted Launch VM, or Secure Boot disabled), or install the distribution's pre-signed driver packages; else enrol the key (`sudo mokutil --import /var/lib/dkms/mok.pub`, reboot, confirm in MokManager)."),
            c("driver.not_installed", 0.15, "The installation did not finish.", FIX_DRIVER_INSTALL),
        ],
        hints: &[],
        tells_apart: "`mokutil --sb-state` and `mokutil --list-new` (a key waiting for enrolment); `sudo modprobe nvidia` answers 'Key was rejected by service'.",
    },
    // UVM's module cannot be loaded by the container tooling (NVIDIA/nvidia-docker: "Could not
    // load UVM kernel module" after an EC2 restart): the nvidia modules are gone for this kernel.
    Rule {
        id: "kernel.uvm_load_failed",
        title: "the NVIDIA UVM kernel module could not be loaded",
        pattern: r"(?:could not|couldn't|failed to|unable to|cannot) load (?:the )?(?:nvidia[-_ ])?UVM (?:kernel )?module",
        priority: 84,
        causes: &[
            c("driver.module_not_loaded", 0.6, "nvidia_uvm depends on the nvidia module: when that is not built for the running kernel (a kernel update on a restarted VM, nouveau taking the GPU from the initramfs), neither loads.", FIX_MODULE),
            c("driver.uvm_unavailable", 0.4, "Only nvidia_uvm fails to load (after a suspend/resume, or a module option it refuses).", FIX_UVM),
        ],
        hints: &[
            h(r"suspend|resum|hibernat|sleep", "driver.uvm_unavailable", 0.4),
            h(AFTER_RESTART, "driver.module_not_loaded", 0.3),
        ],
        tells_apart: "`lsmod | grep nvidia` (is the main module loaded?), `sudo modprobe nvidia_uvm` and its dmesg lines.",
    },
    // The loaded "driver" library has no cuInit: a library that is not libcuda was named as the
    // driver (numba/numba#3963: NUMBAPRO_CUDA_DRIVER pointing at libcudart.so).
    Rule {
        id: "cuda.driver_library_wrong",
        title: "the library loaded as the CUDA driver is not libcuda",
        pattern: r"(?:driver missing function: cu\w+|undefined symbol: cuInit\b|(?:NUMBAPRO|NUMBA)_CUDA_DRIVER\s*=\s*\S*lib(?:cudart|cublas|nvrtc)\w*\.so)",
        priority: 82,
        causes: &[
            c("driver.stub_library", 0.75, "The library loaded as the CUDA driver lacks the driver API (cuInit): it is not the driver's libcuda.so.1 but the CUDA runtime, another toolkit library or a stub, named by a setting (NUMBA_CUDA_DRIVER) or found first on the loader path.", "Point the setting at the driver's library (`ldconfig -p | grep libcuda.so.1`, e.g. /usr/lib/x86_64-linux-gnu/libcuda.so.1) or unset it, and keep toolkit folders (…/lib64/stubs) off LD_LIBRARY_PATH."),
            c("driver.not_installed", 0.25, "No driver libcuda exists on the machine, so only a toolkit copy was found.", FIX_DRIVER_INSTALL),
        ],
        hints: &[],
        tells_apart: "Which file the program opened: the setting's path, or `ldd`/`LD_DEBUG=libs`; the driver's libcuda.so.1 lives in the system library folder, not under /usr/local/cuda.",
    },
    // CUDA_ERROR_OPERATING_SYSTEM (304): an OS call the driver makes failed; on a translation
    // layer (FreeBSD's Linux shim, Wine, a sandbox) the layer lacks it (shkhln/libc6-shim#13).
    Rule {
        id: "cuda.operating_system",
        title: "CUDA: OS call failed or operation not supported on this OS (304)",
        pattern: r"(?:CUDA_ERROR_OPERATING_SYSTEM|cudaErrorOperatingSystem|OS call failed or operation not supported on this OS)",
        priority: 60,
        causes: &[
            c("driver.cuda_init_failed", 0.55, "The driver's own calls into the OS failed while setting up CUDA (device files, shared memory or IPC denied, a sandbox or seccomp profile).", "Run `gpu-doctor` on the machine: check /dev/nvidia* permissions, the container's seccomp/IPC settings, and dmesg for NVRM lines."),
            c("workload.library_bug", 0.3, "A compatibility layer between the program and the driver (FreeBSD's Linux CUDA shim, Wine, a sandbox) does not implement a call this driver release makes; fixed in the layer, or an older driver works.", "Update the compatibility layer (or use the driver branch it supports)."),
            c("driver.library_mismatch", 0.15, "The driver libraries and the module differ.", "Reboot; reinstall one driver version."),
        ],
        hints: &[h(r"\bshim\b|FreeBSD|linuxulator|\bWine\b|compat(?:ibility)? layer|gVisor|\bbhyve\b", "workload.library_bug", 0.6)],
        tells_apart: "Does a plain CUDA sample run natively on the same machine? If only the layered program fails, the layer is the cause.",
    },
    // A library file that exists but is empty: on Jetson (JetPack 4) the l4t images hold empty
    // placeholders that the NVIDIA runtime bind-mounts from the host; without that runtime they
    // stay empty ("libnvinfer.so.7: file too short": dusty-nv/jetson-inference).
    Rule {
        id: "container.placeholder_libs",
        title: "a CUDA/TensorRT library inside the container is an empty file",
        pattern: r"lib(?:nvinfer\w*|nvonnxparser|nvparsers|cudnn\w*|cuda|cudart|cublas\w*|cufft|curand|cusparse|cusolver|nvrtc|nvidia-\w+|nvToolsExt|nvmedia|nvbuf\w*)\.so[.\d]*: file too short",
        priority: 85,
        causes: &[
            c("host.container_no_gpu", 0.7, "On Jetson the l4t container images carry empty placeholders for the CUDA/TensorRT libraries that the NVIDIA container runtime mounts from the host; a container started (or a `docker build` run) without that runtime sees the empty files.", "Run with `--runtime nvidia` (for `docker build` set `\"default-runtime\": \"nvidia\"` in /etc/docker/daemon.json and restart docker), and check /etc/nvidia-container-runtime/host-files-for-container.d/."),
            c("torch.wheel_deps_mismatch", 0.3, "An interrupted install or a broken package left an empty library file.", "Reinstall the package that owns the file (`dpkg -S <file>`, `pip install --force-reinstall ...`)."),
        ],
        hints: &[h(r"docker|container|l4t|jetson|jetpack|dustynv|nvcr\.io", "host.container_no_gpu", 0.3)],
        tells_apart: "`ls -l` the file: size 0 inside the container and a real file on the host means the runtime did not mount it.",
    },
    // The engine docker should run with is unknown to it (NVIDIA/nvidia-docker: "unknown
    // runtime specified nvidia"): the NVIDIA runtime is not installed or daemon.json not loaded.
    Rule {
        id: "container.runtime_unknown",
        title: "docker does not know the nvidia runtime",
        pattern: r"(?:unknown? runtime specified:? nvidia|unknown or invalid runtime name:? nvidia|runtime \x22?nvidia\x22? (?:not found|is not (?:installed|configured|registered)))",
        priority: 80,
        causes: &[
            c("host.container_no_gpu", 0.9, "The nvidia runtime is not registered with the container engine: the NVIDIA container toolkit is not installed, or /etc/docker/daemon.json names it but docker was not restarted.", FIX_CONTAINER),
            c("driver.not_installed", 0.1, "The host has no NVIDIA driver for the toolkit to use.", FIX_DRIVER_INSTALL),
        ],
        hints: &[],
        tells_apart: "`docker info | grep -i runtimes` must list nvidia; `which nvidia-container-runtime`.",
    },
    // Kubernetes nodes that advertise no GPUs: the device plugin runs under runc instead of the
    // NVIDIA runtime (NVIDIA/k8s-device-plugin: "sees 0 graphics cards ... nvidia.com/gpu: 0").
    Rule {
        id: "k8s.node_zero_gpus",
        title: "the node advertises no nvidia.com/gpu",
        pattern: r"(?:nvidia\.com/gpu[\x22']?:?\s+[\x22']?0\b|device[- ]plugin[^\n]{0,120}\b(?:sees|finds|detects|reports|shows) (?:0|no|zero) (?:GPUs?|graphics cards|devices)|(?:0|no|zero) (?:GPUs?|devices) (?:advertised|allocatable|registered)[^\n]{0,40}node)",
        priority: 55,
        causes: &[
            c("host.container_no_gpu", 0.75, "The device plugin finds GPUs only when its pod runs under the NVIDIA container runtime; with containerd/CRI-O's default runc it sees none and the node advertises nvidia.com/gpu: 0.", "Make the NVIDIA runtime containerd's default (`sudo nvidia-ctk runtime configure --runtime=containerd --set-as-default && sudo systemctl restart containerd`) or deploy the plugin with `runtimeClassName: nvidia`; then restart the plugin pod."),
            c("driver.not_installed", 0.25, "The node has no working NVIDIA driver.", FIX_DRIVER_INSTALL),
        ],
        hints: &[h(r"nvidia-smi[^\n]{0,40}(?:command not found|has failed)", "driver.not_installed", 0.5)],
        tells_apart: "`nvidia-smi` on the node (works → the runtime), `sudo crictl info | grep -i defaultRuntimeName`, and the plugin pod's log.",
    },
    // A kernel symbol missing from a loaded module: the library was compiled without code for
    // this GPU (NCCL built with NVCC_GENCODE for sm_80 only, run on H100: NVIDIA/nccl).
    Rule {
        id: "cuda.symbol_not_found",
        title: "CUDA: named symbol not found",
        pattern: r"(?:named symbol not found|cudaErrorSymbolNotFound|CUDA_ERROR_NOT_FOUND)",
        priority: 50,
        causes: &[
            c("host.container_no_gpu", 0.0, "At CUDA's initialisation (cudaGetDeviceCount, cuInit) inside a container: the container runtime mapped an older or incomplete set of the driver's libraries (Docker Desktop / the NVIDIA container toolkit older than the host's driver, WSL2 with a 555+ driver), so libcuda misses a symbol the runtime asks for.", "Update the NVIDIA container toolkit (Docker Desktop on Windows) to a release that knows the host driver, and restart the engine; `nvidia-smi` inside the container should then work."),
            c("ext.arch_unsupported", 0.55, "The kernel the program asks for is not in the loaded module: the library (NCCL, an extension, a self-built binary) was compiled for other GPU architectures than this one (e.g. sm_80 only, run on sm_90).", FIX_EXT_ARCH),
            c("workload.library_bug", 0.3, "The program looks up a kernel or symbol its own module does not define.", FIX_LIBRARY_BUG),
            c("toolkit.arch_unsupported", 0.15, "The CUDA toolchain (ptxas) could not build the kernel for this GPU, so its symbol is absent.", FIX_TOOLKIT_ARCH),
        ],
        hints: &[
            h(r"(?:cudaGetDeviceCount|NumCudaDevices|cuInit)[\s\S]{0,3000}?(?:docker|container|\bWSL|compose)|(?:docker|container|\bWSL|compose)[\s\S]{0,3000}?(?:cudaGetDeviceCount|NumCudaDevices|cuInit)", "host.container_no_gpu", 0.9),
            // Docker under WSL 2 where the toolkit did not map a library of a newer Windows
            // driver (NVIDIA/nvidia-container-toolkit#520: 555.85's libnvdxgdmal.so.1)
            h(r"\bWSL ?2?\b[^\n]{0,200}\b(?:container|docker)|\b(?:container|docker)\b[^\n]{0,200}\bWSL ?2?\b", "host.container_no_gpu", 0.7),
            h(r"ptxas does not support|Falling back to the CUDA driver for PTX", "toolkit.arch_unsupported", 0.6),
            h(r"NVCC_GENCODE|-gencode|TORCH_CUDA_ARCH_LIST|\bsm_\d{2,3}\b|\bH100\b|\bA100\b", "ext.arch_unsupported", 0.2),
        ],
        tells_apart: "`cuobjdump --list-elf <library>` lists the architectures it carries: the GPU's sm must be among them.",
    },
    // NVIDIA's OpenCL answers -9999 when a kernel crashed on the GPU (an illegal or misaligned
    // access: openwall/john "It was our bug").
    Rule {
        id: "opencl.nvidia_kernel_fault",
        title: "NVIDIA OpenCL error -9999 (a kernel faulted)",
        pattern: r"(?:OpenCL[^\n]{0,60}\(?-9999\)?|CL_\w+[^\n]{0,10}\(?-9999\b|(?:error|err|status)[ :=(]*-9999\b)",
        priority: 60,
        causes: &[
            c("workload.illegal_address", 0.6, "NVIDIA's OpenCL returns -9999 (not a standard CL code) when a kernel faulted on the GPU: an out-of-bounds or misaligned access in the program's own kernel, as CUDA's illegal address.", "Check the kernel's indexing and alignment (dmesg shows the Xid 13/31 faults); run it with a smaller work size or another device to narrow it down."),
            c("workload.library_bug", 0.25, "A bug in the library's OpenCL kernels (fixed in a later release).", FIX_LIBRARY_BUG),
            c("gpu.xid", 0.15, "The GPU itself faulted (see dmesg's Xid lines).", FIX_XID_HW),
        ],
        hints: &[],
        tells_apart: "`dmesg | grep -i xid` while it runs: Xid 13/31 name the faulting process; does the same kernel work on another GPU model?",
    },
    // conda's virtual package __cuda comes from the driver of the machine the solver runs on
    // (conda-forge/pytorch-cpu-feedstock, openmm/NNPOps: "nothing provides __cuda").
    Rule {
        id: "conda.virtual_cuda_missing",
        title: "conda's __cuda virtual package is missing",
        pattern: r"(?:nothing provides (?:requested )?__cuda|__cuda\b[^\n]{0,40}(?:is )?missing on (?:the|this) system|__cuda\b[^\n]{0,20}(?:not found|is not available))",
        priority: 70,
        causes: &[
            c("host.no_nvidia_gpu", 0.6, "conda/mamba define __cuda from the NVIDIA driver of the machine the solver runs on: a login node, a CI runner or a docker build has no NVIDIA GPU/driver, so CUDA builds cannot be solved there.", "Tell the solver which CUDA the target machine has: `CONDA_OVERRIDE_CUDA=12.4 mamba install ...` (or `mamba create ...`), then run on a GPU node."),
            c("driver.not_installed", 0.3, "The machine has an NVIDIA GPU but no driver, so there is no __cuda.", FIX_DRIVER_INSTALL),
            c("driver.too_old_for_toolkit", 0.1, "The driver is older than the __cuda version the package needs.", FIX_DRIVER_UPGRADE),
        ],
        hints: &[
            h(r"login node|\bCI\b|CPU[- ](?:only |platform|machine|node|runner)|without (?:any )?GPUs?|docker build|build(?:ing)? (?:a |the )?docker image|no GPUs?", "host.no_nvidia_gpu", 0.3),
            h(r"__cuda\s*>=?\s*\d+", "driver.too_old_for_toolkit", 0.3),
        ],
        tells_apart: "`conda info` lists the virtual packages (`__cuda=12.4=0` when a driver is found); `nvidia-smi` on the machine that solves.",
    },
    // Signs the GPU slows itself down: nvidia-smi's throttle reasons, temperature limits, and
    // throughput falling as a long run heats the card (tensorflow/tensorflow "getting slower and
    // slower": an overheating GPU; a laptop whose platform lowers "GPU Max Operating Temp").
    Rule {
        id: "gpu.throttle_signs",
        title: "the GPU throttles (heat or power)",
        pattern: r"(?:thermal(?:ly)?[ -]throttl\w*|throttl\w*[^\n]{0,30}\b(?:thermal|temperature|overheat\w*|power (?:cap|brake|limit))|(?:HW|SW) (?:Thermal |Power )?(?:Slowdown|Power Cap|Power Brake)\s*:\s*Active|\bGPU throttl\w+|throttl\w+ (?:on|of) (?:my |the |our )?(?:NVIDIA |nvidia |dedicated |discrete )?(?:GPU|dGPU|graphics card)|throttl(?:es|ing|ed) (?:down|severely|heavily|hard)|(?:GPU|card|graphics)[^\n]{0,30}\boverheat\w*|overheat\w*[^\n]{0,30}\b(?:GPU|card)|(?:getting|gets|got|became|becomes|running|runs|is) (?:slower and slower|progressively slower|slower over time)|slows? down over time|(?:training|throughput|speed|examples/sec|it/s|performance)[^\n]{0,40}\b(?:drops?|decreas\w+|degrad\w+|falls?)\b[^\n]{0,20}over time)",
        priority: 40,
        causes: &[
            c("gpu.throttled", 0.65, "The GPU lowers its clocks when it reaches a temperature or power limit (a clogged or stopped fan, a laptop's platform limit, a low power cap): work slows down steadily or suddenly although nothing in the program changed.", "Watch `nvidia-smi -q -d PERFORMANCE,TEMPERATURE,POWER` (or `nvidia-smi dmon -s pc`) under load: active thermal/power slowdown reasons name the limit; clean or fix cooling, check the fan (`nvidia-smi -q -d FAN`), the laptop's thermal daemon/profile, and the power limit (`nvidia-smi -q -d POWER`)."),
            c("workload.library_bug", 0.25, "The program itself does more work per step over time (a growing graph, ops created in the loop, a leak).", "Profile a step early and late in the run; in TensorFlow build the graph once outside the loop."),
        ],
        hints: &[
            h(r"\bfan\b|temperature|\bTemp\b|thermal|overheat|cooling|\d{2,3} ?°?C\b", "gpu.throttled", 0.2),
            h(r"memory (?:grows|leak)|graph (?:grows|keeps growing)|inside the (?:training )?loop", "workload.library_bug", 0.5),
        ],
        tells_apart: "`nvidia-smi -q -d PERFORMANCE` under load: 'HW/SW Thermal Slowdown: Active' or 'SW Power Cap: Active'; clocks falling as the temperature rises.",
    },
    // The fabric manager's version check against the driver (NVIDIA/open-gpu-kernel-modules:
    // "fabric manager NVIDIA GPU driver interface version X don't match with driver version Y").
    Rule {
        id: "fabric_manager.version_mismatch",
        title: "the fabric manager's version differs from the driver's",
        pattern: r"(?:fabric ?manager[^\n]{0,120}(?:don'?t|doesn'?t|does not|do not|not) match(?:es)?[^\n]{0,40}driver|driver interface version [\d.]+ (?:don'?t|doesn'?t|does not|do not) match|(?:nv-)?fabric ?manager[^\n]{0,60}version mismatch)",
        priority: 88,
        causes: &[
            c("driver.fabric_manager", 0.9, "The fabric manager must be exactly the driver's version; it refuses to start with another, so NVSwitch systems cannot initialise CUDA.", "Install nvidia-fabricmanager of exactly the driver's version (`nvidia-smi` shows it; `nvidia-fabricmanager-<branch>=<version>`), hold both packages together, and `sudo systemctl restart nvidia-fabricmanager`."),
            c("driver.library_mismatch", 0.1, "The driver was upgraded and the old module is still loaded.", "Reboot."),
        ],
        hints: &[],
        tells_apart: "`nvidia-smi` (driver version) against `nv-fabricmanager --version`; `systemctl status nvidia-fabricmanager`.",
    },
    // A program's own binary without code for the GPU, in its words (fireice-uk/xmr-stak:
    // "miner not compiled for the gpu architecture 21"), or finding no device it supports on an
    // old GPU (nicehash/excavator: "No compatible devices found!" on a Fermi GTX 580).
    Rule {
        id: "arch.binary_lacks_gpu",
        title: "the program's binary has no code for this GPU",
        pattern: r"(?:not (?:compiled|built) for (?:the |this |your )?(?:gpu |GPU |device |card )?(?:arch(?:itecture)?|compute capability|sm_?\d+)|No (?:compatible|supported) (?:CUDA |GPU |NVIDIA |OpenCL )?(?:devices?|GPUs?) (?:found|detected|available))",
        priority: 62,
        causes: &[
            c("ext.arch_unsupported", 0.55, "The program's binary carries kernels only for other GPU generations (a prebuilt release built with a CUDA that dropped this architecture, e.g. CUDA 9+ without Fermi sm_2x): it skips or refuses this GPU.", "Build the program yourself for this GPU's architecture (with a CUDA toolkit that still supports it), or use an older release built for it."),
            c("driver.not_installed", 0.25, "No working NVIDIA driver, so the program sees no device at all.", FIX_DRIVER_INSTALL),
            c("torch.arch_unsupported", 0.1, "The framework build itself has no kernels for this GPU.", FIX_TORCH_ARCH),
            c("host.no_nvidia_gpu", 0.1, "The machine has no NVIDIA GPU.", "Run on a machine with an NVIDIA GPU."),
            c("host.container_no_gpu", 0.05, "The program runs in a container that was given no GPU (no `--gpus`, or the NVIDIA runtime not used), so it discovers none.", "Start the container with `--gpus all` (the NVIDIA Container Toolkit configured for the engine), or run the program on the host."),
        ],
        hints: &[
            h(r"not (?:compiled|built) for", "ext.arch_unsupported", 0.3),
            h(r"(?i)\bcontainers?\b|\bdocker\b|\bpodman\b|NVIDIA_VISIBLE_DEVICES|\bkubernetes\b|\bk8s\b", "host.container_no_gpu", 0.6),
            h(OLD_GPU, "ext.arch_unsupported", 0.4),
            h(NO_NVIDIA_GPU_WORDS, "host.no_nvidia_gpu", 0.8),
            h(r"nvidia-smi[^\n]{0,40}(?:command not found|has failed|couldn't communicate)", "driver.not_installed", 0.5),
        ],
        tells_apart: "`nvidia-smi --query-gpu=name,compute_cap --format=csv` against the architectures the program's release notes (or `cuobjdump --list-elf`) list.",
    },
    // Numba compiles through NVVM from a CUDA toolkit (numba: "libNVVM cannot be found. Do
    // `conda install cudatoolkit`", nvvm.dll / libnvvm.so not found).
    Rule {
        id: "numba.nvvm_missing",
        title: "Numba cannot find libNVVM (the CUDA toolkit)",
        pattern: r"(?:libNVVM cannot be found|NvvmSupportError|(?:Could not find module|cannot open shared object file|not found)[^\n]{0,40}\b(?:lib)?nvvm(?:64_\d+_\d+)?\.(?:dll|so)|(?:lib)?nvvm(?:64_\d+_\d+)?\.(?:dll|so)[.\d]*:? (?:cannot open shared object file|not found))",
        priority: 80,
        causes: &[
            c("toolkit.not_found", 0.8, "Numba (and other JIT compilers for CUDA) compile through libNVVM, which comes with a CUDA toolkit, not with the driver or the PyTorch wheels: none is installed where it looks (CUDA_HOME, the conda environment).", "Install the toolkit's NVVM where Numba looks: `conda install -c conda-forge cuda-nvcc cuda-nvrtc \"cuda-version=<major>\"` (older Numba: `conda install cudatoolkit`), or `pip install numba-cuda[cu12]`; or set CUDA_HOME to an installed toolkit."),
            c("toolkit.path_inconsistent", 0.2, "A toolkit is installed but CUDA_HOME/PATH point elsewhere.", "Point CUDA_HOME at the installed toolkit (`numba -s` shows what it found)."),
        ],
        hints: &[h(r"CUDA_HOME\s*=|CUDA_PATH\s*=", "toolkit.path_inconsistent", 0.3)],
        tells_apart: "`numba -s` (its CUDA section lists NVVM and the toolkit it found).",
    },
    // NCCL's INFO lines about its optional external network plugin (NVIDIA/nccl: "NET/Plugin :
    // No plugin found (libnccl-net.so)"): information, NCCL falls back to its own transports.
    Rule {
        id: "nccl.net_plugin_info",
        title: "NCCL found no external network plugin (information)",
        pattern: r"(?:NET/Plugin\s*:\s*(?:No plugin found|Plugin load returned \d+|Failed to find \w+ symbol)[^\n]*|(?:Unable to load|Failed to open|could not load|No plugin found \()\s*libnccl-net(?:-\w+)?\.so[^\n]*)",
        priority: 8,
        causes: &[
            c("none", 0.75, "NCCL looks for an optional external network plugin (libnccl-net.so) at start and prints this INFO line when there is none; it then uses its built-in InfiniBand or socket transport. Nothing is wrong with the machine.", "Nothing to fix; if a job fails, look for NCCL's WARN lines or the Python error after this line."),
            c("workload.nccl", 0.25, "A job that fails after this line fails for another reason (its WARN line names it).", "Run with `NCCL_DEBUG=INFO` and read the first WARN line."),
        ],
        // A failure of the job in the same paste (a traceback, a WARN line, a crash) outranks
        // the INFO line: the answer then points at that failure, not at "nothing wrong".
        hints: &[h(r"NCCL WARN|\bWARN\b|ncclSystemError|ncclInternalError|ncclUnhandledCudaError|Traceback \(most recent call last\)|RuntimeError|DistBackendError|Segmentation fault|core dumped|Watchdog caught|timed out", "workload.nccl", 0.6)],
        tells_apart: "The line is INFO: NCCL continues with 'NET/IB' or 'NET/Socket'; a real failure has its own WARN line.",
    },
    // ---- round 7b (desktop machines)
    // A library says the driver's libcuda was not found, in its own words (bitsandbytes' old
    // "CUDA SETUP: WARNING! libcuda.so not found! Do you have a CUDA driver installed?",
    // "could not find libcuda", "Failed to load libcuda"): the driver's user space is not on
    // the loader's path; on WSL 2 it is in /usr/lib/wsl/lib (bitsandbytes#52).
    Rule {
        id: "libcuda.not_found",
        title: "the driver's libcuda was not found",
        pattern: r"(?i)(?:\blibcuda(?:\.so(?:\.1)?)?\b!?\s+(?:was\s+)?not\s+found|(?:could\s+not|cannot|can't|unable\s+to|failed\s+to)\s+(?:find|locate|load)\s+(?:the\s+)?libcuda\b)",
        priority: 60,
        causes: &[
            c("driver.not_installed", 0.6, "libcuda comes with the NVIDIA driver: it is missing (no driver installed), or under WSL 2 it lives in /usr/lib/wsl/lib, which a library's own search does not look in.", "Under WSL 2: `export LD_LIBRARY_PATH=/usr/lib/wsl/lib:$LD_LIBRARY_PATH` and keep the Windows driver current; elsewhere install the NVIDIA driver (`nvidia-smi` must work)."),
            c("host.container_no_gpu", 0.25, "Inside a container the toolkit injects libcuda only when the container is started with the GPUs.", FIX_CONTAINER),
            c("driver.stub_library", 0.15, "Only the toolkit's stub libcuda is on the search path.", "Remove `.../cuda/lib64/stubs` from LD_LIBRARY_PATH so the driver's libcuda.so.1 is used."),
            c("host.no_nvidia_gpu", 0.02, "The machine has no NVIDIA GPU (the text says so), so there is no driver and no libcuda: the program is set to use CUDA (an NVENC encoder, a CUDA backend) where it cannot.", "Run it on a machine with an NVIDIA GPU, or choose the program's CPU path (a software encoder such as libx264/libvpx, its CPU backend)."),
        ],
        hints: &[
            // round 10b: daniilidis-group/ffmpeg_image_transport#6 ("I'm running without GPU").
            h(NO_GPU_SAID, "host.no_nvidia_gpu", 0.8),
            h(IN_CONTAINER, "host.container_no_gpu", 0.4),
            h(r"(?i)/usr/lib/wsl|\bWSL ?2?\b|microsoft-standard", "driver.not_installed", 0.4),
            h(r"lib64/stubs|/stubs/libcuda", "driver.stub_library", 0.8),
        ],
        tells_apart: "`ldconfig -p | grep libcuda` (WSL 2: `ls /usr/lib/wsl/lib`); inside a container, whether it was started with `--gpus`.",
    },
    // ---- round 8b (building and loading CUDA code)
    // CMake's CUDA language cannot find nvcc (cdcseacave/openMVS#930,
    // ComputationalRadiationPhysics/cuda_memtest#45, mit-han-lab/inter-operator-scheduler#5):
    // "No CMAKE_CUDA_COMPILER could be found", "The CUDA compiler identification is unknown",
    // FindCUDA's "Could NOT find CUDA (missing: ...)", Visual Studio's "No CUDA toolset found".
    // Most often no toolkit is installed (only the driver, whose nvidia-smi "CUDA Version" people
    // take for one); else nvcc is installed but neither on PATH nor named by CUDACXX.
    Rule {
        id: "cmake.cuda_compiler_missing",
        title: "CMake finds no CUDA compiler",
        pattern: r"(?:No CMAKE_CUDA_COMPILER could be found|The CUDA compiler identification is unknown|Looking for a CUDA compiler - NOTFOUND|CMAKE_CUDA_COMPILER(?:-NOTFOUND| not set, after EnableLanguage)|Could NOT find CUDA(?:Toolkit)? \(missing|No CUDA toolset found|CMake does not find the CUDA SDK|Failed to find nvcc\b|Specify CUDA_TOOLKIT_ROOT_DIR)",
        priority: 70,
        causes: &[
            c("toolkit.not_found", 0.6, "CMake's CUDA language needs nvcc, which comes with the CUDA toolkit, not with the driver: the \"CUDA Version\" nvidia-smi prints is only what the driver supports, and no toolkit is installed.", "Install the CUDA toolkit (Ubuntu: NVIDIA's `cuda-toolkit-12-x` package or `sudo apt install nvidia-cuda-toolkit`; conda: `conda install -c nvidia cuda-toolkit`), then `export PATH=/usr/local/cuda/bin:$PATH` and re-run cmake from an empty build folder."),
            c("toolkit.path_inconsistent", 0.35, "A toolkit is installed but CMake does not find its nvcc: /usr/local/cuda/bin is not on PATH and neither CUDACXX nor CMAKE_CUDA_COMPILER names it (on Windows the CUDA Visual Studio integration is missing when Visual Studio was installed after CUDA).", "Tell CMake where nvcc is: `cmake -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc ..` (or `export CUDACXX=/usr/local/cuda/bin/nvcc`, or put /usr/local/cuda/bin on PATH); on Windows re-run the CUDA installer's Visual Studio integration. Delete CMakeCache.txt first."),
        ],
        hints: &[
            h(r"Cuda compilation tools, release|nvcc: NVIDIA \(R\)|/bin/nvcc\b|CUDACXX=|CMAKE_CUDA_COMPILER=/", "toolkit.path_inconsistent", 0.4),
            h(r"No CUDA toolset found|Visual Studio|MSBuild|\.props\b", "toolkit.path_inconsistent", 0.4),
        ],
        tells_apart: "`which nvcc; ls /usr/local/cuda*/bin/nvcc`: no nvcc anywhere is a missing toolkit; an nvcc off PATH is a path problem.",
    },
    // CMake found nvcc but could not read a default architecture from its compiler check
    // (NVlabs/instant-ngp#841: gone with another CMake release). Setting the architecture
    // by hand skips the detection.
    Rule {
        id: "cmake.default_arch_undetected",
        title: "CMake cannot detect a default CUDA architecture",
        pattern: r"Failed to detect a default CUDA architecture",
        priority: 72,
        causes: &[
            c("workload.library_bug", 0.4, "CMake's detection of the compiler's default architecture fails for this pairing of CMake and CUDA releases (an older CMake that does not know the toolkit's output, or a CMake bug): the GPU and the toolkit are fine.", "Name the architecture yourself: `cmake -DCMAKE_CUDA_ARCHITECTURES=86 ...` (the GPU's compute capability without the dot; `nvidia-smi --query-gpu=compute_cap --format=csv`), or use a CMake release that knows this CUDA (CMake 3.24+ also accepts `native`)."),
            c("toolkit.host_compiler_unsupported", 0.3, "nvcc cannot compile CMake's test program with this host compiler (a Visual Studio or gcc newer than the toolkit supports), so no architecture comes back.", "Use a host compiler the toolkit supports (its release notes list them), e.g. `-DCMAKE_CUDA_HOST_COMPILER=g++-11`, or on Windows the supported Visual Studio version."),
            c("toolkit.path_inconsistent", 0.3, "CMake runs an nvcc that is not a complete toolkit (another CUDA's nvcc on PATH, a toolkit whose headers or libraries are missing).", "Point CMake at one complete toolkit: `-DCMAKE_CUDA_COMPILER=/usr/local/cuda-<ver>/bin/nvcc` (on Windows reinstall the toolkit with its Visual Studio integration)."),
        ],
        hints: &[h(r"unsupported Microsoft Visual Studio version|unsupported GNU version|host compiler", "toolkit.host_compiler_unsupported", 0.5)],
        tells_apart: "Does `cmake -DCMAKE_CUDA_ARCHITECTURES=<cc> ...` configure? Then only the detection failed; if nvcc cannot compile a test file by hand (`nvcc -c t.cu`), the host compiler or the toolkit is at fault.",
    },
    // CMake refusing an empty CUDA architecture list (EXP-code/EXP#63: "CUDA_ARCHITECTURES is
    // empty for target"; colmap's "CMAKE_CUDA_ARCHITECTURES must be non-empty if set"): the
    // project's CMakeLists (policy CMP0104, CMake 3.18+) gives its targets no architectures.
    // The machine and the toolkit are fine.
    Rule {
        id: "cmake.cuda_architectures_empty",
        title: "CMake: no CUDA architectures for a target",
        pattern: r"(?:CUDA_ARCHITECTURES is empty for target|CMAKE_CUDA_ARCHITECTURES must be non-empty if set|You must set CMAKE_CUDA_ARCHITECTURES|Policy CMP0104 is not set)",
        priority: 35,
        causes: &[
            c("none", 0.65, "CMake 3.18+ (policy CMP0104) wants an architecture list for every CUDA target; the project's CMakeLists sets none (or sets an empty one), which is the project's build configuration, not the machine.", "Pass the GPU's architecture to CMake: `cmake -DCMAKE_CUDA_ARCHITECTURES=native ..` (CMake 3.24+; or the number, e.g. 86; `export CUDAARCHS=86`), or use the project's fixed CMakeLists."),
            c("toolkit.arch_unsupported", 0.2, "The architecture list came out empty because every architecture asked for was filtered out as unknown to this nvcc.", FIX_TOOLKIT_ARCH),
            c("env.arch_list_mismatch", 0.15, "CUDAARCHS / TORCH_CUDA_ARCH_LIST is set but empty or malformed in the environment, and the build takes it from there.", "`unset CUDAARCHS TORCH_CUDA_ARCH_LIST` or set them to the GPU's compute capability (e.g. `8.6`)."),
        ],
        hints: &[
            h(r"CUDAARCHS\s*=|TORCH_CUDA_ARCH_LIST\s*=", "env.arch_list_mismatch", 0.4),
            h(r"Unsupported gpu architecture|is not (?:a )?(?:supported|valid) (?:CUDA )?architecture", "toolkit.arch_unsupported", 0.5),
        ],
        tells_apart: "Whether `-DCMAKE_CUDA_ARCHITECTURES=<cc>` on the cmake line makes it configure: then it was only the project's missing default.",
    },
    // NVRTC cannot load its builtins library (Theano/Theano#6010 "nvrtc: error: failed to load
    // builtins", lfranke/TRIPS#13, pytorch/pytorch#99781): libnvrtc dlopens
    // libnvrtc-builtins.so.<its own version> at run time, so the CUDA library folder (the
    // toolkit's lib64, conda's lib) must be on the loader's path; a package that ships it
    // under a hashed name (auditwheel's libnvrtc-builtins-<hash>.so) breaks that lookup.
    Rule {
        id: "nvrtc.builtins_missing",
        title: "NVRTC cannot load libnvrtc-builtins",
        pattern: r"(?:nvrtc: error: failed to (?:open|load) (?:libnvrtc-builtins|builtins)|NVRTC_ERROR_BUILTIN_OPERATION_FAILURE|libnvrtc-builtins[\w.-]*\.(?:so|dll)[\w.]*[^\n]{0,40}(?:cannot open|not found|No such file|can't be found|could not be (?:found|loaded))|nvrtc-builtins64_\d+\.dll[^\n]{0,40}(?:not found|could not be (?:found|loaded)))",
        priority: 72,
        causes: &[
            c("torch.wheel_deps_mismatch", 0.55, "NVRTC (run-time compilation: TorchScript/nvFuser fusers, CuPy, Theano, OptiX renderers) loads libnvrtc-builtins of exactly its own CUDA version at run time; that library is not installed or its folder (the toolkit's lib64, conda's lib, the nvidia-cuda-nvrtc wheel's lib) is not on the loader's path.", "Put the folder holding libnvrtc-builtins.so.<version> on the loader's path (`export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH`, or `$CONDA_PREFIX/lib`), or install the matching package (`pip install nvidia-cuda-nvrtc-cu12`; conda `cuda-nvrtc`)."),
            c("torch.libs_shadowed", 0.2, "Another CUDA's libnvrtc on LD_LIBRARY_PATH is loaded instead of the one the program ships, and it asks for builtins of its own version, which are not next to it.", FIX_LIBS_SHADOWED),
            c("workload.library_bug", 0.25, "The package ships libnvrtc-builtins under a renamed (hashed) file name that NVRTC does not look for: a packaging bug of that release.", "Link the shipped file to the name NVRTC wants (`ln -s libnvrtc-builtins-<hash>.so.<ver> libnvrtc-builtins.so.<ver>` in the package's lib folder) or use a release of the package that fixed it."),
        ],
        hints: &[
            h(r"libnvrtc-builtins-[0-9a-f]{6,}\.so|libnvrtc-[0-9a-f]{6,}\.so", "workload.library_bug", 0.6),
            h(r"LD_LIBRARY_PATH\s*=", "torch.libs_shadowed", 0.2),
        ],
        tells_apart: "`ldconfig -p | grep nvrtc` and `ls $(dirname $(python -c 'import torch; print(torch.__file__)'))/lib | grep nvrtc`: the builtins' version must equal libnvrtc's, and sit where the loader looks.",
    },
    // libstdc++ too old for what a library was built with (pytorch/pytorch#157709: "version
    // `GLIBCXX_3.4.30' not found (required by .../libtorch_python.so)"): the loader took an
    // older libstdc++ (the system's in a conda environment, or conda's own older one before
    // the system's) than the one the module needs.
    Rule {
        id: "loader.libstdcxx_version",
        title: "libstdc++ is older than a library needs",
        pattern: r"libstdc\+\+\.so\.6:\s*version\s*[`'\x22]?(?:GLIBCXX|CXXABI)_[\d.]+[`'\x22]?\s*not\s+found|(?:GLIBCXX|CXXABI)_[\d.]+[`'\x22]?\s*not\s+found\s*\(required by",
        priority: 66,
        causes: &[
            c("torch.libs_shadowed", 0.55, "The process loaded an older libstdc++ than the environment provides: the system's /usr/lib one shadows the conda environment's (its libstdc++.so.6 link missing, or LD_LIBRARY_PATH / the Python binary preferring the system folder).", "Make the environment's libstdc++ win: `export LD_LIBRARY_PATH=$CONDA_PREFIX/lib:$LD_LIBRARY_PATH` (check `ls -l $CONDA_PREFIX/lib/libstdc++.so.6*`), or update it (`conda install -c conda-forge libstdcxx-ng`)."),
            c("ext.abi_mismatch", 0.35, "The module was built with a newer GCC than the libstdc++ of the environment it runs in (built on another machine or image, or with a newer compiler than the conda environment ships).", "Update the environment's C++ runtime (`conda install -c conda-forge libstdcxx-ng` / `sudo apt install libstdc++6` from a newer toolchain) or rebuild the module with the environment's compiler."),
        ],
        hints: &[
            h(r"(?:envs/[\w.-]+|conda\w*|miniforge\w*|mamba\w*)/(?:bin/\.\./)?lib/libstdc\+\+", "ext.abi_mismatch", 0.4),
            h(r"(?:^|[\s'\x22])/(?:usr/)?lib(?:64)?/(?:x86_64-linux-gnu/)?libstdc\+\+\.so\.6", "torch.libs_shadowed", 0.2),
        ],
        tells_apart: "`strings <the libstdc++ in the message> | grep GLIBCXX_3.4.3` and `ls $CONDA_PREFIX/lib/libstdc++.so.6*`: which libstdc++ the loader took, and whether a newer one is in the environment.",
    },
    // nvcc: a CUDA intrinsic or API the source uses is undefined (microsoft/onnxruntime#15840:
    // `identifier "__hmul2_rn" is undefined` under CUDA 11.3; NVIDIA/nccl#9: half intrinsics
    // compiled for compute_52). The intrinsic came with a later toolkit, or exists only from
    // an architecture on (half arithmetic sm_53+, bfloat16 sm_80+) and the arch list has an
    // older one; or the project's code does not guard it for the toolkits it claims.
    Rule {
        id: "nvcc.intrinsic_undefined",
        title: "a CUDA intrinsic is undefined when compiling",
        pattern: r#"error:\s*identifier\s*\x22(?:__h\w+|__nv_\w+|__float2\w+|__half\w*|__bfloat\w*|__\w+_sync|__shfl\w*|__ldg|__dp4a|__nanosleep|__reduce_\w+|__ushort_as_half|__half_as_ushort|atomic\w+|__habs\w*|h(?:exp|log|sqrt|rsqrt|sin|cos)\w*|cuda\w+|cublas\w+|cusparse\w+|cudnn\w+)\x22\s*is\s*undefined"#,
        priority: 62,
        causes: &[
            c("workload.library_bug", 0.4, "The project's CUDA code calls an intrinsic or API that the toolkits (or GPU architectures) it claims to support do not all have, without a guard: the project's bug, fixed by its authors (or by building with what they build with).", "Build with the toolkit and architectures the project documents, or the project's release that guards the call; search its issue tracker for the identifier."),
            c("toolkit.torch_mismatch", 0.35, "The nvcc doing the build is older than the CUDA the code (and the torch it builds against) was written for: the intrinsic arrived in a later toolkit.", "Build with the CUDA toolkit of torch's CUDA (`python -c \"import torch; print(torch.version.cuda)\"`) or newer: install it and `export CUDA_HOME=/usr/local/cuda-<ver> PATH=/usr/local/cuda-<ver>/bin:$PATH`."),
            c("env.arch_list_mismatch", 0.25, "Half-precision intrinsics exist only for sm_53 and newer, bfloat16 ones for sm_80 and newer: the build compiles for an older architecture too (TORCH_CUDA_ARCH_LIST, CMAKE_CUDA_ARCHITECTURES or -gencode lists 5.x/6.x/7.x).", "Compile only for the GPUs you have: `export TORCH_CUDA_ARCH_LIST=\"<cc>\"` (e.g. 8.6) or `-DCMAKE_CUDA_ARCHITECTURES=<cc>`, then rebuild from a clean build folder."),
        ],
        hints: &[
            h(r"compute_(?:[1-4]\d|5[0-2])\b|sm_(?:[1-4]\d|5[0-2])\b|TORCH_CUDA_ARCH_LIST\s*=\s*['\x22]?[3-5]\.", "env.arch_list_mismatch", 0.4),
            h(r"(?:__nv_bfloat|__bfloat|bf16)[^\n]*\n(?:[^\n]*\n){0,20}?[^\n]*(?:compute_[5-7]\d|sm_[5-7]\d)\b|(?:compute_[5-7]\d|sm_[5-7]\d)\b[^\n]*\n(?:[^\n]*\n){0,20}?[^\n]*(?:__nv_bfloat|__bfloat)", "env.arch_list_mismatch", 0.3),
        ],
        tells_apart: "The identifier's first CUDA release and minimum architecture (CUDA Math API docs) against `nvcc --version` and the -gencode flags on the failing command line.",
    },
    // torch.compile's inductor finds no usable Triton (pytorch/pytorch#136361: Windows had no
    // Triton build; lum3on/comfyui_HiDream-Sampler#7: a triton-windows too old for the torch).
    // Without evidence of an installed Triton, nothing is wrong with the machine: Triton is an
    // optional package torch.compile needs, and the program can run eagerly.
    Rule {
        id: "inductor.triton_missing",
        title: "torch.compile finds no working Triton",
        pattern: r"(?:Cannot find a working triton installation|TritonMissing\b)",
        priority: 55,
        causes: &[
            c("none", 0.55, "torch.compile's GPU backend (inductor) generates Triton kernels and Triton is not installed in this environment (for years there was no Windows build at all); the GPU and driver are fine and the program runs without compilation.", "Run without compilation (drop `torch.compile`, or `torch._dynamo.config.suppress_errors = True` to fall back to eager), or install Triton for this torch: Linux `pip install triton` (the version torch pins), Windows `pip install -U \"triton-windows<3.(torch minor + 1)\"`."),
            c("torch.wheel_deps_mismatch", 0.45, "A Triton is installed but is not the one this torch needs (too old, or installed into another Python than the one running), so inductor rejects it.", "Install the Triton version the installed torch pins (`pip show torch` lists it; Windows: the triton-windows release for that torch), with the same Python that runs the program (`python -m pip`)."),
        ],
        hints: &[h(r"triton(?:-windows)?[ =-]{1,3}\d|triton[^\n]{0,20}(?:is|was) (?:already )?installed|installed triton|pip install[^\n]{0,40}triton", "torch.wheel_deps_mismatch", 0.3)],
        tells_apart: "`python -c \"import triton; print(triton.__version__, triton.__file__)\"` with the Python that runs the program, against the Triton version torch pins.",
    },
    // The linker of an extension build finds no CUDA library (deepspeedai/DeepSpeed#889:
    // "/usr/bin/ld: cannot find -lcurand" building cpu_adam): linking needs the toolkit's
    // unversioned development libraries (libcurand.so, libcudart.so), which only a CUDA toolkit
    // installs (the nvidia-* runtime wheels ship versioned .so files only).
    Rule {
        id: "link.cuda_lib_not_found",
        title: "the linker finds no CUDA library",
        pattern: r"\bld(?:\.\w+)?(?:\.exe)?:\s*(?:cannot|can ?not)\s+find\s+-l(?:cudart|curand|cublas|cublasLt|cusparse|cusolver|cufft|nvrtc|nvToolsExt|cuda|nccl|cudnn|nvinfer)\b|LINK : fatal error LNK1181: cannot open input file '(?:cudart|curand|cublas|cublasLt|cusparse|cusolver|cufft|nvrtc|cuda|cudnn)\.lib'",
        priority: 66,
        causes: &[
            c("toolkit.not_found", 0.6, "Linking CUDA code needs the CUDA toolkit's development libraries (the unversioned libcurand.so, libcudart.so, ...); no toolkit is installed (the nvidia-* wheels torch brings ship only the versioned runtime files), so the linker finds none.", "Install the CUDA toolkit of torch's CUDA version (NVIDIA's `cuda-toolkit-12-x` package, or `conda install -c nvidia cuda-toolkit=<ver>`), `export CUDA_HOME=<its root>`, and rebuild."),
            c("toolkit.path_inconsistent", 0.4, "A toolkit is installed but the build links against another prefix: CUDA_HOME (or conda's lib) does not hold the library, so the linker's -L paths miss it.", "Point the build at the toolkit that has the library: `export CUDA_HOME=/usr/local/cuda-<ver>` and `export LIBRARY_PATH=$CUDA_HOME/lib64:$LIBRARY_PATH` (conda: `$CONDA_PREFIX/lib`), then rebuild from a clean cache (`rm -rf ~/.cache/torch_extensions`)."),
        ],
        hints: &[
            h(r"Cuda compilation tools, release|/usr/local/cuda[\w.-]*/(?:bin|lib64)|CUDA_HOME\s*=\s*/|-lcuda\b", "toolkit.path_inconsistent", 0.3),
        ],
        tells_apart: "`ls $CUDA_HOME/lib64/libcurand.so*` (and `find / -name 'libcurand.so*'`): none anywhere is a missing toolkit; one elsewhere is a path problem.",
    },
    // ---- round 9b (installing)
    // pip/uv/Poetry find no installable wheel of a GPU package (gzxiong/MedRAG#1,
    // Nerogar/OneTrainer#138: "No matching distribution found for torch==2.1.2+cu118";
    // jhc13/taggui#34: "torch-2.1.2+cu121-cp311-…whl is not a supported wheel on this platform";
    // uv's "only has wheels for the following platforms"). `+cuXXX` builds exist only on
    // PyTorch's own index, and each release ships wheels for a few 64-bit CPython versions, so
    // a plain `pip install`, a Python too new (or 32-bit) and a Mac all end here with nothing
    // installed. An exact pin of an nvidia-* library wheel is a frozen environment's pin
    // (JHLew/MoMo#4): the project's requirements, not the machine.
    Rule {
        id: "install.no_matching_wheel",
        title: "the package manager finds no installable wheel of a GPU package",
        pattern: r"(?:Could not find a version that satisfies the requirement|No matching distribution found for|Unable to find installation candidates for|there is no version of|was not found in the package registry)\s+[\x60'\x22]?(?:torch|torchvision|torchaudio|pytorch|xformers|jaxlib|jax\[cuda\w*\]|tensorflow(?:-gpu)?|nvidia-[\w-]+|flash[_-]attn|bitsandbytes|vllm|triton|onnxruntime-gpu|cupy-cuda\w+|paddlepaddle-gpu|tensorrt[\w-]*|deepspeed|llama[_-]cpp[_-]python\w*)\b|\b(?:torch|torchvision|torchaudio|xformers|jaxlib|tensorflow|flash_attn|bitsandbytes|vllm|triton|onnxruntime_gpu|cupy_cuda\w+|llama_cpp_python\w*|causal_conv1d|mamba_ssm|torchao)-[\w.+%-]+\.whl is not a supported wheel on this platform|only\s+has\s+wheels\s+(?:for|matching)\s+the\s+following\s+platforms|has\s+no\s+wheels\s+with\s+(?:a\s+)?matching\s+(?:Python|platform|ABI)[\w\s]{0,30}?\btags?\b|we\s+only\s+found\s+wheels\s+for\s+[\x60'\x22]?(?:torch|torchvision|torchaudio|xformers|jaxlib)[\x60'\x22]?|depends on (?:torch|torchvision|torchaudio|jaxlib|xformers) \([^)\n]*\) which doesn.t match any versions",
        priority: 58,
        causes: &[
            c("torch.not_found", 0.7, "Nothing was installed: the wheel asked for exists nowhere the installer looked. CUDA builds (`+cuXXX` versions) are published only on PyTorch's own index (download.pytorch.org/whl/cuXXX), which pip, uv and Poetry do not search unless told; and every release ships wheels for a few 64-bit CPython versions only, so a Python newer than the release, a 32-bit Python or a wheel tagged for another Python (`cp311` on 3.10) finds none (\"from versions: none\", \"not a supported wheel\").", "Install from PyTorch's index with the CUDA variant the driver supports: `pip install torch==<ver> torchvision==<ver> --index-url https://download.pytorch.org/whl/cu121` (requirements.txt: `--extra-index-url` on its first line; uv: a `[[tool.uv.index]]` with `explicit = true` named in `[tool.uv.sources]`; Poetry: a `source` with `priority = \"explicit\"`). With \"from versions: none\" or a cpXY tag that is not yours, use a 64-bit Python the release ships wheels for (`python -VV`)."),
            c("host.no_nvidia_gpu", 0.1, "CUDA builds exist only for Linux and Windows (x86_64, and Linux aarch64): on a Mac, which has no NVIDIA GPU, no `+cuXXX` wheel can install.", "On the Mac install the plain build (`pip install torch`; Apple silicon uses MPS) and drop the `+cuXXX` pins, or run the project on a Linux/Windows machine with an NVIDIA GPU."),
            c("none", 0.1, "The requirement pins a version no index serves (a typo, a yanked release, or an exact nvidia-* wheel copied from a frozen environment): the project's requirements, not the machine.", "Correct or relax the pin: pick a version from the list the installer printed, and let torch pull the nvidia-* wheels it needs instead of pinning them."),
            c("workload.library_bug", 0.1, "The torch build pins an nvidia-* wheel that its own index no longer serves: a packaging fault of the index, not of the machine.", "Install the pinned wheel from PyPI first (`pip install nvidia-cudnn-cu12==<pin>`), or a torch release whose pins resolve; follow the PyTorch issue for the index."),
        ],
        hints: &[
            h(INSTALL_ON_A_MAC_FOR_CUDA, "host.no_nvidia_gpu", 0.8),
            h(r"(?:requirement|distribution found for)\s+nvidia-[\w-]+==[\d.]+(?:\s|$)(?:\(from versions)?", "none", 0.7),
            h(r"requirement\s+nvidia-[\w-]+==[\d.]+\s*(?:;[^\n]*)?\(from torch", "workload.library_bug", 1.0),
            // Triton publishes wheels for Linux only: "from versions: none" (or a Windows shell
            // around the request) is a platform without Triton, where programs that list it run
            // without it (torch.compile aside); nothing is wrong with the GPU stack
            // (XPixelGroup/DiffBIR#61, devilismyfriend/StableTuner#110).
            h(r"requirement\s+triton\b[^\n]{0,40}\(from versions:\s*none\)|(?:requirement|found for)\s+triton\b[\s\S]{0,2000}?(?:\bwin_amd64\b|\bWindows\b|\bPowerShell\b|(?:^|\s|\()[A-Z]:\\)|(?:\bwin_amd64\b|\bWindows\b|\bPowerShell\b|(?:^|\s|\()[A-Z]:\\)[\s\S]{0,2000}?(?:requirement|found for)\s+triton\b", "none", 0.9),
        ],
        tells_apart: "`python -VV` (version, 64-bit) and the wheel's tags (`cp311`, `win_amd64`, `manylinux_2_28_x86_64`), and whether the command named PyTorch's index (`--index-url https://download.pytorch.org/whl/cuXXX`).",
    },
    // conda/mamba refusing a CUDA package because the driver's __cuda is older than it needs
    // (mamba-org/mamba#969: "package cudatoolkit-11.0.3-… has constraint __cuda >=11.0
    // conflicting with __cuda-10.2-0"): __cuda is read from the machine's driver.
    Rule {
        id: "conda.virtual_cuda_too_old",
        title: "conda's __cuda (the driver's CUDA) is older than a package needs",
        pattern: r"constraint __cuda\s*>=?\s*[\d.]+[^\n]{0,40}conflicting with __cuda[-=][\d.]+|__cuda\s*>=\s*[\d.]+[^\n]{0,80}conflicts? with[^\n]{0,60}__cuda[-= ]+[\d.]+|incompatible with your system:\s*(?:\n\s*-\s*[^\n]*){0,6}?\n\s*-\s*feature:[\w/:-]*__cuda==[\d.]+",
        priority: 72,
        causes: &[
            c("driver.too_old_for_toolkit", 0.8, "conda/mamba take the virtual package __cuda from the machine's NVIDIA driver (the 'CUDA Version' nvidia-smi prints); the package asks for a newer CUDA than this driver supports, so the solver refuses it.", "Install a driver that supports the package's CUDA (CUDA 11.x needs 450.80+, 12.x 525.60+), or ask for the CUDA this driver supports (`pytorch-cuda=<ver>` / `cudatoolkit=<ver>` / `cuda-version=<ver>`); `CONDA_OVERRIDE_CUDA` only for a machine that is not the one it will run on."),
            c("host.no_nvidia_gpu", 0.1, "The solver runs on a machine without the target's GPU and driver (a login node, a CI runner).", "Solve with `CONDA_OVERRIDE_CUDA=<the target's CUDA>` or on the target machine."),
            c("none", 0.1, "The request itself pins a CUDA build newer than intended.", "Drop the CUDA pin and let the solver pick the build for this driver."),
        ],
        hints: &[h(r"login node|\bCI\b|docker build|without (?:any )?GPUs?", "host.no_nvidia_gpu", 0.5)],
        tells_apart: "`conda info` (its virtual packages: `__cuda=<ver>`) and `nvidia-smi` against the CUDA the package asks for.",
    },
    // conda/mamba cannot solve an environment with CUDA packages (facebookresearch/demucs#21:
    // "UnsatisfiableError … pytorch=1.3.1 -> cudatoolkit[version='>=10.1,<10.2'] / cudatoolkit=10.0").
    // Usually the request or the environment file pins packages built against different CUDA
    // (or Python) versions: the project's pins. An environment that already holds another
    // CUDA's packages (or pip's torch) conflicts the same way.
    Rule {
        id: "conda.unsatisfiable_cuda",
        title: "conda/mamba cannot solve the CUDA packages asked for",
        pattern: r"(?:UnsatisfiableError|LibMambaUnsatisfiableError|Found conflicts! Looking for incompatible packages|Could not solve for environment specs|Encountered problems while solving|nothing provides [^\n]{0,40}needed by)[\s\S]{0,2000}?\b(?:cudatoolkit|pytorch-cuda|pytorch-mutex|cuda-version|pytorch|torchvision|torchaudio|cudnn|cuda-toolkit|cuda-nvcc|tensorflow-gpu|jaxlib)\b",
        priority: 45,
        causes: &[
            c("none", 0.55, "The packages asked for were built against different CUDA (or Python) versions (a pytorch built for CUDA 10.1 next to cudatoolkit=10.0, a torchaudio of another release than pytorch, channels mixed): the request or the project's environment file, not the machine.", "Ask for one consistent set: the pytorch, torchvision, torchaudio of one release with one `pytorch-cuda=<ver>` (`-c pytorch -c nvidia`), or conda-forge's builds alone (`cuda-version=<ver>`); correct the environment file's pins and do not mix channels for the CUDA packages."),
            c("torch.wheel_deps_mismatch", 0.25, "The environment already holds packages of another CUDA (or a pip-installed torch), which the new request conflicts with.", "Create a fresh environment for the CUDA packages (`conda create -n <env> python=<ver> pytorch pytorch-cuda=<ver> -c pytorch -c nvidia`) instead of installing into the old one."),
            c("driver.too_old_for_toolkit", 0.1, "The CUDA packages need a newer driver than the machine's (__cuda).", FIX_DRIVER_UPGRADE),
            c("host.no_nvidia_gpu", 0.1, "The platform has no CUDA builds at all (macOS, osx-arm64).", "Install the CPU/MPS build on a Mac; CUDA packages need Linux or Windows with an NVIDIA GPU."),
        ],
        hints: &[
            h(r"__cuda(?:==|\s*>=?\s*)\d", "driver.too_old_for_toolkit", 0.5),
            h(r"\bosx-(?:arm)?64\b|\bmacOS\b|\bMac ?M[1-4]\b|Apple silicon", "host.no_nvidia_gpu", 0.8),
            h(r"conda install(?: -n \w+)?[^\n]{0,80}(?:pytorch|cudatoolkit)|already installed|existing environment|\(base\)[^\n]{0,40}conda install", "torch.wheel_deps_mismatch", 0.1),
        ],
        tells_apart: "Which packages the solver says conflict: two CUDA versions in the request (the pins), or one against what the environment already has (`conda list`).",
    },
    // pip's dependency check after an install: "<pkg> <ver> requires <dep>==<v>, but you have
    // <dep> <w> which is incompatible". torch requiring other nvidia-* wheels is a mixed set of
    // CUDA libraries; an extension requiring another torch was built for that torch; a CPU torch
    // pulled in by a later install is the CPU build.
    Rule {
        id: "pip.installed_incompatible",
        title: "pip installed a set of packages that do not go together",
        pattern: r"\b[\w.-]+ [\w.+-]+ requires [\w.-]+(?:\[[^\]\n]*\])?\s*(?:[=<>!~]=?[^,\n]*)?, but you(?:'ll| will)? have [\w.-]+ [\w.+-]+ which is incompatible",
        priority: 40,
        causes: &[
            c("torch.wheel_deps_mismatch", 0.5, "torch (or a CUDA library wheel) pins exact nvidia-* wheels and another install replaced one of them with another version: the CUDA libraries torch loads are not the ones it was built with.", FIX_WHEEL_DEPS),
            c("ext.abi_mismatch", 0.3, "An extension (xformers, flash-attn, vllm, torchvision, torchaudio) was built for another torch release than the one now installed.", "Install the torch the extension was built for, or the extension's build for the installed torch (torchvision/torchaudio of the same release; `pip install xformers --index-url https://download.pytorch.org/whl/<cuXXX>`)."),
            c("torch.cpu_only", 0.1, "A later install pulled PyPI's CPU-only torch over the CUDA build.", "Reinstall the CUDA build last: `pip install --force-reinstall torch==<ver> --index-url https://download.pytorch.org/whl/<cuXXX>`."),
            c("none", 0.1, "pip only warns: the packages named are not GPU libraries, or the program works with them as they are.", "Nothing to do for the GPU; align the versions pip names if the program fails."),
        ],
        hints: &[
            h(r"\btorch [\w.+-]+ requires nvidia-|\bnvidia-[\w-]+ [\w.+-]+ requires nvidia-", "torch.wheel_deps_mismatch", 0.4),
            h(r"\b(?:xformers|flash[_-]attn|vllm|torchvision|torchaudio|bitsandbytes|deepspeed|sglang|torchao|triton) [\w.+-]+ requires (?:torch|triton)\b", "ext.abi_mismatch", 0.4),
            h(r"but you(?:'ll| will)? have torch [\d.]+\+cpu\b", "torch.cpu_only", 0.9),
        ],
        tells_apart: "`pip list | grep -E 'torch|nvidia|xformers'` and `pip check`: which package requires which version, and the `+cuXXX` / `+cpu` suffix of the torch installed.",
    },
    // apt/dnf cannot install the driver's packages together (david-xinyuwei/david-share#3,
    // aws-samples/aws-deep-learning-ami-ubuntu-dcv-desktop#18: "nvidia-dkms-530 : Depends:
    // nvidia-kernel-common-530 (>= 530.41.03) but 530.30.02-0ubuntu1 is to be installed"): two
    // sources or two releases of the driver's packages. A fresh install ends with no driver; an
    // upgrade stopped half-way leaves a module that is not built (or not loaded).
    Rule {
        id: "apt.nvidia_unmet_dependencies",
        title: "the package manager cannot install the NVIDIA driver's packages together",
        pattern: r"\b(?:lib)?(?:nvidia|cuda)[\w.+:-]*\s*:\s*(?:Pre)?Depends:\s*[\w.+:-]+[^\n]{0,80}?\bbut (?:[\w.:~+-]+ is to be installed|it is not (?:going to be installed|installable))|\b(?:package|pkg) (?:kmod-)?(?:nvidia|cuda)[\w.:+-]* (?:requires|conflicts with) [^\n]{0,120}(?:none of the providers can be installed|but none)|(?:nvidia|cuda)[\w.+-]* depends on (?:lib)?(?:nvidia|cuda)[\w.+-]*[^\n]{0,60}; however:",
        priority: 64,
        causes: &[
            c("driver.not_installed", 0.5, "The driver's packages cannot be installed together: they come from two sources (the distribution's archive and NVIDIA's CUDA repository, a PPA, a repository for another distribution release) or from two releases of one branch (the index updated in between), so none of them installs and the machine has no working driver.", "Install the driver from one source: `sudo apt purge '*nvidia*' 'libnvidia-*' && sudo apt autoremove`, keep either the distribution's packages (`sudo ubuntu-drivers install`) or NVIDIA's repository for this release, `sudo apt update && sudo apt --fix-broken install`, then one `nvidia-driver-<branch>`; dnf: `sudo dnf module reset nvidia-driver` and one stream."),
            c("driver.module_not_loaded", 0.35, "An upgrade stopped half-way (the kernel module's packages at one release, the rest at another): the module for the running kernel is not built, so the driver does not load.", "Finish the upgrade: `sudo apt --fix-broken install` (or `sudo dpkg --configure -a`), check `dkms status`, reboot; hold the driver on machines that must not upgrade it unattended (`sudo apt-mark hold 'nvidia-*' 'libnvidia-*'`)."),
            c("driver.library_mismatch", 0.15, "The user-space libraries were upgraded while the previous kernel module still runs.", "Reboot (or unload and reload the nvidia modules) after the upgrade completes."),
        ],
        hints: &[
            h(r"fails? to load|after working|(?:on|after) (?:a )?reboot|unattended|automatic(?:ally)? upgrad|apt(?:-get)? (?:full-)?upgrade|not fully installed|--fix-broken", "driver.module_not_loaded", 0.3),
            h(r"Depends: libc6 \(>=|is not installable|for (?:a |another )?(?:different|newer|older) (?:distribution|release|ubuntu|debian)", "driver.not_installed", 0.3),
            h(r"version mismatch|Failed to initialize NVML", "driver.library_mismatch", 0.5),
        ],
        tells_apart: "`apt policy nvidia-driver-<branch> nvidia-kernel-common-<branch>` (which repository and version each comes from), `dpkg -l | grep -i nvidia` (half-installed states: iU, iF) and `dkms status`.",
    },
    // dpkg failing to configure an NVIDIA package (its post-installation script builds the
    // kernel module through DKMS): "dpkg: error processing package nvidia-dkms-470 (--configure)".
    Rule {
        id: "dpkg.nvidia_configure_failed",
        title: "dpkg could not configure an NVIDIA package",
        pattern: r"dpkg: error processing package (?:lib)?(?:nvidia|cuda)[\w.+-]*|installed (?:lib)?(?:nvidia|cuda)[\w.+-]* package post-installation script subprocess returned error exit status|Errors were encountered while processing:\s*\n\s*(?:lib)?(?:nvidia|cuda)[\w.+-]*",
        priority: 62,
        causes: &[
            c("driver.module_not_loaded", 0.7, "The package's post-installation step builds the NVIDIA kernel module for the installed kernels (DKMS) and it failed (kernel headers missing, a kernel too new for the driver branch, a compiler the kernel was not built with): the driver's module does not exist for the running kernel.", FIX_MODULE),
            c("driver.not_installed", 0.3, "The driver's installation stopped part-way (a dependency left unconfigured, another package's script failing), so no working driver is installed.", "Read the first error above the dpkg line; fix it, then `sudo dpkg --configure -a` (or `sudo apt --fix-broken install`) and reinstall the driver package; reboot."),
        ],
        hints: &[h(r"ModuleNotFoundError|Traceback \(most recent call last\)|No space left|Could not get lock", "driver.not_installed", 0.5)],
        tells_apart: "`dkms status` and the make.log it names; `sudo dpkg --configure -a` shows the first failing step again.",
    },
    // An install that pairs a CUDA toolkit with an older driver than it needs
    // (GoogleCloudPlatform/compute-gpu-installation#42: "the CUDA toolkit version installed
    // (12.5) requires driver version 555.42.02, whereas the script installs driver version
    // 550.90.07"): what it builds fails with status 222 (PTX of an unsupported toolchain).
    Rule {
        id: "install.toolkit_needs_newer_driver",
        title: "the CUDA toolkit installed needs a newer driver than the one installed",
        pattern: r"(?:CUDA(?: toolkit)?|toolkit) (?:version )?(?:installed )?\(?v?1\d\.\d+\)? (?:requires|needs) (?:a |the )?(?:NVIDIA )?(?:GPU )?driver (?:version )?(?:>= ?|of at least |at least )?\d{3}(?:\.\d+)*",
        priority: 42,
        causes: &[
            c("driver.too_old_for_toolkit", 0.85, "The CUDA toolkit installed is newer than the installed driver supports (each toolkit release names its minimum driver): code it compiles carries PTX the driver cannot JIT (status 222, \"the provided PTX was compiled with an unsupported toolchain\") and its runtime refuses the driver (status 35).", "Install the driver the toolkit's release notes name (or newer), from the same repository as the toolkit; or install the toolkit release that matches the driver (`cuda-toolkit-12-4` for a 550 driver)."),
            c("toolkit.torch_mismatch", 0.15, "The toolkit does not match what the rest of the stack (PyTorch's CUDA) was built with.", "Install the toolkit of torch's CUDA version (`python -c \"import torch; print(torch.version.cuda)\"`)."),
        ],
        hints: &[],
        tells_apart: "`nvidia-smi` (the driver and the highest CUDA it supports) against `nvcc --version`.",
    },
    // A shared library of torch itself that an extension or torchaudio/torchvision links to is
    // missing (TEAMuP-dev/audacitorch#9: "OSError: libtorch_cuda_cpp.so: cannot open shared object
    // file" after another package reinstalled torch 1.9.1): the extension was built against a
    // torch whose libraries differ (another release, or a CUDA build where a CPU one is installed).
    Rule {
        id: "import.torch_library_missing",
        title: "a library of torch's that an extension links to is missing",
        pattern: r"\blibtorch(?:_cuda(?:_cpp|_cu|_linalg)?|_cpu|_python|_hip|_global_deps)?\.so[\d.]*:\s*cannot open shared object file|\b(?:torch_cuda|torch_cpu|torch_python|c10_cuda)\.dll\b[^\n]{0,40}(?:not found|could not be found|cannot be found)",
        priority: 83,
        causes: &[
            c("ext.abi_mismatch", 0.6, "A compiled package (torchaudio, torchvision, an extension) was built against a torch whose libraries are named differently: another release (libtorch_cuda_cpp.so existed only in some), or a CUDA build where a CPU-only one is installed. Another install replaced torch under it.", "Install the package's release built for the installed torch (torchaudio/torchvision of the same PyTorch release, from the same index: `pip install torch==<v> torchaudio==<v'> --index-url https://download.pytorch.org/whl/<cuXXX>`), or install the torch it was built for."),
            c("torch.cpu_only", 0.2, "The torch installed is a CPU-only build, which ships no libtorch_cuda*.so, while the package was built for a CUDA build.", "Install the CUDA build of torch (`pip install --force-reinstall torch==<v> --index-url https://download.pytorch.org/whl/<cuXXX>`)."),
            c("torch.wheel_deps_mismatch", 0.2, "torch's own install is incomplete (an interrupted or mixed install left some of its libraries out).", "Reinstall torch in a fresh environment (`pip install --force-reinstall --no-cache-dir torch==<v> --index-url https://download.pytorch.org/whl/<cuXXX>`)."),
        ],
        hints: &[
            h(r"\+cpu\b|cpuonly|CPU[- ]only", "torch.cpu_only", 0.4),
            h(r"^\s*import torch\s*$|torch/__init__\.py", "torch.wheel_deps_mismatch", 0.2),
        ],
        tells_apart: "`pip list | grep -E '^torch'`: the releases of torch, torchaudio, torchvision (they must be one PyTorch release) and the `+cuXXX`/`+cpu` suffix of each.",
    },
    // pip took the CPU-only wheel: on Windows and macOS PyPI's torch is CPU-only, and `+cpu`
    // wheels say so in their name (pytorch/pytorch#52662: "Downloading torch-1.7.1-cp38-cp38-
    // win_amd64.whl" for the CUDA 10.2 selection, then CUDA is not available). pip prints a
    // bare file name for PyPI and the whole URL for other indexes (PyTorch's cuXXX folders,
    // whose old Windows wheels had no suffix), so only the bare name is read.
    Rule {
        id: "pip.cpu_wheel_installed",
        title: "pip installed a CPU-only PyTorch wheel",
        pattern: r"(?:Downloading|Using cached)\s+torch-\d+\.\d+(?:\.\d+)?(?:\.post\d+)?-cp\d+-(?:cp\d+m?|none|abi3)-win_amd64\.whl|\btorch-\d+\.\d+(?:\.\d+)?(?:%2B|\+)cpu-cp\d+|Successfully installed[^\n]*\btorch-\d+\.\d+(?:\.\d+)?\+cpu\b",
        priority: 30,
        causes: &[
            c("torch.cpu_only", 0.85, "The wheel pip took is a CPU-only build: on Windows (and macOS) the torch on PyPI, and any plain `torch-X-…-win_amd64.whl` without a `+cuXXX` suffix, has no CUDA; `+cpu` wheels say so in their name.", "Install a CUDA build from PyTorch's index, with the CUDA variant the driver supports: `pip install --force-reinstall torch torchvision --index-url https://download.pytorch.org/whl/cu121` (check with `python -c \"import torch; print(torch.__version__, torch.version.cuda)\"`)."),
            c("none", 0.15, "A CPU build is what was wanted (no NVIDIA GPU is meant to be used).", "Nothing to do."),
        ],
        hints: &[h(r"cuda[^\n]{0,40}(?:not available|False|is_available\(\)\W{0,6}False)|not (?:being |been )?compiled with CUDA|CUDA[^\n]{0,30}(?:is not|isn't|not) (?:available|detected|used)", "torch.cpu_only", 0.1)],
        tells_apart: "`python -c \"import torch; print(torch.__version__, torch.version.cuda)\"`: `+cpu` or `None` is a CPU build.",
    },
    // NVIDIA's dnf plugin for precompiled kernel modules holds a kernel back until the module
    // for it is published (NVIDIA/yum-packaging-precompiled-kmod#28: "NOTE: Skipping kernel
    // installation since no kernel module package kmod-nvidia-… could be found"): the running
    // kernel and driver stay as they are.
    Rule {
        id: "dnf.kmod_kernel_held",
        title: "dnf holds back a kernel until NVIDIA's precompiled module for it exists",
        pattern: r"Skipping kernel installation since no kernel module package kmod-nvidia|no kernel module package kmod-nvidia[\w.-]* for kernel version [\w.-]+ and NVIDIA driver [\d.]+ could be found",
        priority: 66,
        causes: &[
            c("none", 0.8, "NVIDIA's dnf plugin skips a kernel update until the precompiled NVIDIA module for that kernel is published (usually days later); the running kernel keeps its working module, so nothing is broken, the update only waits.", "Wait for the kmod-nvidia package of the new kernel (`dnf nvidia-plugin` lists what is available), or switch to the DKMS stream (`dnf module switch-to nvidia-driver:<branch>-dkms`) to build the module for any kernel."),
            c("driver.module_not_loaded", 0.2, "The machine already boots a kernel that has no NVIDIA module (installed some other way), so the driver does not load.", FIX_MODULE),
        ],
        hints: &[h(r"NVIDIA-SMI has failed|couldn't communicate with the NVIDIA driver|no NVIDIA driver|nvidia[^\n]{0,30}not loaded", "driver.module_not_loaded", 0.7)],
        tells_apart: "`uname -r` against `rpm -qa 'kmod-nvidia*'`: a module for the running kernel means nothing is wrong yet.",
    },
    // A CUDA extension's build stops without a message a more specific rule knows
    // (turboderp/exllama#65: "ninja: build stopped: subcommand failed" with Ubuntu's nvcc 11.5
    // under a cu118 torch): most often the system's nvcc is of another CUDA than torch's build,
    // else the host compiler, no toolkit at all, or the extension's own source.
    Rule {
        id: "build.extension_failed",
        title: "a CUDA extension failed to build",
        pattern: r"ninja: build stopped: subcommand failed|error: command '[^'\n]*nvcc(?:\.exe)?' failed|Error compiling objects for extension|Failed building wheel for (?:flash[_-]attn|xformers|apex|deepspeed|mamba[_-]ssm|causal[_-]conv1d|vllm|bitsandbytes|auto[_-]gptq|exllama\w*|flashinfer\w*|detectron2|pytorch3d|mmcv\w*|torch[_-](?:scatter|sparse|cluster)|gsplat|diff[_-]gaussian[_-]rasterization|simple[_-]knn|tinycudann|nvdiffrast|spconv\w*|sageattention|transformer[_-]engine|\w*cuda\w*)\b",
        priority: 20,
        causes: &[
            c("toolkit.torch_mismatch", 0.4, "The extension is compiled by the system's nvcc against torch's headers; an nvcc of another CUDA than torch's build (Ubuntu's older `nvidia-cuda-toolkit`, a leftover /usr/local/cuda, conda's cuda-nvcc of another version) makes code and headers that do not fit together.", "Build with the toolkit of torch's CUDA (`python -c \"import torch; print(torch.version.cuda)\"`): install that toolkit and `export CUDA_HOME=/usr/local/cuda-<ver> PATH=/usr/local/cuda-<ver>/bin:$PATH`, or install the torch build of the toolkit's CUDA; a prebuilt wheel of the extension avoids the build."),
            c("toolkit.host_compiler_unsupported", 0.25, "The host compiler (gcc/g++, MSVC) is newer or older than this nvcc accepts.", "Build with a gcc the toolkit supports (`export CC=gcc-<n> CXX=g++-<n>`; CUDA 11.x: gcc <= 11, 12.x: gcc <= 12/13), or a newer toolkit."),
            c("toolkit.not_found", 0.2, "No CUDA toolkit (nvcc) is installed or found: the wheels torch brings have no compiler.", "Install the CUDA toolkit of torch's CUDA version and set CUDA_HOME, or install a prebuilt wheel of the extension."),
            c("workload.library_bug", 0.15, "The extension's source does not compile with this torch or toolkit release: it needs a release of the extension that supports them.", "Use the extension's release (or prebuilt wheel) made for the installed torch and CUDA; search its issues for the first compiler error of the log."),
        ],
        hints: &[
            h(r"Cuda compilation tools, release|nvcc: NVIDIA \(R\)|nvcc (?:--version|-V)\b", "toolkit.torch_mismatch", 0.2),
            h(r"unsupported GNU version|gcc versions? later than|host_config\.h|-allow-unsupported-compiler|unsupported Microsoft Visual Studio", "toolkit.host_compiler_unsupported", 0.6),
            h(r"nvcc: (?:command )?not found|CUDA_HOME (?:environment variable is not set|does not exist)|No CUDA runtime is found|(?:cannot|could not) find nvcc", "toolkit.not_found", 0.6),
        ],
        tells_apart: "The first `error:` line of the build log, `nvcc --version` against `python -c \"import torch; print(torch.version.cuda)\"`, and `gcc --version`.",
    },
    // TensorFlow's configure finding an nvcc of another CUDA than it was told
    // (NVIDIA/nvidia-docker#740: Ubuntu's `nvidia-cuda-toolkit` 9.1 installed in a CUDA 9.2
    // image): two toolkits, and the one on PATH is not the one meant.
    Rule {
        id: "configure.nvcc_version_differs",
        title: "the nvcc found is another CUDA version than the one configured",
        pattern: r"CUDA version detected from nvcc \([\d.]+\) does not match TF_CUDA_VERSION|nvcc version \(?[\d.]+\)? does not match (?:the )?(?:requested|configured|expected) CUDA version",
        priority: 60,
        causes: &[
            c("toolkit.multiple", 0.6, "Two CUDA toolkits are installed (a distribution's `nvidia-cuda-toolkit` beside NVIDIA's, or two versions under /usr/local) and the nvcc found first is not the one the build was configured for.", "Use one toolkit: remove the distribution's package (`sudo apt remove nvidia-cuda-toolkit`) or put the intended one first (`export PATH=/usr/local/cuda-<ver>/bin:$PATH CUDA_HOME=/usr/local/cuda-<ver>`); in containers start from the -devel image of that CUDA."),
            c("toolkit.path_inconsistent", 0.4, "PATH, CUDA_HOME and the configured version point at different installs.", "Point PATH and CUDA_HOME at the toolkit the build is configured for."),
        ],
        hints: &[h(r"install[^\n]{0,40}nvidia-cuda-toolkit", "toolkit.multiple", 0.3)],
        tells_apart: "`which -a nvcc` and `ls -d /usr/local/cuda*`: several is several toolkits.",
    },
    // Placeholder packages that only raise an error on install: PyPI's "tensorflow-gpu" since
    // December 2022 (dionhaefner/pyhpc-benchmarks#17: "The "tensorflow-gpu" package has been
    // removed! Please install "tensorflow" instead.") and "pytorch" (the package is "torch"):
    // the requirements name a package that was renamed, the machine is fine.
    Rule {
        id: "install.placeholder_package",
        title: "the requirements name a renamed GPU package",
        pattern: r"The \x22?tensorflow-gpu\x22? package has been removed|You tried to install \x22pytorch\x22\. The package named for PyTorch is \x22torch\x22",
        priority: 70,
        causes: &[
            c("none", 0.9, "The package name is a placeholder that only raises this error: tensorflow-gpu was folded into tensorflow (GPU support included since 2.1; `tensorflow[and-cuda]` on Linux brings the CUDA libraries), and PyTorch's package is `torch`. The requirements are out of date; the machine is fine.", "Replace the name in the requirements or environment file: `tensorflow-gpu` -> `tensorflow[and-cuda]` (Linux; a pinned 1.x/2.x tensorflow-gpu release still installs by its exact version), `pytorch` -> `torch` (with PyTorch's index for a CUDA build)."),
            c("torch.not_found", 0.1, "Until the name is corrected nothing is installed.", "Install the framework under its current name."),
        ],
        hints: &[],
        tells_apart: "The message itself names the package to install instead.",
    },
    // A GPU library reporting its own internal error (rsh-err-769: "FlashInfer Internal Error:
    // Invalid configuration in BatchPrefillWithRaggedKVCacheDispatched"): the library's kernel
    // dispatch has no configuration for the case, a bug fixed in its later releases; the
    // machine is fine. (The case was carried by the casebook's votes until round 9b's cases
    // joined it.)
    Rule {
        id: "library.internal_error",
        title: "a GPU library reports an internal error",
        pattern: r"\b(?:FlashInfer|CUTLASS|cuDNN Frontend|xFormers|FlashAttention|TensorRT-LLM|Marlin)\s+Internal Error\b",
        priority: 40,
        causes: &[
            c("workload.library_bug", 0.8, "The library's own check failed (a kernel configuration, shape or dtype its dispatch does not cover): a bug of that release, not the machine.", FIX_LIBRARY_BUG),
            c("torch.arch_unsupported", 0.2, "The library has no kernels for this GPU's architecture and reports it as an internal error.", "Check the library's supported GPUs; use a release that builds kernels for this compute capability."),
        ],
        hints: &[h(r"not supported on (?:this|your) (?:GPU|device)|sm_?\d{2,3}[^\n]{0,30}not supported|compute capability", "torch.arch_unsupported", 0.5)],
        tells_apart: "Whether the library's newer release (its changelog) fixes the message, and whether the same call works on another GPU model.",
    },
    // A tool's distribution package pinned to one driver branch's library (Syllo/nvtop#127:
    // "nvtop : Depends: libnvidia-compute-418 but it is not going to be installed" with a 495
    // driver that works): apt refuses the tool, the driver is fine; forcing it in replaces
    // the driver's libraries (Syllo/nvtop#118: NVML "Driver/library version mismatch").
    // Lower priority than the driver's own packages' rule, which takes their lines.
    Rule {
        id: "apt.package_pins_driver_library",
        title: "a package depends on another driver branch's library",
        pattern: r"\b[\w.+-]+\s*:\s*Depends:\s*libnvidia-[\w-]+-\d{3}\b[^\n]{0,60}?\bbut (?:[\w.:~+-]+ is to be installed|it is not (?:going to be installed|installable))",
        priority: 50,
        causes: &[
            c("none", 0.6, "The package (a monitoring tool, a library built by the distribution) depends on the library of one driver branch; with another branch installed apt refuses it. The installed driver is fine.", "Install the tool another way (its release, a build from source, pip) or the distribution's build made for the installed branch; do not let apt replace the driver for it."),
            c("driver.library_mismatch", 0.25, "Installing it anyway replaced the driver's user-space libraries with another branch's while the running kernel module stayed: NVML reports a driver/library version mismatch.", "Reinstall the driver branch that was running (`sudo apt install nvidia-driver-<branch>`), remove the tool's package, and reboot."),
            c("driver.not_installed", 0.15, "The driver's own packages are incomplete, so nothing provides the library.", FIX_DRIVER_INSTALL),
        ],
        hints: &[
            h(r"Driver/library version mismatch|Failed to initialize NVML", "driver.library_mismatch", 0.6),
            h(r"NVIDIA-SMI \d{3}\.\d+\s+Driver Version", "none", 0.2),
        ],
        tells_apart: "`apt-cache depends <package>` (which driver branch it wants) against `nvidia-smi` (the branch that runs).",
    },
    // ------------------------------------------------------------ field families
    Rule {
        id: "container.run_without_gpus",
        title: "a container started without the GPUs",
        // `nvidia-docker run` is matched whole, so that it counts as started with the GPUs
        pattern: r"(?:\b(?:nvidia-)?docker run\b[^\n]*|\bpodman run\b[^\n]*)",
        priority: 15,
        causes: &[
            c("host.container_no_gpu", 0.7, "`docker run` without `--gpus` (or `--runtime=nvidia`) gives the container no GPU device nodes and no driver libraries, so CUDA finds no device and libcuda.so.1 is missing inside.", FIX_CONTAINER),
            c("driver.too_old_for_toolkit", 0.1, "The image's CUDA is newer than the host driver supports.", "Use an image whose CUDA the host driver supports (`nvidia-smi` shows it), or upgrade the host driver."),
        ],
        hints: &[],
        tells_apart: "The `docker run` line: without `--gpus all` (or the nvidia runtime) the container has no GPU; `docker run --rm --gpus all ubuntu nvidia-smi` checks the toolkit.",
    },
    Rule {
        id: "container.libcuda_missing",
        title: "libcuda.so.1 is missing",
        pattern: r"libcuda\.so(?:\.1)?: cannot open shared object file",
        // above import.undefined_symbol (84), whose "ImportError: ….so: cannot open shared
        // object file" reads any library: the driver's own is no extension's (pytorch/pytorch#3221)
        priority: 85,
        causes: &[
            c("driver.not_installed", 0.45, "libcuda.so.1 comes with the NVIDIA driver: without it installed (or on a machine without an NVIDIA GPU) nothing can load it.", FIX_DRIVER_INSTALL),
            c("host.container_no_gpu", 0.35, "Inside a container the toolkit injects the host's libcuda.so.1 only when the container is started with the GPUs (`--gpus all`).", FIX_CONTAINER),
            c("driver.stub_library", 0.1, "Only the toolkit's stub libcuda is on the search path.", "Remove `.../cuda/lib64/stubs` from LD_LIBRARY_PATH so the driver's libcuda.so.1 is used."),
        ],
        hints: &[
            h(r"docker|container|podman|singularity|apptainer|kubernetes|\bpod\b|ghcr\.io|nvcr\.io", "host.container_no_gpu", 0.4),
            // libnvidia-container itself (on the host) cannot load it: the host's driver user
            // space is missing, not the container's (OE4T/meta-tegra).
            h(r"could not start driver service|nvidia-container-cli[^\n]{0,40}driver error|\bnvc\.c:\d+", "driver.not_installed", 0.7),
        ],
        tells_apart: "`ldconfig -p | grep libcuda` on the host; inside a container, whether it was started with `--gpus`.",
    },
    Rule {
        id: "nvml.device_handle",
        title: "NVML cannot reach a GPU (lost / unknown error)",
        pattern: r"(?:Unable to determine the device handle for GPU\s*[0-9A-Fa-f:.]*: (?:Unknown Error|GPU is lost)|GPU is lost\.\s+Reboot the system|NVML_ERROR_GPU_IS_LOST|GPU has fallen off the bus)",
        priority: 90,
        causes: &[
            c("gpu.lost", 0.8, "The GPU stopped answering on the PCIe bus (a loose card or riser, power, overheating, or a hardware fault); NVML cannot get its handle until the machine is power-cycled.", FIX_XID_HW),
            c("driver.library_mismatch", 0.1, "Rarely a driver problem (after an upgrade without reboot).", "Reboot the host."),
            // GeForce drivers before R465 refused a GeForce GPU they saw under a hypervisor
            // (NVIDIA/kubevirt-gpu-device-plugin#2: fine once KVM was hidden); R465 allowed
            // GeForce passthrough to a virtual machine.
            c("driver.gpu_unsupported", 0.0, "The GPU is passed through to a virtual machine and the driver refuses it there: GeForce drivers before R465 do not support a GeForce GPU under a hypervisor (hiding KVM from the guest makes it work).", "Install driver R465 or newer in the guest (GeForce passthrough is supported from R465), or hide the hypervisor (libvirt `<kvm><hidden state='on'/></kvm>`, QEMU `-cpu host,kvm=off`); data-centre GPUs are supported in VMs."),
        ],
        hints: &[
            h(r"(?s)hypervisor|kvm hidden|hidden state|kvm=off|(?:GeForce|GTX|RTX \d{4}).{0,3000}\b(?:VM|virtual machine|passthrough|pass-through|KVM|vfio|proxmox|ESXi|kubevirt)\b|\b(?:VM|virtual machine|passthrough|pass-through|KVM|vfio|proxmox|ESXi|kubevirt)\b.{0,3000}(?:GeForce|GTX|RTX \d{4})", "driver.gpu_unsupported", 0.9),
        ],
        tells_apart: "`dmesg | grep -i -E 'xid|fallen off'` (Xid 79 confirms the GPU dropped off); reseat the card, check power and cooling. In a VM: `grep -c hypervisor /proc/cpuinfo` and the guest driver's branch.",
    },
    // nvidia-smi's GPU reset (`nvidia-smi -r`, and every MIG mode change: nvidia-mig-parted,
    // the GPU operator's MIG manager) refuses while any client holds the GPU: its message lists
    // the kinds ("Fabric Manager, CUDA application, graphics application such as an X server,
    // ... another instance of nvidia-smi"); on servers the nvidia_drm module holds it too
    // (NVIDIA/mig-parted#181, its README's known issue).
    Rule {
        id: "gpu.reset_in_use",
        title: "the GPU cannot be reset while another client holds it",
        pattern: r"(?:could not be reset:?[\s\S]{0,300}?In use by another client|\bIn use by another client\b|devices? (?:is|are) currently being used by one or more other processes|GPU [0-9A-Fa-f:.]+ is currently in use by another process|Unable to reset (?:this )?GPU because it's being used by some other process)",
        priority: 72,
        causes: &[
            c("gpu.busy", 0.8, "A GPU reset (nvidia-smi -r, or the one a MIG mode change needs) waits until no client holds the GPU: nvidia-persistenced, DCGM or dcgm-exporter, the fabric manager, a display server, a monitoring nvidia-smi, a CUDA program, or the nvidia_drm kernel module.", "Find the holders (`sudo lsof /dev/nvidia*`, `sudo fuser -v /dev/nvidia*`), stop them (`sudo systemctl stop nvidia-persistenced nvidia-dcgm`, the display manager), unload nvidia_drm if it is loaded (`sudo modprobe -r nvidia_drm`, reload it after), then retry the reset or the MIG change."),
            c("gpu.lost", 0.1, "A GPU that stopped answering cannot be reset either.", FIX_XID_HW),
        ],
        hints: &[],
        tells_apart: "`sudo lsof /dev/nvidia*` lists the processes; `lsmod | grep nvidia_drm` shows the module that holds the devices without a process.",
    },
    // GPUDirect RDMA's module (nvidia-peermem, formerly Mellanox's nv_peer_mem) links to the
    // peer-memory API that only MLNX_OFED's / DOCA-OFED's ib_core exports: with the inbox ib_core,
    // or after OFED was reinstalled or upgraded without rebuilding the module, it does not load
    // (Mellanox/nv_peer_memory#79, #84; NVIDIA's GPUDirect RDMA guide: install MLNX_OFED before
    // the driver).
    Rule {
        id: "kernel.peermem_unknown_symbol",
        title: "nvidia-peermem (GPUDirect RDMA) does not load",
        pattern: r"(?:\b(?:nv_peer_mem|nvidia[_-]peermem)\b[^\n]{0,60}\bUnknown symbol\b|\bUnknown symbol ib_(?:register|unregister)_peer_memory_client\b|modprobe: ERROR: could not insert '(?:nv_peer_mem|nvidia_peermem)')",
        priority: 80,
        causes: &[
            c("driver.module_not_loaded", 0.85, "The GPUDirect RDMA module (nvidia-peermem, or the older nv_peer_mem) needs the peer-memory symbols that only MLNX_OFED's (DOCA-OFED's) ib_core exports: the running ib_core is the distribution's own, or OFED changed after the module was built, so the module cannot load and NCCL falls back to copies through host memory.", "Install MLNX_OFED / DOCA-OFED for the running kernel, then reinstall the NVIDIA driver (or rebuild nv_peer_mem) so the module is built against it, and `sudo modprobe nvidia-peermem`; `grep ib_register_peer_memory_client /proc/kallsyms` must print the symbol."),
        ],
        hints: &[],
        tells_apart: "`grep ib_register_peer_memory_client /proc/kallsyms`: empty means the loaded ib_core is not OFED's; `ofed_info -s` names the OFED installed.",
    },
    // CUDA 13 on Windows installs its DLLs under bin\x64 (CUDA 12 and earlier: bin\): a program
    // that builds the path itself from CUDA_PATH\bin finds no cudart64_13.dll although the toolkit
    // is complete (SystemPanic/flashinfer-windows#4; "Windows CUDA 13 DLL location (moved to
    // bin/x64)" in other projects' release notes).
    Rule {
        id: "windows.cuda13_dll_path",
        title: "a program looks for CUDA 13's DLLs where CUDA 12 kept them",
        pattern: r"(?:Could not (?:find|load) module|cannot load|could not load|not found|FileNotFoundError)[^\n]{0,80}\\v13\.\d+\\bin\\(?:cudart|cublas\w*|nvrtc\w*|cufft|curand|cusparse|cusolver|nvJitLink\w*)64_13\w*\.dll",
        priority: 83,
        causes: &[
            c("workload.library_bug", 0.8, "CUDA 13 on Windows keeps its DLLs in bin\\x64, not bin\\ as CUDA 12 did: the program (or its build script) composes the old path from CUDA_PATH and misses a toolkit that is installed.", "Update the program to a release that knows CUDA 13's layout; meanwhile add `%CUDA_PATH%\\bin\\x64` to PATH, or use a CUDA 12 toolkit with it."),
            c("toolkit.path_inconsistent", 0.15, "The CUDA folder on PATH is not the one installed.", "Put `%CUDA_PATH%\\bin\\x64` (CUDA 13) or `%CUDA_PATH%\\bin` (CUDA 12) on PATH."),
        ],
        hints: &[],
        tells_apart: "`dir \"%CUDA_PATH%\\bin\\x64\\cudart64_13.dll\"`: there means the toolkit is fine and the program looks in the wrong folder.",
    },
    // NGC-based images (Triton, PyTorch, TensorFlow containers and those built on them) check
    // the GPU at start-up and refuse one their binaries have no kernels for:
    // "ERROR: Detected NVIDIA Tesla K40m GPU, which is not supported by this container"
    // (fauxpilot/fauxpilot#69: compute capability 3.5 below the image's 6.0 floor).
    Rule {
        id: "container.gpu_not_supported",
        title: "the container image does not support this GPU",
        pattern: r"Detected NVIDIA [^\n]{1,60}? GPU, which is not supported by this container",
        priority: 82,
        causes: &[
            c("ext.arch_unsupported", 0.7, "The image's programs (Triton, its backends, the application built on it) were compiled without this GPU's architecture: the container's start-up check refuses the GPU.", "Use a GPU the image supports (its release notes list the compute capabilities; NGC images of recent years need 6.0 or newer, `nvidia-smi --query-gpu=name,compute_cap --format=csv`), or an older image release that still supports it."),
            c("torch.arch_unsupported", 0.2, "The framework build inside the image (PyTorch, TensorFlow) carries no kernels for this GPU.", "Use an image release whose framework build still supports this GPU's compute capability."),
        ],
        hints: &[h(r"nvcr\.io/nvidia/(?:pytorch|tensorflow)|\bpytorch\b|\btensorflow\b", "torch.arch_unsupported", 0.6)],
        tells_apart: "`nvidia-smi --query-gpu=name,compute_cap --format=csv` against the image's supported compute capabilities (its release notes).",
    },
    // nvidia-smi prints "[Unknown Error]" or "[Not Supported]" for a field NVML cannot read on
    // this board (a fan speed, a default power limit) while it reads the others: a
    // `--query-gpu` row with one such field is a working GPU, and a program that parses the
    // CSV must take those values (Quake4/MindMiner#627, tutulino/Megaminer#376). Every field
    // unreadable is another matter: the GPU stopped answering.
    Rule {
        id: "nvidia_smi.field_unreadable",
        title: "nvidia-smi could not read one field of a GPU",
        pattern: r"[^\n,]+(?:,[^\n,]*){2,},\s*\[(?:Unknown Error|Not Supported)\][^\n]*",
        priority: 20,
        causes: &[
            c("none", 0.8, "The GPU answers: nvidia-smi read the row's other fields (utilization, power, clocks); NVML cannot read this one field on this board (fan speed on a passively cooled or liquid-cooled card, a power limit the board does not report) and prints '[Unknown Error]' or '[Not Supported]' in its place. A program that parses the output must accept those values.", "Nothing to fix on the machine: query only fields the board supports (`nvidia-smi --help-query-gpu`), and make the parser treat '[Unknown Error]', '[Not Supported]' and '[N/A]' as missing values."),
            c("gpu.lost", 0.1, "Every field unreadable means the GPU stopped answering.", FIX_XID_HW),
        ],
        hints: &[h(r"\[Unknown Error\][^\n]*\[Unknown Error\][^\n]*\[Unknown Error\]|GPU is lost|fallen off the bus", "gpu.lost", 0.9)],
        tells_apart: "`nvidia-smi -q` for the GPU: most fields read means the board only lacks that sensor; '[Unknown Error]' everywhere, or 'GPU is lost', means the GPU dropped off.",
    },
    // JAX's CUDA plugin (jax-cuda12-plugin / jax-cuda12-pjrt) is a wheel of its own that must
    // be the jaxlib's version: a newer plugin refuses the framework's PJRT structs
    // (PlasmaControl/DESC#1534: plugin 0.5.0 beside jax/jaxlib 0.4.38).
    Rule {
        id: "jax.plugin_version_mismatch",
        title: "JAX's CUDA plugin is another version than jaxlib",
        pattern: r"(?:Unexpected PJRT_\w+ size: expected \d+, got \d+|The plugin is likely built with a (?:later|newer|earlier|older) version than the framework|JAX plugin \w+ version [\w.]+ is installed, but it is not compatible with the installed jaxlib version)",
        priority: 86,
        causes: &[
            c("torch.wheel_deps_mismatch", 0.85, "JAX's CUDA support is the jax-cuda12-plugin and jax-cuda12-pjrt wheels, which must be the version of jax and jaxlib: the environment holds a plugin of another release (an upgrade of one without the other, a pin that kept jaxlib).", "Install matching versions together: `pip install -U \"jax[cuda12]\"` (or pin all four: jax, jaxlib, jax-cuda12-plugin, jax-cuda12-pjrt to one version); `pip list | grep -i jax` shows them."),
        ],
        hints: &[],
        tells_apart: "`pip list | grep -i jax`: jax, jaxlib, jax-cuda12-plugin and jax-cuda12-pjrt must share one version.",
    },
    // torch.load of a checkpoint whose tensors were saved on a GPU index the loading process
    // does not have (fewer GPUs, or CUDA_VISIBLE_DEVICES renumbering them): the loading code
    // must map them (pytorch/serve#1197: the server assigned a device index the worker could
    // not see).
    Rule {
        id: "torch.deserialize_device",
        title: "a checkpoint names a GPU index this process does not have",
        pattern: r"Attempting to deserialize object on (?:a )?CUDA device \d+ but torch\.cuda\.device_count\(\) is \d+",
        priority: 84,
        causes: &[
            c("workload.library_bug", 0.75, "The checkpoint's tensors were saved on a GPU index this process cannot see (the saving machine had more GPUs, or a server gives the worker an index outside its CUDA_VISIBLE_DEVICES): the loading code does not map them.", "Load with `torch.load(path, map_location=\"cuda:0\")` (or `map_location=\"cpu\"` and move the model), or fix the program that picks the device index."),
            c("env.visible_devices_invalid", 0.2, "CUDA_VISIBLE_DEVICES leaves fewer GPUs than the program assumes.", "Give the process the GPUs it expects, or let it count `torch.cuda.device_count()`."),
        ],
        hints: &[],
        tells_apart: "`torch.cuda.device_count()` in the failing process against the device the checkpoint names.",
    },
    // torch's cpp_extension runs MSVC's cl.exe to build a CUDA extension on Windows: not found
    // (no Developer Command Prompt, Build Tools missing) or a version nvcc rejects
    // (NVIDIA/apex#521: CUDA 9.2 needed Visual Studio 2017's).
    Rule {
        id: "windows.msvc_not_usable",
        title: "the MSVC compiler cannot be used to build the extension",
        pattern: r"(?:Error checking compiler version for cl\b|'cl(?:\.exe)?' is not recognized as an internal or external command|\\cl\.exe'? failed with (?:exit status|exit code) \d+|unsupported Microsoft Visual Studio version)",
        priority: 76,
        causes: &[
            c("toolkit.host_compiler_unsupported", 0.75, "Building a CUDA extension on Windows needs MSVC's cl.exe on PATH (a Visual Studio Developer Command Prompt or Build Tools) in a version the CUDA toolkit supports: it is not found, or it is newer or older than nvcc accepts.", "Install the Visual Studio Build Tools version the toolkit's installation guide lists, build from an 'x64 Native Tools Command Prompt' (or run vcvars64.bat first), and check `cl` and `nvcc --version` there."),
            c("toolkit.torch_mismatch", 0.15, "The CUDA toolkit used for the build is not the one torch was built with.", "Build with the toolkit of torch's CUDA (`python -c \"import torch; print(torch.version.cuda)\"`)."),
        ],
        hints: &[],
        tells_apart: "`where cl` and `cl` in the shell that builds: not found means the environment; found, compare its version with the toolkit's supported list.",
    },
    // CUDA allows a device at most eight peer mappings system-wide: a process (NCCL beside a
    // CUDA-aware MPI, a framework enabling peer access to every GPU) that asks for more gets
    // cudaErrorTooManyPeers (NVIDIA/nccl#51).
    Rule {
        id: "cuda.too_many_peers",
        title: "peer mapping resources exhausted",
        pattern: r"(?:peer mapping resources exhausted|cudaErrorTooManyPeers|CUDA_ERROR_TOO_MANY_PEERS)",
        priority: 78,
        causes: &[
            c("workload.nccl", 0.75, "A GPU can map at most eight peers: the job (NCCL with a CUDA-aware MPI, a framework enabling peer access between every pair) asks for more peer mappings than CUDA allows.", "Enable peer access only between GPUs that exchange data, use fewer than nine GPUs per peer group, or let one library own peer access (disable it in the other: e.g. MPI's CUDA IPC)."),
            c("probe.p2p", 0.15, "Peer-to-peer between these GPUs is not available as the job expects.", "Check `nvidia-smi topo -m`; `NCCL_P2P_DISABLE=1` works around it at a speed cost."),
        ],
        hints: &[],
        tells_apart: "How many GPUs each process enables peer access to (`cudaDeviceEnablePeerAccess`), and `nvidia-smi topo -m`.",
    },
    // nvidia-container-cli initialising the driver for several GPUs with persistence mode off:
    // each GPU is brought up on demand, and the toolkit's timeout runs out
    // (NVIDIA/nvidia-docker#1133: fixed by enabling persistence mode).
    Rule {
        id: "container.driver_init_timeout",
        title: "the driver timed out initialising the GPUs for a container",
        pattern: r"(?:Driver timeout error during initialization|nvidia-container-cli[^\n]{0,80}(?:timed out|timeout)|driver error: timed out)",
        priority: 76,
        causes: &[
            c("driver.persistence_off", 0.7, "With persistence mode off the driver tears every GPU down when its last client exits and brings it up again for the next: on a server with several GPUs that takes longer than nvidia-container-cli waits.", "Run the persistence daemon: `sudo systemctl enable --now nvidia-persistenced` (or `sudo nvidia-smi -pm 1`), then retry."),
            c("gpu.lost", 0.2, "A GPU that stopped answering makes every initialisation time out.", FIX_XID_HW),
        ],
        hints: &[h(r"Xid|fallen off|GPU is lost", "gpu.lost", 0.7)],
        tells_apart: "`nvidia-smi -q | grep -i persistence` (Disabled) and `dmesg | grep -i xid` (a lost GPU).",
    },
    Rule {
        id: "gpu.ecc_uncorrectable",
        title: "uncorrectable ECC error",
        pattern: r"(?:uncorrectable ECC error|CUDA_ERROR_ECC_UNCORRECTABLE|cudaErrorECCUncorrectable|ECC error (?:encountered|detected)|double bit ECC)",
        priority: 88,
        causes: &[
            c("gpu.ecc_errors", 0.85, "The GPU's memory reported an uncorrectable ECC error: the pages are bad until the GPU is reset (and retired or remapped); every allocation on it can fail.", "Reset the GPU (`nvidia-smi -r -i <n>`) or reboot; check `nvidia-smi -q -d ECC,PAGE_RETIREMENT,ROW_REMAPPER`; repeated errors mean an RMA."),
            c("gpu.lost", 0.1, "The GPU is failing.", FIX_XID_HW),
        ],
        hints: &[],
        tells_apart: "`nvidia-smi -q -d ECC` volatile/aggregate uncorrectable counters.",
    },
    Rule {
        id: "nvrm.legacy_gpu",
        title: "the driver branch no longer supports this GPU",
        pattern: r"(?:supported through the NVIDIA [\dx.]+ Legacy drivers|NVIDIA driver will ignore\s+(?:NVRM:\s+)?this GPU|The NVIDIA [^\n]{0,60} GPU installed in this system is\s+(?:NVRM:\s+)?(?:not )?supported through)",
        priority: 96,
        causes: &[c("driver.gpu_unsupported", 0.95, "The installed driver branch dropped this GPU's architecture (Kepler after 470, Maxwell/Pascal/Volta after 580): the kernel module ignores the GPU, so nvidia-smi and CUDA see none.", "Install the legacy branch the message names (e.g. 470 for Kepler, 580 for Pascal) and reboot.")],
        hints: &[],
        tells_apart: "The NVRM line names the legacy branch that still supports the GPU.",
    },
    Rule {
        id: "kernel.nova_core",
        title: "another kernel driver holds the GPU",
        pattern: r"(?:is already bound to (?:NovaCore|nova_core|nouveau)|nova_core [0-9a-f]{4}:)",
        priority: 90,
        causes: &[c("driver.nouveau_loaded", 0.9, "An in-tree driver (nouveau, or its successor nova_core on new kernels) bound the GPU at boot, so nvidia.ko finds no device.", "Blacklist nouveau and nova_core (`/etc/modprobe.d/blacklist-nouveau.conf`), rebuild the initramfs and reboot.")],
        hints: &[],
        tells_apart: "`lspci -k -d 10de:` shows the driver in use.",
    },
    Rule {
        id: "env.device_order",
        title: "nvidia-smi and CUDA number the GPUs differently",
        pattern: r"(?:nvidia-smi[^\n]{0,60}(?:do not|does not|don't|doesn't) match[^\n]{0,40}(?:device|GPU) (?:numbers?|ids?|index|indices|order)|(?:GPU|device) (?:\d|number|id|index)[^\n]{0,120}nvidia-smi[^\n]{0,80}(?:happening on|instead|different|not match|n't match)|CUDA_DEVICE_ORDER)",
        priority: 40,
        causes: &[c("env.device_order", 0.8, "CUDA numbers GPUs fastest first while nvidia-smi uses PCI bus order; on a machine with different GPUs the indices disagree.", "`export CUDA_DEVICE_ORDER=PCI_BUS_ID` so CUDA uses nvidia-smi's order.")],
        hints: &[],
        tells_apart: "`nvidia-smi -L` against `python -c \"import torch; [print(i, torch.cuda.get_device_name(i)) for i in range(torch.cuda.device_count())]\"`.",
    },
    Rule {
        id: "cudnn.loaded_runtime_mismatch",
        title: "the cuDNN loaded is older than the one the framework was built with",
        // A paste cut at a fixed width breaks the words anywhere ("CuDNN l\nibrary":
        // google/automl#33), hence the `\s*` between letters.
        pattern: r"(?:Loaded\s+(?:runtime\s+)?CuDNN\s*l\s*i\s*b\s*r\s*a\s*r\s*y:?\s*[\d.]+[^\n]{0,60}\s*but\s+source\s+was\s+compiled\s+(?:with|against):?\s*[\d.]+)",
        priority: 89,
        causes: &[
            // The threads: an older system-wide cuDNN loaded in place of the one the build needs
            // (marin-community/levanter#103, bytedeco/javacpp-presets#565), or, where the paste
            // shows a conda/pip environment, that environment's cuDNN package older than the
            // build (conda-forge/jaxlib-feedstock#329: a conda pin).
            c("torch.libs_shadowed", 0.6, "Another cuDNN (the system's, or one on LD_LIBRARY_PATH) was loaded instead of the one the framework's build expects, and it is older.", FIX_LIBS_SHADOWED),
            c("torch.wheel_deps_mismatch", 0.4, "The environment's cuDNN package (conda or pip) is older than the one the framework was built with: its pins let an old one in.", "Install the cuDNN the framework was built with or newer (pip: `pip install -U nvidia-cudnn-cu12` / the framework's `[cuda]` extra; conda: `conda install \"cudnn>=<version>\"`), or a framework build for the cuDNN you have."),
            // Loaded NEWER than compiled (TensorFlow 0.x/1.x: "Loaded runtime CuDNN library: 5103 …
            // but source was compiled with 4007"): the cuDNN the user installed is the newer one,
            // so the framework imported is an older copy than the set-up, outside the active
            // virtualenv or a stale wheel (tensorflow/tensorflow#2716, #1530); raised in
            // `ranking_evidence` by comparing the two versions.
            c("torch.multiple_installs", 0.05, "The cuDNN loaded is newer than the one the framework binary was compiled with: the framework imported is an older install than the environment it runs in (a copy outside the active virtualenv, a stale wheel in the user site).", "Find which copy is imported (`python -c \"import tensorflow as tf; print(tf.__file__)\"`), activate the intended environment or uninstall the stale copy."),
        ],
        hints: &[
            h(r"LD_LIBRARY_PATH|/usr/local/cuda[^\s]*/lib|/usr/lib/x86_64-linux-gnu/libcudnn|ldconfig", "torch.libs_shadowed", 0.4),
            h(r"\bconda\b|site-packages/nvidia|nvidia-cudnn|pip install", "torch.wheel_deps_mismatch", 0.3),
        ],
        tells_apart: "`ldconfig -p | grep cudnn` and `echo $LD_LIBRARY_PATH` against the framework's bundled cuDNN.",
    },
    Rule {
        id: "jax.cuda_components",
        title: "JAX found CUDA components older than it needs",
        pattern: r"(?:Outdated (?:cuDNN|cuBLAS|cuSPARSE|cuSOLVER|cuFFT|CUDA|NCCL) installation found|Found (?:cuDNN|cuBLAS|cuSPARSE|cuSOLVER|cuFFT|CUDA|NCCL|CUPTI) version \d+, but \w+ was built against version \d+|Unable to use CUDA because of the following issues with CUDA components|jaxlib/cuda/versions_helpers\.cc:\d+: operation \w+|_check_cuda_versions)",
        priority: 88,
        causes: &[
            c("torch.wheel_deps_mismatch", 0.75, "The installed CUDA library packages (cuDNN, cuBLAS, ...) are older than the jaxlib build requires: the environment's pins let an old one in.", "Install the CUDA packages jaxlib asks for (`pip install -U \"jax[cuda12]\"`, or pin cudnn to the minimum the message names)."),
            c("torch.libs_shadowed", 0.25, "An older system copy is loaded before the pip wheels'.", FIX_LIBS_SHADOWED),
        ],
        hints: &[h(r"LD_LIBRARY_PATH|/usr/local/cuda|/usr/lib/x86_64-linux-gnu/libcudnn", "torch.libs_shadowed", 0.6)],
        tells_apart: "The message names the version built against and the one installed.",
    },
    // A framework's two halves at versions that do not go together ("jaxlib is version 0.1.69,
    // but this version of jax requires version 0.1.74": Zuricho/ParallelFold#13,
    // conda-forge/jax-feedstock#81), in the framework's own words.
    Rule {
        id: "framework.package_versions",
        title: "the framework's packages are at versions that do not go together",
        pattern: r"(?:\b[\w-]+ is version [\w.+]+, but this version of [\w-]+ requires version|jaxlib version [\d.]+ is newer than and incompatible with jax version|incompatible with (?:jax|jaxlib) version [\d.]+\. Please update your jax and/or jaxlib)",
        priority: 72,
        causes: &[
            c("torch.wheel_deps_mismatch", 0.85, "The environment holds the framework's packages (jax and jaxlib, or a framework and its compiled half) at versions that do not go together: one was upgraded without the other, or the package's pins let an old one stay.", "Install matching versions together (`pip install -U \"jax[cuda12]\"`, which pulls the matching jaxlib and CUDA plugin; conda: update both packages in one command)."),
            c("torch.multiple_installs", 0.15, "Two installs of the package (pip and conda, user site and environment) shadow each other, so the old one is imported.", "List every copy (`pip list -v | grep <pkg>`, `conda list <pkg>`) and remove all but one."),
        ],
        hints: &[],
        tells_apart: "`pip list | grep -i jax` (or `conda list jax`): the versions the message names against each other.",
    },
    Rule {
        id: "import.cuda_lib_missing",
        title: "a CUDA library cannot be found",
        pattern: r"(?:lib(?:cudart|cublas|cublasLt|cudnn\w*|cufft|curand|cusparse|cusolver|nvrtc|nvJitLink|nccl|cupti)[.,]so(?:\.[\d.]+)?: cannot open shared object file|Could not load dynamic library '?lib(?:cudart|cublas|cublasLt|cudnn|cufft|curand|cusparse|cusolver)[\w.]*'?)",
        priority: 79,
        causes: &[
            c("torch.wheel_deps_mismatch", 0.5, "The program needs a CUDA runtime library of this major version and none is installed or on the search path (the wheel that ships it is missing, or the toolkit's lib64 is not on LD_LIBRARY_PATH).", "Install the CUDA runtime the program was built for (the nvidia-*-cuXX wheels or the toolkit of that major) and put its lib64 on LD_LIBRARY_PATH."),
            c("toolkit.not_found", 0.3, "The CUDA toolkit of that version is not installed.", "Install the CUDA toolkit the program was built with."),
            c("torch.libs_shadowed", 0.2, "Another CUDA version's libraries are on the path instead.", FIX_LIBS_SHADOWED),
        ],
        hints: &[],
        tells_apart: "`ldconfig -p | grep <lib>` and `echo $LD_LIBRARY_PATH`: the version the program asks for must be there.",
    },
    Rule {
        id: "cuda.oom_status",
        title: "out of memory (a library's status code)",
        pattern: r"(?:error == cudaSuccess \(2 vs\. 0\)|\(2 vs\. 0\)\s*out of memory|cuda runtime error \(2\) : out of memory|CURAND_STATUS_ALLOCATION_FAILED|curand\w* error 102|CUDNN_STATUS_ALLOC_FAILED)",
        priority: 75,
        causes: &[
            c("workload.out_of_memory", 0.8, "The GPU's memory is exhausted: the job (batch size, model, images) needs more than is free.", FIX_OOM),
            c("gpu.busy", 0.2, "Other processes hold the memory.", FIX_BUSY),
        ],
        hints: &[],
        tells_apart: "`nvidia-smi` while the job runs; a smaller batch makes it go away.",
    },
    Rule {
        id: "cublas.create_handle",
        title: "cuBLAS could not create its handle",
        pattern: r"(?:Create cublas handle failed|cublasCreate(?:_v2)?[^\n]{0,40}(?:failed|CUBLAS_STATUS_NOT_INITIALIZED)|CUBLAS_STATUS_SUCCESS \(1 vs\. 0\))",
        priority: 74,
        causes: &[
            c("workload.cublas_alloc", 0.7, "cuBLAS allocates its workspace when the handle is created: with the GPU's memory already full this fails as 'not initialized' (an out-of-memory in disguise).", FIX_OOM),
            c("gpu.busy", 0.15, "Other processes hold the memory.", FIX_BUSY),
            c("torch.libs_shadowed", 0.15, "A mismatched libcublas is loaded.", FIX_LIBS_SHADOWED),
        ],
        hints: &[],
        tells_apart: "Memory use when it fails (`nvidia-smi`); a smaller model or batch makes it go away.",
    },
    Rule {
        id: "flash_attn.arch",
        title: "FlashAttention needs a newer GPU",
        pattern: r"(?:FlashAttention only supports Ampere GPUs or newer|FlashAttention (?:backward )?(?:for head dim \d+ )?(?:only )?supports? (?:Ampere|sm8x|sm80)|flash[_-]attn[^\n]{0,80}requires? (?:compute capability|sm_?8)|Feature '[^']+' requires \.target sm_\d+ or higher)",
        priority: 93,
        causes: &[c("ext.arch_unsupported", 0.9, "FlashAttention-2's kernels need compute capability 8.0+ (Ampere, Ada, Hopper); a Turing/Volta/Pascal GPU (T4, V100, RTX 20xx) cannot run them.", "Run without flash-attn on this GPU (`attn_implementation=\"sdpa\"` / `--disable-flash-attn`, xformers or FlashAttention 1), or use an sm_80+ GPU.")],
        hints: &[],
        tells_apart: "`nvidia-smi --query-gpu=name,compute_cap --format=csv`: below 8.0 FlashAttention-2 cannot run.",
    },
    Rule {
        id: "tf.no_gpu_build",
        title: "the framework build has no CUDA",
        pattern: r"(?:is_built?_with_cuda\(\)[^\n]{0,40}(?:false|False)|list_physical_devices\(['\x22]GPU['\x22]\)[\s\S]{0,80}?(?:\[\s*\]|empty list)|tensorflow-cpu|TensorFlow was not built with CUDA(?: support|[.:]|$)|Could not find\s+registered\s+platform\s+with\s+name:\s*\\?\x22(?:cuda|gpu|CUDA)\\?\x22)",
        priority: 45,
        causes: &[
            c("torch.cpu_only", 0.8, "The installed framework build has no CUDA support (a CPU build; TensorFlow 2.11+ on native Windows has no GPU build), so it never sees the GPU although other frameworks do.", "Install a CUDA build (TensorFlow on Windows: run it in WSL2 with `pip install tensorflow[and-cuda]`)."),
            c("workload.library_bug", 0.1, "A CUDA build that does not find the CUDA libraries its own pip extras installed (TensorFlow 2.16.1 with `[and-cuda]`, tensorflow/tensorflow#63362): the release's bug, fixed later; pointing LD_LIBRARY_PATH at the nvidia/* package folders works around it.", "Upgrade to the next release, or export LD_LIBRARY_PATH to the `site-packages/nvidia/*/lib` folders of the environment; the machine needs nothing."),
        ],
        // A CUDA build installed ([and-cuda]) that finds no GPU while an older release of it, or
        // another framework, uses the GPU on the same machine: that release's own bug.
        hints: &[
            h(r"\[and-cuda\]", "workload.library_bug", 0.5),
            h(r"(?i)(?:no problems?|works? (?:fine|well)?|worked)[^\n]{0,30}\b(?:tf|tensorflow)\s*v?2\.\d+|\b(?:tf|tensorflow)\s*v?2\.\d+(?:\.\d+)?[^\n]{0,30}\b(?:works? (?:fine|well)|worked|no problems?)", "workload.library_bug", 0.5),
        ],
        tells_apart: "`tf.test.is_built_with_cuda()` / `torch.version.cuda`: None or False means a CPU build.",
    },
    Rule {
        id: "cuda.stub_library",
        title: "the CUDA driver stub was loaded",
        pattern: r"(?:CUDA_ERROR_STUB_LIBRARY|cudaErrorStubLibrary|Unable to determine CUDA driver version|stub library instead of the real driver)",
        priority: 80,
        causes: &[
            c("driver.stub_library", 0.6, "The toolkit's stub libcuda.so (in .../lib64/stubs, for linking only) is found before the driver's libcuda.so.1, so every driver call fails.", "Remove the stubs directory from LD_LIBRARY_PATH / ld.so.conf so the driver's libcuda.so.1 is loaded."),
            c("driver.not_installed", 0.3, "No driver is installed, so only the stub exists.", FIX_DRIVER_INSTALL),
        ],
        hints: &[],
        tells_apart: "`ldconfig -p | grep libcuda` and LD_LIBRARY_PATH: a path ending in /stubs is the culprit.",
    },
    Rule {
        id: "ptx.jit_version",
        title: "the driver's PTX JIT is older than the PTX",
        pattern: r"(?:Unsupported \.version \d+\.\d+; current version is '?\d+\.\d+'?)",
        priority: 83,
        causes: &[
            c("driver.too_old_for_toolkit", 0.6, "The PTX was produced by a newer CUDA than the driver's JIT (or the ptxas in use) understands: the driver must be at least as new as the toolkit that made it.", "Upgrade the driver to one that supports the toolkit's CUDA (nvidia-smi's 'CUDA Version' must be at least it), or build with an older toolkit."),
            c("toolkit.arch_unsupported", 0.25, "A ptxas older than the toolkit that generated the PTX (e.g. Triton's or XLA's bundled ptxas) compiles it.", "Use a ptxas from the same or a newer CUDA (set TRITON_PTXAS_PATH / XLA's cuda_data_dir to the toolkit's)."),
            c("driver.too_old_for_torch", 0.15, "The PTX comes with the PyTorch build.", FIX_DRIVER_UPGRADE),
            c("workload.library_bug", 0.1, "The compiler that generated the PTX (Triton, XLA) picked a PTX ISA version its own ptxas does not know: a version-mapping bug fixed in a later release of it.", FIX_LIBRARY_BUG),
        ],
        hints: &[
            h(VERSION_CONTRAST, "workload.library_bug", 0.3),
            h(r"ptxas fatal|ptxas\b[^\n]{0,40}(?:error|fatal)|xla|triton|jax", "toolkit.arch_unsupported", 0.4),
            h(r"cuLink|CU_JIT|cuModuleLoad", "driver.too_old_for_toolkit", 0.3),
            // the driver's own JIT names its input "application ptx input" (a ptxas binary names
            // the file): numba's and the runtime's JIT (open-mmlab/OpenPCDet#934, driver 460)
            h(r"ptxas application ptx input", "driver.too_old_for_toolkit", 0.5),
        ],
        tells_apart: "Who compiles the PTX: the driver (cuLink / cuModuleLoad → the driver is too old) or a ptxas binary (→ that ptxas is too old).",
    },
    Rule {
        id: "ext.built_for_other_torch",
        title: "an extension was built for another PyTorch",
        pattern: r"(?:xFormers can't load C\+\+/CUDA extensions\. xFormers was built for|xFormers wasn't buil[dt] with CUDA support|PyTorch version mismatch! DeepSpeed ops were compiled|(?:No such operator|operator) torchvision::\w+(?: does not exist)?|Detected that PyTorch and torchvision were compiled with different CUDA (?:major )?versions|was compiled against (?:a different|another) (?:version of )?(?:PyTorch|torch))",
        priority: 87,
        causes: &[
            c("ext.abi_mismatch", 0.85, "The extension (xformers, DeepSpeed's ops, torchvision) was built for another PyTorch (or CUDA) than the one installed, usually after torch was upgraded on its own: its compiled ops do not load.", "Install the extension's build for the installed torch (`pip install -U xformers --index-url https://download.pytorch.org/whl/<cuXXX>`; torchvision of the matching release), or install the torch it was built for."),
            c("torch.wheel_deps_mismatch", 0.15, "The packages were installed from different indexes (CPU and CUDA builds mixed).", FIX_WHEEL_DEPS),
            c("toolkit.torch_mismatch", 0.0, "The extension was compiled here (setup.py, pip from source) by the system's nvcc, whose CUDA differs from the one torch was built with: torch's own build warned of it.", "Build with the CUDA toolkit of torch's CUDA version (`export CUDA_HOME=/usr/local/cuda-<torch.version.cuda>`), or install the extension's prebuilt wheel for the installed torch (`pip install torchvision==<matching> --index-url https://download.pytorch.org/whl/<cuXXX>`)."),
        ],
        // torch's cpp_extension said the nvcc used differs from torch's CUDA: the local build
        // used the system toolkit (mathmanu/edgeai-torchvision#18: CUDA 11.7 vs cu113)
        hints: &[h(r"The detected CUDA version \(\d+\.\d+\) (?:has a minor version mismatch with|mismatches) the version that was used to compile PyTorch", "toolkit.torch_mismatch", 1.0)],
        tells_apart: "The message names the version it was built for and the one installed.",
    },
    Rule {
        id: "toolkit.cuda_home_missing",
        title: "no CUDA toolkit for building CUDA ops",
        pattern: r"(?:CUDA_HOME does not exist, unable to compile CUDA op|MissingCUDAException|CUDA_HOME environment variable is not set|No CUDA runtime is found, using CUDA_HOME|nvcc: (?:command )?not found|Could not find nvcc|\bnvcc (?:was|is) not found|nvcc (?:was )?not found in (?:your )?PATH)",
        priority: 76,
        causes: &[
            c("toolkit.not_found", 0.85, "Building CUDA ops (DeepSpeed, apex, flash-attn from source) needs the CUDA toolkit's nvcc; none is installed or CUDA_HOME does not point at it.", "Install the CUDA toolkit of torch's CUDA version (`conda install -c nvidia cuda-toolkit=<ver>` or NVIDIA's packages) and `export CUDA_HOME=/usr/local/cuda-<ver>`; or install a prebuilt wheel."),
            c("torch.cpu_only", 0.15, "A CPU-only torch makes cpp_extension look for no CUDA at all.", "Install a CUDA build of torch."),
        ],
        hints: &[h(r"torch\.version\.cuda\s*[:=]?\s*None|\+cpu\b", "torch.cpu_only", 0.5)],
        tells_apart: "`which nvcc`, `echo $CUDA_HOME`, `python -c \"import torch; print(torch.version.cuda)\"`.",
    },
    Rule {
        id: "torch.cpu_build_installed",
        title: "a CPU-only PyTorch was installed",
        pattern: r"(?:pytorch-\d[\d.]*-py[\d.]+_cpu_\d|pytorch-mutex-[\d.]+-cpu|\bcpuonly\b|torch (?:cpu version|to no cuda)|cpu version of (?:py)?torch|(?:py)?torch[^\n]{0,30}(?:cpu version|CPU-only|cpu only) (?:installed|was installed|got installed)|turned to the cpu version|Torch not (?:being |been )?compiled with CUDA enabled)",
        priority: 50,
        causes: &[c("torch.cpu_only", 0.85, "The installer resolved a CPU-only PyTorch (no index URL for a CUDA build, a cpuonly/mutex package in conda, or an updater replacing it), so CUDA is never used.", "Install a CUDA build: `pip install --force-reinstall torch --index-url https://download.pytorch.org/whl/cu124` (conda: `pytorch-cuda=<ver> -c pytorch -c nvidia`, without cpuonly).")],
        hints: &[],
        tells_apart: "`python -c \"import torch; print(torch.__version__, torch.version.cuda)\"`: '+cpu' / None is a CPU build.",
    },
    Rule {
        id: "xformers.arch",
        title: "xformers' kernels need a newer GPU",
        pattern: r"(?:requires (?:a )?GPU with compute capability [>=]+ ?\d\.\d|Flash does not support V100|flashinfer[^\n]{0,80}(?:sm_?7[05]|compute capability)|(?:if you have|on) sm_75 or lower|is not supported because:\s*\n\s*requires device with capability)",
        priority: 88,
        causes: &[c("ext.arch_unsupported", 0.85, "The extension's kernels (FlashAttention in xformers, flashinfer, ...) need a newer compute capability than this GPU's.", "Use another attention backend on this GPU (xformers' cutlass op, `--disable-flashinfer`, SDPA), or a GPU of the required compute capability.")],
        hints: &[],
        tells_apart: "`nvidia-smi --query-gpu=name,compute_cap --format=csv` against the capability the message requires.",
    },
    Rule {
        id: "xla.ptxas_newer_than_driver",
        title: "XLA's ptxas is newer than the driver",
        pattern: r"(?:The NVIDIA driver's CUDA version is [\d.]+ which is older than the (?:ptxas|PTX compiler)(?: CUDA)? version)",
        priority: 60,
        causes: &[c("driver.minor_version_compat", 0.8, "The driver's CUDA (nvidia-smi's 'CUDA Version') is older than the ptxas from the CUDA wheels jaxlib uses: it runs through minor-version compatibility, and XLA only disables parallel compilation. A warning, not a failure.", "Nothing is broken; to silence it, upgrade the driver to one supporting the ptxas' CUDA, or pin nvidia-cuda-nvcc to the driver's CUDA minor.")],
        hints: &[],
        tells_apart: "nvidia-smi's CUDA Version against `ptxas --version`.",
    },
    Rule {
        id: "comfyui.cuda_malloc",
        title: "cudaMallocAsync does not work on this GPU or driver",
        pattern: r"(?:--disable-cuda-malloc|cudaMallocAsync[^\n]{0,80}(?:not supported|error|fail)|(?:backend|allocator)[^\n]{0,40}cudaMallocAsync[^\n]{0,40}(?:not supported|requires))",
        priority: 35,
        causes: &[c("workload.library_bug", 0.7, "The program's default allocator backend (cudaMallocAsync) fails on this older GPU or driver; the machine itself is fine.", "Start it with the allocator disabled (ComfyUI: `--disable-cuda-malloc`; PyTorch: unset `PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync`).")],
        hints: &[],
        tells_apart: "It works with `--disable-cuda-malloc`.",
    },
    Rule {
        id: "kernel.module_signature",
        title: "the kernel refused the NVIDIA module (Secure Boot)",
        pattern: r"(?:could not insert 'nvidia(?:_\w+)?': (?:Key was rejected by service|Required key not available|Operation not permitted)|module verification failed: signature and/or required key missing|Loading of unsigned module is rejected|Lockdown: [^\n]{0,40}unsigned module loading is restricted)",
        priority: 91,
        causes: &[c("driver.module_not_loaded", 0.9, "Secure Boot is on and the NVIDIA module (built by DKMS or the .run installer) is not signed with an enrolled key, so the kernel refuses to load it.", "Enrol the DKMS signing key (`sudo mokutil --import /var/lib/dkms/mok.pub`, reboot, confirm in MokManager) or install the distribution's signed driver packages; or turn Secure Boot off.")],
        hints: &[],
        tells_apart: "`mokutil --sb-state` and `dmesg | grep -i -E 'nvidia|lockdown'`.",
    },
    Rule {
        id: "kernel.module_build",
        title: "the NVIDIA kernel module did not build or load for this kernel",
        pattern: r"(?:Bad return status for module build on kernel|Unable to load the kernel module '?nvidia(?:-drm|-modeset|-uvm)?\.ko'?|Kernel module load error|nvidia[^\n]{0,40}DKMS[^\n]{0,40}(?:failed|error)|Building module(?:\(s\))?[^\n]{0,40}failed|ERROR: An error occurred while performing the step: \x22Building kernel modules\x22)",
        priority: 84,
        causes: &[
            c("driver.module_not_loaded", 0.85, "The kernel module is not built for the running kernel (DKMS failed after a kernel upgrade, headers missing, a compiler or kernel too new for the driver), so nothing can load it.", FIX_MODULE),
            c("driver.nouveau_loaded", 0.1, "nouveau holds the GPU ('No such device').", "Blacklist nouveau and reboot."),
        ],
        hints: &[h(r"No such device|nouveau|NovaCore", "driver.nouveau_loaded", 0.5)],
        tells_apart: "`dkms status`, `/var/lib/dkms/nvidia/*/build/make.log`, and whether the kernel headers for `uname -r` are installed.",
    },
    Rule {
        id: "kernel.uvm_probe",
        title: "nvidia_uvm did not load",
        pattern: r"(?:probe of nvidia_uvm failed|nvidia_uvm: [^\n]{0,60}(?:failed|error)|could not insert 'nvidia_uvm'|/dev/nvidia-uvm[^\n]{0,40}(?:No such file|not found|missing))",
        priority: 83,
        causes: &[
            c("driver.device_nodes", 0.0, "A /dev/nvidia* node the container was created with does not exist on the host now (nvidia_uvm, which creates /dev/nvidia-uvm*, is loaded only when something first uses CUDA after a reboot).", "On the host create the nodes before starting the container: `nvidia-smi` (or `sudo nvidia-modprobe -u -c=0`), or enable nvidia-persistenced at boot; then start it again."),
            c("driver.uvm_unavailable", 0.85, "The nvidia_uvm module (CUDA's unified memory) is not loaded or lost its state (often after suspend/resume), so CUDA cannot initialise although nvidia-smi works.", FIX_UVM),
            // No /dev/nvidia* at all after a reboot: the main module is gone too (a kernel
            // update without a rebuilt module: cloudypad on EC2).
            c("driver.module_not_loaded", 0.05, "Not only nvidia_uvm: after a reboot (often into a kernel updated unattended) no NVIDIA module loads, so no /dev/nvidia* node exists.", FIX_MODULE),
        ],
        hints: &[
            h(AFTER_RESTART, "driver.module_not_loaded", 0.9),
            // A container created with the node that the runtime cannot find when it starts
            // again (nvidia_uvm not loaded yet after a reboot: no /dev/nvidia-uvm-tools until
            // something loads it): the device nodes, which `nvidia-smi` or `nvidia-modprobe -u
            // -c=0` on the host create (NVIDIA/nvidia-docker#288).
            h(r"(?i)adding custom device|error gathering device information|runtime spec devices", "driver.device_nodes", 1.2),
            // ... unless no NVIDIA node is there at all: the module itself is gone
            h(r"(?i)(?:drivers?|modules?) (?:are|is|were|was|got) (?:gone|missing)|no nvidia[^\n]{0,40}(?:\bin\b|under|at all)|/dev[^\n]{0,40}no nvidia", "driver.module_not_loaded", 0.5),
        ],
        tells_apart: "`lsmod | grep nvidia_uvm` and `ls -l /dev/nvidia-uvm`.",
    },
    Rule {
        id: "tf.cudnn_init",
        title: "TensorFlow: cuDNN failed to initialise",
        pattern: r"(?:Failed to get convolution algorithm\. This is probably because cuDNN failed to initialize|DNN library is not found|Could not create cudnn handle)",
        priority: 72,
        causes: &[
            c("workload.out_of_memory", 0.55, "TensorFlow grabs the GPU's memory up front; cuDNN then has none left for its handle (or another process holds it).", "Enable memory growth (`tf.config.experimental.set_memory_growth(gpu, True)` / `TF_FORCE_GPU_ALLOW_GROWTH=true`) and stop other GPU processes."),
            c("torch.libs_shadowed", 0.3, "The cuDNN found is not the version TensorFlow was built for.", FIX_LIBS_SHADOWED),
            c("gpu.busy", 0.15, "Another process holds the memory.", FIX_BUSY),
        ],
        hints: &[h(r"Loaded runtime CuDNN library|DNN library is not found", "torch.libs_shadowed", 0.4)],
        tells_apart: "`nvidia-smi` (memory in use) and the cuDNN version TensorFlow logs at start-up.",
    },
    // XLA's (and TensorFlow's) own words for a ptxas too old for the PTX or the GPU it compiles
    // for (jax-ml/jax#6799 "You are using ptxas 8.x, but TF requires ptxas 9.x", #10083 "ptxas
    // 9.2.148, which is older than 11.1", #16546 "ptxas does not support CC 8.9").
    Rule {
        id: "xla.ptxas_too_old",
        title: "the ptxas XLA uses is too old",
        pattern: r"(?:You are using ptxas [\d.x]+,? (?:which is older than|but \w+ requires ptxas)|ptxas (?:ptxas )?too old|ptxas does not support CC \d+\.\d+|Couldn't get ptxas version)",
        priority: 82,
        causes: &[
            c("toolkit.arch_unsupported", 0.7, "XLA compiles its kernels with the ptxas it finds (on PATH, or from the nvidia-cuda-nvcc wheel); this one is older than the PTX it gets or than the GPU's architecture.", "Put a ptxas at least as new as the framework's CUDA first: `pip install -U \"jax[cuda12]\"` (it ships one) and take old toolkits' bin folders off PATH, or install a newer CUDA toolkit."),
            c("toolkit.multiple", 0.3, "An old CUDA toolkit's bin folder on PATH shadows the newer ptxas the framework ships.", "`which -a ptxas`: remove the old toolkit's bin folder from PATH (or uninstall it)."),
        ],
        hints: &[h(r"which -a ptxas|which ptxas|/usr/local/cuda-\d+(?:\.\d+)?/bin|\bPATH\b", "toolkit.multiple", 0.5)],
        tells_apart: "`which -a ptxas` and `ptxas --version` against the framework's CUDA.",
    },
    // apex's and other setup scripts' check of the local toolkit against torch's CUDA
    // (NVIDIA/apex#955, #1748).
    Rule {
        id: "ext_build.cuda_mismatch",
        title: "an extension build refuses a toolkit of another CUDA than torch's",
        pattern: r"(?:Cuda extensions are being compiled with a version of Cuda that does not match the version used to compile Pytorch binaries|compiled with a version of CUDA that does not match the version used to compile (?:Py[Tt]orch|torch))",
        priority: 86,
        causes: &[
            c("toolkit.torch_mismatch", 0.85, "The CUDA toolkit the build found (nvcc on PATH / CUDA_HOME) is another version than the one the installed torch was built with, and the extension's setup refuses any difference.", "Install the toolkit of torch's CUDA (`python -c \"import torch; print(torch.version.cuda)\"`) and point CUDA_HOME/PATH at it, or install the torch build for the toolkit you have."),
            c("toolkit.multiple", 0.15, "Several toolkits are installed and the build picked another one than meant.", "Point CUDA_HOME and PATH at the toolkit of torch's CUDA."),
        ],
        hints: &[],
        tells_apart: "`nvcc --version` (the toolkit the build uses) against `torch.version.cuda`.",
    },
    // ------------------------------------------------------- frameworks' CUDA libraries
    // JAX, TensorFlow, CTranslate2 and friends dlopen the CUDA libraries of the major they were
    // built for and say so in their own words; the library is missing (not installed, or its
    // wheel's folder not on the loader path) far more often than shadowed, unless the loader's
    // search shows another copy first. Wordings: jax-ml/jax#30050 ("Unable to load cuSPARSE"),
    // magenta/mt3#145 ("Unable to load CUDA"), JdeRobot/BehaviorMetrics#385 ("Cannot dlopen some
    // GPU libraries"), paninski-lab/lightning-pose#460 ("Cannot load symbol cudnnGetVersion"),
    // stat-ml/TTDE#4 ("DNN library initialization failed"), tensorflow/tensorflow#57103 (Windows
    // DLL names; Windows' "Error loading …\\torch\\lib\\cudnn_cnn_infer64_8.dll or one of its
    // dependencies": vladmandic/sdnext#2332, Softcatala/whisper-ctranslate2#41).
    Rule {
        id: "framework.cuda_libs_unloadable",
        title: "a framework could not load the CUDA libraries it was built for",
        pattern: r"(?:Unable to load (?:CUDA|cuDNN|cuBLAS(?:Lt)?|cuSPARSE|cuSOLVER|cuFFT|cuRAND|CUPTI|NCCL|nvJitLink)\b|The (?:cuDNN|cuBLAS|cuSPARSE|cuSOLVER|cuFFT|CUPTI|NCCL) library was not found|Cannot dlopen some GPU libraries|(?:Cannot|Could not|Unable to) load symbol (?:cudnn|cublas|cufft|curand|cusparse|cusolver|nccl|nvrtc|cuda)\w*|DNN library initialization failed|Could not load dynamic library '?(?:cudart|cublas|cublasLt|cufft|curand|cusparse|cusolver|nvrtc|nvJitLink|cudnn(?:_\w+)?)64_\d+\.dll|Could not load library (?:cudart|cublas|cublasLt|cufft|curand|cusparse|cusolver|nvrtc|cudnn(?:_\w+)?)64_\d+\.dll|Error loading\s+\S*[\\/](?:cudnn|cublas|cudart|cufft|curand|cusparse|cusolver|nvrtc|caffe2_nvrtc|torch_cuda|c10_cuda)\w*\.dll)",
        priority: 78,
        causes: &[
            c("torch.wheel_deps_mismatch", 0.6, "The framework's build needs the CUDA libraries (cuDNN, cuBLAS, cuSPARSE, the runtime) of one CUDA major, and they are not installed, or the pip wheels that ship them are not on the loader path, or they are older than the build needs.", "Install the CUDA libraries the build names (the framework's CUDA extra, e.g. `pip install -U \"jax[cuda12]\"` or `pip install tensorflow[and-cuda]`, or the toolkit and cuDNN of that major) and make sure their lib folders are found."),
            c("torch.libs_shadowed", 0.25, "Another copy of the library (an HPC SDK, /usr/local/cuda, conda) on LD_LIBRARY_PATH is found first and is older than the one the build needs.", FIX_LIBS_SHADOWED),
            c("toolkit.not_found", 0.15, "The build expects a locally installed CUDA toolkit (a `*_local` variant) and none is installed.", "Install the CUDA toolkit and cuDNN of the major the build names, or switch to the variant that ships them as pip wheels."),
            c("workload.library_bug", 0.05, "A pre-release (nightly) build shipped without one of its libraries: a packaging bug of that build (pytorch/pytorch#46312).", "Install a release build, or a newer nightly where the packaging is fixed."),
        ],
        hints: &[
            h(r"search path=|LD_LIBRARY_PATH\s*=|echo \$LD_LIBRARY_PATH|trying file=|/opt/nvidia/hpc_sdk|\(LD_LIBRARY_PATH\)", "torch.libs_shadowed", 0.5),
            h(r"nightly|\.dev\d{6,}|\+git[0-9a-f]{6,}|pre-?release", "workload.library_bug", 0.6),
            h(r"_local\b|cuda\d+_local", "toolkit.not_found", 0.3),
        ],
        tells_apart: "`LD_DEBUG=libs python -c 'import <framework>'` shows which copy of each library is found (or none); `pip list | grep nvidia-` lists the CUDA wheels.",
    },
    // ----------------------------------------------------------------- driver states
    // After a suspend/resume the driver's UVM state is lost and CUDA stops initialising while
    // nvidia-smi still works (ollama/ollama#2934, #5464; NVIDIA's power-management README).
    Rule {
        id: "kernel.suspend_resume",
        title: "CUDA stopped working after suspend/resume",
        pattern: r"(?:(?:CUDA|GPU|nvidia|cudart)[^\n]{0,100}\b(?:after|since|following|post)\b[^\n]{0,40}\b(?:suspend|resum\w*|sleep|hibernat\w*|wak(?:e|ing) (?:up|from))|\b(?:after|since|following)\b[^\n]{0,40}\b(?:suspend|resum\w*|sleep(?: mode)?|hibernat\w*)\b[^\n]{0,100}(?:CUDA|GPU|nvidia))",
        priority: 45,
        causes: &[
            c("driver.uvm_unavailable", 0.85, "A suspend/resume cycle leaves nvidia_uvm (CUDA's unified memory module) in a broken state: cuInit fails (often 'unknown error' 999) until it is reloaded, although nvidia-smi works.", FIX_UVM),
            c("driver.module_not_loaded", 0.15, "The NVIDIA modules did not come back after resume.", FIX_MODULE),
        ],
        hints: &[],
        tells_apart: "`lsmod | grep nvidia_uvm`; does `sudo rmmod nvidia_uvm && sudo modprobe nvidia_uvm` bring CUDA back? For good: `options nvidia NVreg_PreserveVideoMemoryAllocations=1` and the nvidia-suspend/resume services.",
    },
    // A kernel update without a module rebuilt for it (junxnone/tio#206, the cloud installers'
    // "driver stops working after a kernel upgrade").
    Rule {
        id: "kernel.update_without_module",
        title: "the NVIDIA module stopped loading after a kernel update",
        pattern: r"(?:\b(?:after|since)\b[^\n]{0,40}\bkernel (?:update|upgrade)|kernel (?:was |got )?(?:auto(?:matically)?[ -])?(?:updated|upgraded)[^\n]{0,80}(?:nvidia|driver|GPU)|\bdkms\b[^\n]{0,40}(?:not built|not installed|missing))",
        priority: 44,
        causes: &[
            c("driver.module_not_loaded", 0.9, "The kernel was updated and the NVIDIA module was not rebuilt for it (no DKMS, missing headers, or a DKMS build failure), so the new kernel has no nvidia module to load.", FIX_MODULE),
            c("driver.library_mismatch", 0.1, "The driver packages were upgraded along with the kernel and the old module is still loaded.", "Reboot."),
        ],
        hints: &[],
        tells_apart: "`dkms status` and `ls /lib/modules/$(uname -r)/updates/dkms/`: no nvidia module for the running kernel.",
    },
    // -------------------------------------------------------------- architecture floors
    // A GPU below the compute capability a build still carries, in the words people use
    // (pytorch/pytorch#30532 "no longer supporting Tesla K40m", Anjok07/ultimatevocalremovergui#45
    // "CUDA 3.5 is not supported"). The exact PyTorch warning has its own rule.
    Rule {
        id: "arch.old_gpu_dropped",
        title: "the build no longer supports this (old) GPU",
        pattern: r"(?:\b(?:no longer|not|stopped|dropped|removed)\s+support(?:s|ing|ed)?\b(?:\s+for)?[^\n]{0,40}\b(?:Tesla K\d+m?|K[248]0m?\b|Kepler|Maxwell|Fermi|Quadro K\d+|GeForce GT[X]? ?[4-7]\d0M?\b|GT[X]? ?[4-7]\d0M?\b|sm_?[2-5]\d\b|compute capability [1-5]\.\d)|(?:cuda capability|compute capability|CUDA|sm_?)\s*[1-5]\.\d\b[^\n]{0,30}\b(?:is |are )?(?:not|no longer) supported)",
        priority: 60,
        causes: &[
            c("torch.arch_unsupported", 0.7, "The framework's binaries no longer carry kernels for this GPU's old compute capability (PyTorch dropped sm_35/sm_37 Kepler in 1.3/1.13, Maxwell/Pascal later), so it cannot run on it.", FIX_TORCH_ARCH),
            c("ext.arch_unsupported", 0.15, "An extension's binaries leave this architecture out.", FIX_EXT_ARCH),
            c("driver.gpu_unsupported", 0.15, "The driver branch itself dropped the GPU (Kepler after 470).", "Install the legacy driver branch that still supports the GPU (470 for Kepler)."),
        ],
        hints: &[
            h(EXTENSIONS, "ext.arch_unsupported", 0.35),
            h(r"\bdriver\b|NVRM|legacy", "driver.gpu_unsupported", 0.3),
        ],
        tells_apart: "`nvidia-smi --query-gpu=name,compute_cap --format=csv` against `python -c \"import torch; print(torch.cuda.get_arch_list())\"`.",
    },
    // A library's kernels that need a minimum compute capability, in its own words
    // (bitsandbytes-foundation/bitsandbytes#118 "Your GPU does not support Int8 Matmul!", #529
    // "Compute capability < 7.5 detected!"; "only supports Ampere GPUs or newer" style floors).
    Rule {
        id: "arch.library_floor",
        title: "a GPU library needs a newer GPU than this one",
        pattern: r"(?:Your GPU does not support [\w -]{2,40}|(?:CUDA )?GPU is too old[^\n]{0,80}[Cc]ompute [Cc]apability|(?:Cannot|can't|unable to) use [\w -]{2,40} (?:backend )?(?:for|on) (?:Volta|Turing|Pascal|Maxwell|Kepler)(?: (?:and|or|/) (?:Volta|Turing|Pascal|Maxwell|Kepler))? GPUs|Compute capability < ?\d\.\d detected|(?:only|not) (?:supported|available) (?:on|for) (?:GPUs?|devices?|cards?) with (?:a )?compute capability|requires? (?:a |an )?(?:NVIDIA )?(?:GPU|device|card)s? (?:with|of) (?:a )?(?:compute capability|cc|sm_?) ?(?:>=|of at least|at least|\d)|only supports? (?:Ampere|Turing|Volta|Hopper|Ada|Blackwell|sm_?\d+)(?: GPUs?| architecture| cards?)? (?:or|and) (?:newer|above|later|higher)|compute capability (?:of )?\d\.\d (?:is )?(?:too old|too low|below the minimum)|\blowest (?:supported|capability)\b[\s\S]{0,300}?\bcapability (?:of |is )?[1-9]\.\d\b|\bcapability (?:of |is )?[1-9]\.\d\b[\s\S]{0,300}?\blowest (?:supported|capability)\b)",
        priority: 87,
        causes: &[
            c("none", 0.0, "The program asked for a type or feature this GPU lacks (bfloat16 below compute capability 8.0) and runs with one it has (float16): a setting, not a fault of the machine.", "Run the program with a type the GPU supports (`--dtype half`, `dtype=torch.float16`)."),
            c("ext.arch_unsupported", 0.75, "The library's kernels (int8 matmul, FlashAttention, FP8, a fused op) use instructions of a newer GPU generation than this one; no build of it can run them here.", "Turn the feature off for this GPU (a slower fallback, another attention/quantisation backend, fp16 instead of bf16/fp8), or run on a GPU of the compute capability the message names (`nvidia-smi --query-gpu=name,compute_cap --format=csv`)."),
            c("torch.arch_unsupported", 0.15, "The framework build itself has no kernels for this GPU.", FIX_TORCH_ARCH),
            c("driver.gpu_unsupported", 0.1, "The GPU is too old for current software altogether.", "Use a newer GPU, or older releases that still support it."),
            c("torch.cpu_only", 0.01, "The GPU meets the capability the message asks for: the build in use has no CUDA kernels at all (a source build without the CUDA binaries, a CPU package), and says so in the words of a too-old GPU.", "Use a build with CUDA (the official release, or rebuild with the CUDA toolkit found by cmake: CUDA_TOOLKIT_ROOT_DIR, WITH_CYCLES_CUDA_BINARIES=ON for Blender)."),
        ],
        hints: &[
            h(EXTENSIONS, "ext.arch_unsupported", 0.1),
            // the reporter switched the program to a type this GPU has (bfloat16 → float16)
            // and it ran: a setting of the program, not the machine (canopyai/Orpheus-TTS#44)
            h(r"(?i)\b(?:fixed|solved|works?|worked|working) (?:it )?(?:now )?(?:with|by|after|using)[\s\S]{0,60}?(?:dtype\s*=|--dtype|float16|fp16|\bhalf\b)", "none", 1.2),
        ],
        tells_apart: "`nvidia-smi --query-gpu=name,compute_cap --format=csv` against the capability the message asks for.",
    },
    // ------------------------------------------------------- serialized engines / plans
    // A prebuilt artifact (a TensorRT engine/plan, a serialized kernel cache) is tied to the
    // GPU architecture and the library version that built it (NVIDIA/TensorRT#564, #2195).
    Rule {
        id: "engine.built_elsewhere",
        title: "a serialized engine was built for another GPU or library version",
        pattern: r"(?:(?:plan file|engine|plan) is generated on an incompatible device|expecting compute \d+\.\d+ got compute \d+\.\d+|Version tag does not match|Serialized Engine Version: \d+|Mismatch between allocated memory size and expected size of serialized engine|(?:engine|plan)[^\n]{0,40}(?:built|serialized|created) (?:with|by|on) (?:a )?(?:different|another|newer|older) (?:TensorRT |TRT )?(?:version|device|GPU)|engine plan file is not compatible with this version of TensorRT|expecting library version [\d.]+ got [\d.]+)",
        priority: 75,
        causes: &[
            c("ext.abi_mismatch", 0.5, "The engine was serialized by another TensorRT version than the one loading it: engines load only in the TensorRT release that built them.", "Rebuild the engine with the TensorRT that runs it (or run it with the TensorRT that built it); check which libnvinfer is loaded (`ldd`, LD_LIBRARY_PATH)."),
            c("ext.arch_unsupported", 0.35, "The engine was built on a GPU of another compute capability; engines carry kernels for the GPU they were built on only.", "Rebuild the engine on this GPU (or on one of the same compute capability)."),
            c("torch.libs_shadowed", 0.15, "Another TensorRT library on LD_LIBRARY_PATH is loaded instead of the one the engine was built with.", FIX_LIBS_SHADOWED),
            c("workload.library_bug", 0.0, "The version read back is 0.0.0: what was read is no engine at all (written or read in text mode on Windows, truncated, another file): the program's own file handling; the machine is fine.", "Write and read the plan in binary mode (`std::ios::binary`, `open(path, \"rb\")`) and check the file's size against what was serialized."),
        ],
        hints: &[
            h(r"incompatible device|expecting compute \d", "ext.arch_unsupported", 0.6),
            h(r"got 0\.0\.0\b|got compute 0\.0\b|Magic tag does not match", "workload.library_bug", 1.2),
            h(r"LD_LIBRARY_PATH\s*=|/usr/lib/x86_64-linux-gnu/libnvinfer|/usr/local/TensorRT", "torch.libs_shadowed", 0.4),
        ],
        tells_apart: "The message: 'incompatible device, expecting compute X got compute Y' → the GPU; 'Version tag does not match' → the TensorRT version.",
    },
    // TensorRT's builder knows a fixed set of GPU architectures per release: a GPU newer than
    // the release (Blackwell's SM 120 under TensorRT 10.7: DDTRobot/tita_rl_sim2sim2real#7) or
    // a release that never had its kernels (Ampere under TensorRT 7 with CUDA 10.2, whose
    // `trtSmToCask` asserts: wang-xinyu/tensorrtx#819) stops the engine build.
    Rule {
        id: "tensorrt.unsupported_sm",
        title: "this TensorRT release does not support the GPU's architecture",
        pattern: r"(?:Target GPU SM \d+ is not supported by this TensorRT release|Assertion failed: Unsupported SM|trtSmToCask[^\n]{0,40}Unsupported SM|\(Unsupported SM\.?\))",
        priority: 80,
        causes: &[
            c("ext.arch_unsupported", 0.85, "The TensorRT release (and the CUDA it is built for) predates the GPU's architecture, or has no kernels for it: it cannot build an engine for this GPU.", "Install a TensorRT release that supports this GPU's compute capability (the TensorRT support matrix lists the SMs of each release; Blackwell needs TensorRT 10.8+ with CUDA 12.8+), built for a CUDA the driver runs."),
            c("toolkit.arch_unsupported", 0.1, "The CUDA toolkit paired with that TensorRT is itself older than the GPU (CUDA 10.2 for an Ampere card).", FIX_TOOLKIT_ARCH),
            c("workload.library_bug", 0.05, "A TensorRT release that lists the GPU but fails to build for it.", FIX_LIBRARY_BUG),
        ],
        hints: &[],
        tells_apart: "`nvidia-smi --query-gpu=name,compute_cap --format=csv` against the TensorRT release's support matrix (`trtexec` prints its version: `[TensorRT v100700]` is 10.7.0).",
    },
    // TensorRT's builder found no kernel (tactic) for a fused node: a TensorRT release without
    // one for that layer on this GPU, fixed in a later release (NVIDIA/TensorRT: "fixed in 8.4
    // GA"), or a workspace too small for every tactic.
    Rule {
        id: "tensorrt.no_implementation",
        title: "TensorRT found no implementation for a node",
        pattern: r"Could not find any implementation for node",
        priority: 70,
        causes: &[
            c("workload.library_bug", 0.65, "The TensorRT release has no tactic for this (fused) layer on this GPU: a gap or bug of that release, fixed in later ones.", "Try a newer TensorRT release; meanwhile export the model at another opset or split the fused pattern."),
            c("workload.out_of_memory", 0.35, "Every tactic for the node needs more workspace than the builder was given.", "Give the builder more workspace (`trtexec --memPoolSize=workspace:4096`, `config.set_memory_pool_limit(trt.MemoryPoolType.WORKSPACE, 4 << 30)`)."),
        ],
        hints: &[h(r"(?i)workspace|memPoolSize|max_workspace_size", "workload.out_of_memory", 0.3)],
        tells_apart: "The same build with a larger workspace: if it still fails, the release lacks the tactic.",
    },
    // Omniverse / Isaac Sim check the driver against their minimum at start ("Installed
    // driver: 535.5 The unsupported driver range: [0.0, 535.129)": isaac-sim/IsaacAutomator#40).
    Rule {
        id: "omniverse.driver_unsupported",
        title: "the program's minimum driver is newer than the installed one",
        pattern: r"(?:currently installed NVIDIA graphics driver is unsupported or has known issues|The unsupported driver range: \[)",
        priority: 80,
        causes: &[
            c("driver.too_old_for_toolkit", 0.85, "The installed driver is below the range the program (Omniverse RTX, Isaac Sim) supports; its message names the installed driver and the recommended ones.", "Install the driver branch the message recommends (or newer): `sudo apt install nvidia-driver-580` (Ubuntu), then reboot."),
            c("workload.library_bug", 0.15, "A driver inside the range that the program's list marks as having known issues.", FIX_LIBRARY_BUG),
        ],
        hints: &[],
        tells_apart: "`nvidia-smi` (the driver) against the message's supported range.",
    },
    Rule {
        id: "bitsandbytes.setup",
        title: "bitsandbytes found no usable CUDA build",
        pattern: r"(?:CUDA Setup failed despite GPU being available|The installed version of bitsandbytes was compiled without GPU support|libbitsandbytes_cpu\.so|CUDA SETUP: Required library version not found|libbitsandbytes_cuda\d+(?:_nocublaslt)?\.(?:so|dll)|CUDA SETUP: CUDA detection failed|bitsandbytes[^\n]{0,60}(?:could not find|cannot find) (?:the )?(?:CUDA|libcudart))",
        priority: 70,
        causes: &[
            c("ext.abi_mismatch", 0.55, "The bitsandbytes build installed has no binary for this CUDA / platform (an old release, or a CPU build on Windows), so it falls back to CPU.", "Install a recent bitsandbytes (`pip install -U bitsandbytes`; it ships CUDA 11.x/12.x binaries for Linux and Windows) matching torch's CUDA."),
            c("toolkit.not_found", 0.25, "Old releases look for libcudart on LD_LIBRARY_PATH and find none.", "Upgrade bitsandbytes, or put the CUDA runtime's lib64 on LD_LIBRARY_PATH."),
            c("torch.cpu_only", 0.2, "torch itself is a CPU build.", "Install a CUDA build of torch."),
        ],
        hints: &[],
        tells_apart: "`python -m bitsandbytes` prints what it found.",
    },
    // ---- blind sample (research-2026-11q)
    // A job or server that stops answering after running for hours or days, with no error of
    // its own (vllm-project/vllm, an 8x A800 server silent after two days: one card had an
    // uncorrectable ECC error). The program's deadlock is as likely; the GPU's own log tells.
    Rule {
        id: "run.stalls_after_long_run",
        title: "a job or server stops responding after running for a long time",
        pattern: r"(?:(?:after|for) (?:about |several |a few |\d+ ?)(?:days?|hours?|hrs?|h)\b[^\n]{0,80}?(?:stops? (?:responding|answering|working)|stopped (?:responding|answering|working)|hangs?|hung|freez\w*|stuck|no (?:response|output))|(?:stops?|stopped) (?:responding|answering|working)[^\n]{0,40}?after (?:about |several |a few |\d+ ?)(?:days?|hours?)\b)",
        priority: 15,
        causes: &[
            c("workload.library_bug", 0.4, "The program deadlocks or leaks after a long run (a scheduler or NCCL collective waiting forever, memory growing until the server stalls).", FIX_LIBRARY_BUG),
            c("gpu.ecc_errors", 0.35, "A GPU hit an uncorrectable ECC error (or a row-remapping failure) mid-run: the process using it waits forever or dies, and the service goes silent without an error of its own.", "Check `nvidia-smi -q -d ECC,ROW_REMAPPER` and `dmesg | grep -i xid` (Xid 48/63/64/94/95); reset the GPU or drain the node, and replace the card if uncorrectable errors come back."),
            c("gpu.lost", 0.25, "A GPU fell off the bus or stopped answering (Xid 79, power or thermal trouble under long load).", "Look for Xid 79 / 'fallen off the bus' in `dmesg`; check power and cooling, reseat or replace the card."),
        ],
        hints: &[
            h(r"\bECC\b|Xid|uncorrect|row remap|ERR!", "gpu.ecc_errors", 0.6),
            h(r"fallen off the bus|Xid:? 79|power|overheat|thermal", "gpu.lost", 0.5),
        ],
        tells_apart: "`dmesg -T | grep -i xid` and `nvidia-smi -q -d ECC` on the machine right after it stalls: an Xid or a volatile uncorrectable ECC count names the GPU; none, and a stack dump of the process (`py-spy dump`) shows where the program waits.",
    },
    // cuda-gdb (and compute-sanitizer's API checks) print every CUDA API call that returned
    // an error, handled or not: "warning: Cuda API error detected: cudaDeviceEnablePeerAccess
    // returned (0x2c0)" is peer access already enabled, which NCCL expects and ignores
    // (NVIDIA/nccl#1226: the test ran). The lines alone are no fault.
    Rule {
        id: "cuda_gdb.api_error_warning",
        title: "the debugger reports a CUDA API call's error return",
        pattern: r"warning: Cuda API error detected: \w+ returned \((?:0x[0-9a-f]+|\d+)\)",
        priority: 20,
        causes: &[
            c("none", 0.7, "Under cuda-gdb every CUDA API call that returns an error is reported, also the ones the program expects and handles: peer access already enabled (0x2c0), a query not ready yet (0x258), an optional feature probed. The warning alone says nothing is wrong.", "Nothing to fix when the program goes on and succeeds; to silence it, `set cuda api_failures ignore` in cuda-gdb. Look for an error the program itself raised."),
            c("workload.library_bug", 0.3, "The call's error is the one the program fails on: the program or a library uses the API wrongly.", FIX_LIBRARY_BUG),
        ],
        hints: &[h(r"\b(?:fail(?:ed|s|ure)?|abort(?:ed)?|segmentation fault|core dumped|terminate called)\b", "workload.library_bug", 0.5)],
        tells_apart: "Does the program finish (nccl-tests print their results table, training goes on)? Then the warnings are handled returns; the first error the program itself raises is the one to explain.",
    },
    // ---- round 10b (other CUDA programs)
    // FFmpeg's NVENC encoders (and everything built on them: HandBrake, OBS, Jellyfin, Sunshine)
    // check the driver's NVENC API version against the Video Codec SDK headers they were built
    // with: "Driver does not support the required nvenc API version. Required: 12.2 Found: 12.1"
    // (HandBrake/HandBrake#6506, GyanD/codexffmpeg#181: a newer driver, or an older build).
    Rule {
        id: "nvenc.api_version",
        title: "the encoder needs a newer NVENC API than the driver has",
        pattern: r"(?:Driver does not support the required nvenc API version[^\n]{0,60}|required nvenc API version|NVENC API\W{0,3}(?:\d+\.\d+)?[^\n]{0,40}Required:? ?(?:NVENC API )?\d+\.\d+[^\n]{0,20}Found:? ?\d+\.\d+|NV_ENC_ERR_INVALID_VERSION)",
        priority: 72,
        causes: &[
            c("driver.too_old_for_toolkit", 0.9, "The program's encoder was built against a newer NVENC API (NVIDIA Video Codec SDK) than the installed driver provides; each NVENC API version needs a minimum driver (the message names it when it knows it: 12.2 needs 551.76+, 13.0 needs 570+).", "Install a newer NVIDIA driver (at least the one the message names), or use a build of the program made against an older NVENC API (an older FFmpeg/HandBrake release, or one built with older nv-codec-headers)."),
            c("host.container_no_gpu", 0.1, "In a container the driver's encode library is the host's: the host's driver is the one too old.", "Upgrade the host's driver; the container brings no driver of its own."),
        ],
        hints: &[h(r"docker|container|kubernetes|\bpod\b|unraid|synology", "host.container_no_gpu", 0.2)],
        tells_apart: "`nvidia-smi` (on the host) shows the driver; the minimum driver for the NVENC API version the message names is in the Video Codec SDK's release notes.",
    },
    // Other NVENC failures: the driver's encode library missing (a container without the
    // `video` capability: styler00dollar/VSGAN-tensorrt-docker#42; a Kubernetes pod with
    // compute,utility only), a GPU without an encoder for the codec (A100/H100 have none:
    // "OpenEncodeSessionEx failed: unsupported device (2)", "No capable devices found"),
    // GeForce session limits, and a mode the encoder lacks (10-bit H.264: LizardByte/Sunshine#95).
    Rule {
        id: "nvenc.unavailable",
        title: "the NVIDIA hardware encoder (NVENC) could not be opened",
        pattern: r"(?:Cannot load (?:libnvidia-encode\.so(?:\.1)?|nvEncodeAPI(?:64)?\.dll)|Could not open nvEncodeAPI library|OpenEncodeSessionEx failed:?[^\n]{0,60}|nvEncOpenEncodeSessionEx[^\n]{0,80}returned error \d+|No (?:NVENC )?capable devices found|\b(?:h264|hevc|av1)_nvenc\b[^\n]{0,160}(?:fail|error|unavailable|not (?:supported|available|found)|cannot)|(?:fail|error|unavailable|cannot|could not)[^\n]{0,60}\b(?:h264|hevc|av1)_nvenc\b|NVENC[^\n]{0,40}(?:not available|unavailable|init(?:ialization)? failed|failed to (?:init|open|create)))",
        priority: 40,
        causes: &[
            c("driver.too_old_for_toolkit", 0.01, "The program was built against a newer NVENC API than the driver provides: the encoder refuses the version ('invalid version', 'minimum required Nvidia driver for nvenc').", "Update the NVIDIA driver to the branch the program's Video Codec SDK needs (ffmpeg's and HandBrake's release notes name it), or use a build of the program made with an older SDK."),
            c("host.container_no_gpu", 0.4, "In a container the NVIDIA runtime mounts the driver's video libraries (libnvidia-encode, libnvcuvid) only with the `video` driver capability; NVIDIA_DRIVER_CAPABILITIES=compute,utility (the CUDA images' default) leaves CUDA working and NVENC out.", "Start the container with `-e NVIDIA_DRIVER_CAPABILITIES=compute,video,utility` (or `all`; in Kubernetes, in the pod's env) and check `ldconfig -p | grep libnvidia-encode` inside it."),
            c("driver.not_installed", 0.25, "The driver's encode library (libnvidia-encode.so.1 / nvEncodeAPI64.dll) is not installed: a headless or compute-only driver package, or a distribution that ships it separately (Ubuntu's libnvidia-encode-<branch>).", "Install the driver's encode library of the same branch as the driver (Ubuntu: `sudo apt install libnvidia-encode-<branch>`), or the full driver package."),
            c("gpu.busy", 0.15, "GeForce cards allow only a few NVENC sessions at once (3, later 5 and 8, per system); one more fails to open ('incompatible client key (21)', 'out of memory (10)').", "Close other encoding sessions (OBS, Plex, another ffmpeg) or run fewer encodes at once; professional and datacenter GPUs have no such limit."),
            c("host.no_nvidia_gpu", 0.02, "The CUDA driver itself cannot be loaded (nvcuda.dll / libcuda.so.1): on Windows it comes with every NVIDIA display driver, so it is missing where the machine has no NVIDIA GPU; the program is set to NVIDIA's encoder anyway.", "Use a software encoder (libx264, libvpx) or the encoder of the GPU the machine has (AMF, Quick Sync), or run on a machine with an NVIDIA GPU."),
            // A GPU without the encoder asked for is no fault of the machine and no driver's
            // (driver.gpu_unsupported is the driver branch refusing a GPU): the product has
            // no NVENC (compute GPUs, mining cards such as the P106-100: HandBrake/HandBrake
            // #1998), none for this codec or mode, or the program's own ffmpeg build does not
            // reach it (HaveAGitGat/Tdarr#745: the bundled ffmpeg worked).
            c("none", 0.25, "Nothing on the machine is broken: this GPU's NVENC does not offer what is asked. A100, A30, H100 and other compute GPUs and mining cards (P106-100, CMP) have no encoder at all; older or small GeForce cards lack HEVC, AV1, B-frames or 10-bit H.264; or the program's own ffmpeg build cannot use the encoder the GPU has.", "Check NVIDIA's Video Encode and Decode GPU Support Matrix for this GPU: where it has NVENC for the codec, pick a mode it supports (8-bit H.264, HEVC for 10-bit) or use the ffmpeg build the program ships; where it has none, use a software encoder (libx264/libx265) or a GPU with NVENC."),
        ],
        hints: &[
            h(r"(?i)invalid version \(15\)|NV_ENC_ERR_INVALID_VERSION|minimum required Nvidia driver (?:for nvenc )?is \d|driver does not support the required nvenc API version", "driver.too_old_for_toolkit", 1.0),
            h(r"docker|container|kubernetes|\bpod\b|NVIDIA_DRIVER_CAPABILITIES|compose|unraid|truenas|jellyfin|linuxserver", "host.container_no_gpu", 0.4),
            h(r"unsupported device \(2\)|No (?:NVENC )?capable devices|NV_ENC_ERR_UNSUPPORTED_DEVICE|returned error 2\b|\b(?:A100|A30|H100|H200|H800|A800|B200)\b", "none", 0.35),
            h(r"incompatible client key|\(21\)|session limit|concurrent (?:encod\w+ )?sessions|out of memory \(10\)", "gpu.busy", 0.7),
            // The CUDA driver itself missing, not only its encode library (Raveler/ffmpeg-cpp#5).
            h(r"Cannot load nvcuda\.dll|nvcuda\.dll[^\n]{0,40}(?:not found|missing|could not)", "host.no_nvidia_gpu", 0.6),
            h(r"Cannot load libcuda\.so", "driver.not_installed", 0.3),
            h(NO_GPU_SAID, "host.no_nvidia_gpu", 0.8),
            h(r"10.?bit encode not supported|doesn't support required NVENC features|not supported by the (?:device|GPU)[^\n]{0,30}(?:10.?bit|b.?frames?|lossless)", "none", 0.8),
        ],
        tells_apart: "Does `nvidia-smi` work where the encoder runs? Then inside a container `ldconfig -p | grep libnvidia-encode` (missing: the `video` capability); `nvidia-smi -q | grep -i -A3 encoder` and NVIDIA's encode support matrix for the GPU; `nvidia-smi -q -d ENCODER_STATS` for sessions already open.",
    },
    // OptiX (Blender Cycles, OptiX renderers, NVISII) lives in the driver (libnvoptix); the SDK a
    // program was built with needs a minimum driver: optixInit() 7801
    // OPTIX_ERROR_UNSUPPORTED_ABI_VERSION (owl-project/NVISII#40: driver < 450). 7804 is the
    // driver's OptiX library not found (a container without the `graphics` capability).
    Rule {
        id: "optix.init_failed",
        title: "OptiX could not be initialised",
        pattern: r"(?:OPTIX_ERROR_(?:UNSUPPORTED_ABI_VERSION|LIBRARY_NOT_FOUND|FUNCTION_TABLE_SIZE_MISMATCH|ENTRY_SYMBOL_NOT_FOUND|LIBRARY_UNLOAD_FAILURE)|optix\w*\([^\n]{0,40}\)\)?[^\n]{0,40}(?:failed with code|returned|error)[^\n]{0,10}\b780[1-6]\b|OptiX[^\n]{0,80}(?:driver[^\n]{0,40}(?:too old|is outdated|newer)|(?:initiali[sz]ation|init) failed)|Opti[xX] [Ee]rror:? '?Unsupported ABI version'?)",
        priority: 60,
        causes: &[
            c("driver.too_old_for_toolkit", 0.6, "The program's OptiX SDK needs a newer driver than the installed one (OptiX is part of the driver; 7801 OPTIX_ERROR_UNSUPPORTED_ABI_VERSION / 7802 FUNCTION_TABLE_SIZE_MISMATCH: the ABI the program asks for is newer than the driver's).", FIX_DRIVER_UPGRADE),
            c("driver.not_installed", 0.25, "The driver's OptiX library (libnvoptix.so.1 / nvoptix.dll) was not found (7804 OPTIX_ERROR_LIBRARY_NOT_FOUND): an incomplete driver install, or a distribution package that ships it separately.", "Install the full driver (its libnvoptix.so.1 must be on the loader path: `ldconfig -p | grep nvoptix`)."),
            c("host.container_no_gpu", 0.15, "In a container the NVIDIA runtime mounts libnvoptix only with the `graphics` driver capability.", "Start the container with `-e NVIDIA_DRIVER_CAPABILITIES=all` (or add `graphics`)."),
        ],
        hints: &[
            h(r"\b7804\b|LIBRARY_NOT_FOUND|libnvoptix", "driver.not_installed", 0.6),
            h(r"docker|container|kubernetes|\bpod\b", "host.container_no_gpu", 0.5),
        ],
        tells_apart: "`nvidia-smi` shows the driver; the program's OptiX SDK version names the minimum driver in its release notes; `ldconfig -p | grep nvoptix` shows whether the driver's OptiX library is there.",
    },
    // TensorFlow warns that its wheel has no SASS for the GPU and JIT-compiles PTX (slow first
    // start, cached): a warning, no fault (tensorflow/tensorflow#62320 on H100). Only an error
    // beside it (the PTX JIT failing on a GPU newer than the build) makes it the cause.
    Rule {
        id: "tf.ptx_jit_warning",
        title: "TensorFlow JIT-compiles its kernels from PTX for this GPU",
        pattern: r"TensorFlow was not built with CUDA kernel binaries compatible with compute capability \d+\.\d+",
        priority: 12,
        causes: &[
            c("none", 0.65, "A warning: the TensorFlow build carries no kernels compiled for this GPU's compute capability, so the driver JIT-compiles them from PTX on first use (minutes, cached in ~/.nv/ComputeCache afterwards). Training runs, only the start is slow.", "Nothing to fix; raise the JIT cache (`export CUDA_CACHE_MAXSIZE=4294967296`) so the compiled kernels stay cached, or use a TensorFlow build (or NGC container) with kernels for this GPU."),
            c("torch.arch_unsupported", 0.35, "The build is older than the GPU and the PTX JIT fails on it (a Blackwell card with a TensorFlow built before it): kernels for this GPU cannot be made at all.", "Use a TensorFlow release (or NGC container) built for this GPU's compute capability."),
        ],
        hints: &[h(r"CUDA_ERROR_(?:INVALID|NO_BINARY|UNSUPPORTED|LAUNCH|ILLEGAL)\w*|no kernel image|ptxas[^\n]*(?:fatal|error)|(?:Internal|Runtime)Error|Segmentation fault|core dumped|INVALID_PTX|INVALID_HANDLE", "torch.arch_unsupported", 0.5)],
        tells_apart: "Does the job go on after the warning (GPU utilisation in nvidia-smi after the first minutes)? Then it is only slow to start; an error after it means the build cannot run on this GPU.",
    },
    // OpenCV's CUDA modules exist only in builds made with WITH_CUDA (and OPENCV_DNN_CUDA); the
    // pip wheels (opencv-python, opencv-contrib-python) have none, and a second OpenCV on the
    // path shadows a CUDA build (opencv/opencv#18229: "DNN module was not built with CUDA
    // backend; switching to CPU"). A CUDA function of a build without it throws from
    // `throw_no_cuda` ("The called functionality is disabled for current build or platform").
    Rule {
        id: "opencv.no_cuda_build",
        title: "the OpenCV in use was built without CUDA",
        pattern: r"(?:DNN module was not built with CUDA backend|\(-216:No CUDA support\)|The called functionality is disabled for current build or platform\)? in (?:function )?'?throw_no_cuda|The library is compiled without CUDA support|getCudaEnabledDeviceCount\(\)[^\n]{0,40}\b0\b)",
        priority: 45,
        causes: &[
            c("torch.cpu_only", 0.75, "The OpenCV the program imports has no CUDA: pip's opencv-python / opencv-contrib-python wheels are built without it, so `setPreferableBackend(DNN_BACKEND_CUDA)` falls back to the CPU.", "Build OpenCV with `-DWITH_CUDA=ON -DWITH_CUDNN=ON -DOPENCV_DNN_CUDA=ON -DCUDA_ARCH_BIN=<the GPU's compute capability>` (or use a distribution's CUDA build), and `pip uninstall opencv-python opencv-contrib-python` so the build is the one imported (`cv2.getBuildInformation()` must list CUDA)."),
            c("torch.multiple_installs", 0.25, "A CUDA build of OpenCV is installed, but another OpenCV (a pip wheel pulled in by another package) comes first on the path.", "`python -c 'import cv2; print(cv2.__file__)'`: remove the pip opencv-* wheels so the CUDA build is imported."),
        ],
        hints: &[h(r"(?:built|compiled|installed) (?:opencv )?(?:\w+ )?with (?:CUDA|-DWITH_CUDA)|WITH_CUDA=ON|OPENCV_DNN_CUDA=ON|cmake", "torch.multiple_installs", 0.3)],
        tells_apart: "`python -c 'import cv2; print(cv2.__file__); print(cv2.getBuildInformation())'`: the NVIDIA CUDA section says whether this build has CUDA, and the path which OpenCV is imported.",
    },
    // PaddlePaddle (before 2.5, and C++/FastDeploy builds) dlopens the system's cuDNN/cuBLAS:
    // "Cannot load cudnn shared library. Cannot invoke method cudnnGetVersion" or "The
    // third-party dynamic library (libcudnn.so) that Paddle depends on is not configured
    // correctly" (PaddlePaddle/PaddleOCR#300: cuDNN not on LD_LIBRARY_PATH).
    Rule {
        id: "paddle.dynload",
        title: "PaddlePaddle cannot load a CUDA library it depends on",
        pattern: r"(?:Cannot load (?:cudnn|cublas|cublasLt|cusolver|cusparse|curand|cufft|nccl|cuda|nvrtc|cupti) (?:shared|dynamic) library|The third-party dynamic library \(lib\w+\.so[\w.]*\) that Paddle depends on is not configured correctly|(?:cudnn|cublas|nccl)_dso_handle should not be null)",
        priority: 55,
        causes: &[
            c("toolkit.not_found", 0.55, "Paddle (before 2.5, and C++ inference builds) does not bring the CUDA libraries: it dlopens the system's cuDNN/cuBLAS, which is not installed or not on the loader path (cuDNN installed from a tarball into its own folder, conda's lib not on LD_LIBRARY_PATH).", "Install the cuDNN/CUDA version the Paddle build names (`paddle.version.cuda()`, `paddle.version.cudnn()`) and put its lib directory on the loader path (`export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH`, or /etc/ld.so.conf.d + `sudo ldconfig`)."),
            c("torch.wheel_deps_mismatch", 0.45, "The installed CUDA/cuDNN is of another version than the Paddle build needs (a post107 wheel on CUDA 10.2, a CUDA 11.x build on 12.x), so the library of the needed major is not there.", "Install the paddlepaddle-gpu build for the installed CUDA/cuDNN (paddlepaddle.org.cn's selector), or the CUDA/cuDNN the build names."),
        ],
        hints: &[
            h(r"LD_LIBRARY_PATH|ldconfig|locate lib|find / -name", "toolkit.not_found", 0.2),
            h(r"version\W+(?:mismatch|not match)|does not match", "torch.wheel_deps_mismatch", 0.15),
        ],
        tells_apart: "`python -c 'import paddle; print(paddle.version.cuda(), paddle.version.cudnn())'` against `ldconfig -p | grep -E 'cudnn|cublas'`: a library of the named version missing from the list means not installed or not on the path.",
    },
    // ---- blind sample 2 (research-2026-11t)
    // The program said in words not to use the GPU, with no error of its own ("it will not use
    // gpu", "runs on the CPU instead"): what ranks the causes is what else the text names: an
    // old GPU (Kepler, compute 3.x) that the program's own CUDA build dropped (ollama/ollama#2034:
    // a K80 beside a P40 made Ollama disable the GPU), a container, a CPU build.
    Rule {
        id: "gpu.not_used_said",
        title: "the program does not use the GPU (said in words)",
        pattern: r"(?i)(?:\b(?:not|isn'?t|never|doesn'?t|does not|won'?t|will not|cannot|can'?t|refuses? to)\s+(?:be\s+)?(?:running|run|use|using|utili[sz]e|utili[sz]ing|detect|detecting|see|seeing|pick(?:ing)? up)\s+(?:on\s+)?(?:the\s+|my\s+|any\s+|a\s+)?(?:nvidia\s+)?gpus?\b|\b(?:runs?|running|falls? back to|falling back to)\s+(?:only\s+)?on\s+(?:the\s+)?cpu\s+instead)",
        priority: 8,
        causes: &[
            // the most common cause of the words in the dev corpora (3 of 10 such texts and
            // pastes), before an old GPU (1): ties keep this order
            c("torch.cpu_only", 0.2, "The build installed has no CUDA (a CPU wheel or package), so it never uses the GPU.", "Install the program's CUDA build (for torch: `pip install --force-reinstall torch --index-url https://download.pytorch.org/whl/cu126`)."),
            c("ext.arch_unsupported", 0.2, "The program's own CUDA build carries no code for the GPU (an old one: Kepler, compute 3.x, which recent CUDA builds dropped), so it skips the GPU or disables GPU mode.", "Use a release of the program built for that GPU's compute capability, build it yourself for it, or remove the old card so a supported one is used."),
            c("driver.not_installed", 0.2, "No working NVIDIA driver, so no program can use the GPU.", FIX_DRIVER_INSTALL),
            c("host.container_no_gpu", 0.1, "The program runs in a container that was given no GPU (`--gpus` or the NVIDIA runtime missing).", "Start the container with `--gpus all` (Docker with the NVIDIA Container Toolkit configured) and check `nvidia-smi` inside it."),
            c("workload.gpu_not_requested", 0.15, "The program was not told to use the GPU (its device setting, a CPU flag, a job that requested no GPU).", "Set the program's device option to the GPU (`--device cuda`, `num_gpu`, `--gres=gpu:1` for a job)."),
        ],
        hints: &[
            h(OLD_GPU, "ext.arch_unsupported", 0.5),
            h(r"(?i)\bcontainers?\b|docker|podman|NVIDIA_VISIBLE_DEVICES|kubernetes|\bpods?\b", "host.container_no_gpu", 0.4),
            h(r"\+cpu\b|cpuonly|CPU[- ]only (?:build|wheel|version)", "torch.cpu_only", 0.5),
            h(r"(?i)nvidia-smi[^\n]{0,40}(?:command not found|has failed|couldn't communicate)", "driver.not_installed", 0.5),
        ],
        tells_apart: "The program's start-up log (which GPUs it found and why it skipped them) and `nvidia-smi --query-gpu=name,compute_cap --format=csv`: a GPU below the program's minimum capability, a container without GPUs, or a CPU build.",
    },
    // NCCL between nodes in the reporter's words, with no NCCL error line: the interface NCCL
    // picks (NCCL_SOCKET_IFNAME), routes, ports (NVIDIA/nccl#1581: two NICs with the same subnet
    // in a different order on each node). The network's configuration, not a GPU.
    Rule {
        id: "nccl.network_config_said",
        title: "NCCL's network between nodes (said in words)",
        pattern: r"(?i)\bNCCL\b[^\n]{0,120}\b(?:(?:NCCL_)?SOCKET_IFNAME|multi-?node|worker nodes?|between (?:the )?nodes|network interfaces?|NICs?)\b|\b(?:NCCL_SOCKET_IFNAME|multi-?node)\b[^\n]{0,120}\bNCCL\b",
        priority: 9,
        causes: &[
            c("workload.nccl", 0.8, "Between nodes NCCL picks a network interface and route per node: a wrong or missing NCCL_SOCKET_IFNAME, interfaces named differently per node, two NICs on the same subnet (the kernel picks the source by route order), a firewall: the network's configuration, not the GPUs.", "Run with `NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET` on every node and read which interface each uses; set `NCCL_SOCKET_IFNAME` per node, give each NIC its own subnet (or route metrics), and open the ports between the nodes."),
            c("workload.library_bug", 0.2, "A bug in this NCCL release's interface selection.", "Upgrade NCCL to the newest release on every node (all nodes the same)."),
        ],
        hints: &[],
        tells_apart: "`NCCL_DEBUG=INFO`: the 'Bootstrap : Using <if>' and 'NET/Socket : Using' lines on each node, against `ip -4 addr` and `ip route` there.",
    },

    // vLLM's engine sizing its KV cache from the memory left after the weights: "The model's
    // max seq len (4096) is larger than the maximum number of tokens that can be stored in KV
    // cache (3664)", "No available memory for the cache blocks", "needs N GiB KV cache ... only
    // M GiB available": the GPU memory share vLLM may use does not hold the context asked for.
    Rule {
        id: "vllm.kv_cache_too_small",
        title: "vLLM: the KV cache does not fit the context length",
        pattern: r"(?:max seq len \(\d+\) is larger than the maximum number of tokens that can be stored in KV cache[^\n]{0,40}|No available memory for the cache blocks[^\n]{0,80}|KV cache is needed, which is larger than the available KV cache memory[^\n]{0,80})",
        priority: 70,
        causes: &[
            c("workload.out_of_memory", 0.85, "After the model's weights, the GPU memory vLLM may use (gpu_memory_utilization of the card, less what other processes hold) leaves too little KV cache for the maximum context length: a sizing setting, not a fault.", "Raise `--gpu-memory-utilization` (e.g. 0.95), lower `--max-model-len`, use a quantised model or KV cache (`--kv-cache-dtype fp8`), or spread the model over more GPUs (`--tensor-parallel-size`)."),
            c("gpu.busy", 0.15, "Another process already holds part of the GPU memory, so vLLM's share is smaller than it expects.", "Check `nvidia-smi` for other processes on the GPU and stop them, or lower what they use."),
        ],
        hints: &[h(r"(?i)another process|other processes|already (?:in use|used)|\bProcess \d+ has", "gpu.busy", 0.8)],
        tells_apart: "`nvidia-smi` before vLLM starts (memory already used), and vLLM's log line with the memory it profiled for weights and KV cache.",
    },
    // ---- blind paste sample 1 (dev-2026-11l): what the web UIs and JAX say when they
    // fall back to the CPU
    // AUTOMATIC1111/Forge's launch check ("RuntimeError: Torch is not able to use GPU; add
    // --skip-torch-cuda-test to COMMANDLINE_ARGS"): torch.cuda.is_available() was False in the
    // venv the launcher just installed, which is torch from a cu12x index: most often a driver
    // older than that build (lllyasviel/stable-diffusion-webui-forge#521: a driver update fixed
    // it), else a CPU wheel, a GPU that is not NVIDIA's, or device nodes only root may open.
    Rule {
        id: "webui.torch_cannot_use_gpu",
        title: "the web UI's launch check: torch cannot use the GPU",
        pattern: r"Torch is not able to use GPU(?:; add --skip-torch-cuda-test[^\n]*)?",
        priority: 45,
        causes: &[
            c("driver.too_old_for_torch", 0.35, "The launcher installed torch from a CUDA 12 index (cu121, cu124, cu128), whose CUDA needs a newer driver than the one installed, so torch finds no usable GPU.", FIX_DRIVER_UPGRADE),
            c("torch.cpu_only", 0.25, "The venv holds a CPU-only torch (a cached wheel, a requirements file without the CUDA index).", "Reinstall torch in the web UI's venv from a CUDA index at or below the CUDA Version `nvidia-smi` shows (for a driver showing 12.6 or higher: `venv\\Scripts\\pip install --force-reinstall torch torchvision --index-url https://download.pytorch.org/whl/cu126`; for an 11.x driver, cu118), or delete the venv and launch again."),
            c("host.no_nvidia_gpu", 0.15, "The GPU is not NVIDIA's (AMD, Intel), which the CUDA build cannot use.", "Use the web UI's build for that GPU (DirectML/ZLUDA/ROCm for AMD, IPEX for Intel), or run with --use-cpu all."),
            c("driver.device_nodes", 0.1, "It works only as root: the user may not open /dev/nvidia* (group or mode).", "Add the user to the group owning /dev/nvidia* (often `video`), or fix the nodes' mode; do not run the web UI as root."),
            c("driver.not_installed", 0.1, "No NVIDIA driver is installed.", FIX_DRIVER_INSTALL),
        ],
        hints: &[
            h(r"(?i)superuser|\bas root\b|with sudo|sudo works", "driver.device_nodes", 0.7),
            h(r"\+cpu\b|(?i)cpu[- ]only (?:torch|build|wheel)", "torch.cpu_only", 0.6),
            h(r"(?i)\bamd\b|radeon|intel (?:arc|uhd|hd|iris)", "host.no_nvidia_gpu", 0.6),
        ],
        tells_apart: "In the web UI's venv: `python -c \"import torch; print(torch.__version__, torch.version.cuda, torch.cuda.is_available())\"` and `nvidia-smi` (the CUDA the driver supports).",
    },
    // JAX without a CUDA jaxlib ("An NVIDIA GPU may be present on this machine, but a
    // CUDA-enabled jaxlib is not installed. Falling back to cpu."): the installed jaxlib (or
    // the missing jax-cuda plugin) is a CPU build (jax-ml/jax#24604: conda gave a CPU jaxlib).
    Rule {
        id: "jax.cpu_jaxlib",
        title: "JAX: no CUDA-enabled jaxlib, falling back to the CPU",
        pattern: r"(?:An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed[^\n]*|CUDA-enabled jaxlib is not installed[^\n]*)",
        priority: 60,
        causes: &[
            c("torch.cpu_only", 0.8, "The jaxlib installed is a CPU build (or the jax-cuda12 plugin is missing), so JAX never looks for the GPU.", "Install JAX's CUDA build: `pip install -U \"jax[cuda12]\"`, in a fresh environment rather than over a conda-forge CPU jaxlib."),
            c("torch.wheel_deps_mismatch", 0.1, "The CUDA plugin is installed but its version differs from jaxlib's, so it is not loaded.", "Install jax, jaxlib and the jax-cuda plugin at one version: `pip install -U \"jax[cuda12]\"`."),
            c("driver.not_installed", 0.1, "No NVIDIA driver works here, so no CUDA build would see the GPU.", FIX_DRIVER_INSTALL),
        ],
        hints: &[],
        tells_apart: "`pip list | grep -i jax` (a jax-cuda12-plugin / jaxlib with +cuda) and `python -c \"import jax; print(jax.devices())\"`.",
    },
    // PyTorch Lightning's warning that a DataLoader has few workers (with the GPU idle at 0 %
    // while its memory is full): the job waits on data loading; the GPU is fine
    // (NVIDIA-NeMo/Speech#1204).
    Rule {
        id: "dataloader.few_workers",
        title: "the DataLoader has few workers (the GPU waits for data)",
        pattern: r"does not have many workers which may be a bottleneck[^\n]{0,120}",
        priority: 20,
        causes: &[
            c("none", 0.85, "A performance warning on a working machine: the DataLoader prepares batches too slowly for the GPU, which idles (0 % utilisation with its memory full).", "Raise the DataLoader's `num_workers` (up to the CPU count), set `pin_memory=True`, and keep the data on a fast disk."),
            c("workload.library_bug", 0.15, "The data pipeline itself is slow (decoding, augmentation on the CPU).", "Profile the input pipeline (`torch.utils.bottleneck`) and move the heavy transforms to the GPU or precompute them."),
        ],
        hints: &[],
        tells_apart: "`nvidia-smi dmon` while training: utilisation that rises with more workers.",
    },
    // COLMAP's SiftGPU ("ERROR: SiftGPU not fully supported", "Shader not supported by your
    // hardware!"): a COLMAP built without CUDA uses SiftGPU's OpenGL path, which needs a
    // display and a GL driver; a distribution's package is often such a build
    // (colmap/colmap#1485).
    Rule {
        id: "colmap.siftgpu_unsupported",
        title: "COLMAP: SiftGPU is not supported (OpenGL path)",
        pattern: r"SiftGPU not fully supported[^\n]{0,60}|Shader not supported by your hardware!?",
        priority: 40,
        causes: &[
            c("torch.cpu_only", 0.6, "This COLMAP is a build without CUDA (a distribution's package, or built without it): SiftGPU then runs through OpenGL, which a headless server or a remote session cannot give it.", "Install or build COLMAP with CUDA (`cmake -DCUDA_ENABLED=ON`, or the CUDA release), or run the SIFT steps on the CPU (`--SiftExtraction.use_gpu 0 --SiftMatching.use_gpu 0`)."),
            c("host.no_nvidia_gpu", 0.2, "No NVIDIA GPU with an OpenGL driver is there for SiftGPU (a headless node without a display, a VM).", "Run on a machine with the GPU's display driver, under a virtual display (`xvfb-run`), or use the CPU options."),
            c("driver.not_installed", 0.2, "The NVIDIA driver's OpenGL libraries are missing (Mesa's software renderer answers instead).", FIX_DRIVER_INSTALL),
        ],
        hints: &[h(r"(?i)headless|ssh|no display|xvfb|DISPLAY", "host.no_nvidia_gpu", 0.3)],
        tells_apart: "`colmap -h` (the first line says 'with CUDA' or 'without CUDA') and `glxinfo | grep renderer`.",
    },
    // ---- blind sample 3 (research-2026-11u): the host's memory, not the GPU's
    // PyTorch's CPU allocator out of system RAM ("DefaultCPUAllocator: not enough memory: you
    // tried to allocate 13005619200 bytes", c10/core/impl/alloc_cpu.cpp): a model loaded into
    // RAM before it goes to the GPU outgrew the machine (Comfy-Org/ComfyUI#5185).
    Rule {
        id: "memory.cpu_allocator",
        title: "PyTorch's CPU allocator ran out of system memory",
        pattern: r"DefaultCPUAllocator: (?:not enough memory|can't allocate memory)[^\n]{0,80}",
        priority: 70,
        causes: &[
            c("workload.out_of_memory", 0.9, "The allocation that failed is in system RAM (PyTorch's CPU allocator), not on the GPU: loading or preparing the model needs more memory than the machine has free.", "Free or add RAM (or swap / Windows' paging file), load the model in a smaller precision or a quantised variant, or use the program's low-memory options; the GPU's settings (--lowvram) do not change a CPU allocation."),
            c("workload.library_bug", 0.1, "A program that asks for an absurd size (a wrong shape or a corrupt file) fails the same way.", FIX_LIBRARY_BUG),
        ],
        hints: &[],
        tells_apart: "The size it tried to allocate against `free -g` (or Task Manager's memory) on that machine.",
    },
    // Windows' "The paging file is too small for this operation to complete" (WinError 1455):
    // loading the CUDA DLLs (cudnn_cnn_infer64_8.dll, torch_cuda.dll) commits more virtual
    // memory than the page file allows (bmaltais/kohya_ss#449).
    Rule {
        id: "memory.windows_paging_file",
        title: "Windows' paging file is too small (WinError 1455)",
        // (patterns read an ASCII shadow of the text: "页面文件太小", the Chinese message, is
        // matched through its "[WinError 1455]")
        pattern: r"WinError 1455\]?[^\n]{0,120}|[Tt]he paging file is too small[^\n]{0,80}",
        priority: 96,
        causes: &[
            c("workload.out_of_memory", 0.9, "Windows could not commit the virtual memory the process needs (the CUDA libraries it maps are large): the paging file is too small.", "Enlarge Windows' paging file (System > Advanced system settings > Performance > Virtual memory: system managed, or several tens of GB on a drive with room) and restart; fewer DataLoader workers map the DLLs fewer times."),
            c("workload.library_bug", 0.1, "A program that starts many worker processes, each loading the CUDA DLLs, multiplies the commit.", "Lower the number of worker processes (`num_workers`)."),
        ],
        hints: &[],
        tells_apart: "Task Manager's 'Committed' memory against its limit while the program starts.",
    },
];

/// NVIDIA's Xid catalogue as bundled (`compat-matrix/xid.toml`), the one the `gpu.xid` check
/// judges the kernel log with.
fn xid_catalogue() -> &'static [crate::matrix::schema::XidEntry] {
    static M: std::sync::OnceLock<Option<crate::matrix::Matrix>> = std::sync::OnceLock::new();
    M.get_or_init(|| crate::matrix::Matrix::bundled().ok())
        .as_ref()
        .map_or(&[], |m| m.xid.xid.as_slice())
}

/// Causes of an Xid, read from NVIDIA's Xid catalogue (`compat-matrix/xid.toml`): the entry's
/// meaning is the why and its todo the fix. The finding id follows from the entry: an
/// application's own fault (`fault = "application"`) is `workload.illegal_address` first (the
/// GPU is not failed for it; only repeats across programs point at it), memory errors are
/// `gpu.ecc_errors` / `gpu.row_remap` / `gpu.retired_pages`, a GPU gone from the bus is
/// `gpu.lost`, any other GPU fault `gpu.xid`. A code the catalogue lacks is `gpu.xid`.
pub fn xid_causes(xid: u32) -> Vec<Cause> {
    let Some(e) = xid_catalogue().iter().find(|e| e.code == xid) else {
        return vec![c(
            "gpu.xid",
            0.8,
            "An Xid the bundled catalogue does not list: the driver reported a GPU fault; look the code up in NVIDIA's Xid catalogue (docs.nvidia.com/deploy/xid-errors).",
            FIX_XID_HW,
        )];
    };
    let (why, fix): (&'static str, &'static str) = (e.meaning.as_str(), e.todo.as_str());
    let m = e.meaning.to_ascii_lowercase();
    if e.fault == "application" {
        return vec![
            c("workload.illegal_address", 0.55, why, FIX_ILLEGAL),
            c("gpu.xid", 0.3, "Only when it repeats across different applications does it point at the driver or the GPU.", fix),
            c("workload.library_bug", 0.15, "A library kernel's fault (out-of-bounds access) rather than the program's own code.", FIX_LIBRARY_BUG),
        ];
    }
    if m.contains("fallen off the bus") {
        return vec![c("gpu.lost", 0.95, why, fix)];
    }
    if m.contains("remap") || m.contains("retire") {
        return vec![
            c("gpu.row_remap", 0.6, why, fix),
            c("gpu.retired_pages", 0.4, why, fix),
        ];
    }
    if m.contains("ecc") {
        return vec![
            c("gpu.ecc_errors", 0.85, why, fix),
            c(
                "gpu.row_remap",
                0.15,
                "A row remap is pending until the GPU is reset.",
                fix,
            ),
        ];
    }
    vec![c("gpu.xid", 0.9, why, fix)]
}

/// Words that say the GPU stack broke across a restart or a kernel update ("after rebooting",
/// "after restarting the instance", "drivers are gone", unattended upgrades): the module was
/// not rebuilt for the new kernel (round 6b, field sample 11j).
const AFTER_RESTART: &str = r"(?:after|since|upon|on) (?:a |the )?(?:reboot\w*|restart\w*|stop(?:ping)? and start\w*)|(?:drivers?|modules?|nvidia[^\n]{0,20}) (?:are|is|were|was|got) (?:gone|missing)|kernel (?:update|upgrade)|unattended[- ]upgrades?|(?:no|none of the) nvidia[^\n]{0,30}(?:in|under) /dev|/dev[^\n]{0,30}no nvidia";

/// GPUs of generations current drivers and toolkits dropped: Fermi (GTX 4xx/5xx), Kepler
/// (GTX 6xx/7xx, Tesla K*), by name or architecture.
/// A GPU named with a CUDA toolkit older than the first that can build code for it (CUDA 10.0
/// for Turing: RTX 20xx, GTX 16xx, T4; 11.1 for Ampere GeForce: RTX 30xx, A10/A40; 11.0 for
/// A100; 11.8 for Ada and Hopper: RTX 40xx, L4/L40, H100), in either order ("RTX 2070 ...
/// CUDA 9.0.176": AlexeyAB/darknet#2836). Blackwell has its own constants.
const GPU_NEWER_THAN_CUDA: &str = r"(?:\bRTX ?20[5-8]0|\bGTX ?16[56]0|\bTesla T4\b|\bQuadro RTX)[\s\S]{0,600}?\bCUDA[ :]*(?:[789]\.\d)\b|\bCUDA[ :]*(?:[789]\.\d)\b[\s\S]{0,600}?(?:\bRTX ?20[5-8]0|\bGTX ?16[56]0|\bTesla T4\b|\bQuadro RTX)|(?:\bRTX ?30[5-9]0|\bA100\b|\bA10G?\b|\bA40\b|\bRTX A[456]000\b)[\s\S]{0,600}?\bCUDA[ :]*(?:[789]\.\d|10\.[0-2])\b|\bCUDA[ :]*(?:[789]\.\d|10\.[0-2])\b[\s\S]{0,600}?(?:\bRTX ?30[5-9]0|\bA100\b|\bA10G?\b|\bA40\b|\bRTX A[456]000\b)|(?:\bRTX ?40[5-9]0|\bL40S?\b|\bL4\b|\bH100\b|\bH200\b)[\s\S]{0,600}?\bCUDA[ :]*(?:[789]\.\d|10\.\d|11\.[0-7])\b|\bCUDA[ :]*(?:[789]\.\d|10\.\d|11\.[0-7])\b[\s\S]{0,600}?(?:\bRTX ?40[5-9]0|\bL40S?\b|\bL4\b|\bH100\b|\bH200\b)";
const OLD_GPU: &str = r"\b(?:Fermi|Kepler)\b|\bGTX ?[4-7]\d0(?: ?Ti)?\b|\bGT ?[4-7]\d\d\b|\bTesla (?:K\d+|M20\d0|C20\d0)|\bK(?:80|40m?|20m?|10)\b|compute capability [1-3]\.\d|\bsm_?[23]\d\b";
