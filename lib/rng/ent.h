/*
 * ent: the figures John Walker's `ent` (Debian package ent, 1.2debian)
 * reports for a byte stream, in integer arithmetic: Shannon entropy,
 * optimum compression, chi-square of the byte (or bit) counts, arithmetic
 * mean, Monte Carlo value of pi, serial correlation coefficient. Printed to
 * ent's precision they match ent's output (see ent_fmt).
 *
 * Definitions, as ent computes them (samples are bytes, or bits most
 * significant first in bit mode, `ent -b`):
 *   entropy  sum p_i log2(1/p_i), p_i = count_i / n (bits per sample)
 *   chi-sq   sum (count_i - n/B)^2 / (n/B), B = 256 bins (2 in bit mode),
 *            computed exactly as (B * sum count_i^2 - n^2) / n
 *   mean     sum of the samples / n
 *   pi       every 6 bytes (also in bit mode) make x = bytes 0-2 and
 *            y = bytes 3-5 (24-bit big-endian); pi = 4 * inside / points,
 *            inside when x^2 + y^2 <= (2^24 - 1)^2
 *   scc      circular lag-1 serial correlation:
 *            (n t1 - t2^2) / (n t3 - t2^2), t1 = sum s_i s_(i+1 mod n),
 *            t2 = sum s_i, t3 = sum s_i^2; ent reports -100000 ("undefined")
 *            when the denominator is 0 (all samples equal)
 * Rationals are kept exact and rounded once when printed; the entropy has
 * 48 fraction bits (error below 2^-45). The mean and pi are rounded first to
 * the nearest IEEE double (what ent's single division yields) and then to
 * decimals, so even exact decimal ties print as ent prints them. ent sums
 * chi-square, entropy and scc in doubles; when their exact value lies within
 * about 1e-12 of a rounding boundary the last printed digit could differ.
 * Not computed: ent's chi-square probability ("would exceed this value ...").
 */
#ifndef CQ_LIB_ENT_H
#define CQ_LIB_ENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/measure/fixmath.h"

#define ENT_MONTE_BYTES	6	/* ent's MONTEN */

struct ent_ctx {
	bool bits;		/* bit mode (ent -b) */
	uint64_t count[256];	/* occurrences of each sample value */
	uint64_t n;		/* samples */
	uint8_t monte[ENT_MONTE_BYTES];
	unsigned mp;
	uint64_t points, inside;	/* Monte Carlo */
	unsigned first, last;	/* first and previous sample, for the serial correlation */
	uint64_t t1;		/* sum of s_i * s_(i+1), without the wrap-around term */
};

/* Figures of a finished stream; read them with ent_fmt() or the helpers below. */
struct ent_result {
	bool bits;
	uint64_t n;			/* samples: bytes, or bits in bit mode */
	uint64_t entropy_q48;		/* bits per sample, 48 fraction bits */
	struct fx128 chisq_num;		/* chi-square = chisq_num / n */
	uint64_t sum;			/* sum of the samples: mean = sum / n */
	uint64_t points, inside;	/* Monte Carlo: pi = 4 * inside / points */
	bool scc_defined;		/* false when all samples are equal (or n < 2) */
	bool scc_neg;
	struct fx128 scc_num, scc_den;	/* |scc| = scc_num / scc_den */
};

void ent_init(struct ent_ctx *c, bool bits);
void ent_feed(struct ent_ctx *c, const uint8_t *buf, size_t len);
void ent_finish(const struct ent_ctx *c, struct ent_result *r);

/* The figures ent prints; `decimals` as in its printf formats. */
enum ent_figure {
	ENT_ENTROPY,		/* normal output %f; terse %f */
	ENT_CHISQ,		/* %1.2f; terse %f */
	ENT_MEAN,		/* %1.4f; terse %f */
	ENT_PI,			/* %1.9f; terse %f */
	ENT_PI_ERROR,		/* percent, %1.2f */
	ENT_SCC,		/* %f in both */
	ENT_COMPRESSION,	/* percent, integer (0 decimals) */
};

/*
 * ent_fmt writes one figure as printf("%.*f", decimals, value) would print
 * ent's double; NUL-terminated in buf (n bytes). decimals <= 9. Returns the
 * length. A Monte Carlo figure with no points prints as glibc prints ent's
 * NaN. ent_micro gives a figure as a scaled integer for tests and verdicts:
 * value * 10^6, rounded (0 for the percentages).
 *
 * Each is an inline dispatch to two halves: the figures of the sample
 * statistics (entropy, chi-square, serial correlation: what the kernel
 * prints and judges) and those of the sample values (mean, Monte Carlo pi,
 * compression: the host tools' full ent output). A caller naming a
 * constant figure links only its half, so the image carries no code for
 * figures it never prints.
 */
size_t ent_fmt_stat(const struct ent_result *r, enum ent_figure f, unsigned decimals,
		    char *buf, size_t n);
size_t ent_fmt_value(const struct ent_result *r, enum ent_figure f, unsigned decimals,
		     char *buf, size_t n);
int64_t ent_micro_stat(const struct ent_result *r, enum ent_figure f);
int64_t ent_micro_value(const struct ent_result *r, enum ent_figure f);

static inline __attribute__((always_inline)) bool ent_is_stat(enum ent_figure f)
{
	return f == ENT_ENTROPY || f == ENT_CHISQ || f == ENT_SCC;
}

static inline __attribute__((always_inline)) size_t
ent_fmt(const struct ent_result *r, enum ent_figure f, unsigned decimals, char *buf, size_t n)
{
	return ent_is_stat(f) ? ent_fmt_stat(r, f, decimals, buf, n)
			      : ent_fmt_value(r, f, decimals, buf, n);
}

static inline __attribute__((always_inline)) int64_t
ent_micro(const struct ent_result *r, enum ent_figure f)
{
	return ent_is_stat(f) ? ent_micro_stat(r, f) : ent_micro_value(r, f);
}

#endif
