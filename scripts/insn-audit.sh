#!/bin/sh
# Instruction audit of a kernel image (or any i386 object): the image must
# run on i586-class CPUs, so outside the .text_cpufeat section (code that
# runs only after CPUID says its feature exists, see kernel/platform/cpufeat.h) it
# must contain none of:
#   - long/hint NOPs: opcodes 0F 18-1F (nopl/nopw with operands, endbr32,
#     prefetch hints): the Geode LX raises #UD on them;
#   - CMOVcc, FCMOVcc, FCOMI/FUCOMI (P6: a Pentium has none);
#   - MMX, SSE, AVX registers or instructions, AES-NI, PCLMULQDQ, SHA-NI,
#     RDRAND, RDSEED.
#
#   scripts/insn-audit.sh FILE...
# Prints each offending instruction with its section and function, and exits
# 1 if there was any, 0 if none, 2 on a usage or tool error.
set -u
OBJDUMP=${OBJDUMP:-i686-linux-gnu-objdump}
[ $# -ge 1 ] || { echo "usage: insn-audit.sh FILE..." >&2; exit 2; }
command -v "$OBJDUMP" >/dev/null 2>&1 || { echo "insn-audit: $OBJDUMP not found" >&2; exit 2; }
status=0
for f in "$@"; do
	out=$("$OBJDUMP" -d -w "$f" 2>&1) || { echo "insn-audit: $OBJDUMP failed on $f: $out" >&2; exit 2; }
	printf '%s\n' "$out" | awk -v file="$f" '
	/^Disassembly of section / { sec = $4; sub(/:$/, "", sec); next }
	/^[0-9a-f]+ <.*>:$/ { fn = $2; next }
	/^ *[0-9a-f]+:\t/ {
		if (sec ~ /^\.text_cpufeat/) next
		n = split($0, part, "\t")
		if (n < 3) next      # continuation line of a long instruction
		bytes = part[2]; insn = part[3]
		# Skip prefixes (66 67 f2 f3 2e 36 3e 26 64 65 f0) to find the opcode.
		m = split(bytes, b, " ")
		i = 1
		while (i <= m && b[i] ~ /^(66|67|f2|f3|2e|36|3e|26|64|65|f0)$/) i++
		why = ""
		if (b[i] == "0f" && b[i+1] ~ /^1[89a-f]$/) why = "long or hint NOP (0F " b[i+1] ")"
		else if (insn ~ /^(cmov|fcmov|fcomi|fucomi)/) why = "P6 instruction"
		else if (insn ~ /%(x|y|z)mm[0-9]/) why = "SSE/AVX register"
		else if (insn ~ /%mm[0-7]/) why = "MMX register"
		else if (insn ~ /^(aes|pclmul|sha1|sha256|rdrand|rdseed|v[a-z]|ldmxcsr|stmxcsr|fxsave|fxrstor|movnti|lfence|mfence|sfence|clflush|emms)/) why = "post-i586 instruction"
		if (why != "") {
			printf "%s: %s in %s %s: %s  [%s]\n", file, why, sec, fn, insn, bytes
			bad = 1
		}
	}
	END { exit bad }' || status=1
done
exit $status
