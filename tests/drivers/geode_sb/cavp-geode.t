#!/bin/bash
# `cavp --engine geode-sb` on the host: the Geode LX driver against its
# device model (build/i386/cavp-geode, mk/geode.mk) must pass every NIST
# CAVP file of AES-128 ECB and CBC in $CQ_SHARED/data/cavp/aes, must fail
# them when the model corrupts data or ignores the key (CQ_GEODE_FAULT),
# and must refuse a file whose key size the engine does not claim.
. tests/tap-lib.sh
tool="${CQ_BUILD:-build}/i386/cavp-geode"
shared="${CQ_SHARED:-../shared}"
dir="$shared/data/cavp/aes"

tap_begin
need_qemu_i386
files=$(ls "$dir"/ECB*128.rsp "$dir"/CBC*128.rsp 2>/dev/null)
[ -n "$files" ] || tap_skip_all "no AES-128 ECB/CBC CAVP files in $dir"
need_program "$tool"
run() { qemu-i386 -L /usr/i686-linux-gnu "$tool" "$@"; }
unset CQ_GEODE_FAULT


nfiles=$(printf '%s\n' $files | wc -l)
echo "1..$((nfiles + 5))"

# One test per file: exit 0 and "N passed, 0 failed" with N > 0.
for f in $files; do
	out=$(run --engine geode-sb "$f" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -qE "^$(printf '%s' "$f" | sed 's/[.[\*^$]/\\&/g'): [1-9][0-9]* passed, 0 failed$"
	summary=$?
	[ $rc -eq 0 ] && [ $summary -eq 0 ]
	ok $? "geode-sb (model) passes $(basename "$f"): $(printf '%s\n' "$out" | grep -F "$f:" | sed 's/^[^:]*: //')" "exit $rc" "$out"
done

# The engine really ran: the driver's probe lines are there, and it says emulated.
out=$(run --engine geode-sb "$dir/ECBGFSbox128.rsp" 2>&1)
printf '%s\n' "$out" | grep -q '^# geode-sb: 1022:2082 at 00:01.2 BAR0=0xa0000000'
ok $? "the run probed the driver against the model" "$out"

# Faults of the model must make the files fail, with the first mismatch shown.
for fault in wrong-data ignore-key; do
	out=$(CQ_GEODE_FAULT=$fault run --engine geode-sb "$dir/CBCMMT128.rsp" "$dir/ECBVarTxt128.rsp" 2>&1)
	rc=$?
	[ $rc -eq 1 ] && printf '%s\n' "$out" | grep -qE 'CBCMMT128\.rsp: 0 passed, [1-9][0-9]* failed$' &&
		printf '%s\n' "$out" | grep -qE 'ECBVarTxt128\.rsp: 0 passed, 256 failed$'
	ok $? "with the model's $fault fault every record fails (exit $rc)" "$out"
done

# A DMA timeout is an engine error: the tool stops with the driver's reason on record.
out=$(CQ_GEODE_FAULT=dma-timeout run --engine geode-sb "$dir/ECBGFSbox128.rsp" 2>&1)
rc=$?
[ $rc -ne 0 ] && printf '%s\n' "$out" | grep -q 'geode-sb: DMA timeout after [0-9]* cycles (limit [0-9]*'
ok $? "with the model's dma-timeout fault the run fails, naming the timeout (exit $rc)" "$out"

# The engine claims AES-128 only: a 256-bit file is refused.
out=$(run --engine geode-sb "$dir/ECBGFSbox256.rsp" 2>&1)
rc=$?
[ $rc -eq 2 ]
ok $? "a 256-bit file is refused (exit $rc: not claimed)" "$out"

exit $((fails > 0))
