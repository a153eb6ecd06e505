//! XR010 `removed-tool-mentioned`: AGENTS.md or SKILL.md text that mentions, in backticks, a
//! registered tool tools.json removes. Split into the text's mentions and their comparison with
//! the catalog, so that the engine keeps the first per file and a tools.json edit runs only the
//! second.

use std::path::Path;

use crate::base::{Diagnostic, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::catalog::{Removal, ToolCatalog};
use crate::workspace::FileKind;

declare_rule! {
    code: "XR010",
    name: "removed-tool-mentioned",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: "AGENTS.md or a skill mentions a tool that tools.json removes.",
    consequence: "The model is told about a tool it does not have.",
    explanation: "The prompt text is not checked against the toolkit. Reword the instruction or allow the tool.",
    examples: &[
        Example {
            base: Base::Shared {
                without: &["agentws.toml", ".agentscope/workspace/skills/pdf/SKILL.md"],
            },
            triggering: &[
                (".agentscope/workspace/AGENTS.md", "You are a release assistant. Run the tests with `execute` before tagging.\n"),
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["execute"]
}
"#),
            ],
            fixed: &[
                (".agentscope/workspace/AGENTS.md", "You are a release assistant. Ask the user to run the tests before tagging.\n"),
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["execute"]
}
"#),
            ],
            at: ".agentscope/workspace/AGENTS.md:1:50",
        },
    ],
}

/// The kinds of file whose text `XR010` reads.
pub fn mentions_tools(kind: FileKind) -> bool {
    matches!(kind, FileKind::AgentsMd | FileKind::Skill)
}

/// A backticked name that may be a tool's.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ToolMention {
    /// Where the name starts in the file's text.
    pub start: usize,
    pub name: String,
    /// Whether its line tells the model to use it: a verb of use before it (`use`, `call`,
    /// `invoke`) or the word right before it saying how (`with`, `via`), outside a table row and
    /// not as an example. Prose that names a tool as its subject (a table of each agent's tools,
    /// "e.g. `mcp__x__y`", "Claude Code's `Bash` runs …") tells the model nothing to call.
    pub instructs: bool,
}

/// The backticked names of `text` that may be tools' names (ASCII letters, digits and `_`, at
/// most 64 bytes), in text order. They read the text alone, so the engine keeps them per file and
/// a tools.json edit only compares them with the new catalog.
pub fn tool_mentions(text: &str) -> Vec<ToolMention> {
    let mut out = Vec::new();
    let mut rest = text;
    let mut offset = 0;
    while let Some(open) = rest.find('`') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('`') else { break };
        let inner = &after[..close];
        let name = inner.split('(').next().unwrap_or_default();
        if !name.is_empty()
            && name.len() <= 64
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
            let start = offset + open + 1;
            out.push(ToolMention {
                start,
                name: name.to_string(),
                instructs: instructs(&text[..start - 1], &inner[name.len()..]),
            });
        }
        let consumed = open + 1 + close + 1;
        offset += consumed;
        rest = &rest[consumed..];
    }
    out
}

/// Words before a name, on its line, that tell the model to use it.
const USE_VERBS: &[&str] = &["use", "using", "call", "calling", "invoke", "invoking"];

/// Words right before a verb of use that make it a noun (`every tool call`, `a call`).
const NOUN_MAKERS: &[&str] = &[
    "a", "an", "the", "each", "every", "this", "that", "tool", "function",
];

/// Words that turn an instruction around (`never use`, `do not call`).
const NEGATIONS: &[&str] = &["never", "not", "don", "avoid"];

/// Words right before a name that say it is the means of an action (`search with `Grep``).
const MEANS: &[&str] = &["with", "via", "through"];

/// Whether a mention with `before` it (the file's text up to its opening backtick) and `args`
/// (what follows the name inside the backticks) tells the model to use it
/// ([`ToolMention::instructs`]).
fn instructs(before: &str, args: &str) -> bool {
    // `Bash(git:*)` is a permission pattern (Claude Code's allowed-tools syntax), not a call.
    if args.starts_with('(') && args.contains(['*', ':']) {
        return false;
    }
    let line = before.rsplit('\n').next().unwrap_or(before);
    if line.trim_start().starts_with('|') || crate::check::strict::is_illustrative(list_lead(line))
    {
        return false;
    }
    let words: Vec<String> = line
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let verb = words.iter().enumerate().any(|(i, w)| {
        USE_VERBS.contains(&w.as_str())
            && !(i > 0 && NOUN_MAKERS.contains(&words[i - 1].as_str()))
            && !words[..i].iter().any(|n| NEGATIONS.contains(&n.as_str()))
    });
    verb || words.last().is_some_and(|w| MEANS.contains(&w.as_str()))
}

/// `line` without the list it ends in (`e.g. `a`, `b` or ` before `c`): an example marker
/// introduces every item of its list.
fn list_lead(line: &str) -> &str {
    let mut lead = line.trim_end();
    loop {
        let before = lead;
        for joint in [",", " or", " and", "/"] {
            lead = lead.strip_suffix(joint).unwrap_or(lead).trim_end();
        }
        if let Some(item) = lead.strip_suffix('`') {
            if let Some(open) = item.rfind('`') {
                lead = item[..open].trim_end();
            }
        }
        if lead == before {
            return lead;
        }
    }
}

/// `XR010` for the `mentions` of the file at `path` that name a registered tool tools.json
/// removes.
pub fn removed_among(
    catalog: &ToolCatalog,
    path: &Path,
    mentions: &[ToolMention],
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for ToolMention { start, name, .. } in mentions {
        let info = catalog.lookup(name);
        if info.is_registered() && info.removal.is_some() && !info.readded {
            let how = match info.removal {
                Some(Removal::Denied(_)) => "denies",
                _ => "leaves out of `allow`",
            };
            out.push(RULE.at(
                path,
                TextRange::new(*start, start + name.len()),
                format!("mentions `{name}`, which tools.json {how}"),
            ));
        }
    }
    out
}
