/*
 * fixmath: integer arithmetic for the RNG statistics, which must not use
 * floating point (the kernel does not save FPU state and lib/ is built
 * -ffreestanding for an i586). Three tools:
 *
 *  - fx128: 128-bit unsigned integers (i386 GCC has no __int128), for
 *    exact sums of products and for rational values printed to a fixed
 *    number of decimals;
 *  - fixed-point log2 (48 fraction bits), square roots and 2^-x;
 *  - fxf: a software "extended float" (64-bit mantissa, 32-bit exponent)
 *    used only to sum binomial probabilities far below 2^-1000, for the
 *    SP 800-90B cutoffs and the verdict thresholds (fx_critbinom).
 *
 * Everything here is exact integer code; the precision of each result is
 * stated beside it.
 */
#ifndef CQ_LIB_FIXMATH_H
#define CQ_LIB_FIXMATH_H

#include <stdbool.h>
#include <stdint.h>

/* ---- 128-bit unsigned integers ---- */

struct fx128 {
	uint64_t hi, lo;
};

struct fx128 fx128_from(uint64_t v);
struct fx128 fx128_mul(uint64_t a, uint64_t b);            /* full 128-bit product */
struct fx128 fx128_add(struct fx128 a, struct fx128 b);     /* modulo 2^128 */
struct fx128 fx128_sub(struct fx128 a, struct fx128 b);     /* modulo 2^128 */
struct fx128 fx128_shl(struct fx128 a, unsigned n);         /* n < 128 */
struct fx128 fx128_shr(struct fx128 a, unsigned n);         /* n < 128 */
int fx128_cmp(struct fx128 a, struct fx128 b);              /* -1, 0, 1 */
bool fx128_is_zero(struct fx128 a);
unsigned fx128_bits(struct fx128 a);                        /* bit length; 0 for 0 */

/*
 * In place, through pointers (a struct fx128 by value is four words copied
 * onto the stack at every call on i386): *acc += b, *acc -= b, *acc += a * b,
 * all modulo 2^128; *r = |a - b|, returning a < b. Any of the pointers may
 * be the same.
 */
void fx128_add_to(struct fx128 *acc, const struct fx128 *b);
void fx128_sub_from(struct fx128 *acc, const struct fx128 *b);
void fx128_mac(struct fx128 *acc, uint64_t a, uint64_t b);
bool fx128_absdiff(struct fx128 *r, const struct fx128 *a, const struct fx128 *b);

/*
 * The functions below take their 128-bit operands by address: each name
 * without _ref is an inline wrapper taking them by value (a struct fx128
 * by value is four words copied onto the stack at every call on i386).
 */

/* Low 128 bits of a * b into *r (r may be a). */
void fx128_mul128_ref(struct fx128 *r, const struct fx128 *a, uint64_t b);

/*
 * Quotient n / d and remainder (rem may be NULL, or the same as n or d).
 * d must not be zero.
 */
struct fx128 fx128_divmod_ref(const struct fx128 *n, const struct fx128 *d, struct fx128 *rem);

/*
 * Quotient n / d into *q, and where the remainder r lies against half of
 * d: the sign of 2r - d (-1, 0, 1), for rounding. d must not be zero; q
 * may be the same as n or d.
 */
int fx128_div_half(struct fx128 *q, const struct fx128 *n, const struct fx128 *d);

/* floor(sqrt(n)): always fits 64 bits. */
uint64_t fx128_isqrt_ref(const struct fx128 *n);

/*
 * n / d rounded to the nearest integer; an exact half goes to the even
 * neighbour (as glibc's printf rounds an exactly representable value).
 * The quotient must fit 64 bits; d must not be zero.
 */
uint64_t fx128_div_round_ref(const struct fx128 *n, const struct fx128 *d);

static inline struct fx128 fx128_mul128(struct fx128 a, uint64_t b)
{
	struct fx128 r;

	fx128_mul128_ref(&r, &a, b);
	return r;
}

static inline struct fx128 fx128_divmod(struct fx128 n, struct fx128 d, struct fx128 *rem)
{
	return fx128_divmod_ref(&n, &d, rem);
}

static inline uint64_t fx128_isqrt(struct fx128 n)
{
	return fx128_isqrt_ref(&n);
}

static inline uint64_t fx128_div_round(struct fx128 n, struct fx128 d)
{
	return fx128_div_round_ref(&n, &d);
}

/* ---- fixed point ---- */

#define FX_LOG2_FRAC	48	/* fraction bits of fx_log2() */
#define FX_LOG2_ONE	((uint64_t)1 << FX_LOG2_FRAC)

/*
 * log2(x) * 2^48 for x >= 1 (0 for x = 0), truncated; the error is below
 * 2^-47 (the 48 fraction bits come from repeated squaring of a 64-bit
 * mantissa, each step truncating at 2^-63).
 */
uint64_t fx_log2(uint64_t x);

/*
 * 2^-(h_micro / 10^6) as a 64-bit binary fraction (value * 2^64, rounded
 * down), for 0 < h_micro < 64 * 10^6. The fraction of h is converted to 40
 * binary digits and 2^-f is the product of the square-root chain
 * 2^-1/2, 2^-1/4, ... (each an integer square root), so the relative
 * error is below 2^-38.
 */
uint64_t fx_exp2_neg_micro(uint32_t h_micro);

/*
 * ---- extended floats: value = m * 2^e, m normalised (top bit set) or 0 ----
 * The operations work in place on *a (pointers: a 12-byte struct passed by
 * value costs a copy at every call on i386); a and b may be the same.
 * Every result is truncated to a 64-bit mantissa.
 */

struct fxf {
	uint64_t m;
	int32_t e;
};

void fxf_from_u64(struct fxf *a, uint64_t v);
void fxf_from_frac64(struct fxf *a, uint64_t f);          /* f / 2^64 */
void fxf_mul(struct fxf *a, const struct fxf *b);        /* a = a * b */
void fxf_mul_u32(struct fxf *a, uint32_t k);             /* a = a * k */
void fxf_div_u32(struct fxf *a, uint32_t k);             /* a = a / k; k != 0 */
void fxf_div(struct fxf *a, const struct fxf *b);        /* a = a / b; b != 0 */
void fxf_add(struct fxf *a, const struct fxf *b);        /* a = a + b */
void fxf_pow(struct fxf *a, uint32_t n);                 /* a = a^n */
int fxf_cmp(const struct fxf *a, const struct fxf *b);   /* -1, 0, 1 */

/*
 * CRITBINOM(n, p, 1 - 2^-beta_log2): the smallest k with
 * P(X <= k) >= 1 - 2^-beta_log2 for X ~ Binomial(n, p), p = p_frac / 2^64
 * (0 < p_frac). This is the spreadsheet function SP 800-90B 4.4.2 names.
 * The upper tail P(X > k) is summed in fxf arithmetic from its smallest
 * terms (64-bit mantissas: relative error about n * 2^-62, so only a tail
 * within that factor of 2^-beta_log2 could move the answer).
 * n < 2^32, 1 <= beta_log2 <= 1000. Work: O(n p + sqrt(n p) * beta) steps.
 */
uint32_t fx_critbinom(uint32_t n, uint64_t p_frac, unsigned beta_log2);

#endif
