//! SA008 `subagent-name-key`: a `name:` other than the agent id; the runtime ignores it, the id is
//! the file name.

use super::Parser;
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::java;
use crate::syntax::yaml::Entry;

declare_rule! {
    code: "SA008",
    name: "subagent-name-key",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"The frontmatter sets `name:`."#,
    consequence: r#"The main agent delegates to the subagent by its file name, not by `name:`."#,
    explanation: r#"Remove `name:` and rename the file instead."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
name: web-researcher
description: Researches questions on the web.
---
You research a question and answer with sources.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/subagents/web-researcher.md",
            r#"---
description: Researches questions on the web.
---
You research a question and answer with sources.
"#,
        )],
        at: ".agentscope/workspace/subagents/researcher.md:2:1",
    }],
}

impl Parser<'_> {
    /// The frontmatter's `name:` entry.
    pub(super) fn name_key(&mut self, entry: &Entry) {
        // A `name:` that repeats the file's id changes nothing (specs copied from other runtimes
        // often carry one): not worth a warning.
        let same_as_id = entry
            .value
            .value
            .java_string()
            .is_some_and(|n| java::trim(&n) == self.doc.id);
        if same_as_id {
            return;
        }
        let message = format!(
            "`name:` is ignored: the agent id is the file name (`{}`)",
            self.doc.id
        );
        self.push(&RULE, entry.key_range, message);
    }
}
