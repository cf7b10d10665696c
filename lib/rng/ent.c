/* ent: the statistics of Walker's ent in integer arithmetic. See ent.h. */
#include "lib/rng/ent.h"

#include <string.h>

#include "lib/util/fmt.h"

#define MONTE_RADIUS	((uint64_t)0xffffff)	/* (256^3 - 1): ent's incirc is its square */

/* The double nearest to pi, 0x400921FB54442D18 = PI_D_MANT / 2^PI_D_SHIFT (ent's PI). */
#define PI_D_MANT	((uint64_t)7074237752028440)
#define PI_D_SHIFT	51

void ent_init(struct ent_ctx *c, bool bits)
{
	memset(c, 0, sizeof(*c));
	c->bits = bits;
}

static void add_sample(struct ent_ctx *c, unsigned s)
{
	if (c->n == 0)
		c->first = s;
	else
		c->t1 += (uint64_t)c->last * s;
	c->last = s;
	c->count[s]++;
	c->n++;
}

static void add_monte(struct ent_ctx *c, uint8_t byte)
{
	uint64_t x, y;

	c->monte[c->mp++] = byte;
	if (c->mp < ENT_MONTE_BYTES)
		return;
	c->mp = 0;
	x = (uint64_t)c->monte[0] << 16 | (uint64_t)c->monte[1] << 8 | c->monte[2];
	y = (uint64_t)c->monte[3] << 16 | (uint64_t)c->monte[4] << 8 | c->monte[5];
	c->points++;
	if (x * x + y * y <= MONTE_RADIUS * MONTE_RADIUS)
		c->inside++;
}

void ent_feed(struct ent_ctx *c, const uint8_t *buf, size_t len)
{
	size_t i;
	int j;

	for (i = 0; i < len; i++) {
		add_monte(c, buf[i]);
		if (!c->bits) {
			add_sample(c, buf[i]);
			continue;
		}
		for (j = 7; j >= 0; j--)
			add_sample(c, (buf[i] >> j) & 1);
	}
}

void ent_finish(const struct ent_ctx *c, struct ent_result *r)
{
	unsigned bins = c->bits ? 2 : 256, v;
	struct fx128 sq = { 0, 0 }, xlogx = { 0, 0 }, t3 = { 0, 0 }, num, den, t;
	uint64_t t2 = 0;

	memset(r, 0, sizeof(*r));
	r->bits = c->bits;
	r->n = c->n;
	r->points = c->points;
	r->inside = c->inside;
	for (v = 0; v < bins; v++) {
		uint64_t k = c->count[v];

		fx128_mac(&sq, k, k);
		fx128_mac(&xlogx, k, fx_log2(k));
		t2 += k * v;
		fx128_mac(&t3, k, (uint64_t)v * v);
	}
	r->sum = t2;
	if (c->n == 0)
		return;

	/* H = log2 n - (1/n) sum c_i log2 c_i */
	t = fx128_from(c->n);
	r->entropy_q48 = fx_log2(c->n) - fx128_divmod_ref(&xlogx, &t, 0).lo;
	/* chi-square * n = bins * sum c_i^2 - n^2 */
	fx128_mul128_ref(&r->chisq_num, &sq, bins);
	t = fx128_mul(c->n, c->n);
	fx128_sub_from(&r->chisq_num, &t);

	/* scc = (n t1 - t2^2) / (n t3 - t2^2), t = t2^2 */
	num = fx128_mul(c->t1 + (uint64_t)c->last * c->first, c->n);
	t = fx128_mul(t2, t2);
	fx128_mul128_ref(&den, &t3, c->n);
	fx128_sub_from(&den, &t);
	if (fx128_is_zero(den))
		return;                       /* all samples equal: undefined */
	r->scc_defined = true;
	r->scc_neg = fx128_absdiff(&r->scc_num, &num, &t);
	r->scc_den = den;
}

/* ---- printing ---- */

static const uint32_t powers10[10] = {
	1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000,
};

/* num / den to `decimals` places, half to even, with a sign when neg. */
static size_t put_ratio(char *buf, size_t n, bool neg, const struct fx128 *num,
			const struct fx128 *den, unsigned decimals)
{
	struct fx128 r;
	uint64_t whole, frac;

	if (decimals == 0)
		return fmt_snprintf(buf, n, "%s%llu", neg ? "-" : "",
				    (unsigned long long)fx128_div_round_ref(num, den));
	whole = fx128_divmod_ref(num, den, &r).lo;
	fx128_mul128_ref(&r, &r, powers10[decimals]);
	frac = fx128_div_round_ref(&r, den);
	if (frac == powers10[decimals]) {
		whole++;
		frac = 0;
	}
	return fmt_snprintf(buf, n, "%s%llu.%0*llu", neg ? "-" : "", (unsigned long long)whole,
			    (int)decimals, (unsigned long long)frac);
}

/*
 * a / b rounded to the nearest IEEE double (53-bit significand, ties to
 * even): *m / 2^*s. a, b > 0 and a / b between 2^-60 and 2^60.
 */
static void nearest_double(uint64_t a, uint64_t b, uint64_t *m, int *s)
{
	int sh = 52 - ((int)fx128_bits(fx128_from(a)) - (int)fx128_bits(fx128_from(b)));
	struct fx128 q, r, bb = fx128_from(b);

	for (;;) {
		struct fx128 aa = fx128_shl(fx128_from(a), (unsigned)sh);

		q = fx128_divmod(aa, bb, &r);
		if (q.hi == 0 && q.lo < (uint64_t)1 << 52) {
			sh++;
			continue;
		}
		if (q.hi || q.lo >= (uint64_t)1 << 53) {
			sh--;
			continue;
		}
		break;
	}
	{
		int c = fx128_cmp(r, fx128_sub(bb, r));

		if (c > 0 || (c == 0 && (q.lo & 1)))
			q.lo++;
	}
	*m = q.lo;
	*s = sh;
}

static struct fx128 pow2(int e)
{
	return fx128_shl(fx128_from(1), (unsigned)e);
}

/* Entropy, chi-square, serial correlation (see ent.h: ent_fmt). */
size_t ent_fmt_stat(const struct ent_result *r, enum ent_figure f, unsigned decimals,
		    char *buf, size_t n)
{
	struct fx128 num, den;

	if (decimals > 9)
		decimals = 9;
	switch (f) {
	case ENT_ENTROPY:
		num = fx128_from(r->entropy_q48);
		den = pow2(FX_LOG2_FRAC);
		return put_ratio(buf, n, false, &num, &den, decimals);
	case ENT_CHISQ:
		if (r->n == 0)
			break;
		den = fx128_from(r->n);
		return put_ratio(buf, n, false, &r->chisq_num, &den, decimals);
	case ENT_SCC:
		if (!r->scc_defined)
			return fmt_snprintf(buf, n, "-100000.%0*u", (int)decimals, 0u);
		return put_ratio(buf, n, r->scc_neg, &r->scc_num, &r->scc_den, decimals);
	default:	/* a figure of ent_fmt_value: ent_fmt never sends it here */
		break;
	}
	return fmt_snprintf(buf, n, "-nan");
}

/* Mean, Monte Carlo pi and its error, compression (see ent.h: ent_fmt). */
size_t ent_fmt_value(const struct ent_result *r, enum ent_figure f, unsigned decimals,
		     char *buf, size_t n)
{
	uint64_t bins_q48 = (r->bits ? 1 : 8) * FX_LOG2_ONE;
	struct fx128 num, den;
	uint64_t m, h;
	int s;

	if (decimals > 9)
		decimals = 9;
	switch (f) {
	case ENT_MEAN:
		if (r->n == 0)
			break;
		m = 0;
		s = 0;
		if (r->sum != 0)
			nearest_double(r->sum, r->n, &m, &s);
		num = fx128_from(m);
		den = pow2(s);
		return put_ratio(buf, n, false, &num, &den, decimals);
	case ENT_PI:
		if (r->points == 0)
			return fmt_snprintf(buf, n, "-nan");   /* 4.0 * (0.0 / 0) on x86 */
		m = 0;
		s = 2;
		if (r->inside != 0)
			nearest_double(r->inside, r->points, &m, &s);
		num = fx128_from(m);
		den = pow2(s - 2);
		return put_ratio(buf, n, false, &num, &den, decimals);
	case ENT_PI_ERROR: {
		struct fx128 pi, d;
		int t;

		if (r->points == 0)
			return fmt_snprintf(buf, n, "nan");
		if (r->inside == 0) {
			m = 0;
			s = PI_D_SHIFT;
		} else {
			nearest_double(r->inside, r->points, &m, &s);
			s -= 2;
		}
		/* 100 |pi_d - m/2^s| / pi_d over the common denominator 2^t */
		t = s > PI_D_SHIFT ? s : PI_D_SHIFT;
		pi = fx128_shl(fx128_from(PI_D_MANT), (unsigned)(t - PI_D_SHIFT));
		d = fx128_shl(fx128_from(m), (unsigned)(t - s));
		fx128_absdiff(&num, &pi, &d);
		fx128_mul128_ref(&num, &num, 100);
		return put_ratio(buf, n, false, &num, &pi, decimals);
	}
	case ENT_COMPRESSION:
		/* ent: (short)(100 * (bits per sample - entropy) / bits per sample) */
		h = r->entropy_q48 < bins_q48 ? r->entropy_q48 : bins_q48;
		return fmt_snprintf(buf, n, "%llu", (unsigned long long)
				    fx128_divmod(fx128_mul(bins_q48 - h, 100), fx128_from(bins_q48), 0).lo);
	default:	/* a figure of ent_fmt_stat */
		break;
	}
	return fmt_snprintf(buf, n, "-nan");
}

/* Entropy, chi-square, serial correlation (see ent.h: ent_micro). */
int64_t ent_micro_stat(const struct ent_result *r, enum ent_figure f)
{
	struct fx128 m, d;

	switch (f) {
	case ENT_ENTROPY:
		m = fx128_mul(r->entropy_q48, 1000000);
		d = pow2(FX_LOG2_FRAC);
		return (int64_t)fx128_div_round_ref(&m, &d);
	case ENT_CHISQ:
		if (r->n == 0)
			return 0;
		fx128_mul128_ref(&m, &r->chisq_num, 1000000);
		d = fx128_from(r->n);
		return (int64_t)fx128_div_round_ref(&m, &d);
	case ENT_SCC:
		if (!r->scc_defined)
			return -100000 * (int64_t)1000000;
		fx128_mul128_ref(&m, &r->scc_num, 1000000);
		return (r->scc_neg ? -1 : 1) * (int64_t)fx128_div_round_ref(&m, &r->scc_den);
	default:	/* a figure of ent_micro_value */
		break;
	}
	return 0;
}

/* Mean and Monte Carlo pi; 0 for the percentages (see ent.h: ent_micro). */
int64_t ent_micro_value(const struct ent_result *r, enum ent_figure f)
{
	switch (f) {
	case ENT_MEAN:
		return r->n ? (int64_t)fx128_div_round(fx128_mul(r->sum, 1000000), fx128_from(r->n)) : 0;
	case ENT_PI:
		return r->points ? (int64_t)fx128_div_round(fx128_mul(r->inside, 4000000),
							    fx128_from(r->points)) : 0;
	default:	/* the percentages, and the figures of ent_micro_stat */
		break;
	}
	return 0;
}
