//! CF002 `config-unknown-key`: a key agentws.toml does not define, in the table `place`; it is
//! ignored, with the nearest known key as a hint.

use toml::Spanned;

use super::{span_of, Loader};
use crate::base::suggest::{did_you_mean, hint};
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "CF002",
    name: "config-unknown-key",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "agentws.toml has a key or table agentws does not know.",
    consequence: "Ignored: the setting it was meant to change keeps its default. docs/configuration.md lists every key.",
    explanation: "Known top-level keys: `workspace`, `project`, `harness`, tables `[agent]`, \
`[isolation]`, `[filesystem]`, `[features]`, `[store]`; docs/configuration.md lists every key with \
its type, default and the builder call it stands for. Keys are case-sensitive; the message \
suggests the closest known key.",
    examples: &[
        Example {
            base: Base::Shared { without: &[".agentscope/workspace/skills/pdf/SKILL.md"] },
            triggering: &[
                ("agentws.toml", r#"workspce = ".agentscope/workspace"

[agent]
name = "release"
"#),
            ],
            fixed: &[
                ("agentws.toml", r#"workspace = ".agentscope/workspace"

[agent]
name = "release"
"#),
            ],
            at: "agentws.toml:1:1",
        },
    ],
}

impl Loader<'_> {
    pub(super) fn unknown(
        &mut self,
        key: &Spanned<std::borrow::Cow<str>>,
        known: &[&str],
        place: &str,
    ) {
        let range = span_of(key);
        if !self.diagnostics.would_keep(range, RULE.code) {
            // Past the per-file cap: counted, without searching for a suggestion.
            return self.diagnostics.count(RULE.severity, range);
        }
        let hint = hint(did_you_mean(key.get_ref(), known));
        self.push(
            &RULE,
            range,
            format!(
                "unknown key `{}` in {place} is ignored{hint}",
                key.get_ref()
            ),
        );
    }
}
