//! Percent-encoding (RFC 3986 §2.1) of URL components: the one decoder, with a strict and a
//! lenient reading of a `%` that is not followed by two hex digits, and the encoder of one
//! component or of a path. Pure text functions; depends on nothing.

/// A `%` not followed by two hex digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MalformedEscape;

/// The bytes `text` stands for, or an error at the first malformed escape.
pub fn decode(text: &str) -> Result<Vec<u8>, MalformedEscape> {
    let mut out = Vec::with_capacity(text.len());
    let mut rest = text.as_bytes();
    while let Some((&byte, tail)) = rest.split_first() {
        if byte == b'%' {
            let value = escaped_byte(tail).ok_or(MalformedEscape)?;
            out.push(value);
            rest = &tail[2..];
        } else {
            out.push(byte);
            rest = tail;
        }
    }
    Ok(out)
}

/// The bytes `text` stands for, a malformed escape kept as written (what a reader that only
/// wants to compare names does).
pub fn decode_lenient(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut rest = text.as_bytes();
    while let Some((&byte, tail)) = rest.split_first() {
        match escaped_byte(tail).filter(|_| byte == b'%') {
            Some(value) => {
                out.push(value);
                rest = &tail[2..];
            }
            None => {
                out.push(byte);
                rest = tail;
            }
        }
    }
    out
}

/// The lenient decoding as text, invalid UTF-8 replaced.
pub fn decode_lossy(text: &str) -> String {
    if !text.contains('%') {
        return text.to_string();
    }
    String::from_utf8_lossy(&decode_lenient(text)).into_owned()
}

/// `text` with every byte but the unreserved characters (`A-Z a-z 0-9 - . _ ~`) escaped: safe in
/// any component of a URL (user, password, query value).
pub fn encode_component(text: &str) -> String {
    encode(text, |_| false)
}

/// `path` with every byte but the unreserved characters and `/` escaped: a URI path whose
/// segments stay readable (the form VS Code's `Uri.toString` gives a path, too).
pub fn encode_path(path: &str) -> String {
    encode(path, |byte| byte == b'/')
}

/// `text` with every byte escaped but the unreserved characters and those `also_kept` accepts.
fn encode(text: &str, also_kept: impl Fn(u8) -> bool) -> String {
    let mut out = String::with_capacity(text.len());
    for &byte in text.as_bytes() {
        if byte.is_ascii_alphanumeric()
            || matches!(byte, b'-' | b'.' | b'_' | b'~')
            || also_kept(byte)
        {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// The byte of the two hex digits starting `bytes`.
fn escaped_byte(bytes: &[u8]) -> Option<u8> {
    let digit = |b: &u8| (*b as char).to_digit(16);
    let high = digit(bytes.first()?)?;
    let low = digit(bytes.get(1)?)?;
    Some((high * 16 + low) as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_keeps_its_slashes_and_escapes_the_rest() {
        assert_eq!(
            encode_path("agents/a b/skills:/x.md"),
            "agents/a%20b/skills%3A/x.md"
        );
        assert_eq!(encode_component("a/b"), "a%2Fb");
        assert_eq!(decode_lossy(&encode_path("ü/%:")), "ü/%:");
    }

    #[test]
    fn strict_decoding_refuses_what_lenient_decoding_keeps() {
        assert_eq!(decode("a%20b%2f").unwrap(), b"a b/");
        assert_eq!(decode("100%"), Err(MalformedEscape));
        assert_eq!(decode("%+1"), Err(MalformedEscape));
        assert_eq!(decode_lenient("100% %zz %41"), b"100% %zz A");
        assert_eq!(decode_lossy("%FF%41"), "\u{FFFD}A");
    }

    #[test]
    fn a_component_round_trips_through_encoding() {
        let password = "p#/?@%: w0rd~é";
        let encoded = encode_component(password);
        assert_eq!(encoded, "p%23%2F%3F%40%25%3A%20w0rd~%C3%A9");
        assert_eq!(decode(&encoded).unwrap(), password.as_bytes());
    }
}
