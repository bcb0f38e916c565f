#!/usr/bin/env python3
"""Generates the metadata of a realistic yum repository (no RPM files) in two snapshots.

    python3 scripts/bench/realsize/gen_repodata.py OUT_DIR [--packages 30000] [--seed 22]

Writes OUT_DIR/v1/repodata/ and OUT_DIR/v2/repodata/ (primary, filelists and other .xml.gz plus
repomd.xml with sha256 checksums, open-checksums, sizes and timestamps) and OUT_DIR/manifest.json.
Standard library only; deterministic: the same arguments give byte-identical files.

v1 is shaped like a distribution's AppStream: for 30,000 packages about 25,500 name.arch pairs,
2,550 of them carrying 2 to 4 builds (older builds kept), arches x86_64 / noarch / i686, EVRs such
as 1:2.4.1-3.el9_2. v2 is derived from v1:
  - 200 name.arch removed entirely;
  - 200 new name.arch added;
  - 200 name.arch upgraded: 100 get a newer build beside the builds they keep, 100 have their
    only build replaced by a newer one (2 of the replacements lower the version and raise the epoch);
  - edge cases on multi-build name.arch, 3 of each: only an OLD build dropped (newest stays: dnf sees
    no change), an older build added below the newest (dnf sees no change), the newest build
    dropped (dnf sees a downgrade).
manifest.json holds both the package-level view (what Pulp's repository_version_added/_removed
must show for v2 against v1) and dnf's view (newest build per name.arch, rpmvercmp order).

A sync with policy on_demand reads only repodata/, so each package needs only a unique pkgid
(sha256) and location_href; the files named by location_href do not exist.
"""

import argparse
import gzip
import hashlib
import io
import json
import os
import random
import re
import sys
from xml.sax.saxutils import escape, quoteattr

# ---------------------------------------------------------------------------------------------
# rpm version comparison (rpmvercmp from rpm's lib/rpmvercmp.c, tilde and caret included)


def rpmvercmp(a, b):
    if a == b:
        return 0
    i = j = 0
    while i < len(a) or j < len(b):
        while i < len(a) and not a[i].isalnum() and a[i] not in "~^":
            i += 1
        while j < len(b) and not b[j].isalnum() and b[j] not in "~^":
            j += 1
        # tilde sorts before everything, even the end of the string
        if (i < len(a) and a[i] == "~") or (j < len(b) and b[j] == "~"):
            if not (i < len(a) and a[i] == "~"):
                return 1
            if not (j < len(b) and b[j] == "~"):
                return -1
            i += 1
            j += 1
            continue
        # caret sorts after the end of the string but before anything else
        if (i < len(a) and a[i] == "^") or (j < len(b) and b[j] == "^"):
            if i >= len(a):
                return -1
            if j >= len(b):
                return 1
            if a[i] != "^":
                return 1
            if b[j] != "^":
                return -1
            i += 1
            j += 1
            continue
        if not (i < len(a) and j < len(b)):
            break
        isnum = a[i].isdigit()
        si, sj = i, j
        if isnum:
            while i < len(a) and a[i].isdigit():
                i += 1
            while j < len(b) and b[j].isdigit():
                j += 1
        else:
            while i < len(a) and a[i].isalpha():
                i += 1
            while j < len(b) and b[j].isalpha():
                j += 1
        sa, sb = a[si:i], b[sj:j]
        if not sb:
            return 1 if isnum else -1
        if isnum:
            sa, sb = sa.lstrip("0"), sb.lstrip("0")
            if len(sa) != len(sb):
                return 1 if len(sa) > len(sb) else -1
        if sa != sb:
            return 1 if sa > sb else -1
    if i >= len(a) and j >= len(b):
        return 0
    return -1 if i >= len(a) else 1


def evrcmp(x, y):
    """x, y: (epoch:int, version, release)."""
    if x[0] != y[0]:
        return 1 if x[0] > y[0] else -1
    return rpmvercmp(x[1], y[1]) or rpmvercmp(x[2], y[2])


def _selftest():
    cases = [("1.0", "1.0", 0), ("1.0", "2.0", -1), ("2.0.1", "2.0", 1), ("1.0a", "1.0", 1),
             ("1.0~rc1", "1.0", -1), ("1.0~rc1", "1.0~rc2", -1), ("1.0^", "1.0", 1),
             ("1.0^git1", "1.0.1", -1), ("10", "9", 1), ("1.010", "1.9", 1), ("a", "1", -1),
             ("5.el9", "5.el9_1", -1), ("1.el9_2.1", "1.el9_2", 1), ("2.5", "2.50", -1),
             ("1.0.0", "1.0", 1), ("001", "1", 0), ("1_0", "1.0", 0)]
    for a, b, want in cases:
        got = rpmvercmp(a, b)
        assert got == want, (a, b, got, want)
        assert rpmvercmp(b, a) == -want, (b, a)
    assert evrcmp((1, "1.0", "1"), (0, "9.9", "9")) == 1


# ---------------------------------------------------------------------------------------------
# v1: names, arches, builds

SYLL = ["ab", "ac", "ad", "al", "am", "an", "ar", "at", "ba", "be", "bi", "bo", "bu", "ca", "ce",
        "ci", "co", "cu", "da", "de", "di", "do", "du", "el", "em", "en", "er", "es", "fa", "fe",
        "fi", "fo", "ga", "ge", "gi", "go", "gu", "ha", "he", "hi", "ho", "ix", "ja", "jo", "ka",
        "ke", "ki", "ko", "la", "le", "li", "lo", "lu", "ma", "me", "mi", "mo", "mu", "na", "ne",
        "ni", "no", "nu", "ob", "od", "ol", "om", "on", "or", "os", "pa", "pe", "pi", "po", "pu",
        "ra", "re", "ri", "ro", "ru", "sa", "se", "si", "so", "su", "ta", "te", "ti", "to", "tu",
        "un", "ur", "va", "ve", "vi", "vo", "xa", "xe", "ya", "yo", "za", "ze", "zi", "zo"]
WORDS = ["xml", "ssl", "crypt", "zip", "net", "core", "util", "json", "curl", "http", "gtk", "qt",
         "font", "audio", "video", "image", "sql", "db", "ldap", "krb", "usb", "pci", "dbus", "glib",
         "yaml", "tls", "z", "bz", "lz", "xz", "ssh", "git", "tk", "tcl", "fs", "mount", "print",
         "cups", "scan", "pam", "nss", "sasl", "gpg", "rpc", "mail", "dns", "cache", "test", "log",
         "proto", "buf", "event", "thread", "math", "plot", "grid", "map", "text", "term", "cli"]
PREFIXES = [("", 34), ("python3-", 13), ("perl-", 11), ("lib", 9), ("texlive-", 5), ("rust-", 4),
            ("golang-github-", 4), ("rubygem-", 3), ("ghc-", 3), ("nodejs-", 2), ("php-", 2),
            ("qt5-", 2), ("java-", 2), ("mingw64-", 2), ("xorg-x11-", 1), ("gnome-", 2), ("kf5-", 1)]
SUFFIXES = [("", 52), ("-devel", 20), ("-libs", 8), ("-doc", 6), ("-common", 4), ("-tools", 3),
            ("-static", 2), ("-tests", 2), ("-data", 2), ("-utils", 1)]
NOARCH_PREFIXES = {"python3-": 0.8, "perl-": 0.6, "texlive-": 1.0, "rubygem-": 0.8, "nodejs-": 0.9,
                   "php-": 0.7, "java-": 0.9, "golang-github-": 0.9, "rust-": 0.95, "mingw64-": 1.0}
NOARCH_SUFFIXES = {"-doc": 0.95, "-data": 0.9, "-common": 0.5}
LICENSES = ["MIT", "GPL-2.0-or-later", "GPL-3.0-or-later", "LGPL-2.1-or-later", "BSD-3-Clause",
            "Apache-2.0", "MPL-2.0", "Artistic-1.0-Perl OR GPL-1.0-or-later", "ISC", "Zlib"]
GROUPS = ["Unspecified", "Development/Libraries", "System Environment/Base", "Applications/System"]
DISTS = ["el9", "el9", "el9", "el9_0", "el9_1", "el9_2", "el9_3", "el9_4"]


def weighted(rng, choices):
    total = sum(w for _, w in choices)
    x = rng.uniform(0, total)
    for value, w in choices:
        x -= w
        if x <= 0:
            return value
    return choices[-1][0]


def make_name(rng):
    stem = ""
    while len(stem) < 3:
        parts = rng.randint(1, 3)
        stem = "".join(rng.choice(SYLL) if rng.random() < 0.6 else rng.choice(WORDS) for _ in range(parts))
    if rng.random() < 0.12:
        stem += str(rng.choice([2, 3, 4, 5, 6, 11, 12]))
    return weighted(rng, PREFIXES) + stem + weighted(rng, SUFFIXES)


def arches_for(rng, name):
    p = 0.05
    for prefix, prob in NOARCH_PREFIXES.items():
        if name.startswith(prefix):
            p = prob
    for suffix, prob in NOARCH_SUFFIXES.items():
        if name.endswith(suffix):
            p = max(p, prob)
    if rng.random() < p:
        return ["noarch"]
    # multilib: libraries often come as x86_64 and i686
    lib = name.startswith("lib") or name.endswith("-libs") or name.endswith("-devel")
    if rng.random() < (0.45 if lib else 0.04):
        return ["x86_64", "i686"]
    return ["x86_64"]


def make_version(rng):
    kind = rng.random()
    if kind < 0.55:
        return ".".join(str(rng.randint(0, 12 if i == 0 else 30)) for i in range(rng.randint(2, 3)))
    if kind < 0.7:
        return f"{rng.randint(0, 5)}.{rng.randint(0, 99)}"
    if kind < 0.8:
        return f"{rng.randint(2015, 2024)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}"
    if kind < 0.9:
        return f"{rng.randint(0, 3)}.{rng.randint(0, 30)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}"
    return f"{rng.randint(1, 9)}.{rng.randint(0, 9)}{rng.choice(['a', 'b', 'p1', 'rc1', '~beta'])}"


def make_release(rng, n=None):
    n = rng.randint(1, 14) if n is None else n
    dist = rng.choice(DISTS)
    return f"{n}.{dist}" + (f".{rng.randint(1, 3)}" if rng.random() < 0.08 else "")


def make_epoch(rng):
    return rng.choice([1, 1, 2, 3]) if rng.random() < 0.08 else 0


def bump(rng, evr):
    """A strictly newer EVR than evr."""
    epoch, version, release = evr
    kind = rng.random()
    if kind < 0.45:  # rebuild: release number up
        m = re.match(r"(\d+)(.*)", release)
        new = (epoch, version, f"{int(m.group(1)) + rng.randint(1, 3)}{m.group(2)}")
    elif kind < 0.65:  # z-stream: .el9_N.1 etc.
        new = (epoch, version, release + "." + str(rng.randint(1, 4)))
    else:  # new upstream version
        parts = version.replace("~", ".").split(".")
        nums = [p for p in parts if p.isdigit()]
        if nums and len(nums) == len(parts):
            parts[-1] = str(int(parts[-1]) + rng.randint(1, 5))
            new_version = ".".join(parts)
        else:
            new_version = version + ".1"
        new = (epoch, new_version, make_release(rng, 1))
    assert evrcmp(new, evr) > 0, (new, evr)
    return new


def lower(rng, evr):
    """A strictly older EVR than evr."""
    epoch, version, release = evr
    cand = (epoch, version, "0.1." + release)  # 0.1.x < any release starting at 1 or more
    if evrcmp(cand, evr) < 0:
        return cand
    cand = (epoch, version + "~pre1", release)
    assert evrcmp(cand, evr) < 0
    return cand


class Pkg:
    __slots__ = ("name", "arch", "evr", "seed")

    def __init__(self, name, arch, evr, seed):
        self.name, self.arch, self.evr, self.seed = name, arch, evr, seed

    @property
    def key(self):
        return (self.name, self.arch)

    def nevra(self):
        e, v, r = self.evr
        return f"{self.name}-{e}:{v}-{r}.{self.arch}" if e else f"{self.name}-{v}-{r}.{self.arch}"

    def filename(self):
        e, v, r = self.evr
        return f"{self.name}-{v}-{r}.{self.arch}.rpm"

    def pkgid(self):
        e, v, r = self.evr
        return hashlib.sha256(f"{self.seed}|{self.name}|{e}|{v}|{r}|{self.arch}".encode()).hexdigest()


def build_v1(rng, packages, seed):
    pairs_target = round(packages * 0.85)  # 30,000 -> 25,500
    multi_target = round(pairs_target * 0.10)  # 2,550
    names, pairs = set(), []
    while len(pairs) < pairs_target:
        name = make_name(rng)
        if name in names:
            continue
        names.add(name)
        for arch in arches_for(rng, name):
            if len(pairs) < pairs_target:
                pairs.append((name, arch))
    extra = packages - pairs_target  # builds beyond the first one
    # split `extra` over `multi_target` pairs with 2..4 builds each
    k4 = max(0, (extra - multi_target) * 2 // 5 // 2)
    k3 = extra - multi_target - 2 * k4
    k2 = multi_target - k3 - k4
    assert min(k2, k3, k4) >= 0 and k2 + 2 * k3 + 3 * k4 == extra, (k2, k3, k4)
    counts = [1] * pairs_target
    multi = rng.sample(range(pairs_target), multi_target)
    for idx, n in zip(multi, [4] * k4 + [3] * k3 + [2] * k2):
        counts[idx] = n
    pkgs = []
    evr_of_name = {}  # the arches of one name share their EVRs (multilib)
    for (name, arch), n in zip(pairs, counts):
        base = evr_of_name.get(name)
        if base is None or len(base) < n:
            evr = (make_epoch(rng), make_version(rng), make_release(rng))
            evrs = [evr]
            for _ in range(n - 1):
                evr = bump(rng, evr)
                evrs.append(evr)
            if base is None:
                evr_of_name[name] = evrs
        else:
            evrs = base[len(base) - n:]
        for evr in evrs[:n]:
            pkgs.append(Pkg(name, arch, evr, seed))
    return pkgs, (k2, k3, k4)


def derive_v2(rng, v1, seed):
    by_key = {}
    for p in v1:
        by_key.setdefault(p.key, []).append(p)
    for builds in by_key.values():
        builds.sort(key=lambda p: _Key(p.evr))
    keys = sorted(by_key)
    single = [k for k in keys if len(by_key[k]) == 1]
    multi = [k for k in keys if len(by_key[k]) > 1]
    rng.shuffle(single)
    rng.shuffle(multi)
    removed_keys = single[:170] + multi[:30]
    replace_keys = single[170:270]
    beside_keys = single[270:340] + multi[30:60]
    old_dropped = multi[60:63]
    older_added = multi[63:66]
    newest_dropped = multi[66:69]
    drop, add = set(), []
    for k in removed_keys:
        drop.update(id(p) for p in by_key[k])
    for i, k in enumerate(replace_keys):
        old = by_key[k][-1]
        drop.add(id(old))
        if i < 2:  # epoch raised, version lowered: newer for rpm despite the smaller version
            e, v, r = old.evr
            new = (e + 1, "0.9", make_release(rng, 1))
        else:
            new = bump(rng, old.evr)
        assert evrcmp(new, old.evr) > 0
        add.append(Pkg(k[0], k[1], new, seed))
    for k in beside_keys:
        add.append(Pkg(k[0], k[1], bump(rng, by_key[k][-1].evr), seed))
    for k in old_dropped:
        drop.add(id(by_key[k][0]))
    for k in older_added:
        add.append(Pkg(k[0], k[1], lower(rng, by_key[k][-1].evr), seed))
        assert all(a.evr != add[-1].evr for a in by_key[k])
    for k in newest_dropped:
        drop.add(id(by_key[k][-1]))
    names = {p.name for p in v1}
    new_keys = []
    while len(new_keys) < 200:
        name = make_name(rng)
        if name in names:
            continue
        names.add(name)
        arch = arches_for(rng, name)[0]
        new_keys.append((name, arch))
        add.append(Pkg(name, arch, (make_epoch(rng), make_version(rng), make_release(rng)), seed))
    v2 = [p for p in v1 if id(p) not in drop] + add
    edge = {"old_build_dropped": old_dropped, "older_build_added": older_added,
            "newest_build_dropped": newest_dropped, "upgraded_beside": beside_keys,
            "upgraded_replaced": replace_keys, "removed": removed_keys, "added": new_keys}
    return v2, edge


class _Key:
    __slots__ = ("evr",)

    def __init__(self, evr):
        self.evr = evr

    def __lt__(self, other):
        return evrcmp(self.evr, other.evr) < 0


# ---------------------------------------------------------------------------------------------
# metadata writing

FILES_BIN = ["/usr/bin/{n}", "/usr/sbin/{n}d"]
FILES_OTHER = ["/usr/share/doc/{n}/README", "/usr/share/licenses/{n}/LICENSE",
               "/usr/share/man/man1/{n}.1.gz", "/usr/lib64/lib{n}.so.1", "/usr/share/{n}/data.txt"]


def package_detail(p):
    """Deterministic per-package details drawn from the package's own hash."""
    h = p.pkgid()
    r = random.Random(h)
    files = [f.format(n=p.name) for f in r.sample(FILES_BIN, r.randint(0, 1)) + r.sample(FILES_OTHER, r.randint(1, 3))]
    return r, h, files


def entries(p, r):
    e, v, rel = p.evr
    prov = [f'<rpm:entry name={quoteattr(p.name)} flags="EQ" epoch="{e}" ver={quoteattr(v)} rel={quoteattr(rel)}/>']
    if p.arch != "noarch":
        prov.append(f'<rpm:entry name={quoteattr(p.name + "(x86-64)" if p.arch == "x86_64" else p.name + "(x86-32)")} '
                    f'flags="EQ" epoch="{e}" ver={quoteattr(v)} rel={quoteattr(rel)}/>')
    req = ['<rpm:entry name="rtld(GNU_HASH)"/>'] if p.arch != "noarch" else []
    if p.arch == "x86_64":
        req.append('<rpm:entry name="libc.so.6(GLIBC_2.34)(64bit)"/>')
    for _ in range(r.randint(0, 2)):
        req.append(f'<rpm:entry name={quoteattr("lib" + r.choice(WORDS) + ".so.1")}/>')
    return prov, req


def write_repo(out, pkgs, timestamp, label):
    pkgs = sorted(pkgs, key=lambda p: (p.name, p.arch, p.pkgid()))
    os.makedirs(os.path.join(out, "repodata"), exist_ok=True)
    for f in os.listdir(os.path.join(out, "repodata")):
        os.remove(os.path.join(out, "repodata", f))
    n = len(pkgs)
    primary = [f'<?xml version="1.0" encoding="UTF-8"?>\n<metadata xmlns="http://linux.duke.edu/metadata/common" '
               f'xmlns:rpm="http://linux.duke.edu/metadata/rpm" packages="{n}">\n']
    filelists = [f'<?xml version="1.0" encoding="UTF-8"?>\n<filelists xmlns="http://linux.duke.edu/metadata/filelists" '
                 f'packages="{n}">\n']
    other = [f'<?xml version="1.0" encoding="UTF-8"?>\n<otherdata xmlns="http://linux.duke.edu/metadata/other" '
             f'packages="{n}">\n']
    for p in pkgs:
        r, pkgid, files = package_detail(p)
        e, v, rel = p.evr
        ver = f'<version epoch="{e}" ver={quoteattr(v)} rel={quoteattr(rel)}/>'
        built = 1600000000 + r.randint(0, 100000000)
        size = r.randint(8_000, 30_000_000)
        src = f"{p.name}-{v}-{rel}.src.rpm"
        prov, req = entries(p, r)
        prim_files = "".join(f"\n    <file>{escape(f)}</file>" for f in files if f.startswith(("/usr/bin/", "/usr/sbin/")))
        primary.append(
            f'<package type="rpm">\n  <name>{escape(p.name)}</name>\n  <arch>{p.arch}</arch>\n  {ver}\n'
            f'  <checksum type="sha256" pkgid="YES">{pkgid}</checksum>\n'
            f'  <summary>{escape(p.name)}: generated package for repo-console benchmarks</summary>\n'
            f'  <description>Generated metadata ({label}); the package file does not exist.</description>\n'
            f'  <packager>repo-console fixture</packager>\n  <url>https://example.invalid/{escape(p.name)}</url>\n'
            f'  <time file="{built + 3600}" build="{built}"/>\n'
            f'  <size package="{size}" installed="{size * 3}" archive="{size * 3 + 1024}"/>\n'
            f'  <location href="Packages/{p.name[0].lower()}/{escape(p.filename())}"/>\n'
            f'  <format>\n    <rpm:license>{escape(r.choice(LICENSES))}</rpm:license>\n'
            f'    <rpm:vendor>repo-console</rpm:vendor>\n    <rpm:group>{r.choice(GROUPS)}</rpm:group>\n'
            f'    <rpm:buildhost>builder-{r.randint(1, 40):02d}.example.invalid</rpm:buildhost>\n'
            f'    <rpm:sourcerpm>{escape(src)}</rpm:sourcerpm>\n'
            f'    <rpm:header-range start="4504" end="{4504 + r.randint(2000, 90000)}"/>\n'
            f'    <rpm:provides>\n      ' + "\n      ".join(prov) + '\n    </rpm:provides>\n'
            + ('    <rpm:requires>\n      ' + "\n      ".join(req) + '\n    </rpm:requires>\n' if req else '')
            + f'{prim_files}\n  </format>\n</package>\n')
        head = f'<package pkgid="{pkgid}" name={quoteattr(p.name)} arch="{p.arch}">\n  {ver}\n'
        filelists.append(head + "".join(f"  <file>{escape(f)}</file>\n" for f in files)
                         + f'  <file type="dir">/usr/share/doc/{escape(p.name)}</file>\n</package>\n')
        other.append(head + f'  <changelog author="Builder &lt;builder@example.invalid&gt; - {escape(v)}-{escape(rel)}" '
                     f'date="{built - 86400}">- Rebuilt for {escape(rel)}</changelog>\n</package>\n')
    primary.append("</metadata>\n")
    filelists.append("</filelists>\n")
    other.append("</otherdata>\n")
    data = []
    for kind, parts in (("primary", primary), ("filelists", filelists), ("other", other)):
        raw = "".join(parts).encode()
        buf = io.BytesIO()
        with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, compresslevel=6, filename="") as gz:
            gz.write(raw)
        gzdata = buf.getvalue()
        digest = hashlib.sha256(gzdata).hexdigest()
        href = f"repodata/{digest}-{kind}.xml.gz"
        with open(os.path.join(out, href), "wb") as f:
            f.write(gzdata)
        data.append(f'  <data type="{kind}">\n    <checksum type="sha256">{digest}</checksum>\n'
                    f'    <open-checksum type="sha256">{hashlib.sha256(raw).hexdigest()}</open-checksum>\n'
                    f'    <location href="{href}"/>\n    <timestamp>{timestamp}</timestamp>\n'
                    f'    <size>{len(gzdata)}</size>\n    <open-size>{len(raw)}</open-size>\n  </data>\n')
    repomd = (f'<?xml version="1.0" encoding="UTF-8"?>\n<repomd xmlns="http://linux.duke.edu/metadata/repo" '
              f'xmlns:rpm="http://linux.duke.edu/metadata/rpm">\n  <revision>{timestamp}</revision>\n'
              + "".join(data) + "</repomd>\n")
    with open(os.path.join(out, "repodata", "repomd.xml"), "w") as f:
        f.write(repomd)


# ---------------------------------------------------------------------------------------------
# manifest: Pulp's view (packages) and dnf's view (newest build per name.arch)


def newest(pkgs):
    best = {}
    for p in pkgs:
        b = best.get(p.key)
        if b is None or evrcmp(p.evr, b.evr) > 0:
            best[p.key] = p
    return best


def evr_str(evr):
    e, v, r = evr
    return f"{e}:{v}-{r}" if e else f"{v}-{r}"


def manifest(v1, v2, edge, args, split):
    ids1 = {p.pkgid(): p for p in v1}
    ids2 = {p.pkgid(): p for p in v2}
    assert len(ids1) == len(v1) and len(ids2) == len(v2), "pkgid collision"
    hrefs = [f"Packages/{p.name[0].lower()}/{p.filename()}" for p in {**ids1, **ids2}.values()]
    assert len(set(hrefs)) == len(hrefs), "location_href collision"
    n1, n2 = newest(v1), newest(v2)
    dnf = {"added": [], "removed": [], "upgraded": [], "downgraded": []}
    unchanged = 0
    for k in sorted(set(n1) | set(n2)):
        a, b = n1.get(k), n2.get(k)
        if a is None:
            dnf["added"].append({"name": k[0], "arch": k[1], "evr": evr_str(b.evr)})
        elif b is None:
            dnf["removed"].append({"name": k[0], "arch": k[1], "evr": evr_str(a.evr)})
        else:
            c = evrcmp(b.evr, a.evr)
            if c == 0:
                unchanged += 1
            else:
                dnf["upgraded" if c > 0 else "downgraded"].append(
                    {"name": k[0], "arch": k[1], "from": evr_str(a.evr), "to": evr_str(b.evr)})

    def listing(ids):
        return sorted(({"name": p.name, "epoch": str(p.evr[0]), "version": p.evr[1], "release": p.evr[2],
                        "arch": p.arch, "pkgid": h} for h, p in ids.items()),
                      key=lambda d: (d["name"], d["arch"], d["pkgid"]))

    added = {h: ids2[h] for h in ids2.keys() - ids1.keys()}
    removed = {h: ids1[h] for h in ids1.keys() - ids2.keys()}
    pairs1 = len({p.key for p in v1})
    return {
        "generator": "scripts/bench/realsize/gen_repodata.py",
        "args": {"packages": args.packages, "seed": args.seed},
        "v1": {"packages": len(v1), "name_arch": pairs1,
               "multi_build_name_arch": len([k for k, c in _counts(v1).items() if c > 1]),
               "builds_split_2_3_4": list(split),
               "arches": _arch_counts(v1), "epoch_nonzero": sum(1 for p in v1 if p.evr[0])},
        "v2": {"packages": len(v2), "name_arch": len({p.key for p in v2}), "arches": _arch_counts(v2)},
        "packages_v2_vs_v1": {"added": len(added), "removed": len(removed),
                              "added_list": listing(added), "removed_list": listing(removed)},
        "dnf_v1_to_v2": {"added": len(dnf["added"]), "removed": len(dnf["removed"]),
                         "upgraded": len(dnf["upgraded"]), "downgraded": len(dnf["downgraded"]),
                         "unchanged": unchanged, **{k + "_list": v for k, v in dnf.items()}},
        "edge_cases": {k: [f"{n}.{a}" for n, a in v] for k, v in edge.items()
                       if k in ("old_build_dropped", "older_build_added", "newest_build_dropped")},
        "upgrade_kinds": {"newer_build_beside_kept": len(edge["upgraded_beside"]),
                          "old_build_replaced": len(edge["upgraded_replaced"])},
    }


def _counts(pkgs):
    c = {}
    for p in pkgs:
        c[p.key] = c.get(p.key, 0) + 1
    return c


def _arch_counts(pkgs):
    c = {}
    for p in pkgs:
        c[p.arch] = c.get(p.arch, 0) + 1
    return dict(sorted(c.items()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--packages", type=int, default=30000)
    ap.add_argument("--seed", type=int, default=22)
    args = ap.parse_args()
    if args.packages < 5000:
        sys.exit("--packages must be at least 5000 (v2's changes need that many name.arch)")
    _selftest()
    rng = random.Random(args.seed)
    v1, split = build_v1(rng, args.packages, args.seed)
    v2, edge = derive_v2(random.Random(args.seed + 1), v1, args.seed)
    m = manifest(v1, v2, edge, args, split)
    ts1 = 1700000000
    write_repo(os.path.join(args.out, "v1"), v1, ts1, "v1")
    write_repo(os.path.join(args.out, "v2"), v2, ts1 + 30 * 86400, "v2")
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(m, f, indent=1)
        f.write("\n")
    summary = {k: {kk: vv for kk, vv in v.items() if not kk.endswith("_list")} for k, v in m.items() if isinstance(v, dict)}
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
