//! Hover: a key's documentation, where a tool comes from, which SKILL.md a `skills:` name
//! resolves to (the resolution the preview renders).
//!
//! Depends on `keys` and `names`.

use std::path::Path;

use tower_lsp_server::ls_types::*;

use super::keys::{keys_for, scan_frontmatter};
use super::names::{kind_of, skill_entry_at, text_of, tool_at, tool_origin};
use crate::base::TextRange;
use crate::context::{effective_root, SessionContext};
use crate::lsp::backend::View;
use crate::lsp::convert::TextPositions;
use crate::workspace::resolution::{self, Outcome};
use crate::workspace::{FileKind, Workspace};

pub fn hover(view: &View, path: &Path, position: Position) -> Option<Hover> {
    let kind = kind_of(view, path)?;
    let text = text_of(view, path);
    let text: &str = &text;
    let positions = TextPositions::new(text, view.encoding);
    let offset = positions.offset(position);
    if let Some((name, range)) = tool_at(view, path, kind, offset) {
        let catalog = &view.catalog;
        return Some(markdown_hover(
            tool_origin(catalog, &name),
            positions.range(range),
        ));
    }
    if matches!(kind, FileKind::Config | FileKind::ToolsJson) {
        let (key, range) = key_under(text, offset, kind)?;
        let doc = keys_for(kind).into_iter().find(|(k, _)| *k == key)?.1;
        return Some(markdown_hover(
            format!("**{key}**\n\n{doc}"),
            positions.range(range),
        ));
    }
    let entries = scan_frontmatter(text);
    for entry in &entries {
        if entry.key_range.start <= offset && offset <= entry.key_range.end {
            let doc = keys_for(kind).iter().find(|(k, _)| *k == entry.key)?.1;
            return Some(markdown_hover(
                format!("**{}**\n\n{}", entry.key, doc),
                positions.range(entry.key_range),
            ));
        }
    }
    if kind == FileKind::Subagent {
        if let Some((name, range)) = skill_entry_at(view, path, offset) {
            let message = skill_hover(view, &name);
            return Some(markdown_hover(message, positions.range(range)));
        }
    }
    None
}

/// The key under `offset` in agentws.toml (`key =` or a `[table]` header) or tools.json
/// (`"key":`), with its range.
fn key_under(text: &str, offset: usize, kind: FileKind) -> Option<(&str, TextRange)> {
    let bytes = text.as_bytes();
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
    let mut start = offset.min(bytes.len());
    while start > 0 && is_word(bytes[start - 1]) {
        start -= 1;
    }
    let mut end = offset.min(bytes.len());
    while end < bytes.len() && is_word(bytes[end]) {
        end += 1;
    }
    if start == end {
        return None;
    }
    let before = text[..start].trim_end_matches([' ', '\t']);
    let after = text[end..].trim_start_matches([' ', '\t']);
    let is_key = match kind {
        FileKind::Config => {
            after.starts_with('=') || (before.ends_with('[') && after.starts_with(']'))
        }
        _ => {
            before.ends_with('"')
                && after
                    .strip_prefix('"')
                    .is_some_and(|rest| rest.trim_start().starts_with(':'))
        }
    };
    is_key.then(|| (&text[start..end], TextRange::new(start, end)))
}

/// Which SKILL.md a `skills:` name resolves to for the default session context (no user id, the
/// configuration's scope), the layer it comes from, and what it shadows.
fn skill_hover(view: &View, name: &str) -> String {
    skill_hover_text(&view.workspace, name)
}

/// [`skill_hover`] over a snapshot: every fact is the resolution's, the one the preview renders.
fn skill_hover_text(ws: &Workspace, name: &str) -> String {
    let config = &ws.config;
    let session = SessionContext::from_config(config);
    let Ok(root) = effective_root(config, &session) else {
        return format!("Skill `{name}`");
    };
    let namespace = root.namespace.as_deref().unwrap_or("").to_string();
    let resolution = resolution::resolve(ws, &root);
    let Some((_, winner)) = resolution.skill_named(name) else {
        let mut text = format!(
            "Skill `{name}`: no loaded skill of this name for the default context (namespace `{namespace}`)"
        );
        for doc in ws.skills.iter().filter(|d| d.name.as_deref() == Some(name)) {
            if let Outcome::NotScanned(reason) = resolution.skill_outcome(doc) {
                text.push_str(&format!(
                    "\n\n`{}` is not loaded: {}.",
                    doc.path.display(),
                    reason.describe(ws, resolution::EntryKind::Skill, None)
                ));
            }
        }
        return text;
    };
    let mut text = format!(
        "Skill `{name}`: `{}` from {} wins for the default context (namespace `{namespace}`).",
        winner.doc.path.display(),
        winner.doc.location.tree.label(),
    );
    let ties = resolution.directory_order_ties(winner);
    if !ties.is_empty() {
        text.push_str(
            "\n\nThe order the file system lists the folders in decides between it and the other file(s) of \
             this name in the shared `skills/` folder (the preview sorts them by path and shows the last):",
        );
        for tie in &ties {
            text.push_str(&format!(" `{}`", tie.display()));
        }
    }
    for (doc, outcome) in resolution.skill_outcomes() {
        if let Outcome::Shadowed { by: Some(by), .. } = outcome {
            if *by == winner.doc.path && !ties.contains(&doc.path) {
                text.push_str(&format!("\n\nShadows `{}`.", doc.path.display()));
            }
        }
    }
    text
}

fn markdown_hover(value: String, range: Range) -> Hover {
    Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value,
        }),
        range: Some(range),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skill_hover_names_ties_and_why_a_skill_is_not_loaded() {
        let mut config = crate::config::Config::defaults_for(Path::new("/p"));
        config.agent.name = Some("desk".into());
        let skill = |n: &str| format!("---\nname: {n}\ndescription: d\n---\nBody\n");
        let ws = Workspace::from_texts(
            config,
            [
                ("/p/.agentscope/workspace/skills/a/SKILL.md", skill("twin")),
                ("/p/.agentscope/workspace/skills/b/SKILL.md", skill("twin")),
                (
                    "/p/.agentscope/workspace/skills/group/deep/SKILL.md",
                    skill("deep"),
                ),
            ],
        );
        assert_eq!(
            skill_hover_text(&ws, "twin"),
            "Skill `twin`: `/p/.agentscope/workspace/skills/b/SKILL.md` from the shared workspace wins for the \
             default context (namespace `desk`).\n\nThe order the file system lists the folders in decides \
             between it and the other file(s) of this name in the shared `skills/` folder (the preview sorts them \
             by path and shows the last): `/p/.agentscope/workspace/skills/a/SKILL.md`"
        );
        assert_eq!(
            skill_hover_text(&ws, "deep"),
            "Skill `deep`: no loaded skill of this name for the default context (namespace `desk`)\n\n\
             `/p/.agentscope/workspace/skills/group/deep/SKILL.md` is not loaded: nested below the shared `skills/` \
             folder: the runtime's scan of the shared `skills/` folder reads only `skills/*/SKILL.md`, and the \
             deeper search reads only `/p/.agentscope/workspace/desk/skills`."
        );
    }
}
