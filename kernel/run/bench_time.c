/*
 * bench_time: the benchmark's timing core: the buffer sizes, the timing of
 * one cell (bench_measure, bench_measure_hint), the work buffers and the
 * error text. It calls nothing of the benchmark above it (bench.c,
 * bench_aes.c, bench_units.c, bench_print.c); see bench_int.h.
 */
#include <string.h>

#include "lib/measure/bench_stats.h"
#include "lib/util/fmt.h"
#include "kernel/run/bench_int.h"
#include "kernel/platform/hw.h"
#include "kernel/platform/memmap.h"
#include "kernel/run/net_report.h"
#include "kernel/run/report.h"

const uint32_t bench_sizes[BENCH_NSIZES] = { 16, 64, 256, 1024, 8192, 16384 };

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
 * operations, timed a second time when it falls outside 1/2 .. 3/2 of
 * target (the shorter time counts, so one interruption cannot skew the
 * count). A run within 1/2 .. 3/2 of target keeps its count and
 * serves as the first repetition (*first = its cycles); one within 1/8 ..
 * 8 times target is scaled to target (*first = 0); anything else (a bad
 * guess, or an interruption) falls back to doubling from that count.
 * Returns 0, ENGINE_E* or BENCH_EZERO.
 */
static int choose_count_hint(bench_fn fn, void *ctx, uint64_t target, uint64_t hint,
			     uint64_t *count, uint64_t *first)
{
	uint64_t n = target / hint, t, t2;
	int rc;

	*first = 0;
	if (n == 0)
		n = 1;
	if (n > BENCH_MAX_OPS)
		n = BENCH_MAX_OPS;
	rc = timed(fn, ctx, n, &t);
	if (rc != 0)
		return rc;
	if (t < target / 2 || t > target + target / 2) {
		/* Off the prediction: an interruption or a bad guess. Once more; the shorter counts. */
		rc = timed(fn, ctx, n, &t2);
		if (rc != 0)
			return rc;
		if (t2 < t)
			t = t2;
	}
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
	net_report_hold(true);	/* no network traffic while a cell is timed */
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
	net_report_hold(false);
	report_tick();
	return 0;
fail:
	c->err = rc;
	net_report_hold(false);
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

uint64_t bench_predict_cycles(const struct bench_row *row, unsigned i, const uint64_t *last)
{
	uint64_t c1 = 0, c2 = 0, s1 = 0, s2 = 0, si = bench_sizes[i];
	unsigned j;

	for (j = 0; j < i; j++) {
		const struct bench_cell *c = &row->cell[j];
		if (!c->measured || c->ops == 0 || c->cycles == 0)
			continue;
		c1 = c2;
		s1 = s2;
		c2 = c->cycles / c->ops;
		s2 = bench_sizes[j];
	}
	if (c2 == 0)
		return last ? last[i] : 0;
	if (c1 == 0 || c2 <= c1)
		return bstat_muldiv(c2, si, s2);
	return c2 + bstat_muldiv(c2 - c1, si - s2, s2 - s1);
}
