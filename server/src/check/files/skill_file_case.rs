//! SK030 `skill-file-case`: a skill folder whose only SKILL.md is spelt in another case
//! (`skill.md`, `Skill.md`), which every skill scan misses. Found over the workspace's names, with
//! the workspace family.

use std::path::Path;

use crate::base::{Diagnostic, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::layout::Location;
use crate::workspace::Workspace;

declare_rule! {
    code: "SK030",
    name: "skill-file-case",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"A skill folder has `skill.md` (or another case of `SKILL.md`) but no `SKILL.md`."#,
    consequence: r#"The skill is missing from the prompt's skill list: the agent never sees or loads it."#,
    explanation: r#"`FileSystemSkillRepository` tests for `<dir>/SKILL.md` and the workspace repository globs `SKILL.md`; on a case-sensitive filesystem neither finds `skill.md` or `Skill.md`. Rename the file to `SKILL.md`. A `skill.md` beside a `SKILL.md` is not reported: the folder loads from `SKILL.md`.

**Differences from the reference validators** (`tests/e2e/peer_suites.rs`): skills-ref falls back to `skill.md` when there is no `SKILL.md` and validates it as the skill (`skills-ref:test_find_skill_md_accepts_lowercase`, `skills-ref:test_read_properties_with_lowercase_skill_md`); agentws reports it, because the AgentScope runtime skips the folder. skills-ref also rejects a skill folder with no SKILL.md at all (`skills-ref:test_missing_skill_md`, `skills-ref:test_parser.py::test_missing_skill_md`, `skills-ref:test_find_skill_md_returns_none_when_missing`). agentws says nothing about such a folder: the runtime has nothing to load and loses nothing, and a folder under `skills/` may hold shared files rather than a skill."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/skills/pdf/skill.md",
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
        at: ".agentscope/workspace/skills/pdf/skill.md:1:1",
    }],
}

/// SK030 of the file at `path` (`location`), a name [`super::misspelt_files`] found: reported
/// when it spells `SKILL.md` in another case in a folder that is no skill's own subfolder
/// (`skills/pdf/references/skill.md` belongs to the `pdf` skill).
pub(super) fn check(workspace: &Workspace, path: &Path, location: &Location) -> Option<Diagnostic> {
    let parts: Vec<&str> = location.rel.split('/').collect();
    let (first, name) = (*parts.first()?, *parts.last()?);
    if first != "skills" || parts.len() < 3 || !name.eq_ignore_ascii_case("SKILL.md") {
        return None;
    }
    if name == "SKILL.md" {
        return None;
    }
    let folder = &parts[..parts.len() - 1];
    let in_a_skill = (2..=folder.len()).any(|n| {
        let mut rel = folder[..n].join("/");
        rel.push_str("/SKILL.md");
        workspace
            .files
            .contains_file(&workspace.path_in(&location.tree, &rel))
    });
    (!in_a_skill).then(|| {
        RULE.at(
            path,
            TextRange::empty(0),
            format!(
                "`{}` is not `SKILL.md`: every skill scan looks for `SKILL.md` exactly, so the runtime skips the folder `{}` (rename the file to `SKILL.md`)",
                location.rel,
                folder.join("/")
            ),
        )
    })
}
