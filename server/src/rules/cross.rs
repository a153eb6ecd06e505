//! Cross-file rules (harness-spec §9.5): references between files that the runtime never checks.

use super::{Example, Profile, Rule};
use crate::base::Severity;

pub static XR001: Rule = Rule {
    code: "XR001",
    name: "subagent-tool-unknown",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A subagent's `tools:` names tools the agent does not register (one diagnostic per list).",
    consequence: "These names keep nothing: a non-empty `tools:` keeps only the inherited tools it names, so a list of only such names leaves the child none of the parent's own tools.",
    explanation:
        "`tools:` chooses, by exact and case-sensitive name, which of the parent's own \
(user-registered) tools the child inherits: every inherited tool the list does not name is removed. \
A name that is not registered (a typo, a feature switched off, a tool of a skipped MCP server) keeps \
nothing; a list made only of such names leaves the child none of the parent's own tools. The harness \
built-ins are not affected either way (see XR003). One diagnostic covers the whole list and names every \
unknown entry.

Collections written for other agent runtimes repeat the same list (Claude Code's `Read, Grep, Glob`) in \
every file. The same set of unknown names (in any order) is one finding: the first file in path order \
gets the warning, whose message says how many other files name the same unknown tools, and each of \
those gets an info at its own `tools:` line saying `same as in <first file>`, with the first file as \
related location. The key is the whole set, not each name: a list with one more unknown name is a new \
finding, since it is the list that decides what the child keeps. A list no other file repeats is a \
plain warning.",
    examples: &[
        Example {
            triggering: &[
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
                (".agentscope/workspace/subagents/researcher.md", r#"---
description: Researches questions on the web.
tools: Read, Grep, Glob
---
You research a question and answer with sources.
"#),
            ],
            fixed: &[
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
                (".agentscope/workspace/subagents/researcher.md", r#"---
description: Researches questions on the web.
---
You research a question and answer with sources.
"#),
            ],
        },
    ],
};

pub static XR002: Rule = Rule {
    code: "XR002",
    name: "subagent-tool-removed",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary:
        "A subagent's `tools:` names a tool that tools.json removes (deny, or left out of allow).",
    consequence: "Naming it in `tools:` has no effect: the child runs without it.",
    explanation:
        "tools.json `allow`/`deny` is applied once at build to the main agent's toolkit; the \
child only inherits what survived. Allow the tool in tools.json or drop it from `tools:`.",
    examples: &[Example {
        triggering: &[
            (
                ".agentscope/workspace/AGENTS.md",
                r#"You are a release assistant. Answer in short sentences.
"#,
            ),
            (
                ".agentscope/workspace/tools.json",
                r#"{
  "deny": ["create_issue"],
  "mcpServers": {
    "github": {
      "transport": "stdio",
      "command": "github-mcp-server",
      "args": ["stdio"],
      "enableTools": ["search_issues", "create_issue"]
    }
  }
}
"#,
            ),
            (
                ".agentscope/workspace/subagents/researcher.md",
                r#"---
description: Researches questions on the web.
tools: [search_issues, create_issue]
---
You research a question and answer with sources.
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
                ".agentscope/workspace/tools.json",
                r#"{
  "deny": ["create_issue"],
  "mcpServers": {
    "github": {
      "transport": "stdio",
      "command": "github-mcp-server",
      "args": ["stdio"],
      "enableTools": ["search_issues", "create_issue"]
    }
  }
}
"#,
            ),
            (
                ".agentscope/workspace/subagents/researcher.md",
                r#"---
description: Researches questions on the web.
tools: [search_issues]
---
You research a question and answer with sources.
"#,
            ),
        ],
    }],
};

pub static XR003: Rule = Rule {
    code: "XR003",
    name: "subagent-tool-builtin",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: "Subagents' `tools:` lists name harness built-in tools (said once per workspace).",
    consequence: "Built-ins are re-registered by every child: listing them restricts nothing, and leaving them out removes nothing.",
    explanation: "`tools:` only filters user-registered tools inherited from the parent builder. \
`read_file`, `memory_search`, `execute` and the other harness tools are always present in the child. \
The fact holds for every list that names a built-in, so it is reported once, at the first one.",
    examples: &[
        Example {
            triggering: &[
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
                (".agentscope/workspace/tools.json", r#"{
  "mcpServers": {
    "github": {
      "transport": "stdio",
      "command": "github-mcp-server",
      "args": ["stdio"],
      "enableTools": ["search_issues", "create_issue"]
    }
  }
}
"#),
                (".agentscope/workspace/subagents/researcher.md", r#"---
description: Researches questions on the web.
tools: [search_issues, read_file]
---
You research a question and answer with sources.
"#),
            ],
            fixed: &[
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
                (".agentscope/workspace/tools.json", r#"{
  "mcpServers": {
    "github": {
      "transport": "stdio",
      "command": "github-mcp-server",
      "args": ["stdio"],
      "enableTools": ["search_issues", "create_issue"]
    }
  }
}
"#),
                (".agentscope/workspace/subagents/researcher.md", r#"---
description: Researches questions on the web.
tools: [search_issues]
---
You research a question and answer with sources.
"#),
            ],
        },
    ],
};

pub static XR004: Rule = Rule {
    code: "XR004",
    name: "subagent-skill-unknown",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A subagent's `skills:` names a skill that no workspace folder defines.",
    consequence:
        "The subagent's skill list matches nothing for that name: the child sees no such skill.",
    explanation:
        "The runtime turns `skills:` into `SkillFilter.only(...)`, which matches the frontmatter `name` exactly (not the folder name). Check the \
spelling against the skill's `name:`.",
    examples: &[
        Example {
            triggering: &[
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
                (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
                (".agentscope/workspace/subagents/researcher.md", r#"---
description: Researches questions on the web.
skills: [pdf-tools]
---
You research a question and answer with sources.
"#),
            ],
            fixed: &[
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
                (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
                (".agentscope/workspace/subagents/researcher.md", r#"---
description: Researches questions on the web.
skills: [pdf]
---
You research a question and answer with sources.
"#),
            ],
        },
    ],
};

pub static XR005: Rule = Rule {
    code: "XR005",
    name: "duplicate-skill-name",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "Two skills have the same `name`.",
    consequence: "The runtime keeps one of them silently (the later layer or path wins, at the first one's position).",
    explanation: "Skills are merged by name across layers: Layer 3 (`<ws>/skills/*`), Layer 4 lower \
(`<project>/skills/**`), Layer 4 upper (`<ws>/<ns>/skills/**`, or `<ws>/skills/**` when the namespace \
is empty). A later layer wins; within a layer the later path wins. Rename one of them.",
    examples: &[
        Example {
            triggering: &[
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
                ("agentws.toml", r#"[agent]
name = "docs"

[isolation]
scope = "agent"
"#),
                (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
                (".agentscope/workspace/skills/pdf-v2/SKILL.md", r#"---
name: pdf
description: Read and fill PDF forms.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
            ],
            fixed: &[
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
                ("agentws.toml", r#"[agent]
name = "docs"

[isolation]
scope = "agent"
"#),
                (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
                (".agentscope/workspace/skills/pdf-v2/SKILL.md", r#"---
name: pdf-v2
description: Read and fill PDF forms.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
            ],
        },
    ],
};

pub static XR006: Rule = Rule {
    code: "XR006",
    name: "skill-overridden-per-user",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: "A per-user folder overrides a shared skill of the same name.",
    consequence:
        "That user's calls get the per-user copy; everyone else gets the shared (or project) one.",
    explanation: "This is how per-user overrides work; the diagnostic makes the override visible.",
    examples: &[Example {
        triggering: &[
            (
                ".agentscope/workspace/AGENTS.md",
                r#"You are a release assistant. Answer in short sentences.
"#,
            ),
            (
                ".agentscope/workspace/skills/pdf/SKILL.md",
                r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
            ),
            (
                ".agentscope/workspace/alice/skills/pdf/SKILL.md",
                r#"---
name: pdf
description: Read PDF files with OCR.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
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
                ".agentscope/workspace/skills/pdf/SKILL.md",
                r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
            ),
            (
                ".agentscope/workspace/alice/skills/pdf-ocr/SKILL.md",
                r#"---
name: pdf-ocr
description: Read PDF files with OCR.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
            ),
        ],
    }],
};

pub static XR007: Rule = Rule {
    code: "XR007",
    name: "duplicate-subagent-id",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "Two subagent specs give the same agent id.",
    consequence: "Dynamic mode keeps the later one at the first one's position; static mode keeps the earlier one.",
    explanation: "The agent id is the file name without `.md`, wherever the file sits under `subagents/`. \
Rename one of the files.",
    examples: &[
        Example {
            triggering: &[
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
                ("agentws.toml", r#"[agent]
name = "docs"

[isolation]
scope = "agent"
"#),
                (".agentscope/workspace/subagents/researcher.md", r#"---
description: Researches questions on the web.
---
You research a question and answer with sources.
"#),
                (".agentscope/workspace/subagents/web/researcher.md", r#"---
description: Searches the web.
---
You research a question and answer with sources.
"#),
            ],
            fixed: &[
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
                ("agentws.toml", r#"[agent]
name = "docs"

[isolation]
scope = "agent"
"#),
                (".agentscope/workspace/subagents/researcher.md", r#"---
description: Researches questions on the web.
---
You research a question and answer with sources.
"#),
                (".agentscope/workspace/subagents/web/web-researcher.md", r#"---
description: Searches the web.
---
You research a question and answer with sources.
"#),
            ],
        },
    ],
};

pub static XR008: Rule = Rule {
    code: "XR008",
    name: "subagent-workspace-in-subagents",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A subagent's `workspace.path` points inside `subagents/`.",
    consequence:
        "Its AGENTS.md is globbed as a subagent named `AGENTS` and dropped for lacking frontmatter.",
    explanation:
        "Keep subagent workspaces outside the `subagents/` folder, e.g. under `agents/<id>/`.",
    examples: &[Example {
        triggering: &[
            (
                ".agentscope/workspace/AGENTS.md",
                r#"You are a release assistant. Answer in short sentences.
"#,
            ),
            (
                ".agentscope/workspace/subagents/researcher.md",
                r#"---
description: Researches questions on the web.
workspace:
  path: subagents/researcher-home
---
"#,
            ),
            (
                ".agentscope/workspace/subagents/researcher-home/AGENTS.md",
                r#"You research a question and answer with sources.
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

pub static XR009: Rule = Rule {
    code: "XR009",
    name: "subagent-workspace-missing",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A subagent's `workspace.path` folder, or its AGENTS.md, does not exist.",
    consequence: "The subagent's system prompt base is empty (silently): it runs with only the generic subagent section.",
    explanation: "With `workspace.path` set, the prompt base is `<path>/AGENTS.md` and the inline body \
is ignored. Create the file or remove `workspace.path`.",
    examples: &[
        Example {
            triggering: &[
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
                (".agentscope/workspace/subagents/researcher.md", r#"---
description: Researches questions on the web.
workspace:
  path: researcher-home
---
"#),
            ],
            fixed: &[
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
                (".agentscope/workspace/subagents/researcher.md", r#"---
description: Researches questions on the web.
workspace:
  path: researcher-home
---
"#),
                (".agentscope/workspace/researcher-home/AGENTS.md", r#"You research a question and answer with sources.
"#),
            ],
        },
    ],
};

pub static XR010: Rule = Rule {
    code: "XR010",
    name: "removed-tool-mentioned",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: "AGENTS.md or a skill mentions a tool that tools.json removes.",
    consequence: "The model is told about a tool it does not have.",
    explanation: "The prompt text is not checked against the toolkit. Reword the instruction or allow the tool.",
    examples: &[
        Example {
            triggering: &[
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Run the tests with `execute` before tagging.
"#),
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["execute"]
}
"#),
            ],
            fixed: &[
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Ask the user to run the tests before tagging.
"#),
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["execute"]
}
"#),
            ],
        },
    ],
};

pub static XR011: Rule = Rule {
    code: "XR011",
    name: "subagent-skill-other-user",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A subagent's `skills:` names a skill that only some per-user folders define.",
    consequence:
        "Only those users' calls see the skill; for everyone else the filter matches nothing.",
    explanation: "Move the skill to the shared `skills/` folder if every user should have it.",
    examples: &[Example {
        triggering: &[
            (
                ".agentscope/workspace/AGENTS.md",
                r#"You are a release assistant. Answer in short sentences.
"#,
            ),
            (
                ".agentscope/workspace/alice/skills/pdf/SKILL.md",
                r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
            ),
            (
                ".agentscope/workspace/subagents/researcher.md",
                r#"---
description: Researches questions on the web.
skills: [pdf]
---
You research a question and answer with sources.
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
                ".agentscope/workspace/skills/pdf/SKILL.md",
                r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#,
            ),
            (
                ".agentscope/workspace/subagents/researcher.md",
                r#"---
description: Researches questions on the web.
skills: [pdf]
---
You research a question and answer with sources.
"#,
            ),
        ],
    }],
};

pub static XR012: Rule = Rule {
    code: "XR012",
    name: "skill-name-tie-directory-order",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "Two skills of the shared `skills/` folder have the same `name`, and nothing later in the merge decides between them.",
    consequence: "The JVM's directory-listing order decides which one the runtime keeps; it can differ between machines and file systems.",
    explanation: "Layer 3 (`FileSystemSkillRepository(<ws>/skills)`) lists its folder with `Files.list`, \
unsorted (`FileSystemSkillRepository.java`; docs/runtime-sources.md), and the later of two same-name skills wins. When no later layer \
re-reads the name (the default `user` scope: the namespaced repository reads `<ws>/<ns>/skills`), \
the winner depends on the operating system's directory order. `agentws preview` lists Layer 3 in \
Java `String` order of `<folder>/SKILL.md` for determinism, shows the last of the tied files, and \
notes the tie; `agentws check` reports it on every tied file. Rename one of them.",
    examples: &[
        Example {
            triggering: &[
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
                (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
                (".agentscope/workspace/skills/pdf-v2/SKILL.md", r#"---
name: pdf
description: Read and fill PDF forms.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
            ],
            fixed: &[
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
                (".agentscope/workspace/skills/pdf/SKILL.md", r#"---
name: pdf
description: Read, merge and split PDF files.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
                (".agentscope/workspace/skills/pdf-v2/SKILL.md", r#"---
name: pdf-v2
description: Read and fill PDF forms.
---

# PDF

Run `pdftotext -layout in.pdf out.txt` to read a PDF.
"#),
            ],
        },
    ],
};

pub static XR015: Rule = Rule {
    code: "XR015",
    name: "subagent-tool-removed-builtin",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A subagent's `tools:` names a harness built-in that tools.json removes.",
    consequence: "An isolated subagent registers the built-ins again and keeps the tool whatever tools.json says; a shared one reads the same tools.json and does not get it whatever `tools:` says.",
    explanation: "tools.json applies to the main agent's toolkit. An isolated child is a new agent that \
registers `read_file`, `execute`, the memory tools and the other built-ins itself, so a tool denied for \
the main agent is still there in the child. A shared child uses the main workspace and its tools.json, \
so the tool is gone there too and naming it in `tools:` brings nothing back. Either way `tools:` does \
not decide it: remove the tool in the builder (`disableShellTool()`, …) to take it from every agent.",
    examples: &[
        Example {
            triggering: &[
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["execute"]
}
"#),
                (".agentscope/workspace/subagents/researcher.md", r#"---
description: Researches questions on the web.
tools: [execute]
---
You research a question and answer with sources.
"#),
            ],
            fixed: &[
                (".agentscope/workspace/AGENTS.md", r#"You are a release assistant. Answer in short sentences.
"#),
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["execute"]
}
"#),
                (".agentscope/workspace/subagents/researcher.md", r#"---
description: Researches questions on the web.
---
You research a question and answer with sources.
"#),
            ],
        },
    ],
};

pub static XR016: Rule = Rule {
    code: "XR016",
    name: "skill-linked-twice",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: "Two skill folders are the same files, reached through a symbolic link.",
    consequence: "The runtime loads the skill twice under one name; both copies are the same text, so which one wins makes no difference.",
    explanation: "A symbolic link inside `skills/` (for example `skills/pdf -> ../shared/pdf`, next to \
the real folder) makes the scans see the same SKILL.md twice. This is not a conflict between two \
skills; remove the link if it is not needed.",
    examples: &[],
};

pub static RULES: &[&Rule] = &[
    &XR001, &XR002, &XR003, &XR004, &XR005, &XR006, &XR007, &XR008, &XR009, &XR010, &XR011, &XR012,
    &XR015, &XR016,
];
