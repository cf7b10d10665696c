/* bench_stats: integer statistics and layout of the benchmark report. See bench_stats.h. */
#include "lib/measure/bench_stats.h"

#include <stdarg.h>

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

/* ---- Least squares ---- */

/* Largest coefficient magnitude a fit returns: differences of two stay in int64. */
#define FIT_COEF_MAX	(1ll << 60)

/*
 * round((a - b) / den) for unsigned a, b and den > 0, halves away from
 * zero, into *out; false if |result| > FIT_COEF_MAX.
 */
static bool diff_div_round(const struct fx128 *a, const struct fx128 *b, uint64_t den,
			   int64_t *out)
{
	struct fx128 mag;
	bool neg = fx128_absdiff(&mag, a, b);
	uint64_t q = u128_div_round(mag, fx128_from(den));

	if (q > (uint64_t)FIT_COEF_MAX)
		return false;
	*out = neg ? -(int64_t)q : (int64_t)q;
	return true;
}

/*
 * Normal equations of y = a + b x over n points, with
 * D = n Sxx - Sx^2:  b = (n Sxy - Sx Sy) / D,  a = (Sy Sxx - Sx Sxy) / D.
 * Bounds (n <= 16, x <= 2^20, y <= 2^50): Sx < 2^25, Sxx < 2^45,
 * Sy < 2^54, Sxy < 2^75; every product below stays under 2^100.
 */
bool bstat_fit_line(const uint32_t *x, const uint64_t *y_x100, unsigned n,
		    struct bstat_fit *fit)
{
	uint64_t sx = 0, sxx = 0, sy = 0, d;
	struct fx128 sxy = { 0, 0 }, a, b;
	unsigned i;

	fit->ok = false;
	fit->fixed_x100 = 0;
	fit->per_byte_x100 = 0;
	if (n < 2 || n > BSTAT_MAX_POINTS)
		return false;
	for (i = 0; i < n; i++) {
		if (x[i] > BSTAT_MAX_X || y_x100[i] > BSTAT_MAX_Y)
			return false;
		sx += x[i];
		sxx += (uint64_t)x[i] * x[i];
		sy += y_x100[i];
		fx128_mac(&sxy, x[i], y_x100[i]);
	}
	d = n * sxx - sx * sx;		/* >= 0 (Cauchy-Schwarz); 0 when all x are equal */
	if (d == 0)
		return false;
	fx128_mul128_ref(&a, &sxy, n);
	b = fx128_mul(sx, sy);
	if (!diff_div_round(&a, &b, d, &fit->per_byte_x100))
		return false;
	a = fx128_mul(sy, sxx);
	fx128_mul128_ref(&b, &sxy, sx);
	if (!diff_div_round(&a, &b, d, &fit->fixed_x100))
		return false;
	fit->ok = true;
	return true;
}

/*
 * The engine is faster at x bytes when f(x) = da + db x < 0, with da, db
 * the engine's fixed and per-byte cost minus the reference's (|da|, |db|
 * <= 2^61, so f(1) cannot overflow).
 */
struct bstat_breakeven bstat_breakeven(const struct bstat_fit *engine,
				       const struct bstat_fit *ref)
{
	struct bstat_breakeven be = { BSTAT_BE_NEVER, 0 };
	int64_t da, db;

	if (!engine->ok || !ref->ok)
		return be;
	da = engine->fixed_x100 - ref->fixed_x100;
	db = engine->per_byte_x100 - ref->per_byte_x100;
	if (db == 0) {
		be.kind = da < 0 ? BSTAT_BE_ALWAYS : BSTAT_BE_NEVER;
	} else if (db < 0) {
		/* Decreasing: faster from the first x > da / -db (da >= -db > 0 here). */
		if (da + db < 0) {
			be.kind = BSTAT_BE_ALWAYS;
		} else {
			be.kind = BSTAT_BE_FROM;
			be.bytes = (uint64_t)da / (uint64_t)-db + 1;
		}
	} else {
		/* Increasing: faster only below the first x >= -da / db. */
		if (da + db >= 0) {
			be.kind = BSTAT_BE_NEVER;
		} else {
			uint64_t num = (uint64_t)-da, den = (uint64_t)db;
			be.kind = BSTAT_BE_BELOW;
			be.bytes = num / den + (num % den != 0);
		}
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
