//! The probe worker: `gpu-doctor __probe-worker --ordinal N --probes a,b [--cublaslt PATH]…`.
//! Opens one CUDA ordinal and runs the probes in order, printing an event per line.
//! It lives in its own process group (the parent kills the group on a time-out) and
//! dies with the parent.

use std::path::PathBuf;
use std::time::Instant;

use super::protocol::{
    answer_channel, write_answer, Event, PROBE_PROTOCOL, STICKY_EXIT, WORKER_SUBCOMMAND,
};
use super::suite;
use crate::cuda_ffi as kernels;
use crate::facts::probe::{ProbeKind, ProbeOutcome};

/// Parsed worker arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerArgs {
    pub ordinal: i32,
    pub probes: Vec<ProbeKind>,
    pub cublaslt: Vec<PathBuf>,
    /// The probes between GPUs: every GPU's CUDA ordinal, in rank order (`ordinal` is
    /// the first). Empty for a per-GPU worker.
    pub peers: Vec<i32>,
    /// libnccl.so.2 candidates for the NCCL probe, best first.
    pub nccl: Vec<PathBuf>,
    /// Bytes of each P2P copy.
    pub p2p_bytes: u64,
}

impl WorkerArgs {
    pub fn to_args(&self) -> Vec<String> {
        let mut out = vec![
            WORKER_SUBCOMMAND.to_string(),
            "--ordinal".to_string(),
            self.ordinal.to_string(),
            "--probes".to_string(),
            self.probes
                .iter()
                .map(|p| p.as_str())
                .collect::<Vec<_>>()
                .join(","),
        ];
        for lib in &self.cublaslt {
            out.push("--cublaslt".to_string());
            out.push(lib.display().to_string());
        }
        if !self.peers.is_empty() {
            out.push("--peers".to_string());
            out.push(
                self.peers
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(","),
            );
            out.push("--p2p-bytes".to_string());
            out.push(self.p2p_bytes.to_string());
        }
        for lib in &self.nccl {
            out.push("--nccl".to_string());
            out.push(lib.display().to_string());
        }
        out
    }

    pub fn parse(args: &[String]) -> Result<WorkerArgs, String> {
        let mut ordinal = None;
        let mut probes = Vec::new();
        let mut cublaslt = Vec::new();
        let mut peers = Vec::new();
        let mut nccl = Vec::new();
        let mut p2p_bytes = super::between::P2P_BYTES;
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let mut value = || it.next().ok_or(format!("{a} needs a value"));
            match a.as_str() {
                "--ordinal" => {
                    ordinal = Some(value()?.parse::<i32>().map_err(|e| e.to_string())?);
                }
                "--probes" => {
                    for p in value()?.split(',').filter(|p| !p.is_empty()) {
                        probes.push(ProbeKind::parse(p).ok_or(format!("unknown probe {p}"))?);
                    }
                }
                "--cublaslt" => cublaslt.push(PathBuf::from(value()?)),
                "--peers" => {
                    for p in value()?.split(',').filter(|p| !p.is_empty()) {
                        peers.push(p.parse::<i32>().map_err(|e| format!("--peers {p}: {e}"))?);
                    }
                }
                "--nccl" => nccl.push(PathBuf::from(value()?)),
                "--p2p-bytes" => {
                    p2p_bytes = value()?.parse::<u64>().map_err(|e| e.to_string())?;
                }
                other => return Err(format!("unexpected argument {other}")),
            }
        }
        Ok(WorkerArgs {
            ordinal: ordinal.ok_or("--ordinal is required")?,
            probes,
            cublaslt,
            peers,
            nccl,
            p2p_bytes,
        })
    }
}

fn emit(channel: Option<&std::fs::File>, event: &Event) {
    if let Ok(text) = serde_json::to_string(event) {
        write_answer(channel, &text);
    }
}

/// Body of the hidden subcommand; returns the exit code.
pub fn worker_main(args: &[String]) -> i32 {
    let _ = nix::sys::prctl::set_pdeathsig(nix::sys::signal::Signal::SIGKILL);
    let channel = answer_channel();
    let emit = |event: &Event| emit(channel.as_ref(), event);
    let args = match WorkerArgs::parse(args) {
        Ok(a) => a,
        Err(why) => {
            eprintln!("gpu-doctor {WORKER_SUBCOMMAND}: {why}");
            return 2;
        }
    };
    let settle_all = |outcome: ProbeOutcome| {
        for probe in &args.probes {
            emit(&Event::Finished {
                protocol: PROBE_PROTOCOL,
                probe: *probe,
                elapsed_ms: 0,
                outcome: outcome.clone(),
            });
        }
        0
    };
    let fail_all = |reason: String| {
        settle_all(ProbeOutcome::Failed {
            reason,
            code: None,
            measurements: Vec::new(),
            notes: Vec::new(),
        })
    };
    let driver = match kernels::load_cuda() {
        Ok(d) => d,
        Err(why) => return fail_all(format!("libcuda could not be loaded: {why}")),
    };
    match driver.init() {
        Ok(0) => {}
        Ok(code) => {
            let c = suite::probe_code(&driver, "cuInit", code);
            return fail_all(format!("cuInit returned {} ({})", c.name, c.code));
        }
        Err(kernels::CallError::MissingSymbol(s)) => {
            return settle_all(suite::missing_entry_point(&driver, &s))
        }
    }
    if !args.peers.is_empty() {
        return between_main(&driver, &args, &emit, &fail_all, &settle_all);
    }
    let opened = driver
        .device(args.ordinal)
        .and_then(|device| Ok((device, driver.primary_context(device)?)));
    let (device, ctx) = match opened {
        Ok(x) => x,
        Err(kernels::CuError::Code { call, code }) => {
            let c = suite::probe_code(&driver, call, code);
            return fail_all(format!(
                "opening CUDA ordinal {}: {call} returned {} ({})",
                args.ordinal, c.name, c.code
            ));
        }
        Err(kernels::CuError::MissingSymbol(s)) => {
            return settle_all(suite::missing_entry_point(&driver, &s))
        }
    };
    emit(&Event::Ready {
        protocol: PROBE_PROTOCOL,
    });
    let gpu = suite::Gpu {
        driver: &driver,
        device,
        ordinal: args.ordinal,
        ctx,
        cublaslt: args.cublaslt.clone(),
    };
    for probe in &args.probes {
        emit(&Event::Started {
            protocol: PROBE_PROTOCOL,
            probe: *probe,
        });
        let t = Instant::now();
        let outcome = suite::run(&gpu, *probe);
        let sticky = suite::sticky_code(&outcome);
        emit(&Event::Finished {
            protocol: PROBE_PROTOCOL,
            probe: *probe,
            elapsed_ms: u64::try_from(t.elapsed().as_millis()).unwrap_or(u64::MAX),
            outcome,
        });
        if sticky.is_some() {
            // The context is poisoned until this process ends: every later probe would
            // fail with the same code. A fresh worker runs the rest.
            return STICKY_EXIT;
        }
    }
    0
}

/// The worker of the probes between GPUs: every GPU's primary context, then each probe.
fn between_main(
    driver: &kernels::CudaDriver,
    args: &WorkerArgs,
    emit: &dyn Fn(&Event),
    fail_all: &dyn Fn(String) -> i32,
    settle_all: &dyn Fn(ProbeOutcome) -> i32,
) -> i32 {
    let mut gpus = Vec::new();
    for ordinal in &args.peers {
        let opened = driver
            .device(*ordinal)
            .and_then(|device| driver.primary_context(device));
        match opened {
            Ok(ctx) => gpus.push((*ordinal, ctx)),
            Err(kernels::CuError::Code { call, code }) => {
                let c = suite::probe_code(driver, call, code);
                return fail_all(format!(
                    "opening CUDA ordinal {ordinal}: {call} returned {} ({})",
                    c.name, c.code
                ));
            }
            Err(kernels::CuError::MissingSymbol(s)) => {
                return settle_all(suite::missing_entry_point(driver, &s))
            }
        }
    }
    emit(&Event::Ready {
        protocol: PROBE_PROTOCOL,
    });
    let node = super::between::Node {
        driver,
        gpus,
        nccl: args.nccl.clone(),
        p2p_bytes: args.p2p_bytes,
    };
    for probe in &args.probes {
        emit(&Event::Started {
            protocol: PROBE_PROTOCOL,
            probe: *probe,
        });
        let t = Instant::now();
        let outcome = super::between::run(&node, *probe, &|pair| {
            emit(&Event::Pair {
                protocol: PROBE_PROTOCOL,
                pair: pair.clone(),
            });
        });
        let sticky = suite::sticky_code(&outcome);
        emit(&Event::Finished {
            protocol: PROBE_PROTOCOL,
            probe: *probe,
            elapsed_ms: u64::try_from(t.elapsed().as_millis()).unwrap_or(u64::MAX),
            outcome,
        });
        if sticky.is_some() {
            return STICKY_EXIT;
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_round_trip() {
        let a = WorkerArgs {
            ordinal: 3,
            probes: vec![ProbeKind::Launch, ProbeKind::Oom],
            cublaslt: vec![PathBuf::from("/x/libcublasLt.so.12")],
            peers: Vec::new(),
            nccl: Vec::new(),
            p2p_bytes: super::super::between::P2P_BYTES,
        };
        let args = a.to_args();
        assert_eq!(WorkerArgs::parse(&args[1..]).unwrap(), a);
        let node = WorkerArgs {
            ordinal: 0,
            probes: vec![ProbeKind::P2p, ProbeKind::Nccl],
            cublaslt: Vec::new(),
            peers: vec![0, 2, 3],
            nccl: vec![PathBuf::from("/v/nvidia/nccl/lib/libnccl.so.2")],
            p2p_bytes: 8 << 20,
        };
        assert_eq!(WorkerArgs::parse(&node.to_args()[1..]).unwrap(), node);
        let args = a.to_args();
        assert_eq!(args[0], WORKER_SUBCOMMAND);
        assert_eq!(WorkerArgs::parse(&args[1..]).unwrap(), a);
    }

    #[test]
    fn bad_arguments_are_refused() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert!(WorkerArgs::parse(&s(&["--probes", "launch"])).is_err());
        assert!(WorkerArgs::parse(&s(&["--ordinal", "x"])).is_err());
        assert!(WorkerArgs::parse(&s(&["--ordinal", "0", "--probes", "warp"])).is_err());
        assert!(WorkerArgs::parse(&s(&["--ordinal"])).is_err());
    }
}
