//! Checks the file readers against real torch wheels, in the venvs that
//! `scripts/prepare-test-venvs.sh` builds and annotates with what torch itself reports.
//!
//! Without those venvs the tests print how to make them and pass, except under CI
//! (`CI` set), where a missing venv is a failure.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::time::Instant;

use gpu_doctor::facts::fatbin::read_arch_list;
use gpu_doctor::facts::python::{self, PythonEnv, TorchBuild};
use gpu_doctor::host::Host;

const VENVS: [&str; 2] = ["torch-2.4.1", "torch-current"];

fn venv_root() -> PathBuf {
    match std::env::var_os("GPU_DOCTOR_TEST_VENVS") {
        Some(v) if !v.is_empty() => PathBuf::from(v),
        _ => {
            let home = std::env::var_os("HOME").unwrap_or_default();
            Path::new(&home).join(".cache/gpu-doctor/test-venvs")
        }
    }
}

/// The prepared venvs; empty (after saying why) when there are none outside CI.
fn prepared() -> Vec<PathBuf> {
    let root = venv_root();
    let ready: Vec<PathBuf> = VENVS
        .iter()
        .map(|v| root.join(v))
        .filter(|v| v.join(".gpu-doctor-ready").is_file())
        .collect();
    if ready.len() < VENVS.len() {
        let msg = format!(
            "real-wheel venvs missing under {} (found {}/{}): run scripts/prepare-test-venvs.sh",
            root.display(),
            ready.len(),
            VENVS.len()
        );
        assert!(std::env::var_os("CI").is_none(), "{msg}");
        eprintln!("SKIP: {msg}");
    }
    ready
}

#[derive(serde::Deserialize)]
struct Expected {
    version: String,
    cuda: Option<String>,
    arch_flags: String,
    /// `torch.backends.cudnn.version()`: 90100 for 9.1.0.
    cudnn: Option<u64>,
    nccl: Option<String>,
}

fn expected(venv: &Path) -> Expected {
    let text = std::fs::read_to_string(venv.join("torch-expected.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// `rchar` of /proc/thread-self/io: bytes this thread got from read(2)-like calls, so
/// that other tests running beside it do not count.
fn bytes_read_by_this_thread() -> Option<u64> {
    let io = std::fs::read_to_string("/proc/thread-self/io").ok()?;
    io.lines()
        .find_map(|l| l.strip_prefix("rchar:"))
        .and_then(|v| v.trim().parse().ok())
}

fn site_packages(venv: &Path) -> PathBuf {
    let lib = venv.join("lib");
    let py = std::fs::read_dir(&lib)
        .unwrap()
        .filter_map(Result::ok)
        .find(|e| e.file_name().to_string_lossy().starts_with("python"))
        .unwrap();
    py.path().join("site-packages")
}

fn gather(venv: &Path) -> (Vec<PythonEnv>, std::time::Duration) {
    // Only --python: the machine's own PATH and variables stay out of it.
    let host = Host::fixture("/", &[]);
    let start = Instant::now();
    let envs = python::gather(&host, &[venv.join("bin/python")], false);
    (envs, start.elapsed())
}

fn only_torch(envs: &[PythonEnv]) -> &TorchBuild {
    assert_eq!(envs.len(), 1, "{envs:#?}");
    assert_eq!(envs[0].torch.len(), 1, "{:#?}", envs[0].torch);
    &envs[0].torch[0]
}

#[test]
fn arch_list_equals_what_torch_reports() {
    for venv in prepared() {
        let want = expected(&venv);
        let lib = site_packages(&venv).join("torch/lib/libtorch_cuda.so");
        let size = std::fs::metadata(&lib).unwrap().len();
        let read_before = bytes_read_by_this_thread();
        let start = Instant::now();
        let list = read_arch_list(&lib);
        let took = start.elapsed();
        let read = bytes_read_by_this_thread()
            .zip(read_before)
            .map(|(a, b)| a - b);
        let list = list
            .value()
            .unwrap_or_else(|| panic!("{}: {list:?}", lib.display()));
        assert_eq!(
            list.arch_flags.join(" "),
            want.arch_flags,
            "{}",
            venv.display()
        );
        eprintln!(
            "{}: read_arch_list on {} MB took {took:?}, read {read:?} bytes; sass {:?}, ptx {:?}",
            venv.display(),
            size >> 20,
            list.sass,
            list.ptx
        );
        if let Some(read) = read {
            assert!(read < size / 1000, "read {read} bytes of {size}");
        }
    }
}

#[test]
fn gather_finds_torch_and_its_cuda_wheels() {
    for venv in prepared() {
        let want = expected(&venv);
        let (envs, took) = gather(&venv);
        eprintln!("{}: gather took {took:?}", venv.display());
        let env = &envs[0];
        assert!(env.is_venv);
        assert_eq!(env.origins, vec!["--python"]);
        let torch = only_torch(&envs);
        assert_eq!(torch.version.value(), Some(&want.version));
        assert_eq!(torch.cuda.value(), Some(&want.cuda));
        assert_eq!(torch.installer.value().map(String::as_str), Some("pip"));
        let arch = torch.arch.value().unwrap();
        assert_eq!(arch.arch_flags.join(" "), want.arch_flags);

        // cuDNN: the wheel version ("9.1.0.70") starts with what torch reports (90100).
        let cudnn = torch.cudnn.value().unwrap();
        if let Some(code) = want.cudnn {
            let (major, minor, patch) = (code / 10000, code / 100 % 100, code % 100);
            assert!(
                cudnn.starts_with(&format!("{major}.{minor}.{patch}")),
                "cudnn {cudnn} vs {code}"
            );
        }
        if let Some(nccl) = &want.nccl {
            assert!(torch.nccl.value().unwrap().starts_with(nccl.as_str()));
        }

        // Every nvidia-* requirement that applies here is installed, with its libraries.
        assert!(!torch.requires.is_empty());
        for req in &torch.requires {
            let wheel = env.nvidia_wheels.iter().find(|w| w.name == req.name);
            let wheel = wheel.unwrap_or_else(|| panic!("{} not among the wheels", req.name));
            if let Some(pin) = req.specifier.strip_prefix("==") {
                assert_eq!(wheel.version, pin, "{}", req.name);
            }
        }
        let cudnn_wheel = env
            .nvidia_wheels
            .iter()
            .find(|w| w.name.starts_with("nvidia-cudnn"))
            .unwrap();
        assert!(
            cudnn_wheel
                .libraries
                .iter()
                .any(|l| l.starts_with("libcudnn.so")),
            "{cudnn_wheel:?}"
        );
        for dir in &cudnn_wheel.lib_dirs {
            assert!(Path::new(dir).is_dir(), "{dir}");
        }
        // torch/ and nvidia/ are read above; nothing else in these venvs has device code
        // except triton's, if any.
        for ext in &env.extensions {
            assert!(ext.arch.is_known(), "{ext:?}");
        }
    }
}

#[test]
fn gather_is_fast_on_a_real_venv() {
    for venv in prepared() {
        let _ = gather(&venv); // warm the page cache
        let runs = 5;
        let mut total = std::time::Duration::ZERO;
        for _ in 0..runs {
            total += gather(&venv).1;
        }
        eprintln!(
            "{}: gather mean {:?} over {runs} runs",
            venv.display(),
            total / runs
        );
    }
}

#[test]
fn deep_asks_the_interpreter() {
    for venv in prepared() {
        let want = expected(&venv);
        let host = Host::fixture("/", &[]);
        let start = Instant::now();
        let envs = python::gather(&host, &[venv.join("bin/python")], true);
        assert_eq!(envs.len(), 1);
        eprintln!(
            "{}: gather --deep took {:?}",
            venv.display(),
            start.elapsed()
        );
        eprintln!("{}", serde_json::to_string_pretty(&envs[0]).unwrap());
        let deep = envs[0].deep.as_ref().unwrap();
        let deep = deep.value().unwrap_or_else(|| panic!("{deep:?}"));
        assert_eq!(deep.torch_version.as_ref(), Some(&want.version));
        let torch_path = deep.torch_path.as_deref().unwrap_or_default();
        assert!(
            torch_path.starts_with(&envs[0].torch[0].path),
            "{torch_path}"
        );
        assert_eq!(deep.device_count > 0, deep.cuda_available);
    }
}

/// The machine's own environments (PATH, VIRTUAL_ENV, the user site): whatever is there,
/// gathering must come back, quickly.
#[test]
fn gather_on_this_machine() {
    let host = Host::from_env();
    for run in ["cold", "warm"] {
        let start = Instant::now();
        let envs = python::gather(&host, &[], false);
        eprintln!(
            "this machine ({run}): {} environments in {:?}",
            envs.len(),
            start.elapsed()
        );
    }
    let envs = python::gather(&host, &[], false);
    for env in &envs {
        eprintln!(
            "  {:?} {:?} {:?} torch {}",
            env.origins,
            env.interpreter,
            env.python_version.value(),
            env.torch.len()
        );
    }
}

/// The real binary, end to end, on each real venv: the report names the build, its CUDA,
/// the arch list torch reports, and judges its wheels complete.
#[test]
fn report_of_the_real_binary_on_real_wheels() {
    for venv in prepared() {
        let want = expected(&venv);
        let python = venv.join("bin/python");
        let out = assert_cmd::Command::cargo_bin("gpu-doctor")
            .unwrap()
            .env_remove("GPU_DOCTOR_ROOT")
            .arg("--json")
            .arg("--python")
            .arg(&python)
            .output()
            .unwrap();
        let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let env = r["facts"]["python"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["interpreter"] == python.to_str().unwrap())
            .unwrap_or_else(|| panic!("{} not in the report", python.display()));
        let torch = &env["torch"][0];
        assert_eq!(torch["version"]["value"], want.version.as_str());
        assert_eq!(torch["cuda"]["value"].as_str(), want.cuda.as_deref());
        let flags: Vec<&str> = torch["arch"]["value"]["arch_flags"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(flags.join(" "), want.arch_flags, "{}", venv.display());
        let verdict = |id: &str| {
            r["findings"]
                .as_array()
                .unwrap()
                .iter()
                .find(|f| {
                    // A pass names only its check (schema 2).
                    let fid = f["id"].as_str().map(str::to_string).or_else(|| {
                        gpu_doctor::checks::catalogue::by_name(f["check"].as_str()?)
                            .map(|c| c.id.to_string())
                    });
                    fid.as_deref() == Some(id)
                        && f["scope"]["interpreter"] == python.to_str().unwrap()
                })
                .map(|f| f["severity"].as_str().unwrap().to_string())
        };
        assert_eq!(
            verdict("torch.wheel_deps_mismatch").as_deref(),
            Some("pass")
        );
        assert_eq!(verdict("torch.cpu_only").as_deref(), Some("pass"));
    }
}

/// `--deep` on a machine without a driver: torch answers, and the finding carries its words.
#[test]
fn deep_report_says_what_torch_says() {
    let Some(venv) = prepared().into_iter().next() else {
        return;
    };
    let python = venv.join("bin/python");
    let out = assert_cmd::Command::cargo_bin("gpu-doctor")
        .unwrap()
        .env_remove("GPU_DOCTOR_ROOT")
        .args([
            "--json",
            "--deep",
            "--only",
            "torch.cuda_unavailable",
            "--python",
        ])
        .arg(&python)
        .output()
        .unwrap();
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let f = r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["scope"]["interpreter"] == python.to_str().unwrap())
        .unwrap_or_else(|| {
            panic!(
                "no torch.cuda_unavailable for {}: {:#}",
                python.display(),
                r["findings"]
            )
        });
    assert_eq!(f["id"], "torch.cuda_unavailable");
    assert_eq!(f["severity"], "info", "no GPU here, so not a failure");
    assert!(
        f["details"]
            .as_str()
            .unwrap()
            .contains("Found no NVIDIA driver"),
        "{f:#}"
    );
}

#[test]
fn the_nccl_probe_finds_and_loads_the_libnccl_each_wheel_ships() {
    use gpu_doctor::cuda_ffi::Nccl;
    use gpu_doctor::probes::between::nccl_version_text;
    use gpu_doctor::probes::plan::torch_nccl_dirs;
    for venv in prepared() {
        let want = expected(&venv);
        let (envs, _) = gather(&venv);
        let torch = only_torch(&envs);
        let lib = torch_nccl_dirs(&torch.site_packages)
            .iter()
            .map(|d| Path::new(d).join("libnccl.so.2"))
            .find(|p| p.is_file())
            .unwrap_or_else(|| panic!("no libnccl.so.2 for {}", venv.display()));
        // The real library: loaded by the probe's own loader, its version asked.
        let nccl = Nccl::load(&lib).unwrap_or_else(|e| panic!("{}: {e}", lib.display()));
        let version = nccl_version_text(nccl.version().unwrap());
        eprintln!("{}: {} is NCCL {version}", venv.display(), lib.display());
        if let Some(v) = want.nccl {
            assert_eq!(version, v, "{}", lib.display());
        }
        assert!(nccl.error_string(2).unwrap().contains("system error"));
    }
}
