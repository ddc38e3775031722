//! The probe log: what the driver worker did (NVML init, cuInit, with their raw return
//! codes), every `probe.*` finding with its measurements, and the plan for the next run.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use super::gpu_table;
use super::theme::{spinner, Theme};
use crate::fact::Fact;
use crate::facts::driver_api::ReturnCode;
use crate::tui::app::{App, BETWEEN_PROBES, PROBES};
use crate::tui::msg::ProbeState;

fn code(c: &ReturnCode) -> String {
    let msg = c
        .message
        .as_deref()
        .map(|m| format!(": {m}"))
        .unwrap_or_default();
    format!("{} ({}){msg}", c.name, c.code)
}

fn failed<T>(what: &str, f: &Fact<T>) -> Vec<Line<'static>> {
    let mut out = vec![Line::from(format!(
        "  {what}: {}",
        f.reason().unwrap_or("?")
    ))];
    if let Fact::Failed {
        command,
        stderr_tail,
        ..
    } = f
    {
        if let Some(c) = command {
            out.push(Line::from(format!("    command: {c}")));
        }
        for l in stderr_tail.iter().flat_map(|s| s.lines()) {
            out.push(Line::from(format!("    stderr: {l}")));
        }
    }
    out
}

pub fn lines(app: &App, t: Theme) -> Vec<Line<'static>> {
    let Some(r) = &app.report else {
        return Vec::new();
    };
    let f = &r.facts;
    let h = |s: &str| Line::from(Span::styled(s.to_string(), t.bold()));
    let mut out = vec![h("Driver worker")];
    match &f.driver_api.nvml {
        Fact::Known { value: n } => {
            out.push(Line::from(format!(
                "  nvmlInit via {} → {}",
                n.library,
                code(&n.init)
            )));
            if n.init_ok() {
                let devices = n.devices.value().map_or(0, Vec::len);
                out.push(Line::from(format!(
                    "    driver {} · CUDA {} · {devices} device(s)",
                    n.driver_version.value().map_or("?", String::as_str),
                    n.cuda_driver_version.value().map_or("?", String::as_str)
                )));
            }
        }
        other => out.extend(failed("NVML not asked", other)),
    }
    match &f.driver_api.cuda {
        Fact::Known { value: c } => {
            out.push(Line::from(format!(
                "  cuInit via {} → {}",
                c.library,
                code(&c.init)
            )));
            if c.init_ok() {
                out.push(Line::from(format!(
                    "    driver API {} · cuDeviceGetCount {}",
                    c.driver_version.value().map_or("?", String::as_str),
                    c.device_count.value().map_or("?".into(), u32::to_string)
                )));
            }
        }
        other => out.extend(failed("cuInit not asked", other)),
    }
    if let Some(ms) = app.elapsed_ms {
        out.push(Line::from(Span::styled(
            format!("  gathered and judged in {ms} ms"),
            t.dim(),
        )));
    }
    out.push(Line::default());
    out.push(h("Probes"));
    // While a re-run gathers, the report is the last run's: its probe results are not
    // this run's.
    let probes: Vec<_> = if app.gathering() {
        out.push(Line::from(Span::styled(
            "  re-running: the last run's probe results are cleared",
            t.dim(),
        )));
        Vec::new()
    } else {
        r.findings.iter().filter(|f| f.area() == "probe").collect()
    };
    if probes.is_empty() && app.probes.is_empty() && !app.gathering() {
        out.push(Line::from("  no probes run"));
    }
    for (gpu, name, state) in &app.probes {
        let text = match state {
            ProbeState::Pending => format!("  · probe.{name} [GPU {gpu}] pending"),
            ProbeState::Running => {
                format!("  {} probe.{name} [GPU {gpu}] running", spinner(app.tick))
            }
            ProbeState::Done(s, ms) => format!(
                "  {} probe.{name} [GPU {gpu}] finished{}",
                s.marker(),
                ms.map(|m| format!(" in {m} ms")).unwrap_or_default()
            ),
        };
        out.push(Line::from(text));
    }
    for p in probes {
        let ms = gpu_table::elapsed_ms(p)
            .map(|m| format!(" in {m} ms"))
            .unwrap_or_default();
        out.push(Line::from(vec![
            Span::styled(
                format!("  {} ", p.severity.marker()),
                t.severity(p.severity),
            ),
            Span::raw(format!("{} [{}]{ms}: {}", p.label(), p.scope, p.summary)),
        ]));
        if !p.details.is_empty() {
            out.push(Line::from(format!("      {}", p.details)));
        }
        for e in &p.evidence {
            out.push(Line::from(Span::styled(
                format!("      {} = {}", e.fact, e.value),
                t.dim(),
            )));
        }
    }
    out.push(Line::default());
    out.push(h("Probe plan (p picks, r runs)"));
    out.push(Line::from(format!(
        "  next run: {}",
        plan_text(r, &app.plan)
    )));
    if let Some(ran) = &app.ran_plan {
        out.push(Line::from(format!("  last run: {}", plan_text(r, ran))));
    }
    out.push(Line::from(Span::styled(
        "  (r gathers the facts again, then runs the picked probes on the picked GPUs)",
        t.dim(),
    )));
    out
}

fn plan_text(r: &crate::report::Report, plan: &crate::tui::app::ProbePlan) -> String {
    let gpus: Vec<String> = gpu_table::rows(r)
        .iter()
        .map(gpu_table::GpuRow::key)
        .filter(|k| !plan.skip_gpus.contains(k))
        .collect();
    let between_not_run = crate::tui::update::between_not_run(r, plan);
    let names: Vec<&str> = PROBES
        .iter()
        .chain(BETWEEN_PROBES.iter().filter(|_| between_not_run.is_none()))
        .copied()
        .filter(|p| !plan.skip_probes.contains(*p))
        .collect();
    let list = |v: Vec<String>| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
    format!(
        "GPUs {} · probes {}",
        list(gpus),
        list(names.into_iter().map(String::from).collect())
    )
}

pub struct ProbeLog<'a> {
    pub app: &'a App,
    pub theme: Theme,
}

impl Widget for &ProbeLog<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let title = Line::from(Span::styled(" Probe log ", self.theme.title(true)));
        title.render(Rect { height: 1, ..area }, buf);
        let body = Rect {
            y: area.y + 1,
            height: area.height.saturating_sub(1),
            ..area
        };
        Paragraph::new(lines(self.app, self.theme))
            .wrap(Wrap { trim: false })
            .scroll((self.app.log_scroll, 0))
            .render(body, buf);
    }
}
