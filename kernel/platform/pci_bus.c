/* PCI configuration mechanism #1 (PCI Local Bus Spec. 3.0, 3.2.2.3.2). */
#include "kernel/platform/pci_bus.h"

#include "kernel/platform/console.h"
#include "kernel/platform/hw.h"

static uint32_t mech1_read32(void *ctx, unsigned bus, unsigned dev, unsigned fn, unsigned off)
{
	(void)ctx;
	hw_outl(PCI_CFG_ADDR_PORT, pci_mech1_address(bus, dev, fn, off));
	return hw_inl(PCI_CFG_DATA_PORT);
}

static void mech1_write32(void *ctx, unsigned bus, unsigned dev, unsigned fn, unsigned off,
			  uint32_t val)
{
	(void)ctx;
	hw_outl(PCI_CFG_ADDR_PORT, pci_mech1_address(bus, dev, fn, off));
	hw_outl(PCI_CFG_DATA_PORT, val);
}

static const struct pci_cfg_ops mech1_ops = { mech1_read32, mech1_write32, 0 };

static struct pci_dev devices[PCI_MAX_DEVICES];
static int ndevices;

bool pci_mech1_present(void)
{
	uint32_t saved = hw_inl(PCI_CFG_ADDR_PORT), back;
	hw_outl(PCI_CFG_ADDR_PORT, PCI_CFG_ENABLE);
	back = hw_inl(PCI_CFG_ADDR_PORT);
	hw_outl(PCI_CFG_ADDR_PORT, saved);
	return back == PCI_CFG_ENABLE;
}

static void warn_line(void *ctx, const char *msg)
{
	(void)ctx;
	console_diag("warning: pci: %s", msg);
}

int pci_scan(void)
{
	int found = pci_enumerate(&mech1_ops, devices, PCI_MAX_DEVICES, warn_line, 0);
	ndevices = found < PCI_MAX_DEVICES ? found : PCI_MAX_DEVICES;
	return found;
}

void pci_report(void)
{
	char line[160];
	int i;
	pci_format_header(line, sizeof(line));
	console_diag("pci: %s", line);
	for (i = 0; i < ndevices; i++) {
		pci_format_row(&devices[i], line, sizeof(line));
		console_diag("pci: %s", line);
	}
}

const struct pci_dev *pci_devices(int *count)
{
	*count = ndevices;
	return devices;
}

const struct pci_dev *pci_find(uint16_t vendor, uint16_t device)
{
	int i;
	for (i = 0; i < ndevices; i++)
		if (devices[i].vendor == vendor && devices[i].device == device)
			return &devices[i];
	return 0;
}

uint32_t pci_cfg_read32(const struct pci_dev *d, unsigned off)
{
	return mech1_read32(0, d->bus, d->dev, d->fn, off);
}

void pci_cfg_write32(const struct pci_dev *d, unsigned off, uint32_t val)
{
	mech1_write32(0, d->bus, d->dev, d->fn, off, val);
}

/* Capability list walk (PCI 3.0 6.7): status register bit 4 says there is a list; its first
 * pointer is at 0x34; each entry holds its ID in bits 7:0 and the next pointer in bits 15:8. */
#define CFG_STATUS_CAPLIST	0x00100000u	/* bit 4 of the status word, the high half of dword 0x04 */
#define CFG_CAP_PTR		0x34
#define CAP_WALK_MAX		48		/* (256 - 64) / 4 entries: a list that loops ends */
#define CAP_ID_PM		0x01		/* power management [PCI PM 1.2 3.2.1] */
#define PM_PMCSR		4		/* PMCSR's offset in the capability [PCI PM 1.2 3.2.4] */

unsigned pci_capability(const struct pci_dev *d, uint8_t id)
{
	unsigned ptr, i;

	if (!(pci_cfg_read32(d, PCI_CMD) & CFG_STATUS_CAPLIST))
		return 0;
	ptr = pci_cfg_read32(d, CFG_CAP_PTR) & 0xFC;
	for (i = 0; i < CAP_WALK_MAX && ptr >= 0x40; i++) {
		uint32_t cap = pci_cfg_read32(d, ptr);
		if ((cap & 0xFF) == id)
			return ptr;
		ptr = (cap >> 8) & 0xFC;
	}
	return 0;
}

unsigned pci_power_state(const struct pci_dev *d)
{
	unsigned cap = pci_capability(d, CAP_ID_PM);

	return cap ? pci_cfg_read32(d, cap + PM_PMCSR) & 3 : 0;
}

const struct pci_cfg_ops *pci_ops(void)
{
	return &mech1_ops;
}
