//! Whole-workspace and per-file content rules (`WS…`, harness-spec §9.1): a missing workspace or
//! AGENTS.md, files that are not UTF-8, too large, unreadable or not regular files, blank injected
//! files, additional context files that escape, contain `..`, are binary or missing, files in the
//! project folder that the overlay silently falls back to, and spec files the scans miss because
//! of letter case (`SA026`, `SK030`).
//!
//! Pure over the snapshot: existence questions are answered by the file set.

use std::path::{Component, Path, PathBuf};

use crate::base::{Diagnostic, FileContent, FileSet, TextRange};
use crate::config::{Config, FilesystemMode, Scope};
use crate::rules::config::CF012;
use crate::rules::skill::SK030;
use crate::rules::subagent::SA026;
use crate::rules::workspace::*;
use crate::syntax::java;
use crate::workspace::layers::BINARY_EXTENSIONS;
use crate::workspace::layout::normalize_relative;
use crate::workspace::snapshot::{placed, WorkspaceFile};
use crate::workspace::{FileKind, Tree, Workspace};

/// Every `WS…` diagnostic of the workspace.
pub fn check(workspace: &Workspace) -> Vec<Diagnostic> {
    let mut out = check_workspace_level(workspace, &misspelt_files(&workspace.files));
    for file in workspace.workspace_files() {
        out.extend(check_file(workspace, file));
    }
    out
}

/// Content rules for one file (unreadable, not a regular file, not UTF-8, too large, blank
/// injected file).
pub fn check_file(workspace: &Workspace, file: WorkspaceFile) -> Vec<Diagnostic> {
    let mut out = content_problems(file.path, &file.entry.content);
    if let FileContent::Text(text) = &file.entry.content {
        if is_injected(file.kind) && java::is_blank(text) {
            out.extend(blank_injected_file(
                workspace,
                file.path,
                file.location,
                text,
            ));
        }
    }
    out
}

/// The content rules that need nothing but the file itself: not UTF-8, too large, unreadable, not
/// a regular file. Only a file the prompt injects needs the workspace (`check_file`), so a skill's
/// or subagent's content verdict never depends on another file.
pub fn content_problems(path: &Path, content: &FileContent) -> Vec<Diagnostic> {
    let start = TextRange::empty(0);
    let mut out = Vec::new();
    match content {
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
        _ => {}
    }
    out
}

/// WS003, written from what the contexts that read this copy make of it (the layer table the
/// preview reads with): the filesystem's reminder, the sandbox's white space, or nothing at all
/// when only the direct disk read reaches it.
fn blank_injected_file(
    workspace: &Workspace,
    path: &Path,
    location: &crate::workspace::layout::Location,
    text: &str,
) -> Option<Diagnostic> {
    use crate::workspace::layers::{blank_read, BlankRead};
    use crate::workspace::resolution::{check_contexts, Who};
    let contexts = check_contexts(workspace);
    let reading = match &location.tree {
        Tree::Namespace(ns) => contexts
            .iter()
            .find(|(who, _)| matches!(who, Who::Folder(folder) if folder == ns)),
        Tree::Shared | Tree::Project => contexts.first(),
    };
    let (who, root) = reading?;
    let read = blank_read(workspace, root, &location.rel, path, text.is_empty());
    let for_whom = super::loading::who_label(workspace, who);
    let message = format!("`{}` in {} is blank", location.rel, location.tree.label());
    let diagnostic = WS003.at(path, TextRange::new(0, text.len()), message);
    match read {
        BlankRead::NotRead => None,
        BlankRead::Reminder => Some(diagnostic),
        BlankRead::WhiteSpace => Some(diagnostic.with_consequence(format!(
            "For {for_whom} the sandbox's read returns the white space itself (only a zero-byte file \
             gets the `System reminder: File exists but has empty contents` text): the prompt holds \
             blank text in its place."
        ))),
        BlankRead::Empty => Some(diagnostic.with_consequence(format!(
            "For {for_whom} only the runtime's direct disk read reaches this copy, which reads a blank \
             file as empty: nothing is injected in its place."
        ))),
    }
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
///
/// `misspelt` is [`misspelt_files`] of the workspace's files, or of any set holding those (the
/// engine's frame: no misspelt file is a source), so that a created source asks it nothing.
pub fn check_workspace_level(workspace: &Workspace, misspelt: &[PathBuf]) -> Vec<Diagnostic> {
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

    out.extend(misnamed_files(workspace, misspelt));

    // Only the local filesystem has the project folder as its overlay's lower layer; the sandbox
    // and remote filesystems never read it (their project files are SK026/SA022 or unused).
    if config.project != config.workspace && config.filesystem.mode == FilesystemMode::Local {
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
            // Placed by path, not looked up: the engine runs these rules with the kinds of the
            // files that are not skills or subagent specs only.
            let first = files
                .files_under(&folder)
                .find(|(p, _)| placed(config, p).is_some() && !p.starts_with(&config.workspace));
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

/// The files whose names only a scan that ignores letter case would take: a name ending in `.md`
/// in another case, or spelling `SKILL.md` in another case. Every other file is passed over
/// before it is located ([`misnamed_files`]).
pub fn misspelt_files(files: &FileSet) -> Vec<PathBuf> {
    let misspelt = |name: &str| {
        (ends_in_md_in_any_case(name) && !name.ends_with(".md"))
            || (name.eq_ignore_ascii_case("SKILL.md") && name != "SKILL.md")
    };
    files
        .iter()
        .map(|(path, _)| path)
        .filter(|path| {
            path.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(misspelt)
        })
        .cloned()
        .collect()
}

fn ends_in_md_in_any_case(name: &str) -> bool {
    name.len() > 3
        && name.is_char_boundary(name.len() - 3)
        && name[name.len() - 3..].eq_ignore_ascii_case(".md")
}

/// Files the runtime's scans miss because of letter case: a subagent spec ending in `.MD` (SA026)
/// and a skill folder whose only SKILL.md is `skill.md` or `Skill.md` (SK030), among `misspelt`
/// ([`misspelt_files`]). Both scans compare names case-sensitively.
pub fn misnamed_files(workspace: &Workspace, misspelt: &[PathBuf]) -> Vec<Diagnostic> {
    let config = &workspace.config;
    let mut out = Vec::new();
    for path in misspelt {
        let Some(location) = crate::workspace::layout::locate(config, path) else {
            continue;
        };
        let parts: Vec<&str> = location.rel.split('/').collect();
        let (Some(first), Some(name)) = (parts.first(), parts.last()) else {
            continue;
        };
        let start = TextRange::empty(0);
        if *first == "subagents" && parts.len() >= 2 {
            if ends_in_md_in_any_case(name) && !name.ends_with(".md") {
                let fixed = format!("{}.md", &name[..name.len() - 3]);
                out.push(SA026.at(
                    path,
                    start,
                    format!(
                        "`{}` ends in `{}`, not `.md`: both subagent scans match `.md` case-sensitively, so the runtime ignores this file (rename it to `{fixed}`)",
                        location.rel,
                        &name[name.len() - 3..]
                    ),
                ));
            }
        } else if *first == "skills"
            && parts.len() >= 3
            && name.eq_ignore_ascii_case("SKILL.md")
            && *name != "SKILL.md"
        {
            // Only a folder that is no skill's own subfolder: `skills/pdf/references/skill.md`
            // belongs to the `pdf` skill.
            let folder = &parts[..parts.len() - 1];
            let in_a_skill = (2..=folder.len()).any(|n| {
                let mut rel = folder[..n].join("/");
                rel.push_str("/SKILL.md");
                workspace
                    .files
                    .contains_file(&workspace.path_in(&location.tree, &rel))
            });
            if !in_a_skill {
                out.push(SK030.at(
                    path,
                    start,
                    format!(
                        "`{}` is not `SKILL.md`: every skill scan looks for `SKILL.md` exactly, so the runtime skips the folder `{}` (rename the file to `SKILL.md`)",
                        location.rel,
                        folder.join("/")
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
    if let Some(problem) = namespace_takeover(config, configured) {
        out.push(CF012.at(&path, range, problem));
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

/// CF012: in a namespaced scope, the first folder of `configured` is a name a user or session id
/// may take, which makes that id's namespace folder hold the shared file.
fn namespace_takeover(config: &Config, configured: &str) -> Option<String> {
    if !matches!(config.scope, Scope::User | Scope::Session) {
        return None;
    }
    let (folder, true) = crate::context::context_file_first_segment(configured)? else {
        return None;
    };
    if crate::context::id_shape_problem(folder).is_some() {
        return None;
    }
    let who = match config.scope {
        Scope::Session => "session id",
        _ => "user or session id",
    };
    let inside = &configured[configured.find(folder).unwrap_or(0) + folder.len()..];
    let inside = inside.trim_start_matches(['/', '\\']);
    Some(format!(
        "additional context file `{configured}` lies in `{folder}/`, the namespace folder of the \
         {who} `{folder}`: its file tools write `{inside}` there, the file every other user's \
         prompt reads"
    ))
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

    use crate::config::{Config, Scope};
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
        assert_eq!(
            shared_blank.consequence,
            "For any user (scope `user`) only the runtime's direct disk read reaches this copy, which \
             reads a blank file as empty: nothing is injected in its place."
        );
    }

    /// WS003 says what the contexts that read the copy make of it: the reminder where the
    /// filesystem reads it, the white space itself in a sandbox, nothing where only the disk
    /// fallback reaches it; a copy no context reads is not reported.
    #[test]
    fn blank_files_are_reported_as_the_configured_filesystem_reads_them() {
        use crate::config::FilesystemMode;
        let consequences = |scope: Scope, mode: FilesystemMode| {
            let mut config = Config::defaults_for(Path::new("/p"));
            config.scope = scope;
            config.filesystem.mode = mode;
            let ws = Workspace::from_texts(
                config,
                [
                    ("/p/.agentscope/workspace/AGENTS.md", " \n"),
                    ("/p/.agentscope/workspace/MEMORY.md", ""),
                    ("/p/.agentscope/workspace/alice/MEMORY.md", "\t"),
                ],
            );
            super::check(&ws)
                .into_iter()
                .filter(|d| d.code == "WS003")
                .map(|d| {
                    let rel = d.path.strip_prefix("/p/.agentscope/workspace").unwrap();
                    (rel.to_string_lossy().into_owned(), d.consequence)
                })
                .collect::<Vec<_>>()
        };
        let reminder = crate::rules::workspace::WS003.consequence.to_string();
        assert_eq!(
            consequences(Scope::Agent, FilesystemMode::Local),
            vec![
                ("AGENTS.md".to_string(), reminder.clone()),
                ("MEMORY.md".to_string(), reminder.clone()),
            ]
        );
        assert_eq!(
            consequences(Scope::User, FilesystemMode::Local)[2],
            ("alice/MEMORY.md".to_string(), reminder.clone())
        );
        // The sandbox projects AGENTS.md (its `sed` keeps white space) but not MEMORY.md, which
        // only the disk fallback reads; per-user folders are not read in a sandbox.
        assert_eq!(
            consequences(Scope::User, FilesystemMode::Sandbox),
            vec![
                (
                    "AGENTS.md".to_string(),
                    "For any user (scope `user`) the sandbox's read returns the white space itself \
                     (only a zero-byte file gets the `System reminder: File exists but has empty \
                     contents` text): the prompt holds blank text in its place."
                        .to_string()
                ),
                (
                    "MEMORY.md".to_string(),
                    "For any user (scope `user`) only the runtime's direct disk read reaches this \
                     copy, which reads a blank file as empty: nothing is injected in its place."
                        .to_string()
                ),
            ]
        );
    }

    #[test]
    fn context_files_in_folders_an_id_can_take_are_flagged() {
        let mut config = Config::defaults_for(Path::new("/p"));
        config.agent.additional_context_files = vec![
            "docs/Guide.md".into(),
            "SOUL.md".into(),
            "knowledge/extra.md".into(),
            ".team/x.md".into(),
            "Skills/y.md".into(),
            "./team\\a.md".into(),
        ];
        let files = [
            ("/p/.agentscope/workspace/AGENTS.md", "a"),
            ("/p/.agentscope/workspace/docs/Guide.md", "g"),
            ("/p/.agentscope/workspace/SOUL.md", "s"),
            ("/p/.agentscope/workspace/knowledge/extra.md", "k"),
            ("/p/.agentscope/workspace/.team/x.md", "t"),
            ("/p/.agentscope/workspace/Skills/y.md", "y"),
            ("/p/.agentscope/workspace/team/a.md", "a"),
        ];
        let ws = Workspace::from_texts(config.clone(), files);
        let flagged: Vec<String> = super::check(&ws)
            .into_iter()
            .filter(|d| d.code == "CF012")
            .map(|d| d.message)
            .collect();
        assert_eq!(
            flagged,
            vec![
                "additional context file `docs/Guide.md` lies in `docs/`, the namespace folder of \
                 the user or session id `docs`: its file tools write `Guide.md` there, the file \
                 every other user's prompt reads",
                "additional context file `./team\\a.md` lies in `team/`, the namespace folder of \
                 the user or session id `team`: its file tools write `a.md` there, the file every \
                 other user's prompt reads",
            ]
        );
        // Agent and global scopes have no namespace folders.
        config.scope = crate::config::Scope::Agent;
        let ws = Workspace::from_texts(config, files);
        assert!(!super::check(&ws).iter().any(|d| d.code == "CF012"));
    }

    #[test]
    fn files_the_scans_miss_by_letter_case() {
        let ws = Workspace::from_texts(
            Config::defaults_for(Path::new("/p")),
            [
                ("/p/.agentscope/workspace/AGENTS.md", "a"),
                (
                    "/p/.agentscope/workspace/subagents/writer.MD",
                    "---\ndescription: d\n---\n",
                ),
                (
                    "/p/.agentscope/workspace/subagents/ok.md",
                    "---\ndescription: d\n---\n",
                ),
                ("/p/.agentscope/workspace/alice/subagents/deep/r.Md", "x"),
                (
                    "/p/.agentscope/workspace/skills/pdf/skill.md",
                    "---\nname: pdf\n---\n",
                ),
                // A skill's own file of that name is not a skill folder.
                (
                    "/p/.agentscope/workspace/skills/ok/SKILL.md",
                    "---\nname: ok\ndescription: d\n---\nb\n",
                ),
                (
                    "/p/.agentscope/workspace/skills/ok/references/skill.md",
                    "notes",
                ),
                ("/p/skills/lower/Skill.md", "x"),
            ],
        );
        let misspelt = super::misspelt_files(&ws.files);
        let found: Vec<(String, &str, String)> = super::misnamed_files(&ws, &misspelt)
            .into_iter()
            .map(|d| (d.path.to_string_lossy().into_owned(), d.code, d.message))
            .collect();
        assert_eq!(
            found,
            vec![
                (
                    "/p/.agentscope/workspace/alice/subagents/deep/r.Md".to_string(),
                    "SA026",
                    "`subagents/deep/r.Md` ends in `.Md`, not `.md`: both subagent scans match `.md` case-sensitively, so the runtime ignores this file (rename it to `r.md`)".to_string()
                ),
                (
                    "/p/.agentscope/workspace/skills/pdf/skill.md".to_string(),
                    "SK030",
                    "`skills/pdf/skill.md` is not `SKILL.md`: every skill scan looks for `SKILL.md` exactly, so the runtime skips the folder `skills/pdf` (rename the file to `SKILL.md`)".to_string()
                ),
                (
                    "/p/.agentscope/workspace/subagents/writer.MD".to_string(),
                    "SA026",
                    "`subagents/writer.MD` ends in `.MD`, not `.md`: both subagent scans match `.md` case-sensitively, so the runtime ignores this file (rename it to `writer.md`)".to_string()
                ),
                (
                    "/p/skills/lower/Skill.md".to_string(),
                    "SK030",
                    "`skills/lower/Skill.md` is not `SKILL.md`: every skill scan looks for `SKILL.md` exactly, so the runtime skips the folder `skills/lower` (rename the file to `SKILL.md`)".to_string()
                ),
            ]
        );
    }

    #[test]
    fn the_project_folder_is_a_fallback_only_on_the_local_filesystem() {
        let ws = |mode: crate::config::FilesystemMode| {
            let mut config = Config::defaults_for(Path::new("/p"));
            config.filesystem.mode = mode;
            Workspace::from_texts(
                config,
                [
                    ("/p/.agentscope/workspace/AGENTS.md", "a"),
                    ("/p/MEMORY.md", "m"),
                ],
            )
        };
        assert_eq!(
            codes(&ws(crate::config::FilesystemMode::Local)),
            vec![("/p/MEMORY.md".to_string(), "WS013")]
        );
        assert!(codes(&ws(crate::config::FilesystemMode::Sandbox)).is_empty());
        assert!(codes(&ws(crate::config::FilesystemMode::Remote)).is_empty());
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
