/*
 * Our own GDT, IDT and task state segments. Intel SDM Vol. 3A, 3.4.5
 * (segment descriptors), 6.11 (IDT descriptors), 7.2 (TSS and its
 * descriptor), 7.3 (task switching), 6.15 "Interrupt 8: Double Fault".
 *
 * GDT: flat 4 GiB code and data (ring 0), the kernel's own TSS (loaded with
 * LTR, so the CPU has somewhere to save the interrupted state on a task
 * switch), the double-fault TSS, and two descriptors that exist only to be
 * loaded wrongly by the vector self-tests (a TSS too short to switch to:
 * #TS; a data segment marked not present: #NP, #SS).
 *
 * IDT: vectors 0-31 (exceptions) and 32-47 (the remapped 8259 IRQs; only
 * IRQ 0, the watchdog tick, is ever unmasked). Every vector is a 32-bit
 * interrupt gate except 8: #DF is a task gate to its own TSS and stack, so
 * a double fault caused by a wrecked stack still gets a clean stack to be
 * reported from.
 */
#include <stdint.h>
#include <string.h>

#include "kernel/platform/exceptions.h"
#include "kernel/platform/x86.h"

#define DF_STACK_SIZE 16384

/* A 32-bit TSS descriptor (type 9: available; the CPU sets 0xB, busy). */
#define TSS_DESC(base, limit) \
	((uint64_t)((limit) & 0xFFFF) | ((uint64_t)((base) & 0xFFFFFF) << 16) | \
	 (0x89ull << 40) | ((uint64_t)(((limit) >> 16) & 0xF) << 48) | \
	 ((uint64_t)(((base) >> 24) & 0xFF) << 56))

/* Written by the CPU (busy bits): not const. */
static uint64_t gdt[GDT_ENTRIES] __attribute__((aligned(8))) = {
	0,
	0x00CF9A000000FFFFull,   /* 0x08 code: execute/read */
	0x00CF92000000FFFFull,   /* 0x10 data: read/write */
	0, 0, 0,                 /* 0x18, 0x20, 0x28: TSS descriptors, filled below */
	0x00CF12000000FFFFull,   /* 0x30 data, present bit clear (self-tests) */
};

struct __attribute__((packed)) idt_gate {
	uint16_t offset_lo;
	uint16_t selector;
	uint8_t zero;
	uint8_t type_attr;       /* 0x8E interrupt gate, 0x85 task gate: present, ring 0 */
	uint16_t offset_hi;
};

static struct idt_gate idt[IDT_VECTORS] __attribute__((aligned(8)));

struct tss32 tss_main __attribute__((aligned(128)));
struct tss32 tss_df __attribute__((aligned(128)));
static uint8_t tss_short[0x40] __attribute__((aligned(16)));
static uint8_t df_stack[DF_STACK_SIZE] __attribute__((aligned(16)));

extern const uint32_t isr_stub_table[IDT_VECTORS];
extern char df_task_entry[];

static void tss_init_df(void)
{
	memset(&tss_df, 0, sizeof(tss_df));
	tss_df.eip = (uint32_t)(uintptr_t)df_task_entry;
	tss_df.esp = (uint32_t)(uintptr_t)(df_stack + DF_STACK_SIZE);
	tss_df.eflags = 0x2;     /* IF = 0 */
	tss_df.cs = GDT_CODE_SEL;
	tss_df.ss = tss_df.ds = tss_df.es = tss_df.fs = tss_df.gs = GDT_DATA_SEL;
	tss_df.cr3 = x86_read_cr3();
	tss_df.iomap = sizeof(struct tss32);   /* no I/O bitmap: ring 0 needs none */
}

bool df_stack_contains(uint32_t esp)
{
	uint32_t lo = (uint32_t)(uintptr_t)df_stack;
	return esp >= lo && esp <= lo + DF_STACK_SIZE;
}

void idt_gate_present(unsigned vector, bool present)
{
	if (vector < IDT_VECTORS)
		idt[vector].type_attr = (uint8_t)(present ? idt[vector].type_attr | 0x80
							  : idt[vector].type_attr & 0x7F);
}

void gdt_idt_init(void)
{
	struct x86_dtr gdtr = { sizeof(gdt) - 1, (uint32_t)(uintptr_t)gdt };
	struct x86_dtr idtr = { sizeof(idt) - 1, (uint32_t)(uintptr_t)idt };
	unsigned i;

	memset(&tss_main, 0, sizeof(tss_main));
	tss_main.iomap = sizeof(struct tss32);
	tss_init_df();
	gdt[GDT_TSS_SEL / 8] = TSS_DESC((uint32_t)(uintptr_t)&tss_main, sizeof(struct tss32) - 1);
	gdt[GDT_DF_TSS_SEL / 8] = TSS_DESC((uint32_t)(uintptr_t)&tss_df, sizeof(struct tss32) - 1);
	/* Below the 0x67 bytes a 32-bit TSS needs: switching to it raises #TS. */
	gdt[GDT_SHORT_TSS_SEL / 8] = TSS_DESC((uint32_t)(uintptr_t)tss_short, sizeof(tss_short) - 1);

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
	__asm__ volatile("ltr %w0" : : "r"((uint16_t)GDT_TSS_SEL));

	for (i = 0; i < IDT_VECTORS; i++) {
		uint32_t off = isr_stub_table[i];
		idt[i].offset_lo = (uint16_t)(off & 0xFFFF);
		idt[i].selector = GDT_CODE_SEL;
		idt[i].zero = 0;
		idt[i].type_attr = 0x8E;
		idt[i].offset_hi = (uint16_t)(off >> 16);
	}
	/* #DF: a task gate (offset unused) to the double-fault TSS. */
	idt[8].offset_lo = idt[8].offset_hi = 0;
	idt[8].selector = GDT_DF_TSS_SEL;
	idt[8].type_attr = 0x85;
	x86_lidt(&idtr);
}
