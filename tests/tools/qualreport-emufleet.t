#!/usr/bin/env python3
"""A mixed fleet of 50 emulated boxes through qualreport (docs/qualreport.md,
"Baseline sets", "html", "Fleet history"): ten each of the emulated
net5501, ALIX, C7, Nano and Zhaoxin KX-7000, every box with its own
SMBIOS serial and MACs, five of them faulty. Booting 50 machines would
take the shared host an hour: one real boot per profile (under -icount)
and two faulty ones (net5501 with a DMA timeout, C7 with a stuck RNG) are
copied with their identities rewritten (serial, box key, every MAC), as a
rack of identical boards would print them. Checks: `baseline` makes a set
of five baselines from two good boxes per model; one `html` call with that
set gives a page whose every row names its box by serial and whose
headline equals `compare`'s counts, worst first, read in headless Chromium
(Debian's chromium; that part SKIPs without it); a set without the KX-7000
gives its boxes the one line `no baseline for MODEL`; two ingests of the
50 logs make 50 runs and the documented query lists the 5 faulty boxes.
QUALREPORT_KEEP_FLEET=DIR keeps the logs, the set, the page and the
database there. Prints TAP version 13."""

import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qualreport_lib import ok, skip, skip_all, diag, done, start, write, run, boot, EMU_KERNEL, TMP  # noqa: E402

start()
if not os.path.exists(EMU_KERNEL):
    skip_all("no emulation image at %s (make emu; it needs ../shared/data)" % EMU_KERNEL)
PROFILES = ("net5501", "alix", "c7", "nano", "zhaoxin")
FAULTY = {"net5501": ("dma-timeout", 3), "c7": ("rng-stuck", 2)}    # fault, how many boxes have it
PER_MODEL = 10
DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "qualreport.md")


def emu_boot(label, profile, fault=None):
    cpu = subprocess.run(["scripts/emu-cpu.sh", profile], capture_output=True, text=True).stdout.strip()
    value = profile + (",fault=" + fault if fault else "")
    return boot(label, ["emulate=" + value, "bench_ms=2"], cpu=cpu, kernel=EMU_KERNEL, icount=True)


def rewrite(data, serial, m_i, b_i):
    """The log as box b_i of model m_i would print it: its SMBIOS serial,
    the box key the kernel makes from it, and a MAC of its own per NIC."""
    nic = [0]

    def mac(_):
        nic[0] += 1
        return b"mac=02:00:%02x:%02x:00:%02x" % (m_i, b_i, nic[0])
    text = re.sub(rb"mac=(?:[0-9a-f]{2}:){5}[0-9a-f]{2}|mac=absent", mac, data)
    text = re.sub(rb"(# @identity [^\r\n]*) sys_serial=\S+", lambda m: m.group(1) + b" sys_serial=" + serial, text)
    return re.sub(rb"(# @identity [^\r\n]*) box=\S+", lambda m: m.group(1) + b" box=" + serial, text)


def documented_sql(title):
    text = open(DOC, encoding="utf-8").read()
    return re.search(r"```sql\n(.*?)```", text[text.index(title):], re.S).group(1)


good = {p: emu_boot("fleet-" + p, p) for p in PROFILES}
bad = {p: emu_boot("fleet-%s-%s" % (p, f), p, f) for p, (f, _) in FAULTY.items()}
paths, serials, faulty_serials, by_model = [], [], [], {}
for m_i, p in enumerate(PROFILES):
    for b_i in range(PER_MODEL):
        serial = b"CQ-%s-%02d" % (p.upper().encode(), b_i)
        is_bad = p in FAULTY and b_i >= PER_MODEL - FAULTY[p][1]
        data = rewrite(bad[p] if is_bad else good[p], serial, m_i, b_i)
        path = write("%s-%02d.log" % (p, b_i), data)
        paths.append(path)
        serials.append(serial.decode())
        by_model.setdefault(p, []).append(path)
        if is_bad:
            faulty_serials.append(serial.decode())
diag("%d logs, %d faulty: %s" % (len(paths), len(faulty_serials), ", ".join(faulty_serials)))

rc, out, err = run("parse", "--allow-emulated", *paths)
docs = json.loads(out) if out.startswith("[") else []
macs = [d["box_info"]["mac"] for d in docs]
ok(rc == 0 and [d["box"] for d in docs] == serials and [d["box_key"] for d in docs] == ["serial:" + s for s in serials]
   and len(set(macs)) == len(paths) and None not in macs,
   "parse: 50 boxes, each named by its serial, each with a MAC of its own", [(d["box"], d["box_info"]["mac"]) for d in docs][:3])
ok(len({d["model_name"] for d in docs}) == len(PROFILES),
   "parse: five models (%s)" % "; ".join(sorted({d["model_name"] for d in docs})))

# One baseline per model from two good boxes of each.
set_path = os.path.join(TMP, "fleet-set.json")
goods = [x for p in PROFILES for x in by_model[p][:2]]
rc, out, err = run("baseline", "--allow-emulated", *goods, "-o", set_path)
bset = json.load(open(set_path)) if rc == 0 else {}
ok(rc == 0 and bset.get("schema") == "cryptoqual-baseline-set-1" and len(bset.get("baselines", [])) == 5
   and all(b["model"]["product"].startswith("emulated ") for b in bset["baselines"]),
   "baseline: ten good logs of five models make a set of five baselines, one per model", err[-600:])

rc, out, err = run("compare", "--allow-emulated", set_path, *paths)
m = re.search(r"^(\d+) box\(es\): (\d+) passed, (\d+) failed$", out, re.M)
counts = tuple(int(x) for x in m.groups()) if m else None
first_table = out.split("\n\n")[0].splitlines()
rows = {l.split()[0]: l for l in first_table if l.startswith("CQ-")}
ok(rc == 1 and counts == (50, 45, 5), "compare with the set: 50 boxes, 45 passed, 5 failed (%s)" % (counts,), out[-1500:])
ok(sorted(s for s in serials if re.search(r"^\S+\s+\d+\s+\S+\s+\S+\s+\S+\s+FAIL\b", rows.get(s, ""))) ==
   sorted(faulty_serials), "compare: the failing boxes are the five faulty ones", out[-1500:])
ok(all(re.search(r"FAIL\s+not ok \d+ - ", rows[s]) for s in faulty_serials if s in rows),
   "compare: each faulty box's WHY leads with its first not ok by name",
   "\n".join(rows.get(s, "") for s in faulty_serials))

# One html call with the set: the headline is compare's.
page = os.path.join(TMP, "fleet.html")
rc, out, err = run("html", "--allow-emulated", "--baseline", set_path, "-o", page, *paths)
html = open(page, encoding="utf-8").read() if os.path.exists(page) else ""
h = re.search(r'<p id="summary" data-passed="(\d+)" data-failed="(\d+)"><b>(\d+) boxes: (\d+) passed, (\d+) failed</b>', html)
ok(rc == 1 and h and (int(h.group(3)), int(h.group(4)), int(h.group(5))) == counts
   and (int(h.group(1)), int(h.group(2))) == counts[1:],
   "html with the set: the headline counts the baseline results as compare does (%r)" % (h.groups() if h else None,),
   err[-600:])
row_boxes = re.findall(r'<tr id="box-\d+" data-box="([^"]+)"><td class="box" data-key="[^"]+">([^<]+)<', html)
ok(sorted(b for b, _ in row_boxes) == sorted(serials) and all(a == b.strip() for a, b in row_boxes),
   "html: 50 rows, every one named by its box's serial", row_boxes[:3])
results = re.findall(r'<td class="v-(PASS|FAIL) result"', html)
ok(results == ["FAIL"] * 5 + ["PASS"] * 45, "html: worst first: the five failing boxes head the table", results[:8])
ok(all(("emulated %s" % p) in html for p in PROFILES) and html.count("log %s-" % "net5501") >= PER_MODEL,
   "html: every row shows its model and log file")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    skip("html in headless Chromium", "no chromium (Debian package chromium)")
else:
    profile = os.path.join(TMP, "chromium-profile")
    r = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                        "--disable-component-update", "--no-first-run", "--user-data-dir=" + profile,
                        "--window-size=1400,1000", "--virtual-time-budget=5000", "--dump-dom", "file://" + page],
                       capture_output=True, timeout=180)
    shutil.rmtree(profile, ignore_errors=True)
    dom = r.stdout.decode("utf-8", "replace")
    dh = re.search(r'id="summary" data-passed="(\d+)" data-failed="(\d+)"', dom)
    drows = re.findall(r'<tr id="box-\d+" data-box="([^"]+)"', dom)
    loaded = re.search(r'data-plots-loaded="(\d+)"', dom)
    n_plots = html.count('<img class="plot"')
    ok(r.returncode == 0 and dh and (int(dh.group(1)), int(dh.group(2))) == counts[1:] and sorted(drows) == sorted(serials)
       and loaded and int(loaded.group(1)) == n_plots > 0,
       "chromium: the page shows 50 rows named by serial, the headline %s passed / %s failed, %s of %d plots decoded"
       % (dh and dh.group(1), dh and dh.group(2), loaded and loaded.group(1), n_plots),
       r.stderr.decode("utf-8", "replace")[-400:])

# A set without the KX-7000: its boxes get one line, not a line per figure.
four = os.path.join(TMP, "four.json")
rc, out, err = run("baseline", "--allow-emulated", *[x for p in PROFILES if p != "zhaoxin" for x in by_model[p][:2]],
                   "-o", four)
rc, out, err = run("compare", "--allow-emulated", "--json", four, by_model["zhaoxin"][0], by_model["net5501"][0])
j = json.loads(out) if out.startswith("{") else {"boxes": []}
why = [b["why"] for b in j["boxes"]]
ok(rc == 1 and len(why) == 2 and len(why[0]) == 1 and why[0][0].startswith("no baseline for emulated zhaoxin (CentaurHauls")
   and why[1] == [], "compare: a box of a model the set lacks gets one line, 'no baseline for MODEL'", why)

# The history: two ingests of the 50 logs are 50 runs; the documented query.
db = os.path.join(TMP, "fleet.db")
rc1, out1, err1 = run("ingest", "--allow-emulated", "--db", db, *paths)
rc2, out2, err2 = run("ingest", "--allow-emulated", "--db", db, *paths)
con = sqlite3.connect(db)
n_runs, n_boxes = con.execute("SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM boxes)").fetchone()
ok(rc1 == 0 and rc2 == 0 and (n_runs, n_boxes) == (50, 50) and "50 new run(s)" in out1 and "0 new run(s), 50 already" in out2,
   "ingest twice: 50 runs of 50 boxes (%s)" % out2.strip(), err1 + err2)
listed = [r[0] for r in con.execute(documented_sql("Boxes whose last run failed"))]
ok(listed == sorted(faulty_serials), "the documented query 'boxes whose last run failed' lists the 5 faulty boxes (%s)"
   % ", ".join(listed))
con.close()
keep = os.environ.get("QUALREPORT_KEEP_FLEET")
if keep:
    os.makedirs(keep, exist_ok=True)
    for x in paths + [set_path, page, db]:
        shutil.copy(x, keep)
rc, out, err = run("history", faulty_serials[0], "--db", db)
ok(rc == 0 and faulty_serials[0] in out and "FAIL" in out and "first: not ok" in out,
   "history: the faulty box's run, its first not ok", out)
done()
