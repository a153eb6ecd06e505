//! CF001 `config-syntax`: agentws.toml is not TOML agentws can read (a syntax error, or a file
//! that is not text); the whole file is ignored and the runtime's defaults are used.

use toml::de::Error;
use toml_parser::{Expected, ParseError};

use super::{clamp, why_no_text, Loader};
use crate::base::{FileContent, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "CF001",
    name: "config-syntax",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "agentws.toml is not valid TOML.",
    consequence: "agentws cannot read the configuration and checks the workspace with the runtime's defaults.",
    explanation: "Fix the TOML syntax error; until then every setting (workspace folder, features, \
filesystem mode, …) is assumed to be the runtime default, which may not match your agent.",
    examples: &[
        Example {
            base: Base::Shared { without: &[".agentscope/workspace/skills/pdf/SKILL.md"] },
            triggering: &[
                ("agentws.toml", r#"[agent]
name = "release"
max_context_tokens = 8_000,
"#),
            ],
            fixed: &[
                ("agentws.toml", r#"[agent]
name = "release"
max_context_tokens = 8_000
"#),
            ],
            at: "agentws.toml:3:27",
        },
    ],
}

impl Loader<'_> {
    /// A read that gave no text (not UTF-8, too large, unreadable).
    pub(super) fn no_text(&mut self, content: &FileContent) {
        let why = why_no_text(content);
        self.push(&RULE, TextRange::empty(0), format!("agentws.toml {why}"));
    }

    /// Reads `text` as the TOML parser does, syntax only, reporting each error as it comes (those
    /// past the per-file cap only counted): a file of invalid lines would otherwise be one error
    /// value per line in memory. Whether there was any.
    pub(super) fn syntax_pass(&mut self, text: &str) -> bool {
        use toml_parser::parser::{parse_document, RecursionGuard, ValidateWhitespace};
        let source = toml_parser::Source::new(text);
        let tokens = source.lex().into_vec();
        let mut any = false;
        let mut sink = |error: ParseError| {
            any = true;
            let range = error.unexpected().map_or(TextRange::empty(0), |s| {
                clamp(s.start()..s.end(), text.len())
            });
            if self.diagnostics.would_keep(range, RULE.code) {
                self.push(&RULE, range, format!("invalid TOML: {}", message(&error)));
            } else {
                self.diagnostics.count(RULE.severity, range);
            }
        };
        let mut nothing = ();
        let mut whitespace = ValidateWhitespace::new(&mut nothing, source);
        // toml's own nesting limit, so a document it refuses is refused here too.
        let mut guarded = RecursionGuard::new(&mut whitespace, 80);
        parse_document(&tokens, &mut guarded, &mut sink);
        any
    }

    /// The TOML parser's errors, each at its span within `text_len` (those past the per-file cap
    /// only counted).
    pub(super) fn syntax_errors(&mut self, errors: Vec<Error>, text_len: usize) {
        for error in errors {
            let range = error
                .span()
                .map_or(TextRange::empty(0), |s| clamp(s, text_len));
            if !self.diagnostics.would_keep(range, RULE.code) {
                self.diagnostics.count(RULE.severity, range);
                continue;
            }
            self.push(
                &RULE,
                range,
                format!("invalid TOML: {}", error.message().trim_end()),
            );
        }
    }
}

/// A syntax error in the words toml's own error gives it (`toml::de::Error`), so both passes
/// read alike.
fn message(error: &ParseError) -> String {
    let mut message = error.description().to_string();
    if let Some(expected) = error.expected() {
        message.push_str(", expected ");
        if expected.is_empty() {
            message.push_str("nothing");
        }
        for (i, item) in expected.iter().enumerate() {
            if i != 0 {
                message.push_str(", ");
            }
            match item {
                Expected::Literal("\n") => message.push_str("newline"),
                Expected::Literal("`") => message.push_str("'`'"),
                Expected::Literal(text) if text.chars().all(|c| c.is_ascii_control()) => {
                    message.push_str(&format!("`{}`", text.escape_debug()));
                }
                Expected::Literal(text) => message.push_str(&format!("`{text}`")),
                Expected::Description(text) => message.push_str(text),
                _ => message.push_str("etc"),
            }
        }
    }
    message
}
