//! Code actions: the fixes of the diagnostics under the range, "ignore it here", "add the tool
//! to tools.json `allow`", "create the missing SKILL.md frontmatter".
//!
//! Depends on `keys` and `names`.

use std::path::Path;
use std::sync::Arc;

use tower_lsp_server::ls_types::*;

use super::keys::frontmatter_range;
use super::names::{kind_of, text_of};
use crate::base::{FileContent, FileEdit, Fix, TextRange};
use crate::check::settle::actions::ignore_fixes;
use crate::lsp::backend::View;
use crate::lsp::convert::{self, TextPositions};
use crate::workspace::catalog::Removal;
use crate::workspace::FileKind;

pub fn code_actions(view: &View, path: &Path, range: Range) -> Vec<CodeActionOrCommand> {
    let text = text_of(view, path);
    let text: &str = &text;
    let positions = TextPositions::new(text, view.encoding);
    let wanted = positions.text_range(range);
    // The ignore fixes read the file's text from a file set: a closed source's, read again, is
    // put in a copy (a closed file's code actions are rare; an open buffer's text is held).
    let mut files = view.workspace.files.clone();
    if let Some(read) = view.texts.text(path) {
        if files.text(path) != Some(&*read) {
            let version = files.get(path).and_then(|e| e.version);
            Arc::make_mut(&mut files).insert(path.to_path_buf(), FileContent::Text(read), version);
        }
    }
    let files = &files;
    let mut out = Vec::new();
    let diagnostics = view.diagnostics_of(path);
    let action = |fix: &Fix, diagnostic: &Diagnostic, preferred: bool| {
        CodeActionOrCommand::CodeAction(CodeAction {
            title: fix.title.clone(),
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![diagnostic.clone()]),
            edit: Some(convert::workspace_edit(
                &fix.edits,
                |p| view.texts.text(p),
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
                    |p| view.texts.text(p),
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
                |p| view.texts.text(p),
                view.encoding,
            )),
            ..Default::default()
        }));
    }
    out
}
