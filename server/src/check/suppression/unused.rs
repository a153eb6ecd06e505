//! IG001 `suppression-unused`: a code in a suppression comment that suppresses nothing in its
//! reach (the fix takes the code, or the whole comment, out), as ruff's RUF100 does for `noqa`.

use std::path::Path;

use crate::base::{Diagnostic, Fix, Severity};
use crate::check::settle::comments::{Comment, NamedCode};
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "IG001",
    name: "suppression-unused",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A suppression comment names a rule that reports nothing where the comment reaches.",
    consequence: "Nothing changes for the runtime; the comment only hides a future problem of that rule there.",
    explanation: "A comment `# agentws: ignore CODE` (YAML frontmatter, agentws.toml) or \
`<!-- agentws: ignore CODE -->` (Markdown) suppresses the rule `CODE` on its line, or on the next \
line when it stands alone; `ignore-file` suppresses it in the whole file. Once the problem is fixed, \
the comment is left over and would silently hide the next one: the certain fix takes the code out \
of the comment, or the comment out of the file when it names nothing else. A code whose rule is \
off for the file (`[rules]`, `[rules.per-path]`, a strict rule under the harness profile) is not \
reported as unused.",
    examples: &[Example {
        base: Base::Shared { without: &[".agentscope/workspace/skills/pdf/SKILL.md"] },
        triggering: &[
            (".agentscope/workspace/AGENTS.md", "You are a release assistant.\n"),
            (".agentscope/workspace/skills/notes/SKILL.md", r#"---
name: notes # agentws: ignore SK023
description: Keep release notes.
---
Write them down.
"#),
        ],
        fixed: &[
            (".agentscope/workspace/AGENTS.md", "You are a release assistant.\n"),
            (".agentscope/workspace/skills/notes/SKILL.md", r#"---
name: notes
description: Keep release notes.
---
Write them down.
"#),
        ],
        at: ".agentscope/workspace/skills/notes/SKILL.md:2:31",
    }],
}

/// `named` of `comment` suppressed nothing. `whole`: no code of the comment did, so the fix takes
/// the comment out.
pub(crate) fn diagnostic(
    path: &Path,
    comment: &Comment,
    named: &NamedCode,
    whole: bool,
) -> Diagnostic {
    let removal = if whole {
        comment.removal
    } else {
        named.removal
    };
    let title = if whole {
        "Remove the suppression comment"
    } else {
        "Remove the code from the suppression comment"
    };
    RULE.at(
        path,
        named.range,
        format!(
            "this suppression of {} suppresses nothing: {} reports nothing where the comment reaches",
            named.code, named.code
        ),
    )
    .with_fix(Fix::replace(title, path, removal, ""))
}
