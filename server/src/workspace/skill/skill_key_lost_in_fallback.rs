//! SK014 `skill-key-lost-in-fallback`: a top-level key the runtime's fallback line parser loses.

use super::Parser;
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::yaml::{LostKey, LostReason};

declare_rule! {
    code: "SK014",
    name: "skill-key-lost-in-fallback",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"A top-level key does not survive the runtime's fallback line parser."#,
    consequence: r#"The runtime drops this key (block scalars, nested maps and lists are skipped by the fallback parser)."#,
    explanation: r#"Fix the YAML error reported by SK013 so the whole frontmatter is read; a lost `description` makes the skill drop."#,
    examples: &[Example {
        base: Base::Shared { without: &["agentws.toml", ".agentscope/workspace/AGENTS.md"] },
        triggering: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            "---\nname: pdf\ndescription: Split and merge PDF files.\nmetadata:\n\tauthor: docs-team\n---\n\n# PDF\n\nRun `pdftotext -layout in.pdf out.txt` to read a PDF.\n",
        )],
        fixed: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Split and merge PDF files.
metadata:
  author: docs-team
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
        ],
        at: ".agentscope/workspace/skills/pdf/SKILL.md:4:1",
    }],
}

/// Why the fallback line parser skips a key.
pub(super) fn why_lost(reason: &LostReason) -> &'static str {
    match reason {
        LostReason::BlockScalar => "block scalars (`|`, `>`) are skipped",
        LostReason::EmptyValue => {
            "a key with nothing after the colon (a nested map or list) is skipped"
        }
        LostReason::NotAKeyLine => {
            "the line does not look like `key: value` to the fallback parser"
        }
    }
}

impl Parser<'_> {
    /// Each key the fallback line parser loses, with why.
    pub(super) fn lost_in_fallback(&mut self, lost: &[LostKey]) {
        for lost in lost {
            self.out.push(RULE.at(
                &self.path,
                lost.range,
                format!(
                    "`{}` is lost after the YAML error: {}",
                    lost.key,
                    why_lost(&lost.reason)
                ),
            ));
        }
    }
}
