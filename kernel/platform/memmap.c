/* Memory map and arena allocator. See memmap.h. */
#include "kernel/platform/memmap.h"

#include "kernel/platform/console.h"
#include "kernel/run/report.h"

extern char __image_start[], __image_end[];

#define LOW_ARENA_START 0x10000u
#define LOW_ARENA_END   0x90000u
#define FOUR_GIB        0x100000000ull

static struct {
	struct mem_region r[MEMMAP_MAX];
	unsigned n;
	unsigned dropped;
	int from_loader;
	uintptr_t arena_start, arena_end, next;
} mm;

static const char *type_name(uint32_t t)
{
	switch (t) {
	case 1: return "available";
	case 2: return "reserved";
	case 3: return "ACPI reclaimable";
	case 4: return "ACPI NVS";
	case 5: return "bad";
	default: return "other";
	}
}

static void choose_arena(void)
{
	uint64_t kend = (uintptr_t)__image_end;
	uint64_t best_start = 0, best_len = 0;
	unsigned i;

	for (i = 0; i < mm.n; i++) {
		uint64_t s = mm.r[i].base, e = mm.r[i].base + mm.r[i].length;
		if (mm.r[i].type != 1)
			continue;
		if (e > FOUR_GIB)
			e = FOUR_GIB;
		if (s < kend && e > kend)
			s = kend;            /* above the kernel image */
		if (s < 0x100000)
			continue;            /* leave low memory to the BIOS */
		if (e > s && e - s > best_len) {
			best_start = s;
			best_len = e - s;
		}
	}
	if (best_len == 0) {
		mm.arena_start = LOW_ARENA_START;
		mm.arena_end = LOW_ARENA_END;
	} else {
		mm.arena_start = (uintptr_t)best_start;
		mm.arena_end = (uintptr_t)(best_start + best_len - 1) + 1;
	}
	mm.next = mm.arena_start;
}

void memmap_init(const struct multiboot_info *mbi)
{
	mm.n = 0;
	mm.from_loader = mbi && (mbi->flags & MB_INFO_MEM_MAP) && mbi->mmap_length > 0;
	if (mm.from_loader) {
		uint32_t off = 0;
		while (off + sizeof(struct multiboot_mmap_entry) <= mbi->mmap_length) {
			const struct multiboot_mmap_entry *e =
				(const void *)(uintptr_t)(mbi->mmap_addr + off);
			if (e->size < 20)
				break;       /* malformed: stop rather than loop */
			if (mm.n < MEMMAP_MAX) {
				mm.r[mm.n].base = e->base_addr;
				mm.r[mm.n].length = e->length;
				mm.r[mm.n].type = e->type;
				mm.n++;
			} else {
				mm.dropped++;
			}
			off += e->size + 4;
		}
	}
	if (mm.n == 0)
		mm.from_loader = 0;
	choose_arena();
}

void memmap_report(void)
{
	unsigned i;
	if (!mm.from_loader) {
		tap_diag("memory: the loader gave no memory map; using only conservative low memory");
	} else {
		for (i = 0; i < mm.n; i++)
			tap_diag("memory: 0x%09llx-0x%09llx %s (%llu KiB)",
				 (unsigned long long)mm.r[i].base,
				 (unsigned long long)(mm.r[i].base + mm.r[i].length - 1),
				 type_name(mm.r[i].type),
				 (unsigned long long)(mm.r[i].length / 1024));
		if (mm.dropped)
			tap_diag("memory: %u more map entries not kept", mm.dropped);
	}
	tap_diag("memory: image 0x%08x-0x%08x, arena 0x%08x-0x%08x (%u KiB)",
		 (unsigned)(uintptr_t)__image_start, (unsigned)(uintptr_t)__image_end,
		 (unsigned)mm.arena_start, (unsigned)mm.arena_end,
		 (unsigned)((mm.arena_end - mm.arena_start) / 1024));
}

void *mem_alloc(size_t size, size_t align)
{
	uintptr_t p;
	if (align == 0)
		align = 1;
	p = (mm.next + align - 1) & ~(uintptr_t)(align - 1);
	if (p < mm.next || p > mm.arena_end || mm.arena_end - p < size)
		return NULL;
	mm.next = p + size;
	return (void *)p;
}
