# Helpers for the boot tests of the emulation build (tests/boot/emu-*.t):
# they boot $CQ_BUILD/cryptoqual-emu.elf (make emu) on an emulated machine
# profile with the QEMU CPU scripts/emu-cpu.sh names, and check the report
# with tests/boot/lib.sh. Without ../shared/data (CQ_SHARED) there is no
# emulation build: the test SKIPs with the reason.
. tests/boot/lib.sh
CQ_SHARED=${CQ_SHARED:-../shared}
CQ_KERNEL="$CQ_BUILD/cryptoqual-emu.elf"
EMU_TIMEOUT=${EMU_TIMEOUT:-120}	# seconds per boot; each takes a few under TCG

emu_start() {
	echo "TAP version 13"
	if [ ! -d "$CQ_SHARED/data/cpuid" ] || [ ! -d "$CQ_SHARED/data/pci" ]; then
		tap_skip_all "$CQ_SHARED/data not found: no emulation build without the CPUID dumps and PCI listings"
	fi
	if [ ! -f "$CQ_KERNEL" ]; then
		ok 1 "the emulation image exists at $CQ_KERNEL (run make emu)"
		tap_end
	fi
}

# emu_boot LABEL EMULATE_VALUE [kernel args...]: boots emulate=EMULATE_VALUE
# under -icount (as make run MACHINE= does): the TSC counts guest
# instructions, so a busy host cannot stretch a driver's bounded wait past
# its limit while the model still needs a poll or two.
emu_boot() {
	label=$1; profile=$2; shift 2
	EMU_FAILED_BEFORE=$TEST_FAILED
	boot "$label" --icount --cpu "$(scripts/emu-cpu.sh "${profile%%,*}" 2>/dev/null || echo max)" --timeout "$EMU_TIMEOUT" -- \
		"emulate=$profile" "$@"
}

# The header says what comes from the profile and from the real machine.
emu_expect_header() {
	label=$1; profile=$2
	expect_line "^# emulate: profile $profile: .*, fault " "$label: the header names the profile"
	expect_line '^# emulate: cpuid: every leaf from the dump [^ ]+_CPUID\.txt ' "$label: the header says CPUID comes from the dump"
	expect_line '^# emulate: pci: ' "$label: the header says where PCI comes from"
	expect_line '^# emulate: real: the QEMU machine' "$label: the header says what stays real"
	expect_line '^# emulate: real: QEMU recognised by its own PCI space, .*: yes$' "$label: QEMU recognised from its own PCI space before the profile hid it"
	expect_line "^ok 1 - emulate: profile $profile set up" "$label: the profile is set up (first result)"
	want=$(cat "$CQ_BUILD/cryptoqual-emu.sha256" 2>/dev/null)
	expect_line "image-sha256=$want\$" "$label: image hash equals sha256 of cryptoqual-emu.bin ($want)"
}

# After each boot of a multi-boot test: show the log if this boot failed.
emu_done() {
	if [ "$TEST_FAILED" -ne "$EMU_FAILED_BEFORE" ]; then
		diag "serial log of the failing boot:"
		sed 's/^/#   | /' "$BOOT_LOG"
	fi
	drop_log
}
