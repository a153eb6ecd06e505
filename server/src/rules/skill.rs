//! Rules for SKILL.md (`SK…`): harness-spec §2.3 and §9.2. Severity follows what the runtime
//! does: drop → error, fallback or partial loss → warning, accepted but surprising → info.

use super::{Example, Profile, Rule};
use crate::base::Severity;

pub static SK001: Rule = Rule {
    code: "SK001",
    name: "skill-no-frontmatter",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The SKILL.md does not start with `---` followed by a line break, so the runtime finds no frontmatter."#,
    consequence: r#"The skill is missing from the prompt's skill list (the runtime logs a WARN): the agent never sees or loads it."#,
    explanation: r#"`MarkdownSkillParser` only recognizes frontmatter that starts at the very first byte with `---`, optional spaces and a line break. Anything else means empty metadata, no `name`, and the skill is skipped.

```markdown
---
name: pdf
description: Work with PDF files.
---
# PDF
```"#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"# PDF

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
    }],
};

pub static SK002: Rule = Rule {
    code: "SK002",
    name: "skill-bom",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The SKILL.md starts with a UTF-8 byte order mark before `---`."#,
    consequence: r#"The skill is missing from the prompt's skill list: the agent never sees or loads it."#,
    explanation: r#"Java keeps U+FEFF as the first character of the text, so the `^---` match fails. Save the file as UTF-8 without BOM; the fix deletes the three BOM bytes."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            "\u{feff}---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
",
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
    }],
};

pub static SK003: Rule = Rule {
    code: "SK003",
    name: "skill-leading-whitespace",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"Blank lines or spaces come before the opening `---`."#,
    consequence: r#"The skill is missing from the prompt's skill list: the agent never sees or loads it."#,
    explanation: r#"The frontmatter must start at offset 0. The fix removes what comes before the opening `---`."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"
---
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
    }],
};

pub static SK004: Rule = Rule {
    code: "SK004",
    name: "skill-long-opener",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The frontmatter opens with `----` (more than three dashes)."#,
    consequence: r#"The skill is missing from the prompt's skill list: the agent never sees or loads it."#,
    explanation: r#"`---` followed by another `-` is not an opening delimiter for the runtime's regex. The fix turns the line into `---`."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"----
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
    }],
};

pub static SK005: Rule = Rule {
    code: "SK005",
    name: "skill-frontmatter-unclosed",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The frontmatter is opened with `---` but never closed."#,
    consequence: r#"The skill is missing from the prompt's skill list: the agent never sees or loads it."#,
    explanation: r#"Add a closing `---` line after the YAML block."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"---
name: pdf
description: Read, merge and split PDF files.

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
    }],
};

pub static SK006: Rule = Rule {
    code: "SK006",
    name: "skill-dashes-in-frontmatter",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"A `---` inside the frontmatter (not on a line of its own) closes it early."#,
    consequence: r#"The runtime ends the frontmatter at the first `---` anywhere: keys after it are lost and the rest becomes the body."#,
    explanation: r#"The closing delimiter is the first `---` substring after the opening line, even inside a value such as `description: a---b`. Rephrase the value (for example `a - b` or `a—b`).

Severity follows the outcome: an error when the early close makes the runtime drop the skill (no `name` or `description` left, or no body), a warning when `name` and `description` survive and the runtime loads the skill with a cut value and the later keys lost (the prompt preview renders it that way)."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"---
name: pdf
description: Split---merge PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"---
name: pdf
description: Split and merge PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
    }],
};

pub static SK007: Rule = Rule {
    code: "SK007",
    name: "skill-missing-name",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"`name` is missing or blank."#,
    consequence: r#"The runtime rejects the skill ("must have a YAML Front Matter including `name` and `description`") and skips it."#,
    explanation: r#"Every skill needs a non-blank `name` string in its frontmatter."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"---
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
    }],
};

pub static SK008: Rule = Rule {
    code: "SK008",
    name: "skill-name-not-string",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"`name` is not a YAML string (a number, boolean, date, list or map)."#,
    consequence: r#"The runtime requires a string and skips the skill."#,
    explanation: r#"SnakeYAML types plain scalars with YAML 1.1 rules: `name: yes` is the boolean true and `name: 123` an integer, so the runtime rejects them. Quote the value (`name: "yes"`); the fix does that, and removes an explicit tag such as `!!bool`, which types even a quoted value."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/skills/2048/SKILL.md",
            r#"---
name: 2048
description: Play the 2048 puzzle.
---

# 2048

Slide the tiles with the arrow keys.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/skills/2048/SKILL.md",
            r#"---
name: "2048"
description: Play the 2048 puzzle.
---

# 2048

Slide the tiles with the arrow keys.
"#,
        )],
    }],
};

pub static SK009: Rule = Rule {
    code: "SK009",
    name: "skill-missing-description",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"`description` is missing or blank."#,
    consequence: r#"The runtime rejects the skill and skips it."#,
    explanation: r#"Every skill needs a non-blank `description` string; it is what the model reads to decide when to use the skill."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"---
name: pdf
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
    }],
};

pub static SK010: Rule = Rule {
    code: "SK010",
    name: "skill-description-not-string",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"`description` is not a YAML string."#,
    consequence: r#"The runtime requires a string and skips the skill."#,
    explanation: r#"Quote the value so YAML 1.1 does not turn it into a boolean, number or date."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"---
name: pdf
description: 2024-06-30
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"---
name: pdf
description: "2024-06-30"
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
    }],
};

pub static SK011: Rule = Rule {
    code: "SK011",
    name: "skill-empty-body",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The SKILL.md has nothing after the frontmatter."#,
    consequence: r#"The runtime rejects the skill ("must have content except for the YAML Front Matter") and skips it."#,
    explanation: r#"Write the skill's instructions below the closing `---`."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"---
name: pdf
description: Read, merge and split PDF files.
---
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
    }],
};

pub static SK012: Rule = Rule {
    code: "SK012",
    name: "skill-frontmatter-too-long",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The frontmatter is longer than 16 384 code points."#,
    consequence: r#"The YAML parser refuses it: the runtime uses empty metadata and skips the skill."#,
    explanation: r#"The skill parser sets SnakeYAML's code-point limit to 16 384. Shorten the frontmatter; move long text into the body or references/."#,
    examples: &[],
};

pub static SK013: Rule = Rule {
    code: "SK013",
    name: "skill-yaml-fallback",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"The frontmatter is not valid YAML for SnakeYAML (syntax error, duplicate key, tab, limits)."#,
    consequence: r#"The runtime falls back to its line parser: only top-level `key: value` lines survive, all as strings."#,
    explanation: r#"After any YAML exception the runtime reads each unindented `key: value` line as a string and drops everything else: nested maps, lists, block scalars. The message lists what survives and what is lost."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"---
name: pdf
description: Merge: split and merge PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"---
name: pdf
description: "Merge: split and merge PDF files."
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
    }],
};

pub static SK014: Rule = Rule {
    code: "SK014",
    name: "skill-key-lost-in-fallback",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"A top-level key does not survive the runtime's fallback line parser."#,
    consequence: r#"The runtime drops this key (block scalars, nested maps and lists are skipped by the fallback parser)."#,
    explanation: r#"Fix the YAML error reported by SK013 so the whole frontmatter is read; a lost `description` makes the skill drop."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"---
name: pdf
description: Merge: split and merge PDF files.
metadata:
  author: docs-team
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"---
name: pdf
description: "Merge: split and merge PDF files."
metadata:
  author: docs-team
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
    }],
};

pub static SK015: Rule = Rule {
    code: "SK015",
    name: "skill-frontmatter-not-a-map",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The frontmatter is valid YAML but not a map of keys."#,
    consequence: r#"The skill is missing from the prompt's skill list: the agent never sees or loads it."#,
    explanation: r#"Write the frontmatter as `key: value` lines."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"---
- pdf
- Read, merge and split PDF files.
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
    }],
};

pub static SK017: Rule = Rule {
    code: "SK017",
    name: "skill-nested",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The SKILL.md is nested deeper than `skills/<dir>/` of the shared workspace."#,
    consequence: r#"The direct scan of the shared `skills/` folder (Layer 3) does not see it; only the namespaced repository's recursive glob does, and that glob reads `<ws>/skills` only when the call's namespace is empty."#,
    explanation: r#"Severity follows the outcome over the contexts the configuration allows. In the default `user` scope (and `session`) every call has a namespace, so the namespaced repository reads `<ws>/<ns>/skills`: a nested shared skill is loaded for no call (error; a warning when it lies in the folder of a skill the runtime loads, whose whole folder it advertises, so the file stays readable as one of that skill's files, as router skills written for other agents intend). With scope `agent` or `global`, or a frozen merge, the recursive glob reads `<ws>/skills` and loads it (warning: its `<files-root>` `skills/<name>` is not its folder, and it can collide with a skill of the same name). Move the skill folder directly under `skills/`."#,
    examples: &[Example {
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
    }],
};

pub static SK018: Rule = Rule {
    code: "SK018",
    name: "skill-hidden-dir",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"The skill lives under a `skills/` folder starting with `_` or `.`."#,
    consequence: r#"The workspace repository ignores it; only the direct scan of the shared `skills/` folder loads it (when directly under `skills/`)."#,
    // A warning either way: these folders are the runtime's own (drafts, archives), so a skill
    // that is not loaded there is usually meant not to be.
    explanation: r#"`_drafts`, `.archive` and similar folders belong to the runtime. Rename the folder if the skill should be loaded."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/skills/_drafts/pdf/SKILL.md",
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
    }],
};

pub static SK019: Rule = Rule {
    code: "SK019",
    name: "skill-name-style",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: r#"The skill name does not follow `^[a-z0-9][a-z0-9._-]*$` with at most 64 characters."#,
    consequence: r#"Accepted for hand-written skills; the runtime's skill_manage tool would reject it."#,
    explanation: r#"Use lowercase letters, digits, `.`, `_` and `-`."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/skills/PDF_Tools/SKILL.md",
            r#"---
name: PDF_Tools
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/skills/pdf-tools/SKILL.md",
            r#"---
name: pdf-tools
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
    }],
};

pub static SK020: Rule = Rule {
    code: "SK020",
    name: "skill-description-too-long",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: r#"The description is longer than 1 024 characters."#,
    consequence: r#"Accepted; the whole description is rendered into every prompt (skill_manage would reject it)."#,
    explanation: r#"Keep descriptions short: they are sent on every call."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"---
name: pdf
description: Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files. Read, merge and split PDF files.
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
    }],
};

pub static SK021: Rule = Rule {
    code: "SK021",
    name: "skill-body-too-long",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: r#"The body is longer than 100 000 characters."#,
    consequence: r#"Accepted; skill_manage would reject it."#,
    explanation: r#"Move long material into references/."#,
    examples: &[],
};

pub static SK022: Rule = Rule {
    code: "SK022",
    name: "skill-name-spaces",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: r#"The skill name contains spaces."#,
    consequence: r#"Accepted; `<files-root>` escapes them as `\ ` and tools must quote the path."#,
    explanation: r#"Use `-` instead of spaces."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/skills/pdf tools/SKILL.md",
            r#"---
name: pdf tools
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/skills/pdf-tools/SKILL.md",
            r#"---
name: pdf-tools
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
    }],
};

pub static SK023: Rule = Rule {
    code: "SK023",
    name: "skill-yaml11-surprise",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"A plain YAML value is typed by YAML 1.1 rules into something other than the text written."#,
    consequence: r#"The runtime renders the typed value as Java prints it (e.g. `1.10` → `1.1`, `yes` → `true`, a date → `Mon Jan 01 00:00:00 UTC 2024`)."#,
    explanation: r#"SnakeYAML reads `yes/no/on/off` as booleans, `1.0` as a double, `2024-01-01` as a Date and `1:30` as 90, and the runtime renders the typed value with Java's `String.valueOf`. Quote the value to keep it as written."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"---
name: pdf
description: Read, merge and split PDF files.
version: 1.10
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
version: "1.10"
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
    }],
};

pub static SK024: Rule = Rule {
    code: "SK024",
    name: "skill-non-string-key",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"A frontmatter key is not a string (`1:`, `yes:`, `on:` under YAML 1.1)."#,
    consequence: r#"The key and its value are missing from the rendered metadata."#,
    explanation: r#"Quote the key."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"---
name: pdf
description: Read, merge and split PDF files.
on: upload
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
"on": upload
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
    }],
};

pub static SK025: Rule = Rule {
    code: "SK025",
    name: "skill-allowed-tools-not-enforced",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: r#"Skills set `allowed-tools` (said once per workspace)."#,
    consequence: r#"Tools the skill leaves out of `allowed-tools` stay available to the model."#,
    explanation: r#"The harness does not enforce `allowed-tools`; restrict tools with tools.json or a subagent's `tools:`. The fact holds for every skill that sets the key, so it is reported once per workspace, at the first such skill (in path order), with their number."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"---
name: pdf
description: Read, merge and split PDF files.
allowed-tools: read_file
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
    }],
};

pub static SK026: Rule = Rule {
    code: "SK026",
    name: "skill-folder-not-read",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The SKILL.md is in a per-user or project folder that no session context the configuration allows reads."#,
    consequence: r#"No call loads the skill."#,
    explanation: r#"Per-user skills (`<ws>/<ns>/skills/**`) are read by the namespaced repository only for calls whose namespace is `<ns>`: never with scope `agent` or `global` (the namespace is empty), never with a frozen merge (`features.dynamic_skills = false`), never in sandbox or remote mode (the filesystem holds the shared folders only). Project-folder skills (`<project>/skills/**`) are read only in local mode. Neither is read when `features.default_workspace_skills = false`. Move the skill to the shared `skills/` folder, or change the configuration."#,
    examples: &[Example {
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
    }],
};

pub static RULES: &[&Rule] = &[
    &SK001, &SK002, &SK003, &SK004, &SK005, &SK006, &SK007, &SK008, &SK009, &SK010, &SK011, &SK012,
    &SK013, &SK014, &SK015, &SK017, &SK018, &SK019, &SK020, &SK021, &SK022, &SK023, &SK024, &SK025,
    &SK026,
];
