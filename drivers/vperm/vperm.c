/*
 * The vector-permute AES engine (drivers/vperm/vperm.h): the cipher and its
 * mode loops in assembly (SSSE3, .text_cpufeat), the key schedule with
 * SSSE3 intrinsics (CPUFEAT_FN), the engine glue in plain i586 code.
 *
 * A block: the input transform into the state basis (two lookups by
 * nibble) and round key 0; Nr - 1 middle rounds; the last round. A middle
 * round (40 instructions for encryption, 49 for decryption):
 *   ShiftRows (or InvShiftRows) as one PSHUFB: it commutes with the
 *   byte-wise S-box, so it goes first;
 *   the inversion in GF(2^8) from nibble lookups (vp_invert: the two
 *   output nibbles io and jo; lib/crypto/vperm_tables.c derives it);
 *   encryption: A = S-box terms and 2A from io and jo in basis T, and
 *   MixColumns as 2A + 3B + C + D with B, C, D the column rotated by one,
 *   two and three rows: (2A + B) + rot3(A) + rot1(2A + B);
 *   decryption: InvMixColumns in Horner form,
 *   rot1(rot1(rot1(9A) + 13A) + 11A) + 14A, from the 9, 13, 11 and 14
 *   tables of the inverse S-box terms in basis U;
 *   the round key, whose constants put the S-box's back (vperm_expand_key).
 * The last round has no MixColumns: the S-box (or its inverse) terms in the
 * standard basis and the last key. Every lookup is PSHUFB of a fixed table
 * by the data: nothing the data chooses is read from memory, so the time
 * does not depend on key or data (no cache-timing leak). %xmm7 holds the
 * nibble mask and %xmm6 the 1/x table through a call; the tables are
 * 16-byte aligned memory operands.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernel/platform/cpufeat.h"
#include "drivers/vperm/vperm.h"
#include "lib/crypto/vperm_tables.h"
#include "lib/engine/driver.h"

#if defined(__i386__) && !defined(__PIC__)
#define VPERM_BUILT	1
#else
#define VPERM_BUILT	0
#endif

#if VPERM_BUILT

/* GCC's xmmintrin.h includes mm_malloc.h, which includes stdlib.h: the
 * freestanding kernel has neither (drivers/aesni/aesni.c does the same). */
#if !__STDC_HOSTED__
#define _MM_MALLOC_H_INCLUDED
#endif
#include <tmmintrin.h>		/* SSSE3; includes SSE2 */

/* The kernel is assembled for the i586: allow SSSE3 in this file (the
 * instruction audit still checks that it stays in .text_cpufeat). */
__asm__(".arch .sse2\n\t.arch .ssse3");

#define VPERM_FN	CPUFEAT_FN("ssse3")
#define VPERM_INLINE	static inline __attribute__((always_inline, target("ssse3")))

_Static_assert(offsetof(struct vperm_key, enc) == 0, "vperm_key.enc offset");
_Static_assert(offsetof(struct vperm_key, dec) == 240, "vperm_key.dec offset");
_Static_assert(offsetof(struct vperm_key, rounds) == 480, "vperm_key.rounds offset");
_Static_assert(VPERM_ECB_ENCRYPT == 0 && VPERM_ECB_DECRYPT == 1 && VPERM_CBC_ENCRYPT == 2 &&
	       VPERM_CBC_DECRYPT == 3 && VPERM_CFB_ENCRYPT == 4 && VPERM_CFB_DECRYPT == 5 &&
	       VPERM_OFB == 6 && VPERM_CTR == 7, "the assembly's operation table");

#define STR2(x)	#x
#define STR(x)	STR2(x)

/*
 * vp_crypt_asm (vperm_crypt's body, cdecl): the frame is aligned to 16 bytes below the saved
 * %ebp: VF_SLOT (16 bytes: CBC decryption's previous ciphertext block,
 * CTR's counter), VF_NEG (-16 Nr: the round index's start, the keys being
 * addressed from the last one, %edx, down), VF_IV. Arguments at 20(%ebp).
 * In the loops: %esi in, %edi out, %ebx blocks left, %edx the schedule's
 * last key, %ecx the round index, %eax scratch.
 */
__asm__(
	".set VT_BASE, vperm_tab\n"
	".set VF_SLOT, 0\n"
	".set VF_NEG, 16\n"
	".set VF_IV, 20\n"
	".set VF_SIZE, 32\n"
	".macro vt name, reg\n"
	"	movdqa VT_BASE + 16 * \\name, \\reg\n"
	".endm\n"
	/* %xmm0 = x -> %xmm2 = io, %xmm3 = jo (clobbers %xmm0 %xmm1 %xmm4). */
	".macro vp_invert\n"
	"	movdqa %xmm7, %xmm1\n"
	"	pandn %xmm0, %xmm1\n"
	"	psrld $4, %xmm1\n"		/* i */
	"	pand %xmm7, %xmm0\n"		/* k */
	"	vt " STR(VT_INVA) ", %xmm2\n"
	"	pshufb %xmm0, %xmm2\n"		/* a/k */
	"	pxor %xmm1, %xmm0\n"		/* j = i + k */
	"	movdqa %xmm6, %xmm3\n"
	"	pshufb %xmm1, %xmm3\n"		/* 1/i */
	"	pxor %xmm2, %xmm3\n"		/* 1/i + a/k */
	"	movdqa %xmm6, %xmm4\n"
	"	pshufb %xmm0, %xmm4\n"		/* 1/j */
	"	pxor %xmm2, %xmm4\n"		/* 1/j + a/k */
	"	movdqa %xmm6, %xmm2\n"
	"	pshufb %xmm3, %xmm2\n"
	"	pxor %xmm0, %xmm2\n"		/* io = j + 1/(1/i + a/k) */
	"	movdqa %xmm6, %xmm3\n"
	"	pshufb %xmm4, %xmm3\n"
	"	pxor %xmm1, %xmm3\n"		/* jo = i + 1/(1/j + a/k) */
	".endm\n"
	/* DST = table U by io ^ table T by jo (clobbers TMP). */
	".macro vp_out u, t, dst, tmp\n"
	"	vt \\u, \\dst\n"
	"	pshufb %xmm2, \\dst\n"
	"	vt \\t, \\tmp\n"
	"	pshufb %xmm3, \\tmp\n"
	"	pxor \\tmp, \\dst\n"
	".endm\n"
	/* DST ^= table U by io ^ table T by jo (clobbers %xmm1). */
	".macro vp_add u, t, dst\n"
	"	vt \\u, %xmm1\n"
	"	pshufb %xmm2, %xmm1\n"
	"	pxor %xmm1, \\dst\n"
	"	vt \\t, %xmm1\n"
	"	pshufb %xmm3, %xmm1\n"
	"	pxor %xmm1, \\dst\n"
	".endm\n"
	/* %xmm0 = the nibble tables LO, HI of %xmm0 XORed (a change of basis). */
	".macro vp_basis lo, hi\n"
	"	movdqa %xmm7, %xmm1\n"
	"	pandn %xmm0, %xmm1\n"
	"	psrld $4, %xmm1\n"
	"	pand %xmm7, %xmm0\n"
	"	vt \\lo, %xmm2\n"
	"	pshufb %xmm0, %xmm2\n"
	"	vt \\hi, %xmm0\n"
	"	pshufb %xmm1, %xmm0\n"
	"	pxor %xmm2, %xmm0\n"
	".endm\n"
	/* Encrypt %xmm0 in place with the schedule ending at %edx. */
	".macro vp_enc\n"
	"	movl VF_NEG(%esp), %ecx\n"
	"	vp_basis " STR(VT_IPT_LO) ", " STR(VT_IPT_HI) "\n"
	"	pxor (%edx,%ecx), %xmm0\n"
	"	addl $16, %ecx\n"
	".Lvpe\\@:\n"
	"	pshufb VT_BASE + 16 * " STR(VT_SR) ", %xmm0\n"
	"	vp_invert\n"
	"	vp_out " STR(VT_SB1U) ", " STR(VT_SB1T) ", %xmm0, %xmm1\n"	/* A */
	"	vp_out " STR(VT_SB2U) ", " STR(VT_SB2T) ", %xmm4, %xmm5\n"	/* 2A */
	"	movdqa %xmm0, %xmm1\n"
	"	pshufb VT_BASE + 16 * " STR(VT_ROT1) ", %xmm1\n"		/* B */
	"	pxor %xmm1, %xmm4\n"						/* 2A + B */
	"	pshufb VT_BASE + 16 * " STR(VT_ROT3) ", %xmm0\n"		/* D */
	"	pxor %xmm4, %xmm0\n"
	"	pshufb VT_BASE + 16 * " STR(VT_ROT1) ", %xmm4\n"		/* 2B + C */
	"	pxor %xmm4, %xmm0\n"
	"	pxor (%edx,%ecx), %xmm0\n"
	"	addl $16, %ecx\n"
	"	jnz .Lvpe\\@\n"
	"	pshufb VT_BASE + 16 * " STR(VT_SR) ", %xmm0\n"
	"	vp_invert\n"
	"	vp_out " STR(VT_SBOU) ", " STR(VT_SBOT) ", %xmm0, %xmm1\n"
	"	pxor (%edx), %xmm0\n"
	".endm\n"
	/* Decrypt %xmm0 in place with the schedule ending at %edx. */
	".macro vp_dec\n"
	"	movl VF_NEG(%esp), %ecx\n"
	"	vp_basis " STR(VT_DIPT_LO) ", " STR(VT_DIPT_HI) "\n"
	"	pxor (%edx,%ecx), %xmm0\n"
	"	addl $16, %ecx\n"
	".Lvpd\\@:\n"
	"	pshufb VT_BASE + 16 * " STR(VT_ISR) ", %xmm0\n"
	"	vp_invert\n"
	"	vp_out " STR(VT_D9U) ", " STR(VT_D9T) ", %xmm0, %xmm1\n"
	"	pshufb VT_BASE + 16 * " STR(VT_ROT1) ", %xmm0\n"
	"	vp_add " STR(VT_DDU) ", " STR(VT_DDT) ", %xmm0\n"
	"	pshufb VT_BASE + 16 * " STR(VT_ROT1) ", %xmm0\n"
	"	vp_add " STR(VT_DBU) ", " STR(VT_DBT) ", %xmm0\n"
	"	pshufb VT_BASE + 16 * " STR(VT_ROT1) ", %xmm0\n"
	"	vp_add " STR(VT_DEU) ", " STR(VT_DET) ", %xmm0\n"
	"	pxor (%edx,%ecx), %xmm0\n"
	"	addl $16, %ecx\n"
	"	jnz .Lvpd\\@\n"
	"	pshufb VT_BASE + 16 * " STR(VT_ISR) ", %xmm0\n"
	"	vp_invert\n"
	"	vp_out " STR(VT_DOU) ", " STR(VT_DOT) ", %xmm0, %xmm1\n"
	"	pxor (%edx), %xmm0\n"
	".endm\n"
	".macro vp_next\n"
	"	addl $16, %esi\n"
	"	addl $16, %edi\n"
	"	decl %ebx\n"
	".endm\n"

	"	.section .text_cpufeat,\"ax\",@progbits\n"
	"	.type vp_crypt_asm, @function\n"
	"	.p2align 4\n"
	"vp_crypt_asm:\n"
	"	pushl %ebp\n"
	"	pushl %edi\n"
	"	pushl %esi\n"
	"	pushl %ebx\n"
	"	movl %esp, %ebp\n"
	"	subl $VF_SIZE, %esp\n"
	"	andl $-16, %esp\n"
	"	movl 40(%ebp), %ebx\n"		/* blocks */
	"	testl %ebx, %ebx\n"
	"	jz 9f\n"
	"	movl 32(%ebp), %esi\n"
	"	movl 36(%ebp), %edi\n"
	"	movl 28(%ebp), %eax\n"
	"	movl %eax, VF_IV(%esp)\n"
	"	movl 20(%ebp), %edx\n"		/* the key */
	"	movl 480(%edx), %ecx\n"		/* Nr: 10, 12 or 14; else (wiped) 10 */
	"	cmpl $12, %ecx\n"
	"	je 1f\n"
	"	cmpl $14, %ecx\n"
	"	je 1f\n"
	"	movl $10, %ecx\n"
	"1:\n"
	"	shll $4, %ecx\n"
	"	addl %ecx, %edx\n"		/* enc[Nr] */
	"	negl %ecx\n"
	"	movl %ecx, VF_NEG(%esp)\n"
	"	movl 24(%ebp), %eax\n"		/* the operation */
	"	cmpl $1, %eax\n"
	"	je 2f\n"
	"	cmpl $3, %eax\n"
	"	jne 3f\n"
	"2:\n"
	"	addl $240, %edx\n"		/* dec[Nr] */
	"3:\n"
	"	vt " STR(VT_MASK) ", %xmm7\n"
	"	vt " STR(VT_INV) ", %xmm6\n"
	"	cmpl $7, %eax\n"
	"	ja 9f\n"
	"	movl VF_IV(%esp), %ecx\n"
	"	jmp *vp_modes(,%eax,4)\n"

	"vp_ecb_enc:\n"
	"	movdqu (%esi), %xmm0\n"
	"	vp_enc\n"
	"	movdqu %xmm0, (%edi)\n"
	"	vp_next\n"
	"	jnz vp_ecb_enc\n"
	"	jmp 9f\n"

	"vp_ecb_dec:\n"
	"	movdqu (%esi), %xmm0\n"
	"	vp_dec\n"
	"	movdqu %xmm0, (%edi)\n"
	"	vp_next\n"
	"	jnz vp_ecb_dec\n"
	"	jmp 9f\n"

	/* CBC encryption: %xmm0 carries the previous ciphertext block. */
	"vp_cbc_enc:\n"
	"	movdqu (%ecx), %xmm0\n"
	"1:\n"
	"	movdqu (%esi), %xmm1\n"
	"	pxor %xmm1, %xmm0\n"
	"	vp_enc\n"
	"	movdqu %xmm0, (%edi)\n"
	"	vp_next\n"
	"	jnz 1b\n"
	"	jmp 8f\n"

	/* CBC decryption: the previous ciphertext block in VF_SLOT; the
	 * current one is read again before the output overwrites it. */
	"vp_cbc_dec:\n"
	"	movdqu (%ecx), %xmm0\n"
	"	movdqa %xmm0, VF_SLOT(%esp)\n"
	"1:\n"
	"	movdqu (%esi), %xmm0\n"
	"	vp_dec\n"
	"	pxor VF_SLOT(%esp), %xmm0\n"
	"	movdqu (%esi), %xmm1\n"
	"	movdqa %xmm1, VF_SLOT(%esp)\n"
	"	movdqu %xmm0, (%edi)\n"
	"	vp_next\n"
	"	jnz 1b\n"
	"	movdqa VF_SLOT(%esp), %xmm0\n"
	"	jmp 8f\n"

	/* CFB encryption: C = P ^ E(C_prev); %xmm0 carries C. */
	"vp_cfb_enc:\n"
	"	movdqu (%ecx), %xmm0\n"
	"1:\n"
	"	vp_enc\n"
	"	movdqu (%esi), %xmm1\n"
	"	pxor %xmm1, %xmm0\n"
	"	movdqu %xmm0, (%edi)\n"
	"	vp_next\n"
	"	jnz 1b\n"
	"	jmp 8f\n"

	/* CFB decryption: P = C ^ E(C_prev); %xmm0 takes C. */
	"vp_cfb_dec:\n"
	"	movdqu (%ecx), %xmm0\n"
	"1:\n"
	"	vp_enc\n"
	"	movdqu (%esi), %xmm1\n"
	"	pxor %xmm1, %xmm0\n"
	"	movdqu %xmm0, (%edi)\n"
	"	movdqa %xmm1, %xmm0\n"
	"	vp_next\n"
	"	jnz 1b\n"
	"	jmp 8f\n"

	/* OFB: %xmm0 carries the output block O; out = in ^ O. */
	"vp_ofb:\n"
	"	movdqu (%ecx), %xmm0\n"
	"1:\n"
	"	vp_enc\n"
	"	movdqu (%esi), %xmm1\n"
	"	pxor %xmm0, %xmm1\n"
	"	movdqu %xmm1, (%edi)\n"
	"	vp_next\n"
	"	jnz 1b\n"
	"	jmp 8f\n"

	/* CTR: the counter block in VF_SLOT, incremented as a 128-bit
	 * big-endian integer (SP 800-38A B.1) in the integer registers. */
	"vp_ctr:\n"
	"	movdqu (%ecx), %xmm0\n"
	"	movdqa %xmm0, VF_SLOT(%esp)\n"
	"1:\n"
	"	movdqa VF_SLOT(%esp), %xmm0\n"
	"	vp_enc\n"
	"	movdqu (%esi), %xmm1\n"
	"	pxor %xmm1, %xmm0\n"
	"	movdqu %xmm0, (%edi)\n"
	"	movl $12, %ecx\n"
	"2:\n"
	"	movl VF_SLOT(%esp,%ecx), %eax\n"
	"	bswap %eax\n"
	"	addl $1, %eax\n"
	"	bswap %eax\n"
	"	movl %eax, VF_SLOT(%esp,%ecx)\n"
	"	jnc 3f\n"
	"	subl $4, %ecx\n"
	"	jns 2b\n"
	"3:\n"
	"	vp_next\n"
	"	jnz 1b\n"
	"	movdqa VF_SLOT(%esp), %xmm0\n"

	/* The chaining value back into the IV buffer. */
	"8:\n"
	"	movl VF_IV(%esp), %ecx\n"
	"	movdqu %xmm0, (%ecx)\n"
	"9:\n"
	"	movl %ebp, %esp\n"
	"	popl %ebx\n"
	"	popl %esi\n"
	"	popl %edi\n"
	"	popl %ebp\n"
	"	ret\n"
	"	.size vp_crypt_asm, . - vp_crypt_asm\n"
	"	.section .rodata\n"
	"	.p2align 2\n"
	"vp_modes:\n"
	"	.long vp_ecb_enc, vp_ecb_dec, vp_cbc_enc, vp_cbc_dec\n"
	"	.long vp_cfb_enc, vp_cfb_dec, vp_ofb, vp_ctr\n"
	"	.text\n"
	".purgem vt\n"
	".purgem vp_invert\n"
	".purgem vp_out\n"
	".purgem vp_add\n"
	".purgem vp_basis\n"
	".purgem vp_enc\n"
	".purgem vp_dec\n"
	".purgem vp_next\n");

__attribute__((regparm(0), cdecl)) void vperm_crypt_asm(const struct vperm_key *k,
							enum vperm_op op, uint8_t *iv,
							const uint8_t *in, uint8_t *out,
							size_t blocks) __asm__("vp_crypt_asm");

/* ---- key schedule ---- */

VPERM_INLINE __m128i tab(unsigned i)
{
	return _mm_load_si128((const __m128i *)vperm_tab.t[i]);
}

/* The change of basis of x by the nibble tables lo, hi. */
VPERM_INLINE __m128i basis(__m128i x, unsigned lo, unsigned hi)
{
	__m128i m = tab(VT_MASK);

	return _mm_xor_si128(_mm_shuffle_epi8(tab(lo), _mm_and_si128(x, m)),
			     _mm_shuffle_epi8(tab(hi), _mm_and_si128(_mm_srli_epi32(x, 4), m)));
}

/* The S-box on every byte of x, through the same shuffles as the cipher. */
VPERM_INLINE __m128i sub_bytes(__m128i x)
{
	__m128i m = tab(VT_MASK), inv = tab(VT_INV), i, k, j, ak, io, jo;

	x = basis(x, VT_IPT_LO, VT_IPT_HI);
	i = _mm_and_si128(_mm_srli_epi32(x, 4), m);
	k = _mm_and_si128(x, m);
	j = _mm_xor_si128(i, k);
	ak = _mm_shuffle_epi8(tab(VT_INVA), k);
	io = _mm_xor_si128(_mm_shuffle_epi8(inv, _mm_xor_si128(_mm_shuffle_epi8(inv, i), ak)), j);
	jo = _mm_xor_si128(_mm_shuffle_epi8(inv, _mm_xor_si128(_mm_shuffle_epi8(inv, j), ak)), i);
	return _mm_xor_si128(_mm_xor_si128(_mm_shuffle_epi8(tab(VT_SBOU), io),
					   _mm_shuffle_epi8(tab(VT_SBOT), jo)),
			     _mm_set1_epi8(0x63));
}

/* InvMixColumns (FIPS-197 5.3.3) of one column, row 0 in bits 0-7,
 * branch-free: xtime on the four bytes at once. */
static uint32_t inv_mix_column(uint32_t w)
{
#define XT(x)	((((x) & 0x7f7f7f7fu) << 1) ^ ((((x) >> 7) & 0x01010101u) * 0x1b))
	uint32_t m2 = XT(w), m4 = XT(m2), m8 = XT(m4);
	uint32_t m9 = m8 ^ w, m11 = m8 ^ m2 ^ w, m13 = m8 ^ m4 ^ w, m14 = m8 ^ m4 ^ m2;
#undef XT
#define ROTR(x, n)	((x) >> (n) | (x) << (32 - (n)))
	return m14 ^ ROTR(m11, 8) ^ ROTR(m13, 16) ^ ROTR(m9, 24);
#undef ROTR
}

/*
 * FIPS-197 5.2 KeyExpansion over 32-bit words (bytes in memory order),
 * SubWord through sub_bytes(), then the keys in the cipher's bases
 * (struct vperm_key): encryption's in T with T(0x63) added to the middle
 * ones and 0x63 to the last (the S-box's constant, which the output
 * tables leave out; MixColumns keeps a constant column), decryption's
 * (5.3.5: reversed, InvMixColumns on the middle ones) in U with T(0x05)
 * added to all but the last (the inverse S-box's constant, which comes
 * before its inversion).
 */
VPERM_FN static void expand(struct vperm_key *k, const uint8_t *key, unsigned nk)
{
	uint32_t w[4 * (VPERM_MAX_ROUNDS + 1)], t, rcon = 1;
	unsigned nr = nk + 6, n = 4 * (nr + 1), i, r;
	__m128i x, c63 = _mm_set1_epi8(0x63);

	vperm_tables_init();
	memcpy(w, key, 4 * nk);
	for (i = nk; i < n; i++) {
		t = w[i - 1];
		if (i % nk == 0 || (nk > 6 && i % nk == 4)) {
			if (i % nk == 0)
				t = t >> 8 | t << 24;	/* RotWord in this byte order */
			t = (uint32_t)_mm_cvtsi128_si32(sub_bytes(_mm_cvtsi32_si128((int)t)));
			if (i % nk == 0) {
				t ^= rcon;
				rcon = (rcon << 1) ^ ((rcon >> 7) * 0x11b);
			}
		}
		w[i] = w[i - nk] ^ t;
	}
	for (r = 0; r <= nr; r++) {
		x = _mm_loadu_si128((const __m128i *)&w[4 * r]);
		if (r == nr)
			x = _mm_xor_si128(x, c63);
		else
			x = basis(x, VT_IPT_LO, VT_IPT_HI);
		if (r > 0 && r < nr)
			x = _mm_xor_si128(x, tab(VT_K63));
		_mm_store_si128((__m128i *)k->enc[r], x);
	}
	for (r = 0; r <= nr; r++) {
		const uint32_t *src = &w[4 * (nr - r)];
		uint32_t col[4];

		for (i = 0; i < 4; i++)
			col[i] = (r == 0 || r == nr) ? src[i] : inv_mix_column(src[i]);
		x = _mm_loadu_si128((const __m128i *)col);
		if (r < nr)
			x = _mm_xor_si128(basis(x, VT_DIPT_LO, VT_DIPT_HI), tab(VT_K05));
		_mm_store_si128((__m128i *)k->dec[r], x);
		memset(col, 0, sizeof(col));
	}
	k->rounds = nr;
	memset(w, 0, sizeof(w));
	__asm__ __volatile__("" : : "r"(w) : "memory");
}

int vperm_expand_key(struct vperm_key *k, const uint8_t *key, unsigned key_bits)
{
	if (key_bits != 128 && key_bits != 192 && key_bits != 256)
		return ENGINE_EKEY;
	expand(k, key, key_bits / 32);
	return 0;
}

void vperm_crypt(const struct vperm_key *k, enum vperm_op op, uint8_t iv[16],
		 const uint8_t *in, uint8_t *out, size_t blocks)
{
	vperm_crypt_asm(k, op, iv, in, out, blocks);
}

#else	/* !VPERM_BUILT */

int vperm_expand_key(struct vperm_key *k, const uint8_t *key, unsigned key_bits)
{
	(void)k, (void)key, (void)key_bits;
	return ENGINE_EUNSUPPORTED;
}

void vperm_crypt(const struct vperm_key *k, enum vperm_op op, uint8_t iv[16],
		 const uint8_t *in, uint8_t *out, size_t blocks)
{
	(void)k, (void)op, (void)iv, (void)in, (void)out, (void)blocks;
}

#endif

/* ---- the engine ---- */

_Static_assert(sizeof(struct vperm_key) <= AES_SESSION_PRIV_BYTES,
	       "struct vperm_key must fit in aes_session.priv");

static struct vperm_key *session_key(struct aes_session *s)
{
	return (struct vperm_key *)(void *)s->priv;
}

/* memset that the compiler cannot drop as a dead store. */
static void wipe(void *p, size_t n)
{
	volatile uint8_t *v = p;

	while (n--)
		*v++ = 0;
}

static int vp_set_key(struct aes_session *s, const uint8_t *key, unsigned key_bits)
{
	int rc = vperm_expand_key(session_key(s), key, key_bits);

	if (rc != 0)
		return rc;
	s->engine = &vperm_engine;
	s->key_bits = key_bits;
	return ENGINE_OK;
}

static int vp_crypt(struct aes_session *s, enum aes_mode mode, enum aes_dir dir, uint8_t *iv,
		    const uint8_t *in, uint8_t *out, size_t len)
{
	static const enum vperm_op ops[AES_MODE_COUNT][AES_DIR_COUNT] = {
		[AES_MODE_ECB] = { VPERM_ECB_ENCRYPT, VPERM_ECB_DECRYPT },
		[AES_MODE_CBC] = { VPERM_CBC_ENCRYPT, VPERM_CBC_DECRYPT },
		[AES_MODE_CFB128] = { VPERM_CFB_ENCRYPT, VPERM_CFB_DECRYPT },
		[AES_MODE_OFB] = { VPERM_OFB, VPERM_OFB },
		[AES_MODE_CTR] = { VPERM_CTR, VPERM_CTR },
	};

	if ((unsigned)mode >= AES_MODE_COUNT || (unsigned)dir >= AES_DIR_COUNT ||
	    !aes_engine_supports(&vperm_engine, s->key_bits, mode, dir))
		return ENGINE_EUNSUPPORTED;
	if (len % AES_BLOCK_BYTES != 0)
		return ENGINE_ELEN;
	if (mode != AES_MODE_ECB && iv == NULL)
		return ENGINE_EUNSUPPORTED;
	vperm_crypt(session_key(s), ops[mode][dir], iv, in, out, len / AES_BLOCK_BYTES);
	return ENGINE_OK;
}

static void vp_release(struct aes_session *s)
{
	wipe(s->priv, sizeof(struct vperm_key));
	s->key_bits = 0;
}

#define VP_ALL_PAIRS	((1u << (AES_MODE_COUNT * AES_DIR_COUNT)) - 1)

const struct aes_engine vperm_engine = {
	.name = "vperm",
	.description = "constant-time vector-permute AES on the CPU (SSSE3 PSHUFB, Hamburg CHES 2009), the software baseline where SSSE3 exists",
	.supported = { VP_ALL_PAIRS, VP_ALL_PAIRS, VP_ALL_PAIRS },
	.align = 1,
	.max_len = 0,
	.set_key = vp_set_key,
	.crypt = vp_crypt,
	.release = vp_release,
};

const char *vperm_absent_reason(const struct cpu_info *cpu)
{
	if (!VPERM_BUILT)
		return "not built for this architecture (32-bit x86 only)";
	if (!cpu->ssse3)
		return "CPUID.1:ECX.SSSE3 is clear";
	return NULL;
}

/* The driver interface (lib/engine/driver.h): one unit, the vperm engine. */
static void vperm_driver_probe(const struct driver_facts *f, struct driver_probe *out)
{
	const char *why = vperm_absent_reason(f->cpu);
	int rc;

	if (!why && !f->sse_enabled)
		why = "SSE could not be enabled (CR0/CR4)";
	if (!why) {
		rc = engine_register_aes(&vperm_engine);
		if (rc != 0)
			why = engine_strerror(rc);
	}
	if (why)
		driver_unit(out, "kat: vperm (vector-permute AES engine)", "%s", why);
	else
		driver_unit(out, "kat: vperm (vector-permute AES engine)", NULL);
}

const struct driver vperm_driver = {
	.name = "vperm",
	.probe = vperm_driver_probe,
};
