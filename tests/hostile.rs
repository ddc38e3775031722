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
    // An interpreter is executable (`--python` refuses one that is not).
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(
            root.path("opt/venv/bin/python"),
            std::fs::Permissions::from_mode(0o755),
        )
        .unwrap();
    }
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

// ---------------------------------------------------------------------------------------
// The hostile-input table: each row is a machine or an input built to hurt, the findings
// the report must hold, the exit codes allowed and the time it may take. Every row also
// checks that no raw control character (C0 but newline and tab, DEL, C1) reaches stdout or
// stderr and that nothing panics. To add a case: a `setup` that plants the hostile thing
// in the fixture root and returns the arguments, and what must come out.
// ---------------------------------------------------------------------------------------

/// One hostile case.
struct Case {
    name: &'static str,
    /// Plants the hostile thing; returns the command line (after the binary).
    setup: fn(&FixtureRoot) -> Vec<String>,
    /// Extra environment (values may be any bytes).
    env: &'static [(&'static str, &'static [u8])],
    /// (finding id, severity) that the `--json` report must hold (empty: not a report).
    expect: &'static [(&'static str, &'static str)],
    /// The exit codes allowed.
    exit: &'static [i32],
    /// The most the run may take.
    within: Duration,
}

fn fifo(root: &FixtureRoot, rel: &str) -> String {
    let p = root.path(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    let _ = std::fs::remove_file(&p);
    let made = std::process::Command::new("mkfifo")
        .arg(&p)
        .status()
        .unwrap();
    assert!(made.success(), "mkfifo {}", p.display());
    p.display().to_string()
}

fn report_args(python: bool) -> Vec<String> {
    let mut a = vec!["--json".to_string(), "--no-probes".to_string()];
    if python {
        a.extend(["--python".to_string(), "/opt/venv/bin/python".to_string()]);
    }
    a
}

/// A saved report with `facts` replaced by hostile text in a string value.
fn saved_report(root: &FixtureRoot, rel: &str, edit: fn(&mut serde_json::Value)) -> String {
    let out = root
        .command()
        .args(["--json", "--no-probes"])
        .output()
        .unwrap();
    let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    edit(&mut v);
    let p = root.path(rel);
    std::fs::write(&p, serde_json::to_vec(&v).unwrap()).unwrap();
    p.display().to_string()
}

const ESC_TEXT: &str = "\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J\u{9b}31m\u{85}";

fn cases() -> Vec<Case> {
    let s = Duration::from_secs;
    vec![
        Case {
            name: "FIFO as /etc/ld.so.conf",
            setup: |r| {
                fifo(r, "etc/ld.so.conf");
                report_args(true)
            },
            env: &[],
            expect: &[],
            exit: &[0, 1, 2],
            within: s(30),
        },
        Case {
            name: "FIFO as a toolkit's version.json, nvcc gone",
            setup: |r| {
                fifo(r, "usr/local/cuda-12.4/version.json");
                std::fs::remove_file(r.path("usr/local/cuda-12.4/bin/nvcc")).unwrap();
                report_args(false)
            },
            env: &[],
            expect: &[],
            exit: &[0, 1, 2],
            within: s(30),
        },
        Case {
            name: "FIFO as libtorch_cuda.so: never passed on the matrix's record",
            setup: |r| {
                fifo(
                    r,
                    "opt/venv/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so",
                );
                report_args(true)
            },
            env: &[],
            expect: &[],
            exit: &[0, 1, 2],
            within: s(30),
        },
        Case {
            name: "FIFO as pyvenv.cfg",
            setup: |r| {
                fifo(r, "opt/venv/pyvenv.cfg");
                report_args(true)
            },
            env: &[],
            expect: &[],
            exit: &[0, 1, 2],
            within: s(30),
        },
        Case {
            name: "six toolkits whose nvcc hangs: one time limit, and a finding",
            setup: |r| {
                for minor in 0..6 {
                    let p = format!("usr/local/cuda-12.{minor}/bin/nvcc");
                    r.file(&p, "#!/bin/sh\nsleep 600\n");
                    use std::os::unix::fs::PermissionsExt;
                    std::fs::set_permissions(r.path(&p), std::fs::Permissions::from_mode(0o755))
                        .unwrap();
                }
                report_args(false)
            },
            env: &[],
            expect: &[("toolkit.not_found", "warn")],
            exit: &[1, 2],
            within: s(35),
        },
        Case {
            name: "non-UTF-8 CUDA_VISIBLE_DEVICES is not unset",
            setup: |_| report_args(false),
            env: &[("CUDA_VISIBLE_DEVICES", b"\xff\xfe")],
            expect: &[("env.visible_devices_empty", "warn")],
            exit: &[1, 2],
            within: s(30),
        },
        Case {
            name: "--from a FIFO nobody writes",
            setup: |r| vec!["--from".into(), fifo(r, "in.json"), "--json".into()],
            env: &[("GPU_DOCTOR_INPUT_IDLE_MS", b"300")],
            expect: &[],
            exit: &[3],
            within: s(15),
        },
        Case {
            name: "explain --file a FIFO nobody writes",
            setup: |r| {
                vec![
                    "explain".into(),
                    "--offline".into(),
                    "--file".into(),
                    fifo(r, "log"),
                ]
            },
            env: &[("GPU_DOCTOR_INPUT_IDLE_MS", b"300")],
            expect: &[],
            exit: &[3],
            within: s(15),
        },
        Case {
            name: "diagnose --collect-env a FIFO",
            setup: |r| {
                vec![
                    "diagnose".into(),
                    "--collect-env".into(),
                    fifo(r, "env.txt"),
                ]
            },
            env: &[("GPU_DOCTOR_INPUT_IDLE_MS", b"300")],
            expect: &[],
            exit: &[3],
            within: s(15),
        },
        Case {
            name: "diff of two FIFOs",
            setup: |r| vec!["diff".into(), fifo(r, "a.json"), fifo(r, "b.json")],
            env: &[("GPU_DOCTOR_INPUT_IDLE_MS", b"300")],
            expect: &[],
            exit: &[3],
            within: s(15),
        },
        Case {
            name: "--matrix folder holding a FIFO",
            setup: |r| {
                let dir = r.path("m");
                std::fs::create_dir_all(&dir).unwrap();
                let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("compat-matrix");
                for e in std::fs::read_dir(src).unwrap().flatten() {
                    if e.file_type().unwrap().is_file() {
                        std::fs::copy(e.path(), dir.join(e.file_name())).unwrap();
                    }
                }
                fifo(r, "m/gpus.toml");
                vec![
                    "--matrix".into(),
                    dir.display().to_string(),
                    "matrix".into(),
                    "validate".into(),
                ]
            },
            env: &[],
            expect: &[],
            exit: &[3],
            within: s(15),
        },
        Case {
            name: "explain: OSC 52 and C1 in the pasted text",
            setup: |_| {
                vec![
                    "explain".into(),
                    "--offline".into(),
                    format!("RuntimeError: CUDA error: no kernel image is available for execution on the device {ESC_TEXT}"),
                ]
            },
            env: &[],
            expect: &[],
            exit: &[0, 1, 2],
            within: s(15),
        },
        Case {
            name: "diff: escape sequences in every value",
            setup: |r| {
                let a = saved_report(r, "a.json", |_| {});
                let b = saved_report(r, "b.json", |v| {
                    v["facts"]["system"]["hostname"] =
                        serde_json::json!({"state": "known", "value": ESC_TEXT});
                    v["facts"]["system"]["kernel"] =
                        serde_json::json!({"state": "known", "value": ESC_TEXT});
                });
                vec!["diff".into(), a, b]
            },
            env: &[],
            expect: &[],
            exit: &[0, 1],
            within: s(15),
        },
        Case {
            name: "--from: a bad enum value with escapes in serde's error",
            setup: |r| {
                let p = saved_report(r, "bad.json", |v| {
                    v["facts"]["system"]["hostname"] = serde_json::json!({"state": ESC_TEXT});
                });
                vec!["--from".into(), p, "--plain".into()]
            },
            env: &[],
            expect: &[],
            exit: &[3],
            within: s(15),
        },
        Case {
            name: "diagnose: escape sequences in the OS and GPU names",
            setup: |r| {
                let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("tests/corpus/collect_env/005-a100-cu128-gcp.txt");
                let text = std::fs::read_to_string(src)
                    .unwrap()
                    .replace("Ubuntu 24.04.2 LTS", &format!("Ubuntu {ESC_TEXT}"))
                    .replace("NVIDIA A100-SXM4-40GB", &format!("NVIDIA A100{ESC_TEXT}"));
                r.file("collect_env.txt", &text);
                vec![
                    "diagnose".into(),
                    "--verbose".into(),
                    "--collect-env".into(),
                    r.path("collect_env.txt").display().to_string(),
                ]
            },
            env: &[],
            expect: &[],
            exit: &[0, 1, 2],
            within: s(15),
        },
        Case {
            name: "matrix show with a local matrix holding escape sequences",
            setup: |r| {
                let dir = r.path("m");
                std::fs::create_dir_all(&dir).unwrap();
                let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("compat-matrix");
                for e in std::fs::read_dir(src).unwrap().flatten() {
                    if e.file_type().unwrap().is_file() {
                        let text = std::fs::read_to_string(e.path()).unwrap().replace(
                            "architecture = \"Kepler\"",
                            "architecture = \"Kepler\\u001b]52;c;cm0gLXJmIH4=\\u0007\\u009b2J\"",
                        );
                        std::fs::write(dir.join(e.file_name()), text).unwrap();
                    }
                }
                vec![
                    "--matrix".into(),
                    dir.display().to_string(),
                    "matrix".into(),
                    "show".into(),
                    "--gpu".into(),
                    "GTX 650".into(),
                ]
            },
            env: &[],
            expect: &[],
            exit: &[0],
            within: s(15),
        },
        Case {
            name: "JSON report: C1 controls escaped",
            setup: |r| {
                r.file("etc/hostname", &format!("node{ESC_TEXT}\n"));
                r.file("proc/sys/kernel/hostname", &format!("node{ESC_TEXT}\n"));
                report_args(false)
            },
            env: &[],
            expect: &[],
            exit: &[0, 1, 2],
            within: s(30),
        },
    ]
}

fn raw_controls(bytes: &[u8]) -> Vec<char> {
    String::from_utf8_lossy(bytes)
        .chars()
        .filter(|c| c.is_control() && *c != '\n' && *c != '\t')
        .collect()
}

#[test]
fn hostile_table() {
    use std::os::unix::ffi::OsStrExt;
    let mut failures = Vec::new();
    for case in cases() {
        let root = full_machine();
        let args = (case.setup)(&root);
        let mut cmd = root.command();
        cmd.env("VIRTUAL_ENV", "/opt/venv")
            .env("PATH", "/opt/venv/bin:/usr/local/cuda/bin:/usr/bin:/bin")
            .args(&args)
            .timeout(case.within + Duration::from_secs(30));
        for (k, v) in case.env {
            cmd.env(k, std::ffi::OsStr::from_bytes(v));
        }
        let start = std::time::Instant::now();
        let out = cmd.output().unwrap();
        let took = start.elapsed();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let mut problems = Vec::new();
        if took > case.within {
            problems.push(format!("took {took:?} (limit {:?})", case.within));
        }
        match out.status.code() {
            Some(c) if case.exit.contains(&c) => {}
            other => problems.push(format!("exit {other:?}, expected one of {:?}", case.exit)),
        }
        if stderr.contains("panicked") {
            problems.push("panicked".into());
        }
        for (what, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
            let raw = raw_controls(bytes);
            if !raw.is_empty() {
                problems.push(format!("raw control characters on {what}: {raw:?}"));
            }
        }
        if !case.expect.is_empty() {
            match serde_json::from_slice::<serde_json::Value>(&out.stdout) {
                Ok(r) => {
                    let got = fixture_root::problems(&r);
                    for (id, sev) in case.expect {
                        if !got.iter().any(|(i, s)| i == id && s == sev) {
                            problems.push(format!("no {id} {sev} in {got:?}"));
                        }
                    }
                }
                Err(e) => problems.push(format!("not JSON: {e}")),
            }
        }
        if !problems.is_empty() {
            failures.push(format!(
                "{}: {}\n  stderr: {stderr:.400}",
                case.name,
                problems.join("; ")
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// A FIFO planted as libtorch_cuda.so: the arch list is a failed fact, and the matrix's
/// record of the build does not turn it into a pass.
#[test]
fn an_unreadable_libtorch_is_not_passed_on_the_record() {
    let root = full_machine();
    fifo(
        &root,
        "opt/venv/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so",
    );
    let out = root
        .command()
        .env("PATH", "/opt/venv/bin:/usr/local/cuda/bin:/usr/bin")
        .args(["--json", "--no-probes", "--python", "/opt/venv/bin/python"])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let env = r["facts"]["python"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["interpreter"] == "/opt/venv/bin/python")
        .unwrap();
    let arch = &env["torch"][0]["arch"];
    assert_eq!(arch["state"], "failed", "{arch}");
    assert!(arch["error"].as_str().unwrap().contains("FIFO"), "{arch}");
    for f in r["findings"].as_array().unwrap() {
        if fixture_root::failure_id(f) == "torch.arch_unsupported" {
            assert_ne!(f["severity"], "pass", "{f:#}");
        }
    }
}

/// Processes whose command line holds `marker`.
fn processes_with(marker: &str) -> Vec<u32> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if let Ok(cmd) = std::fs::read(e.path().join("cmdline")) {
            if String::from_utf8_lossy(&cmd).contains(marker) {
                out.push(pid);
            }
        }
    }
    out
}

fn wait_for(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let start = std::time::Instant::now();
    while !done() {
        assert!(start.elapsed() < limit, "{what}: not within {limit:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A hung nvcc (and the child it started) and a hung `--deep` interpreter do not outlive
/// the doctor: not on SIGTERM, not on Ctrl-C (SIGINT), and for the interpreter not on
/// SIGKILL of the doctor either (death signal).
#[test]
fn no_process_is_left_behind() {
    use std::os::unix::fs::PermissionsExt;
    for (signal, deep) in [
        ("TERM", false),
        ("INT", false),
        ("INT", true),
        ("KILL", true),
    ] {
        let root = full_machine();
        let marker = format!("gpu-doctor-hostile-{}-{signal}-{deep}", std::process::id());
        let script = if deep {
            // The interpreter itself hangs (exec: it is the doctor's direct child).
            format!("#!/bin/sh\nexec sh -c 'while :; do sleep 1; done' {marker}\n")
        } else {
            // nvcc hangs in a child of its own.
            format!("#!/bin/sh\nsh -c 'while :; do sleep 1; done' {marker}\n")
        };
        let (rel, args): (&str, Vec<&str>) = if deep {
            (
                "opt/venv/bin/python",
                vec![
                    "--plain",
                    "--no-probes",
                    "--python",
                    "/opt/venv/bin/python",
                    "--deep",
                ],
            )
        } else {
            std::fs::remove_file(root.path("usr/local/cuda-12.4/version.json")).unwrap();
            (
                "usr/local/cuda-12.4/bin/nvcc",
                vec!["--plain", "--no-probes"],
            )
        };
        root.file(rel, &script);
        std::fs::set_permissions(root.path(rel), std::fs::Permissions::from_mode(0o755)).unwrap();
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("gpu-doctor"))
            .env_clear()
            .env("GPU_DOCTOR_ROOT", root.root())
            .env("PATH", "/usr/bin:/bin")
            .env("HOME", "/root")
            .args(&args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        wait_for(&format!("{marker} starts"), Duration::from_secs(20), || {
            !processes_with(&marker).is_empty()
        });
        let status = std::process::Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let _ = child.wait();
        wait_for(
            &format!("{marker} ends after SIG{signal}"),
            Duration::from_secs(5),
            || processes_with(&marker).is_empty(),
        );
    }
}
