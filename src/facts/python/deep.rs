//! `--deep`: asks the interpreter itself what torch sees. Importing torch can hang (a
//! stuck driver), crash (a bad library) or print noise, so it runs with a time limit, in
//! an empty temporary folder (a `torch/` folder in the user's cwd would shadow the real
//! one), and only a marked JSON line of its output is trusted.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde::Deserialize;

use crate::fact::Fact;
use crate::host::{run_with_timeout, CommandOutput, Host};

use super::DeepTorch;

/// How long one interpreter may take to import torch and answer. A cold import of a
/// CUDA torch reads a few GB of libraries: tens of seconds on a busy node or a network
/// file system are normal, a minute is not.
pub const TIMEOUT: Duration = Duration::from_secs(60);
const MARK: &str = "GPU_DOCTOR_DEEP_JSON ";

/// Prints one marked JSON line; every step is guarded so that a torch error becomes data.
const SCRIPT: &str = r#"
import json, sys, warnings
out = {"torch_version": None, "torch_path": None, "cuda": None, "cuda_available": False,
       "device_count": 0, "arch_list": [], "error": None, "warnings": [], "no_torch": False}
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        import torch
        out["torch_version"] = str(torch.__version__)
        out["torch_path"] = str(getattr(torch, "__file__", None))
        out["cuda"] = getattr(torch.version, "cuda", None)
        out["cuda_available"] = bool(torch.cuda.is_available())
        out["device_count"] = int(torch.cuda.device_count())
        flags = getattr(torch._C, "_cuda_getArchFlags", lambda: None)()
        out["arch_list"] = flags.split() if flags else list(torch.cuda.get_arch_list())
        if not out["cuda_available"] and out["cuda"]:
            # is_available() only says False; initialising says why.
            try:
                torch.cuda.init()
            except Exception as e:
                out["error"] = "%s: %s" % (type(e).__name__, e)
    except ModuleNotFoundError as e:
        if getattr(e, "name", None) == "torch":
            out["no_torch"] = True
        out["error"] = "%s: %s" % (type(e).__name__, e)
    except BaseException as e:
        out["error"] = "%s: %s" % (type(e).__name__, e)
out["warnings"] = [str(w.message) for w in caught][:20]
sys.stdout.write("GPU_DOCTOR_DEEP_JSON " + json.dumps(out) + "\n")
"#;

#[derive(Debug, Deserialize)]
struct Reply {
    torch_version: Option<String>,
    torch_path: Option<String>,
    cuda: Option<String>,
    cuda_available: bool,
    device_count: u32,
    #[serde(default)]
    arch_list: Vec<String>,
    error: Option<String>,
    #[serde(default)]
    warnings: Vec<String>,
    #[serde(default)]
    no_torch: bool,
}

/// Runs `interpreter` (a machine path) and reads what torch says.
pub fn probe(host: &Host, interpreter: &Path, timeout: Duration) -> Fact<DeepTorch> {
    let command = format!("{} -c <gpu-doctor torch probe>", interpreter.display());
    let scratch = match ScratchDir::new() {
        Ok(d) => d,
        Err(e) => return Fact::failed(format!("cannot create a temporary folder: {e}")),
    };
    let mut cmd = Command::new(host.path(interpreter));
    cmd.arg("-c")
        .arg(SCRIPT)
        .current_dir(&scratch.0)
        .env_clear()
        .envs(host.vars());
    match run_with_timeout(&mut cmd, timeout) {
        Ok(out) => interpret(&out, &command, timeout),
        Err(e) => Fact::Failed {
            error: e.to_string(),
            command: Some(command),
            stderr_tail: None,
        },
    }
}

fn interpret(out: &CommandOutput, command: &str, timeout: Duration) -> Fact<DeepTorch> {
    let fail = |error: String| Fact::Failed {
        error,
        command: Some(command.to_string()),
        stderr_tail: Some(out.stderr_tail()).filter(|t| !t.is_empty()),
    };
    if out.timed_out {
        return fail(format!(
            "no answer within {}s (importing torch or initialising CUDA hung); killed",
            timeout.as_secs()
        ));
    }
    let line = out.stdout.lines().rev().find_map(|l| l.strip_prefix(MARK));
    let Some(line) = line else {
        let how = match (out.status, out.signal) {
            (_, Some(sig)) => format!("killed by signal {sig}"),
            (Some(code), _) => format!("exit status {code}"),
            _ => "no exit status".to_string(),
        };
        return fail(format!(
            "the interpreter printed no result ({how}; a crash while importing torch?)"
        ));
    };
    let reply: Reply = match serde_json::from_str(line) {
        Ok(r) => r,
        Err(e) => return fail(format!("the interpreter printed unreadable JSON: {e}")),
    };
    if reply.no_torch {
        return Fact::missing(format!(
            "torch is not importable from this interpreter ({})",
            reply.error.unwrap_or_default()
        ));
    }
    Fact::known(DeepTorch {
        torch_version: reply.torch_version,
        torch_path: reply.torch_path,
        cuda: reply.cuda,
        cuda_available: reply.cuda_available,
        device_count: reply.device_count,
        arch_list: reply.arch_list,
        // torch's own error goes through explain's decoder (e.g. CUDA error 36: driver too old).
        error: reply.error,
        warnings: reply.warnings,
    })
}

/// An empty folder removed on drop.
struct ScratchDir(PathBuf);

impl ScratchDir {
    fn new() -> std::io::Result<ScratchDir> {
        use std::sync::atomic::{AtomicU32, Ordering};
        static N: AtomicU32 = AtomicU32::new(0);
        // A folder of an earlier process with the same pid (killed before it cleaned up)
        // may still be there: take the next name, never a folder someone else made.
        let mut last = None;
        for _ in 0..64 {
            let dir = std::env::temp_dir().join(format!(
                "gpu-doctor-deep-{}-{}",
                std::process::id(),
                N.fetch_add(1, Ordering::Relaxed)
            ));
            match std::fs::create_dir(&dir) {
                Ok(()) => return Ok(ScratchDir(dir)),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => return Err(e),
            }
        }
        Err(last.unwrap_or_else(|| std::io::Error::other("no free temporary folder name")))
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// A fake interpreter: a shell script that ignores its arguments.
    fn fake(dir: &Path, body: &str) -> PathBuf {
        let p = dir.join("python3");
        std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        p
    }

    fn run(body: &str, timeout: Duration) -> Fact<DeepTorch> {
        let dir = tempfile::tempdir().unwrap();
        let p = fake(dir.path(), body);
        let host = Host::fixture("/", &[("PATH", "/usr/bin:/bin")]);
        probe(&host, &p, timeout)
    }

    #[test]
    fn reads_the_marked_line_among_noise() {
        let json = r#"{"torch_version": "2.4.1+cu121", "torch_path": "/v/torch/__init__.py", "cuda": "12.1", "cuda_available": false, "device_count": 0, "arch_list": ["sm_50"], "error": null, "warnings": ["CUDA initialization: Found no NVIDIA driver on your system."], "no_torch": false}"#;
        let f = run(
            &format!("echo noise; echo 'GPU_DOCTOR_DEEP_JSON {json}'"),
            TIMEOUT,
        );
        let d = f.value().unwrap();
        assert_eq!(d.torch_version.as_deref(), Some("2.4.1+cu121"));
        assert!(!d.cuda_available);
        assert!(d.warnings[0].contains("no NVIDIA driver"));
    }

    #[test]
    fn the_answer_after_100_mb_of_chatter_is_read() {
        let json = r#"{"torch_version": "2.4.1+cu121", "torch_path": "/v/torch/__init__.py", "cuda": "12.1", "cuda_available": true, "device_count": 1, "arch_list": ["sm_80"], "error": null}"#;
        let start = std::time::Instant::now();
        let f = run(
            &format!(
                "head -c 100000000 /dev/zero | tr '\\000' x; echo; echo 'GPU_DOCTOR_DEEP_JSON {json}'"
            ),
            Duration::from_secs(60),
        );
        let d = f.value().unwrap_or_else(|| panic!("{f:?}"));
        assert!(d.cuda_available);
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{:?}",
            start.elapsed()
        );
    }

    #[test]
    fn torchs_error_is_kept_as_torch_raised_it() {
        let json = r#"{"torch_version": "2.6.0+cu126", "torch_path": null, "cuda": "12.6", "cuda_available": false, "device_count": 0, "error": "RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 36: API call is not supported in the installed CUDA driver", "no_torch": false}"#;
        let f = run(&format!("echo 'GPU_DOCTOR_DEEP_JSON {json}'"), TIMEOUT);
        let e = f.value().unwrap().error.clone().unwrap();
        assert!(e.starts_with("RuntimeError: Unexpected error"), "{e}");
        // Gathering never judges: the pipeline decodes it (pipeline::decode_deep_errors).
        assert!(!e.contains("[gpu-doctor:"), "{e}");
    }

    #[test]
    fn runs_in_an_empty_folder() {
        let f = run("test -z \"$(ls -A)\" && echo 'GPU_DOCTOR_DEEP_JSON {\"torch_version\":null,\"torch_path\":null,\"cuda\":null,\"cuda_available\":false,\"device_count\":0,\"error\":null}'", TIMEOUT);
        assert!(f.is_known(), "{f:?}");
    }

    #[test]
    fn failures_carry_the_reason() {
        let hang = run("sleep 30", Duration::from_millis(300));
        assert!(hang.reason().unwrap().contains("hung"), "{hang:?}");
        let crash = run("echo 'Segmentation fault' >&2; kill -SEGV $$", TIMEOUT);
        assert!(crash.reason().unwrap().contains("signal 11"), "{crash:?}");
        let Fact::Failed { stderr_tail, .. } = run("echo boom >&2; exit 1", TIMEOUT) else {
            panic!("expected Failed");
        };
        assert_eq!(stderr_tail.as_deref(), Some("boom"));
        let garbage = run("echo 'GPU_DOCTOR_DEEP_JSON {not json'", TIMEOUT);
        assert!(garbage.reason().unwrap().contains("unreadable JSON"));
        let missing = run("echo 'GPU_DOCTOR_DEEP_JSON {\"torch_version\":null,\"torch_path\":null,\"cuda\":null,\"cuda_available\":false,\"device_count\":0,\"error\":\"ModuleNotFoundError: No module named torch\",\"no_torch\":true}'", TIMEOUT);
        assert!(matches!(missing, Fact::Missing { .. }), "{missing:?}");
    }
}
