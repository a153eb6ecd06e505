//! ST001 `strict-name-format`: the skill's name is not 1–64 lowercase ASCII letters, digits and
//! single hyphens.

use super::LoadedSkill;
use crate::base::{Diagnostic, Severity};
use crate::rules::{declare_rule, Base, Example, Profile};

/// The longest name the specification allows, in characters.
const NAME_MAX: usize = 64;

declare_rule! {
    code: "ST001",
    name: "strict-name-format",
    severity: Severity::Warning,
    profile: Profile::Strict,
    summary: r#"Strict name: 1–64 lowercase letters, digits and single hyphens, no leading/trailing hyphen."#,
    consequence: r#"The Agent Skills specification requires it; other runtimes may reject the skill."#,
    explanation: r#"`name` must match `^[a-z0-9]+(-[a-z0-9]+)*$` and be at most 64 characters: ASCII lowercase letters, digits and single hyphens.

**Differences from the reference validators** (each case is rebuilt in `tests/e2e/peer_suites.rs`):

- *ASCII only.* The specification's frontmatter table says "lowercase letters, numbers, and hyphens only" and its field text "unicode lowercase alphanumeric characters (`a-z`, `0-9`)"; skills-ref accepts any lowercase Unicode letter (after NFKC). agentws keeps `a-z` and `0-9`: the name is also the folder name, the `<files-root>` path the runtime advertises and the key of skill filters, and non-ASCII names make all three depend on how each filesystem and client normalizes text (see ST002). agentws warns where skills-ref accepts: `skills-ref:test_i18n_chinese_name`, `skills-ref:test_i18n_russian_name_with_hyphens`, `skills-ref:test_i18n_russian_lowercase_valid`. Both reject `skills-ref:test_i18n_russian_uppercase_rejected`.
- *Reserved and vague names.* agnix rejects `anthropic`, `claude` and `skill` (a rule of one vendor's hosted platform) and warns on names like `helper` (a style opinion). Neither is in the specification, and the AgentScope runtime loads such skills like any other: `agnix:test_as_007_reserved_name`, `agnix:test_as_007_all_reserved_names (anthropic)`, `agnix:test_as_007_all_reserved_names (skill)`, `agnix:test_as_019_vague_name`.
- *`prefix:name` names.* Some clients show a plugin's skills as `plugin:skill`; written into `name`, the prefix is reported, as both validators' name rules do (the case `agnix:test_as_016_invalid_yaml_colon_in_value` has such a name): the specification allows no `:`, and the AgentScope runtime takes the whole text as the skill's name, building `<files-root>` as `skills/plugin:skill`."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/skills/pdf--tools/SKILL.md",
            r#"---
name: pdf--tools
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/skills/pdf-tools/SKILL.md",
            r#"---
name: pdf-tools
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
        at: ".agentscope/workspace/skills/pdf--tools/SKILL.md:2:7",
    }],
}

pub(super) fn check(loaded: &LoadedSkill, out: &mut Vec<Diagnostic>) {
    let skill = loaded.skill;
    if let (Some(name), Some(range)) = (&skill.name, skill.name_range) {
        if !spec_name_ok(name) {
            out.push(RULE.at(
                &skill.path,
                range,
                format!("`{name}` is not 1–{NAME_MAX} lowercase letters, digits and single hyphens (no leading, trailing or double hyphen)"),
            ));
        }
    }
}

/// `^[a-z0-9]+(-[a-z0-9]+)*$`, 1–64 characters.
fn spec_name_ok(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= NAME_MAX
        && name.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

#[cfg(test)]
mod tests {
    use super::spec_name_ok;

    #[test]
    fn names_of_the_specification() {
        assert!(spec_name_ok("a1-b2") && spec_name_ok(&"a".repeat(64)));
        assert!(!spec_name_ok("-a") && !spec_name_ok("a-") && !spec_name_ok("a--b"));
        assert!(!spec_name_ok("") && !spec_name_ok(&"a".repeat(65)) && !spec_name_ok("Pdf"));
    }
}
