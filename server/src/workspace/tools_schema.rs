//! The one description of tools.json's keys for tools other than the parser: documentation per
//! key (language-server completion and hover) and the JSON Schema that `agentws schema tools.json`
//! prints (the VS Code extension ships it). The parser's key lists must name the same keys (tested).

use serde_json::{json, Value};

use crate::workspace::tools::TRANSPORT_NAMES;

/// What a key's value looks like, as JSON Schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Strings; numbers and booleans are coerced by Jackson.
    StringList,
    String,
    StringMap,
    /// ISO-8601 duration text, or a number of seconds.
    Duration,
    Transport,
    /// `mcpServers`: server name → server object.
    ServerMap,
}

impl Shape {
    /// The shape in a few words, for documentation.
    pub fn describe(self) -> &'static str {
        match self {
            Shape::StringList => "list of strings",
            Shape::String => "string",
            Shape::StringMap => "map of string to string",
            Shape::Duration => "ISO-8601 duration or number of seconds",
            Shape::Transport => "transport name",
            Shape::ServerMap => "map of server name to server",
        }
    }
}

/// One key of tools.json.
#[derive(Clone, Copy, Debug)]
pub struct ToolsKey {
    pub name: &'static str,
    pub shape: Shape,
    /// What the runtime uses when the key is absent, when it has a value of its own (markdown).
    pub default: Option<&'static str>,
    /// What the runtime does with the key (hover, completion, the JSON Schema, the docs).
    pub doc: &'static str,
}

const fn key(
    name: &'static str,
    shape: Shape,
    default: Option<&'static str>,
    doc: &'static str,
) -> ToolsKey {
    ToolsKey {
        name,
        shape,
        default,
        doc,
    }
}

/// Top-level keys other than `mcpServers`.
pub const TOP_LEVEL: &[ToolsKey] = &[
    key("allow", Shape::StringList, Some("`[]` (no allow filtering)"), "Tools to keep. Non-empty: every registered tool not named here (platform tools excepted) is removed; empty or absent: no allow filtering."),
    key("deny", Shape::StringList, Some("`[]` (no deny filtering)"), "Tools to remove; deny always wins, also over platform tools. `load_skill_through_path` cannot be removed."),
];

/// The `mcpServers` key: a map of server name to the keys of [`SERVER`].
pub const MCP_SERVERS: ToolsKey = key(
    "mcpServers",
    Shape::ServerMap,
    Some("`{}` (no MCP servers)"),
    "MCP servers registered at build time, in insertion order. A server with a bad shape is skipped; a type mismatch anywhere ignores the whole file.",
);

/// Keys of one MCP server.
pub const SERVER: &[ToolsKey] = &[
    key("transport", Shape::Transport, None, "Required: `stdio`, `sse`, `http`, `streamable-http` or `streamablehttp` (case-insensitive; `streamable_http` is not accepted). Missing or unsupported: the server is skipped."),
    key("command", Shape::String, None, "stdio: the command to spawn (required for stdio)."),
    key("args", Shape::StringList, Some("`[]`"), "stdio: arguments (default [])."),
    key("env", Shape::StringMap, Some("`{}`"), "stdio: environment variables (default {})."),
    key("url", Shape::String, None, "sse/http: the server URL (required for sse and http)."),
    key("headers", Shape::StringMap, Some("`{}`"), "sse/http: request headers."),
    key("queryParams", Shape::StringMap, Some("`{}`"), "sse/http: query parameters."),
    key("enableTools", Shape::StringList, Some("`[]` (all of the server's tools)"), "Allow-list of the server's tools; empty or absent: all of them."),
    key("timeout", Shape::Duration, None, "Per-request timeout: an ISO-8601 duration such as `PT30S`, or a number of seconds."),
    key("initializationTimeout", Shape::Duration, None, "Initialization timeout: an ISO-8601 duration such as `PT15S`, or a number of seconds."),
];

/// Documentation of a tools.json key (top-level or server), if it is one.
pub fn doc(name: &str) -> Option<&'static str> {
    TOP_LEVEL
        .iter()
        .chain(SERVER)
        .chain(std::iter::once(&MCP_SERVERS))
        .find(|k| k.name == name)
        .map(|k| k.doc)
}

/// JSON Schema (draft-07) of tools.json.
pub fn json_schema() -> Value {
    let props = |keys: &[ToolsKey]| -> serde_json::Map<String, Value> {
        keys.iter()
            .map(|k| {
                let mut schema = shape_schema(k.shape);
                schema["description"] = json!(k.doc);
                (k.name.to_string(), schema)
            })
            .collect()
    };
    let mut top = props(TOP_LEVEL);
    top.insert(
        "mcpServers".to_string(),
        json!({
            "type": "object",
            "description": MCP_SERVERS.doc,
            "additionalProperties": {"anyOf": [{"type": "null"}, {"$ref": "#/definitions/server"}]},
        }),
    );
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "tools.json",
        "description": "AgentScope Harness tool allow/deny lists and MCP servers, read once at agent build. Unknown keys (like \"// description\" comments) are ignored. Generated by `agentws schema tools.json`.",
        "type": "object",
        "properties": top,
        "definitions": {
            "server": {
                "type": "object",
                "required": ["transport"],
                "properties": props(SERVER),
                // The runtime skips a stdio server without `command` and an sse/http one without `url`.
                "allOf": [
                    {
                        "if": {"properties": {"transport": {"pattern": pattern_of(&["stdio"])}}, "required": ["transport"]},
                        "then": {"required": ["command"]}
                    },
                    {
                        "if": {"properties": {"transport": {"pattern": pattern_of(&TRANSPORT_NAMES[1..])}}, "required": ["transport"]},
                        "then": {"required": ["url"]}
                    }
                ]
            }
        },
    })
}

fn shape_schema(shape: Shape) -> Value {
    let coercible = json!({"type": ["string", "number", "boolean"]});
    match shape {
        Shape::StringList => json!({"type": "array", "items": coercible}),
        Shape::String => json!({"type": "string"}),
        Shape::StringMap => json!({"type": "object", "additionalProperties": coercible}),
        Shape::Duration => json!({"anyOf": [
            {"type": "string", "pattern": DURATION_PATTERN},
            {"type": "number"}
        ]}),
        Shape::Transport => json!({"type": "string", "pattern": pattern_of(TRANSPORT_NAMES)}),
        Shape::ServerMap => json!({"type": "object"}),
    }
}

/// What `java.time.Duration.parse` accepts: `PnDTnHnMn.nS` with optional sign, at least one part.
const DURATION_PATTERN: &str =
    r"^[-+]?P(?!$)(\d+(\.\d+)?D)?(T(?=\d)(\d+(\.\d+)?H)?(\d+(\.\d+)?M)?(\d+([.,]\d+)?S)?)?$";

/// A case-insensitive pattern matching exactly `names`, in the ECMA-262 dialect JSON Schema uses
/// (no inline flags).
fn pattern_of(names: &[&str]) -> String {
    let alternatives: Vec<String> = names
        .iter()
        .map(|name| {
            name.chars()
                .map(|c| {
                    if c.is_ascii_alphabetic() {
                        format!("[{}{}]", c.to_ascii_uppercase(), c.to_ascii_lowercase())
                    } else {
                        c.to_string()
                    }
                })
                .collect()
        })
        .collect();
    format!("^({})$", alternatives.join("|"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::tools::{SERVER_KEYS, TOP_LEVEL_KEYS};

    #[test]
    fn the_parser_and_the_schema_name_the_same_keys() {
        let server: Vec<&str> = SERVER.iter().map(|k| k.name).collect();
        assert_eq!(server, SERVER_KEYS);
        let mut top: Vec<&str> = TOP_LEVEL.iter().map(|k| k.name).collect();
        top.push(MCP_SERVERS.name);
        assert_eq!(top, TOP_LEVEL_KEYS);
    }
}
