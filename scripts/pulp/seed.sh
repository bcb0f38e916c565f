#!/usr/bin/env bash
# Seed the Pulp started by start.sh with the data set the tests expect.
# Idempotent: objects are looked up by name and only missing ones are made;
# a repository's versions are built from its current latest version on.
#
# Packages (tiny noarch RPMs built with rpmbuild into $PULP_HOME/rpms):
#   hello 1.0 1.1 1.2, world 2.0 2.1, extra 0.1, alpha 1.0 1.1 1.2,
#   beta 1.0, gamma 1.0, delta 1.0
# Repositories (versions; "+" adds, "-" removes) and what serves them:
#   rc-verified    gpgcheck=1 repo_gpgcheck=1 sha256, metadata signed by rc-metadata-signer (every
#                  repository said "verified" here is), v1..v5 like the samples' demo;
#                  rc-verified-prod -> pub(v3), rc-verified-staging -> repository
#   rc-deploy      verified, v1..v4; rc-deploy-prod -> pub(v2)
#   rc-vanishing   verified, v1..v3; rc-vanishing-prod -> pub(v1)
#   rc-unverified  gpgcheck=0 repo_gpgcheck=0, v1..v2, no distribution
#   rc-partial     gpgcheck=1 repo_gpgcheck=0 sha256, v1..v2
#   <b>rc-html</b> "quoted" & 'single'   v1
#   rc-changes     verified, v1..v5 + advisories; rc-changes-prod -> pub(v2).
#   rc-unsigned-meta  gpgcheck=1 repo_gpgcheck=1 sha256 and no signing service (clients refuse it), v1
#                  v2 -> v5 is every kind of change: acme-a added, acme-b removed, acme-c 1 -> 2,
#                  acme-d 2 -> 1, acme-e removed in v3 and back in v4 (no change), acme-f kept;
#                  advisories RC-SA-0001 (security), RC-BA-0001 (bugfix), RC-EA-0001 (enhancement)
#                  added, RC-SA-OLD (security) dropped, RC-BA-KEEP kept
#   rc-builds      verified, several builds of one name (issue 22): v1 multi-u 1,2 / multi-o 1,2 /
#                  multi-d 1,2 / multi-n 1; v2 adds multi-u-3 (upgraded), drops multi-o-1 (older
#                  builds), drops multi-d-2 (downgraded), adds multi-n-0.9 (older builds); v3 adds multi-x-1
#   rc-history     verified, v1..v3, a publication of each; rc-history-prod -> pub(v1)
#   rc-envs        verified, v1..v3, a publication of each; rc-envs-testing, rc-envs-staging,
#                  rc-envs-prod -> pub(v1) (issue 23: one distribution per environment)
#   rc-policy      verified, v1..v3, a publication of each; rc-policy-prod -> pub(v1) (issue 24:
#                  the policy tests deploy, request, approve and override a freeze on it)
#   rc-approvals   verified, v1..v3, a publication of each; rc-approvals-prod -> pub(v1) (issue 24:
#                  two replicas on one PostgreSQL approve the same request at once)
#   rc-api         verified, v1..v3, a publication of each; rc-api-prod -> pub(v1) (issue 25: a
#                  pipeline deploys over the JSON API). v1 -> v3 is: world, extra added, beta
#                  removed, hello 1.0 -> 1.1, alpha 1.2 -> 1.1
#   rc-rel-baseos, rc-rel-appstream, rc-rel-epel  verified, v1..v3, a publication of each;
#                  NAME-staging -> pub(v2), NAME-prod -> pub(v1) (issue 36: a release of three)
#   rcedge-base    verified, v1..v3 (hello 1.0; + world 2.0; hello 1.0 -> 1.1); rcedge-base-prod -> pub(v1)
#                  (issue 48: the edge tests follow it to the edge Pulp of scripts/pulp/edge.sh)
#   rcedge2-base   the same, rcedge2-base-prod -> pub(v1) (the deploy's answer on the edges)
#   rc-schedules   verified, v1..v3, a publication of each; rc-schedules-prod -> pub(v1) (issue 38:
#                  scheduled deploys, two replicas racing for one schedule)
#   rc-soak        the same, and rc-soak-staging -> pub(v1) (issue 38: production soaks behind staging)
#   rc-checks      verified, v1..v3, a publication of each; rc-checks-staging, rc-checks-prod ->
#                  pub(v1) (issue 39: a passing check on staging promotes to production)
#   rc-checks-replicas  the same, for two replicas receiving one report at once
#   rc-pins        the same: a rollback pins production (issue 50)
#   rc-xp-app      verified (issue 37, exposure), v1..v3, a publication of each: v1 xp-ssl 1.0, xp-lib 2.0;
#                  v2 adds xp-ssl 1.1 (1.0 kept: an older build served); v3 xp-lib 2.0 -> 2.1 and
#                  advisories RC-XSA-0001 (xp-ssl 1.1; CVE-2026-51001) and RC-XSA-0002 (xp-lib 2.1;
#                  CVE-2026-51001, CVE-2026-51002). rc-xp-app-testing -> pub(v3), rc-xp-app-prod -> pub(v1)
#   rc-xp-other    verified, v1 hello 1.0; rc-xp-other-prod -> pub(v1) (serves none of the xp packages)
#   rc-mirror        remote rc-mirror-remote -> $PULP_CONTENT_URL/pulp/content/rc-verified-prod/ (not synced)
#   rc-broken-mirror remote rc-broken-remote -> http://127.0.0.1:9/nothing/ (refused; sync fails)
#
# Env: PULP_TASK_TIMEOUT (seconds per task, default 180).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
abs_pulp_home
lock_pulp_home
[[ -f "$ENV_FILE" ]] || die "no $ENV_FILE: run scripts/pulp/start.sh first"
# shellcheck source=/dev/null
source "$ENV_FILE"
TASK_TIMEOUT="${PULP_TASK_TIMEOUT:-180}"
API="/pulp/api/v3/"

# --- HTTP helpers (session cookie: basic auth costs ~0.5 s per request) --------
WORK="$(mktemp -d "$PULP_HOME/tmp/seed.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
JAR="$WORK/cookies"

url_of() { # href ("/pulp/...") or path relative to /pulp/api/v3/
  if [[ "$1" == /* ]]; then echo "$PULP_BASE_URL$1"; else echo "$PULP_BASE_URL$API$1"; fi
}

# curl_ URL-description CURL-ARGS...: prints the body; dies on HTTP >= 400.
curl_() {
  local what=$1 code; shift
  code="$(curl -sS -o "$WORK/body" -w '%{http_code}' "$@")" || die "$what: curl failed"
  if ((code >= 400)); then
    log "$what -> HTTP $code: $(head -c 2000 "$WORK/body")"
    exit 1
  fi
  cat "$WORK/body"
}

# api METHOD PATH [JSON]: one call with the session; prints the response body.
api() {
  local method=$1 path=$2 args=(-X "$1" -b "$JAR")
  if [[ "$method" != GET ]]; then args+=(-H "X-CSRFToken: $CSRF"); fi
  if (($# > 2)); then args+=(-H "Content-Type: application/json" --data-binary "$3"); fi
  curl_ "$method $path" "${args[@]}" "$(url_of "$path")"
}

# wait_task HREF: polls until the task ends; prints the task JSON when it
# completed, dies with the task's error when it failed or was canceled.
wait_task() {
  local href=$1 deadline=$((SECONDS + TASK_TIMEOUT)) task state
  while :; do
    task="$(api GET "$href")"
    state="$(jq -r .state <<<"$task")"
    case "$state" in
      completed) echo "$task"; return 0 ;;
      failed | canceled)
        log "task $href ($(jq -r .name <<<"$task")) $state: $(jq -r '.error.description // .error' <<<"$task")"
        exit 1 ;;
    esac
    ((SECONDS < deadline)) || die "task $href still '$state' after ${TASK_TIMEOUT}s"
    sleep 0.2
  done
}

# api_wait METHOD PATH JSON: an async call (202 + task); prints the ended task.
# A synchronous answer (no "task" in it) is printed as it is.
api_wait() {
  local resp task
  resp="$(api "$@")"
  task="$(jq -r '.task // empty' <<<"$resp")"
  if [[ -n "$task" ]]; then wait_task "$task"; else echo "$resp"; fi
}

# find_one LIST-PATH NAME: href of the object named NAME in that list, or "".
find_one() {
  local name
  name="$(jq -rn --arg v "$2" '$v|@uri')"
  api GET "$1?name=$name&fields=pulp_href" | jq -r '.results[0].pulp_href // empty'
}

log "login to $PULP_BASE_URL as $PULP_USERNAME"
curl_ "POST login/" -X POST -u "$PULP_USERNAME:$PULP_PASSWORD" -c "$JAR" \
  "$(url_of login/)" >/dev/null
CSRF="$(awk '$6 == "csrftoken" {print $7}' "$JAR")"
[[ -n "$CSRF" ]] || die "login gave no csrftoken cookie"

# --- Packages ----------------------------------------------------------------
RPM_TOP="$PULP_HOME/rpms"
declare -A PKG   # "name-version" -> package href
build_rpm() { # name version -> path of the built rpm
  local name=$1 version=$2 spec rpm
  rpm="$RPM_TOP/RPMS/noarch/$name-$version-1.noarch.rpm"
  if [[ ! -f "$rpm" ]]; then
    mkdir -p "$RPM_TOP/SPECS"
    spec="$RPM_TOP/SPECS/$name-$version.spec"
    cat >"$spec" <<EOF
Name: $name
Version: $version
Release: 1
Summary: Tiny test package $name
License: MIT
BuildArch: noarch

%description
Tiny test package $name $version for the repo-console tests.

%install
mkdir -p %{buildroot}/usr/share/$name
echo $version > %{buildroot}/usr/share/$name/VERSION

%files
/usr/share/$name/VERSION
EOF
    rpmbuild --quiet --define "_topdir $RPM_TOP" -bb "$spec" >"$WORK/rpmbuild.log" 2>&1 \
      || { cat "$WORK/rpmbuild.log" >&2; die "rpmbuild $name-$version failed"; }
  fi
  echo "$rpm"
}
ensure_package() { # name version: PKG[name-version] = href (upload when missing)
  local name=$1 version=$2 href rpm task
  href="$(api GET "content/rpm/packages/?name=$name&version=$version&release=1&arch=noarch&fields=pulp_href" \
    | jq -r '.results[0].pulp_href // empty')"
  if [[ -z "$href" ]]; then
    rpm="$(build_rpm "$name" "$version")"
    task="$(curl_ "upload $name-$version" -X POST -b "$JAR" -H "X-CSRFToken: $CSRF" \
      -F "file=@$rpm" "$(url_of content/rpm/packages/)" | jq -r .task)"
    href="$(wait_task "$task" | jq -r '.created_resources[0]')"
    log "uploaded $name-$version"
  fi
  PKG[$name-$version]="$href"
}
for nv in hello-1.0 hello-1.1 hello-1.2 world-2.0 world-2.1 extra-0.1 \
  alpha-1.0 alpha-1.1 alpha-1.2 beta-1.0 gamma-1.0 delta-1.0; do
  ensure_package "${nv%%-*}" "${nv#*-}"
done

for nv in a-1 b-1 c-1 c-2 d-1 d-2 e-1 f-1; do
  ensure_package "acme-${nv%%-*}" "${nv#*-}"
done

for nv in u-1 u-2 u-3 o-1 o-2 d-1 d-2 n-0.9 n-1 x-1; do
  ensure_package "multi-${nv%%-*}" "${nv#*-}"
done

# --- Advisories (errata) ---------------------------------------------------------
# ensure_advisory ID TYPE SEVERITY PACKAGE: PKG[ID] = href (uploaded as advisory JSON when missing).
ensure_advisory() {
  local id=$1 type=$2 severity=$3 package=$4 href task
  href="$(api GET "content/rpm/advisories/?id=$id&fields=pulp_href" | jq -r '.results[0].pulp_href // empty')"
  if [[ -z "$href" ]]; then
    jq -n --arg id "$id" --arg type "$type" --arg severity "$severity" --arg p "$package" '{
      id: $id, type: $type, severity: $severity, title: "\($id): \($type) update for \($p)",
      status: "final", version: "1", release: "1", issued_date: "2026-11-01 00:00:00",
      updated_date: "2026-11-01 00:00:00", description: "repo-console test advisory",
      summary: "", solution: "", rights: "", fromstr: "security@example.com", pushcount: "1",
      references: [], reboot_suggested: false,
      pkglist: [{name: "rc-changes", short: "rc", module: null, packages: [{
        name: $p, epoch: "0", version: "1", release: "1", arch: "noarch",
        filename: "\($p)-1-1.noarch.rpm", src: "", sum: "", sum_type: "", reboot_suggested: false}]}]
    }' >"$WORK/advisory.json"
    task="$(curl_ "upload advisory $id" -X POST -b "$JAR" -H "X-CSRFToken: $CSRF" \
      -F "file=@$WORK/advisory.json" "$(url_of content/rpm/advisories/)" | jq -r .task)"
    href="$(wait_task "$task" | jq -r '.created_resources[0]')"
    log "uploaded advisory $id"
  fi
  PKG[$id]="$href"
}
ensure_advisory RC-SA-OLD security Moderate acme-b
ensure_advisory RC-BA-KEEP bugfix "" acme-f
ensure_advisory RC-SA-0001 security Critical acme-c
ensure_advisory RC-BA-0001 bugfix "" acme-a
ensure_advisory RC-EA-0001 enhancement "" acme-a

# --- Repositories, versions, publications, distributions, remotes --------------
VERIFIED='{"gpgcheck":1,"repo_gpgcheck":1}'
# Verified as dnf sees it: packages and metadata checked, the metadata signed by the signing
# service start.sh added (signing_service.sh).
SIGNER="$(find_one signing-services/ rc-metadata-signer)"
[[ -n "$SIGNER" ]] || die "Pulp has no signing service rc-metadata-signer (scripts/pulp/start.sh adds it)"
VERIFIED_REPO="{\"repo_config\":$VERIFIED,\"checksum_type\":\"sha256\",\"metadata_signing_service\":\"$SIGNER\"}"

# ensure_repo NAME JSON-FIELDS: prints the href (creates the repo when missing).
ensure_repo() {
  local href signer
  href="$(find_one repositories/rpm/rpm/ "$1")"
  if [[ -z "$href" ]]; then
    href="$(api POST repositories/rpm/rpm/ "$(jq -c --arg n "$1" '. + {name: $n}' <<<"$2")" \
      | jq -r .pulp_href)"
    log "created repository $1"
  fi
  # A repository seeded before it had one gets its signing service.
  signer="$(jq -r '.metadata_signing_service // empty' <<<"$2")"
  if [[ -n "$signer" && "$(api GET "$href" | jq -r '.metadata_signing_service // empty')" != "$signer" ]]; then
    api_wait PATCH "$href" "$(jq -cn --arg s "$signer" '{metadata_signing_service: $s}')" >/dev/null
    log "repository $1 signs its metadata with rc-metadata-signer"
  fi
  echo "$href"
}

# ensure_versions HREF STEP...: step i (e.g. "+hello-1.0 -extra-0.1") makes
# version i; steps at or below the current latest version number are skipped.
ensure_versions() {
  local repo=$1 latest i=0 step item add del; shift
  latest="$(api GET "$repo" | jq -r '.latest_version_href | capture("/versions/(?<n>[0-9]+)/$").n')"
  for step in "$@"; do
    i=$((i + 1))
    ((i > latest)) || continue
    add=() del=()
    for item in $step; do
      case "$item" in
        +*) add+=("${PKG[${item#+}]}") ;;
        -*) del+=("${PKG[${item#-}]}") ;;
      esac
    done
    api_wait POST "${repo}modify/" "$(jq -cn '{add_content_units: $ARGS.named.a, remove_content_units: $ARGS.named.r}' \
      --argjson a "$(printf '%s\n' "${add[@]}" | jq -R . | jq -cs 'map(select(. != ""))')" \
      --argjson r "$(printf '%s\n' "${del[@]}" | jq -R . | jq -cs 'map(select(. != ""))')")" >/dev/null
  done
}

# ensure_publication REPO-HREF N: prints the href of a publication of version N.
ensure_publication() {
  local version="${1}versions/$2/" href
  href="$(api GET "publications/rpm/rpm/?repository_version=$version&fields=pulp_href" \
    | jq -r '.results[0].pulp_href // empty')"
  if [[ -z "$href" ]]; then
    href="$(api_wait POST publications/rpm/rpm/ "$(jq -cn --arg v "$version" '{repository_version: $v}')" \
      | jq -r '.created_resources[0]')"
  fi
  echo "$href"
}

# ensure_distribution NAME FIELD HREF: a distribution NAME (base_path NAME)
# whose FIELD (publication / repository) is HREF; an existing one is left as is.
ensure_distribution() {
  if [[ -z "$(find_one distributions/rpm/rpm/ "$1")" ]]; then
    api_wait POST distributions/rpm/rpm/ "$(jq -cn --arg n "$1" --arg f "$2" --arg h "$3" \
      '{name: $n, base_path: $n, ($f): $h}')" >/dev/null
    log "created distribution $1 -> $2"
  fi
}

# ensure_remote NAME URL: prints the href; the url is updated when it differs
# (the content port changes at every start).
ensure_remote() {
  local href current
  href="$(find_one remotes/rpm/rpm/ "$1")"
  if [[ -z "$href" ]]; then
    href="$(api POST remotes/rpm/rpm/ "$(jq -cn --arg n "$1" --arg u "$2" \
      '{name: $n, url: $u, policy: "immediate"}')" | jq -r .pulp_href)"
    log "created remote $1"
  else
    current="$(api GET "$href" | jq -r .url)"
    if [[ "$current" != "$2" ]]; then
      api_wait PATCH "$href" "$(jq -cn --arg u "$2" '{url: $u}')" >/dev/null
      log "remote $1: url $current -> $2"
    fi
  fi
  echo "$href"
}

# ensure_repo_remote REPO-HREF REMOTE-HREF: sets the repository's remote field.
ensure_repo_remote() {
  if [[ "$(api GET "$1" | jq -r '.remote // empty')" != "$2" ]]; then
    api_wait PATCH "$1" "$(jq -cn --arg r "$2" '{remote: $r}')" >/dev/null
  fi
}

repo="$(ensure_repo rc-verified "$VERIFIED_REPO")"
ensure_versions "$repo" "+hello-1.0 +world-2.0" "+hello-1.1 +extra-0.1" "+hello-1.2 -extra-0.1" \
  "+world-2.1 -hello-1.0" "+extra-0.1 -world-2.0"
ensure_distribution rc-verified-prod publication "$(ensure_publication "$repo" 3)"
ensure_distribution rc-verified-staging repository "$repo"

repo="$(ensure_repo rc-deploy "$VERIFIED_REPO")"
ensure_versions "$repo" "+alpha-1.0 +beta-1.0" "+alpha-1.1" "+gamma-1.0 -beta-1.0" "+alpha-1.2 -alpha-1.0"
ensure_distribution rc-deploy-prod publication "$(ensure_publication "$repo" 2)"

repo="$(ensure_repo rc-vanishing "$VERIFIED_REPO")"
ensure_versions "$repo" "+hello-1.0" "+world-2.0" "+extra-0.1 -hello-1.0"
ensure_distribution rc-vanishing-prod publication "$(ensure_publication "$repo" 1)"

repo="$(ensure_repo rc-changes "$VERIFIED_REPO")"
ensure_versions "$repo" "+acme-b-1 +acme-c-1 +acme-d-2 +acme-e-1 +RC-SA-OLD" "+acme-f-1 +RC-BA-KEEP" \
  "+acme-a-1 -acme-e-1" "+acme-e-1 +acme-c-2 -acme-b-1 -acme-c-1 +RC-SA-0001 +RC-BA-0001 +RC-EA-0001" \
  "+acme-d-1 -acme-d-2 -RC-SA-OLD"
ensure_distribution rc-changes-prod publication "$(ensure_publication "$repo" 2)"

repo="$(ensure_repo rc-builds "$VERIFIED_REPO")"
ensure_versions "$repo" "+multi-u-1 +multi-u-2 +multi-o-1 +multi-o-2 +multi-d-1 +multi-d-2 +multi-n-1" \
  "+multi-u-3 -multi-o-1 -multi-d-2 +multi-n-0.9" "+multi-x-1"

# rc-unsigned-meta: repo_gpgcheck on and no signing service: clients refuse it (not verified).
repo="$(ensure_repo rc-unsigned-meta "{\"repo_config\":$VERIFIED,\"checksum_type\":\"sha256\"}")"
ensure_versions "$repo" "+hello-1.0"

repo="$(ensure_repo rc-unverified '{"repo_config":{"gpgcheck":0,"repo_gpgcheck":0}}')"
ensure_versions "$repo" "+beta-1.0 +gamma-1.0" "+delta-1.0"

repo="$(ensure_repo rc-partial '{"repo_config":{"gpgcheck":1,"repo_gpgcheck":0},"checksum_type":"sha256"}')"
ensure_versions "$repo" "+delta-1.0" "+hello-1.1 +world-2.1"

repo="$(ensure_repo "<b>rc-html</b> \"quoted\" & 'single'" '{}')"
ensure_versions "$repo" "+hello-1.0"

repo="$(ensure_repo rc-mirror '{}')"
ensure_repo_remote "$repo" \
  "$(ensure_remote rc-mirror-remote "$PULP_CONTENT_URL/pulp/content/rc-verified-prod/")"
repo="$(ensure_repo rc-broken-mirror '{}')"
ensure_repo_remote "$repo" "$(ensure_remote rc-broken-remote "http://127.0.0.1:9/nothing/")"

# --- History (issue 13): a repository whose production the history tests change ---
# rc-history: verified, v1..v3, a publication of each; rc-history-prod -> pub(v1).
seed_history() {
  local repo
  repo="$(ensure_repo rc-history "$VERIFIED_REPO")"
  ensure_versions "$repo" "+hello-1.0" "+world-2.0" "+hello-1.1 -hello-1.0"
  ensure_publication "$repo" 2 >/dev/null
  ensure_publication "$repo" 3 >/dev/null
  ensure_distribution rc-history-prod publication "$(ensure_publication "$repo" 1)"
}
seed_history

# --- Environments (issue 23): one repository, one distribution per environment -----
# rc-envs: verified, v1..v3, a publication of each; rc-envs-testing, rc-envs-staging and
# rc-envs-prod -> pub(v1). The environments tests move them and put them back.
seed_envs() {
  local repo v1 env
  repo="$(ensure_repo rc-envs "$VERIFIED_REPO")"
  ensure_versions "$repo" "+hello-1.0" "+world-2.0" "+hello-1.1 -hello-1.0"
  ensure_publication "$repo" 2 >/dev/null
  ensure_publication "$repo" 3 >/dev/null
  v1="$(ensure_publication "$repo" 1)"
  for env in testing staging prod; do
    ensure_distribution "rc-envs-$env" publication "$v1"
  done
}
seed_envs

# --- Policy (issue 24): a repository whose production the policy tests move ----------
# rc-policy: verified, v1..v3, a publication of each; rc-policy-prod -> pub(v1). The
# policy tests deploy to it through the console (directly, by approval, through a freeze)
# and move it with Pulp's API (a stale request), then put it back at v1.
seed_policy() {
  local repo
  repo="$(ensure_repo rc-policy "$VERIFIED_REPO")"
  ensure_versions "$repo" "+hello-1.0" "+world-2.0" "+hello-1.1 -hello-1.0"
  ensure_publication "$repo" 2 >/dev/null
  ensure_publication "$repo" 3 >/dev/null
  ensure_distribution rc-policy-prod publication "$(ensure_publication "$repo" 1)"
}
seed_policy

# --- Approvals across replicas (issue 24) and the JSON API (issue 25) -------------------
# seed_production NAME STEP1 STEP2 STEP3: NAME verified, v1..v3 made of the steps, a publication
# of each; NAME-prod -> pub(v1). Each has its own test (tests/real_pulp/replicas.rs, api.rs),
# which deploys to NAME-prod and puts it back at v1.
seed_production() {
  local name=$1 repo; shift
  repo="$(ensure_repo "$name" "$VERIFIED_REPO")"
  ensure_versions "$repo" "$@"
  ensure_publication "$repo" 2 >/dev/null
  ensure_publication "$repo" 3 >/dev/null
  ensure_distribution "$name-prod" publication "$(ensure_publication "$repo" 1)"
}
seed_production rc-approvals "+hello-1.0" "+world-2.0" "+hello-1.1 -hello-1.0"
seed_production rc-api "+hello-1.0 +beta-1.0 +alpha-1.2" "+world-2.0" \
  "+hello-1.1 -hello-1.0 -beta-1.0 +extra-0.1 +alpha-1.1 -alpha-1.2"

# --- Releases (issue 36): three repositories promoted as one unit ---------------------
# rc-rel-baseos, rc-rel-appstream, rc-rel-epel: verified, v1..v3, a publication of each;
# NAME-staging -> pub(v2), NAME-prod -> pub(v1). tests/real_pulp/releases.rs promotes the
# set (through a proxy that refuses one distribution's update, too) and puts it back.
seed_release_member() {
  local name=$1 repo v1 v2
  repo="$(ensure_repo "$name" "$VERIFIED_REPO")"
  ensure_versions "$repo" "+hello-1.0" "+world-2.0" "+hello-1.1 -hello-1.0"
  ensure_publication "$repo" 3 >/dev/null
  v1="$(ensure_publication "$repo" 1)"
  v2="$(ensure_publication "$repo" 2)"
  ensure_distribution "$name-staging" publication "$v2"
  ensure_distribution "$name-prod" publication "$v1"
}
for member in baseos appstream epel; do seed_release_member "rc-rel-$member"; done
# --- Scheduled deploys and soak time (issue 38) -----------------------------------------
# rc-schedules: v1..v3, rc-schedules-prod -> pub(v1): schedules move it, once across two
# replicas (tests/real_pulp/schedules.rs). rc-soak: v1..v3, rc-soak-staging and rc-soak-prod
# -> pub(v1): production soaks behind staging. Each test puts them back at v1.
seed_production rc-schedules "+hello-1.0" "+world-2.0" "+hello-1.1 -hello-1.0"
seed_production rc-soak "+hello-1.0" "+world-2.0" "+hello-1.1 -hello-1.0"
# --- Edges (issue 48): rcedge-base, v1..v3, rcedge-base-prod -> pub(v1); tests/real_pulp/edges.rs
# labels rcedge-base-prod for the edge's upstream-pulp (scripts/pulp/edge.sh), deploys it,
# and follows it to the edge.
seed_production rcedge-base "+hello-1.0" "+world-2.0" "+hello-1.1 -hello-1.0"
# rcedge2-base, the same: the deploy's answer followed until the edge serves it (edges.rs).
seed_production rcedge2-base "+hello-1.0" "+world-2.0" "+hello-1.1 -hello-1.0"
soak_repo="$(ensure_repo rc-soak "$VERIFIED_REPO")"
ensure_distribution rc-soak-staging publication "$(ensure_publication "$soak_repo" 1)"
# --- Checks (issue 39): staging and production of one repository each test moves ---------
# NAME verified, v1..v3, a publication of each; NAME-staging and NAME-prod -> pub(v1). The
# checks tests (tests/real_pulp/checks.rs) promote to NAME-prod and put both back at v1.
seed_checks() {
  local name=$1 repo v1 env
  repo="$(ensure_repo "$name" "$VERIFIED_REPO")"
  ensure_versions "$repo" "+hello-1.0" "+world-2.0" "+hello-1.1 -hello-1.0"
  ensure_publication "$repo" 2 >/dev/null
  ensure_publication "$repo" 3 >/dev/null
  v1="$(ensure_publication "$repo" 1)"
  for env in staging prod; do
    ensure_distribution "$name-$env" publication "$v1"
  done
}
seed_checks rc-checks
seed_checks rc-checks-replicas
# --- Pins (issue 50): rc-pins, the same; tests/real_pulp/pins.rs rolls production back ------
seed_checks rc-pins
# --- Exposure (issue 37): advisories whose references name CVEs, in two environments -------
# ensure_cve_advisory ID PACKAGE VERSION CVE...: a security advisory fixing PACKAGE-VERSION-1
# (noarch) whose references name the CVEs; PKG[ID] = href.
ensure_cve_advisory() {
  local id=$1 package=$2 version=$3 href task; shift 3
  href="$(api GET "content/rpm/advisories/?id=$id&fields=pulp_href" | jq -r '.results[0].pulp_href // empty')"
  if [[ -z "$href" ]]; then
    jq -n --arg id "$id" --arg p "$package" --arg v "$version" '{
      id: $id, type: "security", severity: "Important", title: "\($id): security update for \($p)",
      status: "final", version: "1", release: "1", issued_date: "2026-11-20 00:00:00",
      updated_date: "2026-11-20 00:00:00", description: "repo-console exposure test advisory",
      summary: "", solution: "", rights: "", fromstr: "security@example.com", pushcount: "1",
      references: ($ARGS.positional | map({href: "https://cve.example/\(.)", id: ., title: ., type: "cve"})),
      reboot_suggested: false,
      pkglist: [{name: "rc-exposure", short: "xp", module: null, packages: [{
        name: $p, epoch: "0", version: $v, release: "1", arch: "noarch",
        filename: "\($p)-\($v)-1.noarch.rpm", src: "", sum: "", sum_type: "", reboot_suggested: false}]}]
    }' --args "$@" >"$WORK/advisory.json"
    task="$(curl_ "upload advisory $id" -X POST -b "$JAR" -H "X-CSRFToken: $CSRF" \
      -F "file=@$WORK/advisory.json" "$(url_of content/rpm/advisories/)" | jq -r .task)"
    href="$(wait_task "$task" | jq -r '.created_resources[0]')"
    log "uploaded advisory $id"
  fi
  PKG[$id]="$href"
}
seed_exposure() {
  local repo nv
  for nv in xp-ssl-1.0 xp-ssl-1.1 xp-lib-2.0 xp-lib-2.1; do
    ensure_package "${nv%-*}" "${nv##*-}"
  done
  ensure_cve_advisory RC-XSA-0001 xp-ssl 1.1 CVE-2026-51001
  ensure_cve_advisory RC-XSA-0002 xp-lib 2.1 CVE-2026-51001 CVE-2026-51002
  repo="$(ensure_repo rc-xp-app "$VERIFIED_REPO")"
  ensure_versions "$repo" "+xp-ssl-1.0 +xp-lib-2.0" "+xp-ssl-1.1" \
    "+xp-lib-2.1 -xp-lib-2.0 +RC-XSA-0001 +RC-XSA-0002"
  ensure_publication "$repo" 2 >/dev/null
  ensure_distribution rc-xp-app-testing publication "$(ensure_publication "$repo" 3)"
  ensure_distribution rc-xp-app-prod publication "$(ensure_publication "$repo" 1)"
  repo="$(ensure_repo rc-xp-other "$VERIFIED_REPO")"
  ensure_versions "$repo" "+hello-1.0"
  ensure_distribution rc-xp-other-prod publication "$(ensure_publication "$repo" 1)"
}
seed_exposure

# --- Summary -------------------------------------------------------------------
echo "Seeded Pulp at $PULP_BASE_URL:"
# The test suite's repositories and what serves them; the benchmarks' seeds (rc-dash-*, hundreds
# of distributions serving nothing) are left out, and the lists go through files, not arguments
# (a Pulp seeded for the benchmarks holds thousands).
api GET "repositories/rpm/rpm/?ordering=name&fields=name,pulp_href,latest_version_href,remote&limit=5000" >"$WORK/repos.json"
jq -r '.results[] | select(.name | startswith("rc-dash-") | not)
  | [.name, .pulp_href, (.latest_version_href | capture("/versions/(?<n>[0-9]+)/$").n), (.remote // "-")] | @tsv' "$WORK/repos.json" \
  | while IFS=$'\t' read -r name href latest remote; do
    count="$(api GET "${href}versions/?limit=1&fields=number" | jq -r .count)"
    printf '  repo %-38s %s  %s versions incl. v0 (latest v%s)%s\n' "$name" "$href" "$count" "$latest" \
      "$([[ "$remote" == - ]] || echo "  remote=$remote")"
  done
# Distributions that serve something, with the repository and version each one serves.
api GET "publications/rpm/rpm/?fields=pulp_href,repository_version&limit=5000" >"$WORK/pubs.json"
api GET "distributions/rpm/rpm/?ordering=name&fields=name,base_url,publication,repository&limit=5000" >"$WORK/dists.json"
jq -n -r --slurpfile repos "$WORK/repos.json" --slurpfile pubs "$WORK/pubs.json" \
  --slurpfile dists "$WORK/dists.json" '
  ($repos[0].results | map({key: .pulp_href, value: .name}) | from_entries) as $name
  | ($pubs[0].results | map({key: .pulp_href, value: .repository_version}) | from_entries) as $ver
  | $dists[0].results[]
  | select(.publication or .repository)
  | select(.name | startswith("rc-dash-") | not)
  | if .publication then
      ($ver[.publication] | capture("^(?<r>.*/)versions/(?<n>[0-9]+)/$")) as $v
      | "  dist \(.name) -> publication of \($name[$v.r]) v\($v.n)  \(.base_url)"
    else "  dist \(.name) -> repository \($name[.repository])  \(.base_url)" end'
