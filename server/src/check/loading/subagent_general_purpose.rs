//! SA006 `subagent-general-purpose`: `subagents/general-purpose.md`, which replaces the built-in
//! general-purpose subagent, is listed after it, or is ignored, depending on the mode, for the
//! contexts that read it.

use super::{list, who_label, Outcomes};
use crate::base::{Diagnostic, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::resolution::{Outcome, GENERAL_PURPOSE};
use crate::workspace::subagent::SubagentDoc;
use crate::workspace::Workspace;

declare_rule! {
    code: "SA006",
    name: "subagent-general-purpose",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"A file declares the id `general-purpose`, and a context loads or ignores it because of that id."#,
    consequence: r#"Dynamic mode: it replaces the built-in general-purpose subagent. Static mode: the shared folder's file is listed as a second entry; a per-user or project file is ignored (the built-in is already present)."#,
    explanation: r#"The message says what happens in the contexts the configuration allows (the subagent mode, the scope). Pick another id unless replacing the built-in is intended."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/subagents/general-purpose.md",
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
        at: ".agentscope/workspace/subagents/general-purpose.md:1:1",
    }],
}

pub(super) fn check(ws: &Workspace, doc: &SubagentDoc, outcomes: Outcomes) -> Option<Diagnostic> {
    if doc.id != GENERAL_PURPOSE {
        return None;
    }
    let mut replaced = Vec::new();
    let mut second = Vec::new();
    let mut ignored = Vec::new();
    for (who, _, outcome) in outcomes {
        match outcome {
            Outcome::Loaded(loaded) if loaded.position == 0 => replaced.push(who_label(ws, who)),
            Outcome::Loaded(_) => second.push(who_label(ws, who)),
            Outcome::Shadowed { by: None, .. } => ignored.push(who_label(ws, who)),
            _ => {}
        }
    }
    let mut parts = Vec::new();
    if !replaced.is_empty() {
        parts.push(format!(
            "replaces the built-in general-purpose subagent for {} (dynamic mode)",
            list(&replaced)
        ));
    }
    if !second.is_empty() {
        parts.push(format!(
            "is listed as a second `general-purpose` entry after the built-in for {} (static mode)",
            list(&second)
        ));
    }
    if !ignored.is_empty() {
        parts.push(format!(
            "is ignored for {}: static mode keeps the built-in general-purpose subagent",
            list(&ignored)
        ));
    }
    (!parts.is_empty()).then(|| {
        RULE.at(
            &doc.path,
            TextRange::empty(0),
            format!("`general-purpose.md` {}", parts.join("; ")),
        )
    })
}
