#!/usr/bin/env python3
"""Every line the image prints can be found with a grep of the source.

    greppable.py LOG...        # serial logs of emulated boots

Reads every C string literal of the image's sources (boot/, kernel/,
drivers/, lib/ but lib/host/, emu/; adjacent literals joined as the
compiler joins them) and checks each printed line against them.

A line and a literal are both cut into runs: tokens joined by single
spaces, a token being a word (letters, inner - _ ' . allowed) or a hole
(what came from an argument); any other character ends a run. Holes are:

- in a literal: every conversion (%s, %08x, ...) and every number;
- in a line: numbers and hex (0x408, 6e1596af..., 2500, SHA-256,
  tsel0-dead), quoted text, the key and value of a `key=value` pair, and
  names: a word or phrase that is a value of a table or initialiser in the
  sources ("padlock-ace", "Invalid Opcode", "C7 Esther"). A name may also
  stand where the literal has the same words.

Each run of a line must occur, token by token, inside one run of one
literal, a hole of the line standing for a hole of the literal. A line
glued at run time from prose fragments ("%s%s has completed since" filled
with "the timed-out operation" and "on context B") has a run that no
literal holds, so no grep finds it. The line's longest run of 4 tokens or
more must belong to exactly one literal that matches the whole line: two
copies of a message are two places to change.

TAP syntax is the report's own ("ok 3 - ", " # SKIP "); the test name and
the skip reason are checked as two texts.

Prints `LOG:LINE: why: the line` for every line that fails and a last
line "greppable: N lines checked, M failed". Exit 1 when a line fails,
2 on a usage error.
"""
import re
import subprocess
import sys

ROOTS = ("boot", "kernel", "drivers", "lib", "emu")
MIN_UNIQUE = 4
HOLE = "\x00"

SPEC_RE = re.compile(r"%[-+ #0']*(?:\*|\d+)?(?:\.(?:\*|\d+))?(?:hh|h|ll|l|z|j|t|L)?[diouxXcspfgeEGa]")
TOKEN_RE = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])+\'', re.S)
PREFIX = "\x04"
WORD_RE = re.compile(r"#?[A-Za-z](?:[A-Za-z_'.+-]*[A-Za-z])?|" + HOLE + "|" + PREFIX + r"[A-Za-z][A-Za-z_'.+-]*")
# In a literal, a word a conversion is glued to ("bytes%s", "aes-%s", "tsel%u"):
# it stands for any word that starts so, or a hole.
GLUED_RE = re.compile(r"(?<![A-Za-z0-9_.+\-\x00])([A-Za-z][A-Za-z_.+-]*)\x00(?![A-Za-z0-9_.+\-])")
# Numbers, hex and any token with a digit in it (SHA-256, tsel0-dead): holes.
NUM_RE = re.compile(r"(?<![A-Za-z0-9_.+\-\x00])[A-Za-z0-9_.+\-\x00]*[0-9\x00][A-Za-z0-9_.+\-\x00]*")
TAP_RE = re.compile(r"^(?:not )?ok \d+ - (.*?)(?: # (?:SKIP|TODO)\b ?(.*))?$|^# (.*)$")
QUOTED_RE = re.compile(r"(?<![A-Za-z])'[^'\n]*'(?![A-Za-z])|\"[^\"\n]*\"")
KV_PAIR_RE = re.compile(r"[A-Za-z0-9_.\[\]\x00-]+=\S*")


def kv_holes(text):
    """key=value pairs to holes. A value runs to the next space (escaped
    outside text has none: Standard\\x20PC\\x20(i440FX...)), less a
    trailing , ; or a ) it did not open: "(GLD_MSR_CAP=0x..., revision"."""
    def one(m):
        v = m.group(0)
        while v and (v[-1] in ",;" or v[-1] == ")" and v.count(")") > v.count("(")):
            v = v[:-1]
        return HOLE + m.group(0)[len(v):]
    return KV_PAIR_RE.sub(one, text)


def sources():
    out = subprocess.run(["git", "ls-files", "--"] + [r + "/" for r in ROOTS],
                         capture_output=True, text=True, check=True).stdout
    return [f for f in out.split() if f.endswith((".c", ".h")) and not f.startswith("lib/host/")]


def unescape(s):
    """C escapes decoded; a control character (the NUL between the entries
    of a packed table such as pci_format.c's class names) ends a line."""
    def esc(m):
        e = m.group(1)
        if e[0] == "x" or e[0].isdigit():
            c = int(e[1:], 16) if e[0] == "x" else int(e, 8)
            return chr(c) if 32 <= c < 127 else "\n"
        return {"n": "\n", "t": "\t", "r": "\r"}.get(e, e)
    return re.sub(r"\\(x[0-9a-fA-F]+|[0-7]{1,3}|.)", esc, s)


def literals(path):
    """(text, is_value) of every string literal of one C file, adjacent ones joined.

    is_value: the literal stands in an initialiser, is assigned inside a
    function or returned (`{ "ACE",`, `.name = "..."`, `r->description =
    "..."`, `return "hardware error";`), i.e. it is data that a format string
    prints with %s. A file-scope constant, a ternary's operand or a call's
    argument is not: text chosen or shared that way is a fragment of a
    message, and the message must be written out whole."""
    text = open(path, encoding="utf-8", errors="replace").read()
    text = re.sub(r"^\s*#\s*include[^\n]*", lambda m: " " * len(m.group(0)), text, flags=re.M)
    # One pass over comments, strings and character constants, so that a
    # quote inside a string or a comment does not start anything.
    blanked, strs = [], []
    pos = 0
    for m in TOKEN_RE.finditer(text):
        blanked.append(text[pos:m.start()])
        tok = m.group(0)
        if tok.startswith('"'):
            strs.append((tok[1:-1], len("".join(blanked))))     # C joins after decoding
            blanked.append(tok)
        else:
            blanked.append(" " * len(tok))
        pos = m.end()
    blanked.append(text[pos:])
    text = "".join(blanked)
    found, cur = [], None
    for body, start in strs:
        end = start + len(body) + 2
        if cur is not None and text[cur[1]:start].strip() == "":
            cur = (cur[0] + [body], end, cur[2])
            continue
        if cur is not None:
            found.append(cur)
        cur = ([body], end, start)
    if cur is not None:
        found.append(cur)
    out = []
    for s, _, start in found:
        before = text[:start].rstrip()
        prev = before[-1:] if before else ""
        depth = before.count("{") - before.count("}")
        value = (depth > 0 and (prev in "{," and inside_braces(before) or
                                prev == "=" and not before.endswith(("==", "!=", "<=", ">=")))
                 or re.search(r"\breturn$", before) is not None)
        # Entries of a packed table are values too.
        out.append(("".join(map(unescape, s)),
                    value or any(re.search(r"\\(?:0|x00)", b) for b in s)))
    return out


def inside_braces(before):
    """Whether the innermost open bracket before this point is a brace."""
    depth = 0
    for ch in reversed(before):
        if ch in ")]}":
            depth += 1
        elif ch in "([{":
            if depth == 0:
                return ch == "{"
            depth -= 1
    return False


def holes(text):
    """Numbers to holes; holes next to each other (columns, lists) to one."""
    text = NUM_RE.sub(HOLE, text)
    return re.sub(HOLE + r"(?:[ ,/*%:|-]*" + HOLE + ")+", HOLE, text)


def runs(text):
    """Runs of tokens: lists of words and holes joined by single spaces."""
    out = []
    for piece in re.split(r"[^A-Za-z0-9_'.+#\x00\x04 -]", text):
        cur = []
        for tok in piece.split(" "):
            if WORD_RE.fullmatch(tok):
                cur.append(tok)
                continue
            if cur:
                out.append(cur)
            cur = []
            out.extend([m.group(0)] for m in WORD_RE.finditer(tok))
        if cur:
            out.append(cur)
    return out


class Sources:
    def __init__(self):
        self.lits = {}              # text line -> file
        self.copies = {}            # text line -> "file" once per copy
        names = set(OUTSIDE_NAMES)
        for f in sources():
            names.add(f)            # __FILE__
            for s, value in literals(f):
                for line in s.split("\n"):
                    self.lits.setdefault(line, f)
                    self.copies.setdefault(line, []).append(f)
                    t = line.strip()
                    if t and t == line and not SPEC_RE.search(line) and (
                            value or " " not in t):
                        names.add(t)
        self.runs = []              # (tokens, literal)
        for s in self.lits:
            t = kv_holes(QUOTED_RE.sub(HOLE, SPEC_RE.sub(HOLE, s.replace("%%", "%"))))
            for r in runs(holes(GLUED_RE.sub(PREFIX + r"\1", t))):
                self.runs.append((r, s))
        self.by_word = {}
        for i, (r, _) in enumerate(self.runs):
            for tok in r:
                self.by_word.setdefault(tok, set()).add(i)
        # Names as phrases, longest first; a name that is a single word too.
        pats = sorted((n for n in names if len(n) > 1 and re.search(r"[A-Za-z]", n)), key=len,
                      reverse=True)
        self.name_re = re.compile(r"(?<![A-Za-z0-9_'\-])(?:" + "|".join(map(re.escape, pats)) +
                                  r")(?![A-Za-z0-9_'\-])") if pats else None

    def items(self, text):
        """Runs of a printed text: each token is a word, a hole, or ("name", words)."""
        text = kv_holes(text)
        spans = []
        if self.name_re:
            def mark(m):
                spans.append(m.group(0))
                return "\x01%d\x02" % (len(spans) - 1)
            text = self.name_re.sub(mark, text)
        text = QUOTED_RE.sub(HOLE, text)
        text = holes(text)
        out = []
        for r in runs(re.sub(r"\x01(\d+)\x02", lambda m: "N" + "n" * int(m.group(1)) + "N", text)):
            toks = []
            for tok in r:
                m = re.fullmatch(r"N(n*)N", tok)
                toks.append(("name", spans[len(m.group(1))]) if m else tok)
            out.append(toks)
        return out

    def holders(self, run):
        """The literals one of whose runs holds this run of a printed text."""
        fixed = [t for t in run if isinstance(t, str) and t != HOLE]
        cand = set()
        for t in fixed:
            cand |= self.by_word.get(t, set())
            for n in range(1, len(t) + 1):
                cand |= self.by_word.get(PREFIX + t[:n], set())
        if not fixed:
            cand = range(len(self.runs))
        return sorted({self.runs[i][1] for i in cand if held(self.runs[i][0], run)})


def held(lit, run):
    for start in range(len(lit)):
        if match_at(lit, start, run, 0):
            return True
    return False


def hole_like(t):
    return t == HOLE or isinstance(t, tuple) and t[0] == "name"


def match_at(lit, i, run, j):
    """Whether run[j:] matches lit from lit[i] on. A hole of the literal takes
    one word of the line, or one or more holes and names; a name takes a hole
    or its own words."""
    if j == len(run):
        return True
    if i >= len(lit):
        return False
    t = run[j]
    if lit[i].startswith(PREFIX) and isinstance(t, str) and t != HOLE:
        return t.startswith(lit[i][1:]) and match_at(lit, i + 1, run, j + 1)
    if lit[i] == HOLE or lit[i].startswith(PREFIX):
        if not hole_like(t):
            return match_at(lit, i + 1, run, j + 1)
        k = j
        while k < len(run) and hole_like(run[k]):
            k += 1
            if match_at(lit, i + 1, run, k):
                return True
        return False
    if isinstance(t, tuple) and t[0] == "cut":       # the last word, cut short
        return lit[i] == HOLE or lit[i].lstrip(PREFIX).startswith(t[1])
    if isinstance(t, tuple):
        words = runs(holes(t[1]))
        flat = words[0] if len(words) == 1 else None
        return bool(flat) and lit[i:i + len(flat)] == flat and match_at(lit, i + len(flat), run, j + 1)
    return lit[i] == t and match_at(lit, i + 1, run, j + 1)


def full_match(lit, line):
    """Whether the line holds the literal, each conversion standing for any text."""
    parts = re.split("(%%|" + SPEC_RE.pattern + ")", lit)
    rx = "".join("%" if p == "%%" else ".*" if SPEC_RE.fullmatch(p) else re.escape(p) for p in parts)
    return re.search(rx, line) is not None


# Words the image prints from the hardware: CPUID vendor strings.
OUTSIDE_NAMES = ("GenuineIntel", "AuthenticAMD", "CentaurHauls", "Shanghai", "HygonGenuine",
                 "Geode by NSC", "CyrixInstead")
# Lines whose tail is text from outside the image, echoed (escaped) as is:
# the loader's name and command line, CPUID's brand string, a key=value
# line of the `#` identity block.
OUTSIDE_RE = re.compile(r"^(loader: |cmdline: |summary: box [^ ]+ \(|[A-Za-z0-9_.\[\]-]+=).*$")
# The last screen quotes result lines, cut at the screen's width with "...".
QUOTED_TAP_RE = re.compile(r"^summary: (?:not )?ok \d+ - (.*)$")
CUT = "..."


def check(src, text, line):
    """None, or why this printed text cannot be found."""
    text = OUTSIDE_RE.sub(lambda m: m.group(1) + HOLE, text)
    m = QUOTED_TAP_RE.match(text)
    if m:
        text = m.group(1)
    cut = text.endswith(CUT)
    if cut:
        text = text[:-len(CUT)]
    longest = None
    items = src.items(text)
    if cut and items and isinstance(items[-1][-1], str) and items[-1][-1] != HOLE:
        items[-1][-1] = ("cut", items[-1][-1])
    for run in items:
        if all(isinstance(t, tuple) or t == HOLE for t in run):
            continue
        hs = src.holders(run)
        if not hs:
            return "no source string holds \"%s\"" % show(run)
        if len(run) >= MIN_UNIQUE and (longest is None or len(run) > len(longest[0])):
            longest = (run, hs)
    if longest:
        whole = [(f, s) for s in longest[1] if full_match(s, line) for f in src.copies[s]]
        if len(whole) > 1:
            return "\"%s\" is in %d source strings (%s)" % (
                show(longest[0]), len(whole), " | ".join("%s: %s" % fs for fs in whole)[:300])
    return None


def show(run):
    return " ".join(t[1] if isinstance(t, tuple) else ("#" if t == HOLE else t) for t in run)


def main(argv):
    if len(argv) < 2:
        print("usage: greppable.py LOG...", file=sys.stderr)
        return 2
    src = Sources()
    checked = failed = 0
    seen = set()
    for log in argv[1:]:
        try:
            lines = open(log, encoding="utf-8", errors="replace").read().splitlines()
        except OSError as e:
            print("greppable.py: %s: %s" % (log, e.strerror), file=sys.stderr)
            return 2
        for n, raw in enumerate(lines, 1):
            line = raw.rstrip("\r")
            if not line.strip():
                continue
            m = TAP_RE.match(line)
            texts = [t for t in m.groups() if t] if m else [line]
            key = holes(line)
            if key in seen:
                continue
            seen.add(key)
            checked += 1
            for t in texts:
                why = check(src, t, line)
                if why:
                    failed += 1
                    print("%s:%d: %s: %s" % (log, n, why, line))
                    break
    print("greppable: %d lines checked, %d failed" % (checked, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
