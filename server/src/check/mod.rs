//! The rules over a workspace snapshot: the diagnostics found while parsing each file, the
//! whole-workspace and per-file content rules (`files`), the cross-file rules (`cross`) and, with
//! the strict profile, the Agent Skills open-specification rules (`strict`).
//!
//! Two entry points group them: `source_diagnostics` (one skill or subagent spec) and
//! `workspace_diagnostics` (everything else). Running them over a project — per source, across
//! the project, with `SK025` (`skills`) and the strict rules — is the analysis engine's
//! (`engine`, which `agentws check` and the server both ask); this module cannot reach it.
//!
//! Pure over a snapshot; knows nothing of output formats or the disk. Fixes are carried inside the
//! diagnostics; applying them is `fix`, writing a file for it `rewrite`.

use std::collections::BTreeMap;

use rayon::prelude::*;

use crate::base::Diagnostic;
use crate::rules::Profile;
use crate::workspace::catalog::ToolCatalog;
use crate::workspace::snapshot::{Parsed, WorkspaceFile};
use crate::workspace::{FileKind, Workspace};

pub mod budget;
pub mod cross;
pub mod files;
pub mod fix;
pub mod loading;
pub mod rewrite;
pub mod skills;
pub mod strict;
pub mod tools;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckOptions {
    pub profile: Profile,
}

impl Default for CheckOptions {
    fn default() -> Self {
        Self {
            profile: Profile::Harness,
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct CheckReport {
    /// Sorted by path, position and code.
    pub diagnostics: Vec<Diagnostic>,
    /// How many files of each kind were read.
    pub files_checked: BTreeMap<FileKind, usize>,
}

impl CheckReport {
    pub fn total_files(&self) -> usize {
        self.files_checked.values().sum()
    }
}

/// The diagnostics of one skill or subagent spec: its parse, its content rules and the removed
/// tools it mentions. They depend on that file and the tool catalog only; the analysis engine
/// memoises them per file on that promise, which this signature keeps (no workspace in reach).
/// The strict profile adds `strict::check_source`, which also asks which files exist.
pub fn source_diagnostics(
    doc: &Parsed,
    file: WorkspaceFile,
    catalog: &ToolCatalog,
) -> Vec<Diagnostic> {
    let mut out = files::content_problems(file.path, &file.entry.content);
    out.extend(cross::removed_tool_mentions(catalog, file));
    match doc {
        Parsed::Skill(skill) => out.extend(skill.diagnostics.iter().cloned()),
        Parsed::Subagent(subagent) => out.extend(subagent.diagnostics.iter().cloned()),
        Parsed::Tools(tools) => out.extend(tools.diagnostics.iter().cloned()),
    }
    out
}

/// Every diagnostic that is not a source's own (`source_diagnostics`): `agentws.toml` and
/// tools.json problems, the per-file rules of the other files (a blank injected file is judged by
/// the contexts that read it), and the whole-workspace and cross-file rules, except `SK025`
/// (`skills`; the engine places it), which points inside a skill, and the skills' loading
/// outcomes ([`skill_loading_diagnostics`]). The engine runs this over a workspace whose
/// skills and subagents are their facts (`engine`), so it must read a source only through its
/// parsed document, never through its text, its frontmatter values or any position after its
/// `name`.
///
/// `checkpoint` is called between the rule families: the engine passes salsa's cancellation
/// check there, so that an edit arriving meanwhile stops a run whose answer is already stale.
pub fn workspace_diagnostics(
    workspace: &Workspace,
    catalog: &ToolCatalog,
    checkpoint: &dyn Fn(),
) -> Vec<Diagnostic> {
    let mut diagnostics: Vec<Diagnostic> = workspace.config_diagnostics.iter().cloned().collect();
    for doc in &workspace.tools {
        // A file the runtime never reads has none of the effects its problems would have.
        let unread = tools::never_read(workspace, doc);
        diagnostics.extend(doc.diagnostics.iter().cloned().map(|d| match unread {
            Some(why) => {
                let consequence = format!(
                    "The runtime never reads this tools.json ({why}), so this changes nothing now. If it read the file: {}",
                    d.consequence
                );
                d.with_consequence(consequence)
            }
            None => d,
        }));
    }
    let files = workspace.workspace_files();
    let per_file: Vec<Diagnostic> = files
        .par_iter()
        .filter(|file| !is_source(file.kind))
        .flat_map_iter(|file| {
            let mut found = files::check_file(workspace, *file);
            found.extend(cross::removed_tool_mentions(catalog, *file));
            found
        })
        .collect();
    diagnostics.extend(per_file);
    checkpoint();
    diagnostics.extend(files::check_workspace_level(workspace));
    diagnostics.extend(budget::check(workspace));
    checkpoint();
    // The session contexts resolved once for the loading, reference and tools rules.
    let contexts = loading::Contexts::new(workspace);
    checkpoint();
    diagnostics.extend(tools::check_in(workspace, catalog, Some(&contexts)));
    checkpoint();
    diagnostics.extend(cross::check_references_in(
        workspace, catalog, &contexts, checkpoint,
    ));
    diagnostics
}

/// The loading outcomes of the skills `reported` keeps (`loading::check_skills`), which
/// `workspace_diagnostics` leaves out: they read only the skills of the same name and a skill's
/// neighbours by path ([`loading::neighbour_rels`]), so the engine asks them per group of names
/// over a workspace holding just those, and an edit that renames a skill re-runs two groups.
pub fn skill_loading_diagnostics(
    workspace: &Workspace,
    reported: &dyn Fn(&crate::workspace::skill::SkillDoc) -> bool,
) -> Vec<Diagnostic> {
    let contexts = loading::Contexts::new(workspace);
    loading::check_skills(workspace, &contexts, reported)
}

/// Skills and subagent specs: the files with a diagnostics query of their own.
pub fn is_source(kind: FileKind) -> bool {
    matches!(kind, FileKind::Skill | FileKind::Subagent)
}

/// How many files of each kind a check of `workspace` reads (its report's `files_checked`).
pub fn files_checked(workspace: &Workspace) -> BTreeMap<FileKind, usize> {
    let mut files_checked = BTreeMap::new();
    for file in workspace.workspace_files() {
        if !matches!(file.entry.content, crate::base::FileContent::NotLoaded) {
            *files_checked.entry(file.kind).or_insert(0) += 1;
        }
    }
    if let Some(file) = &workspace.config.file {
        if workspace.files.contains_file(file) {
            *files_checked.entry(FileKind::Config).or_insert(0) += 1;
        }
    }
    files_checked
}
