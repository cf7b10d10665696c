#!/bin/bash
# Boot test: the report is real TAP. Three real boot logs (PASS, FAIL with a
# fault inside a test, and a Bail out!) are given to two independent TAP
# consumers: Debian's prove / TAP::Parser (3.44 in Debian 12: it knows TAP
# up to version 13) and npm's tap-parser (installed into $CQ_BUILD/npm on
# first use; SKIP with the reason when npm or the registry is unavailable).
# Neither may report a parse error or a line that is not TAP, the verdict
# must be the last line (a TAP comment), and each consumer must see the
# outcome the kernel meant.
. tests/boot/lib.sh
echo "TAP version 13"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

boot "pass" --cpu qemu32 --timeout 120 -- bench=off rng_bytes=2500
check_report_shape "pass"
cp "$BOOT_LOG" "$tmp/pass.log"; drop_log
boot "fail" --cpu qemu32 --timeout 120 -- selftest=fault-in-test bench=off rng_bytes=2500
check_report_shape "fail"
cp "$BOOT_LOG" "$tmp/fail.log"; drop_log
boot "bail" --cpu qemu32 --timeout 120 -- selftest=fault-outside bench=off
expect_line '^Bail out! ' "bail: the log has a Bail out! line"
cp "$BOOT_LOG" "$tmp/bail.log"; drop_log

# TAP::Parser: parse errors, unknown (non-TAP) lines, counts, bail-out.
tap_parser() {  # tap_parser LOG -> "errors=N unknown=N failed=N passed=N bailout=0|1 last=TYPE version=V"
	perl -MTAP::Parser -e '
		open(my $fh, "<", $ARGV[0]) or die "$ARGV[0]: $!";
		my $p = TAP::Parser->new({ tap => do { local $/; <$fh> } });
		my ($unknown, $bail, $last) = (0, 0, "");
		while (my $r = $p->next) {
			$unknown++ if $r->is_unknown && $r->as_string ne "";   # the blank line before the version line is allowed
			$bail = 1 if $r->is_bailout;
			$last = $r->type;
		}
		my @e = $p->parse_errors;
		print "errors=", scalar(@e), " unknown=$unknown failed=", scalar($p->failed),
		      " passed=", scalar($p->passed), " bailout=$bail last=$last version=", $p->version, "\n";
		print STDERR "parse error: $_\n" for @e;' "$1"
}
for kind in pass fail bail; do
	res=$(tap_parser "$tmp/$kind.log" 2>"$tmp/$kind.err")
	[[ $res == "errors=0 unknown=0 "* ]]
	ok $? "TAP::Parser $(perl -MTAP::Parser -e 'print $TAP::Parser::VERSION'): $kind log has no parse error and no non-TAP line ($res$( [ -s "$tmp/$kind.err" ] && echo "; $(head -n 1 "$tmp/$kind.err")"))"
	case $kind in
	pass) [[ $res == *" failed=0 "* && $res == *"bailout=0 last=comment version=13" ]] ;;
	fail) [[ $res == *" failed=1 "* && $res == *"bailout=0 last=comment version=13" ]] ;;
	bail) [[ $res == *"bailout=1"* ]] ;;
	esac
	ok $? "TAP::Parser: $kind log read as meant, verdict last as a comment ($res)"
done
out=$(prove --exec cat "$tmp/pass.log" 2>&1); rc=$?
[ $rc -eq 0 ] && ! grep -q 'Parse errors' <<<"$out"
ok $? "prove --exec cat: the PASS log passes with no parse error (exit $rc)"
out=$(prove --exec cat "$tmp/fail.log" 2>&1)
grep -q 'Failed: 1' <<<"$out" && ! grep -q 'Parse errors' <<<"$out"
ok $? "prove --exec cat: the FAIL log fails one test, no parse error"

# npm's tap-parser, from the registry into the build folder.
npm_dir="$CQ_BUILD/npm"
npm_skip=""
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	npm_skip="node or npm not installed"
elif [ ! -f "$npm_dir/node_modules/tap-parser/package.json" ]; then
	mkdir -p "$npm_dir"
	if ! timeout 180 npm install --no-audit --no-fund --silent --prefix "$npm_dir" tap-parser@18 \
		>"$tmp/npm.log" 2>&1; then
		npm_skip="npm could not install tap-parser ($(tail -n 1 "$tmp/npm.log"))"
	fi
fi
for kind in pass fail bail; do
	if [ -n "$npm_skip" ]; then
		tap_skip "tap-parser: $kind log" "$npm_skip"
		continue
	fi
	res=$(NODE_PATH="$(cd "$npm_dir" && pwd)/node_modules" node tests/boot/tap-parser-check.cjs < "$tmp/$kind.log" 2>&1)
	[[ $res == *'"invalid":0,'* ]]
	ok $? "tap-parser $(node -p "require('$(cd "$npm_dir" && pwd)/node_modules/tap-parser/package.json').version" 2>/dev/null): $kind log has no invalid line ($res)"
	case $kind in
	pass) [[ $res == *'"ok":true,'* && $res == *'"fail":0,'* && $res == *'"bailout":false'* ]] ;;
	fail) [[ $res == *'"ok":false,'* && $res == *'"fail":1,'* && $res == *'"bailout":false'* ]] ;;
	bail) [[ $res == *'"bailout":"'* ]] ;;
	esac
	ok $? "tap-parser: $kind log read as meant"
done
finish
