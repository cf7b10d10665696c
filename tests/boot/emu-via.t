#!/bin/bash
# Boot test: the emulation build on the other VIA profiles: the Nano (ACE
# without ACE2, PHE in block mode, no PMM), the C3 Nehemiah (RNG and ACE
# only), the C3 Samuel 2 (no PadLock: every PadLock test SKIPs, and an
# xcrypt raises #UD) and the Zhaoxin KaiXian KX-7000 (its real dump:
# CentaurHauls family 7). CTR is built from ECB on every ACE.
. tests/boot/emu-lib.sh
emu_start

emu_boot "nano" nano bench=off rng_bytes=2500
check_report_shape "nano"
expect_status 0 "nano: the run ends in PASS"
emu_expect_header "nano" nano
expect_line '^ok [0-9]+ - padlock: units detected and enabled \(rng=enabled ace=enabled ace2=present-but-disabled phe=enabled pmm=absent, 7 engines\)$' \
	"nano: units as the Isaiah dump reports them"
for m in ecb cbc cfb128 ofb; do
	for k in 128 192 256; do
		expect_line "^ok [0-9]+ - kat: padlock-ace aes-$k-$m encrypt\$" "nano: ACE KAT aes-$k-$m encrypt"
		expect_line "^ok [0-9]+ - kat: padlock-ace aes-$k-$m decrypt\$" "nano: ACE KAT aes-$k-$m decrypt"
	done
done
expect_line '^ok [0-9]+ - kat: padlock-ace aes-128-ctr encrypt$' "nano: CTR from ECB although ACE2 is disabled"
expect_line '^ok [0-9]+ - padlock: ace2 hardware ctr probe .* # SKIP ACE2 present but disabled' "nano: no hardware CTR probe (ACE2 disabled): SKIP"
expect_line '^# engine: sha256 padlock-phe: .*block mode' "nano: PHE in block mode"
expect_line '^ok [0-9]+ - kat: padlock-phe sha256 ' "nano: PHE SHA-256 KAT"
expect_line '^ok [0-9]+ - padlock: pmm .* # SKIP ' "nano: no PMM: SKIP"
emu_done

emu_boot "nehemiah" nehemiah bench=off rng_bytes=2500
check_report_shape "nehemiah"
expect_status 0 "nehemiah: the run ends in PASS"
emu_expect_header "nehemiah" nehemiah
expect_line '^ok [0-9]+ - padlock: units detected and enabled \(rng=enabled ace=enabled ace2=absent phe=absent pmm=absent, 5 engines\)$' \
	"nehemiah: RNG and ACE only"
expect_line '^ok [0-9]+ - kat: padlock-ace aes-256-ofb decrypt$' "nehemiah: ACE KAT aes-256-ofb decrypt"
! grep -qE '^ok [0-9]+ - kat: padlock-phe ' "$BOOT_LOG"; ok $? "nehemiah: no PHE KAT (no PHE)"
expect_line '^ok [0-9]+ - padlock: rng xstore divisor 3 status and data \(256 bytes in [0-9]+ stores' "nehemiah: xstore divisor 3"
emu_done

emu_boot "samuel2" samuel2 bench=off rng_bytes=2500
check_report_shape "samuel2"
expect_status 0 "samuel2: the run ends in PASS"
emu_expect_header "samuel2" samuel2
n_skip=$(grep -cE '^ok [0-9]+ - padlock: .* # SKIP no VIA PadLock on this CPU' "$BOOT_LOG")
[ "$n_skip" -eq 8 ]; ok $? "samuel2: the 8 PadLock tests SKIP: no VIA PadLock on this CPU ($n_skip)"
! grep -qE 'padlock-(ace|phe|xstore)' "$BOOT_LOG"; ok $? "samuel2: no PadLock engine registered"
expect_line '^# emulate: padlock: #UD: xcrypt instruction with the unit disabled' "samuel2: the model declines an xcrypt and says why"
expect_line '^ok [0-9]+ - emulate: an xcrypt while CPUID reports the ACE not enabled raises \\#UD \(\\#UD, declined by the model: yes\)$' \
	"samuel2: that xcrypt raises #UD in the kernel"
emu_done

emu_boot "zhaoxin" zhaoxin bench=off rng_bytes=2500
check_report_shape "zhaoxin"
expect_status 0 "zhaoxin: the run ends in PASS"
emu_expect_header "zhaoxin" zhaoxin
expect_line '^# emulate: profile zhaoxin: Zhaoxin KaiXian KX-7000 ' "zhaoxin: the header names the KX-7000"
expect_line '^# emulate: cpuid: every leaf from the dump CentaurHauls00607B1_KX7000_CPUID\.txt ' "zhaoxin: CPUID from the real KX-7000 dump"
expect_line '^# cpu\.vendor=CentaurHauls$' "zhaoxin: vendor CentaurHauls, as the real part reports"
expect_line '^# cpu\.signature=0x000607b1$' "zhaoxin: signature 0x607B1 (family 7 model 0x6B)"
expect_line '^# cpu\.brand=.*ZHAOXIN KaiXian KX-7000$' "zhaoxin: the brand string names the KX-7000"
expect_line '^# emulate: model: Zhaoxin KaiXian KX-7000 PadLock ' "zhaoxin: the PadLock model is the KX-7000's"
expect_line '^ok [0-9]+ - padlock: units detected and enabled \(rng=enabled ace=enabled ace2=present-but-disabled phe=enabled pmm=enabled, 7 engines\)$' \
	"zhaoxin: units as the KX-7000 dump reports them (padlock-pmm registered after its known answer)"
expect_line '^ok [0-9]+ - kat: padlock-ace aes-128-cbc encrypt$' "zhaoxin: ACE KAT aes-128-cbc encrypt"
expect_line '^ok [0-9]+ - kat: padlock-ace aes-256-ctr decrypt$' "zhaoxin: CTR from ECB"
expect_line '^# engine: sha256 padlock-phe: .*block mode' "zhaoxin: PHE in block mode"
expect_line '^ok [0-9]+ - padlock: pmm rep montmul 1024-bit known answer # finding: passed$' \
	"zhaoxin: the PMM known answer is a finding (montmul documented for VIA only)"
expect_line '^# @finding driver=padlock test=padlock:\\x20pmm\\x20rep\\x20montmul[^ ]* outcome=passed detail=final\\x20subtraction\\x20(not\\x20)?needed;\\x20the\\x20known\\x20answer\\x20matches:\\x20padlock-pmm\\x20benchmarked ' \
	"zhaoxin: the unit is benchmarked once its known answer matched"
emu_done
finish
