/*
 * The AES lookup tables (lib/crypto/aes_tables.c computes them at first
 * use). Internal to lib/crypto/aes.c, its assembly and its tests.
 *
 * A state column is a 32-bit word with row 0 in bits 0-7 up to row 3 in bits
 * 24-31. aes_te[r][x] is the column that byte x in row r becomes after
 * SubBytes and MixColumns (FIPS-197 5.1.1, 5.1.3); aes_td[r][x] the same for
 * InvSubBytes and InvMixColumns (5.3.2, 5.3.3). Each is 4 x 256 x 4 bytes.
 */
#ifndef CQ_LIB_AES_TABLES_H
#define CQ_LIB_AES_TABLES_H

#include <stdint.h>

extern uint8_t aes_sbox[256];
extern uint8_t aes_inv_sbox[256];
extern uint32_t aes_te[4][256];
extern uint32_t aes_td[4][256];

/*
 * Fills the four tables (idempotent: later calls return at once). Called
 * by aes_set_key(), which every use of the tables follows; a test that
 * reads the tables directly calls it first.
 */
void aes_tables_init(void);

/*
 * The cipher in i386 assembly (lib/crypto/aes_i386.c), used by lib/crypto/aes.c where
 * AES_I386_ASM is 1: 32-bit x86 without position-independent code (the
 * assembly addresses the tables absolutely). st[4] holds the state
 * columns (row 0 in bits 0-7), encrypted or decrypted in place with the
 * context's ek or dk schedule and its round count.
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

struct aes_ctx;
AES_I386_ABI void aes_i386_encrypt(const struct aes_ctx *c, uint32_t st[4]);
AES_I386_ABI void aes_i386_decrypt(const struct aes_ctx *c, uint32_t st[4]);

#endif
