//! SA001 `subagent-no-frontmatter`: a spec whose text does not start with `---` and shows no trap
//! at its start; the runtime silently drops it. A README beside the specs is not reported.

use super::Parser;
use crate::base::{Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::syntax::java;

declare_rule! {
    code: "SA001",
    name: "subagent-no-frontmatter",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The subagent file does not start with `---` (BOM, blank line, no frontmatter)."#,
    consequence: r#"The subagent is not declared: the main agent cannot delegate to it."#,
    explanation: r#"`AgentSpecLoader` returns null unless the text starts with `---`. Put the frontmatter at the very start."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"description: Researches questions on the web.

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
        at: ".agentscope/workspace/subagents/researcher.md:1:1",
    }],
}

impl Parser<'_> {
    /// The text has no frontmatter and no BOM or whitespace before a `---`.
    pub(super) fn no_frontmatter(&mut self) {
        // A README beside the specs documents the folder (the runtime's own scaffolds ship one):
        // dropping it is what its author wants. One that falls into a trap at its start looks
        // like a spec whose frontmatter the runtime misses, and that trap's rule reports it.
        let readme = self
            .doc
            .path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().eq_ignore_ascii_case("README.md"));
        if readme {
            return;
        }
        let message = if java::is_blank(self.text) {
            "the file is blank; the runtime silently ignores it"
        } else {
            "the file does not start with `---`; the runtime silently ignores it"
        };
        self.push(&RULE, TextRange::empty(0), message);
    }
}
