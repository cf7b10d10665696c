/*
 * hw_emu: the emulation build's hardware access layer (kernel/platform/hw.h),
 * routing to a profile's models or to the real machine. See hw_emu.h.
 */
#include "emu/hw_emu.h"

#include <stddef.h>
#include <string.h>

#include "lib/platform/pci_enum.h"
#include "kernel/platform/hw.h"
#include "emu/hw_real.h"

#define BAD_SELECTOR	0xF8	/* GDT index 31: beyond boot/gdt.c's 3 entries */

struct bar_region {
	struct pci_model_fn *fn;
	unsigned bar;
	uint32_t size;
	emu_mmio_read_fn rd;
	emu_mmio_write_fn wr;
	void *ctx;
};

struct msr_range {
	uint32_t first, last;
	emu_msr_read_fn rd;
	emu_msr_write_fn wr;
	void *ctx;
};

/* Ports of an I/O BAR served by a model (rd/wr), or only byte reads of bytes[0..size-1]. */
struct io_window {
	struct pci_model_fn *fn;
	unsigned bar;
	uint32_t size;
	const uint8_t *bytes;
	emu_io_read_fn rd;
	emu_io_write_fn wr;
	void *ctx;
};

static struct {
	emu_cpuid_fn cpuid;
	void *cpuid_ctx;
	struct pci_model *pci;
	uint32_t cf8;
	struct bar_region bars[EMU_HW_MAX_BARS];
	unsigned nbars;
	struct msr_range msrs[EMU_HW_MAX_MSRS];
	unsigned nmsrs;
	struct io_window io[EMU_HW_MAX_IO];
	unsigned nio;
	struct pci_model *overlay;
	bool real_cfg;
	struct emu_hw_stats st;
} X;

void emu_hw_set_cpuid(emu_cpuid_fn query, void *ctx)
{
	X.cpuid = query;
	X.cpuid_ctx = ctx;
}

void emu_hw_set_pci(struct pci_model *m)
{
	X.pci = m;
	X.cf8 = 0;
}

void emu_hw_set_pci_overlay(struct pci_model *m)
{
	X.overlay = m;
	X.cf8 = 0;
}

bool emu_hw_pci_real(bool on)
{
	bool was = X.real_cfg;
	X.real_cfg = on;
	return was;
}

int emu_hw_add_bar(struct pci_model_fn *f, unsigned bar, uint32_t size, emu_mmio_read_fn rd,
		   emu_mmio_write_fn wr, void *ctx)
{
	if (X.nbars >= EMU_HW_MAX_BARS)
		return -1;
	X.bars[X.nbars++] = (struct bar_region){ f, bar, size, rd, wr, ctx };
	return 0;
}

int emu_hw_add_msrs(uint32_t first, uint32_t last, emu_msr_read_fn rd, emu_msr_write_fn wr,
		    void *ctx)
{
	if (X.nmsrs >= EMU_HW_MAX_MSRS)
		return -1;
	X.msrs[X.nmsrs++] = (struct msr_range){ first, last, rd, wr, ctx };
	return 0;
}

const struct emu_hw_stats *emu_hw_stats(void)
{
	return &X.st;
}

/* ---- PCI configuration mechanism #1 (PCI Local Bus Spec. 3.0, 3.2.2.3.2) ---- */

/* Whether configuration space is emulated now (a listing, or an overlay), not passed through. */
static bool cfg_emulated(void)
{
	return (X.pci || X.overlay) && !X.real_cfg;
}

/* The model that answers the address in X.cf8, or NULL for the real space. */
static struct pci_model *cfg_model(void)
{
	uint32_t a = X.cf8;
	if (X.pci)
		return X.pci;
	if (X.overlay && pci_model_find(X.overlay, (a >> 16) & 0xFF, (a >> 11) & 0x1F, (a >> 8) & 7))
		return X.overlay;
	return NULL;
}

/* Only a 32-bit access to 0xCF8 is the address register (0xCF9 is the
 * reset control register of PC chipsets: bytes there stay real). With an
 * overlay the real register is written too, for the functions left real. */
static bool is_cfg_addr(uint16_t port, unsigned bytes)
{
	return cfg_emulated() && port == PCI_CFG_ADDR_PORT && bytes == 4;
}

static bool is_cfg_data(uint16_t port)
{
	return cfg_emulated() && port >= PCI_CFG_DATA_PORT && port < PCI_CFG_DATA_PORT + 4 &&
	       (X.pci || ((X.cf8 & PCI_CFG_ENABLE) && cfg_model()));
}

static uint32_t cfg_read(void)
{
	uint32_t a = X.cf8;
	struct pci_cfg_ops ops;

	pci_model_ops(cfg_model(), &ops);
	X.st.pci_cfg++;
	return ops.read32(ops.ctx, (a >> 16) & 0xFF, (a >> 11) & 0x1F, (a >> 8) & 7, a & 0xFC);
}

static uint32_t cfg_data_in(uint16_t port, unsigned bytes)
{
	unsigned shift = 8 * (port - PCI_CFG_DATA_PORT);
	uint32_t v;

	if (!(X.cf8 & PCI_CFG_ENABLE))
		return 0xFFFFFFFFu;
	v = cfg_read() >> shift;
	return bytes == 4 ? v : v & ((1u << (8 * bytes)) - 1);
}

static void cfg_data_out(uint16_t port, uint32_t val, unsigned bytes)
{
	unsigned shift = 8 * (port - PCI_CFG_DATA_PORT);
	uint32_t a = X.cf8, mask, v;
	struct pci_cfg_ops ops;

	if (!(a & PCI_CFG_ENABLE))
		return;
	if (bytes == 4) {
		v = val;
	} else {	/* a narrower write changes only its bytes */
		mask = ((1u << (8 * bytes)) - 1) << shift;
		v = (cfg_read() & ~mask) | ((val << shift) & mask);
	}
	pci_model_ops(cfg_model(), &ops);
	X.st.pci_cfg++;
	ops.write32(ops.ctx, (a >> 16) & 0xFF, (a >> 11) & 0x1F, (a >> 8) & 7, a & 0xFC, v);
}

static int add_io(const struct io_window *w)
{
	if (X.nio >= EMU_HW_MAX_IO)
		return -1;
	X.io[X.nio++] = *w;
	return 0;
}

int emu_hw_add_io_bytes(struct pci_model_fn *f, unsigned bar, const uint8_t *bytes, unsigned n)
{
	struct io_window w = { f, bar, n, bytes, NULL, NULL, NULL };
	return add_io(&w);
}

int emu_hw_add_io(struct pci_model_fn *f, unsigned bar, uint32_t size, emu_io_read_fn rd,
		  emu_io_write_fn wr, void *ctx)
{
	struct io_window w = { f, bar, size, NULL, rd, wr, ctx };
	return add_io(&w);
}

/* The window holding port (all bytes of an access of the given width), its offset in *off, or NULL. */
static const struct io_window *io_window(uint16_t port, unsigned bytes, uint32_t *off)
{
	unsigned i;
	for (i = 0; i < X.nio; i++) {
		uint32_t bar = pci_model_peek32(X.io[i].fn, PCI_BAR0 + 4 * X.io[i].bar);
		uint32_t base = bar & PCI_BAR_IO_MASK;
		if ((bar & PCI_BAR_SPACE_IO) && base != 0 && port >= base &&
		    port - base + bytes <= X.io[i].size) {
			*off = port - base;
			return &X.io[i];
		}
	}
	return NULL;
}

/* A read of a model's port window: true and *v when one holds the port. */
static bool io_in(uint16_t port, unsigned bytes, uint32_t *v)
{
	uint32_t off;
	const struct io_window *w = io_window(port, bytes, &off);

	if (!w || (w->bytes && bytes != 1))
		return false;
	X.st.io++;
	*v = w->bytes ? w->bytes[off] : w->rd(w->ctx, off, bytes);
	return true;
}

static bool io_out(uint16_t port, uint32_t v, unsigned bytes)
{
	uint32_t off;
	const struct io_window *w = io_window(port, bytes, &off);

	if (!w || w->bytes)
		return false;
	X.st.io++;
	w->wr(w->ctx, off, v, bytes);
	return true;
}

uint8_t hw_inb(uint16_t port)
{
	uint32_t v;
	if (is_cfg_data(port))
		return (uint8_t)cfg_data_in(port, 1);
	return io_in(port, 1, &v) ? (uint8_t)v : hw_real_inb(port);
}

uint16_t hw_inw(uint16_t port)
{
	uint32_t v;
	if (is_cfg_data(port))
		return (uint16_t)cfg_data_in(port, 2);
	return io_in(port, 2, &v) ? (uint16_t)v : hw_real_inw(port);
}

uint32_t hw_inl(uint16_t port)
{
	uint32_t v;
	if (is_cfg_addr(port, 4))
		return X.cf8;
	if (is_cfg_data(port))
		return cfg_data_in(port, 4);
	return io_in(port, 4, &v) ? v : hw_real_inl(port);
}

void hw_outb(uint16_t port, uint8_t val)
{
	if (is_cfg_data(port))
		cfg_data_out(port, val, 1);
	else if (!io_out(port, val, 1))
		hw_real_outb(port, val);
}

void hw_outw(uint16_t port, uint16_t val)
{
	if (is_cfg_data(port))
		cfg_data_out(port, val, 2);
	else if (!io_out(port, val, 2))
		hw_real_outw(port, val);
}

void hw_outl(uint16_t port, uint32_t val)
{
	if (is_cfg_addr(port, 4)) {
		X.cf8 = val;
		if (!X.pci)
			hw_real_outl(port, val);	/* an overlay: the real functions need the address too */
	} else if (is_cfg_data(port)) {
		cfg_data_out(port, val, 4);
	} else if (!io_out(port, val, 4)) {
		hw_real_outl(port, val);
	}
}

/* ---- MMIO ---- */

static const struct bar_region *find_bar(uintptr_t addr, uint32_t *off)
{
	unsigned i;
	for (i = 0; i < X.nbars; i++) {
		const struct bar_region *b = &X.bars[i];
		uint32_t base = pci_model_peek32(b->fn, PCI_BAR0 + 4 * b->bar) & ~0xFu;
		if (base != 0 && addr >= base && addr - base < b->size) {
			*off = (uint32_t)(addr - base);
			return b;
		}
	}
	return NULL;
}

static bool mmio_read(uintptr_t addr, unsigned bytes, uint32_t *v)
{
	uint32_t off;
	const struct bar_region *b = find_bar(addr, &off);
	if (!b)
		return false;
	X.st.mmio++;
	*v = b->rd(b->ctx, off, bytes);
	return true;
}

static bool mmio_write(uintptr_t addr, uint32_t v, unsigned bytes)
{
	uint32_t off;
	const struct bar_region *b = find_bar(addr, &off);
	if (!b)
		return false;
	X.st.mmio++;
	b->wr(b->ctx, off, v, bytes);
	return true;
}

uint8_t hw_mmio_read8(uintptr_t a)
{
	uint32_t v;
	return mmio_read(a, 1, &v) ? (uint8_t)v : hw_real_mmio_read8(a);
}

uint16_t hw_mmio_read16(uintptr_t a)
{
	uint32_t v;
	return mmio_read(a, 2, &v) ? (uint16_t)v : hw_real_mmio_read16(a);
}

uint32_t hw_mmio_read32(uintptr_t a)
{
	uint32_t v;
	return mmio_read(a, 4, &v) ? v : hw_real_mmio_read32(a);
}

void hw_mmio_write8(uintptr_t a, uint8_t v)
{
	if (!mmio_write(a, v, 1))
		hw_real_mmio_write8(a, v);
}

void hw_mmio_write16(uintptr_t a, uint16_t v)
{
	if (!mmio_write(a, v, 2))
		hw_real_mmio_write16(a, v);
}

void hw_mmio_write32(uintptr_t a, uint32_t v)
{
	if (!mmio_write(a, v, 4))
		hw_real_mmio_write32(a, v);
}

/* ---- MSRs ---- */

static const struct msr_range *find_msr(uint32_t msr)
{
	unsigned i;
	for (i = 0; i < X.nmsrs; i++)
		if (msr >= X.msrs[i].first && msr <= X.msrs[i].last)
			return &X.msrs[i];
	return NULL;
}

int hw_rdmsr_safe(uint32_t msr, uint64_t *val)
{
	const struct msr_range *r = find_msr(msr);
	int rc;
	if (!r)
		return hw_real_rdmsr_safe(msr, val);
	X.st.msr++;
	rc = r->rd(r->ctx, msr, val);
	if (rc != 0)
		X.st.msr_faults++;
	return rc;
}

int hw_wrmsr_safe(uint32_t msr, uint64_t val)
{
	const struct msr_range *r = find_msr(msr);
	int rc;
	if (!r)
		return hw_real_wrmsr_safe(msr, val);
	X.st.msr++;
	rc = r->wr(r->ctx, msr, val);
	if (rc != 0)
		X.st.msr_faults++;
	return rc;
}

/*
 * A real #GP where rdmsr/wrmsr of a refused MSR would raise one: a segment
 * load with a selector beyond the GDT limit (Intel SDM vol. 3A 6.15,
 * interrupt 13), so the exception path and the test guard see what the
 * hardware would give them.
 */
static void raise_gp(void)
{
	__asm__ volatile("movw %w0, %%fs" : : "r"(BAD_SELECTOR) : "memory");
}

uint64_t hw_rdmsr(uint32_t msr)
{
	uint64_t v = 0;
	if (!find_msr(msr))
		return hw_real_rdmsr(msr);
	if (hw_rdmsr_safe(msr, &v) != 0)
		raise_gp();
	return v;
}

void hw_wrmsr(uint32_t msr, uint64_t val)
{
	if (!find_msr(msr)) {
		hw_real_wrmsr(msr, val);
		return;
	}
	if (hw_wrmsr_safe(msr, val) != 0)
		raise_gp();
}

uint32_t hw_fault_fixup(uint32_t eip, unsigned vector)
{
	return hw_real_fault_fixup(eip, vector);
}

int hw_fixup_selftest(void)
{
	return hw_real_fixup_selftest();
}

/* ---- CPUID, DMA, TSC ---- */

void hw_cpuid(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *out)
{
	if (!X.cpuid) {
		hw_real_cpuid(leaf, subleaf, out);
		return;
	}
	X.st.cpuid++;
	memset(out, 0, sizeof(*out));
	X.cpuid(X.cpuid_ctx, leaf, subleaf, out);
}

uint32_t hw_dma_addr(const void *p)
{
	return hw_real_dma_addr(p);
}

void *hw_bus_to_virt(uint32_t bus_addr)
{
	return hw_real_bus_to_virt(bus_addr);
}

uint64_t hw_rdtsc(void)
{
	return hw_real_rdtsc();
}
