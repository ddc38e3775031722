//! The fleet on a terminal: a live table of hosts that fills in as they answer (status,
//! verdict, GPUs, driver, CUDA, torch, top finding, time), sorting and filtering, a
//! summary page with the groups and the drift, and Enter to open one host's report in
//! the local report views (`tui::view` with a `tui::app::App` of that report).
//!
//! Elm-style like the local UI: [`FleetApp`] is the state, [`update`] changes it, [`draw`]
//! only draws.

use std::io::Write;
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Constraint, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Cell, Paragraph, Row, Table, Widget, Wrap};
use ratatui::Frame;

use crate::finding::Severity;
use crate::fleet::inventory::Target;
use crate::fleet::{aggregate, render, FleetOptions, HostResult, Status};
use crate::host::Host;
use crate::report::{exit, Verdict};
use crate::tui::keymap::{self, Action};
use crate::tui::widgets::ellipsis::{ellipsize, fit_line};
use crate::tui::widgets::theme::{spinner, Theme};
use crate::tui::{self, msg::Cmd, msg::Msg};

const TICK: Duration = Duration::from_millis(100);

/// The UI is for a person at a terminal, as for the local report.
pub fn wanted(host: &Host) -> bool {
    use std::io::IsTerminal;
    std::io::stdout().is_terminal()
        && std::io::stdin().is_terminal()
        && host.var("TERM") != Some("dumb")
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sort {
    /// The order the hosts were given in.
    Input,
    /// Worst first (not ok, then failures, warnings, healthy).
    Worst,
    Host,
    /// Slowest first.
    Time,
}

impl Sort {
    fn next(self) -> Sort {
        match self {
            Sort::Input => Sort::Worst,
            Sort::Worst => Sort::Host,
            Sort::Host => Sort::Time,
            Sort::Time => Sort::Input,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Sort::Input => "input order",
            Sort::Worst => "worst first",
            Sort::Host => "host",
            Sort::Time => "slowest first",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Page {
    Hosts,
    Summary,
}

pub struct FleetApp {
    pub hosts: Vec<String>,
    /// Results in the order they arrived (the views aggregate over this slice as it is).
    pub arrived: Vec<HostResult>,
    /// For each host (input order), its position in `arrived`.
    pub slot: Vec<Option<usize>>,
    pub done: usize,
    pub elapsed_ms: u64,
    pub tick: u64,
    pub size: (u16, u16),
    pub color: bool,
    pub page: Page,
    pub sort: Sort,
    pub filter: String,
    pub filter_editing: bool,
    /// Index into `visible()`.
    pub selected: usize,
    pub offset: usize,
    pub summary_scroll: u16,
    /// One host's report, open in the local report views.
    pub detail: Option<Box<tui::app::App>>,
    pub status: Option<String>,
    pub quit: bool,
}

impl FleetApp {
    pub fn new(hosts: Vec<String>, color: bool) -> FleetApp {
        let n = hosts.len();
        FleetApp {
            hosts,
            arrived: Vec::with_capacity(n),
            slot: vec![None; n],
            done: 0,
            elapsed_ms: 0,
            tick: 0,
            size: (80, 24),
            color,
            page: Page::Hosts,
            sort: Sort::Input,
            filter: String::new(),
            filter_editing: false,
            selected: 0,
            offset: 0,
            summary_scroll: 0,
            detail: None,
            status: None,
            quit: false,
        }
    }

    pub fn finished(&self) -> bool {
        self.done == self.hosts.len()
    }

    /// Host `i`'s result, once it arrived.
    pub fn result(&self, i: usize) -> Option<&HostResult> {
        self.slot
            .get(i)
            .copied()
            .flatten()
            .and_then(|p| self.arrived.get(p))
    }

    /// Host indexes shown, filtered and sorted.
    pub fn visible(&self) -> Vec<usize> {
        let needle = self.filter.to_lowercase();
        let mut v: Vec<usize> = (0..self.hosts.len())
            .filter(|&i| needle.is_empty() || self.row_text(i).to_lowercase().contains(&needle))
            .collect();
        let rank = |i: usize| -> (i32, u8) {
            match self.result(i) {
                None => (-1, 0),
                Some(r) => (r.exit_code, r.status as u8),
            }
        };
        match self.sort {
            Sort::Input => {}
            Sort::Worst => v.sort_by(|a, b| rank(*b).cmp(&rank(*a)).then(a.cmp(b))),
            Sort::Host => v.sort_by(|a, b| self.hosts[*a].cmp(&self.hosts[*b])),
            Sort::Time => {
                v.sort_by_key(|i| std::cmp::Reverse(self.result(*i).map_or(0, |r| r.elapsed_ms)))
            }
        }
        v
    }

    fn row_text(&self, i: usize) -> String {
        match self.result(i) {
            Some(r) => render::row(r).join(" "),
            None => format!("{} waiting", self.hosts[i]),
        }
    }

    /// The exit code on quitting: the fleet's when every host answered, else 3.
    pub fn exit_code(&self) -> i32 {
        if self.finished() {
            crate::fleet::exit_code(&self.arrived)
        } else {
            exit::NO_VERDICT
        }
    }

    fn table_height(&self) -> usize {
        usize::from(self.size.1.saturating_sub(4)).max(1)
    }

    fn keep_visible(&mut self) {
        let n = self.visible().len();
        if n == 0 {
            self.selected = 0;
            self.offset = 0;
            return;
        }
        self.selected = self.selected.min(n - 1);
        let h = self.table_height();
        if self.selected < self.offset {
            self.offset = self.selected;
        } else if self.selected >= self.offset + h {
            self.offset = self.selected + 1 - h;
        }
    }
}

/// What changes the fleet UI.
pub enum FleetMsg {
    Key(KeyEvent),
    Resize(u16, u16),
    Tick,
    Host(usize, Box<HostResult>),
    Finished(u64),
    Signal,
}

/// Changes the state; returns the local UI's effects (copy to clipboard) to perform.
pub fn update(app: &mut FleetApp, msg: FleetMsg) -> Vec<Cmd> {
    match msg {
        FleetMsg::Resize(w, h) => {
            app.size = (w, h);
            if let Some(d) = app.detail.as_mut() {
                tui::update::update(d, Msg::Resize(w, h));
            }
            app.keep_visible();
        }
        FleetMsg::Tick => {
            app.tick = app.tick.wrapping_add(1);
            if let Some(d) = app.detail.as_mut() {
                tui::update::update(d, Msg::Tick);
            }
        }
        FleetMsg::Host(i, r) => {
            if let Some(slot) = app.slot.get_mut(i) {
                match *slot {
                    Some(p) => {
                        if let Some(old) = app.arrived.get_mut(p) {
                            *old = *r;
                        }
                    }
                    None => {
                        *slot = Some(app.arrived.len());
                        app.arrived.push(*r);
                        app.done += 1;
                    }
                }
            }
        }
        FleetMsg::Finished(ms) => app.elapsed_ms = ms,
        FleetMsg::Signal => app.quit = true,
        FleetMsg::Key(k) => return key(app, k),
    }
    Vec::new()
}

fn key(app: &mut FleetApp, k: KeyEvent) -> Vec<Cmd> {
    if k.code == KeyCode::Char('c') && k.modifiers.contains(KeyModifiers::CONTROL) {
        app.quit = true;
        return Vec::new();
    }
    let action = keymap::action_for(&k);
    if let Some(d) = app.detail.as_mut() {
        // Re-running and picking probes are for this machine, not a remote report.
        if matches!(action, Some(Action::Rerun | Action::Pick | Action::Toggle))
            && !d.filter_editing
        {
            d.status = Some("a remote host's report: run the fleet again to refresh it".into());
            return Vec::new();
        }
        let cmds = tui::update::update(d, Msg::Key(k));
        if d.quit {
            app.detail = None;
        }
        return cmds
            .into_iter()
            .filter(|c| matches!(c, Cmd::Copy(_) | Cmd::Redraw))
            .collect();
    }
    if app.filter_editing {
        match k.code {
            KeyCode::Char(c) => app.filter.push(c),
            KeyCode::Backspace => {
                app.filter.pop();
            }
            KeyCode::Enter => app.filter_editing = false,
            KeyCode::Esc => {
                app.filter.clear();
                app.filter_editing = false;
            }
            _ => {}
        }
        app.selected = 0;
        app.keep_visible();
        return Vec::new();
    }
    app.status = None;
    let page = app.table_height();
    // The shared keymap (tui::keymap); in the fleet `s` (Save there) sorts the table.
    match action {
        Some(Action::Quit) => app.quit = true,
        // Back one level: the summary to the hosts, a filter to none; then quit.
        Some(Action::Escape) => {
            if app.page == Page::Summary {
                app.page = Page::Hosts;
            } else if !app.filter.is_empty() {
                app.filter.clear();
            } else {
                app.quit = true;
            }
        }
        Some(Action::Up) => app.selected = app.selected.saturating_sub(1),
        Some(Action::Down) => app.selected += 1,
        Some(Action::PageUp) => app.selected = app.selected.saturating_sub(page),
        Some(Action::PageDown) => app.selected += page,
        Some(Action::Top) => app.selected = 0,
        Some(Action::Bottom) => app.selected = usize::MAX / 2,
        Some(Action::NextPane | Action::PrevPane) => {
            app.page = match app.page {
                Page::Hosts => Page::Summary,
                Page::Summary => Page::Hosts,
            }
        }
        Some(Action::Save) => app.sort = app.sort.next(),
        Some(Action::Filter) => {
            app.filter_editing = true;
            app.page = Page::Hosts;
        }
        Some(Action::Open | Action::Expand) => open(app),
        _ => {}
    }
    if app.page == Page::Summary {
        match action {
            Some(Action::Up) => {
                app.summary_scroll = app.summary_scroll.saturating_sub(1);
            }
            Some(Action::Down) => {
                app.summary_scroll = app.summary_scroll.saturating_add(1);
            }
            _ => {}
        }
    }
    app.keep_visible();
    Vec::new()
}

fn open(app: &mut FleetApp) {
    let visible = app.visible();
    let Some(&i) = visible.get(app.selected) else {
        return;
    };
    let Some(r) = app.result(i) else {
        app.status = Some(format!("{} has not answered yet", app.hosts[i]));
        return;
    };
    match r.parsed_report() {
        Some(report) => {
            let mut d = tui::app::App::with_report(report, app.size, app.color);
            d.clipboard = true;
            app.detail = Some(Box::new(d));
        }
        None => {
            app.status = Some(format!(
                "{}: {} — {}",
                r.host,
                r.status.as_str(),
                r.detail.as_deref().unwrap_or("no report")
            ));
        }
    }
}

/// Draws the screen: one host's report, or the fleet table / summary.
pub fn draw(frame: &mut Frame, app: &FleetApp) {
    if let Some(d) = &app.detail {
        tui::view::draw(frame, d);
        return;
    }
    let area = frame.area();
    let t = Theme { color: app.color };
    let header = Rect { height: 1, ..area };
    let footer = Rect {
        y: area.bottom().saturating_sub(1),
        height: 1.min(area.height),
        ..area
    };
    let body = Rect {
        y: area.y + 1,
        height: area.height.saturating_sub(2),
        ..area
    };
    frame.render_widget(
        Paragraph::new(fit_line(header_line(app, t), usize::from(area.width))),
        header,
    );
    match app.page {
        Page::Hosts => hosts_table(frame, app, t, body),
        Page::Summary => {
            let text = summary_text(app);
            frame.render_widget(
                Paragraph::new(text)
                    .wrap(Wrap { trim: false })
                    .scroll((app.summary_scroll, 0)),
                body,
            );
        }
    }
    let foot = if app.filter_editing {
        format!("filter: {}▏ (Enter keeps, Esc clears)", app.filter)
    } else if let Some(s) = &app.status {
        s.clone()
    } else {
        format!(
            "↑↓ move · Enter report · s sort ({}) · / filter{} · Tab {} · q quit",
            app.sort.name(),
            if app.filter.is_empty() {
                String::new()
            } else {
                format!(" [{}]", app.filter)
            },
            match app.page {
                Page::Hosts => "groups & drift",
                Page::Summary => "hosts",
            }
        )
    };
    frame.render_widget(
        Paragraph::new(fit_line(
            Line::from(Span::styled(foot, t.dim())),
            usize::from(area.width),
        )),
        footer,
    );
}

fn header_line(app: &FleetApp, t: Theme) -> Line<'static> {
    let arrived = &app.arrived;
    let mut spans = vec![Span::styled("gpu-doctor fleet ", t.bold())];
    if app.finished() {
        let code = crate::fleet::exit_code(arrived);
        let (word, sev) = match code {
            0 => ("✓ HEALTHY", Severity::Pass),
            1 => ("! WARNINGS", Severity::Warn),
            _ => ("✗ FAILURES", Severity::Fail),
        };
        spans.push(Span::styled(word, t.severity(sev).patch(t.bold())));
        spans.push(Span::raw(format!(
            "  {} hosts in {:.1}s  ",
            app.hosts.len(),
            app.elapsed_ms as f64 / 1000.0
        )));
    } else {
        spans.push(Span::raw(format!(
            "{} {}/{} hosts  ",
            spinner(app.tick),
            app.done,
            app.hosts.len()
        )));
    }
    for v in [Verdict::Healthy, Verdict::Warnings, Verdict::Failures] {
        let n = arrived.iter().filter(|r| r.verdict() == Some(v)).count();
        if n > 0 {
            spans.push(Span::styled(
                format!("{n} {} ", render::verdict_name(v)),
                t.verdict(v),
            ));
        }
    }
    for (s, n) in aggregate::status_counts(arrived) {
        if s != Status::Ok {
            spans.push(Span::styled(
                format!("{n} {} ", s.as_str()),
                t.severity(Severity::Fail),
            ));
        }
    }
    Line::from(spans)
}

/// The STATUS cell: `ok` (the host answered with a report) is good news whatever the
/// report says; anything else (unreachable, timeout …) is a failure of the run.
fn status_style(r: &HostResult, t: Theme) -> Style {
    match r.status {
        Status::Ok => t.severity(Severity::Pass),
        _ => t.severity(Severity::Fail),
    }
}

/// The VERDICT cell: the report's verdict colour; no report is a failure.
fn verdict_style(r: &HostResult, t: Theme) -> Style {
    match (r.status, r.verdict()) {
        (Status::Ok, Some(v)) => t.verdict(v),
        _ => t.severity(Severity::Fail),
    }
}

/// The host table's column widths (the last one takes what is left).
const HOST_COLUMNS: [Constraint; 9] = [
    Constraint::Min(10),
    Constraint::Length(17),
    Constraint::Length(8),
    Constraint::Length(4),
    Constraint::Length(12),
    Constraint::Length(5),
    Constraint::Length(18),
    Constraint::Fill(2),
    Constraint::Length(6),
];

/// The width each column of the host table gets at `width` columns, as the table lays
/// them out (so a cell is cut with an ellipsis, not silently by the table).
fn column_widths(width: u16) -> Vec<usize> {
    ratatui::layout::Layout::horizontal(HOST_COLUMNS)
        .flex(ratatui::layout::Flex::Start)
        .spacing(1)
        .split(Rect::new(0, 0, width, 1))
        .iter()
        .map(|r| usize::from(r.width))
        .collect()
}

fn hosts_table(frame: &mut Frame, app: &FleetApp, t: Theme, area: Rect) {
    let visible = app.visible();
    let h = usize::from(area.height.saturating_sub(1));
    let col_w = column_widths(area.width);
    let fit = |c: usize, text: String| -> String {
        match col_w.get(c) {
            Some(w) => ellipsize(&text, *w).into_owned(),
            None => text,
        }
    };
    let rows: Vec<Row> = visible
        .iter()
        .enumerate()
        .skip(app.offset)
        .take(h)
        .map(|(pos, &i)| {
            let cells: Vec<Cell> = match app.result(i) {
                Some(r) => render::row(r)
                    .into_iter()
                    .enumerate()
                    .map(|(c, text)| {
                        let text = fit(c, text);
                        match c {
                            1 => Cell::from(Span::styled(text, status_style(r, t))),
                            2 => Cell::from(Span::styled(text, verdict_style(r, t))),
                            _ => Cell::from(text),
                        }
                    })
                    .collect(),
                None => vec![
                    Cell::from(fit(0, app.hosts[i].clone())),
                    Cell::from(Span::styled(
                        fit(1, format!("{} running", spinner(app.tick))),
                        t.dim(),
                    )),
                ],
            };
            let row = Row::new(cells);
            if pos == app.selected {
                row.style(t.selected())
            } else {
                row
            }
        })
        .collect();
    let header = Row::new(
        render::COLUMNS
            .iter()
            .enumerate()
            .map(|(c, title)| Cell::from(Span::styled(fit(c, title.to_string()), t.bold()))),
    );
    Table::new(rows, HOST_COLUMNS)
        .header(header)
        .column_spacing(1)
        .render(area, frame.buffer_mut());
}

fn summary_text(app: &FleetApp) -> Vec<Line<'static>> {
    let arrived = &app.arrived;
    let mut lines = vec![Line::from("Groups (hosts with identical results)")];
    for g in aggregate::groups(arrived) {
        let what = match (g.status, g.verdict) {
            (Status::Ok, Some(v)) => render::verdict_name(v).to_string(),
            (s, _) => s.as_str().to_string(),
        };
        let tail = g.detail.clone().unwrap_or_else(|| g.problems.join(" "));
        lines.push(Line::from(format!(
            "  {}  ({})  {what}  {tail}",
            g.hosts, g.count
        )));
    }
    lines.push(Line::from(""));
    let drift = aggregate::drift(arrived);
    if drift.is_empty() {
        lines.push(Line::from("No drift: every host that answered agrees."));
    } else {
        lines.push(Line::from("Drift (hosts that differ from the majority)"));
        for d in drift {
            lines.push(Line::from(format!(
                "  {}: {} on {} host(s)",
                d.attribute, d.majority, d.majority_count
            )));
            for o in d.outliers {
                lines.push(Line::from(format!("    {}  {}", o.value, o.hosts)));
            }
        }
    }
    lines
}

/// Runs the fleet under the UI; returns the exit code.
pub fn run(targets: &[Target], opts: &FleetOptions, color: bool) -> i32 {
    let mut app = FleetApp::new(targets.iter().map(Target::label).collect(), color);
    let (tx, rx) = mpsc::channel::<FleetMsg>();
    {
        let (tx, targets, opts) = (tx.clone(), targets.to_vec(), opts.clone());
        let _ = std::thread::Builder::new().spawn(move || {
            let start = Instant::now();
            let results = crate::fleet::run(&targets, &opts, &mut |i, r| {
                let _ = tx.send(FleetMsg::Host(i, Box::new(r.clone())));
            });
            drop(results);
            let _ = tx.send(FleetMsg::Finished(
                u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX),
            ));
        });
    }
    let restorer = tui::terminal::Restorer::default();
    let hook = tui::terminal::install_panic_hook(std::thread::current().id(), restorer.clone());
    let (mut term, guard) = match tui::terminal::setup(restorer) {
        Ok(t) => t,
        Err(e) => {
            hook.uninstall();
            let _ = writeln!(
                std::io::stderr(),
                "gpu-doctor: could not start the terminal UI: {e}; --plain prints the table"
            );
            return exit::NO_VERDICT;
        }
    };
    let (sig_tx, sig_rx) = mpsc::channel::<Msg>();
    let signals = tui::terminal::forward_signals(sig_tx).ok();
    if let Ok(s) = term.size() {
        app.size = (s.width, s.height);
    }
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        event_loop(&mut term, &mut app, &rx, &sig_rx)
    }));
    // Quitting before every host answered: no ssh child outlives the UI.
    opts.ssh.running.kill_all();
    drop(term);
    drop(guard);
    if let Some(s) = signals {
        s.close();
    }
    hook.uninstall();
    match outcome {
        Ok(Ok(())) => app.exit_code(),
        Ok(Err(e)) => {
            let _ = writeln!(std::io::stderr(), "gpu-doctor: terminal UI failed: {e}");
            exit::NO_VERDICT
        }
        Err(_) => exit::NO_VERDICT,
    }
}

fn event_loop(
    term: &mut tui::terminal::Term,
    app: &mut FleetApp,
    rx: &Receiver<FleetMsg>,
    signals: &Receiver<Msg>,
) -> std::io::Result<()> {
    let mut last_tick = Instant::now();
    while !app.quit {
        term.draw(|f| draw(f, app))?;
        let mut queue: Vec<FleetMsg> = Vec::new();
        if event::poll(TICK.saturating_sub(last_tick.elapsed()))? {
            match event::read()? {
                Event::Key(k) => queue.push(FleetMsg::Key(k)),
                Event::Resize(w, h) => queue.push(FleetMsg::Resize(w, h)),
                _ => {}
            }
        }
        queue.extend(rx.try_iter());
        if signals.try_recv().is_ok() {
            queue.push(FleetMsg::Signal);
        }
        if last_tick.elapsed() >= TICK {
            queue.push(FleetMsg::Tick);
            last_tick = Instant::now();
        }
        for m in queue {
            for cmd in update(app, m) {
                match cmd {
                    Cmd::Copy(text) => {
                        let out = term.backend_mut();
                        out.write_all(tui::osc52::sequence(&text).as_bytes())?;
                        out.flush()?;
                    }
                    Cmd::Redraw => term.clear()?,
                    Cmd::Gather { .. } | Cmd::Save(_) => {}
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::backend::TestBackend;
    use ratatui::Terminal;

    fn result(host: &str, status: Status, report: Option<&crate::report::Report>) -> HostResult {
        HostResult {
            host: host.into(),
            status,
            exit_code: report.map_or(2, |r| r.exit_code),
            elapsed_ms: 1200,
            pushed: false,
            detail: (status != Status::Ok).then(|| "ssh: Connection refused".into()),
            summary: report.map(crate::fleet::HostSummary::of),
            report: report.map(|r| {
                serde_json::value::RawValue::from_string(serde_json::to_string(r).unwrap()).unwrap()
            }),
        }
    }

    fn screen(app: &FleetApp) -> String {
        let mut term = Terminal::new(TestBackend::new(120, 20)).unwrap();
        term.draw(|f| draw(f, app)).unwrap();
        let buf = term.backend().buffer().clone();
        (0..buf.area.height)
            .map(|y| {
                (0..buf.area.width)
                    .map(|x| buf[(x, y)].symbol().to_string())
                    .collect::<String>()
                    .trim_end()
                    .to_string()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn press(app: &mut FleetApp, code: KeyCode) {
        update(app, FleetMsg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
    }

    #[test]
    fn a_hostile_remote_report_draws_no_control_characters() {
        let mut facts = crate::checks::testutil::healthy();
        facts.system.hostname =
            crate::fact::Fact::known("evil\x1b]52;c;cm0gLXJmIC8=\x07host".to_string());
        let report = crate::report::Report::new(
            crate::matrix::bundled(),
            facts,
            vec![crate::finding::Finding::new(
                "driver.library_mismatch",
                Severity::Fail,
                "\x1b[2J\x1b]0;pwned\x07cleared\r\n",
            )],
            Vec::new(),
        );
        let mut app = FleetApp::new(vec!["node01".into()], true);
        app.size = (120, 20);
        update(
            &mut app,
            FleetMsg::Host(0, Box::new(result("node01", Status::Ok, Some(&report)))),
        );
        let table = screen(&app);
        press(&mut app, KeyCode::Enter);
        assert!(app.detail.is_some());
        let detail = screen(&app);
        for s in [&table, &detail] {
            assert!(!s.chars().any(|c| c.is_control() && c != '\n'), "{s:?}");
        }
        assert!(table.contains("driver.library_mismatch"), "{table}");
    }

    /// The buffer of one draw, for styles.
    fn buffer(app: &FleetApp, width: u16) -> ratatui::buffer::Buffer {
        let mut term = Terminal::new(TestBackend::new(width, 20)).unwrap();
        term.draw(|f| draw(f, app)).unwrap();
        term.backend().buffer().clone()
    }

    /// The first cell at which `word` starts on row `y`.
    fn find(buf: &ratatui::buffer::Buffer, y: u16, word: &str) -> Option<u16> {
        let row: Vec<String> = (0..buf.area.width)
            .map(|x| buf[(x, y)].symbol().to_string())
            .collect();
        (0..row.len())
            .find(|&x| row[x..].concat().starts_with(word))
            .map(|x| x as u16)
    }

    #[test]
    fn ok_is_green_and_a_failed_verdict_red_beside_it() {
        let failing = crate::report::Report::new(
            crate::matrix::bundled(),
            crate::checks::testutil::healthy(),
            vec![crate::finding::Finding::new(
                "driver.library_mismatch",
                Severity::Fail,
                "broken",
            )],
            Vec::new(),
        );
        let mut app = FleetApp::new(vec!["node01".into(), "node02".into()], true);
        app.size = (120, 20);
        update(
            &mut app,
            FleetMsg::Host(0, Box::new(result("node01", Status::Ok, Some(&failing)))),
        );
        update(
            &mut app,
            FleetMsg::Host(1, Box::new(result("node02", Status::Unreachable, None))),
        );
        let buf = buffer(&app, 120);
        // Row 0 is the header line, row 1 the table's column titles, then the hosts.
        let ok = find(&buf, 2, "ok ").expect("node01's status");
        assert_eq!(buf[(ok, 2)].fg, ratatui::style::Color::Green);
        assert_eq!(buf[(ok + 1, 2)].fg, ratatui::style::Color::Green);
        let verdict = find(&buf, 2, "failures").expect("node01's verdict");
        assert_eq!(buf[(verdict, 2)].fg, ratatui::style::Color::Red);
        let unreachable = find(&buf, 3, "unreachable").expect("node02's status");
        assert_eq!(buf[(unreachable, 3)].fg, ratatui::style::Color::Red);
    }

    #[test]
    fn a_cell_too_long_for_its_column_ends_in_an_ellipsis() {
        let mut app = FleetApp::new(vec!["node01".into()], false);
        app.size = (80, 20);
        let mut r = result("node01", Status::Unreachable, None);
        r.detail = Some("ssh: connect to host node01 port 22: Connection refused".repeat(3));
        update(&mut app, FleetMsg::Host(0, Box::new(r)));
        let s = screen(&app);
        let row = s.lines().find(|l| l.starts_with("node01")).unwrap();
        assert!(row.contains("ssh: connect"), "{row}");
        assert!(row.contains('…'), "{row}");
        let widths = column_widths(120);
        assert_eq!(widths.len(), render::COLUMNS.len());
        assert_eq!(widths[1], 17);
    }

    #[test]
    fn live_table_sort_filter_and_open_a_report() {
        let healthy = crate::report::Report::new(
            crate::matrix::bundled(),
            crate::checks::testutil::healthy(),
            Vec::new(),
            Vec::new(),
        );
        let mut app = FleetApp::new(
            vec!["node01".into(), "node02".into(), "node03".into()],
            false,
        );
        app.size = (120, 20);
        update(
            &mut app,
            FleetMsg::Host(1, Box::new(result("node02", Status::Unreachable, None))),
        );
        let s = screen(&app);
        assert!(s.contains("1/3 hosts"), "{s}");
        assert!(s.contains("running"), "{s}");
        assert!(s.contains("node02  ") && s.contains("unreachable"), "{s}");
        update(
            &mut app,
            FleetMsg::Host(0, Box::new(result("node01", Status::Ok, Some(&healthy)))),
        );
        update(
            &mut app,
            FleetMsg::Host(2, Box::new(result("node03", Status::Ok, Some(&healthy)))),
        );
        update(&mut app, FleetMsg::Finished(2500));
        assert!(app.finished());
        assert_eq!(app.exit_code(), 2);
        let s = screen(&app);
        assert!(
            s.contains("FAILURES") && s.contains("3 hosts in 2.5s"),
            "{s}"
        );
        // Worst first puts the unreachable host on top.
        press(&mut app, KeyCode::Char('s'));
        assert_eq!(app.visible(), [1, 0, 2]);
        // Filter to one host, open its report in the local views, and come back.
        press(&mut app, KeyCode::Char('/'));
        for c in "node03".chars() {
            press(&mut app, KeyCode::Char(c));
        }
        press(&mut app, KeyCode::Enter);
        assert_eq!(app.visible(), [2]);
        press(&mut app, KeyCode::Enter);
        assert!(app.detail.is_some());
        let s = screen(&app);
        assert!(s.contains("HEALTHY"), "{s}");
        press(&mut app, KeyCode::Char('r'));
        assert!(!app.detail.as_ref().unwrap().gathering());
        press(&mut app, KeyCode::Char('q'));
        assert!(app.detail.is_none());
        assert!(!app.quit);
        // Esc goes back one level: the host's detail pane, its findings, then the fleet.
        press(&mut app, KeyCode::Enter);
        press(&mut app, KeyCode::Tab);
        assert_eq!(app.detail.as_ref().unwrap().focus, tui::app::Pane::Detail);
        press(&mut app, KeyCode::Esc);
        assert_eq!(app.detail.as_ref().unwrap().focus, tui::app::Pane::Findings);
        press(&mut app, KeyCode::Esc);
        assert!(app.detail.is_none());
        assert!(!app.quit);
        // The summary page: groups and drift.
        press(&mut app, KeyCode::Tab);
        let s = screen(&app);
        assert!(s.contains("node[01,03]  (2)  healthy"), "{s}");
        assert!(s.contains("node02  (1)  unreachable"), "{s}");
        press(&mut app, KeyCode::Esc);
        press(&mut app, KeyCode::Char('q'));
        assert!(app.quit);
    }
}
