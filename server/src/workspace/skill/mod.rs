//! One `SKILL.md`, parsed the way the runtime parses it (`MarkdownSkillParser` +
//! `SkillUtil.createFrom`, harness-spec §2.3): the frontmatter split, YAML 1.1 typing, the fallback
//! line parser after a YAML error, and whether the runtime loads or drops the skill. Diagnostics
//! found while parsing one file (the per-file rows of §9.2) are kept with the document.
//!
//! The rules found while parsing (SK001–SK015, SK019–SK024, SK031) are one file each here, declaration
//! beside detection ([`RULES`]): each adds to the [`Parser`] the methods that report it, which the
//! reading below calls. Which layer loads the file, in which context, and what wins is
//! `resolution`'s, and the rules about it are `check::loading`'s.
//!
//! Depends on `base`, `syntax`, `rules` and `workspace::{keys, layout}` only, never on `check`.

use std::fmt;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::base::suggest::did_you_mean;
use crate::base::{Diagnostic, FileContent, FileEdit, Fix, TextRange};
use crate::rules::{declare_family, Rule};
use crate::syntax::frontmatter::{self, OpeningTrap, SkillSplit};
use crate::syntax::java;
use crate::syntax::yaml::{self, Entry, LostKey, LostReason, Node, Typing, Value};
use crate::workspace::keys;
use crate::workspace::layout::{Location, Tree};

// The SKILL.md rules found while parsing (the others are decided where the resolution is:
// `check::loading`, and SK025 in `check::tools`).
declare_family! {
    mod skill_no_frontmatter;         // SK001
    mod skill_bom;                    // SK002
    mod skill_leading_whitespace;     // SK003
    mod skill_long_opener;            // SK004
    mod skill_frontmatter_unclosed;   // SK005
    mod skill_dashes_in_frontmatter;  // SK006
    mod skill_missing_name;           // SK007
    mod skill_name_not_string;        // SK008
    mod skill_missing_description;    // SK009
    mod skill_description_not_string; // SK010
    mod skill_empty_body;             // SK011
    mod skill_frontmatter_too_long;   // SK012
    mod skill_yaml_fallback;          // SK013
    mod skill_key_lost_in_fallback;   // SK014
    mod skill_frontmatter_not_a_map;  // SK015
    mod skill_name_style;             // SK019
    mod skill_description_too_long;   // SK020
    mod skill_body_too_long;          // SK021
    mod skill_name_spaces;            // SK022
    mod skill_yaml11_surprise;        // SK023
    mod skill_non_string_key;         // SK024
    mod skill_claude_skill_dir;       // SK031
}

pub(crate) use skill_claude_skill_dir::CLAUDE_SKILL_DIR;

/// A range of a file's text that shares the file's buffer instead of copying it (a large workspace
/// would otherwise hold every skill body twice). Derefs to
/// `str` and compares with strings, so it reads like the `String` it replaces.
#[derive(Clone)]
pub struct TextSlice {
    text: Arc<str>,
    range: TextRange,
}

impl TextSlice {
    /// `range` must lie on character boundaries of `text`.
    pub fn new(text: Arc<str>, range: TextRange) -> Self {
        debug_assert!(text.is_char_boundary(range.start) && text.is_char_boundary(range.end));
        Self { text, range }
    }

    pub fn as_str(&self) -> &str {
        &self.text[self.range.start..self.range.end]
    }

    /// Where the slice sits in the file.
    pub fn range(&self) -> TextRange {
        self.range
    }
}

impl Default for TextSlice {
    fn default() -> Self {
        Self {
            text: Arc::from(""),
            range: TextRange::empty(0),
        }
    }
}

impl Deref for TextSlice {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Debug for TextSlice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for TextSlice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq for TextSlice {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<str> for TextSlice {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for TextSlice {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for TextSlice {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

/// Why the runtime drops a skill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SkillDrop {
    /// File could not be read as text.
    Unreadable,
    NoFrontmatter,
    /// `name` or `description` missing, blank or not a YAML string.
    MissingNameOrDescription,
    EmptyBody,
    FrontmatterTooLong,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SkillDoc {
    pub path: PathBuf,
    pub location: Location,
    /// Folder directly containing the SKILL.md (its name is the "directory name").
    pub dir_name: String,
    /// Metadata as the runtime holds it, in YAML order (after the fallback parser if it ran).
    pub metadata: Vec<Entry>,
    /// `name` when it is a non-blank string.
    pub name: Option<String>,
    /// Range of the `name` value (for navigation and rename), when present.
    pub name_range: Option<TextRange>,
    pub description: Option<String>,
    /// Range of the frontmatter's opening `---` line (where "missing key" diagnostics point).
    pub opening_range: TextRange,
    /// `frontmatter::closing_line` of the text (`None` when the file has no text): the lines
    /// the preview names as the skill's source.
    pub frontmatter_closing_line: Option<usize>,
    /// Body as the runtime passes it on (content after the frontmatter). Shares the file's text
    /// instead of copying it; derefs to `str`.
    pub body: TextSlice,
    /// `Ok` when the runtime loads the skill.
    pub outcome: Result<(), SkillDrop>,
    pub diagnostics: Vec<Diagnostic>,
    /// The runtime's frontmatter split, when it finds one.
    pub split: Option<SkillSplit>,
    /// Range of the `description` value, when present.
    pub description_range: Option<TextRange>,
    /// True when the YAML failed and the metadata comes from the runtime's fallback line parser.
    pub fallback: bool,
    /// Top-level keys written in the frontmatter that the fallback parser lost.
    pub lost_keys: Vec<LostKey>,
    /// Keys at any depth that YAML 1.1 types as something other than a string (`1:`, `yes:`):
    /// the runtime drops their entries, so `metadata` never holds them.
    pub dropped_keys: Vec<yaml::DroppedKey>,
}

impl SkillDoc {
    /// The metadata entry for `key`.
    pub fn entry(&self, key: &str) -> Option<&Entry> {
        self.metadata.iter().find(|e| e.key == key)
    }

    /// Folders between `skills/` and `SKILL.md` (`["pdf"]` for `skills/pdf/SKILL.md`).
    pub fn skill_dirs(&self) -> Vec<&str> {
        skill_dirs(&self.location.rel)
    }

    /// Loaded by the direct scan of the host `<ws>/skills` folder (Layer 3): shared tree, one level.
    pub fn seen_by_direct_scan(&self) -> bool {
        self.location.tree == Tree::Shared && self.skill_dirs().len() == 1
    }

    /// Loaded by the workspace repository's recursive glob (Layer 4): first folder not `_`/`.`.
    pub fn seen_by_workspace_glob(&self) -> bool {
        self.skill_dirs()
            .first()
            .is_some_and(|d| !d.starts_with('_') && !d.starts_with('.'))
    }
}

fn skill_dirs(rel: &str) -> Vec<&str> {
    let parts: Vec<&str> = rel.split('/').collect();
    if parts.len() >= 3 && parts[0] == "skills" {
        parts[1..parts.len() - 1].to_vec()
    } else {
        Vec::new()
    }
}

/// Parses one SKILL.md. Unreadable, non-UTF-8 or oversized content gives a dropped document
/// without diagnostics (the `WS` rules report those).
pub fn parse(path: PathBuf, location: Location, content: &FileContent) -> SkillDoc {
    let dir_name = path
        .parent()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut doc = SkillDoc {
        path,
        location,
        dir_name,
        metadata: Vec::new(),
        name: None,
        name_range: None,
        description: None,
        opening_range: TextRange::new(0, 0),
        frontmatter_closing_line: None,
        body: TextSlice::default(),
        outcome: Err(SkillDrop::Unreadable),
        diagnostics: Vec::new(),
        split: None,
        description_range: None,
        fallback: false,
        lost_keys: Vec::new(),
        dropped_keys: Vec::new(),
    };
    let FileContent::Text(shared) = content else {
        return doc;
    };
    let text: &str = shared;
    doc.opening_range = TextRange::new(0, text.len().min(3));
    doc.frontmatter_closing_line = Some(frontmatter::closing_line(text));
    doc.outcome = Ok(());
    let mut parser = Parser {
        path: doc.path.clone(),
        text,
        out: Vec::new(),
    };
    parser.read(&mut doc, shared);
    parser.settle_early_close(&doc);
    let mut out = parser.out;
    out.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    doc.diagnostics = out;
    doc
}

/// The reading of one SKILL.md's text and what it found: each rule file adds the methods that
/// report its rule.
struct Parser<'t> {
    path: PathBuf,
    text: &'t str,
    out: Vec<Diagnostic>,
}

impl Parser<'_> {
    fn read(&mut self, doc: &mut SkillDoc, shared: &Arc<str>) {
        let text = self.text;
        let Some(split) = frontmatter::split_skill(text) else {
            doc.outcome = Err(SkillDrop::NoFrontmatter);
            self.no_frontmatter();
            return;
        };
        doc.split = Some(split);
        doc.opening_range = TextRange::new(0, 3);
        doc.body = TextSlice::new(shared.clone(), split.body);
        self.early_close(split);
        if self.frontmatter_too_long(split.yaml) {
            doc.outcome = Err(SkillDrop::FrontmatterTooLong);
            return;
        }
        if !split.yaml.is_empty() {
            self.read_metadata(doc, split);
        }
        self.check_required(doc);
        if doc.body.is_empty() {
            self.empty_body(split);
            if doc.outcome.is_ok() {
                doc.outcome = Err(SkillDrop::EmptyBody);
            }
        }
        self.name_spaces(doc);
        self.name_style(doc);
        self.description_too_long(doc);
        self.body_too_long(doc, split);
        self.claude_skill_dir(doc);
        // `allowed-tools` (SK025) holds for every skill that sets it: said once, by
        // `check::tools::skill_allowed_tools_not_enforced`.
    }

    /// No frontmatter the runtime finds: what the file starts with says which rule and fix.
    fn no_frontmatter(&mut self) {
        match frontmatter::opening_trap(self.text) {
            Some(OpeningTrap::Bom { range }) => self.bom(range),
            Some(OpeningTrap::LeadingWhitespace { range }) => self.leading_whitespace(range),
            Some(OpeningTrap::LongOpener { range }) => self.long_opener(range),
            Some(OpeningTrap::OpenerNotAlone { range }) => self.opener_not_alone(range),
            None if self.text.starts_with("---") => self.unclosed(),
            None => self.no_opening(),
        }
    }

    /// The fix that deletes `range`.
    fn delete_fix(&self, range: TextRange, title: &str) -> Fix {
        Fix::replace(title, &self.path, range, "")
    }

    fn read_metadata(&mut self, doc: &mut SkillDoc, split: SkillSplit) {
        match yaml::parse(self.text, split.yaml, Typing::Yaml11) {
            Ok(parsed) => {
                match parsed.root {
                    None => {}
                    Some(Node {
                        value: Value::Map(entries),
                        ..
                    }) => doc.metadata = entries,
                    Some(other) => self.not_a_map(&other),
                }
                self.non_string_keys(&parsed.dropped_keys);
                doc.dropped_keys = parsed.dropped_keys;
                for surprise in &parsed.surprises {
                    self.yaml11_surprise(surprise);
                }
            }
            Err(err) => {
                doc.fallback = true;
                let fallback = yaml::fallback(self.text, split.yaml);
                match yaml::colon_in_values(self.text, split.yaml, Typing::Yaml11) {
                    Some(values) => self.colon_in_values(&values, &fallback),
                    None => {
                        self.yaml_fallback(&err, &fallback);
                        self.lost_in_fallback(&fallback.lost);
                    }
                }
                doc.metadata = fallback.entries;
                doc.lost_keys = fallback.lost;
            }
        }
    }

    /// The required keys (`keys::SKILL`): SK007 and SK009 when one is missing or blank, SK008
    /// and SK010 when it is not a string, the same for both keys ([`required_key_rules`]).
    fn check_required(&mut self, doc: &mut SkillDoc) {
        let text = self.text;
        let path = self.path.clone();
        let mut ok = true;
        for spec in keys::SKILL.iter().filter(|k| k.required) {
            let key = spec.name;
            let Some((missing, not_string)) = required_key_rules(key) else {
                continue;
            };
            let entry = doc.entry(key).cloned();
            let value = match entry {
                None => {
                    ok = false;
                    let diag = match doc.lost_keys.iter().find(|l| l.key == key) {
                        Some(lost) => missing.at(
                            &path,
                            lost.range,
                            format!(
                                "`{key}` is lost: the YAML has an error and the runtime's fallback line parser skips this {}; the runtime skips the skill",
                                match lost.reason {
                                    LostReason::BlockScalar => "block scalar",
                                    LostReason::EmptyValue => "nested or empty value",
                                    LostReason::NotAKeyLine => "line",
                                }
                            ),
                        ),
                        None => {
                            // A misspelt key is kept as metadata without a word: name it here.
                            let unknown: Vec<&str> = doc
                                .metadata
                                .iter()
                                .map(|e| e.key.as_str())
                                .filter(|k| keys::skill(k).is_none())
                                .collect();
                            match did_you_mean(key, &unknown).and_then(|near| doc.entry(near)) {
                                Some(near) => missing.at(
                                    &path,
                                    near.key_range,
                                    format!(
                                        "the frontmatter has no `{key}`, but has `{}`: did you mean `{key}`? The runtime skips the skill",
                                        near.key
                                    ),
                                ),
                                None => missing.at(
                                    &path,
                                    doc.opening_range,
                                    format!("the frontmatter has no `{key}`; the runtime skips the skill"),
                                ),
                            }
                        }
                    };
                    self.out.push(diag);
                    continue;
                }
                Some(entry) => entry.value,
            };
            match &value.value {
                Value::Str(s) if !java::is_blank(s) => {
                    if key == "name" {
                        doc.name = Some(s.clone());
                        doc.name_range = Some(value.range);
                    } else {
                        doc.description = Some(s.clone());
                        doc.description_range = Some(value.range);
                    }
                }
                Value::Str(_) | Value::Null => {
                    ok = false;
                    self.out.push(missing.at(
                        &path,
                        value.range,
                        format!("`{key}` is blank; the runtime skips the skill"),
                    ));
                }
                other => {
                    ok = false;
                    let source = &written_with_tag(text, value.range, value.tag);
                    let rendered = other
                        .java_string()
                        .map(|s| format!(" ({s})"))
                        .unwrap_or_default();
                    let mut diag = not_string.at(
                        &path,
                        value.range,
                        format!(
                            "`{key}: {source}` is a YAML {}{rendered}, not a string; the runtime skips the skill",
                            other.type_name()
                        ),
                    );
                    if other.java_string().is_some() {
                        if let Some(fix) = self.string_fix(value.range, value.tag) {
                            diag = diag.with_fix(fix);
                        }
                    }
                    self.out.push(diag);
                }
            }
        }
        if !ok {
            doc.outcome = Err(SkillDrop::MissingNameOrDescription);
        }
    }

    /// The fix that makes the scalar at `range` (with its explicit `tag`, if any) a string: quote
    /// a plain scalar, and drop a tag, which would type even a quoted value (`!!bool "yes"` is
    /// true). `None` when neither applies (a scalar already quoted and untagged, a block scalar).
    fn string_fix(&self, range: TextRange, tag: Option<TextRange>) -> Option<Fix> {
        let (path, text) = (&self.path, self.text);
        let source = &text[range.start..range.end];
        let quote = is_plain_scalar(source);
        let tag = tag.filter(|t| t.end <= range.start && text.is_char_boundary(t.end));
        let mut fix = match (quote, tag) {
            (true, _) => quote_fix(path, range, source),
            (false, Some(_)) => Fix {
                title: String::new(),
                edits: Vec::new(),
            },
            (false, None) => return None,
        };
        if let Some(tag) = tag {
            // The tag and the blanks after it on its line: `name: !!bool yes` becomes
            // `name: "yes"`.
            let blanks = text[tag.end..range.start]
                .bytes()
                .take_while(|b| matches!(b, b' ' | b'\t'))
                .count();
            let written = &text[tag.start..tag.end];
            fix.title = if quote {
                format!("Remove `{written}` and quote `{source}` so it stays a string")
            } else {
                format!("Remove `{written}` so `{source}` stays a string")
            };
            fix.edits.insert(
                0,
                FileEdit {
                    path: path.to_path_buf(),
                    range: TextRange::new(tag.start, tag.end + blanks),
                    new_text: String::new(),
                },
            );
        }
        Some(fix)
    }
}

/// The rules reporting a required key (`keys::SKILL`) that is missing or blank, and one that is
/// not a string.
fn required_key_rules(key: &str) -> Option<(&'static Rule, &'static Rule)> {
    match key {
        "name" => Some((&skill_missing_name::RULE, &skill_name_not_string::RULE)),
        "description" => Some((
            &skill_missing_description::RULE,
            &skill_description_not_string::RULE,
        )),
        _ => None,
    }
}

/// The scalar at `range` as written, with its tag when the tag is on the same line.
fn written_with_tag(text: &str, range: TextRange, tag: Option<TextRange>) -> String {
    match tag {
        Some(t) if t.end <= range.start && !text[t.end..range.start].contains(['\n', '\r']) => {
            text[t.start..range.end].to_string()
        }
        _ => text[range.start..range.end].to_string(),
    }
}

fn is_plain_scalar(source: &str) -> bool {
    !source.is_empty()
        && !source.starts_with(['"', '\'', '[', '{', '|', '>', '!', '&', '*'])
        && !source.contains(['\n', '\r'])
}

/// Quotes a plain scalar so YAML reads it as a string.
fn quote_fix(path: &Path, range: TextRange, source: &str) -> Fix {
    Fix::replace(
        format!("Quote `{source}` so it stays a string"),
        path,
        range,
        yaml::double_quoted(source),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_at(rel: &str, text: &str) -> SkillDoc {
        let path = PathBuf::from(format!("/w/{rel}"));
        parse(
            path,
            Location {
                tree: Tree::Shared,
                rel: rel.to_string(),
            },
            &FileContent::Text(Arc::from(text)),
        )
    }

    fn skill(text: &str) -> SkillDoc {
        parse_at("skills/pdf/SKILL.md", text)
    }

    fn codes(doc: &SkillDoc) -> Vec<(&'static str, usize, usize)> {
        doc.diagnostics
            .iter()
            .map(|d| (d.code, d.range.start, d.range.end))
            .collect()
    }

    #[test]
    fn every_required_key_of_the_table_has_its_rules() {
        for spec in keys::SKILL.iter().filter(|k| k.required) {
            assert!(required_key_rules(spec.name).is_some(), "{}", spec.name);
        }
    }

    #[test]
    fn valid_skill_loads() {
        let doc = skill("---\nname: pdf\ndescription: Work with PDFs.\nlicense: MIT\n---\n# PDF\n");
        assert_eq!(doc.outcome, Ok(()));
        assert_eq!(doc.name.as_deref(), Some("pdf"));
        assert_eq!(doc.name_range, Some(TextRange::new(10, 13)));
        assert_eq!(doc.body, "# PDF\n");
        assert!(doc.diagnostics.is_empty(), "{:?}", doc.diagnostics);
        assert_eq!(doc.metadata.len(), 3);
    }

    #[test]
    fn crlf_cr_and_cjk() {
        for text in [
            "---\r\nname: pdf\r\ndescription: 处理 PDF 😀\r\n---\r\nBody",
            "---\rname: pdf\rdescription: 处理 PDF 😀\r---\rBody",
        ] {
            let doc = skill(text);
            assert_eq!(doc.outcome, Ok(()), "{text:?}");
            assert_eq!(doc.description.as_deref(), Some("处理 PDF 😀"));
            let r = doc.description_range.unwrap();
            assert_eq!(&text[r.start..r.end], "处理 PDF 😀");
        }
    }

    #[test]
    fn boolean_name_is_dropped_with_a_quote_fix() {
        let text = "---\nname: yes\ndescription: d\n---\nBody";
        let doc = skill(text);
        assert_eq!(doc.outcome, Err(SkillDrop::MissingNameOrDescription));
        let d = &doc.diagnostics[0];
        assert_eq!((d.code, d.range), ("SK008", TextRange::new(10, 13)));
        assert_eq!(
            d.message,
            "`name: yes` is a YAML boolean (true), not a string; the runtime skips the skill"
        );
        assert_eq!(d.fixes[0].edits[0].new_text, "\"yes\"");
        let doc = skill("---\nname: 123\ndescription: d\n---\nBody");
        assert_eq!(doc.diagnostics[0].code, "SK008");
        assert!(doc.diagnostics[0].message.contains("integer"));
        let doc = skill("---\nname: [a, b]\ndescription: d\n---\nBody");
        assert_eq!(codes(&doc), vec![("SK008", 10, 16)]);
        assert!(doc.diagnostics[0].fixes.is_empty());
    }

    /// Applies the first fix of the diagnostic with `code` to `text`.
    fn fixed(text: &str, code: &str) -> (String, String) {
        let doc = skill(text);
        let d = doc.diagnostics.iter().find(|d| d.code == code).unwrap();
        let fix = &d.fixes[0];
        let mut edits = fix.edits.clone();
        edits.sort_by_key(|e| e.range.start);
        (fix.title.clone(), crate::base::apply_edits(text, &edits))
    }

    #[test]
    fn the_fix_of_a_tagged_scalar_drops_the_tag() {
        // Quoting alone would leave `!!bool "yes"`, still the boolean true.
        let (title, text) = fixed("---\nname: !!bool yes\ndescription: d\n---\nBody", "SK008");
        assert_eq!(
            title,
            "Remove `!!bool` and quote `yes` so it stays a string"
        );
        assert_eq!(text, "---\nname: \"yes\"\ndescription: d\n---\nBody");
        assert_eq!(skill(&text).outcome, Ok(()));
        // A quoted value needs only the tag removed; an anchor stays.
        let (title, text) = fixed(
            "---\nname: &n !!int \"12\"\ndescription: d\n---\nBody",
            "SK008",
        );
        assert_eq!(title, "Remove `!!int` so `\"12\"` stays a string");
        assert_eq!(text, "---\nname: &n \"12\"\ndescription: d\n---\nBody");
        assert_eq!(skill(&text).outcome, Ok(()));
        // A tag on the line before its value, and a YAML 1.1 surprise with a tag.
        let (_, text) = fixed(
            "---\nname: !!bool\n  on\ndescription: d\n---\nBody",
            "SK008",
        );
        assert_eq!(text, "---\nname: \n  \"on\"\ndescription: d\n---\nBody");
        let (_, text) = fixed(
            "---\nname: pdf\ndescription: d\nv: !!float 1.10\n---\nBody",
            "SK023",
        );
        assert_eq!(
            text,
            "---\nname: pdf\ndescription: d\nv: \"1.10\"\n---\nBody"
        );
        assert_eq!(codes(&skill(&text)), []);
    }

    #[test]
    fn missing_keys_point_at_the_opening_line() {
        let doc = skill("---\ndescription: d\n---\nBody");
        assert_eq!(codes(&doc), vec![("SK007", 0, 3)]);
        let doc = skill("---\nname: pdf\ndescription: \"  \"\n---\nBody");
        assert_eq!(codes(&doc), vec![("SK009", 27, 31)]);
        // MarkdownSkillParserTest: `---\n---\n# Content` has empty metadata.
        let doc = skill("---\n---\n# Content");
        assert_eq!(doc.body, "# Content");
        assert_eq!(codes(&doc), vec![("SK007", 0, 3), ("SK009", 0, 3)]);
    }

    #[test]
    fn empty_body() {
        let doc = skill("---\nname: pdf\ndescription: d\n---");
        assert_eq!(doc.outcome, Err(SkillDrop::EmptyBody));
        assert_eq!(codes(&doc), vec![("SK011", 29, 32)]);
        // A body of spaces without a line break is accepted.
        assert_eq!(
            skill("---\nname: pdf\ndescription: d\n---   ").outcome,
            Ok(())
        );
    }

    #[test]
    fn opening_traps_with_fixes() {
        let doc = skill("\u{FEFF}---\nname: pdf\ndescription: d\n---\nBody");
        assert_eq!(doc.outcome, Err(SkillDrop::NoFrontmatter));
        assert_eq!(codes(&doc), vec![("SK002", 0, 3)]);
        assert_eq!(doc.diagnostics[0].fixes[0].edits[0].new_text, "");
        let doc = skill("\n\n---\nname: pdf\ndescription: d\n---\nBody");
        assert_eq!(codes(&doc), vec![("SK003", 0, 2)]);
        let doc = skill("----\nname: pdf\ndescription: d\n---\nBody");
        assert_eq!(codes(&doc), vec![("SK004", 0, 4)]);
        assert_eq!(doc.diagnostics[0].fixes[0].edits[0].new_text, "---");
        let doc = skill("---\nname: pdf\n");
        assert_eq!(codes(&doc), vec![("SK005", 0, 3)]);
        let doc = skill("# Title\n---\nname: a\n---\nx");
        assert_eq!(codes(&doc), vec![("SK001", 0, 0)]);
    }

    #[test]
    fn dashes_inside_a_value() {
        let text = "---\nname: pdf\ndescription: a---b\n---\nBody";
        let doc = skill(text);
        assert_eq!(doc.description.as_deref(), Some("a"));
        assert_eq!(doc.diagnostics[0].code, "SK006");
        assert_eq!(doc.diagnostics[0].range, TextRange::new(28, 31));
        let more =
            skill("---\nname: pdf\ndescription: a---b\nlicense: MIT\nmetadata:\n  k: v\n---\nBody");
        assert_eq!(
            more.diagnostics[0].message,
            "this `---` closes the frontmatter: the runtime ends the YAML at the first `---` anywhere after the opening line; the keys after it (`license`, `metadata`) are lost; everything after it, including the intended closing `---` line, becomes the body; `name` and `description` survive, so the runtime loads the skill with the description `a`"
        );
        assert_eq!(doc.body, "b\n---\nBody");
        // Severity follows the outcome: loaded → warning; dropped (no description left) → error.
        assert_eq!(doc.diagnostics[0].severity, crate::base::Severity::Warning);
        let dropped = skill("---\nname: pdf---x\ndescription: d\n---\nBody");
        assert_eq!(dropped.outcome, Err(SkillDrop::MissingNameOrDescription));
        let early = dropped
            .diagnostics
            .iter()
            .find(|d| d.code == "SK006")
            .unwrap();
        assert_eq!(early.severity, crate::base::Severity::Error);
    }

    #[test]
    fn yaml_error_falls_back() {
        let text = "---\nname: pdf\ndescription: |\n  multi\n  line\nname: pdf\n---\nBody";
        let doc = skill(text);
        assert!(doc.fallback);
        assert_eq!(doc.outcome, Err(SkillDrop::MissingNameOrDescription));
        assert_eq!(
            codes(&doc),
            vec![("SK009", 14, 25), ("SK014", 14, 25), ("SK013", 44, 48)]
        );
        assert!(doc.diagnostics[0]
            .message
            .starts_with("`description` is lost: the YAML has an error"));
        assert_eq!(
            doc.diagnostics[2].message,
            "YAML error: duplicate key `name`; the runtime falls back to its line parser and keeps `name` (lost: `description`)"
        );
        // A tab-indented key is a YAML error; the single-line keys survive.
        let doc = skill("---\nname: pdf\ndescription: d\nmetadata:\n\tx: 1\n---\nBody");
        assert_eq!(doc.outcome, Ok(()));
        assert!(doc.fallback);
        assert_eq!(
            doc.metadata
                .iter()
                .map(|e| e.key.as_str())
                .collect::<Vec<_>>(),
            vec!["name", "description"]
        );
    }

    /// An unquoted `: ` in a value: one diagnostic, its lost keys as related locations, and the
    /// fix that quotes the value, after which the skill parses whole.
    #[test]
    fn an_unquoted_colon_is_one_diagnostic_with_a_quoting_fix() {
        let text = "---\nname: weather\ndescription: Look up the forecast: temperature, rain and wind\nmetadata:\n  author: it's \"me\"\n---\n# Weather\n";
        let doc = skill(text);
        assert!(doc.fallback);
        assert_eq!(codes(&doc), vec![("SK013", 31, 79)]);
        let d = &doc.diagnostics[0];
        assert_eq!(
            d.message,
            "the value of `description` has an unquoted `: `, which YAML reads as the start of another key, so the frontmatter is not valid YAML; the runtime then reads only its unindented `key: value` lines: it keeps `name`, `description` as text and loses `metadata` (agentscope-java #1443 proposes repairing such values when loading)"
        );
        assert_eq!(
            d.related
                .iter()
                .map(|r| (r.range, r.message.as_str()))
                .collect::<Vec<_>>(),
            vec![(
                TextRange::new(80, 88),
                "`metadata` is lost: a key with nothing after the colon (a nested map or list) is skipped"
            )]
        );
        let (title, fixed) = fixed(text, "SK013");
        assert_eq!(title, "Quote the value of `description`");
        assert_eq!(
            fixed,
            text.replace(
                "description: Look up the forecast: temperature, rain and wind",
                "description: \"Look up the forecast: temperature, rain and wind\""
            )
        );
        let doc = skill(&fixed);
        assert!(!doc.fallback);
        assert_eq!(codes(&doc), vec![]);
        assert_eq!(
            doc.description.as_deref(),
            Some("Look up the forecast: temperature, rain and wind")
        );
        assert_eq!(doc.metadata.len(), 3);
        // Another error beside it: no certain fix, the general report.
        let doc = skill("---\nname: pdf\ndescription: a: b\n\tx: 1\n---\nBody");
        assert_eq!(
            doc.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>(),
            vec!["SK013"]
        );
        assert!(doc.diagnostics[0].fixes.is_empty());
        assert!(doc.diagnostics[0].message.starts_with("YAML error: "));
    }

    #[test]
    fn frontmatter_limit() {
        let fits = format!(
            "---\nname: pdf\ndescription: {}\n---\nBody",
            "x".repeat(16_360)
        );
        assert_eq!(skill(&fits).outcome, Ok(()));
        let long = format!(
            "---\nname: pdf\ndescription: {}\n---\nBody",
            "字".repeat(16_400)
        );
        let doc = skill(&long);
        assert_eq!(doc.outcome, Err(SkillDrop::FrontmatterTooLong));
        assert_eq!(codes(&doc), vec![("SK012", 0, 3)]);
    }

    #[test]
    fn markdown_skill_parser_cases() {
        let doc = skill("---  \n\nname: test\n\ndescription: d\n\n---  \n\nContent");
        assert_eq!(doc.body, "Content");
        let doc = skill("---\n# comment\nname: pdf # trailing\ndescription: d\n---\nx");
        assert_eq!(doc.name.as_deref(), Some("pdf"));
        // The runtime trims the frontmatter before YAML reads it: a block scalar that is the last
        // key ends without a line break, one followed by another key keeps it.
        let doc = skill("---\nname: pdf\ndescription: >\n  a\n  b\n---\nx");
        assert_eq!(doc.description.as_deref(), Some("a b"));
        let doc = skill("---\nname: pdf\ndescription: |\n  a\n  b\nlicense: MIT\n---\nx");
        assert_eq!(doc.description.as_deref(), Some("a\nb\n"));
        let doc = skill("---\nname:\n  - a\ndescription: d\n---\nx");
        assert_eq!(doc.outcome, Err(SkillDrop::MissingNameOrDescription));
    }

    #[test]
    fn surprises_and_lints() {
        let text =
            "---\nname: PDF Tools\ndescription: d\nversion: 1.10\nallowed-tools: Read\n---\nBody";
        let doc = skill(text);
        assert_eq!(doc.outcome, Ok(()));
        let found = codes(&doc);
        assert_eq!(found, vec![("SK022", 10, 19), ("SK023", 44, 48)]);
        let surprise = doc.diagnostics.iter().find(|d| d.code == "SK023").unwrap();
        assert_eq!(surprise.message, "`version: 1.10` is read by YAML 1.1 as a floating-point number; the runtime renders it as `1.1`");
        // A float Java prints as written is no surprise.
        let doc = skill("---\nname: pdf\ndescription: d\nversion: 2.0\nratio: 0.5\n---\nBody");
        assert_eq!(codes(&doc), vec![]);
        let doc = skill("---\nname: pdf\ndescription: d\ndate: 2024-01-01\n---\nBody");
        assert!(doc.diagnostics[0]
            .message
            .ends_with("`Mon Jan 01 00:00:00 UTC 2024`"));
    }

    #[test]
    fn skill_manage_limits_are_infos() {
        // 1 025 UTF-16 units: 512 emoji are 1 024 units, plus one letter.
        let description = format!("{}a", "😀".repeat(512));
        let text = format!(
            "---\nname: pdf\ndescription: {description}\n---\n{}",
            "x".repeat(100_001)
        );
        let doc = skill(&text);
        assert_eq!(doc.outcome, Ok(()));
        let start = 27;
        assert_eq!(
            codes(&doc),
            vec![
                ("SK020", start, start + description.len()),
                (
                    "SK021",
                    start + description.len() + 5,
                    start + description.len() + 5
                )
            ]
        );
        let doc = skill("---\nname: Pdf_Tool\ndescription: d\n---\nx");
        assert_eq!(
            doc.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>(),
            vec!["SK019"]
        );
    }

    #[test]
    fn locations() {
        let body = "---\nname: x\ndescription: d\n---\nBody";
        // Where a file sits decides which layer reads it in which context: `check::loading`
        // reports that from the resolution, not the parse.
        let doc = parse_at("skills/a/x/SKILL.md", body);
        assert!(doc.diagnostics.is_empty());
        assert!(!doc.seen_by_direct_scan() && doc.seen_by_workspace_glob());
        let doc = parse_at("skills/_x/SKILL.md", body);
        assert!(doc.seen_by_direct_scan() && !doc.seen_by_workspace_glob());
        assert!(doc.diagnostics.is_empty());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
        #[test]
        fn skill_and_subagent_parses_never_panic(
            text in "(---|----|\u{FEFF}|name: |description: |yes|a---b|\n|\r\n|\r| |\t|x|字|😀|- |: |\\[|\\]|\"){0,40}"
        ) {
            let doc = skill(&text);
            let sub = crate::workspace::subagent::parse(
                PathBuf::from("/w/subagents/a.md"),
                Location { tree: Tree::Shared, rel: "subagents/a.md".into() },
                &FileContent::Text(Arc::from(text.as_str())),
            );
            for d in doc.diagnostics.iter().chain(&sub.diagnostics) {
                proptest::prop_assert!(d.range.start <= d.range.end && d.range.end <= text.len());
                proptest::prop_assert!(text.is_char_boundary(d.range.start) && text.is_char_boundary(d.range.end));
                for fix in &d.fixes {
                    for edit in &fix.edits {
                        proptest::prop_assert!(edit.range.end <= text.len());
                    }
                }
            }
        }
    }

    #[test]
    fn unreadable_content_has_no_diagnostics() {
        let doc = parse(
            PathBuf::from("/w/skills/a/SKILL.md"),
            Location {
                tree: Tree::Shared,
                rel: "skills/a/SKILL.md".into(),
            },
            &FileContent::NotUtf8 {
                valid_up_to: 0,
                binary: true,
            },
        );
        assert_eq!(doc.outcome, Err(SkillDrop::Unreadable));
        assert!(doc.diagnostics.is_empty());
    }
}
