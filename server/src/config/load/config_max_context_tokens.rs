//! CF010 `config-max-context-tokens`: `[agent] max_context_tokens` is zero or negative, which
//! leaves no memory budget at all. (A value over a Java `int` is CF003's.)

use toml::de::DeValue;

use super::{span_of, Item, Loader};
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "CF010",
    name: "config-max-context-tokens",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "`agent.max_context_tokens` is zero or negative.",
    consequence: "The memory budget is exhausted before MEMORY.md: the runtime then injects it in full instead of truncating it.",
    explanation: "Use a positive token budget (the runtime default is 8000).",
    examples: &[
        Example {
            base: Base::Shared { without: &[".agentscope/workspace/skills/pdf/SKILL.md"] },
            triggering: &[
                ("agentws.toml", r#"[agent]
name = "release"
max_context_tokens = 0
"#),
            ],
            fixed: &[
                ("agentws.toml", r#"[agent]
name = "release"
max_context_tokens = 8000
"#),
            ],
            at: "agentws.toml:3:22",
        },
    ],
}

impl Loader<'_> {
    /// The budget `item` sets, or `None` (the default stays) after reporting why.
    pub(super) fn max_context_tokens(&mut self, item: &Item) -> Option<u32> {
        let name = "agent.max_context_tokens";
        let DeValue::Integer(i) = item.get_ref() else {
            self.wrong_type(name, item, "an integer");
            return None;
        };
        match i64::from_str_radix(i.as_str(), i.radix()).ok() {
            Some(v) if v <= 0 => {
                self.push(
                    &RULE,
                    span_of(item),
                    format!("`{name}` is {v}: no memory budget at all"),
                );
                Some(0)
            }
            Some(v) if v <= i64::from(i32::MAX) => Some(v as u32),
            _ => {
                self.not_an_int(name, item);
                None
            }
        }
    }
}
