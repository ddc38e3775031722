//! NVIDIA devices on the PCI bus, read from sysfs without any driver.
//!
//! This is the one view of the GPUs that needs no NVIDIA software at all, so it is what
//! tells "no GPU here" from "a GPU the driver does not see" (unbound, nouveau, vfio-pci).

use std::path::Path;

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

pub const NVIDIA_VENDOR_ID: &str = "10de";
const PCI_ROOT: &str = "/sys/bus/pci";
const PCI_DEVICES: &str = "/sys/bus/pci/devices";

/// NVIDIA display/3D-class devices on the PCI bus.
///
/// A hidden /sys/bus/pci (some containers) is Missing, so that it is never mistaken
/// for "no NVIDIA device", which is Known(empty).
pub fn gather(host: &Host) -> Fact<Vec<PciGpu>> {
    if !host.exists(PCI_ROOT) {
        return Fact::missing(format!(
            "no {PCI_ROOT}: sysfs is not mounted or the PCI bus is hidden (common in containers)"
        ));
    }
    if !host.exists(PCI_DEVICES) {
        return Fact::missing(format!("no {PCI_DEVICES}"));
    }
    let gpus = host
        .read_dir(PCI_DEVICES)
        .iter()
        .filter_map(|dev| read_gpu(host, dev))
        .collect();
    Fact::known(gpus)
}

/// One sysfs device directory as a GPU, or `None` when it is not an NVIDIA display
/// function (audio, USB-C and bridge functions of the same card are skipped).
fn read_gpu(host: &Host, dev: &Path) -> Option<PciGpu> {
    let attr = |name: &str| -> Option<String> {
        host.read_string(dev.join(name))
            .ok()
            .and_then(|t| parse_hex_id(&t))
    };
    if attr("vendor")? != NVIDIA_VENDOR_ID {
        return None;
    }
    let class = attr("class")?;
    if !is_display_class(&class) {
        return None;
    }
    Some(PciGpu {
        bus_id: dev.file_name()?.to_string_lossy().into_owned(),
        vendor_id: NVIDIA_VENDOR_ID.to_string(),
        device_id: attr("device").unwrap_or_default(),
        subsystem_vendor_id: attr("subsystem_vendor"),
        subsystem_device_id: attr("subsystem_device"),
        class,
        driver: bound_driver(host, dev),
    })
}

/// The `driver` link points at `/sys/bus/pci/drivers/<name>`; only its last component
/// matters, so the link is read, not followed.
fn bound_driver(host: &Host, dev: &Path) -> Option<String> {
    let target = std::fs::read_link(host.path(dev.join("driver"))).ok()?;
    Some(target.file_name()?.to_string_lossy().into_owned())
}

/// sysfs writes ids as `0x10de\n`; returns "10de", lower case, or `None` for anything
/// that is not a hex number.
pub fn parse_hex_id(text: &str) -> Option<String> {
    let t = text.trim();
    let digits = t
        .strip_prefix("0x")
        .or_else(|| t.strip_prefix("0X"))
        .unwrap_or(t);
    (!digits.is_empty() && digits.len() <= 8 && digits.chars().all(|c| c.is_ascii_hexdigit()))
        .then(|| digits.to_ascii_lowercase())
}

/// Base class 0x03 (display): VGA 0300, XGA 0301, 3D 0302 (data-centre GPUs), other 0380.
pub fn is_display_class(class: &str) -> bool {
    class.len() == 6 && class.starts_with("03")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn hex_ids() {
        for (text, want) in [
            ("0x10de\n", Some("10de")),
            ("0x030200\n", Some("030200")),
            ("0X2330", Some("2330")),
            ("10DE", Some("10de")),
            ("", None),
            ("0x", None),
            ("0xzz", None),
            ("\u{fffd}\u{0}", None),
            ("0x123456789", None),
        ] {
            assert_eq!(parse_hex_id(text).as_deref(), want, "{text:?}");
        }
    }

    #[test]
    fn display_classes() {
        for (class, want) in [
            ("030000", true),
            ("030200", true),
            ("038000", true),
            ("040300", false), // HD audio function of a GeForce
            ("0c0330", false), // USB controller (Turing VirtualLink)
            ("0c8000", false), // USB Type-C UCSI
            ("068000", false), // NVSwitch bridge
            ("03", false),
        ] {
            assert_eq!(is_display_class(class), want, "{class}");
        }
    }

    struct Dev<'a> {
        bus: &'a str,
        vendor: &'a str,
        device: &'a str,
        class: &'a str,
        subsystem: Option<(&'a str, &'a str)>,
        driver: Option<&'a str>,
    }

    fn add(root: &Path, d: &Dev) {
        // Real sysfs: devices/<bus> is a link into /sys/devices/pci0000:00/...
        let real = root.join("sys/devices/pci0000:00").join(d.bus);
        std::fs::create_dir_all(&real).unwrap();
        std::fs::write(real.join("vendor"), format!("{}\n", d.vendor)).unwrap();
        std::fs::write(real.join("device"), format!("{}\n", d.device)).unwrap();
        std::fs::write(real.join("class"), format!("{}\n", d.class)).unwrap();
        if let Some((sv, sd)) = d.subsystem {
            std::fs::write(real.join("subsystem_vendor"), format!("{sv}\n")).unwrap();
            std::fs::write(real.join("subsystem_device"), format!("{sd}\n")).unwrap();
        }
        if let Some(drv) = d.driver {
            let target = PathBuf::from("../../../bus/pci/drivers").join(drv);
            std::os::unix::fs::symlink(target, real.join("driver")).unwrap();
        }
        let devices = root.join("sys/bus/pci/devices");
        std::fs::create_dir_all(&devices).unwrap();
        std::os::unix::fs::symlink(
            PathBuf::from("../../../devices/pci0000:00").join(d.bus),
            devices.join(d.bus),
        )
        .unwrap();
    }

    #[test]
    fn finds_gpus_and_skips_audio_and_other_vendors() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        // RTX 4090 (AD102) and its HDMI audio function, an Intel host bridge,
        // an H100 SXM5 bound to nouveau, an unbound A100 and a vfio-pci passthrough L4.
        let devs = [
            Dev {
                bus: "0000:00:00.0",
                vendor: "0x8086",
                device: "0x9a14",
                class: "0x060000",
                subsystem: None,
                driver: None,
            },
            Dev {
                bus: "0000:01:00.0",
                vendor: "0x10de",
                device: "0x2684",
                class: "0x030000",
                subsystem: Some(("0x1043", "0x889c")),
                driver: Some("nvidia"),
            },
            Dev {
                bus: "0000:01:00.1",
                vendor: "0x10de",
                device: "0x22ba",
                class: "0x040300",
                subsystem: Some(("0x1043", "0x889c")),
                driver: Some("snd_hda_intel"),
            },
            Dev {
                bus: "0000:18:00.0",
                vendor: "0x10de",
                device: "0x2330",
                class: "0x030200",
                subsystem: Some(("0x10de", "0x16c1")),
                driver: Some("nouveau"),
            },
            Dev {
                bus: "0000:3b:00.0",
                vendor: "0x10de",
                device: "0x20b0",
                class: "0x030200",
                subsystem: None,
                driver: None,
            },
            Dev {
                bus: "0000:af:00.0",
                vendor: "0x10de",
                device: "0x27b8",
                class: "0x030200",
                subsystem: Some(("0x10de", "0x16ca")),
                driver: Some("vfio-pci"),
            },
        ];
        for d in &devs {
            add(root, d);
        }
        let gpus = gather(&Host::fixture(root, &[]));
        let gpus = gpus.value().unwrap();
        let summary: Vec<(&str, &str, &str, Option<&str>)> = gpus
            .iter()
            .map(|g| {
                (
                    g.bus_id.as_str(),
                    g.device_id.as_str(),
                    g.class.as_str(),
                    g.driver.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            summary,
            vec![
                ("0000:01:00.0", "2684", "030000", Some("nvidia")),
                ("0000:18:00.0", "2330", "030200", Some("nouveau")),
                ("0000:3b:00.0", "20b0", "030200", None),
                ("0000:af:00.0", "27b8", "030200", Some("vfio-pci")),
            ]
        );
        assert_eq!(gpus[0].subsystem_vendor_id.as_deref(), Some("1043"));
        assert_eq!(gpus[0].subsystem_device_id.as_deref(), Some("889c"));
        assert_eq!(gpus[2].subsystem_vendor_id, None);
        assert!(gpus.iter().all(|g| g.vendor_id == "10de"));
    }

    #[test]
    fn no_nvidia_device_is_known_empty() {
        let dir = tempfile::tempdir().unwrap();
        add(
            dir.path(),
            &Dev {
                bus: "0000:00:02.0",
                vendor: "0x8086",
                device: "0x46a6",
                class: "0x030000",
                subsystem: None,
                driver: Some("i915"),
            },
        );
        assert_eq!(gather(&Host::fixture(dir.path(), &[])), Fact::known(vec![]));
    }

    #[test]
    fn hidden_pci_bus_is_missing() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("sys/class")).unwrap();
        let f = gather(&Host::fixture(dir.path(), &[]));
        assert!(f.reason().unwrap().contains("/sys/bus/pci"), "{f:?}");
        assert!(matches!(f, Fact::Missing { .. }));
    }

    #[test]
    fn garbage_attributes_are_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        add(
            root,
            &Dev {
                bus: "0000:02:00.0",
                vendor: "0x10de",
                device: "garbage",
                class: "0x030200",
                subsystem: None,
                driver: None,
            },
        );
        add(
            root,
            &Dev {
                bus: "0000:03:00.0",
                vendor: "0x10de",
                device: "0x2330",
                class: "\u{fffd}",
                subsystem: None,
                driver: None,
            },
        );
        let gpus = gather(&Host::fixture(root, &[]));
        let gpus = gpus.value().unwrap();
        // An unreadable device id keeps the GPU (it is still an NVIDIA display device);
        // an unreadable class drops it.
        assert_eq!(gpus.len(), 1);
        assert_eq!(gpus[0].device_id, "");
    }
}
