//! `agentws.toml`: what the Java builder of the agent holds (workspace and project folders, agent
//! name, prompt settings, isolation scope, filesystem mode, feature switches), with the runtime's
//! defaults for every key left out.
//!
//! `Config` is the resolved, typed value the core works with (absolute paths, enums). Loading it
//! from text, with a diagnostic per unknown key or wrong type, is in `load`; finding the file by
//! walking up from a path is in `discover`. Depends only on `base`, `syntax` and `rules`.

use std::path::{Path, PathBuf};

use serde::Serialize;

pub mod buildfile;
pub mod discover;
pub mod load;
pub mod release;
pub mod rules;
pub mod schema;

pub const CONFIG_FILE_NAME: &str = "agentws.toml";
/// `WorkspaceConstants.DEFAULT_WORKSPACE_ROOT`.
pub const DEFAULT_WORKSPACE_DIR: &str = ".agentscope/workspace";
/// Default `maxContextTokens` of the memory budget.
pub const DEFAULT_MAX_CONTEXT_TOKENS: u32 = 8000;
/// Default sandbox root of `WorkspaceSpec` and the Docker client options.
pub const DEFAULT_SANDBOX_ROOT: &str = "/workspace";

/// A sandbox root must be an absolute container path other than `/` without `..` segments. It is
/// normalized lexically first (repeated `/`, `.` segments and a trailing `/` dropped), so `/.`,
/// `//` and `/./.` are `/` and refused like it, and `/workspace/./` is `/workspace`. The error is
/// the message; `agentws.toml` reports it as CF008, a session context as `invalid-sandbox-root`.
pub fn check_sandbox_root(root: &str) -> Result<String, String> {
    let refuse = || {
        format!(
            "sandbox root `{}` must be an absolute container path other than `/`",
            root.escape_debug()
        )
    };
    if !root.starts_with('/') || root.split('/').any(|s| s == "..") {
        return Err(refuse());
    }
    let clean = crate::base::pathutil::normalize_lexically(Path::new(root));
    match clean.to_str() {
        Some(clean) if clean != "/" => Ok(clean.to_string()),
        _ => Err(refuse()),
    }
}

pub use release::{Harness, HarnessSource};

/// Where the configuration's runtime profile comes from, and why a version written is not
/// modelled exactly (said next to the profile on every surface).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct HarnessFrom {
    #[serde(flatten)]
    pub source: HarnessSource,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl HarnessFrom {
    /// The build file the profile was read from, when it was.
    pub fn build_file(&self) -> Option<&Path> {
        match &self.source {
            HarnessSource::BuildFile { path, .. } => Some(path),
            _ => None,
        }
    }
}

/// `IsolationScope`: which id (if any) becomes the per-call namespace folder.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    #[default]
    User,
    Session,
    Agent,
    Global,
}

impl Scope {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "user" => Some(Self::User),
            "session" => Some(Self::Session),
            "agent" => Some(Self::Agent),
            "global" => Some(Self::Global),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::User => "user",
            Self::Session => "session",
            Self::Agent => "agent",
            Self::Global => "global",
        }
    }
}

/// The agent filesystem: the default local overlay, a sandbox container, or the remote store.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FilesystemMode {
    #[default]
    Local,
    Sandbox,
    Remote,
}

impl FilesystemMode {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "local" => Some(Self::Local),
            "sandbox" => Some(Self::Sandbox),
            "remote" => Some(Self::Remote),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Local => "local",
            Self::Sandbox => "sandbox",
            Self::Remote => "remote",
        }
    }
}

/// `LocalFsMode`: how file tools treat absolute paths.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PathMode {
    #[default]
    Rooted,
    Sandboxed,
    Unrestricted,
}

impl PathMode {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "rooted" => Some(Self::Rooted),
            "sandboxed" => Some(Self::Sandboxed),
            "unrestricted" => Some(Self::Unrestricted),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Rooted => "rooted",
            Self::Sandboxed => "sandboxed",
            Self::Unrestricted => "unrestricted",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AgentConfig {
    /// Builder `name`; `None` when not set (the runtime then has no default session id).
    pub name: Option<String>,
    /// Builder `agentId`; defaults to the name.
    pub id: Option<String>,
    /// The builder's `sysPrompt`, already read from `system_prompt_file` when that was used.
    pub system_prompt: String,
    /// Where `system_prompt` came from when it was a file (absolute).
    pub system_prompt_file: Option<PathBuf>,
    /// `additionalContextFile(...)` paths, exactly as configured (workspace-relative).
    pub additional_context_files: Vec<String>,
    pub max_context_tokens: u32,
    pub environment_memory: String,
    /// Model ids the application registers itself (`[agent] models`); `prefix*` matches a prefix.
    pub models: Vec<String>,
    /// The main agent's model id (`[agent] model`), where agentws.toml writes it.
    #[serde(skip)]
    pub model: Option<(String, crate::base::TextRange)>,
    /// The context window the application gives the main agent's model (`[agent]
    /// context_window`, the builder's `contextWindowSize`), where agentws.toml writes it.
    #[serde(skip)]
    pub context_window: Option<(u32, crate::base::TextRange)>,
    /// The builder's `artifactDeliveryTarget(…)` is set (2.0.3 and later: `deliver_artifact` and
    /// the sandbox paragraph's File Isolation Notice).
    pub artifact_delivery: bool,
}

impl Default for AgentConfig {
    fn default() -> Self {
        Self {
            name: None,
            id: None,
            system_prompt: String::new(),
            system_prompt_file: None,
            additional_context_files: Vec::new(),
            max_context_tokens: DEFAULT_MAX_CONTEXT_TOKENS,
            environment_memory: String::new(),
            models: Vec::new(),
            model: None,
            context_window: None,
            artifact_delivery: false,
        }
    }
}

impl AgentConfig {
    /// Name used in `This is the …` (`name`, else `ReActAgent`; blank ⇒ `HarnessAgent`).
    pub fn display_name(&self) -> &str {
        match &self.name {
            None => "ReActAgent",
            Some(name) if crate::syntax::java::is_blank(name) => "HarnessAgent",
            Some(name) => name,
        }
    }

    /// Agent id used in paths: `agentId`, else `name`, else `ReActAgent`.
    pub fn agent_id(&self) -> &str {
        self.id
            .as_deref()
            .or(self.name.as_deref())
            .unwrap_or("ReActAgent")
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FilesystemConfig {
    pub mode: FilesystemMode,
    pub path_mode: PathMode,
    /// Absolute, in configured order.
    pub additional_roots: Vec<PathBuf>,
    pub project_writable: bool,
    /// The sandbox client's workspace root, when set explicitly.
    pub sandbox_root: Option<String>,
    /// `WorkspaceSpec.root`, when set explicitly.
    pub workspace_spec_root: Option<String>,
}

impl Default for FilesystemConfig {
    fn default() -> Self {
        Self {
            mode: FilesystemMode::Local,
            path_mode: PathMode::Rooted,
            additional_roots: Vec::new(),
            project_writable: false,
            sandbox_root: None,
            workspace_spec_root: None,
        }
    }
}

impl FilesystemConfig {
    /// The sandbox root in force ([POST-3645]: either explicit setting configures both; the
    /// loader reports both set and different as an error and keeps `sandbox_root`).
    pub fn effective_sandbox_root(&self) -> &str {
        self.sandbox_root
            .as_deref()
            .or(self.workspace_spec_root.as_deref())
            .unwrap_or(DEFAULT_SANDBOX_ROOT)
    }
}

/// How the rows of a SQL store are laid out (docs/stores.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StoreLayout {
    /// `JdbcStore` / `PostgresBaseStore`: table `agentscope_store`, `\x1F`-terminated namespaces.
    #[default]
    Jdbc,
    /// `SqliteBaseStore`: table `store`, namespaces joined with `/`.
    SqliteBase,
}

impl StoreLayout {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "jdbc" => Some(Self::Jdbc),
            "sqlite-base" => Some(Self::SqliteBase),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Jdbc => "jdbc",
            Self::SqliteBase => "sqlite-base",
        }
    }
}

/// Default connect timeout of a store, in seconds.
pub const DEFAULT_STORE_CONNECT_TIMEOUT: u32 = 5;

/// `[store]` of agentws.toml: where the runtime's `BaseStore` lives and how it was built. The URL
/// is kept as written (`${VAR}` unexpanded): expanding reads the environment, which only the
/// front-ends do, and a password typed into the file is never serialized (see `Serialize`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreConfig {
    pub url: Option<String>,
    /// Redis key prefix (`RedisStore`), default `agentscope:store:`.
    pub prefix: Option<String>,
    /// SQL table name; default by layout (`agentscope_store`, `store`).
    pub table: Option<String>,
    /// PostgreSQL schema (`PostgresBaseStore.schemaName`).
    pub schema: Option<String>,
    pub layout: StoreLayout,
    /// `RemoteFilesystemSpec.anonymousUserId`.
    pub anonymous_user: String,
    /// Seconds to wait for a connection before giving up.
    pub connect_timeout: u32,
}

impl Default for StoreConfig {
    fn default() -> Self {
        Self {
            url: None,
            prefix: None,
            table: None,
            schema: None,
            layout: StoreLayout::Jdbc,
            anonymous_user: "_default".to_string(),
            connect_timeout: DEFAULT_STORE_CONNECT_TIMEOUT,
        }
    }
}

impl Serialize for StoreConfig {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("StoreConfig", 7)?;
        s.serialize_field(
            "url",
            &self.url.as_deref().map(crate::base::redact::redact_url),
        )?;
        s.serialize_field("prefix", &self.prefix)?;
        s.serialize_field("table", &self.table)?;
        s.serialize_field("schema", &self.schema)?;
        s.serialize_field("layout", &self.layout)?;
        s.serialize_field("anonymousUser", &self.anonymous_user)?;
        s.serialize_field("connectTimeout", &self.connect_timeout)?;
        s.end()
    }
}

/// The builder's `enable*` / `disable*` switches.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Features {
    pub workspace_context: bool,
    pub memory_tools: bool,
    pub memory_hooks: bool,
    pub shell_tool: bool,
    pub subagents: bool,
    pub dynamic_subagents: bool,
    pub dynamic_skills: bool,
    pub default_workspace_skills: bool,
    pub tools_config: bool,
    pub plan_mode: bool,
    pub task_list: bool,
}

impl Default for Features {
    fn default() -> Self {
        Self {
            workspace_context: true,
            memory_tools: true,
            memory_hooks: true,
            shell_tool: true,
            subagents: true,
            dynamic_subagents: true,
            dynamic_skills: true,
            default_workspace_skills: true,
            tools_config: true,
            plan_mode: false,
            task_list: false,
        }
    }
}

/// The resolved configuration of one project.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Config {
    /// The `agentws.toml` this came from, if any (absolute).
    pub file: Option<PathBuf>,
    /// The harness's project folder (overlay lower layer), absolute.
    pub project: PathBuf,
    /// The base workspace, absolute (not canonicalized: printed as the runtime prints it).
    pub workspace: PathBuf,
    /// The runtime release the checks and previews model, and the proposals opted into.
    pub harness: Harness,
    /// Where `harness` comes from.
    pub harness_from: HarnessFrom,
    pub agent: AgentConfig,
    pub scope: Scope,
    /// Where agentws.toml writes `isolation.scope` (its value), when it does: a scope left to
    /// its default is no choice the file made (CF015 is said only of a written one).
    pub scope_at: Option<crate::base::TextRange>,
    pub filesystem: FilesystemConfig,
    pub features: Features,
    /// `[store]`: the remote store the runtime's remote filesystem mode reads (docs/stores.md).
    pub store: StoreConfig,
    /// `[rules]`: the levels this project gives rules, and how suppressions are read.
    pub rules: rules::RuleSettings,
}

impl Config {
    /// Defaults for a project folder without `agentws.toml`.
    pub fn defaults_for(project: &Path) -> Self {
        Self {
            file: None,
            project: project.to_path_buf(),
            workspace: project.join(DEFAULT_WORKSPACE_DIR),
            harness: Harness::default(),
            harness_from: HarnessFrom::default(),
            agent: AgentConfig::default(),
            scope: Scope::default(),
            scope_at: None,
            filesystem: FilesystemConfig::default(),
            features: Features::default(),
            store: StoreConfig::default(),
            rules: rules::RuleSettings::default(),
        }
    }

    /// Defaults for a folder that is itself a workspace (no `.agentscope/workspace` below it): the
    /// project is its parent's parent when it sits at `<project>/.agentscope/workspace`, else the
    /// folder itself.
    pub fn defaults_for_workspace(workspace: &Path) -> Self {
        let project = workspace
            .parent()
            .filter(|p| p.file_name().is_some_and(|n| n == ".agentscope"))
            .and_then(Path::parent)
            .unwrap_or(workspace);
        Self {
            workspace: workspace.to_path_buf(),
            ..Self::defaults_for(project)
        }
    }
}
