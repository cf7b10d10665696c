/* ACPI: just enough to find the PM timer (ACPI 6.4, 5.2.5 RSDP, 5.2.9 FADT). */
#ifndef CQ_KERNEL_ACPI_H
#define CQ_KERNEL_ACPI_H

#include <stdbool.h>
#include <stdint.h>

struct acpi_pm_timer {
	uint16_t port;      /* I/O port of PM_TMR_BLK */
	bool ext32;         /* FADT flag TMR_VAL_EXT: 32-bit counter, else 24-bit */
	char oem[7];        /* RSDP OEM ID, for the report */
};

/*
 * Finds the RSDP (EBDA's first KiB, then 0xE0000-0xFFFFF), the RSDT and
 * the FADT, checking signatures and checksums. Returns true and fills *t
 * when an FADT with a PM timer port was found.
 */
bool acpi_find_pm_timer(struct acpi_pm_timer *t);

#endif
