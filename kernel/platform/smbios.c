/* smbios: the firmware's identity of the box. See smbios.h. */
#include "kernel/platform/smbios.h"

#include <stdint.h>
#include <string.h>

#include "kernel/platform/emulate.h"
#include "kernel/platform/memmap.h"

void firmware_id_read(struct firmware_id *id)
{
	const uint8_t *seg = phys_ptr(SMBIOS_SCAN_BASE);
	uint32_t len;

	memset(id, 0, sizeof(*id));
	if (emulate_hides_firmware()) {
		id->why_absent = "emulated machine: QEMU's firmware tables are not the box's";
		return;
	}
	if (smbios_find_entry(seg, SMBIOS_SCAN_LEN, &id->ep) < 0) {
		id->why_absent = "no entry point in 0xF0000-0xFFFFF";
	} else if (id->ep.table_addr == 0 || id->ep.table_len == 0 ||
		   id->ep.table_addr + id->ep.table_len > 0x100000000ull) {
		id->why_absent = "the entry point gives no table below 4 GiB";
	} else {
		len = id->ep.table_len < SMBIOS_TABLE_MAX ? id->ep.table_len : SMBIOS_TABLE_MAX;
		smbios_parse_table(phys_ptr((uintptr_t)id->ep.table_addr), len, id->ep.count, &id->f);
		id->smbios = true;
		return;
	}
	id->banner = bios_banner_find(seg, SMBIOS_SCAN_LEN, id->banner_text, sizeof(id->banner_text));
}
