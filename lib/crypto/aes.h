/*
 * AES-128/192/256 in software (FIPS-197) and the SP 800-38A modes ECB, CBC,
 * CFB128, OFB and CTR. Table driven, written for i586 (32-bit words, no SSE)
 * and used by the kernel as the reference that hardware engines (Geode LX,
 * VIA PadLock ACE, AES-NI) are checked against.
 *
 * Units: keys and lengths are in bytes; a block is AES_BLOCK_BYTES (16).
 * Every function accepts unaligned buffers and in == out (in place); other
 * overlaps of in and out are not supported. A context must be set by
 * aes_set_key() before use; it holds no other state, so one context may
 * serve several messages. Release it with aes_wipe().
 */
#ifndef CQ_LIB_AES_H
#define CQ_LIB_AES_H

#include <stddef.h>
#include <stdint.h>

#define AES_BLOCK_BYTES	16	/* FIPS-197 3.1: Nb = 4 words of 32 bits */
#define AES_MAX_ROUNDS	14	/* Nr for a 256-bit key, FIPS-197 Figure 4 */
#define AES_RK_WORDS	(4 * (AES_MAX_ROUNDS + 1))	/* Nb * (Nr + 1) */

/* Error returns (negative). */
#define AES_EKEYLEN	(-1)	/* key length not 16, 24 or 32 bytes */
#define AES_ELEN	(-2)	/* data length not a multiple of 16 bytes */

/*
 * Expanded key. Words hold a state column with row 0 in bits 0-7 (the byte
 * order of little-endian memory), see lib/crypto/aes_tables.h.
 *   ek: the key schedule w[] of FIPS-197 5.2, rounds + 1 round keys;
 *   dk: the decryption schedule dw[] of the equivalent inverse cipher,
 *       FIPS-197 5.3.5, stored in the order decryption uses it.
 */
struct aes_ctx {
	uint32_t ek[AES_RK_WORDS];
	uint32_t dk[AES_RK_WORDS];
	unsigned rounds;	/* Nr: 10, 12 or 14 */
	unsigned key_bits;	/* 128, 192 or 256 */
};

/*
 * Expands a key of key_bytes = 16, 24 or 32 bytes (AES-128/192/256) into c
 * (FIPS-197 5.2 and 5.3.5). Returns 0, or AES_EKEYLEN for any other length,
 * in which case c is zeroed.
 */
int aes_set_key(struct aes_ctx *c, const uint8_t *key, size_t key_bytes);

/* Zeroes the whole context so no round key stays in memory; the stores
 * cannot be removed by the compiler. c must be set again before reuse. */
void aes_wipe(struct aes_ctx *c);

/* One 16-byte block: the cipher (FIPS-197 5.1) and the equivalent inverse
 * cipher (5.3.5). */
void aes_encrypt_block(const struct aes_ctx *c, const uint8_t in[AES_BLOCK_BYTES],
		       uint8_t out[AES_BLOCK_BYTES]);
void aes_decrypt_block(const struct aes_ctx *c, const uint8_t in[AES_BLOCK_BYTES],
		       uint8_t out[AES_BLOCK_BYTES]);

/*
 * ECB, SP 800-38A 6.1: len bytes, a multiple of 16. Returns 0, or AES_ELEN
 * (nothing written) when len is not a multiple of 16.
 */
int aes_ecb_encrypt(const struct aes_ctx *c, const uint8_t *in, uint8_t *out, size_t len);
int aes_ecb_decrypt(const struct aes_ctx *c, const uint8_t *in, uint8_t *out, size_t len);

/*
 * CBC, SP 800-38A 6.2: len bytes, a multiple of 16. iv (16 bytes) is read
 * as the initialization vector and replaced by the last ciphertext block,
 * so a message may be processed in several calls. Returns 0, or AES_ELEN
 * (nothing written, iv unchanged) when len is not a multiple of 16.
 */
int aes_cbc_encrypt(const struct aes_ctx *c, uint8_t iv[AES_BLOCK_BYTES],
		    const uint8_t *in, uint8_t *out, size_t len);
int aes_cbc_decrypt(const struct aes_ctx *c, uint8_t iv[AES_BLOCK_BYTES],
		    const uint8_t *in, uint8_t *out, size_t len);

/*
 * CFB128, SP 800-38A 6.3 with s = 128: len bytes, a multiple of 16 (whole
 * segments only; a partial last segment is not supported). iv (16 bytes) is
 * replaced by the last ciphertext block, so a message may be processed in
 * several calls. Returns 0, or AES_ELEN (nothing written, iv unchanged) when
 * len is not a multiple of 16.
 */
int aes_cfb128_encrypt(const struct aes_ctx *c, uint8_t iv[AES_BLOCK_BYTES],
		       const uint8_t *in, uint8_t *out, size_t len);
int aes_cfb128_decrypt(const struct aes_ctx *c, uint8_t iv[AES_BLOCK_BYTES],
		       const uint8_t *in, uint8_t *out, size_t len);

/*
 * OFB, SP 800-38A 6.4; encryption and decryption are the same operation.
 * Any len in bytes: a partial last block uses the first len % 16 bytes of
 * its output block. iv (16 bytes) is replaced by the last output block
 * (whole, even when only part of it was used), so a call continues the
 * keystream at the next block boundary.
 */
void aes_ofb(const struct aes_ctx *c, uint8_t iv[AES_BLOCK_BYTES],
	     const uint8_t *in, uint8_t *out, size_t len);

/*
 * CTR, SP 800-38A 6.5 with the standard incrementing function of B.1 over
 * the whole block: counter (16 bytes) is a 128-bit big-endian integer,
 * incremented by one per block and wrapping from 2^128-1 to 0. Encryption
 * and decryption are the same operation. Any len in bytes: a partial last
 * block uses the first len % 16 bytes of its keystream block and still
 * advances the counter, so on return counter is the next unused counter
 * block (the rest of the partial keystream block is discarded).
 */
void aes_ctr(const struct aes_ctx *c, uint8_t counter[AES_BLOCK_BYTES],
	     const uint8_t *in, uint8_t *out, size_t len);

#endif
