//! TJ003 `tools-json-wrong-type`: a value of another type than the runtime's schema takes; the
//! runtime ignores the whole file.

use super::{Parser, WHOLE_FILE};
use crate::base::{Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "TJ003",
    name: "tools-json-wrong-type",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "A known tools.json key has a value of the wrong type (or a duration Jackson cannot read).",
    consequence: WHOLE_FILE,
    explanation: "Jackson binds tools.json to typed classes: `allow`/`deny` are lists of strings, \
`mcpServers` an object of server objects, `args`/`enableTools` lists of strings, `env`/`headers`/`queryParams` \
objects of strings, `command`/`url`/`transport` strings, `timeout`/`initializationTimeout` ISO-8601 \
durations (`\"PT30S\"`, as `java.time.Duration.parse` reads them) or a bare number of seconds. Numbers and \
booleans where a string is expected are converted; anything else (`\"allow\": \"read_file\"`, \
`\"mcpServers\": []`, `\"timeout\": \"30s\"`) fails the WHOLE file, not just the entry.",
    examples: &[
        Example {
            base: Base::None,
            triggering: &[
                (".agentscope/workspace/tools.json", r#"{
  "deny": "execute"
}
"#),
            ],
            fixed: &[
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["execute"]
}
"#),
            ],
            at: ".agentscope/workspace/tools.json:2:11",
        },
    ],
}

impl Parser<'_> {
    /// Counted: one such error makes the runtime ignore the file.
    pub(super) fn type_error(&mut self, range: TextRange, message: impl Into<String>) {
        self.type_errors += 1;
        self.push(&RULE, range, message);
    }
}
