/*
 * The AES block cipher and its SP 800-38A modes for i386 in assembly:
 * aes_i386_crypt() (declared in lib/crypto/aes_tables.h), used by
 * lib/crypto/aes.c in non-PIC i386 builds (the kernel, the i386 tests and
 * benchmark). Other builds use the C rounds of lib/crypto/aes.c. Integer
 * instructions of the i586 only (no CMOV, SSE or long NOP;
 * tests/lib/crypto/aes-i586.t).
 *
 * Same algorithm and tables as the C code (FIPS-197 5.1 and 5.3.5 with the
 * tables of lib/crypto/aes_tables.h), arranged for the seven usable
 * registers of 32-bit x86:
 *   %ebx/%eax %ecx %edx %edi  the state columns s0..s3 entering a round
 *                        and the output columns t0..t3 leaving it; s0 and
 *                        t0 alternate between %ebx and %eax from round to
 *                        round, so t0 is consumed where it was made;
 *   s0's register        the input column being consumed: its four bytes
 *                        (low and high byte, then the same after a shift by
 *                        16) each index one table, whose word goes into the
 *                        output column that byte moves to (ShiftRows: input
 *                        column i, row r goes to output column i - r for
 *                        encryption, i + r for decryption); the first input
 *                        column's words are moved in, the others XORed;
 *   %esi %ebp            two byte indices, so that no table load waits for
 *                        the index made by the instruction just before it
 *                        (an address-generation interlock on in-order
 *                        cores such as the Geode LX);
 * input columns 1-3 wait in the stack frame while column 0 is consumed.
 * A round is 46 instructions. The round keys are copied once per call into
 * the stack frame, so every round addresses its key at a constant offset
 * from %esp and needs no key register; the rounds are unrolled (thirteen
 * middle rounds and the last, entered at round 1, 3 or 5 for 14, 12 or 10
 * rounds), and the last round looks up words of four S-box tables, one per
 * byte position (aes_sbox_col, aes_inv_sbox_col), like the middle rounds.
 * The mode loops keep the state in registers from block to block and call
 * the rounds as a subroutine.
 *
 * This is a table-driven implementation: table indices depend on the key
 * and data, so it is not constant-time (cache-timing attacks apply), like
 * the OpenSSL aes-586 code it is measured against (make bench-i386, make
 * bench-models).
 */
#include <stddef.h>

#include "lib/crypto/aes.h"
#include "lib/crypto/aes_tables.h"

#if AES_I386_ASM

/* The assembly reads the context at these offsets. */
_Static_assert(offsetof(struct aes_ctx, ek) == 0, "aes_ctx.ek offset");
_Static_assert(offsetof(struct aes_ctx, dk) == 240, "aes_ctx.dk offset");
_Static_assert(offsetof(struct aes_ctx, rounds) == 480, "aes_ctx.rounds offset");
_Static_assert(AES_I386_ECB_ENCRYPT == 0 && AES_I386_ECB_DECRYPT == 1 &&
	       AES_I386_CBC_ENCRYPT == 2 && AES_I386_CBC_DECRYPT == 3 &&
	       AES_I386_CFB_ENCRYPT == 4 && AES_I386_CFB_DECRYPT == 5 &&
	       AES_I386_OFB == 6 && AES_I386_CTR == 7, "the assembly's operation table");

/*
 * The stack frame of aes_i386_crypt (offsets from %esp in the mode loops;
 * the rounds, called from there, see each 4 higher):
 *   F_PARK       input columns 1-3 while column 0 is consumed;
 *   F_KEYS       15 round-key slots of 16 bytes, positions 0..14: an
 *                Nr-round schedule is copied to positions 14 - Nr .. 14,
 *                so the last key is always at position 14;
 *   F_ENTRY      the address of the round the schedule starts at;
 *   F_IN, F_OUT  the next input and output block; F_N blocks left;
 *   F_TOG        CBC decryption: which of the two F_SLOTS (0 or 16) holds
 *                the current ciphertext block (the other: the previous);
 *   F_SLOTS      two blocks: CBC decryption's ciphertext; CTR's counter.
 * The arguments follow the frame, the four saved registers and the
 * return address (F_ARGS).
 */
__asm__(
	".set F_PARK, 0\n"
	".set F_KEYS, 16\n"
	".set F_ENTRY, 256\n"
	".set F_IN, 260\n"
	".set F_OUT, 264\n"
	".set F_N, 268\n"
	".set F_TOG, 272\n"
	".set F_SLOTS, 288\n"
	".set F_SIZE, 320\n"
	".set F_ARGS, F_SIZE + 20\n"
	".set A_CTX, F_ARGS\n"
	".set A_OP, F_ARGS + 4\n"
	".set A_IV, F_ARGS + 8\n"
	".set A_IN, F_ARGS + 12\n"
	".set A_OUT, F_ARGS + 16\n"
	".set A_BLOCKS, F_ARGS + 20\n"
	/* Round key position P as the rounds see it (one return address deeper). */
	".set K_BASE, F_KEYS + 4\n"

	/*
	 * cq_col OP, TAB, X, XL, XH, A, B, C, D, NEXT: consume input column X
	 * (byte registers XL, XH): its row-r byte indexes table r of TAB
	 * (1 KiB apart), whose word OP (movl or xorl) goes into output column
	 * A, B, C, D for rows 0..3; then load NEXT (the next parked column),
	 * if given, into X. Loads and ALU operations alternate, and every
	 * index is made two instructions before its load.
	 */
	".macro cq_col op, tab, x, xl, xh, a, b, c, d, next\n"
	"	movzbl \\xl, %esi\n"
	"	movzbl \\xh, %ebp\n"
	"	shrl $16, \\x\n"
	"	\\op \\tab(,%esi,4), \\a\n"
	"	movzbl \\xl, %esi\n"
	"	\\op \\tab+1024(,%ebp,4), \\b\n"
	"	movzbl \\xh, %ebp\n"
	"	\\op \\tab+2048(,%esi,4), \\c\n"
	"	.ifnb \\next\n"
	"	movl \\next, \\x\n"
	"	.endif\n"
	"	\\op \\tab+3072(,%ebp,4), \\d\n"
	".endm\n"

	/*
	 * One round at key position P (the round adds key P - 1 first):
	 * state s0 in X (byte registers XL, XH), s1..s3 in %ecx %edx %edi;
	 * the output t0 in Y, t1..t3 in %ecx %edx %edi. ENC 1: encryption's
	 * ShiftRows, else decryption's.
	 */
	".macro cq_round enc, p, tab, x, xl, xh, y\n"
	"	xorl K_BASE + 16 * (\\p - 1)(%esp), \\x\n"
	"	xorl K_BASE + 16 * (\\p - 1) + 4(%esp), %ecx\n"
	"	xorl K_BASE + 16 * (\\p - 1) + 8(%esp), %edx\n"
	"	xorl K_BASE + 16 * (\\p - 1) + 12(%esp), %edi\n"
	"	movl %ecx, F_PARK + 4(%esp)\n"
	"	movl %edx, F_PARK + 8(%esp)\n"
	"	movl %edi, F_PARK + 12(%esp)\n"
	"	.if \\enc\n"
	"	cq_col movl, \\tab, \\x, \\xl, \\xh, \\y, %edi, %edx, %ecx, F_PARK + 4(%esp)\n"
	"	cq_col xorl, \\tab, \\x, \\xl, \\xh, %ecx, \\y, %edi, %edx, F_PARK + 8(%esp)\n"
	"	cq_col xorl, \\tab, \\x, \\xl, \\xh, %edx, %ecx, \\y, %edi, F_PARK + 12(%esp)\n"
	"	cq_col xorl, \\tab, \\x, \\xl, \\xh, %edi, %edx, %ecx, \\y\n"
	"	.else\n"
	"	cq_col movl, \\tab, \\x, \\xl, \\xh, \\y, %ecx, %edx, %edi, F_PARK + 4(%esp)\n"
	"	cq_col xorl, \\tab, \\x, \\xl, \\xh, %ecx, %edx, %edi, \\y, F_PARK + 8(%esp)\n"
	"	cq_col xorl, \\tab, \\x, \\xl, \\xh, %edx, %edi, \\y, %ecx, F_PARK + 12(%esp)\n"
	"	cq_col xorl, \\tab, \\x, \\xl, \\xh, %edi, \\y, %ecx, %edx\n"
	"	.endif\n"
	".endm\n"

	/*
	 * The rounds of one direction: NAME_r1 .. NAME_r13 (odd rounds take
	 * s0 in %ebx and leave t0 in %eax, even rounds the reverse), the
	 * last round NAME_r14 with the S-box words SBOX, the last key, ret.
	 * In: the state in %ebx %ecx %edx %edi; out: the same; every other
	 * register but %esp is clobbered.
	 */
	".macro cq_rounds enc, name, tab, sbox\n"
	"	.text\n"
	"	.p2align 4\n"
	"\\name\\()_r1:\n"
	"	cq_round \\enc, 1, \\tab, %ebx, %bl, %bh, %eax\n"
	"	cq_round \\enc, 2, \\tab, %eax, %al, %ah, %ebx\n"
	"\\name\\()_r3:\n"
	"	cq_round \\enc, 3, \\tab, %ebx, %bl, %bh, %eax\n"
	"	cq_round \\enc, 4, \\tab, %eax, %al, %ah, %ebx\n"
	"\\name\\()_r5:\n"
	"	cq_round \\enc, 5, \\tab, %ebx, %bl, %bh, %eax\n"
	"	cq_round \\enc, 6, \\tab, %eax, %al, %ah, %ebx\n"
	"	cq_round \\enc, 7, \\tab, %ebx, %bl, %bh, %eax\n"
	"	cq_round \\enc, 8, \\tab, %eax, %al, %ah, %ebx\n"
	"	cq_round \\enc, 9, \\tab, %ebx, %bl, %bh, %eax\n"
	"	cq_round \\enc, 10, \\tab, %eax, %al, %ah, %ebx\n"
	"	cq_round \\enc, 11, \\tab, %ebx, %bl, %bh, %eax\n"
	"	cq_round \\enc, 12, \\tab, %eax, %al, %ah, %ebx\n"
	"	cq_round \\enc, 13, \\tab, %ebx, %bl, %bh, %eax\n"
	"	cq_round \\enc, 14, \\sbox, %eax, %al, %ah, %ebx\n"
	"	xorl K_BASE + 16 * 14(%esp), %ebx\n"
	"	xorl K_BASE + 16 * 14 + 4(%esp), %ecx\n"
	"	xorl K_BASE + 16 * 14 + 8(%esp), %edx\n"
	"	xorl K_BASE + 16 * 14 + 12(%esp), %edi\n"
	"	ret\n"
	".endm\n"

	"cq_rounds 1, cq_aes_enc, aes_te, aes_sbox_col\n"
	"cq_rounds 0, cq_aes_dec, aes_td, aes_inv_sbox_col\n"

	/* Loads and stores of the state; the pointer's register is given. */
	".macro cq_load r\n"
	"	movl 0(\\r), %ebx\n"
	"	movl 4(\\r), %ecx\n"
	"	movl 8(\\r), %edx\n"
	"	movl 12(\\r), %edi\n"
	".endm\n"
	".macro cq_store r\n"
	"	movl %ebx, 0(\\r)\n"
	"	movl %ecx, 4(\\r)\n"
	"	movl %edx, 8(\\r)\n"
	"	movl %edi, 12(\\r)\n"
	".endm\n"
	".macro cq_xor r\n"
	"	xorl 0(\\r), %ebx\n"
	"	xorl 4(\\r), %ecx\n"
	"	xorl 8(\\r), %edx\n"
	"	xorl 12(\\r), %edi\n"
	".endm\n"
	/* %esi = the next input block, F_IN advanced; the same for output. */
	".macro cq_next_in\n"
	"	movl F_IN(%esp), %esi\n"
	"	leal 16(%esi), %eax\n"
	"	movl %eax, F_IN(%esp)\n"
	".endm\n"
	".macro cq_next_out\n"
	"	movl F_OUT(%esp), %esi\n"
	"	leal 16(%esi), %eax\n"
	"	movl %eax, F_OUT(%esp)\n"
	".endm\n"
	/* One word W of a stream mode: out = in ^ R; R = REPLACE ? in : R. */
	".macro cq_stream_word w, r, replace\n"
	"	movl \\w(%esi), %eax\n"
	"	.if \\replace\n"
	"	xorl %eax, \\r\n"
	"	movl \\r, \\w(%ebp)\n"
	"	movl %eax, \\r\n"
	"	.else\n"
	"	xorl \\r, %eax\n"
	"	movl %eax, \\w(%ebp)\n"
	"	.endif\n"
	".endm\n"
	/* CFB decryption and OFB after the rounds: %esi in, %ebp out. */
	".macro cq_stream replace\n"
	"	movl F_IN(%esp), %esi\n"
	"	movl F_OUT(%esp), %ebp\n"
	"	cq_stream_word 0, %ebx, \\replace\n"
	"	cq_stream_word 4, %ecx, \\replace\n"
	"	cq_stream_word 8, %edx, \\replace\n"
	"	cq_stream_word 12, %edi, \\replace\n"
	"	addl $16, %esi\n"
	"	addl $16, %ebp\n"
	"	movl %esi, F_IN(%esp)\n"
	"	movl %ebp, F_OUT(%esp)\n"
	".endm\n"

	"	.text\n"
	"	.globl aes_i386_crypt\n"
	"	.type aes_i386_crypt, @function\n"
	"	.p2align 4\n"
	"aes_i386_crypt:\n"
	"	pushl %ebp\n"
	"	pushl %edi\n"
	"	pushl %esi\n"
	"	pushl %ebx\n"
	"	subl $F_SIZE, %esp\n"
	"	movl A_BLOCKS(%esp), %eax\n"
	"	testl %eax, %eax\n"
	"	jz 9f\n"
	"	movl %eax, F_N(%esp)\n"
	"	movl A_IN(%esp), %eax\n"
	"	movl %eax, F_IN(%esp)\n"
	"	movl A_OUT(%esp), %eax\n"
	"	movl %eax, F_OUT(%esp)\n"
	/* Nr 10, 12 or 14; anything else (a wiped context) runs as 10. */
	"	movl A_CTX(%esp), %esi\n"
	"	movl 480(%esi), %ebx\n"
	"	cmpl $12, %ebx\n"
	"	je 1f\n"
	"	cmpl $14, %ebx\n"
	"	je 1f\n"
	"	movl $10, %ebx\n"
	"1:\n"
	/* The schedule: ek for encryption and the stream modes, dk for ECB
	 * and CBC decryption (operations 1 and 3). */
	"	movl A_OP(%esp), %edx\n"
	"	cmpl $1, %edx\n"
	"	je 2f\n"
	"	cmpl $3, %edx\n"
	"	jne 3f\n"
	"2:\n"
	"	addl $240, %esi\n"
	"3:\n"
	/* Copy 4 (Nr + 1) words to key positions 14 - Nr .. 14. */
	"	leal 1(%ebx), %ecx\n"
	"	shll $2, %ecx\n"
	"	movl $14, %eax\n"
	"	subl %ebx, %eax\n"
	"	shll $4, %eax\n"
	"	leal F_KEYS(%esp,%eax), %edi\n"
	"	rep movsl\n"
	/* The entry round: 15 - Nr. */
	"	movl cq_aes_entries - 20(,%ebx,2), %eax\n"
	"	cmpl $1, %edx\n"
	"	je 4f\n"
	"	cmpl $3, %edx\n"
	"	jne 5f\n"
	"4:\n"
	"	movl cq_aes_entries + 12 - 20(,%ebx,2), %eax\n"
	"5:\n"
	"	movl %eax, F_ENTRY(%esp)\n"
	"	movl A_IV(%esp), %esi\n"
	"	cmpl $7, %edx\n"
	"	ja 9f\n"
	"	jmp *cq_aes_modes(,%edx,4)\n"

	/* ECB, both directions. */
	"	.p2align 4\n"
	"cq_aes_ecb:\n"
	"	cq_next_in\n"
	"	cq_load %esi\n"
	"	call *F_ENTRY(%esp)\n"
	"	cq_next_out\n"
	"	cq_store %esi\n"
	"	decl F_N(%esp)\n"
	"	jnz cq_aes_ecb\n"
	"	jmp 9f\n"

	/* CBC encryption: the state carries the previous ciphertext. */
	"cq_aes_cbc_enc:\n"
	"	cq_load %esi\n"
	"	.p2align 4\n"
	"1:\n"
	"	cq_next_in\n"
	"	cq_xor %esi\n"
	"	call *F_ENTRY(%esp)\n"
	"	cq_next_out\n"
	"	cq_store %esi\n"
	"	decl F_N(%esp)\n"
	"	jnz 1b\n"
	"	jmp 8f\n"

	/* CBC decryption: the previous ciphertext block waits in a slot (the
	 * IV in slot 16 first), read before the output block is written, so
	 * in == out works. */
	"cq_aes_cbc_dec:\n"
	"	cq_load %esi\n"
	"	leal F_SLOTS + 16(%esp), %esi\n"
	"	cq_store %esi\n"
	"	movl $0, F_TOG(%esp)\n"
	"	.p2align 4\n"
	"1:\n"
	"	cq_next_in\n"
	"	cq_load %esi\n"
	"	movl F_TOG(%esp), %ebp\n"
	"	leal F_SLOTS(%esp,%ebp), %esi\n"
	"	cq_store %esi\n"
	"	call *F_ENTRY(%esp)\n"
	"	movl F_TOG(%esp), %ebp\n"
	"	xorl $16, %ebp\n"
	"	movl %ebp, F_TOG(%esp)\n"
	"	leal F_SLOTS(%esp,%ebp), %esi\n"
	"	cq_xor %esi\n"
	"	cq_next_out\n"
	"	cq_store %esi\n"
	"	decl F_N(%esp)\n"
	"	jnz 1b\n"
	/* The last ciphertext block: the slot F_TOG does not name. */
	"	movl F_TOG(%esp), %ebp\n"
	"	xorl $16, %ebp\n"
	"	leal F_SLOTS(%esp,%ebp), %esi\n"
	"	cq_load %esi\n"
	"	jmp 8f\n"

	/* CFB encryption: C = P ^ CIPH(C_prev); the state carries C. */
	"cq_aes_cfb_enc:\n"
	"	cq_load %esi\n"
	"	.p2align 4\n"
	"1:\n"
	"	call *F_ENTRY(%esp)\n"
	"	cq_next_in\n"
	"	cq_xor %esi\n"
	"	cq_next_out\n"
	"	cq_store %esi\n"
	"	decl F_N(%esp)\n"
	"	jnz 1b\n"
	"	jmp 8f\n"

	/* CFB decryption: P = C ^ CIPH(C_prev); the state takes C. */
	"cq_aes_cfb_dec:\n"
	"	cq_load %esi\n"
	"	.p2align 4\n"
	"1:\n"
	"	call *F_ENTRY(%esp)\n"
	"	cq_stream 1\n"
	"	decl F_N(%esp)\n"
	"	jnz 1b\n"
	"	jmp 8f\n"

	/* OFB: the state is the output block O; out = in ^ O. */
	"cq_aes_ofb:\n"
	"	cq_load %esi\n"
	"	.p2align 4\n"
	"1:\n"
	"	call *F_ENTRY(%esp)\n"
	"	cq_stream 0\n"
	"	decl F_N(%esp)\n"
	"	jnz 1b\n"
	"	jmp 8f\n"

	/* CTR: the counter block (memory order) in slot 0, a 128-bit
	 * big-endian integer incremented per block (SP 800-38A B.1). */
	"cq_aes_ctr:\n"
	"	cq_load %esi\n"
	"	leal F_SLOTS(%esp), %esi\n"
	"	cq_store %esi\n"
	"	.p2align 4\n"
	"1:\n"
	"	call *F_ENTRY(%esp)\n"
	"	cq_stream 0\n"
	"	movl F_SLOTS + 12(%esp), %eax\n"
	"	bswap %eax\n"
	"	addl $1, %eax\n"
	"	bswap %eax\n"
	"	movl %eax, F_SLOTS + 12(%esp)\n"
	"	jc 3f\n"
	"2:\n"
	"	leal F_SLOTS(%esp), %esi\n"
	"	cq_load %esi\n"
	"	decl F_N(%esp)\n"
	"	jnz 1b\n"
	"	jmp 8f\n"
	/* A carry out of bytes 12-15: into 8-11, then 4-7, then 0-3. */
	"3:\n"
	"	movl $8, %ecx\n"
	"4:\n"
	"	movl F_SLOTS(%esp,%ecx), %eax\n"
	"	bswap %eax\n"
	"	addl $1, %eax\n"
	"	bswap %eax\n"
	"	movl %eax, F_SLOTS(%esp,%ecx)\n"
	"	jnc 2b\n"
	"	subl $4, %ecx\n"
	"	jns 4b\n"
	"	jmp 2b\n"

	/* The chaining value (state) back into the IV buffer. */
	"8:\n"
	"	movl A_IV(%esp), %esi\n"
	"	cq_store %esi\n"
	"9:\n"
	"	addl $F_SIZE, %esp\n"
	"	popl %ebx\n"
	"	popl %esi\n"
	"	popl %edi\n"
	"	popl %ebp\n"
	"	ret\n"
	"	.size aes_i386_crypt, . - aes_i386_crypt\n"

	"	.section .rodata\n"
	"	.p2align 2\n"
	/* Entry rounds for Nr = 10, 12, 14: encryption, then decryption
	 * (indexed by 2 Nr - 20). */
	"cq_aes_entries:\n"
	"	.long cq_aes_enc_r5, cq_aes_enc_r3, cq_aes_enc_r1\n"
	"	.long cq_aes_dec_r5, cq_aes_dec_r3, cq_aes_dec_r1\n"
	"cq_aes_modes:\n"
	"	.long cq_aes_ecb, cq_aes_ecb, cq_aes_cbc_enc, cq_aes_cbc_dec\n"
	"	.long cq_aes_cfb_enc, cq_aes_cfb_dec, cq_aes_ofb, cq_aes_ctr\n"
	"	.text\n"

	".purgem cq_col\n"
	".purgem cq_round\n"
	".purgem cq_rounds\n"
	".purgem cq_load\n"
	".purgem cq_store\n"
	".purgem cq_xor\n"
	".purgem cq_next_in\n"
	".purgem cq_next_out\n"
	".purgem cq_stream_word\n"
	".purgem cq_stream\n");

#endif
