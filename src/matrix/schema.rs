//! The matrix files' types. `deny_unknown_fields` everywhere: a misspelt key in a data
//! file is an error with its line, not a silently ignored value.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

fn yes() -> bool {
    true
}

/// `compat-matrix/matrix.toml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub schema: u32,
    /// The date of the data, e.g. "2026-11-21".
    pub version: String,
    pub description: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ToolkitsFile {
    pub schema: u32,
    pub sources: BTreeMap<String, String>,
    #[serde(default)]
    pub toolkit: Vec<Toolkit>,
    #[serde(default)]
    pub minor_version_compat: Vec<MinorVersionCompat>,
    pub forward_compat: Option<ForwardCompat>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Toolkit {
    /// major.minor.update, e.g. "12.4.1".
    pub version: String,
    pub released: Option<String>,
    pub min_driver_linux: String,
    pub min_driver_windows: Option<String>,
    pub source: String,
    #[serde(default = "yes")]
    pub verified: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MinorVersionCompat {
    pub cuda_major: u32,
    pub min_driver_linux: String,
    pub min_driver_windows: Option<String>,
    #[serde(default)]
    pub limitations: Vec<String>,
    pub source: String,
    #[serde(default = "yes")]
    pub verified: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ForwardCompat {
    pub summary: String,
    /// GPU segments that support the cuda-compat package.
    pub segments: Vec<Segment>,
    #[serde(default)]
    pub notes: Vec<String>,
    pub source: String,
    #[serde(default = "yes")]
    pub verified: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DriversFile {
    pub schema: u32,
    pub sources: BTreeMap<String, String>,
    #[serde(default)]
    pub branch: Vec<DriverBranch>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BranchKind {
    Production,
    NewFeature,
    Lts,
    Legacy,
    Beta,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DriverBranch {
    pub branch: u32,
    /// The CUDA version the branch's driver API supports, e.g. "12.4".
    pub max_cuda: String,
    pub kind: BranchKind,
    pub released: Option<String>,
    pub eol: Option<String>,
    /// Oldest compute capability the branch drives.
    pub min_cc: String,
    /// The branch's first Linux release ("620.70.06"), where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_release: Option<String>,
    #[serde(default)]
    pub notes: Vec<String>,
    pub source: String,
    #[serde(default = "yes")]
    pub verified: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArchsFile {
    pub schema: u32,
    pub sources: BTreeMap<String, String>,
    #[serde(default)]
    pub arch: Vec<Arch>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Arch {
    pub cc: String,
    pub name: String,
    #[serde(default)]
    pub suffixes: Vec<String>,
    pub first_toolkit: String,
    pub last_toolkit: Option<String>,
    pub min_driver_branch: Option<u32>,
    pub last_driver_branch: Option<u32>,
    #[serde(default)]
    pub open_module_required: bool,
    #[serde(default)]
    pub products: String,
    pub source: String,
    #[serde(default = "yes")]
    pub verified: bool,
}

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Segment {
    Geforce,
    GeforceLaptop,
    Workstation,
    WorkstationLaptop,
    Datacenter,
    Jetson,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GpusFile {
    pub schema: u32,
    pub sources: BTreeMap<String, String>,
    #[serde(default)]
    pub gpu: Vec<Gpu>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Gpu {
    pub name: String,
    #[serde(default)]
    pub aliases: Vec<String>,
    #[serde(default)]
    pub pci_ids: Vec<String>,
    pub cc: String,
    pub architecture: String,
    pub segment: Segment,
    pub memory_gib: Option<f64>,
    pub bandwidth_gbs: Option<f64>,
    pub fp32_tflops: Option<f64>,
    pub fp16_tflops: Option<f64>,
    pub bf16_tflops: Option<f64>,
    pub open_module_required: Option<bool>,
    /// NVLink links the product always has wired (`gpu.nvlink_down` fails an inactive one
    /// of them): 18 on H100/H200/B200 SXM, 12 on A100 SXM, 6 on V100 SXM2; 0 on PCIe cards,
    /// whose bridge is optional. Absent: not recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nvlinks: Option<u32>,
    pub source: String,
    #[serde(default = "yes")]
    pub verified: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TorchFile {
    pub schema: u32,
    pub sources: BTreeMap<String, String>,
    #[serde(default)]
    pub release: Vec<TorchRelease>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TorchRelease {
    /// Minor series, e.g. "2.4".
    pub version: String,
    pub patches: Vec<String>,
    pub released: Option<String>,
    #[serde(default)]
    pub python: Vec<String>,
    /// The variant PyPI's Linux x86_64 wheel is.
    pub pypi_default: Option<String>,
    pub source: String,
    #[serde(default = "yes")]
    pub verified: bool,
    #[serde(default)]
    pub variant: Vec<TorchVariant>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TorchVariant {
    /// "cu121".
    pub name: String,
    /// "12.1".
    pub cuda: String,
    pub index_url: String,
    pub cudnn: Option<String>,
    pub nccl: Option<String>,
    /// TORCH_CUDA_ARCH_LIST entries ("8.6", "12.0+PTX").
    #[serde(default)]
    pub arch_linux_x86_64: Vec<String>,
    pub arch_linux_aarch64: Option<Vec<String>>,
    pub arch_windows: Option<Vec<String>>,
    pub source: String,
    #[serde(default = "yes")]
    pub verified: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CudnnFile {
    pub schema: u32,
    pub sources: BTreeMap<String, String>,
    #[serde(default)]
    pub cudnn: Vec<Cudnn>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Cudnn {
    pub version: String,
    pub cuda: Vec<String>,
    pub min_cc: String,
    pub max_cc: Option<String>,
    pub min_driver_linux: Option<String>,
    pub source: String,
    #[serde(default = "yes")]
    pub verified: bool,
}

/// `compat-matrix/xid.toml`: NVIDIA's Xid catalogue, the codes `gpu.xid` acts on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct XidFile {
    pub schema: u32,
    pub sources: BTreeMap<String, String>,
    #[serde(default)]
    pub xid: Vec<XidEntry>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct XidEntry {
    pub code: u32,
    /// What the Xid means, one or two sentences.
    pub meaning: String,
    /// What to do about it.
    pub todo: String,
    /// One of [`XID_ACTIONS`].
    pub action: String,
    /// "gpu" or "application" (the application's own fault: the GPU is not failed for it).
    pub fault: String,
    /// "fail", "warn" or "info": what `gpu.xid` reports when the code is in the kernel log.
    pub severity: String,
    pub source: String,
    /// False where the catalogue row itself could not be read and the entry rests on
    /// NVIDIA's other pages and the driver's own log text.
    #[serde(default = "yes")]
    pub verified: bool,
}

/// The machine-readable actions an Xid entry may name.
pub const XID_ACTIONS: &[&str] = &[
    "none",
    "fix_software",
    "restart_app",
    "reset_gpu",
    "reboot",
    "drain",
    "inspect_hardware",
];

/// `compat-matrix/interconnect.toml`: what the links between GPUs should carry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InterconnectFile {
    pub schema: u32,
    pub sources: BTreeMap<String, String>,
    pub judgement: InterconnectJudgement,
    #[serde(default)]
    pub pcie: Vec<PcieGeneration>,
    #[serde(default)]
    pub nvlink: Vec<NvlinkProduct>,
}

/// The shares of a link's one-direction rate under which the probes report a pair.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InterconnectJudgement {
    pub p2p_fraction: f64,
    pub allreduce_fraction: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PcieGeneration {
    pub generation: u32,
    /// GB/s of one lane, one direction, after line encoding.
    pub lane_gbps: f64,
    pub source: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NvlinkProduct {
    /// The GPU's name as NVML prints it (or an alias of a gpus.toml row).
    pub gpu: String,
    pub generation: u32,
    /// NVLink links per GPU.
    pub links: u32,
    /// The GPU's whole NVLink bandwidth, both directions together (datasheet figure).
    pub total_gbps: f64,
    pub source: String,
    #[serde(default = "yes")]
    pub verified: bool,
}
