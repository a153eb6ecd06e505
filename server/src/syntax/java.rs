//! Java string semantics the runtime relies on, so our outcomes match it exactly.
//!
//! `Character.isWhitespace` (used by `strip`, `isBlank`, `stripTrailing`) differs from Rust's
//! `char::is_whitespace`: it excludes the no-break spaces U+00A0, U+2007 and U+202F and includes the
//! separators U+001C..U+001F. `trim` removes every char `<= U+0020`. Lengths in budgets are UTF-16
//! code units.

/// `Character.isWhitespace(ch)`.
pub fn is_whitespace(ch: char) -> bool {
    match ch {
        '\u{00A0}' | '\u{2007}' | '\u{202F}' => false,
        '\u{0009}'..='\u{000D}' | '\u{001C}'..='\u{001F}' => true,
        _ => ch.is_whitespace() && !matches!(ch, '\u{0085}'),
    }
}

/// `String.strip()`.
pub fn strip(s: &str) -> &str {
    s.trim_matches(is_whitespace)
}

/// `String.stripTrailing()`.
pub fn strip_trailing(s: &str) -> &str {
    s.trim_end_matches(is_whitespace)
}

/// `String.stripLeading()`.
pub fn strip_leading(s: &str) -> &str {
    s.trim_start_matches(is_whitespace)
}

/// `String.isBlank()`.
pub fn is_blank(s: &str) -> bool {
    s.chars().all(is_whitespace)
}

/// `String.trim()`: removes every char `<= U+0020` at both ends.
pub fn trim(s: &str) -> &str {
    s.trim_matches(|c: char| c <= '\u{20}')
}

/// `String.length()`: UTF-16 code units.
pub fn utf16_len(s: &str) -> usize {
    s.encode_utf16().count()
}

/// `String.lines()`: splits on `\n`, `\r\n` and `\r`; a final empty line is dropped.
pub fn lines(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            b'\r' => {
                out.push(&s[start..i]);
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_break_spaces_are_not_java_whitespace() {
        assert_eq!(strip("\u{00A0}x \t"), "\u{00A0}x");
        assert!(!is_blank("\u{202F}"));
        assert!(is_blank(" \t\r\n\u{1F}"));
        assert_eq!(trim("\u{1}x\u{20}"), "x");
    }

    #[test]
    fn lines_like_java() {
        assert_eq!(lines("a\r\nb\rc\n"), vec!["a", "b", "c"]);
        assert_eq!(lines("a\n\n"), vec!["a", ""]);
        assert_eq!(lines(""), Vec::<&str>::new());
    }

    #[test]
    fn utf16_lengths() {
        assert_eq!(utf16_len("a😀"), 3);
    }
}
