#!/usr/bin/env python3
"""Seeds the test suite's Pulp with `rc-realsize`: a 30,000-package repository in two versions.

    source target/pulp/env
    scripts/pulp/python.sh scripts/bench/realsize/seed_realsize.py [--reset]

1. Generates both snapshots with gen_repodata.py into ${RC_TEST_CACHE:-~/.cache/repo-console}/realsize/
   (once; again only when the generator changed).
2. Serves them with `python -m http.server` on 127.0.0.1 (a free port, its own process group; killed by
   its PID at the end), only when a sync is needed.
3. In Pulp: repository `rc-realsize` (verified: gpgcheck=1, repo_gpgcheck=1, sha256), remote
   `rc-realsize-remote` (policy on_demand: only repodata/ is read), sync of v1 -> version 1 (30,000),
   remote pointed at v2, sync with sync_policy mirror_content_only (removals happen; Pulp does not
   publish by itself as with mirror_complete) -> version 2. Publishes versions 1 and 2 and points
   distribution `rc-realsize-prod` at version 1's publication ("production serves v1, deploy v2").
Idempotent: whatever already matches the manifest is left as it is; rc-realsize-prod is pointed back
at version 1's publication if a benchmark moved it. --reset deletes rc-realsize (and its remote and
distribution) first. A repository whose versions do not match the manifest stops the script: use --reset.
Timings: first sync ~4 min, second ~1.5 min, each publication ~20 s on 2 cores.
"""

import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import requests

HERE = os.path.dirname(os.path.abspath(__file__))
BASE = os.environ["PULP_BASE_URL"].rstrip("/")
API = BASE + "/pulp/api/v3/"
CACHE = os.path.join(os.environ.get("RC_TEST_CACHE") or os.path.expanduser("~/.cache/repo-console"), "realsize")
REPO, REMOTE, PROD = "rc-realsize", "rc-realsize-remote", "rc-realsize-prod"
VERIFIED = {"gpgcheck": 1, "repo_gpgcheck": 1}
T0 = time.time()


def log(msg):
    print(f"[realsize {time.time() - T0:6.1f}s] {msg}", flush=True)


def login(s):
    s.cookies.clear()
    s.headers.pop("X-CSRFToken", None)
    r = s.post(API + "login/", auth=(os.environ["PULP_USERNAME"], os.environ["PULP_PASSWORD"]))
    r.raise_for_status()
    s.headers["X-CSRFToken"] = s.cookies["csrftoken"]


def call(s, method, path, **kw):
    url = path if path.startswith("http") else (BASE + path if path.startswith("/") else API + path)
    r = s.request(method, url, **kw)
    if r.status_code == 401:  # the session was ended (the test suite clears Pulp's sessions)
        login(s)
        r = s.request(method, url, **kw)
    if r.status_code >= 400:
        sys.exit(f"{method} {url} -> {r.status_code}: {r.text[:500]}")
    return r.json() if r.text else {}


def wait(s, task, what):
    started = time.time()
    last = 0
    while True:
        t = call(s, "GET", task)
        if t["state"] == "completed":
            log(f"{what}: {time.time() - started:.1f} s")
            return t
        if t["state"] in ("failed", "canceled"):
            sys.exit(f"{what}: task {task} {t['state']}: {t.get('error')}")
        if time.time() - last > 30:
            last = time.time()
            done = ", ".join(f"{p['message']} {p['done']}" for p in t.get("progress_reports") or [] if p.get("done"))
            log(f"{what}: {t['state']} {done}")
        time.sleep(1 if time.time() - started > 5 else 0.1)


def one(s, path, name):
    found = call(s, "GET", path, params={"name": name})["results"]
    return found[0] if found else None


# ---------------------------------------------------------------------------------------------


def generate():
    gen = os.path.join(HERE, "gen_repodata.py")
    stamp = hashlib.sha256(open(gen, "rb").read()).hexdigest()
    stamp_file = os.path.join(CACHE, "generator.sha256")
    if os.path.exists(stamp_file) and open(stamp_file).read().strip() == stamp \
            and os.path.exists(os.path.join(CACHE, "manifest.json")):
        log(f"snapshots cached in {CACHE}")
    else:
        started = time.time()
        os.makedirs(CACHE, exist_ok=True)
        subprocess.run([sys.executable, gen, CACHE], check=True, stdout=subprocess.DEVNULL)
        with open(stamp_file, "w") as f:
            f.write(stamp + "\n")
        log(f"generated v1 and v2 into {CACHE}: {time.time() - started:.1f} s")
    with open(os.path.join(CACHE, "manifest.json")) as f:
        return json.load(f)


class Server:
    """python -m http.server over CACHE on a free 127.0.0.1 port, in its own process group."""

    def __init__(self):
        self.proc = None

    def url(self):
        if self.proc is None:
            for _ in range(5):
                with socket.socket() as sock:
                    sock.bind(("127.0.0.1", 0))
                    port = sock.getsockname()[1]
                logf = open(os.path.join(CACHE, "http.log"), "ab")
                self.proc = subprocess.Popen(
                    [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory", CACHE, str(port)],
                    stdout=logf, stderr=subprocess.STDOUT, start_new_session=True)
                with open(os.path.join(CACHE, "http.pid"), "w") as f:
                    f.write(f"{self.proc.pid}\n")
                self.base = f"http://127.0.0.1:{port}/"
                for _ in range(50):
                    try:
                        urllib.request.urlopen(self.base + "v1/repodata/repomd.xml", timeout=1).read()
                        log(f"serving {CACHE} at {self.base} (pid {self.proc.pid})")
                        return self.base
                    except OSError:
                        if self.proc.poll() is not None:
                            break
                        time.sleep(0.1)
                self.stop()
            sys.exit("could not start the local HTTP server")
        return self.base

    def stop(self):
        if self.proc is not None:
            if self.proc.poll() is None:
                os.kill(self.proc.pid, signal.SIGTERM)
                try:
                    self.proc.wait(5)
                except subprocess.TimeoutExpired:
                    os.kill(self.proc.pid, signal.SIGKILL)
                    self.proc.wait()
            log(f"stopped the HTTP server (pid {self.proc.pid})")
            self.proc = None
            try:
                os.remove(os.path.join(CACHE, "http.pid"))
            except OSError:
                pass


def versions(s, repo):
    out = {}
    url = repo["versions_href"]
    params = {"limit": 100, "fields": "number,pulp_href,content_summary"}
    while url:
        page = call(s, "GET", url, params=params)
        params = None
        for v in page["results"]:
            present = v["content_summary"]["present"].get("rpm.package", {}).get("count", 0)
            out[v["number"]] = (v["pulp_href"], present)
        url = page["next"]
    return out


def reset(s):
    for path, name in (("distributions/rpm/rpm/", PROD), ("repositories/rpm/rpm/", REPO), ("remotes/rpm/rpm/", REMOTE)):
        found = one(s, path, name)
        if found:
            wait(s, call(s, "DELETE", found["pulp_href"])["task"], f"delete {name}")


def sync(s, repo, remote, server, snapshot, policy):
    url = server.url() + snapshot + "/"
    wait(s, call(s, "PATCH", remote["pulp_href"], json={"url": url})["task"], f"remote -> {snapshot}")
    body = {"remote": remote["pulp_href"], "sync_policy": policy}
    wait(s, call(s, "POST", repo["pulp_href"] + "sync/", json=body)["task"], f"sync {snapshot} ({policy})")


def publication(s, version_href, what):
    pubs = call(s, "GET", "publications/rpm/rpm/", params={"repository_version": version_href, "ordering": "-pulp_created"})["results"]
    if pubs:
        return pubs[0]["pulp_href"]
    task = wait(s, call(s, "POST", "publications/rpm/rpm/", json={"repository_version": version_href})["task"],
                f"publish {what}")
    return task["created_resources"][0]


def main():
    manifest = generate()
    want = {1: manifest["v1"]["packages"], 2: manifest["v2"]["packages"]}
    s = requests.Session()
    login(s)
    if "--reset" in sys.argv[1:]:
        reset(s)
    repo = one(s, "repositories/rpm/rpm/", REPO)
    if repo is None:
        call(s, "POST", "repositories/rpm/rpm/", json={"name": REPO, "checksum_type": "sha256", "repo_config": VERIFIED})
        repo = one(s, "repositories/rpm/rpm/", REPO)
        log(f"created repository {REPO}")
    remote = one(s, "remotes/rpm/rpm/", REMOTE)
    if remote is None:
        call(s, "POST", "remotes/rpm/rpm/", json={"name": REMOTE, "url": "http://127.0.0.1:9/", "policy": "on_demand"})
        remote = one(s, "remotes/rpm/rpm/", REMOTE)
        log(f"created remote {REMOTE} (on_demand)")
    server = Server()
    try:
        have = versions(s, repo)
        for number, snapshot, policy in ((1, "v1", "additive"), (2, "v2", "mirror_content_only")):
            if number in have:
                continue
            if max(have) != number - 1:
                sys.exit(f"{REPO} has versions {sorted(have)}; expected 0..{number - 1} before syncing {snapshot}: use --reset")
            sync(s, repo, remote, server, snapshot, policy)
            have = versions(s, repo)
    finally:
        server.stop()
    numbers = sorted(have)
    if numbers != [0, 1, 2] or any(have[n][1] != want[n] for n in (1, 2)):
        sys.exit(f"{REPO}: versions {[(n, have[n][1]) for n in numbers]}, expected 1 -> {want[1]}, 2 -> {want[2]}: use --reset")
    log(f"{REPO}: version 1 = {have[1][1]} packages, version 2 = {have[2][1]} packages (as the manifest says)")
    pub2 = publication(s, have[2][0], "version 2")
    pub1 = publication(s, have[1][0], "version 1")
    prod = one(s, "distributions/rpm/rpm/", PROD)
    if prod is None:
        wait(s, call(s, "POST", "distributions/rpm/rpm/", json={"name": PROD, "base_path": PROD, "publication": pub1})["task"],
             f"create {PROD}")
    elif prod.get("publication") != pub1 or prod.get("repository") or prod.get("repository_version"):
        wait(s, call(s, "PATCH", prod["pulp_href"], json={"publication": pub1, "repository": None})["task"],
             f"point {PROD} back at version 1's publication")
    log(f"ready: {REPO} v1 {have[1][0]} (pub {pub1}, served by {PROD}); v2 {have[2][0]} (pub {pub2})")


main()
