/*
 * smbios: the firmware's identity of the box. The SMBIOS entry point in
 * 0xF0000-0xFFFFF and its structure table (DMTF DSP0134; parsed by
 * lib/platform/smbios_parse.c), else the BIOS version banner in the same
 * ROM (boards whose firmware has no SMBIOS, e.g. Soekris comBIOS).
 */
#ifndef CQ_KERNEL_SMBIOS_H
#define CQ_KERNEL_SMBIOS_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/platform/smbios_parse.h"

struct firmware_id {
	bool smbios;                    /* an entry point was found */
	struct smbios_ep ep;
	struct smbios_facts f;          /* its structures (raw strings) */
	const char *why_absent;         /* when !smbios: why, for the report */
	bool banner;                    /* a BIOS banner was found (looked for when !smbios) */
	char banner_text[SMBIOS_STR_MAX + 1];
};

/*
 * Reads the firmware identity: the entry point, the table (only below
 * 4 GiB, at most SMBIOS_TABLE_MAX bytes), else the banner. Plain memory
 * reads (paging is off; the tables are in RAM or ROM, not MMIO). On an
 * emulated machine (emulate_hides_firmware()) QEMU's tables are not the
 * box's: everything reads absent.
 */
void firmware_id_read(struct firmware_id *id);

#endif
