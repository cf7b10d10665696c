#!/usr/bin/env python3
"""Boot tests: bad networks. Each boot ends in the verdict the box has
without a network (the verdict line equals that of a net=off boot of the
same options), with a `# @netreport` record saying what became of the
report, and at most one warning per failure:
  - no DHCP answer (a LAN whose server is silent);
  - a DHCP offer with options of wrong lengths and texts holding control
    bytes (nothing of them may reach the console unescaped);
  - a broadcast flood (ARP requests and UDP broadcasts) for the whole run:
    frames are read and dropped, the run never hangs;
  - the NIC's link down (set over QMP before the box starts);
  - a TFTP server that is absent, and one that answers ERROR;
  - 10 % of the datagrams dropped both ways by a relay: the upload still
    completes (retransmissions), and qualreport reads the lossy syslog
    file INCOMPLETE, never PASS.
The LAN, relay, rsyslogd and in.tftpd are scripts/net-run.py's, on
127.0.0.1, stopped after each boot."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import netlib  # noqa: E402
from netlib import tap, Boot, QUICK, qualreport_verdict  # noqa: E402

netlib.start()

base = Boot("off", ["--net", "lan", "--lan", "silent"], QUICK + ["net=off"])
want = base.verdict()
tap.ok(base.status == 0 and want and not base.grep("@net"), "net=off: PASS, and no network line at all", want)


def common(b, label):
    tap.ok(b.verdict() == want, "%s: the verdict line is the one without network" % label, (b.verdict(), want))
    rep = b.grep(r"^# @netreport ")
    tap.ok(len(rep) == 1, "%s: one @netreport record" % label, rep)
    return rep[0] if rep else ""


b = Boot("silent", ["--net", "lan", "--lan", "silent"], QUICK)
rep = common(b, "no DHCP answer")
w = b.grep(r"^# warning: net:")
tap.ok(len(w) == 1 and "no DHCPOFFER after 4 DHCPDISCOVERs" in w[0] and "status=no-network" in rep,
       "no DHCP answer: one warning, 4 DISCOVERs, no network", w)

b = Boot("garbage", ["--net", "lan", "--lan", "garbage"], QUICK)
rep = common(b, "garbage DHCP options")
tap.ok(b.grep(r"^# net: DHCP: [0-9]+ options of a wrong length ignored$"),
       "garbage DHCP options: the wrong-length options are counted", b.grep("net:"))
tap.ok(b.grep(r"option 66 names the TFTP server 'tftp\?\?host', not an address"),
       "garbage DHCP options: option 66's control bytes are made harmless ('?')", b.grep("option 66"))
tap.ok(b"evil" not in b.serial.replace(b"evil\\x0aline", b""),
       "garbage DHCP options: the host name's newline never reaches the console")
tap.ok(" netmask=255.255.255.0 " in (b.grep(r"^# @net ") or [""])[0] and "syslog=none" in rep,
       "garbage DHCP options: a classful mask stands in, the malformed log server is not used", b.grep("@net"))

b = Boot("flood", ["--net", "lan", "--lan", "flood"], QUICK)
rep = common(b, "broadcast flood")
lan = b.summary.get("lan", {})
rx = int(rep.split(" rx=")[1].split()[0]) if " rx=" in rep else 0
tap.ok(lan.get("flood_sent", 0) > 1000 and rx > 100,
       "broadcast flood: %d frames flooded, %d read by the box and dropped or ignored" % (lan.get("flood_sent", 0), rx),
       rep)

b = Boot("linkdown", ["--link-down"], QUICK)
rep = common(b, "link down")
w = b.grep(r"^# warning: net:")
tap.ok(b.summary.get("link_down_set") and len(w) == 1 and "no link after 5 s" in w[0],
       "link down: one warning naming the NIC without link", w)

b = Boot("tftp-absent", ["--tftp", "absent"], QUICK)
rep = common(b, "TFTP server absent")
w = b.grep(r"^# warning: net:")
tap.ok(len(w) == 1 and "no answer to the write request after 8 tries" in w[0] and "tftp_status=failed" in rep,
       "TFTP server absent: one warning, 8 tries", w)

b = Boot("tftp-error", ["--tftp", "error"], QUICK)
rep = common(b, "TFTP server answers ERROR")
w = b.grep(r"^# warning: net:")
tap.ok(len(w) == 1 and "answered ERROR" in w[0] and "tftp_status=failed" in rep,
       "TFTP server answers ERROR: one warning quoting it", w)

b = Boot("loss", ["--loss", "10"], QUICK)
rep = common(b, "10 % loss")
relays = b.summary.get("relays", [])
dropped = sum(r["dropped"] for r in relays)
tap.ok(dropped > 0, "10 %% loss: the relays dropped %d datagrams" % dropped, relays)
tftp = b.files("tftp")
tap.ok(len(tftp) == 1 and open(tftp[0], "rb").read() == b.serial,
       "10 % loss: the TFTP upload still equals the serial log (retransmissions)", tftp)
syslog = b.files("syslog")
seqs = [s for s, _ in b.syslog_records(syslog[0])] if syslog else []
v = qualreport_verdict(syslog[0]) if syslog else None
tap.ok(len(seqs) < len(b.lines) and v == "INCOMPLETE",
       "10 %% loss: %d of %d lines arrived; qualreport reads the syslog file INCOMPLETE" % (len(seqs), len(b.lines)), v)
tap.done()
