//! The rule families over the skills: their loading outcomes per name group (with each skill's
//! neighbours by path), the index of their names for suggestions, `allowed-tools` (`SK025`) and
//! the strict profile's keys (`ST007`); and the skills by name ([`SkillsByName`]) that the
//! subagents' and the tools' families read.
//!
//! Must not depend on the subagents' or the tools' families, or on the composition.

use std::path::Path;
use std::sync::Arc;

use super::by_file::{by_file_in_check_order, sort, DiagnosticsByFile};
use super::inputs::{ProjectInput, SourceBucket, SourceFile};
use super::partition::{name_group, name_group_of, referred_name, MAX_BUCKET_SIZE, NAME_GROUPS};
use super::project::{
    bucket_places, check_roots, concat_each_bucket, each_bucket, frame_kinds,
    frame_with_skill_folders, workspace_over,
};
use super::sources::{allowed_tools_key, facts, sets_allowed_tools, strict_unknown_keys};
use crate::base::suggest::{
    search_pieces, Nearest, SuggestionIndex, SuggestionPieces, EDIT_BUDGET,
};
use crate::base::{same, Diagnostic};
use crate::check;
use crate::workspace::layout::FileKind;
use crate::workspace::skill::SkillDoc;
use crate::workspace::snapshot::{self, Parsed};

/// Skills with their facts, in path order. Equal when each entry is the same file with equal
/// facts, the pointer compared first: almost every entry is the very value `facts` memoised.
#[derive(Clone, Default)]
pub struct SkillFacts(pub Vec<(SourceFile, Arc<SkillDoc>)>);

impl PartialEq for SkillFacts {
    fn eq(&self, other: &Self) -> bool {
        self.0.len() == other.0.len()
            && self
                .0
                .iter()
                .zip(&other.0)
                .all(|((f, a), (g, b))| f == g && same(a, b))
    }
}

impl Eq for SkillFacts {}

/// One name group's skills, in path order: the group's piece of each bucket that has any. The
/// pieces are shared with the buckets' queries, so gathering a group after an edit copies a
/// pointer per bucket rather than an entry per skill; an unchanged piece compares by pointer.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct GroupFacts(Vec<Arc<SkillFacts>>);

impl GroupFacts {
    pub fn iter(&self) -> impl Iterator<Item = &(SourceFile, Arc<SkillDoc>)> {
        self.0.iter().flat_map(|piece| piece.0.iter())
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A bucket's skills by name group: entry `g` holds the bucket's skills of group `g`.
#[salsa::tracked(returns(clone))]
pub fn bucket_name_groups(
    db: &dyn salsa::Database,
    bucket: SourceBucket,
) -> Arc<Vec<Arc<SkillFacts>>> {
    let mut groups = vec![SkillFacts::default(); NAME_GROUPS as usize];
    for file in bucket.sources(db).iter() {
        if let Some(Parsed::Skill(skill)) = facts(db, *file) {
            groups[name_group(&skill) as usize].0.push((*file, skill));
        }
    }
    Arc::new(groups.into_iter().map(Arc::new).collect())
}

/// Every name group's skills. The one query that reads every bucket: a group's queries read
/// their group from here, so that after an edit they verify one edge each, not a bucket per
/// group or a fact per skill.
#[salsa::tracked(returns(clone))]
pub fn name_groups(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Vec<Arc<GroupFacts>>> {
    let buckets: Vec<Arc<Vec<Arc<SkillFacts>>>> = each_bucket(db, project, bucket_name_groups);
    Arc::new(
        (0..NAME_GROUPS as usize)
            .map(|group| {
                let pieces = buckets.iter().map(|bucket| &bucket[group]);
                let held = pieces.filter(|piece| !piece.0.is_empty()).cloned();
                Arc::new(GroupFacts(held.collect()))
            })
            .collect(),
    )
}

/// The skills by name group, for requests that look a name up (definition): far fewer skills to
/// compare than the whole workspace's.
#[derive(Clone)]
pub struct SkillsByName(pub(super) Arc<Vec<Arc<GroupFacts>>>);

impl SkillsByName {
    /// The paths of the skills referred to by `name`, in path order: those whose `name` it is,
    /// or whose folder's when they have none.
    pub fn named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Path> {
        self.0[name_group_of(name) as usize]
            .iter()
            .filter(move |(_, skill)| referred_name(skill) == name)
            .map(|(_, skill)| skill.path.as_path())
    }
}

/// The skills of name group `group`, in path order, with their facts.
#[salsa::tracked(returns(clone))]
pub fn name_group_facts(
    db: &dyn salsa::Database,
    project: ProjectInput,
    group: u32,
) -> Arc<GroupFacts> {
    name_groups(db, project)[group as usize].clone()
}

/// Skill sources by their path relative to their tree, in path order.
pub type SkillsAtRel = Vec<(String, Vec<SourceFile>)>;

/// The skill sources at the relative paths where the members of name group `group` find their
/// neighbours (`check::loading::neighbour_rels`), by path, in path order. Compared when it runs
/// again: a skill created or deleted at a path another file shares changes the map of those
/// paths ([`ProjectInput::neighbours`]), and the groups whose members it is no neighbour of stop
/// here.
#[salsa::tracked(returns(clone))]
pub fn group_neighbours(
    db: &dyn salsa::Database,
    project: ProjectInput,
    group: u32,
) -> Arc<SkillsAtRel> {
    let by_rel = project.neighbours(db);
    let members = name_group_facts(db, project, group);
    let mut found: SkillsAtRel = Vec::new();
    // Members often share a path (every user's `skills/x/SKILL.md` in a store): its files are
    // recorded once, not once per member, which held users x users entries.
    let mut recorded: foldhash::HashSet<String> = Default::default();
    for (member, doc) in members.iter() {
        for rel in check::loading::neighbour_rels(&doc.location.rel) {
            if recorded.contains(rel.as_ref()) {
                continue;
            }
            // Most skills are the only file at their own path: nothing to record.
            match by_rel.get(rel.as_ref()) {
                Some(files) if files.iter().any(|file| file != member) => {
                    recorded.insert(rel.to_string());
                    found.push((rel.into_owned(), files.clone()));
                }
                _ => {}
            }
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    Arc::new(found)
}

/// The facts of `skills` (given in path order, each a member of its name group) and of their
/// neighbours ([`group_neighbours`]), in path order. The neighbours' facts are asked of their
/// own queries; the skills' are given. The few neighbours not among the skills are sorted apart
/// and merged in, rather than every entry sorted again.
pub(super) fn with_neighbours(
    db: &dyn salsa::Database,
    project: ProjectInput,
    skills: Vec<&(SourceFile, Arc<SkillDoc>)>,
) -> Vec<Parsed> {
    let mut by_group: Vec<(u32, Arc<SkillsAtRel>)> = Vec::new();
    let given: foldhash::HashSet<SourceFile> = skills.iter().map(|(file, _)| *file).collect();
    let mut found: foldhash::HashSet<SourceFile> = Default::default();
    let mut neighbours: Vec<Parsed> = Vec::new();
    // Skills of one group often share their relative path (a store's users each hold
    // `skills/x/SKILL.md`): each (group, path) is looked up once, or every member would walk the
    // neighbours of all the others, a cost that grew with the square of the users.
    let mut seen_rels: foldhash::HashSet<(u32, &str)> = Default::default();
    for (_, doc) in &skills {
        let group = name_group(doc);
        if !seen_rels.insert((group, doc.location.rel.as_str())) {
            continue;
        }
        let at = match by_group.iter().position(|(g, _)| *g == group) {
            Some(at) => at,
            None => {
                by_group.push((group, group_neighbours(db, project, group)));
                by_group.len() - 1
            }
        };
        let by_rel = &by_group[at].1;
        for rel in check::loading::neighbour_rels(&doc.location.rel) {
            let Ok(index) = by_rel.binary_search_by(|(r, _)| r.as_str().cmp(rel.as_ref())) else {
                continue;
            };
            for neighbour in &by_rel[index].1 {
                if !given.contains(neighbour) && found.insert(*neighbour) {
                    neighbours.extend(facts(db, *neighbour));
                }
            }
        }
    }
    neighbours.sort_by(|a, b| a.path().cmp(b.path()));
    let mut neighbours = neighbours.into_iter().peekable();
    let mut read = Vec::with_capacity(skills.len() + neighbours.len());
    for (_, doc) in skills {
        while let Some(before) = neighbours.next_if(|n| n.path() < doc.path.as_path()) {
            read.push(before);
        }
        read.push(Parsed::Skill(doc.clone()));
    }
    read.extend(neighbours);
    read
}

/// The loading outcomes of the skills of name group `group` (`check::skill_loading`), over a
/// workspace of the group's skills and their neighbours: renaming a skill re-runs its old and its
/// new group, not the resolution of every skill in every context.
#[salsa::tracked(returns(clone))]
pub fn name_group_loading(
    db: &dyn salsa::Database,
    project: ProjectInput,
    group: u32,
) -> Arc<check::SkillLoading> {
    let members = name_group_facts(db, project, group);
    if members.is_empty() {
        return Arc::new(check::SkillLoading::default());
    }
    let docs = with_neighbours(db, project, members.iter().collect());
    // SK016 asks whether the folder a member's name gives, when not its own, exists.
    let config = project.config(db);
    let hosts = members.iter().filter_map(|(_, doc)| {
        let host = check::loading::host_folder(config, doc.name.as_deref()?);
        (doc.path.parent() != Some(host.as_path())).then_some(host)
    });
    let frame = frame_with_skill_folders(db, project, hosts.collect::<Vec<_>>());
    let workspace = workspace_over(db, project, frame, docs);
    let contexts = check::loading::Contexts::of_roots(&workspace, &check_roots(db, project));
    // The members are the group's skills; their neighbours, read but not reported, are of
    // other groups (a neighbour of this group would be a member).
    let mut found = check::skill_loading(&workspace, &contexts, &|doc| name_group(doc) == group);
    sort(&mut found.diagnostics);
    Arc::new(found)
}

/// Per check context, whether it loads any skill: the one fact of every skill's loading that
/// the code-execution section reads (`code_execution_detail`), and one that seldom changes (a
/// rename leaves it as it was).
#[salsa::tracked(returns(clone))]
pub fn contexts_loading_a_skill(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Vec<bool>> {
    let mut loads: Vec<bool> = Vec::new();
    for group in 0..NAME_GROUPS {
        let found = name_group_loading(db, project, group);
        if loads.len() < found.loads_a_skill.len() {
            loads.resize(found.loads_a_skill.len(), false);
        }
        for (any, this) in loads.iter_mut().zip(&found.loads_a_skill) {
            *any |= this;
        }
    }
    Arc::new(loads)
}

/// The names of a bucket's skills, in path order: what [`skill_name_index`] reads, so that an
/// edit that keeps every name (a body, a description, a subagent) leaves it as it was.
#[salsa::tracked(returns(clone))]
pub fn bucket_skill_names(db: &dyn salsa::Database, bucket: SourceBucket) -> Arc<Vec<String>> {
    let skills = bucket
        .sources(db)
        .iter()
        .filter(|file| file.kind(db) == FileKind::Skill);
    let names = skills.filter_map(|file| match facts(db, *file)? {
        Parsed::Skill(skill) => skill.name.clone(),
        _ => None,
    });
    Arc::new(names.collect())
}

/// A bucket's skill names prepared for suggestions: one piece of [`skill_name_index`], built
/// again only when a name of its bucket changed.
#[salsa::tracked(returns(clone))]
pub fn bucket_name_index(db: &dyn salsa::Database, bucket: SourceBucket) -> Arc<SuggestionIndex> {
    let names = bucket_skill_names(db, bucket);
    Arc::new(SuggestionIndex::new(names.iter().map(String::as_str)))
}

/// Every skill's name, in path order, prepared for suggestions (`check::skill_name_index`), as
/// one piece per bucket ([`bucket_name_index`]): the server asks for it after reading the
/// project, so that the first name no skill has does not build every piece.
#[salsa::tracked(returns(clone))]
pub fn skill_name_index(db: &dyn salsa::Database, project: ProjectInput) -> Arc<SuggestionPieces> {
    Arc::new(each_bucket(db, project, bucket_name_index))
}

/// The first skill name of a bucket whose squashed form is `squashed`
/// (`SuggestionIndex::exact`): one bucket's part of [`span_exact_skill`].
#[salsa::tracked(returns(clone))]
pub fn bucket_exact_skill(
    db: &dyn salsa::Database,
    bucket: SourceBucket,
    squashed: String,
) -> Option<String> {
    bucket_name_index(db, bucket)
        .exact(&squashed)
        .map(str::to_string)
}

/// A bucket's skill names nearest to the squashed word `squashed` (`SuggestionIndex::nearest`),
/// with the whole budget: one bucket's part of [`span_nearest_skill`].
#[salsa::tracked(returns(clone))]
pub fn bucket_nearest_skill(
    db: &dyn salsa::Database,
    bucket: SourceBucket,
    squashed: String,
) -> Nearest<String> {
    let index = bucket_name_index(db, bucket);
    let found = index.nearest(&squashed, EDIT_BUDGET);
    Nearest {
        cost: found.cost,
        best: found
            .best
            .map(|(distance, at, name)| (distance, at, name.to_string())),
    }
}

/// How many consecutive buckets one piece of [`skill_suggestions`]' search spans. A chunk's
/// suggestions read one answer per span, not per bucket: after an edit, verifying them walks a
/// span per piece (the spans no change touched are verified in constant time, their buckets
/// being disk files) instead of every bucket of the project, once for each chunk that lists a
/// name no skill has.
pub(super) const SUGGESTION_SPAN: usize = 16;

/// The project's buckets, [`SUGGESTION_SPAN`] at a time, in order: the pieces of
/// [`skill_suggestions`]' search, read once per revision rather than once per chunk.
#[salsa::tracked(returns(clone))]
pub fn suggestion_spans(
    db: &dyn salsa::Database,
    project: ProjectInput,
) -> Arc<Vec<Vec<SourceBucket>>> {
    let buckets = project.buckets(db);
    Arc::new(buckets.chunks(SUGGESTION_SPAN).map(<[_]>::to_vec).collect())
}

/// The first skill name of a span of buckets whose squashed form is `squashed`: the first of
/// its buckets' answers ([`bucket_exact_skill`]), as the search over the buckets one by one
/// would find it.
#[salsa::tracked(returns(clone))]
pub fn span_exact_skill(
    db: &dyn salsa::Database,
    span: Vec<SourceBucket>,
    squashed: String,
) -> Option<String> {
    span.iter()
        .find_map(|bucket| bucket_exact_skill(db, *bucket, squashed.clone()))
}

/// A span of buckets' skill names nearest to `squashed`: its buckets' answers
/// ([`bucket_nearest_skill`]) taken together as `search_pieces` takes them one by one. The cost
/// is their sum (the search stops where the running sum passes the budget left, which it does
/// within the span exactly when the span's sum passes it, the costs being positive or zero), and
/// the best is the nearest, the earlier bucket then the earlier position winning a tie: the
/// position is counted across the span (a bucket's names are fewer than `MAX_BUCKET_SIZE`), so
/// that the search's tie-break by (piece, position) orders as by (bucket, position).
#[salsa::tracked(returns(clone))]
pub fn span_nearest_skill(
    db: &dyn salsa::Database,
    span: Vec<SourceBucket>,
    squashed: String,
) -> Nearest<String> {
    let mut cost = 0;
    let mut best: Option<(usize, usize, String)> = None;
    for (i, bucket) in span.iter().enumerate() {
        let found = bucket_nearest_skill(db, *bucket, squashed.clone());
        cost += found.cost;
        // Past the whole budget the search stops here whatever was left: the later buckets
        // need not be searched.
        if cost > EDIT_BUDGET {
            return Nearest { cost, best: None };
        }
        if let Some((distance, at, name)) = found.best {
            let at = i * MAX_BUCKET_SIZE + at;
            if best.as_ref().is_none_or(|b| (distance, at) < (b.0, b.1)) {
                best = Some((distance, at, name));
            }
        }
    }
    Nearest { cost, best }
}

/// The skill names suggested for `names` (names some subagent's `skills:` lists and no skill
/// has), in turn, with one budget (`Suggestions::best_each` over [`skill_name_index`]), from the
/// spans' answers for each word: a changed name searches its own bucket again, and the
/// chunks that asked run again only when a suggestion changed (searching every name again, for
/// every chunk that lists such a name, was a large part of a rename's time).
#[salsa::tracked(returns(clone))]
pub fn skill_suggestions(
    db: &dyn salsa::Database,
    project: ProjectInput,
    names: Vec<String>,
) -> Arc<Vec<Option<String>>> {
    let spans = suggestion_spans(db, project);
    let budget = std::cell::Cell::new(EDIT_BUDGET);
    let exact = |piece: usize, squashed: &str| {
        span_exact_skill(db, spans[piece].clone(), squashed.to_string())
    };
    let nearest = |piece: usize, squashed: &str, _left: usize| {
        span_nearest_skill(db, spans[piece].clone(), squashed.to_string())
    };
    Arc::new(
        names
            .iter()
            .map(|name| search_pieces(name, spans.len(), &budget, &exact, &nearest))
            .collect(),
    )
}

/// The skills whose folder holds a file besides SKILL.md (from the layout alone), in path order:
/// each bucket's ([`bucket_skills_with_files`]), so that a skill file created or deleted looks
/// at its own bucket again, not at every skill's folder.
#[salsa::tracked(returns(clone))]
pub fn skills_with_files(db: &dyn salsa::Database, project: ProjectInput) -> Arc<Vec<SourceFile>> {
    Arc::new(concat_each_bucket(db, project, |db, bucket| {
        bucket_skills_with_files(db, project, bucket)
    }))
}

/// The skills of a bucket whose folder holds a file besides SKILL.md.
#[salsa::tracked(returns(clone))]
pub fn bucket_skills_with_files(
    db: &dyn salsa::Database,
    project: ProjectInput,
    bucket: SourceBucket,
) -> Arc<Vec<SourceFile>> {
    let folders = resource_folders(db, project);
    if folders.is_empty() {
        return Arc::default();
    }
    let places = bucket_places(db, bucket);
    let found = places
        .iter()
        .filter(|place| place.kind == FileKind::Skill && folders.has_files(&place.path));
    Arc::new(found.map(|place| place.file).collect())
}

/// The folders holding a skill resource below them (`snapshot::resource_folders`), owned: from
/// the frame, which a skill file created or deleted leaves as it was (a skill's resources are in
/// it, its SKILL.md's text is not), so that no bucket's [`bucket_skills_with_files`] runs again
/// but the one that changed.
#[salsa::tracked(returns(clone))]
fn resource_folders(
    db: &dyn salsa::Database,
    project: ProjectInput,
) -> Arc<snapshot::ResourceFolders<std::path::PathBuf>> {
    let kinds = frame_kinds(db, project);
    Arc::new(snapshot::resource_folders(&kinds).to_owned_paths())
}

/// The first skill of a bucket that sets `allowed-tools`, and how many of the bucket do.
#[salsa::tracked(returns(clone))]
pub fn bucket_allowed_tools_setters(
    db: &dyn salsa::Database,
    bucket: SourceBucket,
) -> Option<(SourceFile, usize)> {
    let mut setting = bucket
        .sources(db)
        .iter()
        .filter(|file| sets_allowed_tools(db, **file));
    let first = *setting.next()?;
    Some((first, 1 + setting.count()))
}

/// The first skill in path order that sets `allowed-tools`, and how many do.
#[salsa::tracked(returns(clone))]
pub fn allowed_tools_setters(
    db: &dyn salsa::Database,
    project: ProjectInput,
) -> Option<(SourceFile, usize)> {
    let mut found: Option<(SourceFile, usize)> = None;
    for bucket in project.buckets(db).iter() {
        if let Some((first, count)) = bucket_allowed_tools_setters(db, *bucket) {
            found = Some(match found {
                Some((earlier, total)) => (earlier, total + count),
                None => (first, count),
            });
        }
    }
    found
}

/// `SK025`: decided from `allowed_tools_setters`, placed by the first setter's parse alone.
#[salsa::tracked(returns(clone))]
pub fn allowed_tools_note(db: &dyn salsa::Database, project: ProjectInput) -> Option<Diagnostic> {
    let (first, count) = allowed_tools_setters(db, project)?;
    let range = allowed_tools_key(db, first)?;
    Some(
        check::tools::skill_allowed_tools_not_enforced::allowed_tools_note(
            first.path(db),
            range,
            count,
        ),
    )
}

/// The skills of a bucket with keys outside the specification, with those keys.
#[salsa::tracked(returns(clone))]
pub fn bucket_strict_unknown_keys(
    db: &dyn salsa::Database,
    bucket: SourceBucket,
) -> Arc<Vec<(SourceFile, Arc<Vec<check::strict::UnknownKey>>)>> {
    Arc::new(
        bucket
            .sources(db)
            .iter()
            .map(|file| (*file, strict_unknown_keys(db, *file)))
            .filter(|(_, keys)| !keys.is_empty())
            .collect(),
    )
}

/// `ST007`, one warning per key in the workspace (`check::strict::unknown_keys_said_once`), by
/// file: the buckets are in path order, so the first skill that sets a key carries it.
#[salsa::tracked(returns(clone))]
pub fn strict_key_diagnostics(
    db: &dyn salsa::Database,
    project: ProjectInput,
) -> Arc<DiagnosticsByFile> {
    let buckets = each_bucket(db, project, bucket_strict_unknown_keys);
    let found = buckets
        .iter()
        .flat_map(|bucket| bucket.iter())
        .map(|(file, keys)| (file.path(db).as_path(), keys.as_slice()));
    let said = check::strict::unknown_keys_said_once(found);
    Arc::new(by_file_in_check_order(std::iter::once(said.as_slice())))
}
