/*
 * Host test of kernel/platform/memmap.c (built for i386, run under qemu-i386: the
 * multiboot structures hold 32-bit addresses). The arena must come from
 * the largest available region of the loader's map, and without a map the
 * kernel must say so and use only conservative low memory. Prints TAP 13;
 * the kernel's own `#` lines come out in between.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kernel/platform/memmap.h"

/* The linker script's symbols, for the code under test. */
char __image_start[16], __image_end[16];

static int n, failed;

static void ok(int cond, const char *what)
{
	n++;
	printf("%sok %d - %s\n", cond ? "" : "not ", n, what);
	if (!cond)
		failed++;
	fflush(stdout);
}

static struct multiboot_mmap_entry map[40];

static void set_entry(unsigned i, uint64_t base, uint64_t len, uint32_t type)
{
	map[i].size = 20;
	map[i].base_addr = base;
	map[i].length = len;
	map[i].type = type;
}

static int in_range(const void *p, size_t size, uintptr_t lo, uintptr_t hi)
{
	uintptr_t a = (uintptr_t)p;
	return p != NULL && a >= lo && a + size <= hi;
}

int main(void)
{
	struct multiboot_info mbi;
	void *p, *q;

	printf("TAP version 13\n");

	/* No map from the loader: conservative low memory only. */
	memset(&mbi, 0, sizeof(mbi));
	mbi.flags = MB_INFO_MEMORY;
	mbi.mem_lower = 639;
	mbi.mem_upper = 130000;
	memmap_init(&mbi);
	memmap_report();
	p = mem_alloc(4096, 16);
	ok((uintptr_t)p == 0x10000, "no memory map: the arena starts at 0x10000");
	q = mem_alloc(0x90000 - 0x11000, 1);
	ok((uintptr_t)q == 0x11000, "no memory map: the arena reaches exactly to 0x90000");
	ok(mem_alloc(1, 1) == NULL, "no memory map: nothing beyond 0x90000 is handed out");

	/* A typical map: the arena is the largest available region. */
	memset(&mbi, 0, sizeof(mbi));
	set_entry(0, 0x0, 0x9fc00, 1);
	set_entry(1, 0x9fc00, 0x400, 2);
	set_entry(2, 0xf0000, 0x10000, 2);
	set_entry(3, 0x100000, 0x2000000, 1);          /* 32 MiB */
	set_entry(4, 0x2100000, 0x100000, 1);          /* 1 MiB */
	set_entry(5, 0xfffc0000, 0x40000, 2);
	mbi.flags = MB_INFO_MEM_MAP;
	mbi.mmap_addr = (uint32_t)(uintptr_t)map;
	mbi.mmap_length = 6 * sizeof(map[0]);
	memmap_init(&mbi);
	memmap_report();
	p = mem_alloc(100, 4096);
	ok(in_range(p, 100, 0x100000, 0x2100000) && ((uintptr_t)p & 4095) == 0,
	   "memory map: allocations come from the largest available region, aligned as asked");
	q = mem_alloc(100, 16);
	ok(q != NULL && (uintptr_t)q >= (uintptr_t)p + 100, "memory map: allocations do not overlap");
	ok(mem_alloc(0x3000000, 16) == NULL, "memory map: a request larger than the arena is refused");

	/* A malformed entry (size < 20) ends the map instead of looping. */
	set_entry(0, 0x100000, 0x800000, 1);
	map[1].size = 0;
	mbi.mmap_length = 3 * sizeof(map[0]);
	memmap_init(&mbi);
	p = mem_alloc(16, 16);
	ok(in_range(p, 16, 0x100000, 0x900000), "memory map: a malformed entry ends the map");

	/* More entries than the kernel keeps: the rest are counted, not overrun. */
	for (unsigned i = 0; i < 40; i++)
		set_entry(i, 0x100000 + (uint64_t)i * 0x100000, 0x100000, i == 5 ? 1 : 2);
	mbi.mmap_length = 40 * sizeof(map[0]);
	memmap_init(&mbi);
	memmap_report();
	p = mem_alloc(16, 16);
	ok(in_range(p, 16, 0x600000, 0x700000), "memory map: 40 entries are read without overrunning the table");

	printf("1..%d\n", n);
	return failed != 0;
}
