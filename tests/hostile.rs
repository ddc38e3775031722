//! gpu-doctor never panics or hangs on what the outside world gives it: every file of a
//! fixture machine filled with garbage, odd environment variables, broken links.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod fixture_root;

use std::time::Duration;

use fixture_root::FixtureRoot;

/// Deterministic pseudo-random bytes (no dependency, reproducible failures).
fn garbage(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// A machine with every kind of file gpu-doctor reads: driver, toolkit, Python with torch.
fn full_machine() -> FixtureRoot {
    let root = FixtureRoot::ubuntu();
    root.gpu(Some("nvidia"))
        .kernel_module("550.54.15")
        .user_space("550.54.15")
        .device_nodes(2);
    root.file(
        "usr/local/cuda-12.4/version.json",
        r#"{"cuda": {"name": "CUDA SDK", "version": "12.4.1"}}"#,
    );
    root.file(
        "usr/local/cuda-12.4/bin/nvcc",
        "#!/bin/sh\necho 'Cuda compilation tools, release 12.4, V12.4.131'\n",
    );
    root.symlink("usr/local/cuda", "cuda-12.4");
    root.file("etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n");
    root.file("etc/ld.so.conf.d/x.conf", "/usr/lib/x86_64-linux-gnu\n");
    let site = "opt/venv/lib/python3.11/site-packages";
    root.file(
        "opt/venv/pyvenv.cfg",
        "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.7\n",
    );
    root.file("opt/venv/bin/python", "");
    root.file(&format!("{site}/torch/__init__.py"), "");
    root.file(
        &format!("{site}/torch/version.py"),
        "__version__ = '2.4.1+cu121'\ncuda = '12.1'\nhip = None\n",
    );
    root.file(
        &format!("{site}/torch/lib/libtorch_cuda.so"),
        "\x7fELF not really",
    );
    root.file(
        &format!("{site}/torch-2.4.1.dist-info/METADATA"),
        "Metadata-Version: 2.1\nName: torch\nVersion: 2.4.1\nRequires-Dist: nvidia-cublas-cu12==12.1.3.1; platform_system == \"Linux\"\n",
    );
    root.file(&format!("{site}/torch-2.4.1.dist-info/INSTALLER"), "pip\n");
    root.file(
        &format!("{site}/nvidia_cublas_cu12-12.1.3.1.dist-info/METADATA"),
        "Name: nvidia-cublas-cu12\nVersion: 12.1.3.1\n",
    );
    root.file(&format!("{site}/nvidia/cublas/lib/libcublas.so.12"), "");
    root.file(
        &format!("{site}/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so"),
        "\x7fELF\x02\x01\x01",
    );
    root
}

fn all_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let ft = e.file_type().unwrap();
        if ft.is_dir() {
            all_files(&e.path(), out);
        } else if ft.is_file() {
            out.push(e.path());
        }
    }
}

fn run_and_judge(root: &FixtureRoot, env: &[(&str, &str)], what: &str) {
    let mut cmd = root.command();
    cmd.env("VIRTUAL_ENV", "/opt/venv")
        .env("PATH", "/opt/venv/bin:/usr/local/cuda/bin:/usr/bin")
        .args(["--json", "--python", "/opt/venv/bin/python"])
        .timeout(Duration::from_secs(60));
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{what}: {stderr}");
    let code = out
        .status
        .code()
        .unwrap_or_else(|| panic!("{what}: killed by a signal; {stderr}"));
    assert!((0..=2).contains(&code), "{what}: exit {code}; {stderr}");
    let report: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{what}: not JSON: {e}"));
    assert_eq!(report["exit_code"], code, "{what}");
}

#[test]
fn the_full_fixture_machine_is_judged() {
    run_and_judge(&full_machine(), &[], "clean machine");
}

#[test]
fn garbage_in_every_file() {
    for seed in 0..6u64 {
        let root = full_machine();
        let mut files = Vec::new();
        all_files(root.root(), &mut files);
        for (i, f) in files.iter().enumerate() {
            let len = [0usize, 1, 7, 200, 5000][(seed as usize + i) % 5];
            std::fs::write(f, garbage(seed * 1000 + i as u64, len)).unwrap();
        }
        run_and_judge(&root, &[], &format!("garbage seed {seed}"));
    }
}

#[test]
fn truncated_and_hostile_text() {
    let root = full_machine();
    root.file(
        "proc/driver/nvidia/version",
        "NVRM version: NVIDIA UNIX x86_64 Kernel Module  ",
    );
    root.file("proc/modules", "nvidia\n\n\n  \t \nnvidia_uvm");
    root.file("etc/os-release", "ID=\"\nPRETTY_NAME=");
    root.file("sys/bus/pci/devices/0000:01:00.0/class", "0xZZZZZZ");
    root.file(
        "usr/local/cuda-12.4/version.json",
        "{\"cuda\": {\"version\": 12}}",
    );
    root.file(
        "opt/venv/lib/python3.11/site-packages/torch/version.py",
        "__version__ = '\ncuda: Optional[str] = \n",
    );
    root.file("opt/venv/pyvenv.cfg", "=\n==\nversion\n");
    root.symlink(
        "usr/lib/x86_64-linux-gnu/libcuda.so.999.1",
        "libcuda.so.999.1",
    );
    root.symlink("opt/venv/lib/python3.11/site-packages/loop", "loop");
    run_and_judge(&root, &[], "hostile text");
}

#[test]
fn odd_environment_variables() {
    let long_path = (0..5000)
        .map(|i| format!("/nonexistent/{i}"))
        .collect::<Vec<_>>()
        .join(":");
    let cases: Vec<(&str, String)> = vec![
        (
            "CUDA_VISIBLE_DEVICES",
            "GPU-,MIG-,,-0,99999999999999999999,💥".into(),
        ),
        ("CUDA_VISIBLE_DEVICES", ",,,".into()),
        ("PYTORCH_CUDA_ALLOC_CONF", "[[[:::,,,]]]".into()),
        ("PYTORCH_ALLOC_CONF", "roundup_power2_divisions:[".into()),
        (
            "TORCH_CUDA_ARCH_LIST",
            "9.99999999999999999999;+PTX;a;.".into(),
        ),
        ("LD_LIBRARY_PATH", long_path),
        ("CUDA_HOME", "relative/path\n/with/newline".into()),
        ("HOME", "".into()),
        ("GPU_DOCTOR_DRIVER_TIMEOUT_MS", "not a number".into()),
    ];
    let root = full_machine();
    for (k, v) in &cases {
        run_and_judge(&root, &[(k, v.as_str())], &format!("{k}={v:.40}"));
    }
}

/// The fixture above is a real test bed, not an empty one: the clean machine is read whole.
#[test]
fn the_clean_fixture_is_read() {
    let root = full_machine();
    let out = root
        .command()
        .env("PATH", "/opt/venv/bin:/usr/local/cuda/bin:/usr/bin")
        .args(["--json", "--python", "/opt/venv/bin/python"])
        .output()
        .unwrap();
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let f = &r["facts"];
    assert_eq!(f["kernel_module"]["version"]["value"], "550.54.15");
    assert_eq!(f["toolkits"]["toolkits"][0]["root"], "/usr/local/cuda-12.4");
    let env = f["python"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["interpreter"] == "/opt/venv/bin/python")
        .unwrap();
    assert_eq!(env["torch"][0]["version"]["value"], "2.4.1+cu121");
    assert_eq!(
        env["torch"][0]["arch"]["state"], "failed",
        "a fake libtorch_cuda.so is reported, not trusted"
    );
    assert_eq!(env["nvidia_wheels"][0]["name"], "nvidia-cublas-cu12");
}
