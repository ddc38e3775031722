//! Per-GPU NVML facts: identity, memory in use, and the health state the `gpu.*` checks
//! judge (ECC, retired pages, row remapping, PCIe link, throttling, MIG, compute mode,
//! processes). Runs inside the NVML worker process, like the rest of NVML.
//!
//! Only queries: nothing here changes a GPU setting, and nothing needs root. A call the
//! GPU or driver does not offer (NVML_ERROR_NOT_SUPPORTED, or a symbol an older
//! libnvidia-ml lacks) is `Unsupported`. Once a call says NVML_ERROR_GPU_IS_LOST the
//! device is not asked again: every call on a GPU that fell off the bus can take the
//! driver's full time-out, and the worker has one time limit for all GPUs.

use nvml_wrapper::bitmasks::device::ThrottleReasons;
use nvml_wrapper::enum_wrappers::device::{
    ComputeMode, EccCounter, MemoryError, RetirementCause, TemperatureSensor,
};
use nvml_wrapper::enums::device::SampleValue;
use nvml_wrapper::error::NvmlError;
use nvml_wrapper::structs::device::FieldId;
use nvml_wrapper::{Device, Nvml};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::cuda_ffi::nvml_raw;
use crate::fact::Fact;
use crate::facts::driver_codes::nvml_error_fact;
use crate::facts::nvlink::{fabric_state_name, GpuFabric, NvLink, NVLINK_MAX_LINKS};

const NVML_NOT_SUPPORTED: u32 = 3;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct NvmlDevice {
    pub index: u32,
    pub name: Fact<String>,
    pub uuid: Fact<String>,
    /// e.g. "00000000:01:00.0".
    pub pci_bus_id: Fact<String>,
    /// e.g. "9.0".
    pub compute_capability: Fact<String>,
    pub memory_total_bytes: Fact<u64>,
    // Health facts (src/facts/nvml_device.rs gathers them); reports saved before they
    // existed load with `not_in_report`.
    #[serde(default = "not_in_report::<u64>")]
    pub memory_used_bytes: Fact<u64>,
    #[serde(default = "not_in_report::<u64>")]
    pub memory_free_bytes: Fact<u64>,
    #[serde(default = "not_in_report::<bool>")]
    pub persistence_mode: Fact<bool>,
    #[serde(default = "not_in_report::<MigState>")]
    pub mig: Fact<MigState>,
    /// "default" | "exclusive_thread" | "prohibited" | "exclusive_process".
    #[serde(default = "not_in_report::<String>")]
    pub compute_mode: Fact<String>,
    #[serde(default = "not_in_report::<EccState>")]
    pub ecc: Fact<EccState>,
    #[serde(default = "not_in_report::<RetiredPages>")]
    pub retired_pages: Fact<RetiredPages>,
    #[serde(default = "not_in_report::<RowRemap>")]
    pub row_remap: Fact<RowRemap>,
    #[serde(default = "not_in_report::<PcieLink>")]
    pub pcie_link: Fact<PcieLink>,
    /// Active clock throttle reasons, snake_case ("hw_slowdown", "sw_thermal_slowdown", ...).
    #[serde(default = "not_in_report::<Vec<String>>")]
    pub throttle_reasons: Fact<Vec<String>>,
    #[serde(default = "not_in_report::<u32>")]
    pub temperature_c: Fact<u32>,
    #[serde(default = "not_in_report::<u32>")]
    pub power_draw_mw: Fact<u32>,
    #[serde(default = "not_in_report::<u32>")]
    pub power_limit_mw: Fact<u32>,
    #[serde(default = "not_in_report::<String>")]
    pub vbios: Fact<String>,
    /// Compute processes on the GPU.
    #[serde(default = "not_in_report::<Vec<GpuProcess>>")]
    pub processes: Fact<Vec<GpuProcess>>,
    /// NVLink links NVML knows on this GPU (links 0..NVML_NVLINK_MAX_LINKS that answered;
    /// empty: none, a GPU without NVLink).
    #[serde(default = "not_in_report::<Vec<NvLink>>")]
    pub nvlinks: Fact<Vec<NvLink>>,
    /// The GPU's NVSwitch fabric registration (`Unsupported` without NVSwitch).
    #[serde(default = "not_in_report::<GpuFabric>")]
    pub fabric: Fact<GpuFabric>,
    /// Some call returned NVML_ERROR_GPU_IS_LOST; the calls after it were not made.
    #[serde(default)]
    pub lost: bool,
}

/// The default of a health field absent from a saved report written before it existed,
/// so `--from` still loads old reports (and says why the value is absent).
pub fn not_in_report<T>() -> Fact<T> {
    Fact::missing("not in this report (written by an older gpu-doctor)")
}

/// MIG mode and the GPU instances CUDA can be pointed at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct MigState {
    pub current_enabled: bool,
    /// The mode after the next GPU reset; differs from `current_enabled` until then.
    pub pending_enabled: bool,
    /// MIG devices present (empty when MIG is off, or on with no instances created).
    pub instances: Vec<MigInstance>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct MigInstance {
    /// The slot index under the parent GPU (nvmlDeviceGetMigDeviceHandleByIndex).
    pub index: u32,
    /// "MIG-…": what `CUDA_VISIBLE_DEVICES` must name to use this instance.
    pub uuid: Fact<String>,
    /// e.g. "NVIDIA A100-SXM4-40GB MIG 1g.5gb".
    pub name: Fact<String>,
    pub memory_total_bytes: Fact<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct EccState {
    pub enabled: bool,
    /// The ECC mode after the next reboot / GPU reset.
    pub pending_enabled: bool,
    /// Since the driver was loaded.
    pub volatile_corrected: Fact<u64>,
    pub volatile_uncorrected: Fact<u64>,
    /// Over the GPU's lifetime (kept in the InfoROM).
    pub aggregate_corrected: Fact<u64>,
    pub aggregate_uncorrected: Fact<u64>,
}

/// Dynamic page retirement (GPUs before Ampere).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RetiredPages {
    /// Pages retired for multiple single-bit ECC errors.
    pub single_bit_ecc: u32,
    /// Pages retired for a double-bit ECC error.
    pub double_bit_ecc: u32,
    /// Retirements recorded that take effect only after the GPU is reattached
    /// (reset, driver reload or reboot).
    pub pending: bool,
}

/// Row remapping (Ampere and later).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RowRemap {
    /// Rows remapped for correctable errors.
    pub correctable: u32,
    /// Rows remapped for uncorrectable errors.
    pub uncorrectable: u32,
    /// A remapping waits for a GPU reset.
    pub pending: bool,
    /// A remapping failed (a bank ran out of spare rows).
    pub failed: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PcieLink {
    pub current_gen: u32,
    pub current_width: u32,
    /// The most this GPU and its slot can do together (NVML's "max possible with this
    /// device and system").
    pub max_gen: u32,
    pub max_width: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct GpuProcess {
    pub pid: u32,
    /// Best effort: NVML's process name, else /proc/PID/comm (a PID from another PID
    /// namespace may have no name here).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `None` where the platform cannot say (NVML_VALUE_NOT_AVAILABLE).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub used_memory_bytes: Option<u64>,
}

/// The throttle-reason bits NVML reports, by the snake_case names the checks use
/// (nvml.h `nvmlClocksThrottleReason*` / `nvmlClocksEventReason*`).
const THROTTLE_NAMES: &[(ThrottleReasons, &str)] = &[
    (ThrottleReasons::GPU_IDLE, "gpu_idle"),
    (
        ThrottleReasons::APPLICATIONS_CLOCKS_SETTING,
        "applications_clocks_setting",
    ),
    (ThrottleReasons::SW_POWER_CAP, "sw_power_cap"),
    (ThrottleReasons::HW_SLOWDOWN, "hw_slowdown"),
    (ThrottleReasons::SYNC_BOOST, "sync_boost"),
    (ThrottleReasons::SW_THERMAL_SLOWDOWN, "sw_thermal_slowdown"),
    (ThrottleReasons::HW_THERMAL_SLOWDOWN, "hw_thermal_slowdown"),
    (
        ThrottleReasons::HW_POWER_BRAKE_SLOWDOWN,
        "hw_power_brake_slowdown",
    ),
    (
        ThrottleReasons::DISPLAY_CLOCK_SETTING,
        "display_clock_setting",
    ),
];

pub fn throttle_names(reasons: ThrottleReasons) -> Vec<String> {
    THROTTLE_NAMES
        .iter()
        .filter(|(bit, _)| reasons.contains(*bit))
        .map(|(_, name)| (*name).to_string())
        .collect()
}

/// nvml.h field ids of the row remapper (`NVML_FI_DEV_REMAPPED_*`), read through
/// nvmlDeviceGetFieldValues: the same counters as nvmlDeviceGetRemappedRows, through
/// an entry point nvml-wrapper wraps without unsafe code.
const FI_REMAPPED_COR: u32 = 142;
const FI_REMAPPED_UNC: u32 = 143;
const FI_REMAPPED_PENDING: u32 = 144;
const FI_REMAPPED_FAILURE: u32 = 145;

/// NVML calls on one GPU, stopping at the first NVML_ERROR_GPU_IS_LOST.
struct Calls {
    /// The call that said the GPU is lost.
    lost_at: Option<String>,
}

/// A step of a fact that needs several calls: the first absent one decides the fact.
type Step<T> = Result<T, Fact<()>>;

impl Calls {
    fn new() -> Self {
        Calls { lost_at: None }
    }

    fn call<T>(&mut self, call: &str, f: impl FnOnce() -> Result<T, NvmlError>) -> Fact<T> {
        if let Some(at) = &self.lost_at {
            return Fact::failed(format!(
                "{call} not called: {at} returned NVML_ERROR_GPU_IS_LOST (15)"
            ));
        }
        let start = std::time::Instant::now();
        let answer = f();
        // Slow NVML calls by name (GPU_DOCTOR_TIMINGS=1; on stderr, which the parent
        // shows only then).
        if start.elapsed() >= std::time::Duration::from_millis(2) && crate::host::timings_wanted() {
            crate::host::print_timing(&format!("    {call}"), start);
        }
        match answer {
            Ok(value) => Fact::known(value),
            Err(e) => {
                if matches!(e, NvmlError::GpuLost) {
                    self.lost_at = Some(call.to_string());
                }
                nvml_error_fact(call, &e)
            }
        }
    }

    fn step<T>(&mut self, call: &str, f: impl FnOnce() -> Result<T, NvmlError>) -> Step<T> {
        match self.call(call, f) {
            Fact::Known { value } => Ok(value),
            other => Err(other.map(|_| ())),
        }
    }
}

/// The absent `Fact<()>` of a failed step, as a `Fact<T>`.
fn absent<T>(f: Fact<()>) -> Fact<T> {
    match f {
        Fact::Known { .. } => Fact::failed("internal: a known step was treated as absent"),
        Fact::Missing { why } => Fact::Missing { why },
        Fact::Unsupported { why } => Fact::Unsupported { why },
        Fact::Failed {
            error,
            command,
            stderr_tail,
        } => Fact::Failed {
            error,
            command,
            stderr_tail,
        },
    }
}

fn fact_of<T>(step: Step<T>) -> Fact<T> {
    step.map_or_else(absent, Fact::known)
}

/// Every fact of GPU `index`.
pub fn gather(nvml: &Nvml, index: u32) -> NvmlDevice {
    let mut calls = Calls::new();
    let device = calls.call("nvmlDeviceGetHandleByIndex_v2", || {
        nvml.device_by_index(index)
    });
    let device = match device {
        Fact::Known { value } => value,
        absent_handle => return without_handle(index, &absent_handle, calls.lost_at.is_some()),
    };
    let name = calls.call("nvmlDeviceGetName", || device.name());
    let uuid = calls.call("nvmlDeviceGetUUID", || device.uuid());
    let pci_bus_id = calls
        .call("nvmlDeviceGetPciInfo_v3", || device.pci_info())
        .map(|p| p.bus_id);
    let compute_capability = calls
        .call("nvmlDeviceGetCudaComputeCapability", || {
            device.cuda_compute_capability()
        })
        .map(|c| format!("{}.{}", c.major, c.minor));
    let memory = memory_info(&mut calls, &device);
    let persistence_mode = calls.call("nvmlDeviceGetPersistenceMode", || {
        device.is_in_persistent_mode()
    });
    let mig = mig_state(&mut calls, &device);
    let compute_mode = calls
        .call("nvmlDeviceGetComputeMode", || device.compute_mode())
        .map(|m| compute_mode_name(&m).to_string());
    let ecc = ecc_state(&mut calls, &device);
    let retired_pages = fact_of(retired_pages(&mut calls, &device));
    let row_remap = fact_of(row_remap(&mut calls, &device));
    let pcie_link = fact_of(pcie_link(&mut calls, &device));
    let throttle_reasons = calls
        .call("nvmlDeviceGetCurrentClocksThrottleReasons", || {
            device.current_throttle_reasons()
        })
        .map(throttle_names);
    let temperature_c = calls.call("nvmlDeviceGetTemperature", || {
        device.temperature(TemperatureSensor::Gpu)
    });
    let power_draw_mw = calls.call("nvmlDeviceGetPowerUsage", || device.power_usage());
    let power_limit_mw = calls.call("nvmlDeviceGetEnforcedPowerLimit", || {
        device.enforced_power_limit()
    });
    let vbios = calls.call("nvmlDeviceGetVbiosVersion", || device.vbios_version());
    let nvlinks = nvlinks(&mut calls, &device);
    let fabric = fabric(&mut calls, &device);
    let processes = compute_processes(nvml, &device).map(|list| {
        list.into_iter()
            .map(|(pid, used)| GpuProcess {
                pid,
                name: process_name(nvml, pid),
                used_memory_bytes: used,
            })
            .collect()
    });
    NvmlDevice {
        index,
        name,
        uuid,
        pci_bus_id,
        compute_capability,
        memory_total_bytes: memory.as_ref().map(|m| m.0),
        memory_used_bytes: memory.as_ref().map(|m| m.2),
        memory_free_bytes: memory.map(|m| m.1),
        persistence_mode,
        mig,
        compute_mode,
        ecc,
        retired_pages,
        row_remap,
        pcie_link,
        throttle_reasons,
        temperature_c,
        power_draw_mw,
        power_limit_mw,
        vbios,
        processes,
        nvlinks,
        fabric,
        lost: calls.lost_at.is_some(),
    }
}

/// A device whose handle NVML would not give: every fact carries that reason.
fn without_handle(index: u32, why: &Fact<Device<'_>>, lost: bool) -> NvmlDevice {
    let why: Fact<()> = why.as_ref().map(|_| ());
    NvmlDevice {
        index,
        name: absent(why.clone()),
        uuid: absent(why.clone()),
        pci_bus_id: absent(why.clone()),
        compute_capability: absent(why.clone()),
        memory_total_bytes: absent(why.clone()),
        memory_used_bytes: absent(why.clone()),
        memory_free_bytes: absent(why.clone()),
        persistence_mode: absent(why.clone()),
        mig: absent(why.clone()),
        compute_mode: absent(why.clone()),
        ecc: absent(why.clone()),
        retired_pages: absent(why.clone()),
        row_remap: absent(why.clone()),
        pcie_link: absent(why.clone()),
        throttle_reasons: absent(why.clone()),
        temperature_c: absent(why.clone()),
        power_draw_mw: absent(why.clone()),
        power_limit_mw: absent(why.clone()),
        vbios: absent(why.clone()),
        processes: absent(why.clone()),
        nvlinks: absent(why.clone()),
        fabric: absent(why),
        lost,
    }
}

pub fn compute_mode_name(mode: &ComputeMode) -> &'static str {
    match mode {
        ComputeMode::Default => "default",
        ComputeMode::ExclusiveThread => "exclusive_thread",
        ComputeMode::Prohibited => "prohibited",
        ComputeMode::ExclusiveProcess => "exclusive_process",
    }
}

/// Most compute processes listed per GPU; a driver reporting more (10^8 from a corrupt
/// answer) gets a failed fact, not a buffer of gigabytes.
pub const MAX_PROCESSES: u32 = 4096;
/// Most MIG device slots walked; real GPUs have at most 7 (A100/H100) or 8.
pub const MAX_MIG_SLOTS: u32 = 64;

/// (total, free, used) from `nvmlDeviceGetMemoryInfo_v2`, else (drivers before R510)
/// the v1 call.
fn memory_info(calls: &mut Calls, device: &Device<'_>) -> Fact<(u64, u64, u64)> {
    let v2 = calls.call("nvmlDeviceGetMemoryInfo_v2", || device.memory_info());
    match v2 {
        Fact::Known { value } => Fact::known((value.total, value.free, value.used)),
        Fact::Unsupported { why } if calls.lost_at.is_none() => {
            match nvml_raw::memory_info_v1(device) {
                Ok(m) => Fact::known(m),
                Err(_) => Fact::unsupported(why),
            }
        }
        other => absent(other.map(|_| ())),
    }
}

/// The compute processes, read with the struct size this driver writes (the 535.43.02–
/// 535.86.05 `_v3` is 32 bytes, where nvml-wrapper assumes 24), falling back to the
/// `_v2` and v1 calls of drivers before R510; bounded by `MAX_PROCESSES`.
fn compute_processes(nvml: &Nvml, device: &Device<'_>) -> Fact<Vec<(u32, Option<u64>)>> {
    use nvml_raw::{ProcessCall, ProcessError};
    let stride = nvml
        .sys_driver_version()
        .map_or(24, |v| nvml_raw::v3_stride(&v));
    let mut last = String::new();
    for call in [ProcessCall::V3 { stride }, ProcessCall::V2, ProcessCall::V1] {
        match nvml_raw::compute_processes(device, call, MAX_PROCESSES) {
            Ok(list) => return Fact::known(list),
            Err(ProcessError::Missing) => {
                last = format!("{} is not in this NVML", call.name());
            }
            Err(ProcessError::Code(code)) if code == NVML_NOT_SUPPORTED => {
                last = format!("{}: {}", call.name(), describe(code));
            }
            Err(ProcessError::Code(code)) => {
                return Fact::failed(format!("{}: {}", call.name(), describe(code)));
            }
            Err(ProcessError::TooMany(n)) => {
                return Fact::failed(format!(
                    "{} reported {n} processes, more than the {MAX_PROCESSES} a GPU can hold: the driver's answer is corrupt",
                    call.name()
                ));
            }
        }
    }
    Fact::unsupported(last)
}

fn describe(code: u32) -> String {
    let rc = crate::facts::driver_api::nvml_return_code(code);
    format!("{} ({})", rc.name, rc.code)
}

fn mig_state(calls: &mut Calls, device: &Device<'_>) -> Fact<MigState> {
    let mode = match calls.step("nvmlDeviceGetMigMode", || device.mig_mode()) {
        Ok(mode) => mode,
        Err(why) => return absent(why),
    };
    let current_enabled = mode.current != 0;
    let mut instances = Vec::new();
    if current_enabled {
        let slots = match calls.step("nvmlDeviceGetMaxMigDeviceCount", || {
            device.mig_device_count()
        }) {
            Ok(n) if n > MAX_MIG_SLOTS => {
                return Fact::failed(format!(
                    "nvmlDeviceGetMaxMigDeviceCount reported {n} MIG devices, more than any GPU has: the driver's answer is corrupt"
                ))
            }
            Ok(n) => n,
            Err(why) => return absent(why),
        };
        for slot in 0..slots {
            let handle = calls.call("nvmlDeviceGetMigDeviceHandleByIndex", || {
                device.mig_device_by_index(slot)
            });
            // An empty slot is NVML_ERROR_NOT_FOUND; a lost GPU stops the walk.
            let Fact::Known { value: mig } = handle else {
                if calls.lost_at.is_some() {
                    break;
                }
                continue;
            };
            let uuid = calls.call("nvmlDeviceGetUUID", || mig.uuid());
            let name = calls.call("nvmlDeviceGetName", || mig.name());
            let memory_total_bytes = calls
                .call("nvmlDeviceGetMemoryInfo_v2", || mig.memory_info())
                .map(|m| m.total);
            instances.push(MigInstance {
                index: slot,
                uuid,
                name,
                memory_total_bytes,
            });
        }
    }
    Fact::known(MigState {
        current_enabled,
        pending_enabled: mode.pending != 0,
        instances,
    })
}

fn ecc_state(calls: &mut Calls, device: &Device<'_>) -> Fact<EccState> {
    let mode = match calls.step("nvmlDeviceGetEccMode", || device.is_ecc_enabled()) {
        Ok(mode) => mode,
        Err(why) => return absent(why),
    };
    let mut count = |error: MemoryError, counter: EccCounter| {
        calls.call("nvmlDeviceGetTotalEccErrors", || {
            device.total_ecc_errors(error, counter)
        })
    };
    Fact::known(EccState {
        enabled: mode.currently_enabled,
        pending_enabled: mode.pending_enabled,
        volatile_corrected: count(MemoryError::Corrected, EccCounter::Volatile),
        volatile_uncorrected: count(MemoryError::Uncorrected, EccCounter::Volatile),
        aggregate_corrected: count(MemoryError::Corrected, EccCounter::Aggregate),
        aggregate_uncorrected: count(MemoryError::Uncorrected, EccCounter::Aggregate),
    })
}

fn count_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn retired_pages(calls: &mut Calls, device: &Device<'_>) -> Step<RetiredPages> {
    let sbe = calls.step("nvmlDeviceGetRetiredPages_v2", || {
        device.retired_pages(RetirementCause::MultipleSingleBitEccErrors)
    })?;
    let dbe = calls.step("nvmlDeviceGetRetiredPages_v2", || {
        device.retired_pages(RetirementCause::DoubleBitEccError)
    })?;
    let pending = calls.step("nvmlDeviceGetRetiredPagesPendingStatus", || {
        device.are_pages_pending_retired()
    })?;
    Ok(RetiredPages {
        single_bit_ecc: count_u32(sbe.len()),
        double_bit_ecc: count_u32(dbe.len()),
        pending,
    })
}

fn row_remap(calls: &mut Calls, device: &Device<'_>) -> Step<RowRemap> {
    let ids = [
        FI_REMAPPED_COR,
        FI_REMAPPED_UNC,
        FI_REMAPPED_PENDING,
        FI_REMAPPED_FAILURE,
    ]
    .map(FieldId);
    let call = "nvmlDeviceGetFieldValues(NVML_FI_DEV_REMAPPED_*)";
    let samples = calls.step(call, || device.field_values_for(&ids))?;
    let mut values = [0u64; 4];
    for (slot, sample) in values.iter_mut().zip(samples) {
        // Each field carries its own return code (a driver without the row remapper
        // answers NVML_ERROR_NOT_SUPPORTED per field).
        let value = calls.step(call, || sample.and_then(|s| s.value))?;
        *slot = match value {
            SampleValue::U32(v) => u64::from(v),
            SampleValue::U64(v) => v,
            SampleValue::I64(v) => u64::try_from(v).unwrap_or(0),
            // Counters are integers; a double here is the driver's odd choice of type.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            SampleValue::F64(v) => v.max(0.0) as u64,
        };
    }
    let [cor, unc, pending, failure] = values;
    Ok(RowRemap {
        correctable: u32::try_from(cor).unwrap_or(u32::MAX),
        uncorrectable: u32::try_from(unc).unwrap_or(u32::MAX),
        pending: pending != 0,
        failed: failure != 0,
    })
}

fn pcie_link(calls: &mut Calls, device: &Device<'_>) -> Step<PcieLink> {
    Ok(PcieLink {
        current_gen: calls.step("nvmlDeviceGetCurrPcieLinkGeneration", || {
            device.current_pcie_link_gen()
        })?,
        current_width: calls.step("nvmlDeviceGetCurrPcieLinkWidth", || {
            device.current_pcie_link_width()
        })?,
        max_gen: calls.step("nvmlDeviceGetMaxPcieLinkGeneration", || {
            device.max_pcie_link_gen()
        })?,
        max_width: calls.step("nvmlDeviceGetMaxPcieLinkWidth", || {
            device.max_pcie_link_width()
        })?,
    })
}

/// The links NVML knows: links 0..NVML_NVLINK_MAX_LINKS, where NOT_SUPPORTED or
/// INVALID_ARGUMENT means "no such link" (a GPU without NVLink answers NOT_SUPPORTED for
/// link 0; an A100 INVALID_ARGUMENT past its 12). Version and far end are asked of active
/// links only (an inactive link has neither).
fn nvlinks(calls: &mut Calls, device: &Device<'_>) -> Fact<Vec<NvLink>> {
    let mut links = Vec::new();
    for link in 0..NVLINK_MAX_LINKS {
        let nv = device.link_wrapper_for(link);
        // INVALID_ARGUMENT (a link index past the GPU's links) counts as NOT_SUPPORTED.
        let state = calls.call("nvmlDeviceGetNvLinkState", || match nv.is_active() {
            Err(NvmlError::InvalidArg) => Err(NvmlError::NotSupported),
            other => other,
        });
        let active = match state {
            Fact::Known { value } => value,
            Fact::Unsupported { .. } => continue,
            other => return other.map(|_| Vec::new()),
        };
        let (version, remote_pci_bus_id) = if active {
            (
                calls
                    .call("nvmlDeviceGetNvLinkVersion", || nv.version())
                    .value()
                    .copied(),
                calls
                    .call("nvmlDeviceGetNvLinkRemotePciInfo_v2", || {
                        nv.remote_pci_info()
                    })
                    .value()
                    .map(|p| p.bus_id.clone()),
            )
        } else {
            (None, None)
        };
        links.push(NvLink {
            link,
            active,
            version,
            remote_pci_bus_id,
        });
    }
    if let Some(at) = &calls.lost_at {
        return Fact::failed(format!("{at} returned NVML_ERROR_GPU_IS_LOST (15)"));
    }
    Fact::known(links)
}

/// nvmlDeviceGetGpuFabricInfoV (R550+), else nvmlDeviceGetGpuFabricInfo (R530+).
fn fabric(calls: &mut Calls, device: &Device<'_>) -> Fact<GpuFabric> {
    use nvml_raw::FabricError;
    if let Some(at) = &calls.lost_at {
        return Fact::failed(format!(
            "nvmlDeviceGetGpuFabricInfo not called: {at} returned NVML_ERROR_GPU_IS_LOST (15)"
        ));
    }
    match nvml_raw::gpu_fabric_info(device) {
        Ok(info) => {
            let rc = crate::facts::driver_codes::nvml_return_code(info.status);
            Fact::known(GpuFabric {
                state: fabric_state_name(info.state),
                status: rc.name.to_string(),
                status_code: info.status,
                clique_id: info.clique_id,
                cluster_uuid: info
                    .cluster_uuid
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect(),
                health_mask: info.health_mask,
            })
        }
        Err(FabricError::Missing) => Fact::unsupported(
            "nvmlDeviceGetGpuFabricInfo(V) is not in this libnvidia-ml (driver before R530)",
        ),
        Err(FabricError::Code { call, code }) if code == NVML_NOT_SUPPORTED => {
            Fact::unsupported(format!("{call}: {} (no NVSwitch fabric)", describe(code)))
        }
        Err(FabricError::Code { call, code }) => {
            if code == 15 {
                calls.lost_at = Some(call.to_string());
            }
            Fact::failed(format!("{call}: {}", describe(code)))
        }
    }
}

/// NVML's name for the process (it reads the host's /proc), else our /proc/PID/comm.
fn process_name(nvml: &Nvml, pid: u32) -> Option<String> {
    const NAME_BUFFER: usize = 256;
    nvml.sys_process_name(pid, NAME_BUFFER)
        .ok()
        .filter(|n| !n.trim().is_empty())
        .or_else(|| {
            std::fs::read_to_string(format!("/proc/{pid}/comm"))
                .ok()
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
        })
}

impl NvmlDevice {
    /// A GPU known only by its identity (a pasted report, a PCI listing): every health
    /// fact is `Missing` with `why`, so checks say what to run instead of guessing.
    pub fn identity_only(
        index: u32,
        name: Fact<String>,
        uuid: Fact<String>,
        pci_bus_id: Fact<String>,
        compute_capability: Fact<String>,
        memory_total_bytes: Fact<u64>,
        why: &str,
    ) -> NvmlDevice {
        NvmlDevice {
            index,
            name,
            uuid,
            pci_bus_id,
            compute_capability,
            memory_total_bytes,
            memory_used_bytes: Fact::missing(why),
            memory_free_bytes: Fact::missing(why),
            persistence_mode: Fact::missing(why),
            mig: Fact::missing(why),
            compute_mode: Fact::missing(why),
            ecc: Fact::missing(why),
            retired_pages: Fact::missing(why),
            row_remap: Fact::missing(why),
            pcie_link: Fact::missing(why),
            throttle_reasons: Fact::missing(why),
            temperature_c: Fact::missing(why),
            power_draw_mw: Fact::missing(why),
            power_limit_mw: Fact::missing(why),
            vbios: Fact::missing(why),
            processes: Fact::missing(why),
            nvlinks: Fact::missing(why),
            fabric: Fact::missing(why),
            lost: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn throttle_bits_have_their_names() {
        let r = ThrottleReasons::GPU_IDLE | ThrottleReasons::HW_THERMAL_SLOWDOWN;
        assert_eq!(throttle_names(r), vec!["gpu_idle", "hw_thermal_slowdown"]);
        assert!(throttle_names(ThrottleReasons::NONE).is_empty());
        assert_eq!(
            throttle_names(ThrottleReasons::from_bits_truncate(0x1ff)).len(),
            THROTTLE_NAMES.len()
        );
    }

    #[test]
    fn a_lost_gpu_is_not_asked_again() {
        let mut calls = Calls::new();
        let first: Fact<u32> = calls.call("nvmlA", || Err(NvmlError::GpuLost));
        assert_eq!(first.reason(), Some("nvmlA: NVML_ERROR_GPU_IS_LOST (15)"));
        let mut asked = false;
        let second: Fact<u32> = calls.call("nvmlB", || {
            asked = true;
            Ok(1)
        });
        assert!(!asked);
        assert!(matches!(second, Fact::Failed { .. }), "{second:?}");
        assert!(
            second.reason().unwrap().contains("nvmlA returned"),
            "{second:?}"
        );
    }

    #[test]
    fn a_step_keeps_the_reason() {
        let mut calls = Calls::new();
        let s: Step<u32> = calls.step("nvmlX", || Err(NvmlError::NotSupported));
        let f: Fact<PcieLink> = fact_of(s.map(|_| unreachable!()));
        assert!(matches!(f, Fact::Unsupported { .. }), "{f:?}");
        assert!(calls.lost_at.is_none());
    }

    #[test]
    fn old_reports_load_with_a_reason() {
        let f: Fact<u64> = not_in_report();
        assert!(f.reason().unwrap().contains("not in this report"));
        // A device as reports before the health facts wrote it.
        let old = serde_json::json!({
            "index": 3,
            "name": {"state": "known", "value": "NVIDIA A100-SXM4-80GB"},
            "uuid": {"state": "known", "value": "GPU-1"},
            "pci_bus_id": {"state": "known", "value": "00000000:07:00.0"},
            "compute_capability": {"state": "known", "value": "8.0"},
            "memory_total_bytes": {"state": "known", "value": 85_899_345_920u64}
        });
        let d: NvmlDevice = serde_json::from_value(old).unwrap();
        assert_eq!(d.index, 3);
        assert!(!d.lost);
        assert_eq!(d.row_remap, not_in_report());
        assert_eq!(d.processes, not_in_report());
        assert_eq!(d.memory_total_bytes, Fact::known(85_899_345_920));
    }
}
