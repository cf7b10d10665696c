#!/usr/bin/env python3
"""bench-models: cycle models of the software AES the image runs against
OpenSSL's aes-586 (make bench-models). Models, not measurements: they say
how the two instruction streams would fare on CPUs the project cannot run
here, under stated assumptions.

    tools/bench/bench-models.py BENCH_BINARY PLUGIN

Runs `BENCH_BINARY models` (tools/bench/bench-i386.c) under qemu-i386 with
the insn-count plugin tracing every instruction of each modelled call, on
OpenSSL's integer path (OPENSSL_ia32cap of the Geode LX, as make
bench-i386). Each cell is a call on 32 and on 64 blocks, ours and
OpenSSL's; the difference, divided by 32, is the cost of one block in a
call's steady state (the call's set-up and the markers cancel). The traced
instructions are disassembled with llvm-mc and fed, in the order they ran,
to:
  - llvm-mca (LLVM's machine-code analyser, Debian's llvm-14) with
    -mcpu=atom (Intel Bonnell: in order, two-wide), silvermont (out of
    order, two-wide) and btver2 (AMD Jaguar, out of order, two-wide),
    -iterations=1 over the whole trace: its "Total Cycles" (llvm-mca
    does not model calls and returns: write_asm() says what stands in);
  - tools/bench/inorder-model.py, a single-issue in-order model with
    address-generation interlocks (its header states the method), for the
    Geode LX and VIA C3 class of core that llvm-mca does not model.
Prints one table (cycles per 16-byte block, ours / OpenSSL) and exits 1
when a run fails or ours is slower than OpenSSL on any model (ratio over
1.00), 2 on a usage error.
"""
import os
import re
import subprocess
import sys
import tempfile

IA32CAP_GEODE = "0x0088a93d:0"
MCPUS = ("atom", "silvermont", "btver2")
LLVM_MC = os.environ.get("LLVM_MC", "llvm-mc-14")
LLVM_MCA = os.environ.get("LLVM_MCA", "llvm-mca-14")
HERE = os.path.dirname(os.path.abspath(__file__))
BRANCH = re.compile(r"^(j[a-z]+|call[lw]?|loop[a-z]*)\s+(-?\d+|0x[0-9a-f]+)$")


def run_trace(binary, plugin, tmp):
    env = dict(os.environ, OPENSSL_ia32cap=IA32CAP_GEODE)
    trace = os.path.join(tmp, "trace")
    marks = os.path.join(tmp, "marks")
    out = subprocess.run(["qemu-i386", "-cpu", "max", "-L", "/usr/i686-linux-gnu", "-plugin",
                          f"{plugin},out={marks},trace={trace},trace_from=200", binary, "models"],
                         env=env, capture_output=True, text=True)
    if out.returncode != 0:
        sys.stderr.write(out.stderr)
        raise SystemExit("bench-models: the traced run failed")
    return out.stdout, trace


def segments(trace_path):
    segs, cur = {}, None
    with open(trace_path) as f:
        for line in f:
            p = line.split()
            if p[0] == "seg":
                cur = (int(p[1]), int(p[2]))
                segs[cur] = []
            elif p[0] == "i" and cur is not None:
                segs[cur].append((int(p[1], 16), p[2]))
    return segs


def disassemble(encodings, tmp):
    """AT&T text of each distinct encoding (hex string), one llvm-mc run."""
    encodings = sorted(encodings)
    src = os.path.join(tmp, "enc.hex")
    with open(src, "w") as f:
        for e in encodings:
            f.write(" ".join("0x" + e[i:i + 2] for i in range(0, len(e), 2)) + "\n")
    out = subprocess.run([LLVM_MC, "--disassemble", "-triple=i386"], stdin=open(src),
                         capture_output=True, text=True)
    lines = [l.strip() for l in out.stdout.splitlines() if l.strip() and not l.strip().startswith(".")]
    if out.returncode != 0 or len(lines) != len(encodings):
        sys.stderr.write(out.stderr)
        raise SystemExit("bench-models: llvm-mc did not disassemble the trace one to one")
    text = {}
    for e, l in zip(encodings, lines):
        l = re.sub(r"\s+", " ", l.replace("\t", " "))
        m = BRANCH.match(l)
        if m:
            l = m.group(1) + " .Lt"          # the target is not modelled: one label
        text[e] = l
    return text


def write_asm(path, seg, text, mca=False):
    """The trace as assembly. For llvm-mca (mca=True), which does not model
    calls and returns (it gives a call 100 cycles of latency and its Atom
    model a return 79 cycles), each CALL becomes the push of its return
    address and a jump, each RET the pop of it (an ADD to ESP) and a jump."""
    with open(path, "w") as f:
        f.write(".Lt:\n")
        for k, (addr, enc) in enumerate(seg):
            line = text[enc]
            op = line.split()[0]
            if k + 1 < len(seg) and op.startswith(("j", "call", "ret", "loop")) and \
                    seg[k + 1][0] != addr + len(enc) // 2:
                line += " # taken"
            if mca and op.startswith("call"):
                line = "pushl $0\njmp .Lt"
            elif mca and op.startswith("ret"):
                line = "addl $4, %esp\njmp .Lt"
            f.write(line + "\n")


def mca_cycles(path, mcpu):
    out = subprocess.run([LLVM_MCA, "-mtriple=i386-linux-gnu", f"-mcpu={mcpu}", "-iterations=1",
                          "-summary-view", "-resource-pressure=0", "-instruction-info=0", path],
                         capture_output=True, text=True)
    m = re.search(r"^Total Cycles:\s+(\d+)", out.stdout, re.M)
    if out.returncode != 0 or not m:
        sys.stderr.write(out.stderr[-2000:])
        raise SystemExit(f"bench-models: llvm-mca -mcpu={mcpu} failed on {path}")
    return int(m.group(1))


def inorder_cycles(paths):
    out = subprocess.run([sys.executable, os.path.join(HERE, "inorder-model.py")] + paths,
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.stderr.write(out.stderr)
        raise SystemExit("bench-models: the in-order model failed")
    res = {}
    for line in out.stdout.splitlines():
        p = line.split()
        res[p[0]] = int(p[2])
    return res


def main(argv):
    if len(argv) != 3:
        print("usage: bench-models.py BENCH_BINARY PLUGIN", file=sys.stderr)
        return 2
    binary, plugin = argv[1], os.path.abspath(argv[2])
    with tempfile.TemporaryDirectory() as tmp:
        stdout, trace = run_trace(binary, plugin, tmp)
        ossl = re.search(r"^openssl (.*?) ia32cap (\S+) path (\S+)", stdout, re.M)
        cells = [l.split() for l in stdout.splitlines() if l.startswith("model ")]
        segs = segments(trace)
        text = disassemble({enc for s in segs.values() for _, enc in s}, tmp)
        files, mca_files = {}, {}
        for key, seg in segs.items():
            files[key] = os.path.join(tmp, f"seg-{key[0]}-{key[1]}.s")
            mca_files[files[key]] = os.path.join(tmp, f"seg-{key[0]}-{key[1]}-mca.s")
            write_asm(files[key], seg, text)
            write_asm(mca_files[files[key]], seg, text, mca=True)
        inorder = inorder_cycles(list(files.values()))
        models = [("in-order, AGI (tools/bench/inorder-model.py)", lambda p: inorder[p])]
        models += [(f"llvm-mca -mcpu={c}", lambda p, c=c: mca_cycles(mca_files[p], c)) for c in MCPUS]
        print(f"cycle models (make bench-models): MODELLED cycles per 16-byte block, AES-128, "
              f"in a call's steady state ({cells[0][6]} - {cells[0][5]} blocks); ours "
              f"(lib/crypto/aes as the kernel builds it) / OpenSSL {ossl.group(1).split()[1]} "
              f"on {ossl.group(3)} (OPENSSL_ia32cap {IA32CAP_GEODE})")
        print(f"{'model':46s} {'cell':12s} {'ours':>8s} {'OpenSSL':>8s} {'ratio':>7s}")
        worse = []
        for name, fn in models:
            for c in cells:
                cid, small, large = int(c[1]), int(c[5]), int(c[6])
                per = []
                for a, b in ((0, 1), (2, 3)):
                    per.append((fn(files[(cid, b)]) - fn(files[(cid, a)])) / (large - small))
                ratio = per[0] / per[1]
                print(f"{name:46s} {c[3]:12s} {per[0]:8.1f} {per[1]:8.1f} {ratio:6.2f}x")
                if ratio > 1.0:
                    worse.append(f"{name} {c[3]}")
        print("Models, not measurements: llvm-mca's scheduling models of Bonnell, Silvermont and "
              "Jaguar (a CALL modelled as a PUSH and a JMP, a RET as an ADD to ESP and a JMP), and "
              "a single-issue in-order model with address-generation interlocks; all assume every "
              "load hits the L1 cache.")
        if worse:
            print("bench-models: ours is slower than OpenSSL on: " + "; ".join(worse), file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
