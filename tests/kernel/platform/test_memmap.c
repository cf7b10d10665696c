/*
 * Host test of kernel/platform/memmap.c (built for i386, run under qemu-i386: the
 * multiboot structures hold 32-bit addresses). The arena must come from
 * the largest available region of the loader's map, and without a map the
 * kernel must say so and use only conservative low memory. Prints TAP 13;
 * the kernel's own `#` lines come out in between.
 * Hostile maps: an entry size of 0xFFFFFFFC (size + 4 wraps to
 * 0: the walk used to loop forever), a size running past the map, a map
 * whose address + length wraps past 4 GiB (it must not be read at all: a
 * read there ends this program), regions wrapping past 2^64 or reaching
 * 4 GiB. A hang is turned into a failure by alarm().
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kernel/platform/memmap.h"

/* The linker script's symbols, for the code under test. */
char __image_start[16], __image_end[16];

#include "tests/host/tap_ok.h"

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

	/* ---- hostile maps ---- */
	alarm(20);      /* a walk that loops is killed: prove sees a failure */

	/* size 0xFFFFFFFC: size + 4 wraps to 0. */
	memset(map, 0, sizeof(map));
	set_entry(0, 0x100000, 0x800000, 1);
	map[1].size = 0xFFFFFFFCu;
	set_entry(2, 0x4000000, 0x1000000, 1);
	mbi.flags = MB_INFO_MEM_MAP;
	mbi.mmap_addr = (uint32_t)(uintptr_t)map;
	mbi.mmap_length = 3 * sizeof(map[0]);
	memmap_init(&mbi);
	memmap_report();
	p = mem_alloc(16, 16);
	ok(in_range(p, 16, 0x100000, 0x900000),
	   "hostile map: entry size 0xFFFFFFFC ends the walk (no endless loop), the entry before it is kept");

	/* The same wrap with the bad entry first: nothing usable, low memory. */
	map[0].size = 0xFFFFFFFCu;
	memmap_init(&mbi);
	p = mem_alloc(16, 16);
	ok((uintptr_t)p == 0x10000, "hostile map: a first entry of size 0xFFFFFFFC leaves only low memory");

	/* A size that runs past the end of the map. */
	set_entry(0, 0x100000, 0x800000, 1);
	set_entry(1, 0x4000000, 0x1000000, 1);
	map[1].size = 2 * sizeof(map[0]);
	memmap_init(&mbi);
	p = mem_alloc(16, 16);
	ok(in_range(p, 16, 0x100000, 0x900000),
	   "hostile map: an entry whose size runs past the map is not used");

	/* Address + length wrap past 4 GiB: the map is not read at all. */
	mbi.mmap_addr = 0xFFFFFF00u;
	mbi.mmap_length = 0x200;
	memmap_init(&mbi);
	p = mem_alloc(16, 16);
	ok((uintptr_t)p == 0x10000, "hostile map: mmap_addr + mmap_length wrapping past 4 GiB is refused unread");
	mbi.mmap_addr = (uint32_t)(uintptr_t)map;
	mbi.mmap_length = 0xFFFFFFFFu;
	memmap_init(&mbi);
	p = mem_alloc(16, 16);
	ok((uintptr_t)p == 0x10000, "hostile map: mmap_length 0xFFFFFFFF is refused unread");
	mbi.mmap_addr = 0;
	mbi.mmap_length = 3 * sizeof(map[0]);
	memmap_init(&mbi);
	p = mem_alloc(16, 16);
	ok((uintptr_t)p == 0x10000, "hostile map: a map at address 0 is refused unread");

	/* Regions: one wraps past 2^64 (ignored), one reaches exactly 4 GiB
	 * (clipped so its end fits a pointer: the arena is not empty). */
	memset(map, 0, sizeof(map));
	set_entry(0, 0xFFFFFFFFFFFFF000ull, 0x100000000ull, 1);
	set_entry(1, 0x80000000ull, 0x80000000ull, 1);
	mbi.mmap_addr = (uint32_t)(uintptr_t)map;
	mbi.mmap_length = 2 * sizeof(map[0]);
	memmap_init(&mbi);
	memmap_report();
	p = mem_alloc(0x1000, 0x1000);
	ok(in_range(p, 0x1000, 0x80000000u, 0xFFFFF000u),
	   "hostile map: a region wrapping past 2^64 is ignored, one reaching 4 GiB still gives an arena");
	ok(mem_alloc(0x7FFFF000u, 1) == NULL && mem_alloc(0x7FFFE000u, 1) != NULL,
	   "hostile map: the arena ends below 4 GiB at 0xFFFFF000");

	/* Loader strings: bounded by the buffer, NUL-less, at address 0. */
	{
		char src[8] = { 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h' };   /* no NUL */
		char dst[5];
		size_t len = mb_copy_string(dst, sizeof(dst), (uint32_t)(uintptr_t)src);
		ok(len == 4 && strcmp(dst, "abcd") == 0, "loader string without a NUL: cut at the buffer, terminated");
		len = mb_copy_string(dst, sizeof(dst), 0);
		ok(len == 0 && dst[0] == '\0', "loader string at address 0: empty, not read");
		ok(!mb_range_ok(0xFFFFFFF0u, 0x20) && !mb_range_ok(0, 4) && mb_range_ok(0x1000, 0xFFFFEFFFu) &&
		   !mb_range_ok(0x1000, 0xFFFFF000u), "mb_range_ok: wrap past 4 GiB and NULL refused, the last byte allowed");
	}
	alarm(0);

	printf("1..%d\n", n);
	return failed != 0;
}
