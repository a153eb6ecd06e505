//! ST004 `strict-compatibility-length`: `compatibility` is not a string of 1–500 characters.

use super::LoadedSkill;
use crate::base::{Diagnostic, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};

/// The longest `compatibility` the specification allows, in characters.
const COMPATIBILITY_MAX: usize = 500;

declare_rule! {
    code: "ST004",
    name: "strict-compatibility-length",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict: `compatibility` must be a string of 1–500 characters."#,
    consequence: r#"Other runtimes may reject the skill."#,
    explanation: r#"Shorten `compatibility`."#,
    examples: &[Example {
        base: Base::Shared { without: &["agentws.toml", ".agentscope/workspace/AGENTS.md"] },
        triggering: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.
compatibility: Requires python3 and poppler-utils. Requires python3 and poppler-utils. Requires python3 and poppler-utils. Requires python3 and poppler-utils. Requires python3 and poppler-utils. Requires python3 and poppler-utils. Requires python3 and poppler-utils. Requires python3 and poppler-utils. Requires python3 and poppler-utils. Requires python3 and poppler-utils. Requires python3 and poppler-utils. Requires python3 and poppler-utils. Requires python3 and poppler-utils. Requires python3 and poppler-utils. Requires python3 and poppler-utils.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
        ],
        fixed: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.
compatibility: Requires python3 and poppler-utils.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
        ],
        at: ".agentscope/workspace/skills/pdf/SKILL.md:4:16",
    }],
}

pub(super) fn check(loaded: &LoadedSkill, out: &mut Vec<Diagnostic>) {
    let skill = loaded.skill;
    for entry in skill.metadata.iter().filter(|e| e.key == "compatibility") {
        let ok = entry
            .value
            .value
            .as_str()
            .is_some_and(|s| (1..=COMPATIBILITY_MAX).contains(&s.chars().count()));
        if !ok {
            out.push(RULE.at(
                &skill.path,
                entry.value.range,
                format!("`compatibility` must be a string of 1–{COMPATIBILITY_MAX} characters"),
            ));
        }
    }
}
