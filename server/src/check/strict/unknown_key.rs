//! ST007 `strict-unknown-key`: a frontmatter key that the specification does not have.

use super::LoadedSkill;
use crate::base::suggest::did_you_mean;
use crate::base::{Diagnostic, Severity};
use crate::rules::{Example, Profile, Rule};
use crate::workspace::keys;

pub static RULE: Rule = Rule {
    code: "ST007",
    name: "strict-unknown-key",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict: only `name`, `description`, `license`, `compatibility`, `metadata` and `allowed-tools` are allowed."#,
    consequence: r#"Other runtimes may reject the skill."#,
    explanation: r#"Move other keys under `metadata`.

**Differences from the reference validators** (`tests/e2e/peer_suites.rs`): agnix accepts Claude Code's own keys (`model`, `context`, `agent`, `hooks`, `argument-hint`, `disable-model-invocation`, `user-invocable`) and checks their values; skills-ref, like agentws, allows only the six keys of the specification (`skills-ref:test_unexpected_fields`). These keys mean nothing to the AgentScope runtime (it renders them into the prompt as text), so agentws reports them as keys outside the specification: `agnix:valid/skills/deploy-prod`, `agnix:valid/skills/fork-with-instructions`, `agnix:valid/skills/with-argument-hint`, `agnix:valid/skills/with-context-agent`, `agnix:valid/skills/with-custom-agent`, `agnix:valid/skills/with-hooks`, `agnix:valid/skills/with-model`. For the same reason agentws does not check Claude Code's `$ARGUMENTS` placeholders in the body (`agnix:invalid/skills/indexed-arguments-no-hint`)."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"---
name: pdf
description: Read, merge and split PDF files.
model: sonnet
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/skills/pdf/SKILL.md",
            r#"---
name: pdf
description: Read, merge and split PDF files.
metadata:
  model: sonnet
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
    }],
};

pub(super) fn check(loaded: &LoadedSkill, out: &mut Vec<Diagnostic>) {
    let skill = loaded.skill;
    for entry in &skill.metadata {
        let key = entry.key.as_str();
        if keys::skill(key).is_some_and(|k| k.strict) {
            continue;
        }
        let strict_keys: Vec<&str> = keys::SKILL
            .iter()
            .filter(|k| k.strict)
            .map(|k| k.name)
            .collect();
        out.push(RULE.at(
            &skill.path,
            entry.key_range,
            match did_you_mean(key, &strict_keys) {
                Some(best) => format!(
                    "`{key}` is not a key of the Agent Skills specification; did you mean `{best}`? (else move it under `metadata`)"
                ),
                None => format!(
                    "`{key}` is not a key of the Agent Skills specification; move it under `metadata`"
                ),
            },
        ));
    }
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
