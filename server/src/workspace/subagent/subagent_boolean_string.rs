//! SA015 `subagent-boolean-string`: a `hidden` or `expose_to_user` written as something else than
//! a boolean; the runtime reads only `true`, in any letter case, as true.

use super::Parser;
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::yaml::Entry;

declare_rule! {
    code: "SA015",
    name: "subagent-boolean-string",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"`hidden` or `expose_to_user` is a string rather than a boolean."#,
    consequence: r#"Any text but `true` (in any case) is read as false."#,
    explanation: r#"The runtime reads the value as text with Java's `Boolean.parseBoolean`, which is true only for `true` in any letter case. Write `true` or `false` without quotes."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
hidden: "yes"
---
You research a question and answer with sources.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
hidden: true
---
You research a question and answer with sources.
"#,
        )],
        at: ".agentscope/workspace/subagents/researcher.md:3:9",
    }],
}

impl Parser<'_> {
    /// `key`'s `entry`, not a YAML boolean: the runtime reads its `text` as `read_as`.
    pub(super) fn boolean_string(&mut self, key: &str, entry: &Entry, text: &str, read_as: bool) {
        if matches!(text.to_ascii_lowercase().as_str(), "true" | "false") {
            return;
        }
        self.push(
            &RULE,
            entry.value.range,
            format!("`{key}: {text}` is not a boolean; the runtime reads it as `{read_as}`"),
        );
    }
}
