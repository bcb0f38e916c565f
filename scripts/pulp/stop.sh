#!/usr/bin/env bash
# Stop the Pulp started by start.sh under $PULP_HOME: only the process groups
# whose pids are recorded in $PULP_HOME/pids (TERM, wait up to 20 s, then
# KILL), then the private PostgreSQL cluster via pg_ctl. Never kills by name.
# Data (database, media) is kept; delete $PULP_HOME to start from scratch.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
[[ -d "$PULP_HOME" ]] || { log "nothing to stop ($PULP_HOME does not exist)"; exit 0; }
abs_pulp_home
lock_pulp_home

rm -f "$ENV_FILE"   # no one should pick up a server that is going away

# --- Pulp process groups -------------------------------------------------------
groups=()
for f in "$PIDS_DIR"/*.pid; do
  [[ -f "$f" ]] || continue
  pid="$(cat "$f")"
  if [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 -- "-$pid" 2>/dev/null \
    && { ! kill -0 "$pid" 2>/dev/null || grep -qa pulp "/proc/$pid/cmdline"; }; then
    # The group still has members, and its leader (if alive) is a Pulp process
    # (a guard against a pid recycled by something else).
    groups+=("$pid")
    kill -TERM -- "-$pid" 2>/dev/null || true
  else
    rm -f "$f"   # dead already
  fi
done
if ((${#groups[@]})); then
  log "stopping process groups: ${groups[*]}"
  for ((i = 0; i < 40; i++)); do
    alive=0
    for pid in "${groups[@]}"; do
      kill -0 -- "-$pid" 2>/dev/null && alive=1
    done
    ((alive)) || break
    sleep 0.5
  done
  for pid in "${groups[@]}"; do
    if kill -0 -- "-$pid" 2>/dev/null; then
      log "process group $pid ignored TERM: KILL"
      kill -KILL -- "-$pid" 2>/dev/null || true
    fi
  done
  rm -f "$PIDS_DIR"/*.pid
fi

# --- PostgreSQL ----------------------------------------------------------------
PGDATA="$(pg_root)/data"
if [[ -f "$PGDATA/postmaster.pid" ]]; then
  log "stopping PostgreSQL ($PGDATA)"
  as_pg "$PG_BIN/pg_ctl" -D "$PGDATA" -m fast -w -t 60 stop >/dev/null \
    || log "pg_ctl stop failed (already stopped?)"
fi
log "stopped"
