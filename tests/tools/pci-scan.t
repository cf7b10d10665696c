#!/usr/bin/env python3
"""pci-scan over the real PCI listings in $CQ_SHARED/data/pci: every
function a listing shows must come out of the enumerator with the same
address, IDs and class, and nothing else. The expectations are read from
each listing here, independently of lib/host/pci_listing.c.
Env: CQ_BUILD (build folder, default "build"), CQ_SHARED (../shared)."""

import glob
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import taplib as tap  # noqa: E402

BUILD = os.environ.get("CQ_BUILD", "build")
SHARED = os.environ.get("CQ_SHARED", "../shared")
DIR = os.path.join(SHARED, "data", "pci")
TOOL = os.path.join(BUILD, "host", "pci-scan")

tap.start()
if not os.path.isdir(DIR):
    tap.skip_all("no PCI listings in %s" % DIR)
LISTINGS = sorted(glob.glob(os.path.join(DIR, "*.txt")))
if not LISTINGS:
    tap.skip_all("no *.txt in %s" % DIR)


def listed(path):
    """Functions a listing shows: (bdf, "vvvv:dddd", class prefix, rev)."""
    funcs = []
    with open(path, encoding="latin-1", newline="") as fh:
        for no, line in enumerate(fh, 1):
            line = re.sub(r"\r?\n$", "", line)
            if re.match(r"^\s*(#|$|Slot\b|-+$)", line):
                continue
            m = re.match(r"^(\d+):(\d+):(\d+)\s+([0-9A-Fa-f]{4})\s+([0-9A-Fa-f]{4})\s+([0-9A-Fa-f]{8})\s", line)
            if m:
                # comBIOS: Slot in decimal, ClassRev = class subclass prog-if rev
                cr = m.group(6).lower()
                funcs.append(("%02x:%02x.%x" % (int(m.group(1)), int(m.group(2)), int(m.group(3))),
                              ("%s:%s" % (m.group(4), m.group(5))).lower(),
                              ".".join((cr[0:2], cr[2:4], cr[4:6])), cr[6:8]))
                continue
            m = re.match(r"^(?:0000:)?([0-9a-f]{2}:[0-9a-f]{2}\.[0-7]) .*?\[([0-9a-f]{2})([0-9a-f]{2})\]: "
                         r".*?\[([0-9a-f]{4}:[0-9a-f]{4})\]", line)
            if m:
                # lspci -nn: no prog-if unless "(prog-if pp" follows
                rev = re.search(r"\(rev ([0-9a-f]{2})\)", line)
                pi = re.search(r"\(prog-if ([0-9a-f]{2})", line)
                funcs.append((m.group(1), m.group(4), "%s.%s.%s" % (m.group(2), m.group(3), pi.group(1) if pi else "00"),
                              rev.group(1) if rev else "00"))
                continue
            sys.stderr.write("%s: line %d: cannot read '%s'\n" % (path, no, line))
            sys.exit(255)
    return funcs


def scan(path):
    """pci-scan PATH: (exit status, stdout, stderr)."""
    p = subprocess.run([TOOL, path], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode("latin-1"), p.stderr.decode("latin-1")


def lines_of(text):
    """text's lines, without the empty ones at its end."""
    lines = text.split("\n")
    while lines and lines[-1] == "":
        lines.pop()
    return lines


for path in LISTINGS:
    name = os.path.basename(path)
    want = listed(path)
    rc, out, err = scan(path)
    tap.ok(rc == 0, "%s: pci-scan exits 0" % name, "exit %d\n%s" % (rc, err))
    tap.ok(err == "", "%s: no warnings" % name, err)
    lines = lines_of(out)
    header = lines.pop(0) if lines else ""
    tap.ok(re.match(r"^BB:DD\.F VVVV:DDDD CC\.SS\.PP REV", header), "%s: header line" % name, header)
    tap.ok(len(lines) == len(want), "%s: %d rows, one per listed function" % (name, len(want)),
           "got %d\n%s" % (len(lines), out))
    row = {l.split(" ")[0]: l for l in lines}
    for bdf, ids, cls, rev in want:
        r = row.get(bdf, "")
        tap.ok(re.match("^" + re.escape("%s %s %s" % (bdf, ids, cls)) + " rev " + re.escape(rev) + " ", r),
               "%s: %s %s %s rev %s" % (name, bdf, ids, cls, rev), "row: '%s'" % r)
    # The Geode security block must show its 16 KiB memory BAR0.
    for w in (w for w in want if w[1] == "1022:2082"):
        r = row.get(w[0], "")
        base = re.search(r" BAR0=mem32:(0x[0-9a-f]{8})/16K ", r)
        tap.ok(base is not None and int(base.group(1), 16) != 0,
               "%s: %s 1022:2082 has BAR0 16K of memory" % (name, w[0]), "row: '%s'" % r)

# Facts of the two boards, should the files change.
row_of = {}
for path in LISTINGS:
    row_of[os.path.basename(path)] = {l.split(" ")[0]: l for l in lines_of(scan(path)[1])}
net = row_of.get("net5501-combios-showpci.txt")
if net:
    tap.ok(re.search(r"^00:01\.2 1022:2082 10\.10\.00 rev 00 BAR0=mem32:0xa0000000/16K Entertainment encryption device$",
                     net.get("00:01.2", "")),
           "net5501: security block at 0xa0000000", net.get("00:01.2", "missing"))
    tap.ok(re.search(r"^00:14\.0 1022:2090 06\.01\.00 rev 03 BAR0=io:0x6000/8 BAR1=io:0x6100/256 ISA bridge$",
                     net.get("00:14.0", "")),
           "net5501: Slot 0:20:0 (decimal) is 00:14.0", net.get("00:14.0", "missing"))
    tap.ok(re.search(r" BAR0=io:0xe100/256 BAR1=mem32:0xa0004000/256 Ethernet controller$", net.get("00:06.0", "")),
           "net5501: VT6105M BARs", net.get("00:06.0", "missing"))
alix = row_of.get("alix2d3-lspci-nn.txt")
if alix:
    tap.ok(re.search(r"^00:01\.2 1022:2082 10\.10\.00 rev 00 BAR0=mem32:0xefff4000/16K Entertainment encryption device$",
                     alix.get("00:01.2", "")),
           "alix2d3: security block at the default 0xefff4000", alix.get("00:01.2", "missing"))
    tap.ok(re.search(r"^00:0f\.2 1022:209a 01\.01\.00 rev 01 IDE interface$", alix.get("00:0f.2", "")),
           "alix2d3: IDE interface, no BARs", alix.get("00:0f.2", "missing"))

tap.done()
