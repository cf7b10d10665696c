/*
 * PCI class names and the lspci-like table rows (layout in pci.h).
 * Names are the ones lspci prints, from the pci.ids class list, which
 * follows the PCI Code and ID Assignment Specification 1.x.
 */
#include "lib/platform/pci_enum.h"
#include "lib/util/fmt.h"

#include <stdarg.h>
#include <string.h>

/*
 * The table, packed (no pointers: 4 bytes less a name): per name the class
 * byte, the subclass byte (ANY_SUB: every subclass, the class's own name;
 * no listed subclass is 0xff), the name and its NUL.
 */
#define ANY_SUB	0xff

static const char class_names[] =
	"\x00\x00" "Non-VGA unclassified device\0"
	"\x00\x01" "VGA compatible unclassified device\0"
	"\x00\xff" "Unclassified device\0"
	"\x01\x00" "SCSI storage controller\0"
	"\x01\x01" "IDE interface\0"
	"\x01\x02" "Floppy disk controller\0"
	"\x01\x04" "RAID bus controller\0"
	"\x01\x05" "ATA controller\0"
	"\x01\x06" "SATA controller\0"
	"\x01\x08" "Non-Volatile memory controller\0"
	"\x01\xff" "Mass storage controller\0"
	"\x02\x00" "Ethernet controller\0"
	"\x02\xff" "Network controller\0"
	"\x03\x00" "VGA compatible controller\0"
	"\x03\x01" "XGA compatible controller\0"
	"\x03\x02" "3D controller\0"
	"\x03\xff" "Display controller\0"
	"\x04\x00" "Multimedia video controller\0"
	"\x04\x01" "Multimedia audio controller\0"
	"\x04\x03" "Audio device\0"
	"\x04\xff" "Multimedia controller\0"
	"\x05\x00" "RAM memory\0"
	"\x05\x01" "FLASH memory\0"
	"\x05\xff" "Memory controller\0"
	"\x06\x00" "Host bridge\0"
	"\x06\x01" "ISA bridge\0"
	"\x06\x02" "EISA bridge\0"
	"\x06\x04" "PCI bridge\0"
	"\x06\x07" "CardBus bridge\0"
	"\x06\xff" "Bridge\0"
	"\x07\x00" "Serial controller\0"
	"\x07\x01" "Parallel controller\0"
	"\x07\xff" "Communication controller\0"
	"\x08\x00" "PIC\0"
	"\x08\x01" "DMA controller\0"
	"\x08\x02" "Timer\0"
	"\x08\x03" "RTC\0"
	"\x08\xff" "System peripheral\0"
	"\x09\xff" "Input device controller\0"
	"\x0a\xff" "Docking station\0"
	"\x0b\xff" "Processor\0"
	"\x0c\x00" "FireWire (IEEE 1394)\0"
	"\x0c\x03" "USB controller\0"
	"\x0c\x05" "SMBus\0"
	"\x0c\xff" "Serial bus controller\0"
	"\x0d\xff" "Wireless controller\0"
	"\x0e\xff" "Intelligent controller\0"
	"\x0f\xff" "Satellite communications controller\0"
	"\x10\x00" "Network and computing encryption device\0"
	"\x10\x10" "Entertainment encryption device\0"
	"\x10\xff" "Encryption controller\0"
	"\x11\xff" "Signal processing controller\0"
	"\x12\xff" "Processing accelerators\0"
	"\xff\xff" "Unassigned class\0";

const char *pci_class_name(uint8_t class_code, uint8_t subclass)
{
	const char *p;

	for (p = class_names; p < class_names + sizeof(class_names) - 1; p += 3 + strlen(p + 2)) {
		if ((uint8_t)p[0] != class_code)
			continue;
		if ((uint8_t)p[1] == subclass || (uint8_t)p[1] == ANY_SUB)
			return p + 2;
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
