//! Finds Python environments and their import path from files alone, the way `site.py`
//! would build `sys.path`, without starting an interpreter (which may hang, or import a
//! broken torch on its own start-up through a `.pth` file).

use std::path::{Path, PathBuf};

use crate::fact::Fact;
use crate::host::Host;

use super::parse;

/// One environment before its packages are read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// As found (not resolved), so that a venv's `bin/python` stays the venv's.
    pub interpreter: Option<PathBuf>,
    pub origins: Vec<String>,
    /// The environment's own prefix (the venv folder for a venv).
    pub prefix: PathBuf,
    pub version: Fact<String>,
    /// Folders in import order: PYTHONPATH, then site-packages as `site.py` orders them.
    pub site_packages: Vec<PathBuf>,
    pub is_venv: bool,
}

fn short(version: &str) -> String {
    version.split('.').take(2).collect::<Vec<_>>().join(".")
}

/// Every environment in reach, in the order: PATH `python3`, PATH `python`, `$VIRTUAL_ENV`,
/// `$CONDA_PREFIX`, each `--python`, then user sites no interpreter above sees.
/// Environments with the same prefix and version are merged (their origins joined).
pub fn environments(host: &Host, extra_pythons: &[PathBuf]) -> Vec<Layout> {
    let mut found: Vec<Layout> = Vec::new();
    for name in ["python3", "python"] {
        if let Some(p) = host.which(name) {
            if let Some(l) = from_interpreter(host, &p, &format!("PATH {name}")) {
                add(&mut found, l);
            }
        }
    }
    for var in ["VIRTUAL_ENV", "CONDA_PREFIX"] {
        if let Some(prefix) = host.var(var).filter(|v| !v.is_empty()) {
            add(
                &mut found,
                from_prefix_or_interpreter(host, Path::new(prefix), var),
            );
        }
    }
    for p in extra_pythons {
        add(&mut found, from_prefix_or_interpreter(host, p, "--python"));
    }
    for layout in orphan_user_sites(host, &found) {
        add(&mut found, layout);
    }
    found
}

/// Adds `layout`, or merges it into the one with the same prefix and version.
fn add(found: &mut Vec<Layout>, layout: Layout) {
    match found
        .iter_mut()
        .find(|l| l.prefix == layout.prefix && l.version == layout.version)
    {
        Some(same) => {
            for o in layout.origins {
                if !same.origins.contains(&o) {
                    same.origins.push(o);
                }
            }
            if same.interpreter.is_none() {
                same.interpreter = layout.interpreter;
            }
        }
        None => found.push(layout),
    }
}

/// `--python` may name an interpreter or an environment folder.
fn from_prefix_or_interpreter(host: &Host, path: &Path, origin: &str) -> Layout {
    let path = absolute(host, path);
    let interpreter = if host.path(&path).is_dir() {
        ["bin/python3", "bin/python"]
            .iter()
            .map(|b| path.join(b))
            .find(|p| host.exists(p))
    } else {
        Some(path.clone())
    };
    match interpreter.and_then(|i| from_interpreter(host, &i, origin)) {
        Some(l) => l,
        None => Layout {
            interpreter: None,
            origins: vec![origin.to_string()],
            prefix: path.clone(),
            version: Fact::missing(format!(
                "no Python interpreter at {} (looked for it and for bin/python3, bin/python below it)",
                path.display()
            )),
            site_packages: Vec::new(),
            is_venv: false,
        },
    }
}

/// Why `--python PATH` names no usable Python: missing, a folder with no `bin/python3` or
/// `bin/python`, not a regular file, not executable, or a program whose name (nor its
/// link target's) is not a Python's (`python…`, `pypy…`). `None` when it is one. Read
/// from files only, like the rest of discovery: the interpreter is not started.
pub fn unusable_python(host: &Host, path: &Path) -> Option<String> {
    let path = absolute(host, path);
    let meta = match std::fs::metadata(host.path(&path)) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Some("no such file or folder".into())
        }
        Err(e) => return Some(format!("cannot be read: {e}")),
    };
    let interpreter = if meta.is_dir() {
        match ["bin/python3", "bin/python"]
            .iter()
            .map(|b| path.join(b))
            .find(|p| host.exists(p))
        {
            Some(i) => i,
            None => {
                return Some(
                    "is a folder with no bin/python3 or bin/python: not a Python environment"
                        .into(),
                )
            }
        }
    } else {
        path.clone()
    };
    let real = host.canonicalize(&interpreter);
    let Some(meta) = real
        .as_ref()
        .and_then(|r| std::fs::metadata(host.path(r)).ok())
    else {
        return Some(format!("{} cannot be read", interpreter.display()));
    };
    if !meta.is_file() {
        return Some(format!("{} is not a regular file", interpreter.display()));
    }
    {
        use std::os::unix::fs::PermissionsExt;
        if meta.permissions().mode() & 0o111 == 0 {
            return Some(format!("{} is not executable", interpreter.display()));
        }
    }
    let pythonish = |p: &Path| {
        p.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("python") || n.starts_with("pypy"))
    };
    if !pythonish(&interpreter) && !real.as_deref().is_some_and(pythonish) {
        return Some(format!(
            "{} is not a Python interpreter (its name does not start with python or pypy)",
            interpreter.display()
        ));
    }
    None
}

/// A relative `--python` is relative to the current directory.
fn absolute(host: &Host, path: &Path) -> PathBuf {
    if path.is_absolute() || host.is_fixture() {
        return path.to_path_buf();
    }
    std::env::current_dir()
        .map(|d| d.join(path))
        .unwrap_or_else(|_| path.to_path_buf())
}

/// Reads the environment an interpreter belongs to; `None` when the file is not there.
pub fn from_interpreter(host: &Host, interpreter: &Path, origin: &str) -> Option<Layout> {
    // Resolved inside the host root, so a fixture's absolute links stay in the fixture.
    let real = host.canonicalize(interpreter)?;
    if !host.path(&real).is_file() {
        return None;
    }
    let bin = interpreter.parent()?;
    // site.py looks for pyvenv.cfg beside the executable and one level up, before
    // resolving any link: a venv's bin/python links to the base interpreter.
    for dir in [bin, bin.parent().unwrap_or(bin)] {
        let cfg_path = dir.join("pyvenv.cfg");
        if let Ok(text) = host.read_string(&cfg_path) {
            return Some(venv_layout(
                host,
                interpreter,
                dir,
                &parse::pyvenv_cfg(&text),
                origin,
            ));
        }
    }
    let real = pyenv_shim_target(host, &real).unwrap_or(real);
    let prefix = prefix_of(&real);
    let version = base_version(host, &prefix, &real);
    let mut site = python_path(host);
    if let Some(v) = version.value() {
        site.extend(user_site(host, &short(v)));
        site.extend(system_site(host, &prefix, &short(v)));
    }
    Some(Layout {
        interpreter: Some(interpreter.to_path_buf()),
        origins: vec![origin.to_string()],
        prefix,
        version,
        site_packages: existing(host, with_pth_paths(host, site)),
        is_venv: false,
    })
}

fn venv_layout(
    host: &Host,
    interpreter: &Path,
    prefix: &Path,
    cfg: &std::collections::BTreeMap<String, String>,
    origin: &str,
) -> Layout {
    let base_bin = cfg.get("home").map(PathBuf::from);
    let base_real = base_bin.as_ref().and_then(|home| {
        ["python3", "python"]
            .iter()
            .find_map(|n| host.canonicalize(home.join(n)))
    });
    let base_prefix = base_real.as_deref().map(prefix_of).or_else(|| {
        base_bin
            .as_deref()
            .and_then(Path::parent)
            .map(Path::to_path_buf)
    });
    let version = match cfg.get("version").or_else(|| cfg.get("version_info")) {
        Some(v) => Fact::known(v.split(".final").next().unwrap_or(v).to_string()),
        None => match (&base_prefix, &base_real) {
            (Some(bp), Some(real)) => base_version(host, bp, real),
            _ => lib_version(host, prefix)
                .map(Fact::known)
                .unwrap_or_else(|| {
                    Fact::missing(format!(
                        "{}/pyvenv.cfg has no version and lib/ has no python3.X",
                        prefix.display()
                    ))
                }),
        },
    };
    let system_visible = cfg
        .get("include-system-site-packages")
        .is_some_and(|v| v.eq_ignore_ascii_case("true"));
    let mut site = python_path(host);
    if let Some(v) = version.value().map(|v| short(v)) {
        site.extend(existing(host, venv_site(prefix, &v)));
        if system_visible {
            site.extend(user_site(host, &v));
            if let Some(bp) = &base_prefix {
                site.extend(system_site(host, bp, &v));
            }
        }
    }
    Layout {
        interpreter: Some(interpreter.to_path_buf()),
        origins: vec![origin.to_string()],
        prefix: prefix.to_path_buf(),
        version,
        site_packages: existing(host, with_pth_paths(host, site)),
        is_venv: true,
    }
}

/// `/usr/bin/python3.11` -> `/usr`.
fn prefix_of(real_interpreter: &Path) -> PathBuf {
    let dir = real_interpreter.parent().unwrap_or(Path::new("/"));
    if dir.file_name().is_some_and(|n| n == "bin") {
        dir.parent().unwrap_or(dir).to_path_buf()
    } else {
        dir.to_path_buf()
    }
}

/// pyenv puts shell scripts on PATH; the interpreter they run is
/// `$PYENV_ROOT/versions/<$PYENV_VERSION or the first line of $PYENV_ROOT/version>`.
fn pyenv_shim_target(host: &Host, real: &Path) -> Option<PathBuf> {
    let shims = real.parent()?;
    if shims.file_name()? != "shims" {
        return None;
    }
    let root = shims.parent()?;
    let version = match host.var("PYENV_VERSION").filter(|v| !v.is_empty()) {
        Some(v) => v.to_string(),
        None => host
            .read_string(root.join("version"))
            .ok()?
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#'))?
            .to_string(),
    };
    let version = version.split(':').next()?.trim();
    if version == "system" || version.contains('/') {
        return None;
    }
    let candidate = root
        .join("versions")
        .join(version)
        .join("bin")
        .join(real.file_name()?);
    host.canonicalize(candidate)
}

/// The interpreter's version: the full one from `include/pythonX.Y/patchlevel.h` or
/// conda-meta when there, else "X.Y" from the file name or the prefix's lib folder.
fn base_version(host: &Host, prefix: &Path, real: &Path) -> Fact<String> {
    let from_name = real
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_prefix("python"))
        .filter(|v| v.contains('.') && v.chars().all(|c| c.is_ascii_digit() || c == '.'))
        .map(str::to_string);
    let Some(short) = from_name.or_else(|| lib_version(host, prefix)) else {
        return Fact::missing(format!(
            "cannot tell the Python version of {} (no pythonX.Y name and no {}/lib/pythonX.Y)",
            real.display(),
            prefix.display()
        ));
    };
    let full = full_version(host, prefix, &short);
    Fact::known(full.unwrap_or(short))
}

fn full_version(host: &Host, prefix: &Path, short: &str) -> Option<String> {
    if let Ok(text) = host.read_string(prefix.join(format!("include/python{short}/patchlevel.h"))) {
        if let Some(v) = parse::c_defines(&text).get("PY_VERSION") {
            return Some(v.trim_matches('"').trim_end_matches('+').to_string());
        }
    }
    host.read_dir(prefix.join("conda-meta"))
        .iter()
        .filter_map(|p| parse::conda_meta_name(&p.file_name()?.to_string_lossy()))
        .find(|(name, version, _)| name == "python" && version.starts_with(short))
        .map(|(_, version, _)| version)
}

/// The X.Y of the single `lib/pythonX.Y` holding a standard library (`os.py`).
fn lib_version(host: &Host, prefix: &Path) -> Option<String> {
    host.read_dir(prefix.join("lib"))
        .iter()
        .filter_map(|p| {
            let name = p.file_name()?.to_str()?;
            let v = name.strip_prefix("python")?;
            (v.contains('.') && host.exists(p.join("os.py"))).then(|| v.to_string())
        })
        .max_by_key(|v| crate::version::DottedVersion::parse(v).map(|d| d.parts().to_vec()))
}

/// `$PYTHONPATH` folders come first on `sys.path`, for every interpreter.
fn python_path(host: &Host) -> Vec<PathBuf> {
    let Some(pp) = host.var("PYTHONPATH") else {
        return Vec::new();
    };
    let dirs = std::env::split_paths(std::ffi::OsStr::new(pp))
        .filter(|d| d.is_absolute())
        .collect();
    existing(host, dirs)
}

fn venv_site(prefix: &Path, v: &str) -> Vec<PathBuf> {
    vec![
        prefix.join(format!("lib/python{v}/site-packages")),
        prefix.join(format!("lib64/python{v}/site-packages")),
    ]
}

/// `~/.local/lib/pythonX.Y/site-packages` (or under `$PYTHONUSERBASE`), unless
/// `$PYTHONNOUSERSITE` turns it off.
fn user_site(host: &Host, v: &str) -> Vec<PathBuf> {
    if host.var("PYTHONNOUSERSITE").is_some_and(|s| !s.is_empty()) {
        return Vec::new();
    }
    user_base(host)
        .map(|base| {
            existing(
                host,
                vec![base.join(format!("lib/python{v}/site-packages"))],
            )
        })
        .unwrap_or_default()
}

fn user_base(host: &Host) -> Option<PathBuf> {
    host.var("PYTHONUSERBASE")
        .filter(|b| !b.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            host.var("HOME")
                .filter(|h| !h.is_empty())
                .map(|h| Path::new(h).join(".local"))
        })
}

/// The prefix's own site folders in `site.py` order, Debian's `dist-packages` included.
fn system_site(host: &Host, prefix: &Path, v: &str) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if prefix == Path::new("/usr") {
        dirs.push(PathBuf::from(format!(
            "/usr/local/lib/python{v}/dist-packages"
        )));
        dirs.push(PathBuf::from(format!(
            "/usr/local/lib64/python{v}/site-packages"
        )));
        dirs.push(PathBuf::from(format!(
            "/usr/local/lib/python{v}/site-packages"
        )));
    }
    dirs.push(prefix.join("lib/python3/dist-packages"));
    dirs.push(prefix.join(format!("lib/python{v}/dist-packages")));
    dirs.push(prefix.join(format!("lib64/python{v}/site-packages")));
    dirs.push(prefix.join(format!("lib/python{v}/site-packages")));
    existing(host, dirs)
}

/// Adds the folders that `.pth` files name right after the site folder holding them, as
/// `site.py` does: editable installs (`pip install -e`, `setup.py develop` of a torch
/// source checkout) put torch on the import path this way.
fn with_pth_paths(host: &Host, sites: Vec<PathBuf>) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for site in sites {
        let mut extra = Vec::new();
        for pth in host.read_dir(&site) {
            if pth.extension().is_some_and(|e| e == "pth") {
                if let Ok(text) = host.read_string(&pth) {
                    extra.extend(pth_paths(host, &site, &text));
                }
            }
        }
        out.push(site);
        out.extend(extra);
    }
    out
}

/// The folders one `.pth` file adds: plain path lines, and the package folders of the
/// setuptools editable finders that `import __editable___*_finder` lines install.
fn pth_paths(host: &Host, site: &Path, text: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(rest) = line.strip_prefix("import ") {
            let module = rest.split([';', ' ', ',']).next().unwrap_or("");
            if module.starts_with("__editable__") && module.ends_with("_finder") {
                let finder = host.read_string(site.join(format!("{module}.py")));
                out.extend(finder.map(|f| editable_mapping(&f)).unwrap_or_default());
            }
            continue;
        }
        out.push(site.join(line));
    }
    out
}

/// Parent folders of the packages in a finder's `MAPPING = {'torch': '/src/pytorch/torch'}`.
fn editable_mapping(finder: &str) -> Vec<PathBuf> {
    let Some(line) = finder
        .lines()
        .find(|l| l.trim_start().starts_with("MAPPING"))
    else {
        return Vec::new();
    };
    let Some((_, dict)) = line.split_once('{') else {
        return Vec::new();
    };
    dict.split(',')
        .filter_map(|pair| {
            let (_, path) = pair.split_once(':')?;
            let path = path
                .trim()
                .trim_end_matches('}')
                .trim()
                .trim_matches(['\'', '"']);
            Path::new(path)
                .is_absolute()
                .then(|| Path::new(path).parent().map(Path::to_path_buf))?
        })
        .collect()
}

/// The folders that exist, each once: a venv's `lib64` is a link to `lib`.
fn existing(host: &Host, dirs: Vec<PathBuf>) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    let mut real: Vec<PathBuf> = Vec::new();
    for d in dirs {
        let Some(r) = host.canonicalize(&d) else {
            continue;
        };
        if host.path(&r).is_dir() && !real.contains(&r) {
            real.push(r);
            out.push(d);
        }
    }
    out
}

/// User sites of Python versions that no found interpreter imports from: packages a
/// `pip install --user` left there still matter (another interpreter may pick them up).
fn orphan_user_sites(host: &Host, found: &[Layout]) -> Vec<Layout> {
    let Some(base) = user_base(host) else {
        return Vec::new();
    };
    host.read_dir(base.join("lib"))
        .into_iter()
        .filter_map(|dir| {
            let v = dir
                .file_name()?
                .to_str()?
                .strip_prefix("python")?
                .to_string();
            let site = dir.join("site-packages");
            let seen = found.iter().any(|l| l.site_packages.contains(&site));
            (!seen && host.path(&site).is_dir()).then(|| Layout {
                interpreter: None,
                origins: vec!["user site".to_string()],
                prefix: base.clone(),
                version: Fact::known(v),
                site_packages: vec![site],
                is_venv: false,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;
    use std::os::unix::fs::symlink;

    fn mkdirs(root: &Path, dirs: &[&str]) {
        for d in dirs {
            std::fs::create_dir_all(root.join(d.trim_start_matches('/'))).unwrap();
        }
    }

    fn write(root: &Path, file: &str, text: &str) {
        let p = root.join(file.trim_start_matches('/'));
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    fn exe(root: &Path, file: &str) {
        use std::os::unix::fs::PermissionsExt;
        write(root, file, "");
        let p = root.join(file.trim_start_matches('/'));
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    /// A Debian-like system Python with a user site and a venv on top of it.
    fn debian(root: &Path) {
        exe(root, "/usr/bin/python3.11");
        symlink("python3.11", root.join("usr/bin/python3")).unwrap();
        write(root, "/usr/lib/python3.11/os.py", "");
        mkdirs(
            root,
            &[
                "/usr/lib/python3/dist-packages",
                "/usr/local/lib/python3.11/dist-packages",
                "/home/u/.local/lib/python3.11/site-packages",
                "/home/u/.local/lib/python3.9/site-packages",
                "/opt/v/lib/python3.11/site-packages",
                "/opt/v/bin",
            ],
        );
        symlink("/usr/bin/python3", root.join("opt/v/bin/python")).unwrap();
        write(
            root,
            "/opt/v/pyvenv.cfg",
            "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.2\n",
        );
    }

    fn strs(paths: &[PathBuf]) -> Vec<String> {
        paths.iter().map(|p| p.display().to_string()).collect()
    }

    #[test]
    fn system_python_sees_user_site_first() {
        let dir = tempfile::tempdir().unwrap();
        debian(dir.path());
        let host = Host::fixture(dir.path(), &[("PATH", "/usr/bin"), ("HOME", "/home/u")]);
        let envs = environments(&host, &[]);
        assert_eq!(envs.len(), 2, "{envs:#?}");
        let sys = &envs[0];
        assert_eq!(sys.origins, vec!["PATH python3"]);
        assert_eq!(sys.prefix, PathBuf::from("/usr"));
        assert_eq!(sys.version, Fact::known("3.11".to_string()));
        assert_eq!(
            strs(&sys.site_packages),
            vec![
                "/home/u/.local/lib/python3.11/site-packages",
                "/usr/local/lib/python3.11/dist-packages",
                "/usr/lib/python3/dist-packages",
            ]
        );
        // The 3.9 user site belongs to no interpreter found.
        assert_eq!(envs[1].origins, vec!["user site"]);
        assert_eq!(envs[1].interpreter, None);
    }

    #[test]
    fn venv_without_system_site_sees_only_its_own() {
        let dir = tempfile::tempdir().unwrap();
        debian(dir.path());
        let host = Host::fixture(
            dir.path(),
            &[
                ("PATH", "/opt/v/bin:/usr/bin"),
                ("HOME", "/home/u"),
                ("VIRTUAL_ENV", "/opt/v"),
            ],
        );
        let envs = environments(&host, &[PathBuf::from("/opt/v/bin/python")]);
        assert_eq!(envs[0].origins, vec!["PATH python3"]);
        let v = &envs[1];
        assert!(v.is_venv);
        assert_eq!(v.origins, vec!["PATH python", "VIRTUAL_ENV", "--python"]);
        assert_eq!(v.version, Fact::known("3.11.2".to_string()));
        assert_eq!(
            strs(&v.site_packages),
            vec!["/opt/v/lib/python3.11/site-packages"]
        );
    }

    #[test]
    fn venv_with_system_site_sees_venv_user_then_system() {
        let dir = tempfile::tempdir().unwrap();
        debian(dir.path());
        write(
            dir.path(),
            "/opt/v/pyvenv.cfg",
            "home = /usr/bin\ninclude-system-site-packages = true\nversion_info = 3.11.2.final.0\n",
        );
        let host = Host::fixture(
            dir.path(),
            &[("HOME", "/home/u"), ("PYTHONPATH", "/nope:/opt")],
        );
        let envs = environments(&host, &[PathBuf::from("/opt/v")]);
        assert_eq!(envs[0].version, Fact::known("3.11.2".to_string()));
        assert_eq!(
            strs(&envs[0].site_packages),
            vec![
                "/opt",
                "/opt/v/lib/python3.11/site-packages",
                "/home/u/.local/lib/python3.11/site-packages",
                "/usr/local/lib/python3.11/dist-packages",
                "/usr/lib/python3/dist-packages",
            ]
        );
        let no_user = Host::fixture(
            dir.path(),
            &[("HOME", "/home/u"), ("PYTHONNOUSERSITE", "1")],
        );
        let envs = environments(&no_user, &[PathBuf::from("/opt/v")]);
        assert!(!strs(&envs[0].site_packages)
            .iter()
            .any(|s| s.contains(".local")));
    }

    #[test]
    fn pth_files_add_editable_installs_after_their_site() {
        let dir = tempfile::tempdir().unwrap();
        debian(dir.path());
        let r = dir.path();
        let site = "/opt/v/lib/python3.11/site-packages";
        write(
            r,
            &format!("{site}/easy-install.pth"),
            "# comment\n/src/pytorch\nimport os; os.x()\nmissing\n",
        );
        write(
            r,
            &format!("{site}/__editable__.vision-0.20.pth"),
            "import __editable___vision_0_20_finder; __editable___vision_0_20_finder.install()\n",
        );
        write(
            r,
            &format!("{site}/__editable___vision_0_20_finder.py"),
            "import sys\nMAPPING: dict[str, str] = {'torchvision': '/src/vision/torchvision'}\nNAMESPACES = {}\n",
        );
        mkdirs(r, &["/src/pytorch/torch", "/src/vision/torchvision"]);
        let host = Host::fixture(r, &[]);
        let envs = environments(&host, &[PathBuf::from("/opt/v")]);
        assert_eq!(
            strs(&envs[0].site_packages),
            vec![site, "/src/vision", "/src/pytorch"]
        );
    }

    #[test]
    fn conda_prefix_with_full_version() {
        let dir = tempfile::tempdir().unwrap();
        let r = dir.path();
        exe(r, "/opt/conda/envs/t/bin/python3.10");
        symlink("python3.10", r.join("opt/conda/envs/t/bin/python")).unwrap();
        mkdirs(r, &["/opt/conda/envs/t/lib/python3.10/site-packages"]);
        write(
            r,
            "/opt/conda/envs/t/conda-meta/python-3.10.14-hd12c33a_0_cpython.json",
            "{}",
        );
        let host = Host::fixture(r, &[("CONDA_PREFIX", "/opt/conda/envs/t")]);
        let envs = environments(&host, &[]);
        assert_eq!(envs.len(), 1);
        assert_eq!(envs[0].origins, vec!["CONDA_PREFIX"]);
        assert_eq!(envs[0].version, Fact::known("3.10.14".to_string()));
        assert_eq!(
            strs(&envs[0].site_packages),
            vec!["/opt/conda/envs/t/lib/python3.10/site-packages"]
        );
    }

    #[test]
    fn pyenv_shims_lead_to_the_selected_version() {
        let dir = tempfile::tempdir().unwrap();
        let r = dir.path();
        exe(r, "/root/.pyenv/shims/python3");
        exe(r, "/root/.pyenv/versions/3.11.7/bin/python3.11");
        symlink(
            "python3.11",
            r.join("root/.pyenv/versions/3.11.7/bin/python3"),
        )
        .unwrap();
        write(r, "/root/.pyenv/version", "3.11.7\n");
        write(
            r,
            "/root/.pyenv/versions/3.11.7/include/python3.11/patchlevel.h",
            "#define PY_VERSION \"3.11.7\"\n",
        );
        mkdirs(
            r,
            &["/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages"],
        );
        let host = Host::fixture(r, &[("PATH", "/root/.pyenv/shims")]);
        let envs = environments(&host, &[]);
        assert_eq!(
            envs[0].prefix,
            PathBuf::from("/root/.pyenv/versions/3.11.7")
        );
        assert_eq!(envs[0].version, Fact::known("3.11.7".to_string()));
        assert_eq!(envs[0].site_packages.len(), 1);
    }

    #[test]
    fn a_missing_or_looping_interpreter_is_a_reason() {
        let dir = tempfile::tempdir().unwrap();
        let r = dir.path();
        mkdirs(r, &["/opt/loop/bin"]);
        symlink("python3", r.join("opt/loop/bin/python")).unwrap();
        symlink("python", r.join("opt/loop/bin/python3")).unwrap();
        let host = Host::fixture(r, &[("PATH", "/opt/loop/bin")]);
        let envs = environments(
            &host,
            &[PathBuf::from("/nowhere/python"), PathBuf::from("/opt/loop")],
        );
        assert_eq!(envs.len(), 2);
        for e in &envs {
            assert!(matches!(e.version, Fact::Missing { .. }), "{e:?}");
            assert!(e.site_packages.is_empty());
        }
    }
}
