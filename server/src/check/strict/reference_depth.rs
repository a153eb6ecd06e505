//! ST009 `strict-reference-depth`: a file the body refers to is more than one folder deep below
//! the skill.

use super::references::inside_folder;
use super::LoadedSkill;
use crate::base::{Diagnostic, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "ST009",
    name: "strict-reference-depth",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict (recommended): files referenced from SKILL.md should be one level deep."#,
    consequence: r#"Deeply nested references are harder for agents to find."#,
    explanation: r#"Link files like `references/guide.md`, not `references/a/b/c.md`. References are Markdown link and image targets, and relative paths written in text, in backticks or in code blocks whose first folder is one the specification names (`scripts/`, `references/`, `assets/`) or a folder the skill has: the specification's own example is the line `scripts/extract.py`.

**Differences from the reference validators** (`tests/e2e/peer_suites.rs`): agnix reads any word starting with `reference/`, `references/` or `refs/` as a reference, and reports paths written with backslashes. agentws does not take `reference/deep/guide.md` for a reference when the skill has no `reference/` folder, since the specification names `references/` (`agnix:test_as_013_reference_single_name_too_deep`), and does not read `references\guide.md` as a path: a backslash is an escape character in Markdown and a file-name character on Linux (`agnix:test_as_014_windows_path_separator`)."#,
    examples: &[Example {
        base: Base::Shared { without: &["agentws.toml", ".agentscope/workspace/AGENTS.md"] },
        triggering: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.

See [the form guide](references/forms/fill/guide.md).
"#),
            (".agentscope/workspace/skills/pdf/references/forms/fill/guide.md", "# Filling forms\n"),
        ],
        fixed: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.

See [the form guide](references/forms.md).
"#),
            (".agentscope/workspace/skills/pdf/references/forms.md", "# Filling forms\n"),
        ],
        at: ".agentscope/workspace/skills/pdf/SKILL.md:10:22",
    }],
}

pub(super) fn check(loaded: &LoadedSkill, out: &mut Vec<Diagnostic>) {
    for reference in &loaded.references {
        if inside_folder(&reference.target).is_some_and(|segments| segments.len() > 2) {
            out.push(RULE.at(
                &loaded.skill.path,
                reference.range,
                format!(
                    "`{}` is more than one folder deep below the skill",
                    reference.target
                ),
            ));
        }
    }
}
