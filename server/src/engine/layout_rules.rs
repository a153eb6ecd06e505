//! The rule family over the layout alone (`check::content_diagnostics`, the layout-wide
//! `check::files` rules): it reads no skill, subagent spec or tools.json, so only a change of the
//! layout or the configuration runs it again.
//!
//! Must not depend on the other families or on the composition.

use std::path::PathBuf;
use std::sync::Arc;

use super::inputs::ProjectInput;
use super::project::{frame_kinds, layout_workspace_of, workspace_of};
use crate::base::Diagnostic;
use crate::check;

/// `check::content_diagnostics`: over the frame, which holds every file they judge, so that a
/// skill created or deleted in a folder the frame holds runs them not again.
#[salsa::tracked(returns(clone))]
pub fn content_diagnostics(
    db: &dyn salsa::Database,
    project: ProjectInput,
) -> Arc<Vec<Diagnostic>> {
    Arc::new(check::content_diagnostics(&workspace_of(
        db,
        project,
        std::iter::empty(),
    )))
}

/// `check::files::misspelt_files` of the frame: none is a source, so the frame holds them all.
#[salsa::tracked(returns(clone))]
pub fn misspelt_files(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Vec<PathBuf>> {
    Arc::new(check::files::misspelt_files(project.frame(db)))
}

/// The rest of `check::layout_diagnostics` (its layout-wide rules): over a workspace of the
/// layout alone, with no skill, subagent or tools.json in it, so that only a change of the
/// layout or the configuration runs them again, and then only lookups and the misspelt files.
#[salsa::tracked(returns(clone))]
pub fn layout_diagnostics(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Vec<Diagnostic>> {
    // These rules look up the kinds of files that are neither skills nor subagent specs only
    // (the frame's), so that a created skill does not run them for a new map of every file.
    let workspace = layout_workspace_of(
        db,
        project,
        Arc::new(Vec::new()),
        std::iter::empty(),
        frame_kinds(db, project),
    );
    Arc::new(check::files::check_workspace_level(
        &workspace,
        &misspelt_files(db, project),
    ))
}
