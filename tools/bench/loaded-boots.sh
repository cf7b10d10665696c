#!/bin/sh
# Boots an emulated machine N times without -icount on a host kept busy by
# two spinning processes, and prints how many runs ended in PASS. A bounded
# wait that declares a timeout without a last look after its deadline
# fails a healthy unit here: the emulator is descheduled between a poll and
# the deadline check, as an SMI would stall a real board.
#
#   tools/bench/loaded-boots.sh [--boots N] [--machine PROFILE] [--busy K] [--keep DIR]
#
# Needs the emulation build (make emu). Prints one line per boot and then
#   loaded-boots: machine=net5501 boots=30 pass=30 fail=0 other=0 busy=2
# Exit status 0 when every boot passed, 1 otherwise, 2 on bad usage.
set -u
cd "$(dirname "$0")/../.."
boots=30
machine=net5501
busy=2
keep=""
while [ $# -gt 0 ]; do
	case "$1" in
	--boots) boots="${2:?--boots needs a number}"; shift 2 ;;
	--machine) machine="${2:?--machine needs a profile}"; shift 2 ;;
	--busy) busy="${2:?--busy needs a number}"; shift 2 ;;
	--keep) keep="${2:?--keep needs a folder}"; shift 2 ;;
	*) echo "loaded-boots: unknown option $1" >&2; exit 2 ;;
	esac
done
case "$boots$busy" in *[!0-9]*) echo "loaded-boots: --boots and --busy take whole numbers" >&2; exit 2 ;; esac
kernel="${CQ_BUILD:-build}/cryptoqual-emu.elf"
[ -f "$kernel" ] || { echo "loaded-boots: no $kernel (run make emu first)" >&2; exit 2; }
cpu=$(scripts/emu-cpu.sh "$machine") || { echo "loaded-boots: unknown profile $machine" >&2; exit 2; }

tmp=$(mktemp -d)
pids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
# The load: K processes that spin for at most an hour each.
i=0
while [ "$i" -lt "$busy" ]; do
	timeout 3600 sh -c 'while :; do :; done' &
	pids="$pids $!"
	i=$((i + 1))
done

pass=0 fail=0 other=0
n=1
while [ "$n" -le "$boots" ]; do
	log="$tmp/boot-$n.log"
	scripts/boot-qemu.sh --cpu "$cpu" --log "$log" -- "$kernel" "emulate=$machine" >/dev/null 2>&1
	rc=$?
	verdict=$(grep -a '^# cryptoqual: ' "$log" | tail -n 1 | tr -d '\r')
	case "$rc" in
	0) pass=$((pass + 1)); what=PASS ;;
	1) fail=$((fail + 1)); what=FAIL ;;
	*) other=$((other + 1)); what="exit $rc" ;;
	esac
	echo "boot $n: $what ${verdict:-(no verdict line)}"
	if [ "$rc" -ne 0 ]; then
		grep -a '^not ok' "$log" | head -n 5 | sed 's/^/    /'
	fi
	if [ -n "$keep" ]; then
		mkdir -p "$keep" && cp "$log" "$keep/"
	fi
	n=$((n + 1))
done
echo "loaded-boots: machine=$machine boots=$boots pass=$pass fail=$fail other=$other busy=$busy"
[ "$pass" -eq "$boots" ]
