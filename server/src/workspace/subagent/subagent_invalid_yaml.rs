//! SA003 `subagent-invalid-yaml`: a frontmatter that is not valid YAML, not a map, or empty; the
//! runtime drops the spec.

use super::Parser;
use crate::base::{Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::yaml::{self, Node, Typing, YamlError};

declare_rule! {
    code: "SA003",
    name: "subagent-invalid-yaml",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The frontmatter is not valid YAML, not a map, or empty."#,
    consequence: r#"The subagent is not declared: the main agent cannot delegate to it."#,
    explanation: r#"Fix the YAML; the frontmatter must be a map with at least `description`."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions: web, papers.
---
You research a question and answer with sources.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: "Researches questions: web, papers."
---
You research a question and answer with sources.
"#,
        )],
        at: ".agentscope/workspace/subagents/researcher.md:2:14",
    }],
}

impl Parser<'_> {
    pub(super) fn invalid_yaml(&mut self, error: &YamlError, yaml_range: TextRange) {
        if let Some(values) = yaml::colon_in_values(self.text, yaml_range, Typing::Jackson) {
            let fix = yaml::quoting_fix(&self.doc.path, &values);
            self.diagnostics.push(
                RULE.at(
                    &self.doc.path,
                    values[0].range,
                    format!(
                        "{}; the runtime logs a WARN and ignores the file",
                        yaml::colon_in_values_phrase(&values)
                    ),
                )
                .with_fix(fix),
            );
            return;
        }
        // An error at a point gets the character there, so that there is something to underline.
        let range = if error.range.is_empty() {
            let end = self.text[error.range.start..]
                .chars()
                .next()
                .map_or(error.range.start, |c| error.range.start + c.len_utf8());
            TextRange::new(error.range.start, end)
        } else {
            error.range
        };
        self.push(
            &RULE,
            range,
            format!(
                "invalid YAML: {}; the runtime logs a WARN and ignores the file",
                error.message
            ),
        );
    }

    /// The frontmatter's `root` is a scalar or a list.
    pub(super) fn frontmatter_not_a_map(&mut self, root: &Node) {
        self.push(
            &RULE,
            root.range,
            format!(
                "the frontmatter is {}, not a map; the runtime logs a WARN and ignores the file",
                root.value.type_phrase()
            ),
        );
    }

    /// Reported on the `opening` `---`: an empty frontmatter has no text of its own.
    pub(super) fn empty_frontmatter(&mut self, opening: TextRange) {
        self.push(
            &RULE,
            opening,
            "the frontmatter is empty; the runtime silently ignores the file",
        );
    }
}
