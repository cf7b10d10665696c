#!/bin/bash
# Boot test: the VGA mirror. With QEMU's standard VGA the last lines of the
# text screen (read through QMP after the verdict) are the last lines of
# the serial log; with no VGA at all (-vga none) the probe finds none and
# the run is the same on the serial port.
. tests/boot/lib.sh
echo "TAP version 13"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sock="$tmp/qmp.sock"
screen="$tmp/screen"

# No exit device and on_finish=halt: QEMU stays up after the verdict until
# vga-screen.py has read the screen and sent quit (status 0).
python3 tests/boot/vga-screen.py "$sock" "$screen" 110 2>"$tmp/py.err" &
pypid=$!
QEMU_NO_EXIT_DEVICE=1 QEMU_EXTRA="-qmp unix:$sock,server=on,wait=off" \
	boot "vga" --cpu qemu32 --timeout 120 -- bench=off rng_bytes=2500 on_finish=halt
wait $pypid
py=$?
check_report_shape "vga"
[ $py -eq 0 ] && [ -s "$screen" ]; ok $? "vga: the text screen was read through QMP$( [ -s "$tmp/py.err" ] && echo " ($(tail -n 1 "$tmp/py.err"))")"
# The screen is 80 columns: a longer serial line (the verdict of a partial
# run) wraps onto the next screen row, as fold -w 80 wraps it.
want=$(tail -n 4 "$BOOT_LOG" | fold -w 80 | tail -n 4)
got=$(grep -v '^$' "$screen" | tail -n 4)
[ -n "$got" ] && [ "$got" = "$want" ]
ok $? "vga: the screen's last 4 lines are the serial log's last 4 lines (wrapped at 80 columns)"
[ "$got" = "$want" ] || { echo "# screen:"; echo "$got" | sed 's/^/#   /'; echo "# serial:"; echo "$want" | sed 's/^/#   /'; }
drop_log

QEMU_EXTRA="-vga none" boot "novga" --cpu qemu32 --timeout 120 -- bench=off rng_bytes=2500
check_report_shape "novga"
expect_status 0 "novga: without a VGA the run still ends in PASS"
! grep -q '^# pci: .* 1234:1111 ' "$BOOT_LOG"; ok $? "novga: no VGA device in the PCI table"
finish
