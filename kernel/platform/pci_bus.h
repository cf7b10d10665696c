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

/* The config ops the enumerator uses, for code that needs raw access. */
const struct pci_cfg_ops *pci_ops(void);

#endif
