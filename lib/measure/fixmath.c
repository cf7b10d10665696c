/* fixmath: 128-bit integers, fixed-point log2/exp2, extended floats. See fixmath.h. */
#include "lib/measure/fixmath.h"

/* ---- 128-bit unsigned integers ---- */

struct fx128 fx128_from(uint64_t v)
{
	struct fx128 r = { 0, v };
	return r;
}

/* Four 32 x 32 -> 64-bit products: no 64 x 64 multiply instruction on i386. */
struct fx128 fx128_mul(uint64_t a, uint64_t b)
{
	uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
	struct fx128 r;

	r.lo = (mid << 32) | (uint32_t)ll;
	r.hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
	return r;
}

void fx128_mul128_ref(struct fx128 *r, const struct fx128 *a, uint64_t b)
{
	struct fx128 t = fx128_mul(a->lo, b);

	t.hi += a->hi * b;
	*r = t;
}

struct fx128 fx128_add(struct fx128 a, struct fx128 b)
{
	struct fx128 r;

	r.lo = a.lo + b.lo;
	r.hi = a.hi + b.hi + (r.lo < a.lo);
	return r;
}

struct fx128 fx128_sub(struct fx128 a, struct fx128 b)
{
	struct fx128 r;

	r.lo = a.lo - b.lo;
	r.hi = a.hi - b.hi - (a.lo < b.lo);
	return r;
}

struct fx128 fx128_shl(struct fx128 a, unsigned n)
{
	struct fx128 r;

	if (n == 0)
		return a;
	if (n >= 64) {
		r.hi = a.lo << (n - 64);
		r.lo = 0;
	} else {
		r.hi = (a.hi << n) | (a.lo >> (64 - n));
		r.lo = a.lo << n;
	}
	return r;
}

struct fx128 fx128_shr(struct fx128 a, unsigned n)
{
	struct fx128 r;

	if (n == 0)
		return a;
	if (n >= 64) {
		r.lo = a.hi >> (n - 64);
		r.hi = 0;
	} else {
		r.lo = (a.lo >> n) | (a.hi << (64 - n));
		r.hi = a.hi >> n;
	}
	return r;
}

int fx128_cmp(struct fx128 a, struct fx128 b)
{
	if (a.hi != b.hi)
		return a.hi < b.hi ? -1 : 1;
	if (a.lo != b.lo)
		return a.lo < b.lo ? -1 : 1;
	return 0;
}

bool fx128_is_zero(struct fx128 a)
{
	return a.hi == 0 && a.lo == 0;
}

/*
 * The in-place helpers stay out of line (noinline): a call is a few bytes,
 * their inlined 64-bit carries and compares several dozen at every site.
 */
__attribute__((noinline)) void fx128_add_to(struct fx128 *acc, const struct fx128 *b)
{
	*acc = fx128_add(*acc, *b);
}

__attribute__((noinline)) void fx128_sub_from(struct fx128 *acc, const struct fx128 *b)
{
	*acc = fx128_sub(*acc, *b);
}

__attribute__((noinline)) void fx128_mac(struct fx128 *acc, uint64_t a, uint64_t b)
{
	struct fx128 p = fx128_mul(a, b);

	fx128_add_to(acc, &p);
}

__attribute__((noinline)) bool fx128_absdiff(struct fx128 *r, const struct fx128 *a,
					     const struct fx128 *b)
{
	bool neg = fx128_cmp(*a, *b) < 0;
	struct fx128 t = neg ? *b : *a;

	fx128_sub_from(&t, neg ? a : b);
	*r = t;
	return neg;
}

static unsigned bits64(uint64_t v)
{
	unsigned n = 0;

	while (v) {
		n++;
		v >>= 1;
	}
	return n;
}

unsigned fx128_bits(struct fx128 a)
{
	return a.hi ? 64 + bits64(a.hi) : bits64(a.lo);
}

/* *a = *a * 2 + in (modulo 2^128); returns the bit shifted out of the top. */
static unsigned shl1(struct fx128 *a, unsigned in)
{
	unsigned out = (unsigned)(a->hi >> 63);

	a->hi = a->hi << 1 | a->lo >> 63;
	a->lo = a->lo << 1 | in;
	return out;
}

/*
 * Restoring long division, one quotient bit per step from the top of n:
 * n is shifted up to bit 127 and then out into r, one bit a step, while
 * the quotient bits shift in at its bottom; after bits(n) steps n is q.
 */
struct fx128 fx128_divmod_ref(const struct fx128 *np, const struct fx128 *d, struct fx128 *rem)
{
	struct fx128 n = *np, r = { 0, 0 };
	unsigned i = 128;

	for (; i > 0 && !(n.hi >> 63); i--)   /* i = bits(n) */
		shl1(&n, 0);
	while (i--) {
		/* over: r doubled would pass 2^128, surely >= d */
		unsigned over = shl1(&r, shl1(&n, 0));

		if (over || fx128_cmp(r, *d) >= 0) {
			fx128_sub_from(&r, d);
			n.lo |= 1;
		}
	}
	if (rem)
		*rem = r;
	return n;
}

uint64_t fx128_isqrt_ref(const struct fx128 *n)
{
	uint64_t root = 0;
	int bit;

	for (bit = 63; bit >= 0; bit--) {
		uint64_t c = root | ((uint64_t)1 << bit);

		if (fx128_cmp(fx128_mul(c, c), *n) <= 0)
			root = c;
	}
	return root;
}

int fx128_div_half(struct fx128 *q, const struct fx128 *n, const struct fx128 *d)
{
	struct fx128 r, h = *d;

	*q = fx128_divmod_ref(n, d, &r);
	fx128_sub_from(&h, &r);                  /* r against d - r, i.e. 2r against d */
	return fx128_cmp(r, h);
}

uint64_t fx128_div_round_ref(const struct fx128 *n, const struct fx128 *d)
{
	struct fx128 q;
	int c = fx128_div_half(&q, n, d);

	if (c > 0 || (c == 0 && (q.lo & 1)))
		q.lo++;
	return q.lo;
}

/* ---- fixed point ---- */

uint64_t fx_log2(uint64_t x)
{
	unsigned k, i;
	uint64_t m, frac = 0;

	if (x == 0)
		return 0;
	k = bits64(x) - 1;
	m = x << (63 - k);              /* x / 2^k in [1, 2), 63 fraction bits */
	for (i = 1; i <= FX_LOG2_FRAC; i++) {
		struct fx128 sq = fx128_mul(m, m);   /* m^2 in [1, 4), 126 fraction bits */

		if (sq.hi >> 63) {           /* m^2 >= 2: this binary digit of log2 is 1 */
			frac |= (uint64_t)1 << (FX_LOG2_FRAC - i);
			m = sq.hi;           /* m^2 / 2, 63 fraction bits */
		} else {
			m = fx128_shr(sq, 63).lo;
		}
	}
	return ((uint64_t)k << FX_LOG2_FRAC) | frac;
}

#define EXP2_FRAC_BITS	40	/* binary digits kept of the fraction of h */
#define MICRO		1000000u

uint64_t fx_exp2_neg_micro(uint32_t h_micro)
{
	uint32_t whole = h_micro / MICRO, f = h_micro % MICRO;
	uint64_t fb = (((uint64_t)f << EXP2_FRAC_BITS) + MICRO / 2) / MICRO;
	uint64_t acc = (uint64_t)1 << 63;   /* 1.0 with 63 fraction bits */
	uint64_t root = (uint64_t)1 << 62;  /* 2^-1 before the first square root */
	int bit;

	if (whole >= 64)
		return 0;
	if (fb >> EXP2_FRAC_BITS) {         /* f rounded up to 1.0 */
		fb = 0;
		whole++;
	}
	/* fb's bit (40 - j) weighs 2^-j: multiply by 2^-(2^-j) = the j-th root in the chain */
	for (bit = EXP2_FRAC_BITS - 1; bit >= 0; bit--) {
		struct fx128 t = { root >> 1, root << 63 };   /* root * 2^63 */

		root = fx128_isqrt_ref(&t);     /* 2^-1/2, 2^-1/4, ... */
		if ((fb >> bit) & 1) {
			t = fx128_mul(acc, root);
			acc = t.hi << 1 | t.lo >> 63;   /* acc * root / 2^63 */
		}
	}
	if (whole >= 64)
		return 0;
	if (whole == 0 && acc >> 63)        /* h = 0: 1.0 does not fit */
		return ~(uint64_t)0;
	return whole ? acc >> (whole - 1) : acc << 1;   /* 64 fraction bits */
}

/* ---- extended floats ---- */

/*
 * *r = v * 2^e, normalised: the top 64 bits of v, truncated. v is shifted
 * up until its top bit is set (a product of two mantissas needs at most one
 * step, and fx128_bits would count every bit).
 */
static void fxf_norm128(struct fxf *r, const struct fx128 *v, int32_t e)
{
	uint64_t hi = v->hi, lo = v->lo;

	if (hi == 0) {           /* v fits 64 bits: start from lo */
		hi = lo;
		lo = 0;
		e -= 64;
	}
	r->m = 0;
	r->e = 0;
	if (hi == 0)
		return;
	e += 64;
	while (!(hi >> 63)) {
		hi = hi << 1 | lo >> 63;
		lo <<= 1;
		e--;
	}
	r->m = hi;
	r->e = e;
}

void fxf_from_u64(struct fxf *a, uint64_t v)
{
	struct fx128 t = fx128_from(v);

	fxf_norm128(a, &t, 0);
}

void fxf_from_frac64(struct fxf *a, uint64_t f)
{
	struct fx128 t = fx128_from(f);

	fxf_norm128(a, &t, -64);
}

void fxf_mul(struct fxf *a, const struct fxf *b)
{
	struct fx128 t;

	if (a->m == 0 || b->m == 0) {
		fxf_from_u64(a, 0);
		return;
	}
	t = fx128_mul(a->m, b->m);
	fxf_norm128(a, &t, a->e + b->e);
}

void fxf_mul_u32(struct fxf *a, uint32_t k)
{
	struct fx128 t;

	if (a->m == 0 || k == 0) {
		fxf_from_u64(a, 0);
		return;
	}
	t = fx128_mul(a->m, k);
	fxf_norm128(a, &t, a->e);
}

/* (m * 2^64) / k by 32-bit limbs: four 64 / 32-bit divisions. */
void fxf_div_u32(struct fxf *a, uint32_t k)
{
	uint32_t limb[4] = { (uint32_t)(a->m >> 32), (uint32_t)a->m, 0, 0 };
	uint32_t q[4];
	uint64_t rem = 0;
	struct fx128 v;
	int i;

	for (i = 0; i < 4; i++) {
		uint64_t cur = (rem << 32) | limb[i];

		q[i] = (uint32_t)(cur / k);
		rem = cur % k;
	}
	v.hi = ((uint64_t)q[0] << 32) | q[1];
	v.lo = ((uint64_t)q[2] << 32) | q[3];
	fxf_norm128(a, &v, a->e - 64);
}

void fxf_div(struct fxf *a, const struct fxf *b)
{
	struct fx128 n = { a->m, 0 };

	if (a->m == 0)
		return;
	n = fx128_divmod(n, fx128_from(b->m), 0);
	fxf_norm128(a, &n, a->e - b->e - 64);
}

void fxf_add(struct fxf *a, const struct fxf *b)
{
	struct fxf big = *a, small = *b;
	uint32_t d;
	uint64_t sum;

	if (a->m == 0) {
		*a = *b;
		return;
	}
	if (b->m == 0)
		return;
	if (b->e > a->e) {
		big = *b;
		small = *a;
	}
	d = (uint32_t)(big.e - small.e);
	if (d < 64) {
		sum = big.m + (small.m >> d);
		if (sum < big.m) {                 /* carry out of bit 63 */
			big.m = (sum >> 1) | ((uint64_t)1 << 63);
			big.e++;
		} else {
			big.m = sum;
		}
	}
	*a = big;
}

void fxf_pow(struct fxf *a, uint32_t n)
{
	struct fxf x = *a;

	fxf_from_u64(a, 1);
	while (n) {
		if (n & 1)
			fxf_mul(a, &x);
		n >>= 1;
		if (n)
			fxf_mul(&x, &x);
	}
}

int fxf_cmp(const struct fxf *a, const struct fxf *b)
{
	if (a->m == 0 || b->m == 0) {
		if (a->m == b->m)
			return 0;
		return a->m == 0 ? -1 : 1;
	}
	if (a->e != b->e)
		return a->e < b->e ? -1 : 1;
	if (a->m != b->m)
		return a->m < b->m ? -1 : 1;
	return 0;
}

/* P(X = k') from P(X = k) for a neighbour k': pmf * ratio * mul / div. */
static void pmf_step(struct fxf *pmf, const struct fxf *ratio, uint32_t mul, uint32_t div)
{
	fxf_mul(pmf, ratio);
	fxf_mul_u32(pmf, mul);
	fxf_div_u32(pmf, div);
}

/*
 * Walk up from P(X = 0) = (1 - p)^n to a k_hi past the mean where
 * P(X = k_hi) < 2^-(beta + 64), then back down summing the upper tail
 * T(k) = P(X > k) from its smallest terms: every term is positive and
 * computed from its neighbour by one ratio, so the sum keeps a relative
 * error near k * 2^-62 however small 2^-beta is. The answer is the
 * smallest k with T(k) <= 2^-beta.
 */
uint32_t fx_critbinom(uint32_t n, uint64_t p_frac, unsigned beta_log2)
{
	struct fxf p, q, up, down, pmf, tail = { 0, 0 };
	struct fxf beta = { (uint64_t)1 << 63, -63 - (int32_t)beta_log2 };   /* 2^-beta */
	int32_t tiny_e = -(int32_t)beta_log2 - 64 - 64;   /* pmf below 2^-(beta+64) */
	uint64_t mean = fx128_mul(n, p_frac).hi;      /* floor(n p) */
	uint32_t k = 0;

	if (p_frac == 0)
		return 0;
	fxf_from_frac64(&p, p_frac);
	fxf_from_frac64(&q, 0 - p_frac);               /* 1 - p */
	up = p;
	fxf_div(&up, &q);
	down = q;
	fxf_div(&down, &p);
	pmf = q;
	fxf_pow(&pmf, n);                              /* P(X = 0) */
	/* k <= mean is k * 2^64 <= n p * 2^64 */
	while (k < n && (k <= mean || (pmf.m != 0 && pmf.e > tiny_e))) {
		/* P(X = k+1) = P(X = k) * (n - k) / (k + 1) * p / (1 - p) */
		pmf_step(&pmf, &up, n - k, k + 1);
		k++;
	}
	/* now T(k) is negligible; T(k-1) = T(k) + P(X = k) */
	while (k > 0) {
		fxf_add(&tail, &pmf);
		if (fxf_cmp(&tail, &beta) > 0)
			return k;
		/* P(X = k-1) = P(X = k) * k / (n - k + 1) * (1 - p) / p */
		pmf_step(&pmf, &down, k, n - k + 1);
		k--;
	}
	return 0;
}
