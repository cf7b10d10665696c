/*
 * bench_print: the benchmark's output: `# @cipher` / `# @hash` / `# @cost`
 * records (docs/report-format.md) and the `#` tables in the openssl speed
 * layout (lib/bench_stats.h).
 */
#include <string.h>

#include "../lib/bench_stats.h"
#include "../lib/fmt.h"
#include "bench_int.h"
#include "report.h"

#define REFERENCE_ENGINE	"software"	/* the engine break-evens are computed against */
#define CELL_TEXT		24
#define LINE_MAX_BYTES		(BENCH_NAME_MAX + BENCH_NSIZES * (BSTAT_COL_WIDTH + 8) + 16)

/* ---- Records ---- */

void bench_print_records(const struct bench_plan *p, const struct bench_row *r)
{
	char kbps[CELL_TEXT], cpb[CELL_TEXT], spread[CELL_TEXT];
	unsigned i;

	for (i = 0; i < BENCH_NSIZES; i++) {
		const struct bench_cell *c = &r->cell[i];

		if (!(r->sizes_mask & (1u << i)))
			continue;
		if (!c->measured) {
			tap_diag("bench: %s %s %u bytes failed: %s", r->name, r->dir,
				 (unsigned)bench_sizes[i], bench_strerror(c->err));
			continue;
		}
		fmt_fixed(kbps, sizeof(kbps), (int64_t)bstat_kbps_x100(c->bytes, c->cycles, p->hz), 2);
		fmt_fixed(cpb, sizeof(cpb), (int64_t)bstat_cpb_x100(c->cycles, c->bytes), 2);
		fmt_fixed(spread, sizeof(spread), (int64_t)c->spread_x10, 1);
		if (r->is_hash)
			tap_diag("@hash engine=%s alg=%s bytes=%u kbps=%s cpb=%s spread_pct=%s reps=%u ops=%llu cycles=%llu emulated=%d",
				 r->engine, r->alg, (unsigned)bench_sizes[i], kbps, cpb, spread,
				 p->reps, (unsigned long long)c->ops,
				 (unsigned long long)c->cycles, r->emulated);
		else
			tap_diag("@cipher engine=%s alg=%s mode=%s key_bits=%u dir=%s variant=%s bytes=%u kbps=%s cpb=%s spread_pct=%s reps=%u ops=%llu cycles=%llu emulated=%d",
				 r->engine, r->alg, aes_mode_name(r->mode), r->key_bits, r->dir,
				 r->variant, (unsigned)bench_sizes[i], kbps, cpb, spread, p->reps,
				 (unsigned long long)c->ops, (unsigned long long)c->cycles,
				 r->emulated);
	}
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
 * largest sizes). False, !fit->ok, with fewer than two; *largest is the
 * largest size fitted.
 */
static bool fit_row(const struct bench_row *r, struct bstat_fit *fit, uint32_t *largest)
{
	uint32_t x[BENCH_NSIZES];
	uint64_t y[BENCH_NSIZES];
	unsigned i, n = 0;

	fit->ok = false;
	for (i = 0; i < BENCH_NSIZES; i++) {
		const struct bench_cell *c = &r->cell[i];
		if (!c->measured || c->ops == 0)
			continue;
		x[n] = bench_sizes[i];
		y[n++] = bstat_muldiv(c->cycles, 100, c->ops);	/* centicycles per operation */
		*largest = bench_sizes[i];
	}
	return n >= 2 && bstat_fit_line(x, y, n, fit);
}

static const struct bench_row *reference_row(const struct bench_row *rows, unsigned n,
					     const struct bench_row *r)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (rows[i].bv == BV_SEPARATE && strcmp(rows[i].engine, REFERENCE_ENGINE) == 0 &&
		    strcmp(rows[i].alg, r->alg) == 0 && strcmp(rows[i].dir, r->dir) == 0)
			return &rows[i];
	return NULL;
}

/* v / 100 rounded to the nearest integer, halves away from zero. */
static long long round_x100(int64_t v)
{
	return v < 0 ? -((-v + 50) / 100) : (v + 50) / 100;
}

/* What the cost table and record say about one row. */
struct cost_line {
	struct bstat_fit fit;
	const char *vs;
	char per_byte[CELL_TEXT];
	char be_rec[CELL_TEXT];		/* breakeven_bytes= value */
	char be_text[64];		/* the table's words */
};

/* Fits r and compares it with its reference row. False when r has no fit. */
static bool cost_line(const struct bench_row *rows, unsigned n, const struct bench_row *r,
		      struct cost_line *c)
{
	const struct bench_row *ref;
	struct bstat_fit ref_fit;
	struct bstat_breakeven be;
	uint32_t largest = 0, ref_largest = 0;
	size_t len;

	if (!fit_row(r, &c->fit, &largest))
		return false;
	fmt_fixed(c->per_byte, sizeof(c->per_byte), c->fit.per_byte_x100, 2);
	ref = reference_row(rows, n, r);
	if (ref == r || !ref || !fit_row(ref, &ref_fit, &ref_largest)) {
		c->vs = "none";
		fmt_snprintf(c->be_rec, sizeof(c->be_rec), "none");
		fmt_snprintf(c->be_text, sizeof(c->be_text), ref == r ? "(the reference)"
			     : "(no reference row)");
		return true;
	}
	c->vs = REFERENCE_ENGINE;
	be = bstat_breakeven(&c->fit, &ref_fit);
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

bool bench_print_cost(const struct bench_row *rows, unsigned n)
{
	struct cost_line c;
	unsigned w = 16, i;
	bool ok = true;

	for (i = 0; i < n; i++)
		if (strlen(rows[i].base) + 1 > w)
			w = (unsigned)strlen(rows[i].base) + 1;
	tap_diag("bench: cost model, cycles per operation = fixed + per byte x bytes (least squares over %u..%u bytes), against %s on this CPU:",
		 (unsigned)bench_sizes[0], (unsigned)bench_sizes[BENCH_NSIZES - 1], REFERENCE_ENGINE);
	tap_diag("%-*s %-8s %16s %12s  %s", (int)w, "engine:algorithm", "dir", "fixed cycles/op",
		 "cycles/byte", "faster than " REFERENCE_ENGINE);
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
		tap_diag("%-*s %-8s %16lld %12s  %s%s", (int)w, r->base, r->dir,
			 round_x100(c.fit.fixed_x100), c.per_byte, c.be_text,
			 r->emulated ? " (emulated)" : "");
	}
	for (i = 0; i < n; i++) {
		const struct bench_row *r = &rows[i];

		if (r->bv != BV_SEPARATE || !cost_line(rows, n, r, &c))
			continue;
		tap_diag("@cost engine=%s alg=%s dir=%s fixed_cycles=%lld cycles_per_byte=%s breakeven_bytes=%s vs=%s emulated=%d",
			 r->engine, r->alg, r->dir, round_x100(c.fit.fixed_x100), c.per_byte,
			 c.be_rec, c.vs, r->emulated);
	}
	return ok;
}
