#!/bin/bash
# Boot test: the serial budget: a default run on the emulated
# net5501 prints at most 33 KiB (32 KiB until every box also named the
# vector-permute engine's unit, README "Serial line time"), on the emulated
# C7 at most 40 KiB. The
# bytes are measured as they leave the UART (CR LF line ends) and printed,
# with the time they take at 19200 and 38400 baud (8N1: 10 bits a byte).
# What keeps it there (docs/report-format.md): one @cipher/@hash record
# per table row, the per-statistic lines of an RNG source characterised
# for information, the cycles-per-byte and spread grids and the cost table
# only with `verbose`, and bench=quick's scope (AES-128, AES-256 in CBC).
# Also: the last 24 lines of a dma-timeout run name the failing engine and
# its failing tests.
. tests/boot/emu-lib.sh
emu_start

raw=$(mktemp)
trap 'rm -f "$raw"' EXIT
for spec in net5501:33792 c7:40960; do
	m=${spec%%:*}; budget=${spec#*:}
	emu_boot "$m" "$m"
	expect_status 0 "$m: the default run passes"
	# The log as it left the UART: the kernel writes CR LF.
	bytes=$(( $(wc -c < "$BOOT_LOG") + $(grep -c '' "$BOOT_LOG") ))
	diag "$m: $bytes bytes ($(( bytes / 1024 )) KiB): $(( bytes / 1920 )) s at 19200 baud, $(( bytes / 3840 )) s at 38400"
	[ "$bytes" -le "$budget" ]; ok $? "$m: the default report fits $((budget / 1024)) KiB ($bytes bytes, $((budget - bytes)) to spare)"
	# One record per table row: as many @cipher records as AES table rows.
	rows=$(sed -n '/^# bench: AES.*1000s of bytes per second/,/^ok [0-9]* - bench: cipher/p' "$BOOT_LOG" | grep -cE '^# [a-z0-9-]+:aes-')
	recs=$(grep -c '^# @cipher ' "$BOOT_LOG")
	[ "$rows" -gt 0 ] && [ "$rows" -eq "$recs" ]; ok $? "$m: one @cipher record per AES table row ($recs records, $rows rows)"
	! grep -q ' \[information\]$' "$BOOT_LOG"; ok $? "$m: no per-statistic information lines without verbose"
	! grep -qE '^# bench: .*(cycles per byte|spread of the)' "$BOOT_LOG"
	ok $? "$m: no cycles-per-byte or spread grid without verbose"
	! grep -q '^# bench: cost model' "$BOOT_LOG"; ok $? "$m: no cost table without verbose (the @cost records stay)"
	expect_line '^# @cost ' "$m: the @cost records are there"
	expect_line '^# bench: AES.*1000s of bytes per second' "$m: the throughput table is there"
	emu_done
done

# With verbose, a source characterised for information shows each statistic.
emu_boot "net5501-verbose" "net5501" verbose bench=off
expect_status 0 "net5501 verbose: the run passes"
n=$(grep -cE '^# rng: geode-trng/tsel0 [a-z0-9-]+: (within|outside) its bound .* \[information\]$' "$BOOT_LOG")
[ "$n" -eq 13 ]; ok $? "net5501 verbose: T_SEL 0's 13 statistics each on an information line ($n)"
emu_done

emu_boot "dma-timeout" "net5501,fault=dma-timeout"
expect_status 1 "dma-timeout: the run fails"
# A KAT's name leaves its vector sources out; a failing one names them.
expect_line '^#   vectors: FIPS-197 C\.1, SP 800-38A F\.1\.1$' "dma-timeout: the failing ECB encrypt KAT names its vector sources"
tail -n 24 "$BOOT_LOG" > "$raw"
grep -qE '^# summary: geode-sb +[0-9]+/[0-9]+ .* FAIL$' "$raw"; ok $? "dma-timeout: the last 24 lines have geode-sb's row, FAIL"
grep -qE '^# summary:   in not ok [0-9]+ - geode-sb: ' "$raw" && grep -qE '^# summary: not ok [0-9]+ - geode-sb: ' "$raw" &&
	grep -qE '^# summary: \.\.\. and [0-9]+ more not ok' "$raw"
ok $? "dma-timeout: the last 24 lines name failing tests by number and name, and count the rest"
grep -qE '^# summary: first failure: .*DMA timeout' "$raw"; ok $? "dma-timeout: the first failure's reason (DMA timeout) is on the last screen"
grep -qE '^# summary: next: docs/troubleshooting\.md, row `geode-sb:`' "$raw"; ok $? "dma-timeout: the last screen names the troubleshooting row to read"
grep -qE '^# summary: box [^ ]+ \(' "$raw"; ok $? "dma-timeout: the last screen names the box"
[ "$(tail -n 1 "$raw")" = "$(grep '^# cryptoqual: ' "$BOOT_LOG")" ]; ok $? "dma-timeout: the verdict is the last of them"
nok=$(sed -nE 's/^# cryptoqual: FAIL \([0-9]+ ok, ([0-9]+) not ok.*/\1/p' "$BOOT_LOG")
[ -n "$nok" ] && [ "$nok" -gt 0 ] && grep -qE "^# summary: [0-9]+ tests: [0-9]+ ok, $nok not ok, " "$raw"
ok $? "dma-timeout: the summary counts the verdict's $nok not ok"
emu_done

# A C7 whose xstore stopped: the absent engines must not push the xstore
# into an "other" row, and the RNG benchmark's failure is the source's, not
# the platform's.
emu_boot "c7-rng-stuck" "c7,fault=rng-stuck"
expect_status 1 "c7-rng-stuck: the run fails"
tail -n 24 "$BOOT_LOG" > "$raw"
grep -qE '^# summary: padlock-xstore +.* FAIL$' "$raw"; ok $? "c7-rng-stuck: the xstore has its own row, FAIL"
grep -qE '^# summary: padlock-phe +.* pass$' "$raw"; ok $? "c7-rng-stuck: the PHE has its own row, pass"
! grep -qE '^# summary: other ' "$raw"; ok $? "c7-rng-stuck: no 'other' row"
grep -qE '^# summary: platform +.* pass$' "$raw"; ok $? "c7-rng-stuck: the platform row passes (the benchmark's RNG failure counts in the source's row)"
grep -qE '^# summary: padlock-[a-z]+ +.*[0-9]k\* ' "$raw"; ok $? "c7-rng-stuck: emulated figures are marked *"
emu_done
finish
