/*
 * pci: enumerate PCI functions through configuration mechanism #1 and
 * format them as an lspci-like table. Hardware-free: config space is
 * reached through struct pci_cfg_ops, which the kernel implements with
 * ports 0xCF8/0xCFC and the host tools with a model (lib/host/pci_model.h).
 *
 * Sources: PCI Local Bus Specification 3.0 (header layout §6.1, command
 * register §6.2.2, BARs and their sizing §6.2.5.1, mechanism #1 §3.2.2.3.2);
 * PCI-to-PCI Bridge Architecture Specification 1.2 (type 1 header §3.2).
 */
#ifndef CQ_LIB_PCI_H
#define CQ_LIB_PCI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PCI_NBUS	256
#define PCI_NDEV	32	/* devices per bus */
#define PCI_NFN		8	/* functions per device */
#define PCI_CFG_SIZE	256	/* bytes of configuration space per function */

/* Mechanism #1 (PCI 3.0 §3.2.2.3.2). */
#define PCI_CFG_ADDR_PORT	0xCF8	/* 32-bit CONFIG_ADDRESS */
#define PCI_CFG_DATA_PORT	0xCFC	/* 32-bit CONFIG_DATA */
#define PCI_CFG_ENABLE		0x80000000u	/* bit 31 of CONFIG_ADDRESS */

/* Configuration header (PCI 3.0 §6.1), offsets of dwords. */
#define PCI_ID		0x00	/* vendor (15:0), device (31:16) */
#define  PCI_VENDOR_NONE 0xFFFF	/* what an absent function reads */
#define PCI_CMD		0x04	/* command (15:0), status (31:16) */
#define  PCI_CMD_IO	0x0001	/* I/O space decoding */
#define  PCI_CMD_MEM	0x0002	/* memory space decoding */
#define  PCI_CMD_MASTER	0x0004	/* bus master */
#define PCI_CLASS	0x08	/* rev (7:0), prog-if (15:8), subclass, class (31:24) */
#define PCI_BHLC	0x0C	/* cache line, latency, header type (23:16), BIST */
#define  PCI_HDR_MF	0x80	/* header type bit 7: multi-function device */
#define  PCI_HDR_LAYOUT	0x7F	/* header type bits 6:0 */
#define  PCI_HDR_NORMAL	0	/* type 0: 6 BARs */
#define  PCI_HDR_BRIDGE	1	/* type 1, PCI-PCI bridge: 2 BARs */
#define  PCI_HDR_CARDBUS 2
#define PCI_BAR0	0x10	/* BARn at PCI_BAR0 + 4 * n */
#define  PCI_BAR_SPACE_IO 0x1	/* bit 0: I/O BAR */
#define  PCI_BAR_IO_MASK 0xFFFFFFFCu
#define  PCI_BAR_MEM_TYPE 0x6	/* bits 2:1: 00 32-bit, 10 64-bit */
#define  PCI_BAR_MEM_64	0x4
#define  PCI_BAR_MEM_PF	0x8	/* bit 3: prefetchable */
#define  PCI_BAR_MEM_MASK 0xFFFFFFF0u
#define PCI_BUSES	0x18	/* type 1: primary, secondary, subordinate bus */
#define PCI_INTR	0x3C	/* interrupt line (7:0), pin (15:8) */

#define PCI_NBARS_NORMAL 6
#define PCI_NBARS_BRIDGE 2

/* Well-known class codes (PCI Code and ID Assignment Specification). */
#define PCI_CLASS_BRIDGE	0x06
#define  PCI_SUB_HOST		0x00
#define  PCI_SUB_PCI		0x04

/*
 * Configuration space access. off is a dword-aligned byte offset 0..252;
 * an absent function reads 0xFFFFFFFF.
 */
struct pci_cfg_ops {
	uint32_t (*read32)(void *ctx, unsigned bus, unsigned dev, unsigned fn,
	    unsigned off);
	void (*write32)(void *ctx, unsigned bus, unsigned dev, unsigned fn,
	    unsigned off, uint32_t val);
	void *ctx;
};

/* One decoded BAR. */
#define PCI_BAR_IO		0x01	/* I/O space (else memory) */
#define PCI_BAR_MEM64		0x02	/* 64-bit memory BAR: used slots index, index+1 */
#define PCI_BAR_PREFETCH	0x04
#define PCI_BAR_UNASSIGNED	0x08	/* base is 0: firmware gave it no address */

struct pci_bar {
	uint8_t index;		/* BAR slot 0..5 */
	uint8_t flags;		/* PCI_BAR_* */
	uint64_t base;		/* bus address (flag bits removed) */
	uint64_t size;		/* bytes, a power of two */
};

/* One function as found. Bridges: bus numbers as firmware programmed them. */
struct pci_dev {
	uint8_t bus, dev, fn;
	uint16_t vendor, device;
	uint8_t class_code, subclass, progif, rev;
	uint8_t header_type;	/* layout, bits 6:0 (PCI_HDR_*) */
	bool multifunction;	/* header type bit 7 */
	uint8_t nbars;		/* implemented BARs in bars[] */
	struct pci_bar bars[6];
	uint8_t primary, secondary, subordinate;	/* type 1 only, else 0 */
	uint16_t command;	/* command register as found */
};

/*
 * CONFIG_ADDRESS (port 0xCF8) value for mechanism #1: bit 31 | bus << 16 |
 * dev << 11 | fn << 8 | (off & 0xFC); bus 0..255, dev 0..31, fn 0..7.
 */
uint32_t pci_mech1_address(unsigned bus, unsigned dev, unsigned fn,
    unsigned off);

/*
 * Scans bus 0 and every bus behind a type 1 bridge's secondary bus number
 * (as firmware set it; nothing is renumbered). Functions 1-7 of a device
 * are probed when function 0's header type has bit 7 set; an absent
 * function 0 reads all-ones, which has that bit set, so a listing that
 * omits function 0 still shows its other functions (real hardware
 * answers all-ones there, so this costs only reads).
 *
 * BARs are sized with decoding disabled in the command register: write
 * all-ones, read the size mask, restore the original value, then restore
 * the command register. A bridge whose secondary bus is 0, not above the
 * bus it sits on, or already reached (a loop, or two bridges with one
 * number) is reported through warn and not followed. Each bus is scanned
 * at most once, so the work is bounded by 256 buses x 32 x 8 functions.
 *
 * Stores up to max devices in out, sorted by bus/dev/fn; returns the
 * number found, which may exceed max (then warn says so). warn may be NULL.
 */
int pci_enumerate(const struct pci_cfg_ops *ops, struct pci_dev *out, int max,
    void (*warn)(void *ctx, const char *msg), void *warn_ctx);

/*
 * lspci's name for a class and subclass ("Host bridge"), else the class's
 * own name ("Bridge"), else "Unknown class". Never NULL.
 */
const char *pci_class_name(uint8_t class_code, uint8_t subclass);

/*
 * Table layout, one line per function, fields separated by one space:
 *
 *   BB:DD.F VVVV:DDDD CC.SS.PP rev RR [bus=PP,SS,UU] [BARn=KIND:BASE/SIZE ...] NAME
 *
 * all numbers in lower-case hex except SIZE. bus= appears for type 1
 * bridges (primary, secondary, subordinate). KIND is io, mem32 or mem64,
 * with a trailing p when prefetchable. BASE is 0x and 4 (io), 8 (mem32) or
 * 16 (mem64) hex digits, or "unassigned". SIZE is bytes in decimal with a
 * K, M or G suffix when a whole multiple. NAME (pci_class_name) is the
 * rest of the line. Example:
 *
 *   00:01.2 1022:2082 10.10.00 rev 00 BAR0=mem32:0xa0000000/16K Entertainment encryption device
 *
 * Both functions write at most n bytes including the NUL and return the
 * length the whole line has (as snprintf). PCI_ROW_MAX always suffices.
 */
#define PCI_ROW_MAX	400
size_t pci_format_header(char *buf, size_t n);
size_t pci_format_row(const struct pci_dev *d, char *buf, size_t n);

#endif
