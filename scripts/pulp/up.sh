#!/usr/bin/env bash
# One call for the tests: install.sh + start.sh + seed.sh, with the elapsed
# seconds of each phase. The env file to source is $PULP_HOME/env
# (default <repo root>/target/pulp/env); stop with scripts/pulp/stop.sh.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
total=0
for phase in install start seed; do
  t0=$SECONDS
  "$here/$phase.sh"
  echo "[pulp:up.sh] $phase: $((SECONDS - t0)) s" >&2
  total=$((total + SECONDS - t0))
done
echo "[pulp:up.sh] total: $total s" >&2
