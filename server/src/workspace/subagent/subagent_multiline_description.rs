//! SA027 `subagent-multiline-description`: a `description` of several lines (a `|` block, a `>`
//! block with blank or indented lines, a quoted `\n`). `SubagentsMiddleware` formats each entry
//! of the `## Subagents` list as ``- `id`: description`` and prints the description raw.

use super::Parser;
use crate::base::{Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "SA027",
    name: "subagent-multiline-description",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"`description` spans several lines."#,
    consequence: r#"The prompt's `## Subagents` list prints it raw: the lines after the first stand outside the subagent's entry, and a line starting with `- ` reads as another subagent."#,
    explanation: r#"The runtime writes one line per subagent, ``- `id`: description``, joined with newlines; the description is the frontmatter value trimmed, with its inner newlines kept. A `|` block (or a `>` block with blank or more-indented lines) breaks the list: the main agent reads the rest as loose text, or as more entries.

Write the description on one line (a plain or `>` folded value); keep examples and long guidance in the body."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: |
  Researches questions on the web.
  - use it for sources
  - not for code
---
You research a question and answer with sources.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web and answers with sources; not for code.
---
You research a question and answer with sources.
"#,
        )],
        at: ".agentscope/workspace/subagents/researcher.md:3:3",
    }],
}

impl Parser<'_> {
    /// `description` (as the runtime holds it: trimmed) written at `range`.
    pub(super) fn multiline_description(&mut self, description: &str, range: TextRange) {
        let lines = description.lines().count();
        if lines < 2 {
            return;
        }
        self.push(
            &RULE,
            range,
            format!(
                "`description` spans {lines} lines: the runtime prints it raw in the prompt's `## Subagents` list, where the lines after the first stand outside this subagent's entry"
            ),
        );
    }
}
