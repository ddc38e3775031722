//! `Host`: the one seam between gpu-doctor and the machine.
//!
//! Everything gathering touches goes through here: environment variables, the
//! filesystem (below a root that tests point at a fixture tree), commands run with a
//! time limit, and which driver libraries the driver worker may load. Production uses
//! the machine as it is; tests use `GPU_DOCTOR_ROOT` and `GPU_DOCTOR_DRIVER_LIB_DIR`.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::io::Read;
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use wait_timeout::ChildExt;

/// Hidden: a fixture tree standing in for `/` (tests only).
pub const ROOT_ENV: &str = "GPU_DOCTOR_ROOT";
/// Hidden: the only folder the driver worker loads libnvidia-ml / libcuda from (tests only).
pub const DRIVER_LIB_DIR_ENV: &str = "GPU_DOCTOR_DRIVER_LIB_DIR";

/// Files larger than this are not read whole: nothing gpu-doctor parses as text is this big.
pub const MAX_TEXT_FILE_BYTES: u64 = 4 * 1024 * 1024;
/// How much of a command's stdout/stderr is kept.
pub const MAX_COMMAND_OUTPUT_BYTES: usize = 1024 * 1024;

#[derive(Debug, Clone)]
pub struct Host {
    root: PathBuf,
    env: BTreeMap<String, String>,
    driver_lib_dir: Option<PathBuf>,
    /// Limit for helper commands such as `nvcc --version`.
    pub command_timeout: Duration,
    /// `--budget`: no command runs past this instant (each time limit is cut to it).
    pub deadline: Option<Instant>,
}

/// What a finished (or killed) command left behind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandOutput {
    /// `None` when killed by a signal or by our time limit.
    pub status: Option<i32>,
    pub signal: Option<i32>,
    pub timed_out: bool,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

impl CommandOutput {
    pub fn success(&self) -> bool {
        self.status == Some(0) && !self.timed_out
    }

    /// The last lines of stderr, for evidence in a finding.
    pub fn stderr_tail(&self) -> String {
        tail_lines(&self.stderr, 12)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("could not start {program:?}: {source}")]
    Spawn {
        program: String,
        source: std::io::Error,
    },
    #[error("could not wait for {program:?}: {source}")]
    Wait {
        program: String,
        source: std::io::Error,
    },
}

/// The variable that turns on [`Host::trace_timing`].
pub const TIMINGS_ENV: &str = "GPU_DOCTOR_TIMINGS";

/// True in a process (the driver worker) whose environment asks for timings.
pub fn timings_wanted() -> bool {
    timings_asked(std::env::var(TIMINGS_ENV).ok().as_deref())
}

/// The variable's value turns the trace on unless empty or "0".
fn timings_asked(value: Option<&str>) -> bool {
    value.is_some_and(|v| !v.is_empty() && v != "0")
}

/// One line of the timing trace on stderr.
pub fn print_timing(what: &str, since: Instant) {
    let ms = since.elapsed().as_secs_f64() * 1000.0;
    eprintln!("gpu-doctor timing: {ms:>8.1} ms  {what}");
}

impl Host {
    /// The machine gpu-doctor runs on, with the test seams read from the environment.
    pub fn from_env() -> Host {
        // A value that is not UTF-8 is kept (invalid bytes become U+FFFD), never dropped as
        // if unset: CUDA_VISIBLE_DEVICES=$'\xff' hides GPUs from CUDA, and must be judged.
        let env: BTreeMap<String, String> = std::env::vars_os()
            .filter_map(|(k, v)| Some((k.into_string().ok()?, v.to_string_lossy().into_owned())))
            .collect();
        let root = env
            .get(ROOT_ENV)
            .filter(|r| !r.is_empty())
            .map_or_else(|| PathBuf::from("/"), PathBuf::from);
        let driver_lib_dir = env
            .get(DRIVER_LIB_DIR_ENV)
            .filter(|d| !d.is_empty())
            .map(PathBuf::from);
        Host {
            root,
            env,
            driver_lib_dir,
            command_timeout: Duration::from_secs(10),
            deadline: None,
        }
    }

    /// A host over a fixture tree with exactly these variables (unit tests).
    pub fn fixture(root: impl Into<PathBuf>, env: &[(&str, &str)]) -> Host {
        Host {
            root: root.into(),
            env: env
                .iter()
                .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
                .collect(),
            driver_lib_dir: None,
            command_timeout: Duration::from_secs(10),
            deadline: None,
        }
    }

    /// True when `/` is a fixture tree: the real driver libraries are then never loaded.
    pub fn is_fixture(&self) -> bool {
        self.root != Path::new("/")
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn driver_lib_dir(&self) -> Option<&Path> {
        self.driver_lib_dir.as_deref()
    }

    /// `GPU_DOCTOR_TIMINGS=1`: each gathering step's wall time goes to stderr, so a slow
    /// report on a real machine says which step (driver worker, Python scan…) is slow.
    pub fn trace_timing(&self, what: &str, since: Instant) {
        if self.timings_on() {
            print_timing(what, since);
        }
    }

    /// Whether this host's environment asks for the timing trace.
    pub fn timings_on(&self) -> bool {
        timings_asked(self.var(TIMINGS_ENV))
    }

    /// An environment variable; `None` when unset (a non-UTF-8 value has U+FFFD where its
    /// invalid bytes were).
    pub fn var(&self, name: &str) -> Option<&str> {
        self.env.get(name).map(String::as_str)
    }

    /// The environment as the host sees it (for passing to child processes).
    pub fn vars(&self) -> &BTreeMap<String, String> {
        &self.env
    }

    /// Maps an absolute machine path into the root (`/proc/x` -> `<root>/proc/x`).
    /// `..` cannot climb out of the root.
    pub fn path(&self, machine_path: impl AsRef<Path>) -> PathBuf {
        let mut out = self.root.clone();
        for comp in machine_path.as_ref().components() {
            match comp {
                Component::Normal(c) => out.push(c),
                Component::ParentDir => {
                    if out != self.root {
                        out.pop();
                    }
                }
                Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
            }
        }
        out
    }

    /// Maps a path inside the root back to the machine path it stands for.
    pub fn machine_path(&self, real: &Path) -> PathBuf {
        match real.strip_prefix(&self.root) {
            Ok(rel) => Path::new("/").join(rel),
            Err(_) => real.to_path_buf(),
        }
    }

    /// Reads a text file (bounded in size; invalid UTF-8 is replaced, not an error).
    pub fn read_string(&self, machine_path: impl AsRef<Path>) -> std::io::Result<String> {
        read_text_bounded(&self.path(machine_path))
    }

    pub fn exists(&self, machine_path: impl AsRef<Path>) -> bool {
        self.path(machine_path).exists()
    }

    /// Entries of a directory (machine paths), sorted; empty when unreadable.
    pub fn read_dir(&self, machine_path: impl AsRef<Path>) -> Vec<PathBuf> {
        let machine = machine_path.as_ref();
        let mut out: Vec<PathBuf> = match std::fs::read_dir(self.path(machine)) {
            Ok(rd) => rd
                .filter_map(Result::ok)
                .map(|e| machine.join(e.file_name()))
                .collect(),
            Err(_) => Vec::new(),
        };
        out.sort();
        out
    }

    /// Resolves symlinks inside the root (a fixture's absolute links stay in the fixture).
    pub fn canonicalize(&self, machine_path: impl AsRef<Path>) -> Option<PathBuf> {
        let mut current = self.path(machine_path);
        for _ in 0..40 {
            match std::fs::symlink_metadata(&current) {
                Ok(m) if m.file_type().is_symlink() => {
                    let target = std::fs::read_link(&current).ok()?;
                    current = if target.is_absolute() {
                        self.path(&target)
                    } else {
                        let parent = current.parent()?.to_path_buf();
                        normalize(&parent.join(target))
                    };
                }
                Ok(_) => {
                    // Resolve links in the parents too.
                    let real = std::fs::canonicalize(&current).ok()?;
                    return Some(self.machine_path(&real));
                }
                Err(_) => return None,
            }
        }
        None
    }

    /// Finds `program` on the host's PATH (inside the root).
    pub fn which(&self, program: &str) -> Option<PathBuf> {
        let path = self.var("PATH")?;
        std::env::split_paths(OsStr::new(path))
            .filter(|dir| dir.is_absolute())
            .map(|dir| dir.join(program))
            .find(|candidate| is_executable(&self.path(candidate)))
    }

    /// `timeout`, cut to what is left of the `--budget` (at least a millisecond, so the
    /// command still runs and reports the time-out as its result).
    pub fn clamp_timeout(&self, timeout: Duration) -> Duration {
        match self.deadline {
            Some(d) => timeout
                .min(d.saturating_duration_since(Instant::now()))
                .max(Duration::from_millis(1)),
            None => timeout,
        }
    }

    /// Runs a program (a machine path, mapped into the root) with a time limit, no stdin,
    /// in its own process group so that a time-out kills its children too.
    pub fn run(
        &self,
        program: &Path,
        args: &[&str],
        timeout: Duration,
    ) -> Result<CommandOutput, RunError> {
        let real = self.path(program);
        let mut cmd = Command::new(&real);
        cmd.args(args);
        run_with_timeout(&mut cmd, self.clamp_timeout(timeout))
    }
}

/// How long a command's output may still come after the command itself ended (a child it
/// left behind holding the pipe): then its process group is killed and what was read kept.
pub const PIPE_GRACE: Duration = Duration::from_millis(500);

/// Spawns `cmd` with null stdin and piped output, waits at most `timeout`, and kills the
/// whole process group when the time is up. Output is read on threads so a chatty child
/// cannot block on a full pipe; the readers are joined with a deadline, so a grandchild
/// that keeps the pipe open cannot stall the doctor. The child runs in its own process
/// group, registered so that Ctrl-C, SIGTERM or SIGHUP of the doctor kill that group, and
/// with a death signal (SIGKILL when the doctor dies, SIGKILL of the doctor included).
pub fn run_with_timeout(cmd: &mut Command, timeout: Duration) -> Result<CommandOutput, RunError> {
    use std::os::unix::process::CommandExt;
    let program = format!("{:?}", cmd.get_program());
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    set_death_signal(cmd);
    let start = Instant::now();
    let mut child = cmd.spawn().map_err(|source| RunError::Spawn {
        program: program.clone(),
        source,
    })?;
    let registered = children::Registered::new(child.id());
    let stdout = child.stdout.take().map(spawn_reader);
    let stderr = child.stderr.take().map(spawn_reader);
    let waited = child
        .wait_timeout(timeout)
        .map_err(|source| RunError::Wait {
            program: program.clone(),
            source,
        })?;
    let (status, timed_out) = match waited {
        Some(status) => {
            // Helpers the program forked (a driver's daemon) may outlive it holding the
            // pipes: its process group goes with it.
            kill_group(child.id());
            (status, false)
        }
        None => {
            kill_group(child.id());
            let _ = child.kill();
            let status = child
                .wait()
                .map_err(|source| RunError::Wait { program, source })?;
            (status, true)
        }
    };
    // A grandchild that keeps the pipe open would block the readers: they get a short
    // grace, then the group is killed, then what they read so far is taken as it is.
    let deadline = Instant::now() + PIPE_GRACE;
    let finished = |r: &Option<Reader>| r.as_ref().is_none_or(Reader::is_done);
    while !(finished(&stdout) && finished(&stderr)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    if !(finished(&stdout) && finished(&stderr)) {
        kill_group(child.id());
        let deadline = Instant::now() + PIPE_GRACE;
        while !(finished(&stdout) && finished(&stderr)) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    drop(registered);
    let stdout = stdout.map(Reader::take).unwrap_or_default();
    let stderr = stderr.map(Reader::take).unwrap_or_default();
    use std::os::unix::process::ExitStatusExt;
    Ok(CommandOutput {
        status: status.code(),
        signal: status.signal(),
        timed_out,
        stdout,
        stderr,
        elapsed: start.elapsed(),
    })
}

/// The child gets SIGKILL when the doctor dies (`PR_SET_PDEATHSIG`), even by SIGKILL.
#[allow(unsafe_code)]
pub fn set_death_signal(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    let parent = nix::unistd::getpid();
    // SAFETY: the closure runs in the forked child before exec and calls only prctl(2)
    // and getppid(2), which are async-signal-safe; it allocates nothing.
    unsafe {
        cmd.pre_exec(move || {
            let _ = nix::sys::prctl::set_pdeathsig(nix::sys::signal::Signal::SIGKILL);
            // The doctor died between fork and prctl: do not run the command at all.
            if nix::unistd::getppid() != parent {
                return Err(std::io::Error::from(nix::errno::Errno::ESRCH));
            }
            Ok(())
        });
    }
}

/// The process groups of the commands under way, in a form a signal handler can read
/// (fixed atomic slots, no lock, no allocation).
pub mod children {
    use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
    use std::sync::Once;

    const SLOTS: usize = 256;
    static GROUPS: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];
    /// False while another part of gpu-doctor (the terminal UI, the fleet) handles
    /// termination signals itself: the handler then only kills the groups.
    static DEFAULT_ACTION: AtomicBool = AtomicBool::new(true);
    static INSTALL: Once = Once::new();

    /// A process group registered for the life of this value.
    pub struct Registered(Option<usize>);

    impl Registered {
        pub fn new(pid: u32) -> Registered {
            install();
            let Ok(pid) = i32::try_from(pid) else {
                return Registered(None);
            };
            let slot = GROUPS.iter().position(|g| {
                g.compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst)
                    .is_ok()
            });
            Registered(slot)
        }
    }

    impl Drop for Registered {
        fn drop(&mut self) {
            if let Some(i) = self.0 {
                GROUPS[i].store(0, Ordering::SeqCst);
            }
        }
    }

    /// Another handler (the terminal UI's, the fleet's) ends the process on a signal:
    /// gpu-doctor's own handler then only kills the registered groups.
    pub fn signals_handled_elsewhere() {
        DEFAULT_ACTION.store(false, Ordering::SeqCst);
    }

    /// Kills every registered process group (async-signal-safe).
    pub fn kill_all() {
        for g in &GROUPS {
            let pid = g.load(Ordering::SeqCst);
            if pid > 0 {
                let _ = nix::sys::signal::killpg(
                    nix::unistd::Pid::from_raw(pid),
                    nix::sys::signal::Signal::SIGKILL,
                );
            }
        }
    }

    #[allow(unsafe_code)]
    fn install() {
        INSTALL.call_once(|| {
            use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
            for sig in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
                // SAFETY: the action only reads atomics and calls killpg(2), and
                // emulate_default_handler, which signal-hook documents as safe in a
                // signal handler.
                let _ = unsafe {
                    signal_hook::low_level::register(sig, move || {
                        kill_all();
                        if DEFAULT_ACTION.load(Ordering::SeqCst) {
                            let _ = signal_hook::low_level::emulate_default_handler(sig);
                        }
                    })
                };
            }
        });
    }
}

/// One pipe being read on a thread: the head and the tail of what came are kept (the
/// answer of a chatty program comes last), and what was read so far can be taken even
/// while the thread is still blocked.
struct Reader {
    shared: std::sync::Arc<std::sync::Mutex<Capture>>,
    done: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Reader {
    fn is_done(&self) -> bool {
        self.done.load(std::sync::atomic::Ordering::SeqCst)
    }

    fn take(self) -> String {
        let c = std::mem::take(
            &mut *self
                .shared
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        );
        c.into_string()
    }
}

/// At most [`MAX_COMMAND_OUTPUT_BYTES`]: the first half and the last half of the stream.
#[derive(Default)]
struct Capture {
    head: Vec<u8>,
    tail: std::collections::VecDeque<u8>,
    cut: u64,
}

impl Capture {
    fn push(&mut self, mut bytes: &[u8]) {
        let half = MAX_COMMAND_OUTPUT_BYTES / 2;
        if self.head.len() < half {
            let n = bytes.len().min(half - self.head.len());
            self.head.extend_from_slice(&bytes[..n]);
            bytes = &bytes[n..];
        }
        if bytes.len() >= half {
            self.cut += (self.tail.len() + bytes.len() - half) as u64;
            self.tail.clear();
            self.tail.extend(&bytes[bytes.len() - half..]);
            return;
        }
        let over = (self.tail.len() + bytes.len()).saturating_sub(half);
        self.cut += over as u64;
        self.tail.drain(..over);
        self.tail.extend(bytes);
    }

    fn into_string(self) -> String {
        let mut out = self.head;
        if self.cut > 0 {
            out.extend_from_slice(format!("\n[... {} bytes left out ...]\n", self.cut).as_bytes());
        }
        out.extend(self.tail);
        String::from_utf8_lossy(&out).into_owned()
    }
}

fn spawn_reader<R: Read + Send + 'static>(mut reader: R) -> Reader {
    let shared = std::sync::Arc::new(std::sync::Mutex::new(Capture::default()));
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (s, d) = (shared.clone(), done.clone());
    std::thread::spawn(move || {
        let mut chunk = vec![0u8; 64 * 1024];
        loop {
            match reader.read(&mut chunk) {
                Ok(0) => break,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => break,
                Ok(n) => s
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .push(&chunk[..n]),
            }
        }
        d.store(true, std::sync::atomic::Ordering::SeqCst);
    });
    Reader { shared, done }
}

/// Sends SIGKILL to the process group led by `pid`.
pub fn kill_group(pid: u32) {
    if let Ok(pid) = i32::try_from(pid) {
        let _ = nix::sys::signal::killpg(
            nix::unistd::Pid::from_raw(pid),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
}

/// Reads a text file of bounded size; larger files are refused with an error that says so.
/// Only regular files are read: a FIFO, a device or a directory where gpu-doctor expects a
/// file is an error at once, never a hang.
pub fn read_text_bounded(path: &Path) -> std::io::Result<String> {
    let file = open_regular(path)?;
    let buf = read_all_bounded(file, MAX_TEXT_FILE_BYTES)
        .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

/// What kind of thing `meta` is, for messages ("a FIFO").
fn file_kind(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else {
        "not a regular file"
    }
}

/// Opens without blocking (`O_NONBLOCK`: a FIFO with no writer does not stall `open`) and
/// without becoming the controlling terminal.
fn open_nonblocking(path: &Path) -> std::io::Result<(std::fs::File, std::fs::Metadata)> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits() | nix::fcntl::OFlag::O_NOCTTY.bits())
        .open(path)?;
    let meta = file.metadata()?;
    Ok((file, meta))
}

/// Opens a file gpu-doctor reads on its own (a library, a config file, a version.json):
/// a regular file, else an error naming what it is.
pub fn open_regular(path: &Path) -> std::io::Result<std::fs::File> {
    let (file, meta) = open_nonblocking(path)?;
    if !meta.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "{} is {}, not a regular file",
                path.display(),
                file_kind(&meta)
            ),
        ));
    }
    Ok(file)
}

/// Reads everything, up to `max` bytes; more is an error ("larger than N bytes"), so no
/// file or pipe can grow the doctor without bound.
pub fn read_all_bounded(reader: impl Read, max: u64) -> std::io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    reader.take(max + 1).read_to_end(&mut buf)?;
    if buf.len() as u64 > max {
        return Err(std::io::Error::other(format!("larger than {max} bytes")));
    }
    Ok(buf)
}

/// Hidden: how long a named input that is a pipe may stay silent, in milliseconds (tests).
pub const INPUT_IDLE_ENV: &str = "GPU_DOCTOR_INPUT_IDLE_MS";
/// How long a named input that is a pipe or device (`<(cmd)`, a FIFO) may stay silent
/// before reading it is given up.
pub const INPUT_IDLE_LIMIT: Duration = Duration::from_secs(30);

/// A path given on the command line, where '-' means standard input. A regular file is
/// read as it is; a FIFO, socket or device (`<(cmd)` included) is read without blocking,
/// with at most [`INPUT_IDLE_LIMIT`] of silence; a directory is an error.
pub fn open_input(path: &Path) -> std::io::Result<Box<dyn Read>> {
    if path == Path::new("-") {
        return Ok(Box::new(std::io::stdin()));
    }
    let (file, meta) = open_nonblocking(path)?;
    if meta.is_file() {
        return Ok(Box::new(file));
    }
    if meta.is_dir() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "is a directory, not a file",
        ));
    }
    let idle = std::env::var(INPUT_IDLE_ENV)
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .map_or(INPUT_IDLE_LIMIT, Duration::from_millis);
    Ok(Box::new(PolledReader {
        file,
        idle,
        kind: file_kind(&meta),
    }))
}

/// Reads a non-blocking descriptor, waiting at most `idle` for each chunk.
struct PolledReader {
    file: std::fs::File,
    idle: Duration,
    kind: &'static str,
}

impl Read for PolledReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
        use std::os::fd::AsFd;
        // Poll first: a FIFO whose writer has not come yet reads as end-of-file, but polls
        // as "nothing yet" (Linux reports a hang-up only after a writer came and went).
        let deadline = Instant::now() + self.idle;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    format!(
                        "{} that sent nothing for {} s; gave up",
                        self.kind,
                        self.idle.as_secs_f64()
                    ),
                ));
            }
            let ms = u16::try_from(left.as_millis().clamp(1, 10_000)).unwrap_or(10_000);
            let mut fds = [PollFd::new(self.file.as_fd(), PollFlags::POLLIN)];
            match poll(&mut fds, PollTimeout::from(ms)) {
                Ok(0) | Err(nix::errno::Errno::EINTR) => continue,
                Ok(_) => {}
                Err(e) => return Err(e.into()),
            }
            match self.file.read(buf) {
                Ok(n) => return Ok(n),
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }
}

/// A signal by its name ("SIGSEGV"), or its number when it has none.
pub fn signal_name(sig: i32) -> String {
    nix::sys::signal::Signal::try_from(sig)
        .map_or_else(|_| format!("signal {sig}"), |s| s.as_str().to_string())
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Lexical normalisation (`a/b/../c` -> `a/c`) without touching the filesystem.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for comp in path.components() {
        match comp {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The last `n` lines of `text`.
pub fn tail_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// Takes the worker's answer channel: a duplicate of stdout, after which fd 1 is
/// stderr, so library output never reaches the parent's answer pipe. `None` if the
/// descriptors cannot be rearranged (the answer then goes to stdout, as before).
pub fn answer_channel() -> Option<std::fs::File> {
    use std::os::fd::AsFd;
    let answer = nix::unistd::dup(std::io::stdout().as_fd()).ok()?;
    nix::unistd::dup2_stdout(std::io::stderr().as_fd()).ok()?;
    Some(std::fs::File::from(answer))
}

/// Writes one line to the answer channel (or stdout), flushed; a leading newline keeps
/// it on its own line. `false` when it could not be written.
pub fn write_answer(channel: Option<&std::fs::File>, text: &str) -> bool {
    use std::io::Write;
    match channel {
        Some(mut f) => writeln!(f, "\n{text}").and_then(|()| f.flush()).is_ok(),
        None => {
            let mut out = std::io::stdout().lock();
            writeln!(out, "\n{text}").and_then(|()| out.flush()).is_ok()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_stays_inside_the_root() {
        let h = Host::fixture("/fx", &[]);
        assert_eq!(h.path("/proc/modules"), PathBuf::from("/fx/proc/modules"));
        assert_eq!(h.path("/../../etc/passwd"), PathBuf::from("/fx/etc/passwd"));
        assert_eq!(
            h.machine_path(Path::new("/fx/usr/lib")),
            PathBuf::from("/usr/lib")
        );
        assert!(h.is_fixture());
        assert!(!Host::fixture("/", &[]).is_fixture());
    }

    #[test]
    fn symlinks_resolve_inside_the_fixture() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("usr/local/cuda-12.4")).unwrap();
        std::os::unix::fs::symlink("/usr/local/cuda-12.4", root.join("usr/local/cuda")).unwrap();
        let h = Host::fixture(root, &[]);
        assert_eq!(
            h.canonicalize("/usr/local/cuda"),
            Some(PathBuf::from("/usr/local/cuda-12.4"))
        );
        assert_eq!(h.canonicalize("/usr/local/missing"), None);
    }

    #[test]
    fn run_kills_a_hung_command() {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "sleep 30 & sleep 30"]);
        let out = run_with_timeout(&mut cmd, Duration::from_millis(200)).unwrap();
        assert!(out.timed_out);
        assert!(out.elapsed < Duration::from_secs(5));
        assert!(!out.success());
    }

    #[test]
    fn a_grandchild_holding_the_pipe_does_not_stall_the_run() {
        // The grandchild keeps stdout open for 30 s after its parent exits.
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "sleep 30 & echo answer"]);
        let start = Instant::now();
        let out = run_with_timeout(&mut cmd, Duration::from_secs(20)).unwrap();
        assert!(
            start.elapsed() < Duration::from_secs(3),
            "{:?}",
            start.elapsed()
        );
        assert_eq!(out.status, Some(0));
        assert!(!out.timed_out);
        assert_eq!(out.stdout, "answer\n");
        // Even one that left the process group: the run ends, with what was read.
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "setsid sleep 4 & echo answer"]);
        let start = Instant::now();
        let out = run_with_timeout(&mut cmd, Duration::from_secs(20)).unwrap();
        assert!(
            start.elapsed() < Duration::from_secs(3),
            "{:?}",
            start.elapsed()
        );
        assert_eq!(out.stdout, "answer\n");
    }

    #[test]
    fn the_answer_after_megabytes_of_chatter_is_kept() {
        let mut cmd = Command::new("sh");
        cmd.args([
            "-c",
            "head -c 20000000 /dev/zero | tr '\\000' x; echo; echo MARK answer; echo tail >&2",
        ]);
        let out = run_with_timeout(&mut cmd, Duration::from_secs(30)).unwrap();
        assert!(out.stdout.len() <= MAX_COMMAND_OUTPUT_BYTES + 100);
        assert!(out.stdout.starts_with("xxx"));
        assert!(out.stdout.contains("bytes left out"));
        assert!(
            out.stdout.ends_with("\nMARK answer\n"),
            "{}",
            &out.stdout[out.stdout.len() - 50..]
        );
        assert_eq!(out.stderr, "tail\n");
    }

    #[test]
    fn capture_keeps_head_and_tail() {
        let mut c = Capture::default();
        let half = MAX_COMMAND_OUTPUT_BYTES / 2;
        c.push(&vec![b'a'; half - 1]);
        c.push(b"bc");
        for _ in 0..3 {
            c.push(&vec![b'd'; half / 3]);
        }
        c.push(b"end");
        let s = c.into_string();
        assert!(s.starts_with(&"a".repeat(half - 1)));
        assert_eq!(&s[half - 1..half], "b");
        assert!(s.ends_with("dend"));
        let total = half + 1 + 3 * (half / 3) + 3;
        assert!(
            s.contains(&format!("[... {} bytes left out ...]", total - 2 * half)),
            "{}",
            &s[half..half + 60]
        );
    }

    #[test]
    fn run_collects_output_and_status() {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo out; echo err >&2; exit 3"]);
        let out = run_with_timeout(&mut cmd, Duration::from_secs(5)).unwrap();
        assert_eq!(out.status, Some(3));
        assert_eq!(out.stdout, "out\n");
        assert_eq!(out.stderr_tail(), "err");
    }

    #[test]
    fn run_reports_a_missing_program() {
        let h = Host::fixture("/", &[]);
        let err = h
            .run(Path::new("/nonexistent/nvcc"), &[], Duration::from_secs(1))
            .unwrap_err();
        assert!(err.to_string().contains("could not start"));
    }

    #[test]
    fn fifos_and_directories_never_hang_a_read() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        let start = Instant::now();
        let err = read_text_bounded(&fifo).unwrap_err();
        assert!(err.to_string().contains("FIFO"), "{err}");
        let err = read_text_bounded(dir.path()).unwrap_err();
        assert!(err.to_string().contains("directory"), "{err}");
        assert!(open_input(dir.path()).is_err());
        assert!(start.elapsed() < Duration::from_secs(2));
        // A FIFO named on the command line is read as a pipe: with a writer, its text...
        let f2 = fifo.clone();
        let writer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            std::fs::write(&f2, "hello").unwrap();
        });
        let text = read_all_bounded(open_input(&fifo).unwrap(), 100);
        writer.join().unwrap();
        assert_eq!(text.unwrap(), b"hello");
        // ...and with none, an error after the idle limit, not a hang.
        let (file, meta) = open_nonblocking(&fifo).unwrap();
        let reader = PolledReader {
            file,
            idle: Duration::from_millis(300),
            kind: file_kind(&meta),
        };
        let start = Instant::now();
        let err = read_all_bounded(reader, 100).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::TimedOut, "{err}");
        assert!(start.elapsed() < Duration::from_secs(3));
    }

    #[test]
    fn oversized_files_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("big");
        std::fs::write(&p, vec![b'a'; (MAX_TEXT_FILE_BYTES + 10) as usize]).unwrap();
        assert!(read_text_bounded(&p).is_err());
    }
}

/// SHA-256 of `data` as lowercase hex (FIPS 180-4), for identifiers that must not leave
/// the machine as they are (the machine id) yet stay comparable across reports.
pub fn sha256_hex(data: &[u8]) -> String {
    const K: [u32; 64] = [
        0x428a_2f98,
        0x7137_4491,
        0xb5c0_fbcf,
        0xe9b5_dba5,
        0x3956_c25b,
        0x59f1_11f1,
        0x923f_82a4,
        0xab1c_5ed5,
        0xd807_aa98,
        0x1283_5b01,
        0x2431_85be,
        0x550c_7dc3,
        0x72be_5d74,
        0x80de_b1fe,
        0x9bdc_06a7,
        0xc19b_f174,
        0xe49b_69c1,
        0xefbe_4786,
        0x0fc1_9dc6,
        0x240c_a1cc,
        0x2de9_2c6f,
        0x4a74_84aa,
        0x5cb0_a9dc,
        0x76f9_88da,
        0x983e_5152,
        0xa831_c66d,
        0xb003_27c8,
        0xbf59_7fc7,
        0xc6e0_0bf3,
        0xd5a7_9147,
        0x06ca_6351,
        0x1429_2967,
        0x27b7_0a85,
        0x2e1b_2138,
        0x4d2c_6dfc,
        0x5338_0d13,
        0x650a_7354,
        0x766a_0abb,
        0x81c2_c92e,
        0x9272_2c85,
        0xa2bf_e8a1,
        0xa81a_664b,
        0xc24b_8b70,
        0xc76c_51a3,
        0xd192_e819,
        0xd699_0624,
        0xf40e_3585,
        0x106a_a070,
        0x19a4_c116,
        0x1e37_6c08,
        0x2748_774c,
        0x34b0_bcb5,
        0x391c_0cb3,
        0x4ed8_aa4a,
        0x5b9c_ca4f,
        0x682e_6ff3,
        0x748f_82ee,
        0x78a5_636f,
        0x84c8_7814,
        0x8cc7_0208,
        0x90be_fffa,
        0xa450_6ceb,
        0xbef9_a3f7,
        0xc671_78f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09_e667,
        0xbb67_ae85,
        0x3c6e_f372,
        0xa54f_f53a,
        0x510e_527f,
        0x9b05_688c,
        0x1f83_d9ab,
        0x5be0_cd19,
    ];
    let mut msg = data.to_vec();
    let bit_len = (data.len() as u64).wrapping_mul(8);
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&bit_len.to_be_bytes());
    for block in msg.chunks_exact(64) {
        let mut w = [0u32; 64];
        for (i, word) in block.chunks_exact(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
        for i in 0..64 {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let ch = (e & f) ^ (!e & g);
            let t1 = hh
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(maj);
            hh = g;
            g = f;
            f = e;
            e = d.wrapping_add(t1);
            d = c;
            c = b;
            b = a;
            a = t1.wrapping_add(t2);
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
            *x = x.wrapping_add(y);
        }
    }
    h.iter().map(|x| format!("{x:08x}")).collect()
}

#[cfg(test)]
mod sha256_tests {
    #[test]
    fn known_digests() {
        assert_eq!(
            super::sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            super::sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let long = "a".repeat(1000);
        assert_eq!(
            super::sha256_hex(long.as_bytes()),
            "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"
        );
    }
}
