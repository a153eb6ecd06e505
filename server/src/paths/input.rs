//! Turning one file-tool path as the model wrote it (relative, POSIX absolute, Windows absolute,
//! backslashes, `file://` URI) into one clean, `/`-separated form, or refusing it as `traversal`
//! or `invalid`. Knows nothing about roots, runs or the disk; depends only on `base::percent`,
//! `syntax::java` and the refusal type of `paths::refusal`.

use super::refusal::{Refusal, RefusalCode};

/// Longest accepted input and longest clean path, in bytes (Linux `PATH_MAX`).
pub const MAX_PATH_BYTES: usize = 4096;
/// Longest accepted single name, in bytes (Linux `NAME_MAX`).
pub const MAX_NAME_BYTES: usize = 255;

/// What kind of path the input named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Relative to the run's root; the clean text has no leading `/` and is empty for the root.
    Relative,
    /// `/…`; the clean text is `/` for the filesystem root.
    Posix,
    /// `X:/…` with an upper-case drive letter; the clean text is `X:/` for the drive root.
    Windows,
}

/// An input after the syntactic rules: separators unified, `.` and empty segments and a trailing
/// slash dropped, URI decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CleanPath {
    pub shape: Shape,
    pub text: String,
}

/// Applies every syntactic rule of docs/paths.md §Input forms, `..` first.
pub fn clean(input: &str) -> Result<CleanPath, Refusal> {
    if has_dotdot_segment(input) {
        return Err(traversal(input));
    }
    if input.is_empty() {
        return Err(invalid(input, "is empty"));
    }
    if input.len() > MAX_PATH_BYTES {
        return Err(invalid(
            input,
            "is longer than 4096 bytes, the longest path a file tool may name",
        ));
    }
    if starts_with_ignore_case(input, "file:") {
        let decoded = decode_file_uri(input)?;
        if has_dotdot_segment(&decoded) {
            return Err(traversal(input));
        }
        return clean_text(input, &decoded, true);
    }
    if has_other_scheme(input) {
        return Err(invalid(
            input,
            "is a URI of a scheme other than `file`, which names no file of this machine",
        ));
    }
    clean_text(input, input, false)
}

fn clean_text(input: &str, text: &str, from_uri: bool) -> Result<CleanPath, Refusal> {
    if crate::syntax::java::is_blank(text) {
        return Err(invalid(input, "is blank"));
    }
    if text.chars().any(char::is_control) {
        return Err(invalid(
            input,
            "contains a NUL or control character, which no file name can hold safely",
        ));
    }
    if text.starts_with('~') {
        return Err(invalid(
            input,
            "starts with `~`; home-folder expansion is a shell feature, file tools would create a folder named `~`",
        ));
    }
    if text.starts_with("\\\\") {
        return Err(invalid(
            input,
            "is a UNC path (`\\\\server\\share`), which names a network share, not a file of this run",
        ));
    }
    let bytes = text.as_bytes();
    let (shape, rest, mut out) = if bytes.len() >= 2
        && bytes[0].is_ascii_alphabetic()
        && bytes[1] == b':'
    {
        if bytes.len() == 2 || !is_separator(bytes[2]) {
            return Err(invalid(
                    input,
                    "is a drive-relative Windows path (`C:file`), whose folder depends on the current folder of that drive",
                ));
        }
        let mut out = String::with_capacity(text.len());
        out.push(bytes[0].to_ascii_uppercase() as char);
        out.push_str(":/");
        (Shape::Windows, &text[3..], out)
    } else if is_separator(bytes[0]) {
        let mut out = String::with_capacity(text.len());
        out.push('/');
        (Shape::Posix, &text[1..], out)
    } else if from_uri {
        return Err(invalid(input, "is a file URI without an absolute path"));
    } else {
        (Shape::Relative, text, String::with_capacity(text.len()))
    };
    let prefix_len = out.len();
    for segment in rest.split(['/', '\\']) {
        if segment.is_empty() || segment == "." {
            continue;
        }
        if segment.len() > MAX_NAME_BYTES {
            return Err(invalid(
                input,
                "has a name longer than 255 bytes, the longest file name a filesystem holds",
            ));
        }
        if out.len() > prefix_len {
            out.push('/');
        }
        out.push_str(segment);
    }
    Ok(CleanPath { shape, text: out })
}

fn is_separator(b: u8) -> bool {
    b == b'/' || b == b'\\'
}

/// Any `..` segment, with either separator (`some..dir` is an ordinary name).
pub fn has_dotdot_segment(text: &str) -> bool {
    text.split(['/', '\\']).any(|s| s == "..")
}

fn starts_with_ignore_case(text: &str, prefix: &str) -> bool {
    text.len() >= prefix.len()
        && text.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
}

/// `scheme://` with a scheme of two or more letters (one letter is a Windows drive).
fn has_other_scheme(text: &str) -> bool {
    let Some(colon) = text.find("://") else {
        return false;
    };
    let scheme = &text.as_bytes()[..colon];
    scheme.len() >= 2
        && scheme[0].is_ascii_alphabetic()
        && scheme
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
}

/// `file://[localhost]/path` → the percent-decoded path (`/C:/x` becomes `C:/x`).
fn decode_file_uri(input: &str) -> Result<String, Refusal> {
    let Some(after) = input.get(5..).and_then(|rest| rest.strip_prefix("//")) else {
        return Err(invalid(
            input,
            "is a `file:` URI without `//`; write `file:///absolute/path`",
        ));
    };
    let slash = after.find('/').unwrap_or(after.len());
    let host = &after[..slash];
    let encoded_path = &after[slash..];
    if !host.is_empty() && !host.eq_ignore_ascii_case("localhost") {
        return Err(invalid(
            input,
            "names another host; only `file:///…` and `file://localhost/…` are files of this machine",
        ));
    }
    if encoded_path.is_empty() {
        return Err(invalid(input, "is a file URI without a path"));
    }
    if encoded_path.contains(['?', '#']) {
        return Err(invalid(
            input,
            "has a query or fragment; a file URI names a file only (encode `?` and `#` as %3F and %23)",
        ));
    }
    let bytes = crate::base::percent::decode(encoded_path).map_err(|_| {
        invalid(
            input,
            "has a malformed percent escape (`%` must be followed by two hex digits)",
        )
    })?;
    let Ok(mut path) = String::from_utf8(bytes) else {
        return Err(invalid(
            input,
            "decodes to bytes that are not UTF-8; names are compared byte for byte as UTF-8",
        ));
    };
    if path.starts_with("//") || path.starts_with("/\\") {
        return Err(invalid(
            input,
            "is a UNC file URI (`file:////server/share`), which names a network share",
        ));
    }
    let p = path.as_bytes();
    if p.len() >= 3 && p[0] == b'/' && p[1].is_ascii_alphabetic() && p[2] == b':' {
        path.remove(0);
    }
    Ok(path)
}

fn traversal(input: &str) -> Refusal {
    Refusal::new(
        RefusalCode::Traversal,
        format!(
            "`{}` has a `..` segment; file-tool paths name files directly, never by climbing out of a folder",
            shorten(input).escape_debug()
        ),
    )
}

fn invalid(input: &str, why: &str) -> Refusal {
    Refusal::new(
        RefusalCode::Invalid,
        format!("`{}` {why}", shorten(input).escape_debug()),
    )
}

/// Messages quote at most the first 200 bytes of an input, so an overlong input cannot make an
/// answer grow without bound.
fn shorten(input: &str) -> &str {
    if input.len() <= 200 {
        return input;
    }
    let mut end = 200;
    while !input.is_char_boundary(end) {
        end -= 1;
    }
    &input[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(input: &str) -> (Shape, String) {
        let c = clean(input).unwrap_or_else(|e| panic!("{input}: {e:?}"));
        (c.shape, c.text)
    }

    fn code(input: &str) -> RefusalCode {
        clean(input).unwrap_err().code
    }

    /// Found by the fuzz target (fuzz/src/bin/paths.rs): a blank input is refused, but a blank
    /// name inside a longer input is a name like any other (Java's `isBlank` looks at the whole
    /// input), so `" /"` is the folder `" "` while `" "` alone is refused.
    #[test]
    fn a_blank_name_is_only_refused_as_the_whole_input() {
        assert_eq!(ok(" /"), (Shape::Relative, " ".to_string()));
        assert_eq!(ok("  //"), (Shape::Relative, "  ".to_string()));
        assert_eq!(code(" "), RefusalCode::Invalid);
    }

    /// Found by the fuzz target: behind `./`, a first name that looks like a scheme (or starts
    /// with `~`) is a name, so the clean text is relative even though, written alone, it would be
    /// refused.
    #[test]
    fn a_scheme_like_first_name_behind_dot_slash_is_relative() {
        assert_eq!(
            ok("./file:///tmp/ws/skill"),
            (Shape::Relative, "file:/tmp/ws/skill".to_string())
        );
        assert_eq!(code("file:/tmp/ws/skill"), RefusalCode::Invalid);
        // The same for a leading `~`, refused only at the very start of the input.
        assert_eq!(ok("./~///"), (Shape::Relative, "~".to_string()));
        assert_eq!(code("~"), RefusalCode::Invalid);
        // And for a first name that looks like a drive.
        assert_eq!(
            ok(".//f:///tmp/x"),
            (Shape::Relative, "f:/tmp/x".to_string())
        );
        assert_eq!(ok("f:/tmp/x"), (Shape::Windows, "F:/tmp/x".to_string()));
    }

    #[test]
    fn shapes_and_clean_text() {
        assert_eq!(ok("a//b/./c/"), (Shape::Relative, "a/b/c".into()));
        assert_eq!(ok("./"), (Shape::Relative, "".into()));
        assert_eq!(ok("//srv/ws"), (Shape::Posix, "/srv/ws".into()));
        assert_eq!(ok("\\srv\\ws\\"), (Shape::Posix, "/srv/ws".into()));
        assert_eq!(ok("c:\\Users\\x"), (Shape::Windows, "C:/Users/x".into()));
        assert_eq!(ok("file:///c%3A/x"), (Shape::Windows, "C:/x".into()));
        assert_eq!(ok("file://LOCALHOST/a%20b"), (Shape::Posix, "/a b".into()));
        assert_eq!(ok("50%"), (Shape::Relative, "50%".into()));
    }

    #[test]
    fn refusals() {
        assert_eq!(code("a/../b"), RefusalCode::Traversal);
        assert_eq!(code("file:///a/%2e%2E/b"), RefusalCode::Traversal);
        assert_eq!(code("..\\x\u{0}"), RefusalCode::Traversal);
        for bad in [
            "",
            "  ",
            "~/x",
            "a\u{7}b",
            "\\\\srv\\share",
            "file://host/x",
            "file:////srv/share",
            "file:///a%zz",
            "file:///a%4",
            "file:/x",
            "file:///%ff",
            "file:///a?b",
            "C:x",
            "https://x/y",
        ] {
            assert_eq!(code(bad), RefusalCode::Invalid, "{bad:?}");
        }
        assert_eq!(code(&"a".repeat(256)), RefusalCode::Invalid);
        assert_eq!(code(&"a/".repeat(2100)), RefusalCode::Invalid);
    }
}
