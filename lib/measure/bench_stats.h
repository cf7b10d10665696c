/*
 * bench_stats: the arithmetic of the benchmark report, in integers only.
 * Median and spread of repeated runs, throughput in `openssl speed` units,
 * a least-squares line of cycles per operation against bytes (fixed cost
 * and cost per byte), the break-even size between two such lines, and the
 * openssl-style table layout.
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
 * least-squares formulas are the normal equations of a straight line
 * y = a + b x (any statistics text).
 */
#ifndef CQ_LIB_BENCH_STATS_H
#define CQ_LIB_BENCH_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BSTAT_MAX_REPS		16	/* repetitions per cell kept */
#define BSTAT_MAX_POINTS	16	/* points of one least-squares fit */
#define BSTAT_MAX_X		(1u << 20)	/* largest x (bytes) a fit accepts */
#define BSTAT_MAX_Y		(1ull << 50)	/* largest y (centicycles per op) a fit accepts */
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
 * cycles(x) = fixed + per_byte * x, both in centicycles (x 100).
 */
struct bstat_fit {
	bool ok;			/* false: too few distinct x, or out of range */
	int64_t fixed_x100;		/* cycles per operation at 0 bytes, x 100 */
	int64_t per_byte_x100;		/* cycles per byte, x 100 */
};

/*
 * Least-squares fit of y[i] (centicycles per operation, at most
 * BSTAT_MAX_Y) against x[i] (bytes, at most BSTAT_MAX_X) over n points
 * (2..BSTAT_MAX_POINTS, at least two distinct x). Both coefficients are
 * rounded to the nearest centicycle, halves away from zero; either may be
 * negative when the points are noisy. Returns fit->ok.
 */
bool bstat_fit_line(const uint32_t *x, const uint64_t *y_x100, unsigned n,
		    struct bstat_fit *fit);

/*
 * Where an engine's line lies below a reference line (the engine is
 * strictly faster), over buffer sizes of 1 byte and up:
 *   ALWAYS  at every size;
 *   NEVER   at no size;
 *   FROM    at `bytes` and every larger size, not below (the break-even);
 *   BELOW   only at sizes below `bytes` (cheaper per operation, dearer
 *           per byte).
 * `bytes` is exact for the two lines given (no rounding to blocks) and
 * saturates at BSTAT_SATURATED.
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

/* Break-even of engine against ref. Both fits must be ok (else NEVER). */
struct bstat_breakeven bstat_breakeven(const struct bstat_fit *engine,
				       const struct bstat_fit *ref);

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
