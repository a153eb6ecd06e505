//! TJ028 `tools-project-shadowed`: a project-folder tools.json the workspace's own shadows.

use super::shadowed_by;
use crate::base::{Diagnostic, Related, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::tools::ToolsDoc;
use crate::workspace::Workspace;

declare_rule! {
    code: "TJ028",
    name: "tools-project-shadowed",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "tools.json exists both in the workspace and in the project folder.",
    consequence:
        "Its MCP servers, `allow` and `deny` change nothing; only the workspace's tools.json counts.",
    explanation:
        "The project folder is only the overlay's lower layer: its tools.json is read when the \
workspace has none. Keep one of the two.",
    examples: &[
        Example {
            base: Base::None,
            triggering: &[
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["web_fetch"]
}
"#),
                ("tools.json", r#"{
  "deny": ["execute"]
}
"#),
            ],
            fixed: &[
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["web_fetch"]
}
"#),
            ],
            at: "tools.json:1:1",
        },
    ],
}

pub(super) fn check(workspace: &Workspace, doc: &ToolsDoc) -> Option<Diagnostic> {
    let shared = shadowed_by(workspace, doc)?;
    Some(
        RULE.at(
            &doc.path,
            TextRange::empty(0),
            "the workspace has its own tools.json, so this one in the project folder is never read",
        )
        .with_related(Related {
            path: shared.path.clone(),
            range: TextRange::empty(0),
            message: "the tools.json the runtime reads".into(),
        }),
    )
}
