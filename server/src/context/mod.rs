//! The context of one agent session or run, as an explicit value: who is calling (user and session
//! ids), the isolation scope, the filesystem mode and the sandbox root, and the one function that
//! turns it into the per-call namespace and the effective workspace root.
//!
//! `effective_root` is the single source of truth for "where this session's files live": the
//! prompt preview advertises it and the path normalizer resolves against it, so the two cannot
//! drift apart (the runtime bug behind [POST-3020]). Depends only on `config` and `syntax::java`.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::config::{Config, FilesystemMode, HarnessVersion, Scope};
use crate::syntax::java;

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
    pub harness: HarnessVersion,
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
    /// `invalid-id`, `no-session-id`, `invalid-sandbox-root`.
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
        check_id("user", user)?;
    }
    if let Some(session) = &session_id {
        check_id("session", session)?;
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
                message: "the call has no session id and the agent has no name to default it to; \
                          the runtime fails such a call with a NullPointerException \
                          (set [agent] name in agentws.toml or pass a session id)"
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
            let root = check_sandbox_root(&ctx.sandbox_root)?;
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

/// The path the prompt prints after "The workspace directory is:" for this context and harness
/// version: the base workspace at 2026-08 (HEAD), the effective root from 2026-09 on.
pub fn advertised_workspace(config: &Config, ctx: &SessionContext) -> Result<String, ContextError> {
    match ctx.harness {
        HarnessVersion::V2026_08 => Ok(display_path(&config.workspace)),
        HarnessVersion::V2026_09 => effective_root(config, ctx).map(|r| r.root),
    }
}

/// A sandbox root must be absolute and not `/`; one trailing `/` is dropped.
pub fn check_sandbox_root(root: &str) -> Result<String, ContextError> {
    let trimmed = if root.len() > 1 {
        root.strip_suffix('/').unwrap_or(root)
    } else {
        root
    };
    if !trimmed.starts_with('/') || trimmed == "/" || trimmed.split('/').any(|s| s == "..") {
        return Err(ContextError {
            code: "invalid-sandbox-root",
            message: format!(
                "sandbox root `{root}` must be an absolute container path other than `/`"
            ),
        });
    }
    Ok(trimmed.to_string())
}

/// How a host path is printed (Java `Path.toString()` of an absolute path: no normalization).
pub fn display_path(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

fn non_blank(id: Option<&str>) -> Option<String> {
    id.filter(|s| !java::is_blank(s)).map(str::to_string)
}

fn check_id(kind: &str, id: &str) -> Result<(), ContextError> {
    let problem = if id.contains('/') || id.contains('\\') {
        Some("contains a path separator; the runtime would create nested folders from it")
    } else if id.chars().any(|c| c.is_control()) {
        Some("contains a NUL or control character, which no filesystem path can hold safely")
    } else if id == "." || id == ".." {
        Some("is a relative path segment; the runtime would resolve it to another folder (or reject `..` with an IllegalArgumentException)")
    } else if id.starts_with('.') {
        Some("starts with `.`; such top-level names are reserved for runtime folders like `.skills-cache`")
    } else if RESERVED_TOP_LEVEL_NAMES.contains(&id) {
        Some("equals a name the workspace reserves at its top level; its namespace folder would be the shared one")
    } else {
        None
    };
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
        context.sandbox_root = "/".into();
        assert_eq!(
            effective_root(&c, &context).unwrap_err().code,
            "invalid-sandbox-root"
        );
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
        ] {
            let err = effective_root(&c, &ctx(Some(bad), None, Scope::User)).unwrap_err();
            assert_eq!(err.code, "invalid-id", "{bad}");
        }
    }

    #[test]
    fn no_name_and_no_session_id_fails_like_the_runtime() {
        let c = Config::defaults_for(Path::new("/srv/app"));
        let err = effective_root(&c, &ctx(None, None, Scope::Agent)).unwrap_err();
        assert_eq!(err.code, "no-session-id");
    }

    #[test]
    fn harness_versions_advertise_different_roots() {
        let c = config();
        let mut context = ctx(Some("alice"), None, Scope::User);
        context.harness = HarnessVersion::V2026_08;
        assert_eq!(
            advertised_workspace(&c, &context).unwrap(),
            "/srv/app/.agentscope/workspace"
        );
        context.harness = HarnessVersion::V2026_09;
        assert_eq!(
            advertised_workspace(&c, &context).unwrap(),
            "/srv/app/.agentscope/workspace/alice"
        );
    }
}
