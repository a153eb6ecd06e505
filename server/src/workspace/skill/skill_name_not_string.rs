//! SK008 `skill-name-not-string`: `name` is not a YAML string (found with SK010 by `Parser::check_required`).

use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "SK008",
    name: "skill-name-not-string",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"`name` is not a YAML string (a number, boolean, date, list or map)."#,
    consequence: r#"The runtime requires a string and skips the skill."#,
    explanation: r#"SnakeYAML types plain scalars with YAML 1.1 rules: `name: yes` is the boolean true and `name: 123` an integer, so the runtime rejects them. Quote the value (`name: "yes"`); the fix does that, and removes an explicit tag such as `!!bool`, which types even a quoted value."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/skills/2048/SKILL.md",
            r#"---
name: 2048
description: Play the 2048 puzzle.
---

# 2048

Slide the tiles with the arrow keys.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/skills/2048/SKILL.md",
            r#"---
name: "2048"
description: Play the 2048 puzzle.
---

# 2048

Slide the tiles with the arrow keys.
"#,
        )],
        at: ".agentscope/workspace/skills/2048/SKILL.md:2:7",
    }],
}
