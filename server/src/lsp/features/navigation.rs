//! Definition and references: `skills:` entries ↔ SKILL.md names, tool names → the MCP server
//! that provides them, agentws.toml `additional_context_files` → the files they name.
//!
//! Depends on `names`.

use std::path::Path;

use tower_lsp_server::ls_types::*;

use super::names::{
    kind_of, location, name_entry_range, skill_entry_at, skill_name, subagent_names, text_of,
    tool_at, ListKey,
};
use crate::lsp::backend::View;
use crate::lsp::convert::{path_to_uri, TextPositions};
use crate::workspace::catalog::ToolOrigin;
use crate::workspace::FileKind;

/// `skills:` entries → the SKILL.md of that name; tool names (a subagent's `tools:`, tools.json
/// `allow`/`deny`) → the MCP server in tools.json that provides them.
pub fn definition(view: &View, path: &Path, position: Position) -> Option<Vec<Location>> {
    let kind = kind_of(view, path)?;
    let text = text_of(view, path);
    let text: &str = &text;
    let offset = TextPositions::new(text, view.encoding).offset(position);
    if let Some((name, _)) = tool_at(view, path, kind, offset) {
        let catalog = &view.catalog;
        let ToolOrigin::Mcp { servers } = catalog.lookup(&name).origin else {
            return Some(Vec::new());
        };
        let mut out = Vec::new();
        if let Some(doc) = view.workspace.effective_tools() {
            for server in doc
                .servers
                .iter()
                .filter(|s| servers.contains(&s.name.value))
            {
                out.extend(location(view, &doc.path, server.name.range));
            }
        }
        return Some(out);
    }
    if kind == FileKind::Config {
        return Some(additional_context_targets(view, text, offset));
    }
    if kind != FileKind::Subagent {
        return None;
    }
    let (name, _) = skill_entry_at(view, path, offset)?;
    let targets: Vec<Location> = view
        .skills_by_name
        .as_ref()?
        .named(&name)
        .filter_map(|path| view.workspace.skill(path))
        .filter_map(|s| location(view, &s.path, name_entry_range(view, s)))
        .collect();
    Some(targets)
}

/// An `additional_context_files` entry of agentws.toml under the cursor → the files it names in
/// the shared workspace and the project folder (the runtime reads the first that exists).
fn additional_context_targets(view: &View, text: &str, offset: usize) -> Vec<Location> {
    let config = &view.workspace.config;
    for entry in &config.agent.additional_context_files {
        let Ok(quoted) = serde_json::to_string(entry) else {
            continue;
        };
        let hit = text
            .match_indices(&quoted)
            .any(|(start, m)| start <= offset && offset <= start + m.len());
        if !hit {
            continue;
        }
        let rel = crate::workspace::layout::normalize_relative(entry);
        return [&config.workspace, &config.project]
            .iter()
            .map(|dir| crate::workspace::layers::join_rel(dir, &rel))
            .filter(|p| view.workspace.files.contains_file(p) || p.is_file())
            .filter_map(|p| Some(Location::new(path_to_uri(&p)?, Range::default())))
            .collect();
    }
    Vec::new()
}

/// Subagents that list the skill whose SKILL.md this is (or whose entry is under the cursor).
fn skill_references(view: &View, name: &str) -> Vec<Location> {
    let mut out = Vec::new();
    for subagent in &view.workspace.subagents {
        for (item, range) in subagent_names(view, &subagent.path, ListKey::Skills) {
            if item == name {
                out.extend(location(view, &subagent.path, range));
            }
        }
    }
    out
}

pub fn references(view: &View, path: &Path, position: Position) -> Option<Vec<Location>> {
    match kind_of(view, path)? {
        FileKind::Skill => {
            let skill = view.workspace.skills.iter().find(|s| s.path == path)?;
            Some(skill_references(view, skill_name(skill)))
        }
        FileKind::Subagent => {
            let text = text_of(view, path);
            let text: &str = &text;
            let offset = TextPositions::new(text, view.encoding).offset(position);
            let (name, _) = skill_entry_at(view, path, offset)?;
            Some(skill_references(view, &name))
        }
        _ => None,
    }
}
