#!/usr/bin/env python3
"""Boot test: the report over the network to the collectors a site runs.
QEMU's e1000 on the user network (its DHCP server), a real rsyslogd with
tools/collector/rsyslog-cryptoqual.conf and a real in.tftpd (tftpd-hpa,
-c -s DIR), both on free ports of 127.0.0.1, started and stopped by
scripts/net-run.py. The lines rsyslog wrote for the box equal the serial
log's, with sequenceIds 1..N in order; the uploaded file equals the
serial log byte for byte (modulo CR); qualreport gives the same verdict
from the serial log, the syslog file and the TFTP folder; no daemon is
left running."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import netlib  # noqa: E402
from netlib import tap, Boot, QUICK, qualreport_verdict  # noqa: E402

netlib.start()

b = Boot("user", [], QUICK + ["asset=CQ-NET-1"])
tap.ok(b.status == 0, "the boot ends in PASS with the network on", b.stdout)
net = b.grep(r"^# @net ")
tap.ok(len(net) == 1 and " config=dhcp " in net[0] and " ip=10.0.2.15 " in net[0],
       "one @net record: e1000 bound by DHCP to 10.0.2.15", net)
rep = b.grep(r"^# @netreport ")
tap.ok(len(rep) == 1 and "status=up" in rep[0] and " failed=0 " in rep[0] and
       "tftp_status=last-block-after-verdict" in rep[0], "one @netreport: nothing failed", rep)
tap.ok(not b.grep(r"^# warning: net:"), "no network warning", b.grep(r"warning: net:"))

syslog = b.files("syslog")
tap.ok([os.path.basename(p) for p in syslog] == ["CQ-NET-1.log"],
       "rsyslog wrote one file, named after the box key", syslog)
recs = b.syslog_records(syslog[0]) if syslog else []
seqs = [s for s, _ in recs]
tap.ok(seqs == list(range(1, len(b.lines) + 1)), "sequenceIds 1..%d, in order, one per serial line" % len(b.lines),
       "first sequenceIds %s, %d records for %d lines" % (seqs[:5], len(seqs), len(b.lines)))
diff = [i for i, (r, s) in enumerate(zip(recs, b.lines)) if r[1] != s]
tap.ok(len(recs) == len(b.lines) and not diff, "every syslog line equals its serial line",
       "\n".join("line %d: syslog %r serial %r" % (i + 1, recs[i][1], b.lines[i]) for i in diff[:5]))

tftp = b.files("tftp")
tap.ok(len(tftp) == 1 and os.path.basename(tftp[0]).startswith("cryptoqual-CQ-NET-1-") and tftp[0].endswith(".log"),
       "one file uploaded by TFTP, cryptoqual-<box key>-<time>.log", tftp)
up = open(tftp[0], "rb").read() if tftp else b""
tap.ok(up == b.serial, "the uploaded file equals the serial log (modulo CR)",
       "%d bytes uploaded, %d in the serial log" % (len(up), len(b.serial)))
mode = os.stat(tftp[0]).st_mode & 0o777 if tftp else None
tap.ok(mode is not None and not mode & 0o022, "in.tftpd -p -U 022 (docs/network.md): the upload is writable by no other user",
       oct(mode) if mode is not None else "no upload")

v_serial = qualreport_verdict(os.path.join(b.out, "serial.log"))
v_syslog = qualreport_verdict(syslog[0]) if syslog else None
v_tftp = qualreport_verdict(os.path.join(b.out, "tftp"))
# QUICK (bench=off, rng_bytes=2500) makes a short run that says so: PASS, partial.
tap.ok(v_serial == "PARTIAL" and v_syslog == v_serial and v_tftp == v_serial,
       "qualreport: the same verdict from the serial log, the syslog file and the TFTP folder (%s)" % v_serial,
       (v_serial, v_syslog, v_tftp))
tap.ok(not b.daemons_gone() and len(b.summary.get("daemon_pids", [])) == 2,
       "rsyslogd and in.tftpd were started and are stopped", b.summary.get("daemon_pids"))

# The address as PXELINUX's IPAPPEND 3 passes it (ip=client:server:gateway:netmask, BOOTIF=): no DHCP,
# the network on by itself (net=auto), the same delivery.
s = Boot("static", ["--static"], QUICK)
net = s.grep(r"^# @net ")
tap.ok(s.status == 0 and len(net) == 1 and " config=static " in net[0] and " server=none " in net[0] and
       " ip=10.0.2.15 netmask=255.255.255.0 gateway=10.0.2.2 " in net[0],
       "ip= and BOOTIF= from the loader: a static address, no DHCP, the network on by itself", net)
up = [open(p, "rb").read() for p in s.files("tftp")]
recs = s.syslog_records(s.files("syslog")[0]) if s.files("syslog") else []
tap.ok(up == [s.serial] and [r for _, r in recs] == s.lines,
       "static address: the upload and the syslog lines equal the serial log", (len(up), len(recs), len(s.lines)))
tap.done()
