//! ST003 `strict-description-length`: the description is longer than the specification allows.

use super::LoadedSkill;
use crate::base::{Diagnostic, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};

/// The longest description the specification allows, in characters.
const DESCRIPTION_MAX: usize = 1024;

declare_rule! {
    code: "ST003",
    name: "strict-description-length",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict: `description` must be 1–1024 characters."#,
    consequence: r#"Other runtimes may reject or cut the description."#,
    explanation: r#"Shorten the description.

**Differences from the reference validators** (`tests/e2e/peer_suites.rs`): agnix also judges how a description is written: it must contain "use when", must not speak in the first or second person, must not contain XML tags. The specification only says a description *should* describe what the skill does and when to use it, and the AgentScope runtime renders any description as text (escaped in the prompt's XML), so agentws checks only the length: `agnix:test_as_010_missing_trigger`, `agnix:test_as_010_use_this_not_accepted`, `agnix:test_as_018_description_first_second_person`, `agnix:invalid/skills/first-person-description`, `agnix:test_as_009_description_contains_xml`."#,
    examples: &[Example {
        base: Base::Shared { without: &["agentws.toml", ".agentscope/workspace/AGENTS.md"] },
        triggering: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
        ],
        fixed: &[],
        at: ".agentscope/workspace/skills/pdf/SKILL.md:3:14",
    }],
}

pub(super) fn check(loaded: &LoadedSkill, out: &mut Vec<Diagnostic>) {
    let skill = loaded.skill;
    if let (Some(description), Some(range)) = (&skill.description, skill.description_range) {
        let len = description.chars().count();
        if len > DESCRIPTION_MAX {
            out.push(RULE.at(
                &skill.path,
                range,
                format!("the description is {len} characters long; the specification allows 1–{DESCRIPTION_MAX}"),
            ));
        }
    }
}
