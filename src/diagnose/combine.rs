//! How `diagnose` combines what the paste observed with the error in it, beyond the checks'
//! findings and `explain`'s causes: a healthy environment plus a Python exception of the
//! program's own defers to the program, and a paste that says the machine has no NVIDIA
//! GPU turns a "driver" error into that observation. Also: a CPU build of torch (parsed,
//! named in prose or by conda's build string) on a machine the paste shows or says has an
//! NVIDIA GPU; two torch installs in the package lists; an extension built for another
//! torch; a program other than PyTorch; a container started with the GPUs; a sentence that
//! states the driver is too old (a reporter's or maintainer's diagnosis); a line that
//! reports an error (for the generic fallback).

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;

use super::collect_env::CollectEnv;

fn re(p: &str) -> Option<Regex> {
    Regex::new(p).ok()
}

/// Whether one of this module's patterns (a pattern that failed to compile matches nothing)
/// matches `text`.
fn hit(r: &LazyLock<Option<Regex>>, text: &str) -> bool {
    r.as_ref().is_some_and(|r| r.is_match(text))
}

/// A traceback frame ("  File \"x.py\", line 3, in f"), also behind log prefixes.
static FRAME: LazyLock<Option<Regex>> =
    LazyLock::new(|| re(r#"(?m)File "[^"\n]+", line \d+, in "#));

/// The exception a traceback ends with, when it is Python's own kind (a call with the
/// wrong arguments, a missing attribute, a failed assertion): the program's error, not the
/// GPU's. Log prefixes ("[rank0]: ", "ERROR 02-17 20:51:49 core.py:210] ") and a heading's
/// "# " are allowed; a RuntimeError counts only when it wraps a wrong call.
static PY_EXCEPTION: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?m)^(#+ )?(?:.*?\]:? ?)?\s*((?:TypeError|AttributeError|AssertionError|KeyError|IndexError|NameError|NotImplementedError|ValueError)\b(?::[^\n]*)?|RuntimeError: [^\n]*(?:unexpected keyword argument|multiple values for keyword argument|required positional argument)[^\n]*)\s*$",
    )
});

/// Words that make an exception the GPU's business after all.
static GPU_WORDS: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)cuda|\bgpu|nvidia|nvml|driver|device|kernel image|\bsm_?\d|compute capability|cudnn|cublas|nccl|out of memory",
    )
});

/// The program's own Python exception the paste shows: the one a traceback ends with, or
/// one a heading (an issue's title) names.
pub fn program_exception(paste: &str) -> Option<String> {
    let traceback = FRAME.as_ref()?.is_match(paste);
    let gpu = GPU_WORDS.as_ref()?;
    PY_EXCEPTION
        .as_ref()?
        .captures_iter(paste)
        .filter(|c| traceback || c.get(1).is_some())
        .filter_map(|c| c.get(2))
        .map(|m| m.as_str().trim())
        .filter(|line| !gpu.is_match(line))
        .last()
        .map(str::to_string)
}

/// Sentences in which the person says the machine has no NVIDIA GPU to use ("the stack
/// fails without nvidia graphics card", "doesnt start without nvidia gpu").
static NO_GPU_SAID: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:i (?:do not|don'?t) have|there is no|(?:pc|laptop|machine|computer) (?:does not|doesn'?t) have|(?:pc|laptop|machine|computer|server|system|host|box|vm|i'?m|i am|running|run it|runs|fails?|(?:does not|doesn'?t|won'?t|will not) (?:start|run|work)) without)(?: an?| any)? (?:nvidia |cuda[- ]capable |dedicated )?(?:gpu|graphics card|video card)\b|\b(?:using|have|with) an? (?:integrated|onboard) (?:intel|amd)\b|\bnot (?:working|running) (?:with|on) (?:the |a |any )?gpu\b|\b(?:tested on|runs on|running on|using|i have|with) an? (?:intel (?:hd|uhd|iris|arc)|amd radeon|radeon)\b",
    )
});

/// A Mac with Apple silicon named as the machine ("Mac M1", "MacBook Pro M2", "Apple
/// Silicon"): it has no NVIDIA GPU.
static APPLE_SILICON_SAID: LazyLock<Option<Regex>> = LazyLock::new(|| {
    // ASCII boundaries: the words may sit between CJK characters ("在Mac M1上面")
    re(
        r"(?i)(?:^|[^a-z0-9])(?:mac(?:book)?(?: (?:pro|air|mini|studio))?\s?(?:with )?(?:an? )?m[1-4](?: (?:pro|max|ultra))?|apple (?:silicon|m[1-4]))(?:$|[^a-z0-9])",
    )
});

/// Whether the paste says the machine has no NVIDIA GPU, and shows none: no GPU named, no
/// driver, nvidia-smi never answered.
pub fn says_no_nvidia_gpu(paste: &str, ce: &CollectEnv) -> bool {
    ce.gpus.is_empty()
        && ce.driver.is_none()
        && !ce.smi_answered
        && (hit(&NO_GPU_SAID, paste) || hit(&APPLE_SILICON_SAID, paste))
}

/// The fix a paste reports: a CUDA library's directory put on LD_LIBRARY_PATH ("export
/// LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$CONDA_PREFIX/lib/:$CUDNN_PATH/lib"), with words saying
/// it worked. The toolkit's `stubs` directory is no fix.
static LIBRARY_PATH_FIX: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\bexport LD_LIBRARY_PATH=[^\n]*(?:cudnn|cublas|nvidia|CONDA_PREFIX|cuda[^\n/]*/(?:lib|lib64|targets))[^\n]*",
    )
});
static FIX_WORKED_SAID: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:found a (?:temporary )?solution|solved|fixed|this works|it works|worked for me|that worked|now works)\b",
    )
});

/// Whether the paste reports that putting a CUDA library's directory on LD_LIBRARY_PATH
/// fixed it.
pub fn library_path_fix_said(paste: &str) -> bool {
    let fix = LIBRARY_PATH_FIX
        .as_ref()
        .and_then(|r| r.find(paste))
        .is_some_and(|m| !m.as_str().contains("stubs"));
    fix && hit(&FIX_WORKED_SAID, paste)
}

/// A line that reports an error (an exception, a failed call, an abort), as opposed to an
/// environment report's "key: value" line.
static ERROR_LINE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)[a-z]*(?:error|exception)\b|\bfail(?:ed|ure|s)?\b|\bfatal\b|\babort(?:ed)?\b|\bcannot\b|\bcould not (?:load|find|open|initiali[sz]e|create|allocate)|\bunable to\b",
    )
});

/// Whether `line` (the line an error was matched on) reports an error.
pub fn reports_an_error(line: &str) -> bool {
    hit(&ERROR_LINE, line)
}

/// A CPU build of torch named in prose ("torch 2.8.0+cpu", "torch==2.2.0+cpu"): a
/// requirements line, an install log or a maintainer's reply, even where the parsed
/// environment holds another torch line.
static CPU_TORCH_NAMED: LazyLock<Option<Regex>> =
    LazyLock::new(|| re(r"(?i)\b(?:py)?torch[ =:v-]*\d+\.\d+(?:\.\d+)?(?:\.dev\d+)?\+cpu\b"));

/// Words saying the machine has an NVIDIA GPU, or that torch should have CUDA: an issue's
/// title or a maintainer's diagnosis ("only torch2.2.0+cpu is installed, so the cuda
/// version of torch is missing", "gets replaced by torch 2.8.0+cpu", "Torch cpu installed
/// on nvidia system"). collect_env's own keys ("Nvidia driver version: No CUDA") are not
/// such words.
static CPU_BUILD_BLAMED: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\bnvidia\b|\bdgx\b|\b(?:saw|sees|see|detects?|detected|found|finds)\W{0,2}cuda:\d|(?:py)?torch\b[^\n]{0,20}安装\s*(?:gpu|cuda)\s*版|not compiled with cuda|\bcuda (?:version|build|variant) of (?:py)?torch|\+cpu\b[^\n]{0,40}\b(?:is installed|was installed|gets installed|got installed|instead)\b|\b(?:replaced|overwritten|overwrote|downgraded|reinstalled|pulls?|pulled)\b[^\n]{0,40}\+cpu\b|\b(?:py)?torch\b[^\n]{0,12}\bcpu\b[^\n]{0,12}\binstalled\b",
    )
});

/// collect_env lines whose key names NVIDIA or CUDA without saying anything of the machine.
static COLLECT_ENV_KEY: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?im)^\s*(?:nvidia driver version|nvidia_visible_devices|nvidia_driver_capabilities|nvidia gpu models and configuration|\[(?:pip|conda)\d?\]|(?:pip|conda)\S*\s+nvidia-)[^\n]*$",
    )
});

/// Whether the paste shows a CPU-only torch (parsed, or named in prose) on a machine the
/// paste says has an NVIDIA GPU or wants CUDA: a GPU named, a driver, nvidia-smi answered,
/// or words that blame the CPU build. A CPU build alone (a CPU-only machine's collect_env)
/// is not enough.
pub fn cpu_build_on_gpu_machine(paste: &str, ce: &CollectEnv) -> bool {
    let prose = COLLECT_ENV_KEY.as_ref().map_or_else(
        || paste.to_string(),
        |r| r.replace_all(paste, "").into_owned(),
    );
    let cpu_named = hit(&CPU_TORCH_NAMED, paste) || hit(&CPU_BUILD_SAID, &prose);
    if !(ce.torch_cpu_only || (cpu_named && ce.torch_cuda.is_none())) || ce.rocm.is_some() {
        return false;
    }
    if ce.cuda_available == Some(true) {
        return false;
    }
    let nvidia_gpu = ce.gpus.iter().any(|g| {
        let l = g.to_ascii_lowercase();
        !(l.contains("intel") || l.contains("amd") || l.contains("radeon") || l.contains("apple"))
    });
    // Asking torch itself (`print(torch.cuda.is_available())`) and pasting its "False" is
    // wanting the GPU, as the sentences of GPU_WANTED are.
    let asked_torch =
        ce.cuda_available == Some(false) && ce.formats.iter().any(|f| f == "python output");
    if nvidia_gpu || ce.driver.is_some() || ce.smi_answered || asked_torch {
        return true;
    }
    hit(&CPU_BUILD_BLAMED, &prose) || hit(&GPU_WANTED, &prose)
}

/// An app's own line saying it runs on the CPU ("Using device_type cpu", "Using torch
/// device: CPU", "Device: cpu", "falling back to CPU mode").
static APP_ON_CPU: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?im)\busing (?:torch )?device(?:_type)?:?\s+cpu\b|^\s*device:\s+cpu\b|\bfalling back to cpu\b",
    )
});

/// The fix the paste reports: torch taken out and put back ("pip uninstall torch", "needed
/// to be removed and reinstalled", "reinstall torch with CUDA").
static TORCH_REINSTALL_FIX: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\bpip3? uninstall (?:-y )?(?:py)?torch\b|\b(?:py)?torch\b[^.\n]{0,40}\b(?:removed and reinstalled|uninstalled and reinstalled|needed to be reinstalled)\b|\breinstall(?:ed|ing)? (?:the )?(?:py)?torch\b[^.\n]{0,30}\bcuda\b",
    )
});

/// An NVIDIA GPU in the paste's words ("GPU: cuda", "(Cuda, 1080ti)", "GTX 1060").
static NVIDIA_GPU_WORDS: LazyLock<Option<Regex>> =
    LazyLock::new(|| re(r"(?i)\bnvidia\b|\bcuda\b|\bgeforce\b|\b[gr]tx ?\d{3,4}|\b\d{4} ?ti\b"));

/// An app that says it runs on the CPU, on a machine the paste shows with an NVIDIA GPU,
/// fixed by reinstalling torch: the torch it had was a CPU build.
pub fn app_on_cpu_fixed_by_torch_reinstall(paste: &str, ce: &CollectEnv) -> bool {
    let m = |r: &LazyLock<Option<Regex>>| hit(r, paste);
    ce.cuda_available != Some(true)
        && ce.rocm.is_none()
        && m(&APP_ON_CPU)
        && m(&TORCH_REINSTALL_FIX)
        && (m(&NVIDIA_GPU_WORDS) || ce.driver.is_some())
}

/// A torch build for CUDA named (`2.1.2+cu121`, "with CUDA 1201"): what an extension was
/// built for.
static CUDA_TORCH_NAMED: LazyLock<Option<Regex>> =
    LazyLock::new(|| re(r"(?i)\d\+cu\d{2,3}\b|\bwith CUDA \d{3,5}\b"));

/// Whether the paste shows a CPU-only torch and an extension built for a CUDA torch (the
/// xFormers warning "built for: PyTorch 2.1.2+cu121 ... (you have 2.1.2+cpu)").
pub fn extension_built_for_cuda_on_cpu_torch(paste: &str, ce: &CollectEnv) -> bool {
    ce.torch_cpu_only && hit(&CUDA_TORCH_NAMED, paste)
}

/// An extension's "built for" line: the torch it was compiled against and the one
/// installed ("PyTorch 2.9.0+cu128 with CUDA 1208 (you have 2.10.0+cu128)", xFormers'
/// format, also behind a heading or a log prefix).
static BUILT_FOR_OTHER_TORCH: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\bPyTorch\s+(\d+\.\d+\.\d+\S*)(?:\s+with CUDA\s+\d+)?\s+\(you have\s+(\d+\.\d+\.\d+[^)\s]*)\)",
    )
});

/// The torch an extension was built for and the one installed, where they differ.
pub fn extension_built_for_other_torch(paste: &str) -> Option<(String, String)> {
    BUILT_FOR_OTHER_TORCH
        .as_ref()?
        .captures_iter(paste)
        .filter_map(|c| {
            Some((
                c.get(1)?.as_str().to_string(),
                c.get(2)?.as_str().to_string(),
            ))
        })
        .find(|(built, have)| built != have)
}

/// A CPU build of torch named in words or by conda's build string: "the CPU-version of
/// PyTorch", "installing the `cpu-only` version", "pytorch=1.9.0=py3.8_cpu_0", conda's
/// `cpuonly` / `pytorch-mutex ... cpu` packages.
static CPU_BUILD_SAID: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\bcpu[- ]?only\W{0,2}\s(?:version|build|variant|wheel|package)s?\b|\bcpu[- ](?:version|build|variant|wheel)s? of \W?(?:py)?torch\b|\bpy\d\.\d+_cpu_\d+\b|\bpytorch-mutex\s+\S+\s+cpu\b|\bcpuonly\b|(?:py)?torch\b[^\n]{0,20}安装\s*(?:gpu|cuda)\s*版",
    )
});

/// Words saying the GPU should have been used (or that the machine has one, or a conda
/// install asking for a CUDA toolkit: pytorch/pytorch#23834's plan got a CPU nightly): "my
/// GPU is not available anymore", "My machine has GPU", "GPU
/// not used", "Pytorch not seeing GPU", "torch.cuda.is_available() returning False".
static GPU_WANTED: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\bgpu\b[^.\n]{0,20}\bnot (?:being )?(?:used|available|detected|found|recogni[sz]ed|seen|utili[sz]ed)\b|\bnot (?:seeing|detecting|using|finding) (?:the |my |any )?gpu|\bcuda\.is_available\(\)\W{0,12}(?:returns?|returning|is|gives)?\W{0,4}false\b|\b(?:machine|computer|pc|laptop|server|system|workstation|box)\s+(?:has|have|with)\s+(?:an?\s+)?(?:nvidia\s+)?gpus?\b|\bi have (?:an? )?(?:nvidia )?gpu\b|\bconda install\b[^\n]{0,80}\b(?:cudatoolkit|pytorch-cuda)=\d",
    )
});

/// A sentence that states the driver is too old for what runs on it (the reporter's or a
/// maintainer's diagnosis): "My Nvidia driver is not supported for the pytorch-gpu
/// version", "cuda >9 will cause insufficient driver version error", "You may need to
/// upgrade the driver".
static DRIVER_TOO_OLD_SAID: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\bdrivers?\b[^.\n]{0,60}\b(?:is not supported|not supported for|too old|(?:is|are) outdated|not new enough|does(?:n't| not) support)\b|\bnvidia version\b[^.\n]{0,20}\btoo old\b|\binsufficient driver\b|\b(?:upgrade|update) (?:the|your|to an?)\b[^.\n]{0,30}\bdriver\b|\b(?:needs?|requires?) a newer (?:nvidia )?driver\b|\bdriver\b[^.\n]{0,40}\bbelow the \d{3}\b[^.\n]{0,10}\bminimum\b|\bCUDA \d+(?:\.\d+)? support is (?:required|needed)\b|驱动[^。，,\n]{0,20}(?:太低|太旧|过低|过旧|版本低)|需要[^。\n]{0,12}(?:较新|更新|新版)的?[^。\n]{0,6}驱动",
    )
});

/// A container image named in the paste (its own CUDA then needs the driver).
static CONTAINER_IMAGE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\bnvidia/cuda\b|\bnvcr\.io/|\bdocker (?:run|pull)\b|\bimage\b|\bdocker[- ]compose\b|\bdockerfile\b|\bpodman\b|\bnvidia-container-cli\b|\bcuda containers?\b",
    )
});

/// Whether the paste names a container image (an NGC or CUDA image, docker, podman).
pub fn container_image_named(paste: &str) -> bool {
    hit(&CONTAINER_IMAGE, paste)
}

/// The driver cause a sentence of the paste states: too old for the CUDA of PyTorch (and
/// the frameworks on it) unless the paste shows another CUDA program or a container image,
/// whose own CUDA then needs the newer driver.
pub fn stated_driver_cause(paste: &str, ce: &CollectEnv) -> Option<&'static str> {
    // a hedge between alternatives is no diagnosis: "The driver may be too old for ..., or
    // the install fell back to CPU-only wheels" (an installer listing what it cannot tell
    // apart); "your driver may be too old" alone still is one
    static HEDGED: LazyLock<Option<Regex>> = LazyLock::new(|| {
        re(r"(?i)\b(?:may|might|could) (?:be|have been)\b|\b(?:possibly|perhaps|maybe)\b")
    });
    static ALTERNATIVE: LazyLock<Option<Regex>> =
        LazyLock::new(|| re(r"(?i),? or (?:the|it|you|a|an)\b"));
    let said = DRIVER_TOO_OLD_SAID.as_ref().is_some_and(|r| {
        r.find_iter(paste).any(|m| {
            let rest = &paste[m.end()..];
            let sentence_end = rest.find(['.', '\n']).map_or(rest.len(), |i| i);
            let hedged = HEDGED.as_ref().is_some_and(|h| h.is_match(m.as_str()))
                && ALTERNATIVE
                    .as_ref()
                    .is_some_and(|a| a.is_match(&rest[..sentence_end]));
            !hedged
        })
    });
    if !said {
        return None;
    }
    let image = hit(&CONTAINER_IMAGE, paste);
    Some(
        if program_is_not_pytorch(paste, ce) || (image && ce.torch.is_none()) {
            "driver.too_old_for_toolkit"
        } else {
            "driver.too_old_for_torch"
        },
    )
}

/// A sentence that states the nvidia kernel module is not there or was refused: "the
/// signature check on the Nvidia modules failed", "not loading nvidia/vboxdrv modules",
/// "Kernel update ... breaks Nvidia drivers", "the nvidia module is not loaded", "rebuilding
/// with DKMS the nvidia module fixes the problem".
static MODULE_MISSING_SAID: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\bnvidia\b[^.\n]{0,30}\b(?:kernel )?(?:modules?|\.ko|drivers?)\b[^.\n]{0,30}\b(?:(?:is |are |was |were )?(?:missing|not (?:being )?(?:loaded|loading|built|found|signed))|failed to (?:load|build)|(?:was |were )?(?:refused|rejected))\b|\bsignature check\b[^.\n]{0,30}\bnvidia\b[^.\n]{0,20}\bfailed\b|\bnot loading nvidia\b|\bkernel (?:update|upgrade)\b[^.\n]{0,40}\b(?:breaks?|broke)\b[^.\n]{0,10}\bnvidia\b|\brebuild(?:ing)?\b[^.\n]{0,20}\bdkms\b[^.\n]{0,20}\bnvidia module\b|\bnvidia-smi'?\W{0,2}[^.\n]{0,20}\b(?:returns?|says|reports?|shows?|gives?|prints?)\b[^.\n]{0,12}\bno (?:nvidia )?drivers?\b|\bnvidia-smi\b[^.\n]{0,40}\b(?:message|saying|says|said|complain\w*|tells?)\b[^.\n]{0,20}\b(?:cannot|can't|couldn't|could not|unable to) communicate (?:with|to) (?:the )?(?:nvidia )?driver\b|\b(?:nvidia )?driver (?:is |was |got )?lost after (?:a |the )?(?:reboot|restart|upgrade|update)|\b(?:can't|cannot|can not|couldn't|could not|unable to|won't|doesn't|does not|fail(?:s|ed)? to)\b[^.\n]{0,30}\bload (?:the |any )?nvidia (?:kernel )?(?:modules?|drivers?)\b|\b(?:nvidia[- ])?driver (?:is |was )?not (?:in use|being used|active)\b|\b(?:nvidia |the )?(?:kernel )?(?:driver|module)s? (?:is |are |was |were )?no longer (?:being )?loaded\b|\b(?:after|since) (?:updating|upgrading|an? (?:kernel )?(?:update|upgrade) of) (?:the |my )?kernel\b[^.\n]{0,40}\b(?:no longer|stopped|can't|cannot|can not|doesn't|does not|won't)\b[^.\n]{0,30}\b(?:nvidia|the driver|the gpu)\b",
    )
});

/// A sentence (in any language the parser knows) that states nvidia_uvm is not loaded:
/// "nvidia_uvm is missing from lsmod", "发现nvidia_uvm缺失" (no `\b` before the name: in
/// Unicode a CJK character next to it is a word character too).
static UVM_MISSING_SAID: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)(?:^|[^a-z0-9_])nvidia[_-]uvm(?:\.ko)?(?:[^a-z0-9_.\n][^.\n]{0,12})?(?:\b(?:is |was )?(?:missing|not (?:being )?loaded|absent)\b|缺失|未加载)|\bnot loaded\b[^.\n]{0,12}\bnvidia[_-]uvm\b",
    )
});

/// A sentence saying the machine runs on the open-source driver instead of NVIDIA's: "the
/// system was using the open-source non-proprietary driver", "fell back to nouveau".
static OPEN_DRIVER_SAID: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:using|running on|runs on|fell back to|falls? back to|falling back to)\b[^.\n]{0,30}\b(?:open[- ]source|non-proprietary|nouveau)\b",
    )
});

/// Words saying that installing NVIDIA's driver package fixed it: "install it using the
/// command: sudo apt install nvidia-driver-XXX ... After this, my system came back
/// properly".
static DRIVER_INSTALL_FIXED_SAID: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?is)\b(?:re)?install(?:ed|ing)?\b[^\n]{0,80}\bnvidia[- _]driver\b.{0,300}?\b(?:came back|works? (?:now|again|fine)|fixed (?:it|the)|solved|resolved)\b",
    )
});

/// Words saying CUDA went away after a suspend and reloading nvidia_uvm brought it back: "with
/// suspend - wake cycles, CUDA stops being detected", "sudo modprobe -r nvidia-uvm" given as
/// the solution.
static UVM_RELOAD_FIXED_SAID: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?is)\b(?:solution|fix(?:ed)?|solved|resolved|works? (?:again|now))\b.{0,120}?\b(?:modprobe -r|rmmod)\s+nvidia[-_]uvm\b|\b(?:modprobe -r|rmmod)\s+nvidia[-_]uvm\b.{0,60}?\bmodprobe\s+nvidia[-_]uvm\b.{0,80}?\b(?:fixed|solved|resolved|works?|worked|brought|put)\b[^.\n]{0,40}\b(?:back|again|gpus?|it)\b|\b(?:suspend|sleep|hibernat\w*)\b[^.\n]{0,40}\b(?:wake|waking|resume|resuming)\b[^.\n]{0,30}\b(?:cuda|the gpu)\b[^.\n]{0,30}\b(?:stops?|is not|isn't|not)\b[^.\n]{0,20}\b(?:detected|available|found|working)\b",
    )
});

/// Words saying the driver's device files are missing or created too late: "the creation of
/// the `/dev/nvidia*` device nodes is delayed", "/dev/nvidiactl does not exist".
static DEVICE_NODES_SAID: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)/dev/nvidia(?:\*|\d|ctl|-uvm)?`?[^.\n]{0,30}\b(?:is |are )?(?:missing|absent|delayed|not (?:yet )?(?:created|present)|do(?:es)?(?:n't| not) exist)\b|\b(?:creation|creating) of (?:the )?`?/dev/nvidia[^.\n]{0,40}\b(?:delayed|fails?|failed|late)\b|\bdevice (?:nodes|files)\b[^.\n]{0,30}\b(?:are |is )?(?:missing|not (?:yet )?(?:created|present)|delayed|do(?:es)?(?:n't| not) exist)\b|\bcgroup[_ ]device\b|\bdevice (?:cgroup|filter)s?\b|\bdevices\.(?:allow|deny)\b|\bother users\b[^.\n]{0,30}\b(?:were |are )?(?:able to|can) run nvidia-smi\b",
    )
});

/// Words saying the container was not given the GPUs by the runtime: the pod's runtime
/// class or the engine's default runtime is not NVIDIA's ("the default runtime class is not
/// set to the `nvidia`", "Setting the `runtimeClassName` ... will fix the issue"), or the
/// `nvidia.com/gpu` resource was not requested.
static CONTAINER_RUNTIME_SAID: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:default[- ])?runtime[- ]?class(?:name)?\b`?[^.\n]{0,40}\b(?:not (?:set|configured)|missing|fix(?:es|ed)?|solves?|solved)\b|\bdefault[- ]runtime\b[^.\n]{0,40}\b(?:is not|isn't|wasn't|was not|not set to|not)\b[^.\n]{0,20}\bnvidia\b|\bnvidia\.com/gpu\b[^.\n]{0,40}\b(?:limits?|requests?|resources?)\b[^.\n]{0,40}\b(?:fix(?:es|ed)?|solved|resolved|works?|worked)\b|\b(?:gpu|graphics card) was not (?:correctly |properly )?attached\b|\b(?:doesn't|does not|won't|will not|can't|cannot) (?:work|be used)\b[^.\n]{0,12}\bwith docker desktop\b|\bdocker desktop\b[^.\n]{0,40}\b(?:doesn't|does not|won't|cannot|can't) (?:support|pass|expose|give)\b[^.\n]{0,20}\bgpus?\b|\b(?:add(?:ing|ed)?|set(?:ting)?|pass(?:ing|ed)?)\b[^.\n]{0,20}\bNVIDIA_DRIVER_CAPABILITIES\s*=\s*\W?[a-z,]*\bcompute\b|\bnvidia-container-(?:toolkit|runtime)\b[^.\n]{0,60}\b(?:does not work|doesn't work|has bugs|is broken|was broken)\b|\b(?:NVIDIA|nvidia's) repo\b[^.\n]{0,20}\bfor the nvidia-container-(?:toolkit|runtime)\b",
    )
});

/// Words saying the machine shows fewer GPUs than it has: "it will only report 3 GPUs",
/// "Another GPU seems down", "one of the GPUs disappeared".
static GPU_MISSING_SAID: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\bonly (?:reports?|shows?|lists?|sees?|detects?|finds?|recogni[sz]es?) (?:\d+|one|two|three|four|five|six|seven) (?:of (?:the |my )?\d+ )?GPUs?\b|\b(?:another|one|a) (?:of (?:the |my )?)?GPUs? (?:seems |is |has |was )?(?:down|gone|disappeared|missing|dropped)\b|\bGPUs? (?:maybe |seems |is |are )?missing unexpectedly\b",
    )
});

/// Words saying GPU peer-to-peer over PCIe was broken by the IOMMU / ACS and turning them off
/// fixed it: "Booting the kernel with `intel_iommu=off` resolved all our problems",
/// "disabling ACS", "pci=noacs".
static P2P_IOMMU_SAID: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:intel_iommu|amd_iommu|iommu)=(?:off|pt)\b|\bpci=noacs\b|\b(?:disabl\w*|turn\w* off)\b[^.\n]{0,20}\b(?:ACS|VT-d|IOMMU)\b|\b(?:ACS|VT-d|IOMMU)\b[^.\n]{0,12}\b(?:disabled|off)\b",
    )
});

/// Words saying GPU peer-to-peer cannot be enabled or is not supported between the GPUs:
/// "GPU-P2P can't be enabled in the VM", "the p2p topo as the chipset not supported", CUDA's
/// "peer access is not supported between these two devices".
static P2P_UNSUPPORTED_SAID: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:gpu[- ]?)?p2p\b[^.\n]{0,30}\b(?:can't|cannot|can not|could not|couldn't|isn't|is not|not)\b[^.\n]{0,12}\b(?:be )?(?:enabled|supported|available|work(?:ing)?)\b|\bpeer access is not supported\b|\bchipset not supported\b",
    )
});

/// Words saying the NVSwitches (and so the fabric manager's NVLink fabric) are not there for
/// the GPUs: "the nvswitches can only be passthroughed into a single vm", "the fabric manager
/// is not running".
static FABRIC_SAID: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\bnvswitch(?:es)?\b[^.\n]{0,40}\b(?:only be pass\w*|not pass\w*|cannot be pass\w*|can't be pass\w*|got none|not (?:visible|present|available))\b|\bvms? without nvswitch\b|\bfabric ?manager\b[^.\n]{0,30}\b(?:is not|isn't|was not|wasn't|not)\b[^.\n]{0,12}\b(?:running|installed|started|active)\b|\bfabric ?manager\b[^.\n]{0,30}\bnever reported\b",
    )
});

/// MIG named on the machine: "MIG GPU instances", "MIG enabled", "nvidia-smi -mig 0", a MIG
/// profile ("3g.40gb") or a MIG device UUID.
static MIG_SAID: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\bMIG (?:GPU )?(?:instances?|devices?|mode|slices?|partitions?)\b|\bMIG (?:is |was |are |were )?(?:enabled|on)\b|\b(?:turn(?:ed|ing)? off|disabl(?:e|ed|ing)) MIG\b|\bnvidia-smi -mig\b|\bMIG-[0-9a-f]{8}-|\b[1-7]g\.\d+gb\b",
    )
});

/// What a process sees when MIG hides the GPU or gives it one MIG device: no device, a
/// device count of one, an ordinal past it.
static MIG_SYMPTOM: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)invalid device ordinal|no cuda[- ]capable device|no cuda devices? found|device_count\(\)|device >= 0 && device < num_gpus|only (?:one|1|a single) (?:gpu|device|mig)|\b(?:turn(?:ed|ing)? off|disabl(?:e|ed|ing)) MIG\b[^.\n]{0,60}\b(?:work\w*|fix\w*|solv\w*)\b|\bnvidia-smi -mig 0\b",
    )
});

/// Words saying the GPU's first use is slow ("nvidia-smi takes forever", "the first call to
/// .cuda() takes more than one minute").
static SLOW_START_SAID: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:nvidia-smi|cuda init\w*|gpu init\w*|initiali[sz]ation|first (?:call to |time |run of )?(?:\.cuda\(\)|cuda\b|tensor|call|run|execution))[^\n]{0,40}?\b(?:takes?|took|taking|is|was)\b[^.\n]{0,20}\b(?:forever|ages|a long time|(?:very |extremely |so |really )?slow|(?:more than |over |about |around |several |a few )?(?:\d+|one|two|three|few|several) (?:seconds|minutes?))\b",
    )
});

/// Minutes on the first CUDA call: the driver compiling the program's PTX for a GPU its
/// build has no code for (seconds are the driver's own start-up).
static SLOW_START_MINUTES: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\bfirst (?:call to |time |run of )?(?:\.cuda\(\)|cuda\b|tensor|call|run|execution)[^\n]{0,40}?\b(?:takes?|took|taking)\b[^.\n]{0,20}\b(?:more than |over |about |around |several |a few )?(?:\d+|one|two|three|few|several) minutes?\b",
    )
});

/// The driver's persistence named: the daemon, `nvidia-smi -pm 1`, persistence mode.
static PERSISTENCE_SAID: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(r"(?i)\bnvidia-persistenced\b|\bnvidia-smi -pm 1\b|\bpersistence(?:[- ]mode| daemon)\b")
});

/// The start-up cause a sentence of the paste states: the first CUDA call taking minutes
/// (`torch.ptx_jit_only`: PTX compiled by the driver for a GPU the build lacks), or a slow
/// start with the driver's persistence named (`driver.persistence_off`).
pub fn stated_start_cause(paste: &str) -> Option<&'static str> {
    let said = |r: &LazyLock<Option<Regex>>| hit(r, paste);
    if said(&SLOW_START_MINUTES) {
        return Some("torch.ptx_jit_only");
    }
    (said(&SLOW_START_SAID) && said(&PERSISTENCE_SAID)).then_some("driver.persistence_off")
}

/// The host-side cause a sentence of the paste states: the container runtime not giving the
/// GPUs (`host.container_no_gpu`), a GPU gone from the machine (`gpu.missing`), MIG giving
/// the process no GPU or one MIG device (`gpu.mig_enabled`), the NVSwitch fabric missing
/// (`driver.fabric_manager`), PCIe P2P broken by the IOMMU or ACS or not supported
/// (`probe.p2p`).
pub fn stated_host_cause(paste: &str) -> Option<&'static str> {
    let said = |r: &LazyLock<Option<Regex>>| hit(r, paste);
    if said(&CONTAINER_RUNTIME_SAID) {
        return Some("host.container_no_gpu");
    }
    if said(&GPU_MISSING_SAID) {
        return Some("gpu.missing");
    }
    if said(&MIG_SAID) && said(&MIG_SYMPTOM) {
        return Some("gpu.mig_enabled");
    }
    if said(&FABRIC_SAID) {
        return Some("driver.fabric_manager");
    }
    (said(&P2P_IOMMU_SAID) || said(&P2P_UNSUPPORTED_SAID)).then_some("probe.p2p")
}

/// In a container or pod, CUDA's "driver version is insufficient" where the host's driver
/// the paste shows is as new as every CUDA the paste names: libcudart says that when no
/// libcuda was injected at all, so the container was not given the driver.
pub fn insufficient_driver_in_container_without_gpus(paste: &str, ce: &CollectEnv) -> bool {
    static INSUFFICIENT: LazyLock<Option<Regex>> = LazyLock::new(|| {
        re(
            r"(?i)CUDA driver version is insufficient for CUDA runtime version|cudaErrorInsufficientDriver",
        )
    });
    static POD: LazyLock<Option<Regex>> = LazyLock::new(|| {
        re(
            r"(?i)\bk8s\b|\bkubernetes\b|\bkubectl\b|\bk3s\b|\bpods?\b|\bcontainers?\b|\bdocker\b|\bpodman\b",
        )
    });
    static REQUIREMENT: LazyLock<Option<Regex>> =
        LazyLock::new(|| re(r"(?i)unsatisfied condition: cuda|requirement error"));
    let m = |r: &LazyLock<Option<Regex>>| hit(r, paste);
    let mm = |v: &str| crate::version::DottedVersion::parse(v).map(|d| (d.major(), d.minor()));
    let Some(host) = ce.driver_cuda.as_deref().and_then(mm) else {
        return false;
    };
    let newer_named = [
        &ce.image_cuda,
        &ce.torch_cuda,
        &ce.cuda_runtime,
        &ce.cuda_mentioned,
    ]
    .iter()
    .filter_map(|v| v.as_deref().and_then(mm))
    .any(|v| v > host);
    m(&INSUFFICIENT)
        && m(&POD)
        && !m(&REQUIREMENT)
        && !newer_named
        && !container_started_with_gpus(paste)
}

/// Words saying that taking nouveau out of the way fixed it: "Installation has been
/// successfully completed after disabling nouveau", "blacklisting nouveau solved it".
static NOUVEAU_OFF_FIXED_SAID: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:after|by|once|when)\s+(?:disabling|blacklisting|removing|unloading)\b[^.\n]{0,20}\bnouveau\b|\b(?:disabl|blacklist|unload)(?:ed|ing)?\b[^.\n]{0,20}\bnouveau\b[^.\n]{0,60}\b(?:fixed|solved|resolved|works? now|worked|completed successfully|did the trick|succe(?:ss|eds?|eded|ssful(?:ly)?))\b",
    )
});

/// Whether a sentence of the paste says the machine runs on the open-source driver.
pub fn says_open_driver_in_use(text: &str) -> bool {
    hit(&OPEN_DRIVER_SAID, text)
}

/// The driver-module cause a sentence of the paste states: nvidia_uvm missing
/// (`driver.uvm_unavailable`), the open-source driver in use (`driver.not_installed` when
/// installing NVIDIA's fixed it, else `driver.nouveau_loaded`), or the nvidia module itself
/// not loaded or refused (`driver.module_not_loaded`).
pub fn stated_module_cause(paste: &str) -> Option<&'static str> {
    if hit(&UVM_MISSING_SAID, paste) || hit(&UVM_RELOAD_FIXED_SAID, paste) {
        return Some("driver.uvm_unavailable");
    }
    // the device nodes said missing or late: the module may be loaded, /dev/nvidia* is not there
    if hit(&DEVICE_NODES_SAID, paste) {
        return Some("driver.device_nodes");
    }
    // nouveau taken out of the way fixed it: nouveau held the GPU
    if hit(&NOUVEAU_OFF_FIXED_SAID, paste) {
        return Some("driver.nouveau_loaded");
    }
    // on the open-source driver: NVIDIA's was missing when installing it fixed the machine,
    // else nouveau holds the GPU
    if says_open_driver_in_use(paste) {
        let installed_fixed = hit(&DRIVER_INSTALL_FIXED_SAID, paste);
        return Some(if installed_fixed {
            "driver.not_installed"
        } else {
            "driver.nouveau_loaded"
        });
    }
    hit(&MODULE_MISSING_SAID, paste).then_some("driver.module_not_loaded")
}

/// A sentence saying PyTorch (its builds) dropped or lacks support for the GPU's
/// architecture: "PyTorch no longer supports compute capability 3.0", "PyTorch官方自1.3版本后停止支持".
static TORCH_ARCH_DROPPED_SAID: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:py)?torch\b[^.\n]{0,40}\b(?:no longer supports?|dropped (?:the )?support|stopped supporting|(?:does(?:n't| not)|did not) support)\b[^.\n]{0,40}(?:compute capability|capabilit|\bsm_\d|architecture|\bcc \d|\bgpus?\b|\bcard|kepler|maxwell|pascal|volta)|pytorch[^。\n]{0,20}(?:停止支持|不再支持)",
    )
});

/// A sentence setting the system's CUDA beside the one torch was built with: "Your system
/// version is 11.7 but the version that pytorch was compiled with is 12.1" (a maintainer's
/// reading of DeepSpeed's op-builder error), "nvcc is 12.1 while torch was built with 11.8".
static TOOLKIT_TORCH_SAID: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:system|installed|local|nvcc|toolkit)\b[^.\n]{0,30}?\b(?:is|=|:)\s*(?:cuda\s*)?(\d{1,2})\.\d+\b[^.\n]{0,60}?\b(?:py)?torch\b[^.\n]{0,30}?\b(?:compiled|built)\b[^.\n]{0,20}?\b(\d{1,2})\.\d+\b",
    )
});

/// The toolkit cause a sentence of the paste states: the system's CUDA and torch's build
/// CUDA of another major (`toolkit.torch_mismatch`).
pub fn stated_toolkit_cause(paste: &str) -> Option<&'static str> {
    let r = TOOLKIT_TORCH_SAID.as_ref()?;
    r.captures_iter(paste)
        .any(|c| c.get(1).map(|m| m.as_str()) != c.get(2).map(|m| m.as_str()))
        .then_some("toolkit.torch_mismatch")
}

/// The same said of another CUDA program or its wheels: "JAX no longer supports Kepler GPUs
/// in the wheels we release", "vLLM does not support compute capability 6.0".
static PROGRAM_ARCH_DROPPED_SAID: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:jax|jaxlib|tensorflow|vllm|sglang|sgl[-_]kernel|flash[- ]?infer|xformers|flash[- ]?attn|flash[- ]?attention\d?|bitsandbytes|llama\.cpp|ggml|ollama|triton|deepspeed|cupy|onnxruntime|paddle(?:paddle)?|mxnet|tensorrt)\b[^.\n]{0,40}\b(?:(?:removed|dropped)\b[^.\n]{0,20}(?:\bsm_?\d{2,3}\b|\bcompute capability\b|\bkepler\b|\bmaxwell\b|\bpascal\b|\bvolta\b)|(?:no longer supports?|dropped (?:the )?support|stopped supporting|(?:does(?:n't| not)|did not|won't|will not) support)\b[^.\n]{0,40}(?:compute capability|capabilit|\bsm_\d|architecture|\bcc \d|\bgpus?\b|\bcards?\b|kepler|maxwell|pascal|volta)|(?:only supports?|(?:is |are )?(?:compiled|built) only for|(?:is |are )?only (?:compiled|built) for|not support(?:ed)? (?:for|on))\s+(?:the\s+)?(?:gpus? (?:of |with )?)?(?:compute capability\s*|cc\s*)?(?:sm\s?_?\d{2,3}|\d\.\d)\b)",
    )
});

/// An app's own log or its users saying the GPU's architecture is not among the build's
/// compiled ones: Ollama's "skipping CUDA device — compute capability not in compiled
/// architectures", "archs missing 860 in compiled architectures", "RTX 3060 Laptop (sm_86)
/// skipped", "CUDA GPU is too old. Falling back to CPU mode. Compute Capability detected".
static BUILD_LACKS_ARCH_SEEN: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\bnot in (?:the )?compiled (?:cuda )?arch(?:itecture)?s\b|\barchs?\b[^.\n]{0,20}\bmissing\b[^.\n]{0,10}\b(?:sm_?)?\d{2,3}\b[^.\n]{0,10}\bcompiled\b|\bmissing (?:sm_?)?\d{2,3}\b[^.\n]{0,10}\bcompiled arch|\bskipp(?:ed|ing)\b[^.\n]{0,60}\bcompiled arch|\(sm_\d{2,3}\)\s+(?:is\s+)?skipped\b|\bcuda gpu is too old\b[^\n]{0,60}\bcompute capability\b",
    )
});

/// PyTorch's own warning that a GPU has no kernels in the build: "NVIDIA GeForce RTX 5070
/// Ti with CUDA capability sm_120 is not compatible with the current PyTorch installation",
/// and its last line, which it prints only then: "If you want to use the NVIDIA GeForce RTX
/// 5070 Ti GPU with PyTorch, please check the instructions at
/// https://pytorch.org/get-started/locally/".
static TORCH_ARCH_WARNING: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\bwith CUDA capability sm_\d+ is not compatible with the current PyTorch installation\b|\bIf you want to use the .{3,80} GPU with PyTorch, please check the instructions at\b",
    )
});

/// The build cause a sentence of the paste states: PyTorch lacks the GPU's architecture.
/// Another program's builds lacking it are that program's kernels (`ext.arch_unsupported`).
pub fn stated_arch_cause(paste: &str) -> Option<&'static str> {
    if hit(&TORCH_ARCH_DROPPED_SAID, paste) || hit(&TORCH_ARCH_WARNING, paste) {
        return Some("torch.arch_unsupported");
    }
    if hit(&PROGRAM_ARCH_DROPPED_SAID, paste) || hit(&BUILD_LACKS_ARCH_SEEN, paste) {
        return Some("ext.arch_unsupported");
    }
    // said of no program by name: the program the paste shows
    hit(&CAPABILITY_UNSUPPORTED_SAID, paste).then(|| {
        if hit(&PYTORCH_SHOWN, paste) {
            "torch.arch_unsupported"
        } else {
            "ext.arch_unsupported"
        }
    })
}

/// A sentence saying a compute capability is not supported, of whatever program: "The GTX 950
/// is a Compute Capability 5.2 card, which is not currently supported by our build"
/// (ollama/ollama#1877), "Darknet doesn't support CC 2.1" (AlexeyAB/darknet#804). A minimum
/// alone ("requires compute capability 7.0") is not: it says nothing of the GPU at hand.
static CAPABILITY_UNSUPPORTED_SAID: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:compute capability|\bcc)\s*(?:of\s+)?\d\.\d\b[^.\n]{0,40}\b(?:is |are )?not (?:currently |yet |longer )?supported\b|\b(?:doesn't|does not|don't|do not|no longer) support\w*\s+(?:gpus? (?:of |with )?)?(?:compute capability|cc)\s*\d\.\d\b",
    )
});

/// The torch distributions a pip/conda listing can hold side by side.
const TORCH_DISTRIBUTIONS: &[&str] = &[
    "torch",
    "torch-nightly",
    "pytorch",
    "pytorch-nightly",
    "pytorch-cpu",
    "torch-cpu",
];

/// A package-list line of a torch distribution: pip freeze (`torch==2.0.1`), pip list
/// (`torch  2.0.1`), conda list (`pytorch  0.4.1  py37_cuda0.0_cudnn0.0_1  pytorch`), with
/// or without collect_env's `[pip3]` / `[conda]` prefix.
static TORCH_LISTED: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?m)^[ \t>]*(?:\[(?:pip|conda)\d?\][ \t]+)?(torch|torch-nightly|pytorch|pytorch-nightly|pytorch-cpu|torch-cpu)(?:==([0-9][\w.+]*)|[ \t]+([0-9][\w.+]*)(?:[ \t]+\S+){0,2})[ \t]*$",
    )
});

/// Two torch installs the paste's package lists show (different versions under the torch
/// distribution names, e.g. `torch 0.4.1.post2` and `torch-nightly 1.0.0.dev20181029`), as
/// "name version" pairs; empty when there is one.
pub fn torch_installs(ce: &CollectEnv, paste: &str) -> Vec<String> {
    let mut seen: Vec<(String, String)> = Vec::new();
    let listed_lines: Vec<(String, String)> = TORCH_LISTED
        .as_ref()
        .map(|r| {
            r.captures_iter(paste)
                .filter_map(|c| {
                    let name = c.get(1)?.as_str().to_string();
                    let version = c.get(2).or_else(|| c.get(3))?.as_str().to_string();
                    Some((name, version))
                })
                .collect()
        })
        .unwrap_or_default();
    let listed = ce
        .pip
        .iter()
        .map(|(n, v)| (n.clone(), v.clone()))
        .chain(ce.conda.iter().map(|(n, (v, _))| (n.clone(), v.clone())))
        .chain(listed_lines);
    for (name, version) in listed {
        if !TORCH_DISTRIBUTIONS.contains(&name.as_str()) {
            continue;
        }
        // "2.0.1+cu117" (pip) and "2.0.1" (conda) are one install seen twice
        let base = version
            .split('+')
            .next()
            .unwrap_or(&version)
            .trim()
            .to_string();
        if base.is_empty() || !base.starts_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        if !seen.iter().any(|(_, b)| *b == base) {
            seen.push((format!("{name} {version}"), base));
        }
    }
    if seen.len() > 1 {
        seen.into_iter().map(|(n, _)| n).collect()
    } else {
        Vec::new()
    }
}

/// Words saying the failure is a regression of the program itself: a bisected "First Bad
/// Commit", "does not happen on any commits previous to", "worked with the previous
/// version", "downgrading to 0.5.7 fixes it".
static REGRESSION_SAID: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\bfirst bad commit\b|\bdoes(?:n't| not) happen\b[^.\n]{0,30}\b(?:commits?|versions?|releases?|builds?)\b[^.\n]{0,12}\b(?:previous|prior|before|older)\b|\b(?:worked|works|was working)\b[^.\n]{0,20}\b(?:with|on|in)\b[^.\n]{0,8}\b(?:the )?(?:previous|older|earlier|last) (?:version|release|commit|build)\b|\bdowngrad(?:e|ed|ing)\b[^\n]{0,40}?\b(?:fix(?:es|ed)?|solves?|solved|works?|worked)\b|\bis a regression\b|\bwith (?:version |release |build )?[vb]?\d[\w.]*,? it works\b|\b(?:newer|later|latest|next) (?:version|release|build)\b[^.\n]{0,20}\b(?:works|worked|fixe[sd])\b|(?m:^\s*b\d{3,5}\s*(?:works|worked|fixed it|可以了|没问题|正常))",
    )
});

/// The Python a traceback or warning ran in, from its site-packages path
/// ("/opt/conda/lib/python3.9/site-packages/torch/cuda/__init__.py").
static SITE_PACKAGES_PYTHON: LazyLock<Option<Regex>> =
    LazyLock::new(|| re(r"(?i)[/\\]python(3\.\d{1,2})[/\\](?:site|dist)-packages[/\\]"));

/// Whether the interpreter that reported on CUDA (its version from a REPL banner or
/// collect_env) is none of those the paste's tracebacks ran in: a host's `python` beside a
/// container's log answers for another process than the one that failed.
pub fn answer_from_other_python(paste: &str, ce: &CollectEnv) -> bool {
    let Some(asked) = ce.python.as_deref().and_then(|v| {
        let mut parts = v.trim().split('.');
        let major = parts.next()?;
        let minor = parts.next()?.split(|c: char| !c.is_ascii_digit()).next()?;
        Some(format!("{major}.{minor}"))
    }) else {
        return false;
    };
    let Some(r) = SITE_PACKAGES_PYTHON.as_ref() else {
        return false;
    };
    let ran: BTreeSet<&str> = r
        .captures_iter(paste)
        .take(256)
        .filter_map(|c| c.get(1).map(|m| m.as_str()))
        .collect();
    !ran.is_empty() && !ran.contains(asked.as_str())
}

/// torch's own CUDA initialisation failing in the paste's traceback: `_cuda_init()` raising,
/// or its "CUDA unknown error" / "Found no NVIDIA driver" messages.
static TORCH_INIT_FAILED: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"torch\._C\._cuda_init\(\)\s*\n[^\n]{0,80}RuntimeError|CUDA unknown error - this may be due to an incorrectly set up environment|Found no NVIDIA driver on your system",
    )
});

/// Whether the paste shows torch failing to initialise CUDA: a "CUDA available" answer in
/// the same paste then came from another process (another interpreter, another moment),
/// not from the one that failed.
pub fn torch_init_failure_seen(paste: &str) -> bool {
    hit(&TORCH_INIT_FAILED, paste)
}

/// Whether a sentence of the paste says the failure came with a new version of the program
/// (an older commit, version or release works).
pub fn says_regression(paste: &str) -> bool {
    hit(&REGRESSION_SAID, paste)
}

/// Words saying PyTorch itself was compiled from source: "compiled pytorch v1.11.0 from
/// source", "torch built from source".
static TORCH_FROM_SOURCE_SAID: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:compiled|built|build|building)\s+(?:py)?torch\b[^\n]{0,40}?\bfrom source\b|\b(?:py)?torch\b[^.\n]{0,30}\b(?:compiled|built) from (?:the )?source\b",
    )
});

/// A prebuilt wheel of a compiled torch extension installed: "pip install
/// mmcv-full==1.7.0 -f https://.../torch1.11/index.html", "installed mmcv-full from pip
/// wheels", "pip install flash_attn-2.5.5+cu118torch2.2...whl".
static PREBUILT_EXTENSION: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\bpip3? install\b[^\n]{0,40}\b(?:mmcv(?:-full)?|flash[-_]attn|xformers|detectron2|torch[-_]scatter|torch[-_]sparse|pytorch3d|apex)\b[^\n]*(?:\s-f\s|--find-links|--extra-index-url|--index-url|\.whl\b)|\b(?:mmcv(?:-full)?|flash[-_]attn|xformers|detectron2)\b[^.\n]{0,20}\bfrom (?:pip )?wheels?\b",
    )
});

/// Whether the paste shows a prebuilt extension wheel on a PyTorch compiled from source:
/// the wheel was built against the official build, whose symbols a source build need not
/// export alike.
pub fn prebuilt_extension_on_source_torch(paste: &str) -> bool {
    hit(&TORCH_FROM_SOURCE_SAID, paste) && hit(&PREBUILT_EXTENSION, paste)
}

/// A program's CUDA 13 build named in the paste: "the cuda13 images", "cuda_v13", "CUDA 13
/// wheels", "cu130" (not nvidia-smi's "CUDA Version: 13.0", the driver's API level).
static CUDA13_BUILD: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\bcuda[ _-]?v?13(?:\.\d)?[ _-]?(?:images?|containers?|builds?|wheels?|backends?|binar(?:y|ies)|variants?|librar(?:y|ies)|tags?|versions? of)\b|\b(?:images?|containers?|wheels?|builds?|backends?)\b[^.\n]{0,12}\b(?:for |with )?cuda[ _-]?v?13\b|\bcuda_v13\b|(?:^|[^\w.])cu13\d\b",
    )
});

/// Whether the paste names a CUDA 13 build of a program (its kernels start at sm_75).
pub fn names_cuda13_build(paste: &str) -> bool {
    hit(&CUDA13_BUILD, paste)
}

/// Causes a second torch install explains: symbols that do not match, the wrong copy of a
/// library loaded, an extension built against the other one.
pub const MIXED_INSTALL_SYMPTOMS: &[&str] = &[
    "ext.abi_mismatch",
    "torch.libs_shadowed",
    "torch.wheel_deps_mismatch",
    "workload.library_bug",
];

/// A container started with the GPUs (`nvidia-docker`, `--gpus`, `--runtime=nvidia`): a
/// "container without GPUs" reading is contradicted.
static CONTAINER_WITH_GPUS: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(r"(?i)\bnvidia-docker\b|--gpus[= ]|--runtime[= ]nvidia\b|--device[= ]nvidia\.com/gpu")
});

/// A command line that starts a container: `docker run`, `docker container create`,
/// `nvidia-docker run`, `podman run`, `nerdctl run`.
static CONTAINER_STARTED: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(r"(?im)^.*\b(?:(?:nvidia-)?docker|podman|nerdctl)\s+(?:container\s+)?(?:run|create)\b.*$")
});

/// The paste says no container engine is installed ("Docker detected (0 means not
/// installed): 0", "docker is not installed"): it ran on the host (NVIDIA/data-science-stack
/// #90).
static NO_CONTAINER_ENGINE_SAID: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:docker|podman)\b[^\n]{0,40}\(0 means not installed\)\W{0,3}0\b|\b(?:docker|podman)\b (?:is |was )?not (?:installed|present)\b",
    )
});

/// Whether the paste says no container engine is installed where it ran.
pub fn no_container_engine(paste: &str) -> bool {
    hit(&NO_CONTAINER_ENGINE_SAID, paste)
}

/// A line that starts a container as the fix, not as what the reporter ran ("Solved, had to
/// use nvidia-docker run", "you should run it with nvidia-docker", "Instead of: docker run").
static START_AS_FIX: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:solved|fixed|had to|have to|instead of|you (?:should|need|can|must)|should (?:use|run)|try (?:to )?(?:use|run)|works? (?:now|after)|worked)\b",
    )
});

/// Whether the paste shows its container started with the GPUs. The first command that
/// starts a container is the reporter's own: one without the GPUs there is not answered by a
/// helper's `docker run --gpus all ...` further down (anibali/docker-pytorch#27). Where that
/// first mention is already the fix ("Solved, had to use nvidia-docker run"), the failing
/// start lacked what the fix adds (pytorch/pytorch#3221).
pub fn container_started_with_gpus(paste: &str) -> bool {
    let first_start = CONTAINER_STARTED
        .as_ref()
        .and_then(|r| r.find(paste))
        .map(|m| m.as_str());
    let with_gpus = match first_start {
        Some(line) if hit(&START_AS_FIX, line) => false,
        Some(line) => hit(&CONTAINER_WITH_GPUS, line),
        None => hit(&CONTAINER_WITH_GPUS, paste),
    };
    with_gpus && !hit(&RUNTIME_COULD_NOT_INJECT, paste)
}

/// The engine could not give the container the GPUs it asked for: the CDI spec does not
/// resolve the device (missing, unreadable to a rootless user, stale), no runtime answers
/// the GPU request, or the toolkit cannot use the host's cgroups (v2 before toolkit 1.8). The `--gpus` / `--device nvidia.com/gpu` it was started with is
/// then what failed, not evidence that it has them.
static RUNTIME_COULD_NOT_INJECT: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\bunresolvable CDI devices?\b|\bfailed to inject CDI devices\b|\bcould not select device driver\b|\bunknown or invalid runtime name: nvidia\b|\bcgroup subsystem devices not found\b",
    )
});

/// Signs that PyTorch is the program: its package, its modules in a traceback, its name.
static PYTORCH_SHOWN: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)pytorch|site-packages[/\\]torch\b|\bimport torch\b|\btorch\.(?:cuda|nn|utils|version|_C)\b|\btorch[/\\](?:cuda|nn|utils|lib)\b|\btorch[=\s]=?\s*\d|\btorch\s+\d+\.\d+",
    )
});

/// A CUDA program other than PyTorch named as the one failing: Lua torch (cutorch),
/// Caffe, TensorFlow, DALI, ONNX Runtime, llama.cpp/ggml, the CUDA samples, Julia, CuPy,
/// Numba, JAX, MXNet, the gradient-boosting libraries, MATLAB, hashcat, a C++ server
/// logging through glog ("I20231129 08:13:34.992501     7 main.cpp:135] Using devices").
static OTHER_CUDA_PROGRAM: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\bcutorch\b|\bluajit\b|\bcaffe\b|\btensorflow\b|\bpaddle(?:paddle)?\b|\bnvidia\.dali\b|\bdali\b|\bonnxruntime\b|\bllama\.cpp\b|\bllama[-_]cpp(?:[-_]python)?\b|\bllama-(?:server|cli|bench)\b|\bgguf\b|--gpulayers\b|--n-gpu-layers\b|\bn_gpu_layers\b|\bggml\b|\bollama\b|\bctransformers\b|\bwhisper\.cpp\b|\bkoboldcpp\b|\bllamafile\b|\btritonserver\b|\bdeviceQuery\b|\bCUDA\.jl\b|\bjulia\b|\bCUDA(?:native|drv)\b|\bcupy\b|\bnumba\b|\bjaxlib\b|\bmxnet\b|\bcatboost\b|\bxgboost\b|\bmatlab\b|\bhashcat\b|(?m:^[IWEF]20\d{6} \d{2}:\d{2}:\d{2}\.\d+\s+\d+ [\w./-]+\.(?:cpp|cc|cu):\d+\])",
    )
});

/// TensorFlow's tested GPU builds (tensorflow.org/install/source#gpu, "Tested build
/// configurations"): the release, the CUDA it was built with, the cuDNN major it loads
/// (`libcudnn.so.N`). Releases up to 2.13 load the machine's CUDA and cuDNN libraries by
/// those names; later ones bring theirs as pip packages (`tensorflow[and-cuda]`), so a
/// system toolkit beside them says nothing.
const TF_BUILDS: &[(&str, &str, u32)] = &[
    ("1.5", "9.0", 7),
    ("1.6", "9.0", 7),
    ("1.7", "9.0", 7),
    ("1.8", "9.0", 7),
    ("1.9", "9.0", 7),
    ("1.10", "9.0", 7),
    ("1.11", "9.0", 7),
    ("1.12", "9.0", 7),
    ("1.13", "10.0", 7),
    ("1.14", "10.0", 7),
    ("1.15", "10.0", 7),
    ("2.0", "10.0", 7),
    ("2.1", "10.1", 7),
    ("2.2", "10.1", 7),
    ("2.3", "10.1", 7),
    ("2.4", "11.0", 8),
    ("2.5", "11.2", 8),
    ("2.6", "11.2", 8),
    ("2.7", "11.2", 8),
    ("2.8", "11.2", 8),
    ("2.9", "11.2", 8),
    ("2.10", "11.2", 8),
    ("2.11", "11.2", 8),
    ("2.12", "11.8", 8),
    ("2.13", "11.8", 8),
];

/// A TensorFlow release named beside a cuDNN or CUDA it was not built with: TF 2.3 (cuDNN 7,
/// CUDA 10.1) with cuDNN 8.0.4 cannot open `libcudnn.so.7`, with CUDA 10.2 not
/// `libcudart.so.10.1` (before CUDA 11 the minor is part of the library's name). Returns
/// the summary.
pub fn tensorflow_libs_mismatch(ce: &CollectEnv) -> Option<String> {
    let tf = [
        "tensorflow",
        "tensorflow-gpu",
        "tf-nightly",
        "tf-nightly-gpu",
    ]
    .iter()
    .find_map(|k| ce.pip.get(*k).or_else(|| ce.conda.get(*k).map(|(v, _)| v)))?;
    let mut parts = tf.split('.');
    let release = format!("{}.{}", parts.next()?, parts.next()?);
    let &(_, cuda, cudnn) = TF_BUILDS.iter().find(|(r, _, _)| *r == release)?;
    let major = |v: &str| v.split('.').next().and_then(|m| m.parse::<u32>().ok());
    let minor2 = |v: &str| {
        let mut p = v.split('.');
        Some(format!("{}.{}", p.next()?, p.next()?))
    };
    if let Some(have) = ce
        .cudnn
        .as_deref()
        .filter(|c| major(c).is_some_and(|m| (5..=10).contains(&m)))
    {
        if major(have) != Some(cudnn) {
            return Some(format!(
                "TensorFlow {tf} was built with cuDNN {cudnn} and loads libcudnn.so.{cudnn}, but the paste shows cuDNN {have}: install the cuDNN {cudnn} its tested build needs (or the TensorFlow release built for cuDNN {})",
                major(have).unwrap_or(0)
            ));
        }
    }
    if let Some(have) = ce.cuda_runtime.as_deref() {
        let differs = if major(cuda).is_some_and(|m| m < 11) {
            minor2(have).is_some_and(|h| h != cuda)
        } else {
            major(have).is_some_and(|h| Some(h) != major(cuda))
        };
        if differs {
            return Some(format!(
                "TensorFlow {tf} was built with CUDA {cuda} and loads that release's libraries by name, but the paste shows CUDA {have}: install the CUDA {cuda} its tested build needs (or the TensorFlow release built for CUDA {have})"
            ));
        }
    }
    None
}

/// Whether the program that failed is a CUDA program other than PyTorch, and the paste
/// shows no PyTorch at all: torch's own causes (its build's CUDA, its arch list) then read
/// as that program's toolkit and kernels.
pub fn program_is_not_pytorch(paste: &str, ce: &CollectEnv) -> bool {
    ce.torch.is_none()
        && !ce
            .pip
            .keys()
            .chain(ce.conda.keys())
            .any(|n| TORCH_DISTRIBUTIONS.contains(&n.as_str()))
        && hit(&OTHER_CUDA_PROGRAM, paste)
        && !hit(&PYTORCH_SHOWN, paste)
}

/// CUDA's status 200 in its words or names: "device kernel image is invalid",
/// `CUDA_ERROR_INVALID_IMAGE`, `cudaErrorInvalidKernelImage`.
static INVALID_KERNEL_IMAGE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\bdevice kernel image is invalid\b|\bCUDA_ERROR_INVALID_IMAGE\b|\bcudaErrorInvalidKernelImage\b",
    )
});

/// Whether the paste shows CUDA's "device kernel image is invalid".
pub fn invalid_kernel_image_seen(paste: &str) -> bool {
    hit(&INVALID_KERNEL_IMAGE, paste)
}

/// A requirement the paste quotes for the software in use: "which requires NVIDIA Driver
/// release 470 or later" (NGC release notes), "built for NVIDIA Driver Release 450.51 or
/// later" (NGC banners), "requires driver 550 or newer". The highest branch named.
static DRIVER_REQUIRED: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:requires?|built for|needs?)\s+(?:an?\s+)?(?:NVIDIA\s+)?driver\s+(?:release\s+|version\s+|branch\s+)?(\d{3})(?:\.\d{1,3}){0,2}\+?\s+(?:or|and)\s+(?:later|newer|above|higher)\b",
    )
});

/// The driver branch the paste quotes as required, where it is above the driver the paste
/// shows: (required, shown).
pub fn driver_below_stated_requirement(paste: &str, ce: &CollectEnv) -> Option<(u32, u32)> {
    let have: u32 = ce.driver.as_deref()?.split('.').next()?.parse().ok()?;
    let need = DRIVER_REQUIRED
        .as_ref()?
        .captures_iter(paste)
        .filter_map(|c| c.get(1)?.as_str().parse::<u32>().ok())
        .max()?;
    (have < need).then_some((need, have))
}

/// A program that lists the CUDA device itself ("CUDA0: NVIDIA GeForce RTX 4090 Laptop GPU
/// (16375 MiB, 15046 MiB free)", "ggml_cuda_init: found 1 CUDA devices") and in the same
/// paste says it found no usable GPU or was built without GPU support: the program
/// contradicts what it saw (its own bug), not the machine.
static PROGRAM_LISTS_CUDA_DEVICE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(r"(?m)^\s*CUDA\d+: \S[^\n]{2,80}\(\d+ MiB|\bggml_cuda_init: found [1-9]\d* CUDA devices?\b")
});
static PROGRAM_SAYS_NO_GPU: LazyLock<Option<Regex>> =
    LazyLock::new(|| re(r"(?i)\bno usable GPU found\b|\bcompiled without GPU support\b"));

/// Whether the paste shows a program listing its CUDA device and also saying it has no
/// usable GPU.
pub fn program_contradicts_its_devices(paste: &str) -> bool {
    let m = |r: &LazyLock<Option<Regex>>| hit(r, paste);
    m(&PROGRAM_LISTS_CUDA_DEVICE) && m(&PROGRAM_SAYS_NO_GPU)
}

/// Words saying the model needs more GPU memory than the card has: "you need 53GB of VRAM.
/// Since your GPU only has 24GB", "the model does not fit in VRAM", "not enough VRAM for
/// the model".
static MODEL_TOO_BIG_SAID: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:you )?needs? (?:about |around |at least )?\d+(?:\.\d+)? ?GB of (?:V?RAM|GPU memory)\b[^\n]{0,60}\b(?:gpu|card)\b[^.\n]{0,10}\bonly has \d+|\b(?:model|it)\b[^.\n]{0,30}\b(?:does(?:n't| not)|won't|will not|can't|cannot) fit (?:in|into) (?:the |your |my )?(?:V?RAM|GPU(?: memory)?)\b|\bnot enough VRAM for (?:the|this|that) model\b",
    )
});

/// Whether the paste says the model needs more GPU memory than the card has.
pub fn model_too_big_said(paste: &str) -> bool {
    hit(&MODEL_TOO_BIG_SAID, paste)
}

/// A CUDA library a program asks for by its versioned name and cannot find: "Could not
/// locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!" (CTranslate2),
/// "Library cublas64_11.dll is not found or cannot be loaded", "Could not load library
/// libcudnn_ops_infer.so.8": the build wants another major of cuDNN / cuBLAS than the
/// environment provides.
static VERSIONED_CUDA_LIB_MISSING: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:could not (?:locate|load library|load)|unable to load|library)\s+(?:lib)?(?:cudnn|cublas|cublaslt|cufft|curand|cusparse|cudart|nvrtc)\w*?(?:64_\d+\.dll|\.so\.\d+)\b[^\n]{0,60}\b(?:not found|cannot be loaded|library path|no such file)",
    )
});

/// Whether the paste shows a program missing a CUDA library it wants by a versioned name.
pub fn versioned_cuda_library_missing(paste: &str) -> bool {
    hit(&VERSIONED_CUDA_LIB_MISSING, paste)
}

/// A launcher's configuration the paste shows (Hugging Face Accelerate's `accelerate env`
/// "default config" block or its YAML): "use_cpu: True" runs every process it starts on the
/// CPU; "gpu_ids" is copied into the started processes' CUDA_VISIBLE_DEVICES, so a value
/// CUDA cannot read as device ids ("[3,4,5]", "'[1,2,3,4]'", "All": only "all" is special)
/// hides every GPU from them.
static LAUNCHER_USE_CPU: LazyLock<Option<Regex>> =
    LazyLock::new(|| re(r"(?im)^\s*(?:[-*]\s*)?use_cpu:\s*true\s*$"));
static LAUNCHER_GPU_IDS: LazyLock<Option<Regex>> =
    LazyLock::new(|| re(r"(?m)^\s*(?:[-*]\s*)?gpu_ids:\s*(\S[^\n]*?)\s*$"));
/// Accelerate's launcher named: its config block's keys, its commands.
static ACCELERATE_NAMED: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r"(?im)\baccelerate (?:launch|config|env)\b|`accelerate` default config|^\s*(?:[-*]\s*)?(?:compute_environment|distributed_type):",
    )
});
/// Accelerate refusing a GPU setting for want of a GPU ("fp16 mixed precision requires a
/// GPU"), or a sentence about the launcher's GPU-ids question ("the GPU step", "gpu_ids").
static ACCELERATE_NO_GPU: LazyLock<Option<Regex>> =
    LazyLock::new(|| re(r"(?i)\b(?:fp16|bf16|fp8) mixed precision requires a GPU\b"));
/// PyTorch Lightning's start-up line for a GPU it sees and does not use.
static GPU_AVAILABLE_NOT_USED: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(r"(?i)\bGPU available: True(?: \(cuda\))?, used: False\b|\bGPU available but not used\b")
});
static GPU_IDS_ANSWER: LazyLock<Option<Regex>> = LazyLock::new(|| {
    re(
        r#"(?i)\bgpu_ids\b|\b(?:on )?the GPU step\b|\bID of the GPU\b|[`"']All[`"'][^\n]{0,60}\bcase.?sensitive"#,
    )
});

/// What a launcher's configuration in the paste does to the processes it starts, where it
/// keeps them off the GPU: `workload.gpu_not_requested` (the config asks for the CPU) or
/// `env.visible_devices_empty` (its GPU ids hide every GPU). A process that printed
/// torch.cuda.is_available() True outside the launcher does not contradict either.
pub fn launcher_config_cause(paste: &str) -> Option<(&'static str, String)> {
    let m = |r: &LazyLock<Option<Regex>>| hit(r, paste);
    let ids = LAUNCHER_GPU_IDS
        .as_ref()?
        .captures_iter(paste)
        .filter_map(|c| Some(c.get(1)?.as_str().to_string()))
        .next();
    if m(&ACCELERATE_NAMED) || ids.is_some() {
        if m(&LAUNCHER_USE_CPU) {
            return Some((
                "workload.gpu_not_requested",
                "the launcher's configuration in the paste says use_cpu: True, so every process `accelerate launch` starts runs on the CPU even though torch sees the GPU (answer 'no' to the CPU-only question of `accelerate config`, or pass --cpu only when wanted)".to_string(),
            ));
        }
        if let Some(v) = ids {
            let bare = v.trim_matches(|c| c == '\'' || c == '"');
            let usable = bare == "all"
                || bare.split(',').all(|e| {
                    let e = e.trim();
                    e.parse::<u32>().is_ok() || e.starts_with("GPU-") || e.starts_with("MIG-")
                });
            if !usable {
                return Some((
                    "env.visible_devices_empty",
                    format!("the launcher's configuration says gpu_ids: {v}; `accelerate launch` copies it into CUDA_VISIBLE_DEVICES of the processes it starts, and CUDA reads no device id from {bare:?}, so those processes see no GPU (write the ids bare, '0,1', or 'all')"),
                ));
            }
        }
    }
    // PyTorch Lightning's own line: it sees the GPU and was not asked to use it
    if m(&GPU_AVAILABLE_NOT_USED) {
        return Some((
            "workload.gpu_not_requested",
            "the program says the GPU is available but not used (\"GPU available: True, used: False\"): the trainer was not asked for the GPU (set accelerator='gpu' and devices), the machine is fine".to_string(),
        ));
    }
    if m(&ACCELERATE_NO_GPU) && m(&GPU_IDS_ANSWER) {
        return Some((
            "env.visible_devices_empty",
            "Accelerate found no GPU where torch alone sees one, and the paste points at the launcher's GPU ids: `accelerate launch` copies them into CUDA_VISIBLE_DEVICES, and a value CUDA cannot read ('All' rather than 'all', brackets) hides every GPU from the processes it starts".to_string(),
        ));
    }
    None
}

/// Causes that read "CUDA found no usable driver": on a machine without an NVIDIA GPU
/// they are that missing GPU.
pub const NO_DRIVER_CAUSES: &[&str] = &[
    "driver.too_old_for_torch",
    "driver.too_old_for_toolkit",
    "driver.not_installed",
    "driver.module_not_loaded",
    "driver.cuda_init_failed",
    "torch.cuda_unavailable",
    "host.container_no_gpu",
    "driver.compat_package_mismatch",
    "driver.device_nodes",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apple_silicon_is_no_nvidia_gpu() {
        let ce = CollectEnv::default();
        assert!(says_no_nvidia_gpu(
            "我在Mac M1上面运行项目一直报错这个错误\n",
            &ce
        ));
        assert!(says_no_nvidia_gpu("running on a MacBook Pro M2 Max\n", &ce));
        assert!(!says_no_nvidia_gpu(
            "the machine's 2080 runs in a Macro M1 slot\n",
            &ce
        ));
    }

    /// The fourth blind paste sample's readings: a container start that is the fix, the
    /// machine said to have a GPU (or no NVIDIA one), Julia's CUDA as the program.
    #[test]
    fn fourth_paste_sample_readings() {
        // the first start the paste mentions is already the fix: the failing start lacked it
        assert!(!container_started_with_gpus(
            "ImportError: libcuda.so.1: cannot open shared object file\nSolved, had to use nvidia-docker run while starting container\n"
        ));
        assert!(container_started_with_gpus(
            "$ docker run --gpus all -it img\nImportError: libcuda.so.1: cannot open shared object file\n"
        ));
        // a CPU build on a machine said to have a GPU, or installed asking for a CUDA toolkit
        let ce = CollectEnv {
            torch: Some("1.2.0.dev20190805+cpu".into()),
            torch_cpu_only: true,
            ..CollectEnv::default()
        };
        assert!(cpu_build_on_gpu_machine(
            "My machine has GPU, but by default conda wants to install a CPU only version.\n",
            &ce
        ));
        assert!(cpu_build_on_gpu_machine(
            "conda install pytorch-nightly cudatoolkit=10.0 -c pytorch\n",
            &ce
        ));
        assert!(!cpu_build_on_gpu_machine("pip install torch\n", &ce));
        // the machine without an NVIDIA card, in the words of a failing stack
        let none = CollectEnv::default();
        assert!(says_no_nvidia_gpu(
            "the dev stack doesnt start without nvidia gpu\n",
            &none
        ));
        assert!(says_no_nvidia_gpu(
            "docker compose stack fails without nvidia graphics card\n",
            &none
        ));
        // Julia's CUDA packages are a CUDA program of their own
        assert!(program_is_not_pytorch(
            "$ julia -e \"using CUDAdrv; @show CUDAdrv.version()\"\n",
            &none
        ));
        assert!(!program_is_not_pytorch("import torch\njulia\n", &none));
    }

    /// A fix that puts a CUDA library's directory on the loader's path, said to work
    /// (https://github.com/tensorflow/tensorflow/issues/60790); the stubs directory is none.
    #[test]
    fn a_library_path_fix_is_read() {
        assert!(library_path_fix_said("Found a solution to see it on jupyterlab\nexport LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$CONDA_PREFIX/lib/:$CUDNN_PATH/lib\n"));
        assert!(!library_path_fix_said(
            "export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$CONDA_PREFIX/lib/\n"
        ));
        assert!(!library_path_fix_said(
            "it works: export LD_LIBRARY_PATH=/usr/local/cuda/lib64/stubs\n"
        ));
    }

    /// Accelerate's config blocks (https://github.com/huggingface/accelerate/issues/1048,
    /// /issues/1260) and a thread about its GPU-ids answer
    /// (https://github.com/kohya-ss/sd-scripts/issues/39).
    #[test]
    fn a_launcher_config_that_keeps_processes_off_the_gpu_is_read() {
        let block = "- `Accelerate` default config:\n        - compute_environment: LOCAL_MACHINE\n        - distributed_type: NO\n";
        assert_eq!(
            launcher_config_cause(&format!("{block}        - use_cpu: True\n")).map(|(id, _)| id),
            Some("workload.gpu_not_requested")
        );
        assert_eq!(
            launcher_config_cause(&format!(
                "{block}        - use_cpu: False\n        - gpu_ids: [3,4,5]\n"
            ))
            .map(|(id, _)| id),
            Some("env.visible_devices_empty")
        );
        for fine in ["all", "0,1", "'2,3'"] {
            assert_eq!(
                launcher_config_cause(&format!("{block}        - gpu_ids: {fine}\n")),
                None,
                "{fine}"
            );
        }
        assert_eq!(
            launcher_config_cause("ValueError: fp16 mixed precision requires a GPU\n`All` will no work because its case sensitive you need to type `all`\n").map(|(id, _)| id),
            Some("env.visible_devices_empty")
        );
        assert_eq!(
            launcher_config_cause("ValueError: fp16 mixed precision requires a GPU\n"),
            None
        );
        // Lightning's own line (https://github.com/open-edge-platform/anomalib/issues/232)
        assert_eq!(
            launcher_config_cause("GPU available: True, used: False\n").map(|(id, _)| id),
            Some("workload.gpu_not_requested")
        );
        assert_eq!(
            launcher_config_cause("GPU available: True (cuda), used: True\n"),
            None
        );
    }

    /// from https://github.com/vllm-project/vllm/issues/5983 (a vLLM bug on a healthy machine)
    #[test]
    fn a_python_exception_of_the_program_is_found() {
        let text = "[rank0]:   File \"/x/vllm/worker/model_runner.py\", line 741, in execute_model\n[rank0]:     prefill_meta = attn_metadata.prefill_metadata\n[rank0]: AttributeError: 'NoneType' object has no attribute 'prefill_metadata'\n";
        assert_eq!(
            program_exception(text).as_deref(),
            Some("AttributeError: 'NoneType' object has no attribute 'prefill_metadata'")
        );
        // an exception about the GPU is not the program's own
        let gpu = "  File \"a.py\", line 1, in <module>\nAssertionError: Torch not compiled with CUDA enabled\n";
        assert_eq!(program_exception(gpu), None);
        // no traceback, no program exception; but an issue title names one
        assert_eq!(program_exception("TypeError: x() missing 1 argument"), None);
        // from https://github.com/unslothai/unsloth/issues/2002
        assert_eq!(
            program_exception("# RuntimeError: EngineArgs.__init__() got an unexpected keyword argument 'compilation_config'\n").as_deref(),
            Some("RuntimeError: EngineArgs.__init__() got an unexpected keyword argument 'compilation_config'")
        );
        assert_eq!(
            program_exception("# RuntimeError: CUDA error: unknown error\n"),
            None
        );
        assert_eq!(program_exception(""), None);
    }

    #[test]
    fn an_error_line_is_told_from_an_environment_line() {
        assert!(reports_an_error(
            "I get `AttributeError: module 'torch._C' has no attribute '_cuda_getDevice'`"
        ));
        assert!(reports_an_error(
            "RuntimeError: CUDA failed with error unknown error"
        ));
        assert!(!reports_an_error("cuDNN version: Could not collect"));
        assert!(!reports_an_error("Is CUDA available: False"));
    }

    #[test]
    fn a_cpu_build_on_a_gpu_machine() {
        let cpu = CollectEnv {
            torch: Some("2.2.0+cpu".into()),
            torch_cpu_only: true,
            ..CollectEnv::default()
        };
        // a maintainer's diagnosis (https://github.com/angelolab/Nimbus-Inference/issues/12)
        assert!(cpu_build_on_gpu_machine(
            "It seems that only torch2.2.0+cpu is installed, so the cuda version of torch is missing.",
            &cpu
        ));
        // an issue title (https://github.com/vladmandic/sdnext/issues/3476)
        assert!(cpu_build_on_gpu_machine(
            "# [Issue]: Torch cpu installed on nvidia system\n",
            &cpu
        ));
        // a CPU-only machine's collect_env names NVIDIA only as a key: no cause
        assert!(!cpu_build_on_gpu_machine(
            "PyTorch version: 2.0.0+cpu\nIs CUDA available: False\nNvidia driver version: No CUDA\n",
            &cpu
        ));
        // a GPU named is enough
        let gpu = CollectEnv {
            gpus: vec!["NVIDIA GeForce RTX 3060".into()],
            ..cpu.clone()
        };
        assert!(cpu_build_on_gpu_machine("", &gpu));
        // an Intel GPU is not
        let intel = CollectEnv {
            gpus: vec!["Intel(R) Data Center GPU Max 1550".into()],
            ..cpu.clone()
        };
        assert!(!cpu_build_on_gpu_machine("", &intel));
        // a +cpu torch named in a reply, parsed or not
        // (https://github.com/Haoming02/sd-webui-forge-classic/issues/269)
        let other = CollectEnv {
            torch: Some("2.9.0".into()),
            ..CollectEnv::default()
        };
        assert!(cpu_build_on_gpu_machine(
            "torch 2.8.0+cu128 gets installed and during the installation of the requirements it gets replaced by torch 2.8.0+cpu now.",
            &other
        ));
        // CUDA observed working rules it out
        let works = CollectEnv {
            cuda_available: Some(true),
            ..gpu
        };
        assert!(!cpu_build_on_gpu_machine("", &works));
    }

    /// conda list of https://github.com/facebookresearch/maskrcnn-benchmark/issues/75
    #[test]
    fn two_torch_installs_in_the_package_lists() {
        let mut ce = CollectEnv::default();
        ce.conda
            .insert("torch".into(), ("0.4.1.post2".into(), "<pip>".into()));
        assert!(torch_installs(&ce, "").is_empty());
        ce.conda.insert(
            "torch-nightly".into(),
            ("1.0.0.dev20181029".into(), "<pip>".into()),
        );
        assert_eq!(torch_installs(&ce, "").len(), 2);
        // pip's and conda's view of one install are one install
        let mut one = CollectEnv::default();
        one.pip.insert("torch".into(), "2.0.1+cu117".into());
        one.conda
            .insert("pytorch".into(), ("2.0.1".into(), "py3.10_cuda11.7".into()));
        assert!(torch_installs(&one, "").is_empty());
        // a conda list pasted as it is (https://github.com/pytorch/pytorch/issues/12031)
        let text = "conda list\npytorch                   0.4.1           py37_cuda0.0_cudnn0.0_1    pytorch\npytorch-nightly           1.0.0.dev20180921         py3.7_0    pytorch\n";
        assert_eq!(torch_installs(&CollectEnv::default(), text).len(), 2);
        // versions in prose are not a listing
        let prose =
            "torch 2.0.1 works but torch 2.1.0 fails on this machine\npip install torch==2.1.0\n";
        assert!(torch_installs(&CollectEnv::default(), prose).is_empty());
    }

    #[test]
    fn a_container_started_with_gpus() {
        // https://github.com/NVIDIA/nvidia-docker/issues/177
        assert!(container_started_with_gpus(
            " nvidia-docker run --rm nvidia/cuda nvidia-smi"
        ));
        assert!(container_started_with_gpus("docker run --gpus all img"));
        assert!(!container_started_with_gpus(
            "docker run --rm nvidia/cuda nvidia-smi"
        ));
        // the engine could not resolve the GPU it was asked for: the request is what failed
        // (https://github.com/podman-container-tools/podman/issues/17539)
        assert!(!container_started_with_gpus(
            "$ podman run -ti --rm --device=nvidia.com/gpu=0 ubuntu:18.04 nvidia-smi -L\nError: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=0"
        ));
    }

    /// Sentences stating a host-side cause, from NVIDIA/gpu-operator#1017, microsoft/pai#4344,
    /// NVIDIA/nccl#257 and pytorch/pytorch#190132; look-alikes that state none.
    #[test]
    fn host_causes_said_in_words() {
        assert_eq!(
            stated_host_cause("This is not related to the CUDA driver version or runtime on the node but the default runtime class is not set to the `nvidia`."),
            Some("host.container_no_gpu")
        );
        assert_eq!(
            stated_host_cause("Setting the `runtimeClassName` statically will fix the issue"),
            Some("host.container_no_gpu")
        );
        assert_eq!(
            stated_host_cause("there is a node will 4 GPUs. But when running `nvidia-smi`, it will only report 3 GPUs.\nAnother GPU seems down."),
            Some("gpu.missing")
        );
        assert_eq!(
            stated_host_cause(
                "Booting the kernel with `intel_iommu=off` resolved all our problems."
            ),
            Some("probe.p2p")
        );
        assert_eq!(
            stated_module_cause("The following eBPF device filter is attached:\n20       cgroup_device   multi           sd_devices"),
            Some("driver.device_nodes")
        );
        // Docker Desktop's engine gives containers no NVIDIA driver (NVIDIA/nvidia-docker#1711)
        assert_eq!(
            stated_host_cause("Looks like this just doesn't work with docker desktop."),
            Some("host.container_no_gpu")
        );
        // the poster's words for nvidia-smi failing, the driver lost after an upgrade's
        // reboot (NVIDIA/nvidia-docker#804); nvidia-smi's own message is no sentence of theirs
        assert_eq!(
            stated_module_cause(
                "**run nvidia-smi and got message saying that it cannot communicate to the driver"
            ),
            Some("driver.module_not_loaded")
        );
        assert_eq!(
            stated_module_cause(
                "NVIDIA driver is lost after rebooting the machine (as required by os upgrade)."
            ),
            Some("driver.module_not_loaded")
        );
        assert_eq!(
            stated_module_cause("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running."),
            None
        );
        // MIG with what a process sees of it (wilicc/gpu-burn#36, mlcommons/training#442); MIG
        // named alone, or nvidia-smi's "MIG M." column, states nothing
        assert_eq!(
            stated_host_cause("For some reason, our repaired server has GPU0 MIG disabled and GPU1-3 enabled.\nAfter I turned off MIG, nvidia-smi -mig 0, gpuburn started working again."),
            Some("gpu.mig_enabled")
        );
        assert_eq!(
            stated_host_cause("I tried to run the `ssd` benchmark on NVIDIA A100 with MIG GPU instances\nRuntimeError: cuda runtime error (101) : invalid device ordinal"),
            Some("gpu.mig_enabled")
        );
        assert_eq!(stated_host_cause("I use MIG devices on our A100s."), None);
        assert_eq!(
            stated_host_cause("| GPU  Name  Persistence-M | Bus-Id  Disp.A | Volatile Uncorr. ECC |\n|  MIG M. |\ninvalid device ordinal"),
            None
        );
        // the NVSwitches not in the VM (NVIDIA/nccl-tests#260); P2P not supported in a VM
        // (NVIDIA/nccl#175)
        assert_eq!(
            stated_host_cause("We found that the nvswitches can only be passthroughed into a single vm, and the rest vms got none."),
            Some("driver.fabric_manager")
        );
        assert_eq!(
            stated_host_cause(
                "NCCL performance is very bad since GPU-P2P can't be enabled in the VM"
            ),
            Some("probe.p2p")
        );
        // a slow start: minutes on the first CUDA call (pytorch/pytorch#537), a slow
        // nvidia-smi with persistence named (GoogleCloudPlatform/ai-infra-cluster-provisioning#227)
        assert_eq!(
            stated_start_cause("The first call to .cuda() takes more than one minute when run on a system with a titan X"),
            Some("torch.ptx_jit_only")
        );
        assert_eq!(
            stated_start_cause(
                "nvidia-smi takes forever without it. use:\n- nvidia-persistenced or"
            ),
            Some("driver.persistence_off")
        );
        assert_eq!(stated_start_cause("nvidia-smi takes forever"), None);
        assert_eq!(stated_start_cause("persistence mode is on"), None);
        // a runtime class named without a failure, an IOMMU named without being turned off
        assert_eq!(stated_host_cause("runtimeClassName: nvidia"), None);
        assert_eq!(stated_host_cause("IOMMU groups are listed below"), None);
        assert_eq!(stated_host_cause("nvidia-smi shows 4 GPUs"), None);
    }

    /// CUDA's "insufficient driver" in a pod whose host driver is as new as every CUDA the
    /// paste names is the container without a driver (SYSTRAN/faster-whisper#1259); with a
    /// newer CUDA named, or outside a container, or with the GPUs requested, it is not.
    #[test]
    fn insufficient_driver_in_a_pod_with_a_new_host_driver() {
        let pod = "I'm running the linuxserver/faster-whisper:gpu container within my k8s cluster.\nRuntimeError: CUDA failed with error CUDA driver version is insufficient for CUDA runtime version\n NVIDIA-SMI 550.144.03             Driver Version: 550.144.03     CUDA Version: 12.4 \n";
        let ce = super::super::paste::parse(pod);
        assert!(insufficient_driver_in_container_without_gpus(pod, &ce));
        let newer = format!("{pod}FROM nvidia/cuda:12.8.0-runtime-ubuntu22.04\n");
        let ce = super::super::paste::parse(&newer);
        assert!(
            !insufficient_driver_in_container_without_gpus(&newer, &ce),
            "{ce:?}"
        );
        let bare = "CUDA driver version is insufficient for CUDA runtime version\n NVIDIA-SMI 550.144.03             Driver Version: 550.144.03     CUDA Version: 12.4 \n";
        let ce = super::super::paste::parse(bare);
        assert!(!insufficient_driver_in_container_without_gpus(bare, &ce));
        let gpus = format!("{pod}docker run --gpus all img\n");
        let ce = super::super::paste::parse(&gpus);
        assert!(!insufficient_driver_in_container_without_gpus(&gpus, &ce));
    }

    #[test]
    fn a_container_runtime_refusing_an_image_is_the_image_cuda() {
        // nvidia-container-cli's requirement check against the host driver
        // (https://github.com/theroyallab/tabbyAPI/issues/324)
        let paste = "docker compose up\nnvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.8, please update your driver to a newer version, or use an earlier cuda container: unknown";
        let ce = super::super::paste::parse(paste);
        assert_eq!(
            stated_driver_cause(paste, &ce),
            Some("driver.too_old_for_toolkit")
        );
    }

    #[test]
    fn a_program_other_than_pytorch() {
        let ce = CollectEnv::default();
        // https://github.com/NVIDIA/nvidia-docker/issues/414 (Lua torch)
        assert!(program_is_not_pytorch(
            "THCudaCheck FAIL file=/root/torch/extra/cutorch/lib/THC/THCGeneral.c line=66 error=35",
            &ce
        ));
        // https://github.com/NVIDIA/DIGITS/issues/2146
        assert!(program_is_not_pytorch(
            "Caffe: Check failed: error == cudaSuccess (48 vs. 0) no kernel image is available",
            &ce
        ));
        // PyTorch shown beside TensorFlow: not the case
        assert!(!program_is_not_pytorch(
            "tensorflow 2.15\n  File \"/x/site-packages/torch/cuda/__init__.py\", line 1",
            &ce
        ));
        let with_torch = CollectEnv {
            torch: Some("2.1.0+cu121".into()),
            ..CollectEnv::default()
        };
        assert!(!program_is_not_pytorch("caffe", &with_torch));
    }

    #[test]
    fn a_driver_stated_too_old() {
        let ce = CollectEnv::default();
        // https://github.com/BayesWatch/nas-without-training/issues/2
        assert_eq!(
            stated_driver_cause("My Nvidia driver is not supported for the pytorch-gpu version that was requested in environment.yml.", &ce),
            Some("driver.too_old_for_torch")
        );
        // https://github.com/pytorch/pytorch/issues/28195
        assert_eq!(
            stated_driver_cause(
                "when i run my program, the msg is that my Nvidia version is too old.",
                &ce
            ),
            Some("driver.too_old_for_torch")
        );
        // a container image's CUDA (https://github.com/NVIDIA/nvidia-docker/issues/414)
        assert_eq!(
            stated_driver_cause("nvidia-docker run --rm nvidia/cuda nvidia-smi\nPlease upgrade to a 375-series driver (or later)", &ce),
            Some("driver.too_old_for_toolkit")
        );
        assert_eq!(
            stated_driver_cause("I updated my driver to 550 yesterday.", &ce),
            None
        );
        assert_eq!(
            stated_driver_cause("Nvidia driver version: 550.54.15", &ce),
            None
        );
        // round 9 batch 1: apps bringing their own CUDA build (Ollama, llama.cpp) are not
        // PyTorch; "drivers are outdated", "needs a newer nvidia driver"
        // (https://github.com/ollama/ollama/issues/17290,
        // https://github.com/canonical/inference-snaps/issues/255)
        for text in [
            "from 0.30.0 on ollama needs a newer nvidia driver than my installed 535.",
            "llama-server crash on prompt if host nvidia drivers are outdated",
        ] {
            assert_eq!(
                stated_driver_cause(text, &ce),
                Some("driver.too_old_for_toolkit"),
                "{text}"
            );
        }
        assert_eq!(stated_driver_cause("The drivers are installed.", &ce), None);
        // round 9 batch 2: a maintainer's words in Chinese, a CUDA support floor
        // (https://github.com/MieMieeeee/ComfyUI-Mie-Package-Launcher/issues/100,
        // https://github.com/LostRuins/koboldcpp/issues/172)
        assert_eq!(
            stated_driver_cause(
                "看日志是驱动版本（572.83）太低呢，CU130 需要比较新的显卡驱动哈。",
                &ce
            ),
            Some("driver.too_old_for_torch")
        );
        assert_eq!(
            stated_driver_cause("When I try to load a model with --gpulayers it crashes.\nCheck your drivers. At minimum, CUDA 11.8 support is required for the CUDA version", &ce),
            Some("driver.too_old_for_toolkit")
        );
        assert_eq!(stated_driver_cause("驱动已经安装好了。", &ce), None);
        // round 9 batch 4: a hedge is no diagnosis
        // (https://github.com/edenaion/EZ-CorridorKey/issues/67)
        assert_eq!(
            stated_driver_cause("The driver may be too old for CorridorKey's current torch build, or the install fell back to CPU-only wheels.", &ce),
            None
        );
        assert_eq!(
            stated_driver_cause("You may need to upgrade the driver", &ce),
            Some("driver.too_old_for_torch")
        );
        assert_eq!(
            stated_driver_cause("Your driver may be too old for this build.", &ce),
            Some("driver.too_old_for_torch")
        );
    }

    #[test]
    fn driver_capabilities_added_for_compute() {
        // https://github.com/ollama/ollama/pull/1306
        assert_eq!(
            stated_host_cause("adding `NVIDIA_DRIVER_CAPABILITIES=compute,utility` to `ollama/ollama:v0.1.11` seems to get it to accept and use GPU"),
            Some("host.container_no_gpu")
        );
        assert_eq!(
            stated_host_cause("NVIDIA_DRIVER_CAPABILITIES=compute,utility"),
            None
        );
    }

    #[test]
    fn round_9_batch_3_evidence() {
        let ce = |driver: &str| CollectEnv {
            driver: Some(driver.into()),
            ..CollectEnv::default()
        };
        // https://github.com/triton-inference-server/server/issues/3773
        let note = "Release 21.10 is based on NVIDIA CUDA 11.4.2 with cuBLAS 11.6.5.2, which requires NVIDIA Driver release 470 or later.";
        assert_eq!(
            driver_below_stated_requirement(note, &ce("455.45.01")),
            Some((470, 455))
        );
        assert_eq!(
            driver_below_stated_requirement(note, &ce("470.82.01")),
            None
        );
        assert_eq!(
            driver_below_stated_requirement("requires driver 470", &ce("455.45.01")),
            None
        );
        // https://github.com/vllm-project/vllm/issues/16267: torch's own warning
        assert_eq!(
            stated_arch_cause("If you want to use the NVIDIA GeForce RTX 5070 Ti GPU with PyTorch, please check the instructions at https://pytorch.org/get-started/locally/"),
            Some("torch.arch_unsupported")
        );
        // https://github.com/invoke-ai/InvokeAI/issues/1202 and its control
        let none = CollectEnv::default();
        let fixed = "(Cuda, 1080ti)\n>> Using device_type cpu\npytorch installation went wrong so it needed to be removed and reinstalled.\npip uninstall torch\n";
        assert!(app_on_cpu_fixed_by_torch_reinstall(fixed, &none));
        assert!(!app_on_cpu_fixed_by_torch_reinstall(
            ">> Using device_type cpu\n(Cuda, 1080ti)\n",
            &none
        ));
        // https://github.com/invoke-ai/InvokeAI/issues/2735: the CPU build named in words
        assert!(cpu_build_on_gpu_machine(
            "I have a NVIDIA GTX 1060.\nThe installer should uninstall the CPU version of `torch` and install the GPU version.",
            &none
        ));
    }

    #[test]
    fn round_9_batch_5_evidence() {
        // https://github.com/ggml-org/llama.cpp/issues/22778
        let listed = "./llama-cli  --list-devices\nAvailable devices:\n  CUDA0: NVIDIA GeForce RTX 4090 Laptop GPU (16375 MiB, 15046 MiB free)\n";
        let refused = "warning: no usable GPU found, --gpu-layers option will be ignored\nwarning: one possible reason is that llama.cpp was compiled without GPU support\n";
        assert!(program_contradicts_its_devices(&format!(
            "{listed}{refused}"
        )));
        assert!(!program_contradicts_its_devices(refused));
        assert!(!program_contradicts_its_devices(listed));
        // https://github.com/ggml-org/llama.cpp/issues/22775 and #22778: a build that works
        assert!(says_regression("When launching llama server using them, I keep getting the GPU not detected error. However with version b8996, it works fine."));
        assert!(says_regression("Can you try with b9050 ?\nb9060可以了\n"));
        assert!(!says_regression("It works fine with my GPU."));
        // https://github.com/ollama/ollama/issues/9753
        assert!(model_too_big_said("for LLaMA 3.3 70B-Q4_K_M, you need 53GB of VRAM. Since your GPU only has 24GB, it's also using system RAM"));
        assert!(model_too_big_said(
            "The model does not fit in VRAM, so layers are offloaded."
        ));
        assert!(!model_too_big_said("The model fits in VRAM."));
    }

    #[test]
    fn a_versioned_cuda_library_is_missing() {
        // https://github.com/jhj0517/Whisper-WebUI/issues/271
        assert!(versioned_cuda_library_missing("Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!"));
        // https://github.com/SYSTRAN/faster-whisper/issues/535
        assert!(versioned_cuda_library_missing(
            "RuntimeError: Library cublas64_11.dll is not found or cannot be loaded"
        ));
        assert!(!versioned_cuda_library_missing(
            "Successfully opened dynamic library libcudnn.so.8"
        ));
    }

    #[test]
    fn an_invalid_kernel_image_is_seen() {
        assert!(invalid_kernel_image_seen(
            "ggml_cuda_compute_forward: SCALE failed\nCUDA error: device kernel image is invalid\n"
        ));
        assert!(invalid_kernel_image_seen("CUDA_ERROR_INVALID_IMAGE"));
        assert!(!invalid_kernel_image_seen(
            "CUDA error: no kernel image is available for execution on the device"
        ));
    }

    #[test]
    fn a_cpu_build_said_in_words_on_a_machine_that_wants_its_gpu() {
        let ce = CollectEnv::default();
        // https://github.com/chemprop/chemprop/issues/355
        assert!(cpu_build_on_gpu_machine(
            "# [QUESTION]: GPU not used\nit seems that conda left your CPU-version of PyTorch in place.",
            &ce
        ));
        // https://github.com/pytorch/pytorch/issues/69202
        assert!(cpu_build_on_gpu_machine(
            "my GPU is not available anymore: torch.cuda.is_available=False\n(you could check it in you package list, it is pytorch=1.9.0=py3.8_cpu_0)",
            &ce
        ));
        // a CPU build said, but nothing wants a GPU
        assert!(!cpu_build_on_gpu_machine(
            "I installed the CPU-only version of torch on my laptop.",
            &ce
        ));
    }

    /// https://github.com/open-mmlab/PIA/issues/30
    #[test]
    fn an_extension_built_for_cuda_on_a_cpu_torch() {
        let text = "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n    PyTorch 2.1.2+cu121 with CUDA 1201 (you have 2.1.2+cpu)\n";
        let cpu = CollectEnv {
            torch: Some("2.1.2+cpu".into()),
            torch_cpu_only: true,
            ..CollectEnv::default()
        };
        assert!(extension_built_for_cuda_on_cpu_torch(text, &cpu));
        // a CUDA torch against another CUDA build: not the CPU build's fault
        let cuda = CollectEnv {
            torch: Some("2.2.0+cu121".into()),
            torch_cuda: Some("12.1".into()),
            ..CollectEnv::default()
        };
        assert!(!extension_built_for_cuda_on_cpu_torch(text, &cuda));
    }

    /// An xFormers warning as an issue title (https://github.com/Lightricks/LTX-Desktop/issues/23)
    #[test]
    fn an_extension_built_for_another_torch() {
        assert_eq!(
            extension_built_for_other_torch("# PyTorch 2.9.0+cu128 with CUDA 1208 (you have 2.10.0+cu128) Python 3.10.11 (you have 3.13.12) Please reinstall xformers"),
            Some(("2.9.0+cu128".to_string(), "2.10.0+cu128".to_string()))
        );
        assert_eq!(
            extension_built_for_other_torch("    PyTorch 2.0.1 (you have 2.1.0+cu121)"),
            Some(("2.0.1".to_string(), "2.1.0+cu121".to_string()))
        );
        assert_eq!(
            extension_built_for_other_torch(
                "PyTorch 2.1.0+cu121 with CUDA 1201 (you have 2.1.0+cu121)"
            ),
            None
        );
    }

    #[test]
    fn a_machine_said_to_have_no_nvidia_gpu() {
        let ce = CollectEnv::default();
        // from https://github.com/Akegarasu/lora-scripts/issues/101
        assert!(says_no_nvidia_gpu(
            "I'm using a integrated Intel GPU(iris xe graphics).",
            &ce
        ));
        assert!(says_no_nvidia_gpu(
            "I'm not working with the GPU but only with the CPU",
            &ce
        ));
        assert!(says_no_nvidia_gpu("my PC does not have NVIDIA GPU", &ce));
        assert!(!says_no_nvidia_gpu("so only CPU was used", &ce));
        assert!(!says_no_nvidia_gpu("the GPU is not used", &ce));
        // a GPU in the paste says otherwise
        let with_gpu = CollectEnv {
            gpus: vec!["NVIDIA GeForce RTX 3060".to_string()],
            ..CollectEnv::default()
        };
        assert!(!says_no_nvidia_gpu(
            "using an integrated Intel GPU for the display",
            &with_gpu
        ));
    }

    /// TensorFlow's tested builds against the cuDNN and CUDA a paste shows (round 7,
    /// github.com/tensorflow/tensorflow/issues/44040 and 42309).
    #[test]
    fn tensorflow_beside_other_cudnn_or_cuda_is_read() {
        let ce = |tf: &str, cudnn: Option<&str>, cuda: Option<&str>| {
            let mut ce = CollectEnv::default();
            ce.pip.insert("tensorflow".into(), tf.into());
            ce.cudnn = cudnn.map(str::to_string);
            ce.cuda_runtime = cuda.map(str::to_string);
            ce
        };
        // TF 2.3 loads libcudnn.so.7 and CUDA 10.1's libraries
        assert!(
            tensorflow_libs_mismatch(&ce("2.3.1", Some("8.0.4"), Some("10.1.243")))
                .is_some_and(|w| w.contains("cuDNN 7"))
        );
        assert!(
            tensorflow_libs_mismatch(&ce("2.3.0", Some("7.6.5"), Some("10.2")))
                .is_some_and(|w| w.contains("CUDA 10.1"))
        );
        // CUDA 11's minor releases share the libraries' names; matching builds say nothing
        assert_eq!(
            tensorflow_libs_mismatch(&ce("2.6.0", Some("8.1.0"), Some("11.4"))),
            None
        );
        assert_eq!(
            tensorflow_libs_mismatch(&ce("2.3.1", Some("7.6.5"), Some("10.1.243"))),
            None
        );
        // later releases bring their own libraries; no TensorFlow, nothing to compare
        assert_eq!(
            tensorflow_libs_mismatch(&ce("2.16.1", Some("8.6.0"), Some("11.8"))),
            None
        );
        assert_eq!(tensorflow_libs_mismatch(&CollectEnv::default()), None);
    }

    /// Sentences of forum answers and post-mortems (tests/corpus/pastes/dev-2026-11f) that
    /// state the module cause; sentences that only name the module or its loading do not.
    #[test]
    fn a_stated_module_cause_is_read() {
        for (text, want) in [
            // unix.stackexchange.com/questions/535434
            ("As the MOK installation process was not actually completed, the signature check on the Nvidia modules failed", "driver.module_not_loaded"),
            // askubuntu (wiki.keldo.uk mirror, answer 1009726)
            ("See Ubuntu bug: 4.4.0-116 Kernel update on 2/21 breaks Nvidia drivers (on 14.04 and 16.04).", "driver.module_not_loaded"),
            ("After the reboot the nvidia kernel module is not loaded.", "driver.module_not_loaded"),
            // github.com/lperez31/prime-select-hybrid/issues/1
            ("Changing from 'intel' to 'hybrid' then run 'nvidia-smi' returns no drivers detected.", "driver.module_not_loaded"),
            // www.mynw.cn/news/541007.html
            ("如果你发现nvidia_uvm缺失,那很可能就是问题根源。", "driver.uvm_unavailable"),
            ("nvidia_uvm is missing from lsmod", "driver.uvm_unavailable"),
            // askubuntu (wiki.weaverden.uk mirror, question 1376490)
            ("the system was using the open-source non-proprietary driver (and very unstable, and slow).\ninstall it using the command:\nsudo apt install nvidia-driver-XXX\n(replace XXX)\nreboot:\nsudo reboot\nAfter this, my system came back properly.", "driver.not_installed"),
            ("After the upgrade the laptop fell back to nouveau.", "driver.nouveau_loaded"),
        ] {
            assert_eq!(stated_module_cause(text), Some(want), "{text}");
        }
        // duoke360.com/post/35217
        assert_eq!(
            stated_arch_cause(
                "> 关键限制:计算能力3.0属于**较旧的架构**,PyTorch官方自1.3版本后停止支持"
            ),
            Some("torch.arch_unsupported")
        );
        assert_eq!(
            stated_arch_cause("PyTorch no longer supports GPUs of compute capability 3.5."),
            Some("torch.arch_unsupported")
        );
        assert_eq!(
            stated_arch_cause("PyTorch supports the RTX 4090 since 1.13."),
            None
        );
        // round 7 (github.com/jax-ml/jax/issues/15361): another program's wheels
        assert_eq!(
            stated_arch_cause("JAX no longer supports Kepler GPUs in the wheels we release."),
            Some("ext.arch_unsupported")
        );
        assert_eq!(
            stated_arch_cause("JAX no longer supports Python 3.8."),
            None
        );
        // round 7 (github.com/deepspeedai/DeepSpeed-MII/issues/277): the system's CUDA beside
        // torch's, of another major
        assert_eq!(
            stated_toolkit_cause("Your system version is 11.7 but the version that pytorch was compiled with is 12.1."),
            Some("toolkit.torch_mismatch")
        );
        assert_eq!(
            stated_toolkit_cause("Your system version is 12.4 and pytorch was compiled with 12.1."),
            None
        );
        assert_eq!(
            stated_module_cause("I have installed with Secure Boot disabled, and later I enabled the Secure Boot. In such a case, the driver is no longer loaded during boot."),
            Some("driver.module_not_loaded")
        );
        assert_eq!(stated_arch_cause("vLLM supports Volta GPUs."), None);
        // round 7 batch 4: a program's supported architectures stated as a floor or a list
        for text in [
            "报错信息：SGlang only supports sm 75 and  above",
            "The root cause is that the `gemma_rmsnorm` kernel in `sgl-kernel` is compiled only for sm80+ (e.g., A100, H100)",
            "1) Sglang kernel not support for SM120, only work on SM100.",
        ] {
            assert_eq!(stated_arch_cause(text), Some("ext.arch_unsupported"), "{text}");
        }
        assert_eq!(stated_arch_cause("SGLang supports sm 75 and above."), None);
        // round 9 batch 1: an app's log or users saying the GPU's architecture is not among
        // the build's compiled ones
        for text in [
            // https://github.com/ollama/ollama/issues/16620
            "[0.30.6 Regression] RTX 3060 Laptop (sm_86) skipped — archs missing 860 in compiled architectures",
            // https://github.com/ollama/ollama/issues/17841
            "msg=\"skipping CUDA device — compute capability not in compiled architectures\" device=\"NVIDIA RTX A6000\" cc=860",
            // https://github.com/ollama/ollama/issues/1992
            "gpu.go:138: CUDA GPU is too old. Falling back to CPU mode. Compute Capability detected: 5.2",
        ] {
            assert_eq!(stated_arch_cause(text), Some("ext.arch_unsupported"), "{text}");
        }
        assert_eq!(
            stated_arch_cause("llama.cpp is compiled for all architectures we support."),
            None
        );
        // https://github.com/sgl-project/mini-sglang/issues/128
        assert_eq!(
            stated_arch_cause(
                "i think latest version of flash-infer removed sm_75  what worked for me"
            ),
            Some("ext.arch_unsupported")
        );
        assert_eq!(
            stated_arch_cause("flashinfer removed the old JIT cache."),
            None
        );
        // round 6 (dev-2026-11g): nouveau taken out of the way fixed it; a negated load of
        // the nvidia modules
        for (text, want) in [
            ("Installation has been successfully completed after disabling nouveau and updating initramfs as root:", "driver.nouveau_loaded"),
            ("Blacklisting nouveau fixed it for me.", "driver.nouveau_loaded"),
            ("Ok, thanks, i exec blacklist nouveau after, `k8s-driver-manager` can exec success,", "driver.nouveau_loaded"),
            ("but I can't seem to get Ubuntu to load the nvidia kernel modules.", "driver.module_not_loaded"),
            ("As bumblebee loads them after bbswitch, the creation of the `/dev/nvidia*` device nodes is delayed.", "driver.device_nodes"),
            ("ls: /dev/nvidiactl does not exist on the host", "driver.device_nodes"),
            ("In my Ubuntu PC, with suspend - wake cycles, CUDA stops being detected. Even in pytorch", "driver.uvm_unavailable"),
            ("The solution for me was to reboot or unload and load nvidia drivers with:\n   sudo modprobe -r nvidia-uvm\n", "driver.uvm_unavailable"),
            // round 7 (dev-2026-11h): nvidia_uvm reloaded and the GPUs back; the driver said
            // not in use, or lost with a kernel update
            ("Running: `sudo nvidia-modprobe -u` then `sudo rmmod nvidia_uvm` then `sudo modprobe nvidia_uvm` and then restarting the service put the focus back on the GPUs.", "driver.uvm_unavailable"),
            ("DKMS status appears ok, but nvidia-settings says that the driver is not in use:", "driver.module_not_loaded"),
            ("After updating the kernel, I can no longer get the nvidia driver to work.", "driver.module_not_loaded"),
        ] {
            assert_eq!(stated_module_cause(text), Some(want), "{text}");
        }
        for text in [
            "I blacklisted nouveau but it still does not work.",
            "sudo modprobe nvidia loads the nvidia kernel modules fine.",
            "lsmod | grep nvidia",
            "sudo modprobe nvidia_uvm",
            "nvidia_uvm 1234567 0",
            "The nvidia module is loaded and nvidia-smi works.",
            "Kernel update went fine, nvidia-smi shows the GPU.",
            "sudo rmmod nvidia_uvm\nrmmod: ERROR: Module nvidia_uvm is in use",
            "After updating the kernel, nvidia-smi works as before.",
        ] {
            assert_eq!(stated_module_cause(text), None, "{text}");
        }
    }

    /// A regression stated by the paste, and a CUDA 13 build named in it (round 6).
    #[test]
    fn regressions_and_cuda13_builds_are_read() {
        for text in [
            "### First Bad Commit\n\n4c37636",
            "Does not happen on any commits previous to 4c37636b3e",
            "It worked with the previous version of ollama.",
            "Downgrading to 0.5.7 fixes it.",
        ] {
            assert!(says_regression(text), "{text}");
        }
        for text in [
            "It worked with the previous driver version.",
            "Upgrade to the latest version.",
        ] {
            assert!(!says_regression(text), "{text}");
        }
        for text in [
            "the \"latest\" containers für cuda13 dont work with my V100",
            "Make the cuda13 images work with older volta architecture",
            "libdirs=ollama,cuda_v13",
            "pip install torch --index-url https://download.pytorch.org/whl/cu130",
        ] {
            assert!(names_cuda13_build(text), "{text}");
        }
        for text in [
            "| NVIDIA-SMI 580.82.07   Driver Version: 580.82.07   CUDA Version: 13.0 |",
            "I installed CUDA 13.0 on the host.",
        ] {
            assert!(!names_cuda13_build(text), "{text}");
        }
    }

    /// A C++ server's glog lines name a program other than PyTorch (round 6, ScaleLLM).
    #[test]
    fn glog_lines_are_another_cuda_program() {
        let ce = CollectEnv::default();
        let glog = "I20231129 08:13:34.992501     7 main.cpp:135] Using devices: cuda:1\n";
        assert!(program_is_not_pytorch(glog, &ce));
        assert!(!program_is_not_pytorch(
            &format!("{glog}  File \"site-packages/torch/cuda/__init__.py\", line 1\n"),
            &ce
        ));
    }

    /// A prebuilt extension wheel on a PyTorch compiled from source (round 6, mmcv#2439).
    #[test]
    fn prebuilt_extensions_on_source_torch_are_read() {
        let text = "compiled pytorch v1.11.0 from source using CUDA 11.3\ninstalled mmcv-full from pip wheels\n`pip install mmcv-full==1.7.0 -f https://download.openmmlab.com/mmcv/dist/cu113/torch1.11/index.html`\n";
        assert!(prebuilt_extension_on_source_torch(text));
        assert!(!prebuilt_extension_on_source_torch(
            "pip install mmcv-full==1.7.0 -f https://download.openmmlab.com/mmcv/dist/cu113/torch1.11/index.html\n"
        ));
        assert!(!prebuilt_extension_on_source_torch(
            "compiled pytorch from source, then built mmcv from source too\n"
        ));
    }

    /// A machine whose only GPU named is an Intel or AMD one has no NVIDIA GPU (round 6,
    /// arno01/steam#2).
    #[test]
    fn a_named_non_nvidia_gpu_says_no_nvidia_gpu() {
        let ce = CollectEnv::default();
        assert!(says_no_nvidia_gpu(
            "The README claims this has been tested on an Intel HD 5000, but the image expects /dev/nvidia0",
            &ce
        ));
        assert!(!says_no_nvidia_gpu("My RTX 3060 runs the model.", &ce));
    }

    /// "CUDA available: True" from a Python whose version none of the paste's tracebacks
    /// ran in answers for another process.
    #[test]
    fn an_answer_from_another_python_is_told_apart() {
        let log =
            "  File \"/opt/conda/lib/python3.9/site-packages/torch/cuda/__init__.py\", line 107\n";
        let ce = CollectEnv {
            python: Some("3.10.8".into()),
            ..CollectEnv::default()
        };
        assert!(answer_from_other_python(log, &ce));
        let same = CollectEnv {
            python: Some("3.9.16".into()),
            ..CollectEnv::default()
        };
        assert!(!answer_from_other_python(log, &same));
        assert!(torch_init_failure_seen("    torch._C._cuda_init()\nComfyUI error: RuntimeError: CUDA unknown error - this may be due to an incorrectly set up environment"));
        assert!(!torch_init_failure_seen("torch.cuda.is_available() True"));
        // no traceback: nothing to compare
        assert!(!answer_from_other_python(
            "Python 3.10.8\n>>> torch.cuda.is_available()\nTrue",
            &ce
        ));
        // Windows' site-packages path names no version: nothing to compare
        assert!(!answer_from_other_python(
            "C:\\Python311\\Lib\\site-packages\\torch\\x.py",
            &ce
        ));
    }
}
