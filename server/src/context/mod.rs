//! The context of one agent session or run, as an explicit value: who is calling (user and session
//! ids), the isolation scope, the filesystem mode and the sandbox root, and the one function that
//! turns it into the per-call namespace and the effective workspace root.
//!
//! `effective_root` is the single source of truth for "where this session's files live": the
//! prompt preview advertises it and the path normalizer resolves against it, so the two cannot
//! drift apart (the runtime bug behind [POST-3020]). Depends only on `base`, `config` and
//! `syntax::java`.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::config::release::Change;
use crate::config::{check_sandbox_root, Config, FilesystemMode, Harness, Scope};
use crate::syntax::java;

pub mod overrides;
pub use overrides::{session_context, ContextOverrides};

/// Names the workspace layout reserves at its top level; an id equal to one of them would make its
/// namespace folder collide with shared workspace content.
pub const RESERVED_TOP_LEVEL_NAMES: &[&str] = &[
    "skills",
    "subagents",
    "knowledge",
    "memory",
    "plans",
    "agents",
    "AGENTS.md",
    "MEMORY.md",
    "tools.json",
];

/// Who is calling and how the agent is set up for this call.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionContext {
    /// `None` (or blank) when the call carries no user id.
    pub user_id: Option<String>,
    /// `None` (or blank) ⇒ the runtime's default, the agent name.
    pub session_id: Option<String>,
    pub scope: Scope,
    pub filesystem: FilesystemMode,
    /// The active sandbox root (only used in sandbox mode).
    pub sandbox_root: String,
    /// The runtime release (and opted-in proposals) this call is modelled under.
    pub harness: Harness,
}

impl SessionContext {
    /// The context a call without ids gets under `config`.
    pub fn from_config(config: &Config) -> Self {
        Self {
            user_id: None,
            session_id: None,
            scope: config.scope,
            filesystem: config.filesystem.mode,
            sandbox_root: config.filesystem.effective_sandbox_root().to_string(),
            harness: config.harness,
        }
    }
}

/// Why a context cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContextError {
    /// `invalid-id`, `no-session-id`, `invalid-sandbox-root`, `invalid-params`.
    pub code: &'static str,
    pub message: String,
}

impl fmt::Display for ContextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ContextError {}

/// The ids of a call after the runtime's defaults were applied.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResolvedIds {
    pub user_id: Option<String>,
    /// The session id in force: the given one, else the agent name.
    pub session_id: String,
    /// True when `session_id` is the agent-name default.
    pub session_id_defaulted: bool,
}

/// The namespace (at most one path segment at HEAD, harness-spec §6.1) and the effective root.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EffectiveRoot {
    pub ids: ResolvedIds,
    /// The namespace segment, `None` when the namespace is empty.
    pub namespace: Option<String>,
    pub filesystem: FilesystemMode,
    /// The base workspace B (host path).
    pub base: PathBuf,
    /// The effective root E as the prompt advertises it and the normalizer resolves against it:
    /// `B/<ns>` (or `B`) on a local filesystem, the sandbox root in sandbox mode, `B` in remote mode.
    pub root: String,
    /// Host folder behind `root`; `None` when `root` is a container path.
    pub host_root: Option<PathBuf>,
}

/// Applies the runtime's id defaults and our id rules (harness-spec §6.1; our stricter contract
/// in docs/paths.md): blank ids count as absent; ids that would change the folder structure are
/// refused.
pub fn resolve_ids(config: &Config, ctx: &SessionContext) -> Result<ResolvedIds, ContextError> {
    let user_id = non_blank(ctx.user_id.as_deref());
    let session_id = non_blank(ctx.session_id.as_deref());
    if let Some(user) = &user_id {
        check_id(config, "user", user)?;
    }
    if let Some(session) = &session_id {
        check_id(config, "session", session)?;
    }
    match session_id {
        Some(session_id) => Ok(ResolvedIds {
            user_id,
            session_id,
            session_id_defaulted: false,
        }),
        None => match config
            .agent
            .name
            .as_deref()
            .and_then(|n| non_blank(Some(n)))
        {
            Some(name) => {
                check_id(
                    config,
                    "session (the agent name, the runtime's default session id)",
                    &name,
                )?;
                Ok(ResolvedIds {
                    user_id,
                    session_id: name,
                    session_id_defaulted: true,
                })
            }
            None => Err(ContextError {
                code: "no-session-id",
                message: "the call has no session id, and the agent has no name to use instead; \
                          the runtime fails such a call: give a session id (`agentws preview \
                          --session ID`, or the preview's session in the editor) or set `name` \
                          under `[agent]` in agentws.toml"
                    .to_string(),
            }),
        },
    }
}

/// The namespace segment for `scope` (`IsolationScope.toNamespaceFactory`).
pub fn namespace(scope: Scope, ids: &ResolvedIds) -> Option<String> {
    match scope {
        Scope::User => ids.user_id.clone().or_else(|| Some(ids.session_id.clone())),
        Scope::Session => Some(ids.session_id.clone()),
        Scope::Agent | Scope::Global => None,
    }
}

/// The one computation of a session's workspace root (see the module docs).
pub fn effective_root(
    config: &Config,
    ctx: &SessionContext,
) -> Result<EffectiveRoot, ContextError> {
    let ids = resolve_ids(config, ctx)?;
    let namespace = namespace(ctx.scope, &ids);
    let base = config.workspace.clone();
    let (root, host_root) = match ctx.filesystem {
        FilesystemMode::Local => {
            let host = match &namespace {
                Some(ns) => base.join(ns),
                None => base.clone(),
            };
            (display_path(&host), Some(host))
        }
        FilesystemMode::Sandbox => {
            let root = check_sandbox_root(&ctx.sandbox_root).map_err(|message| ContextError {
                code: "invalid-sandbox-root",
                message,
            })?;
            (root, None)
        }
        FilesystemMode::Remote => (display_path(&base), Some(base.clone())),
    };
    Ok(EffectiveRoot {
        ids,
        namespace,
        filesystem: ctx.filesystem,
        base,
        root,
        host_root,
    })
}

/// The path the prompt prints after "The workspace directory is:" for this context and runtime:
/// the base workspace, except the per-session workspace on the local overlay once #3020 is in
/// (`Change::SessionWorkspace`), and the effective root in every mode under the #3645 proposal
/// (`Change::ActiveSandboxRoot`: the active sandbox's root in sandbox mode).
pub fn advertised_workspace(config: &Config, ctx: &SessionContext) -> Result<String, ContextError> {
    let session_workspace =
        ctx.harness.has(Change::SessionWorkspace) && ctx.filesystem == FilesystemMode::Local;
    if session_workspace || ctx.harness.has(Change::ActiveSandboxRoot) {
        effective_root(config, ctx).map(|r| r.root)
    } else {
        Ok(display_path(&config.workspace))
    }
}

/// How a host path is printed (Java `Path.toString()` of an absolute path: no normalization).
pub fn display_path(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

fn non_blank(id: Option<&str>) -> Option<String> {
    id.filter(|s| !java::is_blank(s)).map(str::to_string)
}

/// Longest id, in bytes: a namespace folder name longer than this (Linux `NAME_MAX`) cannot be
/// created, and the runtime would fail the call on its first write.
pub const MAX_ID_BYTES: usize = 255;

/// Unicode format characters (general category Cf) and the line/paragraph separators: invisible
/// in a file manager and a log, and the bidi controls among them (U+202A–U+202E, U+2066–U+2069)
/// make one id display as another (`alice\u{202E}` …). Ranges are inclusive.
const INVISIBLE: &[(char, char)] = &[
    ('\u{00AD}', '\u{00AD}'),
    ('\u{0600}', '\u{0605}'),
    ('\u{061C}', '\u{061C}'),
    ('\u{06DD}', '\u{06DD}'),
    ('\u{070F}', '\u{070F}'),
    ('\u{0890}', '\u{0891}'),
    ('\u{08E2}', '\u{08E2}'),
    ('\u{180E}', '\u{180E}'),
    ('\u{200B}', '\u{200F}'),
    ('\u{2028}', '\u{202E}'),
    ('\u{2060}', '\u{2064}'),
    ('\u{2066}', '\u{206F}'),
    ('\u{FEFF}', '\u{FEFF}'),
    ('\u{FFF9}', '\u{FFFB}'),
    ('\u{110BD}', '\u{110BD}'),
    ('\u{110CD}', '\u{110CD}'),
    ('\u{13430}', '\u{1343F}'),
    ('\u{1BCA0}', '\u{1BCA3}'),
    ('\u{1D173}', '\u{1D17A}'),
    ('\u{E0001}', '\u{E0001}'),
    ('\u{E0020}', '\u{E007F}'),
];

fn is_invisible(c: char) -> bool {
    INVISIBLE.iter().any(|&(lo, hi)| (lo..=hi).contains(&c))
}

/// A name as a case-insensitive volume (APFS, NTFS) compares it: upper- then lower-casing folds
/// `Skills`, `SKILLS`, `ſkills` (long s) and `\u{212A}nowledge` (Kelvin sign) alike.
pub fn fold_case(name: &str) -> String {
    name.to_uppercase().to_lowercase()
}

/// Why `id` cannot name a namespace folder by itself, whatever the configuration: it would change
/// the folder structure, hide from a reader, not fit a file name, or (compared without letter
/// case, as macOS and Windows volumes compare names) be a folder the workspace layout reserves.
pub fn id_shape_problem(id: &str) -> Option<String> {
    let problem = if id.contains('/') || id.contains('\\') {
        "contains a path separator; the runtime would create nested folders from it"
    } else if id.chars().any(|c| c.is_control()) {
        "contains a NUL or control character, which no filesystem path can hold safely"
    } else if let Some(c) = id.chars().find(|&c| is_invisible(c)) {
        return Some(format!(
            "contains the invisible format character U+{:04X}; an id with invisible or \
             direction-changing characters displays as another id",
            c as u32
        ));
    } else if id.len() > MAX_ID_BYTES {
        return Some(format!(
            "is {} bytes long; a folder name holds at most {MAX_ID_BYTES} bytes, so the runtime \
             would fail the first write",
            id.len()
        ));
    } else if id == "." || id == ".." {
        "is a relative path segment; the runtime would resolve it to another folder (or refuse `..`)"
    } else if id.starts_with('.') {
        "starts with `.`; such top-level names are reserved for runtime folders like `.skills-cache`"
    } else if let Some(name) = reserved_name(id, RESERVED_TOP_LEVEL_NAMES.iter().copied()) {
        return Some(if name == id {
            "equals a name the workspace reserves at its top level; its namespace folder would be the shared one".to_string()
        } else {
            format!(
                "equals the reserved top-level name `{name}` but for letter case; on a \
                 case-insensitive volume (macOS, Windows) its namespace folder would be the shared one"
            )
        });
    } else {
        return None;
    };
    Some(problem.to_string())
}

/// The first segment of a configured additional context file as the workspace-relative path
/// the runtime reads (`./docs/x.md` and `docs\\x.md` ⇒ `docs`), and whether it is a folder (the
/// file lies deeper) rather than the file itself.
pub fn context_file_first_segment(entry: &str) -> Option<(&str, bool)> {
    let mut segments = entry
        .split(['/', '\\'])
        .filter(|s| !s.is_empty() && *s != ".");
    let first = segments.next()?;
    Some((first, segments.next().is_some()))
}

/// The reserved name `id` equals without letter case, if any.
fn reserved_name<'a>(id: &str, names: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let folded = fold_case(id);
    names.into_iter().find(|name| fold_case(name) == folded)
}

fn check_id(config: &Config, kind: &str, id: &str) -> Result<(), ContextError> {
    let problem = id_shape_problem(id).or_else(|| {
        let folded = fold_case(id);
        let (entry, first, nested) =
            config
                .agent
                .additional_context_files
                .iter()
                .find_map(|entry| {
                    let (first, nested) = context_file_first_segment(entry)?;
                    (fold_case(first) == folded).then_some((entry, first, nested))
                })?;
        Some(if nested {
            format!(
                "names the folder `{first}` of the shared additional context file `{entry}`: \
                 this id's namespace folder would be that folder, and its file tools would write \
                 the file every other user's prompt reads"
            )
        } else {
            format!(
                "names the shared additional context file `{entry}`: this id's namespace folder \
                 would take the place of the file every other user's prompt reads"
            )
        })
    });
    match problem {
        Some(problem) => Err(ContextError {
            code: "invalid-id",
            message: format!("{kind} id `{}` {problem}", id.escape_debug()),
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> Config {
        let mut config = Config::defaults_for(Path::new("/srv/app"));
        config.agent.name = Some("assistant".into());
        config
    }

    fn ctx(user: Option<&str>, session: Option<&str>, scope: Scope) -> SessionContext {
        SessionContext {
            user_id: user.map(str::to_string),
            session_id: session.map(str::to_string),
            scope,
            ..SessionContext::from_config(&config())
        }
    }

    #[test]
    fn user_scope_falls_back_to_session_then_agent_name() {
        let c = config();
        let root = effective_root(&c, &ctx(Some("alice"), Some("s1"), Scope::User)).unwrap();
        assert_eq!(root.root, "/srv/app/.agentscope/workspace/alice");
        let root = effective_root(&c, &ctx(Some("  "), Some("s1"), Scope::User)).unwrap();
        assert_eq!(root.namespace.as_deref(), Some("s1"));
        let root = effective_root(&c, &ctx(None, None, Scope::User)).unwrap();
        assert_eq!(root.namespace.as_deref(), Some("assistant"));
        assert!(root.ids.session_id_defaulted);
    }

    #[test]
    fn agent_and_global_scopes_share_the_base() {
        let c = config();
        for scope in [Scope::Agent, Scope::Global] {
            let root = effective_root(&c, &ctx(Some("alice"), None, scope)).unwrap();
            assert_eq!(root.namespace, None);
            assert_eq!(root.root, "/srv/app/.agentscope/workspace");
        }
    }

    #[test]
    fn sandbox_root_is_the_container_root() {
        let c = config();
        let mut context = ctx(Some("alice"), None, Scope::User);
        context.filesystem = FilesystemMode::Sandbox;
        context.sandbox_root = "/home/user/".into();
        let root = effective_root(&c, &context).unwrap();
        assert_eq!(root.root, "/home/user");
        assert_eq!(root.host_root, None);
        for (given, clean) in [
            ("/workspace/./", "/workspace"),
            ("//home//user", "/home/user"),
            ("/home/user/.", "/home/user"),
        ] {
            context.sandbox_root = given.into();
            assert_eq!(effective_root(&c, &context).unwrap().root, clean, "{given}");
        }
        for bad in [
            "/",
            "/.",
            "//",
            "/./.",
            "///./",
            "workspace",
            "",
            "/workspace/../x",
        ] {
            context.sandbox_root = bad.into();
            assert_eq!(
                effective_root(&c, &context).unwrap_err().code,
                "invalid-sandbox-root",
                "{bad}"
            );
        }
    }

    #[test]
    fn ids_that_change_the_folder_structure_are_refused() {
        let c = config();
        for bad in [
            "a/b",
            "a\\b",
            ".",
            "..",
            "skills",
            ".hidden",
            "x\u{0}y",
            "tools.json",
            // Reserved names compared as a case-insensitive volume compares them.
            "Skills",
            "SKILLS",
            "\u{17F}kills",
            "\u{212A}nowledge",
            "agents.MD",
            // Invisible and direction-changing characters.
            "ali\u{200B}ce",
            "alice\u{202E}",
            "\u{2066}bob\u{2069}",
            "\u{FEFF}alice",
            "al\u{200E}ice",
            "\u{E0061}",
        ] {
            let err = effective_root(&c, &ctx(Some(bad), None, Scope::User)).unwrap_err();
            assert_eq!(err.code, "invalid-id", "{bad}");
            let err = effective_root(&c, &ctx(None, Some(bad), Scope::Session)).unwrap_err();
            assert_eq!(err.code, "invalid-id", "{bad}");
        }
        let long = "a".repeat(MAX_ID_BYTES + 1);
        let err = effective_root(&c, &ctx(Some(&long), None, Scope::User)).unwrap_err();
        assert_eq!(
            err.message,
            format!(
                "user id `{long}` is 256 bytes long; a folder name holds at most 255 bytes, so \
                 the runtime would fail the first write"
            )
        );
        let longest = "\u{e9}".repeat(MAX_ID_BYTES / 2);
        assert!(effective_root(&c, &ctx(Some(&longest), None, Scope::User)).is_ok());
        let err = effective_root(&c, &ctx(Some("x\u{202E}y"), None, Scope::User)).unwrap_err();
        assert_eq!(
            err.message,
            "user id `x\\u{202e}y` contains the invisible format character U+202E; an id with \
             invisible or direction-changing characters displays as another id"
        );
        // Ordinary non-ASCII ids pass.
        for good in ["jos\u{e9}", "\u{7530}\u{4E2D}", "user-1", "_svc", "Alice"] {
            assert!(
                effective_root(&c, &ctx(Some(good), None, Scope::User)).is_ok(),
                "{good}"
            );
        }
    }

    #[test]
    fn ids_that_take_a_shared_context_file_are_refused() {
        let mut c = config();
        c.agent.additional_context_files = vec![
            "./docs/Guide.md".into(),
            "SOUL.md".into(),
            "notes\\team.md".into(),
        ];
        for (bad, what) in [
            (
                "docs",
                "folder `docs` of the shared additional context file `./docs/Guide.md`",
            ),
            (
                "DOCS",
                "folder `docs` of the shared additional context file `./docs/Guide.md`",
            ),
            (
                "notes",
                "folder `notes` of the shared additional context file `notes\\team.md`",
            ),
            ("SOUL.md", "shared additional context file `SOUL.md`"),
            ("soul.md", "shared additional context file `SOUL.md`"),
        ] {
            let err = effective_root(&c, &ctx(Some(bad), None, Scope::User)).unwrap_err();
            assert_eq!(err.code, "invalid-id", "{bad}");
            assert!(err.message.contains(what), "{bad}: {}", err.message);
            let err = effective_root(&c, &ctx(None, Some(bad), Scope::Session)).unwrap_err();
            assert_eq!(err.code, "invalid-id", "{bad}");
        }
        // The agent name as the default session id is held to the same rule.
        c.agent.name = Some("docs".into());
        let err = effective_root(&c, &ctx(None, None, Scope::User)).unwrap_err();
        assert_eq!(err.code, "invalid-id");
        // Agent and global scopes have no namespace folder, but the ids are still checked.
        assert!(effective_root(&c, &ctx(Some("Guide.md"), Some("s"), Scope::User)).is_ok());
    }

    #[test]
    fn no_name_and_no_session_id_fails_like_the_runtime() {
        let c = Config::defaults_for(Path::new("/srv/app"));
        let err = effective_root(&c, &ctx(None, None, Scope::Agent)).unwrap_err();
        assert_eq!(err.code, "no-session-id");
    }

    #[test]
    fn releases_advertise_different_roots() {
        use crate::config::release::Release;
        let c = config();
        let mut context = ctx(Some("alice"), None, Scope::User);
        for release in [Release::V2_0_2, Release::V2_0_3Snapshot, Release::V2_0_3] {
            context.harness = Harness::of(release);
            assert_eq!(
                advertised_workspace(&c, &context).unwrap(),
                "/srv/app/.agentscope/workspace"
            );
        }
        context.harness = Harness::of(Release::Main);
        assert_eq!(
            advertised_workspace(&c, &context).unwrap(),
            "/srv/app/.agentscope/workspace/alice"
        );
        // #3020 changes the local overlay alone; #3645 the sandbox too.
        context.filesystem = FilesystemMode::Sandbox;
        assert_eq!(
            advertised_workspace(&c, &context).unwrap(),
            "/srv/app/.agentscope/workspace"
        );
        context.harness = Harness::of(Release::Main).with(Change::ActiveSandboxRoot);
        assert_eq!(advertised_workspace(&c, &context).unwrap(), "/workspace");
    }
}
