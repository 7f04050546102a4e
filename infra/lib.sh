# shellcheck shell=bash disable=SC2034  # variables here are used by the scripts that source this file
# Shared helpers for the infra/*.sh scripts. Sourced, never run.
# Every server binds 127.0.0.1 only and keeps its state under <repo>/.infra/ (gitignored).

set -Eeuo pipefail
# An unexpected failure names the command instead of ending the script silently.
trap 'printf "[%s] ERROR: line %s: %s failed\n" "${SERVICE:-infra}" "$LINENO" "$BASH_COMMAND" >&2' ERR

INFRA_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$INFRA_DIR/.." && pwd)"
# STATE_ROOT can be moved (e.g. to a faster disk) with INFRA_STATE_DIR.
STATE_ROOT="${INFRA_STATE_DIR:-$REPO_ROOT/.infra}"
HOST=127.0.0.1

log() { printf '[%s] %s\n' "${SERVICE:-infra}" "$*"; }
die() { printf '[%s] ERROR: %s\n' "${SERVICE:-infra}" "$*" >&2; exit 1; }

# Prints the last lines of a log file to stderr, framed, so a failed start shows why.
show_tail() {
  local file="$1" lines="${2:-40}"
  if [[ -f "$file" ]]; then
    printf -- '----- last %s lines of %s -----\n' "$lines" "$file" >&2
    tail -n "$lines" "$file" >&2
    printf -- '----- end of %s -----\n' "$file" >&2
  else
    printf '(no log at %s)\n' "$file" >&2
  fi
}

# True when something accepts TCP connections on 127.0.0.1:$1.
port_open() {
  (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null
}

# True when the pid in file $1 is a live process.
pid_alive() {
  local file="$1" pid
  [[ -f "$file" ]] || return 1
  pid="$(cat "$file" 2>/dev/null || true)"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null
}

# Sends TERM to the pid in file $1, waits up to $2 seconds, then KILL. Removes the pid file.
stop_pid() {
  local file="$1" wait_s="${2:-30}" pid i
  if ! pid_alive "$file"; then
    rm -f "$file"
    return 0
  fi
  pid="$(cat "$file")"
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < wait_s * 10; i++)); do
    kill -0 "$pid" 2>/dev/null || { rm -f "$file"; return 0; }
    sleep 0.1
  done
  log "pid $pid still alive after ${wait_s}s, sending KILL"
  kill -KILL "$pid" 2>/dev/null || true
  sleep 0.5
  rm -f "$file"
}

# Fails when port $1 is taken while our own server ($2 = pid file) is not running:
# another server would answer in our place and the tests would talk to a stranger.
ensure_port_free() {
  local port="$1" pidfile="$2"
  if port_open "$port" && ! pid_alive "$pidfile"; then
    die "port $HOST:$port is already in use by another process (not started by this script); stop it or set the port variable"
  fi
}

# Waits until command "$@" succeeds, for at most $WAIT_SECONDS (default 60). Returns 1 on timeout.
wait_until() {
  local deadline=$((SECONDS + ${WAIT_SECONDS:-60}))
  until "$@"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.5
  done
}

# Installs Debian packages that are missing. apt-get update only when an install fails,
# since the package lists are usually there already and updating is slow.
apt_ensure() {
  local missing=() pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  ((${#missing[@]} == 0)) && return 0
  [[ "$(id -u)" == 0 ]] || die "missing packages ${missing[*]}; run as root or install them: apt-get install -y ${missing[*]}"
  log "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # policy-rc.d 101: keep the packages' own system services from starting; we run our own instances.
  local policy=/usr/sbin/policy-rc.d created_policy=0
  if [[ ! -e "$policy" ]]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && created_policy=1
  fi
  if ! apt-get install -y --no-install-recommends "${missing[@]}"; then
    apt-get update && apt-get install -y --no-install-recommends "${missing[@]}" || {
      ((created_policy)) && rm -f "$policy"
      die "could not install ${missing[*]}"
    }
  fi
  ((created_policy)) && rm -f "$policy"
  return 0
}

# Starts "$@" detached from this shell (own session, stdin closed), output appended to $LOGFILE,
# pid written to $PIDFILE. The server outlives the script that started it.
spawn() {
  : "${LOGFILE:?}" "${PIDFILE:?}"
  rm -f "$PIDFILE"
  # The child writes its own pid before exec, so the pid file is right whether or not
  # setsid had to fork (it does when the caller runs with job control).
  setsid bash -c 'echo $$ >"$0"; exec "$@"' "$PIDFILE" "$@" </dev/null >>"$LOGFILE" 2>&1 &
  local i
  for ((i = 0; i < 50; i++)); do [[ -s "$PIDFILE" ]] && return 0; sleep 0.1; done
  die "process did not start: $*"
}

usage() {
  echo "usage: $0 start|stop|status|restart" >&2
  exit 2
}

# Runs the command the script was given ($1: start, stop, status or restart) with the script's
# own start, stop and status functions; anything else prints the usage.
dispatch() {
  case "${1:-}" in
    start) start ;;
    stop) stop ;;
    status) status ;;
    restart) stop; start ;;
    *) usage ;;
  esac
}
