//! SA009 `subagent-workspace-not-map`: a `workspace:` that is neither a map nor null; the runtime
//! ignores it.

use super::Parser;
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::yaml::Entry;

declare_rule! {
    code: "SA009",
    name: "subagent-workspace-not-map",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"`workspace` is not a map."#,
    consequence: r#"The subagent runs as if `workspace` were not set."#,
    explanation: r#"Write `workspace:` with `mode:` and/or `path:` keys below it."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
workspace: shared
---
You research a question and answer with sources.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
workspace:
  mode: shared
---
You research a question and answer with sources.
"#,
        )],
        at: ".agentscope/workspace/subagents/researcher.md:3:12",
    }],
}

impl Parser<'_> {
    pub(super) fn workspace_not_map(&mut self, workspace: &Entry) {
        self.push(
            &RULE,
            workspace.value.range,
            format!(
                "`workspace` is {}, not a map; the runtime ignores it (isolated workspace, no path)",
                workspace.value.value.type_phrase()
            ),
        );
    }
}
