#!/usr/bin/env bash
# Whole-process timings of the inputs that used to take time super-linear in their size (the
# hardening issue's "Hangs and super-linear time" items): `agentws check --format concise` on
#   dashes-80k   a SKILL.md whose frontmatter is followed by 80 000 dashes
#   dashes-1m    the same with 1 MiB of dashes
#   keys-128k    an agentws.toml of 128 000 unknown keys (1.8 MB, one diagnostic each)
#   name-4m      a tools.json allowing one 4 MiB tool name
#   mcp-20k      20 000 MCP tools against 20 000 unknown allow entries
#   oneline-64k  a minified tools.json: 64 000 unknown allow entries on one 1.1 MB line
#
#   scripts/bench-hangs.sh                          # this checkout's release binary
#   OLD_BIN=/path/to/older/agentws scripts/bench-hangs.sh   # and an older binary, one run each
#   NEW_BIN=/path/to/agentws scripts/bench-hangs.sh          # measure that binary, build nothing
#
# Data goes to $BENCH_DATA (default ./bench-data/hangs, gitignored). Needs hyperfine and python3.
# Each command of the older binary is cut off after $OLD_TIMEOUT seconds (default 300).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
data=${BENCH_DATA:-$root/bench-data/hangs}
runs=${BENCH_RUNS:-5}
old_timeout=${OLD_TIMEOUT:-300}
mkdir -p "$data"
command -v hyperfine >/dev/null || { echo "hyperfine is needed (apt-get install -y hyperfine)" >&2; exit 2; }

if [[ -n "${NEW_BIN:-}" ]]; then
  new=$NEW_BIN
else
  cargo build --release --locked --bin agentws >&2
  new=$root/target/release/agentws
fi

python3 - "$data" <<'EOF'
import json, os, shutil, sys
data = sys.argv[1]
def project(name):
    root = os.path.join(data, name)
    shutil.rmtree(root, ignore_errors=True)
    ws = os.path.join(root, ".agentscope/workspace")
    os.makedirs(ws)
    open(os.path.join(ws, "AGENTS.md"), "w").write("You are a helpful assistant.\n")
    return root, ws
for name, count in [("dashes-80k", 80_000), ("dashes-1m", 1 << 20)]:
    root, ws = project(name)
    os.makedirs(os.path.join(ws, "skills/dashes"))
    open(os.path.join(ws, "skills/dashes/SKILL.md"), "w").write(
        "---\nname: dashes\ndescription: d\n" + "-" * count + "\n")
root, ws = project("keys-128k")
open(os.path.join(root, "agentws.toml"), "w").write(
    "".join(f"key{i:06d} = 1\n" for i in range(128_000)))
root, ws = project("name-4m")
open(os.path.join(ws, "tools.json"), "w").write(json.dumps({"allow": ["t" * (4 << 20), "read_fil"]}))
root, ws = project("mcp-20k")
open(os.path.join(ws, "tools.json"), "w").write(json.dumps({
    "mcpServers": {"big": {"transport": "stdio", "command": "big-server",
                           "enableTools": [f"mcp_tool_{i:05d}" for i in range(20_000)]}},
    "allow": [f"mcp_tool_{i:05d}x" for i in range(20_000)]}))
root, ws = project("oneline-64k")
open(os.path.join(ws, "tools.json"), "w").write(json.dumps({"allow": [f"unknown_{i:06d}" for i in range(64_000)]}))
EOF

cases=${BENCH_CASES:-"dashes-80k dashes-1m keys-128k name-4m mcp-20k oneline-64k"}
for c in $cases; do
  hyperfine --style basic --warmup 1 --runs "$runs" --ignore-failure \
    --export-json "$data/new-$c.json" -n "new $c" \
    "'$new' check --format concise '$data/$c' > /dev/null" >&2
  if [[ -n "${OLD_BIN:-}" ]]; then
    hyperfine --style basic --runs 1 --ignore-failure \
      --export-json "$data/old-$c.json" -n "old $c" \
      "timeout $old_timeout '$OLD_BIN' check --format concise '$data/$c' > /dev/null" >&2
  fi
done

python3 - "$data" $cases <<'EOF'
import json, os, sys
data, cases = sys.argv[1], sys.argv[2:]
def mean(kind, case):
    path = os.path.join(data, f"{kind}-{case}.json")
    if not os.path.exists(path):
        return "n/a"
    r = json.load(open(path))["results"][0]
    return f"{r['mean']:.3f} s" + (f" (exit {r['exit_codes'][0]})" if r["exit_codes"][0] not in (0, 1) else "")
print("| input | before | after |")
print("|---|---:|---:|")
for c in cases:
    print(f"| {c} | {mean('old', c)} | {mean('new', c)} |")
EOF
