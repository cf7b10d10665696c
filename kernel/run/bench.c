/*
 * bench: the benchmark's orchestration: the calibration record, the run's
 * scope and time budget, and its sections (cipher, hash, RNG, montmul),
 * each a TAP result. It calls down into the rows (bench_aes.c,
 * bench_units.c), the output (bench_print.c) and the timing core
 * (bench_time.c); none of those calls back up into it.
 * See bench.h for what is measured and printed.
 */
#include "kernel/run/bench.h"

#include <string.h>

#include "lib/measure/bench_stats.h"
#include "lib/util/escape.h"
#include "lib/util/fmt.h"
#include "kernel/run/bench_int.h"
#include "kernel/run/report.h"
#include "kernel/platform/timer.h"

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

/*
 * A table whose cell failed is that engine's failure, not the platform's:
 * the table's result counts in the row of the first engine with a failed
 * cell (bench() puts the subject back after the table). Returns false.
 */
static bool blame_first(bool ok_so_far, const struct bench_row *r)
{
	if (ok_so_far)
		report_subject(r->engine, RSUM_PROBE);
	return false;
}

/*
 * A :dual-context row that failed is a finding, not a failure: no public
 * driver runs two DMA contexts at once, and the data book only says to
 * wait for an operation's completion before the next one
 * (docs/emulation.md, "The Geode model"), so nobody documents what the
 * hardware does then. One `#` line with the first failed cell's error
 * (the driver's log, printed after the stage, says why) and a @finding
 * record as the drivers' (kernel/run/driver_run.c).
 */
static void dual_row_finding(const struct bench_row *r)
{
	char esc_name[96], esc_detail[96];
	const char *why = "no cell measured";
	unsigned i;

	for (i = 0; i < BENCH_NSIZES; i++)
		if ((r->sizes_mask & (1u << i)) && !r->cell[i].measured) {
			why = bench_strerror(r->cell[i].err);
			break;
		}
	tap_diag("bench: %s: finding, not judged: %s (two DMA contexts at once is documented by no source; the driver's log says why)",
		 r->name, why);
	esc_value(esc_name, sizeof(esc_name), r->name, sizeof(r->name), sizeof(esc_name) - 1);
	esc_value(esc_detail, sizeof(esc_detail), why, sizeof(esc_detail), sizeof(esc_detail) - 1);
	tap_diag("@finding driver=%s test=%s outcome=failed detail=%s", r->engine, esc_name, esc_detail);
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
	for (i = 0; i < s->n; i++) {
		if (bench_measure_aes_row(s->p, &s->rows[i], bb))
			continue;
		if (s->rows[i].bv == BV_DUAL)
			dual_row_finding(&s->rows[i]);
		else
			ok = blame_first(ok, &s->rows[i]);
	}
	bench_note_speeds(s->p, s->rows, s->n);
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
			ok = blame_first(ok, &s->rows[i]);
	bench_note_speeds(s->p, s->rows, s->n);
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
				 (engine_montmul_hw_count() ? engine_montmul_count() : 0);
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
	report_subject(NULL, RSUM_PROBE);

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
	report_subject(NULL, RSUM_PROBE);

	u.p = &p;
	fmt_snprintf(name, sizeof(name), "bench: RNG throughput measured for %u source%s",
		     engine_rng_count(), engine_rng_count() == 1 ? "" : "s");
	if (engine_rng_count() == 0)
		tap_skip("no RNG source registered", "bench: RNG throughput");
	else
		tap_run_budget(name, rng_section, &u, section_budget_ms(ms));
	report_subject(NULL, RSUM_PROBE);

	/* Software multiplies too, beside the hardware (not counted in the name). */
	if (engine_montmul_hw_count() > 0) {
		fmt_snprintf(name, sizeof(name), "bench: montmul operations per second measured for %u engine%s",
			     engine_montmul_hw_count(), engine_montmul_hw_count() == 1 ? "" : "s");
		tap_run_budget(name, montmul_section, &u, section_budget_ms(ms));
		report_subject(NULL, RSUM_PROBE);
	}
}
