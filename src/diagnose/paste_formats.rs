//! One test per paste format, each on a real sample (cut to the lines that matter, never
//! rewritten) with the thread it comes from. The whole pastes are in
//! tests/corpus/pastes/dev-2026-11b (measured by tests/diagnose_paste_corpus.rs).

use super::parse;

/// torch's collect_env of 2019 ("Is debug build: No", "CUDA used to build PyTorch: 10.1.243",
/// "[conda] pytorch ... py3.7_cuda10.1.243_cudnn7.6.3_0"), from
/// https://github.com/pytorch/pytorch/issues/28321
#[test]
fn collect_env_2019_with_conda_build_strings() {
    let ce = parse(
        "Collecting environment information...
PyTorch version: 1.3.0
Is debug build: No
CUDA used to build PyTorch: 10.1.243

OS: Debian GNU/Linux 9.11 (stretch)
GCC version: (Debian 6.3.0-18+deb9u1) 6.3.0 20170516
CMake version: Could not collect

Python version: 3.7
Is CUDA available: No
CUDA runtime version: 10.0.130
GPU models and configuration: GPU 0: Tesla T4
Nvidia driver version: 410.104
cuDNN version: Could not collect

Versions of relevant libraries:
[pip3] numpy==1.15.1
[pip3] torch==1.2.0
[pip3] torchvision==0.4.0
[conda] pytorch                   1.3.0           py3.7_cuda10.1.243_cudnn7.6.3_0    pytorch
[conda] torchvision               0.4.1                py37_cu101    pytorch
",
    );
    assert_eq!(ce.torch.as_deref(), Some("1.3.0"));
    assert_eq!(ce.torch_cuda.as_deref(), Some("10.1.243"));
    assert_eq!(ce.cuda_available, Some(false));
    assert_eq!(ce.driver.as_deref(), Some("410.104"));
    assert_eq!(ce.gpus, vec!["Tesla T4"]);
    assert_eq!(ce.cuda_runtime.as_deref(), Some("10.0.130"));
    assert_eq!(ce.os.as_deref(), Some("Debian GNU/Linux 9.11 (stretch)"));
    assert_eq!(ce.pip.get("torch").map(String::as_str), Some("1.2.0"));
    assert_eq!(
        ce.conda.get("pytorch"),
        Some(&(
            "1.3.0".to_string(),
            "py3.7_cuda10.1.243_cudnn7.6.3_0".to_string()
        ))
    );
    assert!(!ce.torch_cpu_only);
}

/// collect_env of torch 2.6-2.8 with "Is XPU available", "Is XNNPACK available", a warning
/// printed before it and the Linux CPU block, from https://github.com/pytorch/pytorch/issues/150733
/// and https://github.com/pytorch/executorch/issues/12456
#[test]
fn collect_env_2x_with_xnnpack_xpu_and_cpu_block() {
    let ce = parse(
        "Collecting environment information...
/home/mm/anaconda3/envs/py312/lib/python3.12/site-packages/torch/cuda/__init__.py:235: UserWarning: 
NVIDIA GeForce RTX 5090 D with CUDA capability sm_120 is not compatible with the current PyTorch installation.
The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90.

  warnings.warn(
PyTorch version: 2.6.0+cu126
Is debug build: False
CUDA used to build PyTorch: 12.6
ROCM used to build PyTorch: N/A

OS: Ubuntu 24.10 (x86_64)
Is CUDA available: True
CUDA runtime version: Could not collect
CUDA_MODULE_LOADING set to: LAZY
GPU models and configuration: GPU 0: NVIDIA GeForce RTX 5090 D
Nvidia driver version: 570.124.04
cuDNN version: Could not collect
Is XPU available: False
HIP runtime version: N/A
MIOpen runtime version: N/A
Is XNNPACK available: True

CPU:
Architecture:                         x86_64
CPU op-mode(s):                       32-bit, 64-bit
Model name:                           Intel(R) Xeon(R) Platinum 8358 CPU @ 2.60GHz
",
    );
    assert_eq!(ce.torch.as_deref(), Some("2.6.0+cu126"));
    assert_eq!(ce.torch_cuda.as_deref(), Some("12.6"));
    assert_eq!(ce.gpus, vec!["NVIDIA GeForce RTX 5090 D"]);
    assert_eq!(ce.driver.as_deref(), Some("570.124.04"));
    assert_eq!(ce.cuda_available, Some(true));
    assert_eq!(ce.cuda_runtime, None);
    assert!(ce.keys_seen.iter().any(|k| k == "xnnpack"));
    assert_eq!(ce.os.as_deref(), Some("Ubuntu 24.10 (x86_64)"));
}

/// A Windows CPU nightly (2.8.0.dev...+cpu, "No CUDA") with the Windows CPU block whose
/// "Name:" is the processor, from https://github.com/pytorch/pytorch/pull/137846
#[test]
fn collect_env_windows_cpu_nightly() {
    let ce = parse(
        "PyTorch version: 2.8.0.dev20250528+cpu
Is debug build: False
CUDA used to build PyTorch: None
ROCM used to build PyTorch: N/A

OS: Microsoft Windows 11 Enterprise (10.0.22631 64-bit)
Python platform: Windows-10-10.0.22631-SP0
Is CUDA available: False
CUDA runtime version: No CUDA
GPU models and configuration: No CUDA
Nvidia driver version: No CUDA
cuDNN version: No CUDA
Is XPU available: False
Is XNNPACK available: True

CPU:
Name: 12th Gen Intel(R) Core(TM) i7-1270P
Manufacturer: GenuineIntel
",
    );
    assert_eq!(ce.torch.as_deref(), Some("2.8.0.dev20250528+cpu"));
    assert!(ce.torch_cpu_only);
    assert!(
        ce.gpus.is_empty(),
        "the CPU's Name is no GPU: {:?}",
        ce.gpus
    );
    assert_eq!(ce.driver, None);
    assert!(ce.is_windows());
}

/// vLLM's sectioned collect_env ("CUDA / GPU Info" banners, aligned "Key : value"), from
/// https://github.com/vllm-project/vllm/issues/29864
#[test]
fn vllm_sectioned_collect_env() {
    let ce = parse(
        "==============================
       PyTorch Info
==============================
PyTorch version              : 2.10.0.dev20251124+cu128
Is debug build               : False
CUDA used to build PyTorch   : 12.8
ROCM used to build PyTorch   : N/A

==============================
       CUDA / GPU Info
==============================
Is CUDA available            : True
CUDA runtime version         : 12.8.93
CUDA_MODULE_LOADING set to   : 
GPU models and configuration : 
GPU 0: NVIDIA GeForce RTX 5090
GPU 1: NVIDIA GeForce RTX 5090

Nvidia driver version        : 570.172.08
",
    );
    assert_eq!(ce.torch.as_deref(), Some("2.10.0.dev20251124+cu128"));
    assert_eq!(ce.torch_cuda.as_deref(), Some("12.8"));
    assert_eq!(ce.cuda_runtime.as_deref(), Some("12.8.93"));
    assert_eq!(ce.gpus, vec!["NVIDIA GeForce RTX 5090"; 2]);
    assert_eq!(ce.driver.as_deref(), Some("570.172.08"));
}

/// vLLM's version, build flags and GPU topology block, and "[conda]" rows of pip-installed
/// nvidia-*-cu12 wheels, from https://github.com/vllm-project/vllm/issues/16706 and
/// https://github.com/vllm-project/vllm/issues/19607
#[test]
fn vllm_topology_block_and_conda_wheel_rows() {
    let ce = parse(
        "[conda] nvidia-cudnn-cu12         9.1.0.70                 pypi_0    pypi
[conda] nvidia-nccl-cu12          2.21.5                   pypi_0    pypi
[conda] torch                     2.6.0                    pypi_0    pypi
ROCM Version: Could not collect
Neuron SDK Version: N/A
vLLM Version: 0.8.5.dev24+g280d62b8a
vLLM Build Flags:
CUDA Archs: Not Set; ROCm: Disabled; Neuron: Disabled
GPU Topology:
        GPU0    GPU1    NIC0    CPU Affinity    NUMA Affinity   GPU NUMA ID
GPU0     X      NV12    SYS                             N/A
GPU1    NV12     X      SYS                             N/A
",
    );
    assert_eq!(ce.torch.as_deref(), Some("2.6.0"));
    assert_eq!(
        ce.conda.get("nvidia-cudnn-cu12").map(|c| c.0.as_str()),
        Some("9.1.0.70")
    );
    assert_eq!(
        ce.pip.get("vllm").map(String::as_str),
        Some("0.8.5.dev24+g280d62b8a")
    );
    // the topology names no GPU model: nothing is made up from "GPU0"
    assert!(ce.gpus.is_empty(), "{:?}", ce.gpus);
    assert!(!ce.found_nothing());
}

/// nvidia-smi of a 580 driver on Windows: "CUDA Version: 13.0", the driver model column
/// ("WDDM") where Linux shows persistence mode, "N/A" cells, from
/// https://github.com/facebookresearch/vggt/issues/437
#[test]
fn nvidia_smi_cuda_13_windows_wddm() {
    let ce = parse(
        "+-----------------------------------------------------------------------------------------+
| NVIDIA-SMI 581.57                 Driver Version: 581.57         CUDA Version: 13.0     |
+-----------------------------------------+------------------------+----------------------+
| GPU  Name                  Driver-Model | Bus-Id          Disp.A | Volatile Uncorr. ECC |
| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |
|                                         |                        |               MIG M. |
|=========================================+========================+======================|
|   0  NVIDIA GeForce RTX 5070 Ti   WDDM  |   00000000:01:00.0  On |                  N/A |
|  0%   45C    P8             20W /  300W |    2296MiB /  16303MiB |      0%      Default |
",
    );
    assert_eq!(ce.driver.as_deref(), Some("581.57"));
    assert_eq!(ce.driver_cuda.as_deref(), Some("13.0"));
    assert_eq!(ce.gpus, vec!["NVIDIA GeForce RTX 5070 Ti"]);
    assert!(ce.smi_answered);
}

/// nvidia-smi of a 384 driver: no "CUDA Version" in the header, from
/// https://github.com/fireice-uk/xmr-stak-nvidia/issues/39; and the 2019 layout with a
/// truncated name, from https://github.com/microsoft/computervision-recipes/issues/465
#[test]
fn nvidia_smi_old_headers() {
    let ce = parse(
        "| NVIDIA-SMI 384.66                 Driver Version: 384.66                    |
|===============================+======================+======================|
|   0  TITAN Xp            Off  | 00000000:41:00.0  On |                  N/A |
",
    );
    assert_eq!(ce.driver.as_deref(), Some("384.66"));
    assert_eq!(ce.driver_cuda, None);
    assert_eq!(ce.gpus, vec!["TITAN Xp"]);
    let ce = parse(
        "| NVIDIA-SMI 418.87.01    Driver Version: 418.87.01    CUDA Version: 10.1     |
|   0  Tesla V100-PCIE...  On   | 0000EC50:00:00.0 Off |                    0 |
",
    );
    assert_eq!(ce.driver_cuda.as_deref(), Some("10.1"));
    assert_eq!(ce.gpus, vec!["Tesla V100-PCIE..."]);
}

/// nvidia-smi of the 610 drivers renames the header's fields: "KMD Version:" (the kernel
/// module's) and "CUDA UMD Version:" (the user-mode driver's CUDA), reported in
/// https://github.com/gkyle/startrails/pull/18 ("observed on driver 610.47 / CUDA UMD
/// Version 13.3"); the header and row as a public install guide shows them (the index that
/// found it names no repository).
#[test]
fn nvidia_smi_610_kmd_and_umd_header() {
    let ce = parse(
        "| NVIDIA-SMI 610.43.02              KMD Version: 610.43.02     CUDA UMD Version: 13.3     |
+-----------------------------------------+------------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |
|   0  NVIDIA GeForce RTX 5060        Off |   00000000:01:00.0  On |                  N/A |
",
    );
    assert_eq!(ce.driver.as_deref(), Some("610.43.02"));
    assert_eq!(ce.driver_cuda.as_deref(), Some("13.3"));
    assert_eq!(ce.gpus, vec!["NVIDIA GeForce RTX 5060"]);
    assert!(ce.smi_answered);
    let ce = parse("nvidia-smi's header now labels the CUDA version as 'CUDA UMD Version:' on recent driver releases (observed on driver 610.47 / CUDA UMD Version 13.3, Windows), instead of the legacy 'CUDA Version:'.");
    assert_eq!(ce.driver.as_deref(), Some("610.47"));
    assert_eq!(ce.driver_cuda.as_deref(), Some("13.3"));
}

/// nvidia-smi's "MIG devices" table, from https://github.com/XuehaiPan/nvitop/pull/8
#[test]
fn nvidia_smi_mig_devices_table() {
    let ce = parse(
        "| MIG devices:                                                                |
+------------------+----------------------+-----------+-----------------------+
| GPU  GI  CI  MIG |         Memory-Usage |        Vol|         Shared        |
|      ID  ID  Dev |           BAR1-Usage | SM     Unc| CE  ENC  DEC  OFA  JPG|
|==================+======================+===========+=======================|
|  1    3   0   0  |  14366MiB / 19968MiB | 28      0 |  2   0    1    0    0 |
|                  |      4MiB / 32767MiB |           |                       |
+------------------+----------------------+-----------+-----------------------+
|  1    5   0   1  |   9826MiB / 19968MiB | 28      0 |  2   0    1    0    0 |
",
    );
    assert_eq!(
        ce.mig,
        vec![
            "MIG device 0 on GPU 1 (GI 3, CI 0)",
            "MIG device 1 on GPU 1 (GI 5, CI 0)"
        ]
    );
    assert!(ce.formats.iter().any(|f| f == "nvidia-smi"));
}

/// nvidia-smi that could not answer: "No devices were found" (with the kernel's
/// RmInitAdapter lines), from https://github.com/NVIDIA/open-gpu-kernel-modules/issues/862;
/// "NVIDIA-SMI has failed", from https://github.com/ci-for-research/self-hosted-runners/issues/40;
/// the NVML version mismatch, from https://github.com/tinygrad/open-gpu-kernel-modules/issues/47
#[test]
fn nvidia_smi_failures() {
    let ce = parse(
        "# nvidia-smi
No devices were found

# meanwhile, output in /var/log/syslog
Jul 01 22:55:07 gpu kernel: NVRM: GPU 0000:01:00.0: rm_init_adapter failed, device minor number 0
Jul 01 22:55:07 gpu kernel: NVRM: GPU 0000:01:00.0: RmInitAdapter failed! (0x22:0x56:884)
",
    );
    assert!(ce.smi_failed);
    assert!(!ce.smi_answered);
    assert!(ce.formats.iter().any(|f| f == "dmesg"));
    let ce = parse("Nvidia driver (version 440) is already installed but when I run nvidia-smi command I get the following error.\nNVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\n");
    assert!(ce.smi_failed);
    assert_eq!(ce.driver.as_deref(), Some("440"));
    let ce = parse(
        "nvidia-smi \nFailed to initialize NVML: Driver/library version mismatch\nNVML library version: 570.124\n",
    );
    assert!(ce.formats.iter().any(|f| f == "nvidia-smi"));
    assert!(!ce.found_nothing());
    assert!(!ce.smi_answered);
}

/// sglang's check_env of eight GPUs, a CUDA 13 machine, from
/// https://github.com/sgl-project/sglang/issues/14327
#[test]
fn sglang_check_env_multi_gpu_cuda_13() {
    let ce = parse(
        "Python: 3.12.12 (main, Oct 10 2025, 08:52:57) [GCC 11.4.0]
CUDA available: True
GPU 0,1,2,3: NVIDIA GB300
GPU 0,1,2,3 Compute Capability: 10.3
CUDA_HOME: /usr/local/cuda
NVCC: Cuda compilation tools, release 13.0, V13.0.88
CUDA Driver Version: 580.82.07
PyTorch: 2.9.1+cu130
sglang: 0.5.5.post3
flashinfer_python: 0.5.3
flashinfer_jit_cache: Module Not Found
triton: 3.5.1
",
    );
    assert_eq!(ce.gpus, vec!["NVIDIA GB300"; 4]);
    assert_eq!(ce.driver.as_deref(), Some("580.82.07"));
    assert_eq!(ce.cuda_runtime.as_deref(), Some("13.0.88"));
    assert_eq!(ce.torch.as_deref(), Some("2.9.1+cu130"));
    assert_eq!(ce.torch_cuda.as_deref(), Some("13.0"));
    assert_eq!(ce.cuda_available, Some(true));
}

/// `jax.print_environment_info()` with a CPU jaxlib next to a working driver, from
/// https://github.com/conda-forge/jaxlib-feedstock/issues/285
#[test]
fn jax_environment_info_cpu_fallback() {
    let ce = parse(
        "An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to cpu.
jax:    0.4.32
jaxlib: 0.4.32
numpy:  2.1.2
python: 3.12.7 | packaged by conda-forge | (main, Oct  4 2024, 16:05:46) [GCC 13.3.0]
jax.devices (1 total, 1 local): [CpuDevice(id=0)]
process_count: 1

$ nvidia-smi
| NVIDIA-SMI 560.35.03              Driver Version: 560.35.03      CUDA Version: 12.6     |
",
    );
    assert_eq!(ce.pip.get("jaxlib").map(String::as_str), Some("0.4.32"));
    assert_eq!(ce.driver.as_deref(), Some("560.35.03"));
    assert_eq!(ce.driver_cuda.as_deref(), Some("12.6"));
    assert_eq!(ce.torch, None);
}

/// ds_report's environment block with the wheel's own build ("compiled w. torch 2.1, cuda
/// 12.1"), from https://github.com/erew123/alltalk_tts/issues/4
#[test]
fn ds_report_with_wheel_build() {
    let ce = parse(
        "sparse_attn ............ [NO] ....... [NO]
--------------------------------------------------
DeepSpeed general environment info:
torch install path ............... ['/home/izzy/text-generation-webui/installer_files/env/lib/python3.11/site-packages/torch']
torch version .................... 2.1.2+cu121
deepspeed info ................... 0.12.5, unknown, unknown
torch cuda version ............... 12.1
torch hip version ................ None
nvcc version ..................... 12.3
deepspeed wheel compiled w. ...... torch 2.1, cuda 12.1
shared memory (/dev/shm) size .... 15.54 GB
",
    );
    assert_eq!(ce.torch.as_deref(), Some("2.1.2+cu121"));
    assert_eq!(ce.torch_cuda.as_deref(), Some("12.1"));
    assert_eq!(ce.cuda_runtime.as_deref(), Some("12.3"));
}

/// Forge's (AUTOMATIC1111-based) start-up lines: "Total VRAM", "pytorch version:",
/// "Device: cuda:0 NVIDIA ... : cudaMallocAsync", from
/// https://github.com/lllyasviel/stable-diffusion-webui-forge/issues/2076 and the
/// launcher's "CUDA 12.1" line and ": native" device, from
/// https://github.com/lllyasviel/stable-diffusion-webui-forge/issues/800
#[test]
fn forge_start_up_lines() {
    let ce = parse(
        "Launching Web UI with arguments: --cuda-stream --cuda-malloc
Using cudaMallocAsync backend.
Total VRAM 12288 MB, total RAM 16308 MB
pytorch version: 2.3.1+cu121
Set vram state to: NORMAL_VRAM
Device: cuda:0 NVIDIA GeForce RTX 3060 : cudaMallocAsync
",
    );
    assert_eq!(ce.torch.as_deref(), Some("2.3.1+cu121"));
    assert_eq!(ce.torch_cuda.as_deref(), Some("12.1"));
    assert_eq!(ce.gpus, vec!["NVIDIA GeForce RTX 3060"]);
    // the UI named its CUDA device: CUDA worked for this torch
    assert_eq!(ce.cuda_available, Some(true));
    let ce = parse(
        "CUDA 12.1
Launching Web UI with arguments: --theme dark --cuda-stream --api
Total VRAM 24576 MB, total RAM 32619 MB
Device: cuda:0 NVIDIA GeForce RTX 3090 : native
",
    );
    assert_eq!(ce.gpus, vec!["NVIDIA GeForce RTX 3090"]);
    assert_eq!(ce.cuda_mentioned.as_deref(), Some("12.1"));
}

/// `conda list` rows of pip-installed CUDA wheels ("2.4.0+cu118  pypi_0  pypi"), from
/// https://github.com/lucidrains/stylegan2-pytorch/issues/287
#[test]
fn conda_list_with_pypi_rows() {
    let ce = parse(
        "sympy                     1.13.1                   pypi_0    pypi
tk                        8.6.14               h39e8969_0  
torch                     2.4.0+cu118              pypi_0    pypi
torchvision               0.19.0+cu118             pypi_0    pypi
",
    );
    assert_eq!(ce.torch.as_deref(), Some("2.4.0+cu118"));
    assert_eq!(ce.torch_cuda.as_deref(), Some("11.8"));
    assert!(ce.formats.iter().any(|f| f == "conda list"));
}

/// `pip freeze` ("torch==2.2.1+cu118"), from https://github.com/deepspeedai/DeepSpeed/issues/5479;
/// `pip show torch`, from https://github.com/deepspeedai/DeepSpeed/issues/5312
#[test]
fn pip_freeze_and_pip_show() {
    let ce = parse(
        "tomli==2.0.1\ntorch==2.2.1+cu118\ntorchaudio==2.2.1+cu118\ntorchvision==0.17.1+cu118\ntriton==2.2.0\n",
    );
    assert_eq!(ce.torch.as_deref(), Some("2.2.1+cu118"));
    assert_eq!(ce.torch_cuda.as_deref(), Some("11.8"));
    assert_eq!(ce.pip.get("triton").map(String::as_str), Some("2.2.0"));
    let ce = parse(
        "(qwenpro) ya@C4090-2:~/qwenpro$ pip show torch
Name: torch
Version: 2.2.1
Summary: Tensors and Dynamic neural networks in Python with strong GPU acceleration
Requires: filelock, fsspec, jinja2, networkx, nvidia-cublas-cu12, nvidia-cuda-cupti-cu12
",
    );
    assert_eq!(ce.torch.as_deref(), Some("2.2.1"));
    assert!(ce.formats.iter().any(|f| f == "pip show"));
}

/// dmesg: the module's load line names the driver; a GPU fallen off the bus and nouveau
/// owning the GPUs are observed, from https://github.com/NVIDIA/NVSentinel/issues/155 and
/// https://github.com/mattshma/bigdata/issues/133
#[test]
fn dmesg_load_line_and_observed_causes() {
    let ce = parse(
        "[ 1843.308145] NVRM: The NVIDIA GPU 0000:b3:00.0
               NVRM: (PCI ID: 10de:26b5) installed in this system has
               NVRM: fallen off the bus and is not responding to commands.
[ 1843.439662] NVRM: The NVIDIA probe routine failed for 1 device(s).
[ 1843.439669] NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  570.158.01  Release Build  (dvs-builder@U22-I3-B10-02-5)  Mon Jun  2 13:13:04 UTC 2025
",
    );
    assert_eq!(ce.driver.as_deref(), Some("570.158.01"));
    // "B10" inside a build host's name is no GPU
    assert!(ce.gpus.is_empty(), "{:?}", ce.gpus);
    assert_eq!(ce.kernel_observed.len(), 1);
    assert_eq!(ce.kernel_observed[0].0, "gpu.lost");
    let ce = parse(
        "[188549.976351] NVRM: The NVIDIA probe routine was not called for 3 device(s).
[188549.977053] NVRM: This can occur when a driver such as: 
NVRM: nouveau, rivafb, nvidiafb or rivatv 
NVRM: was loaded and obtained ownership of the NVIDIA device(s).
",
    );
    assert_eq!(ce.kernel_observed.len(), 1);
    assert_eq!(ce.kernel_observed[0].0, "driver.nouveau_loaded");
}

/// NVLink links down as DCGM (`dcgmi nvlink --link-status`: "gpuId 0:" then "D D ...") and
/// nvidia-smi (`nvidia-smi nvlink -s`: "Link 3: <inactive>") list them are observed; links
/// up, disabled or unsupported are not. From https://github.com/NVIDIA/DCGM/issues/198.
#[test]
fn nvlink_links_down_are_observed() {
    let ce = parse("GPUs:\n    gpuId 0:\n        D D D D D D D D D D D D D D D D D D\n    gpuId 1:\n        U U U U\n");
    assert_eq!(ce.kernel_observed.len(), 1, "{ce:?}");
    assert_eq!(ce.kernel_observed[0].0, "gpu.nvlink_down");
    assert!(ce.formats.iter().any(|f| f == "dcgmi nvlink"));
    let ce = parse("GPUs:\n    gpuId 0:\n        U U U U X X _ _\n");
    assert!(ce.kernel_observed.is_empty(), "{ce:?}");
    let ce = parse("GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-1d1f6b9b-7c2a-4b8e-9b0d-6d4b9f0e2a11)\n\t Link 0: 25 GB/s\n\t Link 1: <inactive>\n");
    assert_eq!(ce.kernel_observed[0].0, "gpu.nvlink_down");
    // a "D" in prose is no link state
    let ce = parse("gpuId 0:\nD is for down\n");
    assert!(ce.kernel_observed.is_empty(), "{ce:?}");
}

/// A GPU listed with its UUID (`nvidia-smi -L`) is nvidia-smi answering: the driver works
/// there. From https://github.com/podman-container-tools/podman/issues/17539.
#[test]
fn nvidia_smi_list_is_an_answer() {
    let ce = parse("$ sudo podman run -ti --rm --device=nvidia.com/gpu=0 ubuntu:18.04 nvidia-smi -L\nGPU 0: Tesla P100-PCIE-16GB (UUID: GPU-e50303da-eb0a-d9d3-d573-36e049ff6dc9)\n");
    assert!(ce.smi_answered);
    assert_eq!(ce.gpus, vec!["Tesla P100-PCIE-16GB"]);
    // sglang's "GPU 0: Tesla T4" names a GPU but is no nvidia-smi answer
    assert!(!parse("GPU 0: Tesla T4\n").smi_answered);
}

/// Free-form environment lines: a markdown list ("- GPU: 2× RTX 5090 (32 GB each)",
/// "- PyTorch: `2.7.0.dev20250310+cu124`"), from https://github.com/pytorch/pytorch/issues/167244;
/// "2x Tesla V100-SXM2-32GB ... torch 2.10.0+cu128, driver 570.x", from
/// https://github.com/1CatAI/1Cat-vLLM/issues/430; "the version torch is 2.0.1 / cuda is
/// 11.8", from https://github.com/pBFSLab/DeepPrep/issues/233; "Driver 13.0 / CUDA toolkit
/// 12.8", from https://github.com/kzhang2/aoneus/issues/2
#[test]
fn free_form_environment_lines() {
    let ce = parse(
        "## Environment

- PyTorch: `2.7.0.dev20250310+cu124` (nightly wheel)
- CUDA toolkit: 12.4 (driver 570.124.06 from NVIDIA)
- GPU: 2× RTX 5090 (32 GB each)
- OS: Ubuntu 22.04.5 LTS (kernel 6.8.0-64-generic)
- Python: 3.11.9
",
    );
    assert_eq!(ce.torch.as_deref(), Some("2.7.0.dev20250310+cu124"));
    assert_eq!(ce.torch_cuda.as_deref(), Some("12.4"));
    assert_eq!(ce.cuda_runtime.as_deref(), Some("12.4"));
    assert_eq!(ce.driver.as_deref(), Some("570.124.06"));
    assert_eq!(ce.gpus, vec!["RTX 5090"; 2]);
    assert_eq!(ce.os.as_deref(), Some("Ubuntu 22.04.5 LTS"));
    let ce = parse(
        "- 2x Tesla V100-SXM2-32GB (SM70, PCIe, no NVLink)
- 1Cat-vLLM 1.3.0 wheel (cp312), CUDA 12.8, torch 2.10.0+cu128, driver 570.x
",
    );
    assert_eq!(ce.gpus, vec!["Tesla V100-SXM2-32GB"; 2]);
    assert_eq!(ce.torch.as_deref(), Some("2.10.0+cu128"));
    assert_eq!(ce.driver.as_deref(), Some("570"));
    let ce = parse("the version torch is 2.0.1\ncuda is 11.8\n");
    assert_eq!(ce.torch.as_deref(), Some("2.0.1"));
    assert_eq!(ce.cuda_mentioned.as_deref(), Some("11.8"));
    let ce = parse("torch             2.9.1+cu128\nDriver 13.0\nCUDA toolkit 12.8\n");
    assert_eq!(ce.torch.as_deref(), Some("2.9.1+cu128"));
    assert_eq!(ce.driver, None, "13.0 is no driver version");
    assert_eq!(ce.driver_cuda.as_deref(), Some("13.0"));
    assert_eq!(ce.cuda_runtime.as_deref(), Some("12.8"));
}

/// An upgrade written with an arrow names the version now installed, from
/// https://github.com/pytorch/pytorch/issues/122494
#[test]
fn an_upgrade_arrow_names_the_installed_version() {
    let ce = parse(
        "> After the following upgrade
>
>    - torch: 2.1.2+cpu -> 2.2.1+cpu (
>    https://download.pytorch.org/whl/cpu/torch-2.2.1%2Bcpu-cp310-cp310-linux_x86_64.whl
>    )
>    - torchvision: 0.16.2 -> 0.17.1
",
    );
    assert_eq!(ce.torch.as_deref(), Some("2.2.1+cpu"));
    assert!(ce.torch_cpu_only);
    assert_eq!(
        ce.pip.get("torchvision").map(String::as_str),
        Some("0.17.1")
    );
}

/// nvidia-smi's header pasted after a label on one line, from
/// https://github.com/pytorch/pytorch/issues/85332, and a bare "Driver Version:" line
/// without the table, from https://github.com/jax-ml/jax/issues/21121
#[test]
fn nvidia_smi_header_inline() {
    let ce = parse(
        "nvidia-smi:NVIDIA-SMI 450.51.05    Driver Version: 450.51.05    CUDA Version: 11.0 
nvcc -V:Cuda compilation tools, release 10.2, V10.2.89
print(torch.__version__)
1.8.1+cu102
install : pip install torch==1.8.1+cu102 torchvision==0.9.1+cu102 torchaudio==0.8.1 -f https://download.pytorch.org/whl/torch_stable.html
",
    );
    assert_eq!(ce.driver.as_deref(), Some("450.51.05"));
    assert_eq!(ce.driver_cuda.as_deref(), Some("11.0"));
    assert_eq!(ce.cuda_runtime.as_deref(), Some("10.2.89"));
    assert_eq!(ce.torch.as_deref(), Some("1.8.1+cu102"));
    let ce = parse("Linux Ubuntu 22.04\nNVIDIA-SMI 550.54.15              Driver Version: 550.54.15      CUDA Version: 12.4\n");
    assert_eq!(ce.driver.as_deref(), Some("550.54.15"));
    assert_eq!(ce.driver_cuda.as_deref(), Some("12.4"));
}

/// What `python -c "import torch; print(...)"` printed on the next line, from
/// https://github.com/robosense2025/track5/issues/11 and
/// https://github.com/pytorch/pytorch/issues/85332
#[test]
fn python_one_liner_output() {
    let ce = parse(
        r#"(track5-env) u2025170778@n1:~/jupyterlab/track5$ python -c "import torch; print(torch.__version__)"
2.1.0+cu118
(track5-env) u2025170778@n1:~/jupyterlab/track5$ python -c "import torch; print(torch.cuda.is_available())"
True
"#,
    );
    assert_eq!(ce.torch.as_deref(), Some("2.1.0+cu118"));
    assert_eq!(ce.torch_cuda.as_deref(), Some("11.8"));
    assert_eq!(ce.cuda_available, Some(true));
    let ce = parse("print(torch.__version__)\n1.8.1+cu102\n");
    assert_eq!(ce.torch.as_deref(), Some("1.8.1+cu102"));
    // "return False" is prose, not the printed value
    let ce = parse("import torch\nprint(torch.cuda.is_available())\n\nreturn False\n");
    assert_eq!(ce.cuda_available, None);
}

/// `lspci -nnk`: the GPU's name in brackets and the kernel driver bound to it, from
/// https://github.com/noonghunna/club-3090/issues/138; a GPU lspci does not name yet
/// ("Device 2684"), from https://github.com/geerlingguy/raspberry-pi-pcie-devices/issues/504
#[test]
fn lspci_names_the_gpu_and_its_kernel_driver() {
    let ce = parse(
        "# lspci -nnk | grep -A3 -i nvidia  (driver binding + device IDs)
05:00.0 VGA compatible controller [0300]: NVIDIA Corporation GA102 [GeForce RTX 3090] [10de:2204] (rev a1)
\tSubsystem: ZOTAC International (MCO) Ltd. Device [19da:1613]
\tKernel driver in use: nvidia
\tKernel modules: nouveau, nvidia_drm, nvidia
05:00.1 Audio device [0403]: NVIDIA Corporation GA102 High Definition Audio Controller [10de:1aef] (rev a1)
\tSubsystem: ZOTAC International (MCO) Ltd. Device [19da:1613]
\tKernel driver in use: snd_hda_intel
",
    );
    assert_eq!(ce.gpus, vec!["GeForce RTX 3090"]);
    assert!(ce.module_in_use);
    assert!(ce.kernel_observed.is_empty());
    let ce = parse("01:00.0 VGA compatible controller: NVIDIA Corporation Device 2684 (rev a1) (prog-if 00 [VGA controller])\n");
    assert!(ce.gpus.is_empty(), "{:?}", ce.gpus);
    assert!(ce.formats.iter().any(|f| f == "lspci"));
    assert!(!ce.module_in_use);
}

/// `nvidia-smi -q -x` (as pasted, HTML-escaped), from https://github.com/1Panel-dev/1Panel/issues/11910
#[test]
fn nvidia_smi_q_xml() {
    let ce = parse(
        "<nvidia_smi_log&gt;
&nbsp; &nbsp; &nbsp; &nbsp; <driver_version&gt;591.74</driver_version&gt;
&nbsp; &nbsp; &nbsp; &nbsp; <cuda_version&gt;13.1</cuda_version&gt;
&nbsp; &nbsp; &nbsp; &nbsp; <attached_gpus&gt;1</attached_gpus&gt;
&nbsp; &nbsp; &nbsp; &nbsp; <gpu id=\"00000000:01:00.0\"&gt;
&nbsp; &nbsp; &nbsp; &nbsp; &nbsp; &nbsp; &nbsp; &nbsp; <product_name&gt;NVIDIA GeForce RTX 4090</product_name&gt;
",
    );
    assert_eq!(ce.driver.as_deref(), Some("591.74"));
    assert_eq!(ce.driver_cuda.as_deref(), Some("13.1"));
    assert_eq!(ce.gpus, vec!["NVIDIA GeForce RTX 4090"]);
}

/// `nvidia-smi -L` lines and full-width colons, from https://github.com/pytorch/pytorch/issues/99137
#[test]
fn nvidia_smi_list_with_uuid() {
    let ce = parse(
        "GPU 0: Quadro K620 (UUID: GPU-56622fc6-a9b3-5594-4c6d-b0b231be656a)\npython version\u{FF1A}3.8.16\ncuda version\u{FF1A}cuda10.2\ncudnn version:8.7.0\n",
    );
    assert_eq!(ce.gpus, vec!["Quadro K620"]);
    assert_eq!(ce.cudnn.as_deref(), Some("8.7.0"));
}

/// A conda pytorch build string names its CUDA ("py3.7_cuda10.1.243_cudnn7.6.3_0"), from
/// the install plan in https://github.com/pytorch/pytorch/issues/28321's thread layout
/// (`conda list` columns: name, version, build, channel)
#[test]
fn conda_build_string_names_the_cuda() {
    let ce = parse(
        "pytorch                   1.3.0           py3.7_cuda10.1.243_cudnn7.6.3_0    pytorch\n",
    );
    assert_eq!(ce.torch.as_deref(), Some("1.3.0"));
    assert_eq!(ce.torch_cuda.as_deref(), Some("10.1.243"));
    assert!(!ce.torch_cpu_only);
}

/// SD.Next's start-up log ("Torch backend: nVidia CUDA 11.8 cuDNN 8700", "Torch detected
/// GPU: ... VRAM 8192 Arch (8, 6)"), from https://github.com/vladmandic/sdnext/issues/1316;
/// its package dict ("System packages: {'torch': '2.4.1+cpu', ...}"), from
/// https://github.com/vladmandic/sdnext/issues/3476
#[test]
fn sdnext_start_up_log() {
    let ce = parse(
        "2023-06-05 09:04:34,800 | sd | INFO | installer | nVidia CUDA toolkit detected
2023-06-05 09:04:34,800 | sd | DEBUG | installer | Package version found: torch 2.0.1+cu118
2023-06-05 09:04:37,363 | sd | INFO | installer | Torch 2.0.1+cu118
2023-06-05 09:04:37,410 | sd | INFO | installer | Torch backend: nVidia CUDA 11.8 cuDNN 8700
2023-06-05 09:04:37,410 | sd | INFO | installer | Torch detected GPU: NVIDIA GeForce RTX 3070 Ti VRAM 8192 Arch (8, 6) Cores 48
",
    );
    assert_eq!(ce.torch.as_deref(), Some("2.0.1+cu118"));
    assert_eq!(ce.torch_cuda.as_deref(), Some("11.8"));
    assert_eq!(ce.gpus, vec!["NVIDIA GeForce RTX 3070 Ti"]);
    assert_eq!(ce.cuda_available, Some(true));
    let ce = parse(
        "06:26:03-085287 INFO     System packages: {'torch': '2.4.1+cpu', 'diffusers': '0.31.0.dev0', 'gradio': '3.43.2',\n                         'transformers': '4.45.1', 'accelerate': '0.33.0'}\n",
    );
    assert_eq!(ce.torch.as_deref(), Some("2.4.1+cpu"));
    assert!(ce.torch_cpu_only);
    assert_eq!(
        ce.pip.get("transformers").map(String::as_str),
        Some("4.45.1")
    );
}

/// Windows driver names ("Game Ready Driver and Studio Driver 472.12"), from
/// https://github.com/keylase/nvidia-patch/issues/435
#[test]
fn windows_game_ready_driver_names() {
    let ce = parse("Hi I just want to inform Nvidia  GeForce game ready  & Studio driver 472.12 has released  but still I couldn't find the patch for it.");
    assert_eq!(ce.driver.as_deref(), Some("472.12"));
    let ce = parse("# Nvidia GeForce Game Ready Driver and Studio Driver 472.12 has released.");
    assert_eq!(ce.driver.as_deref(), Some("472.12"));
    // the shorter form the issue (#14) lists, without the word "driver"
    let ce = parse("Windows 11, Game Ready 572.16, RTX 5080");
    assert_eq!(ce.driver.as_deref(), Some("572.16"));
}

/// TensorFlow's device list, TF 2.2 ("pciBusID: ... name: TITAN Xp computeCapability: 6.1",
/// two devices), from https://github.com/NVIDIA/nvvl/issues/108; TF 1.x ("name: GeForce GTX
/// 1650 Ti major: 7 minor: 5"), from https://github.com/tensorflow/models/issues/10335
#[test]
fn tensorflow_device_lines() {
    let ce = parse(
        "2020-06-26 12:33:16.915893: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1561] Found device 0 with properties: 
pciBusID: 0000:0b:00.0 name: TITAN Xp computeCapability: 6.1
coreClock: 1.582GHz coreCount: 30 deviceMemorySize: 11.91GiB deviceMemoryBandwidth: 510.07GiB/s
2020-06-26 12:33:16.916635: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1561] Found device 1 with properties: 
pciBusID: 0000:42:00.0 name: TITAN Xp computeCapability: 6.1
",
    );
    assert_eq!(ce.gpus, vec!["TITAN Xp"; 2]);
    let ce = parse("2021-10-27 22:44:43.971327: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1618] Found device 0 with properties: \nname: GeForce GTX 1650 Ti major: 7 minor: 5 memoryClockRate(GHz): 1.485\npciBusID: 0000:01:00.0\n");
    assert_eq!(ce.gpus, vec!["GeForce GTX 1650 Ti"]);
}

/// TensorFlow's issue template ("- TensorFlow version: 2.4.0-rc1", "- CUDA/cuDNN version:
/// Cuda-11.1 cuDNN-8.05", "- GPU model and memory: Nvidia rtx-3090 (24GB memory)"), from
/// https://github.com/tensorflow/tensorflow/issues/44753
#[test]
fn tensorflow_issue_template() {
    let ce = parse(
        "- OS Platform and Distribution (e.g., Linux Ubuntu 16.04): Ubuntu 18.04
- TensorFlow installed from (source or binary): binary
- TensorFlow version: 2.4.0-rc1
- Python version: 3.8.5
- CUDA/cuDNN version: Cuda-11.1 cuDNN-8.05
- GPU model and memory: Nvidia rtx-3090 (24GB memory)
",
    );
    assert_eq!(
        ce.pip.get("tensorflow").map(String::as_str),
        Some("2.4.0-rc1")
    );
    assert_eq!(ce.cuda_mentioned.as_deref(), Some("11.1"));
    assert_eq!(ce.gpus, vec!["Nvidia rtx-3090"]);
    assert_eq!(ce.os.as_deref(), Some("Ubuntu 18.04"));
}

/// PyTorch's issue template ("- PyTorch Version (e.g., 1.0): 1.7.1", "- GPU models and
/// configuration: GeForce RTX 2070, driver 450.102.04"), from
/// https://github.com/pytorch/pytorch/issues/51840
#[test]
fn pytorch_issue_template() {
    let ce = parse(
        "## Environment

 - PyTorch Version: 1.7.1
 - OS: Linux Ubuntu 20.04 
 - How you installed PyTorch: conda
 - Python version: 3.8
 - CUDA/cuDNN version: CUDA 11.0, cuDNN 8.0.5
 - GPU models and configuration: GeForce RTX 2070, driver 450.102.04
",
    );
    assert_eq!(ce.torch.as_deref(), Some("1.7.1"));
    assert_eq!(ce.cuda_mentioned.as_deref(), Some("11.0"));
    assert_eq!(ce.gpus, vec!["GeForce RTX 2070"]);
    assert_eq!(ce.driver.as_deref(), Some("450.102.04"));
    assert_eq!(ce.os.as_deref(), Some("Linux Ubuntu 20.04"));
    // the template's own wording, examples included
    let ce =
        parse("- PyTorch Version (e.g., 1.0): 1.7.1\n- OS (e.g., Linux): Linux Ubuntu 20.04\n");
    assert_eq!(ce.torch.as_deref(), Some("1.7.1"));
    assert_eq!(ce.os.as_deref(), Some("Linux Ubuntu 20.04"));
}

/// A project's own copy of collect_env ("PyTorch version: 1.8.0 (torchvision: 0.9.0)",
/// "Is CUDA available (PyTorch): No"), from https://github.com/mindee/doctr/pull/345
#[test]
fn collect_env_copies_of_other_projects() {
    let ce = parse(
        "Collecting environment information...

DocTR version: 0.3.0a0
TensorFlow version: 2.5.0
PyTorch version: 1.8.0 (torchvision: 0.9.0)
OpenCV version: 4.5.1
OS: Ubuntu 20.04.2 LTS
Python version: 3.8
Is CUDA available (TensorFlow): No
Is CUDA available (PyTorch): No
CUDA runtime version: 11.2.152
GPU models and configuration: Could not collect
Nvidia driver version: Could not collect
",
    );
    assert_eq!(ce.torch.as_deref(), Some("1.8.0"));
    assert_eq!(ce.pip.get("tensorflow").map(String::as_str), Some("2.5.0"));
    assert_eq!(ce.cuda_runtime.as_deref(), Some("11.2.152"));
    assert!(ce.gpus.is_empty(), "{:?}", ce.gpus);
    assert_eq!(ce.driver, None);
    assert_eq!(ce.os.as_deref(), Some("Ubuntu 20.04.2 LTS"));
}

/// The kernel refusing the nvidia module, or a distribution saying it is missing, observes
/// `driver.module_not_loaded` (forum pastes of round 5: askubuntu's "Required key not
/// available", Fedora's nvidia-fallback line); a refusal of another module does not.
#[test]
fn module_refusals_are_observed() {
    for line in [
        "Ubuntu 16.04 kernel 4.4.0-21 not loading nvidia/vboxdrv modules anymore (Required key not available)",
        "modprobe: ERROR: could not insert 'nvidia': Key was rejected by service",
        "\"NVIDIA kernel module missing. Falling back to nouveau.\"",
    ] {
        let ce = parse(line);
        assert!(!ce.found_nothing(), "{line}");
        assert_eq!(
            ce.kernel_observed.first().map(|(k, _)| k.as_str()),
            Some("driver.module_not_loaded"),
            "{line}"
        );
    }
    let ce = parse("modprobe: ERROR: could not insert 'vboxdrv': Required key not available\n");
    assert!(ce.kernel_observed.is_empty());
}

/// A driver named by its release or branch in words, on a line about NVIDIA's driver (news of
/// the Arch 590 switch, tests/corpus/pastes/dev-2026-11f/f017); versions of other software
/// on lines that are not about the driver are not read.
#[test]
fn a_driver_release_in_words_is_read() {
    let ce = parse("Nvidia menjauh dari GPU Pascal di driver Linux-nya, rilis 590.44.01 telah menyebabkan gangguan bagi pengguna GTX 1080 Ti\n");
    assert_eq!(ce.driver.as_deref(), Some("590.44.01"));
    let ce =
        parse("After the update to the NVIDIA 590 series driver my GTX 1070 boots to a console\n");
    assert_eq!(ce.driver.as_deref(), Some("590"));
    let ce = parse("Blender release 410.12 was used for the renders\n");
    assert_eq!(ce.driver, None);
}

/// The open module refusing a GPU without GSP observes `driver.gpu_unsupported` (the kernel
/// log's own words, whatever the matrix says of the branch).
#[test]
fn the_open_module_refusing_a_gpu_is_observed() {
    let ce = parse("[    5.1] NVRM: The NVIDIA GPU 0000:01:00.0 (PCI ID: 10de:1d01)\n[    5.1] NVRM: installed in this system is not supported by open\n[    5.1] NVRM: nvidia.ko because it does not include the required GPU\n[    5.1] NVRM: System Processor (GSP).\n");
    assert_eq!(
        ce.kernel_observed.first().map(|(k, _)| k.as_str()),
        Some("driver.gpu_unsupported")
    );
}

/// The shell finding none of the driver's tools observes `driver.not_installed`; a poster's
/// "nvidia-smi returns no drivers" is nvidia-smi failing (round 5, dev-2026-11f f018/f019).
#[test]
fn driver_tools_missing_and_smi_words_are_read() {
    let ce = parse("sudo prime-select nvidia\nsudo: prime-select: command not found\n");
    assert_eq!(
        ce.kernel_observed.first().map(|(k, _)| k.as_str()),
        Some("driver.not_installed")
    );
    let ce = parse("zsh: command not found: nvidia-smi\n");
    assert!(!ce.kernel_observed.is_empty());
    let ce = parse("bash: nvcc: command not found\n");
    assert!(ce.kernel_observed.is_empty());
    let ce = parse(
        "Changing from 'intel' to 'hybrid' then run 'nvidia-smi' returns no drivers detected.\n",
    );
    assert!(ce.smi_failed && !ce.found_nothing());
}

/// Round 6 (dev-2026-11g): lshw's display block names the GPU and the kernel driver holding
/// it; Python failing to spawn nvidia-smi and apt refusing the driver's packages observe
/// `driver.not_installed`; a poster's "upgraded from 535.113.01-1 to 545.29.02-1" names the
/// driver now installed; "nvidia-smi complains that there aren't any devices" is nvidia-smi
/// failing.
#[test]
fn lshw_apt_and_spawn_failures_are_read() {
    // github.com/peci1/nvidia-htop/issues/23
    let ce = parse("  *-display\n       description: VGA compatible controller\n       product: G98 [GeForce 9300 GS]\n       vendor: NVIDIA Corporation\n       configuration: driver=nouveau latency=0\n");
    assert_eq!(ce.gpus, vec!["GeForce 9300 GS"]);
    assert_eq!(ce.os, None);
    assert_eq!(
        ce.kernel_observed.first().map(|(k, _)| k.as_str()),
        Some("driver.nouveau_loaded")
    );
    let ce = parse("  *-display\n       product: TU104GL [Quadro RTX 4000]\n       vendor: NVIDIA Corporation\n       configuration: driver=nvidia latency=0\n  *-display\n       product: UHD Graphics 630\n       vendor: Intel Corporation\n       configuration: driver=i915 latency=0\n");
    assert_eq!(ce.gpus, vec!["Quadro RTX 4000"]);
    assert!(ce.module_in_use && ce.kernel_observed.is_empty());
    let ce = parse(
        "FileNotFoundError: [Errno 2] No such file or directory: 'nvidia-smi': 'nvidia-smi'\n",
    );
    assert_eq!(
        ce.kernel_observed.first().map(|(k, _)| k.as_str()),
        Some("driver.not_installed")
    );
    // github.com/k4yt3x/video2x/issues/1029
    let ce = parse("The following packages have unmet dependencies:\n libnvidia-cfg1-535 : Depends: libc6 (>= 2.34) but 2.31-13+deb11u7 is to be installed\n");
    assert_eq!(
        ce.kernel_observed.first().map(|(k, _)| k.as_str()),
        Some("driver.not_installed")
    );
    assert_eq!(ce.driver, None);
    let ce = parse(" pop-desktop : PreDepends: pop-de-gnome but it is not going to be installed\n");
    assert!(ce.kernel_observed.is_empty());
    // github.com/negativo17/nvidia-driver/issues/145
    let ce = parse("I just upgraded from 535.113.01-1 to 545.29.02-1 and Xorg can't initialize nvidia module.\n");
    assert_eq!(ce.driver.as_deref(), Some("545.29.02"));
    let ce = parse("but `nvidia-smi` just complains that there aren't any devices present\n");
    assert!(ce.smi_failed);
}

/// Round 6 batch 2: DKMS names the driver in its own words ("Loading new
/// nvidia-current-535.161.08 DKMS files", "DKMS module 'nvidia-367.35' failed to build",
/// Debian's /var/lib/dkms/nvidia-current/ tree); "Tesla P4" is a GPU.
#[test]
fn dkms_wordings_and_short_tesla_names_are_read() {
    // github.com/NVIDIA/nvidia-container-toolkit/issues/361
    let ce = parse("Loading new nvidia-current-535.161.08 DKMS files...\nConsult /var/lib/dkms/nvidia-current/535.161.08/build/make.log for more information.\n");
    assert_eq!(ce.driver.as_deref(), Some("535.161.08"));
    // github.com/voidlinux/void-packages/issues/4651
    let ce = parse("DKMS module 'nvidia-367.35' failed to build, please check /var/lib/dkms\n");
    assert_eq!(ce.driver.as_deref(), Some("367.35"));
    // github.com/NVIDIA/k8s-driver-manager/issues/37
    let ce = parse("I use GPU car is `Tesla P4`.\n");
    assert_eq!(ce.gpus, vec!["Tesla P4"]);
    let ce = parse("Intel Pentium P4 at 3 GHz\n");
    assert!(ce.gpus.is_empty(), "{:?}", ce.gpus);
}

/// Round 6 batch 3: `ubuntu-drivers devices` names the GPU in the model line of an NVIDIA
/// vendor block (github.com/canonical/nvidia-graphics-drivers/issues/36).
#[test]
fn ubuntu_drivers_devices_is_read() {
    let ce = parse("== /sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0 ==\nmodalias : pci:v000010DEd00000DFCsv00001028sd00000535bc03sc00i00\nvendor   : NVIDIA Corporation\nmodel    : GF108GLM [NVS 5200M]\ndriver   : nvidia-driver-435 - distro non-free recommended\n");
    assert_eq!(ce.gpus, vec!["NVS 5200M"]);
    let ce = parse("vendor   : Intel Corporation\nmodel    : Wireless 8265 / 8275 [Dual Band]\n");
    assert!(ce.gpus.is_empty(), "{:?}", ce.gpus);
}

/// Round 6 batch 4: lsmod showing the nvidia module is the module loaded; Debian's `dkms
/// status` names its nvidia-current build (github.com/Bumblebee-Project/Bumblebee/issues/1093).
#[test]
fn lsmod_and_debian_dkms_status_are_read() {
    let ce = parse("nvidia-current/535.216.01, 6.1.0-34-amd64, x86_64: installed\nnvidia_uvm           1540096  0\nnvidia              56795136  17 nvidia_uvm,nvidia_modeset\n");
    assert!(ce.module_in_use);
    assert_eq!(ce.driver.as_deref(), Some("535.216.01"));
    let ce = parse("nvidia is not loaded, lsmod shows nothing\n");
    assert!(!ce.module_in_use);
}

/// Round 6 batch 5: markdown's inline code fence around `print(torch.__version__)` still asks
/// for the next line's version; `modprobe -r nvidia-uvm` is a shell paste
/// (github.com/pytorch/pytorch/issues/6041, github.com/mozilla-ai/llamafile/issues/273).
#[test]
fn fenced_python_questions_and_modprobe_lines_are_read() {
    let ce = parse("```print(torch.__version__)```\n1.4.0\n");
    assert_eq!(ce.torch.as_deref(), Some("1.4.0"));
    let ce = parse("   sudo modprobe -r nvidia-uvm\n   sudo modprobe nvidia-uvm\n");
    assert!(!ce.found_nothing());
    let ce = parse("sudo modprobe snd_hda_intel\n");
    assert!(ce.found_nothing());
}

/// Round 6 batch 7: the nvidia module failing to build for the running kernel observes
/// `driver.module_not_loaded` (github.com/GoogleCloudPlatform/compute-gpu-installation/issues/33,
/// github.com/microsoft/pai/issues/3413).
#[test]
fn module_build_failures_are_observed() {
    for line in [
        "   ERROR: modpost: GPL-incompatible module nvidia.ko uses GPL-only symbol '__rcu_read_lock'\n",
        "ERROR: Failed to install the kernel module through DKMS.  No kernel module was installed; please\n",
    ] {
        let ce = parse(line);
        assert_eq!(
            ce.kernel_observed.first().map(|(k, _)| k.as_str()),
            Some("driver.module_not_loaded"),
            "{line}"
        );
    }
    let ce = parse("make: *** [Makefile:82: modules] Error 2\n");
    assert!(ce.kernel_observed.is_empty());
}

/// The one-liner setup guides and helpers ask for, `python -c "import torch;
/// print(torch.__version__, torch.version.cuda, torch.cuda.is_available())"`, answers on one
/// line ("2.11.0+cpu None False" for a CPU wheel, "2.0.1+cu118 11.8 True NVIDIA GeForce RTX
/// 3060" with the device name added), as public setup guides show it (found with the index's
/// search for that command); one attribute per command, from
/// https://github.com/robosense2025/track5/issues/11.
#[test]
fn torch_one_liner_answers() {
    let ce = parse("$ python -c \"import torch; print(torch.__version__, torch.version.cuda, torch.cuda.is_available())\"\n2.11.0+cpu None False\n");
    assert_eq!(ce.torch.as_deref(), Some("2.11.0+cpu"));
    assert_eq!(ce.cuda_available, Some(false));
    assert!(ce.torch_cpu_only);
    // no command shown: the local version tag says it is torch; a device name may follow
    let ce = parse("2.0.1+cu118 11.8 True NVIDIA GeForce RTX 3060\n");
    assert_eq!(ce.torch.as_deref(), Some("2.0.1+cu118"));
    assert_eq!(ce.torch_cuda.as_deref(), Some("11.8"));
    assert_eq!(ce.cuda_available, Some(true));
    // the answers one line each, and a tuple
    let ce = parse(">>> print(torch.__version__, torch.cuda.is_available())\n2.1.0+cu121\nFalse\n");
    assert_eq!(ce.torch.as_deref(), Some("2.1.0+cu121"));
    assert_eq!(ce.cuda_available, Some(false));
    let ce = parse(">>> torch.__version__, torch.version.cuda\n('2.4.1+cu124', '12.4')\n");
    assert_eq!(ce.torch.as_deref(), Some("2.4.1+cu124"));
    assert_eq!(ce.torch_cuda.as_deref(), Some("12.4"));
    let ce = parse("(track5-env) u2025170778@n1:~/jupyterlab/track5$ python -c \"import torch; print(torch.__version__)\"\n2.1.0+cu118\n(track5-env) u2025170778@n1:~/jupyterlab/track5$ python -c \"import torch; print(torch.cuda.is_available())\"\nTrue\n");
    assert_eq!(ce.torch.as_deref(), Some("2.1.0+cu118"));
    assert_eq!(ce.cuda_available, Some(true));
    // a line of numbers with no torch tag and no command before it is nobody's answer
    let ce = parse("12.1 11.8 True\n");
    assert_eq!(ce.torch, None);
}

/// `torch.cuda.device_count()` answers a count: 0 is CUDA unavailable to torch, more is
/// available; a bare number after any other question is no answer.
#[test]
fn torch_device_count_answers() {
    let ce = parse(">>> import torch\n>>> torch.cuda.device_count()\n0\n>>> torch.__version__\n'2.3.1+cu121'\n");
    assert_eq!(ce.cuda_available, Some(false));
    assert_eq!(ce.torch.as_deref(), Some("2.3.1+cu121"));
    let ce = parse("$ python -c \"import torch; print(torch.__version__, torch.cuda.device_count())\"\n2.5.1+cu124 8\n");
    assert_eq!(ce.torch.as_deref(), Some("2.5.1+cu124"));
    assert_eq!(ce.cuda_available, Some(true));
    let ce = parse(">>> torch.__version__\n0\n");
    assert_eq!(ce.cuda_available, None);
}

/// The toolkit's own version file: `cat /usr/local/cuda/version.txt` (CUDA 10 and older) and
/// version.json's "CUDA SDK" entry (CUDA 11 on); a library's "version" in version.json, and
/// nvidia-smi's "CUDA Version: 12.2", are not the toolkit's.
#[test]
fn toolkit_version_files() {
    let ce = parse("$ cat /usr/local/cuda/version.txt\nCUDA Version 10.0.130\n");
    assert_eq!(ce.cuda_runtime.as_deref(), Some("10.0.130"));
    assert!(ce.formats.iter().any(|f| f == "CUDA toolkit version file"));
    let ce = parse("$ cat /usr/local/cuda/version.json\n{\n   \"cuda\" : {\n      \"name\" : \"CUDA SDK\",\n      \"version\" : \"11.8.20220929\"\n   },\n   \"cuda_cudart\" : {\n      \"name\" : \"CUDA Runtime (cudart)\",\n      \"version\" : \"11.8.89\"\n   },\n");
    assert_eq!(ce.cuda_runtime.as_deref(), Some("11.8"));
    let ce = parse("{\n   \"cuda_cudart\" : {\n      \"name\" : \"CUDA Runtime (cudart)\",\n      \"version\" : \"12.4.127\"\n   }\n");
    assert_eq!(ce.cuda_runtime, None);
    let ce =
        parse("| NVIDIA-SMI 535.54.03   Driver Version: 535.54.03   CUDA Version: 12.2     |\n");
    assert_eq!(ce.cuda_runtime, None);
}

/// Round 10: Hugging Face's env reports. `accelerate env`
/// (https://github.com/huggingface/accelerate/issues/3225): "- PyTorch version (GPU?): 2.0.0
/// (True)", "- GPU type: NVIDIA GeForce GTX 1080 Ti"; `diffusers-cli env`
/// (https://github.com/ShivamShrirao/diffusers/issues/18): "(False)" is torch not seeing CUDA.
#[test]
fn huggingface_env_reports() {
    let ce = parse(
        "- `Accelerate` version: 1.0.1
- Platform: Linux-4.15.0-213-generic-x86_64-with-glibc2.27
- Python version: 3.10.9
- Numpy version: 1.26.4
- PyTorch version (GPU?): 2.0.0 (True)
- PyTorch XPU available: False
- System RAM: 125.80 GB
- GPU type: NVIDIA GeForce GTX 1080 Ti
",
    );
    assert_eq!(ce.torch.as_deref(), Some("2.0.0"));
    assert_eq!(ce.cuda_available, Some(true));
    assert_eq!(ce.gpus, vec!["NVIDIA GeForce GTX 1080 Ti"]);
    assert_eq!(ce.python.as_deref(), Some("3.10.9"));
    let ce = parse(
        "- `diffusers` version: 0.4.0.dev0
- Platform: Linux-4.4.0-19041-Microsoft-x86_64-with-glibc2.31
- Python version: 3.9.13
- PyTorch version (GPU?): 1.12.1+cu116 (False)
- Huggingface_hub version: 0.10.0
- Transformers version: 4.22.2
",
    );
    assert_eq!(ce.torch.as_deref(), Some("1.12.1+cu116"));
    assert_eq!(ce.torch_cuda.as_deref(), Some("11.6"));
    assert_eq!(ce.cuda_available, Some(false));
}

/// Round 10: Ultralytics' start-up line and `yolo checks`' package rows, from
/// https://github.com/SunOner/sunone_aimbot/issues/36 and (a CPU build, the line cut before
/// the device) https://github.com/mikel-brostrom/boxmot/issues/836
#[test]
fn ultralytics_start_up_line_and_checks() {
    let ce = parse(
        "Ultralytics YOLOv8.0.221 🚀 Python-3.11.6 torch-2.1.1+cu121 CUDA:0 (NVIDIA GeForce GTX 1650 SUPER, 4096MiB)
Setup complete ✅ (12 CPUs, 15.9 GB RAM, 101.6/111.2 GB disk)
torch               ✅ 2.1.1+cu121>=1.8.0
torchvision         ✅ 0.16.1>=0.9.0
",
    );
    assert_eq!(ce.torch.as_deref(), Some("2.1.1+cu121"));
    assert_eq!(ce.torch_cuda.as_deref(), Some("12.1"));
    assert_eq!(ce.gpus, vec!["NVIDIA GeForce GTX 1650 SUPER"]);
    assert_eq!(ce.cuda_available, Some(true));
    assert_eq!(
        ce.pip.get("torchvision").map(String::as_str),
        Some("0.16.1")
    );
    let ce = parse("Ultralytics YOLOv8.0.88  Python-3.9.16 torch-2.0.0+cpu\n");
    assert_eq!(ce.torch.as_deref(), Some("2.0.0+cpu"));
    assert!(ce.torch_cpu_only);
    assert!(ce.gpus.is_empty());
}

/// Round 10: OpenMMLab's collect_env ("PyTorch compiling details: PyTorch built with:" then
/// torch.__config__.show()), from https://github.com/open-mmlab/mmdetection/issues/4659, and
/// mmengine's printed as an OrderedDict whose compiling details list no CUDA (a CPU build),
/// from https://github.com/open-mmlab/mmcv/issues/2908
#[test]
fn openmmlab_collect_env_and_its_mapping() {
    let ce = parse(
        "sys.platform: linux
Python: 3.7.9 (default, Aug 31 2020, 12:42:55) [GCC 7.3.0]
CUDA available: True
GPU 0: Tesla V100S-PCIE-32GB
CUDA_HOME: /cm/shared/apps/cuda10.2/toolkit/10.2.89
NVCC: Cuda compilation tools, release 10.2, V10.2.89
GCC: gcc (GCC) 8.4.0
PyTorch: 1.7.1
PyTorch compiling details: PyTorch built with:
  - GCC 7.3
  - CPU capability usage: AVX2
  - CUDA Runtime 10.2
  - CuDNN 7.6.5
  - Magma 2.5.2
  - Build settings: BLAS=MKL, BUILD_TYPE=Release,
",
    );
    assert_eq!(ce.torch.as_deref(), Some("1.7.1"));
    assert_eq!(ce.torch_cuda.as_deref(), Some("10.2"));
    assert_eq!(ce.cuda_runtime.as_deref(), Some("10.2.89"));
    assert_eq!(ce.gpus, vec!["Tesla V100S-PCIE-32GB"]);
    assert_eq!(ce.cuda_available, Some(true));
    assert!(!ce.torch_cpu_only);
    let ce = parse(
        "OrderedDict([('sys.platform', 'linux'), ('Python', '3.9.17 (main, Jul  5 2023, 20:41:20) [GCC 11.2.0]'), ('CUDA available', False), ('numpy_random_seed', 2147483648), ('GCC', 'gcc (GCC) 13.2.1 20230728 (Red Hat 13.2.1-1)'), ('PyTorch', '2.0.1'), ('PyTorch compiling details', 'PyTorch built with:\\n  - GCC 11.2\\n  - C++ Version: 201703\\n  - CPU capability usage: AVX2\\n  - Build settings: BLAS_INFO=open, BUILD_TYPE=Release, CXX_COMPILER=/croot/pytorch_1686931851744/_build_env/bin/x86_64-conda-linux-gnu-c++\n",
    );
    assert_eq!(ce.torch.as_deref(), Some("2.0.1"));
    assert_eq!(ce.cuda_available, Some(false));
    assert!(ce.torch_cpu_only);
    assert_eq!(ce.platform.as_deref(), Some("linux"));
}

/// Round 10: PyTorch Lightning's collect_env_details ("* CUDA:" / "- GPU:" / one name a line /
/// "- available:" / "- version:" is torch.version.cuda; "* System:"'s "- version:" is the
/// kernel's), from https://github.com/Lightning-AI/pytorch-lightning/issues/19768, and its
/// start-up line, from https://github.com/open-edge-platform/anomalib/issues/232
#[test]
fn lightning_environment_and_start_up_line() {
    let ce = parse(
        "* CUDA:
\t- GPU:
\t\t- NVIDIA GeForce RTX 3080 Laptop GPU
\t- available:         True
\t- version:           12.1
* Lightning:
\t- pytorch-lightning: 2.2.2
\t- torch:             2.2.2
\t- torchvision:       0.17.2
* System:
\t- OS:                Linux
\t- python:            3.10.12
\t- version:           #1 SMP PREEMPT_DYNAMIC Thu Mar 28 10:35:44 UTC 2024
",
    );
    assert_eq!(ce.gpus, vec!["NVIDIA GeForce RTX 3080 Laptop GPU"]);
    assert_eq!(ce.cuda_available, Some(true));
    assert_eq!(ce.torch.as_deref(), Some("2.2.2"));
    assert_eq!(ce.torch_cuda.as_deref(), Some("12.1"));
    let ce = parse("GPU available: True, used: False\nTPU available: False, using: 0 TPU cores\n");
    assert_eq!(ce.cuda_available, Some(true));
}

/// Round 10: nvidia-container-cli refusing a cgroup v2 host (toolkit before 1.8) observes
/// `host.container_no_gpu`, with the words that say so kept from a long engine error
/// (https://github.com/NVIDIA/nvidia-container-toolkit/issues/23).
#[test]
fn container_toolkit_without_cgroup_v2_is_observed() {
    let ce = parse("`docker: Error response from daemon: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: container error: cgroup subsystem devices not found: unknown`.\n");
    let (id, line) = ce.kernel_observed.first().expect("observed");
    assert_eq!(id, "host.container_no_gpu");
    assert!(
        line.contains("cgroup subsystem devices not found"),
        "{line}"
    );
}

/// Round 10: libcuda resolved from the toolkit's stubs directory, as numba's
/// `cuda.cudadrv.libs.test()` maps it (https://github.com/numba/numba/issues/9732), observes
/// `driver.stub_library`; a link line naming the stubs directory does not.
#[test]
fn libcuda_loaded_from_the_stubs_directory_is_observed() {
    let ce = parse(
        "Using loader <class 'ctypes.CDLL'>
        Trying to load driver...        ok
                Loaded from libcuda.so
        Mapped libcuda.so paths:
                /usr/local/cuda-11.8/targets/x86_64-linux/lib/stubs/libcuda.so
",
    );
    assert_eq!(
        ce.kernel_observed.first().map(|(k, _)| k.as_str()),
        Some("driver.stub_library")
    );
    let ce = parse("g++ -o app main.o -L/usr/local/cuda/lib64/stubs/libcuda.so -lcudart\n");
    assert!(ce.kernel_observed.is_empty());
}

/// Round 10: a GPU-detection script's report, where PyTorch and JAX each name the active GPU
/// (one GPU), from https://github.com/matthewfeickert/nvidia-gpu-ml-library-test/pull/4
#[test]
fn detection_script_names_one_active_gpu() {
    let ce = parse(
        "PyTorch build CUDA version: 10.2
PyTorch has active GPU: True
Active GPU name: GeForce GTX 1650 with Max-Q Design

JAX
XLA backend type: gpu
Active GPU name: GeForce GTX 1650 with Max-Q Design
",
    );
    assert_eq!(ce.gpus, vec!["GeForce GTX 1650 with Max-Q Design"]);
    assert_eq!(ce.torch_cuda.as_deref(), Some("10.2"));
    assert_eq!(ce.cuda_available, Some(true));
}

/// Round 10: a two-column markdown table of the environment
/// (https://github.com/sgl-project/sglang-omni/issues/620), PaddlePaddle's device line
/// (https://github.com/PaddlePaddle/Paddle/issues/39090), and prose wrapped after
/// "`torch.__version__` is" (https://github.com/pollen-robotics/microduck_rl/pull/2).
#[test]
fn markdown_tables_paddle_device_lines_and_wrapped_versions() {
    let ce = parse(
        "| | |
|---|---|
| **Hardware** | NVIDIA DGX Spark, **GB10** (compute capability **12.1**) |
| **Driver** | 580.142 |
| **CUDA toolkit** | 13.0 (`/usr/local/cuda` → `libnvrtc.so.13`, `libcudart.so.13`) |
| **torch** | 2.9.1 |
",
    );
    assert_eq!(ce.driver.as_deref(), Some("580.142"));
    assert_eq!(ce.cuda_runtime.as_deref(), Some("13.0"));
    assert_eq!(ce.torch.as_deref(), Some("2.9.1"));
    let ce = parse("W0120 19:29:14.875797 20703 device_context.cc:447] Please NOTE: device: 0, GPU Compute Capability: 8.6, Driver API Version: 11.4, Runtime API Version: 10.2\n");
    assert_eq!(ce.driver_cuda.as_deref(), Some("11.4"));
    let ce = parse("On linux-aarch64, PyPI's torch wheel is **CPU-only**: `torch.__version__` is\n`2.9.1+cpu` and `torch.version.cuda` is `None`.\n");
    assert_eq!(ce.torch.as_deref(), Some("2.9.1+cpu"));
    assert!(ce.torch_cpu_only);
}

/// Round 10: Docker's "could not select device driver ... with capabilities: [[gpu]]" (no NVIDIA
/// device driver registered with the engine) observes `host.container_no_gpu`, for the
/// `--gpus` flag's empty driver name and compose's "nvidia"
/// (https://github.com/docker/cli/issues/2425, https://github.com/psalias2006/gpu-hot/issues/18).
#[test]
fn docker_without_an_nvidia_device_driver_is_observed() {
    for line in [
        "docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]].\n",
        "Error response from daemon: could not select device driver \"nvidia\" with capabilities: [[gpu]]\n",
    ] {
        let ce = parse(line);
        assert_eq!(
            ce.kernel_observed.first().map(|(k, _)| k.as_str()),
            Some("host.container_no_gpu"),
            "{line}"
        );
    }
}

/// Round 10: a bare "Driver" key that names no release leaves the line to the free-form
/// reading ("Driver: nvidia-driver-535" is the 535 branch).
#[test]
fn a_bare_driver_key_without_a_release_is_read_free_form() {
    let ce = parse("| **Driver** | 580.142 |\n");
    assert_eq!(ce.driver.as_deref(), Some("580.142"));
    let ce = parse("Driver: nvidia-driver-535\n");
    assert!(
        ce.driver.as_deref().is_some_and(|d| d.starts_with("535")),
        "{ce:?}"
    );
}

/// A plain `pip install torch` from PyPI is recorded (its CUDA is then the release's PyPI
/// wheel's); one with another index, a find-links page, a wheel file or a local tag is not.
#[test]
fn pip_install_torch_from_pypi() {
    for cmd in [
        "```pip3 install torch torchvision```",
        "$ pip install torch==1.4.0 torchvision==0.5.0",
        "python -m pip install -U torch",
        "!pip install torch",
    ] {
        assert!(parse(cmd).pip_installs_torch, "{cmd}");
    }
    for cmd in [
        "pip install torch --index-url https://download.pytorch.org/whl/cu118",
        "pip install torch==1.7.1+cu110 -f https://download.pytorch.org/whl/torch_stable.html",
        "pip install torchvision",
        "pip install torch-geometric",
        "conda install pytorch torchvision cudatoolkit=10.1 -c pytorch",
    ] {
        assert!(!parse(cmd).pip_installs_torch, "{cmd}");
    }
}

/// nvidia-smi's `--format csv,noheader` rows take their columns from the command line; the
/// same GPUs that CUDA (ggml_cuda_init) lists in another order are observed as the two
/// numberings differing (LostRuins/koboldcpp#1023: a GTX 1660 SUPER and an RTX 3090).
#[test]
fn nvidia_smi_and_cuda_numbering_the_gpus_differently() {
    let smi = "$ nvidia-smi --query-gpu=name,memory.total,index --format csv,noheader\nNVIDIA GeForce GTX 1660 SUPER, 6144 MiB, 0\nNVIDIA GeForce RTX 3090, 24576 MiB, 1\n";
    let ggml = "ggml_cuda_init: found 2 CUDA devices:\n  Device 0: NVIDIA GeForce RTX 3090, compute capability 8.6, VMM: yes\n  Device 1: NVIDIA GeForce GTX 1660 SUPER, compute capability 7.5, VMM: yes\n";
    let ce = parse(&format!("{smi}{ggml}"));
    assert_eq!(
        ce.gpus,
        vec!["NVIDIA GeForce GTX 1660 SUPER", "NVIDIA GeForce RTX 3090"]
    );
    assert!(
        ce.kernel_observed
            .iter()
            .any(|(id, _)| id == "env.device_order"),
        "{ce:?}"
    );
    // the same order, or CUDA_DEVICE_ORDER=PCI_BUS_ID set: nothing observed
    let same = ggml
        .replace("RTX 3090, compute capability 8.6", "X")
        .replace(
            "GTX 1660 SUPER, compute capability 7.5",
            "RTX 3090, compute capability 8.6",
        )
        .replace("X", "GTX 1660 SUPER, compute capability 7.5");
    let ce = parse(&format!("{smi}{same}"));
    assert!(
        !ce.kernel_observed
            .iter()
            .any(|(id, _)| id == "env.device_order"),
        "{ce:?}"
    );
    let ce = parse(&format!("export CUDA_DEVICE_ORDER=PCI_BUS_ID\n{smi}{ggml}"));
    assert!(!ce
        .kernel_observed
        .iter()
        .any(|(id, _)| id == "env.device_order"));
}

/// The nvidia-smi header's "CUDA Version" (what the driver answered) outranks an issue form's
/// "CUDA version:" key read before it (cupy/cupy#5610: the form's 11.4 is CuPy's CUDA, the
/// driver 460.32.03 answers 11.2).
#[test]
fn nvidia_smi_header_cuda_outranks_a_form_key() {
    let ce = parse("  - CUDA version: 11.4\n| NVIDIA-SMI 460.32.03    Driver Version: 460.32.03    CUDA Version: 11.2     |\n");
    assert_eq!(ce.driver_cuda.as_deref(), Some("11.2"));
    assert_eq!(ce.driver.as_deref(), Some("460.32.03"));
}

/// A markdown bold key no report has ("**Setup:** i7-8750H, GTX 1070, 16 GB RAM.") leaves its
/// value to the free-form reading; a known one ("- **GPU**: RTX 3090") is read as its key (Comfy-Org/ComfyUI#9929: a GTX 1070 under
/// torch 2.8.0+cu129).
#[test]
fn markdown_bold_keys() {
    let ce = parse(
        "**Setup:** i7-8750H, GTX 1070, 16 GB RAM.  \n**Versions:** PyTorch 2.8.0 + cu129  \n",
    );
    assert_eq!(ce.gpus, vec!["GTX 1070"]);
    let ce = parse("- **GPU**: NVIDIA GeForce RTX 3090\n- **Driver**: 550.54.15\n");
    assert_eq!(ce.gpus, vec!["NVIDIA GeForce RTX 3090"]);
    assert_eq!(ce.driver.as_deref(), Some("550.54.15"));
}

/// The CUDA samples' deviceQuery (the output format of cuda-samples' `deviceQuery.cpp`): the
/// GPUs in CUDA's order, the driver's CUDA and the runtime the sample was built with; a summary
/// with devices says cuInit worked, so the kernel module is loaded.
#[test]
fn cuda_samples_device_query() {
    let ce = parse(
        r#"./deviceQuery Starting...

 CUDA Device Query (Runtime API) version (CUDART static linking)

Detected 2 CUDA Capable device(s)

Device 0: "NVIDIA GeForce RTX 3090"
  CUDA Driver Version / Runtime Version          12.2 / 12.1
  CUDA Capability Major/Minor version number:    8.6
  Total amount of global memory:                 24260 MBytes (25438715904 bytes)

Device 1: "NVIDIA GeForce RTX 3060"
  CUDA Driver Version / Runtime Version          12.2 / 12.1
  CUDA Capability Major/Minor version number:    8.6

deviceQuery, CUDA Driver = CUDART, CUDA Driver Version = 12.2, CUDA Runtime Version = 12.1, NumDevs = 2
Result = PASS
"#,
    );
    assert_eq!(
        ce.gpus,
        ["NVIDIA GeForce RTX 3090", "NVIDIA GeForce RTX 3060"]
    );
    assert_eq!(ce.driver_cuda.as_deref(), Some("12.2"));
    assert_eq!(ce.cuda_runtime.as_deref(), Some("12.1"));
    assert!(ce.module_in_use);
    assert!(ce.formats.iter().any(|f| f == "deviceQuery"));
    // a failing one enumerates nothing and says nothing of the module
    let ce = parse(
        "./deviceQuery Starting...\n\ncudaGetDeviceCount returned 35\n-> CUDA driver version is insufficient for CUDA runtime version\nResult = FAIL\n",
    );
    assert!(!ce.module_in_use);
    assert!(ce.gpus.is_empty());
}

/// A docker compose file (its `services:` and a service's `deploy:` block) and the image a
/// service runs are read as what they are, not refused as "nothing recognised".
#[test]
fn compose_files_and_container_images() {
    let ce = parse(
        "services:\n  app:\n    image: nvidia/cuda:12.2.0-base-ubuntu22.04\n    deploy:\n      resources:\n        reservations:\n          devices:\n            - driver: nvidia\n              capabilities: [gpu]\n",
    );
    assert!(
        ce.formats.iter().any(|f| f == "docker compose file"),
        "{:?}",
        ce.formats
    );
    assert!(!ce.found_nothing());
    let ce = parse("from ->     image: ghcr.io/blakeblackshear/frigate:stable\n");
    assert!(
        ce.formats.iter().any(|f| f == "container image"),
        "{:?}",
        ce.formats
    );
    // an image word in prose is no image
    assert!(parse("the image: it looks blurry\n").found_nothing());
}
