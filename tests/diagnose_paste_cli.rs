#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! `gpu-doctor diagnose` through the real binary on partial pastes: a paste that names a
//! GPU, a driver, a CUDA or a framework version is never refused; the diagnosis says which
//! facts it found and which it lacks. Each paste is a real line from the thread cited.

use assert_cmd::Command;

fn bin() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gpu-doctor"));
    cmd.env_remove("GPU_DOCTOR_MATRIX").env("NO_COLOR", "1");
    cmd
}

fn run(cmd: &mut Command) -> (i32, String, String) {
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `diagnose -` on `paste` with --json: (exit code, the "diagnosis" object).
fn diagnosis(paste: &str) -> (i32, serde_json::Value) {
    let (code, out, err) = run(bin()
        .args(["diagnose", "-", "--json"])
        .write_stdin(paste.to_string()));
    assert_ne!(code, 3, "refused: {err}");
    let v: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    (code, v["diagnosis"].clone())
}

fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

/// Only a GPU name, from https://github.com/gridhead/nvidia-auto-installer-for-fedora-linux/issues/75
#[test]
fn a_paste_with_only_a_gpu_name_is_judged_with_what_it_lacks() {
    let (_, d) = diagnosis("I am running an 2060 Super. \n");
    let found = strings(&d["found"]);
    let lacking = strings(&d["lacking"]);
    assert!(
        found.iter().any(|f| f.starts_with("GPU 2060 Super")),
        "{found:?}"
    );
    for fact in ["driver", "torch", "torch's CUDA", "driver's CUDA"] {
        assert!(lacking.iter().any(|l| l == fact), "{fact}: {lacking:?}");
    }
    assert_eq!(d["cause"], "none", "{d:#}");
    // the text says the same to a person
    let (code, out, err) = run(bin()
        .args(["diagnose", "-"])
        .write_stdin("I am running an 2060 Super. \n"));
    assert_ne!(code, 3, "{err}");
    assert!(out.contains("Found: GPU 2060 Super"), "{out}");
    assert!(out.contains("Lacking: driver"), "{out}");
}

/// Only a torch version, from https://github.com/pBFSLab/DeepPrep/issues/233
#[test]
fn a_paste_with_only_a_torch_version_is_judged_with_what_it_lacks() {
    let (_, d) = diagnosis("the version torch is 2.0.1\n");
    let found = strings(&d["found"]);
    let lacking = strings(&d["lacking"]);
    assert!(found.iter().any(|f| f == "torch 2.0.1"), "{found:?}");
    for fact in ["driver", "GPU"] {
        assert!(lacking.iter().any(|l| l == fact), "{fact}: {lacking:?}");
    }
}

/// Only a driver version (https://github.com/jax-ml/jax/issues/21121), only the driver's
/// CUDA ("Driver 13.0", https://github.com/kzhang2/aoneus/issues/2), only a vLLM version
/// (https://github.com/vllm-project/vllm/issues/19607): none is refused.
#[test]
fn a_paste_with_one_version_of_any_kind_is_not_refused() {
    let (_, d) = diagnosis(
        "NVIDIA-SMI 550.54.15              Driver Version: 550.54.15      CUDA Version: 12.4\n",
    );
    assert!(strings(&d["found"]).iter().any(|f| f == "driver 550.54.15"));
    let (_, d) = diagnosis("Driver 13.0\n");
    assert!(
        strings(&d["found"])
            .iter()
            .any(|f| f == "driver's CUDA 13.0"),
        "{d:#}"
    );
    let (_, d) = diagnosis("vLLM Version                 : 0.8.5.post1\n");
    assert!(strings(&d["lacking"]).iter().any(|l| l == "GPU"));
    // prose that names nothing is still refused, with what to paste
    let (code, _, err) = run(bin()
        .args(["diagnose", "-"])
        .write_stdin("it does not work, please help\n"));
    assert_eq!(code, 3);
    assert!(err.contains("nvidia-smi"), "{err}");
}

/// A healthy collect_env plus the program's own exception: the program, not the machine.
/// From https://github.com/vllm-project/vllm/issues/5983 (trimmed).
#[test]
fn a_healthy_paste_with_the_programs_own_exception_blames_the_program() {
    let paste = "[rank0]:   File \"/home/anaconda3/envs/llm/lib/python3.10/site-packages/vllm/worker/model_runner.py\", line 741, in execute_model
[rank0]:     prefill_meta = attn_metadata.prefill_metadata
[rank0]: AttributeError: 'NoneType' object has no attribute 'prefill_metadata'

PyTorch version: 2.3.0+cu121
Is debug build: False
CUDA used to build PyTorch: 12.1
OS: CentOS Linux 7 (Core) (x86_64)
Is CUDA available: True
GPU models and configuration:
GPU 0: NVIDIA GeForce RTX 4090
GPU 1: NVIDIA GeForce RTX 4090

Nvidia driver version: 550.78
";
    let (_, d) = diagnosis(paste);
    assert_eq!(d["cause"], "workload.library_bug", "{d:#}");
    assert_eq!(d["from"], "paste", "{d:#}");
    // the same exception with CUDA unavailable is not the program's alone
    let (_, d) = diagnosis(&paste.replace("Is CUDA available: True", "Is CUDA available: False"));
    assert_ne!(d["cause"], "workload.library_bug", "{d:#}");
    // a traceback alone is read (not refused as a paste naming nothing)
    let (code, _, err) = run(bin().args(["diagnose", "-"]).write_stdin(
        "Traceback (most recent call last):\n  File \"run.py\", line 3, in <module>\n    f(x=1)\nTypeError: f() got an unexpected keyword argument 'x'\n",
    ));
    assert_ne!(code, 3, "{err}");
}

/// "CUDA driver version is insufficient" on a machine the paste says has no NVIDIA GPU.
/// From https://github.com/Akegarasu/lora-scripts/issues/101 (trimmed).
#[test]
fn a_paste_saying_there_is_no_nvidia_gpu_names_the_missing_gpu() {
    let paste = "Error CUDA driver version is insufficient for CUDA runtime version at line 167 in file D:\\ai\\tool\\bitsandbytes\\csrc\\ops.cu
I'm using a integrated Intel GPU(iris xe graphics). os is win 11, torch==2.0.0+cu118 torchvision==0.15.1+cu118.
";
    let (_, d) = diagnosis(paste);
    assert_eq!(d["cause"], "host.no_nvidia_gpu", "{d:#}");
    // with an NVIDIA GPU in the paste, the error's own reading stands
    let (_, d) = diagnosis(&format!(
        "{paste}| NVIDIA-SMI 452.06       Driver Version: 452.06       CUDA Version: 11.0     |\n"
    ));
    assert_ne!(d["cause"], "host.no_nvidia_gpu", "{d:#}");
}

/// The text report of a paste says what the paste did not show, never that it is absent
/// from the machine, and a paste with no problem in it is no proof the machine can run
/// CUDA work. The paste is `nvidia-smi -L` in a container, from
/// https://github.com/podman-container-tools/podman/issues/17539.
#[test]
fn a_partial_paste_reports_what_it_lacks_as_not_shown() {
    let paste = "$ sudo podman run -ti --rm --device=nvidia.com/gpu=0 ubuntu:18.04 nvidia-smi -L\nGPU 0: Tesla P100-PCIE-16GB (UUID: GPU-e50303da-eb0a-d9d3-d573-36e049ff6dc9)\n";
    let (code, out, err) = run(bin().args(["diagnose", "-"]).write_stdin(paste));
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("1 × Tesla P100-PCIE-16GB"), "{out}");
    for row in ["Driver", "Toolkit", "PyTorch"] {
        assert!(
            out.lines()
                .any(|l| l.trim_start().starts_with(row) && l.ends_with("not shown in the paste")),
            "{row}: {out}"
        );
    }
    for claim in [
        "not installed",
        "none found",
        "CUDA and PyTorch work can run here",
        "✓ healthy",
        "unknown host",
    ] {
        assert!(!out.contains(claim), "{claim}: {out}");
    }
    assert!(out.contains("✓ no problem shown"), "{out}");
    // gpu-doctor's own report of this machine keeps its words
    let (_, own, _) = run(bin()
        .args(["--no-probes"])
        .env("GPU_DOCTOR_DRIVER_LIB_DIR", "/nonexistent"));
    assert!(!own.contains("not shown in the paste"), "{own}");
}

/// torch asked in one line whether CUDA works, the answer a CPU wheel gives: the CPU build
/// is the cause (the form public setup guides print, "2.11.0+cpu None False").
#[test]
fn a_torch_one_liner_answering_a_cpu_build_names_it() {
    let paste = "$ python -c \"import torch; print(torch.__version__, torch.version.cuda, torch.cuda.is_available())\"\n2.11.0+cpu None False\n";
    let (_, d) = diagnosis(paste);
    assert_eq!(d["cause"], "torch.cpu_only", "{d:#}");
    // the same build with CUDA working (a torch that says True) is no CPU build's fault
    let (_, d) = diagnosis("$ python -c \"import torch; print(torch.__version__, torch.version.cuda, torch.cuda.is_available())\"\n2.5.1+cu124 12.4 True\n");
    assert_ne!(d["cause"], "torch.cpu_only", "{d:#}");
}

/// torch asked by the paster, answering that CUDA is not available, with nothing that says
/// why: that answer is the diagnosis (and what would tell why is listed as lacking), never
/// "nothing shows a problem". collect_env's own "Is CUDA available: False" alone is not:
/// it is printed on login nodes and laptops for issues that are not the GPU's.
#[test]
fn torch_asked_and_answering_no_cuda_is_the_diagnosis() {
    let (_, d) =
        diagnosis("$ python -c \"import torch; print(torch.cuda.is_available())\"\nFalse\n");
    assert_eq!(d["cause"], "torch.cuda_unavailable", "{d:#}");
    let (_, d) =
        diagnosis("$ python -c \"import torch; print(torch.cuda.is_available())\"\nTrue\n");
    assert_ne!(d["cause"], "torch.cuda_unavailable", "{d:#}");
    let (_, d) = diagnosis("PyTorch version: 2.1.0+cu121\nIs debug build: False\nCUDA used to build PyTorch: 12.1\nIs CUDA available: False\n");
    assert_eq!(d["cause"], "none", "{d:#}");
}

/// `diagnose --save` writes through the one writer: a FIFO nothing reads is refused at once
/// (exit 3, "nothing reads") and the diagnosis is printed all the same; a FIFO with a reader
/// gets the JSON and stays a FIFO.
#[test]
fn diagnose_save_to_a_fifo_writes_through_it_or_says_nothing_reads_it() {
    use std::os::unix::fs::FileTypeExt as _;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("diagnosis.fifo");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let paste = "2.1.0+cpu None False\n";
    let save = || {
        run(bin()
            .args(["diagnose", "-", "--json", "--save"])
            .arg(&fifo)
            .timeout(std::time::Duration::from_secs(60))
            .write_stdin(paste))
    };
    let (code, out, err) = save();
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("nothing reads"), "{err}");
    assert!(out.contains("torch.cpu_only"), "{out}");
    let path = fifo.clone();
    let reader = std::thread::spawn(move || std::fs::read_to_string(path).unwrap());
    std::thread::sleep(std::time::Duration::from_millis(200));
    let (code, _, err) = save();
    let saved: serde_json::Value = serde_json::from_str(&reader.join().unwrap()).unwrap();
    assert_ne!(code, 3, "{err}");
    assert_eq!(saved["diagnosis"]["cause"], "torch.cpu_only");
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
}
