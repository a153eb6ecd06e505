//! The server's state after any sequence of edits must hold what a fresh `agentws check` and
//! `agentws preview` compute from the same texts, and the files it reports as changed must be
//! exactly enough to keep an editor's published diagnostics equal to them.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use proptest::prelude::*;

use super::*;
use crate::base::json_delta;
use crate::check::CheckOptions;
use crate::engine::batch::check_workspace;
use crate::prompt::{self, Date, Preview, PreviewContext, RenderMemo};
use crate::rules::Profile;

const SKILL_NAMES: [&str; 6] = ["alpha", "beta", "gamma", "alpha", "Bad Name", "yes"];
const KEYS: [&str; 4] = [
    "allowed-tools: read_file",
    "license: MIT",
    "metadata:\n  version: 2.0",
    "allowed-tools: Bash Read",
];
const TOOLS: [&str; 5] = [
    "read_file",
    "execute",
    "no_such_tool",
    "write_file",
    "web_fetch",
];

fn skill_text(name: &str, description: &str, body: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\n---\n# {name}\n\n{body}\n")
}

fn subagent_text(tools: &[&str], skills: &[&str], comma: bool) -> String {
    let list = |items: &[&str]| {
        if comma {
            items.join(", ")
        } else {
            format!("[{}]", items.join(", "))
        }
    };
    format!(
        "---\ndescription: helps\ntools: {}\nskills: {}\n---\nYou help.\n",
        list(tools),
        list(skills)
    )
}

fn tools_json(deny: &[&str], broken: bool) -> String {
    let deny: Vec<String> = deny.iter().map(|t| format!("\"{t}\"")).collect();
    let comma = if broken { "," } else { "" };
    format!("{{\n  \"deny\": [{}]{comma}\n}}\n", deny.join(", "))
}

/// One edit, as the editor or the disk makes it.
#[derive(Clone, Debug)]
enum Edit {
    SkillBody(usize, String),
    SkillDescription(usize, String),
    SkillName(usize, usize),
    SkillBreak(usize),
    /// Inserts a frontmatter line after the opening `---` (moves every later key).
    SkillKey(usize, usize),
    SubagentLists(usize, Vec<usize>, Vec<usize>, bool),
    Tools(Vec<usize>, bool),
    AgentsMd(bool),
    CreateSkill(usize),
    DeleteSkill(usize),
    /// Moves a skill's folder on disk to another name, or back (the watcher reports the file at
    /// both paths).
    RenameSkill(usize),
    Close(usize),
    /// agentws.toml with the agent scope or not, and one of [`RULE_SETTINGS`].
    Config(bool, usize),
    /// A suppression comment (one of [`SUPPRESSIONS`]) put at the top of a skill's frontmatter.
    Suppress(usize, usize),
}

/// `[rules]` settings: levels, a per-path setting, the strict rules turned on, reasons required.
const RULE_SETTINGS: [&str; 5] = [
    "",
    "[rules]\nSK = \"warning\"\nXR012 = \"off\"\n",
    "[rules.per-path]\n\"skills/a*/**\" = { SK006 = \"off\", SK020 = \"info\" }\n",
    "[rules]\nST = \"warning\"\nST007 = \"off\"\n",
    "[rules]\nrequire-reason = true\n",
];

/// Suppression comments: used or not, with and without a reason, of a code that does not exist.
const SUPPRESSIONS: [&str; 5] = [
    "# agentws: ignore SK023\n",
    "# agentws: ignore-file SK006, SK020 -- known\n",
    "# agentws: ignore SK999\n",
    "# agentws: ignore-file XR012\n",
    "# agentws: ignore-file ST003, ST007 -- spec names\n",
];

fn edit() -> impl Strategy<Value = Edit> {
    let index = 0usize..4;
    prop_oneof![
        (index.clone(), "[a-z `]{0,12}|see scripts/run\\.py")
            .prop_map(|(i, s)| Edit::SkillBody(i, s)),
        (index.clone(), "[a-z ]{0,12}").prop_map(|(i, s)| Edit::SkillDescription(i, s)),
        (index.clone(), 0usize..SKILL_NAMES.len()).prop_map(|(i, n)| Edit::SkillName(i, n)),
        index.clone().prop_map(Edit::SkillBreak),
        (index.clone(), 0usize..KEYS.len()).prop_map(|(i, k)| Edit::SkillKey(i, k)),
        (
            0usize..2,
            proptest::collection::vec(0usize..TOOLS.len(), 0..3),
            proptest::collection::vec(0usize..SKILL_NAMES.len(), 0..3),
            any::<bool>()
        )
            .prop_map(|(j, t, s, c)| Edit::SubagentLists(j, t, s, c)),
        (
            proptest::collection::vec(0usize..TOOLS.len(), 0..3),
            any::<bool>()
        )
            .prop_map(|(d, b)| Edit::Tools(d, b)),
        any::<bool>().prop_map(Edit::AgentsMd),
        (4usize..6).prop_map(Edit::CreateSkill),
        index.clone().prop_map(Edit::DeleteSkill),
        index.clone().prop_map(Edit::RenameSkill),
        (0usize..8).prop_map(Edit::Close),
        (any::<bool>(), 0usize..RULE_SETTINGS.len()).prop_map(|(a, r)| Edit::Config(a, r)),
        (index.clone(), 0usize..SUPPRESSIONS.len()).prop_map(|(i, c)| Edit::Suppress(i, c)),
    ]
}

struct Fixture {
    _dir: tempfile::TempDir,
    root: PathBuf,
    ws: PathBuf,
}

impl Fixture {
    fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        let ws = root.join(".agentscope/workspace");
        std::fs::create_dir_all(ws.join("subagents")).unwrap();
        std::fs::create_dir_all(ws.join("alice/skills/alpha")).unwrap();
        std::fs::write(root.join("agentws.toml"), "[agent]\nname = \"t\"\n").unwrap();
        std::fs::write(ws.join("AGENTS.md"), "Use `read_file` and `execute`.\n").unwrap();
        std::fs::write(ws.join("tools.json"), tools_json(&["execute"], false)).unwrap();
        for (i, name) in ["alpha", "beta", "gamma", "delta"].iter().enumerate() {
            let dir = ws.join(format!("skills/s{i}"));
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(
                dir.join("SKILL.md"),
                skill_text(name, "does things", "Run `execute`."),
            )
            .unwrap();
        }
        std::fs::write(
            ws.join("alice/skills/alpha/SKILL.md"),
            skill_text("alpha", "alice's copy", "Mine."),
        )
        .unwrap();
        // Scripts beside a skill and in the folder of one `CreateSkill` makes: TJ030 names
        // the loaded skills with files, which renames, drops, creations and deletions change.
        for folder in ["skills/s1", "skills/s4", "alice/skills/alpha"] {
            std::fs::create_dir_all(ws.join(folder).join("scripts")).unwrap();
            std::fs::write(ws.join(folder).join("scripts/run.py"), "print(1)\n").unwrap();
        }
        for j in 0..2 {
            std::fs::write(
                ws.join(format!("subagents/a{j}.md")),
                subagent_text(&["read_file"], &["alpha"], false),
            )
            .unwrap();
        }
        Fixture {
            _dir: dir,
            root,
            ws,
        }
    }

    fn skill(&self, i: usize) -> PathBuf {
        self.ws.join(format!("skills/s{i}/SKILL.md"))
    }

    fn subagent(&self, j: usize) -> PathBuf {
        self.ws.join(format!("subagents/a{j}.md"))
    }

    /// The files a `Close` edit may close, in a fixed order.
    fn closable(&self, k: usize) -> PathBuf {
        match k {
            0..=3 => self.skill(k),
            4 | 5 => self.subagent(k - 4),
            6 => self.ws.join("tools.json"),
            _ => self.ws.join("AGENTS.md"),
        }
    }
}

/// The text a file has now: its open buffer, else the disk.
fn current(open: &HashMap<PathBuf, OpenDoc>, path: &Path) -> Option<String> {
    match open.get(path) {
        Some(doc) => Some(doc.text.to_string()),
        None => std::fs::read_to_string(path).ok(),
    }
}

/// Applies `edit` as the server would (buffer edits through `State`, disk edits then the watcher
/// notification).
fn apply(fx: &Fixture, state: &mut State, version: &mut i32, edit: &Edit) {
    let mut type_into = |state: &mut State, path: PathBuf, text: String| {
        *version += 1;
        let doc = OpenDoc {
            version: *version,
            text: Arc::from(text.as_str()),
        };
        if state.open.contains_key(&path) {
            state.change(&path, *version, doc.text);
        } else {
            state.open(path, doc);
        }
    };
    let skill_now = |state: &State, i: usize| current(&state.open, &fx.skill(i));
    match edit {
        Edit::SkillBody(i, body) => {
            if let Some(text) = skill_now(state, *i) {
                type_into(state, fx.skill(*i), format!("{text}{body}\n"));
            }
        }
        Edit::SkillDescription(i, description) => {
            if let Some(text) = skill_now(state, *i) {
                let edited =
                    text.replacen("description: ", &format!("description: {description} "), 1);
                type_into(state, fx.skill(*i), edited);
            }
        }
        Edit::SkillName(i, n) => {
            if let Some(text) = skill_now(state, *i) {
                let edited = match text.find("name: ") {
                    Some(at) => {
                        let end = text[at..].find('\n').map_or(text.len(), |e| at + e);
                        format!("{}name: {}{}", &text[..at], SKILL_NAMES[*n], &text[end..])
                    }
                    None => text,
                };
                type_into(state, fx.skill(*i), edited);
            }
        }
        Edit::SkillBreak(i) => {
            if let Some(text) = skill_now(state, *i) {
                let edited = if text.starts_with("---\n") {
                    text.replacen("---\n", "----\n", 1)
                } else {
                    text.replacen("----\n", "---\n", 1)
                };
                type_into(state, fx.skill(*i), edited);
            }
        }
        Edit::SkillKey(i, k) => {
            if let Some(text) = skill_now(state, *i) {
                let edited = text.replacen("---\n", &format!("---\n{}\n", KEYS[*k]), 1);
                type_into(state, fx.skill(*i), edited);
            }
        }
        Edit::SubagentLists(j, tools, skills, comma) => {
            let tools: Vec<&str> = tools.iter().map(|t| TOOLS[*t]).collect();
            let skills: Vec<&str> = skills.iter().map(|s| SKILL_NAMES[*s]).collect();
            type_into(
                state,
                fx.subagent(*j),
                subagent_text(&tools, &skills, *comma),
            );
        }
        Edit::Tools(deny, broken) => {
            let deny: Vec<&str> = deny.iter().map(|t| TOOLS[*t]).collect();
            type_into(state, fx.ws.join("tools.json"), tools_json(&deny, *broken));
        }
        Edit::Suppress(i, c) => {
            if let Some(text) = skill_now(state, *i) {
                let edited = text.replacen("---\n", &format!("---\n{}", SUPPRESSIONS[*c]), 1);
                type_into(state, fx.skill(*i), edited);
            }
        }
        Edit::AgentsMd(blank) => {
            let text = if *blank { " \n" } else { "Use `write_file`.\n" };
            type_into(state, fx.ws.join("AGENTS.md"), text.to_string());
        }
        Edit::CreateSkill(i) => {
            let path = fx.skill(*i);
            let folder = path.parent().unwrap();
            let created = !folder.exists();
            std::fs::create_dir_all(folder).unwrap();
            std::fs::write(&path, skill_text("epsilon", "new", "New.")).unwrap();
            // The folder's event, then the file's (the folder's walk has read it already).
            if created {
                disk_event(state, folder);
            }
            disk_event(state, &path);
        }
        Edit::DeleteSkill(i) => {
            let path = fx.skill(*i);
            if std::fs::remove_file(&path).is_ok() {
                disk_event(state, &path);
            }
        }
        Edit::RenameSkill(i) => {
            let here = fx.skill(*i);
            let moved = fx.ws.join(format!("skills/s{i}-moved/SKILL.md"));
            let (from, to) = if here.exists() {
                (here, moved)
            } else {
                (moved, here)
            };
            if from.exists() && !state.open.contains_key(&from) && !to.parent().unwrap().exists() {
                std::fs::rename(from.parent().unwrap(), to.parent().unwrap()).unwrap();
                // Both folders' events, then both files'.
                disk_event(state, from.parent().unwrap());
                disk_event(state, to.parent().unwrap());
                disk_event(state, &from);
                disk_event(state, &to);
            }
        }
        Edit::Close(k) => {
            let path = fx.closable(*k);
            if state.open.contains_key(&path) {
                for project in state.close(&path) {
                    drop(project);
                }
            }
        }
        Edit::Config(agent_scope, rules) => {
            let scope = if *agent_scope { "agent" } else { "user" };
            std::fs::write(
                fx.root.join("agentws.toml"),
                format!(
                    "[agent]\nname = \"t\"\nscope = \"{scope}\"\n{}",
                    RULE_SETTINGS[*rules]
                ),
            )
            .unwrap();
            for project in &mut state.projects {
                project.reconfigure();
            }
        }
    }
}

/// A watcher's event, taken as the server takes it (`Backend::did_change_watched_files`).
fn disk_event(state: &mut State, path: &Path) {
    for project in &mut state.projects {
        if project.contains(path) && !project.watched_change(path) {
            project.reload();
        }
    }
}

/// What `agentws check` reports for the current texts (disk with the open buffers over it), per
/// file, with the walk's problems.
fn fresh_check(
    root: &Path,
    open: &HashMap<PathBuf, OpenDoc>,
    options: CheckOptions,
) -> (Workspace, DiagnosticsByFile) {
    let found = crate::config::discover::find_project(root);
    let config = Arc::new(found.config);
    let mut discovered = crate::workspace::discover::discover(&config);
    for (path, doc) in open {
        discovered.files.insert(
            path.clone(),
            FileContent::from_buffer(doc.text.clone()),
            Some(doc.version),
        );
    }
    let ws = Workspace::build(
        config,
        found.diagnostics,
        Arc::new(discovered.files),
        Arc::new(Env::new()),
        None,
    );
    let report = check_workspace(&ws, options);
    let mut by_file = DiagnosticsByFile::new();
    for d in discovered.problems.iter().chain(&report.diagnostics) {
        by_file.entry(d.path.clone()).or_default().push(d.clone());
    }
    for list in by_file.values_mut() {
        list.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        list.dedup();
    }
    (ws, by_file)
}

/// The preview for `user`, rendered with `memo` when given (as the server renders, keeping the
/// skills' entries from one render to the next).
fn preview(
    ws: &Workspace,
    user: Option<&str>,
    memo: Option<&mut RenderMemo>,
) -> Result<Preview, String> {
    let mut ctx = PreviewContext::new(
        &ws.config,
        Date::parse("2026-08-22").unwrap(),
        "Linux 6",
        "/tmp",
    );
    ctx.session.user_id = user.map(str::to_string);
    ctx.session.session_id = Some("s1".to_string());
    prompt::render_reusing(ws, &ctx, memo).map_err(|e| format!("{e:?}"))
}

fn run(edits: &[Edit], options: CheckOptions) {
    let fx = Fixture::new();
    let env = Arc::new(Env::new());
    let mut state = State::new(Env::new());
    state.set_options(options);
    state.add_folder(fx.root.clone());
    // What an editor shows: the last publication of every file.
    let mut shown: BTreeMap<PathBuf, Vec<Diagnostic>> = BTreeMap::new();
    let mut version = 0;
    let mut memo = RenderMemo::default();
    let mut previews: [Option<Preview>; 2] = [None, None];
    for (step, edit) in std::iter::once(None)
        .chain(edits.iter().map(Some))
        .enumerate()
    {
        if let Some(edit) = edit {
            // A refresh taken before the edit runs on another thread while the edit is made, as
            // the server's publisher does: the edit cancels it (or waits for it to end), and a
            // result computed from the old inputs is refused. One merged by mistake would leave
            // the edited files out of the next refresh, and the comparisons below would fail.
            let open = state.open.clone();
            let job = state.projects[0].begin_refresh(&env, &open);
            let runner = std::thread::spawn(move || job.run());
            apply(&fx, &mut state, &mut version, edit);
            if let Some(result) = runner.join().unwrap() {
                state.projects[0].finish_refresh(result);
            }
        }
        let open = state.open.clone();
        let project = &mut state.projects[0];
        let diagnostics = project.refresh(&env, &open);
        let snapshot = project.snapshot();
        for path in project.take_changed() {
            match diagnostics.get(&path) {
                Some(list) => shown.insert(path, list.clone()),
                None => shown.remove(&path),
            };
        }
        let (fresh, expected) = fresh_check(&fx.root, &open, options);
        assert_eq!(*diagnostics, expected, "step {step}: {edit:?}");
        assert_eq!(shown, expected, "published after step {step}: {edit:?}");
        for (held, user) in previews.iter_mut().zip([None, Some("alice")]) {
            let served = preview(&snapshot, user, Some(&mut memo));
            assert_eq!(
                served,
                preview(&fresh, user, None),
                "preview for {user:?} after step {step}: {edit:?}"
            );
            // What a client taking edits holds: the previous preview with the edits applied.
            if let (Some(old), Ok(new)) = (held.as_ref(), &served) {
                let mut json = serde_json::to_value(old).unwrap();
                json_delta::apply(&mut json, &old.edits_to(new)).unwrap();
                assert_eq!(
                    json,
                    serde_json::to_value(new).unwrap(),
                    "preview edits for {user:?} after step {step}: {edit:?}"
                );
            }
            *held = served.ok();
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]
    #[test]
    fn any_edit_sequence_leaves_what_a_fresh_check_and_preview_compute(
        edits in proptest::collection::vec(edit(), 1..14),
        strict in any::<bool>(),
    ) {
        let profile = if strict { Profile::Strict } else { Profile::Harness };
        run(&edits, CheckOptions::new(profile));
    }
}

/// Every edit kind once, in an order that exercises each against the others, in both profiles.
#[test]
fn each_edit_kind_in_turn() {
    for profile in [Profile::Harness, Profile::Strict] {
        run(&every_edit_kind(), CheckOptions::new(profile));
    }
}

fn every_edit_kind() -> Vec<Edit> {
    vec![
        Edit::SkillBody(0, "more `execute`".into()),
        Edit::SkillDescription(0, "longer".into()),
        Edit::SkillName(1, 0),
        Edit::SkillBreak(2),
        Edit::SkillBreak(2),
        Edit::SkillKey(1, 0),
        Edit::SkillKey(0, 3),
        Edit::SubagentLists(0, vec![1, 2], vec![0, 4], true),
        Edit::Tools(vec![0], false),
        Edit::Tools(vec![], true),
        Edit::AgentsMd(true),
        Edit::CreateSkill(4),
        Edit::DeleteSkill(3),
        Edit::Close(0),
        // Skill 0 is closed now: its folder moves, a name edit elsewhere, and it moves back.
        Edit::RenameSkill(0),
        Edit::SkillName(2, 1),
        Edit::RenameSkill(0),
        Edit::Close(6),
        Edit::Config(true, 0),
        Edit::SkillName(0, 2),
        Edit::Suppress(1, 0),
        Edit::Suppress(2, 1),
        Edit::Config(false, 2),
        Edit::Suppress(0, 2),
        Edit::Config(false, 3),
        Edit::Suppress(1, 4),
        Edit::Config(true, 4),
        Edit::Config(false, 1),
        Edit::SkillBreak(1),
    ]
}

/// The server's state over the fixture's folder, its project read and its diagnostics computed.
fn refreshed_state(fx: &Fixture, env: &Arc<Env>) -> State {
    let mut state = State::new(Env::new());
    state.add_folder(fx.root.clone());
    let open = state.open.clone();
    state.projects[0].refresh(env, &open);
    state
}

/// A folder created or deleted while the request snapshot holds the file set: the snapshot gives
/// its hold up first, so the set is changed in place instead of copied (the copy of 11 600
/// entries was most of the first such change's time at 10 000 skills), and the next snapshot
/// still sees the change.
#[test]
fn a_folder_change_does_not_copy_the_file_set_the_snapshot_held() {
    let fx = Fixture::new();
    let env = Arc::new(Env::new());
    let mut state = refreshed_state(&fx, &env);
    let open = state.open.clone();
    let project = &mut state.projects[0];
    for exists in [true, false] {
        let snapshot = project.snapshot();
        drop(snapshot);
        let before = Arc::as_ptr(&project.files);
        let dir = fx.ws.join("skills/empty-one");
        match exists {
            true => std::fs::create_dir(&dir).unwrap(),
            false => std::fs::remove_dir(&dir).unwrap(),
        }
        assert!(project.watched_change(&dir));
        assert_eq!(
            Arc::as_ptr(&project.files),
            before,
            "copied when exists = {exists}"
        );
        project.refresh(&env, &open);
        assert_eq!(project.snapshot().files.contains_dir(&dir), exists);
    }
}

/// A folder created with a few files is taken file by file; one with more files than that is
/// worth is left to a new reading of the project (the walk stops there), and either way the
/// snapshot holds every file after the refresh.
#[test]
fn a_created_folder_is_taken_alone_only_when_small() {
    let fx = Fixture::new();
    let env = Arc::new(Env::new());
    let mut state = refreshed_state(&fx, &env);
    let open = state.open.clone();
    let project = &mut state.projects[0];
    for (name, count, alone) in [("small", 3, true), ("large", 100, false)] {
        let dir = fx.ws.join("skills").join(name);
        std::fs::create_dir_all(dir.join("references")).unwrap();
        std::fs::write(dir.join("SKILL.md"), skill_text(name, "d", "Body.")).unwrap();
        for i in 1..count {
            std::fs::write(dir.join(format!("references/r{i}.md")), "x\n").unwrap();
        }
        assert_eq!(project.watched_change(&dir), alone, "{name}");
        if !alone {
            project.reload();
        }
        project.refresh(&env, &open);
        let snapshot = project.snapshot();
        assert_eq!(snapshot.files.files_under(&dir).count(), count, "{name}");
        assert!(snapshot.skill(&dir.join("SKILL.md")).is_some(), "{name}");
    }
}

/// Whether the project holds `path` by its digest alone: the analysis's input has a digest, and
/// the file set an empty text in place of the file's.
fn held_by_digest(project: &Project, path: &Path) -> bool {
    let analysis = project.analysis.as_ref().expect("loaded");
    let digested = analysis.digest(path).is_some();
    assert_eq!(
        digested,
        project.digested.contains_key(path),
        "{}",
        path.display()
    );
    digested && project.files.text(path) == Some("")
}

/// After indexing, no closed skill or subagent spec is held by its text but an `AGENTS.md` (a
/// context file too) and a strict skill (whose strict rules read it), as `agentws check` reads a
/// project (`engine::batch::load_digested`); what the server computes from the digests is what a
/// fresh check computes, for every fixture in both profiles.
#[test]
fn indexing_holds_no_closed_source_text_and_reports_as_check() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut roots: Vec<PathBuf> = std::fs::read_dir(repo.join("tests/fixtures"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    roots.sort();
    let env = Arc::new(Env::new());
    for root in roots {
        let root = std::fs::canonicalize(root).unwrap();
        for profile in [Profile::Harness, Profile::Strict] {
            let what = format!("{} {profile:?}", root.display());
            let options = CheckOptions::new(profile);
            let mut state = State::new(Env::new());
            state.set_options(options);
            state.add_folder(root.clone());
            let open = HashMap::new();
            let project = &mut state.projects[0];
            let diagnostics = project.refresh(&env, &open);
            let (_, expected) = fresh_check(&root, &open, options);
            assert_eq!(*diagnostics, expected, "{what}");
            let snapshot = project.snapshot();
            let running = options.running(&project.config).profile;
            let mut digested = 0;
            for (path, (_, kind)) in snapshot.kinds.iter() {
                if !matches!(kind, layout::FileKind::Skill | layout::FileKind::Subagent) {
                    continue;
                }
                let text = std::fs::read_to_string(path);
                let kept = path.ends_with("AGENTS.md")
                    || (*kind == layout::FileKind::Skill && running == Profile::Strict)
                    || text.is_err();
                let held = held_by_digest(project, path);
                assert_eq!(held, !kept, "{what} {}", path.display());
                digested += usize::from(held);
            }
            if running == Profile::Harness && !snapshot.skills.is_empty() {
                assert!(digested > 0, "{what}");
            }
        }
    }
}

/// A closed source is held by its digest; opened, by its buffer's text; closed again, by the
/// digest of the disk's text; changed on disk (a watcher's event), by the new text's digest.
#[test]
fn a_source_is_held_by_its_digest_whenever_it_is_closed() {
    let fx = Fixture::new();
    let env = Arc::new(Env::new());
    let mut state = refreshed_state(&fx, &env);
    let path = fx.skill(1);
    assert!(held_by_digest(&state.projects[0], &path));
    let typed = skill_text("beta", "typed", "Typed.");
    let doc = OpenDoc {
        version: 1,
        text: Arc::from(typed.as_str()),
    };
    state.open(path.clone(), doc);
    let open = state.open.clone();
    let project = &mut state.projects[0];
    project.refresh(&env, &open);
    assert!(!held_by_digest(project, &path));
    assert_eq!(project.files.text(&path), Some(typed.as_str()));
    state.close(&path);
    let project = &mut state.projects[0];
    project.refresh(&env, &HashMap::new());
    assert!(held_by_digest(project, &path));
    let disk = std::fs::read_to_string(&path).unwrap();
    assert_eq!(project.digested[&path].hash, text_hash(&disk));
    let changed = skill_text("beta", "changed on disk", "New.");
    std::fs::write(&path, &changed).unwrap();
    assert!(project.watched_change(&path));
    let diagnostics = project.refresh(&env, &HashMap::new());
    assert!(held_by_digest(project, &path));
    assert_eq!(project.digested[&path].hash, text_hash(&changed));
    let (_, expected) = fresh_check(&fx.root, &HashMap::new(), CheckOptions::default());
    assert_eq!(*diagnostics, expected);
}
