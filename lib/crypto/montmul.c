/* montmul: software Montgomery multiplication. See montmul.h. */
#include "lib/crypto/montmul.h"

#include <stddef.h>
#include <string.h>

#if MONTMUL_I386_ASM
/*
 * montmul_raw for n <= MONTMUL_I386_MAX_WORDS in i386 assembly, product
 * scanning with the reduction interleaved (the "finely integrated product
 * scanning" order of Koc, Acar and Kaliski, IEEE Micro 1996): column i of
 * the result sums a[j] b[i-j] and m[j] q[i-j] over j in a 96-bit
 * accumulator (%ebx %ecx %ebp), q[i] = acc * n0 mod 2^32 makes column
 * i < n vanish, and columns n .. 2n-1 are the result. a, m, b and q sit in
 * the stack frame 128 bytes apart (a and m, b and q), so one pointer walks
 * a[j] and m[j], another b[i-j] and q[i-j], and a pair of products is ten
 * instructions (MUL with a memory operand, ADD, ADC, ADC each). The pairs
 * of a column are the tail of an unrolled run of 31 (MM_STEPS) entered
 * through a table of entry points, which returns through F_CONT. Integer
 * instructions of the i586 only.
 *
 * Frame (offsets from %esp): F_A a[0..31], F_M m[], F_B b[], F_Q q[],
 * F_N0, F_I the column, F_N n, F_CONT the column's continuation, F_TOUT
 * t - 4 n (column i's word goes to F_TOUT + 4 i), F_PB2 and F_S2 the
 * second phase's pointer base and entry offset.
 */
#define MM_STEPS	31
_Static_assert(MONTMUL_I386_MAX_WORDS == MM_STEPS + 1, "one unrolled pair per column word but one");
__asm__(
	".set MM_A, 0\n"
	".set MM_M, 128\n"
	".set MM_B, 256\n"
	".set MM_Q, 384\n"
	".set MM_N0, 512\n"
	".set MM_I, 516\n"
	".set MM_N, 520\n"
	".set MM_CONT, 524\n"
	".set MM_TOUT, 528\n"
	".set MM_PB2, 532\n"
	".set MM_S2, 536\n"
	".set MM_SIZE, 540\n"
	".set MM_ARGS, MM_SIZE + 20\n"
	/* One pair at step U: a[j] b[i-j] and m[j] q[i-j], %esi at a[j] - 4 U,
	 * %edi at b[i-j] + 4 U. */
	".macro cq_mm_pair u\n"
	"cq_mm_step\\u:\n"
	"	movl MM_A + 4 * \\u(%esi), %eax\n"
	"	mull MM_B - 4 * \\u(%edi)\n"
	"	addl %eax, %ebx\n"
	"	adcl %edx, %ecx\n"
	"	adcl $0, %ebp\n"
	"	movl MM_M + 4 * \\u(%esi), %eax\n"
	"	mull MM_Q - 4 * \\u(%edi)\n"
	"	addl %eax, %ebx\n"
	"	adcl %edx, %ecx\n"
	"	adcl $0, %ebp\n"
	".endm\n"
	/* acc >>= 32 */
	".macro cq_mm_shift\n"
	"	movl %ecx, %ebx\n"
	"	movl %ebp, %ecx\n"
	"	xorl %ebp, %ebp\n"
	".endm\n"
	"	.text\n"
	"	.globl montmul_i386\n"
	"	.type montmul_i386, @function\n"
	"	.p2align 4\n"
	"montmul_i386:\n"
	"	pushl %ebp\n"
	"	pushl %edi\n"
	"	pushl %esi\n"
	"	pushl %ebx\n"
	"	subl $MM_SIZE, %esp\n"
	"	movl MM_ARGS + 20(%esp), %ebx\n"	/* n */
	"	movl %ebx, MM_N(%esp)\n"
	"	movl MM_ARGS + 16(%esp), %eax\n"
	"	movl %eax, MM_N0(%esp)\n"
	"	movl MM_ARGS(%esp), %eax\n"	/* t - 4 n */
	"	shll $2, %ebx\n"
	"	subl %ebx, %eax\n"
	"	movl %eax, MM_TOUT(%esp)\n"
	"	movl MM_ARGS + 4(%esp), %esi\n"	/* a, m, b into the frame */
	"	leal MM_A(%esp), %edi\n"
	"	movl MM_N(%esp), %ecx\n"
	"	rep movsl\n"
	"	movl MM_ARGS + 12(%esp), %esi\n"
	"	leal MM_M(%esp), %edi\n"
	"	movl MM_N(%esp), %ecx\n"
	"	rep movsl\n"
	"	movl MM_ARGS + 8(%esp), %esi\n"
	"	leal MM_B(%esp), %edi\n"
	"	movl MM_N(%esp), %ecx\n"
	"	rep movsl\n"
	"	xorl %ebx, %ebx\n"
	"	xorl %ecx, %ecx\n"
	"	xorl %ebp, %ebp\n"
	"	movl $0, MM_I(%esp)\n"
	/* Columns 0 .. n-1: i pairs (j = 1 .. i), then a[0] b[i], then q[i]
	 * and q[i] m[0], which clears the column. The pair pointer into b and
	 * q is the same for every column: b[i-1] + 4 (31 - i) = b[0] + 120. */
	"	movl $1f, MM_CONT(%esp)\n"
	"	leal 4 * 30(%esp), %edi\n"
	"0:\n"
	"	movl MM_I(%esp), %eax\n"
	"	leal -4 * 30(%esp,%eax,4), %esi\n"
	"	negl %eax\n"
	"	jmp *cq_mm_entry + 4 * 31(,%eax,4)\n"
	"1:\n"
	"	movl MM_I(%esp), %edx\n"
	"	movl MM_A(%esp), %eax\n"
	"	mull MM_B(%esp,%edx,4)\n"
	"	addl %eax, %ebx\n"
	"	adcl %edx, %ecx\n"
	"	adcl $0, %ebp\n"
	"	movl %ebx, %eax\n"
	"	imull MM_N0(%esp), %eax\n"
	"	movl MM_I(%esp), %edx\n"
	"	movl %eax, MM_Q(%esp,%edx,4)\n"
	"	mull MM_M(%esp)\n"
	"	addl %eax, %ebx\n"
	"	adcl %edx, %ecx\n"
	"	adcl $0, %ebp\n"
	"	cq_mm_shift\n"
	"	movl MM_I(%esp), %eax\n"
	"	incl %eax\n"
	"	movl %eax, MM_I(%esp)\n"
	"	cmpl MM_N(%esp), %eax\n"
	"	jb 0b\n"
	/* Columns n .. 2n-2: pairs j = i-n+1 .. n-1 (2n-1-i of them), the
	 * column is t[i-n]. The pointer into a and m is the same for every
	 * column: a[i-n+1] - 4 (32 - 2n + i) = a[0] + 4 (n - 31). */
	"	movl MM_N(%esp), %eax\n"
	"	leal -4 * 31(%esp,%eax,4), %esi\n"
	"	negl %eax\n"
	"	leal 4 * 31(%esp,%eax,4), %edx\n"
	"	movl %edx, MM_PB2(%esp)\n"
	"	leal 32(%eax,%eax), %eax\n"
	"	movl %eax, MM_S2(%esp)\n"
	"	movl $3f, MM_CONT(%esp)\n"
	"	movl MM_N(%esp), %eax\n"
	"	leal -1(%eax,%eax), %eax\n"
	"	cmpl %eax, MM_I(%esp)\n"
	"	jae 4f\n"
	"2:\n"
	"	movl MM_I(%esp), %eax\n"
	"	movl MM_PB2(%esp), %edi\n"
	"	leal (%edi,%eax,4), %edi\n"
	"	addl MM_S2(%esp), %eax\n"
	"	jmp *cq_mm_entry(,%eax,4)\n"
	"3:\n"
	"	movl MM_I(%esp), %edx\n"
	"	movl MM_TOUT(%esp), %eax\n"
	"	movl %ebx, (%eax,%edx,4)\n"
	"	cq_mm_shift\n"
	"	incl %edx\n"
	"	movl %edx, MM_I(%esp)\n"
	"	movl MM_N(%esp), %eax\n"
	"	leal -1(%eax,%eax), %eax\n"
	"	cmpl %eax, %edx\n"
	"	jb 2b\n"
	/* Column 2n-1 (no products): t[n-1]; the carry t[n]; t[n+1] = 0. */
	"4:\n"
	"	movl MM_N(%esp), %edx\n"
	"	movl MM_ARGS(%esp), %eax\n"
	"	movl %ebx, -4(%eax,%edx,4)\n"
	"	movl %ecx, (%eax,%edx,4)\n"
	"	movl $0, 4(%eax,%edx,4)\n"
	"	addl $MM_SIZE, %esp\n"
	"	popl %ebx\n"
	"	popl %esi\n"
	"	popl %edi\n"
	"	popl %ebp\n"
	"	ret\n"
	/* The unrolled pairs, entered at step 31 - count. */
	"	.p2align 4\n"
	"cq_mm_pairs:\n"
	"	.irp u, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30\n"
	"	cq_mm_pair \\u\n"
	"	.endr\n"
	"cq_mm_step31:\n"
	"	jmp *MM_CONT(%esp)\n"
	"	.size montmul_i386, . - montmul_i386\n"
	"	.section .rodata\n"
	"	.p2align 2\n"
	"cq_mm_entry:\n"
	"	.irp u, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n"
	"	.long cq_mm_step\\u\n"
	"	.endr\n"
	"	.text\n"
	".purgem cq_mm_pair\n"
	".purgem cq_mm_shift\n");

MONTMUL_I386_ABI void montmul_i386(uint32_t *t, const uint32_t *a, const uint32_t *b,
				   const uint32_t *m, uint32_t n0, unsigned n);
#endif

void montmul_raw(uint32_t *t, const uint32_t *a, const uint32_t *b, const uint32_t *m,
		 uint32_t n0, unsigned n)
{
#if MONTMUL_I386_ASM
	if (n >= 1 && n <= MONTMUL_I386_MAX_WORDS) {
		montmul_i386(t, a, b, m, n0, n);
		return;
	}
#endif
	montmul_raw_portable(t, a, b, m, n0, n);
}

uint32_t montmul_n0(uint32_t m0)
{
	/* Newton's iteration x <- x (2 - m0 x) doubles the correct low bits;
	 * x = m0 is right to 3 bits for odd m0, five steps give 32+. */
	uint32_t x = m0;
	unsigned i;
	for (i = 0; i < 5; i++)
		x *= 2u - m0 * x;
	return 0u - x;
}

void montmul_raw_portable(uint32_t *t, const uint32_t *a, const uint32_t *b, const uint32_t *m,
			  uint32_t n0, unsigned n)
{
	unsigned i, j;
	uint64_t s;
	uint32_t c, q;

	memset(t, 0, (size_t)(n + 2) * sizeof(*t));
	for (i = 0; i < n; i++) {
		/* t += a * b[i] */
		c = 0;
		for (j = 0; j < n; j++) {
			s = (uint64_t)a[j] * b[i] + t[j] + c;
			t[j] = (uint32_t)s;
			c = (uint32_t)(s >> 32);
		}
		s = (uint64_t)t[n] + c;
		t[n] = (uint32_t)s;
		t[n + 1] = (uint32_t)(s >> 32);
		/* t = (t + q * m) / 2^32 with q making the low word vanish */
		q = t[0] * n0;
		s = (uint64_t)q * m[0] + t[0];
		c = (uint32_t)(s >> 32);
		for (j = 1; j < n; j++) {
			s = (uint64_t)q * m[j] + t[j] + c;
			t[j - 1] = (uint32_t)s;
			c = (uint32_t)(s >> 32);
		}
		s = (uint64_t)t[n] + c;
		t[n - 1] = (uint32_t)s;
		t[n] = t[n + 1] + (uint32_t)(s >> 32);
		t[n + 1] = 0;
	}
}

bool montmul_final_sub(uint32_t *r, const uint32_t *t, const uint32_t *m, unsigned n)
{
	unsigned i;
	uint32_t borrow = 0, top = t[n];
	bool ge;

	/* Compare t (n + 1 words) with m (n words), most significant first. */
	ge = top != 0;
	if (!ge) {
		ge = true;	/* equal counts as >= */
		for (i = n; i-- > 0;) {
			if (t[i] != m[i]) {
				ge = t[i] > m[i];
				break;
			}
		}
	}
	if (!ge) {
		if (r != t)
			memmove(r, t, (size_t)n * sizeof(*r));
		return false;
	}
	for (i = 0; i < n; i++) {
		uint64_t d = (uint64_t)t[i] - m[i] - borrow;
		r[i] = (uint32_t)d;
		borrow = (uint32_t)(d >> 63);
	}
	return true;
}

static montmul_raw_fn *mm_raw = montmul_raw;
static const char *mm_path = "integer";

void montmul_use(montmul_raw_fn *raw, const char *path)
{
	mm_raw = raw ? raw : montmul_raw;
	mm_path = raw ? path : "integer";
}

const char *montmul_path(void)
{
	return mm_path;
}

void montmul(uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *m,
	     unsigned n, uint32_t *tmp)
{
	mm_raw(tmp, a, b, m, montmul_n0(m[0]), n);
	montmul_final_sub(r, tmp, m, n);
}
