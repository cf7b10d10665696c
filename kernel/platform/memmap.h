/*
 * Memory: the multiboot memory map, and a simple allocator for the buffers
 * the tests and benchmarks need (DMA buffers, bounce buffers, test data).
 * Paging is off, so a pointer is a physical address.
 */
#ifndef CQ_KERNEL_MEMMAP_H
#define CQ_KERNEL_MEMMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/platform/multiboot.h"

#define MEMMAP_MAX 32

/*
 * A pointer to a physical address (paging is off: identity). The empty asm
 * hides the constant from the compiler, which otherwise warns that a fixed
 * low address such as the BIOS data area is "outside array bounds".
 */
static inline const void *phys_ptr(uintptr_t addr)
{
	__asm__("" : "+r"(addr));
	return (const void *)addr;
}

struct mem_region {
	uint64_t base;
	uint64_t length;    /* bytes */
	uint32_t type;      /* 1 = available RAM (multiboot spec 3.3) */
};

/*
 * Copies the loader's memory map (if any) and chooses the arena the
 * allocator hands out: the largest available RAM region above the kernel
 * image and below 4 GiB. Without a map from the loader it uses only
 * conservative low memory (0x10000-0x90000) and says so in the report.
 * A map that wraps past 4 GiB or is over 64 KiB is not read; an entry whose
 * size is below 20 or runs past the map ends the walk (the entries before
 * it are kept); memmap_report() says which.
 */
void memmap_init(const struct multiboot_info *mbi);

/*
 * Loader data is untrusted. mb_range_ok: whether [addr, addr + len) is a
 * non-NULL range that does not wrap past 4 GiB. mb_copy_string: copies the
 * NUL-terminated string a loader left at addr into dst (cap bytes, always
 * terminated), stopping at cap - 1 bytes or at the top of the address space;
 * addr 0 gives "". Returns the length copied.
 */
bool mb_range_ok(uint32_t addr, uint32_t len);
size_t mb_copy_string(char *dst, size_t cap, uint32_t addr);

/*
 * Bytes of available RAM (type 1) in the loader's map, or 0 when the loader
 * gave no map (then the total is not known).
 */
uint64_t memmap_total_available(void);

/* Prints the map and the arena as `#` lines. */
void memmap_report(void);

/*
 * Allocates size bytes aligned to align (a power of two, at least 1) from
 * the arena. Memory is never freed (the run is a sequence of tests).
 * Returns NULL when the arena is exhausted.
 */
void *mem_alloc(size_t size, size_t align);

#endif
