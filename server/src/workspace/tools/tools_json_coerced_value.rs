//! TJ017 `tools-json-coerced-value`: a number or boolean where the schema takes a string;
//! Jackson reads it as its text.

use super::Parser;
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::json::Node;

declare_rule! {
    code: "TJ017",
    name: "tools-json-coerced-value",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: "A number or boolean is used where tools.json expects a string.",
    consequence: "The runtime converts it to its text (`1` becomes \"1\").",
    explanation:
        "Usually harmless, but a tool named `1` or an argument `true` is rarely what was meant.",
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/tools.json",
            r#"{
  "mcpServers": {
    "github": {
      "transport": "stdio",
      "command": "npx",
      "args": ["mcp-server-http", "--port", 8080]
    }
  }
}
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/tools.json",
            r#"{
  "mcpServers": {
    "github": {
      "transport": "stdio",
      "command": "npx",
      "args": ["mcp-server-http", "--port", "8080"]
    }
  }
}
"#,
        )],
        at: ".agentscope/workspace/tools.json:6:45",
    }],
}

impl Parser<'_> {
    /// The text the runtime reads for the scalar `node`, said of `what` (`` `allow` entry ``,
    /// `` `command` ``, `` `env.PORT` ``).
    pub(super) fn coerced(&mut self, node: &Node, what: &str) -> String {
        let text = node.scalar_text().unwrap_or_default().into_owned();
        self.push(
            &RULE,
            node.range,
            format!("{what} is read as the string \"{text}\""),
        );
        text
    }
}
