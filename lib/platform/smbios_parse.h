/*
 * smbios_parse: the SMBIOS entry point and the structures a fleet log
 * names a box by (DMTF DSP0134 3.x: 5.2.1 the 32-bit "_SM_" entry point of
 * SMBIOS 2.x, 5.2.2 the 64-bit "_SM3_" one; 6.1 structure layout; 7.1 BIOS
 * (type 0), 7.2 System (type 1), 7.3 Baseboard (type 2) information).
 * Hardware-free: the kernel hands in copies of firmware memory
 * (kernel/platform/smbios.c); every length and index in them is checked,
 * as the bytes may be anything.
 */
#ifndef CQ_LIB_SMBIOS_PARSE_H
#define CQ_LIB_SMBIOS_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SMBIOS_SCAN_BASE   0xF0000u   /* the entry point is in 0xF0000-0xFFFFF ... */
#define SMBIOS_SCAN_LEN    0x10000u   /* ... on a 16-byte boundary */
#define SMBIOS_TABLE_MAX   0x10000u   /* bytes of structure table read at most */
#define SMBIOS_STR_MAX     64         /* bytes kept of one string (raw, unescaped) */

struct smbios_ep {
	bool v3;                /* "_SM3_" (64-bit) rather than "_SM_" */
	unsigned major, minor;
	uint64_t table_addr;    /* physical address of the structure table */
	uint32_t table_len;     /* bytes (2.x: exact; 3.x: the maximum) */
	unsigned count;         /* structures (2.x), 0 = not given (3.x) */
};

/*
 * Finds an entry point in seg (len bytes, a copy of memory starting at a
 * 16-byte boundary): a "_SM3_" anchor whose length (at most 32) and
 * checksum are right, else a "_SM_" one whose checksum, "_DMI_"
 * intermediate anchor and checksum are right. Returns its offset in seg, or
 * -1 when there is none.
 */
long smbios_find_entry(const uint8_t *seg, size_t len, struct smbios_ep *ep);

struct smbios_facts {
	char bios_vendor[SMBIOS_STR_MAX + 1], bios_version[SMBIOS_STR_MAX + 1];
	char bios_date[SMBIOS_STR_MAX + 1];
	char sys_vendor[SMBIOS_STR_MAX + 1], sys_product[SMBIOS_STR_MAX + 1];
	char sys_serial[SMBIOS_STR_MAX + 1];
	char board_vendor[SMBIOS_STR_MAX + 1], board_product[SMBIOS_STR_MAX + 1];
	char board_serial[SMBIOS_STR_MAX + 1];
	bool have_bios, have_system, have_board;   /* the structure was found */
	unsigned structures;                        /* walked */
	const char *error;                          /* why the walk stopped early, or NULL */
};

/*
 * Walks the structure table t (len bytes) up to max_count structures (0:
 * no limit but len) or the end-of-table structure (type 127), and keeps
 * the first type 0, 1 and 2's strings (raw bytes, cut at SMBIOS_STR_MAX;
 * "" for a string the structure does not give). A structure shorter than
 * its 4-byte header, one running past len or a string set with no double
 * NUL before len stops the walk with f->error set; what was read before
 * is kept. Returns the number of structures walked.
 */
unsigned smbios_parse_table(const uint8_t *t, size_t len, unsigned max_count,
			    struct smbios_facts *f);

/*
 * The BIOS version banner in a ROM image (boards without SMBIOS, e.g.
 * Soekris comBIOS): the first run of at least 8 printable bytes that
 * contains "BIOS", copied into out (cap bytes, cut at SMBIOS_STR_MAX).
 * Returns false (out = "") when there is none.
 */
bool bios_banner_find(const uint8_t *rom, size_t len, char *out, size_t cap);

#endif
