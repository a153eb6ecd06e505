//! The one table of frontmatter keys per file kind: a SKILL.md (`SKILL`) and a subagent spec
//! (`SUBAGENT`, with `SUBAGENT_WORKSPACE` for the keys under `workspace:`). Each row says the key's
//! type, whether the runtime requires it, its default, what the runtime does with it, the editor's
//! hover text and completion insert text, and whether the strict profile (the Agent Skills open
//! specification) accepts it.
//!
//! The subagent parser takes its known keys from here, the language server its completions and
//! hovers, the strict profile its allowed keys, and docs/workspace-files.md is generated from it.
//! Pure data: depends on nothing.

/// What a key's value looks like to the runtime.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyType {
    /// A YAML string (SnakeYAML 1.1 typing: `yes`, `1.0` or `2024-01-01` are not strings).
    String,
    /// Any YAML value, kept as written (SKILL.md metadata).
    Any,
    /// Any scalar, read with `toString().trim()` (subagent specs).
    Scalar,
    /// A YAML number; the runtime takes its integer part.
    Number,
    /// A number, or a string `Double.parseDouble` reads.
    NumberOrNumericString,
    /// `true`/`false`, or a string read with `Boolean.parseBoolean`.
    Boolean,
    /// One of these words, case-insensitive.
    Choice(&'static [&'static str]),
    /// A YAML list, or one comma-separated string (`a, b` or `[a, b]`).
    NameList,
    /// A YAML map.
    Map,
}

impl KeyType {
    /// The type in a few words, for documentation.
    pub fn describe(self) -> String {
        match self {
            KeyType::String => "string".into(),
            KeyType::Any => "any YAML value".into(),
            KeyType::Scalar => "scalar (read as text)".into(),
            KeyType::Number => "number (integer part)".into(),
            KeyType::NumberOrNumericString => "number or numeric string".into(),
            KeyType::Boolean => "boolean".into(),
            KeyType::Choice(words) => {
                let shown: Vec<String> = words.iter().map(|w| format!("`{w}`")).collect();
                format!("one of {}", shown.join(", "))
            }
            KeyType::NameList => "list, or comma-separated string".into(),
            KeyType::Map => "map".into(),
        }
    }

    /// Values an editor offers after `key: `.
    pub fn values(self) -> &'static [&'static str] {
        match self {
            KeyType::Choice(words) => words,
            KeyType::Boolean => &["true", "false"],
            _ => &[],
        }
    }
}

/// One frontmatter key.
#[derive(Clone, Copy, Debug)]
pub struct KeySpec {
    pub name: &'static str,
    pub ty: KeyType,
    /// The runtime drops the file when the key is missing or blank.
    pub required: bool,
    /// What the runtime uses when the key is absent, when that is worth saying (markdown).
    pub default: Option<&'static str>,
    /// What the runtime does with the key, in a few words (the documentation's table).
    pub runtime: &'static str,
    /// Markdown shown on hover and with the completion item.
    pub hover: &'static str,
    /// Text a completion of the key inserts at the start of an empty line.
    pub insert: &'static str,
    /// Accepted by the strict profile. Only SKILL.md keys are checked by it; subagent specs are
    /// not part of the Agent Skills specification.
    pub strict: bool,
    /// The key the runtime reads first, when this one is its fallback spelling.
    pub alias_of: Option<&'static str>,
}

#[allow(clippy::too_many_arguments)]
const fn key(
    name: &'static str,
    ty: KeyType,
    required: bool,
    default: Option<&'static str>,
    runtime: &'static str,
    hover: &'static str,
    insert: &'static str,
    strict: bool,
) -> KeySpec {
    KeySpec {
        name,
        ty,
        required,
        default,
        runtime,
        hover,
        insert,
        strict,
        alias_of: None,
    }
}

const fn alias(of: &'static str, spec: KeySpec) -> KeySpec {
    KeySpec {
        alias_of: Some(of),
        ..spec
    }
}

/// SKILL.md frontmatter keys (harness-spec §2.3). Every other key is kept as metadata too and
/// rendered into the prompt; the strict profile accepts exactly the keys below.
pub const SKILL: &[KeySpec] = &[
    key(
        "name",
        KeyType::String,
        true,
        None,
        "listed in the prompt; `skills:` entries and skill filters match it; missing, blank or not a string: the skill is skipped",
        "Skill name (required). The runtime drops the skill when `name` is missing or blank; it is the name the prompt lists and `skills:` entries refer to.",
        "name: ",
        true,
    ),
    key(
        "description",
        KeyType::String,
        true,
        None,
        "listed in the prompt's skill section; missing, blank or not a string: the skill is skipped",
        "What the skill does (required). Listed in the prompt's skill section; a missing or blank description drops the skill.",
        "description: ",
        true,
    ),
    key(
        "license",
        KeyType::Any,
        false,
        None,
        "kept as metadata and rendered into the prompt; no other effect",
        "License of the skill (Agent Skills specification). Kept as metadata; the runtime does not use it.",
        "license: ",
        true,
    ),
    key(
        "compatibility",
        KeyType::Any,
        false,
        None,
        "kept as metadata and rendered into the prompt; no other effect",
        "Environment requirements (Agent Skills specification, 1–500 characters). Kept as metadata.",
        "compatibility: ",
        true,
    ),
    key(
        "metadata",
        KeyType::Any,
        false,
        None,
        "kept as metadata and rendered into the prompt; no other effect",
        "A map of string to string (Agent Skills specification). Kept as metadata.",
        "metadata:\n  ",
        true,
    ),
    key(
        "allowed-tools",
        KeyType::Any,
        false,
        None,
        "kept as metadata and rendered into the prompt; not enforced",
        "Space-separated tools the skill may use (Agent Skills specification). The runtime does not enforce it.",
        "allowed-tools: ",
        true,
    ),
];

/// Subagent spec frontmatter keys, as `AgentSpecLoader` reads them (harness-spec §3.2). Any other
/// key is ignored by the runtime.
pub const SUBAGENT: &[KeySpec] = &[
    key(
        "description",
        KeyType::Scalar,
        true,
        None,
        "listed in the prompt's agent list; missing or blank: WARN, the declaration is dropped",
        "Required. Missing or blank: the runtime logs a warning and drops the declaration.",
        "description: ",
        false,
    ),
    key(
        "workspace",
        KeyType::Map,
        false,
        Some("`isolated`, no path"),
        "where the subagent works and where its system prompt comes from; a non-map value is ignored",
        "Map with `mode` (`isolated` default, or `shared`) and `path`. A non-map value is silently ignored.",
        "workspace:\n  mode: ",
        false,
    ),
    key(
        "model",
        KeyType::Scalar,
        false,
        Some("the parent's model"),
        "resolved at spawn; unresolvable: the parent's model, silently",
        "Model for the subagent, e.g. `qwen3-max`; unresolvable at spawn: the parent's model is used, without a log line (`inherit` means just that).",
        "model: ",
        false,
    ),
    key(
        "steps",
        KeyType::Number,
        false,
        Some("`10`"),
        "the maximum number of reasoning steps; not a number: ignored; no range check",
        "Maximum reasoning steps (integer part of a YAML number), default 10; a non-number is silently ignored.",
        "steps: ",
        false,
    ),
    key(
        "maxIters",
        KeyType::Number,
        false,
        Some("`10`"),
        "deprecated; read only when `steps` is not a number",
        "Deprecated alias of `steps`, used only when `steps` is not a number.",
        "maxIters: ",
        false,
    ),
    key(
        "temperature",
        KeyType::NumberOrNumericString,
        false,
        Some("the parent's value"),
        "passed to the model; unparsable: WARN, inherited; no range check",
        "Number or numeric string; unparsable: warning, inherited.",
        "temperature: ",
        false,
    ),
    key(
        "top_p",
        KeyType::NumberOrNumericString,
        false,
        Some("the parent's value"),
        "passed to the model; unparsable: WARN, inherited; no range check",
        "Number or numeric string; unparsable: warning, inherited.",
        "top_p: ",
        false,
    ),
    alias(
        "top_p",
        key(
            "topP",
            KeyType::NumberOrNumericString,
            false,
            Some("the parent's value"),
            "as `top_p`",
            "Spelling of `top_p` the runtime reads when `top_p` is absent. Number or numeric string; unparsable: warning, inherited.",
            "topP: ",
            false,
        ),
    ),
    key(
        "variant",
        KeyType::Scalar,
        false,
        None,
        "stored, not used",
        "Stored, not used by the runtime.",
        "variant: ",
        false,
    ),
    key(
        "mode",
        KeyType::Choice(&["primary", "subagent", "all"]),
        false,
        Some("`all`"),
        "`primary` hides the subagent from the agent list and refuses to spawn it; another value: WARN, `all`",
        "`primary`, `subagent` or `all` (default). `primary` hides the subagent from the prompt's agent list; other values: warning, `all`.",
        "mode: ",
        false,
    ),
    key(
        "hidden",
        KeyType::Boolean,
        false,
        Some("`false`"),
        "`true` hides the subagent from the prompt's agent list",
        "`true` hides the subagent from the prompt's agent list (only `true`, any case, is true).",
        "hidden: ",
        false,
    ),
    key(
        "expose_to_user",
        KeyType::Boolean,
        false,
        Some("unset"),
        "stored as a tri-state flag",
        "Tri-state boolean; unset by default.",
        "expose_to_user: ",
        false,
    ),
    alias(
        "expose_to_user",
        key(
            "exposeToUser",
            KeyType::Boolean,
            false,
            Some("unset"),
            "as `expose_to_user`",
            "Spelling of `expose_to_user` the runtime reads when `expose_to_user` is absent. Tri-state boolean; unset by default.",
            "exposeToUser: ",
            false,
        ),
    ),
    key(
        "tools",
        KeyType::NameList,
        false,
        Some("`[]` (all inherited tools)"),
        "filters the tools inherited from the parent; harness built-ins stay; unknown names are ignored",
        "Tools the subagent may use (list or comma string). Empty: inherits all tools.",
        "tools:\n  - ",
        false,
    ),
    key(
        "skills",
        KeyType::NameList,
        false,
        Some("`[]` (all skills)"),
        "becomes a skill filter of exactly these names; unknown names are ignored",
        "Skills the subagent may use (list or comma string), by skill name. Empty: all skills.",
        "skills:\n  - ",
        false,
    ),
];

/// Keys under a subagent's `workspace:` map.
pub const SUBAGENT_WORKSPACE: &[KeySpec] = &[
    key(
        "mode",
        KeyType::Choice(&["isolated", "shared"]),
        false,
        Some("`isolated`"),
        "`isolated`: its own folder `agents/<id>/workspace` (or `path`); `shared`: the main workspace; another value: WARN, `isolated`",
        "`isolated` (default) or `shared`.",
        "mode: ",
        false,
    ),
    key(
        "path",
        KeyType::Scalar,
        false,
        None,
        "the subagent's workspace folder (relative to the main workspace); its system prompt becomes `<path>/AGENTS.md` and the body is discarded",
        "Folder of a shared workspace, relative to the main workspace.",
        "path: ",
        false,
    ),
];

/// The SKILL.md key named `name`, if it is one of the table.
pub fn skill(name: &str) -> Option<&'static KeySpec> {
    SKILL.iter().find(|k| k.name == name)
}

/// The subagent key named `name`, if the runtime reads it.
pub fn subagent(name: &str) -> Option<&'static KeySpec> {
    SUBAGENT.iter().find(|k| k.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::FileContent;
    use crate::workspace::layout::{Location, Tree};
    use std::path::PathBuf;
    use std::sync::Arc;

    fn location(rel: &str) -> Location {
        Location {
            tree: Tree::Shared,
            rel: rel.into(),
        }
    }

    fn skill_doc(text: &str) -> crate::workspace::skill::SkillDoc {
        crate::workspace::skill::parse(
            PathBuf::from("/w/skills/pdf/SKILL.md"),
            location("skills/pdf/SKILL.md"),
            &FileContent::Text(Arc::from(text)),
        )
    }

    fn subagent_doc(text: &str) -> crate::workspace::subagent::SubagentDoc {
        crate::workspace::subagent::parse(
            PathBuf::from("/w/subagents/r.md"),
            location("subagents/r.md"),
            &FileContent::Text(Arc::from(text)),
        )
    }

    /// A `key: value` line the key's type accepts.
    fn sample(spec: &KeySpec) -> String {
        let value = match spec.ty {
            KeyType::Map => "\n  mode: shared".to_string(),
            KeyType::NameList => " [a, b]".to_string(),
            KeyType::Number | KeyType::NumberOrNumericString => " 1".to_string(),
            KeyType::Boolean => " true".to_string(),
            KeyType::Choice(words) => format!(" {}", words[0]),
            _ => " x".to_string(),
        };
        format!("{}:{value}\n", spec.name)
    }

    #[test]
    fn the_skill_parser_drops_a_skill_exactly_without_a_required_key() {
        for spec in SKILL {
            let text: String = SKILL
                .iter()
                .filter(|k| k.name != spec.name)
                .map(sample)
                .collect();
            let doc = skill_doc(&format!("---\n{text}---\nBody\n"));
            assert_eq!(doc.outcome.is_err(), spec.required, "{}", spec.name);
        }
    }

    #[test]
    fn the_subagent_parser_reads_every_key_of_the_table_and_drops_without_required_ones() {
        let all: String = SUBAGENT.iter().map(sample).collect();
        let doc = subagent_doc(&format!("---\n{all}---\n"));
        assert_eq!(doc.outcome, Ok(()));
        // No key of the table is reported as unknown (SA016); the deprecated one has SA017.
        let codes: Vec<&str> = doc.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(codes, vec!["SA017"], "{:?}", doc.diagnostics);
        let unknown = subagent_doc("---\ndescription: d\nurl: x\n---\n");
        assert_eq!(unknown.diagnostics[0].code, "SA016");
        for spec in SUBAGENT {
            let text: String = SUBAGENT
                .iter()
                .filter(|k| k.name != spec.name)
                .map(sample)
                .collect();
            let doc = subagent_doc(&format!("---\n{text}---\n"));
            assert_eq!(doc.outcome.is_err(), spec.required, "{}", spec.name);
        }
    }

    /// ST007's summary names the keys the strict profile accepts; it must name this table's.
    #[test]
    fn rows_are_complete_and_unique() {
        for table in [SKILL, SUBAGENT, SUBAGENT_WORKSPACE] {
            for (i, spec) in table.iter().enumerate() {
                assert!(
                    !spec.runtime.is_empty() && !spec.hover.is_empty(),
                    "{}",
                    spec.name
                );
                assert!(spec.insert.starts_with(&format!("{}:", spec.name)));
                assert!(table[..i].iter().all(|k| k.name != spec.name));
                if let Some(of) = spec.alias_of {
                    assert!(table.iter().any(|k| k.name == of && k.alias_of.is_none()));
                }
            }
        }
        assert!(SUBAGENT.iter().all(|k| !k.strict));
    }
}
