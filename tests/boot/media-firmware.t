#!/bin/bash
# Boot test: one image for a mixed fleet (docs/boot-media.md, "One image for
# every box"). A CompactFlash image built with --serial firmware boots in
# QEMU after a 512-byte option ROM (made here) has programmed COM1 the way a
# box's firmware does: 19200 8N1 like a Soekris comBIOS, then 38400 like a
# PC Engines tinyBIOS. The same image must report both times, the kernel
# keeping the speed it found. The ISO and PXE menus built the same way are
# checked for the same entries.
. tests/boot/media-lib.sh
echo "TAP version 13"
[ -f "$CQ_KERNEL" ] || tap_skip_all "no kernel at $CQ_KERNEL (run make)"

# uart_rom DIVISOR OUT: an option ROM (55 AA, 1 block, entry at offset 3)
# whose init code sets COM1 (0x3f8) to 8N1 at 115200/DIVISOR baud and
# returns: push ax/dx; LCR=0x83 (DLAB); DLL=DIVISOR; DLM=0; LCR=0x03; pop; retf.
uart_rom() {
	python3 - "$1" "$2" <<'EOF'
import sys
div = int(sys.argv[1])
code = bytes([0x50, 0x52, 0xBA, 0xFB, 0x03, 0xB0, 0x83, 0xEE, 0xBA, 0xF8, 0x03, 0xB0, div, 0xEE,
              0xBA, 0xF9, 0x03, 0xB0, 0x00, 0xEE, 0xBA, 0xFB, 0x03, 0xB0, 0x03, 0xEE, 0x5A, 0x58, 0xCB])
rom = bytearray(512)
rom[0:3] = b"\x55\xaa\x01"
rom[3:3 + len(code)] = code
rom[511] = (-sum(rom)) & 0xff
open(sys.argv[2], "wb").write(rom)
EOF
}

img="$TMPD/fleet-cf.img"
scripts/mk-cf-image.sh --kernel "$CQ_KERNEL" --serial firmware --timeout 1 --append bench=off --size-mb 16 \
	-o "$img" > "$TMPD/out" 2>&1
ok $? "mk-cf-image.sh --serial firmware builds ($(tail -n 1 "$TMPD/out"))"
mtype -i "$img@@1M" ::/boot/grub/grub.cfg > "$TMPD/grub.cfg" 2>/dev/null
grub-script-check "$TMPD/grub.cfg" >/dev/null 2>&1; ok $? "firmware: grub-script-check accepts grub.cfg"
grep -qx "terminal_input console" "$TMPD/grub.cfg" && grep -qx "terminal_output console" "$TMPD/grub.cfg" &&
	! grep -q "^serial " "$TMPD/grub.cfg"
ok $? "firmware: GRUB's menu goes through the BIOS console, no serial speed of its own"
quick=$(awk '/--id quick / { f = 1 } f && /multiboot/ { print; exit }' "$TMPD/grub.cfg")
[ "$quick" = "	multiboot /boot/cryptoqual.elf console=ttyS0 bench=off" ]
ok $? "firmware: the default entry passes console=ttyS0 without a speed ($quick)"
grep -q '^set default=quick$' "$TMPD/grub.cfg"; ok $? "firmware: the quick run is the default entry"
for s in 19200 38400 115200; do
	awk -v id="--id quick-$s" 'index($0, id) { f = 1 } f && /multiboot/ { print; exit }' "$TMPD/grub.cfg" |
		grep -qx "	multiboot /boot/cryptoqual.elf console=ttyS0,$s bench=off"
	ok $? "firmware: an entry forces $s"
done

for speed in 19200 38400; do
	uart_rom $((115200 / speed)) "$TMPD/uart$speed.rom"
	QEMU_EXTRA="-option-rom $TMPD/uart$speed.rom" boot_medium "firmware-$speed" "firmware-cf-$speed" \
		--cf "$img" --cpu pentium,+cmov --timeout 120
	check_report_shape "firmware-$speed"
	expect_status 0 "firmware-$speed: the image boots to PASS"
	expect_line "^# console: ttyS0 io=0x3f8 $speed 8N1 \(kept the speed the firmware set\)" \
		"firmware-$speed: the kernel kept the $speed baud the firmware set"
	expect_line "^# cmdline: console=ttyS0 bench=off$" "firmware-$speed: the default entry ran"
	drop_log
done
cmp -s "$TMPD/uart19200.rom" "$TMPD/uart38400.rom"; [ $? -ne 0 ]
ok $? "firmware: the two option ROMs differ (divisors 6 and 3)"

# The ISO and the PXE tree built the same way.
scripts/mk-iso.sh --kernel "$CQ_KERNEL" --serial firmware --timeout 1 -o "$TMPD/fleet.iso" > "$TMPD/out" 2>&1
ok $? "mk-iso.sh --serial firmware builds ($(tail -n 1 "$TMPD/out"))"
scripts/mk-pxe-tree.sh --kernel "$CQ_KERNEL" --serial firmware --timeout 1 -o "$TMPD/pxe" > "$TMPD/out" 2>&1
ok $? "mk-pxe-tree.sh --serial firmware builds ($(tail -n 1 "$TMPD/out"))"
grep -q "^kernel cryptoqual.elf console=ttyS0$" "$TMPD/pxe/cryptoqual.ipxe" &&
	grep -q "^  APPEND cryptoqual.elf console=ttyS0$" "$TMPD/pxe/pxelinux.cfg/default" &&
	! grep -q "^SERIAL" "$TMPD/pxe/pxelinux.cfg/default" &&
	grep -qx "terminal_output console" "$TMPD/pxe/boot/grub/grub.cfg"
ok $? "firmware: iPXE, PXELINUX and GRUB netboot keep the firmware's console speed"
scripts/mk-grub-cfg.sh --serial 12345 --kernel /k > /dev/null 2>&1; [ $? -eq 2 ]
ok $? "mk-grub-cfg.sh still refuses a speed it does not know"
finish
