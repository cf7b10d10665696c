/*
 * Our own GDT (flat 4 GiB code and data, ring 0) and IDT (32 exception
 * vectors, interrupt gates). Intel SDM Vol. 3A, 3.4.5 (segment descriptors)
 * and 6.11 (IDT descriptors). Interrupts stay disabled for the whole run:
 * the kernel polls every device, so only vectors 0-31 are ever raised.
 */
#include <stdint.h>

#include "kernel/platform/exceptions.h"
#include "kernel/platform/x86.h"

#define GDT_CODE_SEL 0x08
#define GDT_DATA_SEL 0x10

/* Flat descriptors: base 0, limit 0xFFFFF pages, 32-bit, present, ring 0. */
static const uint64_t gdt[3] __attribute__((aligned(8))) = {
	0,
	0x00CF9A000000FFFFull,   /* code: execute/read */
	0x00CF92000000FFFFull,   /* data: read/write */
};

struct __attribute__((packed)) idt_gate {
	uint16_t offset_lo;
	uint16_t selector;
	uint8_t zero;
	uint8_t type_attr;       /* 0x8E: present, ring 0, 32-bit interrupt gate */
	uint16_t offset_hi;
};

static struct idt_gate idt[EXC_VECTORS] __attribute__((aligned(8)));

extern const uint32_t isr_stub_table[EXC_VECTORS];

void gdt_idt_init(void)
{
	struct x86_dtr gdtr = { sizeof(gdt) - 1, (uint32_t)(uintptr_t)gdt };
	struct x86_dtr idtr = { sizeof(idt) - 1, (uint32_t)(uintptr_t)idt };
	unsigned i;

	x86_lgdt(&gdtr);
	/* Reload every segment register from the new table. */
	__asm__ volatile(
		"ljmp %0, $1f\n"
		"1:\n"
		"movw %w1, %%ax\n"
		"movw %%ax, %%ds\n"
		"movw %%ax, %%es\n"
		"movw %%ax, %%fs\n"
		"movw %%ax, %%gs\n"
		"movw %%ax, %%ss\n"
		: : "i"(GDT_CODE_SEL), "i"(GDT_DATA_SEL) : "eax", "memory");

	for (i = 0; i < EXC_VECTORS; i++) {
		uint32_t off = isr_stub_table[i];
		idt[i].offset_lo = (uint16_t)(off & 0xFFFF);
		idt[i].selector = GDT_CODE_SEL;
		idt[i].zero = 0;
		idt[i].type_attr = 0x8E;
		idt[i].offset_hi = (uint16_t)(off >> 16);
	}
	x86_lidt(&idtr);
}
