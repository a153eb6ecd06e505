//! XR006 `skill-overridden-per-user`: a per-user skill that overrides a shared or project one
//! of the same name, reported where the override is written: at the per-user copy.

use super::skill_pair;
use crate::base::{Diagnostic, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::skill::SkillDoc;

declare_rule! {
    code: "XR006",
    name: "skill-overridden-per-user",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: "A per-user folder overrides a shared skill of the same name.",
    consequence:
        "That user's calls get the per-user copy; everyone else gets the shared (or project) one.",
    explanation: "This is how per-user overrides work; the diagnostic makes the override visible.",
    examples: &[Example {
        base: Base::Shared { without: &["agentws.toml"] },
        triggering: &[
            (".agentscope/workspace/alice/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read PDF files with OCR.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
        ],
        fixed: &[
            (".agentscope/workspace/alice/skills/pdf-ocr/SKILL.md", r#"---
name: pdf-ocr
description: Read PDF files with OCR.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
        ],
        at: ".agentscope/workspace/alice/skills/pdf/SKILL.md:2:7",
    }],
}

pub(super) fn overridden(winner: &SkillDoc, overridden: &SkillDoc, whom: &str) -> Diagnostic {
    let name = winner.name.clone().unwrap_or_default();
    let message = format!(
        "skill `{name}` overrides the one in {} (`{}`) for {whom}",
        overridden.location.tree.label(),
        overridden.location.rel,
    );
    let related = format!("the overridden `{name}`");
    skill_pair(&RULE, winner, overridden, message, related)
}
