/*
 * hw_emu: kernel/platform/hw.h in the emulation build (emu/hw_emu.c). With
 * nothing installed every access goes to the real (QEMU) machine through
 * emu/hw_real.h; emu/emulate.c installs a profile's models:
 *   - CPUID: a query function answers every leaf (a leaf it lacks reads
 *     as all zero, as the host tests' layer does); the real CPUID is then
 *     never executed;
 *   - PCI configuration mechanism #1 (ports 0xCF8 and 0xCFC-0xCFF, any
 *     width): a lib/host/pci_model.c machine replaces the QEMU machine's
 *     configuration space entirely;
 *   - MMIO: a model behind a BAR of a model PCI function, decoded at the
 *     address the BAR holds at the time of the access (the driver may
 *     size and move it); other addresses are real memory (DMA buffers,
 *     VGA text);
 *   - MSRs: ranges owned by a model; a model's refusal is #GP (the _safe
 *     forms return HW_EFAULT, the plain forms raise a real #GP); other
 *     MSRs go to the QEMU CPU.
 *   - I/O ports: a window served by a model behind an I/O BAR of a model
 *     PCI function, decoded at the address the BAR holds at the time of
 *     the access (a NIC's registers), or byte reads of a NIC's station
 *     address; other ports are real;
 *   - PCI configuration space may also be the real one with a few model
 *     functions laid over it (a profile without a listing that adds a
 *     device, or hides one of QEMU's), and every access may go to the real
 *     space for a while (emu_hw_pci_real: a driver opening QEMU's own NIC).
 * The TSC, DMA addresses and the fault fixups are always real.
 */
#ifndef CQ_KERNEL_EMU_HW_EMU_H
#define CQ_KERNEL_EMU_HW_EMU_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/platform/cpuid.h"
#include "lib/host/pci_model.h"

typedef bool (*emu_cpuid_fn)(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *out);
typedef uint32_t (*emu_mmio_read_fn)(void *ctx, uint32_t offset, unsigned bytes);
typedef void (*emu_mmio_write_fn)(void *ctx, uint32_t offset, uint32_t val, unsigned bytes);
/* Return 0, or HW_EFAULT to model #GP. */
typedef int (*emu_msr_read_fn)(void *ctx, uint32_t msr, uint64_t *val);
typedef int (*emu_msr_write_fn)(void *ctx, uint32_t msr, uint64_t val);

#define EMU_HW_MAX_BARS	6	/* the Geode block and up to four NICs' memory BARs */
#define EMU_HW_MAX_MSRS	4

/* CPUID from query(ctx, ...); NULL: the real CPUID again. */
void emu_hw_set_cpuid(emu_cpuid_fn query, void *ctx);

/* PCI configuration space from m; NULL: the real one again. */
void emu_hw_set_pci(struct pci_model *m);

/*
 * The real configuration space with the functions of m laid over it: a
 * function m holds answers from m (one whose ID reads all ones hides the
 * real function there); every other one is real. NULL: none.
 */
void emu_hw_set_pci_overlay(struct pci_model *m);

/*
 * While on, every configuration access goes to the real space, whatever
 * emu_hw_set_pci or emu_hw_set_pci_overlay installed (opening one of the
 * real machine's devices). Returns the previous setting.
 */
bool emu_hw_pci_real(bool on);

typedef uint32_t (*emu_io_read_fn)(void *ctx, uint32_t offset, unsigned bytes);
typedef void (*emu_io_write_fn)(void *ctx, uint32_t offset, uint32_t val, unsigned bytes);

/*
 * I/O ports [base, base + size) served by rd/wr, base being what the I/O
 * BAR bar of the model function f holds at the time of the access
 * (nothing while it reads 0). Returns 0, or -1 when EMU_HW_MAX_IO windows
 * (these and emu_hw_add_io_bytes together) are in use.
 */
int emu_hw_add_io(struct pci_model_fn *f, unsigned bar, uint32_t size, emu_io_read_fn rd,
		  emu_io_write_fn wr, void *ctx);

/*
 * MMIO of size bytes at the address BAR bar of the model function f holds
 * (a 32-bit memory BAR; nothing is decoded while it reads 0). Returns 0,
 * or -1 when EMU_HW_MAX_BARS are in use.
 */
int emu_hw_add_bar(struct pci_model_fn *f, unsigned bar, uint32_t size, emu_mmio_read_fn rd,
		   emu_mmio_write_fn wr, void *ctx);

/* MSRs first..last (inclusive) served by rd/wr. Returns 0, or -1 when full. */
int emu_hw_add_msrs(uint32_t first, uint32_t last, emu_msr_read_fn rd, emu_msr_write_fn wr,
		    void *ctx);

/*
 * Byte reads of the n I/O ports from the I/O BAR bar of the model function
 * f (at the address it holds at the time) return bytes[0..n-1]: a NIC's
 * station address registers. Other ports of the BAR stay real. Returns 0,
 * or -1 when EMU_HW_MAX_IO windows are in use.
 */
#define EMU_HW_MAX_IO	8
int emu_hw_add_io_bytes(struct pci_model_fn *f, unsigned bar, const uint8_t *bytes, unsigned n);

/* Accesses that went to a model, for the report. */
struct emu_hw_stats {
	unsigned long cpuid, pci_cfg, mmio, msr, msr_faults, io;
};
const struct emu_hw_stats *emu_hw_stats(void);

#endif
