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

impl Host {
    /// The machine gpu-doctor runs on, with the test seams read from the environment.
    pub fn from_env() -> Host {
        let env: BTreeMap<String, String> = std::env::vars_os()
            .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
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

    /// An environment variable; `None` when unset (non-UTF-8 values count as unset).
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
        run_with_timeout(&mut cmd, timeout)
    }
}

/// Spawns `cmd` with null stdin and piped output, waits at most `timeout`, and kills the
/// whole process group when the time is up. Output is read on threads so a chatty child
/// cannot block on a full pipe.
pub fn run_with_timeout(cmd: &mut Command, timeout: Duration) -> Result<CommandOutput, RunError> {
    use std::os::unix::process::CommandExt;
    let program = format!("{:?}", cmd.get_program());
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let start = Instant::now();
    let mut child = cmd.spawn().map_err(|source| RunError::Spawn {
        program: program.clone(),
        source,
    })?;
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
    // A grandchild that keeps the pipe open would block the readers: the group kill above
    // ended those in the group; one that left the group is not waited for.
    let stdout = stdout
        .and_then(|h| join_reader(h, READER_GRACE))
        .unwrap_or_default();
    let stderr = stderr
        .and_then(|h| join_reader(h, READER_GRACE))
        .unwrap_or_default();
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

/// How long pipe readers may take to finish after the program ended.
const READER_GRACE: Duration = Duration::from_secs(1);

/// Joins a reader thread, waiting at most `limit` (a pipe held open by a process that
/// left the group must not hold the doctor).
fn join_reader<T>(handle: std::thread::JoinHandle<T>, limit: Duration) -> Option<T> {
    let until = Instant::now() + limit;
    while !handle.is_finished() {
        if Instant::now() >= until {
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    handle.join().ok()
}

fn spawn_reader<R: Read + Send + 'static>(mut reader: R) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let mut chunk = [0u8; 8192];
        loop {
            match reader.read(&mut chunk) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if buf.len() < MAX_COMMAND_OUTPUT_BYTES {
                        let room = MAX_COMMAND_OUTPUT_BYTES - buf.len();
                        buf.extend_from_slice(&chunk[..n.min(room)]);
                    }
                }
            }
        }
        String::from_utf8_lossy(&buf).into_owned()
    })
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
pub fn read_text_bounded(path: &Path) -> std::io::Result<String> {
    let file = std::fs::File::open(path)?;
    let buf = read_all_bounded(file, MAX_TEXT_FILE_BYTES)
        .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
    Ok(String::from_utf8_lossy(&buf).into_owned())
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

/// A path given on the command line, where '-' means standard input.
pub fn open_input(path: &Path) -> std::io::Result<Box<dyn Read>> {
    if path == Path::new("-") {
        Ok(Box::new(std::io::stdin()))
    } else {
        Ok(Box::new(std::fs::File::open(path)?))
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
    fn oversized_files_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("big");
        std::fs::write(&p, vec![b'a'; (MAX_TEXT_FILE_BYTES + 10) as usize]).unwrap();
        assert!(read_text_bounded(&p).is_err());
    }
}
