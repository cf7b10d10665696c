/*
 * nic: the station (MAC) address of each network controller the PCI scan
 * found, as the chip loaded it from its EEPROM at reset. Read through
 * kernel/platform/hw.h, without resetting or programming the chip:
 *   VIA Rhine (1106:3043, 3065, 3053, 3106): PAR0-5 at I/O BAR offsets 0-5
 *     (Linux via-rhine.c StationAddr = 0x00); the net5501's and ALIX's NICs.
 *   Intel 8254x (QEMU's e1000 8086:100e, 100f, 1004, 1026, 1075, 107c):
 *     RAL0/RAH0 at MMIO BAR0 + 0x5400/0x5404 (RAH0 bit 31: address valid).
 *   Realtek 8139 (10ec:8139): IDR0-5 at I/O BAR offsets 0-5.
 *   AMD PCnet (1022:2000): the address PROM, I/O BAR offsets 0-5.
 * Any other network controller (class 02) is listed with no address.
 * A controller in power state D1-D3hot (PCI power management PMCSR) is
 * listed with no address and not read: it answers configuration only.
 */
#ifndef CQ_KERNEL_NIC_H
#define CQ_KERNEL_NIC_H

#include <stdbool.h>
#include <stdint.h>

#define NIC_MAX 8

struct nic_info {
	uint8_t bus, dev, fn;
	uint16_t vendor, device;
	const char *kind;       /* "via-rhine", "e1000", "rtl8139", "pcnet", "unknown" */
	bool have_mac;
	uint8_t mac[6];
	const char *why;        /* when !have_mac: why */
};

/* Fills up to max entries (needs pci_scan()). Returns the number of network controllers. */
unsigned nic_scan(struct nic_info *out, unsigned max);

#endif
