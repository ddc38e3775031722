//! Cutting text to a width with an ellipsis, so a cut is never silent. Widths are
//! terminal columns (unicode-width, as ratatui counts them): a CJK character or an emoji
//! takes two, a combining mark none. Every widget that draws a line that may not fit
//! goes through [`ellipsize`] (for a string) or [`fit_line`] (for a styled line).

use std::borrow::Cow;

use ratatui::text::{Line, Span};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

pub const ELLIPSIS: &str = "…";

/// Display width in terminal columns.
pub fn width(s: &str) -> usize {
    UnicodeWidthStr::width(s)
}

/// `s` if it fits in `max` columns; else its longest head that fits with "…" after it
/// (trailing spaces before the "…" dropped). The result is never wider than `max`.
pub fn ellipsize(s: &str, max: usize) -> Cow<'_, str> {
    if width(s) <= max {
        return Cow::Borrowed(s);
    }
    Cow::Owned(cut(s, max))
}

/// The head of `s` that fits in `max - 1` columns, then "…" (nothing when `max` is 0).
fn cut(s: &str, max: usize) -> String {
    if max == 0 {
        return String::new();
    }
    let room = max - 1;
    let mut used = 0;
    let mut out = String::new();
    for c in s.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > room {
            break;
        }
        used += w;
        out.push(c);
    }
    out.truncate(out.trim_end().len());
    out.push_str(ELLIPSIS);
    out
}

/// `s` cut with [`ellipsize`] and padded with spaces to exactly `w` columns (table cells).
pub fn pad(s: &str, w: usize) -> String {
    let s = ellipsize(s, w);
    let fill = w.saturating_sub(width(&s));
    format!("{s}{}", " ".repeat(fill))
}

/// `line` as it fits in `max` columns: unchanged when it fits, else its spans up to the
/// one that crosses the edge, which is cut with an ellipsis (the line's and the spans'
/// styles kept).
pub fn fit_line(line: Line<'_>, max: usize) -> Line<'_> {
    if line.width() <= max {
        return line;
    }
    let Line {
        spans,
        style,
        alignment,
    } = line;
    let mut out: Vec<Span> = Vec::with_capacity(spans.len());
    let mut used = 0;
    for span in spans {
        let w = span.width();
        if used + w < max {
            used += w;
            out.push(span);
            continue;
        }
        // The line is wider than `max`, so this span (or a later one) crosses the edge:
        // this one holds the ellipsis.
        out.push(Span::styled(cut(&span.content, max - used), span.style));
        break;
    }
    Line {
        spans: out,
        style,
        alignment,
    }
}

/// [`fit_line`] over every line.
pub fn fit_lines(lines: Vec<Line<'_>>, max: usize) -> Vec<Line<'_>> {
    lines.into_iter().map(|l| fit_line(l, max)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::{Style, Stylize};

    #[test]
    fn text_that_fits_is_kept_as_it_is() {
        assert_eq!(ellipsize("driver", 6), "driver");
        assert!(matches!(ellipsize("driver", 10), Cow::Borrowed(_)));
        assert_eq!(ellipsize("", 0), "");
    }

    #[test]
    fn a_cut_ends_in_an_ellipsis_and_never_overflows() {
        assert_eq!(ellipsize("NVIDIA H100 80GB HBM3", 10), "NVIDIA H1…");
        assert_eq!(width(&ellipsize("NVIDIA H100 80GB HBM3", 10)), 10);
        // No space dangling before the ellipsis.
        assert_eq!(ellipsize("NVIDIA H100", 8), "NVIDIA…");
        assert_eq!(ellipsize("abc", 1), "…");
        assert_eq!(ellipsize("abc", 0), "");
    }

    #[test]
    fn widths_are_terminal_columns_not_chars() {
        // Each of these takes two columns: four fit in nine with the ellipsis, not eight.
        let wide = "日本語のテキスト";
        assert_eq!(width(wide), 16);
        let cut = ellipsize(wide, 9);
        assert_eq!(cut, "日本語の…");
        assert_eq!(width(&cut), 9);
        // A wide character that would straddle the edge is left out whole.
        assert_eq!(ellipsize(wide, 4), "日…");
        assert_eq!(width(&ellipsize(wide, 4)), 3);
        // Combining marks take no column.
        assert_eq!(
            ellipsize("e\u{301}e\u{301}e\u{301}", 3),
            "e\u{301}e\u{301}e\u{301}"
        );
    }

    #[test]
    fn pad_fills_exactly() {
        assert_eq!(pad("ab", 4), "ab  ");
        assert_eq!(pad("abcdef", 4), "abc…");
        assert_eq!(width(&pad("日本語", 4)), 4);
    }

    #[test]
    fn a_line_is_cut_in_the_span_that_crosses_the_edge_and_keeps_styles() {
        let line = Line::from(vec![
            Span::styled("✗ ", Style::new().red()),
            Span::raw("library version mismatch"),
            Span::raw(" [GPU 0]"),
        ])
        .style(Style::new().reversed());
        let fit = fit_line(line.clone(), 12);
        assert_eq!(fit.width(), 12);
        assert_eq!(fit.spans.len(), 2);
        assert_eq!(fit.spans[0].style, Style::new().red());
        assert_eq!(fit.spans[1].content, "library v…");
        assert_eq!(fit.style, Style::new().reversed());
        // A span that ends exactly at the edge with more to come takes the ellipsis.
        let fit = fit_line(line.clone(), 2);
        assert_eq!(fit.spans.len(), 1);
        assert_eq!(fit.spans[0].content, "✗…");
        // A line that fits is untouched.
        assert_eq!(fit_line(line.clone(), 100), line);
        assert_eq!(fit_line(Line::from("abc"), 0).width(), 0);
    }
}
