#!/usr/bin/env bash
# Whole-process benchmark of `agentws check` (issue 2 §8): for each size, generate a workspace with
# the genws example, then measure in ONE hyperfine run (warm cache) both `cat` of every generated
# file and `agentws check --format json` of the same workspace; report the ratio, the peak RSS of
# the check (GNU time) and how the time scales with the number of skills.
#
#   scripts/bench-check.sh                 # sizes 2500 5000 10000 skills, 10 runs each
#   BENCH_SIZES="10000" BENCH_RUNS=5 scripts/bench-check.sh
#
# Per size N: N skills, N/10 subagents, N/100 user folders, N/50 MCP servers (10 000 skills ⇒
# 1 000 subagents, 100 users, 200 servers, as in the issue). Data goes to $BENCH_DATA (default
# ./bench-data, gitignored); results to $BENCH_DATA/results.md and stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
data=${BENCH_DATA:-$root/bench-data}
sizes=${BENCH_SIZES:-"2500 5000 10000"}
runs=${BENCH_RUNS:-10}
seed=${BENCH_SEED:-42}
mkdir -p "$data"

need() { command -v "$1" >/dev/null 2>&1; }
if ! need hyperfine; then
  echo "note: hyperfine not found (apt-get install -y hyperfine); using a date +%s%N loop" >&2
fi
if [[ ! -x /usr/bin/time ]]; then
  echo "note: /usr/bin/time not found (apt-get install -y time); peak RSS not measured" >&2
fi
need python3 || { echo "python3 is needed to read the timing results" >&2; exit 2; }

cargo build --release --locked --bin agentws --example genws >&2
bin=$root/target/release/agentws
gen=$root/target/release/examples/genws

# The JSON contract may not exist yet on an early branch: fall back to the default output then.
format_args=(--format json)
set +e
"$bin" check "${format_args[@]}" tests/fixtures/realistic >/dev/null 2>"$data/probe.err"
probe_exit=$?
set -e
if [[ $probe_exit -eq 2 ]] && grep -q -- 'unexpected argument' "$data/probe.err"; then
  echo "note: this agentws has no --format json; measuring the default output" >&2
  format_args=()
fi

# mean seconds of a shell command, without hyperfine: RUNS runs after two warm-ups.
loop_mean() {
  local cmd=$1 i start end total=0
  for i in 1 2; do bash -c "$cmd" >/dev/null 2>&1 || true; done
  for ((i = 0; i < runs; i++)); do
    start=$(date +%s%N)
    bash -c "$cmd" >/dev/null 2>&1 || true
    end=$(date +%s%N)
    total=$((total + end - start))
  done
  python3 -c "print($total / $runs / 1e9)"
}

results=$data/results.md
{
  echo "# agentws check benchmark ($(date -u +%Y-%m-%dT%H:%MZ))"
  echo
  echo "- commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (dirty)')"
  echo "- machine: $(nproc) cores, $(uname -sr), load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- check command: agentws check ${format_args[*]:+${format_args[*]} }WS > /dev/null"
  echo "- cat command: find WS -type f -print0 | xargs -0 cat > /dev/null"
  echo "- runs per command: $runs after warm-up (warm page cache)"
  echo
  echo "| skills | files | MB | cat (ms) | check (ms) | check / cat | cat CPU (ms) | check CPU (ms) | CPU ratio | check peak RSS (MB) | check exit | diagnostics |"
  echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
} > "$results"

for n in $sizes; do
  ws=$data/ws-$n
  rm -rf "$ws"
  "$gen" "$ws" --skills "$n" --subagents $((n / 10)) --users $((n / 100)) \
    --mcp-servers $((n / 50)) --seed "$seed" >&2
  files=$(find "$ws" -type f | wc -l)
  mb=$(find "$ws" -type f -printf '%s\n' | awk '{s += $1} END {printf "%.1f", s / 1e6}')

  cat_cmd="find '$ws' -type f -print0 | xargs -0 cat > /dev/null"
  check_cmd="'$bin' check ${format_args[*]} '$ws' > /dev/null"

  if need hyperfine; then
    hyperfine --style basic --warmup 2 --runs "$runs" --ignore-failure \
      --export-json "$data/hyperfine-$n.json" -n cat "$cat_cmd" -n check "$check_cmd" >&2
    read -r cat_s check_s cat_cpu check_cpu < <(python3 - "$data/hyperfine-$n.json" <<'EOF'
import json, sys
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
cat, check = results["cat"], results["check"]
print(cat["mean"], check["mean"], cat["user"] + cat["system"], check["user"] + check["system"])
EOF
)
  else
    cat_s=$(loop_mean "$cat_cmd")
    check_s=$(loop_mean "$check_cmd")
    cat_cpu=nan
    check_cpu=nan
  fi

  set +e
  "$bin" check "${format_args[@]}" "$ws" > "$data/check-$n.out" 2>/dev/null
  exit_code=$?
  set -e
  diagnostics=$(python3 - "$data/check-$n.out" <<'EOF'
import json, sys
text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
try:
    s = json.loads(text)["summary"]
    print(f'{s["errors"]} errors, {s["warnings"]} warnings, {s["infos"]} infos')
except Exception:
    print(f"{sum(1 for line in text.splitlines() if line.strip())} output lines")
EOF
)

  rss=n/a
  if [[ -x /usr/bin/time ]]; then
    /usr/bin/time -v -o "$data/time-$n.txt" "$bin" check "${format_args[@]}" "$ws" >/dev/null 2>&1 || true
    rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.1f", $2 / 1024}' "$data/time-$n.txt")
  fi

  python3 - "$n" "$files" "$mb" "$cat_s" "$check_s" "$cat_cpu" "$check_cpu" "$rss" "$exit_code" "$diagnostics" >> "$results" <<'EOF'
import math, sys
n, files, mb, cat_s, check_s, cat_cpu, check_cpu, rss, code, diags = sys.argv[1:]
cat_s, check_s, cat_cpu, check_cpu = map(float, (cat_s, check_s, cat_cpu, check_cpu))
if math.isnan(cat_cpu):
    cpu = "n/a | n/a | n/a"
else:
    cpu = f"{cat_cpu*1000:.0f} | {check_cpu*1000:.0f} | {check_cpu/cat_cpu:.2f}"
print(f"| {n} | {files} | {mb} | {cat_s*1000:.0f} | {check_s*1000:.0f} | {check_s/cat_s:.2f} | {cpu} | {rss} | {code} | {diags} |")
EOF
done

# Linear scaling: time per skill at each size, relative to the smallest size.
python3 - "$results" <<'EOF' >> "$results"
import sys
rows = [l.split("|") for l in open(sys.argv[1]) if l.startswith("| ") and l[2].isdigit()]
if len(rows) > 1:
    base_n, base_t, base_c = int(rows[0][1]), float(rows[0][5]), rows[0][8].strip()
    print()
    print("Scaling of the check (linear ⇒ time per skill stays flat; CPU time is the stable figure")
    print("on a shared machine, wall time moves with the neighbours' load):")
    print()
    for r in rows:
        n, t, c = int(r[1]), float(r[5]), r[8].strip()
        line = f"- {n} skills ({n / base_n:.1f}×): wall {t / n * 1000:.1f} µs per skill ({t / base_t:.2f}×)"
        if c != "n/a" and base_c != "n/a":
            line += f", CPU {float(c) / n * 1000:.1f} µs per skill ({float(c) / float(base_c):.2f}×)"
        print(line)
EOF
echo "- load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$results"
cat "$results"
