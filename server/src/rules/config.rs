//! agentws.toml rules (`CF…`): the project configuration that says what the Java builder holds.
//! See the module docs of `rules` for the code scheme.

use super::{Example, Profile, Rule};
use crate::base::Severity;

pub static CF001: Rule = Rule {
    code: "CF001",
    name: "config-syntax",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "agentws.toml is not valid TOML.",
    consequence: "agentws cannot read the configuration and checks the workspace with the runtime's defaults.",
    explanation: "Fix the TOML syntax error; until then every setting (workspace folder, features, \
filesystem mode, …) is assumed to be the runtime default, which may not match your agent.",
    examples: &[
        Example {
            triggering: &[
                ("agentws.toml", r#"[agent]
name = "release"
max_context_tokens = 8_000,
"#),
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
            ],
            fixed: &[
                ("agentws.toml", r#"[agent]
name = "release"
max_context_tokens = 8_000
"#),
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
            ],
        },
    ],
};

pub static CF002: Rule = Rule {
    code: "CF002",
    name: "config-unknown-key",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "agentws.toml has a key or table agentws does not know.",
    consequence: "Ignored: the setting it was meant to change keeps its default. docs/configuration.md lists every key.",
    explanation: "Known top-level keys: `workspace`, `project`, `harness`, tables `[agent]`, \
`[isolation]`, `[filesystem]`, `[features]`, `[store]`; docs/configuration.md lists every key with \
its type, default and the builder call it stands for. Keys are case-sensitive; the message \
suggests the closest known key.",
    examples: &[
        Example {
            triggering: &[
                ("agentws.toml", r#"workspce = ".agentscope/workspace"

[agent]
name = "release"
"#),
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
            ],
            fixed: &[
                ("agentws.toml", r#"workspace = ".agentscope/workspace"

[agent]
name = "release"
"#),
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
            ],
        },
    ],
};

pub static CF003: Rule = Rule {
    code: "CF003",
    name: "config-wrong-type",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "An agentws.toml key has a value of the wrong type.",
    consequence: "The setting behaves as if the key were not written.",
    explanation:
        "Paths and names are strings, `additional_context_files` and `additional_roots` arrays \
of strings, `max_context_tokens` an integer, feature switches and `project_writable` booleans.",
    examples: &[Example {
        triggering: &[
            (
                "agentws.toml",
                r#"[agent]
name = "release"
max_context_tokens = "8000"
"#,
            ),
            (
                ".agentscope/workspace/AGENTS.md",
                r#"You are a release assistant. Answer in short sentences.
"#,
            ),
        ],
        fixed: &[
            (
                "agentws.toml",
                r#"[agent]
name = "release"
max_context_tokens = 8000
"#,
            ),
            (
                ".agentscope/workspace/AGENTS.md",
                r#"You are a release assistant. Answer in short sentences.
"#,
            ),
        ],
    }],
};

pub static CF004: Rule = Rule {
    code: "CF004",
    name: "config-invalid-value",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "An agentws.toml enum key has a value that is not one of its choices.",
    consequence: "The setting behaves as if the key were not written.",
    explanation:
        "`harness`: `2026-09` | `2026-08`; `isolation.scope`: `user` | `session` | `agent` | \
`global`; `filesystem.mode`: `local` | `sandbox` | `remote`; `filesystem.path_mode`: `rooted` | \
`sandboxed` | `unrestricted`. Values are lower-case.",
    examples: &[Example {
        triggering: &[
            (
                "agentws.toml",
                r#"[agent]
name = "release"

[isolation]
scope = "tenant"
"#,
            ),
            (
                ".agentscope/workspace/AGENTS.md",
                r#"You are a release assistant. Answer in short sentences.
"#,
            ),
        ],
        fixed: &[
            (
                "agentws.toml",
                r#"[agent]
name = "release"

[isolation]
scope = "user"
"#,
            ),
            (
                ".agentscope/workspace/AGENTS.md",
                r#"You are a release assistant. Answer in short sentences.
"#,
            ),
        ],
    }],
};

pub static CF005: Rule = Rule {
    code: "CF005",
    name: "config-system-prompt-conflict",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "Both `agent.system_prompt` and `agent.system_prompt_file` are set.",
    consequence: "agentws uses `system_prompt_file`; `system_prompt` is ignored.",
    explanation: "The builder has one `sysPrompt`. Keep one of the two keys.",
    examples: &[Example {
        triggering: &[
            (
                "agentws.toml",
                r#"[agent]
name = "release"
system_prompt = "You help with releases."
system_prompt_file = "prompts/system.md"
"#,
            ),
            (
                ".agentscope/workspace/AGENTS.md",
                r#"You are a release assistant. Answer in short sentences.
"#,
            ),
            (
                "prompts/system.md",
                r#"You help with releases.
"#,
            ),
        ],
        fixed: &[
            (
                "agentws.toml",
                r#"[agent]
name = "release"
system_prompt_file = "prompts/system.md"
"#,
            ),
            (
                ".agentscope/workspace/AGENTS.md",
                r#"You are a release assistant. Answer in short sentences.
"#,
            ),
            (
                "prompts/system.md",
                r#"You help with releases.
"#,
            ),
        ],
    }],
};

pub static CF006: Rule = Rule {
    code: "CF006",
    name: "config-system-prompt-file-unreadable",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "`agent.system_prompt_file` cannot be read.",
    consequence: "agentws previews and checks with an empty system prompt.",
    explanation:
        "The path is relative to agentws.toml's folder. The file must exist and be UTF-8 text.",
    examples: &[Example {
        triggering: &[
            (
                "agentws.toml",
                r#"[agent]
name = "release"
system_prompt_file = "prompts/system.md"
"#,
            ),
            (
                ".agentscope/workspace/AGENTS.md",
                r#"You are a release assistant. Answer in short sentences.
"#,
            ),
        ],
        fixed: &[
            (
                "agentws.toml",
                r#"[agent]
name = "release"
system_prompt_file = "prompts/system.md"
"#,
            ),
            (
                ".agentscope/workspace/AGENTS.md",
                r#"You are a release assistant. Answer in short sentences.
"#,
            ),
            (
                "prompts/system.md",
                r#"You help with releases.
"#,
            ),
        ],
    }],
};

pub static CF007: Rule = Rule {
    code: "CF007",
    name: "config-agent-name-missing",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "`[agent] name` is not set.",
    consequence: "An agent built without a name has no default session id: every call without an explicit session id fails with a NullPointerException.",
    explanation: "Set `name` in `[agent]` to the name the Java builder gets (`HarnessAgent.builder().name(...)`). \
It is also the default `agentId` used in runtime paths (`agents/<agentId>/…`).",
    examples: &[
        Example {
            triggering: &[
                ("agentws.toml", r#"[agent]
max_context_tokens = 8000
"#),
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
            ],
            fixed: &[
                ("agentws.toml", r#"[agent]
name = "release"
max_context_tokens = 8000
"#),
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
            ],
        },
    ],
};

pub static CF008: Rule = Rule {
    code: "CF008",
    name: "config-sandbox-root-invalid",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "`filesystem.sandbox_root` or `filesystem.workspace_spec_root` is not an absolute container path other than `/`.",
    consequence: "The sandbox filesystem rejects the root (uploads and path mapping need an absolute root).",
    explanation: "Use the container's workspace folder, e.g. `/workspace` (Docker, the default) or \
`/home/user` (E2B).",
    examples: &[
        Example {
            triggering: &[
                ("agentws.toml", r#"[agent]
name = "release"

[filesystem]
mode = "sandbox"
sandbox_root = "workspace"
"#),
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
            ],
            fixed: &[
                ("agentws.toml", r#"[agent]
name = "release"

[filesystem]
mode = "sandbox"
sandbox_root = "/workspace"
"#),
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
            ],
        },
    ],
};

pub static CF009: Rule = Rule {
    code: "CF009",
    name: "config-sandbox-roots-conflict",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "`sandbox_root` and `workspace_spec_root` are both set and differ.",
    consequence: "Since PR #3645 the agent build fails fast when both roots are set explicitly and differ; before it, prompt, normalizer and uploads disagree on the root.",
    explanation: "Set only `sandbox_root` (the spec root follows it), or set both to the same path. \
agentws keeps `sandbox_root` for its own modelling.",
    examples: &[
        Example {
            triggering: &[
                ("agentws.toml", r#"[agent]
name = "release"

[filesystem]
mode = "sandbox"
sandbox_root = "/home/user"
workspace_spec_root = "/workspace"
"#),
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
            ],
            fixed: &[
                ("agentws.toml", r#"[agent]
name = "release"

[filesystem]
mode = "sandbox"
sandbox_root = "/home/user"
"#),
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
            ],
        },
    ],
};

pub static CF010: Rule = Rule {
    code: "CF010",
    name: "config-max-context-tokens",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "`agent.max_context_tokens` is zero or negative.",
    consequence: "The memory budget is exhausted before MEMORY.md: the runtime then injects it in full instead of truncating it.",
    explanation: "Use a positive token budget (the runtime default is 8000).",
    examples: &[
        Example {
            triggering: &[
                ("agentws.toml", r#"[agent]
name = "release"
max_context_tokens = 0
"#),
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
            ],
            fixed: &[
                ("agentws.toml", r#"[agent]
name = "release"
max_context_tokens = 8000
"#),
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
            ],
        },
    ],
};

pub static CF011: Rule = Rule {
    code: "CF011",
    name: "config-blank-value",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A path or id in agentws.toml is blank.",
    consequence: "The setting behaves as if the key were not written.",
    explanation: "Remove the key to use the default, or give it a value.",
    examples: &[Example {
        triggering: &[
            (
                "agentws.toml",
                r#"[agent]
name = "release"
id = "  "
"#,
            ),
            (
                ".agentscope/workspace/AGENTS.md",
                r#"You are a release assistant. Answer in short sentences.
"#,
            ),
        ],
        fixed: &[
            (
                "agentws.toml",
                r#"[agent]
name = "release"
"#,
            ),
            (
                ".agentscope/workspace/AGENTS.md",
                r#"You are a release assistant. Answer in short sentences.
"#,
            ),
        ],
    }],
};

pub static RULES: &[&Rule] = &[
    &CF001, &CF002, &CF003, &CF004, &CF005, &CF006, &CF007, &CF008, &CF009, &CF010, &CF011,
];
