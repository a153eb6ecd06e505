//! XR012 `skill-name-tie-directory-order`: shared skills of one name between which nothing in
//! the merge decides, so the JVM's directory-listing order picks the winner.

use std::path::PathBuf;

use super::who_label;
use crate::base::{Diagnostic, Related, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::resolution::Callers;
use crate::workspace::skill::SkillDoc;
use crate::workspace::Workspace;

declare_rule! {
    code: "XR012",
    name: "skill-name-tie-directory-order",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "Two skills of the shared `skills/` folder have the same `name`, and nothing later in the merge decides between them.",
    consequence: "Which one the runtime keeps depends on the order the file system lists the folders in, which can differ between machines.",
    explanation: "Layer 3 (`FileSystemSkillRepository(<ws>/skills)`) lists its folder with `Files.list`, \
unsorted (`FileSystemSkillRepository.java`; docs/runtime-sources.md), and the later of two same-name skills wins. When no later layer \
re-reads the name (the default `user` scope: the namespaced repository reads `<ws>/<ns>/skills`), \
the winner depends on the operating system's directory order. `agentws preview` lists Layer 3 in \
Java `String` order of `<folder>/SKILL.md` for determinism, shows the last of the tied files, and \
notes the tie; `agentws check` reports it on every tied file. Rename one of them.",
    examples: &[
        Example {
            base: Base::Shared { without: &["agentws.toml"] },
            triggering: &[
                (".agentscope/workspace/skills/pdf-v2/SKILL.md", r#"---
name: pdf
description: Read and fill PDF forms.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
            ],
            fixed: &[
                (".agentscope/workspace/skills/pdf-v2/SKILL.md", r#"---
name: pdf-v2
description: Read and fill PDF forms.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
            ],
            at: ".agentscope/workspace/skills/pdf/SKILL.md:2:7",
        },
    ],
}

/// The tie of `doc` with the files at `others`, for `who`.
pub(super) fn tie(ws: &Workspace, doc: &SkillDoc, others: &[PathBuf], who: &Callers) -> Diagnostic {
    let name = doc.name.clone().unwrap_or_default();
    let names: Vec<String> = others
        .iter()
        .filter_map(|p| ws.skill(p))
        .map(|other| format!("`{}`", other.location.rel))
        .collect();
    let mut diagnostic = RULE.at(
        &doc.path,
        doc.name_range.unwrap_or(doc.opening_range),
        format!(
            "skill `{name}` is also defined in {} of the shared `skills/` folder; for {} nothing later in the merge \
             decides, so the order the file system lists the folders in picks the winner (the preview \
             sorts them by path and shows the last)",
            names.join(", "),
            who_label(ws, who)
        ),
    );
    for other in others {
        if let Some(other_doc) = ws.skill(other) {
            diagnostic = diagnostic.with_related(Related {
                path: other_doc.path.clone(),
                range: other_doc.name_range.unwrap_or(other_doc.opening_range),
                message: format!("another `{name}`"),
            });
        }
    }
    diagnostic
}
