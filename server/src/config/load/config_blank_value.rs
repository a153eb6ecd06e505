//! CF011 `config-blank-value`: a path or id key set to a blank string; the key keeps its
//! default.

use super::{fallback, span_of, Item, Loader};
use crate::base::Severity;
use crate::rules::{declare_rule, Example, Profile};

declare_rule! {
    code: "CF011",
    name: "config-blank-value",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A path or id in agentws.toml is blank.",
    consequence: "The setting behaves as if the key were not written.",
    explanation: "Remove the key to use the default, or give it a value.",
    examples: &[Example {
        triggering: &[
            (
                "agentws.toml",
                r#"[agent]
name = "release"
id = "  "
"#,
            ),
            (
                ".agentscope/workspace/AGENTS.md",
                r#"You are a release assistant. Answer in short sentences.
"#,
            ),
        ],
        fixed: &[
            (
                "agentws.toml",
                r#"[agent]
name = "release"
"#,
            ),
            (
                ".agentscope/workspace/AGENTS.md",
                r#"You are a release assistant. Answer in short sentences.
"#,
            ),
        ],
    }],
}

impl Loader<'_> {
    /// A string that must not be blank (paths, ids).
    pub(super) fn non_blank(&mut self, name: &str, item: &Item) -> Option<String> {
        let value = self.string(name, item)?;
        if value.trim().is_empty() {
            self.push(
                &RULE,
                span_of(item),
                format!("`{name}` is blank{}", fallback(name)),
            );
            return None;
        }
        Some(value)
    }
}
