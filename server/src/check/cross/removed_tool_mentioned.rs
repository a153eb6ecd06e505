//! XR010 `removed-tool-mentioned`: AGENTS.md or SKILL.md text that mentions, in backticks, a
//! registered tool tools.json removes. Split into the text's mentions and their comparison with
//! the catalog, so that the engine keeps the first per file and a tools.json edit runs only the
//! second.

use std::path::Path;

use crate::base::{Diagnostic, Severity, TextRange};
use crate::rules::{Example, Profile, Rule};
use crate::workspace::catalog::{Removal, ToolCatalog};
use crate::workspace::snapshot::WorkspaceFile;
use crate::workspace::FileKind;

pub static RULE: Rule = Rule {
    code: "XR010",
    name: "removed-tool-mentioned",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: "AGENTS.md or a skill mentions a tool that tools.json removes.",
    consequence: "The model is told about a tool it does not have.",
    explanation: "The prompt text is not checked against the toolkit. Reword the instruction or allow the tool.",
    examples: &[
        Example {
            triggering: &[
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Run the tests with `execute` before tagging.
"#),
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["execute"]
}
"#),
            ],
            fixed: &[
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Ask the user to run the tests before tagging.
"#),
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["execute"]
}
"#),
            ],
        },
    ],
};

/// Backticked tool names (`` `name` `` or `` `name(...)` ``) in AGENTS.md and SKILL.md text that
/// name a registered tool tools.json removes.
pub fn removed_tool_mentions(catalog: &ToolCatalog, file: WorkspaceFile) -> Vec<Diagnostic> {
    if !mentions_tools(file.kind) {
        return Vec::new();
    }
    let Some(text) = file.entry.content.text() else {
        return Vec::new();
    };
    mentioned_among(catalog, file.path, &tool_mentions(text))
}

/// Every rule over the tool names a file's text mentions: removed ones (`XR010`) and other
/// agents' (`XR017`).
pub fn mentioned_among(
    catalog: &ToolCatalog,
    path: &Path,
    mentions: &[ToolMention],
) -> Vec<Diagnostic> {
    let mut out = removed_among(catalog, path, mentions);
    out.extend(super::foreign_tool_mentioned::foreign_among(
        catalog, path, mentions,
    ));
    out
}

/// The kinds of file whose text `XR010` reads.
pub fn mentions_tools(kind: FileKind) -> bool {
    matches!(kind, FileKind::AgentsMd | FileKind::Skill)
}

/// A backticked name that may be a tool's: where it starts, and the name.
pub type ToolMention = (usize, String);

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
            out.push((offset + open + 1, name.to_string()));
        }
        let consumed = open + 1 + close + 1;
        offset += consumed;
        rest = &rest[consumed..];
    }
    out
}

/// `XR010` for the `mentions` of the file at `path` that name a registered tool tools.json
/// removes.
pub fn removed_among(
    catalog: &ToolCatalog,
    path: &Path,
    mentions: &[ToolMention],
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (start, name) in mentions {
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
