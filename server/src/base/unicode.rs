//! Unicode facts about names that messages show side by side. Two names can differ only in
//! Unicode normalization (`é` as the one code point U+00E9 or as `e` + U+0301): they print
//! identically, yet every comparison the runtime makes (Java `String.equals`, file names on
//! Linux) tells them apart. Pure text; depends on nothing else in the crate.

use unicode_normalization::{is_nfc, is_nfd, UnicodeNormalization};

/// At most this many code points are listed per name (names are short; a folder name is not
/// bounded).
const MAX_SHOWN: usize = 40;

/// When `a` and `b` differ but are equal once both are in normalization form C, a clause saying
/// so with the code points of each (`; they differ only in Unicode normalization: `café` is
/// U+0063 U+0061 U+0066 U+00E9 (NFC), `café` is U+0063 U+0061 U+0066 U+0065 U+0301 (NFD)`).
/// `None` when they are equal or differ in more than normalization.
pub fn normalization_note(a: &str, b: &str) -> Option<String> {
    if a == b || !a.nfc().eq(b.nfc()) {
        return None;
    }
    Some(format!(
        "; they differ only in Unicode normalization: `{a}` is {}, `{b}` is {}",
        code_points(a),
        code_points(b)
    ))
}

/// `U+0063 U+0061 U+0066 U+00E9 (NFC)`: the code points, then the normalization form when the
/// text is in exactly one of NFC and NFD.
fn code_points(text: &str) -> String {
    let mut out: Vec<String> = text
        .chars()
        .take(MAX_SHOWN)
        .map(|c| format!("U+{:04X}", c as u32))
        .collect();
    if text.chars().count() > MAX_SHOWN {
        out.push("…".into());
    }
    let form = match (is_nfc(text), is_nfd(text)) {
        (true, false) => " (NFC)",
        (false, true) => " (NFD)",
        _ => "",
    };
    format!("{}{form}", out.join(" "))
}

#[cfg(test)]
mod tests {
    use super::normalization_note;

    #[test]
    fn composed_and_decomposed_names_are_told_apart() {
        assert_eq!(
            normalization_note("caf\u{e9}", "cafe\u{301}").as_deref(),
            Some("; they differ only in Unicode normalization: `caf\u{e9}` is U+0063 U+0061 U+0066 U+00E9 (NFC), `cafe\u{301}` is U+0063 U+0061 U+0066 U+0065 U+0301 (NFD)")
        );
    }

    #[test]
    fn other_differences_get_no_note() {
        assert_eq!(normalization_note("cafe", "cafe"), None);
        assert_eq!(normalization_note("caf\u{e9}", "cafe"), None);
        assert_eq!(normalization_note("pdf", "pdf-tools"), None);
        // Compatibility forms (NFKC) are different text for the runtime and for NFC alike.
        assert_eq!(normalization_note("\u{fb01}le", "file"), None);
    }

    #[test]
    fn long_names_are_cut() {
        let a = format!("{}\u{e9}", "a".repeat(60));
        let b = format!("{}e\u{301}", "a".repeat(60));
        let note = normalization_note(&a, &b).unwrap();
        assert!(note.contains("U+0061 … (NFC)"), "{note}");
    }
}
