/*
 * Internal to pci_listing*.c: the row parsers, the model building and
 * the bridge bus numbering.
 */
#ifndef CQ_LIB_PCI_LISTING_INT_H
#define CQ_LIB_PCI_LISTING_INT_H

#include "lib/host/pci_listing.h"

/* One function as a listing row describes it. */
struct pci_listing_row {
	unsigned bus, dev, fn;
	uint16_t vendor, device;
	uint32_t class_rev;
	uint8_t header_type;
	bool have_regs;		/* comBIOS: the register fields below */
	uint16_t cmd, stat;
	uint8_t cache_line, latency;
	int irq;		/* -1: not listed */
	uint32_t base[2];	/* BAR0, BAR1 as listed; 0 = none */
};

/* PCI_LISTING_* for the first row-like line p..end, or 0. */
int pci_listing_detect(const char *p, const char *end);

/* Parse one row of line p..end (no line end) into *r, which must be
 * zeroed first. Return NULL, or what is wrong with the row. */
const char *pci_listing_parse_combios(const char *p, const char *end,
    struct pci_listing_row *r);
const char *pci_listing_parse_lspci(const char *p, const char *end,
    struct pci_listing_row *r);

/* Sets res->line and res->msg (printf-style); returns -1. In pci_listing_rows.c. */
int pci_listing_fail(struct pci_listing_result *res, unsigned line,
    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Gives bridges bus numbers so listed buses are reachable (pci_listing.h). */
int pci_listing_number_buses(struct pci_model *m,
    struct pci_listing_result *res);

#endif
