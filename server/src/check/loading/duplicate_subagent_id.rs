//! XR007 `duplicate-subagent-id`: a subagent spec whose agent id another file gives too, and
//! which loses. Said at the file that loses, naming the winner and the mode that decides.

use crate::base::{Diagnostic, Related, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::subagent::SubagentDoc;
use crate::workspace::Workspace;

declare_rule! {
    code: "XR007",
    name: "duplicate-subagent-id",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "Two subagent specs give the same agent id.",
    consequence: "Dynamic mode keeps the later one at the first one's position; static mode keeps the earlier one.",
    explanation: "The agent id is the file name without `.md`, wherever the file sits under `subagents/`. \
Rename one of the files.",
    examples: &[
        Example {
            base: Base::None,
            triggering: &[
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
                ("agentws.toml", r#"[agent]
name = "docs"

[isolation]
scope = "agent"
"#),
                (".agentscope/workspace/subagents/researcher.md", r#"---
description: Researches questions on the web.
---
You research a question and answer with sources.
"#),
                (".agentscope/workspace/subagents/web/researcher.md", r#"---
description: Searches the web.
---
You research a question and answer with sources.
"#),
            ],
            fixed: &[
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
                ("agentws.toml", r#"[agent]
name = "docs"

[isolation]
scope = "agent"
"#),
                (".agentscope/workspace/subagents/researcher.md", r#"---
description: Researches questions on the web.
---
You research a question and answer with sources.
"#),
                (".agentscope/workspace/subagents/web/web-researcher.md", r#"---
description: Searches the web.
---
You research a question and answer with sources.
"#),
            ],
            at: ".agentscope/workspace/subagents/researcher.md:1:1",
        },
    ],
}

pub(super) fn shadowed(
    loser: &SubagentDoc,
    winner: &SubagentDoc,
    whom: &str,
    ws: &Workspace,
) -> Diagnostic {
    let mode = if ws.config.features.dynamic_subagents {
        "dynamic"
    } else {
        "static"
    };
    RULE.at(
        &loser.path,
        loser.opening_range,
        format!(
            "agent id `{}` is also given by {} (`{}`), which wins for {whom} ({mode} mode)",
            loser.id,
            winner.location.tree.label(),
            winner.location.rel,
        ),
    )
    .with_related(Related {
        path: winner.path.clone(),
        range: winner.opening_range,
        message: format!("this `{}` wins", winner.id),
    })
}
