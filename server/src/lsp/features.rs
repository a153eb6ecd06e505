//! Editor features over one snapshot: completion, hover, definition/references, symbols, code
//! actions, rename. Read-only: every function takes a `View` and returns LSP values; nothing here
//! mutates state or awaits.
//!
//! Names that refer to something (a skill's `name`, a subagent's `skills:` and `tools:` entries in
//! any form the runtime accepts: YAML list, flow list, comma string) are found, navigated and
//! renamed at the ranges the workspace parsers recorded. A small line scanner
//! (`scan_frontmatter`) remains for what a half-typed buffer needs: which key the cursor is under
//! for completion, key hovers and document symbols.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use super::convert::{self, path_to_uri, TextPositions};
use super::server::{invalid_params, View};
use crate::base::{FileContent, FileEdit, Fix, TextRange};
use crate::check::settle::actions::ignore_fixes;
use crate::config::schema as config_schema;
use crate::context::{effective_root, SessionContext};
use crate::syntax::{java, yaml};
use crate::workspace::catalog::{Removal, ToolCatalog, ToolOrigin};
use crate::workspace::keys::{self, KeySpec};
use crate::workspace::resolution::{self, Outcome};
use crate::workspace::skill::SkillDoc;
use crate::workspace::subagent::SubagentDoc;
use crate::workspace::tools::TRANSPORT_NAMES;
use crate::workspace::{tools_schema, FileKind, Workspace};

/// One top-level key of a frontmatter being typed.
#[derive(Clone, Debug, PartialEq)]
pub struct FmEntry {
    pub key: String,
    pub key_range: TextRange,
}

/// The frontmatter block (between the opening and closing `---` lines), if any.
pub fn frontmatter_range(text: &str) -> Option<TextRange> {
    let first_end = text.find('\n').unwrap_or(text.len());
    if text[..first_end].trim_end() != "---" {
        return None;
    }
    let start = (first_end + 1).min(text.len());
    let mut offset = start;
    for line in text[start..].split_inclusive('\n') {
        if line.trim_end() == "---" {
            return Some(TextRange::new(start, offset));
        }
        offset += line.len();
    }
    Some(TextRange::new(start, text.len()))
}

/// Top-level `key:` lines of the frontmatter, also while the YAML is half-typed and does not
/// parse (completion needs the key the cursor is under then).
pub fn scan_frontmatter(text: &str) -> Vec<FmEntry> {
    let Some(block) = frontmatter_range(text) else {
        return Vec::new();
    };
    let mut entries = Vec::new();
    let mut offset = block.start;
    for line in text[block.start..block.end].split_inclusive('\n') {
        let line_start = offset;
        offset += line.len();
        let content = line.trim_end_matches(['\n', '\r']);
        let skipped = content.trim().is_empty() || content.starts_with([' ', '\t', '#', '-']);
        if skipped {
            continue;
        }
        let Some(colon) = content.find(':') else {
            continue;
        };
        entries.push(FmEntry {
            key: content[..colon].trim().to_string(),
            key_range: TextRange::new(line_start, line_start + colon),
        });
    }
    entries
}

fn text_of<'a>(view: &'a View, path: &Path) -> &'a str {
    view.workspace.files.text(path).unwrap_or("")
}

fn kind_of(view: &View, path: &Path) -> Option<FileKind> {
    view.workspace.kind_of(path).or_else(|| {
        (view.workspace.config.file.as_deref() == Some(path)).then_some(FileKind::Config)
    })
}

/// Keys a file kind's editor features know, with their documentation, from the tables the
/// parsers and loaders use.
fn keys_for(kind: FileKind) -> Vec<(&'static str, &'static str)> {
    match kind {
        FileKind::Skill => keys::SKILL.iter().map(|k| (k.name, k.hover)).collect(),
        FileKind::Subagent => keys::SUBAGENT.iter().map(|k| (k.name, k.hover)).collect(),
        FileKind::Config => config_schema::KEYS
            .iter()
            .map(|k| (k.name, k.doc))
            .chain(config_schema::TABLES.iter().copied())
            .collect(),
        FileKind::ToolsJson => tools_schema::TOP_LEVEL
            .iter()
            .chain([&tools_schema::MCP_SERVERS])
            .chain(tools_schema::SERVER)
            .map(|k| (k.name, k.doc))
            .collect(),
        _ => Vec::new(),
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

/// Skill names of the snapshot (loaded skills first, in path order, deduplicated).
/// Each skill name once, with the first file that has it, borrowed from the snapshot (requests
/// scan every skill, so nothing is copied before the list is narrowed).
fn skill_names(view: &View) -> Vec<(&str, &Path)> {
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

/// The name a skill is referred to by: its `name` as parsed (also when the runtime drops the
/// skill for another reason), else its folder.
fn skill_name(skill: &SkillDoc) -> &str {
    written_skill_name(skill).map_or(skill.dir_name.as_str(), |(name, _)| name)
}

/// A SKILL.md's `name` string as the parse read it, with the value's node range.
fn written_skill_name(skill: &SkillDoc) -> Option<(&str, TextRange)> {
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
fn name_span(text: &str, range: TextRange, name: &str) -> TextRange {
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
fn subagent_names(view: &View, path: &Path, which: ListKey) -> Vec<(String, TextRange)> {
    let Some(doc) = view.workspace.subagent(path) else {
        return Vec::new();
    };
    let text = text_of(view, path);
    let list = match which {
        ListKey::Skills => &doc.skills,
        ListKey::Tools => &doc.tools,
    };
    list.iter()
        .map(|n| (n.value.clone(), name_span(text, n.range, &n.value)))
        .collect()
}

#[derive(Clone, Copy)]
enum ListKey {
    Skills,
    Tools,
}

/// The `skills:` name of the subagent at `path` under `offset`.
fn skill_entry_at(view: &View, path: &Path, offset: usize) -> Option<(String, TextRange)> {
    subagent_names(view, path, ListKey::Skills)
        .into_iter()
        .find(|(_, r)| r.start <= offset && offset <= r.end)
}

/// Tool names offered in `tools:` and tools.json `allow`/`deny`: what the runtime registers for
/// this configuration (built-ins per feature switch, MCP servers' `enableTools`), with where each
/// comes from.
fn tool_names(view: &View) -> Vec<(String, String)> {
    let catalog = &view.catalog;
    catalog
        .registered_names()
        .into_iter()
        .map(|name| (name.to_string(), tool_origin(catalog, name)))
        .collect()
}

/// Where a tool comes from and whether tools.json removes it, in one markdown line.
fn tool_origin(catalog: &ToolCatalog, name: &str) -> String {
    catalog.lookup(name).describe()
}

/// The tool name under `offset` in a subagent's `tools:` or in tools.json `allow`/`deny`.
fn tool_at(view: &View, path: &Path, kind: FileKind, offset: usize) -> Option<(String, TextRange)> {
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

/// At most this many completion items are sent. A longer list is narrowed to the names holding
/// the word being typed, cut, and marked incomplete, so the editor asks again as the word grows:
/// a 10 000-skill workspace would otherwise send every name on every keystroke.
pub const MAX_COMPLETION_ITEMS: usize = 200;

pub fn completion(view: &View, path: &Path, position: Position) -> Option<CompletionResponse> {
    let text = text_of(view, path);
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
    let item = |label: &str, detail: &str, kind: CompletionItemKind| CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        documentation: (!detail.is_empty()).then(|| {
            Documentation::MarkupContent(MarkupContent {
                kind: MarkupKind::Markdown,
                value: detail.to_string(),
            })
        }),
        ..Default::default()
    };
    match kind {
        FileKind::Skill | FileKind::Subagent => {
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
        FileKind::ToolsJson => {
            let in_server = text[..offset].matches('{').count() >= 3;
            if in_server {
                Some((
                    tools_schema::SERVER
                        .iter()
                        .map(|k| item(k.name, k.doc, CompletionItemKind::PROPERTY))
                        .collect(),
                    false,
                ))
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
                Some((items, false))
            }
        }
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

pub fn hover(view: &View, path: &Path, position: Position) -> Option<Hover> {
    let kind = kind_of(view, path)?;
    let text = text_of(view, path);
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
                    reason.describe(ws, resolution::Kind::Skill, None)
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

fn location(view: &View, path: &Path, range: TextRange) -> Option<Location> {
    let text = text_of(view, path);
    let positions = TextPositions::new(text, view.encoding);
    Some(Location::new(path_to_uri(path)?, positions.range(range)))
}

/// Where a SKILL.md's name is written (its start when it has none).
fn name_entry_range(view: &View, skill: &SkillDoc) -> TextRange {
    written_skill_name(skill)
        .map(|(name, range)| name_span(text_of(view, &skill.path), range, name))
        .unwrap_or_default()
}

/// `skills:` entries → the SKILL.md of that name; tool names (a subagent's `tools:`, tools.json
/// `allow`/`deny`) → the MCP server in tools.json that provides them.
pub fn definition(view: &View, path: &Path, position: Position) -> Option<Vec<Location>> {
    let kind = kind_of(view, path)?;
    let text = text_of(view, path);
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
            let offset = TextPositions::new(text, view.encoding).offset(position);
            let (name, _) = skill_entry_at(view, path, offset)?;
            Some(skill_references(view, &name))
        }
        _ => None,
    }
}

#[allow(deprecated)]
fn symbol(
    name: String,
    kind: SymbolKind,
    range: Range,
    children: Vec<DocumentSymbol>,
) -> DocumentSymbol {
    DocumentSymbol {
        name,
        detail: None,
        kind,
        tags: None,
        deprecated: None,
        range,
        selection_range: range,
        children: (!children.is_empty()).then_some(children),
    }
}

/// Tables and keys of agentws.toml (what parses of it, when it has syntax errors).
fn config_symbols(text: &str, positions: &TextPositions) -> Vec<DocumentSymbol> {
    use toml::de::{DeTable, DeValue};
    let clamp = |span: std::ops::Range<usize>| {
        positions.range(TextRange::new(
            span.start.min(text.len()),
            span.end.min(text.len()),
        ))
    };
    let (table, _) = DeTable::parse_recoverable(text);
    table
        .get_ref()
        .iter()
        .map(|(key, value)| {
            let children = match value.get_ref() {
                DeValue::Table(inner) => inner
                    .iter()
                    .map(|(k, _)| {
                        symbol(
                            k.get_ref().to_string(),
                            SymbolKind::PROPERTY,
                            clamp(k.span()),
                            Vec::new(),
                        )
                    })
                    .collect(),
                _ => Vec::new(),
            };
            let kind = if children.is_empty() {
                SymbolKind::PROPERTY
            } else {
                SymbolKind::NAMESPACE
            };
            symbol(key.get_ref().to_string(), kind, clamp(key.span()), children)
        })
        .collect()
}

pub fn document_symbols(view: &View, path: &Path) -> Vec<DocumentSymbol> {
    let text = text_of(view, path);
    let positions = TextPositions::new(text, view.encoding);
    let mut out = Vec::new();
    if kind_of(view, path) == Some(FileKind::Config) {
        return config_symbols(text, &positions);
    }
    if kind_of(view, path) == Some(FileKind::ToolsJson) {
        for doc in view.workspace.tools.iter().filter(|t| t.path == path) {
            for server in &doc.servers {
                out.push(symbol(
                    server.name.value.clone(),
                    SymbolKind::MODULE,
                    positions.range(server.name.range),
                    Vec::new(),
                ));
            }
        }
        return out;
    }
    for entry in scan_frontmatter(text) {
        out.push(symbol(
            entry.key.clone(),
            SymbolKind::PROPERTY,
            positions.range(entry.key_range),
            Vec::new(),
        ));
    }
    let body_start = frontmatter_range(text)
        .map(|r| {
            text[r.end..]
                .find('\n')
                .map(|i| r.end + i + 1)
                .unwrap_or(text.len())
        })
        .unwrap_or(0);
    let mut offset = body_start;
    let mut in_fence = false;
    for line in text[body_start..].split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let content = line.trim_end_matches(['\n', '\r']);
        if content.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let level = content.chars().take_while(|c| *c == '#').count();
        if (1..=6).contains(&level) && content[level..].starts_with(' ') {
            out.push(symbol(
                content[level..].trim().to_string(),
                SymbolKind::STRING,
                positions.range(TextRange::new(start, start + content.len())),
                Vec::new(),
            ));
        }
    }
    out
}

pub fn workspace_symbols(view: &View, query: &str) -> Vec<WorkspaceSymbol> {
    let query = query.to_lowercase();
    let mut out = Vec::new();
    let mut push = |name: String, kind: SymbolKind, path: &Path, container: &str| {
        if !name.to_lowercase().contains(&query) {
            return;
        }
        if let Some(uri) = path_to_uri(path) {
            out.push(WorkspaceSymbol {
                name,
                kind,
                tags: None,
                container_name: Some(container.to_string()),
                location: OneOf::Right(WorkspaceLocation { uri }),
                data: None,
            });
        }
    };
    for skill in &view.workspace.skills {
        push(
            skill_name(skill).to_string(),
            SymbolKind::MODULE,
            &skill.path,
            "skill",
        );
    }
    for subagent in &view.workspace.subagents {
        push(
            subagent.id.clone(),
            SymbolKind::CLASS,
            &subagent.path,
            "subagent",
        );
    }
    for doc in &view.workspace.tools {
        for server in &doc.servers {
            push(
                server.name.value.clone(),
                SymbolKind::INTERFACE,
                &doc.path,
                "MCP server",
            );
        }
    }
    out
}

pub fn code_actions(view: &View, path: &Path, range: Range) -> Vec<CodeActionOrCommand> {
    let text = text_of(view, path);
    let positions = TextPositions::new(text, view.encoding);
    let wanted = positions.text_range(range);
    let files = &view.workspace.files;
    let mut out = Vec::new();
    let diagnostics = view.diagnostics_of(path);
    let action = |fix: &Fix, diagnostic: &Diagnostic, preferred: bool| {
        CodeActionOrCommand::CodeAction(CodeAction {
            title: fix.title.clone(),
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![diagnostic.clone()]),
            edit: Some(convert::workspace_edit(
                &fix.edits,
                |p| files.text(p),
                view.encoding,
            )),
            is_preferred: preferred.then_some(true),
            ..Default::default()
        })
    };
    for d in &diagnostics {
        let touches = d.range.start <= wanted.end && wanted.start <= d.range.end;
        if !touches {
            continue;
        }
        let lsp_diag = convert::diagnostic(d, Some(&positions), &view.rules_doc_url);
        for fix in &d.fixes {
            out.push(action(fix, &lsp_diag, d.fixes.len() == 1));
        }
        // Then "ignore it here / in this file / for this file in agentws.toml"; not for the
        // suppression comments' own problems.
        if !d.code.starts_with("IG") {
            for fix in ignore_fixes(&view.workspace.config, files, d) {
                out.push(action(&fix, &lsp_diag, false));
            }
        }
    }
    // "Add tool to allow": a subagent names a tool that tools.json's `allow` leaves out.
    if let Some(tools) = view
        .workspace
        .effective_tools()
        .filter(|t| !t.allow.is_empty())
    {
        let catalog = &view.catalog;
        for d in &diagnostics {
            let touches = d.range.start <= wanted.end && wanted.start <= d.range.end;
            if d.code != "XR002" || !touches || d.range.end > text.len() {
                continue;
            }
            let name = text[d.range.start..d.range.end].trim_matches(['"', '\'']);
            if catalog.lookup(name).removal != Some(Removal::NotAllowed) {
                continue;
            }
            let last = tools.allow.last().expect("allow is not empty");
            let edit = FileEdit {
                path: tools.path.clone(),
                range: TextRange::empty(last.range.end),
                new_text: format!(", {}", serde_json::to_string(name).unwrap_or_default()),
            };
            out.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: format!("Add `{name}` to tools.json `allow`"),
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![convert::diagnostic(
                    d,
                    Some(&positions),
                    &view.rules_doc_url,
                )]),
                edit: Some(convert::workspace_edit(
                    &[edit],
                    |p| files.text(p),
                    view.encoding,
                )),
                ..Default::default()
            }));
        }
    }
    if kind_of(view, path) == Some(FileKind::Skill) && frontmatter_range(text).is_none() {
        let dir = path
            .parent()
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let edit = FileEdit {
            path: path.to_path_buf(),
            range: TextRange::empty(0),
            new_text: format!(
                "---\nname: {dir}\ndescription: TODO describe when to use this skill\n---\n"
            ),
        };
        out.push(CodeActionOrCommand::CodeAction(CodeAction {
            title: "Create missing SKILL.md frontmatter".to_string(),
            kind: Some(CodeActionKind::QUICKFIX),
            edit: Some(convert::workspace_edit(
                &[edit],
                |p| files.text(p),
                view.encoding,
            )),
            ..Default::default()
        }));
    }
    out
}

/// The `name:` value range of a SKILL.md when the cursor is on it.
fn skill_name_at(view: &View, path: &Path, position: Position) -> Option<(String, TextRange)> {
    if kind_of(view, path)? != FileKind::Skill {
        return None;
    }
    let text = text_of(view, path);
    let offset = TextPositions::new(text, view.encoding).offset(position);
    let skill = view.workspace.skill(path)?;
    let (name, node) = written_skill_name(skill)?;
    let range = name_span(text, node, name);
    (range.start <= offset && offset <= range.end).then_some((name.to_string(), range))
}

pub fn prepare_rename(
    view: &View,
    path: &Path,
    position: Position,
) -> Option<PrepareRenameResponse> {
    let (name, range) = skill_name_at(view, path, position)?;
    let positions = TextPositions::new(text_of(view, path), view.encoding);
    Some(PrepareRenameResponse::RangeWithPlaceholder {
        range: positions.range(range),
        placeholder: name,
    })
}

/// Why `name` cannot be a skill's new name, if it cannot: it is written as the frontmatter
/// `name:` and, when `folder` is true, given to the skill's folder (`top_level`: a folder right
/// under `skills/`, where the runtime skips names starting with `_` or `.`).
fn skill_name_problem(name: &str, folder: bool, top_level: bool) -> Option<&'static str> {
    if java::is_blank(name) {
        Some("it is blank, and the runtime skips a skill without a name")
    } else if name.chars().any(char::is_control) {
        Some("it contains a NUL, a line break or another control character")
    } else if name.contains(['/', '\\']) {
        Some("it contains a path separator; the folder would move")
    } else if name == "." || name == ".." {
        Some("`.` and `..` name the folder itself or its parent, not a new folder")
    } else if name.contains(':') {
        Some("`:` cannot be in a folder name on Windows")
    } else if name.trim() != name {
        Some("it starts or ends with whitespace, which YAML drops from the name but the folder keeps")
    } else if name.len() > 255 {
        Some("it is longer than 255 bytes, the longest folder name")
    } else if folder && top_level && (name.starts_with('_') || name.starts_with('.')) {
        Some("the runtime skips folders under `skills/` whose name starts with `_` or `.`")
    } else {
        None
    }
}

/// What to write over `range` of `text` (a name's span as the parse gave it: a plain scalar, the
/// inside of quotes, or one name of a comma string) for the YAML to read `name` back:
/// `reads_back` parses the edited text as the runtime would (SnakeYAML's YAML 1.1 typing for a
/// SKILL.md, Jackson's for a subagent spec, as `syntax::yaml` models them). Tried in order: the
/// name as it is (a plain scalar the typing keeps a string, or quotes that hold it unchanged);
/// escaped for the double or single quotes around it; then double-quoted, for a plain scalar
/// that YAML would retype (`yes`, `123`, `null`, `2024-01-01`) or misparse (`a #b`, a leading
/// quote, `[`, `&`, `*`, `!`, `: `). `None` when no form reads back (a `,` inside a comma string).
fn yaml_form(
    text: &str,
    range: TextRange,
    name: &str,
    reads_back: impl Fn(&str) -> bool,
) -> Option<String> {
    let quoted = yaml::double_quoted(name);
    let candidates = [
        name.to_string(),
        quoted[1..quoted.len() - 1].to_string(),
        name.replace('\'', "''"),
        quoted,
    ];
    candidates.into_iter().find(|candidate| {
        let mut edited = String::with_capacity(text.len() + candidate.len());
        edited.push_str(&text[..range.start]);
        edited.push_str(candidate);
        edited.push_str(&text[range.end..]);
        reads_back(&edited)
    })
}

/// The edit that double-quotes the plain comma string of `subagent`'s `skills:` with every entry
/// named `old` in it renamed to `new`, and the indexes of those entries in `names` (the parsed
/// list with each entry's span); `None` when `skills:` is not a plain string.
fn quoted_comma_string(
    subagent: &SubagentDoc,
    text: &str,
    names: &[(String, TextRange)],
    old: &str,
    new: &str,
) -> Option<(FileEdit, Vec<usize>)> {
    let node = &subagent.metadata.iter().find(|e| e.key == "skills")?.value;
    let written = text.get(node.range.start..node.range.end)?;
    if node.value.as_str() != Some(written) {
        return None;
    }
    let mut value = String::new();
    let mut copied = node.range.start;
    let mut renamed = Vec::new();
    for (i, (name, range)) in names.iter().enumerate() {
        if name == old && node.range.start <= range.start && range.end <= node.range.end {
            value.push_str(&text[copied..range.start]);
            value.push_str(new);
            copied = range.end;
            renamed.push(i);
        }
    }
    value.push_str(&text[copied..node.range.end]);
    let edit = FileEdit {
        path: subagent.path.clone(),
        range: node.range,
        new_text: yaml::double_quoted(&value),
    };
    Some((edit, renamed))
}

/// Renames a skill: its `name:`, every subagent's `skills:` entry, and (when the folder carries
/// the same name) the folder, as one workspace edit.
pub fn rename(
    view: &View,
    path: &Path,
    position: Position,
    new_name: &str,
) -> Result<Option<WorkspaceEdit>> {
    let Some((old, range)) = skill_name_at(view, path, position) else {
        return Ok(None);
    };
    let dir = path
        .parent()
        .filter(|d| d.file_name().is_some_and(|n| n.to_string_lossy() == old));
    // The folder is renamed too: its parent is kept, so the name must be one folder name that
    // the runtime still loads from there.
    let top_level = dir
        .and_then(Path::parent)
        .and_then(Path::file_name)
        .is_some_and(|n| n == "skills");
    if let Some(problem) = skill_name_problem(new_name, dir.is_some(), top_level) {
        return Err(invalid_params(format!(
            "`{}` is not a usable skill name: {problem}",
            new_name.escape_debug()
        )));
    }
    let skill = view
        .workspace
        .skill(path)
        .ok_or_else(|| invalid_params("not a skill"))?;
    let reads_back = |edited: &str| {
        let content = FileContent::Text(Arc::from(edited));
        let doc =
            crate::workspace::skill::parse(path.to_path_buf(), skill.location.clone(), &content);
        // Read by the YAML parser as before, not by the runtime's line-parser fallback (which
        // would keep the name but warn, SK013).
        doc.name.as_deref() == Some(new_name)
            && doc.description == skill.description
            && doc.outcome.is_ok() == skill.outcome.is_ok()
            && doc.fallback == skill.fallback
            && doc.dropped_keys.len() == skill.dropped_keys.len()
    };
    let Some(written) = yaml_form(text_of(view, path), range, new_name, reads_back) else {
        return Err(invalid_params(format!(
            "`{}` cannot be written as the `name:` of `{}` and read back as that name",
            new_name.escape_debug(),
            path.display()
        )));
    };
    let mut edits = vec![FileEdit {
        path: path.to_path_buf(),
        range,
        new_text: written,
    }];
    for subagent in &view.workspace.subagents {
        let names = subagent_names(view, &subagent.path, ListKey::Skills);
        // A plain comma string rewritten whole (see below): its other entries are in that edit.
        let mut rewritten: Option<TextRange> = None;
        for (at, (item, item_range)) in names.iter().enumerate() {
            let item_range = *item_range;
            if rewritten
                .is_some_and(|node| node.start <= item_range.start && item_range.end <= node.end)
            {
                continue;
            }
            if *item == old {
                // A name the parse could not pin down (inside a quoted string with escapes that
                // holds more names) must not be replaced with the whole string around it.
                let written = text_of(view, &subagent.path).get(item_range.start..item_range.end);
                if written != Some(old.as_str()) {
                    return Err(invalid_params(format!(
                        "`{}` lists `{old}` inside a quoted string with escapes; rename that entry by hand",
                        subagent.path.display()
                    )));
                }
                // The list the runtime reads once the entries `renamed` are, and nothing else
                // of the spec changed.
                let reads_back = |edited: &str, renamed: &dyn Fn(usize) -> bool| {
                    let content = FileContent::Text(Arc::from(edited));
                    let doc = crate::workspace::subagent::parse(
                        subagent.path.clone(),
                        subagent.location.clone(),
                        &content,
                    );
                    doc.outcome.is_ok() == subagent.outcome.is_ok()
                        && doc.description == subagent.description
                        && doc.skills.len() == names.len()
                        && doc
                            .skills
                            .iter()
                            .zip(&names)
                            .enumerate()
                            .all(|(i, (now, was))| {
                                now.value == if renamed(i) { new_name } else { was.0.as_str() }
                            })
                };
                let text = text_of(view, &subagent.path);
                let this_entry = |edited: &str| reads_back(edited, &|i| i == at);
                if let Some(written) = yaml_form(text, item_range, new_name, this_entry) {
                    edits.push(FileEdit {
                        path: subagent.path.clone(),
                        range: item_range,
                        new_text: written,
                    });
                    continue;
                }
                // One entry of a plain comma string (`skills: pdf, docs`) that must be quoted
                // (`a #b` would start a comment): the whole string is double-quoted, with every
                // entry of the old name in it renamed.
                let whole = quoted_comma_string(subagent, text, &names, &old, new_name);
                if let Some((edit, _)) = whole.filter(|(edit, inside)| {
                    let mut edited = text.to_string();
                    edited.replace_range(edit.range.start..edit.range.end, &edit.new_text);
                    reads_back(&edited, &|i| inside.contains(&i))
                }) {
                    rewritten = Some(edit.range);
                    edits.push(edit);
                    continue;
                }
                return Err(invalid_params(format!(
                    "`{}` cannot be written in the `skills:` of `{}` and read back as one name; \
                     rename that entry by hand",
                    new_name.escape_debug(),
                    subagent.path.display()
                )));
            }
        }
    }
    let mut by_file: HashMap<PathBuf, Vec<TextEdit>> = HashMap::new();
    for edit in &edits {
        let positions = TextPositions::new(text_of(view, &edit.path), view.encoding);
        by_file
            .entry(edit.path.clone())
            .or_default()
            .push(TextEdit {
                range: positions.range(edit.range),
                new_text: edit.new_text.clone(),
            });
    }
    let mut operations = Vec::new();
    let mut paths: Vec<&PathBuf> = by_file.keys().collect();
    paths.sort();
    for file in paths {
        let Some(uri) = path_to_uri(file) else {
            continue;
        };
        let version = view.workspace.files.get(file).and_then(|e| e.version);
        operations.push(DocumentChangeOperation::Edit(TextDocumentEdit {
            text_document: OptionalVersionedTextDocumentIdentifier { uri, version },
            edits: by_file[file].iter().cloned().map(OneOf::Left).collect(),
        }));
    }
    if let Some(dir) = dir {
        let target = dir.with_file_name(new_name);
        if target.parent() != dir.parent() {
            return Err(invalid_params(format!(
                "renaming the skill folder to `{}` would move it out of `{}`",
                new_name.escape_debug(),
                dir.parent().unwrap_or(dir).display()
            )));
        }
        if let (Some(old_uri), Some(new_uri)) = (path_to_uri(dir), path_to_uri(&target)) {
            operations.push(DocumentChangeOperation::Op(ResourceOp::Rename(
                RenameFile {
                    old_uri,
                    new_uri,
                    options: None,
                    annotation_id: None,
                },
            )));
        }
    }
    Ok(Some(WorkspaceEdit {
        document_changes: Some(DocumentChanges::Operations(operations)),
        ..Default::default()
    }))
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

    #[test]
    fn skill_names_follow_the_folder_rules_only_where_a_folder_moves() {
        for ok in ["pdf-tools", "\u{7B14}\u{8BB0}", "a.b", "v2_x"] {
            assert_eq!(skill_name_problem(ok, true, true), None, "{ok}");
        }
        // `_` and `.` prefixes hide a folder right under skills/ only.
        assert!(skill_name_problem("_drafts", true, true).is_some());
        assert_eq!(skill_name_problem("_drafts", true, false), None);
        assert_eq!(skill_name_problem("_drafts", false, true), None);
        for bad in ["..", ".", "a/b", "a\\b", "a\u{0}", "\t", "a:b", "x "] {
            assert!(skill_name_problem(bad, false, false).is_some(), "{bad:?}");
        }
    }

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

    #[test]
    fn scans_top_level_keys_of_a_half_typed_frontmatter() {
        let text =
            "---\nname: \"pdf\"\nskills:\n  - alpha\n# note\n- x\ntools: [a\nmod\n---\nbody\n";
        let entries = scan_frontmatter(text);
        let keys: Vec<(&str, &str)> = entries
            .iter()
            .map(|e| (e.key.as_str(), &text[e.key_range.start..e.key_range.end]))
            .collect();
        assert_eq!(
            keys,
            vec![("name", "name"), ("skills", "skills"), ("tools", "tools")]
        );
    }
}
