//! SK012 `skill-frontmatter-too-long`: a frontmatter over SnakeYAML's code-point limit; the runtime sees no
//! metadata.

use super::Parser;
use crate::base::{Severity, TextRange};
use crate::rules::{declare_rule, Profile};

declare_rule! {
    code: "SK012",
    name: "skill-frontmatter-too-long",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The frontmatter is longer than 16 384 code points."#,
    consequence: r#"The YAML parser refuses it: the runtime uses empty metadata and skips the skill."#,
    explanation: r#"The skill parser sets SnakeYAML's code-point limit to 16 384. Shorten the frontmatter; move long text into the body or references/."#,
    examples: &[],
}

/// SnakeYAML's code-point limit as the skill parser sets it.
pub const FRONTMATTER_CODE_POINT_LIMIT: usize = 16_384;

impl Parser<'_> {
    /// Whether the YAML at `yaml` is over the limit, so that the runtime reads no metadata
    /// (reported at the opening `---`).
    pub(super) fn frontmatter_too_long(&mut self, yaml: TextRange) -> bool {
        let code_points = self.text[yaml.start..yaml.end].chars().count();
        if code_points <= FRONTMATTER_CODE_POINT_LIMIT {
            return false;
        }
        self.out.push(RULE.at(
            &self.path,
            TextRange::new(0, 3),
            format!(
                "the frontmatter is {code_points} code points long; the runtime's YAML parser stops at {FRONTMATTER_CODE_POINT_LIMIT}, so the runtime sees no metadata and skips the skill"
            ),
        ));
        true
    }
}
