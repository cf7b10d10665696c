#!/usr/bin/env python3
"""Boot test: the report over the network from the emulated net5501, ALIX
and C7, through the VIA Rhine driver (drivers/rhine) and the Rhine model
(emu/models/rhine_model.c), whose cable is QEMU's e1000 on the user
network (emu/nic_wire.c). Each boot is the one `make run MACHINE=M
NET=user` runs (the command taken from `make -n`: the emulation image
under -icount, scripts/net-run.py with a real rsyslogd and in.tftpd on
127.0.0.1). For each machine: the network came up on the profile's first
Rhine; the lines rsyslog wrote for the box equal the serial log's, with
sequenceIds 1..N in order; the uploaded file equals the serial log byte
for byte (modulo CR); qualreport gives the same verdict (EMULATED: a
passing emulated boot) from the serial log, the per-box syslog file and
the TFTP folder; the Rhine model saw no protocol slip; no daemon is left
running. Then `qualreport ingest` of the collectors' folders (and the
serial logs) stores one run per boot, and a syslog copy with a gap is
stored INCOMPLETE until its boot's upload replaces it."""

import os
import sqlite3
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import netlib  # noqa: E402
from netlib import tap, Boot, QUICK, qualreport_verdict  # noqa: E402

MACHINES = (  # profile, the BDF of its first Rhine, its device ID (docs/emulation.md)
    ("net5501", "00:06.0", "1106:3053"),
    ("alix", "00:09.0", "1106:3053"),
    ("c7", "00:12.0", "1106:3065"),
)

netlib.start(emu=True)

boots = []
for machine, bdf, devid in MACHINES:
    box = "CQ-EMU-" + machine.upper()
    run = netlib.make_run(machine, QUICK + ["asset=" + box])
    if not tap.ok(run is not None and "--icount" in run[0] and run[1].endswith("cryptoqual-emu.elf") and
                  run[2][0] == "emulate=" + machine,
                  "%s: make run MACHINE=%s NET=user boots the emulation image under -icount through scripts/net-run.py"
                  % (machine, machine), run):
        continue
    opts, kernel, args = run
    b = Boot(machine, opts, args, kernel=kernel)
    tap.ok(b.status == 0, "%s: the boot ends in PASS with the network on" % machine, b.stdout)
    net = b.grep(r"^# @net ")
    tap.ok(len(net) == 1 and net[0].startswith("# @net nic=%s kind=via-rhine " % bdf) and " config=dhcp " in net[0]
           and " ip=10.0.2.15 " in net[0],
           "%s: one @net record: the Rhine at %s bound by DHCP to 10.0.2.15" % (machine, bdf), net)
    slip = b.grep(r"^(not )?ok [0-9]+ - emulate: no protocol slip on the Rhine model at %s " % bdf)
    wire = b.grep(r"^# emulate: rhine wire: open; [1-9][0-9]* frames to the QEMU NIC \(0 refused\), [1-9]")
    tap.ok(len(slip) == 1 and slip[0].startswith("ok ") and len(wire) == 1 and
           b.grep(r"^# emulate: model: VIA Rhine %s " % devid),
           "%s: the frames went through the Rhine model %s and its cable, with no protocol slip" % (machine, devid),
           slip + wire)
    rep = b.grep(r"^# @netreport ")
    tap.ok(len(rep) == 1 and "status=up" in rep[0] and " failed=0 " in rep[0] and
           "tftp_status=last-block-after-verdict" in rep[0] and not b.grep(r"^# warning: net:"),
           "%s: one @netreport, nothing failed, no network warning" % machine, rep + b.grep(r"warning: net:"))

    syslog = b.files("syslog")
    tap.ok([os.path.basename(p) for p in syslog] == [box + ".log"],
           "%s: rsyslog wrote one file, named after the box key" % machine, syslog)
    recs = b.syslog_records(syslog[0]) if syslog else []
    seqs = [s for s, _ in recs]
    tap.ok(seqs == list(range(1, len(b.lines) + 1)),
           "%s: sequenceIds 1..%d, in order, one per serial line" % (machine, len(b.lines)),
           "first sequenceIds %s, %d records for %d lines" % (seqs[:5], len(seqs), len(b.lines)))
    diff = [i for i, (r, s) in enumerate(zip(recs, b.lines)) if r[1] != s]
    tap.ok(len(recs) == len(b.lines) and not diff, "%s: every syslog line equals its serial line" % machine,
           "\n".join("line %d: syslog %r serial %r" % (i + 1, recs[i][1], b.lines[i]) for i in diff[:5]))

    tftp = b.files("tftp")
    tap.ok(len(tftp) == 1 and os.path.basename(tftp[0]).startswith("cryptoqual-%s-" % box) and
           tftp[0].endswith(".log"), "%s: one file uploaded by TFTP, cryptoqual-<box key>-<time>.log" % machine, tftp)
    up = open(tftp[0], "rb").read() if tftp else b""
    tap.ok(up == b.serial, "%s: the uploaded file equals the serial log (modulo CR)" % machine,
           "%d bytes uploaded, %d in the serial log" % (len(up), len(b.serial)))

    v_serial = qualreport_verdict(os.path.join(b.out, "serial.log"))
    v_syslog = qualreport_verdict(syslog[0]) if syslog else None
    v_tftp = qualreport_verdict(os.path.join(b.out, "tftp"))
    # An emulated boot that passes is EMULATED to qualreport (docs/qualreport.md), never PASS.
    tap.ok(v_serial == "EMULATED" and v_syslog == v_serial and v_tftp == v_serial,
           "%s: qualreport: the same verdict from the serial log, the syslog file and the TFTP folder (%s)"
           % (machine, v_serial), (v_serial, v_syslog, v_tftp))
    tap.ok(not b.daemons_gone() and len(b.summary.get("daemon_pids", [])) == 2,
           "%s: rsyslogd and in.tftpd were started and are stopped" % machine, b.summary.get("daemon_pids"))
    boots.append(b)


def ingest(db, *paths):
    r = subprocess.run([os.path.join(netlib.ROOT, "tools/qualreport"), "ingest", "--db", db] + list(paths),
                       capture_output=True, text=True)
    con = sqlite3.connect(db)
    runs = con.execute("SELECT b.name, r.verdict, r.complete FROM runs r JOIN boxes b ON b.box_id = r.box_id "
                       "ORDER BY b.name").fetchall()
    con.close()
    return r.returncode, r.stdout.strip() + r.stderr, runs


# The collectors' folders into the fleet history: one run per boot, whichever copies are ingested.
if len(boots) == len(MACHINES):
    db = os.path.join(netlib.TMP, "fleet.db")
    want = sorted(("CQ-EMU-" + m.upper(), "EMULATED", 1) for m, _, _ in MACHINES)
    rc, out, runs = ingest(db, *[os.path.join(b.out, "syslog") for b in boots])
    tap.ok(rc == 0 and runs == want, "ingest of the rsyslog folders: one run per boot, named after its box", (out, runs))
    rc, out, runs = ingest(db, *[os.path.join(b.out, d) for b in boots for d in ("tftp", "syslog", "serial.log")])
    tap.ok(rc == 0 and runs == want and "0 new run(s), 9 already there" in out,
           "ingest of the TFTP folders, the rsyslog folders and the serial logs: still one run per boot", (out, runs))
    # The net5501's syslog copy with one datagram lost: INCOMPLETE until its upload is ingested.
    b = boots[0]
    gap = os.path.join(netlib.TMP, "syslog-gap")
    os.makedirs(gap)
    lines = open(b.files("syslog")[0], "rb").read().split(b"\n")
    open(os.path.join(gap, os.path.basename(b.files("syslog")[0])), "wb").write(b"\n".join(lines[:150] + lines[151:]))
    db = os.path.join(netlib.TMP, "gap.db")
    rc, out, runs = ingest(db, gap)
    tap.ok(rc == 0 and runs == [("CQ-EMU-" + MACHINES[0][0].upper(), "INCOMPLETE", 0)],
           "a syslog copy with a gap in its sequenceIds is stored INCOMPLETE, never EMULATED or PASS", (out, runs))
    rc, out, runs = ingest(db, os.path.join(b.out, "tftp"))
    tap.ok(rc == 0 and runs == [("CQ-EMU-" + MACHINES[0][0].upper(), "EMULATED", 1)] and "1 run(s) replaced by a fuller copy" in out,
           "the upload of that boot then replaces it: one run, whole", (out, runs))
tap.done()
