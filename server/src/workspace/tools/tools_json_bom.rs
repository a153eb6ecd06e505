//! TJ002 `tools-json-bom`: a byte order mark before the JSON, which Jackson rejects; the fix
//! removes it.

use super::{Parser, WHOLE_FILE};
use crate::base::{Diagnostic, Fix, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::json::Problem;

declare_rule! {
    code: "TJ002",
    name: "tools-json-bom",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "tools.json starts with a UTF-8 byte order mark.",
    consequence: WHOLE_FILE,
    explanation: "The runtime decodes the file to a Java `String` (the BOM stays, as U+FEFF) and hands \
the string to Jackson, whose character-based parser does not skip a BOM: parsing is believed to fail \
(not observed in a running JVM; agentws treats it as failing, see docs/runtime-sources.md). Save the file as UTF-8 without BOM; the fix removes it.",
    examples: &[
        Example {
            base: Base::None,
            triggering: &[
                (".agentscope/workspace/tools.json", "\u{feff}{
  \"deny\": [\"execute\"]
}
"),
            ],
            fixed: &[
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["execute"]
}
"#),
            ],
            at: ".agentscope/workspace/tools.json:1:1",
        },
    ],
}

impl Parser<'_> {
    pub(super) fn bom(&self, problem: &Problem, range: TextRange) -> Diagnostic {
        RULE.at(&self.path, range, problem.message())
            .with_fix(Fix::replace(
                "Remove the byte order mark",
                &self.path,
                range,
                "",
            ))
    }
}
