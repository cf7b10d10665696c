"""The command line of tools/qualreport, which turns a fleet's cryptoqual
serial logs into answers.

    qualreport parse LOG... [--boot last|last-complete|N] [-d DIR]
    qualreport compare BASELINE LOG... [--boot ...] [--json]
    qualreport baseline LOG... [--min-ratio R] [--same-image] [-o FILE|DIR/]
    qualreport plot LOG... -o OUT.png [--record cipher|hash|all] [--dir D] [--title T]
    qualreport html LOG... -o OUT.html [--baseline BASELINE] [--title T]
    qualreport html --db FILE -o OUT.html [--baseline BASELINE] [--allow-emulated]
    qualreport ingest LOG... --db FILE [--batch NAME]
    qualreport history BOX --db FILE [--json]

BASELINE is a baseline, a baseline set (one per model) or a directory of
them. The log format is docs/report-format.md; the JSON documents (their
schemas in docs/schemas/), the baseline format and the choices made for
damaged logs are in docs/qualreport.md.
"""

import argparse
import json
import os
import sys

from .baseline import cmd_baseline
from .collector import fleet_paths
from .compare import cmd_compare
from .db import cmd_history, cmd_ingest
from .html import cmd_html
from .parse import read_log
from .plot import BAND_ABOVE, BAND_ALGS, DEFAULT_BAND_ALGS, cmd_plot


def cmd_parse(args):
    """One document per log, in argument order: a log that cannot be read
    keeps its place (read_error says why) and makes the exit status 2."""
    docs = []
    status = 0
    for path in args.logs:
        d = read_log(path, args.boot, args.allow_emulated)
        if d["read_error"]:
            print("qualreport: %s: %s" % (path, d["read_error"]), file=sys.stderr)
            status = 2
        docs.append(d)
    if args.dir:
        os.makedirs(args.dir, exist_ok=True)
        for d in docs:
            with open(os.path.join(args.dir, d["log_name"] + ".json"), "w", encoding="utf-8") as f:
                json.dump(d, f, indent=1)
                f.write("\n")
    else:
        json.dump(docs, sys.stdout, indent=1)
        print()
    return status




def boot_choice(value):
    if value in ("last", "last-complete") or (value.isdigit() and int(value) >= 1):
        return value
    raise argparse.ArgumentTypeError("last, last-complete or a boot number from 1")


def main(argv=None):
    p = argparse.ArgumentParser(prog="qualreport", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    emu_help = "read a log of the emulation image like a real box's (default: its verdict is EMULATED)"
    boot_help = ("which boot of a log that holds several (a box that rebooted): last (default), "
                 "last-complete, or N counted from 1")

    sp = sub.add_parser("parse", help="one JSON document per box (a JSON array on stdout)")
    sp.add_argument("logs", nargs="+", metavar="LOG")
    sp.add_argument("--boot", type=boot_choice, default="last", help=boot_help)
    sp.add_argument("--allow-emulated", action="store_true", help=emu_help)
    sp.add_argument("-d", "--dir", help="write DIR/BOX.json per log instead of stdout")
    sp.set_defaults(func=cmd_parse)

    base_help = "a baseline, a baseline set (one per model) or a directory of them"
    sp = sub.add_parser("compare", help="judge boxes against a baseline; table, exit 1 if any fails")
    sp.add_argument("baseline", metavar="BASELINE", help=base_help)
    sp.add_argument("logs", nargs="+", metavar="LOG")
    sp.add_argument("--boot", type=boot_choice, default="last", help=boot_help)
    sp.add_argument("--allow-emulated", action="store_true", help=emu_help)
    sp.add_argument("--json", action="store_true", help="print every check as JSON instead of the table")
    sp.set_defaults(func=cmd_compare)

    sp = sub.add_parser("baseline", help="a baseline from the logs of good boxes (their spread sets the tolerances)")
    sp.add_argument("logs", nargs="+", metavar="LOG")
    sp.add_argument("--boot", type=boot_choice, default="last", help=boot_help)
    sp.add_argument("--allow-emulated", action="store_true", help=emu_help)
    sp.add_argument("--min-ratio", type=float, default=0.9,
                    help="minimum ratio of a throughput to the batch's slowest box, widened by the "
                         "records' own spread (default 0.9)")
    sp.add_argument("--same-image", action="store_true", help="require the reference's image-sha256")
    sp.add_argument("-o", "--output", help="write to FILE instead of stdout (logs of several models: a baseline "
                    "set; a directory, or a name ending in /: one file per model in it)")
    sp.set_defaults(func=cmd_baseline)

    sp = sub.add_parser("plot", help="throughput against buffer size (gnuplot PNG)")
    sp.add_argument("logs", nargs="+", metavar="LOG")
    sp.add_argument("-o", "--output", required=True, metavar="OUT.png")
    sp.add_argument("--boot", type=boot_choice, default="last", help=boot_help)
    sp.add_argument("--allow-emulated", action="store_true", help=emu_help)
    sp.add_argument("--record", choices=("cipher", "hash", "all"), default="all")
    sp.add_argument("--dir", default="encrypt", help="cipher direction to plot: encrypt (default), decrypt, any")
    sp.add_argument("--alg", metavar="REGEX", help="only algorithms matching REGEX (default: all; with more than "
                    "%d boxes and %d algorithms, %s)" % (BAND_ABOVE, BAND_ALGS, DEFAULT_BAND_ALGS.replace("%", "%%")))
    sp.add_argument("--title")
    sp.set_defaults(func=cmd_plot)

    sp = sub.add_parser("html", help="a self-contained fleet page: verdict table, throughput plots, failing lines")
    sp.add_argument("logs", nargs="*", metavar="LOG")
    sp.add_argument("-o", "--output", required=True, metavar="OUT.html")
    sp.add_argument("--baseline", metavar="BASELINE", help="judge every box against it (%s) and draw it" % base_help)
    sp.add_argument("--db", metavar="FILE", help="the boxes of a history database (each box's last run) instead of LOGs")
    sp.add_argument("--boot", type=boot_choice, default="last", help=boot_help)
    sp.add_argument("--allow-emulated", action="store_true", help=emu_help)
    sp.add_argument("--title")
    sp.set_defaults(func=cmd_html)

    sp = sub.add_parser("ingest", help="store every boot of every log in a history database (SQLite)")
    sp.add_argument("logs", nargs="+", metavar="LOG")
    sp.add_argument("--db", required=True, metavar="FILE", help="the database (made when missing)")
    sp.add_argument("--batch", metavar="NAME", help="the batch of these runs (default: each run's tag= option)")
    # Runs are stored as their logs say (EMULATED); readers decide (html --db --allow-emulated).
    sp.add_argument("--allow-emulated", action="store_true", help=argparse.SUPPRESS)
    sp.set_defaults(func=cmd_ingest)

    sp = sub.add_parser("history", help="every run of a box in a history database")
    sp.add_argument("box", metavar="BOX", help="a box key (asset, serial, mac-HEX), box_key or log name")
    sp.add_argument("--db", required=True, metavar="FILE")
    sp.add_argument("--json", action="store_true", help="JSON (docs/schemas/history.schema.json) instead of text")
    sp.set_defaults(func=cmd_history)

    args = p.parse_args(argv)
    if getattr(args, "logs", None):
        args.logs = fleet_paths(args.logs)   # a collector's folder (TFTP, rsyslog) is its files
    if args.cmd == "html" and bool(args.logs) == bool(args.db):
        p.error("html takes LOGs or --db FILE (one of them)")
    return args.func(args)


def run():
    """The entry point: main()'s exit status, 1 on a closed pipe."""
    try:
        sys.exit(main())
    except BrokenPipeError:
        sys.exit(1)
