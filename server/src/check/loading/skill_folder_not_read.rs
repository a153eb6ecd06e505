//! SK026 `skill-folder-not-read`: a SKILL.md in a per-user or project folder that no session
//! context the configuration allows reads. The resolution finds it (`NotScanned`); `not_loaded`
//! reports it with the contexts concerned.
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "SK026",
    name: "skill-folder-not-read",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The SKILL.md is in a per-user or project folder that no session context the configuration allows reads."#,
    consequence: r#"No call loads the skill."#,
    explanation: r#"Per-user skills (`<ws>/<ns>/skills/**`) are read by the namespaced repository only for calls whose namespace is `<ns>`: never with scope `agent` or `global` (the namespace is empty), never with a frozen merge (`features.dynamic_skills = false`), never in sandbox or remote mode (the filesystem holds the shared folders only). Project-folder skills (`<project>/skills/**`) are read only in local mode. Neither is read when `features.default_workspace_skills = false`. Move the skill to the shared `skills/` folder, or change the configuration."#,
    examples: &[Example {
        base: Base::None,
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
                ".agentscope/workspace/alice/skills/pdf/SKILL.md",
                r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
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
                ".agentscope/workspace/skills/pdf/SKILL.md",
                r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
            ),
        ],
        at: ".agentscope/workspace/alice/skills/pdf/SKILL.md:2:7",
    }],
}
