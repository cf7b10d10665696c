/*
 * Host test of the ACPI walk in kernel/platform/acpi.c (i386 under
 * qemu-i386: table addresses are 32-bit), run by tests/kernel/platform/acpi.t.
 * From an RSDP the walk follows the RSDT to the FADT's PM timer; every
 * length and address in those tables comes from firmware and is checked.
 * Hostile tables: an RSDT length of 0xFFFFFFFC or below the
 * header, entries pointing at 0 and at the top of memory, a table whose
 * address + length wraps past 4 GiB (mapped just below it: a read past the
 * end kills this program), a short FADT, a bad checksum, a port > 0xFFFF.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kernel/platform/acpi.h"

#include "tests/host/tap_ok.h"

static uint8_t rsdp[20];
static uint8_t rsdt[36 + 4 * 4] __attribute__((aligned(16)));
static uint8_t fadt[244] __attribute__((aligned(16)));

static void wr32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void fix_checksum(uint8_t *p, uint32_t len, unsigned at)
{
	uint8_t sum = 0;
	uint32_t i;
	p[at] = 0;
	for (i = 0; i < len; i++)
		sum = (uint8_t)(sum + p[i]);
	p[at] = (uint8_t)-sum;
}

static void table(uint8_t *p, const char *sig, uint32_t len)
{
	memcpy(p, sig, 4);
	wr32(p + 4, len);
	p[8] = 1;
	memcpy(p + 10, "CQTEST", 6);
	fix_checksum(p, len, 9);
}

/* A good set: RSDP -> RSDT (entries as given) -> FADT with port 0x608. */
static void build(uint32_t nent, const uint32_t *ent, uint32_t rsdt_len)
{
	uint32_t i;
	memset(rsdp, 0, sizeof(rsdp));
	memcpy(rsdp, "RSD PTR ", 8);
	memcpy(rsdp + 9, "CQTEST", 6);
	wr32(rsdp + 16, (uint32_t)(uintptr_t)rsdt);
	fix_checksum(rsdp, 20, 8);
	memset(fadt, 0, sizeof(fadt));
	wr32(fadt + 76, 0x608);
	wr32(fadt + 112, 1u << 8);
	table(fadt, "FACP", sizeof(fadt));
	memset(rsdt, 0, sizeof(rsdt));
	for (i = 0; i < nent; i++)
		wr32(rsdt + 36 + 4 * i, ent[i]);
	memcpy(rsdt, "RSDT", 4);
	wr32(rsdt + 4, rsdt_len);
	fix_checksum(rsdt, rsdt_len <= sizeof(rsdt) ? rsdt_len : sizeof(rsdt), 9);
}

int main(void)
{
	struct acpi_pm_timer t;
	uint32_t f = (uint32_t)(uintptr_t)fadt;
	uint8_t *top;

	printf("TAP version 13\n");
	alarm(20);

	build(1, &f, 40);
	memset(&t, 0, sizeof(t));
	ok(acpi_pm_timer_from_rsdp(rsdp, &t) && t.port == 0x608 && t.ext32 && strcmp(t.oem, "CQTEST") == 0,
	   "good tables: the PM timer at 0x608, 32-bit, OEM CQTEST");

	{
		uint32_t e[3] = { 0, 0xFFFFFFF0u, f };
		build(3, e, 48);
		ok(acpi_pm_timer_from_rsdp(rsdp, &t) && t.port == 0x608,
		   "RSDT entries at 0 and at 0xFFFFFFF0 are skipped unread, the FADT after them found");
	}
	build(1, &f, 0xFFFFFFFCu);
	ok(!acpi_pm_timer_from_rsdp(rsdp, &t), "RSDT length 0xFFFFFFFC: refused, not walked");
	build(1, &f, 35);
	ok(!acpi_pm_timer_from_rsdp(rsdp, &t), "RSDT length 35 (below its header): refused");
	build(1, &f, 40);
	rsdt[20] ^= 0x55;
	ok(!acpi_pm_timer_from_rsdp(rsdp, &t), "RSDT with a bad checksum: refused");

	build(1, &f, 40);
	wr32(fadt + 4, 100);
	fix_checksum(fadt, 100, 9);
	ok(!acpi_pm_timer_from_rsdp(rsdp, &t), "FADT too short to hold the flags: refused");
	build(1, &f, 40);
	wr32(fadt + 76, 0x10000);
	fix_checksum(fadt, sizeof(fadt), 9);
	ok(!acpi_pm_timer_from_rsdp(rsdp, &t), "FADT PM timer port above 0xFFFF: refused");

	/* A table just below 4 GiB whose length would carry the checksum loop
	 * past the top of the address space. */
	top = mmap((void *)0xFFFE0000u, 0x10000, PROT_READ | PROT_WRITE,
		   MAP_FIXED_NOREPLACE | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (top == (void *)0xFFFE0000u) {
		uint8_t *p = top + 0xFF00;      /* 0xFFFEFF00: below the 0xFFFF0000 cut */
		uint32_t e = (uint32_t)(uintptr_t)p;
		memcpy(p, "FACP", 4);
		wr32(p + 4, 0x100000);          /* 1 MiB: plausible, but wraps */
		build(1, &e, 40);
		ok(!acpi_pm_timer_from_rsdp(rsdp, &t),
		   "FADT at 0xFFFEFF00 with length 1 MiB (wraps past 4 GiB): refused unread");
	} else {
		ok_skip("could not map memory below 4 GiB here",
			"FADT at 0xFFFEFF00 with length 1 MiB (wraps past 4 GiB): refused unread");
	}
	alarm(0);
	return tap_plan();
}
