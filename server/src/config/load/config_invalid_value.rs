//! CF004 `config-invalid-value`: a value of the right type that the key does not take (not one
//! of its choices, out of its range); the key keeps its default.

use super::{fallback, span_of, Item, Loader};
use crate::base::suggest::did_you_mean;
use crate::base::{Severity, TextRange};
use crate::config::schema;
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "CF004",
    name: "config-invalid-value",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "An agentws.toml enum key has a value that is not one of its choices.",
    consequence: "The setting behaves as if the key were not written.",
    explanation:
        "`harness`: `2026-09` | `2026-08`; `isolation.scope`: `user` | `session` | `agent` | \
`global`; `filesystem.mode`: `local` | `sandbox` | `remote`; `filesystem.path_mode`: `rooted` | \
`sandboxed` | `unrestricted`. Values are lower-case.",
    examples: &[Example {
        base: Base::Shared { without: &[".agentscope/workspace/skills/pdf/SKILL.md"] },
        triggering: &[
            ("agentws.toml", r#"[agent]
name = "release"

[isolation]
scope = "tenant"
"#),
        ],
        fixed: &[
            ("agentws.toml", r#"[agent]
name = "release"

[isolation]
scope = "user"
"#),
        ],
        at: "agentws.toml:5:9",
    }],
}

impl Loader<'_> {
    /// `name`'s `value` is none of the key table's choices for it.
    pub(super) fn not_a_choice(&mut self, name: &str, item: &Item, value: &str) {
        let choices = match super::key_spec(name).map(|k| k.ty) {
            Some(schema::KeyType::Choice(choices)) => choices,
            _ => &[],
        };
        let listed: Vec<String> = choices.iter().map(|c| format!("\"{c}\"")).collect();
        // A version is not a misspelling of the nearest supported one: no hint for digits.
        let word = !value.chars().any(|c| c.is_ascii_digit());
        let near = match did_you_mean(value, choices).filter(|_| word) {
            Some(best) => format!(" (did you mean \"{best}\"?)"),
            None => String::new(),
        };
        self.invalid_value(
            name,
            item,
            &format!("one of {}, not \"{value}\"{near}", listed.join(", ")),
        );
    }

    /// `name`'s value is not what it `must_be` (`a number of seconds from 1 to 600`).
    pub(super) fn invalid_value(&mut self, name: &str, item: &Item, must_be: &str) {
        self.invalid_at(name, span_of(item), must_be);
    }

    /// [`Loader::invalid_value`] at `range` (a key that is itself the value, such as a glob).
    pub(super) fn invalid_at(&mut self, name: &str, range: TextRange, must_be: &str) {
        self.push(
            &RULE,
            range,
            format!("`{name}` must be {must_be}{}", fallback(name)),
        );
    }
}

impl Loader<'_> {
    /// The context window `item` gives the main agent's model, or `None` after reporting why
    /// (the builder's `contextWindowSize` takes a Java int; agentws reads only a positive one as
    /// a window).
    pub(super) fn context_window(&mut self, item: &Item) -> Option<u32> {
        let name = "agent.context_window";
        let toml::de::DeValue::Integer(i) = item.get_ref() else {
            self.wrong_type(name, item, "an integer");
            return None;
        };
        match i64::from_str_radix(i.as_str(), i.radix()).ok() {
            Some(v) if v <= 0 => {
                self.invalid_value(name, item, "a positive number of tokens");
                None
            }
            Some(v) if v <= i64::from(i32::MAX) => Some(v as u32),
            _ => {
                self.not_an_int(name, item);
                None
            }
        }
    }
}
