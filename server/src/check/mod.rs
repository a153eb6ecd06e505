//! Checking a workspace snapshot: collects the diagnostics found while parsing each file, adds the
//! whole-workspace and per-file content rules (`files`), the cross-file rules (`cross`) and, with
//! the strict profile, the Agent Skills open-specification rules (`strict`).
//!
//! Pure over a snapshot; knows nothing of output formats or the disk. Fixes are carried inside the
//! diagnostics; applying them is `fix`.

use std::collections::BTreeMap;

use crate::base::Diagnostic;
use crate::rules::Profile;
use crate::workspace::{FileKind, Workspace};

pub mod budget;
pub mod cross;
pub mod files;
pub mod fix;
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
    diagnostics.extend(files::check(workspace));
    diagnostics.extend(budget::check(workspace));
    diagnostics.extend(tools::check(workspace));
    diagnostics.extend(cross::check(workspace));
    if options.profile == Profile::Strict {
        diagnostics.extend(strict::check(workspace));
    }
    diagnostics.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    diagnostics.dedup();

    let mut files_checked = BTreeMap::new();
    for (path, (_, kind)) in &workspace.kinds {
        let read = workspace
            .files
            .get(path)
            .is_some_and(|e| !matches!(e.content, crate::base::FileContent::NotLoaded));
        if read {
            *files_checked.entry(*kind).or_insert(0) += 1;
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
