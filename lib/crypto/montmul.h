/*
 * montmul: Montgomery multiplication in software (P. L. Montgomery,
 * "Modular multiplication without trial division", Math. Comp. 44, 1985),
 * word-serial in the CIOS order of Koc, Acar and Kaliski ("Analyzing and
 * comparing Montgomery multiplication algorithms", IEEE Micro 1996). The
 * reference for the VIA PadLock PMM (rep montmul) known-answer test and the
 * instruction emulator of the host tests.
 *
 * Numbers are arrays of n little-endian 32-bit words (word 0 least
 * significant), the layout of the PadLock PMM operands. R = 2^(32 n). The
 * modulus m is odd. Nothing allocates: callers give every buffer.
 */
#ifndef CQ_LIB_MONTMUL_H
#define CQ_LIB_MONTMUL_H

#include <stdbool.h>
#include <stdint.h>

/* -m0^-1 mod 2^32 for an odd m0 (Montgomery's n0'). */
uint32_t montmul_n0(uint32_t m0);

/*
 * On 32-bit x86 without position-independent code (the kernel, the i386
 * tests and benchmark) montmul_raw() runs assembly for n up to
 * MONTMUL_I386_MAX_WORDS (1024-bit operands) and the portable C code
 * beyond; other builds run the C code.
 */
#if defined(__i386__) && !defined(__PIC__)
#define MONTMUL_I386_ASM	1
#define MONTMUL_I386_ABI	__attribute__((regparm(0), cdecl))
#else
#define MONTMUL_I386_ASM	0
#endif
#define MONTMUL_I386_MAX_WORDS	32

/*
 * t = a * b * R^-1 mod m, not fully reduced: t (n + 2 words; t[n + 1] is
 * 0 on return and t[n] holds the carry) is below 2m when a, b < m, and is
 * congruent to a * b * R^-1. This is what the PadLock unit returns.
 * n0 = montmul_n0(m[0]); n >= 1.
 */
void montmul_raw(uint32_t *t, const uint32_t *a, const uint32_t *b, const uint32_t *m,
		 uint32_t n0, unsigned n);

/* montmul_raw() in portable C (word-serial CIOS), whatever the build: the
 * reference the assembly is tested against. Same contract. */
void montmul_raw_portable(uint32_t *t, const uint32_t *a, const uint32_t *b, const uint32_t *m,
			  uint32_t n0, unsigned n);

#if MONTMUL_I386_ASM
/*
 * montmul_raw() with SSE2 (lib/crypto/montmul_sse2.c) for 1 to
 * MONTMUL_I386_MAX_WORDS words, the portable code beyond; same contract.
 * Executes SSE2 instructions: call it only when CPUID.1:EDX.SSE2 is set
 * and, in the kernel, SSE is enabled (then install it with montmul_use(),
 * "sse2").
 */
void montmul_raw_sse2(uint32_t *t, const uint32_t *a, const uint32_t *b, const uint32_t *m,
		      uint32_t n0, unsigned n);
#endif

/*
 * The final conditional subtraction: r (n words) = t - m when t (n + 1
 * words) >= m, else t. r may equal t. Returns whether it subtracted.
 */
bool montmul_final_sub(uint32_t *r, const uint32_t *t, const uint32_t *m, unsigned n);

/*
 * r (n words) = a * b * R^-1 mod m, fully reduced; tmp holds n + 2 words.
 * Runs montmul_raw(), or the faster code montmul_use() installed.
 */
void montmul(uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *m,
	     unsigned n, uint32_t *tmp);

/*
 * The code montmul() runs for the unreduced product: raw (same contract as
 * montmul_raw()), named path ("integer" for montmul_raw() itself, "sse2"
 * for montmul_raw_sse2()). A driver that found a faster path on this CPU
 * installs it once, before the known-answer tests; raw NULL restores
 * montmul_raw(). montmul_path() names the code in use.
 */
typedef void montmul_raw_fn(uint32_t *t, const uint32_t *a, const uint32_t *b, const uint32_t *m,
			    uint32_t n0, unsigned n);
void montmul_use(montmul_raw_fn *raw, const char *path);
const char *montmul_path(void);

/* ---- Known-answer vector (lib/vectors/montmul_kat.c) ---- */

#define MONTMUL_KAT_WORDS 32	/* 1024-bit operands */

/*
 * A 1024-bit vector: m odd with its top bit set, a, b < m, and
 * expect = a * b * 2^-1024 mod m, computed with arbitrary-precision
 * integers independently of this code. montmul_raw() leaves a result at
 * or above m for it, so the final subtraction matters.
 */
struct montmul_kat {
	uint32_t m[MONTMUL_KAT_WORDS];
	uint32_t a[MONTMUL_KAT_WORDS];
	uint32_t b[MONTMUL_KAT_WORDS];
	uint32_t expect[MONTMUL_KAT_WORDS];
};
extern const struct montmul_kat montmul_kat_1024;

#endif
