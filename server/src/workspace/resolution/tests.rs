//! Loading outcomes against the runtime's layers: which file wins in each context, what is not
//! scanned and why, and that a kept base followed across edits answers as a fresh resolution.

use super::*;
use crate::config::{Config, Scope};
use crate::workspace::layers::tests::{root_for, snapshot};

const W: &str = "/p/.agentscope/workspace";

fn skill(n: &str) -> String {
    format!("---\nname: {n}\ndescription: d {n}\n---\nbody\n")
}

#[test]
fn nested_shared_skill_is_not_scanned_in_user_scope_and_loaded_in_agent_scope() {
    let text = skill("deep");
    let ws = snapshot(
        &[(&format!("{W}/skills/group/deep/SKILL.md"), &text)],
        |_| {},
    );
    let doc = &ws.skills[0];
    let user = root_for(&ws, Some("alice"), Scope::User);
    assert_eq!(
        resolve(&ws, &user).skill_outcome(doc),
        Outcome::NotScanned(NotScanned::NestedInSharedFolder {
            upper: Some(Tree::Namespace("alice".into()))
        })
    );
    let agent = root_for(&ws, None, Scope::Agent);
    let Outcome::Loaded(loaded) = resolve(&ws, &agent).skill_outcome(doc) else {
        panic!("not loaded");
    };
    assert_eq!(loaded.id, "deep_workspace-namespaced");
    assert_eq!(
        loaded.files_root.as_deref(),
        Some(format!("{W}/skills/deep").as_str())
    );
}

#[test]
fn layer3_name_ties_are_decided_by_directory_order() {
    let x = skill("x");
    let ws = snapshot(
        &[
            (&format!("{W}/skills/a/SKILL.md"), &x),
            (&format!("{W}/skills/b/SKILL.md"), &x),
        ],
        |_| {},
    );
    let user = root_for(&ws, Some("alice"), Scope::User);
    let res = resolve(&ws, &user);
    let a = res.skill_outcome(&ws.skills[0]);
    let b = res.skill_outcome(&ws.skills[1]);
    assert_eq!(
        a,
        Outcome::Shadowed {
            by: Some(PathBuf::from(format!("{W}/skills/b/SKILL.md"))),
            by_directory_order: true
        }
    );
    let Outcome::Loaded(b) = b else { panic!() };
    assert_eq!(
        b.directory_order_ties,
        vec![PathBuf::from(format!("{W}/skills/a/SKILL.md"))]
    );
    // With the agent scope Layer 4 re-reads both, sorted: the winner is decided.
    let agent = root_for(&ws, None, Scope::Agent);
    let res = resolve(&ws, &agent);
    assert_eq!(
        res.skill_outcome(&ws.skills[0]),
        Outcome::Shadowed {
            by: Some(PathBuf::from(format!("{W}/skills/b/SKILL.md"))),
            by_directory_order: false
        }
    );
}

#[test]
fn the_skills_not_merged_are_those_not_loaded_in_every_context() {
    let (a, x) = (skill("a"), skill("x"));
    let ws = snapshot(
        &[
            (&format!("{W}/skills/a/SKILL.md"), a.as_str()),
            (&format!("{W}/skills/t1/SKILL.md"), &x),
            (&format!("{W}/skills/t2/SKILL.md"), &x),
            (&format!("{W}/skills/bad/SKILL.md"), "no frontmatter\n"),
            (&format!("{W}/skills/group/deep/SKILL.md"), &skill("deep")),
            (&format!("{W}/alice/skills/a/SKILL.md"), &a),
            (&format!("{W}/bob/skills/c/SKILL.md"), &skill("c")),
        ],
        |_| {},
    );
    let contexts = [
        (Some("alice"), Scope::User),
        (Some("bob"), Scope::User),
        (None, Scope::Agent),
    ];
    for (user, scope) in contexts {
        let res = resolve(&ws, &root_for(&ws, user, scope));
        let not_merged: Vec<&Path> = res.skills_not_merged().map(|d| d.path.as_path()).collect();
        let not_loaded: Vec<&Path> = res
            .skill_outcomes()
            .filter(|(_, o)| !matches!(o, Outcome::Loaded(_)))
            .map(|(d, _)| d.path.as_path())
            .collect();
        assert_eq!(not_merged, not_loaded, "{user:?} {scope:?}");
        assert!(!not_merged.is_empty() && not_merged.len() < ws.skills.len());
    }
}

#[test]
fn a_kept_base_resolves_as_a_fresh_one_through_edits_creations_and_moves() {
    let files = |extra: &[(&str, &str)]| {
        let mut files = vec![
            (format!("{W}/skills/b/SKILL.md"), skill("b")),
            (format!("{W}/skills/a/SKILL.md"), skill("a")),
            (format!("{W}/alice/skills/a/SKILL.md"), skill("a")),
            (
                format!("{W}/subagents/r.md"),
                "---\nname: r\ndescription: d\n---\nx\n".into(),
            ),
        ];
        files.extend(
            extra
                .iter()
                .map(|(p, t)| (format!("{W}/{p}"), t.to_string())),
        );
        snapshot(
            &files
                .iter()
                .map(|(p, t)| (p.as_str(), t.as_str()))
                .collect::<Vec<_>>(),
            |_| {},
        )
    };
    let steps = [
        files(&[]),
        // A text edit that renames a skill: the same files, the base followed.
        files(&[("skills/c/SKILL.md", "---\nname: b\ndescription: d\n---\n")]),
        files(&[("skills/c/SKILL.md", "---\nname: zz\ndescription: d\n---\n")]),
        // The same number of files in other places: the base built again.
        files(&[("skills/0/SKILL.md", "---\nname: zz\ndescription: d\n---\n")]),
        files(&[(
            "alice/skills/0/SKILL.md",
            "---\nname: b\ndescription: d\n---\n",
        )]),
        files(&[]),
    ];
    let summary = |res: &Resolution| {
        let skills: Vec<(String, PathBuf)> = res
            .skills()
            .iter()
            .map(|s| (s.name().to_string(), s.doc.path.clone()))
            .collect();
        let outcomes: Vec<Outcome> = res.skill_outcomes().map(|(_, o)| o).collect();
        let subagents = res
            .subagent_outcomes()
            .into_iter()
            .map(|(_, o)| o)
            .collect::<Vec<_>>();
        (skills, outcomes, subagents)
    };
    let mut kept = KeptBase::default();
    for (step, ws) in steps.iter().enumerate() {
        for user in [Some("alice"), Some("bob")] {
            let root = root_for(ws, user, Scope::User);
            let fresh = summary(&resolve(ws, &root));
            let with_kept = summary(&resolve_kept(ws, &root, &mut kept));
            assert_eq!(with_kept, fresh, "step {step}, {user:?}");
        }
    }
    // Step 1 holds a Layer 3 tie (`c` renamed `b`), so the order a kept base gives is what
    // decides the winner there.
    let root = root_for(&steps[1], Some("bob"), Scope::User);
    let names: Vec<String> = summary(&resolve(&steps[1], &root))
        .0
        .into_iter()
        .map(|s| s.0)
        .collect();
    assert_eq!(names, ["a", "b"]);
}

#[test]
fn per_user_overlays_share_the_base_merge() {
    let (a, b) = (skill("a"), skill("b"));
    let ws = snapshot(
        &[
            (&format!("{W}/skills/a/SKILL.md"), &a),
            (&format!("{W}/skills/b/SKILL.md"), &b),
            (&format!("{W}/alice/skills/a/SKILL.md"), &a),
            (&format!("{W}/bob/skills/c/SKILL.md"), &skill("c")),
        ],
        |_| {},
    );
    let resolver = Arc::new(Resolver::new(&ws, FilesystemMode::Local));
    let alice = resolver.resolve(&root_for(&ws, Some("alice"), Scope::User));
    let names: Vec<(&str, &str)> = alice
        .skills()
        .iter()
        .map(|s| (s.name(), &*s.source))
        .collect();
    assert_eq!(
        names,
        vec![
            ("a", "workspace-namespaced"),
            ("b", "filesystem-workspace_skills")
        ]
    );
    let bob = resolver.resolve(&root_for(&ws, Some("bob"), Scope::User));
    assert_eq!(bob.skills().len(), 3);
    let alice_doc = ws
        .skills
        .iter()
        .find(|d| d.path.starts_with(format!("{W}/alice")))
        .unwrap();
    assert_eq!(
        bob.skill_outcome(alice_doc),
        Outcome::NotScanned(NotScanned::OtherNamespace {
            namespace: "alice".into()
        })
    );
    let agent = resolve(&ws, &root_for(&ws, None, Scope::Agent));
    assert_eq!(
        agent.skill_outcome(alice_doc),
        Outcome::NotScanned(NotScanned::EmptyNamespace)
    );
}

/// A per-user folder read from a store holds none of the files here, yet its overlay globs
/// the template's below it (the remote union): it must not be taken for an upper tree that
/// globs nothing, whose contexts share the empty overlay. A folder that is not stored does
/// glob nothing, and its context lists what the shared context lists.
#[test]
fn a_stored_folder_without_files_of_its_own_still_globs_the_template() {
    let mut ws = snapshot(
        &[
            (&format!("{W}/skills/a/SKILL.md"), &skill("a")),
            (&format!("{W}/subagents/s.md"), "---\ndescription: s\n---\n"),
            (&format!("{W}/bob/skills/b/SKILL.md"), &skill("b")),
        ],
        |c| c.filesystem.mode = FilesystemMode::Remote,
    );
    let mut files = (*ws.files).clone();
    files.mark_stored(PathBuf::from(format!("{W}/alice")));
    ws.files = Arc::new(files);
    let resolver = Arc::new(Resolver::new(&ws, FilesystemMode::Remote));
    let listed = |user: Option<&str>| {
        let res = resolver.resolve(&root_for(&ws, user, Scope::User));
        let skills: Vec<(String, String, Layer)> = res
            .skills()
            .iter()
            .map(|s| (s.name().to_string(), s.source.to_string(), s.layer))
            .collect();
        let subagents: Vec<(String, Option<Layer>)> = res
            .subagents()
            .iter()
            .map(|e| (e.id.clone(), e.layer))
            .collect();
        (skills, subagents)
    };
    let (alice_skills, alice_subagents) = listed(Some("alice"));
    assert_eq!(
        alice_skills,
        vec![(
            "a".to_string(),
            WORKSPACE_NAMESPACED_SOURCE.to_string(),
            Layer::WorkspaceGlob
        )]
    );
    assert_eq!(
        alice_subagents,
        vec![
            ("general-purpose".to_string(), None),
            ("s".to_string(), Some(Layer::WorkspaceGlob))
        ]
    );
    assert_eq!(listed(Some("carol")), listed(None));
}

#[test]
fn subagent_outcomes_in_both_modes() {
    let ws = |dynamic: bool| {
        snapshot(
            &[
                (
                    &format!("{W}/subagents/general-purpose.md"),
                    "---\ndescription: mine\n---\n",
                ),
                (&format!("{W}/subagents/z.md"), "---\ndescription: z\n---\n"),
                (
                    &format!("{W}/subagents/deep/y.md"),
                    "---\ndescription: y\n---\n",
                ),
                (
                    &format!("{W}/alice/subagents/deep/z.md"),
                    "---\ndescription: alice z\n---\n",
                ),
            ],
            |c| c.features.dynamic_subagents = dynamic,
        )
    };
    let dynamic = ws(true);
    let root = root_for(&dynamic, Some("alice"), Scope::User);
    let res = resolve(&dynamic, &root);
    let ids: Vec<&str> = res.subagents().iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids, vec!["general-purpose", "z"]);
    let outcomes = res.subagent_outcomes();
    let kinds: Vec<(&str, &str)> = outcomes
        .iter()
        .map(|(d, o)| {
            (
                d.location.rel.as_str(),
                match o {
                    Outcome::Loaded(_) => "loaded",
                    Outcome::Shadowed { .. } => "shadowed",
                    Outcome::NotScanned(_) => "not-scanned",
                    Outcome::Dropped { .. } => "dropped",
                },
            )
        })
        .collect();
    assert_eq!(
        kinds,
        vec![
            ("subagents/deep/z.md", "loaded"),
            ("subagents/deep/y.md", "not-scanned"),
            ("subagents/general-purpose.md", "loaded"),
            ("subagents/z.md", "shadowed"),
        ]
    );
    let fixed = ws(false);
    let root = root_for(&fixed, Some("alice"), Scope::User);
    let res = resolve(&fixed, &root);
    let ids: Vec<&str> = res.subagents().iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids, vec!["general-purpose", "general-purpose", "z"]);
    let alice_z = fixed
        .subagents
        .iter()
        .find(|d| d.path.starts_with(format!("{W}/alice")))
        .unwrap();
    assert_eq!(
        res.subagent_outcome(alice_z),
        Outcome::Shadowed {
            by: Some(PathBuf::from(format!("{W}/subagents/z.md"))),
            by_directory_order: false
        }
    );
}

/// Everything a resolution answers, with whether each merged document is the workspace's
/// own `Arc` (what the preview's memo and `skills_not_merged` compare by identity).
fn everything(ws: &Workspace, res: &Resolution) -> String {
    let mut out = String::new();
    // The order keys are the positions: ascending, one per loaded skill.
    let ordered: Vec<(SkillOrder, &MergedSkill)> = res.skills_in_order().collect();
    let in_order: Vec<&MergedSkill> = ordered.iter().map(|(_, s)| *s).collect();
    assert!(in_order
        .iter()
        .zip(res.skills())
        .all(|(a, b)| std::ptr::eq(*a, b)));
    assert_eq!(in_order.len(), res.skills().len());
    assert!(ordered.windows(2).all(|w| w[0].0 < w[1].0), "{ordered:?}");
    for (order, s) in &ordered {
        out += &format!("order {} {order:?}\n", s.name());
    }
    for s in res.skills() {
        let own = ws
            .skill(&s.doc.path)
            .is_some_and(|d| Arc::ptr_eq(d, &s.doc));
        let ties = res.directory_order_ties(s);
        out += &format!(
            "skill {} {:?} {} {:?} {} own={own} ties={ties:?}\n",
            s.name(),
            s.doc.path,
            s.source,
            s.layer,
            s.workspace_native
        );
    }
    for (d, o) in res.skill_outcomes() {
        out += &format!("skill outcome {:?} {o:?}\n", d.path);
    }
    for d in res.skills_not_merged() {
        out += &format!("not merged {:?}\n", d.path);
    }
    for s in res.subagents() {
        let own = s
            .doc
            .as_ref()
            .is_none_or(|s| ws.subagent(&s.path).is_some_and(|d| Arc::ptr_eq(d, s)));
        out += &format!(
            "subagent {} {:?} {:?} own={own}\n",
            s.id,
            s.doc.as_ref().map(|d| &d.path),
            s.layer
        );
    }
    for (d, o) in res.subagent_outcomes() {
        out += &format!("subagent outcome {:?} {o:?}\n", d.path);
    }
    out
}

/// The files the kept-base property test edits: shared Layer 3 skills (names drawn from a
/// few, so they tie and untie), a nested one, a project skill with a shared twin and one
/// without, users' skills, shared and user subagents.
const EDITED: &[&str] = &[
    "{W}/skills/s0/SKILL.md",
    "{W}/skills/s1/SKILL.md",
    "{W}/skills/s2/SKILL.md",
    "{W}/skills/s3/SKILL.md",
    "{W}/skills/g/deep/SKILL.md",
    "/p/skills/s1/SKILL.md",
    "/p/skills/p/SKILL.md",
    "{W}/alice/skills/s0/SKILL.md",
    "{W}/bob/skills/q/SKILL.md",
    "{W}/subagents/r0.md",
    "{W}/subagents/r1.md",
    "{W}/alice/subagents/r0.md",
];

/// The text of edited file `slot` for `choice`: a skill or subagent of one of a few names,
/// with one of two bodies, or a file the runtime drops; `None`: the file is absent.
fn edited_text(slot: usize, choice: usize) -> Option<String> {
    let names = ["a", "b", "c", "d"];
    match choice {
        0 => None,
        1 => Some("no frontmatter\n".into()),
        c if EDITED[slot].contains("/subagents/") => Some(format!(
            "---\nname: {}\ndescription: d\n---\nbody {}\n",
            ["r", "s"][c % 2],
            c % 3
        )),
        c => Some(format!(
            "---\nname: {}\ndescription: d\n---\nbody {}\n",
            names[c % 4],
            c % 3
        )),
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
    /// After every edit, a resolution on the kept base (followed or built again) answers
    /// exactly what a fresh one does, in every context, with the workspace's own documents.
    #[test]
    fn a_kept_base_resolves_as_a_fresh_one_through_any_edits(
        start in proptest::collection::vec(1usize..9, EDITED.len()),
        edits in proptest::collection::vec((0..EDITED.len(), 0usize..9), 1..16),
        dynamic_subagents: bool,
        project_glob: bool,
    ) {
        let mut config = Config::defaults_for(Path::new("/p"));
        config.agent.name = Some("assistant".into());
        config.features.dynamic_subagents = dynamic_subagents;
        config.features.default_workspace_skills = project_glob;
        let config = Arc::new(config);
        let env = Arc::new(crate::base::Env::new());
        let path = |slot: usize| PathBuf::from(EDITED[slot].replace("{W}", W));
        let mut files = crate::base::FileSet::new();
        files.insert_dir(config.workspace.clone());
        for (slot, &choice) in start.iter().enumerate() {
            if let Some(text) = edited_text(slot, choice) {
                files.insert_text(path(slot), &text);
            }
        }
        let mut ws = Workspace::build(config.clone(), Vec::new(), Arc::new(files.clone()), env.clone(), None);
        let mut kept = KeptBase::default();
        for (step, &(slot, choice)) in [(0, start[0])].iter().chain(&edits).enumerate() {
            match edited_text(slot, choice) {
                Some(text) => files.insert_text(path(slot), &text),
                None => {
                    files.remove(&path(slot));
                }
            }
            ws = Workspace::build(config.clone(), Vec::new(), Arc::new(files.clone()), env.clone(), Some(&ws));
            for (user, scope) in [(Some("alice"), Scope::User), (Some("bob"), Scope::User), (None, Scope::Agent)] {
                let root = root_for(&ws, user, scope);
                let fresh = everything(&ws, &resolve(&ws, &root));
                let with_kept = everything(&ws, &resolve_kept(&ws, &root, &mut kept));
                proptest::prop_assert_eq!(with_kept, fresh, "step {}, {:?} {:?}", step, user, scope);
            }
            // A resolution over one name's skills and those at their paths (what the engine's
            // name groups add as neighbours) keys that name as the whole workspace's does.
            for name in ["a", "b", "c", "d"] {
                let named = |d: &SkillDoc| d.name.as_deref() == Some(name);
                let rels: HashSet<&str> = ws.skills.iter().filter(|d| named(d)).map(|d| d.location.rel.as_str()).collect();
                let docs = ws.skills.iter().filter(|d| named(d) || rels.contains(d.location.rel.as_str()));
                let part = Workspace::from_parts(
                    ws.config.clone(),
                    Arc::new(Vec::new()),
                    ws.files.clone(),
                    ws.env.clone(),
                    docs.cloned().map(crate::workspace::snapshot::Parsed::Skill),
                    ws.kinds.clone(),
                    ws.namespaces.clone(),
                );
                for (user, scope) in [(Some("alice"), Scope::User), (Some("bob"), Scope::User), (None, Scope::Agent)] {
                    let root = root_for(&ws, user, scope);
                    let key = |w: &Workspace| {
                        let res = resolve(w, &root);
                        let found = res.skills_in_order().find(|(_, s)| s.name() == name);
                        found.map(|(order, s)| (order.into_owned(), s.doc.path.clone()))
                    };
                    proptest::prop_assert_eq!(key(&part), key(&ws), "step {}, {} {:?} {:?}", step, name, user, scope);
                }
            }
        }
    }
}

#[test]
fn a_kept_base_follows_a_rename_and_is_built_again_for_a_tie() {
    let config = {
        let mut config = Config::defaults_for(Path::new("/p"));
        config.agent.name = Some("assistant".into());
        Arc::new(config)
    };
    let env = Arc::new(crate::base::Env::new());
    let mut files = crate::base::FileSet::new();
    files.insert_dir(config.workspace.clone());
    for n in ["a", "b", "c"] {
        files.insert_text(format!("{W}/skills/{n}/SKILL.md").into(), &skill(n));
    }
    let build = |files: &crate::base::FileSet, previous: Option<&Workspace>| {
        Workspace::build(
            config.clone(),
            Vec::new(),
            Arc::new(files.clone()),
            env.clone(),
            previous,
        )
    };
    let mut kept = KeptBase::default();
    let ws = build(&files, None);
    let root = root_for(&ws, None, Scope::Agent);
    let base_of = |kept: &KeptBase| Arc::as_ptr(&kept.kept.as_ref().unwrap().base);
    let names = |res: &Resolution| {
        res.skills()
            .iter()
            .map(|s| s.name().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&resolve_kept(&ws, &root, &mut kept)), ["a", "b", "c"]);
    let first = base_of(&kept);

    // `b` renamed `z` keeps its place; `z` dropped takes it out.
    files.insert_text(format!("{W}/skills/b/SKILL.md").into(), &skill("z"));
    let ws = build(&files, Some(&ws));
    assert_eq!(names(&resolve_kept(&ws, &root, &mut kept)), ["a", "z", "c"]);
    assert_eq!(base_of(&kept), first, "a rename is followed");
    files.insert_text(
        format!("{W}/skills/b/SKILL.md").into(),
        "---\nname: yes\n---\n",
    );
    let ws = build(&files, Some(&ws));
    assert_eq!(names(&resolve_kept(&ws, &root, &mut kept)), ["a", "c"]);
    assert_eq!(base_of(&kept), first, "a file dropped is followed");

    // Skills created and deleted one at a time, before, between and after the others in
    // Layer 3's order: each followed, every name where a fresh merge puts it.
    let mut ws = ws;
    let steps: [(&str, bool, &[&str]); 6] = [
        ("0-early", true, &["0-early", "a", "c"]),
        ("b2", true, &["0-early", "a", "b2", "c"]),
        ("0-early", false, &["a", "b2", "c"]),
        ("b3", true, &["a", "b2", "b3", "c"]),
        ("b2", false, &["a", "b3", "c"]),
        ("b3", false, &["a", "c"]),
    ];
    for (folder, created, expected) in steps {
        let path = PathBuf::from(format!("{W}/skills/{folder}/SKILL.md"));
        if created {
            files.insert_text(path, &skill(folder));
        } else {
            files.remove(&path);
        }
        ws = build(&files, Some(&ws));
        assert_eq!(names(&resolve_kept(&ws, &root, &mut kept)), expected);
        assert_eq!(base_of(&kept), first, "{folder} followed");
        assert_eq!(names(&resolve(&ws, &root)), expected);
    }

    // Named `c`, it ties with `skills/c`: directory order decides, the base is built again.
    files.insert_text(format!("{W}/skills/b/SKILL.md").into(), &skill("c"));
    let ws = build(&files, Some(&ws));
    let res = resolve_kept(&ws, &root, &mut kept);
    assert_eq!(names(&res), ["a", "c"]);
    assert_eq!(
        res.skills()[1].doc.path,
        PathBuf::from(format!("{W}/skills/c/SKILL.md"))
    );
    drop(res);
    assert_ne!(base_of(&kept), first, "a tie builds the base again");
}
