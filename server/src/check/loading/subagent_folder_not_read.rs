//! SA022 `subagent-folder-not-read`: a subagent file in a folder that no session context the
//! configuration allows reads. The resolution finds it (`NotScanned`); `not_loaded` reports it
//! with the contexts concerned.

use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "SA022",
    name: "subagent-folder-not-read",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The subagent file is in a folder that no session context the configuration allows reads."#,
    consequence: r#"No call lists or spawns this subagent."#,
    explanation: r#"Per-user specs (`<ws>/<ns>/subagents/**`) are read by the filesystem scan only for calls whose namespace is `<ns>`: never with scope `agent` or `global`, never in sandbox or remote mode. Project-folder specs are read only in local mode. With `features.subagents = false` no spec is read. Move the file to the shared `subagents/` folder, or change the configuration."#,
    examples: &[Example {
        base: Base::Shared {
            without: &[".agentscope/workspace/AGENTS.md", ".agentscope/workspace/skills/pdf/SKILL.md"],
        },
        triggering: &[
            ("agentws.toml", r#"[agent]
name = "docs"

[isolation]
scope = "agent"
"#),
            (".agentscope/workspace/alice/subagents/researcher.md", r#"---
description: Researches questions on the web.
---
You research a question and answer with sources.
"#),
        ],
        fixed: &[
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
        ],
        at: ".agentscope/workspace/alice/subagents/researcher.md:1:1",
    }],
}
