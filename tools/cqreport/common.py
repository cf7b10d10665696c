"""What every qualreport module shares: document schema names, small
numeric helpers, the name a log file gives its box."""

import os
import sys

SCHEMA = "cryptoqual-qualreport-1"
BASELINE_SCHEMA = "cryptoqual-baseline-1"


def median(values):
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2.0


# A figure whose repetitions (spread_pct) or boxes (max - min over median)


def short_size(n):
    return "%dK" % (n // 1024) if n >= 1024 and n % 1024 == 0 else str(n)


def box_name(path):
    base = os.path.basename(path)
    for ext in (".log", ".txt", ".cap", ".out"):
        if base.endswith(ext):
            return base[: -len(ext)]
    return base


def warn(text):
    """One message on stderr, prefixed with the program's name."""
    print("qualreport: %s" % text, file=sys.stderr)
