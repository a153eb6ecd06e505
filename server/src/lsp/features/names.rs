//! What a name in a file refers to, as the workspace parsers recorded it: a skill's `name`, a
//! subagent's `skills:` and `tools:` entries in any form the runtime accepts (YAML list, flow
//! list, comma string), tools.json `allow`/`deny`, with the exact range of each.
//!
//! Shared by the feature files; depends on no other feature file.

use std::path::Path;
use std::sync::Arc;

use tower_lsp_server::ls_types::Location;

use crate::base::TextRange;
use crate::lsp::backend::View;
use crate::lsp::convert::{path_to_uri, TextPositions};
use crate::workspace::catalog::ToolCatalog;
use crate::workspace::skill::SkillDoc;
use crate::workspace::FileKind;

/// The text of the file at `path` (empty when it has none), through the view's one accessor.
pub(super) fn text_of(view: &View, path: &Path) -> Arc<str> {
    view.texts.text(path).unwrap_or_else(|| Arc::from(""))
}

pub(super) fn kind_of(view: &View, path: &Path) -> Option<FileKind> {
    view.workspace.kind_of(path).or_else(|| {
        (view.workspace.config.file.as_deref() == Some(path)).then_some(FileKind::Config)
    })
}

/// Skill names of the snapshot (loaded skills first, in path order, deduplicated).
/// Each skill name once, with the first file that has it, borrowed from the snapshot (requests
/// scan every skill, so nothing is copied before the list is narrowed).
pub(super) fn skill_names(view: &View) -> Vec<(&str, &Path)> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for skill in &view.workspace.skills {
        let name = skill_name(skill);
        if seen.insert(name) {
            out.push((name, skill.path.as_path()));
        }
    }
    out
}

/// The name a skill is referred to by: its `name` as parsed (also when the runtime drops the
/// skill for another reason), else its folder.
pub(super) fn skill_name(skill: &SkillDoc) -> &str {
    written_skill_name(skill).map_or(skill.dir_name.as_str(), |(name, _)| name)
}

/// A SKILL.md's `name` string as the parse read it, with the value's node range.
pub(super) fn written_skill_name(skill: &SkillDoc) -> Option<(&str, TextRange)> {
    if let (Some(name), Some(range)) = (&skill.name, skill.name_range) {
        return Some((name.as_str(), range));
    }
    let entry = skill.entry("name")?;
    let name = entry.value.value.as_str()?;
    Some((name, entry.value.range))
}

/// The exact range of `name` inside the node written at `range`: the node itself for a plain
/// scalar, inside the quotes of a quoted one, or where the name occurs once inside a node holding
/// more (a comma string the parse could not split by offset). Falls back to the node.
pub(super) fn name_span(text: &str, range: TextRange, name: &str) -> TextRange {
    let Some(written) = text.get(range.start..range.end) else {
        return range;
    };
    if written == name {
        return range;
    }
    let quoted = written.len() == name.len() + 2
        && (written.starts_with('"') || written.starts_with('\''))
        && written.ends_with(&written[..1])
        && &written[1..written.len() - 1] == name;
    if quoted {
        return TextRange::new(range.start + 1, range.end - 1);
    }
    match written.match_indices(name).collect::<Vec<_>>().as_slice() {
        [(at, _)] => TextRange::new(range.start + at, range.start + at + name.len()),
        _ => range,
    }
}

/// A subagent's `skills:` or `tools:` names as the parse read them (comma string or YAML list),
/// each with the exact range of its text.
pub(super) fn subagent_names(view: &View, path: &Path, which: ListKey) -> Vec<(String, TextRange)> {
    let Some(doc) = view.workspace.subagent(path) else {
        return Vec::new();
    };
    let text = text_of(view, path);
    let text: &str = &text;
    let list = match which {
        ListKey::Skills => &doc.skills,
        ListKey::Tools => &doc.tools,
    };
    list.iter()
        .map(|n| (n.value.clone(), name_span(text, n.range, &n.value)))
        .collect()
}

#[derive(Clone, Copy)]
pub(super) enum ListKey {
    Skills,
    Tools,
}

/// The `skills:` name of the subagent at `path` under `offset`.
pub(super) fn skill_entry_at(
    view: &View,
    path: &Path,
    offset: usize,
) -> Option<(String, TextRange)> {
    subagent_names(view, path, ListKey::Skills)
        .into_iter()
        .find(|(_, r)| r.start <= offset && offset <= r.end)
}

/// Tool names offered in `tools:` and tools.json `allow`/`deny`: what the runtime registers for
/// this configuration (built-ins per feature switch, MCP servers' `enableTools`), with where each
/// comes from.
pub(super) fn tool_names(view: &View) -> Vec<(String, String)> {
    let catalog = &view.catalog;
    catalog
        .registered_names()
        .into_iter()
        .map(|name| (name.to_string(), tool_origin(catalog, name)))
        .collect()
}

/// Where a tool comes from and whether tools.json removes it, in one markdown line.
pub(super) fn tool_origin(catalog: &ToolCatalog, name: &str) -> String {
    catalog.lookup(name).describe()
}

/// The tool name under `offset` in a subagent's `tools:` or in tools.json `allow`/`deny`.
pub(super) fn tool_at(
    view: &View,
    path: &Path,
    kind: FileKind,
    offset: usize,
) -> Option<(String, TextRange)> {
    let hit = |r: &TextRange| r.start <= offset && offset <= r.end;
    match kind {
        FileKind::Subagent => subagent_names(view, path, ListKey::Tools)
            .into_iter()
            .find(|(_, r)| hit(r)),
        FileKind::ToolsJson => view
            .workspace
            .tools
            .iter()
            .filter(|t| t.path == path)
            .flat_map(|t| t.allow.iter().chain(&t.deny))
            .find(|s| hit(&s.range))
            .map(|s| (s.value.clone(), s.range)),
        _ => None,
    }
}

pub(super) fn location(view: &View, path: &Path, range: TextRange) -> Option<Location> {
    let text = text_of(view, path);
    let text: &str = &text;
    let positions = TextPositions::new(text, view.encoding);
    Some(Location::new(path_to_uri(path)?, positions.range(range)))
}

/// Where a SKILL.md's name is written (its start when it has none).
pub(super) fn name_entry_range(view: &View, skill: &SkillDoc) -> TextRange {
    written_skill_name(skill)
        .map(|(name, range)| name_span(&text_of(view, &skill.path), range, name))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_spans_cover_the_name_only() {
        fn span<'a>(text: &'a str, name: &str) -> &'a str {
            let r = name_span(text, TextRange::new(0, text.len()), name);
            &text[r.start..r.end]
        }
        assert_eq!(span("pdf", "pdf"), "pdf");
        assert_eq!(span("'pdf'", "pdf"), "pdf");
        assert_eq!(span("\"pdf\"", "pdf"), "pdf");
        // One occurrence inside a string the parse could not split by offset.
        assert_eq!(span("\"a\\tb, pdf\"", "pdf"), "pdf");
        // Two: the node, which the rename refuses to replace.
        assert_eq!(span("\"pdf-x\\t, pdf\"", "pdf"), "\"pdf-x\\t, pdf\"");
    }
}
