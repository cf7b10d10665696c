/*
 * PCI class names and the lspci-like table rows (layout in pci.h).
 * Names are the ones lspci prints, from the pci.ids class list, which
 * follows the PCI Code and ID Assignment Specification 1.x.
 */
#include "lib/platform/pci_enum.h"
#include "lib/util/fmt.h"

#include <stdarg.h>

#define ANY_SUB	0xFFFF	/* matches every subclass: the class's own name */

static const struct {
	uint8_t class_code;
	uint16_t subclass;
	const char *name;
} class_names[] = {
	{ 0x00, 0x00, "Non-VGA unclassified device" },
	{ 0x00, 0x01, "VGA compatible unclassified device" },
	{ 0x00, ANY_SUB, "Unclassified device" },
	{ 0x01, 0x00, "SCSI storage controller" },
	{ 0x01, 0x01, "IDE interface" },
	{ 0x01, 0x02, "Floppy disk controller" },
	{ 0x01, 0x04, "RAID bus controller" },
	{ 0x01, 0x05, "ATA controller" },
	{ 0x01, 0x06, "SATA controller" },
	{ 0x01, 0x08, "Non-Volatile memory controller" },
	{ 0x01, ANY_SUB, "Mass storage controller" },
	{ 0x02, 0x00, "Ethernet controller" },
	{ 0x02, ANY_SUB, "Network controller" },
	{ 0x03, 0x00, "VGA compatible controller" },
	{ 0x03, 0x01, "XGA compatible controller" },
	{ 0x03, 0x02, "3D controller" },
	{ 0x03, ANY_SUB, "Display controller" },
	{ 0x04, 0x00, "Multimedia video controller" },
	{ 0x04, 0x01, "Multimedia audio controller" },
	{ 0x04, 0x03, "Audio device" },
	{ 0x04, ANY_SUB, "Multimedia controller" },
	{ 0x05, 0x00, "RAM memory" },
	{ 0x05, 0x01, "FLASH memory" },
	{ 0x05, ANY_SUB, "Memory controller" },
	{ 0x06, 0x00, "Host bridge" },
	{ 0x06, 0x01, "ISA bridge" },
	{ 0x06, 0x02, "EISA bridge" },
	{ 0x06, 0x04, "PCI bridge" },
	{ 0x06, 0x07, "CardBus bridge" },
	{ 0x06, ANY_SUB, "Bridge" },
	{ 0x07, 0x00, "Serial controller" },
	{ 0x07, 0x01, "Parallel controller" },
	{ 0x07, ANY_SUB, "Communication controller" },
	{ 0x08, 0x00, "PIC" },
	{ 0x08, 0x01, "DMA controller" },
	{ 0x08, 0x02, "Timer" },
	{ 0x08, 0x03, "RTC" },
	{ 0x08, ANY_SUB, "System peripheral" },
	{ 0x09, ANY_SUB, "Input device controller" },
	{ 0x0a, ANY_SUB, "Docking station" },
	{ 0x0b, ANY_SUB, "Processor" },
	{ 0x0c, 0x00, "FireWire (IEEE 1394)" },
	{ 0x0c, 0x03, "USB controller" },
	{ 0x0c, 0x05, "SMBus" },
	{ 0x0c, ANY_SUB, "Serial bus controller" },
	{ 0x0d, ANY_SUB, "Wireless controller" },
	{ 0x0e, ANY_SUB, "Intelligent controller" },
	{ 0x0f, ANY_SUB, "Satellite communications controller" },
	{ 0x10, 0x00, "Network and computing encryption device" },
	{ 0x10, 0x10, "Entertainment encryption device" },
	{ 0x10, ANY_SUB, "Encryption controller" },
	{ 0x11, ANY_SUB, "Signal processing controller" },
	{ 0x12, ANY_SUB, "Processing accelerators" },
	{ 0xff, ANY_SUB, "Unassigned class" },
};

const char *pci_class_name(uint8_t class_code, uint8_t subclass)
{
	size_t i;

	for (i = 0; i < sizeof class_names / sizeof class_names[0]; i++) {
		if (class_names[i].class_code != class_code)
			continue;
		if (class_names[i].subclass == subclass ||
		    class_names[i].subclass == ANY_SUB)
			return class_names[i].name;
	}
	return "Unknown class";
}

/* Appends to buf (size n) at offset at; returns the new offset even past n. */
static size_t put(char *buf, size_t n, size_t at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	at += fmt_vsnprintf(at < n ? buf + at : NULL, at < n ? n - at : 0,
	    fmt, ap);
	va_end(ap);
	return at;
}

/* BAR sizes are powers of two, so units are whole shifts: no division. */
static size_t put_size(char *buf, size_t n, size_t at, uint64_t size)
{
	static const struct { unsigned shift; char unit; } units[] = {
		{ 30, 'G' }, { 20, 'M' }, { 10, 'K' },
	};
	size_t i;

	for (i = 0; i < sizeof units / sizeof units[0]; i++) {
		uint64_t one = (uint64_t)1 << units[i].shift;

		if (size >= one && (size & (one - 1)) == 0)
			return put(buf, n, at, "/%llu%c",
			    (unsigned long long)(size >> units[i].shift),
			    units[i].unit);
	}
	return put(buf, n, at, "/%llu", (unsigned long long)size);
}

static size_t put_bar(char *buf, size_t n, size_t at, const struct pci_bar *b)
{
	const char *kind = "mem32";
	int digits = 8;

	if (b->flags & PCI_BAR_IO) {
		kind = "io";
		digits = 4;
	} else if (b->flags & PCI_BAR_MEM64) {
		kind = "mem64";
		digits = 16;
	}
	at = put(buf, n, at, " BAR%u=%s%s:", b->index, kind,
	    b->flags & PCI_BAR_PREFETCH ? "p" : "");
	if (b->flags & PCI_BAR_UNASSIGNED)
		at = put(buf, n, at, "unassigned");
	else
		at = put(buf, n, at, "0x%0*llx", digits,
		    (unsigned long long)b->base);
	return put_size(buf, n, at, b->size);
}

size_t pci_format_header(char *buf, size_t n)
{
	return put(buf, n, 0, "%s", "BB:DD.F VVVV:DDDD CC.SS.PP REV    "
	    "[bus=PP,SS,UU] [BARn=KIND:BASE/SIZE ...] CLASS-NAME");
}

size_t pci_format_row(const struct pci_dev *d, char *buf, size_t n)
{
	size_t at;
	int i;

	if (n > 0)
		buf[0] = '\0';
	at = put(buf, n, 0, "%02x:%02x.%x %04x:%04x %02x.%02x.%02x rev %02x",
	    d->bus, d->dev, d->fn, d->vendor, d->device, d->class_code,
	    d->subclass, d->progif, d->rev);
	if (d->header_type == PCI_HDR_BRIDGE)
		at = put(buf, n, at, " bus=%02x,%02x,%02x", d->primary,
		    d->secondary, d->subordinate);
	for (i = 0; i < d->nbars && i < 6; i++)
		at = put_bar(buf, n, at, &d->bars[i]);
	return put(buf, n, at, " %s", pci_class_name(d->class_code,
	    d->subclass));
}
