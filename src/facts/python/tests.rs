//! `gather` on fixture trees: whole environments laid out in a temporary root.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use super::*;

const SITE: &str = "/opt/v/lib/python3.11/site-packages";

struct Tree {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Tree {
    /// A venv at /opt/v whose base interpreter is /usr/bin/python3.11.
    fn venv(cfg_extra: &str) -> Tree {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        let t = Tree { _dir: dir, root };
        t.exe("/usr/bin/python3.11");
        t.write("/usr/lib/python3.11/os.py", "");
        t.mkdir(SITE);
        t.mkdir("/opt/v/bin");
        symlink("/usr/bin/python3.11", t.root.join("opt/v/bin/python")).unwrap();
        t.write(
            "/opt/v/pyvenv.cfg",
            &format!("home = /usr/bin\nversion = 3.11.2\n{cfg_extra}"),
        );
        t
    }

    fn p(&self, machine: &str) -> PathBuf {
        self.root.join(machine.trim_start_matches('/'))
    }

    fn mkdir(&self, d: &str) {
        std::fs::create_dir_all(self.p(d)).unwrap();
    }

    fn write(&self, file: &str, text: &str) {
        self.write_bytes(file, text.as_bytes());
    }

    fn write_bytes(&self, file: &str, bytes: &[u8]) {
        let p = self.p(file);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }

    fn exe(&self, file: &str) {
        use std::os::unix::fs::PermissionsExt;
        self.write(file, "");
        std::fs::set_permissions(self.p(file), std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    fn cuda_lib(&self, file: &str) {
        let real = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/python/libk.so");
        self.write_bytes(file, &std::fs::read(real).unwrap());
    }

    /// torch/version.py and a dist-info, as pip leaves them.
    fn torch(&self, site: &str, version_py: &str, dist: Option<(&str, &str)>) {
        self.write(&format!("{site}/torch/__init__.py"), "");
        self.write(&format!("{site}/torch/version.py"), version_py);
        if let Some((version, metadata)) = dist {
            let d = format!("{site}/torch-{version}.dist-info");
            self.write(&format!("{d}/METADATA"), metadata);
            self.write(&format!("{d}/INSTALLER"), "pip\n");
        }
    }

    fn wheel(&self, site: &str, dist: &str, files: &[&str]) {
        let mut record = String::new();
        for f in files {
            self.write(&format!("{site}/{f}"), "");
            record.push_str(&format!("{f},sha256=x,0\n"));
        }
        record.push_str(&format!("{dist}.dist-info/RECORD,,\n"));
        self.write(&format!("{site}/{dist}.dist-info/RECORD"), &record);
    }

    fn gather(&self, env: &[(&str, &str)], pythons: &[&str]) -> Vec<PythonEnv> {
        let host = Host::fixture(&self.root, env);
        let pythons: Vec<PathBuf> = pythons.iter().map(PathBuf::from).collect();
        gather(&host, &pythons, false)
    }
}

const VERSION_2_4_1: &str = "from typing import Optional\n\n__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']\n__version__ = '2.4.1+cu121'\ndebug = False\ncuda: Optional[str] = '12.1'\ngit_version = '38b96d3399a695e704ed39b60dac733c3fbf20e2'\nhip: Optional[str] = None\n";

/// The Requires-Dist lines of the real torch 2.4.1 METADATA (trimmed of unrelated ones).
const METADATA_2_4_1: &str = "Metadata-Version: 2.1\nName: torch\nVersion: 2.4.1\nRequires-Python: >=3.8.0\nRequires-Dist: filelock\nRequires-Dist: typing-extensions>=4.8.0\nRequires-Dist: nvidia-cuda-nvrtc-cu12==12.1.105; platform_system == \"Linux\" and platform_machine == \"x86_64\"\nRequires-Dist: nvidia-cudnn-cu12==9.1.0.70; platform_system == \"Linux\" and platform_machine == \"x86_64\"\nRequires-Dist: nvidia-nccl-cu12==2.20.5; platform_system == \"Linux\" and platform_machine == \"x86_64\"\nRequires-Dist: triton==3.0.0; platform_system == \"Linux\" and platform_machine == \"x86_64\" and python_version < \"3.13\"\nRequires-Dist: opt-einsum>=3.3; extra == \"opt-einsum\"\n\nThe body.\n";

#[test]
fn a_pip_venv_with_a_cuda_torch() {
    let t = Tree::venv("include-system-site-packages = false\n");
    t.torch(SITE, VERSION_2_4_1, Some(("2.4.1", METADATA_2_4_1)));
    t.cuda_lib(&format!("{SITE}/torch/lib/libtorch_cuda.so"));
    t.write(&format!("{SITE}/torch/lib/libc10.so"), "");
    t.wheel(
        SITE,
        "nvidia_cudnn_cu12-9.1.0.70",
        &[
            "nvidia/cudnn/lib/libcudnn.so.9",
            "nvidia/cudnn/lib/libcudnn_ops.so.9",
            "nvidia/cudnn/include/cudnn.h",
            "nvidia/__init__.py",
        ],
    );
    // No RECORD: found by the CUDA 12 folder layout.
    t.write(&format!("{SITE}/nvidia/nccl/lib/libnccl.so.2"), "");
    t.mkdir(&format!("{SITE}/nvidia_nccl_cu12-2.20.5.dist-info"));
    t.wheel(
        SITE,
        "nvidia_cuda_nvrtc_cu12-12.1.105",
        &["nvidia/cuda_nvrtc/lib/libnvrtc.so.12"],
    );

    let envs = t.gather(&[], &["/opt/v/bin/python"]);
    assert_eq!(envs.len(), 1, "{envs:#?}");
    let env = &envs[0];
    assert_eq!(env.origins, vec!["--python"]);
    assert_eq!(env.python_version, Fact::known("3.11.2".to_string()));
    assert!(env.is_venv);
    let torch = &env.torch[0];
    assert_eq!(torch.version, Fact::known("2.4.1+cu121".to_string()));
    assert_eq!(torch.cuda, Fact::known(Some("12.1".to_string())));
    assert_eq!(torch.installer, Fact::known("pip".to_string()));
    assert_eq!(torch.cudnn, Fact::known("9.1.0.70".to_string()));
    assert_eq!(torch.nccl, Fact::known("2.20.5".to_string()));
    assert_eq!(
        torch.git_version.as_deref(),
        Some("38b96d3399a695e704ed39b60dac733c3fbf20e2")
    );
    let names: Vec<&str> = torch.requires.iter().map(|r| r.name.as_str()).collect();
    if std::env::consts::ARCH == "x86_64" {
        assert_eq!(
            names,
            vec![
                "nvidia-cuda-nvrtc-cu12",
                "nvidia-cudnn-cu12",
                "nvidia-nccl-cu12"
            ]
        );
        assert_eq!(torch.requires[1].specifier, "==9.1.0.70");
    }
    assert_eq!(torch.arch.value().unwrap().sass.len(), 4);
    assert_eq!(torch.bundled_libs, vec!["libc10.so", "libtorch_cuda.so"]);

    let cudnn = env
        .nvidia_wheels
        .iter()
        .find(|w| w.name == "nvidia-cudnn-cu12")
        .unwrap();
    assert_eq!(cudnn.libraries, vec!["libcudnn.so.9", "libcudnn_ops.so.9"]);
    assert_eq!(cudnn.lib_dirs, vec![format!("{SITE}/nvidia/cudnn/lib")]);
    let nccl = env
        .nvidia_wheels
        .iter()
        .find(|w| w.name == "nvidia-nccl-cu12")
        .unwrap();
    assert_eq!(nccl.libraries, vec!["libnccl.so.2"]);
    assert!(env.extensions.is_empty(), "{:?}", env.extensions);
}

#[test]
fn every_torch_in_import_order() {
    let t = Tree::venv("include-system-site-packages = true\n");
    let user = "/home/u/.local/lib/python3.11/site-packages";
    let system = "/usr/lib/python3/dist-packages";
    t.torch(SITE, VERSION_2_4_1, Some(("2.4.1", METADATA_2_4_1)));
    t.torch(
        user,
        &VERSION_2_4_1
            .replace("2.4.1+cu121", "2.5.1+cpu")
            .replace("'12.1'", "None"),
        Some(("2.5.1+cpu", "Name: torch\n")),
    );
    t.torch(system, "__version__ = '1.13.1'\ncuda = '11.7'\n", None);
    let envs = t.gather(&[("HOME", "/home/u")], &["/opt/v"]);
    let versions: Vec<_> = envs[0]
        .torch
        .iter()
        .map(|b| b.version.value().cloned().unwrap_or_default())
        .collect();
    assert_eq!(versions, vec!["2.4.1+cu121", "2.5.1+cpu", "1.13.1"]);
    let cpu = &envs[0].torch[1];
    assert_eq!(cpu.cuda, Fact::known(None));
    assert!(
        matches!(cpu.cudnn, Fact::Unsupported { .. }),
        "{:?}",
        cpu.cudnn
    );
    assert!(
        matches!(cpu.arch, Fact::Unsupported { .. }),
        "{:?}",
        cpu.arch
    );
    let source = &envs[0].torch[2];
    assert!(matches!(source.installer, Fact::Missing { .. }));
    assert!(source
        .installer
        .reason()
        .unwrap()
        .contains("no torch dist-info"));
}

#[test]
fn conda_torch_and_old_bundled_libraries() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    let t = Tree { _dir: dir, root };
    t.exe("/opt/conda/bin/python3.10");
    symlink("python3.10", t.p("/opt/conda/bin/python")).unwrap();
    let site = "/opt/conda/lib/python3.10/site-packages";
    t.torch(
        site,
        "__version__ = '2.1.0'\ndebug = False\ncuda = '12.1'\nhip = None\n",
        None,
    );
    t.write(
        "/opt/conda/conda-meta/pytorch-2.1.0-py3.10_cuda12.1_cudnn8.9.2_0.json",
        "{}",
    );
    t.write("/opt/conda/conda-meta/python-3.10.13-h955ad1f_0.json", "{}");
    // An old pip wheel in the user site: bundled cuDNN/NCCL, kernels split in two files.
    let user = "/home/u/.local/lib/python3.10/site-packages";
    t.torch(user, "__version__ = '1.12.1+cu113'\ndebug = False\ncuda = '11.3'\ngit_version = '664058fa'\nhip = None\n", Some(("1.12.1+cu113", "Name: torch\n")));
    for lib in ["libcudnn.so.8", "libnccl.so.2.10.3"] {
        t.write(&format!("{user}/torch/lib/{lib}"), "");
    }
    t.cuda_lib(&format!("{user}/torch/lib/libtorch_cuda_cu.so"));
    t.cuda_lib(&format!("{user}/torch/lib/libtorch_cuda_cpp.so"));

    let envs = t.gather(&[("CONDA_PREFIX", "/opt/conda"), ("HOME", "/home/u")], &[]);
    assert_eq!(envs.len(), 1, "{envs:#?}");
    assert_eq!(envs[0].python_version, Fact::known("3.10.13".to_string()));
    let [old, conda] = envs[0].torch.as_slice() else {
        panic!("{:#?}", envs[0].torch)
    };
    assert_eq!(conda.installer, Fact::known("conda".to_string()));
    assert_eq!(conda.cudnn, Fact::known("8.9.2".to_string()));
    assert_eq!(old.cudnn, Fact::known("8".to_string()));
    assert_eq!(old.nccl, Fact::known("2.10.3".to_string()));
    assert_eq!(old.arch.value().unwrap().libraries.len(), 2);
    assert!(old.arch.value().unwrap().libraries[0].starts_with("/home/u/"));
}

#[test]
fn versions_from_headers_and_cuda_extensions() {
    let t = Tree::venv("");
    t.torch(
        SITE,
        VERSION_2_4_1,
        Some(("2.4.1", "\u{0}\u{1}garbage\u{ff}: x\n")),
    );
    t.write(
        &format!("{SITE}/nvidia/cudnn/include/cudnn_version.h"),
        "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n",
    );
    t.write(
        &format!("{SITE}/nvidia/nccl/include/nccl.h"),
        "#define NCCL_MAJOR 2\n#define NCCL_MINOR 20\n#define NCCL_PATCH 5\n",
    );
    t.cuda_lib(&format!(
        "{SITE}/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so"
    ));
    t.cuda_lib(&format!("{SITE}/xformers/_C.so"));
    t.cuda_lib(&format!("{SITE}/torch/lib/libtorch_cuda.so"));
    // Not CUDA, not ELF, too deep, looping, non-UTF-8: all passed over without harm.
    t.write_bytes(
        &format!("{SITE}/numpy/core/_multiarray.so"),
        &[0u8; 20 * 1024],
    );
    t.cuda_lib(&format!("{SITE}/deep/a/b/c/d/e/kernels.so"));
    symlink(".", t.p(&format!("{SITE}/loop"))).unwrap();
    symlink(".", t.p(&format!("{SITE}/xformers/loop"))).unwrap();
    t.write(&format!("{SITE}/{}", "bad\u{fffd}.so"), "");
    {
        use std::os::unix::ffi::OsStrExt;
        let name = std::ffi::OsStr::from_bytes(b"odd\xff.so");
        std::fs::write(t.p(SITE).join(name), b"x").unwrap();
        std::fs::create_dir(
            t.p(SITE)
                .join(std::ffi::OsStr::from_bytes(b"pkg\xfe-1.0.dist-info")),
        )
        .unwrap();
    }

    let envs = t.gather(&[], &["/opt/v/bin/python"]);
    let torch = &envs[0].torch[0];
    assert_eq!(torch.cudnn, Fact::known("9.1.0".to_string()));
    assert_eq!(torch.nccl, Fact::known("2.20.5".to_string()));
    assert!(torch.requires.is_empty());
    let exts: Vec<(&str, bool)> = envs[0]
        .extensions
        .iter()
        .map(|e| (e.package.as_str(), e.arch.is_known()))
        .collect();
    assert_eq!(exts, vec![("flash_attn_2_cuda", true), ("xformers", true)]);
}

#[test]
fn nothing_found_is_an_empty_list_and_bad_pythons_say_why() {
    let dir = tempfile::tempdir().unwrap();
    let host = Host::fixture(dir.path(), &[("PATH", "/usr/bin")]);
    assert!(gather(&host, &[], true).is_empty());
    let envs = gather(&host, &[PathBuf::from("/no/python")], true);
    assert_eq!(envs.len(), 1);
    assert!(envs[0]
        .python_version
        .reason()
        .unwrap()
        .contains("no Python interpreter"));
    assert!(matches!(envs[0].deep, Some(Fact::Missing { .. })));
}

#[test]
fn serialises_and_reads_back() {
    let t = Tree::venv("");
    t.torch(SITE, VERSION_2_4_1, Some(("2.4.1", METADATA_2_4_1)));
    let envs = t.gather(&[], &["/opt/v"]);
    let json = serde_json::to_string(&envs).unwrap();
    let back: Vec<PythonEnv> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, envs);
}

#[test]
fn oversized_or_garbage_torch_files_give_reasons() {
    let t = Tree::venv("");
    t.torch(SITE, "", Some(("2.4.1", METADATA_2_4_1)));
    // A 5 MB version.py (sparse): refused, not read.
    let f = std::fs::File::create(t.p(&format!("{SITE}/torch/version.py"))).unwrap();
    f.set_len(5 << 20).unwrap();
    let envs = t.gather(&[], &["/opt/v"]);
    let torch = &envs[0].torch[0];
    // The version still comes from the dist-info; torch.version.cuda cannot.
    assert_eq!(torch.version, Fact::known("2.4.1".to_string()));
    assert!(
        torch.cuda.reason().unwrap().contains("larger than"),
        "{:?}",
        torch.cuda
    );

    t.write_bytes(
        &format!("{SITE}/torch/version.py"),
        b"\xff\xfe\x00cuda = 12\n__version__ = \n",
    );
    let envs = t.gather(&[], &["/opt/v"]);
    let torch = &envs[0].torch[0];
    assert!(
        matches!(torch.cuda, Fact::Failed { .. }),
        "{:?}",
        torch.cuda
    );
    assert_eq!(torch.version, Fact::known("2.4.1".to_string()));
}
