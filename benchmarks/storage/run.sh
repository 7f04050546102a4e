#!/usr/bin/env bash
# Bytes per event on disk in ClickHouse: generates EVENTS events with the demo generator in bulk
# mode (through the aggregator's handler: enrichment, visits, every rollup) into a fresh chDB
# directory, then merges every table and measures it (measure.mjs): the events table alone, all
# tables together, and the events table column by column, with codec experiments.
#
# Needs: `npm run build` (server/dist/demo/generate.js). No servers (chDB in process).
#
# Environment (defaults):
#   EVENTS=10m         sizes to measure, comma-separated (e.g. 1m,10m); each in its own directory
#   DAYS=35            days of traffic (monthly partitions: 35 days span two months)
#   SEED=1             generator seed
#   CODECS=1           0: skip the codec experiments
#   KEEP=0             1: keep the data directories (they are large) under benchmarks/.results/
# Results: benchmarks/.results/<time>/storage-<size>.{txt,json}, generator logs beside them.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bench="$(cd "$here/.." && pwd)"
root="$(cd "$bench/.." && pwd)"

EVENTS="${EVENTS:-10m}"
DAYS="${DAYS:-35}"
SEED="${SEED:-1}"
CODECS="${CODECS:-1}"
KEEP="${KEEP:-0}"

out="$bench/.results/$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
say() { printf '[storage] %s\n' "$*"; }
[[ -f "$root/server/dist/demo/generate.js" ]] || { echo "server/dist/demo/generate.js missing: run npm run build" >&2; exit 1; }

say "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), $(free -m | awk '/^Mem:/ {print $2}') MiB RAM, node $(node --version)"
IFS=',' read -r -a sizes <<<"$EVENTS"
for size in "${sizes[@]}"; do
  data="$out/data-$size"
  mkdir -p "$data"
  say "$size events over $DAYS days into $data (load: $(cut -d' ' -f1-3 /proc/loadavg))"
  start=$(date +%s)
  DATA_DIR="$data" CLICKHOUSE_URL='' node "$root/server/dist/demo/generate.js" \
    --project 7596044 --events "$size" --days "$DAYS" --seed "$SEED" --bulk --json \
    >"$out/generate-$size.json" 2>"$out/generate-$size.log"
  took=$(($(date +%s) - start))
  say "generated in ${took} s ($(jq -r '.eventsPerSecond' "$out/generate-$size.json") events/s through the aggregator; load: $(cut -d' ' -f1-3 /proc/loadavg))"
  flags=(--json "$out/storage-$size.json")
  [[ "$CODECS" == 1 ]] && flags+=(--codecs)
  (cd "$root" && node "$here/measure.mjs" "$data/clickhouse" "${flags[@]}") | tee "$out/storage-$size.txt"
  du -sh "$data/clickhouse" | sed 's/^/[storage] whole chDB directory: /'
  [[ "$KEEP" == 1 ]] || rm -rf "$data"
done
say "results in ${out#"$root"/}"
