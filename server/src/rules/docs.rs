//! Where the rules' documentation lives: one base address, the URL of `docs/rules.md` (derived
//! from the crate's `repository`, or a mirror named by `AGENTWS_RULES_URL`), and each rule's
//! page as that base with the rule's anchor. SARIF's `helpUri`, the language server's
//! `codeDescription` and `agentws explain` all link through here. Depends on `base` only, and
//! reads the environment only as the map a front-end passes in.

use crate::base::Env;

/// The repository's files on its `main` branch: the crate's `repository` (Cargo.toml's
/// `[workspace.package]`), the base of every link into it.
const FILES_URL: &str = concat!(env!("CARGO_PKG_REPOSITORY"), "/blob/main/");

/// The published `docs/rules.md`.
pub const DEFAULT_DOCS_URL: &str =
    concat!(env!("CARGO_PKG_REPOSITORY"), "/blob/main/", "docs/rules.md");

/// The crate's folder in the repository: where a source file's path inside the crate is.
const CRATE_FOLDER: &str = "server";

/// The path in the repository (`/` separated) of a source file `file!()` named: relative to the
/// workspace root, the repository's, when the crate is built in it; else absolute, under the
/// crate's folder.
pub fn repository_path(file: &str) -> String {
    let file = file.replace('\\', "/");
    let crate_dir = env!("CARGO_MANIFEST_DIR").replace('\\', "/");
    match file.strip_prefix(&format!("{crate_dir}/")) {
        Some(in_crate) => format!("{CRATE_FOLDER}/{in_crate}"),
        None => file,
    }
}

/// The published copy of the repository's file at `path` (from [`repository_path`]). Always the
/// crate's `repository`: `AGENTWS_RULES_URL` moves the rule pages, not the source.
pub fn source_url(path: &str) -> String {
    format!("{FILES_URL}{path}")
}

/// The variable that points the rule links at another copy of `docs/rules.md` (a mirror, an
/// internal host): its absolute URL, without an anchor.
pub const DOCS_URL_VAR: &str = "AGENTWS_RULES_URL";

/// `url` when it can be the base of the rule links: an absolute URL (`scheme://…`) without an
/// anchor or white space; otherwise why not.
pub fn checked_docs_url(url: &str) -> Result<String, String> {
    let scheme_end = url.find("://").unwrap_or(0);
    let scheme = &url[..scheme_end];
    let absolute = scheme_end > 0
        && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        && url.len() > scheme_end + 3;
    if !absolute {
        return Err(format!(
            "`{url}` is not an absolute URL (scheme://host/path)"
        ));
    }
    if url.contains('#') || url.chars().any(char::is_whitespace) {
        return Err(format!(
            "`{url}` holds a `#` or white space; give the page's URL, each rule's anchor is appended"
        ));
    }
    Ok(url.to_string())
}

/// The base of the rule links for a process with environment `env`: `AGENTWS_RULES_URL` when it
/// is set and valid, else [`DEFAULT_DOCS_URL`]. An invalid value gives the default and the
/// warning to show.
pub fn docs_url(env: &Env) -> (String, Option<String>) {
    match env.get(DOCS_URL_VAR).filter(|v| !v.is_empty()) {
        None => (DEFAULT_DOCS_URL.to_string(), None),
        Some(value) => match checked_docs_url(value) {
            Ok(url) => (url, None),
            Err(why) => (
                DEFAULT_DOCS_URL.to_string(),
                Some(format!(
                    "{DOCS_URL_VAR}: {why}; the rule links use {DEFAULT_DOCS_URL}"
                )),
            ),
        },
    }
}

/// The documentation of rule `code` under the base `docs_url`: its anchor in `docs/rules.md`.
pub fn rule_url(docs_url: &str, code: &str) -> String {
    format!("{docs_url}#{}", code.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(value: Option<&str>) -> Env {
        value
            .map(|v| [(DOCS_URL_VAR.to_string(), v.to_string())].into())
            .unwrap_or_default()
    }

    #[test]
    fn the_default_is_an_absolute_url_from_the_crate_repository() {
        assert!(
            checked_docs_url(DEFAULT_DOCS_URL).is_ok(),
            "{DEFAULT_DOCS_URL}: Cargo.toml's `repository` must be set"
        );
        assert_eq!(
            DEFAULT_DOCS_URL,
            format!("{}/blob/main/docs/rules.md", env!("CARGO_PKG_REPOSITORY"))
        );
        assert_eq!(docs_url(&env(None)), (DEFAULT_DOCS_URL.to_string(), None));
        assert_eq!(
            docs_url(&env(Some(""))),
            (DEFAULT_DOCS_URL.to_string(), None)
        );
    }

    #[test]
    fn a_source_file_is_linked_by_its_path_in_the_repository() {
        let manifest = env!("CARGO_MANIFEST_DIR");
        let inside = format!("{manifest}/src/check/files/workspace_missing.rs");
        assert_eq!(
            repository_path(&inside),
            "server/src/check/files/workspace_missing.rs"
        );
        assert_eq!(
            repository_path("server/src/rules/store/store_listing_cut.rs"),
            "server/src/rules/store/store_listing_cut.rs"
        );
        assert_eq!(
            source_url("server/src/rules/docs.rs"),
            format!(
                "{}/blob/main/server/src/rules/docs.rs",
                env!("CARGO_PKG_REPOSITORY")
            )
        );
    }

    #[test]
    fn a_mirror_replaces_the_base_and_keeps_the_anchor() {
        let mirror = "https://git.example.com/tools/agentws/-/blob/main/docs/rules.md";
        let (url, warning) = docs_url(&env(Some(mirror)));
        assert_eq!((url.as_str(), warning), (mirror, None));
        assert_eq!(rule_url(&url, "SK006"), format!("{mirror}#sk006"));
        let file = "file:///opt/agentws/docs/rules.md";
        assert_eq!(docs_url(&env(Some(file))).0, file);
    }

    #[test]
    fn a_relative_or_anchored_override_is_refused_with_the_reason() {
        for (value, reason) in [
            ("docs/rules.md", "is not an absolute URL"),
            ("://host/x", "is not an absolute URL"),
            ("1http://host/x", "is not an absolute URL"),
            ("https://", "is not an absolute URL"),
            ("https://host/rules.md#top", "holds a `#`"),
            ("https://host/my rules.md", "white space"),
        ] {
            let (url, warning) = docs_url(&env(Some(value)));
            assert_eq!(url, DEFAULT_DOCS_URL, "{value}");
            let warning = warning.unwrap_or_default();
            assert!(
                warning.starts_with(&format!("AGENTWS_RULES_URL: `{value}`"))
                    && warning.contains(reason)
                    && warning.ends_with(&format!("the rule links use {DEFAULT_DOCS_URL}")),
                "{value}: {warning}"
            );
        }
    }
}
