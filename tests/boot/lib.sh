# Shared helpers for the QEMU boot tests (sourced by tests/boot/*.t).
# Each test boots the kernel once, then prints TAP version 13 for prove:
# the kernel's own results (renumbered, prefixed with the boot's label) and
# checks of the report's shape, exit status and content. Results go through
# tests/tap-lib.sh (ok, tap_skip; TEST_N, TEST_FAILED).
set -u

. tests/tap-lib.sh
CQ_KERNEL=${CQ_KERNEL:-$CQ_BUILD/cryptoqual.elf}
BOOT_LOG=""
BOOT_STATUS=""
BOOT_VERDICT=""   # boot-qemu's one-line verdict (PASS, FAIL, CRASH ..., HANG ...)

diag() { echo "# $*"; }

# boot LABEL [boot-qemu options] -- [kernel args]
# Boots, keeps the serial log in $BOOT_LOG (CR removed) and the raw status.
boot() {
	label=$1; shift
	[ -f "$CQ_KERNEL" ] || tap_skip_all "no kernel at $CQ_KERNEL (run make)"
	BOOT_LOG=$(mktemp)
	raw=$(mktemp)
	QEMU_STATUS_FILE=$(mktemp)
	opts=""
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do opts="$opts $1"; shift; done
	[ $# -gt 0 ] && shift
	# shellcheck disable=SC2086
	scripts/boot-qemu.sh $opts --log "$raw" -- "$CQ_KERNEL" "$@" > "$QEMU_STATUS_FILE"
	BOOT_STATUS=$?
	tr -d '\r' < "$raw" > "$BOOT_LOG"
	rm -f "$raw"
	BOOT_VERDICT=$(cat "$QEMU_STATUS_FILE")
	diag "$label: $BOOT_VERDICT"
	rm -f "$QEMU_STATUS_FILE"
}

# Re-emits the kernel's TAP results as ours, and checks the report's shape.
check_report_shape() {
	label=$1
	# The kernel prints a blank line first; a capture cut at the marker
	# (tests/boot/media-lib.sh drops the loader's output) starts at it.
	first=$(head -n 2 "$BOOT_LOG" | tr '\n' '|')
	[ "$first" = "|TAP version 13|" ] || [ "${first%%|*}" = "TAP version 13" ]
	ok $? "$label: report starts with 'TAP version 13' (after the kernel's blank line)"
	n_results=$(grep -cE '^(not )?ok [0-9]+ - ' "$BOOT_LOG")
	plan=$(grep -E '^1\.\.[0-9]+$' "$BOOT_LOG" | tail -n 1 | cut -c4-)
	[ -n "$plan" ] && [ "$plan" = "$n_results" ]; ok $? "$label: plan 1..${plan:-?} matches $n_results results"
	# Results are numbered 1..N in order.
	awk '/^(not )?ok [0-9]+ - /{ n++; num = ($1 == "not") ? $3 : $2; if (num != n) bad = 1 } END { exit bad }' "$BOOT_LOG"
	ok $? "$label: results are numbered 1..N in order"
	summary=$(tail -n 1 "$BOOT_LOG")
	echo "$summary" | grep -qE '^# cryptoqual: (PASS|FAIL) \([0-9]+ ok, [0-9]+ not ok, [0-9]+ skipped'
	ok $? "$label: last line is the verdict ($summary)"
	# The summary's counts agree with the result lines.
	n_ok=$(grep -E '^ok [0-9]+ - ' "$BOOT_LOG" | grep -vc ' # SKIP')
	n_not=$(grep -cE '^not ok [0-9]+ - ' "$BOOT_LOG")
	n_skip=$(grep -E '^ok [0-9]+ - ' "$BOOT_LOG" | grep -c ' # SKIP')
	echo "$summary" | grep -q "($n_ok ok, $n_not not ok, $n_skip skipped"
	ok $? "$label: summary counts agree with the result lines ($n_ok ok, $n_not not ok, $n_skip skipped)"
	# No line other than TAP, diagnostics and the summary.
	stray=$(sed 1d "$BOOT_LOG" | grep -vE '^(TAP version 13|(not )?ok [0-9]+ - .*|1\.\.[0-9]+|#.*|Bail out! .*)$' | head -n 3)
	[ -z "$stray" ]; ok $? "$label: every line is TAP or a # comment${stray:+ (stray: $stray)}"
	# Exactly one verdict line: nothing echoed can forge a second one.
	[ "$(grep -c '^# cryptoqual: ' "$BOOT_LOG")" -eq 1 ]; ok $? "$label: exactly one verdict line"
}

# Re-emits the kernel's own results as tests of ours.
relay_kernel_results() {
	label=$1
	while IFS= read -r line; do
		case "$line" in
		"not ok "*)
			rest=${line#not ok }; rest=${rest#* - }
			ok 1 "[$label] $rest" ;;
		"ok "*)
			rest=${line#ok }; rest=${rest#* - }
			ok 0 "[$label] $rest" ;;
		esac
	done < "$BOOT_LOG"
}

# A PASS (wanted 0) also needs the PASS verdict in the serial log itself
# (plain or as a TAP comment): the exit device alone proves nothing.
expect_status() {  # expect_status WANTED_BOOT_QEMU_EXIT DESCRIPTION
	if [ "$1" -eq 0 ]; then
		[ "$BOOT_STATUS" -eq 0 ] && grep -qE '^(# )?cryptoqual: PASS' "$BOOT_LOG"
		ok $? "$2 (boot-qemu exit $BOOT_STATUS, wanted 0 and a PASS line in the serial log)"
		return
	fi
	[ "$BOOT_STATUS" -eq "$1" ]; ok $? "$2 (boot-qemu exit $BOOT_STATUS, wanted $1)"
}

expect_line() {  # expect_line EXTENDED_REGEX DESCRIPTION
	grep -qE "$1" "$BOOT_LOG"; ok $? "$2"
}

# Removes the boot's log: only a regular file (never /dev/null or another
# device a caller may have pointed BOOT_LOG at: the tests run as root).
drop_log() {
	if [ -n "$BOOT_LOG" ] && [ -f "$BOOT_LOG" ] && [ ! -L "$BOOT_LOG" ]; then
		rm -f "$BOOT_LOG"
	fi
	BOOT_LOG=""
}

finish() {
	echo "1..$TEST_N"
	if [ "$TEST_FAILED" -ne 0 ] && [ -n "$BOOT_LOG" ]; then
		diag "serial log of the failing boot:"
		sed 's/^/#   | /' "$BOOT_LOG"
	fi
	drop_log
	[ "$TEST_FAILED" -eq 0 ]
}
