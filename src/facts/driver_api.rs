//! NVML (nvml-wrapper) and the CUDA driver API (`cuda_ffi`), both called in a worker
//! process with a time limit: a wedged driver can hang `nvmlInit` or `cuInit`, and that
//! must become a fact, never a hung doctor.
//!
//! NVML and CUDA each get their own worker, run side by side: a crash or hang in one
//! must not hide what the other saw, and the wall time is the slower of the two.
//! The worker answers with one versioned JSON document on its last stdout line, written
//! to its own descriptor (a duplicate of the stdout pipe taken before any library loads;
//! the process's stdout then goes to stderr), so a library's chatter, however long,
//! cannot hide the answer.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use nvml_wrapper::error::NvmlError;
use nvml_wrapper::Nvml;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::cuda_ffi as kernels;
use crate::fact::Fact;
pub use crate::facts::driver_codes::ReturnCode; // moved: src/facts/driver_codes.rs
use crate::facts::driver_codes::{describe_nvml, nvml_error_code, nvml_fact};
pub use crate::facts::driver_codes::{nvml_error_fact, nvml_return_code}; // moved: src/facts/driver_codes.rs
use crate::facts::driver_libs::{
    DriverLibFacts, CUDA_LIBRARY, CUDA_SONAME, NVML_LIBRARY, NVML_SONAME,
};
pub use crate::facts::nvml_device::NvmlDevice; // moved: src/facts/nvml_device.rs
use crate::host::{run_with_timeout, signal_name, tail_lines, CommandOutput, Host, RunError};
use crate::version::cuda_version_from_int;

/// The hidden subcommand that runs the worker.
pub const WORKER_SUBCOMMAND: &str = "__driver-worker";
/// Bumped whenever `WorkerReport` changes shape, so a stale binary is not misread.
pub const WORKER_PROTOCOL: u32 = 1;
/// Hidden: the worker's time limit in milliseconds (tests).
pub const TIMEOUT_ENV: &str = "GPU_DOCTOR_DRIVER_TIMEOUT_MS";
/// nvmlInit/cuInit on a large node without persistence mode can take many seconds.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// Worker argument naming the NVML library file to load instead of the soname.
const NVML_LIB_ARG: &str = "--nvml-lib";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DriverApiFacts {
    pub nvml: Fact<NvmlFacts>,
    pub cuda: Fact<CudaFacts>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct NvmlFacts {
    /// What was loaded (path or soname).
    pub library: String,
    /// nvmlInit's result ("NVML_SUCCESS" when it worked).
    pub init: ReturnCode,
    /// e.g. "550.54.15".
    pub driver_version: Fact<String>,
    /// The CUDA version the driver supports, e.g. "12.4".
    pub cuda_driver_version: Fact<String>,
    pub devices: Fact<Vec<NvmlDevice>>,
    /// How each pair of GPUs is connected (PCIe common ancestor, NVLink).
    #[serde(default = "crate::facts::nvml_topology::pairs_not_in_report")]
    pub pairs: Fact<Vec<crate::facts::nvml_topology::GpuPairLink>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CudaFacts {
    pub library: String,
    /// cuInit(0)'s result.
    pub init: ReturnCode,
    /// cuDriverGetVersion, e.g. "12.4" (raw 12040).
    pub driver_version: Fact<String>,
    /// cuDeviceGetCount (honours CUDA_VISIBLE_DEVICES).
    pub device_count: Fact<u32>,
    /// Every CUDA ordinal, in CUDA's order (CUDA_DEVICE_ORDER, CUDA_VISIBLE_DEVICES).
    #[serde(default = "devices_not_in_report")]
    pub devices: Fact<Vec<CudaDevice>>,
}

fn devices_not_in_report() -> Fact<Vec<CudaDevice>> {
    Fact::missing("not in this report (saved by an older gpu-doctor)")
}

/// One CUDA ordinal as the driver API sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CudaDevice {
    pub ordinal: u32,
    pub name: Fact<String>,
    /// e.g. "9.0".
    pub compute_capability: Fact<String>,
    pub memory_total_bytes: Fact<u64>,
    /// As CUDA prints it, e.g. "0000:01:00.0".
    pub pci_bus_id: Fact<String>,
    /// "GPU-…" (or the MIG instance's UUID under MIG).
    pub uuid: Fact<String>,
    pub sm_count: Fact<u32>,
    pub max_threads_per_block: Fact<u32>,
    /// Maximum blocks per grid on x, y and z: the limit behind "invalid configuration
    /// argument" (y and z are 65535 on every GPU so far).
    pub max_grid: Fact<[u32; 3]>,
    pub max_block: Fact<[u32; 3]>,
    pub shared_memory_per_block_bytes: Fact<u64>,
    /// What a kernel may opt in to (cuFuncSetAttribute), above the default per-block limit.
    pub shared_memory_per_block_optin_bytes: Fact<u64>,
    pub shared_memory_per_sm_bytes: Fact<u64>,
    /// The NVML index (nvidia-smi's numbering) of the same GPU, matched by UUID, then PCI
    /// bus id; `None` when NVML did not see it.
    #[serde(default)]
    pub nvml_index: Option<u32>,
}

impl NvmlFacts {
    pub fn init_ok(&self) -> bool {
        self.init.code == 0
    }
}

impl CudaFacts {
    pub fn init_ok(&self) -> bool {
        self.init.code == 0
    }
}

/// What one worker prints as its last stdout line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkerReport {
    pub protocol: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nvml: Option<Fact<NvmlFacts>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cuda: Option<Fact<CudaFacts>>,
}

/// Which library a worker asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Nvml,
    Cuda,
}

impl Part {
    fn as_str(self) -> &'static str {
        match self {
            Part::Nvml => "nvml",
            Part::Cuda => "cuda",
        }
    }

    fn parse(s: &str) -> Option<Part> {
        match s {
            "nvml" => Some(Part::Nvml),
            "cuda" => Some(Part::Cuda),
            _ => None,
        }
    }
}

pub fn gather(host: &Host, libs: &DriverLibFacts) -> DriverApiFacts {
    let timeout = worker_timeout(host);
    let mut facts = std::thread::scope(|s| {
        let nvml = s.spawn(|| gather_part(host, libs, Part::Nvml, timeout, |r| r.nvml));
        let cuda = s.spawn(|| gather_part(host, libs, Part::Cuda, timeout, |r| r.cuda));
        DriverApiFacts {
            nvml: nvml
                .join()
                .unwrap_or_else(|_| Fact::failed("the NVML worker thread panicked")),
            cuda: cuda
                .join()
                .unwrap_or_else(|_| Fact::failed("the CUDA worker thread panicked")),
        }
    });
    map_cuda_to_nvml(&mut facts);
    facts
}

/// Fills each CUDA device's `nvml_index`: same UUID, else same PCI bus id (CUDA prints
/// a 4-digit domain, NVML an 8-digit one, so ids are compared as numbers).
pub fn map_cuda_to_nvml(facts: &mut DriverApiFacts) {
    let Some(nvml_devices) = facts.nvml.value().and_then(|n| n.devices.value()) else {
        return;
    };
    let nvml: Vec<(u32, Option<String>, Option<PciAddress>)> = nvml_devices
        .iter()
        .map(|d| {
            (
                d.index,
                d.uuid.value().cloned(),
                d.pci_bus_id.value().and_then(|b| PciAddress::parse(b)),
            )
        })
        .collect();
    let Fact::Known { value: cuda } = &mut facts.cuda else {
        return;
    };
    let Fact::Known { value: devices } = &mut cuda.devices else {
        return;
    };
    for dev in devices.iter_mut() {
        let uuid = dev.uuid.value();
        let bus = dev.pci_bus_id.value().and_then(|b| PciAddress::parse(b));
        dev.nvml_index = nvml
            .iter()
            .find(|(_, u, _)| u.is_some() && u.as_ref() == uuid)
            .or_else(|| nvml.iter().find(|(_, _, b)| b.is_some() && *b == bus))
            .map(|(i, _, _)| *i);
    }
}

/// A PCI address as numbers: domain, bus, device, function.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct PciAddress(pub u32, pub u32, pub u32, pub u32);

impl PciAddress {
    /// "0000:01:00.0", "00000000:01:00.0" or "01:00.0".
    pub fn parse(s: &str) -> Option<PciAddress> {
        let s = s.trim();
        let (rest, function) = s.rsplit_once('.')?;
        let mut parts: Vec<&str> = rest.split(':').collect();
        let device = parts.pop()?;
        let bus = parts.pop()?;
        let domain = parts.pop().unwrap_or("0");
        if !parts.is_empty() {
            return None;
        }
        let hex = |p: &str| u32::from_str_radix(p, 16).ok();
        Some(PciAddress(
            hex(domain)?,
            hex(bus)?,
            hex(device)?,
            hex(function)?,
        ))
    }
}

/// Why the driver facts are missing on a fixture root without fake driver libraries:
/// nothing was asked, so nothing may be judged from the absence.
pub const FIXTURE_SKIP: &str = "fixture root: driver libraries are not loaded";

fn worker_timeout(host: &Host) -> Duration {
    host.clamp_timeout(
        host.var(TIMEOUT_ENV)
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map_or(DEFAULT_TIMEOUT, Duration::from_millis),
    )
}

fn gather_part<T: DeserializeOwned>(
    host: &Host,
    libs: &DriverLibFacts,
    part: Part,
    timeout: Duration,
    extract: fn(WorkerReport) -> Option<Fact<T>>,
) -> Fact<T> {
    if let Some(why) = skip_reason(host, libs, part) {
        return Fact::missing(why);
    }
    let mut cmd = match worker_command(host, part) {
        Ok(cmd) => cmd,
        Err(why) => return Fact::failed(why),
    };
    let shown = format!("gpu-doctor {WORKER_SUBCOMMAND} {}", part.as_str());
    let start = std::time::Instant::now();
    let output = run_with_timeout(&mut cmd, timeout);
    host.trace_timing(&format!("  {shown}"), start);
    if let Ok(out) = &output {
        if host.timings_on() {
            for line in out
                .stderr
                .lines()
                .filter(|l| l.starts_with("gpu-doctor timing:"))
            {
                eprintln!("{line}");
            }
        }
    }
    interpret(output, &shown, timeout, extract)
}

/// Why a worker is not started: on a fixture root the real libraries must stay
/// unloaded, and without the soname on the loader's path the load can only fail.
fn skip_reason(host: &Host, libs: &DriverLibFacts, part: Part) -> Option<String> {
    if host.driver_lib_dir().is_some() {
        return None;
    }
    if host.is_fixture() {
        return Some(FIXTURE_SKIP.to_string());
    }
    let (found, soname, library) = match part {
        Part::Nvml => (&libs.nvml_soname, NVML_SONAME, NVML_LIBRARY),
        Part::Cuda => (&libs.cuda_soname, CUDA_SONAME, CUDA_LIBRARY),
    };
    if found.is_some() {
        return None;
    }
    Some(not_found_reason(libs, soname, library))
}

fn not_found_reason(libs: &DriverLibFacts, soname: &str, library: &str) -> String {
    let searched = if libs.searched.is_empty() {
        "none of the loader's folders exist".to_string()
    } else {
        libs.searched.join(", ")
    };
    let mut why = format!("{soname} not found in the dynamic loader's folders ({searched})");
    let off_path: Vec<&str> = libs
        .files_of(library)
        .filter(|f| !f.on_loader_path)
        .map(|f| f.path.as_str())
        .collect();
    if !off_path.is_empty() {
        why.push_str(&format!(
            "; installed outside them: {}",
            off_path.join(", ")
        ));
    }
    why
}

/// The worker is this binary, with the host's environment (so `CUDA_VISIBLE_DEVICES` and
/// the like apply) and, under test, only the given driver folder on the loader path.
fn worker_command(host: &Host, part: Part) -> Result<Command, String> {
    let exe = std::env::current_exe().map_err(|e| {
        format!("cannot find gpu-doctor's own executable to run the driver worker: {e}")
    })?;
    let mut cmd = Command::new(exe);
    cmd.arg(WORKER_SUBCOMMAND).arg(part.as_str());
    cmd.env_clear().envs(host.vars());
    if let Some(dir) = host.driver_lib_dir() {
        cmd.env("LD_LIBRARY_PATH", dir);
        if part == Part::Nvml {
            cmd.arg(NVML_LIB_ARG).arg(dir.join(NVML_SONAME));
        }
    }
    Ok(cmd)
}

fn interpret<T>(
    run: Result<CommandOutput, RunError>,
    shown: &str,
    timeout: Duration,
    extract: fn(WorkerReport) -> Option<Fact<T>>,
) -> Fact<T> {
    let out = match run {
        Ok(out) => out,
        Err(e) => return failed(format!("could not run the driver worker: {e}"), shown, ""),
    };
    if let Some(why) = abnormal_end(&out, timeout) {
        return failed(why, shown, &out.stderr);
    }
    match parse_report(&out.stdout).map(extract) {
        Ok(Some(fact)) => fact,
        Ok(None) => failed(
            "the driver worker's report lacks the part it was asked for",
            shown,
            &out.stderr,
        ),
        Err(why) => failed(why, shown, &out.stderr),
    }
}

fn abnormal_end(out: &CommandOutput, timeout: Duration) -> Option<String> {
    if out.timed_out {
        return Some(format!(
            "the driver worker timed out after {} ms; its process group was killed",
            timeout.as_millis()
        ));
    }
    if let Some(sig) = out.signal {
        return Some(format!(
            "the driver worker was killed by signal {sig} ({})",
            signal_name(sig)
        ));
    }
    match out.status {
        Some(0) => None,
        Some(code) => Some(format!("the driver worker exited with status {code}")),
        None => Some("the driver worker ended without an exit status".to_string()),
    }
}

/// The last stdout line that is a report; earlier lines may be a library's chatter.
fn parse_report(stdout: &str) -> Result<WorkerReport, String> {
    let report = stdout
        .lines()
        .rev()
        .find_map(|line| serde_json::from_str::<WorkerReport>(line.trim()).ok());
    match report {
        Some(r) if r.protocol == WORKER_PROTOCOL => Ok(r),
        Some(r) => Err(format!(
            "the driver worker spoke protocol {}, expected {WORKER_PROTOCOL}",
            r.protocol
        )),
        None => Err(format!(
            "the driver worker printed no report; its output ended with: {:?}",
            truncate(&tail_lines(stdout, 3), 300)
        )),
    }
}

fn truncate(s: &str, max: usize) -> String {
    let start = s.len().saturating_sub(max);
    let start = (start..=s.len())
        .find(|i| s.is_char_boundary(*i))
        .unwrap_or(s.len());
    s[start..].to_string()
}

fn failed<T>(error: impl Into<String>, command: &str, stderr: &str) -> Fact<T> {
    let tail = tail_lines(stderr, 12);
    Fact::Failed {
        error: error.into(),
        command: Some(command.to_string()),
        stderr_tail: (!tail.trim().is_empty()).then_some(tail),
    }
}

// ---------------------------------------------------------------------------------------
// The worker side.

/// Body of the hidden worker subcommand; returns the process exit code.
static ANSWER: std::sync::OnceLock<Option<std::fs::File>> = std::sync::OnceLock::new();

/// Most CUDA devices or NVML GPUs described: a driver reporting more (2^32-1 from a
/// corrupt answer) must not make the worker loop or allocate without bound.
pub const MAX_DEVICES: u32 = 256;

pub fn worker_main() -> i32 {
    // The worker runs in its own process group (so a time-out can kill it whole), which
    // also keeps Ctrl-C from reaching it: die with the parent instead of lingering in a
    // hung driver call.
    let _ = nix::sys::prctl::set_pdeathsig(nix::sys::signal::Signal::SIGKILL);
    let _ = ANSWER.set(crate::host::answer_channel());
    let args: Vec<OsString> = std::env::args_os().skip(2).collect();
    let Some(part) = args.first().and_then(|a| a.to_str()).and_then(Part::parse) else {
        eprintln!("usage: gpu-doctor {WORKER_SUBCOMMAND} nvml|cuda [{NVML_LIB_ARG} PATH]");
        return 2;
    };
    let nvml_lib = args
        .iter()
        .position(|a| a == NVML_LIB_ARG)
        .and_then(|i| args.get(i + 1))
        .map(PathBuf::from);
    let report = match part {
        Part::Nvml => WorkerReport {
            protocol: WORKER_PROTOCOL,
            nvml: Some(nvml_facts(nvml_lib.as_deref())),
            cuda: None,
        },
        Part::Cuda => WorkerReport {
            protocol: WORKER_PROTOCOL,
            nvml: None,
            cuda: Some(cuda_facts()),
        },
    };
    emit(&report)
}

/// A leading newline keeps the report on a line of its own after any library output
/// that lacks one.
fn emit(report: &WorkerReport) -> i32 {
    let text = match serde_json::to_string(report) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("gpu-doctor driver worker: cannot encode the report: {e}");
            return 1;
        }
    };
    if crate::host::write_answer(ANSWER.get().and_then(Option::as_ref), &text) {
        0
    } else {
        1
    }
}

// NVML ---------------------------------------------------------------------------------

fn nvml_facts(lib: Option<&Path>) -> Fact<NvmlFacts> {
    let library = lib.map_or_else(|| NVML_SONAME.to_string(), |p| p.display().to_string());
    let mut builder = Nvml::builder();
    if let Some(path) = lib {
        builder.lib_path(path.as_os_str());
    }
    let start = std::time::Instant::now();
    let init = builder.init();
    if crate::host::timings_wanted() {
        crate::host::print_timing("    nvmlInit_v2 (with loading the library)", start);
    }
    match init {
        Ok(nvml) => Fact::known(describe_nvml_system(&nvml, library)),
        Err(NvmlError::LibloadingError(e)) => {
            Fact::missing(format!("{library} could not be loaded: {e}"))
        }
        Err(NvmlError::FailedToLoadSymbol(detail)) => {
            Fact::unsupported(format!("{library} has no nvmlInit_v2: {detail}"))
        }
        Err(e) => match nvml_error_code(&e) {
            Some(code) => Fact::known(nvml_init_failed(library, code)),
            None => Fact::failed(format!("nvmlInit_v2: {e}")),
        },
    }
}

fn nvml_init_failed(library: String, code: u32) -> NvmlFacts {
    let why = format!("nvmlInit failed with {}", describe_nvml(code));
    NvmlFacts {
        library,
        init: nvml_return_code(code),
        driver_version: Fact::missing(why.clone()),
        cuda_driver_version: Fact::missing(why.clone()),
        devices: Fact::missing(why.clone()),
        pairs: Fact::missing(why),
    }
}

fn describe_nvml_system(nvml: &Nvml, library: String) -> NvmlFacts {
    NvmlFacts {
        library,
        init: nvml_return_code(0),
        driver_version: nvml_fact("nvmlSystemGetDriverVersion", nvml.sys_driver_version()),
        cuda_driver_version: nvml_fact(
            "nvmlSystemGetCudaDriverVersion_v2",
            nvml.sys_cuda_driver_version(),
        )
        .map(|v| cuda_version_from_int(i64::from(v))),
        devices: nvml_devices(nvml),
        pairs: match nvml.device_count() {
            Ok(count) if count <= MAX_DEVICES => crate::facts::nvml_topology::gather(nvml, count),
            Ok(_) => Fact::unsupported("too many GPUs"),
            Err(e) => nvml_error_fact("nvmlDeviceGetCount_v2", &e),
        },
    }
}

fn nvml_devices(nvml: &Nvml) -> Fact<Vec<NvmlDevice>> {
    match nvml.device_count() {
        Ok(count) if count > MAX_DEVICES => Fact::failed(format!(
            "nvmlDeviceGetCount_v2 reported {count} GPUs, more than any machine has (at most {MAX_DEVICES} are described): the driver's answer is corrupt"
        )),
        Ok(count) => Fact::known(
            (0..count)
                .map(|i| crate::facts::nvml_device::gather(nvml, i))
                .collect(),
        ),
        Err(e) => nvml_error_fact("nvmlDeviceGetCount_v2", &e),
    }
}

// CUDA ---------------------------------------------------------------------------------

/// `CUresult` names and numbers, from cuda.h (as in cudarc 0.19's bindings). Codes a
/// newer driver adds are named by the driver itself (`cuGetErrorName`).
const CUDA_RESULTS: &[(i32, &str)] = &[
    (0, "CUDA_SUCCESS"),
    (1, "CUDA_ERROR_INVALID_VALUE"),
    (2, "CUDA_ERROR_OUT_OF_MEMORY"),
    (3, "CUDA_ERROR_NOT_INITIALIZED"),
    (4, "CUDA_ERROR_DEINITIALIZED"),
    (5, "CUDA_ERROR_PROFILER_DISABLED"),
    (6, "CUDA_ERROR_PROFILER_NOT_INITIALIZED"),
    (7, "CUDA_ERROR_PROFILER_ALREADY_STARTED"),
    (8, "CUDA_ERROR_PROFILER_ALREADY_STOPPED"),
    (34, "CUDA_ERROR_STUB_LIBRARY"),
    (36, "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER"),
    (46, "CUDA_ERROR_DEVICE_UNAVAILABLE"),
    (47, "CUDA_ERROR_MULTICAST_RESOURCE_FULL"),
    (100, "CUDA_ERROR_NO_DEVICE"),
    (101, "CUDA_ERROR_INVALID_DEVICE"),
    (102, "CUDA_ERROR_DEVICE_NOT_LICENSED"),
    (200, "CUDA_ERROR_INVALID_IMAGE"),
    (201, "CUDA_ERROR_INVALID_CONTEXT"),
    (202, "CUDA_ERROR_CONTEXT_ALREADY_CURRENT"),
    (205, "CUDA_ERROR_MAP_FAILED"),
    (206, "CUDA_ERROR_UNMAP_FAILED"),
    (207, "CUDA_ERROR_ARRAY_IS_MAPPED"),
    (208, "CUDA_ERROR_ALREADY_MAPPED"),
    (209, "CUDA_ERROR_NO_BINARY_FOR_GPU"),
    (210, "CUDA_ERROR_ALREADY_ACQUIRED"),
    (211, "CUDA_ERROR_NOT_MAPPED"),
    (212, "CUDA_ERROR_NOT_MAPPED_AS_ARRAY"),
    (213, "CUDA_ERROR_NOT_MAPPED_AS_POINTER"),
    (214, "CUDA_ERROR_ECC_UNCORRECTABLE"),
    (215, "CUDA_ERROR_UNSUPPORTED_LIMIT"),
    (216, "CUDA_ERROR_CONTEXT_ALREADY_IN_USE"),
    (217, "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED"),
    (218, "CUDA_ERROR_INVALID_PTX"),
    (219, "CUDA_ERROR_INVALID_GRAPHICS_CONTEXT"),
    (220, "CUDA_ERROR_NVLINK_UNCORRECTABLE"),
    (221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND"),
    (222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"),
    (223, "CUDA_ERROR_JIT_COMPILATION_DISABLED"),
    (224, "CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY"),
    (225, "CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC"),
    (226, "CUDA_ERROR_CONTAINED"),
    (227, "CUDA_ERROR_INSUFFICIENT_LOADER_VERSION"),
    (300, "CUDA_ERROR_INVALID_SOURCE"),
    (301, "CUDA_ERROR_FILE_NOT_FOUND"),
    (302, "CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND"),
    (303, "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED"),
    (304, "CUDA_ERROR_OPERATING_SYSTEM"),
    (400, "CUDA_ERROR_INVALID_HANDLE"),
    (401, "CUDA_ERROR_ILLEGAL_STATE"),
    (402, "CUDA_ERROR_LOSSY_QUERY"),
    (500, "CUDA_ERROR_NOT_FOUND"),
    (600, "CUDA_ERROR_NOT_READY"),
    (700, "CUDA_ERROR_ILLEGAL_ADDRESS"),
    (701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"),
    (702, "CUDA_ERROR_LAUNCH_TIMEOUT"),
    (703, "CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING"),
    (704, "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED"),
    (705, "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED"),
    (708, "CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE"),
    (709, "CUDA_ERROR_CONTEXT_IS_DESTROYED"),
    (710, "CUDA_ERROR_ASSERT"),
    (711, "CUDA_ERROR_TOO_MANY_PEERS"),
    (712, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED"),
    (713, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED"),
    (714, "CUDA_ERROR_HARDWARE_STACK_ERROR"),
    (715, "CUDA_ERROR_ILLEGAL_INSTRUCTION"),
    (716, "CUDA_ERROR_MISALIGNED_ADDRESS"),
    (717, "CUDA_ERROR_INVALID_ADDRESS_SPACE"),
    (718, "CUDA_ERROR_INVALID_PC"),
    (719, "CUDA_ERROR_LAUNCH_FAILED"),
    (720, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE"),
    (721, "CUDA_ERROR_TENSOR_MEMORY_LEAK"),
    (800, "CUDA_ERROR_NOT_PERMITTED"),
    (801, "CUDA_ERROR_NOT_SUPPORTED"),
    (802, "CUDA_ERROR_SYSTEM_NOT_READY"),
    (803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"),
    (804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"),
    (805, "CUDA_ERROR_MPS_CONNECTION_FAILED"),
    (806, "CUDA_ERROR_MPS_RPC_FAILURE"),
    (807, "CUDA_ERROR_MPS_SERVER_NOT_READY"),
    (808, "CUDA_ERROR_MPS_MAX_CLIENTS_REACHED"),
    (809, "CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED"),
    (810, "CUDA_ERROR_MPS_CLIENT_TERMINATED"),
    (811, "CUDA_ERROR_CDP_NOT_SUPPORTED"),
    (812, "CUDA_ERROR_CDP_VERSION_MISMATCH"),
    (900, "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED"),
    (901, "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED"),
    (902, "CUDA_ERROR_STREAM_CAPTURE_MERGE"),
    (903, "CUDA_ERROR_STREAM_CAPTURE_UNMATCHED"),
    (904, "CUDA_ERROR_STREAM_CAPTURE_UNJOINED"),
    (905, "CUDA_ERROR_STREAM_CAPTURE_ISOLATION"),
    (906, "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT"),
    (907, "CUDA_ERROR_CAPTURED_EVENT"),
    (908, "CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD"),
    (909, "CUDA_ERROR_TIMEOUT"),
    (910, "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE"),
    (911, "CUDA_ERROR_EXTERNAL_DEVICE"),
    (912, "CUDA_ERROR_INVALID_CLUSTER_SIZE"),
    (913, "CUDA_ERROR_FUNCTION_NOT_LOADED"),
    (914, "CUDA_ERROR_INVALID_RESOURCE_TYPE"),
    (915, "CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION"),
    (916, "CUDA_ERROR_KEY_ROTATION"),
    (917, "CUDA_ERROR_STREAM_DETACHED"),
    (918, "CUDA_ERROR_GRAPH_RECAPTURE_FAILURE"),
    (919, "CUDA_ERROR_FABRIC_NOT_READY"),
    (999, "CUDA_ERROR_UNKNOWN"),
];

/// Our table's name for a `CUresult`, if the code is one cuda.h 12.8 knows.
pub fn cuda_result_name(code: i32) -> Option<&'static str> {
    CUDA_RESULTS
        .iter()
        .find(|(c, _)| *c == code)
        .map(|(_, n)| *n)
}

fn cuda_return_code(driver: &kernels::CudaDriver, code: i32) -> ReturnCode {
    let name = cuda_result_name(code)
        .map(str::to_string)
        .or_else(|| driver.error_name(code))
        .unwrap_or_else(|| "CUDA_UNRECOGNIZED_RESULT".to_string());
    ReturnCode {
        name,
        code: i64::from(code),
        message: driver.error_string(code),
    }
}

fn describe_cuda(rc: &ReturnCode) -> String {
    format!("{} ({})", rc.name, rc.code)
}

fn cuda_facts() -> Fact<CudaFacts> {
    let driver = match kernels::load_cuda() {
        Ok(d) => d,
        Err(why) => return Fact::missing(format!("libcuda could not be loaded: {why}")),
    };
    let library = driver.loaded_name.clone();
    let start = std::time::Instant::now();
    let init = driver.init();
    if crate::host::timings_wanted() {
        crate::host::print_timing("    cuInit (with loading libcuda)", start);
    }
    let init = match init {
        Ok(code) => cuda_return_code(&driver, code),
        Err(kernels::CallError::MissingSymbol(s)) => {
            return Fact::unsupported(format!("{library} has no cuInit: {s}"))
        }
    };
    let driver_version = cuda_driver_version(&driver);
    let device_count = if init.code == 0 {
        cuda_device_count(&driver)
    } else {
        Fact::missing(format!(
            "cuInit failed with {}, so devices cannot be counted",
            describe_cuda(&init)
        ))
    };
    let devices = match &device_count {
        Fact::Known { value } if *value > MAX_DEVICES => Fact::failed(format!(
            "cuDeviceGetCount reported {value} devices, more than any machine has (at most {MAX_DEVICES} are described): the driver's answer is corrupt"
        )),
        Fact::Known { value } => {
            Fact::known((0..*value).map(|i| cuda_device(&driver, i)).collect())
        }
        other => Fact::missing(format!(
            "no device count: {}",
            other.reason().unwrap_or("unknown")
        )),
    };
    Fact::known(CudaFacts {
        library,
        init,
        driver_version,
        device_count,
        devices,
    })
}

fn cuda_fact<T>(driver: &kernels::CudaDriver, r: kernels::CuResult<T>) -> Fact<T> {
    match r {
        Ok(v) => Fact::known(v),
        Err(kernels::CuError::MissingSymbol(s)) => {
            Fact::unsupported(format!("not in this libcuda (older driver): {s}"))
        }
        Err(kernels::CuError::Code { call, code }) => Fact::failed(format!(
            "{call}: {}",
            describe_cuda(&cuda_return_code(driver, code))
        )),
    }
}

fn cuda_device(driver: &kernels::CudaDriver, ordinal: u32) -> CudaDevice {
    use kernels::attr;
    let dev = i32::try_from(ordinal)
        .map_err(|_| kernels::CuError::Code {
            call: "cuDeviceGet",
            code: 101,
        })
        .and_then(|o| driver.device(o));
    let attr_u32 = |a: i32| -> Fact<u32> {
        let r = dev.clone().and_then(|d| driver.device_attribute(d, a));
        cuda_fact(driver, r).map(|v| u32::try_from(v).unwrap_or(0))
    };
    let attr3 = |attrs: [i32; 3]| -> Fact<[u32; 3]> {
        let r = dev.clone().and_then(|d| {
            let mut out = [0u32; 3];
            for (slot, a) in out.iter_mut().zip(attrs) {
                *slot = u32::try_from(driver.device_attribute(d, a)?).unwrap_or(0);
            }
            Ok(out)
        });
        cuda_fact(driver, r)
    };
    let cc = dev.clone().and_then(|d| {
        Ok(format!(
            "{}.{}",
            driver.device_attribute(d, attr::COMPUTE_CAPABILITY_MAJOR)?,
            driver.device_attribute(d, attr::COMPUTE_CAPABILITY_MINOR)?
        ))
    });
    CudaDevice {
        ordinal,
        name: cuda_fact(driver, dev.clone().and_then(|d| driver.device_name(d))),
        compute_capability: cuda_fact(driver, cc),
        memory_total_bytes: cuda_fact(driver, dev.clone().and_then(|d| driver.device_total_mem(d))),
        pci_bus_id: cuda_fact(
            driver,
            dev.clone().and_then(|d| driver.device_pci_bus_id(d)),
        ),
        uuid: cuda_fact(
            driver,
            dev.clone()
                .and_then(|d| driver.device_uuid(d))
                .map(|(u, mig)| {
                    if mig {
                        format_mig_uuid(&u)
                    } else {
                        format_uuid(&u)
                    }
                }),
        ),
        sm_count: attr_u32(attr::MULTIPROCESSOR_COUNT),
        max_threads_per_block: attr_u32(attr::MAX_THREADS_PER_BLOCK),
        max_grid: attr3([
            attr::MAX_GRID_DIM_X,
            attr::MAX_GRID_DIM_Y,
            attr::MAX_GRID_DIM_Z,
        ]),
        max_block: attr3([
            attr::MAX_BLOCK_DIM_X,
            attr::MAX_BLOCK_DIM_Y,
            attr::MAX_BLOCK_DIM_Z,
        ]),
        shared_memory_per_block_bytes: attr_u32(attr::MAX_SHARED_MEMORY_PER_BLOCK).map(u64::from),
        shared_memory_per_block_optin_bytes: attr_u32(attr::MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
            .map(u64::from),
        shared_memory_per_sm_bytes: attr_u32(attr::MAX_SHARED_MEMORY_PER_MULTIPROCESSOR)
            .map(u64::from),
        nvml_index: None,
    }
}

/// The form nvidia-smi and CUDA_VISIBLE_DEVICES use: "GPU-" and 8-4-4-4-12 hex digits.
pub fn format_uuid(bytes: &[u8; 16]) -> String {
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "GPU-{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

/// A MIG instance's UUID as `nvidia-smi -L` and CUDA_VISIBLE_DEVICES write it: "MIG-"
/// and 8-4-4-4-12 hex digits.
pub fn format_mig_uuid(bytes: &[u8; 16]) -> String {
    format!("MIG-{}", &format_uuid(bytes)[4..])
}

fn cuda_driver_version(driver: &kernels::CudaDriver) -> Fact<String> {
    match driver.driver_version() {
        Ok((0, v)) => Fact::known(cuda_version_from_int(i64::from(v))),
        Ok((code, _)) => Fact::failed(format!(
            "cuDriverGetVersion: {}",
            describe_cuda(&cuda_return_code(driver, code))
        )),
        Err(kernels::CallError::MissingSymbol(s)) => Fact::unsupported(s),
    }
}

fn cuda_device_count(driver: &kernels::CudaDriver) -> Fact<u32> {
    match driver.device_count() {
        Ok((0, n)) => u32::try_from(n).map_or_else(
            |_| Fact::failed(format!("cuDeviceGetCount returned a negative count {n}")),
            Fact::known,
        ),
        Ok((code, _)) => Fact::failed(format!(
            "cuDeviceGetCount: {}",
            describe_cuda(&cuda_return_code(driver, code))
        )),
        Err(kernels::CallError::MissingSymbol(s)) => Fact::unsupported(s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn output(
        status: Option<i32>,
        signal: Option<i32>,
        timed_out: bool,
        stdout: &str,
    ) -> CommandOutput {
        CommandOutput {
            status,
            signal,
            timed_out,
            stdout: stdout.to_string(),
            stderr: "driver said: boom\n".to_string(),
            elapsed: Duration::from_millis(5),
        }
    }

    fn cuda_of(r: WorkerReport) -> Option<Fact<CudaFacts>> {
        r.cuda
    }

    fn run(out: CommandOutput) -> Fact<CudaFacts> {
        interpret(Ok(out), "w", Duration::from_millis(250), cuda_of)
    }

    #[test]
    fn nvml_codes_have_names() {
        assert_eq!(
            nvml_return_code(18).name,
            "NVML_ERROR_LIB_RM_VERSION_MISMATCH"
        );
        assert_eq!(nvml_return_code(9).name, "NVML_ERROR_DRIVER_NOT_LOADED");
        assert_eq!(nvml_return_code(4).name, "NVML_ERROR_NO_PERMISSION");
        assert_eq!(nvml_return_code(999).name, "NVML_ERROR_UNKNOWN");
        assert_eq!(nvml_return_code(12345).name, "NVML_UNRECOGNIZED_RETURN");
        assert_eq!(nvml_return_code(12345).code, 12345);
    }

    #[test]
    fn nvml_errors_become_facts() {
        let f: Fact<u8> = nvml_error_fact("nvmlX", &NvmlError::NotSupported);
        assert!(matches!(f, Fact::Unsupported { .. }));
        let f: Fact<u8> = nvml_error_fact("nvmlX", &NvmlError::FailedToLoadSymbol("gone".into()));
        assert!(matches!(f, Fact::Unsupported { .. }));
        let f: Fact<u8> = nvml_error_fact("nvmlX", &NvmlError::GpuLost);
        assert_eq!(f.reason(), Some("nvmlX: NVML_ERROR_GPU_IS_LOST (15)"));
        let f: Fact<u8> = nvml_error_fact("nvmlX", &NvmlError::UnexpectedVariant(4242));
        assert_eq!(f.reason(), Some("nvmlX: NVML_UNRECOGNIZED_RETURN (4242)"));
    }

    #[test]
    fn cuda_codes_have_names() {
        assert_eq!(cuda_result_name(802), Some("CUDA_ERROR_SYSTEM_NOT_READY"));
        assert_eq!(
            cuda_result_name(803),
            Some("CUDA_ERROR_SYSTEM_DRIVER_MISMATCH")
        );
        assert_eq!(
            cuda_result_name(804),
            Some("CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE")
        );
        assert_eq!(cuda_result_name(100), Some("CUDA_ERROR_NO_DEVICE"));
        assert_eq!(cuda_result_name(999), Some("CUDA_ERROR_UNKNOWN"));
        assert_eq!(cuda_result_name(4242), None);
    }

    #[test]
    fn a_report_after_library_chatter_is_read() {
        let report = WorkerReport {
            protocol: WORKER_PROTOCOL,
            nvml: None,
            cuda: Some(Fact::missing("no libcuda")),
        };
        let stdout = format!(
            "libcuda says hi\n{}\n",
            serde_json::to_string(&report).unwrap()
        );
        assert_eq!(
            run(output(Some(0), None, false, &stdout)),
            Fact::missing("no libcuda")
        );
    }

    #[test]
    fn garbage_output_is_a_failure_with_evidence() {
        let f = run(output(Some(0), None, false, "{\"protocol\": 1, \"cud"));
        let Fact::Failed {
            error,
            command,
            stderr_tail,
        } = f
        else {
            panic!("{f:?}")
        };
        assert!(error.contains("printed no report"), "{error}");
        assert_eq!(command.as_deref(), Some("w"));
        assert_eq!(stderr_tail.as_deref(), Some("driver said: boom"));
    }

    #[test]
    fn another_protocol_is_refused() {
        let f = run(output(Some(0), None, false, "{\"protocol\": 99}"));
        assert!(f.reason().unwrap().contains("protocol 99"), "{f:?}");
    }

    #[test]
    fn a_report_without_the_part_is_refused() {
        let f = run(output(Some(0), None, false, "{\"protocol\": 1}"));
        assert!(f.reason().unwrap().contains("lacks"), "{f:?}");
    }

    #[test]
    fn abnormal_ends() {
        let f = run(output(None, Some(11), false, ""));
        assert!(f.reason().unwrap().contains("signal 11 (SIGSEGV)"), "{f:?}");
        let f = run(output(None, Some(9), true, ""));
        assert!(
            f.reason().unwrap().contains("timed out after 250 ms"),
            "{f:?}"
        );
        let f = run(output(Some(101), None, false, ""));
        assert!(f.reason().unwrap().contains("status 101"), "{f:?}");
    }

    #[test]
    fn fixture_roots_do_not_load_drivers() {
        let dir = tempfile::tempdir().unwrap();
        let host = Host::fixture(dir.path(), &[]);
        let facts = gather(&host, &DriverLibFacts::default());
        assert_eq!(
            facts.nvml,
            Fact::missing("fixture root: driver libraries are not loaded")
        );
        assert_eq!(
            facts.cuda,
            Fact::missing("fixture root: driver libraries are not loaded")
        );
    }

    #[test]
    fn a_missing_soname_names_the_library_and_folders() {
        let host = Host::fixture("/", &[]);
        let libs = DriverLibFacts {
            searched: vec!["/usr/lib/x86_64-linux-gnu".into()],
            files: vec![crate::facts::driver_libs::DriverLibFile {
                path: "/usr/local/nvidia/lib64/libcuda.so.550.54.15".into(),
                library: "libcuda".into(),
                version: "550.54.15".into(),
                compat: false,
                on_loader_path: false,
            }],
            nvml_soname: None,
            cuda_soname: None,
            cuda_stub: None,
        };
        let why = skip_reason(&host, &libs, Part::Cuda).unwrap();
        assert!(why.starts_with("libcuda.so.1 not found"), "{why}");
        assert!(why.contains("/usr/lib/x86_64-linux-gnu"), "{why}");
        assert!(
            why.contains("installed outside them: /usr/local/nvidia/lib64/libcuda.so.550.54.15"),
            "{why}"
        );
        let why = skip_reason(&host, &libs, Part::Nvml).unwrap();
        assert!(why.starts_with("libnvidia-ml.so.1 not found"), "{why}");
    }

    #[test]
    fn timeout_comes_from_the_hidden_variable() {
        let host = Host::fixture("/x", &[(TIMEOUT_ENV, "150")]);
        assert_eq!(worker_timeout(&host), Duration::from_millis(150));
        let host = Host::fixture("/x", &[(TIMEOUT_ENV, "soon")]);
        assert_eq!(worker_timeout(&host), DEFAULT_TIMEOUT);
    }

    #[test]
    fn truncation_respects_characters() {
        assert_eq!(truncate("ééé", 3), "é");
        assert_eq!(truncate("abc", 10), "abc");
    }
}
