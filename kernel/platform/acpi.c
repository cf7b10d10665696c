/*
 * ACPI table walk for the PM timer. Paging is off, so the tables are read
 * through plain pointers (they live in RAM the BIOS reserved, not in MMIO).
 * Only RSDT entries below 4 GiB are followed.
 */
#include "kernel/platform/acpi.h"

#include "kernel/platform/memmap.h"

#include <stddef.h>
#include <string.h>

#include "lib/util/bytes.h"

#define BDA_EBDA_SEGMENT   0x40E
#define RSDP_SIG           "RSD PTR "
#define FADT_PM_TMR_BLK    76      /* offset of the 32-bit PM_TMR_BLK */
#define FADT_CENTURY       108     /* byte: CMOS RTC index of the century (ACPI 6.4, 5.2.9) */
#define FADT_FLAGS         112
#define   FADT_TMR_VAL_EXT (1u << 8)
#define SDT_HEADER_LEN     36

static const uint8_t *scan_rsdp(uintptr_t start, uintptr_t end)
{
	uintptr_t a;
	for (a = start; a + 20 <= end; a += 16) {
		const uint8_t *p = phys_ptr(a);
		if (memcmp(p, RSDP_SIG, 8) == 0 && bytes_sum_zero(p, 20))
			return p;
	}
	return NULL;
}

/* A table header we can trust: plausible address and length, good checksum. */
static const uint8_t *sdt_at(uint32_t addr, const char *sig)
{
	const uint8_t *p = phys_ptr(addr);
	uint32_t len;
	if (addr < 0x1000 || addr > 0xFFFF0000u)
		return NULL;
	len = le32_get(p + 4);
	if (len < SDT_HEADER_LEN || len > 0x100000 || len > 0xFFFFFFFFu - addr)
		return NULL;    /* too short, implausibly long, or wraps past 4 GiB */
	if (sig && memcmp(p, sig, 4) != 0)
		return NULL;
	return bytes_sum_zero(p, len) ? p : NULL;
}

bool acpi_find_pm_timer(struct acpi_pm_timer *t)
{
	uintptr_t ebda = (uintptr_t)(*(const volatile uint16_t *)phys_ptr(BDA_EBDA_SEGMENT)) << 4;
	const uint8_t *rsdp = NULL;

	if (ebda >= 0x80000 && ebda < 0xA0000)
		rsdp = scan_rsdp(ebda, ebda + 1024);
	if (!rsdp)
		rsdp = scan_rsdp(0xE0000, 0x100000);
	if (!rsdp)
		return false;
	return acpi_pm_timer_from_rsdp(rsdp, t);
}

bool acpi_pm_timer_from_rsdp(const uint8_t *rsdp, struct acpi_pm_timer *t)
{
	const uint8_t *rsdt, *fadt = NULL;
	uint32_t i, n;

	rsdt = sdt_at(le32_get(rsdp + 16), "RSDT");
	if (!rsdt)
		return false;
	n = (le32_get(rsdt + 4) - SDT_HEADER_LEN) / 4;
	for (i = 0; i < n && !fadt; i++)
		fadt = sdt_at(le32_get(rsdt + SDT_HEADER_LEN + 4 * i), "FACP");
	if (!fadt || le32_get(fadt + 4) < FADT_FLAGS + 4)
		return false;
	t->port = (uint16_t)le32_get(fadt + FADT_PM_TMR_BLK);
	if (t->port == 0 || le32_get(fadt + FADT_PM_TMR_BLK) > 0xFFFF)
		return false;
	t->ext32 = (le32_get(fadt + FADT_FLAGS) & FADT_TMR_VAL_EXT) != 0;
	t->century = fadt[FADT_CENTURY];
	memcpy(t->oem, rsdp + 9, 6);
	t->oem[6] = '\0';
	return true;
}
