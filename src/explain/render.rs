//! `explain` output: text for people, JSON for scripts.

use std::fmt::Write as _;

use super::{Explanation, Match};

pub fn json(ex: &Explanation) -> String {
    crate::report::safe_json::to_string_pretty(ex)
        .unwrap_or_else(|_| "{\"matches\": []}".to_string())
        + "\n"
}

pub fn text(ex: &Explanation, verbose: bool) -> String {
    let mut out = String::new();
    if ex.matches.is_empty() {
        out.push_str("No known CUDA / PyTorch / driver error found in the text.\n");
        known_cases(&mut out, ex);
        return crate::report::defang_text(&out).into_owned();
    }
    let _ = writeln!(
        out,
        "{} error message{} found (facts used: {}).",
        ex.matches.len(),
        if ex.matches.len() == 1 { "" } else { "s" },
        ex.facts
    );
    let mut order: Vec<usize> = (0..ex.matches.len()).collect();
    // The primary match first, then the rest in text order.
    if let Some(p) = ex.primary {
        order.retain(|&i| i != p);
        order.insert(0, p);
    }
    for (n, &i) in order.iter().enumerate() {
        if let Some(m) = ex.matches.get(i) {
            one(&mut out, n + 1, m, Some(i) == ex.primary, verbose);
        }
    }
    known_cases(&mut out, ex);
    // The excerpts quote pasted text: no escape sequence (OSC 52 sets the clipboard)
    // reaches the terminal.
    crate::report::defang_text(&out).into_owned()
}

/// The known cases most like the text: the threads to read next.
fn known_cases(out: &mut String, ex: &Explanation) {
    if ex.similar.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\nKnown cases that read like this (threads where the cause was established):"
    );
    for c in &ex.similar {
        let _ = writeln!(
            out,
            "   {:>3.0}%  {}  {}",
            c.similarity * 100.0,
            c.cause,
            c.source
        );
    }
}

fn one(out: &mut String, n: usize, m: &Match, primary: bool, verbose: bool) {
    let times = if m.occurrences > 1 {
        format!(", {}×", m.occurrences)
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "\n{n}. {}{} ({}, line {}{times})",
        m.title,
        if primary { " — the main error" } else { "" },
        m.id,
        m.line
    );
    let _ = writeln!(out, "   > {}", m.text);
    if !m.extracted.is_empty() {
        let parts: Vec<String> = m
            .extracted
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let _ = writeln!(out, "   read from it: {}", parts.join(", "));
    }
    let shown = if verbose || primary {
        m.causes.len()
    } else {
        m.causes.len().min(2)
    };
    let _ = writeln!(out, "   causes, most likely first:");
    for (j, k) in m.causes.iter().take(shown).enumerate() {
        let _ = writeln!(
            out,
            "   {} {:>3.0}%  {}",
            if j == 0 { "→" } else { " " },
            k.confidence * 100.0,
            k.id
        );
        let _ = writeln!(out, "          why: {}", k.why);
        for e in &k.evidence {
            let _ = writeln!(out, "          seen: {e}");
        }
        if j == 0 || verbose {
            let _ = writeln!(out, "          fix: {}", k.fix);
            for c in &k.commands {
                let _ = writeln!(out, "            $ {c}");
            }
        }
    }
    if m.causes.len() > shown {
        let _ = writeln!(
            out,
            "          (+{} less likely; -v shows all)",
            m.causes.len() - shown
        );
    }
    if m.causes.len() > 1 {
        let _ = writeln!(out, "   what tells them apart: {}", m.tells_apart);
    }
}
