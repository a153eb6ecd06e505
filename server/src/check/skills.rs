//! Whole-workspace skill rules: facts that hold for every skill that has some key, said once per
//! workspace instead of once per skill (`SK025`: `allowed-tools` is not enforced). A large
//! workspace's report stays readable.
//!
//! Which skills count and what the note says; the analysis engine decides who is first and how
//! many (`engine::allowed_tools_setters`), from answers that hold no position. Its test is the
//! engine's (`engine::batch`), which runs the rule.

use std::path::Path;

use crate::base::{Diagnostic, TextRange};
use crate::rules::skill::SK025;
use crate::workspace::skill::SkillDoc;

/// The range of the `allowed-tools` key of a skill the runtime loads, when it sets one (the
/// skills `SK025` counts).
pub fn allowed_tools_key(skill: &SkillDoc) -> Option<TextRange> {
    skill
        .outcome
        .is_ok()
        .then(|| skill.entry("allowed-tools").map(|e| e.key_range))
        .flatten()
}

/// `SK025` at the first skill (in path order) that sets `allowed-tools`, `count` skills in all.
/// Its own function so that the analysis engine can decide who is first from facts that hold
/// no position, and take the position from that one file.
pub fn allowed_tools_note(first: &Path, key_range: TextRange, count: usize) -> Diagnostic {
    let others = match count {
        1 => "this is the only skill that sets it".to_string(),
        n => format!("{n} skills set it; said once, here"),
    };
    SK025.at(
        first,
        key_range,
        format!(
            "`allowed-tools` is rendered into the prompt, but the harness does not restrict any tool with it ({others})"
        ),
    )
}
