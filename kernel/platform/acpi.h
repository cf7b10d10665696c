/* ACPI: just enough to find the PM timer (ACPI 6.4, 5.2.5 RSDP, 5.2.9 FADT). */
#ifndef CQ_KERNEL_ACPI_H
#define CQ_KERNEL_ACPI_H

#include <stdbool.h>
#include <stdint.h>

struct acpi_pm_timer {
	uint16_t port;      /* I/O port of PM_TMR_BLK */
	bool ext32;         /* FADT flag TMR_VAL_EXT: 32-bit counter, else 24-bit */
	char oem[7];        /* RSDP OEM ID, for the report */
	uint8_t century;    /* FADT CENTURY: the CMOS register of the century, 0 = none */
};

/*
 * Finds the RSDP (EBDA's first KiB, then 0xE0000-0xFFFFF), the RSDT and
 * the FADT, checking signatures and checksums. Returns true and fills *t
 * when an FADT with a PM timer port was found.
 */
bool acpi_find_pm_timer(struct acpi_pm_timer *t);

/*
 * The walk from a found RSDP (20 bytes, checksum already checked) to the
 * FADT's PM timer. Every address and length in the tables is untrusted: a
 * table must start at or above 0x1000, have 36 bytes to 1 MiB of length,
 * not wrap past 4 GiB, carry its signature and a zero checksum, and the
 * FADT must be long enough to hold the fields read. Exposed for the host
 * test (tests/kernel/platform/test_acpi.c).
 */
bool acpi_pm_timer_from_rsdp(const uint8_t *rsdp, struct acpi_pm_timer *t);

#endif
