//! How each pair of GPUs is connected, as NVML answers it: the closest common ancestor
//! on the PCIe tree (`nvmlDeviceGetTopologyCommonAncestor`) and whether NVLink joins
//! them (`nvmlDeviceGetP2PStatus` with `NVML_P2P_CAPS_INDEX_NVLINK`). The probes between
//! GPUs judge a pair's measured bandwidth against this link.

use nvml_wrapper::enum_wrappers::device::{P2pCapabilitiesIndex, P2pStatus, TopologyLevel};
use nvml_wrapper::Nvml;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::driver_codes::nvml_fact;
use crate::fact::Fact;

/// Pairs are described up to this many GPUs (every machine so far has at most 16).
const MAX_GPUS: u32 = 64;

/// One unordered pair of GPUs, by NVML index (`a` < `b`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct GpuPairLink {
    pub a: u32,
    pub b: u32,
    /// "internal" (one board), "single" (one PCIe switch), "multiple" (several switches),
    /// "hostbridge", "node" (one NUMA node, several host bridges), "system" (across
    /// sockets): what nvidia-smi topo -m prints as PIX, PXB, PHB, NODE, SYS.
    pub common_ancestor: Fact<String>,
    /// NVML's P2P status over NVLink: true when NVLink joins the two GPUs.
    pub nvlink: Fact<bool>,
}

fn level_name(level: TopologyLevel) -> &'static str {
    match level {
        TopologyLevel::Internal => "internal",
        TopologyLevel::Single => "single",
        TopologyLevel::Multiple => "multiple",
        TopologyLevel::HostBridge => "hostbridge",
        TopologyLevel::Node => "node",
        TopologyLevel::System => "system",
    }
}

/// Every pair of the first `count` GPUs.
pub fn gather(nvml: &Nvml, count: u32) -> Fact<Vec<GpuPairLink>> {
    if count > MAX_GPUS {
        return Fact::unsupported(format!("more than {MAX_GPUS} GPUs"));
    }
    let mut out = Vec::new();
    for a in 0..count {
        for b in a + 1..count {
            let (da, db) = match (nvml.device_by_index(a), nvml.device_by_index(b)) {
                (Ok(x), Ok(y)) => (x, y),
                _ => continue,
            };
            let common_ancestor = nvml_fact(
                "nvmlDeviceGetTopologyCommonAncestor",
                da.topology_common_ancestor(db),
            )
            .map(|l| level_name(l).to_string());
            let Ok(db) = nvml.device_by_index(b) else {
                continue;
            };
            let nvlink = nvml_fact(
                "nvmlDeviceGetP2PStatus",
                da.p2p_status(&db, P2pCapabilitiesIndex::NvLink),
            )
            .map(|s| s == P2pStatus::Ok);
            out.push(GpuPairLink {
                a,
                b,
                common_ancestor,
                nvlink,
            });
        }
    }
    Fact::known(out)
}

pub fn pairs_not_in_report() -> Fact<Vec<GpuPairLink>> {
    Fact::missing("not in this report (saved by an older gpu-doctor)")
}
