//! SA018 `subagent-bom`: a UTF-8 byte order mark before the opening `---`, which makes the runtime
//! see no frontmatter and drop the spec; the fix deletes it.

use super::Parser;
use crate::base::{Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "SA018",
    name: "subagent-bom",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The subagent file starts with a UTF-8 byte order mark."#,
    consequence: r#"The subagent is not declared: the main agent cannot delegate to it."#,
    explanation: r#"Save as UTF-8 without BOM; the fix deletes it."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            "\u{feff}---
description: Researches questions on the web.
---
You research a question and answer with sources.
",
        )],
        fixed: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
---
You research a question and answer with sources.
"#,
        )],
        at: ".agentscope/workspace/subagents/researcher.md:1:1",
    }],
}

impl Parser<'_> {
    /// The byte order mark at `range`.
    pub(super) fn bom(&mut self, range: TextRange) {
        self.push_with_fix(
            &RULE,
            range,
            "the file starts with a UTF-8 byte order mark; the runtime sees no `---` and silently ignores the file",
            "Delete the byte order mark",
            "",
        );
    }
}
