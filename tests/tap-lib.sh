# tests/tap-lib.sh: the TAP writer of the shell `.t` files (tests/taplib.py
# is the Python one, tests/host/tap_ok.h the C one); tests/boot/lib.sh
# sources it for the boot tests. Source it first:
#
#   . tests/tap-lib.sh
#   tap_begin                   "TAP version 13" (what Debian 12's prove reads)
#   tap_tmpdir                  $tmp: a folder removed at exit
#   tap_skip_all REASON         nothing to test here: "1..0 # SKIP REASON", exit 0
#   need_qemu_i386              SKIP the whole file without qemu-user
#   need_program PROG [HINT]    `not ok` and exit when PROG is not built
#                               (HINT says how to build it: "run make tools")
#   exec_i386 PROG              run the i386 TAP program PROG under qemu-i386
#                               (its plan and results); SKIP when not built
#   ok STATUS NAME [DETAIL...]  one result; DETAIL lines as `#` lines on failure
#   tap_skip NAME REASON        one result skipped: "ok N - NAME # SKIP REASON"
#   check NAME STATUS REGEX CMD...  one result: CMD exits STATUS and its
#                               output (stdout + stderr) matches REGEX
#   tap_end                     the plan, and the exit status (1 on any failure)
#
# TEST_N counts the results, TEST_FAILED the failures.
# Env: CQ_BUILD (build folder, default "build"), CQ_SHARED (../shared).

CQ_BUILD=${CQ_BUILD:-build}
CQ_SHARED=${CQ_SHARED:-../shared}
TEST_N=0
TEST_FAILED=0

tap_begin() {
	echo "TAP version 13"
}

tap_tmpdir() {
	tmp=$(mktemp -d) || exit 1
	trap 'rm -rf "$tmp"' EXIT
}

tap_skip_all() {
	echo "1..0 # SKIP $*"
	exit 0
}

need_qemu_i386() {
	command -v qemu-i386 >/dev/null 2>&1 || tap_skip_all "qemu-i386 (qemu-user) is not installed"
}

need_program() {	# program, hint (default "run make tools")
	[ -x "$1" ] && return 0
	ok 1 "$1 exists (${2:-run make tools})"
	tap_end
}

exec_i386() {
	[ -x "$1" ] || tap_skip_all "$1 not built (make tools)"
	exec qemu-i386 -L /usr/i686-linux-gnu "$1"
}

ok() {	# status, name, diagnostics...
	local st=$1 name=$2
	shift 2
	TEST_N=$((TEST_N + 1))
	if [ "$st" -eq 0 ]; then
		echo "ok $TEST_N - $name"
	else
		echo "not ok $TEST_N - $name"
		[ $# -gt 0 ] && printf '%s\n' "$@" | head -30 | sed 's/^/#   /'
		TEST_FAILED=$((TEST_FAILED + 1))
	fi
	return 0
}

tap_skip() {	# name, reason
	TEST_N=$((TEST_N + 1))
	echo "ok $TEST_N - $1 # SKIP $2"
}

check() {	# name, expected status, pattern over stdout+stderr, command...
	local name=$1 status=$2 pattern=$3 rc out
	shift 3
	out=$("$@" 2>&1)
	rc=$?
	[ "$rc" -eq "$status" ] && [[ $out =~ $pattern ]]
	ok $? "$name" "exit $rc (want $status), output:" "$(printf '%s\n' "$out" | head -20)"
}

tap_end() {
	echo "1..$TEST_N"
	[ "$TEST_FAILED" -eq 0 ]
	exit $?
}
