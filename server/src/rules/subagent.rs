//! The subagent-spec rules (`SA…`, harness-spec §3.1–3.2 and §9.3) that follow from where a spec
//! lies and which session contexts read its folder: `check::loading` reports them from the
//! resolution. The others are declared beside their detection: those found while parsing a spec
//! in `workspace::subagent`, SA006 in `check::loading`, SA025 in `check::cross`, SA026 in
//! `check::files`.

use super::{Example, Profile, Rule};
use crate::base::Severity;

pub static SA007: Rule = Rule {
    code: "SA007",
    name: "subagent-nested",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The subagent file is in a folder below the shared `subagents/` folder."#,
    consequence: r#"The local folder scan does not see it; only the filesystem scan's recursive glob does, and that glob reads `<ws>/subagents` only when the call's namespace is empty."#,
    explanation: r#"Severity follows the outcome over the contexts the configuration allows. In the default `user` scope (and `session`) every call has a namespace, so the filesystem scan reads `<ws>/<ns>/subagents`: a nested shared spec is loaded for no call (error). With scope `agent` or `global`, or in sandbox and remote mode, the glob reads `<ws>/subagents` and loads it, as id = file name (info). Move it directly into `subagents/`."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/subagents/web/researcher.md",
            r#"---
description: Researches questions on the web.
---
You research a question and answer with sources.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
---
You research a question and answer with sources.
"#,
        )],
    }],
};

pub static SA022: Rule = Rule {
    code: "SA022",
    name: "subagent-folder-not-read",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The subagent file is in a folder that no session context the configuration allows reads."#,
    consequence: r#"No call lists or spawns this subagent."#,
    explanation: r#"Per-user specs (`<ws>/<ns>/subagents/**`) are read by the filesystem scan only for calls whose namespace is `<ns>`: never with scope `agent` or `global`, never in sandbox or remote mode. Project-folder specs are read only in local mode. With `features.subagents = false` no spec is read. Move the file to the shared `subagents/` folder, or change the configuration."#,
    examples: &[Example {
        triggering: &[
            (
                "agentws.toml",
                r#"[agent]
name = "docs"

[isolation]
scope = "agent"
"#,
            ),
            (
                ".agentscope/workspace/alice/subagents/researcher.md",
                r#"---
description: Researches questions on the web.
---
You research a question and answer with sources.
"#,
            ),
        ],
        fixed: &[
            (
                "agentws.toml",
                r#"[agent]
name = "docs"

[isolation]
scope = "agent"
"#,
            ),
            (
                ".agentscope/workspace/subagents/researcher.md",
                r#"---
description: Researches questions on the web.
---
You research a question and answer with sources.
"#,
            ),
        ],
    }],
};

pub static RULES: &[&Rule] = &[&SA007, &SA022];
