//! Conversions at the protocol edge: URIs ↔ absolute paths, byte ranges ↔ LSP positions in the
//! negotiated encoding, core diagnostics and fixes → LSP diagnostics and edits. Nothing else in the
//! server does position arithmetic. Depends on `base`, `rules::docs` (a rule's link) and `ls_types`
//! only.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use tower_lsp_server::ls_types::{
    self as lsp, CodeDescription, DiagnosticSeverity, NumberOrString, Position, Range, TextEdit,
    Uri,
};

use crate::base::redact::redact_text;
use crate::base::{
    ColumnHint, Diagnostic, Encoding, FileEdit, LineCol, LineIndex, Severity, TextRange,
};

pub fn uri_to_path(uri: &Uri) -> Option<PathBuf> {
    uri.to_file_path().map(|p| p.into_owned())
}

pub fn path_to_uri(path: &Path) -> Option<Uri> {
    Uri::from_file_path(path)
}

/// A text with its line index, for converting many ranges of one file.
pub struct TextPositions<'a> {
    text: &'a str,
    index: LineIndex,
    encoding: Encoding,
    /// The last position converted: a file's diagnostics come in position order, and counting
    /// columns from the previous one keeps thousands of them on one long line linear.
    hint: std::cell::Cell<Option<ColumnHint>>,
}

impl<'a> TextPositions<'a> {
    pub fn new(text: &'a str, encoding: Encoding) -> Self {
        Self {
            text,
            index: LineIndex::new(text),
            encoding,
            hint: std::cell::Cell::new(None),
        }
    }

    pub fn position(&self, offset: usize) -> Position {
        let mut hint = self.hint.get();
        let pos = self
            .index
            .position_near(self.text, offset, self.encoding, &mut hint);
        self.hint.set(hint);
        Position::new(pos.line, pos.col)
    }

    pub fn range(&self, range: TextRange) -> Range {
        Range::new(self.position(range.start), self.position(range.end))
    }

    /// Byte offset of a client position; positions past the end clamp (LSP semantics).
    pub fn offset(&self, position: Position) -> usize {
        self.index.offset(
            self.text,
            LineCol {
                line: position.line,
                col: position.character,
            },
            self.encoding,
        )
    }

    pub fn text_range(&self, range: Range) -> TextRange {
        let start = self.offset(range.start);
        let end = self.offset(range.end).max(start);
        TextRange::new(start, end)
    }
}

/// `text` with the changes of one `didChange` applied in order, each range read in the text the
/// changes before it left (positions clamp as [`TextPositions::offset`] clamps them). The text
/// is held in a rope meanwhile, so that the work is linear in the text and the changes: a line
/// index built again and the text shifted for every change made one message of 200 000
/// changes quadratic.
pub fn apply_changes(
    text: &str,
    changes: Vec<lsp::TextDocumentContentChangeEvent>,
    encoding: Encoding,
) -> String {
    let mut rope = ropey::Rope::from_str(text);
    for change in changes {
        match change.range {
            None => rope = ropey::Rope::from_str(&change.text),
            Some(range) => {
                let start = rope_char(&rope, range.start, encoding);
                let end = rope_char(&rope, range.end, encoding).max(start);
                rope.remove(start..end);
                rope.insert(start, &change.text);
            }
        }
    }
    rope.to_string()
}

/// The char index in `rope` of a client position, clamped as [`LineIndex::offset`] clamps: a
/// column past its line's end to the end (before the line break), a line past the end to the
/// end of the text, a column inside a character to that character's start.
fn rope_char(rope: &ropey::Rope, position: Position, encoding: Encoding) -> usize {
    let line = position.line as usize;
    if line >= rope.len_lines() {
        return rope.len_chars();
    }
    let slice = rope.line(line);
    let mut len = slice.len_chars();
    if len > 0 && slice.char(len - 1) == '\n' {
        len -= 1;
    }
    if len > 0 && slice.char(len - 1) == '\r' {
        len -= 1;
    }
    let col = position.character as usize;
    let within = match encoding {
        Encoding::Utf32 => col.min(len),
        Encoding::Utf16 if col >= slice.char_to_utf16_cu(len) => len,
        Encoding::Utf16 => slice.utf16_cu_to_char(col),
        Encoding::Utf8 if col >= slice.char_to_byte(len) => len,
        Encoding::Utf8 => slice.byte_to_char(col),
    };
    rope.line_to_char(line) + within
}

/// The related locations an LSP diagnostic lists at most, in the finding's order; its message
/// counts the others. A finding about a collection (TJ029's isolated subagents, a tool name or
/// a key hundreds of files repeat) would otherwise list hundreds of entries under one problem
/// in the editor, and send them all again with each publication of its file. `agentws check`
/// lists them all.
pub const RELATED_SHOWN: usize = 20;

/// The LSP diagnostic for a core diagnostic. `text` is the file's text when it has one.
pub fn diagnostic(
    d: &Diagnostic,
    positions: Option<&TextPositions>,
    rules_doc_url: &str,
) -> lsp::Diagnostic {
    let range = positions
        .map(|p| p.range(d.range))
        .unwrap_or_else(|| Range::new(Position::new(0, 0), Position::new(0, 0)));
    let mut message = if d.consequence.is_empty() {
        redact_text(&d.message).into_owned()
    } else {
        redact_text(&format!("{}\nRuntime: {}", d.message, d.consequence)).into_owned()
    };
    if d.related.len() > RELATED_SHOWN {
        message.push_str(&format!(
            "\n{} related locations, {RELATED_SHOWN} listed (`agentws check` lists them all)",
            d.related.len()
        ));
    }
    let code_description = crate::rules::docs::rule_url(rules_doc_url, d.code)
        .parse::<Uri>()
        .ok()
        .map(|href| CodeDescription { href });
    let related = d
        .related
        .iter()
        .take(RELATED_SHOWN)
        .filter_map(|r| {
            Some(lsp::DiagnosticRelatedInformation {
                location: lsp::Location::new(
                    path_to_uri(&r.path)?,
                    if r.path == d.path {
                        positions.map(|p| p.range(r.range)).unwrap_or_default()
                    } else {
                        Range::default()
                    },
                ),
                message: redact_text(&r.message).into_owned(),
            })
        })
        .collect::<Vec<_>>();
    lsp::Diagnostic {
        range,
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Info => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(d.code.to_string())),
        code_description,
        source: Some("agentws".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: None,
    }
}

/// A workspace edit from core file edits; `text_of` gives each file's current text.
pub fn workspace_edit(
    edits: &[FileEdit],
    text_of: impl Fn(&Path) -> Option<std::sync::Arc<str>>,
    encoding: Encoding,
) -> lsp::WorkspaceEdit {
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    for edit in edits {
        let Some(uri) = path_to_uri(&edit.path) else {
            continue;
        };
        let text = text_of(&edit.path);
        let positions = TextPositions::new(text.as_deref().unwrap_or(""), encoding);
        changes.entry(uri).or_default().push(TextEdit {
            range: positions.range(edit.range),
            new_text: edit.new_text.clone(),
        });
    }
    lsp::WorkspaceEdit {
        changes: Some(changes),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_in_both_encodings_round_trip() {
        let text = "name: 名前😀\r\nx";
        let x = text.find('x').unwrap();
        let utf16 = TextPositions::new(text, Encoding::Utf16);
        assert_eq!(utf16.position(x), Position::new(1, 0));
        let after_emoji = text.find('\r').unwrap();
        assert_eq!(utf16.position(after_emoji), Position::new(0, 10));
        let utf8 = TextPositions::new(text, Encoding::Utf8);
        assert_eq!(utf8.position(after_emoji), Position::new(0, 16));
        assert_eq!(utf8.offset(Position::new(0, 16)), after_emoji);
        assert_eq!(utf16.offset(Position::new(0, 10)), after_emoji);
        assert_eq!(utf16.offset(Position::new(7, 3)), text.len());
    }

    /// The changes one at a time, each over a line index of the text as it is (what the server
    /// did before the rope).
    fn applied_one_by_one(
        text: &str,
        changes: &[(u32, u32, u32, u32, &str)],
        e: Encoding,
    ) -> String {
        let mut text = text.to_string();
        for &(l1, c1, l2, c2, new) in changes {
            let positions = TextPositions::new(&text, e);
            let r = positions.text_range(Range::new(Position::new(l1, c1), Position::new(l2, c2)));
            text.replace_range(r.start..r.end, new);
        }
        text
    }

    proptest::proptest! {
        /// The rope gives what a line index per change gives, in every encoding, with every kind
        /// of line break, characters of every width, and positions past the ends or inside a
        /// character.
        #[test]
        fn changes_applied_through_the_rope_equal_one_by_one(
            text in "[ab\r\né😀\n]{0,24}",
            changes in proptest::collection::vec(
                (0u32..6, 0u32..9, 0u32..6, 0u32..9, proptest::sample::select(vec!["", "x", "\n", "\r", "\r\n", "é😀", "ab\ncd"])),
                0..12,
            ),
        ) {
            for e in [Encoding::Utf8, Encoding::Utf16, Encoding::Utf32] {
                let events = changes
                    .iter()
                    .map(|&(l1, c1, l2, c2, new)| lsp::TextDocumentContentChangeEvent {
                        range: Some(Range::new(Position::new(l1, c1), Position::new(l2, c2))),
                        range_length: None,
                        text: new.to_string(),
                    })
                    .collect();
                proptest::prop_assert_eq!(
                    apply_changes(&text, events, e),
                    applied_one_by_one(&text, &changes, e)
                );
            }
        }
    }

    /// A finding about hundreds of files lists the first [`RELATED_SHOWN`] of them, in its
    /// order, and its message says how many there are; one with no more than that lists them
    /// all and says nothing more.
    #[test]
    fn related_locations_are_bounded_and_counted() {
        let finding = |related: usize| Diagnostic {
            path: PathBuf::from("/w/tools.json"),
            range: TextRange::empty(0),
            severity: Severity::Warning,
            code: "TJ029",
            message: "denied for the main agent only".to_string(),
            consequence: "they keep it.".to_string(),
            fixes: Vec::new(),
            related: (0..related)
                .map(|i| crate::base::Related {
                    path: PathBuf::from(format!("/w/subagents/a-{i}.md")),
                    range: TextRange::empty(0),
                    message: format!("`a-{i}` keeps it"),
                })
                .collect(),
            omitted: None,
            part: None,
        };
        let shown = |d: &lsp::Diagnostic| -> Vec<String> {
            let related = d.related_information.iter().flatten();
            related.map(|r| r.message.clone()).collect()
        };
        let many = diagnostic(&finding(634), None, "https://x/rules.md");
        assert_eq!(
            many.message,
            "denied for the main agent only\nRuntime: they keep it.\n634 related locations, 20 listed (`agentws check` lists them all)"
        );
        let expected: Vec<String> = (0..RELATED_SHOWN)
            .map(|i| format!("`a-{i}` keeps it"))
            .collect();
        assert_eq!(shown(&many), expected);
        let few = diagnostic(&finding(RELATED_SHOWN), None, "https://x/rules.md");
        assert_eq!(
            few.message,
            "denied for the main agent only\nRuntime: they keep it."
        );
        assert_eq!(shown(&few), expected);
    }

    #[test]
    fn a_change_without_a_range_replaces_the_text() {
        let whole = |text: &str| lsp::TextDocumentContentChangeEvent {
            range: None,
            range_length: None,
            text: text.to_string(),
        };
        let insert = lsp::TextDocumentContentChangeEvent {
            range: Some(Range::new(Position::new(0, 1), Position::new(0, 1))),
            range_length: None,
            text: "-".into(),
        };
        assert_eq!(
            apply_changes("old", vec![whole("ab"), insert], Encoding::Utf16),
            "a-b"
        );
    }
}
