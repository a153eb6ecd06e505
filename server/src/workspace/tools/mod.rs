//! `tools.json`, read the way `ToolsConfigLoader` does (harness-spec §4): `${NAME}` substitution on
//! the raw text, strict JSON (Jackson defaults), the schema of §4.3, and whether the runtime uses
//! the file or ignores it whole. Diagnostics found while parsing are kept with the document; every
//! range points into the ORIGINAL text (an offset map undoes the substitution).
//!
//! The rules found while parsing (TJ001–TJ019) are one file each here, declaration beside
//! detection ([`RULES`]): each adds to the [`Parser`] the methods that report it, which the reading
//! below calls. Rules that need the configuration or the tool catalog are in `check::tools`.
//! Depends on `base`, `syntax`, `base::suggest` and `rules`.

use std::path::PathBuf;

use crate::base::{Diagnostic, Env, FileContent, TextRange};
use crate::rules::{declare_family, Rule};
use crate::syntax::java;
use crate::syntax::json::{self, Member, Node, ProblemKind, Value};
use crate::workspace::subagent::Spanned;

// The tools.json rules found while parsing (TJ020 and later read the configuration and the
// catalog: `check::tools`).
declare_family! {
    mod tools_json_invalid;          // TJ001
    mod tools_json_bom;              // TJ002
    mod tools_json_wrong_type;       // TJ003
    mod tools_json_blank;            // TJ004
    mod tools_json_null;             // TJ005
    mod tools_json_unknown_key;      // TJ006
    mod tools_json_env_unset;        // TJ007
    mod tools_json_env_breaks_json;  // TJ008
    mod tools_json_duplicate_key;    // TJ009
    mod tools_json_trailing_content; // TJ010
    mod mcp_transport_missing;       // TJ011
    mod mcp_transport_unsupported;   // TJ012
    mod mcp_missing_command_or_url;  // TJ013
    mod mcp_irrelevant_field;        // TJ014
    mod mcp_enable_tools_empty;      // TJ015
    mod mcp_server_skipped;          // TJ016
    mod tools_json_coerced_value;    // TJ017
    mod tools_json_not_analysed;     // TJ018
    mod tools_json_null_value;       // TJ019
    mod tools_json_servers_outside;  // TJ031
    mod tools_json_env_default;      // TJ032
}

/// The consequence of every problem that makes the runtime ignore the whole file.
const WHOLE_FILE: &str =
    "The runtime logs \"Failed to parse tools.json\" and ignores the whole file: default toolkit, no MCP servers, no allow/deny.";

/// The text the local filesystem returns for an existing blank file (harness-spec §1.3).
/// Substituted text larger than this is not analysed (a value pasted many times could explode).
pub const MAX_SUBSTITUTED_BYTES: usize = 32 * 1024 * 1024;

pub const TOP_LEVEL_KEYS: &[&str] = &["allow", "deny", "mcpServers"];
pub const SERVER_KEYS: &[&str] = &[
    "transport",
    "command",
    "args",
    "env",
    "url",
    "headers",
    "queryParams",
    "enableTools",
    "timeout",
    "initializationTimeout",
];
const STDIO_ONLY: &[&str] = &["command", "args", "env"];
const REMOTE_ONLY: &[&str] = &["url", "headers", "queryParams"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    Stdio,
    Sse,
    /// `http`, `streamable-http`, `streamablehttp`.
    Http,
}

/// Every transport name the runtime accepts (after lower-casing), with what it means.
pub const TRANSPORT_NAMES: &[&str] = &["stdio", "sse", "http", "streamable-http", "streamablehttp"];

impl Transport {
    /// The runtime's match on the lower-cased value.
    pub fn parse(value: &str) -> Option<Transport> {
        match value.to_lowercase().as_str() {
            "stdio" => Some(Transport::Stdio),
            "sse" => Some(Transport::Sse),
            name if TRANSPORT_NAMES.contains(&name) => Some(Transport::Http),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct McpServer {
    /// The server's name, with the range of its key.
    pub name: Spanned<String>,
    /// `None` when missing or unsupported (the runtime then skips the server).
    pub transport: Option<Transport>,
    /// `enableTools` (empty = all of the server's tools).
    pub enable_tools: Vec<Spanned<String>>,
    /// True when the runtime registers the server (shape is valid).
    pub registered: bool,
    /// Range of the server's whole value.
    pub range: TextRange,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToolsOutcome {
    /// The runtime uses the file.
    Used,
    /// Missing, blank, invalid JSON, or a type mismatch: the runtime falls back to the default toolkit.
    Ignored { reason: String },
}

/// One `${NAME}` of the original text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    pub name: String,
    /// Range of `${NAME}` in the original text.
    pub range: TextRange,
    /// The value substituted here; `None` when unset (the runtime substitutes "").
    pub value: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolsDoc {
    pub path: PathBuf,
    /// `allow` entries (after coercion), ranges of the literals in the original text.
    pub allow: Vec<Spanned<String>>,
    pub deny: Vec<Spanned<String>>,
    /// Range of the `allow` / `deny` key Jackson keeps, when present.
    pub allow_key: Option<TextRange>,
    pub deny_key: Option<TextRange>,
    /// In the runtime's order (first occurrence of a name; the last value wins).
    pub servers: Vec<McpServer>,
    /// Every `${NAME}` in the file.
    pub variables: Vec<Variable>,
    pub outcome: ToolsOutcome,
    pub diagnostics: Vec<Diagnostic>,
}

impl ToolsDoc {
    pub fn is_used(&self) -> bool {
        self.outcome == ToolsOutcome::Used
    }
}

/// Parses tools.json at `path` with the environment `env` used for `${NAME}`.
pub fn parse(path: PathBuf, content: &FileContent, env: &Env) -> ToolsDoc {
    let mut doc = ToolsDoc {
        path,
        allow: Vec::new(),
        deny: Vec::new(),
        allow_key: None,
        deny_key: None,
        servers: Vec::new(),
        variables: Vec::new(),
        outcome: ToolsOutcome::Used,
        diagnostics: Vec::new(),
    };
    let text = match content {
        FileContent::Text(text) => text,
        // Reported by the workspace rules (WS004/WS005/WS007).
        _ => {
            doc.outcome = ToolsOutcome::Ignored {
                reason: "the file cannot be read as UTF-8 text".into(),
            };
            return doc;
        }
    };
    if java::is_blank(text) {
        doc.diagnostics
            .push(tools_json_blank::diagnostic(&doc.path));
        doc.outcome = ToolsOutcome::Ignored {
            reason: "the file is blank".into(),
        };
        return doc;
    }

    let substituted = match Substituted::new(text, env, MAX_SUBSTITUTED_BYTES) {
        Ok(s) => s,
        Err(at) => {
            doc.diagnostics
                .push(tools_json_not_analysed::too_large(&doc.path, at));
            return doc;
        }
    };
    doc.variables = substituted.variables.clone();
    let mut parser = Parser {
        path: doc.path.clone(),
        sub: &substituted,
        diagnostics: Vec::new(),
        type_errors: 0,
    };
    parser.report_variables();
    parser.env_defaults();
    let parsed = json::parse(&substituted.text);
    let rejected = parser.report_json_problems(&parsed.problems);
    let mut ignored_reason = rejected.then(|| "it is not valid strict JSON".to_string());

    if let Some(root) = &parsed.root {
        if root.is_null() {
            parser.null_document(root);
            ignored_reason.get_or_insert_with(|| "the document is `null`".into());
        } else {
            parser.read_root(root, &mut doc);
            if parser.type_errors > 0 {
                ignored_reason.get_or_insert_with(|| {
                    "a value has the wrong type for the runtime's schema".into()
                });
            }
        }
    }
    doc.diagnostics = parser.diagnostics;
    doc.diagnostics
        .sort_by_key(|d| (d.range.start, d.range.end, d.code));
    if let Some(reason) = ignored_reason {
        doc.outcome = ToolsOutcome::Ignored { reason };
    }
    doc
}

/// The text after `${NAME}` substitution, with the map back to the original offsets.
#[derive(Clone, Debug)]
pub struct Substituted {
    pub text: String,
    pub variables: Vec<Variable>,
    /// Per variable: `[out_start, out_end)` in `text`, in order.
    out: Vec<(usize, usize)>,
}

impl Substituted {
    /// Substitutes like `ToolsConfigLoader` (regex `\$\{([A-Za-z_][A-Za-z0-9_]*)}`, unset ⇒ "").
    /// Fails with the range of the `${…}` that pushes the text past `max_len`.
    pub fn new(text: &str, env: &Env, max_len: usize) -> Result<Substituted, TextRange> {
        let bytes = text.as_bytes();
        let mut out = String::with_capacity(text.len());
        let mut variables = Vec::new();
        let mut spans = Vec::new();
        let mut copied = 0;
        let mut i = 0;
        while i + 3 < bytes.len() + 1 {
            if bytes[i] == b'$' && bytes.get(i + 1) == Some(&b'{') {
                if let Some(name_len) = variable_name_len(&bytes[i + 2..]) {
                    let name_end = i + 2 + name_len;
                    if bytes.get(name_end) == Some(&b'}') {
                        let name = &text[i + 2..name_end];
                        let value = env.get(name).cloned();
                        out.push_str(&text[copied..i]);
                        let inserted = value.as_deref().unwrap_or("");
                        let range = TextRange::new(i, name_end + 1);
                        if out.len() + inserted.len() + (text.len() - name_end) > max_len {
                            return Err(range);
                        }
                        let start = out.len();
                        out.push_str(inserted);
                        spans.push((start, out.len()));
                        variables.push(Variable {
                            name: name.to_string(),
                            range,
                            value,
                        });
                        i = name_end + 1;
                        copied = i;
                        continue;
                    }
                }
            }
            i += 1;
        }
        if copied == 0 {
            return Ok(Substituted {
                text: text.to_string(),
                variables,
                out: spans,
            });
        }
        out.push_str(&text[copied..]);
        Ok(Substituted {
            text: out,
            variables,
            out: spans,
        })
    }

    /// Maps a range of the substituted text back to the original. A range touching a substituted
    /// value grows to cover the whole `${NAME}`.
    pub fn map_range(&self, range: TextRange) -> TextRange {
        TextRange::new(
            self.map_start(range.start),
            self.map_end(range.end).max(self.map_start(range.start)),
        )
    }

    fn map_start(&self, offset: usize) -> usize {
        let index = self.out.partition_point(|&(start, _)| start <= offset);
        if index == 0 {
            return offset;
        }
        let (start, end) = self.out[index - 1];
        let var = &self.variables[index - 1].range;
        if offset < end && offset >= start {
            var.start
        } else {
            var.end + (offset - end)
        }
    }

    fn map_end(&self, offset: usize) -> usize {
        let index = self.out.partition_point(|&(start, _)| start < offset);
        if index == 0 {
            return offset;
        }
        let (_, end) = self.out[index - 1];
        let var = &self.variables[index - 1].range;
        if offset <= end {
            var.end
        } else {
            var.end + (offset - end)
        }
    }

    /// True when no substituted value lies inside `range` (of the substituted text).
    pub fn is_verbatim(&self, range: TextRange) -> bool {
        !self.out.iter().any(|&(start, end)| {
            start < range.end && end > range.start
                || (start == end && start > range.start && start < range.end)
        })
    }

    /// Start (in the substituted text) of variable `index`'s value.
    fn value_start(&self, index: usize) -> usize {
        self.out[index].0
    }
}

/// Length of `[A-Za-z_][A-Za-z0-9_]*` at the start of `bytes`.
fn variable_name_len(bytes: &[u8]) -> Option<usize> {
    let first = *bytes.first()?;
    if !(first.is_ascii_alphabetic() || first == b'_') {
        return None;
    }
    Some(
        bytes
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count(),
    )
}

fn breaks_json(value: &str) -> bool {
    value.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20)
}

struct Parser<'a> {
    path: PathBuf,
    sub: &'a Substituted,
    diagnostics: Vec<Diagnostic>,
    type_errors: usize,
}

impl Parser<'_> {
    fn range(&self, range: TextRange) -> TextRange {
        self.sub.map_range(range)
    }

    fn push(&mut self, rule: &'static Rule, range: TextRange, message: impl Into<String>) {
        let range = self.range(range);
        self.diagnostics.push(rule.at(&self.path, range, message));
    }

    fn report_variables(&mut self) {
        let sub = self.sub;
        for var in &sub.variables {
            match &var.value {
                None => self.env_unset(var),
                Some(value) if breaks_json(value) => self.env_breaks_json(var),
                Some(_) => {}
            }
        }
    }

    /// Reports the JSON problems; returns true when Jackson rejects the text. Rejections at or
    /// after the first value that breaks JSON are blamed on that substitution.
    fn report_json_problems(&mut self, problems: &[json::Problem]) -> bool {
        let breaking = self
            .sub
            .variables
            .iter()
            .position(|v| v.value.as_deref().is_some_and(breaks_json));
        let blame_from = breaking.map(|index| self.sub.value_start(index));
        let mut rejected = false;
        let mut blamed: Option<String> = None;
        for problem in problems {
            let range = self.range(problem.range);
            if problem.rejected_by_jackson() {
                rejected = true;
                if blame_from.is_some_and(|from| problem.range.end >= from) {
                    blamed.get_or_insert_with(|| problem.message());
                    continue;
                }
            }
            let diagnostic = match &problem.kind {
                ProblemKind::Bom => self.bom(problem, range),
                ProblemKind::DuplicateKey { first, .. } => {
                    self.duplicate_key(problem, range, *first)
                }
                ProblemKind::TrailingContent => self.trailing_content(problem, range),
                ProblemKind::TooDeepToAnalyse => self.too_deep(problem, range),
                _ => self.invalid_json(problem, range),
            };
            self.diagnostics.push(diagnostic);
        }
        if let (Some(message), Some(index)) = (blamed, breaking) {
            let sub = self.sub;
            self.blame_substitution(&sub.variables[index], &message);
        }
        rejected
    }

    fn read_root(&mut self, root: &Node, doc: &mut ToolsDoc) {
        let Some(members) = root.members() else {
            self.type_error(
                root.range,
                format!("tools.json must be an object, not {}", root.kind_name()),
            );
            return;
        };
        // Servers written beside `allow` and `deny` instead of inside `mcpServers` (TJ031).
        let outside: Vec<(usize, &Member)> = members
            .iter()
            .enumerate()
            .filter(|(_, m)| !TOP_LEVEL_KEYS.contains(&m.key.as_str()) && !m.key.starts_with("//"))
            .filter(|(_, m)| tools_json_servers_outside::looks_like_a_server(m))
            .collect();
        let contiguous = outside.windows(2).all(|w| w[1].0 == w[0].0 + 1);
        let has_mcp_servers = members.iter().any(|m| m.key == "mcpServers");
        let servers: Vec<&Member> = outside.iter().map(|(_, m)| *m).collect();
        self.servers_outside(&servers, has_mcp_servers, contiguous);
        for member in members {
            if servers.iter().any(|s| std::ptr::eq(*s, member)) {
                continue;
            }
            match member.key.as_str() {
                "allow" => {
                    doc.allow = self.string_list(member).unwrap_or_default();
                    doc.allow_key = Some(self.range(member.key_range));
                }
                "deny" => {
                    doc.deny = self.string_list(member).unwrap_or_default();
                    doc.deny_key = Some(self.range(member.key_range));
                }
                "mcpServers" => doc.servers = self.servers(member),
                key => self.unknown_key(member, key, TOP_LEVEL_KEYS, "top-level"),
            }
        }
    }

    /// `List<String>`: `None` when `null`.
    fn string_list(&mut self, member: &Member) -> Option<Vec<Spanned<String>>> {
        let node = &member.value;
        match &node.value {
            Value::Null => {
                self.null_value(&member.key, node);
                None
            }
            Value::Array(elements) => {
                let mut out = Vec::with_capacity(elements.len());
                for element in elements {
                    match &element.value {
                        Value::String(s) => out.push(Spanned {
                            value: s.clone(),
                            range: self.range(element.range),
                        }),
                        Value::Number(_) | Value::Bool(_) => {
                            let text = self.coerced(element, &format!("`{}` entry", member.key));
                            out.push(Spanned {
                                value: text,
                                range: self.range(element.range),
                            });
                        }
                        Value::Null => {}
                        _ => self.type_error(
                            element.range,
                            format!(
                                "`{}` entries must be strings, not {}",
                                member.key,
                                element.kind_name()
                            ),
                        ),
                    }
                }
                Some(out)
            }
            _ => {
                let example = match node.as_str() {
                    Some(s) => format!(" (write [\"{s}\"])"),
                    None => String::new(),
                };
                self.type_error(
                    node.range,
                    format!(
                        "`{}` must be an array of strings, not {}{example}",
                        member.key,
                        node.kind_name()
                    ),
                );
                None
            }
        }
    }

    /// `String` (numbers and booleans coerced): `None` when `null` or the wrong type.
    fn string(&mut self, member: &Member) -> Option<String> {
        let node = &member.value;
        match &node.value {
            Value::Null => None,
            Value::String(s) => Some(s.clone()),
            Value::Number(_) | Value::Bool(_) => {
                Some(self.coerced(node, &format!("`{}`", member.key)))
            }
            _ => {
                self.type_error(
                    node.range,
                    format!(
                        "`{}` must be a string, not {}",
                        member.key,
                        node.kind_name()
                    ),
                );
                None
            }
        }
    }

    /// `Map<String, String>`.
    fn string_map(&mut self, member: &Member) {
        let node = &member.value;
        match &node.value {
            Value::Null => {}
            Value::Object(entries) => {
                for entry in entries {
                    match &entry.value.value {
                        Value::Object(_) | Value::Array(_) => self.type_error(
                            entry.value.range,
                            format!(
                                "`{}` values must be strings, not {}",
                                member.key,
                                entry.value.kind_name()
                            ),
                        ),
                        Value::Number(_) | Value::Bool(_) => {
                            self.coerced(&entry.value, &format!("`{}.{}`", member.key, entry.key));
                        }
                        _ => {}
                    }
                }
            }
            _ => self.type_error(
                node.range,
                format!(
                    "`{}` must be an object of strings, not {}",
                    member.key,
                    node.kind_name()
                ),
            ),
        }
    }

    /// `java.time.Duration` through JavaTimeModule.
    fn duration(&mut self, member: &Member) {
        let node = &member.value;
        match &node.value {
            Value::Null | Value::Number(_) => {}
            Value::String(s) => {
                let trimmed = java::trim(s);
                if !trimmed.is_empty() && java::parse_duration_seconds(trimmed).is_none() {
                    self.type_error(
                        node.range,
                        format!(
                            "`{}` value \"{s}\" is not an ISO-8601 duration (like \"PT30S\" or \"PT1M30S\"); a bare number means seconds",
                            member.key
                        ),
                    );
                }
            }
            _ => self.type_error(
                node.range,
                format!(
                    "`{}` must be an ISO-8601 duration string or a number of seconds, not {}",
                    member.key,
                    node.kind_name()
                ),
            ),
        }
    }

    fn servers(&mut self, member: &Member) -> Vec<McpServer> {
        let node = &member.value;
        let entries = match &node.value {
            Value::Null => {
                self.null_value(&member.key, node);
                return Vec::new();
            }
            Value::Object(entries) => entries,
            _ => {
                self.type_error(
                    node.range,
                    format!(
                        "`mcpServers` must be an object of servers by name, not {}",
                        node.kind_name()
                    ),
                );
                return Vec::new();
            }
        };
        let mut servers: Vec<McpServer> = Vec::new();
        for entry in entries {
            let server = self.server(entry);
            // LinkedHashMap: a repeated name keeps its first position, the last value wins.
            match servers.iter_mut().find(|s| s.name.value == entry.key) {
                Some(existing) => {
                    if let Some(server) = server {
                        *existing = server;
                    }
                }
                None => servers.extend(server),
            }
        }
        servers
    }

    fn server(&mut self, entry: &Member) -> Option<McpServer> {
        let name = Spanned {
            value: entry.key.clone(),
            range: self.range(entry.key_range),
        };
        let node = &entry.value;
        if java::is_blank(&entry.key) {
            self.blank_server_name(entry);
            return None;
        }
        let fields = match &node.value {
            Value::Null => {
                self.null_server(entry);
                return Some(McpServer {
                    name,
                    transport: None,
                    enable_tools: Vec::new(),
                    registered: false,
                    range: self.range(node.range),
                });
            }
            Value::Object(fields) => fields,
            _ => {
                self.type_error(
                    node.range,
                    format!(
                        "MCP server `{}` must be an object, not {}",
                        entry.key,
                        node.kind_name()
                    ),
                );
                return None;
            }
        };

        let mut transport_field: Option<(&Member, Option<String>)> = None;
        // Claude Code's `type`: said with a missing `transport`, else an unknown key.
        let mut type_field: Option<&Member> = None;
        let mut command = None;
        let mut url = None;
        let mut enable_tools = Vec::new();
        for field in fields {
            match field.key.as_str() {
                "transport" => {
                    let value = self.string(field);
                    transport_field = Some((field, value));
                }
                "command" => command = self.string(field),
                "url" => url = self.string(field),
                "args" => {
                    self.string_list(field);
                }
                "enableTools" => {
                    enable_tools = self.string_list(field).unwrap_or_default();
                    self.enable_tools_empty(&entry.key, field);
                }
                "env" | "headers" | "queryParams" => self.string_map(field),
                "timeout" | "initializationTimeout" => self.duration(field),
                "type" => type_field = Some(field),
                key => self.unknown_key(field, key, SERVER_KEYS, "server"),
            }
        }
        if let (Some(field), Some(_)) = (type_field, &transport_field) {
            self.unknown_key(field, "type", SERVER_KEYS, "server");
        }

        let type_instead = type_field.filter(|_| transport_field.is_none());
        let transport = match transport_field {
            // A transport of the wrong type is already a whole-file type error.
            Some((field, None)) if !field.value.is_null() => None,
            None | Some((_, None)) => {
                self.transport_missing(entry, type_instead);
                None
            }
            Some((field, Some(value))) => {
                let parsed = Transport::parse(&value);
                if parsed.is_none() {
                    self.transport_unsupported(entry, field, &value);
                }
                parsed
            }
        };

        let mut registered = transport.is_some();
        if let Some(transport) = transport {
            let (required, value, irrelevant) = match transport {
                Transport::Stdio => ("command", &command, REMOTE_ONLY),
                Transport::Sse | Transport::Http => ("url", &url, STDIO_ONLY),
            };
            if value.as_deref().is_none_or(java::is_blank) {
                registered = false;
                self.missing_command_or_url(entry, transport, required);
            }
            for field in fields
                .iter()
                .filter(|f| irrelevant.contains(&f.key.as_str()))
            {
                self.irrelevant_field(field, transport);
            }
        }
        Some(McpServer {
            name,
            transport,
            enable_tools,
            registered,
            range: self.range(node.range),
        })
    }
}

fn transport_label(transport: Transport) -> &'static str {
    match transport {
        Transport::Stdio => "`stdio`",
        Transport::Sse => "`sse`",
        Transport::Http => "`http`",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn env(pairs: &[(&str, &str)]) -> Env {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn parse_text(text: &str, env: &Env) -> ToolsDoc {
        parse(
            PathBuf::from("/w/tools.json"),
            &FileContent::Text(Arc::from(text)),
            env,
        )
    }

    fn codes(doc: &ToolsDoc) -> Vec<(&'static str, usize, usize)> {
        doc.diagnostics
            .iter()
            .map(|d| (d.code, d.range.start, d.range.end))
            .collect()
    }

    /// `(code, the original text at the range, message)` of every diagnostic.
    fn shown(text: &str, doc: &ToolsDoc) -> Vec<(&'static str, String, String)> {
        doc.diagnostics
            .iter()
            .map(|d| {
                (
                    d.code,
                    text[d.range.start..d.range.end].to_string(),
                    d.message.clone(),
                )
            })
            .collect()
    }

    /// Claude Code's `.mcp.json` shape without `mcpServers`: one TJ031 at the first server, no
    /// unknown-key infos for the servers, and the fix gives the example's fixed file, which the
    /// runtime reads as two servers.
    #[test]
    fn servers_at_the_top_level_are_moved_under_mcp_servers() {
        let example = &tools_json_servers_outside::RULE.examples[0];
        let text = example.triggering[0].1;
        let doc = parse_text(text, &Env::new());
        assert_eq!(
            shown(text, &doc),
            vec![(
                "TJ031",
                "\"github\"".to_string(),
                "`github`, `files` are MCP servers written at the top level (Claude Code's `.mcp.json` keeps them under `mcpServers`): the runtime reads servers only under `mcpServers` and ignores these keys, so no MCP server is registered".to_string()
            )]
        );
        assert!(doc.servers.is_empty());
        let fixed = crate::base::apply_edits(text, &doc.diagnostics[0].fixes[0].edits);
        assert_eq!(fixed, example.fixed[0].1);
        let doc = parse_text(&fixed, &Env::new());
        assert_eq!(codes(&doc), vec![]);
        let names: Vec<(&str, bool)> = doc
            .servers
            .iter()
            .map(|s| (s.name.value.as_str(), s.registered))
            .collect();
        assert_eq!(names, vec![("github", true), ("files", true)]);
    }

    /// Near cases: a misspelt top-level key that is no server stays TJ006; a server beside an
    /// `mcpServers` is reported without a fix; servers split by `allow` get no fix either.
    #[test]
    fn only_server_shaped_members_outside_mcp_servers_are_tj031() {
        let text = r#"{"Deny": ["execute"], "mcpServers": {}}"#;
        let doc = parse_text(text, &Env::new());
        assert_eq!(
            shown(text, &doc),
            vec![(
                "TJ006",
                "\"Deny\"".to_string(),
                "unknown top-level key `Deny` is ignored; did you mean `deny`?".to_string()
            )]
        );
        let text = r#"{"mcpServers": {"a": {"transport": "stdio", "command": "a"}}, "b": {"command": "b"}}"#;
        let doc = parse_text(text, &Env::new());
        assert_eq!(
            shown(text, &doc),
            vec![("TJ031", "\"b\"".to_string(), "`b` is an MCP server written at the top level (Claude Code's `.mcp.json` keeps them under `mcpServers`): the runtime reads servers only under `mcpServers` and ignores these keys, so only the servers under `mcpServers` are registered".to_string())]
        );
        assert!(doc.diagnostics[0].fixes.is_empty());
        let text = r#"{"a": {"command": "a"}, "allow": ["read_file"], "b": {"command": "b"}}"#;
        let doc = parse_text(text, &Env::new());
        assert_eq!(codes(&doc), vec![("TJ031", 1, 4)]);
        assert!(doc.diagnostics[0].fixes.is_empty());
    }

    /// A server with `type` and no `transport` is told which key the runtime reads, with a fix
    /// for a value it accepts; beside a `transport`, `type` is only an unknown key.
    #[test]
    fn type_instead_of_transport() {
        let text =
            r#"{"mcpServers": {"neon": {"type": "http", "url": "https://mcp.neon.tech/mcp"}}}"#;
        let doc = parse_text(text, &Env::new());
        assert_eq!(
            shown(text, &doc),
            vec![("TJ011", "\"neon\"".to_string(), "MCP server `neon` has no `transport`: it has `type`, Claude Code's key, and the runtime reads `transport`".to_string())]
        );
        let fixed = crate::base::apply_edits(text, &doc.diagnostics[0].fixes[0].edits);
        assert_eq!(
            fixed,
            r#"{"mcpServers": {"neon": {"transport": "http", "url": "https://mcp.neon.tech/mcp"}}}"#
        );
        assert_eq!(codes(&parse_text(&fixed, &Env::new())), vec![]);
        let text = r#"{"mcpServers": {"n": {"type": "websocket", "url": "u"}}}"#;
        let doc = parse_text(text, &Env::new());
        assert_eq!(codes(&doc), vec![("TJ011", 16, 19)]);
        assert!(doc.diagnostics[0].fixes.is_empty());
        let text = r#"{"mcpServers": {"n": {"transport": "http", "type": "http", "url": "u"}}}"#;
        let doc = parse_text(text, &Env::new());
        assert_eq!(
            shown(text, &doc),
            vec![(
                "TJ006",
                "\"type\"".to_string(),
                "unknown server key `type` is ignored".to_string()
            )]
        );
    }

    /// Claude Code's `${NAME:-default}` and the shell's `${NAME-default}` stay as written (the
    /// runtime's pattern is `${NAME}`): one TJ032 each, at the whole `${…}`; a plain `${NAME}`,
    /// a `$NAME` and a value holding the syntax are not reported.
    #[test]
    fn default_syntax_is_sent_as_written() {
        let text = r#"{"mcpServers": {"s": {"transport": "stdio", "command": "run", "args": ["${ROOT:-.}", "${MODE-fast}", "${KEY}", "$HOME", "${V}"], "env": {"T": "${TOKEN:-}"}}}}"#;
        let doc = parse_text(text, &env(&[("KEY", "k"), ("V", "${X:-y}")]));
        assert_eq!(
            shown(text, &doc),
            vec![
                ("TJ032", "${ROOT:-.}".to_string(), "`${ROOT:-.}` is sent as written: the runtime substitutes only `${ROOT}` (no `:-` or `-` defaults), so neither the value of `ROOT` nor the default `.` takes its place".to_string()),
                ("TJ032", "${MODE-fast}".to_string(), "`${MODE-fast}` is sent as written: the runtime substitutes only `${MODE}` (no `:-` or `-` defaults), so neither the value of `MODE` nor the default `fast` takes its place".to_string()),
                ("TJ032", "${TOKEN:-}".to_string(), "`${TOKEN:-}` is sent as written: the runtime substitutes only `${TOKEN}` (no `:-` or `-` defaults), so neither the value of `TOKEN` nor an empty default takes its place".to_string()),
            ]
        );
        assert_eq!(doc.outcome, ToolsOutcome::Used);
    }

    #[test]
    fn scaffold_style_has_no_diagnostics() {
        let text = r#"{
  "// description": "Default tool policy for the paw agent",
  "// available": ["read_file", "write_file", "edit_file", "execute"],
  "allow": ["read_file", "grep_files", "glob_files", "list_files"],
  "deny": ["execute", "write_file", "edit_file"]
}"#;
        let doc = parse_text(text, &Env::new());
        assert_eq!(codes(&doc), vec![]);
        assert_eq!(doc.outcome, ToolsOutcome::Used);
        assert_eq!(doc.allow.len(), 4);
        assert_eq!(doc.allow[0].value, "read_file");
        assert_eq!(
            &text[doc.allow[0].range.start..doc.allow[0].range.end],
            "\"read_file\""
        );
        assert_eq!(doc.deny[2].value, "edit_file");
    }

    #[test]
    fn substitution_is_exactly_the_runtimes() {
        let e = env(&[("A", "x"), ("HOME_DIR", "/home/u")]);
        let s = Substituted::new(
            "${A} $${A} $A ${A:-b} ${1A} ${HOME_DIR}/${UNSET}.",
            &e,
            1000,
        )
        .unwrap();
        assert_eq!(s.text, "x $x $A ${A:-b} ${1A} /home/u/.");
        assert_eq!(
            s.variables
                .iter()
                .map(|v| (v.name.as_str(), v.range.start, v.value.is_some()))
                .collect::<Vec<_>>(),
            vec![
                ("A", 0, true),
                ("A", 6, true),
                ("HOME_DIR", 28, true),
                ("UNSET", 40, false)
            ]
        );
    }

    #[test]
    fn offsets_map_back_through_cjk_and_emoji() {
        // The value is shorter than `${X}`; CJK and emoji around it shift byte offsets.
        let text = "{\"说明😀\": \"${X}\", \"allow\": \"工具\"}";
        let doc = parse_text(text, &env(&[("X", "v")]));
        let d = doc.diagnostics.iter().find(|d| d.code == "TJ003").unwrap();
        assert_eq!(&text[d.range.start..d.range.end], "\"工具\"");
        assert_eq!(
            doc.outcome,
            ToolsOutcome::Ignored {
                reason: "a value has the wrong type for the runtime's schema".into()
            }
        );
        let s = Substituted::new(
            "é${LONGER_NAME}😀",
            &env(&[("LONGER_NAME", "一二三四五六")]),
            1000,
        )
        .unwrap();
        assert_eq!(s.text, "é一二三四五六😀");
        // Inside the value ⇒ the whole `${…}`; after it ⇒ shifted back.
        assert_eq!(s.map_range(TextRange::new(5, 8)), TextRange::new(2, 16));
        assert_eq!(s.map_range(TextRange::new(20, 24)), TextRange::new(16, 20));
        assert_eq!(s.map_range(TextRange::new(0, 2)), TextRange::new(0, 2));
    }

    proptest::proptest! {
        /// Text outside `${…}` maps back to the same bytes of the original; a substituted value
        /// maps back to its whole `${NAME}`.
        #[test]
        fn offset_map_round_trips(parts in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::strategy::Just("${A}".to_string()),
                proptest::strategy::Just("${UNSET}".to_string()),
                proptest::strategy::Just("${LONG}".to_string()),
                "[a-z\\{}$ 说😀\"]{0,6}",
            ],
            0..12,
        )) {
            let text: String = parts.concat();
            let e = env(&[("A", "é"), ("LONG", "一二三四五六七八九十")]);
            let s = Substituted::new(&text, &e, 1 << 20).unwrap();
            for (index, var) in s.variables.iter().enumerate() {
                let (start, end) = s.out[index];
                proptest::prop_assert_eq!(&text[var.range.start..var.range.end], format!("${{{}}}", var.name));
                if start < end {
                    proptest::prop_assert_eq!(s.map_range(TextRange::new(start, end)), var.range);
                }
            }
            // Every char of the substituted text outside values comes from the same char.
            let mut out = 0;
            while out < s.text.len() {
                let len = s.text[out..].chars().next().unwrap().len_utf8();
                let inside = s.out.iter().any(|&(a, b)| out >= a && out < b);
                if !inside {
                    let back = s.map_range(TextRange::new(out, out + len));
                    proptest::prop_assert_eq!(&text[back.start..back.end], &s.text[out..out + len]);
                }
                out += len;
            }
        }
    }

    #[test]
    fn unset_and_json_breaking_values() {
        let text = "{\"mcpServers\": {\"s\": {\"transport\": \"stdio\", \"command\": \"${CMD}\", \"env\": {\"K\": \"${KEY}\"}}}}";
        let doc = parse_text(text, &env(&[("CMD", "run")]));
        let key = text.find("${KEY}").unwrap();
        assert_eq!(codes(&doc), vec![("TJ007", key, key + 6)]);
        assert!(doc.is_used());

        let doc = parse_text(text, &env(&[("CMD", "say \"hi\""), ("KEY", "k")]));
        let cmd = text.find("${CMD}").unwrap();
        assert_eq!(codes(&doc), vec![("TJ008", cmd, cmd + 6)]);
        assert!(doc.diagnostics[0].message.contains("not valid JSON"));
        assert!(!doc.is_used());

        // A backslash that forms a valid escape keeps the JSON valid but is still flagged.
        let doc = parse_text(text, &env(&[("CMD", "C:\\new"), ("KEY", "k")]));
        assert_eq!(codes(&doc), vec![("TJ008", cmd, cmd + 6)]);
        assert!(doc.is_used());
    }

    #[test]
    fn whole_file_problems() {
        let doc = parse_text("  \n", &Env::new());
        assert_eq!(codes(&doc), vec![("TJ004", 0, 0)]);
        assert!(!doc.is_used());
        let doc = parse_text("null", &Env::new());
        assert_eq!(codes(&doc), vec![("TJ005", 0, 4)]);
        assert!(!doc.is_used());
        let doc = parse_text("[]", &Env::new());
        assert_eq!(codes(&doc), vec![("TJ003", 0, 2)]);
        let doc = parse_text("\u{FEFF}{}", &Env::new());
        assert_eq!(codes(&doc), vec![("TJ002", 0, 3)]);
        assert_eq!(doc.diagnostics[0].fixes[0].edits[0].new_text, "");
        let doc = parse_text("{\"allow\": [\"a\",], // x\n}", &Env::new());
        assert_eq!(
            codes(&doc),
            vec![("TJ001", 14, 15), ("TJ001", 16, 17), ("TJ001", 18, 22)]
        );
        assert_eq!(doc.diagnostics[0].fixes.len(), 1);
        let doc = parse_text("{'allow': ['a\\'b'], \"deny\": ['说']}", &Env::new());
        let fixes: Vec<Vec<String>> = doc
            .diagnostics
            .iter()
            .map(|d| {
                d.fixes
                    .iter()
                    .map(|f| f.edits[0].new_text.clone())
                    .collect()
            })
            .collect();
        assert_eq!(
            fixes,
            vec![
                vec!["\"allow\"".to_string()],
                vec![],
                vec!["\"说\"".to_string()]
            ]
        );
    }

    #[test]
    fn type_rules() {
        let doc = parse_text("{\"allow\": \"read_file\"}", &Env::new());
        assert_eq!(codes(&doc), vec![("TJ003", 10, 21)]);
        assert!(doc.diagnostics[0].message.contains("write [\"read_file\"]"));
        let doc = parse_text("{\"mcpServers\": []}", &Env::new());
        assert_eq!(codes(&doc), vec![("TJ003", 15, 17)]);
        let doc = parse_text("{\"allow\": [1, true, null]}", &Env::new());
        assert_eq!(codes(&doc), vec![("TJ017", 11, 12), ("TJ017", 14, 18)]);
        assert_eq!(
            doc.allow
                .iter()
                .map(|a| a.value.as_str())
                .collect::<Vec<_>>(),
            vec!["1", "true"]
        );
        assert!(doc.is_used());
        let doc = parse_text(
            "{\"mcpServers\": {\"s\": {\"transport\": [\"stdio\"], \"command\": \"c\"}}}",
            &Env::new(),
        );
        assert_eq!(codes(&doc), vec![("TJ003", 35, 44)]);
        let doc = parse_text("{\"deny\": [[\"x\"]]}", &Env::new());
        assert_eq!(codes(&doc), vec![("TJ003", 10, 15)]);
        let doc = parse_text("{\"allow\": null, \"Deny\": []}", &Env::new());
        assert_eq!(codes(&doc), vec![("TJ019", 10, 14), ("TJ006", 16, 22)]);
        assert!(doc.diagnostics[1].message.contains("did you mean `deny`"));
    }

    #[test]
    fn servers() {
        let text = r#"{"mcpServers": {
 "a": {"transport": "streamable_http", "url": "http://x"},
 "b": {"transport": "streamableHttp", "url": "http://x", "command": "c", "enableTools": []},
 "c": {"transport": "stdio", "headers": {"h": "v"}},
 "d": {"url": "http://x"},
 " ": {},
 "e": null,
 "f": {"transport": "sse", "url": "http://x", "timeout": "PT30S", "initializationTimeout": 15, "enableTools": ["t1", "t2"], "tiemout": 1}
}}"#;
        let doc = parse_text(text, &Env::new());
        let found: Vec<(&str, &str)> = doc
            .diagnostics
            .iter()
            .map(|d| (d.code, &text[d.range.start..d.range.end]))
            .collect();
        assert_eq!(
            found,
            vec![
                ("TJ012", "\"streamable_http\""),
                ("TJ014", "\"command\""),
                ("TJ015", "[]"),
                ("TJ013", "\"c\""),
                ("TJ014", "\"headers\""),
                ("TJ011", "\"d\""),
                ("TJ016", "\" \""),
                ("TJ016", "null"),
                ("TJ006", "\"tiemout\""),
            ]
        );
        assert_eq!(
            doc.diagnostics[0].fixes[0].edits[0].new_text,
            "\"streamable-http\""
        );
        assert!(doc.diagnostics[8]
            .message
            .contains("did you mean `timeout`"));
        assert!(doc.is_used());
        let registered: Vec<(&str, bool)> = doc
            .servers
            .iter()
            .map(|s| (s.name.value.as_str(), s.registered))
            .collect();
        assert_eq!(
            registered,
            vec![
                ("a", false),
                ("b", true),
                ("c", false),
                ("d", false),
                ("e", false),
                ("f", true)
            ]
        );
        assert_eq!(doc.servers[5].enable_tools.len(), 2);
        assert_eq!(doc.servers[5].transport, Some(Transport::Sse));
    }

    #[test]
    fn bad_duration_ignores_the_whole_file() {
        let text =
            r#"{"mcpServers": {"a": {"transport": "stdio", "command": "x", "timeout": "30s"}}}"#;
        let doc = parse_text(text, &Env::new());
        let at = text.find("\"30s\"").unwrap();
        assert_eq!(codes(&doc), vec![("TJ003", at, at + 5)]);
        assert!(!doc.is_used());
    }

    #[test]
    fn two_hundred_servers_parse() {
        let servers: Vec<String> = (0..200)
            .map(|i| format!("\"s{i}\": {{\"transport\": \"stdio\", \"command\": \"run\", \"args\": [\"--port\", \"{i}\"], \"enableTools\": [\"t{i}\"]}}"))
            .collect();
        let text = format!("{{\"mcpServers\": {{{}}}}}", servers.join(",\n"));
        let doc = parse_text(&text, &Env::new());
        assert_eq!(codes(&doc), vec![]);
        assert_eq!(doc.servers.len(), 200);
        assert!(doc.servers.iter().all(|s| s.registered));
    }
}
