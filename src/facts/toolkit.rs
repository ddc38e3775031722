//! CUDA toolkits: every one reachable, its version, and which one PATH, CUDA_HOME and
//! /usr/local/cuda point to.
//!
//! Builds break when these three disagree (nvcc from 11.8, headers from 12.4), so each
//! toolkit is listed once, by its resolved root, with every way it was found.
//! The version comes from files; `nvcc --version` (hundreds of ms) runs only for a
//! toolkit that has no version file.

use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::fact::Fact;
use crate::host::Host;
use crate::version::DottedVersion;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Toolkit {
    /// The toolkit root after resolving links, e.g. "/usr/local/cuda-12.4".
    pub root: String,
    /// e.g. "12.4.131": the nvcc version from version.json or `nvcc --version`
    /// (`V12.4.131`), else the SDK version ("10.2.89" from version.txt).
    pub version: Fact<String>,
    /// Where the version came from: "version.json", "version.txt" or "nvcc --version".
    pub version_source: Option<String>,
    /// "<root>/bin/nvcc" if present.
    pub nvcc: Option<String>,
    /// How it was found: "PATH", "CUDA_HOME", "CUDA_PATH", "/usr/local/cuda", "/usr/local/cuda-*", "/opt/cuda".
    pub found_via: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ToolkitFacts {
    pub toolkits: Vec<Toolkit>,
    /// Toolkit root that `nvcc` on PATH belongs to.
    pub path_nvcc: Option<String>,
    /// Toolkit root CUDA_HOME (or CUDA_PATH) names, resolved.
    pub cuda_home: Option<String>,
    /// Toolkit root /usr/local/cuda links to.
    pub usr_local_cuda: Option<String>,
}

pub const SOURCE_VERSION_JSON: &str = "version.json";
pub const SOURCE_VERSION_TXT: &str = "version.txt";
pub const SOURCE_NVCC: &str = "nvcc --version";

pub fn gather(host: &Host) -> ToolkitFacts {
    let mut found = Found::default();

    let path_nvcc = host.which("nvcc").map(|nvcc| {
        // /usr/bin/nvcc may be a link into the real toolkit: its root is what counts.
        let real = host.canonicalize(&nvcc).unwrap_or(nvcc);
        let root = real
            .parent()
            .and_then(Path::parent)
            .map_or_else(|| PathBuf::from("/"), Path::to_path_buf);
        found.add(host, &root, "PATH")
    });

    let mut cuda_home = None;
    for var in ["CUDA_HOME", "CUDA_PATH"] {
        if let Some(value) = host.var(var).filter(|v| !v.trim().is_empty()) {
            let root = found.add(host, Path::new(value), var);
            cuda_home = cuda_home.or(Some(root));
        }
    }

    let usr_local_cuda = exists_or_link(host, "/usr/local/cuda")
        .then(|| found.add(host, Path::new("/usr/local/cuda"), "/usr/local/cuda"));
    for dir in host.read_dir("/usr/local") {
        let is_versioned = dir
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("cuda-"));
        if is_versioned {
            found.add(host, &dir, "/usr/local/cuda-*");
        }
    }
    if exists_or_link(host, "/opt/cuda") {
        found.add(host, Path::new("/opt/cuda"), "/opt/cuda");
    }

    ToolkitFacts {
        // In parallel: a toolkit whose `nvcc --version` hangs costs one time limit, not
        // one per toolkit.
        toolkits: std::thread::scope(|scope| {
            let handles: Vec<_> = found
                .entries
                .into_iter()
                .map(|e| scope.spawn(move || describe(host, e)))
                .collect();
            handles.into_iter().filter_map(|h| h.join().ok()).collect()
        }),
        path_nvcc,
        cuda_home,
        usr_local_cuda,
    }
}

/// Whether a path is there, counting a broken link (which deserves an entry saying so).
fn exists_or_link(host: &Host, machine_path: &str) -> bool {
    std::fs::symlink_metadata(host.path(machine_path)).is_ok()
}

/// A candidate root: where it resolves, and why it is unusable if it is.
struct Entry {
    root: String,
    absent: Option<String>,
    found_via: Vec<String>,
}

#[derive(Default)]
struct Found {
    entries: Vec<Entry>,
}

impl Found {
    /// Records `path` as found via `via`, merged with any entry of the same resolved
    /// root; returns that root.
    fn add(&mut self, host: &Host, path: &Path, via: &str) -> String {
        let (root, absent) = resolve(host, path, via);
        match self.entries.iter_mut().find(|e| e.root == root) {
            Some(e) => {
                if !e.found_via.iter().any(|v| v == via) {
                    e.found_via.push(via.to_string());
                }
            }
            None => self.entries.push(Entry {
                root: root.clone(),
                absent,
                found_via: vec![via.to_string()],
            }),
        }
        root
    }
}

/// The resolved root, or the best path to show and why there is no toolkit there.
fn resolve(host: &Host, path: &Path, via: &str) -> (String, Option<String>) {
    let shown = path.to_string_lossy().into_owned();
    if !path.is_absolute() {
        return (
            shown.clone(),
            Some(format!("{via}={shown} is not an absolute path")),
        );
    }
    if let Some(real) = host.canonicalize(path) {
        let real_str = real.to_string_lossy().into_owned();
        return if host.path(&real).is_dir() {
            (real_str, None)
        } else {
            (
                real_str.clone(),
                Some(format!("{real_str} is not a directory")),
            )
        };
    }
    match std::fs::read_link(host.path(path)) {
        Ok(target) => (
            shown.clone(),
            Some(format!("{shown} is a broken link to {}", target.display())),
        ),
        Err(_) => (shown.clone(), Some(format!("{shown} does not exist"))),
    }
}

fn describe(host: &Host, entry: Entry) -> Toolkit {
    let root = PathBuf::from(&entry.root);
    let nvcc_path = root.join("bin").join("nvcc");
    let nvcc = (entry.absent.is_none() && host.path(&nvcc_path).is_file())
        .then(|| nvcc_path.to_string_lossy().into_owned());
    let (version, version_source) = match &entry.absent {
        Some(why) => (Fact::missing(why.clone()), None),
        None => toolkit_version(host, &root, nvcc.is_some()),
    };
    Toolkit {
        root: entry.root,
        version,
        version_source,
        nvcc,
        found_via: entry.found_via,
    }
}

type VersionParser = fn(&str) -> Result<String, String>;

/// version.json (CUDA >= 11.1), then version.txt (<= 11.0), then `nvcc --version`.
fn toolkit_version(host: &Host, root: &Path, has_nvcc: bool) -> (Fact<String>, Option<String>) {
    let mut problems = Vec::new();
    let files: [(&str, VersionParser); 2] = [
        (SOURCE_VERSION_JSON, parse_version_json),
        (SOURCE_VERSION_TXT, parse_version_txt),
    ];
    for (name, parse) in files {
        let path = root.join(name);
        match host.read_string(&path) {
            Ok(text) => match parse(&text) {
                Ok(v) => return (Fact::known(v), Some(name.to_string())),
                Err(e) => problems.push(format!("{}: {e}", path.display())),
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => problems.push(format!("{}: {e}", path.display())),
        }
    }
    if has_nvcc {
        let fact = run_nvcc(host, &root.join("bin").join("nvcc"));
        let source = fact.is_known().then(|| SOURCE_NVCC.to_string());
        return (fact, source);
    }
    let mut why = format!(
        "{} has no version.json, version.txt or bin/nvcc",
        root.display()
    );
    if !problems.is_empty() {
        why = format!("{why} that gives a version ({})", problems.join("; "));
    }
    (Fact::missing(why), None)
}

fn run_nvcc(host: &Host, nvcc: &Path) -> Fact<String> {
    let command = format!("{} --version", nvcc.display());
    let failed = |error: String, stderr_tail: Option<String>| Fact::Failed {
        error,
        command: Some(command.clone()),
        stderr_tail: stderr_tail.filter(|s| !s.is_empty()),
    };
    match host.run(nvcc, &["--version"], host.command_timeout) {
        Err(e) => failed(e.to_string(), None),
        Ok(out) if out.timed_out => failed(
            format!("timed out after {:?}", host.command_timeout),
            Some(out.stderr_tail()),
        ),
        Ok(out) if !out.success() => failed(
            match (out.status, out.signal) {
                (Some(code), _) => format!("exited with status {code}"),
                (None, Some(sig)) => format!("killed by signal {sig}"),
                (None, None) => "ended abnormally".to_string(),
            },
            Some(out.stderr_tail()),
        ),
        Ok(out) => match parse_nvcc_version(&out.stdout) {
            Some(v) => Fact::known(v),
            None => failed(
                "no \"Cuda compilation tools\" line in the output".to_string(),
                Some(crate::host::tail_lines(&out.stdout, 6)),
            ),
        },
    }
}

/// From `version.json` (CUDA >= 11.1):
/// `{"cuda": {"name": "CUDA SDK", "version": "12.4.1"}, "cuda_nvcc": {"name": "CUDA NVCC", "version": "12.4.131"}, ...}`.
/// Prefers the nvcc component (what `nvcc --version` says); runfile installs write the
/// SDK version with a date as the third number ("11.8.20220929"), which is dropped.
pub fn parse_version_json(text: &str) -> Result<String, String> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
    let component = |key: &str| {
        value
            .get(key)
            .and_then(|c| c.get("version"))
            .and_then(serde_json::Value::as_str)
            .filter(|v| is_dotted_version(v))
    };
    if let Some(v) = component("cuda_nvcc").or_else(|| component("cuda_cudart")) {
        return Ok(v.to_string());
    }
    component("cuda")
        .map(strip_date_component)
        .ok_or_else(|| "no version for cuda, cuda_nvcc or cuda_cudart".to_string())
}

/// From `version.txt` (CUDA <= 11.0): `CUDA Version 10.2.89`, possibly followed by
/// `CUDA Patch Version 10.2.1` lines.
pub fn parse_version_txt(text: &str) -> Result<String, String> {
    text.lines()
        .find_map(|l| l.trim().strip_prefix("CUDA Version "))
        .map(str::trim)
        .filter(|v| is_dotted_version(v))
        .map(str::to_string)
        .ok_or_else(|| "no \"CUDA Version x.y.z\" line".to_string())
}

/// From `nvcc --version`: `Cuda compilation tools, release 12.4, V12.4.131`; the
/// `V` number if there, else the release.
pub fn parse_nvcc_version(output: &str) -> Option<String> {
    let line = output
        .lines()
        .find(|l| l.contains("Cuda compilation tools"))?;
    let full = line
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter_map(|w| w.strip_prefix('V'))
        .find(|v| is_dotted_version(v));
    if let Some(v) = full {
        return Some(v.to_string());
    }
    let release = line.split_once("release ")?.1;
    let release = release
        .split(|c: char| c == ',' || c.is_whitespace())
        .next()?;
    is_dotted_version(release).then(|| release.to_string())
}

/// "12.4", "12.4.131": digits and dots, at least two numbers.
fn is_dotted_version(v: &str) -> bool {
    !v.is_empty()
        && v.chars().all(|c| c.is_ascii_digit() || c == '.')
        && DottedVersion::parse(v).is_some_and(|d| d.parts().len() >= 2)
}

/// "11.8.20220929" -> "11.8": a component of eight or more digits is a build date.
fn strip_date_component(v: &str) -> String {
    v.split('.')
        .take_while(|p| p.len() < 8)
        .collect::<Vec<_>>()
        .join(".")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;
    use std::time::Duration;

    // version.json heads as NVIDIA writes them (11.8 runfile, 12.4 packages, 13.0).
    const JSON_11_8: &str = r#"{
   "cuda" : {
      "name" : "CUDA SDK",
      "version" : "11.8.20220929"
   },
   "cuda_cudart" : {
      "name" : "CUDA Runtime (cudart)",
      "version" : "11.8.89"
   },
   "cuda_nvcc" : {
      "name" : "CUDA NVCC",
      "version" : "11.8.89"
   },
   "nvidia_driver" : {
      "name" : "NVIDIA Linux Driver",
      "version" : "520.61.05"
   }
}"#;
    const JSON_12_4: &str = r#"{
   "cuda" : {
      "name" : "CUDA SDK",
      "version" : "12.4.1"
   },
   "cuda_cccl" : {
      "name" : "CUDA C++ Core Compute Libraries",
      "version" : "12.4.127"
   },
   "cuda_nvcc" : {
      "name" : "CUDA NVCC",
      "version" : "12.4.131"
   }
}"#;
    const JSON_13_0: &str = r#"{
   "cuda" : {
      "name" : "CUDA SDK",
      "version" : "13.0.2"
   },
   "cuda_crt" : {
      "name" : "CUDA crt Compiler for CUDA applications",
      "version" : "13.0.88"
   },
   "cuda_nvcc" : {
      "name" : "CUDA NVCC",
      "version" : "13.0.88"
   }
}"#;
    const TXT_10_2: &str = "CUDA Version 10.2.89\n";
    const TXT_10_2_PATCHED: &str =
        "CUDA Version 10.2.89\nCUDA Patch Version 10.2.1\nCUDA Patch Version 10.2.2\n";

    const NVCC_10_2: &str = "nvcc: NVIDIA (R) Cuda compiler driver\nCopyright (c) 2005-2019 NVIDIA Corporation\nBuilt on Wed_Oct_23_19:24:38_PDT_2019\nCuda compilation tools, release 10.2, V10.2.89\n";
    const NVCC_11_8: &str = "nvcc: NVIDIA (R) Cuda compiler driver\nCopyright (c) 2005-2022 NVIDIA Corporation\nBuilt on Wed_Sep_21_10:33:58_PDT_2022\nCuda compilation tools, release 11.8, V11.8.89\nBuild cuda_11.8.r11.8/compiler.31833905_0\n";
    const NVCC_12_4: &str = "nvcc: NVIDIA (R) Cuda compiler driver\nCopyright (c) 2005-2024 NVIDIA Corporation\nBuilt on Thu_Mar_28_02:18:24_PDT_2024\nCuda compilation tools, release 12.4, V12.4.131\nBuild cuda_12.4.r12.4/compiler.34097967_0\n";
    const NVCC_13_0: &str = "nvcc: NVIDIA (R) Cuda compiler driver\nCopyright (c) 2005-2025 NVIDIA Corporation\nBuilt on Wed_Aug_20_01:58:59_PM_PDT_2025\nCuda compilation tools, release 13.0, V13.0.88\nBuild cuda_13.0.r13.0/compiler.36424714_0\n";

    #[test]
    fn version_json_samples() {
        for (text, want) in [
            (JSON_11_8, "11.8.89"),
            (JSON_12_4, "12.4.131"),
            (JSON_13_0, "13.0.88"),
            (
                r#"{"cuda": {"name": "CUDA SDK", "version": "12.6.20241114"}}"#,
                "12.6",
            ),
            (
                r#"{"cuda": {"name": "CUDA SDK", "version": "11.5.2"}}"#,
                "11.5.2",
            ),
            (
                r#"{"cuda_nvcc": {"version": "garbage"}, "cuda": {"version": "12.1.1"}}"#,
                "12.1.1",
            ),
        ] {
            assert_eq!(parse_version_json(text).as_deref(), Ok(want), "{text}");
        }
        for bad in [
            "",
            "{",
            "[]",
            "{\"cuda\": 12}",
            "{\"cuda\": {\"version\": \"twelve\"}}",
            "\u{0}\u{fffd}",
        ] {
            assert!(parse_version_json(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn version_txt_samples() {
        assert_eq!(parse_version_txt(TXT_10_2).as_deref(), Ok("10.2.89"));
        assert_eq!(
            parse_version_txt(TXT_10_2_PATCHED).as_deref(),
            Ok("10.2.89")
        );
        assert_eq!(
            parse_version_txt("CUDA Version 9.0.176").as_deref(),
            Ok("9.0.176")
        );
        for bad in ["", "CUDA Version ", "CUDA Version ten", "garbage\n"] {
            assert!(parse_version_txt(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn nvcc_outputs() {
        for (text, want) in [
            (NVCC_10_2, Some("10.2.89")),
            (NVCC_11_8, Some("11.8.89")),
            (NVCC_12_4, Some("12.4.131")),
            (NVCC_13_0, Some("13.0.88")),
            ("Cuda compilation tools, release 12.4\n", Some("12.4")),
            ("nvcc fatal   : Unknown option '--version'\n", None),
            ("Cuda compilation tools, release ?, V?\n", None),
            ("", None),
            ("\u{fffd}\u{0}", None),
        ] {
            assert_eq!(parse_nvcc_version(text).as_deref(), want, "{text}");
        }
    }

    fn write(root: &Path, path: &str, text: &str) {
        let p = root.join(path.trim_start_matches('/'));
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    /// A fake `nvcc` printing `output` (or doing whatever `script` says).
    fn fake_nvcc(root: &Path, toolkit: &str, script: &str) {
        let path = format!("{toolkit}/bin/nvcc");
        write(root, &path, &format!("#!/bin/sh\n{script}\n"));
        let p = root.join(path.trim_start_matches('/'));
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    fn printing(output: &str) -> String {
        format!("cat <<'EOF'\n{output}EOF")
    }

    fn link(root: &Path, target: &str, at: &str) {
        std::os::unix::fs::symlink(target, root.join(at.trim_start_matches('/'))).unwrap();
    }

    fn by_root<'a>(f: &'a ToolkitFacts, root: &str) -> &'a Toolkit {
        f.toolkits.iter().find(|t| t.root == root).unwrap()
    }

    #[test]
    fn six_hung_nvccs_cost_one_time_limit_and_fifos_do_not_hang() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for minor in 0..6 {
            fake_nvcc(root, &format!("/usr/local/cuda-12.{minor}"), "sleep 30");
        }
        // A FIFO where version.json should be: an error, then nvcc.
        nix::unistd::mkfifo(
            &root.join("usr/local/cuda-12.0/version.json"),
            nix::sys::stat::Mode::S_IRWXU,
        )
        .unwrap();
        let mut host = Host::fixture(root, &[("PATH", "/usr/bin")]);
        host.command_timeout = std::time::Duration::from_millis(1500);
        let start = std::time::Instant::now();
        let f = gather(&host);
        let took = start.elapsed();
        assert!(took < std::time::Duration::from_secs(6), "{took:?}");
        assert_eq!(f.toolkits.len(), 6);
        for t in &f.toolkits {
            assert!(
                matches!(&t.version, Fact::Failed { error, .. } if error.contains("timed out")),
                "{t:?}"
            );
        }
    }

    #[test]
    fn several_toolkits_with_links_and_path() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        // 12.4 from packages (version.json), 11.8 runfile (version.json), 10.2
        // (version.txt), 13.0 with only nvcc, and a leftover directory with nothing.
        write(root, "/usr/local/cuda-12.4/version.json", JSON_12_4);
        fake_nvcc(
            root,
            "/usr/local/cuda-12.4",
            "echo should not run >&2; exit 1",
        );
        write(root, "/usr/local/cuda-11.8/version.json", JSON_11_8);
        fake_nvcc(root, "/usr/local/cuda-11.8", &printing(NVCC_11_8));
        write(root, "/usr/local/cuda-10.2/version.txt", TXT_10_2);
        fake_nvcc(root, "/opt/cuda", &printing(NVCC_13_0));
        std::fs::create_dir_all(root.join("usr/local/cuda-11.7/lib64")).unwrap();
        link(root, "/usr/local/cuda-12.4", "/usr/local/cuda");
        link(root, "cuda-12.4", "/usr/local/cuda-12");
        let host = Host::fixture(
            root,
            &[
                ("PATH", "/usr/local/cuda-11.8/bin:/usr/bin"),
                ("CUDA_HOME", "/usr/local/cuda"),
            ],
        );
        let f = gather(&host);

        assert_eq!(f.path_nvcc.as_deref(), Some("/usr/local/cuda-11.8"));
        assert_eq!(f.cuda_home.as_deref(), Some("/usr/local/cuda-12.4"));
        assert_eq!(f.usr_local_cuda.as_deref(), Some("/usr/local/cuda-12.4"));
        let roots: Vec<&str> = f.toolkits.iter().map(|t| t.root.as_str()).collect();
        assert_eq!(
            roots,
            [
                "/usr/local/cuda-11.8",
                "/usr/local/cuda-12.4",
                "/usr/local/cuda-10.2",
                "/usr/local/cuda-11.7",
                "/opt/cuda",
            ]
        );

        let t = by_root(&f, "/usr/local/cuda-12.4");
        assert_eq!(
            t.found_via,
            ["CUDA_HOME", "/usr/local/cuda", "/usr/local/cuda-*"]
        );
        assert_eq!(t.version, Fact::known("12.4.131".to_string()));
        assert_eq!(t.version_source.as_deref(), Some("version.json"));
        assert_eq!(t.nvcc.as_deref(), Some("/usr/local/cuda-12.4/bin/nvcc"));

        let t = by_root(&f, "/usr/local/cuda-11.8");
        assert_eq!(t.found_via, ["PATH", "/usr/local/cuda-*"]);
        assert_eq!(t.version.value().map(String::as_str), Some("11.8.89"));

        let t = by_root(&f, "/usr/local/cuda-10.2");
        assert_eq!(t.version.value().map(String::as_str), Some("10.2.89"));
        assert_eq!(t.version_source.as_deref(), Some("version.txt"));
        assert_eq!(t.nvcc, None);

        let t = by_root(&f, "/opt/cuda");
        assert_eq!(t.version.value().map(String::as_str), Some("13.0.88"));
        assert_eq!(t.version_source.as_deref(), Some("nvcc --version"));
        assert_eq!(t.found_via, ["/opt/cuda"]);

        let t = by_root(&f, "/usr/local/cuda-11.7");
        assert!(matches!(t.version, Fact::Missing { .. }));
        assert!(t
            .version
            .reason()
            .unwrap()
            .contains("no version.json, version.txt or bin/nvcc"));
        assert_eq!(t.version_source, None);
    }

    #[test]
    fn nvcc_only_toolkits_of_each_release() {
        for (output, want) in [
            (NVCC_10_2, "10.2.89"),
            (NVCC_11_8, "11.8.89"),
            (NVCC_12_4, "12.4.131"),
            (NVCC_13_0, "13.0.88"),
        ] {
            let dir = tempfile::tempdir().unwrap();
            fake_nvcc(dir.path(), "/opt/cuda", &printing(output));
            let f = gather(&Host::fixture(dir.path(), &[("PATH", "/opt/cuda/bin")]));
            assert_eq!(f.toolkits.len(), 1);
            assert_eq!(f.toolkits[0].found_via, ["PATH", "/opt/cuda"]);
            assert_eq!(
                f.toolkits[0].version.value().map(String::as_str),
                Some(want)
            );
        }
    }

    #[test]
    fn a_hanging_nvcc_times_out() {
        let dir = tempfile::tempdir().unwrap();
        fake_nvcc(dir.path(), "/usr/local/cuda-12.4", "sleep 30");
        let mut host = Host::fixture(dir.path(), &[]);
        host.command_timeout = Duration::from_millis(200);
        let start = std::time::Instant::now();
        let f = gather(&host);
        assert!(start.elapsed() < Duration::from_secs(5));
        let v = &f.toolkits[0].version;
        assert!(matches!(v, Fact::Failed { .. }), "{v:?}");
        if let Fact::Failed { error, command, .. } = v {
            assert!(error.contains("timed out"), "{error}");
            assert!(command
                .as_deref()
                .unwrap()
                .ends_with("/usr/local/cuda-12.4/bin/nvcc --version"));
        }
    }

    #[test]
    fn a_failing_or_babbling_nvcc_is_failed() {
        let dir = tempfile::tempdir().unwrap();
        fake_nvcc(
            dir.path(),
            "/usr/local/cuda-12.4",
            "echo 'libcudart missing' >&2; exit 127",
        );
        fake_nvcc(
            dir.path(),
            "/usr/local/cuda-12.5",
            "printf '\\377\\376garbage'",
        );
        let f = gather(&Host::fixture(dir.path(), &[]));
        let v = &f.toolkits[0].version;
        assert!(matches!(v, Fact::Failed { .. }), "{v:?}");
        if let Fact::Failed {
            error, stderr_tail, ..
        } = v
        {
            assert_eq!(error, "exited with status 127");
            assert_eq!(stderr_tail.as_deref(), Some("libcudart missing"));
        }
        assert!(f.toolkits[1]
            .version
            .reason()
            .unwrap()
            .contains("Cuda compilation tools"));
    }

    #[test]
    fn malformed_version_files_fall_through() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(root, "/usr/local/cuda-12.4/version.json", "{ not json");
        write(
            root,
            "/usr/local/cuda-12.4/version.txt",
            "CUDA Version 12.4.1\n",
        );
        write(root, "/usr/local/cuda-12.3/version.json", "\u{fffd}\u{0}");
        let f = gather(&Host::fixture(root, &[]));
        let t = by_root(&f, "/usr/local/cuda-12.4");
        assert_eq!(t.version.value().map(String::as_str), Some("12.4.1"));
        assert_eq!(t.version_source.as_deref(), Some("version.txt"));
        let t = by_root(&f, "/usr/local/cuda-12.3");
        assert!(
            t.version.reason().unwrap().contains("not valid JSON"),
            "{:?}",
            t.version
        );
    }

    #[test]
    fn broken_and_bogus_locations() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("usr/local")).unwrap();
        link(root, "/usr/local/cuda-12.1", "/usr/local/cuda");
        write(root, "/etc/profile", "not a toolkit");
        let host = Host::fixture(
            root,
            &[
                ("CUDA_HOME", "/opt/nowhere"),
                ("CUDA_PATH", "relative/cuda"),
                ("PATH", ""),
            ],
        );
        let f = gather(&host);
        assert_eq!(f.path_nvcc, None);
        assert_eq!(f.cuda_home.as_deref(), Some("/opt/nowhere"));
        assert_eq!(f.usr_local_cuda.as_deref(), Some("/usr/local/cuda"));
        let reasons: Vec<&str> = f
            .toolkits
            .iter()
            .map(|t| t.version.reason().unwrap())
            .collect();
        assert_eq!(
            reasons,
            [
                "/opt/nowhere does not exist",
                "CUDA_PATH=relative/cuda is not an absolute path",
                "/usr/local/cuda is a broken link to /usr/local/cuda-12.1",
            ]
        );

        let host = Host::fixture(root, &[("CUDA_HOME", "/etc/profile")]);
        let f = gather(&host);
        assert_eq!(
            f.toolkits[0].version.reason(),
            Some("/etc/profile is not a directory")
        );
    }

    #[test]
    fn nvcc_linked_into_usr_bin_counts_for_its_toolkit() {
        use std::os::unix::ffi::OsStrExt;
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(root, "/usr/local/cuda-12.4/version.json", JSON_12_4);
        fake_nvcc(root, "/usr/local/cuda-12.4", &printing(NVCC_12_4));
        std::fs::create_dir_all(root.join("usr/bin")).unwrap();
        // Relative: Host::which follows links with the real root, not the fixture's.
        link(root, "../local/cuda-12.4/bin/nvcc", "/usr/bin/nvcc");
        // A directory whose name is not UTF-8 is skipped, not a panic.
        let odd = std::ffi::OsStr::from_bytes(b"cuda-\xff");
        std::fs::create_dir_all(root.join("usr/local").join(odd)).unwrap();
        let f = gather(&Host::fixture(root, &[("PATH", "/usr/bin")]));
        assert_eq!(f.path_nvcc.as_deref(), Some("/usr/local/cuda-12.4"));
        assert_eq!(f.toolkits.len(), 1);
        assert_eq!(f.toolkits[0].found_via, ["PATH", "/usr/local/cuda-*"]);
    }

    #[test]
    fn nothing_installed() {
        let dir = tempfile::tempdir().unwrap();
        let f = gather(&Host::fixture(dir.path(), &[("PATH", "/usr/bin:/bin")]));
        assert_eq!(
            f,
            ToolkitFacts {
                toolkits: vec![],
                path_nvcc: None,
                cuda_home: None,
                usr_local_cuda: None
            }
        );
    }
}
