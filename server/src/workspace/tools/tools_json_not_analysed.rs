//! TJ018 `tools-json-not-analysed`: a tools.json agentws does not analyse: larger than 32 MiB
//! after `${…}` substitution, or nested too deep.

use std::path::Path;

use super::Parser;
use crate::base::{Diagnostic, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::json::Problem;

declare_rule! {
    code: "TJ018",
    name: "tools-json-not-analysed",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "tools.json is nested too deeply, or grows too large after substitution, for agentws to analyse.",
    consequence: "agentws cannot tell what the runtime makes of this file.",
    explanation: "agentws builds a tree only up to 200 levels of nesting and 32 MiB of substituted text. \
The runtime accepts up to 1000 levels; nothing realistic comes close to either.",
    examples: &[
        Example {
            base: Base::None,
            triggering: &[
                (".agentscope/workspace/tools.json", r#"{"deny": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}
"#),
            ],
            fixed: &[
                (".agentscope/workspace/tools.json", r#"{"deny": ["execute"]}
"#),
            ],
            at: ".agentscope/workspace/tools.json:1:209",
        },
    ],
}

/// The substitution starting at `at` makes the text grow beyond the limit.
pub(super) fn too_large(path: &Path, at: TextRange) -> Diagnostic {
    RULE.at(
        path,
        at,
        "tools.json grows beyond 32 MiB after `${…}` substitution; not analysed",
    )
}

impl Parser<'_> {
    pub(super) fn too_deep(&self, problem: &Problem, range: TextRange) -> Diagnostic {
        RULE.at(&self.path, range, problem.message())
    }
}
