/* Memory map and arena allocator. See memmap.h. */
#include "kernel/platform/memmap.h"

#include "kernel/platform/console.h"

extern char __image_start[], __image_end[];

#define LOW_ARENA_START 0x10000u
#define LOW_ARENA_END   0x90000u
#define ARENA_TOP       0xFFFFF000ull   /* highest arena end: below 4 GiB, page-aligned */
#define MMAP_MAX_BYTES  0x10000u        /* a loader's map is a few hundred bytes */

static struct {
	struct mem_region r[MEMMAP_MAX];
	unsigned n;
	unsigned dropped;
	int from_loader;
	const char *rejected;   /* why (part of) the loader's map was not used */
	uint32_t bad_entry;     /* the size field that stopped the walk */
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

uint64_t memmap_total_available(void)
{
	uint64_t total = 0;
	unsigned i;

	if (!mm.from_loader)
		return 0;
	for (i = 0; i < mm.n; i++)
		if (mm.r[i].type == 1)
			total += mm.r[i].length;
	return total;
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
		if (e < s)
			continue;            /* base + length wraps past 2^64: not a region */
		if (e > ARENA_TOP)
			e = ARENA_TOP;       /* the end must fit a 32-bit pointer */
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

bool mb_range_ok(uint32_t addr, uint32_t len)
{
	return addr != 0 && len <= 0xFFFFFFFFu - addr;
}

size_t mb_copy_string(char *dst, size_t cap, uint32_t addr)
{
	size_t i = 0;
	if (cap == 0)
		return 0;
	if (addr != 0) {
		const char *src = phys_ptr(addr);
		/* Stop at the NUL, the buffer's end, or the top of the 4 GiB space. */
		for (; i + 1 < cap && i <= 0xFFFFFFFFu - addr && src[i]; i++)
			dst[i] = src[i];
	}
	dst[i] = '\0';
	return i;
}

/*
 * Multiboot 0.6.96, 3.3: mmap_addr/mmap_length give a buffer of entries,
 * each "size" (of the rest of the entry) then base, length, type. Every
 * field comes from the loader and is checked: the buffer must lie below
 * 4 GiB without wrapping, each entry must fit in what is left of it, and
 * the step to the next entry (size + 4) is computed so it cannot wrap.
 */
void memmap_init(const struct multiboot_info *mbi)
{
	mm.n = 0;
	mm.dropped = 0;
	mm.rejected = NULL;
	mm.from_loader = mbi && (mbi->flags & MB_INFO_MEM_MAP) && mbi->mmap_length > 0;
	if (mm.from_loader && !mb_range_ok(mbi->mmap_addr, mbi->mmap_length)) {
		mm.rejected = "its address and length wrap past 4 GiB (or the address is 0)";
		mm.from_loader = 0;
	} else if (mm.from_loader && mbi->mmap_length > MMAP_MAX_BYTES) {
		mm.rejected = "it claims more than 64 KiB";
		mm.from_loader = 0;
	}
	if (mm.from_loader) {
		uint32_t len = mbi->mmap_length, off = 0;
		while (len - off >= sizeof(struct multiboot_mmap_entry)) {
			const struct multiboot_mmap_entry *e = phys_ptr(mbi->mmap_addr + off);
			uint32_t size = e->size;
			if (size < 20 || size > len - off - 4) {
				mm.bad_entry = size;
				mm.rejected = size < 20 ? "an entry's size is below 20: the rest was not read"
							: "an entry's size runs past the map: the rest was not read";
				break;       /* malformed: stop rather than loop or overrun */
			}
			if (mm.n < MEMMAP_MAX) {
				mm.r[mm.n].base = e->base_addr;
				mm.r[mm.n].length = e->length;
				mm.r[mm.n].type = e->type;
				mm.n++;
			} else {
				mm.dropped++;
			}
			off += size + 4;     /* <= len: checked above */
		}
	}
	if (mm.n == 0)
		mm.from_loader = 0;
	choose_arena();
}

void memmap_report(void)
{
	unsigned i;
	if (mm.rejected)
		console_diag("warning: memory: the loader's memory map is malformed: %s (size field 0x%08x)",
			 mm.rejected, (unsigned)mm.bad_entry);
	if (!mm.from_loader) {
		console_diag("memory: the loader gave no memory map; using only conservative low memory");
	} else {
		for (i = 0; i < mm.n; i++)
			console_diag("memory: 0x%09llx-0x%09llx %s (%llu KiB)%s",
				 (unsigned long long)mm.r[i].base,
				 (unsigned long long)(mm.r[i].base + mm.r[i].length - 1),
				 type_name(mm.r[i].type),
				 (unsigned long long)(mm.r[i].length / 1024),
				 mm.r[i].base + mm.r[i].length < mm.r[i].base ? " (wraps past 2^64: ignored)" : "");
		if (mm.dropped)
			console_diag("memory: %u more map entries not kept", mm.dropped);
	}
	console_diag("memory: image 0x%08x-0x%08x, arena 0x%08x-0x%08x (%u KiB)",
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
