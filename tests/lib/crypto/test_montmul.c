/*
 * Unit tests for lib/crypto/montmul.c: n0' for every kind of odd word, one-word
 * products checked with 64-bit arithmetic, the 1024-bit known answer of
 * lib/vectors/montmul_kat.c (computed outside this code), the unreduced result the
 * PadLock unit also returns, and the edges of the final subtraction.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "lib/crypto/montmul.h"

#define N MONTMUL_KAT_WORDS

static uint64_t next(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;	/* Knuth's MMIX LCG */
	return *s >> 11;
}

static void test_n0(void **state)
{
	static const uint32_t m0[] = { 1, 3, 0xFFFFFFFFu, 0x80000001u, 0xB4F33BA7u, 12345679 };
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(m0) / sizeof(m0[0]); i++)
		assert_int_equal((uint32_t)(m0[i] * montmul_n0(m0[i])), 0xFFFFFFFFu);
}

/* n = 1: r * 2^32 == a * b (mod m) and r < m. */
static void test_one_word(void **state)
{
	uint64_t s = 1;
	uint32_t a, b, m, r, tmp[3];
	unsigned i;

	(void)state;
	for (i = 0; i < 2000; i++) {
		m = (uint32_t)next(&s) | 1u;
		if (m < 3)
			continue;
		a = (uint32_t)(next(&s) % m);
		b = (uint32_t)(next(&s) % m);
		montmul(&r, &a, &b, &m, 1, tmp);
		assert_true(r < m);
		assert_int_equal(((uint64_t)r << 32) % m, ((uint64_t)a * b) % m);
	}
}

static void test_kat_1024(void **state)
{
	const struct montmul_kat *k = &montmul_kat_1024;
	uint32_t r[N], t[N + 2];

	(void)state;
	montmul(r, k->a, k->b, k->m, N, t);
	assert_memory_equal(r, k->expect, sizeof(r));
	/* Commutative, and the unreduced result needs the subtraction. */
	montmul(r, k->b, k->a, k->m, N, t);
	assert_memory_equal(r, k->expect, sizeof(r));
	montmul_raw(t, k->a, k->b, k->m, montmul_n0(k->m[0]), N);
	assert_int_equal(t[N + 1], 0);
	assert_true(memcmp(t, k->expect, sizeof(r)) != 0);
	assert_true(montmul_final_sub(t, t, k->m, N));
	assert_memory_equal(t, k->expect, sizeof(r));
}

/* A corrupted operand must change the answer (the test can fail). */
static void test_kat_sensitive(void **state)
{
	const struct montmul_kat *k = &montmul_kat_1024;
	uint32_t a[N], r[N], t[N + 2];

	(void)state;
	memcpy(a, k->a, sizeof(a));
	a[7] ^= 0x10;
	montmul(r, a, k->b, k->m, N, t);
	assert_true(memcmp(r, k->expect, sizeof(r)) != 0);
}

static void test_final_sub_edges(void **state)
{
	uint32_t m[4] = { 5, 0, 0, 0x80000000u }, t[5], r[4];

	(void)state;
	memcpy(t, m, sizeof(m));
	t[4] = 0;
	assert_true(montmul_final_sub(r, t, m, 4));		/* t == m -> 0 */
	assert_int_equal(r[0] | r[1] | r[2] | r[3], 0);
	t[0] = 4;
	assert_false(montmul_final_sub(r, t, m, 4));		/* t < m: unchanged */
	assert_memory_equal(r, t, sizeof(r));
	memset(t, 0, sizeof(t));
	t[4] = 1;						/* t = 2^128 */
	assert_true(montmul_final_sub(r, t, m, 4));
	assert_int_equal(r[0], 0xFFFFFFFBu);
	assert_int_equal(r[1], 0xFFFFFFFFu);
	assert_int_equal(r[2], 0xFFFFFFFFu);
	assert_int_equal(r[3], 0x7FFFFFFFu);
}

/*
 * montmul_raw() (the i386 assembly where the build has it) and, in i386
 * builds, montmul_raw_sse2() against the portable C code: every size from 1 to 40 words (the assembly's largest,
 * MONTMUL_I386_MAX_WORDS, and past it), random odd moduli with the top bit
 * set and operands below them, and all-ones operands (the largest carries).
 * The unreduced result is unique (q = -a b m^-1 mod R), so the two agree
 * word for word.
 */
static void test_raw_against_portable(void **state)
{
	uint32_t a[40], b[40], m[40], t1[43], t2[43];
	uint64_t s = 7;
	unsigned n, i, round;

	(void)state;
	for (n = 1; n <= 40; n++) {
		for (round = 0; round < 12; round++) {
			for (i = 0; i < n; i++) {
				m[i] = (uint32_t)next(&s);
				a[i] = (uint32_t)next(&s);
				b[i] = (uint32_t)next(&s);
			}
			m[0] |= 1;
			m[n - 1] |= 0x80000000u;
			a[n - 1] &= 0x7fffffffu;
			b[n - 1] &= 0x7fffffffu;
			if (round == 0) {
				for (i = 0; i < n; i++)
					m[i] = a[i] = b[i] = 0xFFFFFFFFu;
				a[0] = b[0] = 0xFFFFFFFDu;	/* below m */
			}
			memset(t1, 0xa5, sizeof(t1));
			memset(t2, 0x5a, sizeof(t2));
			montmul_raw(t1, a, b, m, montmul_n0(m[0]), n);
			montmul_raw_portable(t2, a, b, m, montmul_n0(m[0]), n);
			assert_memory_equal(t1, t2, (n + 2) * sizeof(uint32_t));
			assert_int_equal(t1[n + 2], 0xa5a5a5a5u);	/* nothing past t[n + 1] */
#if MONTMUL_I386_ASM
			/* The SSE2 path (the i386 tests run where SSE2 is). */
			memset(t1, 0xa5, sizeof(t1));
			montmul_raw_sse2(t1, a, b, m, montmul_n0(m[0]), n);
			assert_memory_equal(t1, t2, (n + 2) * sizeof(uint32_t));
			assert_int_equal(t1[n + 2], 0xa5a5a5a5u);
#endif
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_n0),
		cmocka_unit_test(test_one_word),
		cmocka_unit_test(test_kat_1024),
		cmocka_unit_test(test_kat_sensitive),
		cmocka_unit_test(test_final_sub_edges),
		cmocka_unit_test(test_raw_against_portable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
