#!/usr/bin/env python3
"""Seeds the test suite's Pulp with a repository of many versions and many distributions,
for the scale benchmark (benches/scale.rs). Not part of the test suite: it takes minutes.

    source target/pulp/env
    scripts/pulp/python.sh scripts/bench/seed_scale.py [VERSIONS] [DISTRIBUTIONS]

Makes `rc-scale` (verified) with at least VERSIONS versions (default 600: each toggles one
package in or out), publishes its newest version, points `rc-scale-prod` at it, and makes
`rc-scale-dist-<n>` distributions up to DISTRIBUTIONS in all (default 500), serving nothing.
Idempotent: only what is missing is made. Uses one session (basic auth costs ~0.5 s a call).
"""

import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import requests

BASE = os.environ["PULP_BASE_URL"].rstrip("/")
API = BASE + "/pulp/api/v3/"


def login(s):
    s.cookies.clear()
    s.headers.pop("X-CSRFToken", None)
    r = s.post(API + "login/", auth=(os.environ["PULP_USERNAME"], os.environ["PULP_PASSWORD"]))
    r.raise_for_status()
    s.headers["X-CSRFToken"] = s.cookies["csrftoken"]


def session():
    s = requests.Session()
    login(s)
    return s


def call(s, method, path, **kw):
    url = path if path.startswith("http") else (BASE + path if path.startswith("/") else API + path)
    r = s.request(method, url, **kw)
    if r.status_code == 401:  # the session was ended (the test suite clears Pulp's sessions)
        login(s)
        r = s.request(method, url, **kw)
    if r.status_code >= 400:
        sys.exit(f"{method} {url} -> {r.status_code}: {r.text[:500]}")
    return r.json() if r.text else {}


def wait(s, task):
    while True:
        t = call(s, "GET", task)
        if t["state"] == "completed":
            return t
        if t["state"] in ("failed", "canceled"):
            sys.exit(f"task {task} {t['state']}: {t.get('error')}")
        time.sleep(0.05)


def one(s, path, name):
    found = call(s, "GET", path, params={"name": name})["results"]
    return found[0] if found else None


def main():
    want_versions = int(sys.argv[1]) if len(sys.argv) > 1 else 600
    want_dists = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    s = session()
    repo = one(s, "repositories/rpm/rpm/", "rc-scale") or call(
        s, "POST", "repositories/rpm/rpm/",
        json={"name": "rc-scale", "checksum_type": "sha256",
              "repo_config": {"gpgcheck": 1, "repo_gpgcheck": 1}})
    package = call(s, "GET", "content/rpm/packages/",
                   params={"name": "hello", "version": "1.0", "fields": "pulp_href"})["results"][0]["pulp_href"]
    latest = int(repo["latest_version_href"].rstrip("/").rsplit("/", 1)[1]) if repo.get("latest_version_href") else 0
    started = time.time()
    for n in range(latest + 1, want_versions + 1):
        change = "add_content_units" if n % 2 else "remove_content_units"
        task = call(s, "POST", repo["pulp_href"] + "modify/", json={change: [package]})["task"]
        wait(s, task)
        if n % 100 == 0:
            print(f"rc-scale v{n} ({time.time() - started:.0f} s)", flush=True)
    repo = call(s, "GET", repo["pulp_href"])
    version = repo["latest_version_href"]
    pubs = call(s, "GET", "publications/rpm/rpm/", params={"repository_version": version})["results"]
    publication = pubs[0]["pulp_href"] if pubs else wait(s, call(
        s, "POST", "publications/rpm/rpm/", json={"repository_version": version})["task"])["created_resources"][0]
    prod = one(s, "distributions/rpm/rpm/", "rc-scale-prod")
    if prod is None:
        wait(s, call(s, "POST", "distributions/rpm/rpm/",
                     json={"name": "rc-scale-prod", "base_path": "rc-scale-prod", "publication": publication})["task"])
    existing = call(s, "GET", "distributions/rpm/rpm/", params={"name__startswith": "rc-scale-dist-", "limit": 1})["count"]
    total = call(s, "GET", "distributions/rpm/rpm/", params={"limit": 1})["count"]

    def make(n):
        name = f"rc-scale-dist-{n:04d}"
        if one(s, "distributions/rpm/rpm/", name) is None:
            wait(s, call(s, "POST", "distributions/rpm/rpm/", json={"name": name, "base_path": name})["task"])

    missing = range(existing, max(existing, want_dists - (total - existing)))
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(make, missing))
    total = call(s, "GET", "distributions/rpm/rpm/", params={"limit": 1})["count"]
    versions = call(s, "GET", repo["pulp_href"] + "versions/", params={"limit": 1})["count"]
    print(f"rc-scale: {versions} versions; Pulp: {total} distributions ({time.time() - started:.0f} s)")


main()
