#!/usr/bin/env python3
"""`tools/qualreport html` (docs/qualreport.md, "html"), opened in headless
Chromium (Debian's chromium) for 1, 3 and 50 boxes; and `plot` with 50
boxes. The logs: one real boot in QEMU (-cpu max, bench_ms=2) and one with
a failing test, then copies of the first with their throughput scaled per
box, a few of them runs of one box (same NIC address) and one of the
emulation image. Checks: the page fetches nothing (no external address, no
src or href but anchors and data: URIs), the DOM after the page's script
ran (rows, plots decoded, sort by verdict, failure links that resolve),
and a screenshot (its size, and the colour of the first verdict cell under
the verdict sort). SKIPs the Chromium part without chromium. Prints TAP
version 13."""

import os
import random
import re
import shutil
import struct
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qualreport_lib import ok, skip, skip_all, done, start, write, run, boot, KERNEL, TMP  # noqa: E402

start()
if not os.path.exists(KERNEL):
    skip_all("no kernel at %s (run make)" % KERNEL)
REAL = boot("pass", ["bench_ms=2"], cpu="max")
FAIL = boot("fail", ["selftest=fault-in-test", "bench_ms=2"], cpu="max")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
WIDTH, HEIGHT = 1400, 1000
FAIL_RGB = (0xf4, 0xa6, 0xa6)       # td.v-FAIL in the page's style sheet

rnd = random.Random(50)


def scaled(data, factor):
    return re.sub(rb"kbps=([0-9.]+)", lambda m: b"kbps=%.2f" % (float(m.group(1)) * factor), data)


def with_nic(data, mac):
    return data.replace(b"\r\n# @identity ", b"\r\n# @nic bdf=00:03.0 id=8086:100e mac=%s\r\n# @identity " % mac, 1)


def fleet(n):
    """n+1 logs of n boxes: the real log, a failing one, scaled copies; two
    runs of one box (same MAC); one log of the emulation image."""
    paths = [write("n%d-box00.log" % n, REAL)]
    if n >= 3:
        paths.append(write("n%d-box01.log" % n, FAIL))
    while len(paths) < n:
        paths.append(write("n%d-box%02d.log" % (n, len(paths)), scaled(REAL, rnd.uniform(0.7, 1.2))))
    if n >= 3:
        paths[-1] = write("n%d-emu.log" % n, REAL.replace(b"emulate=none", b"emulate=net5501"))
    if n >= 50:
        paths[2] = write("n%d-box02.log" % n, with_nic(REAL, b"00:00:24:ca:fe:01"))
        paths.append(write("n%d-box02-rerun.log" % n, with_nic(scaled(REAL, 0.95), b"00:00:24:ca:fe:01")))
    return paths


def png_pixels(data):
    """(width, height, rows of RGB tuples) of an 8-bit RGB or RGBA PNG
    (what Chromium writes), without any library but zlib."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8: pos + 8 + length]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), (depth, ctype)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, [[tuple(r[x * bpp: x * bpp + 3]) for x in range(w)] for r in rows]


def chromium(page, *extra):
    profile = os.path.join(TMP, "chromium-profile-%d" % rnd.randrange(1 << 30))
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--no-first-run", "--user-data-dir=" + profile,
           "--window-size=%d,%d" % (WIDTH, HEIGHT), "--virtual-time-budget=5000"] + list(extra) + [page]
    r = subprocess.run(cmd, capture_output=True, timeout=120)
    shutil.rmtree(profile, ignore_errors=True)
    return r


for n in (1, 3, 50):
    paths = fleet(n)
    boxes = n
    out = os.path.join(TMP, "fleet%d.html" % n)
    rc, so, se = run("html", *paths, "-o", out)
    page = open(out, encoding="utf-8").read() if os.path.exists(out) else ""
    ok(rc == (0 if n == 1 else 1) and page.startswith("<!DOCTYPE html>"),
       "html: %d box(es) from %d log(s): page written, exit %d (%s)" % (boxes, len(paths), rc, so.strip()), se)
    refs = re.findall(r"""(?:src|href)\s*=\s*["']([^"']*)""", page)
    outside = [x for x in refs if not (x.startswith("#") or x.startswith("data:image/svg+xml;base64,"))]
    ok(not outside and not re.search(r"https?://|//[a-z]", re.sub(r"data:[^\"']*", "", page)) and "@import" not in page,
       "html (%d boxes): self-contained: %d references, all anchors or data: URIs" % (boxes, len(refs)), outside[:3])
    n_plots = page.count('<img class="plot"')
    if n == 50:
        ok('<span class="emu">emulated</span>' in page and page.count("<tr id=\"box-") == boxes,
           "html (50 boxes): 50 rows (two logs of one box are one row), the emulated run marked")
        ok(re.search(r'<td class="num" data-key="2">2</td>', page) is not None, "html (50 boxes): the box with two runs says 2")
    if CHROMIUM is None:
        skip("html (%d boxes) in headless Chromium" % boxes, "no chromium (Debian package chromium)")
        continue
    url = "file://" + out + "#sort=2"
    r = chromium(url, "--dump-dom")
    dom = r.stdout.decode("utf-8", "replace")
    rows = re.findall(r'<tr id="box-(\d+)"', dom)
    loaded = re.search(r'data-plots-loaded="(\d+)"', dom)
    ok(r.returncode == 0 and len(rows) == boxes, "chromium (%d boxes): the table has %d rows" % (boxes, len(rows)),
       r.stderr.decode("utf-8", "replace")[-500:])
    ok(loaded is not None and int(loaded.group(1)) == n_plots and n_plots > 0,
       "chromium (%d boxes): all %d plots decoded (%s)" % (boxes, n_plots, loaded and loaded.group(1)))
    verdicts = re.findall(r'<td class="verdict v-([A-Z-]+)"', dom)
    order = ("NO-REPORT", "INCOMPLETE", "CRASH", "INCONSISTENT", "FAIL", "EMULATED", "PASS")
    ranks = [order.index(v) for v in verdicts]
    ok(len(verdicts) == boxes and ranks == sorted(ranks) and (n == 1 or verdicts[0] == "FAIL"),
       "chromium (%d boxes): #sort=2 sorts the rows by verdict, worst first (%s)" % (boxes, ",".join(verdicts[:4])))
    links = re.findall(r'<a href="#([^"]+)"', dom)
    ok(all(('id="%s"' % a) in dom for a in links) and (n == 1 or links),
       "chromium (%d boxes): %d failure link(s), each to its log lines" % (boxes, len(links)))
    shot = os.path.join(TMP, "shot%d.png" % n)
    r = chromium(url, "--screenshot=" + shot)
    data = open(shot, "rb").read() if os.path.exists(shot) else b""
    if not data:
        ok(False, "chromium (%d boxes): screenshot" % boxes, r.stderr.decode("utf-8", "replace")[-500:])
        continue
    w, h, px = png_pixels(data)
    colours = {p for row in px[::7] for p in row[::7]}
    ok((w, h) == (WIDTH, HEIGHT) and len(data) > 20000 and len(colours) > 50,
       "chromium (%d boxes): a %dx%d screenshot of %d bytes, %d colours sampled" % (boxes, w, h, len(data), len(colours)))
    m = re.search(r'data-first-verdict="(\d+),(\d+),(\d+),(\d+)"', dom)
    if m:
        x, y, cw, ch = map(int, m.groups())
        p = px[y + ch // 2][x + cw - 4]
        want = FAIL_RGB if n > 1 else (0xb8, 0xe6, 0xb8)
        ok(all(abs(a - b) <= 8 for a, b in zip(p, want)),
           "chromium (%d boxes): the first verdict cell is %s in the screenshot (pixel %s)"
           % (boxes, "FAIL red" if n > 1 else "PASS green", "#%02x%02x%02x" % p))
    else:
        ok(False, "chromium (%d boxes): the page reported where its first verdict cell is" % boxes)
    if os.environ.get("QUALREPORT_KEEP_HTML") and n == 50:
        shutil.copy(out, os.environ["QUALREPORT_KEEP_HTML"])
        shutil.copy(shot, os.environ["QUALREPORT_KEEP_HTML"] + ".png")

# The PNG plot with 50 boxes: one panel per engine, the legend outside.
paths = fleet(50)
png = os.path.join(TMP, "fleet50.png")
rc, so, se = run("plot", *paths, "-o", png)
data = open(png, "rb").read() if os.path.exists(png) else b""
w, h = struct.unpack(">II", data[16:24]) if len(data) > 24 else (0, 0)
engines = sorted(set(re.findall(r"engine=([a-z0-9-]+)", REAL.decode("latin-1"))) & {"software", "aesni", "vperm"})
ok(rc == 0 and data[:8] == b"\x89PNG\r\n\x1a\n" and w >= 1024,
   "plot (50 boxes): a %dx%d PNG (%s)" % (w, h, so.strip().splitlines()[-1] if so.strip() else se[-300:]))
ok(("%d panel(s)" % len(engines)) in so and "band" in so,
   "plot (50 boxes): one panel per engine (%s), bands instead of 50 lines" % ", ".join(engines), so[-400:])
if os.environ.get("QUALREPORT_KEEP_PNG"):
    shutil.copy(png, os.environ["QUALREPORT_KEEP_PNG"])
done()
