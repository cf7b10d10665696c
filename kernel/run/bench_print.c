/*
 * bench_print: the benchmark's output: `# @cipher` / `# @hash` / `# @cost`
 * records (docs/report-format.md) and the `#` tables in the openssl speed
 * layout (lib/measure/bench_stats.h).
 */
#include <string.h>

#include "lib/measure/bench_stats.h"
#include "lib/util/fmt.h"
#include "kernel/run/bench_int.h"
#include "kernel/run/report.h"

/*
 * The software baseline break-evens and the summary's vs_sw are computed
 * against: the vector-permute engine (drivers/vperm) where the CPU runs it,
 * for the rows it has (what OpenSSL runs there: vpaes), else the table
 * code of lib/crypto/aes and lib/crypto/sha.
 */
#define SOFTWARE_ENGINE		"software"
#define BASELINE_ENGINE		"vperm"
#define CELL_TEXT		24
/*
 * A fit is unreliable when a fitted cell's repetitions spread more than
 * this (per mille of the median): the cycles of that cell are not one
 * measurement. Real hardware stays under a few percent; TCG often does not.
 */
#define FIT_SPREAD_MAX_X10	250
#define LINE_MAX_BYTES		(BENCH_NAME_MAX + BENCH_NSIZES * (BSTAT_COL_WIDTH + 8) + 16)

/* The row of engine with r's alg and dir, separate aligned buffers, or NULL. */
static const struct bench_row *row_of(const struct bench_row *rows, unsigned n, const char *engine,
				      const struct bench_row *r)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (rows[i].bv == BV_SEPARATE && strcmp(rows[i].engine, engine) == 0 &&
		    strcmp(rows[i].alg, r->alg) == 0 && strcmp(rows[i].dir, r->dir) == 0)
			return &rows[i];
	return NULL;
}

/* r's reference: the baseline engine's row for its alg and dir, else software's. */
static const struct bench_row *reference_row(const struct bench_row *rows, unsigned n,
					     const struct bench_row *r)
{
	const struct bench_row *b = row_of(rows, n, BASELINE_ENGINE, r);

	return b ? b : row_of(rows, n, SOFTWARE_ENGINE, r);
}

/* ---- Records ---- */

#define SUMMARY_BYTES	8192	/* the summary's throughput column: this cell */

/* Index of the SUMMARY_BYTES cell. */
static unsigned summary_cell(void)
{
	unsigned i;

	for (i = 0; i + 1 < BENCH_NSIZES && bench_sizes[i] != SUMMARY_BYTES; i++)
		;
	return i;
}

/*
 * The summary's throughput column, the cells an `openssl speed -evp` user
 * compares with: each engine's 8 KiB AES-128-CBC encrypt cell in separate
 * aligned buffers, or its SHA-256 digest cell, against the same cell of
 * the reference row (reference_row()). The summary keeps an engine's first
 * figure (the cipher's): the cipher reference's reads "ref".
 */
#define SUMMARY_CIPHER	"aes-128-cbc"
#define SUMMARY_HASH	"sha256"
void bench_note_speeds(const struct bench_plan *p, const struct bench_row *rows, unsigned n)
{
	const struct bench_cell *c, *rc;
	const struct bench_row *r, *ref;
	unsigned i, k = summary_cell();

	for (i = 0; i < n; i++) {
		r = &rows[i];
		c = &r->cell[k];
		if (r->bv != BV_SEPARATE || !c->measured ||
		    (r->is_hash ? strcmp(r->alg, SUMMARY_HASH) != 0
				: strcmp(r->alg, SUMMARY_CIPHER) != 0 || strcmp(r->dir, "encrypt") != 0))
			continue;
		ref = reference_row(rows, n, r);
		rc = ref ? &ref->cell[k] : NULL;
		if (ref == r && !r->is_hash)	/* an engine's row keeps its cipher figure */
			report_reference(r->engine);
		report_speed(r->engine, bstat_per_second(c->bytes, c->cycles, p->hz),
			     rc && rc->measured ? bstat_per_second(rc->bytes, rc->cycles, p->hz) : 0,
			     false, r->emulated);
	}
}

/* Appends ",text" (or "text" at the start of a list) to list[*k..n). */
static void list_add(char *list, size_t n, size_t *k, const char *text)
{
	if (*k < n)
		*k += fmt_snprintf(list + *k, n - *k, "%s%s", *k ? "," : "", text);
}

#define LIST_BYTES	(BENCH_NSIZES * 24)

/*
 * One record per row (docs/report-format.md): the row's identity once,
 * then comma-separated lists with one entry per measured size, in the
 * order of bytes=. cpb and cycles are not printed: cpb = tsc_hz / (kbps x
 * 1000) and cycles per run = ops x bytes x cpb (twice bytes for a
 * dual-context row, whose kbps counts both requests), with tsc_hz from
 * the @calibration record.
 */
void bench_print_records(const struct bench_plan *p, const struct bench_row *r)
{
	char sizes[LIST_BYTES], kbps[LIST_BYTES], spread[LIST_BYTES], ops[LIST_BYTES], v[CELL_TEXT];
	size_t ks = 0, kk = 0, ksp = 0, ko = 0;
	unsigned i;

	sizes[0] = kbps[0] = spread[0] = ops[0] = '\0';
	for (i = 0; i < BENCH_NSIZES; i++) {
		const struct bench_cell *c = &r->cell[i];

		if (!(r->sizes_mask & (1u << i)))
			continue;
		if (!c->measured) {
			tap_diag("bench: %s %s %u bytes failed: %s", r->name, r->dir,
				 (unsigned)bench_sizes[i], bench_strerror(c->err));
			continue;
		}
		fmt_snprintf(v, sizeof(v), "%u", (unsigned)bench_sizes[i]);
		list_add(sizes, sizeof(sizes), &ks, v);
		fmt_fixed(v, sizeof(v), (int64_t)bstat_kbps_x100(c->bytes, c->cycles, p->hz), 2);
		list_add(kbps, sizeof(kbps), &kk, v);
		fmt_fixed(v, sizeof(v), (int64_t)c->spread_x10, 1);
		list_add(spread, sizeof(spread), &ksp, v);
		fmt_snprintf(v, sizeof(v), "%llu", (unsigned long long)c->ops);
		list_add(ops, sizeof(ops), &ko, v);
	}
	if (ks == 0)
		return;
	if (r->is_hash)
		tap_diag("@hash engine=%s alg=%s emulated=%d reps=%u bytes=%s kbps=%s spread_pct=%s ops=%s",
			 r->engine, r->alg, r->emulated, p->reps, sizes, kbps, spread, ops);
	else
		tap_diag("@cipher engine=%s alg=%s dir=%s variant=%s emulated=%d reps=%u bytes=%s kbps=%s spread_pct=%s ops=%s",
			 r->engine, r->alg, r->dir, r->variant, r->emulated, p->reps, sizes, kbps,
			 spread, ops);
}

/* ---- Tables ---- */

static unsigned name_width(const struct bench_row *rows, unsigned n)
{
	unsigned w = 12, i;		/* openssl speed's "type" column */

	for (i = 0; i < n; i++)
		if (strlen(rows[i].name) + 1 > w)
			w = (unsigned)strlen(rows[i].name) + 1;
	return w;
}

/* The text of one cell of grid g. */
static void cell_text(char *buf, size_t n, const struct bench_row *r, unsigned i,
		      enum bench_grid g, uint64_t hz)
{
	const struct bench_cell *c = &r->cell[i];

	if (!(r->sizes_mask & (1u << i))) {
		fmt_snprintf(buf, n, "-");
		return;
	}
	if (!c->measured) {
		fmt_snprintf(buf, n, "failed");
		return;
	}
	switch (g) {
	case BG_KBPS:
		bstat_format_kbps(buf, n, bstat_kbps_x100(c->bytes, c->cycles, hz));
		break;
	case BG_CPB:
		fmt_fixed(buf, n, (int64_t)bstat_cpb_x100(c->cycles, c->bytes), 2);
		break;
	case BG_SPREAD:
		fmt_fixed(buf, n, (int64_t)c->spread_x10, 1);
		break;
	}
}

void bench_print_grid(const struct bench_row *rows, unsigned n, enum bench_grid g)
{
	char text[BENCH_NSIZES][CELL_TEXT], line[LINE_MAX_BYTES];
	const char *cells[BENCH_NSIZES];
	unsigned w = name_width(rows, n), i, j;
	uint64_t hz = tsc_hz();

	bstat_format_header(line, sizeof(line), w, bench_sizes, BENCH_NSIZES);
	tap_diag("%s", line);
	for (i = 0; i < n; i++) {
		for (j = 0; j < BENCH_NSIZES; j++) {
			cell_text(text[j], sizeof(text[j]), &rows[i], j, g, hz);
			cells[j] = text[j];
		}
		bstat_format_row(line, sizeof(line), w, rows[i].name, cells, BENCH_NSIZES);
		tap_diag("%s", line);
	}
}

/* ---- Cost model ---- */

/*
 * Fits the row's measured cells (an engine's max_len may leave out the
 * largest sizes), each weighted by its repetitions' spread
 * (bstat_cell_sigma_x100). False, !fit->ok, with fewer than two;
 * *smallest and *largest are the sizes fitted, *spread the largest
 * spread_x10 among them.
 */
static bool fit_row(const struct bench_row *r, struct bstat_fit *fit, uint32_t *smallest,
		    uint32_t *largest, uint32_t *spread)
{
	uint32_t x[BENCH_NSIZES];
	uint64_t y[BENCH_NSIZES], sigma[BENCH_NSIZES];
	unsigned i, n = 0;

	fit->ok = false;
	for (i = 0; i < BENCH_NSIZES; i++) {
		const struct bench_cell *c = &r->cell[i];
		if (!c->measured || c->ops == 0)
			continue;
		x[n] = bench_sizes[i];
		y[n] = bstat_muldiv(c->cycles, 100, c->ops);	/* centicycles per operation */
		sigma[n++] = bstat_cell_sigma_x100(c->cycles, c->ops, c->spread_x10);
		if (n == 1)
			*smallest = bench_sizes[i];
		*largest = bench_sizes[i];
		if (c->spread_x10 > *spread)
			*spread = c->spread_x10;
	}
	return n >= 2 && bstat_fit_weighted(x, y, sigma, n, fit);
}

/* v / 100 rounded to the nearest integer, halves away from zero. */
static long long round_x100(int64_t v)
{
	return v < 0 ? -((-v + 50) / 100) : (v + 50) / 100;
}

/* An uncertainty (centicycles) rounded to whole cycles, halves up; saturated stays so. */
static unsigned long long err_cycles(uint64_t err_x100)
{
	return err_x100 == BSTAT_SATURATED ? err_x100 : (err_x100 + 50) / 100;
}

/*
 * Why a fit cannot be trusted, into why (n bytes): a fitted cell spread
 * over FIT_SPREAD_MAX_X10; a negative fixed cost (no engine gains cycles
 * per operation: the cells disagree with a straight line); or a fixed
 * cost known worse than bstat_fit_precise() allows (docs/report-format.md).
 * False, why untouched, when the fit looks sound.
 */
static bool fit_unreliable(const struct bstat_fit *fit, uint32_t spread, char *why, size_t n)
{
	char pct[CELL_TEXT];

	if (spread > FIT_SPREAD_MAX_X10) {
		fmt_fixed(pct, sizeof(pct), (int64_t)spread, 1);
		fmt_snprintf(why, n, "unreliable: spread %s %%", pct);
		return true;
	}
	if (round_x100(fit->fixed_x100) < 0) {
		fmt_snprintf(why, n, "unreliable: negative fixed cost");
		return true;
	}
	if (!bstat_fit_precise(fit)) {
		fmt_snprintf(why, n, "unreliable: fixed cost +-%llu cycles",
			     err_cycles(fit->fixed_err_x100));
		return true;
	}
	return false;
}

/* What the cost table and record say about one row. */
struct cost_line {
	struct bstat_fit fit;
	bool unreliable;		/* this row's fit (fit_unreliable) */
	const char *vs;
	char per_byte[CELL_TEXT];
	char per_byte_err[CELL_TEXT];
	char fixed_err[CELL_TEXT];
	char be_rec[CELL_TEXT];		/* breakeven_bytes= value */
	char be_text[96];		/* the table's words */
};

/* Fits r and compares it with its reference row. False when r has no fit. */
static bool cost_line(const struct bench_row *rows, unsigned n, const struct bench_row *r,
		      struct cost_line *c)
{
	const struct bench_row *ref;
	struct bstat_fit ref_fit;
	struct bstat_breakeven be;
	uint32_t smallest = 0, largest = 0, ref_smallest = 0, ref_largest = 0;
	uint32_t spread = 0, ref_spread = 0;
	char why[48];
	size_t len;

	if (!fit_row(r, &c->fit, &smallest, &largest, &spread))
		return false;
	fmt_fixed(c->per_byte, sizeof(c->per_byte), c->fit.per_byte_x100, 2);
	if (c->fit.fixed_err_x100 == BSTAT_SATURATED)
		fmt_snprintf(c->fixed_err, sizeof(c->fixed_err), "unknown");
	else
		fmt_snprintf(c->fixed_err, sizeof(c->fixed_err), "%llu", err_cycles(c->fit.fixed_err_x100));
	if (c->fit.per_byte_err_x100 == BSTAT_SATURATED)
		fmt_snprintf(c->per_byte_err, sizeof(c->per_byte_err), "unknown");
	else
		fmt_fixed(c->per_byte_err, sizeof(c->per_byte_err), (int64_t)c->fit.per_byte_err_x100, 2);
	c->unreliable = fit_unreliable(&c->fit, spread, why, sizeof(why));
	ref = reference_row(rows, n, r);
	if (ref == r || !ref || !fit_row(ref, &ref_fit, &ref_smallest, &ref_largest, &ref_spread)) {
		c->vs = "none";
		fmt_snprintf(c->be_rec, sizeof(c->be_rec), "none");
		fmt_snprintf(c->be_text, sizeof(c->be_text), "(%s%s%s)",
			     ref == r ? "the reference" : "no reference row",
			     c->unreliable ? ", " : "", c->unreliable ? why : "");
		return true;
	}
	c->vs = ref->engine;
	if (c->unreliable || fit_unreliable(&ref_fit, ref_spread, why, sizeof(why))) {
		/* A break-even from a line that is not a measurement would be made up. */
		fmt_snprintf(c->be_rec, sizeof(c->be_rec), "unknown");
		if (c->unreliable)
			fmt_snprintf(c->be_text, sizeof(c->be_text), "(%s)", why);
		else
			fmt_snprintf(c->be_text, sizeof(c->be_text), "(unknown: the %s fit is %s)",
				     ref->engine, why);
		return true;
	}
	/* Over the sizes both rows measured: a break-even is never extrapolated. */
	be = bstat_breakeven(&c->fit, &ref_fit, smallest > ref_smallest ? smallest : ref_smallest,
			     largest < ref_largest ? largest : ref_largest);
	bstat_format_breakeven(c->be_rec, sizeof(c->be_rec), &be);
	if (be.kind == BSTAT_BE_FROM)
		fmt_snprintf(c->be_text, sizeof(c->be_text), "from %llu bytes",
			     (unsigned long long)be.bytes);
	else if (be.kind == BSTAT_BE_BELOW)
		fmt_snprintf(c->be_text, sizeof(c->be_text), "below %llu bytes only",
			     (unsigned long long)be.bytes);
	else
		fmt_snprintf(c->be_text, sizeof(c->be_text), "%s", c->be_rec);
	len = strlen(c->be_text);
	if (largest < bench_sizes[BENCH_NSIZES - 1])
		fmt_snprintf(c->be_text + len, sizeof(c->be_text) - len, " (fit up to %u bytes)",
			     (unsigned)largest);
	return true;
}

/* Whether every cell the row asked for was measured. */
static bool all_measured(const struct bench_row *r)
{
	unsigned j;

	for (j = 0; j < BENCH_NSIZES; j++)
		if ((r->sizes_mask & (1u << j)) && !r->cell[j].measured)
			return false;
	return true;
}

bool bench_print_cost(const struct bench_row *rows, unsigned n, bool table)
{
	struct cost_line c;
	unsigned w = 16, i;
	bool ok = true;

	for (i = 0; i < n; i++)
		if (strlen(rows[i].base) + 1 > w)
			w = (unsigned)strlen(rows[i].base) + 1;
	if (table) {
		tap_diag("bench: cost model, cycles per operation = fixed + per byte x bytes (least squares weighted by each cell's spread, over %u..%u bytes; +- one standard uncertainty), against the software baseline on this CPU (%s where it has the row, else %s):",
			 (unsigned)bench_sizes[0], (unsigned)bench_sizes[BENCH_NSIZES - 1], BASELINE_ENGINE,
			 SOFTWARE_ENGINE);
		tap_diag("%-*s %-8s %16s %8s %12s %8s  %s", (int)w, "engine:algorithm", "dir",
			 "fixed cycles/op", "+-", "cycles/byte", "+-", "faster than the baseline");
	}
	for (i = 0; i < n; i++) {
		const struct bench_row *r = &rows[i];

		if (r->bv != BV_SEPARATE)
			continue;
		if (!cost_line(rows, n, r, &c)) {
			tap_diag("%-*s %-8s no cost model: %s", (int)w, r->base, r->dir,
				 all_measured(r) ? "the fit failed" : "too few sizes were measured");
			if (all_measured(r))
				ok = false;
			continue;
		}
		if (table)
			tap_diag("%-*s %-8s %16lld %8s %12s %8s  %s%s", (int)w, r->base, r->dir,
				 round_x100(c.fit.fixed_x100), c.fixed_err, c.per_byte, c.per_byte_err,
				 c.be_text, r->emulated ? " (emulated)" : "");
	}
	for (i = 0; i < n; i++) {
		const struct bench_row *r = &rows[i];

		if (r->bv != BV_SEPARATE || !cost_line(rows, n, r, &c))
			continue;
		tap_diag("@cost engine=%s alg=%s dir=%s fixed_cycles=%lld fixed_err=%s cycles_per_byte=%s cpb_err=%s breakeven_bytes=%s vs=%s fit=%s emulated=%d",
			 r->engine, r->alg, r->dir, round_x100(c.fit.fixed_x100), c.fixed_err,
			 c.per_byte, c.per_byte_err, c.be_rec, c.vs, c.unreliable ? "unreliable" : "ok", r->emulated);
	}
	return ok;
}
