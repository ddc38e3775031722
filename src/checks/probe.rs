//! probe.*: what the smoke probes found, one finding per GPU and probe.

use super::catalogue::{Action, Area, Check};
use super::Ctx;
use crate::facts::probe::MISSING_ENTRY_POINT;
use crate::facts::probe::{
    Measurement, ProbeKind, ProbeOutcome, ProbeResult, DEFAULT_PROBE_TIMEOUT,
};
use crate::finding::{Finding, Scope, Severity};

/// Pinned host↔device copies below this share of the PCIe link's payload rate are
/// reported (healthy links reach 75–90%).
const BANDWIDTH_WARN_FRACTION: f64 = 0.5;
/// Device-to-device copies below this share of the GPU's published memory bandwidth are
/// reported (healthy GPUs reach 70–90%; MIG slices are not matched to a matrix GPU).
const DEVICE_COPY_WARN_FRACTION: f64 = 0.3;

pub const PROBE_LAUNCH: Check = Check {
    id: "probe.launch",
    name: "probe.kernel_launch",
    area: Area::Probe,
    title: "(probe) a kernel JIT-compiles, runs and computes correctly",
    failing:
        "a PTX kernel does not JIT, launch or compute correctly (JIT and launch times reported)",
    why: "If a trivial kernel cannot run, no CUDA work can.",
    next_step: "Drain the node and act on the probe's error.",
    action: Action::Drain,
    reads: &["driver_api", "probes"],
    not_in_paste: None,
    run: launch,
};

pub fn launch(ctx: &Ctx) -> Vec<Finding> {
    findings(ctx, ProbeKind::Launch)
}
pub const PROBE_GRID_LIMIT: Check = Check {
    id: "probe.grid_limit",
    name: "probe.grid_limits",
    area: Area::Probe,
    title: "(probe) grids at the limit run completely; one past is refused cleanly",
    failing: "a grid at the device's limit on x, y or z does not run every block, or one block more is not refused cleanly",
    why: "A GPU that mishandles grids at its limits loses work silently.",
    next_step: "Drain the node and act on the probe's error.",
    action: Action::Drain,
    reads: &["driver_api", "probes"],
    not_in_paste: None,
    run: grid_limit,
};

pub fn grid_limit(ctx: &Ctx) -> Vec<Finding> {
    findings(ctx, ProbeKind::GridLimit)
}
pub const PROBE_ORDINAL: Check = Check {
    id: "probe.ordinal",
    name: "probe.ordinals",
    area: Area::Probe,
    title: "(probe) every ordinal opens; one past the count fails cleanly",
    failing: "a CUDA ordinal does not open, or ordinal = count is not refused with `CUDA_ERROR_INVALID_DEVICE`",
    why: "A device ordinal that does not open is a GPU CUDA cannot use.",
    next_step: "Drain the node and act on the probe's error.",
    action: Action::Drain,
    reads: &["driver_api", "probes"],
    not_in_paste: None,
    run: ordinal,
};

pub fn ordinal(ctx: &Ctx) -> Vec<Finding> {
    findings(ctx, ProbeKind::Ordinal)
}
pub const PROBE_CUBLASLT: Check = Check {
    id: "probe.cublaslt",
    name: "probe.cublaslt",
    area: Area::Probe,
    title: "(probe) cuBLASLt matmuls are correct in every precision the GPU has",
    failing: "cuBLASLt (the copy each PyTorch ships, else the toolkit's) fails its heuristic or a FP32/FP16/BF16/FP8 matmul checked against the CPU",
    why: "Matmuls are most of the work; wrong or failing cuBLASLt breaks every model.",
    next_step: "Reinstall the cuBLAS wheels or toolkit the probe used; drain if it is the GPU.",
    action: Action::FixSoftware,
    reads: &["driver_api", "probes"],
    not_in_paste: None,
    run: cublaslt,
};

pub fn cublaslt(ctx: &Ctx) -> Vec<Finding> {
    findings(ctx, ProbeKind::Cublaslt)
}
pub const PROBE_GRAPH: Check = Check {
    id: "probe.graph",
    name: "probe.cuda_graph",
    area: Area::Probe,
    title: "(probe) CUDA graph capture and replay work",
    failing: "capturing dependent launches into a CUDA graph, instantiating and replaying it fails or computes wrongly",
    why: "CUDA graphs back torch.compile and CUDA-graph replays; failing ones break them.",
    next_step: "Drain the node and act on the probe's error.",
    action: Action::Drain,
    reads: &["driver_api", "probes"],
    not_in_paste: None,
    run: graph,
};

pub fn graph(ctx: &Ctx) -> Vec<Finding> {
    findings(ctx, ProbeKind::Graph)
}
pub const PROBE_BANDWIDTH: Check = Check {
    id: "probe.bandwidth",
    name: "probe.copy_bandwidth",
    area: Area::Probe,
    title: "(probe) host↔device copies reach the PCIe link's speed",
    failing: "pinned host↔device copies under half of the PCIe link's rate (warn) or data changed in transit (fail)",
    why: "Slow or corrupting copies starve the GPU or damage data.",
    next_step: "Check the PCIe link (reseat, slot settings).",
    action: Action::InspectHardware,
    reads: &["driver_api", "probes"],
    not_in_paste: None,
    run: bandwidth,
};

pub fn bandwidth(ctx: &Ctx) -> Vec<Finding> {
    findings(ctx, ProbeKind::Bandwidth)
}
pub const PROBE_OOM: Check = Check {
    id: "probe.oom",
    name: "probe.out_of_memory",
    area: Area::Probe,
    title: "(probe) out-of-memory is clean and memory comes back",
    failing: "an oversized allocation is not a clean `CUDA_ERROR_OUT_OF_MEMORY`, the context breaks after it, or free memory does not return",
    why: "A GPU whose out-of-memory is not clean breaks the jobs after it.",
    next_step: "Drain the node and reset the GPU.",
    action: Action::Drain,
    reads: &["driver_api", "probes"],
    not_in_paste: None,
    run: oom,
};

pub fn oom(ctx: &Ctx) -> Vec<Finding> {
    findings(ctx, ProbeKind::Oom)
}

fn findings(ctx: &Ctx, kind: ProbeKind) -> Vec<Finding> {
    ctx.facts
        .probes
        .iter()
        .filter(|r| r.probe == kind && missing_entry_point(r).is_none())
        .map(|r| finding(ctx, r))
        .collect()
}

/// The entry point a probe could not call, when libcuda lacks one.
fn missing_entry_point(r: &ProbeResult) -> Option<&str> {
    match &r.outcome {
        ProbeOutcome::Failed { code: Some(c), .. } if c.name == MISSING_ENTRY_POINT => {
            Some(c.call.as_str())
        }
        _ => None,
    }
}

pub const DRIVER_ENTRY_POINT_MISSING: Check = Check {
    id: "driver.entry_point_missing",
    name: "driver.entry_points",
    area: Area::Driver,
    title: "libcuda has every entry point the probes call",
    failing: "libcuda lacks an entry point the probes call: one finding about the library instead of a failure per probe and GPU",
    why: "A libcuda that lacks entry points its version should have is damaged or mismatched; CUDA programs that need them fail the same way.",
    next_step: "Reinstall the driver's user-space libraries at the kernel module's version and check which libcuda.so.1 the loader picks.",
    action: Action::FixSoftware,
    reads: &["driver_api", "probes"],
    not_in_paste: None,
    run: entry_point_missing,
};

/// driver.entry_point_missing: probes that could not run because libcuda lacks an entry
/// point are one finding about the library, not a failure of each probe on each GPU.
pub fn entry_point_missing(ctx: &Ctx) -> Vec<Finding> {
    let missing: Vec<(&ProbeResult, &str)> = ctx
        .facts
        .probes
        .iter()
        .filter_map(|r| missing_entry_point(r).map(|s| (r, s)))
        .collect();
    let Some((first, _)) = missing.first() else {
        return Vec::new();
    };
    let mut symbols: Vec<&str> = missing.iter().map(|(_, s)| *s).collect();
    symbols.sort_unstable();
    symbols.dedup();
    let mut probes: Vec<&str> = missing.iter().map(|(r, _)| r.probe.as_str()).collect();
    probes.sort_unstable();
    probes.dedup();
    let mut gpus: Vec<u32> = missing.iter().map(|(r, _)| r.cuda_ordinal).collect();
    gpus.sort_unstable();
    gpus.dedup();
    let library = ctx
        .facts
        .driver_api
        .cuda
        .value()
        .map_or("libcuda", |c| c.library.as_str());
    let reason = match &first.outcome {
        ProbeOutcome::Failed { reason, .. } => reason.clone(),
        _ => String::new(),
    };
    vec![DRIVER_ENTRY_POINT_MISSING
        .finding(
            Severity::Fail,
            format!(
            "{library} lacks {} the probes call ({}): {} probe{} on {} GPU{} could not run",
            if symbols.len() == 1 { "an entry point" } else { "entry points" },
            symbols.join(", "),
            probes.len(),
            if probes.len() == 1 { "" } else { "s" },
            gpus.len(),
            if gpus.len() == 1 { "" } else { "s" },
        ),
    )
    .details("The driver library is older than its version says or is damaged (a partial copy, a mismatched container mount, a shim). CUDA programs that need the missing call fail the same way; the GPUs themselves were not tested.")
    .evidence("probe.missing_entry_point", reason)
    .evidence("probe.not_run", probes.join(", "))
    .fix(
        "Reinstall the NVIDIA driver's user-space libraries (the same version as the kernel module), and check which libcuda.so.1 the loader picks.",
        &["ldconfig -p | grep libcuda", "nvidia-smi"],
    )]
}

/// The check a probe's result is reported under.
pub fn check_of(kind: ProbeKind) -> &'static Check {
    match kind {
        ProbeKind::Launch => &PROBE_LAUNCH,
        ProbeKind::GridLimit => &PROBE_GRID_LIMIT,
        ProbeKind::Ordinal => &PROBE_ORDINAL,
        ProbeKind::Cublaslt => &PROBE_CUBLASLT,
        ProbeKind::Graph => &PROBE_GRAPH,
        ProbeKind::Bandwidth => &PROBE_BANDWIDTH,
        ProbeKind::Oom => &PROBE_OOM,
        ProbeKind::P2p => &super::probe_between::PROBE_P2P,
        ProbeKind::Nccl => &super::probe_between::PROBE_NCCL,
    }
}

/// The GPU as a summary names it; the finding's scope already carries the nvidia-smi
/// index, so only a GPU NVML did not see gets its CUDA ordinal here.
fn gpu_label(r: &ProbeResult) -> String {
    let name = r.gpu_name.clone().unwrap_or_else(|| "GPU".to_string());
    match r.nvml_index {
        Some(_) => name,
        None => format!("CUDA device {} ({name})", r.cuda_ordinal),
    }
}

fn with_measurements(mut f: Finding, ms: &[Measurement]) -> Finding {
    for m in ms {
        let value = if m.value.fract() == 0.0 {
            format!("{} {}", m.value, m.unit)
        } else {
            format!("{:.2} {}", m.value, m.unit)
        };
        f = f.evidence(&format!("probe.{}", m.name), value);
    }
    f
}

fn measurement(r: &ProbeResult, name: &str) -> Option<f64> {
    r.outcome
        .measurements()
        .iter()
        .find(|m| m.name == name)
        .map(|m| m.value)
}

fn finding(ctx: &Ctx, r: &ProbeResult) -> Finding {
    let id = check_of(r.probe);
    let gpu = gpu_label(r);
    let scope = Scope::Gpu {
        index: r.nvml_index,
        pci_bus_id: r.pci_bus_id.clone(),
    };
    let base = match &r.outcome {
        ProbeOutcome::Passed { summary, notes, .. } => {
            let mut f = id.finding(Severity::Pass, format!("{gpu}: {summary}"));
            if !notes.is_empty() {
                f = f.details(notes.join("\n"));
            }
            if r.probe == ProbeKind::Bandwidth {
                if let Some(slow) = slow_transfer(ctx, r).or_else(|| slow_device_copy(ctx, r)) {
                    f = slow;
                }
            }
            f
        }
        ProbeOutcome::Failed {
            reason,
            code,
            notes,
            ..
        } => {
            let mut f = id.finding(
                Severity::Fail,
                format!("{gpu}: the {} probe failed: {reason}", r.probe.as_str()),
            );
            if !notes.is_empty() {
                f = f.details(notes.join("\n"));
            }
            if let Some(c) = code {
                f = f.evidence(
                    "probe.code",
                    format!("{} returned {} ({})", c.call, c.name, c.code),
                );
            }
            let (text, cmds) = fix_for_failure(r, code.as_ref().map(|c| c.name.as_str()));
            f.fix_owned(text, cmds)
        }
        ProbeOutcome::Crashed {
            signal,
            exit_status,
            stderr_tail,
        } => {
            let how = match (signal, exit_status) {
                (Some(s), _) => format!("killed by signal {s} ({})", crate::host::signal_name(*s)),
                (None, Some(c)) => format!("exited with status {c} without a result"),
                (None, None) => "ended without a result".to_string(),
            };
            let mut f = id.finding(Severity::Fail, format!("{gpu}: the {} probe's worker crashed ({how})", r.probe.as_str()))
                .details("The driver or a library died inside a small smoke kernel. CUDA work on this GPU is likely to crash the same way.");
            if !stderr_tail.trim().is_empty() {
                f = f.evidence("probe.stderr_tail", stderr_tail.trim());
            }
            f.fix_owned(
                "Look for Xid errors in the kernel log, check the GPU's state, and reset the GPU or reboot; if it persists, update or reinstall the driver.",
                hardware_commands(r),
            )
        }
        ProbeOutcome::TimedOut {
            after_ms,
            stderr_tail,
            limit_ms: Some(limit),
        } if shortened(r.probe, *limit) => {
            let f = cut_short(
                id,
                &format!("{gpu}: the {} probe", r.probe.as_str()),
                r.probe,
                *after_ms,
                *limit,
            );
            if stderr_tail.trim().is_empty() {
                f
            } else {
                f.evidence("probe.stderr_tail", stderr_tail.trim())
            }
        }
        ProbeOutcome::TimedOut {
            after_ms,
            stderr_tail,
            ..
        } => {
            let mut f = id.finding(Severity::Fail, format!("{gpu}: the {} probe hung and was killed after {:.1} s", r.probe.as_str(), *after_ms as f64 / 1e3))
                .details("A small smoke kernel did not finish within the time limit (--probe-timeout); its worker's process group was killed. A GPU or driver that hangs here will hang real jobs.");
            if !stderr_tail.trim().is_empty() {
                f = f.evidence("probe.stderr_tail", stderr_tail.trim());
            }
            f.fix_owned(
                "Look for Xid errors in the kernel log and for processes stuck on the GPU; reset the GPU or reboot.",
                hardware_commands(r),
            )
        }
        ProbeOutcome::Skipped { why } => {
            let mut f = id.finding(
                Severity::Info,
                format!("{gpu}: the {} probe did not run: {why}", r.probe.as_str()),
            );
            if r.probe == ProbeKind::Oom {
                f = f.fix("Run it when the GPU is idle, or pass --force to run it anyway (it allocates up to an eighth of free memory, at most 1 GiB).", &["gpu-doctor --probes oom --force"]);
            }
            f
        }
    };
    with_measurements(base.scope(scope), r.outcome.measurements())
        .evidence("probe.elapsed_ms", format!("{} ms", r.elapsed_ms))
}

/// The longest a healthy GPU may need for a probe. Measured on a real H100 80GB
/// (2026-11-24, every probe three times): launch 0.08–0.13 s with its JIT, grid_limit
/// 1.29 s, cublaslt 1.06–1.28 s, bandwidth 0.06–0.09 s, the others under 0.01 s. About
/// eight times the slowest, and at least 2 s, leaves room for GPUs with fewer SMs.
/// The probes between GPUs were never measured on real hardware: no ceiling.
fn healthy_ceiling_ms(probe: ProbeKind) -> Option<u64> {
    match probe {
        ProbeKind::GridLimit | ProbeKind::Cublaslt => Some(10_000),
        ProbeKind::Launch
        | ProbeKind::Ordinal
        | ProbeKind::Graph
        | ProbeKind::Bandwidth
        | ProbeKind::Oom => Some(2_000),
        ProbeKind::P2p | ProbeKind::Nccl => None,
    }
}

/// True for a `--probe-timeout` shorter than a healthy GPU may need for the probe (and
/// than the default): being killed at it proves no hang.
pub fn shortened(probe: ProbeKind, limit_ms: u64) -> bool {
    u128::from(limit_ms) < DEFAULT_PROBE_TIMEOUT.as_millis()
        && healthy_ceiling_ms(probe).is_some_and(|c| limit_ms < c)
}

/// A probe killed at a limit the user shortened. Seen on a real H100: grid_limit takes
/// 1.3 s, `--probe-timeout 300ms` killed it, and the GPU passed every probe right after;
/// such a time-out proves no hang, so no drain and no GPU reset.
pub fn cut_short(id: &Check, what: &str, probe: ProbeKind, after_ms: u64, limit: u64) -> Finding {
    id.finding(
        Severity::Warn,
        format!("{what} did not finish within the {} limit set with --probe-timeout", seconds(limit)),
    )
    .details(format!(
        "Its worker was killed after {:.1} s. A healthy GPU may need up to {} for this probe, so being killed sooner does not show a hang (grid_limit takes about 1.3 s on an H100). Run it again with the default limit ({} s) to tell.",
        after_ms as f64 / 1e3,
        healthy_ceiling_ms(probe).map_or_else(|| "longer".to_string(), seconds),
        DEFAULT_PROBE_TIMEOUT.as_secs()
    ))
    .evidence("probe.limit_ms", format!("{limit} ms"))
    .action(Action::None)
    .fix_owned(
        "Run the probe again with the default time limit.",
        vec![format!("gpu-doctor --probes {}", probe.as_str())],
    )
}

/// "0.3 s", "45 s": a limit as the user would have typed it back.
fn seconds(ms: u64) -> String {
    if ms % 1000 == 0 {
        format!("{} s", ms / 1000)
    } else {
        format!("{:.1} s", ms as f64 / 1e3)
    }
}

fn hardware_commands(r: &ProbeResult) -> Vec<String> {
    let mut cmds = vec![
        "sudo dmesg --level=err,warn | grep -i -E 'xid|nvrm'".to_string(),
        "nvidia-smi -q".to_string(),
    ];
    if let Some(i) = r.nvml_index {
        cmds.push(format!("sudo nvidia-smi --gpu-reset -i {i}"));
    }
    cmds
}

fn fix_for_failure(r: &ProbeResult, code: Option<&str>) -> (String, Vec<String>) {
    match (r.probe, code) {
        (_, Some("CUDA_ERROR_INVALID_PTX" | "CUDA_ERROR_UNSUPPORTED_PTX_VERSION" | "CUDA_ERROR_JIT_COMPILER_NOT_FOUND")) => (
            "The driver cannot JIT-compile PTX: it is older than the PTX, or its JIT compiler (libnvidia-ptxjitcompiler) is missing. Install the driver's full user-space package.".to_string(),
            vec!["ls -l /usr/lib/x86_64-linux-gnu/libnvidia-ptxjitcompiler.so*".to_string()],
        ),
        (ProbeKind::Cublaslt, Some("CUBLAS_STATUS_ALLOC_FAILED")) => (
            "cuBLASLt could not allocate its workspace: free GPU memory (stop idle processes holding it), or give cuBLAS a smaller workspace.".to_string(),
            vec!["nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv".to_string(), "export CUBLAS_WORKSPACE_CONFIG=:4096:8".to_string()],
        ),
        (ProbeKind::Cublaslt, Some("CUBLAS_STATUS_NOT_INITIALIZED")) => (
            "This cuBLASLt needs a newer driver than the one installed: update the driver to a branch that supports the library's CUDA major, or use a PyTorch build for an older CUDA.".to_string(),
            vec!["gpu-doctor matrix show --torch latest".to_string()],
        ),
        (ProbeKind::Cublaslt, Some("CUBLAS_STATUS_NOT_SUPPORTED" | "CUBLAS_STATUS_ARCH_MISMATCH")) => (
            "This cuBLASLt has no kernel for this GPU and precision: install a PyTorch / CUDA build whose cuBLAS supports the GPU.".to_string(),
            vec!["gpu-doctor matrix show --torch latest".to_string()],
        ),
        (ProbeKind::Cublaslt, _) => (
            "cuBLASLt misbehaved on a small matmul: reinstall the nvidia-cublas wheel (or toolkit) PyTorch uses, and update the driver.".to_string(),
            vec!["pip install --force-reinstall --no-deps nvidia-cublas-cu12".to_string()],
        ),
        (ProbeKind::Oom, _) => (
            "The driver mishandled an out-of-memory condition; update the driver, and reset the GPU if memory stays taken.".to_string(),
            hardware_commands(r),
        ),
        _ => (
            "The GPU or driver computed wrongly or refused basic work. Look for Xid errors, reset the GPU or reboot, and update the driver if it persists.".to_string(),
            hardware_commands(r),
        ),
    }
}

/// PCIe payload rate in GB/s per lane, one direction, after line encoding.
pub fn pcie_lane_gbps(generation: u32) -> Option<f64> {
    Some(match generation {
        1 => 0.25,
        2 => 0.5,
        3 => 0.985,
        4 => 1.969,
        5 => 3.938,
        6 => 7.563,
        _ => return None,
    })
}

/// The bandwidth probe's result as a warning when device copies run far below the GPU's
/// published memory bandwidth (matrix `bandwidth_gbs`).
fn slow_device_copy(ctx: &Ctx, r: &ProbeResult) -> Option<Finding> {
    let name = r.gpu_name.as_deref()?;
    let peak = ctx.matrix.gpu_by_name(name)?.bandwidth_gbs?;
    let d2d = measurement(r, "device_to_device_gbps")?;
    if d2d >= DEVICE_COPY_WARN_FRACTION * peak {
        return None;
    }
    Some(
        PROBE_BANDWIDTH.finding(Severity::Warn,
            format!(
                "{}: device-to-device copies reach {d2d:.0} GB/s, under {:.0}% of the {name}'s {peak:.0} GB/s memory bandwidth",
                gpu_label(r),
                DEVICE_COPY_WARN_FRACTION * 100.0
            ),
        )
        .details("Measured with CUDA events over 20 copies after a warm-up. A GPU far below its memory bandwidth is throttled (power, temperature, clocks locked low), shared with other work, or a smaller variant than its name says.")
        .fix("Look at clocks, throttle reasons and other processes on the GPU.", &["nvidia-smi -q -d CLOCK,PERFORMANCE", "nvidia-smi"]),
    )
}

/// The bandwidth probe's result as a warning when copies run far below the link.
fn slow_transfer(ctx: &Ctx, r: &ProbeResult) -> Option<Finding> {
    let (generation, width) = super::view::pcie_max_link(ctx.facts, r.nvml_index)?;
    let link = pcie_lane_gbps(generation)? * f64::from(width);
    let h2d = measurement(r, "host_to_device_gbps")?;
    let d2h = measurement(r, "device_to_host_gbps")?;
    let worst = h2d.min(d2h);
    if worst >= BANDWIDTH_WARN_FRACTION * link {
        return None;
    }
    Some(
        PROBE_BANDWIDTH.finding(Severity::Warn,
            format!(
                "{}: pinned copies reach {worst:.1} GB/s, under {:.0}% of the PCIe Gen{generation} x{width} link's {link:.1} GB/s",
                gpu_label(r),
                BANDWIDTH_WARN_FRACTION * 100.0
            ),
        )
        .details("Slow host↔device copies starve data loading and multi-GPU work. Usual causes: the link trained below its maximum (see gpu.pcie_degraded), the GPU sits behind a PCIe switch or on the other CPU socket, or IOMMU / ACS settings.")
        .fix("Check the link and the GPU's NUMA placement; run the copy on the CPU socket the GPU is attached to.", &["nvidia-smi -q -d PCIE", "nvidia-smi topo -m"]),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::testutil::{healthy, matrix, run};
    use crate::facts::probe::ProbeCode;

    #[test]
    fn each_probe_reports_under_its_own_check() {
        for kind in ProbeKind::every() {
            assert_eq!(check_of(kind).id, kind.finding_id());
        }
    }

    fn result(probe: ProbeKind, outcome: ProbeOutcome) -> ProbeResult {
        ProbeResult {
            probe,
            cuda_ordinal: 0,
            nvml_index: Some(0),
            gpu_name: Some("NVIDIA H100 80GB HBM3".into()),
            pci_bus_id: Some("00000000:01:00.0".into()),
            elapsed_ms: 12,
            outcome,
            pairs: Vec::new(),
        }
    }

    fn passed() -> ProbeOutcome {
        ProbeOutcome::Passed {
            summary: "ok".into(),
            measurements: vec![Measurement::new("jit_ms", 3.5, "ms")],
            notes: vec![],
        }
    }

    #[test]
    fn each_outcome_has_its_severity() {
        let _ = matrix();
        let cases = [
            (passed(), Severity::Pass),
            (
                ProbeOutcome::Failed {
                    reason: "wrong".into(),
                    code: Some(ProbeCode {
                        call: "cuLaunchKernel".into(),
                        name: "CUDA_ERROR_LAUNCH_FAILED".into(),
                        code: 719,
                    }),
                    measurements: vec![],
                    notes: vec![],
                },
                Severity::Fail,
            ),
            (
                ProbeOutcome::Crashed {
                    signal: Some(11),
                    exit_status: None,
                    stderr_tail: "boom".into(),
                },
                Severity::Fail,
            ),
            (
                ProbeOutcome::TimedOut {
                    after_ms: 2000,
                    stderr_tail: String::new(),
                    limit_ms: None,
                },
                Severity::Fail,
            ),
            (
                ProbeOutcome::TimedOut {
                    after_ms: 60_100,
                    stderr_tail: String::new(),
                    limit_ms: Some(60_000),
                },
                Severity::Fail,
            ),
            // A limit the user shortened proves no hang (a real H100's grid_limit probe
            // takes 1.3 s and was killed at 0.3 s, then passed).
            (
                ProbeOutcome::TimedOut {
                    after_ms: 403,
                    stderr_tail: String::new(),
                    limit_ms: Some(300),
                },
                Severity::Warn,
            ),
            // 3 s is more than a healthy GPU needs for it: a hang.
            (
                ProbeOutcome::TimedOut {
                    after_ms: 3_050,
                    stderr_tail: String::new(),
                    limit_ms: Some(3_000),
                },
                Severity::Fail,
            ),
            (ProbeOutcome::Skipped { why: "busy".into() }, Severity::Info),
        ];
        for (outcome, severity) in cases {
            let mut f = healthy();
            f.probes = vec![result(ProbeKind::Launch, outcome.clone())];
            let out = run(launch, &f);
            assert_eq!(out.len(), 1, "{outcome:?}");
            assert_eq!(out[0].severity, severity, "{outcome:?}");
            assert_eq!(out[0].id, "probe.launch");
            assert!(run(graph, &f).is_empty());
        }
    }

    #[test]
    fn a_crash_names_the_signal_and_keeps_stderr() {
        let mut f = healthy();
        f.probes = vec![result(
            ProbeKind::Graph,
            ProbeOutcome::Crashed {
                signal: Some(11),
                exit_status: None,
                stderr_tail: "segfault in libcuda".into(),
            },
        )];
        let out = run(graph, &f);
        assert!(out[0].summary.contains("SIGSEGV"), "{}", out[0].summary);
        let json = serde_json::to_string(&out[0]).unwrap();
        assert!(json.contains("segfault in libcuda"));
    }

    #[test]
    fn lane_rates() {
        assert_eq!(pcie_lane_gbps(4), Some(1.969));
        assert_eq!(pcie_lane_gbps(0), None);
        assert!((pcie_lane_gbps(5).unwrap() * 16.0 - 63.0).abs() < 0.1);
    }

    #[test]
    fn no_probes_no_findings() {
        let f = healthy();
        for check in [launch, grid_limit, ordinal, cublaslt, graph, bandwidth, oom] {
            assert!(run(check, &f).is_empty());
        }
    }
}
