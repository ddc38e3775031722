//! Reads whatever people paste about an environment: torch's collect_env (every era, see
//! `collect_env`) and `torch.__config__.show()`, detectron2's and vLLM's collect_env,
//! `nvidia-smi` (-q, -q -x, -L), DeepSpeed's `ds_report`, `python -m sglang.check_env`,
//! `jax.print_environment_info()`, `tf.sysconfig.get_build_info()` and TensorFlow's device
//! lines, ComfyUI's system information and the start-up logs of web UIs, Ollama and
//! llama.cpp logs, nvtop, `pip list` / `pip freeze` / `conda list` / conda environment files /
//! requirements, `nvcc --version`, `/proc/driver/nvidia/version`, `modinfo`, driver packages
//! (dpkg, apt, rpm, yum), dmesg (NVRM, Xid), `lspci`, `lsb_release` / os-release /
//! systeminfo, GitHub issue forms, and free-form lines ("CUDA 12.1, driver 535, RTX 3090"),
//! alone or mixed with tracebacks and prose. The real sample of each format, with every
//! fact it holds, is in `paste_samples.rs`. One pass over the lines, each looked at a
//! bounded number of times: the cost is linear in the paste. What a structured block
//! says wins over what a free-form line says; the first block that names a fact wins.

use std::sync::OnceLock;

use regex::Regex;

use super::collect_env::{self, CollectEnv};

/// Packages whose versions matter for a GPU diagnosis (pip list / conda list /
/// requirements / `name: version` lines).
const PACKAGES: &[&str] = &[
    "torch",
    "pytorch",
    "torchvision",
    "torchaudio",
    "xformers",
    "flash-attn",
    "flash_attn",
    "vllm",
    "sglang",
    "flashinfer",
    "flashinfer-python",
    "triton",
    "bitsandbytes",
    "deepspeed",
    "jax",
    "jaxlib",
    "jax-cuda12-plugin",
    "tensorflow",
    "tensorflow-gpu",
    "tf-nightly",
    "cupy",
    "onnxruntime-gpu",
    "llama-cpp-python",
    // a program, not a pip package: "Ollama version: 0.5.11" in its issue form
    "ollama",
    "detectron2",
    "mmcv",
    "mmcv-full",
    "transformers",
    "accelerate",
    "cudatoolkit",
    "cuda-version",
    "pytorch-cuda",
    "cudnn",
    "nccl",
];

struct Patterns {
    smi_header: Regex,
    smi_row: Regex,
    nvcc: Regex,
    device_query: Regex,
    device_query_versions: Regex,
    toolkit_version_file: Regex,
    pip_install_torch: Regex,
    proc_version: Regex,
    api_mismatch: Regex,
    nvrm_gpu: Regex,
    dotted_kv: Regex,
    table_kv: Regex,
    md_kv: Regex,
    pip_two_col: Regex,
    req_pin: Regex,
    free_driver: Regex,
    free_cuda: Regex,
    free_torch: Regex,
    free_gpu: Regex,
    free_os: Regex,
    uname: Regex,
    uname_kernel: Regex,
    compose_file: Regex,
    container_image: Regex,
    torch_answer_inline: Regex,
    ollama_version: Regex,
    lightning_rank: Regex,
    comfy_device: Regex,
    you_have: Regex,
    conda_plan: Regex,
    cuda_image: Regex,
    ignored_by: Regex,
    tk_vs_torch: Regex,
    found_version: Regex,
    env_module: Regex,
    free_driver2: Regex,
    driver_in_words: Regex,
    torch_spaced: Regex,
    mig_row: Regex,
    gpu_count: Regex,
    torch_upgrade: Regex,
    cuda_worked: Regex,
    free_toolkit: Regex,
    driver_cuda_free: Regex,
    lspci_gpu: Regex,
    lspci_device: Regex,
    smi_xml: Regex,
    bare_value: Regex,
    torch_version_inline: Regex,
    sdnext_gpu: Regex,
    sdnext_backend: Regex,
    tf_device: Regex,
    tf_created: Regex,
    lib_driver: Regex,
    logfmt_gpu: Regex,
    logfmt_id: Regex,
    logfmt_driver: Regex,
    llama_device: Regex,
    sample_device: Regex,
    torch_device: Regex,
    py_pair: Regex,
    modinfo_firmware: Regex,
    nvml_lib: Regex,
    apt_driver_unmet: Regex,
    module_build_failed: Regex,
    lsmod_nvidia: Regex,
    modprobe_nvidia: Regex,
    module_refused: Regex,
    smi_no_driver_words: Regex,
    driver_tool_missing: Regex,
    driver_release: Regex,
    dpkg_driver: Regex,
    rpm_driver: Regex,
    conda_spec: Regex,
    inline_pin: Regex,
    free_python: Regex,
    python_you_have: Regex,
    dotted_inline: Regex,
    torch_config: Regex,
    nvtop_device: Regex,
    torch_found_gpu: Regex,
    free_cudnn: Regex,
    yum_driver: Regex,
    angle_gpu: Regex,
    driver_then_version: Regex,
    driver_zh: Regex,
    ngc_detected: Regex,
    ngc_required: Regex,
    free_pkg: Regex,
    paren_version: Regex,
    apt_driver: Regex,
    pkg_toolkit: Regex,
    dkms_driver: Regex,
    dcgm_driver: Regex,
    nvlink_gpu: Regex,
    nvlink_states: Regex,
    nvlink_inactive: Regex,
    runtime_handler_missing: Regex,
    persistence_words: Regex,
    hf_framework: Regex,
    ultra_torch: Regex,
    ultra_device: Regex,
    check_row: Regex,
    stub_loaded: Regex,
    paddle_device: Regex,
}

fn re(p: &str) -> Option<Regex> {
    regex::RegexBuilder::new(p)
        .case_insensitive(true)
        .size_limit(8 * 1024 * 1024)
        .build()
        .ok()
}

fn patterns() -> Option<&'static Patterns> {
    static P: OnceLock<Option<Patterns>> = OnceLock::new();
    P.get_or_init(|| {
        Some(Patterns {
            // from the 610 drivers on: "KMD Version: 610.57.04  CUDA UMD Version: 13.3"
            smi_header: re(r"NVIDIA-SMI\s+([\d.]+)[,\s]+(?:Driver|KMD) Version:\s*([\d.]+)(?:[,\s]+CUDA (?:UMD )?Version:\s*([\d.]+))?")?,
            // "On"/"Off" is persistence mode on Linux, "WDDM"/"TCC" the driver model on Windows
            smi_row: re(r"^\|\s+(\d{1,2})\s+(.+?)\s+(?:On|Off|WDDM|TCC)\s+\|\s+[0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:")?,
            // nvidia-smi's "MIG devices" table: "|  1    3   0   0  |  14366MiB / 19968MiB | ..."
            mig_row: re(r"^\|\s+(\d{1,2})\s+(\d{1,2})\s+(\d{1,2})\s+(\d{1,2})\s+\|\s+\d+MiB\s*/\s*\d+MiB\s*\|")?,
            nvcc: re(r"Cuda compilation tools, release (\d+\.\d+), V(\d+\.\d+\.\d+)")?,
            // the CUDA samples' deviceQuery: `Device 0: "NVIDIA GeForce RTX 3060"`, its summary
            // line, and the table row "CUDA Driver Version / Runtime Version  12.2 / 12.1"
            device_query: re(r#"^Device (\d+): "([^"]+)"$"#)?,
            device_query_versions: re(r"(?:^CUDA Driver Version / Runtime Version\s+(\d+\.\d+) / (\d+\.\d+)$|^deviceQuery, CUDA Driver = CUDART, CUDA Driver Version = (\d+\.\d+), CUDA Runtime Version = (\d+\.\d+), NumDevs = ([1-9]\d*))")?,
            // the toolkit's own version file: `cat /usr/local/cuda/version.txt` ("CUDA Version
            // 10.2.89", up to CUDA 10) or version.json's "CUDA SDK" entry ("version" :
            // "11.8.20220929", from CUDA 11); nvidia-smi's "CUDA Version: 12.2" has a colon
            // a plain `pip install torch` from PyPI: torch named bare or pinned without a
            // local tag, and no other index, find-links page or wheel file
            pip_install_torch: re(r"^(?:\$\s*|!\s*)?(?:python3?(?:\.\d+)?\s+-m\s+)?pip3?\s+install\s(?:[^\n]*\s)?torch(?:==\d+\.\d+(?:\.\d+)?)?(?:\s|$)")?,
            toolkit_version_file: re(r#"^(?:CUDA Version (\d+\.\d+\.\d+)|"version"\s*:\s*"(\d+\.\d+)\.\d+",?)$"#)?,
            // /proc/driver/nvidia/version ("NVRM version: NVIDIA UNIX ...") and the module's
            // load line in dmesg ("NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  570.158.01")
            // and nvidia-modeset's ("Loading NVIDIA Kernel Mode Setting Driver for UNIX platforms  390.67")
            proc_version: re(r"(?:NVRM(?: version)?:\s*(?:loading )?|nvidia-modeset: Loading )NVIDIA (?:UNIX )?(?:\S+ )?(?:Open )?Kernel (?:Module|Mode Setting Driver)(?: for \S+(?: platforms)?)?\s+(\d{3}\.\d+(?:\.\d+)?)")?,
            api_mismatch: re(r"this kernel module has the version (\d{3}\.\d+(?:\.\d+)?)")?,
            nvrm_gpu: re(r"NVRM: The NVIDIA (?:NVIDIA )?(.+?) GPU installed in this system")?,
            dotted_kv: re(r"^([A-Za-z][\w /()().-]*?)\s*\.{3,}\s*(\S.*)$")?,
            table_kv: re(r"^([A-Za-z][\w.,/() -]*?[\w)])(?:\s*:\s*|\s{2,})(\S.*)$")?,
            md_kv: re(r"^(?:[-*]\s*)?\*\*([^*]+?):?\*\*:?\s*(.*)$")?,
            pip_two_col: re(r"^([A-Za-z][\w.-]*)\s+(\d+(?:\.\w+)+(?:\+\w+)?)(?:\s+(\S+))?(?:\s+(\S+))?\s*$")?,
            req_pin: re(r"^([A-Za-z][\w.-]*)\s*(?:==|>=|~=)\s*(\d+(?:\.\w+)*(?:\+\w+)?)")?,
            free_driver: re(r"\b(?:nvidia[- ])?driver(?:s)?\s*\(?(?:\s*version)?(?:\s*(?:is|==?|:|of|v))?\s*(\d{3}(?:\.\d{1,3}){0,2})\b")?,
            free_cuda: re(r"\bCUDA(?:[ -]?(?:version|toolkit|runtime))?\s*(?:is|=|:|v|-)?\s*(\d{1,2}\.\d)(?:\.\d+)?\b")?,
            free_torch: re(r"\b(?:py)?torch(?:\s*version)?\s*(?:==|=|:|is|v)?\s*`?(\d\.\d{1,2}(?:\.\d{1,2})?(?:\.dev\d{8}|a0|rc\d)?(?:\+(?:cu\d{2,3}|cpu|rocm[\d.]+))?)")?,
            // "torch: 2.1.2+cpu -> 2.2.1+cpu": the version after the arrow is the one installed
            torch_upgrade: re(r"\b(?:py)?torch\b[^0-9]{0,12}\d[\w.+]*\s*(?:->|→|=>)\s*(\d\.\d{1,2}(?:\.\d{1,2})?(?:\.dev\d{8})?(?:\+(?:cu\d{2,3}|cpu|rocm[\d.]+))?)")?,
            // "2x Tesla V100-SXM2-32GB", "2× RTX 5090", "8 x A100": a count before a GPU name
            gpu_count: re(r"\b(\d{1,2})\s?[x×*]\s?$")?,
            // lines that only a process with working CUDA prints (torch allocated on the GPU,
            // ComfyUI/Forge named the CUDA device, a kernel was looked up for the device)
            // "CUDA toolkit 12.8": the toolkit, not the driver
            // "CUDA toolkit 11.8", and nvcc named beside its build string the way pip pins read
            // ("nvcc==cuda_11.8.r11.8/compiler.31833905_0")
            // "CUDA version is 9.0.176": a release with a build number is a toolkit's (the
            // driver's and torch's CUDA have two parts); `ls -l /usr/local/cuda` naming the
            // toolkit the link points at ("/usr/local/cuda -> /usr/local/cuda-10.1/")
            free_toolkit: re(r"\bCUDA[ -]?toolkit(?: version)?\s*(?:is|=|:|v)?\s*(\d{1,2}\.\d(?:\.\d+)?)\b|\bnvcc\s*(?:==?|:)\s*cuda_(\d{1,2}\.\d)\.r\d|\bCUDA(?: version)?\s*(?:is|=|:|v)?\s*(\d{1,2}\.\d\.\d{2,3})\b|/usr/local/cuda/?\s+->\s+(?:/usr/local/)?cuda-(\d{1,2}\.\d)\b")?,
            // "Driver 13.0": people name the CUDA version nvidia-smi's header shows
            driver_cuda_free: re(r"(?:\bdriver(?: version)?\s*(?:is|=|:)?\s*|\bCUDA UMD Version:?\s*)(1[0-9]\.\d)\b")?,
            // lspci: "05:00.0 VGA compatible controller [0300]: NVIDIA Corporation GA102 [GeForce RTX 3090] [10de:2204] (rev a1)"
            lspci_gpu: re(r"^(?:[0-9a-f]{4}:)?[0-9a-f]{2}:[0-9a-f]{2}\.\d (?:VGA compatible controller|3D controller)(?: \[03\d\d\])?: NVIDIA Corporation (?:\S+ )?(?:\[([^\]]+)\])?")?,
            lspci_device: re(r"^(?:[0-9a-f]{4}:)?[0-9a-f]{2}:[0-9a-f]{2}\.\d ")?,
            // nvidia-smi -q -x (also HTML-escaped): "<driver_version>591.74</driver_version>"
            smi_xml: re(r"<(driver_version|cuda_version|product_name)(?:>|&gt;)([^<]+)</")?,
            // what `print(torch.__version__)` / a REPL printed on the next line
            bare_value: re(r"^(?:>>>\s*)?'?(\d+\.\d+(?:\.\d+)?(?:\.dev\d+|a0|rc\d)?(?:\+[\w.]+)?|True|False)'?$")?,
            // the attribute printed with its value on one line: flash-attn's setup
            // ("torch.__version__  = 2.2.2+cu121"), "torch.__version__: 2.0.1" (a comparison
            // `==` in code is not a value)
            torch_version_inline: re(r"(?:^|[\s>(])torch\.__version__\s*(?:=|:)\s*'?(\d+\.\d+(?:\.\d+)?(?:\.dev\d+|a0|rc\d)?(?:\+[\w.]+)?)'?\s*$")?,
            // SD.Next: "Torch detected GPU: NVIDIA GeForce RTX 3070 Ti VRAM 8192 Arch (8, 6) Cores 48"
            sdnext_gpu: re(r"Torch detected GPU: (.+?) VRAM \d+")?,
            // SD.Next: "Torch backend: nVidia CUDA 11.8 cuDNN 8700"
            sdnext_backend: re(r"Torch backend: nVidia CUDA (\d{1,2}\.\d)\b")?,
            // TensorFlow's "Found device 0 with properties:" ("pciBusID: ... name: TITAN Xp
            // computeCapability: 6.1"; TF 1.x: "name: GeForce GTX 1650 Ti major: 7 minor: 5")
            tf_device: re(r"\bname: (.+?) (?:computeCapability: \d+\.\d+|major: \d+ minor: \d+)")?,
            // TF 1.x-2.x: "Creating TensorFlow device (/gpu:0) -> (device: 0, name: GeForce GTX
            // 1080, pci bus id: 0000:01:00.0)", "Created device ... -> device: 0, name: NVIDIA ..."
            tf_created: re(r"\bdevice: (\d+), name: ([^,]+), pci bus id: ([0-9A-Fa-f:.]+)")?,
            // a loaded driver library's file names the driver ("libcuda.so.545.23.08",
            // "libnvidia-ml.so.535.104.05"): Ollama, nvidia-container-cli, ldconfig -p, ls
            lib_driver: re(r"\blib(?:cuda|nvidia-ml|nvidia-ptxjitcompiler|nvcuvid|nvidia-encode)\.so\.(\d{3}\.\d{2,3}(?:\.\d{2})?)\b")?,
            // logfmt GPU names (Ollama: name="NVIDIA GeForce RTX 4080", description="NVIDIA
            // RTX A6000", device="..."): a quoted value that names an NVIDIA GPU
            logfmt_gpu: re(r#"\b(?:description|name|device)="((?:NVIDIA |Tesla |Quadro |GeForce |TITAN )[^"]+)""#)?,
            logfmt_id: re(r"\b(?:id|gpu)=(GPU-[0-9a-fA-F-]+|\d+)\b")?,
            // Ollama's "inference compute ... library=cuda ... driver=12.3": the driver's CUDA
            logfmt_driver: re(r"\blibrary=cuda\b.*\bdriver=(\d{1,2}\.\d)\b")?,
            // llama.cpp / ggml: "  Device 0: NVIDIA GeForce RTX 4070, compute capability 8.9, VMM: yes"
            llama_device: re(r"^Device (\d+): (.+?), compute capability \d+\.\d+")?,
            // the CUDA samples (p2pBandwidthLatencyTest): "Device: 0, GeForce GTX 1080 Ti, pciBusID: 2, ..."
            sample_device: re(r"^Device: (\d+), (.+?), pciBusID: [0-9a-f]+")?,
            // InvokeAI: "Using torch device: NVIDIA GeForce RTX 4090"
            torch_device: re(r"\bUsing torch device: (.+)$")?,
            // Python pairs, dict or tuple form: "'cuda_version': '11.2'", "('cudnn_version', '8')"
            py_pair: re(r"'([A-Za-z][\w.-]*)'(?:\s*:\s*|\s*,\s*)'(\d[\w.+-]*)'")?,
            // modinfo nvidia: "firmware: nvidia/515.48.07/gsp.bin" (the GSP firmware is the driver's)
            modinfo_firmware: re(r"^firmware:\s+nvidia/(\d{3}\.\d+(?:\.\d+)?)/")?,
            // nvidia-smi under an NVML mismatch: "NVML library version: 550.144" (the user-space side)
            // (also inside a sentence: "failed ... against NVML library version: 590.44")
            // a poster's words for nvidia-smi finding no driver: "run 'nvidia-smi' returns no drivers detected"
            smi_no_driver_words: re(
                r"(?i)\bnvidia-smi'?\W{0,2}[^.\n]{0,20}\b(?:returns?|says|reports?|shows?|gives?|prints?|complains?)\b[^.\n]{0,20}\b(?:no|(?:are|is)(?:n't| not) any) (?:nvidia )?(?:drivers?|devices?)\b|\bnvidia-smi\b[^.\n]{0,40}\b(?:message|saying|says|said|complain\w*|tells?)\b[^.\n]{0,20}\b(?:cannot|can't|couldn't|could not|unable to) communicate (?:with|to) (?:the )?(?:nvidia )?driver\b",
            )?,
            // the shell finding none of the driver's own tools: they ship with the driver package
            // DCGM's diagnostic table: "| Driver Version Detected   | 560.35.03   |"
            dcgm_driver: re(r"^\|?\s*Driver Version Detected\s*\|\s*(\d{3}\.\d+(?:\.\d+)?)\s*\|?")?,
            // `dcgmi nvlink --link-status`: "gpuId 0:" then its links' states on the next
            // line ("D D D U ...": Up, Down, Disabled, Not Supported)
            nvlink_gpu: re(r"^gpuId \d+:$")?,
            nvlink_states: re(r"^(?:[UDX_]\s+)*[UDX_]$")?,
            // containerd / CRI-O without an nvidia runtime handler for the pod's runtime
            // class: 'no runtime for "nvidia" is configured', 'RuntimeHandler "nvidia" not supported'
            // also nvidia-container-cli's "cgroup subsystem devices not found" (a toolkit older than
            // 1.8 on a cgroup v2 host: no GPU container can start), and Docker's "could not select
            // device driver \"\" with capabilities: [[gpu]]" (no NVIDIA device driver registered)
            runtime_handler_missing: re(r#"no runtime for "?nvidia"? is configured|RuntimeHandler "?nvidia"? not supported|unknown or invalid runtime name: nvidia|nvidia-container-cli: container error: cgroup subsystem devices not found|could not select device driver "[^"]{0,20}" with capabilities: \[\[gpu\]\]"#)?,
            persistence_words: re(r"\bnvidia-persistenced\b|\bnvidia-smi -pm [01]\b|\bpersistence[- ]mode\b")?,
            // `nvidia-smi nvlink -s`: "Link 3: <inactive>"
            nvlink_inactive: re(r"^Link \d+: <inactive>$")?,
            driver_tool_missing: re(
                r"(?:^|[\s:])(?:nvidia-smi|prime-select|nvidia-settings|nvidia-xconfig|nvidia-detector|nvidia-modprobe): (?:command )?not found|command not found: (?:nvidia-smi|prime-select|nvidia-settings)\b|No such file or directory: '(?:nvidia-smi|prime-select|nvidia-settings)'|'nvidia-smi' is not recognized as an internal or external command|executable file not found in \$PATH: nvidia-smi|\bnvidia-smi\W{0,3}: executable file not found",
            )?,
            // apt refusing the driver's packages: " libnvidia-compute-535 : Depends: libc6 (>=
            // 2.34) but 2.31-13+deb11u7 is to be installed" (the driver never got installed)
            modprobe_nvidia: re(r"(?:^|\s)(?:modprobe(?:\s+-r)?|rmmod|insmod)\s+nvidia(?:[-_](?:uvm|drm|modeset))?\b")?,
            lsmod_nvidia: re(r"^nvidia\s+\d{4,}\s+\d+(?:\s+\S+)?$")?,
            // the nvidia module failing to build for the running kernel (kbuild, the installer,
            // DKMS): "GPL-incompatible module nvidia.ko uses GPL-only symbol '__rcu_read_lock'",
            // "No kernel module was installed", "nvidia.ko failed to build!"
            module_build_failed: re(r"(?i)GPL-incompatible module nvidia(?:[-_]\w+)?\.ko uses GPL-only symbol|No kernel module was installed|\bnvidia(?:[-_]\w+)?\.ko failed to build\b|Failed to install the kernel module through DKMS|\bDKMS module '?nvidia[^\n]{0,30}\bfailed to build\b")?,
            apt_driver_unmet: re(r"^(?:nvidia-driver|libnvidia-[a-z0-9]+|nvidia-utils|nvidia-compute-utils|nvidia-kernel-common|nvidia-kernel-source|nvidia-dkms|cuda-drivers)(?:-\d{3})?(?:-server|-open)?(?::\w+)? : (?:Pre)?Depends: ")?,
            module_refused: re(
                r"(?i)(?:\bnvidia\b[^\n]{0,80}\b(?:Required key not available|Key was rejected by service)\b|\b(?:Required key not available|Key was rejected by service)\b[^\n]{0,80}\bnvidia|\bnvidia\b[^\n]{0,60}(?:Loading of unsigned module is rejected|module verification failed: signature)|NVIDIA kernel module (?:is )?(?:missing|not found)\b[^\n]{0,10}Falling back to nouveau)",
            )?,
            nvml_lib: re(r"\bNVML library version:\s*(\d{3}\.\d+(?:\.\d+)?)")?,
            // the kernel refusing a GPU: "NVRM: NVIDIA 470.256.02 driver release."
            driver_release: re(r"\bNVIDIA (\d{3}\.\d+(?:\.\d+)?) driver release\b")?,
            // dpkg -l: "ii  libnvidia-compute-510:amd64  510.47.03-0ubuntu1  amd64 ..."
            dpkg_driver: re(r"^ii\s+(?:(?:nvidia-driver|libnvidia-compute|nvidia-utils|nvidia-compute-utils|nvidia-dkms|nvidia-kernel-common|nvidia-kernel-source|libnvidia-gl|nvidia-headless(?:-no-dkms)?)-\d{3}(?:-server|-open)?|cuda-drivers(?:-\d{3})?)(?::\w+)?\s+(?:\d+:)?(\d{3}\.\d+(?:\.\d+)?)[-~\s]")?,
            // rpm -qa: "xorg-x11-drv-nvidia-cuda-550.54.14-1.fc39", "nvidia-driver-libs-535.104.05-1.el8"
            rpm_driver: re(r"^(?:xorg-x11-drv-nvidia(?:-cuda|-libs|-kmodsrc)?|nvidia-driver(?:-libs|-cuda-libs|-cuda)?|kmod-nvidia\S*?|akmod-nvidia|nvidia-kmod-common)-(\d{3}\.\d+(?:\.\d+)?)-\d")?,
            // conda specs: environment.yml / conda env export "- cuda-nvcc=11.6.124=hbba6d2d_0"
            conda_spec: re(r"^-\s+([A-Za-z][\w.-]*)=(\d[\w.]*)(?:=(\S+))?\s*$")?,
            // pins written inside prose: "My environment is `pytorch==1.7.1+cu110` and `deepspeed==0.6.5`"
            inline_pin: re(r"(?:^|[\s`'(,])([A-Za-z][\w.-]*)\s*={1,2}\s*(\d[\w.+-]*)")?,
            // "Python 3.10.9 (tags/v3.10.9...)" (start-up logs), "python=3.9", "Python version: 3.8"
            free_python: re(r"(?:^|[\s`(,])python(?:\s*version)?\s*(?:==|=|:|is|v)?\s*(3\.\d{1,2}(?:\.\d{1,2})?)\b")?,
            // xformers: "Python  3.10.11 (you have 3.10.6)": the one installed is the second
            python_you_have: re(r"^Python\s+\S+\s+\(you have (3\.\d{1,2}(?:\.\d{1,2})?)\)")?,
            // ds_report lines pasted inside prose: "torch version .......... 1.13.1+cu117 , and ..."
            dotted_inline: re(r"\b([A-Za-z][\w ]*?[A-Za-z])\s*\.{4,}\s*(\d[\w.+-]*)")?,
            // torch.__config__.show() ("PyTorch built with:"): "- CUDA Runtime 9.2", "- CuDNN 7.6.5"
            torch_config: re(r"^-\s*(CUDA Runtime|CuDNN)\s+(\d+\.\d+(?:\.\d+)?)")?,
            // nvtop: "Device 0 [NVIDIA GeForce RTX 4090] PCIe GEN 1@16x", two to a line
            nvtop_device: re(r"\bDevice (\d+) \[([^\]]+)\] PCIe")?,
            // torch's own warnings name the GPU it found: "Found GPU0 NVIDIA GeForce GTX 1080
            // which is of cuda capability 6.1", "NVIDIA GeForce RTX 5090 with CUDA capability
            // sm_120 is not compatible with the current PyTorch installation"
            torch_found_gpu: re(r"(?:\bFound GPU(\d+) (.+?) which is of cuda capability|^((?:NVIDIA |Tesla |Quadro |GeForce )\S.*?) with CUDA capability sm_\d+ is not compatible)")?,
            // "cuDNN 8.8", "cuDNN-8.05", "cudnn v7.6.5"
            free_cudnn: re(r"\bcudnn[ -]?v?(\d{1,2}\.\d{1,2}(?:\.\d{1,3})?)\b")?,
            // yum/dnf list: "cuda-drivers.x86_64   384.81-1   @cuda-9-0-local"
            yum_driver: re(r"^(?:cuda-drivers|nvidia-driver(?:-libs|-cuda|-cuda-libs)?|xorg-x11-drv-nvidia(?:-cuda|-libs)?|kmod-nvidia\S*?|nvidia-kmod(?:-common)?)\.(?:x86_64|aarch64|ppc64le|noarch|i686)\s+(?:\d+:)?(\d{3}\.\d+(?:\.\d+)?)-")?,
            // device reprs in a list: "['<0: Tesla V100-PCIE-32GB>', '<1: Tesla V100-PCIE-32GB>']"
            angle_gpu: re(r"<(\d+): ([^<>]+)>")?,
            // "the latest NVIDIA standard driver (link), which is version `472.84`"
            driver_then_version: re(r"\bdrivers?\b.{0,120}?\bversion\W{0,3}(\d{3}\.\d{2,3}(?:\.\d{2})?)\b")?,
            // NGC containers' banner: "This container was built for NVIDIA Driver Release
            // 450.51 or later, but" (a requirement, no driver) / "version 440.64.00 was
            // detected and compatibility mode is UNAVAILABLE." (the host's driver)
            ngc_detected: re(r"(?i)\bversion\s+(\d{3}\.\d{2,3}(?:\.\d{1,3})?)\s+was detected\b")?,
            ngc_required: re(r"(?i)\bbuilt for NVIDIA Driver Release\s+\d{3}")?,
            // the driver named in Chinese: "驱动版本（572.83）", "显卡驱动 560.94", "驱动版本为 535.54.03"
            driver_zh: re(r"(?:显卡)?驱动(?:程序)?(?:版本)?(?:号)?\s*(?:是|为|:|：|（|\()?\s*(\d{3}\.\d{2,3}(?:\.\d{1,3})?)\b")?,
            // a framework's version in prose: "I'm on tensorflow 2.15.0", "vLLM v0.6.3", "jax 0.4.30"
            free_pkg: re(r"\b(tensorflow(?:-gpu)?|jaxlib|jax|vllm|sglang|xformers|flash[-_]attn|bitsandbytes|deepspeed|triton|onnxruntime-gpu|cupy|llama-cpp-python|paddlepaddle-gpu)(?:\s+version)?\s*(?:==|=|:|is)?\s*v?(\d+\.\d+(?:\.\d+)?(?:\.post\d+|rc\d+|\.dev\d+)?)(?:\b|$)")?,
            // "python (version 3.8.10)", "pytorch package (version 1.7.1)"
            paren_version: re(r"\b(python|pytorch|torch|tensorflow|jaxlib|jax|cuda)(?: package)? \(version (\d+\.\d+(?:\.\d+)?)\)")?,
            // apt list: "nvidia-driver-535/jammy-updates,now 535.183.01-0ubuntu0.22.04.1 amd64 [installed]"
            apt_driver: re(r"^(?:nvidia-driver|libnvidia-compute|nvidia-utils)-\d{3}(?:-server|-open)?/\S+\s+(?:\d+:)?(\d{3}\.\d+(?:\.\d+)?)-")?,
            // a packaged toolkit: "nvidia-cuda-toolkit/noble,now 12.0.140~12.0.1-4build4 amd64",
            // "ii  cuda-nvcc-12-4  12.4.131-1  amd64"
            pkg_toolkit: re(r"^(?:ii\s+)?(?:nvidia-cuda-toolkit|cuda-nvcc-\d+-\d+|cuda-toolkit-\d+-\d+)(?:/\S+)?(?::\w+)?\s+(?:\d+:)?(\d+\.\d+\.\d+)[-~\s]")?,
            // DKMS: "/var/lib/dkms/nvidia/470.57.02/build/...", `dkms status`'s
            // "nvidia/535.104.05, 6.5.0-14-generic, x86_64: installed" and "nvidia, 470.57.02, ..."
            dkms_driver: re(r"(?:/var/lib/dkms/nvidia(?:-current|-open|-tesla(?:-\d{3})?|-legacy-\d{3}xx)?/|^nvidia(?:-open|-current)?(?:/|,\s*)|\bDKMS module '?nvidia(?:-current)?-|^Loading new nvidia(?:-current)?-)(\d{3}\.\d+(?:\.\d+)?)\b")?,
            cuda_worked: re(r"(?:^Device: cuda:\d+ |CUDA out of memory\. Tried to allocate|^Total VRAM \d+ MB|no kernel image is available for execution on the device)")?,
            free_gpu: re(r"(?-u:\b)((?:NVIDIA )?(?:GeForce )?(?:RTX|GTX|GT) ?\d{3,4}(?: ?Ti| Super| SUPER| ?D|M)?(?: Laptop GPU)?|Quadro (?:RTX )?[A-Z]{0,2}\d{3,4}M?|(?:NVIDIA )?GB\d{2,3}|[1-5]0[5-9]0(?: Ti)? (?:Super|SUPER)|[1-5]0[5-9]0 ?Ti|Tesla (?:P4|M40|M60|K40m?|K20[mcx]?)|(?:NVIDIA )?RTX PRO \d{4}(?: Blackwell)?|(?:NVIDIA |Tesla )?(?:[AHBL]\d{2,3}|V100|P100|P40|T4|K80|L40S?|A10G?|RTX [A-Z]?\d{4})(?:[- ](?:SXM\d?|PCIE|\d{2}GB))*)(?-u:\b)")?,
            free_os: re(r"\b(Ubuntu \d{2}\.\d{2}(?:\.\d)?(?: LTS)?|(?i:ubuntu) ?\d{2}\.\d{2}(?:\.\d)?|Fedora(?: Linux)? \d{2}|Debian(?: GNU/Linux)? \d{1,2}|CentOS(?: Linux)? \d(?:\.\d+)?|Rocky Linux \d(?:\.\d+)?|AlmaLinux \d(?:\.\d+)?|(?:RHEL|Red Hat Enterprise Linux(?: Server)?(?: release)?) ?\d(?:\.\d+)?|DGX OS \d(?:\.\d+)?|Pop!_OS \d{2}\.\d{2}|Linux Mint \d{2}(?:\.\d)?|openSUSE (?:Leap \d{2}\.\d|Tumbleweed)|Amazon Linux (?:2023|2)|Windows (?:10|11|Server \d{4})|(?i:windows ?1[01]|win ?1[01])|Arch Linux|NixOS(?: \d{2}\.\d{2})?)\b")?,
            // `uname -a`'s line: the kernel's build ("#1 SMP PREEMPT_DYNAMIC Debian 6.1.69-1")
            uname: re(r"#\d+(?:[-~]\S+)? (?:SMP|PREEMPT)")?,
            // its kernel release and build: "6.1.0-17-amd64", "6.1.0-0.deb11.13-amd64" (a
            // Debian backport names its release), "#41~22.04.2-Ubuntu" (an Ubuntu HWE kernel
            // names its release)
            uname_kernel: re(r"\b(\d+\.\d+)\.\d+-(?:0\.deb(\d+)\.)?\d+\S* #\d+(?:~(\d{2}\.\d{2})\.\d+)?(-Ubuntu)?")?,
            // `ollama -v`: "ollama version is 0.5.7"
            ollama_version: re(r"\bollama version is (\d+\.\d+\.\d+)\b")?,
            // Lightning's device line at every start: "LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0,1]"
            lightning_rank: re(r"\bLOCAL_RANK: \d+ - CUDA_VISIBLE_DEVICES: \[([\d, ]{0,64})\]")?,
            // an attribute of torch and its value on one line, the way people write them down
            // ("torch.cuda.is_available(): True", "torch.cuda.device_count() = 2")
            torch_answer_inline: re(r"torch\.cuda\.(is_available|device_count)\(\)`?\s*(?:[:=]|->|returns?)\s*`?(True|False|\d{1,2})\b")?,
            comfy_device: re(r"^Device: cuda:\d+ (.+?) : (?:cudaMallocAsync|native)")?,
            you_have: re(r"^PyTorch [\d.]+\S* with CUDA \S+ \(you have ([\d.]+(?:\+\w+)?)\)")?,
            // (the nightly's too: "pytorch/linux-64::pytorch-nightly-1.2.0.dev20190805+cpu-py3.7_cpu_0")
            conda_plan: re(r"\bpytorch(?:-nightly)?/[\w-]+::pytorch(?:-nightly)?-(\d[\w.+]*)-(\S+)")?,
            ignored_by: re(r"The (\d{3}\.\d+(?:\.\d+)?) NVIDIA driver will ignore")?,
            tk_vs_torch: re(r"(?:Installed CUDA version ([\d.]+) does not match the version torch was compiled with ([\d.]+)|The detected CUDA version \(([\d.]+)\) (?:mismatches|has a minor version mismatch with) the version that was used to compile\s*(?:PyTorch \(([\d.]+)\))?|PyTorch has CUDA Version=(\d+\.\d+))")?,
            found_version: re(r"found version (\d{4,6})")?,
            env_module: re(r"\bcuda/(\d+\.\d+(?:\.\d+)?)\b")?,
            // a driver named by its release or branch in words, in a line about NVIDIA's driver:
            // "release 590.44.01", "rilis 590.44.01", "the 590 series", "driver ... seri 590"
            driver_in_words: re(
                r"(?i)\b(?:release|rilis|version|versi|versión|versão|versione)\s+(\d{3}\.\d{2,3}(?:\.\d{1,3})?)\b|\b(?:driver|drivers|treiber|pilote|controlador)\b[^.\n]{0,25}\b(?:series|seri|série|serie|branch)\s+(\d{3})\b|\b(\d{3})[- ]series\b",
            )?,
            free_driver2: re(r"(?:\b(?:Game Ready|Studio)(?: Driver)?(?: and Studio Driver)?\s+(\d{3}\.\d{2})\b|\b(\d{3}(?:\.\d{1,3}){0,2}) (?:nvidia )?drivers?\b|\bnvidia-(?:driver-)?(\d{3})\b|(?:upgrad\w*|updat\w*|install\w*)(?: from \d{3}\.\d{2,3}(?:\.\d{1,3})?(?:-\d+)?)? to (\d{3}\.\d{2,3}(?:\.\d{1,3})?)|\bNVIDIA (\d{3}\.\d{2,3}(?:\.\d{2,3})?)\b)")?,
            torch_spaced: re(r"\b(?:py)?torch(?: version)? (\d\.\d{1,2}\.\d{1,2}) ?\+ ?(cu\d{2,3}|cpu)\b")?,
            cuda_image: re(r"\bnvidia/cuda:(\d+\.\d+)(?:\.\d+)?(?:-|\s|$)")?,
            // a docker compose file (its top-level `services:`, a service's `deploy:`) and the
            // image a service or a command runs ("image: ghcr.io/blakeblackshear/frigate:stable")
            compose_file: re(r"^(?:services:\s*$|\s+deploy:\s*(?:#.*)?$|\s+runtime:\s+nvidia\s*$)")?,
            container_image: re(r"\bimage:\s+[a-z0-9][\w.-]*/[\w./-]+(?::[\w.-]+)?\s*$")?,
            // Hugging Face's env commands (transformers, diffusers, accelerate, peft): "- PyTorch
            // version (GPU?): 2.5.1+cu124 (True)", from transformers 4.48 on "(accelerator?):
            // 2.6.0+cu124 (CUDA)", "- Flax version (CPU?/GPU?/TPU?): not installed (NA)"
            hf_framework: re(r"^(?:[-*]\s*)?(PyTorch|Torch|TensorFlow|Flax|Jax|JaxLib)\s+version\s*\((?:GPU\?|accelerator\?|CPU\?/GPU\?/TPU\?)\)\s*:\s*(.*?)\s*(?:\((True|False|CUDA|NA|MPS|XPU|NPU|CPU|ROCm|HIP)\))?\s*$")?,
            // Ultralytics' start-up line: "Ultralytics YOLOv8.0.227 🚀 Python-3.11.6
            // torch-2.1.1+cu121 CUDA:0 (NVIDIA GeForce GTX 1650 SUPER, 4096MiB)", YOLOv5's
            // "YOLOv5 🚀 v7.0-187 Python-3.10.12 torch-2.0.1+cu118 CUDA:0 (Tesla T4, 15102MiB)",
            // older "YOLOv5 v4.0-14-gb75c432 torch 1.7.1 CPU"
            ultra_torch: re(r"\bPython-\d+\.\d+(?:\.\d+)?\s+torch-(\d+\.\d+(?:\.\d+)?(?:\+[a-z]+\d*)?)|\btorch[- ](\d+\.\d+(?:\.\d+)?(?:\+[a-z]+\d*)?)\s+(?:CUDA:\d|CPU\b)")?,
            ultra_device: re(r"\bCUDA:(\d+)\s+\(([^,()]+?),\s*[\d.]+\s*Mi?B\)")?,
            // `yolo checks`' package rows: "torch               ✅ 2.1.1+cu121>=1.8.0"
            paddle_device: re(r"\bDriver API Version: (\d+\.\d+), Runtime API Version: (\d+\.\d+)")?,
            stub_loaded: re(r"^\S*/stubs/libcuda\.so(?:\.1)?$|=>\s*\S*/stubs/libcuda\.so(?:\.1)?$|/stubs/libcuda\.so(?:\.1)?: undefined symbol|\bloaded from\s+\S*/stubs/libcuda\.so")?,
            check_row: re(r"^([A-Za-z][\w.-]*)\s+(?:✅|❌)\s*(\d[\w.+-]*?)(?:\s*(?:[<>=!~]=?|is required).*)?$")?,
        })
    })
    .as_ref()
}

/// Strips what pastes wrap lines in: quote marks, list bullets, markdown bold, code fences.
fn clean(raw: &str) -> String {
    let mut l = raw
        .replace('\u{FF1A}', ":")
        .replace('\t', "  ")
        .replace('\0', "");
    while let Some(rest) = l.trim_start().strip_prefix('>') {
        l = rest.to_string();
    }
    // an issue template's example ("(e.g., Linux Ubuntu 16.04)") is no fact
    for _ in 0..4 {
        let Some(start) = l.find("(e.g.") else { break };
        let end = l[start..].find(')').map_or(l.len(), |e| start + e + 1);
        l.replace_range(start..end, "");
    }
    let l = l.trim().trim_end_matches('\r');
    // glog's prefix (tritonserver, Caffe, TensorRT-LLM: "I1105 01:26:08.078690 1
    // metrics.cc:193]   GPU 0: TITAN Xp"): the message after it is the line
    strip_glog_prefix(l).to_string()
}

/// The message of a glog line ("I0404 03:45:10.685058 9037 server.cc:278] msg" -> "msg").
fn strip_glog_prefix(l: &str) -> &str {
    let b = l.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|s| s.iter().all(u8::is_ascii_digit));
    if !(b.len() > 20 && matches!(b[0], b'I' | b'W' | b'E' | b'F') && digits(1..5) && b[5] == b' ')
    {
        return l;
    }
    match l.find("] ") {
        Some(end) if end < 80 && l[..end].contains(':') => l[end + 2..].trim_start(),
        _ => l,
    }
}

fn torch_cuda_of(version: &str) -> Option<String> {
    let tag = version.split_once("+cu")?.1;
    let digits: String = tag.chars().take_while(char::is_ascii_digit).collect();
    if digits.len() < 2 {
        return None;
    }
    let (major, minor) = digits.split_at(digits.len() - 1);
    Some(format!("{}.{minor}", major.trim_start_matches('0')))
}

fn looks_like_version(v: &str) -> bool {
    v.chars().next().is_some_and(|c| c.is_ascii_digit())
        && v.contains('.')
        && v.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '+' | '-' | '_'))
}

/// A free-form GPU name is a word of its own, not part of a path, host name or build id
/// ("dvs-builder@U22-I3-B10-02-5" names no B10).
fn stands_alone(line: &str, start: usize, end: usize) -> bool {
    let before = line[..start].chars().next_back();
    let after = line[end..].chars().next();
    !before.is_some_and(|c| c.is_ascii_alphanumeric() || "-_@/\\.=".contains(c))
        && !after.is_some_and(|c| c.is_ascii_alphanumeric() || "-_@/\\".contains(c))
}

fn note(ce: &mut CollectEnv, format: &str) {
    if !ce.formats.iter().any(|f| f == format) {
        ce.formats.push(format.to_string());
    }
}

/// Records what a paste's line observed (a finding id), once per id, with the line (its first
/// 300 characters) as the evidence.
fn observe(ce: &mut CollectEnv, id: &str, line: &str) {
    if !ce.kernel_observed.iter().any(|(k, _)| k == id) {
        ce.kernel_observed
            .push((id.to_string(), line.chars().take(300).collect()));
    }
}

fn set(slot: &mut Option<String>, v: &str) {
    if slot.is_none() && !v.trim().is_empty() {
        *slot = Some(v.trim().to_string());
    }
}

/// Everything the paste says, whatever its formats.
pub fn parse(text: &str) -> CollectEnv {
    // OpenMMLab's collect_env printed as a Python mapping: read as its "key: value" lines
    let expanded = expand_env_mapping(text);
    let text = expanded.as_deref().unwrap_or(text);
    let mut ce = collect_env::parse(text);
    if !ce.is_empty() {
        note(&mut ce, "torch collect_env");
    }
    let Some(p) = patterns() else {
        return ce;
    };
    // GPUs from structured blocks other than collect_env, kept apart so one block's
    // list is not doubled by another's.
    let structured_gpus = !ce.gpus.is_empty();
    let mut smi_gpus: Vec<String> = Vec::new();
    let mut block_gpus: Vec<String> = Vec::new();
    let mut free_gpus: Vec<String> = Vec::new();
    let mut free_driver: Option<String> = None;
    let mut ngc_driver: Option<String> = None;
    let mut free_cuda: Option<String> = None;
    let mut free_torch: Option<String> = None;
    let mut free_os: Option<String> = None;
    let mut uname_os: Option<String> = None;
    let mut in_smi_q = false;
    let mut conda_installs_torch = false;
    let mut smi_cuda_seen = false;
    // inside version.json's "cuda" entry: its "name" was "CUDA SDK"
    let mut cuda_sdk_entry = false;
    let mut image_cudas: Vec<String> = Vec::new();
    let mut required_cuda: Option<String> = None;
    // `pip show torch`: the "Name:" its "Version:" belongs to
    let mut pip_show: Option<String> = None;
    let mut cuda_worked = false;
    let mut upgraded = false;
    let mut free_toolkit: Option<String> = None;
    let mut lspci_gpus: Vec<String> = Vec::new();
    // inside an lshw "*-display" block: (in it, its product line, its vendor is NVIDIA)
    let mut lshw: (bool, Option<String>, bool) = (false, None, false);
    // the last ubuntu-drivers "vendor :" line named NVIDIA
    let mut ubuntu_drivers_nvidia = false;
    let mut in_nvidia_lspci = false;
    // the torch attributes a command printed, in order ("print(torch.__version__,
    // torch.version.cuda)"), whose answers the next lines hold
    let mut asked: Vec<&'static str> = Vec::new();
    let mut free_driver_cuda: Option<String> = None;
    // GPUs of `nvidia-smi -q -x`, and of logs that print a device each time they start
    // (identity, name): one list per kind, the longest wins (one GPU is not counted twice
    // because two formats name it)
    let mut xml_gpus: Vec<String> = Vec::new();
    let mut log_gpus: Vec<(String, String)> = Vec::new();
    // the driver as weaker witnesses say it (the NVML library, a library file name, the
    // installed packages): used when no block names the running driver
    let mut nvml_driver: Option<String> = None;
    let mut lib_driver: Option<String> = None;
    let mut pkg_driver: Option<String> = None;
    let mut pkg_toolkit: Option<String> = None;
    let mut free_python: Option<String> = None;
    let mut pin_torch: Option<String> = None;
    let mut free_cudnn: Option<String> = None;
    let mut free_pkgs: Vec<(String, String)> = Vec::new();
    let mut in_torch_config = false;
    // the previous line ended "`torch.__version__` is": its value opens this line
    let mut wrapped_ask = false;
    // inside Lightning's "* CUDA:" section, and its "- GPU:" list
    let mut lightning_cuda = false;
    let mut lightning_gpus = false;
    // torch.__config__.show() listed CUDA, or reached its build settings without it
    let mut config_cuda = false;
    let mut config_cpu = false;
    let mut in_modinfo = false;
    let mut in_nvc_info = false;
    // nvidia-smi --query-gpu ... --format=csv: the header's columns, then one row per GPU
    let mut csv_columns: Option<Vec<String>> = None;
    // a GitHub issue form's "### Heading" whose value is the next line
    let mut heading: Option<String> = None;
    // the previous line was `dcgmi nvlink --link-status`'s "gpuId N:"
    let mut after_nvlink_gpu = false;
    for raw in text.lines() {
        let line = clean(raw);
        if line.is_empty() || line.len() > 4096 {
            continue;
        }
        // NVLink links down, as DCGM or nvidia-smi list them: observed on the machine
        let link_states = std::mem::take(&mut after_nvlink_gpu);
        if p.nvlink_gpu.is_match(&line) {
            note(&mut ce, "dcgmi nvlink");
            after_nvlink_gpu = true;
            continue;
        }
        let links_down = (link_states
            && p.nvlink_states.is_match(&line)
            && line.split_whitespace().any(|t| t == "D"))
            || p.nvlink_inactive.is_match(&line);
        if links_down {
            observe(&mut ce, "gpu.nvlink_down", &line);
            continue;
        }
        // the driver's persistence named ("nvidia-persistenced", "nvidia-smi -pm 1")
        if p.persistence_words.is_match(&line) {
            note(&mut ce, "persistence mode (words)");
        }
        // libcuda resolved from the toolkit's stubs directory (numba's "Mapped libcuda.so
        // paths:", `ldconfig -p`'s "=> /usr/local/cuda/lib64/stubs/libcuda.so", ctypes'
        // ".../stubs/libcuda.so: undefined symbol"): the stub is what programs load
        if line.contains("/stubs/libcuda.so") && p.stub_loaded.is_match(&line) {
            note(&mut ce, "libcuda path");
            observe(&mut ce, "driver.stub_library", &line);
        }
        if let Some(m) = p.runtime_handler_missing.find(&line) {
            note(&mut ce, "container runtime");
            // a long engine error: the words observed, not its prologue
            let from = if m.end() > 300 { m.start() } else { 0 };
            observe(&mut ce, "host.container_no_gpu", &line[from..]);
        }
        if let Some(c) = p.dcgm_driver.captures(&line) {
            note(&mut ce, "dcgmi diag");
            if let Some(v) = c.get(1) {
                set(&mut ce.driver, v.as_str());
            }
            continue;
        }
        if let Some(h) = heading.take() {
            // a code fence opening the value ("### OS" / "```" / "Ubuntu 24.04"): the
            // heading names the fence's first line
            if line.starts_with("```") && line.len() <= 16 {
                heading = Some(h);
                continue;
            }
            // the value line, unless it has a key of its own ("Description:  Ubuntu 22.04");
            // a list item is the value of a bare "Key:" line above it
            let value = line
                .strip_prefix("- ")
                .or_else(|| line.strip_prefix("* "))
                .unwrap_or(&line);
            let own_key = value.contains(": ") || value.contains(":\t") || value.ends_with(':');
            if !value.starts_with('#') && !value.starts_with("```") && !own_key {
                let key = heading_key(&h);
                if keyed(&mut ce, &key, value, &mut block_gpus) {
                    note(&mut ce, "issue form");
                    continue;
                }
            }
        }
        if let Some(h) = line.strip_prefix("### ") {
            heading = Some(h.trim().to_string());
            continue;
        }
        // a bare "Key:" line over the list item that holds its value, as hand-written issue
        // templates have it ("OS:" / "- Manjaro Linux", "Driver:" / "- 580.173.02"): only the
        // keys of the facts the forms ask for (not "Intel GPU models onboard:" over its own
        // list), and never a list item itself ("- GPU:" nests in Lightning's report)
        if let Some(key) = line.strip_suffix(':').filter(|k| {
            !k.starts_with(['-', '*'])
                && matches!(
                    k.trim_start_matches(['#', ' '])
                        .trim()
                        .to_ascii_lowercase()
                        .as_str(),
                    "os" | "operating system"
                        | "driver"
                        | "driver version"
                        | "nvidia driver"
                        | "nvidia driver version"
                        | "gpu"
                        | "gpus"
                        | "cuda"
                        | "cuda version"
                        | "pytorch"
                        | "pytorch version"
                        | "torch version"
                )
        }) {
            heading = Some(key.trim_start_matches(['#', ' ']).trim().to_string());
            continue;
        }
        // a quoted label as a form's heading ("> Operating System", "> nvidia-smi" above a
        // fenced block): only the labels of facts the forms ask for
        if raw.trim_start().starts_with('>')
            && !line.contains(':')
            && line.len() <= 40
            && matches!(
                heading_key(&line).as_str(),
                "os" | "driver version" | "gpu" | "cuda" | "pytorch version" | "python"
            )
        {
            heading = Some(line.clone());
            continue;
        }
        // PyTorch Lightning's collect_env_details: "* CUDA:" then "- GPU:" with one "- <name>"
        // line per GPU, "- available: True", "- version: 12.1" (torch.version.cuda); other
        // sections ("* System:" has the kernel's "- version:") are read as key-value lines
        if line.starts_with("* ") && line.ends_with(':') {
            lightning_cuda = line.eq_ignore_ascii_case("* CUDA:");
            lightning_gpus = false;
            if lightning_cuda {
                note(&mut ce, "lightning collect_env_details");
            }
            continue;
        }
        if lightning_cuda {
            if let Some(item) = line.strip_prefix("- ") {
                let (key, value) = item
                    .split_once(':')
                    .map_or((item.trim(), ""), |(k, v)| (k.trim(), v.trim()));
                match key.to_ascii_lowercase().as_str() {
                    "gpu" if value.is_empty() => lightning_gpus = true,
                    "available" => {
                        lightning_gpus = false;
                        ce.cuda_available = match value.to_ascii_lowercase().as_str() {
                            "true" => Some(true),
                            "false" => Some(false),
                            _ => ce.cuda_available,
                        };
                    }
                    "version" => {
                        lightning_gpus = false;
                        if looks_like_version(value) {
                            set(&mut ce.torch_cuda, value);
                        }
                    }
                    _ if lightning_gpus
                        && !item.contains(':')
                        && !vendor_only(item)
                        && block_gpus.len() < 1024 =>
                    {
                        block_gpus.push(item.trim().to_string());
                    }
                    _ => {}
                }
                continue;
            }
            lightning_cuda = false;
        }
        // Lightning's start-up line: "GPU available: True (cuda), used: True"
        if let Some(rest) = line.strip_prefix("GPU available: ") {
            match rest.split([',', ' ']).next() {
                Some("True") => ce.cuda_available = ce.cuda_available.or(Some(true)),
                Some("False") => ce.cuda_available = ce.cuda_available.or(Some(false)),
                _ => {}
            }
            note(&mut ce, "lightning start-up");
            continue;
        }
        // a two-column markdown table of the environment ("| **Driver** | 580.142 |",
        // "| PyTorch | 2.12.1+cu130 |"): a key and its value
        if line.starts_with('|') && line.ends_with('|') && line.matches('|').count() == 3 {
            let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
            if let [key, value] = cells[..] {
                let key = key.replace(['*', '`'], "");
                let value = value.replace(['*', '`'], "");
                let key = key.trim().to_ascii_lowercase();
                if !key.is_empty()
                    && key.len() <= 40
                    && !key.starts_with('-')
                    && key
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || " ._-/()".contains(c))
                    && keyed(&mut ce, &key, value.trim(), &mut block_gpus)
                {
                    note(&mut ce, "markdown table");
                    continue;
                }
            }
        }
        // PaddlePaddle's device line: "Please NOTE: device: 0, GPU Compute Capability: 8.6,
        // Driver API Version: 11.4, Runtime API Version: 10.2" (the driver's CUDA, Paddle's)
        if let Some(c) = p.paddle_device.captures(&line) {
            note(&mut ce, "paddle device");
            if let Some(v) = c.get(1) {
                set(&mut ce.driver_cuda, v.as_str());
            }
        }
        // Hugging Face's env reports: the framework's version and whether it sees a GPU
        if let Some(c) = p.hf_framework.captures(&line) {
            note(&mut ce, "huggingface env");
            let name = c.get(1).map_or("", |m| m.as_str()).to_ascii_lowercase();
            let value = c.get(2).map_or("", |m| m.as_str()).trim();
            let first = value.split_whitespace().next().unwrap_or("");
            let sees = c.get(3).map(|m| m.as_str().to_ascii_lowercase());
            if name == "pytorch" || name == "torch" {
                if looks_like_version(first) {
                    set(&mut ce.torch, first);
                    // "(GPU?) ... (True)": torch.cuda.is_available(); "(accelerator?) ...
                    // (CUDA)": the accelerator torch uses, "NA" for none
                    ce.cuda_available = match sees.as_deref() {
                        Some("true" | "cuda") => Some(true),
                        Some("false" | "na" | "cpu") => ce.cuda_available.or(Some(false)),
                        _ => ce.cuda_available,
                    };
                }
            } else if name == "tensorflow" && looks_like_version(first) {
                package(&mut ce, "tensorflow", first, None);
            }
            continue;
        }
        // Ultralytics' start-up line: torch's version, and each CUDA device torch opened
        if let Some(v) = p
            .ultra_torch
            .captures(&line)
            .and_then(|c| c.get(1).or_else(|| c.get(2)))
        {
            note(&mut ce, "Ultralytics");
            set(&mut ce.torch, v.as_str());
            for c in p.ultra_device.captures_iter(&line).take(64) {
                let id = c.get(1).map_or("", |m| m.as_str());
                let name = c.get(2).map_or("", |m| m.as_str()).trim();
                push_log_gpu(&mut log_gpus, &format!("cuda:{id}"), name);
                cuda_worked = true;
            }
            continue;
        }
        // its further devices, one a line ("                      CUDA:1 (NVIDIA A100, 81051MiB)")
        if line.starts_with("CUDA:") {
            if let Some(c) = p.ultra_device.captures(&line) {
                let id = c.get(1).map_or("", |m| m.as_str());
                let name = c.get(2).map_or("", |m| m.as_str()).trim();
                push_log_gpu(&mut log_gpus, &format!("cuda:{id}"), name);
                continue;
            }
        }
        // `yolo checks`' package rows
        if line.contains(['✅', '❌']) {
            if let Some(c) = p.check_row.captures(&line) {
                let name = c.get(1).map_or("", |m| m.as_str()).to_ascii_lowercase();
                let version = c.get(2).map_or("", |m| m.as_str());
                if PACKAGES.contains(&name.as_str()) && looks_like_version(version) {
                    note(&mut ce, "yolo checks");
                    package(&mut ce, &name, version, None);
                }
                continue;
            }
        }
        // torch.__config__.show() (also at the end of detectron2's collect_env, and after
        // OpenMMLab's "PyTorch compiling details:")
        if line.starts_with("PyTorch built with:") || line.ends_with(": PyTorch built with:") {
            in_torch_config = true;
            note(&mut ce, "torch config");
            continue;
        }
        if in_torch_config {
            if line.starts_with('-') {
                // a CUDA build lists its CUDA Runtime and NVCC flags before its build
                // settings: build settings reached without them is a CPU build
                if line.starts_with("- CUDA Runtime") || line.starts_with("- NVCC architecture") {
                    config_cuda = true;
                }
                if line.starts_with("- Build settings:")
                    && !config_cuda
                    && !line.contains("CUDA_VERSION=")
                    && !line.contains("USE_CUDA=ON")
                    && !line.contains("USE_ROCM=ON")
                {
                    config_cpu = true;
                }
                if let Some(c) = p.torch_config.captures(&line) {
                    let v = c.get(2).map_or("", |m| m.as_str());
                    match c
                        .get(1)
                        .map_or("", |m| m.as_str())
                        .to_ascii_lowercase()
                        .as_str()
                    {
                        "cuda runtime" => set(&mut ce.torch_cuda, v),
                        _ => set(&mut ce.cudnn, v),
                    }
                }
                continue;
            }
            in_torch_config = false;
        }
        // modinfo nvidia
        // its file line, or the command itself ("$ modinfo nvidia | grep ^version")
        if (line.contains("ilename:") && line.contains("nvidia") && line.contains(".ko"))
            || (line.contains("modinfo") && line.contains("nvidia"))
        {
            in_modinfo = true;
            note(&mut ce, "modinfo");
            continue;
        }
        if let Some(v) = p.modinfo_firmware.captures(&line).and_then(|c| c.get(1)) {
            note(&mut ce, "modinfo");
            set(&mut ce.driver, v.as_str());
            continue;
        }
        if in_modinfo {
            if let Some(v) = line.strip_prefix("version:").map(str::trim) {
                if looks_like_version(v) {
                    set(&mut ce.driver, v);
                }
                continue;
            }
        }
        // the driver's version as other witnesses name it
        if let Some(v) = p.nvml_lib.captures(&line).and_then(|c| c.get(1)) {
            nvml_driver.get_or_insert_with(|| v.as_str().to_string());
        }
        if let Some(v) = p.lib_driver.captures(&line).and_then(|c| c.get(1)) {
            lib_driver.get_or_insert_with(|| v.as_str().to_string());
        }
        if let Some(v) = p.pkg_toolkit.captures(&line).and_then(|c| c.get(1)) {
            note(&mut ce, "package list");
            pkg_toolkit.get_or_insert_with(|| v.as_str().to_string());
            continue;
        }
        if let Some(v) = p
            .dpkg_driver
            .captures(&line)
            .or_else(|| p.rpm_driver.captures(&line))
            .or_else(|| p.yum_driver.captures(&line))
            .or_else(|| p.apt_driver.captures(&line))
            .and_then(|c| c.get(1))
        {
            note(
                &mut ce,
                if line.starts_with("ii") {
                    "dpkg -l"
                } else if p.apt_driver.is_match(&line) {
                    "apt list"
                } else if p.yum_driver.is_match(&line) {
                    "yum list"
                } else {
                    "rpm -qa"
                },
            );
            // several drivers' packages: the newest
            let newer = pkg_driver.as_deref().is_none_or(|d| {
                crate::version::DottedVersion::parse(v.as_str())
                    > crate::version::DottedVersion::parse(d)
            });
            if newer {
                pkg_driver = Some(v.as_str().to_string());
            }
            continue;
        }
        if let Some(v) = p.dkms_driver.captures(&line).and_then(|c| c.get(1)) {
            note(&mut ce, "dkms");
            pkg_driver.get_or_insert_with(|| v.as_str().to_string());
        }
        // nvidia-smi --query-gpu=...,name,driver_version --format=csv; with `noheader` the
        // command line itself names the columns of the rows that follow
        let noheader = line
            .split_once("--query-gpu=")
            .filter(|_| line.contains("noheader"))
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .and_then(|cols| csv_header(&cols.replace(',', ", ")));
        if let Some(columns) = noheader.or_else(|| csv_header(&line)) {
            note(&mut ce, "nvidia-smi --query-gpu");
            csv_columns = Some(columns);
            continue;
        }
        if let Some(columns) = &csv_columns {
            let cells: Vec<&str> = line.split(',').map(str::trim).collect();
            if cells.len() == columns.len() {
                for (column, cell) in columns.iter().zip(&cells) {
                    match column.as_str() {
                        "name" | "gpu_name" if !collect_env_absent(cell) => {
                            block_gpus.push((*cell).to_string());
                        }
                        "driver_version" if looks_like_version(cell) => set(&mut ce.driver, cell),
                        _ => {}
                    }
                }
                continue;
            }
            csv_columns = None;
        }
        // nvidia-container-cli info: "NVRM version:   390.87", "CUDA version:   9.1", then
        // a block per device whose "Model:" is the GPU
        // (/proc/driver/nvidia/version's "NVRM version: NVIDIA UNIX ..." is read below)
        if let Some(v) = line
            .strip_prefix("NVRM version:")
            .map(str::trim)
            .filter(|v| looks_like_version(v) || *v == "(null)")
        {
            note(&mut ce, "nvidia-container-cli info");
            in_nvc_info = true;
            if looks_like_version(v) {
                set(&mut ce.driver, v);
            }
            continue;
        }
        if in_nvc_info {
            if let Some(v) = line.strip_prefix("Model:").map(str::trim) {
                if !collect_env_absent(v) && !v.starts_with('(') {
                    block_gpus.push(v.to_string());
                }
                continue;
            }
        }
        if let Some(v) = p.driver_release.captures(&line).and_then(|c| c.get(1)) {
            note(&mut ce, "dmesg");
            set(&mut ce.driver, v.as_str());
        }
        // device lines of logs (TensorFlow, llama.cpp, Ollama, InvokeAI)
        if let Some(c) = p.tf_created.captures(&line) {
            note(&mut ce, "TensorFlow log");
            let id = c.get(3).map_or("", |m| m.as_str());
            let name = c.get(2).map_or("", |m| m.as_str());
            push_log_gpu(&mut log_gpus, &format!("pci:{id}"), name);
            continue;
        }
        if line.contains("] PCIe") {
            for c in p.nvtop_device.captures_iter(&line).take(64) {
                note(&mut ce, "nvtop");
                let id = c.get(1).map_or("", |m| m.as_str());
                let name = c.get(2).map_or("", |m| m.as_str());
                push_log_gpu(&mut log_gpus, &format!("nvtop:{id}"), name);
            }
        }
        if let Some(c) = p.torch_found_gpu.captures(&line) {
            note(&mut ce, "torch warning");
            let (id, name) = match (c.get(1), c.get(2), c.get(3)) {
                (Some(i), Some(n), _) => (format!("torch:{}", i.as_str()), n.as_str()),
                (_, _, Some(n)) => (n.as_str().to_string(), n.as_str()),
                _ => (String::new(), ""),
            };
            push_log_gpu(&mut log_gpus, &id, name);
        }
        if let Some(c) = p.sample_device.captures(&line) {
            note(&mut ce, "CUDA samples");
            let id = c.get(1).map_or("", |m| m.as_str());
            let name = c.get(2).map_or("", |m| m.as_str());
            push_log_gpu(&mut log_gpus, &format!("sample:{id}"), name);
            continue;
        }
        if let Some(c) = p.llama_device.captures(&line) {
            note(&mut ce, "llama.cpp log");
            let id = c.get(1).map_or("", |m| m.as_str());
            let name = c.get(2).map_or("", |m| m.as_str());
            push_log_gpu(&mut log_gpus, &format!("ggml:{id}"), name);
            continue;
        }
        if let Some(name) = p.torch_device.captures(&line).and_then(|c| c.get(1)) {
            note(&mut ce, "InvokeAI log");
            let name = name.as_str().trim();
            if !vendor_only(name) {
                push_log_gpu(&mut log_gpus, name, name);
                cuda_worked = true;
            }
            continue;
        }
        if let Some(name) = p.logfmt_gpu.captures(&line).and_then(|c| c.get(1)) {
            note(&mut ce, "Ollama log");
            let name = name.as_str().trim();
            let id = p
                .logfmt_id
                .captures(&line)
                .and_then(|c| c.get(1))
                .map_or(name, |m| m.as_str());
            push_log_gpu(&mut log_gpus, id, name);
        }
        if let Some(v) = p.logfmt_driver.captures(&line).and_then(|c| c.get(1)) {
            let l = line.to_ascii_lowercase();
            if l.contains("library=cuda")
                || l.contains("libdirs=")
                || l.contains("inference compute")
            {
                note(&mut ce, "Ollama log");
                set(&mut ce.driver_cuda, v.as_str());
            }
        }
        if let Some(v) = p.ollama_version.captures(&line).and_then(|c| c.get(1)) {
            note(&mut ce, "ollama -v");
            package(&mut ce, "ollama", v.as_str(), None);
        }
        if let Some(c) = p.lightning_rank.captures(&line) {
            let devices: Vec<&str> = c[1]
                .split(',')
                .map(str::trim)
                .filter(|d| !d.is_empty())
                .collect();
            note(&mut ce, "Lightning log");
            ce.env
                .entry("CUDA_VISIBLE_DEVICES".to_string())
                .or_insert_with(|| devices.join(","));
            // Lightning names the devices it will use: CUDA saw them
            if !devices.is_empty() {
                ce.cuda_available = ce.cuda_available.or(Some(true));
            }
        }
        // a Python traceback's frame: the paste holds the program's error
        if line.contains("File \"") && line.contains("\", line ") {
            note(&mut ce, "python traceback");
        }
        // "module 'torch._C' has no attribute '_cuda_getDevice'": only a torch built without
        // CUDA lacks its _cuda_* bindings
        if line.contains("torch._C' has no attribute '_cuda_") {
            ce.torch_cpu_only = true;
            note(&mut ce, "torch error");
        }
        // `print(torch.__version__)` / `>>> torch.cuda.is_available()`: the answer is the
        // next line; several attributes in one print answer on one line ("2.1.0+cu121 12.1
        // False") or one line each
        if let Some(c) = p.torch_answer_inline.captures(&line) {
            let available = if c[1].eq_ignore_ascii_case("is_available") {
                c[2].eq_ignore_ascii_case("true")
            } else {
                c[2].parse::<u32>().is_ok_and(|n| n > 0)
            };
            ce.cuda_available = ce.cuda_available.or(Some(available));
            note(&mut ce, "python output");
            continue;
        }
        let answers = python_answers(&line, &asked, &p.bare_value).or_else(|| {
            torch_print_line(&line).inspect(|_| asked = vec!["version", "cuda", "available"])
        });
        if let Some(values) = answers {
            let whats: Vec<&str> = asked.drain(..values.len()).collect();
            for (what, v) in whats.into_iter().zip(&values) {
                match (what, v.as_str()) {
                    ("available", "True") => ce.cuda_available = ce.cuda_available.or(Some(true)),
                    ("available", "False") => ce.cuda_available = ce.cuda_available.or(Some(false)),
                    // no device torch can see is CUDA not available to it
                    ("count", "0") => ce.cuda_available = ce.cuda_available.or(Some(false)),
                    ("count", n) if n.bytes().all(|b| b.is_ascii_digit()) => {
                        ce.cuda_available = ce.cuda_available.or(Some(true))
                    }
                    ("version", v) if v.contains('.') => {
                        free_torch.get_or_insert_with(|| v.to_string());
                    }
                    ("cuda", v) if v.contains('.') => set(&mut ce.torch_cuda, v),
                    // torch.version.cuda is None in a CPU build
                    ("cuda", "None") => ce.torch_cpu_only = true,
                    _ => {}
                }
            }
            note(&mut ce, "python output");
            continue;
        }
        // prose wrapped after "`torch.__version__` is": the value opens the next line
        // ("`2.9.1+cpu` and `torch.version.cuda` is `None`.")
        if wrapped_ask {
            let first = line
                .split_whitespace()
                .next()
                .unwrap_or("")
                .trim_matches('`');
            if let (Some(what), Some(v)) = (
                asked.first(),
                p.bare_value.captures(first).and_then(|c| c.get(1)),
            ) {
                match (*what, v.as_str()) {
                    ("version", v) if v.contains('.') => {
                        free_torch.get_or_insert_with(|| v.to_string());
                    }
                    ("cuda", v) if v.contains('.') => set(&mut ce.torch_cuda, v),
                    _ => {}
                }
            }
        }
        wrapped_ask = false;
        asked.clear();
        // Secure Boot's state, as `mokutil --sb-state` prints it ("SecureBoot enabled") or a
        // sentence gives it ("later I enabled the Secure Boot"): it decides whether an unsigned
        // nvidia module may load
        {
            let l = line.to_ascii_lowercase();
            if (l.contains("secureboot") || l.contains("secure boot"))
                && [
                    "enabled",
                    "disabled",
                    "turned on",
                    "turned off",
                    "enable the",
                    "disable the",
                ]
                .iter()
                .any(|w| l.contains(w))
            {
                note(&mut ce, "Secure Boot state");
            }
        }
        if let Some(v) = p
            .torch_version_inline
            .captures(&line)
            .and_then(|c| c.get(1))
        {
            free_torch.get_or_insert_with(|| v.as_str().to_string());
            note(&mut ce, "python output");
            continue;
        }
        asked = asked_attributes(&line);
        if asked.is_empty() {
            // a sentence broken after "`torch.__version__` is"
            let tail = line.trim_matches('`').trim_end();
            for (attr, what) in [
                ("torch.__version__", "version"),
                ("torch.version.cuda", "cuda"),
            ] {
                if tail.ends_with(&format!("{attr}` is")) || tail.ends_with(&format!("{attr} is")) {
                    asked = vec![what];
                    wrapped_ask = true;
                }
            }
        }
        // lshw -C display: "*-display" blocks; "product: G98 [GeForce 9300 GS]", "vendor:
        // NVIDIA Corporation", "configuration: driver=nouveau latency=0" (which driver holds it)
        if line.starts_with("*-") {
            lshw = (line.starts_with("*-display"), None, false);
        } else if lshw.0 {
            if let Some(product) = line.strip_prefix("product:") {
                lshw.1 = Some(product.trim().to_string());
                continue;
            }
            if let Some(vendor) = line.strip_prefix("vendor:") {
                lshw.2 = vendor.contains("NVIDIA");
                if let Some(product) = lshw.1.take().filter(|_| lshw.2) {
                    note(&mut ce, "lshw");
                    // the marketing name in brackets, else the chip ("GP107GL")
                    let name = product
                        .split_once('[')
                        .and_then(|(_, r)| r.split_once(']'))
                        .map_or(product.as_str(), |(n, _)| n)
                        .trim()
                        .to_string();
                    if lspci_gpus.len() < 64 && !name.is_empty() {
                        lspci_gpus.push(name);
                    }
                }
                continue;
            }
            if let Some(conf) = line.strip_prefix("configuration:").filter(|_| lshw.2) {
                let driver = conf
                    .split_whitespace()
                    .find_map(|kv| kv.strip_prefix("driver="));
                match driver {
                    Some("nvidia") => ce.module_in_use = true,
                    Some("nouveau")
                        if !ce
                            .kernel_observed
                            .iter()
                            .any(|(k, _)| k == "driver.nouveau_loaded") =>
                    {
                        ce.kernel_observed
                            .push(("driver.nouveau_loaded".into(), line.clone()));
                    }
                    _ => {}
                }
                continue;
            }
            if line.starts_with("description:") {
                // a PCI class ("VGA compatible controller"), not lsb_release's OS
                continue;
            }
        }
        // lsmod: "nvidia  56795136  17 nvidia_uvm,nvidia_modeset": the nvidia module is loaded
        if line.starts_with("nvidia ") && p.lsmod_nvidia.is_match(&line) {
            note(&mut ce, "lsmod");
            ce.module_in_use = true;
            continue;
        }
        // ubuntu-drivers devices: "vendor   : NVIDIA Corporation" then "model    : GF108GLM
        // [NVS 5200M]" (the marketing name in brackets)
        if let Some(vendor) = line
            .strip_prefix("vendor")
            .and_then(|r| r.trim_start().strip_prefix(':'))
        {
            ubuntu_drivers_nvidia = vendor.contains("NVIDIA");
        } else if let Some(model) = line
            .strip_prefix("model")
            .and_then(|r| r.trim_start().strip_prefix(':'))
            .filter(|_| ubuntu_drivers_nvidia)
        {
            ubuntu_drivers_nvidia = false;
            if let Some((_, rest)) = model.split_once('[') {
                let name = rest.split(']').next().unwrap_or("").trim();
                if !name.is_empty() && lspci_gpus.len() < 64 {
                    note(&mut ce, "ubuntu-drivers");
                    lspci_gpus.push(name.to_string());
                }
            }
            continue;
        }
        // lspci: the GPU's name, and which kernel driver holds it
        if let Some(c) = p.lspci_gpu.captures(&line) {
            note(&mut ce, "lspci");
            in_nvidia_lspci = true;
            if let Some(name) = c.get(1).filter(|m| !m.as_str().contains(':')) {
                if lspci_gpus.len() < 64 {
                    lspci_gpus.push(name.as_str().trim().to_string());
                }
            }
            continue;
        }
        if p.lspci_device.is_match(&line) {
            in_nvidia_lspci = false;
        }
        if in_nvidia_lspci {
            if let Some(driver) = line.strip_prefix("Kernel driver in use:") {
                let driver = driver.trim();
                if driver == "nvidia" {
                    ce.module_in_use = true;
                }
                let seen = ce
                    .kernel_observed
                    .iter()
                    .any(|(k, _)| k == "driver.nouveau_loaded");
                if driver == "nouveau" && !seen {
                    ce.kernel_observed
                        .push(("driver.nouveau_loaded".into(), line.clone()));
                }
                continue;
            }
        }
        // TensorFlow's device list
        if let Some(name) = p.tf_device.captures(&line).and_then(|c| c.get(1)) {
            note(&mut ce, "TensorFlow log");
            if block_gpus.len() < 1024 {
                block_gpus.push(name.as_str().trim().to_string());
            }
            continue;
        }
        // SD.Next's start-up log
        if let Some(c) = p.sdnext_gpu.captures(&line) {
            note(&mut ce, "SD.Next log");
            if let Some(name) = c.get(1) {
                let name = name.as_str().trim();
                push_log_gpu(&mut log_gpus, name, name);
            }
            // torch itself named the device: CUDA worked
            cuda_worked = true;
            continue;
        }
        if let Some(v) = p.sdnext_backend.captures(&line).and_then(|c| c.get(1)) {
            note(&mut ce, "SD.Next log");
            set(&mut ce.torch_cuda, v.as_str());
        }
        // Python dicts and tuples: "{'torch': '2.4.1+cpu'}", tf.sysconfig.get_build_info()'s
        // "('cuda_version', '11.2')"
        if line.contains('\'') {
            for c in p.py_pair.captures_iter(&line).take(64) {
                let name = c.get(1).map_or("", |m| m.as_str()).to_ascii_lowercase();
                let version = c.get(2).map_or("", |m| m.as_str());
                if name == "cuda_version" {
                    note(&mut ce, "python dict");
                    set(&mut ce.cuda_mentioned, version);
                } else if name == "cudnn_version" {
                    note(&mut ce, "python dict");
                    set(&mut ce.cudnn, version);
                } else if PACKAGES.contains(&name.as_str()) && looks_like_version(version) {
                    note(&mut ce, "python dict");
                    package(&mut ce, &name, version, None);
                }
            }
        }
        // nvidia-smi -q -x
        if let Some(c) = p.smi_xml.captures(&line) {
            note(&mut ce, "nvidia-smi -q -x");
            let v = c.get(2).map_or("", |m| m.as_str()).trim();
            match c.get(1).map_or("", |m| m.as_str()) {
                "driver_version" => set(&mut ce.driver, v),
                "cuda_version" => set(&mut ce.driver_cuda, v),
                _ => xml_gpus.push(v.to_string()),
            }
            continue;
        }
        // nvidia-smi
        if let Some(c) = p.smi_header.captures(&line) {
            note(&mut ce, "nvidia-smi");
            if let Some(d) = c.get(2) {
                set(&mut ce.driver, d.as_str());
            }
            // the first nvidia-smi header's CUDA is what the driver answered: it outranks a
            // "CUDA version:" key read earlier (an issue form's, often the toolkit's)
            if let Some(v) = c.get(3).filter(|_| !smi_cuda_seen) {
                ce.driver_cuda = Some(v.as_str().trim().to_string());
                smi_cuda_seen = true;
            }
            // the header inside prose ("# Ubuntu 20.04 GeForce RTX 3070 / NVIDIA-SMI 460.73.01
            // Driver Version: 460.73.01 / ..."): the rest of the line is read too
            if line.starts_with('|') || line.starts_with("NVIDIA-SMI") {
                continue;
            }
        }
        if let Some(c) = p.smi_row.captures(&line) {
            if let Some(name) = c.get(2) {
                smi_gpus.push(name.as_str().trim().to_string());
                ce.smi_answered = true;
            }
            continue;
        }
        if let Some(c) = p.mig_row.captures(&line) {
            note(&mut ce, "nvidia-smi");
            let n = |i: usize| c.get(i).map_or("", |m| m.as_str());
            if ce.mig.len() < 1024 {
                ce.mig.push(format!(
                    "MIG device {} on GPU {} (GI {}, CI {})",
                    n(4),
                    n(1),
                    n(2),
                    n(3)
                ));
            }
            continue;
        }
        if line.contains("Failed to initialize NVML") || line.contains("NVML library version:") {
            note(&mut ce, "nvidia-smi");
        }
        if line.contains("NVIDIA-SMI has failed") || line.starts_with("No devices were found") {
            note(&mut ce, "nvidia-smi");
            ce.smi_failed = true;
            continue;
        }
        if line.contains("==NVSMI LOG==") {
            note(&mut ce, "nvidia-smi -q");
            in_smi_q = true;
            continue;
        }
        // `pip install torch` from PyPI (no other index, no wheel file, no local tag)
        {
            let cmd = line.trim().trim_matches('`').trim();
            if p.pip_install_torch.is_match(cmd)
                && ![
                    "index-url",
                    "-f ",
                    "--find-links",
                    "download.pytorch.org",
                    ".whl",
                    "+cu",
                    "+cpu",
                ]
                .iter()
                .any(|w| cmd.contains(w))
            {
                ce.pip_installs_torch = true;
            }
            // conda's pytorch beside it: which of the two runs, the paste does not say
            if cmd.contains("conda install") && cmd.contains("pytorch") {
                conda_installs_torch = true;
            }
        }
        // the toolkit's version file (version.json's "version" counts only in its "CUDA SDK"
        // entry, not in the entries of the libraries it lists)
        if line.contains("\"CUDA SDK\"") {
            cuda_sdk_entry = true;
            continue;
        }
        if let Some(c) = p.toolkit_version_file.captures(line.trim()) {
            let v = c.get(1).or(c.get(2).filter(|_| cuda_sdk_entry));
            cuda_sdk_entry = false;
            if let Some(v) = v {
                note(&mut ce, "CUDA toolkit version file");
                set(&mut ce.cuda_runtime, v.as_str());
                continue;
            }
        }
        // deviceQuery: the GPUs CUDA enumerates, the driver's CUDA and the sample's runtime; a
        // summary with devices means cuInit worked, so the kernel module is loaded
        if let Some(c) = p.device_query.captures(&line) {
            note(&mut ce, "deviceQuery");
            // CUDA's own numbering, as the apps' logs give it
            let id = format!("cuda:{}", c.get(1).map_or("", |m| m.as_str()));
            if let Some(name) = c.get(2).filter(|_| log_gpus.len() < 64) {
                if !log_gpus.iter().any(|(i, _)| *i == id) {
                    log_gpus.push((id, name.as_str().to_string()));
                }
            }
            continue;
        }
        if let Some(c) = p.device_query_versions.captures(&line) {
            note(&mut ce, "deviceQuery");
            if let Some(d) = c.get(1).or(c.get(3)) {
                set(&mut ce.driver_cuda, d.as_str());
            }
            if let Some(r) = c.get(2).or(c.get(4)) {
                set(&mut ce.cuda_runtime, r.as_str());
            }
            if c.get(5).is_some() {
                ce.module_in_use = true;
            }
            continue;
        }
        // nvcc --version
        if let Some(c) = p.nvcc.captures(&line) {
            note(&mut ce, "nvcc --version");
            if let Some(v) = c.get(2) {
                set(&mut ce.cuda_runtime, v.as_str());
            }
            continue;
        }
        // /proc/driver/nvidia/version, dmesg
        if let Some(c) = p.proc_version.captures(&line) {
            note(&mut ce, "/proc/driver/nvidia/version");
            if let Some(v) = c.get(1) {
                set(&mut ce.driver, v.as_str());
            }
            continue;
        }
        if let Some(c) = p.api_mismatch.captures(&line) {
            note(&mut ce, "dmesg");
            if let Some(v) = c.get(1) {
                set(&mut ce.driver, v.as_str());
            }
            continue;
        }
        if let Some(c) = p.nvrm_gpu.captures(&line) {
            note(&mut ce, "dmesg");
            if let Some(v) = c.get(1) {
                block_gpus.push(v.as_str().trim().to_string());
            }
        }
        if let Some(v) = p.ignored_by.captures(&line).and_then(|c| c.get(1)) {
            note(&mut ce, "dmesg");
            set(&mut ce.driver, v.as_str());
        }
        if let Some(c) = p.tk_vs_torch.captures(&line) {
            if let Some(v) = c.get(1).or(c.get(3)) {
                set(&mut ce.cuda_runtime, v.as_str());
            }
            // torchvision's check: "PyTorch has CUDA Version=11.3 and torchvision has ..."
            if let Some(v) = c.get(2).or(c.get(4)).or(c.get(5)) {
                set(&mut ce.torch_cuda, v.as_str());
            }
        }
        if let Some(v) = p
            .found_version
            .captures(&line)
            .and_then(|c| c.get(1)?.as_str().parse::<i64>().ok())
        {
            set(
                &mut ce.driver_cuda,
                &crate::version::cuda_version_from_int(v),
            );
        }
        if let Some(v) = p.env_module.captures(&line).and_then(|c| c.get(1)) {
            note(&mut ce, "environment modules");
            set(&mut ce.cuda_runtime, v.as_str());
        }
        if let Some(c) = p.torch_spaced.captures(&line) {
            if let (Some(v), Some(tag)) = (c.get(1), c.get(2)) {
                free_torch.get_or_insert_with(|| format!("{}+{}", v.as_str(), tag.as_str()));
            }
        }
        if line.contains("NVRM: Xid") || line.contains("NVRM:") {
            note(&mut ce, "dmesg");
            // kernel lines that observe a cause themselves
            let observed = if line.contains("probe routine was not called")
                || (line.contains("nouveau") && line.contains("NVRM:"))
            {
                Some("driver.nouveau_loaded")
            } else if line.contains("fallen off the bus") || line.contains("has fallen off") {
                Some("gpu.lost")
            } else if line.contains("not supported by open")
                || line.contains("does not include the required GPU")
            {
                // the open kernel module refusing a GPU without GSP (Maxwell, Pascal, Volta):
                // that driver flavour does not drive the GPU
                Some("driver.gpu_unsupported")
            } else {
                None
            };
            if let Some(id) = observed {
                observe(&mut ce, id, &line);
            }
        }
        // The kernel refusing the nvidia module (modprobe / dmesg under Secure Boot: "could not
        // insert 'nvidia': Required key not available", "Loading of unsigned module is
        // rejected"), or a distribution's fallback saying it is absent (Fedora's
        // nvidia-fallback: "NVIDIA kernel module missing. Falling back to nouveau.").
        if p.module_refused.is_match(&line) {
            note(&mut ce, "kernel log");
            observe(&mut ce, "driver.module_not_loaded", &line);
        }
        if p.smi_no_driver_words.is_match(&line) {
            note(&mut ce, "nvidia-smi (words)");
            ce.smi_failed = true;
        }
        if p.module_build_failed.is_match(&line) {
            note(&mut ce, "kernel module build");
            observe(&mut ce, "driver.module_not_loaded", &line);
        }
        if p.apt_driver_unmet.is_match(&line) {
            note(&mut ce, "apt");
            observe(&mut ce, "driver.not_installed", &line);
        }
        // the driver's modules handled by hand ("sudo modprobe -r nvidia-uvm"): a shell paste
        if p.modprobe_nvidia.is_match(&line) {
            note(&mut ce, "shell");
        }
        if p.driver_tool_missing.is_match(&line) {
            note(&mut ce, "shell");
            observe(&mut ce, "driver.not_installed", &line);
        }
        // a sentence saying the open-source driver drives the GPU is a fact about the machine
        if crate::diagnose::combine::says_open_driver_in_use(&line) {
            note(&mut ce, "driver in use (words)");
        }
        if p.cuda_worked.is_match(&line) {
            cuda_worked = true;
        }
        // xformers: "PyTorch 2.3.0+cu121 with CUDA None (you have 2.0.0+cu117)"
        if let Some(v) = p.you_have.captures(&line).and_then(|c| c.get(1)) {
            note(&mut ce, "xformers warning");
            set(&mut ce.torch, v.as_str());
            continue;
        }
        // conda's install plan: "pytorch/win-64::pytorch-1.10.0-py3.6_cpu_0"
        if let Some(c) = p.conda_plan.captures(&line) {
            note(&mut ce, "conda install plan");
            let version = c.get(1).map_or("", |m| m.as_str());
            let build = c.get(2).map_or("", |m| m.as_str());
            package(&mut ce, "pytorch", version, Some(build));
            continue;
        }
        if p.compose_file.is_match(&line) {
            note(&mut ce, "docker compose file");
        }
        if p.container_image.is_match(&line) {
            note(&mut ce, "container image");
        }
        // a CUDA container image: its CUDA is the toolkit the driver must support
        if let Some(v) = p.cuda_image.captures(&line).and_then(|c| c.get(1)) {
            note(&mut ce, "docker image");
            if !image_cudas.iter().any(|c| c == v.as_str()) {
                image_cudas.push(v.as_str().to_string());
            }
        }
        if let Some(v) = line
            .split_once("--require=cuda>=")
            .map(|(_, r)| {
                r.split(|c: char| !c.is_ascii_digit() && c != '.')
                    .next()
                    .unwrap_or("")
            })
            .filter(|v| looks_like_version(v))
        {
            note(&mut ce, "nvidia-container-cli");
            required_cuda.get_or_insert_with(|| v.to_string());
        }
        // ComfyUI start-up log
        if let Some(c) = p.comfy_device.captures(&line) {
            note(&mut ce, "ComfyUI log");
            if let Some(v) = c.get(1) {
                let name = v.as_str().trim();
                push_log_gpu(&mut log_gpus, name, name);
            }
            continue;
        }
        if let Some(v) = line.strip_prefix("pytorch version:") {
            note(&mut ce, "ComfyUI log");
            set(&mut ce.torch, v);
            continue;
        }
        // xformers' "Python  3.10.11 (you have 3.10.6)": the installed one is in parentheses
        if let Some(v) = p.python_you_have.captures(&line).and_then(|c| c.get(1)) {
            note(&mut ce, "xformers warning");
            set(&mut ce.python, v.as_str());
            continue;
        }
        // conda environment files: "- cuda-nvcc=11.6.124=hbba6d2d_0", "- pytorch=2.1.2"
        if let Some(c) = p.conda_spec.captures(&line) {
            let name = c.get(1).map_or("", |m| m.as_str()).to_ascii_lowercase();
            let version = c.get(2).map_or("", |m| m.as_str());
            if name == "python" {
                note(&mut ce, "conda environment");
                set(&mut ce.python, version);
                continue;
            }
            if PACKAGES.contains(&name.as_str())
                || name.starts_with("cuda-")
                || name.starts_with("nvidia-")
            {
                note(&mut ce, "conda environment");
                package(&mut ce, &name, version, c.get(3).map(|m| m.as_str()));
                continue;
            }
        }
        // "- **PyTorch Version:** 2.6.0+cu126" (ComfyUI's and web UIs' system information)
        // and "torch version .................... 2.3.0+cu121" (ds_report): key, value.
        let kv = [
            (&p.md_kv, "system information"),
            (&p.dotted_kv, "ds_report"),
        ]
        .into_iter()
        .find_map(|(re, format)| Some((re.captures(&line)?, format)));
        if let Some((c, format)) = kv {
            let key = c
                .get(1)
                .map_or("", |m| m.as_str())
                .trim()
                .to_ascii_lowercase();
            let value = c.get(2).map_or("", |m| m.as_str()).trim();
            note(&mut ce, format);
            // a key no report of that kind has ("**Setup:** i7-8750H, GTX 1070, 16 GB RAM"):
            // its value is read as free-form words below
            if keyed(&mut ce, &key, value, &mut block_gpus) {
                continue;
            }
        }
        // requirements pins
        if let Some(c) = p.req_pin.captures(&line) {
            let name = c.get(1).map_or("", |m| m.as_str()).to_ascii_lowercase();
            let version = c.get(2).map_or("", |m| m.as_str());
            if PACKAGES.contains(&name.as_str()) {
                note(&mut ce, "requirements");
                package(&mut ce, &name, version, None);
                continue;
            }
        }
        // pip list / conda list rows
        if let Some(c) = p.pip_two_col.captures(&line) {
            let name = c.get(1).map_or("", |m| m.as_str()).to_ascii_lowercase();
            let version = c.get(2).map_or("", |m| m.as_str());
            if PACKAGES.contains(&name.as_str())
                || name.starts_with("nvidia-")
                || name.starts_with("cuda-")
            {
                // "detectron2  0.6 @/home/.../detectron2": a path, not a conda build
                // a conda build has a digit or '_' ("py3.10_cuda12.1_cudnn8_0", "0", "pypi_0",
                // "mkl"); "jax 0.4.30 on GPU" is prose
                let build = c.get(3).map(|m| m.as_str()).filter(|b| {
                    !b.starts_with(['@', '/', '('])
                        && (b.contains(|ch: char| ch.is_ascii_digit() || ch == '_')
                            || matches!(*b, "mkl" | "cpu" | "main" | "pypi" | "openblas"))
                });
                note(
                    &mut ce,
                    if build.is_some() {
                        "conda list"
                    } else {
                        "pip list"
                    },
                );
                package(&mut ce, &name, version, build);
                continue;
            }
        }
        // aligned "Key   value" / "Key: value" tables (detectron2, sglang, jax, nvidia-smi -q),
        // also as markdown list items ("- PyTorch: `2.7.0+cu128`")
        let body = line
            .strip_prefix("- ")
            .or_else(|| line.strip_prefix("* "))
            .unwrap_or(&line);
        if let Some(c) = p.table_kv.captures(body) {
            let key = c
                .get(1)
                .map_or("", |m| m.as_str())
                .trim()
                .to_ascii_lowercase();
            let value = c.get(2).map_or("", |m| m.as_str()).trim();
            let unquoted = value.replace('`', "");
            // "torch: 2.1.2+cpu -> 2.2.1+cpu": the version after an upgrade's arrow
            let value = ["->", "→", "=>"]
                .iter()
                .find_map(|arrow| unquoted.rsplit_once(arrow).map(|(_, v)| v))
                .unwrap_or(&unquoted)
                .trim();
            // `pip show torch`: "Name: torch" then "Version: 2.2.1"
            if key == "name" && !value.contains(' ') {
                pip_show = Some(value.to_ascii_lowercase());
            } else if key == "version" {
                if let Some(name) = pip_show.take().filter(|n| PACKAGES.contains(&n.as_str())) {
                    if looks_like_version(value) {
                        note(&mut ce, "pip show");
                        package(&mut ce, &name, value, None);
                        continue;
                    }
                }
            }
            // "Name:" is a GPU only in ComfyUI's markdown (collect_env's CPU block has one).
            if key != "name" && keyed(&mut ce, &key, value, &mut block_gpus) {
                if in_smi_q {
                    note(&mut ce, "nvidia-smi -q");
                }
                // a value's aside ("12.4 (driver 570.124.06 from NVIDIA)") is read as
                // free-form below; what the key said comes first
                if !value.contains(['(', ',']) {
                    continue;
                }
            }
        }
        // free-form
        // ds_report's dotted lines pasted inside prose ("torch version ...... 1.13.1+cu117 , and")
        if line.contains("....") {
            for c in p.dotted_inline.captures_iter(&line).take(16) {
                let key = c
                    .get(1)
                    .map_or("", |m| m.as_str())
                    .trim()
                    .to_ascii_lowercase();
                let value = c.get(2).map_or("", |m| m.as_str());
                if keyed(&mut ce, &key, value, &mut block_gpus) {
                    note(&mut ce, "ds_report");
                }
            }
        }
        // pins inside prose: "`pytorch==1.7.1+cu110` and `deepspeed==0.6.5`", "python=3.9"
        if line.contains('=') {
            for c in p.inline_pin.captures_iter(&line).take(32) {
                let name = c.get(1).map_or("", |m| m.as_str()).to_ascii_lowercase();
                let version = c.get(2).map_or("", |m| m.as_str());
                if name == "python" {
                    free_python.get_or_insert_with(|| version.to_string());
                } else if name == "torch" || name == "pytorch" {
                    // advice in prose ("install torch==2.2.0") names the installed torch
                    // less surely than the prose's own words: a last resort
                    pin_torch.get_or_insert_with(|| version.to_string());
                } else if PACKAGES.contains(&name.as_str()) && looks_like_version(version) {
                    // a pin in prose is a package version only (an install command's
                    // "pytorch-cuda=11.8" says nothing of the build that runs)
                    if free_pkgs.len() < 64 && !free_pkgs.iter().any(|(k, _)| *k == name) {
                        free_pkgs.push((name, version.to_string()));
                    }
                }
            }
        }
        if let Some(c) = p.paren_version.captures(&line) {
            let name = c.get(1).map_or("", |m| m.as_str()).to_ascii_lowercase();
            let v = c.get(2).map_or("", |m| m.as_str()).to_string();
            match name.as_str() {
                "python" => {
                    free_python.get_or_insert(v);
                }
                "pytorch" | "torch" => {
                    free_torch.get_or_insert(v);
                }
                "cuda" => {
                    free_cuda.get_or_insert(v);
                }
                _ => {
                    if !free_pkgs.iter().any(|(k, _)| *k == name) {
                        free_pkgs.push((name, v));
                    }
                }
            }
        }
        if let Some(v) = p.free_python.captures(&line).and_then(|c| c.get(1)) {
            free_python.get_or_insert_with(|| v.as_str().to_string());
        }
        if let Some(v) = p.free_cudnn.captures(&line).and_then(|c| c.get(1)) {
            free_cudnn.get_or_insert_with(|| v.as_str().to_string());
        }
        for c in p.free_pkg.captures_iter(&line).take(8) {
            if let (Some(n), Some(v)) = (c.get(1), c.get(2)) {
                let name = n.as_str().to_ascii_lowercase().replace('_', "-");
                if free_pkgs.len() < 64 && !free_pkgs.iter().any(|(k, _)| *k == name) {
                    free_pkgs.push((name, v.as_str().to_string()));
                }
            }
        }
        let ngc_requirement = p.ngc_required.is_match(&line);
        if let Some(v) = p.ngc_detected.captures(&line).and_then(|c| c.get(1)) {
            ngc_driver.get_or_insert_with(|| v.as_str().to_string());
        }
        let driver_hit = p
            .free_driver
            .captures(&line)
            .and_then(|c| c.get(1))
            .or_else(|| {
                p.free_driver2
                    .captures(&line)
                    .and_then(|c| c.iter().skip(1).flatten().next())
            })
            .or_else(|| p.driver_then_version.captures(&line).and_then(|c| c.get(1)))
            .or_else(|| p.driver_zh.captures(&line).and_then(|c| c.get(1)))
            .or_else(|| {
                let lower = line.to_ascii_lowercase();
                if !(lower.contains("nvidia") && lower.contains("driver")) {
                    return None;
                }
                p.driver_in_words
                    .captures(&line)
                    .and_then(|c| c.get(1).or(c.get(2)).or(c.get(3)))
            })
            .filter(|_| !ngc_requirement);
        if let Some(v) = driver_hit {
            // the most precise mention wins ("535.247.01" over "535")
            let dots = |s: &str| s.matches('.').count();
            if free_driver
                .as_deref()
                .is_none_or(|d| dots(v.as_str()) > dots(d))
            {
                free_driver = Some(v.as_str().to_string());
            }
        }
        if let Some(v) = p
            .free_toolkit
            .captures(&line)
            .and_then(|c| c.iter().skip(1).flatten().next())
        {
            free_toolkit.get_or_insert_with(|| v.as_str().to_string());
        }
        if let Some(v) = p.driver_cuda_free.captures(&line).and_then(|c| c.get(1)) {
            free_driver_cuda.get_or_insert_with(|| v.as_str().to_string());
        }
        if let Some(v) = p.free_cuda.captures(&line).and_then(|c| c.get(1)) {
            free_cuda.get_or_insert_with(|| v.as_str().to_string());
        }
        if let Some(v) = p.torch_upgrade.captures(&line).and_then(|c| c.get(1)) {
            // an upgrade names the version now installed after the arrow
            if !upgraded {
                free_torch = Some(v.as_str().to_string());
                upgraded = true;
            }
        } else if let Some(v) = p.free_torch.captures(&line).and_then(|c| c.get(1)) {
            free_torch.get_or_insert_with(|| v.as_str().to_string());
        }
        // not in `uname -a` ("... #1 SMP PREEMPT_DYNAMIC Debian 6.1.69-1"): that is the
        // kernel package's version, and the kernel's series says the distribution
        if p.uname.is_match(&line) {
            uname_os = uname_os.or_else(|| distribution_of_uname(&p.uname_kernel, &line));
        } else if let Some(v) = p.free_os.captures(&line).and_then(|c| c.get(1)) {
            free_os.get_or_insert_with(|| os_spelling(v.as_str()));
        }
        if free_gpus.len() < 64 {
            // "_GeForce GTX 1080 Ti_" (markdown emphasis): underscores are no part of a name;
            // nor the hyphen of "RTX-3090"
            let gline = line
                .replace('_', " ")
                .replace("RTX-", "RTX ")
                .replace("GTX-", "GTX ");
            let line = &gline;
            if let Some(m) = p
                .free_gpu
                .captures_iter(line)
                .take(16)
                .filter_map(|c| c.get(1))
                .find(|m| stands_alone(line, m.start(), m.end()))
            {
                let v = gpu_spelling(m.as_str().trim());
                // "2x Tesla V100-SXM2-32GB": that many of it
                let count = p
                    .gpu_count
                    .captures(&line[..m.start()])
                    .and_then(|c| c.get(1)?.as_str().parse::<usize>().ok())
                    .filter(|n| (1..=64).contains(n))
                    .unwrap_or(1);
                // one GPU named twice ("GTX 1080", "NVIDIA GeForce GTX 1080", "RTX5070Ti"):
                // the longer name
                let key = |g: &str| g.replace(' ', "").to_ascii_lowercase();
                if let Some(known) = free_gpus
                    .iter_mut()
                    .find(|g| key(g).contains(&key(&v)) || key(&v).contains(&key(g)))
                {
                    if v.len() > known.len() {
                        *known = v;
                    }
                } else {
                    for _ in 0..count {
                        free_gpus.push(v.clone());
                    }
                }
            }
        }
    }
    // The container's CUDA: what nvidia-container-cli required, else the one image named
    // (several images: which one failed is not known).
    ce.image_cuda = required_cuda.or_else(|| {
        (image_cudas.len() == 1)
            .then(|| image_cudas.pop())
            .flatten()
    });
    // nvidia-smi numbers GPUs in PCI bus order, CUDA fastest first unless CUDA_DEVICE_ORDER
    // is PCI_BUS_ID: the same GPUs listed by both in another order is that observed
    // (LostRuins/koboldcpp#1023: a 1660 SUPER first in nvidia-smi, the 3090 first for ggml_cuda_init)
    {
        let pci: &[String] = if smi_gpus.is_empty() {
            &block_gpus
        } else {
            &smi_gpus
        };
        let cuda: Vec<&str> = log_gpus
            .iter()
            .filter(|(id, _)| id.starts_with("ggml:") || id.starts_with("cuda:"))
            .map(|(_, name)| name.as_str())
            .collect();
        let key = |n: &str| {
            n.to_ascii_lowercase()
                .replace("nvidia ", "")
                .replace("geforce ", "")
        };
        let mut a: Vec<String> = pci.iter().map(|n| key(n)).collect();
        let b: Vec<String> = cuda.iter().map(|n| key(n)).collect();
        if a.len() >= 2 && a.len() == b.len() && a != b && !text.contains("PCI_BUS_ID") {
            a.sort();
            let mut sorted = b.clone();
            sorted.sort();
            if a == sorted {
                observe(
                    &mut ce,
                    "env.device_order",
                    &format!(
                        "nvidia-smi lists {}; CUDA lists {}",
                        pci.join(", "),
                        cuda.join(", ")
                    ),
                );
            }
        }
    }
    if !structured_gpus {
        let logs: Vec<String> = log_gpus.into_iter().map(|(_, name)| name).collect();
        // the longest of the block lists (the first on a tie): one that lists every GPU
        let listed = [block_gpus, xml_gpus, logs]
            .into_iter()
            .fold(
                Vec::new(),
                |best, l| if l.len() > best.len() { l } else { best },
            );
        if !smi_gpus.is_empty() {
            ce.gpus = smi_gpus;
        } else if !listed.is_empty() {
            ce.gpus = listed;
        } else if !lspci_gpus.is_empty() {
            ce.gpus = lspci_gpus;
        }
    }
    // weaker witnesses of the driver, when no block named the running one
    if let Some(d) = nvml_driver.or(lib_driver).or(pkg_driver) {
        set(&mut ce.driver, &d);
    }
    if let Some(t) = pkg_toolkit {
        set(&mut ce.cuda_runtime, &t);
    }
    if let Some(v) = free_python {
        set(&mut ce.python, &v);
    }
    if let Some(v) = free_cudnn {
        set(&mut ce.cudnn, &v);
    }
    if conda_installs_torch {
        ce.pip_installs_torch = false;
    }
    let any_pkg = !free_pkgs.is_empty();
    for (name, version) in free_pkgs {
        if !ce.conda.contains_key(&name) {
            ce.pip.entry(name).or_insert(version);
        }
    }
    let any_free = free_driver.is_some()
        || ngc_driver.is_some()
        || free_cuda.is_some()
        || free_torch.is_some()
        || pin_torch.is_some()
        || free_toolkit.is_some()
        || free_driver_cuda.is_some()
        || any_pkg
        || (!free_gpus.is_empty() && ce.gpus.is_empty());
    if ce.gpus.is_empty() && !free_gpus.is_empty() {
        ce.gpus = free_gpus;
    }
    // the driver an NGC banner says it detected is the host's, before any other mention
    if let Some(d) = ngc_driver.or(free_driver) {
        set(&mut ce.driver, &d);
    }
    if let Some(t) = free_torch.or(pin_torch) {
        set(&mut ce.torch, &t);
    }
    if let Some(c) = free_cuda {
        set(&mut ce.cuda_mentioned, &c);
    }
    if let Some(o) = free_os.or(uname_os) {
        set(&mut ce.os, &o);
    }
    // CuPy's integer CUDA versions read by collect_env's own "CUDA runtime version" key
    for slot in [&mut ce.cuda_runtime, &mut ce.driver_cuda] {
        if let Some(v) = slot.as_deref().and_then(cuda_of_integer) {
            *slot = Some(v);
        }
    }
    // an "OS" line of another report that holds Python's platform string (CuPy's runtime
    // info): the family is the OS, the whole the platform (WSL 2 shows there)
    if let Some(family) = ce.os.as_deref().and_then(platform_family) {
        if ce.platform.is_none() {
            ce.platform = ce.os.clone();
        }
        ce.os = Some(family.to_string());
    }
    if let Some(t) = free_toolkit {
        set(&mut ce.cuda_runtime, &t);
    }
    if let Some(c) = free_driver_cuda {
        set(&mut ce.driver_cuda, &c);
    }
    // A torch that allocated on the GPU, or a UI that named its CUDA device, had CUDA working.
    if cuda_worked && ce.cuda_available.is_none() {
        ce.cuda_available = Some(true);
    }
    // torch.__config__.show() without CUDA in it, for a torch with no CUDA tag: a CPU build
    if config_cpu
        && !config_cuda
        && ce.torch_cuda.is_none()
        && ce.rocm.is_none()
        && !ce.torch.as_deref().is_some_and(|t| t.contains("+cu"))
    {
        ce.torch_cpu_only = true;
    }
    if any_free {
        note(&mut ce, "free-form");
    }
    // versions read from "Key: value" lines no known tool printed (an app's footer, a
    // hand-written list): a paste that names one is read, never refused
    if ce.formats.is_empty() && ce.keys_seen.is_empty() && names_a_version(&ce) {
        note(&mut ce, "key: value lines");
    }
    finish(&mut ce);
    ce
}

/// A GPU's name with NVIDIA's capitals for its series ("gtx 950M" → "GTX 950M").
/// Written together ("rtx3090"), the series gets its space back ("RTX 3090").
fn gpu_spelling(name: &str) -> String {
    for series in ["RTX", "GTX", "GT"] {
        let Some(rest) = name
            .get(..series.len())
            .filter(|head| head.eq_ignore_ascii_case(series))
            .and_then(|_| name.get(series.len()..))
        else {
            continue;
        };
        let spaced = rest.strip_prefix(' ');
        if spaced.is_some() || rest.starts_with(|c: char| c.is_ascii_digit()) {
            return format!("{series} {}", spaced.unwrap_or(rest));
        }
    }
    name.to_string()
}

/// The distribution a `uname -a` line's kernel belongs to, where the kernel says it: an
/// Ubuntu kernel's build names the release it was backported to ("#41~22.04.2-Ubuntu"), or is
/// the release's own series (5.15 is 22.04's); a Debian kernel's series is one release's
/// (6.1 is bookworm's, 12) unless its package names a backport ("6.1.0-0.deb11.13-amd64").
/// Only used where the paste names no distribution itself.
fn distribution_of_uname(kernel: &Regex, line: &str) -> Option<String> {
    // Ubuntu's and Debian's kernel series per release (Ubuntu's kernel release cycle page,
    // Debian's release notes)
    const UBUNTU: &[(&str, &str)] = &[
        ("4.4", "16.04"),
        ("4.15", "18.04"),
        ("5.4", "20.04"),
        ("5.8", "20.10"),
        ("5.11", "21.04"),
        ("5.13", "21.10"),
        ("5.15", "22.04"),
        ("5.19", "22.10"),
        ("6.2", "23.04"),
        ("6.5", "23.10"),
        ("6.8", "24.04"),
        ("6.11", "24.10"),
        ("6.14", "25.04"),
        ("6.17", "25.10"),
    ];
    const DEBIAN: &[(&str, &str)] = &[
        ("3.16", "8"),
        ("4.9", "9"),
        ("4.19", "10"),
        ("5.10", "11"),
        ("6.1", "12"),
        ("6.12", "13"),
    ];
    let c = kernel.captures(line)?;
    let series = c.get(1)?.as_str();
    let lookup = |table: &[(&str, &str)]| {
        table
            .iter()
            .find(|(s, _)| *s == series)
            .map(|(_, r)| r.to_string())
    };
    if c.get(4).is_some() {
        let release = c
            .get(3)
            .map(|m| m.as_str().to_string())
            .or_else(|| lookup(UBUNTU))?;
        return Some(format!("Ubuntu {release}"));
    }
    if line.contains(" Debian ") {
        let release = c
            .get(2)
            .map(|m| m.as_str().to_string())
            .or_else(|| lookup(DEBIAN))?;
        return Some(format!("Debian {release}"));
    }
    None
}

/// CuPy's integer CUDA versions ("11040" is 11.4, "12020" 12.2, "9020" 9.2):
/// major × 1000 + minor × 10.
fn cuda_of_integer(v: &str) -> Option<String> {
    if !(4..=5).contains(&v.len()) || !v.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u32 = v.parse().ok()?;
    let (major, minor) = (n / 1000, n % 1000 / 10);
    (major >= 7).then(|| format!("{major}.{minor}"))
}

/// The family of a Python `platform.platform()` string: "Linux-5.15.0-91-generic-x86_64-with-
/// glibc2.35" is Linux, "macOS-14.4-arm64-arm-64bit" macOS (Windows' has its own spelling).
fn platform_family(v: &str) -> Option<&'static str> {
    let v = v.trim();
    let (family, rest) = v.split_once('-')?;
    if !rest.starts_with(|c: char| c.is_ascii_digit()) || v.contains(' ') {
        return None;
    }
    match family {
        "Linux" => Some("Linux"),
        "macOS" | "Darwin" => Some("macOS"),
        _ => None,
    }
}

/// A distribution's name as it spells it ("ubuntu 22.04.3" → "Ubuntu 22.04.3").
fn os_spelling(os: &str) -> String {
    const NAMES: &[&str] = &[
        "Ubuntu",
        "Fedora",
        "Debian",
        "CentOS",
        "Rocky Linux",
        "AlmaLinux",
        "RHEL",
        "Red Hat",
        "DGX OS",
        "Pop!_OS",
        "Linux Mint",
        "openSUSE",
        "Amazon Linux",
        "Windows",
        "Arch Linux",
        "NixOS",
    ];
    // "windows10", "Win 11", "WIN10": one spelling
    let lower = os.to_ascii_lowercase();
    for release in ["10", "11"] {
        let short = lower
            .strip_prefix("windows")
            .or_else(|| lower.strip_prefix("win"));
        if short.is_some_and(|r| r.trim_start() == release) {
            return format!("Windows {release}");
        }
    }
    // Python's platform.platform() on Windows: "Windows-11-10.0.26200-SP0" is Windows 11
    if let Some(rest) = os.strip_prefix("Windows-") {
        let release = rest.split('-').next().unwrap_or("");
        if rest.contains("-10.0.")
            && !release.is_empty()
            && release.len() <= 2
            && release.chars().all(|c| c.is_ascii_digit())
        {
            return format!("Windows {release}");
        }
    }
    for name in NAMES {
        if let Some(rest) = os.get(name.len()..).filter(|_| {
            os.get(..name.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(name))
        }) {
            // "RHEL8": the release is a word of its own
            let gap = if rest.starts_with(|c: char| c.is_ascii_digit()) {
                " "
            } else {
                ""
            };
            return format!("{name}{gap}{rest}");
        }
    }
    os.to_string()
}

/// The torch attributes a command line prints, in the order it prints them:
/// `print(torch.__version__)`, `>>> torch.cuda.is_available()`, `python -c "import torch;
/// print(torch.__version__, torch.version.cuda, torch.cuda.is_available())"`. Empty for a
/// line that is no such command (one that goes on after the call, or names one twice).
fn asked_attributes(line: &str) -> Vec<&'static str> {
    // "```print(torch.__version__)```": markdown's inline code fence around the call
    let bare = line.trim_matches('`');
    if !bare.ends_with([')', '_', 'a', '"', '\'']) {
        return Vec::new();
    }
    let mut found: Vec<(usize, &'static str)> = Vec::new();
    for (attr, what) in [
        ("torch.__version__", "version"),
        ("torch.version.cuda", "cuda"),
        ("torch.cuda.is_available()", "available"),
        ("torch.cuda.device_count()", "count"),
    ] {
        match bare.match_indices(attr).collect::<Vec<_>>().as_slice() {
            [] => {}
            [(at, _)] => found.push((*at, what)),
            _ => return Vec::new(),
        }
    }
    found.sort_unstable();
    found.into_iter().map(|(_, what)| what).collect()
}

/// The answers on a line after a command that asked `asked` attributes: one value (the
/// first attribute's), or as many as were asked, separated by spaces or printed as a
/// tuple ("('2.1.0+cu121', '12.1', False)"). None for a line of anything else.
fn python_answers(line: &str, asked: &[&str], bare_value: &Regex) -> Option<Vec<String>> {
    if asked.is_empty() {
        return None;
    }
    // the answer in words on the next line: "it returns 1, which is correct"
    let lower = line.trim().to_ascii_lowercase();
    let said = [
        "it returns ",
        "it returned ",
        "returns ",
        "returned ",
        "it gives ",
        "it prints ",
        "it shows ",
    ]
    .iter()
    .find_map(|w| lower.strip_prefix(w));
    if let (Some(rest), [_]) = (said, asked) {
        let value = rest
            .split([' ', ',', ';'])
            .next()
            .unwrap_or("")
            .trim_end_matches('.')
            .trim_matches(['`', '\'']);
        let value = match value {
            "true" => "True".to_string(),
            "false" => "False".to_string(),
            v => v.to_string(),
        };
        let fits = bare_value.is_match(&value)
            || (asked[0] == "count"
                && (1..=3).contains(&value.len())
                && value.bytes().all(|b| b.is_ascii_digit()));
        return fits.then(|| vec![value]);
    }
    let inner = line
        .trim()
        .trim_start_matches(">>>")
        .trim()
        .trim_start_matches('(')
        .trim_end_matches(')');
    let values: Vec<String> = inner
        .split([' ', ','])
        .filter(|t| !t.is_empty())
        .map(|t| t.trim_matches('\'').to_string())
        .collect();
    // `torch.cuda.device_count()` answers a bare count
    let count = |v: &String| {
        asked.contains(&"count")
            && (1..=3).contains(&v.len())
            && v.bytes().all(|b| b.is_ascii_digit())
    };
    let one_value = |v: &String| v == "None" || bare_value.is_match(v) || count(v);
    if (values.len() == 1 || values.len() == asked.len()) && values.iter().all(one_value) {
        Some(values)
    } else {
        None
    }
}

/// A line that can only be torch's version, CUDA and availability printed together with no
/// command shown: "2.1.0+cu121 12.1 False", "2.2.0+cpu None False" (the local version tag
/// says it is torch).
fn torch_print_line(line: &str) -> Option<Vec<String>> {
    static RE: std::sync::LazyLock<Option<Regex>> = std::sync::LazyLock::new(|| {
        Regex::new(r"^(\d+\.\d+(?:\.\d+)?(?:\.dev\d+|a0|rc\d)?\+(?:cu\d{2,3}|cpu)) +(\d+\.\d+|None) +(True|False)(?:\s|$)").ok()
    });
    let c = RE.as_ref()?.captures(line.trim())?;
    Some((1..=3).map(|i| c[i].to_string()).collect())
}

/// The header of `nvidia-smi --query-gpu=... --format=csv` ("uuid, name, driver_version,
/// memory.used [MiB], index"): its field names, when it names a GPU or the driver.
/// OpenMMLab's collect_env (mmcv, mmengine, mmdet) printed as the Python mapping it returns
/// rather than its lines: "OrderedDict([('sys.platform', 'linux'), ('CUDA available', False),
/// ('PyTorch compiling details', 'PyTorch built with:\\n  - GCC 11.2 ...')])" or "{'sys.platform':
/// 'linux', ...}". Each such line becomes its "key: value" lines (the value's escaped line
/// breaks broken), the rest of the paste kept; `None` when the paste has no such mapping.
fn expand_env_mapping(text: &str) -> Option<String> {
    static PAIR: OnceLock<Option<Regex>> = OnceLock::new();
    let pair = PAIR
        .get_or_init(|| {
            Regex::new(
                r#"[(,{]\s*'([A-Za-z][^'\n]{0,60})'\s*[,:]\s*(?:'((?:[^'\\\n]|\\.)*)(?:'|$)|"((?:[^"\\\n]|\\.)*)(?:"|$)|([\w.+-]{1,64}))"#,
            )
            .ok()
        })
        .as_ref()?;
    let is_mapping = |l: &str| {
        let t = l.trim_start();
        (t.starts_with("OrderedDict([(") || t.starts_with("{'") || t.starts_with("[("))
            && t.contains("'sys.platform'")
    };
    if !text.lines().any(is_mapping) {
        return None;
    }
    let mut out = String::with_capacity(text.len() + 256);
    for line in text.lines() {
        if !is_mapping(line) {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        for c in pair.captures_iter(line).take(256) {
            let key = c.get(1).map_or("", |m| m.as_str());
            let value = c
                .get(2)
                .or_else(|| c.get(3))
                .or_else(|| c.get(4))
                .map_or("", |m| m.as_str());
            out.push_str(key);
            out.push_str(": ");
            out.push_str(&value.replace("\\n", "\n").replace("\\t", "  "));
            out.push('\n');
        }
    }
    Some(out)
}

fn csv_header(line: &str) -> Option<Vec<String>> {
    if !line.contains(", ") {
        return None;
    }
    let fields: Vec<String> = line
        .split(',')
        .map(|f| f.trim().split(" [").next().unwrap_or("").to_string())
        .collect();
    let field_like = |f: &String| {
        !f.is_empty()
            && f.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '.')
    };
    (fields.len() >= 2
        && fields.len() <= 128
        && fields.iter().all(field_like)
        && fields
            .iter()
            .any(|f| matches!(f.as_str(), "name" | "gpu_name" | "driver_version")))
    .then_some(fields)
}

/// The paste names a GPU, a driver, a CUDA, cuDNN or a framework version.
fn names_a_version(ce: &CollectEnv) -> bool {
    ce.driver.is_some()
        || ce.driver_cuda.is_some()
        || ce.torch.is_some()
        || ce.torch_cuda.is_some()
        || ce.cuda_runtime.is_some()
        || ce.cuda_mentioned.is_some()
        || ce.cudnn.is_some()
        || !ce.gpus.is_empty()
        || !ce.pip.is_empty()
        || !ce.conda.is_empty()
}

/// A GPU a log names each time it starts: counted once per identity (device index, PCI
/// bus id, UUID, or the name when the log gives none).
fn push_log_gpu(list: &mut Vec<(String, String)>, id: &str, name: &str) {
    let name = name.trim();
    if name.is_empty() || list.len() >= 1024 || list.iter().any(|(i, _)| i == id) {
        return;
    }
    list.push((id.to_string(), name.to_string()));
}

/// A vendor or device kind, not a GPU model ("### GPU\n\nNvidia" in issue forms).
fn vendor_only(v: &str) -> bool {
    matches!(
        v.trim().to_ascii_lowercase().as_str(),
        "nvidia" | "amd" | "intel" | "apple" | "cpu" | "gpu" | "cuda" | "other" | "mps" | "none"
    )
}

/// A GitHub issue form's heading as the key it stands for.
fn heading_key(h: &str) -> String {
    let l = h.trim().trim_end_matches(':').trim().to_ascii_lowercase();
    let key = if l.contains("kernel modules version")
        || (l.contains("driver") && l.contains("version"))
    {
        "driver version"
    } else if l.contains("operating system")
        || l == "os"
        || l == "os version"
        || l.contains("distro")
    {
        "os"
    } else if l == "gpu" || l == "gpus" || l.starts_with("hardware: gpu") || l.contains("gpu model")
    {
        "gpu"
    } else if l == "cuda version" || l == "cuda" {
        "cuda"
    } else if l == "pytorch version" || l == "pytorch" || l == "torch version" {
        "pytorch version"
    } else if l == "python version" || l == "python" {
        "python"
    } else {
        return l;
    };
    key.to_string()
}

/// Files a `key: value` of one of the formats; true when the key was one we know.
fn keyed(ce: &mut CollectEnv, key: &str, value: &str, gpus: &mut Vec<String>) -> bool {
    // "TensorFlow version (use command below)": the key without its aside
    let key = key.split(" (").next().unwrap_or(key).trim();
    // a requirement ("Cuda: version 11.4 and above", ">= 11.6") names no installed version
    let lower = value.to_ascii_lowercase();
    let requirement = [
        "and above",
        "or above",
        "or later",
        "and later",
        "or newer",
        "and newer",
        "or higher",
        "at least",
        ">=",
        "≥",
    ]
    .iter()
    .any(|w| lower.contains(w));
    // the value's first version-looking word ("b'v1.12.0-rc2-3-ga6d8ffae09' 1.12.0"), else its first word
    let first = value
        .split_whitespace()
        .find(|w| looks_like_version(w))
        .or_else(|| value.split_whitespace().next())
        .filter(|_| !requirement)
        .unwrap_or("");
    match key {
        // detectron2 / sglang / ds_report / ComfyUI / jax
        "pytorch" | "pytorch version" | "torch version" | "torch" => {
            if looks_like_version(first) {
                set(&mut ce.torch, first);
            }
        }
        "torch cuda version"
        | "pytorch cuda"
        | "pytorch built with cuda"
        | "pytorch build cuda version"
        | "torch build cuda version" => {
            if looks_like_version(first) {
                set(&mut ce.torch_cuda, first);
            } else if key == "pytorch built with cuda" && first.eq_ignore_ascii_case("false") {
                // a script's report of torch.backends.cuda.is_built(): "PyTorch built with
                // CUDA:  False"
                ce.torch_cpu_only = true;
            }
        }
        "pytorch has active gpu" | "torch has active gpu" => {
            ce.cuda_available = match first.to_ascii_lowercase().as_str() {
                "true" | "yes" => Some(true),
                "false" | "no" => Some(false),
                _ => ce.cuda_available,
            };
        }
        "cuda compiler" | "nvcc version" | "nvcc" => {
            let v = value
                .split_once(" V")
                .map_or(value, |(_, v)| v)
                .trim_start_matches("CUDA ")
                .trim_start_matches("Cuda compilation tools, release ");
            let v = v.split([',', ' ']).next().unwrap_or("");
            // nvcc's last line: "Build cuda_11.3.r11.3/compiler.29920130_0"
            let built = value
                .split_once("cuda_")
                .map(|(_, r)| r.split(".r").next().unwrap_or(""));
            if looks_like_version(v) {
                set(&mut ce.cuda_runtime, v);
            } else if let Some(b) = built.filter(|b| looks_like_version(b)) {
                set(&mut ce.cuda_runtime, b);
            }
        }
        // CuPy's runtime info: "CUDA Driver Version : 11040" is the CUDA the driver supports,
        // "CUDA Runtime Version : 11030" the runtime CuPy loads
        "cuda driver version" | "cuda runtime version" if cuda_of_integer(first).is_some() => {
            let v = cuda_of_integer(first).unwrap_or_default();
            if key == "cuda driver version" {
                set(&mut ce.driver_cuda, &v);
            } else {
                set(&mut ce.cuda_runtime, &v);
            }
        }
        "cuda driver version"
        | "driver"
        | "driver version"
        | "nvidia driver version"
        | "nvidia driver"
        | "gpu driver"
        | "gpu driver version"
        | "nvidia_driver"
        | "nvidia-driver"
        | "nvidia-smi"
        | "nvidia-smi version"
        | "kmd version" => {
            // "CUDA driver version: 12.3" (Ollama) is the CUDA the driver supports
            let major = first.split('.').next().and_then(|m| m.parse::<u32>().ok());
            // a bare "Driver" key (a markdown table's row) names a release or nothing
            if key == "driver" && !looks_like_version(first) {
                return false;
            }
            if looks_like_version(first) && major.is_some_and(|m| m < 100) {
                set(&mut ce.driver_cuda, first);
            } else if looks_like_version(first) {
                set(&mut ce.driver, first);
            } else if let Some(v) = driver_in_package_name(value) {
                // "nvidia driver: nvidia-driver-latest-dkms-545.23.08-1.el7.x86_64"
                set(&mut ce.driver, v);
            }
        }
        "cuda" => {
            if looks_like_version(first) {
                set(&mut ce.cuda_runtime, first);
                set(&mut ce.cuda_mentioned, first);
            }
        }
        // TensorFlow's and PyTorch's old issue forms: "CUDA/cuDNN version: 10.1 / 7.6": the
        // CUDA installed, then its cuDNN
        "cuda/cudnn version" | "cuda/cudnn" => {
            // ("CUDA 11.0, cuDNN 8.0.5", "Cuda-11.1 cuDNN-8.05")
            let mut versions = value
                .split(|c: char| c.is_whitespace() || matches!(c, '/' | ',' | '-'))
                .filter(|w| looks_like_version(w));
            if let Some(cuda) = versions.next() {
                set(&mut ce.cuda_runtime, cuda);
                set(&mut ce.cuda_mentioned, cuda);
            }
            if let Some(cudnn) = versions.next() {
                set(&mut ce.cudnn, cudnn);
            }
        }
        "cuda version" | "cuda umd version" => {
            if looks_like_version(first) {
                set(&mut ce.driver_cuda, first);
            }
        }
        "torch built with cuda" | "built with cuda" | "cuda built" => {
            match first.to_ascii_lowercase().as_str() {
                "false" | "no" => ce.torch_cpu_only = true,
                "true" | "yes" => {}
                _ => return false,
            }
        }
        "gpu available"
        | "cuda available"
        | "pytorch detects cuda available"
        | "torch detects cuda available"
        | "torch cuda available"
        | "pytorch cuda available" => {
            ce.cuda_available = match first.to_ascii_lowercase().as_str() {
                "true" | "yes" => Some(true),
                "false" | "no" => Some(false),
                _ => ce.cuda_available,
            };
        }
        "active gpu name" | "gpu name" | "device name" => {
            // each framework of a detection script names its active GPU: one GPU, said again
            let again = key == "active gpu name" && gpus.iter().any(|g| g == value.trim());
            if !again && !vendor_only(value) && !collect_env_absent(value) {
                gpus.push(value.trim().to_string());
            }
        }
        "product name" | "name" => {
            let v = value.trim_start_matches("cuda:");
            let v = v
                .split_once(' ')
                .filter(|(idx, _)| idx.chars().all(|c| c.is_ascii_digit()))
                .map_or(v, |(_, rest)| rest);
            let v = v.split(" : ").next().unwrap_or(v).trim();
            if !v.is_empty() && !collect_env_absent(v) {
                gpus.push(v.to_string());
            }
        }
        "os"
        | "operating system"
        | "description"
        | "pretty_name"
        | "os name"
        | "os platform and distribution" => {
            // Python's platform.platform() ("Linux-5.10.16.3-microsoft-standard-WSL2-x86_64-with-
            // glibc2.10", CuPy's "OS" line): the family, and the whole as the platform it is
            if let Some(family) = platform_family(value) {
                set(&mut ce.platform, value.trim());
                set(&mut ce.os, family);
                return true;
            }
            // "Ubuntu 22.04.5 LTS (kernel 6.8.0-64-generic)": the kernel is not the OS
            let v = value.split(" (kernel").next().unwrap_or(value);
            // "Ubuntu 20.04, Docker version 19.03.9": what follows a comma is another fact
            let v = v.split([',', ';']).next().unwrap_or(v);
            let v = v.trim_matches('"').trim();
            // a bare family ("Linux", an issue form's dropdown) gives way to the
            // distribution a later line names ("Ubuntu 24.04 LTS")
            let bare = |o: &str| {
                matches!(
                    o.to_ascii_lowercase().as_str(),
                    "linux" | "windows" | "macos"
                )
            };
            let v = &os_spelling(v);
            if ce.os.as_deref().is_some_and(bare) && !bare(v) && v.len() > 4 {
                ce.os = Some(v.to_string());
            }
            set(&mut ce.os, v);
        }
        "cuda toolkit" | "cuda toolkit version" | "cuda runtime" => {
            if looks_like_version(first) {
                set(&mut ce.cuda_runtime, first);
            }
        }
        // trl's env: "- CUDA device(s): NVIDIA H100 80GB HBM3, NVIDIA H100 80GB HBM3", or "not
        // available"
        "cuda device(s)" | "cuda devices" => {
            if value.trim().eq_ignore_ascii_case("not available") {
                ce.cuda_available = ce.cuda_available.or(Some(false));
                return true;
            }
            let names: Vec<&str> = value
                .split(", ")
                .map(str::trim)
                .filter(|n| n.chars().next().is_some_and(char::is_alphabetic) && !vendor_only(n))
                .take(64)
                .collect();
            if names.is_empty() {
                return false;
            }
            gpus.extend(names.iter().map(|n| (*n).to_string()));
        }
        // diffusers' env: "- Accelerator: NVIDIA GeForce RTX 3090, 24576 MiB" (or "NA")
        "accelerator" => {
            let name = value.split(',').next().unwrap_or("").trim();
            let nvidia = ["nvidia", "tesla", "quadro", "geforce"]
                .iter()
                .any(|w| name.to_ascii_lowercase().starts_with(w));
            if !nvidia || vendor_only(name) {
                return false;
            }
            gpus.push(name.to_string());
        }
        "gpu"
        | "gpus"
        | "gpu(s)"
        | "gpu type"
        | "gpu model"
        | "gpu models"
        | "graphics card"
        | "gpu model and memory"
        | "gpu models and configuration" => {
            // "2× RTX 5090 (32 GB each)", "NVIDIA A100-SXM4-80GB", "8 x H100"
            // "GeForce RTX 2070, driver 450.102.04": the name ends at the first aside
            // "NVIDIA Corporation GA104M [GeForce RTX 3070 Mobile / Max-Q]" (lspci's words)
            let value = value
                .trim()
                .strip_prefix("NVIDIA Corporation ")
                .and_then(|r| r.split_once('[')?.1.split_once(']').map(|(n, _)| n))
                .unwrap_or(value);
            // nvidia-smi -q's Utilization block has "GPU : 0 %": a name has letters.
            if vendor_only(value) || !value.chars().any(|c| c.is_ascii_alphabetic()) {
                return false;
            }
            // netket/jax device reprs: "['<0: Tesla V100-PCIE-32GB>', '<1: Tesla V100-PCIE-32GB>']"
            let listed: Vec<String> = patterns()
                .map(|p| {
                    p.angle_gpu
                        .captures_iter(value)
                        .take(1024)
                        .filter_map(|c| Some(c.get(2)?.as_str().trim().to_string()))
                        .filter(|n| {
                            !vendor_only(n) && n.chars().next().is_some_and(char::is_alphabetic)
                        })
                        .collect()
                })
                .unwrap_or_default();
            if !listed.is_empty() {
                gpus.extend(listed);
                return true;
            }
            let v = value.split([',', ';']).next().unwrap_or(value);
            let v = v.split(" (").next().unwrap_or(v).trim();
            let (n, name) = match v.split_once(['×', 'x', '*']) {
                Some((n, rest))
                    if !n.trim().is_empty() && n.trim().chars().all(|c| c.is_ascii_digit()) =>
                {
                    (
                        n.trim().parse::<usize>().unwrap_or(1).clamp(1, 64),
                        rest.trim(),
                    )
                }
                _ => (1, v),
            };
            if name.chars().next().is_some_and(char::is_alphanumeric) && !collect_env_absent(name) {
                for _ in 0..n {
                    gpus.push(name.to_string());
                }
            } else {
                return false;
            }
        }
        "python" | "python version" | "python_version" => {
            set(&mut ce.python, value);
        }
        "cuda_home" => {
            ce.env
                .entry("CUDA_HOME".into())
                .or_insert(value.to_string());
        }
        "sys.platform" | "platform" => {
            set(&mut ce.platform, value);
        }
        "cudnn" | "cudnn version" | "pytorch build cudnn version" | "torch build cudnn version" => {
            if looks_like_version(first)
                || (!first.is_empty() && first.chars().all(|c| c.is_ascii_digit()))
            {
                set(&mut ce.cudnn, first);
            }
        }
        "detectron2 arch flags" | "torch_cuda_arch_list" => {
            ce.ext_arch.push(("detectron2".into(), value.to_string()));
        }
        k if k.starts_with("gpu ")
            && k[4..]
                .chars()
                .all(|c| c.is_ascii_digit() || c == ',' || c == '-') =>
        {
            // detectron2: "GPU 0,1,2,3  Tesla P40"; sglang: "GPU 0: Tesla T4"
            let n = k[4..]
                .split(',')
                .map(|part| match part.split_once('-') {
                    Some((a, b)) => {
                        b.parse::<usize>()
                            .unwrap_or(0)
                            .saturating_sub(a.parse::<usize>().unwrap_or(0))
                            + 1
                    }
                    None => 1,
                })
                .sum::<usize>()
                .clamp(1, 1024);
            // "Tesla T4 (arch=...)", "Quadro K620 (UUID: GPU-...)" (nvidia-smi -L): a GPU
            // listed with its UUID is nvidia-smi (or NVML) answering, so the driver works
            if value.contains("(UUID: GPU-") || value.contains("(UUID: MIG-") {
                ce.smi_answered = true;
            }
            // "GPU 6: NVIDIA H100 80GB HBM3 ..." (a program's list, elided): the name
            let name = value.split(" (").next().unwrap_or(value).trim();
            let name = name
                .strip_suffix(" ...")
                .or_else(|| name.strip_suffix(" …"))
                .map_or(name, str::trim);
            if name.chars().next().is_some_and(char::is_alphabetic) {
                for _ in 0..n {
                    gpus.push(name.to_string());
                }
            }
        }
        k if PACKAGES.contains(&k) && looks_like_version(first) => {
            package(ce, k, first, None);
        }
        // "TensorFlow version: 2.4.0-rc1" (issue templates)
        k if k
            .strip_suffix(" version")
            .is_some_and(|name| PACKAGES.contains(&name) && name != "cuda")
            && looks_like_version(first) =>
        {
            package(ce, k.trim_end_matches(" version"), first, None);
        }
        _ => return false,
    }
    true
}

/// The driver release inside a driver package's name: "nvidia-driver-latest-dkms-545.23.08-1.el7.x86_64",
/// "kmod-nvidia-575.64.03-1.el9", "nvidia-driver-535_535.183.01-0ubuntu1".
fn driver_in_package_name(value: &str) -> Option<&str> {
    static PACKAGE_DRIVER: std::sync::LazyLock<Option<Regex>> = std::sync::LazyLock::new(|| {
        Regex::new(r"(?i)\bnvidia[\w.-]*?[-_](\d{3}\.\d{2,3}(?:\.\d{2,3})?)(?:[-_.~+]|$)").ok()
    });
    let re = PACKAGE_DRIVER.as_ref()?;
    let v = re.captures(value.trim())?.get(1)?.as_str();
    Some(v)
}

fn collect_env_absent(v: &str) -> bool {
    matches!(
        v.to_ascii_lowercase().as_str(),
        "n/a" | "none" | "unknown" | "could not collect" | "no cuda"
    )
}

fn package(ce: &mut CollectEnv, name: &str, version: &str, build: Option<&str>) {
    match build {
        Some(b) => {
            ce.conda
                .entry(name.to_string())
                .or_insert_with(|| (version.to_string(), b.to_string()));
        }
        None => {
            ce.pip
                .entry(name.to_string())
                .or_insert_with(|| version.to_string());
        }
    }
    // conda's metapackage picks the build's CUDA: "pytorch-cuda=11.8"
    if name == "pytorch-cuda" && looks_like_version(version) && !ce.torch_cpu_only {
        set(&mut ce.torch_cuda, version);
    }
    if name == "torch" || name == "pytorch" {
        set(&mut ce.torch, version);
        if build.is_some_and(|b| b.contains("cpu")) && ce.torch_cuda.is_none() {
            ce.torch_cpu_only = true;
        }
        // conda's build string names the CUDA: "py3.10_cuda12.1_cudnn8.9.2_0"
        if let Some(cuda) = build.and_then(|b| b.split('_').find_map(|p| p.strip_prefix("cuda"))) {
            if looks_like_version(cuda) {
                set(&mut ce.torch_cuda, cuda);
            }
        }
    }
}

/// Facts one block's values imply: the build's CUDA from its `+cuXYZ` tag, a CPU build.
fn finish(ce: &mut CollectEnv) {
    if ce.torch_cuda.is_none() && !ce.torch_cpu_only {
        if let Some(c) = ce.torch.as_deref().and_then(torch_cuda_of) {
            ce.torch_cuda = Some(c);
        }
    }
    // collect_env decides CPU builds itself (an XPU build's "+cpu"-less tags included).
    if ce.keys_seen.is_empty() && ce.torch.as_deref().is_some_and(|t| t.ends_with("+cpu")) {
        ce.torch_cpu_only = true;
        ce.torch_cuda = None;
    }
    // One GPU named by two witnesses that spell it in another case (an issue form's "GeForce
    // GTX 960m", the framework's log "GeForce GTX 960M") is one GPU: the last spelling, the
    // program's own, is kept. Names repeated exactly are several GPUs and stay.
    let gpus = std::mem::take(&mut ce.gpus);
    for (i, g) in gpus.iter().enumerate() {
        let respelled_later = gpus[i + 1..]
            .iter()
            .any(|h| h != g && h.eq_ignore_ascii_case(g));
        if !respelled_later {
            ce.gpus.push(g.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_form_facts_as_forums_write_them() {
        // a distribution in lower case, and RHEL / DGX OS by name
        assert_eq!(
            parse("I have a gtx 950M, cuda 12.3, ubuntu 22.04.3")
                .os
                .as_deref(),
            Some("Ubuntu 22.04.3")
        );
        assert_eq!(
            parse("on a new machine (RHEL 7.4)").os.as_deref(),
            Some("RHEL 7.4")
        );
        assert_eq!(
            parse("I am on DGX OS 3.17 which contains 384 drivers")
                .os
                .as_deref(),
            Some("DGX OS 3.17")
        );
        // uname -a's kernel package is not the distribution (mudler/LocalAI#1627)
        // ... but its kernel series is one release's (bookworm's 6.1), or its build names the
        // release (an Ubuntu HWE kernel, a Debian backport)
        let ce = parse("Linux pc 6.1.0-17-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.69-1 (2023-12-30) x86_64 GNU/Linux");
        assert_eq!(ce.os.as_deref(), Some("Debian 12"));
        let os = |t: &str| parse(t).os;
        assert_eq!(
            os("Linux gpu1 6.5.0-41-generic #41~22.04.2-Ubuntu SMP PREEMPT_DYNAMIC Mon Jun  3 11:32:55 UTC 2 x86_64 x86_64 x86_64 GNU/Linux").as_deref(),
            Some("Ubuntu 22.04")
        );
        assert_eq!(
            os("Linux ip-10-0-0-1 5.15.0-1051-aws #56-Ubuntu SMP Thu Nov 16 15:59:29 UTC 2023 x86_64 GNU/Linux").as_deref(),
            Some("Ubuntu 22.04")
        );
        assert_eq!(
            os("Linux h 6.1.0-0.deb11.13-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.55-1~bpo11+1 (2023-10-08) x86_64 GNU/Linux").as_deref(),
            Some("Debian 11")
        );
        // a distribution named in words outranks the kernel's; an unknown series says nothing
        assert_eq!(
            os("Ubuntu 20.04 LTS\nLinux a 5.15.0-91-generic #101-Ubuntu SMP Tue Nov 14 13:30:08 UTC 2023 x86_64 GNU/Linux").as_deref(),
            Some("Ubuntu 20.04 LTS")
        );
        assert_eq!(os("Linux a 6.6.7-arch1-1 #1 SMP PREEMPT_DYNAMIC Thu, 14 Dec 2023 03:45:42 +0000 x86_64 GNU/Linux"), None);
        assert_eq!(os("Linux a 5.16.0-1-amd64 #1 SMP PREEMPT Debian 5.16.7-2 (2022-02-09) x86_64 GNU/Linux"), None);
        // what follows a comma in an OS field is another fact
        assert_eq!(
            os(" - OS: Ubuntu 20.04, Docker version 19.03.9").as_deref(),
            Some("Ubuntu 20.04")
        );
        assert_eq!(parse("I have an rtx3090 at home").gpus, ["RTX 3090"]);
        // Python's platform string on Windows, a release written onto the name
        assert_eq!(
            os("- OS: Windows-11-10.0.26200-SP0").as_deref(),
            Some("Windows 11")
        );
        assert_eq!(os("- OS: RHEL8").as_deref(), Some("RHEL 8"));
        // a release written onto a lower-case name
        assert_eq!(
            parse("my host os is ubuntu20.04 with CUDA11.7")
                .os
                .as_deref(),
            Some("Ubuntu 20.04")
        );
        // torch's and torchvision's own words name torch's CUDA and the toolkit built with
        let ce = parse("UserWarning: The detected CUDA version (11.7) has a minor version mismatch with the version that was used to compile PyTorch (11.3). Most likely this shouldn't be a problem.");
        assert_eq!(
            (ce.cuda_runtime.as_deref(), ce.torch_cuda.as_deref()),
            (Some("11.7"), Some("11.3"))
        );
        let ce = parse("RuntimeError: Detected that PyTorch and torchvision were compiled with different CUDA versions. PyTorch has CUDA Version=11.3 and torchvision has CUDA Version=11.7.");
        assert_eq!(ce.torch_cuda.as_deref(), Some("11.3"));
        // TensorFlow's issue form names the CUDA and the cuDNN installed in one field
        let ce = parse("- OS Platform and Distribution: Ubuntu 18.04\n- CUDA/cuDNN version: CUDA 10.1 / cuDNN 7.6.5\n- GPU model and memory: Tesla P100");
        assert_eq!(ce.cuda_runtime.as_deref(), Some("10.1"));
        assert_eq!(ce.cudnn.as_deref(), Some("7.6.5"));
        // Quadro names and Grace-Blackwell's, not only GeForce's and the data-centre letters
        assert_eq!(parse("  0  Quadro P620      Off").gpus, ["Quadro P620"]);
        assert_eq!(
            parse("fails on NVIDIA DGX Spark (GB10, aarch64, CUDA 13)").gpus,
            ["GB10"]
        );
        assert_eq!(
            parse("- `torch.cuda.is_available()`: `True`").cuda_available,
            Some(true)
        );
        // the series in NVIDIA's capitals, the mobile "M", the hyphen of "RTX-3090"
        assert_eq!(
            parse("I have a gtx 950M (maybe it's too old)").gpus,
            ["GTX 950M"]
        );
        assert_eq!(
            parse("i have cuda 9.1 ( GeForce GT 625M ).").gpus,
            ["GeForce GT 625M"]
        );
        assert_eq!(
            parse("I run train.py on RTX-3090 (24GB)").gpus,
            ["RTX 3090"]
        );
        // torch's answer written on the line that asks
        assert_eq!(
            parse("torch.cuda.is_available(): True").cuda_available,
            Some(true)
        );
        assert_eq!(
            parse("torch.cuda.device_count() = 0").cuda_available,
            Some(false)
        );
        // a CUDA release with a build number is a toolkit's, and so is the one
        // /usr/local/cuda links to
        assert_eq!(
            parse("My CUDA version is 9.0.176, driver 387.26")
                .cuda_runtime
                .as_deref(),
            Some("9.0.176")
        );
        assert_eq!(
            parse(
                "lrwxrwxrwx 1 root root 20 Jul 22 13:37 /usr/local/cuda -> /usr/local/cuda-10.1/"
            )
            .cuda_runtime
            .as_deref(),
            Some("10.1")
        );
        // two parts say nothing of whose CUDA it is
        assert_eq!(parse("CUDA version is 12.1").cuda_runtime, None);
    }

    #[test]
    fn torch_cuda_from_the_tag() {
        assert_eq!(torch_cuda_of("2.0.0+cu118").as_deref(), Some("11.8"));
        assert_eq!(torch_cuda_of("1.4.0+cu92").as_deref(), Some("9.2"));
        assert_eq!(torch_cuda_of("1.4.0+cu100").as_deref(), Some("10.0"));
        assert_eq!(torch_cuda_of("2.6.0"), None);
    }

    /// detectron2's collect_env, from https://github.com/facebookresearch/detectron2/issues/251
    #[test]
    fn detectron2_collect_env() {
        let ce = parse("[07/20 13:46:17] detectron2 INFO: Environment info:
----------------------  ---------------------------------------------------------------------------------
sys.platform            linux
Python                  3.6.8 (default, Aug 10 2019, 06:54:07) [GCC 4.8.5 20150623 (Red Hat 4.8.5-36)]
numpy                   1.16.5
detectron2              0.1.3 @/running_package/PanopticSeg/detectron2
Compiler                GCC 7.3
CUDA compiler           CUDA 10.0
detectron2 arch flags   sm_70
DETECTRON2_ENV_MODULE   <not set>
PyTorch                 1.4.0+cu100 @/running_package/py3.6-env/lib64/python3.6/site-packages/torch
PyTorch debug build     False
GPU available           True
GPU 0,1,2,3,4,5,6,7     Tesla P40
CUDA_HOME               /usr/local/cuda
");
        assert_eq!(ce.torch.as_deref(), Some("1.4.0+cu100"));
        assert_eq!(ce.torch_cuda.as_deref(), Some("10.0"));
        assert_eq!(ce.cuda_runtime.as_deref(), Some("10.0"));
        assert_eq!(ce.cuda_available, Some(true));
        assert_eq!(ce.gpus, vec!["Tesla P40"; 8]);
        assert_eq!(
            ce.ext_arch,
            vec![("detectron2".to_string(), "sm_70".to_string())]
        );
    }

    /// `python -m sglang.check_env`, from https://github.com/sgl-project/sglang/issues/931
    #[test]
    fn sglang_check_env() {
        let ce = parse(
            "Python: 3.11.9 (main, Apr 19 2024, 16:48:06) [GCC 11.2.0]
CUDA available: True
GPU 0: Tesla T4
CUDA_HOME: /usr/local/cuda-12.6
NVCC: Cuda compilation tools, release 12.6, V12.6.20
CUDA Driver Version: 535.54.03
PyTorch: 2.3.1+cu121
sglang: 0.2.10
flashinfer: 0.1.3
triton: 2.3.1
",
        );
        assert_eq!(ce.gpus, vec!["Tesla T4"]);
        assert_eq!(ce.driver.as_deref(), Some("535.54.03"));
        assert_eq!(ce.cuda_runtime.as_deref(), Some("12.6.20"));
        assert_eq!(ce.torch.as_deref(), Some("2.3.1+cu121"));
        assert_eq!(ce.torch_cuda.as_deref(), Some("12.1"));
        assert_eq!(ce.cuda_available, Some(true));
        assert_eq!(ce.pip.get("flashinfer").map(String::as_str), Some("0.1.3"));
    }

    /// ComfyUI's system information, from https://github.com/Comfy-Org/ComfyUI/issues/7126
    #[test]
    fn comfyui_system_information() {
        let ce = parse(
            "> ## System Information
> - **ComfyUI Version:** 0.3.26
> - **OS:** nt
> - **Python Version:** 3.12.9 (main, Feb 12 2025, 14:52:31) [MSC v.1942 64 bit (AMD64)]
> - **Embedded Python:** false
> - **PyTorch Version:** 2.6.0+cu126
> ## Devices
> 
> - **Name:** cuda:0 NVIDIA GeForce RTX 5070 Ti : cudaMallocAsync
>   - **Type:** cuda
>   - **VRAM Total:** 17094475776
",
        );
        assert_eq!(ce.gpus, vec!["NVIDIA GeForce RTX 5070 Ti"]);
        assert_eq!(ce.torch.as_deref(), Some("2.6.0+cu126"));
        assert_eq!(ce.torch_cuda.as_deref(), Some("12.6"));
        assert_eq!(ce.os.as_deref(), Some("nt"));
        assert!(ce.formats.iter().any(|f| f == "system information"));
    }

    /// `jax.print_environment_info()` and `nvidia-smi`, from https://github.com/jax-ml/jax/pull/12213
    #[test]
    fn jax_environment_info_and_nvidia_smi() {
        let ce = parse(
            ">>> import jax; jax.print_environment_info()
jax:    0.3.17
jaxlib: 0.3.15
numpy:  1.21.6
python: 3.7.13 (default, Apr 24 2022, 01:04:09)  [GCC 7.5.0]
jax.devices (1 total, 1 local): [GpuDevice(id=0, process_index=0)]

$ nvidia-smi
Fri Sep  2 21:26:17 2022       
+-----------------------------------------------------------------------------+
| NVIDIA-SMI 460.32.03    Driver Version: 460.32.03    CUDA Version: 11.2     |
|-------------------------------+----------------------+----------------------+
| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |
|===============================+======================+======================|
|   0  Tesla T4            Off  | 00000000:00:04.0 Off |                    0 |
",
        );
        assert_eq!(ce.pip.get("jax").map(String::as_str), Some("0.3.17"));
        assert_eq!(ce.pip.get("jaxlib").map(String::as_str), Some("0.3.15"));
        assert_eq!(ce.driver.as_deref(), Some("460.32.03"));
        assert_eq!(ce.driver_cuda.as_deref(), Some("11.2"));
        assert_eq!(ce.gpus, vec!["Tesla T4"]);
        assert!(ce.formats.iter().any(|f| f == "nvidia-smi"));
    }

    /// DeepSpeed's ds_report, from https://github.com/deepspeedai/DeepSpeed/pull/6762
    #[test]
    fn ds_report() {
        let ce = parse("DeepSpeed general environment info:
torch install path ............... ['/home/deepspeed/test/trans-venv/lib/python3.12/site-packages/torch']
torch version .................... 2.3.0+cu121
deepspeed info ................... 0.15.5+unknown, unknown, unknown
torch cuda version ............... 12.1
torch hip version ................ None
nvcc version ..................... 12.0
shared memory (/dev/shm) size .... 125.77 GB
");
        assert_eq!(ce.torch.as_deref(), Some("2.3.0+cu121"));
        assert_eq!(ce.torch_cuda.as_deref(), Some("12.1"));
        assert_eq!(ce.cuda_runtime.as_deref(), Some("12.0"));
        assert_eq!(ce.formats, vec!["ds_report"]);
    }

    /// `nvidia-smi -q`, from https://github.com/NVIDIA/nvidia-docker/issues/688
    #[test]
    fn nvidia_smi_q() {
        let ce = parse(
            "==============NVSMI LOG==============

Timestamp                           : Mon Apr  2 19:47:58 2018
Driver Version                      : 375.82

Attached GPUs                       : 1
GPU 0000:01:00.0
    Product Name                    : Quadro M1000M
    Product Brand                   : Quadro
",
        );
        assert_eq!(ce.driver.as_deref(), Some("375.82"));
        assert_eq!(ce.gpus, vec!["Quadro M1000M"]);
        assert!(ce.formats.iter().any(|f| f == "nvidia-smi -q"));
    }

    /// `nvcc --version`, from https://github.com/oobabooga/textgen/issues/645
    #[test]
    fn nvcc_version() {
        let ce = parse(
            "nvcc: NVIDIA (R) Cuda compiler driver
Copyright (c) 2005-2022 NVIDIA Corporation
Built on Tue_May__3_19:00:59_Pacific_Daylight_Time_2022
Cuda compilation tools, release 11.7, V11.7.64
Build cuda_11.7.r11.7/compiler.31294372_0
",
        );
        assert_eq!(ce.cuda_runtime.as_deref(), Some("11.7.64"));
        assert_eq!(ce.formats, vec!["nvcc --version"]);
    }

    /// `pip list` and environment modules, from https://github.com/pytorch/pytorch/issues/56126
    #[test]
    fn pip_list_and_modules() {
        let ce = parse(
            "  1) StdEnv   2) gcc/6.3.0   3) openblas/0.2.19   4) cuda/10.1.243   5) cudnn/7.6.4
[sfux@lo-login-02 ~]$ pip list | grep torch
gpytorch              1.0.1
torch                 1.5.1+cu101
torchtext             0.6.0
torchvision           0.6.1+cu101
",
        );
        assert_eq!(ce.torch.as_deref(), Some("1.5.1+cu101"));
        assert_eq!(ce.torch_cuda.as_deref(), Some("10.1"));
        assert_eq!(ce.cuda_runtime.as_deref(), Some("10.1.243"));
        assert_eq!(
            ce.pip.get("torchvision").map(String::as_str),
            Some("0.6.1+cu101")
        );
        assert!(!ce.pip.contains_key("gpytorch"));
    }

    /// conda's install plan, from https://github.com/conda/conda/issues/11001
    #[test]
    fn conda_install_plan_of_a_cpu_build() {
        let ce = parse(
            "  cpuonly            pytorch/noarch::cpuonly-2.0-0
  pytorch            pytorch/win-64::pytorch-1.10.0-py3.6_cpu_0
  pytorch-mutex      pytorch/noarch::pytorch-mutex-1.0-cpu
",
        );
        assert_eq!(ce.torch.as_deref(), Some("1.10.0"));
        assert!(ce.torch_cpu_only);
    }

    /// requirements and xformers' warning, from https://github.com/Doubiiu/DynamiCrafter/issues/86
    #[test]
    fn requirements_and_xformers_warning() {
        let ce = parse(
            "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:
    PyTorch 2.3.0+cu121 with CUDA None (you have 2.0.0+cu117)
    Python  3.11.9 (you have 3.11.9)
torch==2.5.1
torchvision==0.20.1
",
        );
        assert_eq!(ce.torch.as_deref(), Some("2.0.0+cu117"));
        assert_eq!(ce.torch_cuda.as_deref(), Some("11.7"));
        assert_eq!(
            ce.pip.get("torchvision").map(String::as_str),
            Some("0.20.1")
        );
    }

    /// dmesg, from https://github.com/NVIDIA/nvidia-docker/issues/182
    #[test]
    fn dmesg_api_mismatch() {
        let ce = parse("Aug 26 14:08:07 nyasara-linux kernel: NVRM: API mismatch: the client has the version 367.44, but
                                      NVRM: this kernel module has the version 367.35.  Please
");
        assert_eq!(ce.driver.as_deref(), Some("367.35"));
        assert!(ce.formats.iter().any(|f| f == "dmesg"));
    }

    /// free-form lines, from https://github.com/verl-project/verl/issues/2271 and the issue's example
    #[test]
    fn free_form_versions() {
        let ce = parse("It's woking fine on a driver version 555 machine but caught segmentation fault on a driver version 535 machine.
I'm now using vllm==0.8.3, torch==2.6.0, Driver Version: 535.247.01, CUDA Version: 12.2
");
        assert_eq!(ce.driver.as_deref(), Some("535.247.01"));
        assert_eq!(ce.torch.as_deref(), Some("2.6.0"));
        assert_eq!(ce.cuda_mentioned.as_deref(), Some("12.2"));
        let ce = parse("CUDA 12.1, driver 535, RTX 3090");
        assert_eq!(ce.driver.as_deref(), Some("535"));
        assert_eq!(ce.cuda_mentioned.as_deref(), Some("12.1"));
        assert_eq!(ce.gpus, vec!["RTX 3090"]);
        assert!(!ce.found_nothing());
        // lsb_release, from https://github.com/NVIDIA/nvidia-docker/issues/745
        let ce =
            parse("Distributor ID:\tUbuntu\nDescription:\tUbuntu 18.04 LTS\nRelease:\t18.04\n");
        assert_eq!(ce.os.as_deref(), Some("Ubuntu 18.04 LTS"));
        assert!(parse("just some prose without versions").found_nothing());
        // from https://github.com/facebookresearch/ParlAI/issues/831
        let ce = parse("I get `AttributeError: module 'torch._C' has no attribute '_cuda_getDevice'` when running");
        assert!(ce.torch_cpu_only && !ce.found_nothing());
        // a GPU name written against CJK text, from https://github.com/vllm-project/vllm/issues/13398
        let ce = parse("# [Bug]: VLLM V1架构不支持V100显卡");
        assert_eq!(ce.gpus, vec!["V100"]);
        assert_eq!(parse("我的4090显卡").gpus, Vec::<String>::new());
        assert_eq!(parse("显卡是RTX 4090，驱动535").gpus, vec!["RTX 4090"]);
    }

    /// Hand-written issue templates with the value as a list item under a bare "Key:" line,
    /// CuPy's runtime info (integer CUDA versions, Python's platform string as the OS),
    /// Windows spelled together or short, and "NVIDIA <version>" as the driver.
    #[test]
    fn key_lines_over_list_items_and_cupy_runtime_info() {
        let ce = parse("### Environment\n\nOS:\n- Arch Linux\n\nGPU:\n- NVIDIA GeForce RTX 3060 (Ampere, Compute Capability 8.6)\n\nDriver:\n- 575.64.05\n\nDocker:\n- cgroup v2\n");
        assert_eq!(ce.os.as_deref(), Some("Arch Linux"));
        assert_eq!(ce.driver.as_deref(), Some("575.64.05"));
        assert_eq!(ce.gpus, vec!["NVIDIA GeForce RTX 3060"]);
        let ce = parse("OS                           : Linux-6.6.87.2-microsoft-standard-WSL2-x86_64-with-glibc2.39\nPython Version               : 3.12.3\nCuPy Version                 : 13.3.0\nCUDA Build Version           : 12060\nCUDA Driver Version          : 12080\nCUDA Runtime Version         : 12060\n");
        assert_eq!(ce.os.as_deref(), Some("Linux"));
        assert!(ce.is_wsl());
        assert_eq!(ce.driver_cuda.as_deref(), Some("12.8"));
        assert_eq!(ce.cuda_runtime.as_deref(), Some("12.6"));
        assert_eq!(ce.driver, None);
        assert_eq!(
            parse("my laptop is windows11, RTX 4060").os.as_deref(),
            Some("Windows 11")
        );
        assert_eq!(
            parse("win 10 ,GTX 1660, cuda 11.8").os.as_deref(),
            Some("Windows 10")
        );
        let ce = parse("I just installed a 4090 with NVIDIA 550.54.14 and torch 2.2.0");
        assert_eq!(ce.driver.as_deref(), Some("550.54.14"));
        // nvidia-smi's banner is no "NVIDIA <version>" prose
        let ce = parse("| NVIDIA-SMI 535.112                Driver Version: 537.42       CUDA Version: 12.2     |");
        assert_eq!(ce.driver.as_deref(), Some("537.42"));
    }

    /// An answer in words on the line after the call, `ollama -v`, and Lightning's device line.
    #[test]
    fn answers_in_words_ollama_version_and_lightning_devices() {
        let ce =
            parse("When I use ``torch.cuda.device_count()``\nit returns 2, which is correct\n");
        assert_eq!(ce.cuda_available, Some(true));
        let ce = parse("print(torch.__version__)\nit returns 2.1.0+cu121.\n");
        assert_eq!(ce.torch.as_deref(), Some("2.1.0+cu121"));
        let ce = parse(">>> torch.cuda.is_available()\nreturns false\n");
        assert_eq!(ce.cuda_available, Some(false));
        // prose that goes on about something else is no answer
        assert_eq!(
            parse("torch.cuda.is_available()\nreturns an error about the driver\n").cuda_available,
            None
        );
        let ce = parse("$ ollama -v\nollama version is 0.5.7\n");
        assert_eq!(ce.pip.get("ollama").map(String::as_str), Some("0.5.7"));
        assert!(!ce.found_nothing());
        let ce = parse("LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0,1]\n");
        assert_eq!(
            ce.env.get("CUDA_VISIBLE_DEVICES").map(String::as_str),
            Some("0,1")
        );
        assert_eq!(ce.cuda_available, Some(true));
    }

    /// NUL bytes at line ends (Windows pastes) do not change what is read.
    #[test]
    fn nul_bytes_do_not_change_the_facts() {
        let text = "PyTorch version: 2.4.1+cu121\nCUDA used to build PyTorch: 12.1\nIs CUDA available: False\nNvidia driver version: 470.82.01\nGPU models and configuration: GPU 0: NVIDIA A100-SXM4-80GB\n| NVIDIA-SMI 470.82.01    Driver Version: 470.82.01    CUDA Version: 11.4     |\n";
        let nul = text.replace('\n', "\0\0\n");
        let (a, b) = (parse(text), parse(&nul));
        assert_eq!(a.torch, b.torch);
        assert_eq!(a.torch_cuda, b.torch_cuda);
        assert_eq!(a.driver, b.driver);
        assert_eq!(a.driver_cuda, b.driver_cuda);
        assert_eq!(a.gpus, b.gpus);
        assert_eq!(a.cuda_available, b.cuda_available);
        assert_eq!(b.driver.as_deref(), Some("470.82.01"));
    }

    /// Linear in the input: many GPU rows, long lines and binary junk cost in proportion.
    #[test]
    fn cost_is_linear() {
        let row = "|   0  NVIDIA A100-SXM4-80GB          Off |   00000000:07:00.0 Off |                    0 |\n";
        let small = row.repeat(2_000);
        let big = row.repeat(20_000);
        let t = std::time::Instant::now();
        let a = parse(&small);
        let t_small = t.elapsed();
        let t = std::time::Instant::now();
        let b = parse(&big);
        let t_big = t.elapsed();
        assert_eq!(a.gpus.len(), 2_000);
        assert_eq!(b.gpus.len(), 20_000);
        // ten times the input: well under a hundred times the time (quadratic)
        assert!(
            t_big < t_small * 40 + std::time::Duration::from_millis(200),
            "{t_small:?} {t_big:?}"
        );
        let _ = parse(&"\u{0}\u{fffd}:::....  \n".repeat(10_000));
        let _ = parse(&"x".repeat(100_000));
    }
}

#[cfg(test)]
#[path = "paste_formats.rs"]
mod formats;

#[cfg(test)]
#[path = "paste_samples.rs"]
mod samples;
