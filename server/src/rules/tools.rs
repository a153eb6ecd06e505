//! tools.json rules (`TJ…`, harness-spec §4 and §9.4). TJ001–TJ019 are found while parsing the
//! file (`workspace::tools`); TJ020 and later need the configuration and the tool catalog
//! (`check::tools`). See the module docs of `rules` for the code scheme.

use super::{Example, Profile, Rule};
use crate::base::Severity;

const WHOLE_FILE: &str =
    "The runtime logs \"Failed to parse tools.json\" and ignores the whole file: default toolkit, no MCP servers, no allow/deny.";

pub static TJ001: Rule = Rule {
    code: "TJ001",
    name: "tools-json-invalid",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "tools.json is not strict JSON (comments, trailing commas, single quotes, unquoted names, NaN, hex, …).",
    consequence: WHOLE_FILE,
    explanation: "The runtime reads tools.json with a default Jackson `ObjectMapper`: strict JSON, no \
comments, no trailing commas, no single quotes, no unquoted names, no `NaN`/`Infinity`/hex/`+1`/`.5`/`01`, \
no raw control characters in strings, no escapes beyond `\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX`, and at most \
1000 levels of nesting. One such construct anywhere makes the whole file fail to parse, and the agent \
silently runs with the default toolkit.\n\nTo document entries, use comment *keys*, which Jackson ignores:\n\n\
```json\n{\n  \"// description\": \"read-only agent\",\n  \"deny\": [\"execute\"]\n}\n```\n\nA trailing comma \
carries a fix that removes it; a single-quoted string without `\"` or `\\` inside, one that switches to \
double quotes.",
    examples: &[
        Example {
            triggering: &[
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["execute"],
}
"#),
            ],
            fixed: &[
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["execute"]
}
"#),
            ],
        },
    ],
};

pub static TJ002: Rule = Rule {
    code: "TJ002",
    name: "tools-json-bom",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "tools.json starts with a UTF-8 byte order mark.",
    consequence: WHOLE_FILE,
    explanation: "The runtime decodes the file to a Java `String` (the BOM stays, as U+FEFF) and hands \
the string to Jackson, whose character-based parser does not skip a BOM: parsing is believed to fail \
(not observed in a running JVM; agentws treats it as failing, see docs/runtime-sources.md). Save the file as UTF-8 without BOM; the fix removes it.",
    examples: &[
        Example {
            triggering: &[
                (".agentscope/workspace/tools.json", "\u{feff}{
  \"deny\": [\"execute\"]
}
"),
            ],
            fixed: &[
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["execute"]
}
"#),
            ],
        },
    ],
};

pub static TJ003: Rule = Rule {
    code: "TJ003",
    name: "tools-json-wrong-type",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "A known tools.json key has a value of the wrong type (or a duration Jackson cannot read).",
    consequence: WHOLE_FILE,
    explanation: "Jackson binds tools.json to typed classes: `allow`/`deny` are lists of strings, \
`mcpServers` an object of server objects, `args`/`enableTools` lists of strings, `env`/`headers`/`queryParams` \
objects of strings, `command`/`url`/`transport` strings, `timeout`/`initializationTimeout` ISO-8601 \
durations (`\"PT30S\"`, as `java.time.Duration.parse` reads them) or a bare number of seconds. Numbers and \
booleans where a string is expected are converted; anything else (`\"allow\": \"read_file\"`, \
`\"mcpServers\": []`, `\"timeout\": \"30s\"`) fails the WHOLE file, not just the entry.",
    examples: &[
        Example {
            triggering: &[
                (".agentscope/workspace/tools.json", r#"{
  "deny": "execute"
}
"#),
            ],
            fixed: &[
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["execute"]
}
"#),
            ],
        },
    ],
};

pub static TJ004: Rule = Rule {
    code: "TJ004",
    name: "tools-json-blank",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "tools.json exists but is blank.",
    consequence: "The local filesystem returns \"System reminder: File exists but has empty contents\" for it; that text is not JSON, so the runtime logs a warning and uses the default toolkit.",
    explanation: "A blank tools.json behaves like no tools.json, but the runtime logs a parse failure at \
every build. Delete the file, or write `{}`.",
    examples: &[
        Example {
            triggering: &[
                (".agentscope/workspace/tools.json", r#"
"#),
            ],
            fixed: &[
                (".agentscope/workspace/tools.json", r#"{}
"#),
            ],
        },
    ],
};

pub static TJ005: Rule = Rule {
    code: "TJ005",
    name: "tools-json-null",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: "tools.json is the literal `null`.",
    consequence: "The runtime reads `null` as no configuration and uses the default toolkit.",
    explanation:
        "Equivalent to having no tools.json. Write `{}` if an empty configuration is meant.",
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/tools.json",
            r#"null
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/tools.json",
            r#"{}
"#,
        )],
    }],
};

pub static TJ006: Rule = Rule {
    code: "TJ006",
    name: "tools-json-unknown-key",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: "tools.json has a key the runtime does not know (at the top level or in a server).",
    consequence: "Ignored: the runtime's JSON reader skips keys it does not know.",
    explanation: "Unknown keys are silently ignored, which is how `\"// comment\"` keys work (those are \
never reported). Any other unknown key is usually a typo (`Allow`, `mcp_servers`, `enabledTools`): names \
are case-sensitive. The message suggests the closest known key.",
    examples: &[
        Example {
            triggering: &[
                (".agentscope/workspace/tools.json", r#"{
  "Deny": ["execute"]
}
"#),
            ],
            fixed: &[
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["execute"]
}
"#),
            ],
        },
    ],
};

pub static TJ007: Rule = Rule {
    code: "TJ007",
    name: "tools-json-env-unset",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A `${NAME}` in tools.json names an environment variable that is not set here.",
    consequence: "The runtime substitutes an empty string (and logs a warning) when the variable is unset at build time.",
    explanation: "The runtime replaces every `${NAME}` (regex `\\$\\{([A-Za-z_][A-Za-z0-9_]*)}`) in the raw \
text before parsing, with the process environment's value or `\"\"`. There is no default syntax \
(`${A:-b}` stays as written) and no escaping (`$${A}` is `$` plus the value). agentws checks against the \
environment it runs in; make sure the agent's environment sets the variable.",
    examples: &[],
};

pub static TJ008: Rule = Rule {
    code: "TJ008",
    name: "tools-json-env-breaks-json",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "An environment value substituted into tools.json contains `\"`, `\\` or a control character.",
    consequence: "Values are inserted unescaped: the JSON can break (then the whole file is ignored) or the value changes meaning.",
    explanation: "Substitution happens on the raw text, so a value like `C:\\tools` or `say \"hi\"` is \
pasted into the JSON as is: a `\"` ends the string early, a `\\` starts an escape, a line break is a raw \
control character. When this breaks the JSON in the current environment, the message says so and the \
file counts as ignored. Use values without these characters, or put the whole value in the file.",
    examples: &[],
};

pub static TJ009: Rule = Rule {
    code: "TJ009",
    name: "tools-json-duplicate-key",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "A name appears twice in one tools.json object.",
    consequence: "The runtime keeps the last value; the earlier one is silently discarded.",
    explanation: "Two `allow` lists or two servers with the same name do not merge: only the last one \
counts (for `mcpServers`, the server keeps the position of its first occurrence). Merge them into one.",
    examples: &[
        Example {
            triggering: &[
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["execute"],
  "deny": ["web_fetch"]
}
"#),
            ],
            fixed: &[
                (".agentscope/workspace/tools.json", r#"{
  "deny": ["execute", "web_fetch"]
}
"#),
            ],
        },
    ],
};

pub static TJ010: Rule = Rule {
    code: "TJ010",
    name: "tools-json-trailing-content",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "tools.json has text after its JSON value.",
    consequence: "The runtime reads one JSON value and stops: everything after it is never read.",
    explanation:
        "`ObjectMapper.readValue` does not fail on trailing tokens by default, so a second \
object, a comment or leftover text after the closing `}` is silently ignored. Anything meant to be \
configured there has no effect.",
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/tools.json",
            r#"{
  "deny": ["execute"]
}
{
  "deny": ["web_fetch"]
}
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/tools.json",
            r#"{
  "deny": ["execute", "web_fetch"]
}
"#,
        )],
    }],
};

pub static TJ011: Rule = Rule {
    code: "TJ011",
    name: "mcp-transport-missing",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "An MCP server has no `transport`.",
    consequence: "Registering the server fails (\"Failed to register MCP server\"): the server is skipped, the others continue.",
    explanation: "Every server needs `\"transport\"`: `stdio`, `sse`, `http`, `streamable-http` or \
`streamablehttp` (case-insensitive, so `streamableHttp` works).",
    examples: &[
        Example {
            triggering: &[
                (".agentscope/workspace/tools.json", r#"{
  "mcpServers": {
    "github": {
      "command": "github-mcp-server",
      "args": ["stdio"]
    }
  }
}
"#),
            ],
            fixed: &[
                (".agentscope/workspace/tools.json", r#"{
  "mcpServers": {
    "github": {
      "transport": "stdio",
      "command": "github-mcp-server",
      "args": ["stdio"]
    }
  }
}
"#),
            ],
        },
    ],
};

pub static TJ012: Rule = Rule {
    code: "TJ012",
    name: "mcp-transport-unsupported",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "An MCP server's `transport` is not one the runtime supports.",
    consequence: "The runtime logs that the transport is unsupported and skips the server; the others are registered.",
    explanation: "The transport is lower-cased and matched against `stdio`, `sse`, `http`, \
`streamable-http`, `streamablehttp`. `streamable_http` (underscore) is not accepted; the fix renames \
it to `streamable-http`.",
    examples: &[
        Example {
            triggering: &[
                (".agentscope/workspace/tools.json", r#"{
  "mcpServers": {
    "github": {
      "transport": "streamable_http",
      "url": "https://api.githubcopilot.com/mcp/"
    }
  }
}
"#),
            ],
            fixed: &[
                (".agentscope/workspace/tools.json", r#"{
  "mcpServers": {
    "github": {
      "transport": "streamable-http",
      "url": "https://api.githubcopilot.com/mcp/"
    }
  }
}
"#),
            ],
        },
    ],
};

pub static TJ013: Rule = Rule {
    code: "TJ013",
    name: "mcp-missing-command-or-url",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "A stdio server has no `command`, or an sse/http server has no `url`.",
    consequence: "Registering the server fails: the server is skipped, the others continue.",
    explanation: "`stdio` servers are started with `command` (+ `args`, `env`); `sse` and `http` \
servers are reached at `url` (+ `headers`, `queryParams`). A blank value counts as missing.",
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/tools.json",
            r#"{
  "mcpServers": {
    "github": {
      "transport": "stdio",
      "args": ["stdio"]
    }
  }
}
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/tools.json",
            r#"{
  "mcpServers": {
    "github": {
      "transport": "stdio",
      "command": "github-mcp-server",
      "args": ["stdio"]
    }
  }
}
"#,
        )],
    }],
};

pub static TJ014: Rule = Rule {
    code: "TJ014",
    name: "mcp-irrelevant-field",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "An MCP server sets a field its transport does not use (`headers` on stdio, `command` on http, …).",
    consequence: "The server is registered without it.",
    explanation: "`command`, `args` and `env` only apply to `stdio`; `url`, `headers` and `queryParams` \
only to `sse` and `http`. A field for the other transport usually means the transport is wrong.",
    examples: &[
        Example {
            triggering: &[
                (".agentscope/workspace/tools.json", r#"{
  "mcpServers": {
    "github": {
      "transport": "stdio",
      "command": "github-mcp-server",
      "args": ["stdio"],
      "headers": {"Authorization": "Bearer token"}
    }
  }
}
"#),
            ],
            fixed: &[
                (".agentscope/workspace/tools.json", r#"{
  "mcpServers": {
    "github": {
      "transport": "stdio",
      "command": "github-mcp-server",
      "args": ["stdio"]
    }
  }
}
"#),
            ],
        },
    ],
};

pub static TJ015: Rule = Rule {
    code: "TJ015",
    name: "mcp-enable-tools-empty",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: "An MCP server has `enableTools: []`.",
    consequence: "An empty list means no restriction: every tool of the server is registered.",
    explanation:
        "`enableTools` restricts which of the server's tools are registered, but an empty \
list is the same as leaving it out. To register none of them, remove the server.",
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/tools.json",
            r#"{
  "mcpServers": {
    "github": {
      "transport": "stdio",
      "command": "github-mcp-server",
      "args": ["stdio"],
      "enableTools": []
    }
  }
}
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/tools.json",
            r#"{
  "mcpServers": {
    "github": {
      "transport": "stdio",
      "command": "github-mcp-server",
      "args": ["stdio"]
    }
  }
}
"#,
        )],
    }],
};

pub static TJ016: Rule = Rule {
    code: "TJ016",
    name: "mcp-server-skipped",
    severity: Severity::Error,
    profile: Profile::Harness,
    summary: "An MCP server has a blank name or a `null` configuration.",
    consequence: "The runtime logs a warning and skips the server.",
    explanation: "Each entry of `mcpServers` needs a non-blank name and an object value.",
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/tools.json",
            r#"{
  "mcpServers": {
    "github": null
  }
}
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/tools.json",
            r#"{
  "mcpServers": {}
}
"#,
        )],
    }],
};

pub static TJ017: Rule = Rule {
    code: "TJ017",
    name: "tools-json-coerced-value",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: "A number or boolean is used where tools.json expects a string.",
    consequence: "The runtime converts it to its text (`1` becomes \"1\").",
    explanation:
        "Usually harmless, but a tool named `1` or an argument `true` is rarely what was meant.",
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/tools.json",
            r#"{
  "mcpServers": {
    "github": {
      "transport": "stdio",
      "command": "npx",
      "args": ["mcp-server-http", "--port", 8080]
    }
  }
}
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/tools.json",
            r#"{
  "mcpServers": {
    "github": {
      "transport": "stdio",
      "command": "npx",
      "args": ["mcp-server-http", "--port", "8080"]
    }
  }
}
"#,
        )],
    }],
};

pub static TJ018: Rule = Rule {
    code: "TJ018",
    name: "tools-json-not-analysed",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: "tools.json is nested too deeply, or grows too large after substitution, for agentws to analyse.",
    consequence: "agentws cannot tell what the runtime makes of this file.",
    explanation: "agentws builds a tree only up to 200 levels of nesting and 32 MiB of substituted text. \
The runtime accepts up to 1000 levels; nothing realistic comes close to either.",
    examples: &[
        Example {
            triggering: &[
                (".agentscope/workspace/tools.json", r#"{"deny": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}
"#),
            ],
            fixed: &[
                (".agentscope/workspace/tools.json", r#"{"deny": ["execute"]}
"#),
            ],
        },
    ],
};

pub static TJ019: Rule = Rule {
    code: "TJ019",
    name: "tools-json-null-value",
    severity: Severity::Info,
    profile: Profile::Harness,
    summary: "A tools.json value is `null` where a list or object is expected.",
    consequence: "The runtime reads `null` as not set.",
    explanation: "`\"allow\": null` is the same as leaving `allow` out.",
    examples: &[Example {
        triggering: &[(
            ".agentscope/workspace/tools.json",
            r#"{
  "allow": null,
  "deny": ["execute"]
}
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/tools.json",
            r#"{
  "deny": ["execute"]
}
"#,
        )],
    }],
};

pub static RULES: &[&Rule] = &[
    &TJ001, &TJ002, &TJ003, &TJ004, &TJ005, &TJ006, &TJ007, &TJ008, &TJ009, &TJ010, &TJ011, &TJ012,
    &TJ013, &TJ014, &TJ015, &TJ016, &TJ017, &TJ018, &TJ019,
];
