#!/usr/bin/env python3
"""Versions far apart: Pulp's `AND NOT` filter against composing each version's own changes.

    source target/pulp/env
    PY=scripts/pulp/python.sh
    $PY scripts/bench/realsize/seed_realsize.py            # rc-realsize first
    $PY scripts/bench/realsize/measure_far_apart.py [--runs 3] [--steps 8]

Makes (once) repository `rc-realsize-steps`: version 1 holds rc-realsize v2's 30,044 packages
(`modify` with `base_version`), and each later version removes 150 packages and puts back the 150
the version before it removed (so that composing must cancel units that come back). Then, for
each distance d from 1 to --steps between version `last - d` and `last`, times with one session:

- `and-not`: the two `q=repository_version="new" AND NOT repository_version="old"` listings (and
  the reverse), 5,000 rows a page, the two at once (what the console sends today);
- `compose`: `repository_version_added=` and `_removed=` of each of the d later versions,
  4 requests in flight, composed into the net change (a unit added then removed cancels).

Both answers are checked equal. Prints a table of medians; nothing here is part of the tests.
"""

import argparse
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import requests

from measure_filters import timed  # the same medians as the filter timings

BASE = os.environ["PULP_BASE_URL"].rstrip("/")
API = BASE + "/pulp/api/v3/"
PKGS = API + "content/rpm/packages/"
FIELDS = "name,epoch,version,release,arch"
SOURCE, STEPS_REPO = "rc-realsize", "rc-realsize-steps"
CHURN = 150
SESSION = requests.Session()


def login():
    SESSION.cookies.clear()
    SESSION.headers.pop("X-CSRFToken", None)
    r = SESSION.post(API + "login/", auth=(os.environ["PULP_USERNAME"], os.environ["PULP_PASSWORD"]))
    r.raise_for_status()
    SESSION.headers["X-CSRFToken"] = SESSION.cookies["csrftoken"]


def call(method, url, **kw):
    url = url if url.startswith("http") else (BASE + url if url.startswith("/") else API + url)
    r = SESSION.request(method, url, **kw)
    if r.status_code in (401, 403):
        login()
        r = SESSION.request(method, url, **kw)
    if r.status_code >= 300:
        sys.exit(f"{method} {url[:200]} -> {r.status_code}: {r.text[:300]}")
    return r.json()


def wait(task):
    while True:
        t = call("GET", task)
        if t["state"] == "completed":
            return t
        if t["state"] in ("failed", "canceled"):
            sys.exit(f"task {task} {t['state']}: {t.get('error')}")
        time.sleep(0.5)


def one(path, name):
    found = call("GET", path, params={"name": name})["results"]
    return found[0] if found else None


def versions(repo):
    page = call("GET", repo["versions_href"], params={"limit": 1000, "fields": "number,pulp_href"})
    return {v["number"]: v["pulp_href"] for v in page["results"]}


def hrefs(params, limit=5000, inflight=2):
    """Every (pulp_href, nevra) a package listing selects: page 1, then the rest `inflight` at a time."""
    def page(offset):
        return call("GET", PKGS, params=dict(params, fields="pulp_href," + FIELDS, limit=limit, offset=offset))
    first = page(0)
    rows = list(first["results"])
    offsets = range(limit, first["count"], limit)
    with ThreadPoolExecutor(inflight) as pool:
        for part in pool.map(page, offsets):
            rows += part["results"]
    return {r["pulp_href"] for r in rows}, 1 + len(offsets)


def seed(steps):
    source = one("repositories/rpm/rpm/", SOURCE)
    if source is None:
        sys.exit(f"{SOURCE} is missing: run seed_realsize.py first")
    repo = one("repositories/rpm/rpm/", STEPS_REPO)
    if repo is None:
        call("POST", "repositories/rpm/rpm/", json={"name": STEPS_REPO})
        repo = one("repositories/rpm/rpm/", STEPS_REPO)
    have = versions(repo)
    if 1 not in have:
        base = versions(source)[2]
        t = time.perf_counter()
        wait(call("POST", repo["pulp_href"] + "modify/", json={"base_version": base})["task"])
        print(f"version 1 = {SOURCE} v2 ({time.perf_counter() - t:.1f} s)", flush=True)
        have = versions(repo)
    removed_before = []
    while max(have) < steps + 1:
        n = max(have) + 1
        page = call("GET", PKGS, params={"repository_version": have[n - 1], "fields": "pulp_href",
                                         "limit": CHURN, "offset": (n * 997) % 29_000})
        remove = [r["pulp_href"] for r in page["results"]]
        if not removed_before and n > 2:
            removed_before = sorted(hrefs({"repository_version_removed": have[n - 1]})[0])
        body = {"remove_content_units": remove, "add_content_units": removed_before}
        t = time.perf_counter()
        wait(call("POST", repo["pulp_href"] + "modify/", json=body)["task"])
        print(f"version {n}: -{len(remove)} +{len(removed_before)} ({time.perf_counter() - t:.1f} s)", flush=True)
        removed_before = remove
        have = versions(repo)
    return have


def and_not(old, new):
    q = 'repository_version="{}" AND NOT repository_version="{}"'
    with ThreadPoolExecutor(2) as pool:
        added = pool.submit(hrefs, {"q": q.format(new, old)})
        removed = pool.submit(hrefs, {"q": q.format(old, new)})
        (a, ra), (r, rr) = added.result(), removed.result()
    return a, r, ra + rr


def compose(step_versions):
    """The net change over consecutive versions, from each one's added and removed."""
    reads = [(v, key) for v in step_versions for key in ("repository_version_added", "repository_version_removed")]
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda vk: hrefs({vk[1]: vk[0]}, limit=1000, inflight=1), reads))
    plus, minus = set(), set()
    for i in range(0, len(answers), 2):
        (added, _), (removed, _) = answers[i], answers[i + 1]
        for unit in removed:
            plus.discard(unit) if unit in plus else minus.add(unit)
        for unit in added:
            minus.discard(unit) if unit in minus else plus.add(unit)
    return plus, minus, sum(n for _, n in answers)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--steps", type=int, default=8)
    args = ap.parse_args()
    login()
    have = seed(args.steps)
    last = max(have)
    print(f"{STEPS_REPO}: versions {sorted(have)}; runs per figure {args.runs}; "
          f"load average {open('/proc/loadavg').read().split()[:3]}\n", flush=True)
    print("| distance | net added / removed | and-not s (requests) | compose s (requests) | compose / and-not |")
    print("| --- | --- | --- | --- | --- |")
    for d in range(1, args.steps + 1):
        old, new = have[last - d], have[last]
        a_med, a_runs, (a_plus, a_minus, a_reqs) = timed(lambda: and_not(old, new), args.runs)
        c_med, c_runs, (c_plus, c_minus, c_reqs) = timed(
            lambda: compose([have[n] for n in range(last - d + 1, last + 1)]), args.runs)
        same = "" if (a_plus, a_minus) == (c_plus, c_minus) else " **ANSWERS DIFFER**"
        print(f"| {d} | {len(a_plus)} / {len(a_minus)}{same} | {a_med:.2f} ({a_reqs}) "
              f"[{' '.join(f'{t:.2f}' for t in a_runs)}] | {c_med:.2f} ({c_reqs}) "
              f"[{' '.join(f'{t:.2f}' for t in c_runs)}] | {c_med / a_med:.2f} |", flush=True)


if __name__ == "__main__":
    main()
