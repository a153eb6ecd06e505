//! ST002 `strict-name-directory`: the skill's name differs from its folder's name.

use super::LoadedSkill;
use crate::base::unicode::normalization_note;
use crate::base::{Diagnostic, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "ST002",
    name: "strict-name-directory",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict: `name` must equal the skill's folder name."#,
    consequence: r#"Other runtimes locate skills by folder name."#,
    explanation: r#"Rename the folder or the skill. When the two differ only in Unicode normalization (`é` as the one code point U+00E9 or as `e` + U+0301) they print alike, so the message lists the code points of both.

**Differences from the reference validators** (`tests/e2e/peer_suites.rs`): skills-ref compares the name and the folder after NFKC normalization and accepts a decomposed name in a composed folder (`skills-ref:test_nfkc_normalization`). agentws compares them as the runtime does, code point by code point (Java `String.equals`, and Linux file names are bytes): the skill is served under its name, and `<files-root>` built from that name names a folder that does not exist on disk."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"---
name: pdf-tools
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/skills/pdf-tools/SKILL.md",
            r#"---
name: pdf-tools
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
        at: ".agentscope/workspace/skills/pdf/SKILL.md:2:7",
    }],
}

pub(super) fn check(loaded: &LoadedSkill, out: &mut Vec<Diagnostic>) {
    let skill = loaded.skill;
    if let (Some(name), Some(range)) = (&skill.name, skill.name_range) {
        if *name != skill.dir_name {
            out.push(RULE.at(
                &skill.path,
                range,
                format!(
                    "the name `{name}` differs from the folder name `{}`{}",
                    skill.dir_name,
                    normalization_note(name, &skill.dir_name).unwrap_or_default()
                ),
            ));
        }
    }
}
