//! CF001 `config-syntax`: agentws.toml is not TOML agentws can read (a syntax error, or a file
//! that is not text); the whole file is ignored and the runtime's defaults are used.

use toml::de::Error;

use super::{clamp, why_no_text, Loader};
use crate::base::{FileContent, Severity, TextRange};
use crate::rules::{Example, Profile, Rule};

pub static RULE: Rule = Rule {
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
            triggering: &[
                ("agentws.toml", r#"[agent]
name = "release"
max_context_tokens = 8_000,
"#),
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
            ],
            fixed: &[
                ("agentws.toml", r#"[agent]
name = "release"
max_context_tokens = 8_000
"#),
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
            ],
        },
    ],
};

impl Loader<'_> {
    /// A read that gave no text (not UTF-8, too large, unreadable).
    pub(super) fn no_text(&mut self, content: &FileContent) {
        let why = why_no_text(content);
        self.push(&RULE, TextRange::empty(0), format!("agentws.toml {why}"));
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
