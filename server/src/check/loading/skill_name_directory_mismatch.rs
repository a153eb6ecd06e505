//! SK016 `skill-name-directory-mismatch`: a loaded skill whose name differs from its folder's,
//! where the namespaced repository serves it: the prompt advertises `<files-root>`
//! `<ws>/skills/<name>`, which is not the skill's folder.

use super::{advertised_root, list, Outcomes};
use crate::base::unicode::normalization_note;
use crate::base::{Diagnostic, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::skill::SkillDoc;
use crate::workspace::Workspace;

declare_rule! {
    code: "SK016",
    name: "skill-name-directory-mismatch",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"The skill's `name` differs from its folder name, and a context serves it from the namespaced repository."#,
    consequence: r#"The prompt tells the model the skill's files are in `skills/<name>` (its `<files-root>`), which is not the skill's folder: commands the model runs there miss its scripts."#,
    explanation: r#"`<files-root>` is built from the skill's name. Where Layer 4 serves the skill (scope `agent` or `global`, a frozen merge, sandbox and remote mode, per-user and project-folder skills), the prompt advertises `<root>/skills/<name>`: not this skill's folder. Where Layer 3 serves a shared skill (the default `user` scope), the runtime stages it under `.skills-cache/<source>/<name>` and advertises that path, which holds the skill: no diagnostic then (the strict profile's ST002 still asks for matching names). The message names the contexts. Rename the folder or the skill so they match."#,
    examples: &[Example {
        base: Base::Shared { without: &[".agentscope/workspace/AGENTS.md"] },
        triggering: &[
            ("agentws.toml", r#"[agent]
name = "docs"

[isolation]
scope = "agent"
"#),
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf-tools
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
        ],
        fixed: &[
            ("agentws.toml", r#"[agent]
name = "docs"

[isolation]
scope = "agent"
"#),
        ],
        at: ".agentscope/workspace/skills/pdf/SKILL.md:2:7",
    }],
}

/// The skill has a name other than its folder's (a skill without a folder name has none).
pub(super) fn misnamed(doc: &SkillDoc, name: &str) -> bool {
    !doc.dir_name.is_empty() && name != doc.dir_name
}

pub(super) fn check(ws: &Workspace, doc: &SkillDoc, outcomes: Outcomes) -> Option<Diagnostic> {
    let (name, range) = (doc.name.as_ref()?, doc.name_range?);
    if !misnamed(doc, name) {
        return None;
    }
    let root = advertised_root(ws, name, outcomes)?;
    Some(RULE.at(
        &doc.path,
        range,
        format!(
            "the skill is named `{name}` but its folder is `{}`{}; for {} the prompt tells the model its files \
             are in `{}` (its `<files-root>`, built from the name), {}",
            doc.dir_name,
            normalization_note(name, &doc.dir_name).unwrap_or_default(),
            list(&root.whom),
            root.advertised,
            root.what
        ),
    ))
}
