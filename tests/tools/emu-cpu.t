#!/bin/bash
# scripts/emu-cpu.sh and `make run MACHINE=...` (mk/emu.mk): the profiles
# it knows are the kernel's (emu/emu_profiles.c), each maps to its
# QEMU CPU, and an unknown name stops `make run` at once with the list,
# before any build (no make, compiler or QEMU work is done).
. tests/tap-lib.sh
tap_tmpdir
tap_begin

list=$(scripts/emu-cpu.sh --list)
kernel=$(sed -n 's/^\t{ "\([a-z0-9]*\)", .*/\1/p' emu/emu_profiles.c | tr '\n' ' ' | sed 's/ $//')
[ -n "$list" ] && [ "$list" = "$kernel" ]
ok $? "emu-cpu.sh --list names the kernel's profiles, in its order ($list)" "kernel: $kernel"

want="net5501=pentium,+cmov alix=pentium,+cmov c7=qemu32 nano=qemu32,+pni,+ssse3 nehemiah=qemu32 zhaoxin=max samuel2=pentium ivybridge=max"
bad=""
for pair in $want; do
	[ "$(scripts/emu-cpu.sh "${pair%%=*}")" = "${pair#*=}" ] || bad="$bad $pair"
done
[ -z "$bad" ]; ok $? "every profile maps to its QEMU CPU" "wrong:$bad"

scripts/emu-cpu.sh net5510 > "$tmp/out" 2> "$tmp/err"
st=$?
[ $st -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q "no emulated machine profile 'net5510' (profiles: $list)" "$tmp/err"
ok $? "an unknown name is exit 2, no CPU printed, the profiles on stderr" "status $st" "$(cat "$tmp/out" "$tmp/err")"

# --debug=b: make says when it has read its makefiles and starts on targets;
# "at once" is measured in what make did, not in the shared host's seconds.
make --no-print-directory --debug=b run MACHINE=typo BUILD="$tmp/build" > "$tmp/out" 2>&1
st=$?
[ $st -ne 0 ] && grep -q "MACHINE=typo is not an emulated machine profile; the profiles: $list" "$tmp/out"
ok $? "make run MACHINE=typo fails with the list of profiles (exit $st)" "$(head -5 "$tmp/out")"
grep -q '^Reading makefiles' "$tmp/out" && ! grep -qE '^(Updating|Considering|Must remake|Prerequisite)' "$tmp/out"
ok $? "... at once: while make reads its makefiles, before it considers any target" "$(head -12 "$tmp/out")"
[ ! -e "$tmp/build" ] && ! grep -q "install-deps\|CC \|qemu" "$tmp/out"
ok $? "... before building or booting anything" "$(ls "$tmp/build" 2>/dev/null | head -3)" "$(head -3 "$tmp/out")"
make --no-print-directory run MACHINE=net5501 FAULT=dma-timout BUILD="$tmp/build" > "$tmp/out" 2>&1
st=$?
[ $st -ne 0 ] && grep -q "FAULT=dma-timout is not a fault of profile net5501's models; its faults: dma-timeout " "$tmp/out" &&
	[ ! -e "$tmp/build" ] && ! grep -q "install-deps\|CC \|qemu" "$tmp/out"
ok $? "make run FAULT=typo fails with the profile's faults, before building or booting anything" "$(head -3 "$tmp/out")"
make --no-print-directory run FAULT=dma-timeout BUILD="$tmp/build" > "$tmp/out" 2>&1
st=$?
[ $st -ne 0 ] && grep -q "FAULT=dma-timeout needs MACHINE=: faults are injected into an emulated machine's models" "$tmp/out" &&
	[ ! -e "$tmp/build" ] && ! grep -q "install-deps\|CC \|qemu" "$tmp/out"
ok $? "make run FAULT= without MACHINE= stops before building or booting the release image as healthy" "$(head -3 "$tmp/out")"
scripts/emu-cpu.sh --faults c7 | grep -qw rng-stuck && [ -z "$(scripts/emu-cpu.sh --faults ivybridge)" ] &&
	! scripts/emu-cpu.sh --faults typo 2>/dev/null
ok $? "emu-cpu.sh --faults: a profile's model faults, none without models, an unknown profile is an error"
make --no-print-directory -n run MACHINE=c7 FAULT=rng-stuck-from-pass-2 BUILD="$tmp/build" > "$tmp/out" 2>&1
grep -q "emulate=c7,fault=rng-stuck-from-pass-2" "$tmp/out"
ok $? "make run FAULT=NAME-from-pass-N: a fault of the profile that waits for soak pass N is taken" "$(tail -3 "$tmp/out")"
make --no-print-directory -n run MACHINE=c7 FAULT=rng-stuk-from-pass-2 BUILD="$tmp/build" > "$tmp/out" 2>&1
[ $? -ne 0 ] && grep -q "FAULT=rng-stuk-from-pass-2 is not a fault of profile c7's models" "$tmp/out"
ok $? "... and a typo in its fault's name stops make run as any FAULT= typo does" "$(head -3 "$tmp/out")"
make --no-print-directory -n run MACHINE=alix BUILD="$tmp/build" > "$tmp/out" 2>&1
grep -q "boot-qemu.sh --cpu 'pentium,+cmov' --icount .*emulate=alix" "$tmp/out"
ok $? "make -n run MACHINE=alix still boots the emulation image on pentium,+cmov" "$(tail -3 "$tmp/out")"

tap_end
