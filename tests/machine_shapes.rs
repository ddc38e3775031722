//! End to end: the real binary on fixture roots laid out like real machines of each shape
//! (bare metal Ubuntu and RHEL, WSL2, Docker with the legacy hook and with CDI, a container
//! started without GPUs, a Kubernetes pod, Jetson, Grace Hopper, MIG, a vGPU guest, a
//! cloud VM with passthrough, a gVisor sandbox), with the fake driver libraries answering
//! as that machine's driver would. Each asserts the verdict and fixes a person with that
//! machine would agree with. Where each layout comes from: tests/fixture_root/SHAPES.md.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "common/broken_driver.rs"]
mod broken_driver;
#[path = "common/fake_driver.rs"]
mod fake_driver;
mod fixture_root;

use std::path::Path;

use fixture_root::{finding, json_report, problems, FixtureRoot};

const UBUNTU: &str = "PRETTY_NAME=\"Ubuntu 22.04.4 LTS\"\nNAME=\"Ubuntu\"\nVERSION_ID=\"22.04\"\nID=ubuntu\nID_LIKE=debian\n";
const RHEL: &str = "NAME=\"Red Hat Enterprise Linux\"\nVERSION=\"9.4 (Plow)\"\nID=\"rhel\"\nID_LIKE=\"fedora\"\nVERSION_ID=\"9.4\"\nPRETTY_NAME=\"Red Hat Enterprise Linux 9.4 (Plow)\"\n";
const HOST_CGROUP: &str = "0::/user.slice/user-1000.slice/session-3.scope\n";

const RTX4090: &str = "NVIDIA GeForce RTX 4090,8.9,25757220864,00000000:01:00.0";
const H100: &str = "NVIDIA H100 80GB HBM3,9.0,85520809984,00000000:18:00.0";

/// Commands that change the kernel driver or boot: never to be printed to be run inside
/// a container or WSL2.
const HOST_ONLY: &[&str] = &[
    "modprobe",
    "rmmod",
    "reboot",
    "dkms",
    "mokutil",
    "ubuntu-drivers",
    "update-initramfs",
    "dracut",
    "nvidia-driver",
    "nvidia-open",
    "akmod-nvidia",
    "cuda-drivers",
];

struct Run<'a> {
    root: &'a FixtureRoot,
    lib_dir: Option<&'a Path>,
    env: Vec<(&'a str, String)>,
}

impl<'a> Run<'a> {
    fn new(root: &'a FixtureRoot) -> Self {
        Run {
            root,
            lib_dir: Some(&fake_driver::fake_driver().current),
            env: Vec::new(),
        }
    }
    fn libs(mut self, dir: Option<&'a Path>) -> Self {
        self.lib_dir = dir;
        self
    }
    fn var(mut self, k: &'a str, v: impl Into<String>) -> Self {
        self.env.push((k, v.into()));
        self
    }
    fn report(self) -> (i32, serde_json::Value) {
        let mut cmd = self.root.command();
        if let Some(d) = self.lib_dir {
            cmd.env("GPU_DOCTOR_DRIVER_LIB_DIR", d);
        }
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        let (code, r) = json_report(&mut cmd);
        // Shown with --nocapture: what each shape's verdict is made of.
        eprintln!("exit {code}: {:?}", problems(&r));
        (code, r)
    }
}

fn failures(r: &serde_json::Value) -> Vec<String> {
    problems(r)
        .into_iter()
        .filter(|(_, s)| s == "fail")
        .map(|(i, _)| i)
        .collect()
}

fn severity<'a>(r: &'a serde_json::Value, id: &str) -> &'a str {
    finding(r, id)["severity"].as_str().unwrap_or("")
}

fn all_commands(r: &serde_json::Value) -> Vec<String> {
    r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| f["fix"]["commands"].as_array().cloned().unwrap_or_default())
        .filter_map(|c| c.as_str().map(str::to_string))
        .collect()
}

fn assert_no_host_only_commands(r: &serde_json::Value) {
    for c in all_commands(r) {
        for w in HOST_ONLY {
            assert!(
                !c.contains(w),
                "command {c:?} must be run on the host or in Windows, not here: {:#}",
                r["findings"]
            );
        }
    }
}

fn ids(r: &serde_json::Value) -> Vec<String> {
    r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(fixture_root::failure_id)
        .collect()
}

// ---- shapes ------------------------------------------------------------------------

/// Ubuntu 22.04 workstation: RTX 4090 bound to nvidia, open module 550.54.15, libraries
/// in the multiarch folder.
fn ubuntu_bare_metal() -> FixtureRoot {
    let root = FixtureRoot::ubuntu();
    root.file("proc/self/cgroup", HOST_CGROUP);
    root.gpu(Some("nvidia"))
        .kernel_module("550.54.15")
        .user_space("550.54.15")
        .device_nodes(1);
    root
}

/// RHEL 9.4 server: libraries in /usr/lib64 (Red Hat's libdir; NVIDIA's RPMs and the
/// .run installer both use it on RHEL), H100 at 0000:18:00.0.
fn rhel_bare_metal(module: bool) -> FixtureRoot {
    let root = FixtureRoot::bare();
    root.os_release(RHEL)
        .kernel("5.14.0-427.13.1.el9_4.x86_64")
        .file("proc/self/cgroup", HOST_CGROUP)
        .file("proc/modules", "xfs 2654208 2 - Live 0x0000000000000000\n")
        .pci(
            "0000:18:00.0",
            "0x10de",
            "0x2330",
            "0x030200",
            Some("nvidia"),
        )
        .libs_in("usr/lib64", "550.90.07");
    if module {
        root.module_line("Open Kernel Module for x86_64", "550.90.07")
            .device_nodes(1);
    }
    root
}

/// WSL2 (Windows 11, Ubuntu 22.04 distribution): the Windows driver's libraries appear in
/// /usr/lib/wsl/lib (plain files, not links), listed by /etc/ld.so.conf.d/ld.wsl.conf;
/// the GPU is reached through /dev/dxg; no NVIDIA module, no /proc/driver/nvidia, no
/// /dev/nvidia*; the PCI bus shows Hyper-V's "Microsoft Basic Render Driver" (1414:008e),
/// not the NVIDIA GPU.
fn wsl2() -> FixtureRoot {
    let root = FixtureRoot::bare();
    root.os_release(UBUNTU)
        .kernel("5.15.167.4-microsoft-standard-WSL2")
        .file("proc/self/cgroup", "0::/\n")
        .file("proc/modules", "")
        .file(
            "etc/ld.so.conf.d/ld.wsl.conf",
            "# This file was automatically generated by WSL.\n/usr/lib/wsl/lib\n",
        )
        .pci(
            "a2f6:00:00.0",
            "0x1414",
            "0x008e",
            "0x030200",
            Some("dxgkrnl"),
        );
    for f in [
        "libcuda.so",
        "libcuda.so.1",
        "libcuda.so.1.1",
        "libnvidia-ml.so.1",
        "libnvcuvid.so.1",
        "libnvidia-encode.so.1",
        "libd3d12.so",
        "libdxcore.so",
        "nvidia-smi",
    ] {
        root.file(&format!("usr/lib/wsl/lib/{f}"), "");
    }
    root.nodes(&["dxg"]);
    root
}

fn wsl_run(root: &FixtureRoot) -> Run<'_> {
    Run::new(root)
        .var("WSL_DISTRO_NAME", "Ubuntu-22.04")
        .var("WSL_INTEROP", "/run/WSL/1234_interop")
        .var(
            "FAKE_NVML_GPUS",
            "NVIDIA GeForce RTX 4070 Laptop GPU,8.9,8585740288,00000000:01:00.0",
        )
        .var("FAKE_NVML_DRIVER_VERSION", "566.36")
        .var("FAKE_NVML_CUDA_VERSION", "12070")
        .var("FAKE_CUDA_DRIVER_VERSION", "12070")
}

/// A Docker container started with `--gpus device=0` on a two-GPU host (legacy
/// nvidia-container-runtime-hook): the hook mounts the driver's libraries into the
/// image's multiarch folder and the nodes of the one GPU; /proc/driver/nvidia and
/// /proc/modules are the host's; sysfs is the host's, so both GPUs are on the PCI bus.
fn docker_legacy(gpus_given: usize) -> FixtureRoot {
    let root = FixtureRoot::ubuntu();
    root.docker()
        .file("proc/self/cgroup", "0::/\n")
        .gpu(Some("nvidia"))
        .pci(
            "0000:02:00.0",
            "0x10de",
            "0x2684",
            "0x030000",
            Some("nvidia"),
        )
        .kernel_module("550.54.15");
    if gpus_given > 0 {
        root.user_space("550.54.15")
            .nodes(&["nvidiactl", "nvidia-uvm", "nvidia-uvm-tools"]);
        for i in 0..gpus_given {
            root.nodes(&[&format!("nvidia{i}")]);
        }
    }
    root
}

/// Podman with CDI (`--device nvidia.com/gpu=all`, spec from `nvidia-ctk cdi generate`):
/// /run/.containerenv, container=podman, NVIDIA_VISIBLE_DEVICES=void (set by the spec),
/// the libraries bind-mounted at their host paths (RHEL host: /usr/lib64) and registered
/// by the update-ldcache hook.
fn podman_cdi() -> FixtureRoot {
    let root = FixtureRoot::bare();
    root.os_release(RHEL)
        .kernel("5.14.0-427.13.1.el9_4.x86_64")
        .file("run/.containerenv", "engine=\"podman-4.9.4-rhel\"\n")
        .file("proc/self/cgroup", "0::/\n")
        .pci(
            "0000:18:00.0",
            "0x10de",
            "0x2330",
            "0x030200",
            Some("nvidia"),
        )
        .libs_in("usr/lib64", "550.90.07")
        .module_line("Open Kernel Module for x86_64", "550.90.07")
        .nodes(&[
            "nvidiactl",
            "nvidia-uvm",
            "nvidia-uvm-tools",
            "nvidia-modeset",
            "nvidia0",
        ]);
    root
}

/// A pod given one of eight GPUs by the NVIDIA device plugin: the node's sysfs shows all
/// eight H100s, the runtime gives /dev/nvidia3 only, NVIDIA_VISIBLE_DEVICES holds the
/// GPU's UUID, and the service account and KUBERNETES_* variables are set.
fn k8s_pod() -> FixtureRoot {
    let root = FixtureRoot::ubuntu();
    root.file("proc/self/cgroup", "0::/\n")
        .file(
            "var/run/secrets/kubernetes.io/serviceaccount/namespace",
            "ml\n",
        )
        .kernel_module("550.90.07")
        .user_space("550.90.07")
        .nodes(&["nvidiactl", "nvidia-uvm", "nvidia-uvm-tools", "nvidia3"]);
    for bus in ["18", "2a", "3a", "5d", "9a", "ab", "ba", "db"] {
        root.pci(
            &format!("0000:{bus}:00.0"),
            "0x10de",
            "0x2330",
            "0x030200",
            Some("nvidia"),
        );
    }
    root
}

/// Jetson AGX Orin, JetPack 5 (L4T R35): the integrated GPU has no PCI function (only
/// the SoC's PCIe root ports, class 0604, appear), nvgpu is the driver, CUDA's libcuda
/// lives in /usr/lib/aarch64-linux-gnu/tegra (listed by nvidia-tegra.conf), there is no
/// NVML library, no /proc/driver/nvidia and no /dev/nvidia*; /dev/nvhost-* and /dev/nvmap
/// are the GPU's nodes.
fn jetson_orin() -> FixtureRoot {
    let root = FixtureRoot::bare();
    root.os_release(UBUNTU)
        .kernel("5.10.120-tegra")
        .file("proc/self/cgroup", HOST_CGROUP)
        .file("proc/modules", "nvgpu 2527232 20 - Live 0x0000000000000000\nnvmap 229376 80 nvgpu, Live 0x0000000000000000\n")
        .file("etc/nv_tegra_release", "# R35 (release), REVISION: 5.0, GCID: 35550185, BOARD: t186ref, EABI: aarch64, DATE: Tue Feb 20 04:46:31 UTC 2024\n")
        .file("proc/device-tree/compatible", "nvidia,p3737-0000+p3701-0005\0nvidia,p3701-0005\0nvidia,tegra234\0")
        .file("etc/ld.so.conf.d/nvidia-tegra.conf", "/usr/lib/aarch64-linux-gnu/tegra\n/usr/lib/aarch64-linux-gnu/tegra-egl\n")
        .file("usr/lib/aarch64-linux-gnu/tegra/libcuda.so.1.1", "")
        .symlink("usr/lib/aarch64-linux-gnu/tegra/libcuda.so.1", "libcuda.so.1.1")
        .symlink("usr/lib/aarch64-linux-gnu/tegra/libcuda.so", "libcuda.so.1.1")
        .pci("0001:00:00.0", "0x10de", "0x229e", "0x060400", Some("pcieport"))
        .nodes(&["nvhost-ctrl-gpu", "nvhost-gpu", "nvhost-as-gpu", "nvmap"]);
    root
}

/// Grace Hopper GH200 (aarch64 server, SBSA): the GPU is an ordinary PCI function in
/// domain 0009, the open kernel module (required for Grace Hopper) for aarch64, the
/// libraries in /usr/lib/aarch64-linux-gnu (listed by aarch64-linux-gnu.conf).
fn grace_hopper() -> FixtureRoot {
    let root = FixtureRoot::bare();
    root.os_release(UBUNTU)
        .kernel("6.8.0-1013-nvidia-64k")
        .file("proc/self/cgroup", HOST_CGROUP)
        .file("etc/ld.so.conf.d/aarch64-linux-gnu.conf", "# Multiarch support\n/usr/local/lib/aarch64-linux-gnu\n/lib/aarch64-linux-gnu\n/usr/lib/aarch64-linux-gnu\n")
        .pci("0009:01:00.0", "0x10de", "0x2342", "0x030200", Some("nvidia"))
        .libs_in("usr/lib/aarch64-linux-gnu", "550.90.07")
        .module_line("Open Kernel Module for aarch64", "550.90.07")
        .device_nodes(1);
    root
}

/// A vGPU guest (VMware/KVM with an NVIDIA C-series profile): the guest sees a PCI
/// function of the physical GPU's id with NVIDIA's vGPU subsystem, runs the proprietary
/// GRID guest driver, and NVML names the profile ("NVIDIA A100-40C").
fn vgpu_guest() -> FixtureRoot {
    let root = FixtureRoot::ubuntu();
    root.file("proc/self/cgroup", HOST_CGROUP)
        .file("sys/class/dmi/id/sys_vendor", "VMware, Inc.\n")
        .pci(
            "0000:02:00.0",
            "0x10de",
            "0x20b0",
            "0x030200",
            Some("nvidia"),
        )
        .module_line("Kernel Module for x86_64", "550.90.07")
        .user_space("550.90.07")
        .device_nodes(1);
    root
}

/// A cloud VM with a passed-through GPU (AWS g5: A10G at 0000:00:1e.0 behind the Nitro
/// hypervisor), Ubuntu with NVIDIA's driver.
fn cloud_passthrough() -> FixtureRoot {
    let root = FixtureRoot::ubuntu();
    root.file("proc/self/cgroup", HOST_CGROUP)
        .file("sys/class/dmi/id/sys_vendor", "Amazon EC2\n")
        .file("sys/class/dmi/id/product_name", "g5.xlarge\n")
        .pci(
            "0000:00:1e.0",
            "0x10de",
            "0x2237",
            "0x030200",
            Some("nvidia"),
        )
        .kernel_module("550.90.07")
        .user_space("550.90.07")
        .device_nodes(1);
    root
}

/// gVisor (runsc with nvproxy) or a similar sandbox: its own /proc has no
/// /proc/driver/nvidia and no /proc/modules entries, sysfs has no PCI bus, but the
/// device nodes and the driver's libraries are there and NVML works.
fn gvisor_sandbox() -> FixtureRoot {
    let root = FixtureRoot::bare();
    root.os_release(UBUNTU)
        .kernel("4.4.0")
        .docker()
        .file("proc/self/cgroup", "0::/\n")
        .user_space("550.54.15")
        .device_nodes(1);
    root
}

// ---- tests -------------------------------------------------------------------------

#[test]
fn ubuntu_bare_metal_is_healthy() {
    let root = ubuntu_bare_metal();
    let (code, r) = Run::new(&root).var("FAKE_NVML_GPUS", RTX4090).report();
    assert!(failures(&r).is_empty(), "{:?}", problems(&r));
    assert_eq!(severity(&r, "driver.module_not_loaded"), "pass");
    assert_eq!(severity(&r, "gpu.missing"), "pass");
    assert!(code <= 1, "{:?}", problems(&r));
}

#[test]
fn rhel_bare_metal_is_healthy_and_its_fixes_use_dnf() {
    let root = rhel_bare_metal(true);
    let (code, r) = Run::new(&root)
        .var("FAKE_NVML_GPUS", H100)
        .var("FAKE_NVML_DRIVER_VERSION", "550.90.07")
        .report();
    assert!(failures(&r).is_empty(), "{:?}", problems(&r));
    assert!(code <= 1);
    // The same machine before the module loads: bare metal, so modprobe is the fix.
    let root = rhel_bare_metal(false);
    let (code, r) = Run::new(&root)
        .var("FAKE_NVML_GPUS", H100)
        .var("FAKE_NVML_INIT", "9")
        .var("FAKE_CUDA_INIT", "100")
        .report();
    assert_eq!(code, 2);
    assert!(
        failures(&r).contains(&"driver.module_not_loaded".to_string()),
        "{:?}",
        problems(&r)
    );
    let cmds = all_commands(&r);
    assert!(cmds.iter().any(|c| c == "sudo modprobe nvidia"), "{cmds:?}");
    // One cause, one failure: cuInit's "no device" is the module's absence.
    assert_eq!(failures(&r), vec!["driver.module_not_loaded".to_string()]);
    assert!(
        !cmds
            .iter()
            .any(|c| c.contains("apt") || c.contains("ubuntu-drivers")),
        "{cmds:?}"
    );
}

/// Issue #12's first example: a working WSL2 machine must not fail for want of a Linux
/// kernel module, and nothing may tell it to modprobe, use DKMS or Secure Boot.
#[test]
fn working_wsl2_passes_without_a_kernel_module() {
    let root = wsl2();
    let (code, r) = wsl_run(&root).report();
    assert!(failures(&r).is_empty(), "{:?}", problems(&r));
    assert!(code <= 1, "{:?}", problems(&r));
    assert_eq!(severity(&r, "driver.not_installed"), "pass");
    assert_eq!(severity(&r, "driver.module_not_loaded"), "pass");
    assert!(finding(&r, "driver.module_not_loaded")["summary"]
        .as_str()
        .unwrap()
        .contains("WSL2"));
    assert_eq!(severity(&r, "host.no_nvidia_gpu"), "pass");
    assert_no_host_only_commands(&r);
    let text = serde_json::to_string(&r["findings"]).unwrap();
    assert!(
        !text.contains("mokutil") && !text.contains("Secure Boot"),
        "{text}"
    );
}

#[test]
fn broken_wsl2_driver_is_fixed_in_windows() {
    let root = wsl2();
    let (code, r) = wsl_run(&root).var("FAKE_CUDA_INIT", "999").report();
    assert_eq!(code, 2, "{:?}", problems(&r));
    assert_eq!(failures(&r), vec!["driver.uvm_unavailable".to_string()]);
    let f = finding(&r, "driver.uvm_unavailable");
    assert!(f["summary"].as_str().unwrap().contains("WSL2"), "{f:#}");
    let fix = &f["fix"];
    assert!(fix["text"].as_str().unwrap().contains("Windows"), "{fix:#}");
    // WSL2 has no nvidia_uvm module: nothing may suggest loading one.
    assert!(
        !serde_json::to_string(f).unwrap().contains("modprobe"),
        "{f:#}"
    );
    assert_no_host_only_commands(&r);
    assert!(all_commands(&r).contains(&"wsl.exe --shutdown".to_string()));
}

#[test]
fn wsl2_without_the_windows_driver_says_to_install_it_in_windows() {
    let root = FixtureRoot::bare();
    root.os_release(UBUNTU)
        .kernel("5.15.167.4-microsoft-standard-WSL2")
        .file("proc/self/cgroup", "0::/\n")
        .nodes(&["dxg"]);
    let (code, r) = Run::new(&root)
        .libs(None)
        .var("WSL_DISTRO_NAME", "Ubuntu")
        .report();
    assert_eq!(code, 2, "{:?}", problems(&r));
    assert_eq!(
        failures(&r),
        vec!["driver.not_installed".to_string()],
        "{:?}",
        problems(&r)
    );
    let f = finding(&r, "driver.not_installed");
    assert!(f["fix"]["text"].as_str().unwrap().contains("Windows"));
    assert_no_host_only_commands(&r);
}

/// Issue #12: "/proc/driver/nvidia not visible while NVML works (gVisor, sandboxes)".
#[test]
fn sandbox_hiding_proc_driver_nvidia_is_not_a_failure() {
    let root = gvisor_sandbox();
    let (code, r) = Run::new(&root).var("FAKE_NVML_GPUS", RTX4090).report();
    assert!(failures(&r).is_empty(), "{:?}", problems(&r));
    assert!(code <= 1, "{:?}", problems(&r));
    let f = finding(&r, "driver.module_not_loaded");
    assert_eq!(f["severity"], "info");
    assert!(
        f["summary"]
            .as_str()
            .unwrap()
            .contains("NVML works although /proc/driver/nvidia is absent"),
        "{f:#}"
    );
    assert!(f["fix"].is_null(), "{f:#}");
    assert_no_host_only_commands(&r);
}

#[test]
fn docker_legacy_hook_with_one_of_two_gpus_is_healthy() {
    let root = docker_legacy(1);
    let (code, r) = Run::new(&root)
        .var("FAKE_NVML_GPUS", RTX4090)
        .var("NVIDIA_VISIBLE_DEVICES", "0")
        .var("NVIDIA_DRIVER_CAPABILITIES", "compute,utility")
        .report();
    // The host's second GPU on the PCI bus is not this container's: no gpu.missing.
    assert!(failures(&r).is_empty(), "{:?}", problems(&r));
    assert_eq!(severity(&r, "gpu.missing"), "pass");
    assert_eq!(severity(&r, "driver.device_nodes"), "pass");
    assert_eq!(severity(&r, "host.container_no_gpu"), "pass");
    assert!(code <= 1, "{:?}", problems(&r));
}

#[test]
fn driver_faults_inside_a_container_are_fixed_on_the_host() {
    let root = docker_legacy(1);
    let (code, r) = Run::new(&root)
        .var("FAKE_NVML_GPUS", RTX4090)
        .var("FAKE_CUDA_INIT", "999")
        .report();
    assert_eq!(code, 2);
    let fix = &finding(&r, "driver.uvm_unavailable")["fix"];
    assert!(
        fix["text"].as_str().unwrap().contains("On the host"),
        "{fix:#}"
    );
    // What to run on the host is said, labelled as such, outside the command list.
    assert!(
        fix["text"]
            .as_str()
            .unwrap()
            .contains("Commands for the host: `sudo modprobe nvidia_uvm`"),
        "{fix:#}"
    );
    assert_no_host_only_commands(&r);
    // A library mismatch needs a reboot: of the host.
    let (_, r) = Run::new(&root)
        .var("FAKE_NVML_GPUS", RTX4090)
        .var("FAKE_NVML_INIT", "18")
        .report();
    assert!(
        failures(&r).contains(&"driver.library_mismatch".to_string()),
        "{:?}",
        problems(&r)
    );
    assert!(finding(&r, "driver.library_mismatch")["fix"]["text"]
        .as_str()
        .unwrap()
        .contains("On the host"));
    assert_no_host_only_commands(&r);
}

#[test]
fn podman_cdi_is_healthy() {
    let root = podman_cdi();
    let (code, r) = Run::new(&root)
        .var("container", "podman")
        .var("NVIDIA_VISIBLE_DEVICES", "void")
        .var("FAKE_NVML_GPUS", H100)
        .var("FAKE_NVML_DRIVER_VERSION", "550.90.07")
        .report();
    assert!(failures(&r).is_empty(), "{:?}", problems(&r));
    assert_eq!(severity(&r, "host.container_no_gpu"), "pass");
    assert!(code <= 1, "{:?}", problems(&r));
}

#[test]
fn container_started_without_gpus_says_how_to_start_it() {
    let root = docker_legacy(0);
    // nvidia/cuda images set NVIDIA_VISIBLE_DEVICES=all in their own ENV.
    let (code, r) = Run::new(&root)
        .libs(None)
        .var("NVIDIA_VISIBLE_DEVICES", "all")
        .report();
    assert_eq!(code, 2);
    assert_eq!(
        failures(&r),
        vec!["host.container_no_gpu".to_string()],
        "{:?}",
        problems(&r)
    );
    let cmds = all_commands(&r);
    assert!(cmds.iter().any(|c| c.contains("--gpus all")), "{cmds:?}");
    let details = finding(&r, "host.container_no_gpu")["details"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        details.contains("NVIDIA_VISIBLE_DEVICES=all asks for GPUs"),
        "{details}"
    );
    assert_no_host_only_commands(&r);
    assert!(
        !ids(&r).contains(&"driver.module_not_loaded".to_string())
            || severity(&r, "driver.module_not_loaded") == "pass"
    );
}

#[test]
fn kubernetes_pod_with_one_of_eight_gpus_is_healthy() {
    let root = k8s_pod();
    let (code, r) = Run::new(&root)
        .var("KUBERNETES_SERVICE_HOST", "10.96.0.1")
        .var("KUBERNETES_SERVICE_PORT", "443")
        .var("NVIDIA_VISIBLE_DEVICES", "GPU-8b1e6e6a-3f1c-4c1e-9d51-1f1f1f1f1f1f")
        .var("FAKE_NVML_GPUS", "NVIDIA H100 80GB HBM3,9.0,85520809984,00000000:5D:00.0,GPU-8b1e6e6a-3f1c-4c1e-9d51-1f1f1f1f1f1f")
        .var("FAKE_NVML_DRIVER_VERSION", "550.90.07")
        .report();
    assert!(failures(&r).is_empty(), "{:?}", problems(&r));
    assert_eq!(severity(&r, "driver.device_nodes"), "pass");
    assert_eq!(severity(&r, "gpu.missing"), "pass");
    assert!(finding(&r, "host.container_no_gpu")["summary"]
        .as_str()
        .unwrap()
        .contains("kubernetes"));
    assert!(code <= 1, "{:?}", problems(&r));
}

#[test]
fn kubernetes_pod_without_a_gpu_request_points_to_the_pod_spec() {
    let root = FixtureRoot::ubuntu();
    root.file("proc/self/cgroup", "0::/\n")
        .kernel_module("550.90.07");
    root.pci(
        "0000:18:00.0",
        "0x10de",
        "0x2330",
        "0x030200",
        Some("nvidia"),
    );
    let (code, r) = Run::new(&root)
        .libs(None)
        .var("KUBERNETES_SERVICE_HOST", "10.96.0.1")
        .report();
    assert_eq!(code, 2);
    let f = finding(&r, "host.container_no_gpu");
    assert_eq!(f["severity"], "fail");
    assert!(
        f["fix"]["text"]
            .as_str()
            .unwrap()
            .contains("nvidia.com/gpu"),
        "{f:#}"
    );
    assert_no_host_only_commands(&r);
}

#[test]
fn jetson_without_nvml_is_healthy() {
    let root = jetson_orin();
    let drivers = broken_driver::broken_drivers(&fake_driver::fake_driver().current);
    let (code, r) = Run::new(&root)
        .libs(Some(&drivers.cuda_only))
        .var(
            "FAKE_CUDA_GPUS",
            "Orin,8.7,32212254720,00000000:00:00.0,GPU-00000000-0000-0000-0000-000000000000",
        )
        .var("FAKE_CUDA_DRIVER_VERSION", "12020")
        .report();
    assert!(failures(&r).is_empty(), "{:?}", problems(&r));
    assert_eq!(severity(&r, "host.no_nvidia_gpu"), "pass");
    assert_eq!(severity(&r, "driver.module_not_loaded"), "pass");
    assert!(finding(&r, "driver.module_not_loaded")["summary"]
        .as_str()
        .unwrap()
        .contains("nvgpu"));
    assert!(code <= 1, "{:?}", problems(&r));
    assert!(!all_commands(&r)
        .iter()
        .any(|c| c.contains("modprobe nvidia")));
}

#[test]
fn grace_hopper_is_healthy() {
    let root = grace_hopper();
    let (code, r) = Run::new(&root)
        .var(
            "FAKE_NVML_GPUS",
            "NVIDIA GH200 120GB,9.0,102625181696,00000009:01:00.0",
        )
        .var("FAKE_NVML_DRIVER_VERSION", "550.90.07")
        .report();
    assert!(failures(&r).is_empty(), "{:?}", problems(&r));
    assert_eq!(severity(&r, "gpu.missing"), "pass");
    assert!(code <= 1, "{:?}", problems(&r));
}

#[test]
fn mig_enabled_gpu_is_not_a_missing_gpu() {
    let root = ubuntu_bare_metal();
    let (code, r) = Run::new(&root)
        .var("FAKE_NVML_GPUS", "NVIDIA H100 80GB HBM3,9.0,85520809984,00000000:01:00.0")
        .var("FAKE_NVML_GPU0_MIG", "1,1")
        .var("FAKE_NVML_GPU0_MIG_INSTANCES", "2")
        .var("FAKE_CUDA_DEVICES", "2")
        .var("FAKE_CUDA_GPUS", "NVIDIA H100 80GB HBM3 MIG 1g.10gb,9.0,10737418240,00000000:01:00.0;NVIDIA H100 80GB HBM3 MIG 1g.10gb,9.0,10737418240,00000000:01:00.0")
        .report();
    assert!(
        !failures(&r).contains(&"gpu.missing".to_string()),
        "{:?}",
        problems(&r)
    );
    assert!(ids(&r).contains(&"gpu.mig_enabled".to_string()));
    assert!(code <= 1, "{:?}", problems(&r));
}

#[test]
fn vgpu_guest_is_healthy() {
    let root = vgpu_guest();
    let (code, r) = Run::new(&root)
        .var(
            "FAKE_NVML_GPUS",
            "NVIDIA A100-40C,8.0,42949672960,00000000:02:00.0",
        )
        .var("FAKE_NVML_DRIVER_VERSION", "550.90.07")
        .report();
    assert!(failures(&r).is_empty(), "{:?}", problems(&r));
    assert!(code <= 1, "{:?}", problems(&r));
}

#[test]
fn cloud_vm_with_passthrough_is_healthy() {
    let root = cloud_passthrough();
    let (code, r) = Run::new(&root)
        .var(
            "FAKE_NVML_GPUS",
            "NVIDIA A10G,8.6,24146608128,00000000:00:1E.0",
        )
        .var("FAKE_NVML_DRIVER_VERSION", "550.90.07")
        .report();
    assert!(failures(&r).is_empty(), "{:?}", problems(&r));
    assert_eq!(severity(&r, "gpu.missing"), "pass");
    assert!(code <= 1, "{:?}", problems(&r));
}

#[test]
fn a_dropped_gpu_on_bare_metal_is_missing() {
    // Two GPUs on the bus bound to nvidia; NVML and CUDA see one (Xid 79 on the other).
    let root = ubuntu_bare_metal();
    root.pci(
        "0000:02:00.0",
        "0x10de",
        "0x2684",
        "0x030000",
        Some("nvidia"),
    );
    let (code, r) = Run::new(&root).var("FAKE_NVML_GPUS", RTX4090).report();
    assert_eq!(code, 2);
    assert_eq!(
        failures(&r),
        vec!["gpu.missing".to_string()],
        "{:?}",
        problems(&r)
    );
    let f = finding(&r, "gpu.missing");
    assert!(
        serde_json::to_string(&f["evidence"])
            .unwrap()
            .contains("0000:02:00.0"),
        "{f:#}"
    );
}

/// Docker Desktop on WSL2 (`docker run --gpus all`): the toolkit's WSL mode mounts
/// /usr/lib/wsl/lib and /dev/dxg into the container; there are no /dev/nvidia* nodes.
/// The driver answering outranks the missing nodes, and the driver is still Windows'.
#[test]
fn docker_on_wsl2_is_healthy_and_fixed_in_windows() {
    let root = wsl2();
    root.docker();
    let (code, r) = wsl_run(&root).report();
    assert!(failures(&r).is_empty(), "{:?}", problems(&r));
    assert_eq!(severity(&r, "host.container_no_gpu"), "pass");
    assert!(code <= 1, "{:?}", problems(&r));
    let (code, r) = wsl_run(&root).var("FAKE_CUDA_INIT", "999").report();
    assert_eq!(code, 2);
    assert!(finding(&r, "driver.uvm_unavailable")["fix"]["text"]
        .as_str()
        .unwrap()
        .contains("Windows"));
    assert_no_host_only_commands(&r);
}
