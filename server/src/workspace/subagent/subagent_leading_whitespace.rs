//! SA019 `subagent-leading-whitespace`: blank lines or spaces before the opening `---`, which make
//! the runtime see no frontmatter and drop the spec; the fix removes them.

use super::Parser;
use crate::base::{Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "SA019",
    name: "subagent-leading-whitespace",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"Blank lines or spaces come before the opening `---`."#,
    consequence: r#"The subagent is not declared: the main agent cannot delegate to it."#,
    explanation: r#"The fix removes what comes before `---`."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"
---
description: Researches questions on the web.
---
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
    /// The whitespace at `range`, before the `---`.
    pub(super) fn leading_whitespace(&mut self, range: TextRange) {
        self.push_with_fix(
            &RULE,
            range,
            "blank lines or spaces before the opening `---`; the runtime silently ignores the file",
            "Remove what comes before `---`",
            "",
        );
    }
}
