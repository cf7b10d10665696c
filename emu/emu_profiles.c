/*
 * The machine profiles of the emulation build: which CPUID dump, which PCI
 * listing (both from shared/data, embedded at build time) and which device
 * models make up each emulated box. docs/emulation.md explains each.
 */
#include <string.h>

#include "lib/util/fmt.h"

#include "emu/emu.h"

#define GEODE_LX_DUMP	"AuthenticAMD00005A2_GeodeLX_CPUID.txt"

/*
 * The net5501's four VIA Rhine (VT6105M) station addresses, as its
 * EEPROM would load them into PAR0-5. Made up (assumption, labelled in
 * docs/emulation.md): Soekris's OUI 00:00:24, consecutive as on a board.
 */
static const uint8_t net5501_macs[][6] = {
	{ 0x00, 0x00, 0x24, 0xcb, 0x55, 0x01 },
	{ 0x00, 0x00, 0x24, 0xcb, 0x55, 0x02 },
	{ 0x00, 0x00, 0x24, 0xcb, 0x55, 0x03 },
	{ 0x00, 0x00, 0x24, 0xcb, 0x55, 0x04 },
};

/*
 * The ALIX.2D3's three VT6105M and the C7 board's VT8237 Rhine II: made-up
 * addresses (assumption, docs/emulation.md) in PC Engines' OUI 00:0d:b9
 * and VIA's 00:40:63, consecutive.
 */
static const uint8_t alix_macs[][6] = {
	{ 0x00, 0x0d, 0xb9, 0x1a, 0x2b, 0x01 },
	{ 0x00, 0x0d, 0xb9, 0x1a, 0x2b, 0x02 },
	{ 0x00, 0x0d, 0xb9, 0x1a, 0x2b, 0x03 },
};
static const uint8_t c7_macs[][6] = {
	{ 0x00, 0x40, 0x63, 0xc7, 0x00, 0x01 },
};

static const struct emu_profile profiles[] = {
	{ "net5501", "Soekris net5501 (AMD Geode LX, CS5536)", GEODE_LX_DUMP,
	  "net5501-combios-showpci.txt", true, true, EMU_NO_PADLOCK, NULL, 0, 0, 0 },
	{ "alix", "PC Engines ALIX.2D3 (AMD Geode LX800, CS5536)", GEODE_LX_DUMP,
	  "alix2d3-lspci-nn.txt", false, true, EMU_NO_PADLOCK, NULL, 0, 0, 0 },
	{ "c7", "VIA C7 \"Esther\" (PadLock RNG, ACE, ACE2, PHE, PMM)",
	  "CentaurHauls00006A9_C5J_Esther_CPUID.txt", NULL, false, false, PADLOCK_CPU_ESTHER,
	  NULL, 0x12, 0x3065, 0x78 },
	{ "nano", "VIA Nano \"Isaiah\" (PadLock RNG, ACE, PHE block mode)",
	  "CentaurHauls00006F2_CNA_Isaiah_CPUID.txt", NULL, false, false, PADLOCK_CPU_ISAIAH,
	  NULL, 0, 0, 0 },
	{ "nehemiah", "VIA C3 \"Nehemiah\" (PadLock RNG, ACE)",
	  "CentaurHauls0000698_C5P_Nehemiah_CPUID.txt", NULL, false, false, PADLOCK_CPU_NEHEMIAH,
	  NULL, 0, 0, 0 },
	{ "samuel2", "VIA C3 \"Samuel 2\" (no PadLock)",
	  "CentaurHauls0000673_C5B_Samuel2_CPUID.txt", NULL, false, false, PADLOCK_CPU_SAMUEL2,
	  NULL, 0, 0, 0 },
	{ "zhaoxin", "Zhaoxin KaiXian KX-7000 (PadLock RNG, ACE, PHE, PHE2, PMM; ACE2 present but disabled)",
	  "CentaurHauls00607B1_KX7000_CPUID.txt", NULL, false, false, PADLOCK_CPU_ZHAOXIN,
	  "the KX-7000 also reports AES-NI and RDRAND: QEMU's TCG (-cpu max) executes those, not a model, and their rows are not marked emulated", 0, 0, 0 },
	{ "ivybridge", "Intel Core Ivy Bridge (AES-NI, RDRAND)",
	  "GenuineIntel00306A9_IvyBridge_CPUID.txt", NULL, false, false, EMU_NO_PADLOCK,
	  "AES-NI and RDRAND are executed by QEMU's TCG (-cpu max), not by a model: their rows are not marked emulated", 0, 0, 0 },
};

#define NPROFILES	(sizeof(profiles) / sizeof(profiles[0]))

const struct emu_profile *emu_profile_find(const char *name)
{
	unsigned i;
	for (i = 0; i < NPROFILES; i++)
		if (strcmp(name, profiles[i].name) == 0)
			return &profiles[i];
	return NULL;
}

const uint8_t (*emu_profile_macs(const char *name, unsigned *n))[6]
{
	if (strcmp(name, "net5501") == 0) {
		*n = sizeof(net5501_macs) / sizeof(net5501_macs[0]);
		return net5501_macs;
	}
	if (strcmp(name, "alix") == 0) {
		*n = sizeof(alix_macs) / sizeof(alix_macs[0]);
		return alix_macs;
	}
	if (strcmp(name, "c7") == 0) {
		*n = sizeof(c7_macs) / sizeof(c7_macs[0]);
		return c7_macs;
	}
	*n = 0;
	return NULL;
}

const char *emu_profile_list(void)
{
	static char list[NPROFILES * 16];
	size_t k = 0;
	unsigned i;

	for (i = 0; i < NPROFILES; i++)
		k += fmt_snprintf(list + k, sizeof(list) - k, "%s%s", i ? " " : "", profiles[i].name);
	return list;
}

const struct emu_blob *emu_blob_find(const char *dir, const char *file)
{
	const struct emu_blob *b;
	size_t n = strlen(dir);

	for (b = emu_blobs; b->name; b++)
		if (strncmp(b->name, dir, n) == 0 && b->name[n] == '/' &&
		    strcmp(b->name + n + 1, file) == 0)
			return b;
	return NULL;
}
