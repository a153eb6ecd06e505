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

/// The LSP diagnostic for a core diagnostic. `text` is the file's text when it has one.
pub fn diagnostic(
    d: &Diagnostic,
    positions: Option<&TextPositions>,
    rules_doc_url: &str,
) -> lsp::Diagnostic {
    let range = positions
        .map(|p| p.range(d.range))
        .unwrap_or_else(|| Range::new(Position::new(0, 0), Position::new(0, 0)));
    let message = if d.consequence.is_empty() {
        d.message.clone()
    } else {
        format!("{}\nRuntime: {}", d.message, d.consequence)
    };
    let code_description = crate::rules::docs::rule_url(rules_doc_url, d.code)
        .parse::<Uri>()
        .ok()
        .map(|href| CodeDescription { href });
    let related = d
        .related
        .iter()
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
                message: r.message.clone(),
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
pub fn workspace_edit<'a>(
    edits: &[FileEdit],
    text_of: impl Fn(&Path) -> Option<&'a str>,
    encoding: Encoding,
) -> lsp::WorkspaceEdit {
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    for edit in edits {
        let Some(uri) = path_to_uri(&edit.path) else {
            continue;
        };
        let text = text_of(&edit.path).unwrap_or("");
        let positions = TextPositions::new(text, encoding);
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
}
