/*
 * hw.h: the hardware access layer. Every I/O port, MMIO, MSR, CPUID and TSC
 * access of the kernel and its drivers goes through these functions, and
 * nothing else touches the hardware. The real implementation is
 * kernel/platform/hw_x86.c; a host test or the emulation build links its own file
 * instead, so a driver runs unchanged against a device model.
 */
#ifndef CQ_KERNEL_HW_H
#define CQ_KERNEL_HW_H

#include <stdint.h>

#include "lib/platform/cpuid.h"

/* I/O ports (8, 16 and 32 bits). */
uint8_t hw_inb(uint16_t port);
uint16_t hw_inw(uint16_t port);
uint32_t hw_inl(uint16_t port);
void hw_outb(uint16_t port, uint8_t val);
void hw_outw(uint16_t port, uint16_t val);
void hw_outl(uint16_t port, uint32_t val);

/* Memory-mapped registers at a physical address (paging is off: identity). */
uint8_t hw_mmio_read8(uintptr_t addr);
uint16_t hw_mmio_read16(uintptr_t addr);
uint32_t hw_mmio_read32(uintptr_t addr);
void hw_mmio_write8(uintptr_t addr, uint8_t val);
void hw_mmio_write16(uintptr_t addr, uint16_t val);
void hw_mmio_write32(uintptr_t addr, uint32_t val);

/*
 * Model-specific registers. hw_rdmsr/hw_wrmsr fault (#GP, or #UD on a CPU
 * without MSRs) like the instruction does. The _safe forms return 0 on
 * success and HW_EFAULT when the CPU raised an exception instead, which
 * they catch (an MSR the CPU does not implement, a reserved bit set).
 */
#define HW_EFAULT (-14)
uint64_t hw_rdmsr(uint32_t msr);
void hw_wrmsr(uint32_t msr, uint64_t val);
int hw_rdmsr_safe(uint32_t msr, uint64_t *val);
int hw_wrmsr_safe(uint32_t msr, uint64_t val);

/* CPUID with a leaf and subleaf (ECX). Every i586-class CPU has CPUID. */
void hw_cpuid(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *out);

/*
 * DMA addressing. hw_dma_addr gives the 32-bit bus address a device must be
 * given for a buffer (paging is off, so in the kernel it is the pointer
 * itself); it returns HW_DMA_NONE for memory a device cannot reach (above
 * 4 GiB in a 64-bit host test), so the driver bounces through its own
 * buffers. hw_bus_to_virt is the reverse, for device models doing DMA.
 */
#define HW_DMA_NONE 0xFFFFFFFFu
uint32_t hw_dma_addr(const void *p);
void *hw_bus_to_virt(uint32_t bus_addr);

/* Time-stamp counter, in CPU cycles (check cpu_info.tsc first). */
uint64_t hw_rdtsc(void);

/*
 * Called by the #GP/#UD handler: if eip is an instruction covered by a
 * _safe accessor, returns the address to resume at and records the fault;
 * otherwise returns 0.
 */
uint32_t hw_fault_fixup(uint32_t eip, unsigned vector);

/*
 * Executes UD2 through the same fixup path the _safe MSR accessors use.
 * Returns HW_EFAULT when the fault was caught and resumed (the mechanism
 * works), 0 otherwise. Some CPUs (QEMU's TCG among them) return 0 for a
 * nonexistent MSR instead of raising #GP, so this is the check that runs
 * everywhere.
 */
int hw_fixup_selftest(void);

#endif
