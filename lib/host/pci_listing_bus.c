/*
 * Bus numbers for the bridges of a model built from a listing: neither
 * listing format shows them, but the devices listed on bus N > 0 must be
 * reachable through a bridge whose secondary bus is N. Rules in
 * pci_listing.h; numbers follow PCI-PCI Bridge Spec 1.2 §3.2.5.3-5
 * (primary = own bus, secondary = bus behind, subordinate = highest bus
 * behind).
 */
#include "lib/host/pci_listing_int.h"

#include <string.h>

#define NO_BRIDGE	(-1)

static bool is_bridge(const struct pci_model_fn *f)
{
	return (f->cfg[PCI_BHLC + 2] & PCI_HDR_LAYOUT) == PCI_HDR_BRIDGE;
}

static bool dev_free(struct pci_model *m, unsigned bus, unsigned dev)
{
	unsigned fn;

	for (fn = 0; fn < PCI_NFN; fn++)
		if (pci_model_find(m, bus, dev, fn) != NULL)
			return false;
	return true;
}

/* Adds a QEMU-style PCI-PCI bridge on bus 0; returns its index or -1. */
static int add_bridge(struct pci_model *m, unsigned to_bus,
    struct pci_listing_result *res)
{
	int dev;

	for (dev = PCI_NDEV - 1; dev >= 0; dev--) {
		struct pci_model_fn *f;

		if (!dev_free(m, 0, dev))
			continue;
		f = pci_model_add(m, 0, dev, 0, PCI_LISTING_BRIDGE_VENDOR,
		    PCI_LISTING_BRIDGE_DEVICE, PCI_CLASS_BRIDGE << 24 |
		    PCI_SUB_PCI << 16, PCI_HDR_BRIDGE);
		if (f == NULL)
			break;
		res->nadded++;
		return f - m->fns;
	}
	return pci_listing_fail(res, 0, "no room for a bridge to bus %u",
	    to_bus);
}

/* The first unused listed bridge on a reachable bus below bus. */
static int find_bridge(struct pci_model *m, unsigned bus, const bool *used,
    const bool *reach)
{
	int i;

	for (i = 0; i < m->nfn; i++) {
		const struct pci_model_fn *f = &m->fns[i];
		if (is_bridge(f) && !used[i] && f->bus < bus && reach[f->bus])
			return i;
	}
	return NO_BRIDGE;
}

/* Raises the subordinate number of every bridge above bus. */
static void cover(struct pci_model *m, const int *parent, unsigned bus)
{
	unsigned x = bus, depth;

	for (depth = 0; depth < PCI_NBUS && parent[x] != NO_BRIDGE; depth++) {
		struct pci_model_fn *f = &m->fns[parent[x]];

		if (f->cfg[PCI_BUSES + 2] < bus)
			f->cfg[PCI_BUSES + 2] = bus;
		x = f->bus;
	}
}

int pci_listing_number_buses(struct pci_model *m,
    struct pci_listing_result *res)
{
	bool need[PCI_NBUS], reach[PCI_NBUS], used[PCI_MODEL_MAX_FN];
	int parent[PCI_NBUS];
	unsigned bus, top = 0;
	int i;

	memset(need, 0, sizeof need);
	memset(reach, 0, sizeof reach);
	memset(used, 0, sizeof used);
	for (bus = 0; bus < PCI_NBUS; bus++)
		parent[bus] = NO_BRIDGE;
	for (i = 0; i < m->nfn; i++) {
		need[m->fns[i].bus] = true;
		if (m->fns[i].bus > top)
			top = m->fns[i].bus;
	}
	reach[0] = true;
	for (bus = 1; bus < PCI_NBUS; bus++) {
		int b;

		if (!need[bus])
			continue;
		b = find_bridge(m, bus, used, reach);
		if (b == NO_BRIDGE && (b = add_bridge(m, bus, res)) < 0)
			return -1;
		used[b] = true;
		parent[bus] = b;
		reach[bus] = true;
		pci_model_set_buses(&m->fns[b], m->fns[b].bus, bus, bus);
	}
	for (i = 0; i < m->nfn; i++) {
		if (!is_bridge(&m->fns[i]) || used[i])
			continue;
		if (top + 1 >= PCI_NBUS)
			return pci_listing_fail(res, 0, "more than %d buses",
			    PCI_NBUS);
		top++;
		used[i] = true;
		parent[top] = i;
		pci_model_set_buses(&m->fns[i], m->fns[i].bus, top, top);
	}
	for (bus = 1; bus < PCI_NBUS; bus++)
		if (parent[bus] != NO_BRIDGE)
			cover(m, parent, bus);
	return 0;
}
