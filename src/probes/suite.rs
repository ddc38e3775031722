//! The probes themselves, run inside a probe worker against one CUDA ordinal. Safe code
//! over the wrappers in `kernels`; each probe verifies what the GPU computed.

use std::path::PathBuf;
use std::time::Instant;

use crate::cuda_ffi::{
    self, lt, Context, CuError, CublasLt, CudaDriver, Device, DeviceMemory, KernelArg, LaunchShape,
    MatmulSpec,
};
use crate::facts::driver_api::cuda_result_name;
use crate::facts::probe::{Measurement, ProbeCode, ProbeKind, ProbeOutcome};

/// The probe kernels (PTX ISA 6.0, sm_50), JIT-compiled by the driver.
pub const PTX: &str = include_str!("../../assets/probes.ptx");
/// Kernel names in `PTX`.
pub const KERNELS: [&str; 3] = ["fill_index", "count_blocks", "add_one"];

/// Elements the launch probe writes and checks (4 MiB).
const LAUNCH_ELEMENTS: u32 = 1 << 20;
/// The bandwidth probe's buffer: big enough to reach steady copy speed, small enough to
/// never matter on a busy node.
const BANDWIDTH_BYTES: usize = 64 << 20;
const BANDWIDTH_REPEATS: u32 = 5;
/// Device-to-device copies timed with CUDA events after a warm-up copy.
const DEVICE_COPY_REPEATS: u32 = 20;
/// The grid probe's launch at the x limit (2^31-1 blocks) may take this long; past it a
/// measured smaller launch stands in (slow GPUs, small MIG slices, MPS, time-slicing).
const GRID_TIME_BUDGET_S: f64 = 2.0;
/// With the display watchdog on, no launch may come near its limit (seconds on Linux).
const GRID_WATCHDOG_BUDGET_S: f64 = 0.5;
/// Blocks per SM in the grid probe's timing launch.
const GRID_CALIBRATION_BLOCKS_PER_SM: u32 = 2048;
/// The OOM probe holds at most this much (or an eighth of free memory, if less).
const OOM_HOLD_MAX_BYTES: u64 = 1 << 30;
/// Free memory may differ by this much after the OOM probe (the driver's own pools).
const OOM_FREE_TOLERANCE_BYTES: u64 = 64 << 20;
/// cuBLASLt workspace offered (PyTorch's default on Hopper is 32 MiB).
const CUBLASLT_WORKSPACE_BYTES: usize = 32 << 20;
const MATMUL_SIZE: u64 = 64;
/// `cublasLtGetVersion` of the first release with FP8 matmuls (cuBLAS 11.11, CUDA 11.8).
const CUBLASLT_FP8_VERSION: usize = 111100;
const GRAPH_LAUNCHES: u32 = 3;
const GRAPH_REPLAYS: u32 = 10;

/// What every probe needs: the driver, the device and its current context.
pub struct Gpu<'d> {
    pub driver: &'d CudaDriver,
    pub device: Device,
    pub ordinal: i32,
    pub ctx: Context<'d>,
    /// cuBLASLt libraries to try, best first.
    pub cublaslt: Vec<PathBuf>,
}

/// `ProbeCode::name` for an entry point the library lacks (no call was made).
pub use crate::facts::probe::MISSING_ENTRY_POINT;

/// Codes after which the context is unusable until the process ends (cuda.h: "the
/// process is left in an inconsistent state and any further CUDA work will return the
/// same error"): later probes need a fresh worker.
pub fn is_sticky(code: i64) -> bool {
    matches!(code, 214 | 700 | 702 | 709 | 710 | 714..=719 | 999)
}

/// The driver code a probe ended on, when it poisons the context.
pub fn sticky_code(outcome: &ProbeOutcome) -> Option<i64> {
    match outcome {
        ProbeOutcome::Failed { code: Some(c), .. }
            if !c.call.starts_with("cublas")
                && !c.call.starts_with("nccl")
                && is_sticky(c.code) =>
        {
            Some(c.code)
        }
        _ => None,
    }
}

/// Runs one probe. Every driver error becomes a `Failed` outcome with its code.
pub fn run(gpu: &Gpu<'_>, probe: ProbeKind) -> ProbeOutcome {
    let result = match probe {
        ProbeKind::Launch => launch(gpu),
        ProbeKind::GridLimit => grid_limit(gpu),
        ProbeKind::Ordinal => ordinal(gpu),
        ProbeKind::Cublaslt => cublaslt(gpu),
        ProbeKind::Graph => graph(gpu),
        ProbeKind::Bandwidth => bandwidth(gpu),
        ProbeKind::Oom => oom(gpu),
        ProbeKind::P2p | ProbeKind::Nccl => Ok(ProbeOutcome::Skipped {
            why: format!(
                "{} runs between GPUs, in a worker that holds them all",
                probe.as_str()
            ),
        }),
    };
    let mut outcome =
        result.unwrap_or_else(|e| failed_call(gpu.driver, &e, "a driver call failed"));
    // The JIT's own message says why PTX did not compile.
    if let ProbeOutcome::Failed {
        code: Some(c),
        notes,
        ..
    } = &mut outcome
    {
        let log = gpu.ctx.jit_log();
        if c.call == "cuModuleLoadDataEx" && !log.is_empty() {
            notes.push(format!("JIT error log: {log}"));
        }
    }
    outcome
}

type ProbeRun = Result<ProbeOutcome, CuError>;

/// A `CUresult` or `cublasStatus_t` by name.
pub fn probe_code(driver: &CudaDriver, call: &str, code: i32) -> ProbeCode {
    let name = if call.starts_with("cublas") {
        cublas_status_name(code).to_string()
    } else {
        cuda_result_name(code)
            .map(str::to_string)
            .or_else(|| driver.error_name(code))
            .unwrap_or_else(|| "CUDA_UNRECOGNIZED_RESULT".to_string())
    };
    ProbeCode {
        call: call.to_string(),
        name,
        code: i64::from(code),
    }
}

/// `cublasStatus_t` names, from cublas_api.h.
pub fn cublas_status_name(code: i32) -> &'static str {
    match code {
        0 => "CUBLAS_STATUS_SUCCESS",
        1 => "CUBLAS_STATUS_NOT_INITIALIZED",
        3 => "CUBLAS_STATUS_ALLOC_FAILED",
        7 => "CUBLAS_STATUS_INVALID_VALUE",
        8 => "CUBLAS_STATUS_ARCH_MISMATCH",
        11 => "CUBLAS_STATUS_MAPPING_ERROR",
        13 => "CUBLAS_STATUS_EXECUTION_FAILED",
        14 => "CUBLAS_STATUS_INTERNAL_ERROR",
        15 => "CUBLAS_STATUS_NOT_SUPPORTED",
        16 => "CUBLAS_STATUS_LICENSE_ERROR",
        _ => "CUBLAS_STATUS_UNRECOGNIZED",
    }
}

fn failed_call(driver: &CudaDriver, e: &CuError, context: &str) -> ProbeOutcome {
    match e {
        CuError::Code { call, code } => {
            let code = probe_code(driver, call, *code);
            ProbeOutcome::Failed {
                reason: format!(
                    "{context}: {} returned {} ({})",
                    code.call, code.name, code.code
                ),
                code: Some(code),
                measurements: Vec::new(),
                notes: Vec::new(),
            }
        }
        CuError::MissingSymbol(s) => missing_entry_point(driver, s),
    }
}

/// A probe that could not run because libcuda lacks an entry point: one fact about the
/// library (reported once, as driver.entry_point_missing), not about the GPU.
pub fn missing_entry_point(driver: &CudaDriver, detail: &str) -> ProbeOutcome {
    let symbol = detail
        .split(':')
        .next()
        .unwrap_or(detail)
        .trim()
        .to_string();
    ProbeOutcome::Failed {
        reason: format!(
            "{} lacks the entry point {symbol} ({detail})",
            driver.loaded_name
        ),
        code: Some(ProbeCode {
            call: symbol,
            name: MISSING_ENTRY_POINT.to_string(),
            code: -1,
        }),
        measurements: Vec::new(),
        notes: Vec::new(),
    }
}

fn failed(reason: String, measurements: Vec<Measurement>) -> ProbeOutcome {
    ProbeOutcome::Failed {
        reason,
        code: None,
        measurements,
        notes: Vec::new(),
    }
}

fn ms_since(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

fn words(bytes: &[u8]) -> impl Iterator<Item = u32> + '_ {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
}

/// Fills `n` words with `fill_index` and checks every one.
fn fill_and_verify(ctx: &Context<'_>, n: u32) -> Result<Result<(), String>, CuError> {
    let module = ctx.load_ptx(PTX)?;
    let f = module.function("fill_index")?;
    let buf = ctx.alloc(n as usize * 4)?;
    ctx.launch(
        &f,
        LaunchShape {
            grid: [n.div_ceil(256), 1, 1],
            block: [256, 1, 1],
        },
        &[KernelArg::Ptr(buf.ptr()), KernelArg::U32(n)],
        None,
    )?;
    ctx.synchronize()?;
    let mut host = vec![0u8; n as usize * 4];
    ctx.copy_to_host(&mut host, &buf)?;
    Ok(verify_fill(&host))
}

fn verify_fill(host: &[u8]) -> Result<(), String> {
    for (i, v) in words(host).enumerate() {
        let expected = (i as u32).wrapping_mul(3).wrapping_add(7);
        if v != expected {
            return Err(format!("element {i} is {v}, expected {expected}"));
        }
    }
    Ok(())
}

fn launch(gpu: &Gpu<'_>) -> ProbeRun {
    let ctx = &gpu.ctx;
    let t = Instant::now();
    let module = ctx.load_ptx(PTX)?;
    let jit_ms = ms_since(t);
    let f = module.function("fill_index")?;
    let buf = ctx.alloc(LAUNCH_ELEMENTS as usize * 4)?;
    let t = Instant::now();
    ctx.launch(
        &f,
        LaunchShape {
            grid: [LAUNCH_ELEMENTS.div_ceil(256), 1, 1],
            block: [256, 1, 1],
        },
        &[KernelArg::Ptr(buf.ptr()), KernelArg::U32(LAUNCH_ELEMENTS)],
        None,
    )?;
    ctx.synchronize()?;
    let launch_ms = ms_since(t);
    let mut host = vec![0u8; LAUNCH_ELEMENTS as usize * 4];
    ctx.copy_to_host(&mut host, &buf)?;
    let m = vec![
        Measurement::new("jit_ms", jit_ms, "ms"),
        Measurement::new("launch_ms", launch_ms, "ms"),
        Measurement::new("elements", f64::from(LAUNCH_ELEMENTS), "count"),
    ];
    Ok(match verify_fill(&host) {
        Ok(()) => ProbeOutcome::Passed {
            summary: format!(
                "kernel JIT-compiled in {jit_ms:.1} ms, ran in {launch_ms:.2} ms; all {LAUNCH_ELEMENTS} results correct"
            ),
            measurements: m,
            notes: Vec::new(),
        },
        Err(why) => failed(format!("the kernel ran but computed wrong results: {why}"), m),
    })
}

/// Launches `count_blocks` on `grid`, waits, and returns (blocks counted, ms on the GPU).
fn count_launch(
    ctx: &Context<'_>,
    f: &cuda_ffi::Function<'_>,
    counters: &DeviceMemory<'_>,
    grid: [u32; 3],
) -> Result<(u64, f64), CuError> {
    ctx.memset_u32(counters, 0)?;
    let start = ctx.event()?;
    let end = ctx.event()?;
    start.record(None)?;
    ctx.launch(
        f,
        LaunchShape {
            grid,
            block: [1, 1, 1],
        },
        &[KernelArg::Ptr(counters.ptr())],
        None,
    )?;
    end.record(None)?;
    ctx.synchronize()?;
    let ms = f64::from(start.elapsed_ms(&end)?);
    let mut host = vec![0u8; 256 * 4];
    ctx.copy_to_host(&mut host, counters)?;
    Ok((words(&host).map(u64::from).sum(), ms))
}

/// The x launch at the limit, within the time budget: a timing launch of a few blocks
/// per SM first; the whole limit only when it would finish in budget, else the largest
/// launch that does (noted). Returns the blocks launched and verified.
fn grid_x_launch(
    gpu: &Gpu<'_>,
    f: &cuda_ffi::Function<'_>,
    counters: &DeviceMemory<'_>,
    limit: u32,
    m: &mut Vec<Measurement>,
    notes: &mut Vec<String>,
) -> Result<Result<u32, String>, CuError> {
    use cuda_ffi::attr;
    let ctx = &gpu.ctx;
    let sms = u32::try_from(
        gpu.driver
            .device_attribute(gpu.device, attr::MULTIPROCESSOR_COUNT)?,
    )
    .unwrap_or(1)
    .max(1);
    let watchdog = ctx.has_watchdog()?;
    let budget_s = if watchdog {
        notes.push("kernels on this GPU run under a time limit (CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT, a display watchdog): no launch was allowed near it; long kernels here die with CUDA_ERROR_LAUNCH_TIMEOUT".to_string());
        GRID_WATCHDOG_BUDGET_S
    } else {
        GRID_TIME_BUDGET_S
    };
    let calibration = limit.min(sms.saturating_mul(GRID_CALIBRATION_BLOCKS_PER_SM));
    let (ran, ms) = count_launch(ctx, f, counters, [calibration, 1, 1])?;
    if ran != u64::from(calibration) {
        return Ok(Err(format!(
            "a launch of {calibration} blocks on x ran {ran} blocks"
        )));
    }
    let ns_per_block = (ms * 1e6 / f64::from(calibration)).max(0.0);
    m.push(Measurement::new("ns_per_block", ns_per_block, "ns"));
    let estimate_s = ns_per_block * f64::from(limit) / 1e9;
    let blocks = if estimate_s <= budget_s || calibration == limit {
        limit
    } else {
        let fit = (budget_s * 1e9 / ns_per_block.max(1e-3)).floor();
        let fit = if fit >= f64::from(limit) {
            limit
        } else {
            (fit as u32).max(calibration)
        };
        notes.push(format!(
            "the launch of all {limit} blocks on x was not run: at {ns_per_block:.2} ns per block it would take about {estimate_s:.1} s here; {fit} blocks were launched instead (x limit, {sms} SMs)"
        ));
        fit
    };
    if blocks == calibration {
        m.push(Measurement::new("at_limit_x_ms", ms, "ms"));
        return Ok(Ok(blocks));
    }
    let (ran, ms) = count_launch(ctx, f, counters, [blocks, 1, 1])?;
    m.push(Measurement::new("at_limit_x_ms", ms, "ms"));
    if ran != u64::from(blocks) {
        return Ok(Err(format!(
            "a launch of {blocks} blocks on x ran {ran} blocks"
        )));
    }
    Ok(Ok(blocks))
}

fn grid_limit(gpu: &Gpu<'_>) -> ProbeRun {
    use crate::cuda_ffi::attr;
    let ctx = &gpu.ctx;
    let mut limits = [0u32; 3];
    for (slot, a) in limits.iter_mut().zip([
        attr::MAX_GRID_DIM_X,
        attr::MAX_GRID_DIM_Y,
        attr::MAX_GRID_DIM_Z,
    ]) {
        *slot = u32::try_from(gpu.driver.device_attribute(gpu.device, a)?).unwrap_or(0);
    }
    let module = ctx.load_ptx(PTX)?;
    let f = module.function("count_blocks")?;
    let counters = ctx.alloc(256 * 4)?;
    let mut m = vec![
        Measurement::new("max_grid_x", f64::from(limits[0]), "blocks"),
        Measurement::new("max_grid_y", f64::from(limits[1]), "blocks"),
        Measurement::new("max_grid_z", f64::from(limits[2]), "blocks"),
    ];
    let mut notes = Vec::new();
    let mut ran_x = limits[0];
    for (axis, name) in ["x", "y", "z"].into_iter().enumerate() {
        let limit = limits[axis];
        if limit == 0 {
            return Ok(failed(
                format!("the driver reports a maximum grid {name} of 0"),
                m,
            ));
        }
        let mut grid = [1u32; 3];
        if axis == 0 {
            match grid_x_launch(gpu, &f, &counters, limit, &mut m, &mut notes)? {
                Ok(blocks) => ran_x = blocks,
                Err(why) => return Ok(failed(why, m)),
            }
        } else {
            grid[axis] = limit;
            let (ran, ms) = count_launch(ctx, &f, &counters, grid)?;
            m.push(Measurement::new(&format!("at_limit_{name}_ms"), ms, "ms"));
            if ran != u64::from(limit) {
                return Ok(failed(
                    format!("a launch of {limit} blocks on {name} ran {ran} blocks"),
                    m,
                ));
            }
        }
        let Some(past) = limit.checked_add(1) else {
            continue;
        };
        grid[axis] = past;
        let shape = LaunchShape {
            grid,
            block: [1, 1, 1],
        };
        match ctx.launch(&f, shape, &[KernelArg::Ptr(counters.ptr())], None) {
            Err(CuError::Code { call, code }) => {
                let c = probe_code(gpu.driver, call, code);
                notes.push(format!(
                    "a launch of {past} blocks on {name} was refused with {} ({})",
                    c.name, c.code
                ));
            }
            Err(e @ CuError::MissingSymbol(_)) => return Err(e),
            Ok(()) => {
                let sync = ctx.synchronize();
                return Ok(failed(
                    format!(
                        "a launch of {past} blocks on {name}, past the limit of {limit}, was accepted (then: {sync:?})"
                    ),
                    m,
                ));
            }
        }
    }
    // The context must survive the refused launches.
    if let Err(why) = fill_and_verify(ctx, 1024)? {
        return Ok(failed(
            format!("after the refused launches a normal kernel computed wrong results: {why}"),
            m,
        ));
    }
    notes.push(format!(
        "attention kernels that map batch·heads (·h·w) onto grid y or z fail with 'invalid configuration argument' once that product exceeds {}; chunk the batch",
        limits[1].min(limits[2])
    ));
    let x = if ran_x == limits[0] {
        limits[0].to_string()
    } else {
        format!("{ran_x} (of {})", limits[0])
    };
    Ok(ProbeOutcome::Passed {
        summary: format!(
            "grids of {x} × {} × {} blocks ran completely; one block more was refused cleanly",
            limits[1], limits[2]
        ),
        measurements: m,
        notes,
    })
}

fn ordinal(gpu: &Gpu<'_>) -> ProbeRun {
    let (rc, count) = gpu.driver.device_count()?;
    if rc != 0 {
        return Err(CuError::Code {
            call: "cuDeviceGetCount",
            code: rc,
        });
    }
    let m = vec![Measurement::new(
        "device_count",
        f64::from(count),
        "devices",
    )];
    if gpu.ordinal >= count {
        return Ok(failed(
            format!(
                "ordinal {} is not below the device count {count}",
                gpu.ordinal
            ),
            m,
        ));
    }
    match gpu.driver.device(count) {
        Err(CuError::Code { call, code }) => {
            let c = probe_code(gpu.driver, call, code);
            let clean = code == 101;
            let note = format!("cuDeviceGet({count}) returned {} ({})", c.name, c.code);
            if clean {
                Ok(ProbeOutcome::Passed {
                    summary: format!(
                        "ordinal {} opened a context; ordinal {count} (= the device count) was refused with CUDA_ERROR_INVALID_DEVICE",
                        gpu.ordinal
                    ),
                    measurements: m,
                    notes: vec![note],
                })
            } else {
                Ok(ProbeOutcome::Failed {
                    reason: format!(
                        "ordinal {count} (one past the last device) gave {} instead of CUDA_ERROR_INVALID_DEVICE",
                        c.name
                    ),
                    code: Some(c),
                    measurements: m,
                    notes: vec![note],
                })
            }
        }
        Err(e @ CuError::MissingSymbol(_)) => Err(e),
        Ok(_) => Ok(failed(
            format!("ordinal {count} was accepted although the driver counts {count} devices"),
            m,
        )),
    }
}

fn graph(gpu: &Gpu<'_>) -> ProbeRun {
    let ctx = &gpu.ctx;
    let n: u32 = 4096;
    let module = ctx.load_ptx(PTX)?;
    let f = module.function("add_one")?;
    let buf = ctx.alloc(n as usize * 4)?;
    ctx.memset_u32(&buf, 0)?;
    // The memset is queued on the legacy stream, which the non-blocking stream below does
    // not wait for.
    ctx.synchronize()?;
    let stream = ctx.stream()?;
    stream.begin_capture()?;
    let shape = LaunchShape {
        grid: [n.div_ceil(256), 1, 1],
        block: [256, 1, 1],
    };
    let args = [KernelArg::Ptr(buf.ptr()), KernelArg::U32(n)];
    for _ in 0..GRAPH_LAUNCHES {
        if let Err(e) = ctx.launch(&f, shape, &args, Some(&stream)) {
            // End the capture so the stream is usable (and destroyable) again.
            let _ = stream.end_capture();
            return Err(e);
        }
    }
    let captured = stream.end_capture()?;
    let (exec, instantiated_by) = match captured.instantiate() {
        Ok(x) => x,
        Err(CuError::MissingSymbol(s)) => {
            return Ok(ProbeOutcome::Skipped {
                why: format!(
                    "this driver can capture but not instantiate a graph: it has neither cuGraphInstantiateWithFlags (CUDA 11.4) nor cuGraphInstantiate_v2 ({s})"
                ),
            })
        }
        Err(e) => return Err(e),
    };
    let t = Instant::now();
    for _ in 0..GRAPH_REPLAYS {
        exec.launch(&stream)?;
    }
    stream.synchronize()?;
    let replay_ms = ms_since(t);
    let mut host = vec![0u8; n as usize * 4];
    ctx.copy_to_host(&mut host, &buf)?;
    let expected = GRAPH_LAUNCHES * GRAPH_REPLAYS;
    let m = vec![Measurement::new(
        "replay_us",
        replay_ms * 1e3 / f64::from(GRAPH_REPLAYS),
        "us",
    )];
    if let Some((i, v)) = words(&host).enumerate().find(|(_, v)| *v != expected) {
        return Ok(failed(
            format!("after {GRAPH_REPLAYS} replays element {i} is {v}, expected {expected}"),
            m,
        ));
    }
    Ok(ProbeOutcome::Passed {
        summary: format!(
            "captured {GRAPH_LAUNCHES} dependent launches, replayed the graph {GRAPH_REPLAYS} times; results correct"
        ),
        measurements: m,
        notes: vec![format!("instantiated with {instantiated_by}")],
    })
}

/// GB/s of `bytes` moved `repeats` times in `seconds`.
fn gbps(bytes: usize, repeats: u32, seconds: f64) -> f64 {
    if seconds <= 0.0 {
        return 0.0;
    }
    bytes as f64 * f64::from(repeats) / seconds / 1e9
}

fn bandwidth(gpu: &Gpu<'_>) -> ProbeRun {
    let ctx = &gpu.ctx;
    let (free, _) = ctx.mem_info()?;
    let bytes = BANDWIDTH_BYTES.min(usize::try_from(free / 8).unwrap_or(BANDWIDTH_BYTES));
    if bytes < (1 << 20) {
        return Ok(ProbeOutcome::Skipped {
            why: format!("only {} MiB free on the GPU", free >> 20),
        });
    }
    let mut host = ctx.alloc_pinned(bytes)?;
    // A pattern with a prime period, so a shifted or truncated copy shows.
    let pattern: Vec<u8> = (0..=250u8).collect();
    for chunk in host.as_mut_slice().chunks_mut(pattern.len()) {
        chunk.copy_from_slice(&pattern[..chunk.len()]);
    }
    let a = ctx.alloc(bytes)?;
    let b = ctx.alloc(bytes)?;
    ctx.copy_to_device(&a, host.as_slice())?; // warm-up
    let t = Instant::now();
    for _ in 0..BANDWIDTH_REPEATS {
        ctx.copy_to_device(&a, host.as_slice())?;
    }
    let h2d = gbps(bytes, BANDWIDTH_REPEATS, t.elapsed().as_secs_f64());
    // Device copies are queued, not waited for: timed on the GPU by events, after a
    // warm-up copy.
    ctx.copy_device_to_device(&b, &a)?;
    let start = ctx.event()?;
    let end = ctx.event()?;
    start.record(None)?;
    for _ in 0..DEVICE_COPY_REPEATS {
        ctx.copy_device_to_device(&b, &a)?;
    }
    end.record(None)?;
    end.synchronize()?;
    let d2d_ms = f64::from(start.elapsed_ms(&end)?);
    // A device copy reads and writes every byte (the convention of CUDA's bandwidthTest).
    let d2d = 2.0 * gbps(bytes, DEVICE_COPY_REPEATS, d2d_ms / 1e3);
    let t = Instant::now();
    for _ in 0..BANDWIDTH_REPEATS {
        ctx.copy_to_host(host.as_mut_slice(), &b)?;
    }
    let d2h = gbps(bytes, BANDWIDTH_REPEATS, t.elapsed().as_secs_f64());
    let intact = host
        .as_slice()
        .chunks(pattern.len())
        .all(|chunk| chunk == &pattern[..chunk.len()]);
    let m = vec![
        Measurement::new("host_to_device_gbps", h2d, "GB/s"),
        Measurement::new("device_to_host_gbps", d2h, "GB/s"),
        Measurement::new("device_to_device_gbps", d2d, "GB/s"),
        Measurement::new("buffer_mib", (bytes >> 20) as f64, "MiB"),
    ];
    if !intact {
        return Ok(failed(
            "data copied host → device → device → host came back changed".to_string(),
            m,
        ));
    }
    Ok(ProbeOutcome::Passed {
        summary: format!(
            "pinned host→device {h2d:.1} GB/s, device→host {d2h:.1} GB/s, device→device {d2d:.0} GB/s"
        ),
        measurements: m,
        notes: Vec::new(),
    })
}

fn oom(gpu: &Gpu<'_>) -> ProbeRun {
    let ctx = &gpu.ctx;
    // The first module and kernel of a context reserve memory for good (lazy loading,
    // local memory): paid before free memory is measured, or a probe that runs alone
    // would count them as a leak.
    if let Err(why) = fill_and_verify(ctx, 1024)? {
        return Ok(failed(
            format!("before the out-of-memory test a normal kernel computed wrong results: {why}"),
            Vec::new(),
        ));
    }
    let (free_before, total) = ctx.mem_info()?;
    let hold_bytes = (free_before / 8).min(OOM_HOLD_MAX_BYTES);
    let mut notes = Vec::new();
    let mut m = vec![
        Measurement::new("free_before_mib", (free_before >> 20) as f64, "MiB"),
        Measurement::new("total_mib", (total >> 20) as f64, "MiB"),
        Measurement::new("held_mib", (hold_bytes >> 20) as f64, "MiB"),
    ];
    {
        let _held = if hold_bytes > 0 {
            Some(ctx.alloc(usize::try_from(hold_bytes).unwrap_or(0))?)
        } else {
            None
        };
        let too_much = total.saturating_add(1 << 30);
        match ctx.alloc(usize::try_from(too_much).unwrap_or(usize::MAX)) {
            Err(CuError::Code { call, code: 2 }) => notes.push(format!(
                "{call} of {} MiB (more than the device has) returned CUDA_ERROR_OUT_OF_MEMORY",
                too_much >> 20
            )),
            Err(CuError::Code { call, code }) => {
                let c = probe_code(gpu.driver, call, code);
                return Ok(ProbeOutcome::Failed {
                    reason: format!(
                        "an allocation larger than the device returned {} ({}) instead of CUDA_ERROR_OUT_OF_MEMORY",
                        c.name, c.code
                    ),
                    code: Some(c),
                    measurements: m,
                    notes,
                });
            }
            Err(e @ CuError::MissingSymbol(_)) => return Err(e),
            Ok(mem) => {
                let got = mem.bytes();
                drop(mem);
                return Ok(failed(
                    format!(
                        "the driver granted {} MiB, more than the device's {} MiB",
                        got >> 20,
                        total >> 20
                    ),
                    m,
                ));
            }
        }
    }
    if let Err(why) = fill_and_verify(ctx, 1024)? {
        return Ok(failed(
            format!("after the out-of-memory error the context computed wrong results: {why}"),
            m,
        ));
    }
    let (mut free_after, _) = ctx.mem_info()?;
    if free_before.saturating_sub(free_after) > OOM_FREE_TOLERANCE_BYTES {
        // The driver may give memory back a moment late: look once more.
        std::thread::sleep(std::time::Duration::from_millis(200));
        free_after = ctx.mem_info()?.0;
    }
    m.push(Measurement::new(
        "free_after_mib",
        (free_after >> 20) as f64,
        "MiB",
    ));
    let fell = free_before.saturating_sub(free_after);
    // What this probe failed to give back shows as about what it held; on a shared GPU
    // other processes move free memory by other amounts, in both directions.
    let ours = hold_bytes > OOM_FREE_TOLERANCE_BYTES
        && fell.abs_diff(hold_bytes) <= OOM_FREE_TOLERANCE_BYTES;
    if fell > OOM_FREE_TOLERANCE_BYTES && !ours {
        notes.push(format!(
            "free memory changed by {} MiB while the probe ran, not by the {} MiB it held: other processes use this GPU, so whether the probe's memory returned cannot be told from free memory alone",
            fell >> 20,
            hold_bytes >> 20
        ));
    }
    if fell > OOM_FREE_TOLERANCE_BYTES && ours {
        return Ok(ProbeOutcome::Failed {
            reason: format!(
                "free memory did not return: {} MiB before, {} MiB after freeing everything",
                free_before >> 20,
                free_after >> 20
            ),
            code: None,
            measurements: m,
            notes,
        });
    }
    Ok(ProbeOutcome::Passed {
        summary: format!(
            "held {} MiB, an oversized request failed cleanly with out-of-memory, the context kept working and free memory returned",
            hold_bytes >> 20
        ),
        measurements: m,
        notes,
    })
}

// cuBLASLt -----------------------------------------------------------------------------

/// An input element type for the matmul check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Precision {
    Fp32,
    Fp16,
    Bf16,
    Fp8E4m3,
}

impl Precision {
    fn name(self) -> &'static str {
        match self {
            Precision::Fp32 => "FP32",
            Precision::Fp16 => "FP16",
            Precision::Bf16 => "BF16",
            Precision::Fp8E4m3 => "FP8 (E4M3)",
        }
    }

    /// (input type, output type, transposed A, bytes per input element, per output).
    fn layout(self) -> (i32, i32, bool, usize, usize) {
        match self {
            Precision::Fp32 => (lt::CUDA_R_32F, lt::CUDA_R_32F, false, 4, 4),
            Precision::Fp16 => (lt::CUDA_R_16F, lt::CUDA_R_16F, false, 2, 2),
            Precision::Bf16 => (lt::CUDA_R_16BF, lt::CUDA_R_16BF, false, 2, 2),
            // FP8 GEMMs need the "TN" layout and a 16-bit output.
            Precision::Fp8E4m3 => (lt::CUDA_R_8F_E4M3, lt::CUDA_R_16BF, true, 1, 2),
        }
    }

    /// The precisions a GPU of this compute capability runs in cuBLASLt.
    pub fn for_cc(major: i32, minor: i32) -> Vec<Precision> {
        let mut out = vec![Precision::Fp32, Precision::Fp16];
        if major >= 8 {
            out.push(Precision::Bf16);
        }
        if (major, minor) >= (8, 9) {
            out.push(Precision::Fp8E4m3);
        }
        out
    }
}

/// Values exact in every format used (FP8 E4M3 included), so sums of their products
/// are exact in FP32 and in the 16-bit outputs at this size.
const MATMUL_VALUES: [f32; 5] = [-1.0, -0.5, 0.0, 0.5, 1.0];

fn matmul_value(i: u64, salt: u64) -> f32 {
    MATMUL_VALUES[((i * 7 + salt * 3 + i / 5) % 5) as usize]
}

pub fn encode(p: Precision, v: f32) -> Vec<u8> {
    match p {
        Precision::Fp32 => v.to_le_bytes().to_vec(),
        Precision::Fp16 => f32_to_f16(v).to_le_bytes().to_vec(),
        Precision::Bf16 => ((v.to_bits() >> 16) as u16).to_le_bytes().to_vec(),
        Precision::Fp8E4m3 => vec![f32_to_e4m3(v)],
    }
}

/// Exact for the values this probe uses (normal numbers with few mantissa bits, zero).
fn f32_to_f16(v: f32) -> u16 {
    let bits = v.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    if v == 0.0 {
        return sign;
    }
    let exp = ((bits >> 23) & 0xff) as i32 - 127 + 15;
    let mantissa = ((bits >> 13) & 0x3ff) as u16;
    if exp <= 0 {
        return sign;
    }
    if exp >= 31 {
        return sign | 0x7c00;
    }
    sign | ((exp as u16) << 10) | mantissa
}

fn f16_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1f);
    let mantissa = f32::from(h & 0x3ff);
    match exp {
        0 => sign * mantissa * 2f32.powi(-24),
        31 => sign * f32::INFINITY,
        e => sign * (1.0 + mantissa / 1024.0) * 2f32.powi(e - 15),
    }
}

/// E4M3: 1 sign, 4 exponent (bias 7), 3 mantissa bits; exact for ±0.5 and ±1.
fn f32_to_e4m3(v: f32) -> u8 {
    let sign = if v < 0.0 { 0x80 } else { 0 };
    let a = v.abs();
    if a == 0.0 {
        return sign;
    }
    let exp = a.log2().floor() as i32;
    let mantissa = ((a / 2f32.powi(exp) - 1.0) * 8.0).round() as u8;
    sign | (((exp + 7).clamp(1, 15) as u8) << 3) | (mantissa & 7)
}

pub fn decode_output(p: Precision, bytes: &[u8]) -> Vec<f32> {
    match p.layout().1 {
        lt::CUDA_R_32F => bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
        lt::CUDA_R_16F => bytes
            .chunks_exact(2)
            .map(|c| f16_to_f32(u16::from_le_bytes([c[0], c[1]])))
            .collect(),
        _ => bytes
            .chunks_exact(2)
            .map(|c| f32::from_bits(u32::from(u16::from_le_bytes([c[0], c[1]])) << 16))
            .collect(),
    }
}

/// Column-major A (m×k, or its transpose stored k×m) and B (k×n), and D = A·B on the CPU.
pub fn matmul_case(p: Precision, size: u64) -> (Vec<u8>, Vec<u8>, Vec<f32>) {
    let (m, n, k) = (size, size, size);
    let (_, _, transpose_a, _, _) = p.layout();
    let a_at = |row: u64, col: u64| matmul_value(row * k + col, 1);
    let b_at = |row: u64, col: u64| matmul_value(row * n + col, 2);
    let mut a = Vec::new();
    if transpose_a {
        // Stored k×m column-major: element (kk, mm) at kk + mm*k is A(mm, kk).
        for mm in 0..m {
            for kk in 0..k {
                a.extend(encode(p, a_at(mm, kk)));
            }
        }
    } else {
        for kk in 0..k {
            for mm in 0..m {
                a.extend(encode(p, a_at(mm, kk)));
            }
        }
    }
    let mut b = Vec::new();
    for nn in 0..n {
        for kk in 0..k {
            b.extend(encode(p, b_at(kk, nn)));
        }
    }
    let mut d = Vec::new();
    for nn in 0..n {
        for mm in 0..m {
            d.push((0..k).map(|kk| a_at(mm, kk) * b_at(kk, nn)).sum());
        }
    }
    (a, b, d)
}

fn cublaslt(gpu: &Gpu<'_>) -> ProbeRun {
    use crate::cuda_ffi::attr;
    if gpu.cublaslt.is_empty() {
        return Ok(ProbeOutcome::Skipped {
            why: "no cuBLASLt to test: no PyTorch found ships one (nvidia-cublas wheel) and no CUDA toolkit has lib64/libcublasLt.so".to_string(),
        });
    }
    let major = gpu
        .driver
        .device_attribute(gpu.device, attr::COMPUTE_CAPABILITY_MAJOR)?;
    let minor = gpu
        .driver
        .device_attribute(gpu.device, attr::COMPUTE_CAPABILITY_MINOR)?;
    let precisions = Precision::for_cc(major, minor);
    // The CUDA major the driver supports (e.g. 12 for 12040).
    let driver_cuda_major = match gpu.driver.driver_version() {
        Ok((0, v)) => Some(v / 1000),
        _ => None,
    };
    let mut too_new: Vec<ProbeCode> = Vec::new();
    let mut notes = Vec::new();
    let mut measurements = Vec::new();
    let mut verified: Vec<&str> = Vec::new();
    for (nth, path) in gpu.cublaslt.iter().enumerate() {
        // A real H100 machine had two (torch's wheel and the toolkit's): the second's
        // timings are "fp32_ms_lib2", so every measurement's name stays unique (a
        // Prometheus series each); the notes name the libraries in this order.
        let suffix = if nth == 0 {
            String::new()
        } else {
            format!("_lib{}", nth + 1)
        };
        let lib = match CublasLt::load(path) {
            Ok(l) => l,
            Err(why) => {
                return Ok(failed(
                    format!("{} could not be loaded: {why}", path.display()),
                    measurements,
                ))
            }
        };
        let version = lib.version()?;
        notes.push(format!(
            "{}: cuBLASLt {}.{}.{}",
            path.display(),
            version / 10000,
            version / 100 % 100,
            version % 100
        ));
        let lib_major = i32::try_from(version / 10000).unwrap_or(i32::MAX);
        for p in &precisions {
            if *p == Precision::Fp8E4m3 && version < CUBLASLT_FP8_VERSION {
                // Older releases do not know the FP8 types and refuse them with
                // INVALID_VALUE or ARCH_MISMATCH rather than NOT_SUPPORTED.
                notes.push(format!(
                    "{}: this cuBLASLt predates FP8 (E4M3) matmuls (cuBLAS 11.11, CUDA 11.8): FP8 not tried",
                    path.display()
                ));
                continue;
            }
            let t = Instant::now();
            match matmul_check(gpu, &lib, *p)? {
                Ok(()) => {
                    if !verified.contains(&p.name()) {
                        verified.push(p.name());
                    }
                    measurements.push(Measurement::new(
                        &format!(
                            "{}_ms{suffix}",
                            p.name().split(' ').next().unwrap_or("x").to_lowercase()
                        ),
                        ms_since(t),
                        "ms",
                    ));
                }
                Err(ProbeOutcome::Failed {
                    code: Some(code), ..
                }) if *p == Precision::Fp8E4m3
                    && code.code == i64::from(lt::CUBLAS_STATUS_NOT_SUPPORTED) =>
                {
                    // FP8 kernels came to cuBLASLt later than the GPUs that run them: an
                    // older library without them is not a broken one.
                    notes.push(format!(
                        "{}: no FP8 (E4M3) kernel for this GPU in this cuBLASLt ({} from {})",
                        path.display(),
                        code.name,
                        code.call
                    ));
                }
                Err(ProbeOutcome::Failed {
                    code: Some(code), ..
                }) if code.call == "cublasLtCreate"
                    && code.code == i64::from(lt::CUBLAS_STATUS_NOT_INITIALIZED)
                    && driver_cuda_major.is_some_and(|d| d < lib_major) =>
                {
                    notes.push(format!(
                        "{}: cuBLASLt for CUDA {lib_major} does not start on this driver (CUDA {}): cublasLtCreate returned {} ({}); the driver is too old for this library",
                        path.display(),
                        driver_cuda_major.unwrap_or(0),
                        code.name,
                        code.code
                    ));
                    too_new.push(code);
                    break;
                }
                Err(outcome) => {
                    let mut outcome = outcome;
                    if let ProbeOutcome::Failed {
                        reason,
                        notes: n,
                        measurements: ms,
                        ..
                    } = &mut outcome
                    {
                        *reason = format!("{} ({}): {reason}", path.display(), p.name());
                        n.splice(0..0, notes.clone());
                        ms.extend(measurements.clone());
                    }
                    return Ok(outcome);
                }
            }
        }
    }
    let names = verified;
    if names.is_empty() {
        if let Some(code) = too_new.into_iter().next() {
            return Ok(ProbeOutcome::Failed {
                reason: format!(
                    "every cuBLASLt found needs a newer driver than this one (CUDA {})",
                    driver_cuda_major.unwrap_or(0)
                ),
                code: Some(code),
                measurements,
                notes,
            });
        }
    }
    Ok(ProbeOutcome::Passed {
        summary: format!(
            "cuBLASLt heuristic and {}×{}×{} matmuls in {} correct",
            MATMUL_SIZE,
            MATMUL_SIZE,
            MATMUL_SIZE,
            names.join(", ")
        ),
        measurements,
        notes,
    })
}

/// Runs one precision; the inner `Err` is a finished `Failed` outcome.
fn matmul_check(
    gpu: &Gpu<'_>,
    lib: &CublasLt,
    p: Precision,
) -> Result<Result<(), ProbeOutcome>, CuError> {
    let ctx = &gpu.ctx;
    let (input_type, output_type, transpose_a, _, out_size) = p.layout();
    let (a_host, b_host, expected) = matmul_case(p, MATMUL_SIZE);
    let a = upload(ctx, &a_host)?;
    let b = upload(ctx, &b_host)?;
    let d = ctx.alloc(expected.len() * out_size)?;
    let (free, _) = ctx.mem_info()?;
    let workspace = ctx.alloc(CUBLASLT_WORKSPACE_BYTES)?;
    // The uploads are pageable copies: their last bytes land on the legacy stream, which
    // the non-blocking stream the matmul runs on does not wait for.
    ctx.synchronize()?;
    let stream = ctx.stream()?;
    let spec = MatmulSpec {
        input_type,
        output_type,
        transpose_a,
        m: MATMUL_SIZE,
        n: MATMUL_SIZE,
        k: MATMUL_SIZE,
    };
    let mut asked = None;
    let run = lib.matmul(spec, &a, &b, &d, Some(&workspace), &stream, &mut |c| {
        asked = Some(c.workspace_bytes);
    });
    if let Err(e) = run {
        let CuError::Code { call, code } = e else {
            return Err(e);
        };
        let c = probe_code(gpu.driver, call, code);
        let mut notes = vec![format!(
            "free GPU memory {} MiB; workspace offered {} MiB{}",
            free >> 20,
            CUBLASLT_WORKSPACE_BYTES >> 20,
            asked.map_or(String::new(), |b| format!(
                ", asked for by the algorithm {} KiB",
                b >> 10
            ))
        )];
        if code == 3 {
            notes.push("CUBLAS_STATUS_ALLOC_FAILED: cuBLASLt could not allocate memory it needs (workspace or internal buffers); the GPU is short of free memory".to_string());
        }
        return Ok(Err(ProbeOutcome::Failed {
            reason: format!("{} returned {} ({})", c.call, c.name, c.code),
            code: Some(c),
            measurements: Vec::new(),
            notes,
        }));
    }
    let mut host = vec![0u8; expected.len() * out_size];
    ctx.copy_to_host(&mut host, &d)?;
    let got = decode_output(p, &host);
    if let Some((i, (g, e))) = got
        .iter()
        .zip(&expected)
        .enumerate()
        .find(|(_, (g, e))| (**g - **e).abs() > 1e-2 * (1.0 + e.abs()))
    {
        return Ok(Err(failed(
            format!("D[{i}] is {g}, the CPU reference says {e}"),
            Vec::new(),
        )));
    }
    Ok(Ok(()))
}

fn upload<'c>(ctx: &'c Context<'_>, bytes: &[u8]) -> Result<DeviceMemory<'c>, CuError> {
    let mem = ctx.alloc(bytes.len())?;
    ctx.copy_to_device(&mem, bytes)?;
    Ok(mem)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ptx_defines_every_kernel_the_probes_call() {
        for k in KERNELS {
            assert!(PTX.contains(&format!(".visible .entry {k}(")), "{k}");
        }
        assert!(PTX.contains(".version 6.0") && PTX.contains(".target sm_50"));
    }

    #[test]
    fn half_precision_encodings_are_exact_for_the_probe_values() {
        for v in MATMUL_VALUES {
            assert_eq!(f16_to_f32(f32_to_f16(v)), v, "{v}");
            let bf = u16::from_le_bytes(encode(Precision::Bf16, v).try_into().unwrap());
            assert_eq!(f32::from_bits(u32::from(bf) << 16), v);
        }
        assert_eq!(f32_to_f16(1.0), 0x3c00);
        assert_eq!(f32_to_f16(-0.5), 0xb800);
        assert_eq!(f16_to_f32(0x5400), 64.0);
        assert_eq!(f32_to_e4m3(1.0), 0x38);
        assert_eq!(f32_to_e4m3(0.5), 0x30);
        assert_eq!(f32_to_e4m3(-1.0), 0xb8);
        assert_eq!(f32_to_e4m3(0.0), 0);
    }

    #[test]
    fn the_cpu_reference_is_a_real_matmul() {
        let (a, b, d) = matmul_case(Precision::Fp32, 4);
        let f = |v: &[u8], i: usize| f32::from_le_bytes(v[i * 4..i * 4 + 4].try_into().unwrap());
        // D(1,2) = sum_k A(1,k) B(k,2), column-major with ld 4.
        let want: f32 = (0..4).map(|k| f(&a, 1 + k * 4) * f(&b, k + 2 * 4)).sum();
        assert_eq!(d[1 + 2 * 4], want);
        assert!(d.iter().any(|v| *v != 0.0));
    }

    #[test]
    fn precisions_follow_the_architecture() {
        assert_eq!(Precision::for_cc(7, 5).len(), 2);
        assert!(Precision::for_cc(8, 0).contains(&Precision::Bf16));
        assert!(!Precision::for_cc(8, 6).contains(&Precision::Fp8E4m3));
        assert!(Precision::for_cc(8, 9).contains(&Precision::Fp8E4m3));
        assert!(Precision::for_cc(9, 0).contains(&Precision::Fp8E4m3));
    }

    #[test]
    fn status_names() {
        assert_eq!(cublas_status_name(3), "CUBLAS_STATUS_ALLOC_FAILED");
        assert_eq!(cublas_status_name(15), "CUBLAS_STATUS_NOT_SUPPORTED");
        assert_eq!(cublas_status_name(99), "CUBLAS_STATUS_UNRECOGNIZED");
    }

    #[test]
    fn sticky_codes_end_the_worker_and_others_do_not() {
        let failed = |call: &str, code: i64| ProbeOutcome::Failed {
            reason: String::new(),
            code: Some(ProbeCode {
                call: call.to_string(),
                name: String::new(),
                code,
            }),
            measurements: Vec::new(),
            notes: Vec::new(),
        };
        for code in [700, 702, 714, 719, 999, 214] {
            assert_eq!(sticky_code(&failed("cuCtxSynchronize", code)), Some(code));
        }
        for code in [1, 2, 101, 218, 701, 720] {
            assert_eq!(sticky_code(&failed("cuLaunchKernel", code)), None, "{code}");
        }
        // cuBLAS statuses share numbers with nothing sticky.
        assert_eq!(sticky_code(&failed("cublasLtMatmul", 700)), None);
    }

    #[test]
    fn bandwidth_arithmetic() {
        assert!((gbps(1_000_000_000, 2, 1.0) - 2.0).abs() < 1e-9);
        assert_eq!(gbps(10, 1, 0.0), 0.0);
    }
}
