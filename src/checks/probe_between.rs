//! probe.p2p, probe.p2p_bandwidth, probe.nccl: what the probes between GPUs found, one
//! finding for the node each (the pairs named inside), judged against the link between
//! each pair: NVLink (NVML's P2P status, the product's NVLink in interconnect.toml) or
//! PCIe (the slower of the two GPUs' links).

use super::catalogue::{Action, Area, Check};
use super::Ctx;
use crate::facts::probe::{PeerPair, PeerStatus, ProbeKind, ProbeOutcome, ProbeResult};
use crate::finding::{Finding, Severity};

pub const PROBE_P2P: Check = Check {
    id: "probe.p2p",
    name: "probe.peer_copies",
    area: Area::Probe,
    title: "(probe) GPUs that report peer access copy to each other intact",
    failing: "a GPU pair reports peer access (`cuDeviceCanAccessPeer`) but a peer copy arrives changed, fails or hangs (IOMMU/ACS), or NVLink joins a pair CUDA gives no peer access",
    why: "Multi-GPU training moves tensors between GPUs directly; corrupt or hanging peer copies corrupt or hang the job.",
    next_step: "Drain the node; check IOMMU and PCIe ACS settings, then the NVLink and the GPUs.",
    action: Action::Drain,
    reads: &["driver_api", "probes"],
    not_in_paste: None,
    run: p2p,
};

pub const PROBE_P2P_BANDWIDTH: Check = Check {
    id: "probe.p2p_bandwidth",
    name: "probe.peer_bandwidth",
    area: Area::Probe,
    title: "(probe) peer copies reach the speed of the link between the GPUs",
    failing: "a peer copy runs under the matrix's share of its link (NVLink generation × links, or PCIe generation × width)",
    why: "A slow link between GPUs makes every collective slow: data-parallel training waits on it each step.",
    next_step: "Look at the NVLink state and the PCIe topology (nvidia-smi topo -m, nvlink -s).",
    action: Action::InspectHardware,
    reads: &["driver_api", "probes"],
    not_in_paste: None,
    run: p2p_bandwidth,
};

pub const PROBE_NCCL: Check = Check {
    id: "probe.nccl",
    name: "probe.nccl_all_reduce",
    area: Area::Probe,
    title: "(probe) an NCCL all-reduce over every GPU is correct and fast enough",
    failing: "NCCL (the libnccl.so.2 PyTorch ships) cannot set up, computes a wrong all-reduce, hangs, or its bus bandwidth is under the matrix's share of the slowest link",
    why: "torch.distributed runs on NCCL: what fails here fails every multi-GPU job with 'NCCL error'.",
    next_step: "Drain the node; rerun with NCCL_DEBUG=INFO and act on the first warning.",
    action: Action::Drain,
    reads: &["driver_api", "probes", "python"],
    not_in_paste: None,
    run: nccl,
};

/// The results of one probe between GPUs, but not those that could not run because
/// libcuda lacks an entry point (driver.entry_point_missing reports those once).
fn results<'a>(ctx: &Ctx<'a>, kind: ProbeKind) -> impl Iterator<Item = &'a ProbeResult> {
    ctx.facts.probes.iter().filter(move |r| {
        r.probe == kind
            && !matches!(&r.outcome, ProbeOutcome::Failed { code: Some(c), .. } if c.name == crate::facts::probe::MISSING_ENTRY_POINT)
    })
}

/// "GPU 2" (nvidia-smi's index) or "CUDA device 2" when NVML did not see it.
fn gpu_name(ctx: &Ctx, ordinal: u32) -> String {
    match nvml_index(ctx, ordinal) {
        Some(i) => format!("GPU {i}"),
        None => format!("CUDA device {ordinal}"),
    }
}

fn nvml_index(ctx: &Ctx, ordinal: u32) -> Option<u32> {
    super::view::cuda_devices(ctx.facts)
        .iter()
        .find(|d| d.ordinal == ordinal)
        .and_then(|d| d.nvml_index)
}

fn pair_name(ctx: &Ctx, p: &PeerPair) -> String {
    format!("{} → {}", gpu_name(ctx, p.src), gpu_name(ctx, p.dst))
}

/// What the matrix and NVML say a pair's link carries, one direction.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    pub label: String,
    pub gbps: f64,
}

/// The link between two CUDA ordinals: NVLink when NVML says NVLink joins them and the
/// matrix knows the product's NVLink; else PCIe, the slower of the two GPUs' links.
pub fn link_between(ctx: &Ctx, src: u32, dst: u32) -> Option<Link> {
    let (a, b) = (nvml_index(ctx, src)?, nvml_index(ctx, dst)?);
    let pairs = super::view::nvml(ctx.facts)?.pairs.value()?;
    let pair = pairs.iter().find(|p| (p.a, p.b) == (a.min(b), a.max(b)))?;
    if pair.nvlink.value() == Some(&true) {
        let name = super::view::nvml_devices(ctx.facts)
            .iter()
            .find(|d| d.index == a)
            .and_then(|d| d.name.value())?;
        let product = ctx.matrix.nvlink_product(name)?;
        return Some(Link {
            label: format!(
                "NVLink{} ({} links, {:.0} GB/s each way)",
                product.generation,
                product.links,
                product.total_gbps / 2.0
            ),
            gbps: product.total_gbps / 2.0,
        });
    }
    let rate = |i: u32| -> Option<(u32, u32, f64)> {
        let (generation, width) = super::view::pcie_max_link(ctx.facts, Some(i))?;
        let lane = ctx.matrix.pcie_lane_gbps(generation)?;
        Some((generation, width, lane * f64::from(width)))
    };
    let (ra, rb) = (rate(a)?, rate(b)?);
    let (generation, width, gbps) = if ra.2 <= rb.2 { ra } else { rb };
    Some(Link {
        label: format!("PCIe Gen{generation} x{width} ({gbps:.1} GB/s each way)"),
        gbps,
    })
}

fn pairs_evidence(ctx: &Ctx, pairs: &[PeerPair]) -> String {
    pairs
        .iter()
        .map(|p| {
            let rate = p.gbps.map_or(String::new(), |g| format!(" {g:.1} GB/s"));
            format!("{} {}{rate}", pair_name(ctx, p), p.status.as_str())
        })
        .collect::<Vec<_>>()
        .join("; ")
}

const IOMMU_COMMANDS: [&str; 4] = [
    "nvidia-smi topo -m",
    "cat /proc/cmdline",
    "sudo lspci -vvv | grep -i -e 'ACSCtl' -e 'PCI bridge'",
    "sudo dmesg | grep -i -e DMAR -e IOMMU -e AMD-Vi -e xid",
];

/// probe.p2p: the access matrix and whether the copies arrived intact.
pub fn p2p(ctx: &Ctx) -> Vec<Finding> {
    results(ctx, ProbeKind::P2p)
        .map(|r| p2p_finding(ctx, r))
        .collect()
}

fn p2p_finding(ctx: &Ctx, r: &ProbeResult) -> Finding {
    let id = &PROBE_P2P;
    let f = match &r.outcome {
        ProbeOutcome::Passed { summary, .. } => {
            // NVLink joins the pair, yet CUDA gives it no peer access.
            let denied: Vec<String> = r
                .pairs
                .iter()
                .filter(|p| !p.access)
                .filter(|p| {
                    link_between(ctx, p.src, p.dst).is_some_and(|l| l.label.starts_with("NVLink"))
                })
                .map(|p| pair_name(ctx, p))
                .collect();
            if denied.is_empty() {
                let no_access = r.pairs.iter().filter(|p| !p.access).count();
                let severity = if no_access > 0 && r.pairs.iter().all(|p| !p.access) {
                    Severity::Info
                } else {
                    Severity::Pass
                };
                let mut f = id.finding(severity, format!("GPUs: {summary}"));
                if no_access > 0 {
                    f = f.details("Pairs without peer access copy through host memory: slower, but correct. Across CPU sockets or behind some PCIe root complexes this is normal; NCCL then uses shared memory or the network.");
                }
                f
            } else {
                id.finding(
                    Severity::Warn,
                    format!(
                        "NVLink joins {} but CUDA reports no peer access between them",
                        denied.join(", ")
                    ),
                )
                .details("NVML reports an NVLink connection, yet cuDeviceCanAccessPeer says no: peer traffic falls back to host memory. Usual causes: an NVLink down on one side, the fabric manager not running on an NVSwitch system, or peer access disabled by a driver registry key.")
                .fix("Check the NVLink state and, on NVSwitch systems, the fabric manager.", &["nvidia-smi nvlink -s", "nvidia-smi topo -m", "systemctl status nvidia-fabricmanager"])
            }
        }
        ProbeOutcome::Failed { reason, code, .. } => {
            let corrupted: Vec<String> = r
                .pairs
                .iter()
                .filter(|p| p.status == PeerStatus::Corrupted)
                .map(|p| pair_name(ctx, p))
                .collect();
            let mut f = if corrupted.is_empty() {
                id.finding(
                    Severity::Fail,
                    format!("GPUs: the P2P probe failed: {reason}"),
                )
            } else {
                id.finding(
                    Severity::Fail,
                    format!(
                        "peer access is reported but copies arrived changed: {}",
                        corrupted.join(", ")
                    ),
                )
                .details(format!("The driver reports peer access and the copy completed without an error, but the bytes that arrived differ from those sent ({reason}). This is the signature of an IOMMU or PCIe Access Control Services (ACS) setting that redirects or blocks peer-to-peer traffic between PCIe devices: NCCL then hangs or produces garbage. Until fixed, NCCL_P2P_DISABLE=1 keeps jobs correct (slower)."))
            };
            if let Some(c) = code {
                f = f.evidence(
                    "probe.code",
                    format!("{} returned {} ({})", c.call, c.name, c.code),
                );
            }
            f.fix(
                "Disable ACS on the PCIe switches between the GPUs (or enable ATS), or set the IOMMU to passthrough (iommu=pt / intel_iommu=off on bare metal), then retest; meanwhile run jobs with NCCL_P2P_DISABLE=1.",
                &IOMMU_COMMANDS,
            )
        }
        ProbeOutcome::TimedOut { after_ms, .. } => {
            let hung: Vec<String> = r
                .pairs
                .iter()
                .filter(|p| p.status == PeerStatus::Hung)
                .map(|p| pair_name(ctx, p))
                .collect();
            let which = if hung.is_empty() {
                "a peer copy".to_string()
            } else {
                format!("the peer copy {}", hung.join(", "))
            };
            id.finding(
                Severity::Fail,
                format!(
                    "{which} hung: the P2P probe was killed after {:.1} s",
                    *after_ms as f64 / 1e3
                ),
            )
            .details("Peer access is reported but a copy between the GPUs never completed. Peer-to-peer writes that the IOMMU or PCIe ACS redirect to the root complex (and drop) hang exactly like this; NCCL jobs on this node hang at their first collective.")
            .fix(
                "Disable ACS on the PCIe switches between the GPUs or set the IOMMU to passthrough, then retest; meanwhile run jobs with NCCL_P2P_DISABLE=1.",
                &IOMMU_COMMANDS,
            )
        }
        ProbeOutcome::Crashed {
            signal,
            exit_status,
            ..
        } => id.finding(
            Severity::Fail,
            format!(
                "the P2P probe's worker crashed ({})",
                signal.map_or_else(
                    || format!("exit status {}", exit_status.unwrap_or(-1)),
                    |s| format!("signal {s} ({})", crate::host::signal_name(s))
                )
            ),
        ),
        ProbeOutcome::Skipped { why } => {
            id.finding(Severity::Info, format!("the P2P probe did not run: {why}"))
        }
    };
    let f = if r.pairs.is_empty() {
        f
    } else {
        f.evidence("probe.pairs", pairs_evidence(ctx, &r.pairs))
    };
    f.evidence("probe.elapsed_ms", format!("{} ms", r.elapsed_ms))
}

/// probe.p2p_bandwidth: each verified copy against its link.
pub fn p2p_bandwidth(ctx: &Ctx) -> Vec<Finding> {
    let id = &PROBE_P2P_BANDWIDTH;
    let fraction = ctx.matrix.interconnect.judgement.p2p_fraction;
    results(ctx, ProbeKind::P2p)
        .filter_map(|r| {
            let measured: Vec<(&PeerPair, f64)> = r
                .pairs
                .iter()
                .filter(|p| p.status == PeerStatus::Verified)
                .filter_map(|p| Some((p, p.gbps?)))
                .collect();
            if measured.is_empty() {
                return None;
            }
            let mut slow = Vec::new();
            let mut judged = 0;
            let mut unknown = Vec::new();
            for (p, gbps) in &measured {
                match link_between(ctx, p.src, p.dst) {
                    Some(link) => {
                        judged += 1;
                        if *gbps < fraction * link.gbps {
                            slow.push(format!(
                                "{} {gbps:.1} GB/s over {}",
                                pair_name(ctx, p),
                                link.label
                            ));
                        }
                    }
                    None => unknown.push(pair_name(ctx, p)),
                }
            }
            let rates: Vec<f64> = measured.iter().map(|(_, g)| *g).collect();
            let lo = rates.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = rates.iter().copied().fold(0.0, f64::max);
            let f = if !slow.is_empty() {
                id.finding(
                    Severity::Warn,
                    format!(
                        "peer copies under {:.0}% of their link: {}",
                        fraction * 100.0,
                        slow.join("; ")
                    ),
                )
                .details("Timed with CUDA events over 5 copies after a warm-up. A pair far below its link: an NVLink down or degraded (traffic falls back to PCIe), a PCIe link trained below its width or generation, the pair crossing CPU sockets, or IOMMU translation on every peer access.")
                .fix("Check NVLink state, PCIe link state and topology.", &["nvidia-smi nvlink -s", "nvidia-smi -q -d PCIE", "nvidia-smi topo -m"])
            } else if judged == 0 {
                id.finding(
                    Severity::Info,
                    format!(
                        "peer copies reach {lo:.1}–{hi:.1} GB/s; the link between the GPUs is not known (NVML gave no topology or PCIe link, or the matrix lacks the product's NVLink), so they are not judged"
                    ),
                )
            } else {
                id.finding(
                    Severity::Pass,
                    format!(
                        "peer copies reach {lo:.1}–{hi:.1} GB/s, at least {:.0}% of each pair's link",
                        fraction * 100.0
                    ),
                )
            };
            let f = if unknown.is_empty() || judged == 0 {
                f
            } else {
                f.evidence("probe.link_unknown", unknown.join(", "))
            };
            Some(f.evidence("probe.pairs", pairs_evidence(ctx, &r.pairs)))
        })
        .collect()
}

fn measurement(r: &ProbeResult, name: &str) -> Option<f64> {
    r.outcome
        .measurements()
        .iter()
        .find(|m| m.name == name)
        .map(|m| m.value)
}

/// The slowest link among every pair of the GPUs that took part (an all-reduce's ring
/// or tree is as fast as its slowest hop).
fn slowest_link(ctx: &Ctx, ordinals: &[u32]) -> Option<Link> {
    let mut slowest: Option<Link> = None;
    for (i, a) in ordinals.iter().enumerate() {
        for b in &ordinals[i + 1..] {
            let link = link_between(ctx, *a, *b)?;
            if slowest.as_ref().is_none_or(|s| link.gbps < s.gbps) {
                slowest = Some(link);
            }
        }
    }
    slowest
}

/// The CUDA ordinals the probes between GPUs ran on: those the P2P probe paired, else
/// every CUDA device.
fn node_ordinals(ctx: &Ctx) -> Vec<u32> {
    let mut v: Vec<u32> = results(ctx, ProbeKind::P2p)
        .flat_map(|r| r.pairs.iter().flat_map(|p| [p.src, p.dst]))
        .collect();
    if v.is_empty() {
        v = super::view::cuda_devices(ctx.facts)
            .iter()
            .map(|d| d.ordinal)
            .collect();
    }
    v.sort_unstable();
    v.dedup();
    v
}

/// probe.nccl: the all-reduce, its correctness and its bus bandwidth.
pub fn nccl(ctx: &Ctx) -> Vec<Finding> {
    let id = &PROBE_NCCL;
    let fraction = ctx.matrix.interconnect.judgement.allreduce_fraction;
    results(ctx, ProbeKind::Nccl)
        .map(|r| {
            let f = match &r.outcome {
                ProbeOutcome::Passed { summary, notes, .. } => {
                    let busbw = measurement(r, "busbw_gbps");
                    let ranks = measurement(r, "ranks").unwrap_or(0.0);
                    let ordinals = node_ordinals(ctx);
                    let link = (ordinals.len() as f64 == ranks)
                        .then(|| slowest_link(ctx, &ordinals))
                        .flatten();
                    match (busbw, link) {
                        (Some(bw), Some(link)) if bw < fraction * link.gbps => id
                            .finding(
                                Severity::Warn,
                                format!(
                                    "the NCCL all-reduce's bus bandwidth is {bw:.1} GB/s, under {:.0}% of the slowest link between the GPUs, {}",
                                    fraction * 100.0,
                                    link.label
                                ),
                            )
                            .details(format!("{summary}. NCCL chose a slow path: peer-to-peer disabled (NCCL_P2P_DISABLE, IOMMU/ACS), NVLink down, or the GPUs crossing sockets. NCCL_DEBUG=INFO names the transport it picked (P2P/CUMEM, SHM, NET)."))
                            .fix("Rerun with NCCL_DEBUG=INFO and look at the transport NCCL chose between the GPUs; check NVLink and PCIe topology.", &["NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,GRAPH python -c 'import torch'", "nvidia-smi topo -m", "nvidia-smi nvlink -s"]),
                        (_, link) => {
                            let mut f = id.finding(Severity::Pass, format!("GPUs: {summary}"));
                            if let Some(l) = link {
                                f = f.evidence("probe.slowest_link", l.label);
                            }
                            f.details(notes.join("\n"))
                        }
                    }
                }
                ProbeOutcome::Failed { reason, code, notes, .. } => {
                    let mut f = id
                        .finding(Severity::Fail, format!("GPUs: the NCCL probe failed: {reason}"))
                        .details(format!("{}\nThe same NCCL, in one process over the same GPUs, is what torch.distributed uses: jobs on this node fail with 'NCCL error' the same way.", notes.join("\n")));
                    if let Some(c) = code {
                        f = f.evidence(
                            "probe.code",
                            format!("{} returned {} ({})", c.call, c.name, c.code),
                        );
                    }
                    f.fix(
                        "Rerun with NCCL_DEBUG=INFO to see NCCL's own reason; if peer copies are involved (see probe.p2p), fix IOMMU/ACS or try NCCL_P2P_DISABLE=1; reinstall the nvidia-nccl wheel if the library itself fails.",
                        &["NCCL_DEBUG=INFO gpu-doctor --probes nccl", "nvidia-smi topo -m", "pip install --force-reinstall --no-deps nvidia-nccl-cu12"],
                    )
                }
                ProbeOutcome::TimedOut { after_ms, .. } => id
                    .finding(
                        Severity::Fail,
                        format!(
                            "GPUs: the NCCL all-reduce hung and was killed after {:.1} s",
                            *after_ms as f64 / 1e3
                        ),
                    )
                    .details("An all-reduce in one process over this node's GPUs never finished. Jobs here hang at their first collective until the NCCL watchdog kills them. The usual cause is peer-to-peer traffic that the IOMMU or PCIe ACS swallows (see probe.p2p), or an NVLink/NVSwitch fabric that is not ready.")
                    .fix(
                        "Check probe.p2p and the fabric; rerun with NCCL_P2P_DISABLE=1 to confirm a P2P path problem.",
                        &["NCCL_P2P_DISABLE=1 gpu-doctor --probes nccl", "nvidia-smi topo -m", "systemctl status nvidia-fabricmanager"],
                    ),
                ProbeOutcome::Crashed {
                    signal,
                    exit_status,
                    stderr_tail,
                } => id
                    .finding(
                        Severity::Fail,
                        format!(
                            "GPUs: the NCCL probe's worker crashed ({})",
                            signal.map_or_else(
                                || format!("exit status {}", exit_status.unwrap_or(-1)),
                                |s| format!("signal {s} ({})", crate::host::signal_name(s))
                            )
                        ),
                    )
                    .evidence("probe.stderr_tail", stderr_tail.trim()),
                ProbeOutcome::Skipped { why } => {
                    id.finding(Severity::Info, format!("the NCCL probe did not run: {why}"))
                }
            };
            let f = match measurement(r, "busbw_gbps") {
                Some(bw) => f.evidence("probe.busbw_gbps", format!("{bw:.2} GB/s")),
                None => f,
            };
            f.evidence("probe.elapsed_ms", format!("{} ms", r.elapsed_ms))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::testutil::{healthy, run};
    use crate::facts::probe::Measurement;

    fn pair(src: u32, dst: u32, status: PeerStatus, gbps: Option<f64>) -> PeerPair {
        PeerPair {
            src,
            dst,
            access: status != PeerStatus::NoAccess,
            status,
            bytes: 64 << 20,
            gbps,
            detail: None,
        }
    }

    fn result(probe: ProbeKind, outcome: ProbeOutcome, pairs: Vec<PeerPair>) -> ProbeResult {
        ProbeResult {
            probe,
            cuda_ordinal: 0,
            nvml_index: None,
            gpu_name: None,
            pci_bus_id: None,
            elapsed_ms: 40,
            outcome,
            pairs,
        }
    }

    fn passed(summary: &str, measurements: Vec<Measurement>) -> ProbeOutcome {
        ProbeOutcome::Passed {
            summary: summary.into(),
            measurements,
            notes: vec![],
        }
    }

    #[test]
    fn no_results_no_findings() {
        let f = healthy();
        for check in [p2p, p2p_bandwidth, nccl] {
            assert!(run(check, &f).is_empty());
        }
    }

    #[test]
    fn corrupted_and_hung_pairs_fail_and_are_named() {
        let mut f = healthy();
        f.probes = vec![result(
            ProbeKind::P2p,
            ProbeOutcome::Failed {
                reason: "1 of 2 copies".into(),
                code: None,
                measurements: vec![],
                notes: vec![],
            },
            vec![
                pair(0, 1, PeerStatus::Verified, Some(40.0)),
                pair(1, 0, PeerStatus::Corrupted, Some(40.0)),
            ],
        )];
        let out = run(p2p, &f);
        assert_eq!(out[0].severity, Severity::Fail);
        // CUDA device 1 has no NVML index in this fixture: named by its ordinal.
        assert!(
            out[0].summary.contains("CUDA device 1 → GPU 0"),
            "{}",
            out[0].summary
        );
        f.probes = vec![result(
            ProbeKind::P2p,
            ProbeOutcome::TimedOut {
                after_ms: 3000,
                stderr_tail: String::new(),
                limit_ms: None,
            },
            vec![pair(0, 1, PeerStatus::Hung, None)],
        )];
        let out = run(p2p, &f);
        assert_eq!(out[0].severity, Severity::Fail);
        assert!(out[0].summary.contains("hung"), "{}", out[0].summary);
        // A copy that did not verify has no bandwidth to judge.
        assert!(run(p2p_bandwidth, &f).is_empty());
    }

    #[test]
    fn bandwidth_with_an_unknown_link_is_information_not_a_pass() {
        let mut f = healthy();
        f.probes = vec![result(
            ProbeKind::P2p,
            passed("ok", vec![]),
            vec![
                pair(0, 1, PeerStatus::Verified, Some(12.0)),
                pair(1, 0, PeerStatus::Verified, Some(13.0)),
            ],
        )];
        let out = run(p2p_bandwidth, &f);
        assert_eq!(out[0].severity, Severity::Info, "{:?}", out[0]);
        assert!(out[0].summary.contains("not known"));
    }

    #[test]
    fn nccl_outcomes_have_their_severity() {
        let mut f = healthy();
        let cases = [
            (
                passed(
                    "NCCL 2.20.5: all-reduce correct",
                    vec![Measurement::new("busbw_gbps", 5.0, "GB/s")],
                ),
                Severity::Pass,
            ),
            (
                ProbeOutcome::Skipped {
                    why: "no libnccl.so.2 found; looked in /x".into(),
                },
                Severity::Info,
            ),
            (
                ProbeOutcome::TimedOut {
                    after_ms: 60_000,
                    stderr_tail: String::new(),
                    limit_ms: None,
                },
                Severity::Fail,
            ),
        ];
        for (outcome, severity) in cases {
            f.probes = vec![result(ProbeKind::Nccl, outcome.clone(), vec![])];
            let out = run(nccl, &f);
            assert_eq!(out.len(), 1);
            assert_eq!(out[0].severity, severity, "{outcome:?}");
            assert_eq!(out[0].id, "probe.nccl");
        }
    }
}
