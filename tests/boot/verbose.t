#!/bin/bash
# Boot test: `verbose` dumps the CPUID leaves in InstLatx64 layout; fed to
# build/host/cpuid-decode they must decode to exactly what the kernel
# printed (one decoder, two sources). `only=` skips unselected tests.
. tests/boot/lib.sh
echo "TAP version 13"
boot "verbose" --cpu max --timeout 240 -- verbose only=caught bench=off
check_report_shape "verbose"
expect_status 0 "verbose: the run ends in PASS"
dump=$(mktemp)
sed -n 's/^# \(CPUID [0-9A-F]\{8\}: .*\)$/\1/p' "$BOOT_LOG" > "$dump"
[ -s "$dump" ]; ok $? "verbose: CPUID leaves dumped ($(wc -l < "$dump") lines)"
kernel_kv=$(sed -n 's/^# cpu\.//p' "$BOOT_LOG")
host_kv=$("$CQ_BUILD/host/cpuid-decode" --kv "$dump" 2>&1)
[ -n "$kernel_kv" ] && [ "$kernel_kv" = "$host_kv" ]
ok $? "verbose: cpuid-decode of the dump equals the kernel's cpu.* lines"
[ "$kernel_kv" = "$host_kv" ] || diff <(echo "$kernel_kv") <(echo "$host_kv") | sed 's/^/# /'
rm -f "$dump"
expect_line '^ok [0-9]+ - boot: a fault inside a test is caught.*' "verbose: a test matching only=fault runs"
expect_line '^ok [0-9]+ - boot: safe MSR access .* # SKIP not selected by only=$' "verbose: a test not matching only=caught is skipped"
expect_line '^ok [0-9]+ - rng: rdrand delivers [0-9]+ bytes # SKIP not selected by only=$' "verbose: RNG collection not selected by only= is skipped"
! grep -qE '^# @rng |^(not )?ok [0-9]+ - rng: rdrand fips-' "$BOOT_LOG"
ok $? "verbose: no statistics or @rng record for a source that was not collected"
finish
