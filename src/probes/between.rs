//! The probes between GPUs, run in one worker that holds every planned GPU's primary
//! context: the P2P probe (peer-access matrix, then a verified, timed copy for every
//! ordered pair that reports access) and the NCCL probe (one single-node all-reduce
//! through the libnccl.so.2 a PyTorch wheel ships, checked element by element).
//!
//! Safe code over the wrappers in `cuda_ffi`. A copy or collective that never finishes
//! is not handled here: the runner kills the worker at the probe's time limit, and the
//! last pair the worker announced is the one that hung.

use std::path::PathBuf;
use std::time::Instant;

use super::suite::{probe_code, sticky_code};
use crate::cuda_ffi::{self, Context, CuError, CudaDriver, DeviceMemory, Nccl};
use crate::facts::probe::{Measurement, PeerPair, PeerStatus, ProbeCode, ProbeKind, ProbeOutcome};

/// Each P2P copy moves this much (64 MiB: past the start-up cost of a copy, small
/// enough to never matter on a node); fewer under a short time limit (`--budget`).
pub const P2P_BYTES: u64 = 64 << 20;
/// Under a probe time limit shorter than this, copies move `P2P_SMALL_BYTES`.
pub const P2P_FULL_SIZE_LIMIT: std::time::Duration = std::time::Duration::from_secs(10);
pub const P2P_SMALL_BYTES: u64 = 8 << 20;
/// Timed copies per pair, after one warm-up copy.
const P2P_REPEATS: u32 = 5;
/// Each rank's all-reduce buffer (float32 elements × 4).
const NCCL_BYTES: usize = 32 << 20;
/// Timed all-reduces after one checked warm-up.
const NCCL_ITERATIONS: u32 = 5;

/// Every planned GPU's context, in rank order, and what the probes need.
pub struct Node<'d> {
    pub driver: &'d CudaDriver,
    /// (CUDA ordinal, its primary context).
    pub gpus: Vec<(i32, Context<'d>)>,
    /// libnccl.so.2 candidates, best first.
    pub nccl: Vec<PathBuf>,
    /// Bytes of each P2P copy.
    pub p2p_bytes: u64,
}

/// Runs one probe between GPUs; `on_pair` hears each P2P pair as it starts and ends.
pub fn run(node: &Node<'_>, probe: ProbeKind, on_pair: &dyn Fn(&PeerPair)) -> ProbeOutcome {
    let result = match probe {
        ProbeKind::P2p => p2p(node, on_pair),
        ProbeKind::Nccl => nccl(node),
        other => Ok(ProbeOutcome::Skipped {
            why: format!("{} is a per-GPU probe", other.as_str()),
        }),
    };
    result.unwrap_or_else(|e| failed_call(node.driver, &e))
}

fn failed_call(driver: &CudaDriver, e: &CuError) -> ProbeOutcome {
    match e {
        CuError::Code { call, code } => {
            let c = code_of(driver, call, *code);
            ProbeOutcome::Failed {
                reason: format!("{} returned {} ({})", c.call, c.name, c.code),
                code: Some(c),
                measurements: Vec::new(),
                notes: Vec::new(),
            }
        }
        CuError::MissingSymbol(s) => super::suite::missing_entry_point(driver, s),
    }
}

/// A driver code by its CUresult name, or an NCCL call's by its ncclResult_t name.
fn code_of(driver: &CudaDriver, call: &str, code: i32) -> ProbeCode {
    if call.starts_with("nccl") {
        ProbeCode {
            call: call.to_string(),
            name: cuda_ffi::nccl_result_name(code).to_string(),
            code: i64::from(code),
        }
    } else {
        probe_code(driver, call, code)
    }
}

/// The word a source GPU writes at `i`: differs per source and per position, so a
/// stale, shifted, truncated or misrouted copy shows.
pub fn pattern_word(source: u32, i: u32) -> u32 {
    i.wrapping_mul(2_654_435_761) ^ (source + 1).wrapping_mul(0x9e37_79b9)
}

/// The pattern repeats every `PATTERN_PERIOD` words (a prime: a copy shifted by any
/// amount short of a multiple of it shows), so it is built once and compared with memcmp.
const PATTERN_PERIOD: u32 = 65_521;

fn pattern(source: u32, bytes: usize) -> Vec<u8> {
    let period: Vec<u8> = (0..PATTERN_PERIOD)
        .flat_map(|i| pattern_word(source, i).to_le_bytes())
        .collect();
    let mut out = Vec::with_capacity(bytes);
    while out.len() < bytes {
        let n = (bytes - out.len()).min(period.len());
        out.extend_from_slice(&period[..n]);
    }
    out
}

/// The first word of `got` that is not source `source`'s pattern.
pub fn first_mismatch(source: u32, got: &[u8]) -> Option<String> {
    let want = pattern(source, got.len());
    if want == got {
        return None;
    }
    got.chunks_exact(4)
        .zip(want.chunks_exact(4))
        .position(|(g, w)| g != w)
        .map(|i| {
            let c = &got[i * 4..i * 4 + 4];
            let v = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            format!(
                "word {i} arrived as {v:#010x}, sent {:#010x}",
                pattern_word(source, (i % PATTERN_PERIOD as usize) as u32)
            )
        })
}

fn gbps(bytes: u64, repeats: u32, ms: f64) -> f64 {
    if ms <= 0.0 {
        return 0.0;
    }
    bytes as f64 * f64::from(repeats) / (ms / 1e3) / 1e9
}

/// Per source GPU: a buffer holding its pattern; per destination: one to receive.
struct Buffers<'c> {
    send: DeviceMemory<'c>,
    recv: DeviceMemory<'c>,
}

fn p2p(node: &Node<'_>, on_pair: &dyn Fn(&PeerPair)) -> Result<ProbeOutcome, CuError> {
    let n = node.gpus.len();
    if n < 2 {
        return Ok(ProbeOutcome::Skipped {
            why: format!("{n} GPU planned: peer copies need two"),
        });
    }
    let mut pairs: Vec<PeerPair> = Vec::new();
    for (a, (oa, ca)) in node.gpus.iter().enumerate() {
        for (b, (ob, cb)) in node.gpus.iter().enumerate() {
            if a == b {
                continue;
            }
            let access = node.driver.can_access_peer(ca.device(), cb.device())?;
            pairs.push(PeerPair {
                src: u32::try_from(*oa).unwrap_or(0),
                dst: u32::try_from(*ob).unwrap_or(0),
                access,
                status: if access {
                    PeerStatus::NotRun
                } else {
                    PeerStatus::NoAccess
                },
                bytes: 0,
                gbps: None,
                detail: None,
            });
        }
    }
    let with_access = pairs.iter().filter(|p| p.access).count();
    let mut notes = Vec::new();
    let no_access: Vec<String> = pairs
        .iter()
        .filter(|p| !p.access)
        .map(|p| format!("{}→{}", p.src, p.dst))
        .collect();
    if !no_access.is_empty() {
        notes.push(format!(
            "cuDeviceCanAccessPeer reports no peer access for {} (copies between them go through host memory)",
            no_access.join(", ")
        ));
    }
    if with_access == 0 {
        for p in &pairs {
            on_pair(p);
        }
        return Ok(pass_or_fail(pairs, notes, 0));
    }
    // Buffers on every GPU that takes part, sized to what each has free.
    let mut bytes = usize::try_from(node.p2p_bytes).unwrap_or(usize::MAX);
    for (_, ctx) in &node.gpus {
        ctx.make_current()?;
        let (free, _) = ctx.mem_info()?;
        bytes = bytes.min(usize::try_from(free / 8).unwrap_or(usize::MAX));
    }
    bytes &= !3;
    if bytes < 4096 {
        return Ok(ProbeOutcome::Skipped {
            why: "too little free memory on a GPU for a peer copy".to_string(),
        });
    }
    let mut buffers: Vec<Buffers<'_>> = Vec::new();
    for (i, (_, ctx)) in node.gpus.iter().enumerate() {
        ctx.make_current()?;
        let send = ctx.alloc(bytes)?;
        let recv = ctx.alloc(bytes)?;
        ctx.copy_to_device(&send, &pattern(i as u32, bytes))?;
        // Pageable uploads land on the legacy stream; the copies run on another.
        ctx.synchronize()?;
        buffers.push(Buffers { send, recv });
    }
    let mut host = vec![0u8; bytes];
    let mut k = 0;
    for (a, (_, ca)) in node.gpus.iter().enumerate() {
        for (b, (_, cb)) in node.gpus.iter().enumerate() {
            if a == b {
                continue;
            }
            let pair = &mut pairs[k];
            k += 1;
            if !pair.access {
                on_pair(pair);
                continue;
            }
            pair.bytes = bytes as u64;
            pair.status = PeerStatus::Running;
            on_pair(pair);
            match copy_pair(
                ca,
                cb,
                &buffers[a].send,
                &buffers[b].recv,
                a as u32,
                &mut host,
            ) {
                Ok((ms, mismatch)) => {
                    let rate = gbps(bytes as u64, P2P_REPEATS, ms);
                    pair.gbps = Some(rate);
                    match mismatch {
                        None => pair.status = PeerStatus::Verified,
                        Some(why) => {
                            pair.status = PeerStatus::Corrupted;
                            pair.detail = Some(why);
                        }
                    }
                    on_pair(pair);
                }
                Err(e) => {
                    let code = match &e {
                        CuError::Code { call, code } => Some(code_of(node.driver, call, *code)),
                        CuError::MissingSymbol(_) => return Err(e),
                    };
                    pair.status = PeerStatus::Failed;
                    pair.detail = code
                        .as_ref()
                        .map(|c| format!("{} returned {} ({})", c.call, c.name, c.code));
                    on_pair(pair);
                    let outcome = ProbeOutcome::Failed {
                        reason: format!(
                            "the peer copy {}→{} failed: {}",
                            pair.src,
                            pair.dst,
                            pair.detail.clone().unwrap_or_default()
                        ),
                        code,
                        measurements: Vec::new(),
                        notes: notes.clone(),
                    };
                    // A poisoned context runs nothing more: the pairs after it are
                    // not tried.
                    if sticky_code(&outcome).is_some() {
                        // Every pair, the untried ones included, as the report keeps them.
                        for p in &pairs {
                            on_pair(p);
                        }
                        return Ok(with_pairs_note(outcome, &pairs));
                    }
                }
            }
        }
    }
    Ok(pass_or_fail(pairs, notes, bytes))
}

fn with_pairs_note(mut outcome: ProbeOutcome, pairs: &[PeerPair]) -> ProbeOutcome {
    if let ProbeOutcome::Failed { notes, .. } = &mut outcome {
        let untried: Vec<String> = pairs
            .iter()
            .filter(|p| p.status == PeerStatus::NotRun)
            .map(|p| format!("{}→{}", p.src, p.dst))
            .collect();
        if !untried.is_empty() {
            notes.push(format!(
                "not tried after the sticky error: {}",
                untried.join(", ")
            ));
        }
    }
    outcome
}

/// Enables access (already enabled is fine), copies `send` (on `a`) into `recv` (on
/// `b`) once to warm up and `P2P_REPEATS` times under events on `a`'s stream, then reads
/// `recv` back. Returns (ms of the timed copies, the first wrong word).
fn copy_pair(
    a: &Context<'_>,
    b: &Context<'_>,
    send: &DeviceMemory<'_>,
    recv: &DeviceMemory<'_>,
    source: u32,
    host: &mut [u8],
) -> Result<(f64, Option<String>), CuError> {
    const ALREADY_ENABLED: i32 = 704;
    match a.enable_peer_access(b) {
        Ok(())
        | Err(CuError::Code {
            code: ALREADY_ENABLED,
            ..
        }) => {}
        Err(e) => return Err(e),
    }
    // What arrives must be this copy's: the receiving buffer is cleared first.
    b.make_current()?;
    b.memset_u32(recv, 0)?;
    b.synchronize()?;
    a.make_current()?;
    let stream = a.stream()?;
    a.copy_peer_async(recv, send, &stream)?;
    let start = a.event()?;
    let end = a.event()?;
    start.record(Some(&stream))?;
    for _ in 0..P2P_REPEATS {
        a.copy_peer_async(recv, send, &stream)?;
    }
    end.record(Some(&stream))?;
    end.synchronize()?;
    let ms = f64::from(start.elapsed_ms(&end)?);
    stream.synchronize()?;
    b.make_current()?;
    b.copy_to_host(host, recv)?;
    a.make_current()?;
    Ok((ms, first_mismatch(source, host)))
}

fn pass_or_fail(pairs: Vec<PeerPair>, mut notes: Vec<String>, bytes: usize) -> ProbeOutcome {
    let tried: Vec<&PeerPair> = pairs.iter().filter(|p| p.access).collect();
    let bad: Vec<&PeerPair> = tried
        .iter()
        .copied()
        .filter(|p| p.status != PeerStatus::Verified)
        .collect();
    let rates: Vec<f64> = tried.iter().filter_map(|p| p.gbps).collect();
    let mut m = vec![
        Measurement::new("pairs", pairs.len() as f64, "count"),
        Measurement::new("pairs_with_access", tried.len() as f64, "count"),
    ];
    if bytes > 0 {
        m.push(Measurement::new("copy_mib", (bytes >> 20) as f64, "MiB"));
    }
    if let Some(min) = rates.iter().copied().reduce(f64::min) {
        m.push(Measurement::new("slowest_gbps", min, "GB/s"));
    }
    if let Some(max) = rates.iter().copied().reduce(f64::max) {
        m.push(Measurement::new("fastest_gbps", max, "GB/s"));
    }
    for p in &pairs {
        if let Some(g) = p.gbps {
            notes.push(format!(
                "{}→{}: {g:.1} GB/s, {}",
                p.src,
                p.dst,
                p.status.as_str()
            ));
        }
    }
    if let Some(first) = bad.first() {
        let list: Vec<String> = bad
            .iter()
            .map(|p| format!("{}→{} ({})", p.src, p.dst, p.status.as_str()))
            .collect();
        return ProbeOutcome::Failed {
            reason: format!(
                "peer access is reported but {} of {} copies did not arrive intact: {}; first: {}",
                bad.len(),
                tried.len(),
                list.join(", "),
                first.detail.clone().unwrap_or_default()
            ),
            code: None,
            measurements: m,
            notes,
        };
    }
    let summary = if tried.is_empty() {
        format!(
            "no pair of the {} ordered GPU pairs reports peer access",
            pairs.len()
        )
    } else {
        format!(
            "{} of {} ordered GPU pairs have peer access; every copy ({} MiB) arrived intact, slowest {:.1} GB/s",
            tried.len(),
            pairs.len(),
            bytes >> 20,
            rates.iter().copied().fold(f64::INFINITY, f64::min)
        )
    };
    ProbeOutcome::Passed {
        summary,
        measurements: m,
        notes,
    }
}

/// NCCL's bus bandwidth of an all-reduce over `ranks` (nccl-tests' PERFORMANCE.md: the
/// algorithm bandwidth times 2(n-1)/n, comparable with the hardware's link speed).
pub fn bus_bandwidth(alg_gbps: f64, ranks: usize) -> f64 {
    if ranks == 0 {
        return 0.0;
    }
    let n = ranks as f64;
    alg_gbps * 2.0 * (n - 1.0) / n
}

/// Element `i` of rank `r`'s input, and of every rank's result over `ranks`: small
/// integers, exact in float32.
fn nccl_input(r: usize, i: usize) -> f32 {
    (r + 1) as f32 + (i % 8) as f32
}

fn nccl_expected(ranks: usize, i: usize) -> f32 {
    (ranks * (ranks + 1) / 2) as f32 + (ranks * (i % 8)) as f32
}

/// "2.20.5" from NCCL_VERSION_CODE as `ncclGetVersion` returns it.
pub fn nccl_version_text(v: i32) -> String {
    // NCCL_VERSION_CODE: 2.9+ is major*10000 + minor*100 + patch; earlier major*1000 +
    // minor*100 + patch.
    if v >= 10000 {
        format!("{}.{}.{}", v / 10000, v / 100 % 100, v % 100)
    } else {
        format!("{}.{}.{}", v / 1000, v / 100 % 10, v % 100)
    }
}

fn nccl(node: &Node<'_>) -> Result<ProbeOutcome, CuError> {
    let n = node.gpus.len();
    if n < 2 {
        return Ok(ProbeOutcome::Skipped {
            why: format!("{n} GPU planned: an all-reduce between GPUs needs two"),
        });
    }
    let Some(path) = node.nccl.first() else {
        return Ok(ProbeOutcome::Skipped {
            why: "no libnccl.so.2 to test".to_string(),
        });
    };
    let lib = match Nccl::load(path) {
        Ok(l) => l,
        Err(why) => {
            return Ok(ProbeOutcome::Failed {
                reason: format!("{} could not be loaded: {why}", path.display()),
                code: None,
                measurements: Vec::new(),
                notes: Vec::new(),
            })
        }
    };
    let version = nccl_version_text(lib.version()?);
    let mut notes = vec![format!("{}: NCCL {version}", path.display())];
    let nccl_failure =
        |e: CuError, notes: &[String], what: &str| -> Result<ProbeOutcome, CuError> {
            match e {
                CuError::Code { call, code } if call.starts_with("nccl") => {
                    let c = code_of(node.driver, call, code);
                    let text = lib.error_string(code).unwrap_or_default();
                    Ok(ProbeOutcome::Failed {
                        reason: format!("{what}: {call} returned {} ({code}): {text}", c.name),
                        code: Some(c),
                        measurements: Vec::new(),
                        notes: notes.to_vec(),
                    })
                }
                other => Err(other),
            }
        };
    let ordinals: Vec<i32> = node.gpus.iter().map(|(o, _)| *o).collect();
    let comms = match lib.init_all(&ordinals) {
        Ok(c) => c,
        Err(e) => return nccl_failure(e, &notes, "NCCL could not set up its communicators"),
    };
    let mut bytes = NCCL_BYTES;
    for (_, ctx) in &node.gpus {
        ctx.make_current()?;
        let (free, _) = ctx.mem_info()?;
        bytes = bytes.min(usize::try_from(free / 8).unwrap_or(usize::MAX));
    }
    let count = bytes / 4;
    if count < 1024 {
        return Ok(ProbeOutcome::Skipped {
            why: "too little free memory on a GPU for the all-reduce".to_string(),
        });
    }
    let mut send = Vec::new();
    let mut recv = Vec::new();
    let mut streams = Vec::new();
    for (r, (_, ctx)) in node.gpus.iter().enumerate() {
        ctx.make_current()?;
        let s = ctx.alloc(count * 4)?;
        let d = ctx.alloc(count * 4)?;
        let input = repeat_floats(|i| nccl_input(r, i), count);
        ctx.copy_to_device(&s, &input)?;
        ctx.memset_u32(&d, 0)?;
        ctx.synchronize()?;
        send.push(s);
        recv.push(d);
        streams.push(ctx.stream()?);
    }
    let send_refs: Vec<&DeviceMemory<'_>> = send.iter().collect();
    let recv_refs: Vec<&DeviceMemory<'_>> = recv.iter().collect();
    let stream_refs: Vec<&cuda_ffi::Stream<'_>> = streams.iter().collect();
    let wait_all = || -> Result<(), CuError> {
        for ((_, ctx), s) in node.gpus.iter().zip(&streams) {
            ctx.make_current()?;
            s.synchronize()?;
        }
        Ok(())
    };
    // A checked warm-up: every rank's result, element by element.
    if let Err(e) = comms.all_reduce_sum_f32(&send_refs, &recv_refs, count, &stream_refs) {
        return nccl_failure(e, &notes, "the all-reduce was refused");
    }
    wait_all()?;
    if let Some(why) = check_ranks(node, &recv, count)? {
        return Ok(ProbeOutcome::Failed {
            reason: format!("the all-reduce over {n} GPUs computed wrong sums: {why}"),
            code: None,
            measurements: Vec::new(),
            notes,
        });
    }
    let t = Instant::now();
    for _ in 0..NCCL_ITERATIONS {
        if let Err(e) = comms.all_reduce_sum_f32(&send_refs, &recv_refs, count, &stream_refs) {
            return nccl_failure(e, &notes, "a timed all-reduce was refused");
        }
    }
    wait_all()?;
    let ms = t.elapsed().as_secs_f64() * 1e3 / f64::from(NCCL_ITERATIONS);
    for r in 0..n {
        let code = comms.async_error(r)?;
        if code != 0 {
            let c = code_of(node.driver, "ncclCommGetAsyncError", code);
            return Ok(ProbeOutcome::Failed {
                reason: format!(
                    "rank {r}'s communicator reports an asynchronous error {} ({code}): {}",
                    c.name,
                    lib.error_string(code).unwrap_or_default()
                ),
                code: Some(c),
                measurements: Vec::new(),
                notes,
            });
        }
    }
    if let Some(why) = check_ranks(node, &recv, count)? {
        return Ok(ProbeOutcome::Failed {
            reason: format!("after {NCCL_ITERATIONS} timed all-reduces the sums are wrong: {why}"),
            code: None,
            measurements: Vec::new(),
            notes,
        });
    }
    let alg = gbps(bytes as u64, 1, ms);
    let bus = bus_bandwidth(alg, n);
    notes.push(format!(
        "busBw = algBw × 2(n-1)/n with n = {n} (NCCL's convention, comparable with a link's speed)"
    ));
    drop(comms);
    Ok(ProbeOutcome::Passed {
        summary: format!(
            "NCCL {version}: all-reduce (sum, float32, {} MiB) over {n} GPUs correct on every rank; bus bandwidth {bus:.1} GB/s",
            bytes >> 20
        ),
        measurements: vec![
            Measurement::new("ranks", n as f64, "count"),
            Measurement::new("buffer_mib", (bytes >> 20) as f64, "MiB"),
            Measurement::new("algbw_gbps", alg, "GB/s"),
            Measurement::new("busbw_gbps", bus, "GB/s"),
            Measurement::new("allreduce_ms", ms, "ms"),
        ],
        notes,
    })
}

/// `count` float32 values of a function of the index with period 8, as bytes.
fn repeat_floats(f: impl Fn(usize) -> f32, count: usize) -> Vec<u8> {
    let period: Vec<u8> = (0..8).flat_map(|i| f(i).to_le_bytes()).collect();
    let mut out = Vec::with_capacity(count * 4);
    while out.len() < count * 4 {
        let n = (count * 4 - out.len()).min(period.len());
        out.extend_from_slice(&period[..n]);
    }
    out
}

/// The first wrong element of any rank's result.
fn check_ranks(
    node: &Node<'_>,
    recv: &[DeviceMemory<'_>],
    count: usize,
) -> Result<Option<String>, CuError> {
    let n = node.gpus.len();
    let want = repeat_floats(|i| nccl_expected(n, i), count);
    let mut host = vec![0u8; count * 4];
    for (r, ((_, ctx), buf)) in node.gpus.iter().zip(recv).enumerate() {
        ctx.make_current()?;
        ctx.copy_to_host(&mut host, buf)?;
        if host == want {
            continue;
        }
        for (i, c) in host.chunks_exact(4).enumerate() {
            let got = f32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            let want = nccl_expected(n, i);
            if got != want {
                return Ok(Some(format!(
                    "rank {r} element {i} is {got}, expected {want}"
                )));
            }
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_differ_per_source_and_mismatches_are_named() {
        let a = pattern(0, 64);
        let b = pattern(1, 64);
        assert_ne!(a, b);
        assert_eq!(first_mismatch(0, &a), None);
        let got = first_mismatch(0, &b).unwrap();
        assert!(got.starts_with("word 0 arrived as"), "{got}");
        let mut c = a.clone();
        c[13] ^= 1;
        assert!(first_mismatch(0, &c).unwrap().starts_with("word 3 "));
        // Past one period the pattern repeats; a copy shifted by a word still shows.
        let long = pattern(2, PATTERN_PERIOD as usize * 4 + 64);
        assert_eq!(first_mismatch(2, &long), None);
        assert!(first_mismatch(2, &long[4..]).is_some());
    }

    #[test]
    fn bus_bandwidth_follows_nccl_tests() {
        assert!((bus_bandwidth(100.0, 2) - 100.0).abs() < 1e-9);
        assert!((bus_bandwidth(100.0, 8) - 175.0).abs() < 1e-9);
        assert_eq!(bus_bandwidth(100.0, 0), 0.0);
        assert_eq!(gbps(1_000_000_000, 1, 1000.0), 1.0);
        assert_eq!(gbps(10, 1, 0.0), 0.0);
    }

    #[test]
    fn all_reduce_values_are_exact_sums() {
        for ranks in 2..=8 {
            for i in 0..16 {
                let sum: f32 = (0..ranks).map(|r| nccl_input(r, i)).sum();
                assert_eq!(sum, nccl_expected(ranks, i));
            }
        }
    }

    #[test]
    fn nccl_version_codes() {
        assert_eq!(nccl_version_text(22005), "2.20.5");
        assert_eq!(nccl_version_text(21805), "2.18.5");
        assert_eq!(nccl_version_text(2708), "2.7.8");
    }
}
