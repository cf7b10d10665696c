#!/usr/bin/env python3
"""List the repository paths named in comments and docs that do not exist.

Reads every tracked text file (sources, scripts, tests, docs, make files),
finds the words in comments and text that look like a path into this repository (they start with
one of its top-level folders: boot/ kernel/ drivers/ lib/ emu/ tests/ tools/
scripts/ docs/ mk/), and prints `FILE:LINE: PATH` for each that names no
tracked file or folder.  A path whose parent folder is not in the
repository is taken as another project's (Linux's drivers/crypto/geode-aes.c)
and is not checked; so are a module stem (lib/crypto/aes names aes.c, aes.h),
patterns (tests/boot/emu-*.t), paths built at run time ($BUILD/...), option
values (--subdir=boot/grub), placeholders (test_MODULE.py) and the text of
string literals in code (printed lines, not comments) and TAP lines quoted
as the image prints them.  Exit status 0 always; the
caller (tests/tools/layout.t) judges the output.

    stale_paths.py [FILE...]     # default: git ls-files
"""

import os
import re
import subprocess
import sys

TOP = ("boot", "kernel", "drivers", "lib", "emu", "tests", "tools", "scripts", "docs", "mk")
PATH_RE = re.compile(r"(?<![\w./-])((?:%s)/[A-Za-z0-9_.+/-]*[A-Za-z0-9_/])" % "|".join(TOP))
TAP_QUOTE = re.compile(r"\bok (?:\d+|\.\.\.|\[0-9\]\+) - ")
TEXT_EXT = (".c", ".h", ".S", ".sh", ".t", ".py", ".pl", ".mk", ".md", ".ld", ".cjs", ".txt", ".json", ".conf")


def tracked():
    out = subprocess.run(["git", "ls-files"], capture_output=True, text=True, check=True).stdout
    return [f for f in out.splitlines() if f]


def main(argv):
    files = argv[1:] or tracked()
    known = set()
    for f in tracked():
        if not os.path.exists(f):
            continue        # deleted in the work tree
        parts = f.split("/")
        for i in range(1, len(parts) + 1):
            known.add("/".join(parts[:i]))
    for f in files:
        base = os.path.basename(f)
        if not (f.endswith(TEXT_EXT) or base in ("Makefile", "run") or "/." in "/" + f):
            continue
        try:
            with open(f, encoding="utf-8", errors="replace") as fh:
                lines = fh.readlines()
        except OSError:
            continue
        for n, line in enumerate(lines, 1):
            for m in PATH_RE.finditer(line):
                p = m.group(1).rstrip("/.")
                if p in known or any(k.startswith(p) for k in known):
                    continue        # a file, a folder, or a module stem (lib/crypto/aes)
                if line[m.end(1):m.end(1) + 1] in ("*", "{", "$", "<"):
                    continue        # a pattern: tests/boot/emu-*.t
                # a path built at run time ($BUILD/..., ${X}/...), an option's
                # value (--subdir=boot/grub names the TFTP tree), a placeholder
                if line[max(0, m.start(1) - 1)] in "$}%=" or re.search(r"[A-Z]{4,}", p):
                    continue
                # a C string (printed text, not a comment)
                if not f.endswith(".md") and line[:m.start(1)].count('"') % 2 == 1:
                    continue
                # a TAP line quoted as the image prints it: its name stays as
                # baselines know it (`not ok ... - geode-sb: ... matches lib/aes`)
                if TAP_QUOTE.search(line[:m.start(1)]):
                    continue
                parent = p.rsplit("/", 1)[0] if "/" in p else ""
                if parent and parent not in known:
                    continue        # another project's tree
                print("%s:%d: %s" % (f, n, p))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
