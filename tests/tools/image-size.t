#!/bin/bash
# The flat image (build/cryptoqual.bin, what a boot loader copies and the
# kernel hashes) against two budgets, printing the size and the largest
# sections and symbols so a failure shows where to cut:
# 1. a hard ceiling of 160 KiB (163840 bytes): a regression guard that
#    fails the build;
# 2. issue 17's target of 128 KiB (131072 bytes), reported as a TAP TODO
#    while it is not met: the fleet report, the Geode and PadLock verdict
#    work and the exception/watchdog proofs (issues 13, 14, 15, 18) took
#    the image past it after the cuts of issue 17 (docs: README
#    "Performance"). The TODO goes when the target holds again.
# Env: CQ_BUILD (build dir, default "build"), CQ_IMAGE_BUDGET (the target,
# bytes, default 131072), CQ_IMAGE_CEILING (the hard limit, default 163840).
set -u
build=${CQ_BUILD:-build}
budget=${CQ_IMAGE_BUDGET:-131072}
ceiling=${CQ_IMAGE_CEILING:-163840}
bin=$build/cryptoqual.bin
elf=$build/cryptoqual.elf
echo "TAP version 13"
if [ ! -f "$bin" ] || [ ! -f "$elf" ]; then
	echo "1..0 # SKIP $bin not built (make kernel)"
	exit 0
fi
echo "1..2"
size=$(stat -c %s "$bin")
echo "# $bin: $size bytes; target $budget ($((budget - size)) left), ceiling $ceiling ($((ceiling - size)) left)"
i686-linux-gnu-size -A "$elf" 2>/dev/null | awk '$1 ~ /^\.(text|text_cpufeat|rodata|data)$/ { printf "#   %-14s %7d\n", $1, $2 }'
largest() {
	i686-linux-gnu-nm --size-sort -S -r "$elf" 2>/dev/null | awk '$3 !~ /^[bB]$/' | head -12 |
		while read -r addr sz type name; do printf '#   %6d %s %s\n' "$((16#$sz))" "$type" "$name"; done
}
if [ "$size" -le "$ceiling" ]; then
	echo "ok 1 - image size $size <= $ceiling bytes (the hard ceiling)"
else
	echo "not ok 1 - image size $size <= $ceiling bytes (the hard ceiling)"
	largest
fi
if [ "$size" -le "$budget" ]; then
	echo "ok 2 - image size $size <= $budget bytes (issue 17's target)"
else
	echo "not ok 2 - image size $size <= $budget bytes (issue 17's target) # TODO issue 17 item 5: over by $((size - budget)) bytes"
	largest
fi
