#!/usr/bin/env python3
"""Writes a remote-mode store for the editor tests (Neovim, VS Code workbench): a SQLite file in
the layout of the runtime's JdbcStore (table agentscope_store; namespace segments each followed by
U+001F), as tests/e2e/stores.rs writes it, with one user whose files load and one whose skill the
runtime drops (its frontmatter is never closed) and a subagent whose description is not YAML.

    seed-store.py STORE.db AGENT_NAME

Python's standard library only (sqlite3), so it runs wherever the editors' tests run.
"""

import json
import sqlite3
import sys

FILES = [
    ("alice", "root", "/AGENTS.md", "# Alice\nAnswer in French.\n"),
    ("alice", "skills", "/trains/SKILL.md",
     "---\nname: trains\ndescription: Look up train timetables.\n---\nUse the timetable API.\n"),
    ("bob", "skills", "/broken/SKILL.md", "---\nname: broken\ndescription: never closed\n"),
    # A file name no workspace of the tests has, for a filter to find.
    ("bob", "subagents", "/night-train.md", "---\nname: night-train\ndescription: [never closed\n---\nRuns at night.\n"),
]


def main(path, agent):
    conn = sqlite3.connect(path)
    conn.execute(
        "CREATE TABLE IF NOT EXISTS agentscope_store (namespace_path TEXT NOT NULL, "
        "item_key TEXT NOT NULL, value_json TEXT NOT NULL, version INTEGER NOT NULL, "
        "updated_at INTEGER NOT NULL, PRIMARY KEY (namespace_path, item_key))"
    )
    for owner, segment, key, content in FILES:
        namespace = "".join(s + "\x1f" for s in ["agents", agent, "users", owner, segment])
        value = json.dumps({
            "content": content,
            "encoding": "utf-8",
            "created_at": "2026-11-30T10:00:00Z",
            "modified_at": "2026-11-30T10:00:00.123Z",
        })
        conn.execute(
            "INSERT OR REPLACE INTO agentscope_store VALUES (?, ?, ?, 1, 1764496800123)",
            (namespace, key, value),
        )
    conn.commit()
    conn.close()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: seed-store.py STORE.db AGENT_NAME")
    main(sys.argv[1], sys.argv[2])
