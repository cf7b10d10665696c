#!/bin/bash
# mk/media.mk: `make check` must never rebuild the user's media. A dry run
# (make -n, into an empty build folder: nothing is written) of `make check
# SERIAL=38400 ...` must build the boot tests' own media in
# BUILD/check-media/ at the fixed test settings and leave BUILD/media/
# alone, while `make cf-image iso pxe` with the same variables still builds
# BUILD/media/ with them. Needs no shared data and no QEMU.
. tests/tap-lib.sh
tap_tmpdir
b="$tmp/b"


# dry TARGET...: the commands `make -n` would run, into $tmp/out, one per
# line (continued lines joined). A make started by `make check` must not
# inherit its jobserver.
dry() {
	local rc
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n BUILD="$b" SERIAL=38400 MENU_TIMEOUT=9 \
		BOOT_ARGS=on_finish=reboot "$@" >"$tmp/raw" 2>&1
	rc=$?
	sed -e ':a' -e '/\\$/{N; s/\\\n[[:space:]]*/ /; ba' -e '}' "$tmp/raw" >"$tmp/out"
	return $rc
}

tap_begin
echo "1..14"

dry check
ok $? "make -n check succeeds" "$(tail -n 5 "$tmp/out")"
! grep -q "$b/media/" "$tmp/out"
ok $? "make check writes nothing into BUILD/media/" "$(grep "$b/media/" "$tmp/out")"
check_opts="--serial '19200' --timeout '3' --append ''"
for what in "mk-cf-image.sh .* -o $b/check-media/cryptoqual-cf.img" "mk-iso.sh .* -o $b/check-media/cryptoqual.iso" \
	    "mk-pxe-tree.sh .* -o $b/check-media/pxe"; do
	line=$(grep -E "^scripts/$what\$" "$tmp/out")
	[ -n "$line" ] && [[ $line == *" $check_opts "* ]]
	ok $? "make check builds BUILD/check-media/${what##*/} with $check_opts" "${line:-no such command}"
done
[ ! -e "$b" ]; ok $? "the dry runs wrote nothing"

dry cf-image iso pxe
line=$(grep -E "^scripts/mk-cf-image.sh .* -o $b/media/cryptoqual-cf.img\$" "$tmp/out")
[[ $line == *" --serial '38400' --timeout '9' --append 'on_finish=reboot' "* ]]
ok $? "make cf-image SERIAL=38400 ... builds BUILD/media/cryptoqual-cf.img with those settings" "${line:-no such command}"
! grep -q "$b/check-media/" "$tmp/out"
ok $? "make cf-image iso pxe leaves BUILD/check-media/ alone" "$(grep "$b/check-media/" "$tmp/out")"

# The builders share their option parsing (scripts/media-args.sh): a
# missing value, an unknown option and a missing -o are usage errors.
for prog in mk-cf-image mk-iso mk-pxe-tree; do
	msg=$(scripts/$prog.sh --kernel 2>&1); rc=$?
	[ $rc -eq 2 ] && [ "$msg" = "$prog: --kernel needs a value" ]
	ok $? "$prog.sh: an option without its value is a usage error (exit $rc)" "$msg"
	msg=$(scripts/$prog.sh --kernel /nonexistent --bogus 1 -o "$tmp/x" 2>&1); rc=$?
	[ $rc -eq 2 ] && [ "$msg" = "$prog: unknown option --bogus" ]
	ok $? "$prog.sh: an unknown option is named (exit $rc)" "$msg"
done
exit $((fails > 0))
