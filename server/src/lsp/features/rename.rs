//! Rename of a skill: its `name:`, every subagent's `skills:` entry, and (when the folder carries
//! the same name) the folder, as one workspace edit; each name written so that the YAML reads it
//! back as that name.
//!
//! Depends on `names`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use super::names::{kind_of, name_span, subagent_names, text_of, written_skill_name, ListKey};
use crate::base::{FileContent, FileEdit, TextRange};
use crate::lsp::backend::View;
use crate::lsp::convert::{path_to_uri, TextPositions};
use crate::lsp::errors::invalid_params;
use crate::syntax::{java, yaml};
use crate::workspace::subagent::SubagentDoc;
use crate::workspace::FileKind;

/// The `name:` value range of a SKILL.md when the cursor is on it.
fn skill_name_at(view: &View, path: &Path, position: Position) -> Option<(String, TextRange)> {
    if kind_of(view, path)? != FileKind::Skill {
        return None;
    }
    let text = text_of(view, path);
    let text: &str = &text;
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
    let text = text_of(view, path);
    let positions = TextPositions::new(&text, view.encoding);
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
    let Some(written) = yaml_form(&text_of(view, path), range, new_name, reads_back) else {
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
    subagent_edits(view, &old, new_name, &mut edits)?;
    let operations = document_changes(view, &edits, dir, new_name)?;
    Ok(Some(WorkspaceEdit {
        document_changes: Some(DocumentChanges::Operations(operations)),
        ..Default::default()
    }))
}

/// The edits of every subagent's `skills:` entries named `old`, each written so that the YAML
/// reads `new_name` back in its place and nothing else of the spec changes.
fn subagent_edits(view: &View, old: &str, new_name: &str, edits: &mut Vec<FileEdit>) -> Result<()> {
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
                let text = text_of(view, &subagent.path);
                let written = text.get(item_range.start..item_range.end);
                if written != Some(old) {
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
                let text: &str = &text;
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
                let whole = quoted_comma_string(subagent, text, &names, old, new_name);
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
    Ok(())
}

/// `edits` as one text edit per file (at the version the editor holds), then the folder's rename
/// when `dir` (the skill's folder, named after it) is renamed too.
fn document_changes(
    view: &View,
    edits: &[FileEdit],
    dir: Option<&Path>,
    new_name: &str,
) -> Result<Vec<DocumentChangeOperation>> {
    let mut by_file: HashMap<PathBuf, Vec<TextEdit>> = HashMap::new();
    for edit in edits {
        let text = text_of(view, &edit.path);
        let positions = TextPositions::new(&text, view.encoding);
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
    Ok(operations)
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
