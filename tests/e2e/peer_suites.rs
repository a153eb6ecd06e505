//! End-to-end: the strict profile against the test suites of the two validators of the Agent
//! Skills specification, rebuilt as workspaces.
//!
//! Each case below is written from what one of their tests asserts (the SKILL.md text or folder
//! layout the test builds, and the verdict it expects); no file of theirs is copied. Sources:
//!
//! - `skills-ref`, the reference validator: repository agentskills/agentskills at commit
//!   69ef37e9424c0a7ea9dd2293b559e43ec8176379, `skills-ref/tests/test_validator.py` and
//!   `skills-ref/tests/test_parser.py`. Left out: `test_nonexistent_path` and
//!   `test_not_a_directory` (a path that is no folder is not a workspace). The `parse_frontmatter`
//!   tests of `test_parser.py` become the SKILL.md they parse, in a folder named like the skill.
//! - agnix: repository avifenesh/agnix at commit 5b26668de05951379e10476ba0cf85821fdd1ff9,
//!   `crates/agnix-core/src/rules/skill/tests.rs` (the `AS-…` tests of the specification's rules,
//!   without the ones that only test fix positions, configuration switches or helpers) and the
//!   skill folders under `tests/fixtures/{skills,valid/skills,invalid/skills}`. Its inline
//!   `CC-SK-…` tests check the values of Claude Code's own keys; the fixture folders stand for
//!   them, since agentws's verdict on every such key is the same (ST007).
//!
//! Every case runs the real binary, `agentws check --profile strict --format json`, on a fresh
//! workspace holding the one skill, and compares the codes reported on the skill's folder with
//! the table. The verdicts agree when the peer finds the skill valid and agentws reports no
//! warning or error, or the peer rejects it and agentws warns or errs; where the peer test only
//! asserts that one finding is absent, agentws agrees when it reports none of that finding's
//! counterparts. A case whose verdicts differ names the rule under which docs/rules.md explains
//! the difference, and that section must mention the case.

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

/// What the peer's test expects.
#[derive(Clone, Copy, Debug)]
enum Peer {
    /// The skill is valid (no error from the peer).
    Valid,
    /// The peer reports a problem.
    Invalid,
    /// The test only asserts that one finding is absent; agentws's counterparts of it.
    Without(&'static [&'static str]),
}

struct Case {
    /// `<peer>:<test name>` or `<peer>:<fixture folder>`: the name docs/rules.md cites.
    id: &'static str,
    /// The skill folder's name under `skills/`.
    folder: &'static str,
    /// Files of the skill folder (paths relative to it) and their text.
    files: fn() -> Vec<(&'static str, String)>,
    peer: Peer,
    /// Every code agentws reports on the skill's folder, in report order.
    agentws: &'static [&'static str],
    /// When the verdicts differ: the rule whose documentation explains why.
    deviation: Option<&'static str>,
}

fn skill(text: &str) -> Vec<(&'static str, String)> {
    vec![("SKILL.md", text.to_string())]
}

fn with_name_and_description(name: &str, description: &str, rest: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\n{rest}---\nBody\n")
}

/// `---\nname: …\ndescription: A test skill\n---\nBody\n`, the shape most skills-ref tests write.
fn ref_skill(name: &str, rest: &str) -> Vec<(&'static str, String)> {
    skill(&with_name_and_description(name, "A test skill", rest))
}

/// agnix's inline tests end the body without a line break.
fn agnix_skill(frontmatter: &str) -> Vec<(&'static str, String)> {
    skill(&format!("---\n{frontmatter}---\nBody"))
}

const CASES: &[Case] = &[
    // ---- skills-ref: tests/test_validator.py -------------------------------------------------
    Case {
        id: "skills-ref:test_valid_skill",
        folder: "my-skill",
        files: || skill("---\nname: my-skill\ndescription: A test skill\n---\n# My Skill\n"),
        peer: Peer::Valid,
        agentws: &[],
        deviation: None,
    },
    Case {
        id: "skills-ref:test_missing_skill_md",
        folder: "my-skill",
        files: Vec::new,
        peer: Peer::Invalid,
        agentws: &[],
        deviation: Some("SK030"),
    },
    Case {
        id: "skills-ref:test_invalid_name_uppercase",
        folder: "MySkill",
        files: || ref_skill("MySkill", ""),
        peer: Peer::Invalid,
        agentws: &["SK019", "ST001"],
        deviation: None,
    },
    Case {
        id: "skills-ref:test_name_too_long",
        folder: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        files: || ref_skill(&"a".repeat(70), ""),
        peer: Peer::Invalid,
        agentws: &["SK019", "ST001"],
        deviation: None,
    },
    Case {
        id: "skills-ref:test_name_leading_hyphen",
        folder: "-my-skill",
        files: || ref_skill("-my-skill", ""),
        peer: Peer::Invalid,
        agentws: &["SK019", "ST001"],
        deviation: None,
    },
    Case {
        id: "skills-ref:test_name_consecutive_hyphens",
        folder: "my--skill",
        files: || ref_skill("my--skill", ""),
        peer: Peer::Invalid,
        agentws: &["ST001"],
        deviation: None,
    },
    Case {
        id: "skills-ref:test_name_invalid_characters",
        folder: "my_skill",
        files: || ref_skill("my_skill", ""),
        peer: Peer::Invalid,
        agentws: &["ST001"],
        deviation: None,
    },
    Case {
        id: "skills-ref:test_name_directory_mismatch",
        folder: "wrong-name",
        files: || ref_skill("correct-name", ""),
        peer: Peer::Invalid,
        agentws: &["ST002"],
        deviation: None,
    },
    Case {
        id: "skills-ref:test_unexpected_fields",
        folder: "my-skill",
        files: || ref_skill("my-skill", "unknown_field: should not be here\n"),
        peer: Peer::Invalid,
        agentws: &["ST007"],
        deviation: None,
    },
    Case {
        id: "skills-ref:test_valid_with_all_fields",
        folder: "my-skill",
        files: || ref_skill("my-skill", "license: MIT\nmetadata:\n  author: Test\n"),
        peer: Peer::Valid,
        agentws: &[],
        deviation: None,
    },
    Case {
        id: "skills-ref:test_allowed_tools_accepted",
        folder: "my-skill",
        files: || ref_skill("my-skill", "allowed-tools: Bash(jq:*) Bash(git:*)\n"),
        peer: Peer::Valid,
        agentws: &["SK025"],
        deviation: None,
    },
    Case {
        id: "skills-ref:test_i18n_chinese_name",
        folder: "技能",
        files: || {
            skill(&with_name_and_description(
                "技能",
                "A skill with Chinese name",
                "",
            ))
        },
        peer: Peer::Valid,
        agentws: &["SK019", "ST001"],
        deviation: Some("ST001"),
    },
    Case {
        id: "skills-ref:test_i18n_russian_name_with_hyphens",
        folder: "мой-навык",
        files: || {
            skill(&with_name_and_description(
                "мой-навык",
                "A skill with Russian name",
                "",
            ))
        },
        peer: Peer::Valid,
        agentws: &["SK019", "ST001"],
        deviation: Some("ST001"),
    },
    Case {
        id: "skills-ref:test_i18n_russian_lowercase_valid",
        folder: "навык",
        files: || {
            skill(&with_name_and_description(
                "навык",
                "A skill with Russian lowercase name",
                "",
            ))
        },
        peer: Peer::Valid,
        agentws: &["SK019", "ST001"],
        deviation: Some("ST001"),
    },
    Case {
        id: "skills-ref:test_i18n_russian_uppercase_rejected",
        folder: "НАВЫК",
        files: || {
            skill(&with_name_and_description(
                "НАВЫК",
                "A skill with Russian uppercase name",
                "",
            ))
        },
        peer: Peer::Invalid,
        agentws: &["SK019", "ST001"],
        deviation: None,
    },
    Case {
        id: "skills-ref:test_description_too_long",
        folder: "my-skill",
        files: || {
            skill(&with_name_and_description(
                "my-skill",
                &"x".repeat(1100),
                "",
            ))
        },
        peer: Peer::Invalid,
        agentws: &["SK020", "ST003"],
        deviation: None,
    },
    Case {
        id: "skills-ref:test_valid_compatibility",
        folder: "my-skill",
        files: || ref_skill("my-skill", "compatibility: Requires Python 3.11+\n"),
        peer: Peer::Valid,
        agentws: &[],
        deviation: None,
    },
    Case {
        id: "skills-ref:test_compatibility_too_long",
        folder: "my-skill",
        files: || ref_skill("my-skill", &format!("compatibility: {}\n", "x".repeat(550))),
        peer: Peer::Invalid,
        agentws: &["ST004"],
        deviation: None,
    },
    Case {
        id: "skills-ref:test_nfkc_normalization",
        folder: "caf\u{e9}",
        files: || ref_skill("cafe\u{301}", ""),
        peer: Peer::Valid,
        agentws: &["SK019", "ST001", "ST002"],
        deviation: Some("ST002"),
    },
    // ---- skills-ref: tests/test_parser.py ----------------------------------------------------
    Case {
        id: "skills-ref:test_valid_frontmatter",
        folder: "my-skill",
        files: || {
            skill("---\nname: my-skill\ndescription: A test skill\n---\n# My Skill\n\nInstructions here.\n")
        },
        peer: Peer::Valid,
        agentws: &[],
        deviation: None,
    },
    Case {
        id: "skills-ref:test_missing_frontmatter",
        folder: "my-skill",
        files: || skill("# No frontmatter here"),
        peer: Peer::Invalid,
        agentws: &["SK001"],
        deviation: None,
    },
    Case {
        id: "skills-ref:test_unclosed_frontmatter",
        folder: "my-skill",
        files: || skill("---\nname: my-skill\ndescription: A test skill\n"),
        peer: Peer::Invalid,
        agentws: &["SK005"],
        deviation: None,
    },
    Case {
        id: "skills-ref:test_invalid_yaml",
        folder: "my-skill",
        files: || skill("---\nname: [invalid\ndescription: broken\n---\nBody here\n"),
        peer: Peer::Invalid,
        agentws: &["SK019", "ST001", "ST002", "SK013"],
        deviation: None,
    },
    Case {
        id: "skills-ref:test_non_dict_frontmatter",
        folder: "my-skill",
        files: || skill("---\n- just\n- a\n- list\n---\nBody\n"),
        peer: Peer::Invalid,
        agentws: &["SK007", "SK009", "SK015"],
        deviation: None,
    },
    Case {
        id: "skills-ref:test_read_valid_skill",
        folder: "my-skill",
        files: || {
            skill("---\nname: my-skill\ndescription: A test skill\nlicense: MIT\n---\n# My Skill\n")
        },
        peer: Peer::Valid,
        agentws: &[],
        deviation: None,
    },
    Case {
        id: "skills-ref:test_read_with_metadata",
        folder: "my-skill",
        files: || {
            ref_skill(
                "my-skill",
                "metadata:\n  author: Test Author\n  version: 1.0\n",
            )
        },
        peer: Peer::Valid,
        agentws: &["ST005"],
        deviation: Some("ST005"),
    },
    Case {
        id: "skills-ref:test_parser.py::test_missing_skill_md",
        folder: "empty",
        files: Vec::new,
        peer: Peer::Invalid,
        agentws: &[],
        deviation: Some("SK030"),
    },
    Case {
        id: "skills-ref:test_missing_name",
        folder: "my-skill",
        files: || skill("---\ndescription: A test skill\n---\nBody\n"),
        peer: Peer::Invalid,
        agentws: &["SK007"],
        deviation: None,
    },
    Case {
        id: "skills-ref:test_missing_description",
        folder: "my-skill",
        files: || skill("---\nname: my-skill\n---\nBody\n"),
        peer: Peer::Invalid,
        agentws: &["SK009"],
        deviation: None,
    },
    Case {
        id: "skills-ref:test_find_skill_md_prefers_uppercase",
        folder: "my-skill",
        files: || {
            vec![
                ("SKILL.md", "uppercase".to_string()),
                ("skill.md", "lowercase".to_string()),
            ]
        },
        // The test asserts only which file is read: `SKILL.md`, so `skill.md` is not the
        // skipped skill file SK030 would report.
        peer: Peer::Without(&["SK030"]),
        agentws: &["SK001"],
        deviation: None,
    },
    Case {
        id: "skills-ref:test_find_skill_md_accepts_lowercase",
        folder: "my-skill",
        files: || vec![("skill.md", "lowercase".to_string())],
        peer: Peer::Valid,
        agentws: &["SK030"],
        deviation: Some("SK030"),
    },
    Case {
        id: "skills-ref:test_find_skill_md_returns_none_when_missing",
        folder: "my-skill",
        files: Vec::new,
        peer: Peer::Invalid,
        agentws: &[],
        deviation: Some("SK030"),
    },
    Case {
        id: "skills-ref:test_read_properties_with_lowercase_skill_md",
        folder: "my-skill",
        files: || {
            vec![(
                "skill.md",
                "---\nname: my-skill\ndescription: A test skill\n---\n# My Skill\n".to_string(),
            )]
        },
        peer: Peer::Valid,
        agentws: &["SK030"],
        deviation: Some("SK030"),
    },
    Case {
        id: "skills-ref:test_read_with_allowed_tools",
        folder: "my-skill",
        files: || ref_skill("my-skill", "allowed-tools: Bash(jq:*) Bash(git:*)\n"),
        peer: Peer::Valid,
        agentws: &["SK025"],
        deviation: None,
    },
    // ---- agnix: crates/agnix-core/src/rules/skill/tests.rs (AS-… rules) ----------------------
    // agnix validates these texts as `test.md`, outside any folder, so its folder rule (AS-017)
    // does not apply; here each lies in a folder of its own name.
    Case {
        id: "agnix:test_valid_skill",
        folder: "test-skill",
        files: || {
            skill("---\nname: test-skill\ndescription: Use when testing skill validation\n---\nSkill body content")
        },
        peer: Peer::Valid,
        agentws: &[],
        deviation: None,
    },
    Case {
        id: "agnix:test_invalid_skill_name",
        folder: "Test-Skill",
        files: || agnix_skill("name: Test-Skill\ndescription: Use when validating skill names\n"),
        peer: Peer::Invalid,
        agentws: &["SK019", "ST001"],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_001_missing_frontmatter",
        folder: "missing-frontmatter",
        files: || skill("No frontmatter here.\n"),
        peer: Peer::Invalid,
        agentws: &["SK001"],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_002_missing_name",
        folder: "missing-name",
        files: || agnix_skill("description: Use when validating missing name\n"),
        peer: Peer::Invalid,
        agentws: &["SK007"],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_003_missing_description",
        folder: "test-skill",
        files: || agnix_skill("name: test-skill\n"),
        peer: Peer::Invalid,
        agentws: &["SK009"],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_004_invalid_name_format",
        folder: "bad_name",
        files: || agnix_skill("name: bad_name\ndescription: Use when validating name format\n"),
        peer: Peer::Invalid,
        agentws: &["ST001"],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_007_reserved_name",
        folder: "claude",
        files: || agnix_skill("name: claude\ndescription: Use when validating reserved names\n"),
        peer: Peer::Invalid,
        agentws: &[],
        deviation: Some("ST001"),
    },
    Case {
        id: "agnix:test_as_007_all_reserved_names (anthropic)",
        folder: "anthropic",
        files: || agnix_skill("name: anthropic\ndescription: Use when testing reserved names\n"),
        peer: Peer::Invalid,
        agentws: &[],
        deviation: Some("ST001"),
    },
    Case {
        id: "agnix:test_as_007_all_reserved_names (skill)",
        folder: "skill",
        files: || agnix_skill("name: skill\ndescription: Use when testing reserved names\n"),
        peer: Peer::Invalid,
        agentws: &[],
        deviation: Some("ST001"),
    },
    Case {
        id: "agnix:test_as_007_non_reserved_name_ok",
        folder: "my-custom-skill",
        files: || {
            agnix_skill("name: my-custom-skill\ndescription: Use when testing non-reserved names\n")
        },
        peer: Peer::Without(&[]),
        agentws: &[],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_017_name_directory_mismatch",
        folder: "code-review",
        files: || {
            agnix_skill(
                "name: deploy-skill\ndescription: Use when validating directory name matching\n",
            )
        },
        peer: Peer::Invalid,
        agentws: &["ST002"],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_017_name_directory_match_ok",
        folder: "code-review",
        files: || {
            agnix_skill(
                "name: code-review\ndescription: Use when validating directory name matching\n",
            )
        },
        peer: Peer::Without(&["ST002", "SK016"]),
        agentws: &[],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_018_description_first_second_person",
        folder: "review-skill",
        files: || {
            agnix_skill(
                "name: review-skill\ndescription: You can use this when reviewing pull requests\n",
            )
        },
        peer: Peer::Invalid,
        agentws: &[],
        deviation: Some("ST003"),
    },
    Case {
        id: "agnix:test_as_018_description_third_person_ok",
        folder: "review-skill",
        files: || {
            agnix_skill("name: review-skill\ndescription: Use when reviewing pull requests for quality issues\n")
        },
        peer: Peer::Without(&[]),
        agentws: &[],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_019_vague_name",
        folder: "helper",
        files: || agnix_skill("name: helper\ndescription: Use when running helper tasks\n"),
        peer: Peer::Invalid,
        agentws: &[],
        deviation: Some("ST001"),
    },
    Case {
        id: "agnix:test_as_019_specific_name_ok",
        folder: "code-review-helper",
        files: || {
            agnix_skill("name: code-review-helper\ndescription: Use when reviewing code quality\n")
        },
        peer: Peer::Without(&[]),
        agentws: &[],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_008_description_too_long",
        folder: "test-skill",
        files: || {
            skill(&format!(
                "---\nname: test-skill\ndescription: {}\n---\nBody",
                "a".repeat(1025)
            ))
        },
        peer: Peer::Invalid,
        agentws: &["SK020", "ST003"],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_008_description_empty_string",
        folder: "test-skill",
        files: || agnix_skill("name: test-skill\ndescription: \"\"\n"),
        peer: Peer::Invalid,
        agentws: &["SK009"],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_009_description_contains_xml",
        folder: "test-skill",
        files: || agnix_skill("name: test-skill\ndescription: Use when validating <xml> tags\n"),
        peer: Peer::Invalid,
        agentws: &[],
        deviation: Some("ST003"),
    },
    Case {
        id: "agnix:test_as_011_compatibility_too_long",
        folder: "test-skill",
        files: || {
            agnix_skill(&format!(
                "name: test-skill\ndescription: Use when validating compatibility\ncompatibility: {}\n",
                "b".repeat(501)
            ))
        },
        peer: Peer::Invalid,
        agentws: &["ST004"],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_011_exactly_500_chars",
        folder: "test",
        files: || {
            agnix_skill(&format!(
                "name: test\ndescription: Use when testing\ncompatibility: {}\n",
                "a".repeat(500)
            ))
        },
        peer: Peer::Without(&["ST004"]),
        agentws: &[],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_011_501_chars_triggers",
        folder: "test",
        files: || {
            agnix_skill(&format!(
                "name: test\ndescription: Use when testing\ncompatibility: {}\n",
                "a".repeat(501)
            ))
        },
        peer: Peer::Invalid,
        agentws: &["ST004"],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_012_content_too_long",
        folder: "test-skill",
        files: || {
            let body = vec!["line"; 501].join("\n");
            skill(&format!(
                "---\nname: test-skill\ndescription: Use when validating content length\n---\n{body}"
            ))
        },
        peer: Peer::Invalid,
        agentws: &["ST008"],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_012_exactly_500_lines_ok",
        folder: "test",
        files: || {
            let body: Vec<String> = (0..470).map(|i| format!("Line {i}")).collect();
            skill(&format!(
                "---\nname: test\ndescription: Use when testing line limits\n---\n{}",
                body.join("\n")
            ))
        },
        peer: Peer::Without(&["ST008"]),
        agentws: &[],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_013_reference_too_deep",
        folder: "deep-reference",
        files: || {
            skill("---\nname: deep-reference\ndescription: Use when validating deep references\n---\n\nSee references/deep/nested/guide.md for details.\n")
        },
        peer: Peer::Invalid,
        agentws: &["ST009", "ST012"],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_013_reference_single_name_too_deep",
        folder: "deep-reference",
        files: || {
            skill("---\nname: deep-reference\ndescription: Use when validating deep references\n---\n\nSee reference/deep/guide.md for details.")
        },
        peer: Peer::Invalid,
        agentws: &[],
        deviation: Some("ST009"),
    },
    Case {
        id: "agnix:test_as_014_windows_path_separator",
        folder: "windows-path",
        files: || {
            skill("---\nname: windows-path\ndescription: Use when validating windows paths\n---\n\nSee references\\guide.md for details.\n")
        },
        peer: Peer::Invalid,
        agentws: &[],
        deviation: Some("ST009"),
    },
    Case {
        id: "agnix:test_as_015_directory_size_exceeds",
        folder: "big-skill",
        files: || {
            vec![
                (
                    "SKILL.md",
                    "---\nname: big-skill\ndescription: Use when validating directory size\n---\nBody\n"
                        .to_string(),
                ),
                ("big.bin", "\0".repeat(8 * 1024 * 1024 + 1)),
            ]
        },
        peer: Peer::Invalid,
        agentws: &[],
        deviation: Some("ST008"),
    },
    Case {
        id: "agnix:test_as_005_leading_hyphen",
        folder: "-bad-name",
        files: || agnix_skill("name: -bad-name\ndescription: Use when testing validation\n"),
        peer: Peer::Invalid,
        agentws: &["SK019", "ST001"],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_005_trailing_hyphen",
        folder: "bad-name-",
        files: || agnix_skill("name: bad-name-\ndescription: Use when testing validation\n"),
        peer: Peer::Invalid,
        agentws: &["ST001"],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_006_consecutive_hyphens",
        folder: "bad--name",
        files: || agnix_skill("name: bad--name\ndescription: Use when testing validation\n"),
        peer: Peer::Invalid,
        agentws: &["ST001"],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_010_missing_trigger",
        folder: "code-review",
        files: || agnix_skill("name: code-review\ndescription: Reviews code for quality\n"),
        peer: Peer::Invalid,
        agentws: &[],
        deviation: Some("ST003"),
    },
    Case {
        id: "agnix:test_as_010_has_use_when_trigger",
        folder: "code-review",
        files: || {
            agnix_skill("name: code-review\ndescription: Use when user asks for code review\n")
        },
        peer: Peer::Without(&[]),
        agentws: &[],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_010_use_this_not_accepted",
        folder: "code-review",
        files: || agnix_skill("name: code-review\ndescription: Use this skill to review code\n"),
        peer: Peer::Invalid,
        agentws: &[],
        deviation: Some("ST003"),
    },
    Case {
        id: "agnix:test_as_001_missing_closing_delimiter_treated_as_no_frontmatter",
        folder: "test",
        files: || {
            skill("---\nname: test\ndescription: A test skill\nMissing closing delimiter\nBody content")
        },
        peer: Peer::Invalid,
        agentws: &["SK005"],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_016_invalid_yaml_colon_in_value",
        folder: "test",
        files: || agnix_skill("name: test:value:with:colons\ndescription: A test skill\n"),
        // YAML reads colons inside a plain value: no parse error.
        peer: Peer::Without(&["SK013"]),
        agentws: &["SK019", "ST001", "ST002"],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_016_invalid_yaml_tabs",
        folder: "test",
        files: || skill("---\nname: test\n\tdescription: bad indent\n---\nBody"),
        peer: Peer::Invalid,
        agentws: &["SK009", "SK013"],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_016_valid_yaml_no_error",
        folder: "valid-skill",
        files: || {
            skill("---\nname: valid-skill\ndescription: A properly formatted skill\nmodel: sonnet\n---\nBody content")
        },
        peer: Peer::Without(&["SK013"]),
        agentws: &["ST007"],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_001_empty_file",
        folder: "test",
        files: || skill(""),
        peer: Peer::Invalid,
        agentws: &["SK001"],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_001_only_body_no_frontmatter",
        folder: "test",
        files: || skill("This is just body content without any frontmatter."),
        peer: Peer::Invalid,
        agentws: &["SK001"],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_002_no_name_field",
        folder: "test",
        files: || agnix_skill("description: A test skill without name field\n"),
        peer: Peer::Invalid,
        agentws: &["SK007"],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_004_whitespace_only_name",
        folder: "test",
        files: || agnix_skill("name: \"   \"\ndescription: A test skill\n"),
        peer: Peer::Invalid,
        agentws: &["SK007"],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_003_whitespace_description",
        folder: "test-skill",
        files: || agnix_skill("name: test-skill\ndescription: \"   \"\n"),
        peer: Peer::Invalid,
        agentws: &["SK009"],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_004_uppercase_in_name",
        folder: "TestSkill",
        files: || agnix_skill("name: TestSkill\ndescription: Use when testing skill names\n"),
        peer: Peer::Invalid,
        agentws: &["SK019", "ST001"],
        deviation: None,
    },
    Case {
        id: "agnix:test_as_004_valid_lowercase_hyphen_name",
        folder: "valid-skill-name",
        files: || {
            agnix_skill("name: valid-skill-name\ndescription: Use when testing valid names\n")
        },
        peer: Peer::Without(&["ST001"]),
        agentws: &[],
        deviation: None,
    },
    // ---- agnix: tests/fixtures/{valid,invalid}/skills (Claude Code's skill keys) -------------
    Case {
        id: "agnix:valid/skills/code-review",
        folder: "code-review",
        files: || {
            skill("---\nname: code-review\ndescription: Use when user asks to review code for quality and security issues.\n---\n\nWhen invoked, review the code for:\n\n1. Code quality and readability\n2. Security vulnerabilities\n3. Performance issues\n4. Test coverage\n\nProvide specific, actionable feedback.\n")
        },
        peer: Peer::Valid,
        agentws: &[],
        deviation: None,
    },
    Case {
        id: "agnix:valid/skills/deploy-prod",
        folder: "deploy-prod",
        files: || {
            skill("---\nname: deploy-prod\ndescription: Use when deploying to production environment\ndisable-model-invocation: true\nallowed-tools: Bash(git:*) Bash(npm:*) Read\n---\n\n# Deploy to Production\n\nThis skill deploys the application to production.\n\n## Usage\n\nThis skill requires explicit user invocation due to its dangerous nature.\n")
        },
        peer: Peer::Valid,
        agentws: &["ST007", "SK025"],
        deviation: Some("ST007"),
    },
    Case {
        id: "agnix:valid/skills/fork-with-instructions",
        folder: "fork-with-instructions",
        files: || {
            skill("---\nname: fork-with-instructions\ndescription: Use when analyzing code quality\ncontext: fork\nagent: general-purpose\n---\nAnalyze the codebase and generate a report.\nRun the linter on all source files.\nCheck for common security vulnerabilities.\nCreate a summary of findings.\n")
        },
        peer: Peer::Valid,
        agentws: &["ST007", "ST007"],
        deviation: Some("ST007"),
    },
    Case {
        id: "agnix:valid/skills/with-argument-hint",
        folder: "with-argument-hint",
        files: || {
            skill("---\nname: with-argument-hint\ndescription: Use when greeting users\nargument-hint: user-name\n---\nGreet the user with the name provided via $ARGUMENTS.\n")
        },
        peer: Peer::Valid,
        agentws: &["ST007"],
        deviation: Some("ST007"),
    },
    Case {
        id: "agnix:valid/skills/with-context-agent",
        folder: "with-context-agent",
        files: || {
            skill("---\nname: with-context-agent\ndescription: Use when testing valid context and agent configuration\ncontext: fork\nagent: Explore\nmodel: sonnet\nallowed-tools: Read Write Grep Glob\n---\n\nRead the source code and analyze it for quality issues.\nCheck for common patterns and generate a report.\n")
        },
        peer: Peer::Valid,
        agentws: &["ST007", "ST007", "ST007", "SK025"],
        deviation: Some("ST007"),
    },
    Case {
        id: "agnix:valid/skills/with-custom-agent",
        folder: "with-custom-agent",
        files: || {
            skill("---\nname: with-custom-agent\ndescription: Use when testing custom agent validation\ncontext: fork\nagent: my-custom-agent\n---\n\nThis skill uses a custom agent name in kebab-case format.\nCustom agent names must be 1-64 lowercase letters, digits, and hyphens.\n")
        },
        peer: Peer::Valid,
        agentws: &["ST007", "ST007"],
        deviation: Some("ST007"),
    },
    Case {
        id: "agnix:valid/skills/with-hooks",
        folder: "with-hooks",
        files: || {
            skill("---\nname: with-hooks\ndescription: Use when testing valid hooks\nhooks:\n  PreToolUse:\n    - type: command\n      command: echo pre-tool\n---\nRun the pre-tool hook before tool use.\n")
        },
        peer: Peer::Valid,
        agentws: &["ST007"],
        deviation: Some("ST007"),
    },
    Case {
        id: "agnix:valid/skills/with-model",
        folder: "with-model",
        files: || {
            skill("---\nname: with-model\ndescription: Use when testing valid model configuration\nmodel: opus\n---\n\nThis skill has a valid model value.\nValid models are: sonnet, opus, haiku, inherit.\n")
        },
        peer: Peer::Valid,
        agentws: &["ST007"],
        deviation: Some("ST007"),
    },
    Case {
        id: "agnix:invalid/skills/agent-without-context",
        folder: "agent-without-context",
        files: || {
            skill("---\nname: agent-without-context-skill\ndescription: Use when testing agent without context validation\nagent: Explore\n---\n\nThis skill has an agent field but no context: fork.\nThe agent field requires context: fork.\n")
        },
        peer: Peer::Invalid,
        agentws: &["ST002", "ST007"],
        deviation: None,
    },
    Case {
        id: "agnix:invalid/skills/argument-hint-no-args",
        folder: "argument-hint-no-args",
        files: || {
            skill("---\nname: hint-skill\ndescription: Use when testing argument hints\nargument-hint: <file-path>\n---\nThis skill body does not reference the arguments variable.\n")
        },
        peer: Peer::Invalid,
        agentws: &["ST002", "ST007"],
        deviation: None,
    },
    Case {
        id: "agnix:invalid/skills/context-without-agent",
        folder: "context-without-agent",
        files: || {
            skill("---\nname: context-without-agent-skill\ndescription: Use when testing context without agent validation\ncontext: fork\n---\n\nThis skill has context: fork but no agent field.\nThe context: fork requires an agent field.\n")
        },
        peer: Peer::Invalid,
        agentws: &["ST002", "ST007"],
        deviation: None,
    },
    Case {
        id: "agnix:invalid/skills/deploy-prod",
        folder: "deploy-prod",
        files: || {
            skill("---\nname: deploy-prod\ndescription: Deploys to production\nallowed-tools: Bash Read Write\n---\n\nDeploy the application to production.\n")
        },
        peer: Peer::Invalid,
        agentws: &["SK025"],
        deviation: Some("ST006"),
    },
    Case {
        id: "agnix:invalid/skills/first-person-description",
        folder: "first-person-description",
        files: || {
            skill("---\nname: first-person-description\ndescription: Use when you need pull-request review help\n---\nReview changed files.")
        },
        peer: Peer::Invalid,
        agentws: &[],
        deviation: Some("ST003"),
    },
    Case {
        id: "agnix:invalid/skills/fork-no-instructions",
        folder: "fork-no-instructions",
        files: || {
            skill("---\nname: reference-skill\ndescription: Use when looking up documentation\ncontext: fork\nagent: general-purpose\n---\nThis is a reference document about the API.\nIt contains information about endpoints and data models.\nThe system architecture is described below.\n")
        },
        peer: Peer::Invalid,
        agentws: &["ST002", "ST007", "ST007"],
        deviation: None,
    },
    Case {
        id: "agnix:invalid/skills/indexed-arguments-no-hint",
        folder: "indexed-arguments-no-hint",
        files: || {
            skill("---\nname: indexed-arguments-no-hint\ndescription: Use when validating indexed arguments\n---\nRead input path from $ARGUMENTS[0] and inspect it.")
        },
        peer: Peer::Invalid,
        agentws: &[],
        deviation: Some("ST007"),
    },
    Case {
        id: "agnix:invalid/skills/invalid-agent",
        folder: "invalid-agent",
        files: || {
            skill("---\nname: invalid-agent-skill\ndescription: Use when testing invalid agent validation\ncontext: fork\nagent: Invalid_Agent\n---\n\nThis skill has an invalid agent type.\nAgent must be a built-in (Explore, Plan, general-purpose) or a custom kebab-case name.\nInvalid_Agent is rejected because underscores are not allowed; use hyphens for kebab-case format.\n")
        },
        peer: Peer::Invalid,
        agentws: &["ST002", "ST007", "ST007"],
        deviation: None,
    },
    Case {
        id: "agnix:invalid/skills/invalid-context",
        folder: "invalid-context",
        files: || {
            skill("---\nname: invalid-context-skill\ndescription: Use when testing invalid context validation\ncontext: split\n---\n\nThis skill has an invalid context value.\nThe context field must be \"fork\" or omitted.\n")
        },
        peer: Peer::Invalid,
        agentws: &["ST002", "ST007"],
        deviation: None,
    },
    Case {
        id: "agnix:invalid/skills/invalid-hooks",
        folder: "invalid-hooks",
        files: || {
            skill("---\nname: hooks-skill\ndescription: Use when testing hooks validation\nhooks:\n  InvalidEvent:\n    - type: command\n      command: echo hello\n---\nBody content.\n")
        },
        peer: Peer::Invalid,
        agentws: &["ST002", "ST007"],
        deviation: None,
    },
    Case {
        id: "agnix:invalid/skills/invalid-model",
        folder: "invalid-model",
        files: || {
            skill("---\nname: invalid-model-skill\ndescription: Use when testing invalid model validation\nmodel: gpt-4\n---\n\nThis skill has an invalid model value.\nThe model field must be one of: sonnet, opus, haiku, inherit.\n")
        },
        peer: Peer::Invalid,
        agentws: &["ST002", "ST007"],
        deviation: None,
    },
    Case {
        id: "agnix:invalid/skills/invalid-name",
        folder: "invalid-name",
        files: || {
            skill("---\nname: invalid_name\ndescription: Use when user wants to review code\nmodel: sonnet\n---\n\nBe helpful when reviewing code.\n")
        },
        peer: Peer::Invalid,
        agentws: &["ST001", "ST002", "ST007"],
        deviation: None,
    },
    Case {
        id: "agnix:invalid/skills/name-directory-mismatch",
        folder: "name-directory-mismatch",
        files: || {
            skill("---\nname: directory-helper\ndescription: Use when validating name-directory matching\n---\nRun deployment checks.")
        },
        peer: Peer::Invalid,
        agentws: &["ST002"],
        deviation: None,
    },
    Case {
        id: "agnix:invalid/skills/string-boolean-disable",
        folder: "string-boolean-disable",
        files: || {
            skill("---\nname: bad-bool-skill\ndescription: Use when testing boolean type validation\ndisable-model-invocation: \"true\"\n---\nBody content.\n")
        },
        peer: Peer::Invalid,
        agentws: &["ST002", "ST007"],
        deviation: None,
    },
    Case {
        id: "agnix:invalid/skills/string-boolean-invocable",
        folder: "string-boolean-invocable",
        files: || {
            skill("---\nname: bad-invocable-skill\ndescription: Use when testing boolean type validation\nuser-invocable: \"false\"\n---\nBody content.\n")
        },
        peer: Peer::Invalid,
        agentws: &["ST002", "ST007"],
        deviation: None,
    },
    Case {
        id: "agnix:invalid/skills/too-many-injections",
        folder: "too-many-injections",
        files: || {
            skill("---\nname: too-many-injections-skill\ndescription: Use when testing injection limit validation\n---\n\nThis skill has too many dynamic injections.\n\nCurrent date: !`date`\nGit status: !`git status`\nCurrent branch: !`git branch --show-current`\nCurrent user: !`whoami`\n\nThe limit is 3 injections per skill.\n")
        },
        peer: Peer::Invalid,
        agentws: &["ST002"],
        deviation: None,
    },
    Case {
        id: "agnix:invalid/skills/unknown-frontmatter-field",
        folder: "unknown-frontmatter-field",
        files: || {
            skill("---\nname: unknown-frontmatter-field\ndescription: Use when validating frontmatter keys\ndesription: typo field key\n---\nRun frontmatter validation.")
        },
        peer: Peer::Invalid,
        agentws: &["ST007"],
        deviation: None,
    },
    Case {
        id: "agnix:invalid/skills/unknown-tool",
        folder: "unknown-tool",
        files: || {
            skill("---\nname: unknown-tool-skill\ndescription: Use when testing unknown tool validation\nallowed-tools: Read Write FakeTool UnknownTool\n---\n\nThis skill references unknown tools.\nTools must be known Claude Code tools: Bash, Read, Write, Edit, Grep, Glob, Task, etc.\n")
        },
        peer: Peer::Invalid,
        agentws: &["ST002", "SK025"],
        deviation: None,
    },
    Case {
        id: "agnix:invalid/skills/unreachable-skill",
        folder: "unreachable-skill",
        files: || {
            skill("---\nname: unreachable-skill\ndescription: Use when testing unreachable skills\nuser-invocable: false\ndisable-model-invocation: true\n---\nThis skill cannot be invoked by anyone.\n")
        },
        peer: Peer::Invalid,
        agentws: &["ST007", "ST007"],
        deviation: None,
    },
    Case {
        id: "agnix:invalid/skills/vague-name",
        folder: "vague-name",
        files: || {
            skill("---\nname: helper\ndescription: Use when validating vague skill names\n---\nRun utility steps.")
        },
        peer: Peer::Invalid,
        agentws: &["ST002"],
        deviation: None,
    },
];

/// One diagnostic as the JSON report gives it.
struct Found {
    code: String,
    severity: String,
    message: String,
}

/// Every diagnostic `agentws check --profile strict` reports on the skill folder `folder`, run
/// on a fresh workspace that holds only that skill.
fn run(folder: &str, files: Vec<(&'static str, String)>) -> Vec<Found> {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join(".agentscope/workspace");
    let folder = ws.join("skills").join(folder);
    std::fs::create_dir_all(&folder).unwrap();
    for (rel, text) in files {
        let path = folder.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    std::fs::write(ws.join("AGENTS.md"), "# Agent\n").unwrap();
    std::fs::write(dir.path().join("agentws.toml"), "[agent]\nname = \"a\"\n").unwrap();
    let output = Command::cargo_bin("agentws")
        .unwrap()
        .args(["check", "--profile", "strict", "--format", "json"])
        .arg(dir.path())
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stderr)));
    let folder = std::fs::canonicalize(&folder).unwrap_or(folder);
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| {
            let path = Path::new(d["path"].as_str().unwrap());
            let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
            path.starts_with(&folder)
        })
        .map(|d| Found {
            code: d["code"].as_str().unwrap().to_string(),
            severity: d["severity"].as_str().unwrap().to_string(),
            message: d["message"].as_str().unwrap().to_string(),
        })
        .collect()
}

/// The section of docs/rules.md about `code` (from its heading to the next one).
fn rules_doc_section(doc: &str, code: &str) -> String {
    let heading = format!("\n## {code} ");
    let Some(start) = doc.find(&heading) else {
        panic!("docs/rules.md has no section for {code}");
    };
    let rest = &doc[start..];
    let end = rest[heading.len()..]
        .find("\n## ")
        .map_or(rest.len(), |at| at + heading.len());
    rest[..end].to_string()
}

#[test]
fn every_rebuilt_case_agrees_or_is_a_documented_deviation() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/rules.md"))
            .unwrap();
    let mut ids = std::collections::HashSet::new();
    let mut problems = Vec::new();
    for case in CASES {
        assert!(ids.insert(case.id), "duplicate case {}", case.id);
        let found = run(case.folder, (case.files)());
        let codes: Vec<&str> = found.iter().map(|f| f.code.as_str()).collect();
        let flags = found.iter().any(|f| f.severity != "info");
        let agrees = match case.peer {
            Peer::Valid => !flags,
            Peer::Invalid => flags,
            Peer::Without(counterparts) => !codes.iter().any(|c| counterparts.contains(c)),
        };
        if codes != case.agentws {
            problems.push(format!(
                "{}: agentws reports {codes:?}, the table says {:?}",
                case.id, case.agentws
            ));
        }
        match (agrees, case.deviation) {
            (true, Some(code)) => problems.push(format!(
                "{}: agrees with the peer ({:?}), but the table names a deviation under {code}",
                case.id, case.peer
            )),
            (false, None) => problems.push(format!(
                "{}: the peer expects {:?}, agentws reports {codes:?}, and no deviation is named",
                case.id, case.peer
            )),
            (false, Some(code)) => {
                if !rules_doc_section(&doc, code).contains(case.id) {
                    problems.push(format!(
                        "{}: docs/rules.md does not explain this case under {code}",
                        case.id
                    ));
                }
            }
            (true, None) => {}
        }
    }
    assert!(
        problems.is_empty(),
        "{} of {} cases:\n{}",
        problems.len(),
        CASES.len(),
        problems.join("\n")
    );
}

/// What the suites showed agentws missed or said badly, each reported where it is wrong and
/// absent where it is written correctly: `skill.md` (SK030), metadata keys (ST005), paths in
/// text and backticks (ST009, ST012), names that differ only in Unicode normalization (ST002),
/// the article before a type name.
#[test]
fn the_gaps_the_suites_showed_are_closed() {
    let messages = |folder: &str, files: Vec<(&'static str, String)>| -> Vec<(String, String)> {
        run(folder, files)
            .into_iter()
            .map(|f| (f.code, f.message))
            .collect()
    };
    let row = |code: &str, message: &str| (code.to_string(), message.to_string());
    let named = |name: &str, rest: &str, body: &str| {
        format!("---\nname: {name}\ndescription: Fills PDF forms.\n{rest}---\n{body}\n")
    };

    assert_eq!(
        messages("pdf", vec![("skill.md", named("pdf", "", "Body"))]),
        vec![row("SK030", "`skills/pdf/skill.md` is not `SKILL.md`: every skill scan looks for `SKILL.md` exactly, so the runtime skips the folder `skills/pdf` (rename the file to `SKILL.md`)")]
    );
    assert_eq!(messages("pdf", skill(&named("pdf", "", "Body"))), vec![]);

    assert_eq!(
        messages("pdf", skill(&named("pdf", "metadata:\n  2024: launch\n  on: x\n  count: 3\n", "Body"))),
        vec![
            row("SK024", "YAML 1.1 reads the key `2024` as an integer (2024), not a string; the runtime drops this entry"),
            row("ST005", "the `metadata` key `2024` is an integer; the specification wants string keys (quote it)"),
            row("SK024", "YAML 1.1 reads the key `on` as a boolean (true), not a string; the runtime drops this entry"),
            row("ST005", "the `metadata` key `on` is a boolean; the specification wants string keys (quote it)"),
            row("ST005", "`metadata.count` is an integer; the specification wants string values"),
        ]
    );
    assert_eq!(
        messages(
            "pdf",
            skill(&named(
                "pdf",
                "metadata:\n  \"2024\": launch\n  \"on\": x\n  count: \"3\"\n",
                "Body"
            ))
        ),
        vec![]
    );

    let body = "Run the extraction script:\nscripts/extract.py\n\nThen `scripts/fill.py`, as in [the guide](references/guide.md).\nDetails: `references/forms/v2/fields.md`.";
    assert_eq!(
        messages("pdf", skill(&named("pdf", "", body))),
        vec![
            row(
                "ST012",
                "`scripts/extract.py` (a path in the text) is not in the skill's folder"
            ),
            row(
                "ST012",
                "`scripts/fill.py` (a path in code) is not in the skill's folder"
            ),
            row(
                "ST012",
                "`references/guide.md` (a link) is not in the skill's folder"
            ),
            row(
                "ST009",
                "`references/forms/v2/fields.md` is more than one folder deep below the skill"
            ),
            row(
                "ST012",
                "`references/forms/v2/fields.md` (a path in code) is not in the skill's folder"
            ),
        ]
    );
    let mut files = skill(&named("pdf", "", body));
    for rel in [
        "scripts/extract.py",
        "scripts/fill.py",
        "references/guide.md",
        "references/forms/v2/fields.md",
    ] {
        files.push((rel, "x\n".to_string()));
    }
    assert_eq!(
        messages("pdf", files),
        vec![row(
            "ST009",
            "`references/forms/v2/fields.md` is more than one folder deep below the skill"
        )]
    );

    let st002 = |folder: &str, name: &str| -> Vec<(String, String)> {
        messages(folder, skill(&named(name, "", "Body")))
            .into_iter()
            .filter(|(code, _)| code == "ST002")
            .collect()
    };
    assert_eq!(
        st002("caf\u{e9}", "cafe\u{301}"),
        vec![row("ST002", "the name `cafe\u{301}` differs from the folder name `caf\u{e9}`; they differ only in Unicode normalization: `cafe\u{301}` is U+0063 U+0061 U+0066 U+0065 U+0301 (NFD), `caf\u{e9}` is U+0063 U+0061 U+0066 U+00E9 (NFC)")]
    );
    assert_eq!(st002("caf\u{e9}", "caf\u{e9}"), vec![]);
    // A plain difference gets no note.
    assert_eq!(
        st002("cafe", "caf\u{e9}"),
        vec![row(
            "ST002",
            "the name `caf\u{e9}` differs from the folder name `cafe`"
        )]
    );
}
