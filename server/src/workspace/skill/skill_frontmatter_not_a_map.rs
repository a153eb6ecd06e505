//! SK015 `skill-frontmatter-not-a-map`: valid YAML that is not a map of keys.

use super::Parser;
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::yaml::Node;

declare_rule! {
    code: "SK015",
    name: "skill-frontmatter-not-a-map",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The frontmatter is valid YAML but not a map of keys."#,
    consequence: r#"The skill is missing from the prompt's skill list: the agent never sees or loads it."#,
    explanation: r#"Write the frontmatter as `key: value` lines."#,
    examples: &[Example {
        base: Base::Shared { without: &["agentws.toml", ".agentscope/workspace/AGENTS.md"] },
        triggering: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
- pdf
- Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
        ],
        fixed: &[],
        at: ".agentscope/workspace/skills/pdf/SKILL.md:2:1",
    }],
}

impl Parser<'_> {
    /// `root` is the frontmatter's YAML document, which is not a map.
    pub(super) fn not_a_map(&mut self, root: &Node) {
        self.out.push(RULE.at(
            &self.path,
            root.range,
            format!(
                "the frontmatter is {}, not a map of keys; the runtime uses empty metadata and skips the skill",
                root.value.type_phrase()
            ),
        ));
    }
}
