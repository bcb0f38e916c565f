#!/usr/bin/env bash
# The whole test suite, on a fresh Debian 12 machine or a developer's:
#   1. installs what the tests need and is missing (Rust build deps, Chromium + ChromeDriver,
#      axe-core from the npm registry, standardwebhooks, openapi-spec-validator, pulp-cli and
#      oidc-provider-mock from PyPI, dnf, PostgreSQL binaries, a Pulp 3 virtualenv:
#      scripts/pulp/install.sh);
#   2. starts a real Pulp 3 on free 127.0.0.1 ports and seeds it (scripts/pulp/up.sh), and an edge
#      Pulp replicating from it (scripts/pulp/edge.sh);
#   3. runs every test target (unit, HTTP, real-Pulp, browser) with cargo test, the tests that
#      need an outside service included (`-- --include-ignored`: each carries
#      `#[ignore = "needs <service>"]`, so a plain `cargo test` lists it as ignored), and checks
#      that the benchmarks compile (they run with cargo bench, not here);
#   4. builds the documentation book and checks its links and anchors, and the README's
#      (scripts/docs.sh: mdBook and lychee, pinned, installed once into the cache);
#   5. stops the Pulps it started (only the processes it started, by PID).
# A test asked to run without its service (Pulp, PostgreSQL, Chromium, axe-core, nginx,
# systemd) fails, saying what is missing; with CI=true as without. Arguments go to cargo test.
# RC_TEST_SKIP_PULP=1: no Pulp is started, and the tests that need it (or its PostgreSQL)
# stay ignored.
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
# dnf reads the real Pulp's distributions as a client would (tests/real_pulp/dnf.rs: the badge's
# truth table against dnf's real answer).
command -v dnf >/dev/null || need_apt+=(dnf)
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

# standardwebhooks, the receiver side of webhook signatures (tests/api/webhook_signatures.rs):
# the version pinned in tests/api/standardwebhooks.version, from PyPI, in a cached virtualenv.
# Not installed (no registry), that test fails with CI=true and skips its Python half elsewhere.
swh_version="$(tr -d '[:space:]' <"$root/tests/api/standardwebhooks.version")"
swh_dir="${RC_TEST_CACHE:-$HOME/.cache/repo-console}/standardwebhooks-$swh_version"
if ! "$swh_dir/bin/python" -c 'import standardwebhooks' >/dev/null 2>&1; then
  log "installing standardwebhooks==$swh_version from PyPI into $swh_dir"
  command -v python3 >/dev/null || { apt-get update -qq && apt-get install -y -qq python3 >/dev/null; }
  python3 -m venv --help >/dev/null 2>&1 || apt-get install -y -qq python3-venv >/dev/null || true
  rm -rf "$swh_dir" && mkdir -p "$(dirname "$swh_dir")"
  if ! { python3 -m venv "$swh_dir" && "$swh_dir/bin/pip" install -q "standardwebhooks==$swh_version"; }; then
    rm -rf "$swh_dir"
    log "could not install standardwebhooks==$swh_version (pip install failed)"
  fi
fi
export RC_TEST_STANDARDWEBHOOKS_PYTHON="$swh_dir/bin/python"

# securesystemslib, a second implementation of DSSE that verifies the console's signed evidence
# (tests/api/evidence.rs): the version pinned in tests/api/securesystemslib.version, from PyPI
# (with its crypto extra), in a cached virtualenv. Not installed, that test fails saying so.
ssl_version="$(tr -d '[:space:]' <"$root/tests/api/securesystemslib.version")"
ssl_dir="${RC_TEST_CACHE:-$HOME/.cache/repo-console}/securesystemslib-$ssl_version"
if ! "$ssl_dir/bin/python" -c 'import securesystemslib.dsse, cryptography' >/dev/null 2>&1; then
  log "installing securesystemslib[crypto]==$ssl_version from PyPI into $ssl_dir"
  rm -rf "$ssl_dir" && mkdir -p "$(dirname "$ssl_dir")"
  if ! { python3 -m venv "$ssl_dir" && "$ssl_dir/bin/pip" install -q "securesystemslib[crypto]==$ssl_version"; }; then
    rm -rf "$ssl_dir"
    log "could not install securesystemslib==$ssl_version (pip install failed)"
  fi
fi
export RC_TEST_SECURESYSTEMSLIB_PYTHON="$ssl_dir/bin/python"

# openapi-spec-validator, which checks the served OpenAPI document (tests/api/openapi_valid.rs):
# the version pinned in tests/api/openapi-spec-validator.version, from PyPI, in a cached
# virtualenv. Not installed (no registry), that test fails, saying what is missing.
osv_version="$(tr -d '[:space:]' <"$root/tests/api/openapi-spec-validator.version")"
osv_dir="${RC_TEST_CACHE:-$HOME/.cache/repo-console}/openapi-spec-validator-$osv_version"
if ! "$osv_dir/bin/python" -c 'import openapi_spec_validator' >/dev/null 2>&1; then
  log "installing openapi-spec-validator==$osv_version from PyPI into $osv_dir"
  rm -rf "$osv_dir" && mkdir -p "$(dirname "$osv_dir")"
  if ! { python3 -m venv "$osv_dir" && "$osv_dir/bin/pip" install -q "openapi-spec-validator==$osv_version"; }; then
    rm -rf "$osv_dir"
    log "could not install openapi-spec-validator==$osv_version (pip install failed)"
  fi
fi
export RC_TEST_OPENAPI_VALIDATOR_PYTHON="$osv_dir/bin/python"

# pulp-cli, which runs the book's commands against the real Pulp (tests/real_pulp/book_commands.rs):
# the version pinned in tests/real_pulp/pulp-cli.version, from PyPI, in a cached virtualenv (its
# `pulp rpm` commands come with it). Not installed (no registry), that test fails, saying so.
pulp_cli_version="$(tr -d '[:space:]' <"$root/tests/real_pulp/pulp-cli.version")"
pulp_cli_dir="${RC_TEST_CACHE:-$HOME/.cache/repo-console}/pulp-cli-$pulp_cli_version"
if ! "$pulp_cli_dir/bin/pulp" --version >/dev/null 2>&1; then
  log "installing pulp-cli==$pulp_cli_version from PyPI into $pulp_cli_dir"
  rm -rf "$pulp_cli_dir" && mkdir -p "$(dirname "$pulp_cli_dir")"
  if ! { python3 -m venv "$pulp_cli_dir" && "$pulp_cli_dir/bin/pip" install -q "pulp-cli==$pulp_cli_version"; }; then
    rm -rf "$pulp_cli_dir"
    log "could not install pulp-cli==$pulp_cli_version (pip install failed)"
  fi
fi
export RC_TEST_PULP_CLI="$pulp_cli_dir/bin/pulp"

# oidc-provider-mock, the OpenID Connect provider of the sign-in tests (tests/common/oidc_provider.rs
# starts one per test on a free 127.0.0.1 port): the version pinned in
# tests/common/oidc-provider-mock.version, from PyPI, in a cached virtualenv. Not installed (no
# registry), those tests fail, saying what is missing.
opm_version="$(tr -d '[:space:]' <"$root/tests/common/oidc-provider-mock.version")"
opm_dir="${RC_TEST_CACHE:-$HOME/.cache/repo-console}/oidc-provider-mock-$opm_version"
if ! "$opm_dir/bin/oidc-provider-mock" --help >/dev/null 2>&1; then
  log "installing oidc-provider-mock==$opm_version from PyPI into $opm_dir"
  rm -rf "$opm_dir" && mkdir -p "$(dirname "$opm_dir")"
  if ! { python3 -m venv "$opm_dir" && "$opm_dir/bin/pip" install -q "oidc-provider-mock==$opm_version"; }; then
    rm -rf "$opm_dir"
    log "could not install oidc-provider-mock==$opm_version (pip install failed)"
  fi
fi
export RC_TEST_OIDC_PROVIDER_MOCK="$opm_dir/bin/oidc-provider-mock"

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
  # The edge Pulp of the edge tests (issue 48): a second pulpcore from the same virtualenv,
  # with its own database, media and ports, one worker (scripts/pulp/edge.sh; reused when
  # healthy). Started after the central one, which it replicates from.
  pulp_home="$(dirname "$pulp_env")"
  edge_home="$pulp_home-edge"
  log "starting the edge Pulp ($edge_home)"
  PULP_HOME="$pulp_home" PULP_EDGE_HOME="$edge_home" "$root/scripts/pulp/edge.sh"
  started_edge=1
  # shellcheck disable=SC1090
  . "$pulp_env"
  export RC_TEST_PULP_URL="$PULP_BASE_URL" RC_TEST_PULP_USERNAME="$PULP_USERNAME" \
    RC_TEST_PULP_PASSWORD="$PULP_PASSWORD" RC_TEST_PULP_CONTENT_URL="$PULP_CONTENT_URL" \
    RC_TEST_PULP_PG_PORT="${PULP_PG_PORT:-}" RC_TEST_PULP_HOME="$pulp_home"
  # shellcheck disable=SC1091
  . "$edge_home/edge.env"
  export RC_TEST_PULP_EDGE_URL="$PULP_EDGE_BASE_URL" RC_TEST_PULP_EDGE_CONTENT_URL="$PULP_EDGE_CONTENT_URL" \
    RC_TEST_PULP_EDGE_UPSTREAM="$PULP_EDGE_UPSTREAM" RC_TEST_PULP_EDGE_HOME="$edge_home"
fi
started_edge=${started_edge:-0}
stop_pulp() {
  if [ "${RC_TEST_KEEP_PULP:-0}" = 1 ]; then return; fi
  if [ "$started_edge" = 1 ]; then PULP_HOME="$edge_home" "$root/scripts/pulp/stop.sh" || true; fi
  if [ "$started_pulp" = 1 ]; then "$root/scripts/pulp/stop.sh" || true; fi
}
trap stop_pulp EXIT

if [ "${RC_TEST_SKIP_PULP:-0}" != 1 ]; then
  log "cargo test (library, binary and test targets, the ignored ones included)"
  cargo test --lib --bins --tests --no-fail-fast "$@" -- --include-ignored
else
  log "cargo test (RC_TEST_SKIP_PULP=1: the tests that need the real Pulp stay ignored)"
  cargo test --lib --bins --test api --test architecture --test browser --no-fail-fast "$@" -- --include-ignored
  cargo test --test real_pulp --no-fail-fast "$@"
fi
# The benchmarks print figures (cargo bench); here they are only kept compiling, with the
# test profile's artifacts already built above.
log "cargo test --benches --no-run (the benchmarks still compile)"
cargo test --benches --no-run
log "the documentation: built, its links and anchors checked (scripts/docs.sh)"
"$root/scripts/docs.sh"
log "done"
