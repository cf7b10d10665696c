#!/bin/bash
# The kernel build of lib/crypto/aes.c and of its i386 assembly (lib/crypto/aes_i386.c)
# is plain i586 code: no CMOV (a Pentium and the Geode LX's original i586
# core lack it), no SSE register, no long NOP (nopl, absent on the Geode
# LX); and the kernel's lib/crypto/aes.c does call the assembly (aes_i386_crypt)
# from the block functions and from every mode.
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
echo "$dis" | grep -q '<aes_cbc_encrypt>:' && echo "$dis" | grep -q '<aes_i386_crypt>:'
ok $? "aes.c.o and aes_i386.c.o disassemble" "$(echo "$dis" | head -5)"
bad=$(echo "$dis" | grep -E '\b(cmov[a-z]*|nopl|nopw)\b|%xmm|%ymm|%mm[0-7]')
[ -z "$bad" ]
ok $? "no cmov, nopl or SSE/MMX registers" "$(echo "$bad" | head -5)"
# Each caller of the assembly: the functions of aes.c.o whose body has a
# relocation against aes_i386_crypt.
callers=" $(echo "$dis" | awk '/^[0-9a-f]+ <.*>:$/ { fn = $2; gsub(/[<>:]/, "", fn) }
	/R_386_PC32[[:space:]]+aes_i386_crypt$/ { print fn }' | sort -u | tr '\n' ' ')"
missing=""
for fn in aes_ecb_encrypt aes_ecb_decrypt aes_cbc_encrypt aes_cbc_decrypt aes_cfb128_encrypt \
	aes_cfb128_decrypt aes_ofb aes_ctr aes_encrypt_block aes_decrypt_block; do
	case "$callers" in *" $fn "*) ;; *) missing="$missing $fn" ;; esac
done
[ -z "$missing" ]
ok $? "the kernel's lib/crypto/aes.c calls aes_i386_crypt from every mode and block function" \
	"not calling it:$missing"
tap_end
