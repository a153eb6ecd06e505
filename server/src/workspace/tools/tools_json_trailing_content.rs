//! TJ010 `tools-json-trailing-content`: text after the JSON value, which Jackson's default
//! reader does not look at.

use super::Parser;
use crate::base::{Diagnostic, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::json::Problem;

declare_rule! {
    code: "TJ010",
    name: "tools-json-trailing-content",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "tools.json has text after its JSON value.",
    consequence: "The runtime reads one JSON value and stops: everything after it is never read.",
    explanation:
        "`ObjectMapper.readValue` does not fail on trailing tokens by default, so a second \
object, a comment or leftover text after the closing `}` is silently ignored. Anything meant to be \
configured there has no effect.",
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/tools.json",
            r#"{
  "deny": ["execute"]
}
{
  "deny": ["web_fetch"]
}
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/tools.json",
            r#"{
  "deny": ["execute", "web_fetch"]
}
"#,
        )],
        at: ".agentscope/workspace/tools.json:4:1",
    }],
}

impl Parser<'_> {
    pub(super) fn trailing_content(&self, problem: &Problem, range: TextRange) -> Diagnostic {
        RULE.at(&self.path, range, problem.message())
    }
}
