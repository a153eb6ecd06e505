//! SK021 `skill-body-too-long`: a body over skill_manage's 100 000 characters.

use super::{Parser, SkillDoc};
use crate::base::{Severity, TextRange};
use crate::rules::{declare_rule, Profile};
use crate::syntax::frontmatter::SkillSplit;
use crate::syntax::java;

declare_rule! {
    code: "SK021",
    name: "skill-body-too-long",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: r#"The body is longer than 100 000 characters."#,
    consequence: r#"Accepted; skill_manage would reject it."#,
    explanation: r#"Move long material into references/."#,
    examples: &[],
}

pub const BODY_MAX_CHARS: usize = 100_000;

impl Parser<'_> {
    /// Counted in UTF-16 units, as skill_manage's Java `length()` counts; reported where the
    /// body starts.
    pub(super) fn body_too_long(&mut self, doc: &SkillDoc, split: SkillSplit) {
        // No character takes more UTF-16 units than UTF-8 bytes: a body of at most that many
        // bytes is within the limit without counting (most are, and every skill is asked).
        if doc.body.len() <= BODY_MAX_CHARS {
            return;
        }
        let body_len = java::utf16_len(&doc.body);
        if body_len > BODY_MAX_CHARS {
            self.out.push(RULE.at(
                &self.path,
                TextRange::empty(split.body.start),
                format!(
                    "the body is {body_len} characters long (skill_manage allows {BODY_MAX_CHARS})"
                ),
            ));
        }
    }
}
