#!/bin/bash
# build/i386/geode_sb_test's own failure paths (tests/drivers/geode_sb/test_geode_sb.c):
# when the driver finds no device in the model (--break-pci changes the
# model's device ID; its MSRs still answer, so the reason is the missing
# VSA PCI header) and when the program crashes (--crash raises SIGSEGV),
# it must still give a `not ok` with the reason and a plan that counts its
# results, so prove says what went wrong instead of "No plan found".
. tests/tap-lib.sh
prog="$CQ_BUILD/i386/geode_sb_test"
tap_begin
need_qemu_i386
need_program "$prog"
tap_tmpdir


# plan_counts FILE: the last line is the plan 1..N and N results precede it.
plan_counts() {
	local results plan
	results=$(grep -cE '^(not )?ok [0-9]+ - ' "$1")
	plan=$(tail -n 1 "$1")
	[ "$plan" = "1..$results" ] && [ "$results" -gt 0 ]
}

echo "1..8"

qemu-i386 -L /usr/i686-linux-gnu "$prog" --break-pci >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 1 ]; ok $? "--break-pci: exit status 1 (got $rc)" "$(cat "$tmp/err")"
plan_counts "$tmp/out"; ok $? "--break-pci: a plan that counts the results" "$(grep -v '^#' "$tmp/out")"
# The GeodeLink MSRs still answer: the driver says the PCI header is absent.
grep -qx 'not ok [0-9]* - the driver finds the security block in the model (security block present, PCI header absent: firmware without VSA): the other tests are not run' "$tmp/out"
ok $? "--break-pci: not ok naming the reason, security block present, PCI header absent" "$(grep -v '^#' "$tmp/out")"
! grep -qi 'signal\|segmentation' "$tmp/err" "$tmp/out"
ok $? "--break-pci: no crash" "$(cat "$tmp/err")"

qemu-i386 -L /usr/i686-linux-gnu "$prog" --crash >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 1 ]; ok $? "--crash: exit status 1 (got $rc)" "$(cat "$tmp/err")"
plan_counts "$tmp/out"; ok $? "--crash: a plan that counts the results" "$(grep -v '^#' "$tmp/out")"
grep -qx 'not ok [0-9]* - geode_sb_test crashed (signal 11) in test_crash_handler' "$tmp/out"
ok $? "--crash: not ok naming the signal and the part that crashed" "$(grep -v '^#' "$tmp/out")"

qemu-i386 -L /usr/i686-linux-gnu "$prog" --bogus >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] && grep -q '^usage: geode_sb_test' "$tmp/err"
ok $? "an unknown option: usage, exit 2 (got $rc)" "$(cat "$tmp/err")"
exit $((fails > 0))
