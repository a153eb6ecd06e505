//! SA004 `subagent-missing-description`: a frontmatter without `description`, or with a null or
//! blank one; the runtime drops the spec.

use super::Parser;
use crate::base::{Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::yaml::{Entry, Value};

declare_rule! {
    code: "SA004",
    name: "subagent-missing-description",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"`description` is missing or blank."#,
    consequence: r#"The subagent is not declared: the main agent cannot delegate to it."#,
    explanation: r#"Add a `description:` line; it is what the main agent reads in its subagent list."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
steps: 15
---
You research a question and answer with sources.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
steps: 15
---
You research a question and answer with sources.
"#,
        )],
        at: ".agentscope/workspace/subagents/researcher.md:1:1",
    }],
}

impl Parser<'_> {
    /// `description` is the frontmatter's entry, `None` when it has none: then the report is on
    /// the `opening` `---`.
    pub(super) fn missing_description(&mut self, description: Option<&Entry>, opening: TextRange) {
        let (range, message) = match description {
            None => (
                opening,
                "the frontmatter has no `description`; the runtime logs a WARN and drops the declaration",
            ),
            Some(e) if matches!(e.value.value, Value::Null) => (
                e.value.range,
                "`description` is empty; the runtime logs a WARN and drops the declaration",
            ),
            Some(e) => (
                e.value.range,
                "`description` is blank; the runtime logs a WARN and drops the declaration",
            ),
        };
        self.push(&RULE, range, message);
    }
}
