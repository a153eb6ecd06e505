//! Redis stores: `RedisStore` (one hash per item at `<prefix>item:<ns>\0<key>` with fields `value`
//! and `version`, one sorted set per namespace at `<prefix>idx:<ns>` whose members are the keys,
//! namespace segments joined with NUL). Listing pages through the index with `ZRANGEBYLEX … LIMIT
//! offset 100` exactly as `searchAllItems` does, with the hashes of a page fetched in one
//! pipeline; only read commands are sent. `rediss://` is TLS (rustls, the system's roots).
//! Depends only on the store module.

use std::collections::{BTreeSet, HashSet};

use redis::aio::MultiplexedConnection;
use redis::{AsyncConnectionConfig, Client, ConnectionAddr, Value};

use super::io::{self, Driver, Step};
use super::{ExactRead, RawItem, Scan, StoreBackend, StoreError, StoreSpec, PAGE_SIZE, SEGMENTS};
use crate::base::files::MAX_TEXT_BYTES;
use crate::rules::store::{
    store_entry_unreadable, store_id_separator, store_index_stale, store_listing_cut,
};

/// `RedisStore.NS_SEPARATOR`.
pub const SEPARATOR: u8 = 0;

pub struct RedisBackend {
    conn: MultiplexedConnection,
    driver: Driver,
    prefix: String,
    spec: StoreSpec,
    /// The item hashes under one key prefix (`<prefix>item:<parent namespace>\0`), from one
    /// `SCAN` per command, and whether the scan stopped at [`SCAN_LIMIT`].
    items: Option<(Vec<u8>, BTreeSet<Vec<u8>>, bool)>,
}

/// At most this many item hash names are held while looking for hashes without an index
/// member; past it the search stops and says so.
pub const SCAN_LIMIT: usize = 1_000_000;

const CONNECT: &str = "cannot connect to the Redis store";
const READ: &str = "reading the Redis store failed";

impl RedisBackend {
    pub fn open(spec: &StoreSpec, cancel: &io::Cancel) -> Result<Self, StoreError> {
        let (url, client_cert) = super::take_client_cert(spec.secret_url())
            .map_err(|e| spec.error("invalid Redis URL", e))?;
        let tls = url
            .get(..9)
            .is_some_and(|s| s.eq_ignore_ascii_case("rediss://"));
        let client = match client_cert {
            None => Client::open(url.as_str()),
            Some(_) if !tls => {
                return Err(spec.error(
                    "invalid Redis URL",
                    "sslcert and sslkey (a client certificate) need TLS: rediss://",
                ))
            }
            Some(paths) => {
                let (client_cert, client_key) = paths.read().map_err(|e| spec.error(CONNECT, e))?;
                // The server's certificate is still verified against the system's roots.
                Client::build_with_tls(
                    url.as_str(),
                    redis::TlsCertificates {
                        client_tls: Some(redis::ClientTlsConfig {
                            client_cert,
                            client_key,
                        }),
                        root_cert: None,
                    },
                )
            }
        }
        .map_err(|e| spec.error("invalid Redis URL", e))?;
        let server = match client.get_connection_info().addr() {
            ConnectionAddr::Tcp(host, port) | ConnectionAddr::TcpTls { host, port, .. } => {
                format!("the Redis server at {}", io::host_port(host, *port))
            }
            other => format!("the Redis server at socket `{other}`"),
        };
        let driver = Driver::new(spec.connect_timeout, cancel, server)?;
        // The driver's deadlines, not the client's own (which would retry and wait again).
        let config = AsyncConnectionConfig::new()
            .set_connection_timeout(None)
            .set_response_timeout(None);
        let conn = driver
            .run(
                Step::Open,
                client.get_multiplexed_async_connection_with_config(&config),
            )
            .map_err(|e| {
                // A plain server reads the TLS hello as a command and never answers it.
                if tls && e.message != io::CANCELLED {
                    spec.within(
                        CONNECT,
                        StoreError::new(format!(
                            "{}; with rediss://, does the server serve TLS on this port?",
                            e.message
                        )),
                    )
                } else {
                    spec.within(CONNECT, e)
                }
            })?
            .map_err(|e| {
                // rustls reports the server's refusal of a client without a certificate as an
                // alert; say what the URL lacks.
                if tls && e.to_string().contains("CertificateRequired") {
                    spec.failure(
                        CONNECT,
                        "the server requires a client certificate: add sslcert=PATH&sslkey=PATH to the URL (received fatal alert: CertificateRequired)",
                        &io::chain(&e),
                    )
                } else {
                    words(spec, CONNECT, &e, driver.server())
                }
            })?;
        Ok(Self {
            conn,
            driver,
            prefix: spec.prefix.clone(),
            spec: spec.clone(),
            items: None,
        })
    }

    fn fail(&self, e: redis::RedisError) -> StoreError {
        words(&self.spec, READ, &e, self.driver.server())
    }

    /// One command, within the deadline of a query.
    fn query<T: redis::FromRedisValue>(&mut self, cmd: &redis::Cmd) -> Result<T, StoreError> {
        let result = self
            .driver
            .run(Step::Query, cmd.query_async::<T>(&mut self.conn))
            .map_err(|e| self.spec.within(READ, e))?;
        result.map_err(|e| self.fail(e))
    }

    /// One pipeline (one round trip), within the deadline of a query.
    fn pipeline<T: redis::FromRedisValue>(
        &mut self,
        pipe: &redis::Pipeline,
    ) -> Result<T, StoreError> {
        let result = self
            .driver
            .run(Step::Query, pipe.query_async::<T>(&mut self.conn))
            .map_err(|e| self.spec.within(READ, e))?;
        result.map_err(|e| self.fail(e))
    }

    /// `<prefix>item:<ns>\0`: the start of the names of `ns`'s item hashes.
    fn item_head(&self, ns: &[String]) -> Vec<u8> {
        let mut key = format!("{}item:", self.prefix).into_bytes();
        key.extend(namespace_path(ns));
        key.push(SEPARATOR);
        key
    }

    /// The names of the item hashes below `parent` (and whether the search stopped at
    /// [`SCAN_LIMIT`]): one `SCAN` per command, kept for the other owners under the same parent.
    fn item_names(&mut self, parent: &[String]) -> Result<(&BTreeSet<Vec<u8>>, bool), StoreError> {
        let prefix = self.item_head(parent);
        let covered = matches!(&self.items, Some((h, _, _)) if prefix.starts_with(h));
        if !covered {
            let mut pattern = glob_escape(&prefix);
            pattern.push(b'*');
            let (found, cut) = self.scan_keys(&pattern, SCAN_LIMIT)?;
            self.items = Some((prefix, found, cut));
        }
        let (_, found, cut) = self.items.as_ref().expect("filled above");
        Ok((found, *cut))
    }

    /// The keys matching `pattern`, in one `SCAN` pass of pages of 1 000; it stops once `limit`
    /// keys are found, and then says so.
    fn scan_keys(
        &mut self,
        pattern: &[u8],
        limit: usize,
    ) -> Result<(BTreeSet<Vec<u8>>, bool), StoreError> {
        let mut found = BTreeSet::new();
        let mut cursor: u64 = 0;
        loop {
            let (next, keys): (u64, Vec<Vec<u8>>) = self.query(
                redis::cmd("SCAN")
                    .arg(cursor)
                    .arg("MATCH")
                    .arg(pattern)
                    .arg("COUNT")
                    .arg(1000),
            )?;
            found.extend(keys);
            if found.len() >= limit {
                return Ok((found, true));
            }
            if next == 0 {
                return Ok((found, false));
            }
            cursor = next;
        }
    }

    /// The names of the item hashes of `base`'s namespaces, below `base`: from the one `SCAN`
    /// of the parent's (every user's or session's), so checking many owners costs one pass.
    fn item_keys_under(&mut self, base: &[String]) -> Result<(Vec<Vec<u8>>, bool), StoreError> {
        let own = self.item_head(base);
        // Every user (session) of the agent at once; other scopes have one owner.
        let parent = match base {
            [a, _, kind, _] if a == "agents" && (kind == "users" || kind == "sessions") => {
                &base[..3]
            }
            _ => base,
        };
        let (found, cut) = self.item_names(parent)?;
        let keys = found
            .range(own.clone()..)
            .take_while(|k| k.starts_with(&own))
            .map(|k| k[own.len()..].to_vec())
            .collect();
        Ok((keys, cut))
    }

    /// One namespace's listing, page by page through its index as `searchAllItems` does: it
    /// stops at the first page with fewer than [`PAGE_SIZE`] items.
    fn scan_namespace(&mut self, ns: &[String], scan: &mut Scan) -> Result<(), StoreError> {
        self.scan_namespace_from(ns, 0, scan)
    }

    /// [`RedisBackend::scan_namespace`] from the page at `offset` on.
    fn scan_namespace_from(
        &mut self,
        ns: &[String],
        mut offset: usize,
        scan: &mut Scan,
    ) -> Result<(), StoreError> {
        let index = index_key(&self.prefix, ns);
        loop {
            let page = self.query(&page_command(&index, offset));
            let members: Vec<Vec<u8>> = match page {
                Ok(members) => members,
                Err(e) if e.entries => {
                    scan.problems.push(index_unreadable(ns, &e));
                    return Ok(());
                }
                Err(e) => return Err(e),
            };
            if members.is_empty() {
                return Ok(());
            }
            let found = self.read_page(ns, &members, scan)?;
            if !self.page_is_full(ns, &index, offset, members.len(), found, scan)? {
                return Ok(());
            }
            offset += PAGE_SIZE;
        }
    }

    /// Whether the listing goes on after the page at `offset` (`members` index members, `found`
    /// of them items); where a full page held fewer items, says what the listing misses.
    fn page_is_full(
        &mut self,
        ns: &[String],
        index: &[u8],
        offset: usize,
        members: usize,
        found: usize,
        scan: &mut Scan,
    ) -> Result<bool, StoreError> {
        if found < PAGE_SIZE {
            if members == PAGE_SIZE {
                self.note_listing_cut(ns, index, offset, found, scan)?;
            }
            return Ok(false);
        }
        Ok(true)
    }

    /// The items of one page of index members, read as the runtime reads them; returns how many
    /// members have an item hash (a stale member does not count toward the page).
    fn read_page(
        &mut self,
        ns: &[String],
        members: &[Vec<u8>],
        scan: &mut Scan,
    ) -> Result<usize, StoreError> {
        let keys = member_keys(members);
        let mut pipe = redis::pipe();
        self.probe_page(&mut pipe, ns, &keys);
        // One entry of the wrong type answers an error of its own, not the page's.
        pipe.ignore_errors();
        let sizes: Vec<redis::RedisResult<i64>> = self.pipeline(&pipe)?;
        let (found, read) = sort_page(ns, keys, &sizes, scan);
        self.read_values(read, scan)?;
        Ok(found)
    }

    /// Asks, for each key of a page of `ns`, whether its item hash exists and its value's size.
    fn probe_page(&self, pipe: &mut redis::Pipeline, ns: &[String], keys: &[String]) {
        for key in keys {
            let item = item_key(&self.prefix, ns, key);
            pipe.cmd("EXISTS").arg(&item);
            pipe.cmd("HSTRLEN").arg(&item).arg("value");
        }
    }

    /// `scan` of each of `bases`: the first page of each of their route namespaces in one
    /// pipeline, the items of all those pages probed in a second and their values fetched in
    /// as few more as hold at most [`MAX_TEXT_BYTES`] each (what one value may hold); the pages
    /// after a full one are read as `scan` reads them.
    fn scan_bases(&mut self, bases: &[Vec<String>]) -> Vec<Result<Scan, StoreError>> {
        if bases.is_empty() {
            return Vec::new();
        }
        let namespaces: Vec<Vec<String>> = bases
            .iter()
            .flat_map(|base| SEGMENTS.iter().map(|(segment, _)| child(base, segment)))
            .collect();
        let mut pipe = redis::pipe();
        for ns in &namespaces {
            pipe.add_command(page_command(&index_key(&self.prefix, ns), 0));
        }
        pipe.ignore_errors();
        let pages: Vec<redis::RedisResult<Vec<Vec<u8>>>> = match self.pipeline(&pipe) {
            Ok(pages) => pages,
            Err(err) => return bases.iter().map(|_| Err(err.clone())).collect(),
        };
        let pages: Vec<Result<Vec<String>, StoreError>> = pages
            .into_iter()
            .map(|page| page.map(|m| member_keys(&m)).map_err(|e| self.fail(e)))
            .collect();
        let mut probe = redis::pipe();
        let mut probed = 0;
        for (ns, page) in namespaces.iter().zip(&pages) {
            if let Ok(keys) = page {
                self.probe_page(&mut probe, ns, keys);
                probed += keys.len();
            }
        }
        probe.ignore_errors();
        // (A server refuses an empty pipeline.)
        let sizes: Vec<redis::RedisResult<i64>> = match probed {
            0 => Vec::new(),
            _ => match self.pipeline(&probe) {
                Ok(sizes) => sizes,
                Err(err) => return bases.iter().map(|_| Err(err.clone())).collect(),
            },
        };
        // Each page sorted as `read_page` sorts it: its problems, then what to read.
        let mut sorted = Vec::with_capacity(pages.len());
        let mut at = 0;
        for (ns, page) in namespaces.iter().zip(pages) {
            sorted.push(page.map(|keys| {
                let answers = &sizes[at..at + 2 * keys.len()];
                at += 2 * keys.len();
                let members = keys.len();
                let mut problems = Scan::default();
                let (found, read) = sort_page(ns, keys, answers, &mut problems);
                (members, found, problems.problems, read)
            }));
        }
        let wanted: Vec<(&[String], &str, u64)> = sorted
            .iter()
            .filter_map(|page| page.as_ref().ok())
            .flat_map(|(_, _, _, read)| read)
            .filter(|(_, _, size)| *size <= MAX_TEXT_BYTES)
            .map(|(ns, key, size)| (ns.as_slice(), key.as_str(), *size))
            .collect();
        let mut values = match self.fetch_values(&wanted) {
            Ok(values) => values.into_iter(),
            Err(err) => return bases.iter().map(|_| Err(err.clone())).collect(),
        };
        let fetched = |read: &Vec<(Vec<String>, String, u64)>| {
            read.iter()
                .filter(|(_, _, size)| *size <= MAX_TEXT_BYTES)
                .count()
        };
        let mut pages = namespaces.into_iter().zip(sorted);
        let mut scans = Vec::with_capacity(bases.len());
        for _ in bases {
            let mut scan = Scan::default();
            let mut failed = None;
            for (ns, page) in pages.by_ref().take(SEGMENTS.len()) {
                let count = page.as_ref().map_or(0, |(_, _, _, read)| fetched(read));
                let page_values: Vec<_> = values.by_ref().take(count).collect();
                if failed.is_none() {
                    failed = self.take_page(&ns, page, page_values, &mut scan).err();
                }
            }
            scans.push(match failed {
                Some(err) => Err(err),
                None => Ok(scan),
            });
        }
        scans
    }

    /// A first page read by `scan_bases` (its members, how many are items, its problems and
    /// the items to read) and its fetched values put into `scan` as `scan_namespace` puts
    /// them, and the pages after it read.
    fn take_page(
        &mut self,
        ns: &[String],
        page: Result<SortedPage, StoreError>,
        values: Vec<Fetched>,
        scan: &mut Scan,
    ) -> Result<(), StoreError> {
        let (members, found, problems, read) = match page {
            Ok(page) => page,
            Err(e) if e.entries => {
                scan.problems.push(index_unreadable(ns, &e));
                return Ok(());
            }
            Err(e) => return Err(e),
        };
        if members == 0 {
            return Ok(());
        }
        scan.problems.extend(problems);
        self.place_values(read, values, scan)?;
        let index = index_key(&self.prefix, ns);
        if self.page_is_full(ns, &index, 0, members, found, scan)? {
            self.scan_namespace_from(ns, PAGE_SIZE, scan)?;
        }
        Ok(())
    }

    /// A full page that held fewer items than members ends the runtime's listing: says how many
    /// later entries it never lists, if the index has any.
    fn note_listing_cut(
        &mut self,
        ns: &[String],
        index: &[u8],
        offset: usize,
        found: usize,
        scan: &mut Scan,
    ) -> Result<(), StoreError> {
        let more: i64 = self.query(redis::cmd("ZCARD").arg(index))?;
        if more as usize > offset + PAGE_SIZE {
            scan.problems.push((
                ns.to_vec(),
                String::new(),
                &store_listing_cut::RULE,
                format!(
                    "the listing stops after {} entries: a page of {PAGE_SIZE} index members held only {found} items, so {} later entries are never listed",
                    offset + found,
                    more as usize - offset - PAGE_SIZE
                ),
            ));
        }
        Ok(())
    }

    /// The values of items known to exist, as `(namespace, key, size)`: one over
    /// [`MAX_TEXT_BYTES`] is recorded with its size and not fetched, the rest are fetched.
    fn read_values(
        &mut self,
        items: Vec<(Vec<String>, String, u64)>,
        scan: &mut Scan,
    ) -> Result<(), StoreError> {
        let wanted: Vec<(&[String], &str, u64)> = items
            .iter()
            .filter(|(_, _, size)| *size <= MAX_TEXT_BYTES)
            .map(|(ns, key, size)| (ns.as_slice(), key.as_str(), *size))
            .collect();
        let values = self.fetch_values(&wanted)?;
        self.place_values(items, values, scan)
    }

    /// The values of `items` (namespace, key, size), in as few pipelines as carry at most
    /// [`MAX_TEXT_BYTES`] of values each (one value may be that large), so that no wait covers
    /// more than one largest value's transfer; an item of the wrong type answers its own error.
    fn fetch_values(
        &mut self,
        items: &[(&[String], &str, u64)],
    ) -> Result<Vec<Fetched>, StoreError> {
        let mut values = Vec::with_capacity(items.len());
        let mut rest = items;
        while !rest.is_empty() {
            let mut bytes = 0u64;
            let mut take = 0;
            for (_, _, size) in rest {
                if take > 0 && bytes + size > MAX_TEXT_BYTES {
                    break;
                }
                bytes += size;
                take += 1;
            }
            let mut fetch = redis::pipe();
            for (ns, key, _) in &rest[..take] {
                fetch
                    .cmd("HGET")
                    .arg(item_key(&self.prefix, ns, key))
                    .arg("value");
            }
            fetch.ignore_errors();
            values.extend(self.pipeline::<Vec<Fetched>>(&fetch)?);
            rest = &rest[take..];
        }
        Ok(values)
    }

    /// `items` into `scan` with their `values` (those of the items not over [`MAX_TEXT_BYTES`],
    /// in order): the oversized ones first, with their size, then the others; the first value
    /// that could not be read fails the whole read, as the runtime's does.
    fn place_values(
        &self,
        items: Vec<(Vec<String>, String, u64)>,
        values: Vec<Fetched>,
        scan: &mut Scan,
    ) -> Result<(), StoreError> {
        let mut wanted = Vec::new();
        for (namespace, key, size) in items {
            if size > MAX_TEXT_BYTES {
                scan.items.push(RawItem {
                    namespace,
                    key,
                    value: None,
                    oversized: Some(size),
                });
            } else {
                wanted.push((namespace, key));
            }
        }
        let values = values
            .into_iter()
            .collect::<redis::RedisResult<Vec<Option<Vec<u8>>>>>()
            .map_err(|e| self.fail(e))?;
        for ((namespace, key), value) in wanted.into_iter().zip(values) {
            scan.items.push(RawItem {
                namespace,
                key,
                value: value.map(|v| String::from_utf8_lossy(&v).into_owned()),
                oversized: None,
            });
        }
        Ok(())
    }

    /// Every hash of the owner's route namespaces that the listing did not return (`seen`), with
    /// why the runtime reads it by its exact path, if it does.
    fn unindexed_candidates(
        &mut self,
        base: &[String],
        exact: &[ExactRead],
        seen: &HashSet<(&[String], &str)>,
        scan: &mut Scan,
    ) -> Result<Vec<Candidate>, StoreError> {
        let (names, cut) = self.item_keys_under(base)?;
        if cut {
            scan.problems.push((
                base.to_vec(),
                String::new(),
                &store_index_stale::RULE,
                format!(
                    "more than {SCAN_LIMIT} item hashes: the search for hashes missing from their index stopped there"
                ),
            ));
        }
        let mut candidates = Vec::new();
        for name in names {
            let Some(at) = name.iter().position(|b| *b == SEPARATOR) else {
                continue;
            };
            let segment = String::from_utf8_lossy(&name[..at]).into_owned();
            if !SEGMENTS.iter().any(|(s, _)| *s == segment) {
                continue; // A deeper namespace or one no route reads.
            }
            let key = String::from_utf8_lossy(&name[at + 1..]).into_owned();
            let ns = child(base, &segment);
            if !seen.contains(&(ns.as_slice(), key.as_str())) {
                let why = exact
                    .iter()
                    .find(|e| e.segment == segment && e.key == key)
                    .map(|e| e.why);
                candidates.push((ns, key, why));
            }
        }
        Ok(candidates)
    }

    /// For each candidate, in one pipeline: its index score, whether its hash exists, and the
    /// size of its value (three answers a candidate).
    fn probe(&mut self, candidates: &[Candidate]) -> Result<Vec<Value>, StoreError> {
        let mut pipe = redis::pipe();
        for (ns, key, _) in candidates {
            let item = item_key(&self.prefix, ns, key);
            pipe.cmd("ZSCORE").arg(index_key(&self.prefix, ns)).arg(key);
            pipe.cmd("EXISTS").arg(&item);
            pipe.cmd("HSTRLEN").arg(&item).arg("value");
        }
        // An index or item of the wrong type answers an error of its own (the listing reports it).
        pipe.ignore_errors();
        self.pipeline(&pipe)
    }
}

/// An item hash the listing missed: its namespace, its key, and why the runtime reads it by its
/// exact path (`None`: it does not).
type Candidate = (Vec<String>, String, Option<&'static str>);

/// The answer to one `HGET` of a value.
type Fetched = redis::RedisResult<Option<Vec<u8>>>;

/// A page of index members sorted (`sort_page`): how many members, how many of them are items,
/// the page's problems, and the items to read as (namespace, key, size).
type SortedPage = (
    usize,
    usize,
    Vec<(Vec<String>, String, &'static crate::rules::Rule, String)>,
    Vec<(Vec<String>, String, u64)>,
);

/// `ZRANGEBYLEX` of the page at `offset` of an index, as `searchAllItems` pages.
fn page_command(index: &[u8], offset: usize) -> redis::Cmd {
    let mut cmd = redis::cmd("ZRANGEBYLEX");
    cmd.arg(index)
        .arg("-")
        .arg("+")
        .arg("LIMIT")
        .arg(offset)
        .arg(PAGE_SIZE);
    cmd
}

/// Index members as the runtime reads them (lossy UTF-8).
fn member_keys(members: &[Vec<u8>]) -> Vec<String> {
    members
        .iter()
        .map(|m| String::from_utf8_lossy(m).into_owned())
        .collect()
}

/// The problem of an index that is not a sorted set: the runtime's listing of its namespace
/// fails.
fn index_unreadable(
    ns: &[String],
    e: &StoreError,
) -> (Vec<String>, String, &'static crate::rules::Rule, String) {
    (
        ns.to_vec(),
        String::new(),
        &store_entry_unreadable::RULE,
        format!(
            "the index of namespace `{}` is not a sorted set ({}): the runtime's listing of it fails; not read",
            ns.join("/").escape_debug(),
            e.message
        ),
    )
}

/// A page of index members (`keys`) with the answers to their probe (`EXISTS`, `HSTRLEN` per
/// key): the page's problems go to `scan`; returns how many members have an item hash (a stale
/// member does not count toward the page) and the items to read as (namespace, key, size).
fn sort_page(
    ns: &[String],
    keys: Vec<String>,
    sizes: &[redis::RedisResult<i64>],
    scan: &mut Scan,
) -> (usize, Vec<(Vec<String>, String, u64)>) {
    let mut read = Vec::new();
    let mut found = 0usize;
    for (i, key) in keys.into_iter().enumerate() {
        let exists = matches!(sizes[2 * i], Ok(n) if n > 0);
        let size = match &sizes[2 * i + 1] {
            Ok(size) => (*size).max(0) as u64,
            Err(e) if exists => {
                found += 1;
                scan.problems.push((
                    ns.to_vec(),
                    key.clone(),
                    &store_entry_unreadable::RULE,
                    format!(
                        "item `{}` is not a hash ({}): the runtime's read of it fails; not read",
                        key.escape_debug(),
                        wrong_type(e)
                    ),
                ));
                continue;
            }
            Err(_) => 0,
        };
        if !exists {
            scan.problems.push((
                ns.to_vec(),
                key.clone(),
                &store_index_stale::RULE,
                format!(
                    "index member `{}` has no item hash: skipped, and its page comes back short",
                    key.escape_debug()
                ),
            ));
            continue;
        }
        found += 1;
        if key.as_bytes().contains(&SEPARATOR) {
            scan.problems.push((
                ns.to_vec(),
                key,
                &store_id_separator::RULE,
                "key holds NUL, which RedisStore rejects on read".to_string(),
            ));
            continue;
        }
        read.push((ns.to_vec(), key, size));
    }
    (found, read)
}

/// `base` and one more segment.
fn child(base: &[String], segment: &str) -> Vec<String> {
    let mut ns = base.to_vec();
    ns.push(segment.to_string());
    ns
}

/// The `store_index_stale` message for an item hash without an index member.
fn unindexed_message(key: &str, why: Option<&str>) -> String {
    match why {
        Some(why) => format!(
            "item hash `{}` has no index member: never listed, yet read by its exact path ({why}), so it is used",
            key.escape_debug()
        ),
        None => format!(
            "item hash `{}` has no index member: never listed, so it does not load (only a read of its exact path finds it)",
            key.escape_debug()
        ),
    }
}

/// The error in words, with the client's report as the detail.
fn words(spec: &StoreSpec, what: &str, e: &redis::RedisError, server: &str) -> StoreError {
    let detail = io::chain(e);
    if e.code() == Some("WRONGTYPE") {
        return spec.entries_failure(&wrong_type(e), &detail);
    }
    let words = match e.code() {
        Some("WRONGPASS") => "the server refused the user name or password (WRONGPASS)".to_string(),
        Some("NOAUTH") => {
            "the server asks for a password, and the URL gives none (NOAUTH)".to_string()
        }
        Some(code) => format!("the server answered {code}: {}", e.detail().unwrap_or("")),
        None if e.is_connection_refusal() => {
            format!("{server} refused the connection (is the server running, on that port?)")
        }
        None if e.is_connection_dropped() => format!("{server} closed the connection"),
        None => io::io_words(e, server).unwrap_or_else(|| detail.clone()),
    };
    spec.failure(what, &words, &detail)
}

/// What a `WRONGTYPE` answer means.
fn wrong_type(e: &redis::RedisError) -> String {
    match e.code() {
        Some("WRONGTYPE") => "a key of the wrong type: WRONGTYPE".to_string(),
        _ => io::chain(e),
    }
}

/// `RedisStore.namespacePath`: segments joined with NUL.
pub fn namespace_path(ns: &[String]) -> Vec<u8> {
    ns.iter()
        .map(|s| s.as_bytes().to_vec())
        .collect::<Vec<_>>()
        .join(&SEPARATOR)
}

pub fn item_key(prefix: &str, ns: &[String], key: &str) -> Vec<u8> {
    let mut out = format!("{prefix}item:").into_bytes();
    out.extend(namespace_path(ns));
    out.push(SEPARATOR);
    out.extend(key.as_bytes());
    out
}

pub fn index_key(prefix: &str, ns: &[String]) -> Vec<u8> {
    let mut out = format!("{prefix}idx:").into_bytes();
    out.extend(namespace_path(ns));
    out
}

/// A Redis glob pattern matching `literal` exactly.
fn glob_escape(literal: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(literal.len());
    for &b in literal {
        if matches!(b, b'*' | b'?' | b'[' | b']' | b'\\') {
            out.push(b'\\');
        }
        out.push(b);
    }
    out
}

impl StoreBackend for RedisBackend {
    fn scan_many(&mut self, bases: &[Vec<String>]) -> Vec<Result<Scan, StoreError>> {
        self.scan_bases(bases)
    }

    fn scan(&mut self, base: &[String]) -> Result<Scan, StoreError> {
        let mut scan = Scan::default();
        for (segment, _) in SEGMENTS {
            self.scan_namespace(&child(base, segment), &mut scan)?;
        }
        Ok(scan)
    }

    fn unlisted(
        &mut self,
        base: &[String],
        exact: &[ExactRead],
        all: bool,
        listed: &Scan,
    ) -> Result<Scan, StoreError> {
        let seen: HashSet<(&[String], &str)> = listed
            .items
            .iter()
            .map(|i| (i.namespace.as_slice(), i.key.as_str()))
            .chain(
                listed
                    .problems
                    .iter()
                    .map(|(ns, key, _, _)| (ns.as_slice(), key.as_str())),
            )
            .collect();
        let mut scan = Scan::default();
        let candidates = if all {
            self.unindexed_candidates(base, exact, &seen, &mut scan)?
        } else {
            // Only what the prompt reads by path: a few keys, one round trip.
            exact
                .iter()
                .map(|e| (child(base, e.segment), e.key.clone(), Some(e.why)))
                .filter(|(ns, key, _)| !seen.contains(&(ns.as_slice(), key.as_str())))
                .collect()
        };
        if candidates.is_empty() {
            return Ok(scan);
        }
        let answers = self.probe(&candidates)?;
        let int = |v: &Value| match v {
            Value::Int(i) => *i,
            _ => 0,
        };
        let mut read = Vec::new();
        for (i, (ns, key, why)) in candidates.into_iter().enumerate() {
            let indexed = !matches!(answers[3 * i], Value::Nil);
            let (exists, size) = (
                int(&answers[3 * i + 1]) > 0,
                int(&answers[3 * i + 2]).max(0) as u64,
            );
            if !exists || key.as_bytes().contains(&SEPARATOR) {
                continue;
            }
            if matches!(answers[3 * i + 2], Value::ServerError(_)) {
                scan.problems.push((
                    ns.clone(),
                    key.clone(),
                    &store_entry_unreadable::RULE,
                    format!(
                        "item `{}` is not a hash (a key of the wrong type: WRONGTYPE): the runtime's read of it fails; not read",
                        key.escape_debug()
                    ),
                ));
                continue;
            }
            if !indexed {
                let message = unindexed_message(&key, why);
                scan.problems
                    .push((ns.clone(), key.clone(), &store_index_stale::RULE, message));
            }
            // Indexed but not listed: after a listing cut short (RS011); only exact reads reach it.
            if why.is_some() {
                read.push((ns, key, size));
            }
        }
        self.read_values(read, &mut scan)?;
        Ok(scan)
    }

    fn unindexed_owners(
        &mut self,
        prefix: &[String],
    ) -> Result<(Vec<(String, Vec<(String, String)>)>, bool), StoreError> {
        let head = self.item_head(prefix);
        let (found, cut) = self.item_names(prefix)?;
        let mut owners: std::collections::BTreeMap<String, Vec<(String, String)>> =
            Default::default();
        for name in found
            .range(head.clone()..)
            .take_while(|k| k.starts_with(&head))
        {
            // `<id>\0<segment>\0<key>`: a deeper namespace has more separators before the key.
            let mut parts = name[head.len()..].splitn(3, |b| *b == SEPARATOR);
            let (Some(id), Some(segment), Some(key)) = (parts.next(), parts.next(), parts.next())
            else {
                continue;
            };
            let segment = String::from_utf8_lossy(segment).into_owned();
            if key.contains(&SEPARATOR) || !SEGMENTS.iter().any(|(s, _)| *s == segment) {
                continue;
            }
            owners
                .entry(String::from_utf8_lossy(id).into_owned())
                .or_default()
                .push((segment, String::from_utf8_lossy(key).into_owned()));
        }
        Ok((owners.into_iter().collect(), cut))
    }

    fn namespaces(&mut self, prefix: &[String]) -> Result<Vec<Vec<String>>, StoreError> {
        let head = index_key(&self.prefix, prefix);
        let mut pattern = glob_escape(&head);
        pattern.push(SEPARATOR);
        pattern.push(b'*');
        let strip = format!("{}idx:", self.prefix).len();
        let (keys, _) = self.scan_keys(&pattern, usize::MAX)?;
        Ok(keys
            .iter()
            .map(|key| {
                key[strip.min(key.len())..]
                    .split(|b| *b == SEPARATOR)
                    .map(|s| String::from_utf8_lossy(s).into_owned())
                    .collect()
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_laid_out_as_redis_store_writes_them() {
        let ns: Vec<String> = ["agents", "bot", "users", "alice", "skills"]
            .map(String::from)
            .to_vec();
        assert_eq!(
            item_key("agentscope:store:", &ns, "/foo/SKILL.md"),
            b"agentscope:store:item:agents\0bot\0users\0alice\0skills\0/foo/SKILL.md".to_vec()
        );
        assert_eq!(
            index_key("agentscope:store:", &ns),
            b"agentscope:store:idx:agents\0bot\0users\0alice\0skills".to_vec()
        );
        assert_eq!(glob_escape(b"a*b[c]"), b"a\\*b\\[c\\]".to_vec());
    }
}
