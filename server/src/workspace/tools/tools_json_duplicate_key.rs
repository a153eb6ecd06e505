//! TJ009 `tools-json-duplicate-key`: a key repeated in one object; Jackson keeps the last
//! value, and the earlier one is discarded.

use super::Parser;
use crate::base::{Diagnostic, Related, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::json::Problem;

declare_rule! {
    code: "TJ009",
    name: "tools-json-duplicate-key",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A name appears twice in one tools.json object.",
    consequence: "The runtime keeps the last value; the earlier one is silently discarded.",
    explanation: "Two `allow` lists or two servers with the same name do not merge: only the last one \
counts (for `mcpServers`, the server keeps the position of its first occurrence). Merge them into one.",
    examples: &[
        Example {
            base: Base::None,
            triggering: &[
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["execute"],
  "deny": ["web_fetch"]
}
"#),
            ],
            fixed: &[
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["execute", "web_fetch"]
}
"#),
            ],
            at: ".agentscope/workspace/tools.json:3:3",
        },
    ],
}

impl Parser<'_> {
    /// `problem` at `range`, pointing at the earlier occurrence (`first`, in the substituted
    /// text).
    pub(super) fn duplicate_key(
        &self,
        problem: &Problem,
        range: TextRange,
        first: TextRange,
    ) -> Diagnostic {
        RULE.at(&self.path, range, problem.message())
            .with_related(Related {
                path: self.path.clone(),
                range: self.range(first),
                message: "earlier occurrence, discarded".into(),
            })
    }
}
