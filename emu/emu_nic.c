/*
 * emu_nic: the emulated machines' VIA Rhine NICs (emu/models/rhine_model.h)
 * and their cable to the QEMU machine's own NIC (emu/nic_wire.h).
 *
 *   - net5501, alix: every Rhine of the profile's listing is a model at
 *     its listed BDF (net5501 00:06.0-00:09.0, ALIX 00:09.0-00:0b.0), with
 *     the profile's station addresses in its EEPROM. The ALIX's lspci
 *     listing shows no BARs: they get I/O 0xe100 + 0x100 * n and memory
 *     0xefff0000 + 0x100 * n (assumption, as the net5501's comBIOS
 *     assigns them).
 *   - c7 (no listing: QEMU's own devices): a VT8237's Rhine II at 00:12.0
 *     (where VIA south bridges put it: an lspci of a VT8235 notebook shows
 *     "00:12.0 ... VT6102 [Rhine-II] (rev 74)"; revision 0x78 is the
 *     VT8237's, Linux via-rhine.c), laid over QEMU's configuration space,
 *     I/O 0xe100 and memory 0xe0000000 (assumption: below what SeaBIOS
 *     assigns top-down); the QEMU NIC that is its wire is hidden there.
 *   - The first Rhine's wire is the QEMU machine's own NIC, found in the
 *     real configuration space before the profile hides it, when the
 *     build has a driver for it (e1000_nic_driver for QEMU's default e1000,
 *     referenced weakly: this file links without it); the driver opens it
 *     in the real configuration space (emu_hw_pci_real) on first use, and
 *     the NIC is made to accept every station address (the Rhine's is not
 *     its own). The other Rhines have no link partner (one cable, assumption). Without a
 *     QEMU NIC or its driver the first Rhine has no link either.
 */
#include <string.h>

#include "drivers/e1000/e1000_reg.h"
#include "drivers/rhine/rhine_reg.h"
#include "emu/emu.h"
#include "emu/hw_emu.h"
#include "emu/hw_real.h"
#include "kernel/run/report.h"
#include "lib/util/fmt.h"

#define RHINE_IO_BASE		0xE100u		/* BAR0 of the first Rhine without a listed one */
#define ALIX_MMIO_BASE		0xEFFF0000u	/* below the security block's PCI_LISTING_GEODE_SB_BASE */
#define OVERLAY_MMIO_BASE	0xE0000000u
#define REAL_PCI_MAX		32

/* The QEMU machine's NIC drivers the wire can use, when linked (weak: absent is NULL). */
extern const struct nic_driver e1000_nic_driver __attribute__((weak));

static const struct nic_driver *wire_driver_for(uint16_t vendor, uint16_t device)
{
	const struct nic_driver *drv = &e1000_nic_driver;
	return drv && drv->match(vendor, device) ? drv : NULL;
}

static bool is_rhine(uint32_t id)
{
	return RHINE_PCI_ID((uint16_t)id, (uint16_t)(id >> 16));
}

/* ---- the QEMU machine's own NIC ---- */

static uint32_t real_read32(void *ctx, unsigned bus, unsigned dev, unsigned fn, unsigned off)
{
	(void)ctx;
	hw_real_outl(PCI_CFG_ADDR_PORT, pci_mech1_address(bus, dev, fn, off));
	return hw_real_inl(PCI_CFG_DATA_PORT);
}

static void real_write32(void *ctx, unsigned bus, unsigned dev, unsigned fn, unsigned off, uint32_t v)
{
	(void)ctx;
	hw_real_outl(PCI_CFG_ADDR_PORT, pci_mech1_address(bus, dev, fn, off));
	hw_real_outl(PCI_CFG_DATA_PORT, v);
}

/*
 * The cable carries frames for the Rhine's station address, not the QEMU
 * NIC's: an Intel 8254x is put in unicast and multicast promiscuous mode,
 * RCTL bits UPE and MPE (drivers/e1000/e1000_reg.h; QEMU's e1000 honours
 * both in its receive filter).
 */
static void wire_promiscuous(const struct nic_wire *w)
{
	unsigned i;

	if (strcmp(w->nd.kind ? w->nd.kind : "", "e1000") != 0)
		return;
	for (i = 0; i < emu.wire_dev.nbars; i++) {
		const struct pci_bar *b = &emu.wire_dev.bars[i];
		if (b->index == 0 && !(b->flags & (PCI_BAR_IO | PCI_BAR_UNASSIGNED))) {
			uintptr_t rctl = (uintptr_t)b->base + E1000_RCTL;
			hw_real_mmio_write32(rctl, hw_real_mmio_read32(rctl) | E1000_RCTL_UPE | E1000_RCTL_MPE);
		}
	}
}

static int wire_open(struct nic_wire *w)
{
	bool was = emu_hw_pci_real(true);
	int rc = emu.wire_drv->open(&emu.wire_dev, &w->nd);

	emu_hw_pci_real(was);
	if (rc == 0)
		wire_promiscuous(w);
	return rc;
}

void emu_nic_find_wire(void)
{
	static struct pci_dev devs[REAL_PCI_MAX];
	struct pci_cfg_ops ops = { real_read32, real_write32, NULL };
	int n = pci_enumerate(&ops, devs, REAL_PCI_MAX, NULL, NULL), i;

	if (n > REAL_PCI_MAX)
		n = REAL_PCI_MAX;
	for (i = 0; i < n; i++) {
		const struct nic_driver *drv;
		if (devs[i].class_code != 0x02 || devs[i].header_type != PCI_HDR_NORMAL)
			continue;
		drv = wire_driver_for(devs[i].vendor, devs[i].device);
		if (drv) {
			emu.wire_drv = drv;
			emu.wire_dev = devs[i];
			break;
		}
	}
	nic_wire_init(&emu.wire, emu.wire_drv ? wire_open : NULL, NULL);
}

/* ---- the models ---- */

static uint32_t io_read(void *ctx, uint32_t off, unsigned bytes)
{
	return rhine_model_io_read(ctx, off, bytes);
}

static void io_write(void *ctx, uint32_t off, uint32_t val, unsigned bytes)
{
	rhine_model_io_write(ctx, off, val, bytes);
}

/* A model behind f (BARs given when f has none); NULL, or why not. */
static const char *install_one(struct pci_model_fn *f, const uint8_t *mac, uint32_t faults, uint32_t mmio)
{
	struct rhine_model *m;
	unsigned k = emu.nrhine;

	if (k >= EMU_RHINES)
		return "more Rhines in the listing than the emulation holds";
	m = &emu.rhine[k];
	rhine_model_init(m);
	if (!(pci_model_peek32(f, PCI_BAR0) & PCI_BAR_IO_MASK)) {
		if (pci_model_set_bar(f, 0, PCI_BAR_IO, RHINE_IO_BASE + 0x100 * k, RHINE_MODEL_REGS) != 0 ||
		    pci_model_set_bar(f, 1, 0, mmio + 0x100 * k, RHINE_MODEL_REGS) != 0)
			return "a Rhine's BARs could not be set";
		pci_model_poke32(f, PCI_CMD, (pci_model_peek32(f, PCI_CMD) & 0xFFFF0000u) |
					     PCI_CMD_IO | PCI_CMD_MEM | PCI_CMD_MASTER);
	}
	m->device = (uint16_t)(pci_model_peek32(f, PCI_ID) >> 16);
	m->rev = (uint8_t)pci_model_peek32(f, PCI_CLASS);
	m->io_base = (uint16_t)(pci_model_peek32(f, PCI_BAR0) & PCI_BAR_IO_MASK);
	m->mmio_base = pci_model_peek32(f, PCI_BAR0 + 4) & PCI_BAR_MEM_MASK;
	if (mac)
		memcpy(m->eeprom_par, mac, 6);
	m->faults = faults;
	m->link = k == 0 && emu.wire.state != NIC_WIRE_NONE;
	if (k == 0)
		m->wire = nic_wire_model_side(&emu.wire);
	rhine_model_attach_pci(m, f);
	if (emu_hw_add_io(f, 0, RHINE_MODEL_REGS, io_read, io_write, m) != 0 ||
	    emu_hw_add_bar(f, 1, RHINE_MODEL_REGS, rhine_model_mmio_read, rhine_model_mmio_write, m) != 0)
		return "no room in the hardware layer for the Rhine models";
	emu.nrhine++;
	return NULL;
}

const char *emu_nic_install_listed(const uint8_t (*macs)[6], unsigned nmacs, uint32_t faults)
{
	unsigned i, k = 0;
	const char *why;

	for (i = 0; i < (unsigned)emu.pci.nfn; i++) {
		struct pci_model_fn *f = &emu.pci.fns[i];
		const uint8_t *mac = k < nmacs ? macs[k] : NULL;
		if (pci_model_peek32(f, PCI_CLASS) >> 24 != 0x02)
			continue;
		k++;
		if (is_rhine(pci_model_peek32(f, PCI_ID))) {
			if ((why = install_one(f, mac, faults, ALIX_MMIO_BASE)) != NULL)
				return why;
		} else if (mac && emu_hw_add_io_bytes(f, 0, mac, 6) != 0) {
			return "no room in the hardware layer for the NIC station addresses";
		}
	}
	return NULL;
}

const char *emu_nic_install_overlay(const struct emu_profile *p, const uint8_t (*macs)[6], unsigned nmacs,
				    uint32_t faults)
{
	unsigned off;
	struct pci_model_fn *f;
	const char *why;

	pci_model_init(&emu.overlay);
	if (emu.wire_drv) {
		/* the wire NIC belongs to the emulation: the kernel does not see it */
		f = pci_model_add(&emu.overlay, emu.wire_dev.bus, emu.wire_dev.dev, emu.wire_dev.fn,
				  emu.wire_dev.vendor, emu.wire_dev.device, 0, PCI_HDR_NORMAL);
		if (!f)
			return "no room to hide the QEMU NIC";
		for (off = 0; off < PCI_CFG_SIZE; off += 4) {
			pci_model_poke32(f, off, 0xFFFFFFFFu);	/* reads as an absent function */
			f->wmask[off / 4] = 0;
		}
	}
	f = pci_model_add(&emu.overlay, 0, p->rhine_dev, 0, RHINE_VENDOR, p->rhine_device,
			  0x02000000u | p->rhine_rev, PCI_HDR_NORMAL);
	if (!f)
		return "the Rhine's BDF is taken";
	if ((why = install_one(f, nmacs ? macs[0] : NULL, faults, OVERLAY_MMIO_BASE)) != NULL)
		return why;
	emu.overlay_on = true;
	emu_hw_set_pci_overlay(&emu.overlay);
	return NULL;
}

/* ---- the report ---- */

void emu_nic_report(void)
{
	const struct rhine_model *m = &emu.rhine[0];
	const struct pci_model_fn *f = m->pci_fn;

	if (!emu.nrhine)
		return;
	if (emu.wire_drv)
		tap_diag("emulate: model: VIA Rhine %04x:%04x rev %02x (emu/models/rhine_model.c) x%u from %02x:%02x.%x; cable: the QEMU %s at %02x:%02x.%x (hidden) to the first",
			 RHINE_VENDOR, m->device, m->rev, emu.nrhine, f->bus, f->dev, f->fn, emu.wire_drv->kind,
			 emu.wire_dev.bus, emu.wire_dev.dev, emu.wire_dev.fn);
	else
		tap_diag("emulate: model: VIA Rhine %04x:%04x rev %02x (emu/models/rhine_model.c) x%u from %02x:%02x.%x; no cable (no driver for QEMU's NIC in this build)",
			 RHINE_VENDOR, m->device, m->rev, emu.nrhine, f->bus, f->dev, f->fn);
}

/* Whether a fault of the Rhine model is a variant a healthy driver works through. */
bool emu_nic_fault_is_variant(uint32_t faults)
{
	return faults && !(faults & ~(uint32_t)RHINE_FAULT_VARIANTS);
}

void emu_nic_finish(void)
{
	unsigned i;

	for (i = 0; i < emu.nrhine; i++) {
		const struct rhine_model *m = &emu.rhine[i];
		const struct rhine_model_stats *s = &m->st;
		const struct pci_model_fn *f = m->pci_fn;
		bool clean = s->imr_set == 0 && s->desc_unaligned == 0 && s->buf_unaligned == 0 &&
			     s->write_in_reset == 0 && s->d3_access == 0 && s->dma_errors == 0 && s->no_master == 0 &&
			     s->tx_runts == 0;

		if (!s->resets && clean)
			continue;	/* never opened nor misused: nothing to check */
		tap_diag("emulate: rhine model %02x:%02x.%x: %lu resets, %lu frames sent (%lu bytes, %lu under 60), %lu received, %lu lost for want of a descriptor, %lu filtered",
			 f->bus, f->dev, f->fn, s->resets, s->tx_frames, s->tx_bytes, s->tx_runts, s->rx_frames,
			 s->rx_missed, s->rx_filtered);
		tap_result(clean, "emulate: no protocol slip on the Rhine model at %02x:%02x.%x (IMR set %lu, misaligned descriptors %lu, buffers %lu, writes during reset %lu, accesses in D3 %lu, DMA errors %lu, no bus master %lu, frames under 60 bytes %lu)",
			   f->bus, f->dev, f->fn, s->imr_set, s->desc_unaligned, s->buf_unaligned,
			   s->write_in_reset, s->d3_access, s->dma_errors, s->no_master, s->tx_runts);
	}
	if (emu.wire.state == NIC_WIRE_OPEN || emu.wire.state == NIC_WIRE_FAILED)
		tap_diag("emulate: rhine wire: %s; %lu frames to the QEMU NIC (%lu refused), %lu from it (%lu padded to 60 bytes)",
			 emu.wire.state == NIC_WIRE_OPEN ? "open" : emu.wire.why, emu.wire.to_real,
			 emu.wire.to_real_errors, emu.wire.from_real, emu.wire.padded);
}
