//! The user-space driver library files on disk (`libnvidia-ml.so.X.Y.Z`,
//! `libcuda.so.X.Y.Z`), found without loading them, so that a kernel/user-space
//! version mismatch is caught even when NVML cannot say why.
//!
//! The folders are walked in the dynamic loader's order (`LD_LIBRARY_PATH`, then
//! `/etc/ld.so.conf` with its includes, then the built-in folders) so that "which file
//! would `dlopen("libcuda.so.1")` get" is answered without running `ldconfig` or loading
//! anything. Folders where drivers live in containers, WSL and cuda-compat packages are
//! searched after them; files there are marked as off the loader's path unless a loader
//! folder names them too.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::host::Host;

pub const NVML_LIBRARY: &str = "libnvidia-ml";
pub const CUDA_LIBRARY: &str = "libcuda";
pub const NVML_SONAME: &str = "libnvidia-ml.so.1";
pub const CUDA_SONAME: &str = "libcuda.so.1";

/// ld.so.conf may include files that include others; a loop must not hang us.
const MAX_INCLUDE_DEPTH: usize = 8;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DriverLibFile {
    /// Machine path of the versioned file, e.g. "/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15".
    pub path: String,
    /// "libnvidia-ml" or "libcuda".
    pub library: String,
    /// Version from the file name, e.g. "550.54.15".
    pub version: String,
    /// True when the file sits in a cuda-compat folder (forward compatibility package).
    pub compat: bool,
    /// False when the file's folder is not one the dynamic loader searches (a container,
    /// WSL or cuda-compat folder that neither `LD_LIBRARY_PATH` nor ld.so.conf names):
    /// such a file is installed but no program will load it.
    #[serde(default = "default_true")]
    pub on_loader_path: bool,
}

fn default_true() -> bool {
    true
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
pub struct DriverLibFacts {
    /// Folders searched: the dynamic loader's, in its order, then the container, WSL
    /// and cuda-compat folders (see `DriverLibFile::on_loader_path`).
    pub searched: Vec<String>,
    pub files: Vec<DriverLibFile>,
    /// Where `libnvidia-ml.so.1` resolves (the file the loader would open), if found.
    pub nvml_soname: Option<String>,
    /// Where `libcuda.so.1` resolves, if found.
    pub cuda_soname: Option<String>,
    /// A link-time stub `libcuda.so` (the CUDA toolkit's `lib64/stubs/libcuda.so`) that is
    /// the first `libcuda.so` in the loader's folders: a program that loads libcuda by
    /// its unversioned name gets CUDA_ERROR_STUB_LIBRARY (34) while PyTorch, which loads
    /// `libcuda.so.1`, works.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cuda_stub: Option<String>,
}

impl DriverLibFacts {
    /// The versioned files of one library ("libcuda" or "libnvidia-ml").
    pub fn files_of<'a>(&'a self, library: &'a str) -> impl Iterator<Item = &'a DriverLibFile> {
        self.files.iter().filter(move |f| f.library == library)
    }
}

/// One folder to search and whether the loader itself would look there.
#[derive(Debug, Clone, PartialEq, Eq)]
struct SearchDir {
    /// As configured (what reports show).
    path: PathBuf,
    /// With links resolved inside the root: a fixture's absolute links must not be
    /// followed on the machine itself.
    real: PathBuf,
    on_loader_path: bool,
}

pub fn gather(host: &Host) -> DriverLibFacts {
    let dirs = search_dirs(host);
    // Folders are unique by their resolved path, so each file is listed once.
    let mut facts = DriverLibFacts {
        searched: dirs.iter().map(|d| d.path.display().to_string()).collect(),
        files: dirs
            .iter()
            .flat_map(|d| versioned_files_in(host, d))
            .collect(),
        ..DriverLibFacts::default()
    };
    let loader_dirs: Vec<&SearchDir> = dirs.iter().filter(|d| d.on_loader_path).collect();
    facts.nvml_soname = resolve_soname(host, &loader_dirs, NVML_SONAME);
    facts.cuda_soname = resolve_soname(host, &loader_dirs, CUDA_SONAME);
    facts.cuda_stub = resolve_soname(host, &loader_dirs, CUDA_UNVERSIONED).filter(|p| is_stub(p));
    facts
}

/// The development name of libcuda, which some loaders try first.
pub const CUDA_UNVERSIONED: &str = "libcuda.so";

/// A driver's `libcuda.so` links to its versioned file (`libcuda.so.550.54.15`); the
/// toolkit's stub is a plain file of that name, in a `stubs` folder.
pub fn is_stub(resolved: &str) -> bool {
    let path = Path::new(resolved);
    path.file_name().is_some_and(|n| n == CUDA_UNVERSIONED)
        || path.components().any(|c| c.as_os_str() == "stubs")
}

/// Existing folders in loader order, each once (a merged-/usr `/lib` is `/usr/lib`).
fn search_dirs(host: &Host) -> Vec<SearchDir> {
    let loader = ld_library_path(host)
        .into_iter()
        .chain(ld_so_conf_dirs(host))
        .chain(default_dirs());
    let extra = extra_dirs(host);
    let mut seen = BTreeSet::new();
    let mut out: Vec<SearchDir> = Vec::new();
    let candidates = loader
        .map(|path| (path, true))
        .chain(extra.into_iter().map(|path| (path, false)));
    for (path, on_loader_path) in candidates {
        if !path.is_absolute() {
            continue;
        }
        let Some(canonical) = host.canonicalize(&path) else {
            continue;
        };
        if host.path(&canonical).is_dir() && seen.insert(canonical.clone()) {
            out.push(SearchDir {
                path,
                real: canonical,
                on_loader_path,
            });
        }
    }
    out
}

/// Relative and empty entries mean "the current folder" to the loader; a doctor run from
/// some folder says nothing about where programs run, so they are skipped.
fn ld_library_path(host: &Host) -> Vec<PathBuf> {
    host.var("LD_LIBRARY_PATH")
        .unwrap_or("")
        .split([':', ';'])
        .filter(|p| p.starts_with('/'))
        .map(PathBuf::from)
        .collect()
}

fn ld_so_conf_dirs(host: &Host) -> Vec<PathBuf> {
    let mut out = Vec::new();
    read_ld_conf(host, Path::new("/etc/ld.so.conf"), 0, &mut out);
    out
}

fn read_ld_conf(host: &Host, file: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    if depth > MAX_INCLUDE_DEPTH {
        return;
    }
    let Ok(text) = host.read_string(file) else {
        return;
    };
    for line in text.lines() {
        match parse_ld_conf_line(line) {
            LdConfLine::Include(pattern) => {
                let base = file.parent().unwrap_or(Path::new("/etc"));
                for included in expand_glob(host, &base.join(pattern)) {
                    read_ld_conf(host, &included, depth + 1, out);
                }
            }
            LdConfLine::Dirs(dirs) => out.extend(dirs),
            LdConfLine::Nothing => {}
        }
    }
}

#[derive(Debug, PartialEq, Eq)]
enum LdConfLine {
    Include(String),
    Dirs(Vec<PathBuf>),
    Nothing,
}

/// ldconfig's syntax: `#` comments, `include GLOB`, `hwcap ...` (ignored), and folders
/// separated by blanks, commas or colons, optionally suffixed `=TYPE`.
fn parse_ld_conf_line(line: &str) -> LdConfLine {
    let line = line.split('#').next().unwrap_or("").trim();
    if line.is_empty() || line.starts_with("hwcap") {
        return LdConfLine::Nothing;
    }
    if let Some(rest) = line.strip_prefix("include") {
        if rest.starts_with([' ', '\t']) {
            return LdConfLine::Include(rest.trim().to_string());
        }
    }
    let dirs = line
        .split(|c: char| c.is_whitespace() || c == ',' || c == ':')
        .filter(|s| !s.is_empty())
        .map(|s| s.split('=').next().unwrap_or(s))
        .filter(|s| s.starts_with('/'))
        .map(PathBuf::from)
        .collect();
    LdConfLine::Dirs(dirs)
}

/// Expands `*`/`?` in the last component (all that ld.so.conf files use), sorted like
/// glob(3).
fn expand_glob(host: &Host, pattern: &Path) -> Vec<PathBuf> {
    let Some(name) = pattern.file_name().and_then(|n| n.to_str()) else {
        return Vec::new();
    };
    let Some(parent) = pattern.parent() else {
        return Vec::new();
    };
    if !name.contains(['*', '?']) {
        return vec![pattern.to_path_buf()];
    }
    host.read_dir(parent)
        .into_iter()
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| !n.starts_with('.') && wildcard_match(name, n))
        })
        .collect()
}

fn wildcard_match(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0, 0);
    let (mut star, mut mark) = (None, 0);
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ti;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ti = mark;
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

/// glibc's built-in trusted folders for this architecture, multiarch first (Debian),
/// then lib64 (Red Hat), then the plain ones.
fn default_dirs() -> Vec<PathBuf> {
    let triplet = match std::env::consts::ARCH {
        "x86_64" => Some("x86_64-linux-gnu"),
        "aarch64" => Some("aarch64-linux-gnu"),
        _ => None,
    };
    let mut out = Vec::new();
    if let Some(t) = triplet {
        out.push(PathBuf::from(format!("/lib/{t}")));
        out.push(PathBuf::from(format!("/usr/lib/{t}")));
    }
    for d in ["/lib64", "/usr/lib64", "/lib", "/usr/lib"] {
        out.push(PathBuf::from(d));
    }
    out
}

/// Where drivers are put by the NVIDIA container toolkit, WSL and cuda-compat packages.
fn extra_dirs(host: &Host) -> Vec<PathBuf> {
    let mut out = vec![
        PathBuf::from("/usr/local/nvidia/lib64"),
        PathBuf::from("/usr/local/nvidia/lib"),
        PathBuf::from("/usr/lib/wsl/lib"),
    ];
    out.extend(
        host.read_dir("/usr/local")
            .into_iter()
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("cuda"))
            })
            .map(|p| p.join("compat")),
    );
    out
}

fn is_compat_dir(dir: &Path) -> bool {
    dir.file_name().is_some_and(|n| n == "compat")
        && dir
            .parent()
            .and_then(|p| p.file_name())
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("cuda"))
}

fn versioned_files_in(host: &Host, dir: &SearchDir) -> Vec<DriverLibFile> {
    let compat = is_compat_dir(&dir.path) || is_compat_dir(&dir.real);
    host.read_dir(&dir.real)
        .into_iter()
        .filter_map(|real| {
            let name = real.file_name()?.to_str()?;
            let (library, version) = parse_versioned_name(name)?;
            if !is_file(host, &real) {
                return None;
            }
            Some(DriverLibFile {
                path: dir.path.join(name).display().to_string(),
                library: library.to_string(),
                version,
                compat,
                on_loader_path: dir.on_loader_path,
            })
        })
        .collect()
}

/// `libcuda.so.550.54.15` -> ("libcuda", "550.54.15"). The soname links (`.so.1`) and
/// names that are not all dotted numbers (`libcuda.so.abc`, `libcuda.so.1.bak`) are not
/// versioned driver files.
pub fn parse_versioned_name(name: &str) -> Option<(&'static str, String)> {
    [NVML_LIBRARY, CUDA_LIBRARY].into_iter().find_map(|lib| {
        let version = name.strip_prefix(lib)?.strip_prefix(".so.")?;
        let parts: Vec<&str> = version.split('.').collect();
        let numeric = parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
        (numeric && parts.len() >= 2).then(|| (lib, version.to_string()))
    })
}

/// The first loader folder holding `soname`, followed to the file it links to. A dangling
/// link is skipped, as the loader skips it.
fn resolve_soname(host: &Host, dirs: &[&SearchDir], soname: &str) -> Option<String> {
    dirs.iter().find_map(|dir| {
        let target = host.canonicalize(dir.real.join(soname))?;
        host.path(&target)
            .is_file()
            .then(|| target.display().to_string())
    })
}

/// Follows links inside the root, so a fixture's absolute links do not reach the machine.
fn is_file(host: &Host, path: &Path) -> bool {
    host.canonicalize(path)
        .is_some_and(|real| host.path(real).is_file())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::os::unix::fs::symlink;

    fn touch(root: &Path, machine: &str) {
        let p = root.join(machine.trim_start_matches('/'));
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, b"\x7fELF").unwrap();
    }

    fn link(root: &Path, target: &str, machine: &str) {
        let p = root.join(machine.trim_start_matches('/'));
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        symlink(target, p).unwrap();
    }

    fn write(root: &Path, machine: &str, text: &str) {
        let p = root.join(machine.trim_start_matches('/'));
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    }

    fn multiarch() -> String {
        let t = match std::env::consts::ARCH {
            "aarch64" => "aarch64-linux-gnu",
            _ => "x86_64-linux-gnu",
        };
        format!("/usr/lib/{t}")
    }

    #[test]
    fn versioned_names() {
        assert_eq!(
            parse_versioned_name("libcuda.so.550.54.15"),
            Some(("libcuda", "550.54.15".to_string()))
        );
        assert_eq!(
            parse_versioned_name("libnvidia-ml.so.535.183.01"),
            Some(("libnvidia-ml", "535.183.01".to_string()))
        );
        for garbage in [
            "libcuda.so",
            "libcuda.so.1",
            "libcuda.so.abc",
            "libcuda.so.1.bak",
            "libcuda.so.550..15",
            "libcudart.so.12.4.1",
            "libnvidia-ml.so.",
            "libcuda.so.550.54.15 ",
        ] {
            assert_eq!(parse_versioned_name(garbage), None, "{garbage}");
        }
    }

    #[test]
    fn finds_versioned_files_and_resolves_sonames() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let lib = multiarch();
        touch(root, &format!("{lib}/libcuda.so.550.54.15"));
        touch(root, &format!("{lib}/libnvidia-ml.so.550.54.15"));
        touch(root, &format!("{lib}/libcuda.so.abc"));
        link(root, "libcuda.so.550.54.15", &format!("{lib}/libcuda.so.1"));
        link(
            root,
            "libnvidia-ml.so.550.54.15",
            &format!("{lib}/libnvidia-ml.so.1"),
        );
        let facts = gather(&Host::fixture(root, &[]));
        assert!(facts.searched.contains(&lib));
        assert_eq!(facts.files.len(), 2, "{facts:?}");
        assert!(facts
            .files
            .iter()
            .all(|f| f.version == "550.54.15" && !f.compat && f.on_loader_path));
        assert_eq!(
            facts.cuda_soname.as_deref(),
            Some(format!("{lib}/libcuda.so.550.54.15").as_str())
        );
        assert_eq!(
            facts.nvml_soname.as_deref(),
            Some(format!("{lib}/libnvidia-ml.so.550.54.15").as_str())
        );
    }

    #[test]
    fn empty_root_finds_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let facts = gather(&Host::fixture(dir.path(), &[]));
        assert_eq!(facts, DriverLibFacts::default());
    }

    #[test]
    fn ld_library_path_comes_first() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let lib = multiarch();
        touch(root, &format!("{lib}/libcuda.so.550.54.15"));
        link(root, "libcuda.so.550.54.15", &format!("{lib}/libcuda.so.1"));
        touch(root, "/opt/drv/libcuda.so.535.183.01");
        link(root, "libcuda.so.535.183.01", "/opt/drv/libcuda.so.1");
        touch(root, "/opt/other/libnvidia-ml.so.535.183.01");
        let host = Host::fixture(
            root,
            &[(
                "LD_LIBRARY_PATH",
                "relative/dir::/opt/drv:/opt/missing:/opt/other",
            )],
        );
        let facts = gather(&host);
        assert_eq!(facts.searched[0], "/opt/drv");
        assert_eq!(facts.searched[1], "/opt/other");
        assert_eq!(
            facts.cuda_soname.as_deref(),
            Some("/opt/drv/libcuda.so.535.183.01")
        );
        assert_eq!(facts.files[0].path, "/opt/drv/libcuda.so.535.183.01");
        assert_eq!(facts.nvml_soname, None);
    }

    #[test]
    fn ld_so_conf_includes_are_followed_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        write(
            root,
            "/etc/ld.so.conf",
            "# comment\ninclude /etc/ld.so.conf.d/*.conf\n/opt/last\n",
        );
        write(root, "/etc/ld.so.conf.d/b.conf", "/opt/b # trailing\n");
        write(
            root,
            "/etc/ld.so.conf.d/a.conf",
            "hwcap 0 nosegneg\n/opt/a1, /opt/a2:/opt/a3=libc6\ninclude nested/*.conf\n",
        );
        write(root, "/etc/ld.so.conf.d/nested/x.conf", "/opt/nested\n");
        write(root, "/etc/ld.so.conf.d/ignored.txt", "/opt/ignored\n");
        // An include loop must end.
        write(
            root,
            "/etc/ld.so.conf.d/nested/loop.conf",
            "include /etc/ld.so.conf\n",
        );
        for d in ["a1", "a2", "a3", "nested", "b", "last", "ignored"] {
            fs::create_dir_all(root.join("opt").join(d)).unwrap();
        }
        let facts = gather(&Host::fixture(root, &[]));
        let opts: Vec<&str> = facts
            .searched
            .iter()
            .map(String::as_str)
            .filter(|s| s.starts_with("/opt"))
            .collect();
        assert_eq!(
            opts,
            [
                "/opt/a1",
                "/opt/a2",
                "/opt/a3",
                "/opt/nested",
                "/opt/b",
                "/opt/last"
            ]
        );
    }

    #[test]
    fn compat_and_container_folders_are_off_the_loader_path() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        touch(root, "/usr/local/cuda-12.4/compat/libcuda.so.550.54.15");
        link(
            root,
            "libcuda.so.550.54.15",
            "/usr/local/cuda-12.4/compat/libcuda.so.1",
        );
        touch(root, "/usr/local/nvidia/lib64/libnvidia-ml.so.535.183.01");
        link(
            root,
            "libnvidia-ml.so.535.183.01",
            "/usr/local/nvidia/lib64/libnvidia-ml.so.1",
        );
        let facts = gather(&Host::fixture(root, &[]));
        let compat = facts.files_of(CUDA_LIBRARY).next().unwrap();
        assert!(compat.compat);
        assert!(!compat.on_loader_path);
        let nvml = facts.files_of(NVML_LIBRARY).next().unwrap();
        assert!(!nvml.compat);
        assert!(!nvml.on_loader_path);
        // Installed but not where the loader looks: no soname resolves.
        assert_eq!(facts.cuda_soname, None);
        assert_eq!(facts.nvml_soname, None);

        // Named in LD_LIBRARY_PATH, the compat folder is live and still marked compat.
        let host = Host::fixture(root, &[("LD_LIBRARY_PATH", "/usr/local/cuda-12.4/compat")]);
        let facts = gather(&host);
        let compat = facts.files_of(CUDA_LIBRARY).next().unwrap();
        assert!(compat.compat && compat.on_loader_path);
        assert_eq!(
            facts.cuda_soname.as_deref(),
            Some("/usr/local/cuda-12.4/compat/libcuda.so.550.54.15")
        );
    }

    #[test]
    fn merged_usr_folders_are_searched_once() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        touch(root, "/usr/lib/libcuda.so.550.54.15");
        link(root, "/usr/lib", "/lib");
        let facts = gather(&Host::fixture(root, &[]));
        assert_eq!(facts.files.len(), 1);
        assert_eq!(
            facts.searched.iter().filter(|s| s.ends_with("lib")).count(),
            1
        );
    }

    #[test]
    fn dangling_soname_links_are_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        link(root, "libcuda.so.999.0", "/opt/a/libcuda.so.1");
        touch(root, "/opt/b/libcuda.so.550.54.15");
        link(root, "libcuda.so.550.54.15", "/opt/b/libcuda.so.1");
        let facts = gather(&Host::fixture(
            root,
            &[("LD_LIBRARY_PATH", "/opt/a:/opt/b")],
        ));
        assert_eq!(
            facts.cuda_soname.as_deref(),
            Some("/opt/b/libcuda.so.550.54.15")
        );
    }

    #[test]
    fn a_stub_libcuda_first_on_the_path_is_found() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        let ma = multiarch();
        touch(root, &format!("{ma}/libcuda.so.550.54.15"));
        link(root, "libcuda.so.550.54.15", &format!("{ma}/libcuda.so.1"));
        link(root, "libcuda.so.1", &format!("{ma}/libcuda.so"));
        touch(root, "/usr/local/cuda-12.4/lib64/stubs/libcuda.so");
        let host = Host::fixture(root, &[]);
        assert_eq!(gather(&host).cuda_stub, None, "the driver's own libcuda.so");
        let host = Host::fixture(
            root,
            &[("LD_LIBRARY_PATH", "/usr/local/cuda-12.4/lib64/stubs")],
        );
        let f = gather(&host);
        assert_eq!(
            f.cuda_stub
                .as_deref()
                .map(|p| p.ends_with("/stubs/libcuda.so")),
            Some(true),
            "{f:?}"
        );
        assert!(f.cuda_soname.unwrap().ends_with("libcuda.so.550.54.15"));
    }

    #[test]
    fn wildcards() {
        assert!(wildcard_match("*.conf", "a.conf"));
        assert!(!wildcard_match("*.conf", "a.conf.bak"));
        assert!(wildcard_match("x?.conf", "x1.conf"));
        assert!(wildcard_match("*", ""));
        assert!(!wildcard_match("a*b", "acd"));
    }
}
