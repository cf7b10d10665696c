/*
 * x86.h: CPU control instructions the kernel itself needs (descriptor tables,
 * control registers, halting). Device access (ports, MMIO, MSRs, CPUID, TSC)
 * does NOT belong here: it goes through kernel/platform/hw.h so that host tests and
 * the emulation build can replace it at link time.
 */
#ifndef CQ_KERNEL_X86_H
#define CQ_KERNEL_X86_H

#include <stdint.h>

struct __attribute__((packed)) x86_dtr {
	uint16_t limit;
	uint32_t base;
};

static inline void x86_lgdt(const struct x86_dtr *d)
{
	__asm__ volatile("lgdt %0" : : "m"(*d));
}

static inline void x86_lidt(const struct x86_dtr *d)
{
	__asm__ volatile("lidt %0" : : "m"(*d));
}

static inline uint32_t x86_read_cr0(void)
{
	uint32_t v;
	__asm__ volatile("movl %%cr0, %0" : "=r"(v));
	return v;
}

static inline void x86_write_cr0(uint32_t v)
{
	__asm__ volatile("movl %0, %%cr0" : : "r"(v) : "memory");
}

static inline uint32_t x86_read_cr2(void)
{
	uint32_t v;
	__asm__ volatile("movl %%cr2, %0" : "=r"(v));
	return v;
}

static inline uint32_t x86_read_cr3(void)
{
	uint32_t v;
	__asm__ volatile("movl %%cr3, %0" : "=r"(v));
	return v;
}

/* CR4 exists on every i586-class CPU this image supports (Pentium and later). */
static inline uint32_t x86_read_cr4(void)
{
	uint32_t v;
	__asm__ volatile("movl %%cr4, %0" : "=r"(v));
	return v;
}

static inline void x86_write_cr4(uint32_t v)
{
	__asm__ volatile("movl %0, %%cr4" : : "r"(v) : "memory");
}

static inline uint32_t x86_read_eflags(void)
{
	uint32_t v;
	__asm__ volatile("pushfl; popl %0" : "=r"(v));
	return v;
}

static inline void x86_cli(void)
{
	__asm__ volatile("cli" : : : "memory");
}

static inline void x86_sti(void)
{
	__asm__ volatile("sti" : : : "memory");
}

static inline void x86_hlt(void)
{
	__asm__ volatile("hlt" : : : "memory");
}

static inline void x86_ud2(void)
{
	__asm__ volatile("ud2");
}

#endif
