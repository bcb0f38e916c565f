# shellcheck shell=bash disable=SC2034  # variables are used by the sourcing scripts
# Shared settings and helpers for scripts/pulp/*.sh (sourced, not executed).
#
# Environment knobs:
#   PULP_HOME           state dir (default <repo root>/target/pulp)
#   RC_TEST_CACHE  cache dir holding the venv (default ~/.cache/repo-console)
#   PULP_VENV           explicit venv path (overrides the cache location)
#   PULP_START_TIMEOUT  seconds to wait for a healthy server (default 120)
#   PULP_WORKERS        number of pulpcore-worker processes (default 2)
#   PULP_API_PORT, PULP_CONTENT_PORT  fixed ports (default: free ones picked at start), so that
#                       an edge Pulp stopped and started again by a test keeps its addresses

shopt -s inherit_errexit  # errors inside $(...) stop the script too

PULP_SCRIPTS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$PULP_SCRIPTS_DIR/../.." && pwd)"

PULPCORE_VERSION=3.123.1
PULP_RPM_VERSION=3.39.4
PULP_DEB_VERSION=3.11.1
CACHE_DIR="${RC_TEST_CACHE:-$HOME/.cache/repo-console}"
# Every plugin's version is in the name: a cache made without one of them is never reused.
VENV="${PULP_VENV:-$CACHE_DIR/pulp-venv-$PULPCORE_VERSION-rpm$PULP_RPM_VERSION-deb$PULP_DEB_VERSION}"
VENV_MARKER="$VENV/.repo-console-install-complete"
PG_BIN=/usr/lib/postgresql/15/bin

PULP_HOME="${PULP_HOME:-$REPO_ROOT/target/pulp}"
PULP_WORKERS="${PULP_WORKERS:-2}"
PULP_USERNAME="admin"
PULP_PASSWORD="password"
PIDS_DIR="$PULP_HOME/pids"
LOGS_DIR="$PULP_HOME/logs"
ENV_FILE="$PULP_HOME/env"

log() { echo "[pulp:${0##*/}] $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# Make PULP_HOME absolute (it may be given relative to the caller's cwd).
abs_pulp_home() {
  mkdir -p "$PULP_HOME"
  PULP_HOME="$(cd "$PULP_HOME" && pwd)"
  PIDS_DIR="$PULP_HOME/pids"
  LOGS_DIR="$PULP_HOME/logs"
  ENV_FILE="$PULP_HOME/env"
}

# Serialize start/seed/stop on one PULP_HOME (tests may call up.sh in parallel).
# The lock is fd 9, released when the script exits; nested calls (start.sh ->
# stop.sh) see PULP_LOCK_HELD and do not lock again. Long-lived children must
# not inherit fd 9 (launch with 9>&-), or the lock would outlive the script.
lock_pulp_home() {
  [[ "${PULP_LOCK_HELD:-}" == "$PULP_HOME" ]] && return 0
  exec 9>"$PULP_HOME/.lock"
  flock -w 900 9 || die "could not lock $PULP_HOME/.lock within 900 s"
  export PULP_LOCK_HELD="$PULP_HOME"
}

# Run a command as the PostgreSQL owner: the `postgres` OS user when we are
# root (PostgreSQL refuses to run as root), else the current user.
as_pg() {
  if ((EUID == 0)); then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

# Where the PostgreSQL cluster lives. Normally $PULP_HOME/pg; if the postgres
# user cannot reach PULP_HOME (e.g. a clone under /root, mode 700), the
# cluster goes to /var/tmp and its path is recorded in $PULP_HOME/pg-path.
pg_root() {
  if [[ -f "$PULP_HOME/pg-path" ]]; then
    cat "$PULP_HOME/pg-path"
  else
    echo "$PULP_HOME/pg"
  fi
}

# Pick a free TCP port on 127.0.0.1 (the kernel chooses; we release it at once).
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# Exit 0 when the Pulp at $1 (base URL) is healthy AND it is ours: database
# connected, >=1 API app, >=1 content app and >=$PULP_WORKERS workers online
# whose "<pid>@<host>" names belong to process groups recorded in $PIDS_DIR.
# (Status records of killed processes linger for a while, so counts alone lie.)
# With -v, prints what is missing.
pulp_healthy() {
  local verbose=0
  if [[ "${1:-}" == -v ]]; then verbose=1; shift; fi
  python3 - "$1" "$PIDS_DIR" "$PULP_WORKERS" "$verbose" <<'PY'
import glob, json, os, socket, subprocess, sys, urllib.request
base, pids_dir, want_workers, verbose = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"
groups = set()
for f in glob.glob(os.path.join(pids_dir, "*.pid")):
    try:
        groups.add(int(open(f).read().strip()))
    except ValueError:
        pass
try:
    with urllib.request.urlopen(base + "/pulp/api/v3/status/", timeout=5) as r:
        st = json.load(r)
except Exception as e:
    if verbose: print(f"status not reachable: {e}")
    sys.exit(1)
host = socket.gethostname()
def ours(entries):
    n = 0
    for e in entries or []:
        pid, _, h = e.get("name", "").partition("@")
        if h != host or not pid.isdigit():
            continue
        try:
            pgid = os.getpgid(int(pid))
        except OSError:
            continue
        n += pgid in groups
    return n
db = (st.get("database_connection") or {}).get("connected")
api, content, workers = ours(st.get("online_api_apps")), ours(st.get("online_content_apps")), ours(st.get("online_workers"))
ok = bool(db) and api >= 1 and content >= 1 and workers >= want_workers
if verbose:
    print(f"db={db} api_apps={api} content_apps={content} workers={workers}/{want_workers}")
sys.exit(0 if ok else 1)
PY
}
