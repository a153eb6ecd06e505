//! CF009 `config-sandbox-roots-conflict`: `workspace_spec_root` differs from `sandbox_root`;
//! agentws keeps the sandbox client's.

use super::Loader;
use crate::base::{Related, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "CF009",
    name: "config-sandbox-roots-conflict",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "`sandbox_root` and `workspace_spec_root` are both set and differ.",
    consequence: "Since PR #3645 the agent build fails fast when both roots are set explicitly and differ; before it, prompt, normalizer and uploads disagree on the root.",
    explanation: "Set only `sandbox_root` (the spec root follows it), or set both to the same path. \
agentws keeps `sandbox_root` for its own modelling.",
    examples: &[
        Example {
            base: Base::Shared { without: &[".agentscope/workspace/skills/pdf/SKILL.md"] },
            triggering: &[
                ("agentws.toml", r#"[agent]
name = "release"

[filesystem]
mode = "sandbox"
sandbox_root = "/home/user"
workspace_spec_root = "/workspace"
"#),
            ],
            fixed: &[
                ("agentws.toml", r#"[agent]
name = "release"

[filesystem]
mode = "sandbox"
sandbox_root = "/home/user"
"#),
            ],
            at: "agentws.toml:7:23",
        },
    ],
}

impl Loader<'_> {
    /// Both roots with where each is written, when both are set.
    pub(super) fn sandbox_roots_conflict(
        &mut self,
        sandbox_root: Option<&(String, TextRange)>,
        spec_root: Option<&(String, TextRange)>,
    ) {
        let (Some((a, a_range)), Some((b, b_range))) = (sandbox_root, spec_root) else {
            return;
        };
        if a == b {
            return;
        }
        let diagnostic = RULE
            .at(
                self.file,
                *b_range,
                format!("`workspace_spec_root` \"{b}\" differs from `sandbox_root` \"{a}\""),
            )
            .with_related(Related {
                path: self.file.to_path_buf(),
                range: *a_range,
                message: "the sandbox client's root, which agentws keeps".into(),
            });
        self.diagnostics.push(diagnostic);
    }
}
