//! Generates a large remote store for benchmarking `agentws preview --store` and
//! `agentws check --store --all-users` (docs/benchmarks.md).
//!
//! ```sh
//! cargo run --release --example genstore -- OUT URL --users 10000 --files 4 --heavy-skills 500
//! ```
//!
//! OUT becomes a template project (`agentws.toml` for agent `bot` in remote mode, a shared
//! AGENTS.md and skill); URL (`sqlite://PATH`, `redis://…`, `postgres://…` or `mysql://…`)
//! receives, laid out as the Java stores write them (`JdbcStore` on SQLite, PostgreSQL and MySQL
//! with each dialect's DDL, `RedisStore`), for users `u00000…`: an AGENTS.md, a
//! MEMORY.md and `--files - 2` skills each, and for user `heavy` `--heavy-skills` skills. A pure
//! function of the arguments.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn value(content: &str) -> String {
    serde_json::json!({
        "content": content,
        "encoding": "utf-8",
        "created_at": "2026-11-30T10:00:00Z",
        "modified_at": "2026-11-30T10:00:00Z",
    })
    .to_string()
}

fn skill(name: &str, i: usize) -> String {
    format!(
        "---\nname: {name}\ndescription: Skill number {i} looks things up and answers questions about them.\n---\n\
         # {name}\n\nSteps:\n1. Read the request.\n2. Look it up.\n3. Answer briefly.\n"
    )
}

/// (owner, segment, key, value)
fn rows(users: usize, files: usize, heavy: usize) -> Vec<(String, &'static str, String, String)> {
    let mut out = Vec::new();
    for u in 0..users {
        let owner = format!("u{u:05}");
        out.push((
            owner.clone(),
            "root",
            "/AGENTS.md".into(),
            value(&format!("# {owner}\nBe brief.\n")),
        ));
        out.push((
            owner.clone(),
            "root",
            "/MEMORY.md".into(),
            value("- likes trains\n"),
        ));
        for s in 0..files.saturating_sub(2) {
            let name = format!("s{s:03}");
            out.push((
                owner.clone(),
                "skills",
                format!("/{name}/SKILL.md"),
                value(&skill(&name, s)),
            ));
        }
    }
    for s in 0..heavy {
        let name = format!("h{s:04}");
        out.push((
            "heavy".into(),
            "skills",
            format!("/{name}/SKILL.md"),
            value(&skill(&name, s)),
        ));
    }
    out
}

fn ns(owner: &str, segment: &str) -> [String; 5] {
    ["agents", "bot", "users", owner, segment].map(String::from)
}

/// `JdbcStore.namespacePath`: each segment followed by `\x1F`.
fn jdbc_path(owner: &str, segment: &str) -> String {
    ns(owner, segment)
        .iter()
        .map(|s| format!("{s}\u{1F}"))
        .collect()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(out), Some(url)) = (args.first(), args.get(1)) else {
        eprintln!("usage: genstore OUT URL [--users N] [--files N] [--heavy-skills N]");
        return ExitCode::from(2);
    };
    let flag = |name: &str, default: usize| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let (users, files, heavy) = (
        flag("--users", 10_000),
        flag("--files", 4),
        flag("--heavy-skills", 500),
    );
    let out = PathBuf::from(out);
    let ws = out.join(".agentscope/workspace");
    std::fs::create_dir_all(ws.join("skills/hello")).unwrap();
    std::fs::write(
        out.join("agentws.toml"),
        "[agent]\nname = \"bot\"\n[filesystem]\nmode = \"remote\"\n",
    )
    .unwrap();
    std::fs::write(ws.join("AGENTS.md"), "# Template\nBe kind.\n").unwrap();
    std::fs::write(ws.join("skills/hello/SKILL.md"), skill("hello", 0)).unwrap();
    let rows = rows(users, files, heavy);
    if let Some(path) = url.strip_prefix("sqlite://") {
        let path = Path::new(path);
        let _ = std::fs::remove_file(path);
        let mut conn = rusqlite::Connection::open(path).unwrap();
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS agentscope_store (namespace_path TEXT NOT NULL, item_key TEXT NOT NULL, \
             value_json TEXT NOT NULL, version INTEGER NOT NULL, updated_at INTEGER NOT NULL, \
             PRIMARY KEY (namespace_path, item_key))",
        )
        .unwrap();
        let tx = conn.transaction().unwrap();
        for (owner, segment, key, value) in &rows {
            let path = jdbc_path(owner, segment);
            tx.execute(
                "INSERT INTO agentscope_store VALUES (?1, ?2, ?3, 1, 1764496800000)",
                rusqlite::params![path, key, value],
            )
            .unwrap();
        }
        tx.commit().unwrap();
    } else if url.starts_with("postgres://") {
        // The async client agentws itself uses, on a runtime of its own.
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let (mut client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
                .await
                .unwrap();
            tokio::spawn(async move {
                let _ = connection.await;
            });
            // `PostgresJdbcStoreDialect`'s DDL.
            client
                .batch_execute(
                    "DROP TABLE IF EXISTS agentscope_store; \
                     CREATE TABLE agentscope_store (namespace_path VARCHAR(2048), item_key VARCHAR(255), \
                     value_json TEXT, version BIGINT, updated_at BIGINT, PRIMARY KEY (namespace_path, item_key))",
                )
                .await
                .unwrap();
            let tx = client.transaction().await.unwrap();
            let insert = tx
                .prepare("INSERT INTO agentscope_store VALUES ($1, $2, $3, 1, 1764496800000)")
                .await
                .unwrap();
            for (owner, segment, key, value) in &rows {
                tx.execute(&insert, &[&jdbc_path(owner, segment), key, value])
                    .await
                    .unwrap();
            }
            tx.commit().await.unwrap();
        });
    } else if url.starts_with("mysql://") {
        use mysql_async::prelude::Queryable;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let opts = mysql_async::OptsBuilder::from_opts(mysql_async::Opts::from_url(url).unwrap())
                .prefer_socket(false);
            let mut conn = mysql_async::Conn::new(opts).await.unwrap();
            // `MysqlJdbcStoreDialect`'s DDL.
            conn.query_drop(
                "DROP TABLE IF EXISTS agentscope_store; \
                 CREATE TABLE agentscope_store (namespace_path VARCHAR(512) NOT NULL, \
                 item_key VARCHAR(255) NOT NULL, value_json LONGTEXT NOT NULL, version BIGINT NOT NULL, \
                 updated_at BIGINT NOT NULL, PRIMARY KEY (namespace_path, item_key)) \
                 ENGINE=InnoDB DEFAULT CHARSET=utf8mb4",
            )
            .await
            .unwrap();
            let mut tx = conn
                .start_transaction(mysql_async::TxOpts::default())
                .await
                .unwrap();
            tx.exec_batch(
                "INSERT INTO agentscope_store VALUES (?, ?, ?, 1, 1764496800000)",
                rows.iter()
                    .map(|(owner, segment, key, value)| (jdbc_path(owner, segment), key, value)),
            )
            .await
            .unwrap();
            tx.commit().await.unwrap();
        });
    } else {
        let mut conn = redis::Client::open(url.as_str())
            .unwrap()
            .get_connection()
            .unwrap();
        let mut pipe = redis::pipe();
        let mut queued = 0usize;
        for (owner, segment, key, value) in &rows {
            let path = ns(owner, segment).join("\0");
            pipe.cmd("HSET")
                .arg(format!("agentscope:store:item:{path}\0{key}"))
                .arg("value")
                .arg(value)
                .arg("version")
                .arg("1")
                .ignore();
            pipe.cmd("ZADD")
                .arg(format!("agentscope:store:idx:{path}"))
                .arg(0)
                .arg(key)
                .ignore();
            queued += 1;
            if queued == 5000 {
                pipe.query::<()>(&mut conn).unwrap();
                pipe = redis::pipe();
                queued = 0;
            }
        }
        if queued > 0 {
            pipe.query::<()>(&mut conn).unwrap();
        }
    }
    eprintln!(
        "{} rows for {users} users (+ heavy with {heavy} skills)",
        rows.len()
    );
    ExitCode::SUCCESS
}
