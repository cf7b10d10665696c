/*
 * bench_stats: the arithmetic of the benchmark report, in integers only.
 * Median and spread of repeated runs, throughput in `openssl speed` units,
 * a weighted least-squares line of cycles per operation against bytes
 * (fixed cost and cost per byte, each with its uncertainty), the
 * break-even size between two such lines, and the openssl-style table
 * layout.
 *
 * Units: cycles are TSC ticks (the calibrated TSC is the wall clock, see
 * kernel/platform/timer.h). A value named *_x100 is scaled by 100 (two decimals),
 * *_x10 by 10; "centicycles" are cycles x 100. Intermediate products use
 * 128-bit arithmetic, so every function is exact (up to the rounding it
 * names) for cycle counts up to 2^63, not only the 2^40 a benchmark
 * reaches; results that do not fit saturate, as documented per function.
 *
 * Sources: OpenSSL apps/speed.c for the table layout and units
 * ("The 'numbers' are in 1000s of bytes per second processed", buffer
 * sizes 16 .. 16384, figures printed as %.2f with a 'k' suffix); the
 * weighted least-squares formulas (normal equations of y = a + b x with
 * weights 1 / sigma^2, the covariance of the coefficients, the scaling by
 * the reduced chi-square) are those of any statistics text, e.g. Press et
 * al., Numerical Recipes, "Fitting Data to a Straight Line".
 */
#ifndef CQ_LIB_BENCH_STATS_H
#define CQ_LIB_BENCH_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BSTAT_MAX_REPS		16	/* repetitions per cell kept */
#define BSTAT_MAX_POINTS	8	/* points of one least-squares fit */
#define BSTAT_MAX_X		(1u << 15)	/* largest x (bytes) a fit accepts */
#define BSTAT_MAX_Y		(1ull << 42)	/* largest y (centicycles per op) a fit accepts */
#define BSTAT_SATURATED		UINT64_MAX	/* an unsigned result that did not fit */

/*
 * round(a * b / c), halves rounded up, with a 128-bit product.
 * Returns BSTAT_SATURATED when c is 0 or the quotient exceeds 64 bits.
 */
uint64_t bstat_muldiv(uint64_t a, uint64_t b, uint64_t c);

/*
 * Median of n values (n 1..BSTAT_MAX_REPS; v is not modified). For even n
 * the mean of the two middle values, rounded down. Returns 0 for n == 0 or
 * n > BSTAT_MAX_REPS.
 */
uint64_t bstat_median(const uint64_t *v, unsigned n);

/*
 * Spread of n repetitions: (max - min) / median, in tenths of a percent
 * (per mille), rounded half up: 5 means 0.5 %. Returns 0 for n < 2 and
 * UINT32_MAX when the median is 0 or the ratio exceeds 32 bits.
 */
uint32_t bstat_spread_x10(const uint64_t *v, unsigned n);

/*
 * Throughput in 1000s of bytes per second, x 100 (so 5123456 is
 * "51234.56k"): bytes processed in `cycles` TSC ticks at hz ticks per
 * second, rounded half up. BSTAT_SATURATED when cycles is 0.
 */
uint64_t bstat_kbps_x100(uint64_t bytes, uint64_t cycles, uint64_t hz);

/* Cycles per byte x 100, rounded half up. BSTAT_SATURATED when bytes is 0. */
uint64_t bstat_cpb_x100(uint64_t cycles, uint64_t bytes);

/* Events per second (count events in cycles ticks at hz), rounded half up.
 * BSTAT_SATURATED when cycles is 0. */
uint64_t bstat_per_second(uint64_t count, uint64_t cycles, uint64_t hz);

/*
 * A straight line of cycles per operation against bytes per operation:
 * cycles(x) = fixed + per_byte * x, both in centicycles (x 100), each with
 * its standard uncertainty (one standard deviation, the square root of
 * its variance in the weighted least-squares fit below).
 */
struct bstat_fit {
	bool ok;			/* false: too few distinct x, or out of range */
	int64_t fixed_x100;		/* cycles per operation at 0 bytes, x 100 */
	int64_t per_byte_x100;		/* cycles per byte, x 100 */
	uint64_t fixed_err_x100;	/* uncertainty of fixed_x100 (BSTAT_SATURATED: unknown) */
	uint64_t per_byte_err_x100;	/* uncertainty of per_byte_x100 (same) */
};

/*
 * Weighted least-squares fit of y[i] (centicycles per operation, at most
 * BSTAT_MAX_Y) against x[i] (bytes, at most BSTAT_MAX_X) over n points
 * (2..BSTAT_MAX_POINTS, at least two distinct x), each weighted by
 * 1 / sigma[i]^2, sigma[i] its standard uncertainty in centicycles
 * (sigma NULL, or an entry 0: 1 centicycle). Both coefficients are rounded
 * to the nearest centicycle, halves away from zero; either may be
 * negative when the points are noisy. The uncertainties are those of the
 * fit with the sigmas as given or, when the points scatter about the line
 * more than their sigmas say (reduced chi-square over 1, n > 2), scaled up
 * by the square root of the reduced chi-square; with n == 2 only the
 * sigmas count. Weights are quantised to 1 .. 2^24 of the best point's,
 * which the uncertainties take into account (they are those of the
 * quantised weights). Returns fit->ok.
 */
bool bstat_fit_weighted(const uint32_t *x, const uint64_t *y_x100, const uint64_t *sigma_x100,
			unsigned n, struct bstat_fit *fit);

/* bstat_fit_weighted with equal weights (ordinary least squares). */
bool bstat_fit_line(const uint32_t *x, const uint64_t *y_x100, unsigned n,
		    struct bstat_fit *fit);

/*
 * Whether a fit is precise enough to draw a break-even from: ok, a fixed
 * cost of at least 0 cycles (rounded to whole cycles; no engine gains
 * cycles per operation) and a fixed-cost uncertainty within
 * BSTAT_FIXED_ERR_BOUND: at most a quarter of the fixed cost or the
 * per-byte cost of one 16-byte block (16 x cycles per byte), whichever is
 * larger. Beyond that a break-even moves by more than a block's bytes or
 * a quarter of itself within one standard uncertainty.
 */
#define BSTAT_FIXED_ERR_BLOCK	16	/* bytes: the block of the bound above */
bool bstat_fit_precise(const struct bstat_fit *fit);

/*
 * The standard uncertainty of a cell's cycles per operation, in
 * centicycles: the whole range of its repetitions, spread_x10 per mille of
 * the median `cycles` of ops operations, and at least 0.1 % of the median
 * (repetitions that agree by chance are not known better than that), at
 * least 1. The range, not half of it: a range of three runs is itself
 * uncertain (one that happens to be small would make its cell look exact),
 * and with the whole range a fit's stated uncertainty covers the true cost
 * as a standard uncertainty should (tests/lib/measure/test_bench_stats.c,
 * the synthetic cells). BSTAT_SATURATED when ops is 0.
 */
uint64_t bstat_cell_sigma_x100(uint64_t cycles, uint64_t ops, uint32_t spread_x10);

/*
 * Where an engine's line lies below a reference line (the engine is
 * strictly faster), over the measured sizes smallest..largest (bytes, as
 * both lines were fitted over; no extrapolation beyond them):
 *   ALWAYS  faster at smallest and at largest (so everywhere between);
 *   NEVER   faster at neither;
 *   FROM    faster at largest only: faster from `bytes`, not below;
 *   BELOW   faster at smallest only (cheaper per operation, dearer per
 *           byte): faster only below `bytes`.
 * For FROM and BELOW, smallest < bytes <= largest (a straight line
 * crosses another once), so no figure at or below the smallest size is
 * ever given; `bytes` is exact for the two lines (no rounding to blocks).
 */
enum bstat_breakeven_kind {
	BSTAT_BE_ALWAYS,
	BSTAT_BE_NEVER,
	BSTAT_BE_FROM,
	BSTAT_BE_BELOW,
};

struct bstat_breakeven {
	enum bstat_breakeven_kind kind;
	uint64_t bytes;			/* FROM and BELOW only, else 0 */
};

/*
 * Break-even of engine against ref over smallest..largest bytes (0 <
 * smallest <= largest < 2^32, else NEVER). Both fits must be ok (else NEVER).
 */
struct bstat_breakeven bstat_breakeven(const struct bstat_fit *engine,
				       const struct bstat_fit *ref,
				       uint32_t smallest, uint32_t largest);

/*
 * The record form of a break-even (the `breakeven_bytes` value of
 * docs/report-format.md): "always", "never", "N" (FROM) or "below_N"
 * (BELOW). Writes into buf (n bytes, NUL-terminated when n > 0); returns
 * the length, as snprintf.
 */
size_t bstat_format_breakeven(char *buf, size_t n, const struct bstat_breakeven *b);

/* "51234.56k": a kbps_x100 value as openssl speed prints it. */
size_t bstat_format_kbps(char *buf, size_t n, uint64_t kbps_x100);

/*
 * The `openssl speed` table layout, as `#`-less text lines:
 *   header: "type" padded to name_width, then "%7u bytes" per size;
 *   row:    name padded to name_width, then " %12s" per cell text
 *           ("51234.56k", "40.91", or a word such as "n/a").
 * Columns are BSTAT_COL_WIDTH characters wide, so each cell ends under
 * "bytes"; a name as long as name_width or longer shifts its row (every
 * cell still starts with a blank). Return the length, as snprintf; buf is
 * NUL-terminated when n > 0.
 */
#define BSTAT_COL_WIDTH		13
size_t bstat_format_header(char *buf, size_t n, unsigned name_width,
			   const uint32_t *sizes, unsigned nsizes);
size_t bstat_format_row(char *buf, size_t n, unsigned name_width, const char *name,
			const char *const *cells, unsigned ncells);

#endif
