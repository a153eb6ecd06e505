//! XR005 `duplicate-skill-name`: a skill that loses to another file of the same name. Said at
//! the file that loses, for the callers the winner wins for; a file no context scans for that
//! reason gets it from `not_loaded`.

use super::skill_pair;
use crate::base::{Diagnostic, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::skill::SkillDoc;

declare_rule! {
    code: "XR005",
    name: "duplicate-skill-name",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "Two skills have the same `name`.",
    consequence: "The runtime keeps one of them silently (the later layer or path wins, at the first one's position).",
    explanation: "Skills are merged by name across layers: Layer 3 (`<ws>/skills/*`), Layer 4 lower \
(`<project>/skills/**`), Layer 4 upper (`<ws>/<ns>/skills/**`, or `<ws>/skills/**` when the namespace \
is empty). A later layer wins; within a layer the later path wins. Rename one of them.",
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
                (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
                (".agentscope/workspace/skills/pdf-v2/SKILL.md", r#"---
name: pdf
description: Read and fill PDF forms.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
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
                (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
                (".agentscope/workspace/skills/pdf-v2/SKILL.md", r#"---
name: pdf-v2
description: Read and fill PDF forms.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
            ],
            at: ".agentscope/workspace/skills/pdf-v2/SKILL.md:2:7",
        },
    ],
}

pub(super) fn shadowed(loser: &SkillDoc, winner: &SkillDoc, whom: &str) -> Diagnostic {
    let name = loser.name.clone().unwrap_or_default();
    let message = format!(
        "skill `{name}` is also defined in {} (`{}`), which wins for {whom}",
        winner.location.tree.label(),
        winner.location.rel,
    );
    skill_pair(&RULE, loser, winner, message, format!("this `{name}` wins"))
}
