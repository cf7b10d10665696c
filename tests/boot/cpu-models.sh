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
expect_line '^# pci: 00:01\.1 8086:7010 01\.01\.80 .* IDE interface$' "cpu $CPU: PCI table lists function 1 of the multi-function device (PIIX3 IDE)"
expect_line '^# pci: 00:01\.3 8086:7113 06\.80\.00 ' "cpu $CPU: PCI table lists function 3 of the multi-function device (PIIX4 ACPI)"
expect_line '^# pci: 00:03\.0 8086:100e .*BAR0=mem32:0x[0-9a-f]+/128K BAR1=io:0x[0-9a-f]+/64 Ethernet controller$' "cpu $CPU: e1000 BARs decoded and sized (128K memory, 64 bytes I/O)"
expect_line '^# cpu\.vendor=(GenuineIntel|AuthenticAMD)$' "cpu $CPU: CPUID vendor printed"
expect_line '^# cryptoqual [^ ]+ image-sha256=[0-9a-f]{64}$' "cpu $CPU: version and image hash printed"
want=$(cat "$CQ_BUILD/cryptoqual.sha256" 2>/dev/null)
expect_line "image-sha256=$want\$" "cpu $CPU: image hash equals sha256 of build/cryptoqual.bin ($want)"
expect_line "^# @identity version=[^ ]+ image_sha256=$want emulate=none " "cpu $CPU: @identity record names the image and no emulation"
expect_line '^ok [0-9]+ - geode-sb: probe # SKIP no 1022:2082 device$' "cpu $CPU: Geode security block tests SKIP: no 1022:2082 device"
expect_line '^ok [0-9]+ - padlock: .* # SKIP no VIA PadLock on this CPU' "cpu $CPU: PadLock tests SKIP: no VIA PadLock on this CPU"
