/*
 * pci_listing: builds a pci_model from the text of a PCI listing, in one
 * of two formats, told apart by the first line that is not blank or a
 * '#' comment:
 *
 *   comBIOS ShowPCI table (Soekris net5501), an optional header line
 *   starting "Slot" and a line of dashes, then rows of
 *     Slot Vend Dev ClassRev Cmd Stat CL LT HT Base1 Base2 [Int]
 *   Slot is bus:dev:fn in DECIMAL (0:20:0 is device 0x14); Vend .. Base2
 *   are hex (ClassRev = class, subclass, prog-if, revision; HT = header
 *   type; Base1/Base2 = BAR0/BAR1); Int is the IRQ line in decimal.
 *
 *   lspci -nn (Linux pciutils), rows of
 *     [DDDD:]BB:DD.F Class name [ccss]: Vendor Device [vvvv:dddd] (rev rr) (prog-if pp ...)
 *   all hex; rev and prog-if are optional (0 when absent).
 *
 * What a listing lacks is filled in as follows (the model must answer
 * like hardware, so every field needs some value):
 *   - BAR sizes. Listings give at most BAR0/BAR1 addresses, never sizes.
 *     Sizes come from a table of the devices seen on Geode LX boards
 *     (pci_listing.c cites each), else from the address's alignment,
 *     capped at 4 KiB (memory) or 256 bytes (I/O). A BAR that reads 0 is
 *     taken as not implemented. lspci -nn shows no BARs: none are made.
 *   - The Geode LX security block 1022:2082 always has BAR0, 16 KiB of
 *     32-bit memory (AMD Geode LX Data Book 33234; size mask 0xffffc000):
 *     at the listed address, else at PCI_LISTING_GEODE_SB_BASE.
 *   - Command register (lspci): memory/I/O decoding and bus mastering on
 *     for a function that got a BAR, as firmware leaves them; else 0.
 *   - Header type (lspci): 1 for class 06.04 (PCI bridge), 2 for 06.07,
 *     else 0. Bit 7 is answered by the model from the functions present.
 *   - Bridge bus numbers. Every bus N > 0 that has listed functions gets,
 *     in ascending order, the first listed PCI bridge (in listing order)
 *     that sits on a bus already reachable and below N, as depth-first
 *     firmware numbering would give. If there is none, a bridge is added
 *     on bus 0 at the highest free device number, with the IDs of QEMU's
 *     PCI-PCI bridge (PCI_LISTING_BRIDGE_VENDOR:DEVICE). Bridges left
 *     over get fresh empty bus numbers after the highest one used.
 *     Subordinate numbers cover everything behind each bridge.
 */
#ifndef CQ_LIB_PCI_LISTING_H
#define CQ_LIB_PCI_LISTING_H

#include "lib/host/pci_model.h"

#define PCI_LISTING_COMBIOS	1
#define PCI_LISTING_LSPCI	2

#define PCI_LISTING_GEODE_SB_BASE	0xEFFF4000u	/* 16 KiB aligned, below 4 GiB */
#define PCI_LISTING_BRIDGE_VENDOR	0x1B36	/* Red Hat, Inc. (QEMU devices) */
#define PCI_LISTING_BRIDGE_DEVICE	0x0001	/* QEMU PCI-PCI bridge */

struct pci_listing_result {
	int format;		/* PCI_LISTING_*, 0 if not recognised */
	int nlisted;		/* function rows read */
	int nadded;		/* bridges added to reach listed buses */
	unsigned line;		/* error: 1-based line number, 0 = whole listing */
	char msg[96];		/* error: what was wrong */
};

/*
 * Resets m and fills it from text (len bytes, NUL not needed). Returns 0,
 * or -1 with res->line and res->msg set: a malformed or duplicate row, a
 * format not recognised, no rows at all, or a model without room
 * (PCI_MODEL_MAX_FN functions).
 */
int pci_listing_load(struct pci_model *m, const char *text, size_t len,
    struct pci_listing_result *res);

#endif
