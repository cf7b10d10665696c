/*
 * bench: the run (sections, TAP results), the timing of one cell, the
 * work buffers and the hooks.
 * See bench.h for what is measured and printed.
 */
#include "kernel/run/bench.h"

#include <string.h>

#include "lib/measure/bench_stats.h"
#include "lib/util/fmt.h"
#include "kernel/run/bench_int.h"
#include "kernel/platform/hw.h"
#include "kernel/platform/memmap.h"
#include "kernel/run/report.h"
#include "kernel/platform/timer.h"

const uint32_t bench_sizes[BENCH_NSIZES] = { 16, 64, 256, 1024, 8192, 16384 };


static struct {
	bool have_cal;
	struct tsc_calibration cal;
	struct bench_row rows[BENCH_MAX_ROWS];
} B;

/* ---- Calibration ---- */

void bench_report_calibration(const struct tsc_calibration *cal)
{
	B.cal = *cal;
	B.have_cal = true;
	tap_diag("@calibration tsc_hz=%llu pit_hz=%llu pmtimer_hz=%llu disagreement_ppm=%u",
		 (unsigned long long)tsc_hz(),
		 (unsigned long long)(cal->pit_ok ? cal->pit_hz : 0),
		 (unsigned long long)(cal->pm_ok ? cal->pm_hz : 0),
		 cal->pit_ok && cal->pm_ok ? cal->disagreement_ppm : 0);
}

/* ---- Timing ---- */

const char *bench_strerror(int err)
{
	static char buf[64];

	if (err == BENCH_EZERO)
		return "a timed run took zero cycles (TSC not advancing?)";
	fmt_snprintf(buf, sizeof(buf), "engine error %d (%s)", err, engine_strerror(err));
	return buf;
}

static int timed(bench_fn fn, void *ctx, uint64_t count, uint64_t *cycles)
{
	uint64_t t0 = hw_rdtsc();
	int rc = fn(ctx, count);

	*cycles = hw_rdtsc() - t0;
	return rc;
}

/*
 * Whether a run of t cycles at twice the count of a run of prev cycles
 * looks stretched: doubling a count at most doubles the time of an
 * operation of fixed cost (fixed + per-byte cycles, both >= 0), so a run
 * longer than 2.25 x prev was interrupted (host scheduling under TCG, an
 * SMI on hardware) or warmed up late. The first run (prev == 0) has no
 * yardstick and counts as stretched.
 */
static bool looks_stretched(uint64_t t, uint64_t prev)
{
	return prev == 0 || t > 2 * prev + prev / 4;
}

/*
 * The count to time: doubles from 1 until one run lasts at least target
 * cycles (at most BENCH_MAX_OPS), then scales to target. The run that
 * stops the doubling is timed twice when it looks stretched and the
 * shorter time decides, so a single interruption cannot end the doubling
 * early. The scaled count never falls below half the last count (which
 * ran in under target). Returns 0, ENGINE_E* or BENCH_EZERO.
 */
static int choose_count(bench_fn fn, void *ctx, uint64_t target, uint64_t *count)
{
	uint64_t n = 1, t, t2, prev = 0, scaled;
	int rc;

	for (;;) {
		rc = timed(fn, ctx, n, &t);
		if (rc != 0)
			return rc;
		if (t >= target && n < BENCH_MAX_OPS && looks_stretched(t, prev)) {
			rc = timed(fn, ctx, n, &t2);
			if (rc != 0)
				return rc;
			if (t2 < t)
				t = t2;
		}
		if (t == 0)
			return BENCH_EZERO;	/* even one 16-byte operation takes cycles */
		if (t >= target || n >= BENCH_MAX_OPS)
			break;
		prev = t;
		n *= 2;
	}
	if (t > target) {
		scaled = bstat_muldiv(n, target, t);
		n = scaled > n / 2 ? scaled : n / 2;
		if (n == 0)
			n = 1;
	}
	*count = n;
	return 0;
}

/*
 * The count to time when the cost of one operation is predicted (hint
 * cycles, from the row's smaller sizes): one run of target / hint
 * operations. A run within 1/2 .. 3/2 of target keeps its count and
 * serves as the first repetition (*first = its cycles); one within 1/8 ..
 * 8 times target is scaled to target (*first = 0); anything else (a bad
 * guess, or an interruption) falls back to doubling from that count.
 * Returns 0, ENGINE_E* or BENCH_EZERO.
 */
static int choose_count_hint(bench_fn fn, void *ctx, uint64_t target, uint64_t hint,
			     uint64_t *count, uint64_t *first)
{
	uint64_t n = target / hint, t;
	int rc;

	*first = 0;
	if (n == 0)
		n = 1;
	if (n > BENCH_MAX_OPS)
		n = BENCH_MAX_OPS;
	rc = timed(fn, ctx, n, &t);
	if (rc != 0)
		return rc;
	if (t >= target / 2 && t <= target + target / 2) {
		*count = n;
		*first = t;
		return 0;
	}
	if (t >= target / 8 && t <= 8 * target) {
		n = bstat_muldiv(n, target, t);
		*count = n ? n : 1;
		return 0;
	}
	return choose_count(fn, ctx, target, count);
}

/* reps runs of n operations into runs[]. Returns 0, ENGINE_E* or BENCH_EZERO. */
static int time_reps(bench_fn fn, void *ctx, uint64_t n, unsigned reps, uint64_t *runs)
{
	unsigned i;
	int rc;

	for (i = 0; i < reps; i++) {
		rc = timed(fn, ctx, n, &runs[i]);
		if (rc != 0)
			return rc;
		if (runs[i] == 0)
			return BENCH_EZERO;
	}
	return 0;
}

static uint64_t min_of(const uint64_t *v, unsigned n)
{
	uint64_t m = v[0];
	unsigned i;

	for (i = 1; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

int bench_measure(const struct bench_plan *p, bench_fn fn, void *ctx,
		  uint64_t bytes_per_op, struct bench_cell *c)
{
	return bench_measure_hint(p, fn, ctx, bytes_per_op, 0, c);
}

int bench_measure_hint(const struct bench_plan *p, bench_fn fn, void *ctx,
		       uint64_t bytes_per_op, uint64_t hint, struct bench_cell *c)
{
	uint64_t runs[BSTAT_MAX_REPS], target, n, more, first = 0;
	unsigned reps = p->reps, retry;
	int rc;

	memset(c, 0, sizeof(*c));
	if (reps == 0 || reps > BSTAT_MAX_REPS)
		reps = BENCH_REPS;
	target = p->budget_cycles / reps;
	if (target == 0)
		target = 1;
	if (hint)
		rc = choose_count_hint(fn, ctx, target, hint, &n, &first);
	else
		rc = choose_count(fn, ctx, target, &n);
	if (rc != 0)
		goto fail;
	/*
	 * Runs far shorter than target mean that the count was chosen from
	 * times stretched twice over: scale up from the shortest run and time
	 * again (at most BENCH_RESCALES times; a run that stays short past
	 * that is reported as measured).
	 */
	for (retry = 0;; retry++) {
		if (first) {
			runs[0] = first;	/* the hint's run, at this count */
			rc = time_reps(fn, ctx, n, reps - 1, runs + 1);
			first = 0;
		} else {
			rc = time_reps(fn, ctx, n, reps, runs);
		}
		if (rc != 0)
			goto fail;
		if (retry == BENCH_RESCALES || n >= BENCH_MAX_OPS ||
		    bstat_median(runs, reps) >= target / BENCH_SHORT_DIV)
			break;
		more = bstat_muldiv(n, target, min_of(runs, reps));
		n = more > 2 * n ? more : 2 * n;
		if (n > BENCH_MAX_OPS)
			n = BENCH_MAX_OPS;
	}
	c->measured = true;
	c->ops = n;
	c->bytes = n * bytes_per_op;
	c->cycles = bstat_median(runs, reps);
	c->spread_x10 = bstat_spread_x10(runs, reps);
	report_tick();
	return 0;
fail:
	c->err = rc;
	report_tick();
	return rc;
}

/* ---- Buffers ---- */

/*
 * Four buffers of BENCH_BUF_BYTES, each starting at a different offset
 * from a 4 KiB boundary (multiples of a cache line), so that input and
 * output never alias in the low 12 address bits (a store-to-load
 * forwarding stall on many x86 cores). The slack lets an engine's
 * alignment (up to BENCH_BUF_ALIGN) and a 1-byte offset still fit
 * BENCH_MAX_BYTES.
 */
bool bench_buffers(struct bench_buffers **out)
{
	static const unsigned offset[4] = { 0, 1088, 2176, 3264 };
	static struct bench_buffers bb;
	static bool done;
	uint8_t **bufs[4] = { &bb.a, &bb.b, &bb.c, &bb.d };
	uint8_t *base;
	unsigned i, j;

	if (!done) {
		for (i = 0; i < 4; i++) {
			base = mem_alloc(BENCH_BUF_BYTES, BENCH_BUF_ALIGN);
			if (!base)
				return false;
			for (j = 0; j < BENCH_BUF_BYTES; j++)
				base[j] = (uint8_t)(j * 7 + i * 61 + 3);
			*bufs[i] = base + offset[i];
		}
		done = true;
	}
	*out = &bb;
	return true;
}

static unsigned count_cells(const struct bench_row *rows, unsigned n)
{
	unsigned c = 0, i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < BENCH_NSIZES; j++)
			c += (rows[i].sizes_mask >> j) & 1;
	return c;
}

struct section {
	const struct bench_plan *p;
	struct bench_row *rows;
	unsigned n;
};

static void print_tables(const char *what, const struct section *s)
{
	tap_diag("bench: %s, 1000s of bytes per second processed (median of %u runs):",
		 what, s->p->reps);
	bench_print_grid(s->rows, s->n, BG_KBPS);
	if (!s->p->verbose)
		return;         /* the serial budget: these two grids with `verbose` only */
	tap_diag("bench: %s, cycles per byte (median of %u runs):", what, s->p->reps);
	bench_print_grid(s->rows, s->n, BG_CPB);
	tap_diag("bench: %s, spread of the %u runs, (max - min) / median in percent:",
		 what, s->p->reps);
	bench_print_grid(s->rows, s->n, BG_SPREAD);
}

/* The AES table's title, naming only the variants that have rows. */
static const char *variants_title(const struct section *s, char *buf, size_t cap)
{
	static const char *const suffix[] = {
		[BV_INPLACE] = ":inplace", [BV_UNALIGNED] = ":unaligned", [BV_DUAL] = ":dual-context",
	};
	bool have[BV_DUAL + 1] = { false };
	char list[64] = "";
	size_t used = 0;
	unsigned i, v, nv = 0;

	for (i = 0; i < s->n; i++)
		if (s->rows[i].bv <= BV_DUAL)
			have[s->rows[i].bv] = true;
	for (v = BV_INPLACE; v <= BV_DUAL; v++) {
		if (!have[v] || !suffix[v])
			continue;
		used += fmt_snprintf(list + used, sizeof(list) - used, "%s%s", nv ? ", " : "", suffix[v]);
		nv++;
	}
	if (nv)
		fmt_snprintf(buf, cap, "AES (rows :decrypt decrypt; %s %s)", list,
			     nv == 1 ? "is a variant" : "are variants");
	else
		fmt_snprintf(buf, cap, "AES (rows :decrypt decrypt)");
	return buf;
}

static bool cipher_section(void *ctx)
{
	struct section *s = ctx;
	struct bench_buffers *bb;
	char title[128];
	bool ok = true;
	unsigned i;

	if (!bench_buffers(&bb))
		return false;
	for (i = 0; i < s->n; i++)
		if (!bench_measure_aes_row(s->p, &s->rows[i], bb))
			ok = false;
	print_tables(variants_title(s, title, sizeof(title)), s);
	for (i = 0; i < s->n; i++)
		if (s->rows[i].bv == BV_DUAL && s->rows[i].aes->dual_what)
			tap_diag("bench: %s: %s", s->rows[i].name, s->rows[i].aes->dual_what);
	if (!bench_print_cost(s->rows, s->n, s->p->verbose))
		ok = false;
	return ok;
}

static bool hash_section(void *ctx)
{
	struct section *s = ctx;
	bool ok = true;
	unsigned i;

	for (i = 0; i < s->n; i++)
		if (!bench_measure_hash_row(s->p, &s->rows[i]))
			ok = false;
	print_tables("hashes (one-shot digest of the whole buffer)", s);
	if (!bench_print_cost(s->rows, s->n, s->p->verbose))
		ok = false;
	return ok;
}

struct units_ctx {
	const struct bench_plan *p;
};

static bool rng_section(void *ctx)
{
	struct units_ctx *u = ctx;
	return bench_rng(u->p);
}

static bool montmul_section(void *ctx)
{
	struct units_ctx *u = ctx;
	return bench_montmul(u->p);
}

static void print_clock(const struct bench_options *o, uint32_t ms, const struct bench_plan *p)
{
	char tsc[24], pit[24], pm[24];

	fmt_fixed(tsc, sizeof(tsc), (int64_t)(p->hz / 1000), 3);
	if (B.have_cal && B.cal.pm_ok) {
		fmt_fixed(pit, sizeof(pit), (int64_t)(B.cal.pit_hz / 1000), 3);
		fmt_fixed(pm, sizeof(pm), (int64_t)(B.cal.pm_hz / 1000), 3);
		tap_diag("bench: clock: TSC at %s MHz (PIT %s MHz, ACPI PM timer %s MHz, disagreement %u ppm); every figure is elapsed time",
			 tsc, pit, pm, B.cal.disagreement_ppm);
	} else {
		tap_diag("bench: clock: TSC at %s MHz (calibrated at boot); every figure is elapsed time",
			 tsc);
	}
	tap_diag("bench: bench=%s: %u ms per cell, %u runs of equal length, the median printed; figures are measurements, not pass/fail",
		 o->scope == BENCH_FULL ? "full" : "quick", (unsigned)ms, p->reps);
}

/*
 * The watchdog budget of one benchmark section: each of its measurements
 * runs for ms, so a section is allowed ms per measurement for up to 1000 of
 * them, plus the default budget (a hung section still ends).
 */
static unsigned section_budget_ms(uint32_t ms)
{
	uint64_t b = (uint64_t)ms * 1000 + TAP_RUN_BUDGET_MS;
	return b > 0xFFFFFFFFu ? 0xFFFFFFFFu : (unsigned)b;
}

void bench_run(const struct bench_options *o)
{
	static struct units_ctx u;
	struct bench_plan p;
	struct section cs, hs;
	unsigned naes, nengines, cells;
	char name[128];
	uint32_t ms;

	if (o->scope == BENCH_OFF) {
		tap_skip("bench=off", "bench: throughput of every engine (cipher, hash, RNG)");
		return;
	}
	if (tsc_hz() == 0) {
		tap_skip("no calibrated TSC to measure with",
			 "bench: throughput of every engine (cipher, hash, RNG)");
		return;
	}
	ms = o->cell_ms ? o->cell_ms : o->scope == BENCH_FULL ? BENCH_FULL_MS : BENCH_QUICK_MS;
	p.hz = tsc_hz();
	p.reps = BENCH_REPS;
	p.verbose = o->verbose;

	/*
	 * bench=quick keeps the run and the serial log short (at 19200 baud
	 * every 2 KB costs a second): AES-128 in every mode and direction,
	 * AES-256 in CBC. bench=full measures every key size and mode.
	 */
	if (o->scope == BENCH_QUICK)
		tap_diag("bench: scope: bench=quick: AES-128 in every mode and direction each engine claims, AES-256 in CBC; bench=full adds AES-192 and the other AES-256 modes");
	else
		tap_diag("bench: scope: every key size, mode and direction each engine claims");
	naes = bench_aes_rows(B.rows, BENCH_MAX_ROWS, o->scope == BENCH_QUICK, &nengines);
	/*
	 * The run's time budget: every cell takes about bench_ms (its
	 * repetitions share it), plus the hash cells, the RNG sources and the
	 * multipliers. A bench_ms that would make the run last hours is
	 * refused with a warning, and the default for the bench= level used.
	 */
	{
		uint64_t cells = count_cells(B.rows, naes) + BENCH_EST_OTHER_CELLS + engine_rng_count() +
				 engine_montmul_count();
		uint64_t est_ms = cells * ms;
		if (est_ms > BENCH_RUN_BUDGET_MS) {
			uint32_t dflt = o->scope == BENCH_FULL ? BENCH_FULL_MS : BENCH_QUICK_MS;
			tap_diag("warning: bench: bench_ms=%u would take about %u minutes for %u cells (budget %u minutes): refused, using %u ms",
				 (unsigned)ms, (unsigned)(est_ms / 60000), (unsigned)cells,
				 (unsigned)(BENCH_RUN_BUDGET_MS / 60000), (unsigned)dflt);
			ms = dflt;
		}
	}
	p.budget_cycles = bstat_muldiv(p.hz, ms, 1000);
	print_clock(o, ms, &p);
	if (naes == BENCH_MAX_ROWS)
		tap_diag("warning: bench: more AES rows than %u; the rest are left out", BENCH_MAX_ROWS);
	cs.p = &p;
	cs.rows = B.rows;
	cs.n = naes;
	cells = count_cells(cs.rows, cs.n);
	fmt_snprintf(name, sizeof(name), "bench: cipher table measured for %u AES engine%s (%u rows, %u cells)",
		     nengines, nengines == 1 ? "" : "s", naes, cells);
	if (naes == 0)
		tap_result(false, "bench: cipher table (no AES engine registered, not even software)");
	else
		tap_run_budget(name, cipher_section, &cs, section_budget_ms(ms));

	hs.p = &p;
	hs.rows = B.rows + naes;
	if (!bench_hash_rows(hs.rows, BENCH_MAX_ROWS - naes, &hs.n))
		tap_diag("warning: bench: too many hash engines; rows after %u left out", hs.n);
	fmt_snprintf(name, sizeof(name), "bench: hash table measured for %u hash engine%s (%u cells)",
		     hs.n, hs.n == 1 ? "" : "s", count_cells(hs.rows, hs.n));
	if (hs.n == 0)
		tap_skip("no hash engine registered", "bench: hash table");
	else
		tap_run_budget(name, hash_section, &hs, section_budget_ms(ms));

	u.p = &p;
	fmt_snprintf(name, sizeof(name), "bench: RNG throughput measured for %u source%s",
		     engine_rng_count(), engine_rng_count() == 1 ? "" : "s");
	if (engine_rng_count() == 0)
		tap_skip("no RNG source registered", "bench: RNG throughput");
	else
		tap_run_budget(name, rng_section, &u, section_budget_ms(ms));

	if (engine_montmul_count() > 0) {
		fmt_snprintf(name, sizeof(name), "bench: montmul operations per second measured for %u engine%s",
			     engine_montmul_count(), engine_montmul_count() == 1 ? "" : "s");
		tap_run_budget(name, montmul_section, &u, section_budget_ms(ms));
	}
}
