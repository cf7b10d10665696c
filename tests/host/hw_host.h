/*
 * hw_host: the hardware access layer (kernel/platform/hw.h) for host test programs.
 * Linked instead of kernel/platform/hw_x86.c, it routes every device access of the
 * unchanged kernel and driver code to models the test installs:
 *   - I/O ports: 0xCF8/0xCFC to a PCI configuration-space model
 *     (lib/host/pci_model.h) when one is set, other ports to a handler;
 *   - MMIO: to the handler of the region that contains the address,
 *     else plain memory (DMA buffers are ordinary host memory);
 *   - MSRs: to a handler that may refuse (the _safe forms then return
 *     HW_EFAULT; the plain forms abort the test program, as #GP would
 *     end the kernel's test);
 *   - CPUID: to a query function (e.g. lib/host/cpuid_dump.h over a real dump);
 *   - TSC: a counter that advances by a set step on every read, so that
 *     every bounded wait in a driver ends even when a model never answers.
 * hw_host_reset() restores the defaults (no models, TSC step 1000).
 */
#ifndef CQ_TESTS_HW_HOST_H
#define CQ_TESTS_HW_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/platform/hw.h"
#include "lib/host/pci_model.h"

typedef uint32_t (*hw_host_mmio_read_fn)(void *ctx, uint32_t offset, unsigned bytes);
typedef void (*hw_host_mmio_write_fn)(void *ctx, uint32_t offset, uint32_t val, unsigned bytes);
typedef uint32_t (*hw_host_port_in_fn)(void *ctx, uint16_t port, unsigned bytes);
typedef void (*hw_host_port_out_fn)(void *ctx, uint16_t port, uint32_t val, unsigned bytes);
/* Return 0, or HW_EFAULT to model #GP. */
typedef int (*hw_host_msr_read_fn)(void *ctx, uint32_t msr, uint64_t *val);
typedef int (*hw_host_msr_write_fn)(void *ctx, uint32_t msr, uint64_t val);

void hw_host_reset(void);

/* An MMIO region [base, base + size) served by a model. Up to 8 regions. */
int hw_host_add_mmio(uintptr_t base, size_t size, hw_host_mmio_read_fn rd,
		     hw_host_mmio_write_fn wr, void *ctx);

/* PCI configuration mechanism #1 (ports 0xCF8/0xCFC) served by m, or NULL. */
void hw_host_set_pci(struct pci_model *m);

/* Every other port (default: reads all-ones, writes ignored). */
void hw_host_set_ports(hw_host_port_in_fn in, hw_host_port_out_fn out, void *ctx);

/* MSRs (default: every MSR raises #GP). */
void hw_host_set_msr(hw_host_msr_read_fn rd, hw_host_msr_write_fn wr, void *ctx);

/* CPUID answers (default: the host CPU's own CPUID is NOT used; all zero). */
void hw_host_set_cpuid(bool (*query)(void *ctx, uint32_t leaf, uint32_t subleaf,
				     struct cpuid_regs *out), void *ctx);

/* TSC cycles added per hw_rdtsc() call (default 1000). */
void hw_host_set_tsc_step(uint64_t step);

/* The TSC without advancing it, and a jump of it (for timer models that
 * derive their counts from the TSC and let time pass on each port access). */
uint64_t hw_host_tsc_peek(void);
void hw_host_tsc_advance(uint64_t cycles);

/* Counters, for tests that check how a driver used the hardware. */
struct hw_host_stats {
	unsigned long mmio_reads, mmio_writes, port_ins, port_outs;
	unsigned long msr_reads, msr_writes, msr_faults, tsc_reads;
};
const struct hw_host_stats *hw_host_stats(void);

#endif
