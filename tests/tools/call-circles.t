#!/usr/bin/env python3
"""Calls between the .c files of one folder go one way (README "Layout").

For every folder of drivers/, kernel/ and lib/ a graph of its .c files: an
edge A -> B when A's object references a function that B's object defines
(binutils nm on the built objects: the symbols the linker resolves, so
macros, inline functions and comments cannot fool it). Every circle (a
strongly connected component of two or more files, or a file that is its
own caller through another's symbol) is listed and fails the test.

Includes that point up the layers fail too: nothing in kernel/platform
includes a kernel/run header (the platform is below the run), nothing in
lib/ includes a drivers/ or kernel/ header (lib/ is hardware-free and
builds for the host).

Env: CQ_BUILD (build folder, default "build"): its kernel/ objects (the
kernel's drivers/, kernel/ and lib/) and host/obj/lib/host/ (lib/host/,
which the kernel does not build).
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import taplib as tap  # noqa: E402

BUILD = os.environ.get("CQ_BUILD", "build")
ROOTS = ("drivers", "kernel", "lib")
NM = "nm"


def sources():
    """Tracked .c files under ROOTS, by folder."""
    out = subprocess.run(["git", "ls-files", "--"] + [r + "/" for r in ROOTS],
                         capture_output=True, text=True, check=True).stdout
    folders = {}
    for path in out.split():
        if path.endswith(".c"):
            folders.setdefault(os.path.dirname(path), []).append(path)
    return folders


def object_of(src):
    """The built object of src, or None."""
    if src.startswith("lib/host/"):
        cand = os.path.join(BUILD, "host", "obj", src + ".o")
    else:
        cand = os.path.join(BUILD, "kernel", src + ".o")
    return cand if os.path.exists(cand) else None


def symbols(obj):
    """(functions defined, symbols referenced) of one object."""
    out = subprocess.run([NM, obj], capture_output=True, text=True, check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            undefined.add(parts[1])
        elif len(parts) == 3 and parts[1] == "T":
            defined.add(parts[2])
    return defined, undefined


def circles(nodes, edges):
    """Strongly connected components of two or more nodes (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return found


def bad_includes(folder, pattern):
    """Lines of tracked .c/.h files under folder that include a header matching pattern."""
    out = subprocess.run(["git", "ls-files", "--", folder + "/"],
                         capture_output=True, text=True, check=True).stdout
    inc = re.compile(r'^\s*#\s*include\s+"(%s)' % pattern)
    bad = []
    for path in out.split():
        if not path.endswith((".c", ".h")):
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            for no, line in enumerate(f, 1):
                if inc.match(line):
                    bad.append("%s:%d: %s" % (path, no, line.strip()))
    return bad


def main():
    tap.start()
    try:
        folders = sources()
    except (OSError, subprocess.CalledProcessError) as e:
        tap.ok(False, "the tracked sources are listed (git ls-files)", e)
        tap.done()
    missing = [s for srcs in folders.values() for s in srcs if object_of(s) is None]
    tap.ok(not missing, "every .c file of drivers/, kernel/ and lib/ has a built object "
           "(make kernel tools)", "\n".join(missing[:20]))

    for folder in sorted(folders):
        srcs = [s for s in folders[folder] if object_of(s)]
        if len(srcs) < 2:
            continue
        syms = {s: symbols(object_of(s)) for s in srcs}
        owner = {}
        for s in srcs:
            for f in syms[s][0]:
                owner[f] = s
        edges, why = {}, {}
        for s in srcs:
            for f in syms[s][1]:
                t = owner.get(f)
                if t and t != s:
                    edges.setdefault(s, set()).add(t)
                    why.setdefault((s, t), []).append(f)
        found = circles(srcs, edges)
        detail = []
        for comp in found:
            detail.append("circle: " + " ".join(os.path.basename(c) for c in comp))
            for a in comp:
                for b in comp:
                    if (a, b) in why:
                        detail.append("  %s -> %s: %s" % (os.path.basename(a), os.path.basename(b),
                                                          ", ".join(sorted(why[(a, b)])[:6])))
        tap.ok(not found, "%s: no call circle between its .c files" % folder, "\n".join(detail))

    bad = bad_includes("kernel/platform", r"kernel/run/")
    tap.ok(not bad, "kernel/platform includes no kernel/run header", "\n".join(bad))
    bad = bad_includes("lib", r"drivers/|kernel/")
    tap.ok(not bad, "lib/ includes no drivers/ or kernel/ header", "\n".join(bad))
    tap.done()


main()
