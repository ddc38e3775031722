//! Derived questions the checks ask of the facts ("is there an NVIDIA GPU at all?",
//! "which version does the loader's libcuda.so.1 have?"), answered once so that every
//! check agrees on them.

use crate::facts::driver_api::{CudaFacts, NvmlDevice, NvmlFacts};
use crate::facts::Facts;

pub fn nvml(facts: &Facts) -> Option<&NvmlFacts> {
    facts.driver_api.nvml.value()
}

pub fn cuda(facts: &Facts) -> Option<&CudaFacts> {
    facts.driver_api.cuda.value()
}

/// NVML's devices when NVML initialised and enumerated them.
pub fn nvml_devices(facts: &Facts) -> &[NvmlDevice] {
    nvml(facts)
        .filter(|n| n.init_ok())
        .and_then(|n| n.devices.value())
        .map_or(&[], Vec::as_slice)
}

/// NVIDIA display/3D functions on the PCI bus; `None` when the bus could not be read.
pub fn pci_gpu_count(facts: &Facts) -> Option<usize> {
    facts.pci_gpus.value().map(Vec::len)
}

/// `/dev/nvidiaN` nodes present.
pub fn gpu_device_nodes(facts: &Facts) -> usize {
    facts.kernel_module.device_nodes.value().map_or(0, |nodes| {
        nodes.iter().filter(|n| is_gpu_node(&n.path)).count()
    })
}

pub fn is_gpu_node(path: &str) -> bool {
    path.strip_prefix("/dev/nvidia")
        .is_some_and(|rest| !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit()))
}

/// How many NVIDIA GPUs any source can see (PCI, NVML, CUDA, device nodes). CUDA counts
/// for integrated GPUs (Jetson), which are neither on the PCI bus nor in NVML.
pub fn gpus_seen(facts: &Facts) -> usize {
    let cuda = cuda(facts)
        .filter(|c| c.init_ok())
        .and_then(|c| c.device_count.value())
        .map_or(0, |n| usize::try_from(*n).unwrap_or(usize::MAX));
    pci_gpu_count(facts)
        .unwrap_or(0)
        .max(nvml_devices(facts).len())
        .max(gpu_device_nodes(facts))
        .max(cuda)
}

pub fn has_gpu(facts: &Facts) -> bool {
    gpus_seen(facts) > 0
}

pub fn module_loaded(facts: &Facts) -> bool {
    facts.kernel_module.version.is_known() || facts.kernel_module.is_loaded("nvidia")
}

/// Driver library files outside cuda-compat folders.
pub fn user_space_present(facts: &Facts) -> bool {
    facts.driver_libs.files.iter().any(|f| !f.compat)
        || facts.driver_libs.nvml_soname.is_some()
        || facts.driver_libs.cuda_soname.is_some()
}

pub fn in_container(facts: &Facts) -> Option<&str> {
    facts.system.container.value().and_then(|c| c.as_deref())
}

/// Version of the file a soname path resolves to, from the gathered file list or the
/// file name itself ("…/libcuda.so.550.54.15").
pub fn soname_version(facts: &Facts, soname_path: Option<&String>) -> Option<String> {
    let path = soname_path?;
    facts
        .driver_libs
        .files
        .iter()
        .find(|f| &f.path == path)
        .map(|f| f.version.clone())
        .or_else(|| version_from_file_name(path))
}

/// "libcuda.so.550.54.15" -> "550.54.15"; `None` for "libcuda.so.1".
pub fn version_from_file_name(path: &str) -> Option<String> {
    let name = path.rsplit('/').next()?;
    let (_, version) = name.split_once(".so.")?;
    (version.contains('.') && version.chars().all(|c| c.is_ascii_digit() || c == '.'))
        .then(|| version.to_string())
}

/// True when the libcuda the loader resolves sits in a cuda-compat folder.
pub fn cuda_soname_is_compat(facts: &Facts) -> bool {
    let Some(path) = &facts.driver_libs.cuda_soname else {
        return false;
    };
    facts
        .driver_libs
        .files
        .iter()
        .any(|f| &f.path == path && f.compat)
        || path.contains("/compat/")
}

/// GPUs CUDA can use: cuDeviceGetCount when cuInit worked, 0 when it failed, NVML's count
/// when the CUDA driver API was not reached at all.
pub fn usable_gpus(facts: &Facts) -> u32 {
    match cuda(facts) {
        Some(c) if c.init_ok() => c.device_count.value().copied().unwrap_or(0),
        Some(_) => 0,
        None => u32::try_from(nvml_devices(facts).len()).unwrap_or(u32::MAX),
    }
}

/// The variable's value if set (including set to "").
pub fn env<'a>(facts: &'a Facts, name: &str) -> Option<&'a str> {
    facts.env.get(name).map(String::as_str)
}

/// "distro" commands are picked by os-release ID and ID_LIKE.
pub fn os_family(facts: &Facts) -> OsFamily {
    match facts.system.os_id.value().map(String::as_str) {
        Some("ubuntu" | "pop" | "linuxmint" | "elementary" | "zorin") => OsFamily::Ubuntu,
        Some("debian" | "raspbian") => OsFamily::Debian,
        Some("fedora") => OsFamily::Fedora,
        Some("rhel" | "rocky" | "almalinux" | "centos" | "ol" | "amzn") => OsFamily::Rhel,
        Some("sles" | "opensuse-leap" | "opensuse-tumbleweed" | "suse") => OsFamily::Suse,
        Some("arch" | "manjaro" | "endeavouros") => OsFamily::Arch,
        _ => OsFamily::Other,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OsFamily {
    Ubuntu,
    Debian,
    Fedora,
    Rhel,
    Suse,
    Arch,
    Other,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_name_versions() {
        assert_eq!(
            version_from_file_name("/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15").as_deref(),
            Some("550.54.15")
        );
        assert_eq!(version_from_file_name("/usr/lib/libcuda.so.1"), None);
        assert_eq!(version_from_file_name("/usr/lib/libcuda.so"), None);
        assert_eq!(version_from_file_name("libcuda.so.abc.1"), None);
    }

    #[test]
    fn gpu_nodes() {
        assert!(is_gpu_node("/dev/nvidia0"));
        assert!(is_gpu_node("/dev/nvidia15"));
        assert!(!is_gpu_node("/dev/nvidiactl"));
        assert!(!is_gpu_node("/dev/nvidia-uvm"));
        assert!(!is_gpu_node("/dev/nvidia"));
    }
}

/// The driver's version: the kernel module's, else NVML's, else the user-space library's.
pub fn driver_version(facts: &Facts) -> Option<crate::version::DottedVersion> {
    let from_module = facts.kernel_module.version.value().cloned();
    let from_nvml = nvml(facts).and_then(|n| n.driver_version.value().cloned());
    let from_files = soname_version(facts, facts.driver_libs.nvml_soname.as_ref());
    from_module
        .or(from_nvml)
        .or(from_files)
        .and_then(|v| crate::version::DottedVersion::parse(&v))
}

/// One GPU with a known compute capability, however it was learnt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GpuCc {
    /// "GPU 0 NVIDIA H100 80GB HBM3" or "GPU 0000:01:00.0 (10de:2684)".
    pub label: String,
    pub index: Option<u32>,
    pub pci_bus_id: Option<String>,
    pub major: u32,
    pub minor: u32,
    /// Where the compute capability came from: "NVML" or "matrix".
    pub via: &'static str,
}

impl GpuCc {
    pub fn cc(&self) -> String {
        format!("{}.{}", self.major, self.minor)
    }

    pub fn sm(&self) -> String {
        format!("sm_{}{}", self.major, self.minor)
    }

    pub fn scope(&self) -> crate::finding::Scope {
        crate::finding::Scope::Gpu {
            index: self.index,
            pci_bus_id: self.pci_bus_id.clone(),
        }
    }
}

pub use crate::arch_list::parse_cc; // moved: src/arch_list.rs

/// Every GPU's compute capability: NVML's when the driver reports it, else the matrix's
/// entry for the NVML name, else the matrix's entry for the PCI device id (a GPU the
/// driver cannot drive still has one).
pub fn gpu_ccs(facts: &Facts, matrix: &crate::matrix::Matrix) -> Vec<GpuCc> {
    let devices = nvml_devices(facts);
    if !devices.is_empty() {
        return devices
            .iter()
            .filter_map(|d| {
                let name = d.name.value().cloned().unwrap_or_default();
                let (cc, via) = match d.compute_capability.value().and_then(|c| parse_cc(c)) {
                    Some(cc) => (cc, "NVML"),
                    None => (parse_cc(&matrix.gpu_by_name(&name)?.cc)?, "matrix"),
                };
                Some(GpuCc {
                    label: format!("GPU {} {name}", d.index),
                    index: Some(d.index),
                    pci_bus_id: d.pci_bus_id.value().cloned(),
                    major: cc.0,
                    minor: cc.1,
                    via,
                })
            })
            .collect();
    }
    facts
        .pci_gpus
        .value()
        .map(|gpus| {
            gpus.iter()
                .filter_map(|g| {
                    let product = matrix.gpu_by_pci_id(&g.device_id)?;
                    let cc = parse_cc(&product.cc)?;
                    Some(GpuCc {
                        label: format!("{} ({}, 10de:{})", product.name, g.bus_id, g.device_id),
                        index: None,
                        pci_bus_id: Some(g.bus_id.clone()),
                        major: cc.0,
                        minor: cc.1,
                        via: "matrix",
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The maximum PCIe generation and width of a GPU's link, by NVML index.
pub fn pcie_max_link(facts: &Facts, nvml_index: Option<u32>) -> Option<(u32, u32)> {
    let index = nvml_index?;
    let link = nvml_devices(facts)
        .iter()
        .find(|d| d.index == index)?
        .pcie_link
        .value()?;
    (link.max_gen > 0 && link.max_width > 0).then_some((link.max_gen, link.max_width))
}

/// CUDA's devices, when CUDA enumerated them.
pub fn cuda_devices(facts: &Facts) -> &[crate::facts::driver_api::CudaDevice] {
    cuda(facts)
        .and_then(|c| c.devices.value())
        .map_or(&[], Vec::as_slice)
}
