#!/bin/bash
# The kernel build of lib/crypto/aes.c and of its i386 assembly (lib/crypto/aes_i386.c)
# is plain i586 code: no CMOV (a Pentium and the Geode LX's original i586
# core lack it), no SSE register, no long NOP (nopl, absent on the Geode
# LX); and the kernel's lib/crypto/aes.c does call the assembly rounds.
# Reads the objects `make kernel` built.
# Env: CQ_BUILD (build dir, default "build").
set -u
. tests/tap-lib.sh
build=$CQ_BUILD
tap_begin
objdump=i686-linux-gnu-objdump
for obj in "$build/kernel/lib/crypto/aes.c.o" "$build/kernel/lib/crypto/aes_i386.c.o"; do
	[ -f "$obj" ] || tap_skip_all "$obj not built (make kernel)"
done
dis=$($objdump -dr "$build/kernel/lib/crypto/aes.c.o" "$build/kernel/lib/crypto/aes_i386.c.o" 2>&1)
echo "$dis" | grep -q '<aes_cbc_encrypt>:' && echo "$dis" | grep -q '<aes_i386_encrypt>:'
ok $? "aes.c.o and aes_i386.c.o disassemble" "$(echo "$dis" | head -5)"
bad=$(echo "$dis" | grep -E '\b(cmov[a-z]*|nopl|nopw)\b|%xmm|%ymm|%mm[0-7]')
[ -z "$bad" ]
ok $? "no cmov, nopl or SSE/MMX registers" "$(echo "$bad" | head -5)"
for fn in aes_i386_encrypt aes_i386_decrypt; do
	echo "$dis" | grep -q "R_386_PC32[[:space:]]*$fn\$"
	ok $? "the kernel's lib/crypto/aes.c calls $fn"
done
tap_end
