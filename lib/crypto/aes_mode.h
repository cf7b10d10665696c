/*
 * aes_mode: the SP 800-38A modes as values, and one dispatch from (mode,
 * direction) to the software AES of lib/crypto/aes.h. The engine registry,
 * the unit tests and the host benchmark all name modes through these.
 */
#ifndef CQ_LIB_AES_MODE_H
#define CQ_LIB_AES_MODE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/crypto/aes.h"

/* Modes of SP 800-38A. CFB is CFB128 (full-block feedback). */
enum aes_mode {
	AES_MODE_ECB,
	AES_MODE_CBC,
	AES_MODE_CFB128,
	AES_MODE_OFB,
	AES_MODE_CTR,
	AES_MODE_COUNT
};

enum aes_dir {
	AES_DIR_ENCRYPT,
	AES_DIR_DECRYPT,
	AES_DIR_COUNT
};

#define AES_MODE_OK		0
#define AES_MODE_EUNSUPPORTED	(-100)	/* no such mode or direction, or no IV for a chaining mode */

/*
 * Processes len bytes from in to out (in == out allowed) in mode m and
 * direction d with the key schedule in c: a multiple of 16 bytes for ECB,
 * CBC and CFB128, any length for the stream modes OFB and CTR (as
 * lib/crypto/aes.h). iv: the 16-byte IV (CBC, CFB128, OFB) or counter
 * block (CTR), updated so a following call continues the stream; NULL for
 * ECB. OFB and CTR are the same operation both ways (SP 800-38A 6.4, 6.5).
 * Returns AES_MODE_OK (0), AES_ELEN (lib/crypto/aes.h) for a bad length,
 * or AES_MODE_EUNSUPPORTED.
 */
int aes_crypt_mode(const struct aes_ctx *c, enum aes_mode m, enum aes_dir d, uint8_t *iv,
		   const uint8_t *in, uint8_t *out, size_t len);

#endif
