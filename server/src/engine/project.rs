//! The project-wide views every rule family reads: the sources bucket by bucket, the frame's
//! kinds, the per-user folders and the session contexts, and the small workspaces a family's
//! rules run over (the frame with only the documents that family reads).
//!
//! Must not depend on a rule family (`layout_rules.rs` and the files after it in `mod.rs`).

use std::path::PathBuf;
use std::sync::Arc;

use super::inputs::{skill_folder_name, Kinds, ProjectInput, SourceBucket, SourceFile};
use super::partition::name_group_of;
use super::sources::facts;
use crate::base::{Diagnostic, FileSet};
use crate::context::EffectiveRoot;
use crate::workspace::layout::{FileKind, Location};
use crate::workspace::resolution::{check_contexts_of, Callers};
use crate::workspace::snapshot::{self, Parsed};
use crate::workspace::Workspace;

/// Kind and location of every file of the frame ([`ProjectInput::frame`]).
#[salsa::tracked(returns(clone))]
pub fn frame_kinds(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Kinds> {
    Arc::new(snapshot::file_kinds(project.config(db), project.frame(db)))
}

/// Where a source sits: its input's path, location and kind, read together.
#[derive(Clone, PartialEq, Eq)]
pub struct Place {
    pub file: SourceFile,
    pub path: PathBuf,
    pub location: Location,
    pub kind: FileKind,
}

/// The places of a bucket's sources, in path order: what the whole-project maps of places
/// (`skills_with_files`, `any_skill`) read, one memo per bucket. Reading three input
/// fields of every source made those maps, asked again after each file created or deleted,
/// record and later verify thirty thousand dependencies.
#[salsa::tracked(returns(clone))]
pub fn bucket_places(db: &dyn salsa::Database, bucket: SourceBucket) -> Arc<Vec<Place>> {
    Arc::new(
        bucket
            .sources(db)
            .iter()
            .map(|file| Place {
                file: *file,
                path: file.path(db).clone(),
                location: file.location(db).clone(),
                kind: file.kind(db),
            })
            .collect(),
    )
}

/// A per-bucket query's results over the project's buckets, in order: how the whole-project
/// queries read the sources.
pub(super) fn each_bucket<T>(
    db: &dyn salsa::Database,
    project: ProjectInput,
    query: impl Fn(&dyn salsa::Database, SourceBucket) -> T,
) -> Vec<T> {
    project
        .buckets(db)
        .iter()
        .map(|bucket| query(db, *bucket))
        .collect()
}

/// A per-bucket list query's lists over the project's buckets, one after another.
pub(super) fn concat_each_bucket<T: Clone, L: std::ops::Deref<Target = [T]>>(
    db: &dyn salsa::Database,
    project: ProjectInput,
    query: impl Fn(&dyn salsa::Database, SourceBucket) -> Arc<L>,
) -> Vec<T> {
    let lists = each_bucket(db, project, query);
    lists.iter().flat_map(|list| list.iter().cloned()).collect()
}

/// The facts of a bucket's sources, in path order.
#[salsa::tracked(returns(clone))]
pub fn bucket_facts(db: &dyn salsa::Database, bucket: SourceBucket) -> Arc<Vec<Parsed>> {
    Arc::new(
        bucket
            .sources(db)
            .iter()
            .filter_map(|file| facts(db, *file))
            .collect(),
    )
}

/// The per-user folders of the workspace, in name order (`Workspace::namespaces`).
#[salsa::tracked(returns(clone))]
pub fn namespaces(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Vec<String>> {
    let config = project.config(db);
    Arc::new(snapshot::namespaces(config, project.frame(db)))
}

/// The session contexts the check evaluates (`resolution::check_contexts`), computed once for
/// the many workspaces the rule families build: they read only the configuration and the
/// per-user folders, so creating a skill computes them again but changes nothing downstream.
#[salsa::tracked(returns(clone))]
pub fn check_roots(
    db: &dyn salsa::Database,
    project: ProjectInput,
) -> Arc<Vec<(Callers, EffectiveRoot)>> {
    Arc::new(check_contexts_of(
        project.config(db),
        &namespaces(db, project),
    ))
}

/// A workspace over the project's frame holding `docs` (what one rule family over skills and
/// subagents reads): its rules see the other files, and of the skills and subagent specs those
/// the family holds.
pub(super) fn workspace_of(
    db: &dyn salsa::Database,
    project: ProjectInput,
    docs: impl IntoIterator<Item = Parsed>,
) -> Workspace {
    workspace_over(db, project, project.frame(db).clone(), docs)
}

/// [`workspace_of`] over `frame` (the frame with folders put back).
pub(super) fn workspace_over(
    db: &dyn salsa::Database,
    project: ProjectInput,
    frame: Arc<FileSet>,
    docs: impl IntoIterator<Item = Parsed>,
) -> Workspace {
    Workspace::from_parts(
        project.config(db).clone(),
        Arc::new(Vec::new()),
        frame,
        project.env(db).clone(),
        docs,
        frame_kinds(db, project),
        namespaces(db, project).to_vec(),
    )
}

/// A workspace over the whole layout holding `docs`, with `kinds`: for the rules over every file.
pub(super) fn layout_workspace_of(
    db: &dyn salsa::Database,
    project: ProjectInput,
    config_diagnostics: Arc<Vec<Diagnostic>>,
    docs: impl IntoIterator<Item = Parsed>,
    kinds: Arc<Kinds>,
) -> Workspace {
    Workspace::from_parts(
        project.config(db).clone(),
        config_diagnostics,
        project.layout(db).clone(),
        project.env(db).clone(),
        docs,
        kinds,
        namespaces(db, project).to_vec(),
    )
}

/// The frame with those of `folders` that are skills' own folders the layout holds put back
/// ([`ProjectInput::skill_folders`]): for a rule family that asks about these folders by name.
/// The frame itself, not a copy, when it holds each already or none is a skill's folder.
pub(super) fn frame_with_skill_folders(
    db: &dyn salsa::Database,
    project: ProjectInput,
    folders: impl IntoIterator<Item = PathBuf>,
) -> Arc<FileSet> {
    let config = project.config(db);
    let frame = project.frame(db);
    let missing: Vec<PathBuf> = folders
        .into_iter()
        .filter(|folder| !frame.contains_dir(folder))
        // Only skills' folders are asked about: each folder asked is a key the database keeps.
        .filter(|folder| skill_folder_name(config, folder).is_some())
        .filter(|folder| skill_folder_held(db, project, folder.clone()))
        .collect();
    if missing.is_empty() {
        return frame.clone();
    }
    let mut frame = (**frame).clone();
    for folder in missing {
        frame.insert_dir(folder);
    }
    Arc::new(frame)
}

/// Whether the layout holds `folder`, a skill's own folder: asked through a query of its own
/// so that a rule family reading it depends on this one folder, not on its name group's whole
/// input, which every folder created or deleted under a name of that group changes.
#[salsa::tracked(returns(copy))]
fn skill_folder_held(db: &dyn salsa::Database, project: ProjectInput, folder: PathBuf) -> bool {
    let config = project.config(db);
    skill_folder_name(config, &folder).is_some_and(|name| {
        project.skill_folders(db)[name_group_of(name) as usize]
            .folders(db)
            .contains(&folder)
    })
}
