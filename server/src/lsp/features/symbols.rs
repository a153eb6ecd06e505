//! Document symbols (frontmatter keys and headings, agentws.toml tables and keys, tools.json
//! servers) and workspace symbols (skills, subagents, MCP servers).
//!
//! Depends on `keys` and `names`.

use std::path::Path;

use tower_lsp_server::ls_types::*;

use super::keys::{frontmatter_range, scan_frontmatter};
use super::names::{kind_of, skill_name, text_of};
use crate::base::TextRange;
use crate::lsp::backend::View;
use crate::lsp::convert::{path_to_uri, TextPositions};
use crate::workspace::FileKind;

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
    let text: &str = &text;
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
