//! The runtime's fallback line parser (harness-spec §2.3), used by the skill parser after any YAML
//! exception: one `key: value` a line, every value a string, and the keys it loses and why.
//!
//! Knows nothing of the YAML parser: it reads lines, as the runtime does.

use super::value::{Entry, Node, Value};
use crate::base::TextRange;
use crate::syntax::java;

/// Why a top-level key written in the frontmatter does not survive the fallback parser.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LostReason {
    /// `key: |` / `key: >`: block scalars are skipped.
    BlockScalar,
    /// `key:` with nothing after it (a nested map or list follows, or the value is empty).
    EmptyValue,
    /// The line does not match `^[A-Za-z][A-Za-z0-9_-]*\s*:` (quoted key, spaces in the key, …).
    NotAKeyLine,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LostKey {
    /// The key as written (best effort for lines that do not match the key pattern).
    pub key: String,
    /// The line's key (or whole line) range.
    pub range: TextRange,
    pub reason: LostReason,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Fallback {
    /// Entries as the runtime holds them: all values strings, duplicates keep the last value in
    /// the first position.
    pub entries: Vec<Entry>,
    pub lost: Vec<LostKey>,
}

/// The runtime's fallback line parser over `text[range]`.
pub fn fallback(text: &str, range: TextRange) -> Fallback {
    let mut out = Fallback::default();
    for (start, line) in lines(&text[range.start..range.end]) {
        fallback_line(line, range.start + start, &mut out);
    }
    out
}

fn fallback_line(line: &str, base: usize, out: &mut Fallback) {
    if java::trim(line).is_empty()
        || line.starts_with([' ', '\t'])
        || java::trim(line).starts_with('-')
    {
        return;
    }
    // ^([A-Za-z][A-Za-z0-9_-]*)\s*:\s*(.*)$
    let key_len = line
        .bytes()
        .enumerate()
        .take_while(|(i, b)| {
            if *i == 0 {
                b.is_ascii_alphabetic()
            } else {
                b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-'
            }
        })
        .count();
    let after_key = &line[key_len..];
    let after_space =
        after_key.trim_start_matches(|c: char| c.is_ascii() && is_java_space(c as u8));
    let matched = key_len > 0 && after_space.starts_with(':');
    if !matched {
        if let Some(colon) = line.find(':') {
            out.lost.push(LostKey {
                key: line[..colon].trim().to_string(),
                range: TextRange::new(base, base + colon),
                reason: LostReason::NotAKeyLine,
            });
        }
        return;
    }
    let key = &line[..key_len];
    let key_range = TextRange::new(base, base + key_len);
    let value_part = &after_space[1..];
    let value_trimmed_start =
        value_part.trim_start_matches(|c: char| c.is_ascii() && is_java_space(c as u8));
    let value_offset = base + (line.len() - value_trimmed_start.len());
    // `.` does not match Java line terminators; `$` may sit before a final one.
    let mut value = value_trimmed_start;
    if let Some(stripped) = value.strip_suffix(['\u{85}', '\u{2028}', '\u{2029}']) {
        value = stripped;
    }
    if value.contains(['\u{85}', '\u{2028}', '\u{2029}']) {
        return;
    }
    let value = java::trim(value);
    if value.is_empty() {
        out.lost.push(LostKey {
            key: key.to_string(),
            range: key_range,
            reason: LostReason::EmptyValue,
        });
        return;
    }
    if value.starts_with(['|', '>']) {
        out.lost.push(LostKey {
            key: key.to_string(),
            range: key_range,
            reason: LostReason::BlockScalar,
        });
        return;
    }
    let value_range = TextRange::new(value_offset, value_offset + value.len());
    let bytes = value.as_bytes();
    let unquoted = if bytes.len() >= 2
        && (bytes[0] == b'"' || bytes[0] == b'\'')
        && bytes[bytes.len() - 1] == bytes[0]
    {
        &value[1..value.len() - 1]
    } else {
        value
    };
    let node = Node {
        value: Value::Str(unquoted.to_string()),
        range: value_range,
        tag: None,
    };
    if let Some(existing) = out.entries.iter_mut().find(|e| e.key == key) {
        existing.value = node;
    } else {
        out.entries.push(Entry {
            key: key.to_string(),
            key_range,
            value: node,
        });
    }
}

fn is_java_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r')
}

/// The lines of `source` with their offsets: split at `\n`, `\r\n` and `\r`; a final empty line
/// after a last line break is included.
pub(super) fn lines(source: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut line_start = Some(0);
    std::iter::from_fn(move || {
        let start = line_start?;
        let end = source[start..]
            .find(['\n', '\r'])
            .map_or(source.len(), |i| start + i);
        line_start = if end >= source.len() {
            None
        } else if source[end..].starts_with("\r\n") {
            Some(end + 2)
        } else {
            Some(end + 1)
        };
        Some((start, &source[start..end]))
    })
}
