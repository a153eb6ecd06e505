//! Store URLs without their secrets: the one place that turns a URL into what may be printed, and
//! `${VAR}` expansion over an environment the caller captured. Every message, log line and report
//! that names a store goes through [`redact_url`] or [`Secrets::scrub`], so a password never
//! reaches the output. Pure text functions; depends on nothing.

use std::collections::BTreeMap;

/// What replaces a secret.
pub const MASK: &str = "***";

/// Query parameters that carry secrets in the URL forms the drivers accept.
const SECRET_PARAMS: &[&str] = &["password", "pass", "pwd", "sslpassword", "token"];

/// `url` with the password of its user-info and every secret query parameter replaced by `***`.
/// Text that is not a `scheme://` URL is returned unchanged (a plain SQLite path has no secret).
pub fn redact_url(url: &str) -> String {
    let Some(scheme_end) = url.find("://") else {
        return url.to_string();
    };
    let (head, rest) = url.split_at(scheme_end + 3);
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    let authority = match authority.rfind('@') {
        Some(at) => {
            let (userinfo, host) = authority.split_at(at);
            match userinfo.find(':') {
                Some(colon) => format!("{}:{MASK}{host}", &userinfo[..colon]),
                None => authority.to_string(),
            }
        }
        None => authority.to_string(),
    };
    format!("{head}{authority}{}", redact_query(tail))
}

fn redact_query(tail: &str) -> String {
    let Some(q) = tail.find('?') else {
        return tail.to_string();
    };
    let (path, query) = tail.split_at(q + 1);
    let (query, fragment) = match query.find('#') {
        Some(h) => query.split_at(h),
        None => (query, ""),
    };
    let params: Vec<String> = query
        .split('&')
        .map(|param| match param.split_once('=') {
            Some((name, _)) if SECRET_PARAMS.contains(&name.to_ascii_lowercase().as_str()) => {
                format!("{name}={MASK}")
            }
            _ => param.to_string(),
        })
        .collect();
    format!("{path}{}{fragment}", params.join("&"))
}

/// The secrets of one URL (user-info password, secret query values, raw and percent-decoded),
/// for scrubbing driver messages that may quote them.
#[derive(Clone, Debug, Default)]
pub struct Secrets(Vec<String>);

impl Secrets {
    pub fn of_url(url: &str) -> Self {
        let mut found = Vec::new();
        if let Some(scheme_end) = url.find("://") {
            let rest = &url[scheme_end + 3..];
            let authority = &rest[..rest.find(['/', '?', '#']).unwrap_or(rest.len())];
            if let Some(at) = authority.rfind('@') {
                if let Some((_, password)) = authority[..at].split_once(':') {
                    found.push(password.to_string());
                }
            }
            if let Some(q) = rest.find('?') {
                let query = &rest[q + 1..];
                let query = &query[..query.find('#').unwrap_or(query.len())];
                for param in query.split('&') {
                    if let Some((name, value)) = param.split_once('=') {
                        if SECRET_PARAMS.contains(&name.to_ascii_lowercase().as_str()) {
                            found.push(value.to_string());
                        }
                    }
                }
            }
        }
        let decoded: Vec<String> = found.iter().map(|s| percent_decode(s)).collect();
        found.extend(decoded);
        found.retain(|s| !s.is_empty());
        found.sort_by_key(|s| std::cmp::Reverse(s.len()));
        found.dedup();
        Secrets(found)
    }

    /// `text` with every occurrence of a secret replaced by `***`.
    pub fn scrub(&self, text: &str) -> String {
        let mut out = text.to_string();
        for secret in &self.0 {
            out = out.replace(secret.as_str(), MASK);
        }
        out
    }
}

/// `%XX` sequences decoded (invalid UTF-8 replaced); anything else kept.
pub fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
            if let Some(byte) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(byte);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `${NAME}` replaced by the variable's value. A variable that is not set is an error naming it
/// (a URL with a silently empty password would fail later with a less helpful message); `$$` is
/// a literal `$`.
pub fn expand_vars(text: &str, env: &BTreeMap<String, String>) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        if let Some(tail) = after.strip_prefix('$') {
            out.push('$');
            rest = tail;
        } else if let Some(body) = after.strip_prefix('{') {
            let Some(end) = body.find('}') else {
                return Err("`${` without a closing `}`".to_string());
            };
            let name = &body[..end];
            match env.get(name) {
                Some(value) => out.push_str(value),
                None => return Err(format!("environment variable `{name}` is not set")),
            }
            rest = &body[end + 1..];
        } else {
            out.push('$');
            rest = after;
        }
    }
    out.push_str(rest);
    Ok(out)
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
            "redis://:a$b@h/$1"
        );
        assert_eq!(
            expand_vars("redis://:${NOPE}@h", &env).unwrap_err(),
            "environment variable `NOPE` is not set"
        );
        assert!(expand_vars("x${", &env).is_err());
    }
}
