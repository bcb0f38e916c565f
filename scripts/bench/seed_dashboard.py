#!/usr/bin/env python3
"""Seeds the test suite's Pulp with many repositories and many distributions, for the
dashboard part of the scale benchmark (`cargo bench --bench scale -- dashboard`). Not part
of the test suite: it takes minutes (distribution creation is a Pulp task, and Pulp runs
the creations one at a time: they all reserve the list of distributions).

    source target/pulp/env
    scripts/pulp/python.sh scripts/bench/seed_dashboard.py [--direct] [REPOS] [DISTRIBUTIONS]

The mix (a site where every repository has a production distribution, and most
distributions are staging, test or per-team copies that serve nothing):
- REPOS RPM repositories (default 1000) `rc-dash-0001`..., created directly (no task);
  no versions but version 0.
- one production distribution per repository, `rc-dash-NNNN-prod`; one repository in twenty
  (`rc-dash-0001`, `rc-dash-0021`, ...) has version 0 published, and its `-prod` serves it;
  the others serve nothing yet;
- `rc-dash-dist-NNNN` distributions, serving nothing, until Pulp holds DISTRIBUTIONS
  distributions in all (default 5000, whatever else the Pulp has).
Idempotent: only what is missing is made. Uses one session (basic auth costs ~0.5 s a
call). Tasks are submitted concurrently, at most WINDOW waiting in Pulp at once (a long
queue of waiting tasks slows Pulp's workers), and waited for together (one call asks for
the state of up to 40 tasks). Prints how long each step took.

Through the API, on 2 cores shared with compilers, a repository took ~0.9 s and a
distribution ~0.7 s (each task 1.1-1.8 s, Pulp's two workers running two at once): 5,000
distributions would take an hour. `--direct` makes the repositories and the distributions
with pulpcore's own models (`pulpcore-manager shell`, PULP_SETTINGS from PULP_HOME), in one
transaction: the same rows the API's tasks write (version 0 included), in about a minute.
The publications are always made through the API (a task each).
"""

import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import requests

BASE = os.environ["PULP_BASE_URL"].rstrip("/")
API = BASE + "/pulp/api/v3/"
PREFIX = "rc-dash-"
SERVED_EVERY = 20  # one repository in twenty has production serving a publication
WINDOW = 24  # tasks waiting in Pulp at once, at most
THREADS = 4  # concurrent requests from this script


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
    for attempt in range(5):
        try:
            r = s.request(method, url, timeout=120, **kw)
        except requests.ConnectionError:  # Pulp closes every connection; a busy one may refuse
            time.sleep(0.5 * (attempt + 1))
            continue
        if r.status_code == 401:  # the session was ended (the test suite clears Pulp's sessions)
            login(s)
            continue
        if r.status_code >= 400:
            sys.exit(f"{method} {url} -> {r.status_code}: {r.text[:500]}")
        return r.json() if r.text else {}
    sys.exit(f"{method} {url}: no answer after 5 tries")


DIRECT = """
import json, sys
from django.db import transaction
from pulpcore.plugin.models import Publication
from pulp_rpm.app.models import RpmDistribution, RpmRepository
todo = json.load(sys.stdin)
with transaction.atomic():
    for name in todo["repositories"]:
        RpmRepository(name=name, checksum_type="sha256",
                      repo_config={"gpgcheck": 1, "repo_gpgcheck": 1}).save()
    for d in todo["distributions"]:
        publication = d.get("publication")
        if publication:
            publication = Publication.objects.get(pk=publication.rstrip("/").rsplit("/", 1)[1])
        RpmDistribution(name=d["name"], base_path=d["base_path"], publication=publication).save()
"""


def direct(label, repositories=(), distributions=()):
    """Makes these rows with pulpcore's models, in one transaction."""
    if not repositories and not distributions:
        return
    started = time.time()
    home = os.environ["PULP_HOME"]
    manager = os.path.join(os.path.dirname(sys.executable), "pulpcore-manager")
    env = {**os.environ, "PULP_SETTINGS": os.path.join(home, "etc", "settings.py")}
    todo = {"repositories": list(repositories), "distributions": [body for _, _, body in distributions]}
    subprocess.run([manager, "shell", "-c", DIRECT], input=json.dumps(todo), text=True, env=env, check=True)
    print(f"{label}: {len(todo['repositories']) + len(todo['distributions'])} made directly "
          f"in {time.time() - started:.0f} s", flush=True)


def names(s, path, prefix):
    """Every name starting with `prefix` in this list, with its href (1,000 a call, at once)."""
    params = {"name__startswith": prefix, "fields": "name,pulp_href", "limit": 1000}
    count = call(s, "GET", path, params={**params, "limit": 1})["count"]
    pages = [{**params, "offset": o} for o in range(0, count, 1000)]
    with ThreadPoolExecutor(THREADS) as pool:
        found = pool.map(lambda p: call(s, "GET", path, params=p)["results"], pages)
    return {r["name"]: r["pulp_href"] for page in found for r in page}


def run_tasks(s, label, submissions):
    """Submits each (method, path, body), at most WINDOW waiting at once; waits for all.
    Answers the tasks' created resources, in order."""
    started = time.time()
    todo = list(enumerate(submissions))
    in_flight = {}  # task href -> index
    created = [None] * len(todo)
    done, report = 0, 500
    with ThreadPoolExecutor(THREADS) as pool:
        while todo or in_flight:
            room = max(0, WINDOW - len(in_flight))
            batch, todo = todo[:room], todo[room:]
            hrefs = pool.map(lambda item: (item[0], call(s, item[1][0], item[1][1], json=item[1][2])["task"]), batch)
            in_flight.update({task: i for i, task in hrefs})
            time.sleep(0.25)
            waiting = list(in_flight)
            chunks = [waiting[i:i + 40] for i in range(0, len(waiting), 40)]
            states = pool.map(lambda c: call(s, "GET", "tasks/", params={
                "pulp_href__in": ",".join(c), "fields": "pulp_href,state,error,created_resources",
                "limit": 40})["results"], chunks)
            for task in (t for page in states for t in page):
                if task["state"] == "completed":
                    created[in_flight.pop(task["pulp_href"])] = task["created_resources"]
                    done += 1
                elif task["state"] in ("failed", "canceled"):
                    sys.exit(f"task {task['pulp_href']} {task['state']}: {task.get('error')}")
            if done >= report:
                print(f"{label}: {done}/{len(created)} ({time.time() - started:.0f} s)", flush=True)
                report += 500
    if submissions:
        took = time.time() - started
        print(f"{label}: {len(submissions)} tasks in {took:.0f} s ({took / len(submissions) * 1000:.0f} ms each)", flush=True)
    return created


def main():
    args = [a for a in sys.argv[1:] if a != "--direct"]
    fast = "--direct" in sys.argv[1:]
    want_repos = int(args[0]) if len(args) > 0 else 1000
    want_dists = int(args[1]) if len(args) > 1 else 5000
    s = session()
    started = time.time()

    # Repositories: created directly, no task.
    repos = names(s, "repositories/rpm/rpm/", PREFIX)
    missing = [f"{PREFIX}{n:04d}" for n in range(1, want_repos + 1) if f"{PREFIX}{n:04d}" not in repos]
    step = time.time()
    if fast:
        direct("repositories", repositories=missing)
        repos = names(s, "repositories/rpm/rpm/", PREFIX)
        missing = []
    with ThreadPoolExecutor(THREADS) as pool:
        made = pool.map(lambda name: call(s, "POST", "repositories/rpm/rpm/", json={
            "name": name, "checksum_type": "sha256",
            "repo_config": {"gpgcheck": 1, "repo_gpgcheck": 1}}), missing)
        repos.update({r["name"]: r["pulp_href"] for r in made})
    if missing:
        print(f"repositories: {len(missing)} made in {time.time() - step:.0f} s", flush=True)

    # Publications of version 0 of one repository in ten (those not published yet).
    served = [f"{PREFIX}{n:04d}" for n in range(1, want_repos + 1, SERVED_EVERY)]
    versions = {name: repos[name] + "versions/0/" for name in served}
    with ThreadPoolExecutor(THREADS) as pool:
        found = dict(zip(served, pool.map(lambda name: call(s, "GET", "publications/rpm/rpm/", params={
            "repository_version": versions[name], "fields": "pulp_href", "limit": 1})["results"], served)))
    publications = {name: page[0]["pulp_href"] for name, page in found.items() if page}
    unpublished = [name for name in served if name not in publications]
    created = run_tasks(s, "publications", [
        ("POST", "publications/rpm/rpm/", {"repository_version": versions[name]}) for name in unpublished])
    publications.update({name: resources[0] for name, resources in zip(unpublished, created)})

    # Production distributions, one per repository.
    dists = names(s, "distributions/rpm/rpm/", PREFIX)
    prods = []
    for n in range(1, want_repos + 1):
        repo = f"{PREFIX}{n:04d}"
        name = f"{repo}-prod"
        if name not in dists:
            body = {"name": name, "base_path": name}
            if repo in publications:
                body["publication"] = publications[repo]
            prods.append(("POST", "distributions/rpm/rpm/", body))
    if fast:
        direct("production distributions", distributions=prods)
    else:
        run_tasks(s, "production distributions", prods)

    # Distributions serving nothing, up to the total asked for.
    total = call(s, "GET", "distributions/rpm/rpm/", params={"limit": 1})["count"]
    numbers = {int(name.rsplit("-", 1)[1]) for name in names(s, "distributions/rpm/rpm/", PREFIX + "dist-")}
    extra, n = [], 0
    while total + len(extra) < want_dists:
        n += 1
        if n not in numbers:
            name = f"{PREFIX}dist-{n:04d}"
            extra.append(("POST", "distributions/rpm/rpm/", {"name": name, "base_path": name}))
    if fast:
        direct("other distributions", distributions=extra)
    else:
        run_tasks(s, "other distributions", extra)

    total = call(s, "GET", "distributions/rpm/rpm/", params={"limit": 1})["count"]
    all_repos = call(s, "GET", "repositories/rpm/rpm/", params={"limit": 1})["count"]
    print(f"Pulp: {all_repos} repositories ({len(names(s, 'repositories/rpm/rpm/', PREFIX))} {PREFIX}*), "
          f"{total} distributions; {len(publications)} of the {PREFIX}*-prod serve a publication "
          f"({time.time() - started:.0f} s in all)", flush=True)


main()
