/*
 * hw_real.h: the real hardware access layer inside the emulation build.
 *
 * The emulation image links kernel/platform/hw_x86.c a second time, compiled with
 * -DHW_REAL_RENAME -include emu/hw_real.h, so that its functions
 * become hw_real_inb() ... hw_real_rdtsc() (the .hw_fixup table of its
 * _safe MSR accessors comes along unchanged). emu/hw_emu.c then
 * implements kernel/platform/hw.h itself: what a profile's models own goes to the
 * models, everything else to these functions, i.e. to the QEMU machine.
 */
#ifndef CQ_KERNEL_EMU_HW_REAL_H
#define CQ_KERNEL_EMU_HW_REAL_H

#ifdef HW_REAL_RENAME

#define hw_inb			hw_real_inb
#define hw_inw			hw_real_inw
#define hw_inl			hw_real_inl
#define hw_outb			hw_real_outb
#define hw_outw			hw_real_outw
#define hw_outl			hw_real_outl
#define hw_mmio_read8		hw_real_mmio_read8
#define hw_mmio_read16		hw_real_mmio_read16
#define hw_mmio_read32		hw_real_mmio_read32
#define hw_mmio_write8		hw_real_mmio_write8
#define hw_mmio_write16		hw_real_mmio_write16
#define hw_mmio_write32		hw_real_mmio_write32
#define hw_rdmsr		hw_real_rdmsr
#define hw_wrmsr		hw_real_wrmsr
#define hw_rdmsr_safe		hw_real_rdmsr_safe
#define hw_wrmsr_safe		hw_real_wrmsr_safe
#define hw_cpuid		hw_real_cpuid
#define hw_dma_addr		hw_real_dma_addr
#define hw_bus_to_virt		hw_real_bus_to_virt
#define hw_rdtsc		hw_real_rdtsc
#define hw_fault_fixup		hw_real_fault_fixup
#define hw_fixup_selftest	hw_real_fixup_selftest

#else

#include <stdint.h>

#include "lib/platform/cpuid.h"

uint8_t hw_real_inb(uint16_t port);
uint16_t hw_real_inw(uint16_t port);
uint32_t hw_real_inl(uint16_t port);
void hw_real_outb(uint16_t port, uint8_t val);
void hw_real_outw(uint16_t port, uint16_t val);
void hw_real_outl(uint16_t port, uint32_t val);
uint8_t hw_real_mmio_read8(uintptr_t addr);
uint16_t hw_real_mmio_read16(uintptr_t addr);
uint32_t hw_real_mmio_read32(uintptr_t addr);
void hw_real_mmio_write8(uintptr_t addr, uint8_t val);
void hw_real_mmio_write16(uintptr_t addr, uint16_t val);
void hw_real_mmio_write32(uintptr_t addr, uint32_t val);
uint64_t hw_real_rdmsr(uint32_t msr);
void hw_real_wrmsr(uint32_t msr, uint64_t val);
int hw_real_rdmsr_safe(uint32_t msr, uint64_t *val);
int hw_real_wrmsr_safe(uint32_t msr, uint64_t val);
void hw_real_cpuid(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *out);
uint32_t hw_real_dma_addr(const void *p);
void *hw_real_bus_to_virt(uint32_t bus_addr);
uint64_t hw_real_rdtsc(void);
uint32_t hw_real_fault_fixup(uint32_t eip, unsigned vector);
int hw_real_fixup_selftest(void);

#endif

#endif
