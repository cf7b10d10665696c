#!/bin/sh
# The AES-NI engine and the RDRAND/RDSEED sources built for i386 (the code
# generation the kernel uses: 8 XMM registers, 32-bit counters), run under
# qemu-i386 -cpu max, whose CPU model has AES-NI and RDRAND. Runs
# build/i386/aesni_test (tests/drivers/aesni/aesni_test.c via mk/aesni.mk).
CQ_BUILD=${CQ_BUILD:-build}
prog="$CQ_BUILD/i386/aesni_test"
if ! command -v qemu-i386 >/dev/null 2>&1; then
	echo "1..0 # SKIP qemu-i386 (qemu-user) is not installed"
	exit 0
fi
if [ ! -x "$prog" ]; then
	echo "TAP version 13"
	echo "not ok 1 - $prog exists (run make tools)"
	echo "1..1"
	exit 1
fi
exec qemu-i386 -cpu max -L /usr/i686-linux-gnu "$prog"
