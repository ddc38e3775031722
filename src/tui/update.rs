//! `update`: the only place the UI state changes. No I/O: effects come back as [`Cmd`]s
//! for the runtime to perform.

use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};
use ratatui::layout::Rect;

use super::app::{
    App, GpuScope, Load, Overlay, Pane, ProbePlan, Row, StageState, BETWEEN_PROBES, PROBES,
    STAGE_COUNT,
};
use super::keymap::{self, Action};
use super::layout::{self, Regions};
use super::msg::{Cmd, Msg};
use super::widgets::{detail, environment, gpu_table, probe_log, theme::Theme};

pub fn update(app: &mut App, msg: Msg) -> Vec<Cmd> {
    match msg {
        Msg::Key(key) => return key_press(app, key),
        Msg::Mouse(m) => return mouse(app, m),
        Msg::Resize(w, h) => {
            app.size = (w, h);
            keep_visible(app);
        }
        Msg::Tick => app.tick = app.tick.wrapping_add(1),
        Msg::Stage {
            generation,
            stage,
            done,
        } => {
            if let Load::Gathering {
                generation: g,
                stages,
                ..
            } = &mut app.load
            {
                if *g == generation {
                    if let Some(s) = stages.get_mut(stage) {
                        *s = if done {
                            StageState::Done
                        } else {
                            StageState::Running
                        };
                    }
                }
            }
        }
        Msg::Loaded {
            generation,
            report,
            elapsed_ms,
        } => {
            if generation == app.generation {
                app.elapsed_ms = Some(elapsed_ms);
                app.set_report(*report);
                app.gpu_selected = app.gpu_selected.min(gpu_count(app).saturating_sub(1));
                keep_visible(app);
            }
        }
        Msg::LoadFailed { generation, error } => {
            if generation == app.generation {
                app.load = Load::Failed(error);
                return vec![Cmd::Redraw];
            }
        }
        Msg::Probe { gpu, probe, state } => {
            match app
                .probes
                .iter_mut()
                .find(|(g, p, _)| *g == gpu && *p == probe)
            {
                Some(entry) => entry.2 = state,
                None => app.probes.push((gpu, probe, state)),
            }
        }
        Msg::Saved(result) => {
            app.status = Some(match result {
                Ok(path) => format!("saved the JSON report to {}", path.display()),
                Err(e) => format!("could not save: {e}"),
            });
        }
        Msg::Signal(_) => app.quit = true,
    }
    Vec::new()
}

fn key_press(app: &mut App, key: KeyEvent) -> Vec<Cmd> {
    if key.kind == KeyEventKind::Release {
        return Vec::new();
    }
    if app.filter_editing {
        edit_filter(app, key);
        return Vec::new();
    }
    match keymap::action_for(&key) {
        Some(a) => act(app, a),
        None => Vec::new(),
    }
}

fn edit_filter(app: &mut App, key: KeyEvent) {
    match key.code {
        KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => app.quit = true,
        KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => {
            app.filter.push(c);
            app.refilter();
        }
        KeyCode::Backspace => {
            app.filter.pop();
            app.refilter();
        }
        KeyCode::Enter => app.filter_editing = false,
        KeyCode::Esc => {
            app.filter_editing = false;
            app.filter.clear();
            app.refilter();
        }
        KeyCode::Up | KeyCode::Down => {
            app.filter_editing = false;
            let a = if key.code == KeyCode::Up {
                Action::Up
            } else {
                Action::Down
            };
            act(app, a);
        }
        _ => {}
    }
}

pub fn act(app: &mut App, action: Action) -> Vec<Cmd> {
    if app.overlay == Some(Overlay::Help) && action != Action::Quit {
        app.overlay = None;
        if matches!(action, Action::Help | Action::Escape) {
            return Vec::new();
        }
    }
    if app.overlay == Some(Overlay::Picker) {
        return picker(app, action);
    }
    app.status = None;
    match action {
        Action::Up => move_by(app, -1),
        Action::Down => move_by(app, 1),
        Action::PageUp => move_by(app, -(page(app) as isize)),
        Action::PageDown => move_by(app, page(app) as isize),
        Action::Top => move_by(app, isize::MIN / 2),
        Action::Bottom => move_by(app, isize::MAX / 2),
        Action::NextPane => cycle(app, 1),
        Action::PrevPane => cycle(app, Pane::ALL.len() - 1),
        Action::Open => {
            // Enter on a folded cause unfolds it and shows its detail.
            if app.focus == Pane::Findings {
                app.set_folded(true);
            }
            open(app);
        }
        Action::Expand => {
            if app.focus != Pane::Findings || !app.set_folded(true) {
                open(app);
            }
            keep_visible(app);
        }
        Action::Back => {
            if app.focus != Pane::Findings || !app.set_folded(false) {
                app.focus = Pane::Findings;
            }
            keep_visible(app);
        }
        Action::Escape => escape(app),
        Action::Rerun => return rerun(app),
        Action::Pick => {
            app.overlay = Some(Overlay::Picker);
            app.picker_cursor = 0;
        }
        Action::Toggle => {
            if app.focus == Pane::Findings && !app.set_folded(true) {
                app.set_folded(false);
            }
            keep_visible(app);
        }
        Action::Filter => {
            app.filter_editing = true;
            app.focus = Pane::Findings;
        }
        Action::Save => {
            if app.report.is_none() {
                app.status = Some("nothing to save yet: the report is still being gathered".into());
            } else {
                app.status = Some(format!("saving to {} …", app.save_path.display()));
                return vec![Cmd::Save(app.save_path.clone())];
            }
        }
        Action::Copy => return copy(app),
        Action::PrintFix => print_fix(app),
        Action::Help => app.overlay = Some(Overlay::Help),
        Action::Quit => {
            if app.overlay.is_some() {
                app.overlay = None;
            } else {
                app.quit = true;
            }
        }
    }
    Vec::new()
}

/// Esc goes back one level, as in lazygit and k9s: the detail to the list, a filter to
/// none, a GPU's findings to the GPU table, another pane to the findings list; only from
/// the plain findings list does it quit. (Overlays close before this is reached.)
fn escape(app: &mut App) {
    match app.focus {
        Pane::Findings if !app.filter.is_empty() => {
            app.filter.clear();
            app.refilter();
        }
        Pane::Findings if app.gpu_scope.is_some() => {
            app.gpu_scope = None;
            app.refilter();
            app.focus = Pane::Gpus;
        }
        Pane::Findings => app.quit = true,
        Pane::Detail | Pane::Gpus | Pane::Environment | Pane::ProbeLog => {
            app.focus = Pane::Findings;
        }
    }
    keep_visible(app);
}

fn fix_commands(app: &App) -> Option<Vec<String>> {
    let f = app.selected_finding()?;
    f.fix
        .as_ref()
        .map(|x| x.commands.clone())
        .filter(|c| !c.is_empty())
}

fn copy(app: &mut App) -> Vec<Cmd> {
    let Some(cmds) = fix_commands(app) else {
        app.status = Some("this finding has no fix command to copy".into());
        return Vec::new();
    };
    if !app.clipboard {
        app.status = Some(
            "no clipboard reachable from this terminal; press y to print the fix on exit".into(),
        );
        return Vec::new();
    }
    app.status =
        Some(format!(
        "copied {} to the clipboard (OSC 52; y prints it on exit if your terminal ignores that)",
        if cmds.len() == 1 { "the fix command" } else { "the fix commands" }
    ));
    vec![Cmd::Copy(cmds.join("\n"))]
}

fn print_fix(app: &mut App) {
    let Some(cmds) = fix_commands(app) else {
        app.status = Some("this finding has no fix command to print".into());
        return;
    };
    for c in cmds {
        if !app.print_on_exit.contains(&c) {
            app.print_on_exit.push(c);
        }
    }
    app.status = Some(format!(
        "{} fix command(s) will be printed when you quit",
        app.print_on_exit.len()
    ));
}

fn rerun(app: &mut App) -> Vec<Cmd> {
    if app.gathering() {
        app.status = Some("already gathering".into());
        return Vec::new();
    }
    app.generation += 1;
    app.ran_plan = Some(app.plan.clone());
    // The last run's probe states are not this run's: the cells start over.
    app.probes.clear();
    app.load = Load::Gathering {
        generation: app.generation,
        started: app.tick,
        stages: vec![StageState::Waiting; STAGE_COUNT],
    };
    vec![Cmd::Gather {
        generation: app.generation,
        plan: app.plan.clone(),
    }]
}

fn open(app: &mut App) {
    match app.focus {
        Pane::Findings if app.selected_finding().is_some() => {
            app.focus = Pane::Detail;
            app.detail_scroll = 0;
        }
        Pane::Gpus => {
            let rows = app.report.as_ref().map(gpu_table::rows).unwrap_or_default();
            if let Some(r) = rows.get(app.gpu_selected) {
                app.gpu_scope = Some(GpuScope {
                    index: r.index,
                    pci_bus_id: r.pci_bus_id.clone(),
                });
                app.refilter();
                app.focus = Pane::Findings;
            }
        }
        _ => {}
    }
    keep_visible(app);
}

fn cycle(app: &mut App, step: usize) {
    let i = Pane::ALL.iter().position(|p| *p == app.focus).unwrap_or(0);
    app.focus = Pane::ALL[(i + step) % Pane::ALL.len()];
    keep_visible(app);
}

fn page(app: &App) -> usize {
    let r = regions(app);
    let rect = match app.focus {
        Pane::Findings => r.findings,
        Pane::Detail => r.detail,
        Pane::Gpus => r.gpus,
        Pane::Environment | Pane::ProbeLog => r.body,
    };
    layout::inner_height(rect).saturating_sub(1).max(1)
}

fn regions(app: &App) -> Regions {
    layout::regions(Rect::new(0, 0, app.size.0, app.size.1), app)
}

fn gpu_count(app: &App) -> usize {
    app.report.as_ref().map_or(0, |r| gpu_table::rows(r).len())
}

fn step(pos: usize, by: isize, len: usize) -> usize {
    if len == 0 {
        return 0;
    }
    (pos as isize).saturating_add(by).clamp(0, len as isize - 1) as usize
}

fn scroll(pos: u16, by: isize, lines: usize, height: usize) -> u16 {
    let max = lines.saturating_sub(height);
    u16::try_from(step(usize::from(pos), by, max + 1)).unwrap_or(u16::MAX)
}

fn move_by(app: &mut App, by: isize) {
    let theme = Theme { color: false };
    match app.focus {
        Pane::Findings => {
            let findings: Vec<usize> = app
                .rows
                .iter()
                .enumerate()
                .filter(|(_, r)| r.finding().is_some())
                .map(|(i, _)| i)
                .collect();
            let here = findings
                .iter()
                .position(|&i| i == app.selected)
                .unwrap_or(0);
            if let Some(&to) = findings.get(step(here, by, findings.len())) {
                if to != app.selected {
                    app.detail_scroll = 0;
                }
                app.selected = to;
            }
        }
        Pane::Gpus => app.gpu_selected = step(app.gpu_selected, by, gpu_count(app)),
        Pane::Detail => {
            let rect = regions(app).detail;
            let all = app.report.as_ref().map_or(&[][..], |r| &r.findings[..]);
            let lines = app
                .selected_finding()
                .map_or(0, |f| wrapped_len(&detail::lines(f, all, theme), rect));
            let h = layout::inner_height(rect);
            app.detail_scroll = scroll(app.detail_scroll, by, lines, h);
        }
        Pane::Environment => {
            let lines = app
                .report
                .as_ref()
                .map_or(0, |r| environment::lines(r, theme).len());
            let h = layout::inner_height(regions(app).body);
            app.env_scroll = scroll(app.env_scroll, by, lines, h);
        }
        Pane::ProbeLog => {
            let rect = regions(app).body;
            let lines = wrapped_len(&probe_log::lines(app, theme), rect);
            let h = layout::inner_height(rect);
            app.log_scroll = scroll(app.log_scroll, by, lines, h);
        }
    }
    keep_visible(app);
}

/// Rows the lines take once wrapped to the pane's width (an upper bound for word wrap).
fn wrapped_len(lines: &[ratatui::text::Line], rect: Option<Rect>) -> usize {
    let w = rect.map_or(1, |r| usize::from(r.width.saturating_sub(2)).max(1));
    lines.iter().map(|l| l.width().div_ceil(w).max(1)).sum()
}

/// Scrolls the findings list and the GPU table so their cursors are on screen.
fn keep_visible(app: &mut App) {
    let r = regions(app);
    let h = layout::inner_height(r.findings);
    if h > 0 {
        if Some(app.selected) == app.first_finding_row() {
            app.list_offset = 0;
        } else if app.selected < app.list_offset {
            app.list_offset = app.selected;
        } else if app.selected >= app.list_offset + h {
            app.list_offset = app.selected + 1 - h;
        }
    }
    let g = layout::inner_height(r.gpus).saturating_sub(1);
    if g > 0 {
        if app.gpu_selected < app.gpu_offset {
            app.gpu_offset = app.gpu_selected;
        } else if app.gpu_selected >= app.gpu_offset + g {
            app.gpu_offset = app.gpu_selected + 1 - g;
        }
    }
}

/// Why the probes between GPUs (p2p, nccl) will not run with this pick: as on the
/// command line, they need two GPUs or more (of the machine's, and of those picked).
pub fn between_not_run(report: &crate::report::Report, plan: &ProbePlan) -> Option<String> {
    let rows = gpu_table::rows(report);
    let picked = rows
        .iter()
        .filter(|g| !plan.skip_gpus.contains(&g.key()))
        .count();
    if rows.len() < 2 {
        Some(format!("needs 2 GPUs, the machine has {}", rows.len()))
    } else if picked < 2 {
        Some(format!("needs 2 picked GPUs, {picked} picked"))
    } else {
        None
    }
}

/// The picker's items: the GPUs of the report, then the probes (per GPU, then between
/// GPUs, each of those saying when it will not run and why).
pub fn picker_items(app: &App) -> Vec<(String, String, bool)> {
    let gpus = app.report.as_ref().map(gpu_table::rows).unwrap_or_default();
    let mut items: Vec<(String, String, bool)> = gpus
        .iter()
        .map(|g| {
            let key = g.key();
            let on = !app.plan.skip_gpus.contains(&key);
            (format!("gpu:{key}"), g.label(), on)
        })
        .collect();
    items.extend(PROBES.iter().map(|p| {
        (
            format!("probe:{p}"),
            format!("probe {p}"),
            !app.plan.skip_probes.contains(*p),
        )
    }));
    let why = app
        .report
        .as_ref()
        .and_then(|r| between_not_run(r, &app.plan));
    items.extend(BETWEEN_PROBES.iter().map(|p| {
        let label = match &why {
            Some(why) => format!("probe {p} · skipped: {why}"),
            None => format!("probe {p} (between GPUs)"),
        };
        (
            format!("probe:{p}"),
            label,
            !app.plan.skip_probes.contains(*p),
        )
    }));
    items
}

fn picker(app: &mut App, action: Action) -> Vec<Cmd> {
    let items = picker_items(app);
    match action {
        Action::Up => app.picker_cursor = step(app.picker_cursor, -1, items.len()),
        Action::Down => app.picker_cursor = step(app.picker_cursor, 1, items.len()),
        Action::Top => app.picker_cursor = 0,
        Action::Bottom => app.picker_cursor = items.len().saturating_sub(1),
        Action::Toggle => {
            if let Some((key, _, _)) = items.get(app.picker_cursor) {
                let (set, k) = match key.split_once(':') {
                    Some(("gpu", k)) => (&mut app.plan.skip_gpus, k),
                    Some((_, k)) => (&mut app.plan.skip_probes, k),
                    None => return Vec::new(),
                };
                if !set.remove(k) {
                    set.insert(k.to_string());
                }
            }
        }
        Action::Open | Action::Rerun => {
            app.overlay = None;
            return rerun(app);
        }
        Action::Quit | Action::Escape | Action::Pick => app.overlay = None,
        _ => {}
    }
    Vec::new()
}

fn mouse(app: &mut App, m: crossterm::event::MouseEvent) -> Vec<Cmd> {
    let r = regions(app);
    let (col, row) = (m.column, m.row);
    let pane_at = || {
        if layout::contains(r.findings, col, row) {
            Some(Pane::Findings)
        } else if layout::contains(r.detail, col, row) {
            Some(Pane::Detail)
        } else if layout::contains(r.gpus, col, row) {
            Some(Pane::Gpus)
        } else if layout::contains(r.body, col, row) {
            Some(app.focus)
        } else {
            None
        }
    };
    match m.kind {
        MouseEventKind::ScrollUp | MouseEventKind::ScrollDown if app.overlay.is_none() => {
            if let Some(p) = pane_at() {
                app.focus = p;
                let by = if m.kind == MouseEventKind::ScrollUp {
                    -1
                } else {
                    1
                };
                move_by(app, by);
            }
        }
        MouseEventKind::Down(MouseButton::Left) => {
            if app.overlay.is_some() {
                app.overlay = None;
                return Vec::new();
            }
            if layout::contains(Some(r.tabs), col, row) {
                if let Some(p) = super::widgets::header::tab_at(col) {
                    app.focus = p;
                    keep_visible(app);
                }
                return Vec::new();
            }
            match pane_at() {
                Some(Pane::Findings) => {
                    let top = r.findings.map_or(0, |f| f.y + 1);
                    let i = app.list_offset + usize::from(row.saturating_sub(top));
                    if row >= top && app.rows.get(i).and_then(Row::finding).is_some() {
                        if app.selected != i {
                            app.detail_scroll = 0;
                        }
                        app.selected = i;
                    }
                    app.focus = Pane::Findings;
                }
                Some(Pane::Gpus) => {
                    let top = r.gpus.map_or(0, |g| g.y + 2);
                    let i = app.gpu_offset + usize::from(row.saturating_sub(top));
                    if row >= top && i < gpu_count(app) {
                        app.gpu_selected = i;
                    }
                    app.focus = Pane::Gpus;
                }
                Some(p) => app.focus = p,
                None => {}
            }
        }
        _ => {}
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::testutil::{healthy, no_gpu};
    use crate::checks::{evaluate, CheckOptions, Selection};
    use crate::finding::{Finding, Scope, Severity};
    use crate::report::Report;
    use crate::tui::msg::ProbeState;
    use crossterm::event::{MouseEvent, MouseEventKind};

    fn report_of(facts: crate::facts::Facts, extra: Vec<Finding>) -> Report {
        let m = crate::checks::testutil::matrix();
        let (mut f, e) = evaluate(&facts, m, &CheckOptions::default(), &Selection::default());
        f.extend(extra);
        Report::new(crate::matrix::bundled(), facts, f, e)
    }

    fn failing() -> Report {
        report_of(
            healthy(),
            vec![Finding::new("driver.x", Severity::Fail, "broken")
                .fix("do it", &["sudo fix-it", "sudo verify"])],
        )
    }

    fn app(report: Report) -> App {
        App::with_report(report, (80, 24), false)
    }

    fn key(c: KeyCode) -> Msg {
        Msg::Key(KeyEvent::new(c, KeyModifiers::NONE))
    }

    fn press(app: &mut App, keys: &[KeyCode]) -> Vec<Cmd> {
        keys.iter().flat_map(|k| update(app, key(*k))).collect()
    }

    #[test]
    fn starts_on_the_first_failure_and_reaches_its_fix_in_one_key() {
        let mut a = app(failing());
        assert_eq!(a.selected_finding().unwrap().id, "driver.x");
        press(&mut a, &[KeyCode::Enter]);
        assert_eq!(a.focus, Pane::Detail);
        let cmds = press(&mut a, &[KeyCode::Char('c')]);
        assert_eq!(cmds, vec![Cmd::Copy("sudo fix-it\nsudo verify".into())]);
    }

    #[test]
    fn moving_skips_headings_and_stops_at_the_ends() {
        let mut a = app(failing());
        let first = a.selected;
        press(&mut a, &[KeyCode::Up]);
        assert_eq!(a.selected, first, "no wrap above the first finding");
        press(&mut a, &[KeyCode::Down, KeyCode::Down, KeyCode::Down]);
        assert!(matches!(a.rows[a.selected], Row::Finding(_)));
        press(&mut a, &[KeyCode::End]);
        let last = a.rows.len() - 1;
        assert_eq!(a.selected, last);
        press(&mut a, &[KeyCode::Down]);
        assert_eq!(a.selected, last);
        press(&mut a, &[KeyCode::Home]);
        assert_eq!(a.selected, first);
    }

    #[test]
    fn the_list_scrolls_to_keep_the_cursor_visible() {
        let mut a = app(failing());
        press(&mut a, &[KeyCode::End]);
        let h = layout::inner_height(regions(&a).findings);
        assert!(a.selected >= a.list_offset && a.selected < a.list_offset + h);
        assert!(a.list_offset > 0);
        update(&mut a, Msg::Resize(160, 48));
        let h = layout::inner_height(regions(&a).findings);
        assert!(a.selected < a.list_offset + h);
    }

    #[test]
    fn tab_cycles_every_pane_and_shift_tab_goes_back() {
        let mut a = app(failing());
        let mut seen = vec![a.focus];
        for _ in 0..Pane::ALL.len() - 1 {
            press(&mut a, &[KeyCode::Tab]);
            seen.push(a.focus);
        }
        assert_eq!(seen, Pane::ALL.to_vec());
        press(&mut a, &[KeyCode::Tab]);
        assert_eq!(a.focus, Pane::Findings);
        update(
            &mut a,
            Msg::Key(KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT)),
        );
        assert_eq!(a.focus, Pane::ProbeLog);
        press(&mut a, &[KeyCode::Left]);
        assert_eq!(a.focus, Pane::Findings);
    }

    #[test]
    fn filter_typing_narrows_and_escape_clears() {
        let mut a = app(failing());
        let all = a.rows.len();
        press(&mut a, &[KeyCode::Char('/')]);
        assert!(a.filter_editing);
        for c in "shm".chars() {
            press(&mut a, &[KeyCode::Char(c)]);
        }
        assert_eq!(a.filter, "shm");
        assert!(a.rows.len() < all && !a.rows.is_empty());
        assert!(a.selected_finding().unwrap().id.contains("shm"));
        // While typing, q is text, not quit.
        press(&mut a, &[KeyCode::Char('q')]);
        assert!(!a.quit);
        assert!(a.rows.is_empty());
        press(&mut a, &[KeyCode::Backspace, KeyCode::Enter]);
        assert!(!a.filter_editing);
        assert_eq!(a.filter, "shm");
        press(&mut a, &[KeyCode::Char('/'), KeyCode::Esc]);
        assert_eq!((a.filter.as_str(), a.rows.len()), ("", all));
        assert!(!a.quit);
    }

    #[test]
    fn quit_closes_overlays_first() {
        let mut a = app(failing());
        press(&mut a, &[KeyCode::Char('?')]);
        assert_eq!(a.overlay, Some(Overlay::Help));
        press(&mut a, &[KeyCode::Esc]);
        assert_eq!(a.overlay, None);
        assert!(!a.quit);
        press(&mut a, &[KeyCode::Char('q')]);
        assert!(a.quit);
        let mut b = app(failing());
        update(
            &mut b,
            Msg::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)),
        );
        assert!(b.quit, "Ctrl-C quits");
        let mut c = app(failing());
        update(&mut c, Msg::Signal(15));
        assert!(c.quit, "SIGTERM quits through the loop");
    }

    #[test]
    fn the_picker_lists_the_probes_between_gpus_with_the_command_lines_rules() {
        let eight = Report::from_json(include_bytes!(
            "../../tests/fixtures/reports/healthy_8gpu.json"
        ))
        .unwrap();
        let mut a = app(eight);
        let item = |a: &App, p: &str| {
            picker_items(a)
                .into_iter()
                .find(|(k, _, _)| *k == format!("probe:{p}"))
                .unwrap_or_else(|| panic!("no {p} in the picker"))
        };
        for p in BETWEEN_PROBES {
            assert_eq!(item(&a, p).1, format!("probe {p} (between GPUs)"));
            assert!(item(&a, p).2);
        }
        // Last in the list, after the per-GPU probes; Space leaves one out of the next run.
        press(
            &mut a,
            &[KeyCode::Char('p'), KeyCode::End, KeyCode::Char(' ')],
        );
        assert!(a.plan.skip_probes.contains("nccl"));
        assert!(!item(&a, "nccl").2 && item(&a, "p2p").2);
        // With one GPU picked of eight they are not run, and the picker says why.
        a.plan.skip_gpus = (1..8).map(|i| i.to_string()).collect();
        assert_eq!(
            item(&a, "p2p").1,
            "probe p2p · skipped: needs 2 picked GPUs, 1 picked"
        );
        // A machine with one GPU: never, whatever is picked.
        let one = app(failing());
        assert_eq!(
            item(&one, "nccl").1,
            "probe nccl · skipped: needs 2 GPUs, the machine has 1"
        );
        assert_eq!(
            between_not_run(one.report.as_ref().unwrap(), &one.plan).as_deref(),
            Some("needs 2 GPUs, the machine has 1")
        );
    }

    #[test]
    fn picker_records_the_plan_the_rerun_uses() {
        let mut a = app(failing());
        press(&mut a, &[KeyCode::Char('p')]);
        assert_eq!(a.overlay, Some(Overlay::Picker));
        // GPU 0 first, then the probes.
        press(
            &mut a,
            &[
                KeyCode::Char(' '),
                KeyCode::Down,
                KeyCode::Down,
                KeyCode::Char(' '),
            ],
        );
        assert!(a.plan.skip_gpus.contains("0"));
        assert!(a.plan.skip_probes.contains(PROBES[1]));
        // Toggling twice restores.
        press(&mut a, &[KeyCode::Char(' '), KeyCode::Char(' ')]);
        assert!(a.plan.skip_probes.contains(PROBES[1]));
        let cmds = press(&mut a, &[KeyCode::Enter]);
        assert_eq!(a.overlay, None);
        assert_eq!(
            cmds,
            vec![Cmd::Gather {
                generation: 1,
                plan: a.plan.clone()
            }]
        );
        assert!(a.gathering());
        assert!(
            a.report.is_some(),
            "the old report stays on screen while re-gathering"
        );
    }

    #[test]
    fn rerun_ignores_stale_results_and_shows_progress() {
        let mut a = app(failing());
        assert_eq!(press(&mut a, &[KeyCode::Char('r')]).len(), 1);
        assert!(
            press(&mut a, &[KeyCode::Char('r')]).is_empty(),
            "one run at a time"
        );
        update(
            &mut a,
            Msg::Stage {
                generation: 1,
                stage: 4,
                done: false,
            },
        );
        let Load::Gathering { stages, .. } = &a.load else {
            panic!()
        };
        assert_eq!(stages[4], StageState::Running);
        update(
            &mut a,
            Msg::Loaded {
                generation: 0,
                report: Box::new(report_of(no_gpu(), Vec::new())),
                elapsed_ms: 5,
            },
        );
        assert!(a.gathering(), "a result of an older run is dropped");
        update(
            &mut a,
            Msg::Loaded {
                generation: 1,
                report: Box::new(report_of(no_gpu(), Vec::new())),
                elapsed_ms: 5,
            },
        );
        assert_eq!(a.load, Load::Ready);
        assert_eq!(a.exit_code(), 2);
        assert_eq!(a.selected_finding().unwrap().id, "host.no_nvidia_gpu");
    }

    #[test]
    fn exit_code_is_the_reports_or_3_without_one() {
        let mut a = App::new("r.json".into(), false, true);
        assert_eq!(a.exit_code(), 3);
        update(
            &mut a,
            Msg::LoadFailed {
                generation: 0,
                error: "bad".into(),
            },
        );
        assert_eq!(a.load, Load::Failed("bad".into()));
        assert_eq!(a.exit_code(), 3);
        assert_eq!(app(report_of(healthy(), Vec::new())).exit_code(), 0);
    }

    #[test]
    fn save_copy_and_print() {
        let mut a = app(failing());
        assert_eq!(
            press(&mut a, &[KeyCode::Char('s')]),
            vec![Cmd::Save(a.save_path.clone())]
        );
        update(&mut a, Msg::Saved(Ok("/tmp/r.json".into())));
        assert_eq!(
            a.status.as_deref(),
            Some("saved the JSON report to /tmp/r.json")
        );
        press(&mut a, &[KeyCode::Char('y'), KeyCode::Char('y')]);
        assert_eq!(a.print_on_exit, vec!["sudo fix-it", "sudo verify"]);
        a.clipboard = false;
        assert!(press(&mut a, &[KeyCode::Char('c')]).is_empty());
        assert!(a.status.as_deref().unwrap().contains("no clipboard"));
        let mut loading = App::new("r.json".into(), false, true);
        assert!(press(&mut loading, &[KeyCode::Char('s')]).is_empty());
    }

    #[test]
    fn a_findingless_fix_is_not_copied() {
        let mut a = app(report_of(healthy(), Vec::new()));
        assert!(press(&mut a, &[KeyCode::Char('c')]).is_empty());
        assert!(a.status.as_deref().unwrap().contains("no fix command"));
    }

    #[test]
    fn enter_on_a_gpu_scopes_the_list_to_it_and_the_filter_stays_separate() {
        let probe = Finding::new("probe.launch", Severity::Fail, "timed out").scope(Scope::Gpu {
            index: Some(0),
            pci_bus_id: None,
        });
        let mut a = app(report_of(healthy(), vec![probe]));
        press(&mut a, &[KeyCode::Tab, KeyCode::Tab, KeyCode::Enter]);
        assert_eq!(a.focus, Pane::Findings);
        assert_eq!(a.gpu_scope.as_ref().unwrap().index, Some(0));
        assert_eq!(a.filter, "", "the drill-down does not write the filter");
        assert_eq!(a.selected_finding().unwrap().id, "probe.launch");
        let scoped = a.rows.len();
        // `/` then typing edits the filter only: the scope stays.
        press(
            &mut a,
            &[KeyCode::Char('/'), KeyCode::Char('t'), KeyCode::Char('i')],
        );
        assert_eq!(a.filter, "ti");
        assert_eq!(a.gpu_scope.as_ref().unwrap().index, Some(0));
        assert!(a.rows.len() <= scoped);
        assert_eq!(a.selected_finding().unwrap().id, "probe.launch");
        // Esc while typing clears the filter, not the scope.
        press(&mut a, &[KeyCode::Esc]);
        assert_eq!((a.filter.as_str(), a.rows.len()), ("", scoped));
        assert!(a.gpu_scope.is_some());
    }

    #[test]
    fn esc_goes_back_one_level_and_quits_only_from_the_top() {
        let mut a = app(failing());
        let all = a.rows.len();
        // Help: Esc closes it, nothing else.
        press(&mut a, &[KeyCode::Char('?'), KeyCode::Esc]);
        assert_eq!((a.overlay, a.focus, a.quit), (None, Pane::Findings, false));
        // The picker: Esc closes it.
        press(&mut a, &[KeyCode::Char('p'), KeyCode::Esc]);
        assert_eq!((a.overlay, a.quit), (None, false));
        // The detail (full screen at 80 columns) goes back to the list.
        press(&mut a, &[KeyCode::Enter]);
        assert_eq!(a.focus, Pane::Detail);
        press(&mut a, &[KeyCode::Esc]);
        assert_eq!((a.focus, a.quit), (Pane::Findings, false));
        // Another pane goes back to the list.
        press(&mut a, &[KeyCode::BackTab]);
        assert_eq!(a.focus, Pane::ProbeLog);
        press(&mut a, &[KeyCode::Esc]);
        assert_eq!((a.focus, a.quit), (Pane::Findings, false));
        // GPU table -> a GPU's findings -> its detail, and back out level by level.
        press(&mut a, &[KeyCode::Tab, KeyCode::Tab, KeyCode::Enter]);
        assert!(a.gpu_scope.is_some());
        press(
            &mut a,
            &[KeyCode::Char('/'), KeyCode::Char('x'), KeyCode::Enter],
        );
        assert_eq!(a.filter, "x");
        press(&mut a, &[KeyCode::Esc]);
        assert_eq!(a.filter, "", "the filter goes first");
        assert!(a.gpu_scope.is_some());
        press(&mut a, &[KeyCode::Esc]);
        assert_eq!((a.gpu_scope.clone(), a.focus), (None, Pane::Gpus));
        assert_eq!(a.rows.len(), all);
        press(&mut a, &[KeyCode::Esc]);
        assert_eq!((a.focus, a.quit), (Pane::Findings, false));
        // Only now, at the top, Esc quits.
        press(&mut a, &[KeyCode::Esc]);
        assert!(a.quit);
        // q quits from anywhere nested.
        let mut b = app(failing());
        press(&mut b, &[KeyCode::Enter, KeyCode::Char('q')]);
        assert!(b.quit);
    }

    #[test]
    fn right_unfolds_a_cause_left_folds_it_and_enter_unfolds_and_opens() {
        let cause = Finding::new("driver.library_mismatch", Severity::Fail, "versions differ");
        let symptom = |id: &str| Finding {
            caused_by: Some(crate::finding::CauseRef {
                id: cause.id.clone(),
                scope: Scope::Host,
            }),
            ..Finding::new(id, Severity::Fail, id)
        };
        let mut a = app(report_of(
            healthy(),
            vec![
                symptom("driver.compat_package_mismatch"),
                symptom("driver.cuda_init_failed"),
                cause.clone(),
            ],
        ));
        assert_eq!(
            a.selected_finding().unwrap().id,
            cause.id,
            "the cause first"
        );
        assert!(matches!(
            a.rows[a.selected],
            Row::Cause {
                symptoms: 2,
                expanded: false,
                ..
            }
        ));
        let folded = a.rows.len();
        press(&mut a, &[KeyCode::Right]);
        assert_eq!(a.focus, Pane::Findings, "→ on a folded cause only unfolds");
        assert_eq!(a.rows.len(), folded + 2);
        assert_eq!(a.selected_finding().unwrap().id, cause.id);
        press(&mut a, &[KeyCode::Down]);
        assert!(matches!(a.rows[a.selected], Row::Symptom { .. }));
        // ← on a symptom folds its cause and puts the cursor back on it.
        press(&mut a, &[KeyCode::Left]);
        assert_eq!(a.rows.len(), folded);
        assert_eq!(a.selected_finding().unwrap().id, cause.id);
        // Space toggles.
        press(&mut a, &[KeyCode::Char(' ')]);
        assert_eq!(a.rows.len(), folded + 2);
        press(&mut a, &[KeyCode::Char(' ')]);
        assert_eq!(a.rows.len(), folded);
        // Enter unfolds and shows the cause's detail; Esc comes back to the open list.
        press(&mut a, &[KeyCode::Enter]);
        assert_eq!(a.focus, Pane::Detail);
        press(&mut a, &[KeyCode::Esc]);
        assert_eq!(a.focus, Pane::Findings);
        assert_eq!(a.rows.len(), folded + 2);
        // The unfolded cause stays unfolded across a new report of the same machine.
        let again = a.report.clone().unwrap();
        a.set_report(again);
        assert_eq!(a.rows.len(), folded + 2);
    }

    #[test]
    fn a_rerun_starts_the_probe_cells_over() {
        let mut a = app(failing());
        update(
            &mut a,
            Msg::Probe {
                gpu: 0,
                probe: "launch".into(),
                state: ProbeState::Done(Severity::Fail, Some(10_000)),
            },
        );
        assert_eq!(a.probes.len(), 1);
        press(&mut a, &[KeyCode::Char('r')]);
        assert!(a.gathering());
        assert!(a.probes.is_empty(), "{:?}", a.probes);
    }

    #[test]
    fn probe_states_stream_in() {
        let mut a = app(failing());
        let msg = |state| Msg::Probe {
            gpu: 0,
            probe: "launch".into(),
            state,
        };
        update(&mut a, msg(ProbeState::Pending));
        update(&mut a, msg(ProbeState::Running));
        update(&mut a, msg(ProbeState::Done(Severity::Pass, Some(12))));
        assert_eq!(
            a.probes,
            vec![(
                0,
                "launch".to_string(),
                ProbeState::Done(Severity::Pass, Some(12))
            )]
        );
    }

    #[test]
    fn mouse_wheel_and_clicks() {
        let mut a = App::with_report(failing(), (160, 48), false);
        let r = regions(&a);
        let list = r.findings.unwrap();
        let m = |kind, column, row| {
            Msg::Mouse(MouseEvent {
                kind,
                column,
                row,
                modifiers: KeyModifiers::NONE,
            })
        };
        let before = a.selected;
        update(
            &mut a,
            m(MouseEventKind::ScrollDown, list.x + 2, list.y + 3),
        );
        assert_ne!(a.selected, before);
        // Row 0 of the list is the first area heading; row 1 its first finding.
        update(
            &mut a,
            m(
                MouseEventKind::Down(MouseButton::Left),
                list.x + 2,
                list.y + 2,
            ),
        );
        assert_eq!(a.selected, 1);
        let detail = r.detail.unwrap();
        update(
            &mut a,
            m(
                MouseEventKind::Down(MouseButton::Left),
                detail.x + 5,
                detail.y + 2,
            ),
        );
        assert_eq!(a.focus, Pane::Detail);
        update(
            &mut a,
            m(MouseEventKind::Down(MouseButton::Left), 1, r.tabs.y),
        );
        assert_eq!(a.focus, Pane::Findings);
        let env_tab = Pane::ALL
            .iter()
            .position(|p| *p == Pane::Environment)
            .unwrap();
        let x: u16 = Pane::ALL[..env_tab]
            .iter()
            .map(|p| p.title().chars().count() as u16 + 3)
            .sum();
        update(
            &mut a,
            m(MouseEventKind::Down(MouseButton::Left), x + 1, r.tabs.y),
        );
        assert_eq!(a.focus, Pane::Environment);
    }

    #[test]
    fn the_detail_scrolls_to_its_last_wrapped_line_and_no_further() {
        let long = Finding::new("driver.x", Severity::Fail, "broken").details("word ".repeat(400));
        let mut a = app(report_of(healthy(), vec![long]));
        press(&mut a, &[KeyCode::Enter, KeyCode::End]);
        let end = a.detail_scroll;
        assert!(
            end >= 15,
            "{end}: 2000 characters wrap to about 26 rows at 80 columns"
        );
        press(&mut a, &[KeyCode::Down]);
        assert_eq!(a.detail_scroll, end);
        press(&mut a, &[KeyCode::Up]);
        assert_eq!(a.detail_scroll, end - 1);
    }

    #[test]
    fn help_closes_on_any_key() {
        let mut a = app(failing());
        press(&mut a, &[KeyCode::Char('?'), KeyCode::Down]);
        assert_eq!(a.overlay, None);
        press(&mut a, &[KeyCode::Char('?'), KeyCode::Char('?')]);
        assert_eq!(a.overlay, None);
    }
}
