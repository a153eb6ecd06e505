//! XR011 `subagent-skill-other-user`: a subagent's `skills:` names skills that only other
//! callers' per-user folders hold, which the child of this subagent's callers never sees.

use super::{ListedSkill, SkillFound, Span};
use crate::base::{Diagnostic, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::subagent::SubagentDoc;

declare_rule! {
    code: "XR011",
    name: "subagent-skill-other-user",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A subagent's `skills:` names a skill that only some per-user folders define.",
    consequence:
        "Only those users' calls see the skill; for everyone else the filter matches nothing.",
    explanation: "Move the skill to the shared `skills/` folder if every user should have it.",
    examples: &[Example {
        base: Base::None,
        triggering: &[
            (
                ".agentscope/workspace/AGENTS.md",
                r#"You are a release assistant. Answer in short sentences.
"#,
            ),
            (
                ".agentscope/workspace/alice/skills/pdf/SKILL.md",
                r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
            ),
            (
                ".agentscope/workspace/subagents/researcher.md",
                r#"---
description: Researches questions on the web.
skills: [pdf]
---
You research a question and answer with sources.
"#,
            ),
        ],
        fixed: &[
            (
                ".agentscope/workspace/AGENTS.md",
                r#"You are a release assistant. Answer in short sentences.
"#,
            ),
            (
                ".agentscope/workspace/skills/pdf/SKILL.md",
                r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
            ),
            (
                ".agentscope/workspace/subagents/researcher.md",
                r#"---
description: Researches questions on the web.
skills: [pdf]
---
You research a question and answer with sources.
"#,
            ),
        ],
        at: ".agentscope/workspace/subagents/researcher.md:3:10",
    }],
}

pub(super) fn check(
    subagent: &SubagentDoc,
    listed: &[ListedSkill],
    line: TextRange,
    out: &mut Vec<Diagnostic>,
) {
    let others: Vec<(&ListedSkill, &Vec<String>)> = listed
        .iter()
        .filter_map(|entry| match &entry.found {
            SkillFound::ForOthersOnly(whose) => Some((entry, whose)),
            _ => None,
        })
        .collect();
    if others.is_empty() {
        return;
    }
    let (verb, noun) = if others.len() == 1 {
        ("exists", "skill")
    } else {
        ("exist", "skills")
    };
    let named: Vec<String> = others
        .iter()
        .map(|(entry, whose)| format!("`{}` ({})", entry.name, whose.join(", ")))
        .collect();
    out.push(RULE.at(
        &subagent.path,
        Span::of(others.iter().map(|(entry, _)| entry.range)).or(line),
        format!(
            "the {noun} {} {verb} only in per-user folders",
            named.join(", ")
        ),
    ));
}
