#!/bin/bash
# The flat image (build/cryptoqual.bin, what a boot loader copies and the
# kernel hashes) against the ceiling of 192 KiB (196608 bytes). It
# prints the size, what is left, and the sections; above the budget it fails
# and lists the largest symbols, so a failure shows where to cut (README,
# "Performance", says how the image got under it).
# Env: CQ_BUILD (build dir, default "build"), CQ_IMAGE_BUDGET (bytes,
# default 196608).
set -u
. tests/tap-lib.sh
build=$CQ_BUILD
budget=${CQ_IMAGE_BUDGET:-196608}
bin=$build/cryptoqual.bin
elf=$build/cryptoqual.elf
tap_begin
[ -f "$bin" ] && [ -f "$elf" ] || tap_skip_all "$bin not built (make kernel)"
size=$(stat -c %s "$bin")
echo "# $bin: $size bytes; budget $budget ($((budget - size)) left)"
i686-linux-gnu-size -A "$elf" 2>/dev/null | awk '$1 ~ /^\.(text|text_cpufeat|rodata|data)$/ { printf "#   %-14s %7d\n", $1, $2 }'
[ "$size" -le "$budget" ]
ok $? "image size $size <= $budget bytes (the image ceiling)" "over by $((size - budget)) bytes; the largest symbols:" \
	"$(i686-linux-gnu-nm --size-sort -S -r "$elf" 2>/dev/null | awk '$3 !~ /^[bB]$/' | head -12 |
		while read -r addr sz type name; do printf '%6d %s %s\n' "$((16#$sz))" "$type" "$name"; done)"
tap_end
