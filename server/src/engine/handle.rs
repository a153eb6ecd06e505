//! A read-only handle on the analysis at one state of its inputs ([`Handle`]), to compute from
//! without the owner's lock, and what every source's own diagnostics read besides the source
//! ([`SharedReads`]).
//!
//! Asks queries only; must not depend on the analysis that makes handles (`analysis.rs`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::by_file::WorkspaceDiagnostics;
use super::compose::{workspace_diagnostics, workspace_diagnostics_on_every_core};
use super::inputs::{Database, ProjectInput, SourceFile};
use super::skills::skill_name_index;
use super::sources::source_diagnostics;
use crate::base::{Diagnostic, FileSet};
use crate::check::CheckOptions;
use crate::rules::Profile;

/// What every source's diagnostics read besides the source itself (`source_diagnostics`: the
/// profile, and in the strict profile the layout; not the tool catalog). While it stays equal,
/// only the sources whose own input was set can have new diagnostics, so a caller need not ask
/// about the others.
#[derive(Clone)]
pub struct SharedReads {
    options: CheckOptions,
    layout: Option<Arc<FileSet>>,
}

impl PartialEq for SharedReads {
    fn eq(&self, other: &Self) -> bool {
        let same_layout = match (&self.layout, &other.layout) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        self.options == other.options && same_layout
    }
}

/// The analysis at one state of its inputs, to compute from without the owner's lock (rust-
/// analyzer's snapshots); the owner tells whether its inputs changed since it took one. Setting
/// an input of the analysis cancels the queries running on a handle (they unwind with
/// `salsa::Cancelled`; see [`Handle::compute`]) and waits until every handle is dropped, so a
/// handle must never be held while waiting for the owner's lock.
pub struct Handle {
    pub(super) db: Database,
    pub(super) project: ProjectInput,
    pub(super) sources: Arc<BTreeMap<PathBuf, SourceFile>>,
}

impl Handle {
    /// Runs `f` on this handle and drops it; `None` when an input was set meanwhile (the work
    /// was stale, and is left for the next refresh).
    pub fn compute<T>(self, f: impl FnOnce(&Handle) -> T) -> Option<T> {
        salsa::Cancelled::catch(std::panic::AssertUnwindSafe(move || f(&self))).ok()
    }

    pub fn workspace_diagnostics(&self) -> WorkspaceDiagnostics {
        workspace_diagnostics(&self.db, self.project)
    }

    /// [`Handle::workspace_diagnostics`] with the name groups asked on every core first: for a
    /// change of the layout, which runs all of them again (an edit of one source runs two at
    /// most, and spreading their verification over threads only adds to it).
    pub fn workspace_diagnostics_on_every_core(&self) -> WorkspaceDiagnostics {
        workspace_diagnostics_on_every_core(&self.db, self.project)
    }

    /// Builds the skill names' suggestion pieces ([`skill_name_index`]) now, so that the first
    /// `skills:` entry no skill has does not build all of them while the user types.
    pub fn prepare_skill_suggestions(&self) {
        skill_name_index(&self.db, self.project);
    }

    pub fn source_diagnostics(&self, file: SourceFile) -> Arc<Vec<Diagnostic>> {
        source_diagnostics(&self.db, file)
    }

    /// See [`SharedReads`].
    pub fn shared_reads(&self) -> SharedReads {
        shared_reads(&self.db, self.project)
    }

    /// The source input at `path`, if it is a skill or subagent spec.
    pub fn source(&self, path: &Path) -> Option<SourceFile> {
        self.sources.get(path).copied()
    }

    pub fn sources(&self) -> impl Iterator<Item = (&PathBuf, SourceFile)> {
        self.sources.iter().map(|(path, input)| (path, *input))
    }
}

fn shared_reads(db: &Database, project: ProjectInput) -> SharedReads {
    let options = project.options(db);
    SharedReads {
        options,
        layout: (options.profile == Profile::Strict).then(|| project.layout(db).clone()),
    }
}
