/*
 * 64-bit division for the kernel: the libgcc entry points GCC calls for
 * uint64_t / and % on i386 (__udivdi3, __umoddi3, __divdi3, __moddi3,
 * __udivmoddi4), built with the kernel's own flags instead of linked from
 * libgcc (1 KB of libgcc's unrolled code; and libgcc is built for the
 * default calling convention, whatever the kernel's is).
 *
 * A divisor below 2^32 (every /10 of the formatter, the clock's Hz, the
 * byte counts) takes two DIVL, as libgcc does; a larger one a shift and
 * subtract loop of at most 64 steps (the quotient then has at most 32
 * bits). A zero divisor raises #DE, as libgcc's code does.
 *
 * tests/kernel/platform/divdi3.t runs this file on i386 against the compiler's own
 * division (built with -DCQ_DIVDI3_TEST, which renames the functions).
 */
#include <stdint.h>

#ifdef CQ_DIVDI3_TEST
#define __udivmoddi4	cq_udivmoddi4
#define __udivdi3	cq_udivdi3
#define __umoddi3	cq_umoddi3
#define __divdi3	cq_divdi3
#define __moddi3	cq_moddi3
#endif

uint64_t __udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem);
uint64_t __udivdi3(uint64_t n, uint64_t d);
uint64_t __umoddi3(uint64_t n, uint64_t d);
int64_t __divdi3(int64_t a, int64_t b);
int64_t __moddi3(int64_t a, int64_t b);

uint64_t __udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem)
{
	uint64_t q = 0, bit = 1;

	if (!(d >> 32)) {
		uint32_t qh, ql, r;

		/* hi / d, then (r:lo) / d: r < d, so the second quotient fits 32 bits */
		__asm__("divl %4" : "=a"(qh), "=d"(r) : "a"((uint32_t)(n >> 32)), "d"(0u), "rm"((uint32_t)d));
		__asm__("divl %4" : "=a"(ql), "=d"(r) : "a"((uint32_t)n), "d"(r), "rm"((uint32_t)d));
		if (rem)
			*rem = r;
		return (uint64_t)qh << 32 | ql;
	}
	while (d < n && !(d >> 63)) {
		d <<= 1;
		bit <<= 1;
	}
	while (bit) {
		if (n >= d) {
			n -= d;
			q |= bit;
		}
		d >>= 1;
		bit >>= 1;
	}
	if (rem)
		*rem = n;
	return q;
}

uint64_t __udivdi3(uint64_t n, uint64_t d)
{
	return __udivmoddi4(n, d, 0);
}

uint64_t __umoddi3(uint64_t n, uint64_t d)
{
	uint64_t r;

	__udivmoddi4(n, d, &r);
	return r;
}

static uint64_t mag(int64_t v)
{
	return v < 0 ? -(uint64_t)v : (uint64_t)v;
}

/* Truncating, as C's / and %: the remainder has the dividend's sign. */
int64_t __divdi3(int64_t a, int64_t b)
{
	uint64_t q = __udivmoddi4(mag(a), mag(b), 0);

	return (int64_t)((a < 0) != (b < 0) ? -q : q);
}

int64_t __moddi3(int64_t a, int64_t b)
{
	uint64_t r;

	__udivmoddi4(mag(a), mag(b), &r);
	return (int64_t)(a < 0 ? -r : r);
}
