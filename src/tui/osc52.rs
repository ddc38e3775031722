//! Copying to the clipboard through the terminal (OSC 52), which also works over ssh.

/// Terminals that cannot take OSC 52: the Linux console and `dumb`.
pub fn reachable(term: Option<&str>) -> bool {
    !matches!(term, None | Some("" | "dumb" | "linux"))
}

/// The escape sequence that sets the clipboard to `text`.
pub fn sequence(text: &str) -> String {
    format!("\x1b]52;c;{}\x07", base64(text.as_bytes()))
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_like_rfc_4648() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
        assert_eq!(sequence("hi"), "\x1b]52;c;aGk=\x07");
    }

    #[test]
    fn no_clipboard_on_the_console() {
        assert!(reachable(Some("xterm-256color")));
        assert!(reachable(Some("tmux-256color")));
        assert!(!reachable(Some("linux")));
        assert!(!reachable(Some("dumb")));
        assert!(!reachable(None));
    }
}
