#!/bin/sh
# The AES-NI engine and the RDRAND/RDSEED sources on this host's CPU:
# runs build/host/aesni_test (tests/drivers/aesni/test_aesni.c, built by `make tools`
# through mk/aesni.mk), which prints its own TAP and skips the AES part
# when the CPU has no AES-NI.
CQ_BUILD=${CQ_BUILD:-build}
prog="$CQ_BUILD/host/aesni_test"
if [ ! -x "$prog" ]; then
	echo "TAP version 13"
	echo "not ok 1 - $prog exists (run make tools)"
	echo "1..1"
	exit 1
fi
exec "$prog"
