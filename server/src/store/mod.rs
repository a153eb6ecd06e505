//! Reading a remote `BaseStore` as the runtime's remote filesystem mode does
//! (`RemoteFilesystemSpec`; docs/stores.md): which namespace and key a workspace path maps to, what
//! a stored value decodes to, and putting the stored files of the requested users into the file set
//! at the place the local overlay would hold them (`<ws>/<user>/skills/…`), each carrying its
//! origin (`store:` + namespace + key), so check, preview and the language server see them as
//! per-user files. Store-level problems (rule group `RS`) are reported on the way.
//!
//! Like `workspace::discover`, this is an edge of the core: it talks to servers and files, read
//! only, and never writes. Backends live one per file (`sqlite`, `redis`, `postgres`, `mysql`); they only list rows, all the
//! runtime's rules are here. Depends on `base`, `syntax`, `config`, `context`, `rules` and
//! `workspace`; never on `check` or the front-ends.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::base::redact::{expand_vars, redact_url, Secrets};
use crate::base::{Diagnostic, Env, FileContent, FileSet, TextRange};
use crate::config::{Config, Scope, StoreConfig, StoreLayout};
use crate::rules::store::{
    store_child_namespace, store_empty_content, store_entry_unreadable, store_id_not_a_folder,
    store_key_not_absolute, store_key_unreachable, store_root_stray_key, store_user_tools_json,
    store_value_encoding, store_value_no_content, store_value_not_json,
};
use crate::workspace::layout;

pub mod io;
pub mod mysql;
pub mod postgres;
pub mod redis;
pub mod sqlite;

/// How many owners' listings are read at once (`StoreBackend::scan_many`): enough to make the
/// round trips per owner negligible, few enough to bound the stored values held at once.
const OWNERS_PER_READ: usize = 64;

/// The page size of `RemoteFilesystem.searchAllItems`.
pub const PAGE_SIZE: usize = 100;

/// Route segments under a base namespace, with the workspace folder each maps to (`None`: the
/// exact-file routes of the `root` segment).
pub const SEGMENTS: &[(&str, Option<&str>)] = &[
    ("root", None),
    ("memory", Some("memory")),
    ("skills", Some("skills")),
    ("subagents", Some("subagents")),
    ("knowledge", Some("knowledge")),
    ("plans", Some("plans")),
];

/// The keys the `root` namespace routes: the exact-file routes.
pub const ROOT_KEYS: &[&str] = &["/AGENTS.md", "/MEMORY.md", "/tools.json"];

/// Which server, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreKind {
    Sqlite(PathBuf),
    Redis,
    Postgres,
    Mysql,
}

/// A store to read: the expanded URL (secret; never printed), what may be printed, and the
/// options of the Java builder that wrote it.
#[derive(Clone, Debug)]
pub struct StoreSpec {
    pub kind: StoreKind,
    url: String,
    /// The URL with its password masked: the only form that is ever printed.
    pub shown: String,
    secrets: Secrets,
    pub prefix: String,
    pub table: String,
    pub schema: Option<String>,
    pub layout: StoreLayout,
    pub anonymous_user: String,
    pub connect_timeout: Duration,
}

/// A failure to read the store at all (exit 2), scrubbed of secrets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreError {
    /// What happened, in words (the URL with its password masked).
    pub message: String,
    /// The client library's own report, shown with `--verbose` (and logged by the language
    /// server at debug level).
    pub detail: Option<String>,
    /// The failure concerns the entries asked for, not the store: reading the other owners goes
    /// on (RS017).
    pub entries: bool,
}

impl StoreError {
    pub fn new(message: impl Into<String>) -> StoreError {
        StoreError {
            message: message.into(),
            detail: None,
            entries: false,
        }
    }

    /// The message, with the detail on a line of its own when `verbose`.
    pub fn shown(&self, verbose: bool) -> String {
        match (&self.detail, verbose) {
            (Some(detail), true) => format!("{}\n  detail: {detail}", self.message),
            _ => self.message.clone(),
        }
    }
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl StoreSpec {
    /// The store of `config` (or `url` when given on the command line, which wins), with `${VAR}`
    /// expanded from `env`. A relative SQLite path is relative to `base`.
    pub fn new(
        config: &StoreConfig,
        url: Option<&str>,
        env: &Env,
        base: &Path,
    ) -> Result<StoreSpec, StoreError> {
        let raw = url
            .or(config.url.as_deref())
            .ok_or_else(|| StoreError::new("no store: pass --store URL or set [store] url"))?;
        let expanded = expand_vars(raw, env)
            .map_err(|e| StoreError::new(format!("store URL `{}`: {e}", redact_url(raw))))?;
        let shown = redact_url(&expanded);
        let secrets = Secrets::of_url(&expanded);
        let scheme = expanded
            .split_once("://")
            .map(|(s, _)| s.to_ascii_lowercase());
        let kind = match scheme.as_deref() {
            Some("sqlite") => {
                let rest = &expanded["sqlite://".len()..];
                let path = rest.split(['?', '#']).next().unwrap_or("");
                if path.is_empty() {
                    return Err(StoreError::new(format!("store URL `{shown}` names no database file")));
                }
                let path = PathBuf::from(crate::base::percent::decode_lossy(path));
                StoreKind::Sqlite(if path.is_absolute() {
                    path
                } else {
                    base.join(path)
                })
            }
            Some("redis" | "rediss") => StoreKind::Redis,
            Some("postgres" | "postgresql") => StoreKind::Postgres,
            Some("mysql" | "mariadb") => StoreKind::Mysql,
            _ => {
                return Err(StoreError::new(format!(
                    "store URL `{shown}`: expected redis://, rediss://, postgres://, mysql:// or sqlite://PATH"
                )))
            }
        };
        let table = config.table.clone().unwrap_or_else(|| {
            match (config.layout, &kind) {
                (StoreLayout::SqliteBase, StoreKind::Sqlite(_)) => "store",
                _ => "agentscope_store",
            }
            .to_string()
        });
        if !is_identifier(&table) {
            return Err(StoreError::new(format!(
                "store table `{table}` is not an identifier ([A-Za-z_][A-Za-z0-9_]*), as the Java builders require"
            )));
        }
        if let Some(schema) = &config.schema {
            if !is_identifier(schema) {
                return Err(StoreError::new(format!(
                    "store schema `{schema}` is not an identifier"
                )));
            }
        }
        let prefix = match config.prefix.as_deref().map(str::trim) {
            None | Some("") => "agentscope:store:".to_string(),
            Some(p) if p.ends_with(':') => p.to_string(),
            Some(p) => format!("{p}:"),
        };
        Ok(StoreSpec {
            kind,
            url: expanded,
            shown,
            secrets,
            prefix,
            table,
            schema: config.schema.clone(),
            layout: config.layout,
            anonymous_user: config.anonymous_user.clone(),
            connect_timeout: Duration::from_secs(u64::from(config.connect_timeout.max(1))),
        })
    }

    /// The expanded URL, for the client library only.
    pub fn secret_url(&self) -> &str {
        &self.url
    }

    /// `message` with every secret of the URL masked.
    pub fn scrub(&self, message: &str) -> String {
        self.secrets.scrub(message)
    }

    /// A store error with the server's message scrubbed.
    pub fn error(&self, what: &str, err: impl std::fmt::Display) -> StoreError {
        StoreError::new(self.scrub(&format!("{what} ({}): {err}", self.shown)))
    }

    /// A store error saying what happened in `words`, with the client library's own report as
    /// the detail (`--verbose`); both scrubbed.
    pub fn failure(&self, what: &str, words: &str, detail: &str) -> StoreError {
        StoreError {
            message: self.scrub(&format!("{what} ({}): {words}", self.shown)),
            detail: (words != detail).then(|| self.scrub(detail)),
            entries: false,
        }
    }

    /// A failure that concerns the entries asked for only (RS017): `words` say what, scrubbed.
    pub fn entries_failure(&self, words: &str, detail: &str) -> StoreError {
        StoreError {
            message: self.scrub(words),
            detail: Some(self.scrub(detail)),
            entries: true,
        }
    }

    /// `err` (a timeout, a cancellation, a failure already in words) as a failure of `what`.
    pub fn within(&self, what: &str, err: StoreError) -> StoreError {
        if err.message == io::CANCELLED {
            return err;
        }
        StoreError {
            message: self.scrub(&format!("{what} ({}): {}", self.shown, err.message)),
            detail: err.detail.map(|d| self.scrub(&d)),
            entries: err.entries,
        }
    }

    /// Opens the backend. Every wait on the server from here on (connecting, logging in, each
    /// query) ends at its deadline (`connect_timeout`) or when `cancel` is cancelled: see
    /// [`io`]. Blocks the calling thread, which must not be an async runtime's worker.
    pub fn open(&self, cancel: &io::Cancel) -> Result<Box<dyn StoreBackend>, StoreError> {
        match &self.kind {
            StoreKind::Sqlite(path) => {
                Ok(Box::new(sqlite::SqliteBackend::open(self, path, cancel)?))
            }
            StoreKind::Redis => Ok(Box::new(redis::RedisBackend::open(self, cancel)?)),
            StoreKind::Postgres => Ok(Box::new(postgres::PostgresBackend::open(self, cancel)?)),
            StoreKind::Mysql => Ok(Box::new(mysql::MysqlBackend::open(self, cancel)?)),
        }
    }
}

/// Whether a URL's `sslmode` (libpq) or `ssl-mode` (MySQL) parameter asks for TLS, and the URL
/// without it (the client crates know only some of the values). `require`, `verify-ca`,
/// `verify-full` (MySQL: `REQUIRED`, `VERIFY_CA`, `VERIFY_IDENTITY`) ask for it, always with the
/// certificate verified; `disable` and `prefer` (`DISABLED`, `PREFERRED`) do not: no TLS.
pub fn take_ssl_mode(url: &str) -> Result<(String, bool), String> {
    let Some((head, query)) = url.split_once('?') else {
        return Ok((url.to_string(), false));
    };
    let mut require = false;
    let mut kept = Vec::new();
    for pair in query.split('&') {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        if !matches!(
            key.to_ascii_lowercase().as_str(),
            "ssl-mode" | "sslmode" | "ssl_mode"
        ) {
            kept.push(pair);
            continue;
        }
        require = match value.to_ascii_lowercase().replace('_', "-").as_str() {
            "require" | "required" | "verify-ca" | "verify-full" | "verify-identity" => true,
            "disable" | "disabled" | "prefer" | "preferred" => false,
            _ => {
                return Err(format!(
                    "{key} `{}` is not one of disable, prefer, require, verify-ca, verify-full \
                     (or MySQL's DISABLED, PREFERRED, REQUIRED, VERIFY_CA, VERIFY_IDENTITY)",
                    value.escape_debug()
                ))
            }
        };
    }
    let url = if kept.is_empty() {
        head.to_string()
    } else {
        format!("{head}?{}", kept.join("&"))
    };
    Ok((url, require))
}

/// A client certificate for mutual TLS (Redis, PostgreSQL): libpq's `sslcert=PATH` and
/// `sslkey=PATH` URL parameters (PEM files), taken out of the URL the client crate sees. Both or
/// neither.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientCertPaths {
    pub cert: PathBuf,
    pub key: PathBuf,
}

impl ClientCertPaths {
    /// The two PEM files' bytes.
    pub fn read(&self) -> Result<(Vec<u8>, Vec<u8>), String> {
        Ok((
            read_pem("client certificate", &self.cert)?,
            read_pem("client key", &self.key)?,
        ))
    }
}

/// A PEM file named in a store URL, read as a workspace file is: only a regular file (a FIFO or a
/// device such as `/dev/zero` is refused before it is opened, so the read can neither block nor
/// run forever) of at most `MAX_TEXT_BYTES`.
pub fn read_pem(what: &str, path: &Path) -> Result<Vec<u8>, String> {
    let shown = path.display();
    match FileContent::read(path) {
        FileContent::Text(text) => Ok(text.as_bytes().to_vec()),
        FileContent::NotRegular { kind } => Err(format!(
            "cannot read the {what} `{shown}`: it is {kind}, not a regular file"
        )),
        FileContent::TooLarge { size } => Err(format!(
            "cannot read the {what} `{shown}`: {size} bytes, more than a PEM file holds (at most {})",
            crate::base::files::MAX_TEXT_BYTES
        )),
        FileContent::NotUtf8 { .. } => Err(format!(
            "cannot read the {what} `{shown}`: not a PEM file (not text)"
        )),
        FileContent::Unreadable { error } => Err(format!("cannot read the {what} `{shown}`: {error}")),
        FileContent::NotLoaded => Err(format!("cannot read the {what} `{shown}`")),
    }
}

/// The value of the first of `names` among the URL's query parameters (percent-decoded), and the
/// URL without any of them.
pub fn take_param(url: &str, names: &[&str]) -> (String, Option<String>) {
    let Some((head, query)) = url.split_once('?') else {
        return (url.to_string(), None);
    };
    let mut found = None;
    let mut kept = Vec::new();
    for pair in query.split('&') {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        if names.contains(&name) {
            found.get_or_insert_with(|| crate::base::percent::decode_lossy(value));
        } else {
            kept.push(pair);
        }
    }
    let url = if kept.is_empty() {
        head.to_string()
    } else {
        format!("{head}?{}", kept.join("&"))
    };
    (url, found)
}

pub fn take_client_cert(url: &str) -> Result<(String, Option<ClientCertPaths>), String> {
    let Some((head, query)) = url.split_once('?') else {
        return Ok((url.to_string(), None));
    };
    let (mut cert, mut key) = (None, None);
    let mut kept = Vec::new();
    for pair in query.split('&') {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        let path = || PathBuf::from(crate::base::percent::decode_lossy(value));
        match name {
            "sslcert" => cert = Some(path()),
            "sslkey" => key = Some(path()),
            _ => kept.push(pair),
        }
    }
    let paths = match (cert, key) {
        (Some(cert), Some(key)) => Some(ClientCertPaths { cert, key }),
        (None, None) => None,
        (Some(_), None) => {
            return Err("sslcert needs sslkey (the client certificate's private key)".into())
        }
        (None, Some(_)) => return Err("sslkey needs sslcert (the client certificate)".into()),
    };
    let url = if kept.is_empty() {
        head.to_string()
    } else {
        format!("{head}?{}", kept.join("&"))
    };
    Ok((url, paths))
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// One stored row: its namespace, key and raw value text (`None`: the row has no value at all).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawItem {
    pub namespace: Vec<String>,
    pub key: String,
    pub value: Option<String>,
    /// Byte length of the value when it was too large to read.
    pub oversized: Option<u64>,
}

/// What a backend answers for one base namespace.
#[derive(Debug, Default)]
pub struct Scan {
    /// Every row at or below the base namespace, in the backend's listing order per namespace.
    pub items: Vec<RawItem>,
    /// Store-level problems only the backend can see (stale index members, cut listings).
    pub problems: Vec<(Vec<String>, String, &'static crate::rules::Rule, String)>,
}

/// [`StoreBackend::scan_many`]'s answer from one read of every base at once (`read`): each
/// base's scan, or the read's error for each base.
pub(super) fn each_base(
    bases: &[Vec<String>],
    read: Result<Vec<Scan>, StoreError>,
) -> Vec<Result<Scan, StoreError>> {
    match read {
        Ok(scans) => scans.into_iter().map(Ok).collect(),
        Err(err) => bases.iter().map(|_| Err(err.clone())).collect(),
    }
}

/// A store backend: lists, never writes.
pub trait StoreBackend {
    /// Every row whose namespace starts with `base` (`base` itself and deeper, as far as the
    /// backend's own search reaches).
    fn scan(&mut self, base: &[String]) -> Result<Scan, StoreError>;
    /// [`StoreBackend::scan`] of each of `bases`, answered in their order: what checking many
    /// owners asks, which a backend may read in fewer round trips than one scan each. A failure
    /// that concerns one owner's entries stays that owner's.
    fn scan_many(&mut self, bases: &[Vec<String>]) -> Vec<Result<Scan, StoreError>> {
        bases.iter().map(|base| self.scan(base)).collect()
    }
    /// Every distinct namespace that starts with `prefix`.
    fn namespaces(&mut self, prefix: &[String]) -> Result<Vec<Vec<String>>, StoreError>;
    /// Rows under `base` that the backend's listing (`listed`, what `scan` gave) misses but the
    /// runtime still reaches by exact key (RedisStore: item hashes without an index member). Of
    /// `exact` (keys the runtime reads by path) those that exist come back as items; with `all`,
    /// every other such row is reported too (it is never listed, so never loaded). The SQL
    /// layouts list every row: nothing to add.
    fn unlisted(
        &mut self,
        _base: &[String],
        _exact: &[ExactRead],
        _all: bool,
        _listed: &Scan,
    ) -> Result<Scan, StoreError> {
        Ok(Scan::default())
    }
    /// Ids below `prefix` (`agents/<agent>/users`) found only through rows the listing index
    /// does not name (RedisStore: item hashes, when the owner has no index set at all), each with
    /// the (segment, key) of its rows in route namespaces; and whether the search stopped early.
    /// The SQL layouts have no index apart from the rows: nothing to add.
    #[allow(clippy::type_complexity)]
    fn unindexed_owners(
        &mut self,
        _prefix: &[String],
    ) -> Result<(Vec<(String, Vec<(String, String)>)>, bool), StoreError> {
        Ok((Vec::new(), false))
    }
}

/// Where a workspace-relative path is routed (`CompositeFilesystem.routeForPath` for the plain
/// forms): its segment and key, or `None` when the store never holds it.
pub fn route(rel: &str) -> Option<(&'static str, String)> {
    let rel = rel.trim_start_matches('/');
    if ROOT_KEYS.iter().any(|k| &k[1..] == rel) {
        return Some(("root", format!("/{rel}")));
    }
    SEGMENTS.iter().find_map(|(segment, folder)| {
        let rest = rel.strip_prefix((*folder)?)?.strip_prefix('/')?;
        Some((*segment, format!("/{rest}")))
    })
}

/// A key the runtime reads by its exact path whatever the store's listings show, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactRead {
    pub segment: &'static str,
    pub key: String,
    pub why: &'static str,
}

impl ExactRead {
    fn new(segment: &'static str, key: String, why: &'static str) -> Self {
        ExactRead { segment, key, why }
    }
}

const READ_BY_PROMPT: &str = "the prompt reads this file by its path";
const LISTED_BY_TEMPLATE: &str =
    "the template holds the same path, and reading what its listing names reads this entry";

/// The keys the runtime reads by their exact path whatever the listings show: the files the
/// prompt reads on every call (`readWithOverride`: AGENTS.md, MEMORY.md, knowledge/KNOWLEDGE.md,
/// tools.json from the anonymous namespace, the additional context files routed into the store),
/// and the skills and subagents the template lists (the overlay lists the template's paths, and
/// reading one asks the store for that exact key first).
pub fn exact_read_keys(config: &Config, files: &FileSet) -> Vec<ExactRead> {
    let mut keys: Vec<ExactRead> = ROOT_KEYS
        .iter()
        .map(|k| ExactRead::new("root", k.to_string(), READ_BY_PROMPT))
        .collect();
    keys.push(ExactRead::new(
        "knowledge",
        "/KNOWLEDGE.md".into(),
        READ_BY_PROMPT,
    ));
    for file in &config.agent.additional_context_files {
        if let Some((segment, key)) = route(file) {
            if !keys.iter().any(|k| k.segment == segment && k.key == key) {
                keys.push(ExactRead::new(segment, key, READ_BY_PROMPT));
            }
        }
    }
    let skill = |name: &str| name == "SKILL.md";
    let subagent = |name: &str| name.ends_with(".md");
    for (segment, listed) in [
        ("skills", &skill as &dyn Fn(&str) -> bool),
        ("subagents", &subagent),
    ] {
        let dir = config.workspace.join(segment);
        for (path, _) in files.files_under(&dir) {
            let Ok(rel) = path.strip_prefix(&dir) else {
                continue;
            };
            if !rel.file_name().and_then(|n| n.to_str()).is_some_and(listed) {
                continue;
            }
            let parts: Vec<&str> = rel.iter().filter_map(|c| c.to_str()).collect();
            keys.push(ExactRead::new(
                segment,
                format!("/{}", parts.join("/")),
                LISTED_BY_TEMPLATE,
            ));
        }
    }
    keys
}

/// `RemoteFilesystemSpec.storeNamespace` without the segment, for the id of `scope` (`None`:
/// blank, which falls back to the anonymous user or the `default` session).
pub fn base_namespace(scope: Scope, agent: &str, id: Option<&str>, anonymous: &str) -> Vec<String> {
    let id = id.filter(|s| !crate::syntax::java::is_blank(s));
    let s = |x: &str| x.to_string();
    match scope {
        Scope::User => vec![
            s("agents"),
            s(agent),
            s("users"),
            s(id.unwrap_or(anonymous)),
        ],
        Scope::Session => vec![
            s("agents"),
            s(agent),
            s("sessions"),
            s(id.unwrap_or("default")),
        ],
        Scope::Agent => vec![s("agents"), s(agent), s("shared")],
        Scope::Global => vec![s("global")],
    }
}

/// How a file is named in every output: `store:` + namespace (segments joined by `/`) + `:` + key.
pub fn origin_label(namespace: &[String], key: &str) -> String {
    format!("store:{}:{}", namespace.join("/"), key)
}

/// The decoded value of a row, as `convertItemToFileData` reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decoded {
    Text {
        content: String,
        encoding: String,
    },
    /// Not a JSON object.
    NotJson(String),
    /// A JSON object without a usable `content`.
    NoContent(String),
}

pub fn decode(value: Option<&str>) -> Decoded {
    let text = value.unwrap_or("");
    // Null or empty value text decodes to an empty map in every backend: no content.
    if text.is_empty() {
        return Decoded::NoContent("the value is empty (an empty map)".into());
    }
    let parsed: serde_json::Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return Decoded::NotJson(format!("not JSON: {e}")),
    };
    let serde_json::Value::Object(mut map) = parsed else {
        return Decoded::NotJson("JSON, but not an object".into());
    };
    // Taken out of the map, not copied: a stored file's text is held once.
    let content = match map.get_mut("content").map(std::mem::take) {
        Some(serde_json::Value::String(s)) => s,
        Some(serde_json::Value::Array(lines)) => lines
            .iter()
            .map(java_string_value_of)
            .collect::<Vec<_>>()
            .join("\n"),
        Some(other) => {
            return Decoded::NoContent(format!("`content` is {}", json_type(&other)));
        }
        None => return Decoded::NoContent("no `content` field".into()),
    };
    let encoding = match map.get("encoding") {
        None => "utf-8".to_string(),
        Some(v) => java_string_value_of(v),
    };
    Decoded::Text { content, encoding }
}

/// Java `String.valueOf` of a Jackson-decoded value.
fn java_string_value_of(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Null => "null".into(),
        serde_json::Value::Object(m) => {
            let parts: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{k}={}", java_string_value_of(v)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        serde_json::Value::Array(a) => {
            let parts: Vec<String> = a.iter().map(java_string_value_of).collect();
            format!("[{}]", parts.join(", "))
        }
        other => other.to_string(),
    }
}

fn json_type(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

/// Whose stored files to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Owners {
    /// These user (user scope) or session (session scope) ids.
    Ids(Vec<String>),
    /// Every id the store holds for the agent.
    All,
    /// One call: the store id of its context (`None`: blank, the anonymous fallback) read into
    /// the per-call folder `folder` (the local namespace, which may differ: a call without a user
    /// id has the session id as its folder but reads the anonymous user's store entries).
    Call { id: Option<String>, folder: String },
}

/// What loading the store into a file set found.
#[derive(Debug, Default)]
pub struct StoreLoad {
    /// The ids read (user or session ids; one empty id under the agent and global scopes).
    pub owners: Vec<String>,
    /// Files put into the file set.
    pub files: usize,
    /// Store-level problems (RS rules), located at the stored file's path.
    pub diagnostics: Vec<Diagnostic>,
    /// How owners without index entries were found or left out (`OwnerIds::notes`).
    pub notes: Vec<String>,
}

/// The owners a store holds, and how the ones without a listing were found.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct OwnerIds {
    /// Sorted.
    pub ids: Vec<String>,
    /// One line per id found (or left out) by its unindexed rows only.
    pub notes: Vec<String>,
}

/// The ids the store holds under the agent of `config` for its scope (users, or sessions). An id
/// whose rows no index names (a Redis user whose index sets are all gone) is still served by the
/// runtime through its exact-path reads (`exact`): it is included when one of its rows is such a
/// read, with a note; otherwise its rows never reach a prompt, and a note says it was left out.
pub fn list_owners(
    backend: &mut dyn StoreBackend,
    config: &Config,
    exact: &[ExactRead],
) -> Result<OwnerIds, StoreError> {
    let agent = config.agent.agent_id().to_string();
    let (prefix, at, what) = match config.scope {
        Scope::User => (vec!["agents".into(), agent, "users".into()], 3, "user"),
        Scope::Session => (
            vec!["agents".into(), agent, "sessions".into()],
            3,
            "session",
        ),
        Scope::Agent | Scope::Global => {
            return Ok(OwnerIds {
                ids: vec![String::new()],
                notes: Vec::new(),
            })
        }
    };
    let mut ids: Vec<String> = backend
        .namespaces(&prefix)?
        .into_iter()
        .filter(|ns| ns.len() > at)
        .map(|ns| ns[at].clone())
        .collect();
    ids.sort();
    ids.dedup();
    let mut notes = Vec::new();
    let (unindexed, cut) = backend.unindexed_owners(&prefix)?;
    for (id, rows) in unindexed {
        if ids.binary_search(&id).is_ok() {
            continue;
        }
        let read: Vec<String> = rows
            .iter()
            .filter(|(segment, key)| exact.iter().any(|e| e.segment == segment && &e.key == key))
            .map(|(segment, key)| format!("{segment}:{key}"))
            .collect();
        let id_shown = id.escape_debug();
        if read.is_empty() {
            let rows: Vec<String> = rows.iter().map(|(s, k)| format!("{s}:{k}")).collect();
            notes.push(format!(
                "{what} `{id_shown}` left out: no index entries, and the runtime reads none of its \
                 item hashes by path ({}), so its calls get the template (check them with --user)",
                rows.join(", ")
            ));
        } else {
            notes.push(format!(
                "{what} `{id_shown}` has no index entries: found by the item hashes the runtime reads by their exact path ({})",
                read.join(", ")
            ));
            ids.push(id);
        }
    }
    if cut {
        notes.push(format!(
            "the search for {what}s without index entries stopped after {} item hashes",
            redis::SCAN_LIMIT
        ));
    }
    ids.sort();
    Ok(OwnerIds { ids, notes })
}

/// The folder a relative `sqlite://` path is relative to: agentws.toml's folder, else `cwd`.
pub fn url_base(config: &Config, cwd: &Path) -> PathBuf {
    config
        .file
        .as_deref()
        .and_then(Path::parent)
        .unwrap_or(cwd)
        .to_path_buf()
}

/// The ids the store of `config` (or `url`, which wins) holds for its agent and scope, with the
/// store URL as it may be shown: what `agentws store users` prints and `agentws/storeUsers`
/// answers. `files` is the template's (its skills and subagents are read by path: `exact_read_keys`).
/// `${VAR}` in the URL comes from `env`.
pub fn users(
    config: &Config,
    files: &FileSet,
    url: Option<&str>,
    env: &Env,
    cwd: &Path,
    cancel: &io::Cancel,
) -> Result<(String, OwnerIds), StoreError> {
    let spec = StoreSpec::new(&config.store, url, env, &url_base(config, cwd))?;
    let mut backend = spec.open(cancel)?;
    let exact = exact_read_keys(config, files);
    Ok((
        spec.shown.clone(),
        list_owners(backend.as_mut(), config, &exact)?,
    ))
}

/// Reads the stored files of `owners` into `files` (see the module docs). Under the user and
/// session scopes each id's routed folders `<ws>/<id>/{AGENTS.md, skills/, …}` are replaced by
/// the store's; under the agent and global scopes the store's files lie over the template in
/// `<ws>/…`, as the overlay does. The anonymous namespace's `/tools.json` lies over `<ws>/tools.json`.
pub fn load_into(
    files: &mut FileSet,
    config: &Config,
    backend: &mut dyn StoreBackend,
    spec: &StoreSpec,
    owners: &Owners,
) -> Result<StoreLoad, StoreError> {
    let agent = config.agent.agent_id().to_string();
    let mut loaded = StoreLoad::default();
    // Computed before any stored file is put into `files`: the template's own listing.
    let exact = exact_read_keys(config, files);
    let ids = owner_ids(backend, config, owners, &exact, &mut loaded)?;
    // A check looks for every row the listings miss; a preview only for those its prompt reads.
    let all = !matches!(owners, Owners::Call { .. });
    let bases: Vec<Vec<String>> = ids
        .iter()
        .map(|(store_id, _)| {
            base_namespace(
                config.scope,
                &agent,
                store_id.as_deref(),
                &spec.anonymous_user,
            )
        })
        .collect();
    // The owners' listings are read a batch at a time (`scan_many`: few round trips for many
    // owners, and at most a batch's values held at once), then each owner is placed in order.
    for (ids, bases) in ids
        .chunks(OWNERS_PER_READ)
        .zip(bases.chunks(OWNERS_PER_READ))
    {
        let with_folder: Vec<Vec<String>> = ids
            .iter()
            .zip(bases)
            .filter(|((_, id), _)| has_folder(config.scope, id))
            .map(|(_, base)| base.clone())
            .collect();
        let mut scans = backend.scan_many(&with_folder).into_iter();
        for ((_, id), base) in ids.iter().zip(bases) {
            let Some(dir) = owner_folder(files, config, id, base, &mut loaded) else {
                continue;
            };
            let scan = scans.next().unwrap_or_else(|| backend.scan(base));
            let owner = OwnerRead {
                base,
                exact: &exact,
                all,
                dir: &dir,
            };
            let Some((scan, only_read)) = read_owner(files, backend, &owner, scan, &mut loaded)?
            else {
                continue;
            };
            place(
                files,
                &dir,
                &base[..],
                scan,
                &only_read,
                &mut loaded,
                config.scope,
            );
            loaded.owners.push(id.clone());
        }
    }
    load_tools_json(files, config, backend, spec, &agent, &mut loaded)?;
    Ok(loaded)
}

/// The owners to read, as (store id, folder name): the ids given, every owner the store lists,
/// or the call's; under the agent and global scopes the one anonymous owner, at the workspace.
fn owner_ids(
    backend: &mut dyn StoreBackend,
    config: &Config,
    owners: &Owners,
    exact: &[ExactRead],
    loaded: &mut StoreLoad,
) -> Result<Vec<(Option<String>, String)>, StoreError> {
    let ids: Vec<(Option<String>, String)> = match owners {
        Owners::Ids(ids) => ids.iter().map(|i| (Some(i.clone()), i.clone())).collect(),
        Owners::All => {
            let listed = list_owners(backend, config, exact)?;
            loaded.notes = listed.notes;
            listed
                .ids
                .into_iter()
                .map(|i| (Some(i.clone()), i))
                .collect()
        }
        Owners::Call { id, folder } => vec![(id.clone(), folder.clone())],
    };
    Ok(match config.scope {
        Scope::Agent | Scope::Global => vec![(None, String::new())],
        _ => ids,
    })
}

/// The folder an owner's files go to. Under the user and session scopes, `<ws>/<id>` with its
/// routed folders emptied (the store's replace them), or `None`, reported, for an id that names
/// no folder; under the agent and global scopes the workspace itself.
fn owner_folder(
    files: &mut FileSet,
    config: &Config,
    id: &str,
    base: &[String],
    loaded: &mut StoreLoad,
) -> Option<PathBuf> {
    match config.scope {
        Scope::User | Scope::Session => {
            let dir = config.workspace.join(id);
            if !has_folder(config.scope, id) {
                let path = dir.clone();
                files.set_origin(path.clone(), origin_label(base, "").into());
                loaded.diagnostics.push(store_id_not_a_folder::RULE.at(
                    &path,
                    TextRange::empty(0),
                    format!(
                        "id `{}` has no per-user folder agentws can check; skipped",
                        id.escape_debug()
                    ),
                ));
                return None;
            }
            for (_, folder) in SEGMENTS {
                match folder {
                    Some(folder) => {
                        files.remove_under(&dir.join(folder));
                    }
                    None => {
                        for key in ROOT_KEYS {
                            files.remove(&dir.join(&key[1..]));
                        }
                    }
                }
            }
            files.insert_dir(dir.clone());
            files.mark_stored(dir.clone());
            Some(dir)
        }
        Scope::Agent | Scope::Global => Some(config.workspace.clone()),
    }
}

/// Whether an owner's files have a folder to go to under `scope` (`owner_folder` reports the ids
/// that have none).
fn has_folder(scope: Scope, id: &str) -> bool {
    match scope {
        Scope::User | Scope::Session => {
            layout::is_namespace_name(id) && !id.contains(['/', '\\']) && !id.is_empty()
        }
        Scope::Agent | Scope::Global => true,
    }
}

/// One owner to read: its namespace, the keys the prompt reads by path, whether to look for
/// every row the listings miss, and the folder its files go to.
struct OwnerRead<'a> {
    base: &'a [String],
    exact: &'a [ExactRead],
    all: bool,
    dir: &'a Path,
}

/// The keys of rows no listing of the runtime returns, read by their exact path only.
type OnlyRead = std::collections::HashSet<(Vec<String>, String)>;

/// What the store lists for one owner (`scan`, its listing as read) with what it misses but the
/// runtime reads, and which rows are the latter; `None`, reported on the owner's folder, when the store refuses to read its
/// entries (the other owners are still read).
fn read_owner(
    files: &mut FileSet,
    backend: &mut dyn StoreBackend,
    owner: &OwnerRead,
    scan: Result<Scan, StoreError>,
    loaded: &mut StoreLoad,
) -> Result<Option<(Scan, OnlyRead)>, StoreError> {
    let read = scan.and_then(|scan| {
        Ok((
            backend.unlisted(owner.base, owner.exact, owner.all, &scan)?,
            scan,
        ))
    });
    let (unlisted, mut scan) = match read {
        Ok(read) => read,
        Err(err) if err.entries => {
            files.set_origin(owner.dir.to_path_buf(), origin_label(owner.base, "").into());
            loaded.diagnostics.push(store_entry_unreadable::RULE.at(
                owner.dir,
                TextRange::empty(0),
                format!("the entries of this id cannot be read: {}", err.message),
            ));
            return Ok(None);
        }
        Err(err) => return Err(err),
    };
    let only_read: OnlyRead = unlisted
        .items
        .iter()
        .map(|i| (i.namespace.clone(), i.key.clone()))
        .collect();
    scan.items.extend(unlisted.items);
    scan.problems.extend(unlisted.problems);
    Ok(Some((scan, only_read)))
}

/// tools.json: read once at build with an empty context, from the anonymous namespace's `root`.
fn load_tools_json(
    files: &mut FileSet,
    config: &Config,
    backend: &mut dyn StoreBackend,
    spec: &StoreSpec,
    agent: &str,
    loaded: &mut StoreLoad,
) -> Result<(), StoreError> {
    let anonymous = base_namespace(config.scope, agent, None, &spec.anonymous_user);
    let mut root_ns = anonymous.clone();
    root_ns.push("root".into());
    let mut scan = backend.scan(&anonymous)?;
    let tools = [ExactRead::new("root", "/tools.json".into(), READ_BY_PROMPT)];
    scan.items
        .extend(backend.unlisted(&anonymous, &tools, false, &scan)?.items);
    if let Some(item) = scan
        .items
        .iter()
        .find(|i| i.namespace == root_ns && i.key == "/tools.json")
    {
        if let Decoded::Text { content, .. } = decode(item.value.as_deref()) {
            if !content.is_empty() {
                let path = config.workspace.join("tools.json");
                files.insert(path.clone(), FileContent::Text(Arc::from(content)), None);
                files.set_origin(path, origin_label(&root_ns, &item.key).into());
                loaded.files += 1;
            }
        }
    }
    Ok(())
}

/// What reading a store into a workspace gave: the workspace's file set with the stored files
/// in it and the configuration in remote filesystem mode, from which the caller builds its
/// snapshot (`Workspace::build`, or the analysis that built the workspace read into).
pub struct Read {
    pub config: Arc<Config>,
    pub files: FileSet,
    pub loaded: StoreLoad,
    /// The store URL with its password masked.
    pub shown: String,
}

impl Read {
    /// The snapshot of the stored files over `ws`, the workspace they were read into, parsed here
    /// (documents of unchanged files reused), the file set moved into it: for a caller that
    /// keeps no analysis engine.
    pub fn parsed_snapshot(
        &mut self,
        ws: &crate::workspace::Workspace,
    ) -> crate::workspace::Workspace {
        crate::workspace::Workspace::build(
            self.config.clone(),
            ws.config_diagnostics.to_vec(),
            Arc::new(std::mem::take(&mut self.files)),
            ws.env.clone(),
            Some(ws),
        )
    }
}

/// Reads the store of `ws.config` (or `url`) for `owners` into a copy of `ws`'s file set, with
/// the configuration in remote filesystem mode. `${VAR}` in the URL comes from `ws.env`; a
/// relative SQLite path is relative to agentws.toml (else `cwd`).
pub fn read_into(
    ws: &crate::workspace::Workspace,
    url: Option<&str>,
    owners: &Owners,
    cwd: &Path,
    cancel: &io::Cancel,
) -> Result<Read, StoreError> {
    let spec = StoreSpec::new(&ws.config.store, url, &ws.env, &url_base(&ws.config, cwd))?;
    let mut backend = spec.open(cancel)?;
    let mut config = (*ws.config).clone();
    config.filesystem.mode = crate::config::FilesystemMode::Remote;
    let mut files = (*ws.files).clone();
    let loaded = load_into(&mut files, &config, backend.as_mut(), &spec, owners)?;
    Ok(Read {
        config: Arc::new(config),
        files,
        loaded,
        shown: spec.shown.clone(),
    })
}

/// The owner a call reads (its store id, and the per-call folder its files go to).
pub fn call_owners(
    config: &Config,
    session: &crate::context::SessionContext,
) -> Result<Owners, crate::context::ContextError> {
    let root = crate::context::effective_root(config, session)?;
    let id = match session.scope {
        Scope::User => session.user_id.clone(),
        Scope::Session => Some(root.ids.session_id.clone()),
        Scope::Agent | Scope::Global => None,
    };
    Ok(Owners::Call {
        id,
        folder: root.namespace.clone().unwrap_or_default(),
    })
}

/// Key problems that make a key unreachable by routed paths (RS001, RS002).
fn key_problem(key: &str) -> Option<(&'static crate::rules::Rule, String)> {
    match store_key_not_absolute::check(key) {
        Some(message) => Some((&store_key_not_absolute::RULE, message)),
        None => {
            store_key_unreachable::check(key).map(|message| (&store_key_unreachable::RULE, message))
        }
    }
}

/// Puts one owner's scan into `files` under its folder `dir`: each item at the path its route
/// reads, each problem on its item or, for one without a file of its own, on a stand-in path.
fn place(
    files: &mut FileSet,
    dir: &Path,
    base: &[String],
    scan: Scan,
    only_read: &OnlyRead,
    loaded: &mut StoreLoad,
    scope: Scope,
) {
    for (ns, key, rule, message) in scan.problems {
        let path = problem_path(files, dir, base, &ns, &key);
        loaded
            .diagnostics
            .push(rule.at(&path, TextRange::empty(0), message));
    }
    let per_caller = !matches!(scope, Scope::Agent | Scope::Global);
    for item in scan.items {
        let Some((path, in_root)) = routed_path(files, dir, base, &item, loaded) else {
            continue;
        };
        let origin: Arc<str> = origin_label(&item.namespace, &item.key).into();
        if let Some(message) = store_user_tools_json::check(&item.key, in_root, per_caller) {
            files.set_origin(path.clone(), origin);
            loaded.diagnostics.push(store_user_tools_json::RULE.at(
                &path,
                TextRange::empty(0),
                message,
            ));
            continue;
        }
        let content = stored_content(&item, &path, in_root, loaded);
        // Read by its exact path only: a listing misses it, unless the template's own file at
        // this path (agent and global scopes) is listed.
        let unlisted = !only_read.is_empty()
            && only_read.contains(&(item.namespace.clone(), item.key.clone()))
            && !files.contains_file(&path);
        files.insert(path.clone(), content, None);
        if unlisted {
            files.mark_unlisted(path.clone());
        }
        files.set_origin(path, origin);
        loaded.files += 1;
    }
}

/// Where a problem that has no file of its own sits: a path under the owner's folder named after
/// the namespace and key, labelled with them.
fn problem_path(
    files: &mut FileSet,
    dir: &Path,
    base: &[String],
    ns: &[String],
    key: &str,
) -> PathBuf {
    let mut path = dir.join(".store");
    for seg in ns.iter().skip(base.len()) {
        path.push(sanitize(seg));
    }
    path.push(sanitize(key.trim_start_matches('/')));
    files.set_origin(path.clone(), origin_label(ns, key).into());
    path
}

/// The path the runtime's routes read `item` at under the owner's folder, and whether it is in
/// the `root` namespace; `None` for an item no route reads as a file (reported, unless its
/// namespace is simply not a workspace one).
fn routed_path(
    files: &mut FileSet,
    dir: &Path,
    base: &[String],
    item: &RawItem,
    loaded: &mut StoreLoad,
) -> Option<(PathBuf, bool)> {
    let rel_ns = &item.namespace[base.len().min(item.namespace.len())..];
    let segment = match rel_ns {
        [segment] => segment.as_str(),
        _ => {
            let path = problem_path(files, dir, base, &item.namespace, &item.key);
            loaded.diagnostics.push(store_child_namespace::RULE.at(
                &path,
                TextRange::empty(0),
                format!(
                    "row in namespace `{}`, below a file namespace: listed, never read",
                    item.namespace.join("/").escape_debug()
                ),
            ));
            return None;
        }
    };
    // A namespace no route reads (e.g. sessions, tasks): not a workspace file here.
    let (_, folder) = SEGMENTS.iter().find(|(s, _)| *s == segment)?;
    if let Some((rule, message)) = key_problem(&item.key) {
        let path = problem_path(files, dir, base, &item.namespace, &item.key);
        loaded
            .diagnostics
            .push(rule.at(&path, TextRange::empty(0), message));
        return None;
    }
    let rel = &item.key[1..];
    let path = match folder {
        Some(folder) => dir.join(folder).join(rel),
        None if ROOT_KEYS.contains(&item.key.as_str()) => dir.join(rel),
        None => {
            let path = problem_path(files, dir, base, &item.namespace, &item.key);
            loaded.diagnostics.push(store_root_stray_key::RULE.at(
                &path,
                TextRange::empty(0),
                format!(
                    "key `{}` in the `root` namespace is never listed or loaded",
                    item.key.escape_debug()
                ),
            ));
            return None;
        }
    };
    Some((path, folder.is_none()))
}

/// The file content of a stored value, with the problems of its encoding and content: an
/// oversized value is a file over the size cap (WS005 reports it at the store location), a value
/// that is not the runtime's JSON document an unreadable file.
fn stored_content(
    item: &RawItem,
    path: &Path,
    in_root: bool,
    loaded: &mut StoreLoad,
) -> FileContent {
    match (item.oversized, decode(item.value.as_deref())) {
        (Some(size), _) => FileContent::TooLarge { size },
        (None, Decoded::Text { content, encoding }) => {
            if let Some(message) = store_value_encoding::check(&encoding) {
                loaded.diagnostics.push(store_value_encoding::RULE.at(
                    path,
                    TextRange::empty(0),
                    message,
                ));
            }
            if let Some(message) = store_empty_content::check(&content, in_root) {
                loaded.diagnostics.push(store_empty_content::RULE.at(
                    path,
                    TextRange::empty(0),
                    message,
                ));
            }
            FileContent::Text(Arc::from(content))
        }
        (None, Decoded::NotJson(why)) => {
            loaded.diagnostics.push(store_value_not_json::RULE.at(
                path,
                TextRange::empty(0),
                format!("the stored value is {why}"),
            ));
            FileContent::Unreadable {
                error: "the stored value is not a JSON object".into(),
            }
        }
        (None, Decoded::NoContent(why)) => {
            loaded.diagnostics.push(store_value_no_content::RULE.at(
                path,
                TextRange::empty(0),
                format!("unreadable entry: {why}"),
            ));
            FileContent::Unreadable {
                error: "the stored value has no content".into(),
            }
        }
    }
}

/// A namespace segment or key as one path component (only for naming problem locations).
fn sanitize(s: &str) -> String {
    let s: String = s
        .chars()
        .map(|c| {
            if c == '/' || c == '\\' || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    if s.is_empty() || s == "." || s == ".." {
        format!("_{s}")
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn namespaces_per_scope_with_the_runtime_fallbacks() {
        assert_eq!(
            base_namespace(Scope::User, "bot", Some("alice"), "_default").join("|"),
            "agents|bot|users|alice"
        );
        assert_eq!(
            base_namespace(Scope::User, "bot", Some(" "), "_default").join("|"),
            "agents|bot|users|_default"
        );
        assert_eq!(
            base_namespace(Scope::Session, "bot", None, "_default").join("|"),
            "agents|bot|sessions|default"
        );
        assert_eq!(
            base_namespace(Scope::Agent, "bot", Some("x"), "_").join("|"),
            "agents|bot|shared"
        );
        assert_eq!(
            base_namespace(Scope::Global, "bot", None, "_").join("|"),
            "global"
        );
    }

    #[test]
    fn client_certificates_come_out_of_the_url() {
        assert_eq!(
            take_client_cert("rediss://h/0?sslcert=/a/c%20d.pem&x=1&sslkey=k.pem"),
            Ok((
                "rediss://h/0?x=1".to_string(),
                Some(ClientCertPaths {
                    cert: PathBuf::from("/a/c d.pem"),
                    key: PathBuf::from("k.pem")
                })
            ))
        );
        assert_eq!(
            take_client_cert("postgres://h/db?sslmode=require"),
            Ok(("postgres://h/db?sslmode=require".to_string(), None))
        );
        assert_eq!(
            take_client_cert("rediss://h?sslkey=k.pem"),
            Err("sslkey needs sslcert (the client certificate)".to_string())
        );
    }

    #[test]
    fn values_decode_as_the_runtime_reads_them() {
        assert_eq!(
            decode(Some(r#"{"content":"a\nb","encoding":"utf-8"}"#)),
            Decoded::Text {
                content: "a\nb".into(),
                encoding: "utf-8".into()
            }
        );
        // The legacy array-of-lines form, joined with String.valueOf.
        assert_eq!(
            decode(Some(r#"{"content":["a",1,null]}"#)),
            Decoded::Text {
                content: "a\n1\nnull".into(),
                encoding: "utf-8".into()
            }
        );
        assert_eq!(
            decode(Some(r#"{"content":"x","encoding":null}"#)),
            Decoded::Text {
                content: "x".into(),
                encoding: "null".into()
            }
        );
        assert!(matches!(decode(Some("[1]")), Decoded::NotJson(_)));
        assert!(matches!(decode(Some("{")), Decoded::NotJson(_)));
        assert!(matches!(
            decode(Some(r#"{"content":3}"#)),
            Decoded::NoContent(_)
        ));
        assert!(matches!(decode(None), Decoded::NoContent(_)));
    }

    #[test]
    fn routes_and_the_keys_read_by_path() {
        assert_eq!(route("AGENTS.md"), Some(("root", "/AGENTS.md".into())));
        assert_eq!(
            route("/skills/a/SKILL.md"),
            Some(("skills", "/a/SKILL.md".into()))
        );
        assert_eq!(route("knowledge/x.md"), Some(("knowledge", "/x.md".into())));
        assert_eq!(route("docs/notes.md"), None);
        assert_eq!(route("Skills/a"), None);
        let mut config = Config::defaults_for(Path::new("/p"));
        config.agent.additional_context_files = vec![
            "memory/notes.md".into(),
            "docs/x.md".into(),
            "AGENTS.md".into(),
        ];
        let mut files = FileSet::new();
        for path in [
            "skills/a/SKILL.md",
            "skills/a/notes.md",
            "subagents/p.md",
            "subagents/p.txt",
            "knowledge/k.md",
        ] {
            files.insert_text(config.workspace.join(path), "x");
        }
        let keys: Vec<String> = exact_read_keys(&config, &files)
            .into_iter()
            .map(|k| format!("{}:{}", k.segment, k.key))
            .collect();
        assert_eq!(
            keys,
            [
                "root:/AGENTS.md",
                "root:/MEMORY.md",
                "root:/tools.json",
                "knowledge:/KNOWLEDGE.md",
                "memory:/notes.md",
                "skills:/a/SKILL.md",
                "subagents:/p.md"
            ]
        );
    }

    #[test]
    fn ssl_mode_is_taken_out_of_the_url() {
        assert_eq!(
            take_ssl_mode("mysql://u@h/db?ssl-mode=REQUIRED&root_cert_path=/ca.pem").unwrap(),
            ("mysql://u@h/db?root_cert_path=/ca.pem".to_string(), true)
        );
        assert_eq!(
            take_ssl_mode("postgres://u@h/db?application_name=x&sslmode=verify-full").unwrap(),
            ("postgres://u@h/db?application_name=x".to_string(), true)
        );
        assert_eq!(
            take_ssl_mode("mysql://u@h/db?sslmode=disabled").unwrap(),
            ("mysql://u@h/db".to_string(), false)
        );
        assert_eq!(
            take_ssl_mode("postgres://u@h/db").unwrap(),
            ("postgres://u@h/db".to_string(), false)
        );
        assert!(take_ssl_mode("mysql://u@h/db?ssl-mode=maybe")
            .unwrap_err()
            .starts_with("ssl-mode `maybe` is not one of"));
    }

    #[test]
    fn odd_keys_are_found() {
        assert_eq!(key_problem("foo/SKILL.md").unwrap().0.code, "RS001");
        for key in ["/foo//SKILL.md", "/foo/./x", "/../x", "/foo/", "/a\\b"] {
            assert_eq!(key_problem(key).unwrap().0.code, "RS002", "{key}");
        }
        assert!(key_problem("/foo/SKILL.md").is_none());
    }

    #[test]
    fn urls_parse_and_never_show_the_password() {
        let env: Env = [("PW".to_string(), "hunter2".to_string())].into();
        let config = StoreConfig::default();
        let spec = StoreSpec::new(
            &config,
            Some("redis://:${PW}@h:6379/0"),
            &env,
            Path::new("/p"),
        )
        .unwrap();
        assert_eq!(spec.kind, StoreKind::Redis);
        assert_eq!(spec.shown, "redis://:***@h:6379/0");
        assert_eq!(spec.prefix, "agentscope:store:");
        assert_eq!(spec.scrub("bad pass hunter2"), "bad pass ***");
        let spec =
            StoreSpec::new(&config, Some("sqlite://data/ws.db"), &env, Path::new("/p")).unwrap();
        assert_eq!(spec.kind, StoreKind::Sqlite(PathBuf::from("/p/data/ws.db")));
        let err =
            StoreSpec::new(&config, Some("ftp://u:hunter2@h"), &env, Path::new("/p")).unwrap_err();
        assert!(!err.message.contains("hunter2"), "{err}");
        let err =
            StoreSpec::new(&config, Some("redis://:${NOPE}@h"), &env, Path::new("/p")).unwrap_err();
        assert!(err.message.contains("NOPE"), "{err}");
    }
}
