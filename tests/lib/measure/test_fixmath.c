/*
 * Unit tests for lib/measure/fixmath.c's extended floats (struct fxf, value
 * m * 2^e with m normalised or 0): every fxf_* function at its boundaries
 * (zero, one, the largest mantissa, carries, exponent gaps of 63 and 64,
 * powers 0 and 1). Expected mantissas and exponents from Python's exact
 * fractions, truncated to 64 bits as fixmath.h states. The fx128 and
 * fixed-point functions are tested in tests/lib/rng/test_rngtest.c with the
 * statistics that use them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "lib/measure/fixmath.h"

#define TOP	((uint64_t)1 << 63)
#define MAX64	UINT64_MAX

static void expect(const struct fxf *a, uint64_t m, int32_t e)
{
	assert_true(a->m == m);
	assert_int_equal(a->e, e);
}

static struct fxf u64(uint64_t v)
{
	struct fxf a;
	fxf_from_u64(&a, v);
	return a;
}

static void from_u64(void **state)
{
	struct fxf a;
	(void)state;
	a = u64(0);
	expect(&a, 0, 0);
	a = u64(1);
	expect(&a, TOP, -63);
	a = u64(3);
	expect(&a, 0xc000000000000000ull, -62);
	a = u64(MAX64);
	expect(&a, MAX64, 0);
}

static void from_frac64(void **state)
{
	struct fxf a;
	(void)state;
	fxf_from_frac64(&a, 0);
	expect(&a, 0, 0);
	fxf_from_frac64(&a, 1);                 /* 2^-64 */
	expect(&a, TOP, -127);
	fxf_from_frac64(&a, TOP);               /* 1/2 */
	expect(&a, TOP, -64);
	fxf_from_frac64(&a, MAX64);
	expect(&a, MAX64, -64);
}

static void mul(void **state)
{
	struct fxf a, b;
	(void)state;
	a = u64(0);
	b = u64(MAX64);
	fxf_mul(&a, &b);                        /* 0 * x */
	expect(&a, 0, 0);
	a = u64(MAX64);
	b = u64(0);
	fxf_mul(&a, &b);                        /* x * 0 */
	expect(&a, 0, 0);
	a = u64(1);
	b = u64(1);
	fxf_mul(&a, &b);
	expect(&a, TOP, -63);
	a = u64(MAX64);
	fxf_mul(&a, &a);                        /* (2^64 - 1)^2, truncated; a and b the same */
	expect(&a, 0xfffffffffffffffeull, 64);
}

static void mul_u32(void **state)
{
	struct fxf a;
	(void)state;
	a = u64(MAX64);
	fxf_mul_u32(&a, 0);
	expect(&a, 0, 0);
	a = u64(0);
	fxf_mul_u32(&a, 7);
	expect(&a, 0, 0);
	a = u64(3);
	fxf_mul_u32(&a, 1);
	expect(&a, 0xc000000000000000ull, -62);
	a = u64(MAX64);
	fxf_mul_u32(&a, UINT32_MAX);
	expect(&a, 0xfffffffeffffffffull, 32);
}

static void div_u32(void **state)
{
	struct fxf a;
	(void)state;
	a = u64(0);
	fxf_div_u32(&a, 3);
	expect(&a, 0, 0);
	a = u64(MAX64);
	fxf_div_u32(&a, 1);
	expect(&a, MAX64, 0);
	a = u64(1);
	fxf_div_u32(&a, 3);                     /* 1/3, truncated */
	expect(&a, 0xaaaaaaaaaaaaaaaaull, -65);
	a = u64(MAX64);
	fxf_div_u32(&a, UINT32_MAX);            /* exactly 2^32 + 1 */
	expect(&a, 0x8000000080000000ull, -31);
}

static void div(void **state)
{
	struct fxf a, b;
	(void)state;
	a = u64(0);
	b = u64(3);
	fxf_div(&a, &b);
	assert_true(a.m == 0);
	a = u64(MAX64);
	fxf_div(&a, &a);                        /* x / x, a and b the same */
	expect(&a, TOP, -63);
	a = u64(1);
	b = u64(3);
	fxf_div(&a, &b);
	expect(&a, 0xaaaaaaaaaaaaaaaaull, -65);
	a = u64(MAX64);
	fxf_div(&a, &(struct fxf){ 0xaaaaaaaaaaaaaaaaull, -65 });
	expect(&a, 0xc000000000000000ull, 2);
}

static void add(void **state)
{
	struct fxf a, b;
	(void)state;
	a = u64(0);
	b = u64(3);
	fxf_add(&a, &b);                        /* 0 + b */
	expect(&a, 0xc000000000000000ull, -62);
	b = u64(0);
	fxf_add(&a, &b);                        /* a + 0 */
	expect(&a, 0xc000000000000000ull, -62);
	a = u64(1);
	fxf_add(&a, &a);                        /* 1 + 1, a carry out of bit 63 */
	expect(&a, TOP, -62);
	a = u64(MAX64);
	b = u64(1);
	fxf_add(&a, &b);                        /* 2^64: the carry renormalises */
	expect(&a, TOP, 1);
	a = u64(TOP);
	b = u64(1);
	fxf_add(&a, &b);                        /* exponent gap 63: still counted */
	expect(&a, TOP + 1, 0);
	a = u64(1);
	b = u64(TOP);
	fxf_add(&a, &b);                        /* the same with the bigger second */
	expect(&a, TOP + 1, 0);
	a = u64(MAX64);
	b = u64(1);
	fxf_div_u32(&b, 2);                     /* 1/2 against 2^64 - 1: gap 64, lost */
	fxf_add(&a, &b);
	expect(&a, MAX64, 0);
	a = u64(1);
	fxf_div_u32(&a, 2);
	b = u64(MAX64);
	fxf_add(&a, &b);                        /* the same with the bigger second */
	expect(&a, MAX64, 0);
}

static void pow_(void **state)
{
	struct fxf a;
	(void)state;
	a = u64(12345);
	fxf_pow(&a, 0);                         /* x^0 = 1 */
	expect(&a, TOP, -63);
	a = u64(0);
	fxf_pow(&a, 0);                         /* 0^0 = 1, as the binomial sum wants */
	expect(&a, TOP, -63);
	a = u64(0);
	fxf_pow(&a, 5);
	expect(&a, 0, 0);
	a = u64(3);
	fxf_pow(&a, 1);
	expect(&a, 0xc000000000000000ull, -62);
	a = u64(3);
	fxf_pow(&a, 40);                        /* 3^40 < 2^64: exact */
	expect(&a, 0xa8b8b452291fe821ull, 0);
	a = u64(3);
	fxf_pow(&a, 41);                        /* past 2^64: truncated once */
	expect(&a, 0xfd150e7b3dafdc31ull, 1);
	fxf_from_frac64(&a, TOP);
	fxf_pow(&a, 1000);                      /* 2^-1000: far below any double */
	expect(&a, TOP, -1063);
}

static void cmp(void **state)
{
	struct fxf z = u64(0), one = u64(1), three = u64(3), max = u64(MAX64), tiny;
	(void)state;
	fxf_from_frac64(&tiny, 1);
	assert_int_equal(fxf_cmp(&z, &z), 0);
	assert_int_equal(fxf_cmp(&z, &tiny), -1);       /* zero below the smallest */
	assert_int_equal(fxf_cmp(&tiny, &z), 1);
	assert_int_equal(fxf_cmp(&one, &three), -1);    /* by exponent */
	assert_int_equal(fxf_cmp(&max, &one), 1);
	assert_int_equal(fxf_cmp(&three, &(struct fxf){ TOP + 1, -62 }), 1);   /* same exponent, by mantissa */
	assert_int_equal(fxf_cmp(&(struct fxf){ TOP + 1, -62 }, &three), -1);
	assert_int_equal(fxf_cmp(&max, &(struct fxf){ MAX64, 0 }), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(from_u64),
		cmocka_unit_test(from_frac64),
		cmocka_unit_test(mul),
		cmocka_unit_test(mul_u32),
		cmocka_unit_test(div_u32),
		cmocka_unit_test(div),
		cmocka_unit_test(add),
		cmocka_unit_test(pow_),
		cmocka_unit_test(cmp),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
