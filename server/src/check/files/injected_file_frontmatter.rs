//! WS016 `injected-file-frontmatter`: a file the prompt injects (AGENTS.md, MEMORY.md,
//! KNOWLEDGE.md, an additional context file) starts with a YAML frontmatter. The runtime reads
//! these files whole and only strips white space (`WorkspaceContextMiddleware`), so the block is
//! part of the prompt and no key in it is read.

use crate::base::{Diagnostic, FileContent, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::yaml::{self, Typing, Value};
use crate::workspace::snapshot::WorkspaceFile;
use crate::workspace::{FileKind, Workspace};

declare_rule! {
    code: "WS016",
    name: "injected-file-frontmatter",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "An injected file (AGENTS.md, MEMORY.md, KNOWLEDGE.md, an additional context file) starts with a YAML frontmatter.",
    consequence: "The frontmatter is injected into the prompt as written: the model reads the `---` block as instructions, and no key in it configures anything.",
    explanation: "The runtime reads AGENTS.md, MEMORY.md, `knowledge/KNOWLEDGE.md` and the additional \
context files whole and strips only the white space around them before putting them in the prompt's \
loaded context. A frontmatter, which a skill or a subagent file has and other tools' templates often \
keep, is not read as metadata here: `name:`, `description:`, `model:` or `tools:` at the top of \
AGENTS.md set nothing, and cost tokens on every call.

Delete the block, or, when its keys mean something, move them where the runtime reads them (a \
subagent's frontmatter, agentws.toml).",
    examples: &[Example {
        base: Base::Shared {
            without: &["agentws.toml", ".agentscope/workspace/skills/pdf/SKILL.md"],
        },
        triggering: &[
            (".agentscope/workspace/AGENTS.md", r#"---
name: release-assistant
description: Answers questions about releases.
---

You are a release assistant. Answer in short sentences.
"#),
        ],
        fixed: &[],
        at: ".agentscope/workspace/AGENTS.md:1:1",
    }],
}

/// WS016 of `file`: its frontmatter is a `---` line first (after the white space the runtime
/// strips), a `---` line later, and between them a YAML map with at least one key; a Markdown
/// rule (`---`) above a paragraph is not one. Not reported when no context injects the file
/// (`features.workspace_context` off; MEMORY.md with memory tools and hooks both off).
pub(super) fn check(workspace: &Workspace, file: WorkspaceFile) -> Option<Diagnostic> {
    let FileContent::Text(text) = &file.entry.content else {
        return None;
    };
    if !super::blank_injected_file::is_injected(file.kind) {
        return None;
    }
    let features = &workspace.config.features;
    if !features.workspace_context
        || (file.kind == FileKind::MemoryMd && !features.memory_tools && !features.memory_hooks)
    {
        return None;
    }
    let (block, keys) = frontmatter(text)?;
    let shown = crate::check::tools::some_labels(
        &keys.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>(),
        4,
    );
    Some(RULE.at(
        file.path,
        block,
        format!(
            "`{}` starts with a frontmatter ({shown}) that the runtime injects into the prompt as written: no key in it is read",
            file.location.rel
        ),
    ))
}

/// The range of the frontmatter (opening through closing `---`) and its top-level keys.
fn frontmatter(text: &str) -> Option<(TextRange, Vec<String>)> {
    let start = text.len() - text.trim_start().len();
    let mut lines = text[start..].split_inclusive('\n');
    let opening = lines.next()?;
    if opening.trim_end() != "---" {
        return None;
    }
    let yaml_start = start + opening.len();
    let mut at = yaml_start;
    for line in lines {
        if line.trim_end() == "---" {
            let yaml = TextRange::new(yaml_start, at);
            let doc = yaml::parse(text, yaml, Typing::Yaml11).ok()?;
            let Value::Map(entries) = doc.root?.value else {
                return None;
            };
            if entries.is_empty() {
                return None;
            }
            let keys = entries.into_iter().map(|e| e.key).collect();
            return Some((TextRange::new(start, at + 3), keys));
        }
        at += line.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::frontmatter;

    #[test]
    fn a_frontmatter_is_a_map_between_dash_lines() {
        let text = "\n---\nname: a\ndescription: b\n---\n\nBody\n";
        let (range, keys) = frontmatter(text).unwrap();
        assert_eq!(
            &text[range.start..range.end],
            "---\nname: a\ndescription: b\n---"
        );
        assert_eq!(keys, ["name", "description"]);
        // A Markdown rule above a paragraph, a list between rules, an empty block, no closing.
        assert_eq!(frontmatter("---\nJust text here.\n---\n"), None);
        assert_eq!(frontmatter("---\n- a\n- b\n---\n"), None);
        assert_eq!(frontmatter("---\n---\nBody\n"), None);
        assert_eq!(frontmatter("---\nname: a\n"), None);
        assert_eq!(frontmatter("# Title\n---\nname: a\n---\n"), None);
    }
}
