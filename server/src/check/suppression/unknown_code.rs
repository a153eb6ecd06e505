//! IG002 `suppression-unknown-code`: a suppression comment that names no rule (a misspelt code)
//! or that is not a suppression at all (`agentws: ignroe`), with the nearest known name.

use std::path::Path;

use crate::base::suggest::{did_you_mean, hint};
use crate::base::{Diagnostic, Severity, TextRange};
use crate::check::settle::comments::NamedCode;
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "IG002",
    name: "suppression-unknown-code",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A suppression comment names a code no rule has, or is not `ignore` or `ignore-file`.",
    consequence: "Nothing is suppressed by that code: the problem it was meant for is still reported.",
    explanation: "Rule codes are two capital letters and three digits (`SK023`); \
`agentws explain --list` lists them. The only words after `agentws:` are `ignore` (this line, or the \
next when the comment stands alone) and `ignore-file`. The message suggests the nearest code or word.",
    examples: &[Example {
        base: Base::Shared { without: &[".agentscope/workspace/skills/pdf/SKILL.md"] },
        triggering: &[
            (".agentscope/workspace/AGENTS.md", "You are a release assistant.\n"),
            (".agentscope/workspace/skills/notes/SKILL.md", r#"---
name: notes
description: Keep release notes.
created: 2024-01-01 # agentws: ignore SK203
---
Write them down.
"#),
        ],
        fixed: &[
            (".agentscope/workspace/AGENTS.md", "You are a release assistant.\n"),
            (".agentscope/workspace/skills/notes/SKILL.md", r#"---
name: notes
description: Keep release notes.
created: 2024-01-01 # agentws: ignore SK023 -- a date is fine here
---
Write them down.
"#),
        ],
        at: ".agentscope/workspace/skills/notes/SKILL.md:4:39",
    }],
}

/// `named` is no rule's code; `near` the code it may have meant.
pub(crate) fn code(path: &Path, named: &NamedCode, near: Option<&str>) -> Diagnostic {
    RULE.at(
        path,
        named.range,
        format!(
            "`{}` is not a rule code, so nothing is suppressed by it{}",
            named.code.escape_debug(),
            hint(near)
        ),
    )
}

/// The word after `agentws:` is neither `ignore` nor `ignore-file`.
pub(crate) fn directive(path: &Path, text: &str, word: TextRange) -> Diagnostic {
    let written = &text[word.start..word.end];
    RULE.at(
        path,
        word,
        format!(
            "`agentws: {}` is not a suppression (the words are `ignore` and `ignore-file`){}",
            written.escape_debug(),
            hint(did_you_mean(written, &["ignore", "ignore-file"]))
        ),
    )
}
