/*
 * The AES block cipher for i386 in assembly: aes_i386_encrypt() and
 * aes_i386_decrypt() (declared in lib/crypto/aes_tables.h), used by lib/crypto/aes.c in
 * non-PIC i386 builds (the kernel, the i386 tests and benchmark). Other
 * builds use the C rounds of lib/crypto/aes.c. Integer instructions of the i386
 * only (no CMOV, SSE or long NOP; tests/lib/crypto/aes-i586.t).
 *
 * Same algorithm and tables as the C code (FIPS-197 5.1 and 5.3.5 with the
 * tables of lib/crypto/aes_tables.h), arranged for the seven usable registers of
 * 32-bit x86, where GCC keeps only part of the state in registers:
 *   %ebx %ecx %edx %edi  the four output columns t0..t3 of a round,
 *                        started from the round key;
 *   %eax                 the input column being consumed: its four bytes
 *                        (via %al, %ah, then %al, %ah after a shift by 16)
 *                        each index one table, whose word is XORed into
 *                        the output column that byte moves to
 *                        (ShiftRows: input column i, row r goes to output
 *                        column i - r for encryption, i + r for decryption);
 *   %esi                 the byte index;
 *   %ebp                 the round key pointer.
 * Input columns 1-3 wait in the stack frame while column 0 is consumed.
 * A middle round is 50 instructions; the last round takes S-box bytes.
 *
 * This is a table-driven implementation: table indices depend on the key
 * and data, so it is not constant-time (cache-timing attacks apply), like
 * the OpenSSL aes-586 code it is measured against (make bench-i386).
 */
#include <stddef.h>

#include "lib/crypto/aes.h"
#include "lib/crypto/aes_tables.h"

#if AES_I386_ASM

/* The assembly reads the context at these offsets. */
_Static_assert(offsetof(struct aes_ctx, ek) == 0, "aes_ctx.ek offset");
_Static_assert(offsetof(struct aes_ctx, dk) == 240, "aes_ctx.dk offset");
_Static_assert(offsetof(struct aes_ctx, rounds) == 480, "aes_ctx.rounds offset");

/*
 * Stack frame after the four pushes and subl $16: 0/4/8(%esp) input
 * columns 1-3, 12(%esp) the last round key's address, 36(%esp) the
 * context, 40(%esp) st.
 *
 * cq_aes_eat TAB, A, B, C, D: consume %eax; its row-r byte indexes table r
 * of TAB (1 KiB apart) into output column A, B, C, D for rows 0..3.
 * cq_aes_last TAB, A, B, C, D: the same with the byte table TAB (S-box),
 * the byte placed in row r of its output column.
 * cq_aes_cipher NAME, KEYS, TAB, SBOX, order: the whole function; KEYS is
 * the schedule's offset in the context, the orders the destination
 * columns of input columns 0-3, row by row.
 */
__asm__(
	".macro cq_aes_eat tab, a, b, c, d\n"
	"	movzbl %al, %esi\n"
	"	xorl \\tab(,%esi,4), \\a\n"
	"	movzbl %ah, %esi\n"
	"	xorl \\tab+1024(,%esi,4), \\b\n"
	"	shrl $16, %eax\n"
	"	movzbl %al, %esi\n"
	"	xorl \\tab+2048(,%esi,4), \\c\n"
	"	movzbl %ah, %esi\n"
	"	xorl \\tab+3072(,%esi,4), \\d\n"
	".endm\n"
	".macro cq_aes_last tab, a, b, c, d\n"
	"	movzbl %al, %esi\n"
	"	movzbl \\tab(%esi), %esi\n"
	"	xorl %esi, \\a\n"
	"	movzbl %ah, %esi\n"
	"	movzbl \\tab(%esi), %esi\n"
	"	shll $8, %esi\n"
	"	xorl %esi, \\b\n"
	"	shrl $16, %eax\n"
	"	movzbl %al, %esi\n"
	"	movzbl \\tab(%esi), %esi\n"
	"	shll $16, %esi\n"
	"	xorl %esi, \\c\n"
	"	movzbl %ah, %esi\n"
	"	movzbl \\tab(%esi), %esi\n"
	"	shll $24, %esi\n"
	"	xorl %esi, \\d\n"
	".endm\n"
	/* Park input columns 1-3, take column 0, start t0..t3 from the key. */
	".macro cq_aes_start\n"
	"	movl %ecx, 0(%esp)\n"
	"	movl %edx, 4(%esp)\n"
	"	movl %edi, 8(%esp)\n"
	"	movl %ebx, %eax\n"
	"	movl 0(%ebp), %ebx\n"
	"	movl 4(%ebp), %ecx\n"
	"	movl 8(%ebp), %edx\n"
	"	movl 12(%ebp), %edi\n"
	".endm\n"
	".macro cq_aes_round op, tab, a0, b0, c0, d0, a1, b1, c1, d1, a2, b2, c2, d2, a3, b3, c3, d3\n"
	"	cq_aes_start\n"
	"	\\op \\tab, \\a0, \\b0, \\c0, \\d0\n"
	"	movl 0(%esp), %eax\n"
	"	\\op \\tab, \\a1, \\b1, \\c1, \\d1\n"
	"	movl 4(%esp), %eax\n"
	"	\\op \\tab, \\a2, \\b2, \\c2, \\d2\n"
	"	movl 8(%esp), %eax\n"
	"	\\op \\tab, \\a3, \\b3, \\c3, \\d3\n"
	".endm\n"
	".macro cq_aes_cipher name, keys, tab, sbox, o:vararg\n"
	"	.text\n"
	"	.globl \\name\n"
	"	.type \\name, @function\n"
	"	.p2align 4\n"
	"\\name:\n"
	"	pushl %ebp\n"
	"	pushl %edi\n"
	"	pushl %esi\n"
	"	pushl %ebx\n"
	"	subl $16, %esp\n"
	"	movl 36(%esp), %ebp\n"
	"	movl 480(%ebp), %esi\n"
	"	shll $4, %esi\n"
	"	leal \\keys(%ebp,%esi), %esi\n"
	"	movl %esi, 12(%esp)\n"
	"	addl $\\keys, %ebp\n"
	"	movl 40(%esp), %eax\n"
	"	movl 0(%eax), %ebx\n"
	"	movl 4(%eax), %ecx\n"
	"	movl 8(%eax), %edx\n"
	"	movl 12(%eax), %edi\n"
	"	xorl 0(%ebp), %ebx\n"
	"	xorl 4(%ebp), %ecx\n"
	"	xorl 8(%ebp), %edx\n"
	"	xorl 12(%ebp), %edi\n"
	"	addl $16, %ebp\n"
	"	cmpl 12(%esp), %ebp\n"
	"	jae 2f\n"
	"	.p2align 4\n"
	"1:\n"
	"	cq_aes_round cq_aes_eat, \\tab, \\o\n"
	"	addl $16, %ebp\n"
	"	cmpl 12(%esp), %ebp\n"
	"	jb 1b\n"
	"2:\n"
	"	cq_aes_round cq_aes_last, \\sbox, \\o\n"
	"	movl 40(%esp), %eax\n"
	"	movl %ebx, 0(%eax)\n"
	"	movl %ecx, 4(%eax)\n"
	"	movl %edx, 8(%eax)\n"
	"	movl %edi, 12(%eax)\n"
	"	addl $16, %esp\n"
	"	popl %ebx\n"
	"	popl %esi\n"
	"	popl %edi\n"
	"	popl %ebp\n"
	"	ret\n"
	"	.size \\name, . - \\name\n"
	".endm\n"
	/* Encryption: input column i, row r -> output column i - r. */
	"cq_aes_cipher aes_i386_encrypt, 0, aes_te, aes_sbox, "
	"%ebx, %edi, %edx, %ecx, "
	"%ecx, %ebx, %edi, %edx, "
	"%edx, %ecx, %ebx, %edi, "
	"%edi, %edx, %ecx, %ebx\n"
	/* Decryption (equivalent inverse cipher): column i, row r -> i + r. */
	"cq_aes_cipher aes_i386_decrypt, 240, aes_td, aes_inv_sbox, "
	"%ebx, %ecx, %edx, %edi, "
	"%ecx, %edx, %edi, %ebx, "
	"%edx, %edi, %ebx, %ecx, "
	"%edi, %ebx, %ecx, %edx\n"
	".purgem cq_aes_eat\n"
	".purgem cq_aes_last\n"
	".purgem cq_aes_start\n"
	".purgem cq_aes_round\n"
	".purgem cq_aes_cipher\n");

#endif
