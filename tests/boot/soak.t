#!/bin/bash
# Boot test: the bounded soak. passes=3 runs the KATs,
# cross-checks, the drivers' own checks and the RNG tests three more times,
# one progress line per pass with running counts, an @soak record per pass,
# then the verdict; with on_finish=reboot the box resets after it (QEMU
# without its exit device, -no-reboot: status 0). A failure in a pass fails
# the run. And the run's time budget: a bench_ms that would take hours is
# refused with a warning.
. tests/boot/lib.sh
echo "TAP version 13"

boot "soak" --cpu max --timeout 240 -- passes=3 bench=off rng_bytes=2500
check_report_shape "soak"
expect_status 0 "soak: three clean passes end in PASS"
expect_line '^# options: .* passes=3$' "soak: passes=3 is in force"
expect_line '^# soak: 3 passes$' "soak: the plan is announced"
for p in 1 2 3; do
	expect_line "^# soak: pass $p done at t=[0-9.]+: [1-9][0-9]* ok, 0 not ok in this pass \\(ok lines not printed, [0-9]+ skipped as in the first run\\); [0-9]+ ok, 0 not ok so far$" "soak: progress line of pass $p"
	expect_line "^# @soak pass=$p ok=[1-9][0-9]* not_ok=0 seconds=[0-9.]+ t=" "soak: @soak record of pass $p"
done
[ "$(grep -c '^# soak: pass [0-9]* done' "$BOOT_LOG")" -eq 3 ]; ok $? "soak: exactly three passes"
expect_line '^ok [0-9]+ - soak: 3 passes run$' "soak: the soak's own result"
expect_line '^# @stage name=soak seconds=' "soak: the soak is a stage with its time"
expect_line '^# soak: every pass passed \(3 passes\)$' "soak: the last word on the soak says every pass passed"
! sed -n '/^# soak: 3 passes$/,/^# soak: every pass/p' "$BOOT_LOG" | grep -q ' # SKIP '; ok $? "soak: no SKIP line is printed again in the soak"
# A pass that passes prints its records and its status line, nothing else.
other=$(sed -n '/^# soak: 3 passes$/,/^# soak: pass 3 done/p' "$BOOT_LOG" | grep -vE '^# (soak: |@)' | head -n 3)
[ -z "$other" ]; ok $? "soak: passes that pass print only their records and status lines${other:+ (not: $other)}"
expect_line '^# @rng source=rdrand .* pass=3 t=' "soak: the records of pass 3 carry pass=3"
expect_line '^# summary: soak 3 passes, every pass passed: 1-3 pass$' "soak: the last screen gives each pass's verdict"
drop_log

boot "soak-fail" --cpu max --timeout 240 -- passes=2 bench=off rng_bytes=2500 selftest=fault-in-test
expect_status 1 "soak-fail: a failure makes the soak run FAIL"
expect_line '^# soak: pass 2 done at t=[0-9.]+: [0-9]+ ok, 0 not ok in this pass \(ok lines not printed, [0-9]+ skipped as in the first run\); [0-9]+ ok, 1 not ok so far$' \
	"soak-fail: the running count carries the failure"
drop_log

QEMU_NO_EXIT_DEVICE=1 boot "soak-reboot" --cpu qemu32 --timeout 120 -- passes=2 bench=off rng_bytes=2500 on_finish=reboot
expect_line '^# cryptoqual: PASS \(' "soak-reboot: the verdict is PASS"
[ "$(grep -c '^# soak: pass [0-9]* done' "$BOOT_LOG")" -eq 2 ]; ok $? "soak-reboot: two passes before the verdict"
[[ $BOOT_VERDICT == *"triple fault or reset (qemu exit status 0)"* ]]
ok $? "soak-reboot: the box resets after the verdict ($BOOT_VERDICT)"
drop_log

boot "budget" --cpu max --timeout 240 -- bench_ms=60000 rng_bytes=2500
expect_status 0 "budget: the run still passes"
expect_line '^# warning: bench: bench_ms=60000 would take about [0-9]+ minutes for [0-9]+ cells \(budget 30 minutes\): refused, using 12 ms$' \
	"budget: bench_ms=60000 is refused with a warning"
expect_line '^# bench: bench=quick: 12 ms per cell' "budget: the benchmark runs at the default"
finish
