#!/usr/bin/env bash
# Throughput of `agentws check --all-users` on remote stores (docs/benchmarks.md, "Remote
# stores"): writes the store the docs name (genstore: 1 000 users × 20 files, no heavy user) to
# SQLite and to a Redis, a PostgreSQL and a MariaDB server this script starts on free local ports
# (throwaway data folders, stopped at the end; PostgreSQL with an ICU `en-US` collation, as most
# deployments have, under which the runtime's LIKE prefix cannot use the primary key), then runs
# the documented command
#   agentws check PROJECT --store URL --all-users --format concise
# BENCH_RUNS times on each store, alternating this build and, when BENCH_PREV names another
# build, that one, so both are measured in the same run. Prints, per run, wall time, files per
# second (the count the command itself reports), CPU (user + system) and peak RSS (GNU time),
# with the load average; and checks that both builds' `--format json` reports are byte-identical.
#
#   scripts/bench-stores.sh
#   BENCH_PREV=/tmp/agentws-main BENCH_RUNS=5 BENCH_STORES="sqlite postgres" scripts/bench-stores.sh
#
# BENCH_STORES picks the stores (default: sqlite redis postgres mariadb; a server whose binaries
# are missing is skipped with a note). Data goes to $BENCH_DATA (default ./bench-data/stores,
# gitignored).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
data=${BENCH_DATA:-$root/bench-data/stores}
runs=${BENCH_RUNS:-3}
users=${BENCH_USERS:-1000}
files=${BENCH_FILES:-20}
prev=${BENCH_PREV:-}
[[ -x /usr/bin/time ]] || { echo "GNU time is needed (apt-get install -y time)" >&2; exit 2; }
stores=${BENCH_STORES:-sqlite redis postgres mariadb}

cargo build --release --bin agentws --example genstore >&2
bin=$root/target/release/agentws
gen=$root/target/release/examples/genstore
rm -rf "$data"
mkdir -p "$data"
pids=()
trap 'for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done' EXIT

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
wait_port() {
  for _ in $(seq 300); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "no server on port $1" >&2
  return 1
}

# Each start_* sets `url` to the store's URL, or leaves it empty when the server is not installed.
start_redis() {
  command -v redis-server >/dev/null || return 0
  local port dir=$data/redis-dir
  port=$(free_port)
  mkdir -p "$dir"
  redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --dir "$dir" \
    >"$data/redis.log" 2>&1 &
  pids+=($!)
  wait_port "$port"
  url="redis://127.0.0.1:$port/0"
}
start_postgres() {
  local bin
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [[ -x $bin/initdb ]] || return 0
  local port dir=$data/postgres as=()
  port=$(free_port)
  mkdir -p "$dir"
  echo bench >"$dir/pw"
  # The server refuses to run as root.
  if [[ $(id -u) == 0 ]]; then
    chown -R postgres "$dir"
    as=(runuser -u postgres --)
  fi
  "${as[@]}" "$bin/initdb" -D "$dir/data" -U postgres -A scram-sha-256 --pwfile="$dir/pw" \
    --no-sync -E UTF8 --locale=C.UTF-8 --locale-provider=icu --icu-locale=en-US >"$data/postgres.log" 2>&1
  "${as[@]}" "$bin/postgres" -D "$dir/data" -p "$port" -k "$dir" -c listen_addresses=127.0.0.1 \
    -c fsync=off >>"$data/postgres.log" 2>&1 &
  pids+=($!)
  wait_port "$port"
  url="postgres://postgres:bench@127.0.0.1:$port/postgres"
}
start_mariadb() {
  command -v mariadb-install-db >/dev/null && [[ -x /usr/sbin/mariadbd ]] || return 0
  local port dir=$data/mariadb
  port=$(free_port)
  mkdir -p "$dir/tmp"
  mariadb-install-db --no-defaults --datadir="$dir/data" --tmpdir="$dir/tmp" --user="$(id -un)" \
    --auth-root-authentication-method=normal --skip-test-db >"$data/mariadb.log" 2>&1
  /usr/sbin/mariadbd --no-defaults --datadir="$dir/data" --tmpdir="$dir/tmp" --socket="$dir/sock" \
    --port="$port" --bind-address=127.0.0.1 --user="$(id -un)" --skip-log-bin \
    --pid-file="$dir/pid" >>"$data/mariadb.log" 2>&1 &
  pids+=($!)
  wait_port "$port"
  mariadb --no-defaults -S "$dir/sock" -u root -e \
    "CREATE DATABASE ws; CREATE USER 'agent'@'%' IDENTIFIED BY 'bench'; GRANT ALL ON ws.* TO 'agent'@'%'"
  url="mysql://agent:bench@127.0.0.1:$port/ws"
}

declare -A urls
for store in $stores; do
  case $store in
    sqlite) url="sqlite://$data/sqlite.db" ;;
    redis) url=""; start_redis ;;
    postgres) url=""; start_postgres ;;
    mariadb) url=""; start_mariadb ;;
    *) echo "unknown store $store" >&2; exit 2 ;;
  esac
  if [[ -z $url ]]; then
    echo "$store: not installed, skipped" >&2
    continue
  fi
  urls[$store]=$url
  "$gen" "$data/$store" "$url" --users "$users" --files "$files" --heavy-skills 0
done

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
for store in $stores; do
  [[ -n ${urls[$store]:-} ]] || continue
  url=${urls[$store]}
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
