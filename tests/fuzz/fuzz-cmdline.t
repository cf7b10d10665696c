#!/bin/bash
# A short libFuzzer run of the command-line parser (ASan + UBSan): the seed
# corpus must replay cleanly and 20 s of fuzzing must find nothing.
# Longer runs: make fuzz-long (mk/fuzz.mk). Crash files go to
# $CQ_BUILD/fuzz/artifacts/, never into the tree (libFuzzer's default is
# the current directory, which was the repository root).
set -u
. tests/tap-lib.sh
fuzzer="$CQ_BUILD/host/fuzz_cmdline"
tap_begin
[ -x "$fuzzer" ] || tap_skip_all "$fuzzer not built (make tools)"
tap_tmpdir
art="$CQ_BUILD/fuzz/artifacts"
mkdir -p "$art"
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
"$fuzzer" -runs=0 -artifact_prefix="$art/cmdline-" tests/fuzz/corpus_cmdline > "$tmp/replay.log" 2>&1
ok $? "seed corpus replays without a finding" "$(tail -n 20 "$tmp/replay.log")"
mkdir "$tmp/corpus"
"$fuzzer" -max_total_time=20 -seed=1 -dict=tests/fuzz/cmdline.dict -artifact_prefix="$art/cmdline-" \
	"$tmp/corpus" tests/fuzz/corpus_cmdline > "$tmp/fuzz.log" 2>&1
rc=$?
runs=$(grep -o 'Done [0-9]* runs' "$tmp/fuzz.log" | tail -n 1)
ok $rc "20 s of fuzzing finds nothing (${runs:-?})" "$(tail -n 30 "$tmp/fuzz.log")"
tap_end
