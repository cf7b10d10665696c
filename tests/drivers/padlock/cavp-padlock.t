#!/bin/bash
# `cavp --engine padlock-ace` over every ECB, CBC, CFB128 and OFB file of
# $CQ_SHARED/data/cavp/aes, once per emulated CPU (C3 Nehemiah, C7 Esther,
# Nano Isaiah, Zhaoxin KX-7000): build/i386/cavp-padlock (mk/padlock.mk) is tools/host/cavp.c
# with the PadLock driver and the instruction emulator, run under qemu-i386.
# Negative controls: with the driver's key reload or page-tail bounce
# switched off (CQ_PADLOCK_QUIRKS) the files must fail, and a CPU without
# PadLock has no padlock-ace engine.
. tests/tap-lib.sh
tool="${CQ_BUILD:-build}/i386/cavp-padlock"
shared="${CQ_SHARED:-../shared}"
dir="$shared/data/cavp/aes"
export CQ_SHARED="$shared"

tap_begin
need_qemu_i386
if ! ls "$dir"/ECB*.rsp >/dev/null 2>&1 || [ ! -d "$shared/data/cpuid" ]; then
	tap_skip_all "no CAVP AES files in $dir or no CPUID dumps"
fi
need_program "$tool"
run() { CQ_PADLOCK_PROFILE="$1" qemu-i386 -L /usr/i686-linux-gnu "$tool" --engine padlock-ace "${@:2}"; }


profiles="nehemiah esther isaiah zhaoxin"
modes="ECB CBC CFB128 OFB"
echo "1..$((4 * 4 + 4))"

# Per CPU and mode: every file (GFSbox, KeySbox, VarKey, VarTxt, MMT, MCT
# when present; 128/192/256) exits 0 and each line says "N passed, 0 failed".
for p in $profiles; do
	for m in $modes; do
		files=$(ls "$dir/$m"*.rsp | grep -E "/$m(GFSbox|KeySbox|VarKey|VarTxt|MMT|MCT)(128|192|256)\.rsp$")
		nf=$(printf '%s\n' $files | wc -l)
		out=$(run "$p" $files 2>&1)
		rc=$?
		good=$(printf '%s\n' "$out" | grep -cE ': [1-9][0-9]* passed, 0 failed$')
		records=$(printf '%s\n' "$out" | awk '/ passed, 0 failed$/ { sub(/.*: /, ""); s += $1 } END { print s + 0 }')
		[ $rc -eq 0 ] && [ "$good" -eq "$nf" ] && [ "$nf" -ge 15 ]
		ok $? "$p: padlock-ace passes all $nf $m files ($records records)" "exit $rc" "$out"
	done
done

# Negative controls: the handling switched off must break the files.
out=$(CQ_PADLOCK_QUIRKS=no_reload run esther "$dir/CBCVarKey256.rsp" 2>&1)
rc=$?
[ $rc -eq 1 ] && printf '%s\n' "$out" | grep -qE ': [0-9]+ passed, [1-9][0-9]* failed$'
ok $? "esther: without the key reload (no_reload) CBCVarKey256.rsp fails" "exit $rc" "$out"

out=$(CQ_PADLOCK_QUIRKS=no_reload run isaiah "$dir/ECBMMT128.rsp" 2>&1)
rc=$?
[ $rc -eq 1 ]
ok $? "isaiah: without the key reload (no_reload) ECBMMT128.rsp fails" "exit $rc" "$out"

# No PadLock: no engine of that name (exit 2 with the message).
out=$(run samuel2 "$dir/ECBGFSbox128.rsp" 2>&1)
rc=$?
[ $rc -eq 2 ] && printf '%s\n' "$out" | grep -q "no AES engine named 'padlock-ace'"
ok $? "samuel2 (no PadLock): no padlock-ace engine" "exit $rc" "$out"

# Unknown profile: refused.
out=$(run pentium "$dir/ECBGFSbox128.rsp" 2>&1)
rc=$?
[ $rc -eq 2 ]
ok $? "an unknown CQ_PADLOCK_PROFILE is refused" "exit $rc" "$out"
exit $((fails > 0))
