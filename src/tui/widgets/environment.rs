//! The environment view: every Python environment with its torch builds (arch list
//! against the GPUs present), nvidia-* wheels and CUDA extensions; every toolkit; the
//! CUDA-relevant environment variables.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::ellipsis::fit_lines;
use super::gpu_table;
use super::theme::Theme;
use crate::fact::Fact;
use crate::facts::python::ArchList;
use crate::finding::Severity;
use crate::report::Report;
use crate::tui::app::App;

/// How an arch list serves a GPU of compute capability `cc` ("9.0").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coverage {
    /// Binary code for it (same major, minor at most the GPU's).
    Sass,
    /// Only PTX the driver must JIT-compile (slow first start).
    Ptx,
    None,
}

fn num(arch: &str, prefix: &str) -> Option<(u32, u32)> {
    let digits: String = arch
        .strip_prefix(prefix)?
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let n: u32 = digits.parse().ok()?;
    Some((n / 10, n % 10))
}

pub fn coverage(arch: &ArchList, cc: &str) -> Coverage {
    let Some((maj, min)) = cc
        .split_once('.')
        .and_then(|(a, b)| Some((a.parse::<u32>().ok()?, b.parse::<u32>().ok()?)))
    else {
        return Coverage::None;
    };
    let plain = |a: &&String| a.chars().last().is_some_and(|c| c.is_ascii_digit());
    let sass = arch
        .sass
        .iter()
        .filter(plain)
        .filter_map(|a| num(a, "sm_"))
        .any(|(m, n)| m == maj && n <= min);
    if sass || arch.sass.iter().any(|a| num(a, "sm_") == Some((maj, min))) {
        return Coverage::Sass;
    }
    let ptx = arch
        .ptx
        .iter()
        .filter_map(|a| num(a, "compute_"))
        .any(|(m, n)| (m, n) <= (maj, min));
    if ptx {
        Coverage::Ptx
    } else {
        Coverage::None
    }
}

fn fact_str<T: std::fmt::Display>(f: &Fact<T>) -> String {
    match f {
        Fact::Known { value } => value.to_string(),
        other => format!("? ({})", other.reason().unwrap_or("unknown")),
    }
}

fn arch_lines(arch: &Fact<ArchList>, gpus: &[(String, String)], t: Theme) -> Vec<Line<'static>> {
    let list = match arch {
        Fact::Known { value } => value,
        other => {
            return vec![Line::from(format!(
                "      arch list unknown: {}",
                other.reason().unwrap_or("?")
            ))]
        }
    };
    let mut targets = list.sass.join(" ");
    if !list.ptx.is_empty() {
        targets.push_str(&format!(" + PTX {}", list.ptx.join(" ")));
    }
    let mut out = vec![Line::from(format!("      arch {targets}"))];
    if !gpus.is_empty() {
        let mut spans = vec![Span::raw("      GPUs ")];
        for (label, cc) in gpus {
            let (sev, note) = match coverage(list, cc) {
                Coverage::Sass => (Severity::Pass, ""),
                Coverage::Ptx => (Severity::Warn, " PTX only"),
                Coverage::None => (Severity::Fail, " not supported"),
            };
            spans.push(Span::styled(
                format!(
                    "{} {label} sm_{}{note}  ",
                    sev.marker(),
                    cc.replace('.', "")
                ),
                t.severity(sev),
            ));
        }
        out.push(Line::from(spans));
    }
    out
}

pub fn lines(r: &Report, t: Theme) -> Vec<Line<'static>> {
    let f = &r.facts;
    let mut gpus: Vec<(String, String)> = Vec::new();
    for row in gpu_table::rows(r) {
        if let Some(cc) = row.compute_capability {
            let label = row.index.map_or("GPU".into(), |i| format!("GPU {i}"));
            match gpus.iter_mut().find(|(_, c)| *c == cc) {
                Some((l, _)) => l.push_str(&format!(",{}", label.trim_start_matches("GPU "))),
                None => gpus.push((label, cc)),
            }
        }
    }
    let h = |s: &str| Line::from(Span::styled(s.to_string(), t.bold()));
    let mut out = vec![h(&format!("Python environments ({})", f.python.len()))];
    if f.python.is_empty() {
        out.push(Line::from(
            "  none found (python3/python on PATH, VIRTUAL_ENV, CONDA_PREFIX, user site)",
        ));
    }
    for e in &f.python {
        out.push(Line::from(vec![
            Span::styled(
                format!("  {}", e.interpreter.as_deref().unwrap_or(&e.prefix)),
                t.bold(),
            ),
            Span::raw(format!(
                "  Python {}{} · found via {}",
                fact_str(&e.python_version),
                if e.is_venv { " · venv" } else { "" },
                e.origins.join(", ")
            )),
        ]));
        if e.torch.is_empty() {
            out.push(Line::from("    no torch"));
        }
        for (i, b) in e.torch.iter().enumerate() {
            let cuda = match &b.cuda {
                Fact::Known { value: Some(c) } => format!("CUDA {c}"),
                Fact::Known { value: None } => "CPU-only".into(),
                other => format!("CUDA ? ({})", other.reason().unwrap_or("?")),
            };
            out.push(Line::from(format!(
                "    torch {} · {cuda} · cuDNN {} · NCCL {}{}",
                fact_str(&b.version),
                fact_str(&b.cudnn),
                fact_str(&b.nccl),
                if i > 0 {
                    " · shadowed by the first"
                } else {
                    ""
                }
            )));
            out.push(Line::from(Span::styled(
                format!("      {}", b.path),
                t.dim(),
            )));
            out.extend(arch_lines(&b.arch, &gpus, t));
        }
        if e.nvidia_wheels.is_empty() {
            out.push(Line::from("    nvidia-* wheels: none"));
        } else {
            out.push(Line::from("    nvidia-* wheels:"));
            for w in &e.nvidia_wheels {
                out.push(Line::from(format!("      {} {}", w.name, w.version)));
            }
        }
        if e.extensions.is_empty() {
            out.push(Line::from("    CUDA extensions: none"));
        } else {
            out.push(Line::from("    CUDA extensions:"));
        }
        for x in &e.extensions {
            out.push(Line::from(format!("    · {} ({})", x.package, x.path)));
            out.extend(arch_lines(&x.arch, &gpus, t));
        }
        if let Some(deep) = &e.deep {
            out.push(Line::from(match deep {
                Fact::Known { value } => format!(
                    "    --deep: torch.cuda.is_available() = {}, {} device(s){}",
                    value.cuda_available,
                    value.device_count,
                    value
                        .error
                        .as_deref()
                        .map(|e| format!(" · {e}"))
                        .unwrap_or_default()
                ),
                other => format!("    --deep: {}", other.reason().unwrap_or("?")),
            }));
        }
    }
    out.push(Line::default());
    let tk = &f.toolkits;
    out.push(h(&format!("CUDA toolkits ({})", tk.toolkits.len())));
    if tk.toolkits.is_empty() {
        out.push(Line::from(
            "  none (PyTorch wheels bundle their own CUDA runtime)",
        ));
    }
    for k in &tk.toolkits {
        out.push(Line::from(format!(
            "  {} {} · nvcc {} · via {}",
            fact_str(&k.version),
            k.root,
            k.nvcc.as_deref().unwrap_or("none"),
            k.found_via.join(", ")
        )));
    }
    let ptr = |s: &Option<String>| s.as_deref().unwrap_or("—").to_string();
    out.push(Line::from(format!(
        "  nvcc on PATH → {} · CUDA_HOME → {} · /usr/local/cuda → {}",
        ptr(&tk.path_nvcc),
        ptr(&tk.cuda_home),
        ptr(&tk.usr_local_cuda)
    )));
    out.push(Line::default());
    out.push(h("CUDA environment variables"));
    if f.env.is_empty() {
        out.push(Line::from("  none set"));
    }
    for (k, v) in &f.env {
        out.push(Line::from(format!("  {k}={v}")));
    }
    if !f.ld_library_path_libs.is_empty() {
        out.push(Line::from("  CUDA libraries on LD_LIBRARY_PATH:"));
        for l in &f.ld_library_path_libs {
            out.push(Line::from(format!("    {}/{}", l.dir, l.file)));
        }
    }
    out
}

pub struct EnvironmentView<'a> {
    pub app: &'a App,
    pub theme: Theme,
}

impl Widget for &EnvironmentView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let Some(r) = &self.app.report else {
            return;
        };
        let title = Line::from(Span::styled(" Environment ", self.theme.title(true)));
        let mut all = vec![title];
        all.extend(
            lines(r, self.theme)
                .into_iter()
                .skip(usize::from(self.app.env_scroll)),
        );
        Paragraph::new(fit_lines(all, usize::from(area.width))).render(area, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arch(sass: &[&str], ptx: &[&str]) -> ArchList {
        ArchList {
            sass: sass.iter().map(|s| (*s).to_string()).collect(),
            ptx: ptx.iter().map(|s| (*s).to_string()).collect(),
            ..ArchList::default()
        }
    }

    #[test]
    fn sass_runs_on_later_minors_of_the_same_major() {
        let a = arch(&["sm_80", "sm_90"], &[]);
        assert_eq!(coverage(&a, "8.6"), Coverage::Sass);
        assert_eq!(coverage(&a, "9.0"), Coverage::Sass);
        assert_eq!(coverage(&a, "12.0"), Coverage::None);
        assert_eq!(coverage(&a, "7.5"), Coverage::None);
        assert_eq!(
            coverage(&arch(&["sm_80"], &["compute_90"]), "12.0"),
            Coverage::Ptx
        );
        assert_eq!(coverage(&arch(&["sm_120"], &[]), "12.0"), Coverage::Sass);
        // Architecture-specific code runs only on its exact GPU.
        assert_eq!(coverage(&arch(&["sm_90a"], &[]), "9.0"), Coverage::Sass);
        assert_eq!(coverage(&arch(&["sm_80a"], &[]), "8.6"), Coverage::None);
    }
}
