/*
 * PadLock PMM: rep montmul, checked against the 1024-bit known answer of
 * lib/vectors/montmul_kat.c and timed beside the software lib/crypto/montmul.
 *
 * Operands [OSSL via-mont.pl][PG]: ESI points at { n0', A, B, T, M,
 * scratch }; ECX = 32 x words; EAX = 0. Each vector has 16 zero bytes
 * after its words; T receives words + 1 words (the last is the carry) and
 * lies in [0, 2M): the driver subtracts M once when T >= M
 * (montmul_final_sub). Buffers are static and 16-byte aligned.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernel/platform/hw.h"
#include "lib/engine/engine.h"
#include "lib/util/fmt.h"
#include "lib/crypto/montmul.h"
#include "drivers/padlock/padlock_insn.h"
#include "drivers/padlock/padlock_int.h"
#include "drivers/padlock/padlock_reg.h"

#define PMM_WORDS	MONTMUL_KAT_WORDS	/* the largest operand this driver runs */
#define PMM_VEC_WORDS	(PMM_WORDS + PMM_PAD_WORDS)
#define PMM_TIMING_RUNS	16

struct pmm_params {
	uint32_t n0;
	uint32_t a, b, t, m, scratch;	/* 32-bit addresses */
} __attribute__((aligned(PADLOCK_ALIGN)));

static struct {
	struct pmm_params p;
	uint32_t a[PMM_VEC_WORDS] __attribute__((aligned(PADLOCK_ALIGN)));
	uint32_t b[PMM_VEC_WORDS] __attribute__((aligned(PADLOCK_ALIGN)));
	uint32_t t[PMM_VEC_WORDS] __attribute__((aligned(PADLOCK_ALIGN)));
	uint32_t m[PMM_VEC_WORDS] __attribute__((aligned(PADLOCK_ALIGN)));
	uint8_t scratch[PMM_SCRATCH_BYTES] __attribute__((aligned(PADLOCK_ALIGN)));
} pmm;

static uint32_t addr32(const void *p)
{
	return (uint32_t)(uintptr_t)p;
}

/*
 * r (words) = a * b * 2^(-32 words) mod m through rep montmul. words is a
 * multiple of 4 from 8 to PMM_WORDS. Returns whether the final
 * subtraction was needed, or -1 for a bad size.
 */
static int pmm_montmul(uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *m,
		       unsigned words)
{
	size_t bytes = (size_t)words * 4;
	uint32_t saved;
	bool sub;

	if (words < PMM_MIN_WORDS || words > PMM_WORDS || words % PMM_WORD_MULTIPLE)
		return -1;
	memset(&pmm, 0, sizeof(pmm));
	memcpy(pmm.a, a, bytes);
	memcpy(pmm.b, b, bytes);
	memcpy(pmm.m, m, bytes);
	pmm.p.n0 = montmul_n0(m[0]);
	pmm.p.a = addr32(pmm.a);
	pmm.p.b = addr32(pmm.b);
	pmm.p.t = addr32(pmm.t);
	pmm.p.m = addr32(pmm.m);
	pmm.p.scratch = addr32(pmm.scratch);
	saved = padlock_enter();
	padlock_montmul(&pmm.p, 32u * words);
	padlock_leave(saved);
	if (PADLOCK_QUIRK(no_pmm_final_sub)) {
		memcpy(r, pmm.t, bytes);
		return 0;
	}
	sub = montmul_final_sub(r, pmm.t, m, words);
	return sub ? 1 : 0;
}

/* Fewest TSC cycles of PMM_TIMING_RUNS runs, hardware and software, logged. */
static void pmm_timing(void)
{
	const struct montmul_kat *k = &montmul_kat_1024;
	uint32_t r[PMM_WORDS], tmp[PMM_WORDS + 2];
	uint64_t t0, hw = ~0ull, sw = ~0ull, d;
	unsigned i;

	for (i = 0; i < PMM_TIMING_RUNS; i++) {
		t0 = hw_rdtsc();
		pmm_montmul(r, k->a, k->b, k->m, PMM_WORDS);
		d = hw_rdtsc() - t0;
		hw = d < hw ? d : hw;
		t0 = hw_rdtsc();
		montmul(r, k->a, k->b, k->m, PMM_WORDS, tmp);
		d = hw_rdtsc() - t0;
		sw = d < sw ? d : sw;
	}
	drv_log(&padlock_log, "pmm: 1024-bit montmul: %llu cycles with rep montmul%s (operand copies included), %llu in software (lib/crypto/montmul, %s path), fewest of %u runs",
		(unsigned long long)hw, engine_emulated("padlock-pmm") ? " (emulated)" : "",
		(unsigned long long)sw, montmul_path(), PMM_TIMING_RUNS);
}

enum drv_status padlock_t_pmm_kat(const void *ctx, char *d, size_t cap)
{
	const struct montmul_kat *k = &montmul_kat_1024;
	uint32_t r[PMM_WORDS];
	int sub;
	(void)ctx;

	if (padlock_unit_skip(padlock_dev.pmm, "PMM", d, cap))
		return DRV_SKIP;
	memset(r, 0, sizeof(r));
	sub = pmm_montmul(r, k->a, k->b, k->m, PMM_WORDS);
	if (memcmp(r, k->expect, sizeof(r)) != 0) {
		fmt_snprintf(d, cap, "result words 31..28 %08x %08x %08x %08x, expected %08x %08x %08x %08x",
			     r[31], r[30], r[29], r[28], k->expect[31], k->expect[30],
			     k->expect[29], k->expect[28]);
		return DRV_FAIL;
	}
	fmt_snprintf(d, cap, "final subtraction %s", sub ? "needed" : "not needed");
	pmm_timing();
	/* A finding that gave the known answer: the unit is benchmarked from now on. */
	if (padlock_dev.pmm_finding && padlock_pmm_register() == 0)
		fmt_append(d, cap, "; the known answer matches: padlock-pmm benchmarked");
	return DRV_PASS;
}

/*
 * The benchmark's operation: count 1024-bit multiplications of the known
 * answer's operands, each with its operand copies and final subtraction
 * (what a caller of the unit pays per multiplication).
 */
static int pmm_bench_op(void *ctx, unsigned bits, uint64_t count)
{
	const struct montmul_kat *k = &montmul_kat_1024;
	uint32_t r[PMM_WORDS];

	(void)ctx;
	if (bits != 32u * PMM_WORDS)
		return ENGINE_EUNSUPPORTED;
	for (; count > 0; count--)
		if (pmm_montmul(r, k->a, k->b, k->m, PMM_WORDS) < 0)
			return ENGINE_EUNSUPPORTED;
	memset(r, 0, sizeof(r));
	return ENGINE_OK;
}

static const unsigned pmm_bench_bits[] = { 32u * PMM_WORDS };

static const struct montmul_engine pmm_engine = {
	.name = "padlock-pmm",
	.description = "VIA PadLock Montgomery multiplier (rep montmul), operand copies and final subtraction included",
	.bits = pmm_bench_bits,
	.nbits = 1,
	.op = pmm_bench_op,
};

int padlock_pmm_register(void)
{
	int rc;

	if (padlock_dev.pmm_registered)
		return 0;
	rc = engine_register_montmul(&pmm_engine);
	padlock_dev.pmm_registered = rc == 0;
	return rc;
}
