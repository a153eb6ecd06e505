//! SK027 `skill-files-root-not-its-folder`: a loaded skill of a per-user or project folder,
//! where the namespaced repository serves it: the prompt advertises `<files-root>`
//! `<ws>/skills/<name>`, built from the name, which never points into that folder. (A name that
//! also differs from its folder's is SK016's.)

use super::{advertised_root, list, Outcomes};
use crate::base::{Diagnostic, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::skill::SkillDoc;
use crate::workspace::{Tree, Workspace};

declare_rule! {
    code: "SK027",
    name: "skill-files-root-not-its-folder",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"A per-user or project-folder skill is served by the namespaced repository, whose `<files-root>` is `<ws>/skills/<name>`: not the skill's folder."#,
    consequence: r#"The prompt gives the skill's files a folder (`<files-root>`) built from its name in the shared workspace: shell commands the model runs there reach the shared skill of the same name, or a folder that does not exist, instead of this skill's scripts and references."#,
    explanation: r#"`ShellPathPolicy` builds the files-root of a workspace-native skill as `<host workspace>/skills/<name>`: namespaces are not applied, and the project folder is not part of it. A per-user skill `<ws>/alice/skills/pdf/SKILL.md` is advertised at `<ws>/skills/pdf`, which is the shared `pdf` skill's folder when there is one (its scripts are run instead) or a folder that does not exist. `load_skill_through_path` still reads the right files (it goes through the repository); only the shell path is wrong. Keep scripts that per-user skills need in the shared skill, or reference them by absolute path."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/alice/skills/pdf/SKILL.md",
            r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
        at: ".agentscope/workspace/alice/skills/pdf/SKILL.md:2:7",
    }],
}

pub(super) fn check(ws: &Workspace, doc: &SkillDoc, outcomes: Outcomes) -> Option<Diagnostic> {
    let (name, range) = (doc.name.as_ref()?, doc.name_range?);
    // SK016 says it of a skill whose name is not its folder's.
    let misnamed = super::skill_name_directory_mismatch::misnamed(doc, name);
    let elsewhere = matches!(doc.location.tree, Tree::Namespace(_) | Tree::Project);
    if misnamed || !elsewhere {
        return None;
    }
    let root = advertised_root(ws, name, outcomes)?;
    Some(RULE.at(
        &doc.path,
        range,
        format!(
            "for {} the runtime reads this skill from {}, but the prompt tells the model its files are in \
             `{}` (its `<files-root>`, built from the name without the per-user or project folder), {}",
            list(&root.whom),
            doc.location.tree.label(),
            root.advertised,
            root.what
        ),
    ))
}
