//! CF013 `config-unknown-rule-code`: a key of `[rules]` or `[rules.per-path]` that has the form
//! of a rule code but selects no rule (a misspelt code, a family that does not exist). Found here,
//! over the configuration, because only the catalog knows every code; the loader reports a level
//! or glob that is not one (CF004).

use crate::base::suggest::hint;
use crate::base::{Diagnostic, Severity};
use crate::check::catalog::{nearest_code, selects_a_rule};
use crate::config::Config;
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "CF013",
    name: "config-unknown-rule-code",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A `[rules]` setting names a code or family no rule has.",
    consequence: "The setting changes nothing: the rule it was meant for keeps its level.",
    explanation: "A `[rules]` key is a rule code (`SK025`) or the start of codes (`XR`, `SK02`); \
`agentws explain --list` lists every code. The message suggests the nearest one. The other settings \
of the file still apply.",
    examples: &[Example {
        base: Base::Shared { without: &[".agentscope/workspace/skills/pdf/SKILL.md"] },
        triggering: &[
            ("agentws.toml", r#"[agent]
name = "release"

[rules]
SK250 = "off"
"#),
            (".agentscope/workspace/AGENTS.md", "You are a release assistant.\n"),
        ],
        fixed: &[
            ("agentws.toml", r#"[agent]
name = "release"

[rules]
SK025 = "off"
"#),
            (".agentscope/workspace/AGENTS.md", "You are a release assistant.\n"),
        ],
        at: "agentws.toml:5:1",
    }],
}

/// The settings of `config` that select no rule.
pub(super) fn check(config: &Config) -> Vec<Diagnostic> {
    let Some(file) = &config.file else {
        return Vec::new();
    };
    let unknown: Vec<_> = config
        .rules
        .selectors()
        .filter(|s| !selects_a_rule(&s.selector))
        .collect();
    if unknown.is_empty() {
        return Vec::new();
    }
    unknown
        .into_iter()
        .map(|setting| {
            let near = nearest_code(&setting.selector);
            RULE.at(
                file,
                setting.key,
                format!(
                    "`{}` selects no rule, so its level \"{}\" changes nothing{}",
                    setting.selector,
                    setting.level.as_str(),
                    hint(near)
                ),
            )
        })
        .collect()
}
