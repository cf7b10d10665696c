/* nic: NIC station addresses. See nic.h. */
#include "kernel/platform/nic.h"

#include <stddef.h>
#include <string.h>

#include "kernel/platform/hw.h"
#include "kernel/platform/pci_bus.h"

#define CLASS_NETWORK   0x02
#define E1000_RAL0      0x5400
#define E1000_RAH0      0x5404
#define  E1000_RAH_AV   0x80000000u

enum how { INTEL_MMIO, IO_BYTES };

static const struct {
	uint16_t vendor, device;
	const char *kind;
	enum how how;
} known[] = {
	{ 0x1106, 0x3043, "via-rhine", IO_BYTES },
	{ 0x1106, 0x3065, "via-rhine", IO_BYTES },
	{ 0x1106, 0x3053, "via-rhine", IO_BYTES },
	{ 0x1106, 0x3106, "via-rhine", IO_BYTES },
	{ 0x8086, 0x100e, "e1000", INTEL_MMIO },
	{ 0x8086, 0x100f, "e1000", INTEL_MMIO },
	{ 0x8086, 0x1004, "e1000", INTEL_MMIO },
	{ 0x8086, 0x1026, "e1000", INTEL_MMIO },
	{ 0x8086, 0x1075, "e1000", INTEL_MMIO },
	{ 0x8086, 0x107c, "e1000", INTEL_MMIO },
	{ 0x10ec, 0x8139, "rtl8139", IO_BYTES },
	{ 0x1022, 0x2000, "pcnet", IO_BYTES },
};

static const struct pci_bar *bar_of(const struct pci_dev *d, bool io)
{
	unsigned i;
	for (i = 0; i < d->nbars; i++) {
		const struct pci_bar *b = &d->bars[i];
		if (((b->flags & PCI_BAR_IO) != 0) == io && !(b->flags & PCI_BAR_UNASSIGNED))
			return b;
	}
	return NULL;
}

/* A station address that is all zero or all ones is not one (nothing loaded). */
static bool plausible(const uint8_t *m)
{
	unsigned i, zero = 0, ones = 0;
	for (i = 0; i < 6; i++) {
		zero += m[i] == 0x00;
		ones += m[i] == 0xFF;
	}
	return zero < 6 && ones < 6;
}

/* Why a function in D1, D2 or D3hot is not read: it answers configuration accesses only. */
static const char *const low_power[4] = {
	NULL, "in power state D1 (PMCSR): its registers are not read",
	"in power state D2 (PMCSR): its registers are not read",
	"in power state D3hot (PMCSR): its registers are not read until a driver wakes it",
};

static void read_mac(const struct pci_dev *d, enum how how, struct nic_info *n)
{
	uint16_t cmd = (uint16_t)pci_cfg_read32(d, PCI_CMD);
	const struct pci_bar *b;
	unsigned i, ps = pci_power_state(d);

	if (ps) {
		n->why = low_power[ps];
		return;
	}

	if (how == INTEL_MMIO) {
		uint32_t lo, hi;
		b = bar_of(d, false);
		if (!b || b->index != 0 || b->base >= 0x100000000ull || b->size < 0x6000) {
			n->why = "no 32-bit memory BAR0 large enough for RAL0/RAH0";
			return;
		}
		if (!(cmd & PCI_CMD_MEM)) {
			n->why = "memory decoding is off (PCI command bit 1)";
			return;
		}
		lo = hw_mmio_read32((uintptr_t)b->base + E1000_RAL0);
		hi = hw_mmio_read32((uintptr_t)b->base + E1000_RAH0);
		if (!(hi & E1000_RAH_AV)) {
			n->why = "RAH0 address-valid bit clear";
			return;
		}
		for (i = 0; i < 4; i++)
			n->mac[i] = (uint8_t)(lo >> (8 * i));
		n->mac[4] = (uint8_t)hi;
		n->mac[5] = (uint8_t)(hi >> 8);
	} else {
		b = bar_of(d, true);
		if (!b || b->base > 0xFFFF - 6) {
			n->why = "no I/O BAR";
			return;
		}
		if (!(cmd & PCI_CMD_IO)) {
			n->why = "I/O decoding is off (PCI command bit 0)";
			return;
		}
		for (i = 0; i < 6; i++)
			n->mac[i] = hw_inb((uint16_t)(b->base + i));
	}
	if (!plausible(n->mac)) {
		n->why = "the register reads all zeros or all ones";
		return;
	}
	n->have_mac = true;
}

unsigned nic_scan(struct nic_info *out, unsigned max)
{
	int nd, i;
	const struct pci_dev *d = pci_devices(&nd);
	unsigned count = 0, k;

	for (i = 0; i < nd; i++) {
		struct nic_info *n;
		if (d[i].class_code != CLASS_NETWORK || d[i].header_type != PCI_HDR_NORMAL)
			continue;
		if (count >= max) {
			count++;
			continue;
		}
		n = &out[count++];
		memset(n, 0, sizeof(*n));
		n->bus = d[i].bus;
		n->dev = d[i].dev;
		n->fn = d[i].fn;
		n->vendor = d[i].vendor;
		n->device = d[i].device;
		n->kind = "unknown";
		n->why = "no reader for this controller";
		for (k = 0; k < sizeof(known) / sizeof(known[0]); k++)
			if (known[k].vendor == d[i].vendor && known[k].device == d[i].device) {
				n->kind = known[k].kind;
				read_mac(&d[i], known[k].how, n);
				break;
			}
	}
	return count;
}
