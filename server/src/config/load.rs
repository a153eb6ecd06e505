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
    (config, Vec::new())
}
