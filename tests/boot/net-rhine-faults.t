#!/usr/bin/env python3
"""Boot tests: the Rhine model's faults through the network stage, on the
emulated net5501 (docs/emulation.md, "The Rhine model"), each boot the one
`make run MACHINE=net5501 FAULT=NAME NET=user` runs (from `make -n`). The
network never changes the verdict: every boot ends in the verdict of a
net=off boot of the same options (the same TAP results, figures aside;
only the Rhine model's own no-slip results are added, and they pass), and
says in one line what became of the report:
  - reset-stuck, eeprom-stuck, bad-mac: the driver's reason with the
    register state in the one network warning, `@netreport
    status=no-network`;
  - link-down: each of the four Rhines waits 5 s for a link, with the
    heartbeat line every 10 s; the warning names the first;
  - no fault, but BOOTIF= (PXELINUX's IPAPPEND 2) naming the second Rhine,
    which has no cable: the warning names that one's missing link, not
    the ports that are not the BOOTIF= one;
  - rx-flood, rx-errors: frames are dropped and counted (`rx_dropped`), the
    report still leaves: the upload equals the serial log;
  - the variants reset-needs-force, d3, rx-stall: the report is delivered
    whole, by syslog and by TFTP, without a warning.
A boot never loses a frame of the cable (the model takes the wire's frames
only while it has a descriptor for them), so rx-stall's stall itself does
not happen here: tests/drivers/rhine/rhine.t proves the driver through it
under a flood; here the variant only must not stop the report. The
collectors are scripts/net-run.py's (rsyslogd, in.tftpd on 127.0.0.1),
stopped after each boot."""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import netlib  # noqa: E402
from netlib import tap, Boot, QUICK  # noqa: E402

MACHINE = "net5501"
FIRST = "00:06.0"                   # its first Rhine, the one with the cable
SECOND, SECOND_MAC = "00:07.0", "00-00-24-cb-55-02"   # the second, with no cable; the profile's address
SLIP = re.compile(r"^(not )?ok \d+ - emulate: no protocol slip on the Rhine model at ")
RESULT = re.compile(r"^(not )?ok \d+ - (.*)$")

netlib.start(emu=True)


def boot(label, fault, args):
    run = netlib.make_run(MACHINE, QUICK + ["asset=CQ-RHINE"] + args, fault)
    if run is None:
        return None
    opts, kernel, kargs = run
    return Boot(label, opts, kargs, kernel=kernel)


def results(b):
    """The TAP results but the Rhine model's own, figures masked, in order."""
    out = []
    for ln in b.lines:
        s = ln.decode("ascii", "replace")
        m = RESULT.match(s)
        if m and not SLIP.match(s):
            out.append((m.group(1) is None, re.sub(r"[0-9]+(\.[0-9]+)?", "N", m.group(2))))
    return out


def verdict_word(b):
    v = b.verdict() or ""
    return v.split()[2] if len(v.split()) > 2 else v


base = boot("net-off", None, ["net=off"])
if not tap.ok(base is not None and base.status == 0 and not base.grep("@net"),
              "%s with net=off: PASS, and no network line at all" % MACHINE, base and base.verdict()):
    tap.done()
want = results(base)


def common(b, fault, injected=True):
    """The verdict without network, the fault's header line, one @netreport; returns it."""
    tap.ok(b.status == 0 and verdict_word(b) == verdict_word(base) and results(b) == want,
           "%s: the verdict and every TAP result are those of the boot without network" % fault,
           [b.verdict(), base.verdict()] + [r for r in results(b) if r not in want][:5])
    slips = b.grep(SLIP.pattern)
    tap.ok(slips and all(s.startswith("ok ") for s in slips),
           "%s: the Rhine model's no-slip results pass" % fault, slips)
    if injected:
        tap.ok(len(b.grep(r"^# warning: emulate: fault %s injected into the Rhine model: " % re.escape(fault))) == 1,
               "%s: the header says the fault is injected" % fault)
    rep = b.grep(r"^# @netreport ")
    tap.ok(len(rep) == 1, "%s: one @netreport record" % fault, rep)
    return rep[0] if rep else ""


def delivered(b, fault):
    """The whole report by syslog (sequenceIds 1..N, equal lines) and by TFTP (equal bytes)."""
    syslog = b.files("syslog")
    recs = b.syslog_records(syslog[0]) if len(syslog) == 1 else []
    tftp = b.files("tftp")
    up = open(tftp[0], "rb").read() if len(tftp) == 1 else b""
    tap.ok([s for s, _ in recs] == list(range(1, len(b.lines) + 1)) and [r for _, r in recs] == b.lines,
           "%s: the syslog file holds every serial line, sequenceIds 1..%d" % (fault, len(b.lines)),
           "%d records for %d lines" % (len(recs), len(b.lines)))
    tap.ok(up == b.serial, "%s: the TFTP upload equals the serial log" % fault,
           "%d files; %d bytes uploaded, %d in the serial log" % (len(tftp), len(up), len(b.serial)))


def counter(rep, key):
    m = re.search(r" %s=([0-9]+)" % key, rep)
    return int(m.group(1)) if m else -1


# The faults that keep the network down: one warning with the driver's reason and the register state.
FAILS = (
    ("reset-stuck", [], r"%s via-rhine: reset did not finish: CR1=0x80 after [0-9]+ cycles \(limit [0-9]+, [0-9]+ polls\), "
                        r"nor forced .*; CR0=0x[0-9a-f]{2} ISR=0x[0-9a-f]{4}; none of the 4 network controllers will do" % FIRST),
    ("eeprom-stuck", [], r"%s via-rhine: EEPROM reload did not finish: EECSR=0x20 after [0-9]+ cycles .*; "
                         r"none of the 4 network controllers will do" % FIRST),
    ("bad-mac", [], r"%s via-rhine: station address 01:00:24:cb:55:01 .*is not a unicast address .*; "
                    r"none of the 4 network controllers will do" % FIRST),
    ("link-down", [], r"%s via-rhine: no link after 5 s; none of the 4 network controllers will do" % FIRST),
    (None, ["BOOTIF=01-" + SECOND_MAC], r"%s via-rhine: no link after 5 s; none of the 4 network controllers will do"
                                        % SECOND),
)
for fault, extra, warning in FAILS:
    label = fault or "BOOTIF= of a port without cable"
    b = boot(fault or "bootif-second", fault, extra)
    if not tap.ok(b is not None, "%s: make run MACHINE=%s%s NET=user names a boot"
                  % (label, MACHINE, " FAULT=" + fault if fault else "")):
        continue
    rep = common(b, label, injected=fault is not None)
    w = b.grep(r"^# warning: net:")
    tap.ok(len(w) == 1 and re.search(warning, w[0]) and "status=no-network" in rep and not b.grep(r"^# @net "),
           "%s: one network warning with the driver's reason, no network" % label, w + [rep])
    tap.ok(not b.files("syslog") and not b.files("tftp"), "%s: nothing reached the collectors" % label,
           (b.files("syslog"), b.files("tftp")))
    if fault == "link-down":
        beats = b.grep(r"^# heartbeat: t=[0-9.]+ stage=boot$")
        tap.ok(len(beats) >= 1, "link-down: 20 s of link waits keep the heartbeat (%d lines)" % len(beats), beats)

# Receive faults: frames dropped and counted, the report still leaves.
for fault in ("rx-flood", "rx-errors"):
    b = boot(fault, fault, [])
    if not tap.ok(b is not None, "%s: make run MACHINE=%s FAULT=%s NET=user names a boot" % (fault, MACHINE, fault)):
        continue
    rep = common(b, fault)
    tap.ok("status=up" in rep and counter(rep, "rx_dropped") > 0 and not b.grep(r"^# warning: net:"),
           "%s: %d frames dropped and counted, no network warning" % (fault, counter(rep, "rx_dropped")),
           [rep] + b.grep(r"warning: net:"))
    tftp = b.files("tftp")
    tap.ok(len(tftp) == 1 and open(tftp[0], "rb").read() == b.serial,
           "%s: the TFTP upload still equals the serial log" % fault, tftp)

# Variants a healthy driver works through: the report delivered whole.
for fault in ("reset-needs-force", "d3", "rx-stall"):
    b = boot(fault, fault, [])
    if not tap.ok(b is not None, "%s: make run MACHINE=%s FAULT=%s NET=user names a boot" % (fault, MACHINE, fault)):
        continue
    rep = common(b, fault)
    tap.ok("status=up" in rep and " failed=0 " in rep and not b.grep(r"^# warning: net:") and
           len(b.grep(r"^# @net nic=%s kind=via-rhine " % FIRST)) == 1,
           "%s: the network came up on %s, nothing failed" % (fault, FIRST), [rep] + b.grep(r"warning: net:"))
    delivered(b, fault)
tap.done()
