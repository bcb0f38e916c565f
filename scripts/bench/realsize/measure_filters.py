#!/usr/bin/env python3
"""Measures Pulp's package filters on rc-realsize (seed it first with seed_realsize.py).

    source target/pulp/env
    scripts/pulp/python.sh scripts/bench/realsize/measure_filters.py [--runs 3]

Uses one session (cookies), every figure is the median of --runs runs (wall time of the whole answer,
all pages). Checks the answers against manifest.json (written by gen_repodata.py) as it goes.
Sections: (a) repository_version_added / _removed, (b) q=... AND NOT ..., (c) whole version listings
with pages in flight, (d) name__in and the longest request line Pulp accepts, (e) advisories.
"""

import argparse
import json
import os
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import quote, urlencode

import requests

BASE = os.environ["PULP_BASE_URL"].rstrip("/")
API = BASE + "/pulp/api/v3/"
PKGS = API + "content/rpm/packages/"
FIELDS = "name,epoch,version,release,arch"
CACHE = os.path.join(os.environ.get("RC_TEST_CACHE") or os.path.expanduser("~/.cache/repo-console"), "realsize")
ROWS = []  # (section, variant, runs, median seconds, requests, note)


def login(s):
    s.cookies.clear()
    r = s.post(API + "login/", auth=(os.environ["PULP_USERNAME"], os.environ["PULP_PASSWORD"]))
    r.raise_for_status()
    s.headers["X-CSRFToken"] = s.cookies["csrftoken"]


SESSION = requests.Session()


def clone():
    s = requests.Session()
    s.cookies.update(SESSION.cookies)
    return s


def get(s, url, params=None, ok=(200,)):
    url = BASE + url if url.startswith("/") else url
    r = s.get(url, params=params)
    if r.status_code == 401:
        login(SESSION)
        s.cookies.update(SESSION.cookies)
        r = s.get(url, params=params)
    if r.status_code not in ok:
        raise RuntimeError(f"GET {r.url[:300]} -> {r.status_code}: {r.text[:300]}")
    return r


def nevra(d):
    return (d["name"], str(d["epoch"]), d["version"], d["release"], d["arch"])


def fetch_all(params, limit=1000, inflight=1, url=PKGS):
    """All pages of one listing: page 1 first (it gives the count), then the other offsets with
    `inflight` requests at a time. Returns (results, number of requests)."""
    s = clone()
    first = get(s, url, dict(params, limit=limit, offset=0)).json()
    results = list(first["results"])
    offsets = list(range(limit, first["count"], limit))
    if offsets:
        def page(offset):
            return get(clone(), url, dict(params, limit=limit, offset=offset)).json()["results"]
        if inflight == 1:
            for o in offsets:
                results += page(o)
        else:
            with ThreadPoolExecutor(inflight) as pool:
                for part in pool.map(page, offsets):
                    results += part
    return first["count"], results, 1 + len(offsets)


def timed(fn, runs):
    times, out = [], None
    for _ in range(runs):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), times, out


def row(section, variant, runs, med, times, reqs, note=""):
    ROWS.append((section, variant, runs, med, reqs, note))
    print(f"{section:2} {variant:70} {med:7.2f} s  (runs {', '.join(f'{t:.2f}' for t in times)}; {reqs} req) {note}",
          flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--sections", default="abcde", help="which sections to run (default abcde; c takes ~25 min)")
    args = ap.parse_args()
    runs = args.runs
    login(SESSION)
    manifest = json.load(open(os.path.join(CACHE, "manifest.json")))
    repo = get(SESSION, API + "repositories/rpm/rpm/", {"name": "rc-realsize"}).json()["results"][0]
    vers = {v["number"]: v["pulp_href"] for v in
            get(SESSION, repo["versions_href"], {"fields": "number,pulp_href"}).json()["results"]}
    v1, v2 = vers[1], vers[2]
    print(f"rc-realsize v1 {v1}\n            v2 {v2}\nruns per figure: {runs}; "
          f"load average at start {open('/proc/loadavg').read().split()[:3]}\n")

    # (a) added / removed of v2 (also needed by (b) for the comparison)
    sections = args.sections
    exp_added = {nevra(d) for d in manifest["packages_v2_vs_v1"]["added_list"]}
    exp_removed = {nevra(d) for d in manifest["packages_v2_vs_v1"]["removed_list"]}
    res = {}
    if "a" in sections or "b" in sections:
        for key, exp in (("repository_version_added", exp_added), ("repository_version_removed", exp_removed)):
            med, times, (count, results, reqs) = timed(lambda: fetch_all({key: v2, "fields": FIELDS}), runs)
            got = {nevra(d) for d in results}
            res[key] = got
            row("a", f"{key}=v2 limit=1000 all pages ({count})", runs, med, times, reqs,
                "= manifest" if got == exp else f"!= manifest ({len(got)} vs {len(exp)})")
    if "a" in sections:
        med, times, _ = timed(lambda: (fetch_all({"repository_version_added": v2, "fields": FIELDS}),
                                       fetch_all({"repository_version_removed": v2, "fields": FIELDS})), runs)
        row("a", "added + removed of v2, one after the other", runs, med, times, 2)

    # (b) q=... AND NOT ...: same answer as (a)? and what it costs
    if "b" in sections:
        q_added = f'repository_version="{v2}" AND NOT repository_version="{v1}"'
        q_removed = f'repository_version="{v1}" AND NOT repository_version="{v2}"'
        for limit in (1, 1000):
            med, times, count = timed(
                lambda: get(SESSION, PKGS, {"q": q_added, "fields": FIELDS, "limit": limit}).json()["count"], runs)
            row("b", f"q=v2 AND NOT v1, limit={limit}, one request ({count})", runs, med, times, 1)
        for q, key, label in ((q_added, "repository_version_added", "v2 AND NOT v1"),
                              (q_removed, "repository_version_removed", "v1 AND NOT v2")):
            med, times, (count, results, reqs) = timed(lambda: fetch_all({"q": q, "fields": FIELDS}), runs)
            same = {nevra(d) for d in results} == res[key]
            row("b", f"q={label}, limit=1000 all pages ({count})", runs, med, times, reqs,
                f"{'=' if same else '!='} {key}=v2")

    # (c) whole listing of v2
    want = manifest["v2"]["packages"]
    if "c" in sections:
        variants = [(1000, 1, None), (1000, 2, None), (1000, 4, None), (1000, 8, None), (5000, 2, None), (10000, 2, None),
                    (1000, 1, "pulp_id"), (1000, 8, "pulp_id"), (5000, 2, "pulp_id"), (10000, 2, "pulp_id")]
        for limit, inflight, ordering in variants:
            params = {"repository_version": v2, "fields": FIELDS}
            if ordering:
                params["ordering"] = ordering
            try:
                med, times, (count, results, reqs) = timed(lambda: fetch_all(params, limit, inflight), runs)
            except RuntimeError as e:
                ROWS.append(("c", f"repository_version=v2 limit={limit} in flight={inflight} ordering={ordering or '-'}",
                             runs, float("nan"), "-", f"FAILED: {str(e)[-200:].split(chr(10))[0]}"))
                print(f"c  limit={limit} in flight={inflight} ordering={ordering}: FAILED {str(e)[:300]}", flush=True)
                continue
            uniq = len({nevra(d) for d in results})
            row("c", f"repository_version=v2 limit={limit} in flight={inflight} ordering={ordering or '-'}", runs, med, times, reqs,
                f"{uniq} distinct of {count}" + ("" if uniq == count == want else " INCOMPLETE"))

    if "d" in sections:
        measure_name_in(v2, runs)
    if "e" in sections:
        measure_advisories(v2, runs)
    print(f"\nload average at end {open('/proc/loadavg').read().split()[:3]}")
    print("\n| | variant | runs | median s | requests | note |\n|---|---|---|---|---|---|")
    for section, variant, n, med, reqs, note in ROWS:
        print(f"| {section} | {variant} | {n} | {med:.2f} | {reqs} | {note} |")


def measure_name_in(v2, runs):
    names = sorted({d["name"] for d in fetch_all({"repository_version": v2, "fields": "name"}, 1000, 4)[1]})
    probe = get(SESSION, PKGS, {"name__in": "a,b", "limit": 1}, ok=(200, 400))
    print(f"\nname__in filter: HTTP {probe.status_code} {probe.text[:120]}")
    step = max(1, len(names) // 700)
    sample = names[::step]  # names spread over the alphabet, realistic lengths

    def url_for(n, comma=","):
        return PKGS + "?" + urlencode({"repository_version": v2, "fields": FIELDS, "limit": 1000}) \
            + "&name__in=" + comma.join(quote(x, safe="") for x in sample[:n])

    def url_for_names(names):
        return PKGS + "?" + urlencode({"repository_version": v2, "fields": FIELDS, "limit": 1000}) \
            + "&name__in=" + ",".join(quote(x, safe="") for x in names)

    def status(url):
        r = SESSION.get(url)
        return r.status_code, r

    # the longest request line accepted: bisect on the number of names (raw commas, then %2C as
    # requests' params= writes them)
    def longest(comma):
        lo, hi = 1, len(sample)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if status(url_for(mid, comma))[0] == 200:
                lo = mid
            else:
                hi = mid - 1
        ok_line = len("GET " + url_for(lo, comma)[len(BASE):] + " HTTP/1.1")
        code, bad = status(url_for(lo + 1, comma))
        bad_line = len("GET " + url_for(lo + 1, comma)[len(BASE):] + " HTTP/1.1")
        avg = statistics.mean(len(x) for x in sample[:lo])
        print(f"name__in separator {comma!r}: longest accepted {lo} names (mean name length {avg:.1f}), "
              f"request line {ok_line} bytes; {lo + 1} names ({bad_line} bytes) -> HTTP {code} {bad.text[:80]!r}")
        return lo
    longest(",")
    longest("%2C")
    fixed = len("GET " + url_for(0)[len(BASE):] + " HTTP/1.1")
    print(f"request line without names: {fixed} bytes (repository_version + fields + limit)")
    for n in (100, 300, 600):
        url = url_for(n)
        code = status(url)[0]
        if code == 200:
            med, times, count = timed(lambda: get(SESSION, url).json()["count"], runs)
            row("d", f"repository_version=v2&name__in=<{n} names> one request ({count} pkgs, {len(url) - len(BASE)} B path)", runs, med, times, 1)
        else:
            # pack names greedily so that each request line stays within 4094 bytes
            chunks, cur = [], []
            for x in sample[:n]:
                if cur and len("GET " + url_for_names(cur + [x])[len(BASE):] + " HTTP/1.1") > 4094:
                    chunks.append(cur)
                    cur = []
                cur.append(x)
            chunks.append(cur)

            def chunked():
                total = 0
                for c in chunks:
                    total += get(SESSION, url_for_names(c)).json()["count"]
                return total
            med, times, count = timed(chunked, runs)
            row("d", f"name__in=<{n} names>: one request -> HTTP {code}; {len(chunks)} requests within 4094 B ({count} pkgs)",
                runs, med, times, len(chunks))


def measure_advisories(v2, runs):
    url = API + "content/rpm/advisories/"
    adv = get(SESSION, url, {"repository_version": v2, "limit": 1}).json()["count"]
    print(f"\nadvisories in rc-realsize v2: {adv}")
    if adv:
        med, times, (count, results, reqs) = timed(lambda: fetch_all({"repository_version": v2, "fields": "id,updated_date"},
                                                                     1000, 2, url), runs)
        row("e", f"advisories repository_version=v2 all pages ({count})", runs, med, times, reqs)


if __name__ == "__main__":
    main()
