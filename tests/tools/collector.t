#!/usr/bin/env python3
"""tools/cqreport/collector.py and tools/collector/: a per-box syslog file
(the shipped rsyslog configuration's form) read back as the serial log:
lines put in sequenceId order, boots told apart, a gap cuts the boot so
that it reads INCOMPLETE and never PASS, foreign lines skipped; a folder
read as a fleet; and the shipped configuration accepted by rsyslogd -N1
(when rsyslog is installed). Prints TAP version 13."""

import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import taplib as tap  # noqa: E402
from cqreport import collector  # noqa: E402
from cqreport.parse import parse_log  # noqa: E402

tap.start()
TMP = tempfile.mkdtemp(prefix="collector-t.")
tap.at_done(lambda: shutil.rmtree(TMP, ignore_errors=True))

# A whole boot as the serial log has it (CR removed): a PASS.
BOOT = [b"", b"TAP version 13", b"# cryptoqual 7a249f4 image-sha256=" + b"ab" * 32,
        b"ok 1 - cpu: CPUID identity decoded", b"ok 2 - pci: configuration mechanism #1",
        b"# summary: box CQ-1", b"1..2", b"# cryptoqual: PASS (2 ok, 0 not ok, 0 skipped)"]
SERIAL = b"".join(ln + b"\n" for ln in BOOT)


def syslog_file(lines, seqs=None):
    seqs = seqs or range(1, len(lines) + 1)
    return b"".join(b'[meta sequenceId="%d"] ' % s + ln + b"\n" for s, ln in zip(seqs, lines))


def verdict(data):
    return parse_log(collector.as_serial_log(data, "box.log"), "box", "box.log")["verdict"]


whole = syslog_file(BOOT)
tap.ok(collector.is_syslog_file(whole) and not collector.is_syslog_file(SERIAL),
       "a per-box syslog file is told from a serial log")
text, notes = collector.syslog_to_serial(whole)
tap.ok(text == SERIAL and notes == [], "a whole boot reads back as the serial log, byte for byte", (text, notes))
tap.ok(verdict(whole) == "PASS" and verdict(SERIAL) == "PASS", "and reads PASS, as the serial log does")

# Reordered: put back.
order = [1, 2, 3, 5, 4, 6, 8, 7]
shuffled = syslog_file([BOOT[i - 1] for i in order], order)
text, notes = collector.syslog_to_serial(shuffled)
tap.ok(text == SERIAL and any("out of order" in n for n in notes), "lines out of order are put back in sequenceId order",
       notes)

# A gap anywhere makes the boot INCOMPLETE, never PASS; the lines before the gap stay.
for lost in range(1, len(BOOT) + 1):
    keep = [i for i in range(1, len(BOOT) + 1) if i != lost]
    data = syslog_file([BOOT[i - 1] for i in keep], keep)
    if lost == len(BOOT):
        continue     # the verdict itself lost: nothing after it to show a gap
    v = verdict(data)
    if v != "INCOMPLETE":
        break
tap.ok(v == "INCOMPLETE", "a single lost line, wherever it is, makes the boot INCOMPLETE (checked %d places)" % (len(BOOT) - 1), v)
keep = [1, 2, 3, 4, 6, 7, 8]
text, notes = collector.syslog_to_serial(syslog_file([BOOT[i - 1] for i in keep], keep))
tap.ok(text == b"".join(ln + b"\n" for ln in BOOT[:4]) and any("5..5 missing" in n for n in notes),
       "a gap cuts the boot just before it, and says which sequenceIds are missing", notes)
tail_lost = syslog_file(BOOT[:-1])
tap.ok(verdict(tail_lost) == "INCOMPLETE", "a lost verdict line: INCOMPLETE")
head_lost = syslog_file(BOOT[2:], range(3, len(BOOT) + 1))
tap.ok(verdict(head_lost) == "INCOMPLETE", "a boot whose first lines were lost: INCOMPLETE")

# Two boots in one file: the second counts from 1 again; the last is judged, and each boot on its own.
two = syslog_file(BOOT[:5]) + syslog_file(BOOT)
text, notes = collector.syslog_to_serial(two)
tap.ok(text == b"".join(ln + b"\n" for ln in BOOT[:5]) + SERIAL, "two boots: both kept, each in order", notes)
tap.ok(verdict(two) == "PASS", "two boots: the last (whole) one reads PASS")
tap.ok(verdict(syslog_file(BOOT) + syslog_file(BOOT[:5])) == "INCOMPLETE",
       "two boots: a last one that stopped early reads INCOMPLETE")
dup = syslog_file(BOOT) + syslog_file(BOOT[-1:], [len(BOOT)])
tap.ok(collector.syslog_boots(dup)[0][-1] == [(len(BOOT), BOOT[-1])],
       "a repeated sequenceId starts a new boot (a box that rebooted mid-way is not merged)")

# Lines of another form are skipped and counted.
noisy = b"garbage line\n" + whole
text, notes = collector.syslog_to_serial(noisy[len(b"garbage line\n"):] + b"another\n")
tap.ok(text == SERIAL and any("1 lines not of the form" in n for n in notes), "foreign lines are skipped and counted", notes)

# A folder is its files (a TFTP server's, or rsyslog's).
folder = os.path.join(TMP, "tftp")
os.makedirs(folder)
for name in ("cryptoqual-b-2.log", "cryptoqual-a-1.log", ".hidden"):
    open(os.path.join(folder, name), "wb").write(SERIAL)
os.makedirs(os.path.join(folder, "sub"))
got = collector.fleet_paths([folder, "x.log"])
tap.ok([os.path.basename(p) for p in got] == ["cryptoqual-a-1.log", "cryptoqual-b-2.log", "x.log"],
       "a folder stands for its regular files, sorted; other paths as given", got)
r = subprocess.run([os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "qualreport"),
                    "parse", folder], capture_output=True, text=True)
try:
    docs = json.loads(r.stdout)
except ValueError:
    docs = []
tap.ok(r.returncode == 0 and [(d["log_name"], d["verdict"]) for d in docs] ==
       [("cryptoqual-a-1", "PASS"), ("cryptoqual-b-2", "PASS")], "qualreport parse FOLDER reads every log in it",
       r.stderr or r.stdout[:300])

conf = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "collector", "rsyslog-cryptoqual.conf")
rsyslogd = shutil.which("rsyslogd") or ("/usr/sbin/rsyslogd" if os.path.exists("/usr/sbin/rsyslogd") else None)
if rsyslogd:
    r = subprocess.run([rsyslogd, "-N1", "-f", conf], capture_output=True, text=True)
    tap.ok(r.returncode == 0, "rsyslogd -N1 accepts tools/collector/rsyslog-cryptoqual.conf", r.stdout + r.stderr)
else:
    tap.skip("rsyslogd -N1 accepts tools/collector/rsyslog-cryptoqual.conf", "rsyslog is not installed")
tap.done()
