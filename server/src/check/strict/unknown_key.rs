//! ST007 `strict-unknown-key`: a frontmatter key that the specification does not have, said
//! once per key in the workspace (a collection puts the same `source:` or `risk:` in every
//! skill): at its first skill in path order, every other skill's key a related location. The
//! per-skill part ([`unknown_keys`]) reads one skill; [`said_once`] groups them, over every
//! skill (the engine keeps the first per source and merges per workspace).

use std::path::{Path, PathBuf};

use super::LoadedSkill;
use crate::base::suggest::did_you_mean;
use crate::base::{Diagnostic, Related, Severity, TextRange};
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::keys;
use crate::workspace::skill::SkillDoc;

declare_rule! {
    code: "ST007",
    name: "strict-unknown-key",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict: only `name`, `description`, `license`, `compatibility`, `metadata` and `allowed-tools` are allowed."#,
    consequence: r#"Other runtimes may reject the skill."#,
    explanation: r#"Move other keys under `metadata`.

A key is reported once per workspace: at the first skill in path order that sets it, whose message says how many other skills set it too; every other skill's key is a related location of that warning (the language server's related information, SARIF's `relatedLocations`, a `note:` line of the human output). A collection that puts `source:` in eight hundred skills gets one warning for `source`.

**Differences from the reference validators** (`tests/e2e/peer_suites.rs`): agnix accepts Claude Code's own keys (`model`, `context`, `agent`, `hooks`, `argument-hint`, `disable-model-invocation`, `user-invocable`) and checks their values; skills-ref, like agentws, allows only the six keys of the specification (`skills-ref:test_unexpected_fields`). These keys mean nothing to the AgentScope runtime (it renders them into the prompt as text), so agentws reports them as keys outside the specification: `agnix:valid/skills/deploy-prod`, `agnix:valid/skills/fork-with-instructions`, `agnix:valid/skills/with-argument-hint`, `agnix:valid/skills/with-context-agent`, `agnix:valid/skills/with-custom-agent`, `agnix:valid/skills/with-hooks`, `agnix:valid/skills/with-model`. For the same reason agentws does not check Claude Code's `$ARGUMENTS` placeholders in the body (`agnix:invalid/skills/indexed-arguments-no-hint`)."#,
    examples: &[Example {
        base: Base::Shared { without: &["agentws.toml", ".agentscope/workspace/AGENTS.md"] },
        triggering: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.
model: sonnet
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
        ],
        fixed: &[
            (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.
metadata:
  model: sonnet
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
        ],
        at: ".agentscope/workspace/skills/pdf/SKILL.md:4:1",
    }],
}

/// In the per-skill pass nothing: the key is said once per workspace ([`said_once`]).
pub(super) fn check(_loaded: &LoadedSkill, _out: &mut Vec<Diagnostic>) {}

/// A key of one skill that the specification does not have: what [`said_once`] groups.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownKey {
    pub key: String,
    pub range: TextRange,
}

/// The keys of a loaded skill that the specification does not have, in frontmatter order.
pub fn unknown_keys(skill: &SkillDoc) -> Vec<UnknownKey> {
    if skill.outcome.is_err() {
        return Vec::new();
    }
    skill
        .metadata
        .iter()
        .filter(|entry| !keys::skill(&entry.key).is_some_and(|k| k.strict))
        .map(|entry| UnknownKey {
            key: entry.key.clone(),
            range: entry.key_range,
        })
        .collect()
}

/// One warning per key over the skills' unknown keys (`found` in path order): at the first
/// skill's key, the others as related locations.
pub fn said_once<'a>(
    found: impl IntoIterator<Item = (&'a Path, &'a [UnknownKey])>,
) -> Vec<Diagnostic> {
    let mut order: Vec<&str> = Vec::new();
    let mut places: std::collections::HashMap<&str, Vec<(&Path, TextRange)>> =
        Default::default();
    for (path, keys) in found {
        for key in keys {
            let at = places.entry(key.key.as_str()).or_insert_with(|| {
                order.push(key.key.as_str());
                Vec::new()
            });
            // A key twice in one frontmatter is one place of that skill.
            if at.last().is_none_or(|(p, _)| *p != path) {
                at.push((path, key.range));
            }
        }
    }
    let strict_keys: Vec<&str> = keys::SKILL
        .iter()
        .filter(|k| k.strict)
        .map(|k| k.name)
        .collect();
    let mut out = Vec::new();
    for key in order {
        let at = &places[key];
        let (first, range) = at[0];
        let mut message = match did_you_mean(key, &strict_keys) {
            Some(best) => format!(
                "`{key}` is not a key of the Agent Skills specification; did you mean `{best}`? (else move it under `metadata`)"
            ),
            None => format!(
                "`{key}` is not a key of the Agent Skills specification; move it under `metadata`"
            ),
        };
        match at.len() - 1 {
            0 => {}
            1 => message.push_str("; 1 other skill sets it too"),
            n => message.push_str(&format!("; {n} other skills set it too")),
        }
        let mut diagnostic = RULE.at(first, range, message);
        for (path, range) in &at[1..] {
            diagnostic = diagnostic.with_related(Related {
                path: PathBuf::from(*path),
                range: *range,
                message: format!("`{key}` here too"),
            });
        }
        out.push(diagnostic);
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::workspace::keys::SKILL;

    #[test]
    fn the_summary_names_the_strict_keys() {
        let strict: Vec<String> = SKILL
            .iter()
            .filter(|k| k.strict)
            .map(|k| format!("`{}`", k.name))
            .collect();
        let (last, rest) = strict.split_last().unwrap();
        let listed = format!("only {} and {last} are allowed", rest.join(", "));
        assert!(super::RULE.summary.contains(&listed), "{listed}");
    }
}
