//! Parsing `agentws.toml` text into a [`Config`](super::Config), with a diagnostic per unknown key,
//! wrong type or invalid value (rules `CF…`), keeping the defaults for everything else.
//!
//! OWNER: the tools.json/config work (see docs/architecture.md). Placeholder: reads the keys
//! without diagnostics.

use std::path::Path;

use super::*;
use crate::base::{Diagnostic, FileContent};

/// Loads the configuration in `file` (absolute path) whose content is `content`.
pub fn load(file: &Path, content: &FileContent) -> (Config, Vec<Diagnostic>) {
    let dir = file.parent().unwrap_or(Path::new("/"));
    let mut config = Config::defaults_for(dir);
    config.file = Some(file.to_path_buf());
    let Some(text) = content.text() else {
        return (config, Vec::new());
    };
    let Ok(table) = text.parse::<toml::Table>() else {
        return (config, Vec::new());
    };
    if let Some(p) = table.get("project").and_then(|v| v.as_str()) {
        config.project = std::path::absolute(dir.join(p)).unwrap_or(dir.join(p));
    }
    if let Some(w) = table.get("workspace").and_then(|v| v.as_str()) {
        config.workspace = dir.join(w);
    } else {
        config.workspace = config.project.join(DEFAULT_WORKSPACE_DIR);
    }
    if let Some(agent) = table.get("agent").and_then(|v| v.as_table()) {
        config.agent.name = agent
            .get("name")
            .and_then(|v| v.as_str())
            .map(str::to_string);
        config.agent.id = agent.get("id").and_then(|v| v.as_str()).map(str::to_string);
        if let Some(s) = agent.get("system_prompt").and_then(|v| v.as_str()) {
            config.agent.system_prompt = s.to_string();
        }
        if let Some(files) = agent
            .get("additional_context_files")
            .and_then(|v| v.as_array())
        {
            config.agent.additional_context_files = files
                .iter()
                .filter_map(|v| v.as_str())
                .map(str::to_string)
                .collect();
        }
    }
    read_remaining_keys(&mut config, &table, dir);
    (config, Vec::new())
}

/// The rest of the documented schema (issue 2 §3), read without diagnostics until the real loader
/// lands; wrong types keep the defaults.
fn read_remaining_keys(config: &mut Config, table: &toml::Table, dir: &Path) {
    let str_of = |t: &toml::Table, k: &str| t.get(k).and_then(|v| v.as_str()).map(str::to_string);
    let bool_of = |t: &toml::Table, k: &str| t.get(k).and_then(|v| v.as_bool());
    if let Some(h) = str_of(table, "harness").and_then(|h| HarnessVersion::parse(&h)) {
        config.harness = h;
    }
    if let Some(agent) = table.get("agent").and_then(|v| v.as_table()) {
        if let Some(n) = agent.get("max_context_tokens").and_then(|v| v.as_integer()) {
            config.agent.max_context_tokens =
                u32::try_from(n).unwrap_or(config.agent.max_context_tokens);
        }
        if let Some(m) = str_of(agent, "environment_memory") {
            config.agent.environment_memory = m;
        }
        if let Some(f) = str_of(agent, "system_prompt_file") {
            let path = dir.join(f);
            if let Ok(text) = std::fs::read_to_string(&path) {
                config.agent.system_prompt = text;
            }
            config.agent.system_prompt_file = Some(path);
        }
    }
    if let Some(scope) = table
        .get("isolation")
        .and_then(|v| v.as_table())
        .and_then(|t| str_of(t, "scope"))
        .and_then(|s| Scope::parse(&s))
    {
        config.scope = scope;
    }
    if let Some(fs) = table.get("filesystem").and_then(|v| v.as_table()) {
        if let Some(m) = str_of(fs, "mode").and_then(|m| FilesystemMode::parse(&m)) {
            config.filesystem.mode = m;
        }
        if let Some(m) = str_of(fs, "path_mode").and_then(|m| PathMode::parse(&m)) {
            config.filesystem.path_mode = m;
        }
        if let Some(roots) = fs.get("additional_roots").and_then(|v| v.as_array()) {
            config.filesystem.additional_roots = roots
                .iter()
                .filter_map(|v| v.as_str())
                .map(|r| dir.join(r))
                .collect();
        }
        if let Some(b) = bool_of(fs, "project_writable") {
            config.filesystem.project_writable = b;
        }
        config.filesystem.sandbox_root = str_of(fs, "sandbox_root");
        config.filesystem.workspace_spec_root = str_of(fs, "workspace_spec_root");
    }
    if let Some(features) = table.get("features").and_then(|v| v.as_table()) {
        let f = &mut config.features;
        for (key, slot) in [
            ("workspace_context", &mut f.workspace_context),
            ("memory_tools", &mut f.memory_tools),
            ("memory_hooks", &mut f.memory_hooks),
            ("shell_tool", &mut f.shell_tool),
            ("subagents", &mut f.subagents),
            ("dynamic_subagents", &mut f.dynamic_subagents),
            ("dynamic_skills", &mut f.dynamic_skills),
            ("default_workspace_skills", &mut f.default_workspace_skills),
            ("tools_config", &mut f.tools_config),
            ("plan_mode", &mut f.plan_mode),
            ("task_list", &mut f.task_list),
        ] {
            if let Some(b) = bool_of(features, key) {
                *slot = b;
            }
        }
    }
}
