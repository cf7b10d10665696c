/* bench_stats: integer statistics and layout of the benchmark report. See bench_stats.h. */
#include "lib/measure/bench_stats.h"

#include <stdarg.h>
#include <string.h>

#include "lib/measure/fixmath.h"
#include "lib/util/fmt.h"

/* ---- 128-bit unsigned arithmetic: lib/measure/fixmath's fx128 ---- */

/* round(n / d), halves up; BSTAT_SATURATED if d is 0 or the result needs more than 64 bits. */
static uint64_t u128_div_round(struct fx128 n, struct fx128 d)
{
	struct fx128 q;

	if (fx128_is_zero(d))
		return BSTAT_SATURATED;
	/* 2r >= d: up (q + 1 cannot wrap: q = 2^128 - 1 only for d = 1, r = 0) */
	if (fx128_div_half(&q, &n, &d) >= 0 && ++q.lo == 0)
		q.hi++;
	if (q.hi != 0 || q.lo == BSTAT_SATURATED)
		return BSTAT_SATURATED;
	return q.lo;
}

uint64_t bstat_muldiv(uint64_t a, uint64_t b, uint64_t c)
{
	return u128_div_round(fx128_mul(a, b), fx128_from(c));
}

/* ---- Repetitions ---- */

/* Copies n (<= BSTAT_MAX_REPS) values into s, ascending (insertion sort). */
static void sorted_copy(const uint64_t *v, unsigned n, uint64_t *s)
{
	unsigned i, j;

	for (i = 0; i < n; i++) {
		uint64_t x = v[i];
		for (j = i; j > 0 && s[j - 1] > x; j--)
			s[j] = s[j - 1];
		s[j] = x;
	}
}

uint64_t bstat_median(const uint64_t *v, unsigned n)
{
	uint64_t s[BSTAT_MAX_REPS], a, b;

	if (n == 0 || n > BSTAT_MAX_REPS)
		return 0;
	sorted_copy(v, n, s);
	if (n & 1)
		return s[n / 2];
	a = s[n / 2 - 1];
	b = s[n / 2];
	return a + (b - a) / 2;		/* no overflow, rounded down */
}

uint32_t bstat_spread_x10(const uint64_t *v, unsigned n)
{
	uint64_t lo, hi, med, r;
	unsigned i;

	if (n < 2 || n > BSTAT_MAX_REPS)
		return 0;
	lo = hi = v[0];
	for (i = 1; i < n; i++) {
		if (v[i] < lo)
			lo = v[i];
		if (v[i] > hi)
			hi = v[i];
	}
	med = bstat_median(v, n);
	if (med == 0)
		return UINT32_MAX;
	r = bstat_muldiv(hi - lo, 1000, med);
	return r > UINT32_MAX ? UINT32_MAX : (uint32_t)r;
}

/* ---- Units ---- */

uint64_t bstat_kbps_x100(uint64_t bytes, uint64_t cycles, uint64_t hz)
{
	/* bytes / (cycles / hz) / 1000 * 100 = bytes * hz / (cycles * 10) */
	return u128_div_round(fx128_mul(bytes, hz), fx128_mul(cycles, 10));
}

uint64_t bstat_cpb_x100(uint64_t cycles, uint64_t bytes)
{
	return bstat_muldiv(cycles, 100, bytes);
}

uint64_t bstat_per_second(uint64_t count, uint64_t cycles, uint64_t hz)
{
	return bstat_muldiv(count, hz, cycles);
}

/* ---- Weighted least squares ---- */

/* Largest coefficient magnitude a fit returns: differences of two stay in int64. */
#define FIT_COEF_MAX	(1ll << 60)
#define FIT_W_BITS	24		/* weights are integers 1 .. 2^24 (the best point's) */
#define FIT_RESID_MAX	(1ull << 48)	/* larger residuals: the errors saturate */

/* round(n / d), halves away from zero, for a sign and magnitudes; false if over FIT_COEF_MAX. */
static bool signed_div_round(bool neg, const struct fx128 *mag, const struct fx128 *d,
			     int64_t *out)
{
	uint64_t q = u128_div_round(*mag, *d);

	if (q > (uint64_t)FIT_COEF_MAX)
		return false;
	*out = neg ? -(int64_t)q : (int64_t)q;
	return true;
}

/* (a - b) / d rounded, halves away from zero; false if |result| > FIT_COEF_MAX. */
static bool diff_div_round(const struct fx128 *a, const struct fx128 *b, const struct fx128 *d,
			   int64_t *out)
{
	struct fx128 mag;
	bool neg = fx128_absdiff(&mag, a, b);

	return signed_div_round(neg, &mag, d, out);
}

/*
 * sqrt(scale * num / den), rounded down, saturating at BSTAT_SATURATED:
 * isqrt(scale) times isqrt(num * 2^(2f) / den) / 2^f, with f as large as
 * num leaves room for (at least 20 significant bits in the second root
 * for the ratios a fit produces).
 */
static uint64_t sqrt_scaled_ratio(const struct fx128 *scale, uint64_t num, const struct fx128 *den)
{
	unsigned f = num ? (126 - fx128_bits(fx128_from(num))) / 2 : 0;
	struct fx128 t, p;

	if (num == 0 || fx128_is_zero(*den))
		return num ? BSTAT_SATURATED : 0;
	t = fx128_divmod(fx128_shl(fx128_from(num), 2 * f), *den, NULL);
	p = fx128_shr(fx128_mul(fx128_isqrt_ref(scale), fx128_isqrt_ref(&t)), f);
	return p.hi != 0 || p.lo == BSTAT_SATURATED ? BSTAT_SATURATED : p.lo;
}

/*
 * Weights W_i = round(2^24 sigma_min^2 / sigma_i^2), at least 1, so that
 * w_i = 1 / sigma_i^2 = W_i / c with c = 2^24 sigma_min^2. Normal equations
 * of y = a + b x in the W_i (S = sum W, Sx = sum W x, ...), D = S Sxx - Sx^2:
 *   b = (S Sxy - Sx Sy) / D,   a = (Sy Sxx - Sx Sxy) / D,
 *   Var(a) = k Sxx / D,   Var(b) = k S / D,
 * with k = c (the sigmas as given) or, when larger, the residuals' own
 * scale sum W r^2 / (n - 2) (the sigmas understated the scatter: the
 * reduced chi-square exceeds 1). Bounds (n <= 8, x <= 2^15, y <= 2^42,
 * W <= 2^24): S <= 2^27, Sx <= 2^42, Sxx <= 2^57, Sy <= 2^69, Sxy <= 2^84;
 * Sy Sxx and Sx Sxy stay under 2^126, D under 2^84; W r^2 under 2^120
 * (|r| < FIT_RESID_MAX).
 */
bool bstat_fit_weighted(const uint32_t *x, const uint64_t *y_x100, const uint64_t *sigma_x100,
			unsigned n, struct bstat_fit *fit)
{
	uint64_t sig[BSTAT_MAX_POINTS], w[BSTAT_MAX_POINTS], smin = BSTAT_SATURATED;
	uint64_t s = 0, sx = 0, sxx = 0;
	struct fx128 sy = { 0, 0 }, sxy = { 0, 0 }, d, p, q, c, chi = { 0, 0 };
	bool resid_ok = true;
	unsigned i;

	memset(fit, 0, sizeof(*fit));
	if (n < 2 || n > BSTAT_MAX_POINTS)
		return false;
	for (i = 0; i < n; i++) {
		if (x[i] > BSTAT_MAX_X || y_x100[i] > BSTAT_MAX_Y)
			return false;
		sig[i] = sigma_x100 && sigma_x100[i] ? sigma_x100[i] : 1;
		if (sig[i] > BSTAT_MAX_Y)
			sig[i] = BSTAT_MAX_Y;
		if (sig[i] < smin)
			smin = sig[i];
	}
	c = fx128_shl(fx128_mul(smin, smin), FIT_W_BITS);
	for (i = 0; i < n; i++) {
		struct fx128 s2 = fx128_mul(sig[i], sig[i]);
		uint64_t wi = u128_div_round(c, s2);

		w[i] = wi ? wi : 1;
		s += w[i];
		sx += w[i] * x[i];
		sxx += w[i] * x[i] * (uint64_t)x[i];
		fx128_mac(&sy, w[i], y_x100[i]);
		fx128_mac(&sxy, w[i] * x[i], y_x100[i]);
	}
	d = fx128_mul(s, sxx);
	p = fx128_mul(sx, sx);
	if (fx128_cmp(d, p) <= 0)
		return false;		/* all x equal (D = 0; never negative, Cauchy-Schwarz) */
	fx128_sub_from(&d, &p);
	fx128_mul128_ref(&p, &sxy, s);
	fx128_mul128_ref(&q, &sy, sx);
	if (!diff_div_round(&p, &q, &d, &fit->per_byte_x100))
		return false;
	fx128_mul128_ref(&p, &sy, sxx);
	fx128_mul128_ref(&q, &sxy, sx);
	if (!diff_div_round(&p, &q, &d, &fit->fixed_x100))
		return false;
	/* The residuals' scale, sum W r^2 / (n - 2), where there are degrees of freedom left. */
	if (n > 2 && (fit->per_byte_x100 < -(1ll << 46) || fit->per_byte_x100 > (1ll << 46)))
		resid_ok = false;	/* b x could overflow: no residuals, errors saturate */
	for (i = 0; n > 2 && resid_ok && i < n; i++) {
		int64_t r = (int64_t)y_x100[i] - fit->fixed_x100 - fit->per_byte_x100 * (int64_t)x[i];
		uint64_t m = r < 0 ? (uint64_t)-r : (uint64_t)r;

		if (m >= FIT_RESID_MAX) {
			resid_ok = false;
			break;
		}
		p = fx128_mul(m, m);
		fx128_mul128_ref(&p, &p, w[i]);
		fx128_add_to(&chi, &p);
	}
	if (n > 2 && resid_ok) {
		chi = fx128_divmod(chi, fx128_from(n - 2), NULL);
		if (fx128_cmp(chi, c) > 0)
			c = chi;
	}
	if (!resid_ok) {
		fit->fixed_err_x100 = fit->per_byte_err_x100 = BSTAT_SATURATED;
	} else {
		fit->fixed_err_x100 = sqrt_scaled_ratio(&c, sxx, &d);
		fit->per_byte_err_x100 = sqrt_scaled_ratio(&c, s, &d);
	}
	fit->ok = true;
	return true;
}

bool bstat_fit_line(const uint32_t *x, const uint64_t *y_x100, unsigned n,
		    struct bstat_fit *fit)
{
	return bstat_fit_weighted(x, y_x100, NULL, n, fit);
}

bool bstat_fit_precise(const struct bstat_fit *fit)
{
	int64_t bound;

	if (!fit->ok || fit->fixed_x100 <= -50)		/* rounds to a negative whole cycle */
		return false;
	bound = fit->fixed_x100 / 4;
	if (fit->per_byte_x100 > 0 && BSTAT_FIXED_ERR_BLOCK * fit->per_byte_x100 > bound)
		bound = BSTAT_FIXED_ERR_BLOCK * fit->per_byte_x100;
	return bound >= 0 && fit->fixed_err_x100 <= (uint64_t)bound;
}

uint64_t bstat_cell_sigma_x100(uint64_t cycles, uint64_t ops, uint32_t spread_x10)
{
	uint64_t s;

	if (ops == 0)
		return BSTAT_SATURATED;
	/* cycles x max(spread, 1) / 1000 per run, x 100 per operation */
	s = u128_div_round(fx128_mul(cycles, spread_x10 > 1 ? spread_x10 : 1),
			   fx128_mul(ops, 10));
	return s ? s : 1;
}

/*
 * The sign of f(x) = da + db x (-1, 0, 1) for |da|, |db| <= 2^61 and x <
 * 2^32, in 128 bits: the positive and the negative terms apart.
 */
static int sign_at(int64_t da, int64_t db, uint64_t x)
{
	struct fx128 pos = { 0, 0 }, neg = { 0, 0 }, t;

	t = fx128_from(da < 0 ? (uint64_t)-da : (uint64_t)da);
	fx128_add_to(da < 0 ? &neg : &pos, &t);
	t = fx128_mul(db < 0 ? (uint64_t)-db : (uint64_t)db, x);
	fx128_add_to(db < 0 ? &neg : &pos, &t);
	return fx128_cmp(pos, neg);
}

/*
 * The engine is faster at x bytes when f(x) = da + db x < 0, with da, db
 * the engine's fixed and per-byte cost minus the reference's. A straight
 * line changes sign at most once, so f at the two ends of the measured
 * range decides the kind, and the crossing lies strictly inside it.
 */
struct bstat_breakeven bstat_breakeven(const struct bstat_fit *engine,
				       const struct bstat_fit *ref,
				       uint32_t smallest, uint32_t largest)
{
	struct bstat_breakeven be = { BSTAT_BE_NEVER, 0 };
	bool wins_small, wins_large;
	int64_t da, db;

	if (!engine->ok || !ref->ok || smallest == 0 || largest < smallest)
		return be;
	da = engine->fixed_x100 - ref->fixed_x100;
	db = engine->per_byte_x100 - ref->per_byte_x100;
	wins_small = sign_at(da, db, smallest) < 0;
	wins_large = sign_at(da, db, largest) < 0;
	if (wins_small && wins_large) {
		be.kind = BSTAT_BE_ALWAYS;
	} else if (wins_large) {
		/* db < 0 and da >= -db x_small > 0: faster from the first x > da / -db. */
		be.kind = BSTAT_BE_FROM;
		be.bytes = (uint64_t)da / (uint64_t)-db + 1;
	} else if (wins_small) {
		/* db > 0 and -da > db x_small: faster only below the first x >= -da / db. */
		uint64_t num = (uint64_t)-da, den = (uint64_t)db;
		be.kind = BSTAT_BE_BELOW;
		be.bytes = num / den + (num % den != 0);
	}
	return be;
}

size_t bstat_format_breakeven(char *buf, size_t n, const struct bstat_breakeven *b)
{
	switch (b->kind) {
	case BSTAT_BE_ALWAYS:
		return fmt_snprintf(buf, n, "always");
	case BSTAT_BE_FROM:
		return fmt_snprintf(buf, n, "%llu", (unsigned long long)b->bytes);
	case BSTAT_BE_BELOW:
		return fmt_snprintf(buf, n, "below_%llu", (unsigned long long)b->bytes);
	case BSTAT_BE_NEVER:
	default:
		return fmt_snprintf(buf, n, "never");
	}
}

/* ---- Layout ---- */

/* Appends to buf (capacity n) at *len, as snprintf would; *len counts the whole output. */
static void append(char *buf, size_t n, size_t *len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (*len < n)
		*len += fmt_vsnprintf(buf + *len, n - *len, fmt, ap);
	else
		*len += fmt_vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
}

size_t bstat_format_kbps(char *buf, size_t n, uint64_t kbps_x100)
{
	size_t len = 0;

	if (n > 0)
		buf[0] = '\0';
	if (kbps_x100 > (uint64_t)INT64_MAX)
		kbps_x100 = (uint64_t)INT64_MAX;	/* unreachable in practice: 9e16 kB/s */
	len = fmt_fixed(buf, n, (int64_t)kbps_x100, 2);
	append(buf, n, &len, "k");
	return len;
}

size_t bstat_format_header(char *buf, size_t n, unsigned name_width,
			   const uint32_t *sizes, unsigned nsizes)
{
	size_t len = 0;
	unsigned i;

	if (n > 0)
		buf[0] = '\0';
	append(buf, n, &len, "%-*s", (int)name_width, "type");
	for (i = 0; i < nsizes; i++)
		append(buf, n, &len, "%*u bytes", BSTAT_COL_WIDTH - 6, (unsigned)sizes[i]);
	return len;
}

size_t bstat_format_row(char *buf, size_t n, unsigned name_width, const char *name,
			const char *const *cells, unsigned ncells)
{
	size_t len = 0;
	unsigned i;

	if (n > 0)
		buf[0] = '\0';
	append(buf, n, &len, "%-*s", (int)name_width, name);
	for (i = 0; i < ncells; i++)
		append(buf, n, &len, " %*s", BSTAT_COL_WIDTH - 1, cells[i]);
	return len;
}
