//! One subagent spec `subagents/<id>.md`, parsed the way `AgentSpecLoader.parse` does it
//! (harness-spec §3.2): the frontmatter split, Jackson YAML typing, every key's accepted values and
//! fallbacks, and whether the declaration is loaded or dropped. Diagnostics found while parsing
//! are kept with the document.
//!
//! The rules found while parsing (SA001–SA005, SA008–SA021, SA027) are one file each here, declaration
//! beside detection ([`RULES`]): each adds to the [`Parser`] the methods that report it, which the
//! reading below calls. The rules that follow from where a spec lies and which contexts read it
//! are reported by `check::loading`.
//!
//! Depends on `base`, `syntax`, `rules` and `workspace::{keys, layout}` only, never on `check`:
//! cross-file checks of `tools:`/`skills:` names and duplicate ids belong there.

use std::path::{Path, PathBuf};

use crate::base::{Diagnostic, FileContent, Fix, TextRange};
use crate::rules::workspace::too_many_problems::Capped;
use crate::rules::{declare_family, Rule};
use crate::syntax::frontmatter::{self, OpeningTrap, SubagentSplit, SubagentSplitError};
use crate::syntax::java;
use crate::syntax::yaml::{self, Entry, Node, Typing, Value};
use crate::workspace::layout::Location;

// The subagent-spec rules found while parsing (SA006, SA007 and SA022 follow from the
// resolution, SA025 from the configured models, SA026 from a file's name: `check` reports them).
declare_family! {
    mod subagent_no_frontmatter;        // SA001
    mod subagent_frontmatter_unclosed;  // SA002
    mod subagent_invalid_yaml;          // SA003
    mod subagent_missing_description;   // SA004
    mod subagent_bad_id;                // SA005
    mod subagent_name_key;              // SA008
    mod subagent_workspace_not_map;     // SA009
    mod subagent_workspace_mode;        // SA010
    mod subagent_body_discarded;        // SA011
    mod subagent_mode;                  // SA012
    mod subagent_steps;                 // SA013
    mod subagent_sampling;              // SA014
    mod subagent_boolean_string;        // SA015
    mod subagent_unknown_key;           // SA016
    mod subagent_deprecated_max_iters;  // SA017
    mod subagent_bom;                   // SA018
    mod subagent_leading_whitespace;    // SA019
    mod subagent_dashes_in_frontmatter; // SA020
    mod subagent_long_opener;           // SA021
    mod subagent_multiline_description; // SA027
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkspaceMode {
    Isolated,
    Shared,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentMode {
    Primary,
    Subagent,
    All,
}

/// A string with the byte range it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spanned<T> {
    pub value: T,
    pub range: TextRange,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SubagentDrop {
    Unreadable,
    /// Blank, or not starting with `---` (silently).
    NoFrontmatter,
    NotClosed,
    InvalidYaml,
    /// Frontmatter is an empty map (silently).
    EmptyFrontmatter,
    MissingDescription,
    /// The file name gives an empty agent id.
    EmptyId,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SubagentDoc {
    pub path: PathBuf,
    pub location: Location,
    /// Agent id = file name without `.md`.
    pub id: String,
    pub description: Option<String>,
    pub workspace_mode: WorkspaceMode,
    /// `workspace.path` as written.
    pub workspace_path: Option<Spanned<String>>,
    /// Inline system prompt (trimmed body), `None` when blank or discarded.
    pub body: Option<String>,
    pub model: Option<Spanned<String>>,
    pub steps: u32,
    pub mode: AgentMode,
    pub hidden: bool,
    pub tools: Vec<Spanned<String>>,
    pub skills: Vec<Spanned<String>>,
    pub opening_range: TextRange,
    /// `frontmatter::closing_line` of the text (`None` when the file is not a text): the lines
    /// the preview names as the source of the subagent's entry.
    pub frontmatter_closing_line: Option<usize>,
    /// `Ok` when the runtime loads the declaration.
    pub outcome: Result<(), SubagentDrop>,
    pub diagnostics: Vec<Diagnostic>,
    /// The runtime's frontmatter split, when it finds one.
    pub split: Option<SubagentSplit>,
    /// Frontmatter entries as Jackson reads them (empty when the YAML failed).
    pub metadata: Vec<Entry>,
    pub description_range: Option<TextRange>,
    /// `temperature` as the runtime uses it (`None` = inherit).
    pub temperature: Option<f64>,
    /// `top_p` (else `topP`), `None` = inherit.
    pub top_p: Option<f64>,
    pub variant: Option<String>,
    /// `expose_to_user` (else `exposeToUser`): tri-state.
    pub expose_to_user: Option<bool>,
    /// Range of the `workspace.path` or body problem's body text, for navigation.
    pub body_range: Option<TextRange>,
}

impl SubagentDoc {
    /// Listed in the prompt's agent list (`hidden != true` and `mode != primary`).
    pub fn is_visible(&self) -> bool {
        self.outcome.is_ok() && !self.hidden && self.mode != AgentMode::Primary
    }
}

/// The default step budget.
pub const DEFAULT_STEPS: u32 = 10;

/// Agent id for a subagent file: the file name without its trailing `.md` (case-sensitive).
pub fn agent_id(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .map(|n| n.strip_suffix(".md").map(str::to_string).unwrap_or(n))
        .unwrap_or_default()
}

/// Parses one subagent spec. Unreadable, non-UTF-8 or oversized content gives a dropped document
/// without diagnostics (the `WS` rules report those).
pub fn parse(path: PathBuf, location: Location, content: &FileContent) -> SubagentDoc {
    let id = agent_id(&path);
    let mut doc = SubagentDoc {
        path,
        location,
        id,
        description: None,
        workspace_mode: WorkspaceMode::Isolated,
        workspace_path: None,
        body: None,
        model: None,
        steps: DEFAULT_STEPS,
        mode: AgentMode::All,
        hidden: false,
        tools: Vec::new(),
        skills: Vec::new(),
        opening_range: TextRange::empty(0),
        frontmatter_closing_line: None,
        outcome: Err(SubagentDrop::Unreadable),
        diagnostics: Vec::new(),
        split: None,
        metadata: Vec::new(),
        description_range: None,
        temperature: None,
        top_p: None,
        variant: None,
        expose_to_user: None,
        body_range: None,
    };
    let Some(text) = content.text() else {
        return doc;
    };
    doc.frontmatter_closing_line = Some(frontmatter::closing_line(text));
    doc.outcome = Ok(());
    let mut parser = Parser {
        doc,
        text,
        diagnostics: Capped::default(),
    };
    parser.bad_id();
    // `general-purpose.md` (SA006) is reported from the resolution: what it does depends on the
    // subagent mode and on whether a context loads it at all.
    parser.read_text();
    parser.dashes_severity_follows_outcome();
    let Parser {
        mut doc,
        diagnostics,
        ..
    } = parser;
    let mut diagnostics = diagnostics.finish(&doc.path);
    diagnostics.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    doc.diagnostics = diagnostics;
    doc
}

/// The reading of one spec's text: the document it fills in and what its rules report, which
/// [`parse`] sorts into the document once the outcome is known.
struct Parser<'t> {
    doc: SubagentDoc,
    text: &'t str,
    /// Capped per file (`rules::workspace::too_many_problems`): a spec of thousands of unknown
    /// keys holds no more than the cap.
    diagnostics: Capped,
}

impl Parser<'_> {
    fn push(&mut self, rule: &'static Rule, range: TextRange, message: impl Into<String>) {
        self.diagnostics
            .push(rule.at(&self.doc.path, range, message));
    }

    /// Reports `rule` at `range` with the fix titled `fix_title` that replaces `range` by
    /// `new_text`.
    fn push_with_fix(
        &mut self,
        rule: &'static Rule,
        range: TextRange,
        message: &str,
        fix_title: &str,
        new_text: &str,
    ) {
        let fix = Fix::replace(fix_title, &self.doc.path, range, new_text);
        self.diagnostics
            .push(rule.at(&self.doc.path, range, message).with_fix(fix));
    }

    /// Records that the runtime drops the declaration; the first reason found is the one kept.
    fn fail(&mut self, reason: SubagentDrop) {
        if self.doc.outcome.is_ok() {
            self.doc.outcome = Err(reason);
        }
    }

    fn read_text(&mut self) {
        let text = self.text;
        let split = match frontmatter::split_subagent(text) {
            Ok(split) => split,
            Err(SubagentSplitError::NoFrontmatter) => {
                self.fail(SubagentDrop::NoFrontmatter);
                match frontmatter::opening_trap(text) {
                    Some(OpeningTrap::Bom { range }) => self.bom(range),
                    Some(OpeningTrap::LeadingWhitespace { range }) => {
                        self.leading_whitespace(range)
                    }
                    _ => self.no_frontmatter(),
                }
                return;
            }
            Err(SubagentSplitError::NotClosed) => {
                self.fail(SubagentDrop::NotClosed);
                self.frontmatter_unclosed();
                return;
            }
        };
        self.doc.split = Some(split);
        self.doc.opening_range = split.opening;
        self.long_opener();
        self.dashes_in_frontmatter(split.closing);

        let entries = if split.yaml.is_empty() {
            Vec::new()
        } else {
            match yaml::parse(text, split.yaml, Typing::Jackson) {
                Ok(parsed) => match parsed.root {
                    None => Vec::new(),
                    Some(Node {
                        value: Value::Map(entries),
                        ..
                    }) => entries,
                    Some(other) => {
                        self.fail(SubagentDrop::InvalidYaml);
                        self.frontmatter_not_a_map(&other);
                        return;
                    }
                },
                Err(error) => {
                    self.fail(SubagentDrop::InvalidYaml);
                    self.invalid_yaml(&error, split.yaml);
                    return;
                }
            }
        };
        if entries.is_empty() {
            self.fail(SubagentDrop::EmptyFrontmatter);
            self.empty_frontmatter(split.opening);
            return;
        }
        self.read_keys(&entries, split);
        self.doc.metadata = entries;
    }

    /// Reads each key the runtime reads, in the order its builder does, with the diagnostics of
    /// each.
    fn read_keys(&mut self, entries: &[Entry], split: SubagentSplit) {
        for entry in entries {
            if entry.key == "name" {
                self.name_key(entry);
            } else {
                self.unknown_key(entry);
            }
        }
        self.read_description(entries, split);
        if let Some(e) = get(entries, "workspace") {
            self.read_workspace(e);
        }
        self.read_body(split);
        self.read_model(entries);
        self.read_steps(entries);
        self.read_sampling(entries);
        if let Some(e) = get(entries, "mode") {
            self.read_mode(e);
        }
        self.read_visibility(entries);
        if let Some(e) = get(entries, "tools") {
            self.doc.tools = name_list(&e.value);
        }
        if let Some(e) = get(entries, "skills") {
            self.doc.skills = name_list(&e.value);
        }
    }

    /// `description`, trimmed: without one (or blank), the runtime drops the file.
    fn read_description(&mut self, entries: &[Entry], split: SubagentSplit) {
        let description = get(entries, "description");
        let text = description
            .filter(|e| !matches!(e.value.value, Value::Null))
            .map(|e| java::trim(&java_to_string(&e.value.value)).to_string())
            .filter(|text| !text.is_empty());
        match (description, text) {
            (Some(e), Some(text)) => {
                self.multiline_description(&text, e.value.range);
                self.doc.description = Some(text);
                self.doc.description_range = Some(e.value.range);
            }
            _ => {
                self.fail(SubagentDrop::MissingDescription);
                self.missing_description(description, split.opening);
            }
        }
    }

    /// `workspace:`, a map of `mode` (isolated or shared) and `path`.
    fn read_workspace(&mut self, e: &Entry) {
        match &e.value.value {
            Value::Map(_) => {
                if let Some(mode) = e.value.get("mode") {
                    if !matches!(mode.value.value, Value::Null) {
                        let text = java::trim(&java_to_string(&mode.value.value)).to_lowercase();
                        match text.as_str() {
                            "isolated" => self.doc.workspace_mode = WorkspaceMode::Isolated,
                            "shared" => self.doc.workspace_mode = WorkspaceMode::Shared,
                            _ => self.unknown_workspace_mode(mode),
                        }
                    }
                }
                if let Some(p) = e.value.get("path") {
                    if let Some(s) = p.value.value.java_string() {
                        let s = java::trim(&s).to_string();
                        if !s.is_empty() && !matches!(p.value.value, Value::Null) {
                            self.doc.workspace_path = Some(Spanned {
                                value: s,
                                range: p.value.range,
                            });
                        }
                    }
                }
            }
            Value::Null => {}
            _ => self.workspace_not_map(e),
        }
    }

    /// The body is the subagent's prompt, unless a workspace path is set: then it is discarded.
    fn read_body(&mut self, split: SubagentSplit) {
        let body = &self.text[split.body.start..split.body.end];
        if !body.is_empty() {
            self.doc.body_range = Some(split.body);
            match self.doc.workspace_path.clone() {
                Some(path) => self.body_discarded(split.body, &path.value),
                None => self.doc.body = Some(body.to_string()),
            }
        }
    }

    /// `model` (a string, trimmed) and `variant`.
    fn read_model(&mut self, entries: &[Entry]) {
        if let Some(e) = get(entries, "model") {
            if let Some(s) = e.value.value.java_string() {
                if !matches!(e.value.value, Value::Null) {
                    self.doc.model = Some(Spanned {
                        value: java::trim(&s).to_string(),
                        range: e.value.range,
                    });
                }
            }
        }
        if let Some(e) = get(entries, "variant") {
            if !matches!(e.value.value, Value::Null) {
                self.doc.variant = Some(java::trim(&java_to_string(&e.value.value)).to_string());
            }
        }
    }

    /// `steps`, else the deprecated `maxIters`: the first that is a number wins, truncated.
    fn read_steps(&mut self, entries: &[Entry]) {
        let steps = get(entries, "steps");
        let max_iters = get(entries, "maxIters");
        self.deprecated_max_iters(max_iters, steps);
        let mut steps_set = false;
        for (key, e) in [("steps", steps), ("maxIters", max_iters)] {
            let Some(e) = e else { continue };
            match number(&e.value.value) {
                Some(n) if !steps_set => {
                    steps_set = true;
                    let int = n.trunc();
                    self.steps_not_positive(key, e, int);
                    self.doc.steps = int.clamp(0.0, u32::MAX as f64) as u32;
                }
                Some(_) => {}
                None => self.steps_not_a_number(key, e),
            }
        }
    }

    /// `temperature` and `top_p` (or `topP`): numbers, or strings Java parses as doubles.
    fn read_sampling(&mut self, entries: &[Entry]) {
        let top_p = get(entries, "top_p").or_else(|| get(entries, "topP"));
        for (key, e, max) in [
            ("temperature", get(entries, "temperature"), 2.0),
            ("top_p", top_p, 1.0),
        ] {
            let Some(e) = e else { continue };
            if matches!(e.value.value, Value::Null) {
                continue;
            }
            let parsed = number(&e.value.value).or_else(|| {
                e.value
                    .value
                    .java_string()
                    .and_then(|s| java::parse_double(&s))
            });
            match parsed {
                Some(v) => {
                    self.sampling_out_of_range(key, e, v, max);
                    if key == "temperature" {
                        self.doc.temperature = Some(v);
                    } else {
                        self.doc.top_p = Some(v);
                    }
                }
                None => self.sampling_not_numeric(key, e),
            }
        }
    }

    /// `mode`: primary, subagent or all; anything else reads as all.
    fn read_mode(&mut self, e: &Entry) {
        if !matches!(e.value.value, Value::Null) {
            let text = java::trim(&java_to_string(&e.value.value)).to_lowercase();
            self.doc.mode = match text.as_str() {
                "primary" => AgentMode::Primary,
                "subagent" => AgentMode::Subagent,
                "all" => AgentMode::All,
                _ => {
                    self.unknown_mode(e);
                    AgentMode::All
                }
            };
        }
    }

    /// `hidden` and `expose_to_user` (or `exposeToUser`): booleans, or strings that are true only
    /// when they say `true`.
    fn read_visibility(&mut self, entries: &[Entry]) {
        let expose = get(entries, "expose_to_user").or_else(|| get(entries, "exposeToUser"));
        for (key, e) in [
            ("hidden", get(entries, "hidden")),
            ("expose_to_user", expose),
        ] {
            let Some(e) = e else { continue };
            let value = match &e.value.value {
                Value::Bool(b) => Some(*b),
                Value::Null => None,
                other => {
                    let text = java_to_string(other);
                    let parsed = text.eq_ignore_ascii_case("true");
                    self.boolean_string(key, e, &text, parsed);
                    Some(parsed)
                }
            };
            if let Some(v) = value {
                if key == "hidden" {
                    self.doc.hidden = v;
                } else {
                    self.doc.expose_to_user = Some(v);
                }
            }
        }
    }
}

/// The entry of `key`, if the frontmatter has one.
fn get<'e>(entries: &'e [Entry], key: &str) -> Option<&'e Entry> {
    entries.iter().find(|e| e.key == key)
}

/// Java `Object.toString()` of a value as Jackson builds it (`List`/`LinkedHashMap` formats).
fn java_to_string(value: &Value) -> String {
    match value {
        Value::List(items) => format!(
            "[{}]",
            items
                .iter()
                .map(|n| java_to_string(&n.value))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Map(entries) => format!(
            "{{{}}}",
            entries
                .iter()
                .map(|e| format!("{}={}", e.key, java_to_string(&e.value.value)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => other.java_string().unwrap_or_default(),
    }
}

fn number(value: &Value) -> Option<f64> {
    match value {
        Value::Int(text) => text.parse().ok(),
        Value::Float { value, .. } => Some(*value),
        _ => None,
    }
}

/// A `tools:`/`skills:` value as the runtime reads it: a YAML list (each element's `toString`,
/// trimmed, empties dropped) or a comma string (`[a, b]` brackets stripped), with a range per name.
pub fn name_list(node: &Node) -> Vec<Spanned<String>> {
    match &node.value {
        Value::Null => Vec::new(),
        Value::List(items) => items
            .iter()
            .filter_map(|item| {
                let text = java::trim(&java_to_string(&item.value)).to_string();
                (!text.is_empty()).then_some(Spanned {
                    value: text,
                    range: item.range,
                })
            })
            .collect(),
        other => {
            let text = java_to_string(other);
            let trimmed = java::trim(&text);
            let inner = trimmed
                .strip_prefix('[')
                .and_then(|t| t.strip_suffix(']'))
                .unwrap_or(trimmed);
            // For a plain or simply quoted scalar the text sits in the source at a fixed offset;
            // names are located by search so escapes cannot misplace a range.
            let mut cursor = 0usize;
            inner
                .split(',')
                .filter_map(|part| {
                    let name = java::trim(part);
                    if name.is_empty() {
                        return None;
                    }
                    Some((name.to_string(), cursor_find(&mut cursor, &text, name)))
                })
                .map(|(name, found)| Spanned {
                    range: found
                        .map(|at| offset_in_node(node, at, name.len()))
                        .unwrap_or(node.range),
                    value: name,
                })
                .collect()
        }
    }
}

fn cursor_find(cursor: &mut usize, text: &str, needle: &str) -> Option<usize> {
    let at = text[*cursor..].find(needle)? + *cursor;
    *cursor = at + needle.len();
    Some(at)
}

/// Maps an offset inside a scalar's value to the file when the scalar is written without escapes
/// (plain, or quoted with one leading quote character).
fn offset_in_node(node: &Node, at: usize, len: usize) -> TextRange {
    let value_len = node.value.java_string().map_or(0, |s| s.len());
    let shift = match node.range.len().checked_sub(value_len) {
        Some(0) => 0,
        Some(2) => 1,
        _ => return node.range,
    };
    TextRange::new(
        node.range.start + shift + at,
        node.range.start + shift + at + len,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::layout::Tree;
    use std::sync::Arc;

    fn parse_at(rel: &str, text: &str) -> SubagentDoc {
        parse(
            PathBuf::from(format!("/w/{rel}")),
            Location {
                tree: Tree::Shared,
                rel: rel.to_string(),
            },
            &FileContent::Text(Arc::from(text)),
        )
    }

    fn agent(text: &str) -> SubagentDoc {
        parse_at("subagents/researcher.md", text)
    }

    fn codes(doc: &SubagentDoc) -> Vec<(&'static str, usize, usize)> {
        doc.diagnostics
            .iter()
            .map(|d| (d.code, d.range.start, d.range.end))
            .collect()
    }

    #[test]
    fn a_readme_without_frontmatter_is_documentation_not_a_dropped_spec() {
        let readme = parse_at(
            "subagents/README.md",
            "# Subagents\n\nEach file is a subagent.\n",
        );
        assert_eq!(readme.outcome, Err(SubagentDrop::NoFrontmatter));
        assert_eq!(codes(&readme), vec![]);
        // A README that tries to be a spec still gets the trap it falls into.
        let bom = parse_at("subagents/readme.md", "\u{feff}---\ndescription: d\n---\n");
        assert_eq!(codes(&bom), vec![("SA018", 0, 3)]);
        // Any other file without frontmatter is reported.
        let general = parse_at("subagents/general.md", "# General Subagent\n");
        assert_eq!(codes(&general), vec![("SA001", 0, 0)]);
    }

    #[test]
    fn parses_all_hyperparams() {
        let text = "---\ndescription: Finds things\ntemperature: 0.4\ntop_p: 0.85\nvariant: thinking\nsteps: 15\nmodel: openai:gpt-4o-mini\ntools: [read_file, web_search]\nskills: \"pdf, 技能\"\n---\n\nYou research.\n";
        let doc = agent(text);
        assert_eq!(doc.outcome, Ok(()));
        assert!(doc.diagnostics.is_empty(), "{:?}", doc.diagnostics);
        assert_eq!(doc.id, "researcher");
        assert_eq!(doc.description.as_deref(), Some("Finds things"));
        assert_eq!(doc.temperature, Some(0.4));
        assert_eq!(doc.top_p, Some(0.85));
        assert_eq!(doc.variant.as_deref(), Some("thinking"));
        assert_eq!(doc.steps, 15);
        assert_eq!(doc.model.as_ref().unwrap().value, "openai:gpt-4o-mini");
        assert_eq!(doc.body.as_deref(), Some("You research."));
        let tools: Vec<(&str, usize, usize)> = doc
            .tools
            .iter()
            .map(|t| (t.value.as_str(), t.range.start, t.range.end))
            .collect();
        assert_eq!(
            tools,
            vec![("read_file", 121, 130), ("web_search", 132, 142)]
        );
        let skills: Vec<(&str, &str)> = doc
            .skills
            .iter()
            .map(|s| (s.value.as_str(), &text[s.range.start..s.range.end]))
            .collect();
        assert_eq!(skills, vec![("pdf", "pdf"), ("技能", "技能")]);
    }

    #[test]
    fn steps_and_numbers() {
        assert_eq!(
            agent("---\ndescription: d\nsteps: 20\nmaxIters: 5\n---\n").steps,
            20
        );
        let doc = agent("---\ndescription: d\nsteps: many\nmaxIters: 5\n---\n");
        assert_eq!(doc.steps, 5);
        assert_eq!(codes(&doc), vec![("SA013", 26, 30), ("SA017", 31, 39)]);
        let doc = agent("---\ndescription: d\ntemperature: hot\ntop_p: 1.5\nsteps: 0\n---\n");
        assert_eq!(doc.temperature, None);
        assert_eq!(doc.top_p, Some(1.5));
        assert_eq!(
            codes(&doc),
            vec![("SA014", 32, 35), ("SA014", 43, 46), ("SA013", 54, 55)]
        );
        assert_eq!(
            agent("---\ndescription: d\ntemperature: \"0.7\"\n---\n").temperature,
            Some(0.7)
        );
    }

    #[test]
    fn modes_and_workspace() {
        let doc = agent("---\ndescription: d\nmode: boss\nworkspace:\n  mode: private\n  path: ../x\n---\nbody text\n");
        assert_eq!(doc.mode, AgentMode::All);
        assert_eq!(doc.workspace_mode, WorkspaceMode::Isolated);
        assert_eq!(doc.workspace_path.as_ref().unwrap().value, "../x");
        assert_eq!(doc.body, None);
        assert_eq!(
            codes(&doc),
            vec![("SA012", 25, 29), ("SA010", 49, 56), ("SA011", 74, 83)]
        );
        let doc = agent("---\ndescription: d\nworkspace: shared\nmode: PRIMARY\n---\n");
        assert_eq!(doc.mode, AgentMode::Primary);
        assert!(!doc.is_visible());
        assert_eq!(codes(&doc), vec![("SA009", 30, 36)]);
    }

    #[test]
    fn booleans_and_keys() {
        let doc = agent(
            "---\ndescription: d\nhidden: yes\nexpose_to_user: True\nname: x\nurl: http://x\n---\n",
        );
        // Jackson keeps `yes` a string; parseBoolean("yes") is false.
        assert!(!doc.hidden);
        assert_eq!(doc.expose_to_user, Some(true));
        assert_eq!(
            codes(&doc),
            vec![("SA015", 27, 30), ("SA008", 52, 56), ("SA016", 60, 63)]
        );
        let named = doc.diagnostics.iter().find(|d| d.code == "SA008").unwrap();
        assert_eq!(
            named.message,
            "`name:` is ignored: the agent id is the file name (`researcher`)"
        );
        // A `name:` equal to the id is harmless: not reported.
        let same = agent("---\ndescription: d\nname: researcher\n---\n");
        assert_eq!(codes(&same), vec![]);
    }

    #[test]
    fn drops() {
        let doc = agent("---\nmodel: x\n---\n");
        assert_eq!(doc.outcome, Err(SubagentDrop::MissingDescription));
        assert_eq!(codes(&doc), vec![("SA004", 0, 3)]);
        let doc = agent("---\ndescription: \"  \"\n---\n");
        assert_eq!(codes(&doc), vec![("SA004", 17, 21)]);
        let doc = agent("\u{FEFF}---\ndescription: d\n---\n");
        assert_eq!(doc.outcome, Err(SubagentDrop::NoFrontmatter));
        assert_eq!(codes(&doc), vec![("SA018", 0, 3)]);
        let doc = agent("\n---\ndescription: d\n---\n");
        assert_eq!(codes(&doc), vec![("SA019", 0, 1)]);
        assert_eq!(agent("   ").outcome, Err(SubagentDrop::NoFrontmatter));
        let doc = agent("---\ndescription: d\n");
        assert_eq!(doc.outcome, Err(SubagentDrop::NotClosed));
        assert_eq!(codes(&doc), vec![("SA002", 0, 3)]);
        let doc = agent("---\n---\nbody");
        assert_eq!(doc.outcome, Err(SubagentDrop::EmptyFrontmatter));
        let doc = agent("---\ndescription: [unclosed\n---\n");
        assert_eq!(doc.outcome, Err(SubagentDrop::InvalidYaml));
        assert_eq!(doc.diagnostics[0].code, "SA003");
        // An unquoted `: `: the fix quotes the value, and the spec then parses.
        let text = "---\ndescription: Researches questions: web, papers.\n---\nBody\n";
        let doc = agent(text);
        assert_eq!(doc.outcome, Err(SubagentDrop::InvalidYaml));
        assert_eq!(codes(&doc), vec![("SA003", 17, 51)]);
        assert_eq!(
            doc.diagnostics[0].message,
            "the value of `description` has an unquoted `: `, which YAML reads as the start of another key, so the frontmatter is not valid YAML; the runtime logs a WARN and ignores the file"
        );
        let fix = &doc.diagnostics[0].fixes[0];
        assert_eq!(fix.title, "Quote the value of `description`");
        let fixed = crate::base::apply_edits(text, &fix.edits);
        assert_eq!(
            fixed,
            "---\ndescription: \"Researches questions: web, papers.\"\n---\nBody\n"
        );
        assert_eq!(agent(&fixed).outcome, Ok(()));
        let doc = agent("---\njust text\n---\n");
        assert_eq!(doc.outcome, Err(SubagentDrop::InvalidYaml));
        let doc = agent("---\ndescription: a---b\n---\n");
        assert_eq!(doc.description.as_deref(), Some("a"));
        assert_eq!(codes(&doc), vec![("SA020", 18, 21)]);
        assert_eq!(doc.diagnostics[0].severity, crate::base::Severity::Warning);
        let dropped = agent("---\nmodel: a---\ndescription: d\n---\n");
        assert_eq!(dropped.outcome, Err(SubagentDrop::MissingDescription));
        let early = dropped
            .diagnostics
            .iter()
            .find(|d| d.code == "SA020")
            .unwrap();
        assert_eq!(early.severity, crate::base::Severity::Error);
        let doc = agent("----\ndescription: d\n---\n");
        assert_eq!(doc.diagnostics[0].code, "SA021");
        assert_eq!(doc.diagnostics[0].fixes[0].edits[0].new_text, "---");
    }

    #[test]
    fn ids_and_locations() {
        let ok = "---\ndescription: d\n---\n";
        let doc = parse_at("subagents/general-purpose.md", ok);
        assert_eq!(codes(&doc), vec![]);
        let doc = parse_at("subagents/team/lead.md", ok);
        assert_eq!(doc.id, "lead");
        // Nesting is reported from the resolution (`check::loading`), not the parse.
        assert_eq!(codes(&doc), vec![]);
        let doc = parse_at("subagents/my agent.md", ok);
        assert_eq!(codes(&doc), vec![("SA005", 0, 0)]);
        // Loaded all the same: a warning. An empty id is the one the runtime skips: an error.
        assert_eq!(doc.outcome, Ok(()));
        assert_eq!(doc.diagnostics[0].severity, crate::base::Severity::Warning);
        let doc = parse_at("subagents/.md", ok);
        assert_eq!(doc.outcome, Err(SubagentDrop::EmptyId));
        assert_eq!(doc.diagnostics[0].code, "SA005");
        assert_eq!(doc.diagnostics[0].severity, crate::base::Severity::Error);
        assert_eq!(
            doc.diagnostics[0].message,
            "the agent id (from the file name) is empty; the runtime skips the file"
        );
        assert_eq!(subagent_bad_id::id_problem("a:b"), Some("contains `:`"));
        assert_eq!(subagent_bad_id::id_problem("a..b"), Some("contains `..`"));
        assert_eq!(subagent_bad_id::id_problem("writer"), None);
    }

    #[test]
    fn crlf_and_emoji() {
        let text = "---\r\ndescription: 研究 😀\r\n---\r\n\r\n提示\r\n";
        let doc = agent(text);
        assert_eq!(doc.description.as_deref(), Some("研究 😀"));
        let r = doc.description_range.unwrap();
        assert_eq!(&text[r.start..r.end], "研究 😀");
        assert_eq!(doc.body.as_deref(), Some("提示"));
    }
}
