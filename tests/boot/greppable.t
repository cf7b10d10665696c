#!/bin/bash
# Boot test: every line the image prints is found by a grep of the source.
# Boots the emulation image on every machine profile (benchmarks on) and
# with every fault of every profile (bench=off), plus the real-hardware
# image with a fault inside a test and with a malformed command line, then
# runs tests/tools/greppable.py over each serial log: each printed line,
# its arguments masked, must sit in one whole source string (the script's
# docstring says how lines and literals are compared).
. tests/boot/emu-lib.sh
emu_start
REAL_KERNEL="$CQ_BUILD/cryptoqual.elf"

# grep_boot NAME: checks $BOOT_LOG, then drops it.
grep_boot() {
	name=$1
	tail -n 1 "$BOOT_LOG" | grep -q '^# cryptoqual: \(PASS\|FAIL\)'
	ok $? "$name: the boot ends with a verdict ($BOOT_VERDICT)"
	if out=$(python3 tests/tools/greppable.py "$BOOT_LOG" 2>&1); then
		ok 0 "$name: every printed line is in one source string (${out##*$'\n'})"
	else
		ok 1 "$name: every printed line is in one source string"
		echo "$out" | sed "s|$BOOT_LOG|$name|; s/^/# /"
	fi
	drop_log
}

# (emu_boot sets $profile and $label: the loop uses its own names.)
for machine in $(scripts/emu-cpu.sh --list); do
	emu_boot "$machine" "$machine"
	grep_boot "$machine"
	for f in $(scripts/emu-cpu.sh --faults "$machine"); do
		emu_boot "$machine,fault=$f" "$machine,fault=$f" bench=off
		grep_boot "$machine-$f"
	done
done

CQ_KERNEL=$REAL_KERNEL
boot "fault-in-test" --cpu pentium,+cmov --timeout 240 -- selftest=fault-in-test bench=off
grep_boot "fault-in-test"
boot "bad-cmdline" --cpu pentium,+cmov --timeout 240 -- bench=sometimes rng_bytes=12x 'seed=a b' bench=off
grep_boot "bad-cmdline"
finish
