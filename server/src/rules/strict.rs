//! The strict profile (`ST…`): the Agent Skills open specification (design-notes §5), for skills
//! shared with other agent runtimes. Off by default (`--profile strict`).

use super::{Profile, Rule};
use crate::base::Severity;

pub static ST001: Rule = Rule {
    code: "ST001",
    name: "strict-name-format",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict name: 1–64 lowercase letters, digits and single hyphens, no leading/trailing hyphen."#,
    consequence: r#"The Agent Skills specification requires it; other runtimes may reject the skill."#,
    explanation: r#"`name` must match `^[a-z0-9]+(-[a-z0-9]+)*$` and be at most 64 characters."#,
};

pub static ST002: Rule = Rule {
    code: "ST002",
    name: "strict-name-directory",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict: `name` must equal the skill's folder name."#,
    consequence: r#"Other runtimes locate skills by folder name."#,
    explanation: r#"Rename the folder or the skill."#,
};

pub static ST003: Rule = Rule {
    code: "ST003",
    name: "strict-description-length",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict: `description` must be 1–1024 characters."#,
    consequence: r#"Other runtimes may reject or cut the description."#,
    explanation: r#"Shorten the description."#,
};

pub static ST004: Rule = Rule {
    code: "ST004",
    name: "strict-compatibility-length",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict: `compatibility` must be a string of 1–500 characters."#,
    consequence: r#"Other runtimes may reject the skill."#,
    explanation: r#"Shorten `compatibility`."#,
};

pub static ST005: Rule = Rule {
    code: "ST005",
    name: "strict-metadata-shape",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict: `metadata` must be a map of string keys to string values."#,
    consequence: r#"Other runtimes may reject or misread the metadata."#,
    explanation: r#"Quote every metadata value and keep it flat."#,
};

pub static ST006: Rule = Rule {
    code: "ST006",
    name: "strict-allowed-tools-shape",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict: `allowed-tools` must be one space-separated string."#,
    consequence: r#"Other runtimes may misread the tool list."#,
    explanation: r#"Write `allowed-tools: Read Grep Bash` on one line."#,
};

pub static ST007: Rule = Rule {
    code: "ST007",
    name: "strict-unknown-key",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict: only `name`, `description`, `license`, `compatibility`, `metadata` and `allowed-tools` are allowed."#,
    consequence: r#"Other runtimes may reject the skill."#,
    explanation: r#"Move other keys under `metadata`."#,
};

pub static ST008: Rule = Rule {
    code: "ST008",
    name: "strict-body-lines",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict (recommended): SKILL.md should stay under 500 lines."#,
    consequence: r#"Long skills cost context on every load."#,
    explanation: r#"Move detail into references/."#,
};

pub static ST009: Rule = Rule {
    code: "ST009",
    name: "strict-reference-depth",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict (recommended): files referenced from SKILL.md should be one level deep."#,
    consequence: r#"Deeply nested references are harder for agents to find."#,
    explanation: r#"Link files like `references/guide.md`, not `references/a/b/c.md`."#,
};

pub static ST010: Rule = Rule {
    code: "ST010",
    name: "strict-allowed-tools-commas",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict: `allowed-tools` separates tools with commas."#,
    consequence: r#"The specification splits on spaces: `Read, Grep` is read as the tools `Read,` and `Grep`."#,
    explanation: r#"Write `allowed-tools: Read Grep`; the fix removes the commas."#,
};

pub static ST011: Rule = Rule {
    code: "ST011",
    name: "strict-reference-outside",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict (recommended): a link in SKILL.md points outside the skill's folder."#,
    consequence: r#"A skill is shared as its folder: the linked file does not travel with it."#,
    explanation: r#"Copy the file into the skill (for example under `references/`) and link it there."#,
};

pub static ST012: Rule = Rule {
    code: "ST012",
    name: "strict-reference-missing",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict: SKILL.md refers to a file that is not in the skill's folder."#,
    consequence: r#"The agent is told to read or run a file that is not there; the skill does not work as written wherever it is installed."#,
    explanation: r#"The specification's file references are paths relative to the skill's folder, written as links or as plain paths (its own example is the line `scripts/extract.py`). agentws reads the same three kinds as ST009 and ST011: Markdown link and image targets, and paths written in text, in backticks or in code blocks whose first folder is one the specification names (`scripts/`, `references/`, `assets/`), `./` or `../`, or a folder the skill has. A path that names neither a file nor a folder in the skill is reported, once per SKILL.md.

Files git ignores are not read, so a reference to one is reported too. Paths with glob or placeholder characters (`scripts/*.py`, `references/{topic}.md`) are not checked."#,
};

pub static RULES: &[&Rule] = &[
    &ST001, &ST002, &ST003, &ST004, &ST005, &ST006, &ST007, &ST008, &ST009, &ST010, &ST011, &ST012,
];
