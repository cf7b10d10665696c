/*
 * vperm: constant-time AES-128/192/256 in software with the SSSE3 byte
 * shuffle PSHUFB (the vector-permute method of M. Hamburg, "Accelerating
 * AES with Vector Permute Instructions", CHES 2009; constants derived in
 * lib/crypto/vperm_tables.c), in every SP 800-38A mode the software engine
 * has. No table lookup depends on key or data: the lookups are shuffles of
 * registers by the data's nibbles, and the tables' addresses are fixed.
 * On CPUs with SSSE3 (VIA Nano, Zhaoxin, every AES-NI CPU) it is what a
 * user's OpenSSL runs without AES-NI or PadLock (vpaes), so it is the
 * software baseline hardware engines are compared with there
 * (kernel/run/bench_print.c); make bench-i386 measures it against OpenSSL's
 * vpaes-x86.
 *
 * 32-bit x86 only (the image; the i386 tests): the cipher is assembly in
 * .text_cpufeat (kernel/platform/cpufeat.h). Every function below except
 * vperm_absent_reason() executes SSSE3 instructions: call it only when
 * vperm_absent_reason() returned NULL and, in the kernel, after
 * fpu_enable_sse() succeeded. Buffers may have any alignment; in == out is
 * allowed, other overlaps are not. Lengths are in bytes.
 */
#ifndef CQ_DRIVERS_VPERM_H
#define CQ_DRIVERS_VPERM_H

#include <stddef.h>
#include <stdint.h>

#include "lib/platform/cpuid.h"
#include "lib/engine/engine.h"

#define VPERM_MAX_ROUNDS	14	/* Nr for AES-256, FIPS-197 Figure 4 */

/*
 * An expanded key. enc: round key 0 in the state basis T, rounds 1 .. Nr-1
 * in basis T with the S-box constant added, round Nr as is with the
 * constant added; dec: the equivalent inverse cipher's keys (FIPS-197
 * 5.3.5) in basis U with the inverse S-box's constant added, the last as
 * is (lib/crypto/vperm_tables.c explains the bases).
 */
struct vperm_key {
	uint8_t enc[VPERM_MAX_ROUNDS + 1][16] __attribute__((aligned(16)));
	uint8_t dec[VPERM_MAX_ROUNDS + 1][16] __attribute__((aligned(16)));
	unsigned rounds;	/* Nr: 10, 12 or 14 */
};

/* vperm_crypt()'s operations (SP 800-38A 6.1-6.5, whole blocks). */
enum vperm_op {
	VPERM_ECB_ENCRYPT,
	VPERM_ECB_DECRYPT,
	VPERM_CBC_ENCRYPT,
	VPERM_CBC_DECRYPT,
	VPERM_CFB_ENCRYPT,	/* CFB128 */
	VPERM_CFB_DECRYPT,
	VPERM_OFB,
	VPERM_CTR,		/* the counter block a 128-bit big-endian integer, B.1 */
};

/*
 * Expands key (key_bits / 8 bytes; 128, 192 or 256) into k, constant-time
 * (SubWord through the same shuffles). Returns 0, or ENGINE_EKEY for
 * another size (k untouched).
 */
int vperm_expand_key(struct vperm_key *k, const uint8_t *key, unsigned key_bits);

/*
 * blocks 16-byte blocks from in to out with k. iv (16 bytes; unused for
 * ECB) is the IV, output block or counter in and the next one out, as
 * lib/crypto/aes.h's modes leave it. Nothing happens for blocks = 0.
 */
void vperm_crypt(const struct vperm_key *k, enum vperm_op op, uint8_t iv[16],
		 const uint8_t *in, uint8_t *out, size_t blocks);

/*
 * The "vperm" engine: every key size, mode and direction of the software
 * engine; any alignment; no length limit (a partial block of OFB or CTR
 * is not a length the engine interface passes). Its session private area
 * holds a struct vperm_key, wiped by release().
 */
extern const struct aes_engine vperm_engine;

/* Why the engine cannot run on cpu, or NULL: "CPUID.1:ECX.SSSE3 is clear",
 * or "not built for this architecture" outside 32-bit x86. No SSE. */
const char *vperm_absent_reason(const struct cpu_info *cpu);

/* The vperm driver for the run's table (lib/engine/driver.h). */
struct driver;
extern const struct driver vperm_driver;

#endif
