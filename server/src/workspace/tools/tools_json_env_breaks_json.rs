//! TJ008 `tools-json-env-breaks-json`: a `${NAME}` whose value holds `"`, `\` or a control
//! character, inserted into the JSON unescaped; when the substituted text is then rejected, the
//! rejection is said here, at the variable.

use super::{tools_json_invalid, Parser, Variable};
use crate::base::Severity;
use crate::rules::{declare_rule, Profile};

declare_rule! {
    code: "TJ008",
    name: "tools-json-env-breaks-json",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "An environment value substituted into tools.json contains `\"`, `\\` or a control character.",
    consequence: "Values are inserted unescaped: the JSON can break (then the whole file is ignored) or the value changes meaning.",
    explanation: "Substitution happens on the raw text, so a value like `C:\\tools` or `say \"hi\"` is \
pasted into the JSON as is: a `\"` ends the string early, a `\\` starts an escape, a line break is a raw \
control character. When this breaks the JSON in the current environment, the message says so and the \
file counts as ignored. Use values without these characters, or put the whole value in the file.",
    examples: &[],
}

impl Parser<'_> {
    /// At the variable's place in the original text.
    pub(super) fn env_breaks_json(&mut self, var: &Variable) {
        self.diagnostics.push(RULE.at(
            &self.path,
            var.range,
            format!(
                "the value of `{}` contains `\"`, `\\` or a control character and is inserted into the JSON unescaped",
                var.name
            ),
        ));
    }

    /// The variable's diagnostic says that the substituted text is not valid JSON (`message`,
    /// the first rejection at or after its value), with the consequence of invalid JSON.
    pub(super) fn blame_substitution(&mut self, var: &Variable, message: &str) {
        let said = self
            .diagnostics
            .iter_mut()
            .find(|d| d.code == RULE.code && d.range == var.range);
        if let Some(d) = said {
            d.message = format!(
                "with the current value of `{}`, the substituted text is not valid JSON ({message})",
                var.name
            );
            d.consequence = tools_json_invalid::RULE.consequence.to_string();
        }
    }
}
