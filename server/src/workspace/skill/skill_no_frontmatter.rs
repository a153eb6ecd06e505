//! SK001 `skill-no-frontmatter`: the SKILL.md does not start with a `---` line of its own, so the runtime finds no
//! frontmatter and skips the skill.

use super::Parser;
use crate::base::{Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "SK001",
    name: "skill-no-frontmatter",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The SKILL.md does not start with `---` followed by a line break, so the runtime finds no frontmatter."#,
    consequence: r#"The skill is missing from the prompt's skill list (the runtime logs a WARN): the agent never sees or loads it."#,
    explanation: r#"`MarkdownSkillParser` only recognizes frontmatter that starts at the very first byte with `---`, optional spaces and a line break. Anything else means empty metadata, no `name`, and the skill is skipped.

```markdown
---
name: pdf
description: Work with PDF files.
---
# PDF
```"#,
    examples: &[Example {
        base: Base::Shared { without: &["agentws.toml", ".agentscope/workspace/AGENTS.md"] },
        triggering: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
        ],
        fixed: &[],
        at: ".agentscope/workspace/skills/pdf/SKILL.md:1:1",
    }],
}

impl Parser<'_> {
    /// `---` with more on its line: not an opening the runtime sees.
    pub(super) fn opener_not_alone(&mut self, range: TextRange) {
        self.out.push(RULE.at(
            &self.path,
            range,
            "`---` must be followed by a line break; the runtime sees no frontmatter and skips the skill",
        ));
    }

    /// A file that does not start with `---` at all.
    pub(super) fn no_opening(&mut self) {
        self.out.push(RULE.at(
            &self.path,
            TextRange::empty(0),
            "the file does not start with a `---` frontmatter block; the runtime finds no name and skips the skill",
        ));
    }
}
