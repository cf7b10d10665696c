/* Host implementation of kernel/platform/hw.h over models. See hw_host.h. */
#include "tests/host/hw_host.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/platform/pci_enum.h"

#define MAX_REGIONS 8

struct region {
	uintptr_t base;
	size_t size;
	hw_host_mmio_read_fn rd;
	hw_host_mmio_write_fn wr;
	void *ctx;
};

static struct {
	struct region r[MAX_REGIONS];
	unsigned nr;
	struct pci_model *pci;
	struct pci_cfg_ops pci_ops;
	uint32_t cf8;
	hw_host_port_in_fn port_in;
	hw_host_port_out_fn port_out;
	void *port_ctx;
	hw_host_msr_read_fn msr_rd;
	hw_host_msr_write_fn msr_wr;
	void *msr_ctx;
	bool (*cpuid)(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *out);
	void *cpuid_ctx;
	uint64_t tsc, tsc_step;
	struct hw_host_stats st;
} H = { .tsc_step = 1000 };

void hw_host_reset(void)
{
	memset(&H, 0, sizeof(H));
	H.tsc_step = 1000;
}

int hw_host_add_mmio(uintptr_t base, size_t size, hw_host_mmio_read_fn rd,
		     hw_host_mmio_write_fn wr, void *ctx)
{
	if (H.nr >= MAX_REGIONS)
		return -1;
	H.r[H.nr++] = (struct region){ base, size, rd, wr, ctx };
	return 0;
}

void hw_host_set_pci(struct pci_model *m)
{
	H.pci = m;
	if (m)
		pci_model_ops(m, &H.pci_ops);
}

void hw_host_set_ports(hw_host_port_in_fn in, hw_host_port_out_fn out, void *ctx)
{
	H.port_in = in;
	H.port_out = out;
	H.port_ctx = ctx;
}

void hw_host_set_msr(hw_host_msr_read_fn rd, hw_host_msr_write_fn wr, void *ctx)
{
	H.msr_rd = rd;
	H.msr_wr = wr;
	H.msr_ctx = ctx;
}

void hw_host_set_cpuid(bool (*query)(void *, uint32_t, uint32_t, struct cpuid_regs *), void *ctx)
{
	H.cpuid = query;
	H.cpuid_ctx = ctx;
}

void hw_host_set_tsc_step(uint64_t step)
{
	H.tsc_step = step;
}

const struct hw_host_stats *hw_host_stats(void)
{
	return &H.st;
}

/* ---- ports ---- */

static uint32_t port_in(uint16_t port, unsigned bytes)
{
	H.st.port_ins++;
	if (H.pci && port == PCI_CFG_ADDR_PORT && bytes == 4)
		return H.cf8;
	if (H.pci && port >= PCI_CFG_DATA_PORT && port < PCI_CFG_DATA_PORT + 4) {
		uint32_t a = H.cf8, v;
		unsigned shift = 8 * (port - PCI_CFG_DATA_PORT);
		if (!(a & PCI_CFG_ENABLE))
			return 0xFFFFFFFFu;
		v = H.pci_ops.read32(H.pci_ops.ctx, (a >> 16) & 0xFF, (a >> 11) & 0x1F,
				     (a >> 8) & 7, a & 0xFC);
		v >>= shift;
		return bytes == 4 ? v : v & ((1u << (8 * bytes)) - 1);
	}
	if (H.port_in)
		return H.port_in(H.port_ctx, port, bytes);
	return bytes == 4 ? 0xFFFFFFFFu : (1u << (8 * bytes)) - 1;
}

static void port_out(uint16_t port, uint32_t val, unsigned bytes)
{
	H.st.port_outs++;
	if (H.pci && port == PCI_CFG_ADDR_PORT && bytes == 4) {
		H.cf8 = val;
		return;
	}
	if (H.pci && port == PCI_CFG_DATA_PORT && bytes == 4) {
		uint32_t a = H.cf8;
		if (a & PCI_CFG_ENABLE)
			H.pci_ops.write32(H.pci_ops.ctx, (a >> 16) & 0xFF, (a >> 11) & 0x1F,
					  (a >> 8) & 7, a & 0xFC, val);
		return;
	}
	if (H.port_out)
		H.port_out(H.port_ctx, port, val, bytes);
}

uint8_t hw_inb(uint16_t port) { return (uint8_t)port_in(port, 1); }
uint16_t hw_inw(uint16_t port) { return (uint16_t)port_in(port, 2); }
uint32_t hw_inl(uint16_t port) { return port_in(port, 4); }
void hw_outb(uint16_t port, uint8_t val) { port_out(port, val, 1); }
void hw_outw(uint16_t port, uint16_t val) { port_out(port, val, 2); }
void hw_outl(uint16_t port, uint32_t val) { port_out(port, val, 4); }

/* ---- MMIO ---- */

static const struct region *find_region(uintptr_t addr)
{
	unsigned i;
	for (i = 0; i < H.nr; i++)
		if (addr >= H.r[i].base && addr - H.r[i].base < H.r[i].size)
			return &H.r[i];
	return NULL;
}

static uint32_t mmio_read(uintptr_t addr, unsigned bytes)
{
	const struct region *r = find_region(addr);
	H.st.mmio_reads++;
	if (r)
		return r->rd(r->ctx, (uint32_t)(addr - r->base), bytes);
	switch (bytes) {
	case 1: return *(volatile uint8_t *)addr;
	case 2: return *(volatile uint16_t *)addr;
	default: return *(volatile uint32_t *)addr;
	}
}

static void mmio_write(uintptr_t addr, uint32_t val, unsigned bytes)
{
	const struct region *r = find_region(addr);
	H.st.mmio_writes++;
	if (r) {
		r->wr(r->ctx, (uint32_t)(addr - r->base), val, bytes);
		return;
	}
	switch (bytes) {
	case 1: *(volatile uint8_t *)addr = (uint8_t)val; break;
	case 2: *(volatile uint16_t *)addr = (uint16_t)val; break;
	default: *(volatile uint32_t *)addr = val; break;
	}
}

uint8_t hw_mmio_read8(uintptr_t a) { return (uint8_t)mmio_read(a, 1); }
uint16_t hw_mmio_read16(uintptr_t a) { return (uint16_t)mmio_read(a, 2); }
uint32_t hw_mmio_read32(uintptr_t a) { return mmio_read(a, 4); }
void hw_mmio_write8(uintptr_t a, uint8_t v) { mmio_write(a, v, 1); }
void hw_mmio_write16(uintptr_t a, uint16_t v) { mmio_write(a, v, 2); }
void hw_mmio_write32(uintptr_t a, uint32_t v) { mmio_write(a, v, 4); }

/* ---- MSRs ---- */

int hw_rdmsr_safe(uint32_t msr, uint64_t *val)
{
	int rc = HW_EFAULT;
	H.st.msr_reads++;
	if (H.msr_rd)
		rc = H.msr_rd(H.msr_ctx, msr, val);
	if (rc != 0)
		H.st.msr_faults++;
	return rc;
}

int hw_wrmsr_safe(uint32_t msr, uint64_t val)
{
	int rc = HW_EFAULT;
	H.st.msr_writes++;
	if (H.msr_wr)
		rc = H.msr_wr(H.msr_ctx, msr, val);
	if (rc != 0)
		H.st.msr_faults++;
	return rc;
}

uint64_t hw_rdmsr(uint32_t msr)
{
	uint64_t v = 0;
	if (hw_rdmsr_safe(msr, &v) != 0) {
		fprintf(stderr, "hw_host: #GP: rdmsr 0x%08x outside the safe form\n", msr);
		abort();
	}
	return v;
}

void hw_wrmsr(uint32_t msr, uint64_t val)
{
	if (hw_wrmsr_safe(msr, val) != 0) {
		fprintf(stderr, "hw_host: #GP: wrmsr 0x%08x outside the safe form\n", msr);
		abort();
	}
}

uint32_t hw_fault_fixup(uint32_t eip, unsigned vector)
{
	(void)eip;
	(void)vector;
	return 0;
}

int hw_fixup_selftest(void)
{
	return HW_EFAULT;
}

/* ---- CPUID, DMA, TSC ---- */

void hw_cpuid(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *out)
{
	memset(out, 0, sizeof(*out));
	if (H.cpuid)
		H.cpuid(H.cpuid_ctx, leaf, subleaf, out);
}

uint32_t hw_dma_addr(const void *p)
{
	uintptr_t a = (uintptr_t)p;
	return a > 0xFFFFFFF0u ? HW_DMA_NONE : (uint32_t)a;
}

void *hw_bus_to_virt(uint32_t bus_addr)
{
	return (void *)(uintptr_t)bus_addr;
}

uint64_t hw_host_tsc_peek(void)
{
	return H.tsc;
}

void hw_host_tsc_advance(uint64_t cycles)
{
	H.tsc += cycles;
}

uint64_t hw_rdtsc(void)
{
	H.st.tsc_reads++;
	H.tsc += H.tsc_step;
	return H.tsc;
}
