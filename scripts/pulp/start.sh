#!/usr/bin/env bash
# Start a private Pulp 3 server for the tests, all state under $PULP_HOME
# (default <repo root>/target/pulp):
#   pg/        private PostgreSQL 15 cluster (owner postgres, trust auth, 127.0.0.1)
#   etc/       settings.py, secret key, DB encryption key
#   media/ static/ tmp/ work/   Pulp storage and scratch dirs
#   pids/      one pid file per process group (api, content, worker-N)
#   logs/      one log per process
#   env        shell-sourceable PULP_BASE_URL, PULP_CONTENT_URL, PULP_USERNAME, PULP_PG_PORT, ...
# Every listener binds 127.0.0.1 on a port chosen free at start time.
# If a healthy Pulp from an earlier start under the same PULP_HOME is running,
# it is reused. Needs scripts/pulp/install.sh to have run.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
abs_pulp_home
lock_pulp_home

START_TIMEOUT="${PULP_START_TIMEOUT:-120}"
[[ -x "$VENV/bin/pulpcore-manager" && -f "$VENV_MARKER" ]] \
  || die "no Pulp venv at $VENV: run scripts/pulp/install.sh first"
command -v jq >/dev/null || die "jq missing: run scripts/pulp/install.sh first"

# --- Reuse a running, healthy server -----------------------------------------
if [[ -f "$ENV_FILE" ]]; then
  base="$(sed -n 's/^export PULP_BASE_URL=//p' "$ENV_FILE")"
  if [[ -n "$base" ]] && pulp_healthy "$base"; then
    log "reusing the running Pulp at $base"
    cat "$ENV_FILE"
    exit 0
  fi
fi
# Anything left over from an earlier start (dead or half-alive) goes first.
"$PULP_SCRIPTS_DIR/stop.sh" >/dev/null 2>&1 || true

mkdir -p "$PIDS_DIR" "$LOGS_DIR" "$PULP_HOME"/{etc,media,static,tmp,work,state}

# --- PostgreSQL --------------------------------------------------------------
# The cluster must be reachable by the postgres user; fall back to /var/tmp
# when PULP_HOME sits under a directory it cannot enter.
if [[ ! -f "$PULP_HOME/pg-path" ]] && ((EUID == 0)) \
  && ! runuser -u postgres -- test -x "$PULP_HOME"; then
  fallback="/var/tmp/repo-console-pg-$(echo -n "$PULP_HOME" | sha256sum | cut -c1-12)"
  log "postgres cannot enter $PULP_HOME; cluster goes to $fallback"
  echo "$fallback" >"$PULP_HOME/pg-path"
fi
PG_ROOT="$(pg_root)"
PGDATA="$PG_ROOT/data"
PG_SOCK="$PG_ROOT/run"
mkdir -p "$PG_ROOT"
((EUID == 0)) && chown postgres:postgres "$PG_ROOT"
as_pg mkdir -p "$PG_SOCK"
if [[ ! -f "$PGDATA/PG_VERSION" ]]; then
  log "initdb $PGDATA"
  as_pg "$PG_BIN/initdb" -D "$PGDATA" -U postgres --auth=trust -E UTF8 \
    --locale=C.UTF-8 >"$LOGS_DIR/initdb.log" 2>&1 \
    || { tail -20 "$LOGS_DIR/initdb.log" >&2; die "initdb failed"; }
  rm -f "$PULP_HOME"/state/*   # a new cluster: nothing migrated yet
fi
PG_PORT="$(free_port)"
log "PostgreSQL on 127.0.0.1:$PG_PORT"
as_pg "$PG_BIN/pg_ctl" -D "$PGDATA" -l "$PG_ROOT/postgresql.log" -w -t 60 \
  -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -c unix_socket_directories='$PG_SOCK'" \
  start >/dev/null 9>&- \
  || { tail -20 "$PG_ROOT/postgresql.log" >&2; die "PostgreSQL did not start"; }
psql_() { as_pg "$PG_BIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -qAtX "$@"; }
if [[ "$(psql_ -c "SELECT 1 FROM pg_database WHERE datname='pulp'")" != 1 ]]; then
  psql_ -c "CREATE DATABASE pulp"
fi

# --- Pulp settings -----------------------------------------------------------
API_PORT="${PULP_API_PORT:-$(free_port)}"
CONTENT_PORT="${PULP_CONTENT_PORT:-$(free_port)}"
while [[ "$CONTENT_PORT" == "$API_PORT" || "$CONTENT_PORT" == "$PG_PORT" ]]; do
  CONTENT_PORT="$(free_port)"
done
# Keys are made once and kept, so sessions and encrypted fields survive restarts.
[[ -s "$PULP_HOME/etc/secret_key" ]] \
  || openssl rand -hex 32 >"$PULP_HOME/etc/secret_key"
[[ -s "$PULP_HOME/etc/database_fields.symmetric.key" ]] \
  || openssl rand -base64 32 >"$PULP_HOME/etc/database_fields.symmetric.key"
chmod 600 "$PULP_HOME/etc/secret_key" "$PULP_HOME/etc/database_fields.symmetric.key"
cat >"$PULP_HOME/etc/settings.py" <<EOF
# Written by scripts/pulp/start.sh; rewritten on every start (ports change).
SECRET_KEY = "$(cat "$PULP_HOME/etc/secret_key")"
CONTENT_ORIGIN = "http://127.0.0.1:$CONTENT_PORT"
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "pulp",
        "USER": "postgres",
        "HOST": "127.0.0.1",
        "PORT": "$PG_PORT",
    }
}
DB_ENCRYPTION_KEY = "$PULP_HOME/etc/database_fields.symmetric.key"
MEDIA_ROOT = "$PULP_HOME/media"
STATIC_ROOT = "$PULP_HOME/static"
WORKING_DIRECTORY = "$PULP_HOME/work"
FILE_UPLOAD_TEMP_DIR = "$PULP_HOME/tmp"
ANALYTICS = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
EOF
export PULP_SETTINGS="$PULP_HOME/etc/settings.py"
export PATH="$VENV/bin:$PATH"
# Keep Python's caches and temp files inside PULP_HOME too.
export TMPDIR="$PULP_HOME/tmp"

# --- Database schema and admin user (skipped when already done) ---------------
stamp="pulpcore-$PULPCORE_VERSION pulp-rpm-$PULP_RPM_VERSION pulp-deb-$PULP_DEB_VERSION"  # a new plugin: migrate again
if [[ "$(cat "$PULP_HOME/state/migrated" 2>/dev/null)" != "$stamp" ]]; then
  log "pulpcore-manager migrate (first time ~35 s)"
  pulpcore-manager migrate --noinput >"$LOGS_DIR/migrate.log" 2>&1 \
    || { tail -30 "$LOGS_DIR/migrate.log" >&2; die "migrate failed"; }
  echo "$stamp" >"$PULP_HOME/state/migrated"
fi
if [[ ! -f "$PULP_HOME/state/admin-password" ]]; then
  log "pulpcore-manager reset-admin-password"
  pulpcore-manager reset-admin-password --password "$PULP_PASSWORD" \
    >"$LOGS_DIR/reset-admin-password.log" 2>&1 \
    || { tail -30 "$LOGS_DIR/reset-admin-password.log" >&2; die "reset-admin-password failed"; }
  touch "$PULP_HOME/state/admin-password"
fi

# --- A metadata signing service (skipped when already added): signing_service.sh ---
# shellcheck source=signing_service.sh
. "$(dirname "${BASH_SOURCE[0]}")/signing_service.sh"
ensure_signing_service
ensure_apt_signing_service

# --- Pulp processes ----------------------------------------------------------
# launch NAME CMD...: run CMD in its own session/process group (setsid; the
# background child of a non-interactive shell is not a group leader, so setsid
# does not fork and $! is the group's pid), log to logs/NAME.log.
launch() {
  local name=$1; shift
  setsid "$@" >"$LOGS_DIR/$name.log" 2>&1 </dev/null 9>&- &
  echo $! >"$PIDS_DIR/$name.pid"
}
launch api pulpcore-api --bind "127.0.0.1:$API_PORT" --workers 2
launch content pulpcore-content --bind "127.0.0.1:$CONTENT_PORT"
for ((i = 1; i <= PULP_WORKERS; i++)); do
  launch "worker-$i" pulpcore-worker
done
BASE_URL="http://127.0.0.1:$API_PORT"
log "API $BASE_URL, content http://127.0.0.1:$CONTENT_PORT; waiting for health (max ${START_TIMEOUT}s)"

deadline=$((SECONDS + START_TIMEOUT))
until pulp_healthy "$BASE_URL"; do
  dead=""
  for f in "$PIDS_DIR"/*.pid; do
    kill -0 "$(cat "$f")" 2>/dev/null || dead+=" $(basename "$f" .pid)"
  done
  if [[ -n "$dead" ]] || ((SECONDS >= deadline)); then
    log "Pulp is not healthy after $((SECONDS + START_TIMEOUT - deadline))s${dead:+ (exited:$dead)}"
    pulp_healthy -v "$BASE_URL" >&2 || true
    for f in "$LOGS_DIR"/{api,content,worker-*}.log "$PG_ROOT/postgresql.log"; do
      [[ -f "$f" ]] && { echo "==> $f <==" >&2; tail -25 "$f" >&2; }
    done
    if [[ "${PULP_KEEP_ON_FAILURE:-0}" != 1 ]]; then
      "$PULP_SCRIPTS_DIR/stop.sh" >&2 || true
    fi
    exit 1
  fi
  sleep 1
done

cat >"$ENV_FILE" <<EOF
export PULP_BASE_URL=http://127.0.0.1:$API_PORT
export PULP_CONTENT_URL=http://127.0.0.1:$CONTENT_PORT
export PULP_USERNAME=$PULP_USERNAME
export PULP_PASSWORD=$PULP_PASSWORD
export PULP_HOME=$PULP_HOME
export PULP_PG_PORT=$PG_PORT
EOF
log "Pulp is healthy (${SECONDS}s); env file $ENV_FILE:"
cat "$ENV_FILE"
