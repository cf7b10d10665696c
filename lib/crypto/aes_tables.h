/*
 * The AES lookup tables (lib/crypto/aes_tables.c computes them at first
 * use). Internal to lib/crypto/aes.c, its assembly and its tests; the
 * field product serves lib/crypto/vperm_tables.c too.
 *
 * A state column is a 32-bit word with row 0 in bits 0-7 up to row 3 in bits
 * 24-31. aes_te[r][x] is the column that byte x in row r becomes after
 * SubBytes and MixColumns (FIPS-197 5.1.1, 5.1.3); aes_td[r][x] the same for
 * InvSubBytes and InvMixColumns (5.3.2, 5.3.3). Each is 4 x 256 x 4 bytes.
 */
#ifndef CQ_LIB_AES_TABLES_H
#define CQ_LIB_AES_TABLES_H

#include <stddef.h>
#include <stdint.h>

extern uint8_t aes_sbox[256];
extern uint8_t aes_inv_sbox[256];
extern uint32_t aes_te[4][256];
extern uint32_t aes_td[4][256];

/* a * b in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1 (FIPS-197 4.2). */
uint8_t aes_gf_mul(uint8_t a, uint8_t b);

/*
 * Fills the four tables (idempotent: later calls return at once). Called
 * by aes_set_key(), which every use of the tables follows; a test that
 * reads the tables directly calls it first.
 */
void aes_tables_init(void);

/*
 * The last round's tables of the i386 assembly: aes_sbox_col[r][x] is
 * S(x) in row r of a column (shifted left by 8 r bits), aes_inv_sbox_col
 * the same for the inverse S-box (4 x 256 x 4 bytes each).
 */
extern uint32_t aes_sbox_col[4][256];
extern uint32_t aes_inv_sbox_col[4][256];

/*
 * The cipher and its modes in i386 assembly (lib/crypto/aes_i386.c), used
 * by lib/crypto/aes.c where AES_I386_ASM is 1: 32-bit x86 without
 * position-independent code (the assembly addresses the tables
 * absolutely).
 */
#if defined(__i386__) && !defined(__PIC__)
#define AES_I386_ASM	1
#else
#define AES_I386_ASM	0
#endif

/* Arguments on the stack, popped by the caller, whatever convention the
 * C code is built with (the kernel: -mregparm=3 -mrtd). */
#if AES_I386_ASM
#define AES_I386_ABI	__attribute__((regparm(0), cdecl))
#else
#define AES_I386_ABI
#endif

/* aes_i386_crypt()'s operations: SP 800-38A 6.1-6.5 on whole blocks. */
enum aes_i386_op {
	AES_I386_ECB_ENCRYPT,
	AES_I386_ECB_DECRYPT,
	AES_I386_CBC_ENCRYPT,
	AES_I386_CBC_DECRYPT,
	AES_I386_CFB_ENCRYPT,	/* CFB128 */
	AES_I386_CFB_DECRYPT,
	AES_I386_OFB,
	AES_I386_CTR,		/* the counter a 128-bit big-endian integer, B.1 */
};

/*
 * blocks 16-byte blocks from in to out (in == out allowed, other overlaps
 * not) with the context's ek schedule (dk for ECB and CBC decryption) and
 * round count. iv (16 bytes; unused for ECB) is the IV, output block or
 * counter in and the next one out, as lib/crypto/aes.h's modes leave it.
 * Nothing happens for blocks = 0.
 */
struct aes_ctx;
AES_I386_ABI void aes_i386_crypt(const struct aes_ctx *c, enum aes_i386_op op, uint8_t *iv,
				 const uint8_t *in, uint8_t *out, size_t blocks);

#endif
