//! TJ019 `tools-json-null-value`: `allow`, `deny`, a server's list or `mcpServers` set to
//! `null`, which the runtime reads as not set.

use super::Parser;
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::json::Node;

declare_rule! {
    code: "TJ019",
    name: "tools-json-null-value",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: "A tools.json value is `null` where a list or object is expected.",
    consequence: "The runtime reads `null` as not set.",
    explanation: "`\"allow\": null` is the same as leaving `allow` out.",
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/tools.json",
            r#"{
  "allow": null,
  "deny": ["execute"]
}
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/tools.json",
            r#"{
  "deny": ["execute"]
}
"#,
        )],
        at: ".agentscope/workspace/tools.json:2:12",
    }],
}

impl Parser<'_> {
    pub(super) fn null_value(&mut self, key: &str, node: &Node) {
        self.push(&RULE, node.range, format!("`{key}` is null: not set"));
    }
}
