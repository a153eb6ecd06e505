//! The one description of `agentws.toml`'s keys: table, name, type, default and documentation.
//! The loader takes its known-key lists from it, the language server its completions and hovers,
//! and `agentws schema agentws.toml` a JSON Schema (which the VS Code extension ships).

use serde_json::{json, Map, Value};

/// The type of a key's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyType {
    String,
    /// A path, relative to agentws.toml unless said otherwise.
    Path,
    Bool,
    Integer,
    StringList,
    PathList,
    /// One of these strings.
    Choice(&'static [&'static str]),
}

/// One key of agentws.toml.
#[derive(Clone, Copy, Debug)]
pub struct KeySpec {
    /// `None` for a top-level key, else its table (`agent`, `isolation`, `filesystem`, `features`).
    pub table: Option<&'static str>,
    pub name: &'static str,
    pub ty: KeyType,
    /// Default as TOML text, when there is a fixed one.
    pub default: Option<&'static str>,
    pub doc: &'static str,
    /// The Java `HarnessAgent` builder call (or runtime input) the key stands for.
    pub java: &'static str,
    /// An example value as TOML text (docs/configuration.md).
    pub example: &'static str,
}

/// The tables of agentws.toml, with their documentation.
pub const TABLES: &[(&str, &str)] = &[
    (
        "agent",
        "What the builder sets on the agent: name, prompt, context files, memory budget.",
    ),
    (
        "isolation",
        "The isolation scope: which id becomes the per-call namespace folder.",
    ),
    (
        "filesystem",
        "The agent filesystem: local overlay, sandbox or remote store, and path rules.",
    ),
    ("features", "The builder's `enable*` / `disable*` switches."),
    (
        "store",
        "The `BaseStore` of the remote filesystem mode, read (never written) by `--store` commands (docs/stores.md).",
    ),
];

const fn key(
    table: Option<&'static str>,
    name: &'static str,
    ty: KeyType,
    default: Option<&'static str>,
    doc: &'static str,
    java: &'static str,
    example: &'static str,
) -> KeySpec {
    KeySpec {
        table,
        name,
        ty,
        default,
        doc,
        java,
        example,
    }
}

const AGENT: Option<&str> = Some("agent");
const ISOLATION: Option<&str> = Some("isolation");
const FILESYSTEM: Option<&str> = Some("filesystem");
const FEATURES: Option<&str> = Some("features");
const STORE: Option<&str> = Some("store");

/// Every key, in documentation order.
pub const KEYS: &[KeySpec] = &[
    key(None, "workspace", KeyType::Path, Some("\".agentscope/workspace\""), "The base workspace folder, relative to this file (default: `.agentscope/workspace` under the project).", "`HarnessAgent.builder().workspace(Path)`; without it the runtime takes the `agentscope.workspace` property, then `AGENTSCOPE_WORKSPACE`, then `${user.dir}/.agentscope/workspace`", "\"agent-home\""),
    key(None, "project", KeyType::Path, Some("\".\""), "The harness's project folder (the overlay's lower layer), relative to this file.", "none: the agent process's working folder (`user.dir`), the lower layer of the local overlay", "\".\""),
    key(None, "harness", KeyType::Choice(&["2026-09", "2026-08"]), Some("\"2026-09\""), "Which runtime behaviour to model: `2026-09` (the prompt advertises the per-session workspace and the active sandbox root) or `2026-08` (the earlier snapshot).", "none: the version of the runtime library the agent is built with", "\"2026-08\""),
    key(AGENT, "name", KeyType::String, None, "Builder `name`. Without one the runtime has no default session id and fails calls that carry none.", "`.name(String)`", "\"travel-desk\""),
    key(AGENT, "id", KeyType::String, None, "Builder `agentId`, used in runtime paths; default: the name.", "`.agentId(String)`", "\"travel-desk-eu\""),
    key(AGENT, "system_prompt", KeyType::String, Some("\"\""), "The builder's `sysPrompt` (Java-trimmed, first in the system message).", "`.sysPrompt(String)`", "\"You are Atlas, the travel desk assistant.\""),
    key(AGENT, "system_prompt_file", KeyType::Path, None, "A file holding the system prompt instead of `system_prompt`, relative to this file.", "`.sysPrompt(Files.readString(path))`: the file's text is the `sysPrompt`", "\"prompts/system.md\""),
    key(AGENT, "additional_context_files", KeyType::StringList, Some("[]"), "`additionalContextFile(...)` paths, relative to the workspace, injected as `<tag>` blocks.", "`.additionalContextFile(String)`, once per entry, in this order", "[\"SOUL.md\", \"POLICIES.md\"]"),
    key(AGENT, "max_context_tokens", KeyType::Integer, Some("8000"), "The memory budget `maxContextTokens` (tokens estimated as UTF-16 length / 4).", "`.maxContextTokens(int)`", "12000"),
    key(AGENT, "environment_memory", KeyType::String, Some("\"\""), "The builder's `environmentMemory`, printed verbatim in the session context.", "`.environmentMemory(String)`", "\"Deployed in the EU region; prices in EUR.\""),
    key(AGENT, "models", KeyType::StringList, Some("[]"), "Model ids the application registers itself (`ModelRegistry.register`, `registerFactory`, a `modelResolver`), so a subagent `model:` naming one resolves; an entry ending in `*` matches every id that starts with the text before it.", "none: the names the application registers in `ModelRegistry` (`register`, `registerFactory`) or resolves with its own `modelResolver`", "[\"sonnet\", \"corp-*\"]"),
    key(ISOLATION, "scope", KeyType::Choice(&["user", "session", "agent", "global"]), Some("\"user\""), "`IsolationScope`: `user` (user id, else session id), `session`, or `agent`/`global` (one shared workspace).", "`isolationScope(IsolationScope)` of the filesystem spec (`LocalFilesystemSpec`, `SandboxFilesystemSpec`, `RemoteFilesystemSpec`)", "\"session\""),
    key(FILESYSTEM, "mode", KeyType::Choice(&["local", "sandbox", "remote"]), Some("\"local\""), "The agent filesystem: the default local overlay, a sandbox container, or the remote store.", "`.filesystem(LocalFilesystemSpec)` (the default build), `.filesystem(SandboxFilesystemSpec)` or `.filesystem(RemoteFilesystemSpec)`", "\"sandbox\""),
    key(FILESYSTEM, "path_mode", KeyType::Choice(&["rooted", "sandboxed", "unrestricted"]), Some("\"rooted\""), "`LocalFsMode`: how file tools treat absolute paths.", "the `LocalFsMode` of the local filesystem (`ROOTED`, `SANDBOXED`, `UNRESTRICTED`)", "\"unrestricted\""),
    key(FILESYSTEM, "additional_roots", KeyType::PathList, Some("[]"), "Extra path-policy roots (`addRoot`), relative to this file.", "`addRoot(Path)` of the path policy, once per entry", "[\"../shared-docs\"]"),
    key(FILESYSTEM, "project_writable", KeyType::Bool, Some("false"), "`projectWritable(true)`: file tools write project files to the project folder.", "`.projectWritable(true)`", "true"),
    key(FILESYSTEM, "sandbox_root", KeyType::String, None, "The sandbox client's workspace root (Docker `/workspace`, E2B `/home/user`); absolute, not `/`.", "`workspaceRoot` of the sandbox client options (`DockerFilesystemSpec.workspaceRoot`, `E2bFilesystemSpec.workspaceRoot`)", "\"/home/user\""),
    key(FILESYSTEM, "workspace_spec_root", KeyType::String, None, "`WorkspaceSpec.root`; set together with `sandbox_root` they must be equal (the runtime fails fast otherwise).", "`WorkspaceSpec.root`", "\"/workspace\""),
    key(FEATURES, "workspace_context", KeyType::Bool, Some("true"), "The workspace section of the prompt (`disableWorkspaceContext()` when false).", "`.disableWorkspaceContext()` when false", "false"),
    key(FEATURES, "memory_tools", KeyType::Bool, Some("true"), "Memory tools and their guidance (`disableMemoryTools()` when false).", "`.disableMemoryTools()` when false", "false"),
    key(FEATURES, "memory_hooks", KeyType::Bool, Some("true"), "Automatic memory extraction (`disableMemoryHooks()` when false).", "`.disableMemoryHooks()` when false", "false"),
    key(FEATURES, "shell_tool", KeyType::Bool, Some("true"), "The `execute` shell tool (`disableShellTool()` when false).", "`.disableShellTool()` when false", "false"),
    key(FEATURES, "subagents", KeyType::Bool, Some("true"), "The subagent subsystem (`disableSubagents()` when false).", "`.disableSubagents()` when false", "false"),
    key(FEATURES, "dynamic_subagents", KeyType::Bool, Some("true"), "Per-step subagent discovery (`disableDynamicSubagents()` when false: static mode).", "`.disableDynamicSubagents()` when false", "false"),
    key(FEATURES, "dynamic_skills", KeyType::Bool, Some("true"), "Per-call skill merge (`disableDynamicSkills()` when false: frozen at build, empty namespace).", "`.disableDynamicSkills()` when false", "false"),
    key(FEATURES, "default_workspace_skills", KeyType::Bool, Some("true"), "The namespaced workspace skill layer (`disableDefaultWorkspaceSkills()` when false).", "`.disableDefaultWorkspaceSkills()` when false", "false"),
    key(FEATURES, "tools_config", KeyType::Bool, Some("true"), "Reading tools.json (`disableToolsConfig()` when false).", "`.disableToolsConfig()` when false", "false"),
    key(FEATURES, "plan_mode", KeyType::Bool, Some("false"), "`enablePlanMode()`.", "`.enablePlanMode()` when true", "true"),
    key(FEATURES, "task_list", KeyType::Bool, Some("false"), "`enableTaskList()` (the `todo_write` tool and its grounding).", "`.enableTaskList()` when true", "true"),
    key(STORE, "url", KeyType::String, None, "Where the store lives: `redis://`, `rediss://`, `postgres://`, `mysql://` or `sqlite://PATH`; `${VAR}` is replaced from the environment, and a password is never printed.", "the `BaseStore` handed to `RemoteFilesystemSpec` (`RedisStore`, `JdbcStore`, `PostgresBaseStore`, `SqliteBaseStore`)", "\"redis://:${REDIS_PASSWORD}@cache:6379/0\""),
    key(STORE, "prefix", KeyType::String, Some("\"agentscope:store:\""), "Redis key prefix (`:` appended when missing).", "`new RedisStore(jedis, prefix)`; `RedisDistributedStore` uses `keyPrefix + \"store:\"`", "\"prod:store:\""),
    key(STORE, "table", KeyType::String, None, "SQL table name; default: `agentscope_store`, or `store` for the `sqlite-base` layout.", "`JdbcStore.Builder.tableName`, `PostgresBaseStore.Builder.tableName`", "\"workspace_store\""),
    key(STORE, "schema", KeyType::String, None, "PostgreSQL schema of the table (quoted, case kept).", "`PostgresBaseStore.Builder.schemaName`", "\"agents\""),
    key(STORE, "layout", KeyType::Choice(&["jdbc", "sqlite-base"]), Some("\"jdbc\""), "Row layout of a SQL store: `jdbc` (`JdbcStore`, `PostgresBaseStore`) or `sqlite-base` (`SqliteBaseStore`).", "the store class", "\"sqlite-base\""),
    key(STORE, "anonymous_user", KeyType::String, Some("\"_default\""), "The user id of calls without one under the user scope.", "`RemoteFilesystemSpec.anonymousUserId(String)`", "\"anon\""),
    key(STORE, "connect_timeout", KeyType::Integer, Some("5"), "Seconds each wait on the store may take (connecting, the TLS handshake, logging in, each query; a locked or slow SQLite database) before the read gives up (exit 2).", "none: the client's pool settings", "10"),
];

/// Names of the keys of `table` (`None`: the top level, which also lists the tables).
pub fn key_names(table: Option<&str>) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = KEYS
        .iter()
        .filter(|k| k.table == table)
        .map(|k| k.name)
        .collect();
    if table.is_none() {
        names.extend(TABLES.iter().map(|(t, _)| *t));
    }
    names
}

/// The spec of `name` in `table`.
pub fn find(table: Option<&str>, name: &str) -> Option<&'static KeySpec> {
    KEYS.iter().find(|k| k.table == table && k.name == name)
}

/// JSON Schema (draft-07) of agentws.toml.
pub fn json_schema() -> Value {
    let mut top = properties(None);
    for (table, doc) in TABLES {
        let mut schema = json!({
            "type": "object",
            "description": doc,
            "additionalProperties": false,
            "properties": properties(Some(table)),
        });
        if *table == "agent" {
            // The loader reports both set as a conflict (CF005).
            schema["not"] = json!({"required": ["system_prompt", "system_prompt_file"]});
        }
        top.insert(table.to_string(), schema);
    }
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "agentws.toml",
        "description": "What the AgentScope Harness Java builder holds, for agentws. All keys are optional; the defaults are the runtime's. Generated by `agentws schema agentws.toml`.",
        "type": "object",
        "additionalProperties": false,
        "properties": top,
    })
}

fn properties(table: Option<&str>) -> Map<String, Value> {
    KEYS.iter()
        .filter(|k| k.table == table)
        .map(|k| {
            let mut schema = match k.ty {
                KeyType::String | KeyType::Path => json!({"type": "string"}),
                KeyType::Bool => json!({"type": "boolean"}),
                KeyType::Integer => json!({"type": "integer", "minimum": 1}),
                KeyType::StringList | KeyType::PathList => {
                    json!({"type": "array", "items": {"type": "string"}})
                }
                KeyType::Choice(choices) => json!({"type": "string", "enum": choices}),
            };
            schema["description"] = json!(k.doc);
            if let Some(default) = k.default.and_then(toml_default) {
                schema["default"] = default;
            }
            (k.name.to_string(), schema)
        })
        .collect()
}

fn toml_default(text: &str) -> Option<Value> {
    let table: toml::Table = format!("v = {text}").parse().ok()?;
    serde_json::to_value(table.get("v")?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_parse_and_match_the_config_defaults() {
        for k in KEYS {
            if let Some(d) = k.default {
                assert!(toml_default(d).is_some(), "{}: {d}", k.name);
            }
        }
        let schema = json_schema();
        assert_eq!(
            schema["properties"]["agent"]["properties"]["max_context_tokens"]["default"],
            8000
        );
        assert_eq!(
            schema["properties"]["isolation"]["properties"]["scope"]["enum"],
            json!(["user", "session", "agent", "global"])
        );
    }
}
