//! Finding suppression comments (`agentws: ignore CODE, CODE -- reason`) where a file's syntax
//! has comments the runtime drops or that stay out of the rules' way: YAML comments in a
//! SKILL.md's or subagent spec's frontmatter, TOML comments in agentws.toml, HTML comments in
//! Markdown (a SKILL.md's body, AGENTS.md, MEMORY.md, knowledge and additional context files).
//! tools.json has none: the runtime reads it with a plain Jackson `ObjectMapper`, for which a
//! comment is a syntax error that drops the whole file.
//!
//! Pure text: which lines a comment stands on and what it says. Depends on `base` and `syntax`.

use crate::base::TextRange;

/// The word after `agentws:` that makes a comment a suppression.
const MARKER: &str = "agentws:";

/// What a suppression comment covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Diagnostics starting on this 0-based line.
    Line(usize),
    /// Every diagnostic of the file.
    File,
}

/// One code named by a suppression comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedCode {
    pub code: String,
    /// The code's place in the text.
    pub range: TextRange,
    /// What a fix removes to take this code alone out of the comment (the code and one comma
    /// beside it).
    pub removal: TextRange,
}

/// A comment that reads `agentws: …`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    /// The whole comment (`# …` to the end of the line, `<!-- … -->`).
    pub range: TextRange,
    /// What a fix removes to take the whole comment out: its line when it stands alone there,
    /// else the comment and the blanks before it.
    pub removal: TextRange,
    pub directive: Directive,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Directive {
    Ignore {
        reach: Reach,
        codes: Vec<NamedCode>,
        /// The text after `--`, trimmed; empty when there is none.
        reason: String,
    },
    /// `agentws:` followed by something else (a misspelt `ignore`): the range of that word.
    Unknown { word: TextRange },
}

/// Which comment syntax a file has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// `#` comments of YAML lines (a frontmatter).
    Yaml,
    /// `#` comments of TOML lines.
    Toml,
    /// `<!-- … -->`.
    Html,
}

/// The suppression comments of `range` of `text`, written in `syntax`.
pub fn find(text: &str, range: TextRange, syntax: Syntax) -> Vec<Comment> {
    if !text[range.start..range.end].contains(MARKER) {
        return Vec::new();
    }
    match syntax {
        Syntax::Yaml | Syntax::Toml => line_comments(text, range, syntax),
        Syntax::Html => html_comments(text, range),
    }
}

/// The lines of `range`: (start, end without the line break) each.
fn lines(text: &str, range: TextRange) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut at = range.start;
    std::iter::from_fn(move || {
        if at >= range.end {
            return None;
        }
        let end = text[at..range.end].find('\n').map_or(range.end, |i| at + i);
        let line = (at, end);
        at = end + 1;
        Some(line)
    })
}

fn line_comments(text: &str, range: TextRange, syntax: Syntax) -> Vec<Comment> {
    let mut out = Vec::new();
    let mut scanner = LineScanner::new(syntax);
    let all: Vec<(usize, usize)> = lines(text, range).collect();
    for (index, &(start, end)) in all.iter().enumerate() {
        let line = text[start..end].trim_end_matches('\r');
        let Some(hash) = scanner.comment_start(line) else {
            continue;
        };
        let comment = TextRange::new(start + hash, start + line.len());
        let body = &line[hash + 1..];
        let alone = line[..hash].trim().is_empty();
        let Some(directive) = directive(body, start + hash + 1) else {
            continue;
        };
        let target = if alone {
            next_content_line(&all, index, |l| {
                let l = text[l.0..l.1].trim();
                l.is_empty() || l.starts_with('#')
            })
        } else {
            Some(index)
        };
        out.push(comment_of(
            text,
            comment,
            alone,
            (start, end),
            directive,
            target,
            &all,
        ));
    }
    out
}

fn html_comments(text: &str, range: TextRange) -> Vec<Comment> {
    let mut out = Vec::new();
    let all: Vec<(usize, usize)> = lines(text, range).collect();
    let mut fence: Option<&str> = None;
    for (index, &(start, end)) in all.iter().enumerate() {
        let line = text[start..end].trim_end_matches('\r');
        let trimmed = line.trim_start();
        // Fenced code shows comments as text: an example of a suppression is not one.
        if let Some(open) = fence {
            if trimmed.starts_with(open) {
                fence = None;
            }
            continue;
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = Some(&trimmed[..3]);
            continue;
        }
        let mut from = 0;
        while let Some(open) = line[from..].find("<!--").map(|i| from + i) {
            let Some(close) = line[open + 4..].find("-->").map(|i| open + 4 + i) else {
                break;
            };
            from = close + 3;
            let inner = &line[open + 4..close];
            let Some(directive) = directive(inner, start + open + 4) else {
                continue;
            };
            let alone = line[..open].trim().is_empty() && line[close + 3..].trim().is_empty();
            let target = if alone {
                next_content_line(&all, index, |l| {
                    let l = text[l.0..l.1].trim();
                    l.is_empty() || (l.starts_with("<!--") && l.ends_with("-->"))
                })
            } else {
                Some(index)
            };
            let comment = TextRange::new(start + open, start + close + 3);
            out.push(comment_of(
                text,
                comment,
                alone,
                (start, end),
                directive,
                target,
                &all,
            ));
        }
    }
    out
}

/// The comment at `comment`, on the line `line` (start and end of its text).
fn comment_of(
    text: &str,
    comment: TextRange,
    alone: bool,
    line: (usize, usize),
    directive: (Directive, bool),
    target: Option<usize>,
    all: &[(usize, usize)],
) -> Comment {
    let (mut directive, file_wide) = directive;
    if let Directive::Ignore { reach, .. } = &mut directive {
        *reach = match (file_wide, target) {
            (true, _) => Reach::File,
            (false, Some(index)) => Reach::Line(line_number(text, all[index].0)),
            // Nothing follows: it covers its own line, where no diagnostic can stand.
            (false, None) => Reach::Line(line_number(text, line.0)),
        };
    }
    let removal = if alone {
        let end = text[line.1..]
            .find('\n')
            .map_or(text.len(), |i| line.1 + i + 1);
        TextRange::new(line.0, end)
    } else {
        let before = text[line.0..comment.start].trim_end().len();
        TextRange::new(line.0 + before, comment.end)
    };
    Comment {
        range: comment,
        removal,
        directive,
    }
}

/// The 0-based line number of `offset`.
fn line_number(text: &str, offset: usize) -> usize {
    memchr_count(&text.as_bytes()[..offset])
}

fn memchr_count(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count()
}

/// The index of the first line after `index` that `skip` does not pass over.
fn next_content_line(
    all: &[(usize, usize)],
    index: usize,
    skip: impl Fn(&(usize, usize)) -> bool,
) -> Option<usize> {
    (index + 1..all.len()).find(|&i| !skip(&all[i]))
}

/// The directive of a comment's text `body` (after `#` or inside `<!-- -->`), which starts at
/// `offset`; `None` when it is not an `agentws:` comment. The flag: `ignore-file`.
fn directive(body: &str, offset: usize) -> Option<(Directive, bool)> {
    let lead = body.len() - body.trim_start().len();
    let rest = body[lead..].strip_prefix(MARKER)?;
    let mut at = lead + MARKER.len();
    let word_start = at + (rest.len() - rest.trim_start().len());
    let word_len = body[word_start..]
        .find(|c: char| c.is_whitespace())
        .unwrap_or(body.len() - word_start);
    let word = &body[word_start..word_start + word_len];
    let file_wide = match word {
        "ignore" => false,
        "ignore-file" => true,
        _ => {
            let range = TextRange::new(offset + word_start, offset + word_start + word_len);
            return Some((Directive::Unknown { word: range }, false));
        }
    };
    at = word_start + word_len;
    let (list, reason) = match body[at..].find("--") {
        Some(dash) => (&body[at..at + dash], body[at + dash + 2..].trim()),
        None => (&body[at..], ""),
    };
    // Each code's range in `body`, in order.
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    let mut from = at;
    for piece in list.split(',') {
        let trimmed = piece.trim();
        if !trimmed.is_empty() {
            let start = from + (piece.len() - piece.trim_start().len());
            ranges.push((start, start + trimmed.len()));
        }
        from += piece.len() + 1;
    }
    let codes = ranges
        .iter()
        .enumerate()
        .map(|(i, &(start, end))| {
            // Up to the next code (its comma and blanks with it), or, for the last one, from the
            // end of the previous code: what is left reads as if it had never been there.
            let removal = match (ranges.get(i + 1), i.checked_sub(1).map(|p| ranges[p])) {
                (Some(&(next, _)), _) => (start, next),
                (None, Some((_, previous_end))) => (previous_end, end),
                (None, None) => (start, end),
            };
            NamedCode {
                code: body[start..end].to_string(),
                range: TextRange::new(offset + start, offset + end),
                removal: TextRange::new(offset + removal.0, offset + removal.1),
            }
        })
        .collect();
    Some((
        Directive::Ignore {
            reach: Reach::File,
            codes,
            reason: reason.trim_end_matches("-->").trim().to_string(),
        },
        file_wide,
    ))
}

/// Where `#` starts a comment on each line, through the quoted strings (and YAML block scalars)
/// that may hold a `#` that is text.
struct LineScanner {
    syntax: Syntax,
    /// An open quoted string that goes on to the next line, and its quote.
    open_quote: Option<&'static str>,
    /// Inside a YAML block scalar opened on a line of this indentation.
    block_indent: Option<usize>,
}

impl LineScanner {
    fn new(syntax: Syntax) -> Self {
        Self {
            syntax,
            open_quote: None,
            block_indent: None,
        }
    }

    /// The offset of the `#` starting a comment on `line`, if any.
    fn comment_start(&mut self, line: &str) -> Option<usize> {
        let indent = line.len() - line.trim_start().len();
        if let Some(block) = self.block_indent {
            if line.trim().is_empty() || indent > block {
                return None;
            }
            self.block_indent = None;
        }
        let bytes = line.as_bytes();
        let mut i = 0;
        // Whether a quote here would open a string: TOML strings open anywhere outside one; a
        // YAML quoted scalar only where a value starts (an apostrophe in `don't` is text).
        let mut value_start = true;
        while i < bytes.len() {
            if let Some(quote) = self.open_quote {
                match line[i..].find(quote) {
                    Some(close) => {
                        // A YAML `''` inside single quotes is an escaped quote; a `\"` too.
                        let end = i + close;
                        let escaped = (quote == "\"" && end > 0 && bytes[end - 1] == b'\\')
                            || (quote == "'"
                                && self.syntax == Syntax::Yaml
                                && bytes.get(end + 1) == Some(&b'\''));
                        if escaped {
                            i = end + if quote == "'" { 2 } else { 1 };
                            continue;
                        }
                        i = end + quote.len();
                        self.open_quote = None;
                        value_start = false;
                        continue;
                    }
                    None => return None,
                }
            }
            let c = bytes[i];
            match c {
                b'#' if i == 0 || bytes[i - 1] == b' ' || bytes[i - 1] == b'\t' => return Some(i),
                b'"' | b'\'' if value_start || self.syntax == Syntax::Toml => {
                    let triple = self.syntax == Syntax::Toml && line[i..].len() >= 3 && {
                        let q = &line[i..i + 3];
                        q == "\"\"\"" || q == "'''"
                    };
                    self.open_quote = Some(match (c, triple) {
                        (b'"', true) => "\"\"\"",
                        (b'\'', true) => "'''",
                        (b'"', false) => "\"",
                        _ => "'",
                    });
                    i += if triple { 3 } else { 1 };
                    continue;
                }
                b' ' | b'\t' => {}
                // YAML's `:`, `-` and `?` are indicators only before a blank or the line's end.
                b':' | b'-' | b'?' => {
                    value_start = self.syntax == Syntax::Toml
                        || bytes.get(i + 1).is_none_or(|b| *b == b' ' || *b == b'\t')
                }
                b'[' | b'{' | b',' | b'=' => value_start = true,
                b'|' | b'>' if value_start && self.syntax == Syntax::Yaml => {
                    let rest = line[i + 1..].trim_start_matches([
                        '+', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9',
                    ]);
                    let rest = rest.trim_start();
                    if rest.is_empty() || rest.starts_with('#') {
                        self.block_indent = Some(indent);
                        return (!rest.is_empty()).then(|| line.len() - rest.len());
                    }
                    value_start = false;
                }
                _ => value_start = false,
            }
            i += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &str, syntax: Syntax) -> Vec<Comment> {
        find(text, TextRange::new(0, text.len()), syntax)
    }

    fn ignore(comment: &Comment) -> (Reach, Vec<&str>, &str) {
        match &comment.directive {
            Directive::Ignore {
                reach,
                codes,
                reason,
            } => (
                *reach,
                codes.iter().map(|c| c.code.as_str()).collect(),
                reason.as_str(),
            ),
            Directive::Unknown { .. } => panic!("not an ignore: {comment:?}"),
        }
    }

    #[test]
    fn yaml_comments_at_the_end_of_a_line_or_alone_above_it() {
        let text = "name: pdf\n\
                    created: 2024-01-01 # agentws: ignore SK023 -- meant as text\n\
                    # agentws: ignore SK014, SK013\n\
                    \n\
                    description: Look up: the forecast\n\
                    # agentws: ignore-file ST007\n";
        let found = all(text, Syntax::Yaml);
        assert_eq!(found.len(), 3);
        assert_eq!(
            ignore(&found[0]),
            (Reach::Line(1), vec!["SK023"], "meant as text")
        );
        assert_eq!(
            ignore(&found[1]),
            (Reach::Line(4), vec!["SK014", "SK013"], "")
        );
        assert_eq!(ignore(&found[2]), (Reach::File, vec!["ST007"], ""));
        // The end-of-line comment goes with the blank before it; the lone one with its line.
        assert_eq!(
            &text[found[0].removal.start..found[0].removal.end],
            " # agentws: ignore SK023 -- meant as text"
        );
        assert_eq!(
            &text[found[1].removal.start..found[1].removal.end],
            "# agentws: ignore SK014, SK013\n"
        );
        let Directive::Ignore { codes, .. } = &found[1].directive else {
            unreachable!()
        };
        assert_eq!(
            &text[codes[0].removal.start..codes[0].removal.end],
            "SK014, "
        );
        assert_eq!(
            &text[codes[1].removal.start..codes[1].removal.end],
            ", SK013"
        );
    }

    #[test]
    fn a_hash_inside_a_string_or_a_block_scalar_is_text() {
        let text = "description: \"not # agentws: ignore SK001\"\n\
                    title: 'it''s # agentws: ignore SK002'\n\
                    about: don't # agentws: ignore SK003\n\
                    body: |\n  # agentws: ignore SK004\n  more\n\
                    tag: a#b # agentws: ignore SK005\n";
        let found = all(text, Syntax::Yaml);
        let codes: Vec<Vec<&str>> = found.iter().map(|c| ignore(c).1).collect();
        assert_eq!(codes, vec![vec!["SK003"], vec!["SK005"]]);
        let toml =
            "url = \"redis://h/#x # agentws: ignore CF002\"\nkey = 1 # agentws: ignore CF002\n";
        let found = all(toml, Syntax::Toml);
        let codes: Vec<Vec<&str>> = found.iter().map(|c| ignore(c).1).collect();
        assert_eq!(codes, vec![vec!["CF002"]]);
    }

    #[test]
    fn html_comments_outside_fenced_code() {
        let text = "# Title\n\
                    <!-- agentws: ignore WS003 -- kept short -->\n\
                    Text.\n\
                    ```\n<!-- agentws: ignore WS001 -->\n```\n\
                    More <!-- agentws: ignore XR010 -->\n\
                    <!-- agentws: ignore-file XR010 -->\n\
                    <!-- agentws: ignroe XR010 -->\n";
        let found = all(text, Syntax::Html);
        assert_eq!(found.len(), 4);
        assert_eq!(
            ignore(&found[0]),
            (Reach::Line(2), vec!["WS003"], "kept short")
        );
        assert_eq!(ignore(&found[1]), (Reach::Line(6), vec!["XR010"], ""));
        assert_eq!(ignore(&found[2]), (Reach::File, vec!["XR010"], ""));
        let Directive::Unknown { word } = found[3].directive else {
            panic!("{:?}", found[3]);
        };
        assert_eq!(&text[word.start..word.end], "ignroe");
    }
}
