//! The rule families that read tools.json and the tool catalog: the catalog itself, the removed
//! and foreign tools the skills mention (`XR010`, `XR017`), the configured rules
//! (`check::configured_diagnostics`), the tools.json rules and what subagents' `tools:` and
//! `model:` name (`tool_reference_lists`), with where the code-execution section is rendered.
//!
//! Reads the skills and subagents through their families; must not depend on the composition.

use std::sync::Arc;

use super::inputs::{ProjectInput, SourceBucket, SourceFile};
use super::partition::NAME_GROUPS;
use super::project::{bucket_places, check_roots, concat_each_bucket, workspace_of};
use super::skills::{
    contexts_loading_a_skill, name_group_facts, skills_with_files, with_neighbours,
};
use super::sources::{parsed, tool_mentions};
use super::subagents::{chunk_subagent_facts, every_subagent_facts, subagent_chunks};
use crate::base::Diagnostic;
use crate::check;
use crate::check::cross::ToolMention;
use crate::workspace::catalog::ToolCatalog;
use crate::workspace::layout::FileKind;
use crate::workspace::resolution::{Resolution, SkillOrder};
use crate::workspace::skill::SkillDoc;
use crate::workspace::snapshot::{self, Parsed};
use crate::workspace::subagent::SubagentDoc;
use crate::workspace::tools::ToolsDoc;

/// Whether any skill exists (whatever its content).
#[salsa::tracked(returns(copy))]
pub fn any_skill(db: &dyn salsa::Database, project: ProjectInput) -> bool {
    project.buckets(db).iter().any(|bucket| {
        bucket_places(db, *bucket)
            .iter()
            .any(|place| place.kind == FileKind::Skill)
    })
}

/// The tools.json files, the one the runtime reads first.
#[salsa::tracked(returns(clone))]
pub fn tools_docs(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Vec<Arc<ToolsDoc>>> {
    let mut docs: Vec<Arc<ToolsDoc>> = project
        .tools_files(db)
        .iter()
        .filter_map(|file| match parsed(db, *file)? {
            Parsed::Tools(doc) => Some(doc),
            _ => None,
        })
        .collect();
    snapshot::effective_first(project.config(db), &mut docs);
    Arc::new(docs)
}

/// The registered tools and what tools.json does to them. Reads no skill or subagent, so editing
/// one never re-verifies a file that mentions a tool.
#[salsa::tracked(returns(clone))]
pub fn catalog(db: &dyn salsa::Database, project: ProjectInput) -> Arc<ToolCatalog> {
    let config = project.config(db);
    let docs = tools_docs(db, project);
    Arc::new(ToolCatalog::new(
        config,
        any_skill(db, project),
        docs.first().map(Arc::as_ref),
    ))
}

/// The sources of a bucket that mention any name a tool may have, with those mentions: read
/// once per bucket by [`bucket_removed_mentions`], so that a tools.json edit fetches a list per
/// bucket rather than a memo per source (fetching eleven thousand memos was four fifths of its
/// comparing the mentions with the new catalog).
#[salsa::tracked(returns(clone))]
pub fn bucket_tool_mentions(
    db: &dyn salsa::Database,
    bucket: SourceBucket,
) -> Arc<Vec<(SourceFile, Arc<Vec<ToolMention>>)>> {
    Arc::new(
        bucket
            .sources(db)
            .iter()
            .map(|file| (*file, tool_mentions(db, *file)))
            .filter(|(_, mentions)| !mentions.is_empty())
            .collect(),
    )
}

/// The removed and foreign tools a bucket's skills mention (`XR010`, `XR017`): per bucket, so that a skill's edit runs
/// its bucket's again, and a tools.json edit compares every skill's memoised mentions and re-runs
/// no source's own rules.
#[salsa::tracked(returns(clone))]
pub fn bucket_removed_mentions(
    db: &dyn salsa::Database,
    project: ProjectInput,
    bucket: SourceBucket,
) -> Arc<Vec<Diagnostic>> {
    let catalog = catalog(db, project);
    let mut out = Vec::new();
    for (file, mentions) in bucket_tool_mentions(db, bucket).iter() {
        out.extend(check::cross::mentioned_among(
            &catalog,
            file.path(db),
            mentions,
        ));
    }
    Arc::new(out)
}

/// Every bucket's [`bucket_removed_mentions`]. Merged apart from `skill_family_diagnostics`
/// and compared, so that buckets cut anew merge the family's map again only when a mention
/// changed.
#[salsa::tracked(returns(clone))]
pub fn removed_mentions(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Vec<Diagnostic>> {
    Arc::new(concat_each_bucket(db, project, |db, bucket| {
        bucket_removed_mentions(db, project, bucket)
    }))
}

/// `check::configured_diagnostics`: over a workspace of the frame and the tools.json files.
#[salsa::tracked(returns(clone))]
pub fn configured_diagnostics(
    db: &dyn salsa::Database,
    project: ProjectInput,
) -> Arc<Vec<Diagnostic>> {
    let tools = tools_docs(db, project);
    // These read no skill or subagent spec, nor their folders: over the frame, a skill created
    // or deleted does not run them again (over the layout, the budget's lookups of every
    // AGENTS.md and MEMORY.md were a third of a created skill's time at 10 000 skills).
    let mut workspace = workspace_of(db, project, tools.iter().cloned().map(Parsed::Tools));
    workspace.config_diagnostics = project.config_diagnostics(db).clone();
    let catalog = catalog(db, project);
    Arc::new(check::configured_diagnostics(&workspace, &catalog))
}

/// `check::tool_references` over the subagents and the tools.json files, with no skill: of the
/// skills they read only [`code_execution_detail`]. A tools.json edit runs these and nothing
/// that resolves a session context; a subagent's edit runs its chunk's [`chunk_tool_lists`] and
/// the tools.json rules, and merges. Three lists in `check::tool_references`'s order, each its
/// own query's, which the composition reads apart: a change of one (a rename changes TJ030's
/// message) copies none of the others (TJ029 names each isolated subagent in a related entry).
pub fn tool_reference_lists(
    db: &dyn salsa::Database,
    project: ProjectInput,
) -> [Arc<Vec<Diagnostic>>; 3] {
    [
        tools_json_rules_but_promises(db, project),
        prompt_promises(db, project),
        tool_list_references(db, project),
    ]
}

/// [`tool_reference_lists`] as one list, for the tests that ask whether any of it ran again.
#[cfg(test)]
#[salsa::tracked(returns(clone))]
pub fn tool_references(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Vec<Diagnostic>> {
    let lists = tool_reference_lists(db, project);
    Arc::new(lists.iter().flat_map(|list| list.iter().cloned()).collect())
}

/// What the subagents' `tools:` and `model:` name: each chunk's findings
/// ([`chunk_tool_lists`]), merged.
#[salsa::tracked(returns(clone))]
fn tool_list_references(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Vec<Diagnostic>> {
    let chunks: Vec<Arc<check::cross::ToolListFindings>> = project
        .buckets(db)
        .iter()
        .flat_map(|bucket| {
            subagent_chunks(db, *bucket).map(|chunk| chunk_tool_lists(db, project, *bucket, chunk))
        })
        .collect();
    Arc::new(check::cross::merge_tool_list_findings(
        chunks.iter().map(|chunk| &**chunk),
    ))
}

/// The tools.json rules (`check::tools::check_in`): those of [`tools_json_rules_but_promises`],
/// then TJ030 ([`prompt_promises`]), for the tests that ask whether they ran again.
#[cfg(test)]
#[salsa::tracked(returns(clone))]
pub fn tools_json_rules(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Vec<Diagnostic>> {
    let mut found = tools_json_rules_but_promises(db, project).to_vec();
    found.extend(prompt_promises(db, project).iter().cloned());
    Arc::new(found)
}

/// The tools.json rules but TJ030 (`check::tools::check_apart_from_promises`): of the
/// subagents they read only which register the harness built-ins again
/// ([`subagents_registering_builtins`]), and nothing of the skills.
#[salsa::tracked(returns(clone))]
fn tools_json_rules_but_promises(
    db: &dyn salsa::Database,
    project: ProjectInput,
) -> Arc<Vec<Diagnostic>> {
    let tools = tools_docs(db, project);
    let subagents = subagents_registering_builtins(db, project);
    let docs = subagents
        .0
        .iter()
        .cloned()
        .map(Parsed::Subagent)
        .chain(tools.iter().cloned().map(Parsed::Tools));
    let workspace = workspace_of(db, project, docs);
    let catalog = catalog(db, project);
    Arc::new(check::tools::check_apart_from_promises(
        &workspace, &catalog,
    ))
}

/// TJ030 (`check::tools::prompt_promises`), over the tools.json files, with where the
/// code-execution section is rendered ([`code_execution_detail`], asked only when tools.json
/// removes one of that section's tools): what a change of that detail runs again.
#[salsa::tracked(returns(clone))]
fn prompt_promises(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Vec<Diagnostic>> {
    let tools = tools_docs(db, project);
    let workspace = workspace_of(db, project, tools.iter().cloned().map(Parsed::Tools));
    let catalog = catalog(db, project);
    let code_execution = || code_execution_detail(db, project);
    Arc::new(check::tools::prompt_promises(
        &workspace,
        &catalog,
        &code_execution,
    ))
}

/// The subagents that may register the harness built-ins again
/// (`check::tools::registers_builtins_again`), in path order: all that the tools.json rules read
/// of the subagents.
#[salsa::tracked(returns(clone))]
fn subagents_registering_builtins(
    db: &dyn salsa::Database,
    project: ProjectInput,
) -> Arc<BuiltinRegistrars> {
    let subagents = every_subagent_facts(db, project);
    Arc::new(BuiltinRegistrars(
        subagents
            .iter()
            .filter_map(|doc| match doc {
                Parsed::Subagent(subagent) => Some(subagent),
                _ => None,
            })
            .filter(|subagent| check::tools::registers_builtins_again(subagent, false))
            .cloned()
            .collect(),
    ))
}

/// [`subagents_registering_builtins`], equal when it lists the same files: of a subagent the
/// filter keeps, the tools.json rules read only its id and where it is (TJ029 names it, per-user
/// folder included), which its path gives (the id is the file name; a configuration that places
/// it elsewhere runs the rules again, since they read it). So an edit of a subagent's lists,
/// description or body does not run those rules again.
#[derive(Clone, Default)]
pub struct BuiltinRegistrars(Vec<Arc<SubagentDoc>>);

impl PartialEq for BuiltinRegistrars {
    fn eq(&self, other: &Self) -> bool {
        self.0.len() == other.0.len()
            && self
                .0
                .iter()
                .zip(&other.0)
                // Most entries are the very facts memoised before.
                .all(|(a, b)| Arc::ptr_eq(a, b) || a.path == b.path)
    }
}

/// What the `tools:` and `model:` of chunk `chunk` of a bucket's subagents name
/// (`check::cross::tool_list_findings`), over a workspace of those subagents and tools.json.
#[salsa::tracked(returns(clone))]
pub fn chunk_tool_lists(
    db: &dyn salsa::Database,
    project: ProjectInput,
    bucket: SourceBucket,
    chunk: u32,
) -> Arc<check::cross::ToolListFindings> {
    let subagents = chunk_subagent_facts(db, bucket, chunk);
    let tools = tools_docs(db, project);
    let docs = subagents
        .iter()
        .cloned()
        .chain(tools.iter().cloned().map(Parsed::Tools));
    let workspace = workspace_of(db, project, docs);
    let catalog = catalog(db, project);
    Arc::new(check::cross::tool_list_findings(&workspace, &catalog))
}

/// Where the code-execution section is rendered (`check::tools::code_execution_contexts`):
/// which contexts render it (whether each loads any skill, `contexts_loading_a_skill`), and the
/// loaded skills with files, gathered per name group ([`group_code_execution`]) and merged: a
/// rename runs its old and its new group again, not every context over every skill with files.
/// Asked only when tools.json removes one of that section's tools.
#[salsa::tracked(returns(clone))]
pub fn code_execution_detail(db: &dyn salsa::Database, project: ProjectInput) -> Option<String> {
    let groups: Vec<Arc<GroupCodeExecution>> = (0..NAME_GROUPS)
        .map(|group| group_code_execution(db, project, group))
        .collect();
    let with_files = groups.iter().map(|group| group.names).sum();
    // Names are in one group each: the first few of all are among each group's first few.
    let mut first: Vec<&FirstLoaded> = groups.iter().flat_map(|group| &group.first).collect();
    first.sort_by(|a, b| (a.context, &a.order).cmp(&(b.context, &b.order)));
    first.truncate(check::tools::SKILLS_WITH_FILES_SHOWN);
    let first: Vec<&str> = first.iter().map(|loaded| loaded.name.as_str()).collect();
    // Which contexts render the section reads no skill: a workspace of the frame alone.
    let workspace = workspace_of(db, project, std::iter::empty());
    let mut contexts = check::loading::Contexts::of_roots(&workspace, &check_roots(db, project));
    contexts.loads_a_skill = contexts_loading_a_skill(db, project).to_vec();
    check::tools::code_execution_message(&workspace, &contexts, with_files, &first)
}

/// One name group's part of [`code_execution_detail`]: how many of its names have a loaded
/// skill with files in a context that renders the section, and the first few of them by where
/// they are first loaded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GroupCodeExecution {
    names: usize,
    /// In the order first met, at most `check::tools::SKILLS_WITH_FILES_SHOWN`.
    first: Vec<FirstLoaded>,
}

/// Where a name of a skill with files is first loaded: the context (its index among the check
/// contexts) and its place in that context's list (`SkillOrder`, comparable between groups).
#[derive(Clone, Debug, PartialEq, Eq)]
struct FirstLoaded {
    context: usize,
    order: SkillOrder<'static>,
    name: String,
}

/// [`GroupCodeExecution`] of name group `group`: the contexts resolved over the group's skills
/// of the names of its skills with files, with their neighbours. Each context that renders the
/// section loads a skill, so which do reads only the configuration here
/// (`Resolution::renders_code_execution_if`); a loaded skill of another group (a neighbour) is
/// that group's to count.
#[salsa::tracked(returns(clone))]
pub fn group_code_execution(
    db: &dyn salsa::Database,
    project: ProjectInput,
    group: u32,
) -> Arc<GroupCodeExecution> {
    let with_files = group_skills_with_files(db, project, group);
    if with_files.is_empty() {
        return Arc::default();
    }
    let members = name_group_facts(db, project, group);
    let files: foldhash::HashSet<SourceFile> = with_files.iter().copied().collect();
    let names: foldhash::HashSet<&str> = members
        .iter()
        .filter(|(file, _)| files.contains(file))
        .filter_map(|(_, doc)| doc.name.as_deref())
        .collect();
    let named: Vec<&(SourceFile, Arc<SkillDoc>)> = members
        .iter()
        .filter(|(_, doc)| doc.name.as_deref().is_some_and(|name| names.contains(name)))
        .collect();
    let docs = with_neighbours(db, project, named);
    let workspace = workspace_of(db, project, docs);
    let contexts = check::loading::Contexts::of_roots(&workspace, &check_roots(db, project));
    // By document: the resolutions hold the very `Arc`s of the members, and a pointer hashes
    // faster than a path (hashing a path per skill per context was most of a group's time).
    let docs_with_files: foldhash::HashSet<*const SkillDoc> = members
        .iter()
        .filter(|(file, _)| files.contains(file))
        .map(|(_, doc)| Arc::as_ptr(doc))
        .collect();
    let mut found = GroupCodeExecution::default();
    let mut seen: foldhash::HashSet<&str> = Default::default();
    let mut walked: Vec<&Resolution> = Vec::new();
    for (context, (_, resolution)) in contexts.list.iter().enumerate() {
        // A context that loads the very skills of one walked already meets no name first (most
        // per-user folders hold none of a group's skills).
        if !resolution.renders_code_execution_if(true)
            || walked.iter().any(|done| done.same_skills_as(resolution))
        {
            continue;
        }
        walked.push(resolution);
        for (order, skill) in resolution.skills_in_order() {
            // A name is counted once, where first loaded (a linked folder, or several contexts).
            if docs_with_files.contains(&Arc::as_ptr(&skill.doc)) && seen.insert(skill.name()) {
                found.names += 1;
                if found.first.len() < check::tools::SKILLS_WITH_FILES_SHOWN {
                    found.first.push(FirstLoaded {
                        context,
                        order: order.into_owned(),
                        name: skill.name().to_string(),
                    });
                }
            }
        }
    }
    Arc::new(found)
}

/// The skills of name group `group` whose folders hold files besides SKILL.md, in path order:
/// equal after an edit that changes neither the group's skills nor the layout's resources.
#[salsa::tracked(returns(clone))]
pub fn group_skills_with_files(
    db: &dyn salsa::Database,
    project: ProjectInput,
    group: u32,
) -> Arc<Vec<SourceFile>> {
    let all = skills_with_files_set(db, project);
    if all.is_empty() {
        return Arc::default();
    }
    let members = name_group_facts(db, project, group);
    let found = members.iter().map(|(file, _)| *file);
    Arc::new(found.filter(|file| all.contains(file)).collect())
}

/// [`skills_with_files`] as a set, looked up by each group's [`group_skills_with_files`].
#[salsa::tracked(returns(clone))]
fn skills_with_files_set(
    db: &dyn salsa::Database,
    project: ProjectInput,
) -> Arc<foldhash::HashSet<SourceFile>> {
    Arc::new(skills_with_files(db, project).iter().copied().collect())
}
