#!/usr/bin/env bash
# The whole test suite, on a fresh Debian 12 machine or a developer's:
#   1. installs what the tests need and is missing (Rust build deps, Chromium + ChromeDriver,
#      axe-core from the npm registry, PostgreSQL binaries, a Pulp 3 virtualenv:
#      scripts/pulp/install.sh);
#   2. starts a real Pulp 3 on free 127.0.0.1 ports and seeds it (scripts/pulp/up.sh);
#   3. runs every test target (unit, HTTP, real-Pulp, browser) with cargo test, and checks that
#      the benchmarks compile (they run with cargo bench, not here);
#   4. builds the documentation book and checks its links and anchors, and the README's
#      (scripts/docs.sh: mdBook and lychee, pinned, installed once into the cache);
#   5. stops the Pulp it started (only the processes it started, by PID).
# With CI=true a missing Pulp, browser or axe-core fails the tests instead of skipping them.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
t0=$SECONDS
log() { printf '[test.sh %4ds] %s\n' "$((SECONDS - t0))" "$*" >&2; }

need_apt=()
command -v chromium >/dev/null || need_apt+=(chromium)
command -v chromedriver >/dev/null || need_apt+=(chromium-driver)
[ -x /usr/lib/postgresql/15/bin/initdb ] || need_apt+=(postgresql-15)
command -v cc >/dev/null || need_apt+=(build-essential)
# The reverse-proxy test runs Debian's nginx in front of the console; the unit test, systemd-analyze.
[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null || need_apt+=(nginx)
command -v systemd-analyze >/dev/null || need_apt+=(systemd)
command -v openssl >/dev/null || need_apt+=(openssl)
command -v curl >/dev/null || need_apt+=(curl)
# lychee, the documentation's link checker, is installed into a Python virtualenv (scripts/docs.sh).
python3 -c 'import ensurepip, venv' 2>/dev/null || need_apt+=(python3-venv)
# npm brings axe-core, the accessibility checker of the browser tests (below).
command -v npm >/dev/null || need_apt+=(npm)
if [ "${#need_apt[@]}" -gt 0 ]; then
  log "installing Debian packages: ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

# axe-core, injected by the browser tests into Chromium (tests/browser/a11y.rs): the version
# pinned in tests/browser/axe-core.version, from the npm registry, kept in the cache and reused.
# Not installed (no registry), the browser tests fail with CI=true and skip the checks elsewhere.
axe_version="$(tr -d '[:space:]' <"$root/tests/browser/axe-core.version")"
axe_dir="${RC_TEST_CACHE:-$HOME/.cache/repo-console}/axe-core-$axe_version"
axe_js="$axe_dir/node_modules/axe-core/axe.min.js"
if [ ! -f "$axe_js" ]; then
  log "installing axe-core@$axe_version from the npm registry into $axe_dir"
  mkdir -p "$(dirname "$axe_dir")"
  axe_tmp="$(mktemp -d "$axe_dir.XXXXXX")"
  if npm install --prefix "$axe_tmp" --no-save --no-audit --no-fund --no-package-lock --loglevel=error \
      "axe-core@$axe_version" >/dev/null && [ -f "$axe_tmp/node_modules/axe-core/axe.min.js" ]; then
    rm -rf "$axe_dir" && mv "$axe_tmp" "$axe_dir"
  else
    rm -rf "$axe_tmp"
    log "could not install axe-core@$axe_version (npm install failed)"
  fi
fi
export RC_TEST_AXE_JS="$axe_js"

pulp_env="${PULP_HOME:-$root/target/pulp}/env"
started_pulp=0
if [ "${RC_TEST_SKIP_PULP:-0}" != 1 ]; then
  if [ -f "$pulp_env" ] && curl -fsS -m 3 "$(. "$pulp_env"; echo "$PULP_BASE_URL")/pulp/api/v3/status/" >/dev/null 2>&1; then
    log "reusing the running Pulp ($pulp_env)"
    "$root/scripts/pulp/seed.sh" >/dev/null
  else
    log "installing, starting and seeding Pulp"
    "$root/scripts/pulp/up.sh"
    started_pulp=1
  fi
  # shellcheck disable=SC1090
  . "$pulp_env"
  export RC_TEST_PULP_URL="$PULP_BASE_URL" RC_TEST_PULP_USERNAME="$PULP_USERNAME" \
    RC_TEST_PULP_PASSWORD="$PULP_PASSWORD" RC_TEST_PULP_CONTENT_URL="$PULP_CONTENT_URL" \
    RC_TEST_PULP_PG_PORT="${PULP_PG_PORT:-}"
fi
stop_pulp() { if [ "$started_pulp" = 1 ] && [ "${RC_TEST_KEEP_PULP:-0}" != 1 ]; then "$root/scripts/pulp/stop.sh" || true; fi; }
trap stop_pulp EXIT

log "cargo test (library, binary and test targets)"
cargo test --lib --bins --tests --no-fail-fast "$@"
# The benchmarks print figures (cargo bench); here they are only kept compiling, with the
# test profile's artifacts already built above.
log "cargo test --benches --no-run (the benchmarks still compile)"
cargo test --benches --no-run
log "the documentation: built, its links and anchors checked (scripts/docs.sh)"
"$root/scripts/docs.sh"
log "done"
