//! A spanned YAML tree for frontmatter, typed the way the runtime types it.
//!
//! Skills are read by SnakeYAML (YAML 1.1 typing: `yes`/`no`/`on`/`off` are booleans, `1:30` is
//! 90, `2024-01-01` a Date) and subagents by Jackson (see [`Typing::Jackson`]). Parsing goes
//! through the event API of the parser inside `serde-saphyr` (`serde_saphyr::granit_parser`, no
//! extra dependency) because typing needs each scalar's style and tag, which serde hides. The tree
//! is built without recursion and under budgets (depth, nodes after alias expansion), so hostile
//! documents become errors instead of crashes. Every node keeps the byte range of its key and value
//! in the original file.
//!
//! Knows nothing of skills or subagents: the callers decide what a value means.

use super::java;
use std::path::Path;

use crate::base::{FileEdit, Fix, TextRange};

/// How scalars are typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Typing {
    /// SnakeYAML `SafeConstructor` (skills).
    Yaml11,
    /// Jackson YAML 2.x (`jackson-dataformat-yaml` 2.12+, subagents). Decided from its
    /// `YAMLParser._decodeScalar`: plain scalars go through SnakeYAML's YAML 1.1 resolver, but
    /// only `true`/`True`/`TRUE`/`false`/… become booleans (`yes`/`no`/`on`/`off` stay strings),
    /// timestamps and sexagesimal `1:30` stay strings, `.inf`/`.nan` stay strings, ints keep
    /// `0x`/`0b`/leading-0 octal and `_`. Aliases are not resolved: Jackson hands back the anchor
    /// name as a string. Duplicate keys: the last value wins (Jackson's default).
    Jackson,
}

/// A value as the runtime ends up holding it after YAML typing.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    /// An integer; kept as its decimal text so big integers print like Java's `BigInteger`.
    Int(String),
    /// A floating-point number, with the text Java's `Double.toString` prints for it.
    Float {
        value: f64,
        java: String,
    },
    Str(String),
    /// A YAML 1.1 timestamp, with the text `java.util.Date.toString()` prints for it in UTC.
    Date {
        source: String,
        java: String,
    },
    List(Vec<Node>),
    /// Entries in document order; keys are strings (non-string keys are dropped by the runtime).
    Map(Vec<Entry>),
}

impl Value {
    /// `String.valueOf(v)` for a scalar; `None` for lists and maps.
    pub fn java_string(&self) -> Option<String> {
        match self {
            Value::Null => Some("null".to_string()),
            Value::Bool(b) => Some(b.to_string()),
            Value::Int(text) => Some(text.clone()),
            Value::Float { java, .. } => Some(java.clone()),
            Value::Str(s) => Some(s.clone()),
            Value::Date { java, .. } => Some(java.clone()),
            Value::List(_) | Value::Map(_) => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// Name of the runtime type, for messages (`string`, `boolean`, `integer`, …).
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Int(_) => "integer",
            Value::Float { .. } => "floating-point number",
            Value::Str(_) => "string",
            Value::Date { .. } => "date",
            Value::List(_) => "list",
            Value::Map(_) => "map",
        }
    }

    /// The type name with its article (`a string`, `an integer`, `null`), for "is {}" in
    /// messages: the one place that chooses between "a" and "an".
    pub fn type_phrase(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "an integer",
            Value::Float { .. } => "a floating-point number",
            Value::Str(_) => "a string",
            Value::Date { .. } => "a date",
            Value::List(_) => "a list",
            Value::Map(_) => "a map",
        }
    }
}

/// A value with the byte range of its source text (in the whole file, not the frontmatter).
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub value: Value,
    pub range: TextRange,
    /// The explicit tag written before a scalar (`!!bool` in `!!bool yes`), outside `range`;
    /// `None` for collections and aliases.
    pub tag: Option<TextRange>,
}

/// One map entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub key: String,
    pub key_range: TextRange,
    pub value: Node,
}

// ---------------------------------------------------------------------------------------------
// Parsing into the tree.

use std::collections::HashMap;

use serde_saphyr::granit_parser::{Event, Options, Parser, ScalarStyle, Span, Tag};

/// agentws's own budget: nodes in the tree after alias expansion (a billion-laughs document hits
/// this long before memory does).
pub const MAX_NODES: usize = 100_000;
/// agentws's own budget: collection nesting the event parser accepts (it never recurses, and the
/// runtime limits below are far lower anyway).
pub const PARSER_NESTING_LIMIT: usize = 128;
/// agentws's own budget: bytes of YAML we parse at all (the runtime refuses frontmatter over
/// 16 384 code points before this matters).
pub const MAX_YAML_BYTES: usize = 1 << 20;

impl Typing {
    /// The runtime loader's nesting-depth limit (SnakeYAML `LoaderOptions.nestingDepthLimit`:
    /// 10 as the skill parser sets it, 50 by default under Jackson).
    pub fn runtime_depth_limit(self) -> usize {
        match self {
            Typing::Yaml11 => 10,
            Typing::Jackson => 50,
        }
    }

    /// The runtime loader's limit on aliases to collections (`maxAliasesForCollections`).
    pub fn runtime_alias_limit(self) -> usize {
        match self {
            Typing::Yaml11 => 10,
            Typing::Jackson => 50,
        }
    }
}

/// Why a YAML text is rejected. All of these are exceptions in the runtime too, except
/// [`YamlErrorKind::OverBudget`], which is agentws refusing to go further.
#[derive(Clone, Debug, PartialEq)]
pub enum YamlErrorKind {
    Syntax,
    DuplicateKey {
        key: String,
        first: TextRange,
    },
    /// Nesting deeper than the runtime accepts.
    TooDeep {
        limit: usize,
    },
    /// More aliases to collections than the runtime accepts.
    TooManyAliases {
        limit: usize,
    },
    UnsupportedTag(String),
    /// A scalar the resolver calls a number that Java cannot parse (`_`).
    BadNumber,
    MultipleDocuments,
    OverBudget,
}

#[derive(Clone, Debug, PartialEq)]
pub struct YamlError {
    pub kind: YamlErrorKind,
    pub message: String,
    /// Where in the whole file.
    pub range: TextRange,
}

/// A map key the runtime drops because it is not a string (`1: x`, `yes: x` under YAML 1.1).
#[derive(Clone, Debug, PartialEq)]
pub struct DroppedKey {
    pub source: String,
    pub range: TextRange,
    pub value: Value,
}

/// A plain scalar that the runtime types as something other than the string it looks like, or
/// renders differently from how it is written (`yes` → `true`, `1.10` → `1.1`, `010` → `8`).
#[derive(Clone, Debug, PartialEq)]
pub struct Surprise {
    pub source: String,
    pub range: TextRange,
    /// Its explicit tag, as in `Node::tag`.
    pub tag: Option<TextRange>,
    pub value: Value,
    /// Path of keys to the value (`metadata.version`), for messages.
    pub key_path: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct YamlDoc {
    /// `None` for an empty document.
    pub root: Option<Node>,
    pub dropped_keys: Vec<DroppedKey>,
    pub surprises: Vec<Surprise>,
}

impl Node {
    /// The entry for `key` when this node is a map.
    pub fn get(&self, key: &str) -> Option<&Entry> {
        match &self.value {
            Value::Map(entries) => entries.iter().find(|e| e.key == key),
            _ => None,
        }
    }
}

/// `text` as a YAML double-quoted scalar (`\\` and `"` escaped): read back as that very string
/// whatever the typing. `text` holds no control character (the callers refuse them).
pub fn double_quoted(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

/// `text` as a one-line YAML quoted scalar that reads back as `text` whatever the typing: single
/// quotes when double quotes would need an escape (`"` or `\\`) and single quotes need none
/// (`'` is the one character they escape, by doubling it), else double quotes. `text` holds no
/// line break or control character (the callers refuse them).
pub fn quoted(text: &str) -> String {
    if text.contains(['"', '\\']) && !text.contains('\'') {
        format!("'{text}'")
    } else {
        double_quoted(text)
    }
}

/// A plain value with an unquoted `: ` in it (or a `:` at its end), which YAML reads as the start
/// of a nested key and rejects: `description: Look up the forecast: rain and wind`.
#[derive(Clone, Debug, PartialEq)]
pub struct ColonInValue {
    /// The key the value belongs to, as written on its line.
    pub key: String,
    /// The value as written (whole-file offsets), without trailing blanks.
    pub range: TextRange,
    /// The value quoted ([`quoted`]): what replaces `range`.
    pub quoted: String,
}

/// The values of `text[range]` whose unquoted `: ` makes the YAML invalid, when quoting them all is
/// a certain repair: the quoted text parses (with `typing`) and each quoted value reads back as
/// one string, the value as written. `None` when no value has a `: `, or when quoting does not
/// repair the YAML (another error, a value that runs on over several lines, a line inside a
/// block scalar).
pub fn colon_in_values(text: &str, range: TextRange, typing: Typing) -> Option<Vec<ColonInValue>> {
    let source = &text[range.start..range.end];
    let mut found = Vec::new();
    for (start, line) in lines(source) {
        if let Some((key, value)) = colon_in_value(line) {
            let at = range.start + start;
            found.push(ColonInValue {
                key: line[key.start..key.end].to_string(),
                range: TextRange::new(at + value.start, at + value.end),
                quoted: quoted(&line[value.start..value.end]),
            });
        }
    }
    if found.is_empty() {
        return None;
    }
    // The repaired text, and where each quoted value sits in it.
    let mut repaired = String::with_capacity(text.len() + 2 * found.len());
    let mut expected = Vec::with_capacity(found.len());
    let mut at = 0;
    for candidate in &found {
        repaired.push_str(&text[at..candidate.range.start]);
        let start = repaired.len();
        repaired.push_str(&candidate.quoted);
        let written = &text[candidate.range.start..candidate.range.end];
        expected.push((TextRange::new(start, repaired.len()), written));
        at = candidate.range.end;
    }
    repaired.push_str(&text[at..]);
    let end = range.end + repaired.len() - text.len();
    let parsed = parse(&repaired, TextRange::new(range.start, end), typing).ok()?;
    let mut strings = Vec::new();
    if let Some(root) = &parsed.root {
        string_scalars(root, &mut strings);
    }
    expected
        .iter()
        .all(|(range, written)| strings.contains(&(*range, *written)))
        .then_some(found)
}

/// What is wrong with `values` (found by [`colon_in_values`]), for messages: "the value of
/// `description` has an unquoted `: `, …, so the frontmatter is not valid YAML".
pub fn colon_in_values_phrase(values: &[ColonInValue]) -> String {
    let keys: Vec<String> = values.iter().map(|v| format!("`{}`", v.key)).collect();
    let whose = match keys.len() {
        1 => format!("the value of {} has", keys[0]),
        _ => format!("the values of {} have", keys.join(", ")),
    };
    format!(
        "{whose} an unquoted `: `, which YAML reads as the start of another key, so the frontmatter is not valid YAML"
    )
}

/// The fix that quotes every value of `values` (found by [`colon_in_values`] in the file at
/// `path`).
pub fn quoting_fix(path: &Path, values: &[ColonInValue]) -> Fix {
    let keys: Vec<String> = values.iter().map(|v| format!("`{}`", v.key)).collect();
    Fix {
        title: match keys.len() {
            1 => format!("Quote the value of {}", keys[0]),
            _ => format!("Quote the values of {}", keys.join(", ")),
        },
        edits: values
            .iter()
            .map(|v| FileEdit {
                path: path.to_path_buf(),
                range: v.range,
                new_text: v.quoted.clone(),
            })
            .collect(),
    }
}

/// Every string scalar of the tree with its range, without recursion (trees are budgeted, not
/// shallow).
fn string_scalars<'n>(root: &'n Node, out: &mut Vec<(TextRange, &'n str)>) {
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        match &node.value {
            Value::Str(s) => out.push((node.range, s)),
            Value::List(items) => stack.extend(items),
            Value::Map(entries) => stack.extend(entries.iter().map(|e| &e.value)),
            _ => {}
        }
    }
}

/// On one line of block YAML (`key: value`, `- key: value`), the key's and the value's ranges
/// when the value is plain and holds a `: ` (or ends with `:`). A value with ` #` in it is left
/// alone: whether the writer meant a comment there is not certain.
fn colon_in_value(line: &str) -> Option<(TextRange, TextRange)> {
    let blanks = |s: &str| s.len() - s.trim_start_matches([' ', '\t']).len();
    let mut at = line.len() - line.trim_start_matches(' ').len();
    if line[at..].starts_with("- ") {
        at += 2;
        at += blanks(&line[at..]);
    }
    let rest = &line[at..];
    const INDICATORS: &[char] = &[
        '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@',
        '`', ' ', '\t',
    ];
    if rest.is_empty() || rest.starts_with(INDICATORS) {
        return None;
    }
    let colon = separator(rest, 0)?;
    let key = rest[..colon].trim_end_matches([' ', '\t']);
    if key.contains(" #") || key.contains("\t#") {
        return None;
    }
    let value_start = colon + 1 + blanks(&rest[colon + 1..]);
    let value = rest[value_start..].trim_end_matches([' ', '\t']);
    if value.is_empty()
        || value.starts_with(INDICATORS)
        || value.contains(" #")
        || value.contains("\t#")
        || separator(value, 0).is_none()
    {
        return None;
    }
    Some((
        TextRange::new(at, at + key.len()),
        TextRange::new(at + value_start, at + value_start + value.len()),
    ))
}

/// The first `:` at or after `from` that YAML reads as a key's end in block context: followed by
/// a blank or the end of the line.
fn separator(line: &str, from: usize) -> Option<usize> {
    line[from..]
        .match_indices(':')
        .map(|(i, _)| from + i)
        .find(|&i| matches!(line.as_bytes().get(i + 1), None | Some(b' ' | b'\t')))
}

/// The lines of `source` with their offsets: split at `\n`, `\r\n` and `\r`; a final empty line
/// after a last line break is included.
fn lines(source: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut line_start = Some(0);
    std::iter::from_fn(move || {
        let start = line_start?;
        let end = source[start..]
            .find(['\n', '\r'])
            .map_or(source.len(), |i| start + i);
        line_start = if end >= source.len() {
            None
        } else if source[end..].starts_with("\r\n") {
            Some(end + 2)
        } else {
            Some(end + 1)
        };
        Some((start, &source[start..end]))
    })
}

/// Parses `text[range]` (a frontmatter block inside a whole file) with the runtime's typing.
/// Ranges in the result are whole-file byte offsets.
pub fn parse(text: &str, range: TextRange, typing: Typing) -> Result<YamlDoc, YamlError> {
    let source = &text[range.start..range.end];
    if source.len() > MAX_YAML_BYTES {
        return Err(YamlError {
            kind: YamlErrorKind::OverBudget,
            message: format!(
                "the frontmatter is {} bytes; agentws parses at most {MAX_YAML_BYTES}",
                source.len()
            ),
            range: TextRange::new(range.start, range.start),
        });
    }
    let mut builder = Builder {
        source,
        base: range.start,
        typing,
        stack: Vec::new(),
        anchors: HashMap::new(),
        nodes: 0,
        collection_aliases: 0,
        doc: YamlDoc::default(),
        documents: 0,
        done: false,
    };
    builder.run()?;
    Ok(builder.doc)
}

struct Completed {
    node: Node,
    /// Source text of a scalar (`None` for collections).
    raw: Option<String>,
    plain: bool,
    count: usize,
}

enum Frame {
    Seq {
        items: Vec<Node>,
        start: usize,
        end: usize,
        anchor: usize,
        count: usize,
    },
    Map {
        entries: Vec<Entry>,
        /// Where each key of `entries` is, once there are more than a scan finds fast: a scan per
        /// key made maps of tens of thousands of keys quadratic.
        keys: KeyIndex,
        start: usize,
        end: usize,
        anchor: usize,
        count: usize,
        key: Option<Completed>,
        merges: Vec<Node>,
    },
}

/// The keys of a map being built, for the duplicate check: a scan of the entries up to
/// [`KeyIndex::SCAN`] of them, a hash map beyond.
#[derive(Default)]
struct KeyIndex(Option<HashMap<String, usize>>);

impl KeyIndex {
    const SCAN: usize = 16;

    /// Position in `entries` of the entry for `key`.
    fn find(&self, entries: &[Entry], key: &str) -> Option<usize> {
        match &self.0 {
            Some(index) => index.get(key).copied(),
            None => entries.iter().position(|e| e.key == key),
        }
    }

    /// Records `entries`' last entry, just pushed.
    fn pushed(&mut self, entries: &[Entry]) {
        match &mut self.0 {
            Some(index) => {
                let at = entries.len() - 1;
                index.insert(entries[at].key.clone(), at);
            }
            None if entries.len() > Self::SCAN => {
                let index = entries
                    .iter()
                    .enumerate()
                    .map(|(at, e)| (e.key.clone(), at))
                    .collect();
                self.0 = Some(index);
            }
            None => {}
        }
    }
}

struct Builder<'a> {
    source: &'a str,
    base: usize,
    typing: Typing,
    stack: Vec<Frame>,
    anchors: HashMap<usize, (Node, usize, Option<String>, bool)>,
    nodes: usize,
    collection_aliases: usize,
    doc: YamlDoc,
    documents: usize,
    done: bool,
}

impl Builder<'_> {
    fn range(&self, span: &Span) -> TextRange {
        let start = span.start.byte_offset().unwrap_or(0).min(self.source.len());
        let end = span
            .end
            .byte_offset()
            .unwrap_or(start)
            .clamp(start, self.source.len());
        TextRange::new(start + self.base, end + self.base)
    }

    fn error(&self, kind: YamlErrorKind, message: String, range: TextRange) -> YamlError {
        YamlError {
            kind,
            message,
            range,
        }
    }

    fn run(&mut self) -> Result<(), YamlError> {
        let mut options = Options::default();
        options.flow_nesting_limit = PARSER_NESTING_LIMIT;
        options.block_nesting_limit = PARSER_NESTING_LIMIT;
        options.emit_comments = false;
        let parser = Parser::new_from_str_with_options(self.source, options);
        for item in parser {
            let (event, span) = match item {
                Ok(pair) => pair,
                Err(err) => {
                    let marker = err.marker();
                    let at = marker
                        .byte_offset()
                        .unwrap_or_else(|| char_to_byte(self.source, marker.index()))
                        .min(self.source.len());
                    let at = self.base + at;
                    return Err(self.error(
                        YamlErrorKind::Syntax,
                        err.info().to_string(),
                        TextRange::new(at, at),
                    ));
                }
            };
            if self.done {
                match event {
                    Event::StreamEnd | Event::DocumentEnd => continue,
                    _ if self.typing == Typing::Jackson => return Ok(()),
                    _ => {
                        let r = self.range(&span);
                        return Err(self.error(
                            YamlErrorKind::MultipleDocuments,
                            "expected a single document in the stream".into(),
                            r,
                        ));
                    }
                }
            }
            self.event(event, &span)?;
        }
        Ok(())
    }

    fn depth_check(&self, span: &Span) -> Result<(), YamlError> {
        // SnakeYAML's Composer checks `depth > limit` before entering every node, scalars too, so
        // nodes at level limit + 1 (top level = 1) are still accepted.
        let level = self.stack.len() + 1;
        let limit = self.typing.runtime_depth_limit();
        if level > limit + 1 {
            let r = self.range(span);
            return Err(self.error(
                YamlErrorKind::TooDeep { limit },
                format!("nesting deeper than the runtime's limit of {limit}"),
                r,
            ));
        }
        Ok(())
    }

    fn count_node(&mut self, n: usize, span: &Span) -> Result<(), YamlError> {
        self.nodes += n;
        if self.nodes > MAX_NODES {
            let r = self.range(span);
            return Err(self.error(
                YamlErrorKind::OverBudget,
                format!("more than {MAX_NODES} YAML nodes after expanding aliases"),
                r,
            ));
        }
        Ok(())
    }

    fn event(&mut self, event: Event<'_>, span: &Span) -> Result<(), YamlError> {
        match event {
            Event::StreamStart | Event::StreamEnd => {}
            Event::DocumentStart(..) => {
                self.documents += 1;
            }
            Event::DocumentEnd if self.documents > 0 => {
                self.done = true;
            }
            Event::Alias(id) => {
                self.depth_check(span)?;
                let range = self.range(span);
                if self.typing == Typing::Jackson {
                    let name = self.source[range.start - self.base..range.end - self.base]
                        .trim_start_matches('*')
                        .to_string();
                    self.count_node(1, span)?;
                    return self.complete(Completed {
                        node: Node {
                            value: Value::Str(name.clone()),
                            range,
                            tag: None,
                        },
                        raw: Some(name),
                        plain: false,
                        count: 1,
                    });
                }
                let Some((node, count, raw, plain)) = self.anchors.get(&id).cloned() else {
                    return Err(self.error(
                        YamlErrorKind::Syntax,
                        "found undefined alias".into(),
                        range,
                    ));
                };
                if raw.is_none() {
                    self.collection_aliases += 1;
                    let limit = self.typing.runtime_alias_limit();
                    if self.collection_aliases > limit {
                        return Err(self.error(
                            YamlErrorKind::TooManyAliases { limit },
                            format!(
                                "number of aliases for non-scalar nodes exceeds the runtime's max={limit}"
                            ),
                            range,
                        ));
                    }
                }
                self.count_node(count, span)?;
                let mut node = node;
                node.range = range;
                node.tag = None;
                self.complete(Completed {
                    node,
                    raw,
                    plain,
                    count,
                })?;
            }
            Event::Scalar(text, style, anchor, tag) => {
                self.depth_check(span)?;
                self.count_node(1, span)?;
                let range = self.range(span);
                let plain = style == ScalarStyle::Plain;
                let text = self.without_missing_break(text, style, range);
                let value = self.type_scalar(&text, style, tag.as_deref(), range)?;
                let tag = tag.and(span.tag_span()).map(|t| self.range(&t));
                let completed = Completed {
                    node: Node { value, range, tag },
                    raw: Some(text.into_owned()),
                    plain,
                    count: 1,
                };
                if anchor != 0 {
                    self.anchors.insert(
                        anchor,
                        (
                            completed.node.clone(),
                            1,
                            completed.raw.clone(),
                            completed.plain,
                        ),
                    );
                }
                self.complete(completed)?;
            }
            Event::SequenceStart(_, anchor, tag) => {
                self.depth_check(span)?;
                self.count_node(1, span)?;
                self.collection_tag(tag.as_deref(), "seq", span)?;
                let r = self.range(span);
                self.stack.push(Frame::Seq {
                    items: Vec::new(),
                    start: r.start,
                    end: r.end,
                    anchor,
                    count: 1,
                });
            }
            Event::MappingStart(_, anchor, tag) => {
                self.depth_check(span)?;
                self.count_node(1, span)?;
                self.collection_tag(tag.as_deref(), "map", span)?;
                let r = self.range(span);
                self.stack.push(Frame::Map {
                    entries: Vec::new(),
                    keys: KeyIndex::default(),
                    start: r.start,
                    end: r.end,
                    anchor,
                    count: 1,
                    key: None,
                    merges: Vec::new(),
                });
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let end_range = self.range(span);
                let Some(frame) = self.stack.pop() else {
                    return Ok(());
                };
                let (node, anchor, count) = match frame {
                    Frame::Seq {
                        items,
                        start,
                        end,
                        anchor,
                        count,
                    } => {
                        let end = flow_end(self.source, self.base, end, end_range);
                        (
                            Node {
                                value: Value::List(items),
                                range: TextRange::new(start, end),
                                tag: None,
                            },
                            anchor,
                            count,
                        )
                    }
                    Frame::Map {
                        entries,
                        start,
                        end,
                        anchor,
                        count,
                        merges,
                        ..
                    } => {
                        let end = flow_end(self.source, self.base, end, end_range);
                        let entries = apply_merges(entries, merges);
                        (
                            Node {
                                value: Value::Map(entries),
                                range: TextRange::new(start, end),
                                tag: None,
                            },
                            anchor,
                            count,
                        )
                    }
                };
                if anchor != 0 {
                    self.anchors
                        .insert(anchor, (node.clone(), count, None, false));
                }
                self.complete(Completed {
                    node,
                    raw: None,
                    plain: false,
                    count,
                })?;
            }
            _ => {}
        }
        Ok(())
    }

    fn collection_tag(
        &self,
        tag: Option<&Tag>,
        expected: &str,
        span: &Span,
    ) -> Result<(), YamlError> {
        let Some(tag) = tag else { return Ok(()) };
        if self.typing == Typing::Jackson || tag.handle() == "!" && tag.suffix().is_empty() {
            return Ok(());
        }
        let ok = tag.handle() == "tag:yaml.org,2002:"
            && (tag.suffix() == expected
                || (expected == "seq" && matches!(tag.suffix(), "omap" | "pairs"))
                || (expected == "map" && tag.suffix() == "set"));
        if ok {
            Ok(())
        } else {
            let r = self.range(span);
            Err(self.error(
                YamlErrorKind::UnsupportedTag(tag.original()),
                format!(
                    "could not determine a constructor for the tag {}",
                    tag.original()
                ),
                r,
            ))
        }
    }

    /// A block scalar (`|`, `>`) that runs to the end of the text keeps a final line break only
    /// where the text has one: the runtime trims the frontmatter before reading it
    /// (`MarkdownSkillParser`: `matcher.group(1).trim()`), so a last-key description ends without
    /// it, and SnakeYAML keeps none; the parser here reads the end of the text as a line break.
    fn without_missing_break<'t>(
        &self,
        text: std::borrow::Cow<'t, str>,
        style: ScalarStyle,
        range: TextRange,
    ) -> std::borrow::Cow<'t, str> {
        let block = matches!(style, ScalarStyle::Literal | ScalarStyle::Folded);
        let end = range.end.saturating_sub(self.base).min(self.source.len());
        let at_the_end = self.source[end..].trim().is_empty();
        let source_breaks = self.source.ends_with('\n') || self.source.ends_with('\r');
        match text {
            std::borrow::Cow::Owned(mut owned)
                if block && at_the_end && !source_breaks && owned.ends_with('\n') =>
            {
                owned.pop();
                std::borrow::Cow::Owned(owned)
            }
            std::borrow::Cow::Borrowed(b)
                if block && at_the_end && !source_breaks && b.ends_with('\n') =>
            {
                std::borrow::Cow::Borrowed(&b[..b.len() - 1])
            }
            other => other,
        }
    }

    fn type_scalar(
        &self,
        text: &str,
        style: ScalarStyle,
        tag: Option<&Tag>,
        range: TextRange,
    ) -> Result<Value, YamlError> {
        let bad_number = || YamlError {
            kind: YamlErrorKind::BadNumber,
            message: format!("`{text}` looks like a number but is not one"),
            range,
        };
        if let Some(tag) = tag {
            let core = tag.handle() == "tag:yaml.org,2002:";
            let suffix = tag.suffix();
            if tag.handle() == "!" && suffix.is_empty() {
                return Ok(Value::Str(text.to_string()));
            }
            if self.typing == Typing::Jackson {
                let value = match (core, suffix) {
                    (true, "int") => jackson_int(text),
                    (true, "float") => jackson_float(text),
                    (true, "bool") => jackson_bool(text),
                    (true, "null") => Some(Value::Null),
                    _ => None,
                };
                return Ok(value.unwrap_or_else(|| Value::Str(text.to_string())));
            }
            return match (core, suffix) {
                (true, "str") => Ok(Value::Str(text.to_string())),
                (true, "int") => yaml11_int(text).ok_or_else(bad_number),
                (true, "float") => yaml11_float(text).ok_or_else(bad_number),
                (true, "bool") => yaml11_bool(text).ok_or_else(bad_number),
                (true, "null") => Ok(Value::Null),
                (true, "timestamp") => yaml11_timestamp(text).ok_or_else(bad_number),
                _ => Err(YamlError {
                    kind: YamlErrorKind::UnsupportedTag(tag.original()),
                    message: format!(
                        "could not determine a constructor for the tag {}",
                        tag.original()
                    ),
                    range,
                }),
            };
        }
        if style != ScalarStyle::Plain {
            return Ok(Value::Str(text.to_string()));
        }
        match self.typing {
            Typing::Yaml11 => match resolve_yaml11(text) {
                Resolved::Str => Ok(Value::Str(text.to_string())),
                Resolved::Null => Ok(Value::Null),
                Resolved::Bool => Ok(yaml11_bool(text).expect("resolver matched")),
                Resolved::Int => yaml11_int(text).ok_or_else(bad_number),
                Resolved::Float => yaml11_float(text).ok_or_else(bad_number),
                Resolved::Timestamp => yaml11_timestamp(text).ok_or_else(bad_number),
            },
            Typing::Jackson => Ok(match resolve_yaml11(text) {
                Resolved::Null => Value::Null,
                Resolved::Bool => {
                    jackson_bool(text).unwrap_or_else(|| Value::Str(text.to_string()))
                }
                Resolved::Int => jackson_int(text).unwrap_or_else(|| Value::Str(text.to_string())),
                Resolved::Float => {
                    jackson_float(text).unwrap_or_else(|| Value::Str(text.to_string()))
                }
                Resolved::Str | Resolved::Timestamp => Value::Str(text.to_string()),
            }),
        }
    }

    fn complete(&mut self, completed: Completed) -> Result<(), YamlError> {
        let Some(frame) = self.stack.last_mut() else {
            self.doc.root = Some(completed.node);
            return Ok(());
        };
        match frame {
            Frame::Seq {
                items, end, count, ..
            } => {
                *end = (*end).max(completed.node.range.end);
                *count += completed.count;
                if completed.plain {
                    note_surprise(&mut self.doc, self.typing, &completed, String::new());
                }
                items.push(completed.node);
            }
            Frame::Map {
                entries,
                keys,
                end,
                count,
                key,
                merges,
                ..
            } => {
                *end = (*end).max(completed.node.range.end);
                *count += completed.count;
                let Some(k) = key.take() else {
                    *key = Some(completed);
                    return Ok(());
                };
                let key_range = k.node.range;
                let key_text = match (&k.raw, self.typing) {
                    // `<<` merges maps under SnakeYAML's SafeConstructor.
                    (Some(raw), Typing::Yaml11) if k.plain && raw == "<<" => {
                        merges.push(completed.node);
                        return Ok(());
                    }
                    (Some(raw), Typing::Jackson) => raw.clone(),
                    (Some(_), Typing::Yaml11) => match &k.node.value {
                        Value::Str(s) => s.clone(),
                        other => {
                            // Duplicates are detected before the runtime drops non-string keys.
                            let source = k.raw.clone().unwrap_or_default();
                            self.doc.dropped_keys.push(DroppedKey {
                                source,
                                range: key_range,
                                value: other.clone(),
                            });
                            return Ok(());
                        }
                    },
                    (None, Typing::Yaml11) => {
                        self.doc.dropped_keys.push(DroppedKey {
                            source: String::new(),
                            range: key_range,
                            value: k.node.value.clone(),
                        });
                        return Ok(());
                    }
                    (None, Typing::Jackson) => {
                        return Err(YamlError {
                            kind: YamlErrorKind::Syntax,
                            message: "a map or list cannot be a key".into(),
                            range: key_range,
                        });
                    }
                };
                if completed.plain {
                    note_surprise(&mut self.doc, self.typing, &completed, key_text.clone());
                }
                if let Some(at) = keys.find(entries, &key_text) {
                    let existing = &mut entries[at];
                    if self.typing == Typing::Yaml11 {
                        return Err(YamlError {
                            kind: YamlErrorKind::DuplicateKey {
                                key: key_text.clone(),
                                first: existing.key_range,
                            },
                            message: format!("found duplicate key {key_text}"),
                            range: key_range,
                        });
                    }
                    // Jackson: LinkedHashMap.put keeps the first position, takes the last value.
                    existing.value = completed.node;
                    return Ok(());
                }
                entries.push(Entry {
                    key: key_text,
                    key_range,
                    value: completed.node,
                });
                keys.pushed(entries);
            }
        }
        Ok(())
    }
}

/// End of a collection: the last child's end for block style, the closing bracket for flow.
fn flow_end(source: &str, base: usize, children_end: usize, end_event: TextRange) -> usize {
    let rel = end_event.start.saturating_sub(base);
    match source.as_bytes().get(rel) {
        Some(b']' | b'}') => end_event.end.max(rel + base + 1),
        _ => children_end,
    }
}

fn apply_merges(entries: Vec<Entry>, merges: Vec<Node>) -> Vec<Entry> {
    if merges.is_empty() {
        return entries;
    }
    let mut out: Vec<Entry> = Vec::new();
    // Position of each key in `out`: a search of `out` per key would be quadratic.
    let mut at: HashMap<String, usize> = HashMap::new();
    let mut sources: Vec<&Node> = Vec::new();
    for m in &merges {
        match &m.value {
            Value::List(items) => sources.extend(items.iter()),
            _ => sources.push(m),
        }
    }
    for source in sources {
        if let Value::Map(merged) = &source.value {
            for e in merged {
                if !at.contains_key(&e.key) {
                    at.insert(e.key.clone(), out.len());
                    out.push(e.clone());
                }
            }
        }
    }
    for e in entries {
        match at.get(&e.key) {
            Some(&i) => out[i] = e,
            None => {
                at.insert(e.key.clone(), out.len());
                out.push(e);
            }
        }
    }
    out
}

fn note_surprise(doc: &mut YamlDoc, typing: Typing, completed: &Completed, key_path: String) {
    if typing != Typing::Yaml11 {
        return;
    }
    let Some(raw) = &completed.raw else { return };
    let value = &completed.node.value;
    let surprising = match value {
        Value::Str(_) | Value::Null | Value::List(_) | Value::Map(_) => false,
        Value::Bool(_) => !matches!(raw.to_ascii_lowercase().as_str(), "true" | "false"),
        Value::Int(text) => text != raw,
        // `2.0` renders as `2.0`: typed, but the prompt shows what was written.
        Value::Float { java, .. } => java != raw,
        Value::Date { .. } => true,
    };
    if surprising {
        doc.surprises.push(Surprise {
            source: raw.clone(),
            range: completed.node.range,
            tag: completed.node.tag,
            value: value.clone(),
            key_path,
        });
    }
}

fn char_to_byte(s: &str, chars: usize) -> usize {
    s.char_indices().nth(chars).map_or(s.len(), |(i, _)| i)
}

// ---------------------------------------------------------------------------------------------
// YAML 1.1 scalar resolution (SnakeYAML `Resolver`), without regex: each matcher mirrors one
// pattern of the resolver.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Resolved {
    Str,
    Null,
    Bool,
    Int,
    Float,
    Timestamp,
}

/// SnakeYAML's implicit resolvers, tried in registration order (BOOL, INT, FLOAT, MERGE, NULL,
/// TIMESTAMP) for the scalar's first character.
fn resolve_yaml11(s: &str) -> Resolved {
    if s.is_empty() {
        return Resolved::Null;
    }
    let first = s.as_bytes()[0];
    if b"yYnNtTfFoO".contains(&first) && is_yaml11_bool(s) {
        return Resolved::Bool;
    }
    if b"-+0123456789".contains(&first) && is_yaml11_int(s) {
        return Resolved::Int;
    }
    if b"-+0123456789.".contains(&first) && is_yaml11_float(s) {
        return Resolved::Float;
    }
    if matches!(s, "~" | "null" | "Null" | "NULL") {
        return Resolved::Null;
    }
    if first.is_ascii_digit() && parse_timestamp(s).is_some() {
        return Resolved::Timestamp;
    }
    Resolved::Str
}

fn is_yaml11_bool(s: &str) -> bool {
    matches!(
        s,
        "yes"
            | "Yes"
            | "YES"
            | "no"
            | "No"
            | "NO"
            | "true"
            | "True"
            | "TRUE"
            | "false"
            | "False"
            | "FALSE"
            | "on"
            | "On"
            | "ON"
            | "off"
            | "Off"
            | "OFF"
    )
}

fn strip_sign(s: &str) -> (bool, &str) {
    match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    }
}

/// `_*[digits]+[digits_]*`: only digits and `_`, at least one digit.
fn digits_with_underscores(s: &str, digit: impl Fn(u8) -> bool) -> bool {
    s.bytes().all(|b| b == b'_' || digit(b)) && s.bytes().any(digit)
}

/// `(:[0-5]?[0-9])+` after a first part.
fn sexagesimal_tail(parts: &[&str]) -> bool {
    !parts.is_empty()
        && parts.iter().all(|p| {
            let b = p.as_bytes();
            match b.len() {
                1 => b[0].is_ascii_digit(),
                2 => (b'0'..=b'5').contains(&b[0]) && b[1].is_ascii_digit(),
                _ => false,
            }
        })
}

/// `[1-9][0-9_]*` (or `[0-9][0-9_]*` when `zero_ok`).
fn decimal_head(s: &str, zero_ok: bool) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && (if zero_ok {
            b[0].is_ascii_digit()
        } else {
            (b'1'..=b'9').contains(&b[0])
        })
        && b[1..].iter().all(|c| c.is_ascii_digit() || *c == b'_')
}

fn is_yaml11_int(s: &str) -> bool {
    let (_, r) = strip_sign(s);
    if let Some(bin) = r.strip_prefix("0b") {
        return digits_with_underscores(bin, |b| b == b'0' || b == b'1');
    }
    if let Some(hex) = r.strip_prefix("0x") {
        return digits_with_underscores(hex, |b| b.is_ascii_hexdigit());
    }
    if r == "0" {
        return true;
    }
    if let Some(oct) = r.strip_prefix('0') {
        return digits_with_underscores(oct, |b| (b'0'..=b'7').contains(&b));
    }
    if decimal_head(r, false) {
        return true;
    }
    let parts: Vec<&str> = r.split(':').collect();
    parts.len() > 1 && decimal_head(parts[0], false) && sexagesimal_tail(&parts[1..])
}

/// `[eE][-+]?[0-9]+`
fn is_exponent(s: &str) -> bool {
    let Some(rest) = s.strip_prefix(['e', 'E']) else {
        return false;
    };
    let rest = rest.strip_prefix(['-', '+']).unwrap_or(rest);
    !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit())
}

fn split_exponent(s: &str) -> (&str, Option<&str>) {
    match s.find(['e', 'E']) {
        Some(i) => (&s[..i], Some(&s[i..])),
        None => (s, None),
    }
}

fn is_yaml11_float(s: &str) -> bool {
    if matches!(s, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    let (_, r) = strip_sign(s);
    if matches!(r, ".inf" | ".Inf" | ".INF") {
        return true;
    }
    let frac_ok = |f: &str| f.bytes().all(|b| b.is_ascii_digit() || b == b'_');
    // [0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*
    if r.contains(':') {
        let Some((whole, frac)) = r.rsplit_once('.') else {
            return false;
        };
        let parts: Vec<&str> = whole.split(':').collect();
        return parts.len() > 1
            && decimal_head(parts[0], true)
            && sexagesimal_tail(&parts[1..])
            && frac_ok(frac);
    }
    let (mantissa, exp) = split_exponent(r);
    if let Some(exp) = exp {
        if !is_exponent(exp) {
            return false;
        }
    }
    match mantissa.split_once('.') {
        // [0-9][0-9_]*\.[0-9_]*(exp)?  |  \.[0-9_]+(exp)?
        Some(("", frac)) => !frac.is_empty() && frac_ok(frac),
        Some((whole, frac)) => decimal_head(whole, true) && frac_ok(frac),
        // [0-9][0-9_]*[eE][-+]?[0-9]+
        None => exp.is_some() && decimal_head(mantissa, true),
    }
}

fn yaml11_bool(s: &str) -> Option<Value> {
    match s.to_ascii_lowercase().as_str() {
        "yes" | "true" | "on" => Some(Value::Bool(true)),
        "no" | "false" | "off" => Some(Value::Bool(false)),
        _ => None,
    }
}

/// `ConstructYamlInt`: `_` removed, then base by prefix, base 60 with `:`.
fn yaml11_int(s: &str) -> Option<Value> {
    let cleaned: String = s.chars().filter(|c| *c != '_').collect();
    let (negative, r) = strip_sign(&cleaned);
    let magnitude = if r == "0" {
        vec![0]
    } else if let Some(bin) = r.strip_prefix("0b") {
        big_from_digits(bin, 2)?
    } else if let Some(hex) = r.strip_prefix("0x") {
        big_from_digits(hex, 16)?
    } else if let Some(oct) = r.strip_prefix('0') {
        big_from_digits(oct, 8)?
    } else if r.contains(':') {
        let mut acc = vec![0u32];
        for part in r.split(':') {
            let v: u32 = part.parse().ok()?;
            big_mul_add(&mut acc, 60, 0);
            big_mul_add(&mut acc, 1, v);
        }
        acc
    } else {
        big_from_digits(r, 10)?
    };
    Some(Value::Int(big_to_string(&magnitude, negative)))
}

fn jackson_int(s: &str) -> Option<Value> {
    if s.contains(':') {
        return None;
    }
    yaml11_int(s)
}

fn jackson_bool(s: &str) -> Option<Value> {
    match s.to_ascii_lowercase().as_str() {
        "true" => Some(Value::Bool(true)),
        "false" => Some(Value::Bool(false)),
        _ => None,
    }
}

fn jackson_float(s: &str) -> Option<Value> {
    let cleaned: String = s.chars().filter(|c| *c != '_').collect();
    if cleaned.contains(':') || cleaned.to_ascii_lowercase().contains("inf") {
        return None;
    }
    let value: f64 = cleaned.parse().ok()?;
    value.is_finite().then(|| Value::Float {
        value,
        java: java::double_to_string(value),
    })
}

/// `ConstructYamlFloat`.
fn yaml11_float(s: &str) -> Option<Value> {
    let cleaned: String = s.chars().filter(|c| *c != '_').collect();
    let (negative, r) = strip_sign(&cleaned);
    let sign = if negative { -1.0 } else { 1.0 };
    let lower = r.to_ascii_lowercase();
    let value = if lower == ".inf" {
        sign * f64::INFINITY
    } else if lower == ".nan" {
        f64::NAN
    } else if r.contains(':') {
        let mut val = 0.0;
        let mut bes = 1.0;
        for part in r.split(':').rev() {
            val += java::parse_double(part)? * bes;
            bes *= 60.0;
        }
        sign * val
    } else {
        sign * java::parse_double(r)?
    };
    Some(Value::Float {
        value,
        java: java::double_to_string(value),
    })
}

fn big_from_digits(s: &str, base: u32) -> Option<Vec<u32>> {
    if s.is_empty() {
        return None;
    }
    let mut acc = vec![0u32];
    for c in s.chars() {
        let d = c.to_digit(base)?;
        big_mul_add(&mut acc, base, d);
    }
    Some(acc)
}

/// Little-endian base-10^9 limbs: `acc = acc * mul + add`.
fn big_mul_add(acc: &mut Vec<u32>, mul: u32, add: u32) {
    const LIMB: u64 = 1_000_000_000;
    let mut carry = add as u64;
    for limb in acc.iter_mut() {
        let v = *limb as u64 * mul as u64 + carry;
        *limb = (v % LIMB) as u32;
        carry = v / LIMB;
    }
    while carry > 0 {
        acc.push((carry % LIMB) as u32);
        carry /= LIMB;
    }
}

fn big_to_string(limbs: &[u32], negative: bool) -> String {
    let mut out = String::new();
    let mut iter = limbs.iter().rev().skip_while(|l| **l == 0).peekable();
    if iter.peek().is_none() {
        return "0".to_string();
    }
    if negative {
        out.push('-');
    }
    let mut first = true;
    for limb in iter {
        if first {
            out.push_str(&limb.to_string());
            first = false;
        } else {
            out.push_str(&format!("{limb:09}"));
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Timestamps (`ConstructYamlTimestamp`), rendered like `java.util.Date.toString()` in UTC.

struct Timestamp {
    year: i64,
    month: i64,
    day: i64,
    hour: i64,
    minute: i64,
    second: i64,
    /// Offset east of UTC in minutes.
    offset: i64,
}

fn take_digits(s: &str, min: usize, max: usize) -> Option<(i64, &str)> {
    let n = s
        .bytes()
        .take(max)
        .take_while(|b| b.is_ascii_digit())
        .count();
    if n < min {
        return None;
    }
    Some((s[..n].parse().ok()?, &s[n..]))
}

fn parse_timestamp(s: &str) -> Option<Timestamp> {
    let (year, r) = take_digits(s, 4, 4)?;
    let r = r.strip_prefix('-')?;
    let (month, r) = take_digits(r, 1, 2)?;
    let r = r.strip_prefix('-')?;
    let (day, r) = take_digits(r, 1, 2)?;
    let mut ts = Timestamp {
        year,
        month,
        day,
        hour: 0,
        minute: 0,
        second: 0,
        offset: 0,
    };
    if r.is_empty() {
        // The date-only branch of the resolver wants exactly two digits each.
        return (s.len() == 10).then_some(ts);
    }
    let r = if let Some(rest) = r.strip_prefix(['T', 't']) {
        rest
    } else {
        let rest = r.trim_start_matches([' ', '\t']);
        if rest.len() == r.len() {
            return None;
        }
        rest
    };
    let (hour, r) = take_digits(r, 1, 2)?;
    let r = r.strip_prefix(':')?;
    let (minute, r) = take_digits(r, 2, 2)?;
    let r = r.strip_prefix(':')?;
    let (second, mut r) = take_digits(r, 2, 2)?;
    if let Some(rest) = r.strip_prefix('.') {
        r = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    }
    let r = r.trim_start_matches([' ', '\t']);
    if r == "Z" {
        // UTC, the default.
    } else if let Some(rest) = r.strip_prefix(['+', '-']) {
        let negative = r.starts_with('-');
        let (hh, rest) = take_digits(rest, 1, 2)?;
        let mm = if let Some(rest) = rest.strip_prefix(':') {
            let (mm, rest) = take_digits(rest, 2, 2)?;
            if !rest.is_empty() {
                return None;
            }
            mm
        } else if rest.is_empty() {
            0
        } else {
            return None;
        };
        ts.offset = if negative {
            -(hh * 60 + mm)
        } else {
            hh * 60 + mm
        };
    } else if !r.is_empty() {
        return None;
    }
    ts.hour = hour;
    ts.minute = minute;
    ts.second = second;
    Some(ts)
}

fn yaml11_timestamp(s: &str) -> Option<Value> {
    let ts = parse_timestamp(s)?;
    let seconds = java::days_from_civil(ts.year, ts.month, ts.day) * 86_400
        + ts.hour * 3600
        + ts.minute * 60
        + ts.second
        - ts.offset * 60;
    let java = java::util_date_utc(seconds);
    Some(Value::Date {
        source: s.to_string(),
        java,
    })
}

// ---------------------------------------------------------------------------------------------
// The runtime's fallback line parser (harness-spec §2.3), used by the skill parser after any YAML
// exception.

/// Why a top-level key written in the frontmatter does not survive the fallback parser.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LostReason {
    /// `key: |` / `key: >`: block scalars are skipped.
    BlockScalar,
    /// `key:` with nothing after it (a nested map or list follows, or the value is empty).
    EmptyValue,
    /// The line does not match `^[A-Za-z][A-Za-z0-9_-]*\s*:` (quoted key, spaces in the key, …).
    NotAKeyLine,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LostKey {
    /// The key as written (best effort for lines that do not match the key pattern).
    pub key: String,
    /// The line's key (or whole line) range.
    pub range: TextRange,
    pub reason: LostReason,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Fallback {
    /// Entries as the runtime holds them: all values strings, duplicates keep the last value in
    /// the first position.
    pub entries: Vec<Entry>,
    pub lost: Vec<LostKey>,
}

/// The runtime's fallback line parser over `text[range]`.
pub fn fallback(text: &str, range: TextRange) -> Fallback {
    let mut out = Fallback::default();
    for (start, line) in lines(&text[range.start..range.end]) {
        fallback_line(line, range.start + start, &mut out);
    }
    out
}

fn fallback_line(line: &str, base: usize, out: &mut Fallback) {
    if java::trim(line).is_empty()
        || line.starts_with([' ', '\t'])
        || java::trim(line).starts_with('-')
    {
        return;
    }
    // ^([A-Za-z][A-Za-z0-9_-]*)\s*:\s*(.*)$
    let key_len = line
        .bytes()
        .enumerate()
        .take_while(|(i, b)| {
            if *i == 0 {
                b.is_ascii_alphabetic()
            } else {
                b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-'
            }
        })
        .count();
    let after_key = &line[key_len..];
    let after_space =
        after_key.trim_start_matches(|c: char| c.is_ascii() && is_java_space(c as u8));
    let matched = key_len > 0 && after_space.starts_with(':');
    if !matched {
        if let Some(colon) = line.find(':') {
            out.lost.push(LostKey {
                key: line[..colon].trim().to_string(),
                range: TextRange::new(base, base + colon),
                reason: LostReason::NotAKeyLine,
            });
        }
        return;
    }
    let key = &line[..key_len];
    let key_range = TextRange::new(base, base + key_len);
    let value_part = &after_space[1..];
    let value_trimmed_start =
        value_part.trim_start_matches(|c: char| c.is_ascii() && is_java_space(c as u8));
    let value_offset = base + (line.len() - value_trimmed_start.len());
    // `.` does not match Java line terminators; `$` may sit before a final one.
    let mut value = value_trimmed_start;
    if let Some(stripped) = value.strip_suffix(['\u{85}', '\u{2028}', '\u{2029}']) {
        value = stripped;
    }
    if value.contains(['\u{85}', '\u{2028}', '\u{2029}']) {
        return;
    }
    let value = java::trim(value);
    if value.is_empty() {
        out.lost.push(LostKey {
            key: key.to_string(),
            range: key_range,
            reason: LostReason::EmptyValue,
        });
        return;
    }
    if value.starts_with(['|', '>']) {
        out.lost.push(LostKey {
            key: key.to_string(),
            range: key_range,
            reason: LostReason::BlockScalar,
        });
        return;
    }
    let value_range = TextRange::new(value_offset, value_offset + value.len());
    let bytes = value.as_bytes();
    let unquoted = if bytes.len() >= 2
        && (bytes[0] == b'"' || bytes[0] == b'\'')
        && bytes[bytes.len() - 1] == bytes[0]
    {
        &value[1..value.len() - 1]
    } else {
        value
    };
    let node = Node {
        value: Value::Str(unquoted.to_string()),
        range: value_range,
        tag: None,
    };
    if let Some(existing) = out.entries.iter_mut().find(|e| e.key == key) {
        existing.value = node;
    } else {
        out.entries.push(Entry {
            key: key.to_string(),
            key_range,
            value: node,
        });
    }
}

fn is_java_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str, typing: Typing) -> YamlDoc {
        parse(text, TextRange::new(0, text.len()), typing).unwrap()
    }

    fn value(text: &str, typing: Typing) -> Value {
        let d = doc(&format!("k: {text}"), typing);
        d.root.unwrap().get("k").unwrap().value.value.clone()
    }

    fn java(text: &str) -> String {
        value(text, Typing::Yaml11).java_string().unwrap()
    }

    #[test]
    fn ranges_are_whole_file_offsets() {
        let text = "---\nname: 技能\ndescription: \"🌐 web\"\n---\n";
        let d = parse(text, TextRange::new(4, 40), Typing::Yaml11).unwrap();
        let root = d.root.unwrap();
        let name = root.get("name").unwrap();
        assert_eq!(name.key_range, TextRange::new(4, 8));
        assert_eq!(name.value.range, TextRange::new(10, 16));
        assert_eq!(&text[10..16], "技能");
        let desc = root.get("description").unwrap();
        assert_eq!(desc.value.value, Value::Str("🌐 web".into()));
        assert_eq!(
            &text[desc.value.range.start..desc.value.range.end],
            "\"🌐 web\""
        );
        assert_eq!(root.range, TextRange::new(4, 40));
    }

    #[test]
    fn yaml11_typing() {
        for (src, expected) in [
            ("yes", "true"),
            ("No", "false"),
            ("OFF", "false"),
            ("on", "true"),
            ("1.0", "1.0"),
            ("1.10", "1.1"),
            ("1e10", "1.0E10"),
            ("0.0001", "1.0E-4"),
            ("12345678.5", "1.23456785E7"),
            (".inf", "Infinity"),
            ("-.inf", "-Infinity"),
            (".nan", "NaN"),
            ("1:30", "90"),
            ("-1:30", "-90"),
            ("1:30.5", "90.5"),
            ("0x1F", "31"),
            ("010", "8"),
            ("0b101", "5"),
            ("1_000", "1000"),
            (
                "123456789012345678901234567890",
                "123456789012345678901234567890",
            ),
            ("2024-01-01", "Mon Jan 01 00:00:00 UTC 2024"),
            (
                "2001-12-14t21:59:43.10-05:00",
                "Sat Dec 15 02:59:43 UTC 2001",
            ),
            ("2024-1-1 10:00:00", "Mon Jan 01 10:00:00 UTC 2024"),
            ("~", "null"),
            ("0o17", "0o17"),
            ("08", "08"),
            ("1.0.0", "1.0.0"),
            ("y", "y"),
            ("tRuE", "tRuE"),
        ] {
            assert_eq!(java(src), expected, "{src}");
        }
        assert_eq!(value("\"yes\"", Typing::Yaml11), Value::Str("yes".into()));
        assert_eq!(value("!!str 123", Typing::Yaml11), Value::Str("123".into()));
        assert_eq!(value("", Typing::Yaml11), Value::Null);
    }

    #[test]
    fn jackson_typing() {
        assert_eq!(value("yes", Typing::Jackson), Value::Str("yes".into()));
        assert_eq!(value("True", Typing::Jackson), Value::Bool(true));
        assert_eq!(
            value("2024-01-01", Typing::Jackson),
            Value::Str("2024-01-01".into())
        );
        assert_eq!(value("1:30", Typing::Jackson), Value::Str("1:30".into()));
        assert_eq!(value("15", Typing::Jackson), Value::Int("15".into()));
        assert_eq!(value("0x10", Typing::Jackson), Value::Int("16".into()));
        assert_eq!(
            value("0.85", Typing::Jackson).java_string().unwrap(),
            "0.85"
        );
        assert_eq!(value("~", Typing::Jackson), Value::Null);
        // Aliases are not resolved: the anchor's name comes back as a string.
        let d = doc("a: &x [1, 2]\nb: *x\n", Typing::Jackson);
        assert_eq!(
            d.root.unwrap().get("b").unwrap().value.value,
            Value::Str("x".into())
        );
        // Duplicate keys: last value, first position.
        let d = doc("a: 1\nb: 2\na: 3\n", Typing::Jackson);
        let root = d.root.unwrap();
        let Value::Map(entries) = &root.value else {
            panic!()
        };
        assert_eq!(entries[0].key, "a");
        assert_eq!(entries[0].value.value, Value::Int("3".into()));
    }

    #[test]
    fn non_string_keys_are_dropped_and_duplicates_fail() {
        let d = doc("1: a\nyes: b\nname: c\n", Typing::Yaml11);
        assert_eq!(d.dropped_keys.len(), 2);
        assert_eq!(d.dropped_keys[1].value, Value::Bool(true));
        assert_eq!(d.dropped_keys[1].range, TextRange::new(5, 8));
        let err = parse("a: 1\na: 2\n", TextRange::new(0, 10), Typing::Yaml11).unwrap_err();
        assert_eq!(
            err.kind,
            YamlErrorKind::DuplicateKey {
                key: "a".into(),
                first: TextRange::new(0, 1)
            }
        );
        assert_eq!(err.range, TextRange::new(5, 6));
    }

    #[test]
    fn surprises_carry_rendered_values() {
        let d = doc(
            "version: 1.0\nrelease: 1.10\nbig: 1.5e+3\nwhen: 2024-01-01\nok: hello\nflag: true\nlist: [yes]\n",
            Typing::Yaml11,
        );
        let found: Vec<(&str, &str)> = d
            .surprises
            .iter()
            .map(|s| (s.key_path.as_str(), s.source.as_str()))
            .collect();
        assert_eq!(
            found,
            // `1.0` is a double that Java prints as `1.0`: what was written, so no surprise.
            vec![
                ("release", "1.10"),
                ("big", "1.5e+3"),
                ("when", "2024-01-01"),
                ("", "yes")
            ]
        );
    }

    #[test]
    fn block_scalars_and_nested_maps() {
        let d = doc(
            "a: |\n  line1\n  line2\nb: >\n  a\n  b\nmetadata: {\"clawdbot\":{\"emoji\":\"🌐\"}}\n",
            Typing::Yaml11,
        );
        let root = d.root.unwrap();
        assert_eq!(
            root.get("a").unwrap().value.value,
            Value::Str("line1\nline2\n".into())
        );
        assert_eq!(
            root.get("b").unwrap().value.value,
            Value::Str("a b\n".into())
        );
        let meta = &root.get("metadata").unwrap().value;
        let inner = &meta.get("clawdbot").unwrap().value;
        assert_eq!(
            inner.get("emoji").unwrap().value.value,
            Value::Str("🌐".into())
        );
    }

    #[test]
    fn runtime_limits() {
        // 11 nested levels of nodes pass SnakeYAML's limit of 10, 12 do not.
        let ok = format!("{}x{}", "[".repeat(10), "]".repeat(10));
        assert!(parse(&ok, TextRange::new(0, ok.len()), Typing::Yaml11).is_ok());
        let deep = format!("{}x{}", "[".repeat(11), "]".repeat(11));
        let err = parse(&deep, TextRange::new(0, deep.len()), Typing::Yaml11).unwrap_err();
        assert_eq!(err.kind, YamlErrorKind::TooDeep { limit: 10 });
        let mut aliases = String::from("a: &a [1]\nb: [");
        aliases.push_str(&["*a"; 11].join(", "));
        aliases.push_str("]\n");
        let err = parse(&aliases, TextRange::new(0, aliases.len()), Typing::Yaml11).unwrap_err();
        assert_eq!(err.kind, YamlErrorKind::TooManyAliases { limit: 10 });
        let err = parse("a: !custom x", TextRange::new(0, 12), Typing::Yaml11).unwrap_err();
        assert!(matches!(err.kind, YamlErrorKind::UnsupportedTag(_)));
    }

    #[test]
    fn hostile_documents_are_errors() {
        // Billion laughs with scalar aliases only (the runtime's collection-alias limit does not
        // count those), so our node budget is what stops it.
        let mut laughs = String::from("a: &a [\"lol\"]\n");
        let mut prev = "a".to_string();
        for i in 0..10 {
            let name = format!("l{i}");
            laughs.push_str(&format!(
                "{name}: &{name} [{}]\n",
                vec![format!("*{prev}"); 10].join(",")
            ));
            prev = name;
        }
        let err = parse(&laughs, TextRange::new(0, laughs.len()), Typing::Yaml11).unwrap_err();
        assert_eq!(err.kind, YamlErrorKind::TooManyAliases { limit: 10 });
        // Within the runtime's 10 aliases a document can still grow 32-fold: our node budget
        // stops it.
        let mut grow = format!("l0: &l0 [{}]\n", ["x"; 5000].join(","));
        for i in 1..=5 {
            grow.push_str(&format!("l{i}: &l{i} [*l{}, *l{}]\n", i - 1, i - 1));
        }
        let err = parse(&grow, TextRange::new(0, grow.len()), Typing::Yaml11).unwrap_err();
        assert_eq!(err.kind, YamlErrorKind::OverBudget);
        assert!(parse(&laughs, TextRange::new(0, laughs.len()), Typing::Jackson).is_ok());
        let deep = format!("{}x{}", "[".repeat(10_000), "]".repeat(10_000));
        for typing in [Typing::Yaml11, Typing::Jackson] {
            assert!(parse(&deep, TextRange::new(0, deep.len()), typing).is_err());
        }
        let deep_block: String = (0..10_000)
            .map(|i| format!("{}k:\n", " ".repeat(i)))
            .collect();
        assert!(parse(
            &deep_block,
            TextRange::new(0, deep_block.len()),
            Typing::Jackson
        )
        .is_err());
        let huge = "a: b\n".repeat(MAX_YAML_BYTES / 5 + 1);
        let err = parse(&huge, TextRange::new(0, huge.len()), Typing::Jackson).unwrap_err();
        assert_eq!(err.kind, YamlErrorKind::OverBudget);
        let many = format!("[{}]", vec!["1"; MAX_NODES + 1].join(","));
        let err = parse(&many, TextRange::new(0, many.len()), Typing::Jackson).unwrap_err();
        assert_eq!(err.kind, YamlErrorKind::OverBudget);
    }

    #[test]
    fn syntax_errors_have_positions() {
        let text = "name: a\n\tdescription: b\n";
        let err = parse(text, TextRange::new(0, text.len()), Typing::Yaml11).unwrap_err();
        assert_eq!(err.kind, YamlErrorKind::Syntax);
        assert!(err.range.start <= text.len());
    }

    #[test]
    fn fallback_parser_matches_the_runtime() {
        let text = "name: \"my skill\"\ndescription: |\n  long\nmetadata:\n  a: b\n- item\n  indented: x\nlicense: 'MIT'\nname: second\n\"quoted\": v\nempty:\r\nx : y\n";
        let f = fallback(text, TextRange::new(0, text.len()));
        let kept: Vec<(&str, &str)> = f
            .entries
            .iter()
            .map(|e| (e.key.as_str(), e.value.value.as_str().unwrap()))
            .collect();
        assert_eq!(
            kept,
            vec![("name", "second"), ("license", "MIT"), ("x", "y")]
        );
        let lost: Vec<(&str, LostReason)> =
            f.lost.iter().map(|l| (l.key.as_str(), l.reason)).collect();
        assert_eq!(
            lost,
            vec![
                ("description", LostReason::BlockScalar),
                ("metadata", LostReason::EmptyValue),
                ("\"quoted\"", LostReason::NotAKeyLine),
                ("empty", LostReason::EmptyValue),
            ]
        );
        let license = &f.entries[1];
        assert_eq!(
            &text[license.value.range.start..license.value.range.end],
            "'MIT'"
        );
        assert_eq!(license.key_range, TextRange::new(77, 84));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
        #[test]
        fn parse_never_panics_and_ranges_stay_inside(
            text in "([a-z]{1,3}|:|-|\\[|\\]|\\{|\\}|,|&a|\\*a|!!str|\"|'|\\||>|#| |\n|\t|\r|1|0x1|1:30|yes|~|é|😀){0,60}"
        ) {
            for typing in [Typing::Yaml11, Typing::Jackson] {
                let range = TextRange::new(0, text.len());
                if let Ok(doc) = parse(&text, range, typing) {
                    let mut stack: Vec<&Node> = doc.root.iter().collect();
                    while let Some(node) = stack.pop() {
                        proptest::prop_assert!(node.range.start <= node.range.end && node.range.end <= text.len());
                        match &node.value {
                            Value::List(items) => stack.extend(items.iter()),
                            Value::Map(entries) => {
                                for e in entries {
                                    proptest::prop_assert!(e.key_range.end <= text.len());
                                    stack.push(&e.value);
                                }
                            }
                            _ => {}
                        }
                    }
                } else if let Err(err) = parse(&text, range, typing) {
                    proptest::prop_assert!(err.range.end <= text.len());
                }
                let f = fallback(&text, range);
                for e in &f.entries {
                    proptest::prop_assert!(e.value.range.end <= text.len());
                }
            }
        }
    }

    /// Applies the repair [`colon_in_values`] proposes for the whole text `yaml`.
    fn repaired(yaml: &str, typing: Typing) -> Option<String> {
        let found = colon_in_values(yaml, TextRange::new(0, yaml.len()), typing)?;
        let mut out = yaml.to_string();
        for c in found.iter().rev() {
            out.replace_range(c.range.start..c.range.end, &c.quoted);
        }
        Some(out)
    }

    fn string_at(yaml: &str, key: &str) -> String {
        let doc = parse(yaml, TextRange::new(0, yaml.len()), Typing::Yaml11).unwrap();
        let mut node = doc.root.as_ref().unwrap();
        for part in key.split('.') {
            node = &node.get(part).unwrap().value;
        }
        node.value.as_str().unwrap().to_string()
    }

    #[test]
    fn quoting_chooses_the_quotes_that_need_no_escape() {
        assert_eq!(quoted("a: b"), "\"a: b\"");
        assert_eq!(quoted("it's: fine"), "\"it's: fine\"");
        assert_eq!(quoted("say \"hi\": now"), "'say \"hi\": now'");
        assert_eq!(quoted(r"C:\temp: dir"), r"'C:\temp: dir'");
        assert_eq!(quoted("it's \"x\": y"), "\"it's \\\"x\\\": y\"");
        // Every one reads back as the text it quotes.
        for text in [
            "a: b",
            "it's: fine",
            "say \"hi\": now",
            r"C:\temp: dir",
            "it's \"x\": \\y",
            "tab\there: 字 😀",
        ] {
            let yaml = format!("k: {}", quoted(text));
            assert_eq!(string_at(&yaml, "k"), text, "{yaml}");
        }
    }

    #[test]
    fn an_unquoted_colon_in_a_value_is_repaired_by_quoting() {
        let yaml = "name: weather\ndescription: Look up the forecast: temperature, rain and wind\nmetadata:\n  author: me\n";
        assert!(parse(yaml, TextRange::new(0, yaml.len()), Typing::Yaml11).is_err());
        let found = colon_in_values(yaml, TextRange::new(0, yaml.len()), Typing::Yaml11).unwrap();
        assert_eq!(
            found,
            vec![ColonInValue {
                key: "description".into(),
                range: TextRange::new(27, 75),
                quoted: "\"Look up the forecast: temperature, rain and wind\"".into(),
            }]
        );
        let fixed = repaired(yaml, Typing::Yaml11).unwrap();
        assert_eq!(
            string_at(&fixed, "description"),
            "Look up the forecast: temperature, rain and wind"
        );
        assert_eq!(string_at(&fixed, "metadata.author"), "me");
        // Nested and list values, quotes inside, a trailing colon, CRLF, trailing blanks.
        let yaml = "a: x: \"y\"\r\nb:\r\n  c: it's: z  \r\n  d:\r\n    - e: f:\r\n";
        let fixed = repaired(yaml, Typing::Yaml11).unwrap();
        assert_eq!(
            fixed,
            "a: 'x: \"y\"'\r\nb:\r\n  c: \"it's: z\"  \r\n  d:\r\n    - e: \"f:\"\r\n"
        );
        assert_eq!(string_at(&fixed, "a"), "x: \"y\"");
        assert_eq!(string_at(&fixed, "b.c"), "it's: z");
        // Jackson reads the repair too.
        assert!(repaired("description: a: b\n", Typing::Jackson).is_some());
    }

    #[test]
    fn no_repair_when_quoting_is_not_certain() {
        for yaml in [
            // Valid YAML, nothing to repair.
            "a: b\nc: d:e\n",
            // Another error remains.
            "a: x: y\nb: [\n",
            "a: x: y\na: z\n",
            // A comment, or a value that runs on over the next line.
            "a: issue #1: fix\n",
            "a: x: y\n  and more\n",
            // Already quoted, or a flow collection.
            "a: \"x\": y\n",
            "a: [x]: y\n",
        ] {
            assert_eq!(repaired(yaml, Typing::Yaml11), None, "{yaml:?}");
        }
        // A line inside a block scalar is text, never a key: left alone, so the other value's
        // repair is not certain either (quoting both would change the block's text).
        let yaml = "a: |\n  note: see: x\nb: c: d\n";
        assert_eq!(repaired(yaml, Typing::Yaml11), None);
        let yaml = "a: |\n  note: see: x\n";
        assert_eq!(repaired(yaml, Typing::Yaml11), None);
    }
}
