//! The path normalizer's input parser: one path as a model wrote it.

use agentws::paths::input::{clean, has_dotdot_segment, Shape, MAX_PATH_BYTES};

fn main() {
    afl::fuzz!(|data: &[u8]| {
        let Ok(input) = std::str::from_utf8(data) else {
            return;
        };
        let Ok(path) = clean(input) else {
            return;
        };
        let text = &path.text;
        assert!(
            text.len() <= MAX_PATH_BYTES,
            "clean path longer than the limit"
        );
        assert!(!has_dotdot_segment(text), "`..` survived: {text:?}");
        assert!(!text.contains('\\'), "backslash survived: {text:?}");
        assert!(!text.contains("//"), "empty segment survived: {text:?}");
        match path.shape {
            Shape::Relative => assert!(!text.starts_with('/'), "{text:?}"),
            Shape::Posix => assert!(text.starts_with('/'), "{text:?}"),
            Shape::Windows => assert!(text.as_bytes().get(1..3) == Some(b":/"), "{text:?}"),
        }
        // Cleaning the output again gives it back. A relative output is given back behind `./`:
        // alone, a first name like `file:` would read as a URI (`./file:///x` is the relative
        // `file:/x`); and a blank name such as the ` ` of ` /` is a name, but alone it is
        // refused as a blank input.
        let again = match path.shape {
            Shape::Relative if text.is_empty() => return,
            Shape::Relative => clean(&format!("./{text}")),
            Shape::Posix | Shape::Windows => clean(text),
        };
        let again = again.unwrap_or_else(|e| panic!("{text:?} refused: {e:?}"));
        assert_eq!(&again.text, text);
        assert_eq!(again.shape, path.shape);
    });
}
