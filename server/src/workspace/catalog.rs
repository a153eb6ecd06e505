//! The tool names the runtime registers for a configuration (harness-spec §4.5): built-ins per
//! feature switch, platform tools that survive `allow`, MCP servers' tools, and the effect of
//! tools.json `allow`/`deny`.
//!
//! `ToolCatalog::lookup(name)` answers, for one tool name, where it comes from and whether the
//! effective tools.json removes it; the tools.json rules, the cross-file rules (subagent `tools:`)
//! and the language server's hover all ask it. What the catalog cannot know: tools registered in
//! Java code, and the tools of an MCP server without `enableTools` (only the running server
//! knows them) — `lookup` says so instead of guessing. `PROMPT_TOOL_SECTIONS` names the prompt
//! sections that tell the model to use tools, for the check (TJ030) and the preview's notes alike.
//! Depends on `config` and `workspace::tools`.

use std::collections::{BTreeMap, BTreeSet};

use crate::base::suggest::SuggestionIndex;
use crate::base::TextRange;
use crate::config::release::Change;
use crate::config::{Config, FilesystemMode};
use crate::workspace::tools::ToolsDoc;
use crate::workspace::Workspace;

/// `HarnessPlatformTools`: these survive a non-empty `allow` (but not `deny`).
pub const PLATFORM_TOOLS: &[&str] = &[
    "team",
    "listTasks",
    "listClaimableTasks",
    "createTask",
    "assignTask",
    "claimTask",
    "unclaimTask",
    "completeTask",
    "failTask",
    "sendMessage",
    "broadcastMessage",
    "listMessages",
    "listMembers",
    "spawnMember",
    "shutdownMember",
    "submitPlan",
    "approvePlan",
    "rejectPlan",
    "completeTeam",
    "agent_spawn",
    "agent_send",
    "agent_list",
    "agent_generate",
    "sessions_spawn",
    "sessions_send",
    "sessions_list",
    "sessions_history",
    "sessions_pending_completions",
    "task_output",
    "task_cancel",
    "task_list",
    "wait_async_results",
    "plan_enter",
    "plan_write",
    "plan_exit",
    "skill_manage",
    "propose_skill",
];

pub const FILE_TOOLS: &[&str] = &[
    "read_file",
    "write_file",
    "edit_file",
    "grep_files",
    "glob_files",
    "list_files",
];
pub const SHELL_TOOL: &str = "execute";
pub const WEB_TOOLS: &[&str] = &["web_fetch", "web_search"];
pub const MEMORY_TOOLS: &[&str] = &[
    "memory_search",
    "memory_get",
    "memory_save",
    "session_search",
    "session_list",
    "session_history",
];
pub const SUBAGENT_TOOLS: &[&str] = &[
    "agent_spawn",
    "agent_send",
    "agent_list",
    "task_output",
    "task_cancel",
    "task_list",
];
pub const WAIT_TOOL: &str = "wait_async_results";
pub const LOAD_SKILL_TOOL: &str = "load_skill_through_path";
pub const PLAN_TOOLS: &[&str] = &["plan_enter", "plan_write", "plan_exit"];
/// #2667: registered with an artifact delivery target; not a platform tool.
pub const ARTIFACT_TOOL: &str = "deliver_artifact";
pub const TASK_LIST_TOOL: &str = "todo_write";

/// Tools the runtime knows but registers only with options agentws.toml does not model.
const OPT_IN_TOOLS: &[(&str, &str)] = &[
    ("agent_generate", "the opt-in agent_generate tool"),
    ("skill_manage", "skill management"),
    ("propose_skill", "skill management"),
    (
        "sessions_spawn",
        "an injected external session tool (static subagents)",
    ),
    (
        "sessions_send",
        "an injected external session tool (static subagents)",
    ),
    (
        "sessions_list",
        "an injected external session tool (static subagents)",
    ),
    (
        "sessions_history",
        "an injected external session tool (static subagents)",
    ),
    (
        "sessions_pending_completions",
        "an injected external session tool (static subagents)",
    ),
];

/// Which built-in group a tool belongs to and the switch that controls it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BuiltinGroup {
    /// `read_file` … `list_files` (on unless `disableFilesystemTools`, which agentws.toml does not model).
    File,
    /// `execute`: shell-capable filesystem (local or sandbox) and `features.shell_tool`.
    Shell,
    /// `web_fetch`, `web_search`: from 2.0.3-SNAPSHOT on.
    Web,
    /// `deliver_artifact`: from 2.0.3 on, with `[agent] artifact_delivery`.
    Artifact,
    /// `features.memory_tools`.
    Memory,
    /// `features.subagents`.
    Subagent,
    /// `wait_async_results`.
    Async,
    /// `load_skill_through_path`, when any skill layer exists.
    Skills,
    /// `features.plan_mode`.
    Plan,
    /// `features.task_list`.
    TaskList,
}

impl BuiltinGroup {
    pub fn label(self) -> &'static str {
        match self {
            BuiltinGroup::File => "file tools",
            BuiltinGroup::Shell => "shell tool",
            BuiltinGroup::Web => "web tools",
            BuiltinGroup::Artifact => "artifact delivery tool",
            BuiltinGroup::Memory => "memory tools",
            BuiltinGroup::Subagent => "subagent tools",
            BuiltinGroup::Async => "async results tool",
            BuiltinGroup::Skills => "skills tool",
            BuiltinGroup::Plan => "plan mode tools",
            BuiltinGroup::TaskList => "task list tool",
        }
    }

    /// True when a declared subagent, built as an agent of its own, registers this group again
    /// (the builder's switches are copied to the child; a child is a leaf, so it has no subagent
    /// tools, and the task list is not copied).
    pub fn registered_again_by_child(self) -> bool {
        matches!(
            self,
            BuiltinGroup::File
                | BuiltinGroup::Shell
                | BuiltinGroup::Web
                | BuiltinGroup::Memory
                | BuiltinGroup::Plan
        )
    }

    /// Why the group is off, for messages ("needs `features.shell_tool`").
    pub fn requirement(self) -> &'static str {
        match self {
            BuiltinGroup::File | BuiltinGroup::Async => "is always registered",
            BuiltinGroup::Web => "exists from runtime 2.0.3-SNAPSHOT on",
            BuiltinGroup::Artifact => {
                "needs runtime 2.0.3 or later and `[agent] artifact_delivery = true`"
            }
            BuiltinGroup::Shell => {
                "needs a shell-capable filesystem (local or sandbox) and `features.shell_tool = true`"
            }
            BuiltinGroup::Memory => "needs `features.memory_tools = true`",
            BuiltinGroup::Subagent => "needs `features.subagents = true`",
            BuiltinGroup::Skills => "needs a skill layer (workspace skills or any SKILL.md)",
            BuiltinGroup::Plan => "needs `features.plan_mode = true`",
            BuiltinGroup::TaskList => "needs `features.task_list = true`",
        }
    }
}

/// Where a tool name comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToolOrigin {
    /// A harness built-in registered for this configuration.
    BuiltIn(BuiltinGroup),
    /// A harness built-in whose feature is off here.
    BuiltInDisabled(BuiltinGroup),
    /// Known to the runtime but only registered with an option agentws.toml does not model.
    OptIn { needs: &'static str },
    /// Listed in the `enableTools` of these registered MCP servers (in tools.json order).
    Mcp { servers: Vec<String> },
    /// Listed in the `enableTools` of these MCP servers, which the runtime skips (bad shape).
    McpNotRegistered { servers: Vec<String> },
    /// Not placeable, but these registered MCP servers have no `enableTools` and may provide it.
    MaybeMcp { servers: Vec<String> },
    /// Not a known tool (it may still be registered in Java code).
    Unknown,
}

/// What tools.json does to a tool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Removal {
    /// Named in `deny` (range of the entry).
    Denied(TextRange),
    /// `allow` is non-empty and names neither this tool nor is it a platform tool.
    NotAllowed,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolInfo {
    pub name: String,
    pub origin: ToolOrigin,
    /// A platform tool: survives `allow`, removable by `deny`.
    pub platform: bool,
    /// Set when tools.json removes the tool (only for registered tools).
    pub removal: Option<Removal>,
    /// `load_skill_through_path`: re-added on every prompt pass, so a removal has no effect.
    pub readded: bool,
}

impl ToolInfo {
    /// True when the runtime registers the tool for this configuration (as far as agentws can tell).
    pub fn is_registered(&self) -> bool {
        matches!(self.origin, ToolOrigin::BuiltIn(_) | ToolOrigin::Mcp { .. })
    }

    /// True when the agent ends up with the tool.
    pub fn is_available(&self) -> bool {
        self.is_registered() && (self.removal.is_none() || self.readded)
    }
}

impl ToolInfo {
    /// One Markdown line for hovers and messages: where the tool comes from and what tools.json
    /// does to it.
    pub fn describe(&self) -> String {
        let origin = match &self.origin {
            ToolOrigin::BuiltIn(group) => format!("built-in ({})", group.label()),
            ToolOrigin::BuiltInDisabled(group) => {
                format!(
                    "built-in ({}), not registered: it {}",
                    group.label(),
                    group.requirement()
                )
            }
            ToolOrigin::OptIn { needs } => {
                format!("not registered with this configuration (needs {needs})")
            }
            ToolOrigin::Mcp { servers } => format!("MCP tool of {}", backticked(servers)),
            ToolOrigin::McpNotRegistered { servers } => {
                format!("listed by {}, which the runtime skips", backticked(servers))
            }
            ToolOrigin::MaybeMcp { servers } => format!(
                "unknown; may come from {} (no `enableTools`) or from Java code",
                backticked(servers)
            ),
            ToolOrigin::Unknown => {
                "unknown (not a built-in, platform or MCP tool; may be registered in Java code)"
                    .to_string()
            }
        };
        let platform = if self.platform { ", platform tool" } else { "" };
        let effect = match (&self.removal, self.readded) {
            (Some(_), true) => "; tools.json removes it, but it is re-added on every prompt pass",
            (Some(Removal::Denied(_)), false) => "; removed by tools.json `deny`",
            (Some(Removal::NotAllowed), false) => "; removed: not in tools.json `allow`",
            (None, _) => "",
        };
        format!("`{}`: {origin}{platform}{effect}", self.name)
    }
}

/// Names of the servers among `servers` whose `enableTools` lists `tool`.
/// Tool name → indexes (ascending, no repeats) of the servers in `servers` whose `enableTools`
/// lists it: one lookup per name instead of a scan of every server's list.
fn index_tools(servers: &[McpTools]) -> BTreeMap<String, Vec<usize>> {
    let mut index: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, server) in servers.iter().enumerate() {
        for tool in server.tools.iter().flatten() {
            let listing = index.entry(tool.clone()).or_default();
            if listing.last() != Some(&i) {
                listing.push(i);
            }
        }
    }
    index
}

/// The servers (in tools.json order) whose `enableTools` lists `tool`.
fn servers_listing(
    servers: &[McpTools],
    index: &BTreeMap<String, Vec<usize>>,
    tool: &str,
) -> Vec<String> {
    index
        .get(tool)
        .map(|found| found.iter().map(|&i| servers[i].server.clone()).collect())
        .unwrap_or_default()
}

fn backticked(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    quoted.join(", ")
}

/// One MCP server as the catalog sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct McpTools {
    pub server: String,
    /// `None`: no (or an empty) `enableTools`, so every tool of the server is registered, names unknown.
    pub tools: Option<Vec<String>>,
}

/// The tool catalog of one configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolCatalog {
    /// The runtime keeps platform tools outside a non-empty `allow` (`Change::PlatformToolsKept`).
    platform_kept: bool,
    /// Registered built-ins, in registration order, with their group.
    builtins: Vec<(&'static str, BuiltinGroup)>,
    /// Built-ins whose feature is off.
    disabled: BTreeMap<&'static str, BuiltinGroup>,
    /// Registered MCP servers, in tools.json order.
    mcp: Vec<McpTools>,
    /// MCP servers the runtime skips, with their `enableTools`.
    skipped_mcp: Vec<McpTools>,
    /// `index_tools` of `mcp` and of `skipped_mcp`.
    mcp_index: BTreeMap<String, Vec<usize>>,
    skipped_index: BTreeMap<String, Vec<usize>>,
    allow: BTreeSet<String>,
    deny: BTreeMap<String, TextRange>,
    /// True when tools.json's allow/deny are applied (file used, feature on, not sandbox).
    tools_json_applies: bool,
    /// [`ToolCatalog::name_index`], built on first use.
    name_index: BuiltOnUse<SuggestionIndex>,
}

/// A value derived from the fields beside it, built on first use: it takes no part in equality,
/// so that a catalog that was asked for it equals one that was not.
#[derive(Clone, Debug, Default)]
struct BuiltOnUse<T>(std::sync::OnceLock<T>);

impl<T> PartialEq for BuiltOnUse<T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<T> Eq for BuiltOnUse<T> {}

impl ToolCatalog {
    /// The catalog of a workspace snapshot: its configuration, whether any skill layer exists,
    /// and the tools.json the runtime reads.
    pub fn for_workspace(workspace: &Workspace) -> ToolCatalog {
        let skills_exist = !workspace.skills.is_empty();
        ToolCatalog::new(
            &workspace.config,
            skills_exist,
            workspace.effective_tools().map(|t| t.as_ref()),
        )
    }

    /// The catalog for `config`; `any_skill` = some SKILL.md exists; `tools` = the tools.json the
    /// runtime reads (shared before project), if any.
    pub fn new(config: &Config, any_skill: bool, tools: Option<&ToolsDoc>) -> ToolCatalog {
        let features = &config.features;
        let harness = config.harness;
        let groups: [(BuiltinGroup, &[&'static str], bool); 10] = [
            (BuiltinGroup::File, FILE_TOOLS, true),
            (
                BuiltinGroup::Shell,
                &[SHELL_TOOL],
                features.shell_tool && config.filesystem.mode != FilesystemMode::Remote,
            ),
            (BuiltinGroup::Web, WEB_TOOLS, harness.has(Change::WebTools)),
            (
                BuiltinGroup::Artifact,
                &[ARTIFACT_TOOL],
                harness.has(Change::ArtifactDelivery) && config.agent.artifact_delivery,
            ),
            (BuiltinGroup::Memory, MEMORY_TOOLS, features.memory_tools),
            (BuiltinGroup::Subagent, SUBAGENT_TOOLS, features.subagents),
            (BuiltinGroup::Async, &[WAIT_TOOL], true),
            (
                BuiltinGroup::Skills,
                &[LOAD_SKILL_TOOL],
                features.default_workspace_skills || any_skill,
            ),
            (BuiltinGroup::Plan, PLAN_TOOLS, features.plan_mode),
            (
                BuiltinGroup::TaskList,
                &[TASK_LIST_TOOL],
                features.task_list,
            ),
        ];
        let mut builtins = Vec::new();
        let mut disabled = BTreeMap::new();
        for (group, names, on) in groups {
            for &name in names {
                if on {
                    builtins.push((name, group));
                } else {
                    disabled.insert(name, group);
                }
            }
        }
        let tools_json_applies = features.tools_config
            && config.filesystem.mode != FilesystemMode::Sandbox
            && tools.is_some_and(ToolsDoc::is_used);
        let mut catalog = ToolCatalog {
            platform_kept: harness.has(Change::PlatformToolsKept),
            builtins,
            disabled,
            mcp: Vec::new(),
            skipped_mcp: Vec::new(),
            mcp_index: BTreeMap::new(),
            skipped_index: BTreeMap::new(),
            allow: BTreeSet::new(),
            deny: BTreeMap::new(),
            tools_json_applies,
            name_index: BuiltOnUse::default(),
        };
        if let (true, Some(doc)) = (tools_json_applies, tools) {
            for server in &doc.servers {
                let tools = McpTools {
                    server: server.name.value.clone(),
                    tools: (!server.enable_tools.is_empty()).then(|| {
                        server
                            .enable_tools
                            .iter()
                            .map(|t| t.value.clone())
                            .collect()
                    }),
                };
                if server.registered {
                    catalog.mcp.push(tools);
                } else {
                    catalog.skipped_mcp.push(tools);
                }
            }
            catalog.mcp_index = index_tools(&catalog.mcp);
            catalog.skipped_index = index_tools(&catalog.skipped_mcp);
            catalog.allow = doc.allow.iter().map(|a| a.value.clone()).collect();
            for entry in &doc.deny {
                catalog
                    .deny
                    .entry(entry.value.clone())
                    .or_insert(entry.range);
            }
        }
        catalog
    }

    /// Where `name` comes from and what tools.json does to it.
    pub fn lookup(&self, name: &str) -> ToolInfo {
        let origin = self.origin(name);
        // Before `HarnessPlatformTools` (2.0.2), `allow` treats them like any other tool.
        let platform = self.platform_kept && is_platform_tool(name);
        let mut info = ToolInfo {
            name: name.to_string(),
            origin,
            platform,
            removal: None,
            readded: false,
        };
        if info.is_registered() || matches!(info.origin, ToolOrigin::MaybeMcp { .. }) {
            info.removal = self.removal(name, platform);
            info.readded = info.removal.is_some() && name == LOAD_SKILL_TOOL;
        }
        info
    }

    fn origin(&self, name: &str) -> ToolOrigin {
        if let Some((_, group)) = self.builtins.iter().find(|(n, _)| *n == name) {
            return ToolOrigin::BuiltIn(*group);
        }
        let servers = servers_listing(&self.mcp, &self.mcp_index, name);
        if !servers.is_empty() {
            return ToolOrigin::Mcp { servers };
        }
        if let Some(group) = self.disabled.get(name) {
            return ToolOrigin::BuiltInDisabled(*group);
        }
        let skipped = servers_listing(&self.skipped_mcp, &self.skipped_index, name);
        if !skipped.is_empty() {
            return ToolOrigin::McpNotRegistered { servers: skipped };
        }
        if let Some((_, needs)) = OPT_IN_TOOLS.iter().find(|(n, _)| *n == name) {
            return ToolOrigin::OptIn { needs };
        }
        let open: Vec<String> = self
            .servers_with_unknown_tools()
            .map(str::to_string)
            .collect();
        if !open.is_empty() {
            return ToolOrigin::MaybeMcp { servers: open };
        }
        ToolOrigin::Unknown
    }

    fn removal(&self, name: &str, platform: bool) -> Option<Removal> {
        if let Some(range) = self.deny.get(name) {
            return Some(Removal::Denied(*range));
        }
        if !self.allow.is_empty() && !self.allow.contains(name) && !platform {
            return Some(Removal::NotAllowed);
        }
        None
    }

    /// True when tools.json's `allow` names `name` (so the author expects a tool of that name,
    /// e.g. one registered in Java code that agentws cannot see).
    pub fn allows_by_name(&self, name: &str) -> bool {
        self.allow.contains(name)
    }

    /// Registered built-ins in registration order.
    pub fn builtins(&self) -> impl Iterator<Item = (&'static str, BuiltinGroup)> + '_ {
        self.builtins.iter().copied()
    }

    /// Registered MCP servers and their known tools.
    pub fn mcp_servers(&self) -> &[McpTools] {
        &self.mcp
    }

    /// Registered MCP servers whose tool names are unknown (no `enableTools`).
    pub fn servers_with_unknown_tools(&self) -> impl Iterator<Item = &str> {
        self.mcp
            .iter()
            .filter(|m| m.tools.is_none())
            .map(|m| m.server.as_str())
    }

    /// Every tool name agentws knows to be registered (built-ins, then MCP `enableTools`).
    /// The registered names and the platform tools', prepared for suggesting one for a name the
    /// catalog does not know (built once per catalog, however many lists ask).
    pub fn name_index(&self) -> &SuggestionIndex {
        self.name_index.0.get_or_init(|| {
            SuggestionIndex::new(
                self.registered_names()
                    .into_iter()
                    .chain(PLATFORM_TOOLS.iter().copied()),
            )
        })
    }

    pub fn registered_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.builtins.iter().map(|(n, _)| *n).collect();
        // A set beside the list: thousands of MCP tools must not cost a scan each.
        let mut seen: std::collections::HashSet<&str> = names.iter().copied().collect();
        for server in &self.mcp {
            for tool in server.tools.iter().flatten() {
                if seen.insert(tool.as_str()) {
                    names.push(tool);
                }
            }
        }
        names
    }

    /// The known tools the agent ends up with after allow/deny.
    pub fn effective_names(&self) -> Vec<&str> {
        self.registered_names()
            .into_iter()
            .filter(|n| self.lookup(n).is_available())
            .collect()
    }

    /// True when tools.json's allow/deny and MCP servers are in force.
    pub fn tools_json_applies(&self) -> bool {
        self.tools_json_applies
    }
}

/// The prompt sections that tell the model to use tools (Appendix A.11, A.3, A.4/A.6), with the
/// tools each one names. The sections are chosen by the builder's features, never by tools.json.
pub const PROMPT_TOOL_SECTIONS: &[PromptToolSection] = &[
    PromptToolSection {
        heading: "## Subagents",
        tools: &["agent_spawn", "agent_send", "agent_list"],
        asks: "to delegate to subagents with",
    },
    PromptToolSection {
        heading: "PLAN MODE",
        tools: &["plan_write", "plan_exit"],
        asks: "to record and finish the plan with",
    },
    PromptToolSection {
        heading: "## Code Execution",
        tools: &[SHELL_TOOL],
        asks: "to run skill scripts with the shell tool",
    },
    PromptToolSection {
        heading: "## Memory Recall",
        tools: &["memory_search", "memory_get"],
        asks: "to search and read memory with",
    },
    PromptToolSection {
        heading: "## Memory Persistence",
        tools: &["memory_save"],
        asks: "to save memories with",
    },
];

/// One prompt section that names tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PromptToolSection {
    pub heading: &'static str,
    pub tools: &'static [&'static str],
    /// What the section tells the model to do, completed by the tool names.
    pub asks: &'static str,
}

impl PromptToolSection {
    /// True when `config` renders this section (`code_execution`: whether any rendered skill
    /// gets a `<files-root>`, which decides the Code Execution section).
    pub fn rendered(&self, config: &Config, code_execution: bool) -> bool {
        match self.heading {
            "## Code Execution" => code_execution,
            "## Subagents" => config.features.subagents,
            // The banner of an active plan mode, at every step while it is active.
            "PLAN MODE" => config.features.plan_mode,
            _ => config.features.workspace_context && config.features.memory_tools,
        }
    }
}

impl ToolCatalog {
    /// The tools of `section` that tools.json removes (registered, removed, not re-added).
    pub fn removed_from(&self, section: &PromptToolSection) -> Vec<&'static str> {
        section
            .tools
            .iter()
            .copied()
            .filter(|name| {
                let info = self.lookup(name);
                info.is_registered() && info.removal.is_some() && !info.readded
            })
            .collect()
    }
}

pub fn is_platform_tool(name: &str) -> bool {
    PLATFORM_TOOLS.contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::{Env, FileContent};
    use crate::workspace::tools::parse;
    use std::path::{Path, PathBuf};
    use std::sync::Arc;

    fn doc(text: &str) -> ToolsDoc {
        parse(
            PathBuf::from("/p/.agentscope/workspace/tools.json"),
            &FileContent::Text(Arc::from(text)),
            &Env::new(),
        )
    }

    #[test]
    fn default_builtins_follow_the_features() {
        let mut config = Config::defaults_for(Path::new("/p"));
        let catalog = ToolCatalog::new(&config, false, None);
        let names = catalog.registered_names();
        assert_eq!(
            names,
            vec![
                "read_file",
                "write_file",
                "edit_file",
                "grep_files",
                "glob_files",
                "list_files",
                "execute",
                "web_fetch",
                "web_search",
                "memory_search",
                "memory_get",
                "memory_save",
                "session_search",
                "session_list",
                "session_history",
                "agent_spawn",
                "agent_send",
                "agent_list",
                "task_output",
                "task_cancel",
                "task_list",
                "wait_async_results",
                "load_skill_through_path",
            ]
        );
        config.features.shell_tool = false;
        config.features.memory_tools = false;
        config.features.plan_mode = true;
        config.features.task_list = true;
        let catalog = ToolCatalog::new(&config, false, None);
        assert_eq!(
            catalog.lookup("execute").origin,
            ToolOrigin::BuiltInDisabled(BuiltinGroup::Shell)
        );
        assert!(catalog.lookup("plan_write").is_available());
        assert!(catalog.lookup("todo_write").is_available());
        assert!(!catalog.lookup("memory_get").is_registered());
        config.filesystem.mode = FilesystemMode::Remote;
        config.features.shell_tool = true;
        assert!(!ToolCatalog::new(&config, false, None)
            .lookup("execute")
            .is_registered());
        assert_eq!(
            ToolCatalog::new(&config, false, None)
                .lookup("skill_manage")
                .origin,
            ToolOrigin::OptIn {
                needs: "skill management"
            }
        );
    }

    #[test]
    fn allow_deny_and_mcp() {
        let config = Config::defaults_for(Path::new("/p"));
        let tools = doc(r#"{
  "allow": ["read_file", "search"],
  "deny": ["execute", "task_output", "load_skill_through_path"],
  "mcpServers": {
    "gh": {"transport": "stdio", "command": "gh-mcp", "enableTools": ["search", "issues"]},
    "open": {"transport": "http", "url": "http://x"},
    "broken": {"transport": "carrier-pigeon"}
  }
}"#);
        let catalog = ToolCatalog::new(&config, true, Some(&tools));
        let read = catalog.lookup("read_file");
        assert!(read.is_available());
        assert_eq!(read.describe(), "`read_file`: built-in (file tools)");
        assert_eq!(
            catalog.lookup("execute").describe(),
            "`execute`: built-in (shell tool); removed by tools.json `deny`"
        );
        assert_eq!(
            catalog.lookup("issues").describe(),
            "`issues`: MCP tool of `gh`; removed: not in tools.json `allow`"
        );
        assert_eq!(
            catalog.lookup("write_file").removal,
            Some(Removal::NotAllowed)
        );
        assert!(matches!(
            catalog.lookup("execute").removal,
            Some(Removal::Denied(_))
        ));
        // Platform tools survive allow, not deny.
        assert!(catalog.lookup("agent_spawn").is_available());
        assert!(matches!(
            catalog.lookup("task_output").removal,
            Some(Removal::Denied(_))
        ));
        let load = catalog.lookup("load_skill_through_path");
        assert!(load.readded && load.is_available());
        assert_eq!(
            catalog.lookup("search").origin,
            ToolOrigin::Mcp {
                servers: vec!["gh".into()]
            }
        );
        assert_eq!(catalog.lookup("issues").removal, Some(Removal::NotAllowed));
        let broken = doc(
            r#"{"mcpServers": {"crm": {"transport": "streamable_http", "url": "u", "enableTools": ["lookup"]}}}"#,
        );
        assert_eq!(
            ToolCatalog::new(&config, true, Some(&broken))
                .lookup("lookup")
                .origin,
            ToolOrigin::McpNotRegistered {
                servers: vec!["crm".into()]
            }
        );
        assert_eq!(
            catalog.lookup("whatever").origin,
            ToolOrigin::MaybeMcp {
                servers: vec!["open".into()]
            }
        );
        assert_eq!(
            catalog.effective_names(),
            vec![
                "read_file",
                "agent_spawn",
                "agent_send",
                "agent_list",
                "task_cancel",
                "task_list",
                "wait_async_results",
                "load_skill_through_path",
                "search",
            ]
        );
    }

    #[test]
    fn tools_json_does_not_apply_in_sandbox_or_when_disabled_or_ignored() {
        let tools = doc(r#"{"deny": ["read_file"]}"#);
        let mut config = Config::defaults_for(Path::new("/p"));
        config.filesystem.mode = FilesystemMode::Sandbox;
        assert!(ToolCatalog::new(&config, false, Some(&tools))
            .lookup("read_file")
            .is_available());
        config.filesystem.mode = FilesystemMode::Local;
        config.features.tools_config = false;
        assert!(ToolCatalog::new(&config, false, Some(&tools))
            .lookup("read_file")
            .is_available());
        config.features.tools_config = true;
        let broken = doc(r#"{"deny": ["read_file"],}"#);
        assert!(ToolCatalog::new(&config, false, Some(&broken))
            .lookup("read_file")
            .is_available());
        assert!(!ToolCatalog::new(&config, false, Some(&tools))
            .lookup("read_file")
            .is_available());
    }
}
