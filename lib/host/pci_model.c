/*
 * PCI configuration-space model: behaviour described in pci_model.h.
 */
#include "lib/host/pci_model.h"

#include <string.h>

/* Type 1 registers kept writable (PCI-PCI Bridge Spec 1.2 §3.2). */
#define BRIDGE_IO_BASE		0x1C	/* I/O base/limit (15:0), sec. status */
#define BRIDGE_MEM		0x20	/* memory base/limit */
#define BRIDGE_PF_MEM		0x24	/* prefetchable base/limit */
#define BRIDGE_PF_UPPER_BASE	0x28
#define BRIDGE_PF_UPPER_LIMIT	0x2C
#define BRIDGE_IO_UPPER		0x30
#define DEV_SPECIFIC		0x40	/* first device-specific byte */

void pci_model_init(struct pci_model *m)
{
	memset(m, 0, sizeof *m);
}

struct pci_model_fn *pci_model_find(struct pci_model *m, unsigned bus,
    unsigned dev, unsigned fn)
{
	int i;

	for (i = 0; i < m->nfn; i++) {
		struct pci_model_fn *f = &m->fns[i];
		if (f->bus == bus && f->dev == dev && f->fn == fn)
			return f;
	}
	return NULL;
}

uint32_t pci_model_peek32(const struct pci_model_fn *f, unsigned off)
{
	const uint8_t *p = &f->cfg[off & 0xFC];

	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

void pci_model_poke32(struct pci_model_fn *f, unsigned off, uint32_t val)
{
	uint8_t *p = &f->cfg[off & 0xFC];

	p[0] = val;
	p[1] = val >> 8;
	p[2] = val >> 16;
	p[3] = val >> 24;
}

void pci_model_poke8(struct pci_model_fn *f, unsigned off, uint8_t val)
{
	f->cfg[off & 0xFF] = val;
}

static unsigned nbar_slots(const struct pci_model_fn *f)
{
	switch (f->cfg[PCI_BHLC + 2] & PCI_HDR_LAYOUT) {
	case PCI_HDR_NORMAL:
		return PCI_NBARS_NORMAL;
	case PCI_HDR_BRIDGE:
		return PCI_NBARS_BRIDGE;
	}
	return 0;
}

struct pci_model_fn *pci_model_add(struct pci_model *m, unsigned bus,
    unsigned dev, unsigned fn, uint16_t vendor, uint16_t device,
    uint32_t class_rev, uint8_t header_type)
{
	struct pci_model_fn *f;
	unsigned off;

	if (m->nfn >= PCI_MODEL_MAX_FN || bus >= PCI_NBUS || dev >= PCI_NDEV ||
	    fn >= PCI_NFN || vendor == PCI_VENDOR_NONE ||
	    pci_model_find(m, bus, dev, fn) != NULL)
		return NULL;
	f = &m->fns[m->nfn++];
	memset(f, 0, sizeof *f);
	f->bus = bus;
	f->dev = dev;
	f->fn = fn;
	pci_model_poke32(f, PCI_ID, (uint32_t)device << 16 | vendor);
	pci_model_poke32(f, PCI_CLASS, class_rev);
	pci_model_poke8(f, PCI_BHLC + 2, header_type);
	f->wmask[PCI_CMD / 4] = PCI_MODEL_CMD_WMASK;
	f->wmask[PCI_BHLC / 4] = 0x0000FFFF;	/* cache line, latency */
	f->wmask[PCI_INTR / 4] = 0x000000FF;	/* interrupt line */
	if ((header_type & PCI_HDR_LAYOUT) == PCI_HDR_BRIDGE) {
		f->wmask[PCI_BUSES / 4] = 0xFFFFFFFF;
		f->wmask[BRIDGE_IO_BASE / 4] = 0x0000F0F0;
		f->wmask[BRIDGE_MEM / 4] = 0xFFF0FFF0;
		f->wmask[BRIDGE_PF_MEM / 4] = 0xFFF0FFF0;
		f->wmask[BRIDGE_PF_UPPER_BASE / 4] = 0xFFFFFFFF;
		f->wmask[BRIDGE_PF_UPPER_LIMIT / 4] = 0xFFFFFFFF;
		f->wmask[BRIDGE_IO_UPPER / 4] = 0xFFFFFFFF;
		f->wmask[PCI_INTR / 4] = 0xFFFF00FF;	/* + bridge control */
	}
	for (off = DEV_SPECIFIC; off < PCI_CFG_SIZE; off += 4)
		f->wmask[off / 4] = 0xFFFFFFFF;
	return f;
}

static bool pow2(uint64_t v)
{
	return v != 0 && (v & (v - 1)) == 0;
}

int pci_model_set_bar(struct pci_model_fn *f, unsigned index, uint8_t flags,
    uint64_t base, uint64_t size)
{
	unsigned off = PCI_BAR0 + 4 * index;
	bool is64 = !(flags & PCI_BAR_IO) && (flags & PCI_BAR_MEM64);
	uint64_t addr_mask = ~(size - 1);

	if (index + (is64 ? 1 : 0) >= nbar_slots(f) || !pow2(size) ||
	    (base & (size - 1)) != 0 || f->wmask[off / 4] != 0 ||
	    (is64 && f->wmask[off / 4 + 1] != 0))
		return -1;
	if (flags & PCI_BAR_IO) {
		if (size < 4 || size > 256 || base > 0xFFFF)
			return -1;
		pci_model_poke32(f, off, (uint32_t)base | PCI_BAR_SPACE_IO);
		f->wmask[off / 4] = (uint32_t)addr_mask & 0xFFFC;
		return 0;
	}
	if (size < 16 || (!is64 && (size > 0x80000000u || base > 0xFFFFFFFFu)))
		return -1;
	pci_model_poke32(f, off, (uint32_t)base | (is64 ? PCI_BAR_MEM_64 : 0) |
	    (flags & PCI_BAR_PREFETCH ? PCI_BAR_MEM_PF : 0));
	f->wmask[off / 4] = (uint32_t)addr_mask & PCI_BAR_MEM_MASK;
	if (is64) {
		pci_model_poke32(f, off + 4, base >> 32);
		f->wmask[off / 4 + 1] = addr_mask >> 32;
	}
	return 0;
}

void pci_model_set_buses(struct pci_model_fn *f, uint8_t primary,
    uint8_t secondary, uint8_t subordinate)
{
	f->cfg[PCI_BUSES] = primary;
	f->cfg[PCI_BUSES + 1] = secondary;
	f->cfg[PCI_BUSES + 2] = subordinate;
}

/* True when another function of f's device exists. */
static bool has_siblings(struct pci_model *m, const struct pci_model_fn *f)
{
	int i;

	for (i = 0; i < m->nfn; i++) {
		const struct pci_model_fn *g = &m->fns[i];
		if (g != f && g->bus == f->bus && g->dev == f->dev)
			return true;
	}
	return false;
}

static uint32_t model_read32(void *ctx, unsigned bus, unsigned dev,
    unsigned fn, unsigned off)
{
	struct pci_model *m = ctx;
	struct pci_model_fn *f = pci_model_find(m, bus, dev, fn);
	uint32_t v;

	m->reads++;
	if (f == NULL || off >= PCI_CFG_SIZE)
		return 0xFFFFFFFF;
	v = pci_model_peek32(f, off);
	if ((off & 0xFC) == PCI_BHLC && fn == 0 && has_siblings(m, f))
		v |= (uint32_t)PCI_HDR_MF << 16;
	return v;
}

static void model_write32(void *ctx, unsigned bus, unsigned dev, unsigned fn,
    unsigned off, uint32_t val)
{
	struct pci_model *m = ctx;
	struct pci_model_fn *f = pci_model_find(m, bus, dev, fn);
	uint32_t old, w;

	m->writes++;
	if (f == NULL || off >= PCI_CFG_SIZE)
		return;
	old = pci_model_peek32(f, off);
	w = f->wmask[(off & 0xFC) / 4];
	old = (old & ~w) | (val & w);
	if ((off & 0xFC) == PCI_CMD)
		old &= ~(val & (PCI_MODEL_STATUS_W1C << 16));
	pci_model_poke32(f, off, old);
}

void pci_model_ops(struct pci_model *m, struct pci_cfg_ops *ops)
{
	ops->read32 = model_read32;
	ops->write32 = model_write32;
	ops->ctx = m;
}
