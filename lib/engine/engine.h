/*
 * engine: the registry of everything that can be tested and measured.
 *
 * An AES engine declares its name, the (key size, mode, direction) triples
 * it supports, its alignment and length limits, and its operations; an RNG
 * source declares its name, its mode and a read operation; a hash engine
 * declares its algorithm and a one-shot digest. Drivers register engines
 * after probing; the software engines are always registered. The KAT
 * runner, the cross-check, the benchmark and the report iterate over what
 * is registered, never over a list of devices.
 *
 * Hardware-free: the same registry serves the kernel and the host tools
 * (e.g. `cavp --engine NAME`, with device-model-backed drivers on the host).
 */
#ifndef CQ_LIB_ENGINE_H
#define CQ_LIB_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/crypto/aes_mode.h"	/* AES_BLOCK_BYTES, enum aes_mode, enum aes_dir */

/* Key sizes as an index: 0 = 128, 1 = 192, 2 = 256 bits. */
#define AES_KEYSIZES 3
unsigned aes_keysize_index(unsigned key_bits);   /* 0..2, or AES_KEYSIZES if invalid */
unsigned aes_keysize_bits(unsigned index);       /* 128, 192 or 256 */

/* Bit for a (mode, direction) pair within a key size's support mask. */
#define AES_TRIPLE_BIT(mode, dir) (1u << ((unsigned)(mode) * AES_DIR_COUNT + (unsigned)(dir)))

/* "ecb", "cbc", "cfb128", "ofb", "ctr"; "encrypt"/"decrypt". */
const char *aes_mode_name(enum aes_mode m);
const char *aes_dir_name(enum aes_dir d);

/* Error codes returned by engine operations (0 = success). */
#define ENGINE_OK          0
#define ENGINE_EUNSUPPORTED (-1)  /* the engine does not claim this triple */
#define ENGINE_ELEN        (-2)   /* length not a multiple of 16, or over max_len */
#define ENGINE_EKEY        (-3)   /* bad key size */
#define ENGINE_ETIMEOUT    (-4)   /* the hardware did not complete in time */
#define ENGINE_EHW         (-5)   /* the hardware reported an error / misbehaved */
#define ENGINE_EFULL       (-6)   /* registry full */
#define ENGINE_ENOMEM      (-7)   /* no buffer memory */
const char *engine_strerror(int err);

/*
 * Per-key state an engine keeps between operations (expanded key
 * schedules, a copy of the raw key for hardware that loads it per request).
 * 16-byte aligned, owned by the caller, wiped by the engine's release().
 */
#define AES_SESSION_PRIV_BYTES 1024
struct aes_session {
	const struct aes_engine *engine;
	unsigned key_bits;
	uint8_t priv[AES_SESSION_PRIV_BYTES] __attribute__((aligned(16)));
};

struct aes_engine {
	const char *name;          /* "software", "aesni", "padlock-ace", "geode-sb" */
	const char *description;   /* one line for the report: what executes the cipher */
	/* supported[k]: AES_TRIPLE_BIT(mode, dir) for every pair the engine
	 * claims with key size index k. A claimed triple is one the hardware
	 * itself executes: never a silent software fallback. */
	uint32_t supported[AES_KEYSIZES];
	unsigned align;            /* buffer alignment the caller must give, bytes (1 = any) */
	size_t max_len;            /* longest single operation, bytes (0 = no limit) */
	void *ctx;                 /* the driver's own state */

	/* Loads key (key_bits/8 bytes) into s. Returns 0, ENGINE_EKEY, or an error. */
	int (*set_key)(struct aes_session *s, const uint8_t *key, unsigned key_bits);
	/*
	 * Processes len bytes (a multiple of 16, at most max_len when set) from
	 * in to out (in == out allowed). iv is the 16-byte IV (CBC, CFB, OFB)
	 * or counter block (CTR), updated so a following call continues the
	 * stream; NULL for ECB. Returns 0 or a negative ENGINE_E* code.
	 */
	int (*crypt)(struct aes_session *s, enum aes_mode mode, enum aes_dir dir,
		     uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len);
	/* Wipes the key material in s (and any key the hardware holds). */
	void (*release)(struct aes_session *s);

	/*
	 * Optional (NULL when the hardware has one request in flight): two
	 * independent requests of len bytes each, started together on the
	 * hardware's two contexts and both finished on return, with the same
	 * session (the contexts share the key) and their own IVs (iv_b NULL
	 * for ECB). Only for dual_mode/dual_dir; the benchmark adds a
	 * `:dual-context` row measured with it. Returns 0 or ENGINE_E*.
	 */
	int (*crypt_dual)(struct aes_session *s, enum aes_mode mode, enum aes_dir dir,
			  uint8_t *iv_a, const uint8_t *in_a, uint8_t *out_a,
			  uint8_t *iv_b, const uint8_t *in_b, uint8_t *out_b, size_t len);
	enum aes_mode dual_mode;
	enum aes_dir dual_dir;
	const char *dual_what;     /* what the dual row measures, for the report */
};

/* Whether e claims (key_bits, mode, dir). */
bool aes_engine_supports(const struct aes_engine *e, unsigned key_bits,
			 enum aes_mode mode, enum aes_dir dir);

/*
 * Convenience: set_key + crypt + release in one call (len bytes, a multiple
 * of 16). Checks the triple is claimed first. Returns 0 or ENGINE_E*.
 */
int aes_engine_oneshot(const struct aes_engine *e, unsigned key_bits, const uint8_t *key,
		       enum aes_mode mode, enum aes_dir dir, uint8_t *iv,
		       const uint8_t *in, uint8_t *out, size_t len);

/* ---- RNG sources ---- */

/*
 * The claim an RNG source is judged against (docs/rng-verdict.md, "The
 * rule"). Only the mode the public drivers use and document is held to
 * full entropy (Geode T_SEL 3 as the BSDs set it, PadLock xstore divisor
 * 3 as Linux via-rng uses it, RDRAND/RDSEED); every other mode (raw noise,
 * partial post-processing, the faster xstore divisors, test modes) is
 * characterised: nothing about it (statistics, the smoke test, the
 * benchmark, a wait, repeats) can be `not ok`.
 */
enum rng_claim {
	RNG_CLAIM_FULL = 0,        /* full entropy, 8 bits per byte: every rule can fail the box */
	RNG_CLAIM_CHARACTERISE,    /* no documented claim: collected, every statistic and
				    * estimate printed as information, never a pass/fail rule */
};

struct rng_source {
	const char *name;          /* "rdrand", "rdseed", "geode-trng/tsel0", "padlock-xstore/div0" */
	const char *description;
	bool known_bad;            /* a deliberately bad source (self-check): must FAIL the tests */
	void *ctx;
	/*
	 * Fills buf with len random bytes. Returns 0, or ENGINE_ETIMEOUT /
	 * ENGINE_EHW when the source stopped delivering (e.g. RDRAND failed
	 * 10 times in a row); *got says how many bytes were delivered.
	 */
	int (*read)(const struct rng_source *r, uint8_t *buf, size_t len, size_t *got);
	/* The claim (zero-initialised: RNG_CLAIM_FULL, as before the field existed). */
	enum rng_claim claim;
	/* CHARACTERISE: the min-entropy per byte, micro-bits (1000000 = 1 bit),
	 * the health-test figures are computed at (0: 1 bit per byte); stated
	 * beside the estimates, which say whether the data supports it. */
	uint32_t claim_h_micro;
	const char *claim_why;     /* CHARACTERISE: why it is not judged, for the report */
};

/* ---- Hash engines ---- */

enum hash_alg {
	HASH_SHA1,
	HASH_SHA256,
	HASH_ALG_COUNT
};
const char *hash_alg_name(enum hash_alg a);       /* "sha1", "sha256" */
size_t hash_digest_bytes(enum hash_alg a);        /* 20, 32 */

struct hash_engine {
	const char *name;          /* "software", "padlock-phe" */
	const char *description;
	enum hash_alg alg;
	size_t max_len;            /* longest message for one digest, bytes (0 = no limit) */
	void *ctx;
	/* One-shot digest of len bytes into out (hash_digest_bytes(alg)). Returns 0 or ENGINE_E*. */
	int (*digest)(const struct hash_engine *h, const uint8_t *msg, size_t len, uint8_t *out);
};

/* ---- Montgomery multipliers ---- */

#define MONTMUL_MAX_SIZES 8
struct montmul_engine {
	const char *name;          /* "padlock-pmm" */
	const char *description;
	const unsigned *bits;      /* operand sizes it measures, bits */
	unsigned nbits;            /* at most MONTMUL_MAX_SIZES */
	void *ctx;
	/* count multiplications of bits-bit operands (operands held by the
	 * driver). Returns 0 or ENGINE_E*. */
	int (*op)(void *ctx, unsigned bits, uint64_t count);
	/* Optional: which code runs (the software multiplier's path, "integer"
	 * or "sse2"), for the @montmul record; NULL for hardware. */
	const char *(*path)(void);
};

/* ---- The registry ---- */

#define ENGINE_MAX_AES  8
#define ENGINE_MAX_RNG  24
#define ENGINE_MAX_HASH 8
#define ENGINE_MAX_MONTMUL 4
#define ENGINE_MAX_EMULATED 4

/* Register an engine (the pointer must stay valid). Returns 0 or ENGINE_EFULL. */
int engine_register_aes(const struct aes_engine *e);
int engine_register_rng(const struct rng_source *r);
int engine_register_hash(const struct hash_engine *h);
int engine_register_montmul(const struct montmul_engine *m);

unsigned engine_aes_count(void);
const struct aes_engine *engine_aes(unsigned i);
const struct aes_engine *engine_aes_find(const char *name);   /* NULL if absent */
unsigned engine_rng_count(void);
const struct rng_source *engine_rng(unsigned i);
const struct rng_source *engine_rng_find(const char *name);
unsigned engine_hash_count(void);
const struct hash_engine *engine_hash(unsigned i);
const struct hash_engine *engine_hash_find(const char *name, enum hash_alg alg);
unsigned engine_montmul_count(void);
const struct montmul_engine *engine_montmul(unsigned i);
/* The montmul engines not named "software": the multipliers software is compared with. */
unsigned engine_montmul_hw_count(void);

/*
 * Emulated engines. The emulation build, which alone knows which devices
 * are models, declares them by name prefix ("geode-", "padlock-") before
 * the probes run; engine_emulated(name) then says whether an engine or
 * source of that name is backed by a device model or an instruction
 * emulator rather than hardware. At most ENGINE_MAX_EMULATED prefixes
 * (more are ignored). The release image never declares any.
 */
void engine_mark_emulated(const char *prefix);
bool engine_emulated(const char *name);

/* Forget every engine registered (host tests); engine_mark_emulated() marks stay. */
void engine_registry_reset(void);

/* Registers the software AES engine "software", the software SHA-1/SHA-256
 * engines and the software Montgomery multiplier "software" (1024 bits). */
void engine_register_software(void);

#endif
