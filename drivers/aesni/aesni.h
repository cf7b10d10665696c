/*
 * aesni: AES-128/192/256 in ECB, CBC and CTR through the AES-NI
 * instructions (AESENC, AESENCLAST, AESDEC, AESDECLAST, AESKEYGENASSIST,
 * AESIMC), written with compiler intrinsics (and one-instruction inline
 * assembly for the round instructions with a memory operand) so the same
 * file builds into the i586 kernel (inside .text_cpufeat, see
 * kernel/platform/cpufeat.h) and into x86_64 host programs (tests/drivers/aesni/test_aesni.c,
 * the host benchmark), and into the i386 benchmark (make bench-i386).
 *
 * Sources: Intel SDM vol. 2A/2B, the AESENC ... AESKEYGENASSIST pages;
 * Intel SDM vol. 3A 13.1.3 (SSE must be enabled in CR0/CR4 first);
 * FIPS-197 5.2 (key expansion) and 5.3.5 (equivalent inverse cipher, whose
 * round keys AESIMC produces); SP 800-38A 6.1, 6.2, 6.5 and B.1 (modes).
 *
 * Every function below except aesni_absent_reason() and aesni_probe()
 * executes SSE2 and AES-NI instructions: call it only when
 * aesni_absent_reason() returned NULL (CPUID.1:ECX.AES and CPUID.1:EDX.SSE2
 * set) and, in the kernel, after fpu_enable_sse() succeeded.
 * Buffers may have any alignment; in == out (in place) is allowed, other
 * overlaps are not. Lengths are in bytes.
 */
#ifndef CQ_DRIVERS_AESNI_H
#define CQ_DRIVERS_AESNI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/platform/cpuid.h"
#include "lib/engine/engine.h"

#define AESNI_MAX_ROUNDS	14	/* Nr for AES-256, FIPS-197 Figure 4 */

/*
 * One expanded key schedule: rounds + 1 round keys of 16 bytes, in the
 * order the cipher uses them (for a decryption schedule: the equivalent
 * inverse cipher's dw[] of FIPS-197 5.3.5, last encryption round key
 * first, AESIMC applied to the middle ones).
 */
struct aesni_key {
	uint8_t rk[(AESNI_MAX_ROUNDS + 1) * 16] __attribute__((aligned(16)));
	unsigned rounds;	/* Nr: 10, 12 or 14 */
};

/*
 * Expands key (key_bits / 8 bytes; key_bits 128, 192 or 256) into enc, and
 * into dec when dec is not NULL. Returns 0, or ENGINE_EKEY for another
 * key size (enc and dec untouched).
 */
int aesni_expand_key(struct aesni_key *enc, struct aesni_key *dec,
		     const uint8_t *key, unsigned key_bits);

/* Zeroes a schedule; the stores cannot be removed by the compiler. No SSE. */
void aesni_wipe_key(struct aesni_key *k);

/*
 * ECB (SP 800-38A 6.1), eight blocks per loop iteration. len is a multiple
 * of 16; a trailing partial block is left untouched. Encrypt takes the
 * encryption schedule, decrypt the decryption schedule.
 */
void aesni_ecb_encrypt(const struct aesni_key *enc, const uint8_t *in, uint8_t *out, size_t len);
void aesni_ecb_decrypt(const struct aesni_key *dec, const uint8_t *in, uint8_t *out, size_t len);

/*
 * CBC (SP 800-38A 6.2). len is a multiple of 16 (a trailing partial block
 * is left untouched); iv (16 bytes) is read as the IV and replaced by the
 * last ciphertext block, so a message may be split over several calls.
 * Encryption is serial (one block at a time, each depends on the last);
 * decryption takes seven blocks per loop iteration.
 */
void aesni_cbc_encrypt(const struct aesni_key *enc, uint8_t iv[16],
		       const uint8_t *in, uint8_t *out, size_t len);
void aesni_cbc_decrypt(const struct aesni_key *dec, uint8_t iv[16],
		       const uint8_t *in, uint8_t *out, size_t len);

/*
 * CTR (SP 800-38A 6.5 with the standard incrementing function of B.1 over
 * all 128 bits): counter (16 bytes) is a big-endian integer incremented by
 * one per block, carrying through all 16 bytes and wrapping from 2^128-1
 * to 0. Encryption and decryption are the same operation; seven blocks per
 * loop iteration. Any len: a partial last block uses the first len % 16
 * bytes of its keystream block and still consumes its counter value. On
 * return counter is the next unused counter block. Uses the encryption
 * schedule.
 */
void aesni_ctr(const struct aesni_key *enc, uint8_t counter[16],
	       const uint8_t *in, uint8_t *out, size_t len);

/* ---- The engine ---- */

/*
 * The "aesni" engine: claims exactly ECB, CBC and CTR, encrypt and decrypt,
 * for 128-, 192- and 256-bit keys; any alignment; no length limit. Its
 * session private area holds the encryption and the decryption schedule
 * (struct aesni_key each), wiped by release().
 */
extern const struct aes_engine aesni_engine;

/*
 * Why the engine cannot run on cpu, or NULL if it can: "CPUID.1:ECX.AES is
 * clear" (no AES-NI) or "CPUID.1:EDX.SSE2 is clear" (AES-NI needs the XMM
 * registers and the SSE2 integer moves). Pure: executes no instruction
 * beyond i586.
 */
const char *aesni_absent_reason(const struct cpu_info *cpu);

/*
 * Registers aesni_engine (engine_register_aes) when aesni_absent_reason()
 * is NULL. Returns NULL when registered, else the reason it was not (the
 * absent reason, or engine_strerror() of the registration error). In the
 * kernel call it only after fpu_enable_sse() returned true.
 */
const char *aesni_probe(const struct cpu_info *cpu);

/* The AES-NI driver for the run's table (lib/engine/driver.h). */
struct driver;
extern const struct driver aesni_driver;

#endif
