//! Parsers for the small text files Python packaging leaves behind: `torch/version.py`,
//! `pyvenv.cfg`, dist-info `METADATA` and `RECORD`, C headers with version macros.
//! All pure, so each is tested on real samples.

use std::collections::BTreeMap;

/// A Python literal on the right of `name = ...` in a generated file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PyValue {
    Str(String),
    None,
    Bool(bool),
    /// Anything else (an expression we do not evaluate).
    Other(String),
}

/// Top-level `name = literal` and `name: Type = literal` assignments, e.g. of
/// `torch/version.py`, whose format changed over releases (type annotations from 2.x on).
pub fn py_assignments(text: &str) -> BTreeMap<String, PyValue> {
    let mut out = BTreeMap::new();
    for line in text.lines() {
        if line.starts_with([' ', '\t', '#']) {
            continue;
        }
        let Some((lhs, rhs)) = line.split_once('=') else {
            continue;
        };
        if rhs.starts_with('=') || lhs.ends_with(['!', '<', '>']) {
            continue;
        }
        let name = lhs.split(':').next().unwrap_or("").trim();
        if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        out.insert(name.to_string(), py_literal(rhs.trim()));
    }
    out
}

fn py_literal(s: &str) -> PyValue {
    let s = s.split(" #").next().unwrap_or(s).trim();
    match s {
        "None" => return PyValue::None,
        "True" => return PyValue::Bool(true),
        "False" => return PyValue::Bool(false),
        _ => {}
    }
    for q in ['\'', '"'] {
        if s.len() >= 2 && s.starts_with(q) && s.ends_with(q) {
            return PyValue::Str(s[1..s.len() - 1].to_string());
        }
    }
    PyValue::Other(s.to_string())
}

/// `key = value` lines of `pyvenv.cfg` (keys lower-cased, as `site.py` reads them).
pub fn pyvenv_cfg(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .filter(|(k, _)| !k.is_empty())
        .collect()
}

/// The values of one header field of an email-style file (`METADATA`, `PKG-INFO`), in order.
/// Continuation lines are ignored: the fields gpu-doctor reads are single-line.
pub fn metadata_field<'a>(text: &'a str, field: &str) -> Vec<&'a str> {
    text.lines()
        .take_while(|l| !l.is_empty())
        .filter_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case(field).then_some(v.trim())
        })
        .collect()
}

/// PEP 503 normalised distribution name: "NVIDIA_cublas.cu12" -> "nvidia-cublas-cu12".
pub fn normalize_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut sep = false;
    for c in name.trim().chars() {
        if matches!(c, '-' | '_' | '.') {
            sep = true;
        } else {
            if sep && !out.is_empty() {
                out.push('-');
            }
            sep = false;
            out.extend(c.to_lowercase());
        }
    }
    out
}

/// One `Requires-Dist` value split into name, specifier and marker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequiresDist {
    pub name: String,
    pub extras: Vec<String>,
    pub specifier: String,
    pub marker: Option<String>,
}

/// Parses `nvidia-cublas-cu12==12.1.3.1; platform_system == "Linux"` and the older
/// `nvidia-cudnn-cu12 (==8.9.2.26) ; platform_system == "Linux"` form.
pub fn requires_dist(value: &str) -> Option<RequiresDist> {
    let (req, marker) = match value.split_once(';') {
        Some((r, m)) => (r.trim(), Some(m.trim().to_string())),
        None => (value.trim(), None),
    };
    let name_end = req
        .find(|c: char| !(c.is_alphanumeric() || matches!(c, '-' | '_' | '.')))
        .unwrap_or(req.len());
    let name = &req[..name_end];
    if name.is_empty() {
        return None;
    }
    let mut rest = req[name_end..].trim();
    let mut extras = Vec::new();
    if let Some(after) = rest.strip_prefix('[') {
        let (inside, tail) = after.split_once(']')?;
        extras = inside
            .split(',')
            .map(|e| e.trim().to_string())
            .filter(|e| !e.is_empty())
            .collect();
        rest = tail.trim();
    }
    let specifier: String = rest
        .trim_start_matches('(')
        .trim_end_matches(')')
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    Some(RequiresDist {
        name: normalize_name(name),
        extras,
        specifier,
        marker,
    })
}

/// `#define NAME 123` values of a C header (cudnn_version.h, nccl.h).
pub fn c_defines(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .filter_map(|l| {
            let mut words = l.trim().strip_prefix("#define")?.split_whitespace();
            Some((words.next()?.to_string(), words.next()?.to_string()))
        })
        .collect()
}

/// "9.1.0" from `cudnn_version.h` (CUDNN_MAJOR/MINOR/PATCHLEVEL) and `nccl.h`
/// (NCCL_MAJOR/MINOR/PATCH). `prefix` is "CUDNN" or "NCCL".
pub fn header_version(text: &str, prefix: &str) -> Option<String> {
    let defs = c_defines(text);
    let num = |suffix: &str| -> Option<u64> {
        defs.get(&format!("{prefix}_{suffix}"))?
            .trim_end_matches(['u', 'U', 'l', 'L'])
            .parse()
            .ok()
    };
    let major = num("MAJOR")?;
    let minor = num("MINOR")?;
    let patch = num("PATCHLEVEL").or_else(|| num("PATCH"))?;
    Some(format!("{major}.{minor}.{patch}"))
}

/// The file paths of a dist-info `RECORD` (CSV: path,hash,size; paths with commas are quoted).
pub fn record_paths(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            if let Some(rest) = l.strip_prefix('"') {
                Some(rest.split_once("\",")?.0.replace("\"\"", "\""))
            } else {
                Some(l.split(',').next()?.to_string())
            }
        })
        .filter(|p| !p.is_empty())
        .collect()
}

/// True for `libfoo.so`, `libfoo.so.12`, `libfoo.so.9.1.0`, `libcudart-d0da41ae.so.11.0`.
pub fn is_shared_library(file_name: &str) -> bool {
    match file_name.find(".so") {
        Some(i) => {
            let rest = &file_name[i + 3..];
            rest.is_empty()
                || (rest.starts_with('.')
                    && rest[1..]
                        .split('.')
                        .all(|p| p.chars().all(|c| c.is_ascii_digit())))
        }
        None => false,
    }
}

/// Splits a dist-info or egg-info folder name into (normalised name, version):
/// "nvidia_cublas_cu12-12.1.3.1.dist-info", "torch-1.12.1-py3.10.egg-info".
pub fn dist_folder(folder: &str) -> Option<(String, String)> {
    let stem = folder
        .strip_suffix(".dist-info")
        .or_else(|| folder.strip_suffix(".egg-info"))?;
    let (name, rest) = stem.split_once('-')?;
    let version = rest.split("-py").next().unwrap_or(rest);
    (!name.is_empty() && !version.is_empty()).then(|| (normalize_name(name), version.to_string()))
}

/// A conda-meta file name "pytorch-2.1.0-py3.11_cuda12.1_cudnn8.9.2_0.json" split into
/// (name, version, build). Names may hold dashes; version and build may not.
pub fn conda_meta_name(file: &str) -> Option<(String, String, String)> {
    let stem = file.strip_suffix(".json")?;
    let (rest, build) = stem.rsplit_once('-')?;
    let (name, version) = rest.rsplit_once('-')?;
    (!name.is_empty() && !version.is_empty())
        .then(|| (name.to_string(), version.to_string(), build.to_string()))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    // Real torch/version.py files of several releases.
    const V1_12: &str = "__version__ = '1.12.1+cu102'\ndebug = False\ncuda = '10.2'\ngit_version = '664058fa83f1d8eede5d66418abff6e20bd76ca8'\nhip = None\n";
    const V2_0: &str = "__version__ = '2.0.1'\ndebug = False\ncuda = '11.7'\ngit_version = 'e9ebda29d87ce0916ab08c06ab26fd3766a870e5'\nhip = None\n";
    const V2_4_1: &str = "from typing import Optional\n\n__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']\n__version__ = '2.4.1+cu121'\ndebug = False\ncuda: Optional[str] = '12.1'\ngit_version = '38b96d3399a695e704ed39b60dac733c3fbf20e2'\nhip: Optional[str] = None\n";
    const V2_5_1_CPU: &str = "from typing import Optional\n\n__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']\n__version__ = '2.5.1+cpu'\ndebug = False\ncuda: Optional[str] = None\ngit_version = 'a8d6afb511a69687bbb2b7e88a3cf67917e1697e'\nhip: Optional[str] = None\n";
    const V_ROCM: &str = "from typing import Optional\n\n__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']\n__version__ = '2.3.1+rocm6.0'\ndebug = False\ncuda: Optional[str] = None\ngit_version = '63d5e9221bedd1546b7d364b5ce4171547db12a9'\nhip: Optional[str] = '6.0.32830-d62f6a171'\n";
    const V2_9: &str = "from typing import Optional\n\n__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip', 'xpu']\n__version__ = '2.9.0+cu128'\ndebug = False\ncuda: Optional[str] = '12.8'\ngit_version = '0fabc3ba44823f257e70ce397d989c8de5e362c1'\nhip: Optional[str] = None\nxpu: Optional[str] = None\n";

    fn s(v: &str) -> PyValue {
        PyValue::Str(v.to_string())
    }

    #[test]
    fn version_py_of_several_releases() {
        let cases: &[(&str, PyValue, PyValue, PyValue)] = &[
            (V1_12, s("1.12.1+cu102"), s("10.2"), PyValue::None),
            (V2_0, s("2.0.1"), s("11.7"), PyValue::None),
            (V2_4_1, s("2.4.1+cu121"), s("12.1"), PyValue::None),
            (V2_5_1_CPU, s("2.5.1+cpu"), PyValue::None, PyValue::None),
            (
                V_ROCM,
                s("2.3.1+rocm6.0"),
                PyValue::None,
                s("6.0.32830-d62f6a171"),
            ),
            (V2_9, s("2.9.0+cu128"), s("12.8"), PyValue::None),
        ];
        for (text, version, cuda, hip) in cases {
            let a = py_assignments(text);
            assert_eq!(a.get("__version__"), Some(version), "{text}");
            assert_eq!(a.get("cuda"), Some(cuda), "{text}");
            assert_eq!(a.get("hip"), Some(hip), "{text}");
            assert_eq!(a.get("debug"), Some(&PyValue::Bool(false)));
        }
        assert!(matches!(
            py_assignments(V2_4_1).get("__all__"),
            Some(PyValue::Other(_))
        ));
    }

    #[test]
    fn version_py_garbage_is_not_an_error() {
        for text in [
            "",
            "\u{0}\u{1}==",
            "x == 1\nif a != b:\n  cuda = '1'\n",
            "=\n:=\n",
        ] {
            let a = py_assignments(text);
            assert!(!a.contains_key("cuda"), "{text:?}");
        }
    }

    #[test]
    fn pyvenv_cfg_of_venv_and_virtualenv() {
        let venv = "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.2\nexecutable = /usr/bin/python3.11\ncommand = /usr/bin/python3 -m venv /opt/v\n";
        let c = pyvenv_cfg(venv);
        assert_eq!(c["home"], "/usr/bin");
        assert_eq!(c["version"], "3.11.2");
        assert_eq!(c["include-system-site-packages"], "false");
        let virtualenv = "home = /root/.pyenv/versions/3.10.13/bin\nimplementation = CPython\nversion_info = 3.10.13.final.0\nvirtualenv = 20.25.0\ninclude-system-site-packages = true\nbase-prefix = /root/.pyenv/versions/3.10.13\n";
        let c = pyvenv_cfg(virtualenv);
        assert_eq!(c["version_info"], "3.10.13.final.0");
        assert_eq!(c["include-system-site-packages"], "true");
    }

    #[test]
    fn requires_dist_forms() {
        let r = requires_dist(
            "nvidia-cublas-cu12==12.1.3.1; platform_system == \"Linux\" and platform_machine == \"x86_64\"",
        )
        .unwrap();
        assert_eq!(r.name, "nvidia-cublas-cu12");
        assert_eq!(r.specifier, "==12.1.3.1");
        assert!(r.marker.unwrap().contains("x86_64"));
        let r =
            requires_dist("nvidia-cudnn-cu11 (==8.5.0.96) ; platform_system == \"Linux\"").unwrap();
        assert_eq!(
            (r.name.as_str(), r.specifier.as_str()),
            ("nvidia-cudnn-cu11", "==8.5.0.96")
        );
        let r = requires_dist("cuda-toolkit[cublas,cudart]==13.0.2; platform_system == \"Linux\"")
            .unwrap();
        assert_eq!(r.name, "cuda-toolkit");
        assert_eq!(r.extras, vec!["cublas", "cudart"]);
        let r = requires_dist("filelock").unwrap();
        assert_eq!((r.specifier.as_str(), r.marker), ("", None));
        let r = requires_dist("opt-einsum>=3.3; extra == \"opt-einsum\"").unwrap();
        assert_eq!(r.specifier, ">=3.3");
        assert!(requires_dist("; x").is_none());
        assert!(requires_dist("foo[bar").is_none());
    }

    #[test]
    fn metadata_fields_stop_at_the_body() {
        let m = "Metadata-Version: 2.1\nName: torch\nVersion: 2.4.1\nRequires-Dist: filelock\nRequires-Dist: nvidia-nccl-cu12==2.20.5; platform_system == \"Linux\"\n\nRequires-Dist: not-a-header\n";
        assert_eq!(metadata_field(m, "name"), vec!["torch"]);
        assert_eq!(metadata_field(m, "Requires-Dist").len(), 2);
    }

    #[test]
    fn names_normalise() {
        assert_eq!(normalize_name("NVIDIA_cublas.cu12"), "nvidia-cublas-cu12");
        assert_eq!(normalize_name("torch"), "torch");
        assert_eq!(normalize_name("a--_b"), "a-b");
    }

    #[test]
    fn header_versions() {
        let cudnn = "#ifndef CUDNN_VERSION_H_\n#define CUDNN_VERSION_H_\n\n#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n\n#define CUDNN_VERSION (CUDNN_MAJOR * 10000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\n";
        assert_eq!(header_version(cudnn, "CUDNN").as_deref(), Some("9.1.0"));
        let cudnn8 = "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 2\n#define CUDNN_VERSION (CUDNN_MAJOR * 1000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\n";
        assert_eq!(header_version(cudnn8, "CUDNN").as_deref(), Some("8.9.2"));
        let nccl = "#define NCCL_MAJOR 2\n#define NCCL_MINOR 20\n#define NCCL_PATCH 5\n#define NCCL_SUFFIX \"\"\n#define NCCL_VERSION_CODE 22005\n";
        assert_eq!(header_version(nccl, "NCCL").as_deref(), Some("2.20.5"));
        assert_eq!(header_version("#define CUDNN_MAJOR x", "CUDNN"), None);
        assert_eq!(header_version("", "NCCL"), None);
    }

    #[test]
    fn record_lines() {
        let r = "nvidia/cublas/lib/libcublas.so.12,sha256=abc,109604768\n\"odd,name.so\",sha256=x,1\nnvidia_cublas_cu12-12.1.3.1.dist-info/RECORD,,\n";
        assert_eq!(
            record_paths(r),
            vec![
                "nvidia/cublas/lib/libcublas.so.12",
                "odd,name.so",
                "nvidia_cublas_cu12-12.1.3.1.dist-info/RECORD"
            ]
        );
    }

    #[test]
    fn shared_library_names() {
        for yes in [
            "libcublas.so.12",
            "libcudnn.so.9.1.0",
            "libc10.so",
            "libcudart-d0da41ae.so.11.0",
            "x.cpython-311-x86_64-linux-gnu.so",
        ] {
            assert!(is_shared_library(yes), "{yes}");
        }
        for no in ["libcublas.so.12.py", "lib.sources", "a.so.x", "cudnn.h"] {
            assert!(!is_shared_library(no), "{no}");
        }
    }

    #[test]
    fn dist_and_conda_folder_names() {
        assert_eq!(
            dist_folder("nvidia_cublas_cu12-12.1.3.1.dist-info"),
            Some(("nvidia-cublas-cu12".into(), "12.1.3.1".into()))
        );
        assert_eq!(
            dist_folder("torch-1.12.1-py3.10.egg-info"),
            Some(("torch".into(), "1.12.1".into()))
        );
        assert_eq!(dist_folder("torch"), None);
        assert_eq!(
            conda_meta_name("pytorch-2.1.0-py3.11_cuda12.1_cudnn8.9.2_0.json"),
            Some((
                "pytorch".into(),
                "2.1.0".into(),
                "py3.11_cuda12.1_cudnn8.9.2_0".into()
            ))
        );
        assert_eq!(
            conda_meta_name("cuda-cudart-12.1.105-0.json").map(|c| c.0),
            Some("cuda-cudart".into())
        );
        assert_eq!(conda_meta_name("history"), None);
    }
}
