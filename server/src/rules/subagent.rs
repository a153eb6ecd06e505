//! Rules for subagent specs `subagents/<id>.md` (`SA…`): harness-spec §3.1–3.2 and §9.3.

use super::{Example, Profile, Rule};
use crate::base::Severity;

pub static SA001: Rule = Rule {
    code: "SA001",
    name: "subagent-no-frontmatter",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The subagent file does not start with `---` (BOM, blank line, no frontmatter)."#,
    consequence: r#"The subagent is not declared: the main agent cannot delegate to it."#,
    explanation: r#"`AgentSpecLoader` returns null unless the text starts with `---`. Put the frontmatter at the very start."#,
    examples: &[Example {
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
    }],
};

pub static SA002: Rule = Rule {
    code: "SA002",
    name: "subagent-frontmatter-unclosed",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The frontmatter is never closed with `---`."#,
    consequence: r#"The subagent is not declared: the main agent cannot delegate to it."#,
    explanation: r#"Add a closing `---` line."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
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
    }],
};

pub static SA003: Rule = Rule {
    code: "SA003",
    name: "subagent-invalid-yaml",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The frontmatter is not valid YAML, not a map, or empty."#,
    consequence: r#"The subagent is not declared: the main agent cannot delegate to it."#,
    explanation: r#"Fix the YAML; the frontmatter must be a map with at least `description`."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions: web, papers.
---
You research a question and answer with sources.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: "Researches questions: web, papers."
---
You research a question and answer with sources.
"#,
        )],
    }],
};

pub static SA004: Rule = Rule {
    code: "SA004",
    name: "subagent-missing-description",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"`description` is missing or blank."#,
    consequence: r#"The subagent is not declared: the main agent cannot delegate to it."#,
    explanation: r#"Add a `description:` line; it is what the main agent reads in its subagent list."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
steps: 15
---
You research a question and answer with sources.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
steps: 15
---
You research a question and answer with sources.
"#,
        )],
    }],
};

pub static SA005: Rule = Rule {
    code: "SA005",
    name: "subagent-bad-id",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"The file name (agent id) is empty or contains `/`, `\`, `..`, whitespace or `:`."#,
    consequence: r#"Accepted, but the isolated runtime folder `agents/<id>/workspace` may escape the workspace or fail to be created."#,
    explanation: r#"Rename the file to a plain id such as `researcher.md`. The rule is a warning, because the runtime loads such a spec; it is an error only for an empty id (a file named `.md`), which the runtime skips."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/subagents/web researcher.md",
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
    }],
};

pub static SA007: Rule = Rule {
    code: "SA007",
    name: "subagent-nested",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The subagent file is in a folder below the shared `subagents/` folder."#,
    consequence: r#"The local folder scan does not see it; only the filesystem scan's recursive glob does, and that glob reads `<ws>/subagents` only when the call's namespace is empty."#,
    explanation: r#"Severity follows the outcome over the contexts the configuration allows. In the default `user` scope (and `session`) every call has a namespace, so the filesystem scan reads `<ws>/<ns>/subagents`: a nested shared spec is loaded for no call (error). With scope `agent` or `global`, or in sandbox and remote mode, the glob reads `<ws>/subagents` and loads it, as id = file name (info). Move it directly into `subagents/`."#,
    examples: &[Example {
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
    }],
};

pub static SA008: Rule = Rule {
    code: "SA008",
    name: "subagent-name-key",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"The frontmatter sets `name:`."#,
    consequence: r#"The main agent delegates to the subagent by its file name, not by `name:`."#,
    explanation: r#"Remove `name:` and rename the file instead."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
name: web-researcher
description: Researches questions on the web.
---
You research a question and answer with sources.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/subagents/web-researcher.md",
            r#"---
description: Researches questions on the web.
---
You research a question and answer with sources.
"#,
        )],
    }],
};

pub static SA009: Rule = Rule {
    code: "SA009",
    name: "subagent-workspace-not-map",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"`workspace` is not a map."#,
    consequence: r#"The subagent runs as if `workspace` were not set."#,
    explanation: r#"Write `workspace:` with `mode:` and/or `path:` keys below it."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
workspace: shared
---
You research a question and answer with sources.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
workspace:
  mode: shared
---
You research a question and answer with sources.
"#,
        )],
    }],
};

pub static SA010: Rule = Rule {
    code: "SA010",
    name: "subagent-workspace-mode",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"`workspace.mode` is not `isolated` or `shared`."#,
    consequence: r#"The subagent works in its own isolated workspace, the default."#,
    explanation: r#"Use `isolated` or `shared`."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
workspace:
  mode: private
---
You research a question and answer with sources.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
workspace:
  mode: isolated
---
You research a question and answer with sources.
"#,
        )],
    }],
};

pub static SA011: Rule = Rule {
    code: "SA011",
    name: "subagent-body-discarded",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"`workspace.path` is set and the body is not empty."#,
    consequence: r#"Edits to this body change nothing; edit that AGENTS.md instead."#,
    explanation: r#"Move the prompt into `<path>/AGENTS.md`, or remove `workspace.path`."#,
    examples: &[Example {
        triggering: &[
            (
                ".agentscope/workspace/subagents/researcher.md",
                r#"---
description: Researches questions on the web.
workspace:
  path: researcher-home
---
You research a question and answer with sources.
"#,
            ),
            (
                ".agentscope/workspace/researcher-home/AGENTS.md",
                r#"Cite every source.
"#,
            ),
        ],
        fixed: &[
            (
                ".agentscope/workspace/subagents/researcher.md",
                r#"---
description: Researches questions on the web.
workspace:
  path: researcher-home
---
"#,
            ),
            (
                ".agentscope/workspace/researcher-home/AGENTS.md",
                r#"You research a question and answer with sources.
"#,
            ),
        ],
    }],
};

pub static SA012: Rule = Rule {
    code: "SA012",
    name: "subagent-mode",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"Top-level `mode` is not `primary`, `subagent` or `all`."#,
    consequence: r#"The declaration loads with mode `all`, the default."#,
    explanation: r#"Use `primary`, `subagent` or `all`."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
mode: background
---
You research a question and answer with sources.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
mode: subagent
---
You research a question and answer with sources.
"#,
        )],
    }],
};

pub static SA013: Rule = Rule {
    code: "SA013",
    name: "subagent-steps",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"`steps` (or `maxIters`) is not a number, or is zero or negative."#,
    consequence: r#"A non-number is ignored (default 10); zero or negative is accepted as is."#,
    explanation: r#"Use a positive integer such as `steps: 15`."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
steps: many
---
You research a question and answer with sources.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
steps: 15
---
You research a question and answer with sources.
"#,
        )],
    }],
};

pub static SA014: Rule = Rule {
    code: "SA014",
    name: "subagent-sampling",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"`temperature` or `top_p` is not numeric, or out of range."#,
    consequence: r#"A non-numeric value is ignored (WARN, the parent's value is inherited); an out-of-range one is passed to the model."#,
    explanation: r#"`temperature` is usually 0–2 and `top_p` 0–1."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
temperature: 7
---
You research a question and answer with sources.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
temperature: 0.7
---
You research a question and answer with sources.
"#,
        )],
    }],
};

pub static SA015: Rule = Rule {
    code: "SA015",
    name: "subagent-boolean-string",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"`hidden` or `expose_to_user` is a string rather than a boolean."#,
    consequence: r#"Any text but `true` (in any case) is read as false."#,
    explanation: r#"The runtime reads the value as text with Java's `Boolean.parseBoolean`, which is true only for `true` in any letter case. Write `true` or `false` without quotes."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
hidden: "yes"
---
You research a question and answer with sources.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
hidden: true
---
You research a question and answer with sources.
"#,
        )],
    }],
};

pub static SA016: Rule = Rule {
    code: "SA016",
    name: "subagent-unknown-key",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: r#"The frontmatter has a key the runtime does not read."#,
    consequence: r#"It changes nothing about the subagent."#,
    explanation: r#"Remote/url subagents (`url`, `headers`, …) are programmatic only; remove the key or check its spelling."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
url: https://agents.example.com/researcher
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
    }],
};

pub static SA017: Rule = Rule {
    code: "SA017",
    name: "subagent-deprecated-max-iters",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: r#"`maxIters` is used."#,
    consequence: r#"Deprecated alias; used only when `steps` is not a number."#,
    explanation: r#"Write `steps:` instead."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
maxIters: 15
---
You research a question and answer with sources.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
steps: 15
---
You research a question and answer with sources.
"#,
        )],
    }],
};

pub static SA018: Rule = Rule {
    code: "SA018",
    name: "subagent-bom",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The subagent file starts with a UTF-8 byte order mark."#,
    consequence: r#"The subagent is not declared: the main agent cannot delegate to it."#,
    explanation: r#"Save as UTF-8 without BOM; the fix deletes it."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            "\u{feff}---
description: Researches questions on the web.
---
You research a question and answer with sources.
",
        )],
        fixed: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
---
You research a question and answer with sources.
"#,
        )],
    }],
};

pub static SA019: Rule = Rule {
    code: "SA019",
    name: "subagent-leading-whitespace",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"Blank lines or spaces come before the opening `---`."#,
    consequence: r#"The subagent is not declared: the main agent cannot delegate to it."#,
    explanation: r#"The fix removes what comes before `---`."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"
---
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
    }],
};

pub static SA020: Rule = Rule {
    code: "SA020",
    name: "subagent-dashes-in-frontmatter",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"A `---` inside the frontmatter (not on a line of its own) closes it early."#,
    consequence: r#"The subagent loads without the keys after that line, and its prompt starts with the rest of the frontmatter."#,
    explanation: r#"Rephrase the value so it holds no `---`. Severity follows the outcome: an error when the early close makes the runtime drop the declaration, a warning when what is left still loads."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches---and cites.
steps: 15
---
You research a question and answer with sources.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches and cites.
steps: 15
---
You research a question and answer with sources.
"#,
        )],
    }],
};

pub static SA021: Rule = Rule {
    code: "SA021",
    name: "subagent-long-opener",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"The frontmatter opens with `----`."#,
    consequence: r#"The runtime keeps the extra `-` as the first YAML character, which usually breaks the YAML."#,
    explanation: r#"The fix turns the line into `---`."#,
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"----
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
    }],
};

pub static SA022: Rule = Rule {
    code: "SA022",
    name: "subagent-folder-not-read",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: r#"The subagent file is in a folder that no session context the configuration allows reads."#,
    consequence: r#"No call lists or spawns this subagent."#,
    explanation: r#"Per-user specs (`<ws>/<ns>/subagents/**`) are read by the filesystem scan only for calls whose namespace is `<ns>`: never with scope `agent` or `global`, never in sandbox or remote mode. Project-folder specs are read only in local mode. With `features.subagents = false` no spec is read. Move the file to the shared `subagents/` folder, or change the configuration."#,
    examples: &[Example {
        triggering: &[
            (
                "agentws.toml",
                r#"[agent]
name = "docs"

[isolation]
scope = "agent"
"#,
            ),
            (
                ".agentscope/workspace/alice/subagents/researcher.md",
                r#"---
description: Researches questions on the web.
---
You research a question and answer with sources.
"#,
            ),
        ],
        fixed: &[
            (
                "agentws.toml",
                r#"[agent]
name = "docs"

[isolation]
scope = "agent"
"#,
            ),
            (
                ".agentscope/workspace/subagents/researcher.md",
                r#"---
description: Researches questions on the web.
---
You research a question and answer with sources.
"#,
            ),
        ],
    }],
};

pub static RULES: &[&Rule] = &[
    &SA001, &SA002, &SA003, &SA004, &SA005, &SA007, &SA008, &SA009, &SA010, &SA011, &SA012, &SA013,
    &SA014, &SA015, &SA016, &SA017, &SA018, &SA019, &SA020, &SA021, &SA022,
];
