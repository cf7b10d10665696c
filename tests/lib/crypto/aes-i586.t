#!/bin/bash
# The kernel build of lib/crypto/aes.c and of its i386 assembly (lib/crypto/aes_i386.c)
# is plain i586 code: no CMOV (a Pentium and the Geode LX's original i586
# core lack it), no SSE register, no long NOP (nopl, absent on the Geode
# LX); and the kernel's lib/crypto/aes.c does call the assembly (aes_i386_crypt)
# from the block functions and from every mode.
# Reads the objects `make kernel` built.
# Env: CQ_BUILD (build dir, default "build").
set -u
build=${CQ_BUILD:-build}
echo "TAP version 13"
objdump=i686-linux-gnu-objdump
for obj in "$build/kernel/lib/crypto/aes.c.o" "$build/kernel/lib/crypto/aes_i386.c.o"; do
	if [ ! -f "$obj" ]; then
		echo "1..0 # SKIP $obj not built (make kernel)"
		exit 0
	fi
done
echo "1..3"
dis=$($objdump -dr "$build/kernel/lib/crypto/aes.c.o" "$build/kernel/lib/crypto/aes_i386.c.o" 2>&1)
if echo "$dis" | grep -q '<aes_cbc_encrypt>:' && echo "$dis" | grep -q '<aes_i386_crypt>:'; then
	echo "ok 1 - aes.c.o and aes_i386.c.o disassemble"
else
	echo "not ok 1 - aes.c.o and aes_i386.c.o disassemble"
fi
bad=$(echo "$dis" | grep -E '\b(cmov[a-z]*|nopl|nopw)\b|%xmm|%ymm|%mm[0-7]')
if [ -z "$bad" ]; then
	echo "ok 2 - no cmov, nopl or SSE/MMX registers"
else
	echo "not ok 2 - no cmov, nopl or SSE/MMX registers"
	echo "$bad" | head -5 | sed 's/^/# /'
fi
# Each caller of the assembly: the functions of aes.c.o whose body has a
# relocation against aes_i386_crypt.
callers=" $(echo "$dis" | awk '/^[0-9a-f]+ <.*>:$/ { fn = $2; gsub(/[<>:]/, "", fn) }
	/R_386_PC32[[:space:]]+aes_i386_crypt$/ { print fn }' | sort -u | tr '\n' ' ')"
missing=""
for fn in aes_ecb_encrypt aes_ecb_decrypt aes_cbc_encrypt aes_cbc_decrypt aes_cfb128_encrypt \
	aes_cfb128_decrypt aes_ofb aes_ctr aes_encrypt_block aes_decrypt_block; do
	case "$callers" in *" $fn "*) ;; *) missing="$missing $fn" ;; esac
done
if [ -z "$missing" ]; then
	echo "ok 3 - the kernel's lib/crypto/aes.c calls aes_i386_crypt from every mode and block function"
else
	echo "not ok 3 - the kernel's lib/crypto/aes.c calls aes_i386_crypt from every mode and block function"
	echo "# not calling it:$missing"
fi
