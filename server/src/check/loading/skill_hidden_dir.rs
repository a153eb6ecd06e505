//! SK018 `skill-hidden-dir`: a skill under a `skills/` folder starting with `_` or `.`, which the
//! recursive glob skips. The resolution finds it (`NotScanned::HiddenFolder`); `not_loaded`
//! reports it, a warning: the runtime's own `_drafts` and `.archive` folders are usually meant
//! not to load.

use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "SK018",
    name: "skill-hidden-dir",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"The skill lives under a `skills/` folder starting with `_` or `.`."#,
    consequence: r#"The workspace repository ignores it; only the direct scan of the shared `skills/` folder loads it (when directly under `skills/`)."#,
    // A warning either way: these folders are the runtime's own (drafts, archives), so a skill
    // that is not loaded there is usually meant not to be.
    explanation: r#"`_drafts`, `.archive` and similar folders belong to the runtime. Rename the folder if the skill should be loaded."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/skills/_drafts/pdf/SKILL.md",
            r#"---
name: pdf
description: Read, merge and split PDF files.
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
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
        )],
        at: ".agentscope/workspace/skills/_drafts/pdf/SKILL.md:2:7",
    }],
}
