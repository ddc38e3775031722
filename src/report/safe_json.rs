//! JSON as every gpu-doctor writer prints it: serde_json, except that C1 control
//! characters (U+0080–U+009F) and DEL are written as `\u` escapes. serde_json escapes only
//! what JSON requires (U+0000–U+001F); a C1 character left raw is a terminal escape
//! (U+009B is CSI) for anyone who `cat`s the report, and text from a remote host or a
//! pasted log may hold one.

use std::io::{self, Write};

use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter, PrettyFormatter};

/// Wraps a serde_json formatter, escaping C1 controls and DEL inside strings.
struct SafeFormatter<F>(F);

fn needs_escape(c: char) -> bool {
    matches!(c, '\u{7f}'..='\u{9f}')
}

impl<F: Formatter> Formatter for SafeFormatter<F> {
    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let mut start = 0;
        for (i, c) in fragment.char_indices() {
            if needs_escape(c) {
                writer.write_all(&fragment.as_bytes()[start..i])?;
                write!(writer, "\\u{:04x}", u32::from(c))?;
                start = i + c.len_utf8();
            }
        }
        writer.write_all(&fragment.as_bytes()[start..])
    }
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn end_object_key<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_key(w)
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_value(w)
    }
}

/// Like `serde_json::to_writer_pretty`, with C1 controls escaped.
pub fn to_writer_pretty<W: Write, T: ?Sized + Serialize>(
    writer: W,
    value: &T,
) -> serde_json::Result<()> {
    let mut ser =
        serde_json::Serializer::with_formatter(writer, SafeFormatter(PrettyFormatter::new()));
    value.serialize(&mut ser)
}

/// Like `serde_json::to_string_pretty`, with C1 controls escaped.
pub fn to_string_pretty<T: ?Sized + Serialize>(value: &T) -> serde_json::Result<String> {
    let mut out = Vec::new();
    to_writer_pretty(&mut out, value)?;
    String::from_utf8(out).map_err(serde::ser::Error::custom)
}

/// Like `serde_json::to_string`, with C1 controls escaped.
pub fn to_string<T: ?Sized + Serialize>(value: &T) -> serde_json::Result<String> {
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, SafeFormatter(CompactFormatter));
    value.serialize(&mut ser)?;
    String::from_utf8(out).map_err(serde::ser::Error::custom)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prometheus_labels_carry_no_c1_either() {
        let label = crate::report::prometheus::escape("gpu\u{9b}2J\u{85}\u{1b}x\u{7f}");
        assert!(!label.chars().any(char::is_control), "{label:?}");
    }

    #[test]
    fn c1_controls_are_escaped_and_round_trip() {
        let s = "a\u{9b}31mb\u{85}é\u{7f}\u{1b}ü\u{a0}";
        let v = serde_json::json!({ "k\u{9b}": [s, 1] });
        for text in [to_string(&v).unwrap(), to_string_pretty(&v).unwrap()] {
            assert!(
                !text.chars().any(|c| c.is_control() && c != '\n'),
                "{text:?}"
            );
            assert!(
                text.contains("\\u009b31mb\\u0085é\\u007f\\u001bü\u{a0}"),
                "{text}"
            );
            let back: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(back, v);
        }
        assert_eq!(
            to_string_pretty(&v).unwrap(),
            serde_json::to_string_pretty(&v)
                .unwrap()
                .replace('\u{9b}', "\\u009b")
                .replace('\u{85}', "\\u0085")
                .replace('\u{7f}', "\\u007f")
        );
    }
}
