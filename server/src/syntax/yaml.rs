//! A spanned YAML tree for frontmatter, typed the way the runtime types it.
//!
//! Skills are read by SnakeYAML (YAML 1.1 typing: `yes`/`no`/`on`/`off` are booleans, `1:30` is
//! 90, `2024-01-01` a Date) and subagents by Jackson (see [`Typing::Jackson`]). Parsing goes
//! through the event API of the parser inside `serde-saphyr` (`serde_saphyr::granit_parser`, no
//! extra dependency) because typing needs each scalar's style and tag, which serde hides;
//! frontmatter in the plainest block style is read by a scan of its lines that gives the parser's
//! very events (`simple`), and the parser reads the rest. The tree is built without recursion and
//! under budgets (depth, nodes after alias expansion), so hostile documents become errors instead
//! of crashes. Every node keeps the byte range of its key and value in the original file.
//!
//! Knows nothing of skills or subagents: the callers decide what a value means.

use std::path::Path;

use crate::base::{FileEdit, Fix, TextRange};

mod fallback;
mod scalars;
mod simple;
mod value;

use fallback::lines;
pub use fallback::{fallback, Fallback, LostKey, LostReason};
use scalars::{
    jackson_bool, jackson_float, jackson_int, resolve_yaml11, yaml11_bool, yaml11_float,
    yaml11_int, yaml11_timestamp, Resolved,
};
pub use value::{Entry, Node, Value};

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

// ---------------------------------------------------------------------------------------------
// Parsing into the tree.

use std::collections::HashMap;

use serde_saphyr::granit_parser::{Event, Options, Parser, ScalarStyle, ScanError, Span, Tag};

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

/// Parses `text[range]` (a frontmatter block inside a whole file) with the runtime's typing.
/// Ranges in the result are whole-file byte offsets.
pub fn parse(text: &str, range: TextRange, typing: Typing) -> Result<YamlDoc, YamlError> {
    build(text, range, typing, Scan::PlainStyleFirst)
}

/// What [`parse`] answers, the events always found by the parser: for the tests and fuzz
/// targets that hold the line scan of plain frontmatter to the parser.
pub fn parse_by_parser(text: &str, range: TextRange, typing: Typing) -> Result<YamlDoc, YamlError> {
    build(text, range, typing, Scan::ParserOnly)
}

/// How [`build`] finds a text's events.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scan {
    /// By a scan of its lines when it is written in the plainest block style (`simple`), by
    /// the parser otherwise.
    PlainStyleFirst,
    /// By the parser alone.
    ParserOnly,
}

fn build(text: &str, range: TextRange, typing: Typing, scan: Scan) -> Result<YamlDoc, YamlError> {
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
    match simple::events(source).filter(|_| scan == Scan::PlainStyleFirst) {
        Some(events) => builder.run(events.into_iter().map(Ok))?,
        None => {
            let mut options = Options::default();
            options.flow_nesting_limit = PARSER_NESTING_LIMIT;
            options.block_nesting_limit = PARSER_NESTING_LIMIT;
            options.emit_comments = false;
            builder.run(Parser::new_from_str_with_options(source, options))?
        }
    }
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

    fn run<'e>(
        &mut self,
        events: impl Iterator<Item = Result<(Event<'e>, Span), ScanError>>,
    ) -> Result<(), YamlError> {
        for item in events {
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
            Event::Alias(id) => self.alias(id, span)?,
            Event::Scalar(text, style, anchor, tag) => {
                self.scalar(text, style, anchor, tag.as_deref(), span)?
            }
            Event::SequenceStart(_, anchor, tag) => {
                self.open_collection(tag.as_deref(), "seq", span)?;
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
                self.open_collection(tag.as_deref(), "map", span)?;
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
            Event::SequenceEnd | Event::MappingEnd => self.close_collection(span)?,
            _ => {}
        }
        Ok(())
    }

    /// `*name`: Jackson hands back the anchor's name as a string; SnakeYAML repeats the anchored
    /// node, counting it again against the node budget and, for a collection, the alias limit.
    fn alias(&mut self, id: usize, span: &Span) -> Result<(), YamlError> {
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
            return Err(self.error(YamlErrorKind::Syntax, "found undefined alias".into(), range));
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
        })
    }

    /// A scalar typed as the runtime types it, remembered under its anchor if it has one.
    fn scalar(
        &mut self,
        text: std::borrow::Cow<'_, str>,
        style: ScalarStyle,
        anchor: usize,
        tag: Option<&Tag>,
        span: &Span,
    ) -> Result<(), YamlError> {
        self.depth_check(span)?;
        self.count_node(1, span)?;
        let range = self.range(span);
        let plain = style == ScalarStyle::Plain;
        let text = self.without_missing_break(text, style, range);
        let value = self.type_scalar(&text, style, tag, range)?;
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
        self.complete(completed)
    }

    /// The checks before a sequence or map is entered: depth, node budget, its tag.
    fn open_collection(
        &mut self,
        tag: Option<&Tag>,
        expected: &str,
        span: &Span,
    ) -> Result<(), YamlError> {
        self.depth_check(span)?;
        self.count_node(1, span)?;
        self.collection_tag(tag, expected, span)
    }

    /// The end of a sequence or map: its node (a map with its `<<` merges applied) reaches to the
    /// closing bracket of a flow collection, and is remembered under its anchor if it has one.
    fn close_collection(&mut self, span: &Span) -> Result<(), YamlError> {
        let end_range = self.range(span);
        let Some(frame) = self.stack.pop() else {
            return Ok(());
        };
        // A document's collections are kept as long as its parse (every skill's frontmatter,
        // for the whole session): the room a growing list leaves over is given back.
        let (value, start, end, anchor, count) = match frame {
            Frame::Seq {
                mut items,
                start,
                end,
                anchor,
                count,
            } => {
                items.shrink_to_fit();
                (Value::List(items), start, end, anchor, count)
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
                let mut entries = apply_merges(entries, merges);
                entries.shrink_to_fit();
                (Value::Map(entries), start, end, anchor, count)
            }
        };
        let end = flow_end(self.source, self.base, end, end_range);
        let node = Node {
            value,
            range: TextRange::new(start, end),
            tag: None,
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
        })
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

#[cfg(test)]
mod tests;
