//! Runs the plan: one worker process per GPU, all GPUs at once, each probe under a time
//! limit. A worker that hangs is killed with its whole process group; one that crashes
//! is replaced by a fresh worker for the probes it had not reached, so one bad probe
//! never hides the others.

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::plan::{Plan, PlannedBetween, PlannedGpu};
use super::protocol::{parse_line, Event};
use super::worker::WorkerArgs;
use crate::facts::probe::{PeerPair, PeerStatus, ProbeKind, ProbeOutcome, ProbeResult};
use crate::host::{kill_group, tail_lines, Host};

/// Stderr kept per worker (a chatty driver must not grow the doctor).
const STDERR_CAP_BYTES: usize = 64 * 1024;
/// A longer stdout line is library noise, not an event: it is skipped, not buffered.
const MAX_LINE_BYTES: u64 = 1 << 20;
/// How often the supervisor looks at the worker while waiting for its events.
const POLL: Duration = Duration::from_millis(100);
/// After the worker exits, how long its pipes may stay open (a forked helper of the
/// driver holding them) before its process group is killed and the pipes abandoned.
const PIPE_GRACE: Duration = Duration::from_millis(500);

/// Joins a pipe reader, waiting at most `limit`: a process outside the worker's group
/// may hold the pipe open for ever, and must not hold the doctor.
pub fn join_with_deadline<T>(handle: std::thread::JoinHandle<T>, limit: Duration) -> Option<T> {
    let until = Instant::now() + limit;
    while !handle.is_finished() {
        if Instant::now() >= until {
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    handle.join().ok()
}

/// The next line, at most `MAX_LINE_BYTES` of it kept; `None` at the end of the output.
fn read_line_bounded(reader: &mut impl BufRead) -> Option<String> {
    let mut buf = Vec::new();
    let n = reader
        .by_ref()
        .take(MAX_LINE_BYTES)
        .read_until(b'\n', &mut buf)
        .ok()?;
    if n == 0 {
        return None;
    }
    if buf.last() != Some(&b'\n') && n as u64 == MAX_LINE_BYTES {
        // Skip the rest of an overlong line.
        let mut rest = Vec::new();
        loop {
            rest.clear();
            let m = reader
                .by_ref()
                .take(MAX_LINE_BYTES)
                .read_until(b'\n', &mut rest)
                .ok()?;
            if m == 0 || rest.last() == Some(&b'\n') {
                break;
            }
        }
        return Some(String::new());
    }
    Some(String::from_utf8_lossy(&buf).into_owned())
}

/// Progress, streamed while the probes run (the terminal UI shows it live).
#[derive(Debug, Clone, PartialEq)]
pub enum ProbeEvent {
    Started { cuda_ordinal: u32, probe: ProbeKind },
    Finished(Box<ProbeResult>),
}

/// Runs every planned probe; results come back in plan order (GPU, then probe), the
/// probes between GPUs last (they run after the per-GPU probes, on idle GPUs).
pub fn run(host: &Host, plan: &Plan, on_event: &(dyn Fn(ProbeEvent) + Sync)) -> Vec<ProbeResult> {
    let mut results = run_per_gpu(host, plan, on_event);
    if let Some(between) = &plan.between {
        let gpu = between_gpu(between);
        results.extend(run_gpu(host, plan, &gpu, Some(between), on_event));
    }
    results
}

/// The stand-in `PlannedGpu` of the worker between GPUs: its first GPU's ordinal, no
/// single GPU's identity (its results are the node's), its probes and skips.
fn between_gpu(b: &PlannedBetween) -> PlannedGpu {
    PlannedGpu {
        cuda_ordinal: b.gpus.first().map_or(0, |g| g.cuda_ordinal),
        nvml_index: None,
        name: None,
        pci_bus_id: None,
        probes: b.probes.clone(),
        skipped: b.skipped.clone(),
    }
}

fn run_per_gpu(
    host: &Host,
    plan: &Plan,
    on_event: &(dyn Fn(ProbeEvent) + Sync),
) -> Vec<ProbeResult> {
    std::thread::scope(|s| {
        let handles: Vec<_> = plan
            .gpus
            .iter()
            .map(|gpu| s.spawn(move || run_gpu(host, plan, gpu, None, on_event)))
            .collect();
        handles
            .into_iter()
            .zip(&plan.gpus)
            .flat_map(|(h, gpu)| {
                h.join().unwrap_or_else(|_| {
                    gpu.probes
                        .iter()
                        .map(|p| result(gpu, *p, 0, crashed_locally()))
                        .collect()
                })
            })
            .collect()
    })
}

fn crashed_locally() -> ProbeOutcome {
    ProbeOutcome::Crashed {
        signal: None,
        exit_status: None,
        stderr_tail: "the thread supervising this GPU's worker panicked".to_string(),
    }
}

fn result(
    gpu: &PlannedGpu,
    probe: ProbeKind,
    elapsed_ms: u64,
    outcome: ProbeOutcome,
) -> ProbeResult {
    ProbeResult {
        probe,
        cuda_ordinal: gpu.cuda_ordinal,
        nvml_index: gpu.nvml_index,
        gpu_name: gpu.name.clone(),
        pci_bus_id: gpu.pci_bus_id.clone(),
        elapsed_ms,
        outcome,
        pairs: Vec::new(),
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

fn run_gpu(
    host: &Host,
    plan: &Plan,
    gpu: &PlannedGpu,
    between: Option<&PlannedBetween>,
    on_event: &(dyn Fn(ProbeEvent) + Sync),
) -> Vec<ProbeResult> {
    let mut results: Vec<ProbeResult> = Vec::new();
    let mut remaining: Vec<ProbeKind> = gpu.probes.clone();
    while !remaining.is_empty() {
        let before = remaining.len();
        run_worker(
            host,
            plan,
            gpu,
            between,
            &mut remaining,
            &mut results,
            on_event,
        );
        if remaining.len() == before {
            // A worker that made no progress and reported no failure: never loop.
            for p in remaining.drain(..) {
                let r = result(
                    gpu,
                    p,
                    0,
                    ProbeOutcome::Crashed {
                        signal: None,
                        exit_status: None,
                        stderr_tail: "the probe worker ended without running any probe".to_string(),
                    },
                );
                on_event(ProbeEvent::Finished(Box::new(r.clone())));
                results.push(r);
            }
        }
    }
    for (probe, why) in &gpu.skipped {
        let r = result(gpu, *probe, 0, ProbeOutcome::Skipped { why: why.clone() });
        on_event(ProbeEvent::Finished(Box::new(r.clone())));
        results.push(r);
    }
    results.sort_by_key(|r| r.probe);
    results
}

fn worker_command(
    host: &Host,
    plan: &Plan,
    gpu: &PlannedGpu,
    between: Option<&PlannedBetween>,
    probes: &[ProbeKind],
) -> Result<Command, String> {
    let exe = std::env::current_exe().map_err(|e| {
        format!("cannot find gpu-doctor's own executable to run the probe worker: {e}")
    })?;
    let ordinal = |g: &PlannedGpu| i32::try_from(g.cuda_ordinal).unwrap_or(i32::MAX);
    let args = WorkerArgs {
        ordinal: ordinal(gpu),
        probes: probes.to_vec(),
        cublaslt: if between.is_some() {
            Vec::new()
        } else {
            plan.cublaslt.clone()
        },
        peers: between.map_or_else(Vec::new, |b| b.gpus.iter().map(ordinal).collect()),
        nccl: between.map_or_else(Vec::new, |b| b.nccl.clone()),
        p2p_bytes: between.map_or(super::between::P2P_BYTES, |b| b.p2p_bytes),
    };
    let mut cmd = Command::new(exe);
    cmd.args(args.to_args());
    cmd.env_clear().envs(host.vars());
    if let Some(dir) = host.driver_lib_dir() {
        cmd.env("LD_LIBRARY_PATH", dir);
    }
    Ok(cmd)
}

/// The P2P pairs heard of so far: a pair's later event replaces its earlier one.
fn note_pair(pairs: &mut Vec<PeerPair>, pair: PeerPair) {
    match pairs
        .iter_mut()
        .find(|p| p.src == pair.src && p.dst == pair.dst)
    {
        Some(p) => *p = pair,
        None => pairs.push(pair),
    }
}

/// One worker for the probes in `remaining`; removes each probe it settles.
fn run_worker(
    host: &Host,
    plan: &Plan,
    gpu: &PlannedGpu,
    between: Option<&PlannedBetween>,
    remaining: &mut Vec<ProbeKind>,
    results: &mut Vec<ProbeResult>,
    on_event: &(dyn Fn(ProbeEvent) + Sync),
) {
    let mut pairs: Vec<PeerPair> = Vec::new();
    let mut settle = |probe: ProbeKind,
                      elapsed_ms: u64,
                      outcome: ProbeOutcome,
                      remaining: &mut Vec<ProbeKind>,
                      pairs: &[PeerPair]| {
        remaining.retain(|p| *p != probe);
        let mut r = result(gpu, probe, elapsed_ms, outcome);
        if probe == ProbeKind::P2p {
            r.pairs = pairs.to_vec();
        }
        on_event(ProbeEvent::Finished(Box::new(r.clone())));
        results.push(r);
    };
    let spawned = worker_command(host, plan, gpu, between, remaining).and_then(|mut cmd| {
        use std::os::unix::process::CommandExt;
        cmd.stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .map_err(|e| format!("could not start the probe worker: {e}"))
    });
    let mut child = match spawned {
        Ok(c) => c,
        Err(why) => {
            for p in remaining.clone() {
                settle(
                    p,
                    0,
                    ProbeOutcome::Crashed {
                        signal: None,
                        exit_status: None,
                        stderr_tail: why.clone(),
                    },
                    remaining,
                    &pairs,
                );
            }
            return;
        }
    };
    let (tx, rx) = mpsc::channel::<String>();
    if let Some(out) = child.stdout.take() {
        std::thread::spawn(move || {
            let mut reader = BufReader::new(out);
            while let Some(line) = read_line_bounded(&mut reader) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
    }
    let stderr = child.stderr.take().map(|mut err| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let mut chunk = [0u8; 4096];
            while let Ok(n) = err.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                buf.extend_from_slice(&chunk[..n]);
                if buf.len() > STDERR_CAP_BYTES {
                    buf.drain(..buf.len() - STDERR_CAP_BYTES);
                }
            }
            String::from_utf8_lossy(&buf).into_owned()
        })
    });
    let mut current: Option<(ProbeKind, Instant)> = None;
    // Whether the worker got as far as a current context; a hang before that is the
    // GPU's, not one probe's, and would only repeat in every fresh worker.
    let mut opened = false;
    let mut deadline = Instant::now() + plan.timeout;
    let mut exited_at: Option<Instant> = None;
    let ended = loop {
        let wait = deadline.saturating_duration_since(Instant::now()).min(POLL);
        match rx.recv_timeout(wait) {
            Ok(line) => match parse_line(&line) {
                None => {}
                Some(Err(protocol)) => {
                    break End::Protocol(protocol);
                }
                Some(Ok(Event::Ready { .. })) => {
                    opened = true;
                    deadline = Instant::now() + plan.timeout;
                }
                Some(Ok(Event::Started { probe, .. })) => {
                    current = Some((probe, Instant::now()));
                    deadline = Instant::now() + plan.timeout;
                    on_event(ProbeEvent::Started {
                        cuda_ordinal: gpu.cuda_ordinal,
                        probe,
                    });
                }
                Some(Ok(Event::Pair { pair, .. })) => note_pair(&mut pairs, pair),
                Some(Ok(Event::Finished {
                    probe,
                    elapsed_ms,
                    outcome,
                    ..
                })) => {
                    if remaining.contains(&probe) {
                        settle(probe, elapsed_ms, outcome, remaining, &pairs);
                    }
                    current = None;
                    deadline = Instant::now() + plan.timeout;
                }
            },
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if Instant::now() >= deadline {
                    break End::TimedOut;
                }
                // The worker is gone but something it started holds the pipe.
                match exited_at {
                    Some(t) if t.elapsed() >= PIPE_GRACE => break End::Eof,
                    Some(_) => {}
                    None => {
                        if matches!(child.try_wait(), Ok(Some(_))) {
                            exited_at = Some(Instant::now());
                        }
                    }
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break End::Eof,
        }
    };
    if matches!(ended, End::Eof) {
        // The answer pipe closed: the worker is exiting. Give it a moment.
        use wait_timeout::ChildExt;
        let _ = child.wait_timeout(PIPE_GRACE);
    }
    // Whatever is left of the worker's process group (the worker on a time-out, helpers a
    // driver forked) goes with it.
    kill_group(child.id());
    let _ = child.kill();
    let status = child.wait().ok();
    let stderr_tail = stderr
        .and_then(|h| join_with_deadline(h, PIPE_GRACE))
        .map(|s| tail_lines(&s, 12))
        .unwrap_or_default();
    // A copy the worker started and never finished is the one that hung.
    if matches!(ended, End::TimedOut) {
        for p in &mut pairs {
            if p.status == PeerStatus::Running {
                p.status = PeerStatus::Hung;
                p.detail = Some(format!(
                    "the copy did not finish within the probe's time limit ({} s)",
                    plan.timeout.as_secs_f64()
                ));
            }
        }
    }
    let (blamed, elapsed) = match current {
        Some((p, t)) => (Some(p), millis(t.elapsed())),
        None => (remaining.first().copied(), 0),
    };
    match ended {
        End::Protocol(protocol) => {
            for p in remaining.clone() {
                settle(
                    p,
                    0,
                    ProbeOutcome::Failed {
                        reason: format!(
                            "the probe worker spoke protocol {protocol}, expected {}",
                            super::protocol::PROBE_PROTOCOL
                        ),
                        code: None,
                        measurements: Vec::new(),
                        notes: Vec::new(),
                    },
                    remaining,
                    &pairs,
                );
            }
        }
        End::TimedOut if !opened => {
            if let Some(p) = blamed {
                let after_ms = millis(plan.timeout);
                settle(
                    p,
                    after_ms,
                    ProbeOutcome::TimedOut {
                        after_ms,
                        stderr_tail,
                        limit_ms: Some(millis(plan.timeout)),
                    },
                    remaining,
                    &pairs,
                );
            }
            for p in remaining.clone() {
                let why = format!(
                    "opening CUDA ordinal {} (cuInit, context creation) hung; the {} probe reports it",
                    gpu.cuda_ordinal,
                    blamed.map_or("first", ProbeKind::as_str)
                );
                settle(p, 0, ProbeOutcome::Skipped { why }, remaining, &pairs);
            }
        }
        End::TimedOut => {
            if let Some(p) = blamed {
                let after_ms = if current.is_some() {
                    elapsed
                } else {
                    millis(plan.timeout)
                };
                settle(
                    p,
                    after_ms,
                    ProbeOutcome::TimedOut {
                        after_ms,
                        stderr_tail,
                        limit_ms: Some(millis(plan.timeout)),
                    },
                    remaining,
                    &pairs,
                );
            }
        }
        // Stopped on purpose after a sticky error, between probes: the next worker runs
        // the rest.
        End::Eof
            if current.is_none()
                && status.and_then(|s| s.code()) == Some(super::protocol::STICKY_EXIT) => {}
        End::Eof => {
            if let Some(p) = blamed {
                use std::os::unix::process::ExitStatusExt;
                let signal = status.and_then(|s| s.signal());
                let exit_status = status.and_then(|s| s.code());
                settle(
                    p,
                    elapsed,
                    ProbeOutcome::Crashed {
                        signal,
                        exit_status,
                        stderr_tail,
                    },
                    remaining,
                    &pairs,
                );
            }
        }
    }
}

enum End {
    TimedOut,
    Eof,
    Protocol(u32),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlong_lines_are_skipped_and_the_next_line_is_read() {
        let long = "x".repeat(MAX_LINE_BYTES as usize * 2 + 10);
        let text = format!("first\n{long}\n{{\"event\":\"ready\",\"protocol\":1}}\n");
        let mut r = std::io::Cursor::new(text.into_bytes());
        assert_eq!(read_line_bounded(&mut r).as_deref(), Some("first\n"));
        assert_eq!(read_line_bounded(&mut r).as_deref(), Some(""));
        let event = read_line_bounded(&mut r).unwrap();
        assert!(matches!(parse_line(&event), Some(Ok(Event::Ready { .. }))));
        assert_eq!(read_line_bounded(&mut r), None);
    }
}
