//! The one way from what a caller says about a session (the `agentws preview` flags, the
//! `agentws/previewPrompt` context, the `agentws/runBegin` parameters) to a `SessionContext`: the
//! project configuration's context, each field overridden when the caller gives it. An unknown
//! scope, filesystem or harness is refused with the same words whichever front-end it came from.
//!
//! Depends only on `config`, the context types and `base::suggest`; the front-ends map the error
//! to their own channel (usage error, JSON-RPC invalid params, run refusal).

use crate::base::suggest::{did_you_mean, hint};
use crate::config::release::{map_version, RELEASES};
use crate::config::{Config, FilesystemMode, Scope};

use super::{ContextError, SessionContext};

/// What a caller sets; `None` keeps the configuration's value (for ids: no id).
#[derive(Clone, Copy, Debug, Default)]
pub struct ContextOverrides<'a> {
    pub user_id: Option<&'a str>,
    pub session_id: Option<&'a str>,
    /// `user | session | agent | global`.
    pub scope: Option<&'a str>,
    /// `local | sandbox | remote`.
    pub filesystem: Option<&'a str>,
    pub sandbox_root: Option<&'a str>,
    /// A release (`2.0.2`, `2.0.3-SNAPSHOT`, `2.0.3`, `main`), an old name (`2026-08`,
    /// `2026-09`) or a version.
    pub harness: Option<&'a str>,
}

/// Error code of a refused override (as `paths` and the protocol name it).
pub const INVALID_PARAMS: &str = "invalid-params";

/// The session context `overrides` describe under `config`.
pub fn session_context(
    config: &Config,
    overrides: &ContextOverrides<'_>,
) -> Result<SessionContext, ContextError> {
    let mut ctx = SessionContext::from_config(config);
    ctx.user_id = overrides.user_id.map(str::to_string);
    ctx.session_id = overrides.session_id.map(str::to_string);
    if let Some(scope) = overrides.scope {
        ctx.scope = parse("scope", scope, Scope::parse, "user, session, agent, global")?;
    }
    if let Some(filesystem) = overrides.filesystem {
        ctx.filesystem = parse(
            "filesystem",
            filesystem,
            FilesystemMode::parse,
            "local, sandbox, remote",
        )?;
    }
    if let Some(root) = overrides.sandbox_root {
        ctx.sandbox_root = root.to_string();
    }
    if let Some(harness) = overrides.harness {
        let releases: Vec<&str> = RELEASES.iter().map(|r| r.as_str()).collect();
        ctx.harness = parse(
            "harness",
            harness,
            |v| map_version(v).map(|m| m.harness),
            &format!("{} or a version", releases.join(", ")),
        )?;
    }
    Ok(ctx)
}

fn parse<T>(
    name: &str,
    value: &str,
    parse: impl Fn(&str) -> Option<T>,
    allowed: &str,
) -> Result<T, ContextError> {
    parse(value).ok_or_else(|| {
        // A version is not a misspelling of the nearest supported one: no hint for digits.
        let choices: Vec<&str> = allowed.split(", ").collect();
        let near =
            did_you_mean(value, &choices).filter(|_| !value.chars().any(|c| c.is_ascii_digit()));
        ContextError {
            code: INVALID_PARAMS,
            message: format!(
                "{name} `{}` is not one of {allowed}{}",
                value.escape_debug(),
                hint(near)
            ),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn overrides_replace_the_configuration_and_unknown_values_are_refused() {
        let mut config = Config::defaults_for(Path::new("/p"));
        config.filesystem.sandbox_root = Some("/sbx".into());
        let none = session_context(&config, &ContextOverrides::default()).unwrap();
        assert_eq!(none, SessionContext::from_config(&config));
        let ctx = session_context(
            &config,
            &ContextOverrides {
                user_id: Some("alice"),
                session_id: Some("s1"),
                scope: Some("session"),
                filesystem: Some("sandbox"),
                sandbox_root: Some("/w"),
                harness: Some("2.0.2"),
            },
        )
        .unwrap();
        assert_eq!(
            (
                ctx.user_id.as_deref(),
                ctx.session_id.as_deref(),
                ctx.scope,
                ctx.filesystem,
                ctx.sandbox_root.as_str(),
                ctx.harness
            ),
            (
                Some("alice"),
                Some("s1"),
                Scope::Session,
                FilesystemMode::Sandbox,
                "/w",
                crate::config::Harness::of(crate::config::release::Release::V2_0_2)
            )
        );
        let refused = |o: ContextOverrides| session_context(&config, &o).unwrap_err().message;
        assert_eq!(
            refused(ContextOverrides {
                scope: Some("tenant"),
                ..Default::default()
            }),
            "scope `tenant` is not one of user, session, agent, global"
        );
        assert_eq!(
            refused(ContextOverrides {
                filesystem: Some("nfs\n"),
                ..Default::default()
            }),
            "filesystem `nfs\\n` is not one of local, sandbox, remote"
        );
        assert_eq!(
            refused(ContextOverrides {
                harness: Some("latest"),
                ..Default::default()
            }),
            "harness `latest` is not one of 2.0.2, 2.0.3-SNAPSHOT, 2.0.3, main or a version"
        );
        assert_eq!(
            refused(ContextOverrides {
                scope: Some("sesion"),
                ..Default::default()
            }),
            "scope `sesion` is not one of user, session, agent, global; did you mean `session`?"
        );
    }
}
