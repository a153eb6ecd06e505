//! SA011 `subagent-body-discarded`: a body beside `workspace.path`; the runtime discards it and
//! reads the system prompt from that folder's AGENTS.md.

use super::Parser;
use crate::base::{Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "SA011",
    name: "subagent-body-discarded",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"`workspace.path` is set and the body is not empty."#,
    consequence: r#"Edits to this body change nothing; edit that AGENTS.md instead."#,
    explanation: r#"Move the prompt into `<path>/AGENTS.md`, or remove `workspace.path`."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[
            (
                ".agentscope/workspace/subagents/researcher.md",
                r#"---
description: Researches questions on the web.
workspace:
  path: researcher-home
---
You research a question and answer with sources.
"#,
            ),
            (
                ".agentscope/workspace/researcher-home/AGENTS.md",
                r#"Cite every source.
"#,
            ),
        ],
        fixed: &[
            (
                ".agentscope/workspace/subagents/researcher.md",
                r#"---
description: Researches questions on the web.
workspace:
  path: researcher-home
---
"#,
            ),
            (
                ".agentscope/workspace/researcher-home/AGENTS.md",
                r#"You research a question and answer with sources.
"#,
            ),
        ],
        at: ".agentscope/workspace/subagents/researcher.md:6:1",
    }],
}

impl Parser<'_> {
    /// The non-empty `body`, beside `workspace.path` valued `workspace_path`.
    pub(super) fn body_discarded(&mut self, body: TextRange, workspace_path: &str) {
        self.push(
            &RULE,
            body,
            format!(
                "`workspace.path` is set (`{workspace_path}`), so the runtime logs a WARN and discards this body; the system prompt comes from `{workspace_path}/AGENTS.md`"
            ),
        );
    }
}
