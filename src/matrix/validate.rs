//! Cross-checks of a parsed matrix: versions that parse, no duplicates, references that
//! resolve (sources, CUDA versions, compute capabilities), dates in order.

use std::collections::{BTreeMap, BTreeSet};

use super::problem::{Problem, Texts, SCHEMA};
use super::Matrix;
use crate::version::DottedVersion;

struct Report<'a> {
    texts: &'a Texts,
    problems: Vec<Problem>,
}

impl Report<'_> {
    fn at(&mut self, file: &str, line: Option<usize>, message: String) {
        self.problems.push(Problem {
            file: file.to_string(),
            line,
            message,
        });
    }

    /// A problem about the entry whose `key` is `value`.
    fn entry(&mut self, file: &str, key: &str, value: &str, message: String) {
        let line = self
            .texts
            .line_of(file, key, value)
            .or_else(|| self.texts.line_containing(file, value));
        self.at(file, line, message);
    }

    fn version(
        &mut self,
        file: &str,
        key: &str,
        value: &str,
        min_parts: usize,
    ) -> Option<DottedVersion> {
        match DottedVersion::parse(value) {
            Some(v) if v.parts().len() >= min_parts && v.to_string() == value => Some(v),
            _ => {
                self.entry(
                    file,
                    key,
                    value,
                    format!(
                        "{key} {value:?} is not a version of at least {min_parts} dotted numbers"
                    ),
                );
                None
            }
        }
    }

    fn date(&mut self, file: &str, key: &str, value: &str) -> Option<(u32, u32, u32)> {
        let parsed = parse_date(value);
        if parsed.is_none() {
            self.entry(
                file,
                key,
                value,
                format!("{key} {value:?} is not a date (YYYY-MM or YYYY-MM-DD)"),
            );
        }
        parsed
    }

    fn source(&mut self, file: &str, sources: &BTreeMap<String, String>, id: &str, what: &str) {
        if !sources.contains_key(id) {
            self.entry(
                file,
                "source",
                id,
                format!("{what} cites source {id:?}, which is not in [sources]"),
            );
        }
    }

    fn schema(&mut self, file: &str, schema: u32) {
        if schema != SCHEMA {
            self.at(
                file,
                self.texts.line_of(file, "schema", &schema.to_string()),
                format!("schema {schema} is not supported (this gpu-doctor reads schema {SCHEMA})"),
            );
        }
    }

    fn duplicate(&mut self, seen: &mut BTreeSet<String>, file: &str, key: &str, value: &str) {
        if !seen.insert(value.to_lowercase()) {
            let line = self.nth_line_of(file, key, value, 2);
            self.at(file, line, format!("duplicate {key} {value:?}"));
        }
    }

    fn nth_line_of(&self, file: &str, key: &str, value: &str, n: usize) -> Option<usize> {
        let quoted = format!("\"{value}\"");
        self.texts
            .get(file)
            .lines()
            .enumerate()
            .filter(|(_, l)| {
                l.trim_start().starts_with(key)
                    && (l.contains(&quoted)
                        || l.split('=').nth(1).is_some_and(|v| v.trim() == value))
            })
            .nth(n - 1)
            .map(|(i, _)| i + 1)
    }
}

/// "2024-03" or "2024-03-05" -> (2024, 3, 5|0).
pub fn parse_date(s: &str) -> Option<(u32, u32, u32)> {
    let mut it = s.split('-');
    let y: u32 = it.next()?.parse().ok()?;
    let m: u32 = it.next()?.parse().ok()?;
    let d: u32 = match it.next() {
        Some(d) => d.parse().ok()?,
        None => 0,
    };
    if it.next().is_some() || !(1990..=2100).contains(&y) || !(1..=12).contains(&m) || d > 31 {
        return None;
    }
    Some((y, m, d))
}

fn major_minor(v: &DottedVersion) -> (u64, u64) {
    (v.major(), v.minor())
}

pub fn validate(m: &Matrix, texts: &Texts) -> Vec<Problem> {
    let mut r = Report {
        texts,
        problems: Vec::new(),
    };
    r.schema("matrix.toml", m.manifest.schema);
    if parse_date(&m.manifest.version).is_none_or(|(_, _, d)| d == 0) {
        r.entry(
            "matrix.toml",
            "version",
            &m.manifest.version,
            format!(
                "matrix version {:?} must be a date YYYY-MM-DD",
                m.manifest.version
            ),
        );
    }
    let cuda_versions = toolkits(m, &mut r);
    drivers(m, &mut r);
    let ccs = archs(m, &mut r, &cuda_versions);
    gpus(m, &mut r, &ccs);
    torch(m, &mut r, &cuda_versions);
    cudnn(m, &mut r);
    xid(m, &mut r);
    interconnect(m, &mut r);
    r.problems
}

fn interconnect(m: &Matrix, r: &mut Report) {
    let f = "interconnect.toml";
    let i = &m.interconnect;
    r.schema(f, i.schema);
    for (key, v) in [
        ("p2p_fraction", i.judgement.p2p_fraction),
        ("allreduce_fraction", i.judgement.allreduce_fraction),
    ] {
        if !(v > 0.0 && v <= 1.0) {
            r.entry(
                f,
                key,
                &v.to_string(),
                format!("{key} {v} must be a share in (0, 1]"),
            );
        }
    }
    let mut seen = BTreeSet::new();
    for p in &i.pcie {
        r.duplicate(&mut seen, f, "generation", &p.generation.to_string());
        r.source(
            f,
            &i.sources,
            &p.source,
            &format!("PCIe Gen{}", p.generation),
        );
        if !(p.lane_gbps > 0.0 && p.lane_gbps < 100.0) {
            r.entry(
                f,
                "lane_gbps",
                &p.lane_gbps.to_string(),
                format!(
                    "PCIe Gen{}: lane_gbps {} is not a lane's rate",
                    p.generation, p.lane_gbps
                ),
            );
        }
    }
    let mut seen = BTreeSet::new();
    for n in &i.nvlink {
        r.duplicate(&mut seen, f, "gpu", &n.gpu);
        r.source(f, &i.sources, &n.source, &n.gpu);
        if m.gpu_by_name(&n.gpu).is_none() {
            r.entry(
                f,
                "gpu",
                &n.gpu,
                format!("{:?} is not a GPU name or alias in gpus.toml", n.gpu),
            );
        }
        if n.links == 0 || n.total_gbps <= 0.0 || !(1..=6).contains(&n.generation) {
            r.entry(
                f,
                "gpu",
                &n.gpu,
                format!(
                    "{}: NVLink generation {}, {} links, {} GB/s is not a product's NVLink",
                    n.gpu, n.generation, n.links, n.total_gbps
                ),
            );
        }
    }
}

/// Returns the (major, minor) CUDA versions the toolkit table knows.
fn toolkits(m: &Matrix, r: &mut Report) -> BTreeSet<(u64, u64)> {
    let f = "toolkits.toml";
    r.schema(f, m.toolkits.schema);
    let mut seen = BTreeSet::new();
    let mut known = BTreeSet::new();
    let mut dated: Vec<(DottedVersion, (u32, u32, u32))> = Vec::new();
    for t in &m.toolkits.toolkit {
        r.duplicate(&mut seen, f, "version", &t.version);
        r.source(
            f,
            &m.toolkits.sources,
            &t.source,
            &format!("toolkit {}", t.version),
        );
        let v = r.version(f, "version", &t.version, 3);
        // A bare branch ("615") is allowed where NVIDIA names only the branch.
        r.version(f, "min_driver_linux", &t.min_driver_linux, 1);
        if let Some(w) = &t.min_driver_windows {
            r.version(f, "min_driver_windows", w, 1);
        }
        let d = t.released.as_ref().and_then(|d| r.date(f, "released", d));
        if let Some(v) = v {
            known.insert(major_minor(&v));
            if let Some(d) = d {
                dated.push((v, d));
            }
        }
    }
    // Updates of one minor are released in order; older minors keep getting updates
    // after newer ones ship, so across minors only the first releases are compared.
    dated.sort_by(|a, b| a.0.cmp(&b.0));
    for w in dated.windows(2) {
        if w[0].0.same_prefix(&w[1].0, 2) && w[1].1 < w[0].1 {
            let msg = format!(
                "toolkit {} is dated before the older update {}",
                w[1].0, w[0].0
            );
            r.entry(f, "version", &w[1].0.to_string(), msg);
        }
    }
    let mut firsts: Vec<&(DottedVersion, (u32, u32, u32))> = Vec::new();
    for d in &dated {
        if firsts.last().is_none_or(|l| !l.0.same_prefix(&d.0, 2)) {
            firsts.push(d);
        }
    }
    for w in firsts.windows(2) {
        if w[1].1 < w[0].1 {
            let msg = format!(
                "CUDA {}.{} is dated before the older CUDA {}.{}",
                w[1].0.major(),
                w[1].0.minor(),
                w[0].0.major(),
                w[0].0.minor()
            );
            r.entry(f, "version", &w[1].0.to_string(), msg);
        }
    }
    for mvc in &m.toolkits.minor_version_compat {
        r.source(
            f,
            &m.toolkits.sources,
            &mvc.source,
            &format!("minor_version_compat for CUDA {}", mvc.cuda_major),
        );
        r.version(f, "min_driver_linux", &mvc.min_driver_linux, 2);
    }
    if let Some(fc) = &m.toolkits.forward_compat {
        r.source(f, &m.toolkits.sources, &fc.source, "forward_compat");
    }
    known
}

fn drivers(m: &Matrix, r: &mut Report) {
    let f = "drivers.toml";
    r.schema(f, m.drivers.schema);
    let mut seen = BTreeSet::new();
    for b in &m.drivers.branch {
        let id = b.branch.to_string();
        r.duplicate(&mut seen, f, "branch", &id);
        r.source(f, &m.drivers.sources, &b.source, &format!("branch {id}"));
        r.version(f, "max_cuda", &b.max_cuda, 2);
        r.version(f, "min_cc", &b.min_cc, 2);
        let rel = b.released.as_ref().and_then(|d| r.date(f, "released", d));
        let eol = b.eol.as_ref().and_then(|d| r.date(f, "eol", d));
        if let (Some(rel), Some(eol)) = (rel, eol) {
            if eol < rel {
                r.entry(
                    f,
                    "branch",
                    &id,
                    format!("branch {id} reaches end of life before its release"),
                );
            }
        }
    }
}

fn archs(m: &Matrix, r: &mut Report, cuda: &BTreeSet<(u64, u64)>) -> BTreeSet<(u64, u64)> {
    let f = "archs.toml";
    r.schema(f, m.archs.schema);
    let mut seen = BTreeSet::new();
    let mut ccs = BTreeSet::new();
    let oldest = cuda.iter().next().copied();
    for a in &m.archs.arch {
        r.duplicate(&mut seen, f, "cc", &a.cc);
        r.source(f, &m.archs.sources, &a.source, &format!("arch {}", a.cc));
        if let Some(v) = r.version(f, "cc", &a.cc, 2) {
            ccs.insert(major_minor(&v));
        }
        for s in &a.suffixes {
            if s != "a" && s != "f" {
                r.entry(
                    f,
                    "cc",
                    &a.cc,
                    format!("arch {}: suffix {s:?} is not \"a\" or \"f\"", a.cc),
                );
            }
        }
        for (key, tk) in [
            ("first_toolkit", Some(&a.first_toolkit)),
            ("last_toolkit", a.last_toolkit.as_ref()),
        ] {
            let Some(tk) = tk else { continue };
            if let Some(v) = r.version(f, key, tk, 2) {
                let mm = major_minor(&v);
                if oldest.is_some_and(|o| mm >= o) && !cuda.contains(&mm) {
                    r.entry(
                        f,
                        key,
                        tk,
                        format!("arch {}: {key} {tk} is not in toolkits.toml", a.cc),
                    );
                }
            }
        }
    }
    ccs
}

fn gpus(m: &Matrix, r: &mut Report, ccs: &BTreeSet<(u64, u64)>) {
    let f = "gpus.toml";
    r.schema(f, m.gpus.schema);
    let mut names = BTreeSet::new();
    for g in &m.gpus.gpu {
        r.duplicate(&mut names, f, "name", &g.name);
        for a in &g.aliases {
            if !names.insert(a.to_lowercase()) {
                r.entry(
                    f,
                    "aliases",
                    a,
                    format!(
                        "alias {a:?} of {:?} is already another product's name or alias",
                        g.name
                    ),
                );
            }
        }
        r.source(f, &m.gpus.sources, &g.source, &format!("GPU {:?}", g.name));
        if let Some(v) = r.version(f, "cc", &g.cc, 2) {
            if !ccs.contains(&major_minor(&v)) {
                r.entry(
                    f,
                    "name",
                    &g.name,
                    format!(
                        "GPU {:?} has compute capability {}, which archs.toml does not list",
                        g.name, g.cc
                    ),
                );
            }
        }
        for id in &g.pci_ids {
            if id.len() != 4
                || !id
                    .chars()
                    .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
            {
                r.entry(
                    f,
                    "name",
                    &g.name,
                    format!(
                        "GPU {:?}: PCI id {id:?} is not 4 lower-case hex digits",
                        g.name
                    ),
                );
            }
        }
        for (what, v) in [
            ("memory_gib", g.memory_gib),
            ("bandwidth_gbs", g.bandwidth_gbs),
            ("fp32_tflops", g.fp32_tflops),
            ("fp16_tflops", g.fp16_tflops),
            ("bf16_tflops", g.bf16_tflops),
        ] {
            if v.is_some_and(|x| !x.is_finite() || x <= 0.0) {
                r.entry(
                    f,
                    "name",
                    &g.name,
                    format!("GPU {:?}: {what} must be a positive number", g.name),
                );
            }
        }
    }
}

fn torch(m: &Matrix, r: &mut Report, cuda: &BTreeSet<(u64, u64)>) {
    let f = "torch.toml";
    r.schema(f, m.torch.schema);
    let mut seen = BTreeSet::new();
    let mut dated: Vec<(DottedVersion, (u32, u32, u32))> = Vec::new();
    for rel in &m.torch.release {
        r.duplicate(&mut seen, f, "version", &rel.version);
        r.source(
            f,
            &m.torch.sources,
            &rel.source,
            &format!("torch {}", rel.version),
        );
        let v = r.version(f, "version", &rel.version, 2);
        for p in &rel.patches {
            if let (Some(pv), Some(v)) = (r.version(f, "patches", p, 3), &v) {
                if !pv.same_prefix(v, 2) {
                    r.entry(
                        f,
                        "version",
                        &rel.version,
                        format!("torch {}: patch {p} is not of this release", rel.version),
                    );
                }
            }
        }
        for py in &rel.python {
            r.version(f, "python", py, 2);
        }
        if let (Some(v), Some(d)) = (
            v,
            rel.released.as_ref().and_then(|d| r.date(f, "released", d)),
        ) {
            dated.push((v, d));
        }
        if let Some(def) = &rel.pypi_default {
            if !rel.variant.iter().any(|x| &x.name == def) {
                r.entry(
                    f,
                    "version",
                    &rel.version,
                    format!(
                        "torch {}: pypi_default {def:?} is not one of its variants",
                        rel.version
                    ),
                );
            }
        }
        let mut names = BTreeSet::new();
        for var in &rel.variant {
            if !names.insert(var.name.clone()) {
                r.entry(
                    f,
                    "version",
                    &rel.version,
                    format!("torch {}: duplicate variant {:?}", rel.version, var.name),
                );
            }
            r.source(
                f,
                &m.torch.sources,
                &var.source,
                &format!("torch {} {}", rel.version, var.name),
            );
            if let Some(cv) = r.version(f, "cuda", &var.cuda, 2) {
                if !cuda.contains(&major_minor(&cv)) {
                    r.entry(
                        f,
                        "version",
                        &rel.version,
                        format!(
                            "torch {} {}: CUDA {} is not in toolkits.toml",
                            rel.version, var.name, var.cuda
                        ),
                    );
                }
            }
            let lists = [
                Some(&var.arch_linux_x86_64),
                var.arch_linux_aarch64.as_ref(),
                var.arch_windows.as_ref(),
            ];
            for list in lists.into_iter().flatten() {
                if let Err(tok) = crate::arch_list::parse_arch_list(&list.join(";")) {
                    r.entry(
                        f,
                        "version",
                        &rel.version,
                        format!(
                            "torch {} {}: arch entry {tok:?} is not a compute capability",
                            rel.version, var.name
                        ),
                    );
                }
            }
        }
    }
    dated.sort_by(|a, b| a.0.cmp(&b.0));
    for w in dated.windows(2) {
        if w[1].1 < w[0].1 {
            r.entry(
                f,
                "version",
                &w[1].0.to_string(),
                format!(
                    "torch {} is dated before the older torch {}",
                    w[1].0, w[0].0
                ),
            );
        }
    }
}

fn cudnn(m: &Matrix, r: &mut Report) {
    let f = "cudnn.toml";
    r.schema(f, m.cudnn.schema);
    let mut seen = BTreeSet::new();
    for c in &m.cudnn.cudnn {
        r.duplicate(&mut seen, f, "version", &c.version);
        r.source(
            f,
            &m.cudnn.sources,
            &c.source,
            &format!("cuDNN {}", c.version),
        );
        r.version(f, "version", &c.version, 2);
        r.version(f, "min_cc", &c.min_cc, 2);
        for cu in &c.cuda {
            r.version(f, "cuda", cu, 2);
        }
    }
}

fn xid(m: &Matrix, r: &mut Report) {
    let f = "xid.toml";
    r.schema(f, m.xid.schema);
    let mut seen = BTreeSet::new();
    for x in &m.xid.xid {
        let code = x.code.to_string();
        r.duplicate(&mut seen, f, "code", &code);
        r.source(f, &m.xid.sources, &x.source, &format!("Xid {code}"));
        if !super::schema::XID_ACTIONS.contains(&x.action.as_str()) {
            r.entry(
                f,
                "action",
                &x.action,
                format!(
                    "Xid {code}: action {:?} is not one of {}",
                    x.action,
                    super::schema::XID_ACTIONS.join(", ")
                ),
            );
        }
        if !["gpu", "application"].contains(&x.fault.as_str()) {
            r.entry(
                f,
                "fault",
                &x.fault,
                format!("Xid {code}: fault {:?} is not gpu or application", x.fault),
            );
        }
        if !["fail", "warn", "info"].contains(&x.severity.as_str()) {
            r.entry(
                f,
                "severity",
                &x.severity,
                format!(
                    "Xid {code}: severity {:?} is not fail, warn or info",
                    x.severity
                ),
            );
        }
        if x.fault == "application" && x.severity == "fail" {
            r.entry(
                f,
                "code",
                &code,
                format!("Xid {code}: an application's fault cannot fail the GPU"),
            );
        }
        if x.meaning.trim().is_empty() || x.todo.trim().is_empty() {
            r.entry(
                f,
                "code",
                &code,
                format!("Xid {code}: meaning and todo must say something"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::load::{bundled_texts, from_texts, texts_from};

    /// The bundled matrix with one file's text changed by `edit`; returns the problems.
    fn problems_after(file: &str, edit: impl Fn(&str) -> String) -> Vec<String> {
        let mut pairs: Vec<(&str, String)> = bundled_texts()
            .into_iter()
            .map(|(f, t)| (f, t.to_string()))
            .collect();
        for (f, t) in &mut pairs {
            if *f == file {
                *t = edit(t);
            }
        }
        let refs: Vec<(&str, &str)> = pairs.iter().map(|(f, t)| (*f, t.as_str())).collect();
        match from_texts(&texts_from(&refs), "test") {
            Ok(_) => Vec::new(),
            Err(p) => p.iter().map(ToString::to_string).collect(),
        }
    }

    fn expect(problems: &[String], needle: &str) {
        assert!(
            problems.iter().any(|p| p.contains(needle)),
            "no problem containing {needle:?} in {problems:#?}"
        );
    }

    /// Line (1-based) of the first line of `file` containing `needle` in the bundled text.
    fn line_of(file: &str, needle: &str) -> usize {
        let text = bundled_texts()
            .into_iter()
            .find(|(f, _)| *f == file)
            .unwrap()
            .1;
        text.lines().position(|l| l.contains(needle)).unwrap() + 1
    }

    #[test]
    fn interconnect_rows_are_checked() {
        let p = problems_after("interconnect.toml", |t| {
            t.replacen("p2p_fraction = 0.4", "p2p_fraction = 4", 1)
        });
        expect(&p, "p2p_fraction 4 must be a share in (0, 1]");
        let p = problems_after("interconnect.toml", |t| {
            t.replacen("gpu = \"NVIDIA B200\"", "gpu = \"NVIDIA B9000\"", 1)
        });
        expect(
            &p,
            "\"NVIDIA B9000\" is not a GPU name or alias in gpus.toml",
        );
        let p = problems_after("interconnect.toml", |t| {
            t.replacen("source = \"N5\"", "source = \"N99\"", 1)
        });
        expect(&p, "interconnect.toml:");
        let p = problems_after("interconnect.toml", |t| {
            t.replacen("links = 18", "lanes = 18", 1)
        });
        expect(&p, "unknown field `lanes`");
    }

    #[test]
    fn the_bundled_matrix_has_no_problems() {
        assert!(problems_after("matrix.toml", str::to_string).is_empty());
    }

    #[test]
    fn unknown_keys_are_reported_with_file_and_line() {
        let p = problems_after("drivers.toml", |t| {
            t.replacen("max_cuda =", "maximum_cuda =", 1)
        });
        let line = line_of("drivers.toml", "max_cuda =");
        expect(
            &p,
            &format!("drivers.toml:{line}: unknown field `maximum_cuda`"),
        );
    }

    #[test]
    fn wrong_types_are_reported() {
        let p = problems_after("drivers.toml", |t| {
            t.replacen("branch = 550", "branch = \"550\"", 1)
        });
        expect(&p, "drivers.toml:");
        expect(&p, "invalid type");
    }

    #[test]
    fn unparseable_versions_are_reported() {
        let p = problems_after("toolkits.toml", |t| {
            t.replacen(
                "min_driver_linux = \"550.54.15\"",
                "min_driver_linux = \"five-fifty\"",
                1,
            )
        });
        let line = line_of("toolkits.toml", "min_driver_linux = \"550.54.15\"");
        expect(
            &p,
            &format!("toolkits.toml:{line}: min_driver_linux \"five-fifty\" is not a version"),
        );
    }

    #[test]
    fn duplicate_entries_are_reported() {
        let p = problems_after("archs.toml", |t| {
            format!("{t}\n[[arch]]\ncc = \"9.0\"\nname = \"Hopper again\"\nfirst_toolkit = \"11.8\"\nsource = \"{}\"\n", first_source(t))
        });
        expect(&p, "archs.toml:");
        expect(&p, "duplicate cc \"9.0\"");
    }

    #[test]
    fn xid_catalogue_is_checked() {
        let p = problems_after("xid.toml", |t| {
            t.replacen("action = \"reboot\"", "action = \"pray\"", 1)
        });
        expect(&p, "xid.toml:");
        expect(
            &p,
            "Xid 79: action \"pray\" is not one of none, fix_software",
        );
        let p = problems_after("xid.toml", |t| {
            t.replacen("severity = \"info\"", "severity = \"fail\"", 1)
        });
        expect(&p, "Xid 13: an application's fault cannot fail the GPU");
        let p = problems_after("xid.toml", |t| t.replacen("code = 79", "code = 74", 1));
        expect(&p, "duplicate code \"74\"");
        let p = problems_after("xid.toml", |t| {
            t.replacen("source = \"X1\"", "source = \"X9\"", 1)
        });
        assert!(!p.is_empty());
        let p = problems_after("xid.toml", |t| {
            t.replacen("fault = \"gpu\"", "fault = \"cosmic\"", 1)
        });
        expect(&p, "is not gpu or application");
        let p = problems_after("xid.toml", |t| t.replacen("todo = ", "what = ", 1));
        assert!(!p.is_empty(), "unknown keys are refused");
    }

    fn first_source(text: &str) -> String {
        text.lines()
            .find_map(|l| {
                l.trim()
                    .strip_prefix("source = \"")?
                    .strip_suffix('"')
                    .map(str::to_string)
            })
            .unwrap()
    }

    #[test]
    fn cross_references_are_checked() {
        let p = problems_after("torch.toml", |t| {
            t.replacen("cuda = \"12.1\"", "cuda = \"12.99\"", 1)
        });
        expect(&p, "CUDA 12.99 is not in toolkits.toml");
        let p = problems_after("gpus.toml", |t| {
            t.replacen("cc = \"9.0\"", "cc = \"9.9\"", 1)
        });
        expect(
            &p,
            "has compute capability 9.9, which archs.toml does not list",
        );
        let p = problems_after("gpus.toml", |t| {
            t.replacen("source = \"", "source = \"NOPE", 1)
        });
        expect(&p, "which is not in [sources]");
        let p = problems_after("torch.toml", |t| {
            t.replacen("pypi_default = \"cu121\"", "pypi_default = \"cu999\"", 1)
        });
        expect(&p, "pypi_default \"cu999\" is not one of its variants");
    }

    #[test]
    fn dates_are_checked_and_ordered() {
        let p = problems_after("drivers.toml", |t| {
            t.replacen("released = \"", "released = \"2024-13", 1)
        });
        expect(&p, "is not a date");
        let p = problems_after("matrix.toml", |t| {
            t.replacen("version = \"2026-11-21\"", "version = \"latest\"", 1)
        });
        expect(&p, "matrix.toml:");
        expect(&p, "must be a date YYYY-MM-DD");
        let p = problems_after("torch.toml", |t| {
            t.replacen("released = \"2022-06-28\"", "released = \"2030-01-01\"", 1)
        });
        expect(&p, "is dated before the older torch");
    }

    #[test]
    fn a_newer_schema_is_refused() {
        let p = problems_after("gpus.toml", |t| t.replacen("schema = 1", "schema = 2", 1));
        expect(&p, "gpus.toml:");
        expect(
            &p,
            "schema 2 is not supported (this gpu-doctor reads schema 1)",
        );
    }

    #[test]
    fn dates_parse() {
        assert_eq!(super::parse_date("2024-03"), Some((2024, 3, 0)));
        assert_eq!(super::parse_date("2024-03-05"), Some((2024, 3, 5)));
        assert_eq!(super::parse_date("2024-3-5-1"), None);
        assert_eq!(super::parse_date("soon"), None);
        assert_eq!(super::parse_date("2024-00"), None);
    }
}
