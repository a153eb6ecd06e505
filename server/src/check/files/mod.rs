//! The workspace family (`WS…`, harness-spec §9.1): a missing workspace or AGENTS.md, files that
//! are not UTF-8, too large, unreadable or not regular files, blank injected files, injected files
//! that start with a frontmatter, additional context files that escape, contain `..`, are binary
//! or missing, MEMORY.md over its budget, a system prompt over the model's context window, and files in the project folder that the overlay
//! silently falls back to. Beside them, the rules of
//! other families found while looking at the same files: spec files the scans miss because of
//! letter case (`SA026`, `SK030`), additional context files in a folder an id can take
//! (`CF012`), and `[rules]` settings that select no rule (`CF013`, which needs the catalog).
//!
//! One file per rule, its declaration beside its detection; [`RULES`] lists them for the catalog
//! (`check::catalog`, which orders every rule by family and code, with the family's rules a
//! file's read alone decides, which `rules::workspace` lists below the layers that read files;
//! this module still runs them over every workspace file). The entry points
//! below run each rule over what it reads, grouped as the engine asks them: one file's content,
//! the workspace's layout, one configured additional context file.
//!
//! Pure over the snapshot: existence questions are answered by the file set.

// The workspace family in code order, then the other families' rules found with it; the
// family's rules that a file's read alone decides are `rules::workspace`'s.
declare_family! {
    mod workspace_missing;                       // WS001
    mod agents_md_missing;                       // WS002
    mod blank_injected_file;                     // WS003
    mod additional_context_escapes;              // WS008
    mod additional_context_dotdot;               // WS009
    mod additional_context_binary;               // WS010
    mod additional_context_missing;              // WS011
    pub mod memory_over_budget;                  // WS012
    mod project_fallback_file;                   // WS013
    mod injected_file_frontmatter;               // WS016
    pub mod prompt_over_context_window;          // WS017
    mod skill_file_case;                         // SK030
    mod subagent_extension_case;                 // SA026
    mod config_context_file_in_namespace_folder; // CF012
    mod config_unknown_rule_code;                // CF013
}

use std::path::{Component, Path, PathBuf};

use crate::base::{Diagnostic, FileSet, TextRange};
use crate::rules::declare_family;
use crate::rules::workspace::content_problem;
use crate::workspace::layout::normalize_relative;
use crate::workspace::snapshot::WorkspaceFile;
use crate::workspace::Workspace;

/// Every `WS…` diagnostic of the workspace but the walk's (WS006) and the memory budget's
/// (WS012, with the rules that read tools.json), with `SA026`, `SK030` and `CF012`.
pub fn check(workspace: &Workspace) -> Vec<Diagnostic> {
    let mut out = check_workspace_level(workspace, &misspelt_files(&workspace.files));
    for file in workspace.workspace_files() {
        out.extend(check_file(workspace, file));
    }
    out
}

/// Content rules for one file (unreadable, not a regular file, not UTF-8, too large, blank
/// injected file, injected frontmatter).
pub fn check_file(workspace: &Workspace, file: WorkspaceFile) -> Vec<Diagnostic> {
    let mut out = Vec::from_iter(content_problem(file.path, &file.entry.content));
    out.extend(blank_injected_file::check(workspace, file));
    out.extend(injected_file_frontmatter::check(workspace, file));
    out
}

/// Where whole-workspace diagnostics are reported: `agentws.toml` when there is one, else the
/// workspace folder itself.
type Anchor = (PathBuf, TextRange);

/// Rules about the workspace as a whole: missing folders and files, additional context files,
/// project-folder fallbacks. With no workspace folder, only that is reported: every other rule
/// would state the consequences of its absence again.
///
/// `misspelt` is [`misspelt_files`] of the workspace's files, or of any set holding those (the
/// engine's frame: no misspelt file is a source), so that a created source asks it nothing.
pub fn check_workspace_level(workspace: &Workspace, misspelt: &[PathBuf]) -> Vec<Diagnostic> {
    let anchor = anchor_file(workspace);
    let mut out = config_unknown_rule_code::check(&workspace.config);
    if let Some(missing) = workspace_missing::check(workspace, &anchor) {
        out.push(missing);
        return out;
    }
    out.extend(agents_md_missing::check(workspace, &anchor));
    for configured in &workspace.config.agent.additional_context_files {
        let file = AdditionalFile::new(workspace, configured, &anchor);
        out.extend(additional_context_escapes::check(&file));
        out.extend(additional_context_dotdot::check(&file));
        out.extend(config_context_file_in_namespace_folder::check(&file));
        out.extend(additional_context_binary::check(&file));
        out.extend(additional_context_missing::check(&file));
    }
    out.extend(misnamed_files(workspace, misspelt));
    project_fallback_file::check(workspace, &mut out);
    out
}

/// One entry of `additional_context_files`, as the rules about it read it.
struct AdditionalFile<'a> {
    workspace: &'a Workspace,
    /// As written in agentws.toml.
    configured: &'a str,
    /// Relative to a workspace folder, normalized lexically.
    rel: String,
    /// Where its diagnostics point: its string in agentws.toml, else the anchor.
    at: Anchor,
}

impl<'a> AdditionalFile<'a> {
    fn new(workspace: &'a Workspace, configured: &'a str, anchor: &Anchor) -> Self {
        let at = match (
            &workspace.config.file,
            config_entry_range(workspace, configured),
        ) {
            (Some(file), Some(range)) => (file.clone(), range),
            _ => anchor.clone(),
        };
        AdditionalFile {
            workspace,
            configured,
            rel: normalize_relative(configured),
            at,
        }
    }

    /// `<ws>/<rel>`, normalized lexically, leaves the workspace.
    fn escapes(&self) -> bool {
        escapes(&self.rel)
    }

    /// A `..` segment remains after normalizing.
    fn climbs(&self) -> bool {
        self.rel.split('/').any(|s| s == "..")
    }

    /// A plain path below the workspace folders: what the rules about the file itself look at
    /// (one that escapes or climbs is reported for that alone).
    fn stays_inside(&self) -> bool {
        !self.escapes() && !self.climbs()
    }
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

pub(super) fn ends_in_md_in_any_case(name: &str) -> bool {
    name.len() > 3
        && name.is_char_boundary(name.len() - 3)
        && name[name.len() - 3..].eq_ignore_ascii_case(".md")
}

/// Files the runtime's scans miss because of letter case: a subagent spec ending in `.MD` (SA026)
/// and a skill folder whose only SKILL.md is `skill.md` or `Skill.md` (SK030), among `misspelt`
/// ([`misspelt_files`]). Both scans compare names case-sensitively.
pub fn misnamed_files(workspace: &Workspace, misspelt: &[PathBuf]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for path in misspelt {
        let Some(location) = crate::workspace::layout::locate(&workspace.config, path) else {
            continue;
        };
        out.extend(subagent_extension_case::check(path, &location));
        out.extend(skill_file_case::check(workspace, path, &location));
    }
    out
}

fn anchor_file(workspace: &Workspace) -> Anchor {
    match &workspace.config.file {
        Some(file) => (file.clone(), TextRange::empty(0)),
        None => (workspace.config.workspace.clone(), TextRange::empty(0)),
    }
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
        let reminder = super::blank_injected_file::RULE.consequence.to_string();
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
