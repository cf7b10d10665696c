#!/bin/bash
# cavp over the NIST CAVP response files in $CQ_SHARED/data/cavp: every file
# must pass with the software engine, and the tool must fail (and say where)
# on a corrupted vector, a truncated or malformed file, an unknown file name,
# an unknown engine (listing the engines there are), a missing file and a
# folder, each message starting "cavp: FILE: ". Damaged copies are made in
# a temporary folder.
. tests/tap-lib.sh
tool="$CQ_BUILD/host/cavp"
dir="$CQ_SHARED/data/cavp"

tap_begin
files=$(find "$dir" -name '*.rsp' 2>/dev/null | sort)
[ -n "$files" ] || tap_skip_all "no CAVP .rsp files under $dir"
cbc="$dir/aes/CBCMMT128.rsp"
sha="$dir/sha/SHA256ShortMsg.rsp"
[ -f "$cbc" ] && [ -f "$sha" ] || tap_skip_all "$cbc or $sha missing"

tap_tmpdir

# 1-2: every file passes; one summary line per file, each "N passed, 0 failed".
nfiles=$(printf '%s\n' $files | wc -l)
out=$("$tool" $files 2>&1)
rc=$?
[ "$rc" -eq 0 ]
ok $? "all $nfiles CAVP files pass with the software engine" "exit $rc" "$(printf '%s\n' "$out" | grep -v ' 0 failed$' | head -20)"
good=$(printf '%s\n' "$out" | grep -cE '^[^ ]+\.rsp: [1-9][0-9]* passed, 0 failed$')
[ "$good" -eq "$nfiles" ]
ok $? "$nfiles summary lines, each with records passed and none failed" "$good of $nfiles summary lines say 'N passed, 0 failed'"

# 3: one flipped hex digit in the first CIPHERTEXT (line 14, [ENCRYPT] COUNT = 0).
mkdir -p "$tmp/bad"
awk 'NR == 14 && /^CIPHERTEXT = / { c = substr($0, 14, 1); sub(/^CIPHERTEXT = ./, "CIPHERTEXT = " (c == "0" ? "1" : "0")) } { print }' \
	"$cbc" >"$tmp/bad/CBCMMT128.rsp"
check "a flipped CIPHERTEXT digit fails and is named" 1 \
	'CBCMMT128.rsp: 19 passed, 1 failed.*line 10 \[ENCRYPT\] COUNT = 0 CIPHERTEXT: expected' \
	"$tool" "$tmp/bad/CBCMMT128.rsp"

# 4: a corrupted SHA-256 digest.
awk '!done && /^MD = / { c = substr($0, 6, 1); sub(/^MD = ./, "MD = " (c == "0" ? "1" : "0")); done = 1 } { print }' \
	"$sha" >"$tmp/bad/SHA256ShortMsg.rsp"
check "a corrupted MD fails and is named" 1 'SHA256ShortMsg.rsp: 64 passed, 1 failed.*Len = 0 MD: expected' \
	"$tool" "$tmp/bad/SHA256ShortMsg.rsp"

# 5: truncated inside a record (the first 13 lines: no CIPHERTEXT yet).
mkdir -p "$tmp/trunc"
head -n 13 "$cbc" >"$tmp/trunc/CBCMMT128.rsp"
check "a truncated file fails naming the record's line" 2 '^cavp: [^ ]*/CBCMMT128\.rsp: line 10: record without CIPHERTEXT$' \
	"$tool" "$tmp/trunc/CBCMMT128.rsp"

# 6: a bad hex digit in KEY (line 11).
mkdir -p "$tmp/hex"
sed '11s/^KEY = ./KEY = z/' "$cbc" >"$tmp/hex/CBCMMT128.rsp"
check "a bad hex digit fails naming line and column" 2 "^cavp: [^ ]*/CBCMMT128\\.rsp: line 11: KEY: bad hex digit 'z' at column 7\$" \
	"$tool" "$tmp/hex/CBCMMT128.rsp"

# 7: an odd number of digits in PLAINTEXT (line 13).
mkdir -p "$tmp/odd"
sed '13s/.$//' "$cbc" | sed '13s/\r$//; 13s/.$//' >"$tmp/odd/CBCMMT128.rsp"
check "an odd number of hex digits fails naming the line" 2 'line 13: PLAINTEXT: odd number of hex digits' \
	"$tool" "$tmp/odd/CBCMMT128.rsp"

# 8-10: a file name of no known kind, an unknown engine, no arguments.
cp "$cbc" "$tmp/vectors.rsp"
check "an unknown file name is refused" 2 '^cavp: [^ ]*/vectors\.rsp: not a CAVP file name' "$tool" "$tmp/vectors.rsp"
check "an unknown engine is refused, naming the AES engines there are" 2 \
	"^cavp: [^ ]*/CBCMMT128\\.rsp: no AES engine named 'nonesuch' \\(engines: software\\)\$" \
	"$tool" --engine nonesuch "$cbc"
check "no file: usage" 2 '^usage: cavp' "$tool"

# 11-15: a missing file (with a name the tool knows, so readability is
# checked first), a folder, a hash file and an unknown engine, --help.
check "a missing file: No such file or directory" 2 \
	"^cavp: $tmp/none/CBCMMT128\\.rsp: No such file or directory\$" "$tool" "$tmp/none/CBCMMT128.rsp"
check "a missing file of no known name: No such file or directory" 2 \
	'^cavp: /nonexistent: No such file or directory$' "$tool" /nonexistent
check "a folder: Is a directory" 2 "^cavp: $tmp: Is a directory\$" "$tool" "$tmp"
check "an unknown SHA-256 engine is refused, naming the SHA-256 engines" 2 \
	"^cavp: [^ ]*/SHA256ShortMsg\\.rsp: no sha256 engine named 'nonesuch' \\(engines: software\\)\$" \
	"$tool" --engine nonesuch "$sha"
check "--help: the usage, exit 0" 0 '^usage: cavp \[--engine NAME\] FILE\.rsp\.\.\.$' "$tool" --help
tap_end
