//! End to end: the verdicts and fixes of the real binary for the machines issue #12 names,
//! judged from saved reports (`--from`) whose facts are those machines. Each fix printed
//! must be one a person with that machine can run: a driver branch that still drives the
//! GPU and is supported, a torch build with kernels for the GPU whose CUDA the driver runs,
//! package names of the right CUDA major, paths that exist, nothing inside a container
//! that must happen on the host.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use assert_cmd::Command;
use serde_json::{json, Value};

const TEMPLATE: &str = include_str!("fixtures/reports/rtx5090_old_wheel.json");

/// A machine: one GPU (`name`, `cc`, PCI device id), driver `driver`, torch `torch`
/// (`cuda` None: a CPU-only build) whose arch list is the matrix's record of the build.
struct Machine {
    report: Value,
}

impl Machine {
    fn new(name: &str, cc: &str, pci: &str, driver: &str, torch: &str, cuda: Option<&str>) -> Self {
        let mut r: Value = serde_json::from_str(TEMPLATE).unwrap();
        let f = &mut r["facts"];
        f["kernel_module"]["version"]["value"] = json!(driver);
        let line = f["kernel_module"]["version_line"]["value"]
            .as_str()
            .unwrap()
            .replace("570.86.16", driver);
        f["kernel_module"]["version_line"]["value"] = json!(line);
        for file in f["driver_libs"]["files"].as_array_mut().unwrap() {
            let p = file["path"].as_str().unwrap().replace("570.86.16", driver);
            file["path"] = json!(p);
            file["version"] = json!(driver);
        }
        for k in ["nvml_soname", "cuda_soname"] {
            let p = f["driver_libs"][k]
                .as_str()
                .unwrap()
                .replace("570.86.16", driver);
            f["driver_libs"][k] = json!(p);
        }
        f["pci_gpus"]["value"][0]["device_id"] = json!(pci);
        let nvml = &mut f["driver_api"]["nvml"]["value"];
        nvml["driver_version"]["value"] = json!(driver);
        nvml["devices"]["value"][0]["name"]["value"] = json!(name);
        nvml["devices"]["value"][0]["compute_capability"]["value"] = json!(cc);
        let t = &mut f["python"][0]["torch"][0];
        t["version"]["value"] = json!(torch);
        t["cuda"]["value"] = json!(cuda);
        t["arch"] = json!({"state": "missing", "why": "read from the matrix in this test"});
        t["requires"] = json!([]);
        f["python"][0]["nvidia_wheels"] = json!([]);
        Machine { report: r }
    }

    /// The driver does not drive the GPU: nvidia-smi finds no devices, and CUDA none.
    fn not_enumerated(mut self) -> Self {
        let f = &mut self.report["facts"];
        f["driver_api"]["nvml"]["value"]["devices"]["value"] = json!([]);
        f["driver_api"]["cuda"]["value"]["device_count"]["value"] = json!(0);
        self
    }

    fn no_toolkit(mut self) -> Self {
        self.report["facts"]["toolkits"] = json!({
            "toolkits": [], "path_nvcc": null, "cuda_home": null, "usr_local_cuda": null
        });
        self
    }

    fn container(mut self) -> Self {
        self.report["facts"]["system"]["container"]["value"] = json!("docker");
        self
    }

    fn os(mut self, id: &str, version: &str) -> Self {
        self.report["facts"]["system"]["os_id"]["value"] = json!(id);
        self.report["facts"]["system"]["os_version"]["value"] = json!(version);
        self
    }

    /// The real binary's JSON report for this machine.
    fn judge(&self) -> (i32, Value) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("saved.json");
        std::fs::write(&path, serde_json::to_vec(&self.report).unwrap()).unwrap();
        let out = Command::cargo_bin("gpu-doctor")
            .unwrap()
            .env_remove("GPU_DOCTOR_ROOT")
            .env_remove("GPU_DOCTOR_MATRIX")
            .arg("--from")
            .arg(&path)
            .arg("--json")
            .output()
            .unwrap();
        let v: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stderr)));
        (out.status.code().unwrap(), v)
    }
}

fn finding<'a>(r: &'a Value, id: &str, severity: &str) -> &'a Value {
    r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == id && f["severity"] == severity)
        .unwrap_or_else(|| panic!("no {severity} {id} in {:#}", problems(r)))
}

fn problems(r: &Value) -> Value {
    Value::Array(
        r["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["severity"] == "fail" || f["severity"] == "warn")
            .cloned()
            .collect(),
    )
}

/// Text and commands of every fix in the report, one string each.
fn fixes(r: &Value) -> Vec<String> {
    r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f.get("fix"))
        .map(|fix| {
            let mut s = fix["text"].as_str().unwrap_or("").to_string();
            for c in fix["commands"].as_array().into_iter().flatten() {
                s.push('\n');
                s.push_str(c.as_str().unwrap());
            }
            s
        })
        .collect()
}

fn commands(f: &Value) -> Vec<String> {
    f["fix"]["commands"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| c.as_str().unwrap().to_string())
        .collect()
}

/// (major, minor) of the CUDA index URL in a pip command.
fn index_cuda(cmd: &str) -> Option<(u32, u32)> {
    let tag = cmd.split("/whl/cu").nth(1)?.split_whitespace().next()?;
    let (maj, min) = tag.split_at(tag.len().checked_sub(1)?);
    Some((maj.parse().ok()?, min.parse().ok()?))
}

/// No printed command is a comment, and every driver branch named is one the matrix
/// lists as supported at its date.
fn assert_runnable(r: &Value) {
    for f in r["findings"].as_array().unwrap() {
        for c in commands(f) {
            assert!(
                !c.trim_start().starts_with('#'),
                "a comment, not a command: {c}"
            );
        }
    }
    for fix in fixes(r) {
        for (i, _) in fix.match_indices("nvidia-driver-pinning-") {
            let branch: u32 = fix[i + 22..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
                .parse()
                .unwrap();
            assert!(
                [580, 595, 620].contains(&branch),
                "R{branch} is not a supported production/LTS branch of the matrix: {fix}"
            );
        }
    }
}

#[test]
fn gtx_1080_with_a_cu132_wheel_on_580_keeps_its_driver() {
    let m = Machine::new(
        "NVIDIA GeForce GTX 1080",
        "6.1",
        "1b80",
        "580.95.05",
        "2.12.0+cu132",
        Some("13.2"),
    );
    let (code, r) = m.judge();
    assert_eq!(code, 2);
    let arch = finding(&r, "torch.arch_unsupported", "fail");
    let mvc = finding(&r, "driver.minor_version_compat", "warn");
    for f in [arch, mvc] {
        let cmds = commands(f);
        assert_eq!(cmds.len(), 1, "{f:#}");
        let cuda = index_cuda(&cmds[0]).unwrap();
        // A build for a CUDA the R580 driver runs fully, with Pascal kernels.
        assert!(cuda < (13, 0), "{cmds:?}");
        assert!(
            cmds[0].contains("torch==2.12."),
            "the user's series: {cmds:?}"
        );
    }
    // R590 and later dropped Pascal: no fix may propose them.
    for fix in fixes(&r) {
        for bad in ["595", "R590", "R610", "R615", "R620", "pinning-6"] {
            assert!(!fix.contains(bad), "{bad} in {fix}");
        }
    }
    assert_runnable(&r);
}

#[test]
fn drivers_that_predate_the_gpu_fail() {
    for (name, cc, pci, driver, first) in [
        ("NVIDIA H100 80GB HBM3", "9.0", "2330", "470.256.02", "R515"),
        (
            "NVIDIA GeForce RTX 4090",
            "8.9",
            "2684",
            "510.108.03",
            "R520",
        ),
    ] {
        let m = Machine::new(name, cc, pci, driver, "2.4.1+cu121", Some("12.1")).not_enumerated();
        let (code, r) = m.judge();
        assert_eq!(code, 2);
        let f = finding(&r, "driver.gpu_unsupported", "fail");
        let summary = f["summary"].as_str().unwrap();
        assert!(
            summary.contains("too old") && summary.contains(first),
            "{summary}"
        );
        assert!(!commands(f).is_empty(), "{f:#}");
        assert_runnable(&r);
    }
    let out = Command::cargo_bin("gpu-doctor")
        .unwrap()
        .args(["matrix", "show", "--gpu", "H100 PCIe"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("any known branch"), "{text}");
    assert!(text.contains("R515 or newer"), "{text}");
}

#[test]
fn a_cuda_13_stack_gets_cuda_13_package_names() {
    let m = Machine::new(
        "NVIDIA H100 80GB HBM3",
        "9.0",
        "2330",
        "595.58.03",
        "2.12.0+cu132",
        Some("13.2"),
    );
    let (_, r) = m.judge();
    let f = finding(&r, "toolkit.torch_mismatch", "fail");
    let cmds = commands(f);
    assert!(
        cmds.contains(&"sudo apt install cuda-toolkit-13-2".to_string()),
        "{cmds:?}"
    );
    // The CUDA_HOME it points at is the folder that package creates.
    assert!(
        cmds.contains(&"export CUDA_HOME=/usr/local/cuda-13.2".to_string()),
        "{cmds:?}"
    );
    let (_, r) = m.no_toolkit().os("arch", "rolling").judge();
    let f = finding(&r, "toolkit.not_found", "info");
    let cmds = commands(f);
    assert_eq!(
        cmds,
        vec!["python3 -m pip install \"nvidia-cuda-nvcc==13.2.*\"".to_string()]
    );
    for fix in fixes(&r) {
        for bad in ["-cu12", "cuda-toolkit-12", "cu12\""] {
            assert!(!fix.contains(bad), "{bad} in {fix}");
        }
    }
}

#[test]
fn cpu_only_torch_on_an_rtx_5090_gets_a_build_with_sm_120() {
    let m = Machine::new(
        "NVIDIA GeForce RTX 5090",
        "12.0",
        "2b85",
        "580.95.05",
        "2.7.0+cpu",
        None,
    );
    let (_, r) = m.judge();
    let f = finding(&r, "torch.cpu_only", "fail");
    let cmds = commands(f);
    assert_eq!(cmds.len(), 1);
    let cuda = index_cuda(&cmds[0]).unwrap_or_else(|| panic!("no CUDA index in {cmds:?}"));
    assert!(cuda >= (12, 8), "sm_120 kernels start with cu128: {cmds:?}");
    assert!(
        cmds[0].contains("torch==2.7."),
        "the user's series: {cmds:?}"
    );
    assert!(cmds[0].contains("--force-reinstall"), "{cmds:?}");
}

#[test]
fn rtx_5090_on_r550_names_a_real_release_of_a_supported_branch() {
    let m = Machine::new(
        "NVIDIA GeForce RTX 5090",
        "12.0",
        "2b85",
        "550.54.15",
        "2.4.1+cu121",
        Some("12.1"),
    )
    .not_enumerated();
    let (_, r) = m.judge();
    let f = finding(&r, "driver.gpu_unsupported", "fail");
    let text = f["fix"]["text"].as_str().unwrap();
    assert!(!text.contains("570.0") && !text.contains("R570"), "{text}");
    assert!(
        text.contains("620.70.06") || text.contains("595.58.03") || text.contains("580.65.06"),
        "{text}"
    );
    assert_eq!(commands(f).last().map(String::as_str), Some("sudo reboot"));
    assert_runnable(&r);
}

#[test]
fn h100_on_r550_keeps_its_series_and_newest_cuda_that_works() {
    let m = Machine::new(
        "NVIDIA H100 80GB HBM3",
        "9.0",
        "2330",
        "550.54.15",
        "2.9.0+cu130",
        Some("13.0"),
    );
    let (_, r) = m.judge();
    let f = finding(&r, "driver.too_old_for_torch", "fail");
    let text = f["fix"]["text"].as_str().unwrap();
    let pip = text
        .split('`')
        .find(|s| s.contains("pip install"))
        .unwrap_or_else(|| panic!("no torch alternative in {text}"));
    assert!(pip.contains("torch==2.9."), "{pip}");
    let cuda = index_cuda(pip).unwrap();
    assert!(cuda > (11, 8) && cuda < (13, 0), "{pip}");
    // No CUDA_HOME for a folder that does not exist.
    for c in r["findings"].as_array().unwrap().iter().flat_map(commands) {
        if let Some(root) = c.strip_prefix("export CUDA_HOME=") {
            let tk = r["facts"]["toolkits"]["toolkits"].as_array().unwrap();
            let installed = tk.iter().any(|t| t["root"] == root);
            let installing = fixes(&r).iter().any(|x| {
                x.contains(&format!(
                    "cuda-toolkit-{}",
                    root.trim_start_matches("/usr/local/cuda-")
                        .replace('.', "-")
                ))
            });
            assert!(installed || installing, "CUDA_HOME={root} exists nowhere");
        }
    }
}

#[test]
fn inside_a_container_driver_fixes_are_for_the_host() {
    let m = Machine::new(
        "NVIDIA H100 80GB HBM3",
        "9.0",
        "2330",
        "470.256.02",
        "2.4.1+cu121",
        Some("12.1"),
    )
    .not_enumerated()
    .container();
    let (_, r) = m.judge();
    for id in [
        "driver.gpu_unsupported",
        "driver.too_old_for_torch",
        "driver.branch_eol",
    ] {
        let f = r["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["id"] == id && f["severity"] != "pass")
            .unwrap_or_else(|| panic!("no {id}"));
        let text = f["fix"]["text"].as_str().unwrap();
        assert!(text.contains("On the host"), "{id}: {text}");
        for c in commands(f) {
            assert!(
                !c.contains("reboot") && !c.contains("apt ") && !c.contains("dnf "),
                "{id}: {c}"
            );
        }
    }
}

#[test]
fn driver_upgrades_are_commands_for_the_distribution() {
    let base = || {
        Machine::new(
            "NVIDIA GeForce RTX 5090",
            "12.0",
            "2b85",
            "550.54.15",
            "2.4.1+cu121",
            Some("12.1"),
        )
        .not_enumerated()
    };
    let cases = [
        ("ubuntu", "22.04", "sudo apt install nvidia-driver-pinning-"),
        ("rocky", "9.4", "sudo dnf module enable nvidia-driver:"),
        ("rhel", "10.0", "sudo dnf versionlock add '*nvidia*"),
        ("fedora", "41", "sudo dnf versionlock add '*nvidia*"),
    ];
    for (id, version, first) in cases {
        let (_, r) = base().os(id, version).judge();
        let f = finding(&r, "driver.gpu_unsupported", "fail");
        let cmds = commands(f);
        assert!(cmds[0].starts_with(first), "{id}: {cmds:?}");
        assert!(
            cmds.iter().any(|c| c.ends_with("install nvidia-open")),
            "{id}: {cmds:?}"
        );
        assert_runnable(&r);
    }
}

fn show(args: &[&str]) -> String {
    let out = Command::cargo_bin("gpu-doctor")
        .unwrap()
        .env_remove("GPU_DOCTOR_MATRIX")
        .args(["matrix", "show"])
        .args(args)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn matrix_corrections_from_the_audit() {
    // Fermi chips and an HDMI audio function are not the Kepler/Maxwell products.
    for (id, not) in [("124b", "GT 640"), ("104d", "GT 710"), ("0fbc", "940MX")] {
        let text = show(&["--gpu", id]);
        assert!(!text.contains(not), "10de:{id} is not the {not}: {text}");
    }
    let b200 = show(&["--gpu", "2909"]);
    assert!(b200.starts_with("NVIDIA HGX B200 168GB"), "{b200}");
    // Kepler: R470 is the last branch, and cuDNN 9 needs compute capability 5.0.
    let k80 = show(&["--gpu", "Tesla K80"]);
    assert!(k80.contains("up to R470"), "{k80}");
    assert!(!k80.contains("torch 2.7"), "{k80}");
    assert!(!k80.contains("520.61.05"), "{k80}");
    // R620: the LTS branch of 2026-11; R535's end of life has passed and the text says so.
    let r620 = show(&["--driver", "620.70.06"]);
    assert!(
        r620.contains("R620, lts") && r620.contains("2029-09"),
        "{r620}"
    );
    let r535 = show(&["--driver", "535.183.01"]);
    assert!(r535.contains("2026-06 (passed"), "{r535}");
}
