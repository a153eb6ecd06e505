//! TJ007 `tools-json-env-unset`: a `${NAME}` whose environment variable is not set; the runtime
//! substitutes an empty string.

use super::{Parser, Variable};
use crate::base::Severity;
use crate::rules::{declare_rule, Profile};

declare_rule! {
    code: "TJ007",
    name: "tools-json-env-unset",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A `${NAME}` in tools.json names an environment variable that is not set here.",
    consequence: "The runtime substitutes an empty string (and logs a warning) when the variable is unset at build time.",
    explanation: "The runtime replaces every `${NAME}` (regex `\\$\\{([A-Za-z_][A-Za-z0-9_]*)}`) in the raw \
text before parsing, with the process environment's value or `\"\"`. There is no default syntax \
(`${A:-b}` stays as written) and no escaping (`$${A}` is `$` plus the value). agentws checks against the \
environment it runs in; make sure the agent's environment sets the variable.",
    examples: &[],
}

impl Parser<'_> {
    /// At the variable's place in the original text.
    pub(super) fn env_unset(&mut self, var: &Variable) {
        self.diagnostics.push(RULE.at(
            &self.path,
            var.range,
            format!(
                "environment variable `{}` is not set; the runtime substitutes an empty string",
                var.name
            ),
        ));
    }
}
