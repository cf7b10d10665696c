#!/bin/bash
# The kernel build of lib/crypto/aes.c is plain i586 code: no CMOV (a Pentium and
# the Geode LX's original i586 core lack it), no SSE register, no long NOP
# (nopl, absent on the Geode LX). Reads the object `make kernel` built.
# Env: CQ_BUILD (build dir, default "build").
set -u
build=${CQ_BUILD:-build}
echo "TAP version 13"
objdump=i686-linux-gnu-objdump
for obj in "$build/kernel/lib/crypto/aes.c.o"; do
	if [ ! -f "$obj" ]; then
		echo "1..0 # SKIP $obj not built (make kernel)"
		exit 0
	fi
done
echo "1..2"
dis=$($objdump -d "$build/kernel/lib/crypto/aes.c.o" 2>&1)
if echo "$dis" | grep -q '<aes_cbc_encrypt>:'; then
	echo "ok 1 - aes.c.o disassembles"
else
	echo "not ok 1 - aes.c.o disassembles"
fi
bad=$(echo "$dis" | grep -E '\b(cmov[a-z]*|nopl|nopw)\b|%xmm|%ymm|%mm[0-7]')
if [ -z "$bad" ]; then
	echo "ok 2 - no cmov, nopl or SSE/MMX registers"
else
	echo "not ok 2 - no cmov, nopl or SSE/MMX registers"
	echo "$bad" | head -5 | sed 's/^/# /'
fi
