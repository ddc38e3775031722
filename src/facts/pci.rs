//! NVIDIA devices on the PCI bus, read from sysfs without any driver.
//! OWNER: helper "system" (stub until filled in).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::fact::Fact;
use crate::host::Host;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PciGpu {
    /// Bus id as sysfs names it, e.g. "0000:01:00.0".
    pub bus_id: String,
    /// Vendor id, always "10de" here.
    pub vendor_id: String,
    /// Device id, e.g. "2330" (H100 SXM5).
    pub device_id: String,
    pub subsystem_vendor_id: Option<String>,
    pub subsystem_device_id: Option<String>,
    /// PCI class, e.g. "030000" (VGA) or "030200" (3D controller).
    pub class: String,
    /// Kernel driver bound to it ("nvidia", "nouveau", "vfio-pci"), if any.
    pub driver: Option<String>,
}

/// NVIDIA display/3D-class devices on the PCI bus.
pub fn gather(_host: &Host) -> Fact<Vec<PciGpu>> {
    Fact::missing("not gathered")
}
