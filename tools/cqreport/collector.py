"""What the collectors of the network report hold (docs/network.md), read
as serial logs: rsyslog's file per box (tools/collector/rsyslog-cryptoqual.conf
writes one line per report line, `[meta sequenceId="N"] LINE`) and the
folder of a TFTP server (tftpd-hpa -c -s DIR), whose
cryptoqual-<box key>-<time>.log files are serial logs already.

A box's syslog file holds its boots one after the other, each numbered
from sequenceId 1. Within a boot the lines are put back in sequenceId
order; at the first missing number the boot is cut (the lines after it
are dropped), so a boot whose stream lost a datagram never reaches its
verdict line and reads INCOMPLETE, never PASS."""

import os
import re

from .common import warn

RE_SYSLOG_LINE = re.compile(rb'^\[meta sequenceId="([0-9]{1,10})"\](?: (.*))?$')


def is_syslog_file(data):
    """Whether the bytes are a per-box file of the shipped rsyslog
    configuration: its first line has the `[meta sequenceId="N"]` form."""
    first = data.split(b"\n", 1)[0].rstrip(b"\r")
    return RE_SYSLOG_LINE.match(first) is not None


def syslog_boots(data):
    """The boots in a per-box file: lists of (sequenceId, line bytes) in
    file order. A boot starts at sequenceId 1, or wherever the number
    falls back to one already seen in the boot. Lines of another form are
    skipped; their count is returned too."""
    boots, seen, other = [], set(), 0
    for raw in data.split(b"\n"):
        raw = raw.rstrip(b"\r")
        if not raw:
            continue
        m = RE_SYSLOG_LINE.match(raw)
        if not m:
            other += 1
            continue
        seq = int(m.group(1))
        if not boots or seq == 1 or seq in seen:
            boots.append([])
            seen = set()
        seen.add(seq)
        boots[-1].append((seq, m.group(2) or b""))
    return boots, other


def syslog_to_serial(data, name="log"):
    """The serial-log text of a per-box syslog file (bytes, \\n line ends),
    and one note per boot that was cut at a gap or had its lines out of
    order. Each boot's lines are sorted by sequenceId and cut before the
    first missing number."""
    boots, other = syslog_boots(data)
    out, notes = [], []
    if other:
        notes.append("%s: %d lines not of the form [meta sequenceId=\"N\"] LINE skipped" % (name, other))
    for k, boot in enumerate(boots, 1):
        ordered = sorted(boot, key=lambda e: e[0])
        if [s for s, _ in ordered] != [s for s, _ in boot]:
            notes.append("%s: boot %d: lines arrived out of order; put back in sequenceId order" % (name, k))
        expect = ordered[0][0] if ordered else 1
        if expect != 1:
            # Only the boot's marker stands for it: a boot that lost its start reads INCOMPLETE.
            notes.append("%s: boot %d: sequenceIds 1..%d missing: the boot is cut there (INCOMPLETE)"
                         % (name, k, expect - 1))
            out.append(b"TAP version 13\n")
            continue
        kept = []
        for seq, line in ordered:
            if seq != expect:
                if seq > expect:
                    notes.append("%s: boot %d: sequenceId %d..%d missing after %d lines: the boot is cut there (INCOMPLETE)"
                                 % (name, k, expect, seq - 1, expect - 1))
                    if not any(ln.startswith(b"TAP version ") for ln in kept):
                        kept.append(b"TAP version 13")   # so the cut boot is still a boot: INCOMPLETE
                    break
                continue   # a duplicate
            kept.append(line)
            expect += 1
        out.extend(ln + b"\n" for ln in kept)
    return b"".join(out), notes


def as_serial_log(data, path):
    """data itself, or the serial-log text of a per-box syslog file (its
    notes printed on stderr)."""
    if not is_syslog_file(data):
        return data
    text, notes = syslog_to_serial(data, os.path.basename(path))
    for n in notes:
        warn(n)
    return text


def fleet_paths(paths):
    """The paths, each folder (a TFTP server's, or rsyslog's folder of
    per-box files) replaced by the regular files in it, sorted."""
    out = []
    for p in paths:
        if os.path.isdir(p):
            out.extend(sorted(os.path.join(p, f) for f in os.listdir(p)
                              if os.path.isfile(os.path.join(p, f)) and not f.startswith(".")))
        else:
            out.append(p)
    return out
