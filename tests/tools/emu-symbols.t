#!/bin/bash
# The release image carries no device model, no emulator and no emulated
# machine data; the emulation image (make emu) carries all of them. Checked
# with nm on the symbols of each part and on the embedded data's text.
. tests/tap-lib.sh
set -u
NM=i686-linux-gnu-nm
release="$CQ_BUILD/cryptoqual.elf"
emu="$CQ_BUILD/cryptoqual-emu.elf"
tap_begin
# One symbol of each part that only the emulation build links.
symbols="geode_sb_model_init geode_sb_model_mmio_read padlock_model_exec padlock_model_cpuid
emu_hw_set_pci emu_hw_add_bar emu_profile_find emu_blobs emu_patch_reload_sites
emu_check_disabled_ace hw_real_inb hw_real_rdmsr_safe __start_padlock_reload_sites
pci_listing_load pci_model_init cpuid_dump_parse cpuid_dump_query
rhine_model_init rhine_model_io_read nic_wire_init emu_hw_add_io emu_nic_find_wire"
# Names of embedded shared/data files, and when the data is here, a line of
# each (a CPUID record of the C7 dump, the security block's row of the
# net5501 listing).
data_text="CentaurHauls00006A9_C5J_Esther_CPUID.txt
net5501-combios-showpci.txt"
if [ -d "$CQ_SHARED/data/cpuid" ]; then
	data_text="$data_text
$(grep -m1 '^CPUID C0000001' "$CQ_SHARED/data/cpuid/CentaurHauls00006A9_C5J_Esther_CPUID.txt" | tr -d '\r')
$(grep -m1 '^0:01:2 ' "$CQ_SHARED/data/pci/net5501-combios-showpci.txt" | tr -d '\r')"
fi

if [ ! -f "$release" ]; then
	ok 1 "the release image exists at $release (run make)"
else
	rel_syms=$($NM "$release")
	for s in $symbols; do
		! printf '%s\n' "$rel_syms" | grep -qw "$s"
		ok $? "release image: no $s"
	done
	while IFS= read -r t; do
		[ -n "$t" ] || continue
		! grep -qaF "$t" "$release"
		ok $? "release image: no embedded data ($t)"
	done <<< "$data_text"
	# The no-ops are inlined at the link (LTO): their one message marks them.
	grep -qaF "needs the emulation build (make emu); this image runs on the real hardware only" "$release"
	ok $? "release image: has the emulate_* no-ops (kernel/platform/emulate_none.c)"
fi

if [ ! -d "$CQ_SHARED/data/cpuid" ]; then
	echo "# SKIP the emulation image: $CQ_SHARED/data/cpuid not found (make emu needs ../shared/data)"
elif [ ! -f "$emu" ]; then
	ok 1 "the emulation image exists at $emu (run make emu)"
else
	emu_syms=$($NM "$emu")
	for s in $symbols; do
		printf '%s\n' "$emu_syms" | grep -qw "$s"
		ok $? "emulation image: has $s"
	done
	while IFS= read -r t; do
		[ -n "$t" ] || continue
		grep -qaF "$t" "$emu"
		ok $? "emulation image: embeds the data ($t)"
	done <<< "$data_text"
	out=$(scripts/insn-audit.sh "$emu" 2>&1); rc=$?
	ok $rc "emulation image: no post-i586 instruction outside .text_cpufeat (it boots on the Geode profiles' pentium,+cmov)"
	[ $rc -eq 0 ] || printf '%s\n' "$out" | sed 's/^/# /'
fi
tap_end
