#!/usr/bin/env bash
# Runs the Python of the Pulp virtualenv the scripts install (scripts/pulp/install.sh), whatever
# plugin versions name its cache directory: the benchmarks' seeding scripts run with it.
#   scripts/pulp/python.sh scripts/bench/seed_scale.py 600 500
set -euo pipefail
# shellcheck source=scripts/pulp/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
[ -x "$VENV/bin/python" ] || die "no Pulp virtualenv at $VENV: run scripts/pulp/install.sh first"
exec "$VENV/bin/python" "$@"
