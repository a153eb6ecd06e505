//! CF011 `config-blank-value`: a path or id key set to a blank string; the key keeps its
//! default.

use super::{fallback, span_of, Item, Loader};
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "CF011",
    name: "config-blank-value",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A path or id in agentws.toml is blank.",
    consequence: "The setting behaves as if the key were not written.",
    explanation: "Remove the key to use the default, or give it a value.",
    examples: &[Example {
        base: Base::Shared { without: &[".agentscope/workspace/skills/pdf/SKILL.md"] },
        triggering: &[
            ("agentws.toml", r#"[agent]
name = "release"
id = "  "
"#),
        ],
        fixed: &[],
        at: "agentws.toml:3:6",
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
