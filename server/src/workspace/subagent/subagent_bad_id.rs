//! SA005 `subagent-bad-id`: an agent id (the file name without `.md`) that is unsafe as the name of
//! its isolated folder; an empty one, which the runtime skips, is an error.

use super::{Parser, SubagentDrop};
use crate::base::{Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "SA005",
    name: "subagent-bad-id",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"The file name (agent id) is empty or contains `/`, `\`, `..`, whitespace or `:`."#,
    consequence: r#"Accepted, but the isolated runtime folder `agents/<id>/workspace` may escape the workspace or fail to be created."#,
    explanation: r#"Rename the file to a plain id such as `researcher.md`. The rule is a warning, because the runtime loads such a spec; it is an error only for an empty id (a file named `.md`), which the runtime skips."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/subagents/web researcher.md",
            r#"---
description: Researches questions on the web.
---
You research a question and answer with sources.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
---
You research a question and answer with sources.
"#,
        )],
        at: ".agentscope/workspace/subagents/web researcher.md:1:1",
    }],
}

/// Why an id is unsafe as a folder name (`agents/<id>/workspace`), if it is.
pub(super) fn id_problem(id: &str) -> Option<&'static str> {
    if id.is_empty() {
        Some("is empty")
    } else if id.contains(['/', '\\']) {
        Some("contains a path separator")
    } else if id.contains("..") {
        Some("contains `..`")
    } else if id.chars().any(char::is_whitespace) {
        Some("contains whitespace")
    } else if id.contains(':') {
        Some("contains `:`")
    } else {
        None
    }
}

impl Parser<'_> {
    pub(super) fn bad_id(&mut self) {
        let Some(problem) = id_problem(&self.doc.id) else {
            return;
        };
        let at = TextRange::empty(0);
        if self.doc.id.is_empty() {
            // The one id the runtime does not accept: severity follows the outcome.
            let mut dropped = RULE.at(
                &self.doc.path,
                at,
                "the agent id (from the file name) is empty; the runtime skips the file",
            );
            dropped.severity = Severity::Error;
            self.diagnostics.push(
                dropped.with_consequence("The runtime skips the file: no subagent is listed."),
            );
            self.fail(SubagentDrop::EmptyId);
        } else {
            let message = format!(
                "the agent id `{}` (from the file name) {problem}; the runtime accepts it, but its isolated folder `agents/{}/workspace` may escape the workspace or fail",
                self.doc.id, self.doc.id
            );
            self.push(&RULE, at, message);
        }
    }
}
