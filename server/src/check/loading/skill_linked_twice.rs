//! XR016 `skill-linked-twice`: two skill folders that are one SKILL.md reached through a
//! symbolic link, said instead of a duplicate (which one wins makes no difference), at the file
//! that loses.

use super::skill_pair;
use crate::base::{Diagnostic, Severity};
use crate::rules::{declare_rule, Profile};
use crate::workspace::skill::SkillDoc;

declare_rule! {
    code: "XR016",
    name: "skill-linked-twice",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: "Two skill folders are the same files, reached through a symbolic link.",
    consequence: "The runtime loads the skill twice under one name; both copies are the same text, so which one wins makes no difference.",
    explanation: "A symbolic link inside `skills/` (for example `skills/pdf -> ../shared/pdf`, next to \
the real folder) makes the scans see the same SKILL.md twice. This is not a conflict between two \
skills; remove the link if it is not needed.",
    examples: &[],
}

pub(super) fn linked_twice(loser: &SkillDoc, winner: &SkillDoc) -> Diagnostic {
    let name = loser.name.clone().unwrap_or_default();
    let message = format!(
        "skill `{name}` is seen twice: `{}` and `{}` are the same SKILL.md through a symbolic link",
        loser.location.rel, winner.location.rel,
    );
    skill_pair(&RULE, loser, winner, message, "the same file".into())
}
