//! ST012 `strict-reference-missing`: a file the body refers to is not in the skill's folder.

use super::references::inside_folder;
use super::LoadedSkill;
use crate::base::{Diagnostic, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "ST012",
    name: "strict-reference-missing",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict: SKILL.md refers to a file that is not in the skill's folder."#,
    consequence: r#"The agent is told to read or run a file that is not there; the skill does not work as written wherever it is installed."#,
    explanation: r#"The specification's file references are paths relative to the skill's folder, written as links or as plain paths (its own example is the line `scripts/extract.py`). agentws reads the same three kinds as ST009 and ST011: Markdown link and image targets, and paths written in text, in backticks or in code blocks whose first folder (after any `./`) is one the specification names (`scripts/`, `references/`, `assets/`) or a folder the skill has. A path that names neither a file nor a folder in the skill is reported: each link where it is written, a path in text or code where it is first written.

Files git ignores are not read, so a reference to one is reported too. A path meant for the project the agent works in (its own `scripts/test.sh`) reads like a path of the skill and is reported too. Paths with glob or placeholder characters (`scripts/*.py`, `references/{topic}.md`) are not checked, nor are paths that illustrate: one after `for example`, `e.g.`, `such as` or `like` on its line (`for example references/finance.md`), and a path in prose whose last part is not a file name (`create scripts/references/examples as needed` lists folders). A leading `${CLAUDE_SKILL_DIR}/` is Claude Code's name for the skill folder: the path after it is checked."#,
    examples: &[Example {
        base: Base::Shared { without: &["agentws.toml", ".agentscope/workspace/AGENTS.md"] },
        triggering: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.

To pull out tables, run:

```bash
python3 scripts/extract.py in.pdf
```
"#),
        ],
        fixed: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.

To pull out tables, run:

```bash
python3 scripts/extract.py in.pdf
```
"#),
            (".agentscope/workspace/skills/pdf/scripts/extract.py", r#"import sys
print(sys.argv[1])
"#),
        ],
        at: ".agentscope/workspace/skills/pdf/SKILL.md:13:9",
    }],
}

pub(super) fn check(loaded: &LoadedSkill, out: &mut Vec<Diagnostic>) {
    for reference in &loaded.references {
        let Some(segments) = inside_folder(&reference.target) else {
            continue; // ST011
        };
        if !segments.is_empty() && !(loaded.has)(&segments.join("/")) {
            out.push(RULE.at(
                &loaded.skill.path,
                reference.range,
                format!(
                    "`{}` ({}) is not in the skill's folder",
                    reference.target,
                    reference.written.describe()
                ),
            ));
        }
    }
}
