//! SA026 `subagent-extension-case`: a file under `subagents/` ending in `.MD`, `.Md` or `.mD`,
//! which both subagent scans miss. Found over the workspace's names, with the workspace family.

use std::path::Path;

use super::ends_in_md_in_any_case;
use crate::base::{Diagnostic, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::layout::Location;

declare_rule! {
    code: "SA026",
    name: "subagent-extension-case",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"A file under `subagents/` ends in `.MD`, `.Md` or `.mD` instead of `.md`."#,
    consequence: r#"The subagent is not declared: the main agent cannot delegate to it."#,
    explanation: r#"The local folder scan keeps names ending in `.md` and the filesystem scan globs `*.md`; neither matches another case. Rename the file (`researcher.MD` → `researcher.md`)."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.MD",
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
        at: ".agentscope/workspace/subagents/researcher.MD:1:1",
    }],
}

/// SA026 of the file at `path` (`location`), a name [`super::misspelt_files`] found.
pub(super) fn check(path: &Path, location: &Location) -> Option<Diagnostic> {
    let parts: Vec<&str> = location.rel.split('/').collect();
    let (first, name) = (*parts.first()?, *parts.last()?);
    if first != "subagents" || parts.len() < 2 {
        return None;
    }
    if !ends_in_md_in_any_case(name) || name.ends_with(".md") {
        return None;
    }
    let fixed = format!("{}.md", &name[..name.len() - 3]);
    Some(RULE.at(
        path,
        TextRange::empty(0),
        format!(
            "`{}` ends in `{}`, not `.md`: both subagent scans match `.md` case-sensitively, so the runtime ignores this file (rename it to `{fixed}`)",
            location.rel,
            &name[name.len() - 3..]
        ),
    ))
}
