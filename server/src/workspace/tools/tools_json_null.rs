//! TJ005 `tools-json-null`: the whole document is `null`: no configuration.

use super::Parser;
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::json::Node;

declare_rule! {
    code: "TJ005",
    name: "tools-json-null",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: "tools.json is the literal `null`.",
    consequence: "The runtime reads `null` as no configuration and uses the default toolkit.",
    explanation:
        "Equivalent to having no tools.json. Write `{}` if an empty configuration is meant.",
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/tools.json",
            r#"null
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/tools.json",
            r#"{}
"#,
        )],
        at: ".agentscope/workspace/tools.json:1:1",
    }],
}

impl Parser<'_> {
    pub(super) fn null_document(&mut self, root: &Node) {
        self.push(&RULE, root.range, "tools.json is `null`: no configuration");
    }
}
