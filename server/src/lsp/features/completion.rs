//! Completion: frontmatter keys and their values, skill and tool names, tools.json and
//! agentws.toml keys. A long list is narrowed to the word being typed and marked incomplete.
//!
//! Depends on `keys` and `names`.

use std::path::Path;

use tower_lsp_server::ls_types::*;

use super::keys::{frontmatter_range, keys_for, scan_frontmatter};
use super::names::{kind_of, skill_name, skill_names, text_of, tool_names};
use crate::lsp::backend::View;
use crate::lsp::convert::TextPositions;
use crate::workspace::keys::{self, KeySpec};
use crate::workspace::tools::TRANSPORT_NAMES;
use crate::workspace::{tools_schema, FileKind};

/// At most this many completion items are sent. A longer list is narrowed to the names holding
/// the word being typed, cut, and marked incomplete, so the editor asks again as the word grows:
/// a 10 000-skill workspace would otherwise send every name on every keystroke.
pub const MAX_COMPLETION_ITEMS: usize = 200;

pub fn completion(view: &View, path: &Path, position: Position) -> Option<CompletionResponse> {
    let text = text_of(view, path);
    let text: &str = &text;
    let offset = TextPositions::new(text, view.encoding).offset(position);
    let line_start = text[..offset].rfind('\n').map(|i| i + 1).unwrap_or(0);
    let before = &text[line_start..offset];
    let typed = before
        .rsplit([' ', '\t', ',', '[', ':', '"', '\''])
        .next()
        .unwrap_or("");
    let (items, cut) = completion_items(view, path, offset, before, typed)?;
    let (items, narrowed) = bounded(items, typed, |item| &item.label);
    Some(if cut || narrowed {
        CompletionResponse::List(CompletionList {
            is_incomplete: true,
            items,
        })
    } else {
        CompletionResponse::Array(items)
    })
}

/// `items`, or when there are more than [`MAX_COMPLETION_ITEMS`], those whose label holds
/// `typed` (case-insensitively; the ones it starts first), cut to that many; true when narrowed.
fn bounded<T>(items: Vec<T>, typed: &str, label: impl Fn(&T) -> &str) -> (Vec<T>, bool) {
    if items.len() <= MAX_COMPLETION_ITEMS {
        return (items, false);
    }
    let typed = typed.to_lowercase();
    let mut holding: Vec<(bool, T)> = items
        .into_iter()
        .filter_map(|item| {
            let at = find_ignoring_case(label(&item), &typed)?;
            Some((at != 0, item))
        })
        .collect();
    // Stable: the labels starting with the word first, each group in its own order.
    holding.sort_by_key(|(later, _)| *later);
    holding.truncate(MAX_COMPLETION_ITEMS);
    (holding.into_iter().map(|(_, item)| item).collect(), true)
}

/// Where `lowered` (already lowercase) first occurs in `label`, ignoring case; an ASCII label (the
/// usual one, scanned for every skill on each keystroke) is searched without a lowered copy.
fn find_ignoring_case(label: &str, lowered: &str) -> Option<usize> {
    if !label.is_ascii() || !lowered.is_ascii() {
        return label.to_lowercase().find(lowered);
    }
    let (haystack, needle) = (label.as_bytes(), lowered.as_bytes());
    if needle.is_empty() {
        return Some(0);
    }
    haystack
        .windows(needle.len())
        .position(|window| window.eq_ignore_ascii_case(needle))
}

/// The completion items at byte `offset` (`before`: its line up to there), and whether the list
/// was already narrowed to `typed` (the skill names, which are narrowed before their items are
/// built).
fn completion_items(
    view: &View,
    path: &Path,
    offset: usize,
    before: &str,
    typed: &str,
) -> Option<(Vec<CompletionItem>, bool)> {
    let kind = kind_of(view, path)?;
    let text = text_of(view, path);
    let text: &str = &text;
    match kind {
        FileKind::Skill | FileKind::Subagent => {
            frontmatter_items(view, kind, text, offset, before, typed)
        }
        FileKind::ToolsJson => Some((tools_json_items(view, text, offset), false)),
        FileKind::Config => Some((
            keys_for(FileKind::Config)
                .iter()
                .map(|(k, d)| item(k, d, CompletionItemKind::PROPERTY))
                .collect(),
            false,
        )),
        _ => None,
    }
}

/// A completion item with its documentation in markdown (none when `detail` is empty).
fn item(label: &str, detail: &str, kind: CompletionItemKind) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        documentation: (!detail.is_empty()).then(|| {
            Documentation::MarkupContent(MarkupContent {
                kind: MarkupKind::Markdown,
                value: detail.to_string(),
            })
        }),
        ..Default::default()
    }
}

/// In the frontmatter of a SKILL.md or subagent spec: the keys on a line that has none yet, else
/// the values of the key the cursor is under (skill names, tool names, the key's values).
fn frontmatter_items(
    view: &View,
    kind: FileKind,
    text: &str,
    offset: usize,
    before: &str,
    typed: &str,
) -> Option<(Vec<CompletionItem>, bool)> {
    let block = frontmatter_range(text)?;
    if offset < block.start || offset > block.end {
        return None;
    }
    let current_key = scan_frontmatter(&text[..offset.max(block.start)])
        .last()
        .map(|e| e.key.clone());
    let line_end = text[offset..]
        .find(['\n', '\r'])
        .map_or(text.len(), |i| offset + i);
    let rest_blank = text[offset..line_end].trim().is_empty();
    // Under `workspace:` of a subagent, the keys of that map.
    let nested = kind == FileKind::Subagent
        && before.starts_with([' ', '\t'])
        && current_key.as_deref() == Some("workspace");
    let table = match kind {
        FileKind::Skill => keys::SKILL,
        _ if nested => keys::SUBAGENT_WORKSPACE,
        _ => keys::SUBAGENT,
    };
    if !before.contains(':') && !before.trim_start().starts_with('-') {
        return Some((
            table
                .iter()
                .filter(|k| k.alias_of.is_none())
                .map(|k| CompletionItem {
                    insert_text: key_insert_text(k, before, rest_blank),
                    insert_text_format: Some(InsertTextFormat::PLAIN_TEXT),
                    ..item(k.name, k.hover, CompletionItemKind::PROPERTY)
                })
                .collect(),
            false,
        ));
    }
    let key = before
        .split(':')
        .next()
        .map(str::trim)
        .filter(|k| before.contains(':') && !k.starts_with('-'))
        .map(str::to_string)
        .or(current_key)?;
    let mut cut = false;
    let values: Vec<CompletionItem> = match (kind, key.as_str()) {
        (FileKind::Subagent, "skills") => {
            let (names, narrowed) = skill_names_matching(view, typed);
            cut = narrowed;
            names
                .iter()
                .map(|(n, p)| {
                    item(
                        n,
                        &format!("Skill at `{}`", p.display()),
                        CompletionItemKind::REFERENCE,
                    )
                })
                .collect()
        }
        (FileKind::Subagent, "tools") => tool_names(view)
            .iter()
            .map(|(n, d)| item(n, d, CompletionItemKind::FUNCTION))
            .collect(),
        _ => {
            let spec = table.iter().find(|k| k.name == key);
            let kind = match spec.map(|k| k.ty) {
                Some(keys::KeyType::Boolean) => CompletionItemKind::VALUE,
                _ => CompletionItemKind::ENUM_MEMBER,
            };
            spec.map_or(&[][..], |k| k.ty.values())
                .iter()
                .map(|v| item(v, "", kind))
                .collect()
        }
    };
    Some((values, cut))
}

/// In tools.json: a server's keys inside a server, else the top-level keys, the transports and
/// the tool names.
fn tools_json_items(view: &View, text: &str, offset: usize) -> Vec<CompletionItem> {
    let in_server = text[..offset].matches('{').count() >= 3;
    if in_server {
        tools_schema::SERVER
            .iter()
            .map(|k| item(k.name, k.doc, CompletionItemKind::PROPERTY))
            .collect()
    } else {
        let mut items: Vec<CompletionItem> = tools_schema::TOP_LEVEL
            .iter()
            .chain([&tools_schema::MCP_SERVERS])
            .chain(tools_schema::SERVER.iter().take(1))
            .map(|k| item(k.name, k.doc, CompletionItemKind::PROPERTY))
            .collect();
        items.extend(
            TRANSPORT_NAMES
                .iter()
                .map(|v| item(v, "MCP transport", CompletionItemKind::ENUM_MEMBER)),
        );
        items.extend(
            tool_names(view)
                .iter()
                .map(|(n, d)| item(n, d, CompletionItemKind::FUNCTION)),
        );
        items
    }
}

/// What a frontmatter key's completion inserts: the table's text (`key: `, or the start of a map
/// or list) on an otherwise empty line; only its first line when the line is indented; the bare
/// key when text follows the cursor (it may be the rest of a key being retyped).
fn key_insert_text(spec: &KeySpec, before: &str, rest_blank: bool) -> Option<String> {
    if !rest_blank {
        return None;
    }
    let first_line = spec.insert.lines().next().unwrap_or(spec.name);
    let text = if before.starts_with([' ', '\t']) {
        // The table's continuation lines are indented for a top-level key.
        first_line.to_string()
    } else {
        spec.insert.to_string()
    };
    Some(text)
}

/// [`skill_names`] as completion offers them: all of them while the workspace has at most
/// [`MAX_COMPLETION_ITEMS`] skills, else what [`bounded`] keeps of them (true), found in one pass
/// that stops once that many names start with `typed` (the keystroke path on a large workspace).
fn skill_names_matching<'v>(view: &'v View, typed: &str) -> (Vec<(&'v str, &'v Path)>, bool) {
    let skills = &view.workspace.skills;
    if skills.len() <= MAX_COMPLETION_ITEMS {
        return bounded(skill_names(view), typed, |(n, _)| n);
    }
    let lowered = typed.to_lowercase();
    let mut seen = std::collections::HashSet::new();
    let (mut starting, mut holding) = (Vec::new(), Vec::new());
    for skill in skills {
        let name = skill_name(skill);
        let Some(at) = find_ignoring_case(name, &lowered) else {
            continue;
        };
        let list = if at == 0 { &mut starting } else { &mut holding };
        if list.len() < MAX_COMPLETION_ITEMS && seen.insert(name) {
            list.push((name, skill.path.as_path()));
        }
        if starting.len() == MAX_COMPLETION_ITEMS {
            break;
        }
    }
    starting.extend(holding);
    starting.truncate(MAX_COMPLETION_ITEMS);
    (starting, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completion_narrowing_ignores_case_in_ascii_and_other_labels() {
        assert_eq!(find_ignoring_case("PDF-Tools", "tools"), Some(4));
        assert_eq!(find_ignoring_case("pdf", ""), Some(0));
        assert_eq!(find_ignoring_case("pdf", "pdfs"), None);
        assert_eq!(find_ignoring_case("Ärger-Notes", "ärger"), Some(0));
        assert_eq!(
            find_ignoring_case("Notes-Ärger", "ärger").map(|at| at > 0),
            Some(true)
        );
        let (kept, narrowed) = bounded(
            (0..MAX_COMPLETION_ITEMS + 2)
                .map(|i| format!("Skill-{i}"))
                .collect(),
            "SKILL-1",
            |s: &String| s.as_str(),
        );
        assert!(narrowed);
        assert_eq!(kept[0], "Skill-1");
        assert!(kept.iter().all(|s| s.starts_with("Skill-1")));
    }
}
