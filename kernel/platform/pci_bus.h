/*
 * PCI in the kernel: configuration mechanism #1 through the hardware access
 * layer, the enumerator of lib/platform/pci_enum.c, and the table of what was found.
 */
#ifndef CQ_KERNEL_PCI_H
#define CQ_KERNEL_PCI_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/platform/pci_enum.h"

#define PCI_MAX_DEVICES 64

/* Whether mechanism #1 answers (CONFIG_ADDRESS reads back what was written). */
bool pci_mech1_present(void);

/* Enumerates every reachable bus; warnings become `# warning:` lines. Returns devices found. */
int pci_scan(void);

/* Prints the lspci-like table as `#` lines (lib/platform/pci_enum.c pci_format_row). */
void pci_report(void);

/* Devices found by pci_scan (sorted by BDF) and their count. */
const struct pci_dev *pci_devices(int *count);

/* First device with this vendor:device ID, or NULL. */
const struct pci_dev *pci_find(uint16_t vendor, uint16_t device);

/* Configuration reads and writes for drivers (off: dword-aligned bytes). */
uint32_t pci_cfg_read32(const struct pci_dev *d, unsigned off);
void pci_cfg_write32(const struct pci_dev *d, unsigned off, uint32_t val);

/*
 * Config dword offset of the capability with this ID in d's capability list
 * (PCI 3.0 6.7), or 0 when d has no such capability; at most 48 entries are
 * walked, so a list that loops ends.
 */
unsigned pci_capability(const struct pci_dev *d, uint8_t id);

/*
 * d's power state, 0-3 for D0-D3hot, from PMCSR bits 1:0 of its power
 * management capability (ID 1; PCI Bus Power Management 1.2, 3.2.4); 0 when
 * it has none (a function without the capability is always in D0). A
 * function in D3hot answers configuration accesses only (the same
 * specification's D3hot state), so its registers are not to be read.
 */
unsigned pci_power_state(const struct pci_dev *d);

/* The config ops the enumerator uses, for code that needs raw access. */
const struct pci_cfg_ops *pci_ops(void);

#endif
