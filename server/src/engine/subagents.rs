//! The rule families over the subagents: what their `skills:` entries name (per chunk of
//! subagents, over the skills of the names they list), their loading outcomes (over facts without
//! their lists), and the paths outside the scanned trees they refer to.
//!
//! Reads the skills through `skills.rs`; must not depend on the tools' family or the composition.

use std::path::PathBuf;
use std::sync::Arc;

use super::by_file::sort;
use super::inputs::{ProjectInput, SourceBucket, SourceFile};
use super::partition::{group_of_hash, name_hash, NAME_GROUPS};
use super::project::{
    check_roots, concat_each_bucket, each_bucket, frame_with_skill_folders, workspace_of,
    workspace_over,
};
use super::skills::{name_group_facts, skill_suggestions, with_neighbours};
use super::sources::facts;
use crate::base::{Diagnostic, SharedList};
use crate::check;
use crate::workspace::layout::FileKind;
use crate::workspace::skill::SkillDoc;
use crate::workspace::snapshot::{self, Parsed};
use crate::workspace::subagent::SubagentDoc;

/// The facts of a bucket's subagent specs, in path order: what the reference rules read of the
/// sources besides the skills they name (a skill edit leaves this equal).
#[salsa::tracked(returns(clone))]
pub fn bucket_subagent_facts(db: &dyn salsa::Database, bucket: SourceBucket) -> Arc<Vec<Parsed>> {
    Arc::new(
        bucket
            .sources(db)
            .iter()
            .filter(|file| file.kind(db) == FileKind::Subagent)
            .filter_map(|file| facts(db, *file))
            .collect(),
    )
}

/// How many subagents, in path order within a bucket, the rules over `skills:` entries run over
/// at once ([`chunk_skill_references`]): few enough that a subagent's edit resolves the contexts
/// over a few dozen skills, enough that a cold check does not resolve them a thousand times.
const SUBAGENT_CHUNK: usize = 16;

/// The chunks of a bucket's subagents, by number.
pub(super) fn subagent_chunks(
    db: &dyn salsa::Database,
    bucket: SourceBucket,
) -> std::ops::Range<u32> {
    let count = bucket_subagent_facts(db, bucket)
        .len()
        .div_ceil(SUBAGENT_CHUNK);
    0..count as u32
}

/// Chunk `chunk` of a bucket's subagent facts ([`SUBAGENT_CHUNK`] of them, in path order).
/// Compared when it runs again, so that an edit of a subagent in another chunk stops here.
#[salsa::tracked(returns(clone))]
pub fn chunk_subagent_facts(
    db: &dyn salsa::Database,
    bucket: SourceBucket,
    chunk: u32,
) -> Arc<Vec<Parsed>> {
    let all = bucket_subagent_facts(db, bucket);
    let mut chunks = all.chunks(SUBAGENT_CHUNK);
    Arc::new(
        chunks
            .nth(chunk as usize)
            .map(<[Parsed]>::to_vec)
            .unwrap_or_default(),
    )
}

/// `check::skill_references` of a chunk of subagents, over a workspace of those subagents and
/// the skills of the names they list ([`chunk_listed_facts`]). A subagent's edit runs its
/// chunk's again, over the few skills that chunk names; a skill's edit runs again only the
/// chunks that list its name (old or new), and renaming a skill nobody lists runs none.
#[salsa::tracked(returns(clone))]
pub fn chunk_skill_references(
    db: &dyn salsa::Database,
    project: ProjectInput,
    bucket: SourceBucket,
    chunk: u32,
) -> Arc<Vec<Diagnostic>> {
    let subagents = chunk_subagent_facts(db, bucket, chunk);
    let listed = chunk_listed_facts(db, project, bucket, chunk);
    let mut skills: Vec<&Parsed> = listed.0.iter().flat_map(|name| name.facts.iter()).collect();
    // A neighbour of two names, once.
    skills.sort_by(|a, b| a.path().cmp(b.path()));
    skills.dedup_by(|a, b| a.path() == b.path());
    let docs = skills.into_iter().cloned().chain(subagents.iter().cloned());
    // XR009 asks whether each `workspace.path` folder exists.
    let config = project.config(db);
    let folders = subagents.iter().filter_map(|subagent| match subagent {
        Parsed::Subagent(doc) => snapshot::subagent_workspace_dir(config, doc),
        _ => None,
    });
    let frame = frame_with_skill_folders(db, project, folders.collect::<Vec<_>>());
    let workspace = workspace_over(db, project, frame, docs);
    let known_skills = |names: &[&str]| {
        let names = names.iter().map(|name| name.to_string()).collect();
        skill_suggestions(db, project, names).to_vec()
    };
    let contexts = check::loading::Contexts::of_roots(&workspace, &check_roots(db, project));
    let mut found = check::skill_references(&workspace, &contexts, &known_skills);
    sort(&mut found);
    Arc::new(found)
}

/// A bucket's [`chunk_skill_references`], chunk by chunk.
#[salsa::tracked(returns(clone))]
pub fn bucket_skill_references(
    db: &dyn salsa::Database,
    project: ProjectInput,
    bucket: SourceBucket,
) -> Arc<Vec<Diagnostic>> {
    let per_chunk: Vec<Arc<Vec<Diagnostic>>> = subagent_chunks(db, bucket)
        .map(|chunk| chunk_skill_references(db, project, bucket, chunk))
        .collect();
    Arc::new(
        per_chunk
            .iter()
            .flat_map(|found| found.iter().cloned())
            .collect(),
    )
}

/// What a chunk of subagents' `skills:` entries read: for each name they list, in [`ListedKey`]
/// order, the skills of that name with their neighbours (shared with [`group_listed_facts`]).
/// Compared when it runs again (by pointer first), so that an edit of a skill only another chunk
/// lists, or a name another chunk starts listing, stops here; kept unsorted by path, so that
/// running again costs a pointer per name.
#[salsa::tracked(returns(clone))]
pub fn chunk_listed_facts(
    db: &dyn salsa::Database,
    project: ProjectInput,
    bucket: SourceBucket,
    chunk: u32,
) -> Arc<ListedNames> {
    let mut read = Vec::new();
    for (group, names) in chunk_listed_names(db, bucket, chunk).iter() {
        let listed = group_listed_facts(db, project, *group);
        // Both sorted by key: one walk along the two, rather than a search per name.
        let mut entries = listed.0.iter().peekable();
        for key in names {
            while entries.next_if(|entry| entry.key < *key).is_some() {}
            if let Some(entry) = entries.next_if(|entry| entry.key == *key) {
                read.push(entry.clone());
            }
        }
    }
    Arc::new(SharedList(read))
}

/// The names a chunk of subagents lists, by name group, each group's sorted: what
/// [`chunk_listed_facts`] looks up, apart so that it runs again only when the chunk's subagents
/// change, while the listed facts run again whenever a group they read changes.
#[salsa::tracked(returns(clone))]
fn chunk_listed_names(
    db: &dyn salsa::Database,
    bucket: SourceBucket,
    chunk: u32,
) -> Arc<Vec<(u32, Vec<ListedKey>)>> {
    let subagents = chunk_subagent_facts(db, bucket, chunk);
    let mut keys: Vec<(u32, ListedKey)> = listed_names(&subagents)
        .map(|name| {
            let key = ListedKey::new(name);
            (key.group(), key)
        })
        .collect();
    keys.sort_unstable();
    keys.dedup();
    let mut by_group: Vec<(u32, Vec<ListedKey>)> = Vec::new();
    for (group, key) in keys {
        match by_group.last_mut() {
            Some((last, keys)) if *last == group => keys.push(key),
            _ => by_group.push((group, vec![key])),
        }
    }
    Arc::new(by_group)
}

/// The names the `skills:` entries of `subagents` list (repeats kept).
fn listed_names(subagents: &[Parsed]) -> impl Iterator<Item = &str> {
    subagents
        .iter()
        .flat_map(|doc| match doc {
            Parsed::Subagent(subagent) => subagent.skills.as_slice(),
            _ => &[],
        })
        .map(|entry| entry.value.as_str())
}

/// A skill name some subagent lists, with its hash, by which the listed names are sorted: merging
/// and walking them compares integers first, not strings behind pointers, which an edit right
/// after a preview finds out of the caches. Its name group is the hash's (`name_group_of`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct ListedKey {
    hash: u64,
    pub name: Arc<str>,
}

impl ListedKey {
    fn new(name: &str) -> Self {
        Self {
            hash: name_hash(name),
            name: Arc::from(name),
        }
    }

    fn group(&self) -> u32 {
        group_of_hash(self.hash)
    }
}

/// A name some subagent lists, with what an entry of it reads: the skills of that name in every
/// tree and their neighbours (`check::loading::neighbour_rels`), in path order.
#[derive(Clone, Debug, PartialEq)]
pub struct ListedName {
    pub key: ListedKey,
    pub facts: Vec<Parsed>,
}

/// Listed names in [`ListedKey`] order, each shared between the group's query and the chunks
/// that list it.
pub type ListedNames = SharedList<ListedName>;

/// The names of group `group` that some subagent lists and some skill has, in [`ListedKey`]
/// order, each with what it reads. One query per group rather than per name, so that verifying
/// after an edit walks sixty-four of these rather than thousands of names; editing a skill no
/// subagent lists leaves it equal, and so does listing a name no skill has (the chunk that lists it reads
/// nothing for it: typing a name into `skills:` runs no other chunk again until it names a skill).
#[salsa::tracked(returns(clone))]
pub fn group_listed_facts(
    db: &dyn salsa::Database,
    project: ProjectInput,
    group: u32,
) -> Arc<ListedNames> {
    let names = names_listed_in_group(db, project, group);
    if names.is_empty() {
        return Arc::new(ListedNames::default());
    }
    let members = name_group_facts(db, project, group);
    let listed = names.iter().filter_map(|key| {
        let named: Vec<&(SourceFile, Arc<SkillDoc>)> = members
            .iter()
            .filter(|(_, skill)| skill.name.as_deref() == Some(&*key.name))
            .collect();
        (!named.is_empty()).then(|| {
            Arc::new(ListedName {
                key: key.clone(),
                facts: with_neighbours(db, project, named),
            })
        })
    });
    Arc::new(listed.collect())
}

/// The skill names the subagents list, by name group, each group's in [`ListedKey`] order.
/// Merged from each bucket's list, so that a subagent's edit collects the names of its bucket
/// again, not of every subagent; each group's list is shared with [`names_listed_in_group`],
/// which a subagent's edit runs again for every group. The names are the buckets' own, shared:
/// buckets cut anew copy and compare pointers, not thousands of strings, and the merge sorts by
/// the keys' hashes, hashing nothing again.
#[salsa::tracked(returns(clone))]
pub fn names_listed(
    db: &dyn salsa::Database,
    project: ProjectInput,
) -> Arc<Vec<Arc<Vec<ListedKey>>>> {
    let per_bucket: Vec<Arc<Vec<ListedKey>>> = each_bucket(db, project, bucket_listed_names);
    let mut by_group: Vec<Vec<&ListedKey>> = vec![Vec::new(); NAME_GROUPS as usize];
    for key in per_bucket.iter().flat_map(|keys| keys.iter()) {
        by_group[key.group() as usize].push(key);
    }
    Arc::new(
        by_group
            .into_iter()
            .map(|mut names| {
                names.sort_unstable();
                names.dedup();
                Arc::new(names.into_iter().cloned().collect())
            })
            .collect(),
    )
}

/// Group `group`'s slot of [`names_listed`]: a subagent's edit re-runs the listed facts of the
/// groups whose names it changed, not of all sixty-four.
#[salsa::tracked(returns(clone))]
pub fn names_listed_in_group(
    db: &dyn salsa::Database,
    project: ProjectInput,
    group: u32,
) -> Arc<Vec<ListedKey>> {
    names_listed(db, project)[group as usize].clone()
}

/// Every bucket's [`bucket_skill_references`].
#[salsa::tracked(returns(clone))]
pub fn skill_references(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Vec<Diagnostic>> {
    Arc::new(concat_each_bucket(db, project, |db, bucket| {
        bucket_skill_references(db, project, bucket)
    }))
}

/// A subagent's facts as the subagents' loading outcomes read them
/// (`check::loading::check_subagents`: where it is, its id, whether it loads and is listed):
/// without its `tools:`, `skills:`, `model:` and the other keys only the reference rules and the
/// file's own rules read, so that editing them leaves every subagent's loading memoised.
#[salsa::tracked(returns(clone))]
pub fn subagent_loading_facts(
    db: &dyn salsa::Database,
    file: SourceFile,
) -> Option<Arc<SubagentDoc>> {
    let Parsed::Subagent(doc) = facts(db, file)? else {
        return None;
    };
    // Field by field, as in `facts`: a field added to the document is left out until a loading
    // rule needs it, rather than making every edit of it re-run them.
    Some(Arc::new(SubagentDoc {
        path: doc.path.clone(),
        location: doc.location.clone(),
        id: doc.id.clone(),
        description: doc.description.as_ref().map(|_| String::new()),
        workspace_mode: doc.workspace_mode,
        workspace_path: doc.workspace_path.clone(),
        body: None,
        model: None,
        steps: doc.steps,
        mode: doc.mode,
        hidden: doc.hidden,
        tools: Vec::new(),
        skills: Vec::new(),
        opening_range: doc.opening_range,
        frontmatter_closing_line: None,
        outcome: doc.outcome.clone(),
        diagnostics: doc.diagnostics.clone(),
        split: None,
        metadata: Vec::new(),
        description_range: None,
        temperature: None,
        top_p: None,
        variant: None,
        expose_to_user: None,
        body_range: None,
    }))
}

/// A bucket's [`subagent_loading_facts`], in path order.
#[salsa::tracked(returns(clone))]
pub fn bucket_subagent_loading_facts(
    db: &dyn salsa::Database,
    bucket: SourceBucket,
) -> Arc<SharedList<SubagentDoc>> {
    let subagents = bucket
        .sources(db)
        .iter()
        .filter(|file| file.kind(db) == FileKind::Subagent);
    Arc::new(
        subagents
            .filter_map(|file| subagent_loading_facts(db, *file))
            .collect(),
    )
}

/// The subagents' loading outcomes (`check::loading::check_subagents`), over a workspace of the
/// subagents' [`subagent_loading_facts`] and no skill: the subagents' merge reads no skill, and
/// no subagent's lists.
#[salsa::tracked(returns(clone))]
pub fn subagent_loading(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Vec<Diagnostic>> {
    let facts = every_subagent_loading_facts(db, project);
    let docs = facts.iter().cloned().map(Parsed::Subagent);
    let workspace = workspace_of(db, project, docs);
    let contexts = check::loading::Contexts::of_roots(&workspace, &check_roots(db, project));
    let mut found = check::loading::check_subagents(&workspace, &contexts);
    sort(&mut found);
    Arc::new(found)
}

/// Every subagent's [`subagent_loading_facts`], in path order. Merged apart from
/// [`subagent_loading`] and compared, so that buckets cut anew (one replaced, split or merged
/// by a created file) run the subagents' loading again only when a subagent changed.
#[salsa::tracked(returns(clone))]
pub fn every_subagent_loading_facts(
    db: &dyn salsa::Database,
    project: ProjectInput,
) -> Arc<SharedList<SubagentDoc>> {
    Arc::new(SharedList(concat_each_bucket(
        db,
        project,
        bucket_subagent_loading_facts,
    )))
}

/// Every subagent's facts ([`bucket_subagent_facts`]), in path order, merged and compared like
/// [`every_subagent_loading_facts`].
#[salsa::tracked(returns(clone))]
pub fn every_subagent_facts(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Vec<Parsed>> {
    Arc::new(concat_each_bucket(db, project, bucket_subagent_facts))
}

/// The skill names a bucket's subagents list, in [`ListedKey`] order, each once.
#[salsa::tracked(returns(clone))]
pub fn bucket_listed_names(db: &dyn salsa::Database, bucket: SourceBucket) -> Arc<Vec<ListedKey>> {
    let subagents = bucket_subagent_facts(db, bucket);
    let mut keys: Vec<ListedKey> = listed_names(&subagents).map(ListedKey::new).collect();
    keys.sort_unstable();
    keys.dedup();
    Arc::new(keys)
}

/// The paths outside the scanned trees that a bucket's subagents name (`workspace.path` and its
/// AGENTS.md; `snapshot::referenced_paths`). Read from the facts: a body edit re-runs nothing.
#[salsa::tracked(returns(clone))]
pub fn bucket_referenced_paths(
    db: &dyn salsa::Database,
    bucket: SourceBucket,
) -> Arc<Vec<PathBuf>> {
    let sources = bucket.sources(db);
    let Some(first) = sources.first() else {
        return Arc::new(Vec::new());
    };
    let config = first.project(db).config(db);
    let facts: Vec<Parsed> = sources
        .iter()
        .filter(|file| file.kind(db) == FileKind::Subagent)
        .filter_map(|file| facts(db, *file))
        .collect();
    let subagents = facts.iter().filter_map(|doc| match doc {
        Parsed::Subagent(subagent) => Some(subagent.as_ref()),
        _ => None,
    });
    Arc::new(snapshot::referenced_paths(config, subagents))
}

/// Every path outside the scanned trees that the project's subagents name, sorted: what a
/// front-end adds to the file set (`discover::add_referenced`), as `agentws check` does.
#[salsa::tracked(returns(clone))]
pub fn referenced_paths(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Vec<PathBuf>> {
    let mut all: Vec<PathBuf> = Vec::new();
    for bucket in project.buckets(db).iter() {
        all.extend(bucket_referenced_paths(db, *bucket).iter().cloned());
    }
    all.sort();
    all.dedup();
    Arc::new(all)
}
