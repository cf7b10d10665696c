#!/bin/bash
# A short libFuzzer run (ASan + UBSan) of each reader of files from
# outside: the CPUID dump reader, the PCI listing reader and the CAVP .rsp
# reader (tests/fuzz/fuzz_*.c, mk/fuzz.mk). For each: the committed seed
# corpus must replay cleanly, and FUZZ_CHECK_SECONDS (default 10) of
# fuzzing must find nothing. Crash files go to $CQ_BUILD/fuzz/artifacts/
# (kept for a look), never into the tree. Longer runs: make fuzz-long.
set -u
. tests/tap-lib.sh
secs=${FUZZ_CHECK_SECONDS:-10}
names="cpuid_dump pci_listing cavp_rsp"
tap_begin
tap_tmpdir
art="$CQ_BUILD/fuzz/artifacts"
mkdir -p "$art"
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
for name in $names; do
	fuzzer="$CQ_BUILD/host/fuzz_$name"
	if [ ! -x "$fuzzer" ]; then
		for what in replay fuzz; do
			tap_skip "$name $what" "$fuzzer not built (make fuzz)"
		done
		continue
	fi
	"$fuzzer" -runs=0 -artifact_prefix="$art/$name-" "tests/fuzz/corpus_$name" > "$tmp/replay.log" 2>&1
	ok $? "$name: the seed corpus replays without a finding" "$(tail -n 20 "$tmp/replay.log")"
	mkdir -p "$tmp/corpus_$name"
	"$fuzzer" -max_total_time="$secs" -seed=1 -artifact_prefix="$art/$name-" \
		"$tmp/corpus_$name" "tests/fuzz/corpus_$name" > "$tmp/fuzz.log" 2>&1
	rc=$?
	runs=$(grep -o 'Done [0-9]* runs' "$tmp/fuzz.log" | tail -n 1)
	ok $rc "$name: $secs s of fuzzing finds nothing (${runs:-?})" \
		"$(grep -E 'ERROR|SUMMARY|^    #[0-9]+ .*(tests|lib)/' "$tmp/fuzz.log" | head -n 12)"
done
tap_end
