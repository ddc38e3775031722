//! host.*: is there an NVIDIA GPU here at all, can this container see it, and is
//! /dev/shm big enough for NCCL and DataLoader workers.

use super::catalogue::{Action, Area, Check, PasteGap};
use super::view;
use super::{evidence, Ctx};
use crate::finding::{Finding, Severity};

/// NCCL and DataLoader workers exchange tensors through /dev/shm; Docker's default is
/// 64 MiB, and NVIDIA's container guides start from `--shm-size=1g`.
pub const SHM_MIN_BYTES: u64 = 1024 * 1024 * 1024;

pub const HOST_NO_NVIDIA_GPU: Check = Check {
    id: "host.no_nvidia_gpu",
    name: "host.gpu_present",
    area: Area::Host,
    title: "an NVIDIA GPU is present",
    failing: "no NVIDIA GPU on the PCI bus or through the driver",
    why: "Without an NVIDIA GPU nothing CUDA can run; on a GPU node a missing GPU is a hardware or BIOS fault.",
    next_step: "Check the GPU is seated and enabled in the BIOS (`lspci -nn | grep -i nvidia`).",
    action: Action::InspectHardware,
    reads: &["system", "pci_gpus", "kernel_module", "driver_api"],
    not_in_paste: None,
    run: no_nvidia_gpu,
};

pub fn no_nvidia_gpu(ctx: &Ctx) -> Vec<Finding> {
    let f = ctx.facts;
    let id = &HOST_NO_NVIDIA_GPU;
    if view::has_gpu(f) {
        let n = view::gpus_seen(f);
        let mut finding = id.finding(
            Severity::Pass,
            format!("{n} NVIDIA GPU{} present", plural(n)),
        );
        if let Some(pci) = f.pci_gpus.value() {
            for g in pci {
                finding = finding.evidence(
                    "pci_gpus",
                    format!("{} 10de:{} class {}", g.bus_id, g.device_id, g.class),
                );
            }
        }
        return vec![finding];
    }
    // Under WSL2 the GPU is never on the (Hyper-V) PCI bus: without the Windows driver
    // nothing can see it, and driver.not_installed says what to do in Windows.
    if f.system.wsl {
        return Vec::new();
    }
    // Inside a container, "no GPU visible" is the container's configuration: host.container_no_gpu says so.
    if view::in_container(f).is_some() && !f.pci_gpus.is_known() {
        return Vec::new();
    }
    let pci_note = match &f.pci_gpus {
        crate::fact::Fact::Known { .. } => {
            "The PCI bus shows no NVIDIA display or 3D controller".to_string()
        }
        other => format!(
            "The PCI bus could not be read ({}), and nothing else shows a GPU",
            other.reason().unwrap_or("unknown")
        ),
    };
    vec![id.finding(Severity::Fail, "No NVIDIA GPU on this machine")
        .details(format!(
            "{pci_note}: no kernel module reports one, NVML lists none and there are no /dev/nvidiaN nodes. \
             CUDA work cannot run here."
        ))
        .evidence("pci_gpus", describe_fact_len(&f.pci_gpus))
        .evidence("kernel_module.version", f.kernel_module.version.reason().unwrap_or("loaded"))
        .fix(
            "Run the work on a machine with an NVIDIA GPU. In a virtual machine, pass the GPU through \
             (VFIO) or choose a GPU instance type; `lspci -nn | grep -i nvidia` lists what the guest sees.",
            &["lspci -nn | grep -i nvidia"],
        )]
}

pub const HOST_CONTAINER_NO_GPU: Check = Check {
    id: "host.container_no_gpu",
    name: "host.container_gpus",
    area: Area::Host,
    title: "a container was started with the GPUs",
    failing: "inside docker/podman/Kubernetes without `/dev/nvidia*` (started without `--gpus`)",
    why: "A container sees only the GPUs its runtime hands it; started without them, CUDA finds no device.",
    next_step: "Restart the container with the GPUs (`--gpus all`, or the CDI device) through the NVIDIA Container Toolkit.",
    action: Action::RestartApp,
    reads: &["system", "pci_gpus", "kernel_module", "driver_api", "env"],
    not_in_paste: Some(PasteGap { what: "whether it runs in a container, and /dev/nvidia* there", how: "`gpu-doctor` run inside the environment" }),
    run: container_no_gpu,
};

pub fn container_no_gpu(ctx: &Ctx) -> Vec<Finding> {
    let f = ctx.facts;
    let id = &HOST_CONTAINER_NO_GPU;
    let Some(runtime) = view::in_container(f) else {
        return Vec::new();
    };
    let nodes = view::gpu_device_nodes(f);
    let has_ctl = f
        .kernel_module
        .device_nodes
        .value()
        .is_some_and(|n| n.iter().any(|d| d.path == "/dev/nvidiactl"));
    if (nodes > 0 && has_ctl) || evidence::driver_answers(f).observed_as(true) {
        return vec![id.finding(
            Severity::Pass,
            format!(
                "{runtime} container sees {nodes} GPU device node{}",
                plural(nodes)
            ),
        )];
    }
    let host_has_gpu = f.pci_gpus.value().is_some_and(|p| !p.is_empty()) || view::module_loaded(f);
    if f.pci_gpus.value().is_some_and(Vec::is_empty) && !view::module_loaded(f) {
        // The host itself has no NVIDIA GPU: host.no_nvidia_gpu says that.
        return Vec::new();
    }
    let why = if host_has_gpu {
        "The host has NVIDIA GPUs (seen on the PCI bus or through its loaded kernel module), but this container was started without them"
    } else {
        "This container has no /dev/nvidia* device nodes and no NVIDIA driver libraries"
    };
    // CUDA images set NVIDIA_VISIBLE_DEVICES=all themselves: the variable asks for GPUs,
    // but only the NVIDIA runtime hook or a CDI spec acts on it.
    let asked = view::env(f, "NVIDIA_VISIBLE_DEVICES")
        .filter(|v| !matches!(v.trim(), "" | "void" | "none"))
        .map_or(String::new(), |v| {
            format!(
                " NVIDIA_VISIBLE_DEVICES={v} asks for GPUs, but nothing acted on it: the container ran under \
                 plain runc, not the NVIDIA runtime (--runtime=nvidia, --gpus) or a CDI device."
            )
        });
    let mut finding = id.finding(Severity::Fail, format!("Inside a {runtime} container started without GPUs"))
        .details(format!(
            "{why}: no /dev/nvidiactl or /dev/nvidiaN nodes exist here, so CUDA cannot open a device. The NVIDIA \
             Container Toolkit injects the device nodes and driver libraries when the container is started with GPUs.{asked}"
        ))
        .evidence("system.container", runtime)
        .evidence("kernel_module.device_nodes", format!("{nodes} /dev/nvidiaN"));
    if let Some(v) = view::env(f, "NVIDIA_VISIBLE_DEVICES") {
        finding = finding.evidence("env.NVIDIA_VISIBLE_DEVICES", v);
    }
    vec![finding.fix(
        container_fix_text(runtime),
        &[
            "docker run --gpus all ...",
            "sudo nvidia-ctk runtime configure --runtime=docker && sudo systemctl restart docker",
        ],
    )]
}

fn container_fix_text(runtime: &str) -> &'static str {
    match runtime {
        "kubernetes" => "Request GPUs in the pod spec (resources.limits: nvidia.com/gpu: 1) on a node with the NVIDIA device plugin or GPU Operator; on plain Docker: start with --gpus all after installing the NVIDIA Container Toolkit.",
        "podman" => "Start the container with the GPUs through CDI: podman run --device nvidia.com/gpu=all ... (generate the spec once with: sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml).",
        _ => "Start the container with the GPUs (docker run --gpus all ...); the host needs the NVIDIA Container Toolkit, configured for the runtime.",
    }
}

pub const HOST_SHM_SMALL: Check = Check {
    id: "host.shm_small",
    name: "host.shm_size",
    area: Area::Host,
    title: "/dev/shm is large enough for NCCL and DataLoader workers",
    failing: "`/dev/shm` under 1 GiB (NCCL, DataLoader workers)",
    why: "NCCL and DataLoader workers share tensors through /dev/shm; a small one makes them crash with bus errors.",
    next_step: "Restart the container with a larger /dev/shm (`--shm-size=8g` or `--ipc=host`).",
    action: Action::RestartApp,
    reads: &["system", "pci_gpus", "kernel_module", "driver_api"],
    not_in_paste: Some(PasteGap { what: "the size of /dev/shm", how: "`df -h /dev/shm`" }),
    run: shm_small,
};

pub fn shm_small(ctx: &Ctx) -> Vec<Finding> {
    let f = ctx.facts;
    let id = &HOST_SHM_SMALL;
    let Some(&bytes) = f.system.shm_bytes.value() else {
        return Vec::new();
    };
    let mib = bytes / (1024 * 1024);
    if bytes >= SHM_MIN_BYTES {
        return vec![id.finding(
            Severity::Pass,
            format!("/dev/shm is {}", human_bytes(bytes)),
        )];
    }
    let severity = if view::has_gpu(f) || view::in_container(f).is_some() {
        Severity::Warn
    } else {
        Severity::Info
    };
    let commands: &[&str] = if view::in_container(f).is_some() {
        &["docker run --shm-size=16g ...  (or --ipc=host)"]
    } else {
        &["sudo mount -o remount,size=16G /dev/shm"]
    };
    vec![id.finding(severity, format!("/dev/shm is only {mib} MiB"))
        .details(
            "NCCL keeps its intra-node buffers in /dev/shm and PyTorch DataLoader workers pass batches through it; \
             at this size multi-GPU jobs fail with NCCL 'unhandled system error' and workers die with \
             'bus error' or 'No space left on device'.",
        )
        .evidence("system.shm_bytes", bytes)
        .fix(
            "Give /dev/shm at least 1 GiB: for a container, start it with --shm-size=16g or --ipc=host \
             (Kubernetes: mount an emptyDir with medium: Memory at /dev/shm); on a host, remount the tmpfs larger.",
            commands,
        )]
}

pub const HOST_EXPECTED_GPUS: Check = Check {
    id: "host.expected_gpus",
    name: "host.gpu_count",
    area: Area::Host,
    title: "at least --expect-gpus GPUs are usable",
    failing: "fewer usable GPUs than `--expect-gpus N`",
    why: "A node with fewer usable GPUs than it should have takes jobs it cannot run.",
    next_step: "Find the missing GPUs in the other findings; drain the node until they are back.",
    action: Action::Drain,
    reads: &["pci_gpus", "kernel_module", "driver_api", "options"],
    not_in_paste: Some(PasteGap {
        what: "the GPUs CUDA can use",
        how: "`gpu-doctor --expect-gpus N` on the machine",
    }),
    run: expected_gpus,
};

/// `--expect-gpus N`: provisioning scripts need "all N GPUs usable", not "some GPU".
pub fn expected_gpus(ctx: &Ctx) -> Vec<Finding> {
    let Some(expected) = ctx.opts.expect_gpus else {
        return Vec::new();
    };
    let id = &HOST_EXPECTED_GPUS;
    let usable = view::usable_gpus(ctx.facts);
    if usable >= expected {
        return vec![id.finding(
            Severity::Pass,
            format!(
                "{usable} usable GPU{} (expected {expected})",
                plural(usable as usize)
            ),
        )];
    }
    let seen = view::gpus_seen(ctx.facts);
    vec![id.finding(Severity::Fail, format!("{usable} usable GPU{}, expected {expected}", plural(usable as usize)))
        .details(format!(
            "CUDA can use {usable} GPU(s); {seen} are visible to the hardware or driver. Fewer usable GPUs than \
             expected means a lost GPU, a driver problem, or CUDA_VISIBLE_DEVICES hiding devices; the other findings say which."
        ))
        .evidence("expect_gpus", expected)
        .evidence("usable_gpus", usable)
        .fix("Fix the failures above; if a GPU fell off the bus, drain the node and reseat or replace it.", &["nvidia-smi -L"])]
}

pub const GPU_MISSING: Check = Check {
    id: "gpu.missing",
    name: "gpu.enumeration",
    area: Area::Gpu,
    title: "PCI, NVML and CUDA see the same GPUs",
    failing: "PCI, NVML and CUDA disagree on the GPUs: NVML lists 0 while CUDA sees one, cuInit works but CUDA sees 0 devices, a GPU on the PCI bus (bound to nvidia) that NVML does not list, a CUDA device at a bus address NVML does not know",
    why: "A GPU one layer does not see has usually fallen off the bus, failed to initialise or is hidden by a broken driver; jobs sized for every GPU will not get it.",
    next_step: "Read the kernel log for the missing GPU; reset it or reboot, and reseat or replace one that keeps falling off.",
    action: Action::Drain,
    reads: &["system", "pci_gpus", "kernel_module", "driver_api", "env"],
    not_in_paste: None,
    run: gpu_missing,
};

/// `gpu.missing`: the GPUs each source sees, cross-checked. NVML's and CUDA's
/// enumerations are observations and must agree with each other; the PCI scan is
/// inference, so it can only accuse them of missing a GPU that is bound to the nvidia
/// driver (or to none), never overrule them. Inside a container sysfs shows the host's
/// whole bus, so the PCI scan is left out there.
pub fn gpu_missing(ctx: &Ctx) -> Vec<Finding> {
    use crate::facts::driver_api::PciAddress;
    let f = ctx.facts;
    let id = &GPU_MISSING;
    let counts = evidence::gpu_counts(f);
    if counts.nvml.is_none() && counts.cuda.is_none() {
        return Vec::new(); // nothing observed: the driver checks say why
    }
    let container = view::in_container(f).is_some();
    let cuda_filtered = view::env(f, "CUDA_VISIBLE_DEVICES").is_some();
    let mig = view::nvml_devices(f)
        .iter()
        .any(|d| d.mig.value().is_some_and(|m| m.current_enabled));
    let pci_driven: Option<Vec<&crate::facts::pci::PciGpu>> = f.pci_gpus.value().map(|gpus| {
        gpus.iter()
            .filter(|g| matches!(g.driver.as_deref(), None | Some("nvidia")))
            .collect()
    });
    let mut problems: Vec<String> = Vec::new();
    let nvml_buses: Vec<PciAddress> = view::nvml_devices(f)
        .iter()
        .filter_map(|d| d.pci_bus_id.value().and_then(|b| PciAddress::parse(b)))
        .collect();
    if let (Some(pci), false) = (&pci_driven, container) {
        if let Some(nvml) = counts.nvml {
            let unseen: Vec<&str> = if nvml_buses.len() == nvml {
                pci.iter()
                    .filter(|g| {
                        PciAddress::parse(&g.bus_id).is_some_and(|a| !nvml_buses.contains(&a))
                    })
                    .map(|g| g.bus_id.as_str())
                    .collect()
            } else {
                Vec::new()
            };
            if !unseen.is_empty() {
                problems.push(format!("NVML does not list the GPU at {} (on the PCI bus, bound to the nvidia driver or to none)", unseen.join(", ")));
            } else if pci.len() > nvml {
                problems.push(format!(
                    "the PCI bus shows {} NVIDIA GPUs but NVML lists {nvml}",
                    pci.len()
                ));
            }
        } else if let Some(cuda) = counts.cuda {
            if !cuda_filtered && pci.len() > cuda {
                problems.push(format!(
                    "the PCI bus shows {} NVIDIA GPUs but CUDA sees {cuda}",
                    pci.len()
                ));
            }
        }
    }
    if let (Some(nvml), Some(cuda), false) = (counts.nvml, counts.cuda, cuda_filtered) {
        if cuda == 0 && nvml > 0 {
            problems.push(format!(
                "cuInit succeeded but CUDA sees 0 devices while NVML lists {nvml}"
            ));
        } else if nvml == 0 && cuda > 0 {
            problems.push(format!("NVML lists 0 GPUs while CUDA sees {cuda}"));
        } else if !mig && cuda != nvml {
            problems.push(format!("CUDA sees {cuda} devices but NVML lists {nvml}"));
        } else if !mig {
            let cuda_buses: Vec<(u32, PciAddress)> = view::cuda_devices(f)
                .iter()
                .filter_map(|d| Some((d.ordinal, PciAddress::parse(d.pci_bus_id.value()?)?)))
                .collect();
            if nvml_buses.len() == nvml {
                for (ordinal, bus) in cuda_buses.iter().filter(|(_, b)| !nvml_buses.contains(b)) {
                    problems.push(format!(
                        "CUDA device {ordinal} is at {:04x}:{:02x}:{:02x}.{}, where NVML has no GPU",
                        bus.0, bus.1, bus.2, bus.3
                    ));
                }
            }
        }
    }
    let describe = |n: Option<usize>| n.map_or("-".to_string(), |n| n.to_string());
    let seen = format!(
        "PCI {} (nvidia-driven {}), NVML {}, CUDA {}, /dev/nvidiaN {}",
        describe(counts.pci),
        describe(pci_driven.as_ref().map(Vec::len)),
        describe(counts.nvml),
        describe(counts.cuda),
        describe(counts.nodes)
    );
    if problems.is_empty() {
        let n = counts.nvml.or(counts.cuda).unwrap_or(0);
        let summary = match (counts.nvml, counts.cuda) {
            (Some(_), Some(_)) => format!("NVML and CUDA agree on {n} GPU{}", plural(n)),
            (Some(_), None) => format!(
                "NVML lists {n} GPU{}; nothing contradicts it (CUDA did not count)",
                plural(n)
            ),
            _ => format!(
                "CUDA sees {n} GPU{}; nothing contradicts it (NVML did not count)",
                plural(n)
            ),
        };
        return vec![id
            .finding(Severity::Pass, summary)
            .evidence("gpu_counts", seen)];
    }
    let mut finding = id.finding(Severity::Fail, format!("The GPU counts disagree: {}", problems[0]))
        .details(
            "The driver's own enumerations (NVML, CUDA) and the PCI bus should list the same GPUs. A GPU that one \
             of them does not see has usually fallen off the bus, failed to initialise (Xid 79, RmInitAdapter \
             failed) or is hidden by a broken driver; jobs sized for every GPU will not get it.",
        )
        .evidence("gpu_counts", seen);
    for p in &problems {
        finding = finding.evidence("disagreement", p);
    }
    vec![finding.fix(
        "Compare what each layer sees and read the kernel log for the GPU that is missing; a GPU that fell off the \
         bus needs a reset or a reboot, and one that keeps falling off needs reseating or replacing.",
        &["nvidia-smi -L", "lspci -nn -d 10de:", "sudo dmesg | grep -iE 'nvrm|xid'"],
    )]
}

pub fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn describe_fact_len<T>(fact: &crate::fact::Fact<Vec<T>>) -> String {
    match fact.value() {
        Some(v) => format!("{} NVIDIA display/3D devices", v.len()),
        None => fact.reason().unwrap_or("unknown").to_string(),
    }
}

pub fn human_bytes(bytes: u64) -> String {
    const GIB: u64 = 1024 * 1024 * 1024;
    const MIB: u64 = 1024 * 1024;
    if bytes >= GIB {
        format!("{:.1} GiB", bytes as f64 / GIB as f64)
    } else {
        format!("{} MiB", bytes / MIB)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::testutil::*;
    use crate::checks::CheckOptions;
    use crate::fact::Fact;

    #[test]
    fn no_gpu_machine_fails() {
        let f = no_gpu();
        let out = run(no_nvidia_gpu, &f);
        assert_eq!(only(&out), Severity::Fail);
        assert!(out[0].summary.contains("No NVIDIA GPU"));
        assert_eq!(only(&run(no_nvidia_gpu, &healthy())), Severity::Pass);
    }

    #[test]
    fn unreadable_pci_bus_without_other_evidence_still_fails_with_the_reason() {
        let mut f = no_gpu();
        f.pci_gpus = Fact::missing("/sys/bus/pci/devices does not exist");
        let out = run(no_nvidia_gpu, &f);
        assert_eq!(only(&out), Severity::Fail);
        assert!(out[0]
            .details
            .contains("/sys/bus/pci/devices does not exist"));
    }

    #[test]
    fn container_without_gpus() {
        let mut f = healthy();
        f.system.container = Fact::known(Some("docker".into()));
        f.kernel_module.device_nodes = Fact::known(Vec::new());
        f.driver_libs = crate::facts::driver_libs::DriverLibFacts::default();
        f.driver_api.nvml = Fact::missing("libnvidia-ml.so.1 not found");
        f.driver_api.cuda = Fact::missing("libcuda.so.1 not found");
        let out = run(container_no_gpu, &f);
        assert_eq!(only(&out), Severity::Fail);
        assert!(out[0].fix.as_ref().unwrap().commands[0].contains("--gpus all"));
        // With the nodes it passes; outside a container the check is silent.
        assert_eq!(
            only(&run(container_no_gpu, &{
                let mut g = healthy();
                g.system.container = Fact::known(Some("docker".into()));
                g
            })),
            Severity::Pass
        );
        assert!(run(container_no_gpu, &healthy()).is_empty());
    }

    #[test]
    fn container_on_a_host_without_gpus_is_left_to_no_nvidia_gpu() {
        let mut f = no_gpu();
        f.system.container = Fact::known(Some("docker".into()));
        assert!(run(container_no_gpu, &f).is_empty());
        assert_eq!(only(&run(no_nvidia_gpu, &f)), Severity::Fail);
    }

    #[test]
    fn gpu_counts_cross_checked() {
        assert_eq!(only(&run(gpu_missing, &healthy())), Severity::Pass);
        // NVML lists 0 GPUs while PCI and CUDA show one.
        let mut f = healthy();
        if let Fact::Known { value } = &mut f.driver_api.nvml {
            value.devices = Fact::known(Vec::new());
        }
        let out = run(gpu_missing, &f);
        assert_eq!(only(&out), Severity::Fail);
        assert!(
            out[0]
                .evidence
                .iter()
                .any(|e| e.value.contains("NVML lists 0 GPUs while CUDA sees 1")),
            "{:?}",
            out[0].evidence
        );
        assert!(
            out[0]
                .evidence
                .iter()
                .any(|e| e.value.contains("0000:18:00.0")),
            "{:?}",
            out[0].evidence
        );
        // cuInit fine but 0 CUDA devices while NVML and PCI see one.
        let mut g = healthy();
        if let Fact::Known { value } = &mut g.driver_api.cuda {
            value.device_count = Fact::known(0);
            value.devices = Fact::known(Vec::new());
        }
        let out = run(gpu_missing, &g);
        assert_eq!(only(&out), Severity::Fail);
        assert!(
            out[0].summary.contains("CUDA sees 0 devices"),
            "{}",
            out[0].summary
        );
        // CUDA_VISIBLE_DEVICES filters CUDA on purpose: env.* checks judge that.
        g.env.insert("CUDA_VISIBLE_DEVICES".into(), "".into());
        assert_eq!(only(&run(gpu_missing, &g)), Severity::Pass);
        // Inside a container the PCI scan shows the host's bus: not evidence.
        let mut c = healthy();
        c.system.container = Fact::known(Some("kubernetes".into()));
        if let Fact::Known { value } = &mut c.pci_gpus {
            let mut other = value[0].clone();
            other.bus_id = "0000:2a:00.0".into();
            value.push(other);
        }
        assert_eq!(only(&run(gpu_missing, &c)), Severity::Pass);
        c.system.container = Fact::known(None);
        assert_eq!(only(&run(gpu_missing, &c)), Severity::Fail);
        // A GPU handed to VFIO (passthrough to a VM) is not missing.
        if let Fact::Known { value } = &mut c.pci_gpus {
            value[1].driver = Some("vfio-pci".into());
        }
        assert_eq!(only(&run(gpu_missing, &c)), Severity::Pass);
        // Nothing observed: silent.
        assert!(run(gpu_missing, &no_gpu()).is_empty());
    }

    #[test]
    fn shm_thresholds() {
        let mut f = healthy();
        f.system.shm_bytes = Fact::known(64 * 1024 * 1024);
        let out = run(shm_small, &f);
        assert_eq!(only(&out), Severity::Warn);
        assert!(out[0].summary.contains("64 MiB"));
        f.system.shm_bytes = Fact::known(SHM_MIN_BYTES);
        assert_eq!(only(&run(shm_small, &f)), Severity::Pass);
        f.system.shm_bytes = Fact::missing("no /dev/shm");
        assert!(run(shm_small, &f).is_empty());
        let mut g = no_gpu();
        g.system.shm_bytes = Fact::known(64 * 1024 * 1024);
        assert_eq!(only(&run(shm_small, &g)), Severity::Info);
    }

    #[test]
    fn expected_gpu_count() {
        let opts = CheckOptions {
            expect_gpus: Some(8),
            ..CheckOptions::default()
        };
        let out = run_with(expected_gpus, &healthy(), &opts);
        assert_eq!(only(&out), Severity::Fail);
        assert!(out[0].summary.contains("1 usable GPU, expected 8"));
        let opts = CheckOptions {
            expect_gpus: Some(1),
            ..CheckOptions::default()
        };
        assert_eq!(
            only(&run_with(expected_gpus, &healthy(), &opts)),
            Severity::Pass
        );
        assert!(run(expected_gpus, &healthy()).is_empty());
        // cuInit failing leaves no usable GPU, whatever NVML counts.
        let mut f = healthy();
        if let Fact::Known { value } = &mut f.driver_api.cuda {
            value.init = code("CUDA_ERROR_SYSTEM_NOT_READY", 802);
        }
        assert_eq!(only(&run_with(expected_gpus, &f, &opts)), Severity::Fail);
    }
}
