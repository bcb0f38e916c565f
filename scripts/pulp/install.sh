#!/usr/bin/env bash
# Install what a local Pulp 3 server needs: Debian packages (rpmbuild, curl,
# openssl, jq; PostgreSQL 15 binaries are expected to be present) and a
# virtualenv with pulpcore + pulp-rpm + pulp-deb in a cache directory OUTSIDE the git
# clone (lib.sh: $RC_TEST_CACHE, default ~/.cache/repo-console), so fresh
# clones (CI) reuse it. Idempotent; takes well under a second when done.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# --- Debian packages: command -> package providing it --------------------------
declare -A wanted=([rpmbuild]=rpm [curl]=curl [openssl]=openssl [jq]=jq [gpg]=gnupg [dpkg-deb]=dpkg [apt-get]=apt)
missing=()
for cmd in "${!wanted[@]}"; do
  command -v "$cmd" >/dev/null 2>&1 || missing+=("${wanted[$cmd]}")
done
[[ -x "$PG_BIN/initdb" ]] || missing+=(postgresql-15)
# Debian's python3 makes virtualenvs only with python3-venv (ensurepip) installed.
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || missing+=(python3-venv)
if ((${#missing[@]})); then
  log "installing Debian packages: ${missing[*]}"
  ((EUID == 0)) || die "need root to apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # Lock timeout: another apt run may be in progress on this machine.
  apt_opts=(-o DPkg::Lock::Timeout=900 -y -q)
  apt-get "${apt_opts[@]}" update >/dev/null
  apt-get "${apt_opts[@]}" install --no-install-recommends "${missing[@]}" </dev/null
fi

# --- Python virtualenv with pulpcore + pulp-rpm + pulp-deb ---------------------
mkdir -p "$CACHE_DIR"
exec 8>"$CACHE_DIR/.install.lock"   # two installs at once would trip over each other
flock -w 900 8 || die "could not lock $CACHE_DIR/.install.lock"
if [[ -x "$VENV/bin/pulpcore-manager" && -f "$VENV_MARKER" ]]; then
  log "venv ready: $VENV"
else
  log "creating venv $VENV (pulpcore==$PULPCORE_VERSION pulp-rpm==$PULP_RPM_VERSION pulp-deb==$PULP_DEB_VERSION; ~1.5 min)"
  rm -rf "$VENV"   # a half-done install (no marker) is not trusted
  python3 -m venv "$VENV"
  pip=("$VENV/bin/pip" install -q --disable-pip-version-check --no-input)
  "${pip[@]}" --upgrade pip wheel
  # One resolution for all three pins, so a plugin cannot move pulpcore.
  "${pip[@]}" "pulpcore==$PULPCORE_VERSION" "pulp-rpm==$PULP_RPM_VERSION" "pulp-deb==$PULP_DEB_VERSION"
  date -u +%FT%TZ >"$VENV_MARKER"   # written last: marks a complete install
  log "venv installed"
fi
