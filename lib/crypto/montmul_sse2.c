/*
 * montmul_raw_sse2 (lib/crypto/montmul.h): montmul_raw() for 1 to
 * MONTMUL_I386_MAX_WORDS words with the SSE2 multiplier PMULUDQ, two 32 x 32
 * -> 64-bit products per instruction, in i386 assembly (cq_montmul_sse2). Only where SSE2 is
 * there and enabled: it lives in .text_cpufeat, the section the instruction
 * audit (scripts/insn-audit.sh) accepts post-i586 code in, and the kernel
 * installs it with montmul_use() only after CPUID.1:EDX.SSE2 and the SSE
 * enable (kernel/run/main.c).
 *
 * The same product scanning as the integer code (lib/crypto/montmul.c):
 * column i of a b + q m, q[i] chosen to clear the low columns. a[j] and
 * m[j] share one 16-byte slot (dwords 0 and 2), so do b[k] and q[k]: one
 * PMULUDQ of slot j by slot i-j gives a[j] b[i-j] and m[j] q[i-j]. q[i] is
 * still 0 when column i is summed, so the run of pairs takes j = 0 .. i in
 * the first columns and m[0] q[i] comes after. Each 64-bit product p is
 * added to L and p >> 32 to H (two 64-bit lanes each): H is exact and
 * L = sum p mod 2^64, from which the column's low sum Lo = L - H 2^32
 * (mod 2^64) is exact too, being below 2^39 (at most 64 terms below
 * 2^32). A pair is six instructions. With the carry C in: W = Lo + C;
 * q[i] = (W mod 2^32) n0 mod 2^32; the next C = H + (W >> 32) + (P >> 32)
 * + (W mod 2^32 != 0), P = m[0] q[i] (W + P is 0 mod 2^32 by the choice
 * of q). Columns n .. 2n-1 are the result.
 *
 * Frame (aligned to 16 bytes): F_AM a/m slots, F_BQ b/q slots, then
 * scalars; %xmm4 L, %xmm5 H, %xmm6 C, %xmm7 m[0].
 */
#include "lib/crypto/montmul.h"

#if MONTMUL_I386_ASM

__asm__(
	".set MS_AM, 0\n"
	".set MS_BQ, 512\n"
	".set MS_N0, 1024\n"
	".set MS_I, 1028\n"
	".set MS_N, 1032\n"
	".set MS_CONT, 1036\n"
	".set MS_TOUT, 1040\n"
	".set MS_PB2, 1044\n"
	".set MS_S2, 1048\n"
	".set MS_T, 1052\n"
	".set MS_SIZE, 1072\n"
	/* One pair at step U: %esi at slot j - U of a/m, %edi at slot i-j + U of b/q. */
	".macro cq_ms_pair u\n"
	"cq_ms_step\\u:\n"
	"	movdqa MS_AM + 16 * \\u(%esi), %xmm0\n"
	"	pmuludq MS_BQ - 16 * \\u(%edi), %xmm0\n"
	"	movdqa %xmm0, %xmm1\n"
	"	psrlq $32, %xmm1\n"
	"	paddq %xmm0, %xmm4\n"
	"	paddq %xmm1, %xmm5\n"
	".endm\n"
	/* Both lanes of L and H into lane 0, and L becomes Lo, then W = Lo + C. */
	".macro cq_ms_column\n"
	"	pshufd $0x4e, %xmm4, %xmm0\n"
	"	paddq %xmm0, %xmm4\n"
	"	pshufd $0x4e, %xmm5, %xmm1\n"
	"	paddq %xmm1, %xmm5\n"
	"	movdqa %xmm5, %xmm0\n"
	"	psllq $32, %xmm0\n"
	"	psubq %xmm0, %xmm4\n"
	"	paddq %xmm6, %xmm4\n"
	".endm\n"
	"	.arch .sse2\n"
	"	.section .text_cpufeat,\"ax\",@progbits\n"
	"	.type cq_montmul_sse2, @function\n"
	"	.p2align 4\n"
	"cq_montmul_sse2:\n"
	"	pushl %ebp\n"
	"	pushl %edi\n"
	"	pushl %esi\n"
	"	pushl %ebx\n"
	"	movl %esp, %ebp\n"
	"	subl $MS_SIZE, %esp\n"
	"	andl $-16, %esp\n"
	/* Arguments (cdecl) at 20(%ebp): t, a, b, m, n0, n. */
	"	movl 40(%ebp), %ecx\n"
	"	movl %ecx, MS_N(%esp)\n"
	"	movl 36(%ebp), %eax\n"
	"	movl %eax, MS_N0(%esp)\n"
	"	movl 20(%ebp), %eax\n"
	"	movl %eax, MS_T(%esp)\n"
	"	leal (,%ecx,4), %edx\n"
	"	subl %edx, %eax\n"
	"	movl %eax, MS_TOUT(%esp)\n"
	/* Slots: a[j], 0, m[j], 0 and b[j], 0, 0 (q), 0. */
	"	movl 24(%ebp), %esi\n"
	"	movl 28(%ebp), %edi\n"
	"	movl 32(%ebp), %ebx\n"
	"	xorl %edx, %edx\n"
	"	leal MS_AM(%esp), %eax\n"
	"1:\n"
	"	pxor %xmm0, %xmm0\n"
	"	movdqa %xmm0, (%eax)\n"
	"	movdqa %xmm0, MS_BQ - MS_AM(%eax)\n"
	"	movl (%esi,%edx,4), %ecx\n"
	"	movl %ecx, (%eax)\n"
	"	movl (%ebx,%edx,4), %ecx\n"
	"	movl %ecx, 8(%eax)\n"
	"	movl (%edi,%edx,4), %ecx\n"
	"	movl %ecx, MS_BQ - MS_AM(%eax)\n"
	"	addl $16, %eax\n"
	"	incl %edx\n"
	"	cmpl MS_N(%esp), %edx\n"
	"	jb 1b\n"
	"	movd MS_AM + 8(%esp), %xmm7\n"		/* m[0] */
	"	pxor %xmm4, %xmm4\n"
	"	pxor %xmm5, %xmm5\n"
	"	pxor %xmm6, %xmm6\n"
	"	movl $0, MS_I(%esp)\n"
	/* Columns 0 .. n-1: pairs j = 0 .. i (i + 1), then q[i], m[0] q[i]. */
	"	movl $2f, MS_CONT(%esp)\n"
	"	leal 16 * 31(%esp), %edi\n"
	"1:\n"
	"	movl MS_I(%esp), %eax\n"
	"	movl %eax, %edx\n"
	"	shll $4, %edx\n"
	"	leal -16 * 31(%esp,%edx), %esi\n"
	"	negl %eax\n"
	"	jmp *cq_ms_entry + 4 * 31(,%eax,4)\n"
	"2:\n"
	"	cq_ms_column\n"
	"	movd %xmm4, %ecx\n"			/* W mod 2^32 */
	"	movl %ecx, %eax\n"
	"	imull MS_N0(%esp), %eax\n"		/* q[i] */
	"	movl MS_I(%esp), %edx\n"
	"	shll $4, %edx\n"
	"	movl %eax, MS_BQ + 8(%esp,%edx)\n"
	"	movd %eax, %xmm0\n"
	"	pmuludq %xmm7, %xmm0\n"		/* P = m[0] q[i] */
	"	psrlq $32, %xmm0\n"
	"	psrlq $32, %xmm4\n"
	"	paddq %xmm0, %xmm5\n"
	"	paddq %xmm4, %xmm5\n"
	"	negl %ecx\n"				/* CF = (W mod 2^32 != 0) */
	"	sbbl %ecx, %ecx\n"
	"	negl %ecx\n"
	"	movd %ecx, %xmm0\n"
	"	paddq %xmm0, %xmm5\n"
	"	movdqa %xmm5, %xmm6\n"			/* C = H + ... */
	"	pxor %xmm4, %xmm4\n"
	"	pxor %xmm5, %xmm5\n"
	"	movl MS_I(%esp), %eax\n"
	"	incl %eax\n"
	"	movl %eax, MS_I(%esp)\n"
	"	cmpl MS_N(%esp), %eax\n"
	"	jb 1b\n"
	/* Columns n .. 2n-2: pairs j = i-n+1 .. n-1 (2n-1-i), the column is
	 * t[i-n]. The pointer into a/m is the same for every column:
	 * slot i-n+1 - (33 - 2n + i) = slot n - 32. */
	"	movl MS_N(%esp), %eax\n"
	"	shll $4, %eax\n"
	"	leal -16 * 32(%esp,%eax), %esi\n"
	"	negl %eax\n"
	"	leal 16 * 32(%esp,%eax), %edx\n"
	"	movl %edx, MS_PB2(%esp)\n"
	"	movl MS_N(%esp), %eax\n"
	"	negl %eax\n"
	"	leal 33(%eax,%eax), %eax\n"
	"	movl %eax, MS_S2(%esp)\n"
	"	movl $4f, MS_CONT(%esp)\n"
	"	movl MS_N(%esp), %eax\n"
	"	leal -1(%eax,%eax), %eax\n"
	"	cmpl %eax, MS_I(%esp)\n"
	"	jae 5f\n"
	"3:\n"
	"	movl MS_I(%esp), %eax\n"
	"	movl %eax, %edx\n"
	"	shll $4, %edx\n"
	"	movl MS_PB2(%esp), %edi\n"
	"	addl %edx, %edi\n"
	"	addl MS_S2(%esp), %eax\n"
	"	jmp *cq_ms_entry(,%eax,4)\n"
	"4:\n"
	"	cq_ms_column\n"
	"	movl MS_I(%esp), %edx\n"
	"	movl MS_TOUT(%esp), %eax\n"
	"	movd %xmm4, (%eax,%edx,4)\n"
	"	psrlq $32, %xmm4\n"
	"	paddq %xmm4, %xmm5\n"
	"	movdqa %xmm5, %xmm6\n"
	"	pxor %xmm4, %xmm4\n"
	"	pxor %xmm5, %xmm5\n"
	"	incl %edx\n"
	"	movl %edx, MS_I(%esp)\n"
	"	movl MS_N(%esp), %eax\n"
	"	leal -1(%eax,%eax), %eax\n"
	"	cmpl %eax, %edx\n"
	"	jb 3b\n"
	/* Column 2n-1: the carry: t[n-1], t[n]; t[n+1] = 0. */
	"5:\n"
	"	movl MS_N(%esp), %edx\n"
	"	movl MS_T(%esp), %eax\n"
	"	movq %xmm6, -4(%eax,%edx,4)\n"
	"	movl $0, 4(%eax,%edx,4)\n"
	"	movl %ebp, %esp\n"
	"	popl %ebx\n"
	"	popl %esi\n"
	"	popl %edi\n"
	"	popl %ebp\n"
	"	ret\n"
	/* The unrolled pairs, entered at step 32 - count. */
	"	.p2align 4\n"
	"	.irp u, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n"
	"	cq_ms_pair \\u\n"
	"	.endr\n"
	"cq_ms_step32:\n"
	"	jmp *MS_CONT(%esp)\n"
	"	.size cq_montmul_sse2, . - cq_montmul_sse2\n"
	"	.section .rodata\n"
	"	.p2align 2\n"
	"cq_ms_entry:\n"
	"	.irp u, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32\n"
	"	.long cq_ms_step\\u\n"
	"	.endr\n"
	"	.text\n"
	".purgem cq_ms_pair\n"
	".purgem cq_ms_column\n");

MONTMUL_I386_ABI void cq_montmul_sse2(uint32_t *t, const uint32_t *a, const uint32_t *b,
				      const uint32_t *m, uint32_t n0, unsigned n)
	__asm__("cq_montmul_sse2");

void montmul_raw_sse2(uint32_t *t, const uint32_t *a, const uint32_t *b, const uint32_t *m,
		      uint32_t n0, unsigned n)
{
	if (n >= 1 && n <= MONTMUL_I386_MAX_WORDS)
		cq_montmul_sse2(t, a, b, m, n0, n);
	else
		montmul_raw_portable(t, a, b, m, n0, n);
}

#endif
