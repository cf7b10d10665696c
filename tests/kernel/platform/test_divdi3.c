/*
 * Host test of kernel/platform/divdi3.c (the kernel's own 64-bit division,
 * renamed cq_* by -DCQ_DIVDI3_TEST), i386 under qemu-i386, run by
 * tests/kernel/platform/divdi3.t: quotient and remainder, unsigned and signed,
 * against the compiler's own division (libgcc) for edge values and for
 * pseudo-random operands of every pair of bit lengths.
 */
#include <stdint.h>
#include <stdio.h>

uint64_t cq_udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem);
uint64_t cq_udivdi3(uint64_t n, uint64_t d);
uint64_t cq_umoddi3(uint64_t n, uint64_t d);
int64_t cq_divdi3(int64_t a, int64_t b);
int64_t cq_moddi3(int64_t a, int64_t b);

#include "lib/util/splitmix64.h"
#include "tests/host/tap_ok.h"

static uint64_t state = 0x5eed2026u;

static uint64_t next(void)
{
	return splitmix64_next(&state);
}

static unsigned bad_u, bad_s, checked;
static char first[160];

static void check(uint64_t a, uint64_t b)
{
	uint64_t r = 0, q;
	int64_t sa = (int64_t)a, sb = (int64_t)b;

	if (b == 0)
		return;
	checked++;
	q = cq_udivmoddi4(a, b, &r);
	if (q != a / b || r != a % b || cq_udivdi3(a, b) != a / b || cq_umoddi3(a, b) != a % b) {
		if (!bad_u++)
			snprintf(first, sizeof(first), "unsigned %llu / %llu", (unsigned long long)a,
				 (unsigned long long)b);
	}
	if (sa == INT64_MIN && sb == -1)
		return;	/* overflows in C */
	if (cq_divdi3(sa, sb) != sa / sb || cq_moddi3(sa, sb) != sa % sb) {
		if (!bad_s++)
			snprintf(first, sizeof(first), "signed %lld / %lld", (long long)sa, (long long)sb);
	}
}

int main(void)
{
	static const uint64_t edge[] = {
		0, 1, 2, 3, 7, 9, 10, 11, 1000, 0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu,
		0x100000000ull, 0x100000001ull, 0x1ffffffffull, 0x7fffffffffffffffull,
		0x8000000000000000ull, 0x8000000000000001ull, 0xfffffffffffffffeull,
		0xffffffffffffffffull, 2096000483ull, 20000000000ull,
	};
	unsigned i, j, la, lb, k;
	char what[400];

	printf("TAP version 13\n");
	for (i = 0; i < sizeof(edge) / sizeof(edge[0]); i++)
		for (j = 0; j < sizeof(edge) / sizeof(edge[0]); j++) {
			check(edge[i], edge[j]);
			check(-edge[i], edge[j]);
			check(edge[i], -edge[j]);
		}
	snprintf(what, sizeof(what), "edge values: %u divisions agree with libgcc%s%s", checked,
		 bad_u + bad_s ? "; first difference: " : "", bad_u + bad_s ? first : "");
	ok(bad_u + bad_s == 0, what);

	checked = bad_u = bad_s = 0;
	for (la = 1; la <= 64; la++)
		for (lb = 1; lb <= 64; lb++)
			for (k = 0; k < 8; k++) {
				uint64_t a = next() >> (64 - la), b = next() >> (64 - lb);
				check(a | (uint64_t)1 << (la - 1), b | (uint64_t)1 << (lb - 1));
				check(a, b);
			}
	snprintf(what, sizeof(what), "random operands of every bit length: %u divisions agree with libgcc%s%s",
		 checked, bad_u + bad_s ? "; first difference: " : "", bad_u + bad_s ? first : "");
	ok(bad_u + bad_s == 0, what);
	printf("1..%d\n", n);
	return failed != 0;
}
