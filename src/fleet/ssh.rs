//! Running `gpu-doctor --json` on one host through the system `ssh` (OpenSSH), with
//! `std::process::Command` and never a local shell: the user's ssh_config, keys, agent
//! and jump hosts all apply, and gpu-doctor adds only what a batch run needs.
//!
//! Each run is bounded: a connect timeout, a wall-clock limit after which ssh's whole
//! process group (jump-host children included) is killed, and a cap on the bytes read
//! from stdout and stderr.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::classify::RawOutcome;
use super::inventory::Target;

/// How to reach hosts and what to run there.
#[derive(Debug, Clone)]
pub struct SshOptions {
    /// The ssh program (`GPU_DOCTOR_SSH`, default `ssh` on PATH).
    pub program: PathBuf,
    /// `ssh -F FILE`.
    pub config: Option<PathBuf>,
    /// Extra `-o` options, passed as they are.
    pub options: Vec<String>,
    pub connect_timeout: Duration,
    /// The wall-clock limit for one host, connection included.
    pub timeout: Duration,
    /// The remote command (a shell command line of the operator's), `gpu-doctor` by default.
    pub remote_cmd: String,
    /// Arguments after `--json`, quoted for the remote shell.
    pub remote_args: Vec<String>,
    /// Bytes of stdout read before the run is stopped as `bad_output`.
    pub max_output_bytes: u64,
    /// A private folder for OpenSSH connection sharing (ControlMaster sockets), used when
    /// a host may get a second connection (`--push`).
    pub control_dir: Option<PathBuf>,
    /// The ssh children under way, so that an interrupted run can end them.
    pub running: Running,
}

/// The process groups of the ssh children under way; once [`Running::kill_all`] ran,
/// a child started later is killed at once.
#[derive(Debug, Clone, Default)]
pub struct Running(std::sync::Arc<std::sync::Mutex<RunningSet>>);

#[derive(Debug, Default)]
pub struct RunningSet {
    stopped: bool,
    pids: std::collections::HashSet<u32>,
}

impl Running {
    fn with<T>(&self, f: impl FnOnce(&mut RunningSet) -> T) -> T {
        let mut set = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        f(&mut set)
    }

    fn add(&self, pid: u32) {
        self.with(|s| {
            if s.stopped {
                crate::host::kill_group(pid);
            } else {
                s.pids.insert(pid);
            }
        });
    }

    fn remove(&self, pid: u32) {
        self.with(|s| s.pids.remove(&pid));
    }

    /// Kills every ssh child still running (and its jump-host children), and any started
    /// later: for an interrupted run, so that no ssh outlives gpu-doctor.
    pub fn kill_all(&self) {
        self.with(|s| {
            s.stopped = true;
            for pid in s.pids.drain() {
                crate::host::kill_group(pid);
            }
        });
    }
}

/// How long a shared connection outlives its last use.
pub const CONTROL_PERSIST_SECS: u32 = 5;

/// The stderr bytes kept (the end: ssh's own error comes last).
pub const STDERR_TAIL_BYTES: usize = 4096;

/// What to run on the host.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The installed gpu-doctor (`--remote-cmd`).
    Installed,
    /// Copy the local binary (on ssh's stdin) to a private temporary folder, run it,
    /// remove it.
    Push,
}

/// The POSIX shell script that receives the pushed binary on stdin, runs it and removes it.
/// Wrapped in `sh -c` so the remote login shell only has to parse one quoted word.
fn push_script(args: &str) -> String {
    let script = format!(
        "umask 077; d=$(mktemp -d \"${{TMPDIR:-/tmp}}/gpu-doctor.XXXXXXXX\") || exit 127; \
         trap 'rm -rf \"$d\"' EXIT; trap 'exit 129' HUP INT TERM PIPE; \
         cat > \"$d/gpu-doctor\" && chmod 700 \"$d/gpu-doctor\" || exit 126; \
         \"$d/gpu-doctor\" --json{args}"
    );
    format!("sh -c {}", shell_quote(&script))
}

/// One word for a POSIX shell: single-quoted, with `'` written as `'\''`.
pub fn shell_quote(s: &str) -> String {
    // A leading `=` is zsh's `=cmd` expansion (the path of cmd): quoted too.
    if !s.is_empty()
        && !s.starts_with('=')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,@%+".contains(c))
    {
        return s.to_string();
    }
    format!("'{}'", s.replace('\'', r"'\''"))
}

impl SshOptions {
    /// The remote command line ssh hands to the remote shell.
    pub fn remote_command(&self, mode: Mode) -> String {
        let args: String = self
            .remote_args
            .iter()
            .map(|a| format!(" {}", shell_quote(a)))
            .collect();
        match mode {
            Mode::Installed => format!("{} --json{args}", self.remote_cmd),
            Mode::Push => push_script(&args),
        }
    }

    /// The full ssh command for one host. The host is validated by the inventory (no
    /// leading `-`), and comes after every option.
    pub fn command(&self, target: &Target, mode: Mode) -> Command {
        let mut cmd = Command::new(&self.program);
        if let Some(cfg) = &self.config {
            cmd.arg("-F").arg(cfg);
        }
        let secs = self.connect_timeout.as_secs().max(1);
        cmd.args([
            "-T",
            "-x",
            "-a",
            "-o",
            "BatchMode=yes",
            "-o",
            &format!("ConnectTimeout={secs}"),
            "-o",
            "ClearAllForwardings=yes",
            "-o",
            "ServerAliveInterval=15",
        ]);
        if let Some(dir) = &self.control_dir {
            let mut path = std::ffi::OsString::from("ControlPath=");
            path.push(dir.join("%C"));
            cmd.args(["-o", "ControlMaster=auto", "-o"])
                .arg(path)
                .arg("-o")
                .arg(format!("ControlPersist={CONTROL_PERSIST_SECS}"));
        }
        for o in &self.options {
            cmd.arg("-o").arg(o);
        }
        if let Some(u) = &target.user {
            cmd.arg("-l").arg(u);
        }
        if let Some(p) = target.port {
            cmd.arg("-p").arg(p.to_string());
        }
        cmd.arg(&target.host);
        cmd.arg(self.remote_command(mode));
        cmd
    }
}

/// Runs one ssh child to the end (or the time limit) and collects what it said.
pub fn run_one(opts: &SshOptions, target: &Target, mode: Mode) -> RawOutcome {
    use std::os::unix::process::CommandExt;
    let deadline = Instant::now() + opts.timeout;
    let mut cmd = opts.command(target, mode);
    cmd.stdin(if mode == Mode::Push {
        Stdio::piped()
    } else {
        Stdio::null()
    })
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    // Its own process group: a time-out kills ssh and any ProxyJump/ProxyCommand child.
    .process_group(0);
    // And a death signal: SIGKILL of the fleet leaves no ssh behind.
    crate::host::set_death_signal(&mut cmd);
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return RawOutcome {
                code: None,
                stderr_tail: format!("could not start {}: {e}", opts.program.display()),
                ..RawOutcome::default()
            }
        }
    };
    let pid = child.id();
    opts.running.add(pid);
    if let Some(mut stdin) = child.stdin.take() {
        let _ = std::thread::Builder::new().spawn(move || {
            if let Ok(exe) = std::env::current_exe() {
                if let Ok(mut f) = std::fs::File::open(exe) {
                    let _ = std::io::copy(&mut f, &mut stdin);
                }
            }
            let _ = stdin.flush();
        });
    }
    let (err_tx, err_rx) = mpsc::channel();
    if let Some(stderr) = child.stderr.take() {
        let _ = std::thread::Builder::new().spawn(move || {
            let _ = err_tx.send(read_tail(stderr, STDERR_TAIL_BYTES));
        });
    }
    let (out_tx, out_rx) = mpsc::channel();
    if let Some(stdout) = child.stdout.take() {
        let cap = opts.max_output_bytes;
        let _ = std::thread::Builder::new().spawn(move || {
            let _ = out_tx.send(read_capped(stdout, cap));
        });
    }
    let mut raw = RawOutcome::default();
    let left = deadline.saturating_duration_since(Instant::now());
    match out_rx.recv_timeout(left) {
        Ok((bytes, oversize)) => {
            raw.stdout = bytes;
            raw.oversize = oversize;
            if oversize {
                crate::host::kill_group(pid);
            }
        }
        Err(mpsc::RecvTimeoutError::Timeout) => {
            raw.timed_out = true;
            crate::host::kill_group(pid);
        }
        // No reader (the thread could not start): stop rather than wait blind.
        Err(mpsc::RecvTimeoutError::Disconnected) => crate::host::kill_group(pid),
    }
    // stdout is closed: ssh is ending. Wait for it within what is left of the limit (and
    // a little more after a kill, which ends it at once).
    let left = deadline
        .saturating_duration_since(Instant::now())
        .max(Duration::from_millis(200));
    let status = match wait_timeout::ChildExt::wait_timeout(&mut child, left) {
        Ok(Some(s)) => Some(s),
        Ok(None) => {
            raw.timed_out = true;
            crate::host::kill_group(pid);
            let _ = child.kill();
            child.wait().ok()
        }
        Err(_) => None,
    };
    opts.running.remove(pid);
    if let Some(s) = status {
        use std::os::unix::process::ExitStatusExt;
        raw.code = s.code();
        raw.signal = s.signal();
    }
    // Something outside the group (a ControlPersist master from the user's config) may
    // hold stderr open: wait for it only briefly.
    raw.stderr_tail = err_rx
        .recv_timeout(Duration::from_millis(500))
        .unwrap_or_default();
    raw
}

/// Reads up to `cap` bytes; `true` when there was more.
fn read_capped(r: impl Read, cap: u64) -> (Vec<u8>, bool) {
    let mut buf = Vec::new();
    let mut limited = r.take(cap.saturating_add(1));
    if limited.read_to_end(&mut buf).is_err() {
        return (buf, false);
    }
    if buf.len() as u64 > cap {
        buf.truncate(usize::try_from(cap).unwrap_or(usize::MAX));
        buf.shrink_to_fit();
        return (Vec::new(), true);
    }
    (buf, false)
}

/// Reads everything, keeping the last `keep` bytes.
fn read_tail(mut r: impl Read, keep: usize) -> String {
    let mut tail: Vec<u8> = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        match r.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                tail.extend_from_slice(&chunk[..n]);
                if tail.len() > 2 * keep {
                    let cut = tail.len() - keep;
                    tail.drain(..cut);
                }
            }
        }
    }
    if tail.len() > keep {
        let cut = tail.len() - keep;
        tail.drain(..cut);
    }
    String::from_utf8_lossy(&tail).into_owned()
}

/// A new private (mode 700) folder for ControlMaster sockets, with a short path: a Unix
/// socket path holds at most 107 bytes.
pub fn control_dir() -> Option<PathBuf> {
    use std::os::unix::fs::DirBuilderExt;
    let base = std::env::temp_dir();
    let base = if base.as_os_str().len() > 40 {
        PathBuf::from("/tmp")
    } else {
        base
    };
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let dir = base.join(format!("gpu-doctor-ssh.{}.{nanos:x}", std::process::id()));
    // `create` (not `create_all`) fails on anything already there, a planted link included.
    std::fs::DirBuilder::new()
        .mode(0o700)
        .create(&dir)
        .ok()
        .map(|()| dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts() -> SshOptions {
        SshOptions {
            program: "ssh".into(),
            config: Some("/tmp/cfg".into()),
            options: vec!["StrictHostKeyChecking=yes".into()],
            connect_timeout: Duration::from_secs(5),
            timeout: Duration::from_secs(60),
            remote_cmd: "/opt/gpu doctor/bin".into(),
            remote_args: vec!["--no-probes".into(), "it's; $(rm -rf /)".into()],
            max_output_bytes: 100,
            control_dir: None,
            running: Running::default(),
        }
    }

    #[test]
    fn quoting_for_the_remote_shell() {
        assert_eq!(shell_quote("--deep"), "--deep");
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote("$(id)"), "'$(id)'");
        assert_eq!(shell_quote("=ls"), "'=ls'");
        assert_eq!(shell_quote("a=b"), "a=b");
    }

    #[test]
    fn the_ssh_command_line() {
        let t = Target {
            user: Some("root".into()),
            host: "node01".into(),
            port: Some(2222),
        };
        let cmd = opts().command(&t, Mode::Installed);
        let args: Vec<String> = cmd
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            args,
            [
                "-F",
                "/tmp/cfg",
                "-T",
                "-x",
                "-a",
                "-o",
                "BatchMode=yes",
                "-o",
                "ConnectTimeout=5",
                "-o",
                "ClearAllForwardings=yes",
                "-o",
                "ServerAliveInterval=15",
                "-o",
                "StrictHostKeyChecking=yes",
                "-l",
                "root",
                "-p",
                "2222",
                "node01",
                r"/opt/gpu doctor/bin --json --no-probes 'it'\''s; $(rm -rf /)'",
            ]
        );
    }

    #[test]
    fn the_push_script_is_one_quoted_word() {
        let s = opts().remote_command(Mode::Push);
        assert!(s.starts_with("sh -c '"), "{s}");
        assert!(s.ends_with('\''), "{s}");
        assert!(s.contains("mktemp -d"), "{s}");
        assert!(s.contains("rm -rf"), "{s}");
    }

    #[test]
    fn readers_cap_and_keep_the_tail() {
        let (b, over) = read_capped(&b"0123456789"[..], 10);
        assert_eq!((b.len(), over), (10, false));
        let (b, over) = read_capped(&b"0123456789x"[..], 10);
        assert_eq!((b.len(), over), (0, true));
        let big = vec![b'a'; 100_000];
        let mut with_end = big.clone();
        with_end.extend_from_slice(b"THE END");
        let t = read_tail(&with_end[..], 16);
        assert_eq!(t.len(), 16);
        assert!(t.ends_with("THE END"));
    }
}
