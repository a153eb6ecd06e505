//! SK025 `skill-allowed-tools-not-enforced`: skills set `allowed-tools`, which the harness does
//! not enforce. A fact that holds for every skill that has the key, said once per workspace
//! instead of once per skill, so that a large workspace's report stays readable.
//!
//! Which skills count and what the note says; the analysis engine decides who is first and how
//! many (`engine::skills::allowed_tools_setters`), from answers that hold no position. Its test is the
//! engine's (`engine::batch`), which runs the rule.

use std::path::Path;

use crate::base::{Diagnostic, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::skill::SkillDoc;

declare_rule! {
    code: "SK025",
    name: "skill-allowed-tools-not-enforced",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: r#"Skills set `allowed-tools` (said once per workspace)."#,
    consequence: r#"Tools the skill leaves out of `allowed-tools` stay available to the model."#,
    explanation: r#"The harness does not enforce `allowed-tools`; restrict tools with tools.json or a subagent's `tools:`. The fact holds for every skill that sets the key, so it is reported once per workspace, at the first such skill (in path order), with their number."#,
    examples: &[Example {
        base: Base::Shared { without: &["agentws.toml", ".agentscope/workspace/AGENTS.md"] },
        triggering: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.
allowed-tools: read_file
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
        ],
        fixed: &[],
        at: ".agentscope/workspace/skills/pdf/SKILL.md:4:1",
    }],
}

/// The range of the `allowed-tools` key of a skill the runtime loads, when it sets one (the
/// skills this rule counts).
pub fn allowed_tools_key(skill: &SkillDoc) -> Option<TextRange> {
    skill
        .outcome
        .is_ok()
        .then(|| skill.entry("allowed-tools").map(|e| e.key_range))
        .flatten()
}

/// The note at the first skill (in path order) that sets `allowed-tools`, `count` skills in all.
/// Its own function so that the analysis engine can decide who is first from facts that hold
/// no position, and take the position from that one file.
pub fn allowed_tools_note(first: &Path, key_range: TextRange, count: usize) -> Diagnostic {
    let others = match count {
        1 => "this is the only skill that sets it".to_string(),
        n => format!("{n} skills set it; said once, here"),
    };
    RULE.at(
        first,
        key_range,
        format!(
            "`allowed-tools` is rendered into the prompt, but the harness does not restrict any tool with it ({others})"
        ),
    )
}
