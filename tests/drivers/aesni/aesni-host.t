#!/bin/sh
# The AES-NI engine and the RDRAND/RDSEED sources on this host's CPU:
# runs build/host/aesni_test (tests/drivers/aesni/test_aesni.c, built by `make tools`
# through mk/aesni.mk), which prints its own TAP and skips the AES part
# when the CPU has no AES-NI.
. tests/tap-lib.sh
prog="$CQ_BUILD/host/aesni_test"
if [ ! -x "$prog" ]; then
	tap_begin
	need_program "$prog"
fi
exec "$prog"
