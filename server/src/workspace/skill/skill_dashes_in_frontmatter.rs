//! SK006 `skill-dashes-in-frontmatter`: a `---` inside the frontmatter closes it early: the keys after it are lost
//! and the rest becomes the body. An error when the skill is then dropped, a warning when it
//! still loads with what is left.

use super::{Parser, SkillDoc};
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::frontmatter::{self, SkillSplit};
use crate::syntax::java;

declare_rule! {
    code: "SK006",
    name: "skill-dashes-in-frontmatter",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"A `---` inside the frontmatter (not on a line of its own) closes it early."#,
    consequence: r#"The runtime ends the frontmatter at the first `---` anywhere: keys after it are lost and the rest becomes the body."#,
    explanation: r#"The closing delimiter is the first `---` substring after the opening line, even inside a value such as `description: a---b`. Rephrase the value (for example `a - b` or `a—b`).

Severity follows the outcome: an error when the early close makes the runtime drop the skill (no `name` or `description` left, or no body), a warning when `name` and `description` survive and the runtime loads the skill with a cut value and the later keys lost (the prompt preview renders it that way)."#,
    examples: &[Example {
        base: Base::Shared { without: &["agentws.toml", ".agentscope/workspace/AGENTS.md"] },
        triggering: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Split---merge PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
        ],
        fixed: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Split and merge PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
        ],
        at: ".agentscope/workspace/skills/pdf/SKILL.md:3:19",
    }],
}

impl Parser<'_> {
    /// A `---` that is not on a line of its own but closes the frontmatter all the same.
    pub(super) fn early_close(&mut self, split: SkillSplit) {
        let text = self.text;
        let Some(range) = frontmatter::unexpected_closing(text, split.closing) else {
            return;
        };
        let intended = frontmatter::intended_closing(text, split.closing.end);
        let mut message = "this `---` closes the frontmatter: the runtime ends the YAML at the first `---` anywhere after the opening line".to_string();
        if let Some(intended) = intended {
            let lost = keys_in(&text[split.closing.end..intended.start]);
            if !lost.is_empty() {
                message.push_str(&format!(
                    "; the keys after it ({}) are lost",
                    lost.join(", ")
                ));
            }
            message.push_str(
                "; everything after it, including the intended closing `---` line, becomes the body",
            );
        }
        self.out.push(RULE.at(&self.path, range, message));
    }

    /// An early `---` is an error only when the runtime then drops the skill; when `name` and
    /// `description` survive it loads the skill with what is left (the preview renders that).
    pub(super) fn settle_early_close(&mut self, doc: &SkillDoc) {
        if doc.outcome.is_err() {
            return;
        }
        for d in self.out.iter_mut().filter(|d| d.code == RULE.code) {
            d.severity = Severity::Warning;
            let description = doc.description.as_deref().unwrap_or_default();
            d.message.push_str(&format!(
                "; `name` and `description` survive, so the runtime loads the skill with the description `{description}`"
            ));
            d.consequence = "The skill loads with the cut value and without any key after it; its body starts with the rest of the frontmatter."
                .to_string();
        }
    }
}

/// Top-level `key:` names at the start of lines of `text`, quoted for messages.
fn keys_in(text: &str) -> Vec<String> {
    java::lines(text)
        .into_iter()
        .skip(1) // the rest of the line the early `---` cut
        .filter_map(|line| {
            let len = line
                .bytes()
                .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
                .count();
            (len > 0 && line[len..].trim_start().starts_with(':'))
                .then(|| format!("`{}`", &line[..len]))
        })
        .collect()
}
