//! CF012 `config-context-file-in-namespace-folder`: in a namespaced scope, an additional context
//! file lies in a folder whose name a user or session id may take, which makes that id's
//! namespace folder hold the shared file. Found over each configured additional context file,
//! with the workspace family's rules about them.

use super::AdditionalFile;
use crate::base::{Diagnostic, Severity};
use crate::config::Scope;
use crate::context::{context_file_first_segment, id_shape_problem};
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "CF012",
    name: "config-context-file-in-namespace-folder",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "An additional context file lies in a folder whose name a user or session id can take as its namespace folder.",
    consequence: "The runtime does not sanitise ids: a user (or session) with that id gets the folder as its own workspace, and its file tools overwrite the shared file every other user's prompt reads. agentws refuses runs with such an id (`invalid-id`).",
    explanation: "In `user` and `session` scope each id's files live in `<workspace>/<id>/`. With \
`additional_context_files = [\"docs/Guide.md\"]`, the user `docs` writes `Guide.md` into \
`<workspace>/docs/Guide.md`, the shared file. Keep context files at the top level of the workspace \
(an id equal to a file name cannot write into it) or under `knowledge/`, and have the application \
refuse the folder's name as a user or session id.",
    examples: &[
        Example {
            base: Base::Shared { without: &[".agentscope/workspace/skills/pdf/SKILL.md"] },
            triggering: &[
                ("agentws.toml", r#"[agent]
name = "release"
additional_context_files = ["docs/GUIDE.md"]
"#),
                (".agentscope/workspace/docs/GUIDE.md", "Tag releases as vX.Y.Z.\n"),
            ],
            fixed: &[
                ("agentws.toml", r#"[agent]
name = "release"
additional_context_files = ["GUIDE.md"]
"#),
                (".agentscope/workspace/GUIDE.md", "Tag releases as vX.Y.Z.\n"),
            ],
            at: "agentws.toml:3:29",
        },
    ],
}

pub(super) fn check(file: &AdditionalFile) -> Option<Diagnostic> {
    let config = &file.workspace.config;
    if !file.stays_inside() || !matches!(config.scope, Scope::User | Scope::Session) {
        return None;
    }
    let configured = file.configured;
    let (folder, true) = context_file_first_segment(configured)? else {
        return None;
    };
    if id_shape_problem(folder).is_some() {
        return None;
    }
    let who = match config.scope {
        Scope::Session => "session id",
        _ => "user or session id",
    };
    let inside = &configured[configured.find(folder).unwrap_or(0) + folder.len()..];
    let inside = inside.trim_start_matches(['/', '\\']);
    Some(RULE.at(
        &file.at.0,
        file.at.1,
        format!(
            "additional context file `{configured}` lies in `{folder}/`, the namespace folder of \
             the {who} `{folder}`: its file tools write `{inside}` there, the file every other \
             user's prompt reads"
        ),
    ))
}
