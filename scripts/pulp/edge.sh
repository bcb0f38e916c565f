#!/usr/bin/env bash
# Start an edge Pulp beside the central one, for the edge tests (issue 48): a second pulpcore
# (start.sh under its own PULP_HOME: its own PostgreSQL cluster, media and free ports), with an
# upstream-pulp named "central" that copies, through Pulp's replication, the central
# distributions labelled repo-console-edge=<environment> (q_select pulp_label_select=...).
#
#   PULP_HOME=<central home> scripts/pulp/edge.sh   # the central Pulp must be running
#   source <edge home>/edge.env                       # PULP_EDGE_BASE_URL PULP_EDGE_CONTENT_URL ...
#
# Knobs: PULP_EDGE_HOME (default <central home>-edge), PULP_EDGE_UPSTREAM (default central),
# PULP_EDGE_LABEL (default repo-console-edge=production), PULP_EDGE_WORKERS (default 1).
# Idempotent: a healthy edge is reused and its upstream-pulp updated in place. Stop it with
# PULP_HOME=<edge home> scripts/pulp/stop.sh.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$here/lib.sh"
abs_pulp_home
central_env="$PULP_HOME/env"
[[ -f "$central_env" ]] || die "no central Pulp at $PULP_HOME (no env file): run scripts/pulp/up.sh first"
# shellcheck disable=SC1090
central_base="$(. "$central_env"; echo "$PULP_BASE_URL")"
edge_home="${PULP_EDGE_HOME:-$PULP_HOME-edge}"
upstream="${PULP_EDGE_UPSTREAM:-central}"
label="${PULP_EDGE_LABEL:-repo-console-edge=production}"

PULP_HOME="$edge_home" PULP_WORKERS="${PULP_EDGE_WORKERS:-1}" PULP_LOCK_HELD="" \
  "$here/start.sh" >&2
# shellcheck disable=SC1090
edge_base="$(. "$edge_home/env"; echo "$PULP_BASE_URL")"
edge_content="$(. "$edge_home/env"; echo "$PULP_CONTENT_URL")"

api="$edge_base/pulp/api/v3"
auth=(-u "$PULP_USERNAME:$PULP_PASSWORD")
body="$(jq -n --arg name "$upstream" --arg url "$central_base" --arg user "$PULP_USERNAME" \
  --arg pw "$PULP_PASSWORD" --arg q "pulp_label_select=\"$label\"" \
  '{name: $name, base_url: $url, api_root: "/pulp/", username: $user, password: $pw, q_select: $q}')"
href="$(curl -fsS "${auth[@]}" "$api/upstream-pulps/?name=$upstream" | jq -r '.results[0].pulp_href // empty')"
if [[ -z "$href" ]]; then
  href="$(curl -fsS "${auth[@]}" -H 'Content-Type: application/json' -d "$body" \
    "$api/upstream-pulps/" | jq -r .pulp_href)"
  log "upstream-pulp '$upstream' created on the edge: $href"
else
  # The central Pulp's ports change at every start: point the edge at it again.
  curl -fsS "${auth[@]}" -X PATCH -H 'Content-Type: application/json' -d "$body" \
    "$edge_base$href" >/dev/null
  log "upstream-pulp '$upstream' updated on the edge: $href"
fi

# A file of its own: stop.sh removes env, and a test that stops and starts the edge (on the
# same ports) rewrites it.
cat >"$edge_home/edge.env" <<ENV
export PULP_EDGE_HOME=$edge_home
export PULP_EDGE_BASE_URL=$edge_base
export PULP_EDGE_CONTENT_URL=$edge_content
export PULP_EDGE_UPSTREAM=$upstream
export PULP_EDGE_LABEL=$label
ENV
log "edge ready: API $edge_base, content $edge_content, upstream '$upstream' selecting $label"
