//! TJ031 `tools-json-servers-outside-mcpservers`: MCP servers written at the top level of
//! tools.json (the shape of Claude Code's `.mcp.json` without its `mcpServers` wrapper, or a
//! `.mcp.json` copied in as it is with a few servers beside it). The runtime reads servers only
//! under `mcpServers` and ignores unknown keys, so none of them is registered. When the file has
//! no `mcpServers` at all and no `${…}`, the fix moves them there (with `"transport"`, which
//! the runtime needs and `.mcp.json` spells `type` or leaves out for a command).

use super::Parser;
use crate::base::{FileEdit, Fix, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::json::{Member, Value};

declare_rule! {
    code: "TJ031",
    name: "tools-json-servers-outside-mcpservers",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "MCP servers are written at the top level of tools.json, outside `mcpServers`.",
    consequence: "The runtime reads servers only under `mcpServers` and skips unknown keys without a word: none of these servers is registered, and their tools do not exist.",
    explanation: "`ToolsConfig` has three fields, `allow`, `deny` and `mcpServers`, and Jackson ignores every \
other key. A top-level member whose value looks like a server (an object with `command`, `url`, `type`, \
`transport` or `args`) is what Claude Code's `.mcp.json` holds inside `mcpServers`, or what a plugin's \
server list holds at its top level; copied into tools.json as it is, it registers nothing.

Move the servers under `mcpServers`, and give each one the `transport` the runtime reads (Claude Code \
writes `type`, and leaves it out for a server started by a command: `stdio`). When the file has no \
`mcpServers` yet and no `${VAR}`, the fix does both.",
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/tools.json",
            r#"{
  "github": {
    "type": "http",
    "url": "https://api.githubcopilot.com/mcp/"
  },
  "files": {
    "command": "mcp-files",
    "args": ["--root", "."]
  }
}
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/tools.json",
            r#"{
  "mcpServers": {
  "github": {
    "transport": "http",
    "url": "https://api.githubcopilot.com/mcp/"
  },
  "files": {"transport": "stdio", 
    "command": "mcp-files",
    "args": ["--root", "."]
  }
  }
}
"#,
        )],
        at: ".agentscope/workspace/tools.json:2:3",
    }],
}

/// Keys that make a top-level object look like an MCP server.
const SERVER_SHAPE: &[&str] = &["command", "url", "type", "transport", "args"];

/// True when `member`, at the top level, is a server written outside `mcpServers`.
pub(super) fn looks_like_a_server(member: &Member) -> bool {
    match &member.value.value {
        Value::Object(fields) => fields
            .iter()
            .any(|f| SERVER_SHAPE.contains(&f.key.as_str())),
        _ => false,
    }
}

impl Parser<'_> {
    /// The top-level `servers` (in order, all of them `looks_like_a_server`); `has_mcp_servers`
    /// when the file has an `mcpServers` too (then no fix: which list the user meant is unclear);
    /// `contiguous` when no other member stands between them (else no fix, which would move it).
    pub(super) fn servers_outside(
        &mut self,
        servers: &[&Member],
        has_mcp_servers: bool,
        contiguous: bool,
    ) {
        let (Some(first), Some(last)) = (servers.first(), servers.last()) else {
            return;
        };
        let names = servers
            .iter()
            .map(|s| format!("`{}`", s.key))
            .collect::<Vec<_>>()
            .join(", ");
        let (what, are) = match servers.len() {
            1 => ("an MCP server", "is"),
            _ => ("MCP servers", "are"),
        };
        let registered = if has_mcp_servers {
            "only the servers under `mcpServers` are registered"
        } else {
            "no MCP server is registered"
        };
        let message = format!(
            "{names} {are} {what} written at the top level (Claude Code's `.mcp.json` keeps them under `mcpServers`): the runtime reads servers only under `mcpServers` and ignores these keys, so {registered}"
        );
        let mut diagnostic = RULE.at(&self.path, self.range(first.key_range), message);
        if !has_mcp_servers && contiguous && self.sub.variables.is_empty() {
            diagnostic = diagnostic.with_fix(self.move_under_mcp_servers(servers, first, last));
        }
        self.diagnostics.push(diagnostic);
    }

    /// Wraps the servers (contiguous in the file) in `"mcpServers": { … }`, and gives each the `transport` the
    /// runtime reads: `type` renamed, or `stdio` for a server with a `command` and neither.
    fn move_under_mcp_servers(&self, servers: &[&Member], first: &Member, last: &Member) -> Fix {
        let mut edits = vec![FileEdit {
            path: self.path.clone(),
            range: crate::base::TextRange::empty(first.key_range.start),
            new_text: "\"mcpServers\": {\n  ".to_string(),
        }];
        for server in servers {
            let Value::Object(fields) = &server.value.value else {
                continue;
            };
            let has = |key: &str| fields.iter().any(|f| f.key == key);
            if has("transport") {
                continue;
            }
            if let Some(kind) = fields.iter().find(|f| f.key == "type") {
                edits.push(FileEdit {
                    path: self.path.clone(),
                    range: kind.key_range,
                    new_text: "\"transport\"".to_string(),
                });
            } else if has("command") {
                edits.push(FileEdit {
                    path: self.path.clone(),
                    range: crate::base::TextRange::empty(server.value.range.start + 1),
                    new_text: "\"transport\": \"stdio\", ".to_string(),
                });
            }
        }
        edits.push(FileEdit {
            path: self.path.clone(),
            range: crate::base::TextRange::empty(last.value.range.end),
            new_text: "\n  }".to_string(),
        });
        edits.sort_by_key(|e| e.range.start);
        Fix {
            title: "Move the servers under `mcpServers`, with `transport`".to_string(),
            edits,
        }
    }
}
