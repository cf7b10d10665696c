#!/bin/bash
# The vector-permute AES (drivers/vperm) keeps its data out of addresses
# and branches, the property that makes it constant-time: in the kernel's
# object, the cipher (vp_crypt_asm and its mode loops, the vp_ labels of
# .text_cpufeat) moves nothing from an XMM register to a general register
# (no MOVD/MOVQ out, PEXTR*, PMOVMSKB, MOVMSKP*), so no address or branch
# can depend on the data; its memory operands use only the frame (%esp,
# %ebp), the buffer pointers (%esi, %edi, the IV pointer %ecx) and the key
# schedule (%edx with the round index %ecx), or a fixed table address; and
# it lives in .text_cpufeat.
# Env: CQ_BUILD (build dir, default "build").
set -u
. tests/tap-lib.sh
obj="$CQ_BUILD/kernel/drivers/vperm/vperm.c.o"
tap_begin
[ -f "$obj" ] || tap_skip_all "$obj not built (make kernel)"
dis=$(i686-linux-gnu-objdump -d -w --no-show-raw-insn "$obj" | awk '
	/^Disassembly of section / { sec = $4; next }
	/^[0-9a-f]+ <.*>:$/ { on = (sec == ".text_cpufeat:" && $2 ~ /^<vp_/); next }
	on && /^ *[0-9a-f]+:/ { sub(/^ *[0-9a-f]+:[ \t]*/, ""); print }')
sec=$(i686-linux-gnu-objdump -t "$obj" | awk '$NF == "vp_crypt_asm" { print $(NF - 2) }')
[ -n "$dis" ] && [ "$sec" = .text_cpufeat ]
ok $? "vp_crypt_asm is in the object, in .text_cpufeat ($(printf '%s\n' "$dis" | grep -c .) instructions)" \
	"section: ${sec:-none}"
out=$(printf '%s\n' "$dis" | grep -E '^(movd|movq|pextr[bwdq]|pmovmskb|movmskp[sd]|cvt[a-z]*2si)[ \t]+%xmm[0-7],')
[ -z "$out" ]
ok $? "no instruction moves data from an XMM register to a general register" "$out"
# Registers inside memory operands: "(...)" groups; the one jump through
# the table of mode loops, indexed by the operation, is not data.
bad=$(printf '%s\n' "$dis" | grep -vE '^jmp +\*[^ ]*\(,%eax,4\)$' | grep -oE '\([^)]*\)' | grep -E '%e(ax|bx)' | sort -u)
[ -z "$bad" ]
ok $? "no memory operand is addressed through %eax or %ebx (the counter and the block count)" "$bad"
tap_end
