#!/bin/sh
# The AES-NI engine and the RDRAND/RDSEED sources built for i386 (the code
# generation the kernel uses: 8 XMM registers, 32-bit counters), run under
# qemu-i386 -cpu max, whose CPU model has AES-NI and RDRAND. Runs
# build/i386/aesni_test (tests/drivers/aesni/test_aesni.c via mk/aesni.mk).
. tests/tap-lib.sh
prog="$CQ_BUILD/i386/aesni_test"
need_qemu_i386
need_program "$prog"
exec qemu-i386 -cpu max -L /usr/i686-linux-gnu "$prog"
