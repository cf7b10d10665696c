#!/bin/bash
# Boot test: the box's identity. QEMU is given an SMBIOS system
# serial, NICs of the four kinds the image reads (e1000, rtl8139, pcnet; the
# Rhine is the emulated net5501's, tests/boot/emu-net5501.t) with known
# station addresses, and a CMOS clock date; the @identity and @nic records
# must carry exactly those, and the run still passes.
. tests/boot/lib.sh
echo "TAP version 13"

export QEMU_EXTRA="-smbios type=1,serial=CQ-TEST-42 -device e1000,mac=52:54:00:12:34:56 -device rtl8139,mac=52:54:00:aa:bb:01 -device pcnet,mac=52:54:00:aa:bb:02 -rtc base=2026-12-01T10:00:00"
boot "identity" --cpu qemu32 --timeout 120 -- bench=off rng_bytes=2500
check_report_shape "identity"
expect_status 0 "identity: the run passes"
rec=$(grep '^# @identity ' "$BOOT_LOG")
[ "$(grep -c '^# @identity ' "$BOOT_LOG")" -eq 1 ]; ok $? "identity: one @identity record"
grep -q ' sys_serial=CQ-TEST-42 ' <<<"$rec"; ok $? "identity: the SMBIOS system serial given to QEMU (CQ-TEST-42)"
grep -q ' smbios=[23]\.[0-9]* ' <<<"$rec"; ok $? "identity: the SMBIOS version of the entry point"
grep -q ' sys_vendor=QEMU ' <<<"$rec"; ok $? "identity: the system manufacturer (QEMU)"
grep -q ' bios_vendor=SeaBIOS ' <<<"$rec" && grep -qE ' bios_version=[^ ]+ bios_date=[0-9]{2}/[0-9]{2}/[0-9]{4} ' <<<"$rec"
ok $? "identity: BIOS vendor, version and date from SMBIOS type 0"
grep -q ' sys_product=Standard\\x20PC\\x20' <<<"$rec"; ok $? "identity: a string with spaces is one value (\\x20)"
# The clock runs from the base: the date, and a time within the boot's first minutes.
grep -qE ' rtc=2026-12-01T10:0[0-4]:[0-5][0-9] ' <<<"$rec"; ok $? "identity: the CMOS clock date and time (-rtc base=2026-12-01T10:00:00)"
grep -qE ' mem_kib=1[0-9]{5} ' <<<"$rec"; ok $? "identity: total memory from the loader's map"
grep -qE ' t=[0-9]+\.[0-9]$' <<<"$rec"; ok $? "identity: the record carries its time"
expect_line '^# @nic pci=[0-9a-f:.]+ id=8086:100e kind=e1000 mac=52:54:00:12:34:56 t=' "identity: the e1000's station address"
expect_line '^# @nic pci=[0-9a-f:.]+ id=10ec:8139 kind=rtl8139 mac=52:54:00:aa:bb:01 t=' "identity: the rtl8139's station address"
expect_line '^# @nic pci=[0-9a-f:.]+ id=1022:2000 kind=pcnet mac=52:54:00:aa:bb:02 t=' "identity: the pcnet's station address"
grep -qE " nics=$(grep -c '^# @nic ' "$BOOT_LOG") " <<<"$rec"; ok $? "identity: nics= counts the @nic records"
grep -qE ' asset=absent tag=absent box=CQ-TEST-42 t=' <<<"$rec"; ok $? "identity: without asset= the box key is the real SMBIOS serial"
# Every @ record carries t=.
! grep '^# @' "$BOOT_LOG" | grep -vqE ' t=[0-9]+\.[0-9]$'; ok $? "identity: every @ record ends in t=SECONDS"
drop_log

# Without the added devices and options: no NIC address invented, no serial.
export QEMU_EXTRA="-nic none"
boot "bare" --cpu qemu32 --timeout 120 -- bench=off rng_bytes=2500
rec=$(grep '^# @identity ' "$BOOT_LOG")
grep -q ' nics=0 ' <<<"$rec" && ! grep -q '^# @nic ' "$BOOT_LOG"; ok $? "bare: no NIC, no @nic record"
grep -q ' board_serial=absent ' <<<"$rec"; ok $? "bare: a serial QEMU does not give reads absent"
grep -qE ' box=unknown t=' <<<"$rec"; ok $? "bare: no asset, serial or NIC: the box key reads unknown"
drop_log

# asset= wins over a serial and a MAC; a placeholder serial loses to the MAC; tag= is carried, escaped.
export QEMU_EXTRA="-smbios type=1,serial=CQ-TEST-42 -nic user,model=e1000,mac=52:54:00:12:34:77"
boot "asset" --cpu qemu32 --timeout 120 -- bench=off rng_bytes=2500 asset=RACK7-U12 'tag=batch#3/a\b'
rec=$(grep '^# @identity ' "$BOOT_LOG")
grep -qF ' asset=RACK7-U12 tag=batch#3/a\x5cb box=RACK7-U12 t=' <<<"$rec"; ok $? "asset: asset= is the box key, tag= carried with its backslash escaped ($rec)"
expect_line '^# options: .* asset=RACK7-U12 tag=batch#3/a[\]b$' "asset: the options line echoes asset= and tag="
drop_log
export QEMU_EXTRA="-smbios type=1,serial=0123456789 -nic user,model=e1000,mac=52:54:00:12:34:77"
boot "placeholder" --cpu qemu32 --timeout 120 -- bench=off rng_bytes=2500
rec=$(grep '^# @identity ' "$BOOT_LOG")
grep -qE ' box=mac-525400123477 t=' <<<"$rec"; ok $? "placeholder: a placeholder serial is no key: the first NIC's MAC is"
finish
