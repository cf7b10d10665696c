/*
 * PCI listing parsers (comBIOS ShowPCI, lspci -nn) feeding pci_model.
 * The rules for what a listing lacks are in pci_listing.h; rows are read
 * in pci_listing_rows.c (with the error helper all three share), bridges
 * get bus numbers in pci_listing_bus.c.
 */
#include "lib/host/pci_listing.h"
#include "lib/host/pci_listing_int.h"

#include <string.h>

/*
 * The Geode LX AES security block's PCI identity and BAR0 size (AMD Geode
 * LX Processors Data Book 33234H, 6.12.1; the driver's register header,
 * drivers/geode_sb/geode_sb_reg.h, cites the same). lib/ includes no driver
 * header: the facts are repeated here.
 */
#define GEODE_SB_VENDOR		0x1022	/* AMD */
#define GEODE_SB_DEVICE		0x2082	/* Geode LX AES Security Block */
#define GEODE_SB_BAR_SIZE	0x4000	/* BAR0: 32-bit memory, 16 KiB */

#define MEM_SIZE_CAP	4096	/* fallback BAR size caps, see pci_listing.h */
#define IO_SIZE_CAP	256

/* BAR sizes of devices found on Geode LX boards (listings give none). */
static const struct {
	uint16_t vendor, device;
	uint8_t bar;
	uint32_t size;
} known_bars[] = {
	/* Geode LX AES security block (the driver's register header has the source) */
	{ GEODE_SB_VENDOR, GEODE_SB_DEVICE, 0, GEODE_SB_BAR_SIZE },
	/* CS5536 ISA bridge: BAR0 SMBus 8 bytes, BAR1 GPIO 256 bytes
	 * (AMD CS5536 Data Book 33238, LBAR_SMB and LBAR_GPIO) */
	{ 0x1022, 0x2090, 0, 8 },
	{ 0x1022, 0x2090, 1, 256 },
	/* VIA VT6105M Rhine-III: 256 bytes of registers, in I/O (BAR0) and
	 * memory (BAR1) space (VT6105M data sheet; Linux via-rhine io_size) */
	{ 0x1106, 0x3053, 0, 256 },
	{ 0x1106, 0x3053, 1, 256 },
};

static uint64_t lowest_bit(uint64_t v)
{
	return v & -v;
}

/* Size for a listed BAR value: known table, else the address alignment. */
static uint64_t bar_size(const struct pci_listing_row *r, unsigned bar,
    bool io, uint64_t base)
{
	uint64_t size = io ? IO_SIZE_CAP : MEM_SIZE_CAP;
	size_t i;

	for (i = 0; i < sizeof known_bars / sizeof known_bars[0]; i++)
		if (known_bars[i].vendor == r->vendor &&
		    known_bars[i].device == r->device && known_bars[i].bar == bar)
			size = known_bars[i].size;
	if (base != 0 && lowest_bit(base) < size)
		size = lowest_bit(base);
	return size;
}

static int add_bars(struct pci_model_fn *f, const struct pci_listing_row *r)
{
	unsigned i;

	for (i = 0; i < 2; i++) {
		uint32_t v = r->base[i];
		uint64_t base;
		uint8_t flags = 0;

		if (v == 0)
			continue;
		if (v & PCI_BAR_SPACE_IO) {
			flags = PCI_BAR_IO;
			base = v & PCI_BAR_IO_MASK;
		} else {
			base = v & PCI_BAR_MEM_MASK;
			if (v & PCI_BAR_MEM_PF)
				flags |= PCI_BAR_PREFETCH;
			if ((v & PCI_BAR_MEM_TYPE) == PCI_BAR_MEM_64 && i == 0) {
				flags |= PCI_BAR_MEM64;
				base |= (uint64_t)r->base[1] << 32;
			}
		}
		if (pci_model_set_bar(f, i, flags, base,
		    bar_size(r, i, flags & PCI_BAR_IO, base)) != 0)
			return -1;
		if (flags & PCI_BAR_MEM64)
			break;
	}
	return 0;
}

static int add_row(struct pci_model *m, const struct pci_listing_row *r,
    unsigned line, struct pci_listing_result *res)
{
	struct pci_model_fn *f;

	if (r->bus >= PCI_NBUS || r->dev >= PCI_NDEV || r->fn >= PCI_NFN)
		return pci_listing_fail(res, line, "address %u:%u.%u out of "
		    "range", r->bus, r->dev, r->fn);
	if (r->vendor == PCI_VENDOR_NONE)
		return pci_listing_fail(res, line, "vendor ffff means no "
		    "function");
	if (pci_model_find(m, r->bus, r->dev, r->fn) != NULL)
		return pci_listing_fail(res, line, "%02x:%02x.%x listed twice",
		    r->bus, r->dev, r->fn);
	f = pci_model_add(m, r->bus, r->dev, r->fn, r->vendor, r->device,
	    r->class_rev, r->header_type);
	if (f == NULL)
		return pci_listing_fail(res, line, "more than %d functions",
		    PCI_MODEL_MAX_FN);
	if (r->have_regs) {
		pci_model_poke32(f, PCI_CMD, (uint32_t)r->stat << 16 | r->cmd);
		pci_model_poke8(f, PCI_BHLC, r->cache_line);
		pci_model_poke8(f, PCI_BHLC + 1, r->latency);
	}
	if (r->irq >= 0)
		pci_model_poke8(f, PCI_INTR, r->irq);
	if ((r->header_type & PCI_HDR_LAYOUT) <= PCI_HDR_BRIDGE &&
	    add_bars(f, r) != 0)
		return pci_listing_fail(res, line, "Base1/Base2 %08x %08x: "
		    "not valid BARs", (unsigned)r->base[0],
		    (unsigned)r->base[1]);
	res->nlisted++;
	return 0;
}

/* The fixed rules of pci_listing.h: security block BAR0, lspci command. */
static void fill_defaults(struct pci_model *m, int format)
{
	int i;

	for (i = 0; i < m->nfn; i++) {
		struct pci_model_fn *f = &m->fns[i];
		uint32_t id = pci_model_peek32(f, PCI_ID), cmd = 0;
		unsigned b, nslots = PCI_NBARS_NORMAL;

		if (id == ((uint32_t)GEODE_SB_DEVICE << 16 | GEODE_SB_VENDOR) && f->wmask[PCI_BAR0 / 4] == 0)
			pci_model_set_bar(f, 0, 0, PCI_LISTING_GEODE_SB_BASE,
			    GEODE_SB_BAR_SIZE);
		if (format != PCI_LISTING_LSPCI)
			continue;
		if ((f->cfg[PCI_BHLC + 2] & PCI_HDR_LAYOUT) == PCI_HDR_BRIDGE)
			nslots = PCI_NBARS_BRIDGE;
		else if ((f->cfg[PCI_BHLC + 2] & PCI_HDR_LAYOUT) != 0)
			nslots = 0;
		for (b = 0; b < nslots; b++) {
			uint32_t v = pci_model_peek32(f, PCI_BAR0 + 4 * b);
			if (f->wmask[PCI_BAR0 / 4 + b] == 0)
				continue;
			cmd |= PCI_CMD_MASTER |
			    (v & PCI_BAR_SPACE_IO ? PCI_CMD_IO : PCI_CMD_MEM);
		}
		pci_model_poke8(f, PCI_CMD, cmd);
	}
}

static bool skip_line(const char *p, const char *end, int format)
{
	const char *q;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end || *p == '#')
		return true;
	if (format != PCI_LISTING_COMBIOS)
		return false;
	if (end - p >= 4 && memcmp(p, "Slot", 4) == 0)
		return true;
	for (q = p; q < end && *q == '-'; q++)
		;
	return q == end;
}

/* One line of text, p..end without its line end. */
static int load_line(struct pci_model *m, const char *p, const char *end,
    unsigned line, struct pci_listing_result *res)
{
	struct pci_listing_row r;
	const char *err;

	if (skip_line(p, end, res->format))
		return 0;
	if (res->format == 0) {
		res->format = pci_listing_detect(p, end);
		if (res->format == 0)
			return pci_listing_fail(res, line, "neither a comBIOS "
			    "ShowPCI row nor lspci -nn");
		if (skip_line(p, end, res->format))
			return 0;
	}
	memset(&r, 0, sizeof r);
	if (res->format == PCI_LISTING_COMBIOS)
		err = pci_listing_parse_combios(p, end, &r);
	else
		err = pci_listing_parse_lspci(p, end, &r);
	if (err != NULL)
		return pci_listing_fail(res, line, "%s", err);
	return add_row(m, &r, line, res);
}

int pci_listing_load(struct pci_model *m, const char *text, size_t len,
    struct pci_listing_result *res)
{
	const char *p = text, *end = text + len;
	unsigned line = 0;

	pci_model_init(m);
	memset(res, 0, sizeof *res);
	while (p < end) {
		const char *eol = p, *le;

		while (eol < end && *eol != '\n')
			eol++;
		le = eol;
		if (le > p && le[-1] == '\r')
			le--;
		if (load_line(m, p, le, ++line, res) != 0)
			return -1;
		p = eol < end ? eol + 1 : end;
	}
	if (res->nlisted == 0)
		return pci_listing_fail(res, 0, "no PCI functions listed");
	if (pci_listing_number_buses(m, res) != 0)
		return -1;
	fill_defaults(m, res->format);
	return 0;
}
