//! TJ032 `tools-json-env-default`: `${NAME:-default}` or `${NAME-default}`, the default syntax of
//! Claude Code's `.mcp.json` (and of the shell), which the runtime's substitution does not know:
//! its pattern is `${NAME}` alone, so the text reaches the server as written.

use super::{variable_name_len, Parser};
use crate::base::{Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "TJ032",
    name: "tools-json-env-default",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A tools.json value uses `${NAME:-default}` or `${NAME-default}`, a default syntax the runtime does not have.",
    consequence: "The runtime substitutes only `${NAME}`: this text is sent as written (as a header, an argument, a URL), neither the variable's value nor the default.",
    explanation: "`ToolsConfigLoader` replaces what matches `\\$\\{([A-Za-z_][A-Za-z0-9_]*)}` with the \
environment's value (or `\"\"`), before parsing. `${API_KEY:-none}` does not match (the name must be \
followed by `}`), so the literal `${API_KEY:-none}` is what the MCP server gets: an `Authorization` \
header that no server accepts, an argument the command does not understand. Claude Code's `.mcp.json` \
and the shell expand this syntax; AgentScope does not.

Write `${NAME}` and make sure the agent's environment sets the variable (an unset one becomes an \
empty string, TJ007), or write the value itself.",
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/tools.json",
            r#"{
  "mcpServers": {
    "tracker": {
      "transport": "http",
      "url": "https://tracker.example.com/mcp",
      "headers": {"Authorization": "Bearer ${TRACKER_TOKEN:-}"}
    }
  }
}
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/tools.json",
            r#"{
  "mcpServers": {
    "tracker": {
      "transport": "http",
      "url": "https://tracker.example.com/mcp",
      "headers": {"Authorization": "Bearer ${TRACKER_TOKEN}"}
    }
  }
}
"#,
        )],
        at: ".agentscope/workspace/tools.json:6:44",
    }],
}

/// Every `${NAME:-…}` and `${NAME-…}` of `text`: its range (through the closing `}`), the name and
/// the default as written. A `${` whose closing brace is not on the same line is left alone.
pub(super) fn defaults(text: &str) -> Vec<(TextRange, &str, &str)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find("${").map(|i| from + i) {
        from = at + 2;
        let Some(name_len) = variable_name_len(&bytes[at + 2..]) else {
            continue;
        };
        let after = at + 2 + name_len;
        let skip = if text[after..].starts_with(":-") {
            2
        } else if text[after..].starts_with('-') {
            1
        } else {
            continue;
        };
        let rest = &text[after + skip..];
        let Some(close) = rest
            .find(['}', '\n', '"'])
            .filter(|&i| rest[i..].starts_with('}'))
        else {
            continue;
        };
        let end = after + skip + close + 1;
        out.push((
            TextRange::new(at, end),
            &text[at + 2..after],
            &text[after + skip..after + skip + close],
        ));
        from = end;
    }
    out
}

impl Parser<'_> {
    /// The default syntax in the text as the runtime sees it (a variable's value is not the
    /// file's text, and is left alone).
    pub(super) fn env_defaults(&mut self) {
        let sub = self.sub;
        for (range, name, default) in defaults(&sub.text) {
            if !sub.is_verbatim(range) {
                continue;
            }
            let written = &sub.text[range.start..range.end];
            let default = if default.is_empty() {
                "an empty default".to_string()
            } else {
                format!("the default `{default}`")
            };
            self.push(
                &RULE,
                range,
                format!(
                    "`{written}` is sent as written: the runtime substitutes only `${{{name}}}` (no `:-` or `-` defaults), so neither the value of `{name}` nor {default} takes its place"
                ),
            );
        }
    }
}
