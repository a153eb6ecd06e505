//! The analysis's tests: after each kind of change, the incremental queries give what a check of
//! the same files gives, and re-run only what read a changed fact.

use super::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::base::{Diagnostic, Env, FileContent, FileEntry, FileSet};
use crate::check::{self, CheckOptions};
use crate::config::Config;
use crate::engine::by_file::sort;
use crate::engine::change::Origin;
use crate::engine::inputs::{SourceBucket, SourceFile};
use crate::engine::layout_rules::layout_diagnostics;
use crate::engine::partition::{
    bucket_ends_after, name_group_of, BUCKET_SIZE, MAX_BUCKET_SIZE, NAME_GROUPS,
};
use crate::engine::skills::{group_neighbours, name_group_loading, SkillsAtRel};
use crate::engine::sources::{parsed, source_diagnostics};
use crate::engine::subagents::{
    chunk_skill_references, group_listed_facts, skill_references, subagent_chunks, subagent_loading,
};
use crate::engine::tools::{
    chunk_tool_lists, configured_diagnostics, tool_references, tools_json_rules,
};
use crate::workspace::skill::SkillDoc;
use crate::workspace::snapshot::Parsed;
use crate::workspace::subagent::SubagentDoc;
use crate::workspace::tools::ToolsDoc;
use crate::workspace::Workspace;

/// A change of one kind, applied alone ([`Analysis::apply_change`]), as the front-ends apply
/// them.
trait ApplyOne {
    fn apply_file(&mut self, path: &Path, entry: Option<&FileEntry>, origin: Origin) -> Applied;
    /// True when the layout changed.
    fn apply_folder(&mut self, dir: &Path, exists: bool) -> bool;
    fn apply_files(&mut self, files: &FileSet);
}

impl ApplyOne for Analysis {
    fn apply_file(&mut self, path: &Path, entry: Option<&FileEntry>, origin: Origin) -> Applied {
        let mut change = Change::new();
        change.set_file(path.to_path_buf(), entry.cloned(), origin);
        self.apply_change(change)
    }

    fn apply_folder(&mut self, dir: &Path, exists: bool) -> bool {
        let mut change = Change::new();
        change.set_folder(dir.to_path_buf(), exists);
        self.apply_change(change).layout
    }

    fn apply_files(&mut self, files: &FileSet) {
        let mut change = Change::new();
        change.set_files(Arc::new(files.clone()));
        self.apply_change(change);
    }
}

const SKILL: &str = "/p/.agentscope/workspace/skills/a/SKILL.md";

fn skill(description: &str) -> String {
    format!("---\nname: a\ndescription: {description}\nallowed-tools: read_file\n---\nBody\n")
}

fn analysis(text: &str) -> (Analysis, FileSet) {
    let mut files = FileSet::new();
    files.insert_dir(PathBuf::from("/p/.agentscope/workspace"));
    files.insert_text(PathBuf::from(SKILL), text);
    (analysis_of(&files), files)
}

/// The analysis of `files` in the project `/p` with the default configuration.
fn analysis_of(files: &FileSet) -> Analysis {
    Analysis::new(
        Arc::new(Config::defaults_for(Path::new("/p"))),
        Arc::new(Vec::new()),
        Arc::new(Env::new()),
        CheckOptions::default(),
        files,
    )
}

fn edit(analysis: &mut Analysis, text: &str) {
    let entry = FileEntry {
        content: FileContent::Text(Arc::from(text)),
        version: Some(text.len() as i32),
    };
    assert!(
        analysis
            .apply_file(Path::new(SKILL), Some(&entry), Origin::Buffer)
            .source_texts_only
    );
}

/// Every diagnostic of the analysis, in check order.
fn all_diagnostics(analysis: &Analysis) -> Vec<Diagnostic> {
    let handle = analysis.handle();
    let mut out: Vec<Diagnostic> = handle.workspace_diagnostics().iter().cloned().collect();
    for (_, file) in handle.sources() {
        out.extend(handle.source_diagnostics(file).iter().cloned());
    }
    sort(&mut out);
    out
}

/// What `agentws check` finds in the same files.
fn checked(files: &FileSet) -> Vec<Diagnostic> {
    let workspace = Workspace::build(
        Arc::new(Config::defaults_for(Path::new("/p"))),
        Vec::new(),
        Arc::new(files.clone()),
        Arc::new(Env::new()),
        None,
    );
    crate::engine::batch::check_workspace(&workspace, CheckOptions::default()).diagnostics
}

/// Several buckets of sources: the whole-project queries see all of them, in path order,
/// also after an edit inside one bucket and after a deletion that shifts every bucket.
#[test]
fn sources_in_many_buckets_give_what_check_gives() {
    let dir = "/p/.agentscope/workspace/skills";
    let mut files = FileSet::new();
    files.insert_dir(PathBuf::from("/p/.agentscope/workspace"));
    let count = BUCKET_SIZE * 2 + 7;
    for i in 0..count {
        // Two skills named alike in different buckets, and an `allowed-tools` setter late.
        let name = if i == count - 1 {
            "s1".to_string()
        } else {
            format!("s{i}")
        };
        let extra = if i > BUCKET_SIZE {
            "allowed-tools: read_file\n"
        } else {
            ""
        };
        files.insert_text(
            PathBuf::from(format!("{dir}/s{i:03}/SKILL.md")),
            &format!("---\nname: {name}\ndescription: d\n{extra}---\nBody\n"),
        );
    }
    let mut analysis = analysis_of(&files);
    let expected = checked(&files);
    assert!(expected.iter().any(|d| d.code == "SK025"), "{expected:?}");
    assert!(analysis.project.buckets(&analysis.db).len() > 2);
    assert_eq!(all_diagnostics(&analysis), expected);

    let edited = PathBuf::from(format!("{dir}/s150/SKILL.md"));
    files.insert_text(edited.clone(), "---\nname: s2\ndescription: d\n---\nBody\n");
    let entry = files.get(&edited).unwrap().clone();
    assert!(
        analysis
            .apply_file(&edited, Some(&entry), Origin::Buffer)
            .source_texts_only
    );
    assert_eq!(all_diagnostics(&analysis), checked(&files));

    files.remove(Path::new(&format!("{dir}/s000/SKILL.md")));
    analysis.apply_files(&files);
    assert_eq!(all_diagnostics(&analysis), checked(&files));
}

/// The skills folder of 2 000 skills `s0000` to `s1999`, and their files.
fn two_thousand_skills() -> (&'static str, FileSet) {
    let dir = "/p/.agentscope/workspace/skills";
    let mut files = FileSet::new();
    files.insert_dir(PathBuf::from("/p/.agentscope/workspace"));
    for i in 0..2000 {
        files.insert_text(
            PathBuf::from(format!("{dir}/s{i:04}/SKILL.md")),
            &format!("---\nname: s{i}\ndescription: d\n---\nBody\n"),
        );
    }
    (dir, files)
}

/// A skill created in the middle of the project changes one or two buckets; the others keep
/// their inputs and their sources, so their queries are not run again.
#[test]
fn a_created_source_changes_one_or_two_buckets() {
    let (dir, mut files) = two_thousand_skills();
    let mut analysis = analysis_of(&files);
    let buckets = |analysis: &Analysis| -> Vec<(SourceBucket, Vec<SourceFile>)> {
        let db = &analysis.db;
        let list = analysis.project.buckets(db);
        list.iter().map(|b| (*b, b.sources(db).to_vec())).collect()
    };
    let before = buckets(&analysis);
    assert!(before.len() > 8, "{}", before.len());
    files.insert_text(
        PathBuf::from(format!("{dir}/s1000a/SKILL.md")),
        "---\nname: new\ndescription: d\n---\nBody\n",
    );
    analysis.apply_files(&files);
    let after = buckets(&analysis);
    let changed = after.iter().filter(|b| !before.contains(b)).count();
    assert!(
        (1..=2).contains(&changed),
        "{changed} of {} buckets",
        after.len()
    );
    assert_eq!(all_diagnostics(&analysis), checked(&files));
}

/// Files created and deleted across every bucket, one at a time: at most
/// `MAX_UNSETTLED_BUCKETS` buckets are `MEDIUM` at any time (each created file verifies
/// those edge by edge), every other bucket is a settled one, and the diagnostics stay those
/// of a whole check.
#[test]
fn buckets_changed_long_ago_are_settled_again() {
    let (_, mut files) = two_thousand_skills();
    let mut analysis = analysis_of(&files);
    let lasts: Vec<PathBuf> = {
        let db = &analysis.db;
        let buckets = analysis.project.buckets(db).iter();
        buckets
            .filter_map(|b| Some(b.sources(db).last()?.path(db).clone()))
            .collect()
    };
    assert!(lasts.len() > 2 * MAX_UNSETTLED_BUCKETS, "{}", lasts.len());
    for last in &lasts {
        // Right after the bucket's last skill: the start of the next bucket.
        let folder = last.parent().unwrap().to_str().unwrap();
        let created = PathBuf::from(format!("{folder}a/SKILL.md"));
        files.insert_text(created.clone(), "---\nname: new\ndescription: d\n---\n");
        assert!(
            analysis
                .apply_file(&created, files.get(&created), Origin::Disk)
                .layout
        );
        let db = &analysis.db;
        let listed = analysis.project.buckets(db);
        let unsettled: Vec<_> = listed
            .iter()
            .filter(|b| !analysis.settled_buckets.contains(b))
            .collect();
        assert!(
            unsettled.len() <= MAX_UNSETTLED_BUCKETS,
            "{} unsettled",
            unsettled.len()
        );
        let known = |b: &&SourceBucket| analysis.unsettled_buckets.contains(b);
        assert!(unsettled.iter().all(known));
    }
    assert_eq!(all_diagnostics(&analysis), checked(&files));
    for last in &lasts {
        let folder = last.parent().unwrap().to_str().unwrap();
        let created = PathBuf::from(format!("{folder}a/SKILL.md"));
        files.remove(&created);
        assert!(analysis.apply_file(&created, None, Origin::Disk).layout);
    }
    assert_eq!(all_diagnostics(&analysis), checked(&files));
}

/// Skills whose paths end no bucket, for a run longer than `MAX_BUCKET_SIZE`, and a few that
/// do: the two ways a bucket ends.
fn bucket_cutting_skills() -> Vec<PathBuf> {
    let dir = "/p/.agentscope/workspace/skills";
    let path = |i: usize| PathBuf::from(format!("{dir}/s{i:05}/SKILL.md"));
    let mut run: Vec<PathBuf> = (0..)
        .map(path)
        .filter(|p| !bucket_ends_after(p))
        .take(MAX_BUCKET_SIZE + 200)
        .collect();
    // After the run in path order, among a few that do not end one.
    let path = |i: usize| PathBuf::from(format!("{dir}/t{i:05}/SKILL.md"));
    run.extend((0..).map(path).filter(|p| bucket_ends_after(p)).take(3));
    run.extend((0..).map(path).filter(|p| !bucket_ends_after(p)).take(3));
    run.sort();
    run
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config::with_cases(24))]
    /// After each source created or deleted alone, the buckets hold the sources a cut of them
    /// all gives (the cut only around the change meets the old one again where it should),
    /// every listed bucket is settled or among the few unsettled ones, and no other is.
    #[test]
    fn buckets_cut_around_a_change_are_those_of_a_whole_cut(
        present in proptest::collection::vec(proptest::bool::weighted(0.9), MAX_BUCKET_SIZE + 206),
        steps in proptest::collection::vec(0..MAX_BUCKET_SIZE + 206, 1..24),
    ) {
        let paths = bucket_cutting_skills();
        let text = "---\nname: s\ndescription: d\n---\n";
        let mut files = FileSet::new();
        files.insert_dir(PathBuf::from("/p/.agentscope/workspace"));
        for (path, _) in paths.iter().zip(&present).filter(|(_, here)| **here) {
            files.insert_text(path.clone(), text);
        }
        let mut analysis = analysis_of(&files);
        for step in steps {
            let path = &paths[step];
            if files.get(path).is_some() {
                files.remove(path);
            } else {
                files.insert_text(path.clone(), text);
            }
            analysis.apply_file(path, files.get(path), Origin::Disk);
            let db = &analysis.db;
            let listed = analysis.project.buckets(db);
            let paths_of = |sources: &[SourceFile]| -> Vec<PathBuf> {
                sources.iter().map(|file| file.path(db).clone()).collect()
            };
            let held: Vec<_> = listed.iter().map(|b| paths_of(b.sources(db))).collect();
            let whole = analysis.cut_buckets(&[], None).1;
            let whole: Vec<_> = whole.iter().map(|chunk| paths_of(chunk)).collect();
            proptest::prop_assert_eq!(held, whole);
            for bucket in listed.iter() {
                let settled = analysis.settled_buckets.contains(bucket);
                let unsettled = analysis.unsettled_buckets.contains(bucket);
                proptest::prop_assert!(settled != unsettled);
            }
            proptest::prop_assert!(analysis.settled_buckets.iter().all(|b| listed.contains(b)));
            proptest::prop_assert!(analysis.unsettled_buckets.len() <= MAX_UNSETTLED_BUCKETS);
        }
    }
}

/// How many of a query's memoised results were computed again: they are new allocations.
fn ran_again<T>(before: &[Arc<T>], after: &[Arc<T>]) -> usize {
    before
        .iter()
        .zip(after)
        .filter(|(a, b)| !Arc::ptr_eq(a, b))
        .count()
}

/// Each name group's loading, group by group.
fn group_loading(analysis: &Analysis) -> Vec<Arc<check::SkillLoading>> {
    (0..NAME_GROUPS)
        .map(|group| name_group_loading(&analysis.db, analysis.project, group))
        .collect()
}

/// Opening a file makes its text an editor's (`LOW` instead of `HIGH`): only its own name
/// group's loading runs again (its member is a new input: [`Analysis::put_buffer_input`]),
/// as no aggregate over the buckets loses durability.
#[test]
fn the_first_buffer_of_a_disk_file_runs_only_its_group_again() {
    let ws = "/p/.agentscope/workspace";
    let mut files = FileSet::new();
    for i in 0..300 {
        files.insert_text(
            PathBuf::from(format!("{ws}/skills/s{i:03}/SKILL.md")),
            &format!("---\nname: s{i}\ndescription: d\n---\nBody\n"),
        );
    }
    let mut analysis = analysis_of(&files);
    let before = group_loading(&analysis);
    let opened = PathBuf::from(format!("{ws}/skills/s007/SKILL.md"));
    // The disk's text, now with the editor's version.
    let entry = FileEntry {
        version: Some(0),
        ..files.get(&opened).unwrap().clone()
    };
    assert!(
        analysis
            .apply_file(&opened, Some(&entry), Origin::Buffer)
            .source_texts_only
    );
    assert_eq!(ran_again(&before, &group_loading(&analysis)), 1);
    assert_eq!(all_diagnostics(&analysis), checked(&files));
}

/// The tools.json rules read, of the subagents, only the ids and places of those that
/// register the built-ins again (TJ029): editing a subagent with a shared workspace, or the
/// lists and text of an isolated one, leaves them as they were; making an isolated one
/// primary, or a subagent isolated, runs them again. After each step the diagnostics are a fresh
/// check's, and TJ029 names the subagents it should.
#[test]
fn tools_json_rules_read_only_the_subagents_registering_builtins() {
    let ws = "/p/.agentscope/workspace";
    let mut files = FileSet::new();
    files.insert_text(
        PathBuf::from(format!("{ws}/tools.json")),
        r#"{"deny": ["execute"]}"#,
    );
    let spec = |description: &str, extra: &str| {
        format!("---\ndescription: {description}\n{extra}---\nHelps.\n")
    };
    let shared = PathBuf::from(format!("{ws}/subagents/shared.md"));
    let isolated = PathBuf::from(format!("{ws}/subagents/isolated.md"));
    let shared_mode = "workspace:\n  mode: shared\n";
    files.insert_text(shared.clone(), &spec("a", shared_mode));
    files.insert_text(isolated.clone(), &spec("b", ""));
    let mut analysis = analysis_of(&files);
    let mut step = |analysis: &mut Analysis, path: &Path, text: &str| {
        let before = tools_json_rules(&analysis.db, analysis.project);
        files.insert_text(path.to_path_buf(), text);
        analysis.apply_file(path, files.get(path), Origin::Disk);
        let diagnostics = all_diagnostics(analysis);
        assert_eq!(diagnostics, checked(&files));
        let after = tools_json_rules(&analysis.db, analysis.project);
        let tj029: Vec<String> = diagnostics
            .into_iter()
            .filter(|d| d.code == "TJ029")
            .map(|d| d.message)
            .collect();
        (!Arc::ptr_eq(&before, &after), tj029)
    };
    let (ran, tj029) = step(&mut analysis, &shared, &spec("a again", shared_mode));
    assert!(!ran, "a shared-workspace subagent's edit");
    assert_eq!(tj029.len(), 1);
    assert!(
        tj029[0].contains("subagent `isolated` is isolated"),
        "{tj029:?}"
    );
    let (ran, _) = step(
        &mut analysis,
        &isolated,
        &spec("b again", "tools: [grep_files]\n"),
    );
    assert!(!ran, "an isolated subagent's description and tools edited");
    let (ran, tj029) = step(&mut analysis, &isolated, &spec("b", "mode: primary\n"));
    assert!(ran, "an isolated subagent made primary");
    assert_eq!(tj029, Vec::<String>::new());
    let (ran, tj029) = step(&mut analysis, &shared, &spec("a", ""));
    assert!(ran, "a subagent made isolated");
    assert!(
        tj029[0].contains("subagent `shared` is isolated"),
        "{tj029:?}"
    );
    // One isolated subagent for another in one change: as many, not the same.
    let before = tools_json_rules(&analysis.db, analysis.project);
    let other = PathBuf::from(format!("{ws}/subagents/other.md"));
    files.remove(&shared);
    files.insert_text(other.clone(), &spec("c", ""));
    analysis.apply_file(&shared, None, Origin::Disk);
    analysis.apply_file(&other, files.get(&other), Origin::Disk);
    let diagnostics = all_diagnostics(&analysis);
    assert_eq!(diagnostics, checked(&files));
    let after = tools_json_rules(&analysis.db, analysis.project);
    assert!(!Arc::ptr_eq(&before, &after));
    assert!(
        after
            .iter()
            .any(|d| d.code == "TJ029" && d.message.contains("subagent `other` is isolated")),
        "{after:?}"
    );
}

/// The first buffer of a disk file gets an input of its own (a write would report its change
/// at the `HIGH` durability of the disk's input, so that every file's memos were verified
/// again); later buffers, and the disk's text once the buffer is closed, write that input.
/// After each step the buckets hold the sources a fresh analysis puts in them, and the
/// diagnostics are a fresh check's.
#[test]
fn the_first_buffer_of_a_disk_file_is_an_input_of_its_own() {
    let ws = "/p/.agentscope/workspace";
    let mut files = FileSet::new();
    let skill = |i: usize| PathBuf::from(format!("{ws}/skills/s{i:03}/SKILL.md"));
    for i in 0..300 {
        files.insert_text(
            skill(i),
            &format!("---\nname: s{i}\ndescription: d\n---\nB\n"),
        );
    }
    let subagent = PathBuf::from(format!("{ws}/subagents/helper.md"));
    let spec = "---\nname: helper\ndescription: d\nskills: [s1]\n---\nHelps.\n";
    files.insert_text(subagent.clone(), spec);
    let tools = PathBuf::from(format!("{ws}/tools.json"));
    files.insert_text(tools.clone(), "{\"deny\": []}");
    let mut analysis = analysis_of(&files);
    let input_of = |analysis: &Analysis, path: &Path| {
        (analysis.sources.get(path))
            .or(analysis.tools_files.get(path))
            .copied()
            .unwrap()
    };
    let buckets = |analysis: &Analysis| -> Vec<Vec<PathBuf>> {
        let db = &analysis.db;
        let listed = analysis.project.buckets(db);
        let sources = listed.iter().map(|bucket| bucket.sources(db));
        let paths = sources.map(|list| list.iter().map(|file| file.path(db).clone()));
        paths.map(Iterator::collect).collect()
    };
    // A source that ends its bucket: its input is what the bucket's end is known by.
    let ending = (0..300).map(skill).find(|path| bucket_ends_after(path));
    let edited = [
        (ending.unwrap(), "---\nname: s\ndescription: e\n---\nB\n"),
        (
            subagent,
            "---\nname: helper\ndescription: d\nskills: [s2]\n---\nH\n",
        ),
        (tools, "{\"deny\": [\"read_file\"]}"),
    ];
    for (path, text) in edited {
        let disk = files.get(&path).unwrap().clone();
        let mut step = |analysis: &mut Analysis, entry: &FileEntry, origin: Origin| {
            files.insert(path.clone(), entry.content.clone(), entry.version);
            analysis.apply_file(&path, Some(entry), origin);
            assert_eq!(buckets(analysis), buckets(&analysis_of(&files)));
            assert_eq!(all_diagnostics(analysis), checked(&files));
            input_of(analysis, &path)
        };
        let on_disk = input_of(&analysis, &path);
        let opened = FileEntry {
            version: Some(0),
            ..disk.clone()
        };
        let first = step(&mut analysis, &opened, Origin::Buffer);
        assert!(first != on_disk, "{path:?}");
        let typed = FileEntry {
            content: FileContent::Text(Arc::from(text)),
            version: Some(1),
        };
        assert!(step(&mut analysis, &typed, Origin::Buffer) == first);
        assert!(step(&mut analysis, &disk, Origin::Disk) == first);
    }
}

/// A file appearing, changing or going, set alone (`Change::set_file`), gives the inputs
/// and the diagnostics a whole file set (`Change::set_files`) gives; a SKILL.md created
/// in, or deleted from, a folder that exists leaves the frame as it was and runs the loading
/// of its own name group again, and of no other.
#[test]
fn one_file_set_alone_gives_what_the_whole_file_set_gives() {
    let ws = "/p/.agentscope/workspace";
    let mut files = FileSet::new();
    files.insert_text(PathBuf::from(format!("{ws}/AGENTS.md")), "Persona\n");
    for i in 0..300 {
        files.insert_text(
            PathBuf::from(format!("{ws}/skills/s{i:03}/SKILL.md")),
            &format!("---\nname: s{i}\ndescription: d\n---\nBody\n"),
        );
    }
    files.insert_text(
        PathBuf::from(format!("{ws}/subagents/a.md")),
        "---\nname: a\ndescription: d\nskills: [s1, later]\nworkspace:\n  path: subagents/home\n---\nBody\n",
    );
    // Read as a spec, and as the AGENTS.md of `a`'s `workspace.path` (XR009 asks for it).
    files.insert_text(
        PathBuf::from(format!("{ws}/subagents/home/AGENTS.md")),
        "Home\n",
    );
    files.insert_dir(PathBuf::from(format!("{ws}/skills/later")));
    let mut analysis = analysis_of(&files);
    let same_as_whole = |analysis: &Analysis, files: &FileSet| {
        let whole = analysis_of(files);
        let (db, fresh) = (&analysis.db, &whole.db);
        assert_eq!(**analysis.project.layout(db), **whole.project.layout(fresh));
        assert_eq!(**analysis.project.frame(db), **whole.project.frame(fresh));
        let skill_folders = |a: &Analysis| -> Vec<Arc<std::collections::BTreeSet<PathBuf>>> {
            let groups = a.project.skill_folders(&a.db).iter();
            groups.map(|group| group.folders(&a.db).clone()).collect()
        };
        assert_eq!(skill_folders(analysis), skill_folders(&whole));
        // The neighbours kept file by file, by path (the inputs differ between analyses).
        let neighbours = |a: &Analysis| -> BTreeMap<String, Vec<PathBuf>> {
            let path = |file: &SourceFile| file.path(&a.db).clone();
            let map = a.project.neighbours(&a.db).iter();
            map.map(|(rel, files)| (rel.clone(), files.iter().map(path).collect()))
                .collect()
        };
        assert_eq!(neighbours(analysis), neighbours(&whole));
        assert_eq!(analysis.project.kinds(db), whole.project.kinds(fresh));
        let paths = |a: &Analysis| -> Vec<PathBuf> {
            let listed = a.project.tools_files(&a.db).iter();
            let tools = listed.map(|file| file.path(&a.db).clone());
            a.sources.keys().cloned().chain(tools).collect()
        };
        assert_eq!(paths(analysis), paths(&whole));
        assert_eq!(all_diagnostics(analysis), checked(files));
    };
    let before = group_loading(&analysis);
    let frame = analysis.project.frame(&analysis.db).clone();

    let created = PathBuf::from(format!("{ws}/skills/later/SKILL.md"));
    files.insert_text(created.clone(), "---\nname: later\n---\nNo description.\n");
    assert!(
        analysis
            .apply_file(&created, files.get(&created), Origin::Disk)
            .layout
    );
    assert!(Arc::ptr_eq(&frame, analysis.project.frame(&analysis.db)));
    let after = group_loading(&analysis);
    assert_eq!(ran_again(&before, &after), 1);
    same_as_whole(&analysis, &files);

    files.remove(&created);
    assert!(analysis.apply_file(&created, None, Origin::Disk).layout);
    assert!(Arc::ptr_eq(&frame, analysis.project.frame(&analysis.db)));
    assert_eq!(ran_again(&after, &group_loading(&analysis)), 1);
    same_as_whole(&analysis, &files);

    // A user's override of a skill, and a skill nested in another, each created and deleted:
    // the paths they share or enclose become neighbours, and stop being so.
    let nested = PathBuf::from(format!("{ws}/skills/s002/extra/SKILL.md"));
    let overriding = PathBuf::from(format!("{ws}/alice/skills/s001/SKILL.md"));
    for path in [&nested, &overriding, &nested, &overriding] {
        if files.get(path).is_some() {
            files.remove(path);
            assert!(analysis.apply_file(path, None, Origin::Disk).layout);
        } else {
            files.insert_text(path.clone(), "---\nname: s1\ndescription: d\n---\n");
            assert!(
                analysis
                    .apply_file(path, files.get(path), Origin::Disk)
                    .layout
            );
        }
        // One path each: `skills/s002/SKILL.md`, `skills/s001/SKILL.md`.
        let present = [&nested, &overriding];
        let present = present.iter().filter(|p| files.get(p).is_some()).count();
        assert_eq!(analysis.project.neighbours(&analysis.db).len(), present);
        same_as_whole(&analysis, &files);
    }

    // A skill in a folder of its own, its text too large to read, then readable again.
    let fresh = PathBuf::from(format!("{ws}/skills/fresh/SKILL.md"));
    files.insert(fresh.clone(), FileContent::TooLarge { size: 1 << 30 }, None);
    assert!(
        analysis
            .apply_file(&fresh, files.get(&fresh), Origin::Disk)
            .layout
    );
    same_as_whole(&analysis, &files);
    files.insert_text(fresh.clone(), "---\nname: fresh\ndescription: d\n---\n");
    assert!(
        analysis
            .apply_file(&fresh, files.get(&fresh), Origin::Disk)
            .layout
    );
    same_as_whole(&analysis, &files);

    // A skill created with its folder, as a watcher reports it (the folder, then the file),
    // and deleted with it: the frame stays as it was, one group's loading runs again.
    let frame = analysis.project.frame(&analysis.db).clone();
    let before = group_loading(&analysis);
    let folder = PathBuf::from(format!("{ws}/skills/new-one"));
    let created = folder.join("SKILL.md");
    files.insert_text(
        created.clone(),
        "---\nname: new-one\n---\nNo description.\n",
    );
    assert!(analysis.apply_folder(&folder, true));
    assert!(
        analysis
            .apply_file(&created, files.get(&created), Origin::Disk)
            .layout
    );
    assert!(Arc::ptr_eq(&frame, analysis.project.frame(&analysis.db)));
    assert_eq!(ran_again(&before, &group_loading(&analysis)), 1);
    same_as_whole(&analysis, &files);
    // A skill whose name is not its folder's asks whether the folder its name gives exists
    // (SK016): a folder of another name of that name group runs no group's loading again,
    // the folder its name gives runs the group's.
    let misnamed = PathBuf::from(format!("{ws}/skills/misnamed/SKILL.md"));
    files.insert_text(misnamed.clone(), "---\nname: wanted\ndescription: d\n---\n");
    assert!(
        analysis
            .apply_file(&misnamed, files.get(&misnamed), Origin::Disk)
            .layout
    );
    same_as_whole(&analysis, &files);
    let group = name_group_of("wanted");
    let sibling = (0..)
        .map(|i| format!("sibling-{i}"))
        .find(|name| name_group_of(name) == group)
        .expect("some name falls in the group");
    for name in [sibling.as_str(), "wanted"] {
        let folder = PathBuf::from(format!("{ws}/skills/{name}"));
        let before = group_loading(&analysis);
        files.insert_dir(folder.clone());
        assert!(analysis.apply_folder(&folder, true));
        same_as_whole(&analysis, &files);
        let runs = ran_again(&before, &group_loading(&analysis));
        assert_eq!(runs, usize::from(name == "wanted"), "{name}");
        files.remove_dirs_from(&folder);
        assert!(analysis.apply_folder(&folder, false));
        same_as_whole(&analysis, &files);
    }
    files.remove(&misnamed);
    assert!(analysis.apply_file(&misnamed, None, Origin::Disk).layout);
    same_as_whole(&analysis, &files);
    // Something else in it puts the folder in the frame; taking it away takes it out.
    let script = folder.join("scripts/run.py");
    files.insert(script.clone(), FileContent::NotLoaded, None);
    assert!(analysis.apply_folder(&folder.join("scripts"), true));
    assert!(
        analysis
            .apply_file(&script, files.get(&script), Origin::Disk)
            .layout
    );
    same_as_whole(&analysis, &files);
    files.remove(&script);
    assert!(analysis.apply_file(&script, None, Origin::Disk).layout);
    same_as_whole(&analysis, &files);
    files.remove_dirs_from(&folder.join("scripts"));
    assert!(analysis.apply_folder(&folder.join("scripts"), false));
    same_as_whole(&analysis, &files);
    let notes = folder.join("notes.txt");
    files.insert(notes.clone(), FileContent::NotLoaded, None);
    assert!(
        analysis
            .apply_file(&notes, files.get(&notes), Origin::Disk)
            .layout
    );
    same_as_whole(&analysis, &files);
    files.remove(&notes);
    assert!(analysis.apply_file(&notes, None, Origin::Disk).layout);
    same_as_whole(&analysis, &files);
    files.remove(&created);
    files.remove_dirs_from(&folder);
    assert!(analysis.apply_file(&created, None, Origin::Disk).layout);
    assert!(analysis.apply_folder(&folder, false));
    same_as_whole(&analysis, &files);
    // The whole skills folder deleted, then made again.
    let skills = PathBuf::from(format!("{ws}/skills"));
    let under: Vec<PathBuf> = files.files_under(&skills).map(|(p, _)| p.clone()).collect();
    for path in &under {
        files.remove(path);
        analysis.apply_file(path, None, Origin::Disk);
    }
    files.remove_dirs_from(&skills);
    assert!(analysis.apply_folder(&skills, false));
    same_as_whole(&analysis, &files);
    let first = skills.join("first/SKILL.md");
    files.insert_text(
        first.clone(),
        "---\nname: first\ndescription: d\n---\nBody\n",
    );
    assert!(
        analysis
            .apply_file(&first, files.get(&first), Origin::Disk)
            .layout
    );
    same_as_whole(&analysis, &files);

    // Files of other kinds: the persona edited, a knowledge file and a tools.json created,
    // the tools.json edited (its own input) and deleted.
    let agents = PathBuf::from(format!("{ws}/AGENTS.md"));
    files.insert_text(agents.clone(), "Another persona\n");
    assert!(
        analysis
            .apply_file(&agents, files.get(&agents), Origin::Buffer)
            .layout
    );
    same_as_whole(&analysis, &files);
    let knowledge = PathBuf::from(format!("{ws}/knowledge/notes.md"));
    files.insert(knowledge.clone(), FileContent::NotLoaded, None);
    assert!(
        analysis
            .apply_file(&knowledge, files.get(&knowledge), Origin::Disk)
            .layout
    );
    same_as_whole(&analysis, &files);
    let tools = PathBuf::from(format!("{ws}/tools.json"));
    files.insert_text(tools.clone(), r#"{"deny": ["grep_files"]}"#);
    assert!(
        analysis
            .apply_file(&tools, files.get(&tools), Origin::Disk)
            .layout
    );
    same_as_whole(&analysis, &files);
    files.insert_text(tools.clone(), r#"{"deny": ["read_file"],}"#);
    assert!(
        !analysis
            .apply_file(&tools, files.get(&tools), Origin::Buffer)
            .layout
    );
    same_as_whole(&analysis, &files);
    files.remove(&tools);
    assert!(analysis.apply_file(&tools, None, Origin::Disk).layout);
    same_as_whole(&analysis, &files);
}

/// The rules over what `skills:` and `tools:` entries name run per chunk of subagents:
/// editing one subagent's lists runs its chunk's again and no other, renaming a skill that no
/// subagent lists runs none, and renaming a listed one runs the chunks that list it; each time
/// the diagnostics equal a fresh check, the findings merged across chunks (one warning per
/// repeated unknown tool list, `XR003` once) included.
#[test]
fn subagent_rules_run_again_only_for_the_chunks_that_read_a_change() {
    let ws = "/p/.agentscope/workspace";
    let mut files = FileSet::new();
    files.insert_dir(PathBuf::from(ws));
    let skill = |i: usize| format!("---\nname: s{i}\ndescription: d\n---\nBody\n");
    let spec = |listed: &str, tools: &str| {
        format!("---\ndescription: d\nskills: [{listed}]\ntools: [{tools}]\n---\nHelp.\n")
    };
    let tools_of = |i: usize| ["no_such_tool", "read_file", "grep_files"][i % 3];
    for i in 0..600 {
        files.insert_text(
            PathBuf::from(format!("{ws}/skills/s{i:04}/SKILL.md")),
            &skill(i),
        );
    }
    for i in 0..600 {
        let listed = format!("s{}, s{}", i % 7, 100 + i % 5);
        files.insert_text(
            PathBuf::from(format!("{ws}/subagents/a{i:04}.md")),
            &spec(&listed, tools_of(i)),
        );
    }
    let mut analysis = analysis_of(&files);
    let mut set = |analysis: &mut Analysis, path: String, text: String| {
        let path = PathBuf::from(path);
        files.insert_text(path.clone(), &text);
        let entry = files.get(&path).unwrap().clone();
        assert!(
            analysis
                .apply_file(&path, Some(&entry), Origin::Buffer)
                .source_texts_only
        );
        assert_eq!(all_diagnostics(analysis), checked(&files));
    };
    /// Each chunk's memoised results, chunk by chunk.
    struct Chunks {
        references: Vec<Arc<Vec<Diagnostic>>>,
        tool_lists: Vec<Arc<check::cross::ToolListFindings>>,
    }
    let results = |analysis: &Analysis| -> Chunks {
        let (db, project) = (&analysis.db, analysis.project);
        let buckets = project.buckets(db).clone();
        let chunks =
            |bucket: SourceBucket| subagent_chunks(db, bucket).map(move |chunk| (bucket, chunk));
        let all: Vec<_> = buckets.iter().flat_map(|bucket| chunks(*bucket)).collect();
        Chunks {
            references: all
                .iter()
                .map(|(bucket, chunk)| chunk_skill_references(db, project, *bucket, *chunk))
                .collect(),
            tool_lists: all
                .iter()
                .map(|(bucket, chunk)| chunk_tool_lists(db, project, *bucket, *chunk))
                .collect(),
        }
    };
    let subagent = format!("{ws}/subagents/a0300.md");
    // The first edit of a buffer lowers its durability, which salsa does not backdate over
    // (the same text would set nothing).
    set(
        &mut analysis,
        subagent.clone(),
        spec("s6,  s100", tools_of(300)),
    );
    set(
        &mut analysis,
        format!("{ws}/skills/s0500/SKILL.md"),
        skill(500).replace("Body", "B"),
    );
    set(
        &mut analysis,
        format!("{ws}/skills/s0003/SKILL.md"),
        skill(3).replace("Body", "B"),
    );
    let before = results(&analysis);
    assert!(
        before.references.len() > 30,
        "{} chunks",
        before.references.len()
    );

    set(
        &mut analysis,
        format!("{ws}/skills/s0500/SKILL.md"),
        skill(500).replace("s500", "t500"),
    );
    assert_eq!(
        ran_again(&before.references, &results(&analysis).references),
        0
    );

    // A name no subagent listed before (from here on, that chunk also reads every name, to
    // suggest one).
    set(
        &mut analysis,
        subagent.clone(),
        spec("s6, no-such-skill", tools_of(300)),
    );
    let after = results(&analysis);
    assert_eq!(ran_again(&before.references, &after.references), 1);
    assert!(ran_again(&before.tool_lists, &after.tool_lists) <= 1);
    assert!(after
        .references
        .iter()
        .any(|found| found.iter().any(|d| d.code == "XR004")));

    // A rename that changes no suggestion runs no chunk again, not even the one that asks for
    // one: it reads the suggestions for its names, not every name.
    let before = results(&analysis);
    set(
        &mut analysis,
        format!("{ws}/skills/s0500/SKILL.md"),
        skill(500).replace("s500", "u500"),
    );
    assert_eq!(
        ran_again(&before.references, &results(&analysis).references),
        0
    );

    // Its `tools:` list now names the first subagent's unknown tool and another.
    let before = results(&analysis);
    set(
        &mut analysis,
        subagent,
        spec("s6, no-such-skill", "no_such_tool, other_tool"),
    );
    let after = results(&analysis);
    assert_eq!(ran_again(&before.tool_lists, &after.tool_lists), 1);
    assert!(ran_again(&before.references, &after.references) <= 1);

    let before = results(&analysis);
    set(
        &mut analysis,
        format!("{ws}/skills/s0003/SKILL.md"),
        skill(3).replace("s3", "t3"),
    );
    let listing = ran_again(&before.references, &results(&analysis).references);
    assert!(
        (1..before.references.len()).contains(&listing),
        "{listing} of {}",
        before.references.len()
    );
}

/// The neighbours a skill's loading reads (its path in another tree, the SKILL.md enclosing
/// it) created and deleted one file at a time: each step's diagnostics are a fresh check's,
/// and the enclosing SKILL.md changes the nested skill's outcome while it exists. A skill at
/// a path of its own runs again the neighbours of its own group only.
#[test]
fn neighbours_created_and_deleted_give_what_check_gives() {
    let ws = "/p/.agentscope/workspace";
    let mut files = FileSet::new();
    files.insert_dir(PathBuf::from(ws));
    let skill = |name: &str| format!("---\nname: {name}\ndescription: d\n---\nBody\n");
    let nested = PathBuf::from(format!("{ws}/skills/a/sub/SKILL.md"));
    files.insert_text(nested.clone(), &skill("sub"));
    files.insert_text(
        PathBuf::from(format!("{ws}/skills/b/SKILL.md")),
        &skill("b"),
    );
    files.insert_dir(PathBuf::from(format!("{ws}/alice/skills/b")));
    let mut analysis = analysis_of(&files);
    let neighbours = |analysis: &Analysis| -> Vec<Arc<SkillsAtRel>> {
        (0..NAME_GROUPS)
            .map(|group| group_neighbours(&analysis.db, analysis.project, group))
            .collect()
    };
    let of_nested = |analysis: &Analysis| -> Vec<Diagnostic> {
        let all = all_diagnostics(analysis);
        all.into_iter().filter(|d| d.path == nested).collect()
    };
    let mut step = |analysis: &mut Analysis, path: &str, text: Option<String>| {
        let path = PathBuf::from(format!("{ws}/{path}"));
        match &text {
            Some(text) => files.insert_text(path.clone(), text),
            None => {
                files.remove(&path);
            }
        }
        assert!(
            analysis
                .apply_file(&path, files.get(&path), Origin::Disk)
                .layout
        );
        assert_eq!(all_diagnostics(analysis), checked(&files));
    };
    let alone = of_nested(&analysis);

    let before = neighbours(&analysis);
    step(&mut analysis, "skills/c/SKILL.md", Some(skill("c")));
    let after = neighbours(&analysis);
    // Only the new skill's own group, whose members changed.
    assert_eq!(ran_again(&before, &after), 1);

    step(&mut analysis, "skills/a/SKILL.md", Some(skill("a")));
    assert_ne!(of_nested(&analysis), alone, "the enclosing skill is read");
    step(&mut analysis, "alice/skills/b/SKILL.md", Some(skill("b")));
    step(&mut analysis, "skills/a/SKILL.md", None);
    assert_eq!(of_nested(&analysis), alone);
    step(&mut analysis, "alice/skills/b/SKILL.md", None);
    step(&mut analysis, "skills/c/SKILL.md", None);
}

/// A `skills:` entry naming no skill: the listed facts leave it out, so changing it to
/// another such name changes no group's listed facts; once a skill takes the name, the
/// chunk that lists it reads that skill, and each step's diagnostics are a fresh check's.
#[test]
fn a_name_no_skill_has_is_left_out_until_a_skill_takes_it() {
    let ws = "/p/.agentscope/workspace";
    let mut files = FileSet::new();
    files.insert_dir(PathBuf::from(ws));
    let skill = |name: &str| format!("---\nname: {name}\ndescription: d\n---\nBody\n");
    let helper = |listed: &str| {
        format!("---\nname: helper\ndescription: d\nskills: [pdf, {listed}]\n---\nHelps.\n")
    };
    let subagent = PathBuf::from(format!("{ws}/subagents/helper.md"));
    files.insert_text(
        PathBuf::from(format!("{ws}/skills/pdf/SKILL.md")),
        &skill("pdf"),
    );
    files.insert_text(subagent.clone(), &helper("ghost"));
    let mut analysis = analysis_of(&files);
    assert_eq!(all_diagnostics(&analysis), checked(&files));
    let mut step = |analysis: &mut Analysis, path: &Path, text: &str| {
        files.insert_text(path.to_path_buf(), text);
        analysis.apply_file(path, files.get(path), Origin::Disk);
        assert_eq!(all_diagnostics(analysis), checked(&files));
    };
    let listed = |analysis: &Analysis, name: &str| -> Vec<String> {
        let group = name_group_of(name);
        group_listed_facts(&analysis.db, analysis.project, group)
            .0
            .iter()
            .map(|listed| listed.key.name.to_string())
            .collect()
    };
    let naming = |analysis: &Analysis, name: &str| {
        all_diagnostics(analysis)
            .into_iter()
            .filter(|d| d.path == subagent && d.message.contains(&format!("`{name}`")))
            .count()
    };
    assert!(naming(&analysis, "ghost") > 0, "the entry names no skill");
    assert!(!listed(&analysis, "ghost").contains(&"ghost".to_string()));

    step(&mut analysis, &subagent, &helper("phantom"));
    assert!(naming(&analysis, "phantom") > 0);
    assert!(!listed(&analysis, "phantom").contains(&"phantom".to_string()));

    let taken = PathBuf::from(format!("{ws}/skills/phantom/SKILL.md"));
    step(&mut analysis, &taken, &skill("phantom"));
    assert_eq!(naming(&analysis, "phantom"), 0, "a skill has the name now");
    assert!(listed(&analysis, "phantom").contains(&"phantom".to_string()));

    step(&mut analysis, &taken, &skill("other"));
    assert!(naming(&analysis, "phantom") > 0, "the name is free again");
    assert!(!listed(&analysis, "phantom").contains(&"phantom".to_string()));
}

/// A tools.json edit sets that file's own input: the layout and every file's placement stay
/// as they were, and the diagnostics follow the new lists as `check` finds them.
#[test]
fn a_tools_json_edit_sets_its_own_input_and_gives_what_check_gives() {
    let tools = PathBuf::from("/p/.agentscope/workspace/tools.json");
    let (mut analysis, mut files) = analysis(&skill("Reads with `read_file`."));
    files.insert_text(tools.clone(), "{\"deny\": []}");
    analysis.apply_files(&files);
    assert_eq!(all_diagnostics(&analysis), checked(&files));
    let kinds_before = analysis.project.kinds(&analysis.db).clone();
    let skill_file = analysis.source(Path::new(SKILL)).unwrap();
    let own_before = source_diagnostics(&analysis.db, skill_file);
    let layout_before = layout_diagnostics(&analysis.db, analysis.project);
    let skill_references_before = skill_references(&analysis.db, analysis.project);

    files.insert_text(tools.clone(), "{\"deny\": [\"read_file\"]}");
    let entry = files.get(&tools).unwrap().clone();
    // Neither a source's text nor the layout: the tools.json's own input.
    let applied = analysis.apply_file(&tools, Some(&entry), Origin::Buffer);
    assert!(!applied.source_texts_only && !applied.layout);
    assert!(Arc::ptr_eq(
        &kinds_before,
        &analysis.project.kinds(&analysis.db).clone()
    ));
    let found = all_diagnostics(&analysis);
    assert!(found.iter().any(|d| d.code == "XR010"), "{found:?}");
    assert_eq!(found, checked(&files));
    // The skill's own rules and the layout's did not run again: neither reads the catalog.
    let own_after = source_diagnostics(&analysis.db, skill_file);
    assert!(Arc::ptr_eq(&own_before, &own_after));
    let layout_after = layout_diagnostics(&analysis.db, analysis.project);
    assert!(Arc::ptr_eq(&layout_before, &layout_after));
    // Nor did the rules over what subagents' `skills:` name: they resolve the contexts.
    let skill_references_after = skill_references(&analysis.db, analysis.project);
    assert!(Arc::ptr_eq(
        &skill_references_before,
        &skill_references_after
    ));
}

/// A subagent's `tools:`, `skills:` and `model:` are read by the reference rules alone: an
/// edit of them runs those again and leaves the subagents' loading outcomes as they were,
/// while a subagent dropped by another edit changes them; both equal a fresh check.
#[test]
fn a_subagent_lists_edit_leaves_the_subagents_loading_memoised() {
    let spec = PathBuf::from("/p/.agentscope/workspace/subagents/helper.md");
    let text = |lists: &str| format!("---\ndescription: Helps.\n{lists}---\nYou help.\n");
    let (mut analysis, mut files) = analysis(&skill("d"));
    files.insert_text(spec.clone(), &text("tools: [read_file]\nskills: [a]\n"));
    analysis.apply_files(&files);
    let set = |analysis: &mut Analysis, files: &mut FileSet, body: &str| {
        files.insert_text(spec.clone(), body);
        let entry = files.get(&spec).unwrap().clone();
        assert!(
            analysis
                .apply_file(&spec, Some(&entry), Origin::Buffer)
                .source_texts_only
        );
    };
    // The first edit of a buffer lowers its durability, which salsa does not backdate over
    // (the same text would set nothing).
    set(
        &mut analysis,
        &mut files,
        &text("tools: [read_file]\nskills: [ a ]\n"),
    );
    let (db, project) = (&analysis.db, analysis.project);
    let (loading, references) = (subagent_loading(db, project), skill_references(db, project));

    let lists = "tools: [no_such_tool]\nskills: [b]\nmodel: gpt-x\n";
    set(&mut analysis, &mut files, &text(lists));
    let (db, project) = (&analysis.db, analysis.project);
    assert!(Arc::ptr_eq(&loading, &subagent_loading(db, project)));
    assert!(!Arc::ptr_eq(&references, &skill_references(db, project)));
    let found = all_diagnostics(&analysis);
    assert!(found.iter().any(|d| d.code == "XR004"), "{found:?}");
    assert_eq!(found, checked(&files));

    set(
        &mut analysis,
        &mut files,
        "---\ntools: [read_file]\n---\nNo description.\n",
    );
    let (db, project) = (&analysis.db, analysis.project);
    assert!(!Arc::ptr_eq(&loading, &subagent_loading(db, project)));
    assert_eq!(all_diagnostics(&analysis), checked(&files));
}

/// A new configuration keeps every parse (they do not read it) and re-runs what reads it.
#[test]
fn a_configuration_change_keeps_the_parses() {
    let (mut analysis, files) = analysis(&skill("d"));
    let file = analysis.source(Path::new(SKILL)).unwrap();
    let Some(Parsed::Skill(before)) = parsed(&analysis.db, file) else {
        panic!("a skill");
    };
    let old = analysis.project.config(&analysis.db).clone();
    let mut config = (*old).clone();
    config.agent.name = Some("renamed".to_string());
    let mut change = Change::new();
    change.set_config(Arc::new(config), Arc::new(Vec::new()));
    change.set_files(Arc::new(files.clone()));
    analysis.apply_change(change);
    let Some(Parsed::Skill(after)) = parsed(&analysis.db, file) else {
        panic!("a skill");
    };
    assert!(Arc::ptr_eq(&before, &after));
    let name = analysis.project.config(&analysis.db).agent.name.clone();
    assert_eq!(name.as_deref(), Some("renamed"));
}

/// The whole-workspace families' memoised results, to tell by pointer which ran again: the
/// layout's and the configured files' rules, the skill and tool reference rules, and the
/// loading of every name group.
type FamilyResults = (
    [Arc<Vec<Diagnostic>>; 2],
    [Arc<Vec<Diagnostic>>; 2],
    Vec<Arc<check::SkillLoading>>,
);

fn family_results(analysis: &Analysis) -> FamilyResults {
    let (db, project) = (&analysis.db, analysis.project);
    (
        [
            layout_diagnostics(db, project),
            configured_diagnostics(db, project),
        ],
        [skill_references(db, project), tool_references(db, project)],
        (0..NAME_GROUPS)
            .map(|group| name_group_loading(db, project, group))
            .collect(),
    )
}

/// Whether each memoised result is the very value it was (its query did not run again).
fn same<T>(before: &[Arc<T>], after: &[Arc<T>]) -> bool {
    before.iter().zip(after).all(|(a, b)| Arc::ptr_eq(a, b))
}

/// A key line added to the frontmatter moves its closing delimiter, which only the preview
/// reads: the facts stay equal, and no whole-workspace rule runs again.
#[test]
fn a_key_line_added_to_the_frontmatter_runs_no_cross_file_rule() {
    let (mut analysis, _) = analysis(&skill("d"));
    edit(&mut analysis, &skill("d"));
    let before = family_results(&analysis);
    edit(&mut analysis, &skill("d\nlicense: MIT"));
    let after = family_results(&analysis);
    assert!(same(&before.0, &after.0));
    assert!(same(&before.1, &after.1));
    assert!(same(&before.2, &after.2));
}

/// A description edit moves the `allowed-tools` key: the note moves with it, and no
/// whole-workspace rule runs again (their memoised results are the same values). A name
/// edit runs the loading of the old and the new name's groups again, and nothing else.
#[test]
fn a_description_edit_moves_the_allowed_tools_note_without_the_cross_file_rules() {
    let (mut analysis, _) = analysis(&skill("short"));
    // The first edit of a buffer lowers its durability, which salsa does not backdate over.
    edit(&mut analysis, &skill("short"));
    let before = family_results(&analysis);
    let note = |analysis: &Analysis| {
        let all = analysis.workspace_diagnostics().to_map();
        let list = &all[Path::new(SKILL)];
        let sk025: Vec<_> = list.iter().filter(|d| d.code == "SK025").collect();
        assert_eq!(sk025.len(), 1, "{list:?}");
        sk025[0].range
    };
    let at = note(&analysis);
    assert_eq!(&skill("short")[at.start..at.end], "allowed-tools", "{at:?}");

    let longer = skill("a much longer description");
    edit(&mut analysis, &longer);
    let after = family_results(&analysis);
    assert!(same(&before.0, &after.0));
    assert!(same(&before.1, &after.1));
    assert!(same(&before.2, &after.2));
    let moved = note(&analysis);
    assert_eq!(
        moved.start,
        at.start + "a much longer description".len() - 5
    );
    assert_eq!(&longer[moved.start..moved.end], "allowed-tools");

    // A name edit is a fact: the groups of `a` and `b` run again, the other groups and
    // families do not.
    edit(&mut analysis, &longer.replace("name: a", "name: b"));
    let renamed = family_results(&analysis);
    assert!(same(&after.0, &renamed.0));
    assert!(same(&after.1, &renamed.1));
    let ran_again: Vec<u32> = (0..NAME_GROUPS)
        .filter(|g| !Arc::ptr_eq(&after.2[*g as usize], &renamed.2[*g as usize]))
        .collect();
    let mut expected = vec![name_group_of("a"), name_group_of("b")];
    expected.sort();
    expected.dedup();
    assert_eq!(ran_again, expected);
}

/// With a context window named, the prompt-size rule renders every caller's prompt: an edit of a
/// skill's body, which no prompt shows, leaves its result memoised (the very value it was); a
/// description edit, which the catalog shows, runs it again.
#[test]
fn a_body_edit_does_not_render_the_prompts_again() {
    let mut config = Config::defaults_for(Path::new("/p"));
    // Written in agentws.toml, where the finding is reported.
    config.file = Some(PathBuf::from("/p/agentws.toml"));
    config.agent.context_window = Some((100, crate::base::TextRange::new(0, 0)));
    let mut files = FileSet::new();
    files.insert_text(PathBuf::from(SKILL), &skill("d"));
    let mut analysis = Analysis::new(
        Arc::new(config),
        Arc::new(Vec::new()),
        Arc::new(Env::new()),
        CheckOptions::default(),
        &files,
    );
    let size = |analysis: &Analysis| {
        crate::engine::compose::prompt_size_diagnostics(&analysis.db, analysis.project)
    };
    // The first edit of a buffer lowers its durability, which salsa does not backdate over.
    edit(&mut analysis, &skill("d"));
    let before = size(&analysis);
    assert!(before.iter().any(|d| d.code == "WS017"), "{before:?}");
    edit(
        &mut analysis,
        &skill("d").replace("Body", "Another body, longer"),
    );
    assert!(Arc::ptr_eq(&before, &size(&analysis)));
    edit(&mut analysis, &skill("a longer description"));
    assert!(!Arc::ptr_eq(&before, &size(&analysis)));
}

/// The names suggested for a subagent's `skills:` entries no skill has are those of a whole
/// check when the buckets are searched a span at a time (`skill_suggestions`): an exact match
/// in a later span, and a tie between two buckets of one span, which goes to the earlier
/// bucket's name although its position in its bucket is the later one; also after the winner
/// is renamed.
#[test]
fn suggestions_over_spans_of_buckets_are_those_of_a_whole_check() {
    use crate::engine::skills::SUGGESTION_SPAN;
    let dir = "/p/.agentscope/workspace/skills";
    let mut files = FileSet::new();
    files.insert_dir(PathBuf::from("/p/.agentscope/workspace"));
    for i in 0..3000 {
        files.insert_text(
            PathBuf::from(format!("{dir}/s{i:04}/SKILL.md")),
            &format!("---\nname: s{i}\ndescription: d\n---\nBody\n"),
        );
    }
    let (last_of_first, first_of_second) = {
        let analysis = analysis_of(&files);
        let db = &analysis.db;
        let buckets = analysis.project.buckets(db);
        assert!(buckets.len() > SUGGESTION_SPAN, "{}", buckets.len());
        let first = buckets[0].sources(db);
        assert!(first.len() > 1);
        let path = |file: &SourceFile| file.path(db).clone();
        (
            path(first.last().unwrap()),
            path(&buckets[1].sources(db)[0]),
        )
    };
    let skill = |name: &str| format!("---\nname: {name}\ndescription: d\n---\nBody\n");
    files.insert_text(last_of_first.clone(), &skill("zebra-one-a"));
    files.insert_text(first_of_second, &skill("zebra-one-b"));
    files.insert_text(
        PathBuf::from("/p/.agentscope/workspace/subagents/helper.md"),
        "---\nname: helper\ndescription: d\nskills: [zebra-one-c, S_2950]\n---\nHelps.\n",
    );
    let mut analysis = analysis_of(&files);
    let expected = checked(&files);
    let says = |found: &[Diagnostic], name: &str| found.iter().any(|d| d.message.contains(name));
    assert!(says(&expected, "`zebra-one-a`"), "{expected:?}");
    assert!(says(&expected, "`s2950`"), "{expected:?}");
    assert_eq!(all_diagnostics(&analysis), expected);

    files.insert_text(last_of_first.clone(), &skill("quite-another"));
    let entry = files.get(&last_of_first).unwrap().clone();
    analysis.apply_file(&last_of_first, Some(&entry), Origin::Buffer);
    let expected = checked(&files);
    assert!(says(&expected, "`zebra-one-b`"), "{expected:?}");
    assert_eq!(all_diagnostics(&analysis), expected);
}

/// A name group whose member is named after another skill's folder asks about that folder
/// (SK016), which the frame leaves out: the frame it reads has the folder put back. After each
/// edit of the member, and once the folder is gone, the diagnostics are a fresh check's.
#[test]
fn a_group_asking_about_a_skill_folder_reads_it_in_the_frame() {
    use crate::engine::project::frame_with_skill_folders;
    let ws = "/p/.agentscope/workspace";
    let mut files = FileSet::new();
    for i in 0..50 {
        files.insert_dir(PathBuf::from(format!("{ws}/skills/s{i}")));
        files.insert_text(
            PathBuf::from(format!("{ws}/skills/s{i}/SKILL.md")),
            &format!("---\nname: s{i}\ndescription: d\n---\nBody\n"),
        );
    }
    files.insert_dir(PathBuf::from(format!("{ws}/skills/x")));
    let named_after = PathBuf::from(format!("{ws}/skills/x/SKILL.md"));
    let text = |description: &str| format!("---\nname: s7\ndescription: {description}\n---\n");
    files.insert_text(named_after.clone(), &text("d"));
    let mut analysis = analysis_of(&files);
    let host = PathBuf::from(format!("{ws}/skills/s7"));
    let frame = |analysis: &Analysis| {
        frame_with_skill_folders(&analysis.db, analysis.project, vec![host.clone()])
    };
    let first = frame(&analysis);
    assert!(first.contains_dir(&host));
    assert!(!analysis.project.frame(&analysis.db).contains_dir(&host));
    for (version, description) in ["e", "f"].into_iter().enumerate() {
        let entry = FileEntry {
            content: FileContent::Text(Arc::from(text(description).as_str())),
            version: Some(version as i32),
        };
        files.insert(named_after.clone(), entry.content.clone(), entry.version);
        analysis.apply_file(&named_after, Some(&entry), Origin::Buffer);
        assert_eq!(all_diagnostics(&analysis), checked(&files));
        assert!(frame(&analysis).contains_dir(&host));
    }
    // The host folder deleted: the frame asked for it no longer holds it.
    let gone = PathBuf::from(format!("{ws}/skills/s7/SKILL.md"));
    files.remove(&gone);
    analysis.apply_file(&gone, None, Origin::Disk);
    files.remove_dirs_from(&host);
    analysis.apply_folder(&host, false);
    assert!(!frame(&analysis).contains_dir(&host));
    assert_eq!(all_diagnostics(&analysis), checked(&files));
}

/// A snapshot patched after each change of one file (a tools.json's text, a skill created in a
/// per-user folder that did not exist, a subagent deleted, the skill deleted again) is the
/// snapshot built whole: the kinds, the per-user folders and the tools.json documents follow
/// the change, not only the documents at the changed path.
#[test]
fn a_snapshot_patched_after_one_file_change_is_the_whole_snapshot() {
    let tools = PathBuf::from("/p/.agentscope/workspace/tools.json");
    let created = PathBuf::from("/p/.agentscope/workspace/bob/skills/b/SKILL.md");
    let subagent = PathBuf::from("/p/.agentscope/workspace/subagents/r.md");
    let mut files = FileSet::new();
    files.insert_dir(PathBuf::from("/p/.agentscope/workspace"));
    files.insert_text(PathBuf::from(SKILL), &skill("d"));
    files.insert_text(tools.clone(), "{\"deny\": []}");
    files.insert_text(subagent.clone(), "---\ndescription: d\n---\nBody\n");
    let mut analysis = analysis_of(&files);
    // Each document by path and allocation: the same memoised parse, not only an equal one.
    fn docs<T>(docs: &[Arc<T>], path: fn(&T) -> &Path) -> Vec<(PathBuf, *const T)> {
        let by_path = docs.iter().map(|d| (path(d).to_path_buf(), Arc::as_ptr(d)));
        by_path.collect()
    }
    type Summary = (
        Vec<(PathBuf, *const SkillDoc)>,
        Vec<(PathBuf, *const SubagentDoc)>,
        Vec<(PathBuf, *const ToolsDoc)>,
        Vec<String>,
    );
    let summary = |ws: &Workspace| -> Summary {
        (
            docs(&ws.skills, |d| &d.path),
            docs(&ws.subagents, |d| &d.path),
            docs(&ws.tools, |d| &d.path),
            ws.namespaces.clone(),
        )
    };
    let other_skill = "---\nname: b\ndescription: d\n---\nBody\n";
    let mut held = analysis.snapshot(Arc::new(files.clone()));
    for (path, text) in [
        (&tools, Some("{\"deny\": [\"read_file\"]}")),
        (&created, Some(other_skill)),
        (&subagent, None),
        (&created, None),
    ] {
        match text {
            Some(text) => files.insert_text(path.clone(), text),
            None => {
                files.remove(path);
            }
        }
        analysis.apply_file(path, files.get(path), Origin::Disk);
        let changed = std::collections::BTreeSet::from([path.clone()]);
        let patched = analysis.snapshot_patched(held, Arc::new(files.clone()), &changed);
        let whole = analysis.snapshot(Arc::new(files.clone()));
        let what = format!("{} {}", path.display(), text.is_some());
        assert_eq!(summary(&patched), summary(&whole), "{what}");
        assert_eq!(*patched.kinds, *whole.kinds, "{what}");
        held = patched;
    }
    assert_eq!(held.namespaces, vec!["bob".to_string()]);
    let denied: Vec<&str> = held.tools[0]
        .deny
        .iter()
        .map(|e| e.value.as_str())
        .collect();
    assert_eq!(denied, ["read_file"]);
}
