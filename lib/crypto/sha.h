/*
 * SHA-1 and SHA-256 (FIPS 180-4), init/update/final. Freestanding: used by
 * the kernel (image hash, SHA KATs, PHE cross-checks) and by host tools.
 * Message lengths are in bytes, up to 2^61-1.
 */
#ifndef CQ_LIB_SHA_H
#define CQ_LIB_SHA_H

#include <stddef.h>
#include <stdint.h>

#define SHA1_DIGEST_BYTES   20
#define SHA256_DIGEST_BYTES 32
#define SHA_BLOCK_BYTES     64

struct sha1_ctx {
	uint32_t h[5];
	uint64_t length;        /* bytes hashed so far */
	uint8_t buf[SHA_BLOCK_BYTES];
	unsigned used;          /* bytes waiting in buf */
};

struct sha256_ctx {
	uint32_t h[8];
	uint64_t length;
	uint8_t buf[SHA_BLOCK_BYTES];
	unsigned used;
};

void sha1_init(struct sha1_ctx *c);
void sha1_update(struct sha1_ctx *c, const void *data, size_t len);
/* Writes 20 bytes to out and wipes the context. */
void sha1_final(struct sha1_ctx *c, uint8_t out[SHA1_DIGEST_BYTES]);

void sha256_init(struct sha256_ctx *c);
void sha256_update(struct sha256_ctx *c, const void *data, size_t len);
/* Writes 32 bytes to out and wipes the context. */
void sha256_final(struct sha256_ctx *c, uint8_t out[SHA256_DIGEST_BYTES]);

/* One-shot helpers. */
void sha1(const void *data, size_t len, uint8_t out[SHA1_DIGEST_BYTES]);
void sha256(const void *data, size_t len, uint8_t out[SHA256_DIGEST_BYTES]);

/*
 * The compression functions on nblocks whole 64-byte blocks, exposed so a
 * hardware engine that takes partial state (PadLock PHE block mode) can be
 * cross-checked against software state after each block.
 */
void sha1_blocks(uint32_t h[5], const uint8_t *blocks, size_t nblocks);
void sha256_blocks(uint32_t h[8], const uint8_t *blocks, size_t nblocks);

#endif
