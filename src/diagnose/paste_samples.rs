//! Round 3 of #14's `diagnose` part: real pastes of every format, gathered fresh (none of
//! them was looked at while the parsers were written), each cut to the lines that matter
//! (never rewritten) with the thread it comes from, and EVERY fact it holds. The test
//! prints facts found per format, so the figure before and after a parser change is the
//! honest estimate of how well the parsers read pastes they were not written against.
//!
//! Gathered in batches, each measured once before any change made for it (facts read /
//! facts held): batches 1-2 182/225, batch 3 53/62, batch 4 40/46, batch 5 13/17, batch 7
//! 23/24. The parsers of main before round 3 read 306/378 of all of them and refused 15
//! pastes that name a version; now 378/378, none refused.

use std::collections::BTreeMap;

use super::parse;
use crate::diagnose::collect_env::CollectEnv;

pub(super) struct Sample {
    pub url: &'static str,
    pub format: &'static str,
    pub text: &'static str,
    /// (fact, value): see `got` for the fact names; "" means the paste does not hold it
    /// (a value that must NOT be read, e.g. "CUDA Version: N/A").
    pub facts: &'static [(&'static str, &'static str)],
}

fn opt(v: &Option<String>) -> String {
    v.clone().unwrap_or_default()
}

/// The parsed value of one fact, as a string.
pub(super) fn got(ce: &CollectEnv, key: &str) -> String {
    match key {
        "gpus" => ce.gpus.join("; "),
        "driver" => opt(&ce.driver),
        "driver_cuda" => opt(&ce.driver_cuda),
        "torch" => opt(&ce.torch),
        "torch_cuda" => opt(&ce.torch_cuda),
        "cpu_only" => ce.torch_cpu_only.to_string(),
        "cuda_runtime" => opt(&ce.cuda_runtime),
        "cuda_mentioned" => opt(&ce.cuda_mentioned),
        "cudnn" => opt(&ce.cudnn),
        "os" => opt(&ce.os),
        "rocm" => opt(&ce.rocm),
        // "3.10.9 (tags/v3.10.9:1dd9be6, ...)": the version
        "python" => ce
            .python
            .as_deref()
            .and_then(|p| p.split_whitespace().next())
            .unwrap_or("")
            .to_string(),
        "cuda_available" => ce.cuda_available.map(|b| b.to_string()).unwrap_or_default(),
        k => {
            if let Some(name) = k.strip_prefix("pip:") {
                ce.pip.get(name).cloned().unwrap_or_default()
            } else if let Some(name) = k.strip_prefix("conda:") {
                ce.conda
                    .get(name)
                    .map(|(v, b)| format!("{v} {b}"))
                    .unwrap_or_default()
            } else {
                format!("<unknown fact {k}>")
            }
        }
    }
}

pub(super) const SAMPLES: &[Sample] = &[
    Sample {
        url: "https://github.com/ollama/ollama/issues/9245",
        format: "Ollama log",
        text: r#"2月 21 13:31:11 tc ollama[285585]: CUDA driver version: 12.3
2月 21 13:31:11 tc ollama[285585]: calling cuDeviceGetCount
2月 21 13:31:11 tc ollama[285585]: device count 1
2月 21 13:31:11 tc ollama[285585]: time=2025-02-21T13:31:11.754+08:00 level=DEBUG source=gpu.go:125 msg="detected GPUs" count=1 library=/usr/lib/x86_64-linux-gnu/libcuda.so.545.23.08
2月 21 13:31:11 tc ollama[285585]: [GPU-433dad3d-903e-13f1-25aa-8888bfae0c86] CUDA totalMem 16076 mb
2月 21 13:31:11 tc ollama[285585]: [GPU-433dad3d-903e-13f1-25aa-8888bfae0c86] Compute Capability 8.9
2月 21 13:31:11 tc ollama[285585]: releasing cuda driver library
2月 21 13:31:11 tc ollama[285585]: time=2025-02-21T13:31:11.961+08:00 level=INFO source=types.go:130 msg="inference compute" id=GPU-433dad3d-903e-13f1-25aa-8888bfae0c86 library=cuda variant=v12 compute=8.9 driver=12.3 name="NVIDIA GeForce RTX 4080" total="15.7 GiB" available="15.4 GiB"
"#,
        facts: &[
            ("gpus", "NVIDIA GeForce RTX 4080"),
            ("driver_cuda", "12.3"),
            ("driver", "545.23.08"),
        ],
    },
    Sample {
        url: "https://github.com/ollama/ollama/issues/17841",
        format: "Ollama log",
        text: r#"msg="skipping CUDA device — compute capability not in compiled architectures"
device="NVIDIA RTX A6000" cc=860 archs="[750 890 1000 1200]"
msg="inference compute" id=0 ... library=CUDA compute=8.6 name=CUDA0
description="NVIDIA RTX A6000" libdirs=ollama,cuda_v12 driver=13.2
"#,
        facts: &[("gpus", "NVIDIA RTX A6000"), ("driver_cuda", "13.2")],
    },
    Sample {
        url: "https://github.com/ollama/ollama/issues/9415",
        format: "Ollama log",
        text: r#"Feb 28 12:44:31 ai-server ollama[854770]: calling cuDeviceGetCount
Feb 28 12:44:31 ai-server ollama[854770]: device count 1
Feb 28 12:44:32 ai-server ollama[854770]: time=2025-02-28T12:44:32.040Z level=DEBUG source=gpu.go:441 msg="updating cuda memory data" gpu=GPU-0aa928c0-ece6-7698-4db1-ac130bfe47b7 name="NVIDIA GeForce RTX 5090" overhead="0 B" before.total="31.4 GiB" before.free="30.9 GiB" now.total="31.4 GiB" now.free="30.9 GiB" now.used="513.4 MiB"
Feb 28 12:44:32 ai-server ollama[854770]: releasing cuda driver library
Feb 28 12:44:32 ai-server ollama[854770]: initializing /usr/lib/x86_64-linux-gnu/libcuda.so.570.86.16
Feb 28 12:44:32 ai-server ollama[854770]: dlsym: cuInit - 0x777263d0de00
"#,
        facts: &[
            ("gpus", "NVIDIA GeForce RTX 5090"),
            ("driver", "570.86.16"),
        ],
    },
    Sample {
        url: "https://github.com/ggml-org/llama.cpp/issues/6758",
        format: "llama.cpp log",
        text: r#"ggml_cuda_init: GGML_CUDA_FORCE_MMQ:    no
ggml_cuda_init: GGML_CUDA_FORCE_CUBLAS: no
ggml_cuda_init: found 1 CUDA devices:
  Device 0: NVIDIA GeForce RTX 4050 Laptop GPU, compute capability 8.9, VMM: yes
build: 4393 (d79d8f39) with MSVC 19.29.30157.0 for
system info: n_threads = 8, n_threads_batch = 8, total_threads = 16
"#,
        facts: &[("gpus", "NVIDIA GeForce RTX 4050 Laptop GPU")],
    },
    Sample {
        url: "https://github.com/ggml-org/llama.cpp/issues/2136",
        format: "llama.cpp log",
        text: r#"main: build = 802 (7242140)
main: seed  = 1688746045
ggml_init_cublas: found 1 CUDA devices:
  Device 0: NVIDIA GeForce RTX 2060 SUPER, compute capability 7.5
llama.cpp: loading model from ../models/7B/ggml-model-q4_0.bin
"#,
        facts: &[("gpus", "NVIDIA GeForce RTX 2060 SUPER")],
    },
    Sample {
        url: "https://github.com/ggml-org/llama.cpp/issues/9881",
        format: "llama.cpp log",
        text: r#"ggml_cuda_init: found 1 CUDA devices:
  Device 0: NVIDIA GeForce RTX 4070, compute capability 8.9, VMM: yes
register_backend: registered backend CUDA (1 devices)
register_device: registered device CUDA0 (NVIDIA GeForce RTX 4070)
register_backend: registered backend CPU (1 devices)
register_device: registered device CPU (12th Gen Intel(R) Core(TM) i7-1260P)
build: 3917 (a89f75e1) with cc (Ubuntu 13.2.0-23ubuntu4) 13.2.0 for x86_64-linux-gnu (debug)
"#,
        facts: &[("gpus", "NVIDIA GeForce RTX 4070")],
    },
    Sample {
        url: "https://github.com/tensorflow/tensorflow/issues/62170",
        format: "TensorFlow log",
        text: r#"2023-10-19 17:12:10.627003: I tensorflow/stream_executor/platform/default/dso_loader.cc:49] Successfully opened dynamic library libcudnn.so.8
2023-10-19 17:12:10.628514: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1862] Adding visible gpu devices: 0
Created TensorFlow device (/job:localhost/replica:0/task:0/device:GPU:0 with 10175 MB memory) -> physical GPU (device: 0, name: Tesla T4, pci bus id: 0000:00:07.0, compute capability: 7.5)
"#,
        facts: &[("gpus", "Tesla T4")],
    },
    Sample {
        url: "https://github.com/xiaodiu2010/TextBoxes-TensorFlow/issues/8",
        format: "TensorFlow log",
        text: r#"2017-06-23 23:47:12.053031: I tensorflow/core/common_runtime/gpu/gpu_device.cc:996] Creating TensorFlow device (/gpu:0) -> (device: 0, name: GeForce GTX 1080, pci bus id: 0000:01:00.0)
2017-06-23 23:47:12.061952: I tensorflow/core/common_runtime/gpu/gpu_device.cc:996] Creating TensorFlow device (/gpu:0) -> (device: 0, name: GeForce GTX 1080, pci bus id: 0000:01:00.0)
2017-06-23 23:47:12.063604: I tensorflow/core/common_runtime/gpu/gpu_device.cc:996] Creating TensorFlow device (/gpu:0) -> (device: 0, name: GeForce GTX 1080, pci bus id: 0000:01:00.0)
"#,
        facts: &[("gpus", "GeForce GTX 1080")],
    },
    Sample {
        url: "https://github.com/YangZeyu95/unofficial-implement-of-openpose/issues/76",
        format: "TensorFlow log",
        text: r#"2021-04-26 20:35:39.341013: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1618] Found device 1 with properties: 
name: GeForce GTX 1080 Ti major: 6 minor: 1 memoryClockRate(GHz): 1.582
pciBusID: 0000:05:00.0
2021-04-26 20:35:39.345904: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1618] Found device 2 with properties: 
name: GeForce GTX 1080 Ti major: 6 minor: 1 memoryClockRate(GHz): 1.582
pciBusID: 0000:06:00.0
2021-04-26 20:35:39.349367: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1618] Found device 3 with properties: 
name: GeForce GTX 1080 Ti major: 6 minor: 1 memoryClockRate(GHz): 1.582
pciBusID: 0000:07:00.0
"#,
        facts: &[(
            "gpus",
            "GeForce GTX 1080 Ti; GeForce GTX 1080 Ti; GeForce GTX 1080 Ti",
        )],
    },
    Sample {
        url: "https://github.com/conda-forge/tensorflow-feedstock/pull/157",
        format: "tf.sysconfig.get_build_info()",
        text: r#"OrderedDict([('cpu_compiler',
              '/home/conda/feedstock_root/build_artifacts/tensorflow-split_1635580013918/_build_env/bin/x86_64-conda-linux-gnu-gcc'),
             ('cuda_compute_capabilities',
              ['sm_35',
               'compute_86']),
             ('cuda_version', '11.2'),
             ('cudnn_version', '8'),
             ('is_cuda_build', True),
             ('is_rocm_build', False),
             ('is_tensorrt_build', False)])
"#,
        facts: &[("cuda_mentioned", "11.2"), ("cudnn", "8")],
    },
    Sample {
        url: "https://github.com/cBio/cbio-cluster/issues/38",
        format: "nvidia-smi",
        text: r#"[chodera@gpu-1-12 ~]$ nvidia-smi
Fri Apr 18 12:26:18 2014       
+------------------------------------------------------+                       
| NVIDIA-SMI 331.62     Driver Version: 331.62         |                       
|-------------------------------+----------------------+----------------------+
| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |
| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |
|===============================+======================+======================|
|   0  GeForce GTX 680     Off  | 0000:03:00.0     N/A |                  N/A |
| 30%   35C  N/A     N/A /  N/A |      9MiB /  4095MiB |     N/A      Default |
+-------------------------------+----------------------+----------------------+
|   1  GeForce GTX 680     Off  | 0000:04:00.0     N/A |                  N/A |
| 30%   35C  N/A     N/A /  N/A |      9MiB /  4095MiB |     N/A      Default |
+-------------------------------+----------------------+----------------------+
|   2  GeForce GTX 680     Off  | 0000:83:00.0     N/A |                  N/A |
| 30%   34C  N/A     N/A /  N/A |      9MiB /  4095MiB |     N/A      Default |
"#,
        facts: &[
            ("driver", "331.62"),
            ("driver_cuda", ""),
            (
                "gpus",
                "GeForce GTX 680; GeForce GTX 680; GeForce GTX 680",
            ),
        ],
    },
    Sample {
        url: "https://github.com/akash-network/provider-configs/pull/12",
        format: "nvidia-smi -L",
        text: r#"root@node1:~# nvidia-smi -L
GPU 0: Quadro RTX 4000 (UUID: GPU-c7b57be0-94ff-d352-a59b-d0ee00aeed43)
GPU 1: Quadro RTX 4000 (UUID: GPU-d6de6afc-bdfe-75c4-5273-0544439153fc)

root@node1:~# nvidia-smi
Thu Feb 29 14:58:21 2024       
+---------------------------------------------------------------------------------------+
| NVIDIA-SMI 535.129.03             Driver Version: 535.129.03   CUDA Version: 12.2     |
|-----------------------------------------+----------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id        Disp.A | Volatile Uncorr. ECC |
| Fan  Temp   Perf          Pwr:Usage/Cap |         Memory-Usage | GPU-Util  Compute M. |
|                                         |                      |               MIG M. |
|=========================================+======================+======================|
|   0  Quadro RTX 4000                Off | 00000000:06:00.0 Off |                  N/A |
| 30%   25C    P8              10W / 125W |      1MiB /  8192MiB |      0%      Default |
|                                         |                      |                  N/A |
+-----------------------------------------+----------------------+----------------------+
|   1  Quadro RTX 4000                Off | 00000000:07:00.0 Off |                  N/A |
"#,
        facts: &[
            ("driver", "535.129.03"),
            ("driver_cuda", "12.2"),
            ("gpus", "Quadro RTX 4000; Quadro RTX 4000"),
        ],
    },
    Sample {
        url: "https://github.com/shkhln/libc6-shim/issues/14",
        format: "nvidia-smi",
        text: r#"| NVIDIA-SMI 575.64.03              Driver Version: 575.64.03      CUDA Version: N/A      |
|-----------------------------------------+------------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |
|=========================================+========================+======================|
|   0  NVIDIA GeForce RTX 5070        Off |   00000000:02:00.0  On |                  N/A |
|  0%   39C    P0             29W /  250W |    1731MiB /  12227MiB |     25%      Default |
"#,
        facts: &[
            ("driver", "575.64.03"),
            ("driver_cuda", ""),
            ("gpus", "NVIDIA GeForce RTX 5070"),
        ],
    },
    Sample {
        url: "https://github.com/microsoft/WSL/issues/11589",
        format: "nvidia-smi",
        text: r#"### Windows Version

Microsoft Windows [Version 10.0.22631.3593]

### Distro Version

Ubuntu 22.04

### Repro Steps

CUDA 11.7
PyTorch 1.13
cuDNN

nvidia-smi
output:
Wed May 15 21:49:41 2024       
+---------------------------------------------------------------------------------------+
| NVIDIA-SMI 545.46                 Driver Version: 546.80       CUDA Version: ERR!     |
|-----------------------------------------+----------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id        Disp.A | Volatile Uncorr. ECC |
|=========================================+======================+======================|
|   0  NVIDIA GeForce RTX 3060 ...    On  | 00000000:01:00.0  On |                  N/A |
| N/A   54C    P8              16W /  80W |    816MiB /  6144MiB |      3%      Default |
"#,
        facts: &[
            ("driver", "546.80"),
            ("driver_cuda", ""),
            ("gpus", "NVIDIA GeForce RTX 3060 ..."),
            ("cuda_mentioned", "11.7"),
            ("torch", "1.13"),
            ("os", "Ubuntu 22.04"),
        ],
    },
    Sample {
        url: "https://github.com/lllyasviel/Fooocus/issues/2661",
        format: "nvidia-smi",
        text: r#"+---------------------------------------------------------------------------------------+
| NVIDIA-SMI 537.13                 Driver Version: 537.13       CUDA Version: 12.2     |
|-----------------------------------------+----------------------+----------------------+
| GPU  Name                     TCC/WDDM  | Bus-Id        Disp.A | Volatile Uncorr. ECC |
| Fan  Temp   Perf          Pwr:Usage/Cap |         Memory-Usage | GPU-Util  Compute M. |
|                                         |                      |               MIG M. |
|=========================================+======================+======================|
|   0  NVIDIA GeForce RTX 2080 ...  WDDM  | 00000000:01:00.0  On |                  N/A |
| N/A   52C    P0              81W /  80W |   6785MiB /  8192MiB |     98%      Default |
|                                         |                      |                  N/A |
+-----------------------------------------+----------------------+----------------------+

Already up-to-date
Update succeeded.
[System ARGV] ['Fooocus\\entry_with_update.py']
Python 3.10.9 (tags/v3.10.9:1dd9be6, Dec  6 2022, 20:01:21) [MSC v.1934 64 bit (AMD64)]
Fooocus version: 2.3.1
"#,
        facts: &[
            ("driver", "537.13"),
            ("driver_cuda", "12.2"),
            ("gpus", "NVIDIA GeForce RTX 2080 ..."),
            ("python", "3.10.9"),
        ],
    },
    Sample {
        url: "https://github.com/pinton-lab/fullwave25/issues/44",
        format: "free-form",
        text: "On Windows 11, with WSL2 running Ubuntu 24.04, with NVIDIA-SMI 561.17, Driver Version: 561.17, CUDA Version: 12.6 I get the error:\n```console\nNameError: name 'cuda' is not defined\n```\n",
        facts: &[("driver", "561.17"), ("driver_cuda", "12.6")],
    },
    Sample {
        url: "https://github.com/MatthiasSchinzel/sysmon/issues/12",
        format: "nvidia-smi -q",
        text: r#"~$ nvidia-smi -q

==============NVSMI LOG==============

Timestamp                                 : Sat Oct 10 17:02:53 2020
Driver Version                            : 450.66
CUDA Version                              : 11.0

Attached GPUs                             : 1
GPU 00000000:01:00.0
    Product Name                          : GeForce GTX 780
    Product Brand                         : GeForce
    Display Mode                          : N/A
    Persistence Mode                      : Disabled
    MIG Mode
        Current                           : N/A
        Pending                           : N/A
"#,
        facts: &[
            ("driver", "450.66"),
            ("driver_cuda", "11.0"),
            ("gpus", "GeForce GTX 780"),
        ],
    },
    Sample {
        url: "https://github.com/anderskm/gputil/issues/38",
        format: "nvidia-smi -q",
        text: r#"nvidia-smi.exe -q -i 0                                                                 
==============NVSMI LOG==============

Timestamp                           : Wed Aug 12 20:36:37 2020
Driver Version                      : 442.92
CUDA Version                        : 10.2

Attached GPUs                       : 4
GPU 00000000:18:00.0
    Product Name                    : GeForce GTX 1080 Ti
    Product Brand                   : GeForce
    Display Mode                    : Enabled
    Driver Model
        Current                     : WDDM
        Pending                     : WDDM
    Serial Number                   : N/A
"#,
        facts: &[
            ("driver", "442.92"),
            ("driver_cuda", "10.2"),
            ("gpus", "GeForce GTX 1080 Ti"),
        ],
    },
    Sample {
        url: "https://github.com/TheTumultuousUnicornOfDarkness/CPU-X/issues/115",
        format: "nvidia-smi -L",
        text: "1. List \n\nGPUs present in the system:\n````\nnvidia-smi -L\n\nGPU 0: GeForce GTX 1660 Ti (UUID: GPU-e18afb8d-1627-f8ff-2ba3-c05c5a8e9e67\n````\n2. Detailed info in XML form for easy parsing:\n```\nnvidia-smi -q -x\n\n<?xml version=\"1.0\" ?>\n<!DOCTYPE nvidia_smi_log SYSTEM \"nvsmi_device_v10.dtd\">\n<nvidia_smi_log>\n\t<timestamp>Sun Dec  1 15:30:44 2019</timestamp>\n\t<driver_version>430.64</driver_version>\n\t<cuda_version>10.1</cuda_version>\n\t<attached_gpus>1</attached_gpus>\n\t<gpu id=\"00000000:29:00.0\">\n\t\t<product_name>GeForce GTX 1660 Ti</product_name>\n\t\t<product_brand>GeForce</product_brand>\n",
        facts: &[
            ("driver", "430.64"),
            ("driver_cuda", "10.1"),
            ("gpus", "GeForce GTX 1660 Ti"),
        ],
    },
    Sample {
        url: "https://github.com/intel/llvm/issues/17614",
        format: "nvidia-smi",
        text: "As a result, currently, nvidia-smi output (in \"Get information about platform\" section) on any run is this:\n```\n**********CUDA Version**********\nFailed to initialize NVML: Driver/library version mismatch\nNVML library version: 550.144\n```\n",
        facts: &[("driver", "550.144")],
    },
    Sample {
        url: "https://github.com/pytorch/pytorch/issues/44303",
        format: "torch collect_env",
        text: r#"`
    python -m torch.utils.collect_env
    Collecting environment information...
    PyTorch version: 1.3.1
    Is debug build: No
    CUDA used to build PyTorch: Could not collect

    OS: Ubuntu 18.04.4 LTS
    GCC version: (Ubuntu 7.5.0-3ubuntu1~18.04) 7.5.0
    CMake version: version 3.10.2

    Python version: 3.7
    Is CUDA available: No
    CUDA runtime version: 10.1.105
    GPU models and configuration: GPU 0: GeForce RTX 2080 Ti
    Nvidia driver version: 430.64
    cuDNN version: Probably one of the following:
        /usr/lib/x86_64-linux-gnu/libcudnn.so.7.6.5
        /usr/local/cuda-10.1/targets/x86_64-linux/lib/libcudnn.so.7.6.5

    Versions of relevant libraries:
        [pip3] numpy==1.19.1
        [pip3] torch==1.3.1
        [pip3] torchvision==0.4.2
`
"#,
        facts: &[
            ("torch", "1.3.1"),
            ("torch_cuda", ""),
            ("cpu_only", "true"),
            ("os", "Ubuntu 18.04.4 LTS"),
            ("python", "3.7"),
            ("cuda_available", "false"),
            ("cuda_runtime", "10.1.105"),
            ("gpus", "GeForce RTX 2080 Ti"),
            ("driver", "430.64"),
            ("cudnn", "7.6.5"),
            ("pip:torchvision", "0.4.2"),
        ],
    },
    Sample {
        url: "https://github.com/pytorch/pytorch/issues/51858",
        format: "torch collect_env",
        text: r#"python -m torch.utils.collect_env
Collecting environment information...
PyTorch version: 2.0.1+cu117
Is debug build: False
CUDA used to build PyTorch: 11.7
ROCM used to build PyTorch: N/A

OS: Microsoft Windows 11 Pro
GCC version: Could not collect
Clang version: Could not collect
CMake version: Could not collect
Libc version: N/A

Python version: 3.9.16 (main, May 17 2023, 17:49:16) [MSC v.1916 64 bit (AMD64)] (64-bit runtime)
Python platform: Windows-10-10.0.22621-SP0
Is CUDA available: True
CUDA runtime version: 11.7.64
CUDA_MODULE_LOADING set to: LAZY
GPU models and configuration: GPU 0: NVIDIA GeForce GTX 1050 Ti
Nvidia driver version: 535.98
cuDNN version: C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v11.7\bin\cudnn_ops_train64_8.dll
HIP runtime version: N/A
MIOpen runtime version: N/A
Is XNNPACK available: True

CPU:
Architecture=9
CurrentClockSpeed=2904
DeviceID=CPU0
Family=198
L2CacheSize=2048
L2CacheSpeed=
Manufacturer=GenuineIntel
MaxClockSpeed=2904
Name=Intel(R) Core(TM) i7-10700 CPU @ 2.90GHz
ProcessorType=3
Revision=

Versions of relevant libraries:
[pip3] numpy==1.23.5
[pip3] torch==2.0.1+cu117
[pip3] torchaudio==2.0.2+cu117
[pip3] torchvision==0.15.2
[conda] blas                      1.0                         mkl
"#,
        facts: &[
            ("torch", "2.0.1+cu117"),
            ("torch_cuda", "11.7"),
            ("os", "Microsoft Windows 11 Pro"),
            ("python", "3.9.16"),
            ("cuda_available", "true"),
            ("cuda_runtime", "11.7.64"),
            ("gpus", "NVIDIA GeForce GTX 1050 Ti"),
            ("driver", "535.98"),
            ("cudnn", "8"),
            ("pip:torchaudio", "2.0.2+cu117"),
        ],
    },
    Sample {
        url: "https://github.com/pytorch/pytorch/issues/40682",
        format: "torch collect_env",
        text: r#"outptu of python -m torch.utils.collect_env is
> Collecting`environment information...
> PyTorch version: 1.5.0+cu101
> Is debug build: No
> CUDA used to build PyTorch: 10.1
> 
> OS: Microsoft Windows Server 2019 Standard
> GCC version: (MinGW.org GCC Build-20200227-1) 9.2.0
> CMake version: Could not collect
> 
> Python version: 3.7
> Is CUDA available: Yes
> CUDA runtime version: 10.1.243
> GPU models and configuration:
> GPU 0: TITAN RTX
> GPU 1: TITAN RTX
> 
> Nvidia driver version: 442.92
> cuDNN version: C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v10.1\bin\cudnn64_7.dll
> 
> Versions of relevant libraries:
> [pip] numpy==1.19.0
> [pip] numpydoc==0.9.1
> [pip] torch==1.5.0+cu101
> [pip] torchvision==0.6.0+cu101
> [conda] blas                      1.0                         mkl
> [conda] mkl                       2019.4                      245
"#,
        facts: &[
            ("torch", "1.5.0+cu101"),
            ("torch_cuda", "10.1"),
            ("os", "Microsoft Windows Server 2019 Standard"),
            ("python", "3.7"),
            ("cuda_available", "true"),
            ("cuda_runtime", "10.1.243"),
            ("gpus", "TITAN RTX; TITAN RTX"),
            ("driver", "442.92"),
            ("cudnn", "7"),
            ("pip:torchvision", "0.6.0+cu101"),
        ],
    },
    Sample {
        url: "https://github.com/pytorch/pytorch/issues/27745",
        format: "torch collect_env",
        text: r#"PyTorch version: 1.0.0
Is debug build: No
CUDA used to build PyTorch: 9.0

OS: Microsoft Windows 10 Enterprise
GCC version: Could not collect
CMake version: Could not collect

Python version: 3.7
Is CUDA available: Yes
CUDA runtime version: Could not collect
GPU models and configuration: GPU 0: GeForce GTX 1050
Nvidia driver version: 398.36
cuDNN version: Could not collect

Versions of relevant libraries:
[pip] numpy==1.16.5
[pip] torch==1.0.0
[pip] torchvision==0.2.2
[conda] blas                      1.0                         mkl
[conda] pytorch                   1.0.0           py3.7_cuda90_cudnn7_1    pytorch
[conda] torchvision               0.2.2                      py_3    pytorch
"#,
        facts: &[
            ("torch", "1.0.0"),
            ("torch_cuda", "9.0"),
            ("os", "Microsoft Windows 10 Enterprise"),
            ("python", "3.7"),
            ("cuda_available", "true"),
            ("cuda_runtime", ""),
            ("gpus", "GeForce GTX 1050"),
            ("driver", "398.36"),
            ("cudnn", ""),
            ("conda:pytorch", "1.0.0 py3.7_cuda90_cudnn7_1"),
        ],
    },
    Sample {
        url: "https://github.com/pytorch/pytorch/pull/44106",
        format: "torch collect_env (ROCm)",
        text: r#"Collecting environment information...
PyTorch version: 1.7.0a0+9ddd3df
Is debug build: False
CUDA used to build PyTorch: N/A
ROCM used to build PyTorch: 3.7.20315-077bcfa0

OS: Ubuntu 18.04.4 LTS (x86_64)
GCC version: (Ubuntu 7.5.0-3ubuntu1~18.04) 7.5.0
CMake version: version 3.14.0

Python version: 3.6 (64-bit runtime)
Is CUDA available: True
CUDA runtime version: N/A
GPU models and configuration: Device 66a1
Nvidia driver version: Could not collect
cuDNN version: N/A
HIP runtime version: 3.18.2
MIOpen runtime version: 2.6.0

Versions of relevant libraries:
[pip3] numpy==1.18.5
[pip3] torch==1.7.0a0+a9603c7
[pip3] torchvision==0.8.0a0+a4736ea
"#,
        facts: &[
            ("torch", "1.7.0a0+9ddd3df"),
            ("torch_cuda", ""),
            ("cpu_only", "false"),
            ("rocm", "3.7.20315-077bcfa0"),
            ("os", "Ubuntu 18.04.4 LTS (x86_64)"),
            ("python", "3.6"),
            ("cuda_available", "true"),
            ("driver", ""),
            ("pip:torch", "1.7.0a0+a9603c7"),
        ],
    },
    Sample {
        url: "https://github.com/lllyasviel/Fooocus/issues/1984",
        format: "Fooocus log",
        text: r#"(fooocus_env) fedyfausto@fedyfausto-unict:~/Fooocus$ python entry_with_update.py --lowvram --port 8001 --listen 0.0.0.0
Update failed.
'refs/heads/HEAD'
Update succeeded.
Python 3.10.12 (main, Nov 20 2023, 15:14:05) [GCC 11.4.0]
Fooocus version: 2.1.703
Running on local URL:  http://0.0.0.0:8001

To create a public link, set `share=True` in `launch()`.
Total VRAM 11441 MB, total RAM 64300 MB
Set vram state to: LOW_VRAM
Device: cuda:0 Tesla K80 : native
VAE dtype: torch.float32
Using pytorch cross attention
"#,
        facts: &[
            ("gpus", "Tesla K80"),
            ("python", "3.10.12"),
            ("cuda_available", "true"),
        ],
    },
    Sample {
        url: "https://github.com/lllyasviel/Fooocus/issues/263",
        format: "Fooocus log",
        text: r#"D:\vmiso\Fooocus_win64_1-1-1035>.\python_embeded\python.exe -s Fooocus\entry_with_update.py
Already up-to-date
Update succeeded.
Python 3.10.9 (tags/v3.10.9:1dd9be6, Dec  6 2022, 20:01:21) [MSC v.1934 64 bit (AMD64)]
Fooocus version: 1.0.40
Inference Engine exists.
Total VRAM 4096 MB, total RAM 16005 MB
Trying to enable lowvram mode because your GPU seems to have 4GB or less. If you don't want this use: --normalvram
xformers version: 0.0.20
Set vram state to: LOW_VRAM
Device: cuda:0 NVIDIA GeForce RTX 3050 Laptop GPU : cudaMallocAsync
Using xformers cross attention
"#,
        facts: &[
            ("gpus", "NVIDIA GeForce RTX 3050 Laptop GPU"),
            ("python", "3.10.9"),
            ("pip:xformers", "0.0.20"),
            ("cuda_available", "true"),
        ],
    },
    Sample {
        url: "https://github.com/invoke-ai/InvokeAI/pull/6062",
        format: "InvokeAI log",
        text: "[2024-03-27 16:40:31,776]::[InvokeAI]::INFO --> Using torch device: NVIDIA GeForce RTX 4090\n",
        facts: &[("gpus", "NVIDIA GeForce RTX 4090"), ("cuda_available", "true")],
    },
    Sample {
        url: "https://github.com/invoke-ai/InvokeAI/issues/4788",
        format: "InvokeAI log",
        text: r#"Starting the InvokeAI browser-based UI..
WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:
    PyTorch 2.0.1+cu118 with CUDA 1108 (you have 2.0.1+cpu)
    Python  3.10.11 (you have 3.10.6)
  Please reinstall xformers (see https://github.com/facebookresearch/xformers#installing-xformers)
[2023-10-04 11:07:08,614]::[InvokeAI]::INFO --> InvokeAI version 3.2.0
"#,
        facts: &[
            ("torch", "2.0.1+cpu"),
            ("cpu_only", "true"),
            ("python", "3.10.6"),
        ],
    },
    Sample {
        url: "https://github.com/Bing-su/adetailer/issues/273",
        format: "AUTOMATIC1111 footer",
        text: "I get the same thing in\nversion: v1.5.1-450-gf37cc5f5\npython: 3.10.9\ntorch: 2.0.1+cu118\nxformers: 0.0.21.dev556\ngradio: 3.39.0\nany checkpoint\n",
        facts: &[
            ("torch", "2.0.1+cu118"),
            ("torch_cuda", "11.8"),
            ("python", "3.10.9"),
            ("pip:xformers", "0.0.21.dev556"),
        ],
    },
    Sample {
        url: "https://github.com/NVIDIA/open-gpu-kernel-modules/issues/311",
        format: "modinfo nvidia",
        text: r#"`ilename:       /lib/modules/4.9.2-3.0.0.std7b.el7.5.x86_64/kernel/drivers/video/nvidia.ko
firmware:       nvidia/515.48.07/gsp.bin
alias:          char-major-195-*
version:        515.48.07
supported:      external
license:        Dual MIT/GPL
srcversion:     FAF867C627FC8DEDD45D08A
"#,
        facts: &[("driver", "515.48.07")],
    },
    Sample {
        url: "https://github.com/dylanaraps/neofetch/issues/876",
        format: "/proc/driver/nvidia/version",
        text: "$ cat /proc/driver/nvidia/version\nNVRM version: NVIDIA UNIX x86_64 Kernel Module  384.98  Thu Oct 26 15:16:01 PDT 2017\nGCC version:  gcc version 7.2.0 (Ubuntu 7.2.0-8ubuntu3) \n",
        facts: &[("driver", "384.98")],
    },
    Sample {
        url: "https://github.com/nix-community/nixGL/issues/121",
        format: "/proc/driver/nvidia/version",
        text: "```console\nNVRM version: NVIDIA UNIX Open Kernel Module for x86_64  525.60.11  Release Build  (archlinux-builder@localhost)  \nGCC version:  gcc version 12.2.0 (GCC) \n```\n",
        facts: &[("driver", "525.60.11")],
    },
    Sample {
        url: "https://github.com/pytorch/pytorch/pull/18579",
        format: "torch.__config__.show()",
        text: r#"PyTorch built with:
  - GCC 4.8
  - Intel(R) Math Kernel Library Version 2019.0.3 Product Build 20190125 for Intel(R) 64 architecture applications
  - OpenMP 201107 (a.k.a. OpenMP 3.1)
  - NNPACK is enabled
  - CUDA Runtime 9.2
  - NVCC architecture flags: -gencode;arch=compute_52,code=sm_52
  - CudNN 7.10.2  (built against CUDA 9.1)
  - Magma 2.5.0
"#,
        facts: &[("torch_cuda", "9.2"), ("cudnn", "7.10.2")],
    },
    Sample {
        url: "https://github.com/matthewfeickert/nvidia-gpu-ml-library-test/pull/3",
        format: "free-form",
        text: r#"PyTorch
Number of GPUs found on system: 1
PyTorch has active GPU: True
PyTorch build CUDA version: 10.2
PyTorch build cuDNN version: 7605
PyTorch build NCCL version: 2708

Active GPU index: 0
Active GPU name: GeForce GTX 1650 with Max-Q Design
"#,
        facts: &[
            ("torch_cuda", "10.2"),
            ("cudnn", "7605"),
            ("gpus", "GeForce GTX 1650 with Max-Q Design"),
            ("cuda_available", "true"),
        ],
    },
    Sample {
        url: "https://github.com/lestofante/ksysguard-gpu/issues/27",
        format: "markdown system list",
        text: r#"**System:**
**OS:** Manjaro Linux
**Kernel:** 6.1.0-1-MANJARO
**GPU:** Nvidia RTX3080 TI
**NVIDIA Driver:** 520.56.06
**Python:** 3.10

**Output nvidia-smi:**

```
Thu Nov 17 18:21:27 2022       
+-----------------------------------------------------------------------------+
| NVIDIA-SMI 520.56.06    Driver Version: 520.56.06    CUDA Version: 11.8     |
|-------------------------------+----------------------+----------------------+
"#,
        facts: &[
            ("os", "Manjaro Linux"),
            ("gpus", "Nvidia RTX3080 TI"),
            ("driver", "520.56.06"),
            ("driver_cuda", "11.8"),
            ("python", "3.10"),
        ],
    },
    Sample {
        url: "https://github.com/jamiepine/voicebox/issues/519",
        format: "systeminfo",
        text: r#"> Host Name:                     PRECISION-3541
> OS Name:                       Microsoft Windows 11 Pro
> OS Version:                    10.0.26200 N/A Build 26200
> OS Manufacturer:               Microsoft Corporation
> OS Configuration:              Standalone Workstation
> System Manufacturer:           Dell Inc.
> System Model:                  Precision 3541
> System Type:                   x64-based PC
"#,
        facts: &[("os", "Microsoft Windows 11 Pro")],
    },
    Sample {
        url: "https://github.com/conda/conda/issues/13319",
        format: "conda env export",
        text: r#"(base) mona@ada:~/nope$ cat environment.yml 
name: nope
channels:
  - pytorch
  - nvidia
  - conda-forge
  - defaults
dependencies:
  - _libgcc_mutex=0.1=main
  - blas=1.0=mkl
  - cuda=11.6.1=0
  - cuda-cudart=11.6.55=he381448_0
  - cuda-nvcc=11.6.124=hbba6d2d_0
  - cuda-runtime=11.6.1=0
"#,
        facts: &[
            ("conda:cuda-nvcc", "11.6.124 hbba6d2d_0"),
            ("conda:cuda-runtime", "11.6.1 0"),
        ],
    },
    Sample {
        url: "https://github.com/muskie82/MonoGS/issues/184",
        format: "conda environment.yml",
        text: r#"name: MonoGS
channels:
  - rusty1s
  - pytorch
  - nvidia
  - conda-forge
  - defaults
dependencies:
  - torchaudio
  - torchvision
  - pytorch=2.1.2
  - pytorch-cuda=11.8
  - cudatoolkit=11.8
  - scipy
  - pip:
    - torch-scatter -f https://data.pyg.org/whl/torch-2.1.2+cu118.html
    - numpy==1.26.4
"#,
        facts: &[
            ("torch", "2.1.2"),
            ("torch_cuda", "11.8"),
            ("pip:cudatoolkit", "11.8"),
        ],
    },
    Sample {
        url: "https://github.com/NVIDIA/nvidia-docker/issues/1628",
        format: "dpkg -l",
        text: r#"Desired=Unknown/Install/Remove/Purge/Hold
| Status=Not/Inst/Conf-files/Unpacked/halF-conf/Half-inst/trig-aWait/Trig-pend
|/ Err?=(none)/Reinst-required (Status,Err: uppercase=bad)
||/ Name                             Version            Architecture Description
+++-================================-==================-============-=========================================================
un  libgldispatch0-nvidia            <none>             <none>       (no description available)
ii  libnvidia-cfg1-510:amd64         510.47.03-0ubuntu1 amd64        NVIDIA binary OpenGL/GLX configuration library
un  libnvidia-cfg1-any               <none>             <none>       (no description available)
un  libnvidia-common                 <none>             <none>       (no description available)
ii  libnvidia-common-495             495.29.05-0ubuntu1 all          Shared files used by the NVIDIA libraries
ii  libnvidia-common-510             510.47.03-0ubuntu1 all          Shared files used by the NVIDIA libraries
rc  libnvidia-compute-495:amd64      495.29.05-0ubuntu1 amd64        NVIDIA libcompute package
ii  libnvidia-compute-510:amd64      510.47.03-0ubuntu1 amd64
"#,
        facts: &[("driver", "510.47.03")],
    },
    Sample {
        url: "https://github.com/vllm-project/vllm/issues/21310",
        format: "vLLM collect_env",
        text: r#"(DeepSeek-V3) 4471592@red-a34 vLLM]$ python collect_env.py
INFO 07-21 10:19:29 __init__.py:183] Automatically detected platform cuda.
Collecting environment information...
==============================
        System Info
==============================
OS                           : Red Hat Enterprise Linux release 8.3 (Ootpa) (x86_64)
GCC version                  : (GCC) 8.5.0 20210514 (Red Hat 8.5.0-3)
Clang version                : Could not collect
CMake version                : version 3.31.5
Libc version                 : glibc-2.28

==============================
       PyTorch Info
==============================
PyTorch version              : 2.5.1+cu124
Is debug build               : False
CUDA used to build PyTorch   : 12.4
ROCM used to build PyTorch   : N/A

==============================
      Python Environment
==============================
Python version               : 3.10.16 | packaged by conda-forge | (main, Dec  5 2024, 14:16:10) [GCC 13.3.0] (64-bit runtime)
"#,
        facts: &[
            ("os", "Red Hat Enterprise Linux release 8.3 (Ootpa) (x86_64)"),
            ("torch", "2.5.1+cu124"),
            ("torch_cuda", "12.4"),
            ("python", "3.10.16"),
        ],
    },
    Sample {
        url: "https://github.com/vllm-project/vllm/issues/22505",
        format: "vLLM collect_env",
        text: r#"Collecting environment information...
==============================
        System Info
==============================
OS                           : Ubuntu 22.04.5 LTS (x86_64)
==============================
       PyTorch Info
==============================
PyTorch version              : 2.7.1+cu126
Is debug build               : False
CUDA used to build PyTorch   : 12.6
ROCM used to build PyTorch   : N/A

==============================
       CUDA / GPU Info
==============================
Is CUDA available            : True
CUDA runtime version         : 11.5.119
CUDA_MODULE_LOADING set to   : LAZY
GPU models and configuration :
GPU 0: NVIDIA H100 80GB HBM3
GPU 1: NVIDIA H100 80GB HBM3
"#,
        facts: &[
            ("os", "Ubuntu 22.04.5 LTS (x86_64)"),
            ("torch", "2.7.1+cu126"),
            ("torch_cuda", "12.6"),
            ("cuda_available", "true"),
            ("cuda_runtime", "11.5.119"),
            ("gpus", "NVIDIA H100 80GB HBM3; NVIDIA H100 80GB HBM3"),
        ],
    },
    Sample {
        url: "https://github.com/vllm-project/vllm/issues/8665",
        format: "vLLM collect_env",
        text: r#"Collecting environment information...
PyTorch version: N/A
Is debug build: N/A
CUDA used to build PyTorch: N/A
ROCM used to build PyTorch: N/A

OS: Ubuntu 22.04.4 LTS (x86_64)
Python version: 3.11.7 (main, Dec 15 2023, 18:12:31) [GCC 11.2.0] (64-bit runtime)
Python platform: Linux-5.15.0-113-generic-x86_64-with-glibc2.35
Is CUDA available: N/A
CUDA runtime version: 12.1.105
CUDA_MODULE_LOADING set to: N/A
GPU models and configuration: 
GPU 0: NVIDIA H100 80GB HBM3
GPU 1: NVIDIA H100 80GB HBM3

Nvidia driver version: 550.90.07
cuDNN version: Could not collect
"#,
        facts: &[
            ("torch", ""),
            ("cpu_only", "false"),
            ("os", "Ubuntu 22.04.4 LTS (x86_64)"),
            ("python", "3.11.7"),
            ("cuda_available", ""),
            ("cuda_runtime", "12.1.105"),
            ("gpus", "NVIDIA H100 80GB HBM3; NVIDIA H100 80GB HBM3"),
            ("driver", "550.90.07"),
        ],
    },
    Sample {
        url: "https://github.com/facebookresearch/detectron2/issues/2211",
        format: "detectron2 collect_env",
        text: r#"----------------------  ------------------------------------------------------------------------------------------------
sys.platform            linux
Python                  3.8.5 (default, Sep  4 2020, 07:30:14) [GCC 7.3.0]
numpy                   1.19.2
detectron2              0.2.1 @/home/server702/Documents/DNN/lib/detectron2/detectron2
detectron2._C           failed to import. detectron2 is not built correctly
Compiler                c++ (Ubuntu 7.5.0-3ubuntu1~18.04) 7.5.0
CUDA compiler           Cuda compilation tools, release 10.1, V10.1.105
DETECTRON2_ENV_MODULE   <not set>
PyTorch                 1.6.0 @/home/server702/Documents/anaconda/envs/detectron/lib/python3.8/site-packages/torch
PyTorch debug build     False
GPU available           True
GPU 0                   Tesla P100-PCIE-16GB (arch=6.0)
CUDA_HOME               /usr/local/cuda-10.1
Pillow                  8.0.1
torchvision             0.7.0 @/home/server702/Documents/anaconda/envs/detectron/lib/python3.8/site-packages/torchvision
torchvision arch flags  3.5, 5.0, 6.0, 7.0, 7.5
fvcore                  0.1.2.post20201030
cv2                     4.4.0
"#,
        facts: &[
            ("python", "3.8.5"),
            ("cuda_runtime", "10.1.105"),
            ("torch", "1.6.0"),
            ("cuda_available", "true"),
            ("gpus", "Tesla P100-PCIE-16GB"),
            ("pip:detectron2", "0.2.1"),
            ("pip:torchvision", "0.7.0"),
        ],
    },
    Sample {
        url: "https://github.com/facebookresearch/detectron2/issues/4991",
        format: "detectron2 collect_env",
        text: r#"-------------------------------  -----------------------------------------------------------------------------
sys.platform                     linux
Python                           3.8.16 (default, Mar  2 2023, 03:21:46) [GCC 11.2.0]
numpy                            1.23.5
detectron2                       0.6 @/home/arl/facebookproj/detectron2/detectron2
detectron2._C                    not built correctly: No module named 'detectron2._C'
Compiler ($CXX)                  c++ (Ubuntu 8.4.0-3ubuntu2) 8.4.0
CUDA compiler                    Cuda compilation tools, release 10.1, V10.1.243
DETECTRON2_ENV_MODULE            <not set>
PyTorch                          1.9.0 @/home/arl/anaconda3/envs/mask/lib/python3.8/site-packages/torch
PyTorch debug build              False
torch._C._GLIBCXX_USE_CXX11_ABI  False
GPU available                    Yes
GPU 0                            NVIDIA T550 Laptop GPU (arch=7.5)
Driver version                   525.105.17
CUDA_HOME                        /usr
Pillow                           9.3.0
"#,
        facts: &[
            ("python", "3.8.16"),
            ("cuda_runtime", "10.1.243"),
            ("torch", "1.9.0"),
            ("cuda_available", "true"),
            ("gpus", "NVIDIA T550 Laptop GPU"),
            ("driver", "525.105.17"),
        ],
    },
    Sample {
        url: "https://github.com/JosephKJ/iOD/issues/7",
        format: "detectron2 collect_env",
        text: r#"`---------------------  --------------------------------------------------------------------
sys.platform           linux
Python                 3.6.13 |Anaconda, Inc.| (default, Jun  4 2021, 14:25:59) [GCC 7.5.0]
Numpy                  1.19.5
detectron2._C          failed to import
DETECTRON2_ENV_MODULE  <not set>
PyTorch                1.9.0+cu111
PyTorch Debug Build    False
torchvision            0.10.0+cu111
CUDA available         True
GPU 0,1,2,3            NVIDIA GeForce RTX 3090
CUDA_HOME              /usr/local/cuda-11.3
NVCC                   Build cuda_11.3.r11.3/compiler.29920130_0
Pillow                 8.4.0
cv2                    4.5.5
"#,
        facts: &[
            ("python", "3.6.13"),
            ("torch", "1.9.0+cu111"),
            ("torch_cuda", "11.1"),
            ("cuda_available", "true"),
            (
                "gpus",
                "NVIDIA GeForce RTX 3090; NVIDIA GeForce RTX 3090; NVIDIA GeForce RTX 3090; NVIDIA GeForce RTX 3090",
            ),
            ("cuda_runtime", "11.3"),
            ("pip:torchvision", "0.10.0+cu111"),
        ],
    },
    Sample {
        url: "https://github.com/sgl-project/sglang/issues/748",
        format: "sglang check_env",
        text: r#"root@0bdb08439b5e:/sgl-workspace# python3 -m sglang.check_env
Python: 3.10.12 (main, Mar 22 2024, 16:50:05) [GCC 11.4.0]
CUDA available: True
GPU 0,1,2,3,4,5,6,7,8,9: NVIDIA GeForce RTX 2080 Ti
CUDA_HOME: /usr/local/cuda
NVCC: Cuda compilation tools, release 12.4, V12.4.131
CUDA Driver Version: 550.90.07
550.90.07
550.90.07
550.90.07
PyTorch: 2.3.1+cu121
sglang: 0.2.0
flashinfer: 0.1.1+cu121torch2.3
requests: 2.32.3
vllm: 0.5.3.post1
"#,
        facts: &[
            ("python", "3.10.12"),
            ("cuda_available", "true"),
            (
                "gpus",
                "NVIDIA GeForce RTX 2080 Ti; NVIDIA GeForce RTX 2080 Ti; NVIDIA GeForce RTX 2080 Ti; NVIDIA GeForce RTX 2080 Ti; NVIDIA GeForce RTX 2080 Ti; NVIDIA GeForce RTX 2080 Ti; NVIDIA GeForce RTX 2080 Ti; NVIDIA GeForce RTX 2080 Ti; NVIDIA GeForce RTX 2080 Ti; NVIDIA GeForce RTX 2080 Ti",
            ),
            ("cuda_runtime", "12.4.131"),
            ("driver", "550.90.07"),
            ("torch", "2.3.1+cu121"),
            ("torch_cuda", "12.1"),
            ("pip:sglang", "0.2.0"),
            ("pip:flashinfer", "0.1.1+cu121torch2.3"),
            ("pip:vllm", "0.5.3.post1"),
        ],
    },
    Sample {
        url: "https://github.com/sgl-project/sglang/issues/854",
        format: "sglang check_env",
        text: r#"(base) ray@lambda-oci-5d8ub:~/default$ python -m sglang.check_env
/bin/sh: 1: /usr/local/cuda/bin/nvcc: not found
Python: 3.9.19 (main, Mar 21 2024, 17:11:28) [GCC 11.2.0]
CUDA available: True
GPU 0,1,2,3,4,5,6,7: NVIDIA H100 80GB HBM3
CUDA_HOME: /usr/local/cuda
NVCC: Not Available
CUDA Driver Version: 535.161.08
535.161.08
PyTorch: 2.3.1+cu121
sglang: 0.2.7
"#,
        facts: &[
            ("python", "3.9.19"),
            ("cuda_runtime", ""),
            ("driver", "535.161.08"),
            ("torch", "2.3.1+cu121"),
            ("pip:sglang", "0.2.7"),
        ],
    },
    Sample {
        url: "https://github.com/jax-ml/jax/issues/21295",
        format: "jax environment info",
        text: r#">>> import jax
>>> jax.print_environment_info()

jax:    0.4.33
jaxlib: 0.4.33
numpy:  1.26.4
python: 3.10.12 (main, Sep 11 2024, 15:47:36) [GCC 11.4.0]
jax.devices (8 total, 8 local): [CudaDevice(id=0) CudaDevice(id=1) ... CudaDevice(id=6) CudaDevice(id=7)]
process_count: 1
platform: uname_result(system='Linux', node='ip-172-31-65-154', release='6.8.0-1017-aws', version='#18~22.04.1-Ubuntu SMP Thu Oct  3 19:57:42 UTC 2024', machine='x86_64')


$ nvidia-smi
Mon Nov  4 11:56:43 2024
+-----------------------------------------------------------------------------------------+
| NVIDIA-SMI 550.127.05             Driver Version: 550.127.05     CUDA Version: 12.4     |
|-----------------------------------------+------------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |
| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |
|                                         |                        |               MIG M. |
|=========================================+========================+======================|
|   0  NVIDIA A10G                    On  |   00000000:00:16.0 Off |                    0 |
"#,
        facts: &[
            ("pip:jax", "0.4.33"),
            ("pip:jaxlib", "0.4.33"),
            ("python", "3.10.12"),
            ("driver", "550.127.05"),
            ("driver_cuda", "12.4"),
            ("gpus", "NVIDIA A10G"),
        ],
    },
    Sample {
        url: "https://github.com/deepspeedai/DeepSpeed/issues/2055",
        format: "free-form",
        text: r#"I am getting `nvcc missing` when executing `ds_report` instruction
But `nvcc --version` can print the following information:
```
nvcc: NVIDIA (R) Cuda compiler driver
Copyright (c) 2005-2021 NVIDIA Corporation
Built on Mon_May__3_19:15:13_PDT_2021
Cuda compilation tools, release 11.3, V11.3.109
Build cuda_11.3.r11.3/compiler.29920130_0
```
`nvidia-smi` shows：
```
NVIDIA-SMI 470.129.06   Driver Version: 470.129.06   CUDA Version: 11.4
```
My environment is `pytorch==1.7.1+cu110` and `deepspeed==0.6.5`
"#,
        facts: &[
            ("cuda_runtime", "11.3.109"),
            ("driver", "470.129.06"),
            ("driver_cuda", "11.4"),
            ("torch", "1.7.1+cu110"),
            ("torch_cuda", "11.0"),
            ("pip:deepspeed", "0.6.5"),
        ],
    },
    Sample {
        url: "https://github.com/deepspeedai/DeepSpeed/issues/3613",
        format: "free-form",
        text: "Here is my environments:\n\n```\nUbuntu 18.04 LTS\nCUDA 11.8\npython=3.9\ntorch=2.0.0\ndeepspeed=0.9.2\npython3.9-dev\n```\n",
        facts: &[
            ("os", "Ubuntu 18.04 LTS"),
            ("cuda_mentioned", "11.8"),
            ("python", "3.9"),
            ("torch", "2.0.0"),
            ("pip:deepspeed", "0.9.2"),
        ],
    },
    Sample {
        url: "https://github.com/deepspeedai/DeepSpeed/issues/4576",
        format: "free-form",
        text: "when i use 'deepspeed train_ds.py --deepspeed --config_file config/mobile_20230707.yaml --checkpoint_dir ./tmp'  command training my own cnn model, An error has occurred ：`error You need C++14 to compile PyTorch` , and in the `ds_report` informations, torch version .................... 1.13.1+cu117 , and deepspeed wheel compiled w. ...... torch 1.9, cuda 11.1， Is there any problem here？\n",
        facts: &[("torch", "1.13.1+cu117"), ("torch_cuda", "11.7")],
    },
    Sample {
        url: "https://github.com/deepspeedai/DeepSpeed/issues/5312",
        format: "pip show",
        text: r#"(qwenpro) ya@C4090-2:~/qwenpro$ nvcc -V
nvcc: NVIDIA (R) Cuda compiler driver
Copyright (c) 2005-2022 NVIDIA Corporation
Built on Wed_Sep_21_10:33:58_PDT_2022
Cuda compilation tools, release 11.8, V11.8.89
Build cuda_11.8.r11.8/compiler.31833905_0
(qwenpro) ya@C4090-2:~/qwenpro$ dpkg -l | grep cudnn
ii  cudnn-local-repo-ubuntu2204-8.9.7.29              1.0-1                                   amd64        cudnn-local repository configuration files
(qwenpro) ya@C4090-2:~/qwenpro$ pip show torch
Name: torch
Version: 2.2.1
Summary: Tensors and Dynamic neural networks in Python with strong GPU acceleration
Home-page: https://pytorch.org/
"#,
        facts: &[("cuda_runtime", "11.8.89"), ("torch", "2.2.1")],
    },
    Sample {
        url: "https://github.com/deepspeedai/DeepSpeed/issues/4614",
        format: "pip list",
        text: r#"tokenizers                0.14.1
toml                      0.10.2
torch                     2.1.0+cu121
torch-grammar             0.3.3
torchaudio                2.1.0+cu121
torchvision               0.16.0+cu121
tox                       4.11.3
transformers              4.34.1
triton                    2.1.0
"#,
        facts: &[
            ("torch", "2.1.0+cu121"),
            ("torch_cuda", "12.1"),
            ("pip:torchaudio", "2.1.0+cu121"),
            ("pip:transformers", "4.34.1"),
            ("pip:triton", "2.1.0"),
        ],
    },
    Sample {
        url: "https://github.com/madMAx43v3r/chia-gigahorse/issues/329",
        format: "free-form",
        text: "ubuntu22.04.4 LTS\n1080ti for nvidia-driver-535\nwhat happen?\n",
        facts: &[("driver", "535"), ("gpus", "1080ti")],
    },
    Sample {
        url: "https://github.com/ZaidQureshi/bam/issues/38",
        format: "dmesg",
        text: r#"[  422.450961] NVRM: The NVIDIA GPU 0000:8a:00.0 (PCI ID: 10de:26b9)
               NVRM: installed in this system is not supported by the
               NVRM: NVIDIA 470.256.02 driver release.
               NVRM: Please see 'Appendix A - Supported NVIDIA GPU Products'
[  422.451145] nvidia: probe of 0000:8a:00.0 failed with error -1
[  422.451178] NVRM: The NVIDIA probe routine failed for 1 device(s).
"#,
        facts: &[("driver", "470.256.02")],
    },
    Sample {
        url: "https://github.com/NVIDIA/open-gpu-kernel-modules/issues/489",
        format: "dmesg",
        text: r#"[    2.757687] NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  530.41.03  Release Build  (archlinux-builder@archalien)  
[    2.783117] nvidia-modeset: Loading NVIDIA UNIX Open Kernel Mode Setting Driver for x86_64  530.41.03  Release Build  (archlinux-builder@archalien)  
[    2.870841] NVRM objClInitPcieChipset: *** Chipset Setup Function Error!
"#,
        facts: &[("driver", "530.41.03")],
    },
    Sample {
        url: "https://github.com/void-linux/void-packages/issues/1231",
        format: "dmesg",
        text: r#"[void@voidmachine ~]$ sudo dmesg | grep nvidia
[   14.521447] nvidia: loading out-of-tree module taints kernel.
[   14.534739] nvidia 0000:01:00.0: vgaarb: changed VGA decodes: olddecodes=io+mem,decodes=none:owns=io+mem
[   14.762771] nvidia-modeset: Loading NVIDIA Kernel Mode Setting Driver for UNIX platforms  390.67  Fri Jun  1 03:15:43 PDT 2018
[   14.863057] [drm] [nvidia-drm] [GPU ID 0x00000100] Loading driver
"#,
        facts: &[("driver", "390.67")],
    },
    Sample {
        url: "https://github.com/geerlingguy/raspberry-pi-pcie-devices/issues/677",
        format: "dmesg",
        text: r#"pi@pi5-pcie:~ $ dmesg | grep NVRM
[    3.368416] NVRM: loading NVIDIA UNIX Open Kernel Module for aarch64  565.77  Release Build  (dvs-builder@U16-A23-20-3)  Wed Nov 27 23:12:03 UTC 2024
[    5.657785] NVRM: Chipset not recognized (vendor ID 0x14e4, device ID 0x2712)
[    5.755325] NVRM: GPU 0000:01:00.0: RmInitAdapter failed! (0x62:0xffff:1863)
"#,
        facts: &[("driver", "565.77")],
    },
    Sample {
        url: "https://github.com/NVIDIA/open-gpu-kernel-modules/issues/120",
        format: "GitHub issue form",
        text: r#"### NVIDIA Open GPU Kernel Modules Version

515.65.01

### Operating System and Version

NixOS Unstable 22.11.20220818.8ea014a (Raccoon)

### Kernel Release

5.18.18

### Hardware: GPU

NVIDIA Corporation GA104M [GeForce RTX 3070 Mobile / Max-Q] 

### Describe the bug
"#,
        facts: &[
            ("driver", "515.65.01"),
            ("os", "NixOS Unstable 22.11.20220818.8ea014a (Raccoon)"),
            ("gpus", "GeForce RTX 3070 Mobile / Max-Q"),
        ],
    },
    Sample {
        url: "https://github.com/NVIDIA/nvidia-docker/issues/1266",
        format: "nvidia-smi -q",
        text: r#" - [x] Kernel version from `uname -a`
```console
➜  ~ uname -a
Linux HOSTNAME 5.3.0-46-generic #38~18.04.1-Ubuntu SMP Tue Mar 31 04:17:56 UTC 2020 x86_64 x86_64 x86_64 GNU/Linux
```
 - [x] Driver information from `nvidia-smi -a`
```console
➜  ~ nvidia-smi -a          

==============NVSMI LOG==============

Timestamp                           : Wed May  6 04:16:27 2020
Driver Version                      : 440.64
CUDA Version                        : 10.2

Attached GPUs                       : 1
GPU 00000000:01:00.0
    Product Name                    : GeForce GTX 980M
    Product Brand                   : GeForce
"#,
        facts: &[
            ("driver", "440.64"),
            ("driver_cuda", "10.2"),
            ("gpus", "GeForce GTX 980M"),
        ],
    },
    Sample {
        url: "https://github.com/NVIDIA/nvidia-container-toolkit/issues/20",
        format: "nvcc --version",
        text: "$nvcc --version\nnvcc: NVIDIA (R) Cuda compiler driver\nCopyright (c) 2005-2019 NVIDIA Corporation\nBuilt on Sun_Jul_28_19:07:16_PDT_2019\nCuda compilation tools, release 10.1, V10.1.243\n\n$uname -a\n\nLinux carter-balaj 5.14.0-1032-oem #35-Ubuntu SMP Thu Mar 31 12:49:29 UTC 2022 x86_64 x86_64 x86_64 GNU/Linux\n",
        facts: &[("cuda_runtime", "10.1.243")],
    },
    // ---- batch 3: gathered after the changes for batches 1-2, measured once before any
    // change made for it (the fresh check)
    Sample {
        url: "https://github.com/kijai/ComfyUI-HunyuanVideoWrapper/issues/1",
        format: "ComfyUI system information",
        text: r#"## System Information
- **ComfyUI Version:** v0.3.6-7-gc1b92b7
- **Arguments:** ComfyUI\main.py --windows-standalone-build --fast
- **OS:** nt
- **Python Version:** 3.11.9 (tags/v3.11.9:de54cf5, Apr  2 2024, 10:12:12) [MSC v.1938 64 bit (AMD64)]
- **Embedded Python:** true
- **PyTorch Version:** 2.4.1+cu124
## Devices

- **Name:** cuda:0 NVIDIA GeForce RTX 4090 D : cudaMallocAsync
  - **Type:** cuda
  - **VRAM Total:** 25756696576
"#,
        facts: &[
            ("os", "nt"),
            ("python", "3.11.9"),
            ("torch", "2.4.1+cu124"),
            ("torch_cuda", "12.4"),
            ("gpus", "NVIDIA GeForce RTX 4090 D"),
        ],
    },
    Sample {
        url: "https://github.com/Comfy-Org/ComfyUI/issues/8010",
        format: "ComfyUI log",
        text: r#"K:\ComfyUI>.\python_embeded\python.exe -s ComfyUI\main.py --windows-standalone-build
Total VRAM 24564 MB, total RAM 32694 MB
pytorch version: 2.7.0+cu128
Set vram state to: NORMAL_VRAM
Device: cuda:0 NVIDIA GeForce RTX 4090 : native
Checkpoint files will always be loaded safely.
Using pytorch attention
** ComfyUI startup time: 2025-05-08 18:51:05.085
** Platform: Windows
** Python version: 3.12.9 (tags/v3.12.9:fdb8142, Feb  4 2025, 15:27:58) [MSC v.1942 64 bit (AMD64)]
** Python executable: K:\ComfyUI\python_embeded\python.exe
"#,
        facts: &[
            ("torch", "2.7.0+cu128"),
            ("torch_cuda", "12.8"),
            ("gpus", "NVIDIA GeForce RTX 4090"),
            ("python", "3.12.9"),
            ("cuda_available", "true"),
        ],
    },
    Sample {
        url: "https://github.com/Comfy-Org/ComfyUI/issues/6778",
        format: "nvtop",
        text: r#"My graphics card is an RTX 4090, and the operating system is Linux.

 Device 0 [NVIDIA GeForce RTX 4090] PCIe GEN 1@16x RX: 50.00 KiB/s TX: 0.000 KiB/s Device 1 [NVIDIA GeForce RTX 4090] PCIe GEN 1@16x RX: 50.00 KiB/s TX: 50.00 KiB/s
 GPU 210MHz  MEM 405MHz  TEMP  31°C FAN  30% POW  13 / 450 W                       GPU 210MHz  MEM 405MHz  TEMP  31°C FAN  30% POW  28 / 450 W

 Device 2 [NVIDIA GeForce RTX 4090] PCIe GEN 1@16x RX: 100.0 KiB/s TX: 450.0 KiB/s Device 3 [NVIDIA GeForce RTX 4090] PCIe GEN 1@16x RX: 0.000 KiB/s TX: 50.00 KiB/s
"#,
        facts: &[(
            "gpus",
            "NVIDIA GeForce RTX 4090; NVIDIA GeForce RTX 4090; NVIDIA GeForce RTX 4090; NVIDIA GeForce RTX 4090",
        )],
    },
    Sample {
        url: "https://github.com/lllyasviel/stable-diffusion-webui-forge/issues/1222",
        format: "Forge log",
        text: r#"Python 3.10.6 (tags/v3.10.6:9c7b4bd, Aug  1 2022, 21:53:49) [MSC v.1932 64 bit (AMD64)]
Version: f2.0.1v1.10.1-previous-311-g3da7de41
Commit hash: 3da7de418a102a261cebaeba545104903f5cae9d
Launching Web UI with arguments: --theme dark --port 7868 --cuda-malloc --ckpt-dir D:/sd-models/Checkpoint --lora-dir D:/sd-models/Lora
Using cudaMallocAsync backend.
Total VRAM 16380 MB, total RAM 32556 MB
pytorch version: 2.3.1+cu121
Set vram state to: NORMAL_VRAM
Device: cuda:0 NVIDIA GeForce RTX 4060 Ti : cudaMallocAsync
"#,
        facts: &[
            ("python", "3.10.6"),
            ("torch", "2.3.1+cu121"),
            ("torch_cuda", "12.1"),
            ("gpus", "NVIDIA GeForce RTX 4060 Ti"),
            ("cuda_available", "true"),
        ],
    },
    Sample {
        url: "https://github.com/Haoming02/sd-webui-forge-classic/issues/938",
        format: "torch warning",
        text: r#"C:\Users\ggg\sd-webui-forge-neo\venv\Lib\site-packages\torch\cuda\__init__.py:435: UserWarning:
    Found GPU0 NVIDIA GeForce GTX 1080 with Max-Q Design which is of cuda capability 6.1.
    Minimum and Maximum cuda capability supported by this version of PyTorch is
    (7.5) - (12.0)
"#,
        facts: &[("gpus", "NVIDIA GeForce GTX 1080 with Max-Q Design")],
    },
    Sample {
        url: "https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/12273",
        format: "AUTOMATIC1111 log",
        text: r#"Python 3.10.6 (tags/v3.10.6:9c7b4bd, Aug  1 2022, 21:53:49) [MSC v.1932 64 bit (AMD64)]
Commit hash: a9fed7c364061ae6efb37f797b6b522cb3cf7aa2
Installing requirements for Web UI

Launching Web UI with arguments:
No module 'xformers'. Proceeding without it.
==============================================================================
You are running torch 1.12.1+cu113.
The program is tested to work with torch 1.13.1.
"#,
        facts: &[
            ("python", "3.10.6"),
            ("torch", "1.12.1+cu113"),
            ("torch_cuda", "11.3"),
        ],
    },
    Sample {
        url: "https://github.com/canonical/lxd/issues/6262",
        format: "dpkg -l",
        text: r#"root@vm10:~# dpkg -l | grep nvidia
ii  libnvidia-cfg1-430:amd64              430.26-0ubuntu0.18.04.2           amd64        NVIDIA binary OpenGL/GLX configuration library
ii  libnvidia-compute-430:amd64           430.26-0ubuntu0.18.04.2           amd64        NVIDIA libcompute package
ii  nvidia-compute-utils-430              430.26-0ubuntu0.18.04.2           amd64        NVIDIA compute utilities
ii  nvidia-dkms-430                       430.26-0ubuntu0.18.04.2           amd64        NVIDIA DKMS package
ii  nvidia-utils-430                      430.26-0ubuntu0.18.04.2           amd64        NVIDIA driver support binaries
"#,
        facts: &[("driver", "430.26")],
    },
    Sample {
        url: "https://github.com/microsoft/WSL/issues/9821",
        format: "free-form",
        text: r#"### Distro Version

Ubuntu 22.04 

### Other Software

HP 2022 OMEN 30L Gaming Desktop 
NVIDIA GeForce RTX 3080 Ti (12GB GDDR6X) 

Windows 11, WSL2, Ubuntu 22.04, CUDA 12.1, cuDNN 8.8 
NVIDIA-SMI 528.49 Driver Version: 528.49 
"#,
        facts: &[
            ("os", "Ubuntu 22.04"),
            ("gpus", "NVIDIA GeForce RTX 3080 Ti"),
            ("cuda_mentioned", "12.1"),
            ("cudnn", "8.8"),
            ("driver", "528.49"),
        ],
    },
    Sample {
        url: "https://github.com/mattshma/bigdata/issues/133",
        format: "yum list",
        text: r#"# lsmod |grep nvidia
# # yum list cuda-drivers
Installed Packages
cuda-drivers.x86_64                                                             384.81-1                                                              @cuda-9-0-local
"#,
        facts: &[("driver", "384.81")],
    },
    Sample {
        url: "https://github.com/clayfreeman/gpu-passthrough/issues/4",
        format: "nvidia-smi",
        text: r#"$ nvidia-smi 
Sat Sep  5 16:49:25 2020       
+-----------------------------------------------------------------------------+
| NVIDIA-SMI 435.21       Driver Version: 435.21       CUDA Version: 10.1     |
|-------------------------------+----------------------+----------------------+
| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |
| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |
|===============================+======================+======================|
|   0  GeForce RTX 208...  Off  | 00000000:00:10.0 Off |                  N/A |
"#,
        facts: &[
            ("driver", "435.21"),
            ("driver_cuda", "10.1"),
            ("gpus", "GeForce RTX 208..."),
        ],
    },
    Sample {
        url: "https://github.com/ollama/ollama/issues/11882",
        format: "GitHub issue form",
        text: r#"### What is the issue?

I deployed ollama on the ubuntu system. cuda version 12.4, cudatools version 12.4.
Although ollama ps showed that the model 100% running on GPU, but no shareMem used and CPU used 100% nearly.

### OS

Linux

### GPU

Nvidia

### CPU

Intel

### Ollama version

0.11.4
"#,
        facts: &[("cuda_mentioned", "12.4"), ("gpus", "")],
    },
    Sample {
        url: "https://github.com/sgl-project/sglang/issues/2805",
        format: "sglang check_env",
        text: r#" python3 -m sglang.check_env
Python: 3.11.5 (main, Sep 11 2023, 13:54:46) [GCC 11.2.0]
CUDA available: True
GPU 0: NVIDIA A40
GPU 0 Compute Capability: 8.6
CUDA_HOME: /usr/local/cuda
NVCC: Cuda compilation tools, release 12.1, V12.1.66
CUDA Driver Version: 535.104.12
PyTorch: 2.4.0+cu121
sglang: 0.4.0.post2
flashinfer: 0.1.6+cu121torch2.4
triton: 3.0.0
transformers: 4.47.1
"#,
        facts: &[
            ("python", "3.11.5"),
            ("cuda_available", "true"),
            ("gpus", "NVIDIA A40"),
            ("cuda_runtime", "12.1.66"),
            ("driver", "535.104.12"),
            ("torch", "2.4.0+cu121"),
            ("pip:flashinfer", "0.1.6+cu121torch2.4"),
            ("pip:transformers", "4.47.1"),
        ],
    },
    Sample {
        url: "https://github.com/sgl-project/sglang/issues/4812",
        format: "sglang check_env",
        text: r#"(sglang_env) xlab@xlab:/mnt/Agent/SGLang$ python -m sglang.check_env
Python: 3.12.3 (main, Feb  4 2025, 14:48:35) [GCC 13.3.0]
CUDA available: True
GPU 0,1,2,3: NVIDIA RTX 6000 Ada Generation
GPU 0,1,2,3 Compute Capability: 8.9
CUDA_HOME: /usr/local/cuda
NVCC: Cuda compilation tools, release 12.8, V12.8.93
CUDA Driver Version: 570.124.06
PyTorch: 2.6.0+cu124
sglang: 0.4.4.post2
sgl_kernel: 0.0.5.post3
flashinfer: Module Not Found
triton: 3.2.0
"#,
        facts: &[
            ("gpus", "NVIDIA RTX 6000 Ada Generation; NVIDIA RTX 6000 Ada Generation; NVIDIA RTX 6000 Ada Generation; NVIDIA RTX 6000 Ada Generation"),
            ("cuda_runtime", "12.8.93"),
            ("driver", "570.124.06"),
            ("torch", "2.6.0+cu124"),
            ("pip:flashinfer", ""),
            ("pip:triton", "3.2.0"),
        ],
    },
    Sample {
        url: "https://github.com/netket/netket/pull/1084",
        format: "netket info",
        text: r#"# Jax 
  - backends         : ['cpu', 'gpu']
    - cpu            : ['<0: cpu>']
    - gpu            : ['<0: Tesla V100-PCIE-32GB>', '<1: Tesla V100-PCIE-32GB>'
"#,
        facts: &[("gpus", "Tesla V100-PCIE-32GB; Tesla V100-PCIE-32GB")],
    },
    Sample {
        url: "https://github.com/dylanaraps/neofetch/issues/876",
        format: "neofetch",
        text: r#"   /ssssssssssshdmNNNNmyNMMMMhssssss/      GPU: NVIDIA GeForce GT 520
    .ossssssssssssssssssdMMMNysssso.       Memory: 1583MiB / 7979MiB
      -+sssssssssssssssssyyyssss+-         GPU Driver: nvidia
"#,
        facts: &[("gpus", "NVIDIA GeForce GT 520"), ("driver", "")],
    },
    Sample {
        url: "https://github.com/HypoX64/DeepMosaics/issues/74",
        format: "free-form",
        text: "cuda 11.4 and driver 471.43 accuses dll error, only the mentioned driver will work 460 and cuda 11?\n",
        facts: &[("cuda_mentioned", "11.4"), ("driver", "471.43")],
    },
    Sample {
        url: "https://github.com/NVIDIA/TensorRT/issues/4329",
        format: "pip freeze",
        text: "```\nabsl-py==2.1.0\naccelerate==0.21.0\naenum==3.1.15\nbitsandbytes==0.43.3\nblendmodes==2022\ncertifi==2024.12.14\n```\n",
        facts: &[
            ("pip:accelerate", "0.21.0"),
            ("pip:bitsandbytes", "0.43.3"),
        ],
    },
    Sample {
        url: "https://github.com/conda-forge/jaxlib-feedstock/issues/293",
        format: "conda list",
        text: r#"(jax2) traversaro@IITBMP014LW012:~$ conda list
# packages in environment at /home/traversaro/miniforge3/envs/jax2:
#
# Name                    Version                   Build  Channel
_libgcc_mutex             0.1                 conda_forge    conda-forge
cuda-cudart               12.6.77              h5888daf_0    conda-forge
cuda-nvcc-tools           12.6.85              he0204
"#,
        facts: &[("conda:cuda-cudart", "12.6.77 h5888daf_0")],
    },
    Sample {
        url: "https://github.com/tensorflow/tensorflow/issues/26395",
        format: "TensorFlow issue template",
        text: r#"**System information**
- Have I written custom code (as opposed to using a stock example script provided in TensorFlow): No
- OS Platform and Distribution (e.g., Linux Ubuntu 16.04): Windows 10 x64
- TensorFlow installed from (source or binary): Binary
- TensorFlow version (use command below): b'v1.12.0-rc2-3-ga6d8ffae09' 1.12.0
- Python version: 3.6
- CUDA/cuDNN version: CUDA 9.0 cuDNN 7.0.5
- GPU model and memory: NVIDIA Titan V
"#,
        facts: &[
            ("os", "Windows 10 x64"),
            ("pip:tensorflow", "1.12.0"),
            ("python", "3.6"),
            ("cuda_mentioned", "9.0"),
            ("cudnn", "7.0.5"),
            ("gpus", "NVIDIA Titan V"),
        ],
    },
    Sample {
        url: "https://github.com/pytorch/pytorch/issues/90845",
        format: "free-form",
        text: r#"- Have a CUDA capable GPU (I have a _GeForce GTX 1080 Ti_, no problem here),
I have a 64-bit Windows version `1703`. Sadly, [DCH drivers are not supported on Windows versions older than 1803](https://nvidia.custhelp.com/app/answers/detail/a_id/4777/~/nvidia-dch%2Fstandard-display-drivers-for-windows-10-faq). So I'm stuck with [the latest NVIDIA _**standard**_ driver](https://www.nvidia.com/Download/Find.aspx?lang=en-us), which is version `472.84`.
"#,
        facts: &[("gpus", "GeForce GTX 1080 Ti"), ("driver", "472.84")],
    },
    // ---- batch 4: gathered after the changes for batch 3, measured once before any change
    // made for it (the second fresh check)
    Sample {
        url: "https://github.com/vllm-project/vllm/issues/10303",
        format: "vLLM collect_env",
        text: r#"[conda] cuda-nvvm-tools           12.6.77                       0    nvidia
[conda] cuda-version              12.6                          3    nvidia
[conda] numpy                     1.26.3                   pypi_0    pypi
[conda] nvidia-cublas-cu12        12.1.3.1                 pypi_0    pypi
[conda] nvidia-cudnn-cu12         9.1.0.70                 pypi_0    pypi
[conda] nvidia-nccl-cu12          2.20.5                   pypi_0    pypi
"#,
        facts: &[
            ("conda:cuda-version", "12.6 3"),
            ("conda:nvidia-cudnn-cu12", "9.1.0.70 pypi_0"),
            ("conda:nvidia-nccl-cu12", "2.20.5 pypi_0"),
        ],
    },
    Sample {
        url: "https://github.com/vllm-project/vllm/issues/18603",
        format: "vLLM collect_env",
        text: r#"==============================
        System Info
==============================
OS                           : CentOS Linux 7 (Core) (x86_64)
GCC version                  : (GCC) 4.8.5 20150623 (Red Hat 4.8.5-44)
==============================
       PyTorch Info
==============================
PyTorch version              : 2.6.0+cu124
Is debug build               : False
CUDA used to build PyTorch   : 12.4
==============================
      Python Environment
==============================
Python version               : 3.11.5 (main, Sep 11 2023, 13:54:46) [GCC 11.2.0] (64-bit runtime)
==============================
       CUDA / GPU Info
==============================
Is CUDA available            : True
CUDA runtime version         : Could not collect
CUDA_MODULE_LOADING set to   : LAZY
GPU models and configuration :
GPU 0: Tesla V100-PCIE-32GB
GPU 1: Tesla V100-PCIE-32GB
"#,
        facts: &[
            ("os", "CentOS Linux 7 (Core) (x86_64)"),
            ("torch", "2.6.0+cu124"),
            ("torch_cuda", "12.4"),
            ("python", "3.11.5"),
            ("cuda_available", "true"),
            ("cuda_runtime", ""),
            ("gpus", "Tesla V100-PCIE-32GB; Tesla V100-PCIE-32GB"),
        ],
    },
    Sample {
        url: "https://github.com/vllm-project/vllm/issues/21442",
        format: "vLLM collect_env",
        text: r#"[conda] nvidia-cudnn-cu12         9.8.0.87                 pypi_0    pypi
[conda] nvidia-nccl-cu12          2.26.5                   pypi_0    pypi
[conda] pytorch-triton            3.3.1+gitc8757738          pypi_0    pypi
[conda] torch                     2.8.0.dev20250609+cu128          pypi_0    pypi
[conda] transformers              4.53.
"#,
        facts: &[
            ("torch", "2.8.0.dev20250609+cu128"),
            ("torch_cuda", "12.8"),
            ("conda:nvidia-cudnn-cu12", "9.8.0.87 pypi_0"),
        ],
    },
    Sample {
        url: "https://github.com/NetX-lab/Ayo/issues/6",
        format: "free-form",
        text: "Well, I can ensure that torch (2.4.0+cu12.1) is correctly installed in my current conda environment, but as soon as I run pip install -e . , I get the error ModuleNotFoundError: No module named 'torch'.\n\nPython version:3.9\nCuda version 12.1\nTorch version 2.4.0\n",
        facts: &[
            ("torch", "2.4.0"),
            ("python", "3.9"),
            ("cuda_mentioned", "12.1"),
        ],
    },
    Sample {
        url: "https://github.com/vllm-project/vllm/issues/1283",
        format: "torch warning",
        text: "/tmp/pip-build-env-6fb626c8/overlay/lib/python3.10/site-packages/torch/cuda/__init__.py:138: UserWarning: CUDA initialization: The NVIDIA driver on your system is too old (found version 11080). Please update your GPU driver by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx\n",
        facts: &[("driver_cuda", "11.8")],
    },
    Sample {
        url: "https://github.com/NVIDIA/gpu-operator/issues/1063",
        format: "os-release",
        text: r#"# cat /etc/os-release
NAME="Ubuntu"
VERSION="20.04.6 LTS (Focal Fossa)"
ID=ubuntu
ID_LIKE=debian
PRETTY_NAME="Ubuntu 20.04.6 LTS"
VERSION_ID="20.04"

# uname -a
Linux a100 5.15.0-107-generic #117~20.04.1-Ubuntu SMP Tue Apr 30 10:35:57 UTC 2024 x86_64 x86_64 x86_64 GNU/Linux
"#,
        facts: &[("os", "Ubuntu 20.04.6 LTS")],
    },
    Sample {
        url: "https://github.com/AUTOMATIC1111/stable-diffusion-webui/issues/16017",
        format: "apt list",
        text: r#"```
nvidia-cuda-dev/noble,now 12.0.146~12.0.1-4build4 amd64 [installed]
nvidia-cuda-toolkit/noble,now 12.0.140~12.0.1-4build4 amd64 [installed]
```
I'm using Ubuntu 24.04, the output of nv-smi is as following:
```
+---------------------------------------------------------------------------------------+
| NVIDIA-SMI 535.171.04             Driver Version: 535.171.04   CUDA Version: 12.2     |
|-----------------------------------------+----------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id        Disp.A | Volatile Uncorr. ECC |
|=========================================+======================+======================|
|   0  NVIDIA GeForce RTX 3080        Off | 00000000:17:00.0 Off |                  N/A |
"#,
        facts: &[
            ("cuda_runtime", "12.0.140"),
            ("os", "Ubuntu 24.04"),
            ("driver", "535.171.04"),
            ("driver_cuda", "12.2"),
            ("gpus", "NVIDIA GeForce RTX 3080"),
        ],
    },
    Sample {
        url: "https://github.com/microsoft/WSL/issues/7056",
        format: "GitHub issue form",
        text: r#"### Distro Version

Ubuntu 20.04

### Other Software
python (version 3.8.10) 
   - pytorch package (version 1.7.1)

### Repro Steps

Those are the steps I followed:
1. install cuda on wsl driver (geforce, driver version 470.76) https://developer.nvidia.com/cuda/wsl/download]
"#,
        facts: &[
            ("os", "Ubuntu 20.04"),
            ("python", "3.8.10"),
            ("torch", "1.7.1"),
            ("driver", "470.76"),
        ],
    },
    Sample {
        url: "https://github.com/pytorch/pytorch/issues/108607",
        format: "torch collect_env",
        text: r#"> mamba install -c "nvidia/label/cuda-11.8.0" cuda-toolkit
> mamba install pytorch torchvision torchaudio pytorch-cuda=11.8 -c pytorch-nightly -c nvidia
> python
>>> import torch
>>> torch.cuda.is_available()
False # should be True, no??

Collecting environment information...
PyTorch version: 2.1.0.dev20230905
Is debug build: False
CUDA used to build PyTorch: Could not collect
ROCM used to build PyTorch: N/A

OS: Ubuntu 22.04.3 LTS (x86_64)
Python version: 3.9.18 | packaged by conda-forge | (main, Aug 30 2023, 03:49:32)  [GCC 12.3.0] (64-bit runtime)
Python platform: Linux-6.2.0-32-generic-x86_64-with-glibc2.35
Is CUDA available: False
CUDA runtime version: 11.8.89
"#,
        facts: &[
            ("torch", "2.1.0.dev20230905"),
            ("torch_cuda", ""),
            ("cpu_only", "true"),
            ("os", "Ubuntu 22.04.3 LTS (x86_64)"),
            ("python", "3.9.18"),
            ("cuda_available", "false"),
            ("cuda_runtime", "11.8.89"),
        ],
    },
    Sample {
        url: "https://github.com/pytorch/pytorch/issues/59263",
        format: "free-form",
        text: "# Ubuntu 20.04 GeForce RTX 3070 / NVIDIA-SMI 460.73.01 Driver Version: 460.73.01 / GPU Visibility Issue\n",
        facts: &[
            ("os", "Ubuntu 20.04"),
            ("gpus", "GeForce RTX 3070"),
            ("driver", "460.73.01"),
        ],
    },
    Sample {
        url: "https://github.com/netdata/netdata/issues/15755",
        format: "nvidia-smi -q -x",
        text: r#"<?xml version="1.0" ?>
<!DOCTYPE nvidia_smi_log SYSTEM "nvsmi_device_v12.dtd">
<nvidia_smi_log>
        <timestamp>Mon Aug  7 11:10:06 2023</timestamp>
        <driver_version>535.86.05</driver_version>
        <cuda_version>12.2</cuda_version>
        <attached_gpus>1</attached_gpus>
        <gpu id="00000000:84:00.0">
                <product_name>NVIDIA GeForce RTX 4090</product_name>
                <product_brand>GeForce</product_brand>
"#,
        facts: &[
            ("driver", "535.86.05"),
            ("driver_cuda", "12.2"),
            ("gpus", "NVIDIA GeForce RTX 4090"),
        ],
    },
    Sample {
        url: "https://github.com/netdata/netdata/pull/2759",
        format: "nvidia-smi -q",
        text: r#"nvidia-smi -q 

==============NVSMI LOG==============

Timestamp                           : Mon Sep 18 21:51:27 2017
Driver Version                      : 340.102

Attached GPUs                       : 1
GPU 0000:01:00.0
    Product Name                    : GeForce 8800 GT
    Product Brand                   : GeForce
"#,
        facts: &[
            ("driver", "340.102"),
            ("driver_cuda", ""),
            ("gpus", "GeForce 8800 GT"),
        ],
    },
    Sample {
        url: "https://github.com/mrhan1993/Fooocus-API/issues/84",
        format: "nvidia-smi",
        text: r#"Here is the result of `nvidia-smi` command :

Mon Dec 11 17:18:09 2023
+---------------------------------------------------------------------------------------+
| NVIDIA-SMI 546.17                 Driver Version: 546.17       CUDA Version: 12.3     |
|-----------------------------------------+----------------------+----------------------+
| GPU  Name                     TCC/WDDM  | Bus-Id        Disp.A | Volatile Uncorr. ECC |
|=========================================+======================+======================|
|   0  NVIDIA GeForce RTX 2060      WDDM  | 00000000:01:00.0 Off |                  N/A |
"#,
        facts: &[
            ("driver", "546.17"),
            ("driver_cuda", "12.3"),
            ("gpus", "NVIDIA GeForce RTX 2060"),
        ],
    },
    // ---- batch 5: gathered after the changes for batch 4, measured once before any change
    // made for it (the third fresh check)
    Sample {
        url: "https://github.com/NVIDIA/nvidia-docker/issues/904",
        format: "nvidia-container-cli info",
        text: r#"I0114 04:33:38.553037 7944 nvc_info.c:489] requesting device information with ''
I0114 04:33:38.559326 7944 nvc_info.c:519] listing device /dev/nvidia0 (GPU-e572b8ee-523e-f7be-a359-33149791a02a at 00000000:01:00.0)
NVRM version:   390.87
CUDA version:   9.1

Device Index:   0
Device Minor:   0
Model:          GeForce GTX 1080 with Max-Q Design
Brand:          GeForce
GPU UUID:       GPU-e572b8ee-523e-f7be-a359-33149791a02a
Bus Location:   00000000:01:00.0
Architecture:   6.1
I0114 04:33:38.559343 7944 nvc.c:318] shutting down library context
"#,
        facts: &[
            ("driver", "390.87"),
            ("driver_cuda", "9.1"),
            ("gpus", "GeForce GTX 1080 with Max-Q Design"),
        ],
    },
    Sample {
        url: "https://github.com/NVIDIA/nvidia-docker/issues/1775",
        format: "nvidia-container-cli info",
        text: r#"I0814 14:27:07.712233 513982 nvc_info.c:803] listing device (null) ((null) at (null))
NVRM version:   (null)
CUDA version:   10.2

Device Index:   0
Device Minor:   0
Model:          Xavier
Brand:          (null)
GPU UUID:       (null)
Bus Location:   (null)
Architecture:   7.2
"#,
        facts: &[("driver", ""), ("driver_cuda", "10.2"), ("gpus", "Xavier")],
    },
    Sample {
        url: "https://github.com/NVIDIA/nvidia-docker/issues/1038",
        format: "nvidia-container-cli info",
        text: r#"I0805 18:23:54.117378 22497 nvc_info.c:434] requesting driver information with ''
I0805 18:23:54.117798 22497 nvc_info.c:148] selecting /usr/lib/x86_64-linux-gnu/libnvidia-tls.so.418.56
I0805 18:23:54.118242 22497 nvc_info.c:148] selecting /usr/lib/x86_64-linux-gnu/libnvidia-ptxjitcompiler.so.418.56
I0805 18:23:54.119118 22497 nvc_info.c:148] selecting /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.418.56
"#,
        facts: &[("driver", "418.56")],
    },
    Sample {
        url: "https://github.com/negativo17/nvidia-driver/issues/73",
        format: "lspci",
        text: r#"$ lspci -vv
01:00.0 VGA compatible controller: NVIDIA Corporation GM204 [GeForce GTX 970] (rev a1) (prog-if 00 [VGA controller])
	Subsystem: eVga.com. Corp. Device 1972
	Control: I/O+ Mem+ BusMaster+ SpecCycle- MemWINV- VGASnoop- ParErr- Stepping- SERR- FastB2B- DisINTx+
	Kernel driver in use: nouveau
	Kernel modules: nouveau, nvidia_drm, nvidia
"#,
        facts: &[("gpus", "GeForce GTX 970")],
    },
    Sample {
        url: "https://github.com/kata-containers/runtime/issues/2546",
        format: "lspci",
        text: r#"00:08.0 VGA compatible controller [0300]: NVIDIA Corporation GP108 [GeForce GT 1030] [10de:1d01] (rev a1) (prog-if 00 [VGA controller])
	Subsystem: NVIDIA Corporation GP108 [GeForce GT 1030] [10de:11c7]
	Physical Slot: 8
	Flags: bus master, fast devsel, latency 0, IRQ 10
	Kernel driver in use: nvidia
```
But, I have another problem.
When I check Nvidia device status with nvidia-smi, it is failed like as below.
```
# nvidia-smi 
Unable to determine the device handle for GPU 0000:00:08.0: Unknown Error
"#,
        facts: &[("gpus", "GeForce GT 1030")],
    },
    Sample {
        url: "https://github.com/smxi/inxi/issues/191",
        format: "inxi",
        text: r#"$ inxi -Gx
Graphics:  Device-1: NVIDIA GP104 [GeForce GTX 1080] vendor: ASUSTeK driver: nvidia v: 430.40 bus ID: 01:00.0 
           Display: server: X.Org 1.20.4 driver: nouveau,vesa FAILED: nvidia unloaded: fbdev,modesetting 
           OpenGL: renderer: GeForce GTX 1080/PCIe/SSE2 v: 4.6.0 NVIDIA 430.40 direct render: Yes 

$ nvidia-smi 
Tue Aug 27 13:49:40 2019       
+-----------------------------------------------------------------------------+
| NVIDIA-SMI 430.40       Driver Version: 430.40       CUDA Version: 10.1     |
|-------------------------------+----------------------+----------------------+
| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |
|===============================+======================+======================|
|   0  GeForce GTX 1080    Off  | 00000000:01:00.0  On |                  N/A |
"#,
        facts: &[
            ("driver", "430.40"),
            ("driver_cuda", "10.1"),
            ("gpus", "GeForce GTX 1080"),
        ],
    },
    Sample {
        url: "https://github.com/qixuema/envs/issues/4",
        format: "nvcc --version",
        text: r#"NVIDIA-SMI has failed because it couldn‘t communicate with the NVIDIA driver.
Make sure that the latest NVIDIA driver is installed and running.
```
第二步，使用 nvcc -V 检查驱动和 cuda
```JavaScript
nvcc: NVIDIA (R) Cuda compiler driver
Copyright (c) 2005-2018 NVIDIA Corporation
Built on Sat_Aug_25_21:08:01_CDT_2018
Cuda compilation tools, release 10.0, V10.0.130
```
"#,
        facts: &[("cuda_runtime", "10.0.130"), ("driver", "")],
    },
    Sample {
        url: "https://github.com/OpenMotionLab/MotionGPT3/issues/13",
        format: "requirements",
        text: "```\n\nspacy==3.8.3\n--extra-index-url https://download.pytorch.org/whl/cu118\ntorch==2.0.0+cu118\ntorchmetrics==0.7.0\ntorchtext==0.15.0\n\n```\n",
        facts: &[("torch", "2.0.0+cu118"), ("torch_cuda", "11.8")],
    },
    Sample {
        url: "https://github.com/linux-surface/linux-surface/issues/573",
        format: "DKMS build log",
        text: r#"/var/lib/dkms/nvidia/470.57.02/build/nvidia/nv-mmap.c: In function ‘nv_encode_caching’:
/var/lib/dkms/nvidia/470.57.02/build/nvidia/nv-mmap.c:321:16: warning: this statement may fall through [-Wimplicit-fallthrough=]
make[2]: *** [scripts/Makefile.build:271: /var/lib/dkms/nvidia/470.57.02/build/nvidia/nv-mmap.o] Error 1
"#,
        facts: &[("driver", "470.57.02")],
    },
    // ---- formats the prompt lists that no issue thread above shows: real captures kept as
    // test data by a GPU exporter (the query file's first row is a real RTX 2080 SUPER)
    Sample {
        url: "https://github.com/utkuozdemir/nvidia_gpu_exporter/blob/main/internal/exporter/testdata/query.txt",
        format: "nvidia-smi --query-gpu csv",
        text: "uuid, name, driver_model.current, driver_model.pending, vbios_version, driver_version, fan.speed [%], memory.used [MiB], pci.bus_id, serial, compute_cap, pci.sub_device_id, index\nGPU-df6e7a7c-7314-46f8-abc4-b88b36dcf3aa, NVIDIA GeForce RTX 2080 SUPER, WDDM, WDDM, 90.04.7a.40.73, 466.63, 38 %, 575 MiB, 00000000:01:00.0, [N/A], 7.5, 0x40051458, 0\n",
        facts: &[
            ("gpus", "NVIDIA GeForce RTX 2080 SUPER"),
            ("driver", "466.63"),
        ],
    },
    Sample {
        url: "https://github.com/utkuozdemir/nvidia_gpu_exporter/blob/main/internal/captures/linux-x86_64__nvidia-geforce-rtx-4080-super__595.71.05.txt",
        format: "nvidia-smi --version",
        text: "# $ nvidia-smi --version\n################################################################################\nNVIDIA-SMI version  : 595.71.05\nNVML version        : 595.71\nDRIVER version      : 595.71.05\nCUDA Version        : 13.2\n",
        facts: &[("driver", "595.71.05"), ("driver_cuda", "13.2")],
    },
    // ---- batch 7: hand-written environment lists and templates, the most varied kind,
    // gathered last and measured once before any change made for it (the fourth fresh check)
    Sample {
        url: "https://github.com/Thinklab-SJTU/Bench2DriveZoo/issues/98",
        format: "free-form",
        text: "What I had tried:\npython 3.8\nCUDA 12.8\ntorch 2.4.1+cu121\n\nBut got error when executing run_evalution_debug.sh\n",
        facts: &[
            ("python", "3.8"),
            ("cuda_mentioned", "12.8"),
            ("torch", "2.4.1+cu121"),
            ("torch_cuda", "12.1"),
        ],
    },
    Sample {
        url: "https://github.com/getkeops/keops/issues/407",
        format: "free-form",
        text: "Hi , I had a cuda error on my first keops test with a GEFORCE RTX 4090 that runs with cuda 12.4 natively \nI supposse this is an issue related to pytorch not supporting this ?\n",
        facts: &[("gpus", "GEFORCE RTX 4090"), ("cuda_mentioned", "12.4")],
    },
    Sample {
        url: "https://github.com/mir-aidj/all-in-one/issues/35",
        format: "free-form",
        text: r#"`/usr/local/lib/python3.10/dist-packages/torch/cuda/__init__.py:235: UserWarning: 
NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.
The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90.

Environment Information:
PyTorch Version: 2.5.0+cu121

CUDA Version: 12.1

GPU Model: NVIDIA GeForce RTX 5090

Operating System: Ubuntu 20.04
"#,
        facts: &[
            ("torch", "2.5.0+cu121"),
            ("torch_cuda", "12.1"),
            ("gpus", "NVIDIA GeForce RTX 5090"),
            ("os", "Ubuntu 20.04"),
            ("python", ""),
        ],
    },
    Sample {
        url: "https://github.com/oobabooga/textgen/issues/726",
        format: "torch collect_env",
        text: r#"(textgen) charles@charles-B550I-AORUS-PRO-AX2:~/JQZX/text-generation-webui$ python -m torch.utils.collect_env #will tell you about your torch installation and may hint at whats going on.
Collecting environment information...
PyTorch version: 2.0.0
Is debug build: False
CUDA used to build PyTorch: 11.7
ROCM used to build PyTorch: N/A

OS: Ubuntu 20.04.6 LTS (x86_64)
Python version: 3.10.9 (main, Mar  8 2023, 10:47:38) [GCC 11.2.0] (64-bit runtime)
Is CUDA available: True
CUDA runtime version: 11.7.64
GPU models and configuration: GPU 0: NVIDIA GeForce RTX 4090
Nvidia driver version: 530.30.02
cuDNN version: Probably one of the following:
/usr/lib/x86_64-linux-gnu/libcudnn.so.8.0.5
/usr/lib/x86_64-linux-gnu/libcudnn_adv_infer.so.8.0.5

CPU:
架构：                           x86_64
"#,
        facts: &[
            ("torch", "2.0.0"),
            ("torch_cuda", "11.7"),
            ("os", "Ubuntu 20.04.6 LTS (x86_64)"),
            ("python", "3.10.9"),
            ("cuda_available", "true"),
            ("cuda_runtime", "11.7.64"),
            ("gpus", "NVIDIA GeForce RTX 4090"),
            ("driver", "530.30.02"),
            ("cudnn", "8.0.5"),
        ],
    },
    Sample {
        url: "https://github.com/facebookresearch/hyperreel/issues/2",
        format: "conda environment.yml",
        text: "name: hyperreel\nchannels:\n  - pyg\n  - pytorch-nightly\n  - conda-forge\n  - nvidia\ndependencies:\n  - cudatoolkit=11.6\n  - cudatoolkit-dev\n  - python=3.8\n  - pytorch\n  - pytorch-lightning=1.7.6\n  - pip:\n    - hydra-core==1.1.1\n",
        facts: &[("pip:cudatoolkit", "11.6"), ("python", "3.8"), ("torch", "")],
    },
    Sample {
        url: "https://github.com/pytorch/pytorch/issues/149845",
        format: "free-form",
        text: "# CUDA error: no kernel image is available for execution on the device RTX5090D\n\n### Versions\n\npip3 install --pre torch torchvision torchaudio --index-url https://download.pytorch.org/whl/nightly/cu128\n",
        facts: &[("gpus", "RTX 5090D")],
    },
    // round 5 (forum and blog pastes, tests/corpus/pastes/dev-2026-11f)
    Sample {
        url: "https://prodopsy.com/broken-nvidia-cuda-install",
        format: "nvidia-smi in prose",
        text: "The nvidia-smi binary attempted to link against NVML library version: 590.44, but the running kernel module likely corresponds to a different version.\n",
        facts: &[("driver", "590.44")],
    },
    Sample {
        url: "https://www.wanpihou.xyz/archives/nvidiaqu-dong-ban-ben-bu-pi-pei-dao-zhi-nvidia-smishi-xiao",
        format: "dkms status / dmesg / modinfo",
        text: "nvidia-smi\n# Failed to initialize NVML: Driver/library version mismatch\nuname -r # 5.15.0-94-generic\ndkms status nvidia # nvidia/570.133.07, 5.15.0-94-generic, x86_64: installed\ndmesg | grep -i nvrm\n# NVRM: API mismatch: client version 570.133.07, kernel module version 570.124.06\n",
        facts: &[("gpus", ""), ("torch", "")],
    },
    // round 6 (dev-2026-11g), batch 1
    Sample {
        url: "https://github.com/peci1/nvidia-htop/issues/23",
        format: "lshw",
        text: r#" sudo lshw -C display
  *-display
       description: VGA compatible controller
       product: G98 [GeForce 9300 GS]
       vendor: NVIDIA Corporation
       physical id: 0
       bus info: pci@0000:03:00.0
       version: a1
       width: 64 bits
       clock: 33MHz
       capabilities: pm msi pciexpress vga_controller bus_master cap_list rom
       configuration: driver=nouveau latency=0
"#,
        facts: &[("gpus", "GeForce 9300 GS"), ("os", ""), ("driver", "")],
    },
    Sample {
        url: "https://github.com/k4yt3x/video2x/issues/1029",
        format: "apt",
        text: r#"The following packages have unmet dependencies:
 libnvidia-cfg1-535 : Depends: libc6 (>= 2.34) but 2.31-13+deb11u7 is to be installed
 libnvidia-compute-535 : Depends: libc6 (>= 2.34) but 2.31-13+deb11u7 is to be installed
                         Depends: libssl3 (>= 3.0.0) but it is not installable
 nvidia-kernel-common-535 : Depends: libc6 (>= 2.38) but 2.31-13+deb11u7 is to be installed
"#,
        facts: &[("driver", ""), ("gpus", "")],
    },
    Sample {
        url: "https://github.com/negativo17/nvidia-driver/issues/145",
        format: "free-form",
        text: r#"Fedora 37 - GTX 1070 - 545.29.02-1 - Xorg Failed to initialize the NVIDIA kernel module.
I just upgraded from 535.113.01-1 to 545.29.02-1 and Xorg can't initialize nvidia module.
"#,
        facts: &[("driver", "545.29.02"), ("gpus", "GTX 1070"), ("os", "Fedora 37")],
    },
    // round 6 (dev-2026-11g), batch 3
    Sample {
        url: "https://github.com/canonical/nvidia-graphics-drivers/issues/36",
        format: "ubuntu-drivers",
        text: r#"== /sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0 ==
modalias : pci:v000010DEd00000DFCsv00001028sd00000535bc03sc00i00
vendor   : NVIDIA Corporation
model    : GF108GLM [NVS 5200M]
driver   : nvidia-340 - distro non-free
driver   : nvidia-driver-435 - distro non-free recommended
driver   : nvidia-driver-430 - distro non-free
driver   : nvidia-driver-390 - distro non-free
driver   : xserver-xorg-video-nouveau - distro free builtin
"#,
        facts: &[("gpus", "NVS 5200M"), ("os", "")],
    },
    // round 7 (dev-2026-11h): TensorFlow's issue form with "NVIDIA-SMI: <driver>" and the GPU
    // named twice, by the form and by TensorFlow's log in another case
    Sample {
        url: "https://github.com/tensorflow/tensorflow/issues/44040",
        format: "tf-template",
        text: r#"**System information**
Operating System: 20.04.4 LTS
TensorFlow version: 2.3.1
Python version: 3.7.4
GCC/Compiler: 7.3.0
CUDA: 10.1.243
cuDNN: 8.0.4
GPU model and memory: GeForce GTX 960m, 4 Gb
NVIDIA-SMI: 450.80.02
2020-10-15 12:44:11.916045: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1716] Found device 0 with properties: 
pciBusID: 0000:02:00.0 name: GeForce GTX 960M computeCapability: 5.0
"#,
        facts: &[
            ("driver", "450.80.02"),
            ("gpus", "GeForce GTX 960M"),
            ("cuda_runtime", "10.1.243"),
            ("cudnn", "8.0.4"),
            ("python", "3.7.4"),
            ("pip:tensorflow", "2.3.1"),
        ],
    },
    // round 7: flash-attn's setup prints torch's version with its value on one line; a
    // requirement ("version 11.4 and above") is no installed CUDA (the detected 12.1 is)
    Sample {
        url: "https://github.com/Dao-AILab/flash-attention/issues/219",
        format: "flash-attn setup",
        text: r#"In the main docs page, it states that requirements are:
Cuda: version 11.4 and above
But, it cannot be compiled with cuda 12, where it keeps on raising errors 
**RuntimeError:The detected CUDA version (12.1) mismatches the version that was used to compile PyTorch (11.7).**

> torch.__version__  = 2.0.1+cu117
"#,
        facts: &[("torch", "2.0.1+cu117"), ("torch_cuda", "11.7"), ("cuda_runtime", "12.1")],
    },
    // round 8: DCGM's diagnostic table names the driver; `dcgmi nvlink --link-status`
    // lists the links (observed as gpu.nvlink_down, not a fact here)
    Sample {
        url: "https://github.com/NVIDIA/DCGM/issues/198",
        format: "dcgmi diag",
        text: r#"dcgmi nvlink --link-status
+----------------------+
|  NvLink Link Status  |
+----------------------+
GPUs:
    gpuId 0:
        D D D D D D D D D D D D D D D D D D
NvSwitches:
    No NvSwitches found.

dcgmi diag -r 2
Successfully ran diagnostic for group.
+---------------------------+------------------------------------------------+
| Diagnostic                | Result                                         |
+===========================+================================================+
|-----  Metadata  ----------+------------------------------------------------|
| DCGM Version              | 3.3.7                                          |
| Driver Version Detected   | 560.35.03                                      |
| GPU Device IDs Detected   | 2321,2321                                      |
"#,
        facts: &[("driver", "560.35.03"), ("gpus", "")],
    },
    // round 8: a driver named by its RPM package in a free-form setup list; a program's
    // elided GPU list ("GPU 6: NVIDIA H100 80GB HBM3 ...")
    Sample {
        url: "https://github.com/wilicc/gpu-burn/issues/92",
        format: "free-form setup list",
        text: r#"Setup:
* Kernel: Linux version 3.10.0-1160.71.1.el7.x86_64
* OS: CentOS 7
* nvidia driver: nvidia-driver-latest-dkms-545.23.08-1.el7.x86_64
* cuda: 12.3

### NVIDIA H100 80GB HBM3 (Fail):
```bash
$ gpu_burn -d 60
GPU 0: NVIDIA H100 80GB HBM3 ...
"#,
        facts: &[
            ("driver", "545.23.08"),
            ("os", "CentOS 7"),
            ("gpus", "NVIDIA H100 80GB HBM3"),
            ("cuda_runtime", "12.3"),
        ],
    },
    // round 8: an issue form's dropdown ("### OS" / "Linux") refined by the distribution a
    // quoted label names above a fenced block ("> Operating System" / "```" / "Ubuntu 24.04 LTS")
    Sample {
        url: "https://github.com/theroyallab/tabbyAPI/issues/324",
        format: "issue form",
        text: r#"### OS

Linux

### Python version

3.12

### Env 

> Operating System
```
Ubuntu 24.04 LTS
```

> nvidia-smi
```
+-----------------------------------------------------------------------------------------+
| NVIDIA-SMI 550.144.03             Driver Version: 550.144.03     CUDA Version: 12.4     |
|-----------------------------------------+------------------------+----------------------+
"#,
        facts: &[
            ("os", "Ubuntu 24.04 LTS"),
            ("python", "3.12"),
            ("driver", "550.144.03"),
            ("driver_cuda", "12.4"),
        ],
    },
    // round 8: the CUDA samples' device lines (p2pBandwidthLatencyTest)
    Sample {
        url: "https://github.com/NVIDIA/nccl/issues/257",
        format: "CUDA samples",
        text: r#"Device: 0, GeForce GTX 1080 Ti, pciBusID: 2, pciDeviceID: 0, pciDomainID:0
Device: 1, GeForce GTX 1080 Ti, pciBusID: 3, pciDeviceID: 0, pciDomainID:0
Device: 2, GeForce GTX 1080 Ti, pciBusID: 82, pciDeviceID: 0, pciDomainID:0
Device: 3, GeForce GTX 1080 Ti, pciBusID: 83, pciDeviceID: 0, pciDomainID:0
Device=0 CAN Access Peer Device=1
Device=0 CANNOT Access Peer Device=2
"#,
        facts: &[
            (
                "gpus",
                "GeForce GTX 1080 Ti; GeForce GTX 1080 Ti; GeForce GTX 1080 Ti; GeForce GTX 1080 Ti",
            ),
            ("driver", ""),
        ],
    },
    // round 9: versions pinned the way pip pins read ("Driver==", "nvcc==cuda_X.rX")
    Sample {
        url: "https://github.com/ggml-org/llama.cpp/issues/1648",
        format: "versions",
        text: r#"sdk version:
```
llama.cpp 7e4ea5beff567f53be92f75f9089e6f11fa5dabd
python==3.9.11
nvcc==cuda_11.8.r11.8/compiler.31833905_0
Driver==515.86.01
```
"#,
        facts: &[
            ("python", "3.9.11"),
            ("cuda_runtime", "11.8"),
            ("driver", "515.86.01"),
        ],
    },
    // round 9: the driver named in Chinese
    Sample {
        url: "https://github.com/MieMieeeee/ComfyUI-Mie-Package-Launcher/issues/100",
        format: "prose (Chinese)",
        text: "看日志是驱动版本（572.83）太低呢，CU130 需要比较新的显卡驱动哈。\n",
        facts: &[("driver", "572.83")],
    },
    // round 9: llama.cpp's start-up device line with its VRAM
    Sample {
        url: "https://github.com/canonical/inference-snaps/issues/255",
        format: "llama.cpp log",
        text: r#"ggml_cuda_init: found 1 CUDA devices (Total VRAM: 11172 MiB):
  Device 0: NVIDIA GeForce GTX 1080 Ti, compute capability 6.1, VMM: yes, VRAM: 11172 MiB
load_backend: loaded CUDA backend from /home/ubuntu/Downloads/llamacpp-amd64+cuda12/bin/libggml-cuda.so
"#,
        facts: &[("gpus", "NVIDIA GeForce GTX 1080 Ti"), ("driver", "")],
    },
    // round 9: an NGC banner (the required driver is no driver; the detected one is) and
    // glog lines (tritonserver's metrics list the GPUs)
    Sample {
        url: "https://github.com/triton-inference-server/server/issues/2225",
        format: "ngc banner + tritonserver log",
        text: r#"NVIDIA Release 20.09 (build 16016295)

ERROR: This container was built for NVIDIA Driver Release 450.51 or later, but
       version 440.64.00 was detected and compatibility mode is UNAVAILABLE.

       [[CUDA Driver UNAVAILABLE (cuInit(0) returned 804)]]

I1105 01:26:08.071329 1 metrics.cc:184] found 1 GPUs supporting NVML metrics
I1105 01:26:08.078690 1 metrics.cc:193]   GPU 0: TITAN Xp
I1105 01:26:08.079265 1 server.cc:121]   id: 'triton'
"#,
        facts: &[("driver", "440.64.00"), ("gpus", "TITAN Xp")],
    },
    // round 9: a job script's own report of torch (torch.backends.cuda.is_built())
    Sample {
        url: "https://github.com/mila-iqia/mila-docs/issues/213",
        format: "script report + nvidia-smi -q",
        text: r#"PyTorch built with CUDA:         False
PyTorch detects CUDA available:  False
PyTorch-detected #GPUs:          0
    No GPU detected, not printing devices' names.
Driver Version                            : 535.86.10
CUDA Version                              : 12.2
"#,
        facts: &[
            ("cpu_only", "true"),
            ("cuda_available", "false"),
            ("driver", "535.86.10"),
            ("driver_cuda", "12.2"),
        ],
    },
];

#[test]
fn real_samples_of_every_format() {
    let mut per_format: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut misses = Vec::new();
    for s in SAMPLES {
        let ce = parse(s.text);
        // a paste that names a GPU, a driver, a CUDA or a framework version is never refused
        // (an OS or a Python alone may be)
        let names_versions = s
            .facts
            .iter()
            .any(|(k, v)| !v.is_empty() && !matches!(*k, "os" | "python"));
        if ce.found_nothing() && names_versions {
            misses.push(format!(
                "{} [{}]: refused (nothing recognised)",
                s.url, s.format
            ));
        }
        let entry = per_format.entry(s.format).or_default();
        for (key, want) in s.facts {
            let have = got(&ce, key);
            entry.1 += 1;
            if have == *want {
                entry.0 += 1;
            } else {
                misses.push(format!(
                    "{} [{}] {key}: want {want:?}, got {have:?}",
                    s.url, s.format
                ));
            }
        }
    }
    let (ok, n) = per_format
        .values()
        .fold((0, 0), |(a, b), (x, y)| (a + x, b + y));
    println!("real samples: facts {ok}/{n} ({} samples)", SAMPLES.len());
    for (format, (x, y)) in &per_format {
        println!("  {format}: {x}/{y}");
    }
    for m in &misses {
        println!("  miss: {m}");
    }
    assert!(
        misses.is_empty(),
        "{} facts missed:\n{}",
        misses.len(),
        misses.join("\n")
    );
}

/// The diagnosis' "Found" line names every fact that was read, and "Lacking" exactly the
/// core facts that were not: checked on every real sample.
#[test]
fn found_and_lacking_name_exactly_what_was_parsed() {
    for s in SAMPLES {
        let ce = parse(s.text);
        let (found, lacking) = ce.found_and_lacking();
        let joined = found.join("; ");
        let core = [
            ("driver", ce.driver.is_some()),
            ("GPU", !ce.gpus.is_empty()),
            ("torch", ce.torch.is_some()),
            ("torch's CUDA", ce.torch_cuda.is_some() || ce.torch_cpu_only),
            ("driver's CUDA", ce.driver_cuda.is_some()),
            ("nvcc", ce.cuda_runtime.is_some() || ce.image_cuda.is_some()),
            ("OS", ce.os.is_some()),
        ];
        for (name, has) in core {
            assert_eq!(
                lacking.contains(&name),
                !has,
                "{}: {name} in {lacking:?}",
                s.url
            );
            assert_eq!(
                found.iter().any(|f| f.starts_with(&format!("{name} "))),
                has,
                "{}: {name} in {found:?}",
                s.url
            );
        }
        let values = [
            &ce.driver,
            &ce.torch,
            &ce.torch_cuda,
            &ce.driver_cuda,
            &ce.cuda_runtime,
            &ce.os,
            &ce.cuda_mentioned,
            &ce.cudnn,
            &ce.rocm,
        ];
        for v in values.into_iter().flatten() {
            assert!(
                joined.contains(v.as_str()),
                "{}: {v} not named in {joined}",
                s.url
            );
        }
        for g in &ce.gpus {
            assert!(joined.contains(g.as_str()), "{}: {g} not named", s.url);
        }
        if let Some(p) = ce
            .python
            .as_deref()
            .and_then(|p| p.split_whitespace().next())
        {
            assert!(
                joined.contains(&format!("Python {p}")),
                "{}: {joined}",
                s.url
            );
        }
        if let Some(b) = ce.cuda_available {
            assert!(joined.contains("CUDA available"), "{}: {b} {joined}", s.url);
        }
        let packages = ce
            .pip
            .keys()
            .chain(ce.conda.keys())
            .filter(|n| !matches!(n.as_str(), "torch" | "pytorch"))
            .count();
        if (1..=12).contains(&packages) {
            for (name, version) in &ce.pip {
                if name != "torch" && name != "pytorch" {
                    assert!(
                        joined.contains(&format!("{name} {version}")),
                        "{}: {joined}",
                        s.url
                    );
                }
            }
        }
    }
}

/// A paste is never refused when it names a GPU, a driver, a CUDA or a framework version,
/// however it is written (the lines the issue (#14) gives, and one-line forms of the formats
/// above); prose naming none is.
#[test]
fn a_paste_naming_a_version_is_never_refused() {
    for text in [
        "CUDA 12.1, driver 535, RTX 3090",
        "torch==2.1.0+cu118 on a 4090",
        "GPU: 2x A100 80GB",
        "I'm on tensorflow 2.15.0 and it fails to see the GPU",
        "jax 0.4.30 on GPU",
        "vLLM v0.6.3 crashes at start",
        "NVML library version: 550.144",
        "cuDNN 8.9 is installed",
        "ggml_cuda_init: found 1 CUDA devices:\n  Device 0: NVIDIA GeForce RTX 4070, compute capability 8.9, VMM: yes",
        "$ modinfo nvidia | grep ^version\nversion:        515.48.07",
        "PyTorch 1.13",
        "python: 3.10.9\ntorch: 2.0.1+cu118",
    ] {
        let ce = parse(text);
        assert!(!ce.found_nothing(), "{text:?} was refused");
        let (found, _) = ce.found_and_lacking();
        assert!(!found.is_empty(), "{text:?}: nothing named as found");
    }
    let ce = parse("GPU: 2x A100 80GB");
    assert_eq!(ce.gpus, vec!["A100 80GB"; 2]);
    let ce = parse("I'm on tensorflow 2.15.0 and it fails to see the GPU");
    assert_eq!(ce.pip.get("tensorflow").map(String::as_str), Some("2.15.0"));
    let ce = parse("jax 0.4.30 on GPU");
    assert_eq!(ce.pip.get("jax").map(String::as_str), Some("0.4.30"));
    assert!(ce.conda.is_empty(), "{:?}", ce.conda);
    for prose in [
        "it does not work, please help",
        "The GPU is not used, what should I do?",
        "version:        1.2.3",
    ] {
        assert!(parse(prose).found_nothing(), "{prose:?} was read");
    }
}

/// What must NOT be read as a fact: paths, library sonames, removed packages, device
/// handles and vendor words are no versions or GPU names.
#[test]
fn look_alikes_are_not_facts() {
    let ce = parse(
        "  File \"/usr/lib/python3.8/site-packages/torch/__init__.py\", line 172, in _lazy_init\n",
    );
    assert_eq!(ce.python, None);
    let ce = parse("Successfully opened dynamic library libcudnn.so.8\nlibcuda.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcuda.so.1\n");
    assert_eq!(ce.driver, None);
    let ce = parse("rc  libnvidia-compute-495:amd64      495.29.05-0ubuntu1 amd64        NVIDIA libcompute package\n");
    assert_eq!(ce.driver, None);
    let ce = parse("msg=\"inference compute\" id=0 library=CUDA compute=8.6 name=CUDA0\n");
    assert!(ce.gpus.is_empty(), "{:?}", ce.gpus);
    let ce = parse("### GPU\n\nNvidia\n\n### CPU\n\nIntel\n");
    assert!(ce.gpus.is_empty(), "{:?}", ce.gpus);
    let ce = parse("[2024-03-27 16:40:31,776]::[InvokeAI]::INFO --> Using torch device: CPU\n");
    assert!(ce.gpus.is_empty() && ce.cuda_available.is_none(), "{ce:?}");
    // "RTX 5090 D" is a model; the D of "Driver" is not
    assert_eq!(
        parse("I have an RTX 3090 Driver 535 installed").gpus,
        vec!["RTX 3090"]
    );
    let ce = parse("By 2050 the target is met, 1080p at 60 fps.\n");
    assert!(ce.gpus.is_empty(), "{:?}", ce.gpus);
    // an install command's pin names no running build's CUDA
    let ce = parse("PyTorch version: 2.1.0.dev20230905\nCUDA used to build PyTorch: Could not collect\n> mamba install pytorch pytorch-cuda=11.8 -c pytorch-nightly -c nvidia\n");
    assert!(ce.torch_cpu_only && ce.torch_cuda.is_none(), "{ce:?}");
}

/// Pastes cut anywhere and mixed in any order (lines of every sample above, truncated at
/// random character boundaries, with stray separators) never make the parser panic.
#[test]
fn cut_and_mixed_pastes_never_panic() {
    let lines: Vec<&str> = SAMPLES.iter().flat_map(|s| s.text.lines()).collect();
    let mut seed = 0x2545_F491_4F6C_DD1D_u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..300 {
        let mut text = String::new();
        for _ in 0..30 {
            let line = lines[(next() % lines.len() as u64) as usize];
            let n = line.chars().count() + 1;
            let cut = line
                .char_indices()
                .nth((next() % n as u64) as usize)
                .map_or(line.len(), |(i, _)| i);
            text.push_str(&line[..cut]);
            text.push_str(if next() % 3 == 0 { "é,_|[]: ==" } else { "\n" });
        }
        let ce = parse(&text);
        let _ = ce.found_and_lacking();
    }
}
