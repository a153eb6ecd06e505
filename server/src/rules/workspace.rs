//! Rules for the workspace as a whole and its plain files (AGENTS.md, MEMORY.md, knowledge,
//! additional context files): harness-spec §9.1.

use super::{Example, Profile, Rule};
use crate::base::Severity;

pub static WS001: Rule = Rule {
    code: "WS001",
    name: "workspace-missing",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "The configured workspace folder does not exist.",
    consequence: "The runtime logs a WARN and builds the agent anyway, with no workspace files.",
    explanation: "`WorkspaceManager.validate()` only logs \"Workspace directory does not exist\". Every \
workspace file (AGENTS.md, skills, subagents, tools.json) is then simply absent. Check `workspace` in \
agentws.toml, or create `.agentscope/workspace/`.",
    examples: &[
        Example {
            triggering: &[
                ("agentws.toml", r#"workspace = "agent-files"
"#),
            ],
            fixed: &[
                ("agentws.toml", r#"workspace = "agent-files"
"#),
                ("agent-files/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
            ],
        },
    ],
};

pub static WS002: Rule = Rule {
    code: "WS002",
    name: "agents-md-missing",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "The workspace has no AGENTS.md (neither shared nor in the project folder).",
    consequence:
        "The runtime logs a WARN and injects an empty `<agents_context>`: the agent has no persona.",
    explanation:
        "AGENTS.md is the only file the documentation calls needed. Without it the prompt's \
`<agents_context></agents_context>` is empty. Create `AGENTS.md` in the workspace.",
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/MEMORY.md",
            r#"- The release branch is `main`.
"#,
        )],
        fixed: &[
            (
                ".agentscope/workspace/MEMORY.md",
                r#"- The release branch is `main`.
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

pub static WS003: Rule = Rule {
    code: "WS003",
    name: "blank-injected-file",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "An injected file (AGENTS.md, MEMORY.md, an additional context file) exists but is blank.",
    consequence: "The runtime injects the literal text `System reminder: File exists but has empty contents` in its place.",
    explanation: "The local filesystem answers a read of a blank file with a reminder string, which is \
not empty, so it is injected verbatim into the prompt. Fill the file or delete it.",
    examples: &[
        Example {
            triggering: &[
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
                (".agentscope/workspace/MEMORY.md", r#"
"#),
            ],
            fixed: &[
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
            ],
        },
    ],
};

pub static WS004: Rule = Rule {
    code: "WS004",
    name: "file-not-utf8",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "A workspace file is not valid UTF-8 text (or is a binary file with a workspace file's name).",
    consequence: "The runtime cannot read it as UTF-8 text; the file is skipped or its content garbled.",
    explanation: "All workspace files are read as UTF-8. Re-save the file as UTF-8, or remove the binary \
file that carries a workspace file's name.",
    examples: &[],
};

pub static WS005: Rule = Rule {
    code: "WS005",
    name: "file-too-large",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A workspace file is larger than agentws reads (16 MiB).",
    consequence: "The runtime reads it whole and injects or parses all of it; agentws did not check its content.",
    explanation: "No hand-written workspace file should come near this size; the runtime would put all of \
it into the prompt or parse it on every call. Split it or move it out of the workspace.",
    examples: &[],
};

pub static WS006: Rule = Rule {
    code: "WS006",
    name: "walk-failed",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A folder could not be walked (symbolic link loop, permission denied).",
    consequence:
        "The runtime's scan may fail or loop the same way; files below it were not checked.",
    explanation: "Remove the symbolic link loop or fix the folder's permissions.",
    examples: &[],
};

pub static WS007: Rule = Rule {
    code: "WS007",
    name: "file-unreadable",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "A workspace file exists but cannot be read.",
    consequence:
        "The runtime's read fails: the file is skipped (skills, subagents) or treated as missing.",
    explanation: "Fix the file's permissions.",
    examples: &[],
};

pub static WS008: Rule = Rule {
    code: "WS008",
    name: "additional-context-escapes",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "An additional context file path escapes the workspace.",
    consequence: "The runtime silently reads nothing: the tag is omitted from the prompt.",
    explanation:
        "`additionalContextFile` paths are resolved under the workspace; one whose normalized \
path leaves it yields empty content. Move the file into the workspace.",
    examples: &[Example {
        triggering: &[
            (
                "agentws.toml",
                r#"[agent]
name = "release"
additional_context_files = ["../STYLE.md"]
"#,
            ),
            (
                ".agentscope/workspace/AGENTS.md",
                r#"You are a release assistant. Answer in short sentences.
"#,
            ),
            (
                ".agentscope/STYLE.md",
                r#"Write dates as YYYY-MM-DD.
"#,
            ),
        ],
        fixed: &[
            (
                "agentws.toml",
                r#"[agent]
name = "release"
additional_context_files = ["STYLE.md"]
"#,
            ),
            (
                ".agentscope/workspace/AGENTS.md",
                r#"You are a release assistant. Answer in short sentences.
"#,
            ),
            (
                ".agentscope/workspace/STYLE.md",
                r#"Write dates as YYYY-MM-DD.
"#,
            ),
        ],
    }],
};

pub static WS009: Rule = Rule {
    code: "WS009",
    name: "additional-context-dotdot",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary:
        "An additional context file path contains a `..` segment (even one that stays inside).",
    consequence:
        "The runtime throws IllegalArgumentException while building the prompt: every call fails.",
    explanation:
        "The project layer is always SANDBOXED and rejects `..` segments, so `a/../b.md` fails \
the call in every path mode. Write the normalized path (`b.md`).",
    examples: &[Example {
        triggering: &[
            (
                "agentws.toml",
                r#"[agent]
name = "release"
additional_context_files = ["notes/../NOTES.md"]
"#,
            ),
            (
                ".agentscope/workspace/AGENTS.md",
                r#"You are a release assistant. Answer in short sentences.
"#,
            ),
            (
                ".agentscope/workspace/NOTES.md",
                r#"Deploys are frozen on Fridays.
"#,
            ),
        ],
        fixed: &[
            (
                "agentws.toml",
                r#"[agent]
name = "release"
additional_context_files = ["NOTES.md"]
"#,
            ),
            (
                ".agentscope/workspace/AGENTS.md",
                r#"You are a release assistant. Answer in short sentences.
"#,
            ),
            (
                ".agentscope/workspace/NOTES.md",
                r#"Deploys are frozen on Fridays.
"#,
            ),
        ],
    }],
};

pub static WS010: Rule = Rule {
    code: "WS010",
    name: "additional-context-binary",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "An additional context file has a binary extension (.png, .pdf, …).",
    consequence:
        "The local filesystem returns it base64-encoded, and that text is injected into the prompt.",
    explanation: "Binary files are not useful prompt context. Convert the content to Markdown.",
    examples: &[Example {
        triggering: &[
            (
                "agentws.toml",
                r#"[agent]
name = "release"
additional_context_files = ["calendar.pdf"]
"#,
            ),
            (
                ".agentscope/workspace/AGENTS.md",
                r#"You are a release assistant. Answer in short sentences.
"#,
            ),
            (
                ".agentscope/workspace/calendar.pdf",
                r#"%PDF-1.4
"#,
            ),
        ],
        fixed: &[
            (
                "agentws.toml",
                r#"[agent]
name = "release"
additional_context_files = ["calendar.md"]
"#,
            ),
            (
                ".agentscope/workspace/AGENTS.md",
                r#"You are a release assistant. Answer in short sentences.
"#,
            ),
            (
                ".agentscope/workspace/calendar.md",
                r#"Deploys are frozen on Fridays.
"#,
            ),
        ],
    }],
};

pub static WS011: Rule = Rule {
    code: "WS011",
    name: "additional-context-missing",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A configured additional context file exists in no tree.",
    consequence: "The runtime reads empty content and omits the tag from the prompt.",
    explanation: "Create the file in the workspace, or remove it from `additional_context_files`.",
    examples: &[Example {
        triggering: &[
            (
                "agentws.toml",
                r#"[agent]
name = "release"
additional_context_files = ["NOTES.md"]
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
additional_context_files = ["NOTES.md"]
"#,
            ),
            (
                ".agentscope/workspace/AGENTS.md",
                r#"You are a release assistant. Answer in short sentences.
"#,
            ),
            (
                ".agentscope/workspace/NOTES.md",
                r#"Deploys are frozen on Fridays.
"#,
            ),
        ],
    }],
};

pub static WS012: Rule = Rule {
    code: "WS012",
    name: "memory-over-budget",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: "MEMORY.md does not fit in the remaining memory budget.",
    consequence: "The runtime cuts MEMORY.md and appends a truncation notice; when no budget is left at all, it injects MEMORY.md whole.",
    explanation: "`maxContextTokens` (default 8000) minus the session context, AGENTS.md, knowledge and \
additional files is what MEMORY.md may use, counted as UTF-16 length / 4. Consolidate MEMORY.md.",
    examples: &[
        Example {
            triggering: &[
                ("agentws.toml", r#"[agent]
name = "release"
max_context_tokens = 200
"#),
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
                (".agentscope/workspace/MEMORY.md", r#"- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
- The release branch is `main`; tags are `vX.Y.Z`.
"#),
            ],
            fixed: &[
                ("agentws.toml", r#"[agent]
name = "release"
max_context_tokens = 200
"#),
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
                (".agentscope/workspace/MEMORY.md", r#"- Releases: `main`, tags `vX.Y.Z`.
"#),
            ],
        },
    ],
};

pub static WS013: Rule = Rule {
    code: "WS013",
    name: "project-fallback-file",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: "A workspace file exists in the project folder, the overlay's lower layer.",
    consequence: "The runtime uses it whenever the workspace has no non-empty copy of its own.",
    explanation:
        "The default local overlay reads `<project>/<path>` when `<workspace>/<ns>/<path>` is \
missing or empty, and the project defaults to the JVM's working folder. This is often unintended. \
Only the local filesystem has that overlay: in sandbox and remote mode the project folder is not \
read and nothing is reported.",
    examples: &[Example {
        triggering: &[
            (
                ".agentscope/workspace/AGENTS.md",
                r#"You are a release assistant. Answer in short sentences.
"#,
            ),
            (
                "MEMORY.md",
                r#"- The release branch is `main`.
"#,
            ),
        ],
        fixed: &[
            (
                ".agentscope/workspace/AGENTS.md",
                r#"You are a release assistant. Answer in short sentences.
"#,
            ),
            (
                ".agentscope/workspace/MEMORY.md",
                r#"- The release branch is `main`.
"#,
            ),
        ],
    }],
};

pub static WS014: Rule = Rule {
    code: "WS014",
    name: "not-a-regular-file",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "A named pipe (FIFO), socket or device sits where a workspace file is expected.",
    consequence: "agentws did not open it. The runtime opens it like a file: a named pipe makes the read wait \
                  until some process writes to it (the agent build or the call hangs), a socket cannot be \
                  opened (the read fails), a device gives whatever the device produces.",
    explanation: "Workspace files (AGENTS.md, MEMORY.md, SKILL.md, subagent specs, tools.json, additional \
context files, agentws.toml) must be regular files. agentws checks the type before opening anything \
and never reads such a path, so a pipe cannot block the check, the preview or the language server. \
Replace it with a regular file, or remove it.",
    examples: &[],
};

pub static RULES: &[&Rule] = &[
    &WS001, &WS002, &WS003, &WS004, &WS005, &WS006, &WS007, &WS008, &WS009, &WS010, &WS011, &WS012,
    &WS013, &WS014,
];
