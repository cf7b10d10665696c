#!/bin/bash
# pci-scan on input it cannot use: exit status 2 and a message naming the
# file (and the line, when one is at fault) or the usage; --help gives the
# usage on stdout and exit 0. Needs no shared data.
tool="${CQ_BUILD:-build}/host/pci-scan"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
fails=0

check() {	# name, expected status, stderr pattern, command...
	local name=$1 status=$2 pattern=$3 rc err
	shift 3
	err=$("$@" 2>&1 >/dev/null)
	rc=$?
	n=$((n + 1))
	if [ "$rc" -eq "$status" ] && [[ $err =~ $pattern ]]; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name"
		echo "# exit $rc, stderr: $err"
		fails=$((fails + 1))
	fi
}

printf '# a listing\n\nnot a PCI row\n' >"$tmp/garbage.txt"
printf '00:01.0 Host bridge [0600]: AMD [1022:2080]\n00:02.0 Host bridge: AMD [1022:2080]\n' >"$tmp/bad-lspci.txt"
printf 'Slot Vend Dev\n0:01:0 1022 2080\n' >"$tmp/bad-combios.txt"
: >"$tmp/empty.txt"
printf '00:01.0 Host bridge [0600]: AMD [1022:2080]\n' >"$tmp/good.txt"

echo "TAP version 13"
echo "1..12"
check "no argument: usage" 2 "usage: pci-scan LISTING" "$tool"
check "two arguments: usage" 2 "^usage: pci-scan LISTING" "$tool" "$tmp/good.txt" "$tmp/good.txt"
check "an unknown option: usage, not a file name" 2 "^usage: pci-scan LISTING" "$tool" --bogus
check "missing file" 2 "pci-scan: $tmp/none.txt: No such file" "$tool" "$tmp/none.txt"
check "a folder: Is a directory" 2 "^pci-scan: $tmp: Is a directory\$" "$tool" "$tmp"
check "unrecognised format, line 3" 2 "garbage.txt: line 3: neither" "$tool" "$tmp/garbage.txt"
check "lspci row without class code, line 2" 2 "bad-lspci.txt: line 2: no class code" "$tool" "$tmp/bad-lspci.txt"
check "short comBIOS row, line 2" 2 "bad-combios.txt: line 2: want Vend" "$tool" "$tmp/bad-combios.txt"
check "empty listing" 2 "empty.txt: no PCI functions listed" "$tool" "$tmp/empty.txt"
check "a good listing still exits 0, quietly" 0 '^$' "$tool" "$tmp/good.txt"

# --help and -h: the usage on stdout, nothing on stderr, exit 0.
for opt in --help -h; do
	out=$("$tool" $opt 2>"$tmp/err")
	rc=$?
	n=$((n + 1))
	if [ "$rc" -eq 0 ] && [[ $out =~ ^usage:\ pci-scan\ LISTING ]] && [ ! -s "$tmp/err" ]; then
		echo "ok $n - $opt: usage on stdout, exit 0"
	else
		echo "not ok $n - $opt: usage on stdout, exit 0"
		echo "# exit $rc, stdout: $out, stderr: $(cat "$tmp/err")"
		fails=$((fails + 1))
	fi
done
[ "$fails" -eq 0 ]
