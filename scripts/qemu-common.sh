# shellcheck shell=sh
# Shared by scripts/boot-qemu.sh and scripts/boot-media.sh (sourced, POSIX
# sh): option values, the QEMU machine every boot uses, and the verdict
# from QEMU's exit status. Each script defines usage() (its synopsis).
#
# The machine: qemu-system-i386 -M pc, 128 MiB, no display or monitor,
# -no-reboot (a triple fault ends QEMU with status 0), the first serial
# port into a file (byte-exact), and isa-debug-exit at port 0xf4, through
# which the kernel ends QEMU with its verdict (kernel/run/report.h): a write
# of V gives exit status 2V+1: 33 PASS, 35 FAIL, 37 crash (Bail out!).
# QEMU_EXTRA (environment) adds QEMU arguments.

# need_value PROG OPTION NARGS: NARGS is $# where OPTION is $1; without a
# value after it, says so with the usage and exits 2.
need_value() {
	[ "$3" -ge 2 ] && return 0
	echo "$1: $2 needs a value" >&2
	usage >&2
	exit 2
}

# qemu_boot LOG SHOW TIMEOUT CPU OPTS [ARGS...]: boots QEMU under
# timeout(1) with -cpu CPU, OPTS (split into words), QEMU_EXTRA, then
# ARGS (QEMU_NO_EXIT_DEVICE=1 leaves out isa-debug-exit). The serial console goes to LOG (emptied first; "": a temporary
# file, removed afterwards) and, when SHOW is 1, to the terminal as well.
# Sets qemu_status to QEMU's exit status (124 or 137 after the timeout;
# "halted" when, without the exit device, QEMU still ran after the verdict) and
# qemu_log_verdict to the serial log's own verdict: PASS or FAIL from the
# last `cryptoqual: PASS|FAIL` line (also as a TAP comment `# cryptoqual:`),
# or "" when the log holds none (an empty log, a console on a missing UART).
qemu_boot() {
	qb_log=$1 qb_show=$2 qb_timeout=$3 qb_cpu=$4 qb_opts=$5
	shift 5
	# QEMU_NO_EXIT_DEVICE=1: no isa-debug-exit, as on a real box, so the
	# kernel's on_finish= path (halt, or reset) ends the run instead.
	qb_exitdev="-device isa-debug-exit,iobase=0xf4,iosize=0x04"
	[ "${QEMU_NO_EXIT_DEVICE:-0}" = 1 ] && qb_exitdev=""
	qb_tmp=""
	if [ -z "$qb_log" ]; then
		qb_tmp=$(mktemp)
		qb_log=$qb_tmp
	fi
	: > "$qb_log"
	# -serial file: keeps the console byte-exact; SHOW follows it live.
	if [ "$qb_show" = 1 ]; then
		tail -n +1 -f "$qb_log" &
		qb_tailpid=$!
	fi
	# shellcheck disable=SC2086
	timeout --foreground -k 5 "$qb_timeout" qemu-system-i386 -M pc -m 128 -cpu "$qb_cpu" $qb_opts \
		-display none -monitor none -no-reboot \
		-serial "file:$qb_log" \
		$qb_exitdev \
		${QEMU_EXTRA:-} "$@" &
	qb_pid=$!
	if [ -z "$qb_exitdev" ]; then
		# No exit device (as on a real box): a kernel that halts after its
		# verdict never ends QEMU. Once the verdict line is in the log and
		# QEMU is still running a grace second later (a reset would have
		# ended it: -no-reboot), the box has halted: QEMU is stopped and
		# the status reads "halted" (qemu_verdict takes the log's verdict).
		while kill -0 "$qb_pid" 2>/dev/null; do
			if tr -d '\r' < "$qb_log" | grep -qE '^(# )?cryptoqual: (PASS|FAIL)'; then
				sleep 1
				if kill -0 "$qb_pid" 2>/dev/null; then
					kill "$qb_pid" 2>/dev/null
					wait "$qb_pid" 2>/dev/null
					qb_pid=halted
				fi
				break
			fi
			sleep 0.5
		done
	fi
	if [ "$qb_pid" = halted ]; then
		qemu_status=halted
	else
		wait "$qb_pid"
		# shellcheck disable=SC2034 # read by the sourcing script
		qemu_status=$?
	fi
	# shellcheck disable=SC2034 # read by qemu_verdict
	qb_verdict_line=$(tr -d '\r' < "$qb_log" | grep -E '^(# )?cryptoqual: (PASS|FAIL)' | tail -n 1)
	qemu_log_verdict=$(printf '%s\n' "$qb_verdict_line" | sed -E 's/^(# )?cryptoqual: (PASS|FAIL).*/\2/')
	# A run that options cut short says so on its verdict line; so does ours.
	# shellcheck disable=SC2034 # read by qemu_verdict
	qemu_log_partial=$(printf '%s\n' "$qb_verdict_line" | sed -n -E 's/.*; partial: (.*)\)$/; partial: \1/p')
	if [ "$qb_show" = 1 ]; then
		sleep 0.3
		kill "$qb_tailpid" 2>/dev/null
		wait "$qb_tailpid" 2>/dev/null
	fi
	[ -n "$qb_tmp" ] && rm -f "$qb_tmp"
	return 0
}

# qemu_verdict PREFIX STATUS TIMEOUT: prints "PREFIX: VERDICT (...)" for
# QEMU exit status STATUS and exits: 0 PASS (33), 1 FAIL (35), 2 crash
# (37 bail out, 0 triple fault or reset), hang (124, 137: no verdict
# within TIMEOUT seconds) or any other status. The exit device alone is not
# trusted: PASS needs the PASS line in the serial log as well (a kernel whose
# console went to a missing UART exits 33 with an empty log), and a FAIL
# status with no FAIL line says the log is missing its verdict.
qemu_verdict() {
	case $2 in
	33)
		if [ "${qemu_log_verdict:-}" != PASS ]; then
			echo "$1: FAIL: qemu exit status 33 (PASS) but the serial log holds no PASS verdict${qemu_log_verdict:+ (it says $qemu_log_verdict)}"
			exit 1
		fi
		echo "$1: PASS (qemu exit status 33${qemu_log_partial:-})"; exit 0 ;;
	35)
		[ "${qemu_log_verdict:-}" = FAIL ] || { echo "$1: FAIL (qemu exit status 35; the serial log holds no FAIL verdict)"; exit 1; }
		echo "$1: FAIL (qemu exit status 35${qemu_log_partial:-})"; exit 1 ;;
	halted)
		case "${qemu_log_verdict:-}" in
		PASS) echo "$1: PASS (the box halted after its verdict; no exit device${qemu_log_partial:-})"; exit 0 ;;
		*) echo "$1: FAIL (the box halted after its verdict; no exit device${qemu_log_partial:-})"; exit 1 ;;
		esac ;;
	37) echo "$1: CRASH: the kernel bailed out (qemu exit status 37)"; exit 2 ;;
	0) echo "$1: CRASH: triple fault or reset (qemu exit status 0)"; exit 2 ;;
	124|137) echo "$1: HANG: no verdict within $3 s"; exit 2 ;;
	*) echo "$1: unexpected qemu exit status $2"; exit 2 ;;
	esac
}
