/* Multiboot Specification 0.6.96, section 3.3: the boot information structure. */
#ifndef CQ_KERNEL_MULTIBOOT_H
#define CQ_KERNEL_MULTIBOOT_H

#include <stdint.h>

#define MULTIBOOT_LOADER_MAGIC 0x2BADB002

#define MB_INFO_MEMORY      (1u << 0)   /* mem_lower, mem_upper valid */
#define MB_INFO_CMDLINE     (1u << 2)
#define MB_INFO_MEM_MAP     (1u << 6)   /* mmap_length, mmap_addr valid */
#define MB_INFO_LOADER_NAME (1u << 9)

struct multiboot_info {
	uint32_t flags;
	uint32_t mem_lower;     /* KiB below 1 MiB */
	uint32_t mem_upper;     /* KiB above 1 MiB */
	uint32_t boot_device;
	uint32_t cmdline;       /* physical address of a NUL-terminated string */
	uint32_t mods_count;
	uint32_t mods_addr;
	uint32_t syms[4];
	uint32_t mmap_length;   /* bytes */
	uint32_t mmap_addr;
	uint32_t drives_length;
	uint32_t drives_addr;
	uint32_t config_table;
	uint32_t boot_loader_name;
};

struct __attribute__((packed)) multiboot_mmap_entry {
	uint32_t size;          /* of the rest of this entry, bytes */
	uint64_t base_addr;
	uint64_t length;
	uint32_t type;
};

#endif
