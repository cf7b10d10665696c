# tests/tap-lib.sh: the preamble every shell `.t` outside tests/boot/
# shares (tests/boot/lib.sh is the boot tests' own). Source it first:
#
#   . tests/tap-lib.sh
#   tap_begin                   "TAP version 13" (what Debian 12's prove reads)
#   tap_tmpdir                  $tmp: a folder removed at exit
#   need_qemu_i386              SKIP the whole file without qemu-user
#   need_program PROG           `not ok` and exit when PROG is not built
#   exec_i386 PROG              run the i386 TAP program PROG under qemu-i386
#                               (its plan and results); SKIP when not built
#   ok STATUS NAME [DETAIL...]  one result; DETAIL lines as `#` lines on failure
#   check NAME STATUS REGEX CMD...  one result: CMD exits STATUS and its
#                               output (stdout + stderr) matches REGEX
#   tap_end                     the plan, and the exit status (1 on any failure)
#
# Env: CQ_BUILD (build folder, default "build"), CQ_SHARED (../shared).

CQ_BUILD=${CQ_BUILD:-build}
CQ_SHARED=${CQ_SHARED:-../shared}
n=0
fails=0

tap_begin() {
	echo "TAP version 13"
}

tap_tmpdir() {
	tmp=$(mktemp -d) || exit 1
	trap 'rm -rf "$tmp"' EXIT
}

need_qemu_i386() {
	if ! command -v qemu-i386 >/dev/null 2>&1; then
		echo "1..0 # SKIP qemu-i386 (qemu-user) is not installed"
		exit 0
	fi
}

need_program() {
	if [ ! -x "$1" ]; then
		echo "not ok 1 - $1 exists (run make tools)"
		echo "1..1"
		exit 1
	fi
}

exec_i386() {
	if [ ! -x "$1" ]; then
		echo "1..0 # SKIP $1 not built (make tools)"
		exit 0
	fi
	exec qemu-i386 -L /usr/i686-linux-gnu "$1"
}

ok() {	# status, name, diagnostics...
	local st=$1 name=$2
	shift 2
	n=$((n + 1))
	if [ "$st" -eq 0 ]; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name"
		[ $# -gt 0 ] && printf '%s\n' "$@" | head -30 | sed 's/^/#   /'
		fails=$((fails + 1))
	fi
	return 0
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
	echo "1..$n"
	[ "$fails" -eq 0 ]
	exit $?
}
