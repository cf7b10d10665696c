/*
 * libFuzzer target for lib/host/cpuid_dump.c (the CPUID dump reader of
 * tools/host/cpuid-decode, fed files from outside): arbitrary bytes as a
 * dump. Checks that the result is 0 or a documented error with a
 * description, that an error names a line that exists, that the table
 * never holds more than CPUID_DUMP_MAX records nor two records for one
 * (leaf, subleaf), that every record answers its own query, and that the
 * decoder and its key=value output run on whatever was parsed.
 * Build: make fuzz (mk/fuzz.mk); run: tests/fuzz/fuzz-readers.t, or
 * make fuzz-long FUZZ_SECONDS=600.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/host/cpuid_dump.h"
#include "lib/platform/cpuid.h"
#include "tests/fuzz/fuzz_common.h"

static void on_kv(void *ctx, const char *key, const char *value)
{
	(void)ctx;
	fz_check_printable(key, 64);
	fz_check(strchr(value, '\n') == NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cpuid_dump d;
	struct cpuid_regs r;
	struct cpu_info ci;
	unsigned line = 12345, i, j;
	int err;

	memset(&d, 0xA5, sizeof(d));
	err = cpuid_dump_parse(&d, (const char *)data, size, &line);
	fz_check(err == 0 || err == CPUID_DUMP_EFORMAT || err == CPUID_DUMP_EFULL ||
		 err == CPUID_DUMP_EEMPTY);
	fz_check(cpuid_dump_strerror(err) != NULL);
	if (err != 0) {
		fz_check(line <= fz_lines(data, size));
		return 0;
	}
	fz_check(d.n >= 1 && d.n <= CPUID_DUMP_MAX);
	for (i = 0; i < d.n; i++) {
		for (j = i + 1; j < d.n; j++)
			fz_check(d.e[i].leaf != d.e[j].leaf || d.e[i].subleaf != d.e[j].subleaf);
		fz_check(cpuid_dump_query(&d, d.e[i].leaf, d.e[i].subleaf, &r));
		fz_check(memcmp(&r, &d.e[i].r, sizeof(r)) == 0);
	}
	cpuid_decode(&ci, cpuid_dump_query, &d);
	cpuid_kv(&ci, on_kv, NULL);
	return 0;
}
