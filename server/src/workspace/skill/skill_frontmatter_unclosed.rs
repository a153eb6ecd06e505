//! SK005 `skill-frontmatter-unclosed`: the frontmatter is opened but never closed.

use super::Parser;
use crate::base::{Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "SK005",
    name: "skill-frontmatter-unclosed",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The frontmatter is opened with `---` but never closed."#,
    consequence: r#"The skill is missing from the prompt's skill list: the agent never sees or loads it."#,
    explanation: r#"Add a closing `---` line after the YAML block."#,
    examples: &[Example {
        base: Base::Shared { without: &["agentws.toml", ".agentscope/workspace/AGENTS.md"] },
        triggering: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
        ],
        fixed: &[],
        at: ".agentscope/workspace/skills/pdf/SKILL.md:1:1",
    }],
}

impl Parser<'_> {
    /// An opening `---` the runtime finds no closing line for: reported on the first line.
    pub(super) fn unclosed(&mut self) {
        let text = self.text;
        let first_line = TextRange::new(0, text.find(['\n', '\r']).unwrap_or(text.len()));
        self.out.push(RULE.at(
            &self.path,
            first_line,
            "the frontmatter is never closed with `---`; the runtime sees no frontmatter and skips the skill",
        ));
    }
}
