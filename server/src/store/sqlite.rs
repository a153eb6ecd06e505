//! SQLite stores: `JdbcStore` with the SQLite dialect (table `agentscope_store`, namespaces as
//! `\x1F`-terminated segments, prefix search with `LIKE … ESCAPE '!'`) and the coding agent's
//! `SqliteBaseStore` (table `store`, segments joined with `/`, exact-namespace search ordered by
//! `updated_at DESC`). The database is opened read-only and with `query_only` set, so nothing can
//! be written whatever the SQL. Depends only on the store module.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rusqlite::types::ValueRef;
use rusqlite::{Connection, ErrorCode, OpenFlags};

use super::io;
use super::{RawItem, Scan, StoreBackend, StoreError, StoreSpec, PAGE_SIZE, SEGMENTS};
use crate::base::files::MAX_TEXT_BYTES;
use crate::config::StoreLayout;
use crate::rules::store::{store_id_collation, store_id_separator, store_listing_cut};

/// `JdbcStore`'s namespace separator: each segment is followed by it.
pub const JDBC_SEPARATOR: char = '\u{1F}';

pub struct SqliteBackend {
    conn: Connection,
    layout: StoreLayout,
    table: String,
    spec: StoreSpec,
    path: std::path::PathBuf,
    /// When the running query must end (the progress handler interrupts it then).
    deadline: Arc<Mutex<Instant>>,
    /// The table's distinct namespaces by their lowercase form (`namespaces_like`).
    namespace_index: Option<Vec<(String, String)>>,
}

/// SQLite's `SQLITE_MAX_LIKE_PATTERN_LENGTH` (the same in the runtime's driver): a longer LIKE
/// pattern is refused.
const MAX_LIKE_PATTERN_BYTES: usize = 50_000;

/// SQLite virtual machine instructions between two looks at the deadline: often enough to stop
/// within milliseconds, rarely enough to cost nothing measurable.
const PROGRESS_EVERY: i32 = 10_000;

impl SqliteBackend {
    pub fn open(spec: &StoreSpec, path: &Path, cancel: &io::Cancel) -> Result<Self, StoreError> {
        if !path.is_file() {
            return Err(StoreError::new(format!(
                "store `{}`: no database file at `{}`",
                spec.shown,
                path.display()
            )));
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let mut conn = Connection::open_with_flags(path, flags)
            .map_err(|e| spec.error("cannot open the SQLite store", e))?;
        // A query (a recursive view, a huge scan) ends at its deadline or when the read is
        // cancelled; a database locked by another connection is waited for as long.
        let deadline = Arc::new(Mutex::new(Instant::now() + spec.connect_timeout));
        let (until, cancel) = (deadline.clone(), cancel.clone());
        conn.progress_handler(
            PROGRESS_EVERY,
            Some(move || {
                cancel.is_cancelled()
                    || Instant::now() > *until.lock().unwrap_or_else(|e| e.into_inner())
            }),
        )
        .map_err(|e| spec.error("cannot open the SQLite store", e))?;
        conn.busy_timeout(spec.connect_timeout)
            .and_then(|_| conn.pragma_update(None, "query_only", true))
            .map_err(|e| spec.error("cannot open the SQLite store", e))?;
        Ok(Self {
            conn,
            layout: spec.layout,
            table: spec.table.clone(),
            spec: spec.clone(),
            path: path.to_path_buf(),
            deadline,
            namespace_index: None,
        })
    }

    /// The namespaces the runtime's `LIKE '<prefix>%'` lists (SQLite's LIKE ignores ASCII case),
    /// in the order of the table's key. Found in the table's distinct namespaces, read once per
    /// command and kept sorted by their lowercase form, so each owner costs a binary search.
    fn namespaces_like(&mut self, prefix: &str) -> Result<Vec<String>, StoreError> {
        if self.namespace_index.is_none() {
            let sql = format!("SELECT DISTINCT namespace_path FROM {}", self.table);
            self.start_query();
            let mut stmt = self.conn.prepare(&sql).map_err(|e| self.fail(e))?;
            let mut rows = stmt.query([]).map_err(|e| self.fail(e))?;
            let mut index = Vec::new();
            while let Some(row) = rows.next().map_err(|e| self.fail(e))? {
                let text = text_of(row.get_ref_unwrap(0)).unwrap_or_default();
                index.push((text.to_ascii_lowercase(), text));
            }
            drop(rows);
            drop(stmt);
            index.sort();
            self.namespace_index = Some(index);
        }
        let index = self.namespace_index.as_deref().unwrap_or_default();
        let lower = prefix.to_ascii_lowercase();
        let start = index.partition_point(|(l, _)| l.as_str() < lower.as_str());
        let mut found: Vec<String> = index[start..]
            .iter()
            .take_while(|(l, _)| l.starts_with(&lower))
            .map(|(_, text)| text.clone())
            .collect();
        found.sort();
        Ok(found)
    }

    /// Starts the deadline of the next query.
    fn start_query(&self) {
        *self.deadline.lock().unwrap_or_else(|e| e.into_inner()) =
            Instant::now() + self.spec.connect_timeout;
    }

    fn fail(&self, e: rusqlite::Error) -> StoreError {
        let detail = e.to_string();
        let database = format!("the SQLite database `{}`", self.path.display());
        let limit = io::seconds(self.spec.connect_timeout);
        let words = match &e {
            rusqlite::Error::SqliteFailure(f, _) if f.code == ErrorCode::OperationInterrupted => {
                io::timed_out(self.spec.connect_timeout, "reading", &database)
            }
            rusqlite::Error::SqliteFailure(f, _)
                if matches!(f.code, ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) =>
            {
                format!("{database} stayed locked by another connection for {limit} (store.connect_timeout)")
            }
            rusqlite::Error::SqliteFailure(_, Some(m)) if m.starts_with("no such table: ") => {
                format!(
                    "the table `{}` does not exist in {database}",
                    &m["no such table: ".len()..]
                )
            }
            // The id (or key) makes the runtime's own search fail: only this owner's entries.
            rusqlite::Error::SqliteFailure(f, m)
                if f.code == ErrorCode::TooBig
                    || m.as_deref()
                        .is_some_and(|m| m.contains("pattern too complex")) =>
            {
                return self.spec.entries_failure(
                    &format!("SQLite refuses the runtime's prefix search for them ({detail})"),
                    &detail,
                );
            }
            _ => detail.clone(),
        };
        self.spec
            .failure("reading the SQLite store failed", &words, &detail)
    }

    /// `SqliteBaseStore` joins segments with `/`, so the namespaces of an id holding `/`
    /// (`team/alice`) lie below those of another id (`team`) and read as one of its deeper
    /// namespaces: reported (RS008) for the shorter id, and not read.
    fn ids_with_slash(&self, base: &[String], scan: &mut Scan) -> Result<(), StoreError> {
        let head = format!("{}/", base_store_namespace(base));
        // Every text that starts with `…/id/` sorts between it and `…/id0` (`0` follows `/`):
        // a range the namespace index answers, compared exactly as the runtime compares.
        let end = format!("{}0", base_store_namespace(base));
        let sql = format!(
            "SELECT DISTINCT namespace FROM {} WHERE namespace > ?1 AND namespace < ?2 ORDER BY namespace",
            self.table
        );
        self.start_query();
        let mut stmt = self.conn.prepare(&sql).map_err(|e| self.fail(e))?;
        let mut rows = stmt.query([&head, &end]).map_err(|e| self.fail(e))?;
        while let Some(row) = rows.next().map_err(|e| self.fail(e))? {
            let text = text_of(row.get_ref_unwrap(0)).unwrap_or_default();
            let Some(rest) = text.strip_prefix(&head) else {
                continue;
            };
            let parts: Vec<&str> = rest.split('/').collect();
            let [id_tail @ .., segment] = parts.as_slice() else {
                continue;
            };
            // One level below is a route of this id (`skills`, or an `addSharedPrefix` one).
            if id_tail.is_empty() || !ROUTE_SEGMENTS.contains(segment) {
                continue;
            }
            let id = base.last().map(String::as_str).unwrap_or("");
            let mut namespace = base.to_vec();
            namespace.extend(parts.iter().map(|p| p.to_string()));
            scan.problems.push((
                namespace,
                String::new(),
                &store_id_separator::RULE,
                format!(
                    "namespace `{}` is the `{segment}` namespace of id `{id}/{}`: SqliteBaseStore joins segments with `/`, so it cannot be told apart from a deeper namespace of `{id}`; not read",
                    text.escape_debug(),
                    id_tail.join("/").escape_debug(),
                ),
            ));
        }
        Ok(())
    }

    /// `JdbcStore`: the rows the runtime's LIKE prefix search lists (every route of the owner at
    /// once: its per-route searches are prefixes of this one), found as the namespaces that match
    /// it, each read through the primary key: the LIKE itself scans the whole table, once per
    /// owner, which made checking every owner quadratic.
    fn scan_jdbc(&mut self, base: &[String], scan: &mut Scan) -> Result<(), StoreError> {
        let limit = MAX_TEXT_BYTES as i64;
        if jdbc_like(base).len() > MAX_LIKE_PATTERN_BYTES {
            return Err(Self::pattern_too_long(&self.spec));
        }
        let exact = jdbc_namespace(base);
        let listed = self.namespaces_like(&exact)?;
        let sql = format!(
            "SELECT namespace_path, item_key, \
             CASE WHEN length(CAST(value_json AS BLOB)) > ?2 THEN NULL ELSE value_json END, \
             length(CAST(value_json AS BLOB)) \
             FROM {} WHERE namespace_path = ?1 ORDER BY item_key",
            self.table
        );
        for ns_text in listed {
            self.start_query();
            let mut stmt = self.conn.prepare_cached(&sql).map_err(|e| self.fail(e))?;
            let mut rows = stmt
                .query(rusqlite::params![ns_text, limit])
                .map_err(|e| self.fail(e))?;
            while let Some(row) = rows.next().map_err(|e| self.fail(e))? {
                let row = JdbcRow::of(row);
                row.into_scan(base, &exact, scan);
            }
        }
        Ok(())
    }

    /// `scan_jdbc` of each of `bases` (the same answers in the same order) in one query per
    /// [`NAMESPACES_PER_QUERY`] namespaces, not one per namespace: the namespaces every owner's
    /// LIKE lists, in the table's key order, each row given to every owner that lists it.
    fn scan_jdbc_many(
        &mut self,
        bases: &[Vec<String>],
    ) -> Result<Vec<Result<Scan, StoreError>>, StoreError> {
        let limit = MAX_TEXT_BYTES as i64;
        let mut scans: Vec<Result<Scan, StoreError>> = Vec::with_capacity(bases.len());
        let mut exacts = Vec::with_capacity(bases.len());
        // Namespace → the owners whose LIKE lists it (an owner's case variants list it too).
        let mut listers: std::collections::BTreeMap<String, Vec<usize>> = Default::default();
        for (i, base) in bases.iter().enumerate() {
            let exact = jdbc_namespace(base);
            if jdbc_like(base).len() > MAX_LIKE_PATTERN_BYTES {
                scans.push(Err(Self::pattern_too_long(&self.spec)));
            } else {
                for ns in self.namespaces_like(&exact)? {
                    listers.entry(ns).or_default().push(i);
                }
                scans.push(Ok(Scan::default()));
            }
            exacts.push(exact);
        }
        let listed: Vec<&String> = listers.keys().collect();
        for part in listed.chunks(NAMESPACES_PER_QUERY) {
            let placeholders = placeholders_from_2(part.len());
            let sql = format!(
                "SELECT namespace_path, item_key, \
                 CASE WHEN length(CAST(value_json AS BLOB)) > ?1 THEN NULL ELSE value_json END, \
                 length(CAST(value_json AS BLOB)) \
                 FROM {} WHERE namespace_path IN ({placeholders}) ORDER BY namespace_path, item_key",
                self.table
            );
            let mut params: Vec<rusqlite::types::Value> = vec![limit.into()];
            params.extend(
                part.iter()
                    .map(|ns| rusqlite::types::Value::Text((*ns).clone())),
            );
            self.start_query();
            let mut stmt = self.conn.prepare(&sql).map_err(|e| self.fail(e))?;
            let mut rows = stmt
                .query(rusqlite::params_from_iter(params))
                .map_err(|e| self.fail(e))?;
            while let Some(row) = rows.next().map_err(|e| self.fail(e))? {
                let row = JdbcRow::of(row);
                let owners = listers
                    .get(&row.ns_text)
                    .map(Vec::as_slice)
                    .unwrap_or_default();
                let Some((&last, others)) = owners.split_last() else {
                    continue;
                };
                for &i in others {
                    if let Ok(scan) = &mut scans[i] {
                        row.clone().into_scan(&bases[i], &exacts[i], scan);
                    }
                }
                if let Ok(scan) = &mut scans[last] {
                    row.into_scan(&bases[last], &exacts[last], scan);
                }
            }
        }
        Ok(scans)
    }

    /// The refusal of a LIKE pattern over SQLite's limit (only this owner's entries).
    fn pattern_too_long(spec: &StoreSpec) -> StoreError {
        spec.entries_failure(
            "SQLite refuses the runtime's prefix search for them (LIKE or GLOB pattern too complex)",
            &format!("the LIKE pattern is over SQLite's {MAX_LIKE_PATTERN_BYTES}-byte limit"),
        )
    }

    /// `SqliteBaseStore`: the rows of each route namespace of the owner, newest first, as its
    /// exact-namespace search pages them.
    fn scan_base_store(&mut self, base: &[String], scan: &mut Scan) -> Result<(), StoreError> {
        let limit = MAX_TEXT_BYTES as i64;
        let names: Vec<String> = SEGMENTS
            .iter()
            .map(|(seg, _)| {
                let mut ns = base.to_vec();
                ns.push(seg.to_string());
                base_store_namespace(&ns)
            })
            .collect();
        let placeholders = placeholders_from_2(names.len());
        let sql = format!(
            "SELECT namespace, key, \
             CASE WHEN length(CAST(value AS BLOB)) > ?1 THEN NULL ELSE value END, \
             length(CAST(value AS BLOB)), updated_at \
             FROM {} WHERE namespace IN ({placeholders}) ORDER BY namespace, updated_at DESC",
            self.table
        );
        self.start_query();
        let mut stmt = self.conn.prepare(&sql).map_err(|e| self.fail(e))?;
        let mut params: Vec<rusqlite::types::Value> = vec![limit.into()];
        params.extend(
            names
                .iter()
                .map(|n| rusqlite::types::Value::Text(n.clone())),
        );
        let mut rows = stmt
            .query(rusqlite::params_from_iter(params))
            .map_err(|e| self.fail(e))?;
        let mut last: Option<(String, usize, Option<i64>)> = None;
        while let Some(row) = rows.next().map_err(|e| self.fail(e))? {
            let ns_text = text_of(row.get_ref_unwrap(0)).unwrap_or_default();
            let key = text_of(row.get_ref_unwrap(1)).unwrap_or_default();
            let value = text_of(row.get_ref_unwrap(2));
            let size: Option<i64> = row.get(3).ok();
            let updated: Option<i64> = row.get(4).ok();
            // Map the joined name back to base + segment (the one this query asked for).
            let seg = ns_text
                .strip_prefix(&base_store_namespace(base))
                .and_then(|s| s.strip_prefix('/'))
                .unwrap_or("")
                .to_string();
            let mut namespace = base.to_vec();
            namespace.push(seg);
            let position = match &last {
                Some((n, i, _)) if *n == ns_text => i + 1,
                _ => 0,
            };
            if tie_across_page(position, last.as_ref().map(|(_, _, prev)| *prev), updated) {
                scan.problems.push((
                    namespace.clone(),
                    key.clone(),
                    &store_listing_cut::RULE,
                    format!(
                        "more than {PAGE_SIZE} entries with the same `updated_at` across a page boundary: paging by OFFSET over `updated_at DESC` can skip or repeat entries here"
                    ),
                ));
            }
            last = Some((ns_text, position, updated));
            let oversized = size.filter(|s| *s > limit).map(|s| s as u64);
            scan.items.push(RawItem {
                namespace,
                key,
                value,
                oversized,
            });
        }
        Ok(())
    }
}

/// Namespaces read by one query of `scan_jdbc_many`: far below SQLite's limit on a statement's
/// parameters.
const NAMESPACES_PER_QUERY: usize = 500;

/// One row of a `JdbcStore` table as `scan_jdbc` selects it.
#[derive(Clone)]
struct JdbcRow {
    ns_text: String,
    key: String,
    value: Option<String>,
    size: Option<i64>,
}

impl JdbcRow {
    fn of(row: &rusqlite::Row<'_>) -> JdbcRow {
        JdbcRow {
            ns_text: text_of(row.get_ref_unwrap(0)).unwrap_or_default(),
            key: text_of(row.get_ref_unwrap(1)).unwrap_or_default(),
            value: text_of(row.get_ref_unwrap(2)),
            size: row.get(3).ok(),
        }
    }

    /// The row as the listing of the owner of `base` (`exact`: its namespace path) gives it.
    fn into_scan(self, base: &[String], exact: &str, scan: &mut Scan) {
        let JdbcRow {
            ns_text,
            key,
            value,
            size,
        } = self;
        let namespace = split_jdbc(&ns_text);
        if !ns_text.starts_with(exact) {
            // SQLite's LIKE is ASCII-case-insensitive: the runtime lists these rows under this
            // owner too, but reads them by exact key.
            scan.problems.push((
                namespace.clone(),
                key,
                &store_id_collation::RULE,
                format!(
                    "row of namespace `{}` is listed under `{}` (SQLite's LIKE ignores ASCII case) but never read there",
                    namespace.join("/").escape_debug(),
                    base.join("/").escape_debug()
                ),
            ));
            return;
        }
        let limit = MAX_TEXT_BYTES as i64;
        let oversized = size.filter(|s| *s > limit).map(|s| s as u64);
        scan.items.push(RawItem {
            namespace,
            key,
            value,
            oversized,
        });
    }
}

/// Every route segment the runtime registers (the file routes and the transcript and task ones).
const ROUTE_SEGMENTS: &[&str] = &[
    "root",
    "memory",
    "skills",
    "subagents",
    "knowledge",
    "plans",
    "sessions",
    "tasks",
];

/// `count` numbered parameters after the first (`?2, ?3, …`): the list of an `IN (…)` whose
/// statement binds the size limit as `?1`.
fn placeholders_from_2(count: usize) -> String {
    (0..count)
        .map(|i| format!("?{}", i + 2))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A LIKE pattern (with `ESCAPE '!'`) matching every text that starts with `text`.
fn like_prefix(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if matches!(c, '!' | '%' | '_') {
            out.push('!');
        }
        out.push(c);
    }
    out.push('%');
    out
}

/// `JdbcStore.namespacePath`: every segment followed by `\x1F`.
pub fn jdbc_namespace(ns: &[String]) -> String {
    ns.iter().map(|s| format!("{s}{JDBC_SEPARATOR}")).collect()
}

/// `JdbcStore`'s LIKE pattern: `!`, `%`, `_` escaped with `!`, then `%`.
pub fn jdbc_like(ns: &[String]) -> String {
    like_prefix(&jdbc_namespace(ns))
}

pub fn split_jdbc(path: &str) -> Vec<String> {
    let mut parts: Vec<String> = path.split(JDBC_SEPARATOR).map(str::to_string).collect();
    if parts.last().is_some_and(|s| s.is_empty()) {
        parts.pop();
    }
    parts
}

/// `SqliteBaseStore`'s namespace: segments joined with `/` (`/` for none).
pub fn base_store_namespace(ns: &[String]) -> String {
    if ns.is_empty() {
        "/".to_string()
    } else {
        ns.join("/")
    }
}

/// Text of a column whatever its storage class (a BLOB is decoded lossily).
fn text_of(v: ValueRef<'_>) -> Option<String> {
    match v {
        ValueRef::Null => None,
        ValueRef::Text(b) | ValueRef::Blob(b) => Some(String::from_utf8_lossy(b).into_owned()),
        ValueRef::Integer(i) => Some(i.to_string()),
        ValueRef::Real(r) => Some(r.to_string()),
    }
}

/// Whether the row at `position` of its namespace starts a page and shares its `updated_at`
/// with the row before: OFFSET paging over `updated_at DESC` (1-second ties) may skip or repeat
/// rows at a page boundary.
fn tie_across_page(position: usize, previous: Option<Option<i64>>, updated: Option<i64>) -> bool {
    position > 0 && position.is_multiple_of(PAGE_SIZE) && previous == Some(updated)
}

impl StoreBackend for SqliteBackend {
    fn scan_many(&mut self, bases: &[Vec<String>]) -> Vec<Result<Scan, StoreError>> {
        if self.layout != StoreLayout::Jdbc {
            return bases.iter().map(|base| self.scan(base)).collect();
        }
        match self.scan_jdbc_many(bases) {
            Ok(scans) => scans,
            // Which owner's entries SQLite refuses: each owner read alone says.
            Err(err) if err.entries => bases.iter().map(|base| self.scan(base)).collect(),
            Err(err) => bases.iter().map(|_| Err(err.clone())).collect(),
        }
    }

    fn scan(&mut self, base: &[String]) -> Result<Scan, StoreError> {
        let mut scan = Scan::default();
        match self.layout {
            StoreLayout::Jdbc => self.scan_jdbc(base, &mut scan)?,
            StoreLayout::SqliteBase => {
                self.scan_base_store(base, &mut scan)?;
                self.ids_with_slash(base, &mut scan)?;
            }
        }
        Ok(scan)
    }

    fn namespaces(&mut self, prefix: &[String]) -> Result<Vec<Vec<String>>, StoreError> {
        let (sql, pattern) = match self.layout {
            StoreLayout::Jdbc => (
                format!(
                    "SELECT DISTINCT namespace_path FROM {} WHERE namespace_path LIKE ?1 ESCAPE '!'",
                    self.table
                ),
                jdbc_like(prefix),
            ),
            StoreLayout::SqliteBase => {
                let p = like_prefix(&format!("{}/", base_store_namespace(prefix)));
                (
                    format!("SELECT DISTINCT namespace FROM {} WHERE namespace LIKE ?1 ESCAPE '!'", self.table),
                    p,
                )
            }
        };
        self.start_query();
        let mut stmt = self.conn.prepare(&sql).map_err(|e| self.fail(e))?;
        let mut rows = stmt.query([pattern]).map_err(|e| self.fail(e))?;
        let mut out = Vec::new();
        while let Some(row) = rows.next().map_err(|e| self.fail(e))? {
            let text = text_of(row.get_ref_unwrap(0)).unwrap_or_default();
            out.push(match self.layout {
                StoreLayout::Jdbc => split_jdbc(&text),
                StoreLayout::SqliteBase => text.split('/').map(str::to_string).collect(),
            });
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jdbc_namespace_and_like_escaping() {
        let ns: Vec<String> = ["agents", "a_b", "users", "50%!"]
            .map(String::from)
            .to_vec();
        assert_eq!(
            jdbc_namespace(&ns),
            "agents\u{1F}a_b\u{1F}users\u{1F}50%!\u{1F}"
        );
        assert_eq!(
            jdbc_like(&ns),
            "agents\u{1F}a!_b\u{1F}users\u{1F}50!%!!\u{1F}%"
        );
        assert_eq!(split_jdbc("a\u{1F}b\u{1F}"), vec!["a", "b"]);
        assert_eq!(base_store_namespace(&[]), "/");
    }

    /// A scan as comparable text: its items, then its problems by code and message.
    fn shown(scan: Result<Scan, StoreError>) -> String {
        match scan {
            Ok(scan) => {
                let items: Vec<String> = scan.items.iter().map(|i| format!("{i:?}")).collect();
                let problems: Vec<String> = scan
                    .problems
                    .iter()
                    .map(|(ns, key, rule, message)| format!("{ns:?} {key} {} {message}", rule.code))
                    .collect();
                format!("items {items:?}\nproblems {problems:?}")
            }
            Err(err) => format!("error {err:?}"),
        }
    }

    /// Reading many owners at once (`scan_many`, one query per few hundred namespaces) answers
    /// what reading each alone does: rows of several namespaces per owner, in key order, an id
    /// whose case variant is another owner's (listed under both by the runtime's LIKE), deeper
    /// namespaces, an owner without rows, and an id too long for SQLite's LIKE among the others;
    /// more namespaces than one query takes.
    #[test]
    fn many_owners_read_at_once_as_each_alone() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("store.db");
        let conn = Connection::open(&db).unwrap();
        conn.execute_batch(
            "CREATE TABLE agentscope_store (namespace_path TEXT NOT NULL, item_key TEXT NOT NULL, \
             value_json TEXT NOT NULL, version INTEGER NOT NULL, updated_at INTEGER NOT NULL, \
             PRIMARY KEY (namespace_path, item_key))",
        )
        .unwrap();
        let ns = |id: &str, rest: &[&str]| {
            let mut ns: Vec<String> = ["agents", "bot", "users", id].map(String::from).to_vec();
            ns.extend(rest.iter().map(|s| s.to_string()));
            ns
        };
        let mut ids: Vec<String> = (0..300).map(|i| format!("u{i:03}")).collect();
        ids.extend(["Alice", "alice", "nobody"].map(String::from));
        let insert = |namespace: &[String], key: &str| {
            conn.execute(
                "INSERT INTO agentscope_store VALUES (?1, ?2, ?3, 1, 1)",
                rusqlite::params![
                    jdbc_namespace(namespace),
                    key,
                    format!("{{\"content\":\"{key}\"}}")
                ],
            )
            .unwrap();
        };
        for id in ids.iter().filter(|id| *id != "nobody") {
            insert(&ns(id, &["skills"]), "/b/SKILL.md");
            insert(&ns(id, &["skills"]), "/a/SKILL.md");
            insert(&ns(id, &["root"]), "/AGENTS.md");
        }
        insert(&ns("u007", &["skills", "deeper"]), "/x.md");
        insert(&ns("alice", &["memory"]), "/notes.md");
        drop(conn);
        ids.insert(150, "x".repeat(MAX_LIKE_PATTERN_BYTES));
        let bases: Vec<Vec<String>> = ids.iter().map(|id| ns(id, &[])).collect();
        let spec = StoreSpec::new(
            &crate::config::StoreConfig::default(),
            Some(&format!("sqlite://{}", db.display())),
            &Default::default(),
            dir.path(),
        )
        .unwrap();
        let mut backend = SqliteBackend::open(&spec, &db, &io::Cancel::never()).unwrap();
        let alone: Vec<String> = bases.iter().map(|b| shown(backend.scan(b))).collect();
        let at_once: Vec<String> = backend.scan_many(&bases).into_iter().map(shown).collect();
        assert_eq!(at_once.len(), alone.len());
        for (i, (a, b)) in at_once.iter().zip(&alone).enumerate() {
            assert_eq!(a, b, "owner {}", ids[i].get(..8).unwrap_or(&ids[i]));
        }
        // What the comparison covers.
        let of = |id: &str| &alone[ids.iter().position(|i| i == id).unwrap()];
        assert!(of("u007").contains("deeper"), "{}", of("u007"));
        assert!(of("alice").contains("RS0") && of("Alice").contains("RS0"));
        assert!(of(&"x".repeat(MAX_LIKE_PATTERN_BYTES)).starts_with("error"));
        assert!(of("nobody").starts_with("items []"));
        assert!(listed_namespaces(&mut backend, &bases) > NAMESPACES_PER_QUERY);
    }

    /// How many namespaces the owners' LIKE searches list.
    fn listed_namespaces(backend: &mut SqliteBackend, bases: &[Vec<String>]) -> usize {
        let mut all = std::collections::BTreeSet::new();
        for base in bases
            .iter()
            .filter(|b| jdbc_like(b).len() <= MAX_LIKE_PATTERN_BYTES)
        {
            all.extend(backend.namespaces_like(&jdbc_namespace(base)).unwrap());
        }
        all.len()
    }
}
