#!/usr/bin/env bash
# shellcheck disable=SC2154  # R_* results are assigned indirectly, with printf -v
# Collector throughput against its ceiling, in one run on one machine:
#   1. a bare uWebSockets.js server that answers 204 with no work (bare-server.mjs),
#   2. the real collector (ROLES=collector node server/dist/main.js) feeding the real Kafka,
# both under the same k6 load (hits.js), then hits/s of each and their ratio.
# It also checks that every hit the collector answered 204 is in Kafka afterwards.
#
# Needs: `npm run build` (server/dist/main.js), Kafka (`bash infra/kafka.sh start`),
# k6 (built by benchmarks/setup-k6.sh on first use).
#
# Environment (defaults):
#   DURATION=20s  VUS=64  WARMUP=3s        k6 load per target (the warm-up is not counted)
#   BARE_PORT=8090  COLLECTOR_PORT=8091    loopback ports of the two servers
#   KAFKA_BROKERS=127.0.0.1:9092
#   BENCH_KAFKA_TOPIC=stat-bench-hits      topic the collector writes to (kept apart from the app's)
#   PIN_CPUS=0                             1: run the server on core 0 and k6 on core 1 (on 2 cores
#                                          this starves k6, which then measures itself; off by default)
#   REFERENCE_ROOT=                        another built checkout (e.g. a git worktree of main) whose
#                                          collector is measured too, in the same run, as `reference`
# Results (k6 summaries, server logs): benchmarks/.results/<time>/
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bench="$(cd "$here/.." && pwd)"
root="$(cd "$bench/.." && pwd)"

DURATION="${DURATION:-20s}"
VUS="${VUS:-64}"
WARMUP="${WARMUP:-3s}"
BARE_PORT="${BARE_PORT:-8090}"
COLLECTOR_PORT="${COLLECTOR_PORT:-8091}"
KAFKA_BROKERS="${KAFKA_BROKERS:-127.0.0.1:9092}"
BENCH_KAFKA_TOPIC="${BENCH_KAFKA_TOPIC:-stat-bench-hits}"
PIN_CPUS="${PIN_CPUS:-0}"

K6="$bench/.bin/k6"
out="$bench/.results/$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"

say() { printf '[bench] %s\n' "$*"; }
die() { printf '[bench] ERROR: %s\n' "$*" >&2; exit 1; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

[[ -x "$K6" ]] || bash "$bench/setup-k6.sh"
[[ -f "$root/server/dist/main.js" ]] || die "server/dist/main.js missing: run npm run build first"
kafka_host="${KAFKA_BROKERS%%,*}"
port_open "${kafka_host##*:}" || die "no Kafka at $kafka_host: start it with bash infra/kafka.sh start"
for p in "$BARE_PORT" "$COLLECTOR_PORT"; do
  port_open "$p" && die "port $p is taken; set BARE_PORT / COLLECTOR_PORT"
done

server_cpu=() k6_cpu=()
if [[ "$PIN_CPUS" == 1 ]] && (($(nproc) >= 2)) && command -v taskset >/dev/null; then
  server_cpu=(taskset -c 0) k6_cpu=(taskset -c 1)
fi

server_pid=""
stop_server() {
  if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$server_pid" 2>/dev/null || true
  fi
  server_pid=""
}
trap stop_server EXIT

wait_port() {
  for _ in $(seq 150); do port_open "$1" && return 0; kill -0 "$server_pid" 2>/dev/null || return 1; sleep 0.1; done
  return 1
}

# CPU seconds (user + system) used so far by a process, from /proc/<pid>/stat; 0 without a pid.
cpu_seconds() {
  [[ -n "${1:-}" && -r "/proc/$1/stat" ]] || { echo 0; return 0; }
  local hz; hz="$(getconf CLK_TCK)"
  awk -v hz="$hz" '{ sub(/^.*\) /, ""); printf "%.2f", ($12 + $13) / hz }' "/proc/$1/stat"
}

# The Kafka broker's pid when infra/kafka.sh started it here (for its CPU share), else empty.
kafka_pid="$(cat "$root/.infra/kafka/kafka.pid" 2>/dev/null || true)"

# k6 against $1 (base url) for $2; summary to $3; k6's own CPU seconds to ${3%.json}.cpu.
load() {
  local TIMEFORMAT='%U %S'
  { time "${k6_cpu[@]}" "$K6" run -q --no-color --summary-export="$3" \
    -e TARGET="$1" -e VUS="$VUS" -e DURATION="$2" "$here/hits.js" >"${3%.json}.txt" 2>&1; } 2>"${3%.json}.time" \
    || { cat "${3%.json}.txt" >&2; return 1; }
  awk '{ printf "%.2f", $1 + $2 }' "${3%.json}.time" >"${3%.json}.cpu"
}

metric() { jq -r "$2" "$1"; }

# Runs warm-up and measured load against the server on $2, named $1; fills R_<name>_*
# (rate, count, med, p99, cpu, us, k6, kafka), which the summary below reads.
measure() {
  local name="$1" port="$2" cpu0 cpu1 kcpu0 kcpu1 started elapsed
  say "$name: warm-up $WARMUP"
  load "http://127.0.0.1:$port" "$WARMUP" "$out/$name-warmup.json"
  [[ "$name" != bare ]] && drain_collector
  [[ "$name" != bare ]] && kafka_before="$(KAFKA_BROKERS="$KAFKA_BROKERS" node "$here/kafka-offsets.mjs" "$BENCH_KAFKA_TOPIC")"
  say "$name: $VUS VUs for $DURATION"
  cpu0="$(cpu_seconds "$server_pid")"
  kcpu0="$(cpu_seconds "$kafka_pid")"
  started="$(date +%s.%N)"
  load "http://127.0.0.1:$port" "$DURATION" "$out/$name.json"
  elapsed="$(echo "$(date +%s.%N) - $started" | bc)"
  cpu1="$(cpu_seconds "$server_pid")"
  kcpu1="$(cpu_seconds "$kafka_pid")"
  printf -v "R_${name}_rate" '%.0f' "$(metric "$out/$name.json" '.metrics.http_reqs.rate')"
  printf -v "R_${name}_count" '%s' "$(metric "$out/$name.json" '.metrics.http_reqs.count')"
  printf -v "R_${name}_p99" '%.2f' "$(metric "$out/$name.json" '.metrics.http_req_duration["p(99)"]')"
  printf -v "R_${name}_med" '%.2f' "$(metric "$out/$name.json" '.metrics.http_req_duration.med')"
  printf -v "R_${name}_cpu" '%.0f' "$(echo "100 * ($cpu1 - $cpu0) / $elapsed" | bc -l)"
  printf -v "R_${name}_us" '%.1f' "$(echo "1000000 * ($cpu1 - $cpu0) / $(metric "$out/$name.json" '.metrics.http_reqs.count')" | bc -l)"
  printf -v "R_${name}_k6" '%.0f' "$(echo "100 * $(cat "$out/$name.cpu") / $elapsed" | bc -l)"
  printf -v "R_${name}_kafka" '%.0f' "$(echo "100 * ($kcpu1 - $kcpu0) / $elapsed" | bc -l)"
}

# Waits until the collector's buffer is empty (everything accepted is on the bus).
drain_collector() {
  for _ in $(seq 300); do
    # .unstored since the health report of issue 9; .buffered before it (a REFERENCE_ROOT).
    [[ "$(curl -fsS "http://127.0.0.1:$COLLECTOR_PORT/health" | jq -r '.unstored // .buffered')" == 0 ]] && return 0
    sleep 0.1
  done
  die "collector buffer did not drain in 30 s"
}

command -v jq >/dev/null || die "jq is needed (apt-get install -y jq)"
command -v bc >/dev/null || die "bc is needed (apt-get install -y bc)"
say "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), k6 $("$K6" version | awk '{print $2}'), node $(node --version)"
say "pinning: server ${server_cpu[*]:-none}, k6 ${k6_cpu[*]:-none}; results in ${out#"$root"/}"

# 1. The ceiling.
BARE_PORT="$BARE_PORT" "${server_cpu[@]}" node "$here/bare-server.mjs" >"$out/bare-server.log" 2>&1 &
server_pid=$!
wait_port "$BARE_PORT" || { cat "$out/bare-server.log" >&2; die "bare server did not start"; }
measure bare "$BARE_PORT"
stop_server

# 2. The collector, feeding Kafka (and the reference checkout's, when given). Fills in_kafka_<name>.
run_collector() {
  local name="$1" checkout="$2" after
  (cd "$checkout" && ROLES=collector COLLECTOR_PORT="$COLLECTOR_PORT" KAFKA_BROKERS="$KAFKA_BROKERS" \
    KAFKA_TOPIC="$BENCH_KAFKA_TOPIC" exec "${server_cpu[@]}" node server/dist/main.js) >"$out/$name.log" 2>&1 &
  server_pid=$!
  wait_port "$COLLECTOR_PORT" || { cat "$out/$name.log" >&2; die "$name did not start"; }
  curl -fsS "http://127.0.0.1:$COLLECTOR_PORT/health" >/dev/null || die "$name /health does not answer"
  kafka_before=0
  measure "$name" "$COLLECTOR_PORT"
  drain_collector
  after="$(KAFKA_BROKERS="$KAFKA_BROKERS" node "$here/kafka-offsets.mjs" "$BENCH_KAFKA_TOPIC")"
  stop_server
  printf -v "in_kafka_$name" '%s' "$((after - kafka_before))"
}
run_collector collector "$root"
in_kafka="$in_kafka_collector"
if [[ -n "${REFERENCE_ROOT:-}" ]]; then
  [[ -f "$REFERENCE_ROOT/server/dist/main.js" ]] || die "REFERENCE_ROOT has no server/dist/main.js: build it first"
  run_collector reference "$REFERENCE_ROOT"
fi

ratio="$(echo "scale=2; $R_collector_rate / $R_bare_rate" | bc -l)"
{
  printf '\n%-10s %8s %7s %7s %11s %13s %7s %10s\n' target hits/s 'med ms' 'p99 ms' 'server CPU' 'CPU µs / hit' 'k6 CPU' 'Kafka CPU'
  printf '%-10s %8s %7s %7s %10s%% %13s %6s%% %9s%%\n' bare "$R_bare_rate" "$R_bare_med" "$R_bare_p99" "$R_bare_cpu" "$R_bare_us" "$R_bare_k6" "$R_bare_kafka"
  printf '%-10s %8s %7s %7s %10s%% %13s %6s%% %9s%%\n' collector "$R_collector_rate" "$R_collector_med" "$R_collector_p99" "$R_collector_cpu" "$R_collector_us" "$R_collector_k6" "$R_collector_kafka"
  if [[ -n "${REFERENCE_ROOT:-}" ]]; then
    printf '%-10s %8s %7s %7s %10s%% %13s %6s%% %9s%%\n' reference "$R_reference_rate" "$R_reference_med" "$R_reference_p99" "$R_reference_cpu" "$R_reference_us" "$R_reference_k6" "$R_reference_kafka"
  fi
  printf '(CPU %% is of one core; this machine has %s)\n' "$(nproc)"
  printf '\ncollector / bare = %s   (target: >= 0.5 while feeding Kafka)\n' "$ratio"
  printf 'hits answered 204 in the measured run: %s; new messages in Kafka topic %s: %s\n' \
    "$R_collector_count" "$BENCH_KAFKA_TOPIC" "$in_kafka"
  printf 'k6: %s VUs, %s (after %s warm-up), keep-alive, POST text/plain JSON hits\n' "$VUS" "$DURATION" "$WARMUP"
} | tee "$out/summary.txt"

((in_kafka == R_collector_count)) || die "Kafka got $in_kafka messages for $R_collector_count accepted hits"
if [[ -n "${REFERENCE_ROOT:-}" ]]; then
  ((in_kafka_reference == R_reference_count)) || die "Kafka got $in_kafka_reference messages for $R_reference_count hits the reference accepted"
  printf 'collector CPU per hit / reference = %s\n' "$(echo "scale=3; $R_collector_us / $R_reference_us" | bc -l)" | tee -a "$out/summary.txt"
fi
