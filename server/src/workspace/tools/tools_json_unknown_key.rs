//! TJ006 `tools-json-unknown-key`: a key the runtime's schema does not have, at the top level or
//! in a server; ignored (keys starting with `//` are comments by convention and not reported).

use super::Parser;
use crate::base::suggest::{did_you_mean, hint};
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::json::Member;

declare_rule! {
    code: "TJ006",
    name: "tools-json-unknown-key",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: "tools.json has a key the runtime does not know (at the top level or in a server).",
    consequence: "Ignored: the runtime's JSON reader skips keys it does not know.",
    explanation: "Unknown keys are silently ignored, which is how `\"// comment\"` keys work (those are \
never reported). Any other unknown key is usually a typo (`Allow`, `mcp_servers`, `enabledTools`): names \
are case-sensitive. The message suggests the closest known key.",
    examples: &[
        Example {
            base: Base::None,
            triggering: &[
                (".agentscope/workspace/tools.json", r#"{
  "Deny": ["execute"]
}
"#),
            ],
            fixed: &[
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["execute"]
}
"#),
            ],
            at: ".agentscope/workspace/tools.json:2:3",
        },
    ],
}

impl Parser<'_> {
    pub(super) fn unknown_key(&mut self, member: &Member, key: &str, known: &[&str], place: &str) {
        if key.starts_with("//") {
            return;
        }
        let hint = hint(did_you_mean(key, known));
        self.push(
            &RULE,
            member.key_range,
            format!("unknown {place} key `{key}` is ignored{hint}"),
        );
    }
}
