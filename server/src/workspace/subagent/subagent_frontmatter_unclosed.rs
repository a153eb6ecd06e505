//! SA002 `subagent-frontmatter-unclosed`: a frontmatter opened with `---` and never closed; the
//! runtime drops the spec.

use super::Parser;
use crate::base::{Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "SA002",
    name: "subagent-frontmatter-unclosed",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The frontmatter is never closed with `---`."#,
    consequence: r#"The subagent is not declared: the main agent cannot delegate to it."#,
    explanation: r#"Add a closing `---` line."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
You research a question and answer with sources.
"#,
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
    pub(super) fn frontmatter_unclosed(&mut self) {
        self.push(
            &RULE,
            TextRange::new(0, 3),
            "the frontmatter is never closed with `---`; the runtime logs \"front matter not closed\" and ignores the file",
        );
    }
}
