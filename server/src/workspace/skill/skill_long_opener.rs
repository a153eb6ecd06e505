//! SK004 `skill-long-opener`: the frontmatter opens with more than three dashes; the fix writes `---`.

use super::Parser;
use crate::base::{Fix, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "SK004",
    name: "skill-long-opener",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The frontmatter opens with `----` (more than three dashes)."#,
    consequence: r#"The skill is missing from the prompt's skill list: the agent never sees or loads it."#,
    explanation: r#"`---` followed by another `-` is not an opening delimiter for the runtime's regex. The fix turns the line into `---`."#,
    examples: &[Example {
        base: Base::Shared { without: &["agentws.toml", ".agentscope/workspace/AGENTS.md"] },
        triggering: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"----
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
        ],
        fixed: &[],
        at: ".agentscope/workspace/skills/pdf/SKILL.md:1:1",
    }],
}

impl Parser<'_> {
    pub(super) fn long_opener(&mut self, range: TextRange) {
        let message = format!(
            "the frontmatter opens with `{}`; only `---` opens it, so the runtime sees no frontmatter and skips the skill",
            "-".repeat(range.len())
        );
        let fix = Fix::replace("Use `---`", &self.path, range, "---");
        self.out
            .push(RULE.at(&self.path, range, message).with_fix(fix));
    }
}
