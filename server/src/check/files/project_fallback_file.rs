//! WS013 `project-fallback-file`: a workspace file in the project folder, which the local
//! filesystem's overlay reads as its lower layer.

use crate::base::{Diagnostic, Severity, TextRange};
use crate::config::FilesystemMode;
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::snapshot::placed;
use crate::workspace::{Tree, Workspace};

declare_rule! {
    code: "WS013",
    name: "project-fallback-file",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: "A workspace file exists in the project folder, the overlay's lower layer.",
    consequence: "The runtime uses it whenever the workspace has no non-empty copy of its own.",
    explanation:
        "The default local overlay reads `<project>/<path>` when `<workspace>/<ns>/<path>` is \
missing or empty, and the project defaults to the JVM's working folder. This is often unintended. \
Only the local filesystem has that overlay: in sandbox and remote mode the project folder is not \
read and nothing is reported.",
    examples: &[Example {
        base: Base::Shared {
            without: &["agentws.toml", ".agentscope/workspace/skills/pdf/SKILL.md"],
        },
        triggering: &[
            ("MEMORY.md", "- The release branch is `main`.\n"),
        ],
        fixed: &[
            (".agentscope/workspace/MEMORY.md", "- The release branch is `main`.\n"),
        ],
        at: "MEMORY.md:1:1",
    }],
}

pub(super) fn check(workspace: &Workspace, out: &mut Vec<Diagnostic>) {
    let config = &workspace.config;
    let files = &workspace.files;
    // Only the local filesystem has the project folder as its overlay's lower layer; the sandbox
    // and remote filesystems never read it (their project files are SK026/SA022 or unused).
    if config.project == config.workspace || config.filesystem.mode != FilesystemMode::Local {
        return;
    }
    for rel in ["AGENTS.md", "MEMORY.md", "tools.json"] {
        let path = workspace.path_in(&Tree::Project, rel);
        if files.contains_file(&path) {
            out.push(RULE.at(
                &path,
                TextRange::empty(0),
                format!(
                    "`{rel}` in the project folder `{}` stands in for the workspace's own copy",
                    config.project.display()
                ),
            ));
        }
    }
    for dir in ["skills", "subagents", "knowledge"] {
        let folder = workspace.path_in(&Tree::Project, dir);
        // Placed by path, not looked up: the engine runs these rules with the kinds of the
        // files that are not skills or subagent specs only.
        let first = files
            .files_under(&folder)
            .find(|(p, _)| placed(config, p).is_some() && !p.starts_with(&config.workspace));
        if let Some((path, _)) = first {
            out.push(RULE.at(
                path,
                TextRange::empty(0),
                format!(
                    "the project folder has a `{dir}/` folder; the runtime reads it too, under the workspace's own `{dir}/`"
                ),
            ));
        }
    }
}
