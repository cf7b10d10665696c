/*
 * PCI enumeration over struct pci_cfg_ops. See pci.h for the rules and
 * the specifications they come from.
 */
#include "lib/platform/pci_enum.h"
#include "lib/util/fmt.h"

#include <string.h>

enum { BUS_UNSEEN, BUS_PENDING, BUS_SCANNED };

struct scan {
	const struct pci_cfg_ops *ops;
	struct pci_dev *out;
	int max;
	int found;
	void (*warn)(void *ctx, const char *msg);
	void *warn_ctx;
	uint8_t bus_state[PCI_NBUS];
};

uint32_t pci_mech1_address(unsigned bus, unsigned dev, unsigned fn,
    unsigned off)
{
	return PCI_CFG_ENABLE | (bus & 0xFF) << 16 | (dev & 0x1F) << 11 |
	    (fn & 0x7) << 8 | (off & 0xFC);
}

static uint32_t rd(struct scan *s, const struct pci_dev *d, unsigned off)
{
	return s->ops->read32(s->ops->ctx, d->bus, d->dev, d->fn, off);
}

static void wr(struct scan *s, const struct pci_dev *d, unsigned off,
    uint32_t v)
{
	s->ops->write32(s->ops->ctx, d->bus, d->dev, d->fn, off, v);
}

static void warnf(struct scan *s, const struct pci_dev *d, const char *fmt,
    unsigned a, unsigned b)
{
	char msg[128];
	size_t k = 0;

	if (s->warn == NULL)
		return;
	if (d != NULL)
		k = fmt_snprintf(msg, sizeof msg, "%02x:%02x.%x: ", d->bus,
		    d->dev, d->fn);
	fmt_snprintf(msg + k, sizeof msg - k, fmt, a, b);
	s->warn(s->warn_ctx, msg);
}

/*
 * Sizes the BAR at slot i (PCI 3.0 §6.2.5.1): write all-ones, read back
 * the mask of writable address bits, restore. Returns the slots used
 * (1, or 2 for a 64-bit BAR); *ok tells whether the BAR is implemented.
 */
static int size_bar(struct scan *s, struct pci_dev *d, int i, int nslots,
    struct pci_bar *b, bool *ok)
{
	unsigned off = PCI_BAR0 + 4 * i;
	uint32_t orig = rd(s, d, off), hi = 0, hi_mask = 0, mask;

	wr(s, d, off, 0xFFFFFFFF);
	mask = rd(s, d, off);
	wr(s, d, off, orig);

	memset(b, 0, sizeof *b);
	b->index = i;
	*ok = false;
	if (orig & PCI_BAR_SPACE_IO) {
		mask &= PCI_BAR_IO_MASK;
		if (mask != 0 && (mask >> 16) == 0)
			mask |= 0xFFFF0000;	/* 16-bit decoder: upper bits read 0 */
		b->flags = PCI_BAR_IO;
		b->base = orig & PCI_BAR_IO_MASK;
		b->size = (uint32_t)(~mask + 1);
		*ok = mask != 0;
		return 1;
	}
	if (orig & PCI_BAR_MEM_PF)
		b->flags |= PCI_BAR_PREFETCH;
	if ((orig & PCI_BAR_MEM_TYPE) == PCI_BAR_MEM_64) {
		if (i + 1 >= nslots) {
			warnf(s, d, "BAR%u is 64-bit in the last slot; ignored", i, 0);
			return 1;
		}
		hi = rd(s, d, off + 4);
		wr(s, d, off + 4, 0xFFFFFFFF);
		hi_mask = rd(s, d, off + 4);
		wr(s, d, off + 4, hi);
		b->flags |= PCI_BAR_MEM64;
	}
	mask &= PCI_BAR_MEM_MASK;
	b->base = (uint64_t)hi << 32 | (orig & PCI_BAR_MEM_MASK);
	if (b->flags & PCI_BAR_MEM64) {
		uint64_t m = (uint64_t)hi_mask << 32 | mask;
		b->size = ~m + 1;
		*ok = m != 0;
		return 2;
	}
	b->size = (uint32_t)(~mask + 1);
	*ok = mask != 0;
	return 1;
}

/* Decodes the BARs with I/O and memory decoding off, as §6.2.5.1 advises. */
static void probe_bars(struct scan *s, struct pci_dev *d)
{
	int nslots = 0, i = 0;
	uint16_t off_bits = d->command & ~(PCI_CMD_IO | PCI_CMD_MEM);

	if (d->header_type == PCI_HDR_NORMAL)
		nslots = PCI_NBARS_NORMAL;
	else if (d->header_type == PCI_HDR_BRIDGE)
		nslots = PCI_NBARS_BRIDGE;
	if (nslots == 0)
		return;
	if (off_bits != d->command)
		wr(s, d, PCI_CMD, off_bits);	/* status half 0: clears nothing */
	while (i < nslots) {
		struct pci_bar b;
		bool ok;
		int used = size_bar(s, d, i, nslots, &b, &ok);

		if (ok) {
			if (b.base == 0)
				b.flags |= PCI_BAR_UNASSIGNED;
			d->bars[d->nbars++] = b;
		}
		i += used;
	}
	if (off_bits != d->command)
		wr(s, d, PCI_CMD, d->command);
}

/* Queues a bridge's secondary bus unless it would loop or repeat. */
static void follow_bridge(struct scan *s, const struct pci_dev *d)
{
	unsigned sec = d->secondary;

	if (sec <= d->bus) {
		warnf(s, d, "bridge secondary bus %u is not above its bus %u; "
		    "not scanned", sec, d->bus);
		return;
	}
	if (s->bus_state[sec] != BUS_UNSEEN) {
		warnf(s, d, "bridge secondary bus %u already reached; not "
		    "scanned again", sec, 0);
		return;
	}
	s->bus_state[sec] = BUS_PENDING;
}

static void probe_fn(struct scan *s, struct pci_dev *d, uint32_t id)
{
	uint32_t class = rd(s, d, PCI_CLASS);
	uint32_t bhlc = rd(s, d, PCI_BHLC);

	d->vendor = id & 0xFFFF;
	d->device = id >> 16;
	d->class_code = class >> 24;
	d->subclass = class >> 16;
	d->progif = class >> 8;
	d->rev = class;
	d->header_type = (bhlc >> 16) & PCI_HDR_LAYOUT;
	d->multifunction = (bhlc >> 16) & PCI_HDR_MF;
	d->command = rd(s, d, PCI_CMD) & 0xFFFF;
	if (d->header_type == PCI_HDR_BRIDGE) {
		uint32_t buses = rd(s, d, PCI_BUSES);
		d->primary = buses;
		d->secondary = buses >> 8;
		d->subordinate = buses >> 16;
	}
	probe_bars(s, d);
	if (s->found < s->max)
		s->out[s->found] = *d;
	s->found++;
	if (d->header_type == PCI_HDR_BRIDGE)
		follow_bridge(s, d);
}

static void scan_bus(struct scan *s, unsigned bus)
{
	unsigned dev, fn;

	for (dev = 0; dev < PCI_NDEV; dev++) {
		unsigned nfn = 1;

		for (fn = 0; fn < nfn; fn++) {
			struct pci_dev d;
			uint32_t id;

			memset(&d, 0, sizeof d);
			d.bus = bus;
			d.dev = dev;
			d.fn = fn;
			id = rd(s, &d, PCI_ID);
			if ((id & 0xFFFF) != PCI_VENDOR_NONE)
				probe_fn(s, &d, id);
			/* absent function 0 reads header type 0xFF: bit 7 set */
			if (fn == 0 && ((id & 0xFFFF) == PCI_VENDOR_NONE ||
			    d.multifunction))
				nfn = PCI_NFN;
		}
	}
}

static int bdf(const struct pci_dev *d)
{
	return d->bus << 8 | d->dev << 3 | d->fn;
}

static void sort_devs(struct pci_dev *v, int n)
{
	int i, j;

	for (i = 1; i < n; i++) {
		struct pci_dev t = v[i];

		for (j = i; j > 0 && bdf(&v[j - 1]) > bdf(&t); j--)
			v[j] = v[j - 1];
		v[j] = t;
	}
}

int pci_enumerate(const struct pci_cfg_ops *ops, struct pci_dev *out, int max,
    void (*warn)(void *ctx, const char *msg), void *warn_ctx)
{
	struct scan s;
	unsigned bus;
	bool more = true;

	memset(&s, 0, sizeof s);
	s.ops = ops;
	s.out = out;
	s.max = max > 0 && out != NULL ? max : 0;
	s.warn = warn;
	s.warn_ctx = warn_ctx;
	s.bus_state[0] = BUS_PENDING;
	while (more) {		/* lowest pending bus first; each at most once */
		more = false;
		for (bus = 0; bus < PCI_NBUS; bus++) {
			if (s.bus_state[bus] == BUS_PENDING) {
				s.bus_state[bus] = BUS_SCANNED;
				scan_bus(&s, bus);
				more = true;
				break;
			}
		}
	}
	sort_devs(out, s.found < s.max ? s.found : s.max);
	if (s.found > s.max)
		warnf(&s, NULL, "%u functions found, table holds %u", s.found,
		    s.max);
	return s.found;
}
