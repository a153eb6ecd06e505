//! The system message as it is built: its text, its sections with their sources and token
//! estimates, and the notes; every part of the renderer writes through it.

use std::path::Path;

use crate::context;
use crate::prompt::{tokens_of_utf16_len, ByteRange, LineRange, Note, Section, SourceRef};
use crate::syntax::java;
use crate::workspace::layers::{ContextRead, ReadTransform};

/// The text being built, its sections and notes.
#[derive(Default)]
pub(super) struct PromptBuilder {
    pub(super) text: String,
    pub(super) sections: Vec<Section>,
    pub(super) notes: Vec<Note>,
    /// A range of `text` whose UTF-16 length is known, with that length: the skills block,
    /// counted by its entries (megabytes not counted twice a render).
    pub(super) counted: Option<(ByteRange, usize)>,
}

impl PromptBuilder {
    pub(super) fn raw(&mut self, s: &str) {
        self.text.push_str(s);
    }

    /// The `"\n"` added before a piece when the prompt is non-empty and does not end with `\n`.
    pub(super) fn join_if_needed(&mut self) {
        if !self.text.is_empty() && !self.text.ends_with('\n') {
            self.text.push('\n');
        }
    }

    pub(super) fn section(
        &mut self,
        kind: &'static str,
        label: &str,
        sources: Vec<SourceRef>,
        s: &str,
    ) {
        let start = self.text.len();
        self.text.push_str(s);
        self.section_since(start, kind, label, sources, None);
    }

    /// The text written from `start` on as a section. `counted` is its UTF-16 length when the
    /// caller knows it (the skills block, from its entries): the whole text is then counted
    /// around it.
    pub(super) fn section_since(
        &mut self,
        start: usize,
        kind: &'static str,
        label: &str,
        sources: Vec<SourceRef>,
        counted: Option<usize>,
    ) {
        let range = ByteRange {
            start,
            end: self.text.len(),
        };
        let utf16 = match counted {
            Some(utf16) => {
                debug_assert!(self.counted.is_none(), "one counted section");
                debug_assert_eq!(utf16, java::utf16_len(&self.text[start..]));
                self.counted = Some((range, utf16));
                utf16
            }
            None => java::utf16_len(&self.text[start..]),
        };
        self.push_section(range, kind, label, sources, utf16);
    }

    /// The text written from `start` on as a section that also holds `left_out` UTF-16 units
    /// not written (the skills block's entries, when only the prompt's size is asked): the whole
    /// text is then counted with them.
    pub(super) fn section_leaving_out(
        &mut self,
        start: usize,
        kind: &'static str,
        label: &str,
        left_out: usize,
    ) {
        let range = ByteRange {
            start,
            end: self.text.len(),
        };
        debug_assert!(self.counted.is_none(), "one counted section");
        let utf16 = java::utf16_len(&self.text[start..]) + left_out;
        self.counted = Some((range, utf16));
        self.push_section(range, kind, label, Vec::new(), utf16);
    }

    fn push_section(
        &mut self,
        range: ByteRange,
        kind: &'static str,
        label: &str,
        sources: Vec<SourceRef>,
        utf16: usize,
    ) {
        self.sections.push(Section {
            kind,
            label: label.to_string(),
            range,
            sources,
            estimated_tokens: tokens_of_utf16_len(utf16),
        });
    }

    /// The UTF-16 length of the whole text.
    pub(super) fn utf16_len(&self) -> usize {
        match self.counted {
            Some((range, utf16)) => {
                java::utf16_len(&self.text[..range.start])
                    + utf16
                    + java::utf16_len(&self.text[range.end..])
            }
            None => java::utf16_len(&self.text),
        }
    }

    pub(super) fn note(&mut self, code: &'static str, message: String) {
        self.note_about(code, None, None, message);
    }

    /// A note about one file, naming the rule that reports it in `agentws check`.
    pub(super) fn note_about(
        &mut self,
        code: &'static str,
        rule: Option<&'static str>,
        path: Option<&Path>,
        message: String,
    ) {
        let message = crate::base::redact::redact_text(&message).into_owned();
        if !self
            .notes
            .iter()
            .any(|n| n.code == code && n.message == message)
        {
            self.notes.push(Note {
                code,
                message,
                rule,
                path: path.map(context::display_path),
            });
        }
    }
}

pub(super) fn source(path: &Path, text: Option<&str>) -> SourceRef {
    SourceRef {
        path: context::display_path(path).into(),
        lines: text.map(|t| LineRange {
            start: 1,
            end: java::lines(t).len().max(1),
        }),
    }
}

/// The sources of a per-context read: the file, with its lines when the text is the file's own.
pub(super) fn read_sources(read: &ContextRead) -> Vec<SourceRef> {
    read.source
        .iter()
        .map(|p| {
            let text = (read.transform == ReadTransform::Verbatim).then_some(read.text.as_str());
            source(p, text)
        })
        .collect()
}
