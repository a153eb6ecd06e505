//! The system prompt's assembly piece by piece: byte ranges, the memory budget and its cut, the
//! `files_root` the skills block advertises, and the memo that lets a render reuse the last one's
//! skill entries.

use super::workspace_context::xml;
use super::*;
use crate::base::TextRange;
use crate::base::{Env, FileSet};
use crate::config::{Config, Scope};
use crate::syntax::yaml::Entry;
use crate::workspace::layers;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn workspace(files: &[(&str, &str)], edit: impl FnOnce(&mut Config)) -> Workspace {
    let mut config = Config::defaults_for(Path::new("/srv/app"));
    config.agent.name = Some("assistant".into());
    edit(&mut config);
    Workspace::from_texts(config, files.iter().copied())
}

fn context(ws: &Workspace, user: Option<&str>) -> PreviewContext {
    let mut ctx = PreviewContext::new(
        &ws.config,
        Date::parse("2026-08-22").unwrap(),
        "Linux 6.8.0",
        "/tmp",
    );
    ctx.session.user_id = user.map(str::to_string);
    ctx
}

#[test]
fn xml_indents_and_keeps_blank_lines_as_two_spaces() {
    assert_eq!(xml("t", " \n "), "  <t></t>\n");
    assert_eq!(xml("t", "\na\n\nb\n"), "  <t>\n  a\n  \n  b\n  </t>\n");
}

#[test]
fn sections_cover_their_byte_ranges() {
    let ws = workspace(
        &[(
            "/srv/app/.agentscope/workspace/AGENTS.md",
            "# A\nBe concise.\n",
        )],
        |_| {},
    );
    let preview = render(&ws, &context(&ws, Some("alice"))).unwrap();
    let agents = preview
        .sections
        .iter()
        .find(|s| s.kind == "agents-context")
        .unwrap();
    assert_eq!(
        &preview.text[agents.range.start..agents.range.end],
        "  <agents_context>\n  # A\n  Be concise.\n  </agents_context>\n"
    );
    assert_eq!(
        agents.sources[0].lines,
        Some(LineRange { start: 1, end: 2 })
    );
    let mut last = 0;
    for s in &preview.sections {
        assert!(
            s.range.start >= last && s.range.end >= s.range.start,
            "{}",
            s.kind
        );
        last = s.range.end;
    }
    assert!(preview
        .text
        .starts_with("## AgentStateStore Context\nThis is the assistant."));
    // 2.0.3, the default, advertises the base workspace (main, with #3020, the user's).
    assert!(preview
        .text
        .contains("The workspace directory is: /srv/app/.agentscope/workspace\n"));
}

#[test]
fn memory_is_cut_at_the_budget_with_the_notice() {
    let memory = "m".repeat(1000);
    let ws = workspace(
        &[("/srv/app/.agentscope/workspace/MEMORY.md", &memory)],
        |c| {
            c.agent.max_context_tokens = 200;
        },
    );
    let preview = render(&ws, &context(&ws, None)).unwrap();
    let used = preview.budget.used_tokens;
    let available = 200 - used;
    assert!(preview.budget.truncated);
    let cut = preview.budget.cut.as_ref().unwrap();
    assert_eq!(cut.utf16_offset, available * 4);
    let expected = format!(
            "  <memory_context>\n  {}\n  \n  ... (memory truncated — use memory_search for older entries) ...\n  </memory_context>\n",
            "m".repeat(available * 4)
        );
    assert!(preview.text.contains(&expected), "{}", preview.text);
}

#[test]
fn no_truncation_when_nothing_is_left() {
    let ws = workspace(
        &[("/srv/app/.agentscope/workspace/MEMORY.md", "remember")],
        |c| {
            c.agent.max_context_tokens = 10;
        },
    );
    let preview = render(&ws, &context(&ws, None)).unwrap();
    assert_eq!(preview.budget.memory, "over-budget-included");
    assert!(preview
        .text
        .contains("  <memory_context>\n  remember\n  </memory_context>\n"));
}

#[test]
fn metadata_renders_nested_xml() {
    let node = |value: Value| Node {
        value,
        range: TextRange::empty(0),
        tag: None,
    };
    let entry = |key: &str, value: Value| Entry {
        key: key.to_string(),
        key_range: TextRange::empty(0),
        value: node(value),
    };
    let mut s = String::new();
    append_xml_node(
        &mut s,
        "metadata",
        &Value::Map(vec![
            entry("a b", Value::Str("x<y".into())),
            entry(
                "tags",
                Value::List(vec![node(Value::Int("1".into())), node(Value::Null)]),
            ),
            entry("gone", Value::Null),
        ]),
        1,
    );
    assert_eq!(
            s,
            "  <metadata>\n    <entry key=\"a b\">x&lt;y</entry>\n    <tags>\n      <item>1</item>\n    </tags>\n  </metadata>\n"
        );
}

#[test]
fn subagents_are_appended_after_a_newline_and_list_general_purpose_first() {
    let ws = workspace(&[], |c| c.features.workspace_context = false);
    let preview = render(&ws, &context(&ws, None)).unwrap();
    assert!(preview.text.starts_with("\n## Subagents\n\n"));
    assert!(preview.text.contains(&format!(
        "### Available agent ids\n- `general-purpose`: {}\n\n### When to use",
        texts::GENERAL_PURPOSE_DESCRIPTION
    )));
}

#[test]
fn bad_ids_are_refused() {
    let ws = workspace(&[], |_| {});
    let mut ctx = context(&ws, Some("../bob"));
    ctx.session.scope = Scope::User;
    assert_eq!(render(&ws, &ctx).unwrap_err().code, "invalid-id");
}

/// The render memo keeps each skill's entry with the files root it was written with: renders
/// that alternate between roots (two sandbox roots, and none) each equal a fresh render, and
/// the memo holds only the roots its entries still hold.
#[test]
fn the_render_memo_follows_the_files_root_of_each_render() {
    use crate::config::FilesystemMode;
    let skill =
        |name: &str| format!("---\nname: {name}\ndescription: Does {name} things.\n---\nBody.\n");
    let (pdf, docs) = (skill("pdf"), skill("docs"));
    let ws = workspace(
        &[
            ("/srv/app/.agentscope/workspace/skills/pdf/SKILL.md", &pdf),
            ("/srv/app/.agentscope/workspace/skills/docs/SKILL.md", &docs),
        ],
        |_| {},
    );
    let at = |root: Option<&str>| {
        let mut ctx = context(&ws, Some("alice"));
        if let Some(root) = root {
            ctx.session.filesystem = FilesystemMode::Sandbox;
            ctx.session.sandbox_root = root.into();
        }
        ctx
    };
    let mut memo = RenderMemo::default();
    let mut texts = Vec::new();
    for root in [
        Some("/workspace"),
        Some("/home/user"),
        Some("/workspace"),
        None,
        Some("/home/user"),
    ] {
        let ctx = at(root);
        let fresh = render(&ws, &ctx).unwrap();
        let reused = render_reusing(&ws, &ctx, Some(&mut memo)).unwrap();
        assert_eq!(reused.text, fresh.text, "{root:?}");
        texts.push(fresh.text);
    }
    assert!(texts[0].contains("/workspace/skills/pdf"), "{}", texts[0]);
    assert_ne!(texts[0], texts[1], "the roots are in the entries");
    let bases: Vec<&str> = memo.bases.iter().map(|b| &**b).collect();
    assert_eq!(bases, ["/home/user"]);
}

/// A skill that comes back (valid again after its file was broken) is written into its place;
/// the entries after it are taken back from the memo, not written again (each was ten
/// thousand entries written again after a name was fixed), and every render equals a fresh
/// one.
#[test]
fn a_skill_that_comes_back_writes_its_own_entry_only() {
    let mut config = Config::defaults_for(Path::new("/srv/app"));
    config.agent.name = Some("assistant".into());
    let config = Arc::new(config);
    let env = Arc::new(Env::new());
    let mut files = FileSet::new();
    files.insert_dir(config.workspace.clone());
    let path = |n: &str| config.workspace.join(format!("skills/{n}/SKILL.md"));
    let skill = |n: &str| format!("---\nname: {n}\ndescription: Does {n} things.\n---\nBody.\n");
    for n in ["a", "b", "c", "d"] {
        files.insert_text(path(n), &skill(n));
    }
    let mut ws = Workspace::build(
        config.clone(),
        Vec::new(),
        Arc::new(files.clone()),
        env.clone(),
        None,
    );
    let mut memo = RenderMemo::default();
    let entry_texts = |memo: &RenderMemo| -> Vec<(String, *const u8)> {
        memo.entries
            .iter()
            .map(|e| (e.doc.name.clone().unwrap_or_default(), e.xml.as_ptr()))
            .collect()
    };
    let mut written = Vec::new();
    for b in [skill("b"), "---\nname: yes\n---\n".to_string(), skill("b")] {
        files.insert_text(path("b"), &b);
        ws = Workspace::build(
            config.clone(),
            Vec::new(),
            Arc::new(files.clone()),
            env.clone(),
            Some(&ws),
        );
        let ctx = context(&ws, Some("alice"));
        let reused = render_reusing(&ws, &ctx, Some(&mut memo)).unwrap();
        assert_eq!(reused.text, render(&ws, &ctx).unwrap().text);
        written.push(entry_texts(&memo));
    }
    let names =
        |step: &[(String, *const u8)]| step.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(&written[0]), ["a", "b", "c", "d"]);
    assert_eq!(names(&written[2]), ["a", "b", "c", "d"]);
    // `a`, `c` and `d` hold the texts the first render wrote; `b` was written again.
    for i in [0, 2, 3] {
        assert_eq!(written[2][i], written[0][i], "{}", written[0][i].0);
    }
    assert_ne!(written[2][1].1, written[0][1].1);
}

/// The advertised root joined with a relative name is the file the session's
/// relative name resolves to — for every scope and filesystem mode (2026-09), checked against
/// `context::effective_root`, the function the normalizer resolves with. The reads of this
/// renderer use the same root (`layers::namespace_dir`).
#[test]
fn advertised_root_is_the_resolution_root_for_every_scope_and_mode() {
    use crate::config::FilesystemMode;
    let ws = workspace(&[], |_| {});
    let rel = "notes/today.md";
    for scope in [Scope::User, Scope::Session, Scope::Agent, Scope::Global] {
        for mode in [
            FilesystemMode::Local,
            FilesystemMode::Sandbox,
            FilesystemMode::Remote,
        ] {
            for sandbox_root in ["/workspace", "/home/user"] {
                let mut ctx = context(&ws, Some("alice"));
                // The runtime that advertises the resolution's root in every mode.
                ctx.session.harness = crate::config::release::map_version("2026-09")
                    .unwrap()
                    .harness;
                ctx.session.session_id = Some("s1".into());
                ctx.session.scope = scope;
                ctx.session.filesystem = mode;
                ctx.session.sandbox_root = sandbox_root.into();
                let preview = render(&ws, &ctx).unwrap();
                let advertised = preview
                    .text
                    .lines()
                    .find_map(|l| l.strip_prefix("The workspace directory is: "))
                    .unwrap()
                    .to_string();
                assert_eq!(advertised, preview.context.advertised_workspace);
                let root = context::effective_root(&ws.config, &ctx.session).unwrap();
                let case = format!("{scope:?} {mode:?} {sandbox_root}");
                match (&root.host_root, mode) {
                    (Some(host), FilesystemMode::Local) => {
                        assert_eq!(Path::new(&advertised).join(rel), host.join(rel), "{case}");
                        assert_eq!(&layers::namespace_dir(&root), host, "{case}");
                        let line = format!(
                                "Workspace (your home base — memory, sessions, skills, runtime data): {advertised}\n"
                            );
                        assert!(preview.text.contains(&line), "{case}");
                    }
                    (Some(host), FilesystemMode::Remote) => {
                        assert_eq!(Path::new(&advertised).join(rel), host.join(rel), "{case}");
                    }
                    (None, FilesystemMode::Sandbox) => {
                        assert_eq!(advertised, root.root, "{case}");
                        assert_eq!(advertised, sandbox_root, "{case}");
                        assert!(preview
                            .text
                            .contains(&format!("Sandbox root: {advertised} (container id: ")));
                    }
                    other => panic!("{case}: unexpected root {other:?}"),
                }
            }
        }
    }
}

#[test]
fn releases_before_3020_advertise_the_base_even_with_a_namespace() {
    let ws = workspace(&[], |_| {});
    let mut ctx = context(&ws, Some("alice"));
    ctx.session.harness =
        crate::config::Harness::of(crate::config::release::Release::V2_0_3Snapshot);
    let preview = render(&ws, &ctx).unwrap();
    assert!(preview
        .text
        .contains("The workspace directory is: /srv/app/.agentscope/workspace\n"));
    // The files it reads are still Alice's: the HEAD bug #3020 fixes.
    let root = context::effective_root(&ws.config, &ctx.session).unwrap();
    assert_eq!(
        root.host_root.unwrap(),
        PathBuf::from("/srv/app/.agentscope/workspace/alice")
    );
}

#[test]
fn files_root_escapes_spaces_and_ignores_the_namespace() {
    let mut config = Config::defaults_for(Path::new("/srv/my app"));
    config.agent.name = Some("assistant".into());
    let mut set = FileSet::new();
    let skill = "---\nname: tidy\ndescription: d\n---\nbody\n";
    set.insert_text(
        PathBuf::from("/srv/my app/.agentscope/workspace/skills/tidy/SKILL.md"),
        skill,
    );
    set.insert_text(
        PathBuf::from("/srv/my app/.agentscope/workspace/alice/skills/mine/SKILL.md"),
        &skill.replace("tidy", "mine"),
    );
    let ws = Workspace::build(
        Arc::new(config),
        Vec::new(),
        Arc::new(set),
        Arc::new(Env::default()),
        None,
    );
    let preview = render(&ws, &context(&ws, Some("alice"))).unwrap();
    assert!(preview.text.contains(
            "  <files-root>/srv/my\\ app/.agentscope/workspace/.skills-cache/filesystem-workspace_skills/tidy</files-root>\n"
        ));
    assert!(preview
        .text
        .contains("  <files-root>/srv/my\\ app/.agentscope/workspace/skills/mine</files-root>\n"));
    let skills = preview
        .sections
        .iter()
        .find(|s| s.kind == "skills")
        .unwrap();
    assert_eq!(skills.sources.len(), 2);
    assert_eq!(
        skills.sources[0].lines,
        Some(LineRange { start: 1, end: 4 })
    );
}
