#!/bin/bash
# The flat image (build/cryptoqual.bin, what a boot loader copies and the
# kernel hashes) against the ceiling of 192 KiB (196608 bytes). It
# prints the size, what is left, and the sections; above the budget it fails
# and lists the largest symbols, so a failure shows where to cut (README,
# "Performance", says how the image got under it).
# Env: CQ_BUILD (build dir, default "build"), CQ_IMAGE_BUDGET (bytes,
# default 196608).
set -u
build=${CQ_BUILD:-build}
budget=${CQ_IMAGE_BUDGET:-196608}
bin=$build/cryptoqual.bin
elf=$build/cryptoqual.elf
echo "TAP version 13"
if [ ! -f "$bin" ] || [ ! -f "$elf" ]; then
	echo "1..0 # SKIP $bin not built (make kernel)"
	exit 0
fi
echo "1..1"
size=$(stat -c %s "$bin")
echo "# $bin: $size bytes; budget $budget ($((budget - size)) left)"
i686-linux-gnu-size -A "$elf" 2>/dev/null | awk '$1 ~ /^\.(text|text_cpufeat|rodata|data)$/ { printf "#   %-14s %7d\n", $1, $2 }'
if [ "$size" -le "$budget" ]; then
	echo "ok 1 - image size $size <= $budget bytes (the image ceiling)"
else
	echo "not ok 1 - image size $size <= $budget bytes (the image ceiling): over by $((size - budget)) bytes"
	i686-linux-gnu-nm --size-sort -S -r "$elf" 2>/dev/null | awk '$3 !~ /^[bB]$/' | head -12 |
		while read -r addr sz type name; do printf '#   %6d %s %s\n' "$((16#$sz))" "$type" "$name"; done
fi
