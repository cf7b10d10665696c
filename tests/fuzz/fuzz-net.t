#!/bin/bash
# A short libFuzzer run (ASan + UBSan) of each parser of received packets:
# Ethernet/ARP/IPv4/UDP frames (lib/net/netif.c), DHCP replies
# (lib/net/dhcp.c) and TFTP answers (lib/net/tftp.c); tests/fuzz/fuzz_*.c, mk/fuzz.mk. For each: the committed seed
# corpus must replay cleanly, and FUZZ_CHECK_SECONDS (default 5) of
# fuzzing must find nothing. Crash files go to $CQ_BUILD/fuzz/artifacts/
# (kept for a look), never into the tree. Longer runs: make fuzz-long.
set -u
CQ_BUILD=${CQ_BUILD:-build}
secs=${FUZZ_CHECK_SECONDS:-5}
names="net_frame dhcp tftp"
echo "TAP version 13"
echo "1..6"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
art="$CQ_BUILD/fuzz/artifacts"
mkdir -p "$art"
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
n=0
fails=0
for name in $names; do
	fuzzer="$CQ_BUILD/host/fuzz_$name"
	if [ ! -x "$fuzzer" ]; then
		for what in replay fuzz; do
			n=$((n + 1)); echo "ok $n - $name $what # SKIP $fuzzer not built (make fuzz)"
		done
		continue
	fi
	"$fuzzer" -runs=0 -artifact_prefix="$art/$name-" "tests/fuzz/corpus_$name" > "$tmp/replay.log" 2>&1
	rc=$?
	n=$((n + 1))
	if [ $rc -eq 0 ]; then echo "ok $n - $name: the seed corpus replays without a finding"
	else echo "not ok $n - $name: the seed corpus replays without a finding"; tail -n 20 "$tmp/replay.log" | sed 's/^/# /'; fails=$((fails + 1)); fi
	mkdir -p "$tmp/corpus_$name"
	"$fuzzer" -max_total_time="$secs" -seed=1 -artifact_prefix="$art/$name-" \
		"$tmp/corpus_$name" "tests/fuzz/corpus_$name" > "$tmp/fuzz.log" 2>&1
	rc=$?
	runs=$(grep -o 'Done [0-9]* runs' "$tmp/fuzz.log" | tail -n 1)
	n=$((n + 1))
	if [ $rc -eq 0 ]; then echo "ok $n - $name: $secs s of fuzzing finds nothing (${runs:-?})"
	else echo "not ok $n - $name: $secs s of fuzzing finds nothing"; grep -E 'ERROR|SUMMARY|^    #[0-9]+ .*(tests|lib)/' "$tmp/fuzz.log" | head -n 12 | sed 's/^/# /'; fails=$((fails + 1)); fi
done
exit $((fails > 0))
