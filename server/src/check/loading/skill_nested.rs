//! SK017 `skill-nested`: a SKILL.md nested deeper than `skills/<dir>/` in the shared folder,
//! which the direct scan does not see: not loaded where the call's namespace holds skills, loaded
//! only through the recursive glob otherwise. The resolution finds it
//! (`NotScanned::NestedInSharedFolder`); `not_loaded` and `nested_but_loaded` report it, and
//! whether a skill of the enclosing folder reads it as one of its files is decided here.

use std::path::Path;

use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::{Tree, Workspace};

declare_rule! {
    code: "SK017",
    name: "skill-nested",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The SKILL.md is nested deeper than `skills/<dir>/` of the shared workspace."#,
    consequence: r#"The runtime's scan of the shared `skills/` folder reads only `skills/<folder>/SKILL.md`; the deeper search, made for per-user skills, reads the shared folder only for calls without a user or session folder (scope `agent` or `global`)."#,
    explanation: r#"Severity follows the outcome over the contexts the configuration allows. In the default `user` scope (and `session`) every call has a namespace, so the namespaced repository reads `<ws>/<ns>/skills`: a nested shared skill is loaded for no call (error; a warning when it lies in the folder of a skill the runtime loads, whose whole folder it advertises, so the file stays readable as one of that skill's files, as router skills written for other agents intend). With scope `agent` or `global`, or a frozen merge, the recursive glob reads `<ws>/skills` and loads it (warning: its `<files-root>` `skills/<name>` is not its folder, and it can collide with a skill of the same name). Move the skill folder directly under `skills/`."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/skills/documents/pdf/SKILL.md",
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
        at: ".agentscope/workspace/skills/documents/pdf/SKILL.md:2:7",
    }],
}

/// The shared skill folder `skills/<dir>` that holds a nested SKILL.md and has a SKILL.md of its
/// own the runtime loads: the direct scan stages and advertises that whole folder, so the nested
/// file is one of that skill's files (a router skill's sub-guides, as collections written for
/// other agents lay them out), not a file nobody reads.
pub(super) fn enclosing_skill(ws: &Workspace, path: &Path) -> Option<String> {
    // The skill's own document, not the workspace's kinds: the engine's rule families hold the
    // kinds of the files other than skills and subagent specs only (`engine::inputs::ProjectInput::frame`).
    let location = &ws.skill(path)?.location;
    if location.tree != Tree::Shared {
        return None;
    }
    let (top, own_rel) = enclosing_rel(&location.rel)?;
    let own = ws.path_in(&location.tree, &own_rel);
    (own != path && ws.skill(&own).is_some_and(|s| s.outcome.is_ok())).then_some(top)
}

/// `skills/<dir>` and `skills/<dir>/SKILL.md` of a file below `skills/<dir>/`.
pub(super) fn enclosing_rel(rel: &str) -> Option<(String, String)> {
    let mut parts = rel.split('/');
    let (Some("skills"), Some(dir)) = (parts.next(), parts.next()) else {
        return None;
    };
    let top = format!("skills/{dir}");
    let own = format!("{top}/SKILL.md");
    Some((top, own))
}
