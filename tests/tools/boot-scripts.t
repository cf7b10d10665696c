#!/bin/bash
# scripts/boot-qemu.sh and scripts/boot-media.sh around a fake
# qemu-system-i386 (first in PATH) that records its arguments, writes to
# the serial log and exits with the status asked for: the QEMU command
# line, the verdict line and exit status for every QEMU status (the table
# both share from scripts/qemu-common.sh), and the usage errors. Needs no
# QEMU and no shared data.
. tests/tap-lib.sh
scripts=${CQ_SCRIPTS:-scripts}
tap_tmpdir


mkdir -p "$tmp/bin"
cat >"$tmp/bin/qemu-system-i386" <<'FAKE'
#!/bin/sh
printf '%s\n' "$*" > "$FAKE_ARGS"
for a; do
	case $a in file:*) printf 'TAP version 14\r\n%s' "${FAKE_LOG-}" > "${a#file:}" ;; esac
done
[ -n "${FAKE_SLEEP:-}" ] && exec sleep "$FAKE_SLEEP"
exit "${FAKE_STATUS:-33}"
FAKE
chmod +x "$tmp/bin/qemu-system-i386"
export PATH="$tmp/bin:$PATH" FAKE_ARGS="$tmp/args"
unset QEMU_EXTRA
: >"$tmp/kernel.elf"
: >"$tmp/cf.img"

# run SCRIPT ARGS...: sets rc, out (stdout), err (stderr), args (QEMU's command line).
run() {
	rm -f "$tmp/args"
	out=$("$@" 2>"$tmp/err")
	rc=$?
	err=$(cat "$tmp/err")
	args=$(cat "$tmp/args" 2>/dev/null)
}

tap_begin
echo "1..44"

# ---- the QEMU command lines ----
# machine CPU [OPTS]: the arguments every boot starts with.
machine() {
	echo "-M pc -m 128 -cpu $1 ${2:+$2 }-display none -monitor none -no-reboot -serial file:$tmp/log -device isa-debug-exit,iobase=0xf4,iosize=0x04"
}
run "$scripts/boot-qemu.sh" --log "$tmp/log" -- "$tmp/kernel.elf" a=1 b
want="$(machine max) -kernel $tmp/kernel.elf -append a=1 b"
[ "$args" = "$want" ]; ok $? "boot-qemu: the QEMU command line" "got:  $args" "want: $want"
grep -q '^TAP version 14' "$tmp/log"; ok $? "boot-qemu: the serial console is in the --log file"
run "$scripts/boot-qemu.sh" --cpu pentium --icount --log "$tmp/log" -- "$tmp/kernel.elf"
want="$(machine pentium '-icount shift=0,sleep=off,align=off') -kernel $tmp/kernel.elf -append "
[ "$args" = "$want" ]; ok $? "boot-qemu --cpu pentium --icount: the QEMU command line" "got:  $args" "want: $want"
QEMU_EXTRA="-smp 2" run "$scripts/boot-qemu.sh" --log "$tmp/log" -- "$tmp/kernel.elf"
want="$(machine max) -smp 2 -kernel $tmp/kernel.elf -append "
[ "$args" = "$want" ]; ok $? "boot-qemu: QEMU_EXTRA goes before -kernel" "got:  $args" "want: $want"
run "$scripts/boot-media.sh" --cf "$tmp/cf.img" --log "$tmp/log"
want="$(machine 'pentium,+cmov') -drive file=$tmp/cf.img,format=raw,if=ide,index=0,media=disk,snapshot=on -boot c"
[ "$args" = "$want" ]; ok $? "boot-media --cf: the QEMU command line" "got:  $args" "want: $want"
run "$scripts/boot-media.sh" --iso "$tmp/cf.img" --cpu qemu32 --log "$tmp/log"
want="$(machine qemu32) -drive file=$tmp/cf.img,format=raw,if=ide,index=2,media=cdrom,readonly=on -boot d"
[ "$args" = "$want" ]; ok $? "boot-media --iso --cpu qemu32: the QEMU command line" "got:  $args" "want: $want"

# ---- verdicts: QEMU status -> line and exit status, the same for both ----
# The fake's serial log holds the verdict line the status stands for (the
# scripts believe a PASS only when the log says so too).
verdict() {	# QEMU status, wanted exit status, wanted line after the prefix
	local qs=$1 want_rc=$2 line=$3
	case $qs in
	33) export FAKE_LOG=$'cryptoqual: PASS (1 ok, 0 not ok, 0 skipped)\r\n' ;;
	35) export FAKE_LOG=$'cryptoqual: FAIL (0 ok, 1 not ok, 0 skipped)\r\n' ;;
	*) export FAKE_LOG="" ;;
	esac
	FAKE_STATUS=$qs run "$scripts/boot-qemu.sh" --timeout 5 -- "$tmp/kernel.elf"
	[ "$rc" -eq "$want_rc" ] && [ "$out" = "boot-qemu: $line" ]
	ok $? "boot-qemu: QEMU status $qs: exit $want_rc, '$line'" "exit $rc, stdout: $out"
	FAKE_STATUS=$qs run "$scripts/boot-media.sh" --cf "$tmp/cf.img" --timeout 5
	[ "$rc" -eq "$want_rc" ] && [ "$out" = "boot-media: cf: $line" ]
	ok $? "boot-media: QEMU status $qs: exit $want_rc, 'cf: $line'" "exit $rc, stdout: $out"
}
verdict 33 0 'PASS (qemu exit status 33)'
verdict 35 1 'FAIL (qemu exit status 35)'
verdict 37 2 'CRASH: the kernel bailed out (qemu exit status 37)'
verdict 0 2 'CRASH: triple fault or reset (qemu exit status 0)'
verdict 3 2 'unexpected qemu exit status 3'
unset FAKE_LOG
# The exit device alone is not trusted: an empty log is never PASS.
log_verdict() {	# name, serial log after the TAP line, wanted exit status, wanted line
	FAKE_LOG=$2 FAKE_STATUS=33 run "$scripts/boot-qemu.sh" --timeout 5 -- "$tmp/kernel.elf"
	[ "$rc" -eq "$3" ] && [ "$out" = "boot-qemu: $4" ]
	ok $? "boot-qemu: status 33 with $1: exit $3" "exit $rc, stdout: $out"
}
log_verdict "no verdict in the serial log" "" 1 \
	"FAIL: qemu exit status 33 (PASS) but the serial log holds no PASS verdict"
log_verdict "a FAIL verdict in the serial log" $'cryptoqual: FAIL (0 ok, 1 not ok, 0 skipped)\r\n' 1 \
	"FAIL: qemu exit status 33 (PASS) but the serial log holds no PASS verdict (it says FAIL)"
log_verdict "the verdict as a TAP comment" $'# cryptoqual: PASS (1 ok, 0 not ok, 0 skipped)\r\n' 0 \
	"PASS (qemu exit status 33)"
log_verdict "a partial run" $'# cryptoqual: PASS (1 ok, 0 not ok, 0 skipped; partial: bench=off)\r\n' 0 \
	"PASS (qemu exit status 33; partial: bench=off)"
log_verdict "PASS only inside another line" $'# note: cryptoqual: PASS (x)\r\n' 1 \
	"FAIL: qemu exit status 33 (PASS) but the serial log holds no PASS verdict"
FAKE_LOG="" FAKE_STATUS=33 run "$scripts/boot-media.sh" --cf "$tmp/cf.img" --timeout 5
[ "$rc" -eq 1 ] && [ "$out" = "boot-media: cf: FAIL: qemu exit status 33 (PASS) but the serial log holds no PASS verdict" ]
ok $? "boot-media: status 33 with an empty serial log: exit 1" "exit $rc, stdout: $out"
FAKE_LOG="" FAKE_STATUS=35 run "$scripts/boot-qemu.sh" --timeout 5 -- "$tmp/kernel.elf"
[ "$rc" -eq 1 ] && [ "$out" = "boot-qemu: FAIL (qemu exit status 35; the serial log holds no FAIL verdict)" ]
ok $? "boot-qemu: status 35 with no verdict in the log says so" "exit $rc, stdout: $out"
FAKE_SLEEP=10 run "$scripts/boot-qemu.sh" --timeout 1 -- "$tmp/kernel.elf"
[ "$rc" -eq 2 ] && [ "$out" = "boot-qemu: HANG: no verdict within 1 s" ]
ok $? "boot-qemu: no verdict within --timeout: exit 2, HANG" "exit $rc, stdout: $out"
FAKE_SLEEP=10 run "$scripts/boot-media.sh" --cf "$tmp/cf.img" --timeout 1
[ "$rc" -eq 2 ] && [ "$out" = "boot-media: cf: HANG: no verdict within 1 s" ]
ok $? "boot-media: no verdict within --timeout: exit 2, HANG" "exit $rc, stdout: $out"
# Without the exit device (as on a real box) a halted kernel never ends
# QEMU: the verdict in the log ends the boot, and a log without one is a hang.
QEMU_NO_EXIT_DEVICE=1 FAKE_LOG=$'# cryptoqual: PASS (1 ok, 0 not ok, 0 skipped)\r\n' FAKE_SLEEP=20 \
	run "$scripts/boot-qemu.sh" --timeout 15 -- "$tmp/kernel.elf"
[ "$rc" -eq 0 ] && [ "$out" = "boot-qemu: PASS (the box halted after its verdict; no exit device)" ] &&
	! grep -q isa-debug-exit <<<"$args"
ok $? "boot-qemu without the exit device: a PASS log of a halted box is PASS, before the timeout" "exit $rc, stdout: $out"
QEMU_NO_EXIT_DEVICE=1 FAKE_LOG=$'# cryptoqual: FAIL (0 ok, 1 not ok, 0 skipped)\r\n' FAKE_SLEEP=20 \
	run "$scripts/boot-qemu.sh" --timeout 15 -- "$tmp/kernel.elf"
[ "$rc" -eq 1 ] && [ "$out" = "boot-qemu: FAIL (the box halted after its verdict; no exit device)" ]
ok $? "boot-qemu without the exit device: a FAIL log of a halted box is FAIL" "exit $rc, stdout: $out"
QEMU_NO_EXIT_DEVICE=1 FAKE_LOG=$'ok 1 - x\r\n' FAKE_SLEEP=10 run "$scripts/boot-qemu.sh" --timeout 1 -- "$tmp/kernel.elf"
[ "$rc" -eq 2 ] && [ "$out" = "boot-qemu: HANG: no verdict within 1 s" ]
ok $? "boot-qemu without the exit device: no verdict by the timeout is still a HANG" "exit $rc, stdout: $out"
QEMU_NO_EXIT_DEVICE=1 FAKE_LOG=$'# cryptoqual: PASS (1 ok, 0 not ok, 0 skipped)\r\n' FAKE_STATUS=0 \
	run "$scripts/boot-qemu.sh" --timeout 15 -- "$tmp/kernel.elf"
[ "$rc" -eq 2 ] && [ "$out" = "boot-qemu: CRASH: triple fault or reset (qemu exit status 0)" ]
ok $? "boot-qemu without the exit device: a reset after the verdict keeps QEMU's own status" "exit $rc, stdout: $out"
# make run LOG=FILE keeps the serial log there.
make --no-print-directory -n run LOG=/tmp/x.log BUILD="$tmp/build" > "$tmp/out" 2>&1
grep -q "boot-qemu.sh --cpu 'max' *--log '/tmp/x.log' --show -- " "$tmp/out"
ok $? "make run LOG=FILE passes --log FILE to boot-qemu" "$(tail -2 "$tmp/out")"
n_tables=$(grep -l 'qemu exit status 33' "$scripts"/*.sh | wc -l)
[ "$n_tables" -eq 1 ]; ok $? "the QEMU status table is written once in $scripts/ ($n_tables files have it)"

# ---- usage ----
usage_error() {	# name, wanted stderr text, command...
	local name=$1 want=$2
	shift 2
	run "$@"
	[ "$rc" -eq 2 ] && [ -z "$out" ] && [ ! -e "$tmp/args" ] &&
		printf '%s\n' "$err" | grep -qxF "$want" && printf '%s\n' "$err" | grep -q '^usage: ' &&
		! printf '%s\n' "$err" | grep -q 'parameter not set'
	ok $? "$name: exit 2, '$want' and the usage, QEMU not started" "exit $rc, stderr:" "$err"
}
usage_error "boot-qemu --cpu without a value" "boot-qemu: --cpu needs a value" "$scripts/boot-qemu.sh" --cpu
usage_error "boot-qemu --log without a value" "boot-qemu: --log needs a value" "$scripts/boot-qemu.sh" --log
usage_error "boot-qemu --timeout without a value" "boot-qemu: --timeout needs a value" "$scripts/boot-qemu.sh" --timeout
usage_error "boot-qemu with no kernel" "boot-qemu: no KERNEL after --" "$scripts/boot-qemu.sh" --cpu max
usage_error "boot-qemu --bogus" "boot-qemu: unknown option --bogus" "$scripts/boot-qemu.sh" --bogus -- "$tmp/kernel.elf"
usage_error "boot-media --cpu without a value" "boot-media: --cpu needs a value" "$scripts/boot-media.sh" --cf "$tmp/cf.img" --cpu
usage_error "boot-media --cf without a value" "boot-media: --cf needs a value" "$scripts/boot-media.sh" --cf
usage_error "boot-media --log without a value" "boot-media: --log needs a value" "$scripts/boot-media.sh" --cf "$tmp/cf.img" --log
usage_error "boot-media --timeout without a value" "boot-media: --timeout needs a value" "$scripts/boot-media.sh" --cf "$tmp/cf.img" --timeout
usage_error "boot-media --bootfile without a value" "boot-media: --bootfile needs a value" "$scripts/boot-media.sh" --cf "$tmp/cf.img" --bootfile
usage_error "boot-media with no medium" "boot-media: no medium given" "$scripts/boot-media.sh" --cpu qemu32
for s in boot-qemu boot-media; do
	run "$scripts/$s.sh" --help
	[ "$rc" -eq 0 ] && [[ $out == "usage: scripts/$s.sh "* ]] && [ -z "$err" ] && [ ! -e "$tmp/args" ]
	ok $? "$s --help: the usage on stdout, exit 0" "exit $rc, stdout:" "$out" "stderr:" "$err"
done

exit $((fails > 0))
