#!/bin/bash
# pci-scan on input it cannot use: exit status 2 and a message naming the
# file (and the line, when one is at fault) or the usage; --help gives the
# usage on stdout and exit 0. Needs no shared data.
. tests/tap-lib.sh
tool="$CQ_BUILD/host/pci-scan"
tap_tmpdir

check_stderr() {	# name, expected status, stderr pattern, command...
	local name=$1 status=$2 pattern=$3 rc err
	shift 3
	err=$("$@" 2>&1 >/dev/null)
	rc=$?
	[ "$rc" -eq "$status" ] && [[ $err =~ $pattern ]]
	ok $? "$name" "exit $rc, stderr: $err"
}

printf '# a listing\n\nnot a PCI row\n' >"$tmp/garbage.txt"
printf '00:01.0 Host bridge [0600]: AMD [1022:2080]\n00:02.0 Host bridge: AMD [1022:2080]\n' >"$tmp/bad-lspci.txt"
printf 'Slot Vend Dev\n0:01:0 1022 2080\n' >"$tmp/bad-combios.txt"
: >"$tmp/empty.txt"
printf '00:01.0 Host bridge [0600]: AMD [1022:2080]\n' >"$tmp/good.txt"

tap_begin
check_stderr "no argument: usage" 2 "usage: pci-scan LISTING" "$tool"
check_stderr "two arguments: usage" 2 "^usage: pci-scan LISTING" "$tool" "$tmp/good.txt" "$tmp/good.txt"
check_stderr "an unknown option: usage, not a file name" 2 "^usage: pci-scan LISTING" "$tool" --bogus
check_stderr "missing file" 2 "pci-scan: $tmp/none.txt: No such file" "$tool" "$tmp/none.txt"
check_stderr "a folder: Is a directory" 2 "^pci-scan: $tmp: Is a directory\$" "$tool" "$tmp"
check_stderr "unrecognised format, line 3" 2 "garbage.txt: line 3: neither" "$tool" "$tmp/garbage.txt"
check_stderr "lspci row without class code, line 2" 2 "bad-lspci.txt: line 2: no class code" "$tool" "$tmp/bad-lspci.txt"
check_stderr "short comBIOS row, line 2" 2 "bad-combios.txt: line 2: want Vend" "$tool" "$tmp/bad-combios.txt"
check_stderr "empty listing" 2 "empty.txt: no PCI functions listed" "$tool" "$tmp/empty.txt"
check_stderr "a good listing still exits 0, quietly" 0 '^$' "$tool" "$tmp/good.txt"

# --help and -h: the usage on stdout, nothing on stderr, exit 0.
for opt in --help -h; do
	out=$("$tool" $opt 2>"$tmp/err")
	rc=$?
	[ "$rc" -eq 0 ] && [[ $out =~ ^usage:\ pci-scan\ LISTING ]] && [ ! -s "$tmp/err" ]
	ok $? "$opt: usage on stdout, exit 0" "exit $rc, stdout: $out, stderr: $(cat "$tmp/err")"
done
tap_end
