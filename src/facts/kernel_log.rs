//! Xid and SXid lines from the kernel log.
//!
//! The NVIDIA driver logs GPU faults as `NVRM: Xid (PCI:0000:18:00): 79, pid=..., GPU has
//! fallen off the bus.` and NVSwitch faults as `nvidia-nvswitch0: SXid (PCI:0000:05:00.0):
//! 12028, Non-fatal, Link 32 ...`. This module reads the first of `/dev/kmsg`
//! (non-blocking), `journalctl -k -b` and `dmesg` that the user may read, within a time
//! and size limit, and keeps only those events, counted per code and address: a flood of
//! messages costs bounded time and memory. Gathering never judges: `checks::xid` does.

use std::collections::BTreeMap;
use std::io::Read;
use std::time::{Duration, Instant};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::fact::Fact;
use crate::host::Host;

/// The most kernel-log bytes read from one source (the kernel's ring buffer is far smaller).
pub const MAX_LOG_BYTES: u64 = 64 * 1024 * 1024;
/// The longest time spent reading `/dev/kmsg`, and the limit for `journalctl` / `dmesg`.
pub const READ_TIMEOUT: Duration = Duration::from_secs(5);
/// Distinct (code, address) events kept; more are counted in `events_dropped`.
pub const MAX_EVENTS: usize = 512;
/// Addresses kept per code: a flood of one code on many addresses cannot crowd out
/// another code (an Xid 79 after thousands of Xid 13s is still seen).
pub const MAX_ADDRESSES_PER_CODE: usize = 32;
/// A kept log line is clipped to this many characters.
pub const MAX_LINE_CHARS: usize = 300;
/// A line longer than this (no newline yet) is dropped rather than buffered.
const MAX_PENDING_LINE_BYTES: usize = 64 * 1024;

/// What the kernel log said about NVIDIA GPUs and NVSwitches.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct KernelLogFacts {
    /// Where the lines came from: "/dev/kmsg", "journalctl -k -b" or "dmesg".
    pub source: String,
    /// The window read: "since boot" or "the last 7200 s".
    pub window: String,
    /// Lines looked at.
    pub lines: u64,
    /// True when the read stopped at its size or time limit.
    pub truncated: bool,
    /// Xid events, one per (code, GPU address), oldest first.
    pub xids: Vec<XidEvent>,
    /// SXid events (NVSwitch), one per (code, switch address).
    pub sxids: Vec<SxidEvent>,
    /// Distinct events beyond [`MAX_EVENTS`] that were only counted.
    #[serde(default)]
    pub events_dropped: u64,
    /// Sources tried first that could not be read, and why.
    #[serde(default)]
    pub unreadable: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct XidEvent {
    pub code: u32,
    /// The GPU's address as `domain:bus:device` ("0000:18:00"); `None` when the line has none.
    pub pci: Option<String>,
    pub count: u64,
    /// The first and last lines with this code and address (clipped).
    pub first_line: String,
    pub last_line: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SxidEvent {
    pub code: u32,
    /// The NVSwitch's address as `domain:bus:device`.
    pub pci: Option<String>,
    /// The driver marked it "Fatal" (else "Non-fatal").
    pub fatal: bool,
    pub count: u64,
    pub first_line: String,
}

/// The kernel log of facts that come from elsewhere (a report saved by an older
/// gpu-doctor, a pasted collect_env): `Unsupported`, which `gpu.xid` passes over in
/// silence, unlike `Missing` (no source was readable on this machine).
pub fn not_gathered() -> Fact<KernelLogFacts> {
    Fact::unsupported(NOT_GATHERED)
}

const NOT_GATHERED: &str = "the kernel log was not part of these facts";

/// Left out of saved reports, so reports without it read back the same.
#[allow(clippy::trivially_copy_pass_by_ref)]
pub fn is_not_gathered(f: &Fact<KernelLogFacts>) -> bool {
    matches!(f, Fact::Unsupported { why } if why == NOT_GATHERED)
}

/// Reads the kernel log. `since`: only the last `since` (default: since boot). `limit`:
/// the longest this may take (the run's remaining budget).
pub fn gather(host: &Host, since: Option<Duration>, limit: Duration) -> Fact<KernelLogFacts> {
    let limit = limit.min(READ_TIMEOUT);
    let window = since.map_or_else(
        || "since boot".to_string(),
        |s| format!("the last {} s", s.as_secs()),
    );
    let uptime = read_uptime(host);
    // /dev/kmsg and dmesg carry times since boot: the cut-off on that clock.
    let cutoff_s = match (since, uptime) {
        (Some(s), Some(up)) => Some(up - s.as_secs_f64()),
        _ => None,
    };
    // Without /proc/uptime the boot-relative times of /dev/kmsg and dmesg cannot be cut.
    let boot_window = if since.is_some() && cutoff_s.is_none() {
        "since boot (--since not applied: /proc/uptime unreadable)".to_string()
    } else {
        window.clone()
    };
    let mut unreadable = Vec::new();
    match read_kmsg(host, cutoff_s, limit) {
        Ok(mut facts) => {
            facts.window = boot_window;
            return Fact::known(facts);
        }
        Err(why) => unreadable.push(format!("/dev/kmsg: {why}")),
    }
    match read_journalctl(host, since, limit) {
        Ok(mut facts) => {
            facts.window = window;
            facts.unreadable = unreadable;
            return Fact::known(facts);
        }
        Err(why) => unreadable.push(format!("journalctl -k -b: {why}")),
    }
    match read_dmesg(host, cutoff_s, limit) {
        Ok(mut facts) => {
            facts.window = boot_window;
            facts.unreadable = unreadable;
            return Fact::known(facts);
        }
        Err(why) => unreadable.push(format!("dmesg: {why}")),
    }
    Fact::missing(unreadable.join("; "))
}

fn read_uptime(host: &Host) -> Option<f64> {
    host.read_string("/proc/uptime")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// `/dev/kmsg`: one record per read, `prio,seq,usec,flags;message`; EAGAIN at the end.
/// A fixture's regular file is read the same way (lines split after reading).
fn read_kmsg(
    host: &Host,
    cutoff_s: Option<f64>,
    limit: Duration,
) -> Result<KernelLogFacts, String> {
    use std::os::unix::fs::OpenOptionsExt;
    let path = host.path("/dev/kmsg");
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits())
        .open(&path)
        .map_err(|e| e.to_string())?;
    let mut scan = Scanner::new("/dev/kmsg", cutoff_s, true);
    let start = Instant::now();
    let mut buf = vec![0u8; 16 * 1024];
    let mut total: u64 = 0;
    loop {
        if start.elapsed() > limit || total > MAX_LOG_BYTES {
            scan.truncated = true;
            break;
        }
        match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                total += n as u64;
                scan.feed(&buf[..n]);
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            // The record was overwritten while we read: the next read returns the next one.
            Err(e) if e.raw_os_error() == Some(nix::errno::Errno::EPIPE as i32) => {}
            Err(e) if total == 0 => return Err(e.to_string()),
            Err(_) => {
                scan.truncated = true;
                break;
            }
        }
    }
    Ok(scan.finish())
}

fn read_journalctl(
    host: &Host,
    since: Option<Duration>,
    limit: Duration,
) -> Result<KernelLogFacts, String> {
    let program = host
        .which("journalctl")
        .ok_or_else(|| "not on PATH".to_string())?;
    let since_arg = since.map(|s| format!("--since=-{}s", s.as_secs().max(1)));
    // Newest first: if the output is clipped, the oldest lines are the ones lost.
    let mut args = vec![
        "-k",
        "-b",
        "-r",
        "--no-pager",
        "-q",
        "-o",
        "short-monotonic",
    ];
    if let Some(a) = &since_arg {
        args.push(a);
    }
    let out = host
        .run(&program, &args, limit)
        .map_err(|e| e.to_string())?;
    if out.timed_out {
        return Err(format!("timed out after {} ms", limit.as_millis()));
    }
    if !out.success() {
        return Err(format!(
            "exit status {}: {}",
            out.status.map_or_else(|| "none".into(), |s| s.to_string()),
            out.stderr_tail().trim()
        ));
    }
    // Without the systemd-journal/adm group journalctl exits 0 but shows only the user's
    // own journal, which holds no kernel messages.
    if out
        .stderr
        .contains("not seeing messages from other users and the system")
        || out
            .stderr
            .contains("No journal files were opened due to insufficient permissions")
    {
        return Err(
            "this user may not read the system journal (needs the systemd-journal or adm group)"
                .into(),
        );
    }
    let mut scan = Scanner::new("journalctl -k -b", None, false);
    scan.truncated = out.stdout.len() >= crate::host::MAX_COMMAND_OUTPUT_BYTES;
    // Oldest first, as the other sources.
    for line in out.stdout.lines().rev() {
        scan.line(line);
    }
    Ok(scan.finish())
}

fn read_dmesg(
    host: &Host,
    cutoff_s: Option<f64>,
    limit: Duration,
) -> Result<KernelLogFacts, String> {
    let program = host
        .which("dmesg")
        .ok_or_else(|| "not on PATH".to_string())?;
    let out = host.run(&program, &[], limit).map_err(|e| e.to_string())?;
    if out.timed_out {
        return Err(format!("timed out after {} ms", limit.as_millis()));
    }
    if !out.success() {
        return Err(format!(
            "exit status {}: {}",
            out.status.map_or_else(|| "none".into(), |s| s.to_string()),
            out.stderr_tail().trim()
        ));
    }
    let mut scan = Scanner::new("dmesg", cutoff_s, false);
    scan.truncated = out.stdout.len() >= crate::host::MAX_COMMAND_OUTPUT_BYTES;
    for line in out.stdout.lines() {
        scan.line(line);
    }
    Ok(scan.finish())
}

/// Turns lines into counted events, keeping O(distinct events) memory.
struct Scanner {
    source: &'static str,
    cutoff_s: Option<f64>,
    kmsg: bool,
    pending: Vec<u8>,
    pending_overflow: bool,
    lines: u64,
    truncated: bool,
    xids: BTreeMap<(u32, Option<String>), XidEvent>,
    xid_order: Vec<(u32, Option<String>)>,
    sxids: BTreeMap<(u32, Option<String>), SxidEvent>,
    sxid_order: Vec<(u32, Option<String>)>,
    dropped: u64,
    /// "NVRM: The NVIDIA GPU 0000:b3:00.0" precedes a "fallen off the bus" line without an address.
    last_gpu_address: Option<String>,
}

impl Scanner {
    fn new(source: &'static str, cutoff_s: Option<f64>, kmsg: bool) -> Self {
        Scanner {
            source,
            cutoff_s,
            kmsg,
            pending: Vec::new(),
            pending_overflow: false,
            lines: 0,
            truncated: false,
            xids: BTreeMap::new(),
            xid_order: Vec::new(),
            sxids: BTreeMap::new(),
            sxid_order: Vec::new(),
            dropped: 0,
            last_gpu_address: None,
        }
    }

    fn feed(&mut self, bytes: &[u8]) {
        for chunk in bytes.split_inclusive(|b| *b == b'\n') {
            let complete = chunk.last() == Some(&b'\n');
            let body = if complete {
                &chunk[..chunk.len() - 1]
            } else {
                chunk
            };
            if self.pending.len() + body.len() > MAX_PENDING_LINE_BYTES {
                self.pending_overflow = true;
            } else {
                self.pending.extend_from_slice(body);
            }
            if complete {
                if !self.pending_overflow {
                    let line = String::from_utf8_lossy(&self.pending).into_owned();
                    self.line(&line);
                }
                self.pending.clear();
                self.pending_overflow = false;
            }
        }
    }

    fn line(&mut self, raw: &str) {
        self.lines += 1;
        let message = if self.kmsg {
            // Continuation lines (" SUBSYSTEM=pci") carry no message.
            if raw.starts_with(' ') {
                return;
            }
            let Some((head, msg)) = raw.split_once(';') else {
                return;
            };
            let usec = head.split(',').nth(2).and_then(|u| u.parse::<f64>().ok());
            if let (Some(cut), Some(us)) = (self.cutoff_s, usec) {
                if us / 1e6 < cut {
                    return;
                }
            }
            msg
        } else {
            if let (Some(cut), Some(t)) = (self.cutoff_s, bracket_time(raw)) {
                if t < cut {
                    return;
                }
            }
            raw
        };
        self.message(message);
    }

    fn message(&mut self, msg: &str) {
        if let Some(ev) = parse_sxid(msg) {
            let key = (ev.0, ev.1.clone());
            let room = self.sxids.len() + self.xids.len() < MAX_EVENTS
                && per_code(&self.sxids, ev.0) < MAX_ADDRESSES_PER_CODE;
            match self.sxids.get_mut(&key) {
                Some(e) => e.count += 1,
                None if room => {
                    self.sxid_order.push(key.clone());
                    self.sxids.insert(
                        key,
                        SxidEvent {
                            code: ev.0,
                            pci: ev.1,
                            fatal: ev.2,
                            count: 1,
                            first_line: clip(msg),
                        },
                    );
                }
                None => self.dropped += 1,
            }
            return;
        }
        if let Some(rest) = msg.split("NVRM: The NVIDIA GPU ").nth(1) {
            self.last_gpu_address = pci_key(rest.split_whitespace().next().unwrap_or(""));
        }
        let xid = parse_xid(msg).or_else(|| {
            (msg.contains("NVRM") && msg.contains("fallen off the bus")).then(|| {
                let addr = find_address(msg).or_else(|| self.last_gpu_address.clone());
                (79, addr)
            })
        });
        let Some((code, pci)) = xid else {
            return;
        };
        let key = (code, pci.clone());
        let room = self.sxids.len() + self.xids.len() < MAX_EVENTS
            && per_code(&self.xids, code) < MAX_ADDRESSES_PER_CODE;
        match self.xids.get_mut(&key) {
            Some(e) => {
                e.count += 1;
                e.last_line = clip(msg);
            }
            None if room => {
                self.xid_order.push(key.clone());
                self.xids.insert(
                    key,
                    XidEvent {
                        code,
                        pci,
                        count: 1,
                        first_line: clip(msg),
                        last_line: clip(msg),
                    },
                );
            }
            None => self.dropped += 1,
        }
    }

    fn finish(mut self) -> KernelLogFacts {
        if !self.pending.is_empty() && !self.pending_overflow {
            let line = String::from_utf8_lossy(&std::mem::take(&mut self.pending)).into_owned();
            self.line(&line);
        }
        let xids = self
            .xid_order
            .iter()
            .filter_map(|k| self.xids.remove(k))
            .collect();
        let sxids = self
            .sxid_order
            .iter()
            .filter_map(|k| self.sxids.remove(k))
            .collect();
        KernelLogFacts {
            source: self.source.to_string(),
            window: String::new(),
            lines: self.lines,
            truncated: self.truncated,
            xids,
            sxids,
            events_dropped: self.dropped,
            unreadable: Vec::new(),
        }
    }
}

/// How many addresses `code` has in `map` (a range of the ordered keys, not a scan).
fn per_code<V>(map: &BTreeMap<(u32, Option<String>), V>, code: u32) -> usize {
    match code.checked_add(1) {
        Some(next) => map.range((code, None)..(next, None)).count(),
        None => map.range((code, None)..).count(),
    }
}

/// `[  269.516977] ...` (dmesg) or `[  269.516977] host kernel: ...` (short-monotonic).
fn bracket_time(line: &str) -> Option<f64> {
    let rest = line.trim_start().strip_prefix('[')?;
    rest.split(']').next()?.trim().parse().ok()
}

/// `Xid (PCI:0000:18:00): 79, pid=...` or the older `Xid (0000:01:00): 3, ...`.
pub fn parse_xid(msg: &str) -> Option<(u32, Option<String>)> {
    let at = msg.find("Xid (")?;
    if at > 0 && msg.as_bytes()[at - 1] == b'S' {
        return None;
    }
    let rest = &msg[at + "Xid (".len()..];
    let (inside, after) = rest.split_once("):")?;
    let code = leading_number(after)?;
    Some((code, pci_key(inside)))
}

/// `SXid (PCI:0000:05:00.0): 12028, Non-fatal, ...` -> (code, address, fatal).
pub fn parse_sxid(msg: &str) -> Option<(u32, Option<String>, bool)> {
    let at = msg.find("SXid (")?;
    let rest = &msg[at + "SXid (".len()..];
    let (inside, after) = rest.split_once("):")?;
    let code = leading_number(after)?;
    let severity = after.split(',').nth(1).unwrap_or("").trim();
    let fatal = severity.eq_ignore_ascii_case("fatal");
    Some((code, pci_key(inside), fatal))
}

fn leading_number(s: &str) -> Option<u32> {
    let s = s.trim_start();
    let digits: String = s.chars().take_while(char::is_ascii_digit).take(6).collect();
    digits.parse().ok()
}

/// The first `dddd:dd:dd` PCI address in a line.
fn find_address(msg: &str) -> Option<String> {
    msg.split(|c: char| c.is_whitespace() || c == ',' || c == '(' || c == ')')
        .find_map(|w| pci_key(w.trim_end_matches(['.', ':'])))
}

/// Normalises a PCI address to `domain:bus:device` in lower case: "PCI:0000:18:00",
/// "0000:18:00.0" and NVML's "00000000:18:00.0" all become "0000:18:00".
pub fn pci_key(s: &str) -> Option<String> {
    let s = s.trim();
    let s = s.strip_prefix("PCI:").unwrap_or(s);
    let s = s.split('.').next().unwrap_or(s);
    let parts: Vec<&str> = s.split(':').collect();
    let [domain, bus, device] = parts.as_slice() else {
        return None;
    };
    let hex = |p: &str, max_len: usize| {
        (!p.is_empty() && p.len() <= max_len && p.chars().all(|c| c.is_ascii_hexdigit()))
            .then(|| u32::from_str_radix(p, 16).ok())
            .flatten()
    };
    let (d, b, v) = (hex(domain, 8)?, hex(bus, 2)?, hex(device, 2)?);
    Some(format!("{d:04x}:{b:02x}:{v:02x}"))
}

fn clip(s: &str) -> String {
    let one: String = s
        .trim()
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(MAX_LINE_CHARS)
        .collect();
    one
}

/// Reads a kernel-log text file as the scanner would (tests and fixtures).
#[cfg(test)]
fn scan_text(text: &str, kmsg: bool, cutoff_s: Option<f64>) -> KernelLogFacts {
    let mut s = Scanner::new("test", cutoff_s, kmsg);
    s.feed(text.as_bytes());
    s.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_line_formats() {
        assert_eq!(
            parse_xid("NVRM: Xid (PCI:0000:18:00): 79, pid=1234, GPU has fallen off the bus."),
            Some((79, Some("0000:18:00".into())))
        );
        assert_eq!(
            parse_xid("NVRM: Xid (0000:01:00): 3, C 00000005 SC 00000007"),
            Some((3, Some("0000:01:00".into())))
        );
        assert_eq!(
            parse_xid(
                "NVRM: Xid (PCI:0000:65:00): 119, pid='N/A', Timeout waiting for RPC from GSP"
            ),
            Some((119, Some("0000:65:00".into())))
        );
        assert_eq!(
            parse_xid("NVRM: Xid (PCI:0000:10:1c): 63, pid=1896, Row Remapper: New row marked for remapping, reset gpu to activate."),
            Some((63, Some("0000:10:1c".into())))
        );
        assert_eq!(
            parse_sxid("nvidia-nvswitch3: SXid (PCI:0000:87:00.0): 12028, Non-fatal, Link 44 egress non-posted PRIV error"),
            Some((12028, Some("0000:87:00".into()), false))
        );
        assert_eq!(
            parse_sxid("nvidia-nvswitch0: SXid (PCI:0000:05:00.0): 24007, Fatal, Link 04 sourcetrack timeout error"),
            Some((24007, Some("0000:05:00".into()), true))
        );
        assert_eq!(
            parse_xid("nvidia-nvswitch0: SXid (PCI:0000:05:00.0): 24007, Fatal"),
            None
        );
        assert_eq!(
            parse_xid("NVRM: loading NVIDIA UNIX x86_64 Kernel Module 550.54.15"),
            None
        );
        assert_eq!(parse_xid("NVRM: Xid (PCI:0000:18:00): , garbage"), None);
        assert_eq!(pci_key("00000000:18:00.0").as_deref(), Some("0000:18:00"));
        assert_eq!(pci_key("PCI:0000:2B:00").as_deref(), Some("0000:2b:00"));
        assert_eq!(pci_key("not:an:address"), None);
    }

    #[test]
    fn kmsg_records_counts_and_the_fallen_off_forms() {
        let text = "\
6,1000,5000000,-;NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  550.54.15\n\
 SUBSYSTEM=pci\n\
4,1001,7000000,-;NVRM: Xid (PCI:0000:18:00): 79, pid=1234, GPU has fallen off the bus.\n\
4,1002,7000100,-;NVRM: GPU 0000:18:00.0: GPU has fallen off the bus.\n\
4,1003,8000000,-;NVRM: Xid (PCI:0000:3b:00): 31, pid=77, name=python, Ch 00000008, intr 00000000. MMU Fault\n\
4,1004,9000000,-;NVRM: Xid (PCI:0000:3b:00): 31, pid=78, name=python, second\n\
3,1005,9500000,-;NVRM: The NVIDIA GPU 0000:b3:00.0\n\
3,1006,9500001,-;NVRM: (PCI ID: 10de:26b5) installed in this system has\n\
3,1007,9500002,-;NVRM: fallen off the bus and is not responding to commands.\n";
        let f = scan_text(text, true, None);
        let got: Vec<(u32, Option<&str>, u64)> = f
            .xids
            .iter()
            .map(|x| (x.code, x.pci.as_deref(), x.count))
            .collect();
        assert_eq!(
            got,
            vec![
                (79, Some("0000:18:00"), 2),
                (31, Some("0000:3b:00"), 2),
                (79, Some("0000:b3:00"), 1)
            ]
        );
        assert!(f.xids[1].last_line.contains("second"));
        // Only the last 2 s (uptime 10 s): the early 79 and 31 are outside.
        let recent = scan_text(text, true, Some(8.5));
        assert_eq!(recent.xids.len(), 2, "{recent:#?}");
    }

    #[test]
    fn a_flood_is_counted_not_kept() {
        let mut text = String::new();
        for i in 0..20_000u32 {
            text.push_str(&format!(
                "4,{i},{i}000,-;NVRM: Xid (PCI:0000:{:02x}:00): {}, pid={i}\n",
                i % 300 / 2,
                i % 7
            ));
        }
        let f = scan_text(&text, true, None);
        assert!(f.xids.len() <= MAX_EVENTS);
        assert!(f.events_dropped > 0);
        assert_eq!(f.lines, 20_000);
        let total: u64 = f.xids.iter().map(|x| x.count).sum::<u64>() + f.events_dropped;
        assert_eq!(total, 20_000);
        // Thousands of addresses for one code do not hide another code.
        let mut text = String::new();
        for i in 0..5_000u32 {
            text.push_str(&format!(
                "4,{i},1,-;NVRM: Xid (PCI:{:04x}:{:02x}:00): 13, pid={i}\n",
                i / 256,
                i % 256
            ));
        }
        text.push_str(
            "4,9,1,-;NVRM: Xid (PCI:0000:18:00): 79, pid=1, GPU has fallen off the bus.\n",
        );
        let f = scan_text(&text, true, None);
        assert!(f.xids.iter().any(|x| x.code == 79));
        assert!(f.xids.iter().filter(|x| x.code == 13).count() <= MAX_ADDRESSES_PER_CODE);
    }

    #[test]
    fn dmesg_times_and_overlong_lines() {
        let text = format!(
            "[  10.000000] NVRM: Xid (PCI:0000:18:00): 94, pid=1, Contained\n{}\n[ 500.5] NVRM: Xid (PCI:0000:18:00): 95, pid=2, Uncontained\n",
            "x".repeat(200_000)
        );
        let mut s = Scanner::new("dmesg", Some(100.0), false);
        s.feed(text.as_bytes());
        let f = s.finish();
        assert_eq!(f.xids.len(), 1);
        assert_eq!(f.xids[0].code, 95);
        assert!(f.xids[0].first_line.chars().count() <= MAX_LINE_CHARS);
    }
}
