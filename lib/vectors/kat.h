/*
 * kat: the embedded known-answer vectors and the runners that check an
 * engine against them, and the cross-check of hardware engines against
 * the software engine with pseudo-random data (crosscheck.c).
 *
 * Vectors, typed in from the standards:
 *   FIPS-197 Appendix C.1-C.3: AES-128/192/256 on one block. Used for every
 *     mode through a one-block message that reduces the mode to the cipher:
 *     ECB as is; CBC with IV = 0; CFB128, OFB and CTR with the FIPS-197
 *     plaintext as IV (or counter) and an all-zero message, so the output
 *     is the FIPS-197 ciphertext (decryption: ciphertext in, zeros out).
 *   SP 800-38A Appendix F.1-F.5: ECB, CBC, CFB128 (F.3.13-F.3.18), OFB and
 *     CTR, four blocks, for the three key sizes, encrypt and decrypt.
 *   FIPS 180-2 Appendix A.1-A.3 (SHA-1) and B.1-B.3 (SHA-256): "abc", the
 *     448-bit two-block message, and one million 'a' (built in the caller's
 *     buffer, not stored).
 *
 * Nothing here allocates or prints: buffers come from the caller and every
 * failure detail is one line of text handed to a callback (the kernel
 * prints it as a `#` line, host tests assert on it).
 */
#ifndef CQ_LIB_KAT_H
#define CQ_LIB_KAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/engine/engine.h"

#define KAT_AES_MAX_BYTES	64	/* longest AES vector message: 4 blocks */
#define KAT_AES_PER_TRIPLE	2	/* FIPS-197 + SP 800-38A per (key size, mode, dir) */
#define KAT_HASH_PER_ALG	3
#define KAT_NOTE_MAX		240	/* a note line, NUL included */
#define KAT_MILLION_A		1000000	/* bytes of FIPS 180-2 A.3/B.3 */

/* One line of failure detail (no newline, no "# "). */
typedef void (*kat_note_fn)(void *ctx, const char *line);

/* What one run checked. A test passes when run > 0 and failed == 0. */
struct kat_result {
	unsigned run;		/* vectors (or cross-check lengths) checked */
	unsigned failed;	/* of those, how many gave a wrong answer or an error */
	unsigned skipped;	/* not applicable: longer than max_len or the buffer */
};

/*
 * Buffers the caller provides (lib/ allocates nothing). in, out and ref_out
 * hold cap bytes each and must meet the engine's alignment (64 suits every
 * engine we know). ref and ref_out serve only the cross-check.
 */
struct kat_buffers {
	struct aes_session *session;	/* for the engine under test */
	struct aes_session *ref;	/* for the software reference */
	uint8_t *in, *out, *ref_out;
	size_t cap;			/* bytes, at least KAT_AES_MAX_BYTES */
};

/* One AES vector, decoded. */
struct kat_aes_vector {
	char name[12];		/* "C.1", "F.2.1" */
	const char *source;	/* "FIPS-197", "SP 800-38A" */
	unsigned key_bits;
	enum aes_mode mode;
	enum aes_dir dir;
	uint8_t key[32];
	uint8_t iv[AES_BLOCK_BYTES];	/* IV or counter block; zero for ECB */
	uint8_t in[KAT_AES_MAX_BYTES];
	uint8_t out[KAT_AES_MAX_BYTES];
	size_t len;		/* bytes of in and out */
};

/*
 * Fills v[0..max-1] with the vectors for (key_bits, mode, dir); returns how
 * many (KAT_AES_PER_TRIPLE for a valid triple, 0 otherwise).
 */
unsigned kat_aes_vectors(unsigned key_bits, enum aes_mode mode, enum aes_dir dir,
			 struct kat_aes_vector *v, unsigned max);

/* "FIPS-197 C.1, SP 800-38A F.2.1" into buf (n bytes). Returns buf. */
char *kat_aes_sources(unsigned key_bits, enum aes_mode mode, enum aes_dir dir,
		      char *buf, size_t n);

/*
 * Runs the vectors of (key_bits, mode, dir) through e, twice each: the
 * whole message in one call out of place, then in place one block per call
 * (which checks that the IV/counter carries over between calls). A wrong
 * block gives a note "vector F.2.1 block 2: expected <hex> got <hex>"
 * (blocks numbered from 1 as in the standard); an error return gives
 * "vector C.1: crypt returned -5 (hardware error)". Results in *r.
 * Unclaimed triples and misaligned buffers are failures with a note.
 */
void kat_aes_run(const struct aes_engine *e, unsigned key_bits, enum aes_mode mode,
		 enum aes_dir dir, const struct kat_buffers *b,
		 kat_note_fn note, void *ctx, struct kat_result *r);

/* One hash vector: msg repeated `repeat` times. */
struct kat_hash_vector {
	const char *name;	/* "A.1" */
	const char *what;	/* "\"abc\"" */
	enum hash_alg alg;
	const char *msg;
	size_t repeat;
	const char *digest;	/* hex */
};

/* The vectors of alg (KAT_HASH_PER_ALG of them); sets *n. */
const struct kat_hash_vector *kat_hash_vectors(enum hash_alg alg, unsigned *n);

/* "FIPS 180-2 A.1-A.3" for alg into buf (n bytes). Returns buf. */
char *kat_hash_sources(enum hash_alg alg, char *buf, size_t n);

/*
 * Runs h's algorithm's vectors through h. buf (cap bytes) holds each
 * message; a vector longer than cap or than h->max_len is skipped with a
 * note (cap >= KAT_MILLION_A runs them all). Failure note:
 * "vector A.3 (one million 'a'): expected <hex> got <hex>".
 */
void kat_hash_run(const struct hash_engine *h, uint8_t *buf, size_t cap,
		  kat_note_fn note, void *ctx, struct kat_result *r);

/* ---- Cross-check (crosscheck.c) ---- */

/*
 * The pseudo-random generator of the cross-check: SplitMix64 (lib/util/splitmix64.h; G. Steele,
 * D. Lea, C. Flood, "Fast splittable pseudorandom number generators",
 * OOPSLA 2014): state += 0x9E3779B97F4A7C15, then the output is the state
 * mixed by two xor-shift-multiply steps. Not for secrets: only so a seed
 * printed in the report reproduces the same keys, IVs and data.
 */
struct xc_rng {
	uint64_t state;
};
void xc_rng_seed(struct xc_rng *g, uint64_t seed);
uint64_t xc_rng_next(struct xc_rng *g);
void xc_rng_fill(struct xc_rng *g, uint8_t *p, size_t n);

/* Message lengths of the AES and hash cross-checks, bytes. */
#define XC_AES_LENGTHS	8	/* 16 .. 16384 */
#define XC_HASH_LENGTHS	9	/* 0 .. 16384 */
#define XC_MAX_BYTES	16384
extern const size_t xc_aes_lengths[XC_AES_LENGTHS];
extern const size_t xc_hash_lengths[XC_HASH_LENGTHS];

/*
 * Compares e with ref (the software engine) on (key_bits, mode, dir): for
 * each length of xc_aes_lengths that fits b->cap, a random key, IV and
 * message, encrypted or decrypted by both (by e in pieces of at most
 * e->max_len, chaining the IV). The stream depends only on (seed, key_bits,
 * mode, dir), so one test can be rerun alone. The first mismatch of a
 * length gives a note "length 4096: first mismatch at offset 1234 (block
 * 78): expected <hex> got <hex>"; a different IV/counter after the call
 * gives "length 4096: IV after the call: expected .. got ..".
 */
void xc_aes_run(const struct aes_engine *e, const struct aes_engine *ref,
		unsigned key_bits, enum aes_mode mode, enum aes_dir dir, uint32_t seed,
		const struct kat_buffers *b, kat_note_fn note, void *ctx,
		struct kat_result *r);

/*
 * Compares h with ref (same algorithm) on random messages of each length
 * of xc_hash_lengths that fits cap (buf: cap bytes) and h->max_len. Note:
 * "length 55: expected <hex> got <hex>".
 */
void xc_hash_run(const struct hash_engine *h, const struct hash_engine *ref,
		 uint32_t seed, uint8_t *buf, size_t cap, kat_note_fn note, void *ctx,
		 struct kat_result *r);

/* Internal helper shared by kat.c and crosscheck.c: formats and sends a note. */
void kat_note(kat_note_fn note, void *ctx, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
