//! Byte ranges inside a text and their conversion to line/column positions.
//!
//! Everything inside the core speaks byte offsets; conversion to lines and columns happens only at
//! the edges (CLI output, LSP), in the encoding the edge needs. Line breaks are `\n`, `\r\n` and a
//! lone `\r`, as in both the LSP specification and the runtime's Java `String.lines()`; this is why
//! we keep our own index instead of a crate that breaks on `\n` alone.

use serde::Serialize;

/// A half-open byte range `[start, end)` into one file's text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct TextRange {
    pub start: usize,
    pub end: usize,
}

impl TextRange {
    pub const fn new(start: usize, end: usize) -> Self {
        Self { start, end }
    }

    /// An empty range at `offset`.
    pub const fn empty(offset: usize) -> Self {
        Self {
            start: offset,
            end: offset,
        }
    }

    pub const fn len(self) -> usize {
        self.end - self.start
    }

    pub const fn is_empty(self) -> bool {
        self.start == self.end
    }

    /// Shifts both ends by `delta` bytes (used when a sub-document, like a frontmatter block, was
    /// parsed on its own).
    pub const fn shifted(self, delta: usize) -> Self {
        Self {
            start: self.start + delta,
            end: self.end + delta,
        }
    }

    pub const fn contains(self, offset: usize) -> bool {
        self.start <= offset && offset < self.end
    }

    pub fn cover(self, other: TextRange) -> TextRange {
        TextRange::new(self.start.min(other.start), self.end.max(other.end))
    }
}

/// How columns are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Bytes of UTF-8 (LSP `utf-8`).
    Utf8,
    /// UTF-16 code units (LSP `utf-16`, the protocol's default).
    Utf16,
    /// Unicode scalar values (what the CLI prints, and LSP `utf-32`).
    Utf32,
}

/// A zero-based line and column, the column counted in some [`Encoding`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct LineCol {
    pub line: u32,
    pub col: u32,
}

/// A position [`LineIndex::position_near`] converted last (it must come from the same text and
/// index).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColumnHint {
    line: usize,
    offset: usize,
    col: usize,
    encoding: Encoding,
}

/// Line starts of one text, for offset ↔ position conversion.
#[derive(Clone, Debug)]
pub struct LineIndex {
    /// Byte offset of the start of every line; always starts with 0.
    line_starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut index = Self {
            line_starts: vec![0],
            len: 0,
        };
        index.scan(text.as_bytes());
        index
    }

    /// Records the line starts of `bytes[self.len..]` and covers all of `bytes`. Only called with
    /// an end that never splits `\r\n` (a line end or the end of the text), so continuing a scan
    /// gives the same starts as one scan of the whole.
    fn scan(&mut self, bytes: &[u8]) {
        let mut i = self.len;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => self.line_starts.push(i + 1),
                b'\r' => {
                    if bytes.get(i + 1) == Some(&b'\n') {
                        i += 1;
                    }
                    self.line_starts.push(i + 1);
                }
                _ => {}
            }
            i += 1;
        }
        self.len = bytes.len();
    }

    /// An index of `text` up to the end of the line that contains `offset` (and one line more, so
    /// ranges ending at a line break resolve too): enough for positions at or before `offset`,
    /// without scanning the rest of a large file.
    pub fn new_prefix(text: &str, offset: usize) -> Self {
        let mut index = Self {
            line_starts: vec![0],
            len: 0,
        };
        index.scan(&text.as_bytes()[..prefix_end(text, offset)]);
        index
    }

    /// Grows an index made by [`LineIndex::new_prefix`] on the same `text` so that it covers
    /// `offset` as `new_prefix(text, offset)` would, scanning only the bytes not covered yet: a
    /// file's diagnostics, met in order, cost one pass over the file in total instead of one per
    /// diagnostic.
    pub fn extend_prefix(&mut self, text: &str, offset: usize) {
        let end = prefix_end(text, offset);
        if end > self.len {
            self.scan(&text.as_bytes()[..end]);
        }
    }

    /// Bytes of text this index covers.
    pub fn covered_len(&self) -> usize {
        self.len
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// Byte offset where zero-based `line` starts, if the line exists.
    pub fn line_start(&self, line: usize) -> Option<usize> {
        self.line_starts.get(line).copied()
    }

    /// Byte range of zero-based `line` without its line break.
    pub fn line_range(&self, text: &str, line: usize) -> Option<TextRange> {
        let start = self.line_start(line)?;
        let mut end = self.line_starts.get(line + 1).copied().unwrap_or(self.len);
        let bytes = text.as_bytes();
        if end > start && bytes.get(end - 1) == Some(&b'\n') {
            end -= 1;
        }
        if end > start && bytes.get(end - 1) == Some(&b'\r') {
            end -= 1;
        }
        Some(TextRange::new(start, end))
    }

    /// Zero-based line containing `offset` (offsets past the end map to the last line).
    pub fn line_of(&self, offset: usize) -> usize {
        let offset = offset.min(self.len);
        match self.line_starts.binary_search(&offset) {
            Ok(line) => line,
            Err(next) => next - 1,
        }
    }

    /// Position of byte `offset`. An offset inside a multi-byte character or past the end is
    /// clamped to the previous character boundary / the end.
    pub fn position(&self, text: &str, offset: usize, encoding: Encoding) -> LineCol {
        self.position_near(text, offset, encoding, &mut None)
    }

    /// [`LineIndex::position`], counting the column from `hint` (the last position converted)
    /// when it is on the same line and nearer than the line start, then moving `hint` here.
    /// Converting many offsets of one long line in order (a minified tools.json with thousands
    /// of diagnostics) then costs about one pass over the line instead of one per offset.
    pub fn position_near(
        &self,
        text: &str,
        offset: usize,
        encoding: Encoding,
        hint: &mut Option<ColumnHint>,
    ) -> LineCol {
        let offset = floor_char_boundary(text, offset.min(self.len));
        let line = self.line_of(offset);
        let start = self.line_starts[line];
        let col = match *hint {
            Some(h)
                if h.line == line
                    && h.encoding == encoding
                    && h.offset.abs_diff(offset) < offset - start =>
            {
                if h.offset <= offset {
                    h.col + column_width(&text[h.offset..offset], encoding)
                } else {
                    h.col - column_width(&text[offset..h.offset], encoding)
                }
            }
            _ => column_width(&text[start..offset], encoding),
        };
        *hint = Some(ColumnHint {
            line,
            offset,
            col,
            encoding,
        });
        LineCol {
            line: line as u32,
            col: col as u32,
        }
    }

    /// Byte offset of a position. A column past the end of its line clamps to the line's end (as
    /// LSP requires); a line past the end clamps to the end of the text.
    pub fn offset(&self, text: &str, pos: LineCol, encoding: Encoding) -> usize {
        let Some(range) = self.line_range(text, pos.line as usize) else {
            return self.len;
        };
        let line_text = &text[range.start..range.end];
        let mut remaining = pos.col as usize;
        for (i, ch) in line_text.char_indices() {
            let w = char_width(ch, encoding);
            if remaining < w {
                // Inside a character (e.g. between the halves of a surrogate pair): clamp to its start.
                return range.start + i;
            }
            remaining -= w;
            if remaining == 0 {
                return range.start + i + ch.len_utf8();
            }
        }
        if pos.col == 0 {
            range.start
        } else {
            range.end
        }
    }
}

/// Where [`LineIndex::new_prefix`] stops: after the line break that ends the line holding
/// `offset` and the one after it (a `\r\n` is never split), or the end of the text.
fn prefix_end(text: &str, offset: usize) -> usize {
    let bytes = text.as_bytes();
    let mut end = offset.min(text.len());
    for _ in 0..2 {
        match bytes[end..].iter().position(|&b| b == b'\n' || b == b'\r') {
            Some(i) => {
                end += i + 1;
                if bytes.get(end - 1) == Some(&b'\r') && bytes.get(end) == Some(&b'\n') {
                    end += 1;
                }
            }
            None => return text.len(),
        }
    }
    floor_char_boundary(text, end)
}

/// Width of `s` in columns of `encoding`.
pub fn column_width(s: &str, encoding: Encoding) -> usize {
    match encoding {
        Encoding::Utf8 => s.len(),
        Encoding::Utf16 => s.encode_utf16().count(),
        Encoding::Utf32 => s.chars().count(),
    }
}

fn char_width(ch: char, encoding: Encoding) -> usize {
    match encoding {
        Encoding::Utf8 => ch.len_utf8(),
        Encoding::Utf16 => ch.len_utf16(),
        Encoding::Utf32 => 1,
    }
}

/// Largest char boundary `<= offset`.
pub fn floor_char_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_three_line_breaks_start_lines() {
        let text = "a\nb\r\nc\rd";
        let index = LineIndex::new(text);
        assert_eq!(index.line_count(), 4);
        assert_eq!(
            index.position(text, 7, Encoding::Utf8),
            LineCol { line: 3, col: 0 }
        );
        assert_eq!(index.line_range(text, 1), Some(TextRange::new(2, 3)));
    }

    #[test]
    fn columns_in_each_encoding() {
        let text = "名前: 😀x";
        let index = LineIndex::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(index.position(text, x, Encoding::Utf8).col, 12);
        assert_eq!(index.position(text, x, Encoding::Utf16).col, 6);
        assert_eq!(index.position(text, x, Encoding::Utf32).col, 5);
        for enc in [Encoding::Utf8, Encoding::Utf16, Encoding::Utf32] {
            let pos = index.position(text, x, enc);
            assert_eq!(index.offset(text, pos, enc), x);
        }
    }

    #[test]
    fn a_prefix_index_agrees_with_the_full_one_before_its_end() {
        let text = "ab\r\ncd\ref\ngh\n";
        let full = LineIndex::new(text);
        for offset in 0..text.len() {
            let prefix = LineIndex::new_prefix(text, offset);
            assert!(prefix.covered_len() >= offset);
            for o in 0..=offset {
                assert_eq!(
                    prefix.position(text, o, Encoding::Utf16),
                    full.position(text, o, Encoding::Utf16)
                );
            }
        }
    }

    #[test]
    fn an_extended_prefix_index_is_the_prefix_index_of_the_later_offset() {
        let text = "ab\r\ncd\ref\n\ngh\r\r\nij";
        for first in 0..=text.len() {
            for second in first..=text.len() {
                let mut grown = LineIndex::new_prefix(text, first);
                grown.extend_prefix(text, second);
                let fresh = LineIndex::new_prefix(text, second);
                assert_eq!(grown.line_starts, fresh.line_starts, "{first} → {second}");
                assert_eq!(
                    grown.covered_len(),
                    fresh.covered_len(),
                    "{first} → {second}"
                );
            }
        }
        let mut whole = LineIndex::new_prefix(text, 0);
        whole.extend_prefix(text, text.len());
        assert_eq!(whole.line_starts, LineIndex::new(text).line_starts);
    }

    #[test]
    fn positions_near_a_hint_are_the_positions() {
        let text = "ab\n名前: 😀x, y 😀 z\r\nlast";
        let index = LineIndex::new(text);
        let offsets: Vec<usize> = (0..=text.len() + 2).collect();
        for encoding in [Encoding::Utf8, Encoding::Utf16, Encoding::Utf32] {
            // In order, in reverse, and jumping back and forth.
            let orders = [
                offsets.clone(),
                offsets.iter().rev().copied().collect(),
                offsets
                    .iter()
                    .map(|o| (o * 7) % offsets.len())
                    .collect::<Vec<_>>(),
            ];
            for order in orders {
                let mut hint = None;
                for &offset in &order {
                    assert_eq!(
                        index.position_near(text, offset, encoding, &mut hint),
                        index.position(text, offset, encoding),
                        "{offset} {encoding:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn positions_past_the_end_clamp() {
        let text = "ab\ncd";
        let index = LineIndex::new(text);
        assert_eq!(
            index.offset(text, LineCol { line: 0, col: 99 }, Encoding::Utf16),
            2
        );
        assert_eq!(
            index.offset(text, LineCol { line: 9, col: 0 }, Encoding::Utf16),
            5
        );
        assert_eq!(
            index.position(text, 99, Encoding::Utf8),
            LineCol { line: 1, col: 2 }
        );
    }
}
