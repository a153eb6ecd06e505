//! The runtime's frontmatter split, reproduced exactly and with byte ranges, plus the traps that
//! make the runtime see no frontmatter (or a different one) than the author meant.
//!
//! Skills (`MarkdownSkillParser`, harness-spec §2.3) match the whole file against
//! `^---\s*[\r\n]+(.*?)[\r\n]*---(?:\s*[\r\n]+)?(.*)` (DOTALL, Java `\s` = `[ \t\n\x0B\f\r]`).
//! Subagents (`AgentSpecLoader`, §3.2) use `startsWith("---")` and `indexOf("---", 3)`.
//! Both close the block at the FIRST `---` anywhere, which is the main trap.
//!
//! Pure text functions: no YAML, no workspace, no rules.

use crate::base::TextRange;
use crate::syntax::java;

/// The 1-based line of a file's frontmatter closing `---` as the subagent split finds it (the
/// first `---` after offset 3), or the file's last line when there is none: the lines the prompt
/// preview names as a skill's or subagent's source.
pub fn closing_line(text: &str) -> usize {
    text.get(3..)
        .and_then(|rest| rest.find("---"))
        .map(|i| text[..i + 3].matches('\n').count() + 1)
        .unwrap_or_else(|| java::lines(text).len().max(1))
}

/// Java regex `\s` (not Unicode whitespace).
fn is_regex_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r')
}

fn is_line_break(b: u8) -> bool {
    matches!(b, b'\n' | b'\r')
}

/// The skill split, as the regex groups fall.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SkillSplit {
    /// The opening `---` and what the regex consumes after it up to group 1 (whitespace and the
    /// line break).
    pub opening: TextRange,
    /// Group 1 as matched (before the runtime trims it).
    pub yaml_raw: TextRange,
    /// Group 1 after Java `trim()`: the text SnakeYAML reads.
    pub yaml: TextRange,
    /// The closing `---` (the first one after the opening line, wherever it is).
    pub closing: TextRange,
    /// Group 2: the body as the runtime holds it.
    pub body: TextRange,
}

/// `MarkdownSkillParser`'s regex. `None` = no frontmatter for the runtime.
pub fn split_skill(text: &str) -> Option<SkillSplit> {
    let bytes = text.as_bytes();
    if !text.starts_with("---") {
        return None;
    }
    // `\s*[\r\n]+` backtracks to the LAST line break of the whitespace run after the opener.
    let run_end = 3 + bytes[3..]
        .iter()
        .take_while(|b| is_regex_space(**b))
        .count();
    let last_break = (3..run_end).rev().find(|&i| is_line_break(bytes[i]))?;
    let yaml_start = last_break + 1;
    // Lazy group 1 stops at the first `---`, minus the line breaks directly before it.
    let close = find(bytes, b"---", yaml_start)?;
    let mut yaml_end = close;
    while yaml_end > yaml_start && is_line_break(bytes[yaml_end - 1]) {
        yaml_end -= 1;
    }
    // `(?:\s*[\r\n]+)?` is greedy: taken when the whitespace after `---` contains a line break.
    let after = close + 3;
    let run_end = after
        + bytes[after..]
            .iter()
            .take_while(|b| is_regex_space(**b))
            .count();
    let body_start = (after..run_end)
        .rev()
        .find(|&i| is_line_break(bytes[i]))
        .map_or(after, |i| i + 1);
    let raw = TextRange::new(yaml_start, yaml_end);
    Some(SkillSplit {
        opening: TextRange::new(0, yaml_start),
        yaml_raw: raw,
        yaml: java_trimmed(text, raw),
        closing: TextRange::new(close, after),
        body: TextRange::new(body_start, text.len()),
    })
}

/// The subagent split (`AgentSpecLoader.parse`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubagentSplit {
    /// `[0, 3)`.
    pub opening: TextRange,
    /// `[3, endIdx)` trimmed.
    pub yaml: TextRange,
    /// `[endIdx, endIdx + 3)`.
    pub closing: TextRange,
    /// After `endIdx + 3`, trimmed.
    pub body: TextRange,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SubagentSplitError {
    /// Blank, or not starting with `---`: the runtime returns null silently.
    NoFrontmatter,
    /// No `---` after offset 3: WARN "front matter not closed".
    NotClosed,
}

pub fn split_subagent(text: &str) -> Result<SubagentSplit, SubagentSplitError> {
    if java::is_blank(text) || !text.starts_with("---") {
        return Err(SubagentSplitError::NoFrontmatter);
    }
    let close = find(text.as_bytes(), b"---", 3).ok_or(SubagentSplitError::NotClosed)?;
    Ok(SubagentSplit {
        opening: TextRange::new(0, 3),
        yaml: java_trimmed(text, TextRange::new(3, close)),
        closing: TextRange::new(close, close + 3),
        body: java_trimmed(text, TextRange::new(close + 3, text.len())),
    })
}

/// Why a file has no frontmatter for the runtime although it looks like it meant to have one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningTrap {
    /// Starts with U+FEFF; `range` is the BOM's 3 bytes.
    Bom { range: TextRange },
    /// Whitespace before the opening `---`; `range` covers it.
    LeadingWhitespace { range: TextRange },
    /// The opening line is `----` (or longer); `range` covers the dashes.
    LongOpener { range: TextRange },
    /// `---` followed by text on the same line (`---name: x`); `range` covers that line.
    OpenerNotAlone { range: TextRange },
}

/// Looks for the traps at the start of a file. `None` when the file starts with a clean `---`
/// line or shows no sign of frontmatter at all.
pub fn opening_trap(text: &str) -> Option<OpeningTrap> {
    if let Some(rest) = text.strip_prefix('\u{FEFF}') {
        if rest.trim_start().starts_with("---") {
            return Some(OpeningTrap::Bom {
                range: TextRange::new(0, 3),
            });
        }
        return None;
    }
    let lead = text.len()
        - text
            .trim_start_matches(|c: char| c.is_ascii_whitespace())
            .len();
    if lead > 0 && text[lead..].starts_with("---") {
        return Some(OpeningTrap::LeadingWhitespace {
            range: TextRange::new(0, lead),
        });
    }
    if !text.starts_with("---") {
        return None;
    }
    let dashes = text.bytes().take_while(|b| *b == b'-').count();
    let line_end = text.find(['\n', '\r']).unwrap_or(text.len());
    if dashes > 3 && text[dashes..line_end].bytes().all(is_regex_space) {
        return Some(OpeningTrap::LongOpener {
            range: TextRange::new(0, dashes),
        });
    }
    if !text[3..line_end].bytes().all(is_regex_space) {
        return Some(OpeningTrap::OpenerNotAlone {
            range: TextRange::new(0, line_end),
        });
    }
    None
}

/// A closing `---` the author probably did not mean: not alone on its line (`a---b`,
/// `--- text`, `-----`). Returns its range when so.
pub fn unexpected_closing(text: &str, closing: TextRange) -> Option<TextRange> {
    (!is_clean_closing(text.as_bytes(), closing)).then_some(closing)
}

/// `---` at a line start followed by nothing but spaces up to the line end. The line-start test
/// comes first: it is O(1), and only the one candidate per line that passes it scans the line,
/// which keeps [`intended_closing`] linear on a long run of dashes.
fn is_clean_closing(bytes: &[u8], closing: TextRange) -> bool {
    let at_line_start = closing.start == 0 || is_line_break(bytes[closing.start - 1]);
    at_line_start
        && bytes[closing.end..]
            .iter()
            .take_while(|b| !is_line_break(**b))
            .all(|b| is_regex_space(*b))
}

/// The first clean `---` line at or after `from` (a line holding only `---` and spaces), i.e.
/// where the author meant the block to end.
pub fn intended_closing(text: &str, from: usize) -> Option<TextRange> {
    let bytes = text.as_bytes();
    let mut at = from;
    while let Some(i) = find(bytes, b"---", at) {
        let closing = TextRange::new(i, i + 3);
        if is_clean_closing(bytes, closing) {
            return Some(closing);
        }
        at = i + 1;
    }
    None
}

/// `range` narrowed to what `String.trim()` keeps of it.
fn java_trimmed(text: &str, range: TextRange) -> TextRange {
    let kept = super::java::trim_bounds(&text[range.start..range.end]);
    TextRange::new(range.start + kept.start, range.start + kept.end)
}

fn find(haystack: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    if from > haystack.len() {
        return None;
    }
    haystack[from..]
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|i| i + from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn parts(text: &str) -> Option<(&str, &str)> {
        split_skill(text).map(|s| (&text[s.yaml.start..s.yaml.end], &text[s.body.start..]))
    }

    #[test]
    fn skill_ranges_lf() {
        let text = "---\nname: a\n---\nBody\n";
        let s = split_skill(text).unwrap();
        assert_eq!(s.opening, TextRange::new(0, 4));
        assert_eq!(s.yaml_raw, TextRange::new(4, 11));
        assert_eq!(s.yaml, TextRange::new(4, 11));
        assert_eq!(s.closing, TextRange::new(12, 15));
        assert_eq!(s.body, TextRange::new(16, 21));
    }

    #[test]
    fn skill_line_endings_all_parse() {
        for text in [
            "---\r\nname: a\r\n---\r\nBody",
            "---\rname: a\r---\rBody",
            "---\r\nname: a\n---\rBody",
        ] {
            assert_eq!(parts(text), Some(("name: a", "Body")), "{text:?}");
        }
        let s = split_skill("---\r\nname: a\r\n---\r\nBody").unwrap();
        assert_eq!(s.opening, TextRange::new(0, 5));
        assert_eq!(s.yaml_raw, TextRange::new(5, 12));
        assert_eq!(s.closing, TextRange::new(14, 17));
        assert_eq!(s.body, TextRange::new(19, 23));
    }

    #[test]
    fn markdown_skill_parser_test_cases() {
        assert_eq!(parts("---\n---\n# Content"), Some(("", "# Content")));
        assert_eq!(parts("---\nname: test\n---"), Some(("name: test", "")));
        assert_eq!(
            parts("---  \n\nname: test\n\n---  \n\nContent"),
            Some(("name: test", "Content"))
        );
        assert_eq!(parts("# Title\n---\nname: a\n---\nx"), None);
        assert_eq!(
            parts("---\nname: a\n---\nbody\n---\nname: b\n---\nmore"),
            Some(("name: a", "body\n---\nname: b\n---\nmore"))
        );
    }

    #[test]
    fn first_dashes_close_the_block() {
        let text = "---\ndescription: a---b\nname: x\n---\nBody";
        let s = split_skill(text).unwrap();
        assert_eq!(&text[s.yaml.start..s.yaml.end], "description: a");
        assert_eq!(s.closing, TextRange::new(18, 21));
        assert_eq!(unexpected_closing(text, s.closing), Some(s.closing));
        assert_eq!(
            intended_closing(text, s.closing.start),
            Some(TextRange::new(31, 34))
        );
        assert_eq!(&text[s.body.start..], "b\nname: x\n---\nBody");
    }

    #[test]
    fn openers_that_are_not() {
        assert_eq!(split_skill("----\nname: a\n---\nx"), None);
        assert_eq!(split_skill("---name: a\n---\nx"), None);
        assert_eq!(split_skill("\u{FEFF}---\nname: a\n---\nx"), None);
        assert_eq!(split_skill("\n---\nname: a\n---\nx"), None);
        assert_eq!(split_skill("---\nname: a\n"), None);
        assert_eq!(
            opening_trap("\u{FEFF}---\nname: a\n---\nx"),
            Some(OpeningTrap::Bom {
                range: TextRange::new(0, 3)
            })
        );
        assert_eq!(
            opening_trap("\n\n---\nx"),
            Some(OpeningTrap::LeadingWhitespace {
                range: TextRange::new(0, 2)
            })
        );
        assert_eq!(
            opening_trap("----\nx"),
            Some(OpeningTrap::LongOpener {
                range: TextRange::new(0, 4)
            })
        );
        assert_eq!(
            opening_trap("---name: a\n"),
            Some(OpeningTrap::OpenerNotAlone {
                range: TextRange::new(0, 10)
            })
        );
        assert_eq!(opening_trap("---\nname: a"), None);
        assert_eq!(opening_trap("# hello"), None);
    }

    #[test]
    fn body_keeps_spaces_without_a_line_break() {
        assert_eq!(parts("---\nname: a\n---   "), Some(("name: a", "   ")));
        assert_eq!(
            parts("---\nname: a\n---\n  indented"),
            Some(("name: a", "  indented"))
        );
    }

    #[test]
    fn cjk_and_emoji_ranges() {
        let text = "---\nname: 技能\ndescription: 🌐 web\n---\n正文";
        let s = split_skill(text).unwrap();
        assert_eq!(s.yaml, TextRange::new(4, 38));
        assert_eq!(&text[s.body.start..], "正文");
    }

    #[test]
    fn subagent_split() {
        let text = "---\ndescription: d\n---\n\n  prompt  \n";
        let s = split_subagent(text).unwrap();
        assert_eq!(s.yaml, TextRange::new(4, 18));
        assert_eq!(s.closing, TextRange::new(19, 22));
        assert_eq!(&text[s.body.start..s.body.end], "prompt");
        assert_eq!(
            split_subagent("  \n"),
            Err(SubagentSplitError::NoFrontmatter)
        );
        assert_eq!(
            split_subagent(" ---\n"),
            Err(SubagentSplitError::NoFrontmatter)
        );
        assert_eq!(
            split_subagent("---\ndescription: d\n"),
            Err(SubagentSplitError::NotClosed)
        );
        // `----` opener: indexOf("---", 3) finds the real closing line, the `-` joins the YAML.
        let s = split_subagent("----\na: b\n---\n").unwrap();
        assert_eq!(s.yaml, TextRange::new(3, 9));
        // `---` then EOF right away: indexOf("---", 3) on "------" finds offset 3.
        let s = split_subagent("------").unwrap();
        assert_eq!(s.yaml, TextRange::empty(3));
        assert_eq!(s.body, TextRange::empty(6));
    }

    proptest! {
        #[test]
        fn split_never_panics_and_stays_in_bounds(text in "(---|-|\r|\n| |\t|a|é|😀|\u{FEFF}|:){0,40}") {
            if let Some(s) = split_skill(&text) {
                for r in [s.opening, s.yaml_raw, s.yaml, s.closing, s.body] {
                    prop_assert!(r.start <= r.end && r.end <= text.len());
                    prop_assert!(text.is_char_boundary(r.start) && text.is_char_boundary(r.end));
                }
                prop_assert!(s.yaml_raw.end <= s.closing.start && s.closing.end <= s.body.start);
                let _ = unexpected_closing(&text, s.closing);
            }
            if let Ok(s) = split_subagent(&text) {
                for r in [s.opening, s.yaml, s.closing, s.body] {
                    prop_assert!(r.start <= r.end && r.end <= text.len());
                    prop_assert!(text.is_char_boundary(r.start) && text.is_char_boundary(r.end));
                }
            }
            let _ = opening_trap(&text);
            let _ = intended_closing(&text, 0);
        }

        #[test]
        fn split_arbitrary_strings(text in any::<String>()) {
            if let Some(s) = split_skill(&text) {
                prop_assert!(s.body.end == text.len() && s.yaml.end <= text.len());
            }
            let _ = split_subagent(&text);
            let _ = opening_trap(&text);
        }
    }
}
