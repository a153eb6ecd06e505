//! XR004 `subagent-skill-unknown`: a subagent's `skills:` names a skill no context that loads
//! the subagent loads: a file of that name that is not loaded (one diagnostic each, saying why),
//! or no skill of that name at all (one diagnostic for the list, with suggestions).

use super::{ListedSkill, SkillFound, Span};
use crate::base::suggest::{hint, SuggestEach};
use crate::base::{Diagnostic, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::resolution::{Callers, EntryKind};
use crate::workspace::subagent::SubagentDoc;
use crate::workspace::Workspace;

declare_rule! {
    code: "XR004",
    name: "subagent-skill-unknown",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A subagent's `skills:` names a skill that no workspace folder defines.",
    consequence:
        "The subagent's skill list matches nothing for that name: the child sees no such skill.",
    explanation:
        "The runtime turns `skills:` into `SkillFilter.only(...)`, which matches the frontmatter `name` exactly (not the folder name). Check the \
spelling against the skill's `name:`.",
    examples: &[
        Example {
            base: Base::Shared { without: &["agentws.toml"] },
            triggering: &[
                (".agentscope/workspace/subagents/researcher.md", r#"---
description: Researches questions on the web.
skills: [pdf-tools]
---
You research a question and answer with sources.
"#),
            ],
            fixed: &[
                (".agentscope/workspace/subagents/researcher.md", r#"---
description: Researches questions on the web.
skills: [pdf]
---
You research a question and answer with sources.
"#),
            ],
            at: ".agentscope/workspace/subagents/researcher.md:3:10",
        },
    ],
}

pub(super) fn check(
    workspace: &Workspace,
    subagent: &SubagentDoc,
    listed: &[ListedSkill],
    line: TextRange,
    known_skills: &SuggestEach,
    out: &mut Vec<Diagnostic>,
) {
    let mut unknown = Vec::new();
    for entry in listed {
        let name = entry.name;
        match &entry.found {
            SkillFound::NotLoaded { doc, reason, who } => out.push(RULE.at(
                &subagent.path,
                entry.range,
                format!(
                    "no loaded skill is named `{name}`: `{}` is, but it is not loaded ({})",
                    doc.location.rel,
                    reason.describe(
                        workspace,
                        EntryKind::Skill,
                        match who {
                            Callers::AnyUser => Some("<user>"),
                            _ => None,
                        }
                    )
                ),
            )),
            SkillFound::Nowhere => unknown.push(entry),
            SkillFound::Loaded | SkillFound::ForOthersOnly(_) => {}
        }
    }
    if unknown.is_empty() {
        return;
    }
    let names: Vec<&str> = unknown.iter().map(|entry| entry.name).collect();
    let best = known_skills(&names);
    let message = match unknown.as_slice() {
        [entry] => format!(
            "no skill is named `{}`{}",
            entry.name,
            hint(best[0].as_deref())
        ),
        _ => format!(
            "no skills are named {}",
            unknown
                .iter()
                .zip(&best)
                .map(|(entry, best)| match best {
                    Some(best) => format!("`{}` (did you mean `{best}`?)", entry.name),
                    None => format!("`{}`", entry.name),
                })
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let at = Span::of(unknown.iter().map(|entry| entry.range)).or(line);
    out.push(RULE.at(&subagent.path, at, message));
}
