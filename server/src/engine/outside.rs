//! The files outside the walk: the folders and AGENTS.md files that subagents' `workspace.path`s
//! name outside the scanned trees. `agentws check` and the language server both add them to the
//! file set by the one call here ([`Analysis::follow_outside`]), asking the engine's
//! `referenced_paths` (`subagents.rs`) for the list, so that both read exactly the same files.
//!
//! Reads the disk only through `workspace::discover` (`add_referenced`). Must not depend on `lsp`
//! or `cli`.

use std::path::PathBuf;
use std::sync::Arc;

use super::{Analysis, Change, Origin};
use crate::base::FileSet;
use crate::workspace::discover::{add_referenced, remove_referenced, Referenced};

/// What [`Analysis::follow_outside`] put into a file set, and the list it followed.
#[derive(Clone, Debug, Default)]
pub struct Outside {
    added: Referenced,
    followed: Option<Arc<Vec<PathBuf>>>,
}

impl Outside {
    /// The files and folders added to the file set.
    pub fn added(&self) -> &Referenced {
        &self.added
    }
}

impl Analysis {
    /// Puts into `files`, and into this analysis, the folders and files outside the walk that the
    /// subagents name now, and takes out those no subagent names any more. The disk is read only
    /// when the list of names changed since the last call (a `workspace.path` edited, a subagent
    /// added or removed). Returns the files that came or went, `None` when nothing changed.
    pub fn follow_outside(
        &mut self,
        files: &mut Arc<FileSet>,
        outside: &mut Outside,
    ) -> Option<Vec<PathBuf>> {
        let wanted = self.referenced_paths();
        if outside.followed.as_deref() == Some(&*wanted) {
            return None;
        }
        outside.followed = Some(wanted.clone());
        if wanted.is_empty() && outside.added.is_empty() {
            return None;
        }
        let set = Arc::make_mut(files);
        remove_referenced(set, &outside.added);
        let added = add_referenced(set, &wanted);
        let before = std::mem::replace(&mut outside.added, added);
        // Folders first when they come (a file needs its folder), last when they go.
        let mut change = Change::new();
        for file in &before.files {
            if !set.contains_file(file) {
                change.set_file(file.clone(), None, Origin::Disk);
            }
        }
        for dir in &before.dirs {
            if !set.contains_dir(dir) {
                change.set_folder(dir.clone(), false);
            }
        }
        for dir in outside.added.dirs.iter().rev() {
            change.set_folder(dir.clone(), true);
        }
        for file in &outside.added.files {
            change.set_file(file.clone(), set.get(file).cloned(), Origin::Disk);
        }
        self.apply_change(change);
        let mut changed = before.files;
        changed.extend(outside.added.files.iter().cloned());
        Some(changed)
    }
}
