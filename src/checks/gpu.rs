//! gpu.*: the health of each GPU as NVML reports it (lost, ECC errors, retired pages,
//! row remapping, PCIe link, throttling, MIG, other processes, compute mode), plus
//! `driver.persistence_off`, which rests on the same per-GPU facts.
//!
//! Each check reports a problem per GPU, scoped to that GPU, and one host-wide pass when
//! every GPU that reported the fact is fine. A fact a GPU does not offer (no ECC on a
//! GeForce, no row remapper before Ampere) or an old saved report without it yields no
//! finding: absence is not a verdict. A lost GPU is judged by `gpu.lost` alone: its
//! other facts were not read.
//!
//! Thresholds are NVIDIA's where NVIDIA publishes one (the 64-page retirement limit, the
//! meaning of pending/failed row remaps, NVML's "max link possible with this device and
//! system"); where it does not (how many corrected ECC errors are "many"), the constant
//! says it is ours.

use super::catalogue::{Action, Area, Check};
use super::view;
use super::Ctx;
use crate::fact::Fact;
use crate::facts::driver_api::NvmlDevice;
use crate::facts::nvml_device::GpuProcess;
use crate::finding::{Finding, Scope, Severity};
use crate::matrix::schema::Segment;

/// Dynamic page retirement stops at 64 retired pages per GPU (NVIDIA, "GPU memory error
/// management": "a maximum of 64 retirements for the frame buffer").
pub const RETIRED_PAGES_MAX: u32 = 64;
/// Our warning point on the way to that limit (three quarters of it).
pub const RETIRED_PAGES_WARN: u32 = 48;
/// Corrected ECC errors since the driver loaded above which we warn. NVIDIA publishes no
/// threshold; corrected errors cost nothing by themselves, but a stream of them marks
/// memory that is degrading (and feeds page retirement / row remapping).
pub const CORRECTED_ECC_WARN: u64 = 1000;
/// Processes holding more than this share of a GPU's memory leave too little for a job.
pub const BUSY_MEMORY_WARN_PERCENT: u64 = 50;
/// Throttle reasons that mean the GPU is slowed by hardware protection, not by policy
/// or idleness.
const SERIOUS_THROTTLE: &[&str] = &[
    "hw_slowdown",
    "hw_thermal_slowdown",
    "hw_power_brake_slowdown",
    "sw_thermal_slowdown",
];

const GIB: f64 = 1024.0 * 1024.0 * 1024.0;

/// GPUs NVML enumerated and did not lose.
fn healthy_devices<'a>(ctx: &'a Ctx) -> impl Iterator<Item = &'a NvmlDevice> {
    view::nvml_devices(ctx.facts).iter().filter(|d| !d.lost)
}

pub(crate) fn scope(d: &NvmlDevice) -> Scope {
    Scope::Gpu {
        index: Some(d.index),
        pci_bus_id: d.pci_bus_id.value().cloned(),
    }
}

/// "GPU 0 (NVIDIA H100 80GB HBM3, 00000000:18:00.0)".
pub(crate) fn label(d: &NvmlDevice) -> String {
    let name = d.name.value().map_or("unknown GPU", String::as_str);
    match d.pci_bus_id.value() {
        Some(bus) => format!("GPU {} ({name}, {bus})", d.index),
        None => format!("GPU {} ({name})", d.index),
    }
}

pub(crate) fn path(d: &NvmlDevice, field: &str) -> String {
    format!("driver_api.nvml.devices[{}].{field}", d.index)
}

fn gib(bytes: u64) -> String {
    #[allow(clippy::cast_precision_loss)]
    let g = bytes as f64 / GIB;
    format!("{g:.1} GiB")
}

/// One pass for all GPUs when `checked` GPUs reported the fact and none had a problem.
fn all_clear(id: &Check, findings: Vec<Finding>, checked: usize, summary: &str) -> Vec<Finding> {
    if findings.is_empty() && checked > 0 {
        let gpus = if checked == 1 { "GPU" } else { "GPUs" };
        return vec![id.finding(Severity::Pass, format!("{summary} ({checked} {gpus})"))];
    }
    findings
}

/// "00000000:18:00.0" -> "0000:18:00.0", the form `lspci -s` takes.
fn lspci_address(bus: &str) -> String {
    match bus.split_once(':') {
        Some((domain, rest)) if domain.len() > 4 => {
            format!("{}:{rest}", &domain[domain.len() - 4..]).to_lowercase()
        }
        _ => bus.to_lowercase(),
    }
}

pub const GPU_LOST: Check = Check {
    id: "gpu.lost",
    name: "gpu.reachable",
    area: Area::Gpu,
    title: "NVML reaches every GPU",
    failing: "NVML reports a GPU lost (`NVML_ERROR_GPU_IS_LOST`, Xid 79): it fell off the bus; the other GPUs are still reported",
    why: "A GPU that fell off the bus is gone until a reset or reboot; jobs on it fail.",
    next_step: "Drain the node, reboot, and have the GPU inspected if it happens again.",
    action: Action::Drain,
    reads: &["driver_api"],
    not_in_paste: None,
    run: lost,
};

pub fn lost(ctx: &Ctx) -> Vec<Finding> {
    let id = &GPU_LOST;
    let devices = view::nvml_devices(ctx.facts);
    let mut findings = Vec::new();
    for d in devices.iter().filter(|d| d.lost) {
        // The call that found the GPU lost: the first fact that failed.
        let failed = [
            d.name.as_ref().map(|_| ()),
            d.uuid.as_ref().map(|_| ()),
            d.pci_bus_id.as_ref().map(|_| ()),
            d.compute_capability.as_ref().map(|_| ()),
            d.memory_total_bytes.as_ref().map(|_| ()),
            d.persistence_mode.as_ref().map(|_| ()),
            d.mig.as_ref().map(|_| ()),
            d.compute_mode.as_ref().map(|_| ()),
            d.ecc.as_ref().map(|_| ()),
            d.retired_pages.as_ref().map(|_| ()),
            d.row_remap.as_ref().map(|_| ()),
            d.pcie_link.as_ref().map(|_| ()),
            d.throttle_reasons.as_ref().map(|_| ()),
            d.processes.as_ref().map(|_| ()),
        ];
        let first_error = failed
            .iter()
            .find_map(|f| match f {
                Fact::Failed { error, .. } => Some(error.clone()),
                _ => None,
            })
            .unwrap_or_else(|| "NVML_ERROR_GPU_IS_LOST".to_string());
        findings.push(
            id.finding(
                Severity::Fail,
                format!("{} is lost: NVML says it fell off the bus", label(d)),
            )
            .scope(scope(d))
            .details(
                "NVML returned NVML_ERROR_GPU_IS_LOST: the driver can no longer reach this GPU \
                 (usually logged as Xid 79, \"GPU has fallen off the bus\"). No CUDA work can run \
                 on it, and the facts after that call were not read. Causes are power (cables, \
                 PSU), overheating, a loose card or riser, or a failing GPU. The other GPUs are \
                 judged on their own.",
            )
            .evidence(&path(d, "lost"), "true")
            .evidence(
                &format!("driver_api.nvml.devices[{}]", d.index),
                &first_error,
            )
            .fix(
                "Read the kernel log for the Xid and what preceded it, then reboot (a GPU reset \
                 rarely recovers a lost GPU; power-cycle the machine if a reboot does not). If it \
                 happens again, check power cabling, cooling and seating, and have the GPU \
                 replaced.",
                &["sudo dmesg -T | grep -iE 'xid|fallen off'", "sudo reboot"],
            ),
        );
    }
    all_clear(id, findings, devices.len(), "NVML reaches every GPU")
}

pub const GPU_ECC_ERRORS: Check = Check {
    id: "gpu.ecc_errors",
    name: "gpu.ecc",
    area: Area::Gpu,
    title: "no uncorrectable (or many corrected) ECC errors",
    failing: "uncorrectable ECC errors since the driver loaded (fail); uncorrectable errors only in the lifetime counter (warn: history, unless retirements or remaps are pending); 1000+ corrected errors since the driver loaded (warn)",
    why: "Uncorrectable ECC errors corrupt results and kill the processes that hit them.",
    next_step: "Reset the GPU; if errors come back, have it inspected.",
    action: Action::ResetGpu,
    reads: &["driver_api"],
    not_in_paste: None,
    run: ecc_errors,
};

pub fn ecc_errors(ctx: &Ctx) -> Vec<Finding> {
    let id = &GPU_ECC_ERRORS;
    let mut findings = Vec::new();
    let mut checked = 0;
    for d in healthy_devices(ctx) {
        let Some(ecc) = d.ecc.value() else { continue };
        if !ecc.enabled {
            continue;
        }
        checked += 1;
        let vol_unc = ecc.volatile_uncorrected.value().copied().unwrap_or(0);
        let agg_unc = ecc.aggregate_uncorrected.value().copied().unwrap_or(0);
        let vol_cor = ecc.volatile_corrected.value().copied().unwrap_or(0);
        let agg_cor = ecc.aggregate_corrected.value().copied().unwrap_or(0);
        let idx = d.index;
        let commands = [
            format!("nvidia-smi -q -d ECC,ROW_REMAPPER,PAGE_RETIREMENT -i {idx}"),
            format!("sudo nvidia-smi --gpu-reset -i {idx}"),
        ];
        let base = |sev: Severity, summary: String, details: &str| {
            id.finding(sev, summary)
                .scope(scope(d))
                .details(details)
                .evidence(&path(d, "ecc.volatile_uncorrected"), vol_unc)
                .evidence(&path(d, "ecc.aggregate_uncorrected"), agg_unc)
                .evidence(&path(d, "ecc.volatile_corrected"), vol_cor)
                .evidence(&path(d, "ecc.aggregate_corrected"), agg_cor)
        };
        if vol_unc > 0 {
            findings.push(
                base(
                    Severity::Fail,
                    format!(
                        "{} has uncorrectable ECC errors ({vol_unc} since the driver loaded, \
                         {agg_unc} over its lifetime)",
                        label(d)
                    ),
                    "An uncorrectable ECC error corrupts data in GPU memory: the job that hit it \
                     was killed (CUDA_ERROR_ECC_UNCORRECTABLE), and before Ampere the GPU accepts \
                     no new work until it is reset. The driver retires the page or remaps the \
                     row, which takes effect after a GPU reset; errors that come back mean \
                     failing memory.",
                )
                .fix_owned(
                    "Drain the GPU, look at its ECC, row-remapper and page-retirement state, then \
                     reset it (or reboot) so pending remaps/retirements apply. If uncorrectable \
                     errors recur after that, have the GPU replaced.",
                    commands.to_vec(),
                ),
            );
        } else if agg_unc > 0 {
            // The lifetime counter never resets: a GPU whose bad rows were remapped long ago
            // keeps it forever, so on its own it is history, not a current fault.
            findings.push(
                base(
                    Severity::Warn,
                    format!(
                        "{} had {agg_unc} uncorrectable ECC error(s) in its lifetime, none since the driver loaded",
                        label(d)
                    ),
                    "The lifetime (aggregate) counter survives reboots. If the affected pages were \
                     retired or rows remapped (see gpu.retired_pages and gpu.row_remap) the GPU is \
                     fine now; errors that come back after that mean failing memory.",
                )
                .fix_owned(
                    "Confirm no retirement or remap is pending and watch the volatile counter; \
                     replace the GPU if uncorrectable errors recur.",
                    commands[..1].to_vec(),
                ),
            );
        } else if vol_cor >= CORRECTED_ECC_WARN {
            findings.push(
                base(
                    Severity::Warn,
                    format!(
                        "{} has corrected {vol_cor} ECC errors since the driver loaded",
                        label(d)
                    ),
                    "Corrected (single-bit) errors do not harm results, but this many mark memory \
                     that is degrading; they lead to retired pages or remapped rows and can turn \
                     into uncorrectable errors. (gpu-doctor warns from 1000 corrected errors \
                     since the driver loaded; NVIDIA publishes no threshold.)",
                )
                .fix_owned(
                    "Watch the count and the GPU's row-remapper / page-retirement state; plan a \
                     reset at the next maintenance window so pending repairs apply.",
                    commands[..1].to_vec(),
                ),
            );
        }
    }
    all_clear(id, findings, checked, "No uncorrectable ECC errors")
}

pub const GPU_RETIRED_PAGES: Check = Check {
    id: "gpu.retired_pages",
    name: "gpu.page_retirement",
    area: Area::Gpu,
    title: "no memory pages waiting for retirement, and room to retire more",
    failing: "retired pages pending (warn; fail after a double-bit error): reset the GPU or reboot; 48+ of the 64 a GPU can retire (warn), 64 (fail)",
    why: "Pages waiting for retirement stay in use until a reset; a GPU near the limit is wearing out.",
    next_step: "Reset the GPU to retire the pending pages.",
    action: Action::ResetGpu,
    reads: &["driver_api"],
    not_in_paste: None,
    run: retired_pages,
};

pub fn retired_pages(ctx: &Ctx) -> Vec<Finding> {
    let id = &GPU_RETIRED_PAGES;
    let mut findings = Vec::new();
    let mut checked = 0;
    for d in healthy_devices(ctx) {
        let Some(r) = d.retired_pages.value() else {
            continue;
        };
        checked += 1;
        let total = r.single_bit_ecc.saturating_add(r.double_bit_ecc);
        let idx = d.index;
        let show = format!("nvidia-smi -q -d PAGE_RETIREMENT -i {idx}");
        let reset = format!("sudo nvidia-smi --gpu-reset -i {idx}");
        let finding = |sev: Severity, summary: String, details: String| {
            id.finding(sev, summary)
                .scope(scope(d))
                .details(details)
                .evidence(&path(d, "retired_pages.single_bit_ecc"), r.single_bit_ecc)
                .evidence(&path(d, "retired_pages.double_bit_ecc"), r.double_bit_ecc)
                .evidence(&path(d, "retired_pages.pending"), r.pending)
        };
        if total >= RETIRED_PAGES_MAX {
            findings.push(
                finding(
                    Severity::Fail,
                    format!(
                        "{} has retired {total} memory pages, the most it can retire",
                        label(d)
                    ),
                    format!(
                        "Dynamic page retirement holds at most {RETIRED_PAGES_MAX} pages per GPU; \
                         with the table full, further bad cells can no longer be taken out of \
                         use. This GPU's memory is failing."
                    ),
                )
                .fix_owned(
                    "Take the GPU out of service and have it replaced (RMA).",
                    vec![show],
                ),
            );
        } else if r.pending {
            let (sev, why) = if r.double_bit_ecc > 0 {
                (
                    Severity::Fail,
                    "After a double-bit error the driver creates no new CUDA contexts on this \
                     GPU until the bad page is mapped out, which happens only when the GPU is \
                     reattached.",
                )
            } else {
                (
                    Severity::Warn,
                    "The bad page stays in use until the GPU is reattached, so the error can \
                     strike again.",
                )
            };
            findings.push(
                finding(
                    sev,
                    format!(
                        "{} has memory pages waiting to be retired: reset the GPU or reboot",
                        label(d)
                    ),
                    format!(
                        "Pages were marked for retirement (ECC errors), but retirement takes \
                         effect only when the GPU is reset, the driver reloaded or the machine \
                         rebooted. {why}"
                    ),
                )
                .fix_owned(
                    "Drain the GPU and reset it (or reboot the machine).",
                    vec![show, reset],
                ),
            );
        } else if total >= RETIRED_PAGES_WARN {
            findings.push(
                finding(
                    Severity::Warn,
                    format!(
                        "{} has retired {total} of at most {RETIRED_PAGES_MAX} memory pages",
                        label(d)
                    ),
                    format!(
                        "Page retirement is near its limit of {RETIRED_PAGES_MAX} pages per GPU \
                         (gpu-doctor warns from {RETIRED_PAGES_WARN}); once it is full, new bad \
                         cells stay in use."
                    ),
                )
                .fix_owned(
                    "Plan to replace the GPU; watch its retired-page count.",
                    vec![show],
                ),
            );
        }
    }
    all_clear(
        id,
        findings,
        checked,
        "No memory pages waiting for retirement",
    )
}

pub const GPU_ROW_REMAP: Check = Check {
    id: "gpu.row_remap",
    name: "gpu.row_remapping",
    area: Area::Gpu,
    title: "no failed or pending memory row remaps",
    failing: "a row remap failed (fail: no spare rows left) or is pending (warn: reset the GPU)",
    why: "A pending remap takes effect only after a reset; a failed one means the memory is out of spares.",
    next_step: "Reset the GPU; a failed remap needs the GPU replaced.",
    action: Action::ResetGpu,
    reads: &["driver_api"],
    not_in_paste: None,
    run: row_remap,
};

pub fn row_remap(ctx: &Ctx) -> Vec<Finding> {
    let id = &GPU_ROW_REMAP;
    let mut findings = Vec::new();
    let mut checked = 0;
    for d in healthy_devices(ctx) {
        let Some(r) = d.row_remap.value() else {
            continue;
        };
        checked += 1;
        let idx = d.index;
        let show = format!("nvidia-smi -q -d ROW_REMAPPER -i {idx}");
        let finding = |sev: Severity, summary: String, details: &str| {
            id.finding(sev, summary)
                .scope(scope(d))
                .details(details)
                .evidence(&path(d, "row_remap.failed"), r.failed)
                .evidence(&path(d, "row_remap.pending"), r.pending)
                .evidence(&path(d, "row_remap.correctable"), r.correctable)
                .evidence(&path(d, "row_remap.uncorrectable"), r.uncorrectable)
        };
        if r.failed {
            findings.push(
                finding(
                    Severity::Fail,
                    format!("{} failed to remap a bad memory row", label(d)),
                    "A row with errors could not be replaced because its memory bank has no \
                     spare rows left, so the bad row stays in use. NVIDIA's GPU memory error \
                     management guide treats a row-remapping failure as grounds for RMA.",
                )
                .fix_owned(
                    "Take the GPU out of service and have it replaced (RMA).",
                    vec![show],
                ),
            );
        } else if r.pending {
            findings.push(
                finding(
                    Severity::Warn,
                    format!("{} has a memory row remap pending: reset the GPU", label(d)),
                    "The driver recorded a row to remap after memory errors; the hardware \
                     applies it only at the next GPU reset, and until then the faulty row is \
                     kept out of use by page offlining (or not at all before Hopper/A100).",
                )
                .fix_owned(
                    "Drain the GPU and reset it (or reboot the machine).",
                    vec![show, format!("sudo nvidia-smi --gpu-reset -i {idx}")],
                ),
            );
        }
    }
    all_clear(id, findings, checked, "No failed or pending row remaps")
}

pub const GPU_PCIE_DEGRADED: Check = Check {
    id: "gpu.pcie_degraded",
    name: "gpu.pcie_link",
    area: Area::Gpu,
    title: "each GPU's PCIe link runs at its full width and generation",
    failing: "the PCIe link is narrower than the GPU and slot allow (warn), or at a lower generation while busy (warn); a lower generation at idle is power saving (info)",
    why: "A narrower or slower link cuts host↔device bandwidth.",
    next_step: "Reseat the GPU or its riser and check the slot's BIOS settings.",
    action: Action::InspectHardware,
    reads: &["driver_api"],
    not_in_paste: None,
    run: pcie_degraded,
};

pub fn pcie_degraded(ctx: &Ctx) -> Vec<Finding> {
    let id = &GPU_PCIE_DEGRADED;
    let mut findings = Vec::new();
    let mut checked = 0;
    for d in healthy_devices(ctx) {
        let Some(link) = d.pcie_link.value() else {
            continue;
        };
        checked += 1;
        let idx = d.index;
        let mut commands = vec![format!(
            "nvidia-smi --query-gpu=pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current,pcie.link.width.max --format=csv -i {idx}"
        )];
        if let Some(bus) = d.pci_bus_id.value() {
            commands.push(format!(
                "sudo lspci -vv -s {} | grep -E 'LnkCap|LnkSta'",
                lspci_address(bus)
            ));
        }
        let now = format!("Gen{} x{}", link.current_gen, link.current_width);
        let max = format!("Gen{} x{}", link.max_gen, link.max_width);
        let finding = |sev: Severity, summary: String, details: String| {
            id.finding(sev, summary)
                .scope(scope(d))
                .details(details)
                .evidence(&path(d, "pcie_link"), format!("{now} (max {max})"))
                .evidence(
                    &path(d, "throttle_reasons"),
                    d.throttle_reasons
                        .value()
                        .map_or_else(|| "unknown".to_string(), |r| r.join(", ")),
                )
        };
        if link.current_width < link.max_width {
            findings.push(
                finding(
                    Severity::Warn,
                    format!("{} PCIe link runs at {now}, below its {max}", label(d)),
                    format!(
                        "The link trained to x{} of the x{} this GPU and slot support, which \
                         cuts host-device bandwidth (data loading, NCCL over PCIe) accordingly. \
                         A narrow link is usually a card not fully seated, a riser or cable \
                         fault, or a slot wired narrower than it looks.",
                        link.current_width, link.max_width
                    ),
                )
                .fix_owned(
                    "Compare the link capability and status; reseat the GPU (and its riser or \
                     cable) and check the slot in the board's manual and the BIOS PCIe settings.",
                    commands,
                ),
            );
        } else if link.current_gen < link.max_gen {
            let idle = d
                .throttle_reasons
                .value()
                .is_none_or(|r| r.iter().any(|x| x == "gpu_idle"));
            if idle {
                findings.push(
                    finding(
                        Severity::Info,
                        format!(
                            "{} PCIe link is at Gen{} of Gen{} while idle",
                            label(d),
                            link.current_gen,
                            link.max_gen
                        ),
                        "Idle GPUs lower their PCIe link speed to save power and raise it under \
                         load, so a lower generation at idle is normal. Only a link that stays \
                         below its maximum while the GPU is busy is a problem: check again \
                         during a job."
                            .to_string(),
                    )
                    .fix_owned(
                        "Run the query while the GPU is busy; it should report the maximum \
                         generation.",
                        commands,
                    ),
                );
            } else {
                findings.push(
                    finding(
                        Severity::Warn,
                        format!(
                            "{} PCIe link runs at Gen{} under load, below its Gen{}",
                            label(d),
                            link.current_gen,
                            link.max_gen
                        ),
                        format!(
                            "The GPU is not idle, yet its link runs at Gen{} of the Gen{} this GPU \
                             and slot support, which halves host-device bandwidth for each \
                             generation missing. Causes are signal problems (riser, cable, \
                             seating) or a BIOS setting that caps the slot's generation.",
                            link.current_gen, link.max_gen
                        ),
                    )
                    .fix_owned(
                        "Check the BIOS PCIe generation setting for the slot, reseat the GPU and \
                         its riser or cable, and compare the link capability and status.",
                        commands,
                    ),
                );
            }
        }
    }
    all_clear(id, findings, checked, "PCIe links at full width")
}

pub const GPU_THROTTLED: Check = Check {
    id: "gpu.throttled",
    name: "gpu.clocks_throttle",
    area: Area::Gpu,
    title: "no hardware, thermal or power-brake slowdown",
    failing: "hardware, thermal or power-brake slowdown active (`hw_slowdown`, `hw_thermal_slowdown`, `hw_power_brake_slowdown`, `sw_thermal_slowdown`)",
    why: "Hardware and thermal slowdown cut the clocks: jobs run slower than they should.",
    next_step: "Check the cooling, the power supply and the power cables.",
    action: Action::InspectHardware,
    reads: &["driver_api"],
    not_in_paste: None,
    run: throttled,
};

pub fn throttled(ctx: &Ctx) -> Vec<Finding> {
    let id = &GPU_THROTTLED;
    let mut findings = Vec::new();
    let mut checked = 0;
    for d in healthy_devices(ctx) {
        let Some(reasons) = d.throttle_reasons.value() else {
            continue;
        };
        checked += 1;
        let serious: Vec<&str> = reasons
            .iter()
            .map(String::as_str)
            .filter(|r| SERIOUS_THROTTLE.contains(r))
            .collect();
        if serious.is_empty() {
            continue;
        }
        let thermal = serious
            .iter()
            .any(|r| *r == "hw_thermal_slowdown" || *r == "sw_thermal_slowdown");
        let brake = serious.contains(&"hw_power_brake_slowdown");
        let mut cause = Vec::new();
        if thermal {
            cause.push("the GPU is too hot (cooling, fans, airflow, blocked inlets)");
        }
        if brake {
            cause.push("the system asserted the power brake (power supply or chassis power limit)");
        }
        if cause.is_empty() {
            cause.push(
                "hardware slowdown: overheating, a power supply that cannot deliver, or an \
                 external power brake",
            );
        }
        let temp = d
            .temperature_c
            .value()
            .map_or_else(|| "unknown".to_string(), |t| format!("{t} °C"));
        let power = match (d.power_draw_mw.value(), d.power_limit_mw.value()) {
            (Some(draw), Some(limit)) => format!("{} W of {} W", draw / 1000, limit / 1000),
            _ => "unknown".to_string(),
        };
        findings.push(
            id.finding(
                Severity::Warn,
                format!("{} clocks are held down: {}", label(d), serious.join(", ")),
            )
            .scope(scope(d))
            .details(format!(
                "The GPU runs below its clocks because {}. Jobs run slower, and unevenly \
                 across GPUs, which stalls collective operations.",
                cause.join("; ")
            ))
            .evidence(&path(d, "throttle_reasons"), reasons.join(", "))
            .evidence(&path(d, "temperature_c"), temp)
            .evidence(&path(d, "power_draw_mw"), power)
            .fix_owned(
                "Look at the clock event reasons, temperatures and power readings, then fix \
                 cooling (fans, airflow, dust) or power delivery (cables, PSU) as they point.",
                vec![format!(
                    "nvidia-smi -q -d PERFORMANCE,TEMPERATURE,POWER -i {}",
                    d.index
                )],
            ),
        );
    }
    all_clear(id, findings, checked, "No hardware or thermal slowdown")
}

pub const GPU_MIG_ENABLED: Check = Check {
    id: "gpu.mig_enabled",
    name: "gpu.mig",
    area: Area::Gpu,
    title: "MIG state, its instances and what CUDA_VISIBLE_DEVICES must name",
    failing: "MIG on (info: its instances and the MIG UUIDs `CUDA_VISIBLE_DEVICES` must name); on with no instances, or a mode change waiting for a reset (warn)",
    why: "With MIG on, CUDA sees the instances, not the GPU, and needs their UUIDs.",
    next_step: "Name the MIG instances' UUIDs in CUDA_VISIBLE_DEVICES, or reset the GPU to apply a pending mode change.",
    action: Action::None,
    reads: &["driver_api"],
    not_in_paste: None,
    run: mig_enabled,
};

pub fn mig_enabled(ctx: &Ctx) -> Vec<Finding> {
    let id = &GPU_MIG_ENABLED;
    let mut findings = Vec::new();
    let mut checked = 0;
    for d in healthy_devices(ctx) {
        let Some(mig) = d.mig.value() else { continue };
        checked += 1;
        let idx = d.index;
        let state = |on: bool| if on { "on" } else { "off" };
        if mig.current_enabled != mig.pending_enabled {
            findings.push(
                id.finding(
                    Severity::Warn,
                    format!(
                        "{} MIG mode is {} but set to turn {}: a GPU reset is needed",
                        label(d),
                        state(mig.current_enabled),
                        state(mig.pending_enabled)
                    ),
                )
                .scope(scope(d))
                .details(
                    "A MIG mode change takes effect only after the GPU is reset (or the machine \
                     rebooted); until then the GPU keeps its current mode.",
                )
                .evidence(&path(d, "mig.current_enabled"), mig.current_enabled)
                .evidence(&path(d, "mig.pending_enabled"), mig.pending_enabled)
                .fix_owned(
                    "Stop the processes on the GPU, then reset it.",
                    vec![format!("sudo nvidia-smi --gpu-reset -i {idx}")],
                ),
            );
        }
        if !mig.current_enabled {
            continue;
        }
        let uuids: Vec<&str> = mig
            .instances
            .iter()
            .filter_map(|i| i.uuid.value().map(String::as_str))
            .collect();
        if mig.instances.is_empty() {
            findings.push(
                id.finding(
                    Severity::Warn,
                    format!(
                        "{} has MIG on but no MIG instances: CUDA sees no device on it",
                        label(d)
                    ),
                )
                .scope(scope(d))
                .details(
                    "With MIG on, CUDA can use only MIG devices (GPU instances with a compute \
                     instance); none exist, so this GPU is unusable until instances are created \
                     or MIG is turned off.",
                )
                .evidence(&path(d, "mig.instances"), "none")
                .fix_owned(
                    "List the instance profiles and create instances (with their compute \
                     instances), or turn MIG off and reset the GPU.",
                    vec![
                        format!("nvidia-smi mig -lgip -i {idx}"),
                        format!("sudo nvidia-smi mig -cgi <profile-id> -C -i {idx}"),
                        format!("sudo nvidia-smi -i {idx} -mig 0"),
                    ],
                ),
            );
            continue;
        }
        let listing: Vec<String> = mig
            .instances
            .iter()
            .map(|i| {
                format!(
                    "{} {}{}",
                    i.uuid.value().map_or("(uuid unknown)", String::as_str),
                    i.name.value().map_or("", String::as_str),
                    i.memory_total_bytes
                        .value()
                        .map(|b| format!(", {}", gib(*b)))
                        .unwrap_or_default()
                )
            })
            .collect();
        let mut finding = id
            .finding(
                Severity::Info,
                format!(
                    "{} is partitioned with MIG: {} instance{}",
                    label(d),
                    mig.instances.len(),
                    if mig.instances.len() == 1 { "" } else { "s" }
                ),
            )
            .scope(scope(d))
            .details(format!(
            "CUDA does not see this GPU as a whole, only its MIG instances, and a CUDA process \
             uses one MIG instance: name it by its MIG UUID in CUDA_VISIBLE_DEVICES. \
             Instances: {}.",
            listing.join("; ")
        ))
            .evidence(&path(d, "mig.instances"), listing.join("; "));
        if let Some(first) = uuids.first() {
            finding = finding.fix_owned(
                "Point each job at one instance by its MIG UUID.",
                vec![format!("export CUDA_VISIBLE_DEVICES={first}")],
            );
        }
        findings.push(finding);
    }
    all_clear(id, findings, checked, "MIG off")
}

fn describe_process(p: &GpuProcess) -> String {
    let name = p.name.as_deref().unwrap_or("?");
    match p.used_memory_bytes {
        Some(b) => format!("{} {name} ({})", p.pid, gib(b)),
        None => format!("{} {name}", p.pid),
    }
}

pub const GPU_BUSY: Check = Check {
    id: "gpu.busy",
    name: "gpu.other_processes",
    area: Area::Gpu,
    title: "no other processes hold the GPUs' memory or compute",
    failing: "other processes hold a GPU (info; warn above half its memory), listed with pid, name and memory",
    why: "Other processes on a GPU take its memory and compute.",
    next_step: "See which processes hold the GPU and stop the ones that should not.",
    action: Action::None,
    reads: &["driver_api"],
    not_in_paste: None,
    run: busy,
};

pub fn busy(ctx: &Ctx) -> Vec<Finding> {
    let id = &GPU_BUSY;
    let mut findings = Vec::new();
    let mut checked = 0;
    for d in healthy_devices(ctx) {
        let Some(procs) = d.processes.value() else {
            continue;
        };
        checked += 1;
        let total = d.memory_total_bytes.value().copied();
        let used = d.memory_used_bytes.value().copied();
        let idx = d.index;
        let query = format!(
            "nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv -i {idx}"
        );
        if procs.is_empty() {
            // Memory held with no process visible: processes in another PID namespace
            // (another container) are invisible to NVML here.
            if let (Some(total), Some(used)) = (total, used) {
                if total > 0 && used.saturating_mul(100) / total > BUSY_MEMORY_WARN_PERCENT {
                    findings.push(
                        id.finding(
                            Severity::Info,
                            format!(
                                "{} has {} of {} memory in use by processes not visible here",
                                label(d),
                                gib(used),
                                gib(total)
                            ),
                        )
                        .scope(scope(d))
                        .details(
                            "NVML lists no compute process, yet most of the memory is taken: \
                             another container or VM is probably using this GPU.",
                        )
                        .evidence(&path(d, "memory_used_bytes"), used)
                        .evidence(&path(d, "processes"), "none visible")
                        .fix_owned(
                            "Ask on the host which processes use the GPU, or pick another GPU.",
                            vec![query],
                        ),
                    );
                }
            }
            continue;
        }
        let held: u64 = procs.iter().filter_map(|p| p.used_memory_bytes).sum();
        let heavy =
            total.is_some_and(|t| t > 0 && held.saturating_mul(100) / t > BUSY_MEMORY_WARN_PERCENT);
        let listing: Vec<String> = procs.iter().map(describe_process).collect();
        let (sev, why) = if heavy {
            (
                Severity::Warn,
                "They hold more than half of its memory: a job started here will likely run out \
                 of memory, and it shares the GPU's compute with them.",
            )
        } else {
            (
                Severity::Info,
                "A job started here shares the GPU's memory and compute with them.",
            )
        };
        let mut summary = format!(
            "{} is in use by {} other process{}",
            label(d),
            procs.len(),
            if procs.len() == 1 { "" } else { "es" }
        );
        if held > 0 {
            summary.push_str(&format!(" holding {}", gib(held)));
        }
        findings.push(
            id.finding(sev, summary)
                .scope(scope(d))
                .details(format!("Compute processes: {}. {why}", listing.join(", ")))
                .evidence(&path(d, "processes"), listing.join(", "))
                .evidence(
                    &path(d, "memory_used_bytes"),
                    used.map_or_else(|| "unknown".to_string(), gib),
                )
                .fix_owned(
                    "Stop those processes if they are leftovers (kill PID), or run on another GPU \
                     (CUDA_VISIBLE_DEVICES).",
                    vec![query],
                ),
        );
    }
    all_clear(id, findings, checked, "No other processes on the GPUs")
}

pub const GPU_COMPUTE_MODE_RESTRICTED: Check = Check {
    id: "gpu.compute_mode_restricted",
    name: "gpu.compute_mode",
    area: Area::Gpu,
    title: "compute mode lets CUDA processes in",
    failing: "compute mode Prohibited (fail), or exclusive with a process already on it (warn)",
    why: "Prohibited mode refuses every CUDA context; exclusive mode refuses a second one.",
    next_step: "Set the compute mode to Default (`sudo nvidia-smi -c DEFAULT`).",
    action: Action::FixSoftware,
    reads: &["driver_api"],
    not_in_paste: None,
    run: compute_mode_restricted,
};

pub fn compute_mode_restricted(ctx: &Ctx) -> Vec<Finding> {
    let id = &GPU_COMPUTE_MODE_RESTRICTED;
    let mut findings = Vec::new();
    let mut checked = 0;
    for d in healthy_devices(ctx) {
        let Some(mode) = d.compute_mode.value() else {
            continue;
        };
        checked += 1;
        let idx = d.index;
        let reset = vec![format!("sudo nvidia-smi -i {idx} -c DEFAULT")];
        let procs = d.processes.value().map_or(0, Vec::len);
        let finding = |sev: Severity, summary: String, details: &str| {
            id.finding(sev, summary)
                .scope(scope(d))
                .details(details)
                .evidence(&path(d, "compute_mode"), mode)
                .evidence(&path(d, "processes"), procs)
        };
        match mode.as_str() {
            "prohibited" => findings.push(
                finding(
                    Severity::Fail,
                    format!(
                        "{} compute mode is Prohibited: no CUDA work can run on it",
                        label(d)
                    ),
                    "In Prohibited mode the GPU accepts no CUDA context; every CUDA program \
                     fails on it (\"all CUDA-capable devices are busy or unavailable\").",
                )
                .fix_owned("Set the compute mode back to Default (needs root).", reset),
            ),
            "exclusive_process" | "exclusive_thread" if procs > 0 => findings.push(
                finding(
                    Severity::Warn,
                    format!(
                        "{} is in exclusive compute mode and already has a process on it",
                        label(d)
                    ),
                    "In exclusive mode the GPU takes one CUDA context at a time; another process \
                     holds it, so a new job fails with \"all CUDA-capable devices are busy or \
                     unavailable\".",
                )
                .fix_owned(
                    "Use another GPU, wait for the process to end, or set the compute mode to \
                     Default.",
                    reset,
                ),
            ),
            "exclusive_process" | "exclusive_thread" => findings.push(
                finding(
                    Severity::Info,
                    format!(
                        "{} is in exclusive compute mode (one process at a time)",
                        label(d)
                    ),
                    "Only one CUDA process can use this GPU at a time, which schedulers set on \
                     purpose; multi-process tools (several DataLoader workers touching CUDA, \
                     MPS-less sharing) fail on it.",
                )
                .fix_owned(
                    "If it is not intended, set the compute mode to Default.",
                    reset,
                ),
            ),
            _ => {}
        }
    }
    all_clear(id, findings, checked, "Compute mode Default")
}

pub const DRIVER_PERSISTENCE_OFF: Check = Check {
    id: "driver.persistence_off",
    name: "driver.persistence_mode",
    area: Area::Driver,
    title: "datacenter GPUs run with persistence mode",
    failing: "a datacenter GPU runs without persistence mode (fix: `nvidia-persistenced`, or `nvidia-smi -pm 1`)",
    why: "Without persistence the driver tears the GPU down between jobs: slow starts and lost state.",
    next_step: "Enable the nvidia-persistenced service.",
    action: Action::FixSoftware,
    reads: &["driver_api"],
    not_in_paste: None,
    run: persistence_off,
};

pub fn persistence_off(ctx: &Ctx) -> Vec<Finding> {
    let id = &DRIVER_PERSISTENCE_OFF;
    let mut findings = Vec::new();
    let mut checked = 0;
    for d in healthy_devices(ctx) {
        let Some(on) = d.persistence_mode.value() else {
            continue;
        };
        let name = d.name.value().map_or("", String::as_str);
        let datacenter = ctx
            .matrix
            .gpu_by_name(name)
            .is_some_and(|g| g.segment == Segment::Datacenter);
        if !datacenter {
            continue;
        }
        checked += 1;
        if !on {
            findings.push(
                id.finding(
                    Severity::Warn,
                    format!("{} runs without persistence mode", label(d)),
                )
                .scope(scope(d))
                .details(
                    "Without persistence (nvidia-persistenced, or the legacy persistence mode), \
                     the driver tears the GPU down whenever no program uses it and sets it up \
                     again for the next one: every job start and every nvidia-smi call pays \
                     seconds of initialisation, and settings such as ECC state or clocks can \
                     reset between jobs. NVIDIA recommends the persistence daemon on datacenter \
                     GPUs.",
                )
                .evidence(&path(d, "persistence_mode"), "false")
                .fix(
                    "Run the persistence daemon (persists across reboots), or turn on the legacy \
                     persistence mode until the next reboot.",
                    &[
                        "sudo systemctl enable --now nvidia-persistenced",
                        "sudo nvidia-smi -pm 1",
                    ],
                ),
            );
        }
    }
    all_clear(
        id,
        findings,
        checked,
        "Persistence mode on for datacenter GPUs",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::testutil::*;
    use crate::facts::nvml_device::{
        EccState, MigInstance, MigState, PcieLink, RetiredPages, RowRemap,
    };
    use crate::facts::Facts;

    /// The healthy node with its one GPU changed by `f`.
    fn with_gpu(f: impl FnOnce(&mut NvmlDevice)) -> Facts {
        let mut facts = healthy();
        if let Fact::Known { value: nvml } = &mut facts.driver_api.nvml {
            if let Fact::Known { value: devices } = &mut nvml.devices {
                f(&mut devices[0]);
            }
        }
        facts
    }

    fn one(check: fn(&Ctx) -> Vec<Finding>, facts: &Facts) -> Finding {
        let findings = run(check, facts);
        only(&findings);
        findings.into_iter().next().unwrap()
    }

    fn ecc(vu: u64, au: u64, vc: u64) -> Fact<EccState> {
        Fact::known(EccState {
            enabled: true,
            pending_enabled: true,
            volatile_corrected: Fact::known(vc),
            volatile_uncorrected: Fact::known(vu),
            aggregate_corrected: Fact::known(vc),
            aggregate_uncorrected: Fact::known(au),
        })
    }

    #[test]
    fn every_gpu_check_passes_a_healthy_gpu() {
        let facts = healthy();
        for check in [
            lost,
            ecc_errors,
            row_remap,
            pcie_degraded,
            throttled,
            mig_enabled,
            busy,
            compute_mode_restricted,
            persistence_off,
        ] {
            let f = one(check, &facts);
            assert_eq!(f.severity, Severity::Pass, "{f:#?}");
            assert_eq!(f.scope, Scope::Host);
        }
        // The H100 has no page retirement (row remapping replaced it): no finding at all.
        assert!(run(retired_pages, &facts).is_empty());
    }

    #[test]
    fn no_gpu_means_no_gpu_findings() {
        let facts = no_gpu();
        for check in [
            lost,
            ecc_errors,
            retired_pages,
            row_remap,
            busy,
            persistence_off,
        ] {
            assert!(run(check, &facts).is_empty());
        }
    }

    #[test]
    fn a_lost_gpu_fails_and_silences_the_other_checks() {
        let facts = with_gpu(|d| {
            d.lost = true;
            d.ecc = Fact::failed("nvmlDeviceGetEccMode: NVML_ERROR_GPU_IS_LOST (15)");
            d.row_remap = Fact::known(RowRemap {
                correctable: 0,
                uncorrectable: 0,
                pending: false,
                failed: true,
            });
        });
        let f = one(lost, &facts);
        assert_eq!(f.severity, Severity::Fail);
        assert_eq!(
            f.scope,
            Scope::Gpu {
                index: Some(0),
                pci_bus_id: Some("00000000:18:00.0".into())
            }
        );
        assert!(
            f.evidence.iter().any(|e| e.value.contains("GPU_IS_LOST")),
            "{f:#?}"
        );
        assert!(f.fix.unwrap().commands.iter().any(|c| c.contains("dmesg")));
        assert!(run(row_remap, &facts).is_empty());
        assert!(run(ecc_errors, &facts).is_empty());
    }

    #[test]
    fn ecc_table() {
        let cases: [(Fact<EccState>, Option<Severity>); 6] = [
            (ecc(0, 0, 0), Some(Severity::Pass)),
            (ecc(1, 1, 0), Some(Severity::Fail)),
            (ecc(0, 3, 0), Some(Severity::Warn)), // lifetime only: history
            (ecc(0, 0, CORRECTED_ECC_WARN), Some(Severity::Warn)),
            (ecc(0, 0, CORRECTED_ECC_WARN - 1), Some(Severity::Pass)),
            (
                Fact::unsupported("nvmlDeviceGetEccMode: NVML_ERROR_NOT_SUPPORTED (3)"),
                None,
            ),
        ];
        for (fact, want) in cases {
            let facts = with_gpu(|d| d.ecc = fact.clone());
            let got = run(ecc_errors, &facts);
            assert_eq!(got.first().map(|f| f.severity), want, "{fact:?}: {got:#?}");
        }
        let f = one(ecc_errors, &with_gpu(|d| d.ecc = ecc(2, 2, 0)));
        assert!(
            f.summary.contains("2 since the driver loaded"),
            "{}",
            f.summary
        );
        assert!(f
            .fix
            .unwrap()
            .commands
            .iter()
            .any(|c| c.contains("--gpu-reset -i 0")));
        // ECC off: nothing to judge.
        let off = with_gpu(|d| {
            d.ecc = Fact::known(EccState {
                enabled: false,
                pending_enabled: false,
                volatile_corrected: Fact::unsupported("off"),
                volatile_uncorrected: Fact::unsupported("off"),
                aggregate_corrected: Fact::unsupported("off"),
                aggregate_uncorrected: Fact::unsupported("off"),
            });
        });
        assert!(run(ecc_errors, &off).is_empty());
    }

    #[test]
    fn retired_pages_table() {
        let rp = |sbe, dbe, pending| {
            Fact::known(RetiredPages {
                single_bit_ecc: sbe,
                double_bit_ecc: dbe,
                pending,
            })
        };
        let cases = [
            (rp(0, 0, false), Severity::Pass),
            (rp(2, 0, true), Severity::Warn),
            (rp(0, 1, true), Severity::Fail),
            (rp(40, 8, false), Severity::Warn),
            (rp(40, 7, false), Severity::Pass),
            (rp(60, 4, false), Severity::Fail),
        ];
        for (fact, want) in cases {
            let facts = with_gpu(|d| d.retired_pages = fact.clone());
            assert_eq!(only(&run(retired_pages, &facts)), want, "{fact:?}");
        }
        let f = one(
            retired_pages,
            &with_gpu(|d| d.retired_pages = rp(1, 0, true)),
        );
        assert!(
            f.summary.contains("reset the GPU or reboot"),
            "{}",
            f.summary
        );
        assert!(f
            .fix
            .unwrap()
            .commands
            .iter()
            .any(|c| c.contains("--gpu-reset")));
    }

    #[test]
    fn row_remap_table() {
        let rr = |pending, failed| {
            Fact::known(RowRemap {
                correctable: 3,
                uncorrectable: 1,
                pending,
                failed,
            })
        };
        let cases = [
            (rr(false, false), Some(Severity::Pass)),
            (rr(true, false), Some(Severity::Warn)),
            (rr(true, true), Some(Severity::Fail)),
            (rr(false, true), Some(Severity::Fail)),
            (Fact::unsupported("older driver"), None),
        ];
        for (fact, want) in cases {
            let facts = with_gpu(|d| d.row_remap = fact.clone());
            let got = run(row_remap, &facts);
            assert_eq!(got.first().map(|f| f.severity), want, "{fact:?}");
        }
        let f = one(row_remap, &with_gpu(|d| d.row_remap = rr(true, false)));
        assert!(f.summary.contains("reset the GPU"), "{}", f.summary);
    }

    #[test]
    fn pcie_table() {
        let link = |cg, cw, mg, mw| {
            Fact::known(PcieLink {
                current_gen: cg,
                current_width: cw,
                max_gen: mg,
                max_width: mw,
            })
        };
        let idle = Fact::known(vec!["gpu_idle".to_string()]);
        let busy_gpu = Fact::known(Vec::new());
        let cases = [
            (link(5, 16, 5, 16), idle.clone(), Severity::Pass),
            (link(5, 8, 5, 16), idle.clone(), Severity::Warn),
            (link(1, 16, 5, 16), idle.clone(), Severity::Info),
            (
                link(1, 16, 5, 16),
                Fact::missing("old report"),
                Severity::Info,
            ),
            (link(3, 16, 5, 16), busy_gpu.clone(), Severity::Warn),
        ];
        for (l, t, want) in cases {
            let facts = with_gpu(|d| {
                d.pcie_link = l.clone();
                d.throttle_reasons = t.clone();
            });
            assert_eq!(only(&run(pcie_degraded, &facts)), want, "{l:?} {t:?}");
        }
        let f = one(
            pcie_degraded,
            &with_gpu(|d| d.pcie_link = link(2, 16, 5, 16)),
        );
        assert!(
            f.details.contains("Idle GPUs lower their PCIe link speed"),
            "{}",
            f.details
        );
        let f = one(
            pcie_degraded,
            &with_gpu(|d| d.pcie_link = link(5, 4, 5, 16)),
        );
        assert!(f
            .fix
            .unwrap()
            .commands
            .iter()
            .any(|c| c.contains("lspci -vv -s 0000:18:00.0")));
    }

    #[test]
    fn throttle_table() {
        let cases = [
            (vec!["gpu_idle"], Severity::Pass),
            (vec!["sw_power_cap"], Severity::Pass),
            (
                vec!["applications_clocks_setting", "sync_boost"],
                Severity::Pass,
            ),
            (vec!["hw_slowdown"], Severity::Warn),
            (vec!["hw_slowdown", "hw_thermal_slowdown"], Severity::Warn),
            (vec!["hw_power_brake_slowdown"], Severity::Warn),
            (vec!["sw_thermal_slowdown"], Severity::Warn),
        ];
        for (reasons, want) in cases {
            let facts = with_gpu(|d| {
                d.throttle_reasons =
                    Fact::known(reasons.iter().map(|s| (*s).to_string()).collect());
            });
            assert_eq!(only(&run(throttled, &facts)), want, "{reasons:?}");
        }
        let f = one(
            throttled,
            &with_gpu(|d| {
                d.throttle_reasons = Fact::known(vec!["hw_thermal_slowdown".into()]);
            }),
        );
        assert!(f.details.contains("too hot"), "{}", f.details);
        assert!(f.evidence.iter().any(|e| e.value == "34 °C"));
        assert!(run(
            throttled,
            &with_gpu(|d| d.throttle_reasons = Fact::unsupported("x"))
        )
        .is_empty());
    }

    fn instance(i: u32) -> MigInstance {
        MigInstance {
            index: i,
            uuid: Fact::known(format!("MIG-11111111-2222-3333-4444-55555555555{i}")),
            name: Fact::known("NVIDIA H100 80GB HBM3 MIG 1g.10gb".into()),
            memory_total_bytes: Fact::known(10 << 30),
        }
    }

    #[test]
    fn mig_table() {
        let mig = |current, pending, n: u32| {
            Fact::known(MigState {
                current_enabled: current,
                pending_enabled: pending,
                instances: (0..n).map(instance).collect(),
            })
        };
        let cases = [
            (mig(false, false, 0), vec![Severity::Pass]),
            (mig(true, true, 2), vec![Severity::Info]),
            (mig(true, true, 0), vec![Severity::Warn]),
            (mig(false, true, 0), vec![Severity::Warn]),
            (mig(true, false, 1), vec![Severity::Warn, Severity::Info]),
        ];
        for (fact, want) in cases {
            let facts = with_gpu(|d| d.mig = fact.clone());
            let got: Vec<Severity> = run(mig_enabled, &facts)
                .iter()
                .map(|f| f.severity)
                .collect();
            assert_eq!(got, want, "{fact:?}");
        }
        let f = one(mig_enabled, &with_gpu(|d| d.mig = mig(true, true, 2)));
        assert!(
            f.details
                .contains("MIG-11111111-2222-3333-4444-555555555551"),
            "{}",
            f.details
        );
        assert_eq!(
            f.fix.unwrap().commands,
            vec!["export CUDA_VISIBLE_DEVICES=MIG-11111111-2222-3333-4444-555555555550"]
        );
        let f = one(mig_enabled, &with_gpu(|d| d.mig = mig(false, true, 0)));
        assert!(f.summary.contains("reset is needed"), "{}", f.summary);
    }

    #[test]
    fn busy_table() {
        let p = |pid, bytes: Option<u64>| GpuProcess {
            pid,
            name: Some("python3".into()),
            used_memory_bytes: bytes,
        };
        let cases = [
            (vec![], 553_648_128, None),
            (vec![], 80_000_000_000, Some(Severity::Info)),
            (vec![p(4242, Some(2 << 30))], 3 << 30, Some(Severity::Info)),
            (vec![p(4242, None)], 3 << 30, Some(Severity::Info)),
            (
                vec![p(1, Some(40 << 30)), p(2, Some(10 << 30))],
                51 << 30,
                Some(Severity::Warn),
            ),
        ];
        for (procs, used, want) in cases {
            let facts = with_gpu(|d| {
                d.processes = Fact::known(procs.clone());
                d.memory_used_bytes = Fact::known(used);
            });
            let got = run(busy, &facts);
            let sev = got
                .iter()
                .find(|f| f.severity != Severity::Pass)
                .map(|f| f.severity);
            assert_eq!(sev, want, "{procs:?}: {got:#?}");
        }
        let facts = with_gpu(|d| d.processes = Fact::known(vec![p(4242, Some(2 << 30))]));
        let f = one(busy, &facts);
        assert!(
            f.details.contains("4242 python3 (2.0 GiB)"),
            "{}",
            f.details
        );
        assert!(f.fix.unwrap().commands[0].contains("--query-compute-apps"));
    }

    #[test]
    fn compute_mode_table() {
        let one_proc = vec![GpuProcess {
            pid: 7,
            name: None,
            used_memory_bytes: None,
        }];
        let cases = [
            ("default", vec![], Severity::Pass),
            ("prohibited", vec![], Severity::Fail),
            ("exclusive_process", one_proc.clone(), Severity::Warn),
            ("exclusive_process", vec![], Severity::Info),
        ];
        for (mode, procs, want) in cases {
            let facts = with_gpu(|d| {
                d.compute_mode = Fact::known(mode.into());
                d.processes = Fact::known(procs.clone());
            });
            assert_eq!(only(&run(compute_mode_restricted, &facts)), want, "{mode}");
        }
        let f = one(
            compute_mode_restricted,
            &with_gpu(|d| d.compute_mode = Fact::known("prohibited".into())),
        );
        assert_eq!(
            f.fix.unwrap().commands,
            vec!["sudo nvidia-smi -i 0 -c DEFAULT"]
        );
    }

    #[test]
    fn persistence_table() {
        let off = with_gpu(|d| d.persistence_mode = Fact::known(false));
        let f = one(persistence_off, &off);
        assert_eq!(f.severity, Severity::Warn);
        assert!(f
            .fix
            .unwrap()
            .commands
            .contains(&"sudo nvidia-smi -pm 1".to_string()));
        // A GeForce without persistence is normal: nothing to say.
        let geforce = with_gpu(|d| {
            d.persistence_mode = Fact::known(false);
            d.name = Fact::known("NVIDIA GeForce RTX 4090".into());
        });
        assert!(run(persistence_off, &geforce).is_empty());
        let unknown = with_gpu(|d| d.persistence_mode = not_in_report());
        assert!(run(persistence_off, &unknown).is_empty());
    }

    #[test]
    fn old_reports_without_health_facts_give_no_gpu_findings() {
        let facts = with_gpu(|d| {
            d.ecc = not_in_report();
            d.retired_pages = not_in_report();
            d.row_remap = not_in_report();
            d.pcie_link = not_in_report();
            d.throttle_reasons = not_in_report();
            d.mig = not_in_report();
            d.processes = not_in_report();
            d.compute_mode = not_in_report();
        });
        for check in [
            ecc_errors,
            retired_pages,
            row_remap,
            pcie_degraded,
            throttled,
            mig_enabled,
            busy,
            compute_mode_restricted,
        ] {
            assert!(run(check, &facts).is_empty());
        }
    }

    #[test]
    fn lspci_addresses() {
        assert_eq!(lspci_address("00000000:1A:00.0"), "0000:1a:00.0");
        assert_eq!(lspci_address("0000:18:00.0"), "0000:18:00.0");
    }

    use crate::facts::nvml_device::not_in_report;
}
