#!/bin/bash
# Boot test: the verdict line tells a whole run from a partial one, and
# expect= makes a missing engine a failure. Options that skip or shrink a
# stage (bench=off, only=, rng_bytes below the default) and a command line
# with ignored options end "...; partial: REASONS)"; a whole run has no
# partial marker (docs/report-format.md, "Verdict").
. tests/boot/lib.sh
echo "TAP version 13"

verdict() { tail -n 1 "$BOOT_LOG"; }

boot "whole" --cpu max --timeout 200 --
expect_status 0 "whole: the default run passes"
verdict | grep -qE '^# cryptoqual: PASS \([0-9]+ ok, 0 not ok, [0-9]+ skipped\)$'; ok $? "whole: no partial marker ($(verdict))"
drop_log

boot "bench-off" --cpu max --timeout 120 -- bench=off
verdict | grep -qE '^# cryptoqual: PASS \(.*; partial: bench=off\)$'; ok $? "bench-off: partial: bench=off ($(verdict))"
drop_log

boot "only" --cpu max --timeout 120 -- only=kat bench=off
verdict | grep -qE '^# cryptoqual: PASS \(.*; partial: bench=off, only=kat\)$'; ok $? "only: partial names bench=off and only=kat ($(verdict))"
drop_log

boot "typos" --cpu max --timeout 120 -- bench=Full foo=bar bench=off rng_bytes=2500
verdict | grep -qE '^# cryptoqual: PASS \(.*; partial: 2 command-line options ignored, bench=off, rng_bytes=2500 below the default 250000\)$'
ok $? "typos: ignored options and a short RNG sample are partial ($(verdict))"
drop_log

boot "expect" --cpu max --timeout 120 -- expect=aesni,software,geode-sb bench=off
expect_line '^ok [0-9]+ - expect: aesni present \(expect=\)$' "expect: an engine the box has is ok"
expect_line '^ok [0-9]+ - expect: software present \(expect=\)$' "expect: the software engine is ok"
expect_line '^not ok [0-9]+ - expect: geode-sb present \(expect=\): no engine or source of that name registered$' "expect: a missing engine is not ok with the reason"
verdict | grep -qE '^# cryptoqual: FAIL \(' ; ok $? "expect: the run fails ($(verdict))"
expect_line '^# options: .* expect=aesni,software,geode-sb$' "expect: the options line echoes expect="
drop_log

boot "expect-bad" --cpu max --timeout 120 -- expect=Geode bench=off
expect_line "^# warning: cmdline: bad value in 'expect=Geode' ignored" "expect-bad: a malformed expect= is a warning"
verdict | grep -qE '^# cryptoqual: PASS \(.*; partial: 1 command-line option ignored, bench=off\)$'; ok $? "expect-bad: partial, not a failure ($(verdict))"
drop_log
finish
