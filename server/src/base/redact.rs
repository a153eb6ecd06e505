//! Secrets kept out of everything agentws prints: the one place that finds the credentials of a
//! URL (the password of its user-info, secret query parameters), in a URL alone or anywhere in a
//! text (a message, a source line of agentws.toml under a diagnostic), and `${VAR}` expansion over
//! an environment the caller captured. Every message, snippet, log line and report goes through
//! [`redact_url`], [`redact_text`] or [`Secrets::scrub`], so a password never reaches the output.
//! Pure text functions; depends only on `base::percent`.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ops::Range;

use super::percent;

/// What replaces a secret.
pub const MASK: &str = "***";

/// Query parameters that carry secrets in the URL forms the drivers accept.
const SECRET_PARAMS: &[&str] = &["password", "pass", "pwd", "sslpassword", "token"];

/// `url` with the password of its user-info and every secret query parameter replaced by `***`.
/// Text that is not a `scheme://` URL is returned unchanged (a plain SQLite path has no secret).
pub fn redact_url(url: &str) -> String {
    let secrets = match url.find("://") {
        Some(after_scheme) => url_secrets(url, after_scheme + 3),
        None => Vec::new(),
    };
    masked(url, &secrets).into_owned()
}

/// `text` with the credentials of every `scheme://` URL in it masked, wherever the URL sits (a
/// quoted TOML value, a message, a line of a file). A URL ends at white space, a quote, a
/// backtick or an angle bracket.
pub fn redact_text(text: &str) -> Cow<'_, str> {
    masked(text, &text_secrets(text))
}

/// The byte ranges of `text` that [`redact_text`] masks, in order (for a caller that must move
/// offsets into the text along with it, such as a snippet's annotations).
pub fn text_secrets(text: &str) -> Vec<Range<usize>> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(i) = text[from..].find("://") {
        let separator = from + i;
        let start = scheme_start(text, separator);
        let end = text[separator + 3..]
            .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '`' | '<' | '>'))
            .map_or(text.len(), |e| separator + 3 + e);
        if start < separator {
            let url = &text[start..end];
            let shift = start;
            found.extend(
                url_secrets(url, separator - start + 3)
                    .into_iter()
                    .map(|r| r.start + shift..r.end + shift),
            );
        }
        from = end.max(separator + 3);
    }
    found
}

/// `text` with `ranges` (in order, not overlapping) replaced by the mask.
fn masked<'a>(text: &'a str, ranges: &[Range<usize>]) -> Cow<'a, str> {
    if ranges.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for range in ranges {
        out.push_str(&text[at..range.start]);
        out.push_str(MASK);
        at = range.end;
    }
    out.push_str(&text[at..]);
    Cow::Owned(out)
}

/// Where the scheme ending at `separator` (the `://`) starts: letters, digits, `+`, `-`, `.`
/// after a letter. `separator` itself when there is no scheme.
fn scheme_start(text: &str, separator: usize) -> usize {
    let bytes = text.as_bytes();
    let mut start = separator;
    while start > 0
        && (bytes[start - 1].is_ascii_alphanumeric()
            || matches!(bytes[start - 1], b'+' | b'-' | b'.'))
    {
        start -= 1;
    }
    while start < separator && !bytes[start].is_ascii_alphabetic() {
        start += 1;
    }
    start
}

/// The secret ranges of one URL whose authority starts at `authority`: the user-info password
/// and the values of secret query parameters.
fn url_secrets(url: &str, authority: usize) -> Vec<Range<usize>> {
    let mut found = Vec::new();
    let rest_start = match userinfo_end(url, authority) {
        Some(at) => {
            if let Some(colon) = url[authority..at].find(':') {
                found.push(authority + colon + 1..at);
            }
            at + 1
        }
        None => authority,
    };
    if let Some(q) = url[rest_start..].find('?') {
        let query_start = rest_start + q + 1;
        let query_end = url[query_start..]
            .find('#')
            .map_or(url.len(), |h| query_start + h);
        let mut param_start = query_start;
        for param in url[query_start..query_end].split('&') {
            if let Some((name, value)) = param.split_once('=') {
                if !value.is_empty() && SECRET_PARAMS.contains(&name.to_ascii_lowercase().as_str())
                {
                    let value_start = param_start + name.len() + 1;
                    found.push(value_start..value_start + value.len());
                }
            }
            param_start += param.len() + 1;
        }
    }
    found
}

/// The `@` that ends the user-info of the URL whose authority starts at `authority`: the last
/// `@` followed by something a host can be (a name or address, an optional port, then the end or
/// a `/`, `?`, `#` or `,`). The last one, because a password written without percent-encoding
/// may hold `@`, `/`, `?` or `#` itself: reading it as the driver would leave the rest of it in
/// plain sight. Where that guess is wrong (an `@` in a query value), more is masked, never less.
fn userinfo_end(url: &str, authority: usize) -> Option<usize> {
    let bytes = url.as_bytes();
    let mut candidate = url[authority..].rfind('@').map(|i| authority + i);
    while let Some(at) = candidate {
        if host_follows(&bytes[at + 1..]) {
            return Some(at);
        }
        candidate = url[authority..at].rfind('@').map(|i| authority + i);
    }
    None
}

fn host_follows(rest: &[u8]) -> bool {
    let mut i = 0;
    if rest.first() == Some(&b'[') {
        match rest.iter().position(|&b| b == b']') {
            Some(close) => i = close + 1,
            None => return false,
        }
    } else {
        while i < rest.len()
            && (rest[i].is_ascii_alphanumeric()
                || matches!(rest[i], b'.' | b'-' | b'_' | b'~' | b'%'))
        {
            i += 1;
        }
    }
    if rest.get(i) == Some(&b':') {
        i += 1;
        while rest.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
    }
    i == rest.len() || matches!(rest[i], b'/' | b'?' | b'#' | b',')
}

/// The secrets of one URL (user-info password, secret query values, raw and percent-decoded),
/// for scrubbing driver messages that may quote them.
#[derive(Clone, Debug, Default)]
pub struct Secrets(Vec<String>);

impl Secrets {
    pub fn of_url(url: &str) -> Self {
        let ranges = match url.find("://") {
            Some(after_scheme) => url_secrets(url, after_scheme + 3),
            None => Vec::new(),
        };
        let mut found: Vec<String> = ranges.iter().map(|r| url[r.clone()].to_string()).collect();
        let decoded: Vec<String> = found.iter().map(|s| percent::decode_lossy(s)).collect();
        found.extend(decoded);
        found.retain(|s| !s.is_empty());
        found.sort_by_key(|s| std::cmp::Reverse(s.len()));
        found.dedup();
        Secrets(found)
    }

    /// `text` with every occurrence of a secret, and the credentials of every URL, masked.
    pub fn scrub(&self, text: &str) -> String {
        let mut out = text.to_string();
        for secret in &self.0 {
            out = out.replace(secret.as_str(), MASK);
        }
        redact_text(&out).into_owned()
    }
}

/// `${NAME}` replaced by the variable's value. A variable that is not set is an error naming it
/// (a URL with a silently empty password would fail later with a less helpful message); `$$` is
/// a literal `$`. In a URL, a value that lands in the user-info or in a query parameter's value is
/// percent-encoded: the variable holds the password itself (as `PGPASSWORD` does), and a `#`,
/// `/`, `?` or `@` in it must neither end the user-info early for the driver nor leave part of the
/// password outside what is masked.
pub fn expand_vars(text: &str, env: &BTreeMap<String, String>) -> Result<String, String> {
    let encoded = encoded_regions(text);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    while let Some(i) = text[at..].find('$') {
        let dollar = at + i;
        out.push_str(&text[at..dollar]);
        let after = &text[dollar + 1..];
        if after.starts_with('$') {
            out.push('$');
            at = dollar + 2;
        } else if let Some(body) = after.strip_prefix('{') {
            let Some(end) = body.find('}') else {
                return Err("`${` without a closing `}`".to_string());
            };
            let name = &body[..end];
            let Some(value) = env.get(name) else {
                return Err(format!("environment variable `{name}` is not set"));
            };
            if encoded(dollar) {
                out.push_str(&percent::encode_component(value));
            } else {
                out.push_str(value);
            }
            at = dollar + 2 + end + 1;
        } else {
            out.push('$');
            at = dollar + 1;
        }
    }
    out.push_str(&text[at..]);
    Ok(out)
}

/// Whether a variable at an offset of the URL template `text` stands in its user-info or in a
/// query parameter's value.
fn encoded_regions(text: &str) -> impl Fn(usize) -> bool + '_ {
    // Each `${NAME}` read as a name of the same length, so that a variable holding the host
    // still lets the `@` before it end the user-info.
    let mut plain = text.as_bytes().to_vec();
    let mut from = 0;
    while let Some(start) = text[from..].find("${").map(|i| from + i) {
        let Some(end) = text[start..].find('}').map(|i| start + i + 1) else {
            break;
        };
        plain[start..end].fill(b'x');
        from = end;
    }
    let plain = String::from_utf8(plain).unwrap_or_else(|_| text.to_string());
    let authority = text.find("://").map(|i| i + 3);
    let userinfo = authority.and_then(|a| Some(a..userinfo_end(&plain, a)?));
    let after_userinfo = userinfo
        .as_ref()
        .map(|u| u.end + 1)
        .or(authority)
        .unwrap_or(text.len());
    let query = text[after_userinfo..]
        .find('?')
        .map(|q| after_userinfo + q + 1);
    move |offset| {
        if userinfo.as_ref().is_some_and(|u| u.contains(&offset)) {
            return true;
        }
        match query {
            Some(query) if offset >= query => {
                let param = text[..offset].rfind(['&', '?']).map_or(query, |p| p + 1);
                text[param..offset].contains('=')
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_masked_in_every_url_form() {
        assert_eq!(
            redact_url("redis://:s3cret@localhost:6379/0"),
            "redis://:***@localhost:6379/0"
        );
        assert_eq!(
            redact_url("postgres://app:p%40ss@db:5432/ws?sslmode=disable&password=x"),
            "postgres://app:***@db:5432/ws?sslmode=disable&password=***"
        );
        assert_eq!(
            redact_url("mysql://root@127.0.0.1/db"),
            "mysql://root@127.0.0.1/db"
        );
        // An `@` in the password (unencoded) still hides the whole password.
        assert_eq!(redact_url("rediss://u:a@b@h:1"), "rediss://u:***@h:1");
        assert_eq!(redact_url("sqlite:///tmp/x.db"), "sqlite:///tmp/x.db");
        assert_eq!(redact_url("/tmp/x.db"), "/tmp/x.db");
    }

    #[test]
    fn secrets_are_scrubbed_raw_and_decoded() {
        let secrets = Secrets::of_url("postgres://app:p%40ss@db/ws?password=zz");
        assert_eq!(
            secrets.scrub("auth failed for p@ss / p%40ss / zz"),
            "auth failed for *** / *** / ***"
        );
        assert_eq!(Secrets::of_url("redis://h").scrub("x"), "x");
    }

    #[test]
    fn variables_expand_or_fail_by_name() {
        let env: BTreeMap<String, String> = [("PW".to_string(), "a$b".to_string())].into();
        assert_eq!(
            expand_vars("redis://:${PW}@h/$$1", &env).unwrap(),
            "redis://:a%24b@h/$1"
        );
        assert_eq!(
            expand_vars("redis://:${NOPE}@h", &env).unwrap_err(),
            "environment variable `NOPE` is not set"
        );
        assert!(expand_vars("x${", &env).is_err());
    }

    /// A password with every character that ends a URL part, raw, percent-encoded and as the
    /// value of a variable.
    const PASSWORD: &str = "p#/?@%:w0rd";

    #[test]
    fn a_password_written_without_encoding_is_masked_whole() {
        let raw = format!("redis://user:{PASSWORD}@localhost:6379/0");
        assert_eq!(redact_url(&raw), "redis://user:***@localhost:6379/0");
        let encoded = format!(
            "postgres://app:{}@db:5432/ws?sslmode=require",
            percent::encode_component(PASSWORD)
        );
        assert_eq!(
            redact_url(&encoded),
            "postgres://app:***@db:5432/ws?sslmode=require"
        );
        let secrets = Secrets::of_url(&encoded);
        assert_eq!(
            secrets.scrub(&format!("password {PASSWORD} rejected")),
            "password *** rejected"
        );
    }

    #[test]
    fn urls_in_text_are_masked_where_they_stand() {
        let line = format!("url = \"redis://user:{PASSWORD}@localhost:6379/0\" # the store");
        assert_eq!(
            redact_text(&line),
            "url = \"redis://user:***@localhost:6379/0\" # the store"
        );
        assert_eq!(
            redact_text(&format!("url = mysql://root:{PASSWORD}@[::1]:3306/ws?x=1")),
            "url = mysql://root:***@[::1]:3306/ws?x=1"
        );
        assert_eq!(
            redact_text("see `https://example.com/a?token=abc&x=1` and ftp://h/p"),
            "see `https://example.com/a?token=***&x=1` and ftp://h/p"
        );
        assert!(matches!(redact_text("no url: a@b c:d"), Cow::Borrowed(_)));
        let text = "a redis://:pw@h:1 b";
        assert_eq!(text_secrets(text), vec![11..13]);
    }

    #[test]
    fn a_variable_in_the_user_info_or_a_query_value_is_encoded() {
        let env: BTreeMap<String, String> = [
            ("PW".to_string(), PASSWORD.to_string()),
            ("HOST".to_string(), "db:5432".to_string()),
        ]
        .into();
        let url = expand_vars(
            "postgres://app:${PW}@${HOST}/ws?password=${PW}&h=${HOST}",
            &env,
        )
        .unwrap();
        let encoded = percent::encode_component(PASSWORD);
        assert_eq!(
            url,
            format!("postgres://app:{encoded}@db:5432/ws?password={encoded}&h=db%3A5432")
        );
        assert_eq!(
            redact_url(&url),
            "postgres://app:***@db:5432/ws?password=***&h=db%3A5432"
        );
        assert_eq!(
            expand_vars("sqlite://${HOST}/x.db", &env).unwrap(),
            "sqlite://db:5432/x.db"
        );
    }
}
