# Boots the image under one QEMU CPU model and checks a normal run:
# sourced by tests/boot/cpu-*.t with CPU set.
. tests/boot/lib.sh
echo "TAP version 13"
boot "cpu $CPU" --cpu "$CPU" --timeout 240 --
check_report_shape "cpu $CPU"
relay_kernel_results "cpu $CPU"
expect_status 0 "cpu $CPU: the run ends in PASS with QEMU status 33"
expect_line '^# pci: 00:00\.0 8086:1237 ' "cpu $CPU: PCI table lists the i440FX host bridge 8086:1237"
expect_line '^# pci: 00:01\.0 8086:7000 ' "cpu $CPU: PCI table lists the PIIX3 ISA bridge 8086:7000"
expect_line '^# cpu\.vendor=(GenuineIntel|AuthenticAMD)$' "cpu $CPU: CPUID vendor printed"
expect_line '^# cryptoqual [^ ]+ image-sha256=[0-9a-f]{64}$' "cpu $CPU: version and image hash printed"
want=$(cat "$CQ_BUILD/cryptoqual.sha256" 2>/dev/null)
expect_line "image-sha256=$want\$" "cpu $CPU: image hash equals sha256 of build/cryptoqual.bin ($want)"
expect_line '^ok [0-9]+ - geode-sb: probe # SKIP no 1022:2082 device$' "cpu $CPU: Geode security block tests SKIP: no 1022:2082 device"
expect_line '^ok [0-9]+ - padlock: .* # SKIP no VIA PadLock on this CPU' "cpu $CPU: PadLock tests SKIP: no VIA PadLock on this CPU"
