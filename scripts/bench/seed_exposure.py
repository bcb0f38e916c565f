#!/usr/bin/env python3
"""Seeds the test suite's Pulp for the exposure benchmark (`cargo bench --bench exposure`, issue 37).
Not part of the test suite.

    source target/pulp/env        # or /work/pulp-shared/env
    scripts/pulp/python.sh scripts/bench/seed_exposure.py [REPOS] [ADVISORIES]

1. Generates, into ${RC_TEST_CACHE:-~/.cache/repo-console}/exposure/source/, repository metadata
   (gen_repodata.py's writer: no RPM file exists) with 44 packages (xpb-ssl 1.0 and 1.1, xpb-lib 2.0
   and 2.1, xpb-fill-00..39 1.0) and an updateinfo.xml of ADVISORIES (default 20,000) security
   advisories RC-XPB-00000..., each fixing one xpb-fill package and naming one CVE in its references
   (CVE-2026-7xxxx), plus RC-XPB-SSL fixing xpb-ssl 1.1 and naming CVE-2026-99999.
2. Serves it with `python -m http.server` on a free 127.0.0.1 port (own process group, killed by PID
   at the end) and syncs repository `rc-xpb-source` from it (remote `rc-xpb-remote`, on_demand): one
   task makes every package and advisory.
3. Makes REPOS (default 100) repositories `rc-xpb-000`...: v1 = xpb-ssl 1.0, xpb-lib 2.0 and the
   fillers; v2 = xpb-ssl 1.0 -> 1.1; a publication of each; distributions `<name>-testing` -> v2,
   `<name>-staging` -> v1, `<name>-prod` -> v1 (three environments: `{repo}-testing`,
   `{repo}-staging`, `{repo}-prod`).
Idempotent: what exists is left alone. Tasks run WINDOW repositories at a time (Pulp has two workers).
"""

import gzip
import hashlib
import io
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from xml.sax.saxutils import escape, quoteattr

import requests

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "realsize"))
import gen_repodata  # noqa: E402  (the metadata writer of the realsize benchmark)

BASE = os.environ["PULP_BASE_URL"].rstrip("/")
API = BASE + "/pulp/api/v3/"
CACHE = os.path.join(os.environ.get("RC_TEST_CACHE") or os.path.expanduser("~/.cache/repo-console"), "exposure")
REPOS = int(sys.argv[1]) if len(sys.argv) > 1 else 100
ADVISORIES = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
FILLERS = 40
WINDOW = 6
VERIFIED = {"gpgcheck": 1, "repo_gpgcheck": 1}
T0 = time.time()


def log(msg):
    print(f"[exposure {time.time() - T0:6.1f}s] {msg}", flush=True)


def session():
    s = requests.Session()
    r = s.post(API + "login/", auth=(os.environ["PULP_USERNAME"], os.environ["PULP_PASSWORD"]))
    r.raise_for_status()
    s.headers["X-CSRFToken"] = s.cookies["csrftoken"]
    return s


def call(s, method, path, **kw):
    url = path if path.startswith("http") else (BASE + path if path.startswith("/") else API + path)
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
        time.sleep(0.3)


def one(s, path, name):
    found = call(s, "GET", path, params={"name": name})["results"]
    return found[0] if found else None


def packages():
    pkgs = [gen_repodata.Pkg("xpb-ssl", "noarch", ("0", v, "1"), 37) for v in ("1.0", "1.1")]
    pkgs += [gen_repodata.Pkg("xpb-lib", "noarch", ("0", v, "1"), 37) for v in ("2.0", "2.1")]
    pkgs += [gen_repodata.Pkg(f"xpb-fill-{i:02d}", "noarch", ("0", "1.0", "1"), 37) for i in range(FILLERS)]
    return pkgs


def update(adv_id, cve, name, version):
    return (f'<update from="security@example.invalid" status="final" type="security" version="1">\n'
            f'  <id>{adv_id}</id>\n  <title>{adv_id}: security update for {name}</title>\n'
            f'  <issued date="2026-11-01 00:00:00"/>\n  <updated date="2026-11-01 00:00:00"/>\n'
            f'  <rights/>\n  <release/>\n  <severity>Important</severity>\n  <summary/>\n'
            f'  <description>repo-console exposure benchmark advisory</description>\n  <solution/>\n'
            f'  <references>\n    <reference href={quoteattr("https://cve.example/" + cve)} id="{cve}" '
            f'title="{cve}" type="cve"/>\n  </references>\n'
            f'  <pkglist>\n    <collection short="xpb">\n      <name>xpb</name>\n'
            f'      <package name="{escape(name)}" version="{version}" release="1" epoch="0" arch="noarch" src="">\n'
            f'        <filename>{escape(name)}-{version}-1.noarch.rpm</filename>\n      </package>\n'
            f'    </collection>\n  </pkglist>\n</update>\n')


def generate():
    out = os.path.join(CACHE, "source")
    stamp = f"{ADVISORIES}|{FILLERS}|{hashlib.sha256(open(__file__, 'rb').read()).hexdigest()}"
    stamp_file = os.path.join(CACHE, "stamp")
    if os.path.exists(stamp_file) and open(stamp_file).read() == stamp:
        return
    os.makedirs(out, exist_ok=True)
    timestamp = 1764000000
    gen_repodata.write_repo(out, packages(), timestamp, "exposure")
    parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<updates>\n']
    parts += [update(f"RC-XPB-{n:05d}", f"CVE-2026-{70000 + n}", f"xpb-fill-{n % FILLERS:02d}", "1.0")
              for n in range(ADVISORIES)]
    parts.append(update("RC-XPB-SSL", "CVE-2026-99999", "xpb-ssl", "1.1"))
    parts.append("</updates>\n")
    raw = "".join(parts).encode()
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, filename="") as gz:
        gz.write(raw)
    data = buf.getvalue()
    digest = hashlib.sha256(data).hexdigest()
    href = f"repodata/{digest}-updateinfo.xml.gz"
    with open(os.path.join(out, href), "wb") as f:
        f.write(data)
    entry = (f'  <data type="updateinfo">\n    <checksum type="sha256">{digest}</checksum>\n'
             f'    <open-checksum type="sha256">{hashlib.sha256(raw).hexdigest()}</open-checksum>\n'
             f'    <location href="{href}"/>\n    <timestamp>{timestamp}</timestamp>\n'
             f'    <size>{len(data)}</size>\n    <open-size>{len(raw)}</open-size>\n  </data>\n')
    repomd = os.path.join(out, "repodata", "repomd.xml")
    text = open(repomd).read().replace("</repomd>", entry + "</repomd>")
    with open(repomd, "w") as f:
        f.write(text)
    with open(stamp_file, "w") as f:
        f.write(stamp)
    log(f"generated {out}: {len(packages())} packages, {ADVISORIES + 1} advisories")


def serve():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory", CACHE, str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    base = f"http://127.0.0.1:{port}/source/"
    for _ in range(50):
        try:
            urllib.request.urlopen(base + "repodata/repomd.xml", timeout=1).read()
            return proc, base
        except OSError:
            time.sleep(0.1)
    os.kill(proc.pid, signal.SIGTERM)
    sys.exit("could not start the local HTTP server")


def source(s):
    repo = one(s, "repositories/rpm/rpm/", "rc-xpb-source")
    if repo and not repo["latest_version_href"].endswith("/versions/0/"):
        return repo["latest_version_href"]
    generate()
    proc, url = serve()
    try:
        remote = one(s, "remotes/rpm/rpm/", "rc-xpb-remote")
        if remote is None:
            remote = call(s, "POST", "remotes/rpm/rpm/", json={"name": "rc-xpb-remote", "url": url, "policy": "on_demand"})
        else:
            wait(s, call(s, "PATCH", remote["pulp_href"], json={"url": url})["task"])
        if repo is None:
            repo = call(s, "POST", "repositories/rpm/rpm/", json={"name": "rc-xpb-source"})
        started = time.time()
        wait(s, call(s, "POST", repo["pulp_href"] + "sync/", json={"remote": remote["pulp_href"]})["task"])
        log(f"synced rc-xpb-source: {time.time() - started:.0f} s")
    finally:
        os.kill(proc.pid, signal.SIGTERM)
        proc.wait()
    return call(s, "GET", repo["pulp_href"])["latest_version_href"]


def publication(s, version):
    pubs = call(s, "GET", "publications/rpm/rpm/", params={"repository_version": version, "fields": "pulp_href"})["results"]
    if pubs:
        return pubs[0]["pulp_href"]
    return wait(s, call(s, "POST", "publications/rpm/rpm/", json={"repository_version": version})["task"])["created_resources"][0]


def one_repo(i, units):
    s = session()
    name = f"rc-xpb-{i:03d}"
    repo = one(s, "repositories/rpm/rpm/", name) or call(s, "POST", "repositories/rpm/rpm/",
                                                          json={"name": name, "repo_config": VERIFIED, "checksum_type": "sha256"})
    latest = int(repo["latest_version_href"].rstrip("/").rsplit("/", 1)[1])
    if latest < 1:
        v1 = [units["xpb-ssl-1.0"], units["xpb-lib-2.0"]] + [units[f"xpb-fill-{n:02d}-1.0"] for n in range(FILLERS)]
        wait(s, call(s, "POST", repo["pulp_href"] + "modify/", json={"add_content_units": v1})["task"])
    if latest < 2:
        wait(s, call(s, "POST", repo["pulp_href"] + "modify/",
                     json={"add_content_units": [units["xpb-ssl-1.1"]], "remove_content_units": [units["xpb-ssl-1.0"]]})["task"])
    pubs = {n: publication(s, f"{repo['pulp_href']}versions/{n}/") for n in (1, 2)}
    for env, n in (("testing", 2), ("staging", 1), ("prod", 1)):
        dist = f"{name}-{env}"
        if one(s, "distributions/rpm/rpm/", dist) is None:
            wait(s, call(s, "POST", "distributions/rpm/rpm/", json={"name": dist, "base_path": dist, "publication": pubs[n]})["task"])


def main():
    s = session()
    version = source(s)
    found = call(s, "GET", "content/rpm/packages/", params={"repository_version": version, "limit": 1000,
                                                            "fields": "pulp_href,name,version"})["results"]
    units = {f"{p['name']}-{p['version']}": p["pulp_href"] for p in found}
    advisories = call(s, "GET", "content/rpm/advisories/", params={"limit": 1, "fields": "pulp_href"})["count"]
    log(f"rc-xpb-source: {len(units)} packages; Pulp holds {advisories} advisories")
    started = time.time()
    with ThreadPoolExecutor(WINDOW) as pool:
        for n, _ in enumerate(pool.map(lambda i: one_repo(i, units), range(REPOS)), 1):
            if n % 10 == 0:
                log(f"{n} of {REPOS} repositories ready ({time.time() - started:.0f} s)")
    log("ready")


if __name__ == "__main__":
    main()
