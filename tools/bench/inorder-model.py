#!/usr/bin/env python3
"""inorder-model: a simple in-order timing model of i386 code, for make
bench-models (tools/bench/bench-models.py). It is a model, not a
measurement and not any one CPU's pipeline: it stands for the single-issue,
in-order cores this project qualifies (the AMD Geode LX, the VIA C3),
where address-generation interlocks and load-use delays decide how fast
table-driven AES runs, and which llvm-mca has no model of.

    tools/bench/inorder-model.py FILE.s...

Input: AT&T assembly as llvm-mc prints it, one instruction per line, in the
order executed (a trace: a loop appears as many times as it ran); a
comment "# taken" after a branch says the branch was taken. Output, per
file: "FILE cycles N insns M generic G" (G: instructions of a kind the
model does not know, modelled as one-cycle ALU instructions reading every
register operand and writing the last).

The method, one instruction after the other (t: the cycle it issues):
  - single issue, in order: t >= t_prev + occupancy of the previous
    instruction; occupancy is 1 cycle, 2 for a read-modify-write of memory
    (ALU operation with a memory destination), for CALL and RET, and for a
    taken branch (one bubble), 4 for MUL/IMUL/DIV, 6 for REP string
    operations and INT;
  - a register an instruction reads as data must be ready at t;
  - a register used in a memory operand's address must be ready at t - 1
    (the address is formed one stage before execution): a register
    written by the instruction just before is an address-generation
    interlock (AGI) of one cycle, as on the Pentium;
  - results are ready 1 cycle after issue (t + 1), 2 when the value comes
    from memory (a load: MOV/MOVZX/POP from memory, or an ALU operation
    with a memory source: one load-use delay), 4 for MUL/IMUL;
  - ESP's implicit updates by PUSH, POP, CALL and RET are ready at once
    (a stack engine); flags are not tracked (every flag consumer here
    follows its producer by at least one instruction);
  - memory: every access hits, no store-to-load dependencies;
  - %al, %ah, %ax are %eax for dependencies; writing a byte or word
    register also reads the whole register; "xor %r, %r" reads nothing.
"""
import re
import sys

REGS = {}
for r in ("eax", "ebx", "ecx", "edx"):
    x = r[1]
    for alias in (r, x + "x", x + "l", x + "h"):
        REGS[alias] = r
for r in ("esi", "edi", "ebp", "esp"):
    REGS[r] = r
    REGS[r[1:]] = r
PARTIAL = {"al", "ah", "bl", "bh", "cl", "ch", "dl", "dh", "ax", "bx", "cx", "dx", "si", "di", "bp", "sp"}

ALU2 = ("add", "adc", "sub", "sbb", "and", "or", "xor", "shl", "shr", "sar", "sal", "rol", "ror",
        "rcl", "rcr", "shld", "shrd")
ALU1 = ("inc", "dec", "neg", "not", "bswap")
MOVE = ("mov", "movz", "movs", "lea", "set", "cmov")
COMPARE = ("cmp", "test", "bt")


def split_operands(text):
    ops, depth, cur = [], 0, ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            ops.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        ops.append(cur.strip())
    return ops


def regs_in(text):
    return [m for m in re.findall(r"%([a-z]+)", text) if m in REGS]


class Op:
    def __init__(self, text):
        self.text = text.lstrip("*")
        self.mem = "(" in self.text or (not self.text.startswith("%") and not self.text.startswith("$"))
        if self.text.startswith("%") and ":" not in self.text:
            self.mem = False
        self.imm = self.text.startswith("$")
        self.raw = None
        if self.mem:
            inner = self.text[self.text.find("("):] if "(" in self.text else ""
            self.addr = [REGS[r] for r in regs_in(inner)]
            self.reg = None
        else:
            self.addr = []
            rs = regs_in(self.text)
            self.raw = rs[0] if rs and not self.imm else None
            self.reg = REGS[self.raw] if self.raw else None


def base_mnemonic(m):
    for family in ALU2 + ALU1 + MOVE + COMPARE + ("push", "pop", "mul", "imul", "div", "idiv", "xchg"):
        if m.startswith(family):
            rest = m[len(family):]
            if family == "movs" and rest in ("l", "b", "w"):
                return "string"        # movsl: the string move, not MOVSX
            if family in ("set", "cmov") or rest in ("", "b", "w", "l", "bl", "bw", "wl"):
                return family
    return m


def model(lines):
    ready = {r: 0 for r in ("eax", "ebx", "ecx", "edx", "esi", "edi", "ebp", "esp")}
    t = 0          # issue cycle of the last instruction
    occ = 0        # its occupancy
    n = generic = 0
    prefix = ""
    for raw in lines:
        line = raw.split("#", 1)
        taken = len(line) > 1 and "taken" in line[1]
        line = line[0].strip()
        if not line or line.startswith(".") or line.endswith(":"):
            continue
        parts = line.split(None, 1)
        mnem = parts[0]
        rest = parts[1] if len(parts) > 1 else ""
        if mnem in ("rep", "repe", "repne", "lock"):
            prefix = mnem
            if not rest:
                continue
            parts = rest.split(None, 1)
            mnem = parts[0]
            rest = parts[1] if len(parts) > 1 else ""
        ops = [Op(o) for o in split_operands(rest)]
        fam = base_mnemonic(mnem)
        reads, writes, addr = set(), set(), set()
        lat, cost, load = 1, 1, False
        for o in ops:
            addr.update(o.addr)
        dst = ops[-1] if ops else None
        srcs = ops[:-1]
        if fam in ALU2 or fam in ("imul",) and len(ops) >= 2:
            if fam == "xor" and len(ops) == 2 and ops[0].reg and ops[0].text == ops[1].text:
                writes.add(ops[1].reg)
            else:
                for o in ops:
                    if o.reg:
                        reads.add(o.reg)
                if fam == "imul" and len(ops) == 3:
                    reads.discard(dst.reg)
                if dst.reg:
                    writes.add(dst.reg)
            load = any(o.mem for o in srcs)
            if dst.mem:
                cost = 2
            if fam == "imul":
                lat, cost = 4, 4
        elif fam in ALU1:
            if dst.reg:
                reads.add(dst.reg)
                writes.add(dst.reg)
            elif dst.mem:
                cost = 2
        elif fam in MOVE:
            for o in srcs:
                if o.reg:
                    reads.add(o.reg)
            if fam == "cmov" and dst.reg:
                reads.add(dst.reg)
            if dst.reg:
                writes.add(dst.reg)
                if dst.raw in PARTIAL:
                    reads.add(dst.reg)
            load = fam != "lea" and any(o.mem for o in srcs)
            if fam == "lea":
                addr = set()
                for o in srcs:
                    reads.update(o.addr)
        elif fam in COMPARE:
            for o in ops:
                if o.reg:
                    reads.add(o.reg)
        elif fam == "push":
            if dst.reg:
                reads.add(dst.reg)
        elif fam == "pop":
            if dst.reg:
                writes.add(dst.reg)
            load = True
        elif fam == "xchg":
            for o in ops:
                if o.reg:
                    reads.add(o.reg)
                    writes.add(o.reg)
            cost = 2 if any(o.mem for o in ops) else 1
        elif fam in ("mul", "div", "idiv") or (fam == "imul" and len(ops) == 1):
            reads.update({"eax", "edx"} if fam in ("div", "idiv") else {"eax"})
            if dst.reg:
                reads.add(dst.reg)
            writes.update({"eax", "edx"})
            lat, cost = 4, 4
        elif fam == "string" or prefix:
            reads.update({"esi", "edi", "ecx"})
            writes.update({"esi", "edi", "ecx"})
            cost = 6
        elif mnem.startswith("j") or mnem.startswith("call") or mnem.startswith("ret") or mnem.startswith("loop"):
            if mnem.startswith("call") or mnem.startswith("ret"):
                cost = 2
            elif taken:
                cost = 2
            for o in ops:
                if o.reg:
                    reads.add(o.reg)
        elif mnem in ("cld", "std", "nop", "pushfl", "popfl", "clc", "stc", "cltd", "cdq"):
            if mnem in ("cltd", "cdq"):
                reads.add("eax")
                writes.add("edx")
        elif mnem == "int":
            cost = 6
        else:
            generic += 1
            for o in ops:
                if o.reg:
                    reads.add(o.reg)
            if dst is not None and dst.reg:
                writes.add(dst.reg)
        if load and lat == 1:
            lat = 2
        start = t + occ if n else 0
        for r in reads:
            if r != "esp" or fam not in ("push", "pop"):
                start = max(start, ready[r])
        for r in addr:
            if r == "esp":
                continue
            start = max(start, ready[r] + 1)
        for r in writes:
            ready[r] = start + lat
        t, occ, n = start, cost, n + 1
        prefix = ""
    return (t + occ if n else 0), n, generic


def main(argv):
    if len(argv) < 2:
        print("usage: inorder-model.py FILE.s...", file=sys.stderr)
        return 2
    for path in argv[1:]:
        with open(path) as f:
            cycles, n, generic = model(f)
        print(f"{path} cycles {cycles} insns {n} generic {generic}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
