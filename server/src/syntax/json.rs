//! A spanned JSON tree (byte ranges on every key and value) plus every place where the text departs
//! from strict JSON as Jackson's default `ObjectMapper` reads it (harness-spec §4.2).
//!
//! The text is parsed leniently with `jsonc-parser` so that one comment or trailing comma does not
//! hide the rest of the file; each lenient construct is recorded as a [`Problem`] with its range.
//! Jackson specifics modelled here:
//! - it reads ONE value and never looks at what follows it (`FAIL_ON_TRAILING_TOKENS` is off), so
//!   anything after the root value, comments included, is not an error but is never read;
//! - it rejects comments, trailing or missing commas, single quotes, unquoted names, `NaN`,
//!   `Infinity`, hex numbers, a leading `+`, bare decimal points, leading zeros, raw control
//!   characters in strings, non-standard escapes, and whitespace other than space/tab/CR/LF;
//! - a UTF-8 BOM reaches it as U+FEFF at the start of a `String` (the runtime decodes the bytes
//!   itself); the char-based parser has no BOM handling, so we treat it as rejected (harness-spec
//!   §11.6 says "believed to fail"; see docs/tools-json.md);
//! - duplicate names are accepted, the last one wins;
//! - nesting deeper than 1000 levels and numbers longer than 1000 characters are rejected
//!   (`StreamReadConstraints` defaults since Jackson 2.15).
//!
//! Deep nesting never reaches a recursive parser: an iterative pre-scan measures the depth first.
//! Depends only on `base`; knows nothing of tools.json's schema.

use std::borrow::Cow;
use std::collections::HashMap;

use jsonc_parser::ast;
use jsonc_parser::{CollectOptions, CommentCollectionStrategy, ParseOptions};

use crate::base::TextRange;

/// Jackson's default `StreamReadConstraints.maxNestingDepth`.
pub const JACKSON_MAX_DEPTH: usize = 1000;
/// Jackson's default `StreamReadConstraints.maxNumberLength`.
pub const JACKSON_MAX_NUMBER_LEN: usize = 1000;
/// Deepest nesting we build a tree for (the lenient parser recurses; its own limit is 512).
pub const MAX_ANALYSED_DEPTH: usize = 200;
/// Problems recorded per document before the rest are summarised in one.
pub const MAX_PROBLEMS: usize = 200;

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    /// The number exactly as written.
    Number(String),
    String(String),
    Array(Vec<Node>),
    /// Members in text order, duplicates included (use [`Node::get`] for Jackson's last-wins view).
    Object(Vec<Member>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub value: Value,
    pub range: TextRange,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    pub key: String,
    pub key_range: TextRange,
    pub value: Node,
}

impl Node {
    /// How Jackson's error messages would name the JSON type, for our messages.
    pub fn kind_name(&self) -> &'static str {
        match self.value {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        }
    }

    pub fn members(&self) -> Option<&[Member]> {
        match &self.value {
            Value::Object(members) => Some(members),
            _ => None,
        }
    }

    pub fn elements(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Array(elements) => Some(elements),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self.value, Value::Null)
    }

    /// The member Jackson keeps for `key` (the last one).
    pub fn get(&self, key: &str) -> Option<&Member> {
        self.members()?.iter().rev().find(|m| m.key == key)
    }

    /// A scalar as Jackson coerces it to a `String` (numbers and booleans become their text).
    pub fn scalar_text(&self) -> Option<Cow<'_, str>> {
        match &self.value {
            Value::String(s) => Some(Cow::Borrowed(s)),
            Value::Number(n) => Some(Cow::Borrowed(n)),
            Value::Bool(b) => Some(Cow::Borrowed(if *b { "true" } else { "false" })),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProblemKind {
    /// A UTF-8 byte order mark at the start.
    Bom,
    Comment,
    TrailingComma,
    MissingComma,
    SingleQuotedString,
    UnquotedKey,
    HexNumber,
    PlusSign,
    BareDecimalPoint,
    NonFiniteNumber,
    LeadingZero,
    NumberTooLong,
    ControlCharacterInString,
    InvalidEscape,
    /// Whitespace Jackson does not skip (form feed, vertical tab, no-break space, …).
    NonJsonWhitespace,
    /// Nesting deeper than Jackson accepts.
    TooDeep,
    /// A syntax error even the lenient parser cannot get past (message from the parser).
    Syntax(String),
    /// A repeated name in one object; `first` is the earlier occurrence, which Jackson discards.
    DuplicateKey {
        key: String,
        first: TextRange,
    },
    /// Text after the root value, which Jackson never reads.
    TrailingContent,
    /// Deeper than we analyse but not deeper than Jackson accepts: no tree was built.
    TooDeepToAnalyse,
    /// More problems than [`MAX_PROBLEMS`]; the rest are not listed.
    TooManyProblems,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub kind: ProblemKind,
    pub range: TextRange,
}

impl Problem {
    /// True when Jackson refuses the document because of it.
    pub fn rejected_by_jackson(&self) -> bool {
        !matches!(
            self.kind,
            ProblemKind::DuplicateKey { .. }
                | ProblemKind::TrailingContent
                | ProblemKind::TooDeepToAnalyse
                | ProblemKind::TooManyProblems
        )
    }

    pub fn message(&self) -> String {
        match &self.kind {
            ProblemKind::Bom => "the file starts with a UTF-8 byte order mark, which strict JSON parsing rejects".into(),
            ProblemKind::Comment => "comments are not allowed in strict JSON".into(),
            ProblemKind::TrailingComma => "trailing comma is not allowed in strict JSON".into(),
            ProblemKind::MissingComma => "missing comma between two values".into(),
            ProblemKind::SingleQuotedString => "single-quoted strings are not allowed in strict JSON; use double quotes".into(),
            ProblemKind::UnquotedKey => "object names must be double-quoted strings in strict JSON".into(),
            ProblemKind::HexNumber => "hexadecimal numbers are not allowed in strict JSON".into(),
            ProblemKind::PlusSign => "a leading `+` is not allowed on JSON numbers".into(),
            ProblemKind::BareDecimalPoint => "a number needs digits on both sides of its decimal point in strict JSON".into(),
            ProblemKind::NonFiniteNumber => "`NaN` and `Infinity` are not JSON numbers".into(),
            ProblemKind::LeadingZero => "leading zeros are not allowed on JSON numbers".into(),
            ProblemKind::NumberTooLong => format!("number longer than {JACKSON_MAX_NUMBER_LEN} characters, the parser's limit"),
            ProblemKind::ControlCharacterInString => "raw control character (such as a line break or tab) inside a string; write it as an escape like `\\n` or `\\t`".into(),
            ProblemKind::InvalidEscape => "invalid escape; JSON only knows `\\\"`, `\\\\`, `\\/`, `\\b`, `\\f`, `\\n`, `\\r`, `\\t` and `\\uXXXX`".into(),
            ProblemKind::NonJsonWhitespace => "character that is not JSON whitespace (only space, tab, CR and LF are)".into(),
            ProblemKind::TooDeep => format!("nesting deeper than {JACKSON_MAX_DEPTH} levels, the parser's limit"),
            ProblemKind::Syntax(message) => format!("invalid JSON: {message}"),
            ProblemKind::DuplicateKey { key, .. } => format!("duplicate name `{key}`: only this last occurrence is used"),
            ProblemKind::TrailingContent => "text after the JSON value is never read".into(),
            ProblemKind::TooDeepToAnalyse => format!("nesting deeper than {MAX_ANALYSED_DEPTH} levels; agentws does not analyse this document further"),
            ProblemKind::TooManyProblems => format!("more than {MAX_PROBLEMS} JSON problems; the rest are not listed"),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Parsed {
    /// The root value, when the lenient parser got through it.
    pub root: Option<Node>,
    /// Sorted by position.
    pub problems: Vec<Problem>,
}

impl Parsed {
    /// True when Jackson would refuse this text.
    pub fn rejected_by_jackson(&self) -> bool {
        self.problems.iter().any(Problem::rejected_by_jackson)
    }
}

/// Parses `text` (see the module docs).
pub fn parse(text: &str) -> Parsed {
    let mut sink = Sink::default();
    // Same byte length, so every offset stays valid.
    let text: Cow<str> = match text.strip_prefix('\u{FEFF}') {
        Some(rest) => {
            sink.push(ProblemKind::Bom, TextRange::new(0, 3));
            Cow::Owned(format!("   {rest}"))
        }
        None => Cow::Borrowed(text),
    };
    let scan = prescan(&text);
    if scan.max_depth > JACKSON_MAX_DEPTH {
        sink.push(
            ProblemKind::TooDeep,
            TextRange::new(scan.too_deep_at, scan.too_deep_at + 1),
        );
        return sink.finish(None);
    }
    if scan.max_depth > MAX_ANALYSED_DEPTH {
        sink.push(
            ProblemKind::TooDeepToAnalyse,
            TextRange::new(scan.analyse_limit_at, scan.analyse_limit_at + 1),
        );
        return sink.finish(None);
    }
    let root_end = scan.root_end;
    if let Some(trailing) = first_non_whitespace(&text, root_end) {
        sink.push(
            ProblemKind::TrailingContent,
            TextRange::new(trailing, text.len()),
        );
    }
    let source = &text[..root_end];
    let collect = CollectOptions {
        comments: CommentCollectionStrategy::AsTokens,
        tokens: true,
    };
    let result = match jsonc_parser::parse_to_ast(source, &collect, &ParseOptions::default()) {
        Ok(result) => result,
        Err(err) => {
            let range = err.range();
            sink.push(
                ProblemKind::Syntax(err.kind().to_string()),
                TextRange::new(range.start, range.end.max(range.start)),
            );
            return sink.finish(None);
        }
    };
    let Some(value) = result.value else {
        let at = source.len();
        sink.push(
            ProblemKind::Syntax("no JSON value".into()),
            TextRange::empty(at),
        );
        return sink.finish(None);
    };
    let tokens = result.tokens.unwrap_or_default();
    let mut commas = Vec::new();
    let mut previous_end = 0;
    for token in &tokens {
        let range = TextRange::new(token.range.start, token.range.end);
        if let Some(offset) = first_non_json_whitespace(&source[previous_end..range.start]) {
            let at = previous_end + offset;
            let len = source[at..].chars().next().map_or(1, char::len_utf8);
            sink.push(ProblemKind::NonJsonWhitespace, TextRange::new(at, at + len));
        }
        previous_end = range.end;
        match &token.token {
            jsonc_parser::tokens::Token::CommentLine(_)
            | jsonc_parser::tokens::Token::CommentBlock(_) => {
                sink.push(ProblemKind::Comment, range);
            }
            jsonc_parser::tokens::Token::Comma => commas.push(range.start),
            jsonc_parser::tokens::Token::String(_) => {
                check_string(&source[range.start..range.end], range.start, &mut sink)
            }
            jsonc_parser::tokens::Token::Number(raw) => check_number(raw, range, &mut sink),
            _ => {}
        }
    }
    if let Some(offset) = first_non_json_whitespace(&source[previous_end..]) {
        let at = previous_end + offset;
        let len = source[at..].chars().next().map_or(1, char::len_utf8);
        sink.push(ProblemKind::NonJsonWhitespace, TextRange::new(at, at + len));
    }
    let root = convert(&value, &commas, &mut sink);
    sink.finish(Some(root))
}

#[derive(Default)]
struct Sink {
    problems: Vec<Problem>,
    dropped: Option<TextRange>,
}

impl Sink {
    fn push(&mut self, kind: ProblemKind, range: TextRange) {
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(Problem { kind, range });
        } else if self.dropped.is_none() {
            self.dropped = Some(range);
        }
    }

    fn finish(mut self, root: Option<Node>) -> Parsed {
        if let Some(range) = self.dropped {
            self.problems.push(Problem {
                kind: ProblemKind::TooManyProblems,
                range,
            });
        }
        self.problems.sort_by_key(|p| (p.range.start, p.range.end));
        Parsed {
            root,
            problems: self.problems,
        }
    }
}

struct Prescan {
    max_depth: usize,
    /// Offset of the bracket that first exceeds Jackson's depth.
    too_deep_at: usize,
    /// Offset of the bracket that first exceeds our analysis depth.
    analyse_limit_at: usize,
    /// End of the first (root) value; the text length when it never closes.
    root_end: usize,
}

/// One pass over the bytes, skipping strings and comments the way the lenient parser reads them:
/// nesting depth and the end of the root value, without recursion.
fn prescan(text: &str) -> Prescan {
    let bytes = text.as_bytes();
    let mut scan = Prescan {
        max_depth: 0,
        too_deep_at: 0,
        analyse_limit_at: 0,
        root_end: bytes.len(),
    };
    let mut depth = 0usize;
    let mut started = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'"' | b'\'' => {
                i = skip_string(bytes, i);
                if !started {
                    scan.root_end = i;
                    return scan;
                }
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' && bytes[i] != b'\r' {
                    i += 1;
                }
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = text[i + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |p| i + 2 + p + 2);
                continue;
            }
            b'{' | b'[' => {
                started = true;
                depth += 1;
                if depth > scan.max_depth {
                    scan.max_depth = depth;
                    if depth == MAX_ANALYSED_DEPTH + 1 {
                        scan.analyse_limit_at = i;
                    }
                    if depth == JACKSON_MAX_DEPTH + 1 {
                        scan.too_deep_at = i;
                    }
                }
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                if started && depth == 0 {
                    scan.root_end = i + 1;
                    return scan;
                }
            }
            _ if !started && !b.is_ascii_whitespace() && b < 0x80 => {
                // A scalar root: it ends where a word ends.
                let mut j = i;
                while j < bytes.len()
                    && !bytes[j].is_ascii_whitespace()
                    && !matches!(
                        bytes[j],
                        b',' | b']' | b'}' | b'[' | b'{' | b':' | b'"' | b'\''
                    )
                    && (bytes[j] != b'/' || j == i)
                {
                    j += 1;
                }
                scan.root_end = j.max(i + 1);
                return scan;
            }
            _ => {}
        }
        i += 1;
    }
    scan
}

/// Returns the offset after the closing quote of the string starting at `start`.
fn skip_string(bytes: &[u8], start: usize) -> usize {
    let quote = bytes[start];
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b if b == quote => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

fn first_non_whitespace(text: &str, from: usize) -> Option<usize> {
    text[from..]
        .char_indices()
        .find(|(_, c)| !c.is_whitespace())
        .map(|(i, _)| from + i)
}

fn first_non_json_whitespace(gap: &str) -> Option<usize> {
    gap.bytes()
        .position(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
}

/// Raw control characters and non-standard escapes inside one string token (`raw` includes quotes).
fn check_string(raw: &str, offset: usize, sink: &mut Sink) {
    let single = raw.starts_with('\'');
    if single {
        sink.push(
            ProblemKind::SingleQuotedString,
            TextRange::new(offset, offset + raw.len()),
        );
    }
    let bytes = raw.as_bytes();
    let mut i = 1;
    while i + 1 < bytes.len() {
        let b = bytes[i];
        if b < 0x20 {
            sink.push(
                ProblemKind::ControlCharacterInString,
                TextRange::new(offset + i, offset + i + 1),
            );
        } else if b == b'\\' {
            let next = raw[i + 1..].chars().next().unwrap_or('\\');
            if !single && !matches!(next, '"' | '\\' | '/' | 'b' | 'f' | 'n' | 'r' | 't' | 'u') {
                sink.push(
                    ProblemKind::InvalidEscape,
                    TextRange::new(offset + i, offset + i + 1 + next.len_utf8()),
                );
            }
            i += 1 + next.len_utf8();
            continue;
        }
        i += 1;
    }
}

fn check_number(raw: &str, range: TextRange, sink: &mut Sink) {
    let unsigned = raw.trim_start_matches(['+', '-']);
    let kind = if raw.starts_with('+') {
        Some(ProblemKind::PlusSign)
    } else if unsigned == "Infinity" || unsigned == "NaN" {
        Some(ProblemKind::NonFiniteNumber)
    } else if unsigned.starts_with("0x") || unsigned.starts_with("0X") {
        Some(ProblemKind::HexNumber)
    } else if unsigned.starts_with('.')
        || unsigned.contains(".e")
        || unsigned.contains(".E")
        || unsigned.ends_with('.')
    {
        Some(ProblemKind::BareDecimalPoint)
    } else if unsigned.len() > 1
        && unsigned.starts_with('0')
        && unsigned.as_bytes()[1].is_ascii_digit()
    {
        Some(ProblemKind::LeadingZero)
    } else if raw.len() > JACKSON_MAX_NUMBER_LEN {
        Some(ProblemKind::NumberTooLong)
    } else {
        None
    };
    if let Some(kind) = kind {
        sink.push(kind, range);
    }
}

fn range_of(range: jsonc_parser::common::Range) -> TextRange {
    TextRange::new(range.start, range.end)
}

/// Commas whose start lies in `[start, end)`.
fn commas_in(commas: &[usize], start: usize, end: usize) -> &[usize] {
    let from = commas.partition_point(|&c| c < start);
    let to = commas.partition_point(|&c| c < end);
    &commas[from..to.max(from)]
}

/// Separators between the children of one container (`[start, end)` are the container's brackets).
/// `children` carry whether they are numbers: the lenient parser reads `01` as `0` then `1`,
/// which Jackson reports as a leading zero.
fn check_separators(
    children: &[(TextRange, bool)],
    container: TextRange,
    commas: &[usize],
    sink: &mut Sink,
) {
    for pair in children.windows(2) {
        let ((first, first_is_number), (second, second_is_number)) = (pair[0], pair[1]);
        if commas_in(commas, first.end, second.start).is_empty() {
            if first_is_number && second_is_number && first.end == second.start {
                sink.push(ProblemKind::LeadingZero, first.cover(second));
            } else {
                sink.push(ProblemKind::MissingComma, TextRange::empty(first.end));
            }
        }
    }
    let children: Vec<TextRange> = children.iter().map(|(range, _)| *range).collect();
    if let Some(last) = children.last() {
        for &comma in commas_in(commas, last.end, container.end) {
            sink.push(ProblemKind::TrailingComma, TextRange::new(comma, comma + 1));
        }
    }
}

/// Converts the lenient AST into our tree; recursion is bounded by the pre-scan's depth check.
fn convert(value: &ast::Value, commas: &[usize], sink: &mut Sink) -> Node {
    match value {
        ast::Value::NullKeyword(n) => Node {
            value: Value::Null,
            range: range_of(n.range),
        },
        ast::Value::BooleanLit(b) => Node {
            value: Value::Bool(b.value),
            range: range_of(b.range),
        },
        ast::Value::NumberLit(n) => Node {
            value: Value::Number(n.value.to_string()),
            range: range_of(n.range),
        },
        ast::Value::StringLit(s) => Node {
            value: Value::String(s.value.to_string()),
            range: range_of(s.range),
        },
        ast::Value::Array(array) => {
            let range = range_of(array.range);
            let elements: Vec<Node> = array
                .elements
                .iter()
                .map(|e| convert(e, commas, sink))
                .collect();
            let children: Vec<(TextRange, bool)> = elements
                .iter()
                .map(|e| (e.range, matches!(e.value, Value::Number(_))))
                .collect();
            check_separators(&children, range, commas, sink);
            Node {
                value: Value::Array(elements),
                range,
            }
        }
        ast::Value::Object(object) => {
            let range = range_of(object.range);
            let mut members = Vec::with_capacity(object.properties.len());
            let mut seen: HashMap<String, TextRange> = HashMap::new();
            for prop in &object.properties {
                let (key, key_range) = match &prop.name {
                    ast::ObjectPropName::String(s) => (s.value.to_string(), range_of(s.range)),
                    ast::ObjectPropName::Word(w) => {
                        let key_range = range_of(w.range);
                        sink.push(ProblemKind::UnquotedKey, key_range);
                        (w.value.to_string(), key_range)
                    }
                };
                if let Some(first) = seen.insert(key.clone(), key_range) {
                    sink.push(
                        ProblemKind::DuplicateKey {
                            key: key.clone(),
                            first,
                        },
                        key_range,
                    );
                }
                members.push(Member {
                    key,
                    key_range,
                    value: convert(&prop.value, commas, sink),
                });
            }
            let children: Vec<(TextRange, bool)> = object
                .properties
                .iter()
                .map(|p| (range_of(p.range), false))
                .collect();
            check_separators(&children, range, commas, sink);
            Node {
                value: Value::Object(members),
                range,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(ProblemKind, usize, usize)> {
        parse(text)
            .problems
            .into_iter()
            .map(|p| (p.kind, p.range.start, p.range.end))
            .collect()
    }

    #[test]
    fn strict_json_has_no_problems_and_exact_ranges() {
        let parsed = parse("{\"a\": [1, \"x\"], \"b\": null}");
        assert!(parsed.problems.is_empty());
        let root = parsed.root.unwrap();
        assert_eq!(root.range, TextRange::new(0, 26));
        let a = root.get("a").unwrap();
        assert_eq!(a.key_range, TextRange::new(1, 4));
        assert_eq!(a.value.range, TextRange::new(6, 14));
        assert_eq!(a.value.elements().unwrap()[1].range, TextRange::new(10, 13));
        assert!(root.get("b").unwrap().value.is_null());
    }

    #[test]
    fn each_lenient_construct_is_recorded_with_its_range() {
        assert_eq!(
            kinds("{\"a\": 1,}"),
            vec![(ProblemKind::TrailingComma, 7, 8)]
        );
        assert_eq!(
            kinds("{// c\n\"a\": 1 /* d */}"),
            vec![(ProblemKind::Comment, 1, 5), (ProblemKind::Comment, 13, 20)]
        );
        assert_eq!(
            kinds("{'a': 1}"),
            vec![(ProblemKind::SingleQuotedString, 1, 4)]
        );
        assert_eq!(kinds("{a: 1}"), vec![(ProblemKind::UnquotedKey, 1, 2)]);
        assert_eq!(kinds("[0x1F]"), vec![(ProblemKind::HexNumber, 1, 5)]);
        assert_eq!(kinds("[+1]"), vec![(ProblemKind::PlusSign, 1, 3)]);
        assert_eq!(kinds("[NaN]"), vec![(ProblemKind::NonFiniteNumber, 1, 4)]);
        assert_eq!(
            kinds("[-Infinity]"),
            vec![(ProblemKind::NonFiniteNumber, 1, 10)]
        );
        assert_eq!(kinds("[.5]"), vec![(ProblemKind::BareDecimalPoint, 1, 3)]);
        assert_eq!(kinds("[5.]"), vec![(ProblemKind::BareDecimalPoint, 1, 3)]);
        assert_eq!(kinds("[01]"), vec![(ProblemKind::LeadingZero, 1, 3)]);
        assert_eq!(kinds("[1 2]"), vec![(ProblemKind::MissingComma, 2, 2)]);
        assert_eq!(
            kinds("[\"a\tb\"]"),
            vec![(ProblemKind::ControlCharacterInString, 3, 4)]
        );
        assert_eq!(
            kinds("[\"a\\'b\"]"),
            vec![(ProblemKind::InvalidEscape, 3, 5)]
        );
        assert_eq!(kinds("[\"\\u00e9\\n\"]"), vec![]);
        assert_eq!(kinds("\u{FEFF}{}"), vec![(ProblemKind::Bom, 0, 3)]);
        assert_eq!(kinds("{}\u{0C}"), vec![]);
        assert_eq!(
            kinds("{\u{0C}}"),
            vec![(ProblemKind::NonJsonWhitespace, 1, 2)]
        );
        assert_eq!(
            kinds("[1,\u{A0}2]"),
            vec![(ProblemKind::NonJsonWhitespace, 3, 5)]
        );
    }

    #[test]
    fn duplicates_keep_the_last_and_are_recorded() {
        let parsed = parse("{\"a\": 1, \"a\": 2}");
        assert_eq!(
            parsed.problems,
            vec![Problem {
                kind: ProblemKind::DuplicateKey {
                    key: "a".into(),
                    first: TextRange::new(1, 4)
                },
                range: TextRange::new(9, 12)
            }]
        );
        assert!(!parsed.rejected_by_jackson());
        let root = parsed.root.unwrap();
        assert_eq!(
            root.get("a").unwrap().value.value,
            Value::Number("2".into())
        );
    }

    #[test]
    fn text_after_the_root_value_is_never_read() {
        let parsed = parse("{\"a\": 1}\n// trailing comment\n{ not json");
        assert_eq!(
            parsed.problems,
            vec![Problem {
                kind: ProblemKind::TrailingContent,
                range: TextRange::new(9, 39)
            }]
        );
        assert!(!parsed.rejected_by_jackson());
        assert!(parsed.root.is_some());
        assert_eq!(kinds("null x"), vec![(ProblemKind::TrailingContent, 5, 6)]);
    }

    #[test]
    fn syntax_errors_and_empty_documents() {
        let parsed = parse("{\"a\": }");
        assert!(parsed.root.is_none());
        assert!(matches!(parsed.problems[0].kind, ProblemKind::Syntax(_)));
        assert_eq!(parsed.problems[0].range.start, 6);
        assert!(matches!(
            parse("  ").problems[0].kind,
            ProblemKind::Syntax(_)
        ));
        assert!(parse("{\"a\": [1, 2}").rejected_by_jackson());
    }

    #[test]
    fn deep_nesting_is_measured_not_recursed() {
        let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        assert_eq!(kinds(&deep), vec![(ProblemKind::TooDeep, 1000, 1001)]);
        let unclosed = "{\"a\":".repeat(10_000);
        assert_eq!(parse(&unclosed).problems[0].kind, ProblemKind::TooDeep);
        let medium = format!("{}{}", "[".repeat(500), "]".repeat(500));
        assert_eq!(
            kinds(&medium),
            vec![(ProblemKind::TooDeepToAnalyse, 200, 201)]
        );
        let fine = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(parse(&fine).problems.is_empty());
        // Brackets inside strings and comments do not count.
        let quoted = format!("[\"{}\" /* {} */]", "[".repeat(5000), "{".repeat(5000));
        assert!(parse(&quoted)
            .problems
            .iter()
            .all(|p| p.kind == ProblemKind::Comment));
    }

    #[test]
    fn problems_are_capped() {
        let many = format!("[{}1]", "1,".repeat(10)).replace(',', ",/**/");
        assert_eq!(parse(&many).problems.len(), 10);
        let huge = format!("[{}1]", "/**/1,".repeat(1000));
        let problems = parse(&huge).problems;
        assert_eq!(problems.len(), MAX_PROBLEMS + 1);
        assert_eq!(problems.last().unwrap().kind, ProblemKind::TooManyProblems);
    }
}
