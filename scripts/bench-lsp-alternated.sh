#!/bin/sh
# Runs the language server's bench client (server/examples/lsp_bench.rs) on one generated
# workspace against two server binaries in turn, ROUNDS times, so that both builds see the same
# minutes of a shared machine (docs/benchmarks.md compares builds this way).
#
#   scripts/bench-lsp-alternated.sh OLD_BINARY NEW_BINARY ROUNDS EDITS WORKSPACE [OUT]
#
# Each run is `LSP_BENCH_SERVER=<binary> lsp_bench edits WORKSPACE EDITS 0` (debounce 0); the
# environment passes through (LSP_BENCH_SECTIONS, LSP_BENCH_SAMPLES, LSP_BENCH_NO_PREVIEW). OUT
# (default /tmp/lsp-bench-alternated.txt) gets every run's report, headed by the binary, round,
# time and load average. Build the client first:
#   cargo build --release --locked --bin agentws --example lsp_bench --example genws
set -eu
[ $# -ge 5 ] || { sed -n '2,13p' "$0"; exit 2; }
old=$1 new=$2 rounds=$3 edits=$4 workspace=$5 out=${6:-/tmp/lsp-bench-alternated.txt}
client=$(dirname "$0")/../target/release/examples/lsp_bench
: > "$out"
round=1
while [ "$round" -le "$rounds" ]; do
    for binary in "$old" "$new"; do
        echo "== $binary round $round $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)" >> "$out"
        LSP_BENCH_SERVER=$binary "$client" edits "$workspace" "$edits" 0 >> "$out" 2>&1
    done
    round=$((round + 1))
done
grep -v ', in order: ' "$out"
