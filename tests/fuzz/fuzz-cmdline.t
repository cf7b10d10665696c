#!/bin/bash
# A short libFuzzer run of the command-line parser (ASan + UBSan): the seed
# corpus must replay cleanly and 20 s of fuzzing must find nothing.
# Longer runs: make fuzz-long (mk/fuzz.mk). Crash files go to
# $CQ_BUILD/fuzz/artifacts/, never into the tree (libFuzzer's default is
# the current directory, which was the repository root).
set -u
CQ_BUILD=${CQ_BUILD:-build}
fuzzer="$CQ_BUILD/host/fuzz_cmdline"
echo "TAP version 13"
if [ ! -x "$fuzzer" ]; then
	echo "1..0 # SKIP $fuzzer not built (make tools)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
art="$CQ_BUILD/fuzz/artifacts"
mkdir -p "$art"
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
"$fuzzer" -runs=0 -artifact_prefix="$art/cmdline-" tests/fuzz/corpus_cmdline > "$tmp/replay.log" 2>&1
rc=$?
[ $rc -eq 0 ] && echo "ok 1 - seed corpus replays without a finding" || { echo "not ok 1 - seed corpus replays without a finding"; tail -n 20 "$tmp/replay.log" | sed 's/^/# /'; }
mkdir "$tmp/corpus"
"$fuzzer" -max_total_time=20 -seed=1 -dict=tests/fuzz/cmdline.dict -artifact_prefix="$art/cmdline-" \
	"$tmp/corpus" tests/fuzz/corpus_cmdline > "$tmp/fuzz.log" 2>&1
rc2=$?
runs=$(grep -o 'Done [0-9]* runs' "$tmp/fuzz.log" | tail -n 1)
[ $rc2 -eq 0 ] && echo "ok 2 - 20 s of fuzzing finds nothing (${runs:-?})" || { echo "not ok 2 - 20 s of fuzzing finds nothing"; tail -n 30 "$tmp/fuzz.log" | sed 's/^/# /'; }
echo "1..2"
[ $rc -eq 0 ] && [ $rc2 -eq 0 ]
