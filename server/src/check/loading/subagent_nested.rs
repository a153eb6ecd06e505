//! SA007 `subagent-nested`: a subagent file in a folder below the shared `subagents/` folder,
//! which the direct scan does not see. The resolution finds it
//! (`NotScanned::NestedInSharedFolder`); `not_loaded` reports it where no call loads it, and
//! `nested_but_loaded` where only the recursive glob does.

use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};

declare_rule! {
    code: "SA007",
    name: "subagent-nested",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The subagent file is in a folder below the shared `subagents/` folder."#,
    consequence: r#"The local folder scan does not see it; only the filesystem scan's recursive glob does, and that glob reads `<ws>/subagents` only when the call's namespace is empty."#,
    explanation: r#"Severity follows the outcome over the contexts the configuration allows. In the default `user` scope (and `session`) every call has a namespace, so the filesystem scan reads `<ws>/<ns>/subagents`: a nested shared spec is loaded for no call (error). With scope `agent` or `global`, or in sandbox and remote mode, the glob reads `<ws>/subagents` and loads it, as id = file name (info). Move it directly into `subagents/`."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/subagents/web/researcher.md",
            r#"---
description: Researches questions on the web.
---
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
        at: ".agentscope/workspace/subagents/web/researcher.md:1:1",
    }],
}
