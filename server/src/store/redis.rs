//! Redis stores: `RedisStore` (one hash per item at `<prefix>item:<ns>\0<key>` with fields `value`
//! and `version`, one sorted set per namespace at `<prefix>idx:<ns>` whose members are the keys,
//! namespace segments joined with NUL). Listing pages through the index with `ZRANGEBYLEX … LIMIT
//! offset 100` exactly as `searchAllItems` does, with the hashes of a page fetched in one
//! pipeline; only read commands are sent. Depends only on the store module.

use std::time::Duration;

use redis::{Client, Connection};

use super::{Backend, RawItem, Scan, StoreError, StoreSpec, PAGE_SIZE, SEGMENTS};
use crate::base::files::MAX_TEXT_BYTES;
use crate::rules::store::{RS008, RS010, RS011};

/// `RedisStore.NS_SEPARATOR`.
pub const SEPARATOR: u8 = 0;

pub struct RedisBackend {
    conn: Connection,
    prefix: String,
    spec: StoreSpec,
}

impl RedisBackend {
    pub fn open(spec: &StoreSpec) -> Result<Self, StoreError> {
        let client =
            Client::open(spec.secret_url()).map_err(|e| spec.error("invalid Redis URL", e))?;
        let conn = client
            .get_connection_with_timeout(spec.connect_timeout)
            .map_err(|e| spec.error("cannot connect to the Redis store", e))?;
        // A server that stops answering mid-read must not hang the command.
        let io = read_timeout(spec.connect_timeout);
        conn.set_read_timeout(Some(io))
            .and_then(|_| conn.set_write_timeout(Some(io)))
            .map_err(|e| spec.error("cannot connect to the Redis store", e))?;
        Ok(Self {
            conn,
            prefix: spec.prefix.clone(),
            spec: spec.clone(),
        })
    }

    fn fail(&self, e: redis::RedisError) -> StoreError {
        self.spec.error("reading the Redis store failed", e)
    }
}

/// Time allowed for one reply: values may be large, so more than the connect timeout.
pub fn read_timeout(connect: Duration) -> Duration {
    (connect * 6).max(Duration::from_secs(30))
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

impl Backend for RedisBackend {
    fn scan(&mut self, base: &[String]) -> Result<Scan, StoreError> {
        let mut scan = Scan::default();
        for (segment, _) in SEGMENTS {
            let mut ns = base.to_vec();
            ns.push(segment.to_string());
            let index = index_key(&self.prefix, &ns);
            let mut offset = 0usize;
            loop {
                let members: Vec<Vec<u8>> = redis::cmd("ZRANGEBYLEX")
                    .arg(&index)
                    .arg("-")
                    .arg("+")
                    .arg("LIMIT")
                    .arg(offset)
                    .arg(PAGE_SIZE)
                    .query(&mut self.conn)
                    .map_err(|e| self.fail(e))?;
                if members.is_empty() {
                    break;
                }
                let keys: Vec<String> = members
                    .iter()
                    .map(|m| String::from_utf8_lossy(m).into_owned())
                    .collect();
                let mut pipe = redis::pipe();
                for key in &keys {
                    let item = item_key(&self.prefix, &ns, key);
                    pipe.cmd("EXISTS").arg(&item);
                    pipe.cmd("HSTRLEN").arg(&item).arg("value");
                }
                let sizes: Vec<i64> = pipe.query(&mut self.conn).map_err(|e| self.fail(e))?;
                let mut fetch = redis::pipe();
                let mut wanted = Vec::new();
                let mut found = 0usize;
                for (i, key) in keys.iter().enumerate() {
                    let (exists, size) = (sizes[2 * i] > 0, sizes[2 * i + 1].max(0) as u64);
                    if !exists {
                        scan.problems.push((
                            ns.clone(),
                            key.clone(),
                            &RS010,
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
                            ns.clone(),
                            key.clone(),
                            &RS008,
                            "key holds NUL, which RedisStore rejects on read".to_string(),
                        ));
                        continue;
                    }
                    if size > MAX_TEXT_BYTES {
                        scan.items.push(RawItem {
                            namespace: ns.clone(),
                            key: key.clone(),
                            value: None,
                            oversized: Some(size),
                        });
                    } else {
                        fetch
                            .cmd("HGET")
                            .arg(item_key(&self.prefix, &ns, key))
                            .arg("value");
                        wanted.push(key.clone());
                    }
                }
                if !wanted.is_empty() {
                    let values: Vec<Option<Vec<u8>>> =
                        fetch.query(&mut self.conn).map_err(|e| self.fail(e))?;
                    for (key, value) in wanted.into_iter().zip(values) {
                        scan.items.push(RawItem {
                            namespace: ns.clone(),
                            key,
                            value: value.map(|v| String::from_utf8_lossy(&v).into_owned()),
                            oversized: None,
                        });
                    }
                }
                // `searchAllItems` stops at the first page with fewer than 100 items.
                if found < PAGE_SIZE {
                    if members.len() == PAGE_SIZE {
                        let more: i64 = redis::cmd("ZCARD")
                            .arg(&index)
                            .query(&mut self.conn)
                            .map_err(|e| self.fail(e))?;
                        if more as usize > offset + PAGE_SIZE {
                            scan.problems.push((
                                ns.clone(),
                                String::new(),
                                &RS011,
                                format!(
                                    "the listing stops after {} entries: a page of {PAGE_SIZE} index members held only {found} items, so {} later entries are never listed",
                                    offset + found,
                                    more as usize - offset - PAGE_SIZE
                                ),
                            ));
                        }
                    }
                    break;
                }
                offset += PAGE_SIZE;
            }
        }
        Ok(scan)
    }

    fn namespaces(&mut self, prefix: &[String]) -> Result<Vec<Vec<String>>, StoreError> {
        let head = index_key(&self.prefix, prefix);
        let mut pattern = glob_escape(&head);
        pattern.push(SEPARATOR);
        pattern.push(b'*');
        let strip = format!("{}idx:", self.prefix).len();
        let mut cursor: u64 = 0;
        let mut out = Vec::new();
        loop {
            let (next, keys): (u64, Vec<Vec<u8>>) = redis::cmd("SCAN")
                .arg(cursor)
                .arg("MATCH")
                .arg(&pattern)
                .arg("COUNT")
                .arg(1000)
                .query(&mut self.conn)
                .map_err(|e| self.fail(e))?;
            for key in keys {
                let ns = &key[strip.min(key.len())..];
                out.push(
                    ns.split(|b| *b == SEPARATOR)
                        .map(|s| String::from_utf8_lossy(s).into_owned())
                        .collect(),
                );
            }
            if next == 0 {
                break;
            }
            cursor = next;
        }
        Ok(out)
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
