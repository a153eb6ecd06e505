#!/usr/bin/env bash
# Throughput of `agentws check --all-users` on remote stores (docs/benchmarks.md, "Remote
# stores"): writes the store the docs name (genstore: 1 000 users × 20 files, no heavy user) to
# SQLite and to a Redis server this script starts on a free local port (no persistence, stopped
# at the end), then runs the documented command
#   agentws check PROJECT --store URL --all-users --format concise
# BENCH_RUNS times on each store, alternating this build and, when BENCH_PREV names another
# build, that one, so both are measured in the same run. Prints, per run, wall time, files per
# second (the count the command itself reports), CPU (user + system) and peak RSS (GNU time),
# with the load average; and checks that both builds' `--format json` reports are byte-identical.
#
#   scripts/bench-stores.sh
#   BENCH_PREV=/tmp/agentws-main BENCH_RUNS=5 BENCH_USERS=1000 BENCH_FILES=20 scripts/bench-stores.sh
#
# Data goes to $BENCH_DATA (default ./bench-data/stores, gitignored).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
data=${BENCH_DATA:-$root/bench-data/stores}
runs=${BENCH_RUNS:-3}
users=${BENCH_USERS:-1000}
files=${BENCH_FILES:-20}
prev=${BENCH_PREV:-}
[[ -x /usr/bin/time ]] || { echo "GNU time is needed (apt-get install -y time)" >&2; exit 2; }
command -v redis-server >/dev/null || { echo "redis-server is needed" >&2; exit 2; }

cargo build --release --bin agentws --example genstore >&2
bin=$root/target/release/agentws
gen=$root/target/release/examples/genstore
rm -rf "$data"
mkdir -p "$data/redis-dir"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --dir "$data/redis-dir" \
  >"$data/redis.log" 2>&1 &
redis_pid=$!
trap 'kill "$redis_pid" 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  redis-cli -p "$port" ping >/dev/null 2>&1 && break
  sleep 0.1
done

"$gen" "$data/sqlite" "sqlite://$data/sqlite.db" --users "$users" --files "$files" --heavy-skills 0
"$gen" "$data/redis" "redis://127.0.0.1:$port/0" --users "$users" --files "$files" --heavy-skills 0

builds=("$bin")
[[ -n $prev ]] && builds+=("$prev")

# One run: wall s, files checked, files/s, CPU s, peak RSS MB.
measure() {
  local out=$data/out
  /usr/bin/time -f "%e %U %S %M" -o "$out.time" "$@" >"$out" 2>"$out.err" || true
  local checked
  checked=$(grep -o 'Checked [0-9]* file' "$out" | grep -o '[0-9]*' | head -n 1)
  tail -n 1 "$out.time" | awk -v n="${checked:-0}" \
    '{printf "%.2f s, %d files, %.0f files/s, CPU %.2f s, %.1f MB\n", $1, n, n / $1, $2 + $3, $4 / 1024}'
}

echo "# check --all-users, $users users × $files files ($(date -u +%Y-%m-%dT%H:%MZ))"
echo "commit $(git rev-parse --short HEAD)$(git diff --quiet || echo ' (dirty)'); previous: ${prev:-none}"
for store in sqlite redis; do
  case $store in
    sqlite) url="sqlite://$data/sqlite.db" ;;
    redis) url="redis://127.0.0.1:$port/0" ;;
  esac
  for b in "${!builds[@]}"; do
    "${builds[$b]}" check "$data/$store" --store "$url" --all-users --format json \
      >"$data/$store.$b.json" 2>/dev/null || true
  done
  if [[ -n $prev ]]; then
    if cmp -s "$data/$store.0.json" "$data/$store.1.json"; then
      echo "$store: JSON reports byte-identical"
    else
      echo "$store: JSON reports DIFFER" >&2
    fi
  fi
  for run in $(seq "$runs"); do
    for b in "${!builds[@]}"; do
      name=this
      [[ $b == 1 ]] && name=previous
      printf '%s %s run %d: %s (load %s)\n' "$store" "$name" "$run" \
        "$(measure "${builds[$b]}" check "$data/$store" --store "$url" --all-users --format concise)" \
        "$(cut -d' ' -f1-3 /proc/loadavg)"
    done
  done
done
