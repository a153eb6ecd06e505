//! CF003 `config-wrong-type`: a value of another TOML type than its key takes (or an integer
//! that does not fit the Java field); the key keeps its default.

use super::{fallback, span_of, type_name, Item, Loader};
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "CF003",
    name: "config-wrong-type",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "An agentws.toml key has a value of the wrong type.",
    consequence: "The setting behaves as if the key were not written.",
    explanation:
        "Paths and names are strings, `additional_context_files` and `additional_roots` arrays \
of strings, `max_context_tokens` an integer, feature switches and `project_writable` booleans.",
    examples: &[Example {
        base: Base::Shared { without: &[".agentscope/workspace/skills/pdf/SKILL.md"] },
        triggering: &[
            ("agentws.toml", r#"[agent]
name = "release"
max_context_tokens = "8000"
"#),
        ],
        fixed: &[
            ("agentws.toml", r#"[agent]
name = "release"
max_context_tokens = 8000
"#),
        ],
        at: "agentws.toml:3:22",
    }],
}

impl Loader<'_> {
    /// `name`'s value `item` is not `expected` (`a string`, `a boolean (true or false)`).
    pub(super) fn wrong_type(&mut self, name: &str, item: &Item, expected: &str) {
        self.push(
            &RULE,
            span_of(item),
            format!(
                "`{name}` must be {expected}, not {}{}",
                type_name(item.get_ref()),
                fallback(name)
            ),
        );
    }

    /// `name`'s integer does not fit a Java `int`.
    pub(super) fn not_an_int(&mut self, name: &str, item: &Item) {
        self.push(
            &RULE,
            span_of(item),
            format!(
                "`{name}` does not fit a Java int (at most 2147483647){}",
                fallback(name)
            ),
        );
    }
}
