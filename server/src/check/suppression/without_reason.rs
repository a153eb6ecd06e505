//! IG003 `suppression-without-reason`: under `require-reason` (agentws.toml `[rules]`, or
//! `agentws check --require-reason`), a suppression comment without `-- reason` suppresses
//! nothing; the problem it was meant for is reported, and so is the comment.

use std::path::Path;

use crate::base::{Diagnostic, Severity};
use crate::check::settle::comments::NamedCode;
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "IG003",
    name: "suppression-without-reason",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A suppression comment gives no reason where the project requires one.",
    consequence: "The comment suppresses nothing: the problem it names is still reported.",
    explanation: "With `require-reason = true` in `[rules]` (or `agentws check --require-reason`), a \
suppression must say why after `--`: `# agentws: ignore SK023 -- the date is meant as text`. A team \
turns this on so that every accepted finding carries its reason into review.",
    examples: &[Example {
        base: Base::Shared { without: &[".agentscope/workspace/skills/pdf/SKILL.md"] },
        triggering: &[
            ("agentws.toml", r#"[agent]
name = "release"

[rules]
require-reason = true
"#),
            (".agentscope/workspace/AGENTS.md", "You are a release assistant.\n"),
            (".agentscope/workspace/skills/notes/SKILL.md", r#"---
name: notes
description: Keep release notes.
created: 2024-01-01 # agentws: ignore SK023
---
Write them down.
"#),
        ],
        fixed: &[
            ("agentws.toml", r#"[agent]
name = "release"

[rules]
require-reason = true
"#),
            (".agentscope/workspace/AGENTS.md", "You are a release assistant.\n"),
            (".agentscope/workspace/skills/notes/SKILL.md", r#"---
name: notes
description: Keep release notes.
created: 2024-01-01 # agentws: ignore SK023 -- the date is meant as text
---
Write them down.
"#),
        ],
        at: ".agentscope/workspace/skills/notes/SKILL.md:4:39",
    }],
}

/// `named` of `comment` would suppress a diagnostic but the comment gives no reason.
pub(crate) fn diagnostic(path: &Path, named: &NamedCode) -> Diagnostic {
    RULE.at(
        path,
        named.range,
        format!(
            "this suppression of {} gives no reason (`-- why`), which this project requires, so {} is still reported",
            named.code, named.code
        ),
    )
}
