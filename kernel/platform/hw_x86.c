/*
 * hw_x86.c: the real hardware access layer (see hw.h). The only file with
 * inline assembly that touches devices.
 */
#include "kernel/platform/hw.h"

uint8_t hw_inb(uint16_t port)
{
	uint8_t v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

uint16_t hw_inw(uint16_t port)
{
	uint16_t v;
	__asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

uint32_t hw_inl(uint16_t port)
{
	uint32_t v;
	__asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

void hw_outb(uint16_t port, uint8_t val)
{
	__asm__ volatile("outb %0, %1" : : "a"(val), "Nd"(port));
}

void hw_outw(uint16_t port, uint16_t val)
{
	__asm__ volatile("outw %0, %1" : : "a"(val), "Nd"(port));
}

void hw_outl(uint16_t port, uint32_t val)
{
	__asm__ volatile("outl %0, %1" : : "a"(val), "Nd"(port));
}

uint8_t hw_mmio_read8(uintptr_t addr)
{
	return *(volatile uint8_t *)addr;
}

uint16_t hw_mmio_read16(uintptr_t addr)
{
	return *(volatile uint16_t *)addr;
}

uint32_t hw_mmio_read32(uintptr_t addr)
{
	return *(volatile uint32_t *)addr;
}

void hw_mmio_write8(uintptr_t addr, uint8_t val)
{
	*(volatile uint8_t *)addr = val;
}

void hw_mmio_write16(uintptr_t addr, uint16_t val)
{
	*(volatile uint16_t *)addr = val;
}

void hw_mmio_write32(uintptr_t addr, uint32_t val)
{
	*(volatile uint32_t *)addr = val;
}

uint64_t hw_rdmsr(uint32_t msr)
{
	uint32_t lo, hi;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t)hi << 32) | lo;
}

void hw_wrmsr(uint32_t msr, uint64_t val)
{
	__asm__ volatile("wrmsr" : : "c"(msr), "a"((uint32_t)val),
			 "d"((uint32_t)(val >> 32)) : "memory");
}

/*
 * The safe forms: the faulting instruction's address and the resume address
 * go into the .hw_fixup table; the exception handler looks the EIP up there
 * (hw_fault_fixup) and resumes after the instruction with hw_fault_flag set.
 */
struct hw_fixup {
	uint32_t insn;
	uint32_t resume;
};
extern const struct hw_fixup __hw_fixup_start[], __hw_fixup_end[];
static volatile int hw_fault_flag;

int hw_rdmsr_safe(uint32_t msr, uint64_t *val)
{
	uint32_t lo = 0, hi = 0;
	hw_fault_flag = 0;
	__asm__ volatile("1: rdmsr\n"
			 "2:\n"
			 ".pushsection .hw_fixup, \"a\"\n"
			 ".long 1b, 2b\n"
			 ".popsection\n"
			 : "+a"(lo), "+d"(hi) : "c"(msr) : "memory");
	if (hw_fault_flag)
		return HW_EFAULT;
	*val = ((uint64_t)hi << 32) | lo;
	return 0;
}

int hw_wrmsr_safe(uint32_t msr, uint64_t val)
{
	hw_fault_flag = 0;
	__asm__ volatile("1: wrmsr\n"
			 "2:\n"
			 ".pushsection .hw_fixup, \"a\"\n"
			 ".long 1b, 2b\n"
			 ".popsection\n"
			 : : "c"(msr), "a"((uint32_t)val), "d"((uint32_t)(val >> 32))
			 : "memory");
	return hw_fault_flag ? HW_EFAULT : 0;
}

int hw_fixup_selftest(void)
{
	hw_fault_flag = 0;
	__asm__ volatile("1: ud2\n"
			 "2:\n"
			 ".pushsection .hw_fixup, \"a\"\n"
			 ".long 1b, 2b\n"
			 ".popsection\n"
			 : : : "memory");
	return hw_fault_flag ? HW_EFAULT : 0;
}

uint32_t hw_fault_fixup(uint32_t eip, unsigned vector)
{
	const struct hw_fixup *f;
	if (vector != 13 && vector != 6)   /* #GP, or #UD on CPUs without MSRs */
		return 0;
	for (f = __hw_fixup_start; f < __hw_fixup_end; f++) {
		if (f->insn == eip) {
			hw_fault_flag = 1;
			return f->resume;
		}
	}
	return 0;
}

void hw_cpuid(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *out)
{
	__asm__ volatile("cpuid"
			 : "=a"(out->eax), "=b"(out->ebx), "=c"(out->ecx), "=d"(out->edx)
			 : "a"(leaf), "c"(subleaf));
}

uint32_t hw_dma_addr(const void *p)
{
	return (uint32_t)(uintptr_t)p;
}

void *hw_bus_to_virt(uint32_t bus_addr)
{
	return (void *)(uintptr_t)bus_addr;
}

uint64_t hw_rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}
