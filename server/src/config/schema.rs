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
    /// `[rules.per-path]`: a table from a glob to a table of `CODE = "level"`.
    LevelsByGlob,
    /// `harness`: a release or version, or a table of `release` and `pending`.
    Harness,
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
    (
        "rules",
        RULES_DOC,
    ),
];

/// What `[rules]` holds besides its two named keys: a level per rule code or family prefix.
const RULES_DOC: &str = "The level this project gives a rule: `CODE = \"level\"`, where `CODE` is a rule code \
(`SK025`) or the start of codes (`XR`: every cross-file rule; `SK02`: `SK020`–`SK029`) and the level is \
`\"error\"`, `\"warning\"`, `\"info\"` or `\"off\"` (not reported). A level replaces the severity the rule \
gives, in `check`, `watch`, the language server and the preview's notes; a level for a strict-profile rule \
(`ST…`) turns that rule on under the harness profile. Which setting wins: `[rules.per-path]` before \
`[rules]`; among the globs matching a file the most specific (the most characters that are not \
wildcards), then the later one; within one table the longest code (`SK025` before `SK`). A suppression \
comment in the file comes after all of them, and a baseline (`agentws check --baseline`) last \
(docs/cli.md). A code that names no rule is reported (CF013), a level or glob that is not one (CF004), \
and the rest of the file still applies.\n\n\
```toml\n[rules]\nSK025 = \"off\"\nXR = \"warning\"\nrequire-reason = true\n\n[rules.per-path]\n\
\"skills/legacy-*/**\" = { SK016 = \"off\" }\n```";

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
const RULES: Option<&str> = Some("rules");

/// Every key, in documentation order.
pub const KEYS: &[KeySpec] = &[
    key(None, "workspace", KeyType::Path, Some("\".agentscope/workspace\""), "The base workspace folder, relative to this file (default: `.agentscope/workspace` under the project).", "`HarnessAgent.builder().workspace(Path)`; without it the runtime takes the `agentscope.workspace` property, then `AGENTSCOPE_WORKSPACE`, then `${user.dir}/.agentscope/workspace`", "\"agent-home\""),
    key(None, "project", KeyType::Path, Some("\".\""), "The harness's project folder (the overlay's lower layer), relative to this file.", "none: the agent process's working folder (`user.dir`), the lower layer of the local overlay", "\".\""),
    key(None, "harness", KeyType::Harness, None, "The AgentScope Harness release to model: `2.0.2`, `2.0.3-SNAPSHOT`, `2.0.3` or `main`, or any version (`2.0.4` is modelled as the nearest older release, with a note). Without it, the version the build file next to or above the project pins (`pom.xml`, `build.gradle`, `build.gradle.kts`, `gradle/libs.versions.toml`), else the newest release. As a table, `release` and `pending`, the proposals to model before a release has them (`pending = [\"3645\"]`). `2026-08` and `2026-09` are the old names of `2.0.3-SNAPSHOT` and of `2.0.3-SNAPSHOT` with #3020 and #3645 (`pending = [\"3020\", \"3645\"]`). docs/runtime-sources.md lists what each release changes.", "none: the version of `io.agentscope:agentscope-harness` the agent is built with", "\"2.0.2\""),
    key(AGENT, "name", KeyType::String, None, "Builder `name`. Without one the runtime has no default session id and fails calls that carry none.", "`.name(String)`", "\"travel-desk\""),
    key(AGENT, "id", KeyType::String, None, "Builder `agentId`, used in runtime paths; default: the name.", "`.agentId(String)`", "\"travel-desk-eu\""),
    key(AGENT, "system_prompt", KeyType::String, Some("\"\""), "The builder's `sysPrompt` (Java-trimmed, first in the system message).", "`.sysPrompt(String)`", "\"You are Atlas, the travel desk assistant.\""),
    key(AGENT, "system_prompt_file", KeyType::Path, None, "A file holding the system prompt instead of `system_prompt`, relative to this file.", "`.sysPrompt(Files.readString(path))`: the file's text is the `sysPrompt`", "\"prompts/system.md\""),
    key(AGENT, "additional_context_files", KeyType::StringList, Some("[]"), "`additionalContextFile(...)` paths, relative to the workspace, injected as `<tag>` blocks.", "`.additionalContextFile(String)`, once per entry, in this order", "[\"SOUL.md\", \"POLICIES.md\"]"),
    key(AGENT, "max_context_tokens", KeyType::Integer, Some("8000"), "The memory budget `maxContextTokens` (tokens estimated as UTF-16 length / 4).", "`.maxContextTokens(int)`", "12000"),
    key(AGENT, "environment_memory", KeyType::String, Some("\"\""), "The builder's `environmentMemory`, printed verbatim in the session context.", "`.environmentMemory(String)`", "\"Deployed in the EU region; prices in EUR.\""),
    key(AGENT, "artifact_delivery", KeyType::Bool, Some("false"), "The builder sets an artifact delivery target (2.0.3 and later): the `deliver_artifact` tool is registered, and in sandbox mode the prompt points to a File Isolation Notice.", "`.artifactDeliveryTarget(ArtifactDeliveryTarget)`", "true"),
    key(AGENT, "model", KeyType::String, None, "The main agent's model id, written as a subagent's `model:` is (`openai:gpt-4o`, `dashscope:qwen-max`, `qwen-plus`): agentws takes its context window from the runtime's `ModelContextWindows` table to check that the system prompt fits (WS017).", "the `Model` passed to `.model(Model)`", "\"dashscope:qwen-max\""),
    key(AGENT, "context_window", KeyType::Integer, None, "The context window, in tokens, the application gives the main agent's model; it takes the place of the window `model` names (WS017).", "`.contextWindowSize(int)` of the model's builder, or the `contextWindowSize` option of its provider", "131072"),
    key(AGENT, "models", KeyType::StringList, Some("[]"), "Model ids the application registers itself (`ModelRegistry.register`, `registerFactory`, a `modelResolver`), so a subagent `model:` naming one resolves; an entry ending in `*` matches every id that starts with the text before it.", "none: the names the application registers in `ModelRegistry` (`register`, `registerFactory`) or resolves with its own `modelResolver`", "[\"sonnet\", \"corp-*\"]"),
    key(ISOLATION, "scope", KeyType::Choice(&["user", "session", "agent", "global"]), Some("\"user\""), "`IsolationScope`: `user` (user id, else session id), `session`, or `agent`/`global` (one shared workspace). On the local filesystem the shell tool is not isolated: set `user` or `session` there only with `features.shell_tool = false` (CF015).", "`isolationScope(IsolationScope)` of the filesystem spec (`LocalFilesystemSpec`, `SandboxFilesystemSpec`, `RemoteFilesystemSpec`)", "\"session\""),
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
    key(RULES, "per-path", KeyType::LevelsByGlob, Some("{}"), "Levels for the files a glob matches: a table from a glob (globset syntax: `*` stays within a folder, `**` crosses folders) to a table of `CODE = \"level\"`. The glob is matched against the file's path relative to the workspace folder (`skills/pdf/SKILL.md`, `alice/skills/pdf/SKILL.md` for a per-user file or a stored one); a file outside it (agentws.toml, the project folder's AGENTS.md or tools.json) by its path relative to the project folder.", "none: agentws's own setting", "{ \"skills/legacy-*/**\" = { SK016 = \"off\" }, \"subagents/vendor-*.md\" = { XR001 = \"info\" } }"),
    key(RULES, "require-reason", KeyType::Bool, Some("false"), "A suppression comment must give a reason after `--` (`# agentws: ignore SK023 -- the date is meant as text`); one without suppresses nothing and is reported (IG003). `agentws check --require-reason` asks the same for one run.", "none: agentws's own setting", "true"),
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
        if *table == "rules" {
            schema["patternProperties"] = json!({SELECTOR_PATTERN: level_schema()});
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
                KeyType::Harness => {
                    let version =
                        json!({"type": "string", "pattern": crate::config::release::VERSION_PATTERN});
                    let proposals: Vec<String> = crate::config::release::CHANGES
                        .iter()
                        .filter_map(|c| c.pull_request)
                        .flat_map(|n| [n.to_string(), format!("#{n}")])
                        .collect();
                    json!({
                        "oneOf": [
                            version,
                            {
                                "type": "object",
                                "additionalProperties": false,
                                "properties": {
                                    "release": version,
                                    "pending": {
                                        "type": "array",
                                        "items": {"type": "string", "enum": proposals},
                                    },
                                },
                            },
                        ],
                    })
                }
                KeyType::LevelsByGlob => json!({
                    "type": "object",
                    "additionalProperties": {
                        "type": "object",
                        "additionalProperties": false,
                        "patternProperties": {SELECTOR_PATTERN: level_schema()},
                    },
                }),
            };
            schema["description"] = json!(k.doc);
            if let Some(default) = k.default.and_then(toml_default) {
                schema["default"] = default;
            }
            (k.name.to_string(), schema)
        })
        .collect()
}

/// A rule selector (`config::rules::is_selector`): two capital letters, up to three digits.
const SELECTOR_PATTERN: &str = "^[A-Z]{2}[0-9]{0,3}$";

fn level_schema() -> Value {
    json!({
        "type": "string",
        "enum": crate::config::rules::Level::NAMES,
        "description": "The rule's level in this project (`off`: not reported).",
    })
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
