#!/usr/bin/env bash
# Whole-process benchmark of `agentws check` (docs/benchmarks.md): for each size, generate the
# large project shape with the genws example, then measure in ONE hyperfine run (warm cache)
# the floor (`cat` of every file the checker reads: every file but those below a skill's own
# folder's subfolders, the skill resources it only lists), `agentws check --format json` of the
# same project and, when BENCH_PREV names another build, that build too; report the ratios, the
# peak RSS (GNU time) and how the CPU time per file scales with the size. BENCH_INSTRUCTIONS=1
# also counts the check's instructions per file checked (valgrind --tool=callgrind, one run per
# size, tens of times slower than the check): unlike the CPU time, the count does not move with
# the machine's load, so it shows how the work itself scales.
#
#   scripts/bench-check.sh                        # sizes 1000 5000 10000 20000 skills, 10 runs
#   BENCH_SIZES="10000" BENCH_RUNS=5 BENCH_PREV=/tmp/agentws-prev/agentws scripts/bench-check.sh
#
# Per size N: N skills (57 % with a references/ and a scripts/ file), N/10 subagents, N/100
# user folders, N/50 MCP servers, N/200 knowledge files (10 000 skills ⇒ the issue's project:
# 1 000 subagents, 100 users, 200 servers, 50 knowledge files, about 23 700 files), seeded defects.
# BENCH_GENWS_ARGS adds genws options (`--classic` for the earlier benchmarks' shape). Data goes
# to $BENCH_DATA (default ./bench-data, gitignored; each project is deleted after its size unless
# BENCH_KEEP is set); results to $BENCH_DATA/results.md and stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
data=${BENCH_DATA:-$root/bench-data}
sizes=${BENCH_SIZES:-"1000 5000 10000 20000"}
runs=${BENCH_RUNS:-10}
seed=${BENCH_SEED:-42}
prev=${BENCH_PREV:-}
mkdir -p "$data"

need() { command -v "$1" >/dev/null 2>&1; }
need hyperfine || { echo "hyperfine is needed (apt-get install -y hyperfine)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "GNU time is needed (apt-get install -y time)" >&2; exit 2; }
need python3 || { echo "python3 is needed to read the timing results" >&2; exit 2; }
if [[ -n ${BENCH_INSTRUCTIONS:-} ]]; then
  need valgrind || { echo "valgrind is needed for BENCH_INSTRUCTIONS (apt-get install -y valgrind)" >&2; exit 2; }
fi

cargo build --release --locked --bin agentws --example genws >&2
bin=$root/target/release/agentws
gen=$root/target/release/examples/genws

# CPU seconds (user + system) and peak RSS (MB) of one run under GNU time.
measure() {
  local out=$1
  shift
  /usr/bin/time -f "%U %S %M" -o "$out.time" "$@" >"$out" 2>/dev/null || true
  # GNU time writes "Command exited with non-zero status N" first when the check finds errors.
  tail -n 1 "$out.time" | awk '{printf "%.3f %.1f\n", $1 + $2, $3 / 1024}'
}

results=$data/results.md
{
  echo "# agentws check benchmark ($(date -u +%Y-%m-%dT%H:%MZ))"
  echo
  echo "- commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (dirty)')"
  echo "- previous build: ${prev:-none}"
  echo "- machine: $(nproc) cores, $(uname -sr), load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- check command: agentws check --format json PROJECT > /dev/null"
  echo "- floor command: find PROJECT -path '*/skills/*/*' -type d -prune -o -type f -print0 | xargs -0 cat > /dev/null"
  echo "- runs per command: $runs after 2 warm-ups (warm page cache), one hyperfine run for all commands"
  echo
  echo "| skills | files | MB | floor (ms) | check (ms) | check / floor | previous (ms) | previous / floor | check CPU per file (µs) | check instructions per file (k) | check peak RSS (MB) | previous peak RSS (MB) | findings |"
  echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
} >"$results"

for n in $sizes; do
  ws=$data/ws-$n
  rm -rf "$ws"
  # shellcheck disable=SC2086
  "$gen" "$ws" --skills "$n" --subagents $((n / 10)) --users $((n / 100)) \
    --mcp-servers $((n / 50)) --knowledge $(((n + 199) / 200)) --seed "$seed" ${BENCH_GENWS_ARGS:-} >&2
  files=$(find "$ws" -type f | wc -l)
  mb=$(find "$ws" -type f -printf '%s\n' | awk '{s += $1} END {printf "%.1f", s / 1e6}')

  floor_cmd="find '$ws' -path '*/skills/*/*' -type d -prune -o -type f -print0 | xargs -0 cat > /dev/null"
  commands=(-n floor "$floor_cmd" -n check "'$bin' check --format json '$ws' > /dev/null")
  if [[ -n $prev ]]; then
    commands+=(-n previous "'$prev' check --format json '$ws' > /dev/null")
  fi
  hyperfine --style basic --warmup 2 --runs "$runs" --ignore-failure \
    --export-json "$data/hyperfine-$n.json" "${commands[@]}" >&2

  read -r _ check_rss < <(measure "$data/check-$n.out" "$bin" check --format json "$ws")
  prev_rss=n/a
  if [[ -n $prev ]]; then
    read -r _ prev_rss < <(measure "$data/previous-$n.out" "$prev" check --format json "$ws")
  fi
  findings=$(python3 - "$data/check-$n.out" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1], encoding="utf-8"))["summary"]
print(f'{s["errors"]} errors, {s["warnings"]} warnings, {s["infos"]} infos')
EOF
)
  checked=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["files_checked"])' "$data/check-$n.out")
  instructions=n/a
  if [[ -n ${BENCH_INSTRUCTIONS:-} ]]; then
    # The check exits 1 when it finds errors: only valgrind's count matters here.
    instructions=$({ valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" check --format json "$ws" 2>&1 >/dev/null || true; } |
      sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
  fi

  python3 - "$data/hyperfine-$n.json" "$n" "$files" "$mb" "$checked" "$instructions" "$check_rss" "$prev_rss" "$findings" >>"$results" <<'EOF'
import json, sys
path, n, files, mb, checked, instructions, check_rss, prev_rss, findings = sys.argv[1:]
r = {x["command"]: x for x in json.load(open(path))["results"]}
floor, check = r["floor"]["mean"], r["check"]["mean"]
if "previous" in r:
    p = r["previous"]["mean"]
    previous = f"{p*1000:.0f} | {p/floor:.2f}"
else:
    previous = "n/a | n/a"
# The CPU time (user + system) hyperfine measured over all the runs: steadier than one run's.
cpu = r["check"]["user"] + r["check"]["system"]
per_file = cpu / max(int(checked), 1) * 1e6
per_file_instructions = "n/a" if instructions == "n/a" else f"{int(instructions) / max(int(checked), 1) / 1000:.1f}"
print(f"| {n} | {files} | {mb} | {floor*1000:.0f} | {check*1000:.0f} | {check/floor:.2f} | {previous} | {per_file:.1f} | {per_file_instructions} | {check_rss} | {prev_rss} | {findings} |")
EOF
  [[ -n ${BENCH_KEEP:-} ]] || rm -rf "$ws"
done

# Linear scaling: the check's CPU time (and instructions) per file checked, relative to the
# smallest size.
python3 - "$results" <<'EOF' >>"$results"
import sys
rows = [l.split("|") for l in open(sys.argv[1]) if l.startswith("| ") and l[2].isdigit()]
for column, name, unit in ((9, "CPU", "µs"), (10, "Instructions", "k")):
    if len(rows) < 2 or rows[0][column].strip() == "n/a":
        continue
    base = float(rows[0][column])
    print()
    print(f"{name} per file checked, relative to the smallest size (linear ⇒ flat):")
    print()
    for r in rows:
        print(f"- {int(r[1])} skills: {float(r[column]):.1f} {unit} ({float(r[column]) / base:.2f}×)")
EOF
echo "- load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$results"
cat "$results"
