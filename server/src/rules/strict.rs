//! The strict profile (`ST…`): the Agent Skills open specification (design-notes §5), for skills
//! shared with other agent runtimes. Off by default (`--profile strict`).

use super::{Example, Profile, Rule};
use crate::base::Severity;

pub static ST001: Rule = Rule {
    code: "ST001",
    name: "strict-name-format",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict name: 1–64 lowercase letters, digits and single hyphens, no leading/trailing hyphen."#,
    consequence: r#"The Agent Skills specification requires it; other runtimes may reject the skill."#,
    explanation: r#"`name` must match `^[a-z0-9]+(-[a-z0-9]+)*$` and be at most 64 characters: ASCII lowercase letters, digits and single hyphens.

**Differences from the reference validators** (each case is rebuilt in `tests/e2e/peer_suites.rs`):

- *ASCII only.* The specification's frontmatter table says "lowercase letters, numbers, and hyphens only" and its field text "unicode lowercase alphanumeric characters (`a-z`, `0-9`)"; skills-ref accepts any lowercase Unicode letter (after NFKC). agentws keeps `a-z` and `0-9`: the name is also the folder name, the `<files-root>` path the runtime advertises and the key of skill filters, and non-ASCII names make all three depend on how each filesystem and client normalizes text (see ST002). agentws warns where skills-ref accepts: `skills-ref:test_i18n_chinese_name`, `skills-ref:test_i18n_russian_name_with_hyphens`, `skills-ref:test_i18n_russian_lowercase_valid`. Both reject `skills-ref:test_i18n_russian_uppercase_rejected`.
- *Reserved and vague names.* agnix rejects `anthropic`, `claude` and `skill` (a rule of one vendor's hosted platform) and warns on names like `helper` (a style opinion). Neither is in the specification, and the AgentScope runtime loads such skills like any other: `agnix:test_as_007_reserved_name`, `agnix:test_as_007_all_reserved_names (anthropic)`, `agnix:test_as_007_all_reserved_names (skill)`, `agnix:test_as_019_vague_name`.
- *`prefix:name` names.* Some clients show a plugin's skills as `plugin:skill`; written into `name`, the prefix is reported, as both validators' name rules do (the case `agnix:test_as_016_invalid_yaml_colon_in_value` has such a name): the specification allows no `:`, and the AgentScope runtime takes the whole text as the skill's name, building `<files-root>` as `skills/plugin:skill`."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/skills/pdf--tools/SKILL.md",
            r#"---
name: pdf--tools
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

pub static ST002: Rule = Rule {
    code: "ST002",
    name: "strict-name-directory",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict: `name` must equal the skill's folder name."#,
    consequence: r#"Other runtimes locate skills by folder name."#,
    explanation: r#"Rename the folder or the skill. When the two differ only in Unicode normalization (`é` as the one code point U+00E9 or as `e` + U+0301) they print alike, so the message lists the code points of both.

**Differences from the reference validators** (`tests/e2e/peer_suites.rs`): skills-ref compares the name and the folder after NFKC normalization and accepts a decomposed name in a composed folder (`skills-ref:test_nfkc_normalization`). agentws compares them as the runtime does, code point by code point (Java `String.equals`, and Linux file names are bytes): the skill is served under its name, and `<files-root>` built from that name names a folder that does not exist on disk."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"---
name: pdf-tools
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

pub static ST003: Rule = Rule {
    code: "ST003",
    name: "strict-description-length",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict: `description` must be 1–1024 characters."#,
    consequence: r#"Other runtimes may reject or cut the description."#,
    explanation: r#"Shorten the description.

**Differences from the reference validators** (`tests/e2e/peer_suites.rs`): agnix also judges how a description is written: it must contain "use when", must not speak in the first or second person, must not contain XML tags. The specification only says a description *should* describe what the skill does and when to use it, and the AgentScope runtime renders any description as text (escaped in the prompt's XML), so agentws checks only the length: `agnix:test_as_010_missing_trigger`, `agnix:test_as_010_use_this_not_accepted`, `agnix:test_as_018_description_first_second_person`, `agnix:invalid/skills/first-person-description`, `agnix:test_as_009_description_contains_xml`."#,
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

pub static ST004: Rule = Rule {
    code: "ST004",
    name: "strict-compatibility-length",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict: `compatibility` must be a string of 1–500 characters."#,
    consequence: r#"Other runtimes may reject the skill."#,
    explanation: r#"Shorten `compatibility`."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"---
name: pdf
description: Read, merge and split PDF files.
compatibility: Requires python3 and poppler-utils. Requires python3 and poppler-utils. Requires python3 and poppler-utils. Requires python3 and poppler-utils. Requires python3 and poppler-utils. Requires python3 and poppler-utils. Requires python3 and poppler-utils. Requires python3 and poppler-utils. Requires python3 and poppler-utils. Requires python3 and poppler-utils. Requires python3 and poppler-utils. Requires python3 and poppler-utils. Requires python3 and poppler-utils. Requires python3 and poppler-utils. Requires python3 and poppler-utils.
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
compatibility: Requires python3 and poppler-utils.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
    }],
};

pub static ST005: Rule = Rule {
    code: "ST005",
    name: "strict-metadata-shape",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict: `metadata` must be a map of string keys to string values."#,
    consequence: r#"Other runtimes may reject or misread the metadata."#,
    explanation: r#"Quote every metadata value and key, and keep the map flat: `version: "1.0"`, not `version: 1.0`; `"2024": launch`, not `2024: launch`. A key YAML 1.1 reads as a number, boolean or null is dropped by the runtime with its entry (SK024); the specification wants string keys too.

**Differences from the reference validators** (`tests/e2e/peer_suites.rs`): skills-ref turns every metadata key and value into a string (`version: 1.0` becomes `"1.0"`) and accepts `skills-ref:test_read_with_metadata`. agentws warns: the specification defines `metadata` as "a map from string keys to string values" and quotes its own example (`version: "1.0"`), and the AgentScope runtime keeps the YAML 1.1 type, so `1.10` is rendered as `1.1`."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"---
name: pdf
description: Read, merge and split PDF files.
metadata:
  version: 1.0
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
metadata:
  version: "1.0"
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
    }],
};

pub static ST006: Rule = Rule {
    code: "ST006",
    name: "strict-allowed-tools-shape",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict: `allowed-tools` must be one space-separated string."#,
    consequence: r#"Other runtimes may misread the tool list."#,
    explanation: r#"Write `allowed-tools: Read Grep Bash` on one line.

**Differences from the reference validators** (`tests/e2e/peer_suites.rs`): agnix checks the tool names against Claude Code's tools and rejects a plain `Bash` (`agnix:invalid/skills/deploy-prod`). Tool names depend on the runtime that reads the skill, and the AgentScope harness does not enforce `allowed-tools` at all (SK025), so agentws checks only the shape of the value."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"---
name: pdf
description: Read, merge and split PDF files.
allowed-tools:
  - Read
  - Bash
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
allowed-tools: Read Bash
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
    }],
};

pub static ST007: Rule = Rule {
    code: "ST007",
    name: "strict-unknown-key",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict: only `name`, `description`, `license`, `compatibility`, `metadata` and `allowed-tools` are allowed."#,
    consequence: r#"Other runtimes may reject the skill."#,
    explanation: r#"Move other keys under `metadata`.

**Differences from the reference validators** (`tests/e2e/peer_suites.rs`): agnix accepts Claude Code's own keys (`model`, `context`, `agent`, `hooks`, `argument-hint`, `disable-model-invocation`, `user-invocable`) and checks their values; skills-ref, like agentws, allows only the six keys of the specification (`skills-ref:test_unexpected_fields`). These keys mean nothing to the AgentScope runtime (it renders them into the prompt as text), so agentws reports them as keys outside the specification: `agnix:valid/skills/deploy-prod`, `agnix:valid/skills/fork-with-instructions`, `agnix:valid/skills/with-argument-hint`, `agnix:valid/skills/with-context-agent`, `agnix:valid/skills/with-custom-agent`, `agnix:valid/skills/with-hooks`, `agnix:valid/skills/with-model`. For the same reason agentws does not check Claude Code's `$ARGUMENTS` placeholders in the body (`agnix:invalid/skills/indexed-arguments-no-hint`)."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"---
name: pdf
description: Read, merge and split PDF files.
model: sonnet
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
metadata:
  model: sonnet
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
    }],
};

pub static ST008: Rule = Rule {
    code: "ST008",
    name: "strict-body-lines",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict (recommended): SKILL.md should stay under 500 lines."#,
    consequence: r#"Long skills cost context on every load."#,
    explanation: r#"Move detail into references/.

**Differences from the reference validators** (`tests/e2e/peer_suites.rs`): agnix also rejects a skill folder over 8 MB (`agnix:test_as_015_directory_size_exceeds`), an upload limit of one vendor's platform, not a rule of the specification. The AgentScope runtime reads skills from disk without a size limit, so agentws counts only the lines of SKILL.md."#,
    examples: &[],
};

pub static ST009: Rule = Rule {
    code: "ST009",
    name: "strict-reference-depth",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict (recommended): files referenced from SKILL.md should be one level deep."#,
    consequence: r#"Deeply nested references are harder for agents to find."#,
    explanation: r#"Link files like `references/guide.md`, not `references/a/b/c.md`. References are Markdown link and image targets, and relative paths written in text, in backticks or in code blocks whose first folder is one the specification names (`scripts/`, `references/`, `assets/`) or a folder the skill has: the specification's own example is the line `scripts/extract.py`.

**Differences from the reference validators** (`tests/e2e/peer_suites.rs`): agnix reads any word starting with `reference/`, `references/` or `refs/` as a reference, and reports paths written with backslashes. agentws does not take `reference/deep/guide.md` for a reference when the skill has no `reference/` folder, since the specification names `references/` (`agnix:test_as_013_reference_single_name_too_deep`), and does not read `references\guide.md` as a path: a backslash is an escape character in Markdown and a file-name character on Linux (`agnix:test_as_014_windows_path_separator`)."#,
    examples: &[Example {
        triggering: &[
            (
                ".agentscope/workspace/skills/pdf/SKILL.md",
                r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.

See [the form guide](references/forms/fill/guide.md).
"#,
            ),
            (
                ".agentscope/workspace/skills/pdf/references/forms/fill/guide.md",
                r#"# Filling forms
"#,
            ),
        ],
        fixed: &[
            (
                ".agentscope/workspace/skills/pdf/SKILL.md",
                r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.

See [the form guide](references/forms.md).
"#,
            ),
            (
                ".agentscope/workspace/skills/pdf/references/forms.md",
                r#"# Filling forms
"#,
            ),
        ],
    }],
};

pub static ST010: Rule = Rule {
    code: "ST010",
    name: "strict-allowed-tools-commas",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict: `allowed-tools` separates tools with commas."#,
    consequence: r#"The specification splits on spaces: `Read, Grep` is read as the tools `Read,` and `Grep`."#,
    explanation: r#"Write `allowed-tools: Read Grep`; the fix removes the commas."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"---
name: pdf
description: Read, merge and split PDF files.
allowed-tools: Read, Bash
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
allowed-tools: Read Bash
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
    }],
};

pub static ST011: Rule = Rule {
    code: "ST011",
    name: "strict-reference-outside",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict (recommended): a file reference in SKILL.md points outside the skill's folder."#,
    consequence: r#"A skill is shared as its folder: the linked file does not travel with it."#,
    explanation: r#"Copy the file into the skill (for example under `references/`) and link it there. References are read as for ST009."#,
    examples: &[Example {
        triggering: &[
            (
                ".agentscope/workspace/skills/pdf/SKILL.md",
                r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.

Follow [the style guide](../../STYLE.md).
"#,
            ),
            (
                ".agentscope/workspace/STYLE.md",
                r#"# Style
"#,
            ),
        ],
        fixed: &[
            (
                ".agentscope/workspace/skills/pdf/SKILL.md",
                r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.

Follow [the style guide](references/STYLE.md).
"#,
            ),
            (
                ".agentscope/workspace/skills/pdf/references/STYLE.md",
                r#"# Style
"#,
            ),
        ],
    }],
};

pub static ST012: Rule = Rule {
    code: "ST012",
    name: "strict-reference-missing",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict: SKILL.md refers to a file that is not in the skill's folder."#,
    consequence: r#"The agent is told to read or run a file that is not there; the skill does not work as written wherever it is installed."#,
    explanation: r#"The specification's file references are paths relative to the skill's folder, written as links or as plain paths (its own example is the line `scripts/extract.py`). agentws reads the same three kinds as ST009 and ST011: Markdown link and image targets, and paths written in text, in backticks or in code blocks whose first folder (after any `./`) is one the specification names (`scripts/`, `references/`, `assets/`) or a folder the skill has. A path that names neither a file nor a folder in the skill is reported: each link where it is written, a path in text or code where it is first written.

Files git ignores are not read, so a reference to one is reported too. A path meant for the project the agent works in (its own `scripts/test.sh`) reads like a path of the skill and is reported too. Paths with glob or placeholder characters (`scripts/*.py`, `references/{topic}.md`) are not checked."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.

To pull out tables, run:

```bash
python3 scripts/extract.py in.pdf
```
"#,
        )],
        fixed: &[
            (
                ".agentscope/workspace/skills/pdf/SKILL.md",
                r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.

To pull out tables, run:

```bash
python3 scripts/extract.py in.pdf
```
"#,
            ),
            (
                ".agentscope/workspace/skills/pdf/scripts/extract.py",
                r#"import sys
print(sys.argv[1])
"#,
            ),
        ],
    }],
};

pub static RULES: &[&Rule] = &[
    &ST001, &ST002, &ST003, &ST004, &ST005, &ST006, &ST007, &ST008, &ST009, &ST010, &ST011, &ST012,
];
