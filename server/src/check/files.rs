//! Whole-workspace and per-file content rules (`WS…`, harness-spec §9.1): a missing workspace or
//! AGENTS.md, files that are not UTF-8, too large, unreadable or not regular files, blank injected
//! files, additional context files that escape, contain `..`, are binary or missing, and files in
//! the project folder that the overlay silently falls back to.
//!
//! Pure over the snapshot: existence questions are answered by the file set.

use std::path::{Component, Path, PathBuf};

use crate::base::{Diagnostic, FileContent, TextRange};
use crate::config::Scope;
use crate::rules::workspace::*;
use crate::syntax::java;
use crate::workspace::layers::BINARY_EXTENSIONS;
use crate::workspace::layout::normalize_relative;
use crate::workspace::snapshot::WorkspaceFile;
use crate::workspace::{FileKind, Tree, Workspace};

/// Every `WS…` diagnostic of the workspace.
pub fn check(workspace: &Workspace) -> Vec<Diagnostic> {
    let mut out = check_workspace_level(workspace);
    for file in workspace.workspace_files() {
        out.extend(check_file(workspace, file));
    }
    out
}

/// Content rules for one file (unreadable, not a regular file, not UTF-8, too large, blank
/// injected file).
pub fn check_file(workspace: &Workspace, file: WorkspaceFile) -> Vec<Diagnostic> {
    let WorkspaceFile {
        path,
        location,
        kind,
        entry,
    } = file;
    let start = TextRange::empty(0);
    let mut out = Vec::new();
    match &entry.content {
        FileContent::NotUtf8 {
            valid_up_to,
            binary,
        } => {
            let message = if *binary {
                format!("`{}` is a binary file, not text", file_name(path))
            } else {
                format!(
                    "`{}` is not valid UTF-8 (first invalid byte at offset {valid_up_to})",
                    file_name(path)
                )
            };
            out.push(WS004.at(path, start, message));
        }
        FileContent::TooLarge { size } => out.push(WS005.at(
            path,
            start,
            format!(
                "`{}` is {size} bytes; agentws checks files up to 16 MiB",
                file_name(path)
            ),
        )),
        FileContent::Unreadable { error } => out.push(WS007.at(
            path,
            start,
            format!("`{}` cannot be read: {error}", file_name(path)),
        )),
        FileContent::NotRegular { kind } => out.push(WS014.at(
            path,
            start,
            format!("`{}` is {kind}, not a regular file", file_name(path)),
        )),
        FileContent::Text(text) if java::is_blank(text) && is_injected(kind) => {
            let first_level = match &location.tree {
                Tree::Namespace(_) | Tree::Project => true,
                // With an empty namespace the shared copy is the filesystem's own first level;
                // otherwise it is only reached by the direct disk read, where blank reads as "".
                Tree::Shared => matches!(workspace.config.scope, Scope::Agent | Scope::Global),
            };
            let range = TextRange::new(0, text.len());
            if first_level {
                out.push(WS003.at(
                    path,
                    range,
                    format!("`{}` in {} is blank", location.rel, location.tree.label()),
                ));
            } else {
                out.push(
                    WS003
                        .at(path, range, format!("`{}` in {} is blank", location.rel, location.tree.label()))
                        .with_consequence(
                            "For calls with a per-user or per-session folder the runtime reads it as empty \
                             (nothing injected); with scope agent or global it injects `System reminder: \
                             File exists but has empty contents`.",
                        ),
                );
            }
        }
        _ => {}
    }
    out
}

fn is_injected(kind: FileKind) -> bool {
    matches!(
        kind,
        FileKind::AgentsMd
            | FileKind::MemoryMd
            | FileKind::KnowledgeIndex
            | FileKind::AdditionalContext
    )
}

/// Rules about the workspace as a whole: missing folders and files, additional context files,
/// project-folder fallbacks.
pub fn check_workspace_level(workspace: &Workspace) -> Vec<Diagnostic> {
    let config = &workspace.config;
    let files = &workspace.files;
    let mut out = Vec::new();
    let anchor = anchor_file(workspace);

    if !files.contains_dir(&config.workspace) {
        out.push(WS001.at(
            &anchor.0,
            anchor.1,
            format!(
                "workspace folder `{}` does not exist",
                config.workspace.display()
            ),
        ));
        return out;
    }

    let has_agents = [Tree::Shared, Tree::Project]
        .iter()
        .any(|tree| files.contains_file(&workspace.path_in(tree, "AGENTS.md")));
    if !has_agents {
        out.push(WS002.at(
            &anchor.0,
            anchor.1,
            format!(
                "no AGENTS.md in `{}` or the project folder",
                config.workspace.display()
            ),
        ));
    }

    for configured in &config.agent.additional_context_files {
        out.extend(check_additional_file(workspace, configured, &anchor));
    }

    if config.project != config.workspace {
        for rel in ["AGENTS.md", "MEMORY.md", "tools.json"] {
            let path = workspace.path_in(&Tree::Project, rel);
            if files.contains_file(&path) {
                out.push(WS013.at(
                    &path,
                    TextRange::empty(0),
                    format!(
                        "`{rel}` in the project folder `{}` is the overlay's lower layer",
                        config.project.display()
                    ),
                ));
            }
        }
        for dir in ["skills", "subagents", "knowledge"] {
            let folder = workspace.path_in(&Tree::Project, dir);
            let first = files
                .files_under(&folder)
                .find(|(p, _)| workspace.kind_of(p).is_some() && !p.starts_with(&config.workspace));
            if let Some((path, _)) = first {
                out.push(WS013.at(
                    path,
                    TextRange::empty(0),
                    format!(
                        "the project folder has a `{dir}/` folder; the runtime reads it as the overlay's lower layer"
                    ),
                ));
            }
        }
    }
    out
}

/// Where whole-workspace diagnostics are reported: `agentws.toml` when there is one, else the
/// workspace folder itself.
fn anchor_file(workspace: &Workspace) -> (PathBuf, TextRange) {
    match &workspace.config.file {
        Some(file) => (file.clone(), TextRange::empty(0)),
        None => (workspace.config.workspace.clone(), TextRange::empty(0)),
    }
}

fn check_additional_file(
    workspace: &Workspace,
    configured: &str,
    anchor: &(PathBuf, TextRange),
) -> Vec<Diagnostic> {
    let config = &workspace.config;
    let (path, range) = match (&config.file, config_entry_range(workspace, configured)) {
        (Some(file), Some(range)) => (file.clone(), range),
        _ => anchor.clone(),
    };
    let rel = normalize_relative(configured);
    let mut out = Vec::new();
    if escapes(&rel) {
        out.push(WS008.at(
            &path,
            range,
            format!("additional context file `{configured}` resolves outside the workspace"),
        ));
        return out;
    }
    if rel.split('/').any(|s| s == "..") {
        out.push(WS009.at(
            &path,
            range,
            format!("additional context file `{configured}` contains a `..` segment"),
        ));
        return out;
    }
    let extension = rel.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    if extension.is_some_and(|e| BINARY_EXTENSIONS.contains(&e.as_str())) {
        out.push(WS010.at(
            &path,
            range,
            format!("additional context file `{configured}` has a binary extension"),
        ));
    }
    let mut trees = vec![Tree::Shared, Tree::Project];
    trees.extend(workspace.namespaces.iter().cloned().map(Tree::Namespace));
    let exists = trees.iter().any(|tree| {
        workspace
            .files
            .contains_file(&workspace.path_in(tree, &rel))
    });
    if !exists {
        out.push(WS011.at(
            &path,
            range,
            format!("additional context file `{configured}` exists in no workspace folder"),
        ));
    }
    out
}

/// True when `<ws>/<rel>`, normalized lexically, leaves the workspace.
fn escapes(rel: &str) -> bool {
    let mut depth: i64 = 0;
    for component in Path::new(rel).components() {
        match component {
            Component::ParentDir => depth -= 1,
            Component::Normal(_) => depth += 1,
            _ => {}
        }
        if depth < 0 {
            return true;
        }
    }
    false
}

/// Range of the quoted `configured` string inside agentws.toml, if it can be found.
fn config_entry_range(workspace: &Workspace, configured: &str) -> Option<TextRange> {
    let file = workspace.config.file.as_ref()?;
    let text = workspace.files.text(file)?;
    let list_start = text.find("additional_context_files")?;
    for quote in ['"', '\''] {
        let needle = format!("{quote}{configured}{quote}");
        if let Some(at) = text[list_start..].find(&needle) {
            let start = list_start + at;
            return Some(TextRange::new(start, start + needle.len()));
        }
    }
    None
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_detection_is_lexical() {
        assert!(escapes("../x.md"));
        assert!(escapes("a/../../x.md"));
        assert!(!escapes("a/../x.md"));
        assert!(!escapes("some..dir/x.md"));
    }
}

#[cfg(test)]
mod workspace_tests {
    use std::path::Path;

    use crate::config::Config;
    use crate::workspace::Workspace;

    fn codes(ws: &Workspace) -> Vec<(String, &'static str)> {
        super::check(ws)
            .into_iter()
            .map(|d| (d.path.to_string_lossy().into_owned(), d.code))
            .collect()
    }

    #[test]
    fn missing_agents_md_and_blank_files() {
        let mut config = Config::defaults_for(Path::new("/p"));
        config.agent.additional_context_files = vec![
            "SOUL.md".into(),
            "../out.md".into(),
            "a/../b.md".into(),
            "pic.png".into(),
        ];
        let ws = Workspace::from_texts(
            config,
            [
                ("/p/.agentscope/workspace/MEMORY.md", " \n"),
                ("/p/.agentscope/workspace/alice/AGENTS.md", "\t"),
                ("/p/.agentscope/workspace/pic.png", "x"),
            ],
        );
        let found = codes(&ws);
        assert_eq!(
            found,
            vec![
                ("/p/.agentscope/workspace".to_string(), "WS002"),
                ("/p/.agentscope/workspace".to_string(), "WS011"),
                ("/p/.agentscope/workspace".to_string(), "WS008"),
                ("/p/.agentscope/workspace".to_string(), "WS009"),
                ("/p/.agentscope/workspace".to_string(), "WS010"),
                ("/p/.agentscope/workspace/MEMORY.md".to_string(), "WS003"),
                (
                    "/p/.agentscope/workspace/alice/AGENTS.md".to_string(),
                    "WS003"
                ),
            ]
        );
        let shared_blank = super::check(&ws)
            .into_iter()
            .find(|d| d.path.ends_with("workspace/MEMORY.md"))
            .unwrap();
        assert!(shared_blank.consequence.contains("reads it as empty"));
    }

    #[test]
    fn missing_workspace_stops_further_checks() {
        let config = Config::defaults_for(Path::new("/p"));
        let ws = Workspace::build(
            std::sync::Arc::new(config),
            Vec::new(),
            Default::default(),
            Default::default(),
            None,
        );
        assert_eq!(
            codes(&ws),
            vec![("/p/.agentscope/workspace".to_string(), "WS001")]
        );
    }
}
