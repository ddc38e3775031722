//! Parses `python -m torch.utils.collect_env` output in every format it has had: PyTorch
//! 0.4/1.x ("Is debug build: No", "PyTorch version 1.5.0" without a colon, full-width
//! colons from localised pastes), 2.x, vLLM's extended copy (aligned "Key   : value",
//! section banners), Windows and WSL variants, "Could not collect" / "No CUDA" / "N/A",
//! several GPUs, MIG lines, pip/conda package lines, and partial pastes. Anything
//! unrecognised is skipped; nothing panics.

use std::collections::BTreeMap;

use serde::Serialize;

/// What a collect_env paste says, as it says it (values trimmed; "absent" markers as `None`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CollectEnv {
    pub torch: Option<String>,
    /// "CUDA used to build PyTorch"; `None` for a CPU build or when absent.
    pub torch_cuda: Option<String>,
    /// True when the paste says the build has no CUDA ("None" / "Could not collect" next to a known torch).
    pub torch_cpu_only: bool,
    pub rocm: Option<String>,
    pub os: Option<String>,
    pub python: Option<String>,
    pub platform: Option<String>,
    pub cuda_available: Option<bool>,
    /// nvcc's version ("CUDA runtime version").
    pub cuda_runtime: Option<String>,
    pub gpus: Vec<String>,
    /// "MIG 3g.40gb Device 0" lines.
    pub mig: Vec<String>,
    pub driver: Option<String>,
    pub cudnn: Option<String>,
    /// `[pip3] name==version` lines, lower-case names.
    pub pip: BTreeMap<String, String>,
    /// `[conda] name version build channel` lines: name -> (version, build).
    pub conda: BTreeMap<String, (String, String)>,
    /// Environment variables some variants print (vLLM's "Environment Variables" block).
    pub env: BTreeMap<String, String>,
    /// Which of the known keys the paste had at all (to tell "absent" from "cut off").
    pub keys_seen: Vec<String>,
    /// The CUDA version the driver supports (nvidia-smi's header "CUDA Version").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub driver_cuda: Option<String>,
    /// A CUDA version a free-form line names without saying whose ("CUDA 12.1").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cuda_mentioned: Option<String>,
    /// nvidia-smi printed that it could not talk to the driver.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub smi_failed: bool,
    /// What pasted kernel-log (and shell) lines observed: (finding id, the line), e.g. nouveau
    /// owning the GPU, a GPU fallen off the bus, the shell finding no driver tool.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub kernel_observed: Vec<(String, String)>,
    /// `lspci -k` shows the nvidia kernel module bound to an NVIDIA GPU ("Kernel driver in use: nvidia").
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub module_in_use: bool,
    /// nvidia-smi answered with its table of GPUs (the driver and NVML worked there).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub smi_answered: bool,
    /// Architectures an extension was compiled for, as the paste says them
    /// (detectron2's "arch flags"): (extension, value).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ext_arch: Vec<(String, String)>,
    /// The CUDA of a `nvidia/cuda:X.Y` container image the paste runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image_cuda: Option<String>,
    /// The paste installs torch from PyPI with a plain `pip install torch` (no index, no
    /// find-links, no local tag): the wheel is the release's PyPI build.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub pip_installs_torch: bool,
    /// `torch_cuda` was not shown but inferred: the CUDA of the release's PyPI Linux wheel.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub torch_cuda_inferred: bool,
    /// The formats found in the paste ("torch collect_env", "nvidia-smi", "free-form", ...).
    pub formats: Vec<String>,
}

fn absent(v: &str) -> bool {
    let l = v.trim().to_ascii_lowercase();
    l.is_empty()
        || l == "n/a"
        || l == "none"
        || l == "could not collect"
        || l == "no cuda"
        || l == "unknown"
        || l == "null"
}

fn some(v: &str) -> Option<String> {
    (!absent(v)).then(|| v.trim().to_string())
}

/// The known keys, lower-case, with the name we file them under.
const KEYS: &[(&str, &str)] = &[
    ("pytorch version", "torch"),
    ("is debug build", "debug"),
    ("cuda used to build pytorch", "torch_cuda"),
    ("rocm used to build pytorch", "rocm"),
    ("os", "os"),
    ("gcc version", "gcc"),
    ("clang version", "clang"),
    ("cmake version", "cmake"),
    ("libc version", "libc"),
    ("python version", "python"),
    ("python platform", "platform"),
    ("is cuda available", "cuda_available"),
    ("cuda runtime version", "cuda_runtime"),
    ("cuda_module_loading set to", "module_loading"),
    ("gpu models and configuration", "gpus"),
    ("nvidia driver version", "driver"),
    ("cudnn version", "cudnn"),
    ("hip runtime version", "hip"),
    ("miopen runtime version", "miopen"),
    ("is xnnpack available", "xnnpack"),
    ("is xpu available", "xpu"),
    ("xpu used to build pytorch", "xpu_build"),
    ("intel gpu driver version", "intel_driver"),
    ("intel gpu models onboard", "intel_gpus"),
    ("intel gpu models detected", "intel_gpus"),
    ("cpu", "cpu"),
    ("versions of relevant libraries", "libs"),
    ("version of relevant libraries", "libs"),
    ("neuron sdk version", "neuron"),
    ("vllm version", "vllm"),
    ("vllm build flags", "vllm_flags"),
    ("gpu topology", "topology"),
    ("environment variables", "env"),
];

/// Splits "Key: value" / "Key   : value" / "PyTorch version 1.5.0" into a known key and
/// its value.
fn key_value(line: &str) -> Option<(&'static str, String)> {
    let lower = line.to_ascii_lowercase();
    if let Some((k, v)) = line.split_once(':') {
        let k = k
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_ascii_lowercase();
        if let Some((_, name)) = KEYS.iter().find(|(key, _)| *key == k) {
            return Some((name, v.trim().to_string()));
        }
    }
    // "PyTorch version 1.5.0" (an old format without the colon)
    for (key, name) in KEYS {
        if let Some(rest) = lower.strip_prefix(key) {
            if rest.starts_with(' ') && !rest.trim().is_empty() && *name == "torch" {
                let v = line.get(key.len()..).unwrap_or("").trim().to_string();
                return Some((name, v));
            }
        }
    }
    None
}

fn normalise(line: &str) -> String {
    let l = line.replace('：', ":").replace(['\t', '\0'], " ");
    let l = l.trim();
    let l = l.strip_prefix('>').map_or(l, str::trim);
    l.trim_end_matches('\r').to_string()
}

/// "GPU 0: NVIDIA A100 (UUID: GPU-…)" -> "NVIDIA A100".
fn gpu_line(line: &str) -> Option<String> {
    let rest = line.strip_prefix("GPU")?.trim_start();
    let (idx, name) = rest.split_once(':')?;
    if idx.trim().is_empty() || !idx.trim().chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let name = name.split(" (UUID").next().unwrap_or(name).trim();
    (!name.is_empty()).then(|| name.to_string())
}

pub fn parse(text: &str) -> CollectEnv {
    let mut ce = CollectEnv::default();
    let mut section: Option<&'static str> = None;
    let mut torch_cuda_raw: Option<String> = None;
    for raw in text.lines() {
        let line = normalise(raw);
        if line.is_empty() || line.starts_with("```") || line.chars().all(|c| c == '=' || c == '-')
        {
            continue;
        }
        // vLLM's copy prints section banners ("Environment Variables") between '=' rules.
        if line.eq_ignore_ascii_case("environment variables") {
            section = Some("env");
            continue;
        }
        if let Some((key, value)) = key_value(&line) {
            if !ce.keys_seen.iter().any(|k| k == key) {
                ce.keys_seen.push(key.to_string());
            }
            section = Some(key);
            match key {
                // "1.8.0 (torchvision: 0.9.0)" (collect_env copies of other projects)
                // a paste with two reports (the reporter's, then a helper's): the first one's
                // value stands, as for every other block of a paste
                "torch" if ce.torch.is_none() => {
                    ce.torch = some(value.split_whitespace().next().unwrap_or(""));
                }
                "torch_cuda" if torch_cuda_raw.is_none() => torch_cuda_raw = Some(value.clone()),
                "rocm" if ce.rocm.is_none() => ce.rocm = some(&value),
                "os" if ce.os.is_none() => ce.os = some(&value),
                "python" if ce.python.is_none() => ce.python = some(&value),
                "platform" if ce.platform.is_none() => ce.platform = some(&value),
                "cuda_available" => {
                    ce.cuda_available = match value.trim().to_ascii_lowercase().as_str() {
                        "true" | "yes" => Some(true),
                        "false" | "no" => Some(false),
                        _ => None,
                    }
                }
                "cuda_runtime" if ce.cuda_runtime.is_none() => ce.cuda_runtime = some(&value),
                "gpus" => {
                    if let Some(g) = gpu_line(&value) {
                        ce.gpus.push(g);
                    } else if !absent(&value) && !value.to_ascii_lowercase().contains("no cuda") {
                        ce.gpus.push(value.trim().to_string());
                    }
                }
                "driver" => ce.driver = some(&value),
                "vllm" => {
                    if let Some(v) = some(&value) {
                        ce.pip.entry("vllm".into()).or_insert(v);
                    }
                }
                "cudnn" if !value.to_ascii_lowercase().starts_with("probably one of") => {
                    ce.cudnn = cudnn_version(&value);
                }
                _ => {}
            }
            continue;
        }
        match section {
            Some("gpus") => {
                if let Some(g) = gpu_line(&line) {
                    ce.gpus.push(g);
                } else if line.starts_with("MIG ") {
                    ce.mig.push(line.trim_end_matches(':').to_string());
                }
            }
            Some("cudnn") if ce.cudnn.is_none() => {
                ce.cudnn = cudnn_version(&line);
            }
            Some("libs") => package_line(&line, &mut ce),
            Some("env") => {
                if let Some((k, v)) = line.split_once('=') {
                    let k = k.trim();
                    if !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                        ce.env.insert(k.to_string(), v.trim().to_string());
                    }
                }
            }
            _ => {}
        }
        if line.starts_with("[pip") || line.starts_with("[conda]") {
            package_line(&line, &mut ce);
        }
    }
    match torch_cuda_raw {
        Some(v) if !absent(&v) => ce.torch_cuda = Some(v.trim().to_string()),
        Some(v) => {
            // collect_env prints torch.version.cuda, None for CPU builds ("None", or
            // "Could not collect" after replace_nones in 1.x).
            let l = v.trim().to_ascii_lowercase();
            ce.torch_cpu_only = ce.torch.is_some()
                && ce.rocm.is_none()
                && (l == "none" || l == "could not collect");
        }
        None => {}
    }
    if ce.torch.as_deref().is_some_and(|t| t.ends_with("+cpu")) {
        ce.torch_cpu_only = true;
    }
    // XPU and ROCm builds have no CUDA either, and are not CPU-only.
    if ce
        .torch
        .as_deref()
        .is_some_and(|t| t.contains("+xpu") || t.contains("+rocm"))
        || ce.keys_seen.iter().any(|k| k == "xpu_build")
            && ce.torch.as_deref().is_some_and(|t| !t.ends_with("+cpu"))
    {
        ce.torch_cpu_only = false;
    }
    ce
}

fn package_line(line: &str, ce: &mut CollectEnv) {
    if let Some(rest) = line
        .strip_prefix("[pip3]")
        .or_else(|| line.strip_prefix("[pip]"))
    {
        if let Some((name, version)) = rest.trim().split_once("==") {
            ce.pip
                .insert(name.trim().to_ascii_lowercase(), version.trim().to_string());
        }
    } else if let Some(rest) = line.strip_prefix("[conda]") {
        let parts: Vec<&str> = rest.split_whitespace().collect();
        if let [name, version, rest @ ..] = parts.as_slice() {
            let build = rest.first().copied().unwrap_or("").to_string();
            ce.conda
                .insert(name.to_ascii_lowercase(), ((*version).to_string(), build));
        }
    }
}

/// "/usr/lib/x86_64-linux-gnu/libcudnn.so.7.6.5" -> "7.6.5"; "90100" stays; a Windows DLL
/// path "cudnn_ops_train64_8.dll" -> "8".
fn cudnn_version(v: &str) -> Option<String> {
    let v = v.trim();
    if absent(v) {
        return None;
    }
    if v.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return Some(v.to_string());
    }
    if let Some((_, ver)) = v.rsplit_once(".so.") {
        if ver.chars().all(|c| c.is_ascii_digit() || c == '.') && !ver.is_empty() {
            return Some(ver.to_string());
        }
    }
    let lower = v.to_ascii_lowercase();
    if let Some(stem) = lower.strip_suffix(".dll") {
        if let Some((_, major)) = stem.rsplit_once('_') {
            let digits: String = major.chars().filter(char::is_ascii_digit).collect();
            let digits = digits.strip_prefix("64").unwrap_or(&digits).to_string();
            if !digits.is_empty() {
                return Some(digits);
            }
        }
    }
    None
}

impl CollectEnv {
    /// True when nothing of a collect_env paste was recognised.
    pub fn is_empty(&self) -> bool {
        self.keys_seen.is_empty()
    }

    /// True when no format at all was recognised (`paste::parse`).
    pub fn found_nothing(&self) -> bool {
        self.keys_seen.is_empty() && self.formats.is_empty()
    }

    /// The facts found and the facts lacking, by name, for the diagnosis' header.
    pub fn found_and_lacking(&self) -> (Vec<String>, Vec<&'static str>) {
        let mut found = Vec::new();
        let mut lacking = Vec::new();
        let mut one = |name: &'static str, v: Option<String>| match v {
            Some(v) => found.push(format!("{name} {v}")),
            None => lacking.push(name),
        };
        one("driver", self.driver.clone());
        one(
            "GPU",
            (!self.gpus.is_empty()).then(|| {
                let mut names = self.gpus.clone();
                names.dedup();
                format!("{} ({})", names.join(", "), self.gpus.len())
            }),
        );
        one("torch", self.torch.clone());
        one(
            "torch's CUDA",
            self.torch_cuda
                .clone()
                .map(|c| {
                    if self.torch_cuda_inferred {
                        format!("{c} (inferred: the PyPI wheel `pip install torch` gets for this release on Linux)")
                    } else {
                        c
                    }
                })
                .or_else(|| self.torch_cpu_only.then(|| "none (CPU build)".into())),
        );
        one("driver's CUDA", self.driver_cuda.clone());
        one(
            "nvcc",
            self.cuda_runtime.clone().or_else(|| {
                self.image_cuda
                    .clone()
                    .map(|c| format!("{c} (the container image's CUDA)"))
            }),
        );
        one("OS", self.os.clone());
        // what else was read: named when found, never listed as lacking (most pastes have
        // no reason to show it)
        if let Some(v) = &self.cuda_mentioned {
            found.push(format!("CUDA {v} (whose, the paste does not say)"));
        }
        if let Some(v) = &self.cudnn {
            found.push(format!("cuDNN {v}"));
        }
        if let Some(v) = self
            .python
            .as_deref()
            .and_then(|p| p.split_whitespace().next())
        {
            found.push(format!("Python {v}"));
        }
        if let Some(b) = self.cuda_available {
            found.push(format!("CUDA available: {}", if b { "yes" } else { "no" }));
        }
        if let Some(v) = &self.rocm {
            found.push(format!("ROCm {v}"));
        }
        if !self.mig.is_empty() {
            found.push(format!("MIG devices ({})", self.mig.len()));
        }
        let mut packages: Vec<String> = self
            .pip
            .iter()
            .map(|(n, v)| (n, v.clone()))
            .chain(self.conda.iter().map(|(n, (v, _))| (n, v.clone())))
            .filter(|(n, _)| !matches!(n.as_str(), "torch" | "pytorch"))
            .map(|(n, v)| format!("{n} {v}"))
            .collect();
        packages.dedup();
        if !packages.is_empty() {
            let more = packages.len().saturating_sub(12);
            packages.truncate(12);
            let tail = if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            };
            found.push(format!("packages: {}{tail}", packages.join(", ")));
        }
        (found, lacking)
    }

    pub fn is_windows(&self) -> bool {
        self.os
            .as_deref()
            .is_some_and(|o| o.to_ascii_lowercase().contains("windows"))
            || self
                .platform
                .as_deref()
                .is_some_and(|p| p.starts_with("Windows"))
    }

    pub fn is_wsl(&self) -> bool {
        self.platform.as_deref().is_some_and(|p| {
            let l = p.to_ascii_lowercase();
            l.contains("microsoft") || l.contains("wsl")
        })
    }

    /// "x86_64" / "aarch64" from "OS: Ubuntu 22.04 (x86_64)" or the Python platform.
    pub fn arch(&self) -> Option<String> {
        for cand in ["x86_64", "aarch64", "ppc64le", "arm64", "AMD64"] {
            let hit = self.os.as_deref().is_some_and(|o| o.contains(cand))
                || self.platform.as_deref().is_some_and(|p| p.contains(cand))
                || self.python.as_deref().is_some_and(|p| p.contains(cand));
            if hit {
                return Some(match cand {
                    "AMD64" => "x86_64".into(),
                    "arm64" => "aarch64".into(),
                    c => c.into(),
                });
            }
        }
        None
    }

    /// The kernel release from "Linux-5.15.0-1055-nvidia-x86_64-with-glibc2.35".
    pub fn kernel(&self) -> Option<String> {
        let p = self.platform.as_deref()?.strip_prefix("Linux-")?;
        for arch in ["-x86_64", "-aarch64", "-ppc64le"] {
            if let Some((k, _)) = p.split_once(arch) {
                return Some(k.to_string());
            }
        }
        None
    }

    /// "3.10.12 (main, …)" -> "3.10".
    pub fn python_minor(&self) -> Option<String> {
        let v = self.python.as_deref()?.split_whitespace().next()?;
        let mut parts = v.split('.');
        let (a, b) = (parts.next()?, parts.next()?);
        (a.chars().all(|c| c.is_ascii_digit()) && b.chars().all(|c| c.is_ascii_digit()))
            .then(|| format!("{a}.{b}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODERN: &str = "Collecting environment information...
PyTorch version: 2.5.1+cu121
Is debug build: False
CUDA used to build PyTorch: 12.1
ROCM used to build PyTorch: N/A

OS: Ubuntu 22.04.4 LTS (x86_64)
Python version: 3.10.12 (main, Nov 20 2023, 15:14:05) [GCC 11.4.0] (64-bit runtime)
Python platform: Linux-5.15.0-1055-nvidia-x86_64-with-glibc2.35
Is CUDA available: True
CUDA runtime version: 12.4.131
GPU models and configuration:
GPU 0: NVIDIA A100-SXM4-80GB
MIG 3g.40gb     Device  0:
GPU 1: NVIDIA A100-SXM4-80GB
Nvidia driver version: 535.161.08
cuDNN version: Probably one of the following:
/usr/lib/x86_64-linux-gnu/libcudnn.so.9.1.0
/usr/lib/x86_64-linux-gnu/libcudnn_adv.so.9.1.0

Versions of relevant libraries:
[pip3] nvidia-cublas-cu12==12.1.3.1
[pip3] torch==2.5.1
[conda] pytorch-cuda 12.1 ha16c6d3_5 pytorch
";

    /// Two reports in one paste (the reporter's, then a helper's): the first one's values stand.
    #[test]
    fn the_first_report_of_two_stands() {
        let ce = parse("PyTorch version: 2.3.1+cu121\nOS: Ubuntu 22.04.4 LTS (x86_64)\nPython version: 3.10.14\n\nlater, another user:\nPyTorch version: 2.0.0+cu118\nOS: Microsoft Windows 10 Pro\nPython version: 3.11.4\n");
        assert_eq!(ce.torch.as_deref(), Some("2.3.1+cu121"));
        assert_eq!(ce.os.as_deref(), Some("Ubuntu 22.04.4 LTS (x86_64)"));
        assert!(ce.python.as_deref().is_some_and(|p| p.starts_with("3.10")));
    }

    #[test]
    fn modern_format() {
        let ce = parse(MODERN);
        assert_eq!(ce.torch.as_deref(), Some("2.5.1+cu121"));
        assert_eq!(ce.torch_cuda.as_deref(), Some("12.1"));
        assert!(!ce.torch_cpu_only);
        assert_eq!(ce.driver.as_deref(), Some("535.161.08"));
        assert_eq!(ce.gpus, vec!["NVIDIA A100-SXM4-80GB"; 2]);
        assert_eq!(ce.mig.len(), 1);
        assert_eq!(ce.cuda_available, Some(true));
        assert_eq!(ce.cuda_runtime.as_deref(), Some("12.4.131"));
        assert_eq!(ce.cudnn.as_deref(), Some("9.1.0"));
        assert_eq!(ce.os.as_deref(), Some("Ubuntu 22.04.4 LTS (x86_64)"));
        assert_eq!(ce.arch().as_deref(), Some("x86_64"));
        assert_eq!(ce.kernel().as_deref(), Some("5.15.0-1055-nvidia"));
        assert_eq!(ce.python_minor().as_deref(), Some("3.10"));
        assert_eq!(
            ce.pip.get("nvidia-cublas-cu12").map(String::as_str),
            Some("12.1.3.1")
        );
        assert_eq!(
            ce.conda.get("pytorch-cuda").map(|c| c.0.as_str()),
            Some("12.1")
        );
    }

    #[test]
    fn old_formats() {
        let ce = parse(
            "PyTorch version 1.5.0\nIs debug build: No\nCUDA used to build PyTorch: 10.2\n\nOs: Ubuntu 18.04.3 LTS\nIs CUDA available: No\nGPU models and configuration:\nGPU 0： Tesla P100-PCIE-16GB\nGPU 1： Tesla P100-PCIE-16GB\nNvidia driver version: 410.104\ncuDNN version: /usr/lib/x86_64-linux-gnu/libcudnn.so.7.6.5\n",
        );
        assert_eq!(ce.torch.as_deref(), Some("1.5.0"));
        assert_eq!(ce.cuda_available, Some(false));
        assert_eq!(ce.gpus.len(), 2);
        assert_eq!(ce.cudnn.as_deref(), Some("7.6.5"));
        assert_eq!(ce.os.as_deref(), Some("Ubuntu 18.04.3 LTS"));
        let single = parse("GPU models and configuration: GeForce GTX 1070\nCUDA used to build PyTorch: Could not collect\nPyTorch version: 1.0.0\n");
        assert_eq!(single.gpus, vec!["GeForce GTX 1070"]);
        assert!(single.torch_cpu_only);
        let vllm = parse("==============================\n     Environment Variables\n==============================\nCUDA_VISIBLE_DEVICES=0,1\nNCCL_CUMEM_ENABLE=0\n");
        assert_eq!(
            vllm.env.get("CUDA_VISIBLE_DEVICES").map(String::as_str),
            Some("0,1")
        );
        let aligned =
            parse("Is CUDA available            : True\nCUDA used to build PyTorch   : 12.6\n");
        assert_eq!(aligned.cuda_available, Some(true));
        assert_eq!(aligned.torch_cuda.as_deref(), Some("12.6"));
    }

    #[test]
    fn absent_markers_and_garbage() {
        let ce = parse("PyTorch version: N/A\nNvidia driver version: No CUDA\nGPU models and configuration: No CUDA\ncuDNN version: Could not collect\n");
        assert_eq!(ce.torch, None);
        assert_eq!(ce.driver, None);
        assert!(ce.gpus.is_empty());
        assert!(!ce.is_empty());
        assert!(parse("\u{0}\u{1}binary\u{fffd}").is_empty());
        assert!(parse("").is_empty());
        let _ = parse(&":".repeat(10_000));
        let _ = parse(&"GPU 0:\n".repeat(1000));
    }
}
