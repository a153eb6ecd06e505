//! Table-driven tests of the whole contract (docs/paths.md), including every input of the
//! runtime's own tables (harness-spec §7.1–7.3) with the answer our contract gives, and property
//! tests over random paths, ids and roots. Lexical runs only; symlinks are tested with real links
//! in `tests_links`.

use std::path::{Path, PathBuf};

use proptest::prelude::*;

use super::*;
use crate::config::{Config, FilesystemMode, PathMode, Scope};
use crate::context::SessionContext;

/// B = /srv/ws, P = /srv/project, additional root /data/shared (configured un-normalized).
fn config() -> Config {
    let mut config = Config::defaults_for(Path::new("/srv/project"));
    config.workspace = PathBuf::from("/srv/ws");
    config.agent.name = Some("assistant".into());
    config.agent.additional_context_files = vec!["SOUL.md".into(), "./docs/extra.md".into()];
    config.filesystem.additional_roots = vec![PathBuf::from("/data/./shared/tmp/..")];
    config
}

fn run_for(name: &str) -> Run {
    let mut config = config();
    let mut ctx = SessionContext::from_config(&config);
    let mut options = RunOptions::from_config(&config);
    options.disk = DiskAccess::Lexical;
    ctx.user_id = Some("alice".into());
    match name {
        "alice" => {}
        "alice-sbx" => options.path_mode = PathMode::Sandboxed,
        "alice-unr" => options.path_mode = PathMode::Unrestricted,
        "s1" => {
            ctx.user_id = None;
            ctx.session_id = Some("session-1".into());
            ctx.scope = Scope::Session;
        }
        "global" => ctx.scope = Scope::Global,
        "slash" => {
            config.workspace = PathBuf::from("/");
            ctx.scope = Scope::Global;
        }
        "docker" | "docker-unr" | "docker-slash" | "e2b" => {
            ctx.filesystem = FilesystemMode::Sandbox;
            ctx.sandbox_root = match name {
                "e2b" => "/home/user",
                "docker-slash" => "/workspace/",
                _ => "/workspace",
            }
            .into();
            if name == "docker-unr" {
                options.path_mode = PathMode::Unrestricted;
            }
        }
        other => panic!("unknown context {other}"),
    }
    Run::new(&config, &ctx, options).unwrap()
}

use Op::{Read as R, Write as W};

/// (context, op, input, expected): expected is `key => path` or `!code`.
#[rustfmt::skip]
const CASES: &[(&str, Op, &str, &str)] = &[
    // harness-spec §7.1, prefix `/workspace` = the Docker sandbox root.
    ("docker", R, "/workspace/notes.md", "notes.md => /workspace/notes.md"),
    ("docker", R, "/workspace", ". => /workspace"),
    ("docker", R, "/workspace/", ". => /workspace"), // runtime: empty string
    ("docker", R, "/workspace2/a", "!outside-roots"), // runtime: unchanged
    ("docker", R, "/Workspace/a", "!outside-roots"), // runtime: unchanged (case-sensitive)
    ("docker", R, "workspace/a", "workspace/a => /workspace/workspace/a"),
    ("docker", R, "notes.md", "notes.md => /workspace/notes.md"),
    ("docker", R, "/workspace/../etc/passwd", "!traversal"), // runtime: `../etc/passwd`, rejected later
    ("docker", R, "/workspace/./a", "a => /workspace/a"), // runtime: `./a`
    ("docker", R, "/workspace//a", "a => /workspace/a"), // runtime: `/a`, an absolute path
    ("docker", R, "\\workspace\\a", "a => /workspace/a"),
    ("docker-slash", R, "/workspace/a", "a => /workspace/a"), // configured `/workspace/`
    ("slash", R, "/", ". => /"), // prefix `/`
    ("slash", R, "/a", "a => /a"), // runtime: `/a` unchanged; same file
    ("alice", R, "D:\\workspace\\my-learn\\agentscope-v2\\.agentscope\\workspace\\memory", "!outside-roots"), // Windows path on a POSIX host
    ("global", R, "/srv/ws/alice/x.md", "alice/x.md => /srv/ws/alice/x.md"), // empty namespace: a folder like any other
    ("alice", R, "/srv/ws/alice/x.md", "x.md => /srv/ws/alice/x.md"), // runtime at HEAD: /srv/ws/alice/alice/x.md
    ("alice", R, "/srv/project/src/A.java", "/srv/project/src/A.java => /srv/project/src/A.java"),
    ("e2b", R, "/home/user/a", "a => /home/user/a"), // runtime at HEAD: unchanged ([POST-3645])
    ("docker", R, "/home/user/a", "!outside-roots"),
    ("docker", R, "/workspace/.skills-cache/ns/s/run.py", ".skills-cache/ns/s/run.py => /workspace/.skills-cache/ns/s/run.py"), // runtime [LATER]: `/.skills-cache/…`; the container is not namespaced
    ("alice", R, "/srv/ws/.skills-cache/ns/s/run.py", "/.skills-cache/ns/s/run.py => /srv/ws/.skills-cache/ns/s/run.py"),
    ("alice", R, "/srv/ws/alice", ". => /srv/ws/alice"), // [POST-3020] composed prefix
    ("s1", W, "/srv/ws/session-1/a.txt", "a.txt => /srv/ws/session-1/a.txt"), // the #3020 bug: never session-1/session-1
    // harness-spec §7.2 PathPolicy (roots: project, workspace, additional).
    ("alice", R, "/etc/passwd", "!outside-roots"),
    ("alice", R, "/", "!outside-roots"),
    ("alice", R, "/srv/project/src/Main.java", "/srv/project/src/Main.java => /srv/project/src/Main.java"),
    ("global", R, "/srv/ws/MEMORY.md", "MEMORY.md => /srv/ws/MEMORY.md"),
    ("alice", R, "/srv/ws/MEMORY.md", "/MEMORY.md => /srv/ws/MEMORY.md"),
    ("alice", R, "/srv/project", "/srv/project => /srv/project"),
    ("alice", R, "/srv/project-other/file", "!outside-roots"),
    ("alice", R, "relative/path.txt", "relative/path.txt => /srv/ws/alice/relative/path.txt"), // PathPolicy: no; ours resolves under E
    ("alice", R, "/data/shared/foo.txt", "/data/shared/foo.txt => /data/shared/foo.txt"), // root configured as /data/./shared/tmp/..
    ("alice", R, "/srv/project/../../etc", "!traversal"),
    ("alice-unr", R, "/etc/passwd", "/etc/passwd => /etc/passwd"), // policy `/`: any absolute path
    // harness-spec §7.3 LocalFilesystem modes.
    ("alice-sbx", R, "/etc/hosts", "!outside-roots"), // runtime: re-rooted, "not found"
    ("alice", R, "/srv/project/AGENTS.md", "/srv/project/AGENTS.md => /srv/project/AGENTS.md"),
    ("alice", R, "/opt/third/x.txt", "!outside-roots"),
    ("alice-unr", R, "/opt/third/x.txt", "/opt/third/x.txt => /opt/third/x.txt"),
    ("global", R, "/srv/ws/notes.md", "notes.md => /srv/ws/notes.md"),
    ("alice", W, "notes.md", "notes.md => /srv/ws/alice/notes.md"),
    ("alice", R, "/skills/tool.md", "!outside-roots"), // runtime: <ws>/skills/tool.md (absolute treated as workspace-relative)
    ("alice", R, "/some..dir/note.txt", "!outside-roots"), // not traversal; outside the roots
    ("alice", R, "some..dir/note.txt", "some..dir/note.txt => /srv/ws/alice/some..dir/note.txt"),
    ("alice", R, "/../etc/passwd", "!traversal"),
    ("alice", R, "../secret.txt", "!traversal"),
    ("alice", W, "../escape.txt", "!traversal"),
    ("alice", W, "../user-2/escape.txt", "!traversal"),
    ("alice", W, "../../append-escape.txt", "!traversal"),
    ("alice", W, "..\\windows-escape.txt", "!traversal"),
    ("alice", W, "/absolute-inside.txt", "!outside-roots"), // runtime WorkspaceManager: `absolute-inside.txt`
    // Input forms.
    ("alice", R, "C:\\Users\\x", "!outside-roots"),
    ("alice-unr", R, "C:/Users/x", "C:/Users/x => C:/Users/x"),
    ("alice-unr", R, "c:\\Users\\x\\", "C:/Users/x => C:/Users/x"),
    ("alice-unr", R, "file:///c%3A/Users/x", "C:/Users/x => C:/Users/x"),
    ("alice-unr", R, "file:///C:/Users/x", "C:/Users/x => C:/Users/x"),
    ("alice", R, "C:x", "!invalid"),
    ("alice", R, "file:///srv/ws/alice/a%20b.md", "a b.md => /srv/ws/alice/a b.md"),
    ("alice", R, "file://localhost/srv/ws/alice/x", "x => /srv/ws/alice/x"),
    ("alice", R, "file://fileserver/srv/ws/alice/x", "!invalid"),
    ("alice", R, "file:////fileserver/share/x", "!invalid"),
    ("alice", R, "file:///srv/ws/alice/%zz", "!invalid"),
    ("alice", R, "file:///srv/ws/alice/%2", "!invalid"),
    ("alice", R, "file:///srv/ws/alice/%2e%2e/bob/x", "!traversal"),
    ("alice", R, "file:notes.md", "!invalid"),
    ("alice", R, "https://example.com/x", "!invalid"),
    ("alice", R, "\\\\server\\share\\x", "!invalid"),
    ("alice", R, "100%.md", "100%.md => /srv/ws/alice/100%.md"),
    ("alice", R, "a%20b", "a%20b => /srv/ws/alice/a%20b"),
    ("alice", R, "//srv/ws/alice/x", "x => /srv/ws/alice/x"),
    ("alice", R, "a//b///c", "a/b/c => /srv/ws/alice/a/b/c"),
    ("alice", R, "./a/./b", "a/b => /srv/ws/alice/a/b"),
    ("alice", R, ".", ". => /srv/ws/alice"),
    ("alice", R, "./", ". => /srv/ws/alice"),
    ("alice", R, "/srv/ws/alice/", ". => /srv/ws/alice"),
    ("alice", R, "dir/", "dir => /srv/ws/alice/dir"),
    ("alice", R, "dir\\sub\\f.md", "dir/sub/f.md => /srv/ws/alice/dir/sub/f.md"),
    ("alice", R, "caf\u{e9}.md", "caf\u{e9}.md => /srv/ws/alice/caf\u{e9}.md"),
    ("alice", R, "cafe\u{301}.md", "cafe\u{301}.md => /srv/ws/alice/cafe\u{301}.md"), // no Unicode normalization
    ("alice", R, "/srv/ws/Alice/x", "!cross-namespace"), // byte for byte: not alice
    ("alice", R, "", "!invalid"),
    ("alice", R, "   ", "!invalid"),
    ("alice", R, "a\u{0}b", "!invalid"),
    ("alice", R, "a\tb", "!invalid"),
    ("alice", R, "a\u{85}b", "!invalid"),
    ("alice", R, "~", "!invalid"),
    ("alice", R, "~/notes.md", "!invalid"),
    ("alice", R, "~alice/x", "!invalid"),
    ("alice", R, "a/~", "a/~ => /srv/ws/alice/a/~"),
    ("alice", R, "../\u{0}", "!traversal"), // `..` before anything else
    ("alice", R, "~/../x", "!traversal"),
    ("alice", R, "a/..", "!traversal"),
    ("alice", R, "..hidden", "..hidden => /srv/ws/alice/..hidden"),
    // Namespaces: B outside E.
    ("alice", R, "/srv/ws/bob/x", "!cross-namespace"),
    ("alice", W, "/srv/ws/bob", "!cross-namespace"),
    ("alice", R, "/srv/ws", "!cross-namespace"),
    ("alice", R, "/srv/ws/", "!cross-namespace"),
    ("alice", R, "/srv/ws/no-such-folder/x", "!cross-namespace"),
    ("alice", R, "/srv/ws/memory/2026-09-01.md", "!cross-namespace"),
    ("alice", R, "/srv/ws/alice2/x", "!cross-namespace"),
    ("alice", R, "/srv/ws/notes.md", "!cross-namespace"),
    ("alice", R, "/srv/ws/AGENTS.md/x", "!cross-namespace"),
    ("alice", R, "/srv/ws/AGENTS.md", "/AGENTS.md => /srv/ws/AGENTS.md"),
    ("alice", W, "/srv/ws/AGENTS.md", "!shared-read-only"),
    ("alice", R, "/srv/ws/tools.json", "/tools.json => /srv/ws/tools.json"),
    ("alice", R, "/srv/ws/knowledge/routes.md", "/knowledge/routes.md => /srv/ws/knowledge/routes.md"),
    ("alice", W, "/srv/ws/knowledge/routes.md", "!shared-read-only"),
    ("alice", R, "/srv/ws/skills/pdf/SKILL.md", "/skills/pdf/SKILL.md => /srv/ws/skills/pdf/SKILL.md"),
    ("alice", R, "/srv/ws/skills", "/skills => /srv/ws/skills"),
    ("alice", R, "/srv/ws/subagents/reviewer.md", "/subagents/reviewer.md => /srv/ws/subagents/reviewer.md"),
    ("alice", W, "/srv/ws/.skills-cache/ns/s/run.py", "!shared-read-only"),
    ("alice", R, "/srv/ws/SOUL.md", "/SOUL.md => /srv/ws/SOUL.md"),
    ("alice", R, "/srv/ws/docs/extra.md", "/docs/extra.md => /srv/ws/docs/extra.md"),
    ("alice", W, "/srv/ws/SOUL.md", "!shared-read-only"),
    ("alice", R, "/srv/ws/docs/other.md", "!cross-namespace"),
    ("alice", W, "skills/pdf/SKILL.md", "skills/pdf/SKILL.md => /srv/ws/alice/skills/pdf/SKILL.md"), // the per-user overlay
    ("alice", R, "alice/x", "alice/x => /srv/ws/alice/alice/x"), // a folder really named alice
    ("alice", R, "/srv/ws/alice/alice/x", "alice/x => /srv/ws/alice/alice/x"),
    ("global", W, "/srv/ws/AGENTS.md", "AGENTS.md => /srv/ws/AGENTS.md"),
    ("global", W, "/srv/ws/bob/x", "bob/x => /srv/ws/bob/x"),
    ("global", R, "/srv/ws", ". => /srv/ws"),
    ("s1", R, "/srv/ws/alice/x", "!cross-namespace"),
    ("alice-unr", R, "/srv/ws/bob/x", "!cross-namespace"),
    ("alice-unr", W, "/srv/ws/AGENTS.md", "!shared-read-only"),
    ("alice-sbx", R, "/srv/ws/AGENTS.md", "/AGENTS.md => /srv/ws/AGENTS.md"),
    // Project folder and additional roots by path mode.
    ("alice", W, "/data/shared/y", "/data/shared/y => /data/shared/y"),
    ("alice", R, "/data/shared2/y", "!outside-roots"),
    ("alice-sbx", R, "/data/shared/y", "!outside-roots"),
    ("alice-sbx", R, "/srv/project/x", "!outside-roots"),
    ("alice-sbx", W, "x", "x => /srv/ws/alice/x"),
    ("alice-sbx", R, "/srv/ws/alice/x", "x => /srv/ws/alice/x"),
    ("alice-unr", W, "/srv/project/x", "/srv/project/x => /srv/project/x"),
    // Sandbox mode: container paths only.
    ("docker", R, "/srv/ws/alice/x", "!outside-roots"),
    ("docker", R, "/srv/project/x", "!outside-roots"),
    ("docker", R, "alice/x", "alice/x => /workspace/alice/x"),
    ("docker", W, "/workspace/alice/x", "alice/x => /workspace/alice/x"),
    ("docker", W, "/workspace/AGENTS.md", "AGENTS.md => /workspace/AGENTS.md"),
    ("docker-unr", R, "/etc/passwd", "!outside-roots"),
    ("docker", R, "C:\\x", "!outside-roots"),
    ("e2b", R, "/home/user", ". => /home/user"),
    ("e2b", R, "/workspace/a", "!outside-roots"),
    ("e2b", W, "file:///home/user/a", "a => /home/user/a"),
    ("e2b", R, "/home/username/a", "!outside-roots"),
    // The project's own configuration: readable, never writable (it binds every run).
    ("alice", R, "/srv/project/agentws.toml", "/srv/project/agentws.toml => /srv/project/agentws.toml"),
    ("alice", W, "/srv/project/agentws.toml", "!shared-read-only"),
    ("alice", W, "file:///srv/project/agentws.toml", "!shared-read-only"),
    ("alice-unr", W, "/srv/project/AGENTWS.toml", "!shared-read-only"), // one file on a case-insensitive volume
    ("global", W, "/srv/project/./agentws.toml", "!shared-read-only"),
    ("alice", W, "/srv/project/sub/agentws.toml", "/srv/project/sub/agentws.toml => /srv/project/sub/agentws.toml"),
    ("alice", W, "agentws.toml", "agentws.toml => /srv/ws/alice/agentws.toml"), // not the project's
    // The workspace spelled with other letter case is the workspace on macOS and Windows.
    ("alice-unr", W, "/srv/WS/bob/x", "!cross-namespace"),
    ("alice-unr", R, "/SRV/ws/alice/x", "!cross-namespace"),
    ("alice", R, "/Srv/Ws", "!cross-namespace"),
    ("global", R, "/srv/WS/bob/x", "!outside-roots"), // no namespace: nothing to cross
    ("alice-unr", R, "/srv/ws2/x", "/srv/ws2/x => /srv/ws2/x"),
    ("alice-unr", R, "/srv/WS2/x", "/srv/WS2/x => /srv/WS2/x"), // component boundary, any case
    ("alice-unr", W, "/\u{17F}rv/ws/bob/x", "!cross-namespace"), // long s folds to s (APFS, NTFS)
];

#[test]
fn contract_table() {
    assert!(CASES.len() >= 80, "{} cases", CASES.len());
    let mut failures = Vec::new();
    for &(ctx, op, input, expected) in CASES {
        let run = run_for(ctx);
        let got = match run.normalize(input, op) {
            Ok(n) => format!("{} => {}", n.key, n.path),
            Err(r) => format!("!{}", r.code),
        };
        if got != expected {
            failures.push(format!(
                "{ctx} {op:?} {input:?}: expected {expected}, got {got}"
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn uris_are_given_for_host_paths_only() {
    let n = run_for("alice").normalize("a b#1.md", R).unwrap();
    assert_eq!(n.uri.as_deref(), Some("file:///srv/ws/alice/a%20b%231.md"));
    let back = run_for("alice")
        .normalize(n.uri.as_deref().unwrap(), R)
        .unwrap();
    assert_eq!(back, n);
    let n = run_for("docker").normalize("a.md", R).unwrap();
    assert_eq!(n.uri, None);
    let n = run_for("alice-unr").normalize("C:\\x", R).unwrap();
    assert_eq!(n.uri.as_deref(), Some("file:///C:/x"));
}

#[test]
fn messages_say_why() {
    let err = run_for("alice").normalize("/srv/ws/bob/x", R).unwrap_err();
    assert_eq!(
        err.message,
        "`/srv/ws/bob/x` is the folder `bob` of the base workspace, outside this run's root \
         `/srv/ws/alice` (namespace `alice`); a namespaced run reaches only its own folder and \
         reads the shared assets"
    );
    let err = run_for("alice")
        .normalize(&"x".repeat(5000), R)
        .unwrap_err();
    assert_eq!(err.code, RefusalCode::Invalid);
    assert!(err.message.len() < 400, "{}", err.message);
}

#[test]
fn run_level_refusals() {
    let cases: &[(&str, &str)] = &[
        ("user=a/b", "invalid-id"),
        ("user=..", "invalid-id"),
        ("user=.", "invalid-id"),
        ("user=skills", "invalid-id"),
        ("user=.hidden", "invalid-id"),
        ("user=a\\b", "invalid-id"),
        ("session=AGENTS.md", "invalid-id"),
        ("session=x\u{1}", "invalid-id"),
        ("sandbox=/", "invalid-sandbox-root"),
        ("sandbox=/.", "invalid-sandbox-root"),
        ("sandbox=//", "invalid-sandbox-root"),
        ("sandbox=/./.", "invalid-sandbox-root"),
        ("user=docs", "invalid-id"), // first folder of the context file ./docs/extra.md
        ("user=SOUL.md", "invalid-id"), // the context file SOUL.md
        ("session=Docs", "invalid-id"),
        ("user=Knowledge", "invalid-id"),
        ("user=a\u{200B}", "invalid-id"),
        ("user=a\u{202E}", "invalid-id"),
        ("sandbox=workspace", "invalid-sandbox-root"),
        ("scope=team", "invalid-params"),
        ("filesystem=remote", "unsupported-filesystem"),
        ("pathMode=open", "invalid-params"),
        ("noname", "no-session-id"),
    ];
    for &(case, code) in cases {
        let mut config = config();
        let mut params = RunParams::default();
        let (key, value) = case.split_once('=').unwrap_or((case, ""));
        match key {
            "user" => params.user_id = Some(value.into()),
            "session" => params.session_id = Some(value.into()),
            "sandbox" => {
                params.filesystem = Some("sandbox".into());
                params.sandbox_root = Some(value.into());
            }
            "scope" => params.scope = Some(value.into()),
            "filesystem" => params.filesystem = Some(value.into()),
            "pathMode" => params.path_mode = Some(value.into()),
            "noname" => config.agent.name = None,
            _ => unreachable!(),
        }
        let err = bind(&config, &params, DiskAccess::Lexical).unwrap_err();
        assert_eq!(err.code.as_str(), code, "{case}: {}", err.message);
    }
}

#[test]
fn blank_ids_count_as_absent() {
    let params = RunParams {
        user_id: Some("  ".into()),
        session_id: Some("".into()),
        ..RunParams::default()
    };
    let run = bind(&config(), &params, DiskAccess::Lexical).unwrap();
    // USER scope: no user, no session ⇒ the agent name.
    assert_eq!(run.root(), "/srv/ws/assistant");
}

#[test]
fn params_override_the_config() {
    let params: RunParams = serde_json::from_str(
        r#"{"userId":"bob","scope":"user","pathMode":"sandboxed","additionalRoots":["extra"]}"#,
    )
    .unwrap();
    let run = bind(&config(), &params, DiskAccess::Lexical).unwrap();
    assert_eq!(run.root(), "/srv/ws/bob");
    // Relative additional roots are relative to the project (no agentws.toml here).
    assert_eq!(
        run.normalize("/srv/project/extra/f", R).unwrap_err().code,
        RefusalCode::OutsideRoots
    );
    let params = RunParams {
        path_mode: Some("rooted".into()),
        additional_roots: Some(vec!["extra".into()]),
        ..params
    };
    let run = bind(&config(), &params, DiskAccess::Lexical).unwrap();
    assert_eq!(
        run.normalize("/srv/project/extra/f", R).unwrap().key,
        "/srv/project/extra/f"
    );
    // The configured /data/shared is replaced, not extended.
    assert_eq!(
        run.normalize("/data/shared/y", R).unwrap_err().code,
        RefusalCode::OutsideRoots
    );
}

#[test]
fn the_root_is_the_one_the_prompt_advertises() {
    // Under the runtime whose prompt advertises the per-session workspace (#3020) and the active
    // sandbox root (#3645); earlier releases advertise the base workspace (docs/paths.md).
    let harness = crate::config::release::map_version("2026-09")
        .unwrap()
        .harness;
    for (scope, user, session) in [
        (Scope::User, Some("alice"), None),
        (Scope::User, None, Some("s-9")),
        (Scope::Session, Some("alice"), Some("s-9")),
        (Scope::Agent, Some("alice"), None),
        (Scope::Global, None, None),
    ] {
        for filesystem in [FilesystemMode::Local, FilesystemMode::Sandbox] {
            let mut config = config();
            config.harness = harness;
            let mut ctx = SessionContext::from_config(&config);
            ctx.scope = scope;
            ctx.user_id = user.map(Into::into);
            ctx.session_id = session.map(Into::into);
            ctx.filesystem = filesystem;
            let advertised = crate::context::advertised_workspace(&config, &ctx).unwrap();
            let run = Run::new(&config, &ctx, RunOptions::from_config(&config)).unwrap();
            assert_eq!(run.root(), advertised);
            let n = run.normalize("notes/a.md", R).unwrap();
            assert_eq!(n.path, format!("{advertised}/notes/a.md"));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Properties.

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z][a-z0-9_-]{0,8}",
        "[a-zA-Z0-9 .%~é]{1,6}".prop_filter("a clean name", |s| {
            s != "." && s != ".." && !s.starts_with('~') && !s.trim().is_empty()
        }),
    ]
}

fn clean_relative() -> impl Strategy<Value = String> {
    prop::collection::vec(name(), 1..5).prop_map(|parts| parts.join("/"))
}

fn id() -> impl Strategy<Value = String> {
    "[a-z][a-z0-9-]{0,6}".prop_filter("reserved, or a segment of the test roots", |s| {
        !crate::context::RESERVED_TOP_LEVEL_NAMES.contains(&s.as_str())
            && !["srv", "ws", "project", "data", "shared"].contains(&s.as_str())
    })
}

/// Inputs aimed at the interesting places of `c`'s roots, plus noise.
fn input_for(c: &Ctx) -> impl Strategy<Value = String> {
    let (b, p, a) = (c.base.clone(), c.project.clone(), c.additional.clone());
    let (b2, b3, p2) = (b.clone(), b.clone(), p.clone());
    let sandbox = c.sandbox.clone().unwrap_or_else(|| "/workspace".into());
    prop_oneof![
        clean_relative(),
        clean_relative().prop_map(move |r| format!("{b}/{r}")),
        (id(), clean_relative()).prop_map(move |(ns, r)| format!("{b2}/{ns}/{r}")),
        clean_relative().prop_map(move |r| format!("file://{b3}/{r}")),
        clean_relative().prop_map(move |r| format!("{p}/{r}")),
        clean_relative().prop_map(move |r| format!("{p2}-other/{r}")),
        clean_relative().prop_map(move |r| format!("{a}/{r}")),
        clean_relative().prop_map(move |r| format!("{sandbox}/{r}")),
        clean_relative().prop_map(|r| format!("/{r}")),
        clean_relative().prop_map(|r| format!("C:\\{}", r.replace('/', "\\"))),
        "[/\\\\a-z.~%:]{0,12}",
        any::<String>(),
    ]
}

#[derive(Debug, Clone)]
struct Ctx {
    user: String,
    scope: Scope,
    sandbox: Option<String>,
    path_mode: PathMode,
    base: String,
    project: String,
    additional: String,
}

fn abs_root() -> impl Strategy<Value = String> {
    prop::collection::vec("[a-z][a-z0-9]{0,4}", 1..4)
        .prop_map(|parts| format!("/{}", parts.join("/")))
}

fn ctx() -> impl Strategy<Value = Ctx> {
    (
        id(),
        prop_oneof![Just(Scope::User), Just(Scope::Session), Just(Scope::Global)],
        prop_oneof![
            Just(None),
            Just(Some("/workspace".to_string())),
            Just(Some("/home/user".to_string())),
            abs_root().prop_map(Some),
        ],
        prop_oneof![
            Just(PathMode::Rooted),
            Just(PathMode::Sandboxed),
            Just(PathMode::Unrestricted)
        ],
        (abs_root(), prop::bool::ANY, abs_root(), abs_root()),
    )
        .prop_map(
            |(user, scope, sandbox, path_mode, (project, inside, base, additional))| Ctx {
                user,
                scope,
                sandbox,
                path_mode,
                // The workspace inside the project (the default layout) or elsewhere.
                base: if inside {
                    format!("{project}/.agentscope/workspace")
                } else {
                    base
                },
                project,
                additional,
            },
        )
}

fn run_of(c: &Ctx) -> Run {
    let mut config = Config::defaults_for(Path::new(&c.project));
    config.workspace = PathBuf::from(&c.base);
    config.agent.name = Some("assistant".into());
    config.filesystem.additional_roots = vec![PathBuf::from(&c.additional)];
    let mut s = SessionContext::from_config(&config);
    s.user_id = Some(c.user.clone());
    s.session_id = Some(c.user.clone());
    s.scope = c.scope;
    if let Some(root) = &c.sandbox {
        s.filesystem = FilesystemMode::Sandbox;
        s.sandbox_root = root.clone();
    }
    let mut options = RunOptions::from_config(&config);
    options.path_mode = c.path_mode;
    options.disk = DiskAccess::Lexical;
    Run::new(&config, &s, options).unwrap()
}

fn inside(path: &str, root: &str) -> bool {
    path == root || root == "/" || path.starts_with(&format!("{root}/"))
}

fn ctx_and_input() -> impl Strategy<Value = (Ctx, String)> {
    ctx().prop_flat_map(|c| {
        let input = input_for(&c);
        (Just(c), input)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn results_stay_inside_an_allowed_root((c, input) in ctx_and_input(), write in any::<bool>()) {
        let run = run_of(&c);
        let op = if write { W } else { R };
        if let Ok(n) = run.normalize(&input, op) {
            let local = c.sandbox.is_none();
            let own = inside(&n.path, run.root());
            let shared = local && op == R && n.key.starts_with('/') && inside(&n.path, &c.base);
            let outside = local && c.path_mode != PathMode::Sandboxed
                && (inside(&n.path, &c.project) || inside(&n.path, &c.additional));
            let anywhere = local && c.path_mode == PathMode::Unrestricted;
            prop_assert!(own || shared || outside || anywhere, "{:?} -> {:?}", input, n);
            if local && inside(&n.path, &c.base) && !own {
                // Under B but not under E: only shared assets, and only for reading.
                prop_assert!(shared, "{:?} -> {:?}", input, n);
            }
        }
    }

    #[test]
    fn absolute_under_the_root_equals_relative(c in ctx(), r in clean_relative(), write in any::<bool>()) {
        let run = run_of(&c);
        let op = if write { W } else { R };
        let absolute = format!("{}/{r}", run.root());
        prop_assert_eq!(run.normalize(&absolute, op), run.normalize(&r, op));
        prop_assert_eq!(run.normalize(&format!("{absolute}/"), op), run.normalize(&r, op));
    }

    #[test]
    fn the_namespace_never_appears_twice(mut c in ctx(), r in clean_relative()) {
        c.sandbox = None; // A namespace folder exists on local filesystems only.
        let run = run_of(&c);
        prop_assume!(!r.split('/').any(|s| s == c.user));
        let ns = run.namespace().map(str::to_string);
        for input in [r.clone(), format!("{}/{r}", run.root()), format!("file://{}/{r}", run.root())] {
            if let (Ok(n), Some(ns)) = (run.normalize(&input, R), &ns) {
                let times = n.path.split('/').filter(|s| s == ns).count();
                let in_base = c.base.split('/').filter(|s| s == ns).count();
                prop_assert_eq!(times, 1 + in_base, "{:?} -> {:?}", input, n);
            }
        }
    }

    /// Whatever id a run starts with, no write it is allowed lands on a shared asset of the base
    /// workspace — compared without letter case, as a macOS or Windows volume would.
    #[test]
    fn no_accepted_write_lands_on_a_shared_asset(
        user in prop_oneof![
            id(),
            prop::sample::select(vec![
                "docs", "Docs", "DOCS", "Guide.md", "guide.MD", "Skills", "KNOWLEDGE", "Tools.json",
                "agents.md", "subagents", "alice", "team",
            ]).prop_map(String::from),
        ],
        scope in prop_oneof![Just(Scope::User), Just(Scope::Session)],
        rel in prop_oneof![
            clean_relative(),
            prop::sample::select(vec![
                "Guide.md", "guide.md", "docs/Guide.md", "pdf/SKILL.md", "x.md", ".",
            ]).prop_map(String::from),
        ],
        absolute in any::<bool>(),
    ) {
        let mut config = config();
        config.agent.additional_context_files = vec!["docs/Guide.md".into(), "Guide.md".into()];
        let mut ctx = SessionContext::from_config(&config);
        ctx.user_id = Some(user.clone());
        ctx.session_id = Some(user.clone());
        ctx.scope = scope;
        let options = RunOptions { disk: DiskAccess::Lexical, ..RunOptions::from_config(&config) };
        let Ok(run) = Run::new(&config, &ctx, options) else {
            return Ok(());
        };
        let input = if absolute { format!("/srv/ws/{user}/{rel}") } else { rel.clone() };
        if let Ok(n) = run.normalize(&input, W) {
            if let Some(in_base) = n.path.strip_prefix("/srv/ws/") {
                let folded = crate::context::fold_case(in_base);
                let first = folded.split('/').next().unwrap_or("");
                let shared = ["agents.md", "memory.md", "tools.json", "guide.md"].contains(&folded.as_str())
                    || ["knowledge", "skills", "subagents", ".skills-cache"].contains(&first)
                    || folded == "docs/guide.md";
                prop_assert!(!shared, "user {:?}: {:?} -> {:?}", user, input, n);
            }
        }
    }

    #[test]
    fn never_panics_on_any_input(input in any::<String>()) {
        let _ = run_for("alice").normalize(&input, R);
        let _ = run_for("docker").normalize(&input, W);
    }
}
