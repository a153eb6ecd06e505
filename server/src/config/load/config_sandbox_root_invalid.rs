//! CF008 `config-sandbox-root-invalid`: `[filesystem] sandbox_root` or `workspace_spec_root` is
//! not a root the sandbox client accepts (`config::check_sandbox_root`).

use super::{span_of, Item, Loader};
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "CF008",
    name: "config-sandbox-root-invalid",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "`filesystem.sandbox_root` or `filesystem.workspace_spec_root` is not an absolute container path other than `/`.",
    consequence: "The sandbox filesystem rejects the root (uploads and path mapping need an absolute root).",
    explanation: "Use the container's workspace folder, e.g. `/workspace` (Docker, the default) or \
`/home/user` (E2B).",
    examples: &[
        Example {
            base: Base::Shared { without: &[".agentscope/workspace/skills/pdf/SKILL.md"] },
            triggering: &[
                ("agentws.toml", r#"[agent]
name = "release"

[filesystem]
mode = "sandbox"
sandbox_root = "workspace"
"#),
            ],
            fixed: &[
                ("agentws.toml", r#"[agent]
name = "release"

[filesystem]
mode = "sandbox"
sandbox_root = "/workspace"
"#),
            ],
            at: "agentws.toml:6:16",
        },
    ],
}

impl Loader<'_> {
    /// The root `root` of the key `label` (valued `item`), checked; `None` after reporting it.
    pub(super) fn sandbox_root(&mut self, label: &str, item: &Item, root: &str) -> Option<String> {
        match crate::config::check_sandbox_root(root) {
            Ok(root) => Some(root),
            Err(err) => {
                self.push(&RULE, span_of(item), format!("`{label}`: {err}"));
                None
            }
        }
    }
}
