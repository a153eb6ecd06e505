//! The keys a file kind knows (from the tables the parsers and loaders use), and a small line
//! scanner for what a half-typed buffer needs: which top-level frontmatter key a line holds, while
//! the YAML does not parse yet.
//!
//! Depends on no other feature file.

use crate::base::TextRange;
use crate::config::schema as config_schema;
use crate::workspace::keys;
use crate::workspace::{tools_schema, FileKind};

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

/// Keys a file kind's editor features know, with their documentation, from the tables the
/// parsers and loaders use.
pub(super) fn keys_for(kind: FileKind) -> Vec<(&'static str, &'static str)> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
