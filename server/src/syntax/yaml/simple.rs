//! The parser's events for frontmatter written in the plainest block style, found line by line
//! without the parser: most skills' frontmatter is a mapping of `key: value` lines, maybe one
//! nested mapping, and the event parser reads such a text many times slower than a scan of its
//! lines. The answer is what `granit_parser` emits for the same text, event for event, with the
//! same byte offsets (`simple_events_are_the_parsers` holds the two to that on generated texts).
//!
//! The style: lines of `key: value` or `key:` (a nested mapping on the lines below, more
//! indented), keys of letters, digits, `_`, `-` and `.`, values plain on one line, or quoted on
//! one line without escapes or inner quotes. Anything else (a sequence, a flow collection, a
//! comment, a blank line, an anchor, a tag, a block or multi-line scalar, a key with no value, a
//! tab, a carriage return, a character YAML does not print) answers `None`, and the parser reads
//! the text.
//!
//! Depends on the parser's event types only.

use std::borrow::Cow;

use serde_saphyr::granit_parser::{Event, Marker, ScalarStyle, Span, StructureStyle};

/// The events of `source` when it is written in the style above; `None` otherwise.
pub(super) fn events(source: &str) -> Option<Vec<(Event<'_>, Span)>> {
    if source.is_empty() || !printable(source) {
        return None;
    }
    let mut events = vec![
        (Event::StreamStart, at(0)),
        (Event::DocumentStart(false, None), at(0)),
    ];
    // The indentation of each open mapping, the innermost last.
    let mut indents: Vec<usize> = Vec::new();
    // The last line was `key:`: the next one opens its mapping.
    let mut opening = false;
    let mut offset = 0;
    for line in source.split_inclusive('\n') {
        let content = line.strip_suffix('\n').unwrap_or(line);
        let body = content.trim_start_matches(' ');
        let indent = content.len() - body.len();
        let start = offset + indent;
        offset += line.len();
        if body.is_empty() {
            return None;
        }
        match indents.last() {
            None if indent == 0 => {}
            None => return None,
            Some(&open) if opening && indent > open => {}
            Some(_) if opening => return None,
            Some(_) => {
                while indents.last().is_some_and(|&open| indent < open) {
                    indents.pop();
                    events.push((Event::MappingEnd, at(start)));
                }
                if indents.last() != Some(&indent) {
                    return None;
                }
            }
        }
        if opening || indents.is_empty() {
            indents.push(indent);
            let open = Event::MappingStart(StructureStyle::Block, 0, None);
            events.push((open, at(start)));
        }
        let (key, rest) = body.split_once(':')?;
        if !is_plain_key(key) {
            return None;
        }
        events.push((scalar(key, ScalarStyle::Plain), span(start, key.len())));
        opening = rest.is_empty();
        if opening {
            continue;
        }
        let value = rest.strip_prefix(' ')?.trim_start_matches(' ');
        let value_start = start + key.len() + 1 + (rest.len() - value.len());
        events.push((value_scalar(value)?, span(value_start, value.len())));
    }
    if opening {
        return None;
    }
    for _ in &indents {
        events.push((Event::MappingEnd, at(source.len())));
    }
    events.push((Event::DocumentEnd, at(source.len())));
    events.push((Event::StreamEnd, at(source.len())));
    Some(events)
}

/// No character that YAML does not print, nor any that needs a care the scan does not take
/// (tab, carriage return, byte order mark, the Unicode line and paragraph separators).
fn printable(source: &str) -> bool {
    let ascii_ok = |b: u8| b == b'\n' || (0x20..0x7f).contains(&b);
    if source.bytes().all(ascii_ok) {
        return true;
    }
    source.chars().all(|c| match c {
        '\n' => true,
        c if c.is_ascii() => ascii_ok(c as u8),
        '\u{80}'..='\u{9f}' | '\u{2028}' | '\u{2029}' | '\u{feff}' => false,
        '\u{fffe}' | '\u{ffff}' => false,
        _ => true,
    })
}

/// A key the scan reads: letters, digits, `_`, `-` and `.`, starting with a letter, a digit or
/// `_`.
fn is_plain_key(key: &str) -> bool {
    let mut bytes = key.bytes();
    bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

/// The scalar event of a value on one line: quoted without escapes or inner quotes, or plain
/// (no indicator first, no `: ` or ` #` inside, no `:` or space last).
fn value_scalar(value: &str) -> Option<Event<'_>> {
    let quoted = |quote: char, style| {
        let inner = value.strip_prefix(quote)?.strip_suffix(quote)?;
        let escapes = quote == '"' && inner.contains('\\');
        (!inner.contains(quote) && !escapes).then(|| scalar(inner, style))
    };
    match value.bytes().next()? {
        b'"' => quoted('"', ScalarStyle::DoubleQuoted),
        b'\'' => quoted('\'', ScalarStyle::SingleQuoted),
        first if b"-?:,[]{}#&*!|>%@`".contains(&first) => None,
        _ => {
            let ends_badly = value.ends_with([' ', ':']);
            let plain = !ends_badly && !value.contains(": ") && !value.contains(" #");
            plain.then(|| scalar(value, ScalarStyle::Plain))
        }
    }
}

fn scalar(text: &str, style: ScalarStyle) -> Event<'_> {
    Event::Scalar(Cow::Borrowed(text), style, 0, None)
}

/// The empty span at byte `offset`.
fn at(offset: usize) -> Span {
    span(offset, 0)
}

/// The span of `len` bytes from byte `start` (the scan's markers carry byte offsets only, all
/// the tree reads of them).
fn span(start: usize, len: usize) -> Span {
    let marker = |offset| Marker::new(0, 0, 0).with_byte_offset(Some(offset));
    Span::new(marker(start), marker(start + len))
}
