//! CF015 `config-shell-not-isolated`: `isolation.scope` is `user` or `session` on the local
//! filesystem, and an agent has the shell tool: the main agent when tools.json leaves `execute`
//! to it, or an isolated subagent, which registers the built-ins again. The file tools read and
//! write inside the caller's namespace folder; the shell (`LocalFilesystemWithShell.execute`) runs
//! `sh -c` in the project folder, confined to nothing, so one user's or session's commands reach
//! every other namespace folder (agentscope-java issue #3261). Said over the workspace, since
//! tools.json and the subagents decide who has the shell.

use crate::base::{Diagnostic, Severity};
use crate::config::{FilesystemMode, Scope};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::catalog::ToolCatalog;
use crate::workspace::Workspace;

declare_rule! {
    code: "CF015",
    name: "config-shell-not-isolated",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "`isolation.scope` is `user` or `session` on the local filesystem, and an agent has the shell tool.",
    consequence: "The isolation holds for the file tools only: the shell runs in the project folder, unconfined, and one user's or session's commands can read and change every other's folder (MEMORY.md, memory, sessions).",
    explanation: "With `scope = \"user\"` or `\"session\"` the runtime gives each caller a namespace \
folder `<workspace>/<id>/`, and the file tools (`read_file`, `write_file`, `grep_files`, …) resolve \
paths inside it. The shell tool is not a file tool: the default local filesystem \
(`LocalFilesystemSpec` → `LocalFilesystemWithShell`) starts `sh -c <command>` with the project \
folder as its working directory and no confinement, so `cat <workspace>/<other id>/MEMORY.md` \
works from any session (agentscope-java issue #3261).

When callers must not see each other's files, turn the shell off (`features.shell_tool = false`, \
`disableShellTool()`), or run the agent on a sandbox filesystem, where each sandbox holds one \
caller's files. A `deny` of `execute` in tools.json takes the shell from the main agent only: an \
isolated subagent registers the built-ins again and keeps it.",
    examples: &[Example {
        base: Base::Shared { without: &[".agentscope/workspace/skills/pdf/SKILL.md"] },
        triggering: &[
            ("agentws.toml", r#"[agent]
name = "support"

[isolation]
scope = "user"
"#),
            (".agentscope/workspace/AGENTS.md", "You are a support assistant.\n"),
        ],
        fixed: &[
            ("agentws.toml", r#"[agent]
name = "support"

[isolation]
scope = "user"

[features]
shell_tool = false
"#),
            (".agentscope/workspace/AGENTS.md", "You are a support assistant.\n"),
        ],
        at: "agentws.toml:5:9",
    }],
}

/// CF015 for `workspace`, whose tools are `catalog`'s.
pub fn check(workspace: &Workspace, catalog: &ToolCatalog) -> Option<Diagnostic> {
    let config = &workspace.config;
    let (file, at) = (config.file.as_ref()?, config.scope_at?);
    let who = match config.scope {
        Scope::User => "user",
        Scope::Session => "session",
        Scope::Agent | Scope::Global => return None,
    };
    if config.filesystem.mode != FilesystemMode::Local || !config.features.shell_tool {
        return None;
    }
    let main_keeps_it = catalog.lookup("execute").removal.is_none();
    let read_from_project = super::tools_json_in_project_folder(workspace);
    let child = workspace
        .subagents
        .iter()
        .find(|s| super::registers_builtins_again(s, read_from_project));
    let whose = match (main_keeps_it, child) {
        (true, _) => "the shell tool".to_string(),
        (false, Some(child)) => format!(
            "the shell tool (which tools.json takes from the main agent only: the isolated subagent `{}` has it)",
            child.id
        ),
        (false, None) => return None,
    };
    let workspace_dir = config
        .workspace
        .strip_prefix(&config.project)
        .map(|rel| rel.display().to_string())
        .unwrap_or_else(|_| config.workspace.display().to_string());
    Some(RULE.at(
        file,
        at,
        format!(
            "the file tools stay in each {who}'s folder `{workspace_dir}/<{who} id>/`, but {whose} runs in the project folder, unconfined: any {who}'s commands can read and change every other {who}'s folder under `{workspace_dir}/`"
        ),
    ))
}
