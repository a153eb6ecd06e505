//! The composition: every rule family's diagnostics by file, in check order
//! ([`workspace_diagnostics`]), asked on every core when all of them run again, the whole
//! workspace of facts the families must add up to (the agreement tests), and the whole workspace
//! of full parses the rule that weighs the rendered prompt reads.
//!
//! Must not depend on the analysis (`handle.rs` and the files after it in `mod.rs`).

use std::sync::Arc;

use super::by_file::{by_file_in_check_order, DiagnosticsByFile, WorkspaceDiagnostics};
use super::inputs::{Database, ProjectInput};
use super::layout_rules::{content_diagnostics, layout_diagnostics};
use super::partition::NAME_GROUPS;
use super::project::{bucket_facts, each_bucket, layout_workspace_of};
use super::skills::{allowed_tools_note, name_group_loading, strict_key_diagnostics};
use super::sources::prompt_facts;
use super::subagents::{bucket_skill_references, skill_references, subagent_loading};
use super::tools::{configured_diagnostics, removed_mentions, tool_reference_lists, tools_docs};
use crate::base::Diagnostic;
use crate::check;
use crate::workspace::snapshot::Parsed;
use crate::workspace::Workspace;

/// Every source as its facts, over the layout: the workspace `check::workspace_diagnostics` reads
/// at once, which the rule families' smaller workspaces must add up to (the agreement tests).
#[salsa::tracked(returns(clone), no_eq)]
pub fn facts_workspace(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Workspace> {
    let buckets: Vec<Arc<Vec<Parsed>>> = each_bucket(db, project, bucket_facts);
    whole_workspace(
        db,
        project,
        buckets.iter().flat_map(|facts| facts.iter().cloned()),
    )
}

/// Every source as the prompt reads it (`prompt_facts`: parsed, without bodies), over the
/// layout: what the preview renders, for the one rule that weighs the rendered prompt.
#[salsa::tracked(returns(clone), no_eq)]
pub fn prompt_workspace(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Workspace> {
    let sources: Vec<Parsed> = project
        .buckets(db)
        .iter()
        .flat_map(|bucket| bucket.sources(db).iter())
        .filter_map(|file| prompt_facts(db, *file))
        .collect();
    whole_workspace(db, project, sources)
}

/// `sources` with the tools.json documents over the layout: a whole project's workspace.
fn whole_workspace(
    db: &dyn salsa::Database,
    project: ProjectInput,
    sources: impl IntoIterator<Item = Parsed>,
) -> Arc<Workspace> {
    let tools = tools_docs(db, project);
    let docs = sources
        .into_iter()
        .chain(tools.iter().cloned().map(Parsed::Tools));
    Arc::new(layout_workspace_of(
        db,
        project,
        project.config_diagnostics(db).clone(),
        docs,
        project.kinds(db).clone(),
    ))
}

/// `check::prompt_size_diagnostics`: the whole prompt, so over every source as the prompt reads
/// it; it asks for them only when the configuration names a context window agentws knows, and
/// reads nothing else otherwise.
#[salsa::tracked(returns(clone))]
pub fn prompt_size_diagnostics(
    db: &dyn salsa::Database,
    project: ProjectInput,
) -> Arc<Vec<Diagnostic>> {
    if !check::prompt_window_named(project.config(db)) {
        return Arc::new(Vec::new());
    }
    Arc::new(check::prompt_size_diagnostics(&prompt_workspace(
        db, project,
    )))
}

/// The rule families over the layout and the skills, by file, each list in check order:
/// [`layout_diagnostics`], [`configured_diagnostics`], the removed tools the skills mention
/// ([`removed_mentions`]), [`prompt_size_diagnostics`] and the skills' loading outcomes per name group
/// ([`name_group_loading`]). Kept apart from [`subagent_family_diagnostics`], so that an edit of
/// one side merges only its own map again.
#[salsa::tracked(returns(clone))]
pub fn skill_family_diagnostics(
    db: &dyn salsa::Database,
    project: ProjectInput,
) -> Arc<DiagnosticsByFile> {
    let layout = [
        content_diagnostics(db, project),
        layout_diagnostics(db, project),
        configured_diagnostics(db, project),
    ];
    let mentions = removed_mentions(db, project);
    let prompt_size = prompt_size_diagnostics(db, project);
    let loading: Vec<_> = (0..NAME_GROUPS)
        .map(|group| name_group_loading(db, project, group))
        .collect();
    let lists = layout
        .iter()
        .chain([&mentions, &prompt_size])
        .map(|list| list.as_slice());
    let lists = lists.chain(loading.iter().map(|group| group.diagnostics.as_slice()));
    Arc::new(by_file_in_check_order(lists))
}

/// The rule families over what the subagents name and how they load, by file, each list in
/// check order: [`skill_references`], [`tool_reference_lists`] and [`subagent_loading`].
#[salsa::tracked(returns(clone))]
pub fn subagent_family_diagnostics(
    db: &dyn salsa::Database,
    project: ProjectInput,
) -> Arc<DiagnosticsByFile> {
    let [rules, promises, lists] = tool_reference_lists(db, project);
    let found = [
        skill_references(db, project),
        rules,
        promises,
        lists,
        subagent_loading(db, project),
    ];
    Arc::new(by_file_in_check_order(
        found.iter().map(|list| list.as_slice()),
    ))
}

/// The rule families' diagnostics with [`allowed_tools_note`] beside them: every diagnostic that
/// is not a source's own. The note is kept apart, so that a description edit, which moves it,
/// neither merges the families again nor copies their maps.
#[salsa::tracked(returns(clone))]
pub fn workspace_diagnostics(
    db: &dyn salsa::Database,
    project: ProjectInput,
) -> WorkspaceDiagnostics {
    WorkspaceDiagnostics {
        families: [
            skill_family_diagnostics(db, project),
            subagent_family_diagnostics(db, project),
            strict_key_diagnostics(db, project),
        ],
        note: allowed_tools_note(db, project),
    }
}

/// [`workspace_diagnostics`], with the name groups and the buckets' skill references asked first
/// on every core, then the two rule families side by side (each thread on its own clone of the
/// database, as rust-analyzer primes its caches): they are independent, and a change of the
/// layout or the configuration runs all of them again. A cancellation raised in a worker reaches the caller as the same panic.
pub(super) fn workspace_diagnostics_on_every_core(
    db: &Database,
    project: ProjectInput,
) -> WorkspaceDiagnostics {
    use rayon::prelude::*;
    (0..NAME_GROUPS)
        .into_par_iter()
        .for_each_with(db.clone(), |db, group| {
            name_group_loading(db, project, group);
        });
    project
        .buckets(db)
        .par_iter()
        .for_each_with(db.clone(), |db, bucket| {
            bucket_skill_references(db, project, *bucket);
        });
    // Neither family reads the other's queries.
    let (skills_db, subagents_db) = (db.clone(), db.clone());
    rayon::join(
        move || skill_family_diagnostics(&skills_db, project),
        move || subagent_family_diagnostics(&subagents_db, project),
    );
    workspace_diagnostics(db, project)
}
