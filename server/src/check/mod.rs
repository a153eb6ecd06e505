//! Checking a workspace snapshot: collects the diagnostics found while parsing each file, adds the
//! whole-workspace and per-file content rules (`files`), the cross-file rules (`cross`) and, with
//! the strict profile, the Agent Skills open-specification rules (`strict`).
//!
//! Pure over a snapshot; knows nothing of output formats or the disk. Fixes are carried inside the
//! diagnostics; applying them is `fix`, writing a file for it `rewrite`.

use std::collections::BTreeMap;

use rayon::prelude::*;

use crate::base::Diagnostic;
use crate::rules::Profile;
use std::path::Path;

use crate::workspace::catalog::ToolCatalog;
use crate::workspace::snapshot::WorkspaceFile;
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

/// The diagnostics of `path` that depend on that file alone: its parse, its content rules and the
/// removed tools it mentions. The incremental re-check of an edited file replaces exactly these.
pub fn file_local_diagnostics(
    workspace: &Workspace,
    path: &Path,
    catalog: &ToolCatalog,
) -> Vec<Diagnostic> {
    let (Some((location, kind)), Some(entry)) =
        (workspace.kinds.get(path), workspace.files.get(path))
    else {
        return Vec::new();
    };
    let file = WorkspaceFile {
        path: workspace
            .kinds
            .get_key_value(path)
            .map(|(p, _)| p)
            .expect("looked up above"),
        location,
        kind: *kind,
        entry,
    };
    let mut out: Vec<Diagnostic> = match kind {
        FileKind::Skill => workspace
            .skill(path)
            .map(|d| d.diagnostics.clone())
            .unwrap_or_default(),
        FileKind::Subagent => workspace
            .subagent(path)
            .map(|d| d.diagnostics.clone())
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    out.extend(files::check_file(workspace, file));
    out.extend(cross::removed_tool_mentions(catalog, file));
    out
}

/// Every diagnostic for `workspace` under `options`.
pub fn check_workspace(workspace: &Workspace, options: CheckOptions) -> CheckReport {
    let mut diagnostics: Vec<Diagnostic> = workspace.config_diagnostics.iter().cloned().collect();
    for skill in &workspace.skills {
        diagnostics.extend(skill.diagnostics.iter().cloned());
    }
    for subagent in &workspace.subagents {
        diagnostics.extend(subagent.diagnostics.iter().cloned());
    }
    for tools in &workspace.tools {
        diagnostics.extend(tools.diagnostics.iter().cloned());
    }
    // Per-file passes run in parallel; the whole-workspace ones once.
    let catalog = ToolCatalog::for_workspace(workspace);
    let files = workspace.workspace_files();
    let per_file: Vec<Diagnostic> = files
        .par_iter()
        .flat_map_iter(|file| {
            let mut found = files::check_file(workspace, *file);
            found.extend(cross::removed_tool_mentions(&catalog, *file));
            found
        })
        .collect();
    diagnostics.extend(per_file);
    diagnostics.extend(files::check_workspace_level(workspace));
    diagnostics.extend(budget::check(workspace));
    diagnostics.extend(skills::check(workspace));
    // The session contexts resolved once for the loading, reference and tools rules.
    let contexts = loading::Contexts::new(workspace);
    diagnostics.extend(tools::check_in(workspace, Some(&contexts)));
    diagnostics.extend(cross::check_references_in(workspace, &catalog, &contexts));
    if options.profile == Profile::Strict {
        diagnostics.extend(strict::check(workspace));
    }
    diagnostics.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    diagnostics.dedup();

    let mut files_checked = BTreeMap::new();
    for file in &files {
        if !matches!(file.entry.content, crate::base::FileContent::NotLoaded) {
            *files_checked.entry(file.kind).or_insert(0) += 1;
        }
    }
    if let Some(file) = &workspace.config.file {
        if workspace.files.contains_file(file) {
            *files_checked.entry(FileKind::Config).or_insert(0) += 1;
        }
    }
    CheckReport {
        diagnostics,
        files_checked,
    }
}
