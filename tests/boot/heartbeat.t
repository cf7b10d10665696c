#!/bin/bash
# Boot test: a long stage is never silent for more than 10 seconds. Under
# -icount (the TSC counts guest instructions, so the run's times do not
# depend on the host's speed) the RNG statistics over 16 MiB of RDRAND take
# about 16 s of guest time; the report must carry `# heartbeat: t=S
# stage=rng` lines, and no two lines of the report may be more than 10 s
# (plus one heartbeat check's slack) apart in the times the report itself
# gives (t= of records and heartbeats).
. tests/boot/lib.sh
echo "TAP version 13"
boot "heartbeat" --cpu max --icount --timeout 300 -- rng_bytes=16M bench=off only=rdrand
check_report_shape "heartbeat"
expect_status 0 "heartbeat: the run passes"
# A heartbeat is due once 10 s pass without a line: the stage's guest time
# is the same on every host, and long enough to need one.
secs=$(sed -n 's/^# @stage name=rng seconds=\([0-9.]*\) .*/\1/p' "$BOOT_LOG")
awk -v s="${secs:-0}" 'BEGIN { exit !(s >= 11) }'
ok $? "heartbeat: the RNG stage lasts long enough to need a heartbeat (${secs:-?} s of guest time, 11 wanted)"
expect_line '^# heartbeat: t=[0-9]+\.[0-9] stage=rng$' "heartbeat: the RNG stage (${secs} s) prints heartbeats"
gaps=$(grep -oE '(^# heartbeat: t=| t=)[0-9]+\.[0-9]+' "$BOOT_LOG" | grep -oE '[0-9]+\.[0-9]+$' |
	awk 'NR > 1 && $1 - prev > 12 { print prev " -> " $1 } { prev = $1 }')
[ -z "$gaps" ]; ok $? "heartbeat: no gap over 12 s between timed lines${gaps:+ ($gaps)}"
n=$(grep -c "^# heartbeat: " "$BOOT_LOG"); grep "^# heartbeat: " "$BOOT_LOG" | sed "s/^/# seen: /"
diag "heartbeat: $n heartbeat lines, run $(grep -oE '^# @run seconds=[0-9.]+' "$BOOT_LOG")"
finish
