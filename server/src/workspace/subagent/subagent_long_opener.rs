//! SA021 `subagent-long-opener`: a frontmatter opened with more than three dashes; the runtime
//! keeps the extra `-` as the start of the YAML. The fix writes `---`.

use super::Parser;
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::frontmatter::{self, OpeningTrap};

declare_rule! {
    code: "SA021",
    name: "subagent-long-opener",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"The frontmatter opens with `----`."#,
    consequence: r#"The runtime keeps the extra `-` as the first YAML character, which usually breaks the YAML."#,
    explanation: r#"The fix turns the line into `---`."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"----
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
    pub(super) fn long_opener(&mut self) {
        if let Some(OpeningTrap::LongOpener { range }) = frontmatter::opening_trap(self.text) {
            self.push_with_fix(
                &RULE,
                range,
                "the frontmatter opens with more than three dashes; the runtime keeps the extra `-` as the start of the YAML",
                "Use `---`",
                "---",
            );
        }
    }
}
